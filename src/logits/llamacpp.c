/* llamacpp.c — llama.cpp's sampler chain over a candidate array, in float32
 * as its C++ computes it.
 *
 * Reproduces llama.cpp src/llama-sampling.cpp (commit 0344068c, mid/late
 * 2025, the version whose dist sampler normalises and samples in one pass):
 * llama_sampler_penalties_apply, llama_sampler_top_k_impl,
 * llama_sampler_typical_apply, llama_sampler_top_p_apply,
 * llama_sampler_min_p_apply, llama_sampler_temp_impl,
 * llama_sampler_softmax_impl and llama_sampler_dist_apply; and the default
 * chain order of common/sampling.cpp common_sampler_init (penalties → dry →
 * top-n-sigma → top-k → typical → top-p → min-p → xtc → temperature → dist;
 * dry, top-n-sigma and xtc are off by default and not emulated) with the
 * defaults of common/common.h common_params_sampling (top_k 40, top_p 0.95,
 * min_p 0.05, temp 0.8, penalty_last_n 64, repeat 1.0, typical 1.0, min_keep 0).
 *
 * Every filter works on the current candidate array and recomputes its own
 * softmax over it (so each sees a renormalised distribution); top-k keeps
 * exactly k; top-p walks the descending order with a float running sum and
 * keeps through the first token where it reaches p (p = 0 keeps one); min-p
 * compares logits with max + logf(p) (before temperature in this chain);
 * temperature <= 0 keeps the first maximum and sets every other logit to
 * -inf without shrinking the array.
 *
 * Known divergences: where logits tie, libstdc++'s std::partial_sort and
 * std::sort put the tied candidates in an unspecified order; here the sort is
 * stable (ties keep their array order, i.e. ascending id from the start). This
 * changes which of the tied tokens top-k keeps, and the array order the dist
 * sampler walks. With a probability that underflows to 0 typical's entropy is
 * NaN in llama.cpp (0 * -inf), so its order is unspecified; it is NaN here too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

/* Stable merge sort of candidates by comparator; tmp has n entries. */
static int sl_llama_logit_desc(const sl_logits_cand *a, const sl_logits_cand *b)
{
    return a->logit > b->logit;
}

static void sl_llama_msort(sl_logits_cand *d, sl_logits_cand *tmp, size_t n,
                           int (*before)(const sl_logits_cand *, const sl_logits_cand *))
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sl_llama_msort(d, tmp, h, before);
    sl_llama_msort(d + h, tmp, n - h, before);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = before(&d[j], &d[i]) ? d[j++] : d[i++];
    while (i < h)
        tmp[k++] = d[i++];
    while (j < n)
        tmp[k++] = d[j++];
    memcpy(d, tmp, n * sizeof *d);
}

static void sl_llama_sort_desc(sl_logits_llama_array *a)
{
    sl_logits_cand *tmp = malloc((a->size ? a->size : 1) * sizeof *tmp);
    if (tmp) {
        sl_llama_msort(a->data, tmp, a->size, sl_llama_logit_desc);
        free(tmp);
    } else { /* insertion sort: stable, slow, never fails */
        for (size_t i = 1; i < a->size; i++)
            for (size_t j = i; j > 0 && a->data[j].logit > a->data[j - 1].logit; j--) {
                sl_logits_cand t = a->data[j];
                a->data[j] = a->data[j - 1];
                a->data[j - 1] = t;
            }
    }
    a->sorted = 1;
}

void sl_logits_llama_softmax(sl_logits_llama_array *a, int do_sort)
{
    if (!a->size)
        return;
    if (do_sort && !a->sorted)
        sl_llama_sort_desc(a);
    float max_l = a->data[0].logit;
    if (!a->sorted)
        for (size_t i = 1; i < a->size; i++)
            max_l = fmaxf(max_l, a->data[i].logit);
    float cum = 0.0f;
    for (size_t i = 0; i < a->size; i++) {
        float p = expf(a->data[i].logit - max_l);
        a->data[i].p = p;
        cum += p;
    }
    for (size_t i = 0; i < a->size; i++)
        a->data[i].p /= cum;
}

