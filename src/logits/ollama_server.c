/* ollama_server.c — Ollama v0.32.10 to v0.33.0-rc2 (`--ollama 0.32`): no sampler of its own; its
 * llamaServerRunner posts each request to llama-server's /completion (llm/llama_server.go, read at
 * v0.33.0-rc2), which builds llama.cpp's default chain (common_sampler_init) from the fields sent:
 * api.DefaultOptions() merged with the request's options (temperature 0.8, top_k 40, top_p 0.9,
 * min_p 0, typical_p 1, repeat_last_n 64, repeat_penalty 1, frequency and presence 0). The fields it
 * does not send keep llama-server's defaults (DRY, XTC, top-n-sigma, dynamic temperature, mirostat
 * off). llama-server's request schema (tools/server/server-schema.cpp, v0.4.0 and b10361) clamps
 * top_k into [0, 2^31 - 1], top_p and min_p into [0, 1] and temperature into [0, inf), and refuses
 * repeat_last_n below 0; typical_p 0 goes out only through /api/chat. The chain is llama.cpp v0.4.0's: Ollama pins b10380 to b10488 there,
 * between b10361 and v0.4.0, whose sampler sources are the same.
 *
 * `--ollama 0.30`: Ollama v0.30.0 to v0.32.9 send the same fields (llm/llama_server.go is the same
 * in every tag) with RepeatPenalty 1.1 by default (1.0 from Ollama commit 6a261db7, v0.32.10), to
 * llama-server at llama.cpp b9452 to b10353, whose chain is v0.4.0's for these settings. What tells
 * those builds apart is outside ordinary values, so samplab refuses it there: before b9707 the
 * request's values were not clamped, before b10242 a repeat_penalty of 0 or below was used as
 * given, before b10273 repeat_last_n -1 was the slot's context. (Their dist sampler, which draws
 * no uniform for a lone candidate before b10355, is framework/llamacpp.c's.) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "logits/sl_logits.h"

/* api.DefaultOptions, but RepeatPenalty: 1.1 in v0.30.0 to v0.32.9, 1.0 from v0.32.10 */
#define OSV_DEFAULTS(penalty, penalty_why)                                                                   \
    {                                                                                                        \
        {SL_KEY_TEMPERATURE, 0, 0.8, "Temperature: 0.8 (api.DefaultOptions)", NULL, 0},                     \
        {SL_KEY_TOP_K, 0, 40, "TopK: 40 (api.DefaultOptions)", NULL, 0},                                      \
        {SL_KEY_TOP_P, 0, 0.9, "TopP: 0.9 (api.DefaultOptions)", NULL, 0},                                    \
        {SL_KEY_MIN_P, 0, 0, "MinP: 0 (api.DefaultOptions leaves it 0; llama-server's min-p at 0 is a no-op)", \
         NULL, 0},                                                                                           \
        {SL_KEY_TYPICAL, 0, 1, "TypicalP: 1.0 (api.DefaultOptions)", NULL, 0},                                \
        {SL_KEY_PENALTY, 0, penalty, penalty_why, NULL, 0},                                                  \
        {SL_KEY_FREQ, 0, 0, "FrequencyPenalty: 0.0 (api.DefaultOptions)", NULL, 0},                           \
        {SL_KEY_PRESENCE, 0, 0, "PresencePenalty: 0.0 (api.DefaultOptions)", NULL, 0},                        \
        {SL_KEY_LAST_N, 0, 64, "RepeatLastN: 64 (api.DefaultOptions)", NULL, 0},                              \
        {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},                                                                 \
    }
static const sl_logits_default osv_defaults[] = OSV_DEFAULTS(1, "RepeatPenalty: 1.0 (api.DefaultOptions)");
static const sl_logits_default osv030_defaults[] =
    OSV_DEFAULTS(1.1, "RepeatPenalty: 1.1 (api.DefaultOptions, v0.30.0 to v0.32.9)");

static double clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

/* --ollama 0.30: a value its llama.cpp builds treat in more than one way, refused by name */
static int line030_refused(const sl_logits_cfg *c, sl_error *err)
{
    const char *what = NULL;
    char v[64];
    if (c->top_k < 0)
        what = "--top-k", snprintf(v, sizeof v, "%ld", c->top_k);
    else if (!((float)c->top_p >= 0 && (float)c->top_p <= 1))
        what = "--top-p", snprintf(v, sizeof v, "%g", c->top_p);
    else if (!((float)c->min_p >= 0 && (float)c->min_p <= 1))
        what = "--min-p", snprintf(v, sizeof v, "%g", c->min_p);
    else if ((float)c->temperature < 0)
        what = "--temperature", snprintf(v, sizeof v, "%g", c->temperature);
    if (what)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama 0.30: %s %s: llama-server clamps it from llama.cpp b9707 "
                                 "(Ollama v0.30.11) and used it as given before (v0.30.0 to v0.30.10): two chains, not "
                                 "modelled by samplab; give a value in range",
                                 what, v);
    if (!((float)c->penalty > 0) || !isfinite(1.0f / (float)c->penalty))
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama 0.30: --repetition-penalty %g: llama.cpp refuses it from "
                                 "b10242 (Ollama v0.32.6) and applied it as given before: not modelled by samplab",
                                 c->penalty);
    if (c->last_n < 0)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama 0.30: --penalty-last-n %ld: llama-server refuses it from "
                                 "llama.cpp b10273 (Ollama v0.32.8) and took -1 as the slot's context (Ollama's "
                                 "num_ctx) before: not modelled by samplab",
                                 c->last_n);
    return SL_OK;
}

