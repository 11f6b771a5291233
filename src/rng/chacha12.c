/* chacha12.c — the ChaCha stream cipher as a random source, laid out as Rust's
 * rand_chacha 0.3.1 (src/guts.rs, src/chacha.rs) and rand_chacha 0.9 do:
 * 64-bit block counter in words 12/13, 64-bit stream id in words 14/15,
 * output read through rand_core's BlockRng over 4 blocks (64 words).
 * ChaCha: D. J. Bernstein, "ChaCha, a variant of Salsa20" (2008); block
 * function as RFC 7539 section 2.3 (which has a 32-bit counter and a 96-bit
 * nonce: the same 16 words, split differently, see tests/test_rng_chacha12.c).
 *
 * Type "chacha12": key = the 128-bit --seed little-endian (low 64 bits first)
 * and 16 zero bytes, stream = --stream, i.e. ChaCha12Rng::from_seed(key)
 * followed by set_stream(stream). 32-bit words (next_u32). advance() is
 * set_word_pos(get_word_pos() + delta) over the 2^68-word cycle.
 * The PCG32 key expansion of rand's seed_from_u64 lives here too; the
 * "rand-stdrng" type that uses it is in rng/rand_stdrng.c.
 * Known divergences: none in the stream; rand's fill_bytes is not offered. */
#include <string.h>

#include "samplab.h"

#define ROTL32(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define QR(a, b, c, d)                 \
    do {                               \
        a += b; d ^= a; d = ROTL32(d, 16); \
        c += d; b ^= c; b = ROTL32(b, 12); \
        a += b; d ^= a; d = ROTL32(d, 8);  \
        c += d; b ^= c; b = ROTL32(b, 7);  \
    } while (0)

void sl_rng_chacha_block(const uint32_t in[16], unsigned double_rounds, uint32_t out[16])
{
    uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3], x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
    uint32_t x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11], x12 = in[12], x13 = in[13], x14 = in[14],
             x15 = in[15];
    for (unsigned r = 0; r < double_rounds; r++) {
        QR(x0, x4, x8, x12); /* columns */
        QR(x1, x5, x9, x13);
        QR(x2, x6, x10, x14);
        QR(x3, x7, x11, x15);
        QR(x0, x5, x10, x15); /* diagonals */
        QR(x1, x6, x11, x12);
        QR(x2, x7, x8, x13);
        QR(x3, x4, x9, x14);
    }
    out[0] = x0 + in[0]; out[1] = x1 + in[1]; out[2] = x2 + in[2]; out[3] = x3 + in[3];
    out[4] = x4 + in[4]; out[5] = x5 + in[5]; out[6] = x6 + in[6]; out[7] = x7 + in[7];
    out[8] = x8 + in[8]; out[9] = x9 + in[9]; out[10] = x10 + in[10]; out[11] = x11 + in[11];
    out[12] = x12 + in[12]; out[13] = x13 + in[13]; out[14] = x14 + in[14]; out[15] = x15 + in[15];
}

/* Four blocks at once, lane j = block counter+j: the same arithmetic as four
 * calls of sl_rng_chacha_block, written over arrays so the compiler can keep
 * the four blocks in vector registers (rand_chacha does the same with SIMD). */
