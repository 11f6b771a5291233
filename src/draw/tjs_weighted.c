/* tjs_weighted.c — transformers.js 4.x's draw (src/utils/random.js
 * _weightedIndexWith, as LogitsSampler.randomSelect calls it): sum the weights in
 * double (JavaScript numbers), x = random() * sum, then subtract the weights one
 * by one in their order and return the first index where x goes below 0, else
 * the last index (its "floating-point guard"). random() is genrand_res53 over
 * the generator's two next words (sl_rng_uniform_f64_2x32_numpy). The weights
 * are float32 (MultinomialSampler passes softmax's Float32Array), read here
 * widened to double in the order given (the sampler's TopK order).
 * Cost: prepare O(n) sum; draw O(n) scan; 1 uniform = 2 words. */
#include <stdlib.h>

#include "draw/sl_draw.h"

typedef struct tjs_table {
    size_t n;
    double sum;
    double w[];
} tjs_table;

static int tjs_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    (void)param;
    size_t n = dist->V;
    if (!n)
        return sl_base_error_set(err, SL_EINVAL, "%s: no weights", dist->source ? dist->source : "weights");
    tjs_table *t = malloc(sizeof *t + n * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "transformers-js draw: out of memory for %zu weights", n);
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        t->w[i] = dist->f ? (double)dist->f[i] : dist->d[i];
        s += t->w[i]; /* left to right, NaN and infinities as JavaScript adds them */
    }
    t->n = n;
    t->sum = s;
    *table = t;
    return SL_OK;
}

static size_t tjs_draw(const void *table, sl_rng *rng)
{
    const tjs_table *t = table;
    double x = sl_rng_uniform_f64_2x32_numpy(rng) * t->sum;
    for (size_t i = 0; i < t->n; i++) {
        x -= t->w[i];
        if (x < 0)
            return i;
    }
    return t->n - 1;
}

static void tjs_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_tjs_weighted_type = {
    .name = "tjs-weighted",
    .cost = "prepare O(n) double sum; draw O(n) subtraction scan; 1 uniform = 2 words",
    .prepare = tjs_prepare,
    .draw = tjs_draw,
    .free = tjs_free,
};
