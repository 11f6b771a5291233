/* torch.c — bit-exact emulation of torch.multinomial on the CPU (PyTorch 1.13.1 as
 * Debian builds it: default generator, no MKL), and of what a 2.x CPU build without
 * MKL changes (variant "2": read from the 2.6.0 source, checked against Debian
 * trixie's torch 2.6.0, data/torch2; see the note at the end).
 *
 * torch 1.13.1, aten/src/ATen/native/Distributions.cpp multinomial_out:
 *  - replacement=False (any K): q = empty_like(p).exponential_(1); r = p / q in p's
 *    dtype; K = 1 returns argmax(r) (first index of the maximum; a NaN wins), K > 1
 *    returns topk(r, K) (TopKImpl.h: std::partial_sort when 64·K <= V, otherwise
 *    std::nth_element and std::sort of the first K-1; libstdc++'s algorithms decide
 *    the order of equal ratios, so they are reproduced here step for step).
 *    exponential_ (ATen/core/TransformationHelper.h, cpu exponential_kernel) fills the
 *    elements serially, each from a 53-bit double u = (random64() & (2^53-1))·2^-53,
 *    random64() = w1<<32 | w2 (two MT19937 words, high half first), then
 *    q = -1.0 * log(1 - u) in double, rounded to p's dtype. So every call draws 2·V
 *    words, whatever K and p are.
 *  - replacement=True (cpu/MultinomialKernel.cpp): cum[j] = sum of p[0..j] in p's
 *    dtype, cum /= sum, cum[V-1] = 1; each sample takes one such u (2 words) and
 *    binary-searches the first j with !(cum[j] < u).
 *  - checks raise before any draw, with torch's own messages (quoted in ours).
 *    K larger than the number of non-zero entries is NOT an error in torch (1.13.1
 *    and 2.6.0 both return zero-probability indices after the others, in
 *    libstdc++'s order), so it is not one here either.
 *
 * Speed: a one-sample call must still draw all 2·V words, but few logarithms decide
 * the winner. Since -log(1-u) >= u, a candidate i can only reach the current best
 * ratio b if u <= p_i / b; the fast path tests the top 21 bits of u against a float
 * bound p_i·2^21·(1+2^-12)/b (the margin covers every rounding on the way, see
 * race_scale) and computes the exact log only for the few that pass. The naive path
 * (every log, full argmax) is kept and the tests check that both agree.
 *
 * Known divergences: log is the C library's (glibc here, as torch's); another libm
 * may differ by an ulp in rare float64 cases. Builds whose exponential_ comes from
 * MKL/VSL (torch.backends.mkl.is_available() and the 2.x MKL kernel) draw other
 * numbers from other words and cannot be emulated: the fingerprint (words spent by
 * 1000 float32 exponentials: 2000 here) tells them apart. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SL_TORCH_AVX2 1
#endif

#define MT_N 624
#define MASK53 ((1ULL << 53) - 1)
#define TORCH_MAX_CATEGORIES (1L << 24) /* FLOAT32_MAX_CONSECUTIVE_INT */

static const char MSG_RACE_BAD[] = "probability tensor contains either `inf`, `nan` or element < 0";
static const char MSG_SUM0[] = "invalid multinomial distribution (sum of probabilities <= 0)";
static const char MSG_CDF_NEG[] = "invalid multinomial distribution (encountering probability entry < 0)";
static const char MSG_CDF_INF[] = "invalid multinomial distribution (encountering probability entry = infinity or NaN)";

