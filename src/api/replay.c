/* replay.c — `samplab replay` as a call, and the object its --json prints
 * (moved from cli/replay.c): per framework the tokens, the cumulative words,
 * the kept counts and the generator; with --framework all, where each departs
 * from the first. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

static void json_run(json_t *o, const sl_api_run *r, size_t T, size_t B)
{
    json_t *tk = json_array(), *w = json_array(), *k = json_array();
    for (size_t b = 0; b < (B ? B : 1); b++) {
        /* a batch: one list per row (tokens[b][t]); else the one row's list */
        json_t *rt = B ? json_array() : tk, *rw = B ? json_array() : w, *rk = B ? json_array() : k;
        for (size_t t = 0; t < T; t++) {
            json_array_append_new(rt, json_integer(r->tokens[b * T + t]));
            json_array_append_new(rw, json_integer((json_int_t)r->words[b * T + t]));
            json_array_append_new(rk, json_integer((json_int_t)r->kept[b * T + t]));
        }
        if (B) {
            json_array_append_new(tk, rt);
            json_array_append_new(w, rw);
            json_array_append_new(k, rk);
        }
    }
    json_object_set_new(o, "tokens", tk);
    json_object_set_new(o, "words", w);
    json_object_set_new(o, "kept", k);
    json_object_set_new(o, "rng", json_string(r->rng_name));
    if (r->pipeline)
        sl_api_settings_echo(o, r->pipeline, &r->given);
    if (r->samplers)
        json_object_set_new(o, "samplers", json_string(r->samplers));
}

char *sl_api_replay_json(const sl_api_run *runs, size_t nr, const size_t *depart, size_t T, size_t B, int all)
{
    json_t *root = json_object();
    if (!all) {
        json_object_set_new(root, "framework", json_string(runs[0].ft->name));
        if (B)
            json_object_set_new(root, "rows", json_integer((json_int_t)B));
        json_run(root, &runs[0], T, B);
    } else {
        json_t *arr = json_array();
        for (size_t j = 0; j < nr; j++) {
            json_t *o = json_object();
            json_object_set_new(o, "framework", json_string(runs[j].ft->name));
            json_run(o, &runs[j], T, 0);
            json_object_set_new(o, "departs", j == 0 || depart[j] == T ? json_null() : json_integer((json_int_t)depart[j]));
            json_array_append_new(arr, o);
        }
        json_object_set_new(root, "frameworks", arr);
    }
    char *s = sl_api_json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(root);
    return s;
}

/* The first option given that t does not take; the context is the prompt here,
 * which every framework takes; llama.cpp's penalty window and frequency /
 * presence penalties are its pipeline's settings (as cli/replay.c). */
static const char *gen_refused(const sl_api_settings *s, const sl_fw_type *t)
{
    sl_api_settings q = *s;
    q.context = NULL;
    q.context_file = NULL;
    unsigned extra = t->pipeline ? t->pipeline->accepts & (SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE) : 0;
    return sl_api_refused(&q, 1, t->accepts | extra | SL_OPT_PROBS | SL_OPT_LOGITS);
}

