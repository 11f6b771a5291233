/* llama_tokenize.c — llama.cpp's tokenizer for the short texts DRY needs: the
 * rest of a sequence breaker after the part a token's piece ends in, which
 * llama_sampler_init_dry's get_overlapping_token_sequences tokenizes
 * (vocab.tokenize(rest, add_special false, parse_special false)) into the
 * tail of a restart sequence.
 *
 * Reproduces llama.cpp v0.4.0's src/llama-vocab.cpp (llama_vocab::impl::
 * tokenize) for two tokenizer models:
 *   - SPM ("llama"): a space before the text when add_space_prefix, spaces as
 *     U+2581, then llm_tokenizer_spm_session: UTF-8 characters merged pair by
 *     pair, the pair whose text is a token with the highest score first (ties:
 *     the leftmost), symbols that are no token as their <0xXX> byte tokens;
 *   - BPE ("gpt2") with the pre-tokenizers "gpt-2", "llama3"/"llama-v3"/
 *     "llama-bpe" and "qwen2" (src/unicode.cpp's unicode_regex_split_custom_gpt2,
 *     _llama3, _qwen2 on the code points), each piece through GPT-2's byte-to-
 *     unicode map, then llm_tokenizer_bpe_session: the whole piece when
 *     ignore_merges (llama3) and it is a token, else the adjacent pair with the
 *     lowest merge rank first (ties: the leftmost), symbols that are no token
 *     as their single bytes where those are tokens.
 * A priority queue whose stale entries are skipped picks, at each merge, the
 * best pair among the current neighbours: that is what is done here directly.
 * Not modelled (refused by name): other models and pre-tokenizers, BPE text
 * outside printable ASCII and \t \n \v \f \r (llama.cpp's Unicode tables are
 * not carried), text holding a user-defined token (tokenizer_st_partition
 * would split it out), an SPM byte with no <0xXX> token. Text that is not
 * UTF-8 (a rest that starts inside a character) is cut into symbols by lead
 * bytes as llama.cpp cuts it; a symbol is never the text of a pair, so SPM's
 * rev_merge resegmenting never applies and such symbols go out as bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

enum { T_USER = 4 };
enum { M_SPM, M_BPE };
enum { P_GPT2, P_LLAMA3, P_QWEN2 };

typedef struct slot {
    const char *s;
    size_t n;
    int32_t v; /* -1: empty */
} slot;

typedef struct table {
    slot *slot;
    size_t mask;
} table;

struct sl_logits_llama_tok {
    int model, pre, add_space_prefix, ignore_merges;
    size_t n;
    const char *const *text;
    const size_t *len;
    const int *type;
    const float *score;
    table tokens; /* text -> id, the last id of a text (llama_vocab::load's token_to_id[word] = i) */
    table ranks;  /* "left right" -> rank, the first (bpe_ranks.emplace keeps it) */
    char *buf;    /* lookup keys */
};

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static int table_init(table *t, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    t->slot = malloc(cap * sizeof *t->slot);
    if (!t->slot)
        return -1;
    for (size_t i = 0; i < cap; i++)
        t->slot[i].v = -1;
    t->mask = cap - 1;
    return 0;
}

static slot *table_at(const table *t, const char *s, size_t n)
{
    for (size_t i = hash(s, n) & t->mask;; i = (i + 1) & t->mask) {
        slot *e = &t->slot[i];
        if (e->v < 0 || (e->n == n && !memcmp(e->s, s, n)))
            return e;
    }
}

static int32_t table_get(const table *t, const char *s, size_t n)
{
    return table_at(t, s, n)->v;
}

void sl_logits_llama_tok_free(sl_logits_llama_tok *tk)
{
    if (!tk)
        return;
    free(tk->tokens.slot);
    free(tk->ranks.slot);
    free(tk->buf);
    free(tk);
}

