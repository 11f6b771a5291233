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
    sl_cli_help_options(f, sl_api_cmd_lookup("gof"), "options:");
}

int sl_cli_gof_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/gof.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("gof", argc, argv, gof_help, &po, &s, &src);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    /* a long read or run: progress on a terminal, Ctrl-C stops it with one line */
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, "gof", s.draws_file ? "draws read" : "draws made");
    sl_api_gof_result r;
    sl_error err;
    int rc = sl_api_gof_run(&src, v[SL_API_OPT_LOGITS].given, NULL, 0, NULL, 0, &s, &pr.p, &r, &err);
    sl_cli_progress_end(&pr);
    if (rc && rc != SL_EINTR && sl_cli_interrupted()) /* a read Ctrl-C broke: stopped all the same */
        rc = sl_cli_interrupt_exit("gof", r.n, s.method ? "draws made" : "draws read", "no result");
    else if (rc == SL_EINTR && s.draws_file)
        rc = sl_cli_interrupt_exit("gof", r.n, "draws read", "no result");
    else if (rc == SL_EINTR)
        rc = (sl_cli_errf("samplab gof: %s (Ctrl-C); no result\n", err.msg), SL_CLI_EXIT_INTERRUPTED);
    else if (rc)
        rc = sl_cli_api_fail(&err);
    else if (sl_cli_interrupted()) /* Ctrl-C while the statistics ran: no result either */
        rc = sl_cli_interrupt_exit("gof", r.n, s.method ? "draws made" : "draws read", "no result");
    if (rc) {
        sl_api_gof_result_free(&r);
        return rc;
    }
    const sl_api_ref *ref = &r.ref;
    const sl_stat_gof *g = &r.t.g;
    int fail = r.t.fail;
    if (v[SL_API_OPT_JSON].given) {
        char *js = sl_api_gof_json(ref, r.draws_name, &r.t, r.dt ? r.replay : NULL);
        if (!js) {
            sl_cli_errf("samplab gof: out of memory for JSON\n");
            sl_api_gof_result_free(&r);
            return 2;
        }
        puts(js);
        free(js);
    } else {
        printf("reference: %s (V = %zu, support %zu tokens", ref->source, ref->v, ref->support);
        if (ref->from_logits)
            printf(", softmax at temperature %.17g)\n", ref->temperature);
        else
            printf(", weights divided by their sum %.17g)\n", ref->weight_sum);
        if (r.dt)
            printf("draws: %llu by method %s over %s (replay: %s)\n", (unsigned long long)r.n, r.dt->name,
                   r.rt->name, r.replay);
        else
            printf("draws: %s (N = %llu)\n", r.draws_name, (unsigned long long)r.n);
        printf("pooling: %s\n", SL_STAT_POOL_RULE);
        printf("  %zu cells from %zu tokens; %zu tokens pooled into %zu cells\n", g->ncells, ref->support,
               g->pooled_tokens, g->pooled_cells);
        printf("chi-square (Pearson) = %.17g  df = %ld  p = %.6g\n", g->chi2, g->df, g->chi2_p);
        printf("G-test (likelihood ratio) = %.17g  df = %ld  p = %.6g\n", g->g, g->df, g->g_p);
        printf("TV = 1/2 sum |f - p| = %.9g  (null: mean %.9g, q99 ", g->tv, r.t.tv_null_mean);
        if (isnan(r.t.tv_null_q99))
            printf("not simulated%s", r.t.tv_null_reps ? " for N >= 2^32" : "");
        else
            printf("%.9g", r.t.tv_null_q99);
        printf(")\n  TV null %s\n", r.t.tv_null_method);
        printf("max |f - p| = %.9g at token %zu (count %llu, p = %.9g)\n", g->max_diff, g->max_diff_token,
               (unsigned long long)r.counts[g->max_diff_token], ref->p[g->max_diff_token]);
        printf("draws on zero-probability tokens: %llu", (unsigned long long)g->outside);
        if (g->outside)
            printf(" on %zu token%s (first: token %zu)", g->outside_tokens, g->outside_tokens == 1 ? "" : "s",
                   g->outside_first);
        printf("\nlargest standardized residuals (count - N p) / sqrt(N p):\n");
        printf("  %10s %14s %16s %12s\n", "token", "count", "expected", "residual");
        for (size_t k = 0; k < g->nresid; k++)
            printf("  %10zu %14llu %16.6f %12.4f\n", g->resid_token[k], (unsigned long long)g->resid_count[k],
                   g->resid_expected[k], g->resid[k]);
        printf("verdict: %s (%s)\n", fail ? "FAIL" : "PASS", r.t.rule);
    }
    sl_api_gof_result_free(&r);
    return fail ? 1 : 0;
}
