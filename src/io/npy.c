/* npy.c — the header of a NumPy .npy file and its data as a tensor view (io/vec.c reads a vector
 * of it, io/steps.c a [T, V] matrix), read as
 * numpy/lib/format.py (NumPy 2.4.6, _read_array_header) reads them.
 *
 * The file: "\x93NUMPY", major, minor ((1,0), (2,0) or (3,0), nothing else),
 * the header length (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), the
 * header, the data. The header is the text of a Python literal dict that
 * NumPy evaluates with ast.literal_eval: latin-1 in 1.0 and 2.0, UTF-8 in 3.0,
 * at most 10000 bytes (format.py's max_header_size). Its keys must be exactly
 * 'descr', 'fortran_order' and 'shape'. So it is parsed here as a literal,
 * token by token, never searched for keys: strings with their prefixes
 * (r, u), escapes and implicit concatenation; integers in every base with
 * underscores and a sign; True, False, None; tuples with or without their
 * trailing comma ((4,), (), (2, 3)); whitespace, comments and the padding
 * after the dict (spaces and a newline as np.save writes them; a NUL is
 * refused, as Python's tokenizer refuses it). A 1.0 or 2.0 header may carry
 * Python 2's long suffix (4L), which format.py's _filter_header strips.
 *
 * What samplab reads of it: descr a string naming little-endian float32 or
 * float64 as numpy.dtype reads it on a little-endian host ('<f4', '|f4',
 * '=f4', 'f4', 'float32', ...); fortran_order a bool (True only where the
 * order cannot matter: at most one dimension above 1); shape a tuple of at
 * most 8 non-negative integers whose product times the width is the data's
 * length. Refused where NumPy reads the file: a key given twice (Python keeps
 * the last), True/False as a shape entry (bool is an int to Python), any
 * other dtype. Every refusal is one line with the byte offset in the file. */
#include <stdlib.h>
#include <string.h>

#include "io/sl_io.h"

#define NPY_MAX_HEADER 10000 /* numpy/lib/format.py: _MAX_HEADER_SIZE */
#define PY_STR_KEEP 48       /* bytes of a string literal kept for comparison and messages */

enum { PV_STR, PV_INT, PV_BOOL, PV_NONE, PV_FLOAT, PV_TUPLE };

/* One literal as parsed: a string (its first bytes), an integer (magnitude,
 * sign, past 2^64), a bool, None, a float or complex (only named), or a tuple
 * of scalars (the first SL_IO_NPY_MAXDIM + 1 entries kept). */
typedef struct py_val {
    int kind;
    size_t at;                 /* file offset of its first byte */
    char s[PY_STR_KEEP + 1];
    size_t slen;               /* the string's full length in bytes (UTF-8) */
    int bytes;                 /* a b'' literal */
    uint64_t i;
    int neg, big, b;
    size_t n;                  /* tuple entries */
    struct py_val *e;          /* tuple entries kept (n of them, at most SL_IO_NPY_MAXDIM + 1) */
} py_val;

typedef struct py_p {
    const unsigned char *h;
    size_t n, i, off;          /* header bytes, position, file offset of h[0] */
    int py2;                   /* 1.0 / 2.0: Python 2's 4L */
    const char *name;
    sl_error *err;
} py_p;

static int py_fail(py_p *p, size_t at, const char *what)
{
    char q[24];
    if (at < p->n)
        sl_base_esc(p->h + at, p->n - at < 6 ? p->n - at : 6, q, sizeof q);
    if (at < p->n)
        return sl_base_error_set(p->err, SL_EINVAL, "%s: byte %zu: %s (at '%s') in the .npy header", p->name,
                                 p->off + at, what, q);
    return sl_base_error_set(p->err, SL_EINVAL, "%s: byte %zu: %s: the .npy header ends there", p->name, p->off + at,
                             what);
}

static int py_is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

/* Whitespace, comments and backslash-newline continuations (Python's
 * tokenizer: space, tab, form feed, CR, LF; a vertical tab or any other
 * control byte is a syntax error). */
