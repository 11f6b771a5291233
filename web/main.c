/* main.c — the explorer page's entry: `samplab <command> [options]` for the
 * commands the page runs, as a WebAssembly (WASI) program. Each command is
 * the CLI's own function (cli/pipeline.c, cli/draw.c, cli/compare.c,
 * cli/rng.c) over the same library layers, so the page prints the bytes
 * `samplab pipeline|draw|compare|rng ...` prints; web/samplab.js runs one
 * fresh instance per command with the arguments and files it is given and
 * collects stdout, stderr and the exit status. What the build leaves out:
 * GSL (the gsl framework, gsl:NAME sources), .safetensors (needs jansson's
 * reader), the other commands. docs/explorer.md lists it. `samplab schema`
 * prints the library's settings schema (sl_api_schema_json): the page builds
 * its command lines from those option names. */
#include <stdio.h>
#include <string.h>

#include "cli/sl_cli.h"

static const sl_cli_command sl_web_commands[] = {
    {"pipeline", "the final distribution of one framework's logits pipeline", sl_cli_pipeline_main},
    {"draw", "draw tokens as a framework does, or with a method and a random source", sl_cli_draw_main},
    {"compare", "the same logits and settings through several frameworks", sl_cli_compare_main},
    {"rng", "raw words of a random source", sl_cli_rng_main},
    {NULL, NULL, NULL}
};

static void sl_web_usage(FILE *f)
{
    fprintf(f, "usage: samplab <command> [options]; the commands of this build:");
    for (const sl_cli_command *c = sl_web_commands; c->name; c++)
        fprintf(f, " %s", c->name);
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    int rc = 2;
    if (argc < 2) {
        sl_web_usage(stderr);
    } else if (!strcmp(argv[1], sl_api_help_option) || !strcmp(argv[1], "-h")) {
        sl_web_usage(stdout);
        rc = 0;
    } else if (!strcmp(argv[1], "schema")) {
        char *s = sl_api_schema_json();
        rc = sl_cli_emit(s);
    } else if (!strcmp(argv[1], sl_api_version_option)) {
        printf("samplab %s (WebAssembly: pipeline, draw, compare, rng)\n", SL_VERSION);
        rc = 0;
    } else {
        const sl_cli_command *c = sl_web_commands;
        while (c->name && strcmp(argv[1], c->name))
            c++;
        if (c->name)
            rc = c->main(argc - 1, argv + 1);
        else {
            char e[SL_CLI_ESC_MAX];
            fprintf(stderr, "samplab: '%s' is not a command of this build (pipeline, draw, compare, rng)\n",
                    sl_cli_esc(argv[1], e, sizeof e));
        }
    }
    fflush(stdout);
    fflush(stderr);
    return rc;
}
