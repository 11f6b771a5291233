// stdcxx_sort.cpp — test-only oracle: the order libstdc++'s std::sort and
// std::partial_sort leave tied elements in, with llama.cpp's comparator
// (logit descending) over {id, logit, p} records. Arrays of few distinct
// logits (many ties), made by a fixed LCG so the C test needs no input file.
// Lines: "case N K", "in L0 L1 ...", "partial ID...", "sort ID...".
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

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
    return 0;
}
