/* vocab.c — llama.cpp's DRY sequence breakers as a command takes them: the
 * --dry-sequence-breaker texts read with common/arg.cpp's rules (v0.4.0, the
 * same in 0.7.0's libllama-common: the first use clears the defaults "\n",
 * ":", "\"", "*", the value "none" clears the list so far, then
 * string_process_escapes since params.escape is on by default), matched
 * against the token pieces of --vocab's GGUF (io/gguf.c, logits/llama_vocab.c)
 * or token list into the per-token flags and restart sequences the DRY stage
 * reads (a breaker's rest tokenized by llama.cpp's tokenizer over the GGUF,
 * logits/llama_tokenize.c; a token list has none). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

/* common/common.cpp string_process_escapes of v0.4.0: \n \r \t \' \" \\ and \xHH (two hex digits);
 * any other backslash stays as written. out has room for strlen(in) + 1 bytes; returns its length. */
static size_t unescape(const char *in, char *out)
{
    size_t n = strlen(in), k = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i] != '\\' || i + 1 >= n) {
            out[k++] = in[i];
            continue;
        }
        char c = in[++i];
        switch (c) {
        case 'n': out[k++] = '\n'; break;
        case 'r': out[k++] = '\r'; break;
        case 't': out[k++] = '\t'; break;
        case '\'': case '"': case '\\': out[k++] = c; break;
        case 'x':
            if (i + 2 < n) { /* strtol over exactly the next two characters, as upstream */
                char x[3] = {in[i + 1], in[i + 2], 0}, *end;
                long v = strtol(x, &end, 16);
                if (end == x + 2) {
                    out[k++] = (char)v;
                    i += 2;
                    break;
                }
            }
            /* fall through */
        default:
            out[k++] = '\\';
            out[k++] = c;
            break;
        }
    }
    out[k] = '\0';
    return k;
}

/* A token list (any file that is not a GGUF): line t is token t's text as llama_detokenize gives
 * it, written with the escapes --dry-sequence-breaker reads (\n, \t, \xHH ...), so any bytes
 * can be said; every line, the last ended by its newline or not, is a token. */
static int pieces_of_list(const char *path, const unsigned char *buf, size_t len, size_t *n, char ***piece,
                          size_t **plen, sl_error *err)
{
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += buf[i] == '\n';
    lines += len && buf[len - 1] != '\n';
    const unsigned char *nul = len ? memchr(buf, 0, len) : NULL;
    if (nul) {
        size_t line = 1;
        for (const unsigned char *c = buf; c < nul; c++)
            line += *c == '\n';
        return sl_base_error_set(err, SL_EINVAL, "samplab: %s: line %zu: a NUL byte (a token list is text: one "
                                 "token a line, \\x00 for the byte)", path, line);
    }
    if (!lines)
        return sl_base_error_set(err, SL_EINVAL, "samplab: %s: no tokens (a GGUF, or a token list: one token's text "
                                 "a line)", path);
    char **p = malloc(lines * sizeof *p);
    size_t *l = malloc(lines * sizeof *l);
    char *blob = malloc(len + lines + 1), *line = malloc(len + 1);
    if (!p || !l || !blob || !line) {
        free(p), free(l), free(blob), free(line);
        return sl_base_error_set(err, SL_ENOMEM, "samplab: %s: out of memory for %zu tokens", path, lines);
    }
    char *at = blob;
    size_t t = 0;
    for (size_t i = 0; t < lines; t++) {
        size_t e = i;
        while (e < len && buf[e] != '\n')
            e++;
        memcpy(line, buf + i, e - i);
        line[e - i] = '\0';
        p[t] = at;
        l[t] = unescape(line, at); /* never longer than the line */
        at += l[t] + 1;
        i = e + 1;
    }
    free(line);
    *n = lines;
    *piece = p;
    *plen = l;
    return SL_OK;
}

/* The token pieces of the vocabulary at path, as llama_detokenize gives them: a GGUF's
 * tokenizer section, or a token list (pieces_of_list). g->n is the number of tokens. */
