/* test_logits_kth.c — the shortcuts of the float32 kernels (logits/f32.c) and
 * the hf pipeline against what they skip: torch.topk's k-th value by selection
 * (a heap pass or nth_element when there is no NaN) against the full argsort,
 * on 2,000 random vectors with many ties and -inf entries, every k; top-p after
 * top-k without the full sort; softmax's exp loop against the scalar SLEEF
 * expf on 20,000 values; the 8-lane kernels (softmax, log_softmax) against the
 * scalar ones. The oracle each time is samplab's own slower path, whose bits
 * the golden tests hold to torch's. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

Test(replay_logits_kth, selection_equals_sort)
{
    uint64_t s = 12345;
    size_t idx[300], checked = 0;
    float x[300];
    sl_error e;
    for (int rep = 0; rep < 2000; rep++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t n = 1 + (size_t)(s >> 33) % 300;
        for (size_t i = 0; i < n; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            unsigned r = (unsigned)(s >> 40);
            x[i] = r % 7 == 0 ? -INFINITY : (float)(r % 13) * 0.5f - 2.0f; /* ties on purpose */
        }
        for (size_t k = 1; k <= n; k += 1 + n / 17) {
            float a, b;
            cr_assert_eq(sl_logits_kth_largest_f32(x, n, k, idx, &a, &e), 0, "%s", e.msg);
            cr_assert_eq(sl_logits_argsort_f32(x, n, 1, idx, &e), 0);
            b = x[idx[k - 1]];
            cr_assert(a == b || (isinf(a) && isinf(b)), "n %zu k %zu: selection %g, sort %g", n, k, a, b);
            checked++;
        }
    }
    cr_log_info("k-th largest: %zu (vector, k) cases equal", checked);
}

/* softmax's exp loop (an FMA build where the CPU has FMA) gives the bits of
 * SLEEF's expf as sl_logits_expf_sleef computes it with libm's fmaf */
Test(replay_logits_kth, softmax_exp_loop_equals_scalar_expf)
{
    enum { N = 20000 };
    static float x[N], a[N], b[N];
    uint64_t s = 99;
    for (size_t i = 0; i < N; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (float)((double)(s >> 11) * 0x1p-53 * 200.0 - 150.0); /* under -104 too: exp is 0 */
    }
    sl_logits_softmax_f32(x, N, a, SL_CPU_AVX2);
    float mx = -INFINITY;
    for (size_t i = 0; i < N; i++)
        mx = x[i] > mx ? x[i] : mx;
    for (size_t i = 0; i < N; i++)
        b[i] = sl_logits_expf_sleef(x[i] - mx);
    float inv = 1.0f / sl_logits_sum_reduce_all(b, N, SL_CPU_AVX2);
    size_t diff = 0;
    for (size_t i = 0; i < N; i++)
        diff += a[i] != b[i] * inv;
    cr_expect_eq(diff, 0, "%zu of %d softmax entries differ from the scalar expf", diff, N);
}

/* ---- the hf pipeline's shortcuts against the paths they skip */

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* logits with ties (a few repeated values), -inf entries and signed zeros, or
 * distinct values (mode 1) */
static float tie_logit(uint64_t *s, int mode)
{
    uint64_t r = lcg(s);
    if (r % 11 == 0)
        return -INFINITY;
    if (mode == 1)
        return (float)((double)lcg(s) * 0x1p-31 * 12.0 - 6.0);
    if (r % 13 == 0)
        return r % 2 ? 0.0f : -0.0f;
    return (float)(r % 9) * 0.75f - 3.0f;
}

static void hf_run_vec(const float *x, size_t V, const sl_logits_cfg *c, sl_logits_result *r)
{
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_base_vec_alloc(&v, V, "shortcut", &e), 0);
    for (size_t i = 0; i < V; i++) {
        v.f[i] = x[i];
        v.d[i] = x[i];
    }
    cr_assert_eq(sl_logits_pipeline_run(&sl_logits_pipeline_hf_type, &v, c, r, &e), 0, "%s", e.msg);
    sl_base_vec_free(&v);
}

