/* draw.c — `samplab draw`: N tokens from a probability vector, either with a
 * draw method over a random source (--method, --rng) or exactly as a real
 * framework would draw them (--framework). Output: one call per line, or
 * per-token counts, or one JSON object with the words consumed. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sl_cli.h"

/* Each framework-only option, its bit, and its name for messages. */
typedef struct opt_seen {
    unsigned bit;
    const char *name;
} opt_seen;

static const opt_seen opt_names[] = {
    {SL_OPT_PROBS, "--probs"}, {SL_OPT_LOGITS, "--logits"}, {SL_OPT_TEMPERATURE, "--temperature"},
    {SL_OPT_TOP_K, "--top-k"}, {SL_OPT_TOP_P, "--top-p"}, {SL_OPT_MIN_P, "--min-p"},
    {SL_OPT_NUM_SAMPLES, "--num-samples"}, {SL_OPT_REPLACEMENT, "--replacement"},
    {SL_OPT_DTYPE, "--dtype"}, {SL_OPT_VARIANT, "--torch"}, {SL_OPT_SIMD_SUM, "--simd-sum"},
    {SL_OPT_TYPICAL, "--typical"}, {SL_OPT_PENALTY, "--repetition-penalty/--context"},
    {SL_OPT_MIN_KEEP, "--min-keep"}, {SL_OPT_DEFAULTS, "--defaults"},
};

static void draw_help(FILE *f)
{
    fprintf(f,
            "usage: samplab draw (--probs SRC | --logits SRC [--temperature T]) --method M [--rng R]\n"
            "                    [--seed S] [--stream Q] [--n N] [--counts] [--json]\n"
            "       samplab draw --framework F (--probs SRC | --logits SRC) [--seed S] [--n N]\n"
            "                    [--num-samples K] [--replacement] [--dtype float32|float64] [--torch 2]\n"
            "                    [--temperature T] [--top-k K] [--top-p P] [--min-p M] [--simd-sum]\n"
            "                    [--counts] [--json]\n\n"
            "SRC is an inline list (3,2,2,1), a text file (numbers separated by whitespace or commas,\n"
            "# comments, no empty fields), a 1-D .npy (float32/float64), or a .safetensors file (--tensor NAME --row I).\n"
            "--probs are weights (finite, >= 0, not all zero; need not sum to 1); --logits go through\n"
            "a stable softmax with --temperature T (default 1; T <= 0 is an error: use --method greedy).\n"
            "Defaults: --rng pcg32 --seed 42 --stream 0 --n 1. The same arguments give the same bytes.\n\n"
            "--counts prints one line per token id: id<TAB>count. --json prints one object:\n"
            "{\"tokens\": [...], \"rng\": {\"name\": ..., \"word_bits\": ..., \"words\": W}} with W the\n"
            "words the draws consumed.\n\nmethods:\n");
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
            for (size_t j = 0; j < sizeof opt_names / sizeof opt_names[0]; j++)
                if (ft->accepts & opt_names[j].bit)
                    fprintf(f, " %s", opt_names[j].name);
            fprintf(f, "\n");
        }
        fprintf(f, "\nframework options: --num-samples K is torch.multinomial(p, K) or NumPy's size=K (K\n"
                   "tokens per output line); --replacement is torch's replacement=True; --dtype float32|float64\n"
                   "is the tensor / array dtype (default: a .npy keeps its own, text is float32 for torch,\n"
                   "float64 for NumPy); --torch 2 the torch 2.x CPU kernel. --seed: torch, candle and gsl take\n"
                   "0 .. 2^64 - 1, numpy 0 .. 2^128 - 1, numpy-legacy 0 .. 2^32 - 1. An option a framework does\n"
                   "not list is an error, never ignored.\n");
    }
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
    json_t *root = json_object();
    json_t *arr = json_array();
    for (size_t i = 0; i < V; i++)
        json_array_append_new(arr, json_integer((json_int_t)c[i]));
    json_object_set_new(root, "counts", arr);
    json_t *rng = json_object();
    json_object_set_new(rng, "name", json_string(rng_name));
    json_object_set_new(rng, "word_bits", json_integer(word_bits));
    json_object_set_new(rng, "words", json_integer((json_int_t)words));
    json_object_set_new(root, "rng", rng);
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!s)
        return 2;
    fputs(s, stdout);
    fputc('\n', stdout);
    free(s);
    return 0;
}

