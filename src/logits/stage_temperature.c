/* stage_temperature.c — llama.cpp's temperature stage as a stage type.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp llama_sampler_init_temp_ext(temp,
 * dynatemp_range 0, exponent 1) — what common_sampler_init adds for
 * "temperature" — which with a zero range is llama_sampler_temp_impl
 * (sl_logits_llama_temp, logits/llamacpp.c): logit / temp in float, and at
 * temp <= 0 the first maximum kept, every other logit -inf. Default temp 0.8
 * (common/common.h, 0.7.0) under --defaults, else 1 (a division by 1, skipped).
 * Dynamic temperature (--dynatemp-range) is not modelled. */
#include <math.h>

#include "logits/sl_logits.h"

typedef struct temperature {
    float t;
} temperature;

static const sl_logits_param temperature_params[] = {
    {"temp", SL_LOGITS_PARAM_FLOAT, 0.8, -HUGE_VAL, HUGE_VAL, "--temperature",
     "logit / T; T <= 0 keeps the first maximum only", "--temp"},
};

static int temperature_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    ((temperature *)st)->t = (float)(c->has_temperature ? c->temperature : c->defaults ? 0.8 : 1.0);
    return SL_OK;
}

static int temperature_active(const void *st)
{
    return ((const temperature *)st)->t != 1.0f;
}

static const char *temperature_step(const void *st)
{
    return ((const temperature *)st)->t <= 0.0f ? "temp (<= 0: first max only)" : "temp";
}

/* common_sampler_init (0.7.0) ends in greedy after a last temperature at temp <= 0 (measured:
 * llama-completion's chains in data/golden/current/llamacpp_orders.txt) */
static int temperature_ends_greedy(const void *st)
{
    return ((const temperature *)st)->t <= 0.0f;
}

static int temperature_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    (void)err;
    sl_logits_llama_temp(a, ((const temperature *)st)->t);
    return SL_OK;
}

const sl_logits_stage_type sl_logits_stage_temperature = {
    .name = "temperature",
    .label = "temp-ext",
    .letter = 't',
    .upstream = "llama_sampler_init_temp_ext (range 0), llama_sampler_temp_impl",
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
