/* defaults.c — the settings a pipeline runs with. A setting the caller leaves
 * unset takes its framework's default as the real library applies it to an
 * unset argument (the table each pipeline type carries, with the upstream name):
 * transformers' generate() fills top_k with 50, llama.cpp's common_params_sampling
 * holds top_k 40 and temperature 0.8, candle's LogitsProcessor::new(seed, None,
 * None) is ArgMax. sl_logits_cfg_resolve is the one place they are applied. */
#include <math.h>
#include <stddef.h>

#include "logits/sl_logits.h"

/* Each key's name, option bit and fields in sl_logits_cfg (has_ flag, value). */
static const struct {
    const char *name;
    unsigned opt;
    size_t has, val;
    int is_long;
} keys[SL_KEY_COUNT] = {
    [SL_KEY_TEMPERATURE] = {"temperature", SL_OPT_TEMPERATURE, offsetof(sl_logits_cfg, has_temperature),
                            offsetof(sl_logits_cfg, temperature), 0},
    [SL_KEY_TOP_K] = {"top_k", SL_OPT_TOP_K, offsetof(sl_logits_cfg, has_top_k), offsetof(sl_logits_cfg, top_k), 1},
    [SL_KEY_TOP_P] = {"top_p", SL_OPT_TOP_P, offsetof(sl_logits_cfg, has_top_p), offsetof(sl_logits_cfg, top_p), 0},
    [SL_KEY_MIN_P] = {"min_p", SL_OPT_MIN_P, offsetof(sl_logits_cfg, has_min_p), offsetof(sl_logits_cfg, min_p), 0},
    [SL_KEY_TYPICAL] = {"typical", SL_OPT_TYPICAL, offsetof(sl_logits_cfg, has_typical),
                        offsetof(sl_logits_cfg, typical), 0},
    [SL_KEY_PENALTY] = {"repetition_penalty", SL_OPT_PENALTY, offsetof(sl_logits_cfg, has_penalty),
                        offsetof(sl_logits_cfg, penalty), 0},
    [SL_KEY_FREQ] = {"frequency_penalty", SL_OPT_FREQ_PRESENCE, offsetof(sl_logits_cfg, has_freq),
                     offsetof(sl_logits_cfg, freq), 0},
    [SL_KEY_PRESENCE] = {"presence_penalty", SL_OPT_FREQ_PRESENCE, offsetof(sl_logits_cfg, has_presence),
                         offsetof(sl_logits_cfg, presence), 0},
    [SL_KEY_LAST_N] = {"penalty_last_n", SL_OPT_LAST_N, offsetof(sl_logits_cfg, has_last_n),
                       offsetof(sl_logits_cfg, last_n), 1},
    [SL_KEY_MIN_KEEP] = {"min_keep", SL_OPT_MIN_KEEP, offsetof(sl_logits_cfg, has_min_keep),
                         offsetof(sl_logits_cfg, min_keep), 1},
    [SL_KEY_XTC_P] = {"xtc_probability", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_xtc_p),
                      offsetof(sl_logits_cfg, xtc_p), 0},
    [SL_KEY_XTC_T] = {"xtc_threshold", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_xtc_t),
                      offsetof(sl_logits_cfg, xtc_t), 0},
    [SL_KEY_NSIGMA] = {"top_nsigma", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_nsigma),
                       offsetof(sl_logits_cfg, nsigma), 0},
    [SL_KEY_DYN_RANGE] = {"dynatemp_range", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_dyn_range),
                          offsetof(sl_logits_cfg, dyn_range), 0},
    [SL_KEY_DYN_EXP] = {"dynatemp_exp", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_dyn_exp),
                        offsetof(sl_logits_cfg, dyn_exp), 0},
    [SL_KEY_DRY_MULT] = {"dry_multiplier", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_dry_mult),
                         offsetof(sl_logits_cfg, dry_mult), 0},
    [SL_KEY_DRY_BASE] = {"dry_base", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_dry_base),
                         offsetof(sl_logits_cfg, dry_base), 0},
    [SL_KEY_DRY_ALLOWED] = {"dry_allowed_length", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_dry_allowed),
                            offsetof(sl_logits_cfg, dry_allowed), 1},
    [SL_KEY_DRY_LAST_N] = {"dry_penalty_last_n", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_dry_last_n),
                           offsetof(sl_logits_cfg, dry_last_n), 1},
    [SL_KEY_MIROSTAT] = {"mirostat", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_mirostat),
                         offsetof(sl_logits_cfg, mirostat), 1},
    [SL_KEY_MIROSTAT_ENT] = {"mirostat_ent", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_mirostat_tau),
                             offsetof(sl_logits_cfg, mirostat_tau), 0},
    [SL_KEY_MIROSTAT_LR] = {"mirostat_lr", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_mirostat_eta),
                            offsetof(sl_logits_cfg, mirostat_eta), 0},
    [SL_KEY_ADAPTIVE_TARGET] = {"adaptive_target", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_adaptive_target),
                                offsetof(sl_logits_cfg, adaptive_target), 0},
    [SL_KEY_ADAPTIVE_DECAY] = {"adaptive_decay", SL_OPT_ORDER, offsetof(sl_logits_cfg, has_adaptive_decay),
                               offsetof(sl_logits_cfg, adaptive_decay), 0},
    [SL_KEY_NGRAM] = {"no_repeat_ngram_size", SL_OPT_TJS_VERSION, offsetof(sl_logits_cfg, has_ngram),
                      offsetof(sl_logits_cfg, ngram), 1},
};

