/* jax_prng.c — JAX's default PRNG over Threefry-2x32 (rng/threefry.c), read from
 * source (jax-ml/jax, jax/_src/prng.py at commit 00538d0a6a33035ecdb0abae932f096495276996,
 * jax/_src/random.py at 3238b627a115592576741cb7dc0bd175fc22708a):
 *  - threefry_seed (PRNGKey(S)): key (S >> 32 logical, S & 0xFFFFFFFF) of the seed
 *    array; random_seed makes it np.int64(S) first, which the default 32-bit mode
 *    (jax_enable_x64 off) holds as int32, so the key is (0, S mod 2^32) there;
 *  - threefry_2x32(key, count): the flat count padded with one 0 to even length,
 *    split in halves x1 | x2, hashed pairwise, concatenated, trimmed;
 *  - random_bits(key, 32, (n,)): jax_threefry_partitionable false (JAX < 0.5):
 *    threefry_2x32(key, iota(n)) (n < 2^32 - 1, the one-block case);
 *    true (the default from JAX 0.5): word i = y1 ^ y2 of the block (i >> 32, i mod 2^32)
 *    (iota_2x32_shape's counts_hi, counts_lo);
 *  - split(key, n): false: threefry_2x32(key, iota(2n)) reshaped (n, 2); true: key i =
 *    (y1, y2) of the block (i >> 32, i mod 2^32) (_threefry_split_foldlike);
 *  - fold_in(key, d): threefry_2x32(key, threefry_seed(d)) = the block (0, d);
 *  - uniform(key, (n,), float32, minval, maxval): bits >> 9 | 0x3F800000 as a float,
 *    minus 1, then floats * (maxval - minval) + minval and lax.max(minval, .).
 * Known answers: tests/test_framework_jax.c (JAX's tests/random_test.py). */
#include <float.h>
#include <string.h>

#include "rng/sl_rng.h"

void sl_rng_jax_key(uint64_t seed, uint32_t key[2])
{
    key[0] = 0; /* shift_right_logical of an int32 by 32 is 0 in XLA */
    key[1] = (uint32_t)seed;
}

/* threefry_2x32 over the counts 0 .. n-1 (lax.iota), the halves layout */
static void iota_halves(const uint32_t key[2], size_t n, uint32_t *out)
{
    size_t h = (n + 1) / 2; /* half of the padded length */
    for (size_t j = 0; j < h; j++) {
        uint32_t c[2] = {(uint32_t)j, j + h < n ? (uint32_t)(j + h) : 0}, y[2];
        sl_rng_threefry2x32(key, c, y);
        out[j] = y[0];
        if (j + h < n)
            out[j + h] = y[1];
    }
}

int sl_rng_jax_bits32(const uint32_t key[2], size_t n, int partitionable, uint32_t *out, sl_error *err)
{
    if (partitionable) {
        for (size_t i = 0; i < n; i++) {
            uint64_t c64 = (uint64_t)i;
            uint32_t c[2] = {(uint32_t)(c64 >> 32), (uint32_t)c64}, y[2];
            sl_rng_threefry2x32(key, c, y);
            out[i] = y[0] ^ y[1];
        }
        return SL_OK;
    }
    if ((uint64_t)n >= UINT32_MAX)
        return sl_base_error_set(err, SL_EINVAL,
                                 "jax: random_bits of %zu words without jax_threefry_partitionable splits the key into "
                                 "blocks of 2^32 - 1: not modelled by samplab", n);
    iota_halves(key, n, out);
    return SL_OK;
}

void sl_rng_jax_split(const uint32_t key[2], size_t n, int partitionable, uint32_t (*out)[2])
{
    for (size_t i = 0; i < n; i++) {
        if (partitionable) {
            uint64_t c64 = (uint64_t)i;
            uint32_t c[2] = {(uint32_t)(c64 >> 32), (uint32_t)c64};
            sl_rng_threefry2x32(key, c, out[i]);
        }
    }
    if (!partitionable)
        iota_halves(key, 2 * n, &out[0][0]);
}

void sl_rng_jax_fold_in(const uint32_t key[2], uint32_t data, uint32_t out[2])
{
    const uint32_t c[2] = {0, data};
    sl_rng_threefry2x32(key, c, out);
}

float sl_rng_jax_uniform_f32(uint32_t w, float minval, float maxval)
{
    uint32_t b = (w >> 9) | 0x3F800000u;
    float f;
    memcpy(&f, &b, sizeof f);
    f -= 1.0f;
    f = f * (maxval - minval) + minval;
    return f > minval ? f : minval; /* lax.max(minval, .) */
}
