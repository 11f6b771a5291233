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
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
}

void sl_api_or_defaults(const sl_api_settings **s, const sl_api_src **src)
{
    static const sl_api_settings none = {.size = sizeof(sl_api_settings)};
    static const sl_api_src no_src = {NULL, NULL, -1, NULL, 0, NULL};
    if (!*s)
        *s = &none;
    if (src && !*src)
        *src = &no_src;
}

size_t sl_api_settings_size(void)
{
    return sizeof(sl_api_settings);
}

const char *sl_api_refused(const sl_api_settings *s, int is_logits, unsigned accepts)
{
    const sl_logits_cfg *c = &s->cfg;
    /* the option table's order (cli/options.c), with each option's SL_OPT_* bit */
    const struct {
        int given;
        unsigned bit;
        const char *name;
    } t[] = {
        {!is_logits, SL_OPT_PROBS, "--probs"},
        {is_logits, SL_OPT_LOGITS, "--logits"},
        {c->has_temperature, SL_OPT_TEMPERATURE, "--temperature"},
        {c->has_top_k, SL_OPT_TOP_K, "--top-k"},
        {c->has_top_p, SL_OPT_TOP_P, "--top-p"},
        {c->has_min_p, SL_OPT_MIN_P, "--min-p"},
        {s->has_num_samples, SL_OPT_NUM_SAMPLES, "--num-samples"},
        {s->replacement, SL_OPT_REPLACEMENT, "--replacement"},
        {s->dtype != NULL, SL_OPT_DTYPE, "--dtype"},
        {s->torch != NULL, SL_OPT_VARIANT, "--torch"},
        {s->torch_build != NULL, SL_OPT_TORCH_BUILD, "--torch-build"},
        {s->llamacpp != NULL, SL_OPT_LLAMA_VERSION, "--llamacpp"},
        {s->rand != NULL, SL_OPT_RAND_VERSION, "--rand"},
        {s->cpu != NULL, SL_OPT_CPU, "--cpu"},
        {s->simd_sum, SL_OPT_SIMD_SUM, "--simd-sum"},
        {c->has_typical, SL_OPT_TYPICAL, "--typical"},
        {c->has_penalty, SL_OPT_PENALTY, "--repetition-penalty"},
        {s->context != NULL, SL_OPT_PENALTY, "--context"},
        {c->has_min_keep, SL_OPT_MIN_KEEP, "--min-keep"},
        {c->defaults, SL_OPT_DEFAULTS, "--defaults"},
        {c->has_last_n, SL_OPT_LAST_N, "--penalty-last-n"},
        {c->has_freq, SL_OPT_FREQ_PRESENCE, "--frequency-penalty"},
        {c->has_presence, SL_OPT_FREQ_PRESENCE, "--presence-penalty"},
        {s->samplers != NULL, SL_OPT_ORDER, "--samplers"},
        {s->sampling_seq != NULL, SL_OPT_ORDER, "--sampling-seq"},
        {c->has_mirostat, SL_OPT_MIROSTAT, "--mirostat"},
        {c->has_mirostat_eta, SL_OPT_MIROSTAT, "--mirostat-lr"},
        {c->has_mirostat_tau, SL_OPT_MIROSTAT, "--mirostat-ent"},
        {c->has_adaptive_target, SL_OPT_MIROSTAT, "--adaptive-target"},
        {c->has_adaptive_decay, SL_OPT_MIROSTAT, "--adaptive-decay"},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (t[i].given && !(t[i].bit & accepts))
            return t[i].name;
    return NULL;
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
    if (s->seed && sl_base_seed_parse(s->seed, out, err))
        return sl_api_lib_error_in(err, "--seed", SL_EINVAL);
    if (with_stream && s->stream) {
        if (sl_base_seed_parse_stream(s->stream, &out->stream, err))
            return sl_api_lib_error_in(err, "--stream", SL_EINVAL);
        out->has_stream = 1;
    }
    return SL_OK;
}

const char *sl_api_samplers(unsigned accepts, const sl_logits_cfg *cfg, char *buf, size_t len)
{
    return accepts & SL_OPT_ORDER ? sl_logits_llama_order_text(cfg, buf, len) : NULL;
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
        const struct { int given; const char *name; } ign[] = {
            {c->has_top_k, "--top-k"}, {c->has_top_p, "--top-p"}, {c->has_min_p, "--min-p"},
            {c->has_typical, "--typical"}, {c->has_penalty, "--repetition-penalty"},
            {c->has_freq, "--frequency-penalty"}, {c->has_presence, "--presence-penalty"},
            {c->has_last_n, "--penalty-last-n"}, {c->has_min_keep, "--min-keep"},
            {s->samplers != NULL, "--samplers"}, {s->sampling_seq != NULL, "--sampling-seq"},
            {c->has_adaptive_target, "--adaptive-target"}, {c->has_adaptive_decay, "--adaptive-decay"},
        };
        for (size_t i = 0; i < sizeof ign / sizeof *ign; i++)
            if (ign[i].given)
                return sl_base_error_set(err, SL_EINVAL,
                                         "samplab %s: %s with --mirostat %ld: llama.cpp ignores it (common_sampler_init "
                                         "replaces the chain by temperature then mirostat%s): leave it out",
                                         cmd, ign[i].name, c->mirostat, c->mirostat == 2 ? " v2" : "");
        return SL_OK;
    }
    if (c->has_mirostat_tau || c->has_mirostat_eta)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: %s without --mirostat 1|2: llama.cpp ignores it (mirostat is off at "
                                 "--mirostat 0, the default)",
                                 cmd, c->has_mirostat_tau ? "--mirostat-ent" : "--mirostat-lr");
    if ((c->has_adaptive_target || c->has_adaptive_decay) && !has_adaptive)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: %s without adaptive_p in --samplers (or 'a' in --sampling-seq): "
                                 "llama.cpp ignores it (its chain ends in dist)",
                                 cmd, c->has_adaptive_target ? "--adaptive-target" : "--adaptive-decay");
    return SL_OK;
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
    fo->replacement = s->replacement;
    fo->simd_sum = s->simd_sum;
    /* the release-line options all name the framework's variant; each is taken only by its framework */
    fo->variant = s->torch ? s->torch : s->llamacpp ? s->llamacpp : s->rand;
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
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s", cmd, m);
    }
    if (llama_selectors_check(cmd, s, &fo->cfg, err))
        return SL_EINVAL;
    fo->has_seed = s->seed != NULL;
    return sl_api_seed(s, 0, &fo->seed, err);
}

int sl_api_ids(const char *cmd, const char *opt, const char *src, const char *what, size_t V, long **ids, size_t *n,
               sl_error *err)
{
    sl_vec cv;
    struct stat st;
    *ids = NULL;
    *n = 0;
    int is_inline = stat(src, &st) != 0; /* not a file: read as an inline list, or refused */
    if (sl_io_vec_read_as(src, opt, NULL, -1, &cv, err))
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
