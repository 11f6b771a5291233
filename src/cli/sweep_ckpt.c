/* sweep_ckpt.c — the checkpoint's lines, each proving what it answers. A line is
 *   {"point":K,"samplab":VERSION,"answers":{the point: study, job, input, axis value,
 *    settings, seed, options},"inputs":{PATH:"sha256:…"},"sum":"sha256:…","record":"…"}
 * with the record kept as a JSON string (its bytes survive any re-spacing or CRLF
 * edit of the file). --resume takes a record only when every part verifies against
 * this spec, this build and the input files as they are now; anything else is run
 * again, never taken and never fatal. SHA-256 is nettle's (nettle/sha2.h). */
#define _GNU_SOURCE /* strndup */
#include <errno.h>
#include <jansson.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/sl_cli.h"

struct sl_cli_sweep_digest {
    char *path;
    char hex[7 + 2 * SHA256_DIGEST_SIZE + 1]; /* "sha256:" and the digest, or "" (not a regular file) */
};

static void hex_of(struct sha256_ctx *c, char *out)
{
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(c, sizeof d, d);
    memcpy(out, "sha256:", 7);
    for (size_t i = 0; i < sizeof d; i++)
        snprintf(out + 7 + 2 * i, 3, "%02x", d[i]);
}

static void sum_text(const char *s, char *out)
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, strlen(s), (const uint8_t *)s);
    hex_of(&c, out);
}

/* The content digest of a regular file, "unreadable: why" when it cannot be read;
 * "" for what is not a regular file (an inline list, a number, a folder). */
static void sum_file(const char *path, char *out, size_t cap)
{
    struct stat st;
    *out = 0;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(out, cap, "unreadable: %s", strerror(errno));
        return;
    }
    struct sha256_ctx c;
    sha256_init(&c);
    uint8_t buf[1 << 14];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&c, n, buf);
    if (ferror(f))
        snprintf(out, cap, "unreadable: %s", strerror(errno));
    else
        hex_of(&c, out);
    fclose(f);
}

/* path's digest, computed once a run (a large input read by many points is read once). */
static const char *digest_of(sl_cli_sweep_run *r, const char *path)
{
    for (size_t i = 0; i < r->n_digests; i++)
        if (!strcmp(r->digests[i].path, path))
            return r->digests[i].hex;
    struct sl_cli_sweep_digest *d = realloc(r->digests, (r->n_digests + 1) * sizeof *d);
    if (!d)
        return NULL;
    r->digests = d;
    d += r->n_digests;
    if (!(d->path = strdup(path)))
        return NULL;
    sum_file(path, d->hex, sizeof d->hex);
    r->n_digests++;
    return d->hex;
}

/* Every string of v that names a regular file, with its digest, into obj. */
static int inputs_into(sl_cli_sweep_run *r, const json_t *v, json_t *obj)
{
    if (json_is_string(v)) {
        const char *h = digest_of(r, json_string_value(v));
        if (!h)
            return -1;
        return *h ? json_object_set_new(obj, json_string_value(v), json_string(h)) : 0;
    }
    size_t k;
    const char *key;
    json_t *x;
    if (json_is_array(v))
        json_array_foreach(v, k, x) if (inputs_into(r, x, obj)) return -1;
    if (json_is_object(v))
        json_object_foreach((json_t *)v, key, x) if (inputs_into(r, x, obj)) return -1;
    return 0;
}

/* What point i answers: its description, and the files it reads as they are now. */
static int proof_of(sl_cli_sweep_run *r, size_t i, json_t **answers, json_t **inputs)
{
    char *key = sl_cli_sweep_point_key(&r->sw, i);
    *answers = key ? json_loads(key, 0, NULL) : NULL;
    free(key);
    *inputs = json_object();
    const char *part[] = {"input", "settings", "options"};
    int bad = !*answers || !*inputs;
    for (size_t k = 0; !bad && k < sizeof part / sizeof *part; k++)
        bad = inputs_into(r, json_object_get(*answers, part[k]), *inputs);
    if (bad) {
        json_decref(*answers);
        json_decref(*inputs);
    }
    return bad ? -1 : 0;
}

char *sl_cli_sweep_ckpt_line(sl_cli_sweep_run *r, size_t i, const char *rec)
{
    json_t *answers, *inputs;
    if (proof_of(r, i, &answers, &inputs))
        return NULL;
    char sum[7 + 2 * SHA256_DIGEST_SIZE + 1];
    sum_text(rec, sum);
    json_t *l = json_object();
    json_object_set_new(l, "point", json_integer((json_int_t)i));
    json_object_set_new(l, "samplab", json_string(SL_VERSION));
    json_object_set_new(l, "answers", answers);
    json_object_set_new(l, "inputs", inputs);
    json_object_set_new(l, "sum", json_string(sum));
    json_object_set_new(l, "record", json_string(rec));
    char *text = json_dumps(l, JSON_COMPACT);
    json_decref(l);
    return text;
}

