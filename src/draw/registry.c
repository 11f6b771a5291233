/* registry.c — the draw methods by name, and the calls every caller makes on a draw type. */
#include <string.h>

#include "draw/sl_draw.h"

const sl_draw_type *const sl_draw_types[] = {
    &sl_draw_exprace_type, &sl_draw_cdf_type, &sl_draw_linear_type, &sl_draw_alias_type, &sl_draw_greedy_type, NULL,
};

const sl_draw_type *sl_draw_lookup(const char *name)
{
    for (size_t i = 0; sl_draw_types[i]; i++)
        if (!strcmp(sl_draw_types[i]->name, name))
            return sl_draw_types[i];
    return NULL;
}

int sl_draw_prepare_dist(const sl_draw_type *t, void **table, const sl_draw_dist *p, sl_error *err)
{
    return t->prepare(table, p, t->param, err);
}

int sl_draw_prepare(const sl_draw_type *t, void **table, const double *p, size_t V, sl_error *err)
{
    sl_draw_dist d = {V, p, NULL, SL_F64, "probs"};
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
