/* hf.c — transformers' sampling processors in generate()'s order, in float32
 * as torch computes them.
 *
 * Reproduces (transformers 4.4x–5.x, src/transformers/generation/):
 *   logits_process.py RepetitionPenaltyLogitsProcessor, TemperatureLogitsWarper,
 *   TopKLogitsWarper, TopPLogitsWarper, MinPLogitsWarper, TypicalLogitsWarper;
 *   utils.py _get_logits_processor (which processors are added, and in which
 *   order: repetition penalty → temperature → top-k → top-p → min-p → typical);
 *   configuration_utils.py GenerationConfig._get_default_generation_params (the
 *   defaults of 5.12.1: what generate() gives the settings a call and the model's
 *   generation_config leave unset; the table at the end).
 * Each warper masks with -inf and the next one takes the softmax of what is
 * left, so every filter sees the renormalised output of the one before.
 * Comparisons are the library's: top-k removes scores < the k-th value (ties
 * survive), top-p removes ascending-cumsum <= float32(1 - p), min-p removes
 * p < float32(min_p) * p_max, typical removes shift > shift[count(cum < mass)].
 * Error texts are transformers' ValueError messages.
 *
 * Float32 arithmetic is torch's: its AVX2 softmax (SLEEF exp, 8-lane sum),
 * cumsum accumulated in double, the CPU sort's tie order (f32.c) — the final
 * probabilities are bit-identical to torch 1.13's in every golden case.
 * typical's log_softmax takes the log of the row sum as torch does, with SLEEF's
 * logf_u10 (f32.c): glibc's logf is 1 ulp away on some sums, which on a
 * near-flat row reorders the shifted scores and so the kept set.
 * Known divergences: typical's entropy is torch's one-thread nansum; with
 * several threads and V >= 32768 torch splits the sum (its grain size), so
 * the last bit of the entropy may differ; torch builds that vectorise with
 * AVX-512 or without SIMD sum in another order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct hf_work {
    size_t V;
    int cpu;               /* torch's CPU kernel (SL_CPU_AVX2 / AVX512), resolved */
    void *block;           /* this run's buffers in one allocation (no caller scratch) */
    size_t live;           /* entries of s above -inf after top-k, or V when unknown */
    float *s, *a, *b, *c, *d;
    size_t *idx;
    sl_base_f32i *pairs;   /* torch.sort's (value, index) pairs */
    sl_base_f32i *tmp;     /* and a second row of them (the radix sort's) */
} hf_work;

static void hf_work_free(hf_work *w)
{
    free(w->block);
    memset(w, 0, sizeof *w);
}

/* The run's buffers: from the caller's scratch (a session keeps them across steps)
 * or one block for this run (the pages a run does not use are never touched). */
static int hf_work_alloc(hf_work *w, size_t V, sl_logits_work *k, sl_error *err)
{
    memset(w, 0, sizeof *w);
    w->V = V;
    w->live = V;
    size_t n = V ? V : 1, nf = n * sizeof *w->s, ni = n * sizeof *w->idx, np = n * sizeof *w->pairs;
    int ok = n <= SIZE_MAX / 64; /* 5 floats, an index and 2 pairs an entry: under 64 bytes */
    if (ok && k) {
        w->s = sl_logits_work_buf(k, 0, nf);
        w->a = sl_logits_work_buf(k, 1, nf);
        w->b = sl_logits_work_buf(k, 2, nf);
        w->c = sl_logits_work_buf(k, 3, nf);
        w->d = sl_logits_work_buf(k, 4, nf);
        w->idx = sl_logits_work_buf(k, 5, ni);
        w->pairs = sl_logits_work_buf(k, 6, np);
        w->tmp = sl_logits_work_buf(k, 7, np);
    } else if (ok && (w->block = malloc(ni + 2 * np + 5 * nf))) {
        /* the 8-byte-aligned rows first */
        unsigned char *p = w->block;
        w->idx = (size_t *)(void *)p;
        w->pairs = (sl_base_f32i *)(void *)(p + ni);
        w->tmp = (sl_base_f32i *)(void *)(p + ni + np);
        float *f = (float *)(void *)(p + ni + 2 * np);
        w->s = f, w->a = f + n, w->b = f + 2 * n, w->c = f + 3 * n, w->d = f + 4 * n;
    }
    if (!w->s || !w->a || !w->b || !w->c || !w->d || !w->idx || !w->pairs || !w->tmp) {
        hf_work_free(w);
        return sl_base_error_set(err, SL_ENOMEM, "hf: out of memory for %zu logits", V);
    }
    return SL_OK;
}

