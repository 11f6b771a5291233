/* check.c — `samplab check` as calls, and the objects its --json prints. With a
 * seed: the seeded sampler replayed over the observed history until its token
 * differs (moved from cli/check.c). Errors are the library's own messages. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

int sl_api_check_seeded(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m_in, const long *obs,
                        sl_api_divergence *out, sl_error *err)
{
    sl_fw_session s;
    sl_vec row;
    const sl_io_steps *m = m_in;
    size_t T = m->t, div = T;
    long pred = -1;
    double p_obs = 0, p_pred = 0;
    if (sl_api_gen_open(&s, ft, fo, err))
        return SL_EINVAL;
    if (sl_base_vec_alloc(&row, m->v, m->source, err)) {
        sl_fw_session_close(&s);
        return SL_EINVAL;
    }
    int rc = 0;
    sl_vec rows[2] = {row, {0}};
    if (sl_base_vec_alloc(&rows[1], m->v, m->source, err)) {
        rc = SL_EINVAL;
        goto out;
    }
    for (size_t t = 0; t < T; t++) {
        sl_vec *r = &rows[t & 1];
        sl_io_steps_row(m, t, r);
        if (fo->dtype_set)
            r->dtype = fo->dtype;
        sl_fw_step st;
        if (sl_fw_session_step(&s, r, &st, err)) {
            rc = SL_EINVAL;
            goto out;
        }
        if (st.tokens[0] != obs[t]) {
            sl_logits_result pr;
            if (sl_fw_session_probs(&s, r, &pr, err)) {
                rc = SL_EINVAL;
                goto out;
            }
            double sum = 0;
            for (size_t i = 0; i < pr.V; i++)
                sum += pr.probs[i];
            div = t;
            pred = st.tokens[0];
            p_obs = pr.probs[obs[t]] / sum;
            p_pred = pr.probs[pred] / sum;
            sl_logits_result_free(&pr);
            break;
        }
        if (sl_fw_session_accept(&s, obs[t], err)) {
            rc = SL_EINVAL;
            goto out;
        }
    }
    out->step = div;
    out->predicted = pred;
    out->p_observed = p_obs;
    out->p_predicted = p_pred;
out:
    sl_base_vec_free(&rows[0]);
    sl_base_vec_free(&rows[1]);
    sl_fw_session_close(&s);
    return rc;
}

char *sl_api_check_seeded_json(const sl_fw_type *ft, size_t T, const long *obs, const sl_api_divergence *d)
{
    size_t div = d->step;
    json_t *root = json_object();
    json_object_set_new(root, "framework", json_string(ft->name));
    json_object_set_new(root, "steps", json_integer((json_int_t)T));
    json_object_set_new(root, "first_divergence", div == T ? json_null() : json_integer((json_int_t)div));
    if (div < T) {
        json_object_set_new(root, "observed", json_integer(obs[div]));
        json_object_set_new(root, "predicted", json_integer(d->predicted));
        json_object_set_new(root, "p_observed", json_real(d->p_observed));
        json_object_set_new(root, "p_predicted", json_real(d->p_predicted));
    }
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return s;
}

int sl_api_check(const sl_api_src *steps, int is_logits, const long *context, size_t context_n, const long *tokens,
                 size_t n_tokens, const sl_api_settings *s, char **json, sl_error *err)
{
    *json = NULL;
    if (!tokens && !s->tokens)
        return sl_base_error_set(err, SL_EINVAL, "samplab check: --tokens FILE is required (the observed token ids)");
    double alpha = s->has_alpha ? s->alpha : 0.01;
    if (!(alpha > 0 && alpha < 1))
        return sl_base_error_set(err, SL_EINVAL, "samplab check: --alpha must be in (0, 1)");
    sl_api_gen g;
    if (sl_api_gen_load("check", steps, is_logits, context, context_n, s, 0, &g, err))
        return SL_EINVAL;
    size_t T = g.steps.t, n_obs = n_tokens;
    long *obs = NULL;
    int rc = SL_EINVAL;
    if (s->tokens) {
        if (sl_api_ids("check", s->tokens, "token", g.steps.v, &obs, &n_obs, err))
            goto out;
    } else {
        if (!(obs = malloc((n_tokens ? n_tokens : 1) * sizeof *obs))) {
            rc = sl_base_error_set(err, SL_ENOMEM, "samplab check: out of memory");
            goto out;
        }
        for (size_t i = 0; i < n_tokens; i++) {
            if (tokens[i] < 0 || (size_t)tokens[i] >= g.steps.v) {
                sl_base_error_set(err, SL_EINVAL, "samplab check: token entry %zu (%ld) is not a token id in 0..%zu", i,
                                  tokens[i], g.steps.v - 1);
                goto out;
            }
            obs[i] = tokens[i];
        }
    }
    if (n_obs != T) {
        sl_base_error_set(err, SL_EINVAL, "samplab check: %.200s holds %zu tokens, the logits %zu steps",
                          s->tokens ? s->tokens : "<tokens>", n_obs, T);
        goto out;
    }
    if (!s->seed) {
        /* the test of a whole log without a seed runs in cli/check.c only, for now */
        sl_base_error_set(err, SL_EINVAL, "samplab check: without --seed, check runs from the command line only");
        goto out;
    }
    sl_api_divergence d;
    if ((rc = sl_api_check_seeded(g.ft, &g.fo, &g.steps, obs, &d, err))) {
        sl_api_lib_error(err, rc);
        goto out;
    }
    *json = sl_api_check_seeded_json(g.ft, T, obs, &d);
    rc = *json ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab check: out of memory for JSON");
out:
    free(obs);
    sl_api_gen_free(&g);
    return rc;
}
