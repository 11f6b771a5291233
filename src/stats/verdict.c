/* verdict.c — the decision of `samplab gof` as library calls: the TV null it
 * reports beside the tests and the verdict by its rules in order (a draw on a
 * zero-probability token, then Pearson's chi-square at alpha), so a program's
 * own test and the CLI decide alike; weights normalised as `gof --probs` does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sl_stat.h"

size_t sl_stat_tv_null_reps(size_t support, uint64_t n)
{
    double r = 1.5e8 / sl_stat_tv_null_cost(support, n);
    return r < 200 ? 200 : r > 2000 ? 2000 : (size_t)r;
}

int sl_stat_gof_verdict(const sl_stat_gof *g, double alpha, char *rule, size_t n)
{
    /* a verdict is 0 (pass) or 1 (fail): SL_EINVAL (2) says the call could not give one */
    if (!g || (!rule && n) || isnan(alpha))
        return SL_EINVAL;
    int fail = 0;
    if (g->outside > 0) {
        fail = 1;
        snprintf(rule, n,
                 "zero-probability rule: %llu draw%s on %zu token%s with p = 0 (first: token %zu)",
                 (unsigned long long)g->outside, g->outside == 1 ? "" : "s", g->outside_tokens,
                 g->outside_tokens == 1 ? "" : "s", g->outside_first);
    } else if (g->df >= 1 && g->chi2_p < alpha) {
        fail = 1;
        snprintf(rule, n, "Pearson chi-square p = %.3g < alpha = %g", g->chi2_p, alpha);
    } else if (g->df < 1) {
        snprintf(rule, n,
                 "no draw on a zero-probability token; chi-square has no degree of freedom (one cell)");
    } else {
        snprintf(rule, n,
                 "no draw on a zero-probability token and Pearson chi-square p = %.3g >= alpha = %g", g->chi2_p,
                 alpha);
    }
    return fail;
}

int sl_stat_gof_tv_null(const double *p, size_t V, size_t support, uint64_t n, size_t reps, int reps_auto,
                        sl_stat_gof_test *t, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_stat_gof_tv_null", t);
    SL_BASE_NONNULL_N(err, "sl_stat_gof_tv_null", p, V);
    if (!V)
        return sl_base_error_set(err, SL_EINVAL, "sl_stat_gof_tv_null: no tokens (V = 0)");
    t->tv_null_mean = sl_stat_tv_null_mean(p, V, n);
    t->tv_null_q99 = NAN;
    t->tv_null_reps = reps_auto ? sl_stat_tv_null_reps(support, n) : reps;
    if (n <= UINT32_MAX && t->tv_null_reps > 0) {
        double *tvs = malloc(t->tv_null_reps * sizeof *tvs);
        if (!tvs)
            return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu TV null replicates (--null-reps)",
                                     t->tv_null_reps);
        int rc = sl_stat_tv_null_sim(p, V, n, t->tv_null_reps, SL_STAT_SIM_SEED, tvs, NULL, err);
        if (!rc)
            t->tv_null_q99 = sl_stat_quantile_sorted(tvs, t->tv_null_reps, 0.99);
        free(tvs);
        if (rc)
            return rc;
    }
    snprintf(t->tv_null_method, sizeof t->tv_null_method,
             "mean exact (de Moivre); q99 simulated from %zu multinomial samples (%s, %s seed %lu)",
             t->tv_null_reps, sl_stat_tv_null_sampler(support, n), SL_STAT_SIM_RNG, SL_STAT_SIM_SEED);
    return SL_OK;
}

int sl_stat_gof_test_run(const double *p, const uint64_t *counts, size_t V, double alpha, sl_stat_gof_test *t,
                         sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_stat_gof_test_run", t);
    memset(t, 0, sizeof *t);
    if (!(alpha > 0 && alpha < 1))
        return sl_base_error_set(err, SL_EINVAL, "alpha must be in (0,1), not %g", alpha);
    int rc = sl_stat_gof_compute(p, counts, V, &t->g, err);
    if (rc)
        return rc;
    t->alpha = alpha;
    if ((rc = sl_stat_gof_tv_null(p, V, t->g.support, t->g.n, 0, 1, t, err)))
        return rc;
    t->fail = sl_stat_gof_verdict(&t->g, alpha, t->rule, sizeof t->rule);
    return SL_OK;
}

int sl_stat_gof_normalise(const double *w, size_t V, double *p, double *sum, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_stat_gof_normalise", p);
    SL_BASE_NONNULL_N(err, "sl_stat_gof_normalise", w, V);
    if (!V)
        return sl_base_error_set(err, SL_EINVAL, "sl_stat_gof_normalise: no weights (V = 0)");
    double s = 0;
    for (size_t i = 0; i < V; i++) {
        if (!(w[i] >= 0) || isinf(w[i]))
            return sl_base_error_set(err, SL_EINVAL, "weight %zu is %.17g: weights are finite and >= 0", i, w[i]);
        s += w[i];
    }
    if (!(s > 0) || isinf(s))
        return sl_base_error_set(err, SL_EINVAL, "the %zu weights sum to %.17g: a reference needs a finite positive sum",
                                 V, s);
    for (size_t i = 0; i < V; i++)
        p[i] = w[i] / s;
    if (sum)
        *sum = s;
    return SL_OK;
}

int sl_stat_gof_test_run_weights(const double *w, const uint64_t *counts, size_t V, double alpha,
                                 sl_stat_gof_test *t, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_stat_gof_test_run_weights", t);
    memset(t, 0, sizeof *t);
    SL_BASE_NONNULL_N(err, "sl_stat_gof_test_run_weights", w, V);
    SL_BASE_NONNULL_N(err, "sl_stat_gof_test_run_weights", counts, V);
    if (!V)
        return sl_base_error_set(err, SL_EINVAL, "no tokens (V = 0)");
    double *p = malloc((V ? V : 1) * sizeof *p);
    if (!p)
        return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu probabilities", V);
    int rc = sl_stat_gof_normalise(w, V, p, NULL, err);
    if (!rc)
        rc = sl_stat_gof_test_run(p, counts, V, alpha, t, err);
    free(p);
    return rc;
}
