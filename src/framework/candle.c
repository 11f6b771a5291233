/* candle.c — `samplab draw --framework candle`: what candle draws.
 * --probs W: rand 0.8.5 `StdRng::seed_from_u64(S)`, `WeightedIndex::new(&w)`
 *   with w: Vec<f32> the input, then N times `d.sample(&mut rng)`.
 * --logits L: candle 0.11 `LogitsProcessor::from_sampling(S, sampling)` then
 *   N times `sample(&logits)` on the same logits, with the Sampling that
 *   LogitsProcessor::new builds from --temperature/--top-p, extended by
 *   --top-k (ArgMax when T is absent or < 1e-7; TopKThenTopP, TopK, TopP,
 *   All). --repetition-penalty R --context IDS applies candle-transformers'
 *   apply_repeat_penalty first, as candle's examples do.
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

/* Explains a WeightedIndex::new failure in one line naming the source; for
 * --logits also rand 0.9's name, the one candle 0.11 itself reports. */
static int wi_error(sl_error *err, const char *src, sl_draw_rand_status st, size_t bad, const float *w, size_t m,
                    const size_t *order, int from_logits, int topk0)
{
    const char *what = sl_draw_rand_status_name(st);
    size_t tok = order && bad < m ? order[bad] : bad;
    switch (st) {
    case SL_RAND_NO_ITEM:
        if (topk0)
            return sl_base_error_set(err, SL_EINVAL,
                                "%s: top-k 0 keeps no token: WeightedIndex::new returns NoItem (rand 0.9 as in candle "
                                "0.11: %s; 0 words drawn)",
                                src, rand09_name(st));
        return sl_base_error_set(err, SL_EINVAL, "%s: no weights: WeightedIndex::new returns NoItem (0 words drawn)", src);
    case SL_RAND_INVALID_WEIGHT:
        if (from_logits)
            return sl_base_error_set(err, SL_EINVAL,
                                "%s: token %zu gets weight %.9g from candle's softmax (a NaN or +inf logit, or all "
                                "-inf): WeightedIndex::new returns %s (rand 0.9 as in candle 0.11: %s; 0 words drawn)",
                                src, tok, (double)w[bad], what, rand09_name(st));
        return sl_base_error_set(err, SL_EINVAL,
                            "%s: entry %zu is %.9g (not >= 0): WeightedIndex::new returns %s (0 words drawn)", src,
                            tok, (double)w[bad], what);
    case SL_RAND_ALL_WEIGHTS_ZERO:
        if (from_logits)
            return sl_base_error_set(err, SL_EINVAL,
                                "%s: every weight is zero after candle's filters: WeightedIndex::new returns %s (rand "
                                "0.9 as in candle 0.11: %s; 0 words drawn)",
                                src, what, rand09_name(st));
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
        return sl_base_error_set(err, SL_EINVAL,
                            "%s: the f32 sum of the weights is +inf from entry %zu on (%s): rand panics in "
                            "Uniform::new \"range overflow\" (0 words drawn)",
                            src, order && at < m ? order[at] : at, isinf(w[at]) ? "an infinite weight" : "overflow");
    }
    default:
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for WeightedIndex over %zu weights", src, m);
    }
}