/* TopKLogitsWarper.__call__: scores < topk(scores, k).values[-1] → -inf. */
static int hf_top_k(hf_work *w, size_t k, sl_error *err)
{
    if (k > w->V)
        k = w->V;
    float kth;
    int rc = sl_logits_kth_largest_f32(w->s, w->V, k, w->idx, &kth, err);
    if (rc)
        return rc;
    w->live = sl_logits_mask_below_f32(w->s, w->V, kth);
    return SL_OK;
}

/* TopPLogitsWarper.__call__: ascending sort, softmax, cumsum, remove
 * cum <= (1 - top_p) with 1 - top_p computed in Python (double) and the
 * comparison in float32; the last min_keep sorted positions always stay.
 *
 * torch.sort orders ties as libstdc++'s std::sort leaves them, but top-p reads
 * the order only at one place. Tied scores have equal softmax terms, so the
 * sorted values, their softmax and their cumsum are the same position by
 * position whatever order the ties take; the cumsum never decreases, so the
 * removed positions are [0, B): B the first position with cum > 1 - top_p, or
 * V - min_keep. Only which id sits at each position depends on the tie order,
 * and that changes the result only when positions B-1 and B hold a tie (of
 * finite scores: removing -inf changes nothing). So any ascending sort is used —
 * of the m entries left when top-k has cut the rest to -inf, else a radix sort of
 * the row — and std::sort runs only for a tie at B. */
static int hf_top_p(hf_work *w, double top_p, size_t min_keep, int f32_opposite, sl_error *err)
{
    size_t V = w->V;
    /* TGI's HeterogeneousTopPLogitsWarper: 1 - torch.tensor(top_p, float32), a float32 subtraction */
    float thr = f32_opposite ? 1.0f - (float)top_p : (float)(1.0 - top_p);
    size_t protect = min_keep < V ? V - min_keep : 0;
    size_t m = w->live, z = SIZE_MAX; /* positions [0, z) hold -inf, [z, V) w->a's values */
    if (m > 0 && m <= V / 2 && sl_logits_gather_live_f32(w->s, V, w->pairs, m) == m) {
        sl_base_std_sort_f32i(w->pairs, m, SL_BASE_ASC);
        z = V - m;
        for (size_t r = 0; r < m; r++) {
            w->idx[z + r] = w->pairs[r].i;
            w->a[z + r] = w->pairs[r].v;
        }
    } else if (V <= UINT32_MAX) {
        sl_logits_sort_any_f32(w->s, V, w->pairs, w->tmp);
        z = 0;
        for (size_t j = 0; j < V; j++) {
            w->idx[j] = w->pairs[j].i;
            w->a[j] = w->pairs[j].v;
        }
    }
    /* a NaN or +inf score makes the softmax NaN: the full sort's path says it */
    if (z != SIZE_MAX && isfinite(w->a[V - 1]) && w->a[z] == w->a[z]) {
        if (z) {
            /* softmax over [-inf x z, the m sorted] exactly as sl_logits_softmax_f32
             * runs it: the max is the last value; exp(-inf - max) is +0, so the
             * reduce_all of the row sees zeros in the block; 0 x 1/sum stays 0 */
            float mx = w->a[V - 1];
            memset(w->b, 0, z * sizeof *w->b);
            for (size_t j = z; j < V; j++)
                w->b[j] = sl_logits_expf_sleef(w->a[j] - mx);
            float inv = 1.0f / sl_logits_sum_reduce_all(w->b, V, w->cpu);
            for (size_t j = z; j < V; j++)
                w->b[j] *= inv;
        } else {
            sl_logits_softmax_f32(w->a, V, w->b, w->cpu);
        }
        /* cumsum in double, each prefix rounded to float (0 through the -inf block) */
        double acc = 0;
        size_t B = protect;
        for (size_t j = z; j < protect; j++) {
            acc += w->b[j];
            if (!((float)acc <= thr)) {
                B = j;
                break;
            }
        }
        float lo = B > 0 && B - 1 >= z ? w->a[B - 1] : -INFINITY, hi = B < V && B >= z ? w->a[B] : -INFINITY;
        if (!(B > 0 && B < V && lo == hi && hi != -INFINITY)) {
            for (size_t j = z; j < B; j++)
                w->s[w->idx[j]] = -INFINITY;
            return SL_OK;
        }
    }
    int rc = sl_logits_argsort_f32_with(w->s, V, 0, w->idx, w->pairs, err);
    if (rc)
        return rc;
    for (size_t j = 0; j < V; j++)
        w->a[j] = w->s[w->idx[j]];
    sl_logits_softmax_f32(w->a, V, w->b, w->cpu);
    sl_logits_cumsum_f32(w->b, V, w->a);
    for (size_t j = 0; j < protect; j++)
        if (w->a[j] <= thr)
            w->s[w->idx[j]] = -INFINITY;
    return SL_OK;
}

