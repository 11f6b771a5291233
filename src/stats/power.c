/* power.c — how large a sampler fault must be before N draws reveal it.
 *
 * Each fault family distorts the reference p by one parameter theta; for a
 * given q(theta), `trials` samples of N draws are simulated from q
 * (gsl_ran_multinomial with GSL's mt19937, fixed seed, reseeded for every q:
 * common random numbers, so the estimated power is a smooth function of
 * theta) and each test is applied at level alpha:
 *   chi2, G  p-value (GSL chi-square, pooled cells as in gof.c) < alpha;
 *   TV       TV > its simulated null (1 - alpha) quantile at this N and p;
 *   zero     at least one draw on a token with p = 0;
 *   gof      `samplab gof`'s verdict: zero or chi2.
 * Samples are drawn with gsl_ran_multinomial or, when N is small against the
 * support, as N alias draws (gsl_ran_discrete): the same law, cheaper.
 * The smallest detectable fault is found by bisection on theta, assuming
 * power grows with theta; with `trials` samples the power estimate has a
 * standard error of about sqrt(0.09/trials) near 0.9.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/sl_stat.h"

const char *const sl_stat_test_names[SL_TEST_COUNT] = {"chi2", "G", "TV", "zero", "gof"};

const char *const sl_stat_fault_names[SL_FAULT_COUNT] = {"shift", "leak", "topk", "temper"};
const char *const sl_stat_fault_summaries[SL_FAULT_COUNT] = {
    "off-by-one: a fraction of each token's mass moves to its right neighbour",
    "mass leaked onto a zero-probability token",
    "top-k without renormalisation, missing mass falling back to the last token",
    "tempered distribution p^(1/T), T = 1 + theta",
};

double sl_stat_tv_dist(const double *p, const double *q, size_t V)
{
    double s = 0;
    for (size_t i = 0; i < V; i++)
        s += fabs(p[i] - q[i]);
    return 0.5 * s;
}

typedef struct idx_p {
    double p;
    size_t i;
} idx_p;

static int desc_cmp(const void *a, const void *b)
{
    const idx_p *x = a, *y = b;
    if (x->p > y->p) return -1;
    if (x->p < y->p) return 1;
    return (x->i > y->i) - (x->i < y->i);
}

int sl_stat_fault_apply(sl_fault f, const double *p, size_t V, double theta, double *q,
                        sl_error *err)
{
    switch (f) {
    case SL_FAULT_SHIFT:
        if (!(theta >= 0 && theta <= 1))
            return sl_base_error_set(err, SL_EINVAL, "shift fraction %g outside [0,1]", theta);
        for (size_t i = 0; i < V; i++)
            q[i] = (1 - theta) * p[i] + (i > 0 ? theta * p[i - 1] : 0);
        q[V - 1] += theta * p[V - 1];
        return SL_OK;
    case SL_FAULT_LEAK: {
        size_t z = SIZE_MAX;
        for (size_t i = 0; i < V; i++)
            if (p[i] == 0) {
                z = i;
                break;
            }
        if (z == SIZE_MAX)
            return sl_base_error_set(err, SL_EINVAL, "no zero-probability token to leak onto");
        if (!(theta >= 0 && theta <= 1))
            return sl_base_error_set(err, SL_EINVAL, "leak mass %g outside [0,1]", theta);
        for (size_t i = 0; i < V; i++)
            q[i] = (1 - theta) * p[i];
        q[z] = theta;
        return SL_OK;
    }
    case SL_FAULT_TOPK: {
        size_t supp = 0;
        for (size_t i = 0; i < V; i++)
            supp += p[i] > 0;
        double kk = floor(theta);
        if (!(kk >= 1 && kk <= (double)supp))
            return sl_base_error_set(err, SL_EINVAL, "top-k %g outside 1..%zu", theta, supp);
        size_t k = (size_t)kk;
        idx_p *o = malloc(V * sizeof *o);
        if (!o)
            return sl_base_error_set(err, SL_ENOMEM, "fault: out of memory for %zu tokens", V);
        for (size_t i = 0; i < V; i++) {
            o[i].p = p[i];
            o[i].i = i;
        }
        qsort(o, V, sizeof *o, desc_cmp);
        memset(q, 0, V * sizeof *q);
        double kept = 0;
        for (size_t j = 0; j < k; j++) {
            q[o[j].i] = o[j].p;
            kept += o[j].p;
        }
        free(o);
        /* The linear inverse CDF returns the last index when u >= the sum. */
        double lost = 1 - kept;
        q[V - 1] += lost > 0 ? lost : 0;
        return SL_OK;
    }
    case SL_FAULT_TEMPER: {
        if (!(theta > -1))
            return sl_base_error_set(err, SL_EINVAL, "temperature 1%+g is not positive", theta);
        double T = 1 + theta, mx = 0;
        for (size_t i = 0; i < V; i++)
            if (p[i] > mx)
                mx = p[i];
        /* p^(1/T) = exp(log(p/max)/T) * max^(1/T); the constant cancels. */
        double s = 0;
        for (size_t i = 0; i < V; i++) {
            q[i] = p[i] > 0 ? exp(log(p[i] / mx) / T) : 0;
            s += q[i];
        }
        for (size_t i = 0; i < V; i++)
            q[i] /= s;
        return SL_OK;
    }
    default:
        return sl_base_error_set(err, SL_EINVAL, "unknown fault family %d", (int)f);
    }
}

