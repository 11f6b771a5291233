/* test_rng_random123.c — Threefry-2x32-20 and Philox-4x32-10 (rng/threefry.c,
 * rng/philox.c) against Random123 itself: data/golden/random123/random123.txt,
 * written by analysis/golden/random123/random123_golden.c built against Debian's
 * librandom123-dev 1.14.0 headers. Every known-answer block (Random123's
 * kat_vectors inputs and 512 more), and the first 2048 words of the
 * "threefry2x32" and "philox4x32" sources for seven seeds (and two philox
 * subsequences), read through sl_rng_next, sl_rng_fill32 and advance. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

#define GOLDEN "data/golden/random123/random123.txt"

static size_t parse_hex(char *p, uint32_t *out, size_t max)
{
    size_t n = 0;
    char *e;
    while (n < max) {
        unsigned long v = strtoul(p, &e, 16);
        if (e == p)
            break;
        out[n++] = (uint32_t)v;
        p = e;
    }
    return n;
}

Test(rng_random123, known_answer_blocks)
{
    FILE *f = fopen(GOLDEN, "r");
    cr_assert(f, GOLDEN);
    char line[512];
    size_t nt = 0, np = 0;
    while (fgets(line, sizeof line, f)) {
        uint32_t w[10];
        if (!strncmp(line, "kat threefry2x32 ", 17)) {
            cr_assert_eq(parse_hex(line + 17, w, 6), 6, "%s", line);
            uint32_t out[2];
            sl_rng_threefry2x32(w + 2, w, out);
            cr_expect(out[0] == w[4] && out[1] == w[5], "threefry2x32 ctr %08x %08x key %08x %08x: %08x %08x, Random123 %08x %08x",
                      w[0], w[1], w[2], w[3], out[0], out[1], w[4], w[5]);
            nt++;
        } else if (!strncmp(line, "kat philox4x32 ", 15)) {
            cr_assert_eq(parse_hex(line + 15, w, 10), 10, "%s", line);
            uint32_t out[4];
            sl_rng_philox4x32(w + 4, w, out);
            cr_expect(!memcmp(out, w + 6, sizeof out), "philox4x32 ctr %08x %08x %08x %08x: %08x %08x %08x %08x, Random123 %08x %08x %08x %08x",
                      w[0], w[1], w[2], w[3], out[0], out[1], out[2], out[3], w[6], w[7], w[8], w[9]);
            np++;
        }
    }
    fclose(f);
    cr_assert_eq(nt, 261, "threefry2x32 known answers read: %zu", nt);
    cr_assert_eq(np, 259, "philox4x32 known answers read: %zu", np);
}

/* The three kat_vectors blocks Random123 publishes (its examples/kat_vectors),
 * which JAX's tests/random_test.py testThreefry2x32 also checks (jax-ml/jax
 * commit 00f5ef2ac0f49f4c963897dbde1fc2755e461432): independent of the golden file. */
Test(rng_random123, published_kat_vectors)
{
    const uint32_t z[2] = {0, 0}, ff[2] = {~0u, ~0u};
    const uint32_t pc[2] = {0x243f6a88u, 0x85a308d3u}, pk[2] = {0x13198a2eu, 0x03707344u};
    uint32_t o[4];
    sl_rng_threefry2x32(z, z, o);
    cr_expect(o[0] == 0x6b200159u && o[1] == 0x99ba4efeu, "%08x %08x", o[0], o[1]);
    sl_rng_threefry2x32(ff, ff, o);
    cr_expect(o[0] == 0x1cb996fcu && o[1] == 0xbb002be7u, "%08x %08x", o[0], o[1]);
    sl_rng_threefry2x32(pk, pc, o);
    cr_expect(o[0] == 0xc4923a9cu && o[1] == 0x483df7a0u, "%08x %08x", o[0], o[1]);
    const uint32_t c4[4] = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, k2[2] = {0xa4093822u, 0x299f31d0u};
    sl_rng_philox4x32(k2, c4, o);
    cr_expect(o[0] == 0xd16cfe09u && o[1] == 0x94fdccebu && o[2] == 0x5001e420u && o[3] == 0x24126ea1u,
              "%08x %08x %08x %08x", o[0], o[1], o[2], o[3]);
}

typedef struct stream_rec {
    char name[16];
    uint64_t seed, q;
    unsigned first;
    uint32_t w[8];
} stream_rec;

