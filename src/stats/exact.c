/* exact.c — the exact audit: result bookkeeping and summary statistics.
 *
 * A sampler that maps one uniform on a grid of 2^bits values to a token induces
 * P(i) = count[i] / 2^bits; each sampler's audit (the `exact` of its draw or
 * framework type, beside the sampler) computes the counts without enumerating
 * the grid. This file turns
 * counts into the reported summary: TV against the ideal distribution (the float64
 * weights over their sum), the token with the largest relative error, tokens with
 * p > 0 that are never drawn and tokens with p = 0 that are.
 *
 * The TV is computed in long double from exact counts; it is "exact" up to the
 * rounding of the ideal probabilities themselves (relative 2^-53 each). */
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sl_stat.h"

double sl_stat_exact_prob(sl_u128 count, unsigned bits)
{
    /* A count below 2^128 converts with one rounding; the scaling is exact. */
    return ldexp((double)count, -(int)bits);
}

void sl_stat_exact_u128_format(sl_u128 x, char *buf, size_t len)
{
    char tmp[48];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(x % 10));
        x /= 10;
    } while (x && n < sizeof tmp);
    size_t i = 0;
    for (; i < n && i + 1 < len; i++)
        buf[i] = tmp[n - 1 - i];
    if (len)
        buf[i < len ? i : len - 1] = '\0';
}

void sl_stat_exact_rational_format(sl_u128 count, unsigned bits, char *buf, size_t len)
{
    char num[48];
    sl_stat_exact_u128_format(count, num, sizeof num);
    snprintf(buf, len, "%s/2^%u", num, bits);
}

