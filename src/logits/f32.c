/* f32.c — the float32 kernels the transformers and vLLM pipelines share:
 * softmax, log_softmax, cumsum, stable argsort and the k-th largest value, as
 * PyTorch's CPU ops compute them (torch 1.13–2.x, aten/src/ATen/native/cpu).
 *
 * softmax is torch's AVX2 kernel (_vec_softmax_lastdim, the capability
 * torch 1.13 picks on an AVX2 machine): exp is SLEEF's expf_u10 with FMA (bit
 * for bit, checked against torch.exp on 200,000 values), the sum is
 * at::vec::reduce_all's 8-lane order, then one reciprocal multiplied in —
 * identical to torch.softmax in every golden case. Under AVX-512 (16 lanes)
 * or another torch build the sum order, hence the last bit, differs. cumsum
 * matches torch exactly: its CPU kernel accumulates float in double
 * (at::acc_type<float, false> is double) and rounds each prefix to float.
 * torch.sort on CPU (stable=False, the default transformers and vLLM use) is
 * libstdc++'s std::sort over (value, index) pairs compared by value — not
 * stable for more than 16 elements — so argsort runs the same algorithm
 * (stdsort.c) and tied logits come out in torch's order; checked against
 * torch 1.13.1 on tie-heavy vectors (data/golden/hf_pipeline.txt, ties*). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

/* 2^q as a float, q in the normal exponent range */
static float sl_f32_pow2i(int q)
{
    uint32_t u = (uint32_t)(q + 127) << 23;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Inlined as it is into the FMA build of exp_shift below: fmaf is exactly
 * rounded either way, so both give the same bits; the FMA one runs the
 * instruction instead of a libm call (a third of a 32,000-entry softmax). */
static inline __attribute__((always_inline)) float expf_sleef(float d)
{
    /* SLEEF xexpf (u10), the AVX2 build torch vectorises exp with: round
     * d/ln2 to q, two-part Cody-Waite reduction, degree-6 polynomial with
     * fused multiply-adds, scale by 2^q in two halves */
    int q = (int)lrintf(d * 1.442695040888963407359924681001892137426645954152985934135449406931f);
    float qf = (float)q;
    float s = fmaf(qf, -0.693145751953125f, d);
    s = fmaf(qf, -1.428606765330187045e-06f, s);
    float u = 0.000198527617612853646278381f;
    u = fmaf(u, s, 0.00139304355252534151077271f);
    u = fmaf(u, s, 0.00833336077630519866943359f);
    u = fmaf(u, s, 0.0416664853692054748535156f);
    u = fmaf(u, s, 0.166666671633720397949219f);
    u = fmaf(u, s, 0.5f);
    u = 1.0f + fmaf(s * s, u, s);
    if (d < -104.0f)
        return 0.0f;
    if (d > 100.0f)
        return INFINITY;
    return u * sl_f32_pow2i(q >> 1) * sl_f32_pow2i(q - (q >> 1));
}

float sl_logits_expf_sleef(float d)
{
    return expf_sleef(d);
}

/* out[i] = exp(x[i] - mx), SLEEF's expf, over n entries */
static void exp_shift_plain(const float *x, size_t n, float mx, float *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = expf_sleef(x[i] - mx);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void exp_shift_fma(const float *x, size_t n, float mx, float *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = expf_sleef(x[i] - mx);
}
#endif

/* ---- the same kernels 8 lanes at a time (AVX2 + FMA), bit for bit: each lane
 * runs the scalar code's operations in the scalar code's order (IEEE single
 * precision, one rounding each, fma where it has fmaf), and every sum keeps the
 * lane assignment of the order it models. The level comes from base/simd.c
 * (SL_SIMD_SCALAR forces the scalar code; the tests compare the two). */
#if SL_BASE_HAVE_AVX2
#include <immintrin.h>
#define F32_AVX2 __attribute__((target("avx2,fma")))

F32_AVX2 static inline __m256 exp8_sleef(__m256 d)
{
    __m256i q = _mm256_cvtps_epi32(_mm256_mul_ps(d, _mm256_set1_ps(1.442695040888963407359924681001892137426645954152985934135449406931f)));
    __m256 qf = _mm256_cvtepi32_ps(q);
    __m256 s = _mm256_fmadd_ps(qf, _mm256_set1_ps(-0.693145751953125f), d);
    s = _mm256_fmadd_ps(qf, _mm256_set1_ps(-1.428606765330187045e-06f), s);
    __m256 u = _mm256_set1_ps(0.000198527617612853646278381f);
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00139304355252534151077271f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.00833336077630519866943359f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.0416664853692054748535156f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.166666671633720397949219f));
    u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(0.5f));
    u = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(_mm256_mul_ps(s, s), u, s));
    __m256i q1 = _mm256_srai_epi32(q, 1), q2 = _mm256_sub_epi32(q, q1), bias = _mm256_set1_epi32(127);
    __m256 p1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(q1, bias), 23));
    __m256 p2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(q2, bias), 23));
    __m256 r = _mm256_mul_ps(_mm256_mul_ps(u, p1), p2);
    r = _mm256_blendv_ps(r, _mm256_setzero_ps(), _mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ));
    return _mm256_blendv_ps(r, _mm256_set1_ps(INFINITY), _mm256_cmp_ps(d, _mm256_set1_ps(100.0f), _CMP_GT_OQ));
}

