/* registry.c — the draw methods by name, and the calls every caller makes on a draw type. */
#include <math.h>
#include <string.h>

#include "draw/sl_draw.h"

const sl_draw_type *const sl_draw_types[] = {
    &sl_draw_exprace_type, &sl_draw_cdf_type, &sl_draw_linear_type, &sl_draw_alias_type, &sl_draw_greedy_type, &sl_draw_gumbel_type, NULL,
};

const sl_draw_type *sl_draw_lookup(const char *name)
{
    for (size_t i = 0; name && sl_draw_types[i]; i++)
        if (!strcmp(sl_draw_types[i]->name, name))
            return sl_draw_types[i];
    return NULL;
}

int sl_draw_prepare_dist(const sl_draw_type *t, void **table, const sl_draw_dist *p, sl_error *err)
{
    if (!t)
        return sl_base_error_set(err, SL_EINVAL, "no such draw method (sl_draw_lookup gave NULL)");
    return t->prepare(table, p, t->param, err);
}

int sl_draw_prepare(const sl_draw_type *t, void **table, const double *p, size_t V, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_draw_prepare", table);
    /* The weights a caller hands in directly: the methods index counts by what they
     * draw, so an empty, NaN, negative or all-zero vector would give ids outside
     * 0..V-1 or none at all. A finite sum past DBL_MAX stays allowed: the exact
     * audits report what each method then does (tests/test_stats_exact.c). */
    if (!p || !V)
        return sl_base_error_set(err, SL_EINVAL, "probs: %s", p ? "empty vector: no weights" : "no weights (NULL)");
    int any = 0;
    for (size_t i = 0; i < V; i++) {
        if (isnan(p[i]))
            return sl_base_error_set(err, SL_EINVAL, "probs: entry %zu is NaN", i);
        if (isinf(p[i]))
            return sl_base_error_set(err, SL_EINVAL, "probs: entry %zu is %s", i, p[i] > 0 ? "infinite" : "-infinite");
        if (p[i] < 0)
            return sl_base_error_set(err, SL_EINVAL, "probs: entry %zu is negative (%.17g)", i, p[i]);
        any |= p[i] > 0;
    }
    if (!any)
        return sl_base_error_set(err, SL_EINVAL, "probs: all %zu weights are zero", V);
    sl_draw_dist d = {V, p, NULL, SL_F64, "probs", 0};
    return sl_draw_prepare_dist(t, table, &d, err);
}

int sl_draw_k(const sl_draw_type *t, const void *table, sl_rng *rng, size_t k, long *out, sl_error *err)
{
    if (t->draw_k)
        return t->draw_k(table, rng, k, out, err);
    for (size_t i = 0; i < k; i++)
        out[i] = (long)t->draw(table, rng);
    return SL_OK;
}
