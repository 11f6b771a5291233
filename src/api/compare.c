/* compare.c — `samplab compare` as a call, and the object its --json prints
 * (moved from cli/compare.c): the same logits and the "same" settings through
 * several frameworks' pipelines. For each framework: kept count, entropy, top
 * tokens; for each pair: total variation distance, the ids one keeps and the
 * other drops, and a translation — other settings for one framework that
 * reproduce the other's distribution, found by a rule (the source's defaults
 * written out, min-p moved across temperature: ln m' = T ln m) or, on these
 * logits only, by top-k = the other's kept count at its temperature — each
 * verified by running it. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

#define CMP_MAX SL_API_COMPARE_MAX
#define CMP_AGREE_TV 1e-6

typedef sl_api_compare_fw cmp_fw;

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

/* The settings framework t runs with. A framework that takes the argmax
 * without a temperature (candle's LogitsProcessor::new(seed, None, ..), whatever
 * k and p say) runs at 1, the value the others use, so that "the same
 * settings" compare like with like. */
static sl_logits_cfg cmp_cfg_for(const sl_logits_pipeline_type *t, const sl_logits_cfg *c)
{
    sl_logits_cfg r = *c;
    if ((t->traits & SL_LOGITS_TRAIT_ARGMAX_UNSET_T) && !r.has_temperature) {
        r.has_temperature = 1;
        r.temperature = 1.0;
    }
    return r;
}

/* the temperature framework t really applies under cfg (its default when unset) */
static double cmp_effective_t(const sl_logits_pipeline_type *t, const sl_logits_cfg *c)
{
    sl_logits_cfg d = *c;
    sl_logits_cfg_resolve(t, &d, NULL);
    return d.has_temperature ? d.temperature : 1.0;
}

/* The value at which a filter or the temperature does nothing, in every pipeline
 * that has it (0: none; penalties are off unless given, last_n and min_keep only
 * shape a stage, llama.cpp's other stages default to off). */
static int cmp_off(sl_logits_key k, double *off)
{
    static const double v[SL_KEY_COUNT] = {[SL_KEY_TEMPERATURE] = 1.0, [SL_KEY_TOP_K] = 0, [SL_KEY_TOP_P] = 1.0,
                                           [SL_KEY_MIN_P] = 0, [SL_KEY_TYPICAL] = 1.0};
    *off = v[k];
    return k <= SL_KEY_TYPICAL;
}

/* The defaults of t that act (change something) where c leaves the setting
 * unset, as bits 1u << key; *in_force: c resolved by t. */
static unsigned cmp_acting(const sl_logits_pipeline_type *t, const sl_logits_cfg *c, sl_logits_cfg *in_force)
{
    unsigned got, acting = 0;
    *in_force = *c;
    sl_logits_cfg_resolve(t, in_force, &got);
    for (int k = 0; k < SL_KEY_COUNT; k++) {
        double v, off;
        if ((got & (1u << k)) && sl_logits_cfg_get(in_force, (sl_logits_key)k, &v) &&
            cmp_off((sl_logits_key)k, &off) && v != off)
            acting |= 1u << k;
    }
    return acting;
}

/* A candidate for x says everything it means: each stage x's defaults would add
 * where the candidate leaves it unset is turned off (x's default is not the
 * source's). */
static void cmp_pin(const sl_logits_pipeline_type *x, sl_logits_cfg *c)
{
    sl_logits_cfg r;
    unsigned acting = cmp_acting(x, c, &r);
    double off;
    for (int k = 0; k < SL_KEY_COUNT; k++)
        if ((acting & (1u << k)) && cmp_off((sl_logits_key)k, &off))
            sl_logits_cfg_set(c, (sl_logits_key)k, off);
}

/* What the printed commands say after --context, and the source and kernel
 * options every translation repeats: the user's own arguments, quoted for
 * the shell where needed, so a translation runs as printed. */
