/* check.c — `samplab check` as calls, and the objects its --json prints (moved
 * from cli/check.c). Without a seed the claim is a distribution per step (the
 * framework's probs hook given the observed history), judged by stats/gen.c:
 * tokens outside the kept set and the filter that removed each, the randomised
 * PIT's KS test, the log-likelihood z-test, and the power against a wrong
 * temperature and top-p. With a seed: the seeded sampler replayed over the
 * observed history until its token
 * differs (moved from cli/check.c). Errors are the library's own messages. */
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "api/sl_api.h"

int sl_api_check_seeded(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m_in, const long *obs,
                        sl_api_divergence *out, sl_error *err)
{
    if (!ft || !fo || !m_in || !obs || !out)
        return sl_base_error_set(err, SL_EINVAL, "samplab check: %s is NULL",
                                 !ft ? "the framework" : !fo ? "the settings" : !m_in ? "the generation"
                                 : !obs ? "the observed tokens" : "the result");
    if (sl_logits_cfg_check(&fo->cfg, "sl_api_check_seeded", err))
        return SL_EINVAL;
    sl_fw_session s;
    sl_vec row;
    const sl_io_steps *m = m_in;
    size_t T = m->t, div = T;
    long pred = -1;
    double p_obs = 0, p_pred = 0;
    if (sl_api_gen_open(&s, ft, fo, err))
        return SL_EINVAL;
    if (sl_base_vec_alloc(&row, m->v, m->source, err)) {
        sl_fw_session_close(&s);
        return SL_EINVAL;
    }
    int rc = 0;
    sl_vec rows[2] = {row, {0}};
    if (sl_base_vec_alloc(&rows[1], m->v, m->source, err)) {
        rc = SL_EINVAL;
        goto out;
    }
    for (size_t t = 0; t < T; t++) {
        sl_vec *r = &rows[t & 1];
        sl_io_steps_row(m, t, r);
        if (fo->dtype_set)
            r->dtype = fo->dtype;
        sl_fw_step st;
        if (sl_fw_session_step(&s, r, &st, err)) {
            rc = SL_EINVAL;
            goto out;
        }
        if (st.tokens[0] != obs[t]) {
            sl_logits_result pr;
            if (sl_fw_session_probs(&s, r, &pr, err)) {
                rc = SL_EINVAL;
                goto out;
            }
            double sum = 0;
            for (size_t i = 0; i < pr.V; i++)
                sum += pr.probs[i];
            div = t;
            pred = st.tokens[0];
            p_obs = pr.probs[obs[t]] / sum;
            p_pred = pr.probs[pred] / sum;
            sl_logits_result_free(&pr);
            break;
        }
        if (sl_fw_session_accept(&s, obs[t], err)) {
            rc = SL_EINVAL;
            goto out;
        }
    }
    out->step = div;
    out->predicted = pred;
    out->p_observed = p_obs;
    out->p_predicted = p_pred;
out:
    sl_base_vec_free(&rows[0]);
    sl_base_vec_free(&rows[1]);
    sl_fw_session_close(&s);
    return rc;
}

/* A batch with a seed: the rows replayed over their observed histories in the
 * batch's draw order (row by row within a step, one generator), each finished
 * row's token the pad id as transformers' _sample makes it, until a drawn token
 * differs from the observed one: that step and row. */
typedef struct check_batch_ctx {
    size_t T;
    const long *obs;
    sl_api_divergence *out;
} check_batch_ctx;

/* each row's draw against its observed token: the first that differs stops the walk */
static int check_visit(void *ctx, sl_fw_batch *b, size_t t, size_t r, const sl_vec *v, const sl_fw_step *st,
                       long tok, long *accept, sl_error *err)
{
    check_batch_ctx *c = ctx;
    (void)st;
    long o = c->obs[r * c->T + t];
    *accept = o;
    if (tok == o)
        return 0;
    sl_logits_result pr;
    int rc = sl_fw_session_probs(&b->row[r], v, &pr, err);
    if (rc)
        return -rc;
    double sum = 0;
    for (size_t i = 0; i < pr.V; i++)
        sum += pr.probs[i];
    c->out->step = t;
    c->out->row = r;
    c->out->predicted = tok;
    c->out->p_observed = pr.probs[o] / sum;
    c->out->p_predicted = pr.probs[tok] / sum;
    sl_logits_result_free(&pr);
    return 1;
}

