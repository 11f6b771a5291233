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
        "                     [--dtype float32|float64] [--tokens] [--json] [--tensor NAME --row I]\n"
        "       samplab exact --report-data DIR   (report tables and figure data; reads\n"
        "                     data/synthetic_49152.txt when run from the repository root)\n\n"
        "Counts, over every value of the sampler's uniform, how many select each token: induced\n"
        "P(i) = count/2^bits exactly. The ideal is the float64 weights over their sum (for --logits a\n"
        "float64 softmax). Prints the exact TV(induced, ideal), the token with the largest relative\n"
        "error, tokens with p > 0 never drawn, tokens with p = 0 drawn, and each failure path per call\n"
        "and in 10^9 calls. --tokens adds one line per token; --json prints one object with the\n"
        "induced probabilities as exact rationals \"numerator/2^bits\".\n\n"
        "frameworks:\n"
        "  candle        rand 0.8.5 WeightedIndex<f32>: 2^23 uniforms, float32 sums (--logits: candle's\n"
        "                float32 softmax)\n"
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
        "methods (samplab's own, any 32- or 64-bit --rng, default pcg32: all give u = k*2^-53,\n"
        "so the induced distribution does not depend on the source or the seed):\n"
        "  cdf, alias, linear (the tutorial's inverse CDF with its last-index fallback)\n\n"
        "--dtype sets the precision torch and numpy receive (defaults: torch float32, numpy float64;\n"
        "a .npy source keeps its own). torch with --logits receives float32(softmax in float64), not\n"
        "torch's own softmax.\n\n");
    sl_cli_help_options(f, sl_cli_spec_lookup("exact"), "options:");
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

static int print_json(const sl_stat_exact_result *r, const sl_stat_exact_type *t, const sl_vec *vec)
{
    char *s = sl_api_exact_json(r, t, vec);
    if (!s)
        return 2;
    puts(s);
    free(s);
    return 0;
}

