/* exact_cdf.c — the uniform-grid counts every inverse-CDF audit uses, and the
 * audit of torch's replacement path (not yet beside draw/torch.c).
 *
 * An inverse-CDF sampler reads ONE uniform on a grid (u = k * 2^-bits, k uniform)
 * and its token is a nondecreasing function of k. So the number of grid values
 * selecting a token <= j is the first k whose token exceeds j: a ceiling when the
 * comparison is made in float64 against k*2^-bits (exact, since scaling by 2^bits
 * is exact). The audits of draw/cdf.c, linear.c, numpy_choice.c and rand_wi.c sit
 * in those files.
 *
 *  torch-replacement  torch 1.13 multinomial(p, n, replacement=True)
 *          (ATen/native/cpu/MultinomialKernel.cpp): cum = running sum in p's dtype,
 *          cum /= sum, cum[V-1] = 1, u = (random64 & (2^53-1)) * 2^-53, token =
 *          first j with cum[j] >= u (binary search on cum[mid] < u). u = 0 returns
 *          token 0 whatever its probability.
 *
 * Known divergences: torch 2.x takes the exponential race for replacement=True,
 * n=1 (see exact_race.c); reduced float types are not modelled. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sl_stat.h"

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

/* ------------------------------------------------------------------ torch, replacement=True */

/* torch's search: left = 0, right = V; cum[mid] < u moves right. */
static size_t torch_search(const double *cum, size_t V, double u)
{
    size_t l = 0, r = V;
    while (r > l) {
        size_t mid = l + (r - l) / 2;
        if (cum[mid] < u)
            l = mid + 1;
        else
            r = mid;
    }
    return l;
}

static int run_torch_repl(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int f32 = in->dtype == SL_F32;
    int rc = f32 ? sl_stat_exact_check_f(in, err) : sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    if ((rc = sl_stat_exact_result_init(out, in, 53, err)))
        return rc;
    size_t V = in->V;
    double *cum = malloc(V * sizeof *cum);
    uint64_t *K = malloc(V * sizeof *K);
    if (!cum || !K) {
        free(cum);
        free(K);
        return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu tokens", V);
    }
    double sumd = 0;
    if (f32) {
        float s = 0;
        float *cf = malloc(V * sizeof *cf);
        if (!cf) {
            free(cum);
            free(K);
            return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu tokens", V);
        }
        for (size_t j = 0; j < V; j++) {
            s += in->f[j];
            cf[j] = s;
        }
        for (size_t j = 0; j < V; j++)
            cum[j] = (double)(cf[j] / s); /* float32 division, then the compare promotes */
        sumd = (double)s;
        free(cf);
    } else {
        double s = 0;
        for (size_t j = 0; j < V; j++) {
            s += in->d[j];
            cum[j] = s;
        }
        for (size_t j = 0; j < V; j++)
            cum[j] /= s;
        sumd = s;
    }
    snprintf(out->note, sizeof out->note,
             "torch 1.13 multinomial(p, n, replacement=True) over %s p: running sum in p's dtype, "
             "cum /= sum, cum[V-1] = 1, 53-bit double u, first j with cum[j] >= u",
             f32 ? "float32" : "float64");
    if (!(sumd > 0)) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "runtime_error", -1,
            "RuntimeError: invalid multinomial distribution (sum of probabilities <= 0)");
        sl_stat_exact_path_set(p, 1, 0);
    } else {
        cum[V - 1] = 1;
        int has_nan = 0;
        for (size_t j = 0; j < V; j++)
            has_nan |= isnan(cum[j]);
        if (!has_nan) {
            /* token > j  <=>  cum[j] < u  <=>  k > cum[j]*2^53 */
            for (size_t j = 0; j < V; j++)
                K[j] = sl_stat_exact_grid_at_most(cum[j], 53);
        } else {
            /* inf/inf = NaN entries (the sum overflowed): the table is not sorted, so
             * follow torch's own binary search. Each of its comparisons is monotone in
             * u, so its result still is: search per boundary over k. */
            uint64_t a0 = 0;
            for (size_t j = 0; j + 1 < V; j++) {
                uint64_t a = a0, b = (uint64_t)1 << 53;
                while (a < b) {
                    uint64_t mid = a + (b - a) / 2;
                    if (torch_search(cum, V, ldexp((double)mid, -53)) > j)
                        b = mid;
                    else
                        a = mid + 1;
                }
                K[j] = a0 = a;
            }
            K[V - 1] = (uint64_t)1 << 53;
        }
        sl_stat_exact_counts_from_cumulative(out, K);
        if (isinf(sumd)) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "sum_overflow", (long)V - 1,
                "the %s running sum overflows to +inf: cum/sum is 0 before the overflow and "
                "NaN after it, and torch's binary search lands where the sum overflowed",
                f32 ? "float32" : "float64");
            if (p)
                sl_stat_exact_path_set(p, 1, 0);
        }
        /* u = 0 (k = 0): the first j with cum[j] >= 0 is 0, whatever p[0] is;
         * a failure only when p[0] == 0 */
        double p0 = f32 ? (double)in->f[0] : in->d[0];
        if (p0 == 0) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "u_zero", 0,
                "u == 0 exactly (k = 0): returns token 0, which has probability 0");
            sl_stat_exact_path_set(p, 1, 53);
        }
    }
    free(cum);
    free(K);
    return 0;
}

const sl_stat_exact_type sl_stat_exact_torch_repl_type = {
    "torch-replacement", "torch 1.13 multinomial(p, n, replacement=True): float cdf, 53-bit uniform",
    run_torch_repl
};
