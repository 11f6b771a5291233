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
            "                    [--num-samples K] [--replacement | --no-replacement] [--shuffle true|false]\n"
            "                    [--dtype float32|float64] [--torch 2|1.13] [--rand 0.9|0.10|0.8]\n"
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
            "and, for hf and vllm, \"cpu\" (torch's CPU kernel modelled).\n\n"
            "A batch (hf, torch, vllm, tgi, sglang): SRC a 2-D [B, V] .npy or .safetensors tensor (no\n"
            "--row) or inline rows separated by ';' (\"3,2,1;1,2,3\"), --n calls each; hf takes each\n"
            "row's prompt as --context rows (';') or --context-file. hf and torch draw every row in\n"
            "order from one generator; vllm, tgi and sglang take --seeds 7,none,9, one entry per row\n"
            "(none: the request gave no seed; it draws from the global generator --seed seeds;\n"
            "docs/serving.md). Prints one line per call, the rows separated by spaces (a row's K\n"
            "samples by commas); --json adds \"rows\" and gives \"tokens\" and \"words\" one list per row.\n\n"
            "methods:\n");
    for (size_t i = 0; sl_draw_types[i]; i++)
        fprintf(f, "  %-9s %s\n", sl_draw_types[i]->name, sl_draw_types[i]->cost);
    fprintf(f, "\nrandom sources: ");
    for (size_t i = 0; sl_rng_types[i]; i++)
        fprintf(f, "%s, ", sl_rng_types[i]->name);
    fprintf(f, "gsl:NAME (any GSL generator, e.g. gsl:taus2, gsl:ranlxd2)\n");
    if (sl_fw_types_all[0]) {
        fprintf(f, "\nframeworks (bit-exact emulations):\n");
        for (size_t i = 0; sl_fw_types_all[i]; i++) {
            const sl_fw_type *ft = sl_fw_types_all[i];
            fprintf(f, "  %-13s %s\n  %-13s options:", ft->name, ft->summary, "");
            for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++)
                if (sl_api_options[o].bit & ft->accepts & ~SL_OPT_GEN_BATCH) /* a generation's: replay, check */
                    fprintf(f, " %s", sl_api_options[o].name);
            fprintf(f, "\n");
            /* the upstream releases it follows */
            char vopt[64];
            sl_cli_bit_names(ft->variant_bit, vopt, sizeof vopt);
            if (ft->variants)
                for (const sl_fw_variant *vr = ft->variants; vr->name; vr++)
                    fprintf(f, "  %-13s %s %s: %s%s\n", "", vopt, vr->name, vr->version,
                            vr == ft->variants && ft->variants[1].name ? " (default)" : "");
            else
                fprintf(f, "  %-13s follows %s\n", "", ft->version);
        }
        fprintf(f, "\nframework options: --num-samples K is torch.multinomial(p, K), NumPy's size=K or K samples\n"
                   "of rand's WeightedIndex (K tokens per output line). --replacement / --no-replacement: each\n"
                   "library's default when neither is given: torch draws without replacement\n"
                   "(replacement=False), numpy and numpy-legacy with it (replace=True); rand and gsl draw each\n"
                   "sample on their own and the one-token samplers (candle, hf, vllm, llamacpp, ollama) have\n"
                   "no such setting, so both are refused there. --dtype float32|float64 is the tensor / array\n"
                   "dtype (default: a .npy keeps its own, text is float32 for torch, float64 for NumPy and\n"
                   "rand). --seed: torch, candle, rand and gsl take 0 .. 2^64 - 1, numpy 0 .. 2^128 - 1,\n"
                   "numpy-legacy 0 .. 2^32 - 1. An option a framework does not list is an error, never ignored.\n"
                   "\ntorch builds (docs/torch-builds.md): the MT19937 exponential_ emulated here is that of\n"
                   "torch 1.13, of builds without MKL (Debian's), and of pip's x86-64 wheels from 2.7 on;\n"
                   "pip's wheels 2.0 to 2.6 seed MKL's MCG31m1 from one generator word instead (stream\n"
                   "emulated in framework/torch_mkl.c, its logarithm not bit for bit); 2.14's wheels are\n"
                   "not established.\n");
    }
    fprintf(f, "\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("draw"), "options:");
}


/* A method's token as it is drawn: one line each, no O(N) array. */
static void print_token(void *ctx, size_t token)
{
    (void)ctx;
    printf("%zu\n", token);
}

int sl_cli_draw_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/draw.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("draw", argc, argv, draw_help, &po, &s, &src);
    if (st >= 0)
        return st;
    const sl_cli_arg *v = po.a;
    int json = v[SL_API_OPT_JSON].given;
    /* a long run: progress on a terminal, Ctrl-C stops it (checked every 2^20 draws) */
    sl_cli_progress pr;
    sl_cli_progress_begin(&pr, "draw", "draws");
    sl_api_draw_result r;
    sl_error err;
    int rc = sl_api_draw_run(&src, v[SL_API_OPT_LOGITS].given, &s, &pr.p, json || s.counts ? NULL : print_token, NULL,
                             &r, &err);
    sl_cli_progress_end(&pr);
    if (r.note)
        sl_cli_errf("samplab draw: note: %s\n", r.note);
    if (rc == SL_EINTR && !sl_cli_interrupted() && sl_cli_stdout_broken())
        rc = 2; /* the tokens' reader went away: main says so in one line */
    else if (rc == SL_EINTR || (rc && sl_cli_interrupted())) /* stopped by Ctrl-C, or a read it broke */
        rc = sl_cli_interrupt_exit("draw", r.done, "draws", s.counts ? "no counts printed"
                                                           : json    ? "no JSON printed"
                                                                     : "the tokens printed stop there");
    else if (rc)
        rc = sl_cli_api_fail(&err);
    else if (json)
        rc = sl_cli_emit(sl_api_draw_result_json(&r));
    else if (s.counts)
        for (size_t i = 0; i < r.V; i++)
            printf("%zu\t%llu\n", i, (unsigned long long)r.counts[i]);
    else if (r.tokens && r.B)
        /* a batch: one line per call, the rows separated by spaces, a row's K samples by commas */
        for (size_t i = 0; i < r.n; i++)
            for (size_t b = 0; b < r.B; b++)
                for (size_t j = 0; j < r.k; j++)
                    printf("%ld%c", r.tokens[(b * r.n + i) * r.k + j],
                           j + 1 < r.k ? ',' : b + 1 < r.B ? ' ' : '\n');
    else if (r.tokens)
        for (size_t i = 0; i < r.n; i++)
            for (size_t j = 0; j < r.k; j++)
                printf("%ld%c", r.tokens[i * r.k + j], j + 1 == r.k ? '\n' : ' ');
    sl_api_draw_result_free(&r);
    return rc;
}
