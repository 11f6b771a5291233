/* test_logits_llamacpp.c — llama.cpp's samplers (logits/llamacpp.c) on the
 * vectors of llama.cpp's own tests/test-sampling.cpp (commit 07e4038): each
 * test names the upstream function and call it reproduces. As upstream, the
 * candidates are logits = logf(p) in id order, one sampler is applied, then
 * the dist sampler normalises p, and the array is compared entry by entry
 * (|p - expected| < 1e-5) in array order. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "samplab.h"

enum { T_TEMP, T_TOP_K, T_TOP_P, T_MIN_P, T_TYPICAL, T_PENALTIES };

static void llc_check(const char *what, const float *probs, size_t n, const float *want, size_t nwant, int kind,
                      float arg, const long *last, size_t nlast, float rep, float freq, float pres)
{
    sl_logits_cand data[16];
    sl_logits_llama_array a = {data, n, 0};
    for (size_t i = 0; i < n; i++) {
        data[i].id = (long)i;
        data[i].logit = logf(probs[i]);
        data[i].p = probs[i];
    }
    int dist = 1, rc = 0;
    sl_error e = {{0}};
    switch (kind) {
    case T_TEMP: sl_logits_llama_temp(&a, arg); break;
    case T_TOP_K: rc = sl_logits_llama_top_k(&a, (long)arg, &e); break;
    case T_TOP_P: rc = sl_logits_llama_top_p(&a, arg, 0, &e); break;
    case T_MIN_P: rc = sl_logits_llama_min_p(&a, arg, 0, &e); break;
    case T_TYPICAL: rc = sl_logits_llama_typical(&a, arg, 0, &e); dist = 0; break;
    case T_PENALTIES: sl_logits_llama_penalties(&a, last, nlast, (long)nlast, rep, freq, pres); break;
    }
    cr_assert_eq(rc, 0, "%s: %s", what, e.msg);
    if (dist)
        sl_logits_llama_dist(&a, 0.5);
    cr_assert_eq(a.size, nwant, "%s: observed %zu candidates, expected %zu", what, a.size, nwant);
    for (size_t i = 0; i < nwant; i++)
        cr_assert(fabsf(a.data[i].p - want[i]) < 1e-5f, "%s: candidate %zu p observed %.9g expected %.9g", what, i,
                  a.data[i].p, want[i]);
}

static const float P4[4] = {0.1f, 0.2f, 0.3f, 0.4f};

/* test-sampling.cpp main(): test_temp(...) */
Test(replay_pipeline, llamacpp_test_temp)
{
    llc_check("test_temp T=1", P4, 4, (float[]){0.1f, 0.2f, 0.3f, 0.4f}, 4, T_TEMP, 1.0f, NULL, 0, 0, 0, 0);
    llc_check("test_temp T=0", P4, 4, (float[]){0.0f, 0.0f, 0.0f, 1.0f}, 4, T_TEMP, 0.0f, NULL, 0, 0, 0, 0);
}

/* test_temp_ext(..., delta 0, exponent 1): with no dynamic range temp-ext is
 * the plain temperature sampler, which is what the default chain adds */
Test(replay_pipeline, llamacpp_test_temp_ext_delta0)
{
    llc_check("test_temp_ext T=1", P4, 4, (float[]){0.1f, 0.2f, 0.3f, 0.4f}, 4, T_TEMP, 1.0f, NULL, 0, 0, 0, 0);
    llc_check("test_temp_ext T=0", P4, 4, (float[]){0.0f, 0.0f, 0.0f, 1.0f}, 4, T_TEMP, 0.0f, NULL, 0, 0, 0, 0);
}

/* test_top_k(...) with k = 1, 3, 4, 0 */
Test(replay_pipeline, llamacpp_test_top_k)
{
    llc_check("test_top_k k=1", P4, 4, (float[]){1.0f}, 1, T_TOP_K, 1, NULL, 0, 0, 0, 0);
    llc_check("test_top_k k=3", P4, 4, (float[]){0.44444f, 0.33333f, 0.22222f}, 3, T_TOP_K, 3, NULL, 0, 0, 0, 0);
    llc_check("test_top_k k=4", P4, 4, (float[]){0.4f, 0.3f, 0.2f, 0.1f}, 4, T_TOP_K, 4, NULL, 0, 0, 0, 0);
    llc_check("test_top_k k=0", P4, 4, (float[]){0.1f, 0.2f, 0.3f, 0.4f}, 4, T_TOP_K, 0, NULL, 0, 0, 0, 0);
}

