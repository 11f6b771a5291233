/* sl_rng_mcg31m1.h — Intel MKL's VSL_BRNG_MCG31 (MCG31m1) generator, as PyTorch's MKL
 * exponential_ kernel uses it. See rng/mcg31m1.c. */
#ifndef SL_RNG_MCG31M1_H
#define SL_RNG_MCG31M1_H

#include <stddef.h>
#include <stdint.h>

#include "samplab.h"

#define SL_RNG_MCG31M1_M 2147483647u /* modulus 2^31 - 1 */
#define SL_RNG_MCG31M1_A 1132489760u /* multiplier */

/* x is the next output: MKL returns the seeded state itself first. */
typedef struct sl_rng_mcg31m1_state {
    uint32_t x; /* in [1, 2^31 - 2] */
} sl_rng_mcg31m1_state;

/* vslNewStream(VSL_BRNG_MCG31, seed): x = seed mod (2^31 - 1), then 0 becomes 1.
 * The seed is MKL_UINT, 32 bits in the LP64 interface; callers holding 64 bits cut
 * them first (torch's int64_t seed converts to unsigned int at the call). */
void sl_rng_mcg31m1_seed(sl_rng_mcg31m1_state *s, uint32_t seed);
/* One raw output (viRngUniformBits), in [1, 2^31 - 2]; then x <- a·x mod m. */
uint32_t sl_rng_mcg31m1_next(sl_rng_mcg31m1_state *s);
/* vslSkipAheadStream(n): x <- a^n·x mod m, O(log n). The period is 2^31 - 2. */
void sl_rng_mcg31m1_skip(sl_rng_mcg31m1_state *s, uint64_t n);
/* a^n mod m */
uint32_t sl_rng_mcg31m1_pow(uint64_t n);
/* vdRngUniform(0, 1): x · (1.0 / m) in double (one rounding of the product). */
double sl_rng_mcg31m1_u01_f64(uint32_t x);
/* vsRngUniform(0, 1) on MKL's AVX2 and AVX-512 branches: (float)x · (float)(1/m),
 * and (float)(1/m) is 2^-31, so this is (float)x · 2^-31; it reaches 1.0f for the
 * 63 states x >= 2^31 - 64. (The SSE4.2 branch rounds differently: x / m in double,
 * then to float; sl_rng_mcg31m1_u01_f32_sse42.) */
float sl_rng_mcg31m1_u01_f32(uint32_t x);
float sl_rng_mcg31m1_u01_f32_sse42(uint32_t x);

/* Type "mcg31m1": 31-bit words (the raw outputs), seed below 2^64 taken mod 2^32
 * as the LP64 call does; advance is the skip-ahead. */
extern const sl_rng_type sl_rng_mcg31m1_type;

#endif
