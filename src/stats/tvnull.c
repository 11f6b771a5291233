/* tvnull.c — total variation between the empirical frequencies of N draws
 * and p, under the null hypothesis that the draws come from p.
 *
 * Mean: exact, from de Moivre's closed form for the mean absolute deviation
 * of a binomial, E|X - Np| = 2 nu (1-p) P(X = nu) with nu = floor(Np) + 1
 * (see Diaconis & Zabell, "Closed form summation for classical
 * distributions", Statistical Science 6(3), 1991). The pmf is evaluated in
 * log space with lgamma, so N is not limited to 32 bits.
 * Quantiles: by simulation driven by GSL's mt19937 with a fixed seed, over
 * the support only: each multinomial sample is either gsl_ran_multinomial
 * (conditional binomials, ~65 ns per support token here) or N draws of
 * gsl_ran_discrete (Walker's alias table, ~10 ns per draw), whichever is
 * cheaper for this N and support; both are exact samplers of the same law.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/sl_stat.h"

/* E|X - Np| for X ~ Binomial(n, p). */
static double binom_mad(uint64_t n, double p)
{
    if (p <= 0 || p >= 1)
        return 0;
    double N = (double)n;
    double nu = floor(N * p) + 1;
    if (nu > N)
        return 0;
    double lpmf = lgamma(N + 1) - lgamma(nu + 1) - lgamma(N - nu + 1) + nu * log(p) +
                  (N - nu) * log1p(-p);
    return 2 * nu * (1 - p) * exp(lpmf);
}

double sl_stat_tv_null_mean(const double *p, size_t V, uint64_t n)
{
    double s = 0;
    for (size_t i = 0; i < V; i++)
        s += binom_mad(n, p[i]);
    return 0.5 * s / (double)n;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sl_stat_quantile_sorted(const double *x, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double r = ceil(q * (double)n);
    size_t k = r < 1 ? 0 : (size_t)r - 1;
    if (k >= n)
        k = n - 1;
    return x[k];
}

/* Estimated nanoseconds per multinomial sample (measured on a 2-core x86-64). */
static double cost_multinomial(size_t K) { return 65.0 * (double)K; }
static double cost_alias(uint64_t n) { return 10.0 * (double)n; }

static int use_alias(size_t K, uint64_t n)
{
    return cost_alias(n) < cost_multinomial(K);
}

double sl_stat_tv_null_cost(size_t support, uint64_t n)
{
    double a = cost_alias(n), m = cost_multinomial(support);
    return a < m ? a : m;
}

const char *sl_stat_tv_null_sampler(size_t support, uint64_t n)
{
    return use_alias(support, n) ? "N draws of gsl_ran_discrete (Walker alias)"
                                 : "gsl_ran_multinomial (conditional binomials)";
}

int sl_stat_tv_null_sim(const double *p, size_t V, uint64_t n, size_t reps, unsigned long seed,
                        double *tv, const sl_progress *prog, sl_error *err)
{
    if (n > UINT32_MAX)
        return sl_base_error_set(err, SL_EINVAL, "TV null simulation needs N < 2^32 (N = %llu)",
                            (unsigned long long)n);
    size_t K = 0;
    for (size_t i = 0; i < V; i++)
        K += p[i] > 0;
    double *ps = malloc((K ? K : 1) * sizeof *ps);
    unsigned int *cnt = malloc((K ? K : 1) * sizeof *cnt);
    sl_base_gsl_quiet();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!ps || !cnt || !r) {
        free(ps);
        free(cnt);
        if (r)
            gsl_rng_free(r);
        return sl_base_error_set(err, SL_ENOMEM, "TV null: out of memory for %zu tokens", K);
    }
    gsl_rng_set(r, seed);
    for (size_t i = 0, j = 0; i < V; i++)
        if (p[i] > 0)
            ps[j++] = p[i];
    double N = (double)n;
    gsl_ran_discrete_t *alias = NULL;
    if (use_alias(K, n) && !(alias = gsl_ran_discrete_preproc(K, ps))) {
        free(ps);
        free(cnt);
        gsl_rng_free(r);
        return sl_base_error_set(err, SL_ENOMEM, "TV null: out of memory for %zu tokens", K);
    }
    int rc = SL_OK;
    for (size_t t = 0; t < reps; t++) {
        if (prog && prog->tick && prog->tick(prog->ctx, t, reps)) {
            rc = sl_base_error_set(err, SL_EINTR, "TV null: interrupted after %zu of %zu replicates", t, reps);
            break;
        }
        if (alias) {
            memset(cnt, 0, K * sizeof *cnt);
            for (uint64_t j = 0; j < n; j++)
                cnt[gsl_ran_discrete(r, alias)]++;
        } else {
            gsl_ran_multinomial(r, K, (unsigned int)n, ps, cnt);
        }
        /* Tokens with p = 0 never receive draws under the null: |f - p| = 0 there. */
        double s = 0;
        for (size_t j = 0; j < K; j++)
            s += fabs((double)cnt[j] / N - ps[j]);
        tv[t] = 0.5 * s;
    }
    if (!rc)
        qsort(tv, reps, sizeof *tv, dbl_cmp);
    if (alias)
        gsl_ran_discrete_free(alias);
    free(ps);
    free(cnt);
    gsl_rng_free(r);
    return rc;
}
