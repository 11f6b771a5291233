/* alias.c — Walker's alias method with Vose's O(V) construction (Vose 1991,
 * "A linear algorithm for generating random numbers with a given
 * distribution"), our own code rather than GSL's gsl_ran_discrete (which the
 * `gsl` framework uses as it is). One 53-bit uniform per draw: x = u*V, the
 * column is floor(x), the coin is the fraction x - floor(x) against the
 * column's threshold, so column and coin share the uniform's bits (the coin
 * keeps 53 - log2(V) of them).
 * Zero-weight columns get threshold 0 and an alias with positive weight, so
 * they are never drawn, also when rounding leaves columns over at the end.
 * Cost: prepare O(V); draw O(1), 1 uniform = 2 words (32-bit source). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "draw/sl_draw.h"

typedef struct alias_table {
    size_t V;
    double *prob;
    size_t *alias;
} alias_table;

static void alias_free(void *table)
{
    alias_table *t = table;
    if (!t)
        return;
    free(t->prob);
    free(t->alias);
    free(t);
}

static int alias_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const double *p = dist->d;
    size_t V = dist->V;
    (void)param;
    alias_table *t = calloc(1, sizeof *t);
    size_t *stack = malloc(V * sizeof *stack); /* small from the front, large from the back */
    double *scaled = malloc(V * sizeof *scaled);
    if (t) {
        t->prob = malloc(V * sizeof *t->prob);
        t->alias = malloc(V * sizeof *t->alias);
    }
    if (!t || !stack || !scaled || !t->prob || !t->alias) {
        alias_free(t);
        free(stack);
        free(scaled);
        return sl_base_error_set(err, SL_ENOMEM, "alias: out of memory");
    }
    t->V = V;
    double s = 0;
    size_t first_positive = V;
    for (size_t i = 0; i < V; i++) {
        s += p[i];
        if (p[i] > 0 && first_positive == V)
            first_positive = i;
    }
    size_t ns = 0, nl = V;
    for (size_t i = 0; i < V; i++) {
        scaled[i] = p[i] * (double)V / s;
        if (scaled[i] < 1.0)
            stack[ns++] = i;
        else
            stack[--nl] = i;
    }
    /* Small indices fill [0, ns), large ones [nl, V). Pair one of each. */
    size_t si = 0;
    while (si < ns && nl < V) {
        size_t small = stack[si++], large = stack[nl];
        t->prob[small] = scaled[small];
        t->alias[small] = large;
        scaled[large] = (scaled[large] + scaled[small]) - 1.0;
        if (scaled[large] < 1.0) {
            nl++;
            /* the large one became small: it goes to the small side */
            stack[--si] = large;
        }
    }
    for (; nl < V; nl++) {
        t->prob[stack[nl]] = 1.0;
        t->alias[stack[nl]] = stack[nl];
    }
    for (; si < ns; si++) {
        size_t i = stack[si];
        t->prob[i] = p[i] > 0 ? 1.0 : 0.0;
        t->alias[i] = p[i] > 0 ? i : first_positive;
    }
    free(stack);
    free(scaled);
    *table = t;
    return SL_OK;
}

static size_t alias_draw(const void *table, sl_rng *rng)
{
    const alias_table *t = table;
    double x = sl_rng_uniform_f64(rng) * (double)t->V;
    size_t col = (size_t)x;
    if (col >= t->V)
        col = t->V - 1;
    return (x - (double)col) < t->prob[col] ? col : t->alias[col];
}

const sl_draw_type sl_draw_alias_type = {
    .name = "alias",
    .cost = "prepare O(V) Vose table; draw O(1); 1 uniform = 2 words (32-bit source)",
    .prepare = alias_prepare,
    .draw = alias_draw,
    .free = alias_free,
    .exact = &sl_draw_alias_exact,
};

/* ---------------------------------------------------------------- exact audit
 *
 * The induced distribution with the generic 53-bit uniform (u = k * 2^-53):
 * x = u * V, column = (size_t)x, coin = x - column against the column's
 * threshold. The column is nondecreasing in k; inside a column the token is the
 * column, then its alias. The table is built by this method's own prepare, and
 * tokens are read by calling its own draw with a generator that returns the
 * chosen k, so the count follows the code that draws. The source only has to
 * deliver words of 32 or 64 bits (other GSL ranges give a different grid and
 * are refused by the CLI). */

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

static int alias_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_begin(in, 0, 53, out, err);
    if (rc)
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

const sl_stat_exact_type sl_draw_alias_exact = {
    .name = "alias",
    .summary = "samplab draw/alias (Vose, one 53-bit uniform for column and coin)",
    .run = alias_exact_run,
};
