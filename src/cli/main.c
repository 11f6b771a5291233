/* main.c — `samplab <command> [options]`: dispatches to one file per subcommand.
 * Exit status: 0 success, 1 a statistical rejection, 2 bad input or usage. */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli/sl_cli.h"

static const sl_cli_command commands[] = {
    {"draw", "draw tokens with a method and a random source, or as a framework does", sl_cli_draw_main},
    {"pipeline", "the final distribution of one framework's logits pipeline (samplab pipeline --help lists them)", sl_cli_pipeline_main},
    {"compare", "the same logits and settings through several frameworks: kept sets, TV, translations", sl_cli_compare_main},
    {"bench", "time prepare and draw of every method (make bench)", sl_cli_bench_main},
    {"rng", "print raw words of a random source (decimal, or binary for test batteries)", sl_cli_rng_main},
    {"report", "run the studies and write REPORT.md with gnuplot figures (make report)", sl_cli_report_main},
    {"gof", "goodness of fit of anyone's draws or counts to a distribution (chi-square, G, TV)", sl_cli_gof_main},
    {"power", "smallest fault of each realistic kind that N draws detect with 90% power", sl_cli_power_main},
    {"calibrate", "gof over K seeds of a sampler; KS test that the p-values are uniform", sl_cli_calibrate_main},
    {"exact", "the distribution a sampler really induces, counted exactly over its random inputs", sl_cli_exact_main},
    {"replay", "the tokens of a whole generation: one sampler session across per-step logits", sl_cli_replay_main},
    {"check", "an observed generation against a claimed sampler: first divergence, or a test of the whole log", sl_cli_check_main},
    {"audit", "a serving engine judged through its HTTP API (llama-server, OpenAI-compatible), or a log of it", sl_cli_audit_main},
    {"sweep", "a study's grid of points (inputs x frameworks x settings x seeds), serial or on MPI ranks", sl_cli_sweep_main},
    {NULL, NULL, NULL}
};

static void usage(FILE *f)
{
    fprintf(f, "samplab %s — verify LLM token samplers and explain their randomness\n\n"
               "usage: samplab <command> [options]   (samplab <command> --help)\n\ncommands:\n",
            SL_VERSION);
    for (const sl_cli_command *c = commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
}

/* Before any library's constructor: libgomp reads OMP_* in its own, and a value
 * it cannot parse or a thread count it cannot start would break the run's one
 * line (env.c). DT_PREINIT_ARRAY runs in the executable only, before them all;
 * the message goes out with write(2), as stdio may not be set up yet. */
static void check_env(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    char msg[512];
    if (sl_cli_env_check(envp, msg, sizeof msg)) {
        ssize_t w = write(2, msg, strlen(msg));
        (void)w;
        _exit(2);
    }
}
__attribute__((section(".preinit_array"), used)) static void (*const check_env_first)(int, char **, char **) = check_env;

/* A closed fd 0, 1 or 2 would be the next file samplab opens, and its output would
 * land there (a report's Markdown on fd 1): each is held by /dev/null opened
 * read-only, so a write to a closed stdout fails (EBADF) and is reported. */
static void hold_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int k = open("/dev/null", O_RDONLY);
            if (k >= 0 && k != fd) {
                dup2(k, fd);
                close(k);
            }
        }
}

int main(int argc, char **argv)
{
    hold_std_fds();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], sl_api_help_option) || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return sl_cli_finish(0);
    }
    if (!strcmp(argv[1], sl_api_version_option)) {
        printf("samplab %s\n", SL_VERSION);
        return sl_cli_finish(0);
    }
    sl_base_gsl_quiet(); /* the commands' own GSL calls (calibrate's p-values) report, never abort */
    for (const sl_cli_command *c = commands; c->name; c++)
        if (!strcmp(argv[1], c->name))
            return sl_cli_finish(c->main(argc - 1, argv + 1));
    char e[SL_CLI_ESC_MAX];
    sl_cli_errf("samplab: unknown command '%s' (samplab --help lists them)\n", sl_cli_esc(argv[1], e, sizeof e));
    return 2;
}
