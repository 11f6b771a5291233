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
#include <math.h>
#include <stdio.h>
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
        sl_base_gsl_quiet();
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

/* gsl_rng_uniform must be word / 2^32: the full-range 32-bit generators whose
 * get_double is exactly that (not ranlxd, ranlux, ... with other grids) */
static const char *const gsl_exact_rngs[] = {"gsl:mt19937", "gsl:mt19937_1999", "gsl:mt19937_1998", "gsl:taus",
                                             "gsl:taus2", "gsl:gfsr4", NULL};

const sl_fw_type sl_fw_gsl_type = {
    .name = "gsl",
    .summary = "GSL 2.7 gsl_ran_discrete (Walker alias) over gsl_rng_mt19937 seeded with S (0 -> 4357)",
    .version = "GSL 2.7.1",
    .replacement_why = "gsl_ran_discrete draws each sample on its own (with replacement): GSL has no weighted draw without replacement",
    .accepts = SL_OPT_PROBS,
    .input_why = "gsl_ran_discrete takes weights",
    .rng = "gsl:mt19937",
    .rng_label = "gsl-mt19937",
    .default_seed = 0, /* gsl_rng_default_seed */
    .open = gsl_fw_open,
    .step = gsl_fw_step,
    .probs = sl_fw_probs_of_weights,
    .close = gsl_fw_close,
    .exact = &sl_fw_gsl_exact,
    .exact_rngs = gsl_exact_rngs,
    .exact_rngs_why = "models a generator whose gsl_rng_uniform is w/2^32 (gsl:mt19937, gsl:taus2, gsl:gfsr4, ...)",
};

/* ---------------------------------------------------------------- exact audit
 *
 * The induced distribution of gsl_ran_discrete (GSL 2.7.1, randist/discrete.c,
 * Walker's alias method after Knuth's convention) driven by a 32-bit generator
 * whose gsl_rng_uniform is w / 2^32 (mt19937 and the other full-range 32-bit
 * generators).
 *
 * The table is built by GSL itself (gsl_ran_discrete_preproc) and read from its
 * public struct (K, A, F). One draw: u = w/2^32, c = (size_t)(u*K) in float64,
 * f = F[c] (stored as (c + F)/K), return c if f == 1 or u < f, else A[c]. The
 * bucket is a nondecreasing function of w, so each bucket's range of w follows
 * from a binary search over the 2^32 words; inside it, u < f is a ceiling.
 * Bucket and fraction share the same 32 bits, which is why some buckets give
 * their alias a count off by one from the ideal K-fold split. */

static size_t gsl_bucket(uint64_t w, size_t K)
{
    double u = ldexp((double)w, -32);
    return (size_t)(u * (double)K);
}

static int gsl_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    double s = 0;
    for (size_t i = 0; i < in->V; i++)
        s += in->d[i];
    if (!(s > 0))
        return sl_base_error_set(err, SL_EINVAL, "%s: the weights sum to 0",
                            in->source ? in->source : "weights");
    if (isinf(s))
        return sl_base_error_set(err, SL_EINVAL, "%s: the weights sum to +inf in float64 (GSL's table "
                            "would hold NaN)", in->source ? in->source : "weights");
    if ((rc = sl_stat_exact_result_init(out, in, 32, err)))
        return rc;
    /* The inputs are checked above, so GSL can only fail for want of memory. */
    sl_base_gsl_quiet();
    gsl_ran_discrete_t *g = gsl_ran_discrete_preproc(in->V, in->d);
    if (!g)
        return sl_base_error_set(err, SL_ENOMEM,
                                 "exact audit: gsl_ran_discrete_preproc failed for %zu tokens (out of memory)", in->V);
    size_t K = g->K;
    const uint64_t N = (uint64_t)1 << 32;
    uint64_t lo = 0;
    for (size_t c = 0; c < K; c++) {
        /* hi = first w whose bucket exceeds c */
        uint64_t a = lo, b = N;
        while (a < b) {
            uint64_t mid = a + (b - a) / 2;
            if (gsl_bucket(mid, K) > c)
                b = mid;
            else
                a = mid + 1;
        }
        uint64_t hi = a;
        if (hi > lo) {
            double f = g->F[c];
            uint64_t own;
            if (f == 1.0) {
                own = hi - lo;
            } else {
                double x = ceil(ldexp(f, 32)); /* #{w : w/2^32 < f} */
                uint64_t below = x <= 0 ? 0 : x >= (double)N ? N : (uint64_t)x;
                own = below <= lo ? 0 : below >= hi ? hi - lo : below - lo;
            }
            out->count[c] += own;
            out->count[g->A[c]] += (hi - lo) - own;
        }
        lo = hi;
    }
    out->has_counts = 1;
    gsl_ran_discrete_free(g);
    snprintf(out->note, sizeof out->note,
             "GSL 2.7.1 gsl_ran_discrete (table from gsl_ran_discrete_preproc) with one 32-bit "
             "gsl_rng_uniform per draw, shared between bucket and fraction (Knuth convention)");
    return 0;
}

const sl_stat_exact_type sl_fw_gsl_exact = {
    .name = "gsl",
    .summary = "GSL 2.7 gsl_ran_discrete with a 32-bit generator (u = w/2^32)",
    .run = gsl_exact_run,
};
