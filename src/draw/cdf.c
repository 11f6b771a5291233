/* cdf.c — cumulative table + binary search: one uniform u, return the first
 * i whose running sum exceeds u * total. This is the rule of Rust rand's
 * WeightedIndex (0.8 distributions/weighted_index.rs), here in double with
 * the generic 53-bit uniform. Zero-weight entries are never drawn: their
 * running sum equals the one before, which is already <= u * total.
 * Cost: prepare O(V) sums; draw O(log V), one uniform, 2 words (32-bit source). */
#include <stdlib.h>

#include "draw/sl_draw.h"

typedef struct cdf_table {
    size_t V;
    size_t last_positive; /* never needed when u < 1; a guard, not a path */
    double total;
    double cum[];
} cdf_table;

static int cdf_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const double *p = dist->d;
    size_t V = dist->V;
    (void)param;
    cdf_table *t = malloc(sizeof *t + V * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "cdf: out of memory");
    double s = 0;
    t->V = V;
    t->last_positive = 0;
    for (size_t i = 0; i < V; i++) {
        s += p[i];
        t->cum[i] = s;
        if (p[i] > 0)
            t->last_positive = i;
    }
    t->total = s;
    *table = t;
    return SL_OK;
}

/* First i with cum[i] > target, or V if none. */
size_t sl_draw_cdf_search(const double *cum, size_t V, double target)
{
    size_t lo = 0, hi = V;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cum[mid] > target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static size_t cdf_draw(const void *table, sl_rng *rng)
{
    const cdf_table *t = table;
    double target = sl_rng_uniform_f64(rng) * t->total;
    size_t i = sl_draw_cdf_search(t->cum, t->V, target);
    return i < t->V ? i : t->last_positive;
}

static void cdf_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_cdf_type = {
    .name = "cdf",
    .cost = "prepare O(V) running sums; draw O(log V) binary search; 1 uniform = 2 words (32-bit source)",
    .prepare = cdf_prepare,
    .draw = cdf_draw,
    .free = cdf_free,
};
