/* chacha12.c — the ChaCha stream cipher as a random source, laid out as Rust's
 * rand_chacha 0.3.1 (src/guts.rs, src/chacha.rs) and rand_chacha 0.9 do:
 * 64-bit block counter in words 12/13, 64-bit stream id in words 14/15,
 * output read in order, as rand_core's BlockRng reads its 4-block buffer
 * (ours holds 8 blocks; the stream is the same word for word).
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

#include "rng/sl_rng.h"

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

/* SL_CHACHA_BUF_BLOCKS blocks per refill, lane j = block counter + j: the
 * same arithmetic as that many calls of sl_rng_chacha_block, with the blocks
 * side by side in vector registers (rand_chacha also keeps several blocks in
 * SIMD registers). GCC/clang vector extensions: 8 lanes under AVX2 when the
 * CPU has it (checked at run time), else 4 lanes twice (SSE2 on any x86-64);
 * other compilers get the scalar block function. The stream is contiguous,
 * so the refill width never shows in the output. */
#if defined(__GNUC__) || defined(__clang__)
#define VROTL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
/* Rotations by 16 and 8 are byte permutations: clang finds vpshufb by
 * itself, GCC is told (__builtin_shuffle on the bytes) where a byte shuffle
 * instruction exists (AVX2; plain SSE2 has none, so shifts there). */
#if defined(__clang__) || !defined(__GNUC__)
#define VROT16(v, VB, M16) VROTL(v, 16)
#define VROT8(v, VB, M8) VROTL(v, 8)
#else
#define VROT16(v, VB, M16) (SHUF_ ? (__typeof__(v))__builtin_shuffle((VB)(v), M16) : VROTL(v, 16))
#define VROT8(v, VB, M8) (SHUF_ ? (__typeof__(v))__builtin_shuffle((VB)(v), M8) : VROTL(v, 8))
#endif
#define VQR(a, b, c, d)                                 \
    do {                                                \
        a += b; d ^= a; d = VROT16(d, VB_, M16_);       \
        c += d; b ^= c; b = VROTL(b, 12);               \
        a += b; d ^= a; d = VROT8(d, VB_, M8_);         \
        c += d; b ^= c; b = VROTL(b, 7);                \
    } while (0)
#define SL_CHACHA_LANES_FN(NAME, VT, L, ATTR, VB, M16, M8, SHUF)                                           \
    ATTR static void NAME(const sl_rng_chacha_state *s, uint64_t counter, uint32_t *out)                  \
    {                                                                                                     \
        enum { SHUF_ = SHUF };                                                                            \
        typedef VB VB_;                                                                                   \
        const VB_ M16_ = M16, M8_ = M8;                                                                   \
        (void)M16_;                                                                                       \
        (void)M8_;                                                                                        \
        const VT zero = {0};                                                                              \
        VT in[16];                                                                                        \
        in[0] = zero + 0x61707865u;                                                                       \
        in[1] = zero + 0x3320646eu;                                                                       \
        in[2] = zero + 0x79622d32u;                                                                       \
        in[3] = zero + 0x6b206574u;                                                                       \
        for (int w = 0; w < 8; w++)                                                                       \
            in[4 + w] = zero + s->key[w];                                                                 \
        uint32_t lo[L], hi[L];                                                                            \
        for (int j = 0; j < (L); j++) {                                                                   \
            uint64_t c = counter + (uint64_t)j;                                                           \
            lo[j] = (uint32_t)c;                                                                          \
            hi[j] = (uint32_t)(c >> 32);                                                                  \
        }                                                                                                 \
        memcpy(&in[12], lo, sizeof lo);                                                                   \
        memcpy(&in[13], hi, sizeof hi);                                                                   \
        in[14] = zero + (uint32_t)s->stream;                                                              \
        in[15] = zero + (uint32_t)(s->stream >> 32);                                                      \
        VT x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3], x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7]; \
        VT x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11], x12 = in[12], x13 = in[13], x14 = in[14],   \
           x15 = in[15];                                                                                  \
        for (unsigned r = 0; r < s->double_rounds; r++) {                                                 \
            VQR(x0, x4, x8, x12);                                                                         \
            VQR(x1, x5, x9, x13);                                                                         \
            VQR(x2, x6, x10, x14);                                                                        \
            VQR(x3, x7, x11, x15);                                                                        \
            VQR(x0, x5, x10, x15);                                                                        \
            VQR(x1, x6, x11, x12);                                                                        \
            VQR(x2, x7, x8, x13);                                                                         \
            VQR(x3, x4, x9, x14);                                                                         \
        }                                                                                                 \
        VT t[16] = {x0 + in[0], x1 + in[1], x2 + in[2], x3 + in[3], x4 + in[4], x5 + in[5],               \
                    x6 + in[6], x7 + in[7], x8 + in[8], x9 + in[9], x10 + in[10], x11 + in[11],           \
                    x12 + in[12], x13 + in[13], x14 + in[14], x15 + in[15]};                              \
        uint32_t tmp[16][L];                                                                              \
        memcpy(tmp, t, sizeof tmp);                                                                       \
        for (int j = 0; j < (L); j++)                                                                     \
            for (int w = 0; w < 16; w++)                                                                  \
                out[16 * j + w] = tmp[w][j];                                                              \
    }
