/* util.c — seeds and errors shared by the subcommands. */
#include <errno.h>
#include <limits.h>
#ifndef __wasi__
#include <signal.h>
#endif
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/sl_cli.h"

void sl_cli_err_line(const char *msg, char *out, size_t n)
{
    size_t len = strlen(msg);
    if (len && msg[len - 1] == '\n') /* the format's own line end; any other newline is escaped */
        len--;
    char e[4 * 4096 + 8];
    sl_base_esc(msg, len, e, sizeof e);
    size_t el = strlen(e);
    if (el > 1200) /* a long quoted name: keep the head and the tail, which says what is wrong */
        snprintf(out, n, "%.400s...%s", e, e + el - 700);
    else
        snprintf(out, n, "%s", e);
}

int sl_cli_errf(const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char line[1200 + 8];
    sl_cli_err_line(msg, line, sizeof line);
    fprintf(stderr, "%s\n", line);
    return 2;
}

void sl_cli_fw_note(const char *cmd, const sl_api_settings *s)
{
    const sl_fw_type *ft = sl_api_fw_type(s);
    sl_fw_opts fo;
    sl_error err;
    if (!ft || !ft->note || sl_api_fw_opts(cmd, s, &fo, &err))
        return;
    const char *note = ft->note(&fo);
    sl_api_fw_opts_free(&fo);
    if (note)
        sl_cli_errf("samplab %s: note: %s\n", cmd, note);
}

int sl_cli_fail(const sl_error *err)
{
    /* a message may quote the user's bytes (a file name, a field): one printable line */
    return sl_cli_errf("samplab: %s", err->msg);
}

int sl_cli_fail_in(const char *source, const sl_error *err)
{
    return sl_cli_errf("samplab: %s: %s", source, err->msg);
}

int sl_cli_seed(const char *seed_text, const char *stream_text, const char *rng, sl_seed *out)
{
    /* the library's reading of --seed and --stream (api/settings.c) */
    sl_api_settings s;
    sl_error err;
    sl_api_settings_init(&s);
    s.seed = seed_text;
    s.stream = stream_text;
    s.rng = rng;
    if (sl_api_seed(&s, 1, out, &err))
        return sl_cli_api_fail(&err);
    return 0;
}

int sl_cli_emit(char *s)
{
    if (!s)
        return 2;
    fputs(s, stdout);
    fputc('\n', stdout);
    free(s);
    return 0;
}

int sl_cli_json_emit(struct json_t *root)
{
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    return sl_cli_emit(s);
}

/* ---------------------------------------------------------------- progress and Ctrl-C */

#ifndef __wasi__
static volatile sig_atomic_t interrupted;
#else
static int interrupted;
#endif
static int armed;

#ifndef __wasi__
static struct sigaction old_int;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
    signal(SIGINT, SIG_DFL); /* a second Ctrl-C kills at once */
}

static void arm(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    if (old_int.sa_handler == SIG_IGN) /* started with Ctrl-C ignored (nohup, a background job): keep it so */
        sigaction(SIGINT, &old_int, NULL);
}

static void disarm(void)
{
    sigaction(SIGINT, &old_int, NULL);
}
#else /* WebAssembly (the explorer page): no signals, nothing to stop */
static void arm(void) {}
static void disarm(void) {}
#endif

static int interrupt_tick(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    (void)done;
    (void)total;
    return interrupted != 0 || sl_cli_stdout_broken();
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void sl_cli_progress_begin(sl_cli_progress *pr, const char *cmd, const char *unit)
{
    memset(pr, 0, sizeof *pr);
    pr->cmd = cmd;
    pr->unit = unit;
    pr->start = pr->last = mono_s();
    pr->p.tick = sl_cli_progress_tick;
    pr->p.ctx = pr;
    pr->quiet.tick = interrupt_tick;
    pr->quiet.ctx = pr;
    if (!armed) {
        arm();
        armed = 1;
    }
}

int sl_cli_progress_tick(void *ctx, uint64_t done, uint64_t total)
{
    sl_cli_progress *pr = ctx;
    if (interrupted || sl_cli_stdout_broken()) /* Ctrl-C, or the tokens' reader is gone */
        return 1;
    double t = mono_s();
    if (t - pr->start >= 1.0 && t - pr->last >= 0.5 && isatty(fileno(stderr))) {
        /* fileno, not 2: a sweep's point writes stderr to memory, where no line belongs */
        if (total)
            fprintf(stderr, "\rsamplab %s: %llu of %llu %s (%.0f s; Ctrl-C stops) ", pr->cmd,
                    (unsigned long long)done, (unsigned long long)total, pr->unit, t - pr->start);
        else
            fprintf(stderr, "\rsamplab %s: %llu %s (%.0f s; Ctrl-C stops) ", pr->cmd, (unsigned long long)done,
                    pr->unit, t - pr->start);
        pr->last = t;
        pr->shown = 1;
    }
    return 0;
}

void sl_cli_progress_end(sl_cli_progress *pr)
{
    if (pr->shown)
        fprintf(stderr, "\r%79s\r", "");
    pr->shown = 0;
    if (armed && !interrupted)
        disarm();
    armed = 0;
}

int sl_cli_interrupted(void)
{
    return interrupted != 0;
}

int sl_cli_interrupt_exit(const char *cmd, uint64_t done, const char *unit, const char *what)
{
    sl_cli_errf("samplab %s: interrupted after %llu %s (Ctrl-C); %s", cmd, (unsigned long long)done, unit, what);
    return SL_CLI_EXIT_INTERRUPTED;
}

int sl_cli_api_fail(const sl_error *err)
{
    return sl_cli_errf("%s", err->msg);
}

/* ---------------------------------------------------------------- standard output */

static int pipe_ends, out_errno;

void sl_cli_stdout_pipe_ends(void)
{
    pipe_ends = 1;
}

int sl_cli_stdout_broken(void)
{
    if (!ferror(stdout))
        return 0;
    if (!out_errno) /* the failed write's errno, before later calls overwrite it */
        out_errno = errno;
    return 1;
}

/* A full disk or a closed file behind stdout must not end in status 0 with a cut-off
 * result, nor may a reader that went away while SIGPIPE is ignored (as coreutils'
 * `seq` says "write error: Broken pipe"). A run stopped by Ctrl-C keeps its own line,
 * which says where its output stops (a write blocked on a full pipe fails with EINTR). */
int sl_cli_finish(int rc)
{
    errno = 0;
    int flushed = fflush(stdout) == 0, e = errno;
    if (flushed && !ferror(stdout))
        return rc;
    if (rc == SL_CLI_EXIT_INTERRUPTED)
        return rc;
    if (!out_errno)
        out_errno = !flushed && e ? e : EIO;
    if (out_errno == EPIPE && pipe_ends)
        return rc;
    sl_cli_errf("samplab: error writing standard output: %s\n", strerror(out_errno));
    return 2;
}
