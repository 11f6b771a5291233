/* stage_adaptive_p.c — llama.cpp's adaptive-p sampler as a selecting stage.
 *
 * Reproduces src/llama-sampler.cpp llama_sampler_init_adaptive_p(target,
 * decay, seed) and its apply / accept (llama.cpp PR #17927; the same in 0.4.0
 * and 0.7.0, measured through libllama 0.7.0:
 * data/golden/current/llamacpp_mirostat.txt). common_sampler_init puts it
 * last, in place of dist, wherever --samplers names it (once, however often
 * named), seeded with the chain's seed.
 *
 * apply: unsorted softmax; target < 0: a draw from that (no state kept);
 * else the probabilities are saved, the adapted target is clamp(2·target -
 * weighted_sum / total_weight, 0, 1) (target itself clamped to [0, 1]), each
 * logit above -inf becomes 5 - 10·d²/(1 + d) with d = |(p - adapted) / 0.3|,
 * softmax again, the draw, and the drawn (id, index) pending. accept: when the
 * token is the pending id, weighted_sum = saved p + decay · weighted_sum and
 * total_weight = 1 + decay · total_weight (floats); the pending is cleared
 * either way. The state starts (and reset restarts it) at target / (1 -
 * decay) and 1 / (1 - decay), decay clamped to [0, 0.99]. The draw is
 * llama_sample_dist: std::discrete_distribution with the sampler's own
 * std::mt19937(seed) (the session's generator), two words, none for one
 * candidate. Known upstream quirk: its clone does not copy the generator
 * (a cloned chain redraws from the seed); samplab's clone copies the state
 * and the session's generator is not part of it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct adaptive_p {
    float target, decay;
    sl_rng_stdcxx stdcxx; /* the draw's uniform of 1, as libllama's compiler has it */
    float weighted_sum, total_weight;
    long pending_id;   /* -1: none (LLAMA_TOKEN_NULL) */
    size_t pending_idx;
    float *orig;       /* the probabilities before the transform, in array order (then 2 cap floats of
                        * select's scratch) */
    double *cp;        /* the discrete draw's running sums */
    size_t cap;
} adaptive_p;

static const sl_logits_param adaptive_p_params[] = {
    {"adaptive_target", SL_LOGITS_PARAM_FLOAT, -1.0, -HUGE_VAL, HUGE_VAL, "adaptive_target",
     "adaptive-p's target probability (negative: a plain draw; above 1: 1)"},
    {"adaptive_decay", SL_LOGITS_PARAM_FLOAT, 0.9, -HUGE_VAL, HUGE_VAL, "adaptive_decay",
     "adaptive-p's moving-average decay (clamped to [0, 0.99])"},
};

/* std::clamp(v, lo, hi): v < lo ? lo : hi < v ? hi : v (a NaN passes through) */
static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : hi < v ? hi : v;
}

static void adaptive_p_reset(void *st)
{
    adaptive_p *s = st;
    s->weighted_sum = s->target / (1.0f - s->decay);
    s->total_weight = 1.0f / (1.0f - s->decay);
    s->pending_id = -1;
    s->pending_idx = 0;
}

static int adaptive_p_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    adaptive_p *s = st;
    s->target = (float)c->adaptive_target; /* the settings in force: common_params_sampling's where unset */
    s->decay = clampf((float)c->adaptive_decay, 0.0f, 0.99f);
    s->stdcxx = c->stdcxx;
    adaptive_p_reset(s);
    return SL_OK;
}

static int adaptive_p_active(const void *st)
{
    (void)st;
    return 1;
}

static const char *adaptive_p_step(const void *st)
{
    return ((const adaptive_p *)st)->target < 0.0f ? "adaptive-p (target < 0: plain draw)" : "adaptive-p";
}

static int adaptive_p_accept(void *st, long token, sl_error *err)
{
    (void)err;
    adaptive_p *s = st;
    if (s->pending_id >= 0 && s->pending_id == token) {
        s->weighted_sum = s->orig[s->pending_idx] + s->decay * s->weighted_sum;
        s->total_weight = 1.0f + s->decay * s->total_weight;
    }
    s->pending_id = -1;
    s->pending_idx = 0;
    return SL_OK;
}

