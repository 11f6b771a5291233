/* report.c — `samplab report [--out DIR] [--logits SRC] [--n N] [--seed S]
 * [--jobs J] [--only IDS] [--no-plot]`: parses the options and hands them to
 * sl_report_run (report/runner.c), which writes DIR/REPORT.md and
 * DIR/figures/NAME.{dat,gp,png,svg}. Progress lines go to stderr when it is a
 * terminal. The run happens in a child process in a process group of its
 * own; a signal to samplab (Ctrl-C, SIGTERM, SIGHUP) ends the child and its
 * gnuplots and removes the staging folder, so DIR keeps its old set. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
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
            "  --jobs J       threads (default: all cores, at most 256); results do not depend on it\n"
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
        sl_cli_errf("samplab report: rendering %zu figures with gnuplot\n", total);
        break;
    }
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

static int run_report(sl_report_opts *o)
{
    sl_error err;
    sl_report_result res;
    if (sl_report_run(o, &res, &err))
        return sl_cli_fail(&err);
    char e[SL_CLI_ESC_MAX]; /* a folder name with a newline or any other byte stays one line */
    sl_cli_esc(o->outdir, e, sizeof e);
    printf("samplab report: wrote %s/REPORT.md and %zu figures in %s/figures (%.1f s)\n", e, res.nfigs, e,
           res.seconds);
    return 0;
}

/* Runs the report in a child in its own process group and waits; a signal
 * stops the whole group, cleans up and is passed on. */
static int run_supervised(sl_report_opts *o)
{
    char staging[4300];
    sl_error err;
    if (sl_io_outdir_staging_path(o->outdir, (long)getpid(), staging, sizeof staging, &err))
        return sl_cli_fail(&err);
    o->staging = staging;
    /* this process and its child own the folder together (a flock is shared across
     * fork): the child removes the lock file when it has written the set, this process
     * when the child was stopped; either dying leaves no stale lock */
    sl_io_lock lock;
    if (sl_io_outdir_lock(&lock, o->outdir, &err))
        return sl_cli_fail(&err);
    o->locked = 1;
    /* a file-size limit (ulimit -f) is a write error said in one line, not SIGXFSZ's core dump */
    signal(SIGXFSZ, SIG_IGN);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa, old[3];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        sl_cli_errf("samplab report: cannot start the report process: %s\n", strerror(errno));
        sl_io_outdir_unlock(&lock);
        return 2;
    }
    if (pid == 0) {
        for (int i = 0; i < 3; i++)
            sigaction(sigs[i], &old[i], NULL);
        setpgid(0, 0);
        if (got_signal) /* arrived before the handlers were reset */
            _exit(128 + got_signal);
        int rc = sl_cli_finish(run_report(o)); /* the summary line's write error, as every command's */
        sl_io_outdir_unlock(&lock);
        fflush(NULL);
        exit(rc);
    }
    setpgid(pid, pid); /* also here, so the group exists before any kill below */
    int st = 0;
    const struct timespec tick = {0, 20 * 1000 * 1000};
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            st = 0;
            break;
        }
        if (got_signal) {
            kill(-pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            /* gnuplots of the group: gone within a moment (bounded: zombies nobody reaps still count) */
            for (int i = 0; i < 100 && kill(-pid, 0) == 0; i++)
                nanosleep(&tick, NULL);
            sl_io_outdir_recover(staging, o->outdir);
            sl_io_outdir_unlock(&lock);
            sl_cli_errf("samplab report: stopped by signal %d; %s holds no partial set\n", (int)got_signal, o->outdir);
            int sig = got_signal;
            for (int i = 0; i < 3; i++)
                sigaction(sigs[i], &old[i], NULL);
            raise(sig);
            return 128 + sig;
        }
        nanosleep(&tick, NULL);
    }
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    if (WIFEXITED(st)) {
        sl_io_outdir_unlock(&lock);
        return WEXITSTATUS(st);
    }
    sl_io_outdir_recover(staging, o->outdir);
    sl_io_outdir_unlock(&lock);
    sl_cli_errf("samplab report: the report process ended by signal %d; %s is as it was\n",
            WIFSIGNALED(st) ? WTERMSIG(st) : 0, o->outdir);
    return 2;
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
    o.no_plot = pa[SL_API_OPT_NO_PLOT].given;
    if (pa[SL_API_OPT_OUT].given)
        o.outdir = pa[SL_API_OPT_OUT].text;
    o.logits = pa[SL_API_OPT_LOGITS].text;
    o.logits_opt = SL_API_NAME(LOGITS);
    o.tensor = pa[SL_API_OPT_TENSOR].text;
    if (pa[SL_API_OPT_ROW].given)
        o.row = pa[SL_API_OPT_ROW].l;
    o.only = pa[SL_API_OPT_ONLY].text;
    if (pa[SL_API_OPT_N].given)
        o.n = pa[SL_API_OPT_N].size;
    o.jobs = pa[SL_API_OPT_JOBS].size;
    if (o.jobs > SL_CLI_MAX_THREADS) { /* libgomp dies starting 100000 (env.c) */
        sl_cli_errf("samplab report: --jobs must be at most " SL_CLI_MAX_THREADS_TEXT ", not %zu\n", o.jobs);
        return 2;
    }
    if (pa[SL_API_OPT_SEED].given) {
        sl_seed s;
        sl_error e;
        if (sl_base_seed_parse(pa[SL_API_OPT_SEED].text, &s, &e) || s.hi || s.lo > UINT64_MAX - 100000) {
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
    return run_supervised(&o);
}
