/* settings.c — the commands' options as one struct, and the refusal every
 * framework makes of an option it does not have (the command line's rule:
 * the first such option in its table order is named, never ignored). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/sl_api.h"

void sl_api_settings_init(sl_api_settings *s)
{
    if (!s)
        return;
    memset(s, 0, sizeof *s);
}

void sl_api_or_defaults(const sl_api_settings **s, const sl_api_src **src)
{
    static const sl_api_settings none;
    static const sl_api_src no_src = {NULL, NULL, -1, NULL, 0, NULL, NULL, 0};
    if (!*s)
        *s = &none;
    if (src && !*src)
        *src = &no_src;
}

int sl_api_settings_check(const sl_api_settings *s, const char *call, sl_error *err)
{
    SL_BASE_NONNULL(err, call, s);
    if (s->has_alpha && !isfinite(s->alpha))
        return sl_base_error_set(err, SL_EINVAL, "%s: alpha is %g; a setting is a finite number", call, s->alpha);
    if (s->has_target && !isfinite(s->target))
        return sl_base_error_set(err, SL_EINVAL, "%s: target is %g; a setting is a finite number", call, s->target);
    return sl_logits_cfg_check(&s->cfg, call, err);
}

/* A text sl_api_settings_set copied, in a list the settings own. */
struct sl_api_text {
    struct sl_api_text *next;
    char s[];
};

sl_api_settings *sl_api_settings_new(const char *cmd)
{
    if (!cmd)
        return NULL; /* the command its messages name */
    sl_api_settings *s = malloc(sizeof *s);
    if (s) {
        sl_api_settings_init(s);
        s->cmd = cmd;
    }
    return s;
}

void sl_api_settings_free(sl_api_settings *s)
{
    if (!s)
        return;
    for (struct sl_api_text *t = s->owned, *next; t; t = next) {
        next = t->next;
        free(t);
    }
    free(s);
}

void sl_api_settings_land(sl_api_settings *s, const sl_api_option *o, const char *text, const sl_api_value *v)
{
    char *base = (char *)s;
    if (o->at.has)
        *(int *)(base + o->at.has - 1) = 1;
    if (o->at.text)
        *(const char **)(base + o->at.text - 1) = text;
    if (!o->at.val)
        return;
    void *f = base + o->at.val - 1;
    switch (o->kind) {
    case SL_API_SIZE: *(size_t *)f = v->size; break;
    case SL_API_LONG:
    case SL_API_INDEX: *(long *)f = v->l; break;
    case SL_API_DOUBLE: *(double *)f = v->d; break;
    case SL_API_LIST: { /* one more use (callers refuse the one past SL_API_LIST_MAX) */
        sl_api_list *l = f;
        if (l->n == SL_API_LIST_MAX)
            break;
        if (o == &sl_api_options[SL_API_OPT_LOGIT_BIAS]) { /* read as numbers, in the order given */
            s->logit_bias_token[l->n] = v->l;
            s->logit_bias_value[l->n] = (float)v->d;
            s->cfg.n_bias = l->n + 1;
            s->cfg.bias_token = s->logit_bias_token;
            s->cfg.bias = s->logit_bias_value;
        }
        l->v[l->n++] = text;
        break;
    }
    default: *(const char **)f = text; break;
    }
}

int sl_api_settings_given(const sl_api_settings *s, const sl_api_option *o, int is_logits)
{
    const char *base = (const char *)s;
    if (o == &sl_api_options[SL_API_OPT_PROBS])
        return !is_logits;
    if (o == &sl_api_options[SL_API_OPT_LOGITS])
        return is_logits;
    if (o->at.has)
        return *(const int *)(base + o->at.has - 1) != 0;
    if (o->at.val && o->kind == SL_API_STRING)
        return *(const char *const *)(base + o->at.val - 1) != NULL;
    return 0;
}

