/* check.c — `samplab check`: an observed generation against a claimed sampler.
 * With --seed the claim is one seeded sampler: the session of `samplab replay`
 * runs with the observed tokens as its history, and the first step where its
 * token differs from the observed one is reported with both probabilities.
 * Without a seed the claim is a distribution per step (the framework's probs
 * hook given the observed history), judged by stats/gen.c: tokens outside the
 * kept set (and the first filter that removes each: the pipeline re-run with
 * its filters switched on one by one, in its own order), the randomised PIT's
 * KS test and the log-likelihood z-test; then the power of that verdict against
 * a wrong temperature and a wrong top-p, simulated over the log's own steps. */
#include <jansson.h>
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

static void check_help(FILE *f)
{
    fprintf(f,
            "usage: samplab check --framework F (--logits SRC | --probs SRC) [--tensor NAME] --tokens FILE\n"
            "                     [--context IDS] [settings] [--seed S] [--alpha A] [--trials K] [--json]\n\n"
            "Judges an observed generation (FILE: one token id per line, or an inline list; as many as\n"
            "the steps of SRC) against framework F with the settings given.\n"
            "With --seed S: the seeded sampler is replayed with the observed history; prints the first\n"
            "step where its token differs, with both tokens and their probabilities (--json key\n"
            "\"first_divergence\": the step from 0, or null). Exit 0 if every step agrees, 1 if not.\n"
            "Without a seed: each step's claimed distribution given the history; a token the pipeline\n"
            "removed (probability 0) fails outright, naming the step, the token and the filter that\n"
            "removed it; the randomised PIT (tokens by decreasing probability; uniforms from %s seed\n"
            "%u) is KS-tested, and L = sum log p_t(x_t) is z-tested against its exact mean and variance.\n"
            "\"p_value\" = min(1, 2 min(p_KS, p_LL)); exit 0 consistent, 1 rejected (p < alpha or a\n"
            "token outside), 2 bad input. Then the power: the smallest temperature error T(1+d) and\n"
            "top-p error P-d that this log's length detects with 90%% power, from K simulated logs per\n"
            "fault (default 200, splitmix64 seed %u; --trials 0 skips it).\n\n",
            SL_STAT_GEN_RNG, SL_STAT_GEN_SEED, SL_STAT_SIM_SEED_GEN);
    sl_cli_help_options(f, sl_cli_spec_lookup("check"), "options:");
}

/* ---------------------------------------------------------------- the claim at each step */

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

/* ---------------------------------------------------------------- with a seed */

