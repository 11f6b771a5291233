/* test_hostile.c — the hostile-input battery: every case of tests/hostile/cases.tsv
 * (written with its inputs in tests/hostile/files/ by tests/hostile/make_cases.py)
 * runs `samplab ARGS` through SL_BIN (make test: the AddressSanitizer, LeakSanitizer
 * and UBSan build) and must exit 2 with an empty stdout and exactly one printable
 * line on stderr that contains the case's WANT (the file and the position), within
 * a few seconds. A sanitizer report breaks the one line or the exit status. What git
 * cannot hold is made here in a scratch folder (@T/): symbolic links to /dev/zero and
 * /dev/null, a dangling link, directories named like files, 1 MiB of blank lines. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

#define CASE_SECONDS 10.0 /* under ASan on a loaded machine; each case takes well under one */

static char scratch[64];

static void make_scratch(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/sl-hostile-XXXXXX");
    cr_assert_not_null(mkdtemp(scratch));
    char p[128];
    static const char *const links[][2] = {{"/dev/zero", "zero.txt"}, {"/dev/zero", "zero.npy"},
                                           {"/dev/zero", "zero.safetensors"}, {"/dev/null", "null.txt"},
                                           {"/nonexistent/samplab", "dangling.txt"}};
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", scratch, links[i][1]);
        cr_assert_eq(symlink(links[i][0], p), 0, "%s: %s", p, strerror(errno));
    }
    static const char *const dirs[] = {"dir.txt", "dir.npy"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s", scratch, dirs[i]);
        cr_assert_eq(mkdir(p, 0700), 0);
    }
    static const struct { const char *name; size_t n; } blanks[] = {{"blank.draws", (1u << 20) + 5}, {"blank.counts", 70000}};
    for (size_t i = 0; i < 2; i++) {
        snprintf(p, sizeof p, "%s/%s", scratch, blanks[i].name);
        FILE *f = fopen(p, "wb");
        cr_assert_not_null(f);
        for (size_t k = 0; k < blanks[i].n; k++)
            fputc('\n', f);
        fclose(f);
    }
}

static void remove_scratch(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    cr_expect_eq(system(cmd), 0);
}

/* s with every "@/" replaced by the files folder and every "@T/" by the scratch folder. */
static char *expand(const char *s)
{
    static const char files[] = "tests/hostile/files/";
    size_t cap = strlen(s) * 4 + 256, k = 0;
    char *o = malloc(cap);
    cr_assert_not_null(o);
    while (*s) {
        if (s[0] == '@' && s[1] == 'T' && s[2] == '/') {
            k += (size_t)snprintf(o + k, cap - k, "%s/", scratch);
            s += 3;
        } else if (s[0] == '@' && s[1] == '/') {
            k += (size_t)snprintf(o + k, cap - k, "%s", files);
            s += 2;
        } else {
            o[k++] = *s++;
        }
    }
    o[k] = '\0';
    return o;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs every case whose group starts with `prefix`; returns how many ran. */
static size_t run_group(const char *prefix)
{
    char *text = sl_test_slurp("tests/hostile/cases.tsv");
    cr_assert_not_null(text, "tests/hostile/cases.tsv");
    make_scratch();
    size_t n = 0, bad = 0;
    double slowest = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        cr_assert(t1 && t2, "malformed case line: %s", line);
        *t1 = *t2 = '\0';
        if (strncmp(line, prefix, strlen(prefix)))
            continue;
        char *want = expand(t1 + 1), *args = expand(t2 + 1);
        double t0 = now_s();
        sl_test_run r = sl_test_cli(args);
        double dt = now_s() - t0;
        slowest = dt > slowest ? dt : slowest;
        int ok = r.status == 2 && r.out && !r.out[0] && r.err && sl_test_lines(r.err) == 1 && strstr(r.err, want) &&
                 dt < CASE_SECONDS;
        for (const char *c = r.err; ok && *c; c++)
            ok = *c == '\n' || (*c >= 0x20 && *c < 0x7f);
        if (!ok) {
            bad++;
            cr_log_error("%s: exit %d in %.1f s, stdout %zu bytes, stderr '%.600s', wanted '%s'", args, r.status, dt,
                         r.out ? strlen(r.out) : 0, r.err ? r.err : "", want);
        }
        n++;
        sl_test_run_free(&r);
        free(want);
        free(args);
    }
    remove_scratch();
    free(text);
    cr_log_info("hostile %s: %zu cases, %zu wrong, slowest %.2f s", prefix, n, bad, slowest);
    cr_expect_eq(bad, 0, "%zu of %zu %s cases not refused as they should be", bad, n, prefix);
    cr_expect_gt(n, 0);
    return n;
}