typedef struct cmp_words {
    char context[1100];
    char src[4400];
    char cpu[64];
} cmp_words;

/* s as one shell word: as is when it holds only safe characters, else in
 * single quotes ('\'' for a quote); a control byte cannot be pasted, so the
 * word is then escaped for display (sl_base_esc_str). */
static void cmp_shell_word(const char *s, char *buf, size_t len)
{
    size_t n = strlen(s);
    if (n && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+@%-") == n) {
        snprintf(buf, len, "%s", s);
        return;
    }
    for (const char *c = s; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            sl_base_esc_str(s, buf, len);
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
static char *cmp_command(const cmp_words *w, const sl_logits_pipeline_type *x, const char *args)
{
    char buf[6000];
    int cpu = w->cpu[0] && (x->accepts & SL_OPT_CPU);
    snprintf(buf, sizeof buf, "samplab pipeline %s %s%s%s%s%s%s%s", SL_API_NAME(FRAMEWORK), x->name, w->src, args,
             cpu ? " " : "", cpu ? SL_API_NAME(CPU) : "", cpu ? " " : "", cpu ? w->cpu : "");
    return strdup(buf);
}

static void cmp_args(const cmp_words *w, const sl_logits_cfg *c, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
#define ADD(...) n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__)
    if (c->has_temperature)
        ADD(" %s %.9g", SL_API_NAME(TEMPERATURE), c->temperature);
    if (c->has_top_k)
        ADD(" %s %ld", SL_API_NAME(TOP_K), c->top_k);
    if (c->has_top_p)
        ADD(" %s %.9g", SL_API_NAME(TOP_P), c->top_p);
    if (c->has_min_p)
        ADD(" %s %.9g", SL_API_NAME(MIN_P), c->min_p);
    if (c->has_typical)
        ADD(" %s %.9g", SL_API_NAME(TYPICAL), c->typical);
    if (c->has_penalty)
        ADD(" %s %.9g %s %s", SL_API_NAME(REPETITION_PENALTY), c->penalty, SL_API_NAME(CONTEXT), w->context);
    if (c->has_last_n)
        ADD(" %s %ld", SL_API_NAME(PENALTY_LAST_N), c->last_n);
    if (c->has_min_keep)
        ADD(" %s %ld", SL_API_NAME(MIN_KEEP), c->min_keep);
#undef ADD
}

/* the SL_OPT_* bits a settings block uses */
static unsigned cmp_bits(const sl_logits_cfg *c)
{
    return (c->has_temperature ? SL_OPT_TEMPERATURE : 0) | (c->has_top_k ? SL_OPT_TOP_K : 0) |
           (c->has_top_p ? SL_OPT_TOP_P : 0) | (c->has_min_p ? SL_OPT_MIN_P : 0) |
           (c->has_typical ? SL_OPT_TYPICAL : 0) | (c->has_penalty ? SL_OPT_PENALTY : 0) |
           (c->has_min_keep ? SL_OPT_MIN_KEEP : 0) |
           (c->has_last_n ? SL_OPT_LAST_N : 0) | (c->has_freq || c->has_presence ? SL_OPT_FREQ_PRESENCE : 0);
}


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

/* Settings for framework x that reproduce y's result (run and checked): 1 and
 * *out when found, 0 when not, SL_ENOMEM (-1 here) when a candidate could not be
 * run, which leaves the search incomplete. */
static int cmp_translate(const cmp_words *w, const sl_vec *v, const sl_logits_cfg *user, const cmp_fw *y,
                         const sl_logits_pipeline_type *x, sl_api_compare_tr *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (x->traits & SL_LOGITS_TRAIT_OWN_DEFAULTS)
        return 0; /* it fills every setting left out with its own: none of its own reproduce y's */
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
    if ((x->accepts & SL_OPT_LAST_N) && user->has_penalty) {
        /* a penalty over the last N tokens (llama.cpp's penalty_last_n): cover the whole context, as the others do */
        base.has_last_n = 1;
        base.last_n = (long)(user->context_n ? user->context_n : 1);
    }
    /* the source's settings in force (what the user left unset: its defaults) */
    sl_logits_cfg yc;
    unsigned yact = cmp_acting(y->t, user, &yc);
    /* rule 1: the source's defaults that act written out, the rest as given */
    if (yact) {
        sl_logits_cfg c = *user;
        c.has_min_keep = 0;
        double yv;
        for (int k = 0; k < SL_KEY_COUNT; k++)
            if ((yact & (1u << k)) && sl_logits_cfg_get(&yc, (sl_logits_key)k, &yv))
                sl_logits_cfg_set(&c, (sl_logits_key)k, yv);
        if ((x->accepts & SL_OPT_LAST_N) && user->has_penalty) {
            c.has_last_n = base.has_last_n;
            c.last_n = base.last_n;
        }
        cand[n] = c;
        snprintf(scope[n++], sizeof scope[0], "rule: %s's defaults written out", y->t->name);
    }
    /* rule 2: min-p across temperature (llama.cpp filters before T), where the
     * source runs no top-p or typical (given or by default) */
    int x_before = (x->traits & SL_LOGITS_TRAIT_MIN_P_BEFORE_T) != 0;
    int y_before = (y->t->traits & SL_LOGITS_TRAIT_MIN_P_BEFORE_T) != 0;
    if (user->has_min_p && !(yc.has_top_p && yc.top_p < 1) && !(yc.has_typical && yc.typical < 1) && ty > 0 &&
        x_before != y_before) {
        sl_logits_cfg c = base;
        c.has_temperature = 1;
        c.temperature = ty;
        if (yc.has_top_k && yc.top_k > 0) {
            c.has_top_k = 1;
            c.top_k = yc.top_k;
        }
        c.has_min_p = 1;
        c.min_p = x_before ? pow(user->min_p, ty) : pow(user->min_p, 1.0 / ty);
        cand[n] = c;
        snprintf(scope[n++], sizeof scope[0], "rule: min-p m after temperature T is llama.cpp's min-p m^T");
    }
    /* candle: top-k then top-p on the top-k mass m, not renormalised, so the
     * others' top-p P after top-k K (renormalised) is candle's p = P*m (on these
     * logits); K as given, or the source's default */
    if ((x->traits & SL_LOGITS_TRAIT_TOP_P_RAW_MASS) && user->has_top_p && !user->has_min_p && !user->has_typical &&
        ty > 0 && (y->t->traits & SL_LOGITS_TRAIT_TOP_P_RENORMED) && yc.has_top_k && yc.top_k > 0) {
        long k = yc.top_k;
        double m;
        if (cmp_candle_topk_mass(v, &base, ty, k, &m, err))
            return -1;
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
        sl_error e;
        /* a framework that takes the argmax without a temperature (candle): give it the source's */
        if ((x->traits & SL_LOGITS_TRAIT_ARGMAX_UNSET_T) && !cand[i].has_temperature && ty > 0) {
            cand[i].has_temperature = 1;
            cand[i].temperature = ty;
        }
        cmp_pin(x, &cand[i]);
        cmp_round9(&cand[i]);
        if (cmp_bits(&cand[i]) & ~x->accepts)
            continue;
        int rc = sl_logits_pipeline_run(x, v, &cand[i], &r, &e);
        if (rc == SL_ENOMEM) { /* not a refusal: the candidate was never judged */
            if (err)
                *err = e;
            return -1;
        }
        if (rc)
            continue; /* the settings are invalid for x: try the next rule */
        double tv = cmp_tv(&r, &y->r);
        int same = cmp_same_kept(&r, &y->r);
        sl_logits_result_free(&r);
        if (same && tv < CMP_AGREE_TV) {
            out->target = x;
            out->source = y->t;
            cmp_args(w, &cand[i], out->args, sizeof out->args);
            out->tv = tv;
            snprintf(out->scope, sizeof out->scope, "%s", scope[i]);
            if (!(out->command = cmp_command(w, x, out->args)))
                return sl_base_error_set(err, SL_ENOMEM, "compare: out of memory"), -1;
            return 1;
        }
    }
    return 0;
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

static void cmp_note(sl_api_compare_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cmp_note(sl_api_compare_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->notes[r->nnotes++], sizeof r->notes[0], fmt, ap);
    va_end(ap);
}

/* Each framework's own remarks on the settings (in the registry's order, for
 * those that ran), then the one on temperature 0 that concerns them all. */
static void cmp_notes(sl_api_compare_result *r)
{
    const sl_logits_cfg *c = &r->cfg;
    size_t max = sizeof r->notes / sizeof r->notes[0] - 1;
    for (size_t i = 0; sl_logits_pipeline_types[i]; i++) {
        const sl_logits_pipeline_type *t = sl_logits_pipeline_types[i];
        int ran = 0;
        for (size_t j = 0; j < r->nfw; j++)
            ran |= r->fw[j].ok && r->fw[j].t == t;
        if (ran && t->compare_notes && r->nnotes < max)
            r->nnotes += t->compare_notes(c, r->notes + r->nnotes, max - r->nnotes);
    }
    if (c->has_temperature && c->temperature == 0)
        cmp_note(r, "temperature 0: transformers raises ValueError (use do_sample=False), llama.cpp keeps the first "
                    "maximum, vLLM is greedy, candle's LogitsProcessor::new uses ArgMax below 1e-7");
}

#define FAIL(...) sl_base_error_set(err, SL_EINVAL, "samplab compare: " __VA_ARGS__)

/* The options of the sampling groups (the settings each framework has or lacks). */
#define CMP_SETTINGS                                                                                           \
    (SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL | SL_OPT_PENALTY |       \
     SL_OPT_MIN_KEEP | SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE | SL_OPT_ORDER | SL_OPT_TJS_VERSION)

/* The frameworks: those of s->frameworks, or every one that has each setting given (the others skipped). */
static int cmp_choose(const sl_api_settings *s, sl_api_compare_result *r, sl_error *err)
{
    sl_api_settings q = *s; /* only the settings count: not the options of the framework group */
    q.dtype = q.torch = q.torch_build = q.llamacpp = q.rand = q.ollama = q.cpu = NULL;
    q.has_num_samples = q.replacement = q.no_replacement = q.simd_sum = 0;
    q.shuffle = NULL;
    if (s->frameworks) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", s->frameworks);
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            const sl_logits_pipeline_type *t = sl_logits_pipeline_lookup(tok);
            char e[1024];
            if (!t)
                return FAIL("unknown framework '%s' (samplab pipeline --help lists them)", sl_base_esc_str(tok, e, sizeof e));
            const int needs_line = (t->traits & SL_LOGITS_TRAIT_NEEDS_VARIANT) && !s->ollama;
            t = sl_api_pipeline_on_line(t, s);
            const char *miss = sl_api_refused(&q, 1, t->accepts | ~CMP_SETTINGS);
            char why[512];
            if (miss)
                return FAIL("%s", sl_api_not_taken(miss, sl_base_esc_str(t->name, e, sizeof e), why, sizeof why));
            if (needs_line)
                return FAIL(SL_FW_OLLAMA_NEEDS_LINE);
            int dup = 0;
            for (size_t j = 0; j < r->nfw; j++)
                dup |= r->fw[j].t == t;
            if (!dup && r->nfw < CMP_MAX)
                r->fw[r->nfw++].t = t;
        }
        if (r->nfw < 2)
            return FAIL("%s needs at least two different frameworks", SL_API_NAME(FRAMEWORKS));
        return SL_OK;
    }
    for (size_t i = 0; sl_logits_pipeline_types[i] && r->nfw < CMP_MAX; i++) {
        const sl_logits_pipeline_type *t = sl_logits_pipeline_types[i];
        unsigned bit = 0;
        if (((t->traits & SL_LOGITS_TRAIT_NEEDS_VARIANT) && !s->ollama) || (t->traits & SL_LOGITS_TRAIT_NAMED_ONLY))
            continue; /* only when asked for: --ollama 0.24, --frameworks NAME,... */
        t = sl_api_pipeline_on_line(t, s);
        const char *miss = sl_api_refused_bit(&q, 1, t->accepts | ~CMP_SETTINGS, &bit);
        if (miss) {
            /* the output names the setting as a whole: "--repetition-penalty/--context"; llama.cpp's stage
             * options, a dozen under one bit, by the one given */
            sl_api_compare_skip *k = &r->skip[r->nskip++];
            k->t = t;
            if (bit == SL_OPT_ORDER)
                snprintf(k->lacks, sizeof k->lacks, "%s", miss);
            else
                sl_api_bit_names(bit, k->lacks, sizeof k->lacks);
            continue;
        }
        r->fw[r->nfw++].t = t;
    }
    return SL_OK;
}

/* The user's source, context and kernel as the printed commands repeat them. */
static void cmp_words_of(const sl_api_src *src, const sl_api_settings *s, cmp_words *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->context, sizeof w->context, "IDS");
    if (s->context)
        cmp_shell_word(s->context, w->context, sizeof w->context);
    if (src->spec) {
        char word[2100];
        size_t k;
        cmp_shell_word(src->spec, word, sizeof word);
        k = (size_t)snprintf(w->src, sizeof w->src, " %s %s", SL_API_NAME(LOGITS), word);
        if (src->tensor && k < sizeof w->src) {
            cmp_shell_word(src->tensor, word, sizeof word);
            k += (size_t)snprintf(w->src + k, sizeof w->src - k, " %s %s", SL_API_NAME(TENSOR), word);
        }
        if (src->row >= 0 && k < sizeof w->src)
            snprintf(w->src + k, sizeof w->src - k, " %s %ld", SL_API_NAME(ROW), src->row);
    }
    if (s->cpu)
        cmp_shell_word(s->cpu, w->cpu, sizeof w->cpu);
}

