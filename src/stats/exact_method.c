/* exact_method.c — exact induced distributions of samplab's own draw methods
 * (draw/cdf.c and draw/alias.c) with the generic 53-bit uniform sl_rng_uniform_f64:
 * one 64-bit word (high 53 bits) or two 32-bit words (genrand_res53), both a
 * uniform k * 2^-53 with k uniform on [0, 2^53).
 *
 *  cdf    target = u * total (float64, one rounding), token = first i with
 *         cum[i] > target, else the last positive index. The token is
 *         nondecreasing in k: a binary search over k per boundary.
 *  alias  x = u * V (float64), column = (size_t)x, coin = x - column against the
 *         column's threshold. The column is nondecreasing in k; inside a column
 *         the token is the column, then its alias. The table is built by the
 *         method's own prepare, and tokens are read by calling its own draw with
 *         a generator that returns the chosen k, so the count follows the code
 *         that draws, not a copy of it.
 * The source only has to deliver words of 32 or 64 bits (other GSL ranges give a
 * different grid and are refused by the CLI). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"
#include "stats/sl_stat.h"

#define GRID53 ((uint64_t)1 << 53)

/* A generator whose every word is the value in its state: with 64-bit words,
 * sl_rng_uniform_f64 returns (w >> 11) * 2^-53, so the state k << 11 yields k*2^-53. */
static uint64_t grid_next(void *state)
{
    return *(uint64_t *)state;
}

static const sl_rng_type grid_type = {
    .name = "exact-grid", .word_bits = 64, .state_size = sizeof(uint64_t), .next = grid_next
};

static size_t draw_at(const sl_draw_type *t, const void *table, uint64_t k)
{
    uint64_t w = k << 11;
    sl_rng r = {.type = &grid_type, .state = &w, .words = 0};
    return t->draw(table, &r);
}

static int run_cdf(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    if ((rc = sl_stat_exact_result_init(out, in, 53, err)))
        return rc;
    size_t V = in->V, last_positive = 0;
    double *cum = malloc(V * sizeof *cum), total = 0;
    if (!cum)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    for (size_t i = 0; i < V; i++) {
        total += in->d[i];
        cum[i] = total;
        if (in->d[i] > 0)
            last_positive = i;
    }
    uint64_t prev = 0, a = 0;
    /* total = +inf: target = u*inf is inf (NaN at u = 0), no running sum exceeds
     * it, and every draw takes the guard */
    for (size_t j = 0; j < V && !isinf(total); j++) {
        /* first k with cum[j] <= u*total: the tokens <= j end there */
        uint64_t lo = a, hi = GRID53;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (cum[j] <= ldexp((double)mid, -53) * total)
                hi = mid;
            else
                lo = mid + 1;
        }
        a = lo;
        out->count[j] = a - prev;
        prev = a;
    }
    out->count[last_positive] += GRID53 - prev; /* the guard: target >= total */
    out->has_counts = 1;
    sl_stat_exact_path *p = sl_stat_exact_path_add(out, "past_end", (long)last_positive,
        "u*total rounds to >= the last running sum: the guard returns the last positive token %zu",
        last_positive);
    sl_stat_exact_path_set(p, GRID53 - prev, 53);
    snprintf(out->note, sizeof out->note,
             "samplab draw/cdf: float64 running sums, target = u*total, first cum[i] > target; "
             "u = k*2^-53 (any 32- or 64-bit source)");
    free(cum);
    return 0;
}

const sl_stat_exact_type sl_stat_exact_cdf_type = {
    "cdf", "samplab draw/cdf (binary search on float64 running sums, 53-bit uniform)", run_cdf
};

static int run_alias(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    if ((rc = sl_stat_exact_result_init(out, in, 53, err)))
        return rc;
    const sl_draw_type *t = &sl_draw_alias_type;
    void *table = NULL;
    if ((rc = sl_draw_prepare(t, &table, in->d, in->V, err)))
        return rc;
    size_t V = in->V;
    uint64_t lo = 0;
    for (size_t c = 0; c < V && lo < GRID53; c++) {
        uint64_t a = lo, b = GRID53;
        while (a < b) { /* first k whose column exceeds c (the draw clamps to V-1) */
            uint64_t mid = a + (b - a) / 2;
            size_t col = (size_t)(ldexp((double)mid, -53) * (double)V);
            if (col > c && c + 1 < V)
                b = mid;
            else
                a = mid + 1;
        }
        uint64_t hi = a;
        if (hi > lo) {
            size_t t_lo = draw_at(t, table, lo), t_hi = draw_at(t, table, hi - 1);
            if (t_lo == t_hi) {
                out->count[t_lo] += hi - lo;
            } else {
                if (t_lo != c) {
                    t->free(table);
                    return sl_base_error_set(err, SL_EINVAL, "alias: column %zu starts with token %zu, "
                                        "not itself: the table is not column-then-alias", c, t_lo);
                }
                uint64_t x = lo, y = hi - 1; /* first k in the column not drawing c */
                while (x < y) {
                    uint64_t mid = x + (y - x) / 2;
                    if (draw_at(t, table, mid) != c)
                        y = mid;
                    else
                        x = mid + 1;
                }
                out->count[c] += x - lo;
                out->count[t_hi] += hi - x;
            }
        }
        lo = hi;
    }
    t->free(table);
    out->has_counts = 1;
    snprintf(out->note, sizeof out->note,
             "samplab draw/alias (Vose table): x = u*V, column floor(x), coin x - column; "
             "u = k*2^-53 (any 32- or 64-bit source)");
    return 0;
}

const sl_stat_exact_type sl_stat_exact_alias_type = {
    "alias", "samplab draw/alias (Vose, one 53-bit uniform for column and coin)", run_alias
};