/* The option keyed `key`, or SL_EINVAL with the command line's refusal. */
static const sl_api_option *keyed(const char *cmd, const char *key, sl_error *err)
{
    char e[1024], line[1100];
    const char *c = cmd ? cmd : "";
    const sl_api_option *o = key ? sl_api_option_keyed(key) : NULL;
    if (o && sl_api_option_refusal(o, e, sizeof e)) {
        sl_base_error_set(err, SL_EINVAL, "samplab%s%s: %s", *c ? " " : "", c, e);
        return NULL;
    }
    if (!o) {
        /* the option a keyword would be, as the command line would be given it */
        size_t k = 0;
        line[k++] = '-';
        line[k++] = '-';
        for (const char *p = key ? key : ""; *p && k + 1 < sizeof line; p++)
            line[k++] = *p == '_' ? '-' : *p;
        line[k] = '\0';
        sl_base_error_set(err, SL_EINVAL, "samplab%s%s: unknown option '%s' (samplab %s --help)", *c ? " " : "", c,
                          sl_base_esc_str(line, e, sizeof e), *c ? c : "CMD");
        return NULL;
    }
    /* an option the command does not take is refused, as its command line refuses it, so a
     * binding's keyword of another command is never taken and then ignored */
    const sl_api_cmd *sc = sl_api_cmd_lookup(c);
    if (sc && !sl_api_cmd_takes(sc, (sl_api_opt)(o - sl_api_options))) {
        sl_base_error_set(err, SL_EINVAL, "samplab %s: %s is not an option of %s (samplab %s --help)", c, o->name, c, c);
        return NULL;
    }
    return o;
}

int sl_api_option_check(const char *cmd, const char *key, const char *text, sl_error *err)
{
    char why[2100];
    sl_api_value v;
    const sl_api_option *o = keyed(cmd, key, err);
    if (!o)
        return SL_EINVAL;
    if (o->kind != SL_API_FLAG && o->kind != SL_API_STRING && sl_api_option_read(o, text ? text : "", &v, why, sizeof why))
        return sl_base_error_set(err, SL_EINVAL, "samplab%s%s: %s", cmd && *cmd ? " " : "", cmd ? cmd : "", why);
    return SL_OK;
}

int sl_api_settings_set(sl_api_settings *s, const char *key, const char *text, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_settings_set", s);
    SL_BASE_NONNULL(err, "sl_api_settings_set", key);
    const sl_api_option *o = keyed(s->cmd, key, err);
    sl_api_value v;
    if (!o)
        return SL_EINVAL;
    /* an option only a command line has (--json, --out ...): no call takes it */
    if (!o->at.has && !o->at.val) {
        const char *c = s->cmd ? s->cmd : "";
        return sl_base_error_set(err, SL_EINVAL, "samplab%s%s: unknown option '%s' (samplab %s --help)", *c ? " " : "",
                                 c, o->name, *c ? c : "CMD");
    }
    if (sl_api_option_check(s->cmd, key, text, err))
        return SL_EINVAL;
    if (o->kind == SL_API_LIST && ((const sl_api_list *)(const void *)((const char *)s + o->at.val - 1))->n ==
                                      SL_API_LIST_MAX)
        return sl_base_error_set(err, SL_EINVAL, "samplab%s%s: %s given more than %d times", s->cmd ? " " : "",
                                 s->cmd ? s->cmd : "", o->name, SL_API_LIST_MAX);
    const char *copy = NULL;
    if (o->kind != SL_API_FLAG) {
        size_t n = strlen(text ? text : "");
        struct sl_api_text *t = malloc(sizeof *t + n + 1);
        if (!t)
            return sl_base_error_set(err, SL_ENOMEM, "samplab: out of memory for the setting %s", o->name);
        memcpy(t->s, text ? text : "", n + 1);
        t->next = s->owned;
        s->owned = t;
        copy = t->s;
    }
    sl_api_option_read(o, copy ? copy : "", &v, NULL, 0);
    sl_api_settings_land(s, o, copy, &v);
    return SL_OK;
}

const char *sl_api_refused_bit(const sl_api_settings *s, int is_logits, unsigned accepts, unsigned *bit)
{
    /* the schema's order, each option with its SL_OPT_* bit */
    for (const sl_api_option *o = sl_api_options + 1; o < sl_api_options + SL_API_OPT_COUNT; o++)
        if (o->bit && sl_api_settings_given(s, o, is_logits) && !(o->bit & accepts)) {
            if (bit)
                *bit = o->bit;
            return o->name;
        }
    return NULL;
}

