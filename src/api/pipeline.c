/* pipeline.c — `samplab pipeline` as a call, and the object its --json prints
 * (moved from cli/pipeline.c): the framework, its precision and CPU kernel,
 * the filters that ran, the kept ids and all V probabilities. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

char *sl_api_pipeline_json(const sl_api_pipeline_result *r)
{
    const sl_logits_pipeline_type *t = r->t;
    const sl_logits_result *res = &r->res;
    int cpu = r->cpu;
    const sl_logits_cfg *given = &r->given;
    json_t *root = json_object(), *kept = json_array(), *probs = json_array(), *steps = json_array();
    for (size_t i = 0; i < res->V; i++) {
        if (res->kept[i])
            json_array_append_new(kept, json_integer((json_int_t)i));
        json_array_append_new(probs, json_real(res->probs[i]));
    }
    for (size_t i = 0; i < res->n_steps; i++)
        json_array_append_new(steps, json_string(res->steps[i]));
    json_object_set_new(root, "framework", json_string(t->name));
    json_object_set_new(root, "precision", json_integer(res->precision));
    if (t->accepts & SL_OPT_CPU)
        json_object_set_new(root, "cpu", json_string(sl_logits_cpu_name(sl_logits_cpu_resolve(cpu))));
    if (r->samplers)
        json_object_set_new(root, "samplers", json_string(r->samplers));
    if (given->has_seed)
        json_object_set_new(root, "seed", json_integer((json_int_t)given->seed));
    json_object_set_new(root, "steps", steps);
    json_object_set_new(root, "kept", kept);
    json_object_set_new(root, "probs", probs);
    sl_api_settings_echo(root, t, given);
    char *s = sl_api_json_dumps(root, JSON_REAL_PRECISION(res->precision == 32 ? 9 : 17) | JSON_COMPACT);
    json_decref(root);
    return s;
}

static int logits_input(const char *cmd, const sl_api_src *src, const sl_api_settings *s, sl_vec *vec,
                        sl_logits_cfg *cfg, sl_error *err);

int sl_api_logits_input(const char *cmd, const sl_api_src *src, const sl_api_settings *s, sl_vec *vec,
                        sl_logits_cfg *cfg, sl_error *err)
{
    sl_fw_opts fo;
    memset(vec, 0, sizeof *vec);
    *cfg = s->cfg;
    cfg->context = NULL;
    cfg->context_n = 0;
    if (sl_api_fw_opts(cmd, s, &fo, err))
        return SL_EINVAL;
    cfg->cpu = fo.cfg.cpu;
    cfg->has_order = fo.cfg.has_order; /* the stage order read there */
    cfg->n_order = fo.cfg.n_order;
    memcpy(cfg->order, fo.cfg.order, sizeof cfg->order);
    /* the DRY breakers go with cfg: its owner frees them beside cfg->context */
    cfg->has_dry_breakers = fo.cfg.has_dry_breakers;
    cfg->dry_breaker = fo.cfg.dry_breaker;
    cfg->dry_breaker_n = fo.cfg.dry_breaker_n;
    cfg->dry_tails = fo.cfg.dry_tails; /* inside dry_breaker's block */
    fo.cfg.dry_breaker = NULL;
    fo.cfg.dry_tails = NULL;
    int rc = logits_input(cmd, src, s, vec, cfg, err);
    if (rc) {
        free((void *)cfg->dry_breaker);
        cfg->dry_breaker = NULL;
        cfg->dry_tails = NULL;
    }
    return rc;
}

static int logits_input(const char *cmd, const sl_api_src *src, const sl_api_settings *s, sl_vec *vec,
                        sl_logits_cfg *cfg, sl_error *err)
{
    if (!src->spec && !src->data)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: --logits SRC is required", cmd);
    /* the penalty named as given (the first of them, as draw names it) */
    const char *pen = cfg->has_penalty ? SL_API_NAME(REPETITION_PENALTY) : cfg->has_freq ? SL_API_NAME(FREQUENCY_PENALTY)
                      : cfg->has_presence ? SL_API_NAME(PRESENCE_PENALTY) : NULL;
    if (pen && !s->context)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s needs --context IDS (the token ids it applies to)",
                                 cmd, pen);
    if (s->context && !pen && !cfg->has_dry_mult) /* DRY reads the history too */
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: --context is only used by --repetition-penalty (or a llama.cpp penalty, "
                                 "or DRY)", cmd);
    if (sl_api_vec_read(src, vec, err))
        return sl_api_lib_error(err, SL_EINVAL);
    if (sl_api_vocab_fits(cmd, s, cfg, vec->n, err)) {
        sl_base_vec_free(vec);
        return SL_EINVAL;
    }
    long *ctx = NULL;
    size_t ctx_n = 0;
    if (s->context && sl_api_ids(cmd, SL_API_NAME(CONTEXT), s->context, "context", vec->n, &ctx, &ctx_n, err)) {
        sl_base_vec_free(vec);
        return SL_EINVAL;
    }
    cfg->context = ctx;
    cfg->context_n = ctx_n;
    return SL_OK;
}

