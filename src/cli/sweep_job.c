/* sweep_job.c — one grid point of `samplab sweep`: the subcommand's argv built
 * from the spec, run in this process with stdout and stderr caught in memory,
 * and its --json line wrapped in a record that names the point. A gof over a
 * framework's draws is a chain of three runs: `draw --counts`, the framework's
 * own distribution (`pipeline --json`, or the input weights), then `gof`. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sl_cli.h"

typedef struct args {
    char **v;
    int n, cap, oom;
} args;

static void push(args *a, const char *s)
{
    if (a->oom)
        return;
    if (a->n + 2 > a->cap) {
        int cap = a->cap ? 2 * a->cap : 32;
        char **v = realloc(a->v, (size_t)cap * sizeof *v);
        if (!v) {
            a->oom = 1;
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    char *c = strdup(s);
    if (!c) {
        a->oom = 1;
        return;
    }
    a->v[a->n++] = c;
    a->v[a->n] = NULL;
}

static void args_free(args *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    memset(a, 0, sizeof *a);
}

/* "top_k" -> "--top-k" (the spec was checked: every key names an option) */
static void push_key(args *a, const char *key)
{
    sl_api_opt o = sl_cli_sweep_option(key);
    if (o == SL_API_OPT_NONE)
        a->oom = 1; /* not reached after sl_cli_sweep_parse; no argv for a key it refused */
    else
        push(a, sl_api_options[o].name);
}

/* key: value as options; false and null leave the option out. */
static void push_setting(args *a, const char *key, const json_t *v)
{
    char buf[64];
    const char *txt;
    if (sl_cli_sweep_value(v, buf, sizeof buf, &txt) || !txt)
        return;
    push_key(a, key);
    if (*txt)
        push(a, txt);
}

/* The value a settings key takes at combination c: the last key varies fastest. */
static const json_t *combo_value(const json_t *settings, const char *want, size_t c)
{
    size_t n = json_object_size(settings), k = 0;
    const char **keys = malloc(n * sizeof *keys);
    const json_t **vals = malloc(n * sizeof *vals);
    const json_t *out = NULL;
    if (keys && vals) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)settings, key, v) {
            keys[k] = key;
            vals[k++] = v;
        }
        for (size_t j = n; j-- > 0;) {
            size_t m = json_is_array(vals[j]) ? json_array_size(vals[j]) : 1;
            const json_t *x = json_is_array(vals[j]) ? json_array_get(vals[j], c % m) : vals[j];
            c /= m;
            if (!strcmp(keys[j], want))
                out = x;
        }
    }
    free(keys);
    free(vals);
    return out;
}

/* A settings or options key the chain's step `cmd` takes. */
static int step_takes(const char *cmd, const char *key)
{
    sl_api_opt o = sl_cli_sweep_option(key);
    return o != SL_API_OPT_NONE && sl_cli_takes(sl_cli_spec_lookup(cmd), o);
}

/* The point's argv for `cmd` (the job, or one step of a gof chain: only the
 * keys cmd takes); with_seed and the json/counts flag as the step needs. */
static void build(const sl_cli_sweep *sw, const sl_cli_sweep_point *p, const char *cmd, int filter, args *a)
{
    (void)sw;
    const sl_cli_sweep_study *st = p->st;
    push(a, cmd);
    if (st->axis) {
        push(a, st->axis_opt);
        push(a, json_string_value(json_array_get(st->axis, p->axis)));
    }
    const json_t *in = st->inputs ? json_array_get(st->inputs, p->input) : NULL;
    if (in) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)in, key, v) {
            if (!strcmp(key, "tokens") && strcmp(cmd, "check") != 0)
                continue;
            if (!strcmp(key, "context") && filter && !step_takes(cmd, key))
                continue;
            push_setting(a, key, v);
        }
    }
    const char *key;
    json_t *v;
    if (st->settings)
        json_object_foreach(st->settings, key, v) {
            if (filter && !step_takes(cmd, key))
                continue;
            push_setting(a, key, combo_value(st->settings, key, p->combo));
        }
    if (st->options)
        json_object_foreach(st->options, key, v) {
            if (filter && !step_takes(cmd, key))
                continue;
            push_setting(a, key, v);
        }
    if (st->seeds && (!filter || step_takes(cmd, "seed"))) {
        char buf[32];
        push(a, SL_API_NAME(SEED));
        if (json_is_array(st->seeds)) {
            const json_t *s = json_array_get(st->seeds, p->seed);
            if (json_is_string(s)) {
                push(a, json_string_value(s));
            } else {
                snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(s));
                push(a, buf);
            }
        } else {
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)(st->seed_first + p->seed));
            push(a, buf);
        }
    }
}

