/* stdcxx_discrete.c — libstdc++'s std::discrete_distribution<int> over float
 * weights, one draw: what llama.cpp's llama_sample_dist (src/llama-sampler.cpp,
 * 0.4.0 and 0.7.0) runs for mirostat, mirostat v2 and adaptive_p.
 *
 * libstdc++ (bits/random.tcc, param_type::_M_initialize and operator()):
 * fewer than two weights clear the table and the draw returns 0 without a
 * word; otherwise the weights widened to double, their sum (std::accumulate
 * from 0.0, in order), each weight / sum, the running sums (std::partial_sum)
 * with the last set to 1.0, then u = generate_canonical<double, 53> (two
 * 32-bit words: sl_rng_uniform_f64_stdcxx, a 1 as rule says) and std::lower_bound's binary
 * search for the first running sum not below u (its probe order, so NaN sums
 * land where libstdc++'s land). libc++ and MSVC differ. */
#include "draw/sl_draw.h"

size_t sl_draw_stdcxx_discrete(const float *w, size_t stride, size_t n, double *cp, sl_rng *rng, sl_rng_stdcxx rule)
{
    if (n < 2)
        return 0;
    const char *b = (const char *)w;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += (double)*(const float *)(const void *)(b + i * stride);
    double run = 0.0;
    for (size_t i = 0; i < n; i++) {
        run += (double)*(const float *)(const void *)(b + i * stride) / sum;
        cp[i] = run;
    }
    cp[n - 1] = 1.0;
    double u = sl_rng_uniform_f64_stdcxx(rng, rule);
    size_t first = 0, len = n;
    while (len > 0) { /* std::__lower_bound */
        size_t half = len >> 1;
        if (cp[first + half] < u) {
            first += half + 1;
            len -= half + 1;
        } else {
            len = half;
        }
    }
    return first;
}
