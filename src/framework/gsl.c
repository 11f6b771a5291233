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

static int gsl_fw_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    const sl_vec *v = o->probs;
    if (!v)
        return sl_base_error_set(err, SL_EINVAL, "gsl: needs --probs (gsl_ran_discrete takes weights)");
    int rc = sl_base_vec_check_weights(v, err);
    if (rc)
        return rc;
    unsigned long seed = 0; /* gsl_rng_default_seed */
    if (o->has_seed) {
        if (o->seed.hi)
            return sl_base_error_set(err, SL_EINVAL,
                                "gsl: seed must be below 2^64 (gsl_rng_set takes an unsigned long)");
        seed = (unsigned long)o->seed.lo;
    }
    out->tokens = malloc((o->n ? o->n : 1) * sizeof *out->tokens);
    if (!out->tokens)
        return sl_base_error_set(err, SL_ENOMEM, "gsl: out of memory for %zu draws", o->n);
    sl_rng_gsl_quiet();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_ran_discrete_t *g = r ? gsl_ran_discrete_preproc(v->n, v->d) : NULL;
    if (!r || !g) {
        gsl_rng_free(r);
        sl_fw_result_free(out);
        return sl_base_error_set(err, SL_ENOMEM, "%s: gsl_ran_discrete_preproc failed for V = %zu", v->source, v->n);
    }
    gsl_rng_set(r, seed);
    for (size_t i = 0; i < o->n; i++)
        out->tokens[i] = (long)gsl_ran_discrete(r, g);
    gsl_ran_discrete_free(g);
    gsl_rng_free(r);
    out->n = o->n;
    out->k = 1;
    out->rng_name = "gsl-mt19937";
    out->word_bits = 32;
    out->words = o->n; /* one gsl_rng_uniform per draw */
    return SL_OK;
}

const sl_fw_type sl_fw_gsl_type = {
    .name = "gsl",
    .summary = "GSL 2.7 gsl_ran_discrete (Walker alias) over gsl_rng_mt19937 seeded with S (0 -> 4357)",
    .accepts = SL_OPT_PROBS,
    .run = gsl_fw_run,
};
