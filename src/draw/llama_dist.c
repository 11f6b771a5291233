/* llama_dist.c — llama.cpp's dist sampler as a draw type: the draw of
 * llama_sampler_dist_apply (src/llama-sampling.cpp, as PR #15704 "sampling :
 * optimize dist sampler" made it, read at commit 0344068c) over a candidate
 * array. The kernel's weights are the candidates' float32 logits in array
 * order (dist->f), which it exponentiates itself: p_i = expf(logit_i - max) in
 * float, sum_cum = their double sum, and per draw u =
 * std::uniform_real_distribution<double>(0, 1) (libstdc++, two 32-bit words:
 * sl_rng_uniform_f64_stdcxx), target = sum_cum * u, and the first array index
 * whose double running sum reaches the target, else the last index. The
 * caller maps the index to a token id (the array's order is the chain's).
 *
 * prepare does the per-array work once (max, expf, the running sums): the
 * framework draws many times from the same array, and llama.cpp recomputes
 * the same floats each call. The running sums are nondecreasing (p >= 0), so
 * "first running sum >= target" is the ge search; a NaN target (all logits
 * -inf: expf(NaN)) reaches no sum in llama.cpp's loop, which then returns the
 * last index, and so does pick. max is data[0] when the chain sorted the array,
 * else fmaxf over it: the two differ only for a +inf logit (a --logit-bias of
 * +inf), which llama.cpp's bucket sort puts in its lowest bucket, not first
 * (measured on 0.7.0: then expf(inf - max) = inf and the +inf token is drawn).
 * A one-candidate array: llama.cpp 0.7.0 (build b11669) still draws the
 * uniform (2 words, measured through libllama), the commit above chose it
 * without a draw; param (sl_draw_llama_param) says which. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "draw/sl_draw.h"

int sl_draw_llama_dist_sums(const float *logit, size_t n, int sorted, double *S)
{
    if (n == 0)
        return SL_EINVAL;
    float max_l = logit[0];
    for (size_t i = 1; !sorted && i < n; i++)
        max_l = fmaxf(max_l, logit[i]);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        sum += expf(logit[i] - max_l); /* float p, added to the double sums */
        S[i] = sum;
    }
    return SL_OK;
}

size_t sl_draw_llama_dist_pick(const double *S, size_t n, double u)
{
    double target = S[n - 1] * u;
    if (isnan(target))
        return n - 1;
    size_t i = sl_draw_search_ge_f64(S, n, target);
    return i < n ? i : n - 1;
}

const sl_draw_llama_param sl_draw_llama_0_7_0 = {1, SL_STDCXX_REDRAW};
const sl_draw_llama_param sl_draw_llama_0_4_0 = {1, SL_STDCXX_CLAMP};
const sl_draw_llama_param sl_draw_llama_pr15704 = {0, SL_STDCXX_CLAMP};
/* the audit counts word pairs: a pair that rounds to 1 counts where GCC <= 14 puts it */
static const sl_draw_llama_param audit_param = {1, SL_STDCXX_CLAMP};

typedef struct llama_table {
    size_t n;
    int draw_single;
    sl_rng_stdcxx stdcxx;
    double S[];
} llama_table;

