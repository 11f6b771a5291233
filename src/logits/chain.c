/* chain.c — a sampler chain: stage instances in order, as llama.cpp's
 * llama_sampler_chain (src/llama-sampler.cpp: llama_sampler_chain_apply calls
 * each member's apply in order, llama_sampler_chain_accept each member's
 * accept; reset, clone and free likewise).
 *
 * The chain does not hold the final dist or greedy stage: the framework
 * (framework/llamacpp.c) draws from what the chain leaves, with its release
 * line's draw rule. A chain may end in a selecting stage instead (mirostat,
 * mirostat v2, adaptive_p: common_sampler_init's replacements of dist), whose
 * own filtering and draw sl_logits_chain_select runs. A stage whose settings make it a no-op (llama.cpp 0.7.0
 * names it "?top-k" and the like) is not applied, which leaves the candidates
 * as applying it would. */
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

typedef struct chain_member {
    const sl_logits_stage_type *type;
    void *state;
} chain_member;

struct sl_logits_chain {
    size_t n;
    chain_member m[SL_LOGITS_ORDER_MAX];
};

const sl_logits_stage_type *const sl_logits_llama_default_order[] = {
    &sl_logits_stage_penalties, &sl_logits_stage_dry,   &sl_logits_stage_top_n_sigma, &sl_logits_stage_top_k,
    &sl_logits_stage_typical,   &sl_logits_stage_top_p, &sl_logits_stage_min_p,       &sl_logits_stage_xtc,
    &sl_logits_stage_temperature, NULL,
};

void sl_logits_chain_free(sl_logits_chain *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        if (c->m[i].type->free)
            c->m[i].type->free(c->m[i].state);
        free(c->m[i].state);
    }
    free(c);
}

/* Appends a stage instance of type t, initialised from cfg. */
static int chain_add(sl_logits_chain *c, const sl_logits_stage_type *t, const sl_logits_cfg *cfg, sl_error *err)
{
    if (c->n == SL_LOGITS_ORDER_MAX)
        return sl_base_error_set(err, SL_EINVAL, "llamacpp: more than %d stages", SL_LOGITS_ORDER_MAX);
    void *st = calloc(1, t->size ? t->size : 1);
    if (!st)
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for stage %s", t->name);
    c->m[c->n].type = t;
    c->m[c->n].state = st;
    c->n++;
    return t->init(st, cfg, err);
}

int sl_logits_chain_new_llama(const sl_logits_cfg *cfg, sl_logits_chain **out, sl_error *err)
{
    *out = NULL;
    /* the stages read the settings in force: unset ones are common_params_sampling's */
    sl_logits_cfg in_force = *cfg;
    sl_logits_cfg_resolve(&sl_logits_pipeline_llamacpp_type, &in_force, NULL);
    cfg = &in_force;
    if (cfg->has_min_keep && cfg->min_keep < 0)
        return sl_base_error_set(err, SL_EINVAL, "llamacpp: min_keep %ld is negative (it is a size_t)", cfg->min_keep);
    if (cfg->mirostat < 0 || cfg->mirostat > 2) /* common_sampler_init: GGML_ASSERT "unknown mirostat version" */
        return sl_base_error_set(err, SL_EINVAL,
                                 "llamacpp: --mirostat %ld: llama.cpp takes 0, 1 or 2 (common_sampler_init aborts "
                                 "on another value: 'unknown mirostat version')",
                                 cfg->mirostat);
    sl_logits_chain *c = calloc(1, sizeof *c);
    if (!c)
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for a sampler chain");
    int rc = SL_OK;
    if (cfg->n_bias) /* common_sampler_init: logit_bias before the user's stages (and before mirostat's) */
        rc = chain_add(c, &sl_logits_stage_logit_bias, cfg, err);
    if (!rc && cfg->mirostat) { /* common_sampler_init: temp(temp) then mirostat, whatever the order says */
        rc = chain_add(c, &sl_logits_stage_temp_plain, cfg, err);
        if (!rc)
            rc = chain_add(c, cfg->mirostat == 1 ? &sl_logits_stage_mirostat : &sl_logits_stage_mirostat_v2, cfg,
                           err);
    } else if (!rc) {
        size_t n = 0;
        if (cfg->has_order)
            n = cfg->n_order < SL_LOGITS_ORDER_MAX ? cfg->n_order : SL_LOGITS_ORDER_MAX;
        else
            while (sl_logits_llama_default_order[n])
                n++;
        if (n + c->n > SL_LOGITS_ORDER_MAX) {
            sl_logits_chain_free(c);
            return sl_base_error_set(err, SL_EINVAL, "llamacpp: %zu stages and the logit bias: samplab models chains "
                                     "of at most %d", n, SL_LOGITS_ORDER_MAX);
        }
        int adaptive = 0; /* common_sampler_init: adaptive_p, wherever named, goes last in place of dist */
        for (size_t i = 0; !rc && i < n; i++) {
            const sl_logits_stage_type *t = cfg->has_order ? cfg->order[i] : sl_logits_llama_default_order[i];
            if (t == &sl_logits_stage_adaptive_p)
                adaptive = 1;
            else
                rc = chain_add(c, t, cfg, err);
        }
        if (!rc && adaptive)
            rc = chain_add(c, &sl_logits_stage_adaptive_p, cfg, err);
    }
    if (rc) {
        sl_logits_chain_free(c);
        return rc;
    }
    *out = c;
    return SL_OK;
}

