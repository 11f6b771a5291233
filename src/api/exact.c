/* exact.c — `samplab exact` as a call, and the object its --json prints
 * (moved from cli/exact.c): the induced distribution as exact rationals, its
 * TV from the ideal, never-drawn and wrongly drawable tokens, failure paths. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

double sl_api_per_billion(double p)
{
    if (p >= 1)
        return 1;
    return -expm1(1e9 * log1p(-p));
}

static json_t *json_ids(const size_t *ids, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)ids[i]));
    return a;
}

/* exact audits the final draw on softmax(logits / T), no framework stage: its
 * one setting is that T, exact's own (1 when not given), not a framework's. */
static const sl_logits_default exact_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 1.0, "exact's softmax(logits / T): T = 1 (no framework stage runs)", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};
static const sl_logits_pipeline_type exact_softmax = {
    .name = "exact",
    .summary = "the softmax exact takes of --logits",
    .accepts = SL_OPT_TEMPERATURE,
    .defaults = exact_defaults,
};

char *sl_api_exact_json(const sl_api_exact_audit *a)
{
    const sl_stat_exact_result *r = &a->res;
    const sl_stat_exact_type *t = a->t;
    const sl_vec *vec = &a->vec;
    const sl_logits_cfg *given = a->from_logits ? &a->given : NULL;
    json_t *o = json_object();
    char rat[96];
    json_object_set_new(o, "sampler", json_string(t->name));
    json_object_set_new(o, "source", json_string(vec->source));
    json_object_set_new(o, "V", json_integer((json_int_t)r->V));
    json_object_set_new(o, "model", json_string(r->note));
    json_object_set_new(o, "always_fails", json_boolean(r->always_fails));
    json_object_set_new(o, "exact", json_boolean(r->has_counts && !r->always_fails));
    if (r->has_counts && !r->always_fails) {
        json_object_set_new(o, "bits", json_integer(r->bits));
        json_object_set_new(o, "tv", json_real(r->tv));
    }
    json_object_set_new(o, "tv_bound", json_real(r->always_fails ? 1.0 : r->tv_bound));
    if (r->worst >= 0) {
        json_t *w = json_object();
        json_object_set_new(w, "token", json_integer(r->worst));
        json_object_set_new(w, "relative_error", json_real(r->worst_rel));
        json_object_set_new(o, "worst", w);
    }
    json_object_set_new(o, "never", json_ids(r->never, r->n_never));
    json_object_set_new(o, "zero_drawn", json_ids(r->zero_drawn, r->n_zero_drawn));
    json_t *paths = json_array();
    for (size_t i = 0; i < r->n_paths; i++) {
        const sl_stat_exact_path *p = &r->paths[i];
        json_t *po = json_object();
        json_object_set_new(po, "name", json_string(p->name));
        json_object_set_new(po, "what", json_string(p->what));
        json_object_set_new(po, "per_call", json_real(p->prob));
        json_object_set_new(po, "per_1e9_calls", json_real(sl_api_per_billion(p->prob)));
        json_object_set_new(po, "exact", json_boolean(p->exact));
        if (p->has_rational) {
            sl_stat_exact_rational_format(p->num, p->bits, rat, sizeof rat);
            json_object_set_new(po, "rational", json_string(rat));
        }
        if (p->token >= 0)
            json_object_set_new(po, "token", json_integer(p->token));
        json_array_append_new(paths, po);
    }
    json_object_set_new(o, "paths", paths);
    if (given)
        sl_api_settings_echo(o, &exact_softmax, given);
    json_t *ideal = json_array(), *induced = json_array();
    for (size_t i = 0; i < r->V; i++) {
        json_array_append_new(ideal, json_real(r->ideal[i]));
        if (r->has_counts && !r->always_fails) {
            sl_stat_exact_rational_format(r->count[i], r->bits, rat, sizeof rat);
            json_array_append_new(induced, json_string(rat));
        }
    }
    json_object_set_new(o, "ideal", ideal);
    if (r->has_counts && !r->always_fails)
        json_object_set_new(o, "induced", induced);
    else
        json_decref(induced);
    char *s = sl_api_json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    return s;
}

void sl_api_exact_audit_free(sl_api_exact_audit *a)
{
    if (!a)
        return;
    sl_stat_exact_result_free(&a->res);
    sl_base_vec_free(&a->vec);
    memset(a, 0, sizeof *a);
}

/* The options a framework's audit can depend on, as its type takes them;
 * --num-samples only where the audit follows the settings (exact_for). The
 * source kind and --temperature are exact's own (it takes the softmax). */
static unsigned audit_takes(const sl_fw_type *ft)
{
    unsigned own = SL_OPT_LOGITS | SL_OPT_PROBS | SL_OPT_TEMPERATURE;
    if (!ft)
        return own;
    return own | (ft->accepts & (SL_OPT_REPLACEMENT | SL_OPT_DTYPE | SL_OPT_VARIANT | SL_OPT_RAND_VERSION |
                                 SL_OPT_OLLAMA_VERSION |
                                 (ft->exact_for ? SL_OPT_NUM_SAMPLES : 0)));
}

