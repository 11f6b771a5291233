/* pipeline.c — the table of framework pipelines `samplab pipeline` and
 * `samplab compare` know, and what every pipeline shares: checking the
 * context ids, allocating and freeing the result, Python-style float text. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

const sl_logits_pipeline_type *const sl_logits_pipeline_types[] = {
    &sl_logits_pipeline_hf_type,
    &sl_logits_pipeline_candle_type,
    &sl_logits_pipeline_llamacpp_type,
    &sl_logits_pipeline_vllm_type,
    &sl_logits_pipeline_tutorial_type,
    &sl_logits_pipeline_ollama_type,
    &sl_logits_pipeline_nlc_type,
    &sl_logits_pipeline_tgi_type,
    &sl_logits_pipeline_sglang_type,
    &sl_logits_pipeline_tjs_type,
    NULL
};

const sl_logits_pipeline_type *sl_logits_pipeline_lookup(const char *name)
{
    for (size_t i = 0; name && sl_logits_pipeline_types[i]; i++)
        if (!strcmp(sl_logits_pipeline_types[i]->name, name))
            return sl_logits_pipeline_types[i];
    return NULL;
}

int sl_logits_result_alloc(sl_logits_result *r, size_t V, sl_error *err)
{
    memset(r, 0, sizeof *r);
    r->V = V;
    r->probs = calloc(V ? V : 1, sizeof *r->probs);
    r->kept = calloc(V ? V : 1, 1);
    if (!r->probs || !r->kept) {
        sl_logits_result_free(r);
        return sl_base_error_set(err, SL_ENOMEM, "pipeline: out of memory for %zu probabilities", V);
    }
    return SL_OK;
}

int sl_logits_result_alloc_raw(sl_logits_result *r, size_t V, sl_logits_work *w, sl_error *err)
{
    memset(r, 0, sizeof *r);
    r->V = V;
    int ok = V <= SIZE_MAX / sizeof *r->probs;
    if (ok && w) { /* the scratch's: valid until the next run with w */
        r->probs = sl_logits_work_buf(w, 8, (V ? V : 1) * sizeof *r->probs);
        r->kept = sl_logits_work_buf(w, 9, V ? V : 1);
        r->borrowed = 1;
    } else if (ok) {
        r->probs = malloc((V ? V : 1) * sizeof *r->probs);
        r->kept = malloc(V ? V : 1);
    }
    if (!r->probs || !r->kept) {
        sl_logits_result_free(r);
        return sl_base_error_set(err, SL_ENOMEM, "pipeline: out of memory for %zu probabilities", V);
    }
    return SL_OK;
}

#define WORK_SLOTS 10

struct sl_logits_work {
    void *buf[WORK_SLOTS];
    size_t cap[WORK_SLOTS];
};

sl_logits_work *sl_logits_work_new(void)
{
    return calloc(1, sizeof(sl_logits_work));
}

void sl_logits_work_free(sl_logits_work *w)
{
    if (!w)
        return;
    for (int i = 0; i < WORK_SLOTS; i++)
        free(w->buf[i]);
    free(w);
}

void *sl_logits_work_buf(sl_logits_work *w, int slot, size_t bytes)
{
    if (slot < 0 || slot >= WORK_SLOTS)
        return NULL;
    if (bytes > w->cap[slot] || !w->buf[slot]) {
        free(w->buf[slot]);
        w->buf[slot] = malloc(bytes ? bytes : 1);
        w->cap[slot] = w->buf[slot] ? bytes : 0;
    }
    return w->buf[slot];
}

void sl_logits_result_free(sl_logits_result *r)
{
    if (!r)
        return;
    if (!r->borrowed) {
        free(r->probs);
        free(r->kept);
    }
    r->borrowed = 0;
    free(r->cand);
    r->probs = NULL;
    r->kept = NULL;
    r->cand = NULL;
}

void sl_logits_step(sl_logits_result *r, const char *name)
{
    if (r->n_steps < sizeof r->steps / sizeof r->steps[0])
        r->steps[r->n_steps++] = name;
}

void sl_logits_pyrepr(double x, char *buf, size_t len)
{
    if (isnan(x)) {
        snprintf(buf, len, "nan");
        return;
    }
    if (isinf(x)) {
        snprintf(buf, len, x > 0 ? "inf" : "-inf");
        return;
    }
    /* shortest digits that round-trip, as repr does */
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    if (!strpbrk(buf, ".en")) {
        size_t n = strlen(buf);
        if (n + 2 < len)
            memcpy(buf + n, ".0", 3);
    }
}

int sl_logits_pipeline_run(const sl_logits_pipeline_type *t, const sl_vec *v, const sl_logits_cfg *cfg,
                    sl_logits_result *out, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_logits_pipeline_run", out);
    memset(out, 0, sizeof *out);
    SL_BASE_NONNULL(err, "sl_logits_pipeline_run", t);
    SL_BASE_NONNULL(err, "sl_logits_pipeline_run", v);
    SL_BASE_NONNULL_N(err, "sl_logits_pipeline_run", v->d, v->n);
    if (sl_logits_cfg_check(cfg, "sl_logits_pipeline_run", err))
        return SL_EINVAL;
    if (v->n == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no logits", v->source);
    /* one vector pass for the common case; the loops below name what is wrong */
    int clean = sl_logits_row_clean(v->d, v->f, v->n);
    for (size_t i = 0; !clean && i < v->n; i++) {
        if (isnan(v->d[i]))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is NaN", v->source, i);
        if (v->d[i] == INFINITY)
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is +infinity", v->source, i);
        if (v->f && v->f[i] == INFINITY) /* the float32 pipelines read f */
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu overflows float32", v->source, i);
    }
    size_t finite = clean;
    for (size_t i = 0; !clean && i < v->n; i++)
        finite += v->d[i] != -INFINITY;
    if (!finite)
        return sl_base_error_set(err, SL_EINVAL, "%s: all %zu logits are -infinity", v->source, v->n);
    for (size_t i = 0; i < cfg->context_n; i++)
        if (cfg->context[i] < 0 || (size_t)cfg->context[i] >= v->n)
            return sl_base_error_set(err, SL_EINVAL, "context: id %ld at position %zu is outside [0, %zu)",
                                cfg->context[i], i, v->n);
    sl_logits_cfg c = *cfg; /* the settings in force: the framework's defaults for what cfg leaves unset */
    sl_logits_cfg_resolve(t, &c, NULL);
    int rc = t->run(v->f, v->d, v->n, &c, out, err);
    if (rc)
        return rc;
    /* the framework's own arithmetic can overflow (a logit / a tiny
     * temperature is inf in float32, inf - inf is NaN): report, never print NaN */
    size_t i = out->nan_free ? out->V : sl_logits_first_nan_f64(out->probs, out->V);
    if (i < out->V) {
        sl_logits_result_free(out);
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: %s gives NaN for id %zu: a scaled logit overflows %s (the framework's own "
                                 "sampler would fail too)",
                                 v->source, t->name, i, out->precision == 32 ? "float32" : "float64");
    }
    return SL_OK;
}
