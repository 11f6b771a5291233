/* registry.c — the draw methods by name. */
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