static inline uint32_t temper(uint32_t y)
{
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* uniform_real_distribution<double>(0, 1) on random64(): exact, as x*1 + 0 is. */
static inline double torch_u53(uint32_t w1, uint32_t w2)
{
    return (double)((((uint64_t)w1 << 32) | w2) & MASK53) * 0x1p-53;
}

/* exponential(u, lambda = 1): static_cast<double>(-1.0) / 1 * log(1 - u) (1.13);
 * 2.x writes log1p(-u). Note u = 0 gives -0.0, so p/q = -inf, never a winner. */
static inline double torch_exp1(double u, int version)
{
    return version == SL_TORCH_2 ? -1.0 * log1p(-u) : -1.0 * log(1.0 - u);
}

/* ratio r = p / (dtype)q, widened to double (exact) for comparisons */
static inline double torch_ratio(const sl_fw_torch_dist *d, size_t i, double q)
{
    if (d->dtype == SL_F32)
        return (double)(d->pf[i] / (float)q);
    return d->pd[i] / q;
}

/* argmax's rule: the first maximum, and the first NaN over everything. */
static inline int beats(double r, double best)
{
    return r > best || (isnan(r) && !isnan(best));
}

void sl_fw_torch_exponential(sl_rng_mt19937_state *mt, sl_dtype dtype, int version, double *out, size_t n,
                             uint64_t *words)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t w[2];
        sl_rng_torch_mt19937_fill(mt, w, 2);
        double q = torch_exp1(torch_u53(w[0], w[1]), version);
        out[i] = dtype == SL_F32 ? (double)(float)q : q;
    }
    *words += 2 * (uint64_t)n;
}

/* ---------------------------------------------------------------- preparation */

int sl_fw_torch_prepare(sl_fw_torch_dist *d, const float *pf, const double *pd, size_t V, sl_dtype dtype,
                        int version, const char *source, sl_error *err)
{
    memset(d, 0, sizeof *d);
    d->V = V;
    d->dtype = dtype;
    d->pf = pf;
    d->pd = pd;
    d->version = version;
    d->source = source ? source : "probs";
    d->bad_race = d->bad_cdf = SIZE_MAX;
    d->simd = sl_rng_torch_simd_level(SL_SIMD_AUTO);
    d->bound = malloc((V ? V : 1) * sizeof *d->bound);
    d->cdf = malloc((V ? V : 1) * (dtype == SL_F32 ? sizeof(float) : sizeof(double)));
    if (!d->bound || !d->cdf) {
        sl_fw_torch_free(d);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for V = %zu", d->source, V);
    }
    int all_zero = 1;
    for (size_t i = 0; i < V; i++) {
        double v = dtype == SL_F32 ? (double)pf[i] : pd[i];
        if (d->bad_race == SIZE_MAX && !(v >= 0 && v < INFINITY))
            d->bad_race = i;
        if (d->bad_cdf == SIZE_MAX && !(v >= 0 && isfinite(v))) {
            d->bad_cdf = i;
            d->bad_cdf_neg = !(v >= 0);
        }
        if (v != 0)
            all_zero = 0;
        /* a float no smaller than p (float32 p: itself) */
        float b = (float)v;
        if (dtype == SL_F64 && (double)b < v)
            b = nextafterf(b, INFINITY);
        d->bound[i] = b;
    }
    d->all_zero = all_zero;
    if (d->bad_cdf == SIZE_MAX) {
        /* the replacement kernel's table, in p's dtype */
        if (dtype == SL_F32) {
            float *c = d->cdf, sum = 0;
            for (size_t j = 0; j < V; j++) {
                sum += pf[j];
                c[j] = sum;
            }
            d->cdf_sum_ok = sum > 0;
            if (d->cdf_sum_ok) {
                for (size_t j = 0; j < V; j++)
                    c[j] /= sum;
                c[V - 1] = 1;
            }
        } else {
            double *c = d->cdf, sum = 0;
            for (size_t j = 0; j < V; j++) {
                sum += pd[j];
                c[j] = sum;
            }
            d->cdf_sum_ok = sum > 0;
            if (d->cdf_sum_ok) {
                for (size_t j = 0; j < V; j++)
                    c[j] /= sum;
                c[V - 1] = 1;
            }
        }
    }
    return SL_OK;
}