/* MinPLogitsWarper.__call__: probs < min_p * max(probs) → -inf, except the
 * min_keep tokens transformers protects: 4.x the highest scores (argsort
 * descending), 5.x torch.topk(probs, min_keep).indices, which among tied
 * probabilities keeps the ids torch's topk order leaves first (draw/torch.c). */
static int hf_min_p(hf_work *w, double min_p, size_t min_keep, int v5, sl_error *err)
{
    size_t V = w->V;
    sl_logits_softmax_f32(w->s, V, w->a, w->cpu);
    float top = 0;
    for (size_t i = 0; i < V; i++)
        if (w->a[i] > top)
            top = w->a[i];
    float thr = (float)min_p * top;
    size_t keep = min_keep < V ? min_keep : V;
    if (v5) {
        double *pd = malloc(V * sizeof *pd);
        long *top_ids = malloc((keep ? keep : 1) * sizeof *top_ids);
        int rc = pd && top_ids ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "hf: out of memory for %zu logits", V);
        for (size_t i = 0; !rc && i < V; i++)
            pd[i] = w->a[i];
        if (!rc && keep)
            rc = sl_draw_torch_topk(pd, V, keep, top_ids, err);
        if (!rc) {
            /* w->b marks the protected ids */
            memset(w->b, 0, V * sizeof *w->b);
            for (size_t j = 0; j < keep; j++)
                w->b[top_ids[j]] = 1;
            for (size_t i = 0; i < V; i++)
                if (w->a[i] < thr && w->b[i] == 0)
                    w->s[i] = -INFINITY;
        }
        free(pd);
        free(top_ids);
        return rc;
    }
    int rc = sl_logits_argsort_f32_with(w->s, V, 1, w->idx, w->pairs, err);
    if (rc)
        return rc;
    for (size_t j = keep; j < V; j++) {
        size_t i = w->idx[j];
        if (w->a[i] < thr)
            w->s[i] = -INFINITY;
    }
    return SL_OK;
}

/* TypicalLogitsWarper.__call__ (Meister et al. 2022, locally typical sampling). */
static int hf_typical(hf_work *w, double mass, size_t min_keep, sl_error *err)
{
    size_t V = w->V;
    float *lp = w->a, *shift = w->b;
    sl_logits_log_softmax_f32(w->s, V, lp, w->cpu);
    /* ent = -(normalized * p).nansum(): p = exp(normalized) (SLEEF), and
     * 0 * -inf is NaN, which nansum reads as 0 */
    for (size_t i = 0; i < V; i++)
        shift[i] = lp[i] * sl_logits_expf_sleef(lp[i]);
    float ent = -sl_logits_sum_torch_f32(shift, V, 1);
    for (size_t i = 0; i < V; i++)
        shift[i] = fabsf(-lp[i] - ent);
    int rc = sl_logits_argsort_f32_with(shift, V, 0, w->idx, w->pairs, err);
    if (rc)
        return rc;
    /* cumulative softmax of the scores in shift order */
    float *sorted = w->c, *cum = w->d;
    for (size_t j = 0; j < V; j++)
        sorted[j] = w->s[w->idx[j]];
    sl_logits_softmax_f32(sorted, V, cum, w->cpu);
    sl_logits_cumsum_f32(cum, V, sorted);
    float fm = (float)mass;
    size_t last = 0;
    for (size_t j = 0; j < V; j++)
        last += sorted[j] < fm;
    if (last > V - 1)
        last = V - 1;
    float cut = shift[w->idx[last]];
    for (size_t j = (min_keep < V ? min_keep : V); j < V; j++)
        if (shift[w->idx[j]] > cut)
            w->s[w->idx[j]] = -INFINITY;
    return SL_OK;
}

