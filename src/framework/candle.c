/* candle.c — `samplab draw --framework candle`: what candle draws, and
 * `--framework rand`: Rust rand's WeightedIndex<f64> or <f32> alone (below).
 * --probs W: rand 0.8.5 `StdRng::seed_from_u64(S)`, `WeightedIndex::new(&w)`
 *   with w: Vec<f32> the input, then N times `d.sample(&mut rng)`.
 * --logits L: candle 0.11 `LogitsProcessor::from_sampling(S, sampling)` then
 *   one `sample(&logits)` a step (N on the same logits), with the Sampling that
 *   LogitsProcessor::new builds from --temperature/--top-p, extended by
 *   --top-k (ArgMax when T is absent or < 1e-7; TopKThenTopP, TopK, TopP,
 *   All). --repetition-penalty R applies candle-transformers'
 *   apply_repeat_penalty to the history first (the context, then each accepted
 *   token), over its last --penalty-last-n ids when given (the examples'
 *   repeat_last_n: tokens[len - n..]), as candle's examples do.
 * Each successful sample takes one 32-bit word; ArgMax and errors take none.
 * The weights path is logits/candle.c, the draw type draw/rand_wi.c, the
 * generator rng/rand_stdrng.c. candle >= 0.8.4 links rand 0.9, whose draws
 * are the same for normal totals (README.candle.md).
 * Known divergences: GumbelSoftmax (OS-seeded in candle) is not offered;
 * CUDA/Metal softmax and argmax are not emulated. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

/* rand 0.9's name for the same failure: candle >= 0.8.4 links rand 0.9. */
static const char *rand09_name(sl_draw_rand_status st)
{
    switch (st) {
    case SL_RAND_NO_ITEM: return "InvalidInput";
    case SL_RAND_INVALID_WEIGHT: return "InvalidWeight";
    case SL_RAND_ALL_WEIGHTS_ZERO: return "InsufficientNonZero";
    default: return "a panic";
    }
}

/* Explains a WeightedIndex::new failure in one line naming the source, in the
 * words of the --rand line (version); for --logits also rand 0.9's name, the
 * one candle 0.11 itself reports. */
static int wi_error(sl_error *err, const char *src, sl_draw_rand_status st, size_t bad, const float *w, size_t m,
                    const size_t *order, int from_logits, int topk0, int version)
{
    /* --logits: rand 0.8's name, then 0.9's; --probs: the name of the --rand line */
    const char *what8 = sl_draw_rand_status_name(st), *what = sl_draw_rand_status_name_v(st, version);
    size_t tok = order && bad < m ? order[bad] : bad;
    switch (st) {
    case SL_RAND_NO_ITEM:
        if (topk0)
            return sl_base_error_set(err, SL_EINVAL,
                                "%s: top-k 0 keeps no token: WeightedIndex::new returns NoItem (rand 0.9 as in candle "
                                "0.11: %s; 0 words drawn)",
                                src, rand09_name(st));
        return sl_base_error_set(err, SL_EINVAL, "%s: no weights: WeightedIndex::new returns %s (0 words drawn)", src,
                                 what);
    case SL_RAND_INVALID_WEIGHT:
        if (from_logits)
            return sl_base_error_set(err, SL_EINVAL,
                                "%s: token %zu gets weight %.9g from candle's softmax (a NaN or +inf logit, or all "
                                "-inf): WeightedIndex::new returns %s (rand 0.9 as in candle 0.11: %s; 0 words drawn)",
                                src, tok, (double)w[bad], what8, rand09_name(st));
        return sl_base_error_set(err, SL_EINVAL,
                            "%s: entry %zu is %.9g (not >= 0): WeightedIndex::new returns %s (0 words drawn)", src,
                            tok, (double)w[bad], what);
    case SL_RAND_ALL_WEIGHTS_ZERO:
        if (from_logits)
            return sl_base_error_set(err, SL_EINVAL,
                                "%s: every weight is zero after candle's filters: WeightedIndex::new returns %s (rand "
                                "0.9 as in candle 0.11: %s; 0 words drawn)",
                                src, what8, rand09_name(st));
        return sl_base_error_set(err, SL_EINVAL, "%s: every weight is zero: WeightedIndex::new returns %s (0 words drawn)",
                            src, what);
    case SL_RAND_PANIC_RANGE: {
        size_t at = 0;
        float s = 0.0f;
        for (size_t i = 0; i < m; i++) {
            s += w[i];
            if (isinf(s)) {
                at = i;
                break;
            }
        }
        if (version >= 10) /* rand 0.10.3 measured: Err(Overflow), not a panic */
            return sl_base_error_set(err, SL_EINVAL,
                                     "%s: the f32 sum of the weights is +inf from entry %zu on (%s): WeightedIndex::new "
                                     "returns Overflow (rand 0.10; 0 words drawn)",
                                     src, order && at < m ? order[at] : at,
                                     isinf(w[at]) ? "an infinite weight" : "overflow");
        return sl_base_error_set(err, SL_EINVAL,
                            "%s: the f32 sum of the weights is +inf from entry %zu on (%s): rand panics in "
                            "Uniform::new \"range overflow\" (0 words drawn)",
                            src, order && at < m ? order[at] : at, isinf(w[at]) ? "an infinite weight" : "overflow");
    }
    default:
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for WeightedIndex over %zu weights", src, m);
    }
}

