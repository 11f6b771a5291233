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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* A long run stops on Ctrl-C: exit 130, nothing on stdout, one line that says how far it got.
 * pre is a pipe into samplab (or ""). */
static void expect_interrupted(const char *pre, const char *args, const char *want)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "--version >/dev/null; %s timeout --preserve-status -s INT 2 ${SL_BIN:-bin/samplab} %s",
             pre, args);
    sl_test_run r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 130, "%s: exit %d (stderr %s)", args, r.status, r.err);
    cr_expect_str_empty(r.out, "%s: stdout %s", args, r.out);
    cr_expect_eq(sl_test_lines(r.err), 1, "%s: stderr %s", args, r.err);
    cr_expect(strstr(r.err, want), "%s: stderr '%s' lacks '%s'", args, r.err, want);
    sl_test_run_free(&r);
}

Test(hostile, ctrl_c_stops_long_runs)
{
    expect_interrupted("", "gof --probs 3,2,2,1 --method cdf --n 1000000000000",
                       "samplab gof: interrupted after");
    expect_interrupted("", "draw --probs 3,2,2,1 --method alias --n 1000000000000 --counts",
                       "samplab draw: interrupted after");
    expect_interrupted("", "calibrate --probs 3,2,2,1 --method cdf --n 100000000 --seeds 100000",
                       "samplab calibrate: interrupted after");
    /* an endless stream of valid draws: 10^12 would take hours, Ctrl-C ends it now */
    expect_interrupted("yes 0 |", "gof --probs 3,2,2,1 --draws -", "samplab gof: interrupted after");
}