/* test_top_p(...) with p = 0, 0.7, 0.8, 1 */
Test(replay_pipeline, llamacpp_test_top_p)
{
    llc_check("test_top_p p=0", P4, 4, (float[]){1.0f}, 1, T_TOP_P, 0.0f, NULL, 0, 0, 0, 0);
    llc_check("test_top_p p=0.7", P4, 4, (float[]){0.571429f, 0.428571f}, 2, T_TOP_P, 0.7f, NULL, 0, 0, 0, 0);
    llc_check("test_top_p p=0.8", P4, 4, (float[]){0.44444f, 0.33333f, 0.22222f}, 3, T_TOP_P, 0.8f, NULL, 0, 0, 0,
              0);
    llc_check("test_top_p p=1", P4, 4, (float[]){0.1f, 0.2f, 0.3f, 0.4f}, 4, T_TOP_P, 1.0f, NULL, 0, 0, 0, 0);
}

/* test_min_p(...) with p = 0, 0.24, 0.26, 0.49, 0.51, 0.74, 0.76, 1, 1.05 */
Test(replay_pipeline, llamacpp_test_min_p)
{
    const float all[4] = {0.1f, 0.2f, 0.3f, 0.4f};
    const float three[3] = {0.2f / 0.9f, 0.3f / 0.9f, 0.4f / 0.9f};
    const float two[2] = {0.3f / 0.7f, 0.4f / 0.7f};
    const float one[1] = {1.0f};
    llc_check("test_min_p 0.00", P4, 4, all, 4, T_MIN_P, 0.00f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 0.24", P4, 4, all, 4, T_MIN_P, 0.24f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 0.26", P4, 4, three, 3, T_MIN_P, 0.26f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 0.49", P4, 4, three, 3, T_MIN_P, 0.49f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 0.51", P4, 4, two, 2, T_MIN_P, 0.51f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 0.74", P4, 4, two, 2, T_MIN_P, 0.74f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 0.76", P4, 4, one, 1, T_MIN_P, 0.76f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 1.00", P4, 4, one, 1, T_MIN_P, 1.00f, NULL, 0, 0, 0, 0);
    llc_check("test_min_p 1.05", P4, 4, one, 1, T_MIN_P, 1.05f, NULL, 0, 0, 0, 0);
}

/* test_typical(...) with p = 0.5 */
Test(replay_pipeline, llamacpp_test_typical)
{
    llc_check("test_typical peaked", (float[]){0.97f, 0.01f, 0.01f, 0.01f}, 4, (float[]){0.97f}, 1, T_TYPICAL, 0.5f,
              NULL, 0, 0, 0, 0);
    llc_check("test_typical flat", (float[]){0.4f, 0.2f, 0.2f, 0.2f}, 4, (float[]){0.2f, 0.2f, 0.2f}, 3, T_TYPICAL,
              0.5f, NULL, 0, 0, 0, 0);
}

/* test_penalties(...): repeat 50 (and frequency/presence 5, 5), last_n = the history length */
Test(replay_pipeline, llamacpp_test_penalties)
{
    const float u5[5] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
    llc_check("test_penalties {0} r=50", u5, 5, (float[]){0, 0.25f, 0.25f, 0.25f, 0.25f}, 5, T_PENALTIES, 0,
              (long[]){0}, 1, 50.0f, 0, 0);
    llc_check("test_penalties {0,1,2} r=50", u5, 5, (float[]){0, 0, 0, 0.5f, 0.5f}, 5, T_PENALTIES, 0,
              (long[]){0, 1, 2}, 3, 50.0f, 0, 0);
    llc_check("test_penalties {0,1,2,0,0} r=50", u5, 5, (float[]){0, 0, 0, 0.5f, 0.5f}, 5, T_PENALTIES, 0,
              (long[]){0, 1, 2, 0, 0}, 5, 50.0f, 0, 0);
    llc_check("test_penalties {0} f=p=5", u5, 5, (float[]){0.000011f, 0.249997f, 0.249997f, 0.249997f, 0.249997f}, 5,
              T_PENALTIES, 0, (long[]){0}, 1, 1.0f, 5.0f, 5.0f);
    llc_check("test_penalties {0,1,2} f=p=5", u5, 5,
              (float[]){0.000023f, 0.000023f, 0.000023f, 0.499966f, 0.499966f}, 5, T_PENALTIES, 0,
              (long[]){0, 1, 2}, 3, 1.0f, 5.0f, 5.0f);
    llc_check("test_penalties {0,1,2,0,0} f=p=5", u5, 5,
              (float[]){0.000000f, 0.000023f, 0.000023f, 0.499977f, 0.499977f}, 5, T_PENALTIES, 0,
              (long[]){0, 1, 2, 0, 0}, 5, 1.0f, 5.0f, 5.0f);
}

/* test_sampler_queue(n_vocab, seq, top_k, top_p, min_p): logits logf(id) over
 * 10000 ids, samplers in the given order (top-p and min-p with min_keep 1),
 * the dist sampler after each; the expected sizes and end ids are upstream's
 * formulas, restated. */
static void llc_queue(size_t n_vocab, const char *seq, int top_k, float top_p, float min_p)
{
    sl_logits_cand *data = malloc(n_vocab * sizeof *data);
    cr_assert_not_null(data);
    for (size_t i = 0; i < n_vocab; i++) {
        data[i].id = (long)i;
        data[i].logit = logf((float)i);
        data[i].p = 0;
    }
    sl_logits_llama_array a = {data, n_vocab, 0};
    int min_id = 0;
    const int max_id = (int)n_vocab - 1;
    for (const char *s = seq; *s; s++) {
        sl_error e = {{0}};
        int rc;
        if (*s == 'k')
            rc = sl_logits_llama_top_k(&a, top_k, &e);
        else if (*s == 'p')
            rc = sl_logits_llama_top_p(&a, top_p, 1, &e);
        else
            rc = sl_logits_llama_min_p(&a, min_p, 1, &e);
        cr_assert_eq(rc, 0, "queue %s %c: %s", seq, *s, e.msg);
        sl_logits_llama_dist(&a, 0.5);
        const int size = (int)a.size;
        if (*s == 'k') {
            int want = size < top_k ? size : top_k;
            int lo = (int)n_vocab - top_k;
            min_id = min_id > lo ? min_id : lo;
            cr_assert_eq(size, want, "queue %s k: %d candidates, expected %d", seq, size, want);
            cr_assert_eq(a.data[0].id, max_id);
            cr_assert_eq(a.data[want - 1].id, min_id, "queue %s k: last id %ld expected %d", seq, a.data[want - 1].id,
                         min_id);
        } else if (*s == 'p') {
            const int divisor = (int)(n_vocab * (n_vocab - 1) / 2) - min_id * (min_id - 1) / 2;
            const int target = (int)ceilf(top_p * (float)divisor);
            min_id = (int)n_vocab;
            int want = 0, cum = 0;
            do {
                min_id--;
                want++;
                cum += min_id;
            } while (cum < target);
            if (min_id == 1) {
                min_id--;
                want++;
            }
            cr_assert_eq(size, want, "queue %s p=%g: %d candidates, expected %d", seq, top_p, size, want);
            cr_assert(!a.sorted || a.data[0].id == max_id);
            cr_assert(!a.sorted || a.data[want - 1].id == min_id, "queue %s p: last id %ld expected %d", seq,
                      a.data[want - 1].id, min_id);
        } else {
            int want = (int)ceilf((1.0f - min_p) * (float)n_vocab);
            want = want > 1 ? want : 1;
            want = want < size ? want : size;
            min_id = (int)floorf(min_p * (float)n_vocab);
            min_id = min_id > 1 ? min_id : 1;
            min_id = min_id > (int)n_vocab - size ? min_id : (int)n_vocab - size;
            min_id = min_id < (int)n_vocab - 1 ? min_id : (int)n_vocab - 1;
            cr_assert_eq(size, want, "queue %s m=%g: %d candidates, expected %d", seq, min_p, size, want);
            cr_assert(!a.sorted || a.data[0].id == max_id);
            cr_assert(!a.sorted || a.data[want - 1].id == min_id, "queue %s m: last id %ld expected %d", seq,
                      a.data[want - 1].id, min_id);
        }
    }
    free(data);
}

Test(replay_pipeline, llamacpp_test_sampler_queue)
{
    llc_queue(10000, "k", 10000, 1.0f, 1.0f);
    llc_queue(10000, "k", 1, 1.0f, 1.0f);
    llc_queue(10000, "p", 10000, 1.0f, 1.0f);
    llc_queue(10000, "p", 10000, 0.0f, 1.0f);
    llc_queue(10000, "m", 10000, 1.0f, 1.0f);
    llc_queue(10000, "m", 10000, 1.0f, 1e-12f);
    llc_queue(10000, "k", 100, 1.0000f, 1.0f);
    llc_queue(10000, "p", 10000, 0.0003f, 1.0f);
    llc_queue(10000, "p", 10000, 0.8000f, 1.0f);
    llc_queue(10000, "m", 10000, 1.0000f, 9997.9f / 9999.0f);
    llc_queue(10000, "m", 10000, 1.0000f, 0.1f);
    const char *pairs[] = {"kp", "km", "pk", "pm", "mk", "mp", "kpm", "kmp", "pkm", "pmk", "mkp", "mpk"};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        llc_queue(10000, pairs[i], 100, 0.8f, 0.1f);
    llc_queue(10000, "mp", 100, 0.8f, 9997.9f / 9999.0f);
}

/* The large-array paths (beyond 128 and 1024 candidates: llama.cpp's bucket
 * partial sort and top-p's adaptive top-256 pass) against a plain sort:
 * the same logits in the same descending sequence, and the same set kept. */
static int llc_desc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const sl_logits_cand *)a)->logit > ((const sl_logits_cand *)b)->logit;
}

