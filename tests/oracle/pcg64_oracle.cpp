// pcg64_oracle.cpp — test-only oracle: pcg-cpp's pcg64 (libpcg-cpp-dev,
// setseq XSL-RR 128/64) constructed as pcg64(initstate, initseq), which is
// what NumPy's PCG64 seeds after SeedSequence. One line per case:
// "ISH ISL QH QL w1 .. w8 A1 B1 A2 B2 A3 B3" (hex): the first 8 words, then for
// three advances (2^64 + 3, 2^127 + 12345, and -5 after them) the next word
// twice; tests/test_rng_pcg64.c compares rng/pcg64.c.
#include <cinttypes>
#include <cstdio>
#include <pcg_random.hpp>

typedef pcg_extras::pcg128_t u128;

static u128 mk(uint64_t hi, uint64_t lo) { return (u128(hi) << 64) | lo; }

int main()
{
    const uint64_t cases[][4] = {
        {0, 0, 0, 0},
        {0, 42, 0, 54},
        {0xdeadbeefcafebabeull, 0x0123456789abcdefull, 0xfedcba9876543210ull, 0x1111111111111111ull},
        {~0ull, ~0ull, ~0ull, ~0ull},
        {0x8000000000000000ull, 1, 0x7fffffffffffffffull, 2},
    };
    for (const auto &c : cases) {
        pcg64 g(mk(c[0], c[1]), mk(c[2], c[3]));
        std::printf("%" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64, c[0], c[1], c[2], c[3]);
        for (int i = 0; i < 8; i++)
            std::printf(" %" PRIx64, static_cast<uint64_t>(g()));
        const u128 deltas[] = {mk(1, 3), mk(0x8000000000000000ull, 12345), u128(0) - 5};
        for (u128 d : deltas) {
            g.advance(d);
            uint64_t a = g(), b = g();
            std::printf(" %" PRIx64 " %" PRIx64, a, b);
        }
        std::printf("\n");
    }
    return 0;
}
