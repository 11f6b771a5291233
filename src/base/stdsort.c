/* stdsort.c — std::sort and std::partial_sort as libstdc++ (GCC 8–14,
 * bits/stl_algo.h and bits/stl_heap.h) performs them, on any element type
 * through a "less" callback: so the order libstdc++ leaves tied elements in —
 * which the C++ standard leaves unspecified and llama.cpp's samplers inherit —
 * is reproduced exactly.
 *
 * std::sort: introsort (__introsort_loop with depth limit 2·floor(log2 n),
 * median-of-three pivot moved to the first slot, unguarded partition,
 * sections of at most 16 left to a final insertion sort; heapsort when the
 * depth limit runs out). std::partial_sort: __heap_select (make_heap on the
 * first middle elements, then every later element smaller than the heap top
 * replaces it) and __sort_heap. std::nth_element: __introselect (the same
 * pivot and partition, depth limit 2·floor(log2 n), heap select when it runs
 * out, a final insertion sort of at most 3). tests/oracle/stdcxx_sort.cpp checks
 * sort and partial_sort against this machine's libstdc++ on tie-heavy arrays,
 * and torch.topk's golden files (which go through all three) the rest.
 * Used by llama.cpp's samplers (logits/) and torch.topk's order (draw/). */
#include <string.h>

#include "base/sl_base.h"

#define SX_MAX 64 /* largest element size handled (bytes) */

typedef struct sx {
    unsigned char *b;
    size_t sz;
    sl_base_less less;
    const void *ctx;
} sx;

static unsigned char *sx_at(const sx *s, size_t i)
{
    return s->b + i * s->sz;
}

static int sx_lt(const sx *s, const void *a, const void *b)
{
    return s->less(a, b, s->ctx);
}

static void sx_swap(const sx *s, size_t i, size_t j)
{
    unsigned char t[SX_MAX];
    memcpy(t, sx_at(s, i), s->sz);
    memcpy(sx_at(s, i), sx_at(s, j), s->sz);
    memcpy(sx_at(s, j), t, s->sz);
}

/* heaps over s->b + first (indices relative to first) */
static void sx_push_heap(const sx *s, size_t first, size_t hole, size_t top, const void *val)
{
    size_t parent = (hole - 1) / 2;
    while (hole > top && sx_lt(s, sx_at(s, first + parent), val)) {
        memcpy(sx_at(s, first + hole), sx_at(s, first + parent), s->sz);
        hole = parent;
        parent = (hole - 1) / 2;
    }
    memcpy(sx_at(s, first + hole), val, s->sz);
}

static void sx_adjust_heap(const sx *s, size_t first, size_t hole, size_t len, const void *val)
{
    const size_t top = hole;
    size_t child = hole;
    while (len >= 2 && child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (sx_lt(s, sx_at(s, first + child), sx_at(s, first + child - 1)))
            child--;
        memcpy(sx_at(s, first + hole), sx_at(s, first + child), s->sz);
        hole = child;
    }
    if ((len & 1) == 0 && len >= 2 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        memcpy(sx_at(s, first + hole), sx_at(s, first + child - 1), s->sz);
        hole = child - 1;
    }
    sx_push_heap(s, first, hole, top, val);
}

static void sx_make_heap(const sx *s, size_t first, size_t len)
{
    if (len < 2)
        return;
    unsigned char v[SX_MAX];
    for (size_t parent = (len - 2) / 2;; parent--) {
        memcpy(v, sx_at(s, first + parent), s->sz);
        sx_adjust_heap(s, first, parent, len, v);
        if (parent == 0)
            return;
    }
}

/* __pop_heap(first, last, result): *result = *first, re-heap with the old *result */
static void sx_pop_heap(const sx *s, size_t first, size_t len, size_t result)
{
    unsigned char v[SX_MAX];
    memcpy(v, sx_at(s, result), s->sz);
    memcpy(sx_at(s, result), sx_at(s, first), s->sz);
    sx_adjust_heap(s, first, 0, len, v);
}

static void sx_partial_sort(const sx *s, size_t first, size_t middle, size_t last)
{
    size_t len = middle - first;
    sx_make_heap(s, first, len);
    for (size_t i = middle; i < last; i++)
        if (sx_lt(s, sx_at(s, i), sx_at(s, first)))
            sx_pop_heap(s, first, len, i);
    for (size_t n = len; n > 1; n--)
        sx_pop_heap(s, first, n - 1, first + n - 1);
}