Test(hostile, npy) { run_group("npy"); }
Test(hostile, safetensors) { run_group("safetensors"); }
Test(hostile, text_vectors) { run_group("text"); }
Test(hostile, draws) { run_group("draws"); }
Test(hostile, counts) { run_group("counts"); }
Test(hostile, steps) { run_group("steps"); }
Test(hostile, special_files) { run_group("special"); }
Test(hostile, arguments) { run_group("args"); }
Test(hostile, integer_ids) { run_group("ids"); }

/* Whether process pid catches SIGINT (bit 2 of SigCgt in /proc/PID/status). */
static int catches_sigint(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int yes = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "SigCgt:", 7))
            yes = (strtoull(line + 7, NULL, 16) >> (SIGINT - 1)) & 1;
    fclose(f);
    return yes;
}

/* A long run stops on Ctrl-C: exit 130, nothing on stdout, one line that says how far it got.
 * One SIGINT, as a terminal sends it, and only once samplab has its handler in place (a second
 * Ctrl-C kills at once by design, and `timeout -s INT` sends two: one to the child, one to its
 * group). With endless, standard input is an endless stream of the draw 0 (as `yes 0 |`). */
static void expect_interrupted(int endless, const char *args, const char *want)
{
    char outp[] = "/tmp/sl-int-out-XXXXXX", errp[] = "/tmp/sl-int-err-XXXXXX", cmd[4096];
    int fo = mkstemp(outp), fe = mkstemp(errp);
    cr_assert(fo >= 0 && fe >= 0);
    snprintf(cmd, sizeof cmd, "exec ${SL_BIN:-bin/samplab} %s", args);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        int fi = open("/dev/null", O_RDONLY), pp[2];
        if (endless) {
            if (pipe(pp))
                _exit(127);
            if (fork() == 0) { /* the writer: ends with SIGPIPE once samplab is gone */
                signal(SIGPIPE, SIG_DFL);
                close(pp[0]);
                static char zeros[8192];
                for (size_t k = 0; k < sizeof zeros; k += 2)
                    zeros[k] = '0', zeros[k + 1] = '\n';
                while (write(pp[1], zeros, sizeof zeros) > 0)
                    ;
                _exit(0);
            }
            close(pp[1]);
            fi = pp[0];
        }
        if (fi < 0 || dup2(fi, 0) < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
            _exit(127);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fo);
    close(fe);
    int st = 0, armed = 0;
    double t0 = now_s();
    while (!armed && now_s() - t0 < 60 && waitpid(pid, &st, WNOHANG) == 0) {
        armed = catches_sigint(pid);
        if (!armed)
            usleep(10000);
    }
    cr_expect(armed, "%s: no SIGINT handler within 60 s", args);
    usleep(200000); /* well inside the run: the line should say how far it got */
    kill(pid, SIGINT);
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    sl_test_run r = {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0),
                     sl_test_slurp(outp), sl_test_slurp(errp)};
    unlink(outp);
    unlink(errp);
    cr_expect_eq(r.status, 130, "%s: exit %d (stderr %s)", args, r.status, r.err);
    cr_expect_str_empty(r.out, "%s: stdout %s", args, r.out);
    cr_expect_eq(sl_test_lines(r.err), 1, "%s: stderr %s", args, r.err);
    cr_expect(strstr(r.err, want), "%s: stderr '%s' lacks '%s'", args, r.err, want);
    sl_test_run_free(&r);
}

Test(hostile, ctrl_c_stops_long_runs)
{
    expect_interrupted(0, "gof --probs 3,2,2,1 --method cdf --n 1000000000000",
                       "samplab gof: interrupted after");
    expect_interrupted(0, "draw --probs 3,2,2,1 --method alias --n 1000000000000 --counts",
                       "samplab draw: interrupted after");
    expect_interrupted(0, "calibrate --probs 3,2,2,1 --method cdf --n 100000000 --seeds 100000",
                       "samplab calibrate: interrupted after");
    /* a framework's session, step by step: counted, and as JSON (kept until the end) */
    expect_interrupted(0, "draw --framework hf --logits data/weather.txt --n 1000000000000 --counts",
                       "samplab draw: interrupted after");
    expect_interrupted(0, "draw --framework llamacpp --seed 7 --logits data/weather.txt --n 100000000 --json",
                       "samplab draw: interrupted after");
    /* power's simulations, first the TV null, then every fault's bisection: nothing on stdout */
    char power[2600] = "power --n 10000000 --trials 100000 --probs 1";
    for (int i = 1; i < 500; i++)
        snprintf(power + strlen(power), sizeof power - strlen(power), ",%d", 1 + i % 7);
    expect_interrupted(0, power, "samplab power: interrupted after");
    /* an endless stream of valid draws: 10^12 would take hours, Ctrl-C ends it now */
    expect_interrupted(1, "gof --probs 3,2,2,1 --draws -", "samplab gof: interrupted after");
}