/* A batch with a seed: the rows replayed over their observed histories in the
 * batch's draw order (row by row within a step, one generator), each finished
 * row's token the pad id as transformers' _sample makes it, until a drawn token
 * differs from the observed one: that step and row. */
int sl_api_check_batch_seeded(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m,
                              const sl_api_batch *bt, const long *obs, sl_api_divergence *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    out->step = m->t;
    out->predicted = -1;
    check_batch_ctx c = {m->t, obs, out};
    return sl_fw_batch_generate(ft, fo, m->t, bt->B, m->v, m->source, bt->rows, &bt->eos, sl_api_gen_batch_row, m, check_visit,
                                &c, NULL, err);
}

/* The seeded check's object; B > 0: a batch, obs row-major (row b's step t at b·T + t). */
static char *seeded_json(const sl_fw_type *ft, size_t T, size_t B, const long *obs, const sl_api_divergence *d,
                         const char *samplers, const sl_logits_cfg *given)
{
    size_t div = d->step;
    json_t *root = json_object();
    json_object_set_new(root, "framework", json_string(ft->name));
    json_object_set_new(root, "steps", json_integer((json_int_t)T));
    if (B)
        json_object_set_new(root, "rows", json_integer((json_int_t)B));
    if (samplers)
        json_object_set_new(root, "samplers", json_string(samplers));
    json_object_set_new(root, "first_divergence", div == T ? json_null() : json_integer((json_int_t)div));
    if (div < T && B)
        json_object_set_new(root, "row", json_integer((json_int_t)d->row));
    if (div < T) {
        json_object_set_new(root, "observed", json_integer(obs[B ? d->row * T + div : div]));
        json_object_set_new(root, "predicted", json_integer(d->predicted));
        json_object_set_new(root, "p_observed", json_real(d->p_observed));
        json_object_set_new(root, "p_predicted", json_real(d->p_predicted));
    }
    if (given)
        sl_api_settings_echo(root, ft->pipeline, given);
    char *s = sl_api_json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return s;
}

char *sl_api_check_seeded_json(const sl_fw_type *ft, size_t T, const long *obs, const sl_api_divergence *d,
                               const char *samplers, const sl_logits_cfg *given)
{
    return seeded_json(ft, T, 0, obs, d, samplers, given);
}

/* ---------------------------------------------------------------- without a seed (moved from cli/check.c) */

typedef struct claim {
    const sl_fw_type *ft;
    int logits_input;
    int dtype_set;
    sl_dtype dtype;
    const sl_io_steps *m;
    sl_logits_cfg cfg;        /* the claim's settings; context = hist */
    long *hist;               /* prompt, then the observed tokens */
    size_t prompt_n;
    const long *obs;
    sl_vec row;
    size_t row_t;             /* the step in row, or SIZE_MAX */
    double *out;              /* V */
    /* faults for the power: alt 1..n_alt */
    size_t n_alt;
    int alt_kind[16];         /* 0 temperature, 1 top-p */
    double alt_value[16];
} claim;

static int claim_row(claim *c, size_t t)
{
    if (c->row_t != t) {
        sl_io_steps_row(c->m, t, &c->row);
        if (c->dtype_set)
            c->row.dtype = c->dtype;
        c->row_t = t;
    }
    return 0;
}

/* The distribution at step t under cfg (history: prompt + obs[0..t)). */
static int claim_probs(claim *c, size_t t, const sl_logits_cfg *cfg, sl_logits_result *r, sl_error *err)
{
    claim_row(c, t);
    sl_logits_cfg k = *cfg;
    k.context = c->hist;
    k.context_n = c->prompt_n + t;
    if (!c->logits_input || !c->ft->pipeline) {
        int rc = sl_base_vec_check_weights(&c->row, err);
        if (rc || (rc = sl_logits_result_alloc(r, c->row.n, err)))
            return rc;
        double s = 0;
        for (size_t i = 0; i < c->row.n; i++)
            s += c->row.d[i];
        for (size_t i = 0; i < c->row.n; i++) {
            r->probs[i] = c->row.d[i] / s;
            r->kept[i] = c->row.d[i] > 0;
            r->n_kept += r->kept[i];
        }
        return SL_OK;
    }
    return sl_logits_pipeline_run(c->ft->pipeline, &c->row, &k, r, err);
}