int sl_api_exact_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, sl_api_exact_audit *a,
                     sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_exact_run", a);
    sl_api_or_defaults(&s, &src);
    memset(a, 0, sizeof *a);
    if (sl_api_settings_check(s, "sl_api_exact_run", err))
        return SL_EINVAL;
    const char *method = s->method, *framework = s->framework;
    const char *rng_name = s->rng, *dtype_text = s->dtype;
    int has_t = s->cfg.has_temperature;
    double temperature = has_t ? s->cfg.temperature : 1.0;
    size_t k = s->has_num_samples ? s->num_samples : 1;
    if (!!method == !!framework)
        return sl_base_error_set(err, SL_EINVAL, "samplab exact: give exactly one of --framework F and --method M");
    /* neither source or both (the command line's sl_cli_src_from gives no spec for both) */
    if (!src->spec && !src->data)
        return sl_base_error_set(err, SL_EINVAL, "samplab exact: give exactly one of --probs SRC and --logits SRC");
    if (has_t && !is_logits)
        return sl_base_error_set(err, SL_EINVAL, "samplab exact: --temperature applies to --logits only");
    if (has_t && !(temperature > 0)) {
        /* softmax's own message points to --method greedy, which has nothing to count */
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab exact: --temperature %g: at T <= 0 the frameworks take the argmax or "
                                 "refuse, nothing random to count (samplab pipeline --temperature 0 shows which token)",
                                 temperature);
    }
    const sl_stat_exact_type *t = NULL;
    const char *name = framework ? framework : method;
    if (framework) {
        const sl_fw_type *ft = sl_fw_lookup(framework);
        if (ft) {
            const char *bad = sl_api_refused(s, is_logits, audit_takes(ft));
            char why[512];
            if (bad)
                return sl_base_error_set(err, SL_EINVAL, "samplab exact: %s",
                                         sl_api_not_taken(bad, framework, why, sizeof why));
            sl_fw_opts fo;
            memset(&fo, 0, sizeof fo);
            fo.replacement = s->replacement ? SL_FW_REPLACEMENT_YES : s->no_replacement ? SL_FW_REPLACEMENT_NO
                                                                    : SL_FW_REPLACEMENT_DEFAULT;
            fo.k = k;
            /* the release line the framework names (--torch for torch, --rand for candle) */
            int rand = ft->variant_bit == SL_OPT_RAND_VERSION, oll = ft->variant_bit == SL_OPT_OLLAMA_VERSION;
            fo.variant = rand ? s->rand : oll ? s->ollama : s->torch;
            fo.variant_opt = sl_api_options[rand ? SL_API_OPT_RAND : oll ? SL_API_OPT_OLLAMA : SL_API_OPT_TORCH].name;
            if (oll && !s->ollama)
                return sl_base_error_set(err, SL_EINVAL, "samplab exact: " SL_FW_OLLAMA_NEEDS_LINE);
            const sl_fw_variant *var;
            sl_error verr;
            if (sl_fw_variant_find(ft, fo.variant, fo.variant_opt, &var, &verr))
                return sl_base_error_set(err, SL_EINVAL, "samplab exact: %s", verr.msg);
            if (k == 0)
                return sl_base_error_set(err, SL_EINVAL, "samplab exact: --num-samples must be at least 1");
            if (s->replacement && s->no_replacement)
                return sl_base_error_set(err, SL_EINVAL, "samplab exact: %s and %s: give one of them",
                                         SL_API_NAME(REPLACEMENT), SL_API_NAME(NO_REPLACEMENT));
            if (k > 1 && !sl_fw_replacement(ft, &fo))
                return sl_base_error_set(err, SL_EINVAL,
                                         "samplab exact: --num-samples %zu without --replacement is torch.topk of the "
                                         "race's ratios, which is not audited (the race audit covers one sample a call)",
                                         k);
            /* --ollama 0.30 and 0.32 draw with llama-server's dist sampler (sl_fw_lookup_as) */
            const sl_fw_type *run = oll ? sl_fw_lookup_as(framework, s->ollama) : ft;
            t = run->exact_for ? run->exact_for(&fo) : run->exact;
            if (!t) /* a framework samplab has, whose draw this command does not count */
                return sl_base_error_set(err, SL_EINVAL,
                                         "samplab exact: framework %s: its draw has no exact audit in samplab (not "
                                         "modelled by samplab exact; samplab exact --help lists the frameworks it "
                                         "audits)",
                                         ft->name);
        }
    } else {
        const sl_draw_type *dt = sl_draw_lookup(method);
        if (dt && dt->exact)
            t = dt->exact;
        else if (dt)
            return sl_base_error_set(err, SL_EINVAL, "samplab exact: method %s is not audited exactly (cdf, alias, "
                                     "linear are; for the exponential race see --framework torch)", method);
        const char *bad = dt ? sl_api_refused(s, is_logits, audit_takes(NULL)) : NULL;
        if (bad)
            return sl_base_error_set(err, SL_EINVAL, "samplab exact: %s is not an option of method %s", bad, method);
        if (!rng_name)
            rng_name = "pcg32";
        const sl_rng_type *rt = sl_rng_lookup(rng_name);
        if (!rt)
            return sl_base_error_set(err, SL_EINVAL, "samplab exact: unknown random source '%s'", rng_name);
        if (rt->word_bits != 32 && rt->word_bits != 64)
            return sl_base_error_set(err, SL_EINVAL, "samplab exact: %s has %u-bit words; only 32- and 64-bit "
                                     "sources give the 53-bit uniform grid audited here", rt->name, rt->word_bits);
    }
    const sl_fw_type *fwt = framework ? sl_fw_lookup(framework) : NULL;
    if (fwt && fwt->exact_rngs && rng_name) {
        /* the generators the framework's audit models */
        const char *const *ok = fwt->exact_rngs;
        size_t i = 0;
        while (ok[i] && strcmp(ok[i], rng_name))
            i++;
        if (!ok[i])
            return sl_base_error_set(err, SL_EINVAL, "samplab exact: --framework %s %s, not '%s'", fwt->name,
                                     fwt->exact_rngs_why, rng_name);
    } else if (framework && rng_name) {
        return sl_base_error_set(err, SL_EINVAL, "samplab exact: --rng is not an option of framework %s (it fixes "
                                 "its own source)", framework);
    }
    if (!t)
        return sl_base_error_set(err, SL_EINVAL, "samplab exact: unknown %s '%s' (samplab exact --help)",
                                 framework ? "framework" : "method", name);
    if ((t->input & SL_STAT_EXACT_OWN_SOFTMAX) && !is_logits)
        return sl_base_error_set(err, SL_EINVAL, "samplab exact: %s takes --logits (it computes its own softmax)",
                                 t->sampler);
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    sl_fw_opts dt; /* --dtype, read as draw reads it */
    memset(&dt, 0, sizeof dt);
    if (sl_api_fw_dtype("exact", dtype_text, &dt, err))
        return SL_EINVAL;
    if (sl_api_vec_read(src, &a->vec, err))
        return sl_api_lib_error(err, SL_EINVAL);
    const sl_vec *vec = &a->vec;
    in.V = vec->n;
    in.d = vec->d;
    in.f = vec->f;
    in.source = vec->source;
    /* a binary source keeps its own dtype; text gets the framework's default
     * (torch.tensor(list) is float32, np.array(list) float64) */
    in.dtype = vec->own_dtype ? vec->dtype : (t->input & SL_STAT_EXACT_TEXT_F32) ? SL_F32 : SL_F64;
    if (dt.dtype_set)
        in.dtype = dt.dtype;
    double *pd = NULL;
    float *pf = NULL, *lg = NULL;
    int rc = SL_ENOMEM;
    if (is_logits) {
        pd = malloc(vec->n * sizeof *pd);
        pf = malloc(vec->n * sizeof *pf);
        if (!pd || !pf) {
            sl_base_error_set(err, SL_ENOMEM, "samplab exact: out of memory");
            goto out;
        }
        if ((rc = sl_logits_softmax(vec->d, vec->n, temperature, pd, err))) {
            rc = sl_api_lib_error_in(err, vec->source, SL_EINVAL);
            goto out;
        }
        if (t->input & SL_STAT_EXACT_CANDLE_F32) {
            if ((rc = sl_logits_candle_check(vec->f, vec->n, err))) {
                rc = sl_api_lib_error_in(err, vec->source, SL_EINVAL);
                goto out;
            }
            sl_logits_candle_softmax(vec->f, vec->n, temperature, 0, pf); /* candle's own, sequential sum */
        } else {
            for (size_t i = 0; i < vec->n; i++)
                pf[i] = (float)pd[i];
        }
        in.d = pd;
        in.f = pf;
        if (t->input & SL_STAT_EXACT_OWN_SOFTMAX) {
            /* the sampler's temperature: logit / T in float32 (T at least its floor) */
            float ft = t->t_floor > 0 && (float)temperature < t->t_floor ? t->t_floor : (float)temperature;
            lg = malloc(vec->n * sizeof *lg);
            if (!lg) {
                rc = sl_base_error_set(err, SL_ENOMEM, "samplab exact: out of memory");
                goto out;
            }
            for (size_t i = 0; i < vec->n; i++)
                lg[i] = has_t ? vec->f[i] / ft : vec->f[i];
            in.logits_f = lg;
        }
    }
    if ((rc = sl_stat_exact_run(t, &in, &a->res, err))) {
        sl_api_lib_error(err, rc);
    } else {
        a->t = t;
        a->from_logits = is_logits;
        a->given.has_temperature = has_t;
        a->given.temperature = s->cfg.temperature;
    }
out:
    free(pd);
    free(pf);
    free(lg);
    if (rc)
        sl_base_vec_free(&a->vec);
    return rc;
}

int sl_api_exact(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_exact", json);
    *json = NULL;
    sl_api_exact_audit a;
    int rc = sl_api_exact_run(src, is_logits, s, &a, err);
    if (rc)
        return rc;
    *json = sl_api_exact_json(&a);
    rc = *json ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab exact: out of memory for JSON");
    sl_api_exact_audit_free(&a);
    return rc;
}
