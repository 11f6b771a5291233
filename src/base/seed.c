/* seed.c — parses a user's seed into 128 bits: decimal or 0x-hex, [0, 2^128).
 * NumPy's default_rng takes seeds up to 2^128-1; torch and rand stop at 2^64-1
 * and check that themselves. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/sl_base.h"

static int parse_u128(const char *what, const char *text, sl_seed *out, sl_error *err)
{
    unsigned __int128 v = 0; /* gcc and clang both provide it on 64-bit targets */
    const char *s = text;
    unsigned base = 10;
    if (!*s)
        return sl_base_error_set(err, SL_EINVAL, "%s is empty", what);
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!*s)
            return sl_base_error_set(err, SL_EINVAL, "%s '%s' has no digits after 0x", what, text);
    }
    for (const char *c = s; *c; c++) {
        unsigned d;
        if (isdigit((unsigned char)*c))
            d = (unsigned)(*c - '0');
        else if (base == 16 && isxdigit((unsigned char)*c))
            d = (unsigned)(tolower((unsigned char)*c) - 'a' + 10);
        else
            return sl_base_error_set(err, SL_EINVAL, "%s '%s': character %zu ('%c') is not a %s digit",
                                what, text, (size_t)(c - text) + 1, *c, base == 16 ? "hex" : "decimal");
        unsigned __int128 limit = (~(unsigned __int128)0 - d) / base;
        if (v > limit)
            return sl_base_error_set(err, SL_EINVAL, "%s '%s' is not below 2^128", what, text);
        v = v * base + d;
    }
    memset(out, 0, sizeof *out);
    out->lo = (uint64_t)v;
    out->hi = (uint64_t)(v >> 64);
    return SL_OK;
}

int sl_base_seed_parse(const char *text, sl_seed *out, sl_error *err)
{
    return parse_u128("seed", text, out, err);
}

/* Whether text is a decimal literal as JavaScript's Number() reads one (no hex,
 * no spaces, no "NaN": Number("NaN") is NaN, which tfjs's `seed || Math.random()`
 * turns into an unseeded draw anyway). */
static int js_decimal(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!strcmp(s, "Infinity"))
        return 1;
    size_t d = 0;
    while (isdigit((unsigned char)*s))
        s++, d++;
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++)
            d++;
    if (!d)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!isdigit((unsigned char)*s))
            return 0;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return !*s;
}

int sl_base_seed_parse_js(const char *text, sl_seed *out, sl_error *err)
{
    sl_error e;
    if (!parse_u128("seed", text, out, &e))
        return SL_OK;
    if (!js_decimal(text))
        return sl_base_error_set(err, SL_EINVAL, "seed '%s' is not a JavaScript number (an integer, or a decimal "
                                 "such as -1, 1.5 or 1e-7)", text);
    char *end = NULL;
    const char *t = text + (*text == '+' || *text == '-');
    double v = !strcmp(t, "Infinity") ? INFINITY : strtod(t, &end);
    if (end && *end) /* a decimal point the C library's locale does not read: never a wrong number */
        return sl_base_error_set(err, SL_EINVAL, "seed '%s': the C library's locale does not read it as a number",
                                 text);
    memset(out, 0, sizeof *out);
    out->has_number = 1;
    out->number = *text == '-' ? -v : v;
    return SL_OK;
}

int sl_base_seed_parse_stream(const char *text, uint64_t *stream, sl_error *err)
{
    sl_seed st;
    int rc = parse_u128("stream", text, &st, err);
    if (rc)
        return rc;
    /* PCG and ChaCha streams are 64-bit: a larger value must not wrap to another stream */
    if (st.hi)
        return sl_base_error_set(err, SL_EINVAL, "stream '%s' is not below 2^64", text);
    *stream = st.lo;
    return SL_OK;
}
