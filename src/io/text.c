/* text.c — a vector from text: numbers separated by whitespace or commas,
 * `#` starts a comment to the end of the line; an empty field between commas
 * is an error (skipping it would shift the token ids). Each number is parsed twice
 * from its own text, by strtod into d and by strtof into f (both correctly
 * rounded in glibc), so float32 consumers see no double rounding.
 * Entries are numbered from 0 in messages, as token ids are. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/sl_io.h"

static int is_sep(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\f' || c == '\v';
}

int sl_io_vec_read_text(const char *name, const char *text, size_t len, sl_vec *out, sl_error *err)
{
    size_t skip;
    int rc = sl_io_text_start(name, (const unsigned char *)text, len, "a text vector of numbers", &skip, err);
    if (rc)
        return rc;
    return sl_io_text_numbers(name, text + skip, len - skip, 1, out, err);
}

/* Why tok (tl bytes) is not a number, beyond "not a number", for the message. */
static const char *number_hint(const char *tok, size_t tl)
{
    if (tl >= 3 && !memcmp(tok, "\xef\xbb\xbf", 3))
        return " (a UTF-8 byte-order mark inside the text)";
    for (size_t i = 0; i < tl; i++)
        if ((unsigned char)tok[i] >= 0x80)
            return " (non-ASCII bytes: a Unicode minus sign or space?)";
    for (size_t i = 0; i < tl; i++)
        if ((unsigned char)tok[i] < 0x20 || tok[i] == 0x7f)
            return " (a control byte)";
    return "";
}

/* "line N" and sep before the rest of a message; nothing for line 0 (an
 * option's one-line inline list, named by the option: no line to point at). */
static const char *at_line(char *b, size_t n, size_t line, const char *sep)
{
    if (!line)
        return "";
    snprintf(b, n, "line %zu%s", line, sep);
    return b;
}

/* Whether tok (tl bytes) is a hexadecimal float ("0x1p-2"), which strtod reads but
 * Python's float(), np.loadtxt and torch's readers refuse: refused here too (docs/architecture.md). */
static int is_hex_float(const char *tok, size_t tl)
{
    size_t i = tl && (tok[0] == '-' || tok[0] == '+');
    return tl > i + 1 && tok[i] == '0' && (tok[i + 1] == 'x' || tok[i + 1] == 'X');
}

static int text_numbers(const char *name, const char *text, size_t len, size_t line, int ids, sl_vec *out,
                        sl_error *err)
{
    char lb[48];
    size_t cap = 64, n = 0;
    double *d = malloc(cap * sizeof *d);
    float *f = malloc(cap * sizeof *f);
    char tok[128];
    int rc = SL_OK;
    size_t i = 0;
    if (!d || !f) {
        rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", name);
        goto done;
    }
    int after_comma = 0; /* a comma seen and no number since */
    size_t ls = 0;       /* where the current line starts, for columns */
    while (i < len) {
        char c = text[i];
        if (c == '\n') {
            line++;
            ls = i + 1;
        }
        if (c == ',') {
            /* "1,,2" or a leading comma: an empty field, which would shift every later
             * token id by one if skipped. A trailing comma ("1, 2, 3,") is fine. */
            if (after_comma || n == 0) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: %sentry %zu is empty (a comma with no number before it)",
                                  name, at_line(lb, sizeof lb, line, ", "), n);
                goto done;
            }
            after_comma = 1;
        }
        if (is_sep(c)) {
            i++;
            continue;
        }
        if (c == '#') {
            while (i < len && text[i] != '\n')
                i++;
            continue;
        }
        if (c == '\0') {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: %scolumn %zu: a NUL byte (\\x00) in a text vector", name,
                                   at_line(lb, sizeof lb, line, ", "), i - ls + 1);
            goto done;
        }
        size_t start = i;
        while (i < len && !is_sep(text[i]) && text[i] != '#' && text[i] != '\0')
            i++;
        size_t tl = i - start;
        if (tl >= sizeof tok) {
            char q[64];
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "%s: %scolumn %zu, entry %zu: a token of %zu bytes ('%s') is not a number",
                                   name, at_line(lb, sizeof lb, line, ", "), start - ls + 1, n, tl, sl_base_esc(text + start, 12, q, sizeof q));
            goto done;
        }
        memcpy(tok, text + start, tl);
        tok[tl] = '\0';
        const char *why = ids ? sl_io_token_id_hint(tok, tl) : NULL;
        if (why || is_hex_float(tok, tl)) {
            char q[4 * sizeof tok];
            rc = sl_base_error_set(err, SL_EINVAL, "%s: %sentry %zu: '%s' is not %s: %s", name,
                                   at_line(lb, sizeof lb, line, ", "), n, sl_base_esc(tok, tl, q, sizeof q),
                                   why ? "a token id" : "a number",
                                   why ? why : "a hexadecimal float; samplab reads decimal numbers only");
            goto done;
        }
        char *end;
        errno = 0;
        double dv = strtod(tok, &end);
        if (end != tok + tl || tl == 0) {
            char q[4 * sizeof tok];
            rc = sl_base_error_set(err, SL_EINVAL, "%s: %sentry %zu: '%s' is not a number%s", name,
                                   at_line(lb, sizeof lb, line, ", "), n,
                                   sl_base_esc(tok, tl, q, sizeof q), number_hint(tok, tl));
            goto done;
        }
        if (n >= SL_IO_MAX_V) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: %smore than %zu numbers; samplab reads vectors of at "
                                   "most %zu entries", name, at_line(lb, sizeof lb, line, ": "), SL_IO_MAX_V, SL_IO_MAX_V);
            goto done;
        }
        float fv = strtof(tok, NULL);
        if (n == cap) {
            cap *= 2;
            double *nd = realloc(d, cap * sizeof *d);
            if (nd)
                d = nd;
            float *nf = realloc(f, cap * sizeof *f);
            if (nf)
                f = nf;
            if (!nd || !nf) {
                rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", name);
                goto done;
            }
        }
        d[n] = dv;
        f[n] = fv;
        n++;
        after_comma = 0;
    }
    if (n == 0) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: no numbers found (empty vector)", name);
        goto done;
    }
    memset(out, 0, sizeof *out);
    snprintf(out->source, sizeof out->source, "%s", name);
    out->n = n;
    out->d = d;
    out->f = f;
    out->dtype = SL_F64;
    return SL_OK;
done:
    free(d);
    free(f);
    return rc;
}

int sl_io_text_numbers(const char *name, const char *text, size_t len, size_t line, sl_vec *out, sl_error *err)
{
    return text_numbers(name, text, len, line, 0, out, err);
}

int sl_io_text_ids(const char *name, const char *text, size_t len, size_t line, sl_vec *out, sl_error *err)
{
    return text_numbers(name, text, len, line, 1, out, err);
}

/* A row ends in \n (or \r\n): a lone \r (old Mac text), a form feed or a vertical
 * tab would otherwise join two rows into one long row, which no reader should guess. */
int sl_io_text_row_check(const char *name, const char *row, size_t len, size_t line, sl_error *err)
{
    for (size_t k = 0; k < len && row[k] != '#'; k++) {
        char c = row[k];
        if ((c == '\r' && k + 1 < len) || c == '\f' || c == '\v')
            return sl_base_error_set(err, SL_EINVAL,
                                     "%s: line %zu, column %zu: a %s (\\x%02x) inside a row; rows end in \\n or "
                                     "\\r\\n", name, line, k + 1,
                                     c == '\r' ? "carriage return without a line feed"
                                     : c == '\f' ? "form feed" : "vertical tab", (unsigned)c);
    }
    return SL_OK;
}