F32_AVX2 static void exp_shift_avx2(const float *x, size_t n, float mx, float *out)
{
    __m256 m = _mm256_set1_ps(mx), ninf = _mm256_set1_ps(-INFINITY);
    /* eight -inf entries give eight +0 (-inf - mx is -inf, under -104) unless mx is
     * -inf itself (-inf - -inf is NaN): a filtered row skips its removed blocks */
    int skip = mx != -INFINITY;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        if (skip && _mm256_movemask_ps(_mm256_cmp_ps(v, ninf, _CMP_EQ_OQ)) == 0xff)
            _mm256_storeu_ps(out + i, _mm256_setzero_ps());
        else
            _mm256_storeu_ps(out + i, exp8_sleef(_mm256_sub_ps(v, m)));
    }
    for (; i < n; i++)
        out[i] = expf_sleef(x[i] - mx);
}

/* the scalar loop's `if (x > mx) mx = x` per lane (max_ps(a, b) = a > b ? a : b,
 * so NaN is skipped as there), lanes combined in order */
F32_AVX2 static float max_avx2(const float *x, size_t n)
{
    float mx = -INFINITY;
    size_t i = 0;
    if (n >= 8) {
        __m256 m = _mm256_set1_ps(-INFINITY);
        for (; i + 8 <= n; i += 8)
            m = _mm256_max_ps(_mm256_loadu_ps(x + i), m);
        float l[8];
        _mm256_storeu_ps(l, m);
        for (int j = 0; j < 8; j++)
            if (l[j] > mx)
                mx = l[j];
    }
    for (; i < n; i++)
        if (x[i] > mx)
            mx = x[i];
    return mx;
}

/* the L-lane accumulator over full vectors (L = 8: one register; 16: two) */
F32_AVX2 static void reduce_lanes_avx2(const float *x, size_t n, size_t L, float *a)
{
    __m256 lo = _mm256_loadu_ps(x), hi = L == 16 ? _mm256_loadu_ps(x + 8) : _mm256_setzero_ps();
    size_t d = L, end = n - (n % L);
    if (L == 16)
        for (; d < end; d += 16) {
            lo = _mm256_add_ps(lo, _mm256_loadu_ps(x + d));
            hi = _mm256_add_ps(hi, _mm256_loadu_ps(x + d + 8));
        }
    else
        for (; d < end; d += 8)
            lo = _mm256_add_ps(lo, _mm256_loadu_ps(x + d));
    _mm256_storeu_ps(a, lo);
    _mm256_storeu_ps(a + 8, hi);
}

F32_AVX2 static void mul_avx2(float *x, size_t n, float f)
{
    __m256 m = _mm256_set1_ps(f);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(x + i, _mm256_mul_ps(_mm256_loadu_ps(x + i), m));
    for (; i < n; i++)
        x[i] *= f;
}

F32_AVX2 static void div_avx2(const float *x, float *out, size_t n, float t)
{
    __m256 m = _mm256_set1_ps(t);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_div_ps(_mm256_loadu_ps(x + i), m));
    for (; i < n; i++)
        out[i] = x[i] / t;
}
#endif

#if SL_BASE_HAVE_AVX2
/* whether the 8-lane kernels run at SIMD level `simd` (they need AVX2 and FMA) */
static int f32_vec(int simd)
{
    return sl_base_simd_level(simd) == SL_SIMD_AVX2 && __builtin_cpu_supports("fma");
}
#endif

static void exp_shift(const float *x, size_t n, float mx, float *out, int simd)
{
    (void)simd;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(simd)) {
        exp_shift_avx2(x, n, mx, out);
        return;
    }
#endif
#if defined(__x86_64__) && defined(__GNUC__)
    if (simd != SL_SIMD_SCALAR && __builtin_cpu_supports("fma")) {
        exp_shift_fma(x, n, mx, out);
        return;
    }