/* TopPLogitsWarper as the hf pipeline ran it before its shortcuts: the full
 * std::sort of the row (torch.sort's tie order), softmax, cumsum, removal */
static void ref_top_p(float *s, size_t V, double p, size_t min_keep, int cpu)
{
    size_t *idx = malloc(V * sizeof *idx);
    float *a = malloc(V * sizeof *a), *b = malloc(V * sizeof *b);
    sl_error e;
    cr_assert_eq(sl_logits_argsort_f32(s, V, 0, idx, &e), 0);
    for (size_t j = 0; j < V; j++)
        a[j] = s[idx[j]];
    sl_logits_softmax_f32_at(a, V, b, cpu, SL_SIMD_SCALAR);
    sl_logits_cumsum_f32(b, V, a);
    float thr = (float)(1.0 - p);
    for (size_t j = 0; j + min_keep < V; j++)
        if (a[j] <= thr)
            s[idx[j]] = -INFINITY;
    free(idx), free(a), free(b);
}

/* top-p (its sort replaced by any sort, std::sort only for a tie at the cut),
 * alone and after top-k (then sorting only the entries left), gives the bits of
 * the full-sort top-p on the row top-k leaves: ties, -inf, signed zeros,
 * bfloat16-like rows, several k, p, min_keep and both kernels; with and without
 * a caller's scratch reused across the runs */
Test(replay_logits_kth, top_p_shortcuts_equal_full_sort)
{
    uint64_t s = 2026;
    size_t cases = 0, diff = 0;
    sl_logits_work *work = sl_logits_work_new();
    cr_assert_not_null(work);
    for (int rep = 0; rep < 900; rep++) {
        int mode = rep % 3 == 0;
        size_t V = 20 + (size_t)lcg(&s) % (rep % 10 == 0 ? 3000 : 300);
        float *x = malloc(V * sizeof *x), *m = malloc(V * sizeof *m), *want = malloc(V * sizeof *want);
        size_t *idx = malloc(V * sizeof *idx);
        for (size_t i = 0; i < V; i++)
            x[i] = tie_logit(&s, mode);
        x[lcg(&s) % V] = 1.0f; /* not all -inf */
        long k = rep % 4 == 3 ? 0 : 1 + (long)(lcg(&s) % (V / 3));
        double p = 0.05 + (double)(lcg(&s) % 95) / 100.0;
        sl_logits_cfg c;
        memset(&c, 0, sizeof c);
        c.has_top_k = 1, c.top_k = k;
        c.has_top_p = 1, c.top_p = p;
        c.has_min_keep = 1, c.min_keep = 1 + (long)(lcg(&s) % 3);
        c.cpu = rep % 2 ? SL_CPU_AVX512 : SL_CPU_AVX2;
        c.work = rep % 4 ? work : NULL;
        /* the row TopKLogitsWarper leaves (k >= min_keep as its __init__ makes it) */
        size_t kk = (size_t)(k > c.min_keep ? k : c.min_keep);
        sl_error e;
        cr_assert_eq(sl_logits_argsort_f32(x, V, 1, idx, &e), 0);
        float kth = x[idx[kk - 1]];
        for (size_t i = 0; i < V; i++)
            m[i] = k && x[i] < kth ? -INFINITY : x[i];
        memcpy(want, m, V * sizeof *m);
        ref_top_p(want, V, p, (size_t)c.min_keep, c.cpu);
        float *wp = malloc(V * sizeof *wp);
        sl_logits_softmax_f32_at(want, V, wp, c.cpu, SL_SIMD_SCALAR);
        sl_logits_result a, b;
        hf_run_vec(x, V, &c, &a);
        c.top_k = 0;
        hf_run_vec(m, V, &c, &b);
        for (size_t i = 0; i < V; i++) {
            double w = wp[i];
            int kw = want[i] != -INFINITY;
            diff += memcmp(&a.probs[i], &w, sizeof w) != 0 || a.kept[i] != kw;
            diff += memcmp(&b.probs[i], &w, sizeof w) != 0 || b.kept[i] != kw;
        }
        sl_logits_result_free(&a);
        sl_logits_result_free(&b);
        free(x), free(m), free(want), free(wp), free(idx);
        cases++;
    }
    sl_logits_work_free(work);
    cr_assert_eq(diff, 0, "%zu entries differ over %zu cases", diff, cases);
    cr_log_info("top-p: %zu cases equal to the full sort", cases);
}

