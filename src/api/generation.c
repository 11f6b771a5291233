/* generation.c — a whole generation as one sampler session: the prompt as the
 * session's starting history, then per step one draw on that step's row and
 * the drawn token accepted, as transformers' generate() grows input_ids and
 * llama_sampler_sample accepts what it draws (`samplab replay`, `check`). */
#include "api/sl_api.h"

/* The loop itself is the framework layer's (sl_fw_session_open_prompt,
 * sl_fw_replay); here it reads rows from a [T, V] source of io/. */
int sl_api_gen_open(sl_fw_session *s, const sl_fw_type *ft, const sl_fw_opts *fo, sl_error *err)
{
    return sl_fw_session_open_prompt(s, ft, fo, err);
}

static int steps_row(const void *user, size_t t, sl_vec *row)
{
    return sl_io_steps_row(user, t, row);
}

int sl_api_gen_replay(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m, long *tokens,
                      uint64_t *words, size_t *kept, const char **rng_name, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_gen_replay", ft);
    SL_BASE_NONNULL(err, "sl_api_gen_replay", fo);
    SL_BASE_NONNULL(err, "sl_api_gen_replay", m);
    SL_BASE_NONNULL(err, "sl_api_gen_replay", tokens);
    SL_BASE_NONNULL(err, "sl_api_gen_replay", words);
    SL_BASE_NONNULL(err, "sl_api_gen_replay", kept);
    if (!m)
        return sl_base_error_set(err, SL_EINVAL, "samplab replay: the generation is NULL");
    return sl_fw_replay(ft, fo, m->t, m->v, m->source, steps_row, m, tokens, words, kept, rng_name, err);
}

int sl_api_gen_batch_row(const void *user, size_t t, size_t b, sl_vec *row)
{
    return sl_io_steps_row_of(user, t, b, row);
}
