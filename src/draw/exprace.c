/* exprace.c — the generic exponential race method: argmax over i of p_i / E_i,
 * E_i = -log(1 - U_i) ~ Exp(1), with the portable 53-bit uniform (genrand_res53
 * from two 32-bit words, the high 53 bits of one 64-bit word), in double, the
 * first index winning ties and a NaN ratio (0/0) never winning. Over mt19937 it
 * is NumPy's np.random.seed(S); np.argmax(p / -np.log(1 - random_sample(V)))
 * (data/golden/exprace_numpy.txt). The race itself is draw/race.c's, shared with
 * torch.multinomial.
 * Cost: prepare copies p and its float bounds, O(V); a draw takes V uniforms
 * (2V words from a 32-bit source, V from a 64-bit one), zeros included, and few logs. */
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

static const sl_draw_race_rule generic_rule = {SL_RACE_U_RES53, 0, 0};

typedef struct exprace_table {
    sl_draw_race race;
    double p[];
} exprace_table;

static int exprace_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    (void)param;
    size_t V = dist->V;
    exprace_table *t = malloc(sizeof *t + (V ? V : 1) * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "exprace: out of memory");
    memcpy(t->p, dist->d, V * sizeof(double));
    sl_draw_dist d = {V, t->p, NULL, SL_F64, dist->source, 0};
    int rc = sl_draw_race_init(&t->race, &d, &generic_rule, SL_SIMD_AUTO, err);
    if (rc) {
        free(t);
        return rc;
    }
    *table = t;
    return SL_OK;
}

size_t sl_draw_exprace_reference(const double *p, size_t V, sl_rng *rng)
{
    /* the naive race reads no bounds */
    sl_draw_race r = {V, SL_F64, NULL, p, NULL, generic_rule, SL_SIMD_SCALAR};
    return sl_draw_race_one_naive(&r, rng);
}

static size_t exprace_draw(const void *table, sl_rng *rng)
{
    return sl_draw_race_one(&((const exprace_table *)table)->race, rng);
}

static void exprace_free(void *table)
{
    exprace_table *t = table;
    if (t)
        sl_draw_race_free(&t->race);
    free(t);
}

const sl_draw_type sl_draw_exprace_type = {
    .name = "exprace",
    .cost = "prepare O(V) copy; draw O(V): V uniforms, few logs; 2V words (32-bit source)",
    .prepare = exprace_prepare,
    .draw = exprace_draw,
    .free = exprace_free,
};
