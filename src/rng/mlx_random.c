/* mlx_random.c — MLX's random keys and uniform, read from source (ml-explore/mlx,
 * mlx/random.cpp at commit 7ae2c4491eb574f5d6b6ec139fb1dbc9ee6eaf99;
 * mlx/backend/common/threefry.cpp threefry2x32_hash and mlx/backend/cpu/primitives.cpp
 * RandomBits::eval_cpu at 967109367ec47a411cc43b7f4e3612ddb1d5c3e3):
 *  - key(S) = (S >> 32, S & 0xFFFFFFFF) for a uint64 S; mx.random.seed(S) sets the
 *    default KeySequence to it;
 *  - bits(shape, 4, key): per key, n words laid out as JAX's threefry_2x32 over
 *    iota(n) (halves, the middle word of an odd n from the block (n/2, 0)), so it is
 *    sl_rng_jax_bits32 without partitioning;
 *  - split(key) = bits({2, 2}, 4, key) as two keys; KeySequence::next() keeps the
 *    first and hands out the second: every call without a key advances the sequence;
 *  - uniform(shape, float32): bits converted to float32 (rounded), divided by
 *    float32(UINT32_MAX) = 2^32, then minimum(., nextafter(1, 0)). */
#include <math.h>

#include "rng/sl_rng.h"

void sl_rng_mlx_key(uint64_t seed, uint32_t key[2])
{
    key[0] = (uint32_t)(seed >> 32);
    key[1] = (uint32_t)seed;
}

void sl_rng_mlx_next_key(uint32_t key[2], uint32_t used[2])
{
    uint32_t two[2][2];
    sl_rng_jax_split(key, 2, 0, two);
    key[0] = two[0][0];
    key[1] = two[0][1];
    used[0] = two[1][0];
    used[1] = two[1][1];
}

float sl_rng_mlx_uniform_f32(uint32_t w)
{
    float u = (float)w / (float)UINT32_MAX; /* float(UINT32_MAX) rounds to 2^32 */
    const float upper = 0x1.fffffep-1f;      /* std::nextafter(1.0f, 0.0f) */
    return u < upper ? u : upper;            /* minimum(out, upper) */
}
