/* registry.c — the framework emulations `samplab draw --framework F` knows.
 * Each emulation lives in its own file and exports one const sl_fw_type. */
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

/* one line per framework, in the order --help lists them */
#ifndef SL_NO_GSL /* the WebAssembly page is built without GSL */
#define SL_FW_GSL &sl_fw_gsl_type,
#else
#define SL_FW_GSL
#endif
#define SL_FW_RUN_UNNAMED                                                                                    \
    &sl_fw_llamacpp_type, &sl_fw_hf_type, &sl_fw_vllm_type, &sl_fw_torch_type, &sl_fw_numpy_type,             \
        &sl_fw_numpy_legacy_type, SL_FW_GSL &sl_fw_candle_type,

const sl_fw_type *const sl_fw_types[] = {SL_FW_RUN_UNNAMED NULL};

/* The same, then those run only when named with their release line
 * (--framework ollama --ollama 0.24), or by name (node-llama-cpp, tgi, sglang, transformers-js, tfjs; rand, whose f32 draw is
 * candle's): not in `replay --framework all` or the report. */
const sl_fw_type *const sl_fw_types_all[] = {SL_FW_RUN_UNNAMED &sl_fw_ollama_type, &sl_fw_nlc_type, &sl_fw_tgi_type,
                                             &sl_fw_sglang_type, &sl_fw_rand_type, &sl_fw_tjs_type,
                                             &sl_fw_jax_type, &sl_fw_mlx_type, &sl_fw_tfjs_type,
                                             NULL};

const sl_fw_type *sl_fw_lookup_as(const char *name, const char *variant)
{
    const sl_fw_type *t = sl_fw_lookup(name);
    for (size_t i = 0; t && t->variants && t->variant_runs && t->variants[i].name; i++)
        if ((variant ? !strcmp(t->variants[i].name, variant) : i == 0) && t->variant_runs[i])
            return t->variant_runs[i];
    return t;
}

const sl_fw_type *sl_fw_lookup(const char *name)
{
    for (size_t i = 0; name && sl_fw_types_all[i]; i++)
        if (!strcmp(sl_fw_types_all[i]->name, name))
            return sl_fw_types_all[i];
    return NULL;
}

void sl_fw_result_free(sl_fw_result *r)
{
    free(r->tokens);
    r->tokens = NULL;
}

const sl_stat_exact_type *const sl_fw_exact_types[] = {
    &sl_draw_rand_wi_exact,
    &sl_draw_rand_wi9_exact,
    &sl_draw_numpy_exact,
    &sl_draw_torch_race_exact,
    &sl_draw_torch113_race_exact,
    &sl_draw_torch_repl_exact,
#ifndef SL_NO_GSL
    &sl_fw_gsl_exact,
#endif
    &sl_draw_linear_exact,
    &sl_draw_cdf_exact,
    &sl_draw_gumbel_exact,
    &sl_draw_alias_exact,
    &sl_draw_llama_dist_exact,
    &sl_fw_ollama_exact,
    NULL
};

const sl_stat_exact_type *sl_fw_exact_lookup(const char *name)
{
    for (size_t i = 0; name && sl_fw_exact_types[i]; i++)
        if (!strcmp(sl_fw_exact_types[i]->name, name))
            return sl_fw_exact_types[i];
    return NULL;
}
