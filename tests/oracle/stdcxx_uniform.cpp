// stdcxx_uniform.cpp — test-only oracle: what libstdc++'s
// std::uniform_real_distribution<double>(0, 1) returns over std::mt19937(seed),
// the draw llama.cpp's dist sampler makes. Printed as C99 hex floats so the C
// test (tests/test_framework_llamacpp.c) compares bits.
// Lines: "seed SEED I HEX" for seeds 0..299 and a few large ones, 6 draws each;
// "words W1 W2 HEX" for hand-picked engine outputs (the 1.0 clamp path).
#include <cstdint>
#include <cstdio>
#include <random>

// An engine that returns two fixed 32-bit words, to reach the corners.
struct fixed_words {
    using result_type = std::uint32_t;
    std::uint32_t w[2];
    int i = 0;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return 0xFFFFFFFFu; }
    result_type operator()() { return w[i++ & 1]; }
};

int main()
{
    std::printf("# libstdc++ %d, std::uniform_real_distribution<double>(0.0f, 1.0f) over std::mt19937\n",
                (int)__GLIBCXX__);
    const std::uint32_t big[] = {4294967294u, 2147483648u, 123456789u, 3735928559u};
    for (int s = 0; s < 300 + 4; s++) {
        std::uint32_t seed = s < 300 ? (std::uint32_t)s : big[s - 300];
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> dist(0.0f, 1.0f);
        for (int i = 0; i < 6; i++)
            std::printf("seed %u %d %a\n", seed, i, dist(rng));
    }
    const std::uint32_t pairs[][2] = {{0u, 0u}, {1u, 0u}, {0u, 1u}, {0xFFFFFFFFu, 0xFFFFFFFFu},
                                      {0xFFFFFFFFu, 0x7FFFFFFFu}, {0x7FFu, 0xFFFFFFFFu}, {0x400u, 0xFFFFFFFFu},
                                      {0x3FFu, 0xFFFFFFFFu}, {0x401u, 0x12345678u}};
    for (auto &p : pairs) {
        fixed_words e{{p[0], p[1]}};
        std::uniform_real_distribution<double> dist(0.0f, 1.0f);
        std::printf("words %u %u %a\n", p[0], p[1], dist(e));
    }
    return 0;
}
