/* test_rng_chacha12.c — ChaCha12 / rand StdRng against the real Rust rand
 * 0.8.5 (data/golden/rand_raw.txt, made by analysis/golden/rand_golden.sh:
 * seed_from_u64 keys, next_u32, next_u64, u32/u64 mixes, u64 straddling the
 * 64-word buffer, ChaCha12Rng::from_seed + set_stream + set_word_pos) and the
 * RFC 7539 ChaCha20 block test vector run through the same core. */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "helpers.h"
#include "samplab.h"

Test(replay_chacha12, rfc7539_block_2_3_2)
{
    /* RFC 7539 section 2.3.2: key 00..1f, counter 1, nonce 00000009 0000004a 00000000 */
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, 0x03020100, 0x07060504, 0x0b0a0908,
                       0x0f0e0d0c, 0x13121110, 0x17161514, 0x1b1a1918, 0x1f1e1d1c, 0x00000001, 0x09000000,
                       0x4a000000, 0x00000000};
    static const uint32_t want[16] = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033,
                                      0x9aaa2204, 0x4e6cd4c3, 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                      0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
    uint32_t out[16];
    sl_rng_chacha_block(in, 10, out);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(out[i], want[i], "word %d: observed %08x expected %08x", i, out[i], want[i]);
    /* The same block through the buffered generator: 64-bit counter 0x0900000000000001, stream 0x4a000000. */
    sl_rng_chacha_state s;
    sl_rng_chacha_init(&s, in + 4, 0x4a000000u, 10);
    sl_rng_chacha_set_pos(&s, 0x0900000000000001ULL, 0);
    for (int i = 0; i < 16; i++) {
        uint32_t w = sl_rng_chacha_next(&s);
        cr_assert_eq(w, want[i], "buffered word %d: observed %08x expected %08x", i, w, want[i]);
    }
}

static sl_rng stdrng(uint64_t seed)
{
    sl_rng r;
    sl_error err;
    sl_seed sd = {.lo = seed};
    cr_assert_eq(sl_rng_init(&r, sl_rng_lookup("rand-stdrng"), &sd, &err), 0, "%s", err.msg);
    return r;
}

static uint32_t hex32(char **p)
{
    return (uint32_t)strtoul(*p, p, 16);
}

static uint64_t hex64(char **p)
{
    return (uint64_t)strtoull(*p, p, 16);
}

