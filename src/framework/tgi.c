/* tgi.c — one sampling step of Text Generation Inference 3.3 for a request, as
 * `samplab draw --framework tgi` runs it: the tgi pipeline (logits/tgi.c), then
 * server/text_generation_server/utils/tokens.py Sampling.__call__ (v3.3.7):
 * probs = softmax(logits), q = torch.empty_like(probs).exponential_(1,
 * generator=g), token = probs.div_(q).argmax(), with the request's own
 * torch.Generator(device).manual_seed(seed) (HeterogeneousSampling keeps one per
 * sampling request, for the request's life). Word for word torch.multinomial's
 * race, so the draw is the torch framework's. Every request has its generator:
 * the router gives a request without a seed a random one (router/src/validation.rs,
 * thread_rng().gen()), so a row never depends on the rest of its batch.
 *
 * Modelled: a sampling request (do_sample true, or any warper set) on CPU, model
 * dtype float32. Known divergences: on a GPU the generator is CUDA's Philox
 * (other numbers); do_sample false without warpers is greedy (--do-sample is
 * refused by name). */
#include "framework/sl_fw.h"

static const sl_fw_variant tgi_variants[] = {
    {"2", "text-generation-inference v3.3.7 (HeterogeneousNextTokenChooser, CPU) on torch 2.x", SL_TORCH_2},
    {NULL, NULL, 0},
};

/* NextTokenChooser's parameters samplab does not model (tokens.py, v3.3.7) */
static const char *const tgi_unmodelled[] = {
    "--frequency-penalty", "TGI's frequency_penalty (HeterogeneousFrequencyPenaltyLogitsProcessor)",
    "--logit-bias", "TGI's chat logit_bias, which v3.3.7 takes and ignores (router/src/lib.rs: UNUSED),",
    NULL,
};

const sl_fw_type sl_fw_tgi_type = {
    .name = "tgi",
    .summary = "TGI 3.3 sampling request: the tgi warpers, then probs.div_(q).argmax() with q.exponential_ from the "
               "request's torch.Generator().manual_seed(seed) (= torch.multinomial)",
    .variant_bit = SL_OPT_VARIANT,
    .variants = tgi_variants,
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_TYPICAL | SL_OPT_PENALTY |
        SL_OPT_CPU | SL_OPT_ROW_SEEDS,
    .input_why = "its sampler starts from logits",
    .pipeline = &sl_logits_pipeline_tgi_type,
    .draw = &sl_draw_torch_type,
    .rng = "torch-mt19937",
    .default_seed = 42,
    .open = sl_fw_after_pipeline_open,
    .step = sl_fw_after_pipeline_step,
    .probs = sl_fw_probs_of_pipeline,
    .close = sl_fw_after_pipeline_close,
    .batch = "tokens.py HeterogeneousSampling: each sampling request's own Sampling(seed), "
                  "q = empty_like(probs).exponential_(1, generator), probs.div_(q).argmax(), rows in batch order",
    .unmodelled = tgi_unmodelled,
    .batch_unseeded = "TGI's router gives a request without a seed a random one (router/src/validation.rs "
                      "thread_rng().gen()); give the seed its response reports (details.seed)",
};
