/* mt19937.c — MT19937 (Matsumoto & Nishimura 1998) as the reference
 * mt19937ar.c (2002) writes init_genrand and genrand_int32: the one twist and
 * temper of every MT19937 in samplab. It sits in base so that the statistics'
 * simulations (stats/tvnull.c: GSL's mt19937, whose gsl_rng_set is
 * init_genrand) draw the same words as fast as the rng layer's types
 * (rng/mt19937.c), which wrap these calls and add the seedings.
 *
 * Block generation: the exponential race spends 2·V words a draw, so word
 * generation is most of its cost. The twist and the tempering are straight
 * loops over 4 lanes (SSE2) or 8 (AVX2, checked at run time through
 * sl_base_simd_level); the words are identical at every level, as the tests check. */
#include "base/sl_base.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if SL_BASE_HAVE_AVX2
#include <immintrin.h>
#endif

#define MT_N 624
#define MT_M 397
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu
#define MT_A 0x9908b0dfu
#define MT_TB 0x9d2c5680u
#define MT_TC 0xefc60000u

void sl_base_mt19937_init_genrand(sl_base_mt19937 *s, uint32_t seed)
{
    s->mt[0] = seed;
    for (int i = 1; i < MT_N; i++)
        s->mt[i] = 1812433253u * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    s->mti = MT_N; /* the first draw twists */
}

static inline uint32_t mt_mix(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t y = (a & MT_UPPER) | (b & MT_LOWER);
    return c ^ (y >> 1) ^ ((0u - (y & 1u)) & MT_A);
}

static void twist_range_scalar(uint32_t *mt, int lo, int hi, int off)
{
    for (int k = lo; k < hi; k++)
        mt[k] = mt_mix(mt[k], mt[k + 1], mt[k + off]);
}

#if defined(__SSE2__)
/* mt[k] = mt[k + off] ^ twist(mt[k], mt[k+1]) for k in [lo, hi), 4 at a time.
 * Safe because every lane reads words the earlier lanes have not rewritten
 * (off = 397 reads ahead; off = -227 reads words rewritten 227 places before). */
static void twist_range_sse2(uint32_t *mt, int lo, int hi, int off)
{
    const __m128i upper = _mm_set1_epi32((int)MT_UPPER), lower = _mm_set1_epi32((int)MT_LOWER);
    const __m128i mata = _mm_set1_epi32((int)MT_A), one = _mm_set1_epi32(1);
    int k = lo;
    for (; k + 4 <= hi; k += 4) {
        __m128i a = _mm_loadu_si128((const __m128i *)(mt + k));
        __m128i b = _mm_loadu_si128((const __m128i *)(mt + k + 1));
        __m128i c = _mm_loadu_si128((const __m128i *)(mt + k + off));
        __m128i y = _mm_or_si128(_mm_and_si128(a, upper), _mm_and_si128(b, lower));
        __m128i odd = _mm_cmpeq_epi32(_mm_and_si128(y, one), one);
        __m128i r = _mm_xor_si128(c, _mm_xor_si128(_mm_srli_epi32(y, 1), _mm_and_si128(odd, mata)));
        _mm_storeu_si128((__m128i *)(mt + k), r);
    }
    twist_range_scalar(mt, k, hi, off);
}
#endif

#if SL_BASE_HAVE_AVX2
/* The same twist 8 lanes wide. */
__attribute__((target("avx2"))) static void twist_range_avx2(uint32_t *mt, int lo, int hi, int off)
{
    const __m256i upper = _mm256_set1_epi32((int)MT_UPPER), lower = _mm256_set1_epi32((int)MT_LOWER);
    const __m256i mata = _mm256_set1_epi32((int)MT_A), one = _mm256_set1_epi32(1);
    int k = lo;
    for (; k + 8 <= hi; k += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(mt + k));
        __m256i b = _mm256_loadu_si256((const __m256i *)(mt + k + 1));
        __m256i c = _mm256_loadu_si256((const __m256i *)(mt + k + off));
        __m256i y = _mm256_or_si256(_mm256_and_si256(a, upper), _mm256_and_si256(b, lower));
        __m256i odd = _mm256_cmpeq_epi32(_mm256_and_si256(y, one), one);
        __m256i r = _mm256_xor_si256(c, _mm256_xor_si256(_mm256_srli_epi32(y, 1), _mm256_and_si256(odd, mata)));
        _mm256_storeu_si256((__m256i *)(mt + k), r);
    }
    /* gcc tail-calls the scalar rest without the vzeroupper it puts before a return: the dirty
     * upper halves then slowed every later SSE instruction about twofold (measured after a draw) */
    _mm256_zeroupper();
    twist_range_scalar(mt, k, hi, off);
}
#endif

