/* json.c — the JSON writer behind web/jansson/jansson.h, for the WebAssembly
 * build of the explorer page: values are built and dumped as jansson 2.14's
 * json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(p)) prints them, so the
 * page prints the bytes the native CLI prints. The rules followed (observed
 * with Debian 12's libjansson 2.14 and checked by `make test-browser`):
 *  - objects keep insertion order; setting a key again replaces its value in place;
 *  - integers print as %lld; reals as %.*g (precision 17 when none is given),
 *    then ".0" when neither '.' nor 'e' appears, then the exponent without '+'
 *    and without leading zeros ("1e-05" -> "1e-5", "1e+16" -> "1e16");
 *  - json_real of NaN or an infinity and json_string of bytes that are not
 *    UTF-8 give NULL, which set/append refuse (the key is left out);
 *  - strings escape '"', '\\', \b \f \n \r \t, other bytes below 0x20 as \u00XX
 *    (upper-case hex); everything else, 0x7f and non-ASCII included, is copied. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jansson.h"

typedef struct {
    json_t j;
    char *s;
} j_string;

typedef struct {
    json_t j;
    json_int_t v;
} j_integer;

typedef struct {
    json_t j;
    double v;
} j_real;

typedef struct {
    json_t j;
    json_t **v;
    size_t n, cap;
} j_array;

typedef struct {
    json_t j;
    char **k;
    json_t **v;
    size_t n, cap;
} j_object;

static json_t j_true = {JSON_TRUE, 0}, j_false = {JSON_FALSE, 0}, j_null = {JSON_NULL, 0};

json_t *json_true(void)
{
    return &j_true;
}

json_t *json_false(void)
{
    return &j_false;
}

json_t *json_null(void)
{
    return &j_null;
}

static void *j_new(size_t size, json_type t)
{
    json_t *j = calloc(1, size);
    if (j) {
        j->type = t;
        j->refcount = 1;
    }
    return j;
}

json_t *json_object(void)
{
    return j_new(sizeof(j_object), JSON_OBJECT);
}

json_t *json_array(void)
{
    return j_new(sizeof(j_array), JSON_ARRAY);
}

/* jansson's utf8_check_string: well-formed UTF-8, no overlong forms, no
 * surrogates, nothing above U+10FFFF */
static int j_utf8_ok(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        unsigned long v;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c <= 0xC1)
            return 0;
        else if (c <= 0xDF)
            len = 2, v = c & 0x1F;
        else if (c <= 0xEF)
            len = 3, v = c & 0x0F;
        else if (c <= 0xF4)
            len = 4, v = c & 0x07;
        else
            return 0;
        if (i + len > n)
            return 0;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return 0;
            v = (v << 6) | (s[i + k] & 0x3F);
        }
        if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (len == 3 && v < 0x800) ||
            (len == 4 && v < 0x10000))
            return 0;
        i += len;
    }
    return 1;
}

json_t *json_string(const char *value)
{
    if (!value || !j_utf8_ok((const unsigned char *)value, strlen(value)))
        return NULL;
    j_string *s = j_new(sizeof *s, JSON_STRING);
    if (!s)
        return NULL;
    s->s = strdup(value);
    if (!s->s) {
        free(s);
        return NULL;
    }
    return &s->j;
}

json_t *json_integer(json_int_t value)
{
    j_integer *i = j_new(sizeof *i, JSON_INTEGER);
    if (i)
        i->v = value;
    return i ? &i->j : NULL;
}

json_t *json_real(double value)
{
    if (isnan(value) || isinf(value))
        return NULL;
    j_real *r = j_new(sizeof *r, JSON_REAL);
    if (r)
        r->v = value;
    return r ? &r->j : NULL;
}

static int j_grow(void ***v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 8;
    while (c < need)
        c *= 2;
    void *nv = realloc(*v, c * elem);
    if (!nv)
        return -1;
    *v = nv;
    *cap = c;
    return 0;
}

int json_array_append_new(json_t *array, json_t *value)
{
    if (!value)
        return -1;
    if (!array || array->type != JSON_ARRAY) {
        json_decref(value);
        return -1;
    }
    j_array *a = (j_array *)array;
    if (j_grow((void ***)&a->v, &a->cap, a->n + 1, sizeof *a->v)) {
        json_decref(value);
        return -1;
    }
    a->v[a->n++] = value;
    return 0;
}

int json_object_set_new(json_t *object, const char *key, json_t *value)
{
    if (!value)
        return -1;
    if (!object || object->type != JSON_OBJECT || !key || !j_utf8_ok((const unsigned char *)key, strlen(key))) {
        json_decref(value);
        return -1;
    }
    j_object *o = (j_object *)object;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->k[i], key)) {
            json_decref(o->v[i]);
            o->v[i] = value;
            return 0;
        }
    size_t kcap = o->cap;
    char *k = strdup(key);
    if (!k || j_grow((void ***)&o->k, &kcap, o->n + 1, sizeof *o->k) ||
        j_grow((void ***)&o->v, &o->cap, o->n + 1, sizeof *o->v)) {
        free(k);
        json_decref(value);
        return -1;
    }
    o->k[o->n] = k;
    o->v[o->n++] = value;
    return 0;
}

