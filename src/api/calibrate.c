/* calibrate.c — `samplab calibrate` as a call, and the object its --json
 * prints (moved from cli/calibrate.c): gof's chi-square p-value for K seeds of
 * one method, and the Kolmogorov–Smirnov test that the K p-values are
 * Uniform(0,1) (exact distribution, Marsaglia–Tsang–Wang 2003). As TestU01's
 * batteries do (bbattery.c), a KS p-value below 0.001 or above 0.999 is
 * suspect: too good a fit is as suspicious as a bad one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

#define FAIL(...) sl_base_error_set(err, SL_EINVAL, "samplab calibrate: " __VA_ARGS__)

/* The draws of one seed tick the caller's progress with the seeds done, so a
 * progress line keeps counting seeds and Ctrl-C stops within 2^20 draws. */
typedef struct seed_tick {
    const sl_progress *prog;
    uint64_t k, K;
} seed_tick;

static int tick_seed(void *ctx, uint64_t done, uint64_t total)
{
    (void)done;
    (void)total;
    const seed_tick *t = ctx;
    return t->prog->tick(t->prog->ctx, t->k, t->K);
}

int sl_api_calibrate_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                         sl_api_calibrate_result *r, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_calibrate_run", r);
    sl_api_or_defaults(&s, &src);
    memset(r, 0, sizeof *r);
    if (sl_api_settings_check(s, "sl_api_calibrate_run", err))
        return SL_EINVAL;
    const char *rng_name = s->rng ? s->rng : "pcg32";
    size_t n = s->has_n ? s->n : 0, K = s->has_seeds ? s->seeds : 0;
    char e[1024];
    if (!s->method || n == 0 || K == 0)
        return FAIL("%s M, %s N >= 1 and %s K >= 1 are required", SL_API_NAME(METHOD), SL_API_NAME(N), SL_API_NAME(SEEDS));
    if (!(r->dt = sl_draw_lookup(s->method)))
        return FAIL("unknown method '%s' (exprace, cdf, linear, alias, greedy)", sl_base_esc_str(s->method, e, sizeof e));
    if (!(r->rt = sl_rng_lookup(rng_name)))
        return FAIL("unknown random source '%s' (samplab draw --help lists them)", sl_base_esc_str(rng_name, e, sizeof e));
    r->n = n;
    r->K = K;
    if (s->first_seed) {
        if (sl_base_seed_parse(s->first_seed, &r->first, err))
            return sl_api_lib_error_in(err, SL_API_NAME(FIRST_SEED), SL_EINVAL);
        if (r->first.hi)
            return FAIL("%s must be below 2^64", SL_API_NAME(FIRST_SEED));
    }
    sl_api_ref_opts ro;
    int rc = sl_api_ref_from_src(src, is_logits, s, &ro, &r->ref, err);
    if (rc)
        return rc;
    r->loaded = 1;
    const sl_api_ref *ref = &r->ref;
    uint64_t *counts = malloc((ref->v ? ref->v : 1) * sizeof *counts);
    r->pv = malloc(K * sizeof *r->pv);
    if (!counts || !r->pv) {
        free(counts);
        return sl_base_error_set(err, SL_ENOMEM, "samplab calibrate: out of memory");
    }
    sl_stat_cells *cells = &r->cells;
    if ((rc = sl_stat_cells_build(cells, ref->p, ref->v, n, 5.0, err))) {
        free(counts);
        return sl_api_lib_error(err, rc);
    }
    if (cells->ncells < 2) {
        free(counts);
        return FAIL("%s: one chi-square cell at N = %zu, nothing to calibrate", sl_base_esc_str(ref->source, e, sizeof e),
                    n);
    }
    r->df = (double)cells->ncells - 1;
    seed_tick st = {prog, 0, K};
    sl_progress inner = {tick_seed, &st};
    for (size_t k = 0; k < K && !rc; k++) {
        sl_seed seed = r->first;
        seed.lo = r->first.lo + k;
        r->done = k;
        if (seed.lo < r->first.lo) {
            rc = FAIL("seeds wrap past 2^64-1");
            break;
        }
        st.k = k;
        if (prog && prog->tick && prog->tick(prog->ctx, k, K)) {
            rc = sl_base_error_set(err, SL_EINTR, "samplab calibrate: interrupted after %zu seeds", k);
            break;
        }
        if ((rc = sl_api_draw_counts(ref->p, ref->v, r->dt, r->rt, &seed, n, counts, prog && prog->tick ? &inner : NULL,
                                     err))) {
            if (rc != SL_EINTR)
                rc = sl_api_lib_error(err, rc);
            break;
        }
        double chi2, g;
        uint64_t outside;
        if ((rc = sl_stat_chi2_g(cells, counts, &chi2, &g, &outside, err))) {
            rc = sl_api_lib_error(err, rc);
            break;
        }
        r->outside_total += outside;
        /* A draw on a p = 0 token makes the sample fail outright: p-value 0. */
        r->pv[k] = 0.0;
        if (!outside && (rc = sl_stat_chisq_q(chi2, r->df, &r->pv[k], err))) {
            rc = sl_api_lib_error(err, rc);
            break;
        }
        r->lo_tail += r->pv[k] < 0.001;
        r->hi_tail += r->pv[k] > 0.999;
        size_t b = (size_t)(r->pv[k] * SL_API_CAL_BINS);
        r->hist[b >= SL_API_CAL_BINS ? SL_API_CAL_BINS - 1 : b]++;
    }
    free(counts);
    if (rc)
        return rc;
    r->done = K;
    if ((rc = sl_stat_ks_uniform(r->pv, K, &r->D, &r->ksp, err)))
        return sl_api_lib_error(err, rc);
    r->suspect = r->ksp < 0.001 || r->ksp > 0.999;
    return SL_OK;
}

