/* settings.c — the commands' options as one struct, and the refusal every
 * framework makes of an option it does not have (the command line's rule:
 * the first such option in its table order is named, never ignored). */
#include <string.h>

#include "api/sl_api.h"

void sl_api_settings_init(sl_api_settings *s)
{
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
}

size_t sl_api_settings_size(void)
{
    return sizeof(sl_api_settings);
}

const char *sl_api_refused(const sl_api_settings *s, int is_logits, unsigned accepts)
{
    const sl_logits_cfg *c = &s->cfg;
    /* the option table's order (cli/options.c), with each option's SL_OPT_* bit */
    const struct {
        int given;
        unsigned bit;
        const char *name;
    } t[] = {
        {!is_logits, SL_OPT_PROBS, "--probs"},
        {is_logits, SL_OPT_LOGITS, "--logits"},
        {c->has_temperature, SL_OPT_TEMPERATURE, "--temperature"},
        {c->has_top_k, SL_OPT_TOP_K, "--top-k"},
        {c->has_top_p, SL_OPT_TOP_P, "--top-p"},
        {c->has_min_p, SL_OPT_MIN_P, "--min-p"},
        {s->has_num_samples, SL_OPT_NUM_SAMPLES, "--num-samples"},
        {s->replacement, SL_OPT_REPLACEMENT, "--replacement"},
        {s->dtype != NULL, SL_OPT_DTYPE, "--dtype"},
        {s->torch != NULL, SL_OPT_VARIANT, "--torch"},
        {s->torch_build != NULL, SL_OPT_TORCH_BUILD, "--torch-build"},
        {s->llamacpp != NULL, SL_OPT_LLAMA_VERSION, "--llamacpp"},
        {s->rand != NULL, SL_OPT_RAND_VERSION, "--rand"},
        {s->cpu != NULL, SL_OPT_CPU, "--cpu"},
        {s->simd_sum, SL_OPT_SIMD_SUM, "--simd-sum"},
        {c->has_typical, SL_OPT_TYPICAL, "--typical"},
        {c->has_penalty, SL_OPT_PENALTY, "--repetition-penalty"},
        {s->context != NULL, SL_OPT_PENALTY, "--context"},
        {c->has_min_keep, SL_OPT_MIN_KEEP, "--min-keep"},
        {c->defaults, SL_OPT_DEFAULTS, "--defaults"},
        {c->has_last_n, SL_OPT_LAST_N, "--penalty-last-n"},
        {c->has_freq, SL_OPT_FREQ_PRESENCE, "--frequency-penalty"},
        {c->has_presence, SL_OPT_FREQ_PRESENCE, "--presence-penalty"},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (t[i].given && !(t[i].bit & accepts))
            return t[i].name;
    return NULL;
}
