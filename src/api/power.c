/* power.c — `samplab power` as a call, and the object its --json prints
 * (moved from cli/power.c): for each fault family of stats/power.c, the
 * smallest fault each test detects with the target power at N draws, by
 * simulation with a fixed seed; --fault mkl-seed-collision is the repeat
 * test's closed form against torch's MKL seed collisions (stats/repeats.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

#define FAIL(...) sl_base_error_set(err, SL_EINVAL, "samplab power: " __VA_ARGS__)

const char *sl_api_power_theta_name(int fault)
{
    switch (fault) {
    case SL_FAULT_SHIFT: return "fraction";
    case SL_FAULT_LEAK: return "mass";
    case SL_FAULT_TOPK: return "k";
    default: return "T-1";
    }
}

/* A level in (0,1), refused with the option's text as typed. */
static int level(const char *opt, int given, double v, const char *text, double *out, sl_error *err)
{
    if (!given)
        return SL_OK;
    if (!(v > 0 && v < 1)) {
        char e[1024], num[32];
        snprintf(num, sizeof num, "%g", v);
        return FAIL("%s must be in (0,1), not %s", opt, sl_base_esc_str(text ? text : num, e, sizeof e));
    }
    *out = v;
    return SL_OK;
}

/* --fault mkl-seed-collision: no simulation, the repeat test's tails in closed form. */
static int power_repeats(const sl_api_src *src, int is_logits, const sl_api_settings *s, sl_api_power_result *r,
                         sl_error *err)
{
    const char *given = (src->spec || src->data) ? (is_logits ? SL_API_NAME(LOGITS) : SL_API_NAME(PROBS))
                        : src->tensor             ? SL_API_NAME(TENSOR)
                        : src->row >= 0           ? SL_API_NAME(ROW)
                        : s->cfg.has_temperature  ? SL_API_NAME(TEMPERATURE)
                        : s->has_trials           ? SL_API_NAME(TRIALS)
                                                  : NULL;
    if (given)
        return FAIL("%s " SL_API_MKL_FAULT " takes no %s (its outcomes are fixed)", SL_API_NAME(FAULT), given);
    r->repeats = 1;
    /* 26! orderings, seen through 64-bit hashes; 2^31 - 2 MCG31m1 starts (x0 = 0 is replaced by 1). */
    double orderings = 1;
    for (int i = 2; i <= 26; i++)
        orderings *= i;
    r->orderings = orderings;
    r->m_null = sl_stat_repeats_hashed_m(orderings);
    r->m_fault = 2147483646.0;
    int rc = sl_stat_repeats_power_n(r->m_null, r->m_fault, r->alpha, r->target, &r->needed, err);
    if (rc)
        return sl_api_lib_error(err, rc);
    r->has_at = s->has_n;
    if (s->has_n && s->n == 0)
        return FAIL("%s must be at least 1", SL_API_NAME(N));
    if (s->has_n && (rc = sl_stat_repeats_power_at(s->n, r->m_null, r->m_fault, r->alpha, &r->at, err)))
        return sl_api_lib_error(err, rc);
    return SL_OK;
}

