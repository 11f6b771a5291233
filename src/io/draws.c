/* draws.c — readers for a user's draws: a file of token ids (any software's
 * output) and a file of per-token counts (`samplab draw --counts` prints
 * `id<TAB>count` lines, and a plain list of one count per token id in order
 * is accepted too).
 *
 * The draws file is read as a stream through a fixed 1 MiB buffer and only
 * the V counts are kept, so 10^9 draws need O(V) memory, not O(N). Errors
 * name the file, the line and column (1-based, in bytes) and the draw index.
 * "-" reads standard input.
 *
 * Nothing endless or absurd is read on: a field of more than 64 bytes (a token
 * id has at most 20 digits), a control byte (a NUL from /dev/zero), 1 MiB of
 * whitespace with no token, or more than SL_IO_MAX_DRAWS draws is refused where
 * it happens. A UTF-8 byte-order mark is skipped; a binary file (.npy,
 * .safetensors, zip, gzip) or UTF-16 text is refused by its first bytes; a file
 * of `id<TAB>count` lines (0, 1, 2, ... in the first column, what
 * `samplab draw --counts` prints) is refused as counts, which would otherwise be
 * read as twice as many draws.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/sl_io.h"

#define DRAWS_BUF (1u << 20)
#define TOKEN_MAX 64          /* bytes of one field: a token id has at most 20 digits */
#define BLANK_MAX (1u << 20)  /* whitespace bytes in a row with no token id */

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

const char *sl_io_token_id_hint(const char *tok, size_t len)
{
    size_t d = 0;
    while (d < len && tok[d] >= '0' && tok[d] <= '9')
        d++;
    if (len > 0 && d == len)
        return NULL;
    if (len > 0 && tok[0] == '-')
        return "a negative number is no token id";
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)tok[i] >= 0x80)
            return "token ids are ASCII digits (non-ASCII bytes here)";
    for (size_t i = 0; i < len; i++)
        if (tok[i] == ',' || tok[i] == '[' || tok[i] == ']' || tok[i] == '{' || tok[i] == '"')
            return "token ids are separated by whitespace only";
    for (size_t i = 0; i < len; i++)
        if (tok[i] == '.' || tok[i] == 'e' || tok[i] == 'E')
            return "token ids are integers (np.savetxt needs fmt='%d')";
    return "token ids are non-negative decimal integers";
}

/* The shape of `draw --counts` output: every non-blank line two fields, a TAB
 * between them, the first 0, 1, 2, ... */
typedef struct counts_shape {
    int still;             /* every line so far has the shape */
    uint64_t lines;        /* non-blank lines seen */
    unsigned fields;       /* fields on the current line */
    int tab;               /* a TAB after the first field of this line */
    uint64_t first;        /* the first field's value */
} counts_shape;

static const char *counts_hint(const counts_shape *cs)
{
    return cs->still && cs->fields == 2 && cs->tab && cs->first == cs->lines
               ? " (the file looks like id<TAB>count lines: give it to --counts)"
               : "";
}

