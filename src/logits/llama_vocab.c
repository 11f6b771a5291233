/* llama_vocab.c — a token's text as llama.cpp's DRY stage sees it, and the
 * tokens its sequence breakers pick out.
 *
 * Reproduces, for one token, llama_vocab::detokenize({t}, true) of llama.cpp
 * 0.7.0 (src/llama-vocab.cpp, as v0.4.0's source reads): token_to_piece with
 * special = true (control, unknown and user-defined tokens as written; normal
 * SPM tokens with U+2581 as a space; normal BPE tokens through GPT-2's
 * byte-to-unicode map read back, llama_decode_text; SPM byte tokens <0xXX> as
 * the byte; unused and undefined tokens empty), the first token's one leading
 * space dropped when add_space_prefix, then (BPE, most pre-tokenizers) the
 * clean_spaces passes. And get_overlapping_token_sequences (ported there from
 * koboldcpp): a token whose piece holds a breaker is a breaker alone, one whose
 * piece ends in a proper prefix of it the head of a restart sequence, its tail
 * the breaker's rest as llama.cpp's tokenizer makes it (logits/
 * llama_tokenize.c). Not modelled (refused): BPE byte tokens,
 * llama_decode_text's "[UNK_BYTE_0x" form, breakers with a space (llama.cpp's
 * per-token space rules are not all measured). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

enum { T_NORMAL = 1, T_UNKNOWN = 2, T_CONTROL = 3, T_USER = 4, T_UNUSED = 5, T_BYTE = 6 };

/* GPT-2's bytes_to_unicode read backwards: the byte a code point stands for, or -1. */
static int gpt2_byte(uint32_t cp)
{
    if ((cp >= 33 && cp <= 126) || (cp >= 161 && cp <= 172) || (cp >= 174 && cp <= 255))
        return (int)cp;
    if (cp < 256 || cp > 256 + 67)
        return -1;
    /* the other 68 bytes (0..32, 127..160, 173), in order, are 256, 257, ... */
    int k = (int)(cp - 256);
    for (int b = 0; b < 256; b++) {
        int printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
        if (!printable && k-- == 0)
            return b;
    }
    return -1;
}

/* One UTF-8 sequence at s[0..n): its code point and length, or 0 when malformed. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (!len || len > n)
        return 0;
    uint32_t c = len == 1 ? s[0] : len == 2 ? s[0] & 0x1Fu : len == 3 ? s[0] & 0x0Fu : s[0] & 0x07u;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3Fu);
    }
    *cp = c;
    return len;
}

#define PUT(ch)                                                                                                       \
    do {                                                                                                              \
        if (o < cap)                                                                                                  \
            out[o] = (char)(ch);                                                                                      \
        o++;                                                                                                          \
    } while (0)

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The pre-tokenizers for which llama_vocab::load (v0.4.0's source) turns BPE's clean_spaces off. */
static const char *const no_clean[] = {
    "deepseek-llm", "deepseek-coder", "deepseek-v3", "youtu", "sarvam-moe", "command-r", "qwen2", "deepseek-r1-qwen",
    "kormo", "f2llmv2", "qwen35", "poro-chat", "viking", "tekken", "smollm", "chameleon", NULL,
};

/* detokenize's clean_spaces passes over s[0..n) in place, as llama_vocab::impl::detokenize runs them. */
static size_t clean(char *t, size_t n)
{
    size_t total1 = n, total = n ? 1 : 0;
    for (size_t i = 1; i < total1; i++) { /* " ?", " !", " .", " ," */
        char x = t[i];
        if (t[i - 1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ','))
            total--;
        t[total++] = x;
    }
    size_t total2 = total;
    total = total ? 1 : 0;
    for (size_t i = 1; i < total2; i++) { /* " ' " */
        char x = t[i];
        if (x == '\'' && i + 1 < total2 && t[i - 1] == ' ' && t[i + 1] == ' ') {
            total--;
            t[++i] = '\0';
        }
        t[total++] = x;
    }
    size_t total3 = total;
    total = total ? 1 : 0;
    for (size_t i = 1; i < total3; i++) { /* " 's", " 'm", " 're", " 've" */
        char x = t[i];
        if (t[i - 1] == ' ' && x == '\'' && i + 1 < total3) {
            char x1 = t[i + 1];
            if (x1 == 's' || x1 == 'm')
                total--;
            else if (i + 2 < total3 && ((x1 == 'r' && t[i + 2] == 'e') || (x1 == 'v' && t[i + 2] == 'e')))
                total--;
        }
        t[total++] = x;
    }
    return total;
}

