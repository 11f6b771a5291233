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

static void exp_shift(const float *x, size_t n, float mx, float *out)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("fma")) {
        exp_shift_fma(x, n, mx, out);
        return;
    }
#endif
    exp_shift_plain(x, n, mx, out);
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

float sl_logits_sum_reduce_all(const float *x, size_t n, int cpu)
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
    memcpy(a, x, L * sizeof *a);
    size_t d = L;
    for (; d < n - (n % L); d += L)
        for (size_t l = 0; l < L; l++)
            a[l] += x[d + l];
    for (size_t l = 0; d + l < n; l++)
        a[l] += x[d + l];
    for (size_t w = L / 2; w >= 1; w /= 2)
        for (size_t l = 0; l < w; l++)
            a[l] = a[l] + a[l + w];
    return a[0];
}

void sl_logits_softmax_f32(const float *x, size_t n, float *out, int cpu)
{
    float mx = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (x[i] > mx)
            mx = x[i];
    exp_shift(x, n, mx, out);
    float inv = 1.0f / sl_logits_sum_reduce_all(out, n, cpu);
    for (size_t i = 0; i < n; i++)
        out[i] *= inv;
}

void sl_logits_log_softmax_f32(const float *x, size_t n, float *out, int cpu)
{
    float mx = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (x[i] > mx)
            mx = x[i];
    exp_shift(x, n, mx, out);
    float lse = logf(sl_logits_sum_reduce_all(out, n, cpu));
    for (size_t i = 0; i < n; i++)
        out[i] = (x[i] - mx) - lse;
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

int sl_logits_argsort_f32(const float *x, size_t n, int descending, size_t *idx, sl_error *err)
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
    sl_base_f32i *pr = malloc((n ? n : 1) * sizeof *pr);
    if (!pr)
        return sl_base_error_set(err, SL_ENOMEM, "torch sort: out of memory for %zu (value, index) pairs", n);
    for (size_t i = 0; i < n; i++)
        pr[i] = (sl_base_f32i){x[i], (uint32_t)i};
    sl_base_std_sort_f32i(pr, n, descending ? SL_BASE_DESC : SL_BASE_ASC);
    for (size_t i = 0; i < n; i++)
        idx[i] = pr[i].i;
    free(pr);
    return SL_OK;
}

int sl_logits_kth_largest_f32(const float *x, size_t n, size_t k, size_t *idx, float *kth, sl_error *err)
{
    /* Without NaN, '>' is a strict weak order and the k-th value of the sorted order
     * is unique, so a selection (libstdc++'s nth_element, O(n)) finds the very value
     * the full sort does; with a NaN the order is not one, so the sort decides. */
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
