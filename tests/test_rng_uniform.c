/* test_rng_uniform.c — each uniform conversion (rng/) on chosen words from a
 * source that replays a fixed list: the largest and smallest nonzero values
 * (1 - 2^-24 and 2^-24, 1 - 2^-23 and 2^-23, 1 - 2^-53 and 2^-53), which bits
 * each keeps (low 24, high 24, mantissa 23), which of two words is high
 * (torch's random64, NumPy's genrand_res53), and how many words each spends. The
 * expected values are worked out by hand from the upstream formulas. */
#include <criterion/criterion.h>
#include <math.h>

#include "samplab.h"

/* A source that replays a fixed list of words. */
typedef struct fixed_state {
    const uint64_t *w;
    size_t i;
} fixed_state;
static uint64_t fixed_next(void *s)
{
    fixed_state *f = s;
    return f->w[f->i++];
}
static const sl_rng_type fixed32 = {.name = "fixed32", .word_bits = 32, .state_size = sizeof(fixed_state), .next = fixed_next};
static const sl_rng_type fixed64 = {.name = "fixed64", .word_bits = 64, .state_size = sizeof(fixed_state), .next = fixed_next};

static sl_rng fixed(const sl_rng_type *t, fixed_state *st, const uint64_t *w)
{
    st->w = w;
    st->i = 0;
    return (sl_rng){.type = t, .state = st, .words = 0};
}

Test(replay_uniform, float32_conversions)
{
    static const uint64_t w[] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0x01000001u, 0x00000200u};
    fixed_state st;
    sl_rng r = fixed(&fixed32, &st, w);
    cr_assert_eq(sl_rng_uniform_f32_low24(&r), 1.0f - 0x1p-24f);
    cr_assert_eq(sl_rng_uniform_f32_high24(&r), 1.0f - 0x1p-24f);
    cr_assert_eq(sl_rng_uniform_f32_mant23(&r), 1.0f - 0x1p-23f);
    cr_assert_eq(sl_rng_uniform_f32_low24(&r), 0x1p-24f, "low24 keeps the low bits: 0x01000001 -> 2^-24");
    cr_assert_eq(sl_rng_uniform_f32_mant23(&r), 0x1p-23f, "mant23 keeps bits 9..31: 0x200 -> 2^-23");
    cr_assert_eq(r.words, 5);
}

Test(replay_uniform, float64_two_words_order)
{
    /* torch random64: first word high; the low 53 bits of (w1<<32|w2) */
    static const uint64_t w[] = {0x00000001u, 0x00000000u, 0xFFFFFFFFu, 0xFFFFFFFFu, 0x00000000u, 0x00000040u};
    fixed_state st;
    sl_rng r = fixed(&fixed32, &st, w);
    cr_assert_eq(sl_rng_uniform_f64_2x32_hifirst_low53(&r), 0x1p-21, "w1 = 1 is bit 32 of the 53");
    cr_assert_eq(sl_rng_uniform_f64_2x32_hifirst_low53(&r), 1.0 - 0x1p-53);
    /* genrand_res53: (w1>>5)*2^26 + (w2>>6); w2 = 0x40 -> 1 */
    cr_assert_eq(sl_rng_uniform_f64_2x32_numpy(&r), 0x1p-53);
    cr_assert_eq(r.words, 6);
}

Test(replay_uniform, float64_one_word_and_generic)
{
    static const uint64_t w[] = {0xFFFFFFFFFFFFFFFFull, 0x0000000000000800ull};
    fixed_state st;
    sl_rng r = fixed(&fixed64, &st, w);
    cr_assert_eq(sl_rng_uniform_f64(&r), 1.0 - 0x1p-53);
    cr_assert_eq(sl_rng_uniform_f64(&r), 0x1p-53);
    cr_assert_eq(r.words, 2, "a 64-bit source spends one word per double");
    cr_assert_eq(sl_rng_uniform_f64_words(&fixed64), 1);
    cr_assert_eq(sl_rng_uniform_f64_words(&fixed32), 2);
}
