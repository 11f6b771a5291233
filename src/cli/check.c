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
    sl_cli_help_options(f, sl_api_cmd_lookup("check"), "options:");
}

/* ---------------------------------------------------------------- with a seed */

static void print_seeded(const sl_api_check_result *r)
{
    const sl_api_divergence d = r->d;
    size_t T = r->g.steps.t;
    const long *obs = r->obs;
    const sl_fw_type *ft = r->g.ft;
    size_t B = r->g.is_batch ? r->g.batch.B : 0;
    if (d.step == T) {
        if (B)
            printf("check: %s, %zu steps of %zu rows: every observed token is the one the seeded batch draws\n",
                   ft->name, T, B);
        else
            printf("check: %s, %zu steps: every observed token is the one the seeded sampler draws\n", ft->name, T);
    } else if (B) {
        printf("check: %s: first divergence at step %zu of %zu, row %zu of %zu: observed %ld (p = %.9g), the seeded "
               "batch draws %ld (p = %.9g)\n", ft->name, d.step, T, d.row, B, obs[d.row * T + d.step], d.p_observed,
               d.predicted, d.p_predicted);
    } else {
        printf("check: %s: first divergence at step %zu of %zu: observed %ld (p = %.9g), the seeded sampler "
               "draws %ld (p = %.9g)\n", ft->name, d.step, T, obs[d.step], d.p_observed, d.predicted,
               d.p_predicted);
    }
}

int sl_cli_check_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings set; /* the settings as the library call takes them: one path for both (api/check.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("check", argc, argv, check_help, &po, &set, &src);
    if (st >= 0)
        return st;
    sl_api_check_result C;
    sl_error err;
    sl_cli_fw_note("check", &set);
    int rc = sl_api_check_run(&src, po.a[SL_API_OPT_LOGITS].given, NULL, 0, NULL, 0, &set, &C, &err);
    if (rc) {
        sl_api_check_result_free(&C);
        return sl_cli_api_fail(&err);
    }
    int json = po.a[SL_API_OPT_JSON].given;
    if (C.seeded) {
        if (json)
            rc = sl_cli_emit(sl_api_check_result_json(&C));
        else
            print_seeded(&C);
        if (!rc)
            rc = C.d.step == C.g.steps.t ? 0 : 1;
        sl_api_check_result_free(&C);
        return rc;
    }
    const sl_api_check_log_result *R = &C.log;
    const sl_fw_type *ft = C.g.ft;
    if (R->no_pipeline_note)
        /* faults are re-runs of the pipeline with other settings: none to re-run */
        sl_cli_errf("samplab check: note: framework %s has no pipeline to re-run with a wrong temperature or "
                    "top-p: no power simulation\n", ft->name);
    const long *obs = C.obs;
    size_t T = C.g.steps.t, V = C.g.steps.v, trials = R->trials, n_out = R->n_out;
    double alpha = C.alpha;
    const size_t *out_steps = R->out_steps;
    const char *const *out_why = R->out_why;
    const sl_stat_gen_result res = R->res;
    const double *power = R->power, *det = R->det;
    double claimed_t = R->claimed_t, claimed_p = R->claimed_p;
    int has_topp = R->has_topp;
    if (json) {
        rc = sl_cli_emit(sl_api_check_result_json(&C));
    } else {
        printf("check: framework %s, %zu steps, V = %zu, alpha %g\n", ft->name, T, V, alpha);
        if (!n_out)
            printf("outside the kept set: none\n");
        for (size_t i = 0; i < n_out && i < 20; i++)
            printf("outside the kept set: step %zu, token %ld (removed by %s)\n", out_steps[i], obs[out_steps[i]],
                   out_why[i]);
        if (n_out > 20)
            printf("outside the kept set: ... %zu steps in all\n", n_out);
        printf("log-likelihood: L = %.6f, mean %.6f, sd %.6g under the claim: z = %.4f, p = %.6g\n", res.ll,
               res.ll_mean, res.ll_sd, res.ll_z, res.ll_p);
        printf("randomised PIT (tokens by decreasing probability, U from %s seed %u): KS D = %.6f over %zu steps, "
               "p = %.6g\n", SL_STAT_GEN_RNG, SL_STAT_GEN_SEED, res.ks_d, R->n_pit, res.ks_p);
        printf("verdict: %s (p_value = min(1, 2 min(p_KS, p_LL)) = %.6g%s)\n", res.reject ? "rejected" : "consistent",
               res.p_value, n_out ? "; a token outside the kept set fails outright" : "");
        if (trials) {
            printf("power (%zu simulated logs per fault, splitmix64 seed %u, the verdict at alpha %g):\n", trials,
                   SL_STAT_SIM_SEED_GEN, alpha);
            for (size_t a = 0; a < R->n_alt; a++)
                printf("  %s %.6g: %.3f\n", R->alt_kind[a] ? "top-p" : "temperature", R->alt_value[a], power[a]);
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
    }
    if (!rc)
        rc = res.reject ? 1 : 0;
    sl_api_check_result_free(&C);
    return rc;
}
