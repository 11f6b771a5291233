/* batch.c — B rows stepped together, as a batch of prompts is drawn: each row
 * a session of its own (its history, its prepared state), the rows drawn in
 * order from the batch's one generator (or, for a row with a seed of its own,
 * from its own). torch.multinomial over a [B, V] tensor is B one-row calls in
 * row order on the default generator (torch 2.14.1, measured on 174 cases with
 * and without replacement: data/golden/current/torch_batch.txt), and
 * transformers' _sample draws one such call per step (5.12.1: 176 batched
 * generate() runs, data/golden/current/hf_batch.txt). The generator is moved into
 * a row's session for its step and back, so the session's word count is the
 * generator's. */
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

int sl_fw_batch_open(sl_fw_batch *b, const sl_fw_type *t, const sl_fw_opts *o, size_t B, const sl_fw_batch_row *rows,
                     sl_error *err)
{
    memset(b, 0, sizeof *b);
    if (!t)
        return sl_base_error_set(err, SL_EINVAL, "no such framework (sl_fw_lookup gave NULL)");
    if (!t->batch)
        return sl_base_error_set(err, SL_EINVAL, "framework %s: a batch of rows is not modelled by samplab (one row "
                                 "at a time)", t->name);
    if (!B)
        return sl_base_error_set(err, SL_EINVAL, "%s: a batch of no rows", t->name);
    b->type = t;
    if (!(b->rows = calloc(B, sizeof *b->rows)) || !(b->own = calloc(B, 1))) {
        free(b->rows);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for a batch of %zu rows", t->name, B);
    }
    int rc = SL_OK;
    for (size_t r = 0; r < B && !rc; r++) {
        sl_fw_opts q = *o;
        q.cfg.context = rows[r].context;
        q.cfg.context_n = rows[r].context_n;
        if (rows[r].seed) {
            q.seed = *rows[r].seed;
            q.has_seed = 1;
            b->own[r] = 1;
        }
        if (!(rc = sl_fw_session_open_prompt(&b->rows[r], t, &q, err)))
            b->B = r + 1;
        /* the batch draw was measured on the default release line only */
        if (!rc && t->variants && b->rows[r].variant != &t->variants[0])
            rc = sl_base_error_set(err, SL_EINVAL, "framework %s: a batch on release line %s is not modelled by "
                                   "samplab (only on %s)", t->name, b->rows[r].variant->name, t->variants[0].name);
    }
    if (!rc) {
        /* the batch's generator: what a session of these settings seeds */
        sl_seed seed;
        memset(&seed, 0, sizeof seed);
        seed.lo = t->default_seed;
        if (o->has_seed)
            seed = o->seed;
        rc = sl_rng_init(&b->shared, b->rows[0].rng.type, &seed, err);
    }
    if (rc)
        sl_fw_batch_close(b);
    return rc;
}

static void rng_swap(sl_rng *a, sl_rng *c)
{
    sl_rng t = *a;
    *a = *c;
    *c = t;
}

int sl_fw_batch_step(sl_fw_batch *b, size_t r, const sl_vec *v, sl_fw_step *out, sl_error *err)
{
    if (r >= b->B)
        return sl_base_error_set(err, SL_EINVAL, "%s: row %zu of a batch of %zu", b->type->name, r, b->B);
    sl_fw_session *s = &b->rows[r];
    if (b->own[r])
        return sl_fw_session_step(s, v, out, err);
    rng_swap(&s->rng, &b->shared);
    int rc = sl_fw_session_step(s, v, out, err);
    rng_swap(&s->rng, &b->shared);
    return rc;
}

uint64_t sl_fw_batch_words(const sl_fw_batch *b, size_t r)
{
    return r < b->B && b->own[r] ? b->rows[r].rng.words : b->shared.words;
}

const char *sl_fw_batch_rng_name(const sl_fw_batch *b)
{
    return b->type->rng_label ? b->type->rng_label : b->shared.type ? b->shared.type->name : b->type->rng;
}

void sl_fw_batch_close(sl_fw_batch *b)
{
    for (size_t r = 0; r < b->B; r++)
        sl_fw_session_close(&b->rows[r]);
    sl_rng_release(&b->shared);
    free(b->rows);
    free(b->own);
    memset(b, 0, sizeof *b);
}

