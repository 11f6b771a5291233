/* sglang.c — `--framework sglang`: one request of SGLang's deterministic sampling
 * (--enable-deterministic-inference with a per-request sampling_seed; a request
 * without one gets 42, sampling_batch_info.py). The row's settings go through
 * logits/sglang.c; its column weights become the log-probabilities SGLang feeds
 * multinomial_with_seed (vocabulary path: torch.log(probs) in float32, SLEEF's logf,
 * then widened; sort path: the probabilities widened, then log in float64), and the
 * draw is draw/gumbel_hash.c over the sglang-murmur3 source at the step's position:
 * ModelRunner.sample's seq_lens - 1 (prefill) and forward_batch.positions (decode),
 * that is the index of the sequence's last token, prompt length - 1 for the first
 * generated token and one more per token (the session accepts what it draws).
 * --position P gives the first step's position (default: --context length - 1).
 * --sglang-sorted says that a batchmate filters, which moves this row onto the sort
 * path (ranks as columns): SGLang decides the path per batch (need_top_k_sampling
 * and need_top_p_sampling are any() over the rows), so a row's token depends on the
 * other requests of its batch unless every row or none filters.
 * Release lines: 0.5.23 (default: the clamp of both ends, PR #33423, 2026-08-03)
 * and 0.5.12 (the 0.5.9-0.5.12 line: the low end only, so a hash of 2^32 - 1 wins
 * its row even on a removed token, SGLang issue #25106). The hash of v0.5.3-v0.5.8
 * (step_seed = seed * 19349663 ^ position * 73856093, float32 uniforms) was not
 * found in SGLang's own files and is not modelled. Checked against SGLang's
 * functions themselves: data/golden/current/sglang.txt
 * (analysis/golden/current/sglang_golden.py). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

/* --json's "version": the release line and the code path the settings take */
#define SGLANG_523 "SGLang 0.5.23 (sampler.py after PR #33423: murmur_hash32, Gumbel noise clamped at both ends; " \
                   "pytorch backend)"
#define SGLANG_512 "SGLang 0.5.9-0.5.12 (sampler.py: murmur_hash32, hash / (2^32 - 1), noise clamped at the low " \
                   "end only; pytorch backend)"
#define PATH_VOCAB "; path: sampling_from_probs_torch, columns = vocabulary ids"
#define PATH_RANK "; path: top_k_top_p_min_p_sampling_from_probs_torch, columns = ranks"
#define PATH_GREEDY "; path: all greedy, torch.argmax (no hash)"
static const char *const sglang_versions[2][3] = {
    {SGLANG_523 PATH_VOCAB, SGLANG_523 PATH_RANK, SGLANG_523 PATH_GREEDY},
    {SGLANG_512 PATH_VOCAB, SGLANG_512 PATH_RANK, SGLANG_512 PATH_GREEDY},
};

static const sl_fw_variant sglang_variants[] = {
    {"0.5.23", SGLANG_523, 23},
    {"0.5.12", SGLANG_512, 12},
    {NULL, NULL, 0},
};

typedef struct sglang_state {
    sl_logits_sglang_out out;
    int have_out;
    sl_draw_gumbel_param param;
    sl_draw_type draw;        /* sl_draw_gumbel_hash_type with this line's clamp */
    void *table;
    size_t hist0;             /* the history's length at the first step (SIZE_MAX before it) */
} sglang_state;

static int sglang_open(sl_fw_session *s, sl_error *err)
{
    sglang_state *st = calloc(1, sizeof *st);
    if (!(s->state = st))
        return sl_base_error_set(err, SL_ENOMEM, "sglang: out of memory");
    st->param.clamp_high = s->variant->code >= 23;
    st->draw = sl_draw_gumbel_hash_type;
    st->draw.param = &st->param;
    st->hist0 = SIZE_MAX;
    s->o.seed.has_stream = 0;
    s->version = sglang_versions[st->param.clamp_high ? 0 : 1][sl_logits_sglang_path(&s->o.cfg, s->o.sglang_sorted)];
    return SL_OK;
}

static void sglang_clear(sglang_state *st)
{
    if (st->table)
        st->draw.free(st->table);
    st->table = NULL;
    if (st->have_out)
        sl_logits_sglang_out_free(&st->out);
    st->have_out = 0;
}

static void sglang_close(sl_fw_session *s)
{
    sglang_state *st = s->state;
    if (st)
        sglang_clear(st);
    free(st);
    s->state = NULL;
}