#endif
    exp_shift_plain(x, n, mx, out);
}

/* max over x by `if (x > mx) mx = x` from -inf. A zero maximum is found again by
 * the scalar loop, which keeps the first zero's sign, as the lanes may not. */
static float f32_max(const float *x, size_t n, int simd)
{
    float mx = -INFINITY;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(simd)) {
        mx = max_avx2(x, n);
        if (mx != 0.0f)
            return mx;
        mx = -INFINITY;
    }
#else
    (void)simd;
#endif
    for (size_t i = 0; i < n; i++)
        if (x[i] > mx)
            mx = x[i];
    return mx;
}

static void f32_mul(float *x, size_t n, float f, int simd)
{
#if SL_BASE_HAVE_AVX2
    if (f32_vec(simd)) {
        mul_avx2(x, n, f);
        return;
    }
#else
    (void)simd;
#endif
    for (size_t i = 0; i < n; i++)
        x[i] *= f;
}

void sl_logits_div_f32(const float *x, float *out, size_t n, float t)
{
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO)) {
        div_avx2(x, out, n, t);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++)
        out[i] = x[i] / t;
}

int sl_logits_cpu_resolve(int cpu)
{
    if (cpu != SL_CPU_AUTO)
        return cpu;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* aten/src/ATen/native/DispatchStub.cpp compute_cpu_capability (torch 2.x):
     * AVX512 needs avx512 vl, bw, dq and fma; otherwise AVX2 */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma"))
        return SL_CPU_AVX512;
#endif
    return SL_CPU_AVX2;
}

const char *sl_logits_cpu_name(int cpu)
{
    return cpu == SL_CPU_AVX512 ? "avx512" : cpu == SL_CPU_AVX2 ? "avx2" : "auto";
}

static float reduce_all(const float *x, size_t n, int cpu, int simd)
{
    /* at::vec::reduce_all(+) (aten/src/ATen/cpu/vec/functional_base.h): n < L lane
     * by lane; otherwise one L-lane accumulator over full vectors, the tail into the
     * first lanes, then the shuffle tree: a_i + a_(i^8) (16 lanes only), then
     * a_i + a_(i^4), a_i + a_(i^2), a_0 + a_1. L = 8 on AVX2, 16 on AVX-512. */
    size_t L = cpu == SL_CPU_AVX512 ? 16 : 8;
    if (n == 0)
        return 0.0f;
    if (n < L) {
        float s = x[0];
        for (size_t i = 1; i < n; i++)
            s += x[i];
        return s;
    }
    float a[16];
    size_t d = n - (n % L);
#if SL_BASE_HAVE_AVX2
    if (f32_vec(simd)) {
        reduce_lanes_avx2(x, n, L, a);
    } else
#else
    (void)simd;
#endif
    {
        memcpy(a, x, L * sizeof *a);
        for (size_t e = L; e < d; e += L)
            for (size_t l = 0; l < L; l++)
                a[l] += x[e + l];
    }
    for (size_t l = 0; d + l < n; l++)
        a[l] += x[d + l];
    for (size_t w = L / 2; w >= 1; w /= 2)
        for (size_t l = 0; l < w; l++)
            a[l] = a[l] + a[l + w];
    return a[0];
}

float sl_logits_sum_reduce_all(const float *x, size_t n, int cpu)
{
    return reduce_all(x, n, cpu, SL_SIMD_AUTO);
}

void sl_logits_softmax_f32_at(const float *x, size_t n, float *out, int cpu, int simd)
{
    float mx = f32_max(x, n, simd);
    exp_shift(x, n, mx, out, simd);
    float inv = 1.0f / reduce_all(out, n, cpu, simd);
    f32_mul(out, n, inv, simd);
}

void sl_logits_softmax_f32(const float *x, size_t n, float *out, int cpu)
{
    sl_logits_softmax_f32_at(x, n, out, cpu, SL_SIMD_AUTO);
}

/* ---- SLEEF's logf_u10 (xlogf_u1), the vectorised log torch applies to the
 * row sums in _vec_log_softmax_lastdim (Vectorized<float>::log is
 * Sleef_logf8_u10 / Sleef_logf16_u10), in its FMA build: within 1 ulp, and
 * not always glibc's correctly rounded logf (a near-flat row of 3 showed it).
 * d = m 2^e with m in [0.75, 1.5), x = (m - 1) / (m + 1) in double-float,
 * log = e ln2 + 2x + x^3 P(x^2), summed in double-float. */
