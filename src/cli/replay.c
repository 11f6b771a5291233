/* replay.c — `samplab replay`: the tokens of a whole generation. One sampler
 * session (framework/session.c) runs across the T steps of a [T, V] logits (or,
 * for frameworks that sample given weights, probabilities) source: the prompt
 * (--context) is the session's starting history, and every drawn token is
 * accepted, so penalties see prompt + generated so far, as transformers'
 * growing input_ids and llama_sampler_sample's accept do. One generator stream
 * across all steps: cost linear in T. `--framework all` runs every session
 * framework that takes logits side by side and names the first step at which
 * each departs from the first-listed. Also the setup `samplab check` shares. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

/* Every framework is a sampler session; one without a step hook cannot be replayed. */
static int is_session(const sl_fw_type *t)
{
    return t->step != NULL;
}

/* The kind of rows t reads by default: logits, unless it takes only probabilities. */
static int takes_logits(const sl_fw_type *t)
{
    return (t->accepts & SL_OPT_LOGITS) != 0;
}

/* The first option given that t does not take; --context is the prompt here,
 * which every framework takes (it is the history, not only a penalty's). */
static sl_cli_opt gen_refused(const sl_cli_parsed *po, const sl_fw_type *t)
{
    sl_cli_parsed q = *po;
    q.a[SL_CLI_CONTEXT].given = 0;
    q.a[SL_CLI_LOGITS].given = q.a[SL_CLI_PROBS].given = 0;
    /* the penalty window and frequency / presence penalties are settings of the
     * pipeline (llama.cpp's), which the framework type does not repeat */
    unsigned extra = t->pipeline ? t->pipeline->accepts & (SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE) : 0;
    return sl_cli_refused(&q, SL_CLI_G_SOURCE | SL_CLI_G_SAMPLING | SL_CLI_G_FRAMEWORK | SL_CLI_G_LLAMA_PENALTY,
                          t->accepts | extra);
}

void sl_cli_gen_free(sl_cli_gen *g)
{
    sl_io_steps_free(&g->steps);
    free(g->context);
    g->context = NULL;
}

int sl_cli_gen_ids(const char *cmd, const char *src, const char *what, size_t V, long **ids, size_t *n)
{
    sl_error err;
    sl_vec cv;
    char e[SL_CLI_ESC_MAX];
    *ids = NULL;
    *n = 0;
    if (sl_io_vec_read(src, NULL, -1, &cv, &err))
        return sl_cli_fail(&err);
    long *x = malloc(cv.n * sizeof *x);
    if (!x) {
        sl_base_vec_free(&cv);
        sl_cli_errf("samplab %s: out of memory for %zu %s ids\n", cmd, cv.n, what);
        return 2;
    }
    for (size_t i = 0; i < cv.n; i++) {
        if (cv.d[i] != floor(cv.d[i]) || cv.d[i] < 0 || cv.d[i] >= (double)V) {
            sl_cli_errf("samplab %s: %s: %s entry %zu (%.17g) is not a token id in 0..%zu\n", cmd,
                    sl_cli_esc(cv.source, e, sizeof e), what, i, cv.d[i], V - 1);
            sl_base_vec_free(&cv);
            free(x);
            return 2;
        }
        x[i] = (long)cv.d[i];
    }
    *ids = x;
    *n = cv.n;
    sl_base_vec_free(&cv);
    return 0;
}