/* the 8-lane kernels (AVX2 + FMA where the CPU has them) against the scalar
 * code: softmax and log_softmax over rows with -inf, huge negatives, signed
 * zeros and NaN-free ties, every length up to 70 and a few long ones, both kernels */
Test(replay_logits_kth, simd_kernels_equal_scalar)
{
    uint64_t s = 7;
    size_t rows = 0, diff = 0;
    for (int rep = 0; rep < 310; rep++) {
        size_t n = rep < 280 ? 1 + (size_t)rep / 4 : 1000 + (size_t)lcg(&s) % 40000;
        float *x = malloc(n * sizeof *x), *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        for (size_t i = 0; i < n; i++) {
            uint64_t r = lcg(&s) % 20;
            x[i] = r == 0 ? -INFINITY : r == 1 ? -0.0f : r == 2 ? 0.0f : r == 3 ? -200.0f
                   : (float)((double)lcg(&s) * 0x1p-31 * 60.0 - 40.0);
        }
        if (rep % 5 == 0) /* a zero maximum with both signs around */
            for (size_t i = 0; i < n; i++)
                if (x[i] > 0)
                    x[i] = -x[i];
        int cpu = rep % 2 ? SL_CPU_AVX512 : SL_CPU_AVX2;
        sl_logits_softmax_f32_at(x, n, a, cpu, SL_SIMD_SCALAR);
        sl_logits_softmax_f32_at(x, n, b, cpu, SL_SIMD_AUTO);
        diff += memcmp(a, b, n * sizeof *a) != 0;
        sl_logits_log_softmax_f32_at(x, n, a, cpu, SL_SIMD_SCALAR);
        sl_logits_log_softmax_f32_at(x, n, b, cpu, SL_SIMD_AUTO);
        diff += memcmp(a, b, n * sizeof *a) != 0;
        /* masking below a threshold and exporting, against plain loops */
        memcpy(a, x, n * sizeof *a);
        float thr = x[lcg(&s) % n];
        size_t live = sl_logits_mask_below_f32(a, n, thr), want = 0;
        double *pr = malloc(n * sizeof *pr);
        unsigned char *kept = malloc(n);
        for (size_t i = 0; i < n; i++) {
            float y = x[i] < thr ? -INFINITY : x[i];
            diff += memcmp(&y, &a[i], sizeof y) != 0;
            want += y != -INFINITY;
        }
        diff += live != want;
        int nan = 1;
        size_t nk = sl_logits_export_f32(a, x, n, pr, kept, &nan);
        diff += nan != 0;
        for (size_t i = 0; i < n; i++) {
            double w = x[i];
            diff += memcmp(&w, &pr[i], sizeof w) != 0 || kept[i] != (a[i] != -INFINITY);
        }
        diff += nk != want;
        /* the repetition penalty (gathered ids, repeats included), with and without a
         * temperature, against the plain loop */
        long ctx[37];
        for (size_t j = 0; j < 37; j++)
            ctx[j] = (long)(lcg(&s) % n);
        for (int div = 0; div < 2; div++) {
            memcpy(a, x, n * sizeof *a);
            memcpy(b, x, n * sizeof *b);
            sl_logits_penalty_f32(x, ctx, 37, 1.3f, div, 0.7f, a);
            for (size_t j = 0; j < 37; j++) {
                float v = x[ctx[j]], y = v < 0 ? v * 1.3f : v / 1.3f;
                b[ctx[j]] = div ? y / 0.7f : y;
            }
            diff += memcmp(a, b, n * sizeof *a) != 0;
        }
        free(pr), free(kept), free(x), free(a), free(b);
        rows++;
    }
    cr_assert_eq(diff, 0, "%zu of %zu rows differ between the scalar and the SIMD kernels", diff, rows);
}