int sl_logits_ollama_server_cfg(const sl_logits_pipeline_type *t, const sl_logits_cfg *in, sl_logits_cfg *out,
                                sl_error *err)
{
    sl_logits_cfg c = *in;
    sl_logits_cfg_resolve(t, &c, NULL);
    if (t == &sl_logits_pipeline_ollama_server_030_type && line030_refused(&c, err))
        return SL_EINVAL;
    if (c.last_n < 0)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama 0.32: --penalty-last-n %ld: llama-server refuses "
                                 "repeat_last_n below 0 (\"Value must be between 0 <= value <= 2147483647\"), "
                                 "Ollama's -1 (num_ctx) included",
                                 c.last_n);
    /* typical_p 0: /api/generate (Completion) leaves it out (omitempty), so llama-server keeps 1.0,
     * while /api/chat (llamaServerChatRequest) sends the 0: two chains for one setting */
    if (c.has_typical && c.typical == 0)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama %s: --typical 0 is two chains: Ollama's /api/generate "
                                 "leaves typical_p 0 out (llama-server's 1.0, off: give --typical 1) and its /api/chat "
                                 "sends it (typical sampling at p 0: not modelled by samplab)",
                                 t == &sl_logits_pipeline_ollama_server_030_type ? "0.30" : "0.32");
    /* what reaches llama-server's common_params_sampling, as its schema reads the request */
    c.top_k = (long)clamp((double)c.top_k, 0, 2147483647.0);
    c.top_p = clamp((double)(float)c.top_p, 0, 1);
    c.min_p = clamp((double)(float)c.min_p, 0, 1);
    if ((float)c.temperature < 0)
        c.temperature = 0;
    c.stdcxx = SL_STDCXX_CLAMP; /* Ollama's Linux builds: gcc-toolset-13 (its Dockerfile), GCC <= 14's rule */
    *out = c;
    return SL_OK;
}

static int osv_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *cfg, sl_logits_result *out,
                   sl_error *err)
{
    sl_logits_cfg c;
    int rc = sl_logits_ollama_server_cfg(&sl_logits_pipeline_ollama_server_type, cfg, &c, err);
    return rc ? rc : sl_logits_pipeline_llamacpp_type.run(lf, ld, V, &c, out, err);
}

static int osv030_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *cfg, sl_logits_result *out,
                      sl_error *err)
{
    sl_logits_cfg c;
    int rc = sl_logits_ollama_server_cfg(&sl_logits_pipeline_ollama_server_030_type, cfg, &c, err);
    return rc ? rc : sl_logits_pipeline_llamacpp_type.run(lf, ld, V, &c, out, err);
}

const sl_logits_pipeline_type sl_logits_pipeline_ollama_server_type = {
    .name = "ollama",
    .summary = "Ollama v0.32.10 to v0.33.0-rc2 (--ollama 0.32): llama-server's default chain over llama.cpp v0.4.0 "
               "(penalties, top-k, typical, top-p, min-p, temperature); unset: T 0.8, top_k 40, top_p 0.9, min_p 0",
    .accepts = SL_LOGITS_OLLAMA_SERVER_ACCEPTS,
    .run = osv_run,
    .traits = SL_LOGITS_TRAIT_MIN_P_BEFORE_T | SL_LOGITS_TRAIT_OWN_DEFAULTS,
    .defaults = osv_defaults,
};

const sl_logits_pipeline_type sl_logits_pipeline_ollama_server_030_type = {
    .name = "ollama",
    .summary = "Ollama v0.30.0 to v0.32.9 (--ollama 0.30): llama-server's default chain over llama.cpp b9452 to "
               "b10353 (penalties, top-k, typical, top-p, min-p, temperature); unset: T 0.8, top_k 40, top_p 0.9, "
               "min_p 0, repeat_penalty 1.1",
    .accepts = SL_LOGITS_OLLAMA_SERVER_ACCEPTS,
    .run = osv030_run,
    .traits = SL_LOGITS_TRAIT_MIN_P_BEFORE_T | SL_LOGITS_TRAIT_OWN_DEFAULTS,
    .defaults = osv030_defaults,
};