/* sl_stat_gen_dist over the claim and its faults */
static int claim_dist(void *ctx, size_t t, size_t alt, const double **w, size_t *V, sl_error *err)
{
    claim *c = ctx;
    sl_logits_cfg k = c->cfg;
    int power_transform = 0;
    double tf = 1;
    if (alt) {
        int kind = c->alt_kind[alt - 1];
        double v = c->alt_value[alt - 1];
        if (kind == 0) {
            if (c->logits_input && c->ft->pipeline) {
                k.has_temperature = 1;
                k.temperature = v;
            } else {
                power_transform = 1; /* weights as given: p^(1/f) is a temperature f on their logs */
                tf = v;
            }
        } else {
            k.has_top_p = 1;
            k.top_p = v;
        }
    }
    sl_logits_result r;
    int rc = claim_probs(c, t, &k, &r, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < r.V; i++)
        c->out[i] = power_transform && r.probs[i] > 0 ? pow(r.probs[i], 1.0 / tf) : r.probs[i];
    sl_logits_result_free(&r);
    *w = c->out;
    *V = c->m->v;
    return SL_OK;
}

/* The settings of cfg with every filter off (temperature kept: it removes nothing). */
static sl_logits_cfg filters_off(const sl_logits_cfg *c)
{
    sl_logits_cfg n = *c;
    n.has_penalty = 1, n.penalty = 1.0;
    n.has_freq = 1, n.freq = 0;
    n.has_presence = 1, n.presence = 0;
    n.has_top_k = 1, n.top_k = 0;
    n.has_top_p = 1, n.top_p = 1.0;
    n.has_min_p = 1, n.min_p = 0;
    n.has_typical = 1, n.typical = 1.0;
    return n;
}

/* Switches the claim's filter `name` (a steps[] name of any pipeline) on in n. */
static void filter_on(sl_logits_cfg *n, const sl_logits_cfg *c, const char *name)
{
    if (strstr(name, "penalt")) {
        n->has_penalty = c->has_penalty, n->penalty = c->penalty;
        n->has_freq = c->has_freq, n->freq = c->freq;
        n->has_presence = c->has_presence, n->presence = c->presence;
    } else if (!strncmp(name, "top_k", 5) || !strncmp(name, "top-k", 5)) {
        n->has_top_k = c->has_top_k, n->top_k = c->top_k;
    } else if (!strncmp(name, "top_p", 5) || !strncmp(name, "top-p", 5)) {
        n->has_top_p = c->has_top_p, n->top_p = c->top_p;
    } else if (!strncmp(name, "min_p", 5) || !strncmp(name, "min-p", 5)) {
        n->has_min_p = c->has_min_p, n->min_p = c->min_p;
    } else if (!strcmp(name, "typical")) {
        n->has_typical = c->has_typical, n->typical = c->typical;
    }
}

/* Which filter removed token x at step t: the first whose switching on, in the
 * pipeline's order, drops it. Writes a static name into *why. */
static int which_filter(claim *c, size_t t, size_t x, const sl_logits_result *full, const char **why, sl_error *err)
{
    *why = c->logits_input ? "the framework's sampling (no pipeline to re-run filter by filter)" : "its weight is 0";
    if (!c->logits_input || !c->ft->pipeline)
        return SL_OK;
    *why = "the pipeline";
    sl_logits_cfg n = filters_off(&c->cfg);
    sl_logits_result r;
    int rc = claim_probs(c, t, &n, &r, err);
    if (rc)
        return rc;
    int dropped = !r.kept[x];
    sl_logits_result_free(&r);
    if (dropped) {
        *why = full->n_steps ? full->steps[0] : "the pipeline";
        return SL_OK;
    }
    for (size_t i = 0; i < full->n_steps; i++) {
        filter_on(&n, &c->cfg, full->steps[i]);
        if ((rc = claim_probs(c, t, &n, &r, err)))
            return rc;
        dropped = !r.kept[x];
        sl_logits_result_free(&r);
        if (dropped) {
            *why = full->steps[i];
            return SL_OK;
        }
    }
    return SL_OK;
}

