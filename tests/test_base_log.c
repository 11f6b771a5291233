/* test_base_log.c — base/log.c, fdlibm's log: the same bits at every SIMD level
 * (scalar, SSE2, AVX2 when the CPU has it) on random bit patterns, probabilities,
 * subnormals and the special values; the error against glibc's logl (x87 long
 * double, 64-bit mantissa) below 1 ulp of the double result, as fdlibm states;
 * and the special values as C's log gives them. Inputs from splitmix64, fixed. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "samplab.h"

static uint64_t sm(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double of_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

#define N (1u << 20)

/* kind 0: any bit pattern; 1: a positive double; 2: a probability as float32 softmax
 * gives it; 3: near 1 and near sqrt(2)/2 and sqrt(2) (the reduction's edges); 4: subnormal */
static double input(uint64_t *s, int kind)
{
    uint64_t r = sm(s);
    switch (kind) {
    case 0:
        return of_bits(r);
    case 1:
        return of_bits(r & 0x7fffffffffffffffULL);
    case 2:
        return (double)(float)ldexp((double)(r >> 11) * 0x1p-53, -(int)(sm(s) % 40));
    case 3: {
        static const double edge[3] = {1.0, 0.70710678118654757, 1.4142135623730951};
        return of_bits(bits_of(edge[r % 3]) + (uint64_t)((int64_t)(sm(s) % 2001) - 1000));
    }
    default:
        return of_bits(r & 0x000fffffffffffffULL);
    }
}

Test(base_log, levels_agree)
{
    double *x = malloc(N * sizeof *x), *y0 = malloc(N * sizeof *y0), *y1 = malloc(N * sizeof *y1),
           *y2 = malloc(N * sizeof *y2);
    cr_assert(x && y0 && y1 && y2);
    uint64_t s = 12345;
    for (size_t i = 0; i < N; i++)
        x[i] = input(&s, (int)(i % 5));
    static const double special[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 4.9406564584124654e-324,
                                     2.2250738585072014e-308, 1.7976931348623157e308};
    memcpy(x + 1000, special, sizeof special);
    sl_base_log_n(x, y0, N, SL_SIMD_SCALAR);
    sl_base_log_n(x, y1, N, SL_SIMD_SSE2);
    sl_base_log_n(x, y2, N, SL_SIMD_AVX2);
    size_t diff = 0;
    for (size_t i = 0; i < N; i++) {
        uint64_t b0 = bits_of(y0[i]), b = bits_of(sl_base_log(x[i]));
        int nan = isnan(y0[i]);
        if (nan ? !(isnan(y1[i]) && isnan(y2[i]) && isnan(sl_base_log(x[i])))
                : (b0 != bits_of(y1[i]) || b0 != bits_of(y2[i]) || b0 != b))
            if (diff++ < 5)
                cr_log_error("log(%a): scalar %a, sse2 %a, avx2 %a, one %a", x[i], y0[i], y1[i], y2[i], sl_base_log(x[i]));
    }
    cr_log_info("log at scalar, SSE2 and AVX2 (level run: %d): %u inputs, %zu differing", sl_base_simd_level(SL_SIMD_AVX2),
                N, diff);
    cr_expect_eq(diff, 0);
    free(x);
    free(y0);
    free(y1);
    free(y2);
}

Test(base_log, error_below_one_ulp)
{
    uint64_t s = 777;
    double worst = 0, at = 0;
    for (size_t i = 0; i < N; i++) {
        double x = input(&s, 1 + (int)(i % 4));
        if (!(x > 0) || isinf(x))
            continue;
        long double t = logl((long double)x);
        double y = sl_base_log(x), r = (double)t;
        if (r == 0) {
            cr_expect_eq(y, 0.0, "log(%a) = %a", x, y);
            continue;
        }
        double ulp = nextafter(fabs(r), INFINITY) - fabs(r);
        double e = (double)fabsl((long double)y - t) / ulp;
        if (e > worst)
            worst = e, at = x;
    }
    cr_log_info("fdlibm log: largest error %.3f ulp (at %a) over %u inputs", worst, at, N);
    cr_expect_lt(worst, 1.0, "error %.3f ulp at %a", worst, at);
}

Test(base_log, special_values)
{
    cr_expect_eq(sl_base_log(1.0), 0.0);
    cr_expect(isinf(sl_base_log(0.0)) && sl_base_log(0.0) < 0);
    cr_expect(isinf(sl_base_log(-0.0)) && sl_base_log(-0.0) < 0);
    cr_expect(isnan(sl_base_log(-1.0)));
    cr_expect(isnan(sl_base_log(-INFINITY)));
    cr_expect(isnan(sl_base_log(NAN)));
    cr_expect_eq(sl_base_log(INFINITY), INFINITY);
    cr_expect_float_eq(sl_base_log(4.9406564584124654e-324), -744.44007192138126, 1e-13);
    cr_expect_float_eq(sl_base_log(1.7976931348623157e308), 709.78271289338397, 1e-13);
    cr_expect_float_eq(sl_base_log(M_E), 1.0, 2.3e-16);
    cr_expect_float_eq(sl_base_log(0.5), -M_LN2, 1.2e-16);
}
