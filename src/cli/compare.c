/* compare.c — `samplab compare --logits SRC [settings] [--frameworks a,b,...]`:
 * the same logits and the "same" settings through several frameworks'
 * pipelines. For each framework: kept count, entropy, top tokens; for each
 * pair: total variation distance, the ids one keeps and the other drops, and
 * a translation — other settings for one framework that reproduce the
 * other's distribution, found by a rule (defaults made explicit, min-p moved
 * across temperature: ln m' = T ln m) or, on these logits only, by top-k =
 * the other's kept count at its temperature — each verified by running it. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

#define CMP_MAX 8
#define CMP_AGREE_TV 1e-6

typedef struct cmp_fw {
    const sl_logits_pipeline_type *t;
    sl_logits_cfg cfg; /* the settings it ran with */
    int ok;
    char error[512];
    sl_logits_result r;
    double entropy;
} cmp_fw;

static double cmp_tv(const sl_logits_result *a, const sl_logits_result *b)
{
    double s = 0;
    for (size_t i = 0; i < a->V; i++)
        s += fabs(a->probs[i] - b->probs[i]);
    return s / 2;
}

static int cmp_same_kept(const sl_logits_result *a, const sl_logits_result *b)
{
    return !memcmp(a->kept, b->kept, a->V);
}

/* The settings framework t runs with. candle's LogitsProcessor::new(seed,
 * None, ..) is ArgMax whatever k and p say, and every Sampling with k or p
 * needs a temperature: without --temperature candle runs at 1, the value the
 * other frameworks use, so that "the same settings" compare like with like. */
static sl_logits_cfg cmp_cfg_for(const sl_logits_pipeline_type *t, const sl_logits_cfg *c)
{
    sl_logits_cfg r = *c;
    if (t == &sl_logits_pipeline_candle_type && !r.has_temperature) {
        r.has_temperature = 1;
        r.temperature = 1.0;
    }
    return r;
}

/* the temperature framework t really applies under cfg */
static double cmp_effective_t(const sl_logits_pipeline_type *t, const sl_logits_cfg *c)
{
    if (c->has_temperature)
        return c->temperature;
    if (t == &sl_logits_pipeline_llamacpp_type && c->defaults)
        return 0.8;
    if (t == &sl_logits_pipeline_ollama_type) /* DefaultOptions: a request without one gets 0.8 */
        return 0.8;
    return 1.0;
}

/* What the printed commands say after --context, and the source and kernel
 * options every translation repeats: the user's own arguments, quoted for
 * the shell where needed, so a translation runs as printed. */
static char cmp_context_text[1100] = "IDS";
static char cmp_src_args[4400];
static char cmp_cpu_text[64];

/* s as one shell word: as is when it holds only safe characters, else in
 * single quotes ('\'' for a quote); a control byte cannot be pasted, so the
 * word is then escaped for display (sl_cli_esc). */
static void cmp_shell_word(const char *s, char *buf, size_t len)
{
    size_t n = strlen(s);
    if (n && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+@%-") == n) {
        snprintf(buf, len, "%s", s);
        return;
    }
    for (const char *c = s; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            sl_cli_esc(s, buf, len);
            return;
        }
    size_t k = 0;
    if (k + 1 < len)
        buf[k++] = '\'';
    for (const char *c = s; *c && k + 5 < len; c++) {
        if (*c == '\'') {
            memcpy(buf + k, "'\\''", 4);
            k += 4;
        } else
            buf[k++] = *c;
    }
    if (k + 1 < len)
        buf[k++] = '\'';
    buf[k] = '\0';
}

/* The whole command of a translation: samplab pipeline --framework X, the
 * source, the settings, the kernel (for the frameworks that take it). */
static void cmp_command(const sl_logits_pipeline_type *x, const char *args, char *buf, size_t len)
{
    snprintf(buf, len, "samplab pipeline --framework %s%s%s%s%s", x->name, cmp_src_args, args,
             cmp_cpu_text[0] && (x->accepts & SL_OPT_CPU) ? " --cpu " : "",
             cmp_cpu_text[0] && (x->accepts & SL_OPT_CPU) ? cmp_cpu_text : "");
}

