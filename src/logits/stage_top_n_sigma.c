/* stage_top_n_sigma.c — llama.cpp's top-n-sigma stage as a stage type.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp llama_sampler_init_top_n_sigma(n)
 * and llama_sampler_top_n_sigma_apply (read in v0.4.0, measured on libllama
 * 0.7.0: analysis/golden/current/llamacpp_stages.c): over the logits that are
 * not -inf, the max, the float mean and the standard deviation (each squared
 * deviation is pow(float, 2) in double, added into a float), then every logit
 * below max - n * std becomes -inf; the array keeps its size and order.
 * n <= 0 is the empty "?top-n-sigma"; default -1 (common/common.h 0.7.0). */
#include <math.h>

#include "logits/sl_logits.h"

typedef struct nsigma {
    float n;
} nsigma;

static const sl_logits_param nsigma_params[] = {
    {"top_n_sigma", SL_LOGITS_PARAM_FLOAT, -1.0, -HUGE_VAL, HUGE_VAL, "top_nsigma",
     "keep logits >= max - N * std of the finite logits (<= 0: off)"},
};

static int nsigma_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    ((nsigma *)st)->n = (float)c->nsigma;
    return SL_OK;
}

static int nsigma_active(const void *st)
{
    return ((const nsigma *)st)->n > 0.0f;
}

static const char *nsigma_step(const void *st)
{
    (void)st;
    return "top-n-sigma";
}

static int nsigma_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    (void)err;
    const float n = ((const nsigma *)st)->n;
    if (a->size <= 1)
        return SL_OK;
    float max = a->data[0].logit, sum = 0.0f;
    size_t valid = 0;
    for (size_t i = 0; i < a->size; i++)
        if (a->data[i].logit != -INFINITY) {
            max = fmaxf(max, a->data[i].logit);
            sum += a->data[i].logit;
            valid++;
        }
    const float mean = valid ? sum / (float)valid : 0.0f;
    float acc = 0.0f;
    for (size_t i = 0; i < a->size; i++)
        if (a->data[i].logit != -INFINITY) {
            double d = (double)(a->data[i].logit - mean);
            acc = (float)((double)acc + d * d);
        }
    const float sd = valid ? sqrtf(acc / (float)valid) : 0.0f;
    const float cut = max - n * sd;
    for (size_t i = 0; i < a->size; i++)
        if (a->data[i].logit < cut)
            a->data[i].logit = -INFINITY;
    return SL_OK;
}

const sl_logits_stage_type sl_logits_stage_top_n_sigma = {
    .name = "top_n_sigma",
    .label = "top-n-sigma",
    .letter = 's',
    .upstream = "llama_sampler_init_top_n_sigma, llama_sampler_top_n_sigma_apply",
    .params = nsigma_params,
    .n_params = sizeof nsigma_params / sizeof *nsigma_params,
    .size = sizeof(nsigma),
    .init = nsigma_init,
    .active = nsigma_active,
    .step = nsigma_step,
    .apply = nsigma_apply,
};