void sl_fw_torch_free(sl_fw_torch_dist *d)
{
    free(d->bound);
    free(d->cdf);
    d->bound = NULL;
    d->cdf = NULL;
}

/* ---------------------------------------------------------------- one-sample race */

/* The exact race over every element: the reference the fast path must equal. */
static size_t race1_naive(const sl_fw_torch_dist *d, sl_rng_mt19937_state *mt)
{
    enum { CH = 512 };
    uint32_t buf[2 * CH];
    size_t best_i = 0;
    double best = 0;
    for (size_t base = 0; base < d->V; base += CH) {
        size_t m = d->V - base < CH ? d->V - base : CH;
        sl_rng_torch_mt19937_fill(mt, buf, 2 * m);
        for (size_t j = 0; j < m; j++) {
            double r = torch_ratio(d, base + j, torch_exp1(torch_u53(buf[2 * j], buf[2 * j + 1]), d->version));
            if (base + j == 0 || beats(r, best)) {
                best = r;
                best_i = base + j;
            }
        }
    }
    return best_i;
}

/* Threshold scale for the pre-test: candidate i passes unless hi21(u) > bound_i·c,
 * c = 2^21·(1+2^-12)/best. Why it is safe: u·2^21 >= hi21 and -log(1-u) >= u, so a
 * skipped i has q >= u(1-2^-52) > p_i(1+2^-12)(1-2^-22)/best; rounding q to float
 * (2^-24) and the division (2^-24) cannot close a 2^-13 gap, so r_i < best. Products
 * that underflow only matter below 1, where hi21 = 0 is never skipped. best <= 0 (or
 * before the first element) disables skipping; best = NaN can no longer be beaten. */
static inline float race_scale(double best)
{
    if (!(best > 0))
        return INFINITY;
    double c = 0x1p21 * (1.0 + 0x1p-12) / best;
    return c > 3.0e38 ? INFINITY : (float)c;
}

typedef struct race_state {
    size_t best_i;
    double best;
    int started, done;
    float c;
} race_state;

static inline void race_consider(const sl_fw_torch_dist *d, race_state *s, size_t i, uint32_t w1, uint32_t w2)
{
    double r = torch_ratio(d, i, torch_exp1(torch_u53(w1, w2), d->version));
    if (!s->started || beats(r, s->best)) {
        s->started = 1;
        s->best = r;
        s->best_i = i;
        if (isnan(r))
            s->done = 1; /* the first NaN wins whatever follows */
        s->c = race_scale(r);
    }
}

#if defined(SL_TORCH_AVX2)
/* race_scan's pre-test 8 elements at a time (AVX2, checked at run time); returns
 * the number of elements it has dealt with. */
__attribute__((target("avx2"))) static size_t race_scan_avx2(const sl_fw_torch_dist *d, race_state *s,
                                                             const uint32_t *raw, size_t i0, size_t m)
{
    const float *bound = d->bound + i0;
    const __m256i mask21 = _mm256_set1_epi32(0x1FFFFF);
    const __m256i tb = _mm256_set1_epi32((int)0x9d2c5680u), tc = _mm256_set1_epi32((int)0xefc60000u);
    size_t j = 0;
    for (; j + 8 <= m && !s->done; j += 8) {
        __m256 a = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(raw + 2 * j)));
        __m256 b = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(raw + 2 * j + 8)));
        /* even words: lanes come out as elements 0,1,4,5 | 2,3,6,7; the 64-bit permute restores order */
        __m256i y = _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
        y = _mm256_permute4x64_epi64(y, _MM_SHUFFLE(3, 1, 2, 0));
        y = _mm256_xor_si256(y, _mm256_srli_epi32(y, 11));
        y = _mm256_xor_si256(y, _mm256_and_si256(_mm256_slli_epi32(y, 7), tb));
        y = _mm256_xor_si256(y, _mm256_and_si256(_mm256_slli_epi32(y, 15), tc));
        y = _mm256_xor_si256(y, _mm256_srli_epi32(y, 18));
        __m256 hi = _mm256_cvtepi32_ps(_mm256_and_si256(y, mask21));
        __m256 x = _mm256_mul_ps(_mm256_loadu_ps(bound + j), _mm256_set1_ps(s->c));
        int pass = _mm256_movemask_ps(_mm256_cmp_ps(hi, x, _CMP_NGT_UQ)); /* !(hi > x): NaN passes */
        while (pass) {
            int l = __builtin_ctz((unsigned)pass);
            pass &= pass - 1;
            size_t e = j + (size_t)l;
            race_consider(d, s, i0 + e, temper(raw[2 * e]), temper(raw[2 * e + 1]));
            if (s->done)
                break;
        }
    }
    return j;
}
#endif

