/* stage_logit_bias.c — llama.cpp's logit-bias stage as a stage type.
 *
 * Reproduces llama.cpp src/llama-sampler.cpp llama_sampler_init_logit_bias and
 * llama_sampler_logit_bias_apply (read in v0.4.0, measured on libllama 0.7.0:
 * analysis/golden/current/llamacpp_stages.c): each bias, in the order given, is
 * added in float to the candidate whose id it names (at its own index when the
 * array is unshuffled, else the first candidate with that id); a token id that
 * no candidate has (negative, or >= V) changes nothing; of two unplaced biases
 * for one token only the first is added (its search loop breaks at the first). common_sampler_init
 * puts it first, before the user's stages, when --logit-bias is given. It is
 * not a --samplers name: only --logit-bias adds it. */
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct bias {
    size_t n;
    long *token;
    float *bias;
} bias;

static int bias_init(void *st, const sl_logits_cfg *c, sl_error *err)
{
    bias *b = st;
    b->n = c->n_bias;
    if (!b->n)
        return SL_OK;
    b->token = malloc(b->n * sizeof *b->token);
    b->bias = malloc(b->n * sizeof *b->bias);
    if (!b->token || !b->bias) {
        free(b->token);
        free(b->bias);
        b->token = NULL, b->bias = NULL, b->n = 0;
        return sl_base_error_set(err, SL_ENOMEM, "logit_bias: out of memory for %zu biases", c->n_bias);
    }
    memcpy(b->token, c->bias_token, b->n * sizeof *b->token);
    memcpy(b->bias, c->bias, b->n * sizeof *b->bias);
    return SL_OK;
}

static int bias_active(const void *st)
{
    return ((const bias *)st)->n > 0;
}

static const char *bias_step(const void *st)
{
    (void)st;
    return "logit-bias";
}

static int bias_apply(void *st, sl_logits_llama_array *a, sl_error *err)
{
    (void)err;
    const bias *b = st;
    for (size_t k = 0; k < b->n; k++) {
        long t = b->token[k];
        if (t >= 0 && (size_t)t < a->size && a->data[t].id == t) {
            a->data[t].logit += b->bias[k];
            continue;
        }
        /* the search loop adds only the first of the unplaced biases that name a token */
        int dup = 0;
        for (size_t j = 0; j < k && !dup; j++)
            dup = b->token[j] == t && !(t >= 0 && (size_t)t < a->size && a->data[t].id == t);
        for (size_t i = 0; !dup && i < a->size; i++)
            if (a->data[i].id == t) {
                a->data[i].logit += b->bias[k];
                break;
            }
    }
    return SL_OK;
}

static int bias_clone(void *dst, const void *src, sl_error *err)
{
    const bias *s = src;
    sl_logits_cfg c;
    memset(&c, 0, sizeof c);
    c.n_bias = s->n, c.bias_token = s->token, c.bias = s->bias;
    return bias_init(dst, &c, err);
}

static void bias_free(void *st)
{
    bias *b = st;
    free(b->token);
    free(b->bias);
}

const sl_logits_stage_type sl_logits_stage_logit_bias = {
    .name = "logit_bias",
    .label = "logit-bias",
    .letter = 0,
    .upstream = "llama_sampler_init_logit_bias, llama_sampler_logit_bias_apply",
    .size = sizeof(bias),
    .init = bias_init,
    .active = bias_active,
    .step = bias_step,
    .apply = bias_apply,
    .clone = bias_clone,
    .free = bias_free,
};