int sl_fw_batch_generate(const sl_fw_type *t, const sl_fw_opts *o, size_t T, size_t B, size_t V, const char *source,
                         const sl_fw_batch_row *rows, const sl_fw_eos *eos, sl_fw_batch_row_fn row, const void *user,
                         sl_fw_batch_visit_fn visit, void *ctx, const char **rng_name, sl_error *err)
{
    sl_fw_batch b;
    int rc = sl_fw_batch_open(&b, t, o, B, rows, err);
    if (rc)
        return rc;
    /* one row buffer per row and step parity: a session reuses what it prepared only for the same vector */
    sl_vec *bufs = calloc(2 * B, sizeof *bufs);
    unsigned char *done = calloc(B, 1);
    long *took = calloc(B, sizeof *took);
    if (!bufs || !done || !took)
        rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for a batch of %zu rows", t->name, B);
    for (size_t i = 0; !rc && i < 2 * B; i++)
        rc = sl_base_vec_alloc(&bufs[i], V, source, err);
    int has_eos = eos && eos->eos >= 0, stop = 0;
    size_t finished = 0;
    for (size_t s = 0; s < T && !rc && !stop; s++) {
        if (has_eos && finished == B) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: step %zu: every row emitted EOS (%ld) by step %zu, where "
                                   "generate() stops; the source has %zu steps", source, s, eos->eos, s - 1, T);
            break;
        }
        for (size_t r = 0; r < B && !rc && !stop; r++) {
            sl_vec *v = &bufs[2 * r + (s & 1)];
            if ((rc = row(user, s, r, v))) {
                rc = sl_base_error_set(err, rc, "%s: cannot read step %zu row %zu", source, s, r);
                break;
            }
            if (o->dtype_set)
                v->dtype = o->dtype;
            sl_fw_step st;
            if ((rc = sl_fw_batch_step(&b, r, v, &st, err)))
                break;
            /* _sample: next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences) */
            long tok = has_eos && done[r] ? eos->pad : st.tokens[0];
            took[r] = tok;
            int vr = visit(ctx, &b, s, r, v, &st, tok, &took[r], err);
            if (vr < 0)
                rc = -vr;
            else if (vr > 0)
                stop = 1;
            else
                rc = sl_fw_session_accept(&b.rows[r], took[r], err);
        }
        /* the stopping criterion reads input_ids after the whole step */
        for (size_t r = 0; r < B && !rc && !stop && has_eos; r++)
            if (!done[r] && took[r] == eos->eos) {
                done[r] = 1;
                finished++;
            }
    }
    if (!rc && rng_name)
        *rng_name = sl_fw_batch_rng_name(&b);
    for (size_t i = 0; bufs && i < 2 * B; i++)
        sl_base_vec_free(&bufs[i]);
    free(bufs);
    free(done);
    free(took);
    sl_fw_batch_close(&b);
    return rc;
}

/* sl_fw_replay_batch's visit: each row's token, words and kept count kept */
typedef struct replay_out {
    size_t T;
    long *tokens;
    uint64_t *words;
    size_t *kept;
} replay_out;

static int replay_visit(void *ctx, sl_fw_batch *b, size_t t, size_t r, const sl_vec *v, const sl_fw_step *st,
                        long tok, long *accept, sl_error *err)
{
    replay_out *o = ctx;
    (void)v;
    (void)accept;
    (void)err;
    o->tokens[r * o->T + t] = tok;
    o->words[r * o->T + t] = sl_fw_batch_words(b, r);
    o->kept[r * o->T + t] = st->kept;
    return 0;
}

int sl_fw_replay_batch(const sl_fw_type *t, const sl_fw_opts *o, size_t T, size_t B, size_t V, const char *source,
                       const sl_fw_batch_row *rows, const sl_fw_eos *eos, sl_fw_batch_row_fn row, const void *user,
                       long *tokens, uint64_t *words, size_t *kept, const char **rng_name, sl_error *err)
{
    replay_out out = {T, tokens, words, kept};
    return sl_fw_batch_generate(t, o, T, B, V, source, rows, eos, row, user, replay_visit, &out, rng_name, err);
}
