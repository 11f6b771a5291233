/* seedseq.c — NumPy's SeedSequence (numpy/random/bit_generator.pyx, NumPy 1.24):
 * the entropy pool of 4 uint32 words that default_rng(seed) and PCG64(seed)
 * draw their initial state from. Algorithm after M. E. O'Neill's seed_seq_fe
 * ("Developing a seed_seq alternative", 2015) as NumPy adapted it: one running
 * hash constant shared by every hashmix call, all-pairs mixing of the pool,
 * then any entropy beyond 4 words mixed into every pool word.
 * Checked against data/golden/numpy_seedseq.txt (Debian python3-numpy 1.24.2).
 * Divergences: none known; only the default pool size 4 is provided.
 */
#include "rng/sl_rng.h"

#define SS_POOL 4
#define SS_INIT_A 0x43b0d7e5u
#define SS_MULT_A 0x931e8875u
#define SS_INIT_B 0x8b51f9ddu
#define SS_MULT_B 0x58f38dedu
#define SS_MIX_L 0xca01f9ddu
#define SS_MIX_R 0x4973f715u
#define SS_XSHIFT 16

static uint32_t ss_hashmix(uint32_t value, uint32_t *hash)
{
    value ^= *hash;
    *hash *= SS_MULT_A;
    value *= *hash;
    value ^= value >> SS_XSHIFT;
    return value;
}

static uint32_t ss_mix(uint32_t x, uint32_t y)
{
    uint32_t r = SS_MIX_L * x - SS_MIX_R * y;
    r ^= r >> SS_XSHIFT;
    return r;
}

/* Word i of NumPy's assembled entropy: the run entropy (zero-padded to the
 * pool size when a spawn key follows), then the spawn key. */
static uint32_t ss_word(const uint32_t *e, size_t n, size_t run, const uint32_t *k, size_t i)
{
    if (i < run)
        return i < n ? e[i] : 0u;
    return k[i - run];
}

void sl_rng_seedseq_init(sl_rng_seedseq *ss, const uint32_t *entropy, size_t n,
                         const uint32_t *spawn, size_t nspawn)
{
    size_t run = (nspawn > 0 && n < SS_POOL) ? SS_POOL : n;
    size_t total = run + nspawn;
    uint32_t hash = SS_INIT_A;

    for (size_t i = 0; i < SS_POOL; i++)
        ss->pool[i] = ss_hashmix(i < total ? ss_word(entropy, n, run, spawn, i) : 0u, &hash);
    for (size_t src = 0; src < SS_POOL; src++)
        for (size_t dst = 0; dst < SS_POOL; dst++)
            if (src != dst)
                ss->pool[dst] = ss_mix(ss->pool[dst], ss_hashmix(ss->pool[src], &hash));
    for (size_t src = SS_POOL; src < total; src++)
        for (size_t dst = 0; dst < SS_POOL; dst++)
            ss->pool[dst] = ss_mix(ss->pool[dst],
                                   ss_hashmix(ss_word(entropy, n, run, spawn, src), &hash));
}

void sl_rng_seedseq_generate32(const sl_rng_seedseq *ss, uint32_t *out, size_t n)
{
    uint32_t hash = SS_INIT_B;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = ss->pool[i % SS_POOL];
        v ^= hash;
        hash *= SS_MULT_B;
        v *= hash;
        v ^= v >> SS_XSHIFT;
        out[i] = v;
    }
}

void sl_rng_seedseq_generate64(const sl_rng_seedseq *ss, uint64_t *out, size_t n)
{
    /* NumPy views the uint32 words as little-endian uint64 pairs. */
    uint32_t hash = SS_INIT_B;
    for (size_t i = 0; i < 2 * n; i++) {
        uint32_t v = ss->pool[i % SS_POOL];
        v ^= hash;
        hash *= SS_MULT_B;
        v *= hash;
        v ^= v >> SS_XSHIFT;
        if (i % 2 == 0)
            out[i / 2] = v;
        else
            out[i / 2] |= (uint64_t)v << 32;
    }
}

size_t sl_rng_seedseq_int_words(uint64_t lo, uint64_t hi, uint32_t out[4])
{
    uint32_t w[4] = { (uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32) };
    size_t n = 4;
    while (n > 1 && w[n - 1] == 0)
        n--;
    for (size_t i = 0; i < n; i++)
        out[i] = w[i];
    return n;
}
