/* helpers.h — what the test files share: running the CLI and capturing its
 * output, temporary files, the oracle directory. Header-only, static. */
#ifndef SL_TEST_HELPERS_H
#define SL_TEST_HELPERS_H

#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "samplab.h"

/* Pearson's chi-square p-value of counts (n draws) against p over all V cells
 * (each p[i] > 0): the plain test the draw methods' statistical tests use. */
static inline double sl_test_chi2_p(const uint64_t *counts, const double *p, size_t V, size_t n)
{
    double stat = 0;
    for (size_t i = 0; i < V; i++) {
        double e = p[i] * (double)n;
        stat += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
    }
    return gsl_cdf_chisq_Q(stat, (double)(V - 1));
}

typedef struct sl_test_run {
    int status;   /* exit status of the command */
    char *out;    /* stdout, NUL-terminated (malloc'd) */
    char *err;    /* stderr */
} sl_test_run;

static inline char *sl_test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(b, (cap *= 2) + 1);
            if (!nb) {
                free(b);
                b = NULL;
            } else {
                b = nb;
            }
        }
    }
    fclose(f);
    if (b)
        b[n] = '\0';
    return b;
}

/* The release build of the command line (SL_REL_BIN), for what runs it thousands of
 * times or under a memory limit; else the one under test. */
static inline const char *sl_test_rel_bin(void)
{
    return getenv("SL_REL_BIN") ? getenv("SL_REL_BIN") : getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab";
}

/* Runs `BIN ARGS` through the shell (ARGS as typed), capturing both streams.
 * The sanitizer runtime of the test binary is kept away from the child. */
static inline sl_test_run sl_test_cli_bin(const char *bin, const char *args)
{
    char outp[] = "/tmp/sl-test-out-XXXXXX", errp[] = "/tmp/sl-test-err-XXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    close(fo);
    close(fe);
    size_t len = strlen(bin) + strlen(args) + 2 * sizeof outp + 64;
    char *cmd = malloc(len);
    snprintf(cmd, len, "%s %s >%s 2>%s", bin, args, outp, errp);
    int st = system(cmd);
    free(cmd);
    sl_test_run r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out = sl_test_slurp(outp);
    r.err = sl_test_slurp(errp);
    unlink(outp);
    unlink(errp);
    return r;
}

/* Runs `bin/samplab ARGS` (SL_BIN: the build under test). */
static inline sl_test_run sl_test_cli(const char *args)
{
    return sl_test_cli_bin(getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab", args);
}

static inline void sl_test_run_free(sl_test_run *r)
{
    free(r->out);
    free(r->err);
}

/* Writes data to a fresh temporary file whose name ends in suffix; returns the path (malloc'd). */
static inline char *sl_test_tmpfile(const char *suffix, const void *data, size_t len)
{
    size_t sl = strlen(suffix);
    char *path = malloc(40 + sl);
    snprintf(path, 40 + sl, "/tmp/sl-test-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)sl);
    if (fd < 0) {
        free(path);
        return NULL;
    }
    if (write(fd, data, len) != (ssize_t)len) {
        close(fd);
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

/* Writes rows x cols little-endian values of `descr` ('<f4', '<f8'; elsize bytes
 * each, raw, as a .npy holds them) as a 2-D .npy of its own (version 1.0,
 * 128-byte header; rows 0: a 1-D vector of cols); returns the path (malloc'd) or NULL. */
static inline char *sl_test_npy(const char *descr, size_t elsize, const void *bytes, size_t rows, size_t cols)
{
    size_t hl = 128 - 10, n = (rows ? rows : 1) * cols * elsize;
    unsigned char *buf = malloc(128 + n);
    if (!buf)
        return NULL;
    char dict[128];
    int dl = rows ? snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
                             descr, rows, cols)
                  : snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }", descr,
                             cols);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)hl;
    buf[9] = 0;
    memset(buf + 10, ' ', hl);
    memcpy(buf + 10, dict, (size_t)dl);
    buf[127] = '\n';
    memcpy(buf + 128, bytes, n);
    char *p = sl_test_tmpfile(".npy", buf, 128 + n);
    free(buf);
    return p;
}

/* v: V weights as samplab reads them (d = w, f = its float32 rounding), named name;
 * f32: they came as a float32 array (w holds its exact widening). V may be 0. */
static inline void sl_test_vec(sl_vec *v, const double *w, size_t V, const char *name, int f32)
{
    cr_assert_eq(sl_base_vec_alloc(v, V ? V : 1, name, NULL), 0);
    v->n = V;
    v->dtype = f32 ? SL_F32 : SL_F64;
    for (size_t i = 0; i < V; i++) {
        v->d[i] = w[i];
        v->f[i] = (float)w[i];
    }
}

/* The same for float32 values. */
static inline char *sl_test_npy_f32(const void *bytes, size_t rows, size_t cols)
{
    return sl_test_npy("<f4", 4, bytes, rows, cols);
}

/* The folder of llama.cpp's test vocabularies (models/ggml-vocab-*.gguf): make test fetches them
 * with mk/vocab.sh and sets SL_VOCAB_DIR. */
