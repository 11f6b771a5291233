/* echo.c — what --json says about the sampling settings a run used: "settings",
 * each setting of the framework's pipeline with the value in force (null where
 * the library's default is "unset", e.g. transformers' min_p None), and
 * "defaulted", the names of those the framework's defaults decided because the
 * caller left them unset (logits/defaults.c applies them); sl_api_json_dumps
 * prints each setting with the fewest digits that read back as it (0.8, not
 * the 0.80000000000000004 of a 17-digit dump). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

/* The fewest digits that read back as v (Python repr's), a real kept a real ("1.0"); as a float
 * where the setting is one (is_float: --logit-bias's biases, llama_logit_bias.bias). */
static void shortest(double v, int is_float, char *b, size_t n)
{
    int p = 1;
    for (; p < 17; p++) {
        snprintf(b, n, "%.*g", p, v);
        if (is_float ? strtof(b, NULL) == (float)v : strtod(b, NULL) == v)
            break;
    }
    snprintf(b, n, "%.*g", p, v);
    if (!strpbrk(b, ".eEni"))
        strncat(b, ".0", n - strlen(b) - 1);
}

#define MARK '\x01' /* dumped as "\u0001": no other string of an echo holds it */

/* The settings echoed: those t has a default for or that given sets. */
static int echoed(const sl_logits_pipeline_type *t, const sl_logits_cfg *given, sl_logits_key k)
{
    double v;
    return (sl_logits_key_opt(k) & t->accepts) && (sl_logits_default_of(t, k) || sl_logits_cfg_get(given, k, &v));
}

/* A real as its shortest text behind a mark, which sl_api_json_dumps unquotes (b: its room);
 * JSON has no infinities, so -inf (a --logit-bias) is the string "-inf". */
static json_t *marked(double v, int is_float, char *b, size_t n)
{
    if (isinf(v))
        return json_string(v < 0 ? "-inf" : "inf");
    b[0] = MARK;
    shortest(v, is_float, b + 1, n - 1);
    return json_string(b);
}

void sl_api_settings_echo(json_t *o, const sl_logits_pipeline_type *t, const sl_logits_cfg *given)
{
    sl_logits_cfg c = *given;
    unsigned got;
    sl_logits_cfg_resolve(t, &c, &got);
    json_t *set = json_object(), *def = json_array();
    for (int k = 0; k < SL_KEY_COUNT; k++) {
        double v;
        if (!echoed(t, given, (sl_logits_key)k))
            continue;
        const char *name = sl_logits_key_name((sl_logits_key)k);
        int is_int = sl_logits_key_is_int((sl_logits_key)k);
        json_t *val;
        if (!sl_logits_cfg_get(&c, (sl_logits_key)k, &v))
            val = json_null();
        else if (is_int)
            val = json_integer((json_int_t)v);
        else {
            char b[48];
            val = marked(v, 0, b, sizeof b);
        }
        json_object_set_new(set, name, val);
        if (got & (1u << k))
            json_array_append_new(def, json_string(name));
    }
    if (given->n_bias) { /* [token, bias] in the order given, as llama.cpp adds them */
        json_t *lb = json_array();
        for (size_t i = 0; i < given->n_bias; i++) {
            char b[48];
            json_t *pair = json_array();
            json_array_append_new(pair, json_integer((json_int_t)given->bias_token[i]));
            json_array_append_new(pair, marked(given->bias[i], 1, b, sizeof b));
            json_array_append_new(lb, pair);
        }
        json_object_set_new(set, "logit_bias", lb);
    }
    json_object_set_new(o, "settings", set);
    json_object_set_new(o, "defaulted", def);
    if (t->ignored) { /* settings the library reads and applies nowhere: in force above, not applied */
        json_t *ign = json_array();
        for (int k = 0; k < SL_KEY_COUNT; k++)
            if ((t->ignored & (1u << k)) && echoed(t, given, (sl_logits_key)k))
                json_array_append_new(ign, json_string(sl_logits_key_name((sl_logits_key)k)));
        json_object_set_new(o, "ignored", ign);
    }
}

char *sl_api_json_dumps(json_t *root, size_t flags)
{
    char *s = json_dumps(root, flags);
    if (!s)
        return NULL;
    /* each "settings" object: a marked string "\u0001TEXT" becomes the number TEXT */
    static const char key[] = "\"settings\":{", mark[] = "\"\\u0001";
    sl_buf b;
    sl_io_buf_init(&b);
    const char *p = s, *q;
    while ((q = strstr(p, key))) {
        const char *end = strchr(q, '}');
        sl_io_buf_append(&b, p, (size_t)(q - p));
        for (p = q; p < end;) {
            const char *m = strstr(p, mark);
            if (!m || m > end) {
                sl_io_buf_append(&b, p, (size_t)(end - p));
                break;
            }
            sl_io_buf_append(&b, p, (size_t)(m - p));
            m += sizeof mark - 1;
            const char *close = strchr(m, '"');
            sl_io_buf_append(&b, m, (size_t)(close - m));
            p = close + 1;
        }
        p = end;
    }
    sl_io_buf_puts(&b, p);
    free(s);
    if (b.oom) {
        sl_io_buf_free(&b);
        return NULL;
    }
    return b.data;
}
