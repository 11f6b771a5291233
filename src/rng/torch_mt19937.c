/* torch_mt19937.c — PyTorch's CPU generator (at::mt19937 in ATen/core/MT19937RNGEngine.h,
 * torch 1.13.1): MT19937 (Matsumoto & Nishimura 1998) seeded by init_genrand with the low
 * 32 bits of the 64-bit manual_seed value, so seeds equal mod 2^32 give the same stream.
 * Type "torch-mt19937": the same words as "mt19937" seeded with seed mod 2^32; it differs in
 * taking any seed in [0, 2^64) (torch keeps the whole value as initial_seed()) and in the
 * float conversions torch applies (rng/uniform.c: low24, 2x32_hifirst_low53).
 *
 * A bulk filler (sl_rng_torch_mt19937_fill) produces the same words as
 * sl_rng_mt19937_next, a whole block at a time: the exponential race spends 2·V words a
 * call, and word generation is then most of the emulation's cost. The twist and the
 * tempering are written as straight loops over 4-word lanes (SSE2 when the compiler
 * targets it, scalar otherwise; the twist 8 lanes wide on CPUs with AVX2, checked at
 * run time); the output is identical either way, as the tests check. */
#include <string.h>

#include "rng/sl_rng.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SL_TORCH_AVX2 1
#endif

#define MT_N 624
#define MT_M 397
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu
#define MT_A 0x9908b0dfu

static inline uint32_t mt_mix(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t y = (a & MT_UPPER) | (b & MT_LOWER);
    return c ^ (y >> 1) ^ ((0u - (y & 1u)) & MT_A);
}

static void mt_twist_range_scalar(uint32_t *mt, int lo, int hi, int off)
{
    for (int k = lo; k < hi; k++)
        mt[k] = mt_mix(mt[k], mt[k + 1], mt[k + off]);
}

#if defined(__SSE2__)
/* mt[k] = mt[k + off] ^ twist(mt[k], mt[k+1]) for k in [lo, hi), 4 at a time.
 * Safe because every lane reads words the earlier lanes have not rewritten
 * (off = 397 reads ahead; off = -227 reads words rewritten 227 places before). */
static void mt_twist_range_sse2(uint32_t *mt, int lo, int hi, int off)
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
    for (; k < hi; k++)
        mt[k] = mt_mix(mt[k], mt[k + 1], mt[k + off]);
}
#endif

#if defined(SL_TORCH_AVX2)
/* The same twist 8 lanes wide, for CPUs with AVX2 (checked at run time). */
__attribute__((target("avx2"))) static void mt_twist_range_avx2(uint32_t *mt, int lo, int hi, int off)
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
    for (; k < hi; k++)
        mt[k] = mt_mix(mt[k], mt[k + 1], mt[k + off]);
}
#endif

/* One twist of the whole state, as mt19937ar.c's genrand_int32 does at mti = N.
 * The second range reads mt[k - 227], already rewritten by this pass as the
 * reference requires; a 4-lane step never reaches a word it writes itself. */
int sl_rng_torch_simd_level(int wanted)
{
#if defined(SL_TORCH_AVX2)
    if (wanted == SL_SIMD_AUTO)
        return __builtin_cpu_supports("avx2") ? SL_SIMD_AVX2 : SL_SIMD_SSE2;
#endif
#if defined(__SSE2__)
    if (wanted == SL_SIMD_AUTO || wanted == SL_SIMD_AVX2)
        return SL_SIMD_SSE2;
    return wanted;
#else
    (void)wanted;
    return SL_SIMD_SCALAR;
#endif
}

void sl_rng_torch_mt19937_twist_simd(sl_rng_mt19937_state *s, int level)
{
    void (*range)(uint32_t *, int, int, int) = mt_twist_range_scalar;
#if defined(__SSE2__)
    if (level == SL_SIMD_SSE2)
        range = mt_twist_range_sse2;
#endif
#if defined(SL_TORCH_AVX2)
    if (level == SL_SIMD_AVX2)
        range = mt_twist_range_avx2;
#endif
    uint32_t *mt = s->mt;
    range(mt, 0, MT_N - MT_M, MT_M);
    range(mt, MT_N - MT_M, MT_N - 1, MT_M - MT_N);
    mt[MT_N - 1] = mt_mix(mt[MT_N - 1], mt[0], mt[MT_M - 1]);
    s->mti = 0;
}

void sl_rng_torch_mt19937_twist(sl_rng_mt19937_state *s)
{
    sl_rng_torch_mt19937_twist_simd(s, sl_rng_torch_simd_level(SL_SIMD_AUTO));
}

static inline uint32_t mt_temper(uint32_t y)
{
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static void mt_temper_block(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i b = _mm_set1_epi32((int)0x9d2c5680u), c = _mm_set1_epi32((int)0xefc60000u);
    for (; i + 4 <= n; i += 4) {
        __m128i y = _mm_loadu_si128((const __m128i *)(in + i));
        y = _mm_xor_si128(y, _mm_srli_epi32(y, 11));
        y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 7), b));
        y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 15), c));
        y = _mm_xor_si128(y, _mm_srli_epi32(y, 18));
        _mm_storeu_si128((__m128i *)(out + i), y);
    }
#endif
    for (; i < n; i++)
        out[i] = mt_temper(in[i]);
}

void sl_rng_torch_mt19937_fill(sl_rng_mt19937_state *s, uint32_t *out, size_t n)
{
    while (n) {
        if (s->mti >= MT_N)
            sl_rng_torch_mt19937_twist(s);
        size_t m = (size_t)(MT_N - s->mti);
        if (m > n)
            m = n;
        mt_temper_block(s->mt + s->mti, out, m);
        s->mti += (int)m;
        out += m;
        n -= m;
    }
}

/* The same words widened to uint64_t: the bulk `fill` of the three MT19937 types. */
void sl_rng_mt19937_fill64(sl_rng_mt19937_state *s, uint64_t *out, size_t n)
{
    uint32_t buf[MT_N];
    while (n) {
        size_t m = n < MT_N ? n : MT_N;
        sl_rng_torch_mt19937_fill(s, buf, m);
        for (size_t i = 0; i < m; i++)
            out[i] = buf[i];
        out += m;
        n -= m;
    }
}

int sl_rng_torch_mt19937_seed(sl_rng_mt19937_state *s, const sl_seed *seed, sl_error *err)
{
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "torch seeds are 64-bit: the seed must be below 2^64 "
                                            "(torch.manual_seed raises 'Overflow when unpacking long')");
    /* CPUGeneratorImpl::set_current_seed -> mt19937(seed) -> init_with_uint32(seed & 0xffffffff) */
    sl_rng_mt19937_init_genrand(s, (uint32_t)(seed->lo & 0xFFFFFFFFu));
    return SL_OK;
}

static int torch_mt_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL, "torch-mt19937 has no streams (torch.manual_seed takes a seed only)");
    return sl_rng_torch_mt19937_seed(state, seed, err);
}

static uint64_t torch_mt_next(void *state)
{
    return sl_rng_mt19937_next(state);
}

static void torch_mt_type_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_mt19937_fill64(state, out, n);
}

const sl_rng_type sl_rng_torch_mt19937_type = {
    .name = "torch-mt19937",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_mt19937_state),
    .seed = torch_mt_seed,
    .next = torch_mt_next,
    .fill = torch_mt_type_fill,
};
