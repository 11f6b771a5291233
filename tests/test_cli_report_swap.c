/* test_cli_report_swap.c — `samplab report` replaces its folder's set as a
 * whole (src/report/runner.c builds it in a staging folder beside the
 * target, src/io/dirswap.c swaps it in; src/cli/report.c stops the run and
 * removes the staging folder on a signal). Killed at any moment, the folder
 * holds the old set or the new one, byte for byte, and nothing else: no
 * staging folder, no *.tmp.* file. With gnuplot installed the kills land
 * while it renders too; without it the runs use --no-plot. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "helpers.h"

static const char *bin(void)
{
    return getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab";
}

static int have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static uint64_t fnv(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint64_t h = 1469598103934665603u;
    int c;
    while (f && (c = getc(f)) != EOF)
        h = (h ^ (unsigned)c) * 1099511628211u;
    if (f)
        fclose(f);
    return h;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "relpath hash" lines of every file below dir, sorted; loose: images and
 * timings.txt by name only. */
typedef struct snap {
    char *lines[512];
    size_t n;
    size_t tmp; /* names with ".tmp." */
} snap;

static void walk(const char *root, const char *rel, snap *s, int loose)
{
    char path[2048];
    snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char r[1024], p[3072];
        snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        snprintf(p, sizeof p, "%s/%s", root, r);
        s->tmp += strstr(e->d_name, ".tmp.") != NULL;
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            walk(root, r, s, loose);
            continue;
        }
        char line[1200];
        int plain = 0;
        for (const char *x = ".png\0.svg\0timings.txt\0"; loose && *x; x += strlen(x) + 1)
            plain |= strstr(e->d_name, x) != NULL;
        if (plain)
            snprintf(line, sizeof line, "%s", r);
        else
            snprintf(line, sizeof line, "%s %016llx", r, (unsigned long long)fnv(p));
        if (s->n < 512)
            s->lines[s->n++] = strdup(line);
    }
    if (d)
        closedir(d);
}

/* loose 0: an exact snapshot; 1: images and timings.txt compared by name
 * (gnuplot's bytes and the timings are no part of what is reproducible). */
static char *snapshot(const char *dir, int loose, size_t *tmp)
{
    snap s;
    memset(&s, 0, sizeof s);
    walk(dir, "", &s, loose);
    qsort(s.lines, s.n, sizeof *s.lines, cmp_str);
    size_t len = 1;
    for (size_t i = 0; i < s.n; i++)
        len += strlen(s.lines[i]) + 1;
    char *out = malloc(len);
    out[0] = '\0';
    for (size_t i = 0; i < s.n; i++) {
        strcat(out, s.lines[i]);
        strcat(out, "\n");
        free(s.lines[i]);
    }
    if (tmp)
        *tmp = s.tmp;
    return out;
}

/* The entries of dir other than `keep`, one per line. */
static char *others(const char *dir, const char *keep)
{
    char *out = calloc(1, 4096);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, keep) &&
            strlen(out) + strlen(e->d_name) + 2 < 4096) {
            strcat(out, e->d_name);
            strcat(out, "\n");
        }
    if (d)
        closedir(d);
    return out;
}

static void report_sync(const char *opts, const char *out)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s report --n 2000 %s%s --out %s >/dev/null 2>&1", bin(), opts,
             have_gnuplot() ? "" : " --no-plot", out);
    cr_assert_eq(system(cmd), 0, "%s failed", cmd);
}

/* Starts `samplab report` and returns its pid (samplab itself: sh execs it). */
static pid_t report_start(const char *opts, const char *out)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "exec %s report --n 2000 %s%s --out %s >/dev/null 2>&1", bin(), opts,
             have_gnuplot() ? "" : " --no-plot", out);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Files in the staging folder's figures/ with `what` in their name. */
static size_t staged(const char *root, pid_t pid, const char *what)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/.r.staging.%ld/figures", root, (long)pid);
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strstr(e->d_name, what) != NULL;
    if (d)
        closedir(d);
    return n;
}