/* Scans raw (untempered) state words raw[0..2m) as elements i0..i0+m-1: only the
 * first word of each pair is tempered for the pre-test. */
static void race_scan(const sl_fw_torch_dist *d, race_state *s, const uint32_t *raw, size_t i0, size_t m)
{
    const float *bound = d->bound + i0;
    size_t j = 0;
#if defined(SL_TORCH_AVX2)
    if (d->simd == SL_SIMD_AVX2)
        j = race_scan_avx2(d, s, raw, i0, m);
#endif
#if defined(__SSE2__)
    if (d->simd != SL_SIMD_SCALAR) {
        const __m128i mask21 = _mm_set1_epi32(0x1FFFFF);
        const __m128i tb = _mm_set1_epi32((int)0x9d2c5680u), tc = _mm_set1_epi32((int)0xefc60000u);
        for (; j + 4 <= m && !s->done; j += 4) {
            __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(raw + 2 * j)));
            __m128 b = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(raw + 2 * j + 4)));
            __m128i y = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 11));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 7), tb));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 15), tc));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 18));
            __m128 hi = _mm_cvtepi32_ps(_mm_and_si128(y, mask21));
            __m128 x = _mm_mul_ps(_mm_loadu_ps(bound + j), _mm_set1_ps(s->c));
            int pass = _mm_movemask_ps(_mm_cmpngt_ps(hi, x)); /* !(hi > x): NaN passes */
            while (pass) {
                int l = __builtin_ctz((unsigned)pass);
                pass &= pass - 1;
                size_t e = j + (size_t)l;
                race_consider(d, s, i0 + e, temper(raw[2 * e]), temper(raw[2 * e + 1]));
                if (s->done)
                    break;
            }
        }
    }
#endif
    for (; j < m && !s->done; j++) {
        uint32_t w1 = temper(raw[2 * j]);
        float hi = (float)(w1 & 0x1FFFFFu);
        if (hi > bound[j] * s->c)
            continue;
        race_consider(d, s, i0 + j, w1, temper(raw[2 * j + 1]));
    }
}

static size_t race1_fast(const sl_fw_torch_dist *d, sl_rng_mt19937_state *mt)
{
    race_state s = {0, 0.0, 0, 0, INFINITY};
    size_t i = 0;
    if (mt->mti & 1) {
        /* pairs straddle twists: go through the word buffer (never the case
         * inside this emulation, where every call draws an even count) */
        enum { CH = 256 };
        uint32_t buf[2 * CH];
        while (i < d->V) {
            size_t m = d->V - i < CH ? d->V - i : CH;
            sl_rng_torch_mt19937_fill(mt, buf, 2 * m);
            for (size_t j = 0; j < m; j++)
                if (!s.done && !((float)(buf[2 * j] & 0x1FFFFFu) > d->bound[i + j] * s.c))
                    race_consider(d, &s, i + j, buf[2 * j], buf[2 * j + 1]);
            i += m;
        }
        return s.best_i;
    }
    while (i < d->V) {
        if (mt->mti >= MT_N)
            sl_rng_torch_mt19937_twist_simd(mt, d->simd);
        size_t m = (size_t)(MT_N - mt->mti) / 2;
        if (m > d->V - i)
            m = d->V - i;
        if (!s.done)
            race_scan(d, &s, mt->mt + mt->mti, i, m);
        mt->mti += (int)(2 * m);
        i += m;
    }
    return s.best_i;
}