static int py_ws(py_p *p)
{
    while (p->i < p->n) {
        unsigned char c = p->h[p->i];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r') {
            p->i++;
        } else if (c == '#') {
            while (p->i < p->n && p->h[p->i] != '\n' && p->h[p->i] != '\r')
                p->i++;
        } else if (c == '\\') {
            size_t j = p->i + 1;
            if (j < p->n && p->h[j] == '\r')
                j++;
            if (j < p->n && p->h[j] == '\n')
                j++;
            if (j == p->i + 1)
                return py_fail(p, p->i, "a backslash outside a string");
            /* a continuation must continue something */
            size_t k = j;
            while (k < p->n && (p->h[k] == ' ' || p->h[k] == '\t' || p->h[k] == '\f'))
                k++;
            if (k == p->n)
                return py_fail(p, p->i, "a line continuation with nothing after it");
            p->i = j;
        } else {
            break;
        }
    }
    return 0;
}

/* Whitespace outside the dict, where Python's tokenizer counts indentation: a
 * line that starts with spaces or tabs (a form feed resets the count) and holds
 * a token, or ends the text, is an IndentationError; blank and comment lines are
 * ignored; a backslash continuation is refused here. At the start, leading
 * spaces and tabs are dropped first (ast.literal_eval's lstrip(" \t")). */
static int py_ws_top(py_p *p, int start)
{
    int bol = start, col = 0, strip = start;
    while (p->i < p->n) {
        unsigned char c = p->h[p->i];
        if (c == '\n' || c == '\r') {
            bol = 1;
            col = 0;
            strip = 0;
        } else if (c == ' ' || c == '\t') {
            if (bol && !strip)
                col++;
        } else if (c == '\f') {
            col = 0;
            strip = 0;
        } else if (c == '#') {
            while (p->i < p->n && p->h[p->i] != '\n' && p->h[p->i] != '\r')
                p->i++;
            continue;
        } else if (c == '\\') {
            return py_fail(p, p->i, "a line continuation outside the header dict");
        } else {
            break;
        }
        p->i++;
    }
    if (bol && col > 0)
        return py_fail(p, p->i, "an indented line outside the header dict (Python's IndentationError)");
    return 0;
}

/* Appends code point cp to v's string as UTF-8 (only the first PY_STR_KEEP bytes kept). */
static void py_put(py_val *v, uint32_t cp)
{
    unsigned char u[4];
    size_t k;
    if (cp < 0x80) {
        u[0] = (unsigned char)cp;
        k = 1;
    } else if (cp < 0x800) {
        u[0] = (unsigned char)(0xc0 | cp >> 6);
        u[1] = (unsigned char)(0x80 | (cp & 0x3f));
        k = 2;
    } else if (cp < 0x10000) {
        u[0] = (unsigned char)(0xe0 | cp >> 12);
        u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (unsigned char)(0x80 | (cp & 0x3f));
        k = 3;
    } else {
        u[0] = (unsigned char)(0xf0 | cp >> 18);
        u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (unsigned char)(0x80 | (cp & 0x3f));
        k = 4;
    }
    for (size_t j = 0; j < k; j++, v->slen++)
        if (v->slen < PY_STR_KEEP)
            v->s[v->slen] = (char)u[j];
    v->s[v->slen < PY_STR_KEEP ? v->slen : PY_STR_KEEP] = '\0';
}

static int py_hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string prefix (r, u, b, f and their pairs, any case) followed by a quote: its length, else 0. */
static size_t py_prefix(const py_p *p, size_t at, int *raw, int *bytes, int *fstr)
{
    size_t k = 0;
    *raw = *bytes = *fstr = 0;
    int u = 0;
    while (k < 3 && at + k < p->n) {
        int c = p->h[at + k] | 0x20;
        if (c == 'r' && !*raw)
            *raw = 1;
        else if (c == 'b' && !*bytes && !u && !*fstr)
            *bytes = 1;
        else if (c == 'u' && !u && !*raw && !*bytes && !*fstr && k == 0)
            u = 1;
        else if (c == 'f' && !*fstr && !*bytes && !u)
            *fstr = 1;
        else
            break;
        k++;
    }
    if (at + k < p->n && (p->h[at + k] == '\'' || p->h[at + k] == '"') && !(u && k > 1))
        return k;
    return 0;
}

