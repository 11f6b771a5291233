/* draw.c — `samplab draw` as a call: the checks, in the command's order and
 * with its messages, then a method over a random source or a framework's
 * session; the command (cli/draw.c) prints what this returns, and the JSON
 * (api/json.c) is the same for both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

#define FAIL(...) sl_base_error_set(err, SL_EINVAL, "samplab draw: " __VA_ARGS__)

/* A penalty acts on the history: the context, plus the drawn tokens of a
 * framework that accepts them (llama.cpp). Without either it changes nothing,
 * and a context without a penalty is read for nothing. */
static int penalty_check(const sl_fw_type *ft, const sl_api_settings *s, size_t n, sl_error *err)
{
    const sl_logits_cfg *c = &s->cfg;
    const char *pen = c->has_penalty ? SL_API_NAME(REPETITION_PENALTY) : c->has_freq ? SL_API_NAME(FREQUENCY_PENALTY)
                      : c->has_presence ? SL_API_NAME(PRESENCE_PENALTY) : NULL;
    if (pen && !s->context && (!ft->accepts_drawn || n == 1)) {
        if (ft->accepts_drawn)
            return FAIL("%s without --context changes nothing in one draw: give --context IDS (the ids it penalises) "
                        "or --n above 1", pen);
        return FAIL("%s without --context changes nothing: framework %s does not add its draws to the history; give "
                    "--context IDS (the ids it penalises)", pen, ft->name);
    }
    /* DRY and transformers.js's n-gram ban read the history too, and SGLang's hash its length (the position) */
    if (s->context && !pen && !c->has_dry_mult && !(c->has_ngram && c->ngram > 0) && !(ft->accepts & SL_OPT_POSITION))
        return FAIL("--context is only used by --repetition-penalty (or a llama.cpp penalty, DRY, or "
                    "--no-repeat-ngram-size)");
    return SL_OK;
}

/* a framework's drawn tokens, as they come: counted, or handed on one by one */
typedef struct fw_sink {
    sl_api_draw_result *r;
    void (*each)(void *, size_t);
    void *ctx;
} fw_sink;

static void fw_take(void *c, const long *tokens, size_t k)
{
    fw_sink *f = c;
    for (size_t j = 0; j < k; j++)
        if (f->r->counts)
            f->r->counts[tokens[j]]++;
        else
            f->each(f->ctx, (size_t)tokens[j]);
}

static int draw_framework(const sl_vec *vec, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                          void (*each)(void *, size_t), void *cb_ctx, sl_api_draw_result *r, sl_error *err)
{
    const sl_fw_type *ft = sl_api_fw_type(s);
    if (!ft)
        return FAIL("unknown framework '%s' (samplab draw --help lists them)", s->framework);
    /* a 1-D vector is a batch of one request: --seeds has one entry */
    sl_api_row_seeds rs;
    if (sl_api_row_seeds_for("draw", s, ft, 1, &rs, err))
        return SL_EINVAL;
    /* a framework fixes its own random source; its seed is --seed (the global one of a per-request engine) */
    const char *miss = s->stream ? SL_API_NAME(STREAM) : s->rng ? SL_API_NAME(RNG) : sl_api_refused(s, is_logits, ft->accepts);
    if (miss) {
        char why[512];
        sl_api_row_seeds_free(&rs);
        return FAIL("%s", sl_api_not_taken(miss, ft->name, why, sizeof why));
    }
    size_t n = s->has_n ? s->n : 1;
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    if (penalty_check(ft, s, n, err) || sl_api_fw_dtype("draw", s->dtype, &fo, err)) {
        sl_api_row_seeds_free(&rs);
        return SL_EINVAL;
    }
    long *ctx = NULL;
    size_t ctx_n = 0;
    if (s->context && sl_api_ids("draw", SL_API_NAME(CONTEXT), s->context, "context", vec->n, &ctx, &ctx_n, err)) {
        sl_api_row_seeds_free(&rs);
        return SL_EINVAL;
    }
    int bad = sl_api_fw_opts("draw", s, &fo, err);
    sl_api_row_seed_apply(&rs, 0, &fo);
    sl_api_row_seeds_free(&rs);
    if (bad) {
        free(ctx);
        return SL_EINVAL;
    }
    if (sl_api_vocab_fits("draw", s, &fo.cfg, vec->n, err)) {
        free(ctx);
        sl_api_fw_opts_free(&fo);
        return SL_EINVAL;
    }
    fo.cfg.context = ctx;
    fo.cfg.context_n = ctx_n;
    fo.probs = is_logits ? NULL : vec;
    fo.logits = is_logits ? vec : NULL;
    r->note = ft->note ? ft->note(&fo) : NULL;
    /* counts, or (one token a call) tokens handed on as drawn: no n-sized array */
    if (s->counts && !(r->counts = calloc(vec->n ? vec->n : 1, sizeof *r->counts))) {
        free(ctx);
        sl_api_fw_opts_free(&fo);
        return sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu counts", vec->n);
    }
    fw_sink sink = {r, each, cb_ctx};
    int stream = s->counts || (each && !(s->has_num_samples && s->num_samples > 1));
    sl_fw_result res;
    memset(&res, 0, sizeof res);
    size_t done = 0;
    int rc = sl_fw_run_each(ft, &fo, prog, stream ? fw_take : NULL, &sink, &res, &done, err);
    r->done = done;
    free(ctx);
    sl_api_fw_opts_free(&fo);
    if (rc)
        return sl_api_lib_error(err, rc);
    r->framework = 1;
    r->tokens = res.tokens;
    r->n = res.n;
    r->k = res.k;
    r->nested = (ft->accepts & SL_OPT_NUM_SAMPLES) != 0;
    r->rng_name = res.rng_name;
    r->word_bits = res.word_bits;
    r->words = res.words;
    r->version = res.version;
    r->cpu = res.cpu;
    if (ft->pipeline && is_logits) {
        r->pipeline = ft->pipeline;
        r->given = s->cfg;
        r->given.context = NULL;
        r->given.context_n = 0;
    }
    r->samplers = sl_api_samplers(ft->pipeline, ft->accepts, &fo.cfg, r->samplers_buf, sizeof r->samplers_buf);
    return SL_OK;
}