static int hf_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *c,
                  sl_logits_result *out, sl_error *err)
{
    (void)ld;
    char num[64];
    long min_keep = c->min_keep;
    if (min_keep < 1)
        return sl_base_error_set(err, SL_EINVAL,
                            "hf: `min_tokens_to_keep` has to be a positive integer, but is %ld", min_keep);
    /* validate in construction order, as _get_logits_processor does */
    int do_pen = c->penalty != 1.0;
    if (do_pen && !(c->penalty > 0)) {
        sl_logits_pyrepr(c->penalty, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "hf: `penalty` has to be a strictly positive float, but is %s", num);
    }
    int do_temp = c->temperature != 1.0;
    if (do_temp && !(c->temperature > 0)) {
        sl_logits_pyrepr(c->temperature, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL,
                            "hf: `temperature` (=%s) has to be a strictly positive float, otherwise your next "
                            "token scores will be invalid.%s",
                            num, c->temperature == 0.0
                                     ? " If you're looking for greedy decoding strategies, set `do_sample=False`."
                                     : "");
    }
    long top_k = c->top_k;
    int do_k = top_k != 0;
    if (do_k && top_k < 0)
        return sl_base_error_set(err, SL_EINVAL, "hf: `top_k` has to be a strictly positive integer, but is %ld", top_k);
    double top_p = c->top_p;
    int do_p = top_p < 1.0;
    if (do_p && top_p < 0) {
        sl_logits_pyrepr(top_p, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "hf: `top_p` has to be a float > 0 and < 1, but is %s", num);
    }
    int do_minp = c->has_min_p; /* min_p None: no MinPLogitsWarper */
    if (do_minp && !(c->min_p >= 0 && c->min_p <= 1.0)) {
        sl_logits_pyrepr(c->min_p, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "hf: `min_p` has to be a float in the [0, 1] interval, but is %s", num);
    }
    int do_typ = c->typical < 1.0;
    if (do_typ && !(c->typical > 0 && c->typical < 1)) {
        sl_logits_pyrepr(c->typical, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "hf: `typical_p` has to be a float > 0 and < 1, but is %s", num);
    }

    hf_work w;
    int rc = hf_work_alloc(&w, V, c->work, err);
    w.cpu = sl_logits_cpu_resolve(c->cpu);
    if (rc)
        return rc;
    if ((rc = sl_logits_result_alloc_raw(out, V, c->work, err))) {
        hf_work_free(&w);
        return rc;
    }
    out->precision = 32;
    /* scores = logits, divided by the temperature in the same pass when there is one */
    float temp = (float)c->temperature;
    if (do_temp)
        sl_logits_div_f32(lf, w.s, V, temp);
    else
        memcpy(w.s, lf, V * sizeof *w.s);
    if (do_pen && c->context_n) {
        /* gather → where → scatter on the raw logits: a repeated id reads the
         * original value each time and writes the same result, so it is penalised
         * once; then the temperature, as the warper after it divides */
        sl_logits_penalty_f32(lf, c->context, c->context_n, (float)c->penalty, do_temp, temp, w.s);
        sl_logits_step(out, "repetition_penalty");
    }
    if (do_temp)
        sl_logits_step(out, "temperature");
    if (do_k) {
        /* TopKLogitsWarper.__init__: top_k = max(top_k, min_tokens_to_keep) */
        size_t k = (size_t)(top_k > min_keep ? top_k : min_keep);
        if ((rc = hf_top_k(&w, k, err)))
            goto fail;
        sl_logits_step(out, "top_k");
    }
    if (do_p) {
        if ((rc = hf_top_p(&w, top_p, (size_t)min_keep, c->top_p_f32_opposite, err)))
            goto fail;
        sl_logits_step(out, "top_p");
    }
    if (do_minp) {
        if ((rc = hf_min_p(&w, c->min_p, (size_t)min_keep, c->transformers != 4, err)))
            goto fail;
        sl_logits_step(out, "min_p");
    }
    if (do_typ) {
        if ((rc = hf_typical(&w, c->typical, (size_t)min_keep, err)))
            goto fail;
        sl_logits_step(out, "typical");
    }
    /* _sample: probs = softmax(next_token_scores) */
    sl_logits_softmax_f32(w.s, V, w.a, w.cpu);
    int nan;
    out->n_kept = sl_logits_export_f32(w.s, w.a, V, out->probs, out->kept, &nan);
    out->nan_free = !nan;
    hf_work_free(&w);
    return SL_OK;
fail:
    hf_work_free(&w);
    sl_logits_result_free(out);
    return rc;
}