/* One string literal at p->i (prefix included), appended to v. */
static int py_str1(py_p *p, py_val *v)
{
    int raw, bytes, fstr;
    size_t start = p->i, k = py_prefix(p, p->i, &raw, &bytes, &fstr);
    if (fstr)
        return py_fail(p, start, "an f-string is no literal");
    p->i += k;
    unsigned char q = p->h[p->i];
    int triple = p->i + 2 < p->n && p->h[p->i + 1] == q && p->h[p->i + 2] == q;
    p->i += triple ? 3 : 1;
    if (v->kind == PV_STR && v->slen + v->bytes > 0 && v->bytes != bytes)
        return py_fail(p, start, "a bytes literal joined to a string");
    v->bytes = bytes;
    for (;;) {
        if (p->i >= p->n)
            return py_fail(p, start, "an unterminated string");
        unsigned char c = p->h[p->i];
        if (c == q && (!triple || (p->i + 2 < p->n && p->h[p->i + 1] == q && p->h[p->i + 2] == q))) {
            p->i += triple ? 3 : 1;
            return 0;
        }
        if ((c == '\n' || c == '\r') && !triple)
            return py_fail(p, start, "a string broken by a line end");
        if (c != '\\') {
            py_put(v, c); /* latin-1 (1.0, 2.0) byte or UTF-8 (3.0) byte, kept as is */
            p->i++;
            continue;
        }
        if (p->i + 1 >= p->n)
            return py_fail(p, start, "an unterminated string");
        unsigned char d = p->h[p->i + 1];
        if (raw) { /* the backslash stays, and keeps the next byte from ending the string */
            py_put(v, '\\');
            py_put(v, d);
            p->i += 2;
            continue;
        }
        p->i += 2;
        uint32_t cp;
        switch (d) {
        case '\n': continue;
        case '\r': if (p->i < p->n && p->h[p->i] == '\n') p->i++; continue;
        case '\\': cp = '\\'; break;
        case '\'': cp = '\''; break;
        case '"': cp = '"'; break;
        case 'a': cp = 7; break;
        case 'b': cp = 8; break;
        case 'f': cp = 12; break;
        case 'n': cp = 10; break;
        case 'r': cp = 13; break;
        case 't': cp = 9; break;
        case 'v': cp = 11; break;
        case 'x': case 'u': case 'U': {
            int nd = d == 'x' ? 2 : d == 'u' ? 4 : 8;
            if (bytes && d != 'x') {
                py_put(v, '\\');
                cp = d;
                break;
            }
            cp = 0;
            for (int j = 0; j < nd; j++) {
                int h = p->i < p->n ? py_hexval(p->h[p->i]) : -1;
                if (h < 0)
                    return py_fail(p, p->i - 2 - (size_t)j, "a truncated \\x, \\u or \\U escape");
                cp = cp << 4 | (uint32_t)h;
                p->i++;
            }
            if (cp > 0x10ffff)
                return py_fail(p, p->i - 10, "a \\U escape past U+10FFFF");
            break;
        }
        case 'N':
            if (bytes) {
                py_put(v, '\\');
                cp = 'N';
                break;
            }
            return py_fail(p, p->i - 2, "a \\N{...} escape (not read by samplab)");
        default:
            if (d >= '0' && d <= '7') {
                cp = (uint32_t)(d - '0');
                for (int j = 0; j < 2 && p->i < p->n && p->h[p->i] >= '0' && p->h[p->i] <= '7'; j++)
                    cp = cp * 8 + (uint32_t)(p->h[p->i++] - '0');
            } else { /* an unknown escape keeps its backslash */
                py_put(v, '\\');
                cp = d;
            }
        }
        py_put(v, cp);
    }
}