static int cmp_add(sl_api_compare_tr *list, size_t *n, int found, const sl_api_compare_tr *t)
{
    if (found < 0)
        return -1;
    if (found)
        list[(*n)++] = *t;
    return 0;
}

int sl_api_compare_run(const sl_api_src *src, const sl_api_settings *s, sl_api_compare_result *r, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_compare_run", r);
    sl_api_or_defaults(&s, &src);
    memset(r, 0, sizeof *r);
    if (sl_api_settings_check(s, "sl_api_compare_run", err))
        return SL_EINVAL;
    if (s->ollama && strcmp(s->ollama, "0.24") && strcmp(s->ollama, "0.32") && strcmp(s->ollama, "0.30")) {
        char e0[1024];
        return FAIL("%s takes 0.24, 0.32, 0.30, not '%s'", SL_API_NAME(OLLAMA),
                    sl_base_esc_str(s->ollama, e0, sizeof e0));
    }
    r->ntop = s->has_top ? s->top : 5;
    if (r->ntop > 100)
        r->ntop = 100;
    int rc = cmp_choose(s, r, err);
    if (rc)
        return rc;
    cmp_words w;
    cmp_words_of(src, s, &w);
    if ((rc = sl_api_logits_input("compare", src, s, &r->vec, &r->cfg, err)))
        return rc;
    r->loaded = 1;
    size_t nok = 0;
    for (size_t i = 0; i < r->nfw; i++) {
        sl_api_compare_fw *f = &r->fw[i];
        sl_error e;
        f->cfg = cmp_cfg_for(f->t, &r->cfg);
        f->ok = !sl_logits_pipeline_run(f->t, &r->vec, &f->cfg, &f->r, &e);
        if (!f->ok) {
            snprintf(f->error, sizeof f->error, "%s", e.msg);
            continue;
        }
        nok++;
        double h = 0;
        for (size_t j = 0; j < f->r.V; j++)
            if (f->r.probs[j] > 0)
                h -= f->r.probs[j] * log(f->r.probs[j]);
        f->entropy = h;
        f->ntop = r->ntop < f->r.n_kept ? r->ntop : f->r.n_kept;
        cmp_top(&f->r, f->top, f->ntop);
    }
    if (!nok) /* nothing to compare: bad input, as the pipeline command reports it */
        return FAIL("every framework refused the input: %s", r->fw[0].error);
    cmp_args(&w, &r->cfg, r->args, sizeof r->args);
    sl_api_compare_tr t;
    for (size_t i = 0; i < r->nfw; i++)
        for (size_t j = i + 1; j < r->nfw; j++) {
            if (!r->fw[i].ok || !r->fw[j].ok)
                continue;
            sl_api_compare_pair *p = &r->pair[r->npairs++];
            p->a = i;
            p->b = j;
            p->tv = cmp_tv(&r->fw[i].r, &r->fw[j].r);
            p->agree = cmp_same_kept(&r->fw[i].r, &r->fw[j].r) && p->tv < CMP_AGREE_TV;
            for (int dir = 0; dir < 2 && !p->agree; dir++) {
                const cmp_fw *from = dir ? &r->fw[j] : &r->fw[i], *to = dir ? &r->fw[i] : &r->fw[j];
                if (cmp_add(p->tr, &p->ntr, cmp_translate(&w, &r->vec, &r->cfg, from, to->t, &t, err), &t))
                    goto oom;
            }
        }
    /* a framework skipped for an option it lacks may still reproduce the others with its own settings */
    for (size_t i = 0; i < r->nskip; i++)
        for (size_t j = 0; j < r->nfw; j++)
            if (r->fw[j].ok && cmp_add(r->skip[i].tr, &r->skip[i].ntr,
                                       cmp_translate(&w, &r->vec, &r->cfg, &r->fw[j], r->skip[i].t, &t, err), &t))
                goto oom;
    cmp_notes(r);
    return SL_OK;
oom:;
    char m[sizeof err->msg];
    snprintf(m, sizeof m, "%s", err->msg);
    return sl_base_error_set(err, SL_EINVAL, "samplab compare: %s", m);
}