static const double temp_grid[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};
static const double topp_grid[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.4};
#define NT (sizeof temp_grid / sizeof *temp_grid)
#define NP (sizeof topp_grid / sizeof *topp_grid)

/* each trial simulates a whole log: 10^8 of them grew to 15 GB */
static int trials_refused(size_t trials, sl_error *err)
{
    if (trials > SL_API_CHECK_MAX_TRIALS)
        return sl_base_error_set(err, SL_EINVAL, "samplab check: --trials must be at most %d, not %zu",
                                 SL_API_CHECK_MAX_TRIALS, trials);
    return SL_OK;
}

int sl_api_check_log(const sl_fw_type *ft, const sl_fw_opts *fo, int logits_input, const sl_io_steps *m,
                     const long *context, size_t context_n, const long *obs, double alpha, size_t trials,
                     sl_api_check_log_result *R, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_check_log", R);
    memset(R, 0, sizeof *R);
    SL_BASE_NONNULL_N(err, "sl_api_check_log", context, context_n);
    if (!ft || !fo || !m || !obs)
        return sl_base_error_set(err, SL_EINVAL, "samplab check: %s is NULL",
                                 !ft ? "the framework" : !fo ? "the settings" : !m ? "the generation" : "the observed tokens");
    if (sl_logits_cfg_check(&fo->cfg, "sl_api_check_log", err))
        return SL_EINVAL;
    /* the same refusal as check_run's: the verdict compares p-values with alpha */
    if (!(alpha > 0 && alpha < 1))
        return sl_base_error_set(err, SL_EINVAL, "samplab check: --alpha must be in (0, 1)");
    if (trials_refused(trials, err))
        return SL_EINVAL;
    size_t T = m->t, V = m->v;
    int rc = SL_EINVAL;
    claim c;
    memset(&c, 0, sizeof c);
    c.ft = ft;
    c.logits_input = logits_input;
    c.dtype_set = fo->dtype_set;
    c.dtype = fo->dtype;
    c.m = m;
    c.cfg = fo->cfg;
    if (logits_input && ft->pipeline) /* the claim in force: its T and top-p are what the faults move */
        sl_logits_cfg_resolve(ft->pipeline, &c.cfg, NULL);
    c.prompt_n = context_n;
    c.obs = obs;
    c.row_t = SIZE_MAX;
    c.hist = malloc((context_n + T) * sizeof *c.hist);
    c.out = malloc(V * sizeof *c.out);
    size_t *out_steps = malloc(T * sizeof *out_steps);
    const char **out_why = malloc(T * sizeof *out_why);
    sl_stat_gen sg;
    memset(&sg, 0, sizeof sg);
    if (!c.hist || !c.out || !out_steps || !out_why || sl_base_vec_alloc(&c.row, V, m->source, err)) {
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab check: out of memory for %zu steps of V = %zu", T, V);
        goto out;
    }
    if (context_n)
        memcpy(c.hist, context, context_n * sizeof *c.hist);
    memcpy(c.hist + context_n, obs, T * sizeof *obs);
    if (sl_stat_gen_init(&sg, T, SL_STAT_GEN_SEED, err)) {
        rc = SL_EINVAL;
        goto out;
    }
    /* Given the observed log every step's claim is known (its history is the
     * observed tokens), so the steps run in parallel, each thread with its own
     * row; the terms are then added in step order, so the result does not
     * depend on the number of threads. */
    size_t n_out = 0, fail_t = SIZE_MAX;
    sl_error fail_err;
    sl_stat_gen_one *ones = malloc(T * sizeof *ones);
    const char **why_t = calloc(T, sizeof *why_t);
    if (!ones || !why_t) {
        free(ones);
        free(why_t);
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab check: out of memory for %zu steps", T);
        goto out;
    }
#pragma omp parallel
    {
        /* each thread a contiguous block of steps and its own session, opened with
         * the history up to its first step: the claim is the framework's own probs
         * hook, the observed tokens accepted as they come */
        size_t nth = 1, me = 0;
#ifdef _OPENMP
        nth = (size_t)omp_get_num_threads();
        me = (size_t)omp_get_thread_num();
#endif
        size_t t0 = T * me / nth, t1 = T * (me + 1) / nth;
        claim cl = c;
        sl_error te;
        sl_fw_opts o = *fo;
        o.cfg.context = c.hist;
        o.cfg.context_n = c.prompt_n + t0;
        /* the session only gives probabilities and accepts the observed tokens, it
         * never draws: llamacpp's open refuses a session without a seed (its default
         * is a random one), so any seed will do here */
        if (!o.has_seed) {
            o.has_seed = 1;
            memset(&o.seed, 0, sizeof o.seed);
        }
        sl_fw_session ss;
        int ok = !sl_base_vec_alloc(&cl.row, V, m->source, &te);
        if (ok && sl_api_gen_open(&ss, ft, &o, &te)) {
            sl_base_vec_free(&cl.row);
            ok = 0;
        }
        cl.row_t = SIZE_MAX;
        if (!ok && t0 < t1) {
#pragma omp critical
            if (t0 < fail_t) {
                fail_t = t0;
                fail_err = te;
            }
        }
        for (size_t t = t0; ok && t < t1; t++) {
            sl_logits_result r;
            claim_row(&cl, t);
            int bad = sl_fw_session_probs(&ss, &cl.row, &r, &te) != 0;
            if (!bad) {
                bad = sl_stat_gen_step(r.probs, V, (size_t)obs[t], t, &ones[t], &te) != 0;
                if (!bad && ones[t].px == 0 && which_filter(&cl, t, (size_t)obs[t], &r, &why_t[t], &te))
                    bad = 1;
                sl_logits_result_free(&r);
            }
            if (!bad)
                bad = sl_fw_session_accept(&ss, obs[t], &te) != 0;
            if (bad) {
#pragma omp critical
                if (t < fail_t) {
                    fail_t = t;
                    sl_base_error_set(&fail_err, SL_EINVAL, "%.200s step %zu: %.280s", m->source, t, te.msg);
                }
                break;
            }
        }
        if (ok) {
            sl_fw_session_close(&ss);
            sl_base_vec_free(&cl.row);
        }
    }
    for (size_t t = 0; fail_t == SIZE_MAX && t < T; t++) {
        if (sl_stat_gen_add(&sg, &ones[t], &fail_err)) {
            fail_t = t;
            break;
        }
        if (ones[t].px == 0) {
            out_steps[n_out] = t;
            out_why[n_out++] = why_t[t];
        }
    }
    free(ones);
    free(why_t);
    if (fail_t != SIZE_MAX) {
        if (err)
            *err = fail_err;
        rc = SL_EINVAL;
        goto out;
    }
    sl_stat_gen_result res;
    if (sl_stat_gen_finish(&sg, alpha, &res, err)) {
        rc = SL_EINVAL;
        goto out;
    }

    /* power: faults of the temperature (T(1+d)) and of top-p (P-d) */
    double claimed_t = c.cfg.has_temperature ? c.cfg.temperature : 1.0;
    double claimed_p = c.cfg.has_top_p ? c.cfg.top_p : 1.0;
    int has_topp = c.logits_input && c.ft->pipeline && (c.ft->accepts & SL_OPT_TOP_P);
    double power[16];
    int no_pipeline = c.logits_input && !c.ft->pipeline;
    if (trials && no_pipeline) {
        /* faults are re-runs of the pipeline with other settings: none to re-run */
        R->no_pipeline_note = 1;
        trials = 0;
    }
    if (trials) {
        for (size_t i = 0; i < NT; i++) {
            c.alt_kind[c.n_alt] = 0;
            c.alt_value[c.n_alt++] = claimed_t * (1 + temp_grid[i]);
        }
        for (size_t i = 0; has_topp && i < NP; i++) {
            if (claimed_p - topp_grid[i] <= 0)
                continue;
            c.alt_kind[c.n_alt] = 1;
            c.alt_value[c.n_alt++] = claimed_p - topp_grid[i];
        }
        if (sl_stat_gen_power(T, c.n_alt, claim_dist, &c, trials, alpha, SL_STAT_SIM_SEED_GEN, power, err)) {
            rc = SL_EINVAL;
            goto out;
        }
    }
    /* the smallest fault of each kind reaching 90 % */
    double det[2] = {NAN, NAN};
    for (size_t a = c.n_alt; a-- > 0;)
        if (power[a] >= 0.9)
            det[c.alt_kind[a]] = c.alt_value[a];
    R->n_out = n_out;
    R->out_steps = out_steps;
    R->out_why = out_why;
    out_steps = NULL;
    out_why = NULL;
    R->res = res;
    R->n_pit = sg.n_pit;
    R->trials = trials;
    R->n_alt = c.n_alt;
    memcpy(R->alt_kind, c.alt_kind, sizeof c.alt_kind);
    memcpy(R->alt_value, c.alt_value, sizeof c.alt_value);
    memcpy(R->power, power, sizeof power);
    R->det[0] = det[0];
    R->det[1] = det[1];
    R->claimed_t = claimed_t;
    R->claimed_p = claimed_p;
    R->has_topp = has_topp;
    R->alpha = alpha;
    R->T = T;
    R->V = V;
    rc = SL_OK;
out:
    sl_stat_gen_free(&sg);
    sl_base_vec_free(&c.row);
    free(c.hist);
    free(c.out);
    free(out_steps);
    free(out_why);
    return rc;
}