/* --sglang-sorted (a batchmate filters): a row whose own settings would take another path
 * (no filter of its own, or greedy) is drawn on the batch's sort path, so its draw depends
 * on its batchmates (sampler.py: the path is chosen for the whole batch) */
static int sglang_coupled(const sl_fw_opts *o)
{
    return o->sglang_sorted && sl_logits_sglang_path(&o->cfg, 1) != sl_logits_sglang_path(&o->cfg, 0);
}

static int sglang_prepare(sl_fw_session *s, const sl_vec *v, sl_error *err)
{
    sglang_state *st = s->state;
    sglang_clear(st);
    int rc = sl_logits_sglang_apply(v->f, v->n, &s->o.cfg, s->o.sglang_sorted, &st->out, err);
    if (rc)
        return rc;
    st->have_out = 1;
    if (st->out.greedy)
        return SL_OK;
    double *lp = malloc(v->n * sizeof *lp);
    if (!lp)
        return sl_base_error_set(err, SL_ENOMEM, "sglang: out of memory for %zu logits", v->n);
    for (size_t j = 0; j < v->n; j++)
        lp[j] = st->out.rank ? log((double)st->out.w[j]) : (double)sl_logits_logf_sleef(st->out.w[j]);
    sl_draw_dist dist = {v->n, lp, NULL, SL_F64, v->source, 0};
    rc = sl_draw_prepare_dist(&st->draw, &st->table, &dist, err);
    free(lp);
    return rc;
}

static int sglang_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    sglang_state *st = s->state;
    if (st->hist0 == SIZE_MAX) {
        if (!s->o.has_position && !s->hist_n)
            return sl_base_error_set(err, SL_EINVAL,
                                     "framework sglang needs --position P (the index of the sequence's last token: "
                                     "prompt length - 1 for the first generated token) or --context IDS (the "
                                     "prompt)");
        st->hist0 = s->hist_n;
    }
    if (v != s->prepared_vec || !st->have_out) {
        int rc = sglang_prepare(s, v, err);
        if (rc)
            return rc;
    }
    *kept = st->out.n_kept;
    if (st->out.greedy) { /* an all-greedy batch: torch.argmax, no hash */
        s->tokens[0] = (long)st->out.greedy_id;
        return SL_OK;
    }
    uint64_t pos = s->o.has_position ? s->o.position + (s->hist_n - st->hist0) : (uint64_t)s->hist_n - 1;
    sl_rng_murmur3_at(&s->rng, pos);
    size_t col = st->draw.draw(st->table, &s->rng);
    s->tokens[0] = (long)(st->out.rank ? st->out.tok[col] : col);
    return SL_OK;
}

/* SamplingParams fields samplab does not model for SGLang */
static const char *const sglang_unmodelled[] = {
    "--logit-bias", "SGLang's SamplingParams.logit_bias",
    NULL,
};

const sl_fw_type sl_fw_sglang_type = {
    .name = "sglang",
    .summary = "SGLang with deterministic inference on: per-request sampling_seed (default 42), murmur_hash32 of "
               "(seed, position, column), float64 Gumbel noise + log-probability, argmax",
    .variant_bit = SL_OPT_SGLANG_VERSION,
    .variants = sglang_variants,
    /* penalties are taken to be refused by name (SGLang has them; samplab does not model them) */
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_CPU |
               SL_OPT_PENALTY | SL_OPT_FREQ_PRESENCE | SL_OPT_SGLANG_VERSION | SL_OPT_POSITION | SL_OPT_ROW_SEEDS,
    .input_why = "its sampler starts from logits",
    .pipeline = &sl_logits_pipeline_sglang_type,
    .draw = &sl_draw_gumbel_hash_type,
    .rng = "sglang-murmur3",
    .default_seed = 42,
    .accepts_drawn = 1,
    .per_request = 1,
    .no_global_seed = 1,
    .batch_coupled = sglang_coupled,
    .open = sglang_open,
    .step = sglang_step,
    .probs = sl_fw_probs_of_pipeline,
    .close = sglang_close,
    .unmodelled = sglang_unmodelled,
    .batch = "each request its own sampling_seed (SamplingParams, default 42): murmur_hash32 of (seed, position, "
             "column) per row, so no row depends on its batchmates (but for the sort path, --sglang-sorted)",
};