/* Digits of base `base` with single underscores between them, from s[0..n). */
static int py_digits(const unsigned char *s, size_t n, int base, uint64_t *val, int *big)
{
    if (n == 0 || s[0] == '_' || s[n - 1] == '_')
        return -1;
    uint64_t x = 0;
    for (size_t j = 0; j < n; j++) {
        if (s[j] == '_') {
            if (s[j + 1] == '_')
                return -1;
            continue;
        }
        int h = py_hexval(s[j]);
        if (h < 0 || h >= base)
            return -1;
        if (x > (UINT64_MAX - (uint64_t)h) / (uint64_t)base)
            *big = 1;
        x = x * (uint64_t)base + (uint64_t)h;
    }
    *val = x;
    return 0;
}

/* A number token at p->i: an int (any base, underscores, 4L in a 1.0/2.0 header),
 * or a float or complex (named only). */
static int py_number(py_p *p, py_val *v)
{
    size_t s = p->i;
    while (p->i < p->n) {
        unsigned char c = p->h[p->i];
        if (py_is_ident(c) || c == '.')
            p->i++;
        else if ((c == '+' || c == '-') && p->i > s && (p->h[p->i - 1] | 0x20) == 'e' &&
                 !((p->h[s + 1] | 0x20) == 'x' && p->h[s] == '0'))
            p->i++;
        else
            break;
    }
    const unsigned char *t = p->h + s;
    size_t n = p->i - s;
    v->kind = PV_INT;
    if (p->py2 && n > 1 && t[n - 1] == 'L') /* _filter_header drops a NAME token "L" after a number */
        n--;
    if (n > 2 && t[0] == '0' && strchr("xXoObB", t[1])) {
        int base = (t[1] | 0x20) == 'x' ? 16 : (t[1] | 0x20) == 'o' ? 8 : 2;
        /* "0x_1" is Python: an underscore may follow the prefix */
        size_t a = t[2] == '_' ? 3 : 2;
        if (a < n && !py_digits(t + a, n - a, base, &v->i, &v->big))
            return 0;
        return py_fail(p, s, "a malformed integer");
    }
    if (!py_digits(t, n, 10, &v->i, &v->big)) {
        if (t[0] == '0' && v->i != 0)
            return py_fail(p, s, "a decimal integer with a leading zero");
        return 0;
    }
    /* not an integer: a float or a complex if it reads as one, else a syntax error */
    n = p->i - s;
    int digits = 0, dot = 0, exp = 0;
    for (size_t j = 0; j < n; j++) {
        unsigned char c = t[j];
        if (c >= '0' && c <= '9')
            digits = 1;
        else if (c == '.' && !dot && !exp)
            dot = 1;
        else if ((c | 0x20) == 'e' && digits && !exp)
            exp = 1;
        else if ((c == '+' || c == '-') && exp && (t[j - 1] | 0x20) == 'e')
            ;
        else if (c == '_' && j && t[j - 1] >= '0' && t[j - 1] <= '9' && j + 1 < n && t[j + 1] >= '0' && t[j + 1] <= '9')
            ;
        else if ((c | 0x20) == 'j' && j + 1 == n && digits)
            ;
        else
            return py_fail(p, s, "a malformed number");
    }
    if (!digits)
        return py_fail(p, s, "a malformed number");
    v->kind = PV_FLOAT;
    return 0;
}

static int py_value(py_p *p, py_val *v, int depth);

static void py_free(py_val *v)
{
    free(v->e);
    v->e = NULL;
}

