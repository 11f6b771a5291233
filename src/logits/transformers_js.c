/* transformers_js.c — transformers.js 4.3's generation step over one row of
 * logits, up to the draw, in its own arithmetic (float32 Float32Arrays, double
 * JavaScript numbers between them).
 *
 * Reproduces @huggingface/transformers 4.3.1 (src/):
 *   models/modeling_utils.js _get_logits_processor: which processors run, in
 *     this order: RepetitionPenaltyLogitsProcessor (repetition_penalty !== 1),
 *     NoRepeatNGramLogitsProcessor (no_repeat_ngram_size > 0), then, sampling,
 *     TemperatureLogitsWarper (temperature !== 1); temperature === 0 turns
 *     do_sample off (greedy); TopK and TopP warpers are commented out and no
 *     typical warper exists, so top_p and typical_p are taken and IGNORED (the
 *     note and --json's "ignored" say so);
 *   generation/logits_process.js: the penalty once per distinct id of the
 *     history, x < 0 ? x * r : x / r, stored to float32; the n-gram ban (-inf for
 *     each token that followed an earlier occurrence of the last n - 1 tokens);
 *     the temperature x / T in double, stored to float32 (a negative T divides
 *     too: the warper builds its error message and throws nothing);
 *   generation/logits_sampler.js MultinomialSampler.sample: k = min(top_k, V)
 *     when top_k > 0, else V; utils/tensor.js topk -> onnxruntime-node 1.30's CPU
 *     TopK (sorted, largest): values descending, equal values by lower index
 *     first (GreaterValueCmp, top_k.cc; measured: data/golden/js/); then
 *     utils/maths.js softmax over those k Float32 values: Math.exp(x - max) in
 *     double (fdlibm's exp, sl_base_exp, as V8 computes it) stored to float32, a
 *     double sum, and float32(e / sum);
 *   GreedySampler: utils/maths.js max, the first strictly greater score.
 * The draw walks the candidates in TopK order (out->cand, its p the float32
 * probability): draw/tjs_weighted.c.
 * An infinite score makes every probability NaN (inf - inf), and the draw then
 * falls through to the last of the k (the result says so: that id alone, p = 1).
 * Refused, not modelled: a NaN score reaching TopK (ORT's comparator is then no
 * order). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

/* TopK's order: value descending, then index ascending (no NaN here); what sorts a run of ties */
static int index_less(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const sl_base_f32i *)a)->i < ((const sl_base_f32i *)b)->i;
}

/* ORT's top k of s[0..V) in its order into pair[0..k): the k-th largest value t
 * (sl_logits_kth_largest_f32; idx: V entries of scratch), every value above t and the lowest
 * ids of those equal to t (eq: k entries of scratch), then a sort by value, each run of equal
 * values by id; for k = V the radix sort (tmp: V pairs of scratch). ORT's comparator is a
 * strict total order without NaN, so whichever path its kernel takes (k = 1, the heap,
 * nth_element + sort) gives this. */
static int tjs_topk(const float *s, size_t V, size_t k, size_t *idx, uint32_t *eq, sl_base_f32i *pair,
                    sl_base_f32i *tmp, sl_error *err)
{
    size_t m = 0;
    if (k < V) {
        float t;
        int rc = sl_logits_kth_largest_f32(s, V, k, idx, &t, err);
        if (rc)
            return rc;
        size_t ne = 0;
        for (size_t i = 0; i < V; i++) {
            if (s[i] > t)
                pair[m].v = s[i], pair[m++].i = (uint32_t)i;
            else if (s[i] == t && ne < k)
                eq[ne++] = (uint32_t)i;
        }
        for (size_t j = 0; m < k && j < ne; j++) /* k - (above t) of the ties, lowest ids first */
            pair[m].v = s[eq[j]], pair[m++].i = eq[j];
        sl_base_std_sort_f32i(pair, m, SL_BASE_DESC);
    } else { /* every entry: the radix sort's ascending order, reversed */
        sl_logits_sort_any_f32(s, V, tmp, pair);
        for (m = 0; m < V; m++)
            pair[m] = tmp[V - 1 - m];
    }
    /* each run of equal values (-0 and +0 among them) by id: reversed, a run of a stable
     * ascending sort is already so; any other order is sorted */
    for (size_t a = 0, b; a < m; a = b) {
        for (b = a + 1; b < m && pair[b].v == pair[a].v;)
            b++;
        if (b - a < 2)
            continue;
        if (k >= V)
            for (size_t x = a, y = b - 1; x < y; x++, y--) {
                sl_base_f32i t = pair[x];
                pair[x] = pair[y];
                pair[y] = t;
            }
        size_t j = a + 1;
        while (j < b && pair[j - 1].i < pair[j].i)
            j++;
        if (j < b)
            sl_base_std_sort(pair + a, b - a, sizeof *pair, index_less, NULL);
    }
    return SL_OK;
}

