/* gguf.c — a GGUF file's tokenizer section: tokenizer.ggml.model,
 * tokenizer.ggml.tokens, tokenizer.ggml.token_type and
 * tokenizer.ggml.add_space_prefix, what llama.cpp's DRY stage matches its
 * sequence breakers against (llama_vocab::load, llama.cpp 0.7.0), and
 * tokenizer.ggml.scores and tokenizer.ggml.merges, what its tokenizer reads
 * to make a breaker's rest into a restart sequence.
 *
 * The layout is ggml's gguf.cpp (gguf_init_from_file_impl) of GGUF versions
 * 2 and 3, little-endian: "GGUF", u32 version, u64 tensor count, u64 key
 * count, then each key as a u64-length string, a u32 value type and the
 * value (arrays: u32 element type, u64 count, elements). Reading stops after
 * the keys: the tensors are not needed. Every length is checked against the
 * bytes left before it is used; a malformed file is one line naming the
 * file and the byte where it went wrong. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/sl_io.h"

enum { G_U8, G_I8, G_U16, G_I16, G_U32, G_I32, G_F32, G_BOOL, G_STR, G_ARR, G_U64, G_I64, G_F64, G_NTYPES };
#define MAX_STR ((uint64_t)1 << 20)
#define MAX_KEYS ((uint64_t)1 << 20)

typedef struct cur {
    const char *name;
    const unsigned char *b;
    size_t len, pos;
    sl_error *err;
} cur;

static int bad(cur *c, const char *what)
{
    return sl_base_error_set(c->err, SL_EINVAL, "%s: byte %zu: %s (not a GGUF file the reader takes)", c->name, c->pos,
                             what);
}

static int need(cur *c, uint64_t n, const char *what)
{
    if (n > c->len - c->pos)
        return bad(c, what);
    return SL_OK;
}

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static int get(cur *c, int n, uint64_t *v, const char *what)
{
    if (need(c, (uint64_t)n, what))
        return SL_EINVAL;
    *v = le(c->b + c->pos, n);
    c->pos += (size_t)n;
    return SL_OK;
}

/* A string: *s points into the buffer, *n its length. */
static int str(cur *c, const unsigned char **s, size_t *n, const char *what)
{
    uint64_t l;
    if (get(c, 8, &l, what))
        return SL_EINVAL;
    if (l > MAX_STR) {
        c->pos -= 8;
        return bad(c, "a string is longer than 2^20 bytes");
    }
    if (need(c, l, what))
        return SL_EINVAL;
    *s = c->b + c->pos;
    *n = (size_t)l;
    c->pos += (size_t)l;
    return SL_OK;
}

static const int scalar_size[G_NTYPES] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

/* Skips a value of type t (arrays of arrays to depth 2, as gguf.cpp reads no deeper ones). */
static int skip(cur *c, uint64_t t, int depth)
{
    if (t >= G_NTYPES)
        return bad(c, "unknown value type");
    if (t == G_STR) {
        const unsigned char *s;
        size_t n;
        return str(c, &s, &n, "a string runs past the end of the file");
    }
    if (t != G_ARR) {
        if (need(c, (uint64_t)scalar_size[t], "a value runs past the end of the file"))
            return SL_EINVAL;
        c->pos += (size_t)scalar_size[t];
        return SL_OK;
    }
    uint64_t et, n;
    if (depth > 1)
        return bad(c, "arrays nested deeper than two");
    if (get(c, 4, &et, "an array's type runs past the end of the file") ||
        get(c, 8, &n, "an array's length runs past the end of the file"))
        return SL_EINVAL;
    if (et >= G_NTYPES)
        return bad(c, "unknown array element type");
    if (et != G_STR && et != G_ARR) {
        if (n > (c->len - c->pos) / (uint64_t)scalar_size[et])
            return bad(c, "an array runs past the end of the file");
        c->pos += (size_t)n * (size_t)scalar_size[et];
        return SL_OK;
    }
    for (uint64_t i = 0; i < n; i++)
        if (skip(c, et, depth + 1))
            return SL_EINVAL;
    return SL_OK;
}

void sl_io_gguf_vocab_free(sl_io_gguf_vocab *v)
{
    free(v->text);
    free(v->len);
    free(v->type);
    free(v->blob);
    free(v->score);
    free(v->merge);
    free(v->merge_len);
    free(v->merge_blob);
    memset(v, 0, sizeof *v);
}

static int key_is(const unsigned char *k, size_t n, const char *want)
{
    return n == strlen(want) && !memcmp(k, want, n);
}

