/* draw.c — `samplab draw`: N tokens from a probability vector, either with a
 * draw method over a random source (--method, --rng) or exactly as a real
 * framework would draw them (--framework). Output: one call per line, or
 * per-token counts, or one JSON object with the words consumed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

static void draw_help(FILE *f)
{
    fprintf(f,
            "usage: samplab draw (--probs SRC | --logits SRC [--temperature T]) --method M [--rng R]\n"
            "                    [--seed S] [--stream Q] [--n N] [--counts] [--json]\n"
            "       samplab draw --framework F (--probs SRC | --logits SRC) [--seed S] [--n N]\n"
            "                    [--num-samples K] [--replacement] [--dtype float32|float64] [--torch 2|1.13]\n"
            "                    [--temperature T] [--top-k K] [--top-p P] [--min-p M] [--simd-sum]\n"
            "                    [--counts] [--json]\n\n"
            "SRC is an inline list (3,2,2,1), a text file (numbers separated by whitespace or commas,\n"
            "# comments, no empty fields), a 1-D .npy (float32/float64), or a .safetensors file (--tensor NAME --row I).\n"
            "--probs are weights (finite, >= 0, not all zero; need not sum to 1); --logits go through\n"
            "a stable softmax with --temperature T (default 1; T <= 0 is an error: use --method greedy).\n"
            "Defaults: --rng pcg32 --seed 42 --stream 0 --n 1. The same arguments give the same bytes.\n\n"
            "--counts prints one line per token id: id<TAB>count. --json prints one object:\n"
            "{\"tokens\": [...], \"rng\": {\"name\": ..., \"word_bits\": ..., \"words\": W}} with W the\n"
            "words the draws consumed; with --framework also \"version\" (the upstream release followed)\n"
            "and, for hf and vllm, \"cpu\" (torch's CPU kernel modelled).\n\nmethods:\n");
    for (size_t i = 0; sl_draw_types[i]; i++)
        fprintf(f, "  %-9s %s\n", sl_draw_types[i]->name, sl_draw_types[i]->cost);
    fprintf(f, "\nrandom sources: ");
    for (size_t i = 0; sl_rng_types[i]; i++)
        fprintf(f, "%s, ", sl_rng_types[i]->name);
    fprintf(f, "gsl:NAME (any GSL generator, e.g. gsl:taus2, gsl:ranlxd2)\n");
    if (sl_fw_types[0]) {
        fprintf(f, "\nframeworks (bit-exact emulations):\n");
        for (size_t i = 0; sl_fw_types[i]; i++) {
            const sl_fw_type *ft = sl_fw_types[i];
            fprintf(f, "  %-13s %s\n  %-13s options:", ft->name, ft->summary, "");
            for (int o = SL_CLI_NONE + 1; o < SL_CLI_OPT_COUNT; o++)
                if (sl_cli_options[o].bit & ft->accepts)
                    fprintf(f, " %s", sl_cli_options[o].name);
            fprintf(f, "\n");
            /* the upstream releases it follows */
            if (ft->variants)
                for (const sl_fw_variant *vr = ft->variants; vr->name; vr++)
                    fprintf(f, "  %-13s %s %s: %s%s\n", "", ft->variant_option, vr->name, vr->version,
                            vr == ft->variants ? " (default)" : "");
            else
                fprintf(f, "  %-13s follows %s\n", "", ft->version);
        }
        fprintf(f, "\nframework options: --num-samples K is torch.multinomial(p, K) or NumPy's size=K (K\n"
                   "tokens per output line); --replacement is torch's replacement=True; --dtype float32|float64\n"
                   "is the tensor / array dtype (default: a .npy keeps its own, text is float32 for torch,\n"
                   "float64 for NumPy). --seed: torch, candle and gsl take 0 .. 2^64 - 1, numpy 0 .. 2^128 - 1,\n"
                   "numpy-legacy 0 .. 2^32 - 1. An option a framework does not list is an error, never ignored.\n"
                   "\ntorch builds (docs/torch-builds.md): the MT19937 exponential_ emulated here is that of\n"
                   "torch 1.13, of builds without MKL (Debian's), and of pip's x86-64 wheels from 2.7 on;\n"
                   "pip's wheels 2.0 to 2.6 seed MKL's MCG31m1 from one generator word instead (stream\n"
                   "emulated in framework/torch_mkl.c, its logarithm not bit for bit); 2.14's wheels are\n"
                   "not established.\n");
    }
    fprintf(f, "\n");
    sl_cli_help_options(f, sl_cli_spec_lookup("draw"), "options:");
}


/* One JSON line the api layer built (NULL: out of memory). */
static int emit(char *s)
{
    if (!s)
        return 2;
    fputs(s, stdout);
    fputc('\n', stdout);
    free(s);
    return 0;
}