/* the tokens NoRepeatNGramLogitsProcessor bans after hist[0..n): each one that followed an
 * earlier occurrence of the last ng - 1 tokens (calcBannedNgramTokens) */
static void ngram_ban(float *s, size_t V, const long *hist, size_t n, size_t ng)
{
    if (n + 1 < ng)
        return;
    size_t pre = ng - 1;
    for (size_t j = 0; j + ng <= n; j++) {
        if (pre && memcmp(hist + j, hist + n - pre, pre * sizeof *hist))
            continue;
        long t = hist[j + pre];
        if (t >= 0 && (size_t)t < V)
            s[t] = -INFINITY;
    }
}

static int tjs_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *cfg, sl_logits_result *out,
                   sl_error *err)
{
    (void)ld;
    /* the scratch of a session's steps (cfg->work), or this run's own */
    sl_logits_work *w = cfg->work, *own = w ? NULL : (w = sl_logits_work_new());
    float *s = w ? sl_logits_work_buf(w, 0, V * sizeof *s) : NULL;
    uint32_t *eq = w ? sl_logits_work_buf(w, 1, V * sizeof *eq) : NULL;
    sl_base_f32i *pair = w ? sl_logits_work_buf(w, 2, V * sizeof *pair) : NULL;
    size_t *idx = w ? sl_logits_work_buf(w, 3, V * sizeof *idx) : NULL;
    sl_base_f32i *tmp = w ? sl_logits_work_buf(w, 4, V * sizeof *tmp) : NULL;
    int rc = s && eq && pair && idx && tmp ? sl_logits_result_alloc(out, V, err)
                              : sl_base_error_set(err, SL_ENOMEM, "transformers-js: out of memory for %zu logits", V);
    if (rc)
        goto done;
    out->precision = 32;
    memcpy(s, lf, V * sizeof *s);
    if (cfg->penalty != 1.0) {
        /* new Set(input_ids): each distinct id once; out->kept marks those done */
        for (size_t i = 0; i < cfg->context_n; i++) {
            size_t t = (size_t)cfg->context[i];
            if (out->kept[t])
                continue;
            out->kept[t] = 1;
            s[t] = s[t] < 0 ? (float)((double)s[t] * cfg->penalty) : (float)((double)s[t] / cfg->penalty);
        }
        memset(out->kept, 0, V);
        sl_logits_step(out, "repetition_penalty");
    }
    if (cfg->ngram > 0) {
        ngram_ban(s, V, cfg->context, cfg->context_n, (size_t)cfg->ngram);
        sl_logits_step(out, "no_repeat_ngram");
    }
    if (cfg->temperature == 0) { /* do_sample false: GreedySampler's max over the processed scores */
        size_t best = 0;
        for (size_t i = 1; i < V; i++)
            if (s[i] > s[best])
                best = i;
        out->greedy = 1;
        out->greedy_id = best;
        out->probs[best] = 1;
        out->kept[best] = 1;
        out->n_kept = 1;
        out->nan_free = 1;
        sl_logits_step(out, "greedy");
        goto done;
    }
    if (cfg->temperature != 1.0) {
        for (size_t i = 0; i < V; i++)
            s[i] = (float)((double)s[i] / cfg->temperature);
        sl_logits_step(out, "temperature");
    }
    size_t k = cfg->top_k > 0 && (size_t)cfg->top_k < V ? (size_t)cfg->top_k : V;
    for (size_t i = 0; i < V; i++) {
        if (isnan(s[i])) {
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "transformers-js: the score of id %zu is NaN before TopK (onnxruntime's order is "
                                   "then undefined): not modelled by samplab", i);
            goto done;
        }
    }
    if ((rc = tjs_topk(s, V, k, idx, eq, pair, tmp, err)))
        goto done;
    sl_logits_step(out, "top_k");
    if (!(out->cand = malloc(k * sizeof *out->cand))) {
        rc = sl_base_error_set(err, SL_ENOMEM, "transformers-js: out of memory for %zu candidates", k);
        goto done;
    }
    double mx = pair[0].v, sum = 0;
    for (size_t j = 0; j < k; j++) {
        out->cand[j].id = (long)pair[j].i;
        out->cand[j].logit = pair[j].v;
        out->cand[j].p = (float)sl_base_exp((double)pair[j].v - mx);
        sum += out->cand[j].p;
    }
    for (size_t j = 0; j < k; j++)
        out->cand[j].p = (float)((double)out->cand[j].p / sum);
    if (isnan(sum)) {
        /* an infinite score (a banned -inf over a negative temperature is +inf): inf - inf is NaN, every
         * probability is NaN, and _weightedIndex's x = NaN never goes below 0, so the draw returns the
         * last of the k after spending its uniform */
        out->probs[out->cand[k - 1].id] = 1;
        out->kept[out->cand[k - 1].id] = 1;
        out->n_kept = 1;
        sl_logits_step(out, "softmax NaN: the last of the top k");
    } else {
        for (size_t j = 0; j < k; j++) {
            out->probs[out->cand[j].id] = out->cand[j].p;
            out->kept[out->cand[j].id] = 1;
        }
        out->n_kept = k;
        sl_logits_step(out, "softmax");
    }
    out->n_cand = k;
    out->cand_sorted = 1;
    out->nan_free = 1;
