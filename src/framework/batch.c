/* batch.c — B rows stepped together, as a batch of prompts or of requests is
 * drawn: each row a session of its own (its history, its prepared state), each
 * row drawn from the batch's one generator or, for a row with a seed of its own,
 * from its own, in the order the type's batch_step keeps (else row order).
 * torch.multinomial over a [B, V] tensor is B one-row calls in row order on the
 * default generator (torch 2.14.1, measured on 174 cases with and without
 * replacement: data/golden/current/torch_batch.txt), and transformers' _sample
 * draws one such call per step (5.12.1: 176 batched generate() runs,
 * data/golden/current/hf_batch.txt); vLLM fills the whole batch's noise from the
 * global generator before the seeded rows overwrite theirs (framework/vllm.c).
 * A row's session draws from its own generator: the batch's is lent to it for
 * the step, so the words it reports are the generator's. */
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
    for (size_t r = 0; r < B; r++) {
        if (rows[r].seed && !(t->accepts & SL_OPT_ROW_SEEDS))
            return sl_base_error_set(err, SL_EINVAL, "framework %s has one generator per batch: no seed per row",
                                     t->name);
        if (!rows[r].seed && t->batch_unseeded)
            return sl_base_error_set(err, SL_EINVAL, "%s: row %zu has no seed: %s", t->name, r, t->batch_unseeded);
    }
    b->type = t;
    b->row = calloc(B, sizeof *b->row);
    b->own = calloc(B, 1);
    b->step = calloc(B, sizeof *b->step);
    b->words = calloc(B, sizeof *b->words);
    if (!b->row || !b->own || !b->step || !b->words) {
        sl_fw_batch_close(b);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for a batch of %zu rows", t->name, B);
    }
    int rc = SL_OK;
    b->coupled = t->batch_coupled && t->batch_coupled(o);
    for (size_t r = 0; r < B && !rc; r++) {
        sl_fw_opts q = *o;
        q.cfg.context = rows[r].context;
        q.cfg.context_n = rows[r].context_n;
        if (rows[r].seed) {
            q.seed = *rows[r].seed;
            q.has_seed = 1;
        }
        b->own[r] = rows[r].seed || t->per_request;
        if (!(rc = sl_fw_session_open_prompt(&b->row[r], t, &q, err)))
            b->B = r + 1;
        /* a batch of prompts was measured on the default release line only (the serving engines' on each) */
        if (!rc && t->variants && !(t->accepts & SL_OPT_ROW_SEEDS) && b->row[r].variant != &t->variants[0])
            rc = sl_base_error_set(err, SL_EINVAL, "framework %s: a batch on release line %s is not modelled by "
                                   "samplab (only on %s)", t->name, b->row[r].variant->name, t->variants[0].name);
    }
    if (!rc) {
        /* the batch's generator: what a session of these settings seeds */
        sl_seed seed;
        memset(&seed, 0, sizeof seed);
        seed.lo = t->default_seed;
        if (o->has_seed)
            seed = o->seed;
        rc = sl_rng_init(&b->global, b->row[0].rng.type, &seed, err);
    }
    if (rc)
        sl_fw_batch_close(b);
    return rc;
}

int sl_fw_batch_step_row(sl_fw_batch *b, size_t r, const sl_vec *v, sl_rng *g, sl_error *err)
{
    if (r >= b->B)
        return sl_base_error_set(err, SL_EINVAL, "%s: row %zu of a batch of %zu", b->type->name, r, b->B);
    sl_fw_session *s = &b->row[r];
    int rc;
    if (g == &s->rng) {
        rc = sl_fw_session_step(s, v, &b->step[r], err);
    } else { /* the session draws from s->rng: lend it g for this step */
        sl_rng mine = s->rng;
        s->rng = *g;
        rc = sl_fw_session_step(s, v, &b->step[r], err);
        *g = s->rng;
        s->rng = mine;
    }
    if (!rc)
        b->words[r] = g->words;
    return rc;
}

int sl_fw_batch_step(sl_fw_batch *b, const sl_vec *rows, sl_error *err)
{
    if (b->type->batch_step)
        return b->type->batch_step(b, rows, err);
    int rc = SL_OK;
    for (size_t r = 0; r < b->B && !rc; r++)
        rc = sl_fw_batch_step_row(b, r, &rows[r], b->own[r] ? &b->row[r].rng : &b->global, err);
    return rc;
}

const char *sl_fw_batch_rng_name(const sl_fw_batch *b)
{
    return b->type->rng_label ? b->type->rng_label : b->global.type ? b->global.type->name : b->type->rng;
}

uint64_t sl_fw_batch_words_all(const sl_fw_batch *b)
{
    uint64_t w = b->global.words;
    for (size_t r = 0; r < b->B; r++)
        if (b->own[r])
            w += b->row[r].rng.words;
    return w;
}

void sl_fw_batch_close(sl_fw_batch *b)
{
    for (size_t r = 0; b->row && r < b->B; r++)
        sl_fw_session_close(&b->row[r]);
    sl_rng_release(&b->global);
    free(b->row);
    free(b->own);
    free(b->step);
    free(b->words);
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
    /* B row buffers per step parity: a session reuses what it prepared only for the same vector */
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
        sl_vec *v = &bufs[(s & 1) * B];
        for (size_t r = 0; r < B && !rc; r++) {
            if ((rc = row(user, s, r, &v[r]))) {
                rc = sl_base_error_set(err, rc, "%s: cannot read step %zu row %zu", source, s, r);
                break;
            }
            if (o->dtype_set)
                v[r].dtype = o->dtype;
        }
        if (!rc && (rc = sl_fw_batch_step(&b, v, err)))
            break;
        for (size_t r = 0; r < B && !rc && !stop; r++) {
            /* _sample: next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences) */
            long tok = has_eos && done[r] ? eos->pad : b.step[r].tokens[0];
            took[r] = tok;
            int vr = visit(ctx, &b, s, r, &v[r], &b.step[r], tok, &took[r], err);
            if (vr < 0)
                rc = -vr;
            else if (vr > 0)
                stop = 1;
            else
                rc = sl_fw_session_accept(&b.row[r], took[r], err);
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
    o->words[r * o->T + t] = b->words[r];
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
