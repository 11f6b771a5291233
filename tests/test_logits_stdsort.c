/* test_logits_stdsort.c — logits/stdsort.c against libstdc++'s own
 * std::partial_sort and std::sort (tests/oracle/stdcxx_sort.cpp) on tie-heavy
 * arrays: the tied ids must come out in exactly libstdc++'s order, since that
 * order decides which tied token llama.cpp's top-k keeps. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
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

/* ---- the typed instances (torch's element types) and the generic one on the
 * same arrays, against libstdc++: ties, NaN, -inf, +inf and signed zeros, and
 * top-k cuts (mostly -inf). Whole arrangements are compared, not just prefixes. */

typedef struct gpair {
    float v;
    uint32_t i;
} gpair;

static int gpair_asc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const gpair *)a)->v < ((const gpair *)b)->v;
}

static int gpair_desc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const gpair *)a)->v > ((const gpair *)b)->v;
}

static int gf_desc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return *(const float *)a > *(const float *)b;
}

static int gf_asc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return *(const float *)a < *(const float *)b;
}

static int gtopk(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    double x = ((const sl_base_f64i *)a)->v, y = ((const sl_base_f64i *)b)->v;
    return (isnan(x) && !isnan(y)) || x > y;
}

static float hex_f32(char **p)
{
    uint32_t u = (uint32_t)strtoul(*p, p, 16);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* the next line, which must start with tag; returns what follows it */
static char *tagged(char **save, const char *tag)
{
    char *l = strtok_r(NULL, "\n", save);
    cr_assert(l && !strncmp(l, tag, strlen(tag)) && l[strlen(tag)] == ' ', "expected a '%s' line", tag);
    return l + strlen(tag);
}

Test(replay_pipeline, stdsort_typed_equals_libstdcxx)
{
    char *t = sl_test_oracle("stdcxx_sort");
    cr_assert_not_null(t, "no libstdc++ transcript: run through make test");
    size_t n_pairs = 0, n_nth = 0, n_topk = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int n, k;
        if (sscanf(line, "pairs %d", &n) == 1) {
            char *in = tagged(&save, "in"), *as = tagged(&save, "asc"), *de = tagged(&save, "desc");
            float *x = malloc((size_t)n * sizeof *x);
            sl_base_f32i *a = malloc((size_t)n * sizeof *a), *d = malloc((size_t)n * sizeof *d);
            gpair *ga = malloc((size_t)n * sizeof *ga), *gd = malloc((size_t)n * sizeof *gd);
            size_t *ia = malloc((size_t)n * sizeof *ia), *id = malloc((size_t)n * sizeof *id);
            for (int i = 0; i < n; i++) {
                x[i] = hex_f32(&in);
                a[i] = d[i] = (sl_base_f32i){x[i], (uint32_t)i};
                ga[i] = gd[i] = (gpair){x[i], (uint32_t)i};
            }
            sl_base_std_sort_f32i(a, (size_t)n, SL_BASE_ASC);
            sl_base_std_sort_f32i(d, (size_t)n, SL_BASE_DESC);
            sl_base_std_sort(ga, (size_t)n, sizeof *ga, gpair_asc, NULL);
            sl_base_std_sort(gd, (size_t)n, sizeof *gd, gpair_desc, NULL);
            sl_error e;
            cr_assert_eq(sl_logits_argsort_f32(x, (size_t)n, 0, ia, &e), 0);
            cr_assert_eq(sl_logits_argsort_f32(x, (size_t)n, 1, id, &e), 0);
            for (int i = 0; i < n; i++) {
                unsigned long wa = strtoul(as, &as, 10), wd = strtoul(de, &de, 10);
                cr_assert(a[i].i == wa && ga[i].i == wa && ia[i] == wa,
                          "sort asc n=%d position %d: typed %u, generic %u, argsort %zu, libstdc++ %lu", n, i, a[i].i,
                          ga[i].i, ia[i], wa);
                cr_assert(d[i].i == wd && gd[i].i == wd && id[i] == wd,
                          "sort desc n=%d position %d: typed %u, generic %u, argsort %zu, libstdc++ %lu", n, i, d[i].i,
                          gd[i].i, id[i], wd);
            }
            free(x), free(a), free(d), free(ga), free(gd), free(ia), free(id);
            n_pairs++;
        } else if (sscanf(line, "nth %d %d", &n, &k) == 2) {
            char *in = tagged(&save, "in"), *de = tagged(&save, "nthdesc"), *as = tagged(&save, "nthasc");
            float *fd = malloc((size_t)n * sizeof *fd), *fa = malloc((size_t)n * sizeof *fa);
            float *gd = malloc((size_t)n * sizeof *gd), *ga = malloc((size_t)n * sizeof *ga);
            for (int i = 0; i < n; i++)
                fd[i] = fa[i] = gd[i] = ga[i] = hex_f32(&in);
            sl_base_std_nth_element_f32(fd, (size_t)k - 1, (size_t)n, SL_BASE_DESC);
            sl_base_std_nth_element_f32(fa, (size_t)k - 1, (size_t)n, SL_BASE_ASC);
            sl_base_std_nth_element(gd, (size_t)k - 1, (size_t)n, sizeof *gd, gf_desc, NULL);
            sl_base_std_nth_element(ga, (size_t)k - 1, (size_t)n, sizeof *ga, gf_asc, NULL);
            for (int i = 0; i < n; i++) {
                uint32_t wd = f32_bits(hex_f32(&de)), wa = f32_bits(hex_f32(&as));
                cr_assert(f32_bits(fd[i]) == wd && f32_bits(gd[i]) == wd,
                          "nth_element desc n=%d k=%d position %d: typed %08x, generic %08x, libstdc++ %08x", n, k, i,
                          f32_bits(fd[i]), f32_bits(gd[i]), wd);
                cr_assert(f32_bits(fa[i]) == wa && f32_bits(ga[i]) == wa,
                          "nth_element asc n=%d k=%d position %d: typed %08x, generic %08x, libstdc++ %08x", n, k, i,
                          f32_bits(fa[i]), f32_bits(ga[i]), wa);
            }
            free(fd), free(fa), free(gd), free(ga);
            n_nth++;
        } else if (sscanf(line, "topk %d %d", &n, &k) == 2) {
            char *in = tagged(&save, "in"), *pa = tagged(&save, "partial"), *ns = tagged(&save, "nthsort"),
                 *so = tagged(&save, "sort");
            sl_base_f64i *q = malloc((size_t)n * sizeof *q), *p1, *p2, *p3, *g1, *g2, *g3;
            p1 = malloc((size_t)n * sizeof *q), p2 = malloc((size_t)n * sizeof *q), p3 = malloc((size_t)n * sizeof *q);
            g1 = malloc((size_t)n * sizeof *q), g2 = malloc((size_t)n * sizeof *q), g3 = malloc((size_t)n * sizeof *q);
            double *v = malloc((size_t)n * sizeof *v);
            long *out = malloc((size_t)k * sizeof *out);
            for (int i = 0; i < n; i++) {
                uint64_t u = strtoull(in, &in, 16);
                memcpy(&v[i], &u, sizeof u);
                q[i] = (sl_base_f64i){v[i], i};
            }
            size_t sz = (size_t)n * sizeof *q;
            memcpy(p1, q, sz), memcpy(p2, q, sz), memcpy(p3, q, sz);
            memcpy(g1, q, sz), memcpy(g2, q, sz), memcpy(g3, q, sz);
            sl_base_std_partial_sort_f64i(p1, (size_t)k, (size_t)n);
            sl_base_std_nth_element_f64i(p2, (size_t)k - 1, (size_t)n);
            sl_base_std_sort_f64i(p2, (size_t)k - 1);
            sl_base_std_sort_f64i(p3, (size_t)n);
            sl_base_std_partial_sort(g1, (size_t)k, (size_t)n, sizeof *q, gtopk, NULL);
            sl_base_std_nth_element(g2, (size_t)k - 1, (size_t)n, sizeof *q, gtopk, NULL);
            sl_base_std_sort(g2, (size_t)k - 1, sizeof *q, gtopk, NULL);
            sl_base_std_sort(g3, (size_t)n, sizeof *q, gtopk, NULL);
            sl_error e;
            cr_assert_eq(sl_draw_torch_topk(v, (size_t)n, (size_t)k, out, &e), 0);
            int partial = (long long)k * 64 <= n;
            for (int i = 0; i < n; i++) {
                long w1 = strtol(pa, &pa, 10), w2 = strtol(ns, &ns, 10), w3 = strtol(so, &so, 10);
                cr_assert(p1[i].i == w1 && g1[i].i == w1, "partial_sort n=%d k=%d position %d: typed %lld, generic %lld, libstdc++ %ld",
                          n, k, i, (long long)p1[i].i, (long long)g1[i].i, w1);
                cr_assert(p2[i].i == w2 && g2[i].i == w2, "nth_element+sort n=%d k=%d position %d: typed %lld, generic %lld, libstdc++ %ld",
                          n, k, i, (long long)p2[i].i, (long long)g2[i].i, w2);
                cr_assert(p3[i].i == w3 && g3[i].i == w3, "sort n=%d position %d: typed %lld, generic %lld, libstdc++ %ld", n,
                          i, (long long)p3[i].i, (long long)g3[i].i, w3);
                if (i < k)
                    cr_assert_eq(out[i], partial ? w1 : w2, "torch topk n=%d k=%d position %d: %ld, libstdc++ %ld", n, k, i,
                                 out[i], partial ? w1 : w2);
            }
            free(q), free(p1), free(p2), free(p3), free(g1), free(g2), free(g3), free(v), free(out);
            n_topk++;
        }
    }
    cr_assert(n_pairs >= 23 && n_nth >= 60 && n_topk >= 50, "%zu pairs, %zu nth, %zu topk blocks", n_pairs, n_nth, n_topk);
    free(t);
}
