/* stage_temperature.c — llama.cpp's temperature stage as a stage type.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp llama_sampler_init_temp_ext(temp,
 * dynatemp_range 0, exponent 1) — what common_sampler_init adds for
 * "temperature" — which with a zero range is llama_sampler_temp_impl
 * (sl_logits_llama_temp, logits/llamacpp.c): logit / temp in float, and at
 * temp <= 0 the first maximum kept, every other logit -inf. Default temp 0.8
 * (common/common.h, 0.7.0), its parameter's def; at 1 a division by 1, skipped.
 * Dynamic temperature (range > 0, llama_sampler_temp_ext_apply, read in v0.4.0
 * and measured on 0.7.0: analysis/golden/current/llamacpp_stages.c): on two or
 * more candidates, sort and softmax, the float entropy over p > 0 divided by
 * -logf(1/size), T = max(0, t - range) + 2 range * powf(H, exp), logits / T
 * (or the first maximum at T <= 0), and p recomputed with exp in double. */
#include <math.h>

#include "logits/sl_logits.h"

typedef struct temperature {
    float t, delta, exponent;
} temperature;

static const sl_logits_param temperature_params[] = {
    {"temp", SL_LOGITS_PARAM_FLOAT, 0.8, -HUGE_VAL, HUGE_VAL, "temperature",
     "logit / T; T <= 0 keeps the first maximum only"},
    {"dynatemp_range", SL_LOGITS_PARAM_FLOAT, 0.0, -HUGE_VAL, HUGE_VAL, "dynatemp_range",
     "dynamic temperature in [T - R, T + R] by the normalised entropy (<= 0: plain T)"},
    {"dynatemp_exponent", SL_LOGITS_PARAM_FLOAT, 1.0, -HUGE_VAL, HUGE_VAL, "dynatemp_exp",
     "dynamic temperature: the entropy's exponent"},
};

static int temperature_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    temperature *t = st; /* the settings in force (sl_logits_chain_new_llama resolved them) */
    t->t = (float)c->temperature;
    t->delta = (float)c->dyn_range;
    t->exponent = (float)c->dyn_exp;
    return SL_OK;
}

static int temperature_active(const void *st)
{
    const temperature *t = st;
    return t->t != 1.0f || t->delta > 0.0f;
}

static const char *temperature_step(const void *st)
{
    const temperature *t = st;
    return t->delta > 0.0f ? "temp-ext (dynamic)" : t->t <= 0.0f ? "temp (<= 0: first max only)" : "temp";
}

/* common_sampler_init (0.7.0) ends in greedy after a last temperature at temp <= 0 (measured:
 * llama-completion's chains in data/golden/current/llamacpp_orders.txt) */
static int temperature_ends_greedy(const void *st)
{
    return ((const temperature *)st)->t <= 0.0f;
}

static int temperature_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    const temperature *t = st;
    if (!(t->delta > 0.0f)) {
        sl_logits_llama_temp(a, t->t);
        return SL_OK;
    }
    if (a->size <= 1)
        return SL_OK;
    const float lo = fmaxf(0.0f, t->t - t->delta), hi = t->t + t->delta;
    const float max_entropy = -logf(1.0f / (float)a->size);
    int rc = sl_logits_llama_softmax(a, 1, err);
    if (rc)
        return rc;
    float entropy = 0.0f;
    for (size_t i = 0; i < a->size; i++)
        if (a->data[i].p > 0.0f)
            entropy -= a->data[i].p * logf(a->data[i].p);
    const float dyn = lo + (hi - lo) * powf(entropy / max_entropy, t->exponent);
    sl_logits_llama_temp(a, dyn);
    const double max_l = a->data[0].logit;
    double sum = 0.0;
    for (size_t i = 0; i < a->size; i++) {
        double p = exp(a->data[i].logit - max_l);
        a->data[i].p = (float)p;
        sum += p;
    }
    for (size_t i = 0; i < a->size; i++)
        a->data[i].p = (float)(a->data[i].p / sum);
    return SL_OK;
}

const sl_logits_stage_type sl_logits_stage_temperature = {
    .name = "temperature",
    .label = "temp-ext",
    .letter = 't',
    .upstream = "llama_sampler_init_temp_ext, llama_sampler_temp_ext_apply, llama_sampler_temp_impl",
    .params = temperature_params,
    .n_params = sizeof temperature_params / sizeof *temperature_params,
    .size = sizeof(temperature),
    .init = temperature_init,
    .active = temperature_active,
    .step = temperature_step,
    .apply = temperature_apply,
    .ends_greedy = temperature_ends_greedy,
};

/* llama_sampler_init_temp(temp): the plain temperature common_sampler_init puts before mirostat
 * (no dynamic range; the same llama_sampler_temp_impl), printed "temp" */
const sl_logits_stage_type sl_logits_stage_temp_plain = {
    .name = "temperature",
    .label = "temp",
    .letter = 't',
    .upstream = "llama_sampler_init_temp, llama_sampler_temp_impl",
    .params = temperature_params,
    .n_params = sizeof temperature_params / sizeof *temperature_params,
    .size = sizeof(temperature),
    .init = temperature_init,
    .active = temperature_active,
    .step = temperature_step,
    .apply = temperature_apply,
};
