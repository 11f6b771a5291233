/* uniform.c — turning words into uniforms, named by what they do. Which
 * library uses which matters: the same words give other floats, and so
 * other tokens.
 *   low24     torch float32 uniform_real_distribution (ATen TransformationHelper.h uniform_real)
 *   high24    the usual 24-bit float (e.g. numpy's next_float from a 32-bit word)
 *   mant23    Rust rand 0.8 UniformFloat<f32>: bits into [1,2), minus 1 (23 bits)
 *   hi32_low24  Go math/rand/v2 Rand.Float32: Uint32() = w >> 32, then <<8>>8 keeps its low 24 bits
 *   2x32_hifirst_low53  torch float64: random64() = w1<<32 | w2, low 53 bits
 *   2x32_numpy          genrand_res53 (mt19937ar.c), NumPy legacy random_sample
 *   64_high53           NumPy PCG64 next_double, Rust rand f64
 *   stdcxx              libstdc++ generate_canonical<double, 53> over two 32-bit words
 *                       (std::uniform_real_distribution<double>, llama.cpp's dist)
 */
#include <math.h>
#include <string.h>

#include "rng/sl_rng.h"

/* rng/gsl.c; weak so that a build without GSL (the WebAssembly page) links: there
 * no source has other than 32 or 64 bits, and the default case below is never reached */
double sl_rng_gsl_range(const sl_rng_type *t) __attribute__((weak));

float sl_rng_uniform_f32_low24(sl_rng *r)
{
    return (float)(sl_rng_next(r) & 0xFFFFFFu) * 0x1p-24f;
}

float sl_rng_uniform_f32_high24(sl_rng *r)
{
    return (float)((uint32_t)sl_rng_next(r) >> 8) * 0x1p-24f;
}

float sl_rng_uniform_f32_hi32_low24(sl_rng *r)
{
    return (float)((sl_rng_next(r) >> 32) & 0xFFFFFFu) * 0x1p-24f;
}

float sl_rng_uniform_f32_mant23(sl_rng *r)
{
    uint32_t bits = ((uint32_t)sl_rng_next(r) >> 9) | 0x3f800000u;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f - 1.0f;
}

double sl_rng_uniform_f64_2x32_hifirst_low53(sl_rng *r)
{
    uint64_t hi = (uint32_t)sl_rng_next(r);
    uint64_t lo = (uint32_t)sl_rng_next(r);
    return (double)(((hi << 32) | lo) & ((1ULL << 53) - 1)) * 0x1p-53;
}

double sl_rng_uniform_f64_2x32_numpy(sl_rng *r)
{
    uint32_t a = (uint32_t)sl_rng_next(r) >> 5, b = (uint32_t)sl_rng_next(r) >> 6;
    return ((double)a * 67108864.0 + (double)b) * 0x1p-53;
}

double sl_rng_uniform_f64_64_high53(uint64_t w)
{
    return (double)(w >> 11) * 0x1p-53;
}

/* seedrandom's alea() (lib/alea.js, 3.0.5): the new lag s2, a multiple of 2^-32 */
double sl_rng_uniform_f64_w32(sl_rng *r)
{
    return (double)(uint32_t)sl_rng_next(r) * 0x1p-32;
}

/* libstdc++ bits/random.tcc: sum = w1 + w2 * 2^32 accumulated in double,
 * divided by 2^64; a result of 1.0 becomes nextafter(1, 0) (GCC <= 14) or is
 * drawn again from two new words (GCC >= 15, P0952R2). libc++ and MSVC differ. */
double sl_rng_uniform_f64_stdcxx(sl_rng *r, sl_rng_stdcxx rule)
{
    for (;;) {
        uint32_t w1 = (uint32_t)sl_rng_next(r);
        uint32_t w2 = (uint32_t)sl_rng_next(r);
        double sum = (double)w1;
        sum += (double)w2 * 4294967296.0;
        double ret = sum / 18446744073709551616.0;
        if (ret < 1.0)
            return ret;
        if (rule == SL_STDCXX_CLAMP)
            return nextafter(1.0, 0.0);
    }
}

float sl_rng_uniform_f32_stdcxx(sl_rng *r, sl_rng_stdcxx rule)
{
    for (;;) {
        float ret = (float)(uint32_t)sl_rng_next(r) / 4294967296.0f;
        if (ret < 1.0f)
            return ret;
        if (rule == SL_STDCXX_CLAMP)
            return nextafterf(1.0f, 0.0f);
    }
}

double sl_rng_uniform_f64(sl_rng *r)
{
    switch (r->type->word_bits) {
    case 64:
        return sl_rng_uniform_f64_64_high53(sl_rng_next(r));
    case 32:
        return sl_rng_uniform_f64_2x32_numpy(r);
    default: {
        /* A GSL source whose words are not 32 bits wide: two words as base-R
         * digits, as gsl_rng_uniform would with a finer grid. Stays below 1. */
        double range = sl_rng_gsl_range(r->type);
        double a = (double)sl_rng_next(r), b = (double)sl_rng_next(r);
        double u = (a + b / range) / range;
        return u < 1.0 ? u : 0x1.fffffffffffffp-1;
    }
    }
}

unsigned sl_rng_uniform_f64_words(const sl_rng_type *t)
{
    return t->word_bits == 64 ? 1u : 2u;
}
