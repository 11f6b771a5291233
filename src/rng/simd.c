/* simd.c — the one CPU dispatch: which vector width the SIMD kernels of every
 * layer run (MT19937's twist and tempering here, the exponential race's
 * pre-test in draw/race.c). The output never depends on the level, only the
 * speed does; the tests force each level and compare. */
#include "rng/sl_rng.h"

int sl_rng_simd_level(int wanted)
{
#if SL_RNG_HAVE_AVX2
    if (wanted == SL_SIMD_AUTO)
        return __builtin_cpu_supports("avx2") ? SL_SIMD_AVX2 : SL_SIMD_SSE2;
    if (wanted == SL_SIMD_AVX2)
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
