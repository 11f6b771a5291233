/* batch.c — a batch of rows as replay, check and draw take it: each row's prompt
 * (--context "1,2,3;4,5,6", rows separated by ';', or --context-file FILE, one row
 * of comma-separated ids a line), each as generate()'s input_ids row, left padding
 * included (for a serving engine one prompt is every row's); --num-return-sequences N repeats each prompt N times as transformers'
 * input_ids.repeat_interleave(N, dim=0) does (generation/utils.py,
 * _expand_inputs_for_generation, 5.12.1); --eos-token-id and --pad-token-id (pad
 * defaults to the EOS id, as _prepare_special_tokens sets it); and, for the
 * frameworks with a generator per request, each row's seed or none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

int sl_api_batch_asked(const sl_api_settings *s)
{
    return (s->context && strchr(s->context, ';')) || s->context_file || s->has_num_return_sequences ||
           s->has_eos_token_id || s->has_pad_token_id;
}

void sl_api_batch_free(sl_api_batch *b)
{
    sl_api_id_rows_free(&b->prompt);
    free(b->rows);
    free(b->seed);
    memset(b, 0, sizeof *b);
}

/* One prompt row from its text (an inline list): `where` names it in messages. */
static int prompt_row(const char *cmd, const char *where, const char *text, size_t len, size_t V, long **ids,
                      size_t *n, sl_error *err)
{
    size_t a = 0, e = len;
    while (a < e && strchr(" \t\r", text[a]))
        a++;
    while (e > a && strchr(" \t\r", text[e - 1]))
        e--;
    if (a == e)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s is empty (a prompt has at least one id)", cmd, where);
    char *piece = malloc(e - a + 1);
    if (!piece)
        return sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory", cmd);
    memcpy(piece, text + a, e - a);
    piece[e - a] = 0;
    int rc = sl_api_ids(cmd, where, piece, "context", V, ids, n, err);
    free(piece);
    return rc;
}

static int add_row(sl_api_id_rows *o, size_t *cap, long *ids, size_t n, const char *cmd, sl_error *err)
{
    if (o->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        long **p = realloc(o->ids, nc * sizeof *p);
        if (p)
            o->ids = p;
        size_t *pn = p ? realloc(o->len, nc * sizeof *pn) : NULL;
        if (pn)
            o->len = pn;
        if (!p || !pn) {
            free(ids);
            return sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory for %zu rows", cmd, nc);
        }
        *cap = nc;
    }
    o->ids[o->n] = ids;
    o->len[o->n++] = n;
    return SL_OK;
}

void sl_api_id_rows_free(sl_api_id_rows *o)
{
    for (size_t i = 0; o->ids && i < o->n; i++)
        free(o->ids[i]);
    free(o->ids);
    free(o->len);
    memset(o, 0, sizeof *o);
}

int sl_api_id_rows_read(const char *cmd, const char *opt, const char *src, int is_file, size_t V, sl_api_id_rows *o,
                        sl_error *err)
{
    size_t cap = 0;
    int rc = SL_OK;
    memset(o, 0, sizeof *o);
    if (!is_file) {
        const char *t = src;
        for (size_t r = 0; !rc; r++) {
            const char *semi = strchr(t, ';');
            size_t len = semi ? (size_t)(semi - t) : strlen(t);
            char where[64];
            snprintf(where, sizeof where, "%s row %zu", opt, r);
            long *ids;
            size_t n;
            if (!(rc = prompt_row(cmd, where, t, len, V, &ids, &n, err)))
                rc = add_row(o, &cap, ids, n, cmd, err);
            if (!semi)
                break;
            t = semi + 1;
        }
    } else {
        unsigned char *buf = NULL;
        size_t len = 0;
        if (!(rc = sl_io_input_check(src, err)))
            rc = sl_io_file_slurp(src, &buf, &len, err);
        if (rc) {
            rc = sl_api_lib_error(err, rc);
        } else if (len && memchr(buf, 0, len)) {
            rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: a NUL byte at offset %zu: not a text of ids", cmd,
                                   src, (size_t)((unsigned char *)memchr(buf, 0, len) - buf));
        }
        const char *text = (const char *)buf;
        size_t line = 0;
        for (size_t at = 0; !rc && at < len;) {
            const char *nl = memchr(text + at, '\n', len - at);
            size_t end = nl ? (size_t)(nl - text) : len;
            line++;
            if ((rc = sl_io_text_row_check(src, text + at, end - at, line, err))) {
                rc = sl_api_lib_error(err, rc);
                break;
            }
            const char *hash = memchr(text + at, '#', end - at);
            size_t stop = hash ? (size_t)(hash - text) : end, k = at;
            while (k < stop && strchr(" \t\r,", text[k]))
                k++;
            if (k < stop) {
                char where[320];
                snprintf(where, sizeof where, "%.256s line %zu", src, line);
                long *ids;
                size_t n;
                if (!(rc = prompt_row(cmd, where, text + at, stop - at, V, &ids, &n, err)))
                    rc = add_row(o, &cap, ids, n, cmd, err);
            }
            at = end + 1;
        }
        free(buf);
        if (!rc && !o->n)
            rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: no rows (no line with ids)", cmd, src);
    }
    if (rc)
        sl_api_id_rows_free(o);
    return rc;
}

