/* random123_golden.c — known answers and long streams of Threefry-2x32-20 and
 * Philox-4x32-10 from Random123 itself (Debian's librandom123-dev, the
 * reference implementation: threefry2x32() and philox4x32() of its installed
 * headers), for tests/test_rng_random123.c. Built and run by
 * random123_golden.sh (as C++: the counters' incr() is a C++ member), which writes data/golden/random123/random123.txt.
 * Lines:
 *   kat threefry2x32 C0 C1 K0 K1 O0 O1            one block, hex
 *   kat philox4x32 C0 C1 C2 C3 K0 K1 O0 O1 O2 O3   one block, hex
 *   stream NAME SEED Q FIRST W0 ... W7            words FIRST..FIRST+7 of samplab's
 *                                                 source NAME at --seed SEED --stream Q */
#include <inttypes.h>
#include <stdio.h>

#include <Random123/philox.h>
#include <Random123/threefry.h>

static uint64_t lcg = 0x853c49e6748fea9bULL;
static uint32_t next32(void)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg >> 32);
}

static void kat_threefry(uint32_t c0, uint32_t c1, uint32_t k0, uint32_t k1)
{
    threefry2x32_ctr_t c = {{c0, c1}};
    threefry2x32_key_t k = {{k0, k1}};
    threefry2x32_ctr_t o = threefry2x32(c, k); /* 20 rounds, the library's default */
    printf("kat threefry2x32 %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n",
           c0, c1, k0, k1, o.v[0], o.v[1]);
}

static void kat_philox(const uint32_t c[4], uint32_t k0, uint32_t k1)
{
    philox4x32_ctr_t cc = {{c[0], c[1], c[2], c[3]}};
    philox4x32_key_t kk = {{k0, k1}};
    philox4x32_ctr_t o = philox4x32(cc, kk); /* 10 rounds */
    printf("kat philox4x32 %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32
           " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 " %08" PRIx32 "\n",
           c[0], c[1], c[2], c[3], k0, k1, o.v[0], o.v[1], o.v[2], o.v[3]);
}

/* samplab's "threefry2x32" at --seed S: key (S >> 32, S & 0xFFFFFFFF), counter
 * incremented with Random123's incr() from 0, each block's words in order. */
static void stream_threefry(uint64_t seed, unsigned nwords)
{
    threefry2x32_key_t k = {{(uint32_t)(seed >> 32), (uint32_t)seed}};
    threefry2x32_ctr_t c = {{0, 0}};
    uint32_t w[8];
    for (unsigned i = 0; i < nwords; i += 2) {
        threefry2x32_ctr_t o = threefry2x32(c, k);
        c.incr();
        w[i % 8] = o.v[0];
        w[i % 8 + 1] = o.v[1];
        if (i % 8 == 6) {
            printf("stream threefry2x32 %" PRIu64 " 0 %u", seed, i - 6);
            for (int j = 0; j < 8; j++)
                printf(" %08" PRIx32, w[j]);
            printf("\n");
        }
    }
}

/* samplab's "philox4x32" at --seed S --stream Q: curand_init(S, Q, 0)'s key
 * (S & 0xFFFFFFFF, S >> 32) and counter (0, 0, Q & 0xFFFFFFFF, Q >> 32). */
static void stream_philox(uint64_t seed, uint64_t q, unsigned nwords)
{
    philox4x32_key_t k = {{(uint32_t)seed, (uint32_t)(seed >> 32)}};
    philox4x32_ctr_t c = {{0, 0, (uint32_t)q, (uint32_t)(q >> 32)}};
    uint32_t w[8];
    for (unsigned i = 0; i < nwords; i += 4) {
        philox4x32_ctr_t o = philox4x32(c, k);
        c.incr();
        for (int j = 0; j < 4; j++)
            w[i % 8 + j] = o.v[j];
        if (i % 8 == 4) {
            printf("stream philox4x32 %" PRIu64 " %" PRIu64 " %u", seed, q, i - 4);
            for (int j = 0; j < 8; j++)
                printf(" %08" PRIx32, w[j]);
            printf("\n");
        }
    }
}

int main(void)
{
    printf("# Random123 threefry2x32 (20 rounds), philox4x32 (10 rounds) of the installed headers\n");
    /* Random123's own kat_vectors inputs: zeros, all ones, the digits of pi */
    kat_threefry(0, 0, 0, 0);
    kat_threefry(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    kat_threefry(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u);
    const uint32_t z[4] = {0, 0, 0, 0}, f[4] = {~0u, ~0u, ~0u, ~0u};
    const uint32_t pi[4] = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u};
    kat_philox(z, 0, 0);
    kat_philox(f, ~0u, ~0u);
    kat_philox(pi, 0xa4093822u, 0x299f31d0u);
    for (int i = 0; i < 256; i++) {
        uint32_t a = next32(), b = next32(), c = next32(), d = next32();
        kat_threefry(a, b, c, d);
    }
    for (int i = 0; i < 256; i++) {
        uint32_t c[4] = {next32(), next32(), next32(), next32()};
        uint32_t a = next32(), b = next32();
        kat_philox(c, a, b);
    }
    /* counter carries: blocks around 2^32 of the low word */
    kat_threefry(0xffffffffu, 0, 1, 2);
    kat_threefry(0, 1, 1, 2);
    const uint64_t seeds[] = {0, 1, 42, 4294967295ULL, 4294967296ULL, 0xdeadbeefcafebabeULL, 18446744073709551615ULL};
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
        stream_threefry(seeds[i], 2048);
        stream_philox(seeds[i], 0, 2048);
    }
    stream_philox(42, 7, 1024);
    stream_philox(42, 18446744073709551615ULL, 1024);
    return 0;
}
