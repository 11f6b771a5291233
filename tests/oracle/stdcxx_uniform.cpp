// stdcxx_uniform.cpp — test-only oracle: what libstdc++'s
// std::uniform_real_distribution<double>(0, 1) returns over std::mt19937(seed),
// the draw llama.cpp's dist sampler makes. Printed as C99 hex floats so the C
// test (tests/test_framework_llamacpp.c) compares bits.
// Lines: "seed SEED I HEX" for seeds 0..299 and a few large ones, 6 draws each;
// "words W1 W2 HEX" for hand-picked engine outputs (the path of a 1);
// "canon f64|f32 W1 .. W6 HEX CALLS": uniform_real_distribution<double> and
// <float> over an engine that returns W1 .. W6 in turn, the value and how many
// words it took: what this libstdc++ does with a 1 (GCC <= 14: nextafter(1, 0)
// from the same words; GCC >= 15: drawn again). analysis/golden/current/
// stdcxx_golden.sh runs this file in Debian sid.
#include <cstdint>
#include <cstdio>
#include <random>

// An engine that returns six fixed 32-bit words in turn, counting its calls.
struct six_words {
    using result_type = std::uint32_t;
    std::uint32_t w[6];
    int i = 0;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return 0xFFFFFFFFu; }
    result_type operator()() { return w[i++ % 6]; }
};

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
    std::printf("# libstdc++ %d (GCC %d), std::uniform_real_distribution<double>(0.0f, 1.0f) over std::mt19937\n",
                (int)__GLIBCXX__, (int)__GNUC__);
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
    const std::uint32_t six[][6] = {
        {0xFFFFFFFFu, 0xFFFFFFFFu, 5u, 7u, 9u, 11u},                  // double: a 1, then (5, 7)
        {0xFFFFFC00u, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 3u, 4u}, // two 1s in a row
        {0xFFFFF800u, 0xFFFFFFFFu, 5u, 7u, 9u, 11u},                  // just below: no 1
        {0xFFFFFF80u, 5u, 7u, 9u, 11u, 13u},                          // float: a 1 (the least word that rounds up)
        {0xFFFFFF7Fu, 5u, 7u, 9u, 11u, 13u},                          // float: just below
        {0xFFFFFFFFu, 0xFFFFFFC0u, 6u, 7u, 9u, 11u},                  // float: two 1s, then 6
        {0u, 0u, 1u, 2u, 3u, 4u},
    };
    for (auto &w : six) {
        six_words e{{w[0], w[1], w[2], w[3], w[4], w[5]}};
        std::uniform_real_distribution<double> d(0.0, 1.0);
        double x = d(e);
        std::printf("canon f64 %u %u %u %u %u %u %a %d\n", w[0], w[1], w[2], w[3], w[4], w[5], x, e.i);
        six_words g{{w[0], w[1], w[2], w[3], w[4], w[5]}};
        std::uniform_real_distribution<float> f(0.0f, 1.0f);
        float y = f(g);
        std::printf("canon f32 %u %u %u %u %u %u %a %d\n", w[0], w[1], w[2], w[3], w[4], w[5], (double)y, g.i);
    }
    return 0;
}