static int adaptive_p_clone(void *dst, const void *src, sl_error *err)
{
    const adaptive_p *s = src;
    adaptive_p *d = dst;
    *d = *s;
    d->orig = NULL;
    d->cp = NULL;
    d->cap = 0;
    if (s->cap) {
        d->orig = malloc(3 * s->cap * sizeof *d->orig); /* orig, then select's logits and probabilities */
        d->cp = malloc(s->cap * sizeof *d->cp);
        if (!d->orig || !d->cp) {
            free(d->orig);
            free(d->cp);
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: adaptive_p: out of memory for a clone");
        }
        d->cap = s->cap;
        memcpy(d->orig, s->orig, s->cap * sizeof *d->orig);
    }
    return SL_OK;
}

static void adaptive_p_free(void *st)
{
    adaptive_p *s = st;
    free(s->orig);
    free(s->cp);
}

/* The candidates' logits and probabilities are worked on as two float arrays (a quarter of
 * the candidate array's bytes, which at V = 151,936 no longer fit the cache: each pass over
 * them cost as much as the arithmetic), and written back once; the arithmetic, its order
 * and its results are llama.cpp's. */
static int adaptive_p_select(void *st, sl_logits_llama_array *a, sl_rng *rng, size_t *idx, sl_error *err)
{
    adaptive_p *s = st;
    size_t n = a->size;
    *idx = 0;
    if (!n)
        return SL_OK;
    if (n > s->cap) {
        float *o = realloc(s->orig, 3 * n * sizeof *o);
        if (o)
            s->orig = o;
        double *cp = o ? realloc(s->cp, n * sizeof *cp) : NULL;
        if (!cp)
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: adaptive_p: out of memory for %zu candidates", n);
        s->cp = cp;
        s->cap = n;
    }
    float *l = s->orig + s->cap, *p = l + s->cap; /* logits, probabilities */
    for (size_t i = 0; i < n; i++)
        l[i] = a->data[i].logit;
    sl_logits_llama_softmax_f32(l, sizeof *l, p, sizeof *p, n, a->sorted); /* softmax_impl(cur_p, false) */
    if (s->target >= 0.0f) {
        memcpy(s->orig, p, n * sizeof *p);
        float target = clampf(s->target, 0.0f, 1.0f);
        float adapted = clampf(s->total_weight == 0.0f ? target : 2.0f * target - (s->weighted_sum / s->total_weight),
                               0.0f, 1.0f);
        const float inv_width = 1.0f / 0.3f;
        for (size_t i = 0; i < n; i++) {
            if (l[i] == -INFINITY)
                continue;
            float d = fabsf((p[i] - adapted) * inv_width);
            l[i] = 5.0f - 10.0f * d * d / (1.0f + d);
        }
        sl_logits_llama_softmax_f32(l, sizeof *l, p, sizeof *p, n, a->sorted);
    }
    for (size_t i = 0; i < n; i++) {
        a->data[i].logit = l[i];
        a->data[i].p = p[i];
    }
    if (!rng) /* the distribution only */
        return SL_OK;
    *idx = sl_draw_stdcxx_discrete(p, sizeof *p, n, s->cp, rng, s->stdcxx);
    if (s->target >= 0.0f) {
        s->pending_id = a->data[*idx].id;
        s->pending_idx = *idx;
    }
    return SL_OK;
}

const sl_logits_stage_type sl_logits_stage_adaptive_p = {
    .name = "adaptive_p",
    .label = "adaptive-p",
    .letter = 'a',
    .upstream = "llama_sampler_init_adaptive_p, llama_sampler_adaptive_p_apply/_accept, llama_sample_dist",
    .params = adaptive_p_params,
    .n_params = sizeof adaptive_p_params / sizeof *adaptive_p_params,
    .size = sizeof(adaptive_p),
    .init = adaptive_p_init,
    .active = adaptive_p_active,
    .step = adaptive_p_step,
    .accept = adaptive_p_accept,
    .reset = adaptive_p_reset,
    .clone = adaptive_p_clone,
    .free = adaptive_p_free,
    .select = adaptive_p_select,
};
