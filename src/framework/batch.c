/* batch.c — a batch of requests as a serving engine draws it: B sessions (each
 * row's pipeline and history), each row's generator its own when the request
 * gave a seed, else the engine's global one; one step draws every row in the
 * engine's order (the type's batch_step: vLLM fills q for the whole batch from
 * the global generator before the seeded rows overwrite theirs); accepting the
 * step's tokens into the histories (the engine appending them to each request's
 * output) is the caller's choice, as a session's is. */
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

int sl_fw_batch_open(sl_fw_batch *b, const sl_fw_type *t, const sl_fw_opts *o, size_t B, const sl_seed *seeds,
                     const unsigned char *own, sl_error *err)
{
    memset(b, 0, sizeof *b);
    if (!t)
        return sl_base_error_set(err, SL_EINVAL, "no such framework (sl_fw_lookup gave NULL)");
    if (!(t->accepts & SL_OPT_ROW_SEEDS))
        return sl_base_error_set(err, SL_EINVAL, "framework %s has one generator per batch: no seed per row",
                                 t->name);
    if (!B)
        return sl_base_error_set(err, SL_EINVAL, "%s: a batch of no rows", t->name);
    for (size_t r = 0; r < B && t->batch_unseeded; r++)
        if (!own[r])
            return sl_base_error_set(err, SL_EINVAL, "%s: row %zu has no seed: %s", t->name, r, t->batch_unseeded);
    b->type = t;
    b->B = B;
    b->row = calloc(B, sizeof *b->row);
    b->own = malloc(B);
    b->tokens = calloc(B, sizeof *b->tokens);
    b->words = calloc(B, sizeof *b->words);
    b->kept = calloc(B, sizeof *b->kept);
    if (!b->row || !b->own || !b->tokens || !b->words || !b->kept) {
        sl_fw_batch_close(b);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for a batch of %zu rows", t->name, B);
    }
    memcpy(b->own, own, B);
    int rc = SL_OK;
    for (size_t r = 0; r < B && !rc; r++) {
        sl_fw_opts ro = *o;
        if (own[r]) {
            ro.seed = seeds[r];
            ro.has_seed = 1;
        }
        if ((rc = sl_fw_session_open_prompt(&b->row[r], t, &ro, err)))
            b->row[r].type = NULL; /* closed by the call */
    }
    /* the global generator: the framework's generator type, seeded with o's seed */
    sl_seed g;
    memset(&g, 0, sizeof g);
    g.lo = t->default_seed;
    if (o->has_seed)
        g = o->seed;
    const sl_rng_type *rt = sl_rng_lookup(t->rng);
    if (!rc)
        rc = rt ? sl_rng_init(&b->global, rt, &g, err)
                : sl_base_error_set(err, SL_EINVAL, "%s: no random source '%s'", t->name, t->rng);
    if (rc)
        sl_fw_batch_close(b);
    return rc;
}

int sl_fw_batch_step_row(sl_fw_batch *b, size_t r, const sl_vec *v, sl_rng *g, sl_error *err)
{
    sl_fw_session *s = &b->row[r];
    sl_fw_step st;
    int rc;
    if (g == &s->rng) {
        rc = sl_fw_session_step(s, v, &st, err);
    } else { /* the session draws from s->rng: lend it g for this step */
        sl_rng mine = s->rng;
        s->rng = *g;
        rc = sl_fw_session_step(s, v, &st, err);
        *g = s->rng;
        s->rng = mine;
    }
    if (rc)
        return rc;
    b->tokens[r] = st.tokens[0];
    b->kept[r] = st.kept;
    b->words[r] = g->words;
    return SL_OK;
}

int sl_fw_batch_step(sl_fw_batch *b, const sl_vec *rows, sl_error *err)
{
    int rc = SL_OK;
    if (b->type->batch_step)
        rc = b->type->batch_step(b, rows, err);
    else
        for (size_t r = 0; r < b->B && !rc; r++)
            rc = sl_fw_batch_step_row(b, r, &rows[r], &b->row[r].rng, err);
    return rc;
}

int sl_fw_batch_accept(sl_fw_batch *b, sl_error *err)
{
    int rc = SL_OK;
    for (size_t r = 0; r < b->B && !rc; r++)
        rc = sl_fw_session_accept(&b->row[r], b->tokens[r], err);
    return rc;
}

void sl_fw_batch_close(sl_fw_batch *b)
{
    for (size_t r = 0; b->row && r < b->B; r++)
        if (b->row[r].type)
            sl_fw_session_close(&b->row[r]);
    sl_rng_release(&b->global);
    free(b->row);
    free(b->own);
    free(b->tokens);
    free(b->words);
    free(b->kept);
    memset(b, 0, sizeof *b);
}