/* ---------------------------------------------------------------- top-k: libstdc++'s algorithms */
/* TopKImpl.h sorts std::pair<double, int64_t> with comp(x, y) = (isnan(x) && !isnan(y)) ||
 * x > y. Equal ratios (zeros when K exceeds the non-zero count, +inf when p/q
 * overflows) come out in whatever order the algorithms leave them, so these are
 * libstdc++'s (GCC 12, bits/stl_algo.h and stl_heap.h) partial_sort, nth_element and
 * sort, with the same pivots, thresholds and moves. */

typedef struct tk_elem {
    double v;
    int64_t i;
} tk_elem;

static inline int tk_comp(const tk_elem *x, const tk_elem *y)
{
    return (isnan(x->v) && !isnan(y->v)) || x->v > y->v;
}

static inline void tk_swap(tk_elem *a, tk_elem *b)
{
    tk_elem t = *a;
    *a = *b;
    *b = t;
}

static long tk_lg(ptrdiff_t n)
{
    long r = 0;
    while (n > 1) {
        n >>= 1;
        r++;
    }
    return r;
}

static void tk_adjust_heap(tk_elem *f, ptrdiff_t hole, ptrdiff_t len, tk_elem value)
{
    const ptrdiff_t top = hole;
    ptrdiff_t child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (tk_comp(&f[child], &f[child - 1]))
            child--;
        f[hole] = f[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        f[hole] = f[child - 1];
        hole = child - 1;
    }
    ptrdiff_t parent = (hole - 1) / 2;
    while (hole > top && tk_comp(&f[parent], &value)) {
        f[hole] = f[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    f[hole] = value;
}

static void tk_make_heap(tk_elem *f, ptrdiff_t len)
{
    if (len < 2)
        return;
    for (ptrdiff_t parent = (len - 2) / 2;; parent--) {
        tk_adjust_heap(f, parent, len, f[parent]);
        if (parent == 0)
            return;
    }
}

static void tk_pop_heap(tk_elem *f, ptrdiff_t len, tk_elem *result)
{
    tk_elem v = *result;
    *result = f[0];
    tk_adjust_heap(f, 0, len, v);
}

static void tk_heap_select(tk_elem *f, ptrdiff_t middle, ptrdiff_t last)
{
    tk_make_heap(f, middle);
    for (ptrdiff_t i = middle; i < last; i++)
        if (tk_comp(&f[i], &f[0]))
            tk_pop_heap(f, middle, &f[i]);
}

static void tk_sort_heap(tk_elem *f, ptrdiff_t len)
{
    while (len > 1) {
        len--;
        tk_pop_heap(f, len, &f[len]);
    }
}

static void tk_partial_sort(tk_elem *f, ptrdiff_t middle, ptrdiff_t last)
{
    tk_heap_select(f, middle, last);
    tk_sort_heap(f, middle);
}

static void tk_unguarded_linear_insert(tk_elem *last)
{
    tk_elem v = *last;
    tk_elem *next = last - 1;
    while (tk_comp(&v, next)) {
        *last = *next;
        last = next;
        next--;
    }
    *last = v;
}

static void tk_insertion_sort(tk_elem *first, tk_elem *last)
{
    if (first == last)
        return;
    for (tk_elem *i = first + 1; i != last; i++) {
        if (tk_comp(i, first)) {
            tk_elem v = *i;
            memmove(first + 1, first, (size_t)(i - first) * sizeof *first);
            *first = v;
        } else {
            tk_unguarded_linear_insert(i);
        }
    }
}

static void tk_move_median_to_first(tk_elem *result, tk_elem *a, tk_elem *b, tk_elem *c)
{
    if (tk_comp(a, b)) {
        if (tk_comp(b, c))
            tk_swap(result, b);
        else if (tk_comp(a, c))
            tk_swap(result, c);
        else
            tk_swap(result, a);
    } else if (tk_comp(a, c)) {
        tk_swap(result, a);
    } else if (tk_comp(b, c)) {
        tk_swap(result, c);
    } else {
        tk_swap(result, b);
    }
}

static tk_elem *tk_unguarded_partition(tk_elem *first, tk_elem *last, const tk_elem *pivot)
{
    for (;;) {
        while (tk_comp(first, pivot))
            first++;
        last--;
        while (tk_comp(pivot, last))
            last--;
        if (!(first < last))
            return first;
        tk_swap(first, last);
        first++;
    }
}

static tk_elem *tk_partition_pivot(tk_elem *first, tk_elem *last)
{
    tk_elem *mid = first + (last - first) / 2;
    tk_move_median_to_first(first, first + 1, mid, last - 1);
    return tk_unguarded_partition(first + 1, last, first);
}

static void tk_nth_element(tk_elem *first, tk_elem *nth, tk_elem *last)
{
    if (first == last || nth == last)
        return;
    long depth = tk_lg(last - first) * 2;
    while (last - first > 3) {
        if (depth == 0) {
            tk_heap_select(first, nth + 1 - first, last - first);
            tk_swap(first, nth);
            return;
        }
        depth--;
        tk_elem *cut = tk_partition_pivot(first, last);
        if (cut <= nth)
            first = cut;
        else
            last = cut;
    }
    tk_insertion_sort(first, last);
}

static void tk_introsort_loop(tk_elem *first, tk_elem *last, long depth)
{
    while (last - first > 16) {
        if (depth == 0) {
            tk_partial_sort(first, last - first, last - first);
            return;
        }
        depth--;
        tk_elem *cut = tk_partition_pivot(first, last);
        tk_introsort_loop(cut, last, depth);
        last = cut;
    }
}

static void tk_sort(tk_elem *first, tk_elem *last)
{
    if (first == last)
        return;
    tk_introsort_loop(first, last, tk_lg(last - first) * 2);
    if (last - first > 16) {
        tk_insertion_sort(first, first + 16);
        for (tk_elem *i = first + 16; i != last; i++)
            tk_unguarded_linear_insert(i);
    } else {
        tk_insertion_sort(first, last);
    }
}

/* torch's topk_impl_loop on the elements q[0..V) (values set, indices ignored):
 * partial_sort when 64·k <= V, else nth_element and a sort of the first k-1. */
static void topk_order(tk_elem *q, size_t V, size_t k, long *out)
{
    for (size_t i = 0; i < V; i++)
        q[i].i = (int64_t)i;
    if ((unsigned long long)k * 64 <= V) {
        tk_partial_sort(q, (ptrdiff_t)k, (ptrdiff_t)V);
    } else {
        tk_nth_element(q, q + k - 1, q + V);
        tk_sort(q, q + k - 1);
    }
    for (size_t j = 0; j < k; j++)
        out[j] = (long)q[j].i;
}

int sl_fw_torch_topk(const double *v, size_t V, size_t k, long *out, sl_error *err)
{
    if (k == 0 || k > V)
        return sl_base_error_set(err, SL_EINVAL, "topk: k = %zu outside 1..V = %zu", k, V);
    tk_elem *q = malloc(V * sizeof *q);
    if (!q)
        return sl_base_error_set(err, SL_ENOMEM, "topk: out of memory for V = %zu", V);
    for (size_t i = 0; i < V; i++)
        q[i].v = v[i];
    topk_order(q, V, k, out);
    free(q);
    return SL_OK;
}

static int race_topk(const sl_fw_torch_dist *d, sl_rng_mt19937_state *mt, size_t k, long *out, sl_error *err)
{
    tk_elem *q = malloc(d->V * sizeof *q);
    if (!q)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for V = %zu", d->source, d->V);
    enum { CH = 512 };
    uint32_t buf[2 * CH];
    for (size_t base = 0; base < d->V; base += CH) {
        size_t m = d->V - base < CH ? d->V - base : CH;
        sl_rng_torch_mt19937_fill(mt, buf, 2 * m);
        for (size_t j = 0; j < m; j++)
            q[base + j].v = torch_ratio(d, base + j, torch_exp1(torch_u53(buf[2 * j], buf[2 * j + 1]), d->version));
    }
    topk_order(q, d->V, k, out);
    free(q);
    return SL_OK;
}

/* ---------------------------------------------------------------- one call */

static size_t cdf_search(const sl_fw_torch_dist *d, double u)
{
    size_t left = 0, right = d->V;
    while (right - left > 0) {
        size_t mid = left + (right - left) / 2;
        double c = d->dtype == SL_F32 ? (double)((const float *)d->cdf)[mid] : ((const double *)d->cdf)[mid];
        if (c < u)
            left = mid + 1;
        else
            right = mid;
    }
    return left;
}

static int entry_error(const sl_fw_torch_dist *d, size_t i, const char *torch_msg, sl_error *err)
{
    double v = d->dtype == SL_F32 ? (double)d->pf[i] : d->pd[i];
    const char *what = isnan(v) ? "NaN" : isinf(v) ? (v > 0 ? "+inf" : "-inf") : "negative";
    return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is %s; torch.multinomial raises \"%s\"", d->source, i, what,
                        torch_msg);
}

int sl_fw_torch_multinomial(const sl_fw_torch_dist *d, sl_rng_mt19937_state *mt, size_t k, int replacement,
                            int mode, long *out, uint64_t *words, sl_error *err)
{
    /* the order of torch's checks (multinomial_out), all before any draw */
    if (k == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: torch.multinomial raises \"cannot sample n_sample <= 0 samples\"",
                            d->source);
    if (!replacement && k > d->V)
        return sl_base_error_set(err, SL_EINVAL,
                            "%s: torch.multinomial raises \"cannot sample n_sample > prob_dist.size(-1) samples "
                            "without replacement\" (num-samples %zu > V = %zu)",
                            d->source, k, d->V);
    if (d->V > (size_t)TORCH_MAX_CATEGORIES)
        return sl_base_error_set(err, SL_EINVAL,
                            "%s: torch.multinomial raises \"number of categories cannot exceed 2^24\" (V = %zu)",
                            d->source, d->V);
    int race = !replacement || (d->version == SL_TORCH_2 && k == 1);
    if (race) {
        if (d->bad_race != SIZE_MAX)
            return entry_error(d, d->bad_race, MSG_RACE_BAD, err);
        if (d->all_zero)
            return sl_base_error_set(err, SL_EINVAL, "%s: all %zu entries are zero; torch.multinomial raises \"%s\"",
                                d->source, d->V, MSG_SUM0);
        if (k == 1) {
            out[0] = (long)(mode == SL_TORCH_NAIVE ? race1_naive(d, mt) : race1_fast(d, mt));
        } else {
            int rc = race_topk(d, mt, k, out, err);
            if (rc)
                return rc;
        }
        *words += 2 * (uint64_t)d->V;
        return SL_OK;
    }
    if (d->bad_cdf != SIZE_MAX)
        return entry_error(d, d->bad_cdf, d->bad_cdf_neg ? MSG_CDF_NEG : MSG_CDF_INF, err);
    if (!d->cdf_sum_ok)
        return sl_base_error_set(err, SL_EINVAL, "%s: the entries sum to zero; torch.multinomial raises \"%s\"", d->source,
                            MSG_SUM0);
    for (size_t j = 0; j < k; j++) {
        uint32_t w[2];
        sl_rng_torch_mt19937_fill(mt, w, 2);
        out[j] = (long)cdf_search(d, torch_u53(w[0], w[1]));
    }
    *words += 2 * (uint64_t)k;
    return SL_OK;
}

/* ---------------------------------------------------------------- samplab draw --framework torch */

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static int torch_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    if (!o->probs)
        return sl_base_error_set(err, SL_EINVAL, "framework torch takes --probs (torch.multinomial samples probabilities)");
    int version = SL_TORCH_1_13;
    if (o->variant) {
        if (!strcmp(o->variant, "2"))
            version = SL_TORCH_2;
        else if (!strcmp(o->variant, "1.13"))
            version = SL_TORCH_1_13;
        else
            return sl_base_error_set(err, SL_EINVAL, "--torch takes 1.13 (default) or 2, not '%s'", o->variant);
    }
    const sl_vec *v = o->probs;
    /* text is parsed straight to the dtype (float32 unless --dtype); a .npy or
     * .safetensors keeps its own dtype unless --dtype overrides it */
    sl_dtype dt = SL_F32;
    if (o->dtype_set)
        dt = o->dtype;
    else if (ends_with(v->source, ".npy") || ends_with(v->source, ".safetensors"))
        dt = v->dtype;
    sl_seed seed;
    memset(&seed, 0, sizeof seed);
    seed.lo = 42;
    if (o->has_seed)
        seed = o->seed;
    sl_rng_mt19937_state mt;
    int rc = sl_rng_torch_mt19937_seed(&mt, &seed, err);
    if (rc)
        return rc;
    size_t n = o->n, k = o->k;
    if (k && n > SIZE_MAX / sizeof(long) / k)
        return sl_base_error_set(err, SL_EINVAL, "--n %zu times --num-samples %zu is too many tokens", n, k);
    sl_fw_torch_dist d;
    rc = sl_fw_torch_prepare(&d, v->f, v->d, v->n, dt, version, v->source, err);
    if (rc)
        return rc;
    size_t ntok = n * k;
    long *tokens = malloc((ntok ? ntok : 1) * sizeof *tokens);
    if (!tokens) {
        sl_fw_torch_free(&d);
        return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu tokens", n * k);
    }
    uint64_t words = 0;
    for (size_t i = 0; i < n; i++) {
        rc = sl_fw_torch_multinomial(&d, &mt, k, o->replacement, SL_TORCH_FAST, tokens + i * k, &words, err);
        if (rc) {
            free(tokens);
            sl_fw_torch_free(&d);
            return rc;
        }
    }
    sl_fw_torch_free(&d);
    out->n = n;
    out->k = k;
    out->tokens = tokens;
    out->rng_name = "torch-mt19937";
    out->word_bits = 32;
    out->words = words;
    return SL_OK;
}

const sl_fw_type sl_fw_torch_type = {
    .name = "torch",
    .summary = "torch.multinomial on CPU: torch 1.13.1 (--torch 2: 2.x, checked on 2.6.0); builds "
               "without MKL exponentials only (check: analysis/golden/torch_golden.py --fingerprint)",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_REPLACEMENT | SL_OPT_DTYPE | SL_OPT_VARIANT,
    .run = torch_run,
};

/* Variant "2" (torch 2.x CPU without MKL, from the 2.6.0 source): exponential uses
 * -1.0 * log1p(-u), and the race also serves replacement=True with one sample
 * (multinomial_out's fast path tests `!with_replacement || n_sample == 1`, so its
 * errors are the race's too). Checked bit for bit against Debian trixie's
 * python3-torch 2.6.0 (CPU, no MKL) in a chroot: data/torch2, 899 records, plus
 * 1,500 random ones; float64 exponentials differ from 1.13's in the last bit
 * often enough that the exponential_ hashes there tell log from log1p. Other 2.x
 * releases and MKL builds were not run. */
