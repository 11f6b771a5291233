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

#include <jansson.h>

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

/* TV null replicates: about 0.15 s of simulation, between 200 and 2000. */
static size_t tv_null_reps(size_t support, uint64_t n)
{
    double r = 1.5e8 / sl_stat_tv_null_cost(support, n);
    return r < 200 ? 200 : r > 2000 ? 2000 : (size_t)r;
}

int sl_cli_gof_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("gof", argc, argv, gof_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    sl_cli_ref_opts ro;
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
        sl_cli_errf("samplab gof: --null-reps must be at most 1000000, not %zu", reps_opt);
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
    sl_cli_ref ref;
    if (sl_cli_ref_load(&ro, &ref, &err))
        return sl_cli_fail(&err);
    int rc = 2;
    uint64_t *counts = calloc(ref.v, sizeof *counts);
    double *tvs = NULL;
    uint64_t n = 0;
    const char *draws_name = NULL;
    sl_cli_progress pr;
    if (!counts) {
        sl_cli_errf("samplab gof: out of memory for %zu counts\n", ref.v);
        goto out;
    }
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
        int drc = sl_cli_draw_counts(ref.p, ref.v, dt, rt, &seed, n, counts, &pr, &err);
        sl_cli_progress_end(&pr);
        if (drc == SL_EINTR) {
            sl_cli_errf("samplab gof: %s (Ctrl-C); no result", err.msg);
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
    double tv_mean = sl_stat_tv_null_mean(ref.p, ref.v, n), tv_q99 = NAN;
    size_t reps = has_reps ? reps_opt : tv_null_reps(ref.support, n);
    if (n <= UINT32_MAX && reps > 0) {
        tvs = malloc(reps * sizeof *tvs);
        if (!tvs) {
            sl_cli_errf("samplab gof: TV null simulation failed: out of memory for %zu replicates (--null-reps)", reps);
            goto out;
        }
        if (sl_stat_tv_null_sim(ref.p, ref.v, n, reps, SL_STAT_SIM_SEED, tvs, &err)) {
            sl_cli_errf("samplab gof: TV null simulation failed: %s", err.msg);
            goto out;
        }
        tv_q99 = sl_stat_quantile_sorted(tvs, reps, 0.99);
    }
    /* The verdict. */
    int fail = 0;
    char rule[320];
    if (g.outside > 0) {
        fail = 1;
        snprintf(rule, sizeof rule,
                 "zero-probability rule: %llu draw%s on %zu token%s with p = 0 (first: token %zu)",
                 (unsigned long long)g.outside, g.outside == 1 ? "" : "s", g.outside_tokens,
                 g.outside_tokens == 1 ? "" : "s", g.outside_first);
    } else if (g.df >= 1 && g.chi2_p < alpha) {
        fail = 1;
        snprintf(rule, sizeof rule, "Pearson chi-square p = %.3g < alpha = %g", g.chi2_p, alpha);
    } else if (g.df < 1) {
        snprintf(rule, sizeof rule,
                 "no draw on a zero-probability token; chi-square has no degree of freedom (one cell)");
    } else {
        snprintf(rule, sizeof rule,
                 "no draw on a zero-probability token and Pearson chi-square p = %.3g >= alpha = %g", g.chi2_p,
                 alpha);
    }
    char replay[1024] = "";
    if (method) {
        char seedbuf[64];
        if (seed.hi)
            snprintf(seedbuf, sizeof seedbuf, "0x%016llx%016llx", (unsigned long long)seed.hi,
                     (unsigned long long)seed.lo);
        else
            snprintf(seedbuf, sizeof seedbuf, "%llu", (unsigned long long)seed.lo);
        char tpart[64] = "";
        if (ref.from_logits && ro.has_temperature)
            snprintf(tpart, sizeof tpart, " --temperature %.17g", ro.temperature);
        /* a .safetensors source needs its tensor and row to replay */
        char spart[400] = "";
        if (ro.tensor)
            snprintf(spart, sizeof spart, " --tensor %s", ro.tensor);
        if (ro.row >= 0)
            snprintf(spart + strlen(spart), sizeof spart - strlen(spart), " --row %ld", ro.row);
        snprintf(replay, sizeof replay, "samplab draw --%s %s%s%s --method %s --rng %s --seed %s --n %zu --counts",
                 ref.from_logits ? "logits" : "probs", ro.probs ? ro.probs : ro.logits, spart, tpart, dt->name,
                 rt->name, seedbuf, n_opt);
    }
    char tvmethod[300];
    snprintf(tvmethod, sizeof tvmethod,
             "mean exact (de Moivre); q99 simulated from %zu multinomial samples (%s, %s seed %lu)", reps,
             sl_stat_tv_null_sampler(ref.support, n), SL_STAT_SIM_RNG, SL_STAT_SIM_SEED);

    if (json) {
        json_t *o = json_object();
        json_object_set_new(o, "reference", json_string(ref.source));
        json_object_set_new(o, "draws", method ? json_null() : json_string(draws_name));
        json_object_set_new(o, "n", json_integer((json_int_t)n));
        json_object_set_new(o, "v", json_integer((json_int_t)ref.v));
        json_object_set_new(o, "support", json_integer((json_int_t)ref.support));
        json_object_set_new(o, "alpha", json_real(alpha));
        json_t *pool = json_object();
        json_object_set_new(pool, "rule", json_string(SL_STAT_POOL_RULE));
        json_object_set_new(pool, "cells", json_integer((json_int_t)g.ncells));
        json_object_set_new(pool, "pooled_tokens", json_integer((json_int_t)g.pooled_tokens));
        json_object_set_new(pool, "pooled_cells", json_integer((json_int_t)g.pooled_cells));
        json_object_set_new(o, "pooling", pool);
        json_t *c = json_object();
        json_object_set_new(c, "stat", json_real(g.chi2));
        json_object_set_new(c, "df", json_integer(g.df));
        json_object_set_new(c, "p", json_real(g.chi2_p));
        json_object_set_new(o, "chi2", c);
        json_t *gg = json_object();
        json_object_set_new(gg, "stat", json_real(g.g));
        json_object_set_new(gg, "df", json_integer(g.df));
        json_object_set_new(gg, "p", json_real(g.g_p));
        json_object_set_new(o, "g", gg);
        json_t *tv = json_object();
        json_object_set_new(tv, "value", json_real(g.tv));
        json_object_set_new(tv, "null_mean", json_real(tv_mean));
        json_object_set_new(tv, "null_q99", isnan(tv_q99) ? json_null() : json_real(tv_q99));
        json_object_set_new(tv, "null_method", json_string(tvmethod));
        json_object_set_new(o, "tv", tv);
        json_t *md = json_object();
        json_object_set_new(md, "value", json_real(g.max_diff));
        json_object_set_new(md, "token", json_integer((json_int_t)g.max_diff_token));
        json_object_set_new(o, "max_abs_diff", md);
        json_t *res = json_array();
        for (size_t k = 0; k < g.nresid; k++) {
            json_t *r = json_object();
            json_object_set_new(r, "token", json_integer((json_int_t)g.resid_token[k]));
            json_object_set_new(r, "count", json_integer((json_int_t)g.resid_count[k]));
            json_object_set_new(r, "expected", json_real(g.resid_expected[k]));
            json_object_set_new(r, "residual", json_real(g.resid[k]));
            json_array_append_new(res, r);
        }
        json_object_set_new(o, "residuals", res);
        json_object_set_new(o, "outside_support", json_integer((json_int_t)g.outside));
        json_object_set_new(o, "outside_tokens", json_integer((json_int_t)g.outside_tokens));
        json_object_set_new(o, "verdict", json_string(fail ? "FAIL" : "PASS"));
        json_object_set_new(o, "rule", json_string(rule));
        if (method)
            json_object_set_new(o, "replay", json_string(replay));
        char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
        json_decref(o);
        if (!s) {
            sl_cli_errf("samplab gof: out of memory for JSON\n");
            goto out;
        }
        puts(s);
        free(s);
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
    free(tvs);
    free(counts);
    sl_cli_ref_free(&ref);
    return rc;
}