typedef struct {
    float x, y;
} f32x2;

static f32x2 df_add2_ff(float a, float b)
{
    float s = a + b, v = s - a;
    return (f32x2){s, (a - (s - v)) + (b - v)};
}

static f32x2 df_div(f32x2 n, f32x2 d)
{
    float t = 1.0f / d.x, s = n.x * t;
    float u = fmaf(t, n.x, -s);
    float v = fmaf(-d.y, t, fmaf(-d.x, t, 1.0f));
    return (f32x2){s, fmaf(s, v, fmaf(n.y, t, u))};
}

float sl_logits_logf_sleef(float d)
{
    if (isnan(d) || d < 0)
        return NAN;
    if (d == 0)
        return -INFINITY;
    if (isinf(d))
        return INFINITY;
    int sub = d < 1.17549435e-38f; /* FLT_MIN: scale a subnormal up by 2^64 */
    if (sub)
        d *= 18446744073709551616.0f;
    float q = d * (1.0f / 0.75f);
    uint32_t qb, db;
    memcpy(&qb, &q, sizeof qb);
    memcpy(&db, &d, sizeof db);
    int e = (int)((qb >> 23) & 0xffu) - 0x7f;
    uint32_t mb = db - ((uint32_t)e << 23); /* d 2^-e through the exponent field */
    float m;
    memcpy(&m, &mb, sizeof m);
    if (sub)
        e -= 64;
    float ef = (float)e;
    /* (ln2 hi, lo) * e as a double-float product with FMA */
    float sx = 0.69314718246459960938f * ef;
    float sy = fmaf(-1.904654323148236017e-09f, ef, fmaf(0.69314718246459960938f, ef, -sx));
    f32x2 x = df_div(df_add2_ff(-1.0f, m), df_add2_ff(1.0f, m));
    float x2 = x.x * x.x;
    float t = 0.3027294874e+0f;
    t = fmaf(t, x2, 0.3996108174e+0f);
    t = fmaf(t, x2, 0.6666694880e+0f);
    /* s += 2x (double-float + double-float), then s += x^3 t */
    float bx = x.x * 2.0f, by = x.y * 2.0f;
    float s1 = sx + bx;
    float s1y = (((sx - s1) + bx) + sy) + by;
    float c = (x2 * x.x) * t;
    float s2 = s1 + c;
    float s2y = ((s1 - s2) + c) + s1y;
    return s2 + s2y;
}

void sl_logits_log_softmax_f32_at(const float *x, size_t n, float *out, int cpu, int simd)
{
    float mx = f32_max(x, n, simd);
    exp_shift(x, n, mx, out, simd);
    float lse = sl_logits_logf_sleef(reduce_all(out, n, cpu, simd));
    for (size_t i = 0; i < n; i++)
        out[i] = (x[i] - mx) - lse;
}

void sl_logits_log_softmax_f32(const float *x, size_t n, float *out, int cpu)
{
    sl_logits_log_softmax_f32_at(x, n, out, cpu, SL_SIMD_AUTO);
}

/* ---- torch.sum / nansum of a contiguous float32 row on CPU (ATen
 * SumKernel.cpp cascade_sum, one thread): float accumulators; rows of 8-lane
 * vectors summed 4 at a time (ilp) with a 4-level cascade whose level step is
 * 2^max(4, ceil(log2 rows)/4); the scalar tail first, then the 8 lanes in
 * order. Under 8 elements the same cascade runs on scalars. */
static int64_t sl_f32_ceil_log2(uint64_t x)
{
    int64_t r = 0;
    if (x <= 1)
        return 0;
    for (x -= 1; x; x >>= 1)
        r++;
    return r;
}

