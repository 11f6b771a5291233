/* power.c — `samplab power`: is N draws enough to see a realistic sampler bug?
 * For each fault family of stats/power.c (off-by-one shift, leak onto a
 * zero-probability token, top-k without renormalisation, temperature off),
 * the smallest fault, in TV from p, that each test detects with 90% power
 * at N draws, by simulation with a fixed seed. --fault mkl-seed-collision is
 * the repeat test against torch's MKL seed collisions instead (stats/repeats.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

#define MKL_FAULT SL_API_MKL_FAULT

static void power_help(FILE *f)
{
    fprintf(f,
            "usage: samplab power (--probs SRC | --logits SRC [--temperature T]) --n N\n"
            "                     [--alpha A] [--trials K] [--target P] [--fault F] [--json]\n"
            "       samplab power --fault " MKL_FAULT " [--n N] [--alpha A] [--target P] [--json]\n\n"
            "For each fault family, the smallest fault (in TV from p) that each test detects\n"
            "with power >= P (default 0.9) at N draws and level A (default 0.01), estimated from\n"
            "K simulated samples per fault size (default 200; standard error ~ sqrt(0.09/K) at 0.9).\n"
            "Simulation: gsl_ran_multinomial (or N alias draws when cheaper) over %s seeded %lu,\n"
            "common random numbers for "
            "every fault size; the fault size is found by bisection (power assumed to grow with it).\n"
            "Cost grows with trials x V: about 35 s of CPU for V = 49152, N = 100000, K = 200.\n\n"
            "fault families:\n",
            SL_STAT_SIM_RNG, SL_STAT_SIM_SEED);
    for (int k = 0; k < SL_FAULT_COUNT; k++)
        fprintf(f, "  %-7s %s\n", sl_stat_fault_names[k], sl_stat_fault_summaries[k]);
    fprintf(f,
            "  (temper also reports the power at T = 1.05 and T = 0.95 exactly)\n\n"
            "--fault " MKL_FAULT ": torch 2.0-2.6 pip wheels' MKL exponential_ (PyTorch\n"
            "issue #132395) opens an MCG31m1 stream at one MT19937 word mod (2^31 - 1) a call, so\n"
            "torch.multinomial(ones(26), 26) reaches at most 2^31 - 2 permutations.\n"
            "The repeat (birthday) test counts the permutations seen before (64-bit hashes) and\n"
            "rejects when P(R >= repeats) <= A under 26! equally likely orderings; the study prints\n"
            "the smallest N (calls) with power >= P against 2^31 - 2 equally likely ones (exact\n"
            "birthday product, or Poisson with mean N(N-1)/2M), and with --n the power at N.\n\n"
            "tests:\n"
            "  chi2    Pearson chi-square over pooled cells, p < A\n"
            "  G       G-test over the same cells, p < A\n"
            "  TV      TV above its simulated null 1-A quantile\n"
            "  zero    any draw on a p = 0 token\n"
            "  gof     samplab gof's verdict (zero or chi2)\n\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("power"), "options:");
}

/* --fault mkl-seed-collision: the repeat test's tails, as text. */
static void print_repeats(const sl_api_power_result *r)
{
    printf("fault: %s: %s\n", MKL_FAULT, SL_API_MKL_FAULT_SUMMARY);
    printf("test: repeats (birthday): the permutations equal to an earlier one, as 64-bit hashes\n");
    printf("null: M = 26! = %.6g orderings (with the hash, a pair collides with probability 1/M + 2^-64)\n",
           r->orderings);
    printf("fault: M' = 2^31 - 2 = %.0f stream starts\n", r->m_fault);
    printf("alpha = %g, target power %g\n", r->alpha, r->target);
    const sl_stat_repeats_power *rows[2] = {&r->needed, r->has_at ? &r->at : NULL};
    for (int k = 0; k < 2; k++) {
        const sl_stat_repeats_power *x = rows[k];
        if (!x)
            continue;
        printf(k ? "\nat N = %llu calls:" : "\nN = %llu calls for power >= target:", (unsigned long long)x->n);
        printf(" reject at %llu repeat%s (size %.3g), power %.6f (%s)\n", (unsigned long long)x->r_crit,
               x->r_crit == 1 ? "" : "s", x->size, x->power, x->exact ? "exact" : "Poisson");
        printf("  expected repeats: %.6g under the fault, %.3g under the null (%.3g with the hash)\n", x->mean_fault,
               sl_stat_repeats_mean(x->n, r->orderings), x->mean_null);
    }
}