int sl_api_gen_load(const char *cmd, const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                    const sl_api_settings *s, int allow_all, sl_api_gen *g, sl_error *err)
{
    sl_api_or_defaults(&s, &steps);
    memset(g, 0, sizeof *g);
    if (!s->framework)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: --framework F is required (samplab %s --help lists them)",
                                 cmd, cmd);
    if (allow_all && !strcmp(s->framework, "all")) {
        g->all = 1;
    } else if (!(g->ft = sl_api_fw_type(s))) {
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: unknown framework '%s' (samplab %s --help lists them)",
                                 cmd, s->framework, cmd);
    } else if (!g->ft->step) {
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: framework %s does not run step by step yet (no sampler session)", cmd,
                                 g->ft->name);
    }
    if (!steps->spec && !steps->data) /* the command line's --logits and --probs: neither, or both */
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab %s: give exactly one of --logits SRC and --probs SRC (per-step rows)", cmd);
    if (g->all && !is_logits)
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: --framework all runs the frameworks that take --logits",
                                 cmd);
    if (g->ft && !(g->ft->accepts & (is_logits ? SL_OPT_LOGITS : SL_OPT_PROBS)))
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: framework %s takes --%s (%s)", cmd, g->ft->name,
                                 is_logits ? "probs" : "logits", g->ft->input_why);
    /* replay and check follow one request (--seeds has one entry), or a batch's B rows (counted once read) */
    int may_batch = g->ft && g->ft->batch;
    sl_api_row_seeds rs;
    if (sl_api_row_seeds_for(cmd, s, g->ft, may_batch ? 0 : 1, &rs, err))
        return SL_EINVAL;
    const char *miss = g->ft ? gen_refused(s, g->ft) : NULL;
    if (miss) {
        char why[512];
        sl_api_row_seeds_free(&rs);
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s", cmd,
                                 sl_api_not_taken(miss, g->ft->name, why, sizeof why));
    }
    int bad = sl_api_fw_opts(cmd, s, &g->fo, err);
    if (!may_batch)
        sl_api_row_seed_apply(&rs, 0, &g->fo);
    g->seeds = rs; /* freed with g; a batch's are its rows' */
    if (bad) {
        sl_api_row_seeds_free(&g->seeds);
        return SL_EINVAL;
    }
    g->fo.k = 1;
    g->fo.n = 1;
    g->logits_input = is_logits;
    if (is_logits)
        g->fo.logits = &g->marker;
    else
        g->fo.probs = &g->marker;
    if (steps->n_rows > 1 && !(g->ft && g->ft->batch)) {
        sl_api_fw_opts_free(&g->fo);
        sl_api_row_seeds_free(&g->seeds);
        return sl_base_error_set(err, SL_EINVAL, "samplab %s: %s given %zu times (one per row): %s", cmd,
                                 is_logits ? SL_API_NAME(LOGITS) : SL_API_NAME(PROBS), steps->n_rows,
                                 g->all ? "--framework all runs one row at a time, not a batch"
                                        : "a batch of rows is not modelled for this framework");
    }
    /* a framework that draws batches reads [T, B, V] too; the others keep the reader's 2-D rule */
    if ((g->ft && g->ft->batch ? sl_api_batch_read : sl_api_steps_read)(steps, &g->steps, err)) {
        sl_api_fw_opts_free(&g->fo);
        sl_api_row_seeds_free(&g->seeds);
        return sl_api_lib_error(err, SL_EINVAL);
    }
    if (sl_api_vocab_fits(cmd, s, &g->fo.cfg, g->steps.v, err)) {
        sl_api_gen_free(g);
        return SL_EINVAL;
    }
    if (g->steps.b || steps->n_rows > 1 || sl_api_batch_asked(s)) {
        g->is_batch = 1;
        int rc = g->all ? sl_base_error_set(err, SL_EINVAL, "samplab %s: --framework all runs one row at a time, "
                                            "not a batch", cmd)
                 : !g->ft || !g->ft->batch_gen
                     ? sl_base_error_set(err, SL_EINVAL, "samplab %s: a generation of a batch is not modelled by "
                                         "samplab for framework %s (samplab draw --framework %s steps one batch)",
                                         cmd, g->ft ? g->ft->name : "?", g->ft ? g->ft->name : "?")
                 : context_n ? sl_base_error_set(err, SL_EINVAL, "samplab %s: a batch takes its prompts as rows "
                                                 "(--context with ';', or --context-file), not one context", cmd)
                             : sl_api_batch_load(cmd, s, g->ft, sl_io_steps_rows(&g->steps), g->steps.v, &g->batch, err);
        if (!rc)
            rc = sl_api_batch_seeds(cmd, &g->batch, &g->seeds, err);
        if (rc) {
            g->is_batch = 0;
            sl_api_gen_free(g);
        }
        return rc;
    }
    if (may_batch && g->seeds.n > 1) {
        int rc = sl_base_error_set(err, SL_EINVAL, "samplab %s: %s gives %zu entries for 1 row (one per row)", cmd,
                                   SL_API_NAME(ROW_SEEDS), g->seeds.n);
        sl_api_gen_free(g);
        return rc;
    }
    if (may_batch)
        sl_api_row_seed_apply(&g->seeds, 0, &g->fo);
    if (context_n || s->context) {
        if (s->context) {
            if (sl_api_ids(cmd, SL_API_NAME(CONTEXT), s->context, "context", g->steps.v, &g->context, &g->context_n, err)) {
                sl_api_gen_free(g);
                return SL_EINVAL;
            }
        } else {
            if (!(g->context = malloc(context_n * sizeof *g->context))) {
                sl_api_gen_free(g);
                return sl_base_error_set(err, SL_ENOMEM, "samplab %s: out of memory", cmd);
            }
            for (size_t i = 0; i < context_n; i++) {
                if (context[i] < 0 || (size_t)context[i] >= g->steps.v) {
                    sl_base_error_set(err, SL_EINVAL, "samplab %s: context entry %zu (%ld) is not a token id in 0..%zu",
                                      cmd, i, context[i], g->steps.v - 1);
                    sl_api_gen_free(g);
                    return SL_EINVAL;
                }
                g->context[i] = context[i];
            }
            g->context_n = context_n;
        }
        g->fo.cfg.context = g->context;
        g->fo.cfg.context_n = g->context_n;
    }
    return SL_OK;
}