static void sx_move_median_to_first(const sx *s, size_t result, size_t a, size_t b, size_t c)
{
    const void *A = sx_at(s, a), *B = sx_at(s, b), *C = sx_at(s, c);
    if (sx_lt(s, A, B)) {
        if (sx_lt(s, B, C))
            sx_swap(s, result, b);
        else if (sx_lt(s, A, C))
            sx_swap(s, result, c);
        else
            sx_swap(s, result, a);
    } else if (sx_lt(s, A, C)) {
        sx_swap(s, result, a);
    } else if (sx_lt(s, B, C)) {
        sx_swap(s, result, c);
    } else {
        sx_swap(s, result, b);
    }
}

static size_t sx_unguarded_partition(const sx *s, size_t first, size_t last, size_t pivot)
{
    for (;;) {
        while (sx_lt(s, sx_at(s, first), sx_at(s, pivot)))
            first++;
        last--;
        while (sx_lt(s, sx_at(s, pivot), sx_at(s, last)))
            last--;
        if (!(first < last))
            return first;
        sx_swap(s, first, last);
        first++;
    }
}

static size_t sx_partition_pivot(const sx *s, size_t first, size_t last)
{
    size_t mid = first + (last - first) / 2;
    sx_move_median_to_first(s, first, first + 1, mid, last - 1);
    return sx_unguarded_partition(s, first + 1, last, first);
}

static int sx_lg2(size_t n)
{
    int lg = 0;
    for (size_t m = n; m > 1; m >>= 1)
        lg++;
    return lg;
}

static void sx_introsort_loop(const sx *s, size_t first, size_t last, int depth)
{
    while (last - first > 16) {
        if (depth == 0) {
            sx_partial_sort(s, first, last, last);
            return;
        }
        depth--;
        size_t cut = sx_partition_pivot(s, first, last);
        sx_introsort_loop(s, cut, last, depth);
        last = cut;
    }
}

static void sx_unguarded_linear_insert(const sx *s, size_t last)
{
    unsigned char v[SX_MAX];
    memcpy(v, sx_at(s, last), s->sz);
    size_t next = last - 1;
    while (sx_lt(s, v, sx_at(s, next))) {
        memcpy(sx_at(s, last), sx_at(s, next), s->sz);
        last = next;
        next--;
    }
    memcpy(sx_at(s, last), v, s->sz);
}

static void sx_insertion_sort(const sx *s, size_t first, size_t last)
{
    if (first == last)
        return;
    unsigned char v[SX_MAX];
    for (size_t i = first + 1; i < last; i++) {
        if (sx_lt(s, sx_at(s, i), sx_at(s, first))) {
            memcpy(v, sx_at(s, i), s->sz);
            memmove(sx_at(s, first + 1), sx_at(s, first), (i - first) * s->sz);
            memcpy(sx_at(s, first), v, s->sz);
        } else {
            sx_unguarded_linear_insert(s, i);
        }
    }
}

void sl_base_std_sort(void *base, size_t n, size_t size, sl_base_less less, const void *ctx)
{
    sx s = {base, size, less, ctx};
    if (n < 2 || size > SX_MAX)
        return;
    sx_introsort_loop(&s, 0, n, 2 * sx_lg2(n));
    if (n > 16) {
        sx_insertion_sort(&s, 0, 16);
        for (size_t i = 16; i < n; i++)
            sx_unguarded_linear_insert(&s, i);
    } else {
        sx_insertion_sort(&s, 0, n);
    }
}

void sl_base_std_partial_sort(void *base, size_t middle, size_t n, size_t size, sl_base_less less,
                                const void *ctx)
{
    sx s = {base, size, less, ctx};
    if (size > SX_MAX || middle > n)
        return;
    sx_partial_sort(&s, 0, middle, n);
}

void sl_base_std_nth_element(void *base, size_t nth, size_t n, size_t size, sl_base_less less, const void *ctx)
{
    sx s = {base, size, less, ctx};
    if (size > SX_MAX || nth >= n)
        return;
    size_t first = 0, last = n;
    int depth = 2 * sx_lg2(n);
    while (last - first > 3) {
        if (depth == 0) {
            /* __heap_select(first, nth + 1, last), then iter_swap(first, nth) */
            size_t len = nth + 1 - first;
            sx_make_heap(&s, first, len);
            for (size_t i = nth + 1; i < last; i++)
                if (sx_lt(&s, sx_at(&s, i), sx_at(&s, first)))
                    sx_pop_heap(&s, first, len, i);
            sx_swap(&s, first, nth);
            return;
        }
        depth--;
        size_t cut = sx_partition_pivot(&s, first, last);
        if (cut <= nth)
            first = cut;
        else
            last = cut;
    }
    sx_insertion_sort(&s, first, last);
}
