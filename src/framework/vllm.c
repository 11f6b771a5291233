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
#include "framework/sl_fw.h"

static const sl_fw_variant vllm_variants[] = {
    {"2", "vLLM 0.8-0.11 V1 sampler (PyTorch path) on torch 2.x", SL_TORCH_2},
    {"1.13", "vLLM 0.8-0.11 V1 sampler (PyTorch path) on torch 1.13.1", SL_TORCH_1_13},
    {NULL, NULL, 0},
};

const sl_fw_type sl_fw_vllm_type = {
    .name = "vllm",
    .summary = "vLLM V1 sampler, seeded request: the vllm pipeline, then argmax(probs / q) with q.exponential_ from "
    "torch.Generator().manual_seed(seed) (= torch.multinomial); T < 1e-5 greedy",
    .variant_bit = SL_OPT_VARIANT,
    .variants = vllm_variants,
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_PENALTY |
        SL_OPT_VARIANT | SL_OPT_CPU | SL_OPT_ROW_SEEDS,
    .input_why = "its sampler starts from logits",
    .pipeline = &sl_logits_pipeline_vllm_type,
    .draw = &sl_draw_torch_type,
    .rng = "torch-mt19937",
    .default_seed = 42,
    .open = sl_fw_after_pipeline_open,
    .step = sl_fw_after_pipeline_step,
    .probs = sl_fw_probs_of_pipeline,
    .close = sl_fw_after_pipeline_close,
};
