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

#include <gsl/gsl_cdf.h>
#include <jansson.h>

#include "cli/sl_cli.h"

#define CAL_BINS 10

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
    sl_cli_help_options(f, sl_cli_spec_lookup("calibrate"), "options:");
}

int sl_cli_calibrate_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("calibrate", argc, argv, calibrate_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    sl_api_ref_opts ro;
    sl_cli_ref_from(&po, &ro);
    const char *method = v[SL_API_OPT_METHOD].text, *first_text = v[SL_API_OPT_FIRST_SEED].text;
    const char *rng_name = v[SL_API_OPT_RNG].given ? v[SL_API_OPT_RNG].text : "pcg32";
    size_t n = v[SL_API_OPT_N].size, K = v[SL_API_OPT_SEEDS].size;
    int json = v[SL_API_OPT_JSON].given;
    char e[SL_CLI_ESC_MAX];
    if (!method || n == 0 || K == 0) {
        sl_cli_errf("samplab calibrate: --method M, --n N >= 1 and --seeds K >= 1 are required\n");
        return 2;
    }
    const sl_draw_type *dt = sl_draw_lookup(method);
    if (!dt) {
        sl_cli_errf("samplab calibrate: unknown method '%s' (exprace, cdf, linear, alias, greedy)\n",
                sl_cli_esc(method, e, sizeof e));
        return 2;
    }
    const sl_rng_type *rt = sl_rng_lookup(rng_name);
    if (!rt) {
        sl_cli_errf("samplab calibrate: unknown random source '%s' (samplab draw --help lists them)\n",
                sl_cli_esc(rng_name, e, sizeof e));
        return 2;
    }
    sl_error err;
    sl_seed first;
    memset(&first, 0, sizeof first);
    if (first_text) {
        if (sl_base_seed_parse(first_text, &first, &err))
            return sl_cli_fail_in(SL_API_NAME(FIRST_SEED), &err);
        if (first.hi) {
            sl_cli_errf("samplab calibrate: --first-seed must be below 2^64\n");
            return 2;
        }
    }
    sl_api_ref ref;
    if (sl_api_ref_load(&ro, &ref, &err))
        return sl_cli_fail(&err);
    int rc = 2;
    uint64_t *counts = malloc(ref.v * sizeof *counts);
    double *pv = malloc(K * sizeof *pv);
    sl_stat_cells cells;
    memset(&cells, 0, sizeof cells);
    if (!counts || !pv) {
        sl_cli_errf("samplab calibrate: out of memory\n");
        goto out;
    }
    if (sl_stat_cells_build(&cells, ref.p, ref.v, n, 5.0, &err)) {
        sl_cli_fail(&err);
        goto out;
    }
    if (cells.ncells < 2) {
        sl_cli_errf("samplab calibrate: %s: one chi-square cell at N = %zu, nothing to calibrate\n",
                sl_cli_esc(ref.source, e, sizeof e), n);
        goto out;
    }
    double df = (double)cells.ncells - 1;
    uint64_t outside_total = 0;
    size_t lo_tail = 0, hi_tail = 0, hist[CAL_BINS] = {0};
    /* a long run: progress per seed on a terminal, Ctrl-C stops it (checked every 2^20 draws) */
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, "calibrate", "seeds");
    for (size_t k = 0; k < K; k++) {
        sl_seed s = first;
        s.lo = first.lo + k;
        if (s.lo < first.lo) {
            sl_cli_progress_end(&pr);
            sl_cli_errf("samplab calibrate: seeds wrap past 2^64-1\n");
            goto out;
        }
        int drc = sl_cli_progress_tick(&pr, k, K) ? SL_EINTR
                                                  : sl_api_draw_counts(ref.p, ref.v, dt, rt, &s, n, counts, &pr.quiet, &err);
        if (drc == SL_EINTR) {
            sl_cli_progress_end(&pr);
            rc = sl_cli_interrupt_exit("calibrate", k, "seeds", "no result");
            goto out;
        }
        if (drc) {
            sl_cli_progress_end(&pr);
            sl_cli_fail(&err);
            goto out;
        }
        double chi2, g;
        uint64_t outside;
        if (sl_stat_chi2_g(&cells, counts, &chi2, &g, &outside, &err)) {
            sl_cli_progress_end(&pr);
            sl_cli_fail(&err);
            goto out;
        }
        outside_total += outside;
        /* A draw on a p = 0 token makes the sample fail outright: p-value 0. */
        pv[k] = 0.0;
        if (!outside && sl_stat_chisq_q(chi2, df, &pv[k], &err)) {
            sl_cli_progress_end(&pr);
            sl_cli_fail(&err);
            goto out;
        }
        lo_tail += pv[k] < 0.001;
        hi_tail += pv[k] > 0.999;
        size_t b = (size_t)(pv[k] * CAL_BINS);
        hist[b >= CAL_BINS ? CAL_BINS - 1 : b]++;
    }
    sl_cli_progress_end(&pr);
    double D, ksp;
    if (sl_stat_ks_uniform(pv, K, &D, &ksp, &err)) {
        sl_cli_fail(&err);
        goto out;
    }
    int suspect = ksp < 0.001 || ksp > 0.999;
    const char *tail = ksp < 0.001 ? "p < 0.001: the p-values are not uniform"
                       : ksp > 0.999 ? "p > 0.999: the p-values are too uniform"
                                     : "0.001 <= p <= 0.999";
    if (json) {
        json_t *o = json_object();
        json_object_set_new(o, "reference", json_string(ref.source));
        json_object_set_new(o, "method", json_string(dt->name));
        json_object_set_new(o, "rng", json_string(rt->name));
        json_object_set_new(o, "n", json_integer((json_int_t)n));
        json_object_set_new(o, "seeds", json_integer((json_int_t)K));
        json_object_set_new(o, "first_seed", json_integer((json_int_t)first.lo));
        json_object_set_new(o, "cells", json_integer((json_int_t)cells.ncells));
        json_t *ks = json_object();
        json_object_set_new(ks, "d", json_real(D));
        json_object_set_new(ks, "p", json_real(ksp));
        json_object_set_new(o, "ks", ks);
        json_object_set_new(o, "pvalues_below_0.001", json_integer((json_int_t)lo_tail));
        json_object_set_new(o, "pvalues_above_0.999", json_integer((json_int_t)hi_tail));
        json_object_set_new(o, "outside_support", json_integer((json_int_t)outside_total));
        json_t *h = json_array();
        for (int b = 0; b < CAL_BINS; b++)
            json_array_append_new(h, json_integer((json_int_t)hist[b]));
        json_object_set_new(o, "histogram", h);
        json_t *pa = json_array();
        for (size_t k = 0; k < K; k++)
            json_array_append_new(pa, json_real(pv[k]));
        json_object_set_new(o, "pvalues", pa);
        json_object_set_new(o, "verdict", json_string(suspect ? "SUSPECT" : "PASS"));
        char *str = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
        json_decref(o);
        if (str) {
            puts(str);
            free(str);
        }
    } else {
        printf("reference: %s (V = %zu, support %zu)\n", ref.source, ref.v, ref.support);
        printf("sampler: method %s over %s, N = %zu, seeds %llu..%llu (K = %zu)\n", dt->name, rt->name, n,
               (unsigned long long)first.lo, (unsigned long long)(first.lo + K - 1), K);
        printf("per seed: Pearson chi-square over %zu cells (df %.0f); pooling: %s\n", cells.ncells, df,
               SL_STAT_POOL_RULE);
        printf("draws on zero-probability tokens, all seeds: %llu\n", (unsigned long long)outside_total);
        printf("p-values < 0.001: %zu, > 0.999: %zu (expected %.3g each)\n", lo_tail, hi_tail, 0.001 * (double)K);
        printf("# histogram of the %zu p-values\n# bin\tlow\thigh\tcount\texpected\n", K);
        for (int b = 0; b < CAL_BINS; b++)
            printf("%d\t%.1f\t%.1f\t%zu\t%.6g\n", b, (double)b / CAL_BINS, (double)(b + 1) / CAL_BINS, hist[b],
                   (double)K / CAL_BINS);
        printf("KS uniformity: D = %.9g, p = %.6g (%s)\n", D, ksp, tail);
        printf("verdict: %s\n", suspect ? "SUSPECT" : "PASS");
    }
    rc = suspect ? 1 : 0;
out:
    sl_stat_cells_free(&cells);
    free(counts);
    free(pv);
    sl_api_ref_free(&ref);
    return rc;
}