typedef uint32_t sl_v4u __attribute__((vector_size(16)));
typedef unsigned char sl_v16b __attribute__((vector_size(16)));
#define SL_M16 {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13}
#define SL_M8 {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14}
SL_CHACHA_LANES_FN(chacha_lanes4, sl_v4u, 4, , sl_v16b, SL_M16, SL_M8, 0)
#if defined(__x86_64__) || defined(__i386__)
/* AVX2, row layout (as rand_chacha's ppv-lite86 keeps ChaCha): each 256-bit
 * register holds one row (4 words) of two blocks, so 4 blocks are 8
 * registers and nothing spills; the diagonal round rotates rows b, c, d
 * within each 128-bit half, and a block's 16 words come out contiguous. */
typedef uint32_t sl_v8u __attribute__((vector_size(32)));
typedef unsigned char sl_v32b __attribute__((vector_size(32)));
#if defined(__clang__)
#define SL_ROWS(v, i0, i1, i2, i3) \
    __builtin_shufflevector(v, v, i0, i1, i2, i3, (i0) + 4, (i1) + 4, (i2) + 4, (i3) + 4)
#define SL_ROT16(v) VROTL(v, 16)
#define SL_ROT8(v) VROTL(v, 8)
#else
#define SL_ROWS(v, i0, i1, i2, i3) \
    __builtin_shuffle(v, (sl_v8u){i0, i1, i2, i3, (i0) + 4, (i1) + 4, (i2) + 4, (i3) + 4})
#define SL_ROT16(v)                                                                                      \
    ((sl_v8u)__builtin_shuffle((sl_v32b)(v), (sl_v32b){2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, \
                                                       18, 19, 16, 17, 22, 23, 20, 21, 26, 27, 24, 25, 30, 31, \
                                                       28, 29}))
#define SL_ROT8(v)                                                                                       \
    ((sl_v8u)__builtin_shuffle((sl_v32b)(v), (sl_v32b){3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, \
                                                       19, 16, 17, 18, 23, 20, 21, 22, 27, 24, 25, 26, 31, 28, \
                                                       29, 30}))
#endif
#define SL_RQR(a, b, c, d)                      \
    do {                                        \
        a += b; d ^= a; d = SL_ROT16(d);        \
        c += d; b ^= c; b = VROTL(b, 12);       \
        a += b; d ^= a; d = SL_ROT8(d);         \
        c += d; b ^= c; b = VROTL(b, 7);        \
    } while (0)