/* Counts straight from a V-sized array: `--n 1000000000 --counts` needs O(V) memory. */
static int print_counts(const uint64_t *c, size_t V, int json, const char *rng_name, unsigned word_bits,
                        uint64_t words)
{
    if (!json) {
        for (size_t i = 0; i < V; i++)
            printf("%zu\t%llu\n", i, (unsigned long long)c[i]);
        return 0;
    }
    return emit(sl_api_counts_json(c, V, rng_name, word_bits, words));
}

static int print_result(const long *tokens, size_t n, size_t k, int nested, size_t V, int counts, int json,
                        const char *rng_name, unsigned word_bits, uint64_t words, const char *version,
                        const char *cpu)
{
    if (json)
        return emit(sl_api_draw_json(tokens, n, k, nested, V, counts, rng_name, word_bits, words, version, cpu));
    if (counts) {
        uint64_t *c = calloc(V, sizeof *c);
        if (!c)
            return 2;
        for (size_t i = 0; i < n * k; i++)
            c[tokens[i]]++;
        for (size_t i = 0; i < V; i++)
            printf("%zu\t%llu\n", i, (unsigned long long)c[i]);
        free(c);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < k; j++)
            printf("%ld%c", tokens[i * k + j], j + 1 == k ? '\n' : ' ');
    return 0;
}