static int llama_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const sl_draw_llama_param *lp = param ? param : &sl_draw_llama_0_7_0;
    const char *src = dist->source ? dist->source : "candidates";
    if (!dist->f)
        return sl_base_error_set(err, SL_EINVAL, "%s: llama.cpp's dist reads float32 logits", src);
    if (dist->V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no candidates", src);
    llama_table *t = malloc(sizeof *t + dist->V * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu candidates", src, dist->V);
    t->n = dist->V;
    t->draw_single = lp->draw_single;
    t->stdcxx = lp->stdcxx;
    sl_draw_llama_dist_sums(dist->f, dist->V, dist->sorted, t->S);
    *table = t;
    return SL_OK;
}

static size_t llama_draw(const void *table, sl_rng *rng)
{
    const llama_table *t = table;
    if (t->n == 1 && !t->draw_single)
        return 0;
    return sl_draw_llama_dist_pick(t->S, t->n, sl_rng_uniform_f64_stdcxx(rng, t->stdcxx));
}

static void llama_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_llama_dist_type = {
    .name = "llama-dist",
    .cost = "prepare O(V) expf + double running sums; draw O(log V) search; 1 uniform = 2 words "
            "(also for V = 1 in 0.7.0)",
    .prepare = llama_prepare,
    .draw = llama_draw,
    .free = llama_free,
    .exact = &sl_draw_llama_dist_exact,
    .param = &sl_draw_llama_0_7_0,
};

/* ---------------------------------------------------------------- exact audit */

/* A source that returns two fixed 32-bit words: the word pair W = w2 * 2^32 + w1
 * (w1 drawn first) for the uniform of a draw. */
typedef struct pair_state {
    uint32_t w[2];
    unsigned i;
} pair_state;

static uint64_t pair_next(void *state)
{
    pair_state *s = state;
    return s->w[s->i++ & 1];
}

static const sl_rng_type pair_type = {.name = "exact-word-pair", .word_bits = 32, .state_size = sizeof(pair_state),
                                      .next = pair_next};

/* The array index the draw picks for the word pair W. */
static size_t pick_at(const llama_table *t, sl_u128 W)
{
    pair_state st = {{(uint32_t)W, (uint32_t)(W >> 32)}, 0};
    sl_rng r = {.type = &pair_type, .state = &st, .words = 0};
    return llama_draw(t, &r);
}

/* The induced distribution over all 2^64 word pairs: libstdc++'s uniform is a
 * nondecreasing function of W (one rounding of the 64-bit integer, then a
 * division by 2^64), on a non-uniform grid, so counts are over 2^64 (bits = 64),
 * found by one binary search over W per boundary, through this draw type's own
 * prepare and draw. Reads the float32 logits (in->logits_f, already divided by
 * the temperature) in array order. Checked against libstdc++ itself by
 * tests/oracle/llamacpp_dist.cpp. The about 2^10 pairs whose uniform rounds to
 * 1 count for the last index, as GCC <= 14's libstdc++ maps them; GCC >= 15
 * draws again instead, which moves each probability by at most 2^-54. */
static int llama_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    const char *src = in->source ? in->source : "logits";
    if (!in->logits_f)
        return sl_base_error_set(err, SL_EINVAL, "%s: llama.cpp's dist sampler takes logits (use --logits)", src);
    size_t V = in->V;
    if (V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no entries", src);
    float mx = in->logits_f[0];
    for (size_t i = 0; i < V; i++) {
        float x = in->logits_f[i];
        if (isnan(x) || x == INFINITY)
            return sl_base_error_set(err, SL_EINVAL, "%s: logit %zu is %s", src, i, isnan(x) ? "NaN" : "+infinite");
        mx = fmaxf(mx, x);
    }
    if (mx == -INFINITY)
        return sl_base_error_set(err, SL_EINVAL, "%s: all %zu logits are -infinite", src, V);
    int rc = sl_stat_exact_result_init(out, in, 64, err);
    if (rc)
        return rc;
    sl_draw_dist dist = {V, NULL, in->logits_f, SL_F32, src, 0};
    void *table = NULL;
    if ((rc = llama_prepare(&table, &dist, &audit_param, err)))
        return rc;
    const llama_table *t = table;
    snprintf(out->note, sizeof out->note,
             "llama.cpp dist: float32 expf(logit - max), double sums, u = generate_canonical<double,53> "
             "over two mt19937 words (libstdc++), first running sum >= u*sum; 2^64 word pairs");
    const sl_u128 N = (sl_u128)1 << 64;
    if (V == 1) {
        out->count[0] = N;
    } else {
        sl_u128 prev = 0, a = 0;
        for (size_t j = 0; j < V; j++) {
            sl_u128 lo = a, hi = N; /* first W whose pick is past j (N: none) */
            while (lo < hi) {
                sl_u128 mid = lo + (hi - lo) / 2;
                if (pick_at(t, mid) > j)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            a = lo;
            out->count[j] = a - prev;
            prev = a;
        }
        /* the pairs whose u*sum no running sum reaches: the fallback, already
         * counted on the last index by the search above */
        sl_u128 fell = 0;
        {
            sl_u128 lo = 0, hi = N; /* first W with u*sum > S[V-1] */
            while (lo < hi) {
                sl_u128 mid = lo + (hi - lo) / 2;
                pair_state st = {{(uint32_t)mid, (uint32_t)(mid >> 32)}, 0};
                sl_rng r = {.type = &pair_type, .state = &st, .words = 0};
                if (t->S[V - 1] < t->S[V - 1] * sl_rng_uniform_f64_stdcxx(&r, SL_STDCXX_CLAMP))
                    hi = mid;
                else
                    lo = mid + 1;
            }
            fell = N - lo;
        }
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "not_found", (long)V - 1,
            "no running sum reaches u*sum: the fallback returns the last index %zu", V - 1);
        sl_stat_exact_path_set(p, fell, 64);
        if (t->S[0] == 0) {
            p = sl_stat_exact_path_add(out, "u_zero", 0,
                "u == 0 (both words 0): target 0, and the first running sum (0) reaches it: "
                "token 0, whose probability is 0");
            sl_stat_exact_path_set(p, 1, 64);
        }
    }
    out->has_counts = 1;
    llama_free(table);
    return 0;
}

const sl_stat_exact_type sl_draw_llama_dist_exact = {
    .name = "llamacpp",
    .summary = "llama.cpp dist sampler (float32 expf, double sums, libstdc++ 64-bit canonical uniform)",
    .run = llama_exact_run,
    .input = SL_STAT_EXACT_OWN_SOFTMAX,
    .sampler = "llama.cpp's dist sampler", /* its temperature stage: logit / temp in float32 */
};
