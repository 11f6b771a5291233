/* report.c — `samplab report [--out DIR] [--logits SRC] [--n N] [--seed S]
 * [--jobs J] [--only IDS] [--no-plot]`: parses the options and hands them to
 * sl_report_run (report/runner.c), which writes DIR/REPORT.md and
 * DIR/figures/NAME.{dat,gp,png,svg}. Progress lines go to stderr when it is a
 * terminal. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/sl_cli.h"

static void report_help(FILE *f)
{
    fprintf(f,
            "usage: samplab report [--out DIR] [--logits SRC [--tensor NAME] [--row R]] [--n N]\n"
            "                      [--seed S] [--jobs J] [--only IDS] [--no-plot]\n\n"
            "Runs the studies and writes DIR/REPORT.md and DIR/figures/*.{png,svg,dat,gp}.\n"
            "The same build and options give a byte-identical REPORT.md and .dat files;\n"
            "timings go to DIR/timings.txt.\n\n"
            "  --out DIR      output directory (default reports)\n"
            "  --logits SRC   study this vocabulary (text, .npy or .safetensors logits) instead\n"
            "                 of the synthetic Zipf-like V = %d one (" SL_REPORT_ZIPF_PATH ")\n"
            "  --tensor NAME  the tensor of a .safetensors SRC (needed when it holds several)\n"
            "  --row R        row R (from 0) of a 2-D or larger tensor\n"
            "  --n N          draws per cell (default %d)\n"
            "  --seed S       base seed (default %d); cell i uses S + i\n"
            "  --jobs J       threads (default: all cores); results do not depend on it\n"
            "  --only IDS     comma-separated sections:",
            SL_REPORT_ZIPF_V, SL_REPORT_DEFAULT_N, SL_REPORT_DEFAULT_SEED);
    for (size_t i = 0; sl_report_sections[i]; i++)
        fprintf(f, " %s", sl_report_sections[i]->id);
    fprintf(f, "\n  --no-plot      write the .dat and .gp files but do not run gnuplot\n");
}

static void progress(void *user, sl_report_event ev, size_t done, size_t total)
{
    (void)user;
    switch (ev) {
    case SL_REPORT_EV_STUDY:
        fprintf(stderr, "\rsamplab report: %zu/%zu studies done", done, total);
        break;
    case SL_REPORT_EV_STUDIES_END:
        fprintf(stderr, "\n");
        break;
    case SL_REPORT_EV_RENDER:
        fprintf(stderr, "samplab report: rendering %zu figures with gnuplot\n", total);
        break;
    }
}

int sl_cli_report_main(int argc, char **argv)
{
    const char *cmd = "report";
    sl_report_opts o;
    sl_report_opts_init(&o);
    char logits_arg[4096];
    sl_cli_parsed po;
    int st = sl_cli_parse(cmd, argc, argv, report_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *pa = po.a;
    o.no_plot = pa[SL_CLI_NO_PLOT].given;
    if (pa[SL_CLI_OUT].given)
        o.outdir = pa[SL_CLI_OUT].text;
    o.logits = pa[SL_CLI_LOGITS].text;
    o.tensor = pa[SL_CLI_TENSOR].text;
    if (pa[SL_CLI_ROW].given)
        o.row = pa[SL_CLI_ROW].l;
    o.only = pa[SL_CLI_ONLY].text;
    if (pa[SL_CLI_N].given)
        o.n = pa[SL_CLI_N].size;
    o.jobs = pa[SL_CLI_JOBS].size;
    if (pa[SL_CLI_SEED].given) {
        sl_seed s;
        sl_error e;
        if (sl_base_seed_parse(pa[SL_CLI_SEED].text, &s, &e) || s.hi || s.lo > UINT64_MAX - 100000) {
            sl_cli_errf("samplab report: --seed must be an integer below 2^64 - 100000\n");
            return 2;
        }
        o.seed = s.lo;
    }
    if (o.n < 100 || o.n > 100000000) {
        sl_cli_errf("samplab report: --n must be between 100 and 100000000\n");
        return 2;
    }
    if ((o.tensor || o.row >= 0) && !o.logits) {
        sl_cli_errf("samplab report: --tensor and --row choose inside a --logits file; give --logits SRC\n");
        return 2;
    }
    if (o.logits) {
        /* What the replay commands pass after --logits: the path, then the tensor and row. */
        int len = snprintf(logits_arg, sizeof logits_arg, "%s", o.logits);
        if (o.tensor && len >= 0 && (size_t)len < sizeof logits_arg)
            len += snprintf(logits_arg + len, sizeof logits_arg - (size_t)len, " --tensor %s", o.tensor);
        if (o.row >= 0 && len >= 0 && (size_t)len < sizeof logits_arg)
            len += snprintf(logits_arg + len, sizeof logits_arg - (size_t)len, " --row %ld", o.row);
        if (len < 0 || (size_t)len >= sizeof logits_arg) {
            sl_cli_errf("samplab report: --logits path too long\n");
            return 2;
        }
        o.logits_replay = logits_arg;
    }
    sl_error err;
    if (sl_report_only_check(o.only, &err)) {
        char esc[SL_CLI_ESC_MAX];
        sl_cli_errf("samplab report: %s\n", sl_cli_esc(err.msg, esc, sizeof esc));
        return 2;
    }
    if (isatty(2))
        o.progress = progress;
    sl_report_result res;
    if (sl_report_run(&o, &res, &err))
        return sl_cli_fail(&err);
    printf("samplab report: wrote %s/REPORT.md and %zu figures in %s/figures (%.1f s)\n", o.outdir, res.nfigs,
           o.outdir, res.seconds);
    return 0;
}
