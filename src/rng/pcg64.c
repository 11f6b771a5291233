/* pcg64.c — the "pcg64" random source: NumPy 1.24's PCG64 bit generator
 * (numpy/random/src/pcg64/pcg64.h), i.e. pcg-c's pcg_setseq_128_xsl_rr_64
 * (M. E. O'Neill, "PCG: A Family of Simple Fast Space-Efficient Statistically
 * Good Algorithms for Random Number Generation", 2014): a 128-bit LCG stepped
 * FIRST, then XSL-RR output rotr64(hi ^ lo, hi >> 58) of the new state.
 * Seeding as np.random.default_rng(S) / PCG64(S): SeedSequence(S) gives
 * generate_state(4, uint64) = v0..v3, then srandom(initstate = v0:v1,
 * initseq = v2:v3) with the high half first. A stream q on the seed becomes
 * SeedSequence(S, spawn_key=(q,)).
 * advance(delta) is pcg_advance_lcg_128 (F. Brown, "Random number generation
 * with arbitrary strides", 1994), delta mod 2^128 so negative deltas step back.
 * 128-bit arithmetic is done on 64-bit halves, so no compiler extension is needed.
 * Divergences: NumPy's buffered 32-bit half (has_uint32) is not kept; no
 * NumPy path used here (next_double, choice) reads it.
 */
#include "rng/sl_rng.h"

/* Multiplier of pcg-c's PCG_DEFAULT_MULTIPLIER_128. */
#define PCG64_MULT_HI 0x2360ed051fc65da4ull
#define PCG64_MULT_LO 0x4385df649fccf645ull

typedef struct { uint64_t hi, lo; } u128;

static uint64_t mulhi64(uint64_t a, uint64_t b)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static u128 mul128(u128 a, u128 b)
{
    u128 r;
    r.lo = a.lo * b.lo;
    r.hi = mulhi64(a.lo, b.lo) + a.hi * b.lo + a.lo * b.hi;
    return r;
}

static u128 add128(u128 a, u128 b)
{
    u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

void sl_rng_pcg64_step(sl_rng_pcg64_state *s)
{
    u128 st = { s->state_hi, s->state_lo }, m = { PCG64_MULT_HI, PCG64_MULT_LO },
         inc = { s->inc_hi, s->inc_lo };
    st = add128(mul128(st, m), inc);
    s->state_hi = st.hi;
    s->state_lo = st.lo;
}

void sl_rng_pcg64_srandom(sl_rng_pcg64_state *s, uint64_t initstate_hi, uint64_t initstate_lo,
                          uint64_t initseq_hi, uint64_t initseq_lo)
{
    s->state_hi = s->state_lo = 0;
    s->inc_hi = (initseq_hi << 1) | (initseq_lo >> 63);
    s->inc_lo = (initseq_lo << 1) | 1u;
    sl_rng_pcg64_step(s);
    u128 st = { s->state_hi, s->state_lo }, add = { initstate_hi, initstate_lo };
    st = add128(st, add);
    s->state_hi = st.hi;
    s->state_lo = st.lo;
    sl_rng_pcg64_step(s);
}

void sl_rng_pcg64_seed_seedseq(sl_rng_pcg64_state *s, const sl_rng_seedseq *ss)
{
    uint64_t v[4];
    sl_rng_seedseq_generate64(ss, v, 4);
    sl_rng_pcg64_srandom(s, v[0], v[1], v[2], v[3]);
}

uint64_t sl_rng_pcg64_next(sl_rng_pcg64_state *s)
{
    sl_rng_pcg64_step(s);
    uint64_t x = s->state_hi ^ s->state_lo;
    unsigned rot = (unsigned)(s->state_hi >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

void sl_rng_pcg64_advance(sl_rng_pcg64_state *s, uint64_t delta_lo, uint64_t delta_hi)
{
    u128 cur_mult = { PCG64_MULT_HI, PCG64_MULT_LO }, cur_plus = { s->inc_hi, s->inc_lo };
    u128 acc_mult = { 0, 1 }, acc_plus = { 0, 0 }, one = { 0, 1 };
    while (delta_lo | delta_hi) {
        if (delta_lo & 1u) {
            acc_mult = mul128(acc_mult, cur_mult);
            acc_plus = add128(mul128(acc_plus, cur_mult), cur_plus);
        }
        cur_plus = mul128(add128(cur_mult, one), cur_plus);
        cur_mult = mul128(cur_mult, cur_mult);
        delta_lo = (delta_lo >> 1) | (delta_hi << 63);
        delta_hi >>= 1;
    }
    u128 st = { s->state_hi, s->state_lo };
    st = add128(mul128(acc_mult, st), acc_plus);
    s->state_hi = st.hi;
    s->state_lo = st.lo;
}

static int pcg64_type_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    (void)err;
    uint32_t ent[4], key[4];
    size_t n = sl_rng_seedseq_int_words(seed->lo, seed->hi, ent);
    size_t nk = seed->has_stream ? sl_rng_seedseq_int_words(seed->stream, 0, key) : 0;
    sl_rng_seedseq ss;
    sl_rng_seedseq_init(&ss, ent, n, key, nk);
    sl_rng_pcg64_seed_seedseq(state, &ss);
    return SL_OK;
}

static uint64_t pcg64_type_next(void *state)
{
    return sl_rng_pcg64_next(state);
}

static void pcg64_type_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_pcg64_state *s = state;
    for (size_t i = 0; i < n; i++)
        out[i] = sl_rng_pcg64_next(s);
}

static void pcg64_type_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    sl_rng_pcg64_advance(state, delta_lo, delta_hi);
}

const sl_rng_type sl_rng_pcg64_type = {
    .name = "pcg64",
    .word_bits = 64,
    .state_size = sizeof(sl_rng_pcg64_state),
    .seed = pcg64_type_seed,
    .next = pcg64_type_next,
    .fill = pcg64_type_fill,
    .advance = pcg64_type_advance,
    .release = NULL,
    .param = NULL,
};