typedef struct caught {
    char *out, *err;
    size_t out_n, err_n;
    int rc;
} caught;

static int (*job_main(const char *cmd))(int, char **)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } t[] = {{"draw", sl_cli_draw_main},           {"gof", sl_cli_gof_main},     {"replay", sl_cli_replay_main},
             {"check", sl_cli_check_main},         {"power", sl_cli_power_main}, {"exact", sl_cli_exact_main},
             {"calibrate", sl_cli_calibrate_main}, {"pipeline", sl_cli_pipeline_main}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(t[i].name, cmd))
            return t[i].fn;
    return NULL;
}

/* Runs a subcommand with stdout and stderr going to memory. The streams are
 * swapped for the call only: a sweep runs one point at a time per process. */
static int run_caught(args *a, caught *c)
{
    memset(c, 0, sizeof *c);
    if (a->oom)
        return -1;
    FILE *mo = open_memstream(&c->out, &c->out_n), *me = open_memstream(&c->err, &c->err_n);
    if (!mo || !me) {
        if (mo)
            fclose(mo);
        if (me)
            fclose(me);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    FILE *so = stdout, *se = stderr;
    stdout = mo;
    stderr = me;
    c->rc = job_main(a->v[0])(a->n, a->v);
    fflush(mo);
    fflush(me);
    int bad = ferror(mo) || ferror(me);
    stdout = so;
    stderr = se;
    bad |= fclose(mo) != 0;
    bad |= fclose(me) != 0;
    return bad ? -1 : 0;
}

static void caught_free(caught *c)
{
    free(c->out);
    free(c->err);
    c->out = c->err = NULL;
}

/* The last line of a run's stderr: its one-line message. */
static char *last_line(const caught *c)
{
    size_t n = c->err_n;
    while (n && c->err[n - 1] == '\n')
        n--;
    size_t b = n;
    while (b && c->err[b - 1] != '\n')
        b--;
    char *s = malloc(n - b + 1);
    if (s) {
        memcpy(s, c->err + b, n - b);
        s[n - b] = 0;
    }
    return s;
}

/* Replaces every occurrence of the JSON form of `from` with that of `to`. */
static char *replace_json_string(char *s, const char *from, const char *to)
{
    json_t *jf = json_string(from), *jt = json_string(to);
    char *f = jf ? json_dumps(jf, JSON_ENCODE_ANY) : NULL, *t = jt ? json_dumps(jt, JSON_ENCODE_ANY) : NULL;
    json_decref(jf);
    json_decref(jt);
    char *out = NULL;
    if (f && t) {
        size_t fl = strlen(f), tl = strlen(t), n = 0;
        for (const char *p = strstr(s, f); p; p = strstr(p + fl, f))
            n++;
        out = malloc(strlen(s) + n * (tl > fl ? tl - fl : 0) + 1);
        if (out) {
            char *o = out;
            const char *p = s, *q;
            while ((q = strstr(p, f))) {
                memcpy(o, p, (size_t)(q - p));
                o += q - p;
                memcpy(o, t, tl);
                o += tl;
                p = q + fl;
            }
            strcpy(o, p);
        }
    }
    free(f);
    free(t);
    free(s);
    return out;
}

static int write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int bad = fwrite(data, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

/* The framework's own distribution at this point, written as text to path:
 * `pipeline --json`'s probs for logits, the input weights themselves otherwise
 * (the gof run then reads those, with the input's tensor and row). */
static int reference(const sl_cli_sweep *sw, const sl_cli_sweep_point *p, const char *path, caught *c, int *use_input)
{
    const json_t *in = json_array_get(p->st->inputs, p->input);
    *use_input = json_object_get(in, "logits") == NULL;
    if (*use_input)
        return 0;
    args a = {0};
    build(sw, p, "pipeline", 1, &a);
    push(&a, SL_API_NAME(JSON));
    int r = run_caught(&a, c);
    args_free(&a);
    if (r || c->rc)
        return r ? -1 : c->rc;
    json_t *root = json_loadb(c->out, c->out_n, 0, NULL), *probs = json_object_get(root, "probs");
    FILE *f = fopen(path, "w");
    int bad = !f || !json_is_array(probs);
    size_t i;
    json_t *x;
    if (!bad)
        json_array_foreach(probs, i, x) bad |= fprintf(f, "%.17g\n", json_number_value(x)) < 0;
    if (f)
        bad |= fclose(f) != 0;
    json_decref(root);
    return bad ? -1 : 0;
}

/* The gof chain; its result text or the failing step's caught output in *c. */
static int gof_chain(const sl_cli_sweep *sw, const sl_cli_sweep_point *p, const char *tmpdir, caught *c)
{
    char cpath[4096], ppath[4096];
    snprintf(cpath, sizeof cpath, "%s/point-%zu.counts", tmpdir, p->index);
    snprintf(ppath, sizeof ppath, "%s/point-%zu.probs", tmpdir, p->index);
    args a = {0};
    build(sw, p, "draw", 1, &a);
    push(&a, SL_API_NAME(COUNTS));
    int r = run_caught(&a, c);
    args_free(&a);
    if (r || c->rc)
        return r;
    r = write_file(cpath, c->out, c->out_n);
    caught_free(c);
    if (r)
        return -1;
    int use_input = 0;
    r = reference(sw, p, ppath, c, &use_input);
    if (r || c->rc) {
        unlink(cpath);
        return r;
    }
    caught_free(c);
    const json_t *in = json_array_get(p->st->inputs, p->input);
    push(&a, "gof");
    push(&a, SL_API_NAME(PROBS));
    push(&a, use_input ? json_string_value(json_object_get(in, "probs")) : ppath);
    if (use_input) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)in, key, v) if (!strcmp(key, "tensor") || !strcmp(key, "row"))
            push_setting(&a, key, v);
    }
    push(&a, SL_API_NAME(COUNTS_FILE));
    push(&a, cpath);
    const char *key;
    json_t *v;
    if (p->st->options)
        json_object_foreach(p->st->options, key, v) if (!strcmp(key, "alpha") || !strcmp(key, "null_reps"))
            push_setting(&a, key, v);
    if (p->st->settings)
        json_object_foreach(p->st->settings, key, v) if (!strcmp(key, "alpha") || !strcmp(key, "null_reps"))
            push_setting(&a, key, combo_value(p->st->settings, key, p->combo));
    push(&a, SL_API_NAME(JSON));
    r = run_caught(&a, c);
    args_free(&a);
    unlink(cpath);
    unlink(ppath);
    if (!r && c->out) {
        /* the two files' names are this run's, not the result's */
        char label[160];
        snprintf(label, sizeof label, "draw --framework %s", json_string_value(json_array_get(p->st->axis, p->axis)));
        c->out = replace_json_string(c->out, cpath, label);
        snprintf(label, sizeof label, "pipeline --framework %s",
                 json_string_value(json_array_get(p->st->axis, p->axis)));
        if (c->out && !use_input)
            c->out = replace_json_string(c->out, ppath, label);
        if (!c->out)
            return -1;
        c->out_n = strlen(c->out);
    }
    return r;
}

