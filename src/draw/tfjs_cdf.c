/* tfjs_cdf.c — TensorFlow.js 4.22.0's multinomial draw on the CPU backend
 * (tfjs-backend-cpu kernels/Multinomial.js): a Float32Array cdf of the first V - 1
 * probabilities as given (float32 running sums; the last event is implicit), then
 * per sample r = alea() and the first event with r < cdf[i], else the last (V - 1).
 * Negative or NaN probabilities are not refused there, so the scan's answer is kept
 * for them too: the table holds the running maximum of the cdf (a NaN as -inf),
 * whose first entry above r is the scan's first cdf entry above r, so a binary
 * search over it (sl_draw_search_gt_f64) answers as the linear scan does.
 * Cost: prepare O(V); draw O(log V), one uniform = 1 word (w * 2^-32). */
#include <math.h>
#include <stdlib.h>

#include "draw/sl_draw.h"

typedef struct tfjs_table {
    size_t n;     /* V - 1 entries */
    double m[];   /* running maximum of the float32 cdf, widened */
} tfjs_table;

static int tfjs_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    (void)param;
    size_t V = dist->V;
    const char *src = dist->source ? dist->source : "probs";
    if (V < 2) /* ops/multinomial.js refuses it before the kernel */
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: tf.multinomial throws \"you need at least 2 outcomes, but got %zu\"", src, V);
    tfjs_table *t = malloc(sizeof *t + (V - 1) * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "tfjs draw: out of memory for %zu probabilities", V);
    t->n = V - 1;
    float c = 0.0f;
    double mx = -INFINITY;
    for (size_t i = 0; i < V - 1; i++) {
        float p = dist->f ? dist->f[i] : (float)dist->d[i];
        c = i ? c + p : p; /* cdf[i] = cdf[i - 1] + p[i], stored to float32 */
        if (c > mx)    /* false for NaN: r < NaN never holds */
            mx = c;
        t->m[i] = mx;
    }
    *table = t;
    return SL_OK;
}

static size_t tfjs_draw(const void *table, sl_rng *rng)
{
    const tfjs_table *t = table;
    return sl_draw_search_gt_f64(t->m, t->n, sl_rng_uniform_f64_w32(rng));
}

static void tfjs_free(void *table)
{
    free(table);
}

/* #{j in [0, 2^32): j 2^-32 < c}: the uniforms below c */
static double below(double c)
{
    double k = ceil(c * 4294967296.0);
    return k < 0 ? 0 : k > 4294967296.0 ? 4294967296.0 : k;
}

void sl_draw_tfjs_probs(const void *table, double *p)
{
    const tfjs_table *t = table;
    double prev = 0;
    for (size_t i = 0; i < t->n; i++) {
        double b = below(t->m[i]);
        p[i] = (b - prev) * 0x1p-32;
        prev = b;
    }
    p[t->n] = (4294967296.0 - prev) * 0x1p-32;
}

const sl_draw_type sl_draw_tfjs_type = {
    .name = "tfjs-cdf",
    .cost = "prepare O(V) float32 cdf; draw O(log V) search; 1 uniform = 1 word",
    .prepare = tfjs_prepare,
    .draw = tfjs_draw,
    .free = tfjs_free,
};
