/* pipeline.c — `samplab pipeline --framework F --logits SRC [settings]`:
 * the final distribution one framework's logits pipeline gives (see
 * logits/sl_logits.h), one `id<TAB>probability` line per kept token in id
 * order, or --json {"kept": [...], "probs": [all V]}. Also the settings
 * parser `samplab compare` shares. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

void sl_cli_logits_from(const sl_cli_parsed *p, sl_cli_logits_args *a)
{
    const sl_cli_arg *v = p->a;
    sl_logits_cfg *c = &a->cfg;
    memset(a, 0, sizeof *a);
    a->src = v[SL_CLI_LOGITS].text;
    a->tensor = v[SL_CLI_TENSOR].text;
    a->row = v[SL_CLI_ROW].given ? v[SL_CLI_ROW].l : -1;
    a->json = v[SL_CLI_JSON].given;
    a->context_src = v[SL_CLI_CONTEXT].text;
#define DBL(opt, field)                            \
    do {                                           \
        c->field = v[opt].d;                       \
        c->has_##field = v[opt].given;             \
    } while (0)
#define LNG(opt, field)                            \
    do {                                           \
        c->field = v[opt].l;                       \
        c->has_##field = v[opt].given;             \
    } while (0)
    DBL(SL_CLI_TEMPERATURE, temperature);
    DBL(SL_CLI_TOP_P, top_p);
    DBL(SL_CLI_MIN_P, min_p);
    DBL(SL_CLI_TYPICAL, typical);
    DBL(SL_CLI_REPETITION_PENALTY, penalty);
    DBL(SL_CLI_FREQUENCY_PENALTY, freq);
    DBL(SL_CLI_PRESENCE_PENALTY, presence);
    LNG(SL_CLI_TOP_K, top_k);
    LNG(SL_CLI_MIN_KEEP, min_keep);
    LNG(SL_CLI_PENALTY_LAST_N, last_n);
#undef DBL
#undef LNG
    c->defaults = v[SL_CLI_DEFAULTS].given;
    a->cpu_text = v[SL_CLI_CPU].text;
}

int sl_cli_logits_load(const char *cmd, sl_cli_logits_args *a)
{
    sl_error err;
    if (sl_cli_cpu(cmd, a->cpu_text, &a->cfg.cpu))
        return 2;
    if (!a->src) {
        sl_cli_errf("samplab %s: --logits SRC is required\n", cmd);
        return 2;
    }
    if ((a->cfg.has_penalty || a->cfg.has_freq || a->cfg.has_presence) && !a->context_src) {
        sl_cli_errf("samplab %s: a penalty needs --context IDS (the token ids it applies to)\n", cmd);
        return 2;
    }
    if (a->context_src && !a->cfg.has_penalty && !a->cfg.has_freq && !a->cfg.has_presence) {
        sl_cli_errf("samplab %s: --context is only used by --repetition-penalty (or a llama.cpp penalty)\n", cmd);
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
            sl_cli_errf("samplab %s: out of memory\n", cmd);
            return 2;
        }
        for (size_t i = 0; i < cv.n; i++) {
            if (cv.d[i] != floor(cv.d[i]) || cv.d[i] < 0 || cv.d[i] >= (double)a->vec.n) {
                char e[SL_CLI_ESC_MAX];
                sl_cli_errf("samplab %s: %s: context entry %zu (%.17g) is not a token id in 0..%zu\n", cmd,
                        sl_cli_esc(cv.source, e, sizeof e), i, cv.d[i], a->vec.n - 1);
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

static void pipeline_help(FILE *f)
{
    fprintf(f, "usage: samplab pipeline --framework F --logits SRC [settings] [--json]\n\n"
               "Prints the final distribution of framework F's logits pipeline: one `id<TAB>probability`\n"
               "line per kept token in id order (%%.9g for float32 pipelines, %%.17g for float64);\n"
               "--json: {\"framework\", \"kept\": [ids], \"probs\": [all V, 0 where removed], \"steps\"}.\n\n"
               "frameworks:\n");
    for (size_t i = 0; sl_logits_pipeline_types[i]; i++)
        fprintf(f, "  %-9s %s\n", sl_logits_pipeline_types[i]->name, sl_logits_pipeline_types[i]->summary);
    fprintf(f, "\n");
    sl_cli_help_options(f, sl_cli_spec_lookup("pipeline"),
                        "settings (each framework takes the ones it has; others are an error naming it):");
}

int sl_cli_pipeline_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("pipeline", argc, argv, pipeline_help, &po);
    if (st >= 0)
        return st;
    sl_cli_logits_args a;
    sl_cli_logits_from(&po, &a);
    const char *fw = po.a[SL_CLI_FRAMEWORK].text;
    char e[SL_CLI_ESC_MAX];
    if (!fw) {
        sl_cli_errf("samplab pipeline: --framework F is required (samplab pipeline --help lists them)\n");
        return 2;
    }
    const sl_logits_pipeline_type *t = sl_logits_pipeline_lookup(fw);
    if (!t) {
        sl_cli_errf("samplab pipeline: unknown framework '%s' (samplab pipeline --help lists them)\n",
                sl_cli_esc(fw, e, sizeof e));
        return 2;
    }
    sl_cli_opt miss = sl_cli_refused(&po, SL_CLI_G_SAMPLING | SL_CLI_G_LLAMA_PENALTY, t->accepts);
    if (miss)
        return sl_cli_not_an_option("pipeline", sl_cli_options[miss].name, "framework", t->name);
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
        sl_cli_errf("samplab pipeline: note: candle without --temperature is ArgMax (LogitsProcessor::new(seed, "
                        "None, ..)): --top-k and --top-p act only with a temperature\n");
    if (a.json) {
        char *s = sl_api_pipeline_json(t, &res, a.cfg.cpu);
        if (!s) {
            sl_cli_errf("samplab pipeline: out of memory writing JSON\n");
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