static void sl_f32_multi_row_sum(const float *in, int64_t row_stride, int64_t col_stride, int64_t size, int lanes,
                                 int nan0, float *out)
{
    enum { LEVELS = 4, NROWS = 4 };
    int64_t level_power = sl_f32_ceil_log2((uint64_t)size) / LEVELS;
    if (level_power < 4)
        level_power = 4;
    const int64_t level_step = (int64_t)1 << level_power, level_mask = level_step - 1;
    float acc[LEVELS][NROWS][8];
    memset(acc, 0, sizeof acc);
#define SL_LOAD(p) (nan0 && isnan(*(p)) ? 0.0f : *(p))
    int64_t i = 0;
    while (i + level_step <= size) {
        for (int64_t j = 0; j < level_step; ++j, ++i)
            for (int k = 0; k < NROWS; k++)
                for (int l = 0; l < lanes; l++)
                    acc[0][k][l] += SL_LOAD(in + i * row_stride + k * col_stride + l);
        for (int j = 1; j < LEVELS; j++) {
            for (int k = 0; k < NROWS; k++)
                for (int l = 0; l < lanes; l++) {
                    acc[j][k][l] += acc[j - 1][k][l];
                    acc[j - 1][k][l] = 0.0f;
                }
            if ((i & (level_mask << (j * level_power))) != 0)
                break;
        }
    }
    for (; i < size; ++i)
        for (int k = 0; k < NROWS; k++)
            for (int l = 0; l < lanes; l++)
                acc[0][k][l] += SL_LOAD(in + i * row_stride + k * col_stride + l);
    for (int j = 1; j < LEVELS; j++)
        for (int k = 0; k < NROWS; k++)
            for (int l = 0; l < lanes; l++)
                acc[0][k][l] += acc[j][k][l];
    for (int k = 0; k < NROWS; k++)
        for (int l = 0; l < lanes; l++)
            out[k * lanes + l] = acc[0][k][l];
}

/* row_sum: size elements of `lanes` floats each, 4-way ilp, tail into part 0 */
static void f32_row_sum(const float *in, int64_t size, int lanes, int nan0, float *res)
{
    float part[4 * 8];
    const int64_t size_ilp = size / 4;
    sl_f32_multi_row_sum(in, 4 * lanes, lanes, size_ilp, lanes, nan0, part);
    for (int64_t i = size_ilp * 4; i < size; i++)
        for (int l = 0; l < lanes; l++)
            part[l] += SL_LOAD(in + i * lanes + l);
    for (int k = 1; k < 4; k++)
        for (int l = 0; l < lanes; l++)
            part[l] += part[k * lanes + l];
    memcpy(res, part, (size_t)lanes * sizeof *res);
}

float sl_logits_sum_torch_f32(const float *x, size_t n, int ignore_nan)
{
    if (n < 8) {
        float r = 0.0f;
        if (n)
            f32_row_sum(x, (int64_t)n, 1, ignore_nan, &r);
        return r;
    }
    const int64_t vec_size = (int64_t)n / 8;
    float v[8], fin = 0.0f;
    f32_row_sum(x, vec_size, 8, ignore_nan, v);
    for (int64_t k = vec_size * 8; k < (int64_t)n; k++)
        fin += ignore_nan && isnan(x[k]) ? 0.0f : x[k];
    for (int l = 0; l < 8; l++)
        fin += v[l];
    return fin;
}
#undef SL_LOAD

void sl_logits_cumsum_f32(const float *x, size_t n, float *out)
{
    double acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc += x[i];
        out[i] = (float)acc;
    }
}

/* generic pairs for a row too long for a 32-bit index (same algorithm, same order) */
typedef struct f32_pair {
    float v;
    size_t i;
} f32_pair;

static int f32_pair_asc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const f32_pair *)a)->v < ((const f32_pair *)b)->v;
}

static int f32_pair_desc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const f32_pair *)a)->v > ((const f32_pair *)b)->v;
}

int sl_logits_argsort_f32_with(const float *x, size_t n, int descending, size_t *idx, sl_base_f32i *pairs,
                               sl_error *err)
{
    if (n > UINT32_MAX) {
        f32_pair *pr = n <= SIZE_MAX / sizeof *pr ? malloc(n * sizeof *pr) : NULL;
        if (!pr)
            return sl_base_error_set(err, SL_ENOMEM, "torch sort: out of memory for %zu (value, index) pairs", n);
        for (size_t i = 0; i < n; i++)
            pr[i] = (f32_pair){x[i], i};
        sl_base_std_sort(pr, n, sizeof *pr, descending ? f32_pair_desc : f32_pair_asc, NULL);
        for (size_t i = 0; i < n; i++)
            idx[i] = pr[i].i;
        free(pr);
        return SL_OK;
    }
    sl_base_f32i *pr = pairs ? pairs : malloc((n ? n : 1) * sizeof *pr);
    if (!pr)
        return sl_base_error_set(err, SL_ENOMEM, "torch sort: out of memory for %zu (value, index) pairs", n);
    for (size_t i = 0; i < n; i++)
        pr[i] = (sl_base_f32i){x[i], (uint32_t)i};
    sl_base_std_sort_f32i(pr, n, descending ? SL_BASE_DESC : SL_BASE_ASC);
    for (size_t i = 0; i < n; i++)
        idx[i] = pr[i].i;
    if (!pairs)
        free(pr);
    return SL_OK;
}

