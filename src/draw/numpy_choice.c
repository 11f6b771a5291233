/* numpy_choice.c — NumPy 1.24's weighted choice with replacement as a draw type
 * (Generator.choice in numpy/random/_generator.pyx, RandomState.choice in
 * numpy/random/mtrand.pyx): validate p as NumPy does (kahan_sum of
 * numpy/random/_common.pyx; NaN, then negative, then |sum - 1| > atol with
 * atol = sqrt(DBL_EPSILON), or sqrt(FLT_EPSILON) as a float32 when p is a
 * float32 ndarray), then cdf = p.cumsum() (strictly left to right), cdf /=
 * cdf[-1] (IEEE division by the last entry), and per draw
 * cdf.searchsorted(u, side='right') = #{i: cdf[i] <= u}.
 * The param is the uniform: Generator.random() = (w >> 11) * 2^-53 from ONE
 * 64-bit word, or RandomState.random_sample() = genrand_res53 from TWO 32-bit
 * words. NumPy rebuilds the cdf on every call (O(V)); prepare builds it once,
 * which gives the same bits.
 * The kernel reads dist->d (float64; a float32 array widened exactly, as
 * NumPy's PyArray_FROM_OTF(p, NPY_DOUBLE) does); dist->dtype SL_F32 says p was
 * a float32 ndarray, which only widens the tolerance.
 * Checked against data/golden/numpy_{choice,legacy,validate}.txt (Debian python3-numpy 1.24.2). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

double sl_draw_numpy_kahan_sum(const double *p, size_t V)
{
    /* Compensated sum exactly as NumPy writes it; needs -ffp-contract=off. */
    double sum = p[0], c = 0.0;
    for (size_t i = 1; i < V; i++) {
        double y = p[i] - c;
        double t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

void sl_draw_numpy_validate(const double *p, size_t V, int is_f32, sl_draw_numpy_check *out)
{
    memset(out, 0, sizeof *out);
    /* np.sqrt(np.finfo(np.float32).eps) is a float32: 0x1.6a09e6p-12, and
     * max(float64 atol, it) compares and keeps it exactly. */
    out->atol = is_f32 ? (double)sqrtf(FLT_EPSILON) : sqrt(DBL_EPSILON);
    out->kahan_sum = V ? sl_draw_numpy_kahan_sum(p, V) : 0.0;
    if (V == 0) {
        out->code = SL_EINVAL;
        out->numpy_message = "a cannot be empty unless no samples are taken";
        return;
    }
    if (isnan(out->kahan_sum)) {
        out->code = SL_EINVAL;
        out->numpy_message = "probabilities contain NaN";
        /* Point at a NaN entry, or else at the first infinity that made the sum NaN. */
        size_t first_inf = V;
        for (size_t i = 0; i < V; i++) {
            if (isnan(p[i])) {
                out->entry = i;
                return;
            }
            if (isinf(p[i]) && first_inf == V)
                first_inf = i;
        }
        out->entry = first_inf;
        return;
    }
    for (size_t i = 0; i < V; i++)
        if (p[i] < 0) {
            out->code = SL_EINVAL;
            out->numpy_message = "probabilities are not non-negative";
            out->entry = i;
            return;
        }
    if (fabs(out->kahan_sum - 1.0) > out->atol) {
        out->code = SL_EINVAL;
        out->numpy_message = "probabilities do not sum to 1";
    }
}

void sl_draw_numpy_cdf_build(const double *p, size_t V, double *cdf)
{
    double s = 0.0;
    for (size_t i = 0; i < V; i++) {
        s += p[i];
        cdf[i] = s;
    }
    /* cdf[-1] is read once, before the in-place division, as NumPy does. */
    double last = cdf[V - 1];
    for (size_t i = 0; i < V; i++)
        cdf[i] /= last;
}

/* The validation failure as one line naming the source and NumPy's own message. */
static int check_error(const sl_draw_dist *dist, const sl_draw_numpy_check *c, int is_f32, sl_error *err)
{
    const double *p = dist->d;
    const char *src = dist->source ? dist->source : "probs";
    if (dist->V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: empty vector (NumPy: %s)", src, c->numpy_message);
    if (!strcmp(c->numpy_message, "probabilities contain NaN")) {
        if (isnan(p[c->entry]))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is NaN (NumPy: %s)", src, c->entry,
                                     c->numpy_message);
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: entry %zu is %s, which makes NumPy's Kahan sum of p NaN (NumPy: %s)", src,
                                 c->entry, p[c->entry] > 0 ? "infinite" : "-infinite", c->numpy_message);
    }
    if (!strcmp(c->numpy_message, "probabilities are not non-negative"))
        return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is negative (%.17g) (NumPy: %s)", src, c->entry,
                                 p[c->entry], c->numpy_message);
    return sl_base_error_set(err, SL_EINVAL,
                             "%s: NumPy's Kahan sum of p is %.17g, more than %.17g (its tolerance for %s p) "
                             "away from 1 (NumPy: %s)",
                             src, c->kahan_sum, c->atol, is_f32 ? "float32" : "float64", c->numpy_message);
}

