/* sweep_spec.c — the study spec of `samplab sweep`: a JSON file read with jansson,
 * checked key by key, and expanded into numbered grid points. A point is one
 * run of a subcommand (draw, gof, replay, check, calibrate, power, exact) at one
 * input × framework (or method) × settings combination × seed, numbered study by
 * study in that nesting order, the seed fastest. Every error names the file, the
 * key and its line and column, found by a small scanner over the text, since a
 * parsed jansson value no longer knows where it was. */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sl_cli.h"

/* --- where a key sits in the text ------------------------------------------ */

typedef struct scan {
    const char *s;
    size_t n, i;
} scan;

static void skip_ws(scan *c)
{
    while (c->i < c->n && strchr(" \t\r\n", c->s[c->i]))
        c->i++;
}

/* A string at c->i (after its opening quote is checked); its raw bytes between
 * the quotes go to *b, *len. jansson has already accepted the text. */
static void skip_string(scan *c, const char **b, size_t *len)
{
    c->i++; /* the quote */
    size_t start = c->i;
    while (c->i < c->n && c->s[c->i] != '"')
        c->i += c->s[c->i] == '\\' ? 2 : 1;
    if (b) {
        *b = c->s + start;
        *len = c->i - start;
    }
    c->i++;
}

static void skip_value(scan *c)
{
    skip_ws(c);
    if (c->i >= c->n)
        return;
    char ch = c->s[c->i];
    if (ch == '"') {
        skip_string(c, NULL, NULL);
        return;
    }
    if (ch == '{' || ch == '[') {
        char close = ch == '{' ? '}' : ']';
        c->i++;
        for (;;) {
            skip_ws(c);
            if (c->i >= c->n || c->s[c->i] == close) {
                c->i++;
                return;
            }
            if (c->s[c->i] == ',') {
                c->i++;
                continue;
            }
            if (close == '}') {
                skip_string(c, NULL, NULL);
                skip_ws(c);
                c->i++; /* ':' */
            }
            skip_value(c);
        }
    }
    while (c->i < c->n && !strchr(",]} \t\r\n", c->s[c->i]))
        c->i++;
}

/* The offset of the value at path (keys, or "#N" for array element N) in the
 * JSON text s; the deepest part found when the path ends early. */
static size_t locate(const char *s, size_t n, const char *const *path, int depth)
{
    scan c = {s, n, 0};
    skip_ws(&c);
    size_t at = c.i;
    for (int d = 0; d < depth; d++) {
        skip_ws(&c);
        if (c.i >= n)
            return at;
        char ch = s[c.i];
        int found = 0;
        if (ch == '{' && path[d][0] != '#') {
            c.i++;
            for (;;) {
                skip_ws(&c);
                if (c.i >= n || s[c.i] == '}')
                    break;
                if (s[c.i] == ',') {
                    c.i++;
                    continue;
                }
                size_t key_at = c.i, len;
                const char *k;
                skip_string(&c, &k, &len);
                skip_ws(&c);
                c.i++; /* ':' */
                skip_ws(&c);
                if (len == strlen(path[d]) && !memcmp(k, path[d], len)) {
                    at = d + 1 == depth ? key_at : c.i;
                    found = 1;
                    break;
                }
                skip_value(&c);
            }
        } else if (ch == '[' && path[d][0] == '#') {
            long want = strtol(path[d] + 1, NULL, 10), k = 0;
            c.i++;
            for (;;) {
                skip_ws(&c);
                if (c.i >= n || s[c.i] == ']')
                    break;
                if (s[c.i] == ',') {
                    c.i++;
                    continue;
                }
                if (k++ == want) {
                    at = c.i;
                    found = 1;
                    break;
                }
                skip_value(&c);
            }
        }
        if (!found)
            return at;
    }
    return at;
}

