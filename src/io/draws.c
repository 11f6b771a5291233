/* draws.c — readers for a user's draws: a file of token ids (any software's
 * output) and a file of per-token counts (`samplab draw --counts` prints
 * `id<TAB>count` lines, and a plain list of one count per token id in order
 * is accepted too).
 *
 * The draws file is read as a stream through a fixed 1 MiB buffer and only
 * the V counts are kept, so 10^9 draws need O(V) memory, not O(N). Errors
 * name the file, the line and column (1-based, in bytes) and the draw index.
 * "-" reads standard input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/sl_io.h"

#define DRAWS_BUF (1u << 20)
#define TOKEN_SHOW 40 /* characters of a bad token quoted in a message */

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Why `tok` (len chars, not all digits) is no token id, for the message. */
static const char *bad_token_hint(const char *tok, size_t len)
{
    if (len > 0 && tok[0] == '-')
        return "a negative number is no token id";
    for (size_t i = 0; i < len; i++)
        if (tok[i] == '.' || tok[i] == 'e' || tok[i] == 'E')
            return "token ids are integers (np.savetxt needs fmt='%d')";
    for (size_t i = 0; i < len; i++)
        if (tok[i] == ',' || tok[i] == '[' || tok[i] == ']')
            return "token ids are separated by whitespace only";
    return "token ids are non-negative decimal integers";
}

int sl_io_draws_stream(FILE *f, const char *name, size_t V, uint64_t *counts, uint64_t *n,
                       sl_error *err)
{
    char *buf = malloc(DRAWS_BUF);
    if (!buf)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", name);
    uint64_t line = 1, col = 0, tok_line = 0, tok_col = 0, draws = 0;
    /* Current token: its value so far (saturating past V), its first
     * characters for the message, and whether it is all digits. */
    int in_tok = 0, digits_only = 1;
    uint64_t val = 0;
    char shown[TOKEN_SHOW + 1];
    size_t tlen = 0;
    int rc = SL_OK;
    size_t got;
    int eof = 0;
    while (!eof) {
        got = fread(buf, 1, DRAWS_BUF, f);
        if (got < DRAWS_BUF) {
            if (ferror(f)) {
                rc = sl_base_error_set(err, SL_EIO, "%s: read error after line %llu: %s", name,
                                  (unsigned long long)line, strerror(errno));
                goto out;
            }
            eof = 1;
        }
        if (draws == 0 && line == 1 && col == 0 && got >= 6 && !memcmp(buf, "\x93NUMPY", 6)) {
            rc = sl_base_error_set(err, SL_EINVAL,
                              "%s: a .npy file; draws are text token ids (np.savetxt(f, a, fmt='%%d'))", name);
            goto out;
        }
        /* One extra pass with a virtual newline at the end closes the last token. */
        size_t end = got + (eof ? 1 : 0);
        for (size_t i = 0; i < end; i++) {
            int c = i < got ? (unsigned char)buf[i] : '\n';
            col++;
            if (!is_space(c)) {
                if (!in_tok) {
                    in_tok = 1;
                    digits_only = 1;
                    val = 0;
                    tlen = 0;
                    tok_line = line;
                    tok_col = col;
                }
                if (tlen < TOKEN_SHOW) /* quoted in messages: keep them printable */
                    shown[tlen] = c >= 0x20 && c < 0x7f ? (char)c : '?';
                tlen++;
                if (c >= '0' && c <= '9') {
                    if (val <= (uint64_t)V) /* saturate: anything above V is out of range */
                        val = val * 10 + (uint64_t)(c - '0');
                } else {
                    digits_only = 0;
                }
                continue;
            }
            if (in_tok) {
                in_tok = 0;
                size_t k = tlen < TOKEN_SHOW ? tlen : TOKEN_SHOW;
                shown[k] = 0;
                if (!digits_only) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                      "%s: line %llu, column %llu (draw %llu): '%s%s' is not a token id: %s",
                                      name, (unsigned long long)tok_line, (unsigned long long)tok_col,
                                      (unsigned long long)draws + 1, shown, tlen > TOKEN_SHOW ? "..." : "",
                                      bad_token_hint(shown, k));
                    goto out;
                }
                if (val >= (uint64_t)V) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                      "%s: line %llu, column %llu (draw %llu): token id %s%s outside 0..%zu",
                                      name, (unsigned long long)tok_line, (unsigned long long)tok_col,
                                      (unsigned long long)draws + 1, shown, tlen > TOKEN_SHOW ? "..." : "",
                                      V - 1);
                    goto out;
                }
                counts[val]++;
                draws++;
            }
            if (c == '\n') {
                line++;
                col = 0;
            }
        }
    }
out:
    free(buf);
    *n = draws;
    return rc;
}

static FILE *open_input(const char *path, sl_error *err, int *rc)
{
    if (!strcmp(path, "-"))
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f)
        *rc = sl_base_error_set(err, SL_EINVAL, "%s: cannot open: %s", path, strerror(errno));
    return f;
}

int sl_io_draws_read(const char *path, size_t V, uint64_t *counts, uint64_t *n, sl_error *err)
{
    int rc = SL_OK;
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    FILE *f = open_input(path, err, &rc);
    if (!f)
        return rc;
    memset(counts, 0, V * sizeof *counts);
    rc = sl_io_draws_stream(f, name, V, counts, n, err);
    if (f != stdin)
        fclose(f);
    if (!rc && *n == 0)
        rc = sl_base_error_set(err, SL_EINVAL, "%s: no draws (no token ids in the file)", name);
    return rc;
}

