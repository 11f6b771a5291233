/* greedy.c — argmax, the first index on ties; no randomness, 0 words.
 * What transformers' do_sample=False and candle's ArgMax do (both keep the
 * first maximum; candle before commit bf3d3f2a kept the last). */
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

typedef struct greedy_table {
    size_t best;
} greedy_table;

static int greedy_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const double *p = dist->d;
    size_t V = dist->V;
    (void)param;
    greedy_table *t = malloc(sizeof *t);
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "greedy: out of memory");
    t->best = 0;
    for (size_t i = 1; i < V; i++)
        if (p[i] > p[t->best])
            t->best = i;
    *table = t;
    return SL_OK;
}

static size_t greedy_draw(const void *table, sl_rng *rng)
{
    (void)rng;
    return ((const greedy_table *)table)->best;
}

static void greedy_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_greedy_type = {
    .name = "greedy",
    .cost = "prepare O(V) argmax; draw O(1); 0 words",
    .prepare = greedy_prepare,
    .draw = greedy_draw,
    .free = greedy_free,
};
