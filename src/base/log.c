/* log.c — the natural log of a block of doubles, with the same bits at every SIMD
 * level and on every machine: check's statistics take 32,000 logs a step, and
 * glibc's log, one call at a time (an FMA or a plain variant by CPU), was half
 * of a 10,000-step check.
 *
 * The method is fdlibm's __ieee754_log (e_log.c, Sun Microsystems 1993, as in
 * FreeBSD's msun): x = 2^k m with m in [sqrt(2)/2, sqrt(2)), f = m - 1,
 * s = f / (2 + f), log(1 + f) = f - hfsq + s (hfsq + R) with hfsq = f^2 / 2 and
 * R fdlibm's Remez polynomial in s^2, and k ln 2 in two parts; error below 1 ulp.
 * Each level runs the same additions, multiplications and one division in the
 * same order, with no fused multiply-add (the build has -ffp-contract=off), so
 * the results are equal bit for bit; tests/test_base_log.c checks that, and the
 * error against logl. */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/sl_base.h"

#if SL_BASE_HAVE_AVX2
#include <immintrin.h>
#endif

/* fdlibm's constants: ln 2 = LN2_HI + LN2_LO (LN2_HI ends in 32 zero bits, so
 * k LN2_HI is exact for every exponent k), and Lg1..Lg7 of R */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10
#define LG1 6.666666666666735130e-01
#define LG2 3.999999999940941908e-01
#define LG3 2.857142874366239149e-01
#define LG4 2.222219843214978396e-01
#define LG5 1.818357216161805012e-01
#define LG6 1.531383769920937332e-01
#define LG7 1.479819860511658591e-01

#define SQRT_HALF 0x3fe6a09e667f3bcdULL /* the bits of sqrt(2)/2 */
#define EXP_ONE (0x3ffULL << 52)        /* the bits of 1.0 */
#define MIN_NORMAL 0x0010000000000000ULL
#define INF_BITS 0x7ff0000000000000ULL
#define TWO52 0x4330000000000000ULL /* the bits of 2^52 */

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double of_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* A positive normal x (its bits ix), less `extra` in the exponent: kb = k + 1023
 * from the bits of x / (sqrt(2)/2), never negative for a normal x, m = x 2^-k. */
static double log_normal(uint64_t ix, double extra)
{
    uint64_t kb = (ix - SQRT_HALF + EXP_ONE) >> 52;
    double m = of_bits(ix - (kb << 52) + EXP_ONE);
    double dk = ((double)(int64_t)kb - 1023.0) - extra;
    double f = m - 1.0; /* exact: m is within a factor 2 of 1 */
    double s = f / (2.0 + f), z = s * s, w = z * z;
    double t1 = w * (LG2 + w * (LG4 + w * LG6));
    double t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    double R = t2 + t1, hfsq = 0.5 * f * f;
    return dk * LN2_HI - ((hfsq - (s * (hfsq + R) + dk * LN2_LO)) - f);
}

static int is_normal_pos(uint64_t ix)
{
    return ix - MIN_NORMAL < INF_BITS - MIN_NORMAL;
}

double sl_base_log(double x)
{
    uint64_t ix = bits_of(x);
    if (is_normal_pos(ix))
        return log_normal(ix, 0.0);
    if (x == 0)
        return -INFINITY;
    if (!(x > 0))
        return NAN; /* negative, or NaN */
    if (isinf(x))
        return x;
    return log_normal(bits_of(x * 0x1p54), 54.0); /* subnormal: 2^54 x is normal, exactly */
}

#if defined(__SSE2__)
/* two normal positive entries: log_normal lane by lane */
static void log2_sse2(const double *x, double *y)
{
    const __m128i ix = _mm_loadu_si128((const __m128i *)(const void *)x), one = _mm_set1_epi64x((long long)EXP_ONE);
    __m128i kb = _mm_srli_epi64(_mm_add_epi64(_mm_sub_epi64(ix, _mm_set1_epi64x((long long)SQRT_HALF)), one), 52);
    __m128d m = _mm_castsi128_pd(_mm_add_epi64(_mm_sub_epi64(ix, _mm_slli_epi64(kb, 52)), one));
    /* kb to a double exactly: the bits of 2^52 + kb, less 2^52 + 1023 */
    __m128d dk = _mm_sub_pd(_mm_castsi128_pd(_mm_or_si128(kb, _mm_set1_epi64x((long long)TWO52))),
                            _mm_set1_pd(0x1p52 + 1023.0));
    __m128d f = _mm_sub_pd(m, _mm_set1_pd(1.0));
    __m128d s = _mm_div_pd(f, _mm_add_pd(_mm_set1_pd(2.0), f)), z = _mm_mul_pd(s, s), w = _mm_mul_pd(z, z);
    __m128d t1 = _mm_mul_pd(
        w, _mm_add_pd(_mm_set1_pd(LG2), _mm_mul_pd(w, _mm_add_pd(_mm_set1_pd(LG4), _mm_mul_pd(w, _mm_set1_pd(LG6))))));
    __m128d t2 = _mm_mul_pd(
        z, _mm_add_pd(_mm_set1_pd(LG1),
                      _mm_mul_pd(w, _mm_add_pd(_mm_set1_pd(LG3),
                                               _mm_mul_pd(w, _mm_add_pd(_mm_set1_pd(LG5),
                                                                        _mm_mul_pd(w, _mm_set1_pd(LG7))))))));
    __m128d R = _mm_add_pd(t2, t1), hfsq = _mm_mul_pd(_mm_mul_pd(_mm_set1_pd(0.5), f), f);
    __m128d in = _mm_add_pd(_mm_mul_pd(s, _mm_add_pd(hfsq, R)), _mm_mul_pd(dk, _mm_set1_pd(LN2_LO)));
    __m128d r = _mm_sub_pd(_mm_mul_pd(dk, _mm_set1_pd(LN2_HI)), _mm_sub_pd(_mm_sub_pd(hfsq, in), f));
    _mm_storeu_pd(y, r);
}
#endif