void json_decref(json_t *json)
{
    if (!json || json->refcount == 0 || --json->refcount)
        return; /* NULL, a singleton, or still referenced */
    switch (json->type) {
    case JSON_STRING:
        free(((j_string *)json)->s);
        break;
    case JSON_ARRAY: {
        j_array *a = (j_array *)json;
        for (size_t i = 0; i < a->n; i++)
            json_decref(a->v[i]);
        free(a->v);
        break;
    }
    case JSON_OBJECT: {
        j_object *o = (j_object *)json;
        for (size_t i = 0; i < o->n; i++) {
            free(o->k[i]);
            json_decref(o->v[i]);
        }
        free(o->k);
        free(o->v);
        break;
    }
    default:
        break;
    }
    free(json);
}

typedef struct {
    char *b;
    size_t n, cap;
    int bad;
} j_buf;

static void j_put(j_buf *b, const char *s, size_t n)
{
    if (b->bad)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->n + n + 1)
            c *= 2;
        char *nb = realloc(b->b, c);
        if (!nb) {
            b->bad = 1;
            return;
        }
        b->b = nb;
        b->cap = c;
    }
    memcpy(b->b + b->n, s, n);
    b->n += n;
    b->b[b->n] = 0;
}

static void j_puts(j_buf *b, const char *s)
{
    j_put(b, s, strlen(s));
}

static void j_dump_string(j_buf *b, const char *s)
{
    j_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        switch (*p) {
        case '"': j_puts(b, "\\\""); break;
        case '\\': j_puts(b, "\\\\"); break;
        case '\b': j_puts(b, "\\b"); break;
        case '\f': j_puts(b, "\\f"); break;
        case '\n': j_puts(b, "\\n"); break;
        case '\r': j_puts(b, "\\r"); break;
        case '\t': j_puts(b, "\\t"); break;
        default:
            if (*p < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04X", *p);
                j_puts(b, esc);
            } else {
                j_put(b, (const char *)p, 1);
            }
        }
    }
    j_put(b, "\"", 1);
}

static void j_dump_real(j_buf *b, double v, int precision)
{
    char s[64];
    int len = snprintf(s, sizeof s, "%.*g", precision ? precision : 17, v);
    if (len < 0 || (size_t)len >= sizeof s - 3) {
        b->bad = 1;
        return;
    }
    if (!strchr(s, '.') && !strchr(s, 'e')) {
        memcpy(s + len, ".0", 3);
        len += 2;
    }
    char *e = strchr(s, 'e');
    if (e) {
        char *from = e + 1, *to = e + 1;
        if (*from == '-')
            *to++ = *from++;
        else if (*from == '+')
            from++;
        while (*from == '0' && from[1])
            from++;
        memmove(to, from, strlen(from) + 1);
    }
    j_puts(b, s);
}

static void j_dump(j_buf *b, const json_t *j, int precision)
{
    char num[32];
    switch (j->type) {
    case JSON_NULL: j_puts(b, "null"); break;
    case JSON_TRUE: j_puts(b, "true"); break;
    case JSON_FALSE: j_puts(b, "false"); break;
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%lld", ((const j_integer *)j)->v);
        j_puts(b, num);
        break;
    case JSON_REAL: j_dump_real(b, ((const j_real *)j)->v, precision); break;
    case JSON_STRING: j_dump_string(b, ((const j_string *)j)->s); break;
    case JSON_ARRAY: {
        const j_array *a = (const j_array *)j;
        j_put(b, "[", 1);
        for (size_t i = 0; i < a->n; i++) {
            if (i)
                j_put(b, ",", 1);
            j_dump(b, a->v[i], precision);
        }
        j_put(b, "]", 1);
        break;
    }
    case JSON_OBJECT: {
        const j_object *o = (const j_object *)j;
        j_put(b, "{", 1);
        for (size_t i = 0; i < o->n; i++) {
            if (i)
                j_put(b, ",", 1);
            j_dump_string(b, o->k[i]);
            j_put(b, ":", 1);
            j_dump(b, o->v[i], precision);
        }
        j_put(b, "}", 1);
        break;
    }
    }
}

char *json_dumps(const json_t *json, size_t flags)
{
    if (!json)
        return NULL;
    j_buf b = {NULL, 0, 0, 0};
    j_dump(&b, json, (int)((flags >> 11) & 0x1F));
    if (b.bad) {
        free(b.b);
        return NULL;
    }
    return b.b ? b.b : strdup("");
}
