/* pipeline.c — `samplab pipeline --framework F --logits SRC [settings]`:
 * the final distribution one framework's logits pipeline gives (see
 * logits/sl_logits.h), one `id<TAB>probability` line per kept token in id
 * order, or --json {"kept": [...], "probs": [all V]}. Also the settings
 * parser `samplab compare` shares. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

static const struct {
    unsigned bit;
    const char *name;
} logits_names[] = {
    {SL_OPT_TEMPERATURE, "--temperature"}, {SL_OPT_TOP_K, "--top-k"}, {SL_OPT_TOP_P, "--top-p"},
    {SL_OPT_MIN_P, "--min-p"}, {SL_OPT_TYPICAL, "--typical"},
    {SL_OPT_PENALTY, "--repetition-penalty/--context"}, {SL_OPT_MIN_KEEP, "--min-keep"},
    {SL_OPT_DEFAULTS, "--defaults"}, {SL_OPT_LAST_N, "--penalty-last-n"},
    {SL_OPT_FREQ_PRESENCE, "--frequency-penalty/--presence-penalty"},
};

const char *sl_cli_logits_missing(unsigned given, unsigned accepts)
{
    for (size_t i = 0; i < sizeof logits_names / sizeof logits_names[0]; i++)
        if ((given & logits_names[i].bit) && !(accepts & logits_names[i].bit))
            return logits_names[i].name;
    return NULL;
}

int sl_cli_logits_opt(const char *cmd, int argc, char **argv, int *i, sl_cli_logits_args *a)
{
    const char *o = argv[*i], *v;
    sl_logits_cfg *c = &a->cfg;
#define VAL()                                          \
    do {                                               \
        if (!(v = sl_cli_value(cmd, argc, argv, i))) \
            return -1;                                 \
    } while (0)
#define DBL(field, has, bit)                                  \
    do {                                                      \
        VAL();                                                \
        if (sl_cli_parse_double(cmd, o, v, &c->field))        \
            return -1;                                        \
        c->has = 1;                                           \
        a->given |= (bit);                                    \
        return 1;                                             \
    } while (0)
    if (!strcmp(o, "--logits")) {
        VAL();
        a->src = v;
        return 1;
    }
    if (!strcmp(o, "--tensor")) {
        VAL();
        a->tensor = v;
        return 1;
    }
    if (!strcmp(o, "--row")) {
        VAL();
        if (sl_cli_parse_long(cmd, o, v, &a->row))
            return -1;
        if (a->row < 0) {
            fprintf(stderr, "samplab %s: --row takes a non-negative integer\n", cmd);
            return -1;
        }
        return 1;
    }
    if (!strcmp(o, "--json")) {
        a->json = 1;
        return 1;
    }
    if (!strcmp(o, "--temperature"))
        DBL(temperature, has_temperature, SL_OPT_TEMPERATURE);
    if (!strcmp(o, "--top-p"))
        DBL(top_p, has_top_p, SL_OPT_TOP_P);
    if (!strcmp(o, "--min-p"))
        DBL(min_p, has_min_p, SL_OPT_MIN_P);
    if (!strcmp(o, "--typical"))
        DBL(typical, has_typical, SL_OPT_TYPICAL);
    if (!strcmp(o, "--repetition-penalty"))
        DBL(penalty, has_penalty, SL_OPT_PENALTY);
    if (!strcmp(o, "--frequency-penalty"))
        DBL(freq, has_freq, SL_OPT_FREQ_PRESENCE);
    if (!strcmp(o, "--presence-penalty"))
        DBL(presence, has_presence, SL_OPT_FREQ_PRESENCE);
    if (!strcmp(o, "--top-k") || !strcmp(o, "--min-keep") || !strcmp(o, "--penalty-last-n")) {
        VAL();
        long x;
        if (sl_cli_parse_long(cmd, o, v, &x))
            return -1;
        if (o[2] == 't') {
            c->top_k = x;
            c->has_top_k = 1;
            a->given |= SL_OPT_TOP_K;
        } else if (o[2] == 'm') {
            c->min_keep = x;
            c->has_min_keep = 1;
            a->given |= SL_OPT_MIN_KEEP;
        } else {
            c->last_n = x;
            c->has_last_n = 1;
            a->given |= SL_OPT_LAST_N;
        }
        return 1;
    }
    if (!strcmp(o, "--context")) {
        VAL();
        a->context_src = v;
        a->given |= SL_OPT_PENALTY;
        return 1;
    }
    if (!strcmp(o, "--defaults")) {
        c->defaults = 1;
        a->given |= SL_OPT_DEFAULTS;
        return 1;
    }
#undef DBL
#undef VAL
    return 0;
}

int sl_cli_logits_load(const char *cmd, sl_cli_logits_args *a)
{
    sl_error err;
    if (!a->src) {
        fprintf(stderr, "samplab %s: --logits SRC is required\n", cmd);
        return 2;
    }
    if ((a->cfg.has_penalty || a->cfg.has_freq || a->cfg.has_presence) && !a->context_src) {
        fprintf(stderr, "samplab %s: a penalty needs --context IDS (the token ids it applies to)\n", cmd);
        return 2;
    }
    if (a->context_src && !a->cfg.has_penalty && !a->cfg.has_freq && !a->cfg.has_presence) {
        fprintf(stderr, "samplab %s: --context is only used by --repetition-penalty (or a llama.cpp penalty)\n", cmd);
        return 2;
    }
    if (sl_io_vec_read(a->src, a->tensor, a->row, &a->vec, &err))
        return sl_cli_fail(&err);
    a->loaded = 1;
    if (a->context_src) {
        sl_vec cv;
        if (sl_io_vec_read(a->context_src, NULL, -1, &cv, &err))
            return sl_cli_fail(&err);
        a->context = malloc((cv.n ? cv.n : 1) * sizeof *a->context);
        if (!a->context) {
            sl_base_vec_free(&cv);
            fprintf(stderr, "samplab %s: out of memory\n", cmd);
            return 2;
        }
        for (size_t i = 0; i < cv.n; i++) {
            if (cv.d[i] != floor(cv.d[i]) || cv.d[i] < 0 || cv.d[i] >= (double)a->vec.n) {
                fprintf(stderr, "samplab %s: %s: context entry %zu (%.17g) is not a token id in 0..%zu\n", cmd,
                        cv.source, i, cv.d[i], a->vec.n - 1);
                sl_base_vec_free(&cv);
                return 2;
            }
            a->context[i] = (long)cv.d[i];
        }
        a->cfg.context = a->context;
        a->cfg.context_n = cv.n;
        sl_base_vec_free(&cv);
    }
    return 0;
}

void sl_cli_logits_free(sl_cli_logits_args *a)
{
    if (a->loaded)
        sl_base_vec_free(&a->vec);
    free(a->context);
    a->context = NULL;
    a->loaded = 0;
}

const char sl_cli_logits_settings_help[] =
    "settings (each framework takes the ones it has; others are an error naming it):\n"
    "  --logits SRC               logits: inline \"3,2,2,1\", a text file, .npy, or .safetensors\n"
    "  --tensor NAME --row I      which tensor (and row of a 2-D one) of a .safetensors file\n"
    "  --temperature T            hf: T must be > 0 (0 is transformers' ValueError); vllm: T < 1e-5 is greedy;\n"
    "                             llamacpp: T <= 0 keeps the first maximum; tutorial: T must be > 0\n"
    "  --top-k K                  hf, vllm: ties with the k-th value survive; llamacpp, tutorial: exactly K\n"
    "  --top-p P                  nucleus; hf/vllm remove ascending cumsum <= 1-P; llamacpp/tutorial keep\n"
    "                             through the token where the descending sum reaches P\n"
    "  --min-p M                  hf/vllm/tutorial in probability space after temperature;\n"
    "                             llamacpp in logit space (l >= max + ln M), before temperature\n"
    "  --typical M                locally typical sampling (hf, llamacpp)\n"
    "  --repetition-penalty R --context IDS\n"
    "                             penalise ids in IDS (inline list or file): hf every id, vllm every id,\n"
    "                             llamacpp the last --penalty-last-n (default 64)\n"
    "  --frequency-penalty F --presence-penalty P   llamacpp only (need --context)\n"
    "  --min-keep N               hf min_tokens_to_keep (default 1); llamacpp min_keep (default 0)\n"
    "  --defaults                 the framework's own defaults: hf top_k 50; llamacpp top-k 40, top-p 0.95,\n"
    "                             min-p 0.05, T 0.8; vllm none\n"
    "  --json                     machine-readable output\n";

static void pipeline_help(FILE *f)
{
    fprintf(f, "usage: samplab pipeline --framework F --logits SRC [settings] [--json]\n\n"
               "Prints the final distribution of framework F's logits pipeline: one `id<TAB>probability`\n"
               "line per kept token in id order (%%.9g for float32 pipelines, %%.17g for float64);\n"
               "--json: {\"framework\", \"kept\": [ids], \"probs\": [all V, 0 where removed], \"steps\"}.\n\n"
               "frameworks:\n");
    for (size_t i = 0; sl_logits_pipeline_types[i]; i++)
        fprintf(f, "  %-9s %s\n", sl_logits_pipeline_types[i]->name, sl_logits_pipeline_types[i]->summary);
    fprintf(f, "\n%s", sl_cli_logits_settings_help);
}

int sl_cli_pipeline_main(int argc, char **argv)
{
    sl_cli_logits_args a;
    memset(&a, 0, sizeof a);
    a.row = -1;
    const char *fw = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            pipeline_help(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--framework")) {
            if (!(fw = sl_cli_value("pipeline", argc, argv, &i)))
                return 2;
            continue;
        }
        int r = sl_cli_logits_opt("pipeline", argc, argv, &i, &a);
        if (r < 0)
            return 2;
        if (r == 0) {
            fprintf(stderr, "samplab pipeline: unknown option '%s' (samplab pipeline --help)\n", argv[i]);
            return 2;
        }
    }
    if (!fw) {
        fprintf(stderr, "samplab pipeline: --framework F is required (samplab pipeline --help lists them)\n");
        return 2;
    }
    const sl_logits_pipeline_type *t = sl_logits_pipeline_lookup(fw);
    if (!t) {
        fprintf(stderr, "samplab pipeline: unknown framework '%s' (samplab pipeline --help lists them)\n", fw);
        return 2;
    }
    const char *miss = sl_cli_logits_missing(a.given, t->accepts);
    if (miss) {
        fprintf(stderr, "samplab pipeline: %s is not an option of framework %s\n", miss, t->name);
        return 2;
    }
    int rc = sl_cli_logits_load("pipeline", &a);
    if (rc) {
        sl_cli_logits_free(&a);
        return rc;
    }
    sl_error err;
    sl_logits_result res;
    if (sl_logits_pipeline_run(t, &a.vec, &a.cfg, &res, &err)) {
        sl_cli_logits_free(&a);
        return sl_cli_fail(&err);
    }
    if (t == &sl_logits_pipeline_candle_type && !a.cfg.has_temperature && (a.cfg.has_top_k || a.cfg.has_top_p))
        fprintf(stderr, "samplab pipeline: note: candle without --temperature is ArgMax (LogitsProcessor::new(seed, "
                        "None, ..)): --top-k and --top-p act only with a temperature\n");
    if (a.json) {
        json_t *root = json_object(), *kept = json_array(), *probs = json_array(), *steps = json_array();
        for (size_t i = 0; i < res.V; i++) {
            if (res.kept[i])
                json_array_append_new(kept, json_integer((json_int_t)i));
            json_array_append_new(probs, json_real(res.probs[i]));
        }
        for (size_t i = 0; i < res.n_steps; i++)
            json_array_append_new(steps, json_string(res.steps[i]));
        json_object_set_new(root, "framework", json_string(t->name));
        json_object_set_new(root, "precision", json_integer(res.precision));
        json_object_set_new(root, "steps", steps);
        json_object_set_new(root, "kept", kept);
        json_object_set_new(root, "probs", probs);
        char *s = json_dumps(root, JSON_REAL_PRECISION(res.precision == 32 ? 9 : 17) | JSON_COMPACT);
        json_decref(root);
        if (!s) {
            fprintf(stderr, "samplab pipeline: out of memory writing JSON\n");
            rc = 2;
        } else {
            printf("%s\n", s);
            free(s);
        }
    } else {
        for (size_t i = 0; i < res.V; i++)
            if (res.kept[i])
                printf(res.precision == 32 ? "%zu\t%.9g\n" : "%zu\t%.17g\n", i, res.probs[i]);
    }
    sl_logits_result_free(&res);
    sl_cli_logits_free(&a);
    return rc;
}
