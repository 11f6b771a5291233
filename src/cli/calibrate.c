/* calibrate.c — `samplab calibrate`: runs gof's chi-square for K seeds of one
 * sampler and tests that the K p-values are Uniform(0,1) with the
 * Kolmogorov–Smirnov test (exact distribution, Marsaglia–Tsang–Wang 2003).
 * As TestU01's batteries do (bbattery.c), a p-value below 0.001 or above
 * 0.999 is flagged as suspect: too good a fit is as suspicious as a bad one.
 * Prints the histogram of the p-values (10 bins) as data to plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

#define CAL_BINS SL_API_CAL_BINS

static void calibrate_help(FILE *f)
{
    fprintf(f,
            "usage: samplab calibrate (--probs SRC | --logits SRC [--temperature T]) --method M\n"
            "                         [--rng R] --n N --seeds K [--first-seed S] [--json]\n\n"
            "Draws N tokens with method M over random source R (default pcg32) for each of the K\n"
            "seeds S, S+1, ..., S+K-1 (default S = 0), takes gof's Pearson chi-square p-value of\n"
            "each sample, and tests that the K p-values are uniform (Kolmogorov-Smirnov, exact\n"
            "distribution by Marsaglia, Tsang & Wang 2003). Flags both tails as TestU01 does:\n"
            "a KS p-value < 0.001 or > 0.999 is SUSPECT (exit 1). Also counts the per-seed\n"
            "p-values in each tail and prints a %d-bin histogram (bin, low, high, count, expected).\n"
            "Pooling of the chi-square cells: %s.\n",
            CAL_BINS, SL_STAT_POOL_RULE);
    fprintf(f, "\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("calibrate"), "options:");
}

static void print_text(const sl_api_calibrate_result *r)
{
    const sl_api_ref *ref = &r->ref;
    size_t K = r->K;
    printf("reference: %s (V = %zu, support %zu)\n", ref->source, ref->v, ref->support);
    printf("sampler: method %s over %s, N = %zu, seeds %llu..%llu (K = %zu)\n", r->dt->name, r->rt->name, r->n,
           (unsigned long long)r->first.lo, (unsigned long long)(r->first.lo + K - 1), K);
    printf("per seed: Pearson chi-square over %zu cells (df %.0f); pooling: %s\n", r->cells.ncells, r->df,
           SL_STAT_POOL_RULE);
    printf("draws on zero-probability tokens, all seeds: %llu\n", (unsigned long long)r->outside_total);
    printf("p-values < 0.001: %zu, > 0.999: %zu (expected %.3g each)\n", r->lo_tail, r->hi_tail, 0.001 * (double)K);
    printf("# histogram of the %zu p-values\n# bin\tlow\thigh\tcount\texpected\n", K);
    for (int b = 0; b < CAL_BINS; b++)
        printf("%d\t%.1f\t%.1f\t%zu\t%.6g\n", b, (double)b / CAL_BINS, (double)(b + 1) / CAL_BINS, r->hist[b],
               (double)K / CAL_BINS);
    const char *tail = r->ksp < 0.001   ? "p < 0.001: the p-values are not uniform"
                       : r->ksp > 0.999 ? "p > 0.999: the p-values are too uniform"
                                        : "0.001 <= p <= 0.999";
    printf("KS uniformity: D = %.9g, p = %.6g (%s)\n", r->D, r->ksp, tail);
    printf("verdict: %s\n", r->suspect ? "SUSPECT" : "PASS");
}

int sl_cli_calibrate_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/calibrate.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("calibrate", argc, argv, calibrate_help, &po, &s, &src);
    if (st >= 0)
        return st;
    /* a long run: progress per seed on a terminal, Ctrl-C stops it (checked every 2^20 draws) */
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, "calibrate", "seeds");
    sl_api_calibrate_result r;
    sl_error err;
    int rc = sl_api_calibrate_run(&src, po.a[SL_API_OPT_LOGITS].given, &s, &pr.p, &r, &err);
    sl_cli_progress_end(&pr);
    if (rc == SL_EINTR)
        rc = sl_cli_interrupt_exit("calibrate", r.done, "seeds", "no result");
    else if (rc)
        rc = sl_cli_api_fail(&err);
    else if (po.a[SL_API_OPT_JSON].given)
        rc = sl_cli_emit(sl_api_calibrate_result_json(&r)) ? 2 : r.suspect;
    else {
        print_text(&r);
        rc = r.suspect;
    }
    sl_api_calibrate_result_free(&r);
    return rc;
}
