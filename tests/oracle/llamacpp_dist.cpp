// llamacpp_dist.cpp — test-only oracle: the exact counts of llama.cpp's dist sampler
// (llama_sampler_dist_apply, single-pass version) over all 2^64 word pairs, with the
// uniform taken from libstdc++'s own std::uniform_real_distribution<double>(0, 1)
// driven by a generator that returns chosen words (first w1, then w2). The token is
// nondecreasing in W = w2*2^32 + w1, so each boundary is a binary search over W.
// Prints "NAME V c_0 ... c_{V-1}" (counts over 2^64, decimal) and, for a few W,
// "u W bits-of-u". tests/test_stats_exact.c compares the audit in draw/llama_dist.c.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

typedef unsigned __int128 u128;

struct Fixed {
    typedef uint32_t result_type;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return 0xffffffffu; }
    uint64_t W;
    int n;
    result_type operator()() { return n++ == 0 ? (uint32_t)W : (uint32_t)(W >> 32); }
};

static double canonical(uint64_t W)
{
    Fixed g{W, 0};
    std::uniform_real_distribution<double> dist(0.0f, 1.0f);
    return dist(g);
}

// llama.cpp's selection for logits x (float), at word pair W
static size_t token(const std::vector<float> &x, uint64_t W)
{
    float max_l = x[0];
    for (size_t i = 1; i < x.size(); ++i)
        max_l = std::max(max_l, x[i]);
    std::vector<float> p(x.size());
    double sum_cum = 0.0f;
    for (size_t i = 0; i < x.size(); ++i) {
        p[i] = expf(x[i] - max_l);
        sum_cum += p[i];
    }
    const double rnd = canonical(W);
    double sum_run = 0.0f;
    const double sum_tgt = sum_cum * rnd;
    for (size_t i = 0; i < x.size(); ++i) {
        sum_run += p[i];
        if (sum_run >= sum_tgt)
            return i;
    }
    return x.size() - 1;
}

static void print_u128(u128 v)
{
    char b[48];
    int n = 0;
    do {
        b[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    while (n)
        std::putchar(b[--n]);
}

static void counts(const char *name, const std::vector<float> &x)
{
    const u128 N = (u128)1 << 64;
    std::printf("%s %zu", name, x.size());
    u128 prev = 0;
    for (size_t j = 0; j < x.size(); ++j) {
        u128 a = prev, b = N;
        while (a < b) {
            u128 mid = a + (b - a) / 2;
            if (token(x, (uint64_t)mid) > j)
                b = mid;
            else
                a = mid + 1;
        }
        std::putchar(' ');
        print_u128(j + 1 == x.size() ? N - prev : a - prev);
        prev = a;
    }
    std::printf("\n");
}

int main()
{
    const float ninf = -INFINITY;
    counts("weather", {4.0f, 3.3f, 2.9f, 1.2f, 0.4f, -0.3f, -1.0f, -2.2f});
    counts("leading_ban", {ninf, 1.0f, 2.0f});
    counts("ties_t07", {3.0f / 0.7f, 2.0f / 0.7f, 2.0f / 0.7f, 1.0f / 0.7f});
    counts("top4", {4.0f, 3.3f, 2.9f, 1.2f, ninf, ninf, ninf, ninf});
    counts("wide", {0.0f, -20.0f, -40.0f, -60.0f, -80.0f, -100.0f, -103.0f, 5.0f});
    const uint64_t ws[] = {0, 1, 2047, 2048, 4095, 0xffffffffull, 0x100000000ull, 0x8000000000000000ull,
                           0xfffffffffffff800ull, 0xfffffffffffffbffull, 0xfffffffffffffc00ull,
                           0xffffffffffffffffull};
    for (uint64_t w : ws) {
        double u = canonical(w);
        uint64_t b;
        std::memcpy(&b, &u, 8);
        std::printf("u %" PRIu64 " %016" PRIx64 "\n", w, b);
    }
    return 0;
}
