/* draw.c — `samplab draw` as a call: the checks, in the command's order and
 * with its messages, then a method over a random source or a framework's
 * session; the command (cli/draw.c) prints what this returns, and the JSON
 * (api/json.c) is the same for both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    const char *ctx = s->context ? s->context : s->context_file;
    if (pen && !ctx && (!ft->accepts_drawn || n == 1)) {
        if (ft->accepts_drawn)
            return FAIL("%s without --context changes nothing in one draw: give --context IDS (the ids it penalises) "
                        "or --n above 1", pen);
        return FAIL("%s without --context changes nothing: framework %s does not add its draws to the history; give "
                    "--context IDS (the ids it penalises)", pen, ft->name);
    }
    /* DRY and transformers.js's n-gram ban read the history too, and SGLang's hash its length (the position) */
    if (ctx && !pen && !c->has_dry_mult && !(c->has_ngram && c->ngram > 0) && !(ft->accepts & SL_OPT_POSITION))
        return FAIL("%s is only used by --repetition-penalty (or a llama.cpp penalty, DRY, or --no-repeat-ngram-size)",
                    s->context ? SL_API_NAME(CONTEXT) : SL_API_NAME(CONTEXT_FILE));
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

/* What a framework's draw reports besides its tokens: n calls of k, the generator, the release,
 * and the settings in force of its pipeline (those given, no context) where it ran on logits. */
static void fw_result(sl_api_draw_result *r, const sl_fw_type *ft, const sl_api_settings *s, const sl_logits_cfg *cfg,
                      int is_logits, size_t n, size_t k, const char *rng_name, unsigned word_bits, uint64_t words,
                      const char *version, const char *cpu)
{
    r->framework = 1;
    r->n = n;
    r->k = k;
    r->nested = (ft->accepts & SL_OPT_NUM_SAMPLES) != 0;
    r->rng_name = rng_name;
    r->word_bits = word_bits;
    r->words = words;
    r->version = version;
    r->cpu = cpu;
    if (ft->pipeline && is_logits) {
        r->pipeline = ft->pipeline;
        r->given = s->cfg;
        r->given.context = NULL;
        r->given.context_n = 0;
    }
    r->samplers = sl_api_samplers(ft->pipeline, ft->accepts, cfg, r->samplers_buf, sizeof r->samplers_buf);
}

/* generate()'s end of a sequence and its repeated prompts are a generation's (replay, check) */
static int gen_only(const sl_api_settings *s, sl_error *err)
{
    const char *o = s->has_num_return_sequences ? SL_API_NAME(NUM_RETURN_SEQUENCES)
                    : s->has_eos_token_id       ? SL_API_NAME(EOS_TOKEN_ID)
                    : s->has_pad_token_id       ? SL_API_NAME(PAD_TOKEN_ID)
                                                : NULL;
    return o ? FAIL("%s is a generation's setting (samplab replay and check): draw makes one step", o) : SL_OK;
}

static int draw_framework(const sl_vec *vec, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                          void (*each)(void *, size_t), void *cb_ctx, sl_api_draw_result *r, sl_error *err)
{
    const sl_fw_type *ft = sl_api_fw_type(s);
    if (!ft)
        return FAIL("unknown framework '%s' (samplab draw --help lists them)", s->framework);
    if (gen_only(s, err))
        return SL_EINVAL;
    if (s->context_file)
        return FAIL("%s gives a batch's prompt rows: draw on one vector takes %s IDS (a batch: a [B, V] source)",
                    SL_API_NAME(CONTEXT_FILE), SL_API_NAME(CONTEXT));
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
    r->tokens = res.tokens;
    fw_result(r, ft, s, &fo.cfg, is_logits, res.n, res.k, res.rng_name, res.word_bits, res.words, res.version, res.cpu);
    return SL_OK;
}

/* A batch: B rows of one [B, V] source, each row a session of its own (its prompt
 * from --context, one for every row or rows separated by ';', or --context-file),
 * n calls each carrying each row's state and generator: torch.multinomial on
 * [B, V] (K samples a row, with or without replacement), transformers' one step of
 * a batch of prompts, a serving engine's step of a batch of requests (--seeds, one
 * entry a row), each in the framework's order (framework/batch.c). */