int sl_cli_gen_load(const char *cmd, const sl_cli_parsed *po, int allow_all, sl_cli_gen *g)
{
    const sl_cli_arg *v = po->a;
    char e[SL_CLI_ESC_MAX];
    sl_error err;
    memset(g, 0, sizeof *g);
    const char *fw = v[SL_CLI_FRAMEWORK].text;
    if (!fw) {
        sl_cli_errf("samplab %s: --framework F is required (samplab %s --help lists them)\n", cmd, cmd);
        return 2;
    }
    if (allow_all && !strcmp(fw, "all")) {
        g->all = 1;
    } else if (!(g->ft = sl_fw_lookup(fw))) {
        sl_cli_errf("samplab %s: unknown framework '%s' (samplab %s --help lists them)\n", cmd,
                sl_cli_esc(fw, e, sizeof e), cmd);
        return 2;
    } else if (!is_session(g->ft)) {
        sl_cli_errf("samplab %s: framework %s does not run step by step yet (no sampler session)\n", cmd,
                g->ft->name);
        return 2;
    }
    const char *probs = v[SL_CLI_PROBS].text, *logits = v[SL_CLI_LOGITS].text;
    if (!!probs == !!logits) {
        sl_cli_errf("samplab %s: give exactly one of --logits SRC and --probs SRC (per-step rows)\n", cmd);
        return 2;
    }
    if (g->all && probs) {
        sl_cli_errf("samplab %s: --framework all runs the frameworks that take --logits\n", cmd);
        return 2;
    }
    if (g->ft) {
        if (!(g->ft->accepts & (logits ? SL_OPT_LOGITS : SL_OPT_PROBS))) {
            sl_cli_errf("samplab %s: framework %s takes --%s (%s)\n", cmd, g->ft->name,
                    logits ? "probs" : "logits", g->ft->input_why);
            return 2;
        }
        sl_cli_opt miss = gen_refused(po, g->ft);
        if (miss)
            return sl_cli_not_an_option(cmd, sl_cli_options[miss].name, "framework", g->ft->name);
    }
    sl_fw_opts *fo = &g->fo;
    memset(fo, 0, sizeof *fo);
    sl_cli_logits_args la;
    sl_cli_logits_from(po, &la);
    fo->cfg = la.cfg;
    if (!fo->cfg.has_temperature)
        fo->cfg.temperature = 1.0;
    fo->k = 1;
    fo->n = 1;
    fo->simd_sum = v[SL_CLI_SIMD_SUM].given;
    /* the release-line options all name the framework's variant; each is taken only by its framework */
    fo->variant = v[SL_CLI_TORCH].given      ? v[SL_CLI_TORCH].text
                  : v[SL_CLI_LLAMACPP].given ? v[SL_CLI_LLAMACPP].text
                                             : v[SL_CLI_RAND].text;
    if (sl_cli_cpu(cmd, la.cpu_text, &fo->cfg.cpu))
        return 2;
    if (v[SL_CLI_DTYPE].text) {
        const char *dt = v[SL_CLI_DTYPE].text;
        if (!strcmp(dt, "float32"))
            fo->dtype = SL_F32;
        else if (!strcmp(dt, "float64"))
            fo->dtype = SL_F64;
        else {
            sl_cli_errf("samplab %s: --dtype takes float32 or float64, not '%s'\n", cmd, sl_cli_esc(dt, e, sizeof e));
            return 2;
        }
        fo->dtype_set = 1;
    }
    g->has_seed = v[SL_CLI_SEED].given;
    if (sl_cli_seed(v[SL_CLI_SEED].text, NULL, &fo->seed))
        return 2;
    fo->has_seed = g->has_seed;
    g->json = v[SL_CLI_JSON].given;
    g->logits_input = logits != NULL;
    /* the session reads the rows as the kind given (candle takes both) */
    if (logits)
        fo->logits = &g->marker;
    else
        fo->probs = &g->marker;
    if (sl_io_steps_read(probs ? probs : logits, v[SL_CLI_TENSOR].text, &g->steps, &err))
        return sl_cli_fail(&err);
    if (v[SL_CLI_CONTEXT].text) {
        if (sl_cli_gen_ids(cmd, v[SL_CLI_CONTEXT].text, "context", g->steps.v, &g->context, &g->context_n)) {
            sl_cli_gen_free(g);
            return 2;
        }
        fo->cfg.context = g->context;
        fo->cfg.context_n = g->context_n;
    }
    return 0;
}

/* What one framework's replay gave. */
typedef struct gen_run {
    const sl_fw_type *ft;
    long *tokens;
    uint64_t *words;          /* cumulative, after each step */
    size_t *kept;
    const char *rng_name;
    int failed;
    char why[SL_CLI_ESC_MAX];
} gen_run;

static void gen_run_free(gen_run *r)
{
    free(r->tokens);
    free(r->words);
    free(r->kept);
}

static int run_one(const sl_fw_type *ft, const sl_fw_opts *fo, const sl_io_steps *m, gen_run *r, sl_error *err)
{
    memset(r, 0, sizeof *r);
    r->ft = ft;
    size_t T = m->t;
    r->tokens = malloc(T * sizeof *r->tokens);
    r->words = malloc(T * sizeof *r->words);
    r->kept = malloc(T * sizeof *r->kept);
    if (!r->tokens || !r->words || !r->kept)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu steps", ft->name, T);
    return sl_api_gen_replay(ft, fo, m, r->tokens, r->words, r->kept, &r->rng_name, err);
}