static void chacha_block4(const sl_rng_chacha_state *s, uint32_t out[64])
{
    uint32_t in[16][4], x[16][4];
    static const uint32_t sigma[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    for (int j = 0; j < 4; j++) {
        uint64_t ctr = s->counter + (uint64_t)j;
        for (int w = 0; w < 4; w++)
            in[w][j] = sigma[w];
        for (int w = 0; w < 8; w++)
            in[4 + w][j] = s->key[w];
        in[12][j] = (uint32_t)ctr;
        in[13][j] = (uint32_t)(ctr >> 32);
        in[14][j] = (uint32_t)s->stream;
        in[15][j] = (uint32_t)(s->stream >> 32);
    }
    memcpy(x, in, sizeof x);
#define QR4(a, b, c, d)                                                        \
    for (int j = 0; j < 4; j++) {                                              \
        x[a][j] += x[b][j]; x[d][j] ^= x[a][j]; x[d][j] = ROTL32(x[d][j], 16); \
        x[c][j] += x[d][j]; x[b][j] ^= x[c][j]; x[b][j] = ROTL32(x[b][j], 12); \
        x[a][j] += x[b][j]; x[d][j] ^= x[a][j]; x[d][j] = ROTL32(x[d][j], 8);  \
        x[c][j] += x[d][j]; x[b][j] ^= x[c][j]; x[b][j] = ROTL32(x[b][j], 7);  \
    }
    for (unsigned r = 0; r < s->double_rounds; r++) {
        QR4(0, 4, 8, 12) QR4(1, 5, 9, 13) QR4(2, 6, 10, 14) QR4(3, 7, 11, 15)
        QR4(0, 5, 10, 15) QR4(1, 6, 11, 12) QR4(2, 7, 8, 13) QR4(3, 4, 9, 14)
    }
#undef QR4
    for (int j = 0; j < 4; j++)
        for (int w = 0; w < 16; w++)
            out[16 * j + w] = x[w][j] + in[w][j];
}

void sl_rng_chacha_refill(sl_rng_chacha_state *s)
{
    chacha_block4(s, s->buf);
    s->counter += 4; /* wraps mod 2^64 as rand_chacha's counter does */
    s->idx = 0;
}

void sl_rng_chacha_init(sl_rng_chacha_state *s, const uint32_t key[8], uint64_t stream, unsigned double_rounds)
{
    memcpy(s->key, key, sizeof s->key);
    s->counter = 0;
    s->stream = stream;
    s->double_rounds = double_rounds;
    s->idx = 64;
}

uint64_t sl_rng_chacha_next_u64(sl_rng_chacha_state *s)
{
    uint64_t lo = sl_rng_chacha_next(s);
    uint64_t hi = sl_rng_chacha_next(s);
    return lo | (hi << 32);
}

void sl_rng_chacha_set_pos(sl_rng_chacha_state *s, uint64_t block, unsigned word)
{
    /* as ChaCha12Rng::set_word_pos: refill at `block`, skip `word` words */
    s->counter = block;
    sl_rng_chacha_refill(s);
    s->idx = word & 15u;
}

void sl_rng_chacha_get_pos(const sl_rng_chacha_state *s, uint64_t *block, unsigned *word)
{
    /* buffer holds blocks counter-4 .. counter-1; idx 64 = at block counter */
    uint64_t b = s->counter - 4 + s->idx / 16;
    *block = b;
    *word = s->idx % 16;
}

void sl_rng_rand_seed_from_u64(uint64_t seed, uint32_t key[8])
{
    uint64_t st = seed;
    for (int i = 0; i < 8; i++) {
        st = st * 6364136223846793005ULL + 11634580027462260723ULL;
        uint32_t xorshifted = (uint32_t)(((st >> 18) ^ st) >> 27);
        unsigned rot = (unsigned)(st >> 59);
        key[i] = (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
    }
}

/* ---- the "chacha12" type */

static int chacha12_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    (void)err;
    uint32_t key[8] = {(uint32_t)seed->lo, (uint32_t)(seed->lo >> 32), (uint32_t)seed->hi,
                       (uint32_t)(seed->hi >> 32), 0, 0, 0, 0};
    sl_rng_chacha_init(state, key, seed->has_stream ? seed->stream : 0, 6);
    return SL_OK;
}

static uint64_t chacha_next(void *state)
{
    return sl_rng_chacha_next(state);
}

/* set_word_pos(get_word_pos() + delta) with delta a 128-bit two's complement
 * number; positions live mod 2^68 = 2^64 blocks of 16 words. */
static void chacha_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    sl_rng_chacha_state *s = state;
    uint64_t block;
    unsigned word;
    sl_rng_chacha_get_pos(s, &block, &word);
    unsigned w = word + (unsigned)(delta_lo & 15u);
    block += (delta_lo >> 4) | (delta_hi << 60);
    block += w >> 4;
    sl_rng_chacha_set_pos(s, block, w & 15u);
}

const sl_rng_type sl_rng_chacha12_type = {
    .name = "chacha12",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_chacha_state),
    .seed = chacha12_seed,
    .next = chacha_next,
    .advance = chacha_advance,
    .release = NULL,
    .param = NULL,
};
