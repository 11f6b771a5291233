/* f32.c — the float32 kernels the transformers and vLLM pipelines share:
 * softmax, log_softmax, cumsum, stable argsort and the k-th largest value, as
 * PyTorch's CPU ops compute them (torch 1.13–2.x, aten/src/ATen/native/cpu).
 *
 * Known divergences: torch's softmax vectorises exp (Sleef, 1 ulp) and sums in
 * 8 (AVX2) or 16 (AVX-512) lanes; here expf is glibc's and the sum is
 * accumulated in double then rounded once, so a probability can differ from
 * torch's by a few ulp (analysis/golden/hf_golden.py measures it). cumsum
 * matches torch exactly: its CPU kernel accumulates float in double
 * (at::acc_type<float, false> is double) and rounds each prefix to float.
 * torch.sort on CPU (stable=False, the default transformers and vLLM use) is
 * libstdc++'s std::sort over (value, index) pairs compared by value — not
 * stable for more than 16 elements — so argsort runs the same algorithm
 * (stdsort.c) and tied logits come out in torch's order; checked against
 * torch 1.13.1 on tie-heavy vectors (data/golden/hf_pipeline.txt, ties*). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

void sl_logits_softmax_f32(const float *x, size_t n, float *out)
{
    float mx = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (x[i] > mx)
            mx = x[i];
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        /* an all -inf row would give NaN in torch; callers never pass one */
        out[i] = (x[i] == -INFINITY) ? 0.0f : expf(x[i] - mx);
        sum += out[i];
    }
    float inv = 1.0f / (float)sum;
    for (size_t i = 0; i < n; i++)
        out[i] *= inv;
}

void sl_logits_log_softmax_f32(const float *x, size_t n, float *out)
{
    float mx = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (x[i] > mx)
            mx = x[i];
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (x[i] == -INFINITY) ? 0.0f : expf(x[i] - mx);
    float lse = logf((float)sum);
    for (size_t i = 0; i < n; i++)
        out[i] = (x[i] - mx) - lse;
}

void sl_logits_cumsum_f32(const float *x, size_t n, float *out)
{
    double acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc += x[i];
        out[i] = (float)acc;
    }
}

/* Merge sort on indices: stable, O(n log n), no qsort_r needed. */
static int sl_f32_before(const float *x, size_t a, size_t b, int desc)
{
    /* NaN never reaches here (inputs are checked); -inf sorts as a number */
    return desc ? x[a] > x[b] : x[a] < x[b];
}

static void sl_f32_merge(const float *x, size_t *idx, size_t *tmp, size_t n, int desc)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sl_f32_merge(x, idx, tmp, h, desc);
    sl_f32_merge(x, idx + h, tmp, n - h, desc);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if (sl_f32_before(x, idx[j], idx[i], desc))
            tmp[k++] = idx[j++];
        else
            tmp[k++] = idx[i++];
    }
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

typedef struct sl_f32_pair {
    float v;
    size_t i;
} sl_f32_pair;

static int sl_f32_pair_asc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const sl_f32_pair *)a)->v < ((const sl_f32_pair *)b)->v;
}

static int sl_f32_pair_desc(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    return ((const sl_f32_pair *)a)->v > ((const sl_f32_pair *)b)->v;
}

void sl_logits_argsort_f32(const float *x, size_t n, int descending, size_t *idx, size_t *tmp)
{
    sl_f32_pair *pr = malloc((n ? n : 1) * sizeof *pr);
    if (!pr) { /* out of memory: a stable sort, same order except among ties */
        for (size_t i = 0; i < n; i++)
            idx[i] = i;
        sl_f32_merge(x, idx, tmp, n, descending);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        pr[i].v = x[i];
        pr[i].i = i;
    }
    sl_logits_std_sort(pr, n, sizeof *pr, descending ? sl_f32_pair_desc : sl_f32_pair_asc, NULL);
    for (size_t i = 0; i < n; i++)
        idx[i] = pr[i].i;
    free(pr);
}

float sl_logits_kth_largest_f32(const float *x, size_t n, size_t k, size_t *idx, size_t *tmp)
{
    sl_logits_argsort_f32(x, n, 1, idx, tmp);
    return x[idx[k - 1]];
}
