/* node_llama_cpp.c — node-llama-cpp 3.21.1's sampler chain as the llama.cpp
 * stages run it (its addon, llama/addon/AddonSampler.cpp ApplyConfig and
 * rebuildChainIfNeeded, over the options LlamaContextSequence._resolveSamplerConfig
 * passes, dist/evaluator/LlamaContext/LlamaContext.js): token bias
 * (llama_sampler_init_logit_bias), repetition penalties, then at temperature
 * <= 0 (as float) XTC and greedy, else top-k, top-p, min-p, XTC, temp, dist.
 * evaluate()'s defaults: temperature 0 (greedy), topK 40, topP 0.95, minP 0
 * (no stage); topK <= 0 is the whole vocabulary (a full sort), topP outside
 * [0, 1] and minP <= 0 build no stage; XTC's probability and threshold are
 * clamped to [0, 1], its min_keep is 0 and its seed the dist's; top-p and
 * min-p get min_keep 1 (the same sets as 0: both keep the maximum). The
 * repetition penalties take llama_sampler_init_penalties(n_vocab, lastTokens,
 * penalty, frequency, presence) over the ids given as punishTokens; LlamaCompletion's
 * defaults are lastTokens 64, penalty 1 (off). dryRepeatPenalty builds llama.cpp's DRY
 * after the penalties over the tokens the addon sampled (not the prompt); left out,
 * its lastTokens -1 turns it off (see sl_logits_nlc_cfg). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "logits/sl_logits.h"

/* evaluate()'s and LlamaCompletion's defaults (LlamaContext.js _resolveSamplerConfig,
 * LlamaCompletion.js _generateResponse, AddonSampler.cpp's fallbacks) */