/* transformers 5.12.1 GenerationConfig._get_default_generation_params, which
 * _prepare_generation_config applies to every field still None after the call's
 * arguments and the model's generation_config (a checkpoint's
 * generation_config.json: samplab takes the library's, pass a model's as options);
 * _get_logits_processor then builds only the warpers that do something (top_k 50
 * alone gives TopKLogitsWarper). 4.x's GenerationConfig.__init__ had the same. */
static const sl_logits_default hf_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 1.0, "temperature = 1.0", NULL, 0},
    {SL_KEY_TOP_K, 0, 50, "top_k = 50 (0 builds no TopKLogitsWarper)", NULL, 0},
    {SL_KEY_TOP_P, 0, 1.0, "top_p = 1.0", NULL, 0},
    {SL_KEY_MIN_P, 1, 0, "min_p = None (no MinPLogitsWarper)", NULL, 0},
    {SL_KEY_TYPICAL, 0, 1.0, "typical_p = 1.0", NULL, 0},
    {SL_KEY_PENALTY, 0, 1.0, "repetition_penalty = 1.0", NULL, 0},
    {SL_KEY_MIN_KEEP, 0, 1, "min_tokens_to_keep = 1 (_get_logits_processor, one beam)", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

/* What transformers' defaults mean for candle's settings (compare's notes) */
static size_t hf_compare_notes(const sl_logits_cfg *c, char (*out)[512], size_t max)
{
    size_t n = 0;
    double t = c->has_temperature ? c->temperature : 1.0;
    if (n < max && !c->has_top_k)
        snprintf(out[n++], sizeof out[0],
                 "transformers generate(do_sample=True, temperature=%.9g) keeps top_k=50 by default: it equals "
                 "candle Sampling::TopK { k: 50, temperature: %.9g }, not Sampling::All",
                 t, t);
    if (n < max && (!c->has_top_k || c->top_k != 0) && c->has_top_p)
        snprintf(out[n++], sizeof out[0],
                 "transformers top-k then top-p renormalises after top-k; candle's TopKThenTopP does not "
                 "(top-p on the raw top-k mass). In candle use TopP with a sample_f closure that keeps the "
                 "top k and renormalises.");
    return n;
}

const sl_logits_pipeline_type sl_logits_pipeline_hf_type = {
    .name = "hf",
    .summary = "transformers generate(do_sample=True): repetition penalty -> temperature -> top-k (ties kept) -> "
               "top-p -> min-p -> typical, float32; unset: top_k 50",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL |
               SL_OPT_PENALTY | SL_OPT_MIN_KEEP | SL_OPT_CPU,
    .run = hf_run,
    .traits = SL_LOGITS_TRAIT_TOP_P_RENORMED,
    .defaults = hf_defaults,
    .compare_notes = hf_compare_notes,
};
