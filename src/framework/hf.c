/* hf.c — one sampling step of transformers' generate(do_sample=True) as
 * `samplab draw --framework hf` runs it: the hf logits pipeline
 * (logits/hf.c: penalties and warpers in generate's order, float32 as torch
 * computes them), then _sample's probs = softmax(scores) and
 * torch.multinomial(probs, num_samples=1) — the exponential race of the torch
 * framework (framework/torch.c) on torch's CPU generator after
 * torch.manual_seed(seed). Calls are successive multinomial calls on the same
 * probabilities (the generator advances; the context does not grow).
 *
 * Reproduces transformers' generation/utils.py _sample with torch 1.13 (or
 * --torch 2). Checked end to end against real torch 1.13.1 running the warpers
 * re-expressed in torch ops (data/golden/hf_pipeline.txt, draw lines).
 * Known divergences: those of its two parts; with --torch 2 only the race
 * follows torch 2.x — the pipeline's float32 kernels (softmax, sort tie order)
 * were checked against torch 1.13 only. */
#include "framework/sl_fw.h"

static const sl_fw_variant hf_variants[] = {
    {"2", "transformers 5.12.1 generate() on torch 2.14.1", SL_TORCH_2},
    {"1.13", "transformers 4.x generate() processors on torch 1.13.1", SL_TORCH_1_13},
    {NULL, NULL, 0},
};

const sl_fw_type sl_fw_hf_type = {
    .name = "hf",
    .summary = "transformers generate(do_sample=True) step: the hf pipeline (float32 as torch), then "
               "torch.multinomial(probs, 1) after torch.manual_seed (torch 2.x, transformers 5.x; --torch 1.13)",
    .variant_bit = SL_OPT_VARIANT,
    .variants = hf_variants,
    .replacement_why = "transformers' generate() draws torch.multinomial(probs, num_samples=1) a step: it has no replacement setting",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL |
        SL_OPT_PENALTY | SL_OPT_MIN_KEEP | SL_OPT_VARIANT | SL_OPT_CPU | SL_OPT_GEN_BATCH,
    .input_why = "generate samples from scores",
    .pipeline = &sl_logits_pipeline_hf_type,
    .draw = &sl_draw_torch_type,
    .rng = "torch-mt19937",
    .default_seed = 42,
    .open = sl_fw_after_pipeline_open,
    .step = sl_fw_after_pipeline_step,
    .probs = sl_fw_probs_of_pipeline,
    .close = sl_fw_after_pipeline_close,
    .batch = "one torch.multinomial(probs, 1) over the [B, V] probabilities a step (_sample): rows in order from "
             "the default generator, 2·V words each; each row's processors over its own input_ids row",
    .batch_gen = 1,
    .batch_rect = 1,
};
