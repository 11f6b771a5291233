/* search.c — the one binary search over cumulative tables, in two rules:
 *   gt: the first i with a[i] > x, i.e. #{a[i] <= x} on a sorted table: NumPy's
 *       searchsorted side='right', rand's binary_search_by ... unwrap_err, draw/cdf.
 *   ge: the first i with !(a[i] < x): torch's cdf search
 *       (aten/src/ATen/native/cpu/MultinomialKernel.cpp, left/right bisection).
 * gt_f compares floats with a float x (rand's target is a float); ge_f compares
 * the widened entry with a double x, as torch compares its float cdf with its
 * double uniform.
 *
 * On a table where the rule's predicate holds on a prefix (a nondecreasing
 * table without NaN), every correct binary search returns the same index, so
 * the form only matters for speed and for tables that are not sorted:
 *  - gt is Rust's halving form (fixed trip count, one conditional select per
 *    step). Its callers' tables are sorted: rand's and NumPy's are running sums
 *    of validated weights, draw/cdf's of weights the callers check (a NaN total
 *    makes every comparison false, which any form answers with n). A bisection
 *    with a data-dependent exit made rand's WeightedIndex 4x slower at V = 49,152.
 *  - ge is torch's own bisection, step for step, because torch's cdf is NOT
 *    always sorted: when the running sum overflows, inf/inf leaves NaN entries
 *    (each counts as "not less"), and then the probe order decides the token. */
#include "draw/sl_draw.h"

/* The select of each gt step is a coin toss: it must be a conditional move or a
 * mask, not a branch mispredicted half the time (2-4x slower at V = 49,152). gcc
 * emits a move for a select with a 50 % probability hint. clang 14 turns such a
 * select, and a plain mask, back into a branch (its cmov converter; it ignores
 * __builtin_unpredictable), so there the mask goes through an empty asm that hides
 * its origin. Rust's binary_search_by asks the same with select_unpredictable. */
#if defined(__clang__) && (defined(__x86_64__) || defined(__aarch64__))
#define GT_STEP(base, half, cond)                                 \
    do {                                                          \
        size_t take_ = (size_t)0 - (size_t)(cond);                \
        __asm__("" : "+r"(take_));                                \
        base += (half) & take_;                                   \
    } while (0)
#elif defined(__GNUC__)
#define GT_STEP(base, half, cond) \
    (base = __builtin_expect_with_probability(!!(cond), 1, 0.5) ? base + (half) : base)
#else
#define GT_STEP(base, half, cond) (base = (cond) ? base + (half) : base)
#endif

/* gt: Rust's halving form */
#define SEARCH_GT(name, type, key)                                \
    size_t name(const type *a, size_t n, key x)                   \
    {                                                             \
        size_t size = n, base = 0;                                \
        if (size == 0)                                            \
            return 0;                                             \
        while (size > 1) {                                        \
            size_t half = size / 2;                               \
            GT_STEP(base, half, !(a[base + half] > x));           \
            size -= half;                                         \
        }                                                         \
        return base + !(a[base] > x);                             \
    }

/* ge: torch's bisection; a float entry is compared widened to double */
#define SEARCH_GE(name, type)                                     \
    size_t name(const type *a, size_t n, double x)                \
    {                                                             \
        size_t left = 0, right = n;                               \
        while (right > left) {                                    \
            size_t mid = left + (right - left) / 2;               \
            if ((double)a[mid] < x)                               \
                left = mid + 1;                                   \
            else                                                  \
                right = mid;                                      \
        }                                                         \
        return left;                                              \
    }

SEARCH_GT(sl_draw_search_gt_f64, double, double)

/* Four gt searches of one table at once: the same steps as sl_draw_search_gt_f32
 * for each key (so the same answers), their chains of dependent loads side by side
 * (a draw loop's searches are independent; one at a time, each waits on its own). */
void sl_draw_search_gt_f32_x4(const float *a, size_t n, const float x[4], size_t out[4])
{
    size_t size = n, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    if (size == 0) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    while (size > 1) {
        size_t half = size / 2;
        GT_STEP(b0, half, !(a[b0 + half] > x[0]));
        GT_STEP(b1, half, !(a[b1 + half] > x[1]));
        GT_STEP(b2, half, !(a[b2 + half] > x[2]));
        GT_STEP(b3, half, !(a[b3 + half] > x[3]));
        size -= half;
    }
    out[0] = b0 + !(a[b0] > x[0]);
    out[1] = b1 + !(a[b1] > x[1]);
    out[2] = b2 + !(a[b2] > x[2]);
    out[3] = b3 + !(a[b3] > x[3]);
}
SEARCH_GT(sl_draw_search_gt_f32, float, float)
SEARCH_GE(sl_draw_search_ge_f64, double)
SEARCH_GE(sl_draw_search_ge_f32, float)
