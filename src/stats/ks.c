/* ks.c — the one-sample Kolmogorov–Smirnov test for uniformity of p-values,
 * with the exact distribution of D_n.
 *
 * K(n, d) = P(D_n < d) follows G. Marsaglia, W. W. Tsang and J. Wang,
 * "Evaluating Kolmogorov's distribution", Journal of Statistical Software
 * 8(18), 2003: with k = floor(n d) + 1, m = 2k - 1 and h = k - n d, Durbin's
 * m x m matrix H (H[i][j] = 1/(i-j+1)! for i-j+1 >= 0, with the first column
 * and last row corrected by powers of h) is raised to the n-th power;
 * K = n!/n^n * (H^n)[k-1][k-1]. The power is taken by squaring with a
 * decimal exponent carried beside the matrix so nothing overflows, and n!/n^n
 * is applied one factor at a time with the same exponent. Written here from
 * the paper's description. In the far right tail (n d^2 > 7.24, or > 3.76
 * with n > 99) the paper's own approximation is used; it is accurate to
 * about 7 digits there, where the p-value is far below any threshold we use.
 * When the matrix would exceed 1001 x 1001 (n d > 500, only for n in the
 * hundreds of thousands) Kolmogorov's limiting distribution with Stephens'
 * correction d (sqrt(n) + 0.12 + 0.11/sqrt(n)) is used instead.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sl_stat.h"

/* C = A B, all m x m, row-major. */
static void mat_mul(const double *A, const double *B, double *C, size_t m)
{
    for (size_t i = 0; i < m; i++) {
        double *c = C + i * m;
        memset(c, 0, m * sizeof *c);
        for (size_t k = 0; k < m; k++) {
            double a = A[i * m + k];
            if (a == 0)
                continue;
            const double *b = B + k * m;
            for (size_t j = 0; j < m; j++)
                c[j] += a * b[j];
        }
    }
}

/* V * 10^eV = A^n, with scratch T (m x m). Iterative binary powering from the
 * most significant bit, rescaling whenever the centre entry grows past 1e140. */
static void mat_pow(const double *A, size_t m, size_t n, double *V, int *eV, double *T)
{
    size_t top = 1;
    while (top <= n / 2)
        top <<= 1;
    memcpy(V, A, m * m * sizeof *V);
    *eV = 0;
    for (size_t bit = top >> 1; bit; bit >>= 1) {
        mat_mul(V, V, T, m);
        *eV *= 2;
        if (n & bit) {
            mat_mul(A, T, V, m);
        } else {
            memcpy(V, T, m * m * sizeof *V);
        }
        if (V[(m / 2) * m + m / 2] > 1e140) {
            for (size_t i = 0; i < m * m; i++)
                V[i] *= 1e-140;
            *eV += 140;
        }
    }
}

int sl_stat_kolmogorov_cdf(size_t n, double d, double *out, sl_error *err)
{
    if (n == 0 || !(d > 0))
        return *out = 0, SL_OK;
    double N = (double)n;
    if (d >= 1)
        return *out = 1, SL_OK;
    double s = d * d * N;
    if (s > 7.24 || (s > 3.76 && n > 99))
        return *out = 1 - 2 * exp(-(2.000071 + 0.331 / sqrt(N) + 1.409 / N) * s), SL_OK;
    size_t k = (size_t)(N * d) + 1;
    size_t m = 2 * k - 1;
    if (m > 1001) {
        /* The matrix would cost O(m^3 log n): use Kolmogorov's limit with
         * Stephens' (1970) finite-n correction, good to ~3 digits for n >= 35,
         * which is all a 0.001 / 0.999 flag needs. */
        double x = d * (sqrt(N) + 0.12 + 0.11 / sqrt(N)), sum = 0;
        for (int j = 1; j <= 100; j++) {
            double t = exp(-2.0 * j * j * x * x);
            sum += (j % 2 ? 1 : -1) * t;
            if (t < 1e-17)
                break;
        }
        double r = 1 - 2 * sum;
        return *out = r < 0 ? 0 : r > 1 ? 1 : r, SL_OK;
    }
    double h = (double)k - N * d;
    double *H = malloc(3 * m * m * sizeof *H);
    if (!H)
        return sl_base_error_set(err, SL_ENOMEM, "Kolmogorov distribution: out of memory for a %zu x %zu matrix", m, m);
    double *Q = H + m * m, *T = Q + m * m;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < m; j++)
            H[i * m + j] = (i + 1 >= j) ? 1.0 : 0.0;
    for (size_t i = 0; i < m; i++) {
        H[i * m] -= pow(h, (double)(i + 1));
        H[(m - 1) * m + i] -= pow(h, (double)(m - i));
    }
    if (2 * h - 1 > 0)
        H[(m - 1) * m] += pow(2 * h - 1, (double)m);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j <= i + 1 && j < m; j++) {
            double f = 1;
            for (size_t g = 2; g <= i - j + 1; g++)
                f *= (double)g;
            H[i * m + j] /= f;
        }
    int e;
    mat_pow(H, m, n, Q, &e, T);
    double r = Q[(k - 1) * m + k - 1];
    for (size_t i = 1; i <= n; i++) {
        r = r * (double)i / N;
        if (r < 1e-140) {
            r *= 1e140;
            e -= 140;
        }
    }
    free(H);
    r *= pow(10.0, e);
    *out = r > 1 ? 1 : r;
    return SL_OK;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int sl_stat_ks_uniform(const double *x, size_t n, double *d, double *p, sl_error *err)
{
    if (n == 0)
        return sl_base_error_set(err, SL_EINVAL, "KS test needs at least one value");
    double *s = malloc(n * sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "KS test: out of memory for %zu values", n);
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] >= 0 && x[i] <= 1)) {
            free(s);
            return sl_base_error_set(err, SL_EINVAL, "KS value %zu (%.17g) is outside [0,1]", i, x[i]);
        }
        s[i] = x[i];
    }
    qsort(s, n, sizeof *s, dbl_cmp);
    double N = (double)n, D = 0;
    for (size_t i = 0; i < n; i++) {
        double up = (double)(i + 1) / N - s[i], lo = s[i] - (double)i / N;
        if (up > D) D = up;
        if (lo > D) D = lo;
    }
    free(s);
    double k;
    int rc = sl_stat_kolmogorov_cdf(n, D, &k, err);
    if (rc)
        return rc;
    *d = D;
    *p = 1 - k;
    if (*p < 0)
        *p = 0;
    return SL_OK;
}
