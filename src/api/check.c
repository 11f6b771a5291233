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
