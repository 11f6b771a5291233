/* exact.c — `samplab exact`: the distribution a sampler really induces under its
 * own arithmetic, counted exactly over its random inputs (stats/exact*.c), with
 * its TV from the ideal, the token with the largest relative error, undrawable
 * and wrongly drawable tokens, and every failure path per call and per 10^9 calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/sl_cli.h"

static void exact_help(FILE *f)
{
    fprintf(f,
        "usage: samplab exact (--framework F | --method M [--rng R]) (--probs SRC | --logits SRC\n"
        "                     [--temperature T]) [--replacement] [--dtype float32|float64]\n"
        "                     [--tokens] [--json] [--tensor NAME --row I]\n"
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
        "  torch         torch 1.13 multinomial(p, 1): exponential race; exact failure paths, TV bound\n"
        "                --replacement: multinomial(p, n, replacement=True): float cdf, 2^53 uniforms\n"
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

static double per_billion(double p)
{
    if (p >= 1)
        return 1;
    return -expm1(1e9 * log1p(-p));
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
               rat[0] ? " (" : "", rat, rat[0] ? ")" : "", p->exact ? "" : "<= ", per_billion(p->prob), p->what);
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

static json_t *json_ids(const size_t *ids, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)ids[i]));
    return a;
}

static int print_json(const sl_stat_exact_result *r, const sl_stat_exact_type *t, const sl_vec *vec)
{
    json_t *o = json_object();
    char rat[96];
    json_object_set_new(o, "sampler", json_string(t->name));
    json_object_set_new(o, "source", json_string(vec->source));
    json_object_set_new(o, "V", json_integer((json_int_t)r->V));
    json_object_set_new(o, "model", json_string(r->note));
    json_object_set_new(o, "always_fails", json_boolean(r->always_fails));
    json_object_set_new(o, "exact", json_boolean(r->has_counts && !r->always_fails));
    if (r->has_counts && !r->always_fails) {
        json_object_set_new(o, "bits", json_integer(r->bits));
        json_object_set_new(o, "tv", json_real(r->tv));
    }
    json_object_set_new(o, "tv_bound", json_real(r->always_fails ? 1.0 : r->tv_bound));
    if (r->worst >= 0) {
        json_t *w = json_object();
        json_object_set_new(w, "token", json_integer(r->worst));
        json_object_set_new(w, "relative_error", json_real(r->worst_rel));
        json_object_set_new(o, "worst", w);
    }
    json_object_set_new(o, "never", json_ids(r->never, r->n_never));
    json_object_set_new(o, "zero_drawn", json_ids(r->zero_drawn, r->n_zero_drawn));
    json_t *paths = json_array();
    for (size_t i = 0; i < r->n_paths; i++) {
        const sl_stat_exact_path *p = &r->paths[i];
        json_t *po = json_object();
        json_object_set_new(po, "name", json_string(p->name));
        json_object_set_new(po, "what", json_string(p->what));
        json_object_set_new(po, "per_call", json_real(p->prob));
        json_object_set_new(po, "per_1e9_calls", json_real(per_billion(p->prob)));
        json_object_set_new(po, "exact", json_boolean(p->exact));
        if (p->has_rational) {
            sl_stat_exact_rational_format(p->num, p->bits, rat, sizeof rat);
            json_object_set_new(po, "rational", json_string(rat));
        }
        if (p->token >= 0)
            json_object_set_new(po, "token", json_integer(p->token));
        json_array_append_new(paths, po);
    }
    json_object_set_new(o, "paths", paths);
    json_t *ideal = json_array(), *induced = json_array();
    for (size_t i = 0; i < r->V; i++) {
        json_array_append_new(ideal, json_real(r->ideal[i]));
        if (r->has_counts && !r->always_fails) {
            sl_stat_exact_rational_format(r->count[i], r->bits, rat, sizeof rat);
            json_array_append_new(induced, json_string(rat));
        }
    }
    json_object_set_new(o, "ideal", ideal);
    if (r->has_counts && !r->always_fails)
        json_object_set_new(o, "induced", induced);
    else
        json_decref(induced);
    char *s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
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
    int has_t = v[SL_CLI_TEMPERATURE].given;
    double temperature = has_t ? v[SL_CLI_TEMPERATURE].d : 1.0;
    char e[SL_CLI_ESC_MAX];
    if (!!probs_src == !!logits_src) {
        sl_cli_errf("samplab exact: give exactly one of --probs SRC and --logits SRC\n");
        return 2;
    }
    if (!!method == !!framework) {
        sl_cli_errf("samplab exact: give exactly one of --framework F and --method M\n");
        return 2;
    }
    if (has_t && !logits_src) {
        sl_cli_errf("samplab exact: --temperature applies to --logits only\n");
        return 2;
    }
    if (has_t && !(temperature > 0)) {
        /* softmax's own message points to --method greedy, which has nothing to count */
        sl_cli_errf(
                "samplab exact: --temperature %g: at T <= 0 the frameworks take the argmax or refuse, nothing random "
                "to count (samplab pipeline --temperature 0 shows which token)\n",
                temperature);
        return 2;
    }
    const sl_stat_exact_type *t = NULL;
    const char *name = framework ? framework : method;
    if (framework) {
        const sl_fw_type *ft = sl_fw_lookup(framework);
        sl_fw_opts fo;
        memset(&fo, 0, sizeof fo);
        fo.replacement = replacement;
        if (ft)
            t = ft->exact_for ? ft->exact_for(&fo) : ft->exact;
    } else {
        const sl_draw_type *dt = sl_draw_lookup(method);
        if (dt && dt->exact)
            t = dt->exact;
        else if (dt) {
            sl_cli_errf("samplab exact: method %s is not audited exactly (cdf, alias, linear are; "
                    "for the exponential race see --framework torch)\n", sl_cli_esc(method, e, sizeof e));
            return 2;
        }
        if (!rng_name)
            rng_name = "pcg32";
        const sl_rng_type *rt = sl_rng_lookup(rng_name);
        if (!rt) {
            sl_cli_errf("samplab exact: unknown random source '%s'\n", sl_cli_esc(rng_name, e, sizeof e));
            return 2;
        }
        if (rt->word_bits != 32 && rt->word_bits != 64) {
            sl_cli_errf("samplab exact: %s has %u-bit words; only 32- and 64-bit sources give the "
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
            sl_cli_errf("samplab exact: --framework gsl models a generator whose gsl_rng_uniform is w/2^32 "
                    "(gsl:mt19937, gsl:taus2, gsl:gfsr4, ...), not '%s'\n", sl_cli_esc(rng_name, e, sizeof e));
            return 2;
        }
    } else if (framework && rng_name) {
        sl_cli_errf("samplab exact: --rng is not an option of framework %s (it fixes its own source)\n",
                sl_cli_esc(framework, e, sizeof e));
        return 2;
    }
    if (!t) {
        sl_cli_errf("samplab exact: unknown %s '%s' (samplab exact --help)\n", framework ? "framework" : "method",
                sl_cli_esc(name, e, sizeof e));
        return 2;
    }
    if (dtype_text && !(t == &sl_draw_numpy_exact || t == &sl_draw_torch_race_exact ||
                        t == &sl_draw_torch_repl_exact)) {
        sl_cli_errf("samplab exact: --dtype applies to --framework torch and numpy only (%s reads %s)\n",
                t->name, t == &sl_draw_rand_wi_exact ? "float32" : "float64");
        return 2;
    }
    if (replacement && t != &sl_draw_torch_repl_exact) {
        sl_cli_errf("samplab exact: --replacement applies to --framework torch only\n");
        return 2;
    }
    if (t == &sl_draw_llama_dist_exact && !logits_src) {
        sl_cli_errf("samplab exact: llama.cpp's dist sampler takes --logits (it computes its own softmax)\n");
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
    int is_torch = t == &sl_draw_torch_race_exact || t == &sl_draw_torch_repl_exact;
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
            sl_cli_errf("samplab exact: --dtype takes float32 or float64, not '%s'\n",
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