/* The array header of a wanted key: its element type must be `et`; *n its count (at most SL_IO_MAX_V). */
static int array_of(cur *c, uint64_t t, uint64_t et_want, uint64_t *n, const char *key)
{
    uint64_t et;
    char msg[96];
    snprintf(msg, sizeof msg, "%s is not an array of %s", key,
             et_want == G_STR ? "strings" : et_want == G_F32 ? "float32" : "int32");
    if (t != G_ARR)
        return bad(c, msg);
    if (get(c, 4, &et, "an array's type runs past the end of the file"))
        return SL_EINVAL;
    if (et != et_want) {
        c->pos -= 4;
        return bad(c, msg);
    }
    if (get(c, 8, n, "an array's length runs past the end of the file"))
        return SL_EINVAL;
    if (*n == 0 || *n > SL_IO_MAX_V) {
        c->pos -= 8;
        return bad(c, "the token count is 0 or over 2^24");
    }
    return SL_OK;
}

int sl_io_gguf_vocab_parse(const char *name, const unsigned char *buf, size_t len, sl_io_gguf_vocab *out,
                           sl_error *err)
{
    memset(out, 0, sizeof *out);
    out->add_space_prefix = -1;
    cur c = {name, buf, len, 0, err};
    uint64_t ver, nt, nkv, t;
    if (need(&c, 4, "too short for the GGUF magic"))
        return SL_EINVAL;
    if (memcmp(buf, "GGUF", 4))
        return bad(&c, "the file does not start with \"GGUF\"");
    c.pos = 4;
    if (get(&c, 4, &ver, "too short for the version"))
        return SL_EINVAL;
    if (ver != 2 && ver != 3) {
        c.pos = 4;
        return bad(&c, "only GGUF versions 2 and 3 are read");
    }
    if (get(&c, 8, &nt, "too short for the tensor count") || get(&c, 8, &nkv, "too short for the key count"))
        return SL_EINVAL;
    if (nkv > MAX_KEYS) {
        c.pos -= 8;
        return bad(&c, "more than 2^20 keys");
    }
    size_t tok_pos = 0, type_pos = 0, score_pos = 0, merge_pos = 0;
    uint64_t ntok = 0, ntype = 0, nscore = 0, nmerge = 0;
    int have_model = 0;
    for (uint64_t k = 0; k < nkv; k++) {
        const unsigned char *key;
        size_t kn;
        if (str(&c, &key, &kn, "a key runs past the end of the file") ||
            get(&c, 4, &t, "a value type runs past the end of the file"))
            return SL_EINVAL;
        int is_model = key_is(key, kn, "tokenizer.ggml.model");
        if (is_model || key_is(key, kn, "tokenizer.ggml.pre")) {
            const unsigned char *s;
            size_t n;
            char *dst = is_model ? out->model : out->pre;
            if (t != G_STR)
                return bad(&c, is_model ? "tokenizer.ggml.model is not a string" : "tokenizer.ggml.pre is not a string");
            if (str(&c, &s, &n, "a tokenizer name runs past the end of the file"))
                return SL_EINVAL;
            if (n >= sizeof out->model || memchr(s, '\0', n)) {
                c.pos -= n;
                return bad(&c, "a tokenizer name is over 31 bytes or holds a NUL");
            }
            memcpy(dst, s, n);
            dst[n] = '\0';
            have_model |= is_model;
        } else if (key_is(key, kn, "tokenizer.ggml.tokens")) {
            if (array_of(&c, t, G_STR, &ntok, "tokenizer.ggml.tokens"))
                return SL_EINVAL;
            tok_pos = c.pos;
            for (uint64_t i = 0; i < ntok; i++)
                if (skip(&c, G_STR, 1))
                    return SL_EINVAL;
        } else if (key_is(key, kn, "tokenizer.ggml.token_type")) {
            if (array_of(&c, t, G_I32, &ntype, "tokenizer.ggml.token_type"))
                return SL_EINVAL;
            if (ntype > (c.len - c.pos) / 4)
                return bad(&c, "tokenizer.ggml.token_type runs past the end of the file");
            type_pos = c.pos;
            c.pos += (size_t)ntype * 4;
        } else if (key_is(key, kn, "tokenizer.ggml.scores")) {
            if (array_of(&c, t, G_F32, &nscore, "tokenizer.ggml.scores"))
                return SL_EINVAL;
            if (nscore > (c.len - c.pos) / 4)
                return bad(&c, "tokenizer.ggml.scores runs past the end of the file");
            score_pos = c.pos;
            c.pos += (size_t)nscore * 4;
        } else if (key_is(key, kn, "tokenizer.ggml.merges")) {
            if (array_of(&c, t, G_STR, &nmerge, "tokenizer.ggml.merges"))
                return SL_EINVAL;
            merge_pos = c.pos;
            for (uint64_t i = 0; i < nmerge; i++)
                if (skip(&c, G_STR, 1))
                    return SL_EINVAL;
        } else if (key_is(key, kn, "tokenizer.ggml.add_space_prefix")) {
            uint64_t b;
            if (t != G_BOOL)
                return bad(&c, "tokenizer.ggml.add_space_prefix is not a bool");
            if (get(&c, 1, &b, "tokenizer.ggml.add_space_prefix runs past the end of the file"))
                return SL_EINVAL;
            out->add_space_prefix = b != 0;
        } else if (skip(&c, t, 0)) {
            return SL_EINVAL;
        }
    }
    if (!have_model)
        return bad(&c, "no tokenizer.ggml.model key");
    if (!ntok)
        return bad(&c, "no tokenizer.ggml.tokens key");
    if (ntype && ntype != ntok)
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: byte %zu: tokenizer.ggml.token_type has %llu entries for %llu tokens", name,
                                 type_pos, (unsigned long long)ntype, (unsigned long long)ntok);
    if (nscore && nscore != ntok)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: tokenizer.ggml.scores has %llu entries for %llu tokens",
                                 name, score_pos, (unsigned long long)nscore, (unsigned long long)ntok);
    size_t n = (size_t)ntok, total = 0;
    c.pos = tok_pos;
    for (size_t i = 0; i < n; i++) { /* the second walk cannot fail: the first checked every length */
        total += (size_t)le(buf + c.pos, 8) + 1;
        c.pos += 8 + (size_t)le(buf + c.pos, 8);
    }
    out->n = n;
    out->text = malloc(n * sizeof *out->text);
    out->len = malloc(n * sizeof *out->len);
    out->type = malloc(n * sizeof *out->type);
    out->blob = malloc(total);
    if (!out->text || !out->len || !out->type || !out->blob) {
        sl_io_gguf_vocab_free(out);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu tokens", name, n);
    }
    char *p = out->blob;
    c.pos = tok_pos;
    for (size_t i = 0; i < n; i++) {
        size_t l = (size_t)le(buf + c.pos, 8);
        memcpy(p, buf + c.pos + 8, l);
        p[l] = '\0';
        out->text[i] = p;
        out->len[i] = l;
        p += l + 1;
        c.pos += 8 + l;
        /* llama_vocab::load: LLAMA_TOKEN_TYPE_NORMAL when the file gives no types */
        out->type[i] = ntype ? (int)(int32_t)(uint32_t)le(buf + type_pos + 4 * i, 4) : 1;
    }
    if (nscore) { /* llama_vocab::load: score 0 for every token when the file has none */
        out->score = malloc(n * sizeof *out->score);
        if (!out->score) {
            sl_io_gguf_vocab_free(out);
            return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu scores", name, n);
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t u = (uint32_t)le(buf + score_pos + 4 * i, 4);
            memcpy(&out->score[i], &u, 4);
        }
    }
    if (nmerge) {
        size_t m = (size_t)nmerge, mt = 0;
        c.pos = merge_pos;
        for (size_t i = 0; i < m; i++) {
            mt += (size_t)le(buf + c.pos, 8) + 1;
            c.pos += 8 + (size_t)le(buf + c.pos, 8);
        }
        out->merge = malloc(m * sizeof *out->merge);
        out->merge_len = malloc(m * sizeof *out->merge_len);
        out->merge_blob = malloc(mt);
        if (!out->merge || !out->merge_len || !out->merge_blob) {
            sl_io_gguf_vocab_free(out);
            return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu merges", name, m);
        }
        char *q = out->merge_blob;
        c.pos = merge_pos;
        for (size_t i = 0; i < m; i++) {
            size_t l = (size_t)le(buf + c.pos, 8);
            memcpy(q, buf + c.pos + 8, l);
            q[l] = '\0';
            out->merge[i] = q;
            out->merge_len[i] = l;
            q += l + 1;
            c.pos += 8 + l;
        }
        out->n_merge = m;
    }
    return SL_OK;
}

int sl_io_gguf_vocab_read(const char *path, sl_io_gguf_vocab *out, sl_error *err)
{
    unsigned char *buf;
    size_t len;
    memset(out, 0, sizeof *out);
    int rc = sl_io_file_slurp(path, &buf, &len, err);
    if (rc)
        return rc;
    rc = sl_io_gguf_vocab_parse(path, buf, len, out, err);
    free(buf);
    return rc;
}
