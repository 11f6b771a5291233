/* test_logits_stdsort.c — logits/stdsort.c against libstdc++'s own
 * std::partial_sort and std::sort (tests/oracle/stdcxx_sort.cpp) on tie-heavy
 * arrays: the tied ids must come out in exactly libstdc++'s order, since that
 * order decides which tied token llama.cpp's top-k keeps. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

static int desc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const sl_logits_cand *)a)->logit > ((const sl_logits_cand *)b)->logit;
}

static int nan_less(const void *a, const void *b, const void *ctx)
{
    const float *key = ctx;
    return key[*(const size_t *)a] < key[*(const size_t *)b];
}

Test(replay_pipeline, stdsort_all_nan_keys_equals_libstdcxx)
{
    /* every comparison false (NaN keys): the permutation std::sort leaves */
    char *t = sl_test_oracle("stdcxx_sort");
    cr_assert_not_null(t);
    size_t cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int n;
        if (sscanf(line, "nan %d", &n) != 1)
            continue;
        char *ids = strtok_r(NULL, "\n", &save);
        cr_assert(ids && !strncmp(ids, "nansort", 7));
        float *key = malloc((size_t)n * sizeof *key);
        size_t *idx = malloc((size_t)n * sizeof *idx);
        for (int i = 0; i < n; i++) {
            key[i] = NAN;
            idx[i] = (size_t)i;
        }
        sl_base_std_sort(idx, (size_t)n, sizeof *idx, nan_less, key);
        char *p = ids + 7;
        for (int i = 0; i < n; i++) {
            unsigned long want = strtoul(p, &p, 10);
            cr_assert_eq(idx[i], want, "n=%d position %d: %zu, libstdc++ %lu", n, i, idx[i], want);
        }
        free(key);
        free(idx);
        cases++;
    }
    cr_assert_eq(cases, 5);
    free(t);
}

Test(replay_pipeline, stdsort_equals_libstdcxx)
{
    char *t = sl_test_oracle("stdcxx_sort");
    cr_assert_not_null(t, "no libstdc++ transcript: run through make test");
    size_t cases = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int n, k;
        if (sscanf(line, "case %d %d", &n, &k) != 2)
            continue;
        char *in = strtok_r(NULL, "\n", &save), *pa = strtok_r(NULL, "\n", &save), *so = strtok_r(NULL, "\n", &save);
        cr_assert(in && pa && so);
        sl_logits_cand *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
        char *p = in + 2;
        for (int i = 0; i < n; i++) {
            a[i].id = i;
            a[i].logit = strtof(p, &p);
            a[i].p = 0;
        }
        memcpy(b, a, (size_t)n * sizeof *a);
        sl_base_std_partial_sort(a, (size_t)k, (size_t)n, sizeof *a, desc, NULL);
        sl_base_std_sort(b, (size_t)n, sizeof *b, desc, NULL);
        p = pa + 7;
        for (int i = 0; i < k; i++) {
            long id = strtol(p, &p, 10);
            cr_assert_eq(a[i].id, id, "partial_sort n=%d k=%d position %d: id %ld, libstdc++ %ld", n, k, i, a[i].id,
                         id);
        }
        p = so + 4;
        for (int i = 0; i < n; i++) {
            long id = strtol(p, &p, 10);
            cr_assert_eq(b[i].id, id, "sort n=%d position %d: id %ld, libstdc++ %ld", n, i, b[i].id, id);
        }
        free(a);
        free(b);
        cases++;
    }
    cr_assert(cases > 100, "only %zu cases", cases);
    free(t);
}
