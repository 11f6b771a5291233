/* vec.c — the vector every layer passes around, and the weight check every
 * draw shares. Invalid weights are reported, never silently renormalised. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sl_base.h"

int sl_base_vec_alloc(sl_vec *v, size_t n, const char *source, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_base_vec_alloc", v);
    memset(v, 0, sizeof *v);
    snprintf(v->source, sizeof v->source, "%s", source ? source : "");
    v->n = n;
    if (n <= SIZE_MAX / sizeof *v->d) { /* n * 8 must not wrap */
        v->d = malloc((n ? n : 1) * sizeof *v->d);
        v->f = malloc((n ? n : 1) * sizeof *v->f);
    }
    if (!v->d || !v->f) {
        sl_base_vec_free(v);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu entries", source, n);
    }
    return SL_OK;
}

void sl_base_vec_free(sl_vec *v)
{
    if (!v)
        return;
    free(v->d);
    free(v->f);
    v->d = NULL;
    v->f = NULL;
    v->n = 0;
}

int sl_base_vec_check_weights(const sl_vec *v, sl_error *err)
{
    if (v->n == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: empty vector: no weights", v->source);
    int any = 0;
    for (size_t i = 0; i < v->n; i++) {
        double w = v->d[i];
        if (isnan(w))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is NaN", v->source, i);
        if (isinf(w))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is %s", v->source, i,
                                w > 0 ? "infinite" : "-infinite");
        if (w < 0)
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is negative (%.17g)", v->source, i, w);
        any |= w > 0;
    }
    if (!any)
        return sl_base_error_set(err, SL_EINVAL, "%s: all %zu weights are zero", v->source, v->n);
    /* Every finite weight can still sum past DBL_MAX; the methods normalise by the sum. */
    double sum = 0;
    for (size_t i = 0; i < v->n; i++) {
        sum += v->d[i];
        if (isinf(sum))
            return sl_base_error_set(err, SL_EINVAL, "%s: the running sum of the weights overflows at entry %zu", v->source, i);
    }
    return SL_OK;
}
