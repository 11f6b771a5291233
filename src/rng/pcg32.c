/* pcg32.c — PCG XSH-RR 64/32 (O'Neill 2014, "PCG: A Family of Simple Fast
 * Space-Efficient Statistically Good Algorithms"), as pcg-c's pcg32_srandom_r,
 * pcg32_random_r, pcg32_boundedrand_r and pcg32_advance_r define it.
 * Seeding: --seed S --stream Q gives pcg32_srandom_r(S, Q); the stream
 * defaults to 0 (pcg-cpp's default stream 0x0a02bdbf7bb3c0a7 is just a number). */
#include "rng/sl_rng.h"

#define PCG32_MULT 6364136223846793005ULL

uint32_t sl_rng_pcg32_next(sl_rng_pcg32_state *s)
{
    uint64_t old = s->state;
    s->state = old * PCG32_MULT + s->inc;
    /* output from the old state: xorshift high bits, then a random rotation */
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    unsigned rot = (unsigned)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

void sl_rng_pcg32_seed(sl_rng_pcg32_state *s, uint64_t initstate, uint64_t initseq)
{
    s->state = 0;
    s->inc = (initseq << 1) | 1u;
    sl_rng_pcg32_next(s);
    s->state += initstate;
    sl_rng_pcg32_next(s);
}

uint32_t sl_rng_pcg32_bounded(sl_rng_pcg32_state *s, uint32_t bound)
{
    /* Reject the lowest 2^32 mod bound words so every residue is equally likely. */
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t w = sl_rng_pcg32_next(s);
        if (w >= threshold)
            return w % bound;
    }
}

void sl_rng_pcg32_advance(sl_rng_pcg32_state *s, uint64_t delta)
{
    /* Brown 1994, "Random number generation with arbitrary strides": compose
     * the affine map x -> a x + c with itself by squaring, O(log delta). */
    uint64_t cur_mult = PCG32_MULT, cur_plus = s->inc;
    uint64_t acc_mult = 1, acc_plus = 0;
    while (delta) {
        if (delta & 1u) {
            acc_mult *= cur_mult;
            acc_plus = acc_plus * cur_mult + cur_plus;
        }
        cur_plus = (cur_mult + 1) * cur_plus;
        cur_mult *= cur_mult;
        delta >>= 1;
    }
    s->state = acc_mult * s->state + acc_plus;
}

static int pcg32_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)param;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "pcg32 takes a seed below 2^64");
    sl_rng_pcg32_seed(state, seed->lo, seed->stream);
    return SL_OK;
}

static uint64_t pcg32_next(void *state)
{
    return sl_rng_pcg32_next(state);
}

static inline uint32_t pcg32_output(uint64_t old)
{
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    unsigned rot = (unsigned)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

/* Two interleaved chains, each stepping two states at once (s -> a²s + c(a+1)),
 * so the multiplications of neighbouring words overlap; the words are those of
 * sl_rng_pcg32_next, in order (tests/test_draw_exprace.c checks it). */
static void pcg32_fill(void *state, uint64_t *out, size_t n)
{
    sl_rng_pcg32_state *s = state;
    const uint64_t m2 = PCG32_MULT * PCG32_MULT, c2 = s->inc * (PCG32_MULT + 1u);
    uint64_t a = s->state, b = a * PCG32_MULT + s->inc;
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        out[i] = pcg32_output(a);
        out[i + 1] = pcg32_output(b);
        a = a * m2 + c2;
        b = b * m2 + c2;
    }
    s->state = a; /* the state that gives word i */
    for (; i < n; i++)
        out[i] = sl_rng_pcg32_next(s);
}

static void pcg32_advance(void *state, uint64_t delta_lo, uint64_t delta_hi)
{
    (void)delta_hi; /* the period is 2^64: only delta mod 2^64 matters */
    sl_rng_pcg32_advance(state, delta_lo);
}

const sl_rng_type sl_rng_pcg32_type = {
    .name = "pcg32",
    .word_bits = 32,
    .state_size = sizeof(sl_rng_pcg32_state),
    .seed = pcg32_seed,
    .next = pcg32_next,
    .fill = pcg32_fill,
    .advance = pcg32_advance,
};
