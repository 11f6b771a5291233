/* bench.c — `samplab bench --framework F` as a call, and the object its --json
 * prints (moved from cli/bench.c): a generation's replay loop per step (one
 * session, every token accepted, as `samplab replay` runs it) and F's pipeline
 * alone per call, with fresh buffers (as one `samplab pipeline` run) and in a
 * session's scratch, in the CPU time of the calling thread (steady on a shared
 * machine), the best of R repetitions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "api/sl_api.h"

static double thread_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The pipeline alone on the first rows, per call: fresh buffers, then a session's scratch. */
static int bench_pipeline(const sl_api_gen *g, size_t reps, sl_api_bench_result *r, sl_error *err)
{
    const sl_io_steps *m = &g->steps;
    sl_fw_session s;
    sl_vec row = {0};
    int rc;
    if ((rc = sl_base_vec_alloc(&row, m->v, m->source, err)))
        return rc;
    /* the session's settings (its CPU kernel and release line resolved), but no
     * scratch: each call allocates, as one `samplab pipeline` run does */
    if ((rc = sl_api_gen_open(&s, g->ft, &g->fo, err))) {
        sl_base_vec_free(&row);
        return rc;
    }
    sl_logits_cfg cfg = s.o.cfg;
    cfg.work = NULL;
    cfg.context = g->context;
    cfg.context_n = g->context_n;
    size_t rows = m->t < 24 ? m->t : 24;
    r->pipe = r->pipe_s = 1e30;
    for (size_t k = 0; k < reps && !rc; k++) {
        double sum = 0, sum_s = 0;
        for (size_t t = 0; t < rows && !rc; t++) {
            sl_io_steps_row(m, t, &row);
            sl_logits_result res;
            double t0 = thread_s();
            if ((rc = sl_logits_pipeline_run(g->ft->pipeline, &row, &cfg, &res, err)))
                break;
            sl_logits_result_free(&res);
            double t1 = thread_s();
            /* and as a session's step computes it, in the session's scratch */
            if ((rc = sl_fw_session_probs(&s, &row, &res, err)))
                break;
            sl_logits_result_free(&res);
            sum += t1 - t0;
            sum_s += thread_s() - t1;
        }
        if (sum / (double)rows < r->pipe)
            r->pipe = sum / (double)rows;
        if (sum_s / (double)rows < r->pipe_s)
            r->pipe_s = sum_s / (double)rows;
    }
    if (!rc && (g->ft->accepts & SL_OPT_CPU))
        r->cpu = sl_logits_cpu_name(sl_logits_cpu_resolve(s.o.cfg.cpu));
    sl_fw_session_close(&s);
    sl_base_vec_free(&row);
    return rc;
}

int sl_api_bench_run(const sl_api_src *steps, int is_logits, const sl_api_settings *s, sl_api_bench_result *r,
                     sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_bench_run", r);
    sl_api_or_defaults(&s, &steps);
    memset(r, 0, sizeof *r);
    if (sl_api_settings_check(s, "sl_api_bench_run", err))
        return SL_EINVAL;
    r->pipe = r->pipe_s = -1;
    /* the rows, settings and prompt as replay reads them (api/replay.c) */
    sl_api_gen *g = &r->g;
    int rc = sl_api_gen_load("bench", steps, is_logits, NULL, 0, s, 0, g, err);
    if (rc)
        return rc;
    r->loaded = 1;
    if (g->is_batch)
        return sl_base_error_set(err, SL_EINVAL, "samplab bench: a batch of %zu rows: bench times one row a step (give "
                                 "a [T, V] source)", sl_io_steps_rows(&g->steps));
    const sl_io_steps *m = &g->steps;
    size_t T = m->t;
    r->reps = s->has_n ? s->n : 5;
    if (!r->reps)
        r->reps = 1;
    r->tokens = malloc((T ? T : 1) * sizeof *r->tokens);
    uint64_t *words = malloc((T ? T : 1) * sizeof *words);
    size_t *kept = malloc((T ? T : 1) * sizeof *kept);
    if (!r->tokens || !words || !kept) {
        free(words);
        free(kept);
        return sl_base_error_set(err, SL_ENOMEM, "samplab bench: out of memory for %zu steps of V = %zu", T, m->v);
    }
    r->replay = 1e30;
    for (size_t k = 0; k < r->reps && !rc; k++) {
        double t0 = thread_s();
        if ((rc = sl_api_gen_replay(g->ft, &g->fo, m, r->tokens, words, kept, NULL, err)))
            break;
        double dt = (thread_s() - t0) / (double)T;
        if (dt < r->replay)
            r->replay = dt;
    }
    free(words);
    free(kept);
    if (!rc && g->ft->pipeline && g->logits_input)
        rc = bench_pipeline(g, r->reps, r, err);
    return rc ? sl_api_lib_error(err, rc) : SL_OK;
}

void sl_api_bench_result_free(sl_api_bench_result *r)
{
    if (!r)
        return;
    free(r->tokens);
    r->tokens = NULL;
    if (r->loaded)
        sl_api_gen_free(&r->g);
    r->loaded = 0;
}

char *sl_api_bench_result_json(const sl_api_bench_result *r)
{
    if (!r)
        return NULL;
    const sl_io_steps *m = &r->g.steps;
    json_t *root = json_object(), *tk = json_array();
    json_object_set_new(root, "framework", json_string(r->g.ft->name));
    json_object_set_new(root, "steps", json_integer((json_int_t)m->t));
    json_object_set_new(root, "V", json_integer((json_int_t)m->v));
    json_object_set_new(root, "repetitions", json_integer((json_int_t)r->reps));
    json_object_set_new(root, "clock", json_string("thread CPU time, best repetition"));
    json_object_set_new(root, "replay_ms_per_step", json_real(r->replay * 1e3));
    json_object_set_new(root, "pipeline_ms_per_call", r->pipe < 0 ? json_null() : json_real(r->pipe * 1e3));
    json_object_set_new(root, "pipeline_session_ms_per_call", r->pipe_s < 0 ? json_null() : json_real(r->pipe_s * 1e3));
    if (r->cpu)
        json_object_set_new(root, "cpu", json_string(r->cpu));
    for (size_t t = 0; t < m->t; t++)
        json_array_append_new(tk, json_integer(r->tokens[t]));
    json_object_set_new(root, "tokens", tk);
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return s;
}

int sl_api_bench(const sl_api_src *steps, int is_logits, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_bench", json);
    *json = NULL;
    sl_api_bench_result r;
    int rc = sl_api_bench_run(steps, is_logits, s, &r, err);
    if (!rc && !(*json = sl_api_bench_result_json(&r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab bench: out of memory for JSON");
    sl_api_bench_result_free(&r);
    return rc;
}
