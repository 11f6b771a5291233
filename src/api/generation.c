/* generation.c — a whole generation as one sampler session: the prompt as the
 * session's starting history, then per step one draw on that step's row and
 * the drawn token accepted, as transformers' generate() grows input_ids and
 * llama_sampler_sample accepts what it draws (`samplab replay`, `check`). */
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

int sl_api_gen_open(sl_fw_session *s, const sl_fw_type *ft, const sl_fw_opts *fo, sl_error *err)
{
    sl_fw_opts o = *fo;
    o.cfg.context = NULL;
    o.cfg.context_n = 0;
    int rc = sl_fw_session_open(s, ft, &o, err);
    for (size_t i = 0; !rc && i < fo->cfg.context_n; i++)
        if ((rc = sl_fw_session_accept(s, fo->cfg.context[i], err)))
            sl_fw_session_close(s);
    return rc;
}

int sl_api_gen_replay(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m, long *tokens,
                      uint64_t *words, size_t *kept, const char **rng_name, sl_error *err)
{
    sl_fw_session s;
    sl_vec row[2];
    memset(row, 0, sizeof row);
    int rc = sl_api_gen_open(&s, ft, fo, err);
    if (rc)
        return rc;
    /* two row buffers in turn: a session reuses its prepared state only for the same vector */
    if ((rc = sl_base_vec_alloc(&row[0], m->v, m->source, err)) || (rc = sl_base_vec_alloc(&row[1], m->v, m->source, err)))
        goto out;
    for (size_t t = 0; t < m->t; t++) {
        sl_vec *r = &row[t & 1];
        sl_io_steps_row(m, t, r);
        if (fo->dtype_set)
            r->dtype = fo->dtype;
        sl_fw_step st;
        if ((rc = sl_fw_session_step(&s, r, &st, err)))
            goto out;
        tokens[t] = st.tokens[0];
        words[t] = (t ? words[t - 1] : 0) + st.words;
        kept[t] = st.kept;
        if ((rc = sl_fw_session_accept(&s, st.tokens[0], err)))
            goto out;
    }
    if (rng_name)
        *rng_name = ft->rng_label ? ft->rng_label : s.rng.type->name;
out:
    sl_base_vec_free(&row[0]);
    sl_base_vec_free(&row[1]);
    sl_fw_session_close(&s);
    return rc;
}
