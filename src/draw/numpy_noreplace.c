/* numpy_noreplace.c — NumPy's weighted choice without replacement as a draw
 * type: choice(V, size=K, replace=False, p=p) of Generator
 * (numpy/random/_generator.pyx) and RandomState (numpy/random/mtrand.pyx), the
 * same loop in NumPy 1.24.2 and 2.4.6. After p's checks (prepare, shared with
 * the replacement draw in draw/numpy_choice.c): size > V is refused, then
 * count_nonzero(p > 0) < size; then, while fewer than K tokens are found, one
 * round draws K - found uniforms first, zeroes p at every token found so far,
 * rebuilds cdf = cumsum(p) / cdf[-1], takes searchsorted(u, side='right') for
 * each uniform and appends the distinct results in order of first occurrence
 * (np.unique(return_index=True), indices sorted). A found token has zero width
 * in later cdfs, so it never comes back; every round finds at least one token.
 * Generator's `shuffle` is not read on this path (only without p), so it
 * changes nothing here. Cost: O(V) per round, as in NumPy.
 * Checked against data/golden/numpy_noreplace.txt (Debian python3-numpy
 * 1.24.2) and data/golden/current/numpy_noreplace.txt (NumPy 2.4.6). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

static int noreplace_k(const void *table, sl_rng *rng, size_t K, long *out, sl_error *err)
{
    const sl_draw_numpy_table *t = table;
    size_t V = t->V, nonzero = 0;
    if (K > V)
        return sl_base_error_set(err, SL_EINVAL, "numpy: %zu samples without replacement from V = %zu (NumPy: %s)", K,
                                 V, t->param->larger_message);
    for (size_t i = 0; i < V; i++)
        nonzero += t->p[i] > 0;
    if (nonzero < K)
        return sl_base_error_set(err, SL_EINVAL,
                                 "numpy: %zu samples without replacement but only %zu entries of p are > 0 "
                                 "(NumPy: Fewer non-zero entries in p than size)",
                                 K, nonzero);
    if (K == 0)
        return SL_OK;
    double *p = malloc(V * sizeof *p), *cdf = malloc(V * sizeof *cdf), *x = malloc(K * sizeof *x);
    uint32_t *round_of = calloc(V, sizeof *round_of); /* the last round that found each token */
    if (!p || !cdf || !x || !round_of) {
        free(p);
        free(cdf);
        free(x);
        free(round_of);
        return sl_base_error_set(err, SL_ENOMEM, "numpy: out of memory for choice without replacement over V = %zu",
                                 V);
    }
    memcpy(p, t->p, V * sizeof *p);
    size_t found = 0, zeroed = 0;
    for (uint32_t round = 1; found < K; round++) {
        size_t r = K - found;
        for (size_t i = 0; i < r; i++) /* self.random(K - n_uniq): the uniforms come first */
            x[i] = t->param->uniform(rng);
        for (; zeroed < found; zeroed++) /* p[flat_found[0:n_uniq]] = 0 */
            p[out[zeroed]] = 0.0;
        sl_draw_numpy_cdf_build(p, V, cdf);
        for (size_t i = 0; i < r; i++) {
            size_t tok = sl_draw_search_gt_f64(cdf, V, x[i]);
            if (round_of[tok] != round) { /* its first occurrence in this round */
                round_of[tok] = round;
                out[found++] = (long)tok;
            }
        }
    }
    free(p);
    free(cdf);
    free(x);
    free(round_of);
    return SL_OK;
}

static const sl_draw_numpy_param generator_param = {
    sl_draw_numpy_generator_uniform, 0, "Cannot take a larger sample than population when replace is False"};
static const sl_draw_numpy_param legacy_param = {
    sl_rng_uniform_f64_2x32_numpy, 0, "Cannot take a larger sample than population when 'replace=False'"};

const sl_draw_type sl_draw_numpy_noreplace_type = {
    .name = "numpy-choice-noreplace",
    .cost = "prepare O(V) Kahan check + cumsum; a call: rounds of O(V) cumsum each, 1 word a uniform (PCG64)",
    .prepare = sl_draw_numpy_prepare,
    .draw = sl_draw_numpy_draw,
    .free = sl_draw_numpy_free,
    .draw_k = noreplace_k,
    .param = &generator_param,
    .exact = &sl_draw_numpy_exact,
};

const sl_draw_type sl_draw_numpy_legacy_noreplace_type = {
    .name = "numpy-legacy-choice-noreplace",
    .cost = "prepare O(V) Kahan check + cumsum; a call: rounds of O(V) cumsum each, 2 words a uniform (MT19937)",
    .prepare = sl_draw_numpy_prepare,
    .draw = sl_draw_numpy_draw,
    .free = sl_draw_numpy_free,
    .draw_k = noreplace_k,
    .param = &legacy_param,
    .exact = &sl_draw_numpy_exact,
};
