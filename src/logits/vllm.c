/* vllm.c — vLLM's V1 sampler over one request's logits, in float32 as its
 * PyTorch code computes them on CPU.
 *
 * Reproduces (vLLM 0.8–0.11, vllm/v1/sample/): sampler.py Sampler.sample
 * (penalties → greedy if T < 1e-5 → temperature → min-p → top-k/top-p →
 * softmax), model_executor/layers/utils.py apply_penalties with
 * _custom_ops.apply_repetition_penalties_torch (repetition on prompt ∪
 * output: logit > 0 → ×float32(1/r), else ×r), logits_processor/builtin.py
 * MinPLogitsProcessor (probs < min_p · p_max removed, probability space),
 * ops/topk_topp_sampler.py apply_top_k_top_p_pytorch (ascending sort; top-k
 * masks values < the k-th largest, so ties survive; top-p masks
 * cumsum <= 1 - p computed in float32, the largest always kept), and the
 * checks and clamps of sampling_params.py SamplingParams (0 < T < 0.01 is
 * raised to 0.01; greedy resets top_p, top_k, min_p).
 *
 * Known divergences: GPU paths (FlashInfer rejection sampling, Triton top-k)
 * choose the same set only in distribution; the CPU float32 arithmetic is
 * torch's AVX2 kernels (f32.c), bit-identical in the golden cases; frequency
 * and presence penalties (output tokens only)
 * are not emulated because one context cannot tell prompt from output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

static int vllm_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *c,
                    sl_logits_result *out, sl_error *err)
{
    (void)ld;
    char num[64];
    double T = c->temperature, top_p = c->top_p, min_p = c->min_p, rep = c->penalty;
    long top_k = c->top_k;
    int cpu = sl_logits_cpu_resolve(c->cpu);
    /* SamplingParams._verify_args */
    if (!(T >= 0)) {
        sl_logits_pyrepr(T, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "vllm: temperature must be non-negative, got %s.", num);
    }
    if (!(top_p > 0 && top_p <= 1)) {
        sl_logits_pyrepr(top_p, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "vllm: top_p must be in (0, 1], got %s.", num);
    }
    if (top_k < -1)
        return sl_base_error_set(err, SL_EINVAL, "vllm: top_k must be 0 (disable), or at least 1, got %ld.", top_k);
    if (!(min_p >= 0 && min_p <= 1)) {
        sl_logits_pyrepr(min_p, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "vllm: min_p must be in [0, 1], got %s.", num);
    }
    if (!(rep > 0)) {
        sl_logits_pyrepr(rep, num, sizeof num);
        return sl_base_error_set(err, SL_EINVAL, "vllm: repetition_penalty must be greater than zero, got %s.", num);
    }
    if (T > 0 && T < 1e-2) /* _MAX_TEMP clamp with a warning */
        T = 1e-2;
    int greedy = T < 1e-5;
    if (greedy) { /* _verify_greedy_sampling / __post_init__ */
        top_p = 1.0;
        top_k = 0;
        min_p = 0.0;
    }
    if (top_k == -1 || (top_k > 0 && (size_t)top_k >= V))
        top_k = 0; /* -1 and k >= V both mean no top-k */

    int rc = sl_logits_result_alloc(out, V, err);
    if (rc)
        return rc;
    out->precision = 32;
    float *s = malloc(V * sizeof *s), *a = malloc(V * sizeof *a), *b = malloc(V * sizeof *b);
    size_t *idx = malloc(V * sizeof *idx);
    if (!s || !a || !b || !idx) {
        rc = sl_base_error_set(err, SL_ENOMEM, "vllm: out of memory for %zu logits", V);
        goto done;
    }
    memcpy(s, lf, V * sizeof *s);

    if (rep != 1.0 && c->context_n) {
        unsigned char *hit = calloc(V, 1);
        if (!hit) {
            rc = sl_base_error_set(err, SL_ENOMEM, "vllm: out of memory for the repetition penalty over %zu ids", V);
            goto done;
        }
        for (size_t i = 0; i < c->context_n; i++)
            hit[c->context[i]] = 1;
        /* scaling = where(logits > 0, 1.0 / penalties, penalties); logits *= scaling */
        float r = (float)rep, inv = 1.0f / r;
        for (size_t i = 0; i < V; i++)
            if (hit[i])
                s[i] = s[i] > 0 ? s[i] * inv : s[i] * r;
        free(hit);
        sl_logits_step(out, "repetition_penalty");
    }
    if (greedy) {
        /* argmax of the penalised logits: the first maximum */
        size_t best = 0;
        for (size_t i = 1; i < V; i++)
            if (s[i] > s[best])
                best = i;
        out->greedy = 1;
        out->greedy_id = best;
        out->kept[best] = 1;
        out->n_kept = 1;
        out->probs[best] = 1.0;
        sl_logits_step(out, "greedy (T < 1e-5)");
        goto done;
    }
    if (T != 1.0) {
        float t = (float)T;
        for (size_t i = 0; i < V; i++)
            s[i] = s[i] / t;
        sl_logits_step(out, "temperature");
    }
    if (min_p > 0) {
        sl_logits_softmax_f32(s, V, a, cpu);
        float top = 0;
        for (size_t i = 0; i < V; i++)
            if (a[i] > top)
                top = a[i];
        float thr = (float)min_p * top;
        for (size_t i = 0; i < V; i++)
            if (a[i] < thr)
                s[i] = -INFINITY;
        sl_logits_step(out, "min_p");
    }
    if (top_k > 0 || top_p < 1.0) {
        if ((rc = sl_logits_argsort_f32(s, V, 0, idx, err)))
            goto done;
        for (size_t j = 0; j < V; j++)
            a[j] = s[idx[j]];
        if (top_k > 0) {
            float kth = a[V - (size_t)top_k];
            for (size_t j = 0; j < V; j++)
                if (a[j] < kth)
                    a[j] = -INFINITY;
            sl_logits_step(out, "top_k");
        }
        if (top_p < 1.0) {
            sl_logits_softmax_f32(a, V, b, cpu);
            sl_logits_cumsum_f32(b, V, b);
            float thr = 1.0f - (float)top_p; /* p is a float32 tensor: 1 - p in float32 */
            for (size_t j = 0; j + 1 < V; j++)
                if (b[j] <= thr)
                    a[j] = -INFINITY;
            sl_logits_step(out, "top_p");
        }
        for (size_t j = 0; j < V; j++)
            s[idx[j]] = a[j];
    }
    sl_logits_softmax_f32(s, V, a, cpu);
    for (size_t i = 0; i < V; i++) {
        out->kept[i] = s[i] != -INFINITY;
        out->n_kept += out->kept[i];
        out->probs[i] = a[i];
    }