const char *sl_api_refused(const sl_api_settings *s, int is_logits, unsigned accepts)
{
    return sl_api_refused_bit(s, is_logits, accepts, NULL);
}

const char *sl_api_not_taken(const char *opt, const char *framework, char *buf, size_t n)
{
    /* the library's own name for it, where the framework's library has the setting */
    const sl_api_option *o = sl_api_option_named(opt);
    const char *up = !o ? NULL
                     : !strcmp(framework, "hf")       ? o->hf
                     : !strcmp(framework, "vllm")     ? o->vllm
                     : !strcmp(framework, "llamacpp") ? o->llamacpp
                                                      : NULL;
    const char *lib = !strcmp(framework, "hf") ? "transformers'" : !strcmp(framework, "vllm") ? "vLLM's" : "llama.cpp's";
    const sl_fw_type *ft = sl_fw_lookup(framework);
    for (const char *const *u = ft && !up ? ft->unmodelled : NULL; u && u[0]; u += 2)
        if (!strcmp(u[0], opt)) {
            snprintf(buf, n, "%s: %s is not modelled by samplab for framework %s", opt, u[1], framework);
            return buf;
        }
    /* a library without a replacement setting: why (its sampler draws one token a step ...) */
    int repl = !strcmp(opt, SL_API_NAME(REPLACEMENT)) || !strcmp(opt, SL_API_NAME(NO_REPLACEMENT));
    const char *why = repl && ft ? ft->replacement_why : NULL;
    if (up)
        snprintf(buf, n, "%s: %s %s is not modelled by samplab for framework %s", opt, lib, up, framework);
    else if (why)
        snprintf(buf, n, "%s is not an option of framework %s: %s", opt, framework, why);
    else if (ft && ft->absent_why)
        snprintf(buf, n, "%s is not an option of framework %s: %s", opt, framework, ft->absent_why);
    else
        snprintf(buf, n, "%s is not an option of framework %s", opt, framework);
    return buf;
}

const char *sl_api_bit_names(unsigned bit, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (const sl_api_option *o = sl_api_options + 1; o < sl_api_options + SL_API_OPT_COUNT && k < n; o++)
        if (o->bit == bit)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "/" : "", o->name);
    return buf;
}

int sl_api_lib_error(sl_error *err, int rc)
{
    char m[sizeof err->msg];
    snprintf(m, sizeof m, "%s", err->msg);
    /* too long for the line: sl_base_error_set keeps its head and its tail (where the position is) */
    sl_base_error_set(err, rc ? rc : SL_EINVAL, "samplab: %s", m);
    return rc ? rc : SL_EINVAL;
}

int sl_api_lib_error_in(sl_error *err, const char *source, int rc)
{
    char m[sizeof err->msg];
    snprintf(m, sizeof m, "%s", err->msg);
    sl_base_error_set(err, rc ? rc : SL_EINVAL, "samplab: %s: %s", source, m);
    return rc ? rc : SL_EINVAL;
}

int sl_api_seed(const sl_api_settings *s, int with_stream, sl_seed *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    out->lo = 42; /* samplab's default seed */
    /* named by option, as the command line prints them (sl_cli_seed) */
    /* a framework (or generator) seeded from a JavaScript Number takes -1 and 1.5 as it does */
    const sl_fw_type *ft = s->framework ? sl_fw_lookup(s->framework) : NULL;
    int js = (ft && ft->seed_number) || (s->rng && !strcmp(s->rng, sl_rng_alea_type.name));
    if (s->seed && (js ? sl_base_seed_parse_js : sl_base_seed_parse)(s->seed, out, err))
        return sl_api_lib_error_in(err, SL_API_NAME(SEED), SL_EINVAL);
    if (with_stream && s->stream) {
        if (sl_base_seed_parse_stream(s->stream, &out->stream, err))
            return sl_api_lib_error_in(err, SL_API_NAME(STREAM), SL_EINVAL);
        out->has_stream = 1;
    }
    return SL_OK;
}