static const sl_fw_variant candle_variants[] = {
    {"0.9", "candle 0.11 with rand 0.9 (read from source; 0.10.3 measured the same)", 9},
    {"0.10", "candle 0.11 with rand 0.10.3", 10},
    {"0.8", "candle 0.11 with rand 0.8 (0.8.5, 0.8.8)", 8},
    {NULL, NULL, 0},
};

/* --framework rand: the weights as given, WeightedIndex<f32> or <f64>. */
static const sl_fw_variant rand_variants[] = {
    {"0.9", "rand 0.9 (read from source; 0.10.3 measured the same but for errors)", 9},
    {"0.10", "rand 0.10.3", 10},
    {"0.8", "rand 0.8 (0.8.5, 0.8.8)", 8},
    {NULL, NULL, 0},
};

typedef struct candle_state {
    sl_draw_type wi;          /* rand's WeightedIndex<f32> (or <f64>: --framework rand) of the release line */
    sl_draw_rand_param rand;
    sl_logits_candle_cfg cfg;
    float *lg, *w;            /* the step's logits (penalised), the weights WeightedIndex gets */
    size_t *order;            /* the token id of each weight */
    size_t V, m;
    int argmax;
    void *table;              /* the prepared WeightedIndex */
} candle_state;

static int candle_open(sl_fw_session *s, sl_error *err)
{
    const sl_fw_opts *o = &s->o;
    if (o->has_seed && o->seed.hi)
        return sl_base_error_set(err, SL_EINVAL, "%s's seed is a u64 (StdRng::seed_from_u64): give one below 2^64",
                                 s->type->name);
    if (!s->logits_input && (o->cfg.has_temperature || o->cfg.has_top_k || o->cfg.has_top_p || o->simd_sum ||
                             o->cfg.has_penalty))
        return sl_base_error_set(err, SL_EINVAL,
                                 "--temperature, --top-k, --top-p, --simd-sum and --repetition-penalty apply to --logits; "
                                 "--probs are drawn with WeightedIndex as given");
    if (o->cfg.context_n && !o->cfg.has_penalty)
        return sl_base_error_set(err, SL_EINVAL, "--context needs --repetition-penalty");
    candle_state *st = calloc(1, sizeof *st);
    if (!(s->state = st))
        return sl_base_error_set(err, SL_ENOMEM, "candle: out of memory");
    st->rand.version = s->variant->code;
    st->wi = sl_draw_rand_wi_type;
    st->wi.param = &st->rand;
    s->o.seed.has_stream = 0;
    if (s->type == &sl_fw_rand_type)
        s->k = o->k ? o->k : 1; /* K calls of d.sample(&mut rng) */
    if (s->logits_input)
        return sl_logits_candle_cfg_make(o->cfg.has_temperature, o->cfg.temperature, o->cfg.has_top_k, o->cfg.top_k,
                                         o->cfg.has_top_p, o->cfg.top_p, o->simd_sum, &st->cfg, err);
    return SL_OK;
}

static void candle_clear(candle_state *st)
{
    if (st->table)
        st->wi.free(st->table);
    st->table = NULL;
}

static void candle_close(sl_fw_session *s)
{
    candle_state *st = s->state;
    if (st) {
        candle_clear(st);
        free(st->lg);
        free(st->w);
        free(st->order);
    }
    free(st);
    s->state = NULL;
}

/* The repeat penalty's window of the history: all of it, or its last
 * --penalty-last-n ids (candle's examples: tokens[len.saturating_sub(n)..]). */