static size_t piece(int spm, int add_space_prefix, const char *text, size_t tlen, int type, char *out, size_t cap);

size_t sl_logits_llama_piece(const char *model, const char *pre, int add_space_prefix, const char *text,
                             size_t tlen, int type, char *out, size_t cap)
{
    int spm = !strcmp(model, "llama"), bpe = !strcmp(model, "gpt2");
    if (!spm && !bpe)
        return SIZE_MAX;
    /* llama_vocab::load: add_space_prefix is 1 for SPM unless the file says otherwise, and 0 for BPE */
    int asp = bpe ? 0 : add_space_prefix < 0 ? 1 : add_space_prefix;
    int cs = bpe;
    for (size_t k = 0; cs && no_clean[k]; k++)
        cs = strcmp(pre, no_clean[k]) != 0;
    size_t n = piece(spm, asp, text, tlen, type, out, cap);
    if (n == SIZE_MAX || !cs)
        return n;
    if (n > cap)
        return SIZE_MAX;
    return clean(out, n);
}

static size_t piece(int spm, int add_space_prefix, const char *text, size_t tlen, int type, char *out, size_t cap)
{
    size_t o = 0, i = 0;
    int strip = add_space_prefix; /* detokenize's remove_space: token_to_piece's lstrip 1 */
    if (type == T_CONTROL || type == T_UNKNOWN || type == T_USER) {
        if (strip && tlen && text[0] == ' ')
            i = 1;
        for (; i < tlen; i++)
            PUT(text[i]);
        return o;
    }
    if (type == T_BYTE) {
        int hi, lo;
        if (!spm || tlen != 6 || memcmp(text, "<0x", 3) || text[5] != '>' || (hi = hexval(text[3])) < 0 ||
            (lo = hexval(text[4])) < 0)
            return SIZE_MAX;
        int b = hi * 16 + lo;
        if (!(strip && b == ' '))
            PUT(b);
        return o;
    }
    if (type != T_NORMAL)
        return 0; /* unused, undefined: no branch of token_to_piece writes anything */
    if (spm) {
        while (i < tlen) {
            if (i + 3 <= tlen && !memcmp(text + i, "\xE2\x96\x81", 3)) {
                if (!(strip && o == 0))
                    PUT(' ');
                strip = 0;
                i += 3;
            } else {
                if (strip && o == 0 && text[i] == ' ')
                    i++;
                else
                    PUT(text[i++]);
                strip = 0;
            }
        }
        return o;
    }
    while (i < tlen) {
        uint32_t cp;
        size_t len = utf8_next((const unsigned char *)text + i, tlen - i, &cp);
        if (!len)
            return SIZE_MAX;
        int b = gpt2_byte(cp);
        if (b < 0) /* llama_decode_text's "[UNK_BYTE_0x..." form */
            return SIZE_MAX;
        if (!(strip && o == 0 && b == ' '))
            PUT(b);
        strip = 0;
        i += len;
    }
    return o;
}

#define MAX_CHAR_LEN 40 /* llama_sampler_init_dry's cut of a breaker */
#define MAX_SEQ_LEN 20  /* ... and of a tail */

typedef struct pairs {
    int32_t *head, *tok, *next; /* next: the head's next pair, -1 none */
    size_t *off, n, cap, ntok, tcap;
    int32_t *first;             /* by token: its first pair, -1 none */
} pairs;

