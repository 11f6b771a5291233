/* exprace.c — the exponential race: argmax over i of p_i / E_i with
 * E_i = -log(1 - U_i) ~ Exp(1), the first index winning ties. Equivalent to
 * the Gumbel-max trick; it is what torch.multinomial(p, 1) does on CPU
 * (ATen multinomial_with_replacement=False path), here in double with the
 * generic 53-bit uniform.
 * Cost: no table (prepare copies p, O(V)); per draw V uniforms and V logs,
 * so 2V words from a 32-bit source (V from a 64-bit one), zeros included.
 * A zero-probability entry can win only through 0/0 = NaN, which never
 * compares greater here (torch's argmax differs: there a NaN wins). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

typedef struct exprace_table {
    size_t V;
    double p[];
} exprace_table;

static int exprace_prepare(void **table, const double *p, size_t V, sl_error *err)
{
    exprace_table *t = malloc(sizeof *t + V * sizeof(double));
    if (!t)
        return sl_error_set(err, SL_ENOMEM, "exprace: out of memory");
    t->V = V;
    memcpy(t->p, p, V * sizeof(double));
    *table = t;
    return SL_OK;
}

static size_t exprace_draw(const void *table, sl_rng *rng)
{
    const exprace_table *t = table;
    size_t best = 0;
    double best_r = -1.0;
    for (size_t i = 0; i < t->V; i++) {
        double e = -log(1.0 - sl_uniform_f64(rng));
        double r = t->p[i] / e;
        if (r > best_r) {
            best_r = r;
            best = i;
        }
    }
    return best;
}

static void exprace_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_exprace_type = {
    .name = "exprace",
    .cost = "prepare O(V) copy; draw O(V): V uniforms and V logs; 2V words (32-bit source)",
    .prepare = exprace_prepare,
    .draw = exprace_draw,
    .free = exprace_free,
};