static const sl_logits_default nlc_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 0, "temperature = 0 (greedy: llama_sampler_init_greedy)", NULL, 0},
    {SL_KEY_TOP_K, 0, 40, "topK = 40", NULL, 0},
    {SL_KEY_TOP_P, 0, 0.95, "topP = 0.95", NULL, 0},
    {SL_KEY_MIN_P, 0, 0, "minP = 0 (no min-p stage)", NULL, 0},
    {SL_KEY_PENALTY, 0, 1, "repeatPenalty.penalty (the addon's 1: off)", NULL, 0},
    {SL_KEY_FREQ, 0, 0, "repeatPenalty.frequencyPenalty (the addon's 0)", NULL, 0},
    {SL_KEY_PRESENCE, 0, 0, "repeatPenalty.presencePenalty (the addon's 0)", NULL, 0},
    {SL_KEY_LAST_N, 0, 64, "repeatPenalty.lastTokens = 64 (evaluate: maxPunishTokens = 64)", NULL, 0},
    {SL_KEY_DRY_MULT, 0, 0, "dryRepeatPenalty.strength (unset: no DRY stage)", NULL, 0},
    {SL_KEY_DRY_BASE, 0, 1.75, "dryRepeatPenalty.base = 1.75", NULL, 0},
    {SL_KEY_DRY_ALLOWED, 0, 2, "dryRepeatPenalty.allowedLength = 2", NULL, 0},
    {SL_KEY_DRY_LAST_N, 0, -1, "dryRepeatPenalty.lastTokens = -1 (llama_sampler_init_dry clamps it to 0: DRY off)",
     NULL, 0},
    {SL_KEY_XTC_P, 1, 0, "xtc.probability (xtc unset: no XTC stage)", NULL, 0},
    {SL_KEY_XTC_T, 1, 0, "xtc.threshold (xtc unset: no XTC stage)", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* whether the addon's DRY acts: a positive strength, lastTokens given and > 0, base >= 1 (as float) */
static int nlc_dry_on(const sl_logits_cfg *c)
{
    float base = c->has_dry_base ? (float)c->dry_base : 1.75f;
    return c->has_dry_mult && (float)c->dry_mult > 0.0f && c->has_dry_last_n && c->dry_last_n > 0 && base >= 1.0f;
}

int sl_logits_nlc_cfg(const sl_logits_cfg *in, sl_logits_cfg *out, int *greedy, sl_error *err)
{
    sl_logits_cfg c = *in;
    sl_logits_cfg_resolve(&sl_logits_pipeline_nlc_type, &c, NULL);
    static const struct {
        size_t has;
        const char *what;
    } none[] = {
        {offsetof(sl_logits_cfg, has_order), "--samplers / --sampling-seq: node-llama-cpp has no stage order option"},
        {offsetof(sl_logits_cfg, has_typical), "--typical"},
        {offsetof(sl_logits_cfg, has_min_keep), "--min-keep"},
        {offsetof(sl_logits_cfg, has_nsigma), "--top-nsigma"},
        {offsetof(sl_logits_cfg, has_dyn_range), "--dynatemp-range"},
        {offsetof(sl_logits_cfg, has_dyn_exp), "--dynatemp-exp"},
        {offsetof(sl_logits_cfg, has_mirostat), "--mirostat"},
        {offsetof(sl_logits_cfg, has_mirostat_tau), "--mirostat-ent"},
        {offsetof(sl_logits_cfg, has_mirostat_eta), "--mirostat-lr"},
        {offsetof(sl_logits_cfg, has_adaptive_target), "--adaptive-target"},
        {offsetof(sl_logits_cfg, has_adaptive_decay), "--adaptive-decay"},
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        if (*(const int *)((const char *)&c + none[i].has))
            return sl_base_error_set(err, SL_EINVAL,
                                     "framework node-llama-cpp: %s: node-llama-cpp 3.21.1 has no such option (its "
                                     "addon builds token bias, penalties, DRY, top-k, top-p, min-p, XTC, temperature, "
                                     "dist)",
                                     none[i].what);
    if (c.has_xtc_p != c.has_xtc_t)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework node-llama-cpp: xtc takes both probability and threshold "
                                 "(--xtc-probability and --xtc-threshold; the addon builds XTC only with both)");
    *out = c;
    /* the addon reads the numbers as float (Napi FloatValue) */
    *greedy = (float)c.temperature <= 0.0f;
    long k = c.top_k; /* resolved_top_k: <= 0 is n_vocab, more is clamped to it: both a full sort */
    out->top_k = (k <= 0 || k > INT32_MAX) ? INT32_MAX : k;
    float p = (float)c.top_p;
    out->top_p = (p >= 0.0f && p <= 1.0f) ? c.top_p : 1.0; /* outside [0, 1]: no stage */
    out->min_p = (float)c.min_p > 0.0f ? c.min_p : 0.0;
    if (c.last_n <= 0) { /* lastTokens <= 0: no penalties stage */
        out->penalty = 1.0;
        out->freq = out->presence = 0.0;
        out->last_n = 0;
    }
    out->has_min_keep = 1;
    out->min_keep = 0; /* XTC's; top-p's and min-p's 1 keeps the same sets */
    out->stdcxx = SL_STDCXX_CLAMP; /* its prebuilt libllama's libstdc++ (GCC 11.4): XTC's uniform */
    /* dryRepeatPenalty (_resolveSamplerConfig): strength left out or 0 builds no DRY, a negative one
     * is max(0, s) = 0; base ?? 1.75; allowedLength max(1, ?? 2); lastTokens left out is -1, else
     * max(0, n). llama_sampler_init_dry (v0.4.0) clamps last_n to >= 0 and is off at multiplier 0,
     * last_n 0 or base < 1: so DRY runs only with a positive strength, lastTokens > 0 and base >= 1.
     * Its history is the tokens the addon sampled (acceptToken), not the prompt. */
    int dry = nlc_dry_on(&c);
    out->has_dry_mult = 1;
    out->dry_mult = dry ? (float)c.dry_mult : 0.0;
    out->dry_base = dry ? c.dry_base : 1.75;
    out->dry_allowed = c.dry_allowed < 1 ? 1 : c.dry_allowed;
    out->dry_last_n = dry ? c.dry_last_n : 0;
    size_t n = 0;
    out->order[n++] = &sl_logits_stage_penalties;
    if (dry)
        out->order[n++] = &sl_logits_stage_dry;
    if (!*greedy) {
        out->order[n++] = &sl_logits_stage_top_k;
        out->order[n++] = &sl_logits_stage_top_p;
        out->order[n++] = &sl_logits_stage_min_p;
    }
    if (c.has_xtc_p) {
        out->xtc_p = clamp01(c.xtc_p);
        out->xtc_t = clamp01(c.xtc_t);
        out->order[n++] = &sl_logits_stage_xtc;
    }
    if (!*greedy)
        out->order[n++] = &sl_logits_stage_temp_plain;
    out->has_order = 1;
    out->n_order = n;
    return SL_OK;
}

static int nlc_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *cfg, sl_logits_result *out,
                   sl_error *err)
{
    sl_logits_cfg c;
    int greedy;
    int rc = sl_logits_nlc_cfg(cfg, &c, &greedy, err);
    if (!rc)
        rc = sl_logits_pipeline_llamacpp_type.run(lf, ld, V, &c, out, err);
    if (rc || !greedy || !out->n_cand)
        return rc;
    /* llama_sampler_greedy: the first maximum of the candidate array, the only id left */
    size_t sel = 0;
    for (size_t i = 1; i < out->n_cand; i++)
        if (out->cand[i].logit > out->cand[sel].logit)
            sel = i;
    out->greedy = 1;
    out->greedy_id = (size_t)out->cand[sel].id;
    memset(out->probs, 0, V * sizeof *out->probs);
    memset(out->kept, 0, V);
    out->probs[out->greedy_id] = 1.0;
    out->kept[out->greedy_id] = 1;
    out->n_kept = 1;
    sl_logits_step(out, "greedy");
    return SL_OK;
}

