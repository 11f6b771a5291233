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
            "A batch (hf, torch): a [T, B, V] SRC, the prompts as --context rows separated by ';' or\n"
            "--context-file; hf also takes --num-return-sequences, --eos-token-id, --pad-token-id.\n"
            "Prints one line per step, the B tokens separated by spaces; --json's tokens, words and\n"
            "kept are one list per row (words: the generator's running total after that row's draw).\n"
            "torch and numpy take --probs rows (one plain draw per step); hf, vllm take --logits.\n"
            "torch 2.x is the default (--torch 1.13 for the old line); --cpu avx2|avx512 the kernel.\n\n"
            "frameworks (step by step):\n");
    for (size_t i = 0; sl_fw_types_all[i]; i++)
        if (is_session(sl_fw_types_all[i]))
            fprintf(f, "  %-13s --%s; %s\n", sl_fw_types_all[i]->name, (sl_fw_types_all[i]->accepts & SL_OPT_LOGITS) && (sl_fw_types_all[i]->accepts & SL_OPT_PROBS) ? "logits or --probs"
                    : takes_logits(sl_fw_types_all[i]) ? "logits" : "probs",
                    sl_fw_types_all[i]->summary);
    fprintf(f, "\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("replay"), "options:");
}

int sl_cli_replay_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/replay.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("replay", argc, argv, replay_help, &po, &s, &src);
    if (st >= 0)
        return st;
    sl_api_replay_result r;
    sl_error err;
    sl_cli_fw_note("replay", &s);
    if (sl_api_replay_run(&src, po.a[SL_API_OPT_LOGITS].given, NULL, 0, &s, &r, &err)) {
        sl_api_replay_result_free(&r);
        return sl_cli_api_fail(&err);
    }
    size_t T = r.T, nr = r.nr;
    const sl_api_run *runs = r.runs;
    const size_t *depart = r.depart;
    int rc = 0;
    if (po.a[SL_API_OPT_JSON].given) {
        rc = sl_cli_emit(sl_api_replay_result_json(&r));
    } else if (r.B) {
        /* a batch: one line per step, the B rows' tokens separated by spaces */
        for (size_t t = 0; t < T; t++)
            for (size_t b = 0; b < r.B; b++)
                printf("%ld%c", runs[0].tokens[b * T + t], b + 1 < r.B ? ' ' : '\n');
    } else if (!r.all) {
        for (size_t t = 0; t < T; t++)
            printf("%ld\n", runs[0].tokens[t]);
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
    }
    sl_api_replay_result_free(&r);
    return rc;
}