void sl_logits_llama_penalties(sl_logits_llama_array *a, const long *ctx, size_t ctx_n, long last_n,
                               float repeat, float freq, float present)
{
    if (last_n <= 0 || (repeat == 1.0f && freq == 0.0f && present == 0.0f))
        return;
    /* the ring buffer holds the last last_n accepted tokens */
    size_t from = ctx_n > (size_t)last_n ? ctx_n - (size_t)last_n : 0;
    for (size_t i = 0; i < a->size; i++) {
        int count = 0;
        for (size_t j = from; j < ctx_n; j++)
            count += ctx[j] == a->data[i].id;
        if (!count)
            continue;
        if (a->data[i].logit <= 0)
            a->data[i].logit *= repeat;
        else
            a->data[i].logit /= repeat;
        a->data[i].logit -= (float)count * freq + (float)(count > 0) * present;
    }
    a->sorted = 0;
}

void sl_logits_llama_top_k(sl_logits_llama_array *a, long k)
{
    if (k <= 0)
        return;
    if ((size_t)k > a->size)
        k = (long)a->size;
    if (!a->sorted)
        sl_llama_sort_desc(a);
    a->size = (size_t)k;
}

typedef struct sl_llama_shift {
    float shift;
    size_t idx;
} sl_llama_shift;