int sl_logits_argsort_f32(const float *x, size_t n, int descending, size_t *idx, sl_error *err)
{
    return sl_logits_argsort_f32_with(x, n, descending, idx, NULL, err);
}

/* ---- the k-th largest value without sorting the row: split it into k chunks; the
 * least of the chunk maxima, t0, is the value of one of k distinct entries, so the
 * k-th largest is >= t0, and it is the k-th largest of the entries >= t0 (at least
 * k of them: one a chunk). Those few are selected by nth_element. Returns 0 (the
 * caller then works on the whole row) at a NaN or when too many entries pass t0. */
#define KTH_K_MAX 256
#define KTH_CAND_MAX 4096

#if SL_BASE_HAVE_AVX2
/* entries >= t0 into cand; SIZE_MAX at a NaN or past KTH_CAND_MAX */
F32_AVX2 static size_t kth_gather_avx2(const float *x, size_t n, float t0, float *cand, size_t *i0)
{
    __m256 t = _mm256_set1_ps(t0);
    size_t nc = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)))
            return SIZE_MAX;
        unsigned ge = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(v, t, _CMP_GE_OQ));
        if (!ge)
            continue;
        if (nc + 8 > KTH_CAND_MAX)
            return SIZE_MAX;
        for (; ge; ge &= ge - 1)
            cand[nc++] = x[i + (size_t)__builtin_ctz(ge)];
    }
    *i0 = i;
    return nc;
}
#endif

static int kth_by_chunks(const float *x, size_t n, size_t k, float *kth)
{
    float t0 = INFINITY;
    size_t len = n / k;
    for (size_t c = 0; c < k; c++) {
        size_t lo = c * len, hi = c + 1 == k ? n : lo + len;
        float m = f32_max(x + lo, hi - lo, SL_SIMD_AUTO);
        if (m < t0)
            t0 = m;
    }
    float cand[KTH_CAND_MAX];
    size_t nc = 0, i = 0;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO) && (nc = kth_gather_avx2(x, n, t0, cand, &i)) == SIZE_MAX)
        return 0;
#endif
    for (; i < n; i++) {
        if (x[i] != x[i] || (x[i] >= t0 && nc == KTH_CAND_MAX))
            return 0;
        if (x[i] >= t0)
            cand[nc++] = x[i];
    }
    if (nc < k) /* cannot happen (one a chunk), but never read past them */
        return 0;
    sl_base_std_nth_element_f32(cand, k - 1, nc, SL_BASE_DESC);
    *kth = cand[k - 1];
    return 1;
}

int sl_logits_kth_largest_f32(const float *x, size_t n, size_t k, size_t *idx, float *kth, sl_error *err)
{
    /* Without NaN, '>' is a strict weak order and the k-th value of the sorted order
     * is unique, so a selection finds the very value the full sort does: for small k
     * among the few entries that can be it, otherwise libstdc++'s nth_element over the
     * row, O(n); a zero is found again over the row, whose element (and sign) it was.
     * With a NaN the order is not one, so the sort decides. */
    if (k >= 1 && k <= KTH_K_MAX && k <= n / 8 && n <= UINT32_MAX && kth_by_chunks(x, n, k, kth) && *kth != 0.0f)
        return SL_OK;
    float *c = n <= SIZE_MAX / sizeof *c ? malloc((n ? n : 1) * sizeof *c) : NULL;
    if (!c)
        return sl_base_error_set(err, SL_ENOMEM, "torch sort: out of memory for %zu values to select from", n);
    size_t nan = 0;
    for (size_t i = 0; i < n; i++) {
        c[i] = x[i];
        nan += x[i] != x[i];
    }
    if (!nan) {
        sl_base_std_nth_element_f32(c, k - 1, n, SL_BASE_DESC);
        *kth = c[k - 1];
        free(c);
        return SL_OK;
    }
    free(c);
    int rc = sl_logits_argsort_f32(x, n, 1, idx, err);
    if (rc)
        return rc;
    *kth = x[idx[k - 1]];
    return SL_OK;
}

/* ---- the hf pipeline's passes over V, 8 lanes at a time where the CPU allows */

#if SL_BASE_HAVE_AVX2
F32_AVX2 static size_t mask_below_avx2(float *x, size_t n, float thr, size_t *i0)
{
    __m256 t = _mm256_set1_ps(thr), ninf = _mm256_set1_ps(-INFINITY);
    size_t live = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        v = _mm256_blendv_ps(v, ninf, _mm256_cmp_ps(v, t, _CMP_LT_OQ));
        _mm256_storeu_ps(x + i, v);
        live += (size_t)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(v, ninf, _CMP_NEQ_UQ)));
    }
    *i0 = i;
    return live;
}

