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
