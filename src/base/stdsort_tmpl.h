/* stdsort_tmpl.h — the one body of libstdc++'s introsort, partial_sort and
 * introselect (GCC 8–14, bits/stl_algo.h and bits/stl_heap.h), written once over
 * element access macros and included by stdsort.c once per element type: the
 * generic instance moves bytes and calls a "less" callback, the typed ones
 * assign structs and compare inline. Every instance makes the same comparisons
 * in the same order, so they leave elements in the same order. Not a header of
 * the layer: only stdsort.c includes it, after defining
 *   SX_FN(name)        the instance's static name for name
 *   SX_CTX             the context type (element base, and what access needs)
 *   SX_PTR             a pointer to one element
 *   SX_AT(s, i)        the element at index i
 *   SX_LT(s, a, b)     the comparator on two element pointers
 *   SX_TMP(v)          declares v, room for one element, and SX_TP(v) points to it
 *   SX_CPY(s, d, src)  copies one element
 *   SX_MOVE(s, d, src, n) copies n overlapping elements (memmove)
 * and undefines them all afterwards. */

static inline void SX_FN(swap)(const SX_CTX *s, size_t i, size_t j)
{
    SX_TMP(t);
    SX_CPY(s, SX_TP(t), SX_AT(s, i));
    SX_CPY(s, SX_AT(s, i), SX_AT(s, j));
    SX_CPY(s, SX_AT(s, j), SX_TP(t));
}

/* heaps over the elements from first (indices relative to first) */
static inline void SX_FN(push_heap)(const SX_CTX *s, size_t first, size_t hole, size_t top, const SX_PTR val)
{
    size_t parent = (hole - 1) / 2;
    while (hole > top && SX_LT(s, SX_AT(s, first + parent), val)) {
        SX_CPY(s, SX_AT(s, first + hole), SX_AT(s, first + parent));
        hole = parent;
        parent = (hole - 1) / 2;
    }
    SX_CPY(s, SX_AT(s, first + hole), val);
}

static inline void SX_FN(adjust_heap)(const SX_CTX *s, size_t first, size_t hole, size_t len, const SX_PTR val)
{
    const size_t top = hole;
    size_t child = hole;
    while (len >= 2 && child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (SX_LT(s, SX_AT(s, first + child), SX_AT(s, first + child - 1)))
            child--;
        SX_CPY(s, SX_AT(s, first + hole), SX_AT(s, first + child));
        hole = child;
    }
    if ((len & 1) == 0 && len >= 2 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        SX_CPY(s, SX_AT(s, first + hole), SX_AT(s, first + child - 1));
        hole = child - 1;
    }
    SX_FN(push_heap)(s, first, hole, top, val);
}

static inline void SX_FN(make_heap)(const SX_CTX *s, size_t first, size_t len)
{
    if (len < 2)
        return;
    SX_TMP(v);
    for (size_t parent = (len - 2) / 2;; parent--) {
        SX_CPY(s, SX_TP(v), SX_AT(s, first + parent));
        SX_FN(adjust_heap)(s, first, parent, len, SX_TP(v));
        if (parent == 0)
            return;
    }
}

/* __pop_heap(first, last, result): *result = *first, re-heap with the old *result */
static inline void SX_FN(pop_heap)(const SX_CTX *s, size_t first, size_t len, size_t result)
{
    SX_TMP(v);
    SX_CPY(s, SX_TP(v), SX_AT(s, result));
    SX_CPY(s, SX_AT(s, result), SX_AT(s, first));
    SX_FN(adjust_heap)(s, first, 0, len, SX_TP(v));
}

/* __heap_select(first, middle, last) */
static inline void SX_FN(heap_select)(const SX_CTX *s, size_t first, size_t middle, size_t last)
{
    size_t len = middle - first;
    SX_FN(make_heap)(s, first, len);
    for (size_t i = middle; i < last; i++)
        if (SX_LT(s, SX_AT(s, i), SX_AT(s, first)))
            SX_FN(pop_heap)(s, first, len, i);
}

static inline void SX_FN(partial_sort)(const SX_CTX *s, size_t first, size_t middle, size_t last)
{
    SX_FN(heap_select)(s, first, middle, last);
    for (size_t n = middle - first; n > 1; n--)
        SX_FN(pop_heap)(s, first, n - 1, first + n - 1);
}

