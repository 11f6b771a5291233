/* stage_filters.c — llama.cpp's four truncation stages as stage types: top_k,
 * typ_p (typical), top_p, min_p. They keep no history; each is the filter of
 * logits/llamacpp.c with its settings.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp llama_sampler_init_top_k /
 * _typical / _top_p / _min_p and their apply functions, with common/common.h's
 * defaults (0.7.0) as each parameter's def: the one place they are written
 * (the llamacpp pipeline's defaults table points here). A filter at its off
 * value (top_k 0, top_p 1, min_p 0) is the no-op llama.cpp names "?top-k". */
#include <math.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct filter {
    long k;           /* top_k */
    float p;          /* typ_p, top_p, min_p */
    size_t min_keep;
} filter;

#define MIN_KEEP_PARAM                                                                                                 \
    {"min_keep", SL_LOGITS_PARAM_INT, 0, 0, HUGE_VAL, "min_keep",                                                      \
     "the fewest candidates the filter leaves (0: its own rule)"}

static const sl_logits_param top_k_params[] = {
    {"top_k", SL_LOGITS_PARAM_INT, 40, -HUGE_VAL, HUGE_VAL, "top_k", "keep exactly the K largest logits (<= 0: off)"},
};
static const sl_logits_param typical_params[] = {
    {"typ_p", SL_LOGITS_PARAM_FLOAT, 1.0, -HUGE_VAL, HUGE_VAL, "typical",
     "locally typical sampling: the mass P closest to the entropy (>= 1: off)"},
    MIN_KEEP_PARAM,
};
static const sl_logits_param top_p_params[] = {
    {"top_p", SL_LOGITS_PARAM_FLOAT, 0.95, -HUGE_VAL, HUGE_VAL, "top_p",
     "keep through the token where the descending sum reaches P (>= 1: off)"},
    MIN_KEEP_PARAM,
};
static const sl_logits_param min_p_params[] = {
    {"min_p", SL_LOGITS_PARAM_FLOAT, 0.05, -HUGE_VAL, HUGE_VAL, "min_p",
     "keep logits >= max + ln P (<= 0: off)"},
    MIN_KEEP_PARAM,
};

static size_t min_keep_of(const sl_logits_cfg *c)
{
    return c->min_keep > 0 ? (size_t)c->min_keep : 0;
}

static int top_k_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    filter *f = st;
    f->k = c->top_k;
    f->p = 0.0f;
    f->min_keep = 0;
    return SL_OK;
}
static int typical_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    filter *f = st;
    f->k = 0;
    f->p = (float)c->typical;
    f->min_keep = min_keep_of(c);
    return SL_OK;
}
static int top_p_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    filter *f = st;
    f->k = 0;
    f->p = (float)c->top_p;
    f->min_keep = min_keep_of(c);
    return SL_OK;
}
static int min_p_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    filter *f = st;
    f->k = 0;
    f->p = (float)c->min_p;
    f->min_keep = min_keep_of(c);
    return SL_OK;
}

static int top_k_active(const void *st) { return ((const filter *)st)->k > 0; }
static int typical_active(const void *st) { return ((const filter *)st)->p < 1.0f; }
static int top_p_active(const void *st) { return ((const filter *)st)->p < 1.0f; }
static int min_p_active(const void *st) { return ((const filter *)st)->p > 0.0f; }

static const char *top_k_step(const void *st) { (void)st; return "top-k"; }
static const char *typical_step(const void *st) { (void)st; return "typical"; }
static const char *top_p_step(const void *st) { (void)st; return "top-p"; }
static const char *min_p_step(const void *st) { (void)st; return "min-p"; }

static int top_k_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    return sl_logits_llama_top_k(a, ((const filter *)st)->k, err);
}
static int typical_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    const filter *f = st;
    return sl_logits_llama_typical(a, f->p, f->min_keep, err);
}
static int top_p_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    const filter *f = st;
    return sl_logits_llama_top_p(a, f->p, f->min_keep, err);
}
static int min_p_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    const filter *f = st;
    return sl_logits_llama_min_p(a, f->p, f->min_keep, err);
}

#define FILTER(var, nm, lb, ch, up, pr, stem)                                                                          \
    const sl_logits_stage_type var = {                                                                                 \
        .name = nm,                                                                                                    \
        .label = lb,                                                                                                   \
        .letter = ch,                                                                                                  \
        .upstream = up,                                                                                                \
        .params = pr,                                                                                                  \
        .n_params = sizeof pr / sizeof *pr,                                                                            \
        .size = sizeof(filter),                                                                                        \
        .init = stem##_init,                                                                                           \
        .active = stem##_active,                                                                                       \
        .step = stem##_step,                                                                                           \
        .apply = stem##_apply,                                                                                         \
    }

FILTER(sl_logits_stage_top_k, "top_k", "top-k", 'k', "llama_sampler_init_top_k, llama_sampler_top_k_impl",
       top_k_params, top_k);
FILTER(sl_logits_stage_typical, "typ_p", "typical", 'y', "llama_sampler_init_typical, llama_sampler_typical_apply",
       typical_params, typical);
FILTER(sl_logits_stage_top_p, "top_p", "top-p", 'p', "llama_sampler_init_top_p, llama_sampler_top_p_apply",
       top_p_params, top_p);
FILTER(sl_logits_stage_min_p, "min_p", "min-p", 'm', "llama_sampler_init_min_p, llama_sampler_min_p_apply",
       min_p_params, min_p);
