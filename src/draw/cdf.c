/* cdf.c — cumulative table + binary search: one uniform u, return the first
 * i whose running sum exceeds u * total. This is the rule of Rust rand's
 * WeightedIndex (0.8 distributions/weighted_index.rs), here in double with
 * the generic 53-bit uniform. Zero-weight entries are never drawn: their
 * running sum equals the one before, which is already <= u * total.
 * Cost: prepare O(V) sums; draw O(log V), one uniform, 2 words (32-bit source). */
#include <math.h>
#include <stdio.h>
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

static size_t cdf_draw(const void *table, sl_rng *rng)
{
    const cdf_table *t = table;
    double target = sl_rng_uniform_f64(rng) * t->total;
    size_t i = sl_draw_search_gt_f64(t->cum, t->V, target);
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
    .exact = &sl_draw_cdf_exact,
};

/* ---------------------------------------------------------------- exact audit */

/* The induced distribution with the generic 53-bit uniform (u = k * 2^-53 from one
 * 64-bit word or genrand_res53's two 32-bit words), over the table cdf_prepare
 * builds: target = u * total (one rounding), token = first cum[i] > target, else
 * the last positive index. The token is nondecreasing in k: a binary search over
 * k per boundary, with the draw's own comparison. */
static int cdf_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_begin(in, 0, 53, out, err);
    if (rc)
        return rc;
    const uint64_t N = (uint64_t)1 << 53;
    void *table = NULL;
    if ((rc = sl_draw_prepare(&sl_draw_cdf_type, &table, in->d, in->V, err)))
        return rc;
    const cdf_table *t = table;
    size_t V = t->V;
    uint64_t prev = 0, a = 0;
    /* total = +inf: target = u*inf is inf (NaN at u = 0), no running sum exceeds
     * it, and every draw takes the guard */
    for (size_t j = 0; j < V && !isinf(t->total); j++) {
        /* first k with cum[j] <= u*total: the tokens <= j end there */
        uint64_t lo = a, hi = N;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (!(t->cum[j] > ldexp((double)mid, -53) * t->total))
                hi = mid;
            else
                lo = mid + 1;
        }
        a = lo;
        out->count[j] = a - prev;
        prev = a;
    }
    out->count[t->last_positive] += N - prev; /* the guard: target >= total */
    out->has_counts = 1;
    sl_stat_exact_path *p = sl_stat_exact_path_add(out, "past_end", (long)t->last_positive,
        "u*total rounds to >= the last running sum: the guard returns the last positive token %zu",
        t->last_positive);
    sl_stat_exact_path_set(p, N - prev, 53);
    snprintf(out->note, sizeof out->note,
             "samplab draw/cdf: float64 running sums, target = u*total, first cum[i] > target; "
             "u = k*2^-53 (any 32- or 64-bit source)");
    cdf_free(table);
    return 0;
}

const sl_stat_exact_type sl_draw_cdf_exact = {
    .name = "cdf",
    .summary = "samplab draw/cdf (binary search on float64 running sums, 53-bit uniform)",
    .run = cdf_exact_run,
};
