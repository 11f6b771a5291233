/* sglang.c — SGLang's sampler over one request's logits with
 * --enable-deterministic-inference (which forces the pytorch sampling backend), in
 * float32 as its torch code computes it on CPU, up to the seeded draw.
 *
 * Reproduces python/sglang/srt/layers/sampler.py Sampler.forward and its helpers
 * (read after PR #33423; the same steps in the 0.5.9-0.5.12 line):
 * SamplingParams.__post_init__ (temperature < 1e-6 is temperature 1 with top_k 1,
 * top_k -1 is TOP_K_ALL = 2^30) and verify (its messages);
 * logits.div_(temperatures) in float32; torch.softmax; then either
 * sampling_from_probs_torch (no row of the batch with top-k, top-p or min-p: the
 * seeded draw's columns are vocabulary ids, log-probabilities torch.log(probs) in
 * float32) or top_k_top_p_min_p_sampling_from_probs_torch (probs.sort(descending),
 * cumsum of the sorted probabilities, ranks >= top_k zeroed, then ranks whose
 * exclusive cumsum exceeds top_p, both against the unfiltered sums; the draw's
 * columns are the ranks, log-probabilities probs_sort.to(float64).log_()). A batch
 * whose rows all have top_k <= 1 is torch.argmax(logits): no hash. What it leaves
 * out, refused: min_p > 0 with a seed (SGLang's own assertion "With sampling seed,
 * multinomial_with_seed will provide wrong results"), penalties, logit_bias,
 * custom logit processors, grammars, NaN logits (sanitize_nan_logits), and rows
 * with no finite logit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

#define SGLANG_TOP_K_ALL (1L << 30)

void sl_logits_sglang_out_free(sl_logits_sglang_out *o)
{
    free(o->w);
    free(o->tok);
    memset(o, 0, sizeof *o);
}

/* SamplingParams.__post_init__: temperature < 1e-6 is top_k 1 (greedy), top_k -1 is all */
static void sglang_resolve(const sl_logits_cfg *c, double *T, long *top_k, double *top_p)
{
    *T = c->has_temperature ? c->temperature : 1.0;
    *top_p = c->has_top_p ? c->top_p : 1.0;
    *top_k = c->has_top_k ? c->top_k : -1;
    if (*T >= 0 && *T < 1e-6) { /* "top_k = 1 means greedy sampling" */
        *T = 1.0;
        *top_k = 1;
    }
    if (*top_k == -1)
        *top_k = SGLANG_TOP_K_ALL;
}

int sl_logits_sglang_path(const sl_logits_cfg *c, int rank)
{
    double T, top_p;
    long top_k;
    sglang_resolve(c, &T, &top_k, &top_p);
    if (top_k <= 1 && !rank)
        return SL_SGLANG_GREEDY;
    return rank || top_k != SGLANG_TOP_K_ALL || top_p != 1.0 ? SL_SGLANG_RANK : SL_SGLANG_VOCAB;
}