static int draw_batch(const sl_io_steps *m, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                      sl_api_draw_result *r, sl_error *err)
{
    const sl_fw_type *ft = sl_api_fw_type(s);
    if (!ft)
        return FAIL("unknown framework '%s' (samplab draw --help lists them)", s->framework);
    size_t B = m->t, V = m->v, n = s->has_n ? s->n : 1;
    if (gen_only(s, err))
        return SL_EINVAL;
    sl_api_row_seeds rs; /* one entry per row, for a framework with a generator per request */
    if (sl_api_row_seeds_for("draw", s, ft, B, &rs, err))
        return SL_EINVAL;
    sl_api_settings q = *s; /* the prompt rows are the batch's, whatever the framework */
    q.context_file = NULL;
    const char *miss = s->stream ? SL_API_NAME(STREAM) : s->rng ? SL_API_NAME(RNG) : sl_api_refused(&q, is_logits, ft->accepts);
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    int rc = SL_OK;
    if (miss) {
        char why[512];
        rc = FAIL("%s", sl_api_not_taken(miss, ft->name, why, sizeof why));
    } else if (s->counts) {
        rc = FAIL("--counts counts the draws of one row: a [%zu, %zu] batch has %zu (give --row I, or leave "
                  "--counts out)", B, V, B);
    } else if (penalty_check(ft, s, n, err) || sl_api_fw_dtype("draw", s->dtype, &fo, err)) {
        rc = SL_EINVAL;
    }
    if (rc) {
        sl_api_row_seeds_free(&rs);
        return rc;
    }
    sl_api_batch bt;
    int brc = sl_api_batch_load("draw", s, ft, B, V, &bt, err);
    if (!brc && (brc = sl_api_batch_seeds("draw", &bt, &rs, err)))
        sl_api_batch_free(&bt);
    sl_api_row_seeds_free(&rs);
    if (brc)
        return SL_EINVAL;
    if (sl_api_fw_opts("draw", s, &fo, err)) {
        sl_api_batch_free(&bt);
        return SL_EINVAL;
    }
    rc = sl_api_vocab_fits("draw", s, &fo.cfg, V, err) ? SL_EINVAL : SL_OK;
    sl_vec *rows = calloc(B, sizeof *rows);
    if (!rc && !rows)
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu rows", B);
    for (size_t b = 0; !rc && b < B; b++)
        if (!(rc = sl_base_vec_alloc(&rows[b], V, m->source, err)) && !(rc = sl_io_steps_row(m, b, &rows[b])) &&
            m->own_dtype && !fo.dtype_set)
            rows[b].dtype = m->dtype;
    /* a step's row is named "SOURCE row b" in messages (the [B, V] source has no steps) */
    for (size_t b = 0; !rc && b < B; b++)
        snprintf(rows[b].source, sizeof rows[b].source, "%.200s row %zu", m->source, b);
    sl_vec kind = {0};
    fo.probs = is_logits ? NULL : &kind;
    fo.logits = is_logits ? &kind : NULL;
    if (!rc)
        r->note = ft->note ? ft->note(&fo) : NULL;
    sl_fw_batch fb;
    memset(&fb, 0, sizeof fb);
    if (!rc)
        rc = sl_fw_batch_open(&fb, ft, &fo, B, bt.rows, err);
    size_t k = fb.B ? fb.row[0].k : 1;
    if (!rc && k && n > SIZE_MAX / sizeof(long) / k / B)
        rc = FAIL("--n %zu times --num-samples %zu times %zu rows is too many tokens", n, k, B);
    if (!rc && (!(r->tokens = malloc(B * n * k * sizeof *r->tokens)) ||
                !(r->row_words = malloc(B * n * sizeof *r->row_words)) || !(r->row_own = malloc(B))))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu tokens", B * n * k);
    for (size_t i = 0; !rc && i < n; i++) {
        if (!(i & 0xff) && prog && prog->tick && prog->tick(prog->ctx, i, n)) {
            r->done = i;
            rc = sl_base_error_set(err, SL_EINTR, "samplab draw: interrupted after %zu steps", i);
            break;
        }
        if ((rc = sl_fw_batch_step(&fb, rows, err)))
            break;
        for (size_t b = 0; !rc && b < B; b++) {
            const sl_fw_step *st = &fb.step[b];
            memcpy(r->tokens + (b * n + i) * k, st->tokens, k * sizeof *st->tokens);
            r->row_words[b * n + i] = fb.words[b];
            for (size_t j = 0; !rc && ft->accepts_drawn && j < k; j++)
                rc = sl_fw_session_accept(&fb.row[b], st->tokens[j], err);
        }
    }
    if (!rc) {
        r->B = B;
        r->done = n;
        memcpy(r->row_own, fb.own, B);
        r->coupled = fb.coupled;
        r->global_words = fb.global.words;
        r->path = ft->batch;
        fw_result(r, ft, s, &fo.cfg, is_logits, n, k, sl_fw_batch_rng_name(&fb), fb.global.type->word_bits,
                  sl_fw_batch_words_all(&fb), sl_fw_session_version(&fb.row[0]),
                  ft->accepts & SL_OPT_CPU ? sl_logits_cpu_name(sl_logits_cpu_resolve(fb.row[0].o.cfg.cpu)) : NULL);
    }
    if (fb.B)
        sl_fw_batch_close(&fb);
    for (size_t b = 0; rows && b < B; b++)
        sl_base_vec_free(&rows[b]);
    free(rows);
    sl_api_fw_opts_free(&fo);
    sl_api_batch_free(&bt);
    return rc && rc != SL_EINTR ? sl_api_lib_error(err, rc) : rc;
}

/* Whether src is a batch for framework ft: rows of an inline list separated by ';',
 * or a 2-D .npy / .safetensors tensor given without --row (a vector read refuses
 * both). *m holds its [B, V] rows. */
