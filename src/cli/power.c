/* power.c — `samplab power`: is N draws enough to see a realistic sampler bug?
 * For each fault family of stats/power.c (off-by-one shift, leak onto a
 * zero-probability token, top-k without renormalisation, temperature off),
 * the smallest fault, in TV from p, that each test detects with 90% power
 * at N draws, by simulation with a fixed seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sl_cli.h"

static void power_help(FILE *f)
{
    fprintf(f,
            "usage: samplab power (--probs SRC | --logits SRC [--temperature T]) --n N\n"
            "                     [--alpha A] [--trials K] [--target P] [--json]\n\n"
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
            "tests:\n"
            "  chi2    Pearson chi-square over pooled cells, p < A\n"
            "  G       G-test over the same cells, p < A\n"
            "  TV      TV above its simulated null 1-A quantile\n"
            "  zero    any draw on a p = 0 token\n"
            "  gof     samplab gof's verdict (zero or chi2)\n\n");
    sl_cli_help_options(f, sl_cli_spec_lookup("power"), "options:");
}

static const char *theta_name(sl_fault f)
{
    switch (f) {
    case SL_FAULT_SHIFT: return "fraction";
    case SL_FAULT_LEAK: return "mass";
    case SL_FAULT_TOPK: return "k";
    default: return "T-1";
    }
}

int sl_cli_power_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("power", argc, argv, power_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    sl_cli_ref_opts ro;
    sl_cli_ref_from(&po, &ro);
    size_t n = v[SL_CLI_N].size, trials = v[SL_CLI_TRIALS].given ? v[SL_CLI_TRIALS].size : 200;
    double alpha = 0.01, target = 0.9;
    int json = v[SL_CLI_JSON].given;
    static const sl_cli_opt levels[2] = {SL_CLI_ALPHA, SL_CLI_TARGET};
    for (int k = 0; k < 2; k++) {
        const sl_cli_arg *l = &v[levels[k]];
        if (!l->given)
            continue;
        if (!(l->d > 0 && l->d < 1)) {
            char e[SL_CLI_ESC_MAX];
            fprintf(stderr, "samplab power: %s must be in (0,1), not %s\n", sl_cli_options[levels[k]].name,
                    sl_cli_esc(l->text, e, sizeof e));
            return 2;
        }
        *(levels[k] == SL_CLI_ALPHA ? &alpha : &target) = l->d;
    }
    if (n == 0 || n > UINT32_MAX) {
        fprintf(stderr, "samplab power: --n N is required, 1 <= N < 2^32\n");
        return 2;
    }
    if (trials == 0) {
        fprintf(stderr, "samplab power: --trials must be at least 1\n");
        return 2;
    }
    sl_error err;
    sl_cli_ref ref;
    if (sl_cli_ref_load(&ro, &ref, &err))
        return sl_cli_fail(&err);
    sl_stat_power s;
    if (sl_stat_power_init(&s, ref.p, ref.v, n, alpha, trials, SL_STAT_SIM_SEED, &err)) {
        sl_cli_ref_free(&ref);
        return sl_cli_fail(&err);
    }
    int rc = 0;
    json_t *root = json ? json_object() : NULL;
    json_t *fams = json ? json_object() : NULL;
    if (json) {
        json_object_set_new(root, "reference", json_string(ref.source));
        json_object_set_new(root, "n", json_integer((json_int_t)n));
        json_object_set_new(root, "v", json_integer((json_int_t)ref.v));
        json_object_set_new(root, "support", json_integer((json_int_t)ref.support));
        json_object_set_new(root, "alpha", json_real(alpha));
        json_object_set_new(root, "target_power", json_real(target));
        json_object_set_new(root, "trials", json_integer((json_int_t)trials));
        json_object_set_new(root, "tv_critical", json_real(s.tv_crit));
        json_object_set_new(root, "simulation", json_string(SL_STAT_SIM_RNG));
        json_object_set_new(root, "seed", json_integer((json_int_t)SL_STAT_SIM_SEED));
    } else {
        printf("reference: %s (V = %zu, support %zu)\n", ref.source, ref.v, ref.support);
        printf("N = %zu draws, alpha = %g, target power %g, %zu simulated samples per fault size\n", n, alpha,
               target, trials);
        printf("simulation: gsl_ran_multinomial over %s seeded %lu; TV critical value %.6g "
               "(null 1-alpha quantile of %zu samples)\n",
               SL_STAT_SIM_RNG, SL_STAT_SIM_SEED, s.tv_crit, s.null_reps);
    }
    double *q = malloc(ref.v * sizeof *q);
    if (!q) {
        fprintf(stderr, "samplab power: out of memory\n");
        rc = 2;
        goto out;
    }
    for (int f = 0; f < SL_FAULT_COUNT; f++) {
        json_t *fo = json ? json_object() : NULL;
        /* Does the family apply to this p at all? */
        double probe = f == SL_FAULT_TOPK ? 1.0 : 0.5;
        if (sl_stat_fault_apply((sl_fault)f, ref.p, ref.v, probe, q, &err)) {
            if (json) {
                json_object_set_new(fo, "applies", json_false());
                json_object_set_new(fo, "why", json_string(err.msg));
            } else {
                printf("\n%s: %s\n  not applicable: %s\n", sl_stat_fault_names[f], sl_stat_fault_summaries[f], err.msg);
            }
            if (json)
                json_object_set_new(fams, sl_stat_fault_names[f], fo);
            continue;
        }
        if (!json)
            printf("\n%s: %s\n  %-5s %-12s %-14s %-8s\n", sl_stat_fault_names[f], sl_stat_fault_summaries[f], "test",
                   theta_name((sl_fault)f), "smallest TV", "power");
        json_t *tests = json ? json_object() : NULL;
        for (int t = 0; t < SL_TEST_COUNT; t++) {
            sl_stat_detect d;
            if (sl_stat_power_detect(&s, (sl_fault)f, t, target, &d, &err)) {
                fprintf(stderr, "samplab power: %s\n", err.msg);
                rc = 2;
                json_decref(fo);
                json_decref(tests);
                goto out;
            }
            if (json) {
                json_t *o = json_object();
                json_object_set_new(o, "detected", json_boolean(d.found));
                json_object_set_new(o, "theta", json_real(d.theta));
                json_object_set_new(o, "tv", json_real(d.tv));
                json_object_set_new(o, "power", json_real(d.power));
                json_object_set_new(tests, sl_stat_test_names[t], o);
            } else if (d.found) {
                printf("  %-5s %-12.6g %-14.6g %-8.3f\n", sl_stat_test_names[t], d.theta, d.tv, d.power);
            } else {
                printf("  %-5s not detected even at the largest fault (%s %.6g, TV %.6g, power %.3f)\n",
                       sl_stat_test_names[t], theta_name((sl_fault)f), d.theta, d.tv, d.power);
            }
        }
        if (json) {
            json_object_set_new(fo, "applies", json_true());
            json_object_set_new(fo, "summary", json_string(sl_stat_fault_summaries[f]));
            json_object_set_new(fo, "parameter", json_string(theta_name((sl_fault)f)));
            json_object_set_new(fo, "smallest", tests);
        }
        if (f == SL_FAULT_TEMPER) {
            static const double Ts[2] = {1.05, 0.95};
            json_t *at = json ? json_array() : NULL;
            for (int k = 0; k < 2; k++) {
                double pw[SL_TEST_COUNT];
                if (sl_stat_fault_apply(SL_FAULT_TEMPER, ref.p, ref.v, Ts[k] - 1, q, &err) ||
                    sl_stat_power_eval(&s, q, pw, &err)) {
                    fprintf(stderr, "samplab power: %s\n", err.msg);
                    rc = 2;
                    json_decref(at);
                    json_decref(fo);
                    goto out;
                }
                double tv = sl_stat_tv_dist(ref.p, q, ref.v);
                if (json) {
                    json_t *o = json_object();
                    json_object_set_new(o, "temperature", json_real(Ts[k]));
                    json_object_set_new(o, "tv", json_real(tv));
                    for (int t = 0; t < SL_TEST_COUNT; t++)
                        json_object_set_new(o, sl_stat_test_names[t], json_real(pw[t]));
                    json_array_append_new(at, o);
                } else {
                    printf("  at T = %.2f (TV %.6g): power", Ts[k], tv);
                    for (int t = 0; t < SL_TEST_COUNT; t++)
                        printf(" %s %.3f", sl_stat_test_names[t], pw[t]);
                    printf("\n");
                }
            }
            if (json)
                json_object_set_new(fo, "at", at);
        }
        if (json)
            json_object_set_new(fams, sl_stat_fault_names[f], fo);
    }
    if (json) {
        json_object_set_new(root, "faults", fams);
        fams = NULL;
        char *str = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
        if (str) {
            puts(str);
            free(str);
        }
    }
out:
    json_decref(fams);
    json_decref(root);
    free(q);
    sl_stat_power_free(&s);
    sl_cli_ref_free(&ref);
    return rc;
}