done:
    free(s);
    free(a);
    free(b);
    free(idx);
    if (rc)
        sl_logits_result_free(out);
    return rc;
}

/* vllm/sampling_params.py SamplingParams' field defaults (read at commit
 * 00388f65, 2026; the same values since 0.8, where top_k was -1, which also means
 * all tokens): every one leaves its stage off. A model's generation_config.json
 * reaches them only through the engine's generation_config option (vLLM PR
 * #11164), which samplab does not read. */
static const sl_logits_default vllm_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 1.0, "temperature = 1.0", NULL, 0},
    {SL_KEY_TOP_K, 0, 0, "top_k = 0 (0 or -1: all tokens)", NULL, 0},
    {SL_KEY_TOP_P, 0, 1.0, "top_p = 1.0", NULL, 0},
    {SL_KEY_MIN_P, 0, 0.0, "min_p = 0.0", NULL, 0},
    {SL_KEY_PENALTY, 0, 1.0, "repetition_penalty = 1.0", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

const sl_logits_pipeline_type sl_logits_pipeline_vllm_type = {
    .name = "vllm",
    .summary = "vLLM V1 sampler: repetition penalty (prompt+output) -> greedy if T < 1e-5 -> temperature -> min-p "
               "-> top-k (ties kept) -> top-p, float32; unset: every stage off",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_PENALTY |
               SL_OPT_CPU,
    .run = vllm_run,
    .traits = SL_LOGITS_TRAIT_TOP_P_RENORMED,
    .defaults = vllm_defaults,
};