int sl_draw_numpy_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const sl_draw_numpy_param *np = param;
    int is_f32 = dist->dtype == SL_F32;
    sl_draw_numpy_check c;
    sl_draw_numpy_validate(dist->d, dist->V, is_f32, &c);
    if (c.code)
        return check_error(dist, &c, is_f32, err);
    /* without replacement the table keeps p too: each call zeroes the found entries of a copy */
    size_t extra = np->replace ? 0 : dist->V;
    sl_draw_numpy_table *t = malloc(sizeof *t + (dist->V + extra) * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "numpy: out of memory for the cdf over V = %zu", dist->V);
    t->V = dist->V;
    t->param = np;
    t->p = np->replace ? NULL : t->cdf + dist->V;
    if (t->p)
        memcpy(t->p, dist->d, dist->V * sizeof *t->p);
    sl_draw_numpy_cdf_build(dist->d, dist->V, t->cdf);
    *table = t;
    return SL_OK;
}

size_t sl_draw_numpy_draw(const void *table, sl_rng *rng)
{
    const sl_draw_numpy_table *t = table;
    return sl_draw_search_gt_f64(t->cdf, t->V, t->param->uniform(rng));
}

void sl_draw_numpy_free(void *table)
{
    free(table);
}

/* Generator.random(): next_double of the bit generator, one 64-bit word. */
double sl_draw_numpy_generator_uniform(sl_rng *rng)
{
    return sl_rng_uniform_f64_64_high53(sl_rng_next(rng));
}

static const sl_draw_numpy_param generator_param = {sl_draw_numpy_generator_uniform, 1, NULL};
static const sl_draw_numpy_param legacy_param = {sl_rng_uniform_f64_2x32_numpy, 1, NULL};

const sl_draw_type sl_draw_numpy_choice_type = {
    .name = "numpy-choice",
    .cost = "prepare O(V) Kahan check + cumsum; draw O(log V) searchsorted; 1 uniform = 1 word (PCG64)",
    .prepare = sl_draw_numpy_prepare,
    .draw = sl_draw_numpy_draw,
    .free = sl_draw_numpy_free,
    .param = &generator_param,
    .exact = &sl_draw_numpy_exact,
};

const sl_draw_type sl_draw_numpy_legacy_choice_type = {
    .name = "numpy-legacy-choice",
    .cost = "prepare O(V) Kahan check + cumsum; draw O(log V) searchsorted; 1 uniform = 2 words (MT19937)",
    .prepare = sl_draw_numpy_prepare,
    .draw = sl_draw_numpy_draw,
    .free = sl_draw_numpy_free,
    .param = &legacy_param,
    .exact = &sl_draw_numpy_exact,
};

/* ---------------------------------------------------------------- exact audit */

/* The induced distribution of both choices (each u = k * 2^-53): NumPy's own
 * validation (a ValueError is a failure path taken by every call), then the cdf
 * prepare builds (sl_draw_numpy_cdf_build); token > j  <=>  cdf[j] <= u  <=>  k >= ceil(cdf[j] * 2^53). */
static int numpy_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int f32 = in->dtype == SL_F32;
    int rc = sl_stat_exact_begin(in, f32, 53, out, err);
    if (rc)
        return rc;
    size_t V = in->V;
    double *p = malloc(V * sizeof *p);
    uint64_t *K = malloc(V * sizeof *K);
    if (!p || !K) {
        free(p);
        free(K);
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    }
    for (size_t i = 0; i < V; i++)
        p[i] = f32 ? (double)in->f[i] : in->d[i];
    snprintf(out->note, sizeof out->note,
             "NumPy 1.24 choice(p=...) over %s probabilities: float64 cumsum, cdf /= cdf[-1], "
             "53-bit uniform, searchsorted side='right' (Generator and RandomState alike)",
             f32 ? "float32" : "float64");
    /* The entries are finite and >= 0 here, so only the tolerance is tested.
     * Not modelled: finite weights whose sum overflows make the Kahan sum NaN,
     * where NumPy raises "probabilities contain NaN"; this audit counts them. */
    sl_draw_numpy_check c;
    sl_draw_numpy_validate(p, V, f32, &c);
    if (fabs(c.kahan_sum - 1.0) > c.atol) {
        out->always_fails = 1;
        sl_stat_exact_path *fp = sl_stat_exact_path_add(out, "value_error", -1,
            "ValueError('probabilities do not sum to 1'): kahan_sum(p) = %.17g, |sum-1| > %.3g",
            c.kahan_sum, c.atol);
        sl_stat_exact_path_set(fp, 1, 0);
    } else {
        sl_draw_numpy_cdf_build(p, V, p); /* prepare's cdf, in place */
        for (size_t j = 0; j < V; j++)
            K[j] = sl_stat_exact_grid_below(p[j], 53);
        sl_stat_exact_counts_from_cumulative(out, K);
    }
    free(p);
    free(K);
    return 0;
}

const sl_stat_exact_type sl_draw_numpy_exact = {
    .name = "numpy",
    .summary = "NumPy 1.24 choice with p (default_rng PCG64 or legacy MT19937, 53-bit uniform)",
    .run = numpy_exact_run,
};