#if SL_BASE_HAVE_AVX2
/* four entries: the same operations, four lanes; returns 0 (y unspecified) unless
 * all four are positive and normal (MIN_NORMAL <= bits < INF_BITS, signed: the
 * negatives are below) */
__attribute__((target("avx2"))) static int log4_avx2(const double *x, double *y)
{
    const __m256i ix = _mm256_loadu_si256((const __m256i *)(const void *)x),
                  one = _mm256_set1_epi64x((long long)EXP_ONE);
    __m256i ok = _mm256_and_si256(_mm256_cmpgt_epi64(ix, _mm256_set1_epi64x((long long)MIN_NORMAL - 1)),
                                  _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)INF_BITS), ix));
    if (_mm256_movemask_pd(_mm256_castsi256_pd(ok)) != 15)
        return 0;
    __m256i kb = _mm256_srli_epi64(
        _mm256_add_epi64(_mm256_sub_epi64(ix, _mm256_set1_epi64x((long long)SQRT_HALF)), one), 52);
    __m256d m = _mm256_castsi256_pd(_mm256_add_epi64(_mm256_sub_epi64(ix, _mm256_slli_epi64(kb, 52)), one));
    __m256d dk = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(kb, _mm256_set1_epi64x((long long)TWO52))),
                               _mm256_set1_pd(0x1p52 + 1023.0));
    __m256d f = _mm256_sub_pd(m, _mm256_set1_pd(1.0));
    __m256d s = _mm256_div_pd(f, _mm256_add_pd(_mm256_set1_pd(2.0), f)), z = _mm256_mul_pd(s, s),
            w = _mm256_mul_pd(z, z);
    __m256d t1 = _mm256_mul_pd(
        w, _mm256_add_pd(_mm256_set1_pd(LG2),
                         _mm256_mul_pd(w, _mm256_add_pd(_mm256_set1_pd(LG4), _mm256_mul_pd(w, _mm256_set1_pd(LG6))))));
    __m256d t2 = _mm256_mul_pd(
        z, _mm256_add_pd(
               _mm256_set1_pd(LG1),
               _mm256_mul_pd(w, _mm256_add_pd(_mm256_set1_pd(LG3),
                                              _mm256_mul_pd(w, _mm256_add_pd(_mm256_set1_pd(LG5),
                                                                             _mm256_mul_pd(w, _mm256_set1_pd(LG7))))))));
    __m256d R = _mm256_add_pd(t2, t1), hfsq = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(0.5), f), f);
    __m256d in = _mm256_add_pd(_mm256_mul_pd(s, _mm256_add_pd(hfsq, R)), _mm256_mul_pd(dk, _mm256_set1_pd(LN2_LO)));
    __m256d r = _mm256_sub_pd(_mm256_mul_pd(dk, _mm256_set1_pd(LN2_HI)), _mm256_sub_pd(_mm256_sub_pd(hfsq, in), f));
    _mm256_storeu_pd(y, r);
    return 1;
}
#endif


void sl_base_log_n(const double *x, double *y, size_t n, int simd)
{
    int level = sl_base_simd_level(simd);
    size_t i = 0;
#if SL_BASE_HAVE_AVX2
    if (level == SL_SIMD_AVX2)
        for (; i + 4 <= n; i += 4) {
            if (!log4_avx2(x + i, y + i))
                for (size_t k = i; k < i + 4; k++)
                    y[k] = sl_base_log(x[k]);
        }
#endif
#if defined(__SSE2__)
    if (level >= SL_SIMD_SSE2)
        for (; i + 2 <= n; i += 2) {
            if (is_normal_pos(bits_of(x[i])) && is_normal_pos(bits_of(x[i + 1])))
                log2_sse2(x + i, y + i);
            else
                for (size_t k = i; k < i + 2; k++)
                    y[k] = sl_base_log(x[k]);
        }
#endif
    (void)level;
    for (; i < n; i++)
        y[i] = sl_base_log(x[i]);
}
