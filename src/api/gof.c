/* gof.c — `samplab gof` as a call, and the object its --json prints (moved
 * from cli/gof.c): the reference, the draws, pooling, chi-square, G, TV
 * against its null, the largest residuals and the verdict with its rule. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

void sl_api_gof_replay(char *replay, size_t size, const sl_api_ref *ref, const sl_api_ref_opts *ro,
                       const sl_draw_type *dt, const sl_rng_type *rt, const sl_seed *seed, size_t n_opt)
{
    char seedbuf[64];
    if (seed->hi)
        snprintf(seedbuf, sizeof seedbuf, "0x%016llx%016llx", (unsigned long long)seed->hi,
                 (unsigned long long)seed->lo);
    else
        snprintf(seedbuf, sizeof seedbuf, "%llu", (unsigned long long)seed->lo);
    char tpart[64] = "";
    if (ref->from_logits && ro->has_temperature)
        snprintf(tpart, sizeof tpart, " --temperature %.17g", ro->temperature);
    /* a .safetensors source needs its tensor and row to replay */
    char spart[400] = "";
    if (ro->tensor)
        snprintf(spart, sizeof spart, " --tensor %s", ro->tensor);
    if (ro->row >= 0)
        snprintf(spart + strlen(spart), sizeof spart - strlen(spart), " --row %ld", ro->row);
    snprintf(replay, size, "samplab draw --%s %s%s%s --method %s --rng %s --seed %s --n %zu --counts",
             ref->from_logits ? "logits" : "probs", ro->probs ? ro->probs : ro->logits, spart, tpart, dt->name,
             rt->name, seedbuf, n_opt);
}

char *sl_api_gof_json(const sl_api_ref *ref, const char *draws_name, const sl_stat_gof_test *t, const char *replay)
{
    json_t *o = json_object();
    json_object_set_new(o, "reference", json_string(ref->source));
    json_object_set_new(o, "draws", draws_name ? json_string(draws_name) : json_null());
    json_object_set_new(o, "n", json_integer((json_int_t)t->g.n));
    json_object_set_new(o, "v", json_integer((json_int_t)ref->v));
    json_object_set_new(o, "support", json_integer((json_int_t)ref->support));
    json_object_set_new(o, "alpha", json_real(t->alpha));
    json_t *pool = json_object();
    json_object_set_new(pool, "rule", json_string(SL_STAT_POOL_RULE));
    json_object_set_new(pool, "cells", json_integer((json_int_t)t->g.ncells));
    json_object_set_new(pool, "pooled_tokens", json_integer((json_int_t)t->g.pooled_tokens));
    json_object_set_new(pool, "pooled_cells", json_integer((json_int_t)t->g.pooled_cells));
    json_object_set_new(o, "pooling", pool);
    json_t *c = json_object();
    json_object_set_new(c, "stat", json_real(t->g.chi2));
    json_object_set_new(c, "df", json_integer(t->g.df));
    json_object_set_new(c, "p", json_real(t->g.chi2_p));
    json_object_set_new(o, "chi2", c);
    json_t *gg = json_object();
    json_object_set_new(gg, "stat", json_real(t->g.g));
    json_object_set_new(gg, "df", json_integer(t->g.df));
    json_object_set_new(gg, "p", json_real(t->g.g_p));
    json_object_set_new(o, "g", gg);
    json_t *tv = json_object();
    json_object_set_new(tv, "value", json_real(t->g.tv));
    json_object_set_new(tv, "null_mean", json_real(t->tv_null_mean));
    json_object_set_new(tv, "null_q99", isnan(t->tv_null_q99) ? json_null() : json_real(t->tv_null_q99));
    json_object_set_new(tv, "null_method", json_string(t->tv_null_method));
    json_object_set_new(o, "tv", tv);
    json_t *md = json_object();
    json_object_set_new(md, "value", json_real(t->g.max_diff));
    json_object_set_new(md, "token", json_integer((json_int_t)t->g.max_diff_token));
    json_object_set_new(o, "max_abs_diff", md);
    json_t *res = json_array();
    for (size_t k = 0; k < t->g.nresid; k++) {
        json_t *r = json_object();
        json_object_set_new(r, "token", json_integer((json_int_t)t->g.resid_token[k]));
        json_object_set_new(r, "count", json_integer((json_int_t)t->g.resid_count[k]));
        json_object_set_new(r, "expected", json_real(t->g.resid_expected[k]));
        json_object_set_new(r, "residual", json_real(t->g.resid[k]));
        json_array_append_new(res, r);
    }
    json_object_set_new(o, "residuals", res);
    json_object_set_new(o, "outside_support", json_integer((json_int_t)t->g.outside));
    json_object_set_new(o, "outside_tokens", json_integer((json_int_t)t->g.outside_tokens));
    json_object_set_new(o, "verdict", json_string(t->fail ? "FAIL" : "PASS"));
    json_object_set_new(o, "rule", json_string(t->rule));
    if (replay)
        json_object_set_new(o, "replay", json_string(replay));
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    return s;
}