/* --seed: the chain's seed, which llama.cpp's XTC seeds its std::mt19937 with (common_sampler_init
 * passes params.seed); the other pipelines draw nothing, so it is refused there rather than ignored. */
static int pipeline_seed(const sl_logits_pipeline_type *t, const sl_api_settings *s, sl_logits_cfg *cfg, sl_error *err)
{
    sl_seed seed;
    if (!s->seed)
        return SL_OK;
    if (!(t->accepts & SL_OPT_ORDER))
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab pipeline: --seed: framework %s's pipeline draws nothing (its seed is for "
                                 "draw, replay and check)", t->name);
    if (sl_api_seed(s, 0, &seed, err))
        return SL_EINVAL;
    if (seed.hi || seed.lo >= 0xFFFFFFFFu)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab pipeline: --seed: framework %s takes a seed below 4294967295 (a uint32_t; "
                                 "0xFFFFFFFF is LLAMA_DEFAULT_SEED, a random seed)", t->name);
    cfg->has_seed = 1;
    cfg->seed = (uint32_t)seed.lo;
    return SL_OK;
}

int sl_api_pipeline_run(const sl_api_src *src, const sl_api_settings *s, sl_api_pipeline_result *r, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_pipeline_run", r);
    sl_api_or_defaults(&s, &src);
    memset(r, 0, sizeof *r);
    if (sl_api_settings_check(s, "sl_api_pipeline_run", err))
        return SL_EINVAL;
    if (!s->framework)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab pipeline: --framework F is required (samplab pipeline --help lists them)");
    const sl_logits_pipeline_type *t = sl_api_pipeline_on_line(sl_logits_pipeline_lookup(s->framework), s);
    if (!t)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab pipeline: unknown framework '%s' (samplab pipeline --help lists them)",
                                 s->framework);
    sl_api_settings q = *s;
    q.dtype = q.torch = q.torch_build = q.llamacpp = q.rand = q.cpu = NULL; /* not of the sampling groups */
    q.has_num_samples = q.replacement = q.no_replacement = q.simd_sum = 0;
    q.shuffle = NULL;
    const char *miss = sl_api_refused(&q, 1, t->accepts | SL_OPT_LOGITS);
    char why[512];
    if (miss)
        return sl_base_error_set(err, SL_EINVAL, "samplab pipeline: %s", sl_api_not_taken(miss, t->name, why, sizeof why));
    if ((t->traits & SL_LOGITS_TRAIT_NEEDS_VARIANT) && !s->ollama) /* Ollama: the one such pipeline */
        return sl_base_error_set(err, SL_EINVAL, "samplab pipeline: " SL_FW_OLLAMA_NEEDS_LINE);
    const sl_fw_variant *line;
    sl_error verr;
    if (s->ollama && sl_fw_variant_find(sl_fw_lookup("ollama"), s->ollama, SL_API_NAME(OLLAMA), &line, &verr))
        return sl_base_error_set(err, SL_EINVAL, "samplab pipeline: %s", verr.msg);
    sl_vec vec;
    sl_logits_cfg cfg;
    int rc = sl_api_logits_input("pipeline", src, s, &vec, &cfg, err);
    if (rc)
        return rc;
    if ((rc = pipeline_seed(t, s, &cfg, err))) {
        sl_base_vec_free(&vec);
        free((long *)cfg.context);
        free((void *)cfg.dry_breaker);
        return rc;
    }
    if ((rc = sl_logits_pipeline_run(t, &vec, &cfg, &r->res, err))) {
        sl_api_lib_error(err, rc);
    } else {
        r->t = t;
        r->cpu = cfg.cpu;
        r->given = cfg;
        r->given.context = NULL;
        r->given.context_n = 0;
        r->samplers = sl_api_samplers(t, t->accepts, &cfg, r->samplers_buf, sizeof r->samplers_buf);
        r->note = t->note ? t->note(&cfg) : NULL;
    }
    free((long *)cfg.context);
    free((void *)cfg.dry_breaker);
    sl_base_vec_free(&vec);
    return rc;
}

void sl_api_pipeline_result_free(sl_api_pipeline_result *r)
{
    if (!r)
        return;
    if (r->t)
        sl_logits_result_free(&r->res);
    r->t = NULL;
}

int sl_api_pipeline(const sl_api_src *src, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_pipeline", json);
    *json = NULL;
    sl_api_pipeline_result r;
    int rc = sl_api_pipeline_run(src, s, &r, err);
    if (rc)
        return rc;
    *json = sl_api_pipeline_json(&r);
    sl_api_pipeline_result_free(&r);
    return *json ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab pipeline: out of memory writing JSON");
}