static size_t read_streams(stream_rec **out)
{
    FILE *f = fopen(GOLDEN, "r");
    cr_assert(f, GOLDEN);
    size_t n = 0, cap = 8192;
    stream_rec *r = malloc(cap * sizeof *r);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "stream ", 7))
            continue;
        cr_assert(n < cap);
        stream_rec *s = &r[n];
        int off = 0;
        cr_assert_eq(sscanf(line + 7, "%15s %" SCNu64 " %" SCNu64 " %u %n", s->name, &s->seed, &s->q, &s->first, &off),
                     4, "%s", line);
        cr_assert_eq(parse_hex(line + 7 + off, s->w, 8), 8, "%s", line);
        n++;
    }
    fclose(f);
    *out = r;
    return n;
}

static void open_source(sl_rng *g, const stream_rec *s)
{
    sl_seed seed = {.lo = s->seed, .hi = 0, .stream = s->q, .has_stream = s->q != 0};
    sl_error e = {0};
    cr_assert_eq(sl_rng_init(g, sl_rng_lookup(s->name), &seed, &e), 0, "%s: %s", s->name, e.msg);
}

/* Word by word (sl_rng_next) and in blocks (sl_rng_fill32), each record's eight words. */
Test(rng_random123, streams)
{
    stream_rec *r;
    size_t n = read_streams(&r), checked = 0;
    cr_assert_gt(n, 3000, "stream records: %zu", n);
    sl_rng g = {0}, h = {0};
    for (size_t i = 0; i < n; i++) {
        if (r[i].first == 0) {
            if (g.state) {
                sl_rng_release(&g);
                sl_rng_release(&h);
            }
            open_source(&g, &r[i]);
            open_source(&h, &r[i]);
        }
        cr_assert_eq(g.words, r[i].first, "%s seed %" PRIu64 ": records out of order", r[i].name, r[i].seed);
        uint32_t blk[8];
        sl_rng_fill32(&h, blk, 8);
        for (int j = 0; j < 8; j++) {
            uint32_t w = (uint32_t)sl_rng_next(&g);
            cr_expect_eq(w, r[i].w[j], "%s seed %" PRIu64 " stream %" PRIu64 " word %u: %08x, Random123 %08x", r[i].name,
                         r[i].seed, r[i].q, r[i].first + j, w, r[i].w[j]);
            cr_expect_eq(blk[j], r[i].w[j], "fill32 word %u", r[i].first + j);
            checked++;
        }
    }
    sl_rng_release(&g);
    sl_rng_release(&h);
    free(r);
    cr_assert_gt(checked, 30000, "words compared: %zu", checked);
}

/* advance(k) from the start lands on word k of the Random123 stream, for every
 * record's offset plus 0..7 (odd offsets in the middle of a block). */
Test(rng_random123, advance)
{
    stream_rec *r;
    size_t n = read_streams(&r);
    for (size_t i = 0; i < n; i += 37)
        for (unsigned j = 0; j < 8; j++) {
            sl_rng g;
            open_source(&g, &r[i]);
            g.type->advance(g.state, r[i].first + j, 0);
            uint32_t w = (uint32_t)sl_rng_next(&g);
            cr_expect_eq(w, r[i].w[j], "%s seed %" PRIu64 " advance %u: %08x, Random123 %08x", r[i].name, r[i].seed,
                         r[i].first + j, w, r[i].w[j]);
            sl_rng_release(&g);
        }
    free(r);
}

Test(rng_random123, refusals)
{
    sl_rng g;
    sl_error e = {0};
    sl_seed big = {.lo = 1, .hi = 1, .stream = 0, .has_stream = 0};
    cr_expect_neq(sl_rng_init(&g, &sl_rng_threefry2x32_type, &big, &e), 0);
    cr_expect(strstr(e.msg, "below 2^64"), "%s", e.msg);
    cr_expect_neq(sl_rng_init(&g, &sl_rng_philox4x32_type, &big, &e), 0);
    sl_seed st = {.lo = 1, .hi = 0, .stream = 3, .has_stream = 1};
    cr_expect_neq(sl_rng_init(&g, &sl_rng_threefry2x32_type, &st, &e), 0);
    cr_expect(strstr(e.msg, "not modelled by samplab"), "%s", e.msg);
}