int sl_io_draws_stream(FILE *f, const char *name, size_t V, uint64_t *counts, uint64_t *n, const sl_progress *prog,
                       sl_error *err)
{
    char *buf = malloc(DRAWS_BUF);
    if (!buf)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", name);
    uint64_t line = 1, col = 0, tok_line = 0, tok_col = 0, draws = 0, blank = 0;
    /* Current token: its bytes (at most TOKEN_MAX), its value so far (saturating
     * past V), whether it is all digits. */
    int in_tok = 0, digits_only = 1;
    uint64_t val = 0;
    char tok[TOKEN_MAX], q[4 * TOKEN_MAX + 8];
    size_t tlen = 0;
    counts_shape cs = {1, 0, 0, 0, 0};
    int rc = SL_OK, first = 1;
    size_t got;
    int eof = 0;
    while (!eof) {
        got = fread(buf, 1, DRAWS_BUF, f);
        if (got < DRAWS_BUF && ferror(f) && errno == EINTR) {
            clearerr(f); /* a signal broke a read of a pipe (Ctrl-C): the tick below says whether to stop */
        } else if (got < DRAWS_BUF) {
            if (ferror(f)) {
                rc = sl_base_error_set(err, SL_EIO, "%s: read error after line %llu: %s", name,
                                       (unsigned long long)line, strerror(errno));
                goto out;
            }
            eof = 1;
        }
        size_t start = 0;
        if (first) {
            first = 0;
            if ((rc = sl_io_text_start(name, (const unsigned char *)buf, got,
                                       "text token ids (np.savetxt(f, a, fmt='%d'))", &start, err)))
                goto out;
        }
        if (prog && prog->tick && prog->tick(prog->ctx, draws, 0)) {
            rc = sl_base_error_set(err, SL_EINTR, "%s: interrupted after %llu draws (line %llu)", name,
                                   (unsigned long long)draws, (unsigned long long)line);
            goto out;
        }
        /* One extra pass with a virtual newline at the end closes the last token. */
        size_t end = got + (eof ? 1 : 0);
        for (size_t i = start; i < end; i++) {
            int c = i < got ? (unsigned char)buf[i] : '\n';
            col++;
            if (!is_space(c)) {
                if (c < 0x20 || c == 0x7f) {
                    rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu, column %llu: byte \\x%02x is not text (a "
                                           "binary file?)", name, (unsigned long long)line, (unsigned long long)col, c);
                    goto out;
                }
                if (!in_tok) {
                    in_tok = 1;
                    digits_only = 1;
                    val = 0;
                    tlen = 0;
                    tok_line = line;
                    tok_col = col;
                    blank = 0;
                }
                if (tlen == TOKEN_MAX) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                           "%s: line %llu, column %llu (draw %llu): a field of more than %d bytes "
                                           "('%s...') is no token id",
                                           name, (unsigned long long)tok_line, (unsigned long long)tok_col,
                                           (unsigned long long)draws + 1, TOKEN_MAX, sl_base_esc(tok, 16, q, sizeof q));
                    goto out;
                }
                tok[tlen++] = (char)c;
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
                const char *why = digits_only ? NULL : sl_io_token_id_hint(tok, tlen);
                if (why) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                           "%s: line %llu, column %llu (draw %llu): '%s' is not a token id: %s", name,
                                           (unsigned long long)tok_line, (unsigned long long)tok_col,
                                           (unsigned long long)draws + 1, sl_base_esc(tok, tlen, q, sizeof q),
                                           why);
                    goto out;
                }
                cs.fields++;
                if (cs.fields == 1)
                    cs.first = val;
                if (val >= (uint64_t)V) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                           "%s: line %llu, column %llu (draw %llu): token id %s outside 0..%zu%s", name,
                                           (unsigned long long)tok_line, (unsigned long long)tok_col,
                                           (unsigned long long)draws + 1, sl_base_esc(tok, tlen, q, sizeof q), V - 1,
                                           counts_hint(&cs));
                    goto out;
                }
                if (draws == SL_IO_MAX_DRAWS) {
                    rc = sl_base_error_set(err, SL_EINVAL,
                                           "%s: line %llu: more than %llu draws; samplab reads at most that many (give "
                                           "counts instead)", name, (unsigned long long)tok_line,
                                           (unsigned long long)SL_IO_MAX_DRAWS);
                    goto out;
                }
                counts[val]++;
                draws++;
            }
            if (c == '\t' && cs.fields == 1)
                cs.tab = 1;
            if (++blank > BLANK_MAX) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: more than %u blank bytes in a row with no token "
                                       "id (an endless stream?)", name, (unsigned long long)line, BLANK_MAX);
                goto out;
            }
            if (c == '\n') {
                if (cs.fields) { /* one more non-blank line: does it keep the counts shape? */
                    if (!(cs.fields == 2 && cs.tab && cs.first == cs.lines))
                        cs.still = 0;
                    cs.lines++;
                }
                cs.fields = 0;
                cs.tab = 0;
                line++;
                col = 0;
            }
        }
    }
    if (cs.still && cs.lines > 0)
        rc = sl_base_error_set(err, SL_EINVAL,
                               "%s: every line is 'i<TAB>count' with i = 0, 1, 2, ...: counts as `samplab draw "
                               "--counts` prints them, not draws; give the file to --counts",
                               name);