static inline const char *sl_test_vocab_dir(void)
{
    const char *dir = getenv("SL_VOCAB_DIR");
    cr_assert(dir && *dir, "SL_VOCAB_DIR is not set: make test fetches llama.cpp's vocabularies (sh mk/vocab.sh) "
                           "and sets it");
    return dir;
}

/* Path of a test-only oracle's transcript (make test writes them). */
static inline char *sl_test_oracle(const char *name)
{
    const char *dir = getenv("SL_ORACLE_DIR");
    if (!dir)
        return NULL;
    size_t len = strlen(dir) + strlen(name) + 8;
    char *p = malloc(len);
    snprintf(p, len, "%s/%s.txt", dir, name);
    char *text = sl_test_slurp(p);
    free(p);
    return text;
}

/* Where the value of " KEY=" in a golden record line starts, its length into *n. */
static inline const char *sl_test_field_at(const char *line, const char *key, size_t *n)
{
    char pat[40];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    cr_assert(p, "no %s in %.80s", key, line);
    p += strlen(pat);
    *n = strcspn(p, " \n");
    return p;
}

/* The value of " KEY=" in a golden record line, copied into buf (cap bytes). */
static inline const char *sl_test_field(const char *line, const char *key, char *buf, size_t cap)
{
    size_t n;
    const char *p = sl_test_field_at(line, key, &n);
    cr_assert(n < cap, "%s too long", key);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

/* The same, malloc'd (a record's rows can be long). */
static inline char *sl_test_field_dup(const char *line, const char *key)
{
    size_t n;
    const char *p = sl_test_field_at(line, key, &n);
    char *v = malloc(n + 1);
    cr_assert(v);
    memcpy(v, p, n);
    v[n] = '\0';
    return v;
}

/* The line "KEY ID ..." of a golden text (from its first character), or NULL. */
static inline const char *sl_test_rec(const char *text, const char *key, int id)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\n%s %d ", key, id);
    const char *p = strstr(text, pat);
    return p ? p + 1 : NULL;
}

/* the rest of the "KEY ID" line (maybe empty), or NULL */
static inline const char *sl_test_line_of(const char *text, const char *key, int id)
{
    char pat[48];
    int n = snprintf(pat, sizeof pat, "\n%s %d", key, id);
    for (const char *p = strstr(text, pat); p; p = strstr(p + 1, pat))
        if (p[n] == ' ' || p[n] == '\n')
            return p + n + (p[n] == ' ');
    return NULL;
}

/* The ids of a record line (up to its end) into out[0..max). */
static inline size_t sl_test_ids(const char *p, long *out, size_t max)
{
    size_t n = 0;
    char *end;
    for (long v = strtol(p, &end, 10); end != p && n < max; v = strtol(p, &end, 10)) {
        out[n++] = v;
        p = end;
        if (*p == '\n')
            break;
    }
    return n;
}

/* `samplab check` with the settings of a `replay ... --json` command line and
 * --tokens TOKENS (comma list): 1 when it exits 0 and finds no divergence, else
 * 0 with its output logged. */
static inline int sl_test_check_seeded(const char *replay_args, const char *tokens)
{
    const char *json = strstr(replay_args, " --json");
    cr_assert(!strncmp(replay_args, "replay ", 7) && json, "not a replay --json command: %.80s", replay_args);
    size_t len = strlen(replay_args) + strlen(tokens) + 32;
    char *args = malloc(len);
    cr_assert(args);
    snprintf(args, len, "check %.*s --tokens %s%s", (int)(json - replay_args - 7), replay_args + 7, tokens, json);
    sl_test_run r = sl_test_cli(args);
    int ok = r.status == 0 && strstr(r.out, "\"first_divergence\":null") != NULL;
    if (!ok)
        cr_log_info("%.200s: exit %d: %s %s", args, r.status, r.out, r.err);
    sl_test_run_free(&r);
    free(args);
    return ok;
}

/* Counts the lines of s. */
static inline size_t sl_test_lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* Runs `samplab ARGS` and expects a refusal: exit 2, nothing on stdout, one
 * printable line on stderr that contains want. */
static inline void sl_test_expect_refused(const char *args, const char *want)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 2, "%s: exit %d (stderr %s)", args, r.status, r.err);
    cr_expect_str_empty(r.out, "%s: stdout not empty: %s", args, r.out);
    cr_expect_eq(sl_test_lines(r.err), 1, "%s: stderr is not one line: %s", args, r.err);
    cr_expect(strstr(r.err, want) != NULL, "%s: stderr '%s' lacks '%s'", args, r.err, want);
    for (const char *c = r.err; *c; c++)
        cr_expect(*c == '\n' || (*c >= 0x20 && *c < 0x7f), "%s: unprintable byte 0x%02x in '%s'", args,
                  (unsigned)(unsigned char)*c, r.err);
    sl_test_run_free(&r);
}

/* Numbers of a golden line: each parsed by strtod into d and (if f) by strtof into f,
 * as torch got them; up to cap, stopping at the first non-number. Returns the count. */
static inline size_t sl_test_read_floats(char *s, double *d, float *f, size_t cap)
{
    size_t n = 0;
    char *end;
    while (n < cap) {
        double x = strtod(s, &end);
        if (end == s)
            break;
        if (f)
            f[n] = strtof(s, NULL);
        d[n++] = x;
        s = end;
    }
    return n;
}

#endif
