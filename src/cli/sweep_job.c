/* sweep_job.c — one grid point of `samplab sweep`: the subcommand's options
 * filled in from the spec through the command line's own parser (no argv, no
 * process state), its library call (sl_api_*_run) made in memory, and its
 * JSON, exit status and one-line error (each call's own sl_error) wrapped in a
 * record that names the point. A gof over a framework's draws is a chain of
 * three calls: draw's counts, the framework's own distribution (the pipeline's
 * probabilities, or the input weights), then gof on those counts. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

/* A growing string (the record). */
typedef struct strbuf {
    char *s;
    size_t n, cap;
    int oom;
} strbuf;

static void bput(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bput(strbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    va_list aq;
    va_copy(aq, ap);
    int k = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (k < 0 || b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (k >= 0 && b->n + (size_t)k + 1 > cap)
            cap *= 2;
        char *s = k < 0 ? NULL : realloc(b->s, cap);
        if (!s) {
            b->oom = 1;
            va_end(ap);
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    b->n += (size_t)k;
    va_end(ap);
}

/* What a point's call says: its exit status as the command's, its JSON (NULL
 * when it failed) and, for a failure, the line the command prints. */
typedef struct said {
    int rc;
    char *json;
    char line[1300];
} said;

static int said_fail(said *o, const char *msg)
{
    sl_cli_err_line(msg, o->line, sizeof o->line);
    o->rc = 2;
    return 2;
}

/* The options of one call, filled in as its command line would be. */
typedef struct call {
    sl_cli_parsed p;
    int bad;                  /* a word the parser refused: o->line says why */
    char *text[SL_API_OPT_COUNT]; /* the values' text, owned (p points into it) */
    int n_text;
} call;

static void call_free(call *c)
{
    for (int i = 0; i < c->n_text; i++)
        free(c->text[i]);
    c->n_text = 0;
}

/* What the call takes: the settings and the source of c's options (they point into c). */
static int call_args(const call *c, sl_api_settings *s, sl_api_src *src)
{
    sl_cli_settings_from(&c->p, s);
    *src = sl_cli_src_from(&c->p);
    return c->p.a[SL_API_OPT_LOGITS].given;
}

static int call_init(call *c, const char *cmd)
{
    call_free(c);
    c->bad = 0;
    return sl_cli_parsed_init(&c->p, cmd);
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
    return o != SL_API_OPT_NONE && sl_api_cmd_takes(sl_api_cmd_lookup(cmd), o);
}

/* One option word and its value into c (the first refusal kept in o). */
static void put(call *c, said *o, const char *word, const char *text)
{
    char msg[4 * SL_CLI_ESC_MAX];
    if (c->bad)
        return;
    char *own = NULL;
    if (text && (c->n_text == SL_API_OPT_COUNT || !(own = c->text[c->n_text++] = strdup(text)))) {
        c->bad = 1;
        said_fail(o, "samplab sweep: out of memory");
        return;
    }
    if (sl_cli_parsed_set(&c->p, word, own, msg, sizeof msg)) {
        c->bad = 1;
        said_fail(o, msg);
    }
}

/* key: value as an option; false and null leave it out, true is a flag.
 * The spec was checked: every key names an option (sl_cli_sweep_parse). */
static void put_setting(call *c, said *o, const char *key, const json_t *v)
{
    char b[64];
    const char *txt;
    sl_api_opt k = sl_cli_sweep_option(key);
    if (sl_cli_sweep_value(v, b, sizeof b, &txt) || !txt || k == SL_API_OPT_NONE)
        return;
    put(c, o, sl_api_options[k].name, *txt ? txt : NULL);
}

/* The point's options for `cmd` (the job, or one step of a gof chain: only the
 * keys cmd takes), in the order a command line would give them. */
static void build(const sl_cli_sweep_point *p, const char *cmd, int filter, call *c, said *o)
{
    const sl_cli_sweep_study *st = p->st;
    if (call_init(c, cmd)) {
        c->bad = 1;
        said_fail(o, "samplab sweep: no such command");
        return;
    }
    if (st->axis)
        put(c, o, st->axis_opt, json_string_value(json_array_get(st->axis, p->axis)));
    const json_t *in = st->inputs ? json_array_get(st->inputs, p->input) : NULL;
    const char *key;
    json_t *v;
    if (in)
        json_object_foreach((json_t *)in, key, v) {
            if (!strcmp(key, "tokens") && strcmp(cmd, "check") != 0)
                continue;
            if (!strcmp(key, "context") && filter && !step_takes(cmd, key))
                continue;
            put_setting(c, o, key, v);
        }
    if (st->settings)
        json_object_foreach(st->settings, key, v) {
            if (filter && !step_takes(cmd, key))
                continue;
            put_setting(c, o, key, combo_value(st->settings, key, p->combo));
        }
    if (st->options)
        json_object_foreach(st->options, key, v) {
            if (filter && !step_takes(cmd, key))
                continue;
            put_setting(c, o, key, v);
        }
    /* a gof chain's seeds are its draws': its pipeline step (the reference distribution) takes none */
    if (st->seeds && (!filter || (step_takes(cmd, "seed") && strcmp(cmd, "pipeline")))) {
        char b[32];
        if (json_is_array(st->seeds)) {
            const json_t *s = json_array_get(st->seeds, p->seed);
            if (json_is_string(s)) {
                put(c, o, SL_API_NAME(SEED), json_string_value(s));
            } else {
                snprintf(b, sizeof b, "%" JSON_INTEGER_FORMAT, json_integer_value(s));
                put(c, o, SL_API_NAME(SEED), b);
            }
        } else {
            snprintf(b, sizeof b, "%llu", (unsigned long long)(st->seed_first + p->seed));
            put(c, o, SL_API_NAME(SEED), b);
        }
    }
}

/* The JSON of a call, or its out-of-memory failure. */
static int said_json(said *o, char *json, int rc, const char *cmd)
{
    char m[128];
    if (!json) {
        snprintf(m, sizeof m, "samplab %s: out of memory for JSON", cmd);
        return said_fail(o, m);
    }
    o->json = json;
    o->rc = rc;
    return rc;
}

/* A call's failure: interrupted (the point is dropped: sl_cli_sweep_do) or its line. */
static int said_err(said *o, int rc, const sl_error *err)
{
    if (rc == SL_EINTR) {
        o->rc = SL_CLI_EXIT_INTERRUPTED;
        return o->rc;
    }
    return said_fail(o, err->msg);
}

/* Runs command cmd of the sweep's jobs on the options of c: what its --json
 * run prints and its exit status (the commands' own: cli/<cmd>.c). */
static int run(const char *cmd, const call *c, const sl_progress *prog, said *o)
{
    sl_api_settings s;
    sl_api_src src;
    int is_logits = call_args(c, &s, &src), rc;
    sl_error err;
    if (!strcmp(cmd, "draw")) {
        sl_api_draw_result r;
        rc = sl_api_draw_run(&src, is_logits, &s, prog, NULL, NULL, &r, &err);
        rc = rc ? said_err(o, rc, &err) : said_json(o, sl_api_draw_result_json(&r), 0, cmd);
        sl_api_draw_result_free(&r);
    } else if (!strcmp(cmd, "gof")) {
        sl_api_gof_result r;
        rc = sl_api_gof_run(&src, is_logits, NULL, 0, NULL, 0, &s, prog, &r, &err);
        rc = rc ? said_err(o, rc, &err)
                : said_json(o, sl_api_gof_json(&r.ref, r.draws_name, &r.t, r.dt ? r.replay : NULL), r.t.fail, cmd);
        sl_api_gof_result_free(&r);
    } else if (!strcmp(cmd, "replay")) {
        sl_api_replay_result r;
        rc = sl_api_replay_run(&src, is_logits, NULL, 0, &s, &r, &err);
        rc = rc ? said_err(o, rc, &err) : said_json(o, sl_api_replay_result_json(&r), 0, cmd);
        sl_api_replay_result_free(&r);
    } else if (!strcmp(cmd, "check")) {
        sl_api_check_result r;
        rc = sl_api_check_run(&src, is_logits, NULL, 0, NULL, 0, &s, &r, &err);
        int verdict = rc ? 0 : r.seeded ? r.d.step != r.g.steps.t : r.log.res.reject;
        rc = rc ? said_err(o, rc, &err) : said_json(o, sl_api_check_result_json(&r), verdict, cmd);
        sl_api_check_result_free(&r);
    } else if (!strcmp(cmd, "calibrate")) {
        sl_api_calibrate_result r;
        rc = sl_api_calibrate_run(&src, is_logits, &s, prog, &r, &err);
        rc = rc ? said_err(o, rc, &err) : said_json(o, sl_api_calibrate_result_json(&r), r.suspect, cmd);
        sl_api_calibrate_result_free(&r);
    } else if (!strcmp(cmd, "power")) {
        sl_api_power_result r;
        rc = sl_api_power_run(&src, is_logits, &s, prog, &r, &err);
        rc = rc ? said_err(o, rc, &err) : said_json(o, sl_api_power_result_json(&r), 0, cmd);
        sl_api_power_result_free(&r);
    } else if (!strcmp(cmd, "exact")) {
        sl_api_exact_audit a; /* a sweep's input gives exactly one source, which cli/exact.c checks first */
        if ((rc = sl_api_exact_run(&src, is_logits, &s, &a, &err)))
            return said_err(o, rc, &err);
        rc = said_json(o, sl_api_exact_json(&a), 0, cmd);
        sl_api_exact_audit_free(&a);
    } else {
        rc = said_fail(o, "samplab sweep: not a job");
    }
    return rc;
}

/* x as the pipeline command reports it: %.9g for a float32 pipeline (which
 * round-trips its floats), every digit for a float64 one. */
static double reported(double x, int precision)
{
    char b[40];
    if (precision != 32)
        return x;
    snprintf(b, sizeof b, "%.9g", x);
    return strtod(b, NULL);
}

/* The framework's own distribution at this point, as gof's reference: the
 * pipeline's probabilities for logits, the input weights themselves otherwise. */
static int reference(const sl_cli_sweep_point *p, const char *label, sl_api_ref *ref, sl_api_ref_opts *ro, said *o)
{
    call c = {0};
    sl_error err;
    const json_t *in = json_array_get(p->st->inputs, p->input);
    memset(ro, 0, sizeof *ro);
    ro->row = -1;
    if (!json_object_get(in, "logits")) {
        /* gof --probs INPUT [--tensor T --row R] */
        call_init(&c, "gof");
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)in, key, v) if (!strcmp(key, "probs") || !strcmp(key, "tensor") ||
                                                      !strcmp(key, "row")) put_setting(&c, o, key, v);
        if (c.bad) {
            call_free(&c);
            return o->rc;
        }
        sl_api_settings s;
        sl_api_src src;
        call_args(&c, &s, &src);
        int rc = sl_api_ref_from_src(&src, 0, &s, ro, ref, &err);
        call_free(&c);
        return rc ? said_err(o, rc, &err) : 0;
    }
    build(p, "pipeline", 1, &c, o);
    sl_api_settings s;
    sl_api_src src;
    call_args(&c, &s, &src);
    sl_api_pipeline_result r;
    int rc = c.bad ? o->rc : sl_api_pipeline_run(&src, &s, &r, &err);
    call_free(&c);
    if (c.bad)
        return rc;
    if (rc)
        return said_err(o, rc, &err);
    sl_vec vec;
    if ((rc = sl_base_vec_alloc(&vec, r.res.V, label, &err))) {
        sl_api_pipeline_result_free(&r);
        return said_err(o, rc, &err);
    }
    for (size_t i = 0; i < r.res.V; i++) {
        vec.d[i] = reported(r.res.probs[i], r.res.precision);
        vec.f[i] = (float)vec.d[i];
    }
    vec.dtype = SL_F64;
    sl_api_pipeline_result_free(&r);
    ro->probs = label;
    rc = sl_api_ref_of_vec(&vec, ro, ref, &err);
    return rc ? said_fail(o, (sl_api_lib_error(&err, rc), err.msg)) : 0;
}

/* The gof chain: draw's counts, the reference, gof. */
static int gof_chain(const sl_cli_sweep_point *p, const sl_progress *prog, said *o)
{
    const char *fw = json_string_value(json_array_get(p->st->axis, p->axis));
    char dlabel[160], plabel[160];
    snprintf(dlabel, sizeof dlabel, "draw --framework %s", fw);
    snprintf(plabel, sizeof plabel, "pipeline --framework %s", fw);
    call c = {0};
    build(p, "draw", 1, &c, o);
    put(&c, o, SL_API_NAME(COUNTS), NULL);
    if (c.bad) {
        call_free(&c);
        return o->rc;
    }
    sl_api_settings s;
    sl_api_src src;
    int is_logits = call_args(&c, &s, &src);
    sl_api_draw_result d;
    sl_error err;
    int rc = sl_api_draw_run(&src, is_logits, &s, prog, NULL, NULL, &d, &err);
    call_free(&c);
    if (rc) {
        sl_api_draw_result_free(&d);
        return said_err(o, rc, &err);
    }
    sl_api_ref ref;
    sl_api_ref_opts ro;
    if ((rc = reference(p, plabel, &ref, &ro, o))) {
        sl_api_draw_result_free(&d);
        return rc;
    }
    /* gof --probs REF --counts COUNTS [--alpha A] [--null-reps R] */
    call_init(&c, "gof");
    const char *key;
    json_t *v;
    if (p->st->options)
        json_object_foreach(p->st->options, key, v) if (!strcmp(key, "alpha") || !strcmp(key, "null_reps"))
            put_setting(&c, o, key, v);
    if (p->st->settings)
        json_object_foreach(p->st->settings, key, v) if (!strcmp(key, "alpha") || !strcmp(key, "null_reps"))
            put_setting(&c, o, key, combo_value(p->st->settings, key, p->combo));
    if (c.bad) {
        call_free(&c);
        sl_api_ref_free(&ref);
        sl_api_draw_result_free(&d);
        return o->rc;
    }
    sl_cli_settings_from(&c.p, &s);
    sl_api_gof_result g;
    rc = sl_api_gof_run_ref(&ref, &ro, d.counts, d.V, &s, prog, &g, &err);
    call_free(&c);
    sl_api_draw_result_free(&d);
    if (rc) {
        sl_api_gof_result_free(&g);
        return said_err(o, rc, &err);
    }
    rc = said_json(o, sl_api_gof_json(&g.ref, dlabel, &g.t, NULL), g.t.fail, "gof");
    sl_api_gof_result_free(&g);
    return rc;
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

/* Where point i is in the grid: its number, study and job, then its input, axis
 * value, settings combination and seed, as the record's first keys. */
static void point_head(strbuf *f, const sl_cli_sweep_point *p, size_t i)
{
    const sl_cli_sweep_study *st = p->st;
    char *s = jstr(st->name), *j = jstr(st->job);
    bput(f, "\"point\":%zu,\"study\":%s,\"job\":%s", i, s ? s : "\"\"", j ? j : "\"\"");
    free(s);
    free(j);
    const json_t *in = st->inputs ? json_array_get(st->inputs, p->input) : NULL;
    if (in) {
        char *d = json_dumps(in, JSON_COMPACT);
        bput(f, ",\"input\":%s", d ? d : "null");
        free(d);
    }
    if (st->axis) {
        s = jstr(json_string_value(json_array_get(st->axis, p->axis)));
        bput(f, ",\"%s\":%s", st->axis_opt + 2, s ? s : "\"\"");
        free(s);
    }
    bput(f, ",\"settings\":{");
    if (st->settings) {
        const char *key;
        json_t *v;
        int first = 1;
        json_object_foreach(st->settings, key, v) {
            s = jstr(key);
            j = jval(combo_value(st->settings, key, p->combo));
            bput(f, "%s%s:%s", first ? "" : ",", s ? s : "\"\"", j ? j : "null");
            free(s);
            free(j);
            first = 0;
        }
    }
    bput(f, "}");
    if (st->seeds) {
        if (json_is_array(st->seeds)) {
            j = jval(json_array_get(st->seeds, p->seed));
            bput(f, ",\"seed\":%s", j ? j : "null");
            free(j);
        } else {
            bput(f, ",\"seed\":%llu", (unsigned long long)(st->seed_first + p->seed));
        }
    }
}

char *sl_cli_sweep_job(const sl_cli_sweep *sw, size_t i)
{
    sl_cli_sweep_point p;
    sl_cli_sweep_point_at(sw, i, &p);
    const sl_cli_sweep_study *st = p.st;
    said o;
    memset(&o, 0, sizeof o);
    /* Ctrl-C stops a long call (the point is then dropped, sl_cli_sweep_do) */
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, st->job, "steps");
    if (sl_cli_sweep_gof_chain(st)) {
        gof_chain(&p, &pr.quiet, &o);
    } else {
        call c = {0};
        build(&p, st->job, 0, &c, &o);
        if (!c.bad)
            run(st->job, &c, &pr.quiet, &o);
        call_free(&c);
    }
    sl_cli_progress_end(&pr);
    /* the record: where the point is in the grid, then what its call said */
    strbuf f = {0};
    bput(&f, "{");
    point_head(&f, &p, i);
    char *s;
    /* a result is the call's JSON; a failure is the line the command prints */
    bput(&f, ",\"exit\":%d", o.rc);
    if (o.json && o.rc != 2) {
        bput(&f, ",\"error\":null,\"result\":%s", o.json);
    } else {
        s = jstr(o.rc == 2 && o.line[0] ? o.line : "the run printed no JSON line");
        bput(&f, ",\"error\":%s,\"result\":null", s ? s : "\"\"");
        free(s);
    }
    bput(&f, "}");
    free(o.json);
    if (f.oom) {
        free(f.s);
        return NULL;
    }
    return f.s;
}

char *sl_cli_sweep_point_key(const sl_cli_sweep *sw, size_t i)
{
    sl_cli_sweep_point p;
    sl_cli_sweep_point_at(sw, i, &p);
    strbuf f = {0};
    bput(&f, "{");
    point_head(&f, &p, i);
    char *o = p.st->options ? json_dumps(p.st->options, JSON_COMPACT) : NULL;
    bput(&f, ",\"options\":%s}", o ? o : "{}");
    free(o);
    if (f.oom) {
        free(f.s);
        return NULL;
    }
    return f.s;
}
