/* report.c — `samplab report [--out DIR] [--logits SRC] [--n N] [--seed S]
 * [--jobs J] [--only IDS] [--no-plot]`: parses the options and hands them to
 * sl_report_run (report/runner.c), which writes DIR/REPORT.md and
 * DIR/figures/NAME.{dat,gp,png,svg}. Progress lines go to stderr when it is a
 * terminal. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/sl_cli.h"

static int usage(FILE *f, int rc)
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
    return rc;
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
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout, 0);
        else if (!strcmp(a, "--no-plot"))
            o.no_plot = 1;
        else if (!strcmp(a, "--out")) {
            if (!(v = sl_cli_value(cmd, argc, argv, &i)))
                return 2;
            o.outdir = v;
        } else if (!strcmp(a, "--logits")) {
            if (!(v = sl_cli_value(cmd, argc, argv, &i)))
                return 2;
            o.logits = v;
        } else if (!strcmp(a, "--tensor")) {
            if (!(v = sl_cli_value(cmd, argc, argv, &i)))
                return 2;
            o.tensor = v;
        } else if (!strcmp(a, "--row")) {
            if (!(v = sl_cli_value(cmd, argc, argv, &i)) || sl_cli_parse_long(cmd, a, v, &o.row))
                return 2;
            if (o.row < 0) {
                fprintf(stderr, "samplab report: --row takes a non-negative integer\n");
                return 2;
            }
        } else if (!strcmp(a, "--only")) {
            if (!(v = sl_cli_value(cmd, argc, argv, &i)))
                return 2;
            o.only = v;
        } else if (!strcmp(a, "--n")) {
            if (!(v = sl_cli_value(cmd, argc, argv, &i)) || sl_cli_parse_size(cmd, a, v, &o.n))
                return 2;
        } else if (!strcmp(a, "--jobs")) {
            if (!(v = sl_cli_value(cmd, argc, argv, &i)) || sl_cli_parse_size(cmd, a, v, &o.jobs))
                return 2;
        } else if (!strcmp(a, "--seed")) {
            sl_seed s;
            sl_error e;
            if (!(v = sl_cli_value(cmd, argc, argv, &i)))
                return 2;
            if (sl_base_seed_parse(v, &s, &e) || s.hi || s.lo > UINT64_MAX - 100000) {
                fprintf(stderr, "samplab report: --seed must be an integer below 2^64 - 100000\n");
                return 2;
            }
            o.seed = s.lo;
        } else {
            fprintf(stderr, "samplab report: unknown option '%s' (samplab report --help)\n", a);
            return 2;
        }
    }
    if (o.n < 100 || o.n > 100000000) {
        fprintf(stderr, "samplab report: --n must be between 100 and 100000000\n");
        return 2;
    }
    if ((o.tensor || o.row >= 0) && !o.logits) {
        fprintf(stderr, "samplab report: --tensor and --row choose inside a --logits file; give --logits SRC\n");
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
            fprintf(stderr, "samplab report: --logits path too long\n");
            return 2;
        }
        o.logits_replay = logits_arg;
    }
    sl_error err;
    if (sl_report_only_check(o.only, &err)) {
        fprintf(stderr, "samplab report: %s\n", err.msg);
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
