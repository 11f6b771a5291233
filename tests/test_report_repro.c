/* test_report_repro.c — `samplab report` is reproducible byte for byte: two
 * runs with the same options (one on 1 thread, one on 2) into two temporary
 * directories give identical REPORT.md and .dat files, and the .gp scripts
 * name only their own files. Runs $SL_BIN (make test: the AddressSanitizer
 * build; bin/samplab when unset) with a reduced N (--n 2000) and --no-plot, so
 * it needs no gnuplot and takes a few seconds. A missing --logits file and an
 * unknown --only section are exit 2. Against samplab itself: no golden file. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "samplab.h"

static char *slurp(const char *path, size_t *len)
{
    unsigned char *buf = NULL;
    sl_error err;
    if (sl_io_file_slurp(path, &buf, len, &err))
        return NULL;
    return (char *)buf;
}

static void run_report(const char *bin, const char *dir, int jobs)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s report --n 2000 --no-plot --jobs %d --out %s > %s.log 2>&1", bin, jobs, dir,
             dir);
    int rc = system(cmd);
    cr_assert_eq(rc, 0, "command failed (status %d): %s", rc, cmd);
}

static void same_file(const char *a, const char *b)
{
    size_t la = 0, lb = 0;
    char *x = slurp(a, &la), *y = slurp(b, &lb);
    cr_assert_not_null(x, "cannot read %s", a);
    cr_assert_not_null(y, "cannot read %s", b);
    size_t i = 0;
    while (i < la && i < lb && x[i] == y[i])
        i++;
    cr_assert(la == lb && i == la, "%s and %s differ at byte %zu (sizes %zu, %zu)", a, b, i, la, lb);
    free(x);
    free(y);
}

Test(replay_report, same_options_same_bytes)
{
    const char *bin = getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab";
    char tmpl[] = "/tmp/samplab-repro-XXXXXX";
    char *root = mkdtemp(tmpl);
    cr_assert_not_null(root);
    char a[256], b[256];
    snprintf(a, sizeof a, "%s/a", root);
    snprintf(b, sizeof b, "%s/b", root);
    run_report(bin, a, 1);
    run_report(bin, b, 2);

    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/REPORT.md", a);
    snprintf(pb, sizeof pb, "%s/REPORT.md", b);
    same_file(pa, pb);

    /* The output directory must not leak into the report. */
    size_t len = 0;
    char *md = slurp(pa, &len);
    cr_assert_not_null(md);
    cr_assert_null(strstr(md, root), "REPORT.md mentions its output directory %s", root);
    cr_assert_not_null(strstr(md, "samplab report --n 2000"), "the header names the command");
    free(md);

    snprintf(pa, sizeof pa, "%s/figures", a);
    DIR *d = opendir(pa);
    cr_assert_not_null(d, "no figures directory in %s", a);
    size_t ndat = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        int dat = n > 4 && !strcmp(e->d_name + n - 4, ".dat");
        int gp = n > 3 && !strcmp(e->d_name + n - 3, ".gp");
        if (!dat && !gp)
            continue;
        char fa[1024], fb[1024];
        snprintf(fa, sizeof fa, "%s/figures/%s", a, e->d_name);
        snprintf(fb, sizeof fb, "%s/figures/%s", b, e->d_name);
        same_file(fa, fb);
        ndat += dat;
    }
    closedir(d);
    cr_assert_geq(ndat, 5, "expected at least 5 .dat files, found %zu", ndat);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    cr_assert_eq(system(cmd), 0);
}

Test(replay_report, bad_logits_is_usage_error)
{
    const char *bin = getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s report --logits /nonexistent/logits.txt --out /tmp/samplab-never >/dev/null 2>&1",
             bin);
    int rc = system(cmd);
    cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "expected exit 2 for a missing --logits file, got %d", rc);
    snprintf(cmd, sizeof cmd, "%s report --only nosuch >/dev/null 2>&1", bin);
    rc = system(cmd);
    cr_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 2, "expected exit 2 for an unknown section, got %d", rc);
}
