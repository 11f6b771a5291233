/* candle_pipeline.c — candle's LogitsProcessor as a `samplab pipeline`:
 * apply_repeat_penalty over the context given (candle-transformers
 * utils.rs; the examples pass the last repeat_last_n tokens), then
 * LogitsProcessor::from_sampling's Sampling (generation/mod.rs, candle 0.11):
 * ArgMax when T is absent or < 1e-7, else softmax(logits * (float)(1/T)) and
 * TopK (exactly k), TopP (descending running sum) or TopKThenTopP (top-p on
 * the top-k mass, not renormalised). The distribution printed is the one
 * WeightedIndex draws from: each kept weight over the f32 total
 * (logits/candle.c sl_logits_candle_probs). */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

static int candle_pipeline_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *c,
                               sl_logits_result *out, sl_error *err)
{
    (void)ld;
    sl_logits_candle_cfg cfg;
    int rc = sl_logits_candle_cfg_make(c->has_temperature, c->temperature, c->has_top_k, c->top_k, c->has_top_p,
                                       c->top_p, 0, &cfg, err);
    if (rc)
        return rc;
    rc = sl_logits_result_alloc(out, V, err);
    if (rc)
        return rc;
    out->precision = 32;
    float *lg = malloc(V * sizeof *lg);
    if (!lg) {
        sl_logits_result_free(out);
        return sl_base_error_set(err, SL_ENOMEM, "candle: out of memory for %zu logits", V);
    }
    memcpy(lg, lf, V * sizeof *lg);
    if (c->has_penalty) {
        if ((rc = sl_logits_candle_repeat_penalty(lg, V, (float)c->penalty, c->context, c->context_n, NULL, err)))
            goto done;
        sl_logits_step(out, "repeat_penalty");
    }
    rc = sl_logits_candle_probs(lg, V, &cfg, out->probs, err);
    if (rc)
        goto done;
    switch (cfg.sampling) {
    case SL_CANDLE_ARGMAX:
        sl_logits_step(out, "argmax");
        out->greedy = 1;
        break;
    case SL_CANDLE_ALL:
        sl_logits_step(out, "softmax");
        break;
    case SL_CANDLE_TOPK:
        sl_logits_step(out, "softmax");
        sl_logits_step(out, "top_k");
        break;
    case SL_CANDLE_TOPP:
        sl_logits_step(out, "softmax");
        sl_logits_step(out, "top_p");
        break;
    case SL_CANDLE_TOPK_TOPP:
        sl_logits_step(out, "softmax");
        sl_logits_step(out, "top_k");
        sl_logits_step(out, "top_p (not renormalised)");
        break;
    }
    for (size_t i = 0; i < V; i++) {
        out->kept[i] = out->probs[i] > 0;
        out->n_kept += out->kept[i];
        if (out->greedy && out->kept[i])
            out->greedy_id = i;
    }
done:
    free(lg);
    if (rc)
        sl_logits_result_free(out);
    return rc;
}

/* candle-transformers 0.11 LogitsProcessor::new(seed, temperature: Option<f64>,
 * top_p: Option<f64>): the caller passes each, and None is the library's
 * "unset": no temperature is Sampling::ArgMax, no top_p is Sampling::All.
 * Sampling::TopK's k and apply_repeat_penalty have no default (the caller
 * builds them or not). The candle examples' command-line defaults (e.g.
 * --temperature 0.8, --repeat-penalty 1.1) are the examples', not the library's. */
static const sl_logits_default candle_defaults[] = {
    {SL_KEY_TEMPERATURE, 1, 0, "temperature: None (Sampling::ArgMax)", NULL, 0},
    {SL_KEY_TOP_K, 1, 0, "no Sampling::TopK", NULL, 0},
    {SL_KEY_TOP_P, 1, 0, "top_p: None", NULL, 0},
    {SL_KEY_PENALTY, 1, 0, "apply_repeat_penalty not called", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

static const char *candle_note(const sl_logits_cfg *c)
{
    if (!c->has_temperature && (c->has_top_k || c->has_top_p))
        return "candle without --temperature is ArgMax (LogitsProcessor::new(seed, None, ..)): --top-k and "
               "--top-p act only with a temperature";
    return NULL;
}

static size_t candle_compare_notes(const sl_logits_cfg *c, char (*out)[512], size_t max)
{
    if (!max || c->has_temperature)
        return 0;
    snprintf(out[0], sizeof out[0],
             "candle ran at temperature 1 (Sampling::%s { .., temperature: 1.0 }): LogitsProcessor::new(seed, "
             "None, ..) without a temperature is ArgMax, whatever k and p say",
             c->has_top_k ? (c->has_top_p ? "TopKThenTopP" : "TopK") : (c->has_top_p ? "TopP" : "All"));
    return 1;
}

const sl_logits_pipeline_type sl_logits_pipeline_candle_type = {
    .name = "candle",
    .summary = "LogitsProcessor 0.11: repeat penalty -> T (ArgMax < 1e-7) -> softmax -> top-k (exactly k) -> "
               "top-p (no renormalisation)",
    .accepts = SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_PENALTY,
    .run = candle_pipeline_run,
    .defaults = candle_defaults,
    .traits = SL_LOGITS_TRAIT_ARGMAX_UNSET_T | SL_LOGITS_TRAIT_TOP_P_RAW_MASS,
    .note = candle_note,
    .compare_notes = candle_compare_notes,
};