void sl_stat_power_free(sl_stat_power *s)
{
    sl_stat_cells_free(&s->cells);
    free(s->supp_idx);
    free(s->supp_q);
    free(s->draw);
    free(s->counts);
    memset(s, 0, sizeof *s);
}

int sl_stat_power_init(sl_stat_power *s, const double *p, size_t V, uint64_t n, double alpha,
                       size_t trials, unsigned long seed, const sl_progress *prog, sl_error *err)
{
    memset(s, 0, sizeof *s);
    s->progress = prog;
    if (n == 0 || n > UINT32_MAX)
        return sl_base_error_set(err, SL_EINVAL, "power simulation needs 1 <= N < 2^32");
    if (!(alpha > 0 && alpha < 1))
        return sl_base_error_set(err, SL_EINVAL, "alpha %g outside (0,1)", alpha);
    if (trials == 0)
        return sl_base_error_set(err, SL_EINVAL, "trials must be positive");
    int rc = sl_stat_cells_build(&s->cells, p, V, n, 5.0, err);
    if (rc)
        return rc;
    s->p = p;
    s->v = V;
    s->n = n;
    s->alpha = alpha;
    s->trials = trials;
    s->seed = seed;
    s->supp_idx = malloc(V * sizeof *s->supp_idx);
    s->supp_q = malloc(V * sizeof *s->supp_q);
    s->draw = malloc(V * sizeof *s->draw);
    s->counts = malloc(V * sizeof *s->counts);
    /* Enough null replicates that the 1 - alpha quantile rests on >= 20 exceedances. */
    double reps = ceil(20 / alpha);
    s->null_reps = reps < 1000 ? 1000 : reps > 200000 ? 200000 : (size_t)reps;
    double *tv = malloc(s->null_reps * sizeof *tv);
    if (!s->supp_idx || !s->supp_q || !s->draw || !s->counts || !tv) {
        free(tv);
        sl_stat_power_free(s);
        return sl_base_error_set(err, SL_ENOMEM, "power: out of memory for %zu tokens", V);
    }
    rc = sl_stat_tv_null_sim(p, V, n, s->null_reps, seed ^ 0x9e3779b9UL, tv, prog, err);
    if (rc) {
        free(tv);
        sl_stat_power_free(s);
        return rc;
    }
    s->tv_crit = sl_stat_quantile_sorted(tv, s->null_reps, 1 - alpha);
    s->simulated = s->null_reps;
    free(tv);
    return SL_OK;
}

int sl_stat_power_eval(sl_stat_power *s, const double *q, double power[SL_TEST_COUNT],
                       sl_error *err)
{
    size_t K = 0;
    for (size_t i = 0; i < s->v; i++)
        if (q[i] > 0) {
            s->supp_idx[K] = i;
            s->supp_q[K] = q[i];
            K++;
        }
    if (K == 0)
        return sl_base_error_set(err, SL_EINVAL, "fault distribution is empty");
    sl_base_gsl_quiet();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return sl_base_error_set(err, SL_ENOMEM, "power: out of memory for a GSL generator");
    gsl_rng_set(r, s->seed);
    /* The cheaper exact multinomial sampler, as in tvnull.c: conditional
     * binomials cost ~65 ns per support token, alias draws ~10 ns per draw. */
    gsl_ran_discrete_t *alias = NULL;
    if (10.0 * (double)s->n < 65.0 * (double)K && !(alias = gsl_ran_discrete_preproc(K, s->supp_q))) {
        gsl_rng_free(r);
        return sl_base_error_set(err, SL_ENOMEM, "power: gsl_ran_discrete_preproc failed for %zu tokens (out of memory)", K);
    }
    size_t rej[SL_TEST_COUNT] = {0};
    double df = (double)s->cells.ncells - 1;
    memset(s->counts, 0, s->v * sizeof *s->counts);
    for (size_t t = 0; t < s->trials; t++) {
        const sl_progress *pg = s->progress;
        if (pg && pg->tick && pg->tick(pg->ctx, s->simulated, 0)) {
            gsl_rng_free(r);
            if (alias)
                gsl_ran_discrete_free(alias);
            return sl_base_error_set(err, SL_EINTR, "power: interrupted after %llu simulated samples",
                                     (unsigned long long)s->simulated);
        }
        s->simulated++;
        if (alias) {
            memset(s->draw, 0, K * sizeof *s->draw);
            for (uint64_t j = 0; j < s->n; j++)
                s->draw[gsl_ran_discrete(r, alias)]++;
        } else {
            gsl_ran_multinomial(r, K, (unsigned int)s->n, s->supp_q, s->draw);
        }
        for (size_t j = 0; j < K; j++)
            s->counts[s->supp_idx[j]] = s->draw[j];
        double chi2, g;
        uint64_t outside;
        int rc = sl_stat_chi2_g(&s->cells, s->counts, &chi2, &g, &outside, err);
        if (rc) {
            gsl_rng_free(r);
            if (alias)
                gsl_ran_discrete_free(alias);
            return rc;
        }
        double tv = sl_stat_tv(s->p, s->counts, s->v, s->n);
        double q_chi2 = 1, q_g = 1;
        if (df >= 1 && ((rc = sl_stat_chisq_q(chi2, df, &q_chi2, err)) || (rc = sl_stat_chisq_q(g, df, &q_g, err)))) {
            gsl_rng_free(r);
            if (alias)
                gsl_ran_discrete_free(alias);
            return rc;
        }
        int r_chi2 = df >= 1 && q_chi2 < s->alpha;
        int r_g = df >= 1 && q_g < s->alpha;
        int r_zero = outside > 0;
        rej[SL_TEST_CHI2] += r_chi2;
        rej[SL_TEST_G] += r_g;
        rej[SL_TEST_TV] += tv > s->tv_crit;
        rej[SL_TEST_ZERO] += r_zero;
        rej[SL_TEST_GOF] += r_zero || r_chi2;
        for (size_t j = 0; j < K; j++)
            s->counts[s->supp_idx[j]] = 0;
    }
    gsl_rng_free(r);
    if (alias)
        gsl_ran_discrete_free(alias);
    for (int k = 0; k < SL_TEST_COUNT; k++)
        power[k] = (double)rej[k] / (double)s->trials;
    return SL_OK;
}

