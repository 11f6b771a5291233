// stdcxx_sort.cpp — test-only oracle: the order libstdc++'s std::sort and
// std::partial_sort leave tied elements in, with llama.cpp's comparator
// (logit descending) over {id, logit, p} records. Arrays of few distinct
// logits (many ties), made by a fixed LCG so the C test needs no input file.
// Lines: "case N K", "in L0 L1 ...", "partial ID...", "sort ID...".
// Then the element types torch's kernels sort (base/stdsort.c's typed
// instances, also run through the generic one): "pairs", "nth" and "topk"
// blocks over values with ties, NaN, -inf and signed zeros, given as hex bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

static std::uint32_t lcg = 987654321u;
static std::uint32_t next_u32()
{
    lcg = lcg * 1664525u + 1013904223u;
    return lcg;
}

// A value from a tie-heavy pool: NaN, -inf, +inf, -0.0, +0.0, a few repeated
// values, or one of many; mode 1 is a top-k cut: mostly -inf, the rest distinct
// or tied. Returned as double; floats take (float)x, exact for the pool.
static double pool(int mode)
{
    std::uint32_t r = next_u32() >> 8, pick = r % 100;
    if (mode == 1)
        return pick < 95 ? -INFINITY : (pick < 97 ? 1.5 : (double)(next_u32() >> 12) / 1024.0);
    if (pick < 4)
        return std::numeric_limits<double>::quiet_NaN();
    if (pick < 14)
        return -INFINITY;
    if (pick < 16)
        return INFINITY;
    if (pick < 21)
        return -0.0;
    if (pick < 26)
        return 0.0;
    if (pick < 70)
        return (double)(int)(next_u32() % 5) - 2.0;
    return (double)(next_u32() >> 12) / 4096.0 - 100.0;
}