static inline void SX_FN(move_median_to_first)(const SX_CTX *s, size_t result, size_t a, size_t b, size_t c)
{
    const SX_PTR A = SX_AT(s, a);
    const SX_PTR B = SX_AT(s, b);
    const SX_PTR C = SX_AT(s, c);
    if (SX_LT(s, A, B)) {
        if (SX_LT(s, B, C))
            SX_FN(swap)(s, result, b);
        else if (SX_LT(s, A, C))
            SX_FN(swap)(s, result, c);
        else
            SX_FN(swap)(s, result, a);
    } else if (SX_LT(s, A, C)) {
        SX_FN(swap)(s, result, a);
    } else if (SX_LT(s, B, C)) {
        SX_FN(swap)(s, result, c);
    } else {
        SX_FN(swap)(s, result, b);
    }
}

static inline size_t SX_FN(unguarded_partition)(const SX_CTX *s, size_t first, size_t last, size_t pivot)
{
    for (;;) {
        while (SX_LT(s, SX_AT(s, first), SX_AT(s, pivot)))
            first++;
        last--;
        while (SX_LT(s, SX_AT(s, pivot), SX_AT(s, last)))
            last--;
        if (!(first < last))
            return first;
        SX_FN(swap)(s, first, last);
        first++;
    }
}

static inline size_t SX_FN(partition_pivot)(const SX_CTX *s, size_t first, size_t last)
{
    size_t mid = first + (last - first) / 2;
    SX_FN(move_median_to_first)(s, first, first + 1, mid, last - 1);
    return SX_FN(unguarded_partition)(s, first + 1, last, first);
}

static inline void SX_FN(introsort_loop)(const SX_CTX *s, size_t first, size_t last, int depth)
{
    while (last - first > 16) {
        if (depth == 0) {
            SX_FN(partial_sort)(s, first, last, last);
            return;
        }
        depth--;
        size_t cut = SX_FN(partition_pivot)(s, first, last);
        SX_FN(introsort_loop)(s, cut, last, depth);
        last = cut;
    }
}

static inline void SX_FN(unguarded_linear_insert)(const SX_CTX *s, size_t last)
{
    SX_TMP(v);
    SX_CPY(s, SX_TP(v), SX_AT(s, last));
    size_t next = last - 1;
    while (SX_LT(s, SX_TP(v), SX_AT(s, next))) {
        SX_CPY(s, SX_AT(s, last), SX_AT(s, next));
        last = next;
        next--;
    }
    SX_CPY(s, SX_AT(s, last), SX_TP(v));
}

static inline void SX_FN(insertion_sort)(const SX_CTX *s, size_t first, size_t last)
{
    if (first == last)
        return;
    SX_TMP(v);
    for (size_t i = first + 1; i < last; i++) {
        if (SX_LT(s, SX_AT(s, i), SX_AT(s, first))) {
            SX_CPY(s, SX_TP(v), SX_AT(s, i));
            SX_MOVE(s, SX_AT(s, first + 1), SX_AT(s, first), i - first);
            SX_CPY(s, SX_AT(s, first), SX_TP(v));
        } else {
            SX_FN(unguarded_linear_insert)(s, i);
        }
    }
}

/* std::sort: __introsort_loop, then __final_insertion_sort */
static inline void SX_FN(sort)(const SX_CTX *s, size_t n)
{
    if (n < 2)
        return;
    SX_FN(introsort_loop)(s, 0, n, 2 * sx_lg2(n));
    if (n > 16) {
        SX_FN(insertion_sort)(s, 0, 16);
        for (size_t i = 16; i < n; i++)
            SX_FN(unguarded_linear_insert)(s, i);
    } else {
        SX_FN(insertion_sort)(s, 0, n);
    }
}

/* std::nth_element: __introselect */
static inline void SX_FN(nth_element)(const SX_CTX *s, size_t nth, size_t n)
{
    size_t first = 0, last = n;
    int depth = 2 * sx_lg2(n);
    while (last - first > 3) {
        if (depth == 0) {
            /* __heap_select(first, nth + 1, last), then iter_swap(first, nth) */
            SX_FN(heap_select)(s, first, nth + 1, last);
            SX_FN(swap)(s, first, nth);
            return;
        }
        depth--;
        size_t cut = SX_FN(partition_pivot)(s, first, last);
        if (cut <= nth)
            first = cut;
        else
            last = cut;
    }
    SX_FN(insertion_sort)(s, first, last);
}

#undef SX_FN
#undef SX_CTX
#undef SX_PTR
#undef SX_AT
#undef SX_LT
#undef SX_TMP
#undef SX_TP
#undef SX_CPY
#undef SX_MOVE
