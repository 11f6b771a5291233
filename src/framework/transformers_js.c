/* transformers_js.c — `--framework transformers-js`: one step of transformers.js
 * 4.3's generate({do_sample: true}) after random.seed(seed), as
 * models/modeling_utils.js generate runs it (@huggingface/transformers 4.3.1):
 * the processors, TopK and softmax of logits/transformers_js.c, then
 * LogitsSampler.randomSelect = _weightedIndex (draw/tjs_weighted.c) over the top
 * k in TopK order, its uniform random.random() from the module's Random
 * (python-mt19937: MT19937 seeded as CPython's random.seed, two words a double).
 * generate pushes each sampled token onto all_input_ids, so the session accepts
 * what it draws: in `draw --n N` the penalty and the n-gram ban see every token
 * drawn before, as in a generation over one row. A greedy step (temperature 0)
 * draws no word.
 * Before 4.0 the sampler drew with Math.random(), which no seed reaches: those
 * lines are refused as not reproducible. Checked against the library's own
 * classes under Node: data/golden/js/transformers_js.txt
 * (analysis/golden/js/transformers_js.mjs). Known divergences: seeds above 2^53
 * (not a JavaScript integer) are refused; num_beams > 1 (which draws num_beams
 * tokens a step and keeps the first) and the processors that need an eos or
 * forced token are not modelled. */
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

static const sl_fw_variant tjs_variants[] = {
    {"4.3", "@huggingface/transformers 4.3.1 (generate with do_sample: true; onnxruntime-node 1.30 TopK, CPU)", 43},
    {NULL, NULL, 0},
};

/* release lines that cannot be reproduced, as pairs of the line and why */
static const char *const tjs_unreproducible[] = {
    "3", "transformers.js 3.x samples with Math.random(), which no seed reaches: its draws cannot be reproduced",
    "2", "transformers.js 2.x samples with Math.random(), which no seed reaches: its draws cannot be reproduced",
    NULL,
};

typedef struct tjs_state {
    sl_logits_result r;
    int have;
    void *table;
    sl_logits_work *work;
} tjs_state;

static int tjs_open(sl_fw_session *s, sl_error *err)
{
    if (s->o.has_seed && (s->o.seed.hi || s->o.seed.lo > (1ull << 53)))
        return sl_base_error_set(err, SL_EINVAL,
                                 "transformers-js: random.seed takes a JavaScript number: seeds above 2^53 are not "
                                 "exact integers there");
    tjs_state *st = calloc(1, sizeof *st);
    if (!(s->state = st) || !(st->work = sl_logits_work_new()))
        return sl_base_error_set(err, SL_ENOMEM, "transformers-js: out of memory");
    s->o.cfg.work = st->work; /* the pipeline's buffers, kept across steps */
    return SL_OK;
}

static void tjs_clear(tjs_state *st)
{
    if (st->table)
        sl_draw_tjs_weighted_type.free(st->table);
    st->table = NULL;
    if (st->have)
        sl_logits_result_free(&st->r);
    st->have = 0;
}

static void tjs_close(sl_fw_session *s)
{
    tjs_state *st = s->state;
    if (st) {
        tjs_clear(st);
        sl_logits_work_free(st->work);
    }
    free(st);
    s->state = NULL;
}

static int tjs_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    tjs_state *st = s->state;
    if (v != s->prepared_vec || s->hist_n != s->prepared_hist || !st->have) {
        tjs_clear(st);
        int rc = sl_logits_pipeline_run(s->type->pipeline, v, &s->o.cfg, &st->r, err);
        if (rc)
            return rc;
        st->have = 1;
        if (!st->r.greedy) {
            size_t k = st->r.n_cand;
            float *w = malloc(k * sizeof *w);
            if (!w)
                return sl_base_error_set(err, SL_ENOMEM, "transformers-js: out of memory for %zu weights", k);
            for (size_t j = 0; j < k; j++)
                w[j] = st->r.cand[j].p;
            sl_draw_dist dist = {k, NULL, w, SL_F32, v->source, 1};
            rc = sl_draw_prepare_dist(&sl_draw_tjs_weighted_type, &st->table, &dist, err);
            free(w);
            if (rc)
                return rc;
        }
    }
    *kept = st->r.n_kept;
    if (st->r.greedy) { /* GreedySampler: no draw, no word */
        s->tokens[0] = (long)st->r.greedy_id;
        return SL_OK;
    }
    s->tokens[0] = st->r.cand[sl_draw_tjs_weighted_type.draw(st->table, &s->rng)].id;
    return SL_OK;
}

static const char *tjs_note(const sl_fw_opts *o)
{
    return sl_logits_tjs_note(&o->cfg);
}

const sl_fw_type sl_fw_tjs_type = {
    .name = "transformers-js",
    .summary = "transformers.js 4.3 generate({do_sample: true}) step after random.seed(seed): penalty, n-gram ban, "
               "float32(x / T), ORT TopK (default top_k 50; top_p ignored), float32 softmax, _weightedIndex over "
               "MT19937's random()",
    .variant_bit = SL_OPT_TJS_VERSION,
    .variants = tjs_variants,
    .unreproducible = tjs_unreproducible,
    .replacement_why = "transformers.js's generate() draws one token a step (randomSelect): it has no replacement "
                       "setting",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_TYPICAL | SL_OPT_PENALTY |
               SL_OPT_TJS_VERSION,
    .input_why = "its sampler starts from logits",
    .pipeline = &sl_logits_pipeline_tjs_type,
    .draw = &sl_draw_tjs_weighted_type,
    .rng = "python-mt19937",
    .default_seed = 42,
    .accepts_drawn = 1,
    .open = tjs_open,
    .step = tjs_step,
    .probs = sl_fw_probs_of_pipeline,
    .close = tjs_close,
    .note = tjs_note,
};