int sl_cli_draw_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("draw", argc, argv, draw_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    const char *probs_src = v[SL_CLI_PROBS].text, *logits_src = v[SL_CLI_LOGITS].text;
    const char *method = v[SL_CLI_METHOD].text, *framework = v[SL_CLI_FRAMEWORK].text;
    const char *rng_name = v[SL_CLI_RNG].given ? v[SL_CLI_RNG].text : "pcg32";
    const char *seed_text = v[SL_CLI_SEED].text, *stream_text = v[SL_CLI_STREAM].text;
    const char *tensor = v[SL_CLI_TENSOR].text, *dtype_text = v[SL_CLI_DTYPE].text;
    /* the release-line options all name the framework's variant; each is taken only by its framework */
    const char *variant = v[SL_CLI_TORCH].given      ? v[SL_CLI_TORCH].text
                          : v[SL_CLI_LLAMACPP].given ? v[SL_CLI_LLAMACPP].text
                                                     : v[SL_CLI_RAND].text;
    const char *context_text = v[SL_CLI_CONTEXT].text;
    long row = v[SL_CLI_ROW].given ? v[SL_CLI_ROW].l : -1;
    size_t n = v[SL_CLI_N].given ? v[SL_CLI_N].size : 1;
    int counts = v[SL_CLI_COUNTS].given, json = v[SL_CLI_JSON].given;
    char e[SL_CLI_ESC_MAX];
    sl_fw_opts fo;
    const char *cpu_text = NULL;
    memset(&fo, 0, sizeof fo);
    fo.k = v[SL_CLI_NUM_SAMPLES].given ? v[SL_CLI_NUM_SAMPLES].size : 1;
    fo.replacement = v[SL_CLI_REPLACEMENT].given;
    fo.simd_sum = v[SL_CLI_SIMD_SUM].given;
    {
        /* the pipeline settings draw takes, as pipeline and compare read them */
        sl_cli_logits_args la;
        sl_cli_logits_from(&po, &la);
        fo.cfg = la.cfg;
        cpu_text = la.cpu_text;
    }
    if (!fo.cfg.has_temperature)
        fo.cfg.temperature = 1.0;
    if (!!probs_src == !!logits_src) {
        sl_cli_errf("samplab draw: give exactly one of --probs SRC and --logits SRC\n");
        return 2;
    }
    if (!!method == !!framework) {
        sl_cli_errf("samplab draw: give exactly one of --method M and --framework F\n");
        return 2;
    }
    if (n == 0) {
        sl_cli_errf("samplab draw: --n must be at least 1\n");
        return 2;
    }
    sl_error err;
    sl_seed seed;
    if (sl_cli_seed(seed_text, stream_text, &seed))
        return 2;
    sl_vec vec;
    if (sl_io_vec_read(probs_src ? probs_src : logits_src, tensor, row, &vec, &err))
        return sl_cli_fail(&err);
    int rc = 2;
    long *tokens = NULL;

    if (framework) {
        const sl_fw_type *ft = sl_fw_lookup(framework);
        if (!ft) {
            sl_cli_errf("samplab draw: unknown framework '%s' (samplab draw --help lists them)\n",
                    sl_cli_esc(framework, e, sizeof e));
            goto out;
        }
        /* a framework fixes its own random source; its seed is --seed */
        sl_cli_opt miss = v[SL_CLI_STREAM].given ? SL_CLI_STREAM : v[SL_CLI_RNG].given ? SL_CLI_RNG
                        : sl_cli_refused(&po, SL_CLI_G_SOURCE | SL_CLI_G_SAMPLING | SL_CLI_G_LLAMA_PENALTY |
                                                  SL_CLI_G_FRAMEWORK, ft->accepts);
        if (miss) {
            rc = sl_cli_not_an_option("draw", sl_cli_options[miss].name, "framework", ft->name);
            goto out;
        }
        /* A penalty acts on the history: the context, plus the drawn tokens of a
         * framework that accepts them (llama.cpp). Without either it changes
         * nothing, and a context without a penalty is read for nothing. */
        sl_cli_opt pen = v[SL_CLI_REPETITION_PENALTY].given ? SL_CLI_REPETITION_PENALTY
                         : v[SL_CLI_FREQUENCY_PENALTY].given ? SL_CLI_FREQUENCY_PENALTY
                         : v[SL_CLI_PRESENCE_PENALTY].given  ? SL_CLI_PRESENCE_PENALTY
                                                             : SL_CLI_NONE;
        if (pen && !context_text && (!ft->accepts_drawn || n == 1)) {
            if (ft->accepts_drawn)
                sl_cli_errf("samplab draw: %s without --context changes nothing in one draw: give --context IDS "
                                "(the ids it penalises) or --n above 1\n", sl_cli_options[pen].name);
            else
                sl_cli_errf("samplab draw: %s without --context changes nothing: framework %s does not add its "
                                "draws to the history; give --context IDS (the ids it penalises)\n",
                        sl_cli_options[pen].name, ft->name);
            goto out;
        }
        if (context_text && !pen) {
            sl_cli_errf("samplab draw: --context is only used by --repetition-penalty (or a llama.cpp penalty)\n");
            goto out;
        }
        if (dtype_text) {
            if (!strcmp(dtype_text, "float32"))
                fo.dtype = SL_F32;
            else if (!strcmp(dtype_text, "float64"))
                fo.dtype = SL_F64;
            else {
                sl_cli_errf("samplab draw: --dtype takes float32 or float64, not '%s'\n",
                        sl_cli_esc(dtype_text, e, sizeof e));
                goto out;
            }
            fo.dtype_set = 1;
        }
        long *ctx = NULL;
        if (context_text) {
            sl_vec cv;
            if (sl_io_vec_read(context_text, NULL, -1, &cv, &err)) {
                rc = sl_cli_fail(&err);
                goto out;
            }
            ctx = malloc(cv.n * sizeof *ctx);
            for (size_t i = 0; ctx && i < cv.n; i++) {
                if (cv.d[i] != (double)(long)cv.d[i] || cv.d[i] < 0 || cv.d[i] >= (double)vec.n) {
                    sl_cli_errf("samplab draw: %s: context entry %zu (%.17g) is not a token id in 0..%zu\n",
                            sl_cli_esc(cv.source, e, sizeof e), i, cv.d[i], vec.n - 1);
                    free(ctx);
                    sl_base_vec_free(&cv);
                    goto out;
                }
                ctx[i] = (long)cv.d[i];
            }
            fo.cfg.context = ctx;
            fo.cfg.context_n = cv.n;
            sl_base_vec_free(&cv);
        }
        fo.probs = probs_src ? &vec : NULL;
        fo.logits = logits_src ? &vec : NULL;
        fo.seed = seed;
        fo.has_seed = seed_text != NULL;
        fo.n = n;
        fo.variant = variant;
        if (sl_cli_cpu("draw", cpu_text, &fo.cfg.cpu))
            goto out;
        if (v[SL_CLI_TORCH_BUILD].given) {
            const char *b = v[SL_CLI_TORCH_BUILD].text;
            if (strcmp(b, "mkl") && strcmp(b, "default")) {
                sl_cli_errf("samplab draw: --torch-build takes default or mkl, not '%s'\n",
                        sl_cli_esc(b, e, sizeof e));
                goto out;
            }
            fo.torch_mkl = !strcmp(b, "mkl");
        }
        const char *note = ft->note ? ft->note(&fo) : NULL;
        if (note)
            sl_cli_errf("samplab draw: note: %s\n", note);
        sl_fw_result res;
        memset(&res, 0, sizeof res);
        int frc = sl_fw_run(ft, &fo, &res, &err);
        free(ctx);
        if (frc) {
            rc = sl_cli_fail(&err);
            goto out;
        }
        rc = print_result(res.tokens, res.n, res.k, (ft->accepts & SL_OPT_NUM_SAMPLES) != 0, vec.n, counts, json,
                          res.rng_name, res.word_bits, res.words, res.version, res.cpu);
        sl_fw_result_free(&res);
        goto out;
    }

    /* --method: a draw method over a random source. */
    sl_cli_opt fw_only = sl_cli_refused(&po, SL_CLI_G_SAMPLING | SL_CLI_G_LLAMA_PENALTY | SL_CLI_G_FRAMEWORK, SL_OPT_TEMPERATURE);
    if (fw_only) {
        sl_cli_errf("samplab draw: %s is not an option of method %s: it needs --framework (a method takes --rng, "
                        "--seed, --stream)\n", sl_cli_options[fw_only].name, sl_cli_esc(method, e, sizeof e));
        goto out;
    }
    const sl_draw_type *dt = sl_draw_lookup(method);
    if (!dt) {
        sl_cli_errf("samplab draw: unknown method '%s' (exprace, cdf, linear, alias, greedy)\n",
                sl_cli_esc(method, e, sizeof e));
        goto out;
    }
    const sl_rng_type *rt = sl_rng_lookup(rng_name);
    if (!rt) {
        sl_cli_errf("samplab draw: unknown random source '%s' (samplab draw --help lists them)\n",
                sl_cli_esc(rng_name, e, sizeof e));
        goto out;
    }
    double *p = vec.d;
    double *soft = NULL;
    if (logits_src) {
        soft = malloc(vec.n * sizeof *soft);
        if (!soft)
            goto out;
        /* Greedy is argmax for every temperature, so T <= 0 is fine there. */
        double t = !strcmp(dt->name, "greedy") ? 1.0 : fo.cfg.temperature;
        int src = sl_logits_softmax(vec.d, vec.n, t, soft, &err);
        if (src) {
            sl_cli_fail_in(vec.source, &err);
            free(soft);
            goto out;
        }
        p = soft;
    } else {
        if (fo.cfg.has_temperature) {
            sl_cli_errf("samplab draw: --temperature applies to --logits only\n");
            goto out;
        }
        if (sl_base_vec_check_weights(&vec, &err)) {
            rc = sl_cli_fail(&err);
            goto out;
        }
    }
    sl_rng rng;
    void *table = NULL;
    if (sl_rng_init(&rng, rt, &seed, &err)) {
        free(soft);
        rc = sl_cli_fail(&err);
        goto out;
    }
    if (sl_draw_prepare(dt, &table, p, vec.n, &err)) {
        sl_rng_release(&rng);
        free(soft);
        rc = sl_cli_fail(&err);
        goto out;
    }
    /* a long run: progress on a terminal, Ctrl-C stops it (checked every 2^20 draws) */
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, "draw", "draws");
    size_t done = n;
    if (counts) {
        uint64_t *c = calloc(vec.n, sizeof *c);
        if (!c) {
            sl_cli_errf("samplab draw: out of memory for %zu counts\n", vec.n);
        } else {
            for (size_t i = 0; i < n && done == n; i++) {
                if (!(i & 0xfffff) && sl_cli_progress_tick(&pr, i, n))
                    done = i;
                else
                    c[dt->draw(table, &rng)]++;
            }
            sl_cli_progress_end(&pr);
            rc = done < n ? sl_cli_interrupt_exit("draw", done, "draws", "no counts printed")
                          : print_counts(c, vec.n, json, rt->name, rt->word_bits, rng.words);
            free(c);
        }
    } else if (!json) {
        /* one line per draw as it is made: no O(N) array (a draw cannot fail half-way) */
        for (size_t i = 0; i < n && done == n; i++) {
            if (!(i & 0xfffff) && sl_cli_progress_tick(&pr, i, n))
                done = i;
            else
                printf("%zu\n", dt->draw(table, &rng));
        }
        sl_cli_progress_end(&pr);
        rc = done < n ? sl_cli_interrupt_exit("draw", done, "draws", "the tokens printed stop there") : 0;
    } else if (!(tokens = malloc(n * sizeof *tokens))) {
        sl_cli_progress_end(&pr);
        sl_cli_errf("samplab draw: out of memory for %zu tokens\n", n);
    } else {
        for (size_t i = 0; i < n && done == n; i++) {
            if (!(i & 0xfffff) && sl_cli_progress_tick(&pr, i, n))
                done = i;
            else
                tokens[i] = (long)dt->draw(table, &rng);
        }
        sl_cli_progress_end(&pr);
        rc = done < n ? sl_cli_interrupt_exit("draw", done, "draws", "no JSON printed")
                      : print_result(tokens, n, 1, 0, vec.n, counts, json, rt->name, rt->word_bits, rng.words, NULL,
                                     NULL);
    }
    dt->free(table);
    sl_rng_release(&rng);
    free(soft);
out:
    free(tokens);
    sl_base_vec_free(&vec);
    return rc;
}