static int pieces_of(const char *path, sl_io_gguf_vocab *g, char ***piece, size_t **plen, sl_error *err)
{
    *piece = NULL;
    *plen = NULL;
    memset(g, 0, sizeof *g);
    unsigned char *buf = NULL;
    size_t len = 0;
    if (sl_io_file_slurp(path, &buf, &len, err))
        return sl_api_lib_error(err, SL_EINVAL);
    if (len < 4 || memcmp(buf, "GGUF", 4)) {
        int rc = pieces_of_list(path, buf, len, &g->n, piece, plen, err);
        free(buf);
        return rc;
    }
    free(buf);
    if (sl_io_gguf_vocab_read(path, g, err))
        return sl_api_lib_error(err, SL_EINVAL);
    size_t total = 0;
    for (size_t t = 0; t < g->n; t++)
        total += 2 * g->len[t] + 8; /* room for any piece (sl_logits_llama_piece) */
    char **p = malloc(g->n * sizeof *p);
    size_t *l = malloc(g->n * sizeof *l);
    char *blob = malloc(total ? total : 1);
    if (!p || !l || !blob) {
        free(p);
        free(l);
        free(blob);
        sl_io_gguf_vocab_free(g);
        return sl_base_error_set(err, SL_ENOMEM, "samplab: %s: out of memory for %zu token pieces", path, g->n);
    }
    char *at = blob;
    for (size_t t = 0; t < g->n; t++) {
        size_t cap = 2 * g->len[t] + 8;
        l[t] = sl_logits_llama_piece(g->model, g->pre, g->add_space_prefix, g->text[t], g->len[t], g->type[t], at, cap);
        if (l[t] == SIZE_MAX) {
            char q[256];
            sl_base_error_set(err, SL_EINVAL,
                              "samplab: %s: token %zu ('%s', type %d) of tokenizer model '%s': its text as "
                              "llama_detokenize gives it is not modelled by samplab",
                              path, t, sl_base_esc(g->text[t], g->len[t] < 60 ? g->len[t] : 60, q, sizeof q),
                              g->type[t], g->model);
            free(p);
            free(l);
            free(blob);
            sl_io_gguf_vocab_free(g);
            return SL_EINVAL;
        }
        p[t] = at;
        at += cap;
    }
    *piece = p;
    *plen = l;
    return SL_OK;
}

