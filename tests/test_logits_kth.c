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