void sl_api_calibrate_result_free(sl_api_calibrate_result *r)
{
    if (!r)
        return;
    sl_stat_cells_free(&r->cells);
    free(r->pv);
    r->pv = NULL;
    if (r->loaded)
        sl_api_ref_free(&r->ref);
    r->loaded = 0;
}

char *sl_api_calibrate_result_json(const sl_api_calibrate_result *r)
{
    if (!r)
        return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "reference", json_string(r->ref.source));
    json_object_set_new(o, "method", json_string(r->dt->name));
    json_object_set_new(o, "rng", json_string(r->rt->name));
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    json_object_set_new(o, "seeds", json_integer((json_int_t)r->K));
    json_object_set_new(o, "first_seed", json_integer((json_int_t)r->first.lo));
    json_object_set_new(o, "cells", json_integer((json_int_t)r->cells.ncells));
    json_t *ks = json_object();
    json_object_set_new(ks, "d", json_real(r->D));
    json_object_set_new(ks, "p", json_real(r->ksp));
    json_object_set_new(o, "ks", ks);
    json_object_set_new(o, "pvalues_below_0.001", json_integer((json_int_t)r->lo_tail));
    json_object_set_new(o, "pvalues_above_0.999", json_integer((json_int_t)r->hi_tail));
    json_object_set_new(o, "outside_support", json_integer((json_int_t)r->outside_total));
    json_t *h = json_array();
    for (int b = 0; b < SL_API_CAL_BINS; b++)
        json_array_append_new(h, json_integer((json_int_t)r->hist[b]));
    json_object_set_new(o, "histogram", h);
    json_t *pa = json_array();
    for (size_t k = 0; k < r->K; k++)
        json_array_append_new(pa, json_real(r->pv[k]));
    json_object_set_new(o, "pvalues", pa);
    json_object_set_new(o, "verdict", json_string(r->suspect ? "SUSPECT" : "PASS"));
    char *str = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    return str;
}

int sl_api_calibrate(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_calibrate", json);
    *json = NULL;
    sl_api_calibrate_result r;
    int rc = sl_api_calibrate_run(src, is_logits, s, NULL, &r, err);
    if (!rc && !(*json = sl_api_calibrate_result_json(&r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab calibrate: out of memory for JSON");
    sl_api_calibrate_result_free(&r);
    return rc;
}
