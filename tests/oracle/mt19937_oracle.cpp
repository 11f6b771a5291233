// mt19937_oracle.cpp — test-only oracle: the first 2000 words of C++'s
// std::mt19937(seed) (libstdc++) for a few seeds, one line per seed:
// "SEED w1 ... w2000"; tests/test_rng_mt19937.c compares samplab's MT19937.
#include <cinttypes>
#include <cstdio>
#include <random>

int main()
{
    const uint32_t seeds[] = {0u, 1u, 42u, 5489u, 4357u, 2147483648u, 4294967295u};
    for (uint32_t s : seeds) {
        std::mt19937 g(s);
        std::printf("%" PRIu32, s);
        for (int i = 0; i < 2000; i++)
            std::printf(" %" PRIu32, static_cast<uint32_t>(g()));
        std::printf("\n");
    }
    return 0;
}
