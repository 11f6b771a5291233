/* stdsort.c — std::sort, std::partial_sort and std::nth_element as libstdc++
 * (GCC 8–14, bits/stl_algo.h and bits/stl_heap.h) performs them, so the order
 * libstdc++ leaves tied elements in — which the C++ standard leaves unspecified
 * and llama.cpp's samplers and torch's sort and topk inherit — is reproduced
 * exactly.
 *
 * std::sort: introsort (__introsort_loop with depth limit 2·floor(log2 n),
 * median-of-three pivot moved to the first slot, unguarded partition,
 * sections of at most 16 left to a final insertion sort; heapsort when the
 * depth limit runs out). std::partial_sort: __heap_select (make_heap on the
 * first middle elements, then every later element smaller than the heap top
 * replaces it) and __sort_heap. std::nth_element: __introselect (the same
 * pivot and partition, depth limit 2·floor(log2 n), heap select when it runs
 * out, a final insertion sort of at most 3).
 *
 * One body (stdsort_tmpl.h) serves every element type: the generic instance
 * over bytes and a "less" callback, and typed instances with the comparator
 * inline for the elements torch's kernels sort — (float value, index) pairs
 * (torch.sort), floats (the k-th value), (double, int64) pairs with TopKImpl.h's
 * NaN-first comparator (torch.topk), llama.cpp's candidates by descending
 * logit — about five times faster, same order.
 * tests/oracle/stdcxx_sort.cpp checks every instance against this machine's
 * libstdc++ on tie-heavy arrays with NaN, -inf and signed zeros, and torch's
 * golden files (sort, topk, the transformers pipelines) the rest. */
#include <math.h>
#include <string.h>

#include "base/sl_base.h"

static int sx_lg2(size_t n)
{
    int lg = 0;
    for (size_t m = n; m > 1; m >>= 1)
        lg++;
    return lg;
}

/* ---------------------------------------------------------------- generic: bytes and a callback */

#define SX_MAX 64 /* largest element size handled (bytes) */

typedef struct sx {
    unsigned char *b;
    size_t sz;
    sl_base_less less;
    const void *ctx;
} sx;

#define SX_FN(name) gx_##name
#define SX_CTX sx
#define SX_PTR unsigned char *
#define SX_AT(s, i) ((s)->b + (i) * (s)->sz)
#define SX_LT(s, a, b) ((s)->less((a), (b), (s)->ctx))
#define SX_TMP(v) unsigned char v[SX_MAX]
#define SX_TP(v) (v)
#define SX_CPY(s, d, src) memcpy((d), (src), (s)->sz)
#define SX_MOVE(s, d, src, n) memmove((d), (src), (n) * (s)->sz)
#include "base/stdsort_tmpl.h"

void sl_base_std_sort(void *base, size_t n, size_t size, sl_base_less less, const void *ctx)
{
    sx s = {base, size, less, ctx};
    if (size > SX_MAX)
        return;
    gx_sort(&s, n);
}

void sl_base_std_partial_sort(void *base, size_t middle, size_t n, size_t size, sl_base_less less,
                              const void *ctx)
{
    sx s = {base, size, less, ctx};
    if (size > SX_MAX || middle > n)
        return;
    gx_partial_sort(&s, 0, middle, n);
}

void sl_base_std_nth_element(void *base, size_t nth, size_t n, size_t size, sl_base_less less, const void *ctx)
{
    sx s = {base, size, less, ctx};
    if (size > SX_MAX || nth >= n)
        return;
    gx_nth_element(&s, nth, n);
}

/* ---------------------------------------------------------------- typed: structs, inline comparators */

typedef struct f32i_ctx {
    sl_base_f32i *b;
} f32i_ctx;
typedef struct f32_ctx {
    float *b;
} f32_ctx;
typedef struct f64i_ctx {
    sl_base_f64i *b;
} f64i_ctx;

/* (float, index) ascending: torch.sort(stable=False)'s KeyValueCompAsc, a.v < b.v */
#define SX_FN(name) f32ia_##name
#define SX_CTX f32i_ctx
#define SX_PTR sl_base_f32i *
#define SX_AT(s, i) ((s)->b + (i))
#define SX_LT(s, a, b) ((a)->v < (b)->v)
#define SX_TMP(v) sl_base_f32i v
#define SX_TP(v) (&(v))
#define SX_CPY(s, d, src) (*(d) = *(src))
#define SX_MOVE(s, d, src, n) memmove((d), (src), (n) * sizeof *(s)->b)
#include "base/stdsort_tmpl.h"