int sl_api_power_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                     sl_api_power_result *r, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_power_run", r);
    sl_api_or_defaults(&s, &src);
    memset(r, 0, sizeof *r);
    if (sl_api_settings_check(s, "sl_api_power_run", err))
        return SL_EINVAL;
    r->alpha = 0.01;
    r->target = 0.9;
    r->only = -1;
    if (level(SL_API_NAME(ALPHA), s->has_alpha, s->alpha, s->alpha_text, &r->alpha, err) ||
        level(SL_API_NAME(TARGET), s->has_target, s->target, s->target_text, &r->target, err))
        return SL_EINVAL;
    if (s->fault) {
        if (!strcmp(s->fault, SL_API_MKL_FAULT))
            return power_repeats(src, is_logits, s, r, err);
        for (int f = 0; f < SL_FAULT_COUNT; f++)
            if (!strcmp(s->fault, sl_stat_fault_names[f]))
                r->only = f;
        if (r->only < 0) {
            char e[1024];
            return FAIL("unknown %s %s (shift, leak, topk, temper, " SL_API_MKL_FAULT ")", SL_API_NAME(FAULT),
                        sl_base_esc_str(s->fault, e, sizeof e));
        }
    }
    size_t n = s->has_n ? s->n : 0;
    r->n = n;
    r->trials = s->has_trials ? s->trials : 200;
    if (n == 0 || n > UINT32_MAX)
        return FAIL("%s N is required, 1 <= N < 2^32", SL_API_NAME(N));
    if (r->trials == 0 || r->trials > 100000) {
        /* 200 trials take about 35 s at V = 49152: 10^5 are hours, more never ends */
        return FAIL("%s must be between 1 and 100000, not %zu", SL_API_NAME(TRIALS), r->trials);
    }
    sl_api_ref_opts ro;
    int rc = sl_api_ref_from_src(src, is_logits, s, &ro, &r->ref, err);
    if (rc)
        return rc;
    r->loaded = 1;
    const sl_api_ref *ref = &r->ref;
    if ((rc = sl_stat_power_init(&r->s, ref->p, ref->v, n, r->alpha, r->trials, SL_STAT_SIM_SEED, prog, err))) {
        r->simulated = r->s.simulated;
        return rc == SL_EINTR ? rc : sl_api_lib_error(err, rc);
    }
    r->inited = 1;
    double *q = malloc((ref->v ? ref->v : 1) * sizeof *q);
    if (!q)
        return sl_base_error_set(err, SL_ENOMEM, "samplab power: out of memory");
    for (int f = 0; f < SL_FAULT_COUNT && !rc; f++) {
        sl_api_power_family *fam = &r->fam[f];
        if (r->only >= 0 && f != r->only)
            continue;
        fam->run = 1;
        /* Does the family apply to this p at all? */
        double probe = f == SL_FAULT_TOPK ? 1.0 : 0.5;
        sl_error why;
        if (sl_stat_fault_apply((sl_fault)f, ref->p, ref->v, probe, q, &why)) {
            snprintf(fam->why, sizeof fam->why, "%s", why.msg);
            continue;
        }
        fam->applies = 1;
        for (int t = 0; t < SL_TEST_COUNT && !rc; t++)
            rc = sl_stat_power_detect(&r->s, (sl_fault)f, t, r->target, &fam->detect[t], err);
        if (f != SL_FAULT_TEMPER)
            continue;
        static const double Ts[2] = {1.05, 0.95};
        for (int k = 0; k < 2 && !rc; k++) {
            fam->at_t[k] = Ts[k];
            if ((rc = sl_stat_fault_apply(SL_FAULT_TEMPER, ref->p, ref->v, Ts[k] - 1, q, err)) ||
                (rc = sl_stat_power_eval(&r->s, q, fam->at_power[k], err)))
                break;
            fam->at_tv[k] = sl_stat_tv_dist(ref->p, q, ref->v);
        }
    }
    free(q);
    r->simulated = r->s.simulated;
    if (rc && rc != SL_EINTR) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        sl_base_error_set(err, SL_EINVAL, "samplab power: %s", m);
        return SL_EINVAL;
    }
    return rc;
}

void sl_api_power_result_free(sl_api_power_result *r)
{
    if (!r)
        return;
    if (r->inited)
        sl_stat_power_free(&r->s);
    if (r->loaded)
        sl_api_ref_free(&r->ref);
    r->inited = r->loaded = 0;
}

static char *dump(json_t *root)
{
    char *str = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(root);
    return str;
}

