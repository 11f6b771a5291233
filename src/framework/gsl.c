/* gsl.c — the "gsl" framework: GSL 2.7's gsl_ran_discrete over gsl_rng_mt19937,
 * run through GSL itself (not re-implemented): r = gsl_rng_alloc(gsl_rng_mt19937);
 * gsl_rng_set(r, S); g = gsl_ran_discrete_preproc(V, p); N times gsl_ran_discrete(r, g).
 * GSL's mt19937 seeds init_genrand(S mod 2^32) but replaces S == 0 by 4357
 * (tested before the truncation, so S = 2^32 seeds 0); gsl_rng_set takes an
 * unsigned long, so S must be below 2^64. Without --seed this uses GSL's own
 * default, gsl_rng_default_seed = 0 (so 4357).
 * gsl_ran_discrete is Walker's alias method (A. J. Walker, ACM TOMS 3, 1977;
 * GSL randist/discrete.c, table built in O(V), weights normalised by their
 * plain sum) and takes exactly one gsl_rng_uniform = one 32-bit word per draw;
 * tests/test_framework_numpy.c checks that count on the generator's state.
 * Weights are checked first (finite, >= 0, not all zero) so that GSL's error
 * handler never fires.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "framework/sl_fw.h"

/* gsl_ran_discrete calls gsl_rng_uniform(r) on a gsl_rng: this bridge type hands it
 * the session's "gsl:mt19937" words through the counting wrapper, and turns a word
 * into a double as GSL's mt19937 does (mt_get_double: word / 2^32). */
static unsigned long bridge_get(void *state)
{
    return (unsigned long)sl_rng_next(*(sl_rng **)state);
}

static double bridge_get_double(void *state)
{
    return (double)bridge_get(state) / 4294967296.0;
}

static const gsl_rng_type bridge_type = {"samplab-bridge", 0xffffffffUL, 0, sizeof(sl_rng *), NULL, bridge_get,
                                         bridge_get_double};

typedef struct gsl_fw_state {
    gsl_ran_discrete_t *g;
} gsl_fw_state;

static int gsl_fw_open(sl_fw_session *s, sl_error *err)
{
    if (s->o.has_seed && s->o.seed.hi)
        return sl_base_error_set(err, SL_EINVAL, "gsl: seed must be below 2^64 (gsl_rng_set takes an unsigned long)");
    if (!(s->state = calloc(1, sizeof(gsl_fw_state))))
        return sl_base_error_set(err, SL_ENOMEM, "gsl: out of memory");
    return SL_OK;
}

static int gsl_fw_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    gsl_fw_state *st = s->state;
    (void)kept;
    if (v != s->prepared_vec || !st->g) {
        int rc = sl_base_vec_check_weights(v, err);
        if (rc)
            return rc;
        if (st->g)
            gsl_ran_discrete_free(st->g);
        sl_rng_gsl_quiet();
        st->g = gsl_ran_discrete_preproc(v->n, v->d);
        if (!st->g)
            return sl_base_error_set(err, SL_ENOMEM, "%s: gsl_ran_discrete_preproc failed for V = %zu", v->source,
                                     v->n);
    }
    sl_rng *r = &s->rng;
    gsl_rng bridge = {&bridge_type, &r};
    s->tokens[0] = (long)gsl_ran_discrete(&bridge, st->g);
    return SL_OK;
}

static void gsl_fw_close(sl_fw_session *s)
{
    gsl_fw_state *st = s->state;
    if (st && st->g)
        gsl_ran_discrete_free(st->g);
    free(st);
    s->state = NULL;
}

const sl_fw_type sl_fw_gsl_type = {
    .name = "gsl",
    .summary = "GSL 2.7 gsl_ran_discrete (Walker alias) over gsl_rng_mt19937 seeded with S (0 -> 4357)",
    .version = "GSL 2.7.1",
    .accepts = SL_OPT_PROBS,
    .takes_logits = 0,
    .input_why = "gsl_ran_discrete takes weights",
    .rng = "gsl:mt19937",
    .rng_label = "gsl-mt19937",
    .default_seed = 0, /* gsl_rng_default_seed */
    .open = gsl_fw_open,
    .step = gsl_fw_step,
    .probs = sl_fw_probs_of_weights,
    .close = gsl_fw_close,
};