static void cmp_args(const sl_logits_cfg *c, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
#define ADD(...) n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__)
    if (c->defaults)
        ADD(" --defaults");
    if (c->has_temperature)
        ADD(" --temperature %.9g", c->temperature);
    if (c->has_top_k)
        ADD(" --top-k %ld", c->top_k);
    if (c->has_top_p)
        ADD(" --top-p %.9g", c->top_p);
    if (c->has_min_p)
        ADD(" --min-p %.9g", c->min_p);
    if (c->has_typical)
        ADD(" --typical %.9g", c->typical);
    if (c->has_penalty)
        ADD(" --repetition-penalty %.9g --context %s", c->penalty, cmp_context_text);
    if (c->has_last_n)
        ADD(" --penalty-last-n %ld", c->last_n);
    if (c->has_min_keep)
        ADD(" --min-keep %ld", c->min_keep);
#undef ADD
}

/* the SL_OPT_* bits a settings block uses */
static unsigned cmp_bits(const sl_logits_cfg *c)
{
    return (c->has_temperature ? SL_OPT_TEMPERATURE : 0) | (c->has_top_k ? SL_OPT_TOP_K : 0) |
           (c->has_top_p ? SL_OPT_TOP_P : 0) | (c->has_min_p ? SL_OPT_MIN_P : 0) |
           (c->has_typical ? SL_OPT_TYPICAL : 0) | (c->has_penalty ? SL_OPT_PENALTY : 0) |
           (c->has_min_keep ? SL_OPT_MIN_KEEP : 0) | (c->defaults ? SL_OPT_DEFAULTS : 0) |
           (c->has_last_n ? SL_OPT_LAST_N : 0) | (c->has_freq || c->has_presence ? SL_OPT_FREQ_PRESENCE : 0);
}

typedef struct cmp_translation {
    int found;
    const sl_logits_pipeline_type *target;
    char args[256];
    double tv;
    char scope[128]; /* which rule, or "on these logits" */
    int rc;          /* SL_ENOMEM when a candidate could not be run: the search is incomplete */
    sl_error err;
} cmp_translation;

/* The translation is printed with %.9g: run exactly what is printed. */
static double cmp_r9(double x)
{
    char b[40];
    snprintf(b, sizeof b, "%.9g", x);
    return strtod(b, NULL);
}

static void cmp_round9(sl_logits_cfg *c)
{
    c->temperature = cmp_r9(c->temperature);
    c->top_p = cmp_r9(c->top_p);
    c->min_p = cmp_r9(c->min_p);
    c->typical = cmp_r9(c->typical);
    c->penalty = cmp_r9(c->penalty);
}