out:
    free(buf);
    *n = draws;
    return rc;
}

static FILE *open_input(const char *path, sl_error *err, int *rc)
{
    if (!strcmp(path, "-"))
        return stdin;
    if ((*rc = sl_io_input_check(path, err)))
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        *rc = sl_base_error_set(err, SL_EINVAL, "%s: cannot open: %s", path, strerror(errno));
    return f;
}

int sl_io_draws_read(const char *path, size_t V, uint64_t *counts, uint64_t *n, const sl_progress *prog,
                     sl_error *err)
{
    int rc = SL_OK;
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    *n = 0;
    FILE *f = open_input(path, err, &rc);
    if (!f)
        return rc;
    memset(counts, 0, V * sizeof *counts);
    rc = sl_io_draws_stream(f, name, V, counts, n, prog, err);
    if (f != stdin)
        fclose(f);
    if (!rc && *n == 0)
        rc = sl_base_error_set(err, SL_EINVAL, "%s: no draws (no token ids in the file)", name);
    return rc;
}

/* Parses a non-negative decimal integer field [s, e); 0 if it is one, -1 if it
 * is not, -2 if it is above max. */
static int parse_u64(const char *s, const char *e, uint64_t max, uint64_t *out)
{
    if (s == e)
        return -1;
    uint64_t v = 0;
    int big = 0;
    for (const char *c = s; c < e; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        unsigned d = (unsigned)(*c - '0');
        if (v > (max - d) / 10)
            big = 1;
        else
            v = v * 10 + d;
    }
    if (big)
        return -2;
    *out = v;
    return 0;
}

static const char *count_hint(const char *s, const char *e)
{
    if (s < e && *s == '-')
        return "a count is never negative";
    for (const char *c = s; c < e; c++)
        if ((unsigned char)*c >= 0x80)
            return "a count is ASCII digits (non-ASCII bytes here)";
    for (const char *c = s; c < e; c++)
        if (*c == '.' || *c == 'e' || *c == 'E')
            return "a count is a whole number";
    return "a count is a non-negative decimal integer";
}

#define COUNTS_LINE_MAX 4096    /* bytes of one line of a counts file */
#define COUNTS_BLANK_MAX 65536  /* lines in a row with no count */

/* The next line of f into ln (without its newline), at most COUNTS_LINE_MAX
 * bytes: 1 a line, 0 the end, -1 too long, -2 a read error. */
static int counts_line(FILE *f, char *ln, size_t *len)
{
    size_t k = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (k == COUNTS_LINE_MAX)
            return -1;
        ln[k++] = (char)c;
    }
    *len = k;
    if (c == EOF && ferror(f))
        return -2;
    return c == EOF && k == 0 ? 0 : 1;
}

