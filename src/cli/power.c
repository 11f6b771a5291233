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

#include <jansson.h>

#include "cli/sl_cli.h"

#define MKL_FAULT "mkl-seed-collision"
#define MKL_FAULT_SUMMARY                                                                           \
    "torch 2.0-2.6 pip wheels' MKL exponential_ (PyTorch issue #132395): every call opens an MKL " \
    "MCG31m1 stream at one MT19937 word mod (2^31 - 1), so torch.multinomial(ones(26), 26) "       \
    "reaches at most 2^31 - 2 permutations"

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

/* --fault mkl-seed-collision: no simulation, the repeat test's tails in closed form. */
static int power_repeats(const sl_cli_arg *v, double alpha, double target, int json)
{
    static const sl_api_opt refused[] = {SL_API_OPT_PROBS, SL_API_OPT_LOGITS, SL_API_OPT_TENSOR, SL_API_OPT_ROW,
                                         SL_API_OPT_TEMPERATURE, SL_API_OPT_TRIALS};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
        if (v[refused[k]].given) {
            sl_cli_errf("samplab power: --fault " MKL_FAULT " takes no %s (its outcomes are fixed)\n",
                    sl_api_options[refused[k]].name);
            return 2;
        }
    /* 26! orderings, seen through 64-bit hashes; 2^31 - 2 MCG31m1 starts (x0 = 0 is replaced by 1). */
    double orderings = 1;
    for (int i = 2; i <= 26; i++)
        orderings *= i;
    double m = sl_stat_repeats_hashed_m(orderings), m_fault = 2147483646.0;
    sl_error err;
    sl_stat_repeats_power pw, at;
    if (sl_stat_repeats_power_n(m, m_fault, alpha, target, &pw, &err))
        return sl_cli_fail(&err);
    int has_n = v[SL_API_OPT_N].given;
    if (has_n && (v[SL_API_OPT_N].size == 0 || sl_stat_repeats_power_at(v[SL_API_OPT_N].size, m, m_fault, alpha, &at, &err))) {
        if (v[SL_API_OPT_N].size == 0)
            sl_cli_errf("samplab power: --n must be at least 1\n");
        return v[SL_API_OPT_N].size == 0 ? 2 : sl_cli_fail(&err);
    }
    const sl_stat_repeats_power *rows[2] = {&pw, has_n ? &at : NULL};
    if (json) {
        json_t *root = json_object();
        json_object_set_new(root, "fault", json_string(MKL_FAULT));
        json_object_set_new(root, "summary", json_string(MKL_FAULT_SUMMARY));
        json_object_set_new(root, "test", json_string("repeats"));
        json_object_set_new(root, "m", json_real(orderings));
        json_object_set_new(root, "m_null", json_real(m));
        json_object_set_new(root, "m_fault", json_real(m_fault));
        json_object_set_new(root, "alpha", json_real(alpha));
        json_object_set_new(root, "target_power", json_real(target));
        for (int k = 0; k < 2; k++) {
            const sl_stat_repeats_power *r = rows[k];
            if (!r)
                continue;
            json_t *o = json_object();
            json_object_set_new(o, "n", json_integer((json_int_t)r->n));
            json_object_set_new(o, "reject_at_repeats", json_integer((json_int_t)r->r_crit));
            json_object_set_new(o, "size", json_real(r->size));
            json_object_set_new(o, "power", json_real(r->power));
            json_object_set_new(o, "expected_repeats_fault", json_real(r->mean_fault));
            json_object_set_new(o, "expected_repeats_null", json_real(sl_stat_repeats_mean(r->n, orderings)));
            json_object_set_new(o, "expected_repeats_null_hashed", json_real(r->mean_null));
            json_object_set_new(o, "exact", json_boolean(r->exact));
            json_object_set_new(root, k ? "at_n" : "needed", o);
        }
        char *str = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
        json_decref(root);
        if (!str) {
            sl_cli_errf("samplab power: out of memory\n");
            return 2;
        }
        puts(str);
        free(str);
        return 0;
    }
    printf("fault: %s: %s\n", MKL_FAULT, MKL_FAULT_SUMMARY);
    printf("test: repeats (birthday): the permutations equal to an earlier one, as 64-bit hashes\n");
    printf("null: M = 26! = %.6g orderings (with the hash, a pair collides with probability 1/M + 2^-64)\n",
           orderings);
    printf("fault: M' = 2^31 - 2 = %.0f stream starts\n", m_fault);
    printf("alpha = %g, target power %g\n", alpha, target);
    for (int k = 0; k < 2; k++) {
        const sl_stat_repeats_power *r = rows[k];
        if (!r)
            continue;
        printf(k ? "\nat N = %llu calls:" : "\nN = %llu calls for power >= target:", (unsigned long long)r->n);
        printf(" reject at %llu repeat%s (size %.3g), power %.6f (%s)\n", (unsigned long long)r->r_crit,
               r->r_crit == 1 ? "" : "s", r->size, r->power, r->exact ? "exact" : "Poisson");
        printf("  expected repeats: %.6g under the fault, %.3g under the null (%.3g with the hash)\n", r->mean_fault,
               sl_stat_repeats_mean(r->n, orderings), r->mean_null);
    }
    return 0;
}