/* JSON text of a string (malloc'd). */
static char *jstr(const char *s)
{
    json_t *j = json_string(s ? s : "");
    char *d = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return d;
}

/* A settings value as JSON text, numbers in their shortest round-trip form. */
static char *jval(const json_t *v)
{
    char buf[64];
    if (json_is_real(v)) {
        sl_cli_sweep_number(json_real_value(v), buf, sizeof buf);
        if (!strpbrk(buf, ".eEni")) /* 2.0 stays a real in the record */
            strcat(buf, ".0");
        return strdup(buf);
    }
    return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

char *sl_cli_sweep_job(const sl_cli_sweep *sw, size_t i, const char *tmpdir)
{
    sl_cli_sweep_point p;
    sl_cli_sweep_point_at(sw, i, &p);
    const sl_cli_sweep_study *st = p.st;
    caught c;
    int r;
    if (sl_cli_sweep_gof_chain(st)) {
        r = gof_chain(sw, &p, tmpdir, &c);
    } else {
        args a = {0};
        build(sw, &p, st->job, 0, &a);
        push(&a, SL_API_NAME(JSON));
        r = run_caught(&a, &c);
        args_free(&a);
    }
    if (r) {
        caught_free(&c);
        return NULL;
    }
    /* the record: where the point is in the grid, then what its run said */
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    if (!f) {
        caught_free(&c);
        return NULL;
    }
    char *s = jstr(st->name), *j = jstr(st->job);
    fprintf(f, "{\"point\":%zu,\"study\":%s,\"job\":%s", i, s ? s : "\"\"", j ? j : "\"\"");
    free(s);
    free(j);
    const json_t *in = st->inputs ? json_array_get(st->inputs, p.input) : NULL;
    if (in) {
        char *d = json_dumps(in, JSON_COMPACT);
        fprintf(f, ",\"input\":%s", d ? d : "null");
        free(d);
    }
    if (st->axis) {
        s = jstr(json_string_value(json_array_get(st->axis, p.axis)));
        fprintf(f, ",\"%s\":%s", st->axis_opt + 2, s ? s : "\"\"");
        free(s);
    }
    fputs(",\"settings\":{", f);
    if (st->settings) {
        const char *key;
        json_t *v;
        int first = 1;
        json_object_foreach(st->settings, key, v) {
            s = jstr(key);
            j = jval(combo_value(st->settings, key, p.combo));
            fprintf(f, "%s%s:%s", first ? "" : ",", s ? s : "\"\"", j ? j : "null");
            free(s);
            free(j);
            first = 0;
        }
    }
    fputc('}', f);
    if (st->seeds) {
        if (json_is_array(st->seeds)) {
            j = jval(json_array_get(st->seeds, p.seed));
            fprintf(f, ",\"seed\":%s", j ? j : "null");
            free(j);
        } else {
            fprintf(f, ",\"seed\":%llu", (unsigned long long)(st->seed_first + p.seed));
        }
    }
    /* a result is the run's one JSON line; anything else is reported, not kept */
    size_t on = c.out_n;
    while (on && c.out[on - 1] == '\n')
        on--;
    json_t *parsed = on ? json_loadb(c.out, on, 0, NULL) : NULL;
    int one_line = on && !memchr(c.out, '\n', on);
    fprintf(f, ",\"exit\":%d", c.rc);
    if (parsed && one_line && c.rc != 2) {
        fputs(",\"error\":null,\"result\":", f);
        fwrite(c.out, 1, on, f);
    } else {
        char *line = c.rc == 2 || !c.err_n ? last_line(&c) : strdup("the run printed no JSON line");
        s = jstr(line && *line ? line : "the run printed no JSON line");
        fprintf(f, ",\"error\":%s,\"result\":null", s ? s : "\"\"");
        free(s);
        free(line);
    }
    fputc('}', f);
    json_decref(parsed);
    caught_free(&c);
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}