static void candle_window(const sl_fw_session *s, const long **ctx, size_t *n)
{
    size_t start = 0;
    if (s->o.cfg.has_last_n && s->o.cfg.last_n >= 0 && (size_t)s->o.cfg.last_n < s->hist_n)
        start = s->hist_n - (size_t)s->o.cfg.last_n;
    *ctx = s->hist + start;
    *n = s->hist_n - start;
}

/* The weights of the step's vector, and WeightedIndex::new over them. */
static int candle_prepare(sl_fw_session *s, const sl_vec *v, sl_error *err)
{
    candle_state *st = s->state;
    const char *src = v->source;
    size_t V = v->n;
    candle_clear(st);
    if (st->V < V || !st->lg) {
        free(st->lg);
        free(st->w);
        free(st->order);
        st->lg = malloc((V ? V : 1) * sizeof *st->lg);
        st->w = malloc((V ? V : 1) * sizeof *st->w);
        st->order = malloc((V ? V : 1) * sizeof *st->order);
        st->V = V;
        if (!st->lg || !st->w || !st->order)
            return sl_base_error_set(err, SL_ENOMEM, "candle: out of memory for %zu logits", V);
    }
    st->argmax = 0;
    const float *w = v->f;
    size_t m = V;
    int rc;
    if (s->logits_input) {
        if (V == 0)
            return sl_base_error_set(err, SL_EINVAL, "%s: no logits", src);
        memcpy(st->lg, v->f, V * sizeof *st->lg);
        if (s->o.cfg.has_penalty) {
            const long *ctx;
            size_t n;
            candle_window(s, &ctx, &n);
            if ((rc = sl_logits_candle_repeat_penalty(st->lg, V, (float)s->o.cfg.penalty, ctx, n, NULL, err)))
                return rc;
        }
        if ((rc = sl_logits_candle_process(st->lg, V, &st->cfg, st->w, st->order, &m, err)))
            return rc;
        if (st->cfg.sampling == SL_CANDLE_ARGMAX) {
            st->argmax = 1;
            st->m = m;
            return SL_OK;
        }
        w = st->w;
    }
    st->m = m;
    /* rand: a Vec<f64> unless float32 is asked for or the .npy holds float32 (d is then its widening) */
    st->rand.f64 = s->type == &sl_fw_rand_type && (s->o.dtype_set ? s->o.dtype == SL_F64 : v->dtype == SL_F64);
    sl_draw_dist dist = {m, st->rand.f64 ? v->d : NULL, w, st->rand.f64 ? SL_F64 : SL_F32, src, 0};
    if ((rc = sl_draw_prepare_dist(&st->wi, &st->table, &dist, err)) && !st->rand.f64) {
        /* rand's failure with candle's context: ask WeightedIndex::new again
         * for the status and the entry (it fails the same way, keeping nothing) */
        st->table = NULL;
        sl_draw_rand_wi wi;
        size_t bad;
        sl_draw_rand_status rs = sl_draw_rand_wi_new(&wi, w, m, st->rand.version, &bad);
        if (rs)
            rc = wi_error(err, src, rs, bad, w, m, s->logits_input ? st->order : NULL, s->logits_input,
                          s->logits_input && st->cfg.k == 0 &&
                              (st->cfg.sampling == SL_CANDLE_TOPK || st->cfg.sampling == SL_CANDLE_TOPK_TOPP),
                          st->rand.version);
        else
            sl_draw_rand_wi_free(&wi);
    }
    return rc;
}

static int candle_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    candle_state *st = s->state;
    int stale = v != s->prepared_vec || (!st->argmax && !st->table) ||
                (s->o.cfg.has_penalty && s->hist_n != s->prepared_hist);
    if (stale) {
        int rc = candle_prepare(s, v, err);
        if (rc)
            return rc;
    }
    *kept = st->argmax ? 1 : st->m;
    if (st->argmax) { /* Sampling::ArgMax: no draw, no word */
        s->tokens[0] = (long)st->order[0];
        return SL_OK;
    }
    if (!s->logits_input) /* the weights as given: s->k samples (1 for candle) */
        return sl_draw_k(&st->wi, st->table, &s->rng, s->k, s->tokens, err);
    s->tokens[0] = (long)st->order[st->wi.draw(st->table, &s->rng)];
    return SL_OK;
}