int sl_cli_power_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("power", argc, argv, power_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    sl_api_ref_opts ro;
    sl_cli_ref_from(&po, &ro);
    size_t n = v[SL_API_OPT_N].size, trials = v[SL_API_OPT_TRIALS].given ? v[SL_API_OPT_TRIALS].size : 200;
    double alpha = 0.01, target = 0.9;
    int json = v[SL_API_OPT_JSON].given;
    static const sl_api_opt levels[2] = {SL_API_OPT_ALPHA, SL_API_OPT_TARGET};
    for (int k = 0; k < 2; k++) {
        const sl_cli_arg *l = &v[levels[k]];
        if (!l->given)
            continue;
        if (!(l->d > 0 && l->d < 1)) {
            char e[SL_CLI_ESC_MAX];
            sl_cli_errf("samplab power: %s must be in (0,1), not %s\n", sl_api_options[levels[k]].name,
                    sl_cli_esc(l->text, e, sizeof e));
            return 2;
        }
        *(levels[k] == SL_API_OPT_ALPHA ? &alpha : &target) = l->d;
    }
    int only = -1;
    if (v[SL_API_OPT_FAULT].given) {
        if (!strcmp(v[SL_API_OPT_FAULT].text, MKL_FAULT))
            return power_repeats(v, alpha, target, json);
        for (int f = 0; f < SL_FAULT_COUNT; f++)
            if (!strcmp(v[SL_API_OPT_FAULT].text, sl_stat_fault_names[f]))
                only = f;
        if (only < 0) {
            char e[SL_CLI_ESC_MAX];
            sl_cli_errf("samplab power: unknown --fault %s (shift, leak, topk, temper, " MKL_FAULT ")\n",
                    sl_cli_esc(v[SL_API_OPT_FAULT].text, e, sizeof e));
            return 2;
        }
    }
    if (n == 0 || n > UINT32_MAX) {
        sl_cli_errf("samplab power: --n N is required, 1 <= N < 2^32\n");
        return 2;
    }
    if (trials == 0 || trials > 100000) {
        /* 200 trials take about 35 s at V = 49152: 10^5 are hours, more never ends */
        sl_cli_errf("samplab power: --trials must be between 1 and 100000, not %zu\n", trials);
        return 2;
    }
    sl_error err;
    sl_api_ref ref;
    if (sl_api_ref_load(&ro, &ref, &err))
        return sl_cli_fail(&err);
    /* the text is kept until the end: a run stopped by Ctrl-C prints nothing on stdout */
    char *text = NULL;
    size_t text_len = 0;
    FILE *txt = open_memstream(&text, &text_len);
    if (!txt) {
        sl_api_ref_free(&ref);
        sl_cli_errf("samplab power: out of memory\n");
        return 2;
    }
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, "power", "simulated samples");
    sl_stat_power s;
    int rc = sl_stat_power_init(&s, ref.p, ref.v, n, alpha, trials, SL_STAT_SIM_SEED, &pr.p, &err);
    if (rc) {
        sl_cli_progress_end(&pr);
        fclose(txt);
        free(text);
        sl_api_ref_free(&ref);
        return rc == SL_EINTR ? sl_cli_interrupt_exit("power", s.simulated, "simulated samples", "no result")
                              : sl_cli_fail(&err);
    }
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
        fprintf(txt, "reference: %s (V = %zu, support %zu)\n", ref.source, ref.v, ref.support);
        fprintf(txt, "N = %zu draws, alpha = %g, target power %g, %zu simulated samples per fault size\n", n, alpha,
               target, trials);
        fprintf(txt, "simulation: gsl_ran_multinomial over %s seeded %lu; TV critical value %.6g "
               "(null 1-alpha quantile of %zu samples)\n",
               SL_STAT_SIM_RNG, SL_STAT_SIM_SEED, s.tv_crit, s.null_reps);
    }
    double *q = malloc(ref.v * sizeof *q);
    if (!q) {
        sl_cli_errf("samplab power: out of memory\n");
        rc = 2;
        goto out;
    }
    for (int f = 0; f < SL_FAULT_COUNT; f++) {
        if (only >= 0 && f != only)
            continue;
        json_t *fo = json ? json_object() : NULL;
        /* Does the family apply to this p at all? */
        double probe = f == SL_FAULT_TOPK ? 1.0 : 0.5;
        if (sl_stat_fault_apply((sl_fault)f, ref.p, ref.v, probe, q, &err)) {
            if (json) {
                json_object_set_new(fo, "applies", json_false());
                json_object_set_new(fo, "why", json_string(err.msg));
            } else {
                fprintf(txt, "\n%s: %s\n  not applicable: %s\n", sl_stat_fault_names[f], sl_stat_fault_summaries[f], err.msg);
            }
            if (json)
                json_object_set_new(fams, sl_stat_fault_names[f], fo);
            continue;
        }
        if (!json)
            fprintf(txt, "\n%s: %s\n  %-5s %-12s %-14s %-8s\n", sl_stat_fault_names[f], sl_stat_fault_summaries[f], "test",
                   theta_name((sl_fault)f), "smallest TV", "power");
        json_t *tests = json ? json_object() : NULL;
        for (int t = 0; t < SL_TEST_COUNT; t++) {
            sl_stat_detect d;
            if ((rc = sl_stat_power_detect(&s, (sl_fault)f, t, target, &d, &err))) {
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
                fprintf(txt, "  %-5s %-12.6g %-14.6g %-8.3f\n", sl_stat_test_names[t], d.theta, d.tv, d.power);
            } else {
                fprintf(txt, "  %-5s not detected even at the largest fault (%s %.6g, TV %.6g, power %.3f)\n",
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
                if ((rc = sl_stat_fault_apply(SL_FAULT_TEMPER, ref.p, ref.v, Ts[k] - 1, q, &err)) ||
                    (rc = sl_stat_power_eval(&s, q, pw, &err))) {
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
                    fprintf(txt, "  at T = %.2f (TV %.6g): power", Ts[k], tv);
                    for (int t = 0; t < SL_TEST_COUNT; t++)
                        fprintf(txt, " %s %.3f", sl_stat_test_names[t], pw[t]);
                    fprintf(txt, "\n");
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
            fprintf(txt, "%s\n", str);
            free(str);
        }
    }
out:
    sl_cli_progress_end(&pr);
    fclose(txt);
    if (rc == SL_EINTR) {
        rc = sl_cli_interrupt_exit("power", s.simulated, "simulated samples", "no result");
    } else if (rc == 2 && !q) {
        /* out of memory, said above */
    } else if (rc) {
        sl_cli_errf("samplab power: %s\n", err.msg);
        rc = 2;
    } else if (text_len && fwrite(text, 1, text_len, stdout) != text_len) {
        rc = 2;
    }
    free(text);
    json_decref(fams);
    json_decref(root);
    free(q);
    sl_stat_power_free(&s);
    sl_api_ref_free(&ref);
    return rc;
}
