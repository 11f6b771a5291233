/* stage_mirostat.c — llama.cpp's mirostat (v1) and mirostat v2 as selecting
 * stages, and the plain temperature common_sampler_init puts before them.
 *
 * Reproduces src/llama-sampler.cpp llama_sampler_mirostat_apply and
 * llama_sampler_mirostat_v2_apply (0.4.0 = 0.7.0, measured through libllama
 * 0.7.0: data/golden/current/llamacpp_mirostat.txt), which common_sampler_init
 * builds for --mirostat 1|2 as temp(temp) then llama_sampler_init_mirostat(
 * n_vocab, seed, tau, eta, m = 100) or llama_sampler_init_mirostat_v2(seed,
 * tau, eta), whatever --samplers says. mu starts at 2·tau (float) and is
 * updated inside apply, right after the sampler's own draw: mu -= eta ·
 * (-log2f(p of the drawn candidate) - tau); accept is nullptr upstream, so a
 * token accepted from elsewhere (a prompt) changes nothing. The draw is
 * llama_sample_dist: std::discrete_distribution over the float p with the
 * sampler's own std::mt19937(seed) (the session's generator: the chain has no
 * dist), two words a draw, none when one candidate is left.
 *
 * v1: sorted softmax, Zipf exponent s_hat by least squares over the top m,
 * k = (eps · 2^mu / (1 - V^-eps))^(1/s_hat) in float, top-k of max(int(k), 1)
 * (int() of NaN or an out-of-range float is INT_MIN on x86-64: cvttss2si),
 * softmax again. v2: sorted softmax, cut at the first candidate whose
 * surprise -log2f(p) exceeds mu (at least one kept), softmax again. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "logits/sl_logits.h"

typedef struct mirostat {
    float tau, eta, mu;
    int m;          /* v1: the tokens its estimate reads (100 in common_sampler_init) */
    sl_rng_stdcxx stdcxx; /* the draw's uniform of 1, as libllama's compiler has it */
    double *cp;     /* the discrete draw's running sums */
    size_t cp_n;
} mirostat;

static const sl_logits_param mirostat_params[] = {
    {"mirostat_tau", SL_LOGITS_PARAM_FLOAT, 5.0, -HUGE_VAL, HUGE_VAL, "mirostat_ent",
     "mirostat's target surprise tau (mu starts at 2 tau)"},
    {"mirostat_eta", SL_LOGITS_PARAM_FLOAT, 0.1, -HUGE_VAL, HUGE_VAL, "mirostat_lr", "mirostat's learning rate eta"},
};

static int mirostat_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    (void)err;
    mirostat *m = st;
    m->tau = (float)c->mirostat_tau; /* the settings in force: common_params_sampling's where unset */
    m->eta = (float)c->mirostat_eta;
    m->mu = 2.0f * m->tau;
    m->m = 100;
    m->stdcxx = c->stdcxx;
    return SL_OK;
}

static int mirostat_active(const void *st)
{
    (void)st;
    return 1;
}

static const char *mirostat_step(const void *st)
{
    (void)st;
    return "mirostat";
}

static const char *mirostat_v2_step(const void *st)
{
    (void)st;
    return "mirostat-v2";
}

static void mirostat_reset(void *st)
{
    mirostat *m = st;
    m->mu = 2.0f * m->tau;
}

static int mirostat_clone(void *dst, const void *src, sl_error *err)
{
    (void)err;
    mirostat *d = dst;
    *d = *(const mirostat *)src;
    d->cp = NULL; /* scratch, regrown on use */
    d->cp_n = 0;
    return SL_OK;
}

static void mirostat_free(void *st)
{
    free(((mirostat *)st)->cp);
}

/* llama_sample_dist over a's p with m's scratch */
static int mirostat_draw(mirostat *m, sl_logits_llama_array *a, sl_rng *rng, size_t *idx, sl_error *err)
{
    *idx = 0;
    if (!rng) /* the distribution only (sl_logits_chain_select's preview): no draw, mu as it was */
        return SL_OK;
    if (a->size > m->cp_n) {
        double *cp = realloc(m->cp, a->size * sizeof *cp);
        if (!cp)
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: mirostat: out of memory for %zu candidates", a->size);
        m->cp = cp;
        m->cp_n = a->size;
    }
    *idx = sl_draw_stdcxx_discrete(&a->data[0].p, sizeof *a->data, a->size, m->cp, rng, m->stdcxx);
    m->mu = m->mu - m->eta * (-log2f(a->data[*idx].p) - m->tau);
    return SL_OK;
}

