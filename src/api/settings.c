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

/* The options as the command line's table orders them (cli/options.c), with
 * each option's SL_OPT_* bit. */
enum { N_OPTS = 31 };
static const struct {
    unsigned bit;
    const char *name;
} opts[N_OPTS] = {
    {SL_OPT_PROBS, "--probs"}, {SL_OPT_LOGITS, "--logits"}, {SL_OPT_TEMPERATURE, "--temperature"},
    {SL_OPT_TOP_K, "--top-k"}, {SL_OPT_TOP_P, "--top-p"}, {SL_OPT_MIN_P, "--min-p"},
    {SL_OPT_NUM_SAMPLES, "--num-samples"}, {SL_OPT_REPLACEMENT, "--replacement"}, {SL_OPT_DTYPE, "--dtype"},
    {SL_OPT_VARIANT, "--torch"}, {SL_OPT_TORCH_BUILD, "--torch-build"}, {SL_OPT_LLAMA_VERSION, "--llamacpp"},
    {SL_OPT_RAND_VERSION, "--rand"}, {SL_OPT_OLLAMA_VERSION, "--ollama"}, {SL_OPT_CPU, "--cpu"}, {SL_OPT_SIMD_SUM, "--simd-sum"},
    {SL_OPT_TYPICAL, "--typical"}, {SL_OPT_PENALTY, "--repetition-penalty"}, {SL_OPT_PENALTY, "--context"},
    {SL_OPT_MIN_KEEP, "--min-keep"}, {SL_OPT_DEFAULTS, "--defaults"}, {SL_OPT_LAST_N, "--penalty-last-n"},
    {SL_OPT_FREQ_PRESENCE, "--frequency-penalty"}, {SL_OPT_FREQ_PRESENCE, "--presence-penalty"},
    {SL_OPT_ORDER, "--samplers"}, {SL_OPT_ORDER, "--sampling-seq"},
    {SL_OPT_ORDER, "--xtc-probability"}, {SL_OPT_ORDER, "--xtc-threshold"}, {SL_OPT_ORDER, "--top-nsigma"},
    {SL_OPT_ORDER, "--dynatemp-range"}, {SL_OPT_ORDER, "--dynatemp-exp"},
};

const char *sl_api_refused_bit(const sl_api_settings *s, int is_logits, unsigned accepts, unsigned *bit)
{
    const sl_logits_cfg *c = &s->cfg;
    const int given[N_OPTS] = {
        !is_logits, is_logits, c->has_temperature, c->has_top_k, c->has_top_p, c->has_min_p,
        s->has_num_samples, s->replacement, s->dtype != NULL, s->torch != NULL, s->torch_build != NULL,
        s->llamacpp != NULL, s->rand != NULL, s->ollama != NULL, s->cpu != NULL, s->simd_sum, c->has_typical, c->has_penalty,
        s->context != NULL, c->has_min_keep, c->defaults, c->has_last_n, c->has_freq, c->has_presence,
        s->samplers != NULL, s->sampling_seq != NULL,
        c->has_xtc_p, c->has_xtc_t, c->has_nsigma, c->has_dyn_range, c->has_dyn_exp,
    };
    for (size_t i = 0; i < N_OPTS; i++)
        if (given[i] && !(opts[i].bit & accepts)) {
            if (bit)
                *bit = opts[i].bit;
            return opts[i].name;
        }
    return NULL;
}

const char *sl_api_refused(const sl_api_settings *s, int is_logits, unsigned accepts)
{
    return sl_api_refused_bit(s, is_logits, accepts, NULL);
}

const char *sl_api_bit_names(unsigned bit, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_OPTS && k < n; i++)
        if (opts[i].bit == bit)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "/" : "", opts[i].name);
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
    fo->variant = s->torch ? s->torch : s->llamacpp ? s->llamacpp : s->rand ? s->rand : s->ollama;
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
