/* json.c — the objects `samplab draw --json` prints (moved from cli/draw.c),
 * built here so that a program calling the library and the command line get
 * the same fields, numbers and order. */
#include <stdlib.h>

#include <jansson.h>

#include "api/sl_api.h"

/* version, cpu and llama.cpp's stage order (each NULL: left out), then with t the echo of the settings
 * in force, each printed with the digits that read back as it. */
static char *finish(json_t *root, const char *version, const char *cpu, const char *samplers,
                    const sl_logits_pipeline_type *t, const sl_logits_cfg *given)
{
    if (version)
        json_object_set_new(root, "version", json_string(version));
    if (cpu)
        json_object_set_new(root, "cpu", json_string(cpu));
    if (samplers)
        json_object_set_new(root, "samplers", json_string(samplers));
    if (t)
        sl_api_settings_echo(root, t, given);
    char *s = sl_api_json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(root);
    return s;
}

/* root's "rng" object, returned (borrowed) so a caller can add to it: the page's small jansson has
 * no json_object_get */
static json_t *set_rng(json_t *root, const char *rng_name, unsigned word_bits, uint64_t words)
{
    json_t *rng = json_object();
    json_object_set_new(rng, "name", json_string(rng_name));
    json_object_set_new(rng, "word_bits", json_integer(word_bits));
    json_object_set_new(rng, "words", json_integer((json_int_t)words));
    json_object_set_new(root, "rng", rng);
    return rng;
}

char *sl_api_fw_counts_json(const uint64_t *c, size_t V, const char *rng_name, unsigned word_bits, uint64_t words,
                            const char *version, const char *cpu, const char *samplers,
                            const sl_logits_pipeline_type *t, const sl_logits_cfg *given)
{
    json_t *root = json_object();
    json_t *arr = json_array();
    for (size_t i = 0; i < V; i++)
        json_array_append_new(arr, json_integer((json_int_t)c[i]));
    json_object_set_new(root, "counts", arr);
    set_rng(root, rng_name, word_bits, words);
    return finish(root, version, cpu, samplers, t, given);
}

char *sl_api_counts_json(const uint64_t *c, size_t V, const char *rng_name, unsigned word_bits, uint64_t words)
{
    return sl_api_fw_counts_json(c, V, rng_name, word_bits, words, NULL, NULL, NULL, NULL, NULL);
}

/* n calls of k tokens into arr: one array per call (nested), else flat */
static void tokens_into(json_t *arr, const long *tokens, size_t n, size_t k, int nested)
{
    for (size_t i = 0; i < n; i++) {
        json_t *row = nested ? json_array() : arr;
        for (size_t j = 0; j < k; j++)
            json_array_append_new(row, json_integer(tokens[i * k + j]));
        if (nested)
            json_array_append_new(arr, row);
    }
}

char *sl_api_draw_json(const long *tokens, size_t n, size_t k, int nested, size_t V, int counts,
                       const char *rng_name, unsigned word_bits, uint64_t words, const char *version,
                       const char *cpu, const char *samplers, const sl_logits_pipeline_type *t,
                       const sl_logits_cfg *given)
{
    json_t *root = json_object();
    json_t *arr = json_array();
    if (counts) {
        uint64_t *c = calloc(V, sizeof *c);
        if (!c) {
            json_decref(arr);
            json_decref(root);
            return NULL;
        }
        for (size_t i = 0; i < n * k; i++)
            c[tokens[i]]++;
        for (size_t i = 0; i < V; i++)
            json_array_append_new(arr, json_integer((json_int_t)c[i]));
        free(c);
        json_object_set_new(root, "counts", arr);
    } else {
        tokens_into(arr, tokens, n, k, nested);
        json_object_set_new(root, "tokens", arr);
    }
    set_rng(root, rng_name, word_bits, words);
    return finish(root, version, cpu, samplers, t, given);
}

char *sl_api_draw_batch_json(const sl_api_draw_result *r)
{
    json_t *root = json_object(), *tk = json_array(), *w = json_array(), *gen = json_array(), *dep = json_array();
    for (size_t b = 0; b < r->B; b++) {
        json_t *row = json_array(), *rw = json_array();
        tokens_into(row, r->tokens + b * r->n * r->k, r->n, r->k, r->nested);
        for (size_t i = 0; i < r->n; i++)
            json_array_append_new(rw, json_integer((json_int_t)r->row_words[b * r->n + i]));
        json_array_append_new(tk, row);
        json_array_append_new(w, rw);
        /* a row drawn from the global generator depends on its batchmates (their draws before its
         * own), and every row does when the batch's path depends on them (r->coupled) */
        json_array_append_new(gen, json_string(r->row_own[b] ? "own" : "global"));
        json_array_append_new(dep, json_boolean(!r->row_own[b] || r->coupled));
    }
    json_object_set_new(root, "rows", json_integer((json_int_t)r->B));
    json_object_set_new(root, "tokens", tk);
    json_object_set_new(root, "words", w);
    json_object_set_new(root, "generator", gen);
    json_object_set_new(root, "depends_on_batch", dep);
    json_object_set_new(set_rng(root, r->rng_name, r->word_bits, r->words), "global_words",
                        json_integer((json_int_t)r->global_words));
    if (r->path)
        json_object_set_new(root, "path", json_string(r->path));
    return finish(root, r->version, r->cpu, r->samplers, r->pipeline, &r->given);
}

void sl_api_free(void *p)
{
    free(p);
}

const char *sl_api_version(void)
{
    return SL_VERSION;
}