static int check_seeded(sl_cli_gen *g, const long *obs)
{
    sl_error err;
    sl_fw_session s;
    sl_vec row;
    const sl_io_steps *m = &g->steps;
    size_t T = m->t, div = T;
    long pred = -1;
    double p_obs = 0, p_pred = 0;
    if (sl_cli_gen_open(&s, g->ft, &g->fo, &err))
        return sl_cli_fail(&err);
    if (sl_base_vec_alloc(&row, m->v, m->source, &err)) {
        sl_fw_session_close(&s);
        return sl_cli_fail(&err);
    }
    int rc = 0;
    sl_vec rows[2] = {row, {0}};
    if (sl_base_vec_alloc(&rows[1], m->v, m->source, &err)) {
        rc = sl_cli_fail(&err);
        goto out;
    }
    for (size_t t = 0; t < T; t++) {
        sl_vec *r = &rows[t & 1];
        sl_io_steps_row(m, t, r);
        if (g->fo.dtype_set)
            r->dtype = g->fo.dtype;
        sl_fw_step st;
        if (sl_fw_session_step(&s, r, &st, &err)) {
            rc = sl_cli_fail(&err);
            goto out;
        }
        if (st.tokens[0] != obs[t]) {
            sl_logits_result pr;
            if (sl_fw_session_probs(&s, r, &pr, &err)) {
                rc = sl_cli_fail(&err);
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
        if (sl_fw_session_accept(&s, obs[t], &err)) {
            rc = sl_cli_fail(&err);
            goto out;
        }
    }
    if (g->json) {
        json_t *root = json_object();
        json_object_set_new(root, "framework", json_string(g->ft->name));
        json_object_set_new(root, "steps", json_integer((json_int_t)T));
        json_object_set_new(root, "first_divergence", div == T ? json_null() : json_integer((json_int_t)div));
        if (div < T) {
            json_object_set_new(root, "observed", json_integer(obs[div]));
            json_object_set_new(root, "predicted", json_integer(pred));
            json_object_set_new(root, "p_observed", json_real(p_obs));
            json_object_set_new(root, "p_predicted", json_real(p_pred));
        }
        rc = sl_cli_json_emit(root);
    } else if (div == T) {
        printf("check: %s, %zu steps: every observed token is the one the seeded sampler draws\n", g->ft->name, T);
    } else {
        printf("check: %s: first divergence at step %zu of %zu: observed %ld (p = %.9g), the seeded sampler "
               "draws %ld (p = %.9g)\n", g->ft->name, div, T, obs[div], p_obs, pred, p_pred);
    }
    if (!rc)
        rc = div == T ? 0 : 1;
out:
    sl_base_vec_free(&rows[0]);
    sl_base_vec_free(&rows[1]);
    sl_fw_session_close(&s);
    return rc;
}

/* ---------------------------------------------------------------- without a seed */

static const double temp_grid[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0};
static const double topp_grid[] = {0.01, 0.02, 0.05, 0.1, 0.2, 0.4};
#define NT (sizeof temp_grid / sizeof *temp_grid)
#define NP (sizeof topp_grid / sizeof *topp_grid)

int sl_cli_check_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("check", argc, argv, check_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    if (!v[SL_CLI_GEN_TOKENS].text) {
        sl_cli_errf("samplab check: --tokens FILE is required (the observed token ids)\n");
        return 2;
    }
    double alpha = v[SL_CLI_ALPHA].given ? v[SL_CLI_ALPHA].d : 0.01;
    if (!(alpha > 0 && alpha < 1)) {
        sl_cli_errf("samplab check: --alpha must be in (0, 1)\n");
        return 2;
    }
    size_t trials = v[SL_CLI_TRIALS].given ? v[SL_CLI_TRIALS].size : 200;
    if (trials > 100000) { /* each trial simulates a whole log */
        sl_cli_errf("samplab check: --trials must be at most 100000, not %zu\n", trials);
        return 2;
    }
    sl_cli_gen g;
    if (sl_cli_gen_load("check", &po, 0, &g))
        return 2;
    const sl_io_steps *m = &g.steps;
    size_t T = m->t, V = m->v, n_obs;
    long *obs;
    if (sl_cli_gen_ids("check", v[SL_CLI_GEN_TOKENS].text, "token", V, &obs, &n_obs)) {
        sl_cli_gen_free(&g);
        return 2;
    }
    char e[SL_CLI_ESC_MAX];
    if (n_obs != T) {
        sl_cli_errf("samplab check: %s holds %zu tokens, the logits %zu steps\n",
                sl_cli_esc(v[SL_CLI_GEN_TOKENS].text, e, sizeof e), n_obs, T);
        free(obs);
        sl_cli_gen_free(&g);
        return 2;
    }
    if (g.has_seed) {
        int rc = check_seeded(&g, obs);
        free(obs);
        sl_cli_gen_free(&g);
        return rc;
    }

    sl_error err;
    int rc = 2;
    claim c;
    memset(&c, 0, sizeof c);
    c.ft = g.ft;
    c.logits_input = g.logits_input;
    c.dtype_set = g.fo.dtype_set;
    c.dtype = g.fo.dtype;
    c.m = m;
    c.cfg = g.fo.cfg;
    c.prompt_n = g.context_n;
    c.obs = obs;
    c.row_t = SIZE_MAX;
    c.hist = malloc((g.context_n + T) * sizeof *c.hist);
    c.out = malloc(V * sizeof *c.out);
    size_t *out_steps = malloc(T * sizeof *out_steps);
    const char **out_why = malloc(T * sizeof *out_why);
    sl_stat_gen sg;
    memset(&sg, 0, sizeof sg);
    if (!c.hist || !c.out || !out_steps || !out_why || sl_base_vec_alloc(&c.row, V, m->source, &err)) {
        sl_cli_errf("samplab check: out of memory for %zu steps of V = %zu\n", T, V);
        goto out;
    }
    if (g.context_n)
        memcpy(c.hist, g.context, g.context_n * sizeof *c.hist);
    memcpy(c.hist + g.context_n, obs, T * sizeof *obs);
    if (sl_stat_gen_init(&sg, T, SL_STAT_GEN_SEED, &err)) {
        rc = sl_cli_fail(&err);
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
        sl_cli_errf("samplab check: out of memory for %zu steps\n", T);
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
        sl_fw_opts o = g.fo;
        o.cfg.context = c.hist;
        o.cfg.context_n = c.prompt_n + t0;
        sl_fw_session ss;
        int ok = !sl_base_vec_alloc(&cl.row, V, m->source, &te);
        if (ok && sl_cli_gen_open(&ss, g.ft, &o, &te)) {
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
        rc = sl_cli_fail(&fail_err);
        goto out;
    }
    sl_stat_gen_result res;
    if (sl_stat_gen_finish(&sg, alpha, &res, &err)) {
        rc = sl_cli_fail(&err);
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
        sl_cli_errf("samplab check: note: framework %s has no pipeline to re-run with a wrong temperature or "
                        "top-p: no power simulation\n", c.ft->name);
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
        if (sl_stat_gen_power(T, c.n_alt, claim_dist, &c, trials, alpha, SL_STAT_SIM_SEED_GEN, power, &err)) {
            rc = sl_cli_fail(&err);
            goto out;
        }
    }
    /* the smallest fault of each kind reaching 90 % */
    double det[2] = {NAN, NAN};
    for (size_t a = c.n_alt; a-- > 0;)
        if (power[a] >= 0.9)
            det[c.alt_kind[a]] = c.alt_value[a];
    if (g.json) {
        json_t *root = json_object(), *os = json_array(), *od = json_array();
        json_object_set_new(root, "framework", json_string(g.ft->name));
        json_object_set_new(root, "steps", json_integer((json_int_t)T));
        json_object_set_new(root, "V", json_integer((json_int_t)V));
        for (size_t i = 0; i < n_out; i++) {
            json_array_append_new(os, json_integer((json_int_t)out_steps[i]));
            json_t *o = json_object();
            json_object_set_new(o, "step", json_integer((json_int_t)out_steps[i]));
            json_object_set_new(o, "token", json_integer(obs[out_steps[i]]));
            json_object_set_new(o, "removed_by", json_string(out_why[i]));
            json_array_append_new(od, o);
        }
        json_object_set_new(root, "outside_kept", os);
        json_object_set_new(root, "outside_detail", od);
        json_t *ll = json_object();
        json_object_set_new(ll, "L", json_real(res.ll));
        json_object_set_new(ll, "mean", json_real(res.ll_mean));
        json_object_set_new(ll, "sd", json_real(res.ll_sd));
        json_object_set_new(ll, "z", json_real(res.ll_z));
        json_object_set_new(ll, "p", json_real(res.ll_p));
        json_object_set_new(root, "loglik", ll);
        json_t *ks = json_object();
        json_object_set_new(ks, "D", json_real(res.ks_d));
        json_object_set_new(ks, "p", json_real(res.ks_p));
        json_object_set_new(ks, "n", json_integer((json_int_t)sg.n_pit));
        json_object_set_new(ks, "uniforms", json_string(SL_STAT_GEN_RNG));
        json_object_set_new(ks, "seed", json_integer(SL_STAT_GEN_SEED));
        json_object_set_new(root, "pit_ks", ks);
        json_object_set_new(root, "p_value", json_real(res.p_value));
        json_object_set_new(root, "alpha", json_real(alpha));
        json_object_set_new(root, "verdict", json_string(res.reject ? "rejected" : "consistent"));
        if (trials) {
            json_t *pw = json_object(), *grid = json_array();
            json_object_set_new(pw, "trials", json_integer((json_int_t)trials));
            json_object_set_new(pw, "seed", json_integer(SL_STAT_SIM_SEED_GEN));
            json_object_set_new(pw, "target", json_real(0.9));
            for (size_t a = 0; a < c.n_alt; a++) {
                json_t *o = json_object();
                json_object_set_new(o, "fault", json_string(c.alt_kind[a] ? "top_p" : "temperature"));
                json_object_set_new(o, "value", json_real(c.alt_value[a]));
                json_object_set_new(o, "power", json_real(power[a]));
                json_array_append_new(grid, o);
            }
            json_object_set_new(pw, "grid", grid);
            json_object_set_new(pw, "temperature_detected", isnan(det[0]) ? json_null() : json_real(det[0]));
            json_object_set_new(pw, "top_p_detected", isnan(det[1]) ? json_null() : json_real(det[1]));
            json_object_set_new(root, "power", pw);
        }
        rc = sl_cli_json_emit(root);
    } else {
        printf("check: framework %s, %zu steps, V = %zu, alpha %g\n", g.ft->name, T, V, alpha);
        if (!n_out)
            printf("outside the kept set: none\n");
        for (size_t i = 0; i < n_out && i < 20; i++)
            printf("outside the kept set: step %zu, token %ld (removed by %s)\n", out_steps[i], obs[out_steps[i]],
                   out_why[i]);
        if (n_out > 20)
            printf("outside the kept set: ... %zu steps in all\n", n_out);
        printf("log-likelihood: L = %.6f, mean %.6f, sd %.6f under the claim: z = %.4f, p = %.6g\n", res.ll,
               res.ll_mean, res.ll_sd, res.ll_z, res.ll_p);
        printf("randomised PIT (tokens by decreasing probability, U from %s seed %u): KS D = %.6f over %zu steps, "
               "p = %.6g\n", SL_STAT_GEN_RNG, SL_STAT_GEN_SEED, res.ks_d, sg.n_pit, res.ks_p);
        printf("verdict: %s (p_value = min(1, 2 min(p_KS, p_LL)) = %.6g%s)\n", res.reject ? "rejected" : "consistent",
               res.p_value, n_out ? "; a token outside the kept set fails outright" : "");
        if (trials) {
            printf("power (%zu simulated logs per fault, splitmix64 seed %u, the verdict at alpha %g):\n", trials,
                   SL_STAT_SIM_SEED_GEN, alpha);
            for (size_t a = 0; a < c.n_alt; a++)
                printf("  %s %.6g: %.3f\n", c.alt_kind[a] ? "top-p" : "temperature", c.alt_value[a], power[a]);
            if (isnan(det[0]))
                printf("  temperature: no error up to T x 2 is detected with 90%% power\n");
            else
                printf("  temperature: detected with 90%% power from T = %.6g (claimed %.6g, +%.0f%%)\n", det[0],
                       claimed_t, 100 * (det[0] / claimed_t - 1));
            if (has_topp && isnan(det[1]))
                printf("  top-p: no narrower top-p on the grid is detected with 90%% power\n");
            else if (has_topp)
                printf("  top-p: detected with 90%% power from top-p %.6g (claimed %.6g)\n", det[1], claimed_p);
        }
        rc = 0;
    }
    if (!rc)
        rc = res.reject ? 1 : 0;
out:
    sl_stat_gen_free(&sg);
    sl_base_vec_free(&c.row);
    free(c.hist);
    free(c.out);
    free(out_steps);
    free(out_why);
    free(obs);
    sl_cli_gen_free(&g);
    return rc;
}