/* '(' at p->i: (), (x) which is x itself, or a tuple (x,), (x, y), (x, y,). */
static int py_paren(py_p *p, py_val *v, int depth)
{
    size_t at = p->i++;
    int rc;
    if ((rc = py_ws(p)))
        return rc;
    if (p->i < p->n && p->h[p->i] == ')') {
        p->i++;
        v->kind = PV_TUPLE;
        v->at = p->off + at;
        return 0;
    }
    py_val first;
    memset(&first, 0, sizeof first);
    if ((rc = py_value(p, &first, depth + 1)) || (rc = py_ws(p))) {
        free(first.e);
        return rc;
    }
    if (p->i < p->n && p->h[p->i] == ')') { /* parentheses around one value */
        p->i++;
        *v = first;
        return 0;
    }
    if (first.kind == PV_TUPLE) {
        free(first.e);
        return py_fail(p, at + 1, "a tuple inside a tuple");
    }
    v->kind = PV_TUPLE;
    v->at = p->off + at;
    v->e = calloc(SL_IO_NPY_MAXDIM + 1, sizeof *v->e);
    if (!v->e)
        return sl_base_error_set(p->err, SL_ENOMEM, "%s: out of memory", p->name);
    v->e[v->n++] = first;
    for (;;) {
        if (p->i >= p->n || p->h[p->i] != ',')
            return py_fail(p, p->i, "a malformed tuple: no ',' or ')' here");
        p->i++;
        if ((rc = py_ws(p)))
            return rc;
        if (p->i < p->n && p->h[p->i] == ')') {
            p->i++;
            return 0;
        }
        py_val x;
        memset(&x, 0, sizeof x);
        size_t xat = p->i;
        if ((rc = py_value(p, &x, depth + 1)))
            return rc;
        if (x.kind == PV_TUPLE) {
            free(x.e);
            return py_fail(p, xat, "a tuple inside a tuple");
        }
        if (v->n <= SL_IO_NPY_MAXDIM)
            v->e[v->n] = x;
        v->n++;
        if ((rc = py_ws(p)))
            return rc;
        if (p->i < p->n && p->h[p->i] == ')') {
            p->i++;
            return 0;
        }
    }
}

/* One literal at p->i. Lists, dicts and sets are refused where they start: no key
 * samplab reads takes one (a list descr is a structured dtype). */
static int py_value1(py_p *p, py_val *v, int depth)
{
    memset(v, 0, sizeof *v);
    if (depth > 8)
        return py_fail(p, p->i, "parentheses nested too deeply");
    if (p->i >= p->n)
        return py_fail(p, p->i, "a value missing");
    size_t at = p->i;
    v->at = p->off + at;
    unsigned char c = p->h[at];
    int raw, bytes, fstr;
    if (c == '\'' || c == '"' || py_prefix(p, at, &raw, &bytes, &fstr)) {
        v->kind = PV_STR;
        int rc;
        do {
            if ((rc = py_str1(p, v)))
                return rc;
            size_t save = p->i;
            if ((rc = py_ws(p)))
                return rc;
            if (!(p->i < p->n && (p->h[p->i] == '\'' || p->h[p->i] == '"' || py_prefix(p, p->i, &raw, &bytes, &fstr)))) {
                p->i = save; /* no adjacent literal to join */
                break;
            }
        } while (1);
        return 0;
    }
    if (c == '+' || c == '-') { /* one sign, as literal_eval allows on a number */
        p->i++;
        int rc = py_ws(p);
        if (rc)
            return rc;
        if (p->i >= p->n || !((p->h[p->i] >= '0' && p->h[p->i] <= '9') || p->h[p->i] == '.'))
            return py_fail(p, at, "a sign not followed by a number");
        if ((rc = py_number(p, v)))
            return rc;
        v->neg = c == '-' && (v->i || v->big);
        v->at = p->off + at;
        return 0;
    }
    if ((c >= '0' && c <= '9') || c == '.')
        return py_number(p, v);
    if (c == '(')
        return py_paren(p, v, depth);
    if (c == '[')
        return py_fail(p, at, "a list (samplab reads a string descr and a tuple shape)");
    if (c == '{')
        return py_fail(p, at, "a dict or set inside the header dict");
    if (py_is_ident(c)) {
        size_t e = at;
        while (e < p->n && py_is_ident(p->h[e]))
            e++;
        size_t n = e - at;
        p->i = e;
        if (n == 4 && !memcmp(p->h + at, "True", 4))
            v->kind = PV_BOOL, v->b = 1;
        else if (n == 5 && !memcmp(p->h + at, "False", 5))
            v->kind = PV_BOOL, v->b = 0;
        else if (n == 4 && !memcmp(p->h + at, "None", 4))
            v->kind = PV_NONE;
        else
            return py_fail(p, at, "a name, not a literal");
        return 0;
    }
    return py_fail(p, at, "a byte that starts no literal");
}