/* LlamaCompletion's and LlamaChat's penalizeNewLine: false (their default) takes the
 * newline token out of punishTokens; samplab has no vocabulary to name that id */
static const char *nlc_note(const sl_logits_cfg *c)
{
    if (c->has_dry_mult && c->dry_mult > 0 && !nlc_dry_on(c))
        return !c->has_dry_last_n || c->dry_last_n <= 0
                   ? "node-llama-cpp: dryRepeatPenalty does nothing here: lastTokens left out is -1 (or given <= 0), "
                     "which llama_sampler_init_dry (v0.4.0) clamps to 0, so the addon's DRY is the no-op ?dry; "
                     "give lastTokens (--dry-penalty-last-n N) for DRY to act"
                   : "node-llama-cpp: dryRepeatPenalty does nothing here: a base below 1 makes "
                     "llama_sampler_init_dry the no-op ?dry";
    int active = (c->has_penalty && c->penalty != 1.0) || (c->has_freq && c->freq != 0.0) ||
                 (c->has_presence && c->presence != 0.0);
    if (!active || (c->has_last_n && c->last_n <= 0))
        return NULL;
    return "node-llama-cpp: LlamaCompletion and LlamaChat leave the newline token out of the penalised history "
           "(penalizeNewLine: false, their default), which samplab does not model: the history here penalises "
           "every id it holds, as evaluate() with penalizeNewLine: true or a punishTokensFilter keeping it does";
}

const sl_logits_pipeline_type sl_logits_pipeline_nlc_type = {
    .name = "node-llama-cpp",
    .summary = "node-llama-cpp 3.21.1 (llama.cpp v0.4.0): token bias -> penalties -> dry -> top-k -> top-p -> min-p -> "
               "xtc -> temperature -> dist, at T <= 0 penalties -> dry -> xtc -> greedy; unset: T 0, topK 40, topP 0.95",
    .accepts = SL_LOGITS_NLC_ACCEPTS,
    .run = nlc_run,
    .traits = SL_LOGITS_TRAIT_MIN_P_BEFORE_T | SL_LOGITS_TRAIT_OWN_DEFAULTS | SL_LOGITS_TRAIT_NAMED_ONLY,
    .defaults = nlc_defaults,
    .note = nlc_note,
};
