/* exact.c — `samplab exact`: the distribution a sampler really induces under its
 * own arithmetic, counted exactly over its random inputs (stats/exact*.c), with
 * its TV from the ideal, the token with the largest relative error, undrawable
 * and wrongly drawable tokens, and every failure path per call and per 10^9 calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sl_cli.h"

static void exact_help(FILE *f)
{
    fprintf(f,
        "usage: samplab exact (--framework F | --method M [--rng R]) (--probs SRC | --logits SRC\n"
        "                     [--temperature T]) [--torch 2|1.13] [--replacement [--num-samples K]]\n"
        "                     [--rand R] [--dtype float32|float64] [--tokens] [--json] [--tensor NAME --row I]\n"
        "       samplab exact --report-data DIR   (report tables and figure data; reads\n"
        "                     data/synthetic_49152.txt when run from the repository root)\n\n"
        "Counts, over every value of the sampler's uniform, how many select each token: induced\n"
        "P(i) = count/2^bits exactly. The ideal is the float64 weights over their sum (for --logits a\n"
        "float64 softmax). Prints the exact TV(induced, ideal), the token with the largest relative\n"
        "error, tokens with p > 0 never drawn, tokens with p = 0 drawn, and each failure path per call\n"
        "and in 10^9 calls. --tokens adds one line per token; --json prints one object with the\n"
        "induced probabilities as exact rationals \"numerator/2^bits\".\n\n"
        "frameworks:\n"
        "  candle        rand WeightedIndex<f32>: 2^23 uniforms, float32 sums (--logits: candle's\n"
        "                float32 softmax); --rand 0.9 (default) or 0.10: for a subnormal total v*scale\n"
        "                can reach it and draw a last zero weight; --rand 0.8: 0.8.5's scale shrink\n"
        "  numpy         NumPy 1.24 choice(p=...), Generator or legacy: float64 cdf, 2^53 uniforms\n"
        "  torch         torch 2.x multinomial(p, 1), q = -log1p(-u) (--torch 1.13: -log(1 - u)): the\n"
        "                exponential race; exact failure paths, TV bound\n"
        "                --replacement: multinomial(p, K, replacement=True) (--num-samples K, default 1);\n"
        "                2.x takes the race for K = 1, the float cdf (2^53 uniforms, exact) for K >= 2;\n"
        "                1.13 the float cdf for every K\n"
        "  llamacpp      llama.cpp dist sampler (--logits only; float32 logit/T, expf, double sums):\n"
        "                2^64 word pairs through libstdc++'s generate_canonical<double,53>\n"
        "  gsl           GSL 2.7 gsl_ran_discrete with a 32-bit generator (2^32 uniforms); --rng\n"
        "                gsl:mt19937 (default), gsl:taus2, gsl:gfsr4 ... (gsl_rng_uniform = w/2^32)\n"
        "  ollama        --ollama 0.24: Ollama's Go sampler over all tokens (--logits only; pdqsort,\n"
        "                float32 softmax with Go's math.Exp, float32 running sum, lower bound): 2^24\n"
        "                values of Go's Float32\n"
        "methods (samplab's own, any 32- or 64-bit --rng, default pcg32: all give u = k*2^-53,\n"
        "so the induced distribution does not depend on the source or the seed):\n"
        "  cdf, alias, linear (the tutorial's inverse CDF with its last-index fallback)\n\n"
        "--dtype sets the precision torch and numpy receive (defaults: torch float32, numpy float64;\n"
        "a .npy source keeps its own). torch with --logits receives float32(softmax in float64), not\n"
        "torch's own softmax.\n\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("exact"), "options:");
}

static void print_list(const char *label, const size_t *ids, size_t n, const double *ideal)
{
    printf("%-10s ", label);
    if (!n) {
        printf("none\n");
        return;
    }
    printf("%zu:", n);
    for (size_t i = 0; i < n && i < 20; i++)
        printf(" %zu (p=%.3g)", ids[i], ideal[ids[i]]);
    printf(n > 20 ? " ...\n" : "\n");
}

static int print_text(const sl_stat_exact_result *r, const sl_stat_exact_type *t, const sl_vec *vec, int tokens)
{
    printf("sampler    %s: %s\n", t->name, t->summary);
    printf("input      %s: V = %zu\n", vec->source, r->V);
    printf("model      %s\n", r->note);
    if (r->always_fails) {
        printf("result     every call fails: %s\n", r->paths[0].what);
        return 0;
    }
    if (r->has_counts) {
        printf("grid       2^%u equally likely uniforms; the counts sum to 2^%u\n", r->bits, r->bits);
        printf("TV         %.17g (exact)\n", r->tv);
    } else {
        printf("TV         <= %.3g (rigorous upper bound; exact counting is out of reach)\n", r->tv_bound);
    }
    if (r->worst >= 0) {
        char rat[96];
        sl_stat_exact_rational_format(r->count[r->worst], r->bits, rat, sizeof rat);
        printf("worst      token %ld: induced %s = %.17g, ideal %.17g, relative error %+.3g\n", r->worst, rat,
               sl_stat_exact_prob(r->count[r->worst], r->bits), r->ideal[r->worst], r->worst_rel);
    }
    print_list("never", r->never, r->n_never, r->ideal);
    print_list("zero-p", r->zero_drawn, r->n_zero_drawn, r->ideal);
    printf("failure paths (per call; in 10^9 calls):\n");
    if (!r->n_paths)
        printf("  none\n");
    for (size_t i = 0; i < r->n_paths; i++) {
        const sl_stat_exact_path *p = &r->paths[i];
        char rat[96] = "";
        if (p->has_rational)
            sl_stat_exact_rational_format(p->num, p->bits, rat, sizeof rat);
        printf("  %-16s %s%.6g%s%s%s; %s%.6g\n      %s\n", p->name, p->exact ? "" : "<= ", p->prob,
               rat[0] ? " (" : "", rat, rat[0] ? ")" : "", p->exact ? "" : "<= ", sl_api_per_billion(p->prob), p->what);
    }
    if (tokens && r->has_counts) {
        printf("token\tideal\tinduced\tcount/2^bits\trelative_error\n");
        for (size_t i = 0; i < r->V; i++) {
            char rat[96];
            sl_stat_exact_rational_format(r->count[i], r->bits, rat, sizeof rat);
            double q = sl_stat_exact_prob(r->count[i], r->bits);
            printf("%zu\t%.17g\t%.17g\t%s\t", i, r->ideal[i], q, rat);
            if (r->ideal[i] > 0)
                printf("%.6g\n", q / r->ideal[i] - 1);
            else
                printf("%s\n", q > 0 ? "inf" : "0");
        }
    }
    return 0;
}

static int print_json(const sl_api_exact_audit *a)
{
    char *s = sl_api_exact_json(a);
    if (!s)
        return 2;
    puts(s);
    free(s);
    return 0;
}

int sl_cli_exact_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/exact.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("exact", argc, argv, exact_help, &po, &s, &src);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    if (v[SL_API_OPT_REPORT_DATA].given) {
        sl_error err;
        const char *z = SL_REPORT_ZIPF_PATH;
        if (sl_report_exact_data(v[SL_API_OPT_REPORT_DATA].text, access(z, R_OK) == 0 ? z : NULL, &err))
            return sl_cli_fail(&err);
        return 0;
    }
    if (v[SL_API_OPT_PROBS].given == v[SL_API_OPT_LOGITS].given) {
        sl_cli_errf("samplab exact: give exactly one of --probs SRC and --logits SRC\n");
        return 2;
    }
    sl_api_exact_audit a;
    sl_error err;
    if (sl_api_exact_run(&src, v[SL_API_OPT_LOGITS].given, &s, &a, &err))
        return sl_cli_api_fail(&err);
    int rc = v[SL_API_OPT_JSON].given ? print_json(&a) : print_text(&a.res, a.t, &a.vec, v[SL_API_OPT_TOKENS].given);
    sl_api_exact_audit_free(&a);
    return rc;
}