Test(replay_chacha12, golden_raw)
{
    char *t = sl_test_slurp("data/golden/rand_raw.txt");
    cr_assert_not_null(t, "data/golden/rand_raw.txt missing");
    size_t checked = 0, lines = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char kind[32];
        int off = 0;
        cr_assert_eq(sscanf(line, "%31s%n", kind, &off), 1);
        char *p = line + off;
        lines++;
        if (!strcmp(kind, "stdrng")) {
            uint64_t seed = strtoull(p, &p, 10);
            p = strstr(p, "key") + 3;
            uint32_t key[8];
            sl_rng_rand_seed_from_u64(seed, key);
            for (int i = 0; i < 8; i++, checked++) {
                uint32_t w = hex32(&p);
                cr_assert_eq(key[i], w, "seed %" PRIu64 " key word %d: observed %08x expected %08x", seed, i, key[i], w);
            }
        } else if (!strcmp(kind, "u32") || !strcmp(kind, "u64") || !strcmp(kind, "mix")) {
            uint64_t seed = strtoull(p, &p, 10);
            size_t n = strtoul(p, &p, 10);
            sl_rng r = stdrng(seed);
            for (size_t i = 0; i < n; i++, checked++) {
                int wide = !strcmp(kind, "u64") || (!strcmp(kind, "mix") && (i * 7 + 3) % 5 < 2);
                if (wide) {
                    uint64_t want = hex64(&p), got = sl_rng_next_u64_lohi(&r);
                    cr_assert_eq(got, want, "%s seed %" PRIu64 " value %zu: observed %016" PRIx64 " expected %016" PRIx64,
                                 kind, seed, i, got, want);
                } else {
                    uint32_t want = hex32(&p), got = (uint32_t)sl_rng_next(&r);
                    cr_assert_eq(got, want, "%s seed %" PRIu64 " value %zu: observed %08x expected %08x", kind, seed,
                                 i, got, want);
                }
            }
            if (!strcmp(kind, "mix")) {
                unsigned long long pos = strtoull(strstr(p, "pos") + 3, NULL, 10);
                cr_assert_eq(r.words, pos, "mix seed %" PRIu64 ": %" PRIu64 " words counted, rand's word_pos %llu",
                             seed, r.words, pos);
                checked++;
            }
            sl_rng_release(&r);
        } else if (!strcmp(kind, "straddle")) {
            uint64_t seed = strtoull(p, &p, 10);
            unsigned skip = (unsigned)strtoul(p, &p, 10);
            uint64_t want64 = hex64(&p);
            uint32_t want32 = hex32(&p);
            unsigned long long pos = strtoull(strstr(p, "pos") + 3, NULL, 10);
            sl_rng r = stdrng(seed);
            for (unsigned i = 0; i < skip; i++)
                sl_rng_next(&r);
            uint64_t g64 = sl_rng_next_u64_lohi(&r);
            uint32_t g32 = (uint32_t)sl_rng_next(&r);
            cr_assert_eq(g64, want64, "straddle seed %" PRIu64 " after %u: observed %016" PRIx64 " expected %016" PRIx64,
                         seed, skip, g64, want64);
            cr_assert_eq(g32, want32, "straddle seed %" PRIu64 " after %u: next u32 %08x expected %08x", seed, skip, g32,
                         want32);
            cr_assert_eq(r.words, pos, "straddle words %" PRIu64 " vs pos %llu", r.words, pos);
            checked += 3;
            sl_rng_release(&r);
        } else if (!strcmp(kind, "chacha")) {
            /* chacha KEYLO KEYHI STREAM POS N words */
            sl_seed sd = {0};
            sd.lo = strtoull(p, &p, 10);
            sd.hi = strtoull(p, &p, 10);
            sd.stream = strtoull(p, &p, 10);
            sd.has_stream = 1;
            /* POS may exceed 2^64 (up to 2^68 - 5): read its decimal digits
             * into a 128-bit (hi, lo) pair, then block = POS / 16, word = POS % 16 */
            while (*p == ' ')
                p++;
            uint64_t hi = 0, lo = 0;
            for (; *p >= '0' && *p <= '9'; p++) {
                /* (hi, lo) = (hi, lo) * 10 + digit, with 32-bit limbs */
                uint64_t limb[4] = {lo & 0xffffffffu, lo >> 32, hi & 0xffffffffu, hi >> 32}, carry = (uint64_t)(*p - '0');
                for (int i = 0; i < 4; i++) {
                    uint64_t x = limb[i] * 10 + carry;
                    limb[i] = x & 0xffffffffu;
                    carry = x >> 32;
                }
                lo = limb[0] | limb[1] << 32;
                hi = limb[2] | limb[3] << 32;
            }
            unsigned word = (unsigned)(lo & 15u);
            uint64_t block = (lo >> 4) | (hi << 60);
            size_t n = strtoul(p, &p, 10);
            sl_rng r;
            sl_error err;
            cr_assert_eq(sl_rng_init(&r, sl_rng_lookup("chacha12"), &sd, &err), 0, "%s", err.msg);
            /* reach POS with advance() from the start, as a user of the type would */
            r.type->advance(r.state, (block << 4) | word, block >> 60);
            for (size_t i = 0; i < n; i++, checked++) {
                uint32_t want = hex32(&p), got = (uint32_t)sl_rng_next(&r);
                cr_assert_eq(got, want, "%s word %zu: observed %08x expected %08x", line, i, got, want);
            }
            sl_rng_release(&r);
        } else if (!strcmp(kind, "chacha20_rfc7539")) {
            uint32_t key[8];
            for (int i = 0; i < 8; i++)
                key[i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 |
                         (uint32_t)(4 * i + 3) << 24;
            sl_rng_chacha_state s;
            sl_rng_chacha_init(&s, key, 0x4a000000u, 10);
            sl_rng_chacha_set_pos(&s, 0x0900000000000001ULL, 0);
            size_t n = strtoul(p, &p, 10);
            for (size_t i = 0; i < n; i++, checked++) {
                uint32_t want = hex32(&p), got = sl_rng_chacha_next(&s);
                cr_assert_eq(got, want, "ChaCha20Rng word %zu: observed %08x expected %08x", i, got, want);
            }
        } else {
            cr_assert_fail("unknown record '%s' in rand_raw.txt", kind);
        }
    }
    free(t);
    cr_assert_eq(checked, 5046, "%zu values checked in %zu records (golden file changed?)", checked, lines);
}