int sl_cli_exact_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("exact", argc, argv, exact_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    if (v[SL_CLI_REPORT_DATA].given) {
        sl_error err;
        const char *z = SL_REPORT_ZIPF_PATH;
        if (sl_report_exact_data(v[SL_CLI_REPORT_DATA].text, access(z, R_OK) == 0 ? z : NULL, &err))
            return sl_cli_fail(&err);
        return 0;
    }
    const char *probs_src = v[SL_CLI_PROBS].text, *logits_src = v[SL_CLI_LOGITS].text;
    const char *method = v[SL_CLI_METHOD].text, *framework = v[SL_CLI_FRAMEWORK].text;
    const char *rng_name = v[SL_CLI_RNG].text, *dtype_text = v[SL_CLI_DTYPE].text, *tensor = v[SL_CLI_TENSOR].text;
    long row = v[SL_CLI_ROW].given ? v[SL_CLI_ROW].l : -1;
    int json = v[SL_CLI_JSON].given, tokens = v[SL_CLI_TOKENS].given, replacement = v[SL_CLI_REPLACEMENT].given;
    size_t k = v[SL_CLI_NUM_SAMPLES].given ? v[SL_CLI_NUM_SAMPLES].size : 1;
    int has_t = v[SL_CLI_TEMPERATURE].given;
    double temperature = has_t ? v[SL_CLI_TEMPERATURE].d : 1.0;
    char e[SL_CLI_ESC_MAX];
    if (!!probs_src == !!logits_src) {
        fprintf(stderr, "samplab exact: give exactly one of --probs SRC and --logits SRC\n");
        return 2;
    }
    if (!!method == !!framework) {
        fprintf(stderr, "samplab exact: give exactly one of --framework F and --method M\n");
        return 2;
    }
    if (has_t && !logits_src) {
        fprintf(stderr, "samplab exact: --temperature applies to --logits only\n");
        return 2;
    }
    if (has_t && !(temperature > 0)) {
        /* softmax's own message points to --method greedy, which has nothing to count */
        fprintf(stderr,
                "samplab exact: --temperature %g: at T <= 0 the frameworks take the argmax or refuse, nothing random "
                "to count (samplab pipeline --temperature 0 shows which token)\n",
                temperature);
        return 2;
    }
    const sl_stat_exact_type *t = NULL;
    const sl_fw_type *ft = NULL;
    const char *name = framework ? framework : method;
    if (framework) {
        ft = sl_fw_lookup(framework);
        if (ft) {
            /* the framework settings an audit can depend on, as the framework type
             * takes them; --num-samples only where the audit follows the settings */
            unsigned takes = ft->accepts & (SL_OPT_REPLACEMENT | SL_OPT_DTYPE | SL_OPT_VARIANT |
                                            (ft->exact_for ? SL_OPT_NUM_SAMPLES : 0));
            sl_cli_opt bad = sl_cli_refused(&po, SL_CLI_G_FRAMEWORK, takes);
            if (bad != SL_CLI_NONE)
                return sl_cli_not_an_option("exact", sl_cli_options[bad].name, "framework", framework);
            sl_fw_opts fo;
            memset(&fo, 0, sizeof fo);
            fo.replacement = replacement;
            fo.k = k;
            fo.variant = v[SL_CLI_TORCH].text;
            const sl_fw_variant *var;
            sl_error verr;
            if (sl_fw_variant_find(ft, fo.variant, &var, &verr)) {
                fprintf(stderr, "samplab exact: %s\n", verr.msg);
                return 2;
            }
            if (k == 0) {
                fprintf(stderr, "samplab exact: --num-samples must be at least 1\n");
                return 2;
            }
            if (k > 1 && !replacement) {
                fprintf(stderr, "samplab exact: --num-samples %zu without --replacement is torch.topk of the race's "
                        "ratios, which is not audited (the race audit covers one sample a call)\n", k);
                return 2;
            }
            t = ft->exact_for ? ft->exact_for(&fo) : ft->exact;
        }
    } else {
        const sl_draw_type *dt = sl_draw_lookup(method);
        if (dt && dt->exact)
            t = dt->exact;
        else if (dt) {
            fprintf(stderr, "samplab exact: method %s is not audited exactly (cdf, alias, linear are; "
                    "for the exponential race see --framework torch)\n", sl_cli_esc(method, e, sizeof e));
            return 2;
        }
        sl_cli_opt bad = sl_cli_refused(&po, SL_CLI_G_FRAMEWORK, 0);
        if (dt && bad != SL_CLI_NONE)
            return sl_cli_not_an_option("exact", sl_cli_options[bad].name, "method", method);
        if (!rng_name)
            rng_name = "pcg32";
        const sl_rng_type *rt = sl_rng_lookup(rng_name);
        if (!rt) {
            fprintf(stderr, "samplab exact: unknown random source '%s'\n", sl_cli_esc(rng_name, e, sizeof e));
            return 2;
        }
        if (rt->word_bits != 32 && rt->word_bits != 64) {
            fprintf(stderr, "samplab exact: %s has %u-bit words; only 32- and 64-bit sources give the "
                    "53-bit uniform grid audited here\n", rt->name, rt->word_bits);
            return 2;
        }
    }
    if (t == &sl_fw_gsl_exact && rng_name) {
        /* gsl_rng_uniform must be word / 2^32: the full-range 32-bit generators whose
         * get_double is exactly that (not ranlxd, ranlux, ... with other grids) */
        static const char *const ok[] = {"gsl:mt19937", "gsl:mt19937_1999", "gsl:mt19937_1998", "gsl:taus",
                                         "gsl:taus2", "gsl:gfsr4", NULL};
        size_t i = 0;
        while (ok[i] && strcmp(ok[i], rng_name))
            i++;
        if (!ok[i]) {
            fprintf(stderr, "samplab exact: --framework gsl models a generator whose gsl_rng_uniform is w/2^32 "
                    "(gsl:mt19937, gsl:taus2, gsl:gfsr4, ...), not '%s'\n", sl_cli_esc(rng_name, e, sizeof e));
            return 2;
        }
    } else if (framework && rng_name) {
        fprintf(stderr, "samplab exact: --rng is not an option of framework %s (it fixes its own source)\n",
                sl_cli_esc(framework, e, sizeof e));
        return 2;
    }
    if (!t) {
        fprintf(stderr, "samplab exact: unknown %s '%s' (samplab exact --help)\n", framework ? "framework" : "method",
                sl_cli_esc(name, e, sizeof e));
        return 2;
    }
    if (t == &sl_draw_llama_dist_exact && !logits_src) {
        fprintf(stderr, "samplab exact: llama.cpp's dist sampler takes --logits (it computes its own softmax)\n");
        return 2;
    }
    sl_error err;
    sl_vec vec;
    if (sl_io_vec_read(probs_src ? probs_src : logits_src, tensor, row, &vec, &err))
        return sl_cli_fail(&err);
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = vec.n;
    in.d = vec.d;
    in.f = vec.f;
    in.source = vec.source;
    int is_torch = ft == &sl_fw_torch_type;
    /* a binary source keeps its own dtype; text gets the framework's default
     * (torch.tensor(list) is float32, np.array(list) float64) */
    size_t sl = strlen(vec.source);
    int binary = (sl > 4 && !strcmp(vec.source + sl - 4, ".npy")) ||
                 (sl > 12 && !strcmp(vec.source + sl - 12, ".safetensors"));
    in.dtype = binary ? vec.dtype : is_torch ? SL_F32 : SL_F64;
    if (dtype_text) {
        if (!strcmp(dtype_text, "float32"))
            in.dtype = SL_F32;
        else if (!strcmp(dtype_text, "float64"))
            in.dtype = SL_F64;
        else {
            fprintf(stderr, "samplab exact: --dtype takes float32 or float64, not '%s'\n",
                    sl_cli_esc(dtype_text, e, sizeof e));
            sl_base_vec_free(&vec);
            return 2;
        }
    }
    double *pd = NULL;
    float *pf = NULL, *lg = NULL;
    int rc = 2;
    if (logits_src) {
        pd = malloc(vec.n * sizeof *pd);
        pf = malloc(vec.n * sizeof *pf);
        if (!pd || !pf)
            goto out;
        if (sl_logits_softmax(vec.d, vec.n, temperature, pd, &err)) {
            sl_cli_fail_in(vec.source, &err);
            goto out;
        }
        if (t == &sl_draw_rand_wi_exact) {
            if (sl_logits_candle_check(vec.f, vec.n, &err)) {
                sl_cli_fail_in(vec.source, &err);
                goto out;
            }
            sl_logits_candle_softmax(vec.f, vec.n, temperature, 0, pf); /* candle's own, sequential sum */
        } else {
            for (size_t i = 0; i < vec.n; i++)
                pf[i] = (float)pd[i];
        }
        in.d = pd;
        in.f = pf;
        if (t == &sl_draw_llama_dist_exact) {
            /* llama.cpp's temperature sampler: logit /= temp, in float32 */
            lg = malloc(vec.n * sizeof *lg);
            if (!lg)
                goto out;
            for (size_t i = 0; i < vec.n; i++)
                lg[i] = has_t ? vec.f[i] / (float)temperature : vec.f[i];
            in.logits_f = lg;
        }
    }
    sl_stat_exact_result res;
    if (sl_stat_exact_run(t, &in, &res, &err)) {
        rc = sl_cli_fail(&err);
        goto out;
    }
    rc = json ? print_json(&res, t, &vec) : print_text(&res, t, &vec, tokens);
    sl_stat_exact_result_free(&res);
out:
    free(pd);
    free(pf);
    free(lg);
    sl_base_vec_free(&vec);
    return rc;
}