void sl_api_check_log_free(sl_api_check_log_result *R)
{
    if (!R)
        return;
    free(R->out_steps);
    free(R->out_why);
    R->out_steps = NULL;
    R->out_why = NULL;
}

char *sl_api_check_log_json(const sl_fw_type *ft, const long *obs, const sl_api_check_log_result *R,
                            const char *samplers, const sl_logits_cfg *given)
{
    json_t *root = json_object(), *os = json_array(), *od = json_array();
    json_object_set_new(root, "framework", json_string(ft->name));
    json_object_set_new(root, "steps", json_integer((json_int_t)R->T));
    if (samplers)
        json_object_set_new(root, "samplers", json_string(samplers));
    json_object_set_new(root, "V", json_integer((json_int_t)R->V));
    for (size_t i = 0; i < R->n_out; i++) {
        json_array_append_new(os, json_integer((json_int_t)R->out_steps[i]));
        json_t *o = json_object();
        json_object_set_new(o, "step", json_integer((json_int_t)R->out_steps[i]));
        json_object_set_new(o, "token", json_integer(obs[R->out_steps[i]]));
        json_object_set_new(o, "removed_by", json_string(R->out_why[i]));
        json_array_append_new(od, o);
    }
    json_object_set_new(root, "outside_kept", os);
    json_object_set_new(root, "outside_detail", od);
    json_t *ll = json_object();
    json_object_set_new(ll, "L", json_real(R->res.ll));
    json_object_set_new(ll, "mean", json_real(R->res.ll_mean));
    json_object_set_new(ll, "sd", json_real(R->res.ll_sd));
    json_object_set_new(ll, "z", json_real(R->res.ll_z));
    json_object_set_new(ll, "p", json_real(R->res.ll_p));
    json_object_set_new(root, "loglik", ll);
    json_t *ks = json_object();
    json_object_set_new(ks, "D", json_real(R->res.ks_d));
    json_object_set_new(ks, "p", json_real(R->res.ks_p));
    json_object_set_new(ks, "n", json_integer((json_int_t)R->n_pit));
    json_object_set_new(ks, "uniforms", json_string(SL_STAT_GEN_RNG));
    json_object_set_new(ks, "seed", json_integer(SL_STAT_GEN_SEED));
    json_object_set_new(root, "pit_ks", ks);
    json_object_set_new(root, "p_value", json_real(R->res.p_value));
    json_object_set_new(root, "alpha", json_real(R->alpha));
    json_object_set_new(root, "verdict", json_string(R->res.reject ? "rejected" : "consistent"));
    if (R->trials) {
        json_t *pw = json_object(), *grid = json_array();
        json_object_set_new(pw, "trials", json_integer((json_int_t)R->trials));
        json_object_set_new(pw, "seed", json_integer(SL_STAT_SIM_SEED_GEN));
        json_object_set_new(pw, "target", json_real(0.9));
        for (size_t a = 0; a < R->n_alt; a++) {
            json_t *o = json_object();
            json_object_set_new(o, "fault", json_string(R->alt_kind[a] ? "top_p" : "temperature"));
            json_object_set_new(o, "value", json_real(R->alt_value[a]));
            json_object_set_new(o, "power", json_real(R->power[a]));
            json_array_append_new(grid, o);
        }
        json_object_set_new(pw, "grid", grid);
        json_object_set_new(pw, "temperature_detected", isnan(R->det[0]) ? json_null() : json_real(R->det[0]));
        json_object_set_new(pw, "top_p_detected", isnan(R->det[1]) ? json_null() : json_real(R->det[1]));
        json_object_set_new(root, "power", pw);
    }
    if (given)
        sl_api_settings_echo(root, ft->pipeline, given);
    char *s = sl_api_json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return s;
}