F32_AVX2 static size_t export_avx2(const float *s, const float *p, size_t n, double *probs, unsigned char *kept,
                                   size_t *i0, int *nan)
{
    __m256 ninf = _mm256_set1_ps(-INFINITY), un = _mm256_setzero_ps();
    size_t live = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(p + i);
        un = _mm256_or_ps(un, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        _mm256_storeu_pd(probs + i, _mm256_cvtps_pd(_mm256_castps256_ps128(v)));
        _mm256_storeu_pd(probs + i + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
        __m256 k = _mm256_cmp_ps(_mm256_loadu_ps(s + i), ninf, _CMP_NEQ_UQ);
        live += (size_t)__builtin_popcount((unsigned)_mm256_movemask_ps(k));
        /* the 8 lane masks (-1 or 0) narrowed to 8 bytes, then 1 or 0 */
        __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(_mm256_castps_si256(k)),
                                    _mm256_extracti128_si256(_mm256_castps_si256(k), 1));
        w = _mm_and_si128(_mm_packs_epi16(w, w), _mm_set1_epi8(1));
        _mm_storel_epi64((__m128i *)(void *)(kept + i), w);
    }
    *i0 = i;
    *nan = _mm256_movemask_ps(un) != 0;
    return live;
}
#endif

size_t sl_logits_mask_below_f32(float *x, size_t n, float thr)
{
    size_t live = 0, i = 0;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO))
        live = mask_below_avx2(x, n, thr, &i);
#endif
    for (; i < n; i++) {
        if (x[i] < thr)
            x[i] = -INFINITY;
        live += x[i] != -INFINITY;
    }
    return live;
}

size_t sl_logits_export_f32(const float *s, const float *p, size_t n, double *probs, unsigned char *kept, int *nan)
{
    size_t live = 0, i = 0;
    int un = 0;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO))
        live = export_avx2(s, p, n, probs, kept, &i, &un);
#endif
    for (; i < n; i++) {
        kept[i] = s[i] != -INFINITY;
        live += kept[i];
        probs[i] = p[i];
        un |= p[i] != p[i];
    }
    *nan = un;
    return live;
}

/* ---- the checks every pipeline run makes on its row, in one pass */

#if SL_BASE_HAVE_AVX2
F32_AVX2 static int row_clean_avx2(const double *d, const float *f, size_t n, size_t *i0, int *any)
{
    __m256d inf = _mm256_set1_pd(INFINITY), ninf = _mm256_set1_pd(-INFINITY);
    __m256 finf = _mm256_set1_ps(INFINITY);
    int bad = 0, live = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256d a = _mm256_loadu_pd(d + i), b = _mm256_loadu_pd(d + i + 4);
        /* !(x < inf): NaN or +inf */
        bad |= _mm256_movemask_pd(_mm256_cmp_pd(a, inf, _CMP_NLT_UQ)) | _mm256_movemask_pd(_mm256_cmp_pd(b, inf, _CMP_NLT_UQ));
        live |= _mm256_movemask_pd(_mm256_cmp_pd(a, ninf, _CMP_NEQ_UQ)) | _mm256_movemask_pd(_mm256_cmp_pd(b, ninf, _CMP_NEQ_UQ));
        if (f)
            bad |= _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(f + i), finf, _CMP_EQ_OQ));
    }
    *i0 = i;
    *any = live != 0;
    return bad == 0;
}
#endif

int sl_logits_row_clean(const double *d, const float *f, size_t n)
{
    size_t i = 0;
    int any = 0;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO) && !row_clean_avx2(d, f, n, &i, &any))
        return 0;
#endif
    for (; i < n; i++) {
        if (!(d[i] < INFINITY) || (f && f[i] == INFINITY))
            return 0;
        any |= d[i] != -INFINITY;
    }
    return any;
}

#if SL_BASE_HAVE_AVX2
F32_AVX2 static size_t first_nan_avx2(const double *x, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d a = _mm256_loadu_pd(x + i);
        if (_mm256_movemask_pd(_mm256_cmp_pd(a, a, _CMP_UNORD_Q)))
            return i;
    }
    return i;
}
#endif

size_t sl_logits_first_nan_f64(const double *x, size_t n)
{
    size_t i = 0;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO))
        i = first_nan_avx2(x, n);
#endif
    for (; i < n; i++)
        if (isnan(x[i]))
            return i;
    return n;
}