static unsigned fbits(float f)
{
    unsigned u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

static unsigned long long dbits(double d)
{
    unsigned long long u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

static void emit_pairs(const std::vector<float> &x)
{
    // torch.sort: (float value, index) pairs, by value alone
    int n = (int)x.size();
    std::vector<std::pair<float, int>> a(n);
    for (int i = 0; i < n; i++)
        a[i] = {x[i], i};
    std::printf("pairs %d\nin", n);
    for (float v : x)
        std::printf(" %08x", fbits(v));
    auto b = a, c = a;
    std::sort(b.begin(), b.end(), [](const std::pair<float, int> &l, const std::pair<float, int> &r) {
        return l.first < r.first;
    });
    std::sort(c.begin(), c.end(), [](const std::pair<float, int> &l, const std::pair<float, int> &r) {
        return l.first > r.first;
    });
    std::printf("\nasc");
    for (auto &e : b)
        std::printf(" %d", e.second);
    std::printf("\ndesc");
    for (auto &e : c)
        std::printf(" %d", e.second);
    std::printf("\n");
}

static void emit_nth(const std::vector<float> &x, int k)
{
    // the k-th value: nth_element on floats; the whole arrangement, as bits
    int n = (int)x.size();
    auto f = x, g = x;
    std::nth_element(f.begin(), f.begin() + (k - 1), f.end(), [](float l, float r) { return l > r; });
    std::nth_element(g.begin(), g.begin() + (k - 1), g.end(), [](float l, float r) { return l < r; });
    std::printf("nth %d %d\nin", n, k);
    for (float v : x)
        std::printf(" %08x", fbits(v));
    std::printf("\nnthdesc");
    for (float v : f)
        std::printf(" %08x", fbits(v));
    std::printf("\nnthasc");
    for (float v : g)
        std::printf(" %08x", fbits(v));
    std::printf("\n");
}

static void emit_topk(const std::vector<double> &x, int k)
{
    // torch.topk: (double, int64) pairs, comp = (isnan(x) && !isnan(y)) || x > y;
    // the whole arrangement after each algorithm
    int n = (int)x.size();
    std::vector<std::pair<double, std::int64_t>> q(n);
    for (int i = 0; i < n; i++)
        q[i] = {x[i], i};
    auto comp = [](const std::pair<double, std::int64_t> &l, const std::pair<double, std::int64_t> &r) {
        return (std::isnan(l.first) && !std::isnan(r.first)) || l.first > r.first;
    };
    std::printf("topk %d %d\nin", n, k);
    for (double v : x)
        std::printf(" %016llx", dbits(v));
    auto p1 = q, p2 = q, p3 = q;
    std::partial_sort(p1.begin(), p1.begin() + k, p1.end(), comp);
    std::nth_element(p2.begin(), p2.begin() + (k - 1), p2.end(), comp);
    std::sort(p2.begin(), p2.begin() + (k - 1), comp);
    std::sort(p3.begin(), p3.end(), comp);
    std::printf("\npartial");
    for (auto &e : p1)
        std::printf(" %lld", (long long)e.second);
    std::printf("\nnthsort");
    for (auto &e : p2)
        std::printf(" %lld", (long long)e.second);
    std::printf("\nsort");
    for (auto &e : p3)
        std::printf(" %lld", (long long)e.second);
    std::printf("\n");
}

// McIlroy's adversary ("A killer adversary for quicksort", 1999): values are
// fixed only when a comparison needs them, so that every pivot is nearly the
// smallest. Run against std::sort (nth < 0) or std::nth_element, it yields an
// input that drives introsort / introselect to its depth limit, so the heap
// fallback is checked too.
static std::vector<float> killer(int n, int nth)
{
    std::vector<int> val(n, n), idx(n); // n is "gas": above every frozen value
    int solid = 0, candidate = 0;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    auto cmp = [&](int x, int y) {
        if (val[x] == n && val[y] == n)
            val[x == candidate ? x : y] = solid++;
        if (val[x] == n)
            candidate = x;
        else if (val[y] == n)
            candidate = y;
        return val[x] < val[y];
    };
    if (nth < 0)
        std::sort(idx.begin(), idx.end(), cmp);
    else
        std::nth_element(idx.begin(), idx.begin() + nth, idx.end(), cmp);
    std::vector<float> out(n);
    for (int i = 0; i < n; i++)
        out[i] = (float)val[i];
    return out;
}

static void typed_cases()
{
    const int sizes[] = {1, 2, 3, 4, 5, 16, 17, 18, 33, 100, 257, 1000, 4000, 32000};
    for (int n : sizes) {
        for (int mode = 0; mode < 2; mode++) {
            if (mode == 1 && n < 100)
                continue;
            std::vector<float> x(n);
            for (int i = 0; i < n; i++)
                x[i] = (float)pool(mode);
            emit_pairs(x);
            for (int k : {1, 2, 40, n / 2 + 1, n})
                if (k <= n && (n <= 1000 || k == 40))
                    emit_nth(x, k);
            std::vector<double> d(n);
            for (int i = 0; i < n; i++)
                d[i] = pool(mode);
            for (int k : {1, 3, 40, n})
                if (k <= n && (n <= 1000 || k == 1 || k == 40) && (n <= 4000 || k == 1))
                    emit_topk(d, k);
        }
    }
    // depth limits: the adversary's inputs, and their negations for the descending orders
    for (int n : {300, 3000}) {
        std::vector<float> ks = killer(n, -1), kn = killer(n, n / 2), neg(n), negn(n);
        std::vector<double> dn(n);
        for (int i = 0; i < n; i++) {
            neg[i] = -ks[i];
            negn[i] = -kn[i];
            dn[i] = -(double)kn[i];
        }
        emit_pairs(ks);
        emit_pairs(neg);
        emit_nth(kn, n / 2 + 1);
        emit_nth(negn, n / 2 + 1);
        emit_topk(dn, n / 2 + 1);
        emit_topk(dn, n / 40);
    }
}

struct rec {
    int id;
    float logit;
    float p;
};

int main()
{
    std::printf("# libstdc++ %d: std::partial_sort and std::sort with a.logit > b.logit\n", (int)__GLIBCXX__);
    std::uint32_t x = 12345u;
    const int sizes[] = {4, 5, 17, 33, 40, 100, 129, 300, 1000};
    const int ks[] = {1, 2, 3, 10, 40, 128};
    for (int n : sizes) {
        for (int distinct : {2, 5, 50}) {
            std::vector<rec> base;
            for (int i = 0; i < n; i++) {
                x = x * 1103515245u + 12345u;
                base.push_back({i, (float)((x >> 16) % (unsigned)distinct), 0.0f});
            }
            for (int k : ks) {
                if (k > n)
                    continue;
                std::printf("case %d %d\nin", n, k);
                for (auto &r : base)
                    std::printf(" %g", r.logit);
                std::vector<rec> a = base, b = base;
                auto cmp = [](const rec &l, const rec &r) { return l.logit > r.logit; };
                std::partial_sort(a.begin(), a.begin() + k, a.end(), cmp);
                std::sort(b.begin(), b.end(), cmp);
                std::printf("\npartial");
                for (int i = 0; i < k; i++)
                    std::printf(" %d", a[i].id);
                std::printf("\nsort");
                for (auto &r : b)
                    std::printf(" %d", r.id);
                std::printf("\n");
            }
        }
    }
    // llama.cpp's typical sampler sorts indices by shifted score with a < b;
    // when a probability underflows its entropy is NaN and so is every key:
    // all comparisons false. Lines: "nan N", then "nansort ID...".
    for (int n : {5, 16, 17, 40, 300}) {
        std::vector<float> key(n, std::numeric_limits<float>::quiet_NaN());
        std::vector<size_t> idx(n);
        for (int i = 0; i < n; i++)
            idx[i] = i;
        std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
        std::printf("nan %d\nnansort", n);
        for (size_t i : idx)
            std::printf(" %zu", i);
        std::printf("\n");
    }
    typed_cases();
    return 0;
}
