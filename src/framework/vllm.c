/* vllm.c — one sampling step of vLLM's V1 sampler for a seeded request, as
 * `samplab draw --framework vllm` runs it: the vllm logits pipeline
 * (logits/vllm.c), then vllm/v1/sample/ops/topk_topp_sampler.py random_sample
 * — q.exponential_(generator=g) with the request's own
 * torch.Generator(device).manual_seed(seed), token = argmax(probs / q). That is
 * the same computation, word for word, as torch.multinomial(probs, 1) after
 * torch.manual_seed(seed) (200 of 200 seeds equal in torch 1.13), so the draw is
 * the torch framework's exponential race. T < 1e-5 is greedy: the argmax of
 * the penalised logits, no random words.
 *
 * Reproduces the PyTorch path of vLLM 0.8–0.11's V1 sampler (CPU, or CUDA
 * without FlashInfer). Known divergences: FlashInfer's rejection sampler (the
 * CUDA default when installed) and the Triton/CPU fused kernels of later
 * releases draw the same distribution from other random numbers. */
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

static int vllm_fw_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!o->logits)
        return sl_error_set(err, SL_EINVAL, "framework vllm takes --logits (its sampler starts from logits)");
    sl_logits_cfg c;
    memset(&c, 0, sizeof c);
    c.has_temperature = o->has_temperature;
    c.temperature = o->temperature;
    c.has_top_k = o->has_top_k;
    c.top_k = o->top_k;
    c.has_top_p = o->has_top_p;
    c.top_p = o->top_p;
    c.has_min_p = o->has_min_p;
    c.min_p = o->min_p;
    c.has_penalty = o->has_penalty;
    c.penalty = o->penalty;
    c.context = o->context;
    c.context_n = o->context_n;
    c.defaults = o->defaults;
    sl_logits_result r;
    int rc = sl_pipeline_run(&sl_pipeline_vllm_type, o->logits, &c, &r, err);
    if (rc)
        return rc;
    if (r.greedy) {
        out->tokens = malloc((o->n ? o->n : 1) * sizeof *out->tokens);
        if (!out->tokens) {
            sl_logits_result_free(&r);
            return sl_error_set(err, SL_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < o->n; i++)
            out->tokens[i] = (long)r.greedy_id;
        out->n = o->n;
        out->k = 1;
        out->rng_name = "torch-mt19937";
        out->word_bits = 32;
        out->words = 0;
        sl_logits_result_free(&r);
        return SL_OK;
    }
    sl_vec probs;
    if (sl_vec_alloc(&probs, r.V, o->logits->source)) {
        sl_logits_result_free(&r);
        return sl_error_set(err, SL_ENOMEM, "out of memory for %zu probabilities", r.V);
    }
    for (size_t i = 0; i < r.V; i++) {
        probs.f[i] = (float)r.probs[i];
        probs.d[i] = r.probs[i];
    }
    probs.dtype = SL_F32;
    sl_logits_result_free(&r);
    sl_fw_opts t = *o;
    t.logits = NULL;
    t.probs = &probs;
    t.k = 1;
    t.replacement = 0;
    t.dtype_set = 1;
    t.dtype = SL_F32;
    rc = sl_framework_torch_type.run(&t, out, err);
    sl_vec_free(&probs);
    return rc;
}

const sl_framework_type sl_framework_vllm_type = {
    "vllm",
    "vLLM V1 sampler, seeded request: the vllm pipeline, then argmax(probs / q) with q.exponential_ from "
    "torch.Generator().manual_seed(seed) (= torch.multinomial); T < 1e-5 greedy",
    SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_PENALTY |
        SL_OPT_DEFAULTS | SL_OPT_VARIANT,
    vllm_fw_run,
};