static void replay_help(FILE *f)
{
    fprintf(f,
            "usage: samplab replay --framework F|all (--logits SRC | --probs SRC) [--tensor NAME]\n"
            "                      [--context IDS] [--seed S] [settings] [--json]\n\n"
            "The tokens of a whole generation: SRC holds one row per step, a [T, V] array (a 2-D\n"
            ".safetensors tensor, a 2-D .npy, or text with one step per line). One sampler session runs\n"
            "across the T steps with one generator stream; the prompt --context IDS (inline list or file)\n"
            "is its starting history and every drawn token is accepted into it, so penalties see prompt +\n"
            "generated so far. Prints one token per line; --json prints {\"tokens\": [...], \"words\":\n"
            "[words consumed after each step, cumulative], \"kept\": [tokens the pipeline kept each step],\n"
            "\"rng\": name}. --framework all runs every framework that takes logits and all the given\n"
            "settings, one column each, and the first step where each departs from the first-listed.\n"
            "torch and numpy take --probs rows (one plain draw per step); hf, vllm take --logits.\n"
            "torch 2.x is the default (--torch 1.13 for the old line); --cpu avx2|avx512 the kernel.\n\n"
            "frameworks (step by step):\n");
    for (size_t i = 0; sl_fw_types[i]; i++)
        if (is_session(sl_fw_types[i]))
            fprintf(f, "  %-13s --%s; %s\n", sl_fw_types[i]->name, (sl_fw_types[i]->accepts & SL_OPT_LOGITS) && (sl_fw_types[i]->accepts & SL_OPT_PROBS) ? "logits or --probs"
                    : takes_logits(sl_fw_types[i]) ? "logits" : "probs",
                    sl_fw_types[i]->summary);
    fprintf(f, "\n");
    sl_cli_help_options(f, sl_cli_spec_lookup("replay"), "options:");
}

static sl_api_run api_run(const gen_run *r)
{
    sl_api_run a = {r->ft, r->tokens, r->words, r->kept, r->rng_name};
    return a;
}

static int emit(char *s)
{
    if (!s)
        return 2;
    puts(s);
    free(s);
    return 0;
}

int sl_cli_replay_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("replay", argc, argv, replay_help, &po);
    if (st >= 0)
        return st;
    sl_cli_gen g;
    if (sl_cli_gen_load("replay", &po, 1, &g))
        return 2;
    sl_error err;
    size_t T = g.steps.t;
    int rc = 2;
    if (!g.all) {
        gen_run r;
        if (run_one(g.ft, &g.fo, &g.steps, &r, &err)) {
            rc = sl_cli_fail(&err);
        } else if (g.json) {
            sl_api_run a = api_run(&r);
            rc = emit(sl_api_replay_json(&a, 1, NULL, T, 0));
        } else {
            for (size_t t = 0; t < T; t++)
                printf("%ld\n", r.tokens[t]);
            rc = 0;
        }
        gen_run_free(&r);
        sl_cli_gen_free(&g);
        return rc;
    }
    /* all: every session framework on logits that takes every option given;
     * --cpu names torch's kernel on this machine, not a setting, so it keeps
     * the frameworks without that kernel in (they never read it) */
    gen_run runs[32];
    size_t nr = 0;
    sl_cli_parsed pall = po;
    pall.a[SL_CLI_CPU].given = 0;
    for (size_t i = 0; sl_fw_types[i] && nr < 32; i++) {
        const sl_fw_type *ft = sl_fw_types[i];
        if (!is_session(ft) || !takes_logits(ft) || gen_refused(&pall, ft))
            continue;
        if (run_one(ft, &g.fo, &g.steps, &runs[nr], &err)) {
            char m[SL_CLI_ESC_MAX];
            sl_cli_errf("samplab replay: %s: %s\n", ft->name, sl_cli_esc(err.msg, m, sizeof m));
            for (size_t j = 0; j <= nr; j++)
                gen_run_free(&runs[j]);
            sl_cli_gen_free(&g);
            return 2;
        }
        nr++;
    }
    if (!nr) {
        sl_cli_errf("samplab replay: no step-by-step framework on logits takes every option given\n");
        sl_cli_gen_free(&g);
        return 2;
    }
    /* the first step each departs from runs[0], T if never */
    size_t depart[32];
    for (size_t j = 0; j < nr; j++) {
        depart[j] = T;
        for (size_t t = 0; t < T && depart[j] == T; t++)
            if (runs[j].tokens[t] != runs[0].tokens[t])
                depart[j] = t;
    }
    if (g.json) {
        sl_api_run a[32];
        for (size_t j = 0; j < nr; j++)
            a[j] = api_run(&runs[j]);
        rc = emit(sl_api_replay_json(a, nr, depart, T, 1));
    } else {
        printf("step");
        for (size_t j = 0; j < nr; j++)
            printf("\t%s", runs[j].ft->name);
        printf("\n");
        for (size_t t = 0; t < T; t++) {
            printf("%zu", t);
            for (size_t j = 0; j < nr; j++)
                printf("\t%ld%s", runs[j].tokens[t], j && t == depart[j] ? "*" : "");
            printf("\n");
        }
        for (size_t j = 1; j < nr; j++) {
            if (depart[j] == T)
                printf("# %s: the same %zu tokens as %s\n", runs[j].ft->name, T, runs[0].ft->name);
            else
                printf("# %s departs from %s at step %zu (%ld, not %ld)\n", runs[j].ft->name, runs[0].ft->name,
                       depart[j], runs[j].tokens[depart[j]], runs[0].tokens[depart[j]]);
        }
        rc = 0;
    }
    for (size_t j = 0; j < nr; j++)
        gen_run_free(&runs[j]);
    sl_cli_gen_free(&g);
    return rc;
}
