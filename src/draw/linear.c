/* linear.c — the inverse CDF by linear scan, exactly as the tutorial in
 * 003_1857ebf1d0eff5ab.txt writes Sample: r = rng(); cum += p[i]; return i if
 * r < cum; after the loop return the last index.
 * The flaw, kept on purpose because it is the object of study: when rounding
 * leaves the final running sum below r, the fallback returns the LAST index,
 * even if its probability is 0 (a token a top-k or top-p filter removed).
 * The probabilities are normalised once by their plain sum, as the tutorial's
 * Softmax does, and not scaled per draw.
 * Cost: prepare O(V) normalisation; draw O(V) scan; 1 uniform = 2 words (32-bit source). */
#include <stdio.h>
#include <stdlib.h>

#include "draw/sl_draw.h"

typedef struct linear_table {
    size_t V;
    double p[];
} linear_table;

static int linear_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const double *p = dist->d;
    size_t V = dist->V;
    (void)param;
    linear_table *t = malloc(sizeof *t + V * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "linear: out of memory");
    double s = 0;
    for (size_t i = 0; i < V; i++)
        s += p[i];
    for (size_t i = 0; i < V; i++)
        t->p[i] = p[i] / s;
    t->V = V;
    *table = t;
    return SL_OK;
}

static size_t linear_draw(const void *table, sl_rng *rng)
{
    const linear_table *t = table;
    double r = sl_rng_uniform_f64(rng), cum = 0;
    for (size_t i = 0; i < t->V; i++) {
        cum += t->p[i];
        if (r < cum)
            return i;
    }
    return t->V - 1;
}

static void linear_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_linear_type = {
    .name = "linear",
    .cost = "prepare O(V) normalisation; draw O(V) scan; 1 uniform = 2 words (32-bit source)",
    .prepare = linear_prepare,
    .draw = linear_draw,
    .free = linear_free,
    .exact = &sl_draw_linear_exact,
};

/* ---------------------------------------------------------------- exact audit */

/* The induced distribution for u = k * 2^-bits (bits = in->grid_bits, 0 = 53),
 * over the table linear_prepare builds (p / plain sum): token <= i while u is
 * below the running sum; what is left past the final sum falls through to the
 * last index. */
static int linear_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    unsigned bits = in->grid_bits ? in->grid_bits : 53;
    if (bits > 53)
        return sl_base_error_set(err, SL_EINVAL, "linear: a uniform grid of %u bits does not fit a double", bits);
    if ((rc = sl_stat_exact_result_init(out, in, bits, err)))
        return rc;
    size_t V = in->V;
    double s = 0;
    for (size_t i = 0; i < V; i++)
        s += in->d[i];
    if (!(s > 0))
        return sl_base_error_set(err, SL_EINVAL, "%s: the weights sum to 0", in->source ? in->source : "weights");
    uint64_t *K = malloc(V * sizeof *K);
    void *table = NULL;
    if (!K || (rc = sl_draw_prepare(&sl_draw_linear_type, &table, in->d, V, err))) {
        free(K);
        return K ? rc : sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    }
    const linear_table *t = table;
    double cum = 0;
    for (size_t i = 0; i < V; i++) {
        cum += t->p[i]; /* the draw's running sum */
        K[i] = sl_stat_exact_grid_below(cum, bits); /* token <= i  <=>  u < cum_i */
    }
    uint64_t N = (uint64_t)1 << bits, fell = N - K[V - 1];
    sl_stat_exact_counts_from_cumulative(out, K); /* the fallback lands on V-1 */
    snprintf(out->note, sizeof out->note,
             "tutorial Sample() (samplab draw/linear): p/sum, float64 running sum, first i with "
             "u < sum, else the last index; u = k*2^-%u", bits);
    double plast = in->d[V - 1];
    sl_stat_exact_path *p = sl_stat_exact_path_add(out, "fallback", (long)V - 1,
        "the running sum %.17g ends at or below u: the loop falls through to the last token %zu%s",
        cum, V - 1, plast == 0 ? ", which has probability 0" : "");
    sl_stat_exact_path_set(p, fell, bits);
    linear_free(table);
    free(K);
    return 0;
}

const sl_stat_exact_type sl_draw_linear_exact = {
    .name = "linear",
    .summary = "the tutorial's linear inverse CDF with a last-index fallback (float64)",
    .run = linear_exact_run,
};