/* One case of tests/hostile/env.tsv: `ENV samplab ARGS` through /bin/sh with stdout a
 * file (mode "file"), /dev/full, closed, or a pipe whose reader is gone with SIGPIPE
 * ignored ("epipe"); the exit status must be STATUS exactly and stderr one printable
 * line containing WANT (WANT "-": stderr empty); a refusal (status 2) prints nothing
 * on a kept stdout. Returns whether it held. */
static int env_case(const char *status, const char *mode, const char *env, const char *want, const char *args)
{
    char outp[] = "/tmp/sl-env-out-XXXXXX", errp[] = "/tmp/sl-env-err-XXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    cr_assert(fo >= 0 && fe >= 0);
    const char *bin = getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab";
    size_t len = strlen(env) + strlen(bin) + strlen(args) + 16;
    char *cmd = malloc(len);
    cr_assert_not_null(cmd);
    snprintf(cmd, len, "%s %s %s", strcmp(env, "-") ? env : "", bin, args);
    double t0 = now_s();
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int pp[2];
        setpgid(0, 0); /* a group of its own, so a case that hangs is killed whole */
        signal(SIGPIPE, strcmp(mode, "epipe") ? SIG_DFL : SIG_IGN); /* an ignored signal stays so across exec */
        if (!strcmp(mode, "file")) {
            dup2(fo, 1);
        } else if (!strcmp(mode, "full")) {
            int k = open("/dev/full", O_WRONLY);
            if (k < 0 || dup2(k, 1) < 0)
                _exit(127);
        } else if (!strcmp(mode, "closed")) {
            close(1);
        } else {
            if (pipe(pp) || dup2(pp[1], 1) < 0)
                _exit(127);
            close(pp[0]); /* the reader is gone before the first write */
            close(pp[1]);
        }
        if (dup2(fe, 2) < 0)
            _exit(127);
        close(fo);
        close(fe);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fo);
    close(fe);
    int st = 0, killed = 0;
    pid_t w;
    while ((w = waitpid(pid, &st, WNOHANG)) == 0) {
        if (now_s() - t0 > 6 * CASE_SECONDS && !killed) { /* e.g. 10^12 words into a closed pipe, for hours */
            kill(-pid, SIGKILL);
            killed = 1;
        }
        usleep(2000);
    }
    cr_assert_eq(w, pid);
    double dt = now_s() - t0;
    int got = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    char *out = sl_test_slurp(outp), *err = sl_test_slurp(errp);
    unlink(outp);
    unlink(errp);
    int ok = out && err && got == atoi(status) && dt < CASE_SECONDS;
    if (ok && !strcmp(want, "-"))
        ok = !err[0];
    else if (ok)
        ok = sl_test_lines(err) == 1 && strstr(err, want) != NULL;
    for (const char *c = err; ok && *c; c++)
        ok = *c == '\n' || (*c >= 0x20 && *c < 0x7f);
    if (ok && got == 2 && !strcmp(mode, "file"))
        ok = !out[0];
    if (!ok)
        cr_log_error("%s (stdout %s): exit %d in %.1f s%s, wanted %s; stdout %zu bytes, stderr '%.600s', wanted '%s'",
                     cmd, mode, got, dt, killed ? " (killed)" : "", status, out ? strlen(out) : 0, err ? err : "",
                     want);
    free(out);
    free(err);
    free(cmd);
    return ok;
}

/* The environment cannot kill a run: OMP_* values libgomp would choke on or warn
 * about in two lines, --jobs past the thread cap, and a stdout that is full, closed
 * or read by nobody (SIGPIPE ignored), over every command. */
Test(hostile, environment)
{
    char *text = sl_test_slurp("tests/hostile/env.tsv");
    cr_assert_not_null(text, "tests/hostile/env.tsv");
    make_scratch();
    size_t n = 0, bad = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *f[6];
        f[0] = line;
        for (int i = 1; i < 6; i++) {
            f[i] = f[i - 1] ? strchr(f[i - 1], '\t') : NULL;
            if (f[i])
                *f[i]++ = '\0';
        }
        cr_assert(f[5], "malformed case line: %s", line);
        char *env = expand(f[3]), *want = expand(f[4]), *args = expand(f[5]);
        bad += !env_case(f[1], f[2], env, want, args);
        n++;
        free(env);
        free(want);
        free(args);
    }
    remove_scratch();
    free(text);
    cr_log_info("hostile environment: %zu cases, %zu wrong", n, bad);
    cr_expect_eq(bad, 0, "%zu of %zu environment cases wrong", bad, n);
    cr_expect_gt(n, 0);
}