Test(replay_chacha12, advance_matches_stepping)
{
    sl_rng a = stdrng(7), b = stdrng(7);
    /* forward jumps across buffer and block boundaries, then a backward jump */
    static const uint64_t jumps[] = {1, 15, 16, 17, 63, 64, 65, 1000, 12345};
    for (size_t j = 0; j < sizeof jumps / sizeof jumps[0]; j++) {
        for (uint64_t i = 0; i < jumps[j]; i++)
            sl_rng_next(&a);
        b.type->advance(b.state, jumps[j], 0);
        uint32_t x = (uint32_t)sl_rng_next(&a), y = (uint32_t)sl_rng_next(&b);
        cr_assert_eq(x, y, "after jump %" PRIu64 ": stepping %08x, advance %08x", jumps[j], x, y);
    }
    sl_rng c = stdrng(7);
    uint32_t first = (uint32_t)sl_rng_next(&c);
    uint64_t back = (uint64_t)0 - 5;
    for (int i = 0; i < 4; i++)
        sl_rng_next(&c);
    c.type->advance(c.state, back, UINT64_MAX); /* -5 as 128-bit two's complement */
    uint32_t again = (uint32_t)sl_rng_next(&c);
    cr_assert_eq(again, first, "advance(-5) after 5 words: %08x, first word %08x", again, first);
    sl_rng_release(&a);
    sl_rng_release(&b);
    sl_rng_release(&c);
}

Test(replay_chacha12, seeds_and_cli)
{
    sl_rng r;
    sl_error err;
    sl_seed big = {.lo = 1, .hi = 1};
    cr_assert_neq(sl_rng_init(&r, sl_rng_lookup("rand-stdrng"), &big, &err), 0, "a seed >= 2^64 must be refused");
    cr_assert_not_null(strstr(err.msg, "2^64"), "message: %s", err.msg);
    sl_seed st = {.lo = 1, .stream = 3, .has_stream = 1};
    cr_assert_neq(sl_rng_init(&r, sl_rng_lookup("rand-stdrng"), &st, &err), 0, "a stream must be refused");
    /* samplab rng prints the words in decimal: seed 42's first word is 0x222724a2 (= 572990626) */
    sl_test_run run = sl_test_cli("rng --rng rand-stdrng --seed 42 --n 2");
    cr_assert_eq(run.status, 0, "exit %d: %s", run.status, run.err);
    cr_assert_str_eq(run.out, "572990626\n2261546851\n", "observed: %s", run.out);
    sl_test_run_free(&run);
    run = sl_test_cli("rng --rng chacha12 --seed 42 --stream 1 --n 1");
    cr_assert_eq(run.status, 0, "exit %d: %s", run.status, run.err);
    cr_assert_str_eq(run.out, "551885242\n", "observed: %s", run.out); /* 0x20e519ba, rand_raw.txt */
    sl_test_run_free(&run);
    /* a draw method over the new source */
    run = sl_test_cli("draw --probs 1,2,3 --method cdf --rng chacha12 --seed 5 --n 3 --json");
    cr_assert_eq(run.status, 0, "exit %d: %s", run.status, run.err);
    cr_assert_not_null(strstr(run.out, "\"name\":\"chacha12\""), "observed: %s", run.out);
    sl_test_run_free(&run);
}