__attribute__((target("avx2"))) static void chacha_rows4_avx2(const sl_rng_chacha_state *s, uint64_t counter,
                                                              uint32_t *out)
{
    const sl_v8u a0 = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,
                       0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    const sl_v8u b0 = {s->key[0], s->key[1], s->key[2], s->key[3], s->key[0], s->key[1], s->key[2], s->key[3]};
    const sl_v8u c0 = {s->key[4], s->key[5], s->key[6], s->key[7], s->key[4], s->key[5], s->key[6], s->key[7]};
    uint32_t sl = (uint32_t)s->stream, sh = (uint32_t)(s->stream >> 32);
    uint64_t k0 = counter, k1 = counter + 1, k2 = counter + 2, k3 = counter + 3;
    const sl_v8u dp = {(uint32_t)k0, (uint32_t)(k0 >> 32), sl, sh, (uint32_t)k1, (uint32_t)(k1 >> 32), sl, sh};
    const sl_v8u dq = {(uint32_t)k2, (uint32_t)(k2 >> 32), sl, sh, (uint32_t)k3, (uint32_t)(k3 >> 32), sl, sh};
    sl_v8u pa = a0, pb = b0, pc = c0, pd = dp, qa = a0, qb = b0, qc = c0, qd = dq;
    for (unsigned r = 0; r < s->double_rounds; r++) {
        SL_RQR(pa, pb, pc, pd);
        SL_RQR(qa, qb, qc, qd);
        pb = SL_ROWS(pb, 1, 2, 3, 0); pc = SL_ROWS(pc, 2, 3, 0, 1); pd = SL_ROWS(pd, 3, 0, 1, 2);
        qb = SL_ROWS(qb, 1, 2, 3, 0); qc = SL_ROWS(qc, 2, 3, 0, 1); qd = SL_ROWS(qd, 3, 0, 1, 2);
        SL_RQR(pa, pb, pc, pd);
        SL_RQR(qa, qb, qc, qd);
        pb = SL_ROWS(pb, 3, 0, 1, 2); pc = SL_ROWS(pc, 2, 3, 0, 1); pd = SL_ROWS(pd, 1, 2, 3, 0);
        qb = SL_ROWS(qb, 3, 0, 1, 2); qc = SL_ROWS(qc, 2, 3, 0, 1); qd = SL_ROWS(qd, 1, 2, 3, 0);
    }
    sl_v8u rows[8] = {pa + a0, pb + b0, pc + c0, pd + dp, qa + a0, qb + b0, qc + c0, qd + dq};
    /* row r of the pair (low half = first block, high half = second) */
    for (int pair = 0; pair < 2; pair++)
        for (int r = 0; r < 4; r++) {
            uint32_t w[8];
            memcpy(w, &rows[4 * pair + r], sizeof w);
            memcpy(out + 32 * pair + 4 * r, w, 16);
            memcpy(out + 32 * pair + 16 + 4 * r, w + 4, 16);
        }
}
#define SL_CHACHA_HAVE_AVX2 1
#endif
static void chacha_fill(const sl_rng_chacha_state *s, uint32_t out[16 * SL_CHACHA_BUF_BLOCKS])
{
#ifdef SL_CHACHA_HAVE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        for (int b = 0; b < SL_CHACHA_BUF_BLOCKS; b += 4)
            chacha_rows4_avx2(s, s->counter + (uint64_t)b, out + 16 * b);
        return;
    }
#endif
    chacha_lanes4(s, s->counter, out);
    chacha_lanes4(s, s->counter + 4, out + 64);
}
#else
static void chacha_fill(const sl_rng_chacha_state *s, uint32_t out[16 * SL_CHACHA_BUF_BLOCKS])
{
    uint32_t in[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
    memcpy(in + 4, s->key, sizeof s->key);
    in[14] = (uint32_t)s->stream;
    in[15] = (uint32_t)(s->stream >> 32);
    for (int j = 0; j < SL_CHACHA_BUF_BLOCKS; j++) {
        uint64_t ctr = s->counter + (uint64_t)j;
        in[12] = (uint32_t)ctr;
        in[13] = (uint32_t)(ctr >> 32);
        sl_rng_chacha_block(in, s->double_rounds, out + 16 * j);
    }
}
#endif

void sl_rng_chacha_refill(sl_rng_chacha_state *s)
{
    chacha_fill(s, s->buf);
    s->counter += SL_CHACHA_BUF_BLOCKS; /* wraps mod 2^64 as rand_chacha's counter does */
    s->idx = 0;
}

void sl_rng_chacha_init(sl_rng_chacha_state *s, const uint32_t key[8], uint64_t stream, unsigned double_rounds)
{
    memcpy(s->key, key, sizeof s->key);
    s->counter = 0;
    s->stream = stream;
    s->double_rounds = double_rounds;
    s->idx = SL_CHACHA_BUF_WORDS;
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
    /* buffer holds the blocks before `counter`; idx SL_CHACHA_BUF_WORDS = at block counter */
    uint64_t b = s->counter - SL_CHACHA_BUF_BLOCKS + s->idx / 16;
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

static void chacha_type_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_chacha_state *s = state;
    for (size_t i = 0; i < n; i++)
        out[i] = sl_rng_chacha_next(s);
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
    .fill = chacha_type_fill,
    .advance = chacha_advance,
    .release = NULL,
    .param = NULL,
};