/* "samplab sweep: FILE:LINE:COL: key K: MSG" for the value at path; returns 2. */
static int spec_fail(const sl_cli_sweep *sw, const char *const *path, int depth, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int spec_fail(const sl_cli_sweep *sw, const char *const *path, int depth, const char *fmt, ...)
{
    size_t at = locate(sw->text, sw->text_len, path, depth), line = 1, col = 1;
    for (size_t i = 0; i < at && i < sw->text_len; i++) {
        if (sw->text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char key[256] = "", msg[512], all[1024], e[SL_CLI_ESC_MAX];
    size_t k = 0;
    for (int d = 0; d < depth && k < sizeof key - 1; d++) {
        int w = path[d][0] == '#' ? snprintf(key + k, sizeof key - k, "[%s]", path[d] + 1)
                                  : snprintf(key + k, sizeof key - k, "%s%s", k ? "." : "", path[d]);
        if (w < 0 || (size_t)w >= sizeof key - k)
            break;
        k += (size_t)w;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(all, sizeof all, "%s:%zu:%zu: %s%s%s%s", sw->path, line, col, depth ? "key " : "", key,
             depth ? ": " : "", msg);
    fprintf(sw->err, "samplab sweep: %s\n", sl_cli_esc(all, e, sizeof e));
    return 2;
}

/* --- the jobs a point can run ------------------------------------------------ */

const char *const sl_cli_sweep_jobs[] = {"draw", "gof", "replay", "check", "calibrate", "power", "exact", NULL};

/* Keys the sweep itself sets from the grid; a study may not give them as settings. */
static const char *const grid_keys[] = {"framework", "method", "seed", "logits", "probs", "tensor", "row",
                                        "context", "tokens", "json", "counts", "help", NULL};

static int in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (!strcmp(*list, s))
            return 1;
    return 0;
}

sl_api_opt sl_cli_sweep_option(const char *key)
{
    char name[96] = "--";
    size_t n = strlen(key);
    if (n + 3 > sizeof name)
        return SL_API_OPT_NONE;
    for (size_t i = 0; i < n; i++)
        name[2 + i] = key[i] == '_' ? '-' : key[i];
    name[2 + n] = 0;
    /* the schema's first entry of that name, as the command line would be given it */
    const sl_api_option *o = sl_api_option_named(name);
    return o ? (sl_api_opt)(o - sl_api_options) : SL_API_OPT_NONE;
}

int sl_cli_sweep_gof_chain(const sl_cli_sweep_study *st)
{
    return !strcmp(st->job, "gof") && st->axis_opt && !strcmp(st->axis_opt, SL_API_NAME(FRAMEWORK));
}

/* Whether the study's job takes option o: a gof over a framework's draws takes
 * what `draw` takes for drawing and gof's own --alpha and --null-reps. */
static int job_takes(const sl_cli_sweep_study *st, sl_api_opt o)
{
    if (sl_cli_sweep_gof_chain(st))
        return sl_api_cmd_takes(sl_api_cmd_lookup("draw"), o) || o == SL_API_OPT_ALPHA || o == SL_API_OPT_NULL_REPS ||
               o == SL_API_OPT_N;
    const char *cmd = st->job;
    /* a sweep over a framework's --n N draws, or a method's */
    return sl_api_cmd_takes(sl_api_cmd_lookup(cmd), o);
}

/* The shortest text that reads back as the same double. */
const char *sl_cli_sweep_number(double v, char *buf, size_t n)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* A setting's value as argv text (NULL: the option is left out, for false or
 * null); 1 if the value is not one a command line can carry. */
int sl_cli_sweep_value(const json_t *v, char *buf, size_t n, const char **out)
{
    *out = NULL;
    if (json_is_string(v)) {
        *out = json_string_value(v);
        return 0;
    }
    if (json_is_integer(v)) {
        snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        *out = buf;
        return 0;
    }
    if (json_is_real(v)) {
        *out = sl_cli_sweep_number(json_real_value(v), buf, n);
        return 0;
    }
    if (json_is_true(v)) {
        *out = "";
        return 0;
    }
    return !(json_is_false(v) || json_is_null(v));
}

/* Checks one option key of a settings or options object. */
static int check_key(sl_cli_sweep *sw, const sl_cli_sweep_study *st, const char *const *path, int depth,
                     const char *key, const json_t *v, int lists)
{
    if (in_list(grid_keys, key))
        return spec_fail(sw, path, depth, "'%s' comes from the grid (inputs, frameworks, methods, seeds), "
                         "not from settings or options", key);
    sl_api_opt o = sl_cli_sweep_option(key);
    if (o == SL_API_OPT_NONE) {
        char dashed[96];
        snprintf(dashed, sizeof dashed, "%s", key);
        for (char *c = dashed; *c; c++)
            *c = *c == '_' ? '-' : *c;
        return spec_fail(sw, path, depth, "no samplab option --%s (keys are option names with _ for -)", dashed);
    }
    if (!job_takes(st, o))
        return spec_fail(sw, path, depth, "%s does not take %s", st->job, sl_api_options[o].name);
    char refusal[512];
    if (sl_api_option_refusal(&sl_api_options[o], refusal, sizeof refusal))
        return spec_fail(sw, path, depth, "%s", refusal);
    const char *which = path[depth - 2];
    char buf[64], why[400];
    const char *txt;
    if (json_is_array(v)) {
        if (!lists)
            return spec_fail(sw, path, depth, "one value here, not a list (lists go under settings)");
        if (!json_array_size(v))
            return spec_fail(sw, path, depth, "an empty list gives no grid points");
        size_t i;
        const json_t *x;
        json_array_foreach(v, i, x) {
            if (sl_cli_sweep_value(x, buf, sizeof buf, &txt))
                return spec_fail(sw, path, depth, "element %zu is not a number, a string or a boolean", i);
            if (sl_api_options[o].kind == SL_API_FLAG && txt && *txt)
                return spec_fail(sw, path, depth, "%s is a flag: true or false", sl_api_options[o].name);
            if (sl_api_options[o].kind != SL_API_FLAG && txt && !*txt)
                return spec_fail(sw, path, depth, "element %zu: %s takes a value, not true", i, sl_api_options[o].name);
            if (txt && sl_cli_value_check(o, txt, why, sizeof why))
                return spec_fail(sw, path, depth, "element %zu: %s", i, why);
        }
        return 0;
    }
    if (sl_cli_sweep_value(v, buf, sizeof buf, &txt))
        return spec_fail(sw, path, depth, "not a number, a string, a boolean%s", lists ? " or a list of them" : "");
    if (sl_api_options[o].kind == SL_API_FLAG && txt && *txt)
        return spec_fail(sw, path, depth, "%s is a flag: true or false", sl_api_options[o].name);
    if (sl_api_options[o].kind != SL_API_FLAG && txt && !*txt)
        return spec_fail(sw, path, depth, "%s takes a value, not true", sl_api_options[o].name);
    /* a value the option's parser refuses fails every point alike: a spec error, not N records */
    if (txt && sl_cli_value_check(o, txt, why, sizeof why))
        return spec_fail(sw, path, depth, "%s", why);
    (void)which;
    return 0;
}

static int check_input(sl_cli_sweep *sw, sl_cli_sweep_study *st, const char **path, const json_t *in)
{
    if (!json_is_object(in))
        return spec_fail(sw, path, 4, "an input is an object such as {\"logits\": \"FILE\"}");
    static const char *const keys[] = {"logits", "probs", "tensor", "row", "context", "tokens", NULL};
    static const sl_api_opt opts[] = {SL_API_OPT_LOGITS, SL_API_OPT_PROBS, SL_API_OPT_TENSOR, SL_API_OPT_ROW, SL_API_OPT_CONTEXT,
                                      SL_API_OPT_GEN_TOKENS};
    const char *key;
    json_t *v;
    int src = 0;
    json_object_foreach((json_t *)in, key, v) {
        path[4] = key;
        int k = 0;
        while (keys[k] && strcmp(keys[k], key))
            k++;
        if (!keys[k])
            return spec_fail(sw, path, 5, "an input takes logits or probs, and tensor, row, context, tokens");
        if (!strcmp(key, "row") ? !(json_is_integer(v) && json_integer_value(v) >= 0) : !json_is_string(v))
            return spec_fail(sw, path, 5, !strcmp(key, "row") ? "a row is an integer >= 0" : "a string (a path, or an inline list)");
        sl_api_opt o = opts[k];
        if (!strcmp(st->job, "check") && o == SL_API_OPT_GEN_TOKENS)
            ;
        else if (!job_takes(st, o))
            return spec_fail(sw, path, 5, "%s does not take --%s", st->job, key);
        src += k < 2;
    }
    path[4] = NULL;
    if (src != 1 && strcmp(st->job, "power") != 0)
        return spec_fail(sw, path, 4, "an input has exactly one of logits and probs");
    if (!strcmp(st->job, "check") && !json_object_get(in, "tokens"))
        return spec_fail(sw, path, 4, "a check input needs \"tokens\" (the observed ids)");
    return 0;
}

/* The number of points of one study, or 0 after printing the error. */
static int check_study(sl_cli_sweep *sw, sl_cli_sweep_study *st, size_t k)
{
    char idx[32];
    snprintf(idx, sizeof idx, "#%zu", k);
    const char *path[6] = {"studies", idx, NULL, NULL, NULL, NULL};
    json_t *o = st->obj;
    if (!json_is_object(o))
        return spec_fail(sw, path, 2, "a study is an object with \"job\" and \"inputs\"");
    static const char *const keys[] = {"name", "job", "inputs", "frameworks", "methods", "settings", "seeds",
                                       "options", NULL};
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        if (!in_list(keys, key)) {
            path[2] = key;
            return spec_fail(sw, path, 3, "unknown key (a study has name, job, inputs, frameworks or methods, "
                             "settings, seeds, options)");
        }
    }
    json_t *job = json_object_get(o, "job");
    path[2] = "job";
    if (!job)
        return spec_fail(sw, path, 2, "no \"job\" (draw, gof, replay, check, calibrate, power, exact)");
    if (!json_is_string(job) || !in_list(sl_cli_sweep_jobs, json_string_value(job)))
        return spec_fail(sw, path, 3, "not a job: draw, gof, replay, check, calibrate, power or exact");
    st->job = json_string_value(job);
    json_t *name = json_object_get(o, "name");
    path[2] = "name";
    if (name && !json_is_string(name))
        return spec_fail(sw, path, 3, "a name is a string");
    snprintf(st->name, sizeof st->name, "%s", name ? json_string_value(name) : "");
    if (!name)
        snprintf(st->name, sizeof st->name, "study-%zu", k);

    json_t *fw = json_object_get(o, "frameworks"), *me = json_object_get(o, "methods");
    if (fw && me) {
        path[2] = "methods";
        return spec_fail(sw, path, 3, "a study runs frameworks or methods, not both");
    }
    st->axis = fw ? fw : me;
    st->axis_opt = fw ? SL_API_NAME(FRAMEWORK) : me ? SL_API_NAME(METHOD) : NULL;
    st->n_axis = 1;
    if (st->axis) {
        path[2] = fw ? "frameworks" : "methods";
        if (!json_is_array(st->axis) || !json_array_size(st->axis))
            return spec_fail(sw, path, 3, "a non-empty list of names");
        sl_api_opt ao = fw ? SL_API_OPT_FRAMEWORK : SL_API_OPT_METHOD;
        if (!sl_cli_sweep_gof_chain(st) && !sl_api_cmd_takes(sl_api_cmd_lookup(st->job), ao))
            return spec_fail(sw, path, 3, "%s does not take %s", st->job, sl_api_options[ao].name);
        size_t i;
        json_t *x;
        char ii[32];
        json_array_foreach(st->axis, i, x) {
            snprintf(ii, sizeof ii, "#%zu", i);
            path[3] = ii;
            const char *nm = json_is_string(x) ? json_string_value(x) : NULL;
            if (fw && !(nm && (sl_fw_lookup(nm) || !strcmp(nm, "all"))))
                return spec_fail(sw, path, 4, "not a framework (samplab draw --help lists them)");
            if (me && !(nm && sl_draw_lookup(nm)))
                return spec_fail(sw, path, 4, "not a draw method (samplab draw --help lists them)");
        }
        path[3] = NULL;
        st->n_axis = json_array_size(st->axis);
    }

    st->inputs = json_object_get(o, "inputs");
    path[2] = "inputs";
    if (!st->inputs && !strcmp(st->job, "power")) {
        /* docs/sweep.md: only the MKL fault needs no vector (power --fault mkl-seed-collision) */
        json_t *opts = json_object_get(o, "options"), *fault = opts ? json_object_get(opts, "fault") : NULL;
        if (!(json_is_string(fault) && !strcmp(json_string_value(fault), "mkl-seed-collision")))
            return spec_fail(sw, path, 2, "no \"inputs\": power leaves them out only with \"fault\": "
                             "\"mkl-seed-collision\" in options");
        st->n_inputs = 1;
    } else {
        if (!st->inputs)
            return spec_fail(sw, path, 2, "no \"inputs\" (a list of {\"logits\": ...} or {\"probs\": ...})");
        if (!json_is_array(st->inputs) || !json_array_size(st->inputs))
            return spec_fail(sw, path, 3, "a non-empty list of inputs");
        size_t i;
        json_t *x;
        char ii[32];
        json_array_foreach(st->inputs, i, x) {
            snprintf(ii, sizeof ii, "#%zu", i);
            path[3] = ii;
            if (check_input(sw, st, path, x))
                return 2;
        }
        path[3] = NULL;
        st->n_inputs = json_array_size(st->inputs);
    }

    st->settings = json_object_get(o, "settings");
    st->n_combos = 1;
    path[2] = "settings";
    if (st->settings) {
        if (!json_is_object(st->settings))
            return spec_fail(sw, path, 3, "settings is an object of option: value or [values]");
        json_object_foreach(st->settings, key, v) {
            path[3] = key;
            if (check_key(sw, st, path, 4, key, v, 1))
                return 2;
            size_t m = json_is_array(v) ? json_array_size(v) : 1;
            if (st->n_combos > SL_CLI_SWEEP_MAX_POINTS / m)
                return spec_fail(sw, path, 4, "the grid has more than %d points", SL_CLI_SWEEP_MAX_POINTS);
            st->n_combos *= m;
        }
        path[3] = NULL;
    }
    st->options = json_object_get(o, "options");
    path[2] = "options";
    if (st->options) {
        if (!json_is_object(st->options))
            return spec_fail(sw, path, 3, "options is an object of option: value");
        json_object_foreach(st->options, key, v) {
            path[3] = key;
            if (st->settings && json_object_get(st->settings, key))
                return spec_fail(sw, path, 4, "given in settings too");
            if (check_key(sw, st, path, 4, key, v, 0))
                return 2;
        }
        path[3] = NULL;
    }
    if (sl_cli_sweep_gof_chain(st) && !(st->options && json_object_get(st->options, "n")) &&
        !(st->settings && json_object_get(st->settings, "n"))) {
        path[2] = "options";
        return spec_fail(sw, path, 2, "a gof over a framework's draws needs \"n\" (draws per point) in options");
    }

    st->seeds = json_object_get(o, "seeds");
    st->n_seeds = 1;
    path[2] = "seeds";
    if (st->seeds) {
        if (!job_takes(st, SL_API_OPT_SEED))
            return spec_fail(sw, path, 3, "%s takes no --seed%s", st->job,
                             !strcmp(st->job, "calibrate") ? " (give seeds and first_seed in options)" : "");
        if (json_is_array(st->seeds)) {
            if (!json_array_size(st->seeds))
                return spec_fail(sw, path, 3, "an empty list gives no grid points");
            size_t i;
            json_t *x;
            json_array_foreach(st->seeds, i, x) {
                if (!(json_is_string(x) || (json_is_integer(x) && json_integer_value(x) >= 0)))
                    return spec_fail(sw, path, 3, "element %zu is not a seed (an integer >= 0, or a string)", i);
                /* a string the seed parser refuses would be the same refusal at every point */
                sl_seed sd;
                sl_error se;
                if (json_is_string(x) && sl_base_seed_parse(json_string_value(x), &sd, &se))
                    return spec_fail(sw, path, 3, "element %zu: %s", i, se.msg);
            }
            st->n_seeds = json_array_size(st->seeds);
        } else if (json_is_object(st->seeds)) {
            json_t *f = json_object_get(st->seeds, "first"), *c = json_object_get(st->seeds, "count");
            json_object_foreach(st->seeds, key, v) {
                path[3] = key;
                if (strcmp(key, "first") && strcmp(key, "count"))
                    return spec_fail(sw, path, 4, "seeds as an object has first and count");
            }
            path[3] = "count";
            if (!c || !json_is_integer(c) || json_integer_value(c) < 1)
                return spec_fail(sw, path, c ? 4 : 3, "count is an integer >= 1");
            path[3] = "first";
            if (f && !(json_is_integer(f) && json_integer_value(f) >= 0))
                return spec_fail(sw, path, 4, "first is an integer >= 0");
            path[3] = NULL;
            if ((uint64_t)json_integer_value(c) > SL_CLI_SWEEP_MAX_POINTS)
                return spec_fail(sw, path, 3, "the grid has more than %d points", SL_CLI_SWEEP_MAX_POINTS);
            st->n_seeds = (size_t)json_integer_value(c);
            st->seed_first = f ? (uint64_t)json_integer_value(f) : 0;
        } else {
            return spec_fail(sw, path, 3, "a list of seeds, or {\"first\": S, \"count\": K}");
        }
    }
    path[2] = NULL;
    double total = (double)st->n_inputs * (double)st->n_axis * (double)st->n_combos * (double)st->n_seeds;
    if (total > SL_CLI_SWEEP_MAX_POINTS)
        return spec_fail(sw, path, 2, "the study has %.0f points, more than %d", total, SL_CLI_SWEEP_MAX_POINTS);
    if (!st->axis && strcmp(st->job, "power"))
        /* every job but power needs --framework or --method: without the axis each
         * point would be the same refusal */
        return spec_fail(sw, path, 2, "%s needs %s", st->job,
                         !strcmp(st->job, "calibrate") ? "\"methods\" (it takes --method)"
                         : !strcmp(st->job, "replay") || !strcmp(st->job, "check") ? "\"frameworks\" (it takes --framework)"
                                                                                   : "\"frameworks\" or \"methods\"");
    st->count = st->n_inputs * st->n_axis * st->n_combos * st->n_seeds;
    return 0;
}

void sl_cli_sweep_free(sl_cli_sweep *sw)
{
    json_decref(sw->root);
    free(sw->studies);
    free(sw->text);
    sw->root = NULL;
    sw->studies = NULL;
    sw->text = NULL;
}

int sl_cli_sweep_parse(sl_cli_sweep *sw)
{
    json_error_t je;
    char e[SL_CLI_ESC_MAX];
    if (memchr(sw->text, 0, sw->text_len)) {
        fprintf(sw->err, "samplab sweep: %s: byte %zu is NUL: a spec is JSON text\n",
                sl_cli_esc(sw->path, e, sizeof e), (size_t)((char *)memchr(sw->text, 0, sw->text_len) - sw->text));
        return 2;
    }
    sw->root = json_loadb(sw->text, sw->text_len, JSON_REJECT_DUPLICATES, &je);
    if (!sw->root) {
        char all[1024];
        snprintf(all, sizeof all, "%s:%d:%d: %s", sw->path, je.line, je.column, je.text);
        fprintf(sw->err, "samplab sweep: %s\n", sl_cli_esc(all, e, sizeof e));
        return 2;
    }
    const char *path[2] = {NULL, NULL};
    if (!json_is_object(sw->root))
        return spec_fail(sw, path, 0, "a spec is an object {\"studies\": [...]}");
    const char *key;
    json_t *v;
    json_object_foreach(sw->root, key, v) {
        path[0] = key;
        if (strcmp(key, "studies") && strcmp(key, "name") && strcmp(key, "comment"))
            return spec_fail(sw, path, 1, "unknown key (a spec has studies, and optionally name and comment)");
        if (!strcmp(key, "name") && !json_is_string(v)) /* it titles summary.md: a number was dropped */
            return spec_fail(sw, path, 1, "a name is a string");
    }
    json_t *studies = json_object_get(sw->root, "studies");
    path[0] = "studies";
    if (!studies)
        return spec_fail(sw, path, 0, "no \"studies\" list");
    if (!json_is_array(studies) || !json_array_size(studies))
        return spec_fail(sw, path, 1, "a non-empty list of studies");
    sw->n_studies = json_array_size(studies);
    sw->studies = calloc(sw->n_studies, sizeof *sw->studies);
    if (!sw->studies) {
        fprintf(sw->err, "samplab sweep: out of memory\n");
        return 2;
    }
    sw->n_points = 0;
    for (size_t k = 0; k < sw->n_studies; k++) {
        sl_cli_sweep_study *st = &sw->studies[k];
        st->obj = json_array_get(studies, k);
        if (check_study(sw, st, k))
            return 2;
        st->first = sw->n_points;
        sw->n_points += st->count;
        if (sw->n_points > SL_CLI_SWEEP_MAX_POINTS)
            return spec_fail(sw, path, 1, "the spec has more than %d points", SL_CLI_SWEEP_MAX_POINTS);
    }
    return 0;
}

void sl_cli_sweep_point_at(const sl_cli_sweep *sw, size_t i, sl_cli_sweep_point *p)
{
    size_t k = 0;
    while (k + 1 < sw->n_studies && i >= sw->studies[k + 1].first)
        k++;
    const sl_cli_sweep_study *st = &sw->studies[k];
    size_t r = i - st->first;
    p->st = st;
    p->index = i;
    p->seed = r % st->n_seeds;
    r /= st->n_seeds;
    p->combo = r % st->n_combos;
    r /= st->n_combos;
    p->axis = r % st->n_axis;
    p->input = r / st->n_axis;
}
