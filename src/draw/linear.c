/* linear.c — the inverse CDF by linear scan, exactly as the tutorial in
 * 003_1857ebf1d0eff5ab.txt writes Sample: r = rng(); cum += p[i]; return i if
 * r < cum; after the loop return the last index.
 * The flaw, kept on purpose because it is the object of study: when rounding
 * leaves the final running sum below r, the fallback returns the LAST index,
 * even if its probability is 0 (a token a top-k or top-p filter removed).
 * The probabilities are normalised once by their plain sum, as the tutorial's
 * Softmax does, and not scaled per draw.
 * Cost: prepare O(V) normalisation; draw O(V) scan; 1 uniform = 2 words (32-bit source). */
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
};