/* A batch: observed rows (--tokens rows separated by ';', or a file of one row a
 * line; or B·T ids row after row), a seed, then the first divergence. */
static int check_batch(const sl_api_src *steps, int is_logits, const long *tokens, size_t n_tokens,
                       const sl_api_settings *s, sl_api_check_result *r, sl_error *err)
{
    sl_api_gen *g = &r->g;
    size_t T = g->steps.t, B = g->batch.B, V = g->steps.v;
    const char *src = steps->spec ? steps->spec : steps->name ? steps->name : "<memory>";
    const char *kind = is_logits ? SL_API_NAME(LOGITS) : SL_API_NAME(PROBS);
    if (!s->seed)
        return sl_base_error_set(err, SL_EINVAL, "samplab check: a batch of %zu rows is checked with --seed S (its "
                                 "first divergence); without a seed, check one row at a time", B);
    if (!(r->obs = malloc(B * T * sizeof *r->obs)))
        return sl_base_error_set(err, SL_ENOMEM, "samplab check: out of memory");
    if (s->tokens) {
        struct stat st;
        sl_api_id_rows rows;
        if (sl_api_id_rows_read("check", SL_API_NAME(GEN_TOKENS), s->tokens, stat(s->tokens, &st) == 0, V, &rows,
                                err))
            return SL_EINVAL;
        int rc = SL_OK;
        if (rows.n != B)
            rc = sl_base_error_set(err, SL_EINVAL, "samplab check: --tokens %s holds %zu rows, but %s %s has %zu rows "
                                   "a step", s->tokens, rows.n, kind, src, B);
        for (size_t b = 0; !rc && b < B; b++)
            if (rows.len[b] != T)
                rc = sl_base_error_set(err, SL_EINVAL, "samplab check: --tokens %s: row %zu holds %zu tokens, but %s "
                                       "%s has T = %zu steps", s->tokens, b, rows.len[b], kind, src, T);
            else
                memcpy(r->obs + b * T, rows.ids[b], T * sizeof *r->obs);
        sl_api_id_rows_free(&rows);
        if (rc)
            return rc;
    } else {
        if (n_tokens != B * T)
            return sl_base_error_set(err, SL_EINVAL, "samplab check: %zu tokens given, but a batch of %zu rows of %zu "
                                     "steps has %zu", n_tokens, B, T, B * T);
        for (size_t i = 0; i < n_tokens; i++) {
            if (tokens[i] < 0 || (size_t)tokens[i] >= V)
                return sl_base_error_set(err, SL_EINVAL,
                                         "samplab check: token entry %zu (%ld) is not a token id in 0..%zu", i,
                                         tokens[i], V - 1);
            r->obs[i] = tokens[i];
        }
    }
    r->seeded = 1;
    int rc = sl_api_check_batch_seeded(g->ft, &g->fo, &g->steps, &g->batch, r->obs, &r->d, err);
    return rc ? sl_api_lib_error(err, rc) : SL_OK;
}