int sl_logits_sglang_apply(const float *logits, size_t V, const sl_logits_cfg *c, int rank, sl_logits_sglang_out *o,
                           sl_error *err)
{
    char num[64];
    memset(o, 0, sizeof *o);
    double T, top_p, min_p = c->has_min_p ? c->min_p : 0.0;
    long top_k;
    if (V == 0)
        return sl_base_error_set(err, SL_EINVAL, "sglang: no logits");
    sglang_resolve(c, &T, &top_k, &top_p);
    /* SamplingParams.verify, in its order and words */
    if (!isfinite(T) || T < 0) {
        sl_logits_pyrepr(T, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "sglang: temperature must be a non-negative finite number, got %s.",
                                 num);
    }
    if (!(top_p > 0 && top_p <= 1)) {
        sl_logits_pyrepr(top_p, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "sglang: top_p must be in (0, 1], got %s.", num);
    }
    if (!(min_p >= 0 && min_p <= 1)) {
        sl_logits_pyrepr(min_p, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "sglang: min_p must be in [0, 1], got %s.", num);
    }
    if (top_k < 1)
        return sl_base_error_set(err, SL_EINVAL, "sglang: top_k must be -1 (disable) or at least 1, got %ld.", top_k);
    if ((c->has_penalty && c->penalty != 1.0) || (c->has_freq && c->freq != 0.0) ||
        (c->has_presence && c->presence != 0.0))
        return sl_base_error_set(err, SL_EINVAL,
                                 "sglang: %s: SGLang's penalizers (penaltylib, applied to the logits before the "
                                 "sampler) are not modelled by samplab",
                                 c->has_penalty && c->penalty != 1.0 ? "repetition_penalty"
                                 : c->has_freq && c->freq != 0.0 ? "frequency_penalty" : "presence_penalty");
    if (min_p > 0)
        return sl_base_error_set(err, SL_EINVAL,
                                 "sglang: min_p > 0 with a sampling seed is refused by SGLang itself (sampler.py: "
                                 "\"With sampling seed, multinomial_with_seed will provide wrong results\")");
    int finite = 0;
    for (size_t i = 0; i < V; i++) {
        if (isnan(logits[i]) || logits[i] == INFINITY)
            return sl_base_error_set(err, SL_EINVAL,
                                     "sglang: logit %zu is %s: SGLang's sanitize_nan_logits and the softmax of an "
                                     "infinite logit are not modelled by samplab", i, isnan(logits[i]) ? "NaN" : "+inf");
        finite |= logits[i] != -INFINITY;
    }
    if (!finite)
        return sl_base_error_set(err, SL_EINVAL,
                                 "sglang: every logit is -inf (a NaN softmax): not modelled by samplab");
    o->V = V;
    o->top_k = top_k;
    int path = sl_logits_sglang_path(c, rank);
    if (path == SL_SGLANG_GREEDY) { /* is_all_greedy: torch.argmax(logits, -1), the first maximum */
        size_t best = 0;
        for (size_t i = 1; i < V; i++)
            if (logits[i] > logits[best])
                best = i;
        o->greedy = 1;
        o->greedy_id = best;
        o->n_kept = 1;
        return SL_OK;
    }
    int cpu = sl_logits_cpu_resolve(c->cpu);
    float *s = malloc(V * sizeof *s);
    o->w = malloc(V * sizeof *o->w);
    if (!s || !o->w) {
        free(s);
        sl_logits_sglang_out_free(o);
        return sl_base_error_set(err, SL_ENOMEM, "sglang: out of memory for %zu logits", V);
    }
    sl_logits_div_f32(logits, s, V, (float)T); /* logits.div_(temperatures): a float32 tensor */
    sl_logits_softmax_f32(s, V, o->w, cpu);
    if (path == SL_SGLANG_VOCAB) {
        free(s);
        for (size_t i = 0; i < V; i++)
            o->n_kept += o->w[i] > 0;
        return SL_OK;
    }
    /* the sort path: probs.sort(dim=-1, descending=True), torch's CPU tie order */
    o->rank = 1;
    int rc;
    if (!(o->tok = malloc(V * sizeof *o->tok))) {
        rc = sl_base_error_set(err, SL_ENOMEM, "sglang: out of memory for %zu logits", V);
    } else {
        rc = sl_logits_argsort_f32(o->w, V, 1, o->tok, err);
    }
    if (rc) {
        free(s);
        sl_logits_sglang_out_free(o);
        return rc;
    }
    for (size_t j = 0; j < V; j++)
        s[j] = o->w[o->tok[j]];
    float *sum = o->w; /* reused: the sorted probabilities move to s, their running sums here */
    sl_logits_cumsum_f32(s, V, sum);
    float p = (float)top_p; /* top_ps: a float32 tensor */
    for (size_t j = 0; j < V; j++) {
        if ((long)j >= top_k)
            s[j] = 0.0f;
        if (sum[j] - s[j] > p)
            s[j] = 0.0f;
    }
    memcpy(o->w, s, V * sizeof *s);
    free(s);
    for (size_t j = 0; j < V; j++)
        o->n_kept += o->w[j] > 0;
    return SL_OK;
}

static int sglang_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *c, sl_logits_result *out,
                      sl_error *err)
{
    (void)ld;
    sl_logits_sglang_out o;
    int rc = sl_logits_result_alloc(out, V, err); /* first: the logits are read only once there is room */
    if (rc)
        return rc;
    if ((rc = sl_logits_sglang_apply(lf, V, c, 0, &o, err))) {
        sl_logits_result_free(out);
        return rc;
    }
    out->precision = 32;
    if (o.greedy) {
        out->greedy = 1;
        out->greedy_id = o.greedy_id;
        out->kept[o.greedy_id] = 1;
        out->n_kept = 1;
        out->probs[o.greedy_id] = 1.0;
        sl_logits_step(out, "greedy (top_k 1: T < 1e-6)");
        sl_logits_sglang_out_free(&o);
        return SL_OK;
    }
    /* Gumbel-max draws in proportion to the kept weights: w / their sum */
    double total = 0;
    for (size_t j = 0; j < V; j++)
        total += o.w[j];
    for (size_t j = 0; j < V; j++) {
        size_t id = o.rank ? o.tok[j] : j;
        out->kept[id] = o.w[j] > 0;
        out->probs[id] = o.w[j] / total;
    }
    out->n_kept = o.n_kept;
    if (c->has_temperature && c->temperature != 1.0)
        sl_logits_step(out, "temperature");
    if (o.top_k != SGLANG_TOP_K_ALL)
        sl_logits_step(out, "top_k");
    if (c->has_top_p && c->top_p != 1.0)
        sl_logits_step(out, "top_p");
    sl_logits_sglang_out_free(&o);
    return SL_OK;
}

/* SamplingParams' field defaults (sampling/sampling_params.py): every stage off. */
static const sl_logits_default sglang_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 1.0, "temperature = 1.0", NULL, 0},
    {SL_KEY_TOP_K, 0, -1, "top_k = TOP_K_ALL (-1: all tokens)", NULL, 0},
    {SL_KEY_TOP_P, 0, 1.0, "top_p = 1.0", NULL, 0},
    {SL_KEY_MIN_P, 0, 0.0, "min_p = 0.0", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

const sl_logits_pipeline_type sl_logits_pipeline_sglang_type = {
    .name = "sglang",
    .summary = "SGLang sampler (pytorch backend): greedy if T < 1e-6 -> temperature -> softmax -> sort, top-k and "
               "top-p over the unfiltered sums, float32; unset: every stage off",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_CPU |
               SL_OPT_PENALTY | SL_OPT_FREQ_PRESENCE,
    .run = sglang_run,
    .traits = SL_LOGITS_TRAIT_NAMED_ONLY,
    .defaults = sglang_defaults,
};
