/* llama_order.c — llama.cpp's stage order as the user gives it: --samplers
 * (names separated by ';') and --sampling-seq (one letter a stage).
 *
 * Reproduces common/sampling.cpp common_sampler_types_from_names and
 * common_sampler_types_from_chars of llama.cpp 0.7.0 (build b11669), measured
 * through libllama-common (analysis/golden/current/llamacpp_names.cpp,
 * data/golden/current/llamacpp_names.txt): a name matches after ASCII
 * lowercasing, against the canonical names and the spellings below; letters
 * match as they are (case counts); repeats are kept. Where llama.cpp warns
 * "unable to match sampler" and drops the word (an unknown or empty name, an
 * unknown letter), samplab refuses it, since dropping it would run another
 * chain than the user wrote; a stage llama.cpp has but samplab does not model
 * (infill) is refused by name. adaptive_p is kept where it is named; the
 * chain (logits/chain.c) puts it last, as common_sampler_init does. */
#include <stdio.h>
#include <string.h>

#include "logits/sl_logits.h"

/* Every name and letter of common_sampler_type: the modelled stage, or NULL
 * with what it is. */
static const struct known {
    const char *name;          /* common_sampler_type_to_str */
    char letter;
    const sl_logits_stage_type *t;
    const char *what;          /* for one samplab does not model */
    const char *alt[4];        /* 0.7.0's other spellings (after lowercasing) */
} known[] = {
    {"dry", 'd', &sl_logits_stage_dry, NULL, {NULL}},
    {"top_k", 'k', &sl_logits_stage_top_k, NULL, {"top-k", "topk", NULL}},
    {"top_p", 'p', &sl_logits_stage_top_p, NULL, {"top-p", "topp", "nucleus", NULL}},
    {"min_p", 'm', &sl_logits_stage_min_p, NULL, {"min-p", "minp", NULL}},
    {"typ_p", 'y', &sl_logits_stage_typical, NULL, {"typ-p", "typp", "typ", NULL}},
    {"temperature", 't', &sl_logits_stage_temperature, NULL, {"temp", NULL}},
    {"xtc", 'x', &sl_logits_stage_xtc, NULL, {NULL}},
    {"infill", 'i', NULL, "llama.cpp's infill sampler (llama_sampler_init_infill)", {NULL}},
    {"penalties", 'e', &sl_logits_stage_penalties, NULL, {NULL}},
    {"top_n_sigma", 's', &sl_logits_stage_top_n_sigma, NULL, {"top-n-sigma", "topnsigma", NULL}},
    {"adaptive_p", 'a', &sl_logits_stage_adaptive_p, NULL, {"adaptive-p", "adaptivep", NULL}},
};
#define N_KNOWN (sizeof known / sizeof *known)

static const struct known *by_name(const char *w, size_t n)
{
    char low[32];
    if (n >= sizeof low)
        return NULL;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] - 'A' + 'a' : w[i]);
    low[n] = '\0';
    for (size_t k = 0; k < N_KNOWN; k++) {
        if (!strcmp(low, known[k].name))
            return &known[k];
        for (size_t j = 0; known[k].alt[j]; j++)
            if (!strcmp(low, known[k].alt[j]))
                return &known[k];
    }
    return NULL;
}

/* What an unknown name may have meant: a sampler llama.cpp chooses by another option. */
static const char *hint(const char *w, size_t n)
{
    if (n == 8 && !strncmp(w, "mirostat", 8))
        return " (mirostat is llama.cpp's --mirostat 1|2, which replaces the chain)";
    if ((n == 4 && !strncmp(w, "dist", 4)) || (n == 6 && !strncmp(w, "greedy", 6)))
        return " (llama.cpp ends every chain in dist, or in greedy after a last temperature at temp <= 0)";
    return "";
}

static const struct known *by_letter(char c)
{
    for (size_t k = 0; k < N_KNOWN; k++)
        if (known[k].letter == c)
            return &known[k];
    return NULL;
}

int sl_logits_llama_order_parse(const char *text, int letters, sl_logits_cfg *cfg, sl_error *err)
{
    char q[128];
    size_t n = 0;
    cfg->has_order = 0;
    cfg->n_order = 0;
    const char *p = text;
    for (size_t pos = 1;; pos++) {
        const struct known *k;
        const char *w = p;
        size_t len;
        if (letters) {
            if (!*p)
                break;
            len = 1;
            k = by_letter(*p);
            p++;
        } else {
            const char *semi = strchr(p, ';');
            len = semi ? (size_t)(semi - p) : strlen(p);
            p = semi ? semi + 1 : NULL;
            if (!len)
                return sl_base_error_set(err, SL_EINVAL,
                                         "stage %zu is empty (in '%s'): llama.cpp would warn 'unable to match "
                                         "sampler by name' and drop it; give names separated by single ';'",
                                         pos, sl_base_esc_str(text, q, sizeof q));
            k = by_name(w, len);
        }
        if (!k)
            return sl_base_error_set(err, SL_EINVAL,
                                     "'%s' (stage %zu) is not a llama.cpp 0.7.0 stage %s: llama.cpp would warn "
                                     "'unable to match sampler by %s' and drop it%s; it takes %s",
                                     sl_base_esc(w, len, q, sizeof q), pos, letters ? "letter" : "name",
                                     letters ? "char" : "name", letters ? "" : hint(w, len),
                                     letters ? "e (penalties), d, s, k, y, p, m, x, t, a (and i: not modelled)"
                                             : "penalties, dry, top_n_sigma, top_k, typ_p, top_p, min_p, xtc, "
                                               "temperature, adaptive_p (and infill: not modelled)");
        if (!k->t)
            return sl_base_error_set(err, SL_EINVAL, "'%s' (stage %zu) is %s%s",
                                     sl_base_esc(w, len, q, sizeof q), pos, k->what,
                                     strstr(k->what, "not modelled") ? "" : ": not modelled by samplab");
        if (n == SL_LOGITS_ORDER_MAX)
            return sl_base_error_set(err, SL_EINVAL, "more than %d stages: samplab models chains of at most %d",
                                     SL_LOGITS_ORDER_MAX, SL_LOGITS_ORDER_MAX);
        cfg->order[n++] = k->t;
        if (!letters && !p)
            break;
    }
    cfg->has_order = 1;
    cfg->n_order = n;
    return SL_OK;
}

const char *sl_logits_llama_order_text(const sl_logits_cfg *cfg, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    if (cfg->mirostat) { /* common_sampler_init's chain then, whatever the order says */
        snprintf(buf, len, "temperature;%s", cfg->mirostat == 1 ? "mirostat" : "mirostat_v2");
        return buf;
    }
    int adaptive = 0; /* named anywhere, it runs last (once) */
    for (size_t i = 0; o < len; i++) {
        const sl_logits_stage_type *t = cfg->has_order ? (i < cfg->n_order ? cfg->order[i] : NULL)
                                                       : sl_logits_llama_default_order[i];
        if (!t)
            break;
        /* the default list as samplab printed it before dry, top_n_sigma and xtc were modelled: all off there */
        if (!cfg->has_order &&
            (t == &sl_logits_stage_top_n_sigma || t == &sl_logits_stage_xtc || t == &sl_logits_stage_dry))
            continue;
        if (t == &sl_logits_stage_adaptive_p) {
            adaptive = 1;
            continue;
        }
        o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ";" : "", t->name);
    }
    if (adaptive && o < len)
        snprintf(buf + o, len - o, "%sadaptive_p", o ? ";" : "");
    return buf;
}