void sl_api_compare_result_free(sl_api_compare_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nfw; i++)
        if (r->fw[i].ok)
            sl_logits_result_free(&r->fw[i].r);
    for (size_t i = 0; i < r->npairs; i++)
        for (size_t k = 0; k < r->pair[i].ntr; k++)
            free(r->pair[i].tr[k].command);
    for (size_t i = 0; i < r->nskip; i++)
        for (size_t k = 0; k < r->skip[i].ntr; k++)
            free(r->skip[i].tr[k].command);
    if (r->loaded) {
        sl_base_vec_free(&r->vec);
        free((long *)r->cfg.context);
        free((void *)r->cfg.dry_breaker);
    }
    memset(r, 0, sizeof *r);
}

static json_t *cmp_json_tr(const sl_api_compare_tr *t)
{
    json_t *x = json_object();
    json_object_set_new(x, "framework", json_string(t->target->name));
    json_object_set_new(x, "reproduces", json_string(t->source->name));
    json_object_set_new(x, "args", json_string(t->args[0] ? t->args + 1 : ""));
    json_object_set_new(x, "command", json_string(t->command));
    json_object_set_new(x, "tv", json_real(t->tv));
    json_object_set_new(x, "scope", json_string(t->scope));
    return x;
}

char *sl_api_compare_result_json(const sl_api_compare_result *r)
{
    if (!r)
        return NULL;
    json_t *root = json_object(), *jf = json_array(), *jp = json_array(), *js = json_array(), *jn = json_array();
    json_object_set_new(root, "logits", json_string(r->vec.source));
    json_object_set_new(root, "V", json_integer((json_int_t)r->vec.n));
    json_object_set_new(root, "settings", json_string(r->args[0] ? r->args + 1 : ""));
    for (size_t i = 0; i < r->nskip; i++) {
        json_t *o = json_object(), *tr = json_array();
        json_object_set_new(o, "framework", json_string(r->skip[i].t->name));
        json_object_set_new(o, "lacks", json_string(r->skip[i].lacks));
        for (size_t k = 0; k < r->skip[i].ntr; k++)
            json_array_append_new(tr, cmp_json_tr(&r->skip[i].tr[k]));
        json_object_set_new(o, "translations", tr);
        json_array_append_new(js, o);
    }
    for (size_t i = 0; i < r->nfw; i++) {
        const sl_api_compare_fw *f = &r->fw[i];
        json_t *o = json_object();
        json_object_set_new(o, "framework", json_string(f->t->name));
        json_object_set_new(o, "ok", json_boolean(f->ok));
        sl_api_settings_echo(o, f->t, &f->cfg); /* what it ran with, its defaults named */
        if (!f->ok) {
            json_object_set_new(o, "error", json_string(f->error));
        } else {
            json_object_set_new(o, "kept", json_integer((json_int_t)f->r.n_kept));
            json_object_set_new(o, "entropy", json_real(f->entropy));
            json_t *tt = json_array();
            for (size_t j = 0; j < f->ntop; j++) {
                json_t *pair = json_array();
                json_array_append_new(pair, json_integer((json_int_t)f->top[j]));
                json_array_append_new(pair, json_real(f->r.probs[f->top[j]]));
                json_array_append_new(tt, pair);
            }
            json_object_set_new(o, "top", tt);
        }
        json_array_append_new(jf, o);
    }
    for (size_t i = 0; i < r->npairs; i++) {
        const sl_api_compare_pair *p = &r->pair[i];
        const sl_logits_result *a = &r->fw[p->a].r, *b = &r->fw[p->b].r;
        json_t *o = json_object(), *oa = json_array(), *ob = json_array(), *tr = json_array();
        json_object_set_new(o, "a", json_string(r->fw[p->a].t->name));
        json_object_set_new(o, "b", json_string(r->fw[p->b].t->name));
        json_object_set_new(o, "tv", json_real(p->tv));
        for (size_t q = 0; q < r->vec.n; q++) {
            if (a->kept[q] && !b->kept[q])
                json_array_append_new(oa, json_integer((json_int_t)q));
            if (b->kept[q] && !a->kept[q])
                json_array_append_new(ob, json_integer((json_int_t)q));
        }
        json_object_set_new(o, "only_a", oa);
        json_object_set_new(o, "only_b", ob);
        for (size_t k = 0; k < p->ntr; k++)
            json_array_append_new(tr, cmp_json_tr(&p->tr[k]));
        json_object_set_new(o, "translations", tr);
        json_array_append_new(jp, o);
    }
    for (size_t i = 0; i < r->nnotes; i++)
        json_array_append_new(jn, json_string(r->notes[i]));
    json_object_set_new(root, "skipped", js);
    json_object_set_new(root, "frameworks", jf);
    json_object_set_new(root, "pairs", jp);
    json_object_set_new(root, "notes", jn);
    char *s = sl_api_json_dumps(root, JSON_REAL_PRECISION(9) | JSON_COMPACT);
    json_decref(root);
    return s;
}

int sl_api_compare(const sl_api_src *logits, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_compare", json);
    *json = NULL;
    sl_api_compare_result *r = malloc(sizeof *r);
    if (!r)
        return sl_base_error_set(err, SL_ENOMEM, "samplab compare: out of memory");
    int rc = sl_api_compare_run(logits, s, r, err);
    if (!rc && !(*json = sl_api_compare_result_json(r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab compare: out of memory for JSON");
    sl_api_compare_result_free(r);
    free(r);
    return rc;
}