int sl_stat_exact_check_d(const sl_stat_exact_input *in, sl_error *err)
{
    const char *src = in->source ? in->source : "weights";
    if (in->V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no entries", src);
    for (size_t i = 0; i < in->V; i++) {
        double x = in->d[i];
        if (isnan(x))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is NaN", src, i);
        if (isinf(x))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is infinite", src, i);
        if (x < 0)
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is negative (%.17g)", src, i, x);
    }
    return 0;
}

int sl_stat_exact_check_f(const sl_stat_exact_input *in, sl_error *err)
{
    const char *src = in->source ? in->source : "weights";
    if (in->V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no entries", src);
    for (size_t i = 0; i < in->V; i++) {
        float x = in->f[i];
        if (isnan(x))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is NaN", src, i);
        if (isinf(x))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is infinite in float32", src, i);
        if (x < 0)
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is negative (%.9g)", src, i, (double)x);
    }
    return 0;
}

int sl_stat_exact_result_init(sl_stat_exact_result *r, const sl_stat_exact_input *in, unsigned bits, sl_error *err)
{
    size_t V = in->V;
    r->V = V;
    r->bits = bits;
    r->count = calloc(V ? V : 1, sizeof *r->count);
    r->ideal = calloc(V ? V : 1, sizeof *r->ideal);
    if (!r->count || !r->ideal)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    /* The ideal is what the user asked for: the float64 weights over their sum
     * (long double, so that the normalisation adds no visible error). */
    long double s = 0;
    for (size_t i = 0; i < V; i++)
        s += in->d ? (long double)in->d[i] : (long double)in->f[i];
    for (size_t i = 0; i < V; i++) {
        long double w = in->d ? (long double)in->d[i] : (long double)in->f[i];
        r->ideal[i] = s > 0 ? (double)(w / s) : 0.0;
    }
    r->worst = -1;
    return 0;
}

void sl_stat_exact_counts_from_cumulative(sl_stat_exact_result *r, const uint64_t *cum)
{
    sl_u128 prev = 0;
    for (size_t j = 0; j < r->V; j++) {
        sl_u128 c = j + 1 == r->V ? ((sl_u128)1 << r->bits) : (sl_u128)cum[j];
        r->count[j] = c >= prev ? c - prev : 0;
        if (c > prev)
            prev = c;
    }
    r->has_counts = 1;
}

sl_stat_exact_path *sl_stat_exact_path_add(sl_stat_exact_result *r, const char *name, long token,
                                 const char *fmt, ...)
{
    if (r->n_paths >= SL_EXACT_MAX_PATHS)
        return NULL;
    sl_stat_exact_path *p = &r->paths[r->n_paths++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->token = token;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->what, sizeof p->what, fmt, ap);
    va_end(ap);
    return p;
}

void sl_stat_exact_path_set(sl_stat_exact_path *p, sl_u128 num, unsigned bits)
{
    if (!p)
        return;
    p->exact = 1;
    p->has_rational = 1;
    p->num = num;
    p->bits = bits;
    p->prob = sl_stat_exact_prob(num, bits);
}

/* Fills tv, worst, never and zero_drawn from exact counts. */
static int summarise(sl_stat_exact_result *r, sl_error *err)
{
    size_t V = r->V;
    /* The exponential race fills these itself (it has no counts). */
    if (!r->never)
        r->never = calloc(V ? V : 1, sizeof *r->never);
    if (!r->zero_drawn)
        r->zero_drawn = calloc(V ? V : 1, sizeof *r->zero_drawn);
    if (!r->never || !r->zero_drawn)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    if (!r->has_counts || r->always_fails)
        return 0;
    long double tv = 0, den = ldexpl(1.0L, (int)r->bits);
    double worst = -2;
    for (size_t i = 0; i < V; i++) {
        long double q = (long double)r->count[i] / den;
        long double p = r->ideal[i];
        tv += fabsl(q - p);
        if (p > 0 && r->count[i] == 0)
            r->never[r->n_never++] = i;
        if (p == 0 && r->count[i] > 0)
            r->zero_drawn[r->n_zero_drawn++] = i;
        if (p > 0) {
            double rel = (double)(q / p - 1);
            if (fabs(rel) > worst) {
                worst = fabs(rel);
                r->worst = (long)i;
                r->worst_rel = rel;
            }
        }
    }
    r->tv = (double)(tv / 2);
    r->tv_bound = r->tv;
    return 0;
}

int sl_stat_exact_run(const sl_stat_exact_type *t, const sl_stat_exact_input *in, sl_stat_exact_result *out,
                 sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_stat_exact_run", out);
    memset(out, 0, sizeof *out);
    SL_BASE_NONNULL(err, "sl_stat_exact_run", t);
    SL_BASE_NONNULL(err, "sl_stat_exact_run", in);
    SL_BASE_NONNULL_N(err, "sl_stat_exact_run", in->d, in->V);
    out->sampler = t->name;
    out->worst = -1;
    int rc = t->run(in, out, err);
    if (!rc)
        rc = summarise(out, err);
    if (rc)
        sl_stat_exact_result_free(out);
    return rc;
}

void sl_stat_exact_result_free(sl_stat_exact_result *r)
{
    free(r->count);
    free(r->ideal);
    free(r->never);
    free(r->zero_drawn);
    r->count = NULL;
    r->ideal = NULL;
    r->never = r->zero_drawn = NULL;
}

/* The uniform-grid counts of the inverse-CDF audits: their token is a
 * nondecreasing function of k (u = k * 2^-bits), so the grid values selecting a
 * token <= j are those below the boundary; a ceiling when the comparison is made
 * in float64 against k * 2^-bits (exact: scaling by 2^bits is exact). */
/* #{k in [0, 2^bits) : k * 2^-bits < c} for a float64 c >= 0 (bits <= 53). */
uint64_t sl_stat_exact_grid_below(double c, unsigned bits)
{
    double n = 0x1p0 * ldexp(1.0, (int)bits);
    double x = ldexp(c, (int)bits); /* exact: a power-of-two scaling of a finite double */
    if (!(x > 0))
        return 0;
    if (x >= n)
        return (uint64_t)n;
    return (uint64_t)ceil(x);
}

/* #{k : k * 2^-bits <= c}. */
uint64_t sl_stat_exact_grid_at_most(double c, unsigned bits)
{
    double n = ldexp(1.0, (int)bits);
    double x = ldexp(c, (int)bits);
    if (x < 0)
        return 0;
    if (x >= n)
        return (uint64_t)n;
    return (uint64_t)floor(x) + 1;
}

int sl_stat_exact_begin(const sl_stat_exact_input *in, int f32, unsigned bits, sl_stat_exact_result *out,
                        sl_error *err)
{
    int rc = f32 ? sl_stat_exact_check_f(in, err) : sl_stat_exact_check_d(in, err);
    return rc ? rc : sl_stat_exact_result_init(out, in, bits, err);
}