int sl_api_dry_breakers(const char *cmd, const sl_api_settings *s, sl_logits_cfg *cfg, sl_error *err)
{
    const char *opt = SL_API_NAME(DRY_SEQUENCE_BREAKER);
    const sl_api_list *given = &s->dry_sequence_breaker;
    size_t first = 0, nb = 0, room = 0;
    cfg->has_dry_breakers = 0;
    cfg->dry_breaker = NULL;
    cfg->dry_breaker_n = 0;
    cfg->dry_tails = NULL;
    /* "none" drops the breakers before it (arg.cpp's handler clears the vector) */
    for (size_t i = 0; s->has_dry_sequence_breaker && i < given->n; i++)
        if (!strcmp(given->v[i], "none"))
            first = i + 1;
    const char *const *src = s->has_dry_sequence_breaker ? given->v + first : sl_logits_dry_default_breakers;
    size_t n_src = s->has_dry_sequence_breaker ? given->n - first : 0;
    while (!s->has_dry_sequence_breaker && sl_logits_dry_default_breakers[n_src])
        n_src++;
    for (size_t i = 0; i < n_src; i++)
        room += strlen(src[i]) + 1;
    const char *br[SL_API_LIST_MAX];
    char *store = malloc(room ? room : 1), *at = store;
    if (!store)
        return sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory for the DRY breakers", cmd);
    for (size_t i = 0; i < n_src; i++) {
        size_t use = first + i + 1;
        size_t len = unescape(src[i], at);
        char q[256];
        if (!len || memchr(at, '\0', len)) {
            free(store);
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab %s: %s '%s' (use %zu) %s", cmd, opt, sl_base_esc_str(src[i], q, sizeof q),
                                     use, len ? "holds a NUL byte, which ends the breaker in llama.cpp's C API"
                                              : "is empty: llama_sampler_init_dry would skip it with a warning");
        }
        if (len > 40) {
            free(store);
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab %s: %s '%s' (use %zu) is longer than 40 bytes: "
                                     "llama_sampler_init_dry would cut it there",
                                     cmd, opt, sl_base_esc_str(src[i], q, sizeof q), use);
        }
        br[nb++] = at;
        at += len + 1;
    }
    if (!nb) /* no breakers: DRY needs no vocabulary */
        cfg->has_dry_breakers = 1;
    if (!s->vocab) {
        free(store);
        return SL_OK;
    }
    sl_io_gguf_vocab g;
    char **piece;
    size_t *plen;
    if (pieces_of(s->vocab, &g, &piece, &plen, err)) {
        free(store);
        return SL_EINVAL;
    }
    sl_logits_llama_tok *tk = NULL;
    int rc = SL_OK;
    char why[300] = " (a token list has none: give the GGUF)";
    if (g.text && nb && /* a GGUF: its tokenizer makes the breakers' rests into tails */
        sl_logits_llama_tok_new(g.model, g.pre, g.add_space_prefix, g.n, (const char *const *)g.text, g.len, g.type,
                                g.score, g.n_merge, (const char *const *)g.merge, g.merge_len, &tk, err)) {
        tk = NULL; /* a model it does not read: only breakers that need no tail can be resolved */
        snprintf(why, sizeof why, " (%.290s)", err->msg);
    }
    unsigned char *block = NULL;
    const sl_logits_dry_tails *tails = NULL;
    if (nb && sl_logits_dry_restarts((const char *const *)piece, plen, g.n, br, nb, tk, &block, &tails, err)) {
        char m[sizeof err->msg];
        if (!tk && strstr(err->msg, "needs llama.cpp's tokenizer")) /* say why there is none */
            snprintf(m, sizeof m, "%.300s%.200s", err->msg, why);
        else
            snprintf(m, sizeof m, "%.480s", err->msg);
        rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: %s: %s", cmd, opt, s->vocab, m);
    } else if (!nb && !(block = calloc(g.n, 1))) {
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory for %zu tokens", cmd, g.n);
    }
    sl_logits_llama_tok_free(tk);
    if (rc) {
        free(block);
    } else {
        cfg->has_dry_breakers = 1;
        cfg->dry_breaker = block;
        cfg->dry_breaker_n = g.n;
        cfg->dry_tails = tails;
    }
    free(store);
    free(piece[0]); /* the pieces' one block */
    free(piece);
    free(plen);
    sl_io_gguf_vocab_free(&g);
    return rc;
}

int sl_api_vocab_fits(const char *cmd, const sl_api_settings *s, const sl_logits_cfg *cfg, size_t V, sl_error *err)
{
    /* llama_sampler_logit_bias_apply skips an id no candidate has; here it is a typo, said as one */
    for (size_t i = 0; i < cfg->n_bias; i++)
        if (cfg->bias_token[i] < 0 || (size_t)cfg->bias_token[i] >= V) {
            char q[256];
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab %s: %s '%s' (use %zu): token %ld is not a token id in 0..%zu of the "
                                     "logits (llama.cpp would skip it without a word)",
                                     cmd, SL_API_NAME(LOGIT_BIAS),
                                     sl_base_esc_str(i < s->logit_bias.n ? s->logit_bias.v[i] : "", q, sizeof q), i + 1,
                                     cfg->bias_token[i], V - 1);
        }
    if (!cfg->dry_breaker || cfg->dry_breaker_n == V)
        return SL_OK;
    return sl_base_error_set(err, SL_EINVAL,
                             "samplab %s: %s holds %zu tokens and the logits %zu: llama.cpp's logits have one "
                             "entry per token of the model's vocabulary",
                             cmd, s->vocab, cfg->dry_breaker_n, V);
}