const char *sl_api_samplers(const sl_logits_pipeline_type *t, unsigned accepts, const sl_logits_cfg *cfg, char *buf,
                            size_t len)
{
    if (!(accepts & SL_OPT_ORDER))
        return NULL;
    if (t != &sl_logits_pipeline_nlc_type)
        return sl_logits_llama_order_text(cfg, buf, len);
    /* node-llama-cpp builds its own chain from its settings (greedy at temperature <= 0) */
    sl_logits_cfg c;
    int greedy;
    sl_error e;
    if (sl_logits_nlc_cfg(cfg, &c, &greedy, &e))
        return NULL;
    size_t o = strlen(sl_logits_llama_order_text(&c, buf, len));
    if (o < len)
        snprintf(buf + o, len - o, ";%s", greedy ? "greedy" : "dist");
    return buf;
}

int sl_api_fw_dtype(const char *cmd, const char *dtype, sl_fw_opts *fo, sl_error *err)
{
    if (!dtype)
        return SL_OK;
    if (!strcmp(dtype, "float32"))
        fo->dtype = SL_F32;
    else if (!strcmp(dtype, "float64"))
        fo->dtype = SL_F64;
    else
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: --dtype takes float32 or float64, not '%s'", cmd, dtype);
    fo->dtype_set = 1;
    return SL_OK;
}

/* llama.cpp's settings that its chain then ignores (common_sampler_init, 0.7.0): refused by name, never run
 * silently as another chain than the user wrote. --mirostat 1|2 replaces the chain by temperature then
 * mirostat; the mirostat and adaptive-p options take effect only with their sampler in the chain. */
static int llama_selectors_check(const char *cmd, const sl_api_settings *s, const sl_logits_cfg *c, sl_error *err)
{
    int has_adaptive = 0;
    for (size_t i = 0; c->has_order && i < c->n_order; i++)
        has_adaptive |= c->order[i] == &sl_logits_stage_adaptive_p;
    if (c->mirostat) {
        const struct {
            int given;
            sl_api_opt opt;
        } ign[] = {
            {c->has_top_k, SL_API_OPT_TOP_K}, {c->has_top_p, SL_API_OPT_TOP_P}, {c->has_min_p, SL_API_OPT_MIN_P},
            {c->has_typical, SL_API_OPT_TYPICAL}, {c->has_penalty, SL_API_OPT_REPETITION_PENALTY},
            {c->has_freq, SL_API_OPT_FREQUENCY_PENALTY}, {c->has_presence, SL_API_OPT_PRESENCE_PENALTY},
            {c->has_last_n, SL_API_OPT_PENALTY_LAST_N}, {c->has_min_keep, SL_API_OPT_MIN_KEEP},
            {c->has_xtc_p, SL_API_OPT_XTC_PROBABILITY}, {c->has_xtc_t, SL_API_OPT_XTC_THRESHOLD},
            {c->has_nsigma, SL_API_OPT_TOP_NSIGMA}, {c->has_dyn_range, SL_API_OPT_DYNATEMP_RANGE},
            {c->has_dyn_exp, SL_API_OPT_DYNATEMP_EXP},
            {s->samplers != NULL, SL_API_OPT_SAMPLERS}, {s->sampling_seq != NULL, SL_API_OPT_SAMPLING_SEQ},
            {c->has_adaptive_target, SL_API_OPT_ADAPTIVE_TARGET}, {c->has_adaptive_decay, SL_API_OPT_ADAPTIVE_DECAY},
            {c->has_dry_mult, SL_API_OPT_DRY_MULTIPLIER}, {c->has_dry_base, SL_API_OPT_DRY_BASE},
            {c->has_dry_allowed, SL_API_OPT_DRY_ALLOWED_LENGTH}, {c->has_dry_last_n, SL_API_OPT_DRY_PENALTY_LAST_N},
            {s->has_dry_sequence_breaker, SL_API_OPT_DRY_SEQUENCE_BREAKER},
        };
        for (size_t i = 0; i < sizeof ign / sizeof *ign; i++)
            if (ign[i].given)
                return sl_base_error_set(err, SL_EINVAL,
                                         "samplab %s: %s with %s %ld: llama.cpp ignores it (common_sampler_init "
                                         "replaces the chain by temperature then mirostat%s): leave it out",
                                         cmd, sl_api_options[ign[i].opt].name, SL_API_NAME(MIROSTAT), c->mirostat,
                                         c->mirostat == 2 ? " v2" : "");
        return SL_OK;
    }
    if (c->has_mirostat_tau || c->has_mirostat_eta)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: %s without %s 1|2: llama.cpp ignores it (mirostat is off at "
                                 "%s 0, the default)",
                                 cmd, c->has_mirostat_tau ? SL_API_NAME(MIROSTAT_ENT) : SL_API_NAME(MIROSTAT_LR),
                                 SL_API_NAME(MIROSTAT), SL_API_NAME(MIROSTAT));
    if ((c->has_adaptive_target || c->has_adaptive_decay) && !has_adaptive)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: %s without adaptive_p in %s (or 'a' in %s): "
                                 "llama.cpp ignores it (its chain ends in dist)",
                                 cmd, c->has_adaptive_target ? SL_API_NAME(ADAPTIVE_TARGET) : SL_API_NAME(ADAPTIVE_DECAY),
                                 SL_API_NAME(SAMPLERS), SL_API_NAME(SAMPLING_SEQ));
    return SL_OK;
}

