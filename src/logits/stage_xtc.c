/* stage_xtc.c — llama.cpp's XTC ("exclude top choices") stage as a stage type.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp llama_sampler_init_xtc(p, t,
 * min_keep, seed) and llama_sample_xtc_apply (read in v0.4.0's source, measured
 * on libllama 0.7.0: analysis/golden/current/llamacpp_stages.c). p <= 0 or
 * t > 0.5 make the empty sampler "?xtc" (no generator, no draw). Otherwise each
 * apply on two or more candidates draws one std::uniform_real_distribution<float>
 * from its own std::mt19937(seed) (sl_rng_uniform_f32_stdcxx: one word, or a
 * second where libllama's compiler is GCC >= 15 and the first rounds to 1), even
 * when it then removes nothing; a draw above p leaves the array. Else the array
 * is sorted and softmaxed (llama_sampler_softmax_impl) and the candidates before
 * the last one whose p >= t are removed, when that leaves at least min_keep and
 * removes one or more. A one-candidate array returns before the draw.
 * Defaults (common/common.h 0.7.0): p 0, t 0.1; min_keep is the chain's. */
#include <math.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct xtc {
    float p, t;
    size_t min_keep;
    uint32_t seed;
    sl_rng_stdcxx stdcxx;
    sl_rng_mt19937_state mt;
    uint64_t words;
} xtc;

static const sl_logits_param xtc_params[] = {
    {"xtc_probability", SL_LOGITS_PARAM_FLOAT, 0.0, -HUGE_VAL, HUGE_VAL, "xtc_probability",
     "chance that XTC removes the top choices at a step (<= 0: off)"},
    {"xtc_threshold", SL_LOGITS_PARAM_FLOAT, 0.1, -HUGE_VAL, HUGE_VAL, "xtc_threshold",
     "XTC removes all but the last candidate with p >= T (> 0.5: off)"},
};

static int xtc_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    xtc *x = st;
    x->p = (float)c->xtc_p;
    x->t = (float)c->xtc_t;
    x->min_keep = c->min_keep > 0 ? (size_t)c->min_keep : 0;
    if (x->p > 0.0f && x->t <= 0.5f && !c->has_seed)
        return sl_base_error_set(err, SL_EINVAL,
                                 "xtc: needs --seed S: it draws from "
                                 "its own std::mt19937 seeded with the chain's seed, and llama.cpp's default "
                                 "LLAMA_DEFAULT_SEED means a random one");
    x->seed = c->has_seed ? c->seed : 0;
    x->stdcxx = c->stdcxx;
    sl_rng_mt19937_init_genrand(&x->mt, x->seed);
    x->words = 0;
    return SL_OK;
}

static int xtc_active(const void *st)
{
    const xtc *x = st;
    return x->p > 0.0f && x->t <= 0.5f;
}

static const char *xtc_step(const void *st)
{
    (void)st;
    return "xtc";
}

static int xtc_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    xtc *x = st;
    if (a->size < 2)
        return SL_OK;
    sl_rng r = {&sl_rng_mt19937_type, &x->mt, 0};
    float chance = sl_rng_uniform_f32_stdcxx(&r, x->stdcxx);
    x->words += r.words;
    if (chance > x->p)
        return SL_OK;
    int rc = sl_logits_llama_softmax(a, 1, err);
    if (rc)
        return rc;
    size_t last = 0;
    for (size_t i = 0; i < a->size && a->data[i].p >= x->t; i++)
        last = i;
    if (a->size - last >= x->min_keep && last > 0) { /* llama.cpp moves data forward; samplab moves the entries */
        memmove(a->data, a->data + last, (a->size - last) * sizeof *a->data);
        a->size -= last;
    }
    return SL_OK;
}

static void xtc_reset(void *st)
{
    xtc *x = st;
    sl_rng_mt19937_init_genrand(&x->mt, x->seed);
    x->words = 0;
}

static uint64_t xtc_words(const void *st)
{
    return ((const xtc *)st)->words;
}

const sl_logits_stage_type sl_logits_stage_xtc = {
    .name = "xtc",
    .label = "xtc",
    .letter = 'x',
    .upstream = "llama_sampler_init_xtc, llama_sample_xtc_apply",
    .params = xtc_params,
    .n_params = sizeof xtc_params / sizeof *xtc_params,
    .size = sizeof(xtc),
    .init = xtc_init,
    .active = xtc_active,
    .step = xtc_step,
    .apply = xtc_apply,
    .reset = xtc_reset,
    .words = xtc_words,
};