static int candle_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    const sl_vec *v = o->probs ? o->probs : o->logits;
    const char *src = v->source;
    if (o->seed.hi)
        return sl_base_error_set(err, SL_EINVAL, "candle's seed is a u64 (StdRng::seed_from_u64): give one below 2^64");
    if (o->probs && (o->cfg.has_temperature || o->cfg.has_top_k || o->cfg.has_top_p || o->simd_sum || o->cfg.has_penalty))
        return sl_base_error_set(err, SL_EINVAL,
                            "--temperature, --top-k, --top-p, --simd-sum and --repetition-penalty apply to --logits; "
                            "--probs are drawn with WeightedIndex as given");
    if (o->cfg.context_n && !o->cfg.has_penalty)
        return sl_base_error_set(err, SL_EINVAL, "--context needs --repetition-penalty");

    memset(out, 0, sizeof *out);
    out->n = o->n;
    out->k = 1;
    out->rng_name = "rand-stdrng-chacha12";
    out->word_bits = 32;
    out->tokens = malloc((o->n ? o->n : 1) * sizeof *out->tokens);
    size_t V = v->n, m = 0;
    float *buf = NULL, *lg = NULL;
    size_t *order = NULL;
    int rc = SL_OK;
    const float *w;
    sl_logits_candle_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    if (!out->tokens) {
        rc = sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu tokens", o->n);
        goto done;
    }
    if (o->probs) {
        w = v->f;
        m = V;
    } else {
        rc = sl_logits_candle_cfg_make(o->cfg.has_temperature, o->cfg.temperature, o->cfg.has_top_k, o->cfg.top_k, o->cfg.has_top_p,
                                       o->cfg.top_p, o->simd_sum, &cfg, err);
        if (rc)
            goto done;
        if (V == 0) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: no logits", src);
            goto done;
        }
        buf = malloc(V * sizeof *buf);
        lg = malloc(V * sizeof *lg);
        order = malloc(V * sizeof *order);
        if (!buf || !lg || !order) {
            rc = sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu logits", V);
            goto done;
        }
        memcpy(lg, v->f, V * sizeof *lg);
        if (o->cfg.has_penalty &&
            (rc = sl_logits_candle_repeat_penalty(lg, V, (float)o->cfg.penalty, o->cfg.context, o->cfg.context_n,
                                                  NULL, err)))
            goto done;
        /* The logits are the same at every step, so the distribution is too:
         * compute it once; only the generator moves between draws. */
        rc = sl_logits_candle_process(lg, V, &cfg, buf, order, &m, err);
        if (rc)
            goto done;
        if (cfg.sampling == SL_CANDLE_ARGMAX) {
            for (size_t i = 0; i < o->n; i++)
                out->tokens[i] = (long)order[0];
            goto done;
        }
        w = buf;
    }

    const sl_draw_type *dt = &sl_draw_rand_wi_type;
    sl_draw_dist dist = {m, NULL, w, SL_F32, src};
    void *table = NULL;
    if ((rc = sl_draw_prepare_dist(dt, &table, &dist, err))) {
        /* rand's failure with candle's context: ask WeightedIndex::new again
         * for the status and the entry (it fails the same way, keeping nothing) */
        sl_draw_rand_wi wi;
        size_t bad;
        sl_draw_rand_status st = sl_draw_rand_wi_new(&wi, w, m, &bad);
        if (st)
            rc = wi_error(err, src, st, bad, w, m, o->logits ? order : NULL, o->logits != NULL,
                          o->logits && cfg.k == 0 &&
                              (cfg.sampling == SL_CANDLE_TOPK || cfg.sampling == SL_CANDLE_TOPK_TOPP));
        else
            sl_draw_rand_wi_free(&wi);
        goto done;
    }
    sl_rng rng;
    sl_seed seed = o->seed;
    seed.has_stream = 0;
    rc = sl_rng_init(&rng, &sl_rng_rand_stdrng_type, &seed, err);
    if (rc) {
        dt->free(table);
        goto done;
    }
    /* draw all n (in blocks over the keystream), then map through the top-k order */
    if (!(rc = sl_draw_k(dt, table, &rng, o->n, out->tokens, err)) && o->logits)
        for (size_t i = 0; i < o->n; i++)
            out->tokens[i] = (long)order[out->tokens[i]];
    out->words = rng.words;
    sl_rng_release(&rng);
    dt->free(table);
done:
    free(buf);
    free(lg);
    free(order);
    if (rc) {
        free(out->tokens);
        out->tokens = NULL;
    }
    return rc;
}

const sl_fw_type sl_fw_candle_type = {
    .name = "candle",
    .summary = "candle 0.11 LogitsProcessor / rand 0.8.5 WeightedIndex<f32> over StdRng (ChaCha12), 1 word per draw",
    .accepts = SL_OPT_PROBS | SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_SIMD_SUM |
               SL_OPT_PENALTY,
    .draw = &sl_draw_rand_wi_type,
    .exact = &sl_draw_rand_wi_exact,
    .run = candle_run,
};