Test(replay_pipeline, llamacpp_bucket_paths_match_a_full_sort)
{
    const size_t V = 20000;
    sl_logits_cand *a = malloc(V * sizeof *a), *ref = malloc(V * sizeof *ref);
    cr_assert(a && ref);
    uint32_t x = 777;
    for (size_t i = 0; i < V; i++) {
        x = x * 1664525u + 1013904223u;
        /* a spread over and beyond [-10, 10], quantised to make ties */
        a[i].id = (long)i;
        a[i].logit = (float)((int)(x >> 20) - 2048) / 64.0f;
        a[i].p = 0;
    }
    memcpy(ref, a, V * sizeof *a);
    sl_base_std_sort(ref, V, sizeof *ref, llc_desc, NULL);
    /* top-k 500: bucket partial sort */
    sl_logits_cand *b = malloc(V * sizeof *b);
    memcpy(b, a, V * sizeof *a);
    sl_logits_llama_array arr = {b, V, 0};
    sl_error e = {{0}};
    int rc = sl_logits_llama_top_k(&arr, 500, &e);
    cr_assert_eq(rc, 0, "%s", e.msg);
    cr_assert_eq(arr.size, 500);
    for (size_t i = 0; i < 500; i++)
        cr_assert_eq(arr.data[i].logit, ref[i].logit, "top-k position %zu: %g vs %g", i, arr.data[i].logit,
                     ref[i].logit);
    /* top-p over all 20000 (adaptive 256 first, then everything) */
    for (float p = 0.05f; p < 1.0f; p += 0.3f) {
        memcpy(b, a, V * sizeof *a);
        sl_logits_llama_array t = {b, V, 0};
        rc = sl_logits_llama_top_p(&t, p, 0, &e);
        cr_assert_eq(rc, 0, "%s", e.msg);
        /* reference: softmax in id order (float sum), then the descending float walk */
        float mx = ref[0].logit, cum = 0;
        float *pid = malloc(V * sizeof *pid);
        for (size_t i = 0; i < V; i++) {
            pid[i] = expf(a[i].logit - mx);
            cum += pid[i];
        }
        for (size_t i = 0; i < V; i++)
            pid[i] /= cum;
        float run = 0;
        size_t last = V;
        for (size_t i = 0; i < V; i++) {
            run += pid[ref[i].id];
            if (run >= p) {
                last = i + 1;
                break;
            }
        }
        cr_assert_eq(t.size, last, "top-p %g: kept %zu, plain sort %zu", p, t.size, last);
        cr_assert(t.sorted);
        for (size_t i = 0; i < last; i++)
            cr_assert_eq(t.data[i].logit, ref[i].logit);
        free(pid);
    }
    free(a);
    free(b);
    free(ref);
}