/* C++ int(k) as x86-64 compiles it (cvttss2si): INT_MIN for NaN and floats outside int's range */
static int trunc_int(float k)
{
    return k >= -2147483648.0f && k < 2147483648.0f ? (int)k : INT_MIN;
}

typedef struct v1_cut {
    const mirostat *m;
    float n_vocab;
} v1_cut;

/* v1's k from the sorted probabilities p[0..n): Zipf's s_hat over the top m, then top-k of max(int(k), 1) */
static size_t mirostat_v1_need(const float *p, size_t n, void *ctx)
{
    const v1_cut *c = ctx;
    float sum_ti_bi = 0.0f, sum_ti_sq = 0.0f;
    for (size_t i = 0; i < (size_t)(c->m->m - 1) && i < n - 1; i++) {
        float t_i = logf((float)(i + 2) / (float)(i + 1));
        float b_i = logf(p[i] / p[i + 1]);
        sum_ti_bi += t_i * b_i;
        sum_ti_sq += t_i * t_i;
    }
    float s_hat = sum_ti_bi / sum_ti_sq;
    float epsilon_hat = s_hat - 1;
    float k = powf((epsilon_hat * powf(2, c->m->mu)) / (1 - powf(c->n_vocab, -epsilon_hat)), 1 / s_hat);
    int ki = trunc_int(k);
    return ki > 1 ? (size_t)ki : 1;
}

/* the sorted softmax, then top-k (the array is sorted: a cut) and softmax again; only the top k
 * are sorted (sl_logits_llama_softmax_top), which leaves them as llama.cpp's full sort does */
static int mirostat_select(void *st, sl_logits_llama_array *a, sl_rng *rng, size_t *idx, sl_error *err)
{
    mirostat *m = st;
    v1_cut c = {m, (float)a->size}; /* n_vocab: the chain before it (temperature) keeps all V candidates */
    int rc = sl_logits_llama_softmax_top(a, mirostat_v1_need, &c, err);
    if (rc || (rc = sl_logits_llama_softmax(a, 1, err)))
        return rc;
    return mirostat_draw(m, a, rng, idx, err);
}

/* v2's cut: the candidates before the first whose surprise -log2f(p) exceeds mu */
static size_t mirostat_v2_need(const float *p, size_t n, void *ctx)
{
    float mu = ((const mirostat *)ctx)->mu;
    size_t k = 0;
    while (k < n && !(-log2f(p[k]) > mu))
        k++;
    return k ? k : 1;
}

static int mirostat_v2_select(void *st, sl_logits_llama_array *a, sl_rng *rng, size_t *idx, sl_error *err)
{
    mirostat *m = st;
    int rc = sl_logits_llama_softmax_top(a, mirostat_v2_need, m, err);
    if (rc || (rc = sl_logits_llama_softmax(a, 1, err)))
        return rc;
    return mirostat_draw(m, a, rng, idx, err);
}

const sl_logits_stage_type sl_logits_stage_mirostat = {
    .name = "mirostat",
    .label = "mirostat",
    .upstream = "llama_sampler_init_mirostat (m = 100), llama_sampler_mirostat_apply, llama_sample_dist",
    .params = mirostat_params,
    .n_params = sizeof mirostat_params / sizeof *mirostat_params,
    .size = sizeof(mirostat),
    .init = mirostat_init,
    .active = mirostat_active,
    .step = mirostat_step,
    .reset = mirostat_reset,
    .clone = mirostat_clone,
    .free = mirostat_free,
    .select = mirostat_select,
};

const sl_logits_stage_type sl_logits_stage_mirostat_v2 = {
    .name = "mirostat_v2",
    .label = "mirostat-v2",
    .upstream = "llama_sampler_init_mirostat_v2, llama_sampler_mirostat_v2_apply, llama_sample_dist",
    .params = mirostat_params,
    .n_params = sizeof mirostat_params / sizeof *mirostat_params,
    .size = sizeof(mirostat),
    .init = mirostat_init,
    .active = mirostat_active,
    .step = mirostat_v2_step,
    .reset = mirostat_reset,
    .clone = mirostat_clone,
    .free = mirostat_free,
    .select = mirostat_v2_select,
};