/* The command's path; ref (taken over) and ro, when given, are the reference already made. */
static int gof_run(const sl_api_src *src, int is_logits, sl_api_ref *ref_in, const sl_api_ref_opts *ro_in,
                   const uint64_t *counts_in, size_t n_counts, const long *ids, size_t n_ids, const sl_api_settings *s,
                   const sl_progress *prog, sl_api_gof_result *r, sl_error *err)
{
    memset(r, 0, sizeof *r);
    if (ref_in) { /* taken over whatever happens: freed with r */
        r->ref = *ref_in;
        r->ro = *ro_in;
        memset(ref_in, 0, sizeof *ref_in);
    }
    double alpha = s->has_alpha ? s->alpha : 0.01;
    if (!(alpha > 0 && alpha < 1)) {
        if (s->alpha_text)
            return sl_base_error_set(err, SL_EINVAL, "samplab gof: --alpha must be in (0,1), not %s", s->alpha_text);
        return sl_base_error_set(err, SL_EINVAL, "samplab gof: --alpha must be in (0,1), not %g", alpha);
    }
    if (s->has_null_reps && s->null_reps > 1000000) /* the default is at most 2000 (about 0.15 s) */
        return sl_base_error_set(err, SL_EINVAL, "samplab gof: --null-reps must be at most 1000000, not %zu",
                                 s->null_reps);
    int given = (counts_in != NULL) + (ids != NULL) + (s->method != NULL) + (s->draws_file != NULL) +
                (s->counts_file != NULL);
    if (given != 1)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab gof: give exactly one of --draws FILE, --counts FILE, --method M");
    if (s->method && (!s->has_n || s->n == 0))
        return sl_base_error_set(err, SL_EINVAL, "samplab gof: --method needs --n N (N >= 1 draws)");
    if (s->has_n && (uint64_t)s->n > SL_API_MAX_N) /* the command line's cap: 2^64 - 1 draws would run for ever */
        return sl_base_error_set(err, SL_EINVAL, "samplab gof: --n takes at most %llu (10^12), not %zu",
                                 (unsigned long long)SL_API_MAX_N, s->n);
    if (!s->method && (s->has_n || s->seed || (s->rng && strcmp(s->rng, "pcg32"))))
        return sl_base_error_set(err, SL_EINVAL, "samplab gof: --n, --rng and --seed go with --method only");
    const char *rng_name = s->rng ? s->rng : "pcg32";
    if (s->method) {
        if (!(r->dt = sl_draw_lookup(s->method)))
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab gof: unknown method '%s' (exprace, cdf, linear, alias, greedy)",
                                     s->method);
        if (!(r->rt = sl_rng_lookup(rng_name)))
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab gof: unknown random source '%s' (samplab draw --help lists them)",
                                     rng_name);
    }
    sl_seed seed;
    sl_api_settings t0 = *s;
    if (!s->method)
        t0.seed = NULL;
    if (sl_api_seed(&t0, 0, &seed, err))
        return SL_EINVAL;
    int rc = ref_in ? SL_OK : sl_api_ref_from_src(src, is_logits, s, &r->ro, &r->ref, err);
    if (rc)
        return rc;
    const sl_api_ref *ref = &r->ref;
    if (!(r->counts = calloc(ref->v ? ref->v : 1, sizeof *r->counts)))
        return sl_base_error_set(err, SL_ENOMEM, "samplab gof: out of memory for %zu counts", ref->v);
    r->draws_name = counts_in ? "<counts>" : "<draws>";
    if (s->draws_file || s->counts_file) {
        const char *path = s->draws_file ? s->draws_file : s->counts_file;
        rc = s->draws_file ? sl_io_draws_read(path, ref->v, r->counts, &r->n, prog, err)
                           : sl_io_counts_read(path, ref->v, r->counts, &r->n, err);
        if (rc)
            return rc == SL_EINTR ? rc : sl_api_lib_error(err, rc);
        r->draws_name = strcmp(path, "-") ? path : "<stdin>";
    } else if (counts_in) {
        if (n_counts != ref->v)
            return sl_base_error_set(err, SL_EINVAL, "samplab gof: %zu counts for V = %zu tokens", n_counts, ref->v);
        /* the counts file's limit (io/draws.c): past 2^53 the statistics' doubles lose counts */
        for (size_t i = 0; i < ref->v; i++) {
            if (counts_in[i] > SL_IO_MAX_COUNT - r->n)
                return sl_base_error_set(err, SL_EINVAL, "samplab: <counts>: the counts add up past 2^53 (%llu) at "
                                         "token %zu, the most samplab's statistics hold exactly",
                                         (unsigned long long)SL_IO_MAX_COUNT, i);
            r->n += r->counts[i] = counts_in[i];
        }
    } else if (ids) {
        for (size_t i = 0; i < n_ids; i++) {
            if (ids[i] < 0 || (size_t)ids[i] >= ref->v)
                return sl_base_error_set(err, SL_EINVAL, "samplab: <draws>: draw %zu: token %ld is not in 0..%zu", i,
                                         ids[i], ref->v - 1);
            r->counts[ids[i]]++;
        }
        r->n = n_ids;
    } else {
        r->n = s->n;
        r->draws_name = NULL;
        if ((rc = sl_api_draw_counts(ref->p, ref->v, r->dt, r->rt, &seed, r->n, r->counts, prog, err)))
            return rc == SL_EINTR ? rc : sl_api_lib_error(err, rc);
    }
    sl_stat_gof_test *t = &r->t;
    if ((rc = sl_stat_gof_compute(ref->p, r->counts, ref->v, &t->g, err)))
        return sl_api_lib_error(err, rc);
    sl_stat_gof g = t->g;
    if ((rc = sl_stat_gof_tv_null(ref->p, ref->v, ref->support, r->n, s->null_reps, !s->has_null_reps, t, err))) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return sl_base_error_set(err, rc, "samplab gof: TV null simulation failed: %s", why);
    }
    t->g = g;
    t->alpha = alpha;
    t->fail = sl_stat_gof_verdict(&t->g, alpha, t->rule, sizeof t->rule);
    if (s->method)
        sl_api_gof_replay(r->replay, sizeof r->replay, ref, &r->ro, r->dt, r->rt, &seed, s->n);
    return SL_OK;
}