int sl_logits_chain_run(sl_logits_chain *c, const float *lf, size_t V, sl_logits_llama_array *a,
                        sl_logits_result *trace, sl_error *err)
{
    a->data = malloc((V ? V : 1) * sizeof *a->data);
    if (!a->data)
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for %zu candidates", V);
    for (size_t i = 0; i < V; i++) {
        a->data[i].id = (long)i;
        a->data[i].logit = lf[i];
        a->data[i].p = 0.0f;
    }
    a->size = V;
    a->sorted = 0;
    for (size_t i = 0; i < c->n; i++) {
        const chain_member *m = &c->m[i];
        if (m->type->select || !m->type->active(m->state))
            continue; /* a selecting stage runs in sl_logits_chain_select */
        int rc = m->type->apply(m->state, a, err);
        if (rc) { /* the array is freed: a half-filtered chain is no result */
            free(a->data);
            a->data = NULL;
            a->size = 0;
            return rc;
        }
        if (trace)
            sl_logits_step(trace, m->type->step(m->state));
    }
    return SL_OK;
}

int sl_logits_chain_accept(sl_logits_chain *c, long token, sl_error *err)
{
    for (size_t i = 0; i < c->n; i++) {
        const chain_member *m = &c->m[i];
        int rc = m->type->accept ? m->type->accept(m->state, token, err) : SL_OK;
        if (rc)
            return rc;
    }
    return SL_OK;
}

void sl_logits_chain_reset(sl_logits_chain *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->m[i].type->reset)
            c->m[i].type->reset(c->m[i].state);
}

int sl_logits_chain_clone(const sl_logits_chain *c, sl_logits_chain **out, sl_error *err)
{
    *out = NULL;
    sl_logits_chain *d = calloc(1, sizeof *d);
    if (!d)
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for a sampler chain");
    for (size_t i = 0; i < c->n; i++) {
        const sl_logits_stage_type *t = c->m[i].type;
        void *st = calloc(1, t->size ? t->size : 1);
        if (!st) {
            sl_logits_chain_free(d);
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for stage %s", t->name);
        }
        int rc = SL_OK;
        if (t->clone)
            rc = t->clone(st, c->m[i].state, err);
        else
            memcpy(st, c->m[i].state, t->size);
        if (rc) { /* a failed clone owns nothing */
            free(st);
            sl_logits_chain_free(d);
            return rc;
        }
        d->m[d->n].type = t;
        d->m[d->n].state = st;
        d->n++;
    }
    *out = d;
    return SL_OK;
}

size_t sl_logits_chain_n(const sl_logits_chain *c)
{
    return c->n;
}

const sl_logits_stage_type *sl_logits_chain_stage(const sl_logits_chain *c, size_t i)
{
    return i < c->n ? c->m[i].type : NULL;
}

int sl_logits_chain_ends_greedy(const sl_logits_chain *c)
{
    const chain_member *m = c->n ? &c->m[c->n - 1] : NULL;
    return m && m->type->ends_greedy && m->type->ends_greedy(m->state);
}

int sl_logits_chain_stateful(const sl_logits_chain *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->m[i].type->uses_history && c->m[i].type->uses_history(c->m[i].state))
            return 1;
    return 0;
}

int sl_logits_chain_selects(const sl_logits_chain *c)
{
    return c->n && c->m[c->n - 1].type->select;
}

int sl_logits_chain_select(sl_logits_chain *c, sl_logits_llama_array *a, sl_rng *rng, size_t *idx, sl_error *err)
{
    const chain_member *m = c->n ? &c->m[c->n - 1] : NULL;
    if (!m || !m->type->select)
        return sl_base_error_set(err, SL_EINVAL, "llamacpp: the chain ends in no selecting stage");
    return m->type->select(m->state, a, rng, idx, err);
}

uint64_t sl_logits_chain_words(const sl_logits_chain *c)
{
    uint64_t w = 0;
    for (size_t i = 0; i < c->n; i++)
        if (c->m[i].type->words)
            w += c->m[i].type->words(c->m[i].state);
    return w;
}

int sl_logits_chain_random(const sl_logits_chain *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->m[i].type->words && c->m[i].type->active(c->m[i].state))
            return 1;
    return 0;
}
