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
};