int sl_api_gof_run(const sl_api_src *src, int is_logits, const uint64_t *counts_in, size_t n_counts, const long *ids,
                   size_t n_ids, const sl_api_settings *s, const sl_progress *prog, sl_api_gof_result *r,
                   sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_gof_run", r);
    sl_api_or_defaults(&s, &src);
    memset(r, 0, sizeof *r);
    SL_BASE_NONNULL_N(err, "sl_api_gof_run", counts_in, n_counts);
    SL_BASE_NONNULL_N(err, "sl_api_gof_run", ids, n_ids);
    if (sl_api_settings_check(s, "sl_api_gof_run", err))
        return SL_EINVAL;
    return gof_run(src, is_logits, NULL, NULL, counts_in, n_counts, ids, n_ids, s, prog, r, err);
}

int sl_api_gof_run_ref(sl_api_ref *ref, const sl_api_ref_opts *ro, const uint64_t *counts, size_t n_counts,
                       const sl_api_settings *s, const sl_progress *prog, sl_api_gof_result *r, sl_error *err)
{
    sl_api_or_defaults(&s, NULL);
    return gof_run(NULL, 0, ref, ro, counts, n_counts, NULL, 0, s, prog, r, err);
}

void sl_api_gof_result_free(sl_api_gof_result *r)
{
    if (!r)
        return;
    free(r->counts);
    r->counts = NULL;
    sl_api_ref_free(&r->ref);
}

int sl_api_gof(const sl_api_src *src, int is_logits, const uint64_t *counts_in, size_t n_counts, const long *ids,
               size_t n_ids, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_gof", json);
    *json = NULL;
    sl_api_gof_result r;
    int rc = sl_api_gof_run(src, is_logits, counts_in, n_counts, ids, n_ids, s, NULL, &r, err);
    if (!rc) {
        *json = sl_api_gof_json(&r.ref, r.draws_name, &r.t, r.dt ? r.replay : NULL);
        rc = *json ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab gof: out of memory for JSON");
    }
    sl_api_gof_result_free(&r);
    return rc;
}
