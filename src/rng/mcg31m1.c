/* mcg31m1.c — MCG31m1, the 31-bit multiplicative congruential generator of Intel MKL's
 * VSL (VSL_BRNG_MCG31; L'Ecuyer 1999, "Tables of linear congruential generators of
 * different sizes and good lattice structure"): x_{n+1} = 1132489760 · x_n mod (2^31 - 1).
 * PyTorch 2.x CPU builds with MKL draw exponential_ from it
 * (aten/src/ATen/native/cpu/DistributionKernels.cpp, exponential_kernel).
 *
 * Seeding, output order and uniform conversions were matched against the real
 * libmkl_rt 2020.4 (data/golden/mkl_vsl.txt, analysis/golden/mkl_vsl_golden.c):
 * the first output is the seeded state itself, seed mod m with 0 -> 1. */
#include "rng/sl_rng.h"

static inline uint32_t mulmod(uint32_t a, uint32_t b)
{
    /* a, b < 2^31: the product fits in 62 bits; fold once by 2^31 ≡ 1 (mod m) */
    uint64_t p = (uint64_t)a * b;
    uint64_t r = (p & SL_RNG_MCG31M1_M) + (p >> 31);
    r = (r & SL_RNG_MCG31M1_M) + (r >> 31);
    return r == SL_RNG_MCG31M1_M ? 0u : (uint32_t)r;
}

void sl_rng_mcg31m1_seed(sl_rng_mcg31m1_state *s, uint32_t seed)
{
    uint32_t x = seed % SL_RNG_MCG31M1_M;
    s->x = x ? x : 1u; /* 0 is a fixed point of the map; MKL replaces it by 1 */
}

uint32_t sl_rng_mcg31m1_next(sl_rng_mcg31m1_state *s)
{
    uint32_t out = s->x;
    s->x = mulmod(SL_RNG_MCG31M1_A, s->x);
    return out;
}

uint32_t sl_rng_mcg31m1_pow(uint64_t n)
{
    /* exponents matter mod the multiplicative order of a, which divides m - 1 */
    n %= (uint64_t)(SL_RNG_MCG31M1_M - 1u);
    uint32_t acc = 1, b = SL_RNG_MCG31M1_A;
    while (n) {
        if (n & 1u)
            acc = mulmod(acc, b);
        b = mulmod(b, b);
        n >>= 1;
    }
    return acc;
}

void sl_rng_mcg31m1_skip(sl_rng_mcg31m1_state *s, uint64_t n)
{
    s->x = mulmod(sl_rng_mcg31m1_pow(n), s->x);
}

double sl_rng_mcg31m1_u01_f64(uint32_t x)
{
    return (double)x * (1.0 / 2147483647.0);
}

float sl_rng_mcg31m1_u01_f32(uint32_t x)
{
    return (float)x * (float)(1.0 / 2147483647.0);
}

float sl_rng_mcg31m1_u01_f32_sse42(uint32_t x)
{
    return (float)((double)x / 2147483647.0);
}

static int mcg_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "mcg31m1 takes a seed below 2^64");
    sl_rng_mcg31m1_seed(state, (uint32_t)seed->lo);
    return SL_OK;
}

static uint64_t mcg_next(void *state)
{
    return sl_rng_mcg31m1_next(state);
}

static uint64_t mod_per_128(uint64_t hi, uint64_t lo)
{
    /* (hi·2^64 + lo) mod (2^31 - 2); every factor below 2^31, so no product overflows */
    const uint64_t per = SL_RNG_MCG31M1_M - 1u;
    uint64_t two32 = (1ull << 32) % per;
    uint64_t two64 = two32 * two32 % per;
    return (hi % per * two64 + lo % per) % per;
}

static void mcg_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    /* delta is a 128-bit two's complement step: negative values step back */
    const uint64_t per = SL_RNG_MCG31M1_M - 1u;
    if (delta_hi >> 63) {
        uint64_t lo = ~delta_lo + 1u, hi = ~delta_hi + (lo == 0);
        uint64_t back = mod_per_128(hi, lo);
        sl_rng_mcg31m1_skip(state, back ? per - back : 0);
    } else {
        sl_rng_mcg31m1_skip(state, mod_per_128(delta_hi, delta_lo));
    }
}

const sl_rng_type sl_rng_mcg31m1_type = {
    .name = "mcg31m1",
    .word_bits = 31,
    .state_size = sizeof(sl_rng_mcg31m1_state),
    .seed = mcg_seed,
    .next = mcg_next,
    .advance = mcg_advance,
};
