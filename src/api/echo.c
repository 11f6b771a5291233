/* echo.c — what --json says about the sampling settings a run used: "settings",
 * each setting of the framework's pipeline with the value in force (null where
 * the library's default is "unset", e.g. transformers' min_p None), and
 * "defaulted", the names of those the framework's defaults decided because the
 * caller left them unset (logits/defaults.c applies them). */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "api/sl_api.h"

/* The settings echoed: those t has a default for or that given sets. */
static int echoed(const sl_logits_pipeline_type *t, const sl_logits_cfg *given, sl_logits_key k)
{
    double v;
    return (sl_logits_key_opt(k) & t->accepts) && (sl_logits_default_of(t, k) || sl_logits_cfg_get(given, k, &v));
}

void sl_api_settings_echo(json_t *o, const sl_logits_pipeline_type *t, const sl_logits_cfg *given)
{
    sl_logits_cfg c = *given;
    unsigned got;
    sl_logits_cfg_resolve(t, &c, &got);
    json_t *set = json_object(), *def = json_array();
    for (int k = 0; k < SL_KEY_COUNT; k++) {
        double v;
        if (!echoed(t, given, (sl_logits_key)k))
            continue;
        const char *name = sl_logits_key_name((sl_logits_key)k);
        int is_int = k == SL_KEY_TOP_K || k == SL_KEY_LAST_N || k == SL_KEY_MIN_KEEP || k == SL_KEY_DRY_ALLOWED ||
                     k == SL_KEY_DRY_LAST_N;
        json_object_set_new(set, name,
                            !sl_logits_cfg_get(&c, (sl_logits_key)k, &v) ? json_null()
                            : is_int                                    ? json_integer((json_int_t)v)
                                                                        : json_real(v));
        if (got & (1u << k))
            json_array_append_new(def, json_string(name));
    }
    json_object_set_new(o, "settings", set);
    json_object_set_new(o, "defaulted", def);
}

int sl_api_settings_digits(const sl_logits_pipeline_type *t, const sl_logits_cfg *given, int min)
{
    sl_logits_cfg c = *given;
    sl_logits_cfg_resolve(t, &c, NULL);
    int digits = min;
    for (int k = 0; k < SL_KEY_COUNT; k++) {
        double v;
        if (!echoed(t, given, (sl_logits_key)k) || !sl_logits_cfg_get(&c, (sl_logits_key)k, &v))
            continue;
        /* the fewest digits that read back as v, as Python's repr prints it */
        int p = 1;
        char b[40];
        for (; p < 17; p++) {
            snprintf(b, sizeof b, "%.*g", p, v);
            if (strtod(b, NULL) == v)
                break;
        }
        if (p > digits)
            digits = p;
    }
    return digits;
}