int sl_logits_llama_tok_new(const char *model, const char *pre, int add_space_prefix, size_t n,
                            const char *const *text, const size_t *len, const int *type, const float *score,
                            size_t n_merge, const char *const *merge, const size_t *merge_len,
                            sl_logits_llama_tok **out, sl_error *err)
{
    *out = NULL;
    int m = !strcmp(model, "llama") ? M_SPM : !strcmp(model, "gpt2") ? M_BPE : -1;
    if (m < 0)
        return sl_base_error_set(err, SL_EINVAL, "llama.cpp's tokenizer for model '%s' is not modelled by samplab "
                                 "(SPM 'llama' and BPE 'gpt2' are)", model);
    int p = P_GPT2;
    if (m == M_BPE) {
        if (!strcmp(pre, "gpt-2"))
            p = P_GPT2;
        else if (!strcmp(pre, "llama3") || !strcmp(pre, "llama-v3") || !strcmp(pre, "llama-bpe"))
            p = P_LLAMA3;
        else if (!strcmp(pre, "qwen2"))
            p = P_QWEN2;
        else
            return sl_base_error_set(err, SL_EINVAL, "llama.cpp's BPE pre-tokenizer '%s' is not modelled by samplab "
                                     "(gpt-2, llama-bpe and qwen2 are)", pre);
    }
    sl_logits_llama_tok *tk = calloc(1, sizeof *tk);
    if (!tk || table_init(&tk->tokens, n) || table_init(&tk->ranks, m == M_BPE ? n_merge : 0) ||
        !(tk->buf = malloc(256))) {
        sl_logits_llama_tok_free(tk);
        return sl_base_error_set(err, SL_ENOMEM, "llama.cpp's tokenizer: out of memory for %zu tokens", n);
    }
    tk->model = m;
    tk->pre = p;
    /* llama_vocab::load: add_space_prefix defaults to true for SPM; BPE has none; ignore_merges for llama3 */
    tk->add_space_prefix = m == M_SPM && add_space_prefix != 0;
    tk->ignore_merges = m == M_BPE && p == P_LLAMA3;
    tk->n = n;
    tk->text = text;
    tk->len = len;
    tk->type = type;
    tk->score = score;
    for (size_t i = 0; i < n; i++) { /* an empty text is "[EMPTY_i]" there: never a piece of a breaker */
        if (!len[i])
            continue;
        slot *e = table_at(&tk->tokens, text[i], len[i]);
        e->s = text[i];
        e->n = len[i];
        e->v = (int32_t)i;
    }
    for (size_t i = 0; m == M_BPE && i < n_merge; i++) {
        slot *e = table_at(&tk->ranks, merge[i], merge_len[i]);
        if (e->v >= 0)
            continue;
        e->s = merge[i];
        e->n = merge_len[i];
        e->v = (int32_t)i;
    }
    *out = tk;
    return SL_OK;
}

