/* tgi.c — Text Generation Inference 3.3's warpers over one request's logits, in
 * float32 as its PyTorch code computes them on CPU.
 *
 * Reproduces (text-generation-inference v3.3.7, server/text_generation_server/utils/):
 * tokens.py HeterogeneousNextTokenChooser (the order: repetition penalty →
 * temperature → top-k → top-p → typical, each built only when a request sets it),
 * logits_process.py HeterogeneousRepetitionPenaltyLogitsProcessor (score < 0 → ×r,
 * else ÷r, gathered once per id), HeterogeneousTemperatureLogitsWarper (÷ a
 * float32 T), HeterogeneousTopKLogitsWarper (scores below the k-th largest
 * removed: ties survive), HeterogeneousTopPLogitsWarper (ascending sort,
 * softmax, cumsum, remove cum <= 1 - float32(p) computed in float32, the last
 * kept) and HeterogeneousTypicalLogitsWarper; router/src/validation.rs
 * validate (its ranges and error texts; an unset value is 1.0 / 0).
 * These are transformers' warpers but for top-p's threshold, so the hf
 * pipeline runs them (logits/hf.c, top_p_f32_opposite).
 *
 * top_k above V is refused: TGI's warper clamps topk to V but gathers index k - 1.
 * Known divergences: the values that mean unset (top_p 1, typical_p 1, top_k 0)
 * are read as unset where TGI's router refuses them given; typical's cut is
 * clamped to the last position where TGI would index past the row (a row whose
 * whole cumulative sum stays below the mass: an IndexError in TGI); frequency
 * penalty and watermarking are not modelled. */
#include <stdio.h>

#include "logits/sl_logits.h"

static int tgi_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *cfg, sl_logits_result *out,
                   sl_error *err)
{
    if (!(cfg->temperature > 0))
        return sl_base_error_set(err, SL_EINVAL, "tgi: `temperature` must be strictly positive");
    if (!(cfg->penalty > 0))
        return sl_base_error_set(err, SL_EINVAL, "tgi: `repetition_penalty` must be strictly positive");
    if (!(cfg->top_p > 0 && cfg->top_p <= 1))
        return sl_base_error_set(err, SL_EINVAL, "tgi: `top_p` must be > 0.0 and < 1.0");
    if (!(cfg->typical > 0 && cfg->typical <= 1))
        return sl_base_error_set(err, SL_EINVAL, "tgi: `typical_p` must be > 0.0 and < 1.0");
    if (cfg->top_k < 0)
        return sl_base_error_set(err, SL_EINVAL, "tgi: `top_k` must be strictly positive");
    if (cfg->top_k > 0 && (size_t)cfg->top_k > V) /* torch.gather(topk(scores, V)[0], 1, k - 1) */
        return sl_base_error_set(err, SL_EINVAL,
                                 "tgi: top_k %ld is more than the %zu logits: HeterogeneousTopKLogitsWarper gathers "
                                 "past them (TGI raises 'index out of bounds')", cfg->top_k, V);
    sl_logits_cfg c = *cfg;
    c.top_p_f32_opposite = 1;
    c.has_min_p = 0; /* TGI has no min-p */
    c.min_keep = 1;  /* min_tokens_to_keep = 1 in every Heterogeneous warper */
    c.has_min_keep = 1;
    return sl_logits_pipeline_hf_type.run(lf, ld, V, &c, out, err);
}

/* router/src/validation.rs: a parameter the request leaves out (None) */
static const sl_logits_default tgi_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 1.0, "temperature = 1.0 (unwrap_or(1.0))", NULL, 0},
    {SL_KEY_TOP_K, 0, 0, "top_k = 0 (unwrap_or(0): no top-k)", NULL, 0},
    {SL_KEY_TOP_P, 0, 1.0, "top_p = 1.0 (unwrap_or(1.0))", NULL, 0},
    {SL_KEY_TYPICAL, 0, 1.0, "typical_p = 1.0 (unwrap_or(1.0))", NULL, 0},
    {SL_KEY_PENALTY, 0, 1.0, "repetition_penalty = 1.0 (unwrap_or(1.0))", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

const sl_logits_pipeline_type sl_logits_pipeline_tgi_type = {
    .name = "tgi",
    .summary = "TGI 3.3 HeterogeneousNextTokenChooser: repetition penalty -> temperature -> top-k (ties kept) -> "
               "top-p (1 - p in float32) -> typical, float32; unset: every stage off",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_TYPICAL | SL_OPT_PENALTY |
               SL_OPT_CPU,
    .run = tgi_run,
    .traits = SL_LOGITS_TRAIT_TOP_P_RENORMED | SL_LOGITS_TRAIT_NAMED_ONLY,
    .defaults = tgi_defaults,
};