int sl_io_counts_read(const char *path, size_t V, uint64_t *counts, uint64_t *n, sl_error *err)
{
    int rc = SL_OK;
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    *n = 0;
    FILE *f = open_input(path, err, &rc);
    if (!f)
        return rc;
    memset(counts, 0, V * sizeof *counts);
    unsigned char *seen = calloc(V, 1);
    char *ln = malloc(COUNTS_LINE_MAX + 1), q[4 * 40 + 8];
    size_t len;
    uint64_t line = 0, total = 0, blank = 0;
    int got;
    if (!seen || !ln) {
        rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", name);
        goto out;
    }
    while ((got = counts_line(f, ln, &len)) > 0) {
        line++;
        const char *c = ln, *end = ln + len;
        if (line == 1) {
            size_t skip;
            if ((rc = sl_io_text_start(name, (const unsigned char *)ln, len, "text counts (id<TAB>count lines)",
                                       &skip, err)))
                goto out;
            c += skip;
        }
        for (const char *b = c; b < end; b++)
            if (((unsigned char)*b < 0x20 && !is_space((unsigned char)*b)) || *b == 0x7f) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu, column %ld: byte \\x%02x is not text (a "
                                       "binary file?)", name, (unsigned long long)line, (long)(b - ln) + 1,
                                       (unsigned char)*b);
                goto out;
            }
        /* Split into whitespace-separated fields; '#' starts a comment. */
        const char *fs[3], *fe[3];
        int nf = 0;
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
        if (nf == 0) {
            if (++blank > COUNTS_BLANK_MAX) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: more than %d lines in a row with no count (an "
                                       "endless stream?)", name, (unsigned long long)line, COUNTS_BLANK_MAX);
                goto out;
            }
            continue;
        }
        blank = 0;
        if (nf == 1) {
            /* one number per line is a draws file as often as a list of counts: never guessed */
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "%s: line %llu has one field ('%s'); counts are id<TAB>count lines as `samplab draw "
                                   "--counts` prints them (one token id per line is draws: give it to --draws)",
                                   name, (unsigned long long)line,
                                   sl_base_esc(fs[0], (size_t)(fe[0] - fs[0] > 40 ? 40 : fe[0] - fs[0]), q, sizeof q));
            goto out;
        }
        if (nf > 2) {
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "%s: line %llu has %d fields; expected id<TAB>count (draws with several ids per "
                                   "line go to --draws)", name, (unsigned long long)line, nf);
            goto out;
        }
        uint64_t v;
        int pr = parse_u64(fs[0], fe[0], UINT64_MAX, &v);
        if (pr == -1) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu, column %ld: '%s' is not a token id", name,
                                   (unsigned long long)line, (long)(fs[0] - ln) + 1,
                                   sl_base_esc(fs[0], (size_t)(fe[0] - fs[0] > 40 ? 40 : fe[0] - fs[0]), q, sizeof q));
            goto out;
        }
        if (pr == -2 || v >= (uint64_t)V) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: token id %s outside 0..%zu", name,
                                   (unsigned long long)line,
                                   sl_base_esc(fs[0], (size_t)(fe[0] - fs[0] > 40 ? 40 : fe[0] - fs[0]), q, sizeof q),
                                   V - 1);
            goto out;
        }
        size_t id = (size_t)v;
        if (seen[id]) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: token id %zu appears twice", name,
                                   (unsigned long long)line, id);
            goto out;
        }
        const char *cs = fs[1], *ce = fe[1];
        pr = parse_u64(cs, ce, SL_IO_MAX_COUNT, &v);
        if (pr) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu, column %ld: '%s' is not a count: %s", name,
                                   (unsigned long long)line, (long)(cs - ln) + 1,
                                   sl_base_esc(cs, (size_t)(ce - cs > 40 ? 40 : ce - cs), q, sizeof q),
                                   pr == -2 ? "larger than 2^53, the most samplab's statistics hold exactly"
                                            : count_hint(cs, ce));
            goto out;
        }
        if (v > SL_IO_MAX_COUNT - total) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu: the counts add up past 2^53 (%llu), the most "
                                   "samplab's statistics hold exactly", name, (unsigned long long)line,
                                   (unsigned long long)SL_IO_MAX_COUNT);
            goto out;
        }
        seen[id] = 1;
        counts[id] = v;
        total += v;
    }
    if (got == -1) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: line %llu is longer than %d bytes; a counts line is id<TAB>count",
                               name, (unsigned long long)line + 1, COUNTS_LINE_MAX);
        goto out;
    }
    if (got == -2) {
        rc = sl_base_error_set(err, SL_EIO, "%s: read error after line %llu: %s", name, (unsigned long long)line,
                               strerror(errno));
        goto out;
    }
    /* draw --counts prints every id: a missing one means a cut-off file, not a zero. */
    for (size_t i = 0; i < V && total; i++)
        if (!seen[i]) {
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "%s: no line for token id %zu (id<TAB>count lines must cover 0..%zu)", name, i,
                                   V - 1);
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