static int read_batch(const sl_api_src *src, int is_logits, const sl_fw_type *ft, sl_io_steps *m, sl_error *err)
{
    if (!ft || !ft->batch || src->row >= 0)
        return 0;
    struct stat st;
    if (src->spec && strchr(src->spec, ';') && stat(src->spec, &st)) {
        /* each row's numbers counted first, so a row of another V is named as a row */
        const char *opt = src->name ? src->name : is_logits ? SL_API_NAME(LOGITS) : SL_API_NAME(PROBS);
        size_t v0 = 0, row = 0;
        for (const char *p = src->spec;; row++) {
            size_t len = strcspn(p, ";"), n = 0;
            for (size_t i = 0; i < len;) {
                while (i < len && strchr(" \t,", p[i]))
                    i++;
                if (i < len)
                    n++;
                while (i < len && !strchr(" \t,", p[i]))
                    i++;
            }
            if (!n) {
                sl_base_error_set(err, SL_EINVAL, "%s: row %zu is empty", opt, row);
                return -1;
            }
            if (row && n != v0) {
                sl_base_error_set(err, SL_EINVAL, "%s: row %zu has %zu entries, row 0 has %zu: a batch's rows "
                                  "have one V", opt, row, n, v0);
                return -1;
            }
            v0 = row ? v0 : n;
            if (!p[len])
                break;
            p += len + 1;
        }
        size_t len = strlen(src->spec);
        char *text = malloc(len + 1);
        if (!text)
            return 0;
        for (size_t i = 0; i <= len; i++)
            text[i] = src->spec[i] == ';' ? '\n' : src->spec[i];
        sl_error e;
        int rc = sl_io_steps_read_text(opt, text, len, m, &e);
        free(text);
        if (!rc && (rc = sl_io_steps_check(m, &e)))
            sl_io_steps_free(m);
        if (rc && err)
            *err = e;
        return rc ? -1 : 1;
    }
    sl_error e;
    return sl_api_steps_read(src, m, &e) ? 0 : 1;
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

int sl_api_draw_run(const sl_api_src *src, int is_logits, const sl_api_settings *s, const sl_progress *prog,
                    void (*each)(void *ctx, size_t token), void *ctx, sl_api_draw_result *r, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_draw_run", r);
    sl_api_or_defaults(&s, &src);
    memset(r, 0, sizeof *r);
    if (sl_api_settings_check(s, "sl_api_draw_run", err))
        return SL_EINVAL;
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
    /* several requests (--seeds with several entries), or a source of B rows: a batch */
    const sl_fw_type *ft = s->framework ? sl_api_fw_type(s) : NULL;
    sl_io_steps m;
    sl_vec vec;
    int batch = 0;
    if (ft && s->row_seeds && strchr(s->row_seeds, ',')) {
        if (src->row >= 0)
            return FAIL("--row picks one row: a batch of requests (--seeds with several entries) draws every row "
                        "of the tensor");
        batch = read_batch(src, is_logits, ft, &m, err);
        if (batch < 0 || (!batch && sl_api_steps_read(src, &m, err)))
            return sl_api_lib_error(err, SL_EINVAL);
        batch = 1;
    } else if (sl_api_vec_read(src, &vec, err)) {
        /* not a vector: a [B, V] batch for a framework that draws batches */
        if ((batch = ft ? read_batch(src, is_logits, ft, &m, err) : 0) <= 0)
            return sl_api_lib_error(err, SL_EINVAL);
    }
    if (batch) {
        r->V = m.v;
        int rc = draw_batch(&m, is_logits, s, prog, r, err);
        sl_io_steps_free(&m);
        return rc;
    }
    r->V = vec.n;
    int rc = s->framework ? draw_framework(&vec, is_logits, s, prog, each, ctx, r, err)
                          : draw_method(&vec, is_logits, s, prog, each, ctx, r, err);
    sl_base_vec_free(&vec);
    return rc;
}

void sl_api_draw_result_free(sl_api_draw_result *r)
{
    if (!r)
        return;
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
    if (!r)
        return NULL;
    /* counts were counted as drawn (a method's, and a framework's since its calls
     * stream through the session): O(V) memory whatever n, and r->tokens is NULL */
    if (r->counts)
        return sl_api_fw_counts_json(r->counts, r->V, r->rng_name, r->word_bits, r->words,
                                     r->framework ? r->version : NULL, r->framework ? r->cpu : NULL, r->samplers,
                                     r->pipeline, &r->given);
    if (r->B)
        return sl_api_draw_batch_json(r);
    return sl_api_draw_json(r->tokens, r->n, r->k, r->nested, r->V, r->counts != NULL, r->rng_name, r->word_bits,
                            r->words, r->version, r->cpu, r->samplers, r->pipeline, &r->given);
}

int sl_api_draw(const sl_api_src *src, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_draw", json);
    *json = NULL;
    sl_api_draw_result r;
    int rc = sl_api_draw_run(src, is_logits, s, NULL, NULL, NULL, &r, err);
    if (!rc && !(*json = sl_api_draw_result_json(&r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for JSON");
    sl_api_draw_result_free(&r);
    return rc;
}