void sl_api_gen_free(sl_api_gen *g)
{
    sl_api_row_seeds_free(&g->seeds);
    if (g->is_batch)
        sl_api_batch_free(&g->batch);
    g->is_batch = 0;
    sl_io_steps_free(&g->steps);
    free(g->context);
    g->context = NULL;
    sl_api_fw_opts_free(&g->fo);
}

static void run_free(sl_api_run *r)
{
    free(r->tokens);
    free(r->words);
    free(r->kept);
}

static int run_one(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m, const sl_api_batch *batch,
                   sl_api_run *r, sl_error *err)
{
    memset(r, 0, sizeof *r);
    r->ft = ft;
    if (ft->pipeline && fo->logits) {
        r->pipeline = ft->pipeline;
        r->given = fo->cfg;
        r->given.context = NULL;
        r->given.context_n = 0;
    }
    size_t T = m->t, B = batch ? batch->B : 1, n = T * B;
    r->tokens = malloc((n ? n : 1) * sizeof *r->tokens);
    r->words = malloc((n ? n : 1) * sizeof *r->words);
    r->kept = malloc((n ? n : 1) * sizeof *r->kept);
    if (!r->tokens || !r->words || !r->kept)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu steps", ft->name, T);
    r->samplers = sl_api_samplers(ft->pipeline, ft->accepts, &fo->cfg, r->samplers_buf, sizeof r->samplers_buf);
    if (batch)
        return sl_fw_replay_batch(ft, fo, T, B, m->v, m->source, batch->rows, &batch->eos, sl_api_gen_batch_row, m, r->tokens,
                                  r->words, r->kept, &r->rng_name, err);
    return sl_api_gen_replay(ft, fo, m, r->tokens, r->words, r->kept, &r->rng_name, err);
}

int sl_api_replay_run(const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                      const sl_api_settings *s, sl_api_replay_result *r, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_replay_run", r);
    sl_api_or_defaults(&s, NULL);
    memset(r, 0, sizeof *r);
    SL_BASE_NONNULL_N(err, "sl_api_replay_run", context, context_n);
    if (sl_api_settings_check(s, "sl_api_replay_run", err))
        return SL_EINVAL;
    sl_api_gen g;
    if (sl_api_gen_load("replay", steps, is_logits, context, context_n, s, 1, &g, err))
        return SL_EINVAL;
    size_t T = r->T = g.steps.t;
    int rc = SL_OK;
    r->all = g.all;
    if (!g.all) {
        r->B = g.is_batch ? g.batch.B : 0;
        if ((rc = run_one(g.ft, &g.fo, &g.steps, g.is_batch ? &g.batch : NULL, &r->runs[0], err)))
            sl_api_lib_error(err, rc);
        r->nr = 1;
        sl_api_gen_free(&g);
        return rc;
    }
    /* all: every session framework on logits that takes every option given;
     * --cpu names torch's kernel on this machine, not a setting, so it keeps
     * the frameworks without that kernel in (they never read it) */
    sl_api_settings q = *s;
    q.cpu = NULL;
    for (size_t i = 0; sl_fw_types[i] && r->nr < SL_API_REPLAY_MAX && !rc; i++) {
        const sl_fw_type *ft = sl_fw_types[i];
        if (!ft->step || !(ft->accepts & SL_OPT_LOGITS) || gen_refused(&q, ft))
            continue;
        if ((rc = run_one(ft, &g.fo, &g.steps, NULL, &r->runs[r->nr], err))) {
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s", err->msg);
            sl_base_error_set(err, rc, "samplab replay: %s: %s", ft->name, m);
        }
        r->nr++;
    }
    if (!rc && !r->nr)
        rc = sl_base_error_set(err, SL_EINVAL,
                               "samplab replay: no step-by-step framework on logits takes every option given");
    /* the first step each departs from runs[0], T if never */
    for (size_t j = 0; j < r->nr && !rc; j++) {
        r->depart[j] = T;
        for (size_t t = 0; t < T && r->depart[j] == T; t++)
            if (r->runs[j].tokens[t] != r->runs[0].tokens[t])
                r->depart[j] = t;
    }
    sl_api_gen_free(&g);
    return rc;
}

void sl_api_replay_result_free(sl_api_replay_result *r)
{
    if (!r)
        return;
    for (size_t j = 0; j < r->nr; j++)
        run_free(&r->runs[j]);
    r->nr = 0;
}

char *sl_api_replay_result_json(const sl_api_replay_result *r)
{
    if (!r)
        return NULL;
    return sl_api_replay_json(r->runs, r->nr, r->depart, r->T, r->B, r->all);
}

int sl_api_replay(const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                  const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_replay", json);
    *json = NULL;
    sl_api_replay_result r;
    int rc = sl_api_replay_run(steps, is_logits, context, context_n, s, &r, err);
    if (!rc && !(*json = sl_api_replay_result_json(&r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab replay: out of memory for JSON");
    sl_api_replay_result_free(&r);
    return rc;
}
