/* draw.c — `samplab draw` as a call: the same checks, in the same order, and
 * the same JSON (api/json.c) as the command, for a method over a random
 * source or a framework's session. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

#define FAIL(...) sl_base_error_set(err, SL_EINVAL, "samplab draw: " __VA_ARGS__)

static int draw_framework(const sl_vec *vec, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    const sl_fw_type *ft = sl_fw_lookup(s->framework);
    if (!ft)
        return FAIL("unknown framework '%.200s' (samplab draw --help lists them)", s->framework);
    const char *miss = s->stream ? "--stream" : s->rng ? "--rng" : sl_api_refused(s, is_logits, ft->accepts);
    if (miss)
        return FAIL("%s is not an option of framework %s", miss, ft->name);
    sl_fw_opts fo;
    sl_fw_opts dummy;
    if (sl_api_fw_opts("draw", s, &dummy, err))
        return SL_EINVAL;
    long *ctx = NULL;
    size_t ctx_n = 0;
    if (s->context && sl_api_ids("draw", s->context, "context", vec->n, &ctx, &ctx_n, err))
        return SL_EINVAL;
    fo = dummy;
    fo.cfg.context = ctx;
    fo.cfg.context_n = ctx_n;
    fo.probs = is_logits ? NULL : vec;
    fo.logits = is_logits ? vec : NULL;
    sl_fw_result res;
    memset(&res, 0, sizeof res);
    int rc = sl_fw_run(ft, &fo, &res, err);
    free(ctx);
    if (rc)
        return sl_api_lib_error(err, rc);
    *json = sl_api_draw_json(res.tokens, res.n, res.k, (ft->accepts & SL_OPT_NUM_SAMPLES) != 0, vec->n, s->counts,
                             res.rng_name, res.word_bits, res.words, res.version, res.cpu);
    sl_fw_result_free(&res);
    return *json ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for JSON");
}

static int draw_method(const sl_vec *vec, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    /* a method takes --rng, --seed, --stream and, for --logits, --temperature */
    sl_api_settings t = *s;
    t.cfg.has_temperature = 0;
    const char *fw_only = sl_api_refused(&t, 1, SL_OPT_PROBS | SL_OPT_LOGITS);
    if (fw_only)
        return FAIL("%s is not an option of method %.200s: it needs --framework (a method takes --rng, --seed, "
                    "--stream)", fw_only, s->method);
    const sl_draw_type *dt = sl_draw_lookup(s->method);
    if (!dt)
        return FAIL("unknown method '%.200s' (exprace, cdf, linear, alias, greedy)", s->method);
    const char *rng_name = s->rng ? s->rng : "pcg32";
    const sl_rng_type *rt = sl_rng_lookup(rng_name);
    if (!rt)
        return FAIL("unknown random source '%.200s' (samplab draw --help lists them)", rng_name);
    sl_seed seed;
    if (sl_api_seed(s, 1, &seed, err))
        return SL_EINVAL;
    size_t n = s->has_n ? s->n : 1;
    const double *p = vec->d;
    double *soft = NULL;
    if (is_logits) {
        if (!(soft = malloc(vec->n * sizeof *soft)))
            return sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory");
        /* Greedy is argmax for every temperature, so T <= 0 is fine there. */
        double temp = !strcmp(dt->name, "greedy") ? 1.0 : s->cfg.has_temperature ? s->cfg.temperature : 1.0;
        int rc = sl_logits_softmax(vec->d, vec->n, temp, soft, err);
        if (rc) {
            free(soft);
            return sl_api_lib_error_in(err, vec->source, rc);
        }
        p = soft;
    } else {
        if (s->cfg.has_temperature)
            return FAIL("--temperature applies to --logits only");
        if (sl_base_vec_check_weights(vec, err))
            return sl_api_lib_error(err, SL_EINVAL);
    }
    sl_rng rng;
    void *table = NULL;
    int rc = sl_rng_init(&rng, rt, &seed, err);
    if (rc) {
        free(soft);
        return sl_api_lib_error(err, rc);
    }
    if ((rc = sl_draw_prepare(dt, &table, p, vec->n, err))) {
        sl_rng_release(&rng);
        free(soft);
        return sl_api_lib_error(err, rc);
    }
    if (s->counts) {
        uint64_t *c = calloc(vec->n, sizeof *c);
        if (c) {
            for (size_t i = 0; i < n; i++)
                c[dt->draw(table, &rng)]++;
            *json = sl_api_counts_json(c, vec->n, rt->name, rt->word_bits, rng.words);
            free(c);
        }
    } else {
        long *tokens = malloc(n * sizeof *tokens);
        if (tokens) {
            for (size_t i = 0; i < n; i++)
                tokens[i] = (long)dt->draw(table, &rng);
            *json = sl_api_draw_json(tokens, n, 1, 0, vec->n, 0, rt->name, rt->word_bits, rng.words, NULL, NULL);
            free(tokens);
        }
    }
    dt->free(table);
    sl_rng_release(&rng);
    free(soft);
    return *json ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu tokens", n);
}

int sl_api_draw(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    *json = NULL;
    if (!!s->method == !!s->framework)
        return FAIL("give exactly one of --method M and --framework F");
    if (s->has_n && s->n == 0)
        return FAIL("--n must be at least 1");
    if (s->has_n && (uint64_t)s->n > SL_API_MAX_N)
        return FAIL("--n takes at most 1000000000000 (10^12)");
    sl_seed seed;
    if (sl_api_seed(s, 1, &seed, err))
        return SL_EINVAL;
    sl_vec vec;
    if (sl_api_vec_read(src, &vec, err))
        return sl_api_lib_error(err, SL_EINVAL);
    int rc = s->framework ? draw_framework(&vec, is_logits, s, json, err) : draw_method(&vec, is_logits, s, json, err);
    sl_base_vec_free(&vec);
    return rc;
}