static void print_text(const sl_api_power_result *r)
{
    const sl_api_ref *ref = &r->ref;
    printf("reference: %s (V = %zu, support %zu)\n", ref->source, ref->v, ref->support);
    printf("N = %zu draws, alpha = %g, target power %g, %zu simulated samples per fault size\n", r->n, r->alpha,
           r->target, r->trials);
    printf("simulation: gsl_ran_multinomial over %s seeded %lu; TV critical value %.6g "
           "(null 1-alpha quantile of %zu samples)\n",
           SL_STAT_SIM_RNG, SL_STAT_SIM_SEED, r->s.tv_crit, r->s.null_reps);
    for (int f = 0; f < SL_FAULT_COUNT; f++) {
        const sl_api_power_family *fam = &r->fam[f];
        const char *theta = sl_api_power_theta_name(f);
        if (!fam->run)
            continue;
        if (!fam->applies) {
            printf("\n%s: %s\n  not applicable: %s\n", sl_stat_fault_names[f], sl_stat_fault_summaries[f], fam->why);
            continue;
        }
        printf("\n%s: %s\n  %-5s %-12s %-14s %-8s\n", sl_stat_fault_names[f], sl_stat_fault_summaries[f], "test",
               theta, "smallest TV", "power");
        for (int t = 0; t < SL_TEST_COUNT; t++) {
            const sl_stat_detect *d = &fam->detect[t];
            if (d->found)
                printf("  %-5s %-12.6g %-14.6g %-8.3f\n", sl_stat_test_names[t], d->theta, d->tv, d->power);
            else
                printf("  %-5s not detected even at the largest fault (%s %.6g, TV %.6g, power %.3f)\n",
                       sl_stat_test_names[t], theta, d->theta, d->tv, d->power);
        }
        if (f != SL_FAULT_TEMPER)
            continue;
        for (int k = 0; k < 2; k++) {
            printf("  at T = %.2f (TV %.6g): power", fam->at_t[k], fam->at_tv[k]);
            for (int t = 0; t < SL_TEST_COUNT; t++)
                printf(" %s %.3f", sl_stat_test_names[t], fam->at_power[k][t]);
            printf("\n");
        }
    }
}

int sl_cli_power_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/power.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("power", argc, argv, power_help, &po, &s, &src);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    int is_logits = v[SL_API_OPT_LOGITS].given;
    if (v[SL_API_OPT_PROBS].given && is_logits && s.fault && !strcmp(s.fault, MKL_FAULT)) {
        /* both sources given: the fault's refusal names the first, --probs */
        src.spec = v[SL_API_OPT_PROBS].text;
        is_logits = 0;
    }
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, "power", "simulated samples");
    sl_api_power_result r;
    sl_error err;
    int rc = sl_api_power_run(&src, is_logits, &s, &pr.p, &r, &err);
    sl_cli_progress_end(&pr);
    /* nothing is printed on stdout before the end: a run stopped by Ctrl-C prints no result */
    if (rc == SL_EINTR)
        rc = sl_cli_interrupt_exit("power", r.simulated, "simulated samples", "no result");
    else if (rc)
        rc = sl_cli_api_fail(&err);
    else if (v[SL_API_OPT_JSON].given)
        rc = sl_cli_emit(sl_api_power_result_json(&r));
    else if (r.repeats)
        print_repeats(&r);
    else
        print_text(&r);
    sl_api_power_result_free(&r);
    return rc;
}