/* Parses a non-negative decimal integer field [s, e); returns 0 if it is one. */
static int parse_u64(const char *s, const char *e, uint64_t *out)
{
    if (s == e)
        return -1;
    uint64_t v = 0;
    for (const char *c = s; c < e; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        unsigned d = (unsigned)(*c - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static const char *count_hint(const char *s, const char *e)
{
    if (s < e && *s == '-')
        return "a count is never negative";
    for (const char *c = s; c < e; c++)
        if (*c == '.' || *c == 'e' || *c == 'E')
            return "a count is a whole number";
    return "a count is a non-negative decimal integer";
}

int sl_io_counts_read(const char *path, size_t V, uint64_t *counts, uint64_t *n, sl_error *err)
{
    int rc = SL_OK;
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    FILE *f = open_input(path, err, &rc);
    if (!f)
        return rc;
    memset(counts, 0, V * sizeof *counts);
    unsigned char *seen = calloc(V, 1);
    char *ln = NULL;
    size_t cap = 0;
    ssize_t len;
    uint64_t line = 0, total = 0;
    size_t next_id = 0; /* plain format: the id of the next count */
    int format = 0;     /* 0 unknown, 1 plain counts, 2 id<TAB>count */
    if (!seen) {
        rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", name);
        goto out;
    }
    while ((len = getline(&ln, &cap, f)) >= 0) {
        line++;
        /* Split into whitespace-separated fields; '#' starts a comment. */
        const char *fs[3], *fe[3];
        int nf = 0;
        const char *c = ln, *end = ln + len;
        for (;;) {
            while (c < end && is_space((unsigned char)*c))
                c++;
            if (c >= end || *c == '#')
                break;
            const char *s = c;
            while (c < end && !is_space((unsigned char)*c) && *c != '#')
                c++;
            if (nf < 3) {
                fs[nf] = s;
                fe[nf] = c;
            }
            nf++;
        }
        if (nf == 0)
            continue;
        if (nf > 2) {
            rc = sl_base_error_set(err, SL_EINVAL,
                              "%s: line %llu has %d fields; expected a count or id<TAB>count", name,
                              (unsigned long long)line, nf);
            goto out;
        }
        if (format == 0)
            format = nf;
        if (nf != format) {
            rc = sl_base_error_set(err, SL_EINVAL,
                              "%s: line %llu has %d field%s but earlier lines have %d: mixed formats",
                              name, (unsigned long long)line, nf, nf == 1 ? "" : "s", format);
            goto out;
        }
        size_t id;
        const char *cs = fs[nf - 1], *ce = fe[nf - 1];
        if (nf == 2) {
            uint64_t v;
            int pr = parse_u64(fs[0], fe[0], &v);
            if (pr == -1) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu, column 1: '%.*s' is not a token id",
                                  name, (unsigned long long)line, (int)(fe[0] - fs[0] > 40 ? 40 : fe[0] - fs[0]),
                                  fs[0]);
                goto out;
            }
            if (pr == -2 || v >= (uint64_t)V) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: token id %.*s outside 0..%zu", name,
                                  (unsigned long long)line, (int)(fe[0] - fs[0] > 40 ? 40 : fe[0] - fs[0]),
                                  fs[0], V - 1);
                goto out;
            }
            id = (size_t)v;
            if (seen[id]) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: token id %zu appears twice", name,
                                  (unsigned long long)line, id);
                goto out;
            }
        } else {
            id = next_id++;
            if (id >= V) {
                rc = sl_base_error_set(err, SL_EINVAL,
                                  "%s: line %llu: count for token id %zu, but the distribution has %zu tokens",
                                  name, (unsigned long long)line, id, V);
                goto out;
            }
        }
        uint64_t v;
        int pr = parse_u64(cs, ce, &v);
        if (pr) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu, column %ld: '%.*s' is not a count: %s", name,
                              (unsigned long long)line, (long)(cs - ln) + 1, (int)(ce - cs > 40 ? 40 : ce - cs),
                              cs, pr == -2 ? "larger than 2^64-1" : count_hint(cs, ce));
            goto out;
        }
        if (v > UINT64_MAX - total) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: counts add up past 2^64-1", name,
                              (unsigned long long)line);
            goto out;
        }
        seen[id] = 1;
        counts[id] = v;
        total += v;
    }
    if (ferror(f)) {
        rc = sl_base_error_set(err, SL_EIO, "%s: read error after line %llu: %s", name, (unsigned long long)line,
                          strerror(errno));
        goto out;
    }
    if (format == 2) {
        /* draw --counts prints every id: a missing one means a cut-off file, not a zero. */
        for (size_t i = 0; i < V; i++)
            if (!seen[i]) {
                rc = sl_base_error_set(err, SL_EINVAL,
                                  "%s: no line for token id %zu (id<TAB>count lines must cover 0..%zu)", name, i,
                                  V - 1);
                goto out;
            }
    }
    if (format == 1 && next_id != V) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: %zu counts, but the distribution has %zu tokens", name, next_id,
                          V);
        goto out;
    }
    if (total == 0)
        rc = sl_base_error_set(err, SL_EINVAL, "%s: no draws (all counts are zero or the file is empty)", name);
out:
    free(ln);
    free(seen);
    if (f && f != stdin)
        fclose(f);
    *n = total;
    return rc;
}
