/* tutorial.c — the sampling pipeline of the LLM-sampling tutorial (document
 * 003_1857ebf1d0eff5ab.txt, Go package llm-sampling): logits → ÷temperature →
 * top-k → top-p → min-p → softmax, in float64.
 *
 * Its exact rules: Softmax subtracts the maximum and divides each exp by the
 * sum; ApplyTemperature rejects t <= 0; FilterTopK rejects k <= 0, keeps
 * everything when k >= len, otherwise exactly the first k of a descending
 * argsort; FilterTopP rejects p outside (0, 1], takes a fresh softmax and keeps
 * tokens in descending order through the first one where the running sum
 * reaches p (cum >= p); FilterMinP rejects minP outside [0, 1] and keeps
 * p >= minP · p_max. Each filter sets removed logits to -Inf, so the next
 * softmax renormalises. Error texts are the tutorial's.
 *
 * Known divergences: the tutorial's argsortDesc is not shown; ties here keep
 * index order (a stable sort). Go's math.Exp and glibc's exp may differ in
 * the last bit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

static void tut_softmax(const double *x, size_t n, double *out)
{
    double mx = -INFINITY;
    for (size_t i = 0; i < n; i++)
        mx = fmax(mx, x[i]);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        out[i] = exp(x[i] - mx);
        sum += out[i];
    }
    for (size_t i = 0; i < n; i++)
        out[i] = out[i] / sum;
}

/* stable descending argsort on doubles (merge sort) */
static void tut_msort(const double *x, size_t *idx, size_t *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    tut_msort(x, idx, tmp, h);
    tut_msort(x, idx + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = x[idx[j]] > x[idx[i]] ? idx[j++] : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

static void tut_argsort_desc(const double *x, size_t n, size_t *idx, size_t *tmp)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    tut_msort(x, idx, tmp, n);
}

static int tut_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *c,
                   sl_logits_result *out, sl_error *err)
{
    (void)lf;
    double t = c->temperature;
    if (t <= 0 || isnan(t))
        return sl_base_error_set(err, SL_EINVAL, "tutorial: sampling: temperature must be positive (use Greedy for t=0)");
    if (c->has_top_k && c->top_k <= 0)
        return sl_base_error_set(err, SL_EINVAL, "tutorial: sampling: k must be positive");
    if (c->has_top_p && !(c->top_p > 0 && c->top_p <= 1))
        return sl_base_error_set(err, SL_EINVAL, "tutorial: sampling: p must be in (0, 1]");
    if (c->has_min_p && !(c->min_p >= 0 && c->min_p <= 1))
        return sl_base_error_set(err, SL_EINVAL, "tutorial: sampling: minP must be in [0, 1]");

    int rc = sl_logits_result_alloc(out, V, err);
    if (rc)
        return rc;
    out->precision = 64;
    double *s = malloc(V * sizeof *s), *p = malloc(V * sizeof *p);
    size_t *idx = malloc(V * sizeof *idx), *tmp = malloc(V * sizeof *tmp);
    unsigned char *keep = malloc(V);
    if (!s || !p || !idx || !tmp || !keep) {
        rc = sl_base_error_set(err, SL_ENOMEM, "tutorial: out of memory for %zu logits", V);
        goto done;
    }
    for (size_t i = 0; i < V; i++)
        s[i] = ld[i] / t;
    sl_logits_step(out, "temperature");
    if (c->has_top_k && (size_t)c->top_k < V) {
        tut_argsort_desc(s, V, idx, tmp);
        memset(keep, 0, V);
        for (size_t j = 0; j < (size_t)c->top_k; j++)
            keep[idx[j]] = 1;
        for (size_t i = 0; i < V; i++)
            if (!keep[i])
                s[i] = -INFINITY;
        sl_logits_step(out, "top_k");
    } else if (c->has_top_k) {
        sl_logits_step(out, "top_k");
    }
    if (c->has_top_p) {
        tut_softmax(s, V, p);
        tut_argsort_desc(p, V, idx, tmp);
        memset(keep, 0, V);
        double cum = 0.0;
        for (size_t j = 0; j < V; j++) {
            keep[idx[j]] = 1;
            cum += p[idx[j]];
            if (cum >= c->top_p)
                break;
        }
        for (size_t i = 0; i < V; i++)
            if (!keep[i])
                s[i] = -INFINITY;
        sl_logits_step(out, "top_p");
    }
    if (c->has_min_p) {
        tut_softmax(s, V, p);
        double mx = 0.0;
        for (size_t i = 0; i < V; i++)
            mx = fmax(mx, p[i]);
        double thr = c->min_p * mx;
        for (size_t i = 0; i < V; i++)
            if (!(p[i] >= thr))
                s[i] = -INFINITY;
        sl_logits_step(out, "min_p");
    }
    tut_softmax(s, V, p);
    for (size_t i = 0; i < V; i++) {
        out->kept[i] = s[i] != -INFINITY;
        out->n_kept += out->kept[i];
        out->probs[i] = p[i];
    }
done:
    free(s);
    free(p);
    free(idx);
    free(tmp);
    free(keep);
    if (rc)
        sl_logits_result_free(out);
    return rc;
}

/* The tutorial's functions take each setting as a required argument and have no
 * defaults: a filter not given is not called. Its pipeline always divides by t,
 * so an unset temperature is 1 (dividing by 1 changes nothing). */
static const sl_logits_default tut_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 1.0, "t = 1 (ApplyTemperature's argument; the tutorial has no default)", NULL, 0},
    {SL_KEY_TOP_K, 1, 0, "FilterTopK not called", NULL, 0},
    {SL_KEY_TOP_P, 1, 0, "FilterTopP not called", NULL, 0},
    {SL_KEY_MIN_P, 1, 0, "FilterMinP not called", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

const sl_logits_pipeline_type sl_logits_pipeline_tutorial_type = {
    .name = "tutorial",
    .summary = "the tutorial of 003_1857ebf1d0eff5ab.txt: /temperature -> top-k (exactly k) -> top-p (cum >= p) -> "
               "min-p (p >= minP*max) -> softmax, float64",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P,
    .run = tut_run,
    .traits = SL_LOGITS_TRAIT_TOP_P_RENORMED,
    .defaults = tut_defaults,
};