static char *repeats_json(const sl_api_power_result *r)
{
    json_t *root = json_object();
    json_object_set_new(root, "fault", json_string(SL_API_MKL_FAULT));
    json_object_set_new(root, "summary", json_string(SL_API_MKL_FAULT_SUMMARY));
    json_object_set_new(root, "test", json_string("repeats"));
    json_object_set_new(root, "m", json_real(r->orderings));
    json_object_set_new(root, "m_null", json_real(r->m_null));
    json_object_set_new(root, "m_fault", json_real(r->m_fault));
    json_object_set_new(root, "alpha", json_real(r->alpha));
    json_object_set_new(root, "target_power", json_real(r->target));
    const sl_stat_repeats_power *rows[2] = {&r->needed, r->has_at ? &r->at : NULL};
    for (int k = 0; k < 2; k++) {
        const sl_stat_repeats_power *x = rows[k];
        if (!x)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "n", json_integer((json_int_t)x->n));
        json_object_set_new(o, "reject_at_repeats", json_integer((json_int_t)x->r_crit));
        json_object_set_new(o, "size", json_real(x->size));
        json_object_set_new(o, "power", json_real(x->power));
        json_object_set_new(o, "expected_repeats_fault", json_real(x->mean_fault));
        json_object_set_new(o, "expected_repeats_null", json_real(sl_stat_repeats_mean(x->n, r->orderings)));
        json_object_set_new(o, "expected_repeats_null_hashed", json_real(x->mean_null));
        json_object_set_new(o, "exact", json_boolean(x->exact));
        json_object_set_new(root, k ? "at_n" : "needed", o);
    }
    return dump(root);
}

char *sl_api_power_result_json(const sl_api_power_result *r)
{
    if (!r)
        return NULL;
    if (r->repeats)
        return repeats_json(r);
    const sl_api_ref *ref = &r->ref;
    json_t *root = json_object(), *fams = json_object();
    json_object_set_new(root, "reference", json_string(ref->source));
    json_object_set_new(root, "n", json_integer((json_int_t)r->n));
    json_object_set_new(root, "v", json_integer((json_int_t)ref->v));
    json_object_set_new(root, "support", json_integer((json_int_t)ref->support));
    json_object_set_new(root, "alpha", json_real(r->alpha));
    json_object_set_new(root, "target_power", json_real(r->target));
    json_object_set_new(root, "trials", json_integer((json_int_t)r->trials));
    json_object_set_new(root, "tv_critical", json_real(r->s.tv_crit));
    json_object_set_new(root, "simulation", json_string(SL_STAT_SIM_RNG));
    json_object_set_new(root, "seed", json_integer((json_int_t)SL_STAT_SIM_SEED));
    for (int f = 0; f < SL_FAULT_COUNT; f++) {
        const sl_api_power_family *fam = &r->fam[f];
        if (!fam->run)
            continue;
        json_t *fo = json_object();
        if (!fam->applies) {
            json_object_set_new(fo, "applies", json_false());
            json_object_set_new(fo, "why", json_string(fam->why));
            json_object_set_new(fams, sl_stat_fault_names[f], fo);
            continue;
        }
        json_t *tests = json_object();
        for (int t = 0; t < SL_TEST_COUNT; t++) {
            const sl_stat_detect *d = &fam->detect[t];
            json_t *o = json_object();
            json_object_set_new(o, "detected", json_boolean(d->found));
            json_object_set_new(o, "theta", json_real(d->theta));
            json_object_set_new(o, "tv", json_real(d->tv));
            json_object_set_new(o, "power", json_real(d->power));
            json_object_set_new(tests, sl_stat_test_names[t], o);
        }
        json_object_set_new(fo, "applies", json_true());
        json_object_set_new(fo, "summary", json_string(sl_stat_fault_summaries[f]));
        json_object_set_new(fo, "parameter", json_string(sl_api_power_theta_name(f)));
        json_object_set_new(fo, "smallest", tests);
        if (f == SL_FAULT_TEMPER) {
            json_t *at = json_array();
            for (int k = 0; k < 2; k++) {
                json_t *o = json_object();
                json_object_set_new(o, "temperature", json_real(fam->at_t[k]));
                json_object_set_new(o, "tv", json_real(fam->at_tv[k]));
                for (int t = 0; t < SL_TEST_COUNT; t++)
                    json_object_set_new(o, sl_stat_test_names[t], json_real(fam->at_power[k][t]));
                json_array_append_new(at, o);
            }
            json_object_set_new(fo, "at", at);
        }
        json_object_set_new(fams, sl_stat_fault_names[f], fo);
    }
    json_object_set_new(root, "faults", fams);
    return dump(root);
}

int sl_api_power(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_power", json);
    *json = NULL;
    sl_api_power_result r;
    int rc = sl_api_power_run(src, is_logits, s, NULL, &r, err);
    if (!rc && !(*json = sl_api_power_result_json(&r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab power: out of memory");
    sl_api_power_result_free(&r);
    return rc;
}