const char *sl_api_variant(const sl_api_settings *s)
{
    return s->torch      ? s->torch
           : s->llamacpp ? s->llamacpp
           : s->rand     ? s->rand
           : s->ollama   ? s->ollama
           : s->sglang   ? s->sglang
           : s->vllm     ? s->vllm
           : s->transformersjs ? s->transformersjs
                         : s->tfjs;
}

const sl_fw_type *sl_api_fw_type(const sl_api_settings *s)
{
    return sl_fw_lookup_as(s->framework, sl_api_variant(s));
}

const sl_logits_pipeline_type *sl_api_pipeline_on_line(const sl_logits_pipeline_type *t, const sl_api_settings *s)
{
    const sl_fw_type *ft = t && (t->traits & SL_LOGITS_TRAIT_NEEDS_VARIANT) && s->ollama
                               ? sl_fw_lookup_as(t->name, s->ollama) : NULL;
    return ft && ft->pipeline ? ft->pipeline : t;
}

int sl_api_fw_opts(const char *cmd, const sl_api_settings *s, sl_fw_opts *fo, sl_error *err)
{
    memset(fo, 0, sizeof *fo);
    fo->cfg = s->cfg;
    fo->cfg.context = NULL;
    fo->cfg.context_n = 0;
    if (!fo->cfg.has_temperature)
        fo->cfg.temperature = 1.0;
    fo->k = s->has_num_samples ? s->num_samples : 1;
    fo->n = s->has_n ? s->n : 1;
    fo->replacement = s->replacement ? SL_FW_REPLACEMENT_YES : s->no_replacement ? SL_FW_REPLACEMENT_NO
                                                                : SL_FW_REPLACEMENT_DEFAULT;
    if (s->replacement && s->no_replacement)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s and %s: give one of them", cmd,
                                 SL_API_NAME(REPLACEMENT), SL_API_NAME(NO_REPLACEMENT));
    fo->shuffle_set = s->shuffle != NULL;
    fo->shuffle = 1;
    if (s->shuffle) {
        if (strcmp(s->shuffle, "true") && strcmp(s->shuffle, "false"))
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s takes true or false, not '%s'", cmd,
                                     SL_API_NAME(SHUFFLE), s->shuffle);
        fo->shuffle = !strcmp(s->shuffle, "true");
    }
    fo->simd_sum = s->simd_sum;
    fo->jax_unpartitioned = 0; /* JAX 0.5 and later: partitionable */
    if (s->jax_partitionable) {
        if (strcmp(s->jax_partitionable, "true") && strcmp(s->jax_partitionable, "false"))
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s takes true or false, not '%s'", cmd,
                                     SL_API_NAME(JAX_PARTITIONABLE), s->jax_partitionable);
        fo->jax_unpartitioned = !strcmp(s->jax_partitionable, "false");
    }
    /* the release-line options all name the framework's variant; each is taken only by its framework */
    fo->variant = sl_api_variant(s);
    fo->variant_opt = sl_api_options[s->torch      ? SL_API_OPT_TORCH
                                     : s->llamacpp ? SL_API_OPT_LLAMACPP
                                     : s->rand     ? SL_API_OPT_RAND
                                     : s->sglang   ? SL_API_OPT_SGLANG
                                     : s->vllm     ? SL_API_OPT_VLLM
                                     : s->transformersjs ? SL_API_OPT_TRANSFORMERSJS
                                     : s->tfjs ? SL_API_OPT_TFJS
                                                   : SL_API_OPT_OLLAMA].name;
    fo->sglang_sorted = s->sglang_sorted;
    if (s->position) {
        sl_seed p;
        if (sl_base_seed_parse(s->position, &p, err) || p.hi)
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s takes an integer in [0, 2^64), not '%s'", cmd,
                                     SL_API_NAME(POSITION), s->position);
        fo->has_position = 1;
        fo->position = p.lo;
    }
    fo->cfg.cpu = SL_CPU_AUTO;
    if (s->cpu) {
        if (!strcmp(s->cpu, "avx2"))
            fo->cfg.cpu = SL_CPU_AVX2;
        else if (!strcmp(s->cpu, "avx512"))
            fo->cfg.cpu = SL_CPU_AVX512;
        else
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: --cpu takes avx2 or avx512, not '%s'", cmd, s->cpu);
    }
    if (sl_api_fw_dtype(cmd, s->dtype, fo, err))
        return SL_EINVAL;
    if (s->torch_build) {
        if (strcmp(s->torch_build, "mkl") && strcmp(s->torch_build, "default"))
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: --torch-build takes default or mkl, not '%s'",
                                     cmd, s->torch_build);
        fo->torch_mkl = !strcmp(s->torch_build, "mkl");
    }
    if (s->samplers && s->sampling_seq)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: --samplers and --sampling-seq both set the stage order (llama.cpp keeps "
                                 "the one given last): give one of them", cmd);
    if ((s->samplers || s->sampling_seq) &&
        sl_logits_llama_order_parse(s->samplers ? s->samplers : s->sampling_seq, !s->samplers, &fo->cfg, err)) {
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        /* the stage list's words, named by the option that gave them */
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: %s", cmd,
                                 s->samplers ? SL_API_NAME(SAMPLERS) : SL_API_NAME(SAMPLING_SEQ), m);
    }
    if (llama_selectors_check(cmd, s, &fo->cfg, err))
        return SL_EINVAL;
    fo->has_seed = s->seed != NULL;
    if (sl_api_seed(s, 0, &fo->seed, err))
        return SL_EINVAL;
    return sl_api_dry_breakers(cmd, s, &fo->cfg, err); /* last: it allocates */
}