Test(replay_cli_report_swap, killed_at_any_moment_all_old_or_all_new)
{
    char tmpl[] = "/tmp/sl-test-swap-XXXXXX";
    char *root = mkdtemp(tmpl);
    cr_assert_not_null(root);
    char r[512], ref[512];
    snprintf(r, sizeof r, "%s/r", root);
    snprintf(ref, sizeof ref, "%s/ref", root);
    /* the new set, made alone, for comparison */
    report_sync("--seed 7", ref);
    char *want_new = snapshot(ref, 1, NULL);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", ref);
    cr_assert_eq(system(cmd), 0);

    int saw_old = 0, saw_new = 0;
    /* kill with SIGTERM at staged moments: mid-studies (a few figures written), while
     * gnuplot renders (a .tmp. image exists), and after fixed delays */
    const char *const triggers[] = {".dat", ".tmp.", NULL, NULL};
    const long delays[] = {0, 0, 300, 1000};
    for (size_t k = 0; k < sizeof delays / sizeof *delays; k++) {
        const char *trig = triggers[k];
        if (trig && !strcmp(trig, ".tmp.") && !have_gnuplot())
            continue;
        report_sync("", r);
        char *old = snapshot(r, 0, NULL);
        pid_t pid = report_start("--seed 7", r);
        int st = 0, ended = 0;
        if (trig) {
            size_t need = strcmp(trig, ".dat") ? 1 : 3;
            for (int t = 0; t < 30000 && staged(root, pid, trig) < need; t++) {
                if (waitpid(pid, &st, WNOHANG) == pid) {
                    ended = 1;
                    break;
                }
                sleep_ms(1);
            }
        } else
            sleep_ms(delays[k]);
        if (!ended) {
            kill(pid, SIGTERM);
            cr_assert_eq(waitpid(pid, &st, 0), pid);
        }
        cr_expect(!trig || !ended, "case %zu: the run ended before the kill (trigger %s)", k, trig);
        size_t tmp = 0;
        char *now = snapshot(r, 0, &tmp);
        char *now_names = snapshot(r, 1, NULL);
        char *rest = others(root, "r");
        int is_old = !strcmp(now, old), is_new = !strcmp(now_names, want_new);
        cr_expect(is_old || is_new, "case %zu (delay %ld ms, trigger %s): a mixed set\nnow:\n%s\nold:\n%s", k,
                  delays[k], trig ? trig : "-", now, old);
        cr_expect_eq(tmp, 0, "case %zu: %zu *.tmp.* files left in the report folder", k, tmp);
        cr_expect_str_empty(rest, "case %zu: left beside the report folder:\n%s", k, rest);
        if (trig)
            cr_expect(is_old, "case %zu: killed mid-run (trigger %s), yet not the old set", k, trig);
        saw_old |= is_old;
        saw_new |= is_new;
        free(old);
        free(now);
        free(now_names);
        free(rest);
    }
    cr_expect(saw_old, "no kill landed before the swap");
    (void)saw_new; /* a late delay may land after the end: then the new set, whole */

    /* SIGKILL of samplab itself: the run (its own process group) goes on and swaps in the new set */
    report_sync("", r);
    pid_t pid = report_start("--seed 7", r);
    for (int t = 0; t < 30000 && staged(root, pid, ".dat") < 3; t++)
        sleep_ms(1);
    kill(pid, SIGKILL);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    char stg[1024];
    snprintf(stg, sizeof stg, "%s/.r.staging.%ld", root, (long)pid);
    for (int t = 0; t < 600 && access(stg, F_OK) == 0; t++)
        sleep_ms(100);
    char *now_names = snapshot(r, 1, NULL);
    cr_expect_str_eq(now_names, want_new, "after SIGKILL of samplab: not the new set");
    char *rest = others(root, "r");
    cr_expect_str_empty(rest, "after SIGKILL: left beside the report folder:\n%s", rest);
    free(now_names);
    free(rest);
    free(want_new);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    cr_expect_eq(system(cmd), 0);
}

Test(replay_cli_report_swap, only_keeps_the_other_sections_and_refuses_foreign_folders)
{
    char tmpl[] = "/tmp/sl-test-swap-XXXXXX";
    char *root = mkdtemp(tmpl);
    cr_assert_not_null(root);
    char r[512], p[1024], cmd[1200];
    snprintf(r, sizeof r, "%s/r", root);
    report_sync("", r);
    char *before = snapshot(r, 0, NULL);
    report_sync("--only ties --seed 7", r);
    char *after = snapshot(r, 0, NULL);
    /* every figure of another section is the same file, byte for byte */
    size_t same = 0;
    for (char *line = before; *line;) {
        char *nl = strchr(line, '\n');
        *nl = '\0';
        if (!strncmp(line, "figures/", 8) && strncmp(line, "figures/ties", 12)) {
            cr_expect(strstr(after, line) != NULL, "--only ties changed or lost %s", line);
            same++;
        }
        line = nl + 1;
    }
    cr_expect_gt(same, 10, "only %zu figures of other sections", same);
    snprintf(p, sizeof p, "%s/REPORT.md", r);
    char *md = sl_test_slurp(p);
    cr_assert_not_null(md);
    cr_expect(strstr(md, "--only ties") && strstr(md, "--seed 7"), "REPORT.md is not the new one");
    free(md);
    /* a folder that holds more than a report's files is refused, and left as it was */
    snprintf(p, sizeof p, "%s/notes", r);
    cr_assert_eq(mkdir(p, 0755), 0);
    snprintf(cmd, sizeof cmd, "report --n 200 --only ties --no-plot --out %s", r);
    sl_test_expect_refused(cmd, "notes is not part of a report");
    sl_test_expect_refused("report --n 200 --only ties --no-plot --out .", "name a folder of its own");
    free(before);
    free(after);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    cr_expect_eq(system(cmd), 0);
}