/* Power of `test` against q(theta); also returns TV(p, q). */
static int power_at(sl_stat_power *s, sl_fault f, int test, double theta, double *q,
                    double *pw, double *tv, sl_error *err)
{
    for (size_t k = 0; k < s->nmemo; k++)
        if (s->memo_f[k] == (int)f && s->memo_theta[k] == theta) {
            *pw = s->memo_power[k][test];
            *tv = s->memo_tv[k];
            return SL_OK;
        }
    int rc = sl_stat_fault_apply(f, s->p, s->v, theta, q, err);
    if (rc)
        return rc;
    double all[SL_TEST_COUNT];
    rc = sl_stat_power_eval(s, q, all, err);
    if (rc)
        return rc;
    *pw = all[test];
    *tv = sl_stat_tv_dist(s->p, q, s->v);
    if (s->nmemo < sizeof s->memo_theta / sizeof s->memo_theta[0]) {
        size_t k = s->nmemo++;
        s->memo_f[k] = (int)f;
        s->memo_theta[k] = theta;
        s->memo_tv[k] = *tv;
        memcpy(s->memo_power[k], all, sizeof all);
    }
    return SL_OK;
}

int sl_stat_power_detect(sl_stat_power *s, sl_fault f, int test, double target,
                         sl_stat_detect *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (test < 0 || test >= SL_TEST_COUNT)
        return sl_base_error_set(err, SL_EINVAL, "unknown test %d", test);
    double *q = malloc(s->v * sizeof *q);
    if (!q)
        return sl_base_error_set(err, SL_ENOMEM, "power: out of memory for %zu tokens", s->v);
    int rc = SL_OK;
    double pw, tv;
    if (f == SL_FAULT_TOPK) {
        /* Integer k: the fault shrinks as k grows. Largest fault: k = 1. */
        size_t hi = s->cells.support; /* k = support is no fault (if the last token is kept) */
        size_t lo = 1;
        if ((rc = power_at(s, f, test, (double)lo, q, &pw, &tv, err)))
            goto done;
        out->theta = (double)lo;
        out->tv = tv;
        out->power = pw;
        if (pw < target)
            goto done;
        out->found = 1;
        /* Invariant: power(lo) >= target; find the largest such k. */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if ((rc = power_at(s, f, test, (double)mid, q, &pw, &tv, err)))
                goto done;
            if (pw >= target) {
                lo = mid;
                out->theta = (double)mid;
                out->tv = tv;
                out->power = pw;
            } else {
                hi = mid;
            }
        }
        goto done;
    }
    double lo = 0, hi = f == SL_FAULT_TEMPER ? 3.0 : 1.0;
    if ((rc = power_at(s, f, test, hi, q, &pw, &tv, err)))
        goto done;
    out->theta = hi;
    out->tv = tv;
    out->power = pw;
    if (pw < target)
        goto done;
    out->found = 1;
    /* Bisection in log scale for the small end: faults span many decades. */
    double lo_pos = 1e-9;
    for (int it = 0; it < 40 && hi / (lo > 0 ? lo : lo_pos) > 1.02; it++) {
        double mid = lo > 0 ? sqrt(lo * hi) : sqrt(lo_pos * hi);
        if ((rc = power_at(s, f, test, mid, q, &pw, &tv, err)))
            goto done;
        if (pw >= target) {
            hi = mid;
            out->theta = mid;
            out->tv = tv;
            out->power = pw;
        } else {
            lo = mid;
        }
    }
done:
    free(q);
    return rc;
}