/* unicode_len_utf8: the length a lead byte announces (continuation bytes count 1). */
static size_t lead_len(unsigned char c)
{
    static const unsigned char lookup[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    return lookup[c >> 4];
}

typedef struct sym {
    size_t at, n; /* bytes of the work text */
    int prev, next;
} sym;

typedef struct outv {
    int32_t *v;
    size_t n, cap;
} outv;

static void put(outv *o, int32_t t)
{
    if (o->n < o->cap)
        o->v[o->n] = t;
    o->n++;
}

/* Splits w[0..n) into UTF-8 symbols (the last one cut at the end, as the sessions do). */
static int symbols(const char *w, size_t n, sym *s, size_t cap)
{
    int k = 0;
    for (size_t at = 0; at < n; k++) {
        if ((size_t)k >= cap)
            return -1;
        size_t l = lead_len((unsigned char)w[at]);
        s[k].at = at;
        s[k].n = l < n - at ? l : n - at;
        s[k].prev = k - 1;
        at += s[k].n;
        s[k].next = at == n ? -1 : k + 1;
    }
    return k;
}

#define WORK 512

/* llm_tokenizer_spm_session::tokenize over w[0..n). */
static int spm(const sl_logits_llama_tok *tk, const char *w, size_t n, outv *o, sl_error *err)
{
    sym s[WORK];
    int k = symbols(w, n, s, WORK);
    if (k < 0)
        return sl_base_error_set(err, SL_EINVAL, "llama.cpp's tokenizer: a text over %d characters", WORK);
    for (;;) {
        int best = -1;
        float bs = 0;
        for (int i = 0; i >= 0 && i < k; i = s[i].next) {
            int j = s[i].next;
            if (j < 0)
                break;
            int32_t t = table_get(&tk->tokens, w + s[i].at, s[i].n + s[j].n);
            if (t < 0)
                continue;
            float sc = tk->score ? tk->score[t] : 0.0f;
            /* the queue's order: the higher score, then the smaller left index */
            if (best < 0 || sc > bs) {
                best = i;
                bs = sc;
            }
        }
        if (best < 0)
            break;
        int j = s[best].next;
        s[best].n += s[j].n;
        s[j].n = 0;
        s[best].next = s[j].next;
        if (s[j].next >= 0)
            s[s[j].next].prev = best;
    }
    for (int i = 0; k && i != -1; i = s[i].next) {
        int32_t t = table_get(&tk->tokens, w + s[i].at, s[i].n);
        if (t >= 0) {
            put(o, t);
            continue;
        }
        for (size_t b = 0; b < s[i].n; b++) { /* byte_to_token: the <0xXX> token */
            char name[8];
            snprintf(name, sizeof name, "<0x%02X>", (unsigned char)w[s[i].at + b]);
            t = table_get(&tk->tokens, name, 6);
            if (t < 0)
                return sl_base_error_set(err, SL_EINVAL, "llama.cpp's SPM tokenizer: the vocabulary has no byte "
                                         "token %s (llama.cpp would stop on it)", name);
            put(o, t);
        }
    }
    return SL_OK;
}

/* unicode_cpt_flags for ASCII: the classes the pre-tokenizers test. */
static int is_letter(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static int is_number(int c) { return c >= '0' && c <= '9'; }
static int is_space(int c) { return c == ' ' || (c >= 9 && c <= 13); }

typedef struct pieces {
    size_t *end, k, prev;
} pieces;

/* _add_token(e): a piece ends at e unless it would be empty; the piece's length. */
static size_t add(pieces *p, size_t e)
{
    size_t l = e - p->prev;
    if (l)
        p->end[p->k++] = e;
    p->prev = e;
    return l;
}

/* unicode_regex_split_custom_gpt2 / _llama3 / _qwen2 over ASCII text: the pieces' ends in end[]. */
static size_t split(int pre, const char *t, size_t n, size_t *end)
{
    pieces pc = {end, 0, 0};
#define CPT(i) ((i) < n ? (int)(unsigned char)t[i] : -1)
#define ADD(e) add(&pc, (e))
    size_t pos = 0;
    while (pos < n) {
        int c = CPT(pos);
        if (c == '\'' && pos + 1 < n) {
            int x = CPT(pos + 1);
            if (pre != P_GPT2 && x >= 'A' && x <= 'Z') /* (?i:...) of llama3 and qwen2 */
                x += 32;
            if (x == 's' || x == 't' || x == 'm' || x == 'd') {
                pos += ADD(pos + 2);
                continue;
            }
            if (pos + 2 < n) {
                int y = CPT(pos + 2);
                if (pre != P_GPT2 && y >= 'A' && y <= 'Z')
                    y += 32;
                if ((x == 'r' && y == 'e') || (x == 'v' && y == 'e') || (x == 'l' && y == 'l')) {
                    pos += ADD(pos + 3);
                    continue;
                }
            }
        }
        if (pre == P_GPT2) {
            int c2 = c == ' ' ? CPT(pos + 1) : c;
            if (c2 >= 0 && is_letter(c2)) { /* ' ?\p{L}+' */
                pos += c == ' ';
                while (CPT(pos) >= 0 && is_letter(CPT(pos)))
                    pos++;
                ADD(pos);
                continue;
            }
            if (c2 >= 0 && is_number(c2)) { /* ' ?\p{N}+' */
                pos += c == ' ';
                while (CPT(pos) >= 0 && is_number(CPT(pos)))
                    pos++;
                ADD(pos);
                continue;
            }
            if (c2 >= 0 && !is_space(c2) && !is_letter(c2) && !is_number(c2)) { /* ' ?[^\s\p{L}\p{N}]+' */
                pos += c == ' ';
                while (CPT(pos) >= 0 && !is_space(CPT(pos)) && !is_letter(CPT(pos)) && !is_number(CPT(pos)))
                    pos++;
                ADD(pos);
                continue;
            }
        } else {
            /* '[^\r\n\p{L}\p{N}]?\p{L}+' */
            if (!(c == '\r' || c == '\n' || is_number(c)) && (is_letter(c) || (CPT(pos + 1) >= 0 && is_letter(CPT(pos + 1))))) {
                pos++;
                while (CPT(pos) >= 0 && is_letter(CPT(pos)))
                    pos++;
                ADD(pos);
                continue;
            }
            if (is_number(c)) { /* '\p{N}{1,3}' (llama3), '\p{N}' (qwen2) */
                if (pre == P_QWEN2) {
                    pos++;
                } else {
                    size_t ini = pos;
                    while (CPT(pos) >= 0 && is_number(CPT(pos)))
                        if (++pos - ini >= 3) {
                            ADD(pos);
                            ini = pos;
                        }
                }
                ADD(pos);
                continue;
            }
            int c2 = c == ' ' ? CPT(pos + 1) : c; /* ' ?[^\s\p{L}\p{N}]+[\r\n]*' */
            if (c2 >= 0 && !is_space(c2) && !is_letter(c2) && !is_number(c2)) {
                pos += c == ' ';
                while (CPT(pos) >= 0 && !is_space(CPT(pos)) && !is_letter(CPT(pos)) && !is_number(CPT(pos)))
                    pos++;
                while (CPT(pos) == '\r' || CPT(pos) == '\n')
                    pos++;
                ADD(pos);
                continue;
            }
        }
        size_t nws = 0, last_rn = 0;
        while (CPT(pos + nws) >= 0 && is_space(CPT(pos + nws))) {
            if (pre != P_GPT2 && (CPT(pos + nws) == '\r' || CPT(pos + nws) == '\n'))
                last_rn = pos + nws + 1;
            nws++;
        }
        if (last_rn > 0) { /* '\s*[\r\n]+' */
            pos = last_rn;
            ADD(pos);
            continue;
        }
        if (nws > 1 && CPT(pos + nws) >= 0) { /* '\s+(?!\S)' */
            pos += nws - 1;
            ADD(pos);
            continue;
        }
        if (nws > 0) { /* '\s+' */
            pos += nws;
            ADD(pos);
            continue;
        }
        pos++; /* no match: the character alone */
        ADD(pos);
    }
#undef CPT
#undef ADD
    return pc.k;
}

/* GPT-2's bytes_to_unicode for byte b, as UTF-8 into out; its length. */
static size_t byte_char(unsigned b, char *out)
{
    unsigned cp = b;
    if (!((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255))) {
        unsigned k = 0; /* the unprintable bytes, in order, are 256, 257, ... */
        for (unsigned x = 0; x < b; x++)
            k += !((x >= 33 && x <= 126) || (x >= 161 && x <= 172) || (x >= 174 && x <= 255));
        cp = 256 + k;
    }
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    out[0] = (char)(0xC0 | cp >> 6);
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
}

/* llm_tokenizer_bpe_session::tokenize of one pre-tokenized, byte-encoded piece w[0..n). */
static int bpe_word(const sl_logits_llama_tok *tk, const char *w, size_t n, outv *o, sl_error *err)
{
    int32_t whole = table_get(&tk->tokens, w, n);
    if (tk->ignore_merges && whole >= 0) {
        put(o, whole);
        return SL_OK;
    }
    sym s[WORK];
    int k = symbols(w, n, s, WORK);
    if (k < 0)
        return sl_base_error_set(err, SL_EINVAL, "llama.cpp's tokenizer: a text over %d characters", WORK);
    char *key = tk->buf;
    for (;;) {
        int best = -1;
        int32_t br = 0;
        for (int i = 0; i >= 0 && i < k; i = s[i].next) {
            int j = s[i].next;
            if (j < 0)
                break;
            if (s[i].n + s[j].n + 1 > 256)
                continue;
            memcpy(key, w + s[i].at, s[i].n); /* find_bpe_rank(left, right): the merge "left right" */
            key[s[i].n] = ' ';
            memcpy(key + s[i].n + 1, w + s[j].at, s[j].n);
            int32_t r = table_get(&tk->ranks, key, s[i].n + 1 + s[j].n);
            if (r >= 0 && (best < 0 || r < br)) { /* the lower rank, then the smaller left index */
                best = i;
                br = r;
            }
        }
        if (best < 0)
            break;
        int j = s[best].next;
        s[best].n += s[j].n;
        s[j].n = 0;
        s[best].next = s[j].next;
        if (s[j].next >= 0)
            s[s[j].next].prev = best;
    }
    for (int i = 0; k && i != -1; i = s[i].next) {
        int32_t t = table_get(&tk->tokens, w + s[i].at, s[i].n);
        if (t >= 0) {
            put(o, t);
            continue;
        }
        for (size_t b = 0; b < s[i].n; b++) { /* each byte as a one-byte text, where that is a token */
            t = table_get(&tk->tokens, w + s[i].at + b, 1);
            if (t >= 0)
                put(o, t);
        }
    }
    return SL_OK;
}

int sl_logits_llama_tokenize(const sl_logits_llama_tok *tk, const char *text, size_t len, int32_t *out, size_t cap,
                             size_t *n_out, sl_error *err)
{
    char q[256];
    *n_out = 0;
    if (len > 200)
        return sl_base_error_set(err, SL_EINVAL, "llama.cpp's tokenizer: a text over 200 bytes is not modelled here");
    /* tokenizer_st_partition: user-defined tokens are split out even without parse_special */
    for (size_t t = 0; t < tk->n; t++) {
        if (tk->type[t] != T_USER || !tk->len[t] || tk->len[t] > len)
            continue;
        for (size_t at = 0; at + tk->len[t] <= len; at++)
            if (!memcmp(text + at, tk->text[t], tk->len[t]))
                return sl_base_error_set(err, SL_EINVAL, "llama.cpp's tokenizer: '%s' holds the user-defined token "
                                         "%zu, which it splits out first: not modelled by samplab",
                                         sl_base_esc(text, len, q, sizeof q), t);
    }
    outv o = {out, 0, cap};
    char w[WORK * 2];
    if (tk->model == M_SPM) {
        size_t n = 0;
        if (tk->add_space_prefix) {
            memcpy(w, "\xE2\x96\x81", 3);
            n = 3;
        }
        for (size_t i = 0; i < len; i++) { /* llama_escape_whitespace */
            if (text[i] == ' ') {
                memcpy(w + n, "\xE2\x96\x81", 3);
                n += 3;
            } else {
                w[n++] = text[i];
            }
        }
        if (spm(tk, w, n, &o, err))
            return SL_EINVAL;
    } else {
        for (size_t i = 0; i < len; i++) {
            unsigned char c = (unsigned char)text[i];
            if (c >= 0x7F || (c < 0x20 && !(c >= 9 && c <= 13)))
                return sl_base_error_set(err, SL_EINVAL, "llama.cpp's BPE tokenizer on '%s': text outside printable "
                                         "ASCII and \\t \\n \\v \\f \\r is not modelled by samplab (its Unicode "
                                         "tables are not carried)",
                                         sl_base_esc(text, len, q, sizeof q));
        }
        size_t end[WORK], k = split(tk->pre, text, len, end), from = 0;
        for (size_t p = 0; p < k; p++) {
            size_t n = 0;
            for (size_t i = from; i < end[p]; i++)
                n += byte_char((unsigned char)text[i], w + n);
            from = end[p];
            if (bpe_word(tk, w, n, &o, err))
                return SL_EINVAL;
        }
    }
    if (o.n > cap)
        return sl_base_error_set(err, SL_EINVAL, "llama.cpp's tokenizer: '%s' makes over %zu tokens",
                                 sl_base_esc(text, len, q, sizeof q), cap);
    *n_out = o.n;
    return SL_OK;
}