/* One twist of the whole state, as mt19937ar.c's genrand_int32 does at mti = N.
 * The second range reads mt[k - 227], already rewritten by this pass as the
 * reference requires; a vector step never reaches a word it writes itself. */
void sl_base_mt19937_twist(sl_base_mt19937 *s, int level)
{
    void (*range)(uint32_t *, int, int, int) = twist_range_scalar;
    level = sl_base_simd_level(level);
#if defined(__SSE2__)
    if (level == SL_SIMD_SSE2)
        range = twist_range_sse2;
#endif
#if SL_BASE_HAVE_AVX2
    if (level == SL_SIMD_AVX2)
        range = twist_range_avx2;
#endif
    uint32_t *mt = s->mt;
    range(mt, 0, MT_N - MT_M, MT_M);
    range(mt, MT_N - MT_M, MT_N - 1, MT_M - MT_N);
    mt[MT_N - 1] = mt_mix(mt[MT_N - 1], mt[0], mt[MT_M - 1]);
    s->mti = 0;
}

static inline uint32_t temper(uint32_t y)
{
    y ^= (y >> 11);
    y ^= (y << 7) & MT_TB;
    y ^= (y << 15) & MT_TC;
    y ^= (y >> 18);
    return y;
}

#if SL_BASE_HAVE_AVX2
__attribute__((target("avx2"))) static size_t temper_avx2(const uint32_t *in, uint32_t *out, size_t n)
{
    const __m256i b = _mm256_set1_epi32((int)MT_TB), c = _mm256_set1_epi32((int)MT_TC);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i y = _mm256_loadu_si256((const __m256i *)(in + i));
        y = _mm256_xor_si256(y, _mm256_srli_epi32(y, 11));
        y = _mm256_xor_si256(y, _mm256_and_si256(_mm256_slli_epi32(y, 7), b));
        y = _mm256_xor_si256(y, _mm256_and_si256(_mm256_slli_epi32(y, 15), c));
        y = _mm256_xor_si256(y, _mm256_srli_epi32(y, 18));
        _mm256_storeu_si256((__m256i *)(out + i), y);
    }
    return i;
}
#endif

static void temper_block(const uint32_t *in, uint32_t *out, size_t n, int level)
{
    size_t i = 0;
    (void)level; /* without SSE2 (WebAssembly) the scalar loop is all there is */
#if SL_BASE_HAVE_AVX2
    if (level == SL_SIMD_AVX2)
        i = temper_avx2(in, out, n);
#endif
#if defined(__SSE2__)
    if (level != SL_SIMD_SCALAR) {
        const __m128i b = _mm_set1_epi32((int)MT_TB), c = _mm_set1_epi32((int)MT_TC);
        for (; i + 4 <= n; i += 4) {
            __m128i y = _mm_loadu_si128((const __m128i *)(in + i));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 11));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 7), b));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 15), c));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 18));
            _mm_storeu_si128((__m128i *)(out + i), y);
        }
    }
#endif
    for (; i < n; i++)
        out[i] = temper(in[i]);
}

uint32_t sl_base_mt19937_next(sl_base_mt19937 *s)
{
    if (s->mti >= MT_N)
        sl_base_mt19937_twist(s, SL_SIMD_AUTO);
    return temper(s->mt[s->mti++]);
}

void sl_base_mt19937_fill32(sl_base_mt19937 *s, uint32_t *out, size_t n)
{
    int level = sl_base_simd_level(SL_SIMD_AUTO);
    while (n) {
        if (s->mti >= MT_N)
            sl_base_mt19937_twist(s, level);
        size_t m = (size_t)(MT_N - s->mti);
        if (m > n)
            m = n;
        temper_block(s->mt + s->mti, out, m, level);
        s->mti += (int)m;
        out += m;
        n -= m;
    }
}

