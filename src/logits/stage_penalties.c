/* stage_penalties.c — llama.cpp's penalties stage as a stage type: the
 * repetition, frequency and presence penalties over the last penalty_last_n
 * accepted tokens.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp llama_sampler_init_penalties,
 * llama_sampler_penalties_accept (a ring buffer of the last penalty_last_n
 * tokens) and llama_sampler_penalties_apply (sl_logits_llama_penalties, in
 * logits/llamacpp.c), with common/common.h's defaults (0.7.0): last_n 64,
 * repeat 1.0, freq 0.0, present 0.0. The ring is a sl_logits_window, so
 * apply reads the tokens oldest first as the one-shot function does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct penalties {
    long last_n;
    float repeat, freq, present;
    sl_logits_window w; /* the last last_n accepted tokens */
} penalties;

static const sl_logits_param penalties_params[] = {
    {"penalty_last_n", SL_LOGITS_PARAM_INT, 64, 0, HUGE_VAL, "penalty_last_n",
     "how many of the last accepted tokens are penalised (0: none)"},
    {"penalty_repeat", SL_LOGITS_PARAM_FLOAT, 1.0, -HUGE_VAL, HUGE_VAL, "repetition_penalty",
     "a seen token's logit / R when > 0, * R otherwise (1: off)"},
    {"penalty_freq", SL_LOGITS_PARAM_FLOAT, 0.0, -HUGE_VAL, HUGE_VAL, "frequency_penalty",
     "minus F times the token's count in the window"},
    {"penalty_present", SL_LOGITS_PARAM_FLOAT, 0.0, -HUGE_VAL, HUGE_VAL, "presence_penalty",
     "minus P once for a token seen in the window"},
};

static int penalties_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    penalties *p = st;
    memset(p, 0, sizeof *p);
    p->last_n = c->last_n;
    if (p->last_n < 0)
        /* llama_sampler_init_penalties (0.7.0) clamps it to 0, i.e. no penalty, measured through
         * its C API; llama-cli's --repeat-last-n -1 is the context size, resolved before the call */
        return sl_base_error_set(err, SL_EINVAL,
                                 "llamacpp: penalty_last_n %ld is negative: libllama's "
                                 "llama_sampler_init_penalties clamps it to 0 (no penalty), and llama-cli's "
                                 "--repeat-last-n -1 means the context size; give that number, or 0",
                                 p->last_n);
    p->repeat = (float)c->penalty;
    p->freq = (float)c->freq;
    p->present = (float)c->presence;
    return SL_OK;
}

static int penalties_uses_history(const void *st)
{
    const penalties *p = st;
    return p->last_n > 0 && (p->repeat != 1.0f || p->freq != 0.0f || p->present != 0.0f);
}

static int penalties_active(const void *st)
{
    const penalties *p = st;
    return p->w.n && penalties_uses_history(st);
}

static const char *penalties_step(const void *st)
{
    (void)st;
    return "penalties";
}

static int penalties_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    (void)err;
    penalties *p = st;
    sl_logits_llama_penalties(a, p->w.buf + p->w.start, p->w.n, p->last_n, p->repeat, p->freq, p->present);
    return SL_OK;
}

static int penalties_accept(void *st, long token, sl_error *err)
{
    penalties *p = st;
    return sl_logits_window_push(&p->w, p->last_n > 0 ? (size_t)p->last_n : 0, token, err);
}

static void penalties_reset(void *st)
{
    penalties *p = st;
    p->w.start = p->w.n = 0;
}

static int penalties_clone(void *dst, const void *src, sl_error *err)
{
    const penalties *s = src;
    penalties *d = dst;
    *d = *s;
    return sl_logits_window_clone(&d->w, &s->w, err);
}

static void penalties_free(void *st)
{
    penalties *p = st;
    sl_logits_window_free(&p->w);
}

const sl_logits_stage_type sl_logits_stage_penalties = {
    .name = "penalties",
    .label = "penalties",
    .letter = 'e',
    .upstream = "llama_sampler_init_penalties, llama_sampler_penalties_accept, llama_sampler_penalties_apply",
    .params = penalties_params,
    .n_params = sizeof penalties_params / sizeof *penalties_params,
    .size = sizeof(penalties),
    .init = penalties_init,
    .active = penalties_active,
    .step = penalties_step,
    .apply = penalties_apply,
    .accept = penalties_accept,
    .uses_history = penalties_uses_history,
    .reset = penalties_reset,
    .clone = penalties_clone,
    .free = penalties_free,
};
