/* jansson.h — for the WebAssembly build of the explorer page only: the part of
 * jansson's API (jansson 2.14, Debian 12's libjansson-dev) that the command
 * files compiled into the page call to write their --json output. Jansson
 * itself is not built for the page; web/jansson/json.c writes what jansson's
 * json_dumps writes for these calls (compact form, reals by "%.*g" with ".0"
 * added to integral values and the exponent's '+' and leading zeros dropped,
 * strings that are not UTF-8 and NaN or infinite reals refused), and
 * `make test-browser` compares the page's bytes with the native CLI's. */
#ifndef SL_WEB_JANSSON_H
#define SL_WEB_JANSSON_H

#include <stddef.h>

typedef long long json_int_t;

typedef enum { JSON_OBJECT, JSON_ARRAY, JSON_STRING, JSON_INTEGER, JSON_REAL, JSON_TRUE, JSON_FALSE, JSON_NULL } json_type;

typedef struct json_t {
    json_type type;
    size_t refcount;
} json_t;

/* json_dumps flags: only these two are honoured (the CLI passes no others) */
#define JSON_COMPACT 0x20
#define JSON_REAL_PRECISION(n) (((n) & 0x1F) << 11)

json_t *json_object(void);
json_t *json_array(void);
json_t *json_string(const char *value);
json_t *json_integer(json_int_t value);
json_t *json_real(double value);
json_t *json_true(void);
json_t *json_false(void);
json_t *json_null(void);
#define json_boolean(val) ((val) ? json_true() : json_false())

/* Both take the reference to value; a NULL value (a refused string or real) is
 * not added and gives -1, as jansson's do. */
int json_object_set_new(json_t *object, const char *key, json_t *value);
int json_array_append_new(json_t *array, json_t *value);

void json_decref(json_t *json);
/* A malloc'd string, or NULL (out of memory) */
char *json_dumps(const json_t *json, size_t flags);

#endif
