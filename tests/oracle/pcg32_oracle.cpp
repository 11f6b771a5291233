// pcg32_oracle.cpp — test-only oracle: prints a transcript of pcg-cpp's pcg32
// (Debian libpcg-cpp-dev, pcg_random.hpp) that tests/test_rng_pcg32.c compares
// with samplab's C PCG32. Lines: "next SEED STREAM w1 ... w8",
// "bounded SEED STREAM BOUND r1 ... r6", "advance SEED STREAM DELTA w".
#include <cinttypes>
#include <cstdio>
#include <pcg_random.hpp>

int main()
{
    const uint64_t seeds[] = {0ULL, 1ULL, 42ULL, 0xcafef00dd15ea5e5ULL, 0xffffffffffffffffULL, 123456789ULL};
    const uint64_t streams[] = {0ULL, 54ULL, 0x0a02bdbf7bb3c0a7ULL, 0xffffffffffffffffULL};
    const uint32_t bounds[] = {1u, 2u, 3u, 6u, 7u, 1000u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
    const uint64_t deltas[] = {0ULL, 1ULL, 2ULL, 1000ULL, 123456789ULL, 0x8000000000000000ULL,
                               0xffffffffffffffffULL /* one step back */, 0xfffffffffffffff9ULL /* seven back */};
    for (uint64_t s : seeds)
        for (uint64_t q : streams) {
            pcg32 rng(s, q);
            std::printf("next %" PRIu64 " %" PRIu64, s, q);
            for (int i = 0; i < 8; i++)
                std::printf(" %" PRIu32, rng());
            std::printf("\n");
            for (uint32_t b : bounds) {
                pcg32 r2(s, q);
                std::printf("bounded %" PRIu64 " %" PRIu64 " %" PRIu32, s, q, b);
                for (int i = 0; i < 6; i++)
                    std::printf(" %" PRIu32, r2(b));
                std::printf("\n");
            }
            for (uint64_t d : deltas) {
                pcg32 r3(s, q);
                r3.advance(d);
                std::printf("advance %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu32 "\n", s, q, d, r3());
            }
        }
    return 0;
}