void sl_api_fw_opts_free(sl_fw_opts *fo)
{
    free((void *)fo->cfg.dry_breaker);
    fo->cfg.dry_breaker = NULL;
}

int sl_api_ids(const char *cmd, const char *opt, const char *src, const char *what, size_t V, long **ids, size_t *n,
               sl_error *err)
{
    sl_vec cv;
    struct stat st;
    *ids = NULL;
    *n = 0;
    int is_inline = stat(src, &st) != 0; /* not a file: read as an inline list, or refused */
    if (sl_io_ids_read_as(src, opt, &cv, err)) /* 1.0, +1, 0x0, 1e0 refused as in a draws file */
        return sl_api_lib_error(err, SL_EINVAL);
    long *x = malloc((cv.n ? cv.n : 1) * sizeof *x);
    if (!x) {
        sl_base_vec_free(&cv);
        return sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory for %zu %s ids", cmd, cv.n, what);
    }
    for (size_t i = 0; i < cv.n; i++) {
        if (cv.d[i] != floor(cv.d[i]) || cv.d[i] < 0 || cv.d[i] >= (double)V) {
            if (is_inline)
                sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: entry %zu (%.17g) is not a token id in 0..%zu", cmd,
                                  opt, i, cv.d[i], V - 1);
            else
                sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: %s entry %zu (%.17g) is not a token id in 0..%zu",
                                  cmd, cv.source, what, i, cv.d[i], V - 1);
            sl_base_vec_free(&cv);
            free(x);
            return SL_EINVAL;
        }
        x[i] = (long)cv.d[i];
    }
    *ids = x;
    *n = cv.n;
    sl_base_vec_free(&cv);
    return SL_OK;
}
