/* registry.c — the framework emulations `samplab draw --framework F` knows.
 * Each emulation lives in its own file and exports one const sl_framework_type. */
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

const sl_framework_type *const sl_framework_types[] = {
    /* one line per framework, in the order --help lists them */
    &sl_framework_llamacpp_type,
    &sl_framework_hf_type,
    &sl_framework_vllm_type,
    &sl_framework_torch_type,
    &sl_framework_numpy_type,
    &sl_framework_numpy_legacy_type,
    &sl_framework_gsl_type,
    &sl_framework_candle_type,
    NULL
};

const sl_framework_type *sl_framework_lookup(const char *name)
{
    for (size_t i = 0; sl_framework_types[i]; i++)
        if (!strcmp(sl_framework_types[i]->name, name))
            return sl_framework_types[i];
    return NULL;
}

void sl_fw_result_free(sl_fw_result *r)
{
    free(r->tokens);
    r->tokens = NULL;
}