static int draw_method(const sl_vec *vec, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                       void (*each)(void *, size_t), void *ctx, sl_api_draw_result *r, sl_error *err)
{
    /* a method takes --rng, --seed, --stream and, for --logits, --temperature */
    sl_api_settings t = *s;
    t.cfg.has_temperature = 0;
    const char *fw_only = sl_api_refused(&t, 1, SL_OPT_PROBS | SL_OPT_LOGITS);
    if (fw_only)
        return FAIL("%s is not an option of method %s: it needs --framework (a method takes --rng, --seed, "
                    "--stream)", fw_only, s->method);
    const sl_draw_type *dt = sl_draw_lookup(s->method);
    if (!dt)
        return FAIL("unknown method '%s' (exprace, cdf, linear, alias, greedy)", s->method);
    const char *rng_name = s->rng ? s->rng : "pcg32";
    const sl_rng_type *rt = sl_rng_lookup(rng_name);
    if (!rt)
        return FAIL("unknown random source '%s' (samplab draw --help lists them)", rng_name);
    sl_seed seed;
    if (sl_api_seed(s, 1, &seed, err))
        return SL_EINVAL;
    size_t n = s->has_n ? s->n : 1;
    const double *p = vec->d;
    double *soft = NULL;
    if (is_logits) {
        if (!(soft = malloc((vec->n ? vec->n : 1) * sizeof *soft)))
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
    r->n = n;
    r->k = 1;
    if (s->counts && !(r->counts = calloc(vec->n ? vec->n : 1, sizeof *r->counts)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu counts", vec->n);
    else if (!s->counts && !each && !(r->tokens = malloc((n ? n : 1) * sizeof *r->tokens)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu tokens", n);
    /* a long run: prog is ticked every 2^20 draws (a draw cannot fail half-way) */
    for (size_t i = 0; i < n && !rc; i++) {
        if (!(i & 0xfffff) && prog && prog->tick && prog->tick(prog->ctx, i, n)) {
            r->done = i;
            rc = sl_base_error_set(err, SL_EINTR, "samplab draw: interrupted after %zu draws", i);
            break;
        }
        size_t tok = dt->draw(table, &rng);
        if (r->counts)
            r->counts[tok]++;
        else if (r->tokens)
            r->tokens[i] = (long)tok;
        else
            each(ctx, tok);
    }
    r->rng_name = rt->name;
    r->word_bits = rt->word_bits;
    r->words = rng.words;
    dt->free(table);
    sl_rng_release(&rng);
    free(soft);
    return rc;
}

/* A batch of requests (--seeds with several entries): the rows of a 2-D --logits, one request
 * each, drawn together for --n steps by the framework's batch (framework/batch.c), each row's
 * generator carried from step to step, the histories fixed as a one-row draw keeps them. */
static int draw_batch(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                      sl_api_draw_result *r, sl_error *err)
{
    const sl_fw_type *ft = sl_fw_lookup(s->framework);
    if (!ft)
        return FAIL("unknown framework '%s' (samplab draw --help lists them)", s->framework);
    sl_api_row_seeds rs;
    if (sl_api_row_seeds_for("draw", s, ft, 0, &rs, err))
        return SL_EINVAL;
    size_t B = rs.n, n = s->has_n ? s->n : 1;
    const char *miss = s->stream ? SL_API_NAME(STREAM) : s->rng ? SL_API_NAME(RNG) : sl_api_refused(s, is_logits, ft->accepts);
    int rc = SL_EINVAL;
    char why[512];
    if (miss)
        FAIL("%s", sl_api_not_taken(miss, ft->name, why, sizeof why));
    else if (s->counts)
        FAIL("--counts counts one row's tokens: a batch of %zu requests prints each row's (draw a row alone with "
             "--seeds S for its counts)", B);
    else if (src->row >= 0)
        FAIL("--row picks one row: a batch of %zu requests (--seeds) draws every row of the tensor", B);
    else if (!penalty_check(ft, s, n, err))
        rc = SL_OK;
    if (rc) {
        sl_api_row_seeds_free(&rs);
        return rc;
    }
    sl_io_steps m;
    memset(&m, 0, sizeof m);
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    sl_fw_batch b;
    memset(&b, 0, sizeof b);
    sl_vec *rows = NULL;
    sl_seed *seeds = NULL;
    unsigned char *own = NULL;
    long *ctx = NULL;
    size_t ctx_n = 0;
    if (sl_api_steps_read(src, &m, err)) {
        rc = sl_api_lib_error(err, SL_EINVAL);
        goto out;
    }
    if (m.t != B) {
        rc = FAIL("--seeds gives %zu entries for the %zu %s of %s (one per row)", B, m.t, m.t == 1 ? "row" : "rows",
                  m.source);
        goto out;
    }
    r->V = m.v;
    if ((s->context && sl_api_ids("draw", SL_API_NAME(CONTEXT), s->context, "context", m.v, &ctx, &ctx_n, err)) ||
        sl_api_fw_opts("draw", s, &fo, err) || sl_api_vocab_fits("draw", s, &fo.cfg, m.v, err)) {
        rc = SL_EINVAL;
        goto out;
    }
    fo.cfg.context = ctx;
    fo.cfg.context_n = ctx_n;
    rows = calloc(B, sizeof *rows);
    seeds = calloc(B, sizeof *seeds);
    own = calloc(B, 1);
    r->tokens = malloc(n * B * sizeof *r->tokens);
    r->row_words = malloc(n * B * sizeof *r->row_words);
    r->row_own = calloc(B, 1);
    if (!rows || !seeds || !own || !r->tokens || !r->row_words || !r->row_own) {
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu steps of %zu rows", n, B);
        goto out;
    }
    for (size_t i = 0; i < B; i++) {
        own[i] = (unsigned char)rs.row[i].given;
        seeds[i] = rs.row[i].seed;
        if ((rc = sl_base_vec_alloc(&rows[i], m.v, m.source, err)) || (rc = sl_io_steps_row(&m, i, &rows[i]))) {
            rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for row %zu", i);
            goto out;
        }
    }
    memcpy(r->row_own, own, B);
    r->note = ft->note ? ft->note(&fo) : NULL;
    if ((rc = sl_fw_batch_open(&b, ft, &fo, B, seeds, own, err))) {
        rc = sl_api_lib_error(err, rc);
        goto out;
    }
    for (size_t t = 0; t < n; t++) {
        if (!(t & 0xff) && prog && prog->tick && prog->tick(prog->ctx, t, n)) {
            r->done = t;
            rc = sl_base_error_set(err, SL_EINTR, "samplab draw: interrupted after %zu steps", t);
            goto out;
        }
        if ((rc = sl_fw_batch_step(&b, rows, err))) {
            rc = sl_api_lib_error(err, rc);
            goto out;
        }
        for (size_t i = 0; i < B; i++) {
            r->tokens[t * B + i] = b.tokens[i];
            r->row_words[t * B + i] = b.words[i];
        }
    }
    r->done = n;
    r->framework = 1;
    r->rows = B;
    r->n = n;
    r->k = B;
    r->rng_name = ft->rng_label ? ft->rng_label : b.global.type->name;
    r->word_bits = b.global.type->word_bits;
    r->global_words = b.global.words;
    r->words = b.global.words;
    for (size_t i = 0; i < B; i++)
        if (own[i])
            r->words += b.row[i].rng.words;
    r->version = sl_fw_session_version(&b.row[0]);
    r->cpu = ft->accepts & SL_OPT_CPU ? sl_logits_cpu_name(sl_logits_cpu_resolve(b.row[0].o.cfg.cpu)) : NULL;
    r->path = ft->batch_path;
    if (ft->pipeline) {
        r->pipeline = ft->pipeline;
        r->given = s->cfg;
        r->given.context = NULL;
        r->given.context_n = 0;
    }
out:
    sl_fw_batch_close(&b);
    for (size_t i = 0; rows && i < B; i++)
        sl_base_vec_free(&rows[i]);
    free(rows);
    free(seeds);
    free(own);
    free(ctx);
    sl_io_steps_free(&m);
    sl_api_fw_opts_free(&fo);
    sl_api_row_seeds_free(&rs);
    return rc;
}

int sl_api_draw_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                    void (*each)(void *ctx, size_t token), void *ctx, sl_api_draw_result *r, sl_error *err)
{
    sl_api_or_defaults(&s, &src);
    memset(r, 0, sizeof *r);
    if (!src->spec && !src->data)
        return FAIL("give exactly one of --probs SRC and --logits SRC");
    if (!!s->method == !!s->framework)
        return FAIL("give exactly one of --method M and --framework F");
    if (s->has_n && s->n == 0)
        return FAIL("--n must be at least 1");
    if (s->has_n && (uint64_t)s->n > SL_API_MAX_N)
        return FAIL("--n takes at most 1000000000000 (10^12)");
    sl_seed seed;
    if (sl_api_seed(s, 1, &seed, err))
        return SL_EINVAL;
    /* several requests: a batch (SGLang's, whose rows are independent sessions, through sl_api_draw_rows) */
    const sl_fw_type *bt = s->framework ? sl_api_fw_type(s) : NULL;
    if (bt && s->row_seeds && strchr(s->row_seeds, ',') && !bt->per_request)
        return draw_batch(src, is_logits, s, prog, r, err);
    sl_vec vec;
    if (sl_api_vec_read(src, &vec, err)) {
        /* a 2-D [B, V] batch, for a framework whose requests own their generators */
        sl_error e2 = *err;
        const sl_fw_type *ft = s->framework ? sl_fw_lookup(s->framework) : NULL;
        if (ft && ft->per_request && src->spec) {
            int rc = sl_api_draw_rows(src, is_logits, s, r, &e2);
            if (rc != SL_EINVAL || e2.msg[0]) {
                *err = e2;
                return rc;
            }
        }
        return sl_api_lib_error(err, SL_EINVAL);
    }
    r->V = vec.n;
    int rc = s->framework ? draw_framework(&vec, is_logits, s, prog, each, ctx, r, err)
                          : draw_method(&vec, is_logits, s, prog, each, ctx, r, err);
    sl_base_vec_free(&vec);
    return rc;
}

void sl_api_draw_result_free(sl_api_draw_result *r)
{
    free(r->tokens);
    free(r->counts);
    free(r->row_words);
    free(r->row_own);
    r->tokens = NULL;
    r->counts = NULL;
    r->row_words = NULL;
    r->row_own = NULL;
}

char *sl_api_draw_result_json(const sl_api_draw_result *r)
{
    /* counts were counted as drawn (a method's, and a framework's since its calls
     * stream through the session): O(V) memory whatever n, and r->tokens is NULL */
    if (r->rows && r->row_words) /* a batch of requests (--seeds LIST) */
        return sl_api_draw_batch_json(r);
    if (r->rows) { /* tokens[b][t] from the step-major array */
        size_t nt = r->n * r->rows;
        long *tr = malloc((nt ? nt : 1) * sizeof *tr);
        if (!tr)
            return NULL;
        for (size_t t = 0; t < r->n; t++)
            for (size_t b = 0; b < r->rows; b++)
                tr[b * r->n + t] = r->tokens[t * r->rows + b];
        char *j = sl_api_draw_json(tr, r->rows, r->n, 1, r->V, 0, r->rng_name, r->word_bits, r->words, r->version,
                                   r->cpu, r->samplers, r->pipeline, &r->given);
        free(tr);
        return j;
    }
    if (r->counts)
        return sl_api_fw_counts_json(r->counts, r->V, r->rng_name, r->word_bits, r->words,
                                     r->framework ? r->version : NULL, r->framework ? r->cpu : NULL, r->samplers,
                                     r->pipeline, &r->given);
    return sl_api_draw_json(r->tokens, r->n, r->k, r->nested, r->V, r->counts != NULL, r->rng_name, r->word_bits,
                            r->words, r->version, r->cpu, r->samplers, r->pipeline, &r->given);
}

int sl_api_draw(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    *json = NULL;
    sl_api_draw_result r;
    int rc = sl_api_draw_run(src, is_logits, s, NULL, NULL, NULL, &r, err);
    if (!rc && !(*json = sl_api_draw_result_json(&r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for JSON");
    sl_api_draw_result_free(&r);
    return rc;
}
