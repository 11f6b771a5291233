/* test_logits_kth.c — torch.topk's k-th value by selection (logits/f32.c,
 * nth_element when there is no NaN) against the full argsort it replaces:
 * 2,000 random vectors with many ties and -inf entries, every k. */
#include <criterion/criterion.h>
#include <math.h>

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