/* A float32 or float64 descr as numpy.dtype reads it on a little-endian host: 4, 8 or 0. */
static size_t npy_width(const py_val *d)
{
    static const char *const f4[] = {"<f4", "|f4", "=f4", "f4", "<f", "|f", "=f", "f", "float32", "single"};
    static const char *const f8[] = {"<f8", "|f8", "=f8", "f8", "<d", "|d", "=d", "d", "float64", "double", "float"};
    if (d->kind != PV_STR || d->bytes || d->slen > PY_STR_KEEP)
        return 0;
    /* by length too: a string may hold a NUL ('f4\x00') */
    for (size_t i = 0; i < sizeof f4 / sizeof f4[0]; i++)
        if (d->slen == strlen(f4[i]) && !memcmp(d->s, f4[i], d->slen))
            return 4;
    for (size_t i = 0; i < sizeof f8 / sizeof f8[0]; i++)
        if (d->slen == strlen(f8[i]) && !memcmp(d->s, f8[i], d->slen))
            return 8;
    return 0;
}

static int py_value(py_p *p, py_val *v, int depth)
{
    int rc = py_value1(p, v, depth);
    if (rc)
        py_free(v); /* a tuple refused half-way */
    return rc;
}

static const char *py_kind_name(const py_val *v)
{
    switch (v->kind) {
    case PV_STR: return v->bytes ? "a bytes literal" : "a string";
    case PV_INT: return "an integer";
    case PV_BOOL: return v->b ? "True" : "False";
    case PV_NONE: return "None";
    case PV_FLOAT: return "a float";
    default: return "a tuple";
    }
}

/* The header dict: exactly descr, fortran_order and shape, each once. */
static int py_dict(py_p *p, py_val *descr, py_val *fo, py_val *shape)
{
    static const char *const keys[3] = {"descr", "fortran_order", "shape"};
    py_val *vals[3] = {descr, fo, shape};
    int have[3] = {0, 0, 0}, rc;
    size_t open = p->i++;
    for (;;) {
        if ((rc = py_ws(p)))
            return rc;
        if (p->i >= p->n)
            return py_fail(p, p->i, "the header dict has no closing '}'");
        if (p->h[p->i] == '}') {
            p->i++;
            break;
        }
        py_val k;
        size_t kat = p->i;
        if ((rc = py_value(p, &k, 0)))
            return rc;
        py_free(&k);
        int which = -1;
        for (int j = 0; j < 3; j++)
            if (k.kind == PV_STR && !k.bytes && k.slen == strlen(keys[j]) && !strcmp(k.s, keys[j]))
                which = j;
        if (which < 0) {
            char q[4 * PY_STR_KEEP + 8];
            if (k.kind != PV_STR || k.bytes)
                return py_fail(p, kat, "a key that is not a string");
            sl_base_esc(k.s, k.slen < PY_STR_KEEP ? k.slen : PY_STR_KEEP, q, sizeof q);
            return sl_base_error_set(p->err, SL_EINVAL,
                                     "%s: byte %zu: key '%s%s' in the .npy header; it has exactly 'descr', "
                                     "'fortran_order' and 'shape'",
                                     p->name, p->off + kat, q, k.slen > PY_STR_KEEP ? "..." : "");
        }
        if (have[which])
            return sl_base_error_set(p->err, SL_EINVAL, "%s: byte %zu: key '%s' appears twice in the .npy header",
                                     p->name, p->off + kat, keys[which]);
        if ((rc = py_ws(p)))
            return rc;
        if (p->i >= p->n || p->h[p->i] != ':')
            return py_fail(p, p->i, "a key without ':'");
        p->i++;
        if ((rc = py_ws(p)))
            return rc;
        if ((rc = py_value(p, vals[which], 0)))
            return rc;
        have[which] = 1;
        if ((rc = py_ws(p)))
            return rc;
        if (p->i < p->n && p->h[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->h[p->i] == '}') {
            p->i++;
            break;
        }
        return py_fail(p, p->i, "a dict entry without ',' or '}' after it");
    }
    for (int j = 0; j < 3; j++)
        if (!have[j])
            return sl_base_error_set(p->err, SL_EINVAL, "%s: byte %zu: the .npy header dict lacks '%s'", p->name,
                                     p->off + open, keys[j]);
    return 0;
}

/* A UTF-8 check of a 3.0 header (format.py decodes it before parsing); the offset of the first bad byte, or n. */
static size_t utf8_bad(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (!k || i + k > n || (k == 2 && c < 0xc2))
            return i;
        uint32_t cp = k == 1 ? c : (uint32_t)(c & (0x7f >> k));
        for (size_t j = 1; j < k; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                return i;
            cp = cp << 6 | (s[i + j] & 0x3f);
        }
        if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return i;
        i += k;
    }
    return n;
}

