/* search.c — the one binary search over a nondecreasing table, in the two rules
 * the samplers use: the first index whose entry is > x (upper bound: draw/cdf.c,
 * NumPy's searchsorted(side='right'), rand's WeightedIndex), or >= x (lower
 * bound: torch's multinomial with replacement, which tests !(cum[j] < u)).
 * Returns n when no entry qualifies. */
#include "draw/sl_draw.h"

#define SEARCH(name, type, keep_left)                         \
    size_t name(const type *a, size_t n, double x)            \
    {                                                         \
        size_t lo = 0, hi = n;                                \
        while (lo < hi) {                                     \
            size_t mid = lo + (hi - lo) / 2;                  \
            if (keep_left((double)a[mid], x))                 \
                lo = mid + 1;                                 \
            else                                              \
                hi = mid;                                     \
        }                                                     \
        return lo;                                            \
    }

/* "go right" tests: entry <= x for the > rule, entry < x for the >= rule */
#define LE(v, x) ((v) <= (x))
#define LT(v, x) ((v) < (x))

SEARCH(sl_draw_search_gt_f64, double, LE)
SEARCH(sl_draw_search_ge_f64, double, LT)
SEARCH(sl_draw_search_gt_f32, float, LE)
SEARCH(sl_draw_search_ge_f32, float, LT)
