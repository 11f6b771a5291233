/* vllm.c — one sampling step of vLLM's V1 sampler on CPU, as `samplab draw
 * --framework vllm --vllm LINE` runs it: the vllm logits pipeline
 * (logits/vllm.c), then vllm/v1/sample/ops/topk_topp_sampler.py's exponential
 * race — q.exponential_(generator=g) with the request's own
 * torch.Generator().manual_seed(seed), token = argmax(probs / q). That is the
 * same computation, word for word, as torch.multinomial(probs, 1) after
 * torch.manual_seed(seed), so the draw is the torch framework's race (MT19937,
 * torch 2.x's CPU exponential_). T < 1e-5 is greedy: the argmax of the
 * penalised logits, no random words.
 *
 * The release lines differ in what a batch draws on CPU (x86-64 and Arm):
 * 0.9 (0.9 to 0.10) runs forward_native's random_sample; 0.11 (0.11 to 0.26,
 * PR #25652) runs forward_cpu, which sends a batch with a request without a
 * seed to compiled_random_sample (torch.compile: inductor's random numbers, not
 * modelled). 0.8 (torch 2.6, whose pip wheels draw exponential_ from MKL) and
 * main (fused_gumbel_argmax) are refused. CUDA is not modelled on any line:
 * torch's CUDA generator (Philox) draws other numbers, and FlashInfer or
 * Triton kernels take over in the releases that have them (docs/serving.md). */
#include <string.h>

#include "framework/sl_fw.h"

#define VLLM_0_9 "vLLM 0.9-0.10 V1 sampler on CPU (forward_native: random_sample) on torch 2.x"
#define VLLM_0_8 "vLLM 0.8 V1 sampler on torch 2.6.0 (not modelled)"
#define VLLM_MAIN "vLLM main, commit 01fa3fe7: fused_gumbel_argmax (not modelled)"

/* what every line shares: the pipeline, the torch race, the options */
#define VLLM_TYPE_COMMON                                                                                            \
    .name = "vllm", .variant_bit = SL_OPT_VLLM_VERSION,                                                            \
    .replacement_why = "vLLM's sampler draws one token a request a step (argmax of probs / q): it has no "         \
                       "replacement setting",                                                                      \
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_PENALTY |  \
               SL_OPT_VLLM_VERSION | SL_OPT_CPU | SL_OPT_ROW_SEEDS,                                                 \
    .input_why = "its sampler starts from logits", .pipeline = &sl_logits_pipeline_vllm_type,                     \
    .draw = &sl_draw_torch_type, .rng = "torch-mt19937", .default_seed = 42, .step = sl_fw_after_pipeline_step,   \
    .probs = sl_fw_probs_of_pipeline, .close = sl_fw_after_pipeline_close

static int vllm_greedy(const sl_fw_batch *b)
{
    return !(b->row[0].o.cfg.temperature > 0);
}

/* vLLM 0.9-0.10 forward_native's random_sample (read in v0.8.4's and commit
 * 3babc05a's topk_topp_sampler.py, v0.21.0's too; Sampler.random_sample of
 * sampler.py at 00ec9781 is the same code): q = torch.empty_like(probs) over
 * [B, V]; when some request has no generator (len(generators) != B)
 * q.exponential_() fills all of q from the global generator, row after row, the
 * seeded rows included; then each seeded row i refills q[i].exponential_(generator)
 * from its own. So a seeded row depends on nothing else, an unseeded one on
 * every row before it and every step before. All greedy (T = 0,
 * Sampler.sample's all_greedy): the argmax, no q. */