static int print_result(const long *tokens, size_t n, size_t k, int nested, size_t V, int counts, int json,
                        const char *rng_name, unsigned word_bits, uint64_t words)
{
    if (json) {
        json_t *root = json_object();
        json_t *arr = json_array();
        if (counts) {
            uint64_t *c = calloc(V, sizeof *c);
            if (!c)
                return 2;
            for (size_t i = 0; i < n * k; i++)
                c[tokens[i]]++;
            for (size_t i = 0; i < V; i++)
                json_array_append_new(arr, json_integer((json_int_t)c[i]));
            free(c);
            json_object_set_new(root, "counts", arr);
        } else {
            for (size_t i = 0; i < n; i++) {
                if (nested) {
                    json_t *row = json_array();
                    for (size_t j = 0; j < k; j++)
                        json_array_append_new(row, json_integer(tokens[i * k + j]));
                    json_array_append_new(arr, row);
                } else {
                    for (size_t j = 0; j < k; j++)
                        json_array_append_new(arr, json_integer(tokens[i * k + j]));
                }
            }
            json_object_set_new(root, "tokens", arr);
        }
        json_t *rng = json_object();
        json_object_set_new(rng, "name", json_string(rng_name));
        json_object_set_new(rng, "word_bits", json_integer(word_bits));
        json_object_set_new(rng, "words", json_integer((json_int_t)words));
        json_object_set_new(root, "rng", rng);
        char *s = json_dumps(root, JSON_COMPACT);
        json_decref(root);
        if (!s)
            return 2;
        fputs(s, stdout);
        fputc('\n', stdout);
        free(s);
        return 0;
    }
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

/* The numeric framework settings: option, its SL_OPT_* bit, where the value
 * and its "given" flag live in sl_fw_opts, and whether it is an integer. */
typedef struct num_opt {
    const char *name;
    unsigned bit;
    size_t value, has; /* offsetof into sl_fw_opts */
    int integer;
} num_opt;

#define NUM_OPT(name, bit, field, integer) {name, bit, offsetof(sl_fw_opts, cfg.field), offsetof(sl_fw_opts, cfg.has_##field), integer}
static const num_opt num_opts[] = {
    NUM_OPT("--temperature", SL_OPT_TEMPERATURE, temperature, 0),
    NUM_OPT("--top-k", SL_OPT_TOP_K, top_k, 1),
    NUM_OPT("--top-p", SL_OPT_TOP_P, top_p, 0),
    NUM_OPT("--min-p", SL_OPT_MIN_P, min_p, 0),
    NUM_OPT("--typical", SL_OPT_TYPICAL, typical, 0),
    NUM_OPT("--repetition-penalty", SL_OPT_PENALTY, penalty, 0),
    NUM_OPT("--min-keep", SL_OPT_MIN_KEEP, min_keep, 1),
};
#undef NUM_OPT

/* argv[*i] if it is one of num_opts: parses its value into fo. 1 consumed,
 * 0 not a numeric setting, -1 error (printed). */
static int draw_num_opt(int argc, char **argv, int *i, sl_fw_opts *fo, unsigned *given)
{
    for (size_t j = 0; j < sizeof num_opts / sizeof num_opts[0]; j++) {
        const num_opt *o = &num_opts[j];
        if (strcmp(argv[*i], o->name))
            continue;
        const char *v = sl_cli_value("draw", argc, argv, i);
        char *base = (char *)fo;
        if (!v || (o->integer ? sl_cli_parse_long("draw", o->name, v, (long *)(base + o->value))
                              : sl_cli_parse_double("draw", o->name, v, (double *)(base + o->value))))
            return -1;
        *(int *)(base + o->has) = 1;
        *given |= o->bit;
        return 1;
    }
    return 0;
}

int sl_cli_draw_main(int argc, char **argv)
{
    const char *probs_src = NULL, *logits_src = NULL, *method = NULL, *rng_name = "pcg32", *framework = NULL;
    const char *seed_text = NULL, *stream_text = NULL, *tensor = NULL, *dtype_text = NULL, *variant = NULL;
    const char *context_text = NULL;
    long row = -1;
    size_t n = 1;
    int counts = 0, json = 0;
    unsigned given = 0; /* SL_OPT_* bits the user gave */
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.k = 1;
    fo.cfg.temperature = 1.0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
#define VALUE()                                           \
    do {                                                  \
        if (!(v = sl_cli_value("draw", argc, argv, &i))) \
            return 2;                                     \
    } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            draw_help(stdout);
            return 0;
        } else if (!strcmp(a, "--probs")) {
            VALUE();
            probs_src = v;
        } else if (!strcmp(a, "--logits")) {
            VALUE();
            logits_src = v;
        } else if (!strcmp(a, "--method")) {
            VALUE();
            method = v;
        } else if (!strcmp(a, "--framework")) {
            VALUE();
            framework = v;
        } else if (!strcmp(a, "--rng")) {
            VALUE();
            rng_name = v;
        } else if (!strcmp(a, "--seed")) {
            VALUE();
            seed_text = v;
        } else if (!strcmp(a, "--stream")) {
            VALUE();
            stream_text = v;
        } else if (!strcmp(a, "--n")) {
            VALUE();
            if (sl_cli_parse_size("draw", a, v, &n))
                return 2;
        } else if (!strcmp(a, "--counts")) {
            counts = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--tensor")) {
            VALUE();
            tensor = v;
        } else if (!strcmp(a, "--row")) {
            VALUE();
            if (sl_cli_parse_long("draw", a, v, &row))
                return 2;
            if (row < 0) {
                fprintf(stderr, "samplab draw: --row takes a non-negative integer\n");
                return 2;
            }
        } else if (!strcmp(a, "--num-samples")) {
            VALUE();
            if (sl_cli_parse_size("draw", a, v, &fo.k))
                return 2;
            given |= SL_OPT_NUM_SAMPLES;
        } else if (!strcmp(a, "--replacement")) {
            fo.replacement = 1;
            given |= SL_OPT_REPLACEMENT;
        } else if (!strcmp(a, "--dtype")) {
            VALUE();
            dtype_text = v;
            given |= SL_OPT_DTYPE;
        } else if (!strcmp(a, "--torch")) {
            VALUE();
            variant = v;
            given |= SL_OPT_VARIANT;
        } else if (!strcmp(a, "--simd-sum")) {
            fo.simd_sum = 1;
            given |= SL_OPT_SIMD_SUM;
        } else if (!strcmp(a, "--context")) {
            VALUE();
            context_text = v;
            given |= SL_OPT_PENALTY;
        } else if (!strcmp(a, "--defaults")) {
            fo.cfg.defaults = 1;
            given |= SL_OPT_DEFAULTS;
        } else {
            int r = draw_num_opt(argc, argv, &i, &fo, &given);
            if (r < 0)
                return 2;
            if (r == 0) {
                fprintf(stderr, "samplab draw: unknown option '%s' (samplab draw --help)\n", a);
                return 2;
            }
        }
#undef VALUE
    }
    if (!!probs_src == !!logits_src) {
        fprintf(stderr, "samplab draw: give exactly one of --probs SRC and --logits SRC\n");
        return 2;
    }
    if (!!method == !!framework) {
        fprintf(stderr, "samplab draw: give exactly one of --method M and --framework F\n");
        return 2;
    }
    if (n == 0) {
        fprintf(stderr, "samplab draw: --n must be at least 1\n");
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
            fprintf(stderr, "samplab draw: unknown framework '%s' (samplab draw --help lists them)\n", framework);
            goto out;
        }
        if (stream_text) {
            fprintf(stderr, "samplab draw: --stream is not an option of framework %s\n", ft->name);
            goto out;
        }
        given |= probs_src ? SL_OPT_PROBS : SL_OPT_LOGITS;
        for (size_t i = 0; i < sizeof opt_names / sizeof opt_names[0]; i++)
            if ((given & opt_names[i].bit) && !(ft->accepts & opt_names[i].bit)) {
                fprintf(stderr, "samplab draw: %s is not an option of framework %s\n", opt_names[i].name, ft->name);
                goto out;
            }
        if (dtype_text) {
            if (!strcmp(dtype_text, "float32"))
                fo.dtype = SL_F32;
            else if (!strcmp(dtype_text, "float64"))
                fo.dtype = SL_F64;
            else {
                fprintf(stderr, "samplab draw: --dtype takes float32 or float64, not '%s'\n", dtype_text);
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
                    fprintf(stderr, "samplab draw: %s: context entry %zu (%.17g) is not a token id in 0..%zu\n",
                            cv.source, i, cv.d[i], vec.n - 1);
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
        if (!strcmp(ft->name, "candle") && fo.logits && !fo.cfg.has_temperature && (fo.cfg.has_top_k || fo.cfg.has_top_p))
            fprintf(stderr, "samplab draw: note: candle without --temperature is ArgMax (LogitsProcessor::new(seed, "
                            "None, ..)): --top-k and --top-p act only with a temperature\n");
        sl_fw_result res;
        memset(&res, 0, sizeof res);
        int frc = sl_fw_run(ft, &fo, &res, &err);
        free(ctx);
        if (frc) {
            rc = sl_cli_fail(&err);
            goto out;
        }
        rc = print_result(res.tokens, res.n, res.k, (ft->accepts & SL_OPT_NUM_SAMPLES) != 0, vec.n, counts, json,
                          res.rng_name, res.word_bits, res.words);
        sl_fw_result_free(&res);
        goto out;
    }

    /* --method: a draw method over a random source. */
    if (given & ~SL_OPT_TEMPERATURE) {
        fprintf(stderr, "samplab draw: that option needs --framework (a method takes --rng, --seed, --stream)\n");
        goto out;
    }
    const sl_draw_type *dt = sl_draw_lookup(method);
    if (!dt) {
        fprintf(stderr, "samplab draw: unknown method '%s' (exprace, cdf, linear, alias, greedy)\n", method);
        goto out;
    }
    const sl_rng_type *rt = sl_rng_lookup(rng_name);
    if (!rt) {
        fprintf(stderr, "samplab draw: unknown random source '%s' (samplab draw --help lists them)\n", rng_name);
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
            fprintf(stderr, "samplab: %s: %s\n", vec.source, err.msg);
            free(soft);
            goto out;
        }
        p = soft;
    } else {
        if (fo.cfg.has_temperature) {
            fprintf(stderr, "samplab draw: --temperature applies to --logits only\n");
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
    if (counts) {
        uint64_t *c = calloc(vec.n, sizeof *c);
        if (!c) {
            fprintf(stderr, "samplab draw: out of memory for %zu counts\n", vec.n);
        } else {
            for (size_t i = 0; i < n; i++)
                c[dt->draw(table, &rng)]++;
            rc = print_counts(c, vec.n, json, rt->name, rt->word_bits, rng.words);
            free(c);
        }
    } else if (!json) {
        /* one line per draw as it is made: no O(N) array (a draw cannot fail half-way) */
        for (size_t i = 0; i < n; i++)
            printf("%zu\n", dt->draw(table, &rng));
        rc = 0;
    } else if (!(tokens = malloc(n * sizeof *tokens))) {
        fprintf(stderr, "samplab draw: out of memory for %zu tokens\n", n);
    } else {
        for (size_t i = 0; i < n; i++)
            tokens[i] = (long)dt->draw(table, &rng);
        rc = print_result(tokens, n, 1, 0, vec.n, counts, json, rt->name, rt->word_bits, rng.words);
    }
    dt->free(table);
    sl_rng_release(&rng);
    free(soft);
out:
    free(tokens);
    sl_base_vec_free(&vec);
    return rc;
}