/* Parses the header of buf: dims (0 to 8), shape, element width and the data
 * offset; the data length is checked against the shape. */
int sl_io_npy_header(const char *name, const unsigned char *buf, size_t len, sl_io_npy_info *info, sl_error *err)
{
    memset(info, 0, sizeof *info);
    if (len < 6 || memcmp(buf, "\x93NUMPY", 6))
        return sl_base_error_set(err, SL_EINVAL, "%s: byte 0: not a .npy file (no \\x93NUMPY magic)", name);
    if (len < 8)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: the .npy file ends inside its version bytes", name, len);
    unsigned major = buf[6], minor = buf[7];
    if (!(major >= 1 && major <= 3 && minor == 0))
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: byte 6: .npy format version %u.%u; NumPy writes and reads 1.0, 2.0 and 3.0", name,
                                 major, minor);
    size_t lw = major == 1 ? 2 : 4, off = 8 + lw;
    if (len < off)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte 8: the file ends inside the %zu-byte header length", name, lw);
    size_t hl = 0;
    for (size_t k = 0; k < lw; k++)
        hl |= (size_t)buf[8 + k] << (8 * k);
    if (hl > len - off)
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: byte %zu: header of %zu bytes runs past the end of the file (%zu bytes)", name, off,
                                 hl, len);
    if (hl > NPY_MAX_HEADER)
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: byte 8: a header of %zu bytes; NumPy reads at most %d (max_header_size)", name, hl,
                                 NPY_MAX_HEADER);
    const unsigned char *hdr = buf + off;
    const unsigned char *nul = memchr(hdr, '\0', hl);
    if (nul)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: a NUL byte in the .npy header", name,
                                 off + (size_t)(nul - hdr));
    if (major == 3) {
        size_t bad = utf8_bad(hdr, hl);
        if (bad < hl)
            return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: a 3.0 header is UTF-8, and this byte (\\x%02x) is not",
                                     name, off + bad, hdr[bad]);
    }
    py_p p = {hdr, hl, 0, off, major < 3, name, err};
    py_val descr, fo, shape;
    memset(&descr, 0, sizeof descr);
    memset(&fo, 0, sizeof fo);
    memset(&shape, 0, sizeof shape);
    int rc;
    /* literal_eval: the dict, in any number of parentheses, then only whitespace and comments */
    size_t parens = 0;
    if ((rc = py_ws_top(&p, 1)))
        goto out;
    while (p.i < p.n && p.h[p.i] == '(' && parens < 8) {
        p.i++;
        parens++;
        if ((rc = py_ws(&p)))
            goto out;
    }
    if (p.i >= p.n || p.h[p.i] != '{') {
        rc = py_fail(&p, p.i, "the header is not a {...} dictionary");
        goto out;
    }
    if ((rc = py_dict(&p, &descr, &fo, &shape)))
        goto out;
    for (; parens; parens--) {
        if ((rc = py_ws(&p)))
            goto out;
        if (p.i >= p.n || p.h[p.i] != ')') {
            rc = py_fail(&p, p.i, "the header is not a {...} dictionary");
            goto out;
        }
        p.i++;
    }
    if ((rc = py_ws_top(&p, 0)))
        goto out;
    if (p.i < p.n) {
        rc = py_fail(&p, p.i, "bytes after the header dict (padding is spaces and a newline)");
        goto out;
    }

    /* the values */
    size_t width = npy_width(&descr);
    if (!width) {
        char q[4 * PY_STR_KEEP + 8];
        if (descr.kind == PV_STR && !descr.bytes)
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "%s: byte %zu: dtype '%s%s'; samplab reads little-endian float32 '<f4' or float64 '<f8'",
                                   name, descr.at, sl_base_esc(descr.s, descr.slen < PY_STR_KEEP ? descr.slen : PY_STR_KEEP,
                                                               q, sizeof q),
                                   descr.slen > PY_STR_KEEP ? "..." : "");
        else
            rc = sl_base_error_set(err, SL_EINVAL,
                                   "%s: byte %zu: descr is %s; samplab reads a string, little-endian float32 '<f4' or "
                                   "float64 '<f8'", name, descr.at, py_kind_name(&descr));
        goto out;
    }
    if (fo.kind != PV_BOOL) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: fortran_order is %s, not True or False", name, fo.at,
                               py_kind_name(&fo));
        goto out;
    }
    if (shape.kind != PV_TUPLE) {
        rc = sl_base_error_set(err, SL_EINVAL,
                               "%s: byte %zu: malformed shape: %s, not a tuple of integers such as (n,) or (t, v)", name,
                               shape.at, py_kind_name(&shape));
        goto out;
    }
    if (shape.n > SL_IO_NPY_MAXDIM) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: a shape of %zu dimensions; samplab reads at most %d", name,
                               shape.at, shape.n, SL_IO_NPY_MAXDIM);
        goto out;
    }
    size_t total = 1, above1 = 0;
    for (size_t k = 0; k < shape.n; k++) {
        const py_val *x = &shape.e[k];
        if (x->kind != PV_INT) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: malformed shape: entry %zu is %s, not an integer", name,
                                   x->at, k, py_kind_name(x));
            goto out;
        }
        if (x->neg) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: shape entry %zu is negative", name, x->at, k);
            goto out;
        }
        if (x->big || x->i > SIZE_MAX || (x->i && total > SIZE_MAX / width / x->i)) {
            rc = sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: shape is too large", name, x->at);
            goto out;
        }
        info->shape[k] = (size_t)x->i;
        total *= (size_t)x->i;
        above1 += x->i > 1;
    }
    if (fo.b && above1 > 1) {
        rc = sl_base_error_set(err, SL_EINVAL,
                               "%s: byte %zu: fortran_order True: the data are in column order; samplab reads C order "
                               "(np.ascontiguousarray)",
                               name, fo.at);
        goto out;
    }
    size_t data = off + hl;
    if (len - data != total * width) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: the shape needs %zu data bytes, the file has %zu", name, data,
                               total * width, len - data);
        goto out;
    }
    info->ndim = shape.n;
    info->width = width;
    info->count = total;
    info->data = buf + data;
    rc = SL_OK;
out:
    py_free(&descr);
    py_free(&fo);
    py_free(&shape);
    return rc;
}

int sl_io_npy_view(const char *name, const unsigned char *buf, size_t len, sl_io_tensor *t, sl_error *err)
{
    sl_io_npy_info info;
    memset(t, 0, sizeof *t);
    int rc = sl_io_npy_header(name, buf, len, &info, err);
    if (rc)
        return rc;
    t->ndim = info.ndim;
    t->d0 = info.ndim ? info.shape[0] : 1;
    t->v = info.ndim ? info.shape[info.ndim - 1] : 1;
    t->rows = 1;
    for (size_t i = 0; i + 1 < info.ndim; i++)
        t->rows *= info.shape[i]; /* the header checked that the product fits the file */
    t->bits = (unsigned)info.width * 8;
    t->data = info.data;
    return SL_OK;
}