/* (float, index) descending: KeyValueCompDesc, a.v > b.v */
#define SX_FN(name) f32id_##name
#define SX_CTX f32i_ctx
#define SX_PTR sl_base_f32i *
#define SX_AT(s, i) ((s)->b + (i))
#define SX_LT(s, a, b) ((a)->v > (b)->v)
#define SX_TMP(v) sl_base_f32i v
#define SX_TP(v) (&(v))
#define SX_CPY(s, d, src) (*(d) = *(src))
#define SX_MOVE(s, d, src, n) memmove((d), (src), (n) * sizeof *(s)->b)
#include "base/stdsort_tmpl.h"

/* floats ascending, a < b */
#define SX_FN(name) f32a_##name
#define SX_CTX f32_ctx
#define SX_PTR float *
#define SX_AT(s, i) ((s)->b + (i))
#define SX_LT(s, a, b) (*(a) < *(b))
#define SX_TMP(v) float v
#define SX_TP(v) (&(v))
#define SX_CPY(s, d, src) (*(d) = *(src))
#define SX_MOVE(s, d, src, n) memmove((d), (src), (n) * sizeof *(s)->b)
#include "base/stdsort_tmpl.h"

/* floats descending, a > b */
#define SX_FN(name) f32d_##name
#define SX_CTX f32_ctx
#define SX_PTR float *
#define SX_AT(s, i) ((s)->b + (i))
#define SX_LT(s, a, b) (*(a) > *(b))
#define SX_TMP(v) float v
#define SX_TP(v) (&(v))
#define SX_CPY(s, d, src) (*(d) = *(src))
#define SX_MOVE(s, d, src, n) memmove((d), (src), (n) * sizeof *(s)->b)
#include "base/stdsort_tmpl.h"

/* (double, int64) by TopKImpl.h's comp(x, y) = (isnan(x) && !isnan(y)) || x > y */
#define SX_FN(name) f64in_##name
#define SX_CTX f64i_ctx
#define SX_PTR sl_base_f64i *
#define SX_AT(s, i) ((s)->b + (i))
#define SX_LT(s, a, b) ((isnan((a)->v) && !isnan((b)->v)) || (a)->v > (b)->v)
#define SX_TMP(v) sl_base_f64i v
#define SX_TP(v) (&(v))
#define SX_CPY(s, d, src) (*(d) = *(src))
#define SX_MOVE(s, d, src, n) memmove((d), (src), (n) * sizeof *(s)->b)
#include "base/stdsort_tmpl.h"

/* llama.cpp's candidates, descending logit: its comp, a.logit > b.logit */
typedef struct cand_ctx {
    sl_base_cand *b;
} cand_ctx;
#define SX_FN(name) cand_##name
#define SX_CTX cand_ctx
#define SX_PTR sl_base_cand *
#define SX_AT(s, i) ((s)->b + (i))
#define SX_LT(s, a, b) ((a)->logit > (b)->logit)
#define SX_TMP(v) sl_base_cand v
#define SX_TP(v) (&(v))
#define SX_CPY(s, d, src) (*(d) = *(src))
#define SX_MOVE(s, d, src, n) memmove((d), (src), (n) * sizeof *(s)->b)
#include "base/stdsort_tmpl.h"

void sl_base_std_sort_cand(sl_base_cand *a, size_t n)
{
    cand_ctx s = {a};
    cand_sort(&s, n);
}

void sl_base_std_partial_sort_cand(sl_base_cand *a, size_t middle, size_t n)
{
    cand_ctx s = {a};
    if (middle > n)
        return;
    cand_partial_sort(&s, 0, middle, n);
}

void sl_base_std_sort_f32i(sl_base_f32i *a, size_t n, int order)
{
    f32i_ctx s = {a};
    if (order == SL_BASE_DESC)
        f32id_sort(&s, n);
    else
        f32ia_sort(&s, n);
}

void sl_base_std_nth_element_f32(float *a, size_t nth, size_t n, int order)
{
    f32_ctx s = {a};
    if (nth >= n)
        return;
    if (order == SL_BASE_DESC)
        f32d_nth_element(&s, nth, n);
    else
        f32a_nth_element(&s, nth, n);
}

void sl_base_std_sort_f64i(sl_base_f64i *a, size_t n)
{
    f64i_ctx s = {a};
    f64in_sort(&s, n);
}

void sl_base_std_partial_sort_f64i(sl_base_f64i *a, size_t middle, size_t n)
{
    f64i_ctx s = {a};
    if (middle > n)
        return;
    f64in_partial_sort(&s, 0, middle, n);
}

void sl_base_std_nth_element_f64i(sl_base_f64i *a, size_t nth, size_t n)
{
    f64i_ctx s = {a};
    if (nth >= n)
        return;
    f64in_nth_element(&s, nth, n);
}