static int cmp_float_desc(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

/* The f64 sum of the k largest of candle's float32 softmax at temperature t
 * (after its repeat penalty when c has one) into *mass: the mass candle's
 * top-p sees. Returns 0 or SL_ENOMEM. */
static int cmp_candle_topk_mass(const sl_vec *v, const sl_logits_cfg *c, double t, long k, double *mass,
                                sl_error *err)
{
    size_t V = v->n;
    *mass = 0;
    if (k <= 0)
        return SL_OK;
    float *lg = malloc(V * sizeof *lg);
    if (!lg)
        return sl_base_error_set(err, SL_ENOMEM, "compare: out of memory for %zu candle logits", V);
    memcpy(lg, v->f, V * sizeof *lg);
    int rc;
    if (c->has_penalty &&
        (rc = sl_logits_candle_repeat_penalty(lg, V, (float)c->penalty, c->context, c->context_n, NULL, err))) {
        free(lg);
        return rc;
    }
    sl_logits_candle_softmax(lg, V, t, 0, lg);
    qsort(lg, V, sizeof *lg, cmp_float_desc);
    double m = 0;
    for (size_t j = 0; j < (size_t)k && j < V; j++)
        m += lg[j];
    free(lg);
    *mass = m;
    return SL_OK;
}

/* Settings for framework x that reproduce y's result (run and checked). */
static void cmp_translate(const sl_vec *v, const sl_logits_cfg *user, const cmp_fw *y, const sl_logits_pipeline_type *x,
                          cmp_translation *out)
{
    memset(out, 0, sizeof *out);
    /* Ollama fills every option left out with its own default: no settings of its
     * own reproduce another framework's result (and its command needs --ollama) */
    if (x == &sl_logits_pipeline_ollama_type)
        return;
    sl_logits_cfg cand[6];
    char scope[6][128];
    int n = 0;
    double ty = cmp_effective_t(y->t, user);
    sl_logits_cfg base;
    memset(&base, 0, sizeof base);
    base.cpu = user->cpu; /* --cpu: the kernel hf and vllm model, in the translations too */
    base.has_penalty = user->has_penalty;
    base.penalty = user->has_penalty ? user->penalty : 1.0;
    base.context = user->context;
    base.context_n = user->context_n;
    if (x == &sl_logits_pipeline_llamacpp_type && user->has_penalty) {
        base.has_last_n = 1; /* cover the whole context, as the others do */
        base.last_n = (long)(user->context_n ? user->context_n : 1);
    }
    if (x == &sl_logits_pipeline_hf_type && user->has_min_keep && y->t == &sl_logits_pipeline_hf_type) {
        base.has_min_keep = 1;
        base.min_keep = user->min_keep;
    }
    /* rule 1: the source's defaults written out, the rest as given */
    if (user->defaults && (y->t == &sl_logits_pipeline_hf_type || y->t == &sl_logits_pipeline_llamacpp_type)) {
        sl_logits_cfg c = *user;
        c.defaults = 0;
        c.has_min_keep = 0;
        if (x == &sl_logits_pipeline_llamacpp_type && user->has_penalty) {
            c.has_last_n = base.has_last_n;
            c.last_n = base.last_n;
        }
        if (y->t == &sl_logits_pipeline_hf_type && !c.has_top_k) {
            c.has_top_k = 1;
            c.top_k = 50;
        }
        if (y->t == &sl_logits_pipeline_llamacpp_type) {
            if (!c.has_top_k) { c.has_top_k = 1; c.top_k = 40; }
            if (!c.has_top_p) { c.has_top_p = 1; c.top_p = 0.95; }
            if (!c.has_min_p) { c.has_min_p = 1; c.min_p = 0.05; }
            if (!c.has_temperature) { c.has_temperature = 1; c.temperature = 0.8; }
        }
        cand[n] = c;
        snprintf(scope[n++], sizeof scope[0], "rule: %s's --defaults written out", y->t->name);
    }
    /* rule 2: min-p across temperature (llama.cpp filters before T) */
    if (user->has_min_p && !user->has_top_p && !user->has_typical && ty > 0 &&
        ((x == &sl_logits_pipeline_llamacpp_type) != (y->t == &sl_logits_pipeline_llamacpp_type))) {
        sl_logits_cfg c = base;
        c.has_temperature = 1;
        c.temperature = ty;
        if (user->has_top_k) {
            c.has_top_k = 1;
            c.top_k = user->top_k;
        }
        c.has_min_p = 1;
        c.min_p = x == &sl_logits_pipeline_llamacpp_type ? pow(user->min_p, ty) : pow(user->min_p, 1.0 / ty);
        cand[n] = c;
        snprintf(scope[n++], sizeof scope[0], "rule: min-p m after temperature T is llama.cpp's min-p m^T");
    }
    /* candle: top-k then top-p on the top-k mass m, not renormalised, so the
     * others' top-p P after top-k K is candle's p = P*m (on these logits) */
    if (x == &sl_logits_pipeline_candle_type && user->has_top_p && !user->has_min_p && !user->has_typical && ty > 0 &&
        (y->t == &sl_logits_pipeline_hf_type || y->t == &sl_logits_pipeline_vllm_type || y->t == &sl_logits_pipeline_tutorial_type) &&
        (user->has_top_k || (user->defaults && y->t == &sl_logits_pipeline_hf_type))) {
        long k = user->has_top_k ? user->top_k : 50;
        double m;
        if ((out->rc = cmp_candle_topk_mass(v, &base, ty, k, &m, &out->err)))
            return;
        if (m > 0) {
            sl_logits_cfg c = base;
            c.has_temperature = 1;
            c.temperature = ty;
            c.has_top_k = 1;
            c.top_k = k;
            c.has_top_p = 1;
            c.top_p = user->top_p * m;
            cand[n] = c;
            snprintf(scope[n++], sizeof scope[0],
                     "on these logits only: top-p %.9g x the top-%ld mass %.9g, as candle does not renormalise",
                     user->top_p, k, m);
        }
    }
    /* on these logits: the same temperature and top-k = the kept count */
    {
        sl_logits_cfg c = base;
        if (y->r.n_kept == 1) {
            c.has_top_k = 1;
            c.top_k = 1;
        } else {
            c.has_temperature = ty != 1.0 && ty > 0;
            c.temperature = ty;
            c.has_top_k = 1;
            c.top_k = (long)y->r.n_kept;
        }
        cand[n] = c;
        snprintf(scope[n++], sizeof scope[0], "on these logits only: top-k = %s's kept count", y->t->name);
    }
    for (int i = 0; i < n; i++) {
        sl_logits_result r;
        sl_error err;
        /* candle without a temperature is ArgMax: give it the source's */
        if (x == &sl_logits_pipeline_candle_type && !cand[i].has_temperature && ty > 0) {
            cand[i].has_temperature = 1;
            cand[i].temperature = ty;
        }
        cmp_round9(&cand[i]);
        if (cmp_bits(&cand[i]) & ~x->accepts)
            continue;
        int rc = sl_logits_pipeline_run(x, v, &cand[i], &r, &err);
        if (rc == SL_ENOMEM) { /* not a refusal: the candidate was never judged */
            out->rc = rc;
            out->err = err;
            return;
        }
        if (rc)
            continue; /* the settings are invalid for x: try the next rule */
        double tv = cmp_tv(&r, &y->r);
        int same = cmp_same_kept(&r, &y->r);
        sl_logits_result_free(&r);
        if (same && tv < CMP_AGREE_TV) {
            out->found = 1;
            out->target = x;
            cmp_args(&cand[i], out->args, sizeof out->args);
            out->tv = tv;
            snprintf(out->scope, sizeof out->scope, "%s", scope[i]);
            return;
        }
    }
}

static void cmp_help(FILE *f)
{
    fprintf(f, "usage: samplab compare --logits SRC [settings] [--frameworks a,b,...] [--top N] [--json]\n\n"
               "Runs the same logits and settings through each framework's pipeline (default: all that\n"
               "have every option given; a framework named in --frameworks that lacks one is an error).\n"
               "Per framework: kept count, entropy (nats), top N tokens (default 5). Per pair: TV distance,\n"
               "ids one keeps and the other drops, and a translation that makes them agree (verified).\n\n");
    sl_cli_help_options(f, sl_cli_spec_lookup("compare"),
                        "settings (each framework takes the ones it has; others are an error naming it):");
}

static void cmp_print_ids(const unsigned char *a, const unsigned char *b, size_t V)
{
    size_t n = 0;
    for (size_t i = 0; i < V; i++)
        n += a[i] && !b[i];
    printf("%zu", n);
    size_t shown = 0;
    for (size_t i = 0; i < V && shown < 12; i++)
        if (a[i] && !b[i]) {
            printf("%s%zu", shown ? " " : " [", i);
            shown++;
        }
    if (n)
        printf("%s]", n > shown ? " ..." : "");
}

static void cmp_top(const sl_logits_result *r, size_t *top, size_t ntop)
{
    /* simple selection: ntop is small */
    for (size_t j = 0; j < ntop; j++) {
        size_t best = (size_t)-1;
        for (size_t i = 0; i < r->V; i++) {
            int used = 0;
            for (size_t q = 0; q < j; q++)
                used |= top[q] == i;
            if (used || !r->kept[i])
                continue;
            if (best == (size_t)-1 || r->probs[i] > r->probs[best])
                best = i;
        }
        top[j] = best;
    }
}

static void cmp_notes(const sl_cli_logits_args *a, int has_hf, int has_candle, FILE *f, json_t *jnotes)
{
    char buf[512];
    const sl_logits_cfg *c = &a->cfg;
    if (has_hf && c->defaults && !c->has_top_k) {
        snprintf(buf, sizeof buf,
                 "transformers generate(do_sample=True, temperature=%.9g) keeps top_k=50 by default: it equals "
                 "candle Sampling::TopK { k: 50, temperature: %.9g }, not Sampling::All",
                 c->has_temperature ? c->temperature : 1.0, c->has_temperature ? c->temperature : 1.0);
        if (f)
            fprintf(f, "note: %s\n", buf);
        if (jnotes)
            json_array_append_new(jnotes, json_string(buf));
    }
    if (has_hf && (c->has_top_k || c->defaults) && c->has_top_p) {
        snprintf(buf, sizeof buf,
                 "transformers top-k then top-p renormalises after top-k; candle's TopKThenTopP does not "
                 "(top-p on the raw top-k mass). In candle use TopP with a sample_f closure that keeps the "
                 "top k and renormalises.");
        if (f)
            fprintf(f, "note: %s\n", buf);
        if (jnotes)
            json_array_append_new(jnotes, json_string(buf));
    }
    if (!c->has_temperature && has_candle) {
        snprintf(buf, sizeof buf,
                 "candle ran at temperature 1 (Sampling::%s { .., temperature: 1.0 }): LogitsProcessor::new(seed, "
                 "None, ..) without a temperature is ArgMax, whatever k and p say",
                 c->has_top_k ? (c->has_top_p ? "TopKThenTopP" : "TopK") : (c->has_top_p ? "TopP" : "All"));
        if (f)
            fprintf(f, "note: %s\n", buf);
        if (jnotes)
            json_array_append_new(jnotes, json_string(buf));
    }
    if (c->has_temperature && c->temperature == 0) {
        snprintf(buf, sizeof buf,
                 "temperature 0: transformers raises ValueError (use do_sample=False), llama.cpp keeps the first "
                 "maximum, vLLM is greedy, candle's LogitsProcessor::new uses ArgMax below 1e-7");
        if (f)
            fprintf(f, "note: %s\n", buf);
        if (jnotes)
            json_array_append_new(jnotes, json_string(buf));
    }
}

int sl_cli_compare_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("compare", argc, argv, cmp_help, &po);
    if (st >= 0)
        return st;
    sl_cli_logits_args a;
    sl_cli_logits_from(&po, &a);
    const char *list = po.a[SL_CLI_FRAMEWORKS].text;
    const char *ollama = po.a[SL_CLI_OLLAMA].text;
    if (ollama && strcmp(ollama, "0.24")) {
        char e0[SL_CLI_ESC_MAX];
        sl_cli_errf("samplab compare: --ollama takes 0.24, not '%s'\n", sl_cli_esc(ollama, e0, sizeof e0));
        return 2;
    }
    size_t ntop = po.a[SL_CLI_TOP].given ? po.a[SL_CLI_TOP].size : 5;
    if (ntop > 100)
        ntop = 100;
    const unsigned settings = SL_CLI_G_SAMPLING | SL_CLI_G_LLAMA_PENALTY;
    char e[SL_CLI_ESC_MAX];
    char cmd[6000];
    cmp_fw fw[CMP_MAX];
    size_t nfw = 0;
    const char *skipped[CMP_MAX][2];
    char skipped_names[CMP_MAX][64];
    const sl_logits_pipeline_type *skipped_t[CMP_MAX];
    size_t nskip = 0;
    if (list) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", list);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            const sl_logits_pipeline_type *t = sl_logits_pipeline_lookup(tok);
            if (!t) {
                sl_cli_errf("samplab compare: unknown framework '%s' (samplab pipeline --help lists them)\n",
                        sl_cli_esc(tok, e, sizeof e));
                return 2;
            }
            sl_cli_opt miss = sl_cli_refused(&po, settings, t->accepts);
            if (miss)
                return sl_cli_not_an_option("compare", sl_cli_options[miss].name, "framework", t->name);
            if (t == &sl_logits_pipeline_ollama_type && !ollama) {
                sl_cli_errf("samplab compare: framework ollama: samplab models only --ollama 0.24 so far (Ollama "
                            "v0.30+ is not modelled by samplab)\n");
                return 2;
            }
            int dup = 0;
            for (size_t j = 0; j < nfw; j++)
                dup |= fw[j].t == t;
            if (!dup && nfw < CMP_MAX)
                fw[nfw++].t = t;
        }
        if (nfw < 2) {
            sl_cli_errf("samplab compare: --frameworks needs at least two different frameworks\n");
            return 2;
        }
    } else {
        for (size_t i = 0; sl_logits_pipeline_types[i] && nfw < CMP_MAX; i++) {
            if (sl_logits_pipeline_types[i] == &sl_logits_pipeline_ollama_type && !ollama)
                continue; /* only when asked for: --ollama 0.24 */
            sl_cli_opt miss = sl_cli_refused(&po, settings, sl_logits_pipeline_types[i]->accepts);
            if (miss) {
                /* the output names the setting as a whole: "--repetition-penalty/--context" */
                skipped_t[nskip] = sl_logits_pipeline_types[i];
                skipped[nskip][0] = sl_logits_pipeline_types[i]->name;
                sl_cli_bit_names(sl_cli_options[miss].bit, skipped_names[nskip], sizeof skipped_names[nskip]);
                skipped[nskip][1] = skipped_names[nskip];
                nskip++;
                continue;
            }
            fw[nfw++].t = sl_logits_pipeline_types[i];
        }
    }
    if (a.context_src)
        cmp_shell_word(a.context_src, cmp_context_text, sizeof cmp_context_text);
    if (a.src) {
        char w[2100];
        size_t k;
        cmp_shell_word(a.src, w, sizeof w);
        k = (size_t)snprintf(cmp_src_args, sizeof cmp_src_args, " --logits %s", w);
        if (a.tensor && k < sizeof cmp_src_args) {
            cmp_shell_word(a.tensor, w, sizeof w);
            k += (size_t)snprintf(cmp_src_args + k, sizeof cmp_src_args - k, " --tensor %s", w);
        }
        if (a.row >= 0 && k < sizeof cmp_src_args)
            snprintf(cmp_src_args + k, sizeof cmp_src_args - k, " --row %ld", a.row);
    }
    if (a.cpu_text)
        cmp_shell_word(a.cpu_text, cmp_cpu_text, sizeof cmp_cpu_text);
    int rc = sl_cli_logits_load("compare", &po, &a);
    if (rc) {
        sl_cli_logits_free(&a);
        return rc;
    }
    int has_hf = 0, has_candle = 0;
    for (size_t i = 0; i < nfw; i++) {
        sl_error err;
        fw[i].cfg = cmp_cfg_for(fw[i].t, &a.cfg);
        fw[i].ok = !sl_logits_pipeline_run(fw[i].t, &a.vec, &fw[i].cfg, &fw[i].r, &err);
        if (!fw[i].ok) {
            snprintf(fw[i].error, sizeof fw[i].error, "%s", err.msg);
            continue;
        }
        has_hf |= fw[i].t == &sl_logits_pipeline_hf_type;
        has_candle |= fw[i].t == &sl_logits_pipeline_candle_type;
        double h = 0;
        for (size_t j = 0; j < fw[i].r.V; j++)
            if (fw[i].r.probs[j] > 0)
                h -= fw[i].r.probs[j] * log(fw[i].r.probs[j]);
        fw[i].entropy = h;
    }
    size_t *top = NULL;
    size_t nok = 0;
    for (size_t i = 0; i < nfw; i++)
        nok += fw[i].ok != 0;
    if (!nok) {
        /* nothing to compare: bad input, as the pipeline command reports it */
        sl_cli_errf("samplab compare: every framework refused the input: %s\n", fw[0].error);
        rc = 2;
        goto out;
    }
    top = malloc((ntop ? ntop : 1) * sizeof *top);
    if (!top) {
        sl_cli_errf("samplab compare: out of memory\n");
        rc = 2;
        goto out;
    }
    char args[256];
    cmp_args(&a.cfg, args, sizeof args);
    if (a.json) {
        json_t *root = json_object(), *jf = json_array(), *jp = json_array(), *js = json_array(),
               *jn = json_array();
        json_object_set_new(root, "logits", json_string(a.vec.source));
        json_object_set_new(root, "V", json_integer((json_int_t)a.vec.n));
        json_object_set_new(root, "settings", json_string(args[0] ? args + 1 : ""));
        for (size_t i = 0; i < nskip; i++) {
            json_t *o = json_object();
            json_object_set_new(o, "framework", json_string(skipped[i][0]));
            json_object_set_new(o, "lacks", json_string(skipped[i][1]));
            json_t *tr = json_array();
            for (size_t j = 0; j < nfw; j++) {
                cmp_translation t;
                if (!fw[j].ok)
                    continue;
                cmp_translate(&a.vec, &a.cfg, &fw[j], skipped_t[i], &t);
                if (t.rc) {
                    json_decref(tr);
                    json_decref(o);
                    json_decref(root);
                    json_decref(jf);
                    json_decref(jp);
                    json_decref(js);
                    json_decref(jn);
                    sl_cli_errf("samplab compare: %s\n", t.err.msg);
                    rc = 2;
                    goto out;
                }
                if (!t.found)
                    continue;
                json_t *x = json_object();
                json_object_set_new(x, "framework", json_string(t.target->name));
                json_object_set_new(x, "reproduces", json_string(fw[j].t->name));
                json_object_set_new(x, "args", json_string(t.args[0] ? t.args + 1 : ""));
                cmp_command(t.target, t.args, cmd, sizeof cmd);
                json_object_set_new(x, "command", json_string(cmd));
                json_object_set_new(x, "tv", json_real(t.tv));
                json_object_set_new(x, "scope", json_string(t.scope));
                json_array_append_new(tr, x);
            }
            json_object_set_new(o, "translations", tr);
            json_array_append_new(js, o);
        }
        for (size_t i = 0; i < nfw; i++) {
            json_t *o = json_object();
            json_object_set_new(o, "framework", json_string(fw[i].t->name));
            json_object_set_new(o, "ok", json_boolean(fw[i].ok));
            if (!fw[i].ok) {
                json_object_set_new(o, "error", json_string(fw[i].error));
            } else {
                json_object_set_new(o, "kept", json_integer((json_int_t)fw[i].r.n_kept));
                json_object_set_new(o, "entropy", json_real(fw[i].entropy));
                json_t *tt = json_array();
                size_t nt = ntop < fw[i].r.n_kept ? ntop : fw[i].r.n_kept;
                cmp_top(&fw[i].r, top, nt);
                for (size_t j = 0; j < nt; j++) {
                    json_t *pair = json_array();
                    json_array_append_new(pair, json_integer((json_int_t)top[j]));
                    json_array_append_new(pair, json_real(fw[i].r.probs[top[j]]));
                    json_array_append_new(tt, pair);
                }
                json_object_set_new(o, "top", tt);
            }
            json_array_append_new(jf, o);
        }
        for (size_t i = 0; i < nfw; i++)
            for (size_t j = i + 1; j < nfw; j++) {
                if (!fw[i].ok || !fw[j].ok)
                    continue;
                json_t *o = json_object(), *oa = json_array(), *ob = json_array(), *tr = json_array();
                json_object_set_new(o, "a", json_string(fw[i].t->name));
                json_object_set_new(o, "b", json_string(fw[j].t->name));
                json_object_set_new(o, "tv", json_real(cmp_tv(&fw[i].r, &fw[j].r)));
                for (size_t q = 0; q < a.vec.n; q++) {
                    if (fw[i].r.kept[q] && !fw[j].r.kept[q])
                        json_array_append_new(oa, json_integer((json_int_t)q));
                    if (fw[j].r.kept[q] && !fw[i].r.kept[q])
                        json_array_append_new(ob, json_integer((json_int_t)q));
                }
                json_object_set_new(o, "only_a", oa);
                json_object_set_new(o, "only_b", ob);
                if (!cmp_same_kept(&fw[i].r, &fw[j].r) || cmp_tv(&fw[i].r, &fw[j].r) >= CMP_AGREE_TV) {
                    for (int dir = 0; dir < 2; dir++) {
                        cmp_translation t;
                        const cmp_fw *src = dir ? &fw[j] : &fw[i], *dst = dir ? &fw[i] : &fw[j];
                        cmp_translate(&a.vec, &a.cfg, src, dst->t, &t);
                        if (t.rc) {
                            json_decref(tr);
                            json_decref(o); /* holds only_a and only_b */
                            json_decref(root);
                            json_decref(jf);
                            json_decref(jp);
                            json_decref(js);
                            json_decref(jn);
                            sl_cli_errf("samplab compare: %s\n", t.err.msg);
                            rc = 2;
                            goto out;
                        }
                        if (!t.found)
                            continue;
                        json_t *x = json_object();
                        json_object_set_new(x, "framework", json_string(t.target->name));
                        json_object_set_new(x, "reproduces", json_string(src->t->name));
                        json_object_set_new(x, "args", json_string(t.args[0] ? t.args + 1 : ""));
                        cmp_command(t.target, t.args, cmd, sizeof cmd);
                        json_object_set_new(x, "command", json_string(cmd));
                        json_object_set_new(x, "tv", json_real(t.tv));
                        json_object_set_new(x, "scope", json_string(t.scope));
                        json_array_append_new(tr, x);
                    }
                }
                json_object_set_new(o, "translations", tr);
                json_array_append_new(jp, o);
            }
        cmp_notes(&a, has_hf, has_candle, NULL, jn);
        json_object_set_new(root, "skipped", js);
        json_object_set_new(root, "frameworks", jf);
        json_object_set_new(root, "pairs", jp);
        json_object_set_new(root, "notes", jn);
        char *s = json_dumps(root, JSON_REAL_PRECISION(9) | JSON_COMPACT);
        json_decref(root);
        if (s) {
            printf("%s\n", s);
            free(s);
        }
        goto out;
    }
    printf("logits: %s (V = %zu); settings:%s\n", a.vec.source, a.vec.n, args[0] ? args : " (none)");
    for (size_t i = 0; i < nskip; i++)
        printf("skipped: %s has no %s\n", skipped[i][0], skipped[i][1]);
    printf("%-9s %8s %14s  top tokens (id:probability)\n", "framework", "kept", "entropy(nats)");
    for (size_t i = 0; i < nfw; i++) {
        if (!fw[i].ok) {
            printf("%-9s error: %s\n", fw[i].t->name, fw[i].error);
            continue;
        }
        printf("%-9s %8zu %14.6f ", fw[i].t->name, fw[i].r.n_kept, fw[i].entropy);
        size_t nt = ntop < fw[i].r.n_kept ? ntop : fw[i].r.n_kept;
        cmp_top(&fw[i].r, top, nt);
        for (size_t j = 0; j < nt; j++)
            printf(" %zu:%.6g", top[j], fw[i].r.probs[top[j]]);
        printf("\n");
    }
    printf("pairs:\n");
    for (size_t i = 0; i < nfw; i++)
        for (size_t j = i + 1; j < nfw; j++) {
            if (!fw[i].ok || !fw[j].ok)
                continue;
            double tv = cmp_tv(&fw[i].r, &fw[j].r);
            printf("  %s vs %s: TV %.6g; %s keeps ", fw[i].t->name, fw[j].t->name, tv, fw[i].t->name);
            cmp_print_ids(fw[i].r.kept, fw[j].r.kept, a.vec.n);
            printf(" that %s drops; %s keeps ", fw[j].t->name, fw[j].t->name);
            cmp_print_ids(fw[j].r.kept, fw[i].r.kept, a.vec.n);
            printf(" that %s drops\n", fw[i].t->name);
            if (cmp_same_kept(&fw[i].r, &fw[j].r) && tv < CMP_AGREE_TV) {
                printf("    they agree\n");
                continue;
            }
            int any = 0;
            for (int dir = 0; dir < 2; dir++) {
                cmp_translation t;
                const cmp_fw *src = dir ? &fw[j] : &fw[i], *dst = dir ? &fw[i] : &fw[j];
                cmp_translate(&a.vec, &a.cfg, src, dst->t, &t);
                if (t.rc) {
                    sl_cli_errf("samplab compare: %s\n", t.err.msg);
                    rc = 2;
                    goto out;
                }
                if (!t.found)
                    continue;
                any = 1;
                cmp_command(t.target, t.args, cmd, sizeof cmd);
                printf("    translation: %s reproduces %s (TV %.3g; %s)\n", cmd, src->t->name, t.tv, t.scope);
            }
            if (!any)
                printf("    no translation found among the rules tried\n");
        }
    /* a framework skipped for an option it lacks may still reproduce the others with its own settings */
    for (size_t i = 0; i < nskip; i++)
        for (size_t j = 0; j < nfw; j++) {
            cmp_translation t;
            if (!fw[j].ok)
                continue;
            cmp_translate(&a.vec, &a.cfg, &fw[j], skipped_t[i], &t);
            if (t.rc) {
                sl_cli_errf("samplab compare: %s\n", t.err.msg);
                rc = 2;
                goto out;
            }
            if (t.found) {
                cmp_command(t.target, t.args, cmd, sizeof cmd);
                printf("  %s (skipped) for %s: translation: %s reproduces %s (TV %.3g; %s)\n", skipped[i][0],
                       fw[j].t->name, cmd, fw[j].t->name, t.tv, t.scope);
            }
        }
    cmp_notes(&a, has_hf, has_candle, stdout, NULL);
out:
    free(top);
    for (size_t i = 0; i < nfw; i++)
        if (fw[i].ok)
            sl_logits_result_free(&fw[i].r);
    sl_cli_logits_free(&a);
    return rc;
}