static void sl_llama_shift_sort(sl_llama_shift *d, sl_llama_shift *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sl_llama_shift_sort(d, tmp, h);
    sl_llama_shift_sort(d + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = d[j].shift < d[i].shift ? d[j++] : d[i++];
    while (i < h)
        tmp[k++] = d[i++];
    while (j < n)
        tmp[k++] = d[j++];
    memcpy(d, tmp, n * sizeof *d);
}

void sl_logits_llama_typical(sl_logits_llama_array *a, float p, size_t min_keep)
{
    if (p >= 1.0f || !a->size)
        return;
    sl_logits_llama_softmax(a, 1);
    float entropy = 0.0f;
    for (size_t i = 0; i < a->size; i++)
        entropy += -a->data[i].p * logf(a->data[i].p);
    size_t n = a->size;
    sl_llama_shift *sh = malloc(n * sizeof *sh), *tmp = malloc(n * sizeof *tmp);
    sl_logits_cand *nd = malloc(n * sizeof *nd);
    if (!sh || !tmp || !nd) {
        free(sh);
        free(tmp);
        free(nd);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        sh[i].shift = fabsf(-logf(a->data[i].p) - entropy);
        sh[i].idx = i;
    }
    sl_llama_shift_sort(sh, tmp, n);
    float cum = 0.0f;
    size_t last = n;
    for (size_t i = 0; i < n; i++) {
        cum += a->data[sh[i].idx].p;
        if (cum > p && (min_keep == 0 || i >= min_keep - 1)) {
            last = i + 1;
            break;
        }
    }
    for (size_t i = 0; i < last; i++)
        nd[i] = a->data[sh[i].idx];
    memcpy(a->data, nd, last * sizeof *nd);
    a->size = last;
    a->sorted = 0;
    free(sh);
    free(tmp);
    free(nd);
}

void sl_logits_llama_top_p(sl_logits_llama_array *a, float p, size_t min_keep)
{
    if (p >= 1.0f || !a->size)
        return;
    sl_logits_llama_softmax(a, 0); /* probabilities in the current order */
    if (!a->sorted)
        sl_llama_sort_desc(a);   /* the adaptive partial sort gives the same prefix */
    float cum = 0.0f;
    size_t last = a->size;
    for (size_t i = 0; i < a->size; i++) {
        cum += a->data[i].p;
        if (cum >= p && i + 1 >= min_keep) {
            last = i + 1;
            break;
        }
    }
    a->size = last;
}

void sl_logits_llama_min_p(sl_logits_llama_array *a, float p, size_t min_keep)
{
    if (p <= 0.0f || !a->size)
        return;
    if (!a->sorted) {
        float max_l = -3.40282347e+38f; /* -FLT_MAX */
        for (size_t i = 0; i < a->size; i++)
            max_l = fmaxf(max_l, a->data[i].logit);
        const float min_l = max_l + logf(p);
        size_t n = 0;
        for (size_t i = 0; i < a->size; i++)
            n += a->data[i].logit >= min_l;
        if (n && n >= min_keep) { /* filtered in place, array order kept */
            size_t w = 0;
            for (size_t i = 0; i < a->size; i++)
                if (a->data[i].logit >= min_l)
                    a->data[w++] = a->data[i];
            a->size = w;
            return;
        }
        sl_llama_sort_desc(a);
    }
    const float min_l = a->data[0].logit + logf(p);
    size_t i = 1;
    for (; i < a->size; i++)
        if (a->data[i].logit < min_l && i >= min_keep)
            break;
    a->size = i;
}

void sl_logits_llama_temp(sl_logits_llama_array *a, float temp)
{
    if (!a->size)
        return;
    if (temp <= 0.0f) {
        size_t max_i = 0;
        float max_l = a->data[0].logit;
        for (size_t i = 1; i < a->size; i++) {
            if (a->data[i].logit > max_l) {
                a->data[max_i].logit = -INFINITY;
                max_i = i;
                max_l = a->data[i].logit;
            } else {
                a->data[i].logit = -INFINITY;
            }
        }
        return;
    }
    for (size_t i = 0; i < a->size; i++)
        a->data[i].logit /= temp;
}

size_t sl_logits_llama_dist(sl_logits_llama_array *a, double u)
{
    if (a->size <= 1) {
        if (a->size)
            a->data[0].p = 1.0f;
        return 0;
    }
    float max_l = a->data[0].logit;
    if (!a->sorted)
        for (size_t i = 1; i < a->size; i++)
            max_l = fmaxf(max_l, a->data[i].logit);
    double sum_cum = 0.0;
    for (size_t i = 0; i < a->size; i++) {
        float p = expf(a->data[i].logit - max_l);
        a->data[i].p = p;
        sum_cum += p;
    }
    const double sum_tgt = sum_cum * u;
    double sum_run = 0.0;
    size_t sel = a->size;
    for (size_t i = 0; i < a->size; i++) {
        if (sel == a->size) {
            sum_run += a->data[i].p;
            if (sum_run >= sum_tgt)
                sel = i;
        }
        a->data[i].p = (float)(a->data[i].p / sum_cum);
    }
    return sel == a->size ? a->size - 1 : sel;
}

int sl_logits_llama_chain(const float *lf, size_t V, const sl_logits_cfg *c, sl_logits_llama_array *a,
                          sl_logits_result *trace, sl_error *err)
{
    long min_keep = c->has_min_keep ? c->min_keep : 0;
    if (min_keep < 0)
        return sl_error_set(err, SL_EINVAL, "llamacpp: min_keep %ld is negative (it is a size_t)", min_keep);
    long last_n = c->has_last_n ? c->last_n : 64;
    if (last_n < 0)
        return sl_error_set(err, SL_EINVAL, "llamacpp: penalty_last_n %ld is negative", last_n);
    const int d = c->defaults;
    long top_k = c->has_top_k ? c->top_k : (d ? 40 : 0);
    float top_p = (float)(c->has_top_p ? c->top_p : (d ? 0.95 : 1.0));
    float min_p = (float)(c->has_min_p ? c->min_p : (d ? 0.05 : 0.0));
    float typ = (float)(c->has_typical ? c->typical : 1.0);
    float temp = (float)(c->has_temperature ? c->temperature : (d ? 0.8 : 1.0));
    float rep = (float)(c->has_penalty ? c->penalty : 1.0);
    float freq = (float)(c->has_freq ? c->freq : 0.0);
    float pres = (float)(c->has_presence ? c->presence : 0.0);

    a->data = malloc(V * sizeof *a->data);
    if (!a->data)
        return sl_error_set(err, SL_ENOMEM, "out of memory for %zu candidates", V);
    for (size_t i = 0; i < V; i++) {
        a->data[i].id = (long)i;
        a->data[i].logit = lf[i];
        a->data[i].p = 0.0f;
    }
    a->size = V;
    a->sorted = 0;

    if (c->context_n && last_n > 0 && (rep != 1.0f || freq != 0.0f || pres != 0.0f)) {
        sl_logits_llama_penalties(a, c->context, c->context_n, last_n, rep, freq, pres);
        if (trace)
            sl_logits_step(trace, "penalties");
    }
    if (top_k > 0) {
        sl_logits_llama_top_k(a, top_k);
        if (trace)
            sl_logits_step(trace, "top-k");
    }
    if (typ < 1.0f) {
        sl_logits_llama_typical(a, typ, (size_t)min_keep);
        if (trace)
            sl_logits_step(trace, "typical");
    }
    if (top_p < 1.0f) {
        sl_logits_llama_top_p(a, top_p, (size_t)min_keep);
        if (trace)
            sl_logits_step(trace, "top-p");
    }
    if (min_p > 0.0f) {
        sl_logits_llama_min_p(a, min_p, (size_t)min_keep);
        if (trace)
            sl_logits_step(trace, "min-p");
    }
    /* the temperature sampler is always in the chain; T = 1 divides by 1 */
    sl_logits_llama_temp(a, temp);
    if (trace && temp != 1.0f)
        sl_logits_step(trace, temp <= 0.0f ? "temp (<= 0: first max only)" : "temp");
    return SL_OK;
}

static int llamacpp_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *c,
                        sl_logits_result *out, sl_error *err)
{
    (void)ld;
    int rc = sl_logits_result_alloc(out, V, err);
    if (rc)
        return rc;
    out->precision = 32;
    sl_logits_llama_array a;
    if ((rc = sl_logits_llama_chain(lf, V, c, &a, out, err))) {
        sl_logits_result_free(out);
        return rc;
    }
    /* the dist sampler's normalisation gives the final probabilities; run
     * it on a copy so the result keeps the array as the draw will see it */
    sl_logits_llama_array b = {malloc(a.size * sizeof *a.data), a.size, a.sorted};
    if (!b.data) {
        free(a.data);
        sl_logits_result_free(out);
        return sl_error_set(err, SL_ENOMEM, "out of memory");
    }
    memcpy(b.data, a.data, a.size * sizeof *a.data);
    sl_logits_llama_dist(&b, 0.0);
    for (size_t i = 0; i < b.size; i++) {
        size_t id = (size_t)b.data[i].id;
        out->probs[id] = b.data[i].p;
        if (b.data[i].logit != -INFINITY && !out->kept[id]) {
            out->kept[id] = 1;
            out->n_kept++;
        }
    }
    free(b.data);
    out->cand = a.data;
    out->n_cand = a.size;
    out->cand_sorted = a.sorted;
    return SL_OK;
}

const sl_pipeline_type sl_pipeline_llamacpp_type = {
    "llamacpp",
    "llama.cpp default chain: penalties (last N) -> top-k (exactly k) -> typical -> top-p -> min-p (logit space) "
    "-> temperature -> dist, float32; --defaults = top-k 40, top-p 0.95, min-p 0.05, T 0.8",
    SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL |
        SL_OPT_PENALTY | SL_OPT_MIN_KEEP | SL_OPT_DEFAULTS | SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE,
    llamacpp_run,
};