const char *sl_logits_key_name(sl_logits_key k)
{
    return (unsigned)k < SL_KEY_COUNT ? keys[k].name : NULL;
}

unsigned sl_logits_key_opt(sl_logits_key k)
{
    return (unsigned)k < SL_KEY_COUNT ? keys[k].opt : 0;
}

int sl_logits_key_is_int(sl_logits_key k)
{
    return (unsigned)k < SL_KEY_COUNT && keys[k].is_long;
}

int sl_logits_cfg_get(const sl_logits_cfg *c, sl_logits_key k, double *v)
{
    const char *b = (const char *)c;
    if ((unsigned)k >= SL_KEY_COUNT || !*(const int *)(const void *)(b + keys[k].has))
        return 0;
    *v = keys[k].is_long ? (double)*(const long *)(const void *)(b + keys[k].val)
                         : *(const double *)(const void *)(b + keys[k].val);
    return 1;
}

void sl_logits_cfg_set(sl_logits_cfg *c, sl_logits_key k, double v)
{
    char *b = (char *)c;
    if ((unsigned)k >= SL_KEY_COUNT)
        return;
    *(int *)(void *)(b + keys[k].has) = 1;
    if (keys[k].is_long)
        *(long *)(void *)(b + keys[k].val) = (long)v;
    else
        *(double *)(void *)(b + keys[k].val) = v;
}

const sl_logits_default *sl_logits_default_of(const sl_logits_pipeline_type *t, sl_logits_key k)
{
    for (const sl_logits_default *d = t->defaults; d && d->key != SL_KEY_COUNT; d++)
        if (d->key == k)
            return d;
    return NULL;
}

double sl_logits_default_value(const sl_logits_default *d)
{
    return d->stage ? d->stage->params[d->param].def : d->value;
}

void sl_logits_cfg_resolve(const sl_logits_pipeline_type *t, sl_logits_cfg *c, unsigned *defaulted)
{
    unsigned got = 0;
    double v;
    for (const sl_logits_default *d = t->defaults; d && d->key != SL_KEY_COUNT; d++) {
        if (sl_logits_cfg_get(c, d->key, &v))
            continue;
        got |= 1u << d->key;
        if (!d->none)
            sl_logits_cfg_set(c, d->key, sl_logits_default_value(d));
    }
    if (defaulted)
        *defaulted = got;
}

int sl_logits_cfg_check(const sl_logits_cfg *c, const char *call, sl_error *err)
{
    SL_BASE_NONNULL(err, call, c);
    for (int k = 0; k < SL_KEY_COUNT; k++) {
        double v;
        if (!keys[k].is_long && sl_logits_cfg_get(c, (sl_logits_key)k, &v) && !isfinite(v))
            return sl_base_error_set(err, SL_EINVAL, "%s: %s is %s; a setting is a finite number", call,
                                     keys[k].name, isnan(v) ? "NaN" : v > 0 ? "+infinity" : "-infinity");
    }
    SL_BASE_NONNULL_N(err, call, c->context, c->context_n);
    SL_BASE_NONNULL_N(err, call, c->bias_token, c->n_bias);
    SL_BASE_NONNULL_N(err, call, c->bias, c->n_bias);
    SL_BASE_NONNULL_N(err, call, c->dry_breaker, c->dry_breaker_n);
    if (c->has_order && c->n_order > SL_LOGITS_ORDER_MAX)
        return sl_base_error_set(err, SL_EINVAL, "%s: %zu stages in the order, at most %d", call, c->n_order,
                                 SL_LOGITS_ORDER_MAX);
    for (size_t i = 0; c->has_order && i < c->n_order; i++)
        if (!c->order[i])
            return sl_base_error_set(err, SL_EINVAL, "%s: stage %zu of the order is NULL", call, i);
    return SL_OK;
}