static const char *const why_text[SL_CLI_CKPT_WHY] = {
    [SL_CLI_CKPT_UNREADABLE] = "not a record (cut short, edited or not JSON)",
    [SL_CLI_CKPT_VERSION] = "written by another samplab",
    [SL_CLI_CKPT_POINT] = "a record of other settings or another point",
    [SL_CLI_CKPT_INPUT] = "an input file changed since",
    [SL_CLI_CKPT_SUM] = "its result does not match its checksum",
};

/* Why line (len bytes) is not a verified record, or -1 when it is (*k its point). */
static int verify(sl_cli_sweep_run *r, const char *line, size_t len, size_t *k, const char **rec)
{
    json_t *j = json_loadb(line, len, 0, NULL), *pt = json_object_get(j, "point");
    int why = SL_CLI_CKPT_UNREADABLE;
    *rec = json_string_value(json_object_get(j, "record"));
    const char *ver = json_string_value(json_object_get(j, "samplab"));
    const char *sum = json_string_value(json_object_get(j, "sum"));
    if (!json_is_integer(pt) || json_integer_value(pt) < 0 || (size_t)json_integer_value(pt) >= r->sw.n_points ||
        !*rec || !ver || !sum) {
        json_decref(j);
        return why;
    }
    *k = (size_t)json_integer_value(pt);
    json_t *answers = NULL, *inputs = NULL, *rj = json_loads(*rec, 0, NULL);
    char want[7 + 2 * SHA256_DIGEST_SIZE + 1];
    sum_text(*rec, want);
    if (strcmp(ver, SL_VERSION)) {
        why = SL_CLI_CKPT_VERSION;
    } else if (proof_of(r, *k, &answers, &inputs)) {
        why = SL_CLI_CKPT_UNREADABLE; /* out of memory: run the point again */
    } else if (!json_equal(answers, json_object_get(j, "answers")) ||
               !json_equal(json_object_get(rj, "point"), pt) ||
               !json_equal(json_object_get(rj, "study"), json_object_get(answers, "study"))) {
        why = SL_CLI_CKPT_POINT;
    } else if (!json_equal(inputs, json_object_get(j, "inputs"))) {
        why = SL_CLI_CKPT_INPUT;
    } else if (strcmp(sum, want) || !rj) {
        why = SL_CLI_CKPT_SUM;
    } else {
        why = -1;
        *rec = strdup(*rec);
    }
    json_decref(answers);
    json_decref(inputs);
    json_decref(rj);
    json_decref(j);
    return why;
}

void sl_cli_sweep_ckpt_load(sl_cli_sweep_run *r, const char *text, size_t len)
{
    size_t b = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n')
            continue;
        /* a line cut by a kill has no newline: not read now, refused when a resume has ended it */
        size_t n = i - b, k = 0;
        if (strspn(text + b, " \t\r") < n) {
            const char *rec;
            int why = verify(r, text + b, n, &k, &rec);
            if (why < 0 && !r->records[k]) {
                r->records[k] = (char *)rec;
                r->n_resumed += rec != NULL;
            } else if (why < 0) {
                free((char *)rec);
            } else {
                r->n_refused[why]++;
            }
            if (why != SL_CLI_CKPT_UNREADABLE && r->seen)
                r->seen[k] = 1;
        }
        b = i + 1;
    }
}

void sl_cli_sweep_ckpt_say(const sl_cli_sweep_run *r, FILE *f)
{
    size_t missing = 0, unverified = 0;
    for (size_t i = 0; i < r->sw.n_points; i++)
        if (!r->records[i])
            *(r->seen && r->seen[i] ? &unverified : &missing) += 1;
    fprintf(f, "samplab sweep: --resume: kept %zu of %zu points from the checkpoint, running %zu (%zu with no "
            "record, %zu whose record does not verify)", r->n_resumed, r->sw.n_points, r->sw.n_points - r->n_resumed,
            missing, unverified);
    const char *sep = "; lines not taken: ";
    for (int w = 0; w < SL_CLI_CKPT_WHY; w++)
        if (r->n_refused[w]) {
            fprintf(f, "%s%zu %s", sep, r->n_refused[w], why_text[w]);
            sep = ", ";
        }
    fputc('\n', f);
}

void sl_cli_sweep_ckpt_free(sl_cli_sweep_run *r)
{
    for (size_t i = 0; i < r->n_digests; i++)
        free(r->digests[i].path);
    free(r->digests);
    free(r->seen);
    r->digests = NULL;
    r->n_digests = 0;
    r->seen = NULL;
}