/* The distribution the next sample draws from: candle's weights over their f32 total. */
static int candle_probs(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err)
{
    if (!s->logits_input)
        return sl_fw_probs_of_weights(s, v, out, err);
    candle_state *st = s->state;
    int rc = sl_logits_result_alloc(out, v->n, err);
    if (rc)
        return rc;
    float *lg = malloc((v->n ? v->n : 1) * sizeof *lg);
    if (!lg)
        return sl_base_error_set(err, SL_ENOMEM, "candle: out of memory for %zu logits", v->n);
    memcpy(lg, v->f, v->n * sizeof *lg);
    if (s->o.cfg.has_penalty) {
        const long *ctx;
        size_t n;
        candle_window(s, &ctx, &n);
        rc = sl_logits_candle_repeat_penalty(lg, v->n, (float)s->o.cfg.penalty, ctx, n, NULL, err);
    }
    if (!rc)
        rc = sl_logits_candle_probs(lg, v->n, &st->cfg, out->probs, err);
    free(lg);
    for (size_t i = 0; !rc && i < v->n; i++) {
        out->kept[i] = out->probs[i] > 0;
        out->n_kept += out->kept[i];
    }
    out->precision = 32;
    return rc;
}

/* The audit of the release line chosen: 0.8 shrinks the scale for subnormal
 * totals, 0.9 and 0.10 keep it (an unknown line: the default's; open refuses it). */
static const sl_stat_exact_type *candle_exact_for(const sl_fw_opts *o)
{
    const sl_fw_variant *v;
    sl_error e;
    if (sl_fw_variant_find(&sl_fw_candle_type, o->variant, o->variant_opt, &v, &e) || !v)
        v = &candle_variants[0];
    return v->code >= 9 ? &sl_draw_rand_wi9_exact : &sl_draw_rand_wi_exact;
}

static const char *candle_note(const sl_fw_opts *o)
{
    if (o->logits && !o->cfg.has_temperature && (o->cfg.has_top_k || o->cfg.has_top_p))
        return "candle without --temperature is ArgMax (LogitsProcessor::new(seed, None, ..)): --top-k and --top-p "
               "act only with a temperature";
    return NULL;
}

const sl_fw_type sl_fw_candle_type = {
    .name = "candle",
    .summary = "candle 0.11 LogitsProcessor / rand WeightedIndex<f32> over StdRng (ChaCha12), 1 word per draw "
               "(--rand 0.9 default, 0.10, 0.8)",
    .variant_bit = SL_OPT_RAND_VERSION,
    .variants = candle_variants,
    .replacement_why = "candle's LogitsProcessor::sample draws one token a step (rand's WeightedIndex::sample): candle has no replacement setting",
    .accepts = SL_OPT_PROBS | SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_SIMD_SUM |
               SL_OPT_PENALTY | SL_OPT_RAND_VERSION | SL_OPT_LAST_N,
    .input_why = "WeightedIndex takes weights",
    .draw = &sl_draw_rand_wi_type,
    .rng = "rand-stdrng",
    .rng_label = "rand-stdrng-chacha12",
    .default_seed = 42,
    .open = candle_open,
    .step = candle_step,
    .probs = candle_probs,
    .close = candle_close,
    .note = candle_note,
    .exact = &sl_draw_rand_wi9_exact,
    .exact_for = candle_exact_for,
};

/* Rust rand alone: StdRng::seed_from_u64(S), WeightedIndex::new(&w) over the
 * weights as given (a Vec<f64>, or a Vec<f32> with --dtype float32 or a float32
 * .npy: candle's draw without its LogitsProcessor), then K times d.sample(&mut
 * rng) a call. The same hooks as candle's --probs path. */
const sl_fw_type sl_fw_rand_type = {
    .name = "rand",
    .summary = "Rust rand WeightedIndex<f64> (or <f32>) over StdRng::seed_from_u64 (ChaCha12): K samples a call, "
               "f64 2 words a sample, f32 1 (--rand 0.9 default, 0.10, 0.8)",
    .variant_bit = SL_OPT_RAND_VERSION,
    .variants = rand_variants,
    .replacement_default = 1, /* each sample is drawn on its own */
    .replacement_why = "rand's WeightedIndex draws each sample on its own (with replacement); rand's "
                       "index::sample_weighted (without replacement) is not modelled by samplab",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_DTYPE | SL_OPT_RAND_VERSION,
    .input_why = "WeightedIndex takes weights",
    .draw = &sl_draw_rand_wi_type,
    .rng = "rand-stdrng",
    .rng_label = "rand-stdrng-chacha12",
    .default_seed = 42,
    .open = candle_open,
    .step = candle_step,
    .probs = candle_probs,
    .close = candle_close,
};
