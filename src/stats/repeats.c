/* repeats.c — the repeat (birthday) test and its power against a generator that
 * reaches only M' << M outcomes.
 *
 * Why: torch 2.0-2.6 pip wheels seed an MKL MCG31m1 stream from one MT19937 word
 * mod (2^31 - 1) in every exponential_ call (PyTorch issue #132395), so the
 * permutations of torch.multinomial(ones(26), 26) repeat as a birthday collision
 * among ~2^31 stream starts, not among 26! orderings. No goodness-of-fit test on
 * token counts sees this; counting repeats does.
 *
 * Null tails: P(R >= 1) = 1 - prod_{i<N} (1 - i/M) (the classical birthday
 * product, summed as log1p so that M = 26! keeps its digits) for N up to
 * SL_STAT_REPEATS_EXACT_N; otherwise R is taken as Poisson with mean N(N-1)/(2M),
 * the expected colliding pairs (the approximation holds while N << M).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/sl_stat.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int sl_stat_repeats_count(const uint64_t *keys, size_t n, uint64_t *repeats, sl_error *err)
{
    *repeats = 0;
    if (n < 2)
        return SL_OK;
    uint64_t *k = malloc(n * sizeof *k);
    if (!k)
        return sl_base_error_set(err, SL_ENOMEM, "repeats: out of memory for %zu keys", n);
    memcpy(k, keys, n * sizeof *k);
    qsort(k, n, sizeof *k, cmp_u64);
    uint64_t r = 0;
    for (size_t i = 1; i < n; i++)
        r += k[i] == k[i - 1];
    free(k);
    *repeats = r;
    return SL_OK;
}

double sl_stat_repeats_hashed_m(double m)
{
    return 1.0 / (1.0 / m + 0x1p-64);
}

double sl_stat_repeats_mean(uint64_t n, double m)
{
    double dn = (double)n;
    return n < 2 ? 0.0 : dn * (dn - 1) / (2 * m);
}

int sl_stat_repeats_sf(uint64_t n, double m, uint64_t r, double *p, int *exact, sl_error *err)
{
    *p = NAN;
    *exact = 1;
    if (!(m >= 1) || isinf(m))
        return sl_base_error_set(err, SL_EINVAL, "repeats: M = %g must be finite and >= 1", m);
    if (r == 0) {
        *p = 1;
        return SL_OK;
    }
    if (n < 2) {
        *p = 0;
        return SL_OK;
    }
    if (r == 1 && (double)n > m) {
        *p = 1; /* more outcomes than possibilities: a repeat is certain */
        return SL_OK;
    }
    if (r == 1 && n <= SL_STAT_REPEATS_EXACT_N) {
        double s = 0;
        for (uint64_t i = 1; i < n; i++)
            s += log1p(-(double)i / m);
        *p = -expm1(s);
        return SL_OK;
    }
    if (r - 1 > UINT_MAX)
        return sl_base_error_set(err, SL_EINVAL, "repeats: %llu repeats is beyond GSL's Poisson cdf",
                                 (unsigned long long)r);
    *exact = 0;
    sl_base_gsl_quiet();
    double q = gsl_cdf_poisson_Q((unsigned int)(r - 1), sl_stat_repeats_mean(n, m));
    if (!(q >= 0 && q <= 1))
        return sl_base_error_set(err, SL_EINVAL, "repeats: GSL's Poisson tail failed (N = %llu, M = %g, r = %llu)",
                                 (unsigned long long)n, m, (unsigned long long)r);
    *p = q;
    return SL_OK;
}

int sl_stat_repeats_test(const uint64_t *keys, size_t n, double m, sl_stat_repeats *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->m = m;
    out->mean = sl_stat_repeats_mean(n, m);
    int rc = sl_stat_repeats_count(keys, n, &out->repeats, err);
    if (rc)
        return rc;
    return sl_stat_repeats_sf(n, m, out->repeats, &out->p, &out->exact, err);
}

int sl_stat_repeats_power_at(uint64_t n, double m, double m_fault, double alpha, sl_stat_repeats_power *out,
                             sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(m_fault >= 1 && m_fault < m) || isinf(m))
        return sl_base_error_set(err, SL_EINVAL, "repeats: need 1 <= M' < M (finite), not M' = %g, M = %g", m_fault, m);
    if (!(alpha > 0 && alpha < 1))
        return sl_base_error_set(err, SL_EINVAL, "repeats: alpha %g outside (0,1)", alpha);
    out->m = m;
    out->m_fault = m_fault;
    out->alpha = alpha;
    out->n = n;
    out->mean_null = sl_stat_repeats_mean(n, m);
    out->mean_fault = sl_stat_repeats_mean(n, m_fault);
    /* r_crit: P_null(R >= r) falls with r; double, then bisect between lo (> alpha) and hi (<= alpha). */
    double p;
    int ex, ex_size;
    int rc = sl_stat_repeats_sf(n, m, 1, &p, &ex, err);
    if (rc)
        return rc;
    uint64_t lo = 1, hi = 1;
    while (p > alpha) {
        lo = hi;
        if (hi > UINT_MAX / 2)
            return sl_base_error_set(err, SL_EINVAL, "repeats: no critical value below 2^32 at N = %llu",
                                     (unsigned long long)n);
        hi *= 2;
        if ((rc = sl_stat_repeats_sf(n, m, hi, &p, &ex, err)))
            return rc;
    }
    if (hi > 1) {
        while (hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            if ((rc = sl_stat_repeats_sf(n, m, mid, &p, &ex, err)))
                return rc;
            *(p > alpha ? &lo : &hi) = mid;
        }
    }
    out->r_crit = hi;
    if ((rc = sl_stat_repeats_sf(n, m, hi, &out->size, &ex_size, err)) ||
        (rc = sl_stat_repeats_sf(n, m_fault, hi, &out->power, &ex, err)))
        return rc;
    out->exact = ex_size && ex;
    return SL_OK;
}

int sl_stat_repeats_power_n(double m, double m_fault, double alpha, double target, sl_stat_repeats_power *out,
                            sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(target > 0 && target < 1))
        return sl_base_error_set(err, SL_EINVAL, "repeats: target power %g outside (0,1)", target);
    /* Invariant: power(lo) < target (power(1) = 0), power(hi) >= target. */
    uint64_t lo = 1, hi = 2;
    int rc;
    for (;;) {
        if ((rc = sl_stat_repeats_power_at(hi, m, m_fault, alpha, out, err)))
            return rc;
        if (out->power >= target)
            break;
        lo = hi;
        if (hi >= (1ull << 53))
            return sl_base_error_set(err, SL_EINVAL, "repeats: power %g not reached below N = 2^53", target);
        hi *= 2;
    }
    sl_stat_repeats_power best = *out;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if ((rc = sl_stat_repeats_power_at(mid, m, m_fault, alpha, out, err)))
            return rc;
        if (out->power >= target) {
            hi = mid;
            best = *out;
        } else {
            lo = mid;
        }
    }
    *out = best;
    return SL_OK;
}