int sl_api_check_run(const sl_api_src *steps, int is_logits, const long *context, size_t context_n,
                     const long *tokens, size_t n_tokens, const sl_api_settings *s, sl_api_check_result *r,
                     sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_check_run", r);
    sl_api_or_defaults(&s, NULL);
    memset(r, 0, sizeof *r);
    SL_BASE_NONNULL_N(err, "sl_api_check_run", context, context_n);
    SL_BASE_NONNULL_N(err, "sl_api_check_run", tokens, n_tokens);
    if (sl_api_settings_check(s, "sl_api_check_run", err))
        return SL_EINVAL;
    if (!tokens && !s->tokens)
        return sl_base_error_set(err, SL_EINVAL, "samplab check: --tokens FILE is required (the observed token ids)");
    double alpha = r->alpha = s->has_alpha ? s->alpha : 0.01;
    if (!(alpha > 0 && alpha < 1))
        return sl_base_error_set(err, SL_EINVAL, "samplab check: --alpha must be in (0, 1)");
    size_t trials = s->has_trials ? s->trials : 200;
    if (trials_refused(trials, err))
        return SL_EINVAL;
    sl_api_gen *g = &r->g;
    if (sl_api_gen_load("check", steps, is_logits, context, context_n, s, 0, g, err))
        return SL_EINVAL;
    r->loaded = 1;
    size_t T = g->steps.t, n_obs = n_tokens;
    if (g->is_batch)
        return check_batch(steps, is_logits, tokens, n_tokens, s, r, err);
    if (s->tokens) {
        if (sl_api_ids("check", SL_API_NAME(GEN_TOKENS), s->tokens, "token", g->steps.v, &r->obs, &n_obs, err))
            return SL_EINVAL;
    } else {
        if (!(r->obs = malloc((n_tokens ? n_tokens : 1) * sizeof *r->obs)))
            return sl_base_error_set(err, SL_ENOMEM, "samplab check: out of memory");
        for (size_t i = 0; i < n_tokens; i++) {
            if (tokens[i] < 0 || (size_t)tokens[i] >= g->steps.v)
                return sl_base_error_set(err, SL_EINVAL,
                                         "samplab check: token entry %zu (%ld) is not a token id in 0..%zu", i,
                                         tokens[i], g->steps.v - 1);
            r->obs[i] = tokens[i];
        }
    }
    if (n_obs != T) /* both named: which tokens, which logits file and its T */
        return sl_base_error_set(err, SL_EINVAL, "samplab check: %s%s holds %zu token%s, but %s %s has T = %zu steps",
                                 s->tokens ? "--tokens " : "", s->tokens ? s->tokens : "<tokens>", n_obs,
                                 n_obs == 1 ? "" : "s",
                                 is_logits ? SL_API_NAME(LOGITS) : SL_API_NAME(PROBS),
                                 steps->spec ? steps->spec : steps->name ? steps->name : "<memory>", T);
    int rc;
    if (s->seed) {
        r->seeded = 1;
        if ((rc = sl_api_check_seeded(g->ft, &g->fo, &g->steps, r->obs, &r->d, err)))
            return sl_api_lib_error(err, rc);
        return SL_OK;
    }
    if ((rc = sl_api_check_log(g->ft, &g->fo, g->logits_input, &g->steps, g->context, g->context_n, r->obs, alpha,
                               trials, &r->log, err)))
        return rc == SL_ENOMEM ? rc : sl_api_lib_error(err, rc);
    r->has_log = 1;
    return SL_OK;
}

