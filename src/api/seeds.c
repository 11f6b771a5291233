/* seeds.c — per-request seeds: `--seeds 7,none,9` for draw, replay and check,
 * one entry per row of a batch. A serving engine keeps a generator per seeded
 * request (vLLM's SamplingParams.seed, v1/worker/gpu_input_batch.py's
 * `generators`; TGI's per-request torch.Generator; SGLang's sampling_seed)
 * and draws the unseeded ones from its global generator, which --seed seeds.
 * A framework with one generator per batch (transformers, torch, ...) has no
 * seed per row: a list for it is refused rather than read as something else.
 * calibrate's --seeds K (a count) is another schema entry with the same name. */
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

int sl_api_row_seeds_parse(const char *cmd, const char *text, sl_api_row_seeds *out, sl_error *err)
{
    const char *opt = SL_API_NAME(ROW_SEEDS);
    memset(out, 0, sizeof *out);
    if (!text || !*text)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s is empty (one seed or none per row: 7,none,9)", cmd,
                                 opt);
    size_t n = 1;
    for (const char *c = text; *c; c++)
        n += *c == ',';
    if (n > SL_API_ROW_SEEDS_MAX)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s names %zu rows, at most %d", cmd, opt, n,
                                 SL_API_ROW_SEEDS_MAX);
    if (!(out->row = calloc(n, sizeof *out->row)))
        return sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory for %zu seeds", cmd, n);
    const char *c = text;
    for (size_t i = 0; i < n; i++) {
        const char *end = strchr(c, ',');
        size_t len = end ? (size_t)(end - c) : strlen(c);
        char word[64], e[96];
        sl_error pe;
        if (len == 0) {
            sl_api_row_seeds_free(out);
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: entry %zu is empty (a seed or none)", cmd, opt,
                                     i + 1);
        }
        if (len >= sizeof word) {
            sl_api_row_seeds_free(out);
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: entry %zu is not a seed (%zu characters)", cmd,
                                     opt, i + 1, len);
        }
        memcpy(word, c, len);
        word[len] = '\0';
        if (strcmp(word, "none")) {
            if (sl_base_seed_parse(word, &out->row[i].seed, &pe)) {
                sl_api_row_seeds_free(out);
                return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: entry %zu ('%s') is neither none nor a seed (%s)",
                                         cmd, opt, i + 1, sl_base_esc(word, len, e, sizeof e), pe.msg);
            }
            out->row[i].given = 1;
        }
        c = end ? end + 1 : c + len;
    }
    out->n = n;
    return SL_OK;
}

int sl_api_row_seeds_for(const char *cmd, const sl_api_settings *s, const sl_fw_type *ft, size_t rows,
                         sl_api_row_seeds *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!s->row_seeds)
        return SL_OK;
    if (ft && !(ft->accepts & SL_OPT_ROW_SEEDS))
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: %s: a seed for a row of a framework that has one generator per batch "
                                 "(%s draws every row from the generator --seed seeds)",
                                 cmd, SL_API_NAME(ROW_SEEDS), ft->name);
    if (ft && ft->no_global_seed && s->seed)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: %s with %s: framework %s has no global generator (a request without a "
                                 "seed gets %llu): give each row's seed in %s",
                                 cmd, SL_API_NAME(SEED), SL_API_NAME(ROW_SEEDS), ft->name,
                                 (unsigned long long)ft->default_seed, SL_API_NAME(ROW_SEEDS));
    int rc = sl_api_row_seeds_parse(cmd, s->row_seeds, out, err);
    if (rc)
        return rc;
    for (size_t i = 0; ft && ft->batch_unseeded && i < out->n; i++)
        if (!out->row[i].given) {
            sl_api_row_seeds_free(out);
            return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s: entry %zu is none: %s", cmd,
                                     SL_API_NAME(ROW_SEEDS), i + 1, ft->batch_unseeded);
        }
    if (rows && out->n != rows) {
        size_t n = out->n;
        sl_api_row_seeds_free(out);
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s gives %zu %s for %zu %s (one per row)", cmd,
                                 SL_API_NAME(ROW_SEEDS), n, n == 1 ? "entry" : "entries", rows,
                                 rows == 1 ? "row" : "rows");
    }
    return SL_OK;
}

void sl_api_row_seeds_free(sl_api_row_seeds *r)
{
    free(r->row);
    r->row = NULL;
    r->n = 0;
}

void sl_api_row_seed_apply(const sl_api_row_seeds *r, size_t row, sl_fw_opts *fo)
{
    if (row < r->n && r->row[row].given) {
        fo->seed = r->row[row].seed;
        fo->has_seed = 1;
    }
}
