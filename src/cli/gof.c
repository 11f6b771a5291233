/* gof.c — `samplab gof`: does a sampler draw from the distribution it claims?
 * Takes anyone's draws (a file of token ids), counts (as `samplab draw
 * --counts` prints them), or draws N tokens itself with a method and a
 * random source; prints Pearson's chi-square and the G-test over pooled
 * cells, TV against its null, max |f - p|, the largest residuals and the
 * draws on zero-probability tokens, then a verdict naming the deciding rule.
 * Exit 0 consistent, 1 rejected, 2 bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

static void gof_help(FILE *f)
{
    fprintf(f,
            "usage: samplab gof (--probs SRC | --logits SRC [--temperature T])\n"
            "                   (--draws FILE | --counts FILE | --method M [--rng R] [--seed S] --n N)\n"
            "                   [--alpha A] [--null-reps R] [--json]\n\n"
            "Tests whether draws come from the reference distribution p.\n\n"
            "Rules, in order (the verdict names the one that decided):\n"
            "  1. any draw on a token with p = 0 fails outright;\n"
            "  2. Pearson's chi-square p-value < alpha fails;\n"
            "  otherwise PASS. The G-test and TV are reported beside it.\n"
            "Pooling: %s.\n"
            "TV null: mean exact (de Moivre's binomial mean absolute deviation); 99th percentile\n"
            "simulated (200 to 2000 multinomial samples, gsl_ran_multinomial or gsl_ran_discrete,\n"
            "whichever is cheaper) over %s seeded %lu.\n\n"
            "A long run shows its progress on stderr when stderr is a terminal; Ctrl-C stops it with one\n"
            "line and no result. At most %llu draws are read from --draws (10^12).\n\n"
            "Exit status: 0 consistent (PASS), 1 rejected (FAIL), 2 bad input or usage, 130 interrupted.\n",
            SL_STAT_POOL_RULE, SL_STAT_SIM_RNG, SL_STAT_SIM_SEED, (unsigned long long)SL_IO_MAX_DRAWS);
    fprintf(f, "\n");
    sl_cli_help_options(f, sl_cli_spec_lookup("gof"), "options:");
}

int sl_cli_gof_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("gof", argc, argv, gof_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    sl_api_ref_opts ro;
    sl_cli_ref_from(&po, &ro);
    const char *draws = v[SL_CLI_DRAWS].text, *counts_path = v[SL_CLI_COUNTS_FILE].text;
    const char *method = v[SL_CLI_METHOD].text, *seed_text = v[SL_CLI_SEED].text;
    const char *rng_name = v[SL_CLI_RNG].given ? v[SL_CLI_RNG].text : "pcg32";
    size_t n_opt = v[SL_CLI_N].size, reps_opt = v[SL_CLI_NULL_REPS].size;
    int has_n = v[SL_CLI_N].given, json = v[SL_CLI_JSON].given, has_reps = v[SL_CLI_NULL_REPS].given;
    double alpha = v[SL_CLI_ALPHA].given ? v[SL_CLI_ALPHA].d : 0.01;
    char e[SL_CLI_ESC_MAX];
    if (!(alpha > 0 && alpha < 1)) {
        sl_cli_errf("samplab gof: --alpha must be in (0,1), not %s\n", sl_cli_esc(v[SL_CLI_ALPHA].text, e, sizeof e));
        return 2;
    }
    if (has_reps && reps_opt > 1000000) { /* the default is at most 2000 (about 0.15 s) */
        sl_cli_errf("samplab gof: --null-reps must be at most 1000000, not %zu\n", reps_opt);
        return 2;
    }
    if ((draws != NULL) + (counts_path != NULL) + (method != NULL) != 1) {
        sl_cli_errf("samplab gof: give exactly one of --draws FILE, --counts FILE, --method M\n");
        return 2;
    }
    if (method && (!has_n || n_opt == 0)) {
        sl_cli_errf("samplab gof: --method needs --n N (N >= 1 draws)\n");
        return 2;
    }
    if (!method && (has_n || seed_text || strcmp(rng_name, "pcg32"))) {
        sl_cli_errf("samplab gof: --n, --rng and --seed go with --method only\n");
        return 2;
    }
    const sl_draw_type *dt = NULL;
    const sl_rng_type *rt = NULL;
    sl_seed seed;
    sl_error err;
    if (method) {
        if (!(dt = sl_draw_lookup(method))) {
            sl_cli_errf("samplab gof: unknown method '%s' (exprace, cdf, linear, alias, greedy)\n",
                    sl_cli_esc(method, e, sizeof e));
            return 2;
        }
        if (!(rt = sl_rng_lookup(rng_name))) {
            sl_cli_errf("samplab gof: unknown random source '%s' (samplab draw --help lists them)\n",
                    sl_cli_esc(rng_name, e, sizeof e));
            return 2;
        }
    }
    if (sl_cli_seed(method ? seed_text : NULL, NULL, &seed))
        return 2;
    sl_api_ref ref;
    if (sl_api_ref_load(&ro, &ref, &err))
        return sl_cli_fail(&err);
    int rc = 2;
    uint64_t *counts = calloc(ref.v, sizeof *counts);
    uint64_t n = 0;
    const char *draws_name = NULL;
    sl_cli_progress pr;
    if (!counts) {
        sl_cli_errf("samplab gof: out of memory for %zu counts\n", ref.v);
        goto out;
    }
    /* a long read or run: progress on a terminal, Ctrl-C stops it with one line */
    sl_cli_progress_begin(&pr, "gof", draws ? "draws read" : "draws made");
    if (draws) {
        int drc = sl_io_draws_read(draws, ref.v, counts, &n, &pr.p, &err);
        sl_cli_progress_end(&pr);
        if (drc == SL_EINTR) {
            rc = sl_cli_interrupt_exit("gof", n, "draws read", "no result");
            goto out;
        }
        if (drc) {
            sl_cli_fail(&err);
            goto out;
        }
        draws_name = strcmp(draws, "-") ? draws : "<stdin>";
    } else if (counts_path) {
        sl_cli_progress_end(&pr);
        if (sl_io_counts_read(counts_path, ref.v, counts, &n, &err)) {
            sl_cli_fail(&err);
            goto out;
        }
        draws_name = strcmp(counts_path, "-") ? counts_path : "<stdin>";
    } else {
        n = n_opt;
        int drc = sl_api_draw_counts(ref.p, ref.v, dt, rt, &seed, n, counts, &pr.p, &err);
        sl_cli_progress_end(&pr);
        if (drc == SL_EINTR) {
            sl_cli_errf("samplab gof: %s (Ctrl-C); no result\n", err.msg);
            rc = SL_CLI_EXIT_INTERRUPTED;
            goto out;
        }
        if (drc) {
            sl_cli_fail(&err);
            goto out;
        }
    }
    sl_stat_gof g;
    if (sl_stat_gof_compute(ref.p, counts, ref.v, &g, &err)) {
        sl_cli_fail(&err);
        goto out;
    }
    sl_stat_gof_test t;
    if (sl_stat_gof_tv_null(ref.p, ref.v, ref.support, n, reps_opt, !has_reps, &t, &err)) {
        sl_cli_errf("samplab gof: TV null simulation failed: %s\n", err.msg);
        goto out;
    }
    double tv_mean = t.tv_null_mean, tv_q99 = t.tv_null_q99;
    size_t reps = t.tv_null_reps;
    /* The verdict. */
    char rule[320];
    int fail = sl_stat_gof_verdict(&g, alpha, rule, sizeof rule);
    char replay[1024] = "";
    if (method)
        sl_api_gof_replay(replay, sizeof replay, &ref, &ro, dt, rt, &seed, n_opt);
    const char *tvmethod = t.tv_null_method;
    if (json) {
        t.g = g;
        t.alpha = alpha;
        t.fail = fail;
        snprintf(t.rule, sizeof t.rule, "%s", rule);
        char *js = sl_api_gof_json(&ref, method ? NULL : draws_name, &t, method ? replay : NULL);
        if (!js) {
            sl_cli_errf("samplab gof: out of memory for JSON\n");
            goto out;
        }
        puts(js);
        free(js);
    } else {
        printf("reference: %s (V = %zu, support %zu tokens", ref.source, ref.v, ref.support);
        if (ref.from_logits)
            printf(", softmax at temperature %.17g)\n", ref.temperature);
        else
            printf(", weights divided by their sum %.17g)\n", ref.weight_sum);
        if (method)
            printf("draws: %llu by method %s over %s (replay: %s)\n", (unsigned long long)n, dt->name, rt->name,
                   replay);
        else
            printf("draws: %s (N = %llu)\n", draws_name, (unsigned long long)n);
        printf("pooling: %s\n", SL_STAT_POOL_RULE);
        printf("  %zu cells from %zu tokens; %zu tokens pooled into %zu cells\n", g.ncells, ref.support,
               g.pooled_tokens, g.pooled_cells);
        printf("chi-square (Pearson) = %.17g  df = %ld  p = %.6g\n", g.chi2, g.df, g.chi2_p);
        printf("G-test (likelihood ratio) = %.17g  df = %ld  p = %.6g\n", g.g, g.df, g.g_p);
        printf("TV = 1/2 sum |f - p| = %.9g  (null: mean %.9g, q99 ", g.tv, tv_mean);
        if (isnan(tv_q99))
            printf("not simulated%s", reps ? " for N >= 2^32" : "");
        else
            printf("%.9g", tv_q99);
        printf(")\n  TV null %s\n", tvmethod);
        printf("max |f - p| = %.9g at token %zu (count %llu, p = %.9g)\n", g.max_diff, g.max_diff_token,
               (unsigned long long)counts[g.max_diff_token], ref.p[g.max_diff_token]);
        printf("draws on zero-probability tokens: %llu", (unsigned long long)g.outside);
        if (g.outside)
            printf(" on %zu token%s (first: token %zu)", g.outside_tokens, g.outside_tokens == 1 ? "" : "s",
                   g.outside_first);
        printf("\nlargest standardized residuals (count - N p) / sqrt(N p):\n");
        printf("  %10s %14s %16s %12s\n", "token", "count", "expected", "residual");
        for (size_t k = 0; k < g.nresid; k++)
            printf("  %10zu %14llu %16.6f %12.4f\n", g.resid_token[k], (unsigned long long)g.resid_count[k],
                   g.resid_expected[k], g.resid[k]);
        printf("verdict: %s (%s)\n", fail ? "FAIL" : "PASS", rule);
    }
    rc = fail ? 1 : 0;
out:
    free(counts);
    sl_api_ref_free(&ref);
    return rc;
}
