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

/* A batch of requests, vllm/v1/sample/ops/topk_topp_sampler.py random_sample
 * (read at commits 3babc05a and 01fa3fe7; v1/sample/sampler.py
 * Sampler.random_sample at 00ec9781, the same code): q = torch.empty_like(probs)
 * over [B, V]; when some request has no generator (len(generators) != B)
 * q.exponential_() fills all of q from the global generator, row after row, the
 * seeded rows included; then each seeded row i refills q[i].exponential_(generator)
 * from its own. So a seeded row depends on nothing else, an unseeded one on
 * every row before it and every step before. All greedy (T = 0,
 * Sampler.sample's all_greedy): the argmax, no q. */
static int vllm_batch_step(sl_fw_batch *b, const sl_vec *rows, sl_error *err)
{
    int greedy = !(b->row[0].o.cfg.temperature > 0), global = 0, rc = SL_OK;
    for (size_t r = 0; r < b->B; r++)
        global |= !b->own[r];
    if (!greedy && global)
        for (size_t r = 0; r < b->B && !rc; r++) {
            if (b->own[r])
                sl_draw_race_skip(&b->global, rows[r].n); /* overwritten below */
            else
                rc = sl_fw_batch_step_row(b, r, &rows[r], &b->global, err);
        }
    for (size_t r = 0; r < b->B && !rc; r++)
        if (b->own[r] || greedy)
            rc = sl_fw_batch_step_row(b, r, &rows[r], b->own[r] ? &b->row[r].rng : &b->global, err);
    return rc;
}

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
    .replacement_why = "vLLM's sampler draws one token a request a step (argmax of probs / q): it has no replacement setting",
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
    .batch_step = vllm_batch_step,
    .batch = "random_sample (PyTorch exponential_ path): q.exponential_() over the batch from the global "
                  "generator when a request has no seed, then q[i].exponential_(generator) for each seeded request",
};
