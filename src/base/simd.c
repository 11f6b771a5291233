/* simd.c — the one CPU dispatch: which vector width the SIMD kernels of every
 * layer run (MT19937's twist and tempering in rng/mt19937.c, the exponential
 * race's pre-test in draw/race.c, the logs of check's statistics). The output
 * never depends on the level, only the speed does; the tests force each level. */
#include "base/sl_base.h"

int sl_base_simd_level(int wanted)
{
#if SL_BASE_HAVE_AVX2
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
