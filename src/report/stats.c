/* stats.c — the goodness-of-fit numbers the report prints, through
 * the statistics layer (stats/), so the report and `samplab gof` pool,
 * test and simulate the same way: Pearson's chi-square and the G-test over
 * the cells of sl_stat_cells_build (p-values from GSL 2.7's
 * gsl_cdf_chisq_Q), total variation, and TV's null quantiles from
 * sl_stat_tv_null_sim. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "report/sl_report.h"

double sl_report_tv(const double *p, const uint64_t *counts, size_t V, uint64_t N)
{
    return sl_stat_tv(p, counts, V, N);
}

int sl_report_gof_with_cells(const sl_stat_cells *c, const double *p, const uint64_t *counts, size_t V, uint64_t N,
                             sl_report_gof *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = sl_stat_chi2_g(c, counts, &out->chi2, &out->g, &out->outside, err);
    if (rc)
        return rc;
    out->bins = c->ncells;
    out->df = c->ncells > 1 ? c->ncells - 1 : 0;
    out->chi2_p = out->g_p = 1.0;
    if (out->df && ((rc = sl_stat_chisq_q(out->chi2, (double)out->df, &out->chi2_p, err)) ||
                    (rc = sl_stat_chisq_q(out->g, (double)out->df, &out->g_p, err))))
        return rc;
    out->tv = sl_stat_tv(p, counts, V, N);
    return 0;
}

int sl_report_gof_compute(const double *p, const uint64_t *counts, size_t V, uint64_t N, sl_report_gof *out, sl_error *err)
{
    sl_stat_cells c;
    memset(out, 0, sizeof *out);
    int rc = sl_stat_cells_build(&c, p, V, N, 5.0, err);
    if (rc)
        return rc;
    rc = sl_report_gof_with_cells(&c, p, counts, V, N, out, err);
    sl_stat_cells_free(&c);
    return rc;
}

int sl_report_tv_null(const double *p, size_t V, uint64_t N, size_t R, unsigned long seed, sl_report_null *out,
                sl_error *err)
{
    double *tv = malloc((R ? R : 1) * sizeof *tv);
    if (!tv)
        return sl_base_error_set(err, SL_ENOMEM, "TV null: out of memory for %zu replicates", R);
    int rc = sl_stat_tv_null_sim(p, V, N, R, seed, tv, NULL, err);
    if (!rc) {
        double sum = 0.0;
        for (size_t r = 0; r < R; r++)
            sum += tv[r];
        out->mean = sum / (double)R;
        out->q01 = sl_stat_quantile_sorted(tv, R, 0.01);
        out->q50 = sl_stat_quantile_sorted(tv, R, 0.50);
        out->q99 = sl_stat_quantile_sorted(tv, R, 0.99);
    }
    free(tv);
    return rc;
}

const char *sl_report_fmt_p(char *buf, size_t n, double p)
{
    if (p < 0.001 || p > 0.999)
        snprintf(buf, n, "%.2g !", p);
    else
        snprintf(buf, n, "%.3f", p);
    return buf;
}