static int pair_add(pairs *p, int32_t head, const int32_t *t, size_t len)
{
    for (int32_t i = p->first[head]; i >= 0; i = p->next[i]) /* a head's duplicate tail is dropped */
        if (p->off[i + 1] - p->off[i] == len && !memcmp(p->tok + p->off[i], t, len * sizeof *t))
            return SL_OK;
    if (p->n + 1 >= p->cap) {
        size_t c = p->cap ? 2 * p->cap : 64;
        int32_t *h = realloc(p->head, c * sizeof *h);
        if (h)
            p->head = h;
        int32_t *nx = realloc(p->next, c * sizeof *nx);
        if (nx)
            p->next = nx;
        size_t *o = realloc(p->off, (c + 1) * sizeof *o);
        if (o)
            p->off = o;
        if (!h || !nx || !o)
            return SL_ENOMEM;
        p->cap = c;
    }
    if (p->ntok + len > p->tcap) {
        size_t c = p->tcap ? 2 * p->tcap : 256;
        while (c < p->ntok + len)
            c *= 2;
        int32_t *k = realloc(p->tok, c * sizeof *k);
        if (!k)
            return SL_ENOMEM;
        p->tok = k;
        p->tcap = c;
    }
    size_t i = p->n++;
    p->head[i] = head;
    p->next[i] = -1;
    p->off[i] = p->ntok;
    memcpy(p->tok + p->ntok, t, len * sizeof *t);
    p->ntok += len;
    p->off[i + 1] = p->ntok;
    if (p->first[head] < 0) {
        p->first[head] = (int32_t)i;
    } else {
        int32_t j = p->first[head];
        while (p->next[j] >= 0)
            j = p->next[j];
        p->next[j] = (int32_t)i;
    }
    return SL_OK;
}

static void pairs_free(pairs *p)
{
    free(p->head), free(p->tok), free(p->next), free(p->off), free(p->first);
}

/* The block: n flags, then (8-aligned) the tails header, heads, offsets and tokens. */
static int block_of(const pairs *p, const unsigned char *flag, size_t n, unsigned char **block,
                    const sl_logits_dry_tails **tails)
{
    size_t a = (n + 7) / 8 * 8, hsz = sizeof(sl_logits_dry_tails);
    size_t total = a + hsz + p->n * sizeof(int32_t) + (p->n + 1) * sizeof(size_t) + p->ntok * sizeof(int32_t) + 8;
    unsigned char *b = malloc(p->n ? total : (n ? n : 1));
    if (!b)
        return SL_ENOMEM;
    memcpy(b, flag, n);
    *block = b;
    *tails = NULL;
    if (!p->n)
        return SL_OK;
    sl_logits_dry_tails *t = (sl_logits_dry_tails *)(void *)(b + a);
    size_t *off = (size_t *)(void *)(b + a + hsz);
    int32_t *head = (int32_t *)(void *)(off + p->n + 1), *tok = head + p->n;
    /* by head, each head's pairs in the order found (its chain) */
    size_t k = 0, at = 0;
    for (size_t h = 0; h < n; h++)
        for (int32_t i = p->first[h]; i >= 0; i = p->next[i]) {
            size_t len = p->off[i + 1] - p->off[i];
            head[k] = (int32_t)h;
            off[k] = at;
            memcpy(tok + at, p->tok + p->off[i], len * sizeof *tok);
            at += len;
            k++;
        }
    off[k] = at;
    t->n = k;
    t->head = head;
    t->off = off;
    t->tok = tok;
    *tails = t;
    return SL_OK;
}

