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
 * last index, and so does pick. max is fmaxf over the array: llama.cpp reads
 * data[0] when the array is sorted, the same value for a sorted array.
 * A one-candidate array is chosen without a draw (no word), as llama.cpp
 * before 0.7.0 does. */
#include <math.h>
#include <stdlib.h>

#include "draw/sl_draw.h"

int sl_draw_llama_dist_sums(const float *logit, size_t n, double *S)
{
    if (n == 0)
        return SL_EINVAL;
    float max_l = logit[0];
    for (size_t i = 1; i < n; i++)
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

typedef struct llama_table {
    size_t n;
    double S[];
} llama_table;

static int llama_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    (void)param;
    const char *src = dist->source ? dist->source : "candidates";
    if (!dist->f)
        return sl_base_error_set(err, SL_EINVAL, "%s: llama.cpp's dist reads float32 logits", src);
    if (dist->V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no candidates", src);
    llama_table *t = malloc(sizeof *t + dist->V * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu candidates", src, dist->V);
    t->n = dist->V;
    sl_draw_llama_dist_sums(dist->f, dist->V, t->S);
    *table = t;
    return SL_OK;
}

static size_t llama_draw(const void *table, sl_rng *rng)
{
    const llama_table *t = table;
    if (t->n == 1)
        return 0;
    return sl_draw_llama_dist_pick(t->S, t->n, sl_rng_uniform_f64_stdcxx(rng));
}

static void llama_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_llama_dist_type = {
    .name = "llama-dist",
    .cost = "prepare O(V) expf + double running sums; draw O(log V) search; 1 uniform = 2 words (none if V = 1)",
    .prepare = llama_prepare,
    .draw = llama_draw,
    .free = llama_free,
};
