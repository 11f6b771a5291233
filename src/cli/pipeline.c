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
    sl_api_settings s;
    sl_cli_settings_from(p, &s);
    memset(a, 0, sizeof *a);
    a->src = v[SL_API_OPT_LOGITS].text;
    a->tensor = v[SL_API_OPT_TENSOR].text;
    a->row = v[SL_API_OPT_ROW].given ? v[SL_API_OPT_ROW].l : -1;
    a->json = v[SL_API_OPT_JSON].given;
    a->context_src = s.context;
    a->cfg = s.cfg; /* --temperature ... --min-keep, as the schema lands them */
    a->cpu_text = s.cpu;
}

int sl_cli_logits_load(const char *cmd, const sl_cli_parsed *p, sl_cli_logits_args *a)
{
    /* the checks and the reading are the library's (api/pipeline.c) */
    sl_api_settings s;
    sl_cli_settings_from(p, &s);
    sl_api_src src = sl_cli_src_from(p);
    sl_error err;
    if (sl_api_logits_input(cmd, &src, &s, &a->vec, &a->cfg, &err))
        return sl_cli_api_fail(&err);
    a->loaded = 1;
    a->context = (long *)a->cfg.context;
    return 0;
}

void sl_cli_logits_free(sl_cli_logits_args *a)
{
    if (a->loaded)
        sl_base_vec_free(&a->vec);
    free(a->context);
    a->context = NULL;
    free((void *)a->cfg.dry_breaker);
    a->cfg.dry_breaker = NULL;
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
    sl_cli_help_options(f, sl_api_cmd_lookup("pipeline"),
                        "settings (each framework takes the ones it has; others are an error naming it):");
}

int sl_cli_pipeline_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/pipeline.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("pipeline", argc, argv, pipeline_help, &po, &s, &src);
    if (st >= 0)
        return st;
    sl_api_pipeline_result r;
    sl_error err;
    if (sl_api_pipeline_run(&src, &s, &r, &err))
        return sl_cli_api_fail(&err);
    if (r.note)
        sl_cli_errf("samplab pipeline: note: %s\n", r.note);
    int rc = 0;
    if (po.a[SL_API_OPT_JSON].given) {
        char *js = sl_api_pipeline_json(&r);
        if (!js) {
            sl_cli_errf("samplab pipeline: out of memory writing JSON\n");
            rc = 2;
        } else {
            printf("%s\n", js);
            free(js);
        }
    } else {
        for (size_t i = 0; i < r.res.V; i++)
            if (r.res.kept[i])
                printf(r.res.precision == 32 ? "%zu\t%.9g\n" : "%zu\t%.17g\n", i, r.res.probs[i]);
    }
    sl_api_pipeline_result_free(&r);
    return rc;
}