int sl_api_batch_load(const char *cmd, const sl_api_settings *s, const sl_fw_type *ft, size_t rows_in, size_t V,
                      sl_api_batch *b, sl_error *err)
{
    memset(b, 0, sizeof *b);
    b->eos.eos = b->eos.pad = -1;
    size_t N = s->has_num_return_sequences ? s->num_return_sequences : 1;
    if (s->has_num_return_sequences && N < 1)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s must be at least 1", cmd,
                                 SL_API_NAME(NUM_RETURN_SEQUENCES));
    if (ft && !ft->batch)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: framework %s: a batch of rows is not modelled by samplab "
                                 "(one row at a time)", cmd, ft->name);
    if (s->has_eos_token_id && (size_t)s->eos_token_id >= V)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s %ld is not a token id in 0..%zu", cmd,
                                 SL_API_NAME(EOS_TOKEN_ID), s->eos_token_id, V - 1);
    if (s->has_pad_token_id && (size_t)s->pad_token_id >= V)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s %ld is not a token id in 0..%zu", cmd,
                                 SL_API_NAME(PAD_TOKEN_ID), s->pad_token_id, V - 1);
    if (s->has_eos_token_id) {
        b->eos.eos = s->eos_token_id;
        b->eos.pad = s->has_pad_token_id ? s->pad_token_id : s->eos_token_id;
    }
    b->nrs = N;
    int rc = SL_OK;
    if (s->context && s->context_file)
        rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: give one of %s and %s", cmd, SL_API_NAME(CONTEXT),
                               SL_API_NAME(CONTEXT_FILE));
    else if (s->context || s->context_file)
        rc = sl_api_id_rows_read(cmd, s->context ? SL_API_NAME(CONTEXT) : SL_API_NAME(CONTEXT_FILE),
                                 s->context ? s->context : s->context_file, s->context_file != NULL, V, &b->prompt,
                                 err);
    if (rc) {
        sl_api_batch_free(b);
        return rc;
    }
    size_t P = b->prompt.n;
    const char *from = s->context_file ? s->context_file : SL_API_NAME(CONTEXT);
    /* one prompt is every row's where a batch has no generate() to repeat it (--num-return-sequences) */
    int every = P == 1 && N == 1 && ft && !(ft->accepts & SL_OPT_GEN_BATCH);
    if (P && P * N != rows_in && !every) {
        if (N > 1)
            rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: %s gives %zu prompt rows, %zu rows with %s %zu; the "
                                   "logits have %zu rows a step", cmd, from, P, P * N,
                                   SL_API_NAME(NUM_RETURN_SEQUENCES), N, rows_in);
        else
            rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: %s gives %zu prompt rows; the logits have %zu rows a "
                                   "step", cmd, from, P, rows_in);
    } else if (!P && rows_in % N) {
        rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: the logits have %zu rows a step, not a multiple of %s %zu",
                               cmd, rows_in, SL_API_NAME(NUM_RETURN_SEQUENCES), N);
    }
    for (size_t p = 1; !rc && ft && ft->batch_rect && p < P; p++)
        if (b->prompt.len[p] != b->prompt.len[0])
            rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: prompt row %zu has %zu ids, row 0 has %zu: "
                                   "generate()'s input_ids rows are one length (left padding included)", cmd, from,
                                   p, b->prompt.len[p], b->prompt.len[0]);
    if (!rc && !(b->rows = calloc(rows_in ? rows_in : 1, sizeof *b->rows)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory for %zu rows", cmd, rows_in);
    if (rc) {
        sl_api_batch_free(b);
        return rc;
    }
    b->B = rows_in;
    for (size_t r = 0; r < rows_in && P; r++) {
        size_t p = every ? 0 : r / N; /* repeat_interleave: prompt p is rows p·N .. p·N + N - 1 */
        b->rows[r].context = b->prompt.ids[p];
        b->rows[r].context_n = b->prompt.len[p];
    }
    return SL_OK;
}

int sl_api_batch_seeds(const char *cmd, sl_api_batch *b, const sl_api_row_seeds *rs, sl_error *err)
{
    if (!rs->n)
        return SL_OK;
    if (rs->n != b->B)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s gives %zu %s for %zu %s (one per row)", cmd,
                                 SL_API_NAME(ROW_SEEDS), rs->n, rs->n == 1 ? "entry" : "entries", b->B,
                                 b->B == 1 ? "row" : "rows");
    if (!(b->seed = calloc(b->B, sizeof *b->seed)))
        return sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory for %zu seeds", cmd, b->B);
    for (size_t r = 0; r < b->B; r++)
        if (rs->row[r].given) {
            b->seed[r] = rs->row[r].seed;
            b->rows[r].seed = &b->seed[r];
        }
    return SL_OK;
}
