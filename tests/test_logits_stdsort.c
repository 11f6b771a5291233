/* test_logits_stdsort.c — logits/stdsort.c against libstdc++'s own
 * std::partial_sort and std::sort (tests/oracle/stdcxx_sort.cpp) on tie-heavy
 * arrays: the tied ids must come out in exactly libstdc++'s order, since that
 * order decides which tied token llama.cpp's top-k keeps. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

static int desc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const sl_logits_cand *)a)->logit > ((const sl_logits_cand *)b)->logit;
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
        sl_logits_std_partial_sort(a, (size_t)k, (size_t)n, sizeof *a, desc, NULL);
        sl_logits_std_sort(b, (size_t)n, sizeof *b, desc, NULL);
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