static int vllm_native_batch_step(sl_fw_batch *b, const sl_vec *rows, sl_error *err)
{
    int greedy = vllm_greedy(b), global = 0, rc = SL_OK;
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

/* vLLM 0.11-0.26 TopKTopPSampler.forward_cpu (x86-64 and Arm; read at commit
 * 3babc05a and v0.21.0) with every request seeded: q.exponential_() over the whole
 * batch from the global generator (every word of it overwritten), then
 * q[i].exponential_(generator) for each request. A request without a seed is
 * refused before (batch_unseeded): it sends the batch to compiled_random_sample. */
static int vllm_cpu_batch_step(sl_fw_batch *b, const sl_vec *rows, sl_error *err)
{
    int greedy = vllm_greedy(b), rc = SL_OK;
    for (size_t r = 0; r < b->B; r++)
        if (!b->own[r] && !greedy)
            return sl_base_error_set(err, SL_EINVAL, "vllm: row %zu has no seed: compiled_random_sample is not "
                                     "modelled by samplab", r);
    for (size_t r = 0; r < b->B && !greedy; r++)
        sl_draw_race_skip(&b->global, rows[r].n);
    for (size_t r = 0; r < b->B && !rc; r++)
        rc = sl_fw_batch_step_row(b, r, &rows[r], b->own[r] ? &b->row[r].rng : &b->global, err);
    return rc;
}

/* The lines samplab names and does not model: one line each, why. */
static int vllm_refused_open(sl_fw_session *s, sl_error *err)
{
    if (!strcmp(s->variant->name, "0.8"))
        return sl_base_error_set(err, SL_EINVAL, "vllm %s 0.8: vLLM 0.8 pins torch 2.6.0, whose x86-64 pip wheels "
                                 "fill exponential_ from MKL's VSL stream (docs/torch-builds.md): not modelled by "
                                 "samplab (%s 0.9 is the same random_sample on torch 2.7+)",
                                 s->o.variant_opt, s->o.variant_opt);
    return sl_base_error_set(err, SL_EINVAL, "vllm %s main: forward_cpu samples through "
                             "torch.ops._C.fused_gumbel_argmax (csrc/cpu/sampling_kernels.cpp, commit 01fa3fe7), "
                             "a C++ kernel whose noise changed from commit to commit: not modelled by samplab",
                             s->o.variant_opt);
}

static const sl_fw_variant vllm_native_variants[] = {
    {"0.9", VLLM_0_9, SL_TORCH_2},
    {NULL, NULL, 0},
};

static const sl_fw_type vllm_native_type = {
    VLLM_TYPE_COMMON,
    .summary = "vLLM 0.9-0.10 V1 sampler (--vllm 0.9): forward_native's random_sample",
    .variants = vllm_native_variants,
    .open = sl_fw_after_pipeline_open,
    .batch_step = vllm_native_batch_step,
    .batch = "forward_native's random_sample (PyTorch exponential_ path): q.exponential_() over the batch from "
             "the global generator when a request has no seed, then q[i].exponential_(generator) for each "
             "seeded request",
};

static const sl_fw_variant vllm_refused_variants[] = {
    {"0.8", VLLM_0_8, SL_TORCH_2},
    {"main", VLLM_MAIN, SL_TORCH_2},
    {NULL, NULL, 0},
};

static const sl_fw_type vllm_refused_type = {
    VLLM_TYPE_COMMON,
    .summary = "vLLM lines samplab names and does not model",
    .variants = vllm_refused_variants,
    .open = vllm_refused_open,
    .batch = "none: the line is refused (its open says why)", /* so a batch reaches that refusal */
};

static const sl_fw_variant vllm_variants[] = {
    {"0.11", "vLLM 0.11-0.26 V1 sampler on an x86-64/Arm CPU (forward_cpu) on torch 2.x", SL_TORCH_2},
    {"0.9", VLLM_0_9, SL_TORCH_2},
    {"0.8", VLLM_0_8, SL_TORCH_2},
    {"main", VLLM_MAIN, SL_TORCH_2},
    {NULL, NULL, 0},
};
static const sl_fw_type *const vllm_runs[] = {NULL, &vllm_native_type, &vllm_refused_type, &vllm_refused_type, NULL};

const sl_fw_type sl_fw_vllm_type = {
    VLLM_TYPE_COMMON,
    .summary = "vLLM V1 sampler on CPU, seeded request: the vllm pipeline, then argmax(probs / q) with "
               "q.exponential_ from torch.Generator().manual_seed(seed) (= torch.multinomial); T < 1e-5 greedy; "
               "--vllm 0.11 (default) or 0.9",
    .variants = vllm_variants,
    .variant_runs = vllm_runs,
    .open = sl_fw_after_pipeline_open,
    .batch_step = vllm_cpu_batch_step,
    .batch = "forward_cpu with every request seeded: q.exponential_() over the batch from the global generator "
             "(overwritten), then q[i].exponential_(generator) for each request",
    .batch_unseeded = "vLLM 0.11-0.26's forward_cpu sends a batch with a request without a seed to "
                      "compiled_random_sample (a torch.compile'd exponential_ over every row, the seeded ones too: "
                      "inductor's random numbers): not modelled by samplab (--vllm 0.9: forward_native)",
};