#if SL_BASE_HAVE_AVX2
F32_AVX2 static size_t gather_live_avx2(const float *x, size_t n, sl_base_f32i *out, size_t max, size_t *i0)
{
    __m256 ninf = _mm256_set1_ps(-INFINITY);
    size_t m = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        unsigned live = (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(x + i), ninf, _CMP_NEQ_UQ));
        if (!live)
            continue;
        if (m + (size_t)__builtin_popcount(live) > max)
            return SIZE_MAX;
        for (; live; live &= live - 1) {
            size_t j = i + (size_t)__builtin_ctz(live);
            out[m++] = (sl_base_f32i){x[j], (uint32_t)j};
        }
    }
    *i0 = i;
    return m;
}
#endif

size_t sl_logits_gather_live_f32(const float *x, size_t n, sl_base_f32i *out, size_t max)
{
    size_t m = 0, i = 0;
    if (n > UINT32_MAX)
        return SIZE_MAX;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO) && (m = gather_live_avx2(x, n, out, max, &i)) == SIZE_MAX)
        return SIZE_MAX;
#endif
    for (; i < n; i++)
        if (x[i] != -INFINITY) {
            if (m == max)
                return SIZE_MAX;
            out[m++] = (sl_base_f32i){x[i], (uint32_t)i};
        }
    return m;
}

/* ---- transformers' RepetitionPenaltyLogitsProcessor on the raw logits x: for every
 * id of ctx, out[id] = (x < 0 ? x * pen : x / pen), divided by t when div (the
 * temperature warper after it). A repeated id writes the same value again. */
#if SL_BASE_HAVE_AVX2
F32_AVX2 static size_t penalty_avx2(const float *x, const long *ctx, size_t n, float pen, int div, float t,
                                    float *out)
{
    __m128 p = _mm_set1_ps(pen), tv = _mm_set1_ps(t), zero = _mm_setzero_ps();
    size_t j = 0;
    if (sizeof(long) != sizeof(long long))
        return 0;
    for (; j + 4 <= n; j += 4) {
        __m256i id = _mm256_loadu_si256((const __m256i *)(const void *)(ctx + j));
        __m128 v = _mm256_i64gather_ps(x, id, 4);
        __m128 y = _mm_blendv_ps(_mm_div_ps(v, p), _mm_mul_ps(v, p), _mm_cmplt_ps(v, zero));
        if (div)
            y = _mm_div_ps(y, tv);
        float r[4];
        _mm_storeu_ps(r, y);
        for (size_t l = 0; l < 4; l++)
            out[ctx[j + l]] = r[l];
    }
    return j;
}
#endif

void sl_logits_penalty_f32(const float *x, const long *ctx, size_t n, float pen, int div, float t, float *out)
{
    size_t j = 0;
#if SL_BASE_HAVE_AVX2
    if (f32_vec(SL_SIMD_AUTO))
        j = penalty_avx2(x, ctx, n, pen, div, t, out);
#endif
    for (; j < n; j++) {
        float v = x[ctx[j]], y = v < 0 ? v * pen : v / pen;
        out[ctx[j]] = div ? y / t : y;
    }
}

/* ---- an ascending sort of (value, index) pairs whose tie order is whatever it
 * is: LSD radix on the order-preserving bits of the float (negative: all bits
 * flipped; positive: the sign bit set), three passes of 11, 11 and 10 bits. For
 * callers whose result does not depend on how ties are ordered. */
static inline uint32_t f32_key(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

void sl_logits_sort_any_f32(const float *x, size_t n, sl_base_f32i *out, sl_base_f32i *tmp)
{
    static const int shift[3] = {0, 11, 22};
    uint32_t h[3][2048];
    memset(h, 0, sizeof h);
    for (size_t i = 0; i < n; i++) {
        uint32_t k = f32_key(x[i]);
        h[0][k & 2047]++;
        h[1][(k >> 11) & 2047]++;
        h[2][k >> 22]++;
    }
    for (int p = 0; p < 3; p++) {
        uint32_t sum = 0;
        for (int b = 0; b < 2048; b++) {
            uint32_t c = h[p][b];
            h[p][b] = sum;
            sum += c;
        }
    }
    for (size_t i = 0; i < n; i++)
        out[h[0][f32_key(x[i]) & 2047]++] = (sl_base_f32i){x[i], (uint32_t)i};
    for (int p = 1; p < 3; p++) {
        const sl_base_f32i *from = p == 1 ? out : tmp;
        sl_base_f32i *to = p == 1 ? tmp : out;
        for (size_t i = 0; i < n; i++)
            to[h[p][(f32_key(from[i].v) >> shift[p]) & 2047]++] = from[i];
    }
}