done:
    if (rc)
        sl_logits_result_free(out);
    sl_logits_work_free(own);
    return rc;
}

/* GenerationConfig's field initialisers (generation/configuration_utils.js, 4.3.1) */
static const sl_logits_default tjs_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 1.0, "temperature = 1.0", NULL, 0},
    {SL_KEY_TOP_K, 0, 50, "top_k = 50 (MultinomialSampler: min(top_k, V) when > 0)", NULL, 0},
    {SL_KEY_TOP_P, 0, 1.0, "top_p = 1.0 (read by no processor in 4.3.1)", NULL, 0},
    {SL_KEY_TYPICAL, 0, 1.0, "typical_p = 1.0 (read by no processor in 4.3.1)", NULL, 0},
    {SL_KEY_PENALTY, 0, 1.0, "repetition_penalty = 1.0", NULL, 0},
    {SL_KEY_NGRAM, 0, 0, "no_repeat_ngram_size = 0", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

const char *sl_logits_tjs_note(const sl_logits_cfg *c)
{
    int p = c->has_top_p && c->top_p != 1.0, t = c->has_typical && c->typical != 1.0;
    if (p)
        return t ? "transformers.js 4.3.1 ignores top_p and typical_p: _get_logits_processor builds no "
                   "TopPLogitsWarper (commented out) and no typical warper, so the draw is over the top-k tokens "
                   "unfiltered"
                 : "transformers.js 4.3.1 ignores top_p: _get_logits_processor builds no TopPLogitsWarper "
                   "(commented out), so the draw is over the top-k tokens unfiltered";
    if (t)
        return "transformers.js 4.3.1 ignores typical_p: _get_logits_processor builds no typical warper, so the "
               "draw is over the top-k tokens unfiltered";
    return NULL;
}

const sl_logits_pipeline_type sl_logits_pipeline_tjs_type = {
    .name = "transformers-js",
    .summary = "transformers.js 4.3 generate(do_sample: true): repetition penalty -> no-repeat n-gram -> "
               "temperature (float32(x / T)) -> ORT TopK (ties by index) -> float32 softmax, double sum; top_p ignored",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_TYPICAL | SL_OPT_PENALTY |
               SL_OPT_TJS_VERSION,
    .run = tjs_run,
    .traits = SL_LOGITS_TRAIT_NAMED_ONLY,
    .defaults = tjs_defaults,
    .note = sl_logits_tjs_note,
    .ignored = 1u << SL_KEY_TOP_P | 1u << SL_KEY_TYPICAL,
};