void sl_api_check_result_free(sl_api_check_result *r)
{
    if (!r)
        return;
    if (r->has_log)
        sl_api_check_log_free(&r->log);
    if (r->loaded)
        sl_api_gen_free(&r->g);
    free(r->obs);
    r->obs = NULL;
    r->has_log = r->loaded = 0;
}

char *sl_api_check_result_json(const sl_api_check_result *r)
{
    if (!r)
        return NULL;
    /* the settings in force, where a pipeline ran, and llama.cpp's stage order */
    const sl_logits_cfg *given = r->g.logits_input && r->g.ft->pipeline ? &r->g.fo.cfg : NULL;
    char buf[SL_LOGITS_ORDER_TEXT];
    const char *samplers = sl_api_samplers(r->g.ft->pipeline, r->g.ft->accepts, &r->g.fo.cfg, buf, sizeof buf);
    if (r->seeded)
        return seeded_json(r->g.ft, r->g.steps.t, r->g.is_batch ? r->g.batch.B : 0, r->obs, &r->d, samplers, given);
    return sl_api_check_log_json(r->g.ft, r->obs, &r->log, samplers, given);
}

int sl_api_check(const sl_api_src *steps, int is_logits, const long *context, size_t context_n, const long *tokens,
                 size_t n_tokens, const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_check", json);
    *json = NULL;
    sl_api_check_result r;
    int rc = sl_api_check_run(steps, is_logits, context, context_n, tokens, n_tokens, s, &r, err);
    if (!rc && !(*json = sl_api_check_result_json(&r)))
        rc = sl_base_error_set(err, SL_ENOMEM, "samplab check: out of memory for JSON");
    sl_api_check_result_free(&r);
    return rc;
}
