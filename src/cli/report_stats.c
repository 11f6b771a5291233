/* report_stats.c — the goodness-of-fit numbers the report prints: Pearson's
 * chi-square and the G-test over pooled bins (p-values from GSL 2.7's
 * gsl_cdf_chisq_Q), total variation, and TV's null quantiles by simulation
 * (gsl_ran_multinomial, or GSL's alias table when N < V). Kept next to the report so the report stands on its
 * own; the pooling rule is the one stated in report.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "cli/report.h"

double rep_tv(const double *p, const uint64_t *counts, size_t V, uint64_t N)
{
    double s = 0.0;
    for (size_t i = 0; i < V; i++)
        s += fabs((double)counts[i] / (double)N - p[i]);
    return 0.5 * s;
}

static void rep_bin_close(double o, double e, double *chi2, double *g)
{
    *chi2 += (o - e) * (o - e) / e;
    if (o > 0)
        *g += o * log(o / e);
}

int rep_gof_compute(const double *p, const uint64_t *counts, size_t V, uint64_t N, rep_gof *out)
{
    memset(out, 0, sizeof *out);
    double chi2 = 0.0, g = 0.0, eo = 0.0, oo = 0.0;
    double last_o = 0.0, last_e = 0.0;
    size_t bins = 0;
    int open = 0, have_last = 0;
    for (size_t i = 0; i < V; i++) {
        if (p[i] == 0.0) {
            out->outside += counts[i];
            continue;
        }
        eo += p[i] * (double)N;
        oo += (double)counts[i];
        open = 1;
        if (eo >= 5.0) {
            if (have_last)
                rep_bin_close(last_o, last_e, &chi2, &g);
            last_o = oo;
            last_e = eo;
            have_last = 1;
            bins++;
            eo = oo = 0.0;
            open = 0;
        }
    }
    if (open) { /* a tail below 5 joins the last closed bin */
        if (have_last) {
            last_o += oo;
            last_e += eo;
        } else {
            last_o = oo;
            last_e = eo;
            have_last = 1;
            bins++;
        }
    }
    if (have_last)
        rep_bin_close(last_o, last_e, &chi2, &g);
    out->bins = bins;
    out->df = bins > 1 ? bins - 1 : 0;
    out->chi2 = chi2;
    out->g = 2.0 * g;
    out->chi2_p = out->df ? gsl_cdf_chisq_Q(chi2, (double)out->df) : 1.0;
    out->g_p = out->df ? gsl_cdf_chisq_Q(out->g, (double)out->df) : 1.0;
    out->tv = rep_tv(p, counts, V, N);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile by the nearest-rank rule on sorted values. */
static double rep_quantile(const double *s, size_t R, double q)
{
    size_t k = (size_t)ceil(q * (double)R);
    if (k < 1)
        k = 1;
    if (k > R)
        k = R;
    return s[k - 1];
}

int rep_tv_null(const double *p, size_t V, uint64_t N, size_t R, unsigned long seed, rep_null *out,
                sl_error *err)
{
    if (N > 4000000000u)
        return sl_error_set(err, SL_EINVAL, "null simulation: N = %llu too large", (unsigned long long)N);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    unsigned *c = malloc(V * sizeof *c);
    uint64_t *c64 = malloc(V * sizeof *c64);
    double *tv = malloc(R * sizeof *tv);
    if (!g || !c || !c64 || !tv) {
        gsl_rng_free(g);
        free(c);
        free(c64);
        free(tv);
        return sl_error_set(err, SL_ENOMEM, "out of memory in the null simulation");
    }
    gsl_rng_set(g, seed);
    /* Fewer draws than tokens: N alias draws (gsl_ran_discrete, O(N)) beat
     * V conditional binomials (gsl_ran_multinomial, O(V)); both sample the
     * same multinomial. */
    gsl_ran_discrete_t *alias = N < V ? gsl_ran_discrete_preproc(V, p) : NULL;
    double sum = 0.0;
    for (size_t r = 0; r < R; r++) {
        if (alias) {
            memset(c64, 0, V * sizeof *c64);
            for (uint64_t k = 0; k < N; k++)
                c64[gsl_ran_discrete(g, alias)]++;
        } else {
            gsl_ran_multinomial(g, V, (unsigned)N, p, c);
            for (size_t i = 0; i < V; i++)
                c64[i] = c[i];
        }
        tv[r] = rep_tv(p, c64, V, N);
        sum += tv[r];
    }
    if (alias)
        gsl_ran_discrete_free(alias);
    qsort(tv, R, sizeof *tv, cmp_double);
    out->mean = sum / (double)R;
    out->q01 = rep_quantile(tv, R, 0.01);
    out->q50 = rep_quantile(tv, R, 0.50);
    out->q99 = rep_quantile(tv, R, 0.99);
    gsl_rng_free(g);
    free(c);
    free(c64);
    free(tv);
    return 0;
}

const char *rep_fmt_p(char *buf, size_t n, double p)
{
    if (p < 0.001 || p > 0.999)
        snprintf(buf, n, "%.2g !", p);
    else
        snprintf(buf, n, "%.3f", p);
    return buf;
}