int sl_logits_dry_restarts(const char *const *piece, const size_t *plen, size_t n, const char *const *breakers,
                           size_t nb, const sl_logits_llama_tok *tk, unsigned char **block,
                           const sl_logits_dry_tails **tails, sl_error *err)
{
    *block = NULL;
    *tails = NULL;
    unsigned char *flag = calloc(n ? n : 1, 1);
    pairs p = {0};
    p.first = malloc((n ? n : 1) * sizeof *p.first);
    if (!flag || !p.first) {
        free(flag);
        pairs_free(&p);
        return sl_base_error_set(err, SL_ENOMEM, "dry: out of memory for %zu tokens", n);
    }
    for (size_t t = 0; t < n; t++)
        p.first[t] = -1;
    int rc = SL_OK;
    for (size_t b = 0; b < nb && !rc; b++) {
        size_t bl = strlen(breakers[b]);
        if (!bl) /* llama_sampler_init_dry skips it with a warning */
            continue;
        if (bl > MAX_CHAR_LEN) /* and cuts a longer one */
            bl = MAX_CHAR_LEN;
        char q[2 * MAX_CHAR_LEN * 4 + 8], qp[256];
        if (memchr(breakers[b], ' ', bl)) {
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "sequence breaker '%s' holds a space: llama.cpp's clean_spaces rules for "
                                   "token texts are not modelled by samplab",
                                   sl_base_esc(breakers[b], bl, q, sizeof q));
            break;
        }
        const char *s = breakers[b];
        int32_t tail[MAX_CHAR_LEN][64];
        size_t tail_n[MAX_CHAR_LEN];
        unsigned char have[MAX_CHAR_LEN] = {0};
        for (size_t t = 0; t < n && !rc; t++) {
            const char *w = piece[t];
            size_t wl = plen[t], pos;
            int found = 0;
            for (pos = 0; pos + bl <= wl && !found; pos++)
                found = !memcmp(w + pos, s, bl);
            if (found) {
                flag[t] |= SL_LOGITS_DRY_SINGLE;
                continue;
            }
            /* each place where the piece ends in s[0 .. k), k = wl - pos < bl, in the order of pos */
            for (pos = wl >= bl ? wl - bl + 1 : 0; pos < wl && !rc; pos++) {
                size_t k = wl - pos;
                if (w[pos] != s[0] || memcmp(w + pos, s, k))
                    continue;
                if (!tk) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                           "sequence breaker '%s' overlaps the end of token %zu ('%s'): llama.cpp "
                                           "then tokenizes the breaker's rest into a restart sequence of several "
                                           "tokens, which needs llama.cpp's tokenizer for the vocabulary",
                                           sl_base_esc(s, bl, q, sizeof q), t,
                                           sl_base_esc(w, wl < 60 ? wl : 60, qp, sizeof qp));
                    break;
                }
                if (!have[k]) { /* vocab.tokenize(str.substr(i), false, false), once per rest */
                    if (sl_logits_llama_tokenize(tk, s + k, bl - k, tail[k], 64, &tail_n[k], err)) {
                        char m[sizeof err->msg];
                        snprintf(m, sizeof m, "%s", err->msg);
                        rc = sl_base_error_set(err, SL_EINVAL, "sequence breaker '%s', its rest after token %zu "
                                               "('%s'): %s", sl_base_esc(s, bl, q, sizeof q), t,
                                               sl_base_esc(w, wl < 60 ? wl : 60, qp, sizeof qp), m);
                        break;
                    }
                    have[k] = 1;
                }
                size_t len = tail_n[k] < MAX_SEQ_LEN ? tail_n[k] : MAX_SEQ_LEN;
                if (!len) { /* an empty tokenization is the empty tail: a breaker alone */
                    flag[t] |= SL_LOGITS_DRY_SINGLE;
                    continue;
                }
                if (pair_add(&p, (int32_t)t, tail[k], len))
                    rc = sl_base_error_set(err, SL_ENOMEM, "dry: out of memory for the restart sequences");
                flag[t] |= SL_LOGITS_DRY_HEAD;
            }
        }
    }
    if (!rc && block_of(&p, flag, n, block, tails))
        rc = sl_base_error_set(err, SL_ENOMEM, "dry: out of memory for the restart sequences");
    free(flag);
    pairs_free(&p);
    return rc;
}

int sl_logits_dry_breakers(const char *const *piece, const size_t *plen, size_t n, const char *const *breakers,
                           size_t nb, unsigned char *flag, sl_error *err)
{
    unsigned char *block;
    const sl_logits_dry_tails *tails;
    memset(flag, 0, n);
    if (sl_logits_dry_restarts(piece, plen, n, breakers, nb, NULL, &block, &tails, err))
        return SL_EINVAL;
    memcpy(flag, block, n);
    free(block);
    return SL_OK;
}
