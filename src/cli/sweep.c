/* sweep.c — `samplab sweep --spec FILE --out DIR [--resume]`: a study's grid of
 * points run one after another (or on MPI ranks, sweep_mpi.c), each finished
 * point appended to its checkpoint (.NAME.checkpoint beside DIR, each line proving
 * what it answers: sweep_ckpt.c) so that a killed run loses only the points in
 * flight and DIR stays all old, and the results written in grid order as one JSON-lines file per job
 * plus summary.md. The set is built in a folder beside DIR and swapped in whole
 * (sl_io_dir_swap);
 * its bytes depend on the spec alone, not on the number of processes. */
#define _GNU_SOURCE /* strndup */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/sl_cli.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: samplab sweep --spec FILE --out DIR [--resume]\n"
            "       mpirun -np P samplab sweep --spec FILE --out DIR [--resume]\n\n"
            "Runs a study: a JSON spec's grid of inputs x frameworks (or methods) x settings x seeds,\n"
            "one subcommand (draw, gof, replay, check, calibrate, power, exact) at each point, in this\n"
            "process. DIR gets <job>.jsonl (one record per point, in grid order: the point, its input,\n"
            "framework, settings, seed, the exit status and the subcommand's JSON result or its error\n"
            "line) and summary.md, built beside DIR and swapped in whole; the bytes depend on the spec\n"
            "alone. Each finished point is appended to the run's checkpoint (.NAME.checkpoint beside\n"
            "DIR until the set goes in: a killed or failed run leaves DIR all old); --resume takes the\n"
            "records that verify (point, spec, samplab version, input files' SHA-256, checksum), runs\n"
            "the rest, says how many and why, and ends with the same bytes as an uninterrupted run.\n"
            "Under mpirun (Open MPI), rank 0 reads the spec and hands out points one at a time; a rank\n"
            "that dies stops the run. A progress line goes to stderr on a terminal. The spec format:\n"
            "docs/sweep.md.\n\n"
            "Exit status: 0 every point ran (whatever its verdict), 2 bad spec, folder or usage, 130\n"
            "interrupted (Ctrl-C: the finished points stay in the checkpoint). One run at a time per\n"
            "DIR: a second is refused, naming the lock (.NAME.lock beside DIR) and its holder's pid.\n\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("sweep"), "options");
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int fail(const char *fmt, const char *what, const char *why)
{
    char e1[SL_CLI_ESC_MAX], e2[SL_CLI_ESC_MAX];
    sl_cli_errf(fmt, sl_cli_esc(what, e1, sizeof e1), why ? sl_cli_esc(why, e2, sizeof e2) : "");
    return 2;
}

/* A whole small file into memory (at most max bytes); 0, or -1 with errno. */
static int slurp(const char *path, size_t max, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return -1;
    }
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= max) {
            free(b);
            fclose(f);
            errno = EFBIG;
            return -1;
        }
        cap *= 2;
        char *nb = realloc(b, cap + 1);
        if (!nb)
            free(b);
        b = nb;
    }
    int bad = !b || ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        errno = b ? EIO : ENOMEM;
        return -1;
    }
    b[n] = 0;
    *text = b;
    *len = n;
    return 0;
}

static int write_all(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int bad = n && fwrite(data, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

/* The spec as the checkpoint keeps it: jansson's compact dump, key order kept
 * (it decides the points' numbers), so reformatting the file still resumes. */
static char *spec_canon(const sl_cli_sweep *sw)
{
    return json_dumps(sw->root, JSON_COMPACT);
}

/* A checkpoint file that is not a regular file (a FIFO would block the read, a
 * device never end it) is refused before it is opened; 0 when it is absent. */
static int not_regular(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    return fail("samplab sweep: %s: not a regular file (%s); a checkpoint is one, so remove it or name a new "
                "--out folder\n", path, S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a folder"
                : S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                : "a socket");
}

/* What a sweep writes into DIR: checkpoint/, summary.md and <job>.jsonl. */
static int sweep_entry(const char *name)
{
    if (!strcmp(name, "checkpoint") || !strcmp(name, "summary.md"))
        return 1;
    for (const char *const *job = sl_cli_sweep_jobs; *job; job++) {
        size_t n = strlen(*job);
        if (!strncmp(name, *job, n) && !strcmp(name + n, ".jsonl"))
            return 1;
    }
    return 0;
}

int sl_cli_sweep_setup(sl_cli_sweep_run *r)
{
    char path[9400];
    struct stat st;
    r->records = calloc(r->sw.n_points ? r->sw.n_points : 1, sizeof *r->records);
    r->todo = malloc((r->sw.n_points ? r->sw.n_points : 1) * sizeof *r->todo);
    if (!r->records || !r->todo)
        return fail("samplab sweep: %s: out of memory%s\n", r->dir, NULL);
    if (strlen(r->dir) > 3000)
        return fail("samplab sweep: --out %s: the path is too long%s\n", r->dir, NULL);
    sl_error lerr;
    if (sl_io_outdir_lock(&r->lock, r->dir, &lerr))
        return fail("samplab sweep: %s%s\n", lerr.msg, NULL);
    if (stat(r->dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return fail("samplab sweep: --out %s: not a folder%s\n", r->dir, NULL);
        snprintf(path, sizeof path, "%s/checkpoint/spec.json", r->dir);
        DIR *d = opendir(r->dir);
        int entries = 0;
        char foreign[256] = "";
        for (struct dirent *e; d && (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            entries++;
            if (!*foreign && !sweep_entry(e->d_name))
                snprintf(foreign, sizeof foreign, "%s", e->d_name);
        }
        if (d)
            closedir(d);
        if (entries && access(path, F_OK) != 0)
            return fail("samplab sweep: --out %s: a folder that holds files but no sweep (no "
                        "checkpoint/spec.json); the sweep replaces its folder whole, so name a new one%s\n",
                        r->dir, NULL);
        /* a sweep's folder that also holds the user's notes, or another run's --out
         * DIR/sub, would lose them in the exchange: refused as a foreign folder is */
        if (*foreign) {
            char e1[SL_CLI_ESC_MAX], e2[SL_CLI_ESC_MAX];
            return sl_cli_errf("samplab sweep: --out %s: holds %s, which no sweep writes; the sweep replaces its "
                               "folder whole, so move it out or name a new folder\n",
                               sl_cli_esc(r->dir, e1, sizeof e1), sl_cli_esc(foreign, e2, sizeof e2));
        }
    } else if (mkdir(r->dir, 0777) != 0) {
        return fail("samplab sweep: --out %s: cannot create it: %s\n", r->dir, strerror(errno));
    }
    /* this run's checkpoint is kept beside DIR (.NAME.checkpoint) until its set goes
     * in whole, so a run that fails or is killed leaves DIR all old: the old results
     * with their own checkpoint; --resume reads both */
    if (sl_io_outdir_beside(r->dir, "checkpoint", r->flight, sizeof r->flight, &lerr))
        return fail("samplab sweep: %s%s\n", lerr.msg, NULL);
    char ck[2][4400];
    snprintf(ck[0], sizeof ck[0], "%s/checkpoint", r->dir);
    snprintf(ck[1], sizeof ck[1], "%s", r->flight);
    char *canon = spec_canon(&r->sw);
    if (!canon)
        return fail("samplab sweep: %s: out of memory%s\n", r->dir, NULL);
    /* --resume reads each checkpoint of this spec; one of another spec is refused
     * unless the other is this spec's (a new spec's run killed over an old set) */
    int have[2] = {0, 0}, other = -1;
    for (int k = 0; k < 2; k++) {
        if (lstat(ck[k], &st) != 0)
            continue;
        snprintf(path, sizeof path, "%s/spec.json", ck[k]);
        int bad = !S_ISDIR(st.st_mode) ? fail("samplab sweep: %s: not a folder; a sweep's checkpoint is one, so "
                                              "remove it or name a new --out folder%s\n", ck[k], NULL)
                                       : not_regular(path);
        char *old = NULL;
        size_t old_n = 0;
        have[k] = !bad && slurp(path, (size_t)1 << 30, &old, &old_n) == 0;
        if (have[k] && strcmp(old, canon) != 0) {
            have[k] = 0;
            other = other < 0 ? k : other;
        }
        free(old);
        if (bad) {
            free(canon);
            return bad;
        }
    }
    if (r->resume && other >= 0 && !have[0] && !have[1]) {
        snprintf(path, sizeof path, "%s/spec.json", ck[other]);
        free(canon);
        return fail("samplab sweep: --resume: %s holds the checkpoint of another spec; run without "
                    "--resume to start over%s\n", path, NULL);
    }
    if (r->resume && !(r->seen = calloc(r->sw.n_points ? r->sw.n_points : 1, 1))) {
        free(canon);
        return fail("samplab sweep: %s: out of memory%s\n", r->dir, NULL);
    }
    for (int k = 0; r->resume && k < 2; k++) {
        DIR *d = have[k] ? opendir(ck[k]) : NULL;
        int bad = 0;
        for (struct dirent *e; d && !bad && (e = readdir(d));) {
            if (strncmp(e->d_name, "rank-", 5) != 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", ck[k], e->d_name);
            char *text;
            size_t len;
            if (!(bad = not_regular(path)) && !slurp(path, (size_t)1 << 40, &text, &len)) {
                sl_cli_sweep_ckpt_load(r, text, len);
                free(text);
            }
        }
        if (d)
            closedir(d);
        if (bad) {
            free(canon);
            return bad;
        }
    }
    if (r->resume && (have[0] || have[1]))
        sl_cli_sweep_ckpt_say(r, stderr);
    sl_error err;
    /* a run without --resume starts its checkpoint over (a killed run's goes) */
    int bad = !r->resume && sl_io_tree_remove(r->flight, &err);
    if (!bad && mkdir(r->flight, 0777) != 0 && errno != EEXIST)
        bad = sl_base_error_set(&err, SL_EIO, "%s: cannot create it: %s", r->flight, strerror(errno));
    snprintf(path, sizeof path, "%s/spec.json", r->flight);
    bad = bad || sl_io_write_atomic(path, canon, strlen(canon), &err);
    free(canon);
    if (bad)
        return fail("samplab sweep: %s%s\n", err.msg, NULL);
    r->n_todo = 0;
    for (size_t i = 0; i < r->sw.n_points; i++)
        if (!r->records[i])
            r->todo[r->n_todo++] = i;
    return 0;
}

int sl_cli_sweep_open_rank(sl_cli_sweep_run *r)
{
    char path[4400 + 64];
    sl_error err;
    if (!*r->flight && sl_io_outdir_beside(r->dir, "checkpoint", r->flight, sizeof r->flight, &err))
        return fail("samplab sweep: %s%s\n", err.msg, NULL);
    snprintf(path, sizeof path, "%s/rank-%d.jsonl", r->flight, r->rank);
    r->ckpt = fopen(path, "a+");
    if (!r->ckpt)
        return fail("samplab sweep: %s: cannot append to it: %s\n", path, strerror(errno));
    /* a line cut by a kill stays a line of its own, which resume skips */
    if (fseek(r->ckpt, -1, SEEK_END) == 0 && fgetc(r->ckpt) != '\n')
        fputc('\n', r->ckpt);
    fseek(r->ckpt, 0, SEEK_END);
    return 0;
}

char *sl_cli_sweep_do(sl_cli_sweep_run *r, size_t i)
{
    char *rec = sl_cli_sweep_job(&r->sw, i);
    if (rec && sl_cli_interrupted()) { /* a point cut short by Ctrl-C is no result */
        free(rec);
        r->interrupted = 1;
        return NULL;
    }
    if (rec && r->ckpt) {
        char *line = sl_cli_sweep_ckpt_line(r, i, rec);
        if (!line) {
            free(rec);
            return NULL;
        }
        /* a full disk or a file-size limit is said as such, once, and stops the run */
        int bad = fprintf(r->ckpt, "%s\n", line) < 0;
        bad |= fflush(r->ckpt) != 0;
        free(line);
        if (bad) {
            int e = errno;
            char path[4400 + 64], m[64];
            snprintf(path, sizeof path, "%s/rank-%d.jsonl", r->flight, r->rank);
            snprintf(m, sizeof m, ": %s", strerror(e ? e : EIO));
            fail("samplab sweep: %s: cannot append a record%s; the folder keeps its old set\n", path, m);
            r->write_failed = 1;
            free(rec);
            return NULL;
        }
    }
    return rec;
}

void sl_cli_sweep_progress(sl_cli_sweep_run *r, size_t done, int last)
{
    if (!r->progress)
        return;
    double t = now();
    if (!last && t - r->last < 0.2)
        return;
    r->last = t;
    fprintf(r->progress, "\rsamplab sweep: %zu/%zu points", done + r->n_resumed, r->sw.n_points);
    if (r->n_resumed)
        fprintf(r->progress, " (%zu from the checkpoint)", r->n_resumed);
    fprintf(r->progress, ", %.1f s%s", t - r->t0, last ? "\n" : "");
    fflush(r->progress);
}

/* --- the result set ----------------------------------------------------------- */

static void md_cell(FILE *f, const char *s, size_t max)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && k < max; p++, k++) {
        if (*p == '|')
            fputs("\\|", f);
        else if (*p < 0x20)
            fputc(' ', f);
        else
            fputc(*p, f);
    }
    if (strlen(s) > max)
        fputs("...", f);
}

static void md_value(FILE *f, const json_t *v)
{
    if (json_is_real(v))
        fprintf(f, "%.4g", json_real_value(v));
    else if (json_is_integer(v))
        fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    else if (json_is_string(v))
        md_cell(f, json_string_value(v), 40);
    else if (json_is_null(v))
        fputs("null", f);
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "true" : "false", f);
    else if (json_is_array(v)) {
        size_t n = json_array_size(v);
        fputc('[', f);
        for (size_t i = 0; i < n && i < 8; i++) {
            if (i)
                fputc(' ', f);
            md_value(f, json_array_get(v, i));
        }
        fputs(n > 8 ? " ...]" : "]", f);
    }
}

/* The few result fields a summary row shows, by job. */
static void md_result(FILE *f, const char *job, const json_t *res)
{
    static const struct {
        const char *job, *keys[6];
    } show[] = {
        {"draw", {"tokens", "rng.words", "version", NULL}},
        {"gof", {"verdict", "chi2.p", "g.p", "tv.value", NULL}},
        {"replay", {"tokens", "words", NULL}},
        {"check", {"verdict", "first_divergence", "p_value", "outside_kept", NULL}},
        {"calibrate", {"verdict", "ks.p", "ks.d", NULL}},
        {"power", {"tv_critical", "faults.temper.smallest.gof.tv", "faults.shift.smallest.gof.tv", NULL}},
        {"exact", {"always_fails", "tv", "tv_bound", "never", NULL}},
    };
    const json_t *fws = json_object_get(res, "frameworks");
    if (!strcmp(job, "replay") && json_is_array(fws)) { /* --framework all: where each departs */
        size_t i;
        const json_t *x;
        fputs("departs:", f);
        json_array_foreach(fws, i, x) {
            fprintf(f, " %s=", json_string_value(json_object_get(x, "framework")) ? json_string_value(json_object_get(x, "framework")) : "?");
            md_value(f, json_object_get(x, "departs"));
        }
        return;
    }
    for (size_t s = 0; s < sizeof show / sizeof show[0]; s++) {
        if (strcmp(show[s].job, job))
            continue;
        int first = 1;
        for (const char *const *k = show[s].keys; *k; k++) {
            const json_t *v = res;
            char part[64];
            for (const char *p = *k; v && *p;) {
                size_t n = strcspn(p, ".");
                snprintf(part, sizeof part, "%.*s", (int)n, p);
                v = json_object_get(v, part);
                p += n + (p[n] == '.');
            }
            if (!v)
                continue;
            fprintf(f, "%s%s=", first ? "" : " ", *k);
            md_value(f, v);
            first = 0;
        }
    }
}

static int write_summary(const sl_cli_sweep_run *r, FILE *f)
{
    const char *name = json_string_value(json_object_get(r->sw.root, "name"));
    fprintf(f, "# Sweep%s%s\n\n", name ? ": " : "", name ? name : "");
    fprintf(f, "%zu points in %zu %s. Records: one line per point in `<job>.jsonl`; this table shows a few "
               "fields of each. The bytes depend on the spec alone (not on the processes that ran it).\n",
            r->sw.n_points, r->sw.n_studies, r->sw.n_studies == 1 ? "study" : "studies");
    for (size_t k = 0; k < r->sw.n_studies; k++) {
        const sl_cli_sweep_study *st = &r->sw.studies[k];
        size_t failed = 0;
        for (size_t i = st->first; i < st->first + st->count; i++) {
            json_t *j = json_loads(r->records[i], 0, NULL);
            failed += json_integer_value(json_object_get(j, "exit")) == 2;
            json_decref(j);
        }
        fprintf(f, "\n## ");
        md_cell(f, st->name, 120);
        fprintf(f, " (%s, %zu points%s", st->job, st->count, failed ? ", " : ")\n\n");
        if (failed)
            fprintf(f, "%zu refused)\n\n", failed);
        fprintf(f, "| point | input | %s | settings | seed | exit | result |\n", st->axis ? st->axis_opt + 2 : "-");
        fprintf(f, "|---|---|---|---|---|---|---|\n");
        for (size_t i = st->first; i < st->first + st->count; i++) {
            json_t *j = json_loads(r->records[i], 0, NULL);
            fprintf(f, "| %zu | ", i);
            const json_t *in = json_object_get(j, "input");
            const char *src = json_string_value(json_object_get(in, "logits"));
            if (!src)
                src = json_string_value(json_object_get(in, "probs"));
            md_cell(f, src ? src : "-", 40);
            if (json_object_get(in, "row"))
                fprintf(f, " row %" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(in, "row")));
            fputs(" | ", f);
            const json_t *ax = st->axis ? json_object_get(j, st->axis_opt + 2) : NULL;
            md_cell(f, ax ? json_string_value(ax) : "-", 40);
            fputs(" | ", f);
            const char *key;
            json_t *v;
            int first = 1;
            json_object_foreach(json_object_get(j, "settings"), key, v) {
                fprintf(f, "%s%s=", first ? "" : " ", key);
                md_value(f, v);
                first = 0;
            }
            if (first)
                fputc('-', f);
            fputs(" | ", f);
            json_t *seed = json_object_get(j, "seed");
            if (seed)
                md_value(f, seed);
            else
                fputc('-', f);
            fprintf(f, " | %" JSON_INTEGER_FORMAT " | ", json_integer_value(json_object_get(j, "exit")));
            const json_t *res = json_object_get(j, "result");
            if (json_is_object(res)) {
                md_result(f, st->job, res);
            } else {
                fputs("error: ", f);
                md_cell(f, json_string_value(json_object_get(j, "error")) ? json_string_value(json_object_get(j, "error")) : "", 100);
            }
            fputs(" |\n", f);
            json_decref(j);
        }
    }
    return ferror(f) ? -1 : 0;
}

/* Writes the set into folder t: the records per job, summary.md, and the
 * checkpoint again (spec + every record in grid order, so a later --resume
 * finds everything done). */
static int write_set(sl_cli_sweep_run *r, const char *t)
{
    char path[8192];
    for (const char *const *job = sl_cli_sweep_jobs; *job; job++) {
        int any = 0;
        for (size_t k = 0; k < r->sw.n_studies; k++)
            any |= !strcmp(r->sw.studies[k].job, *job);
        if (!any)
            continue;
        snprintf(path, sizeof path, "%s/%s.jsonl", t, *job);
        FILE *f = fopen(path, "w");
        if (!f)
            return -1;
        for (size_t k = 0; k < r->sw.n_studies; k++) {
            const sl_cli_sweep_study *st = &r->sw.studies[k];
            if (strcmp(st->job, *job))
                continue;
            for (size_t i = st->first; i < st->first + st->count; i++)
                fprintf(f, "%s\n", r->records[i]);
        }
        if (ferror(f) | (fclose(f) != 0))
            return -1;
    }
    snprintf(path, sizeof path, "%s/summary.md", t);
    FILE *f = fopen(path, "w");
    if (!f || write_summary(r, f) | (fclose(f) != 0))
        return -1;
    snprintf(path, sizeof path, "%s/checkpoint", t);
    if (mkdir(path, 0777))
        return -1;
    snprintf(path, sizeof path, "%s/checkpoint/rank-0.jsonl", t);
    if (!(f = fopen(path, "w")))
        return -1;
    int oom = 0;
    for (size_t i = 0; i < r->sw.n_points && !oom; i++) {
        char *line = sl_cli_sweep_ckpt_line(r, i, r->records[i]);
        oom = !line;
        if (line)
            fprintf(f, "%s\n", line);
        free(line);
    }
    if (ferror(f) | (fclose(f) != 0) || oom) {
        errno = oom ? ENOMEM : errno;
        return -1;
    }
    char *canon = spec_canon(&r->sw);
    snprintf(path, sizeof path, "%s/checkpoint/spec.json", t);
    int bad = !canon || write_all(path, canon, strlen(canon));
    free(canon);
    return bad ? -1 : 0;
}

int sl_cli_sweep_finish(sl_cli_sweep_run *r)
{
    for (size_t i = 0; i < r->sw.n_points; i++)
        if (!r->records[i])
            return fail("samplab sweep: %s: point missing after the run%s\n", r->dir, NULL);
    if (r->ckpt) {
        fclose(r->ckpt);
        r->ckpt = NULL;
    }
    /* the set is built beside DIR and goes in whole (io/outdir.c), as the report's */
    sl_io_outdir out;
    sl_error err;
    if (sl_io_outdir_init(&out, r->dir, NULL, (long)getpid(), &err) || sl_io_outdir_begin(&out, NULL, &err)) {
        sl_io_outdir_discard(&out);
        return fail("samplab sweep: %s%s\n", err.msg, NULL);
    }
    if (write_set(r, out.staging)) {
        int e = errno;
        sl_io_outdir_discard(&out);
        return fail("samplab sweep: %s: cannot write the results: %s\n", out.staging, strerror(e));
    }
    if (sl_io_outdir_commit(&out, &err)) {
        sl_io_outdir_discard(&out);
        return fail("samplab sweep: %s%s\n", err.msg, NULL);
    }
    sl_io_tree_remove(r->flight, &err); /* the set's own checkpoint is in DIR now */
    return 0;
}

void sl_cli_sweep_run_free(sl_cli_sweep_run *r)
{
    if (r->ckpt)
        fclose(r->ckpt);
    if (r->records)
        for (size_t i = 0; i < r->sw.n_points; i++)
            free(r->records[i]);
    free(r->records);
    free(r->todo);
    sl_cli_sweep_ckpt_free(r);
    sl_io_outdir_unlock(&r->lock);
    sl_cli_sweep_free(&r->sw);
    memset(r, 0, sizeof *r);
}

int sl_cli_sweep_read(sl_cli_sweep *sw, const char *path, FILE *err)
{
    memset(sw, 0, sizeof *sw);
    sw->path = path;
    sw->err = err;
    if (slurp(path, (size_t)64 << 20, &sw->text, &sw->text_len)) {
        char e[SL_CLI_ESC_MAX];
        fprintf(err, "samplab sweep: --spec %s: %s\n", sl_cli_esc(path, e, sizeof e),
                errno == EFBIG ? "larger than 64 MiB" : strerror(errno));
        return 2;
    }
    return sl_cli_sweep_parse(sw);
}

int sl_cli_sweep_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int rc = sl_cli_parse("sweep", argc, argv, help, &po);
    if (rc >= 0)
        return rc;
    const char *spec = po.a[SL_API_OPT_SPEC].text, *dir = po.a[SL_API_OPT_OUT].text;
    if (!spec || !dir) {
        sl_cli_errf("samplab sweep: %s is needed (samplab sweep --help)\n", spec ? "--out DIR" : "--spec FILE");
        return 2;
    }
    int resume = po.a[SL_API_OPT_RESUME].given;
    /* a file-size limit (ulimit -f) is a write error said in one line, not SIGXFSZ's core dump */
    signal(SIGXFSZ, SIG_IGN);
    if (sl_cli_sweep_mpi_launched())
        return sl_cli_sweep_mpi(argc, argv, spec, dir, resume);

    sl_cli_sweep_run r;
    memset(&r, 0, sizeof r);
    r.dir = dir;
    r.resume = resume;
    r.t0 = now();
    r.progress = isatty(fileno(stderr)) ? stderr : NULL;
    rc = sl_cli_sweep_read(&r.sw, spec, stderr);
    if (!rc)
        rc = sl_cli_sweep_setup(&r);
    if (!rc)
        rc = sl_cli_sweep_open_rank(&r);
    for (size_t k = 0; !rc && k < r.n_todo; k++) {
        size_t i = r.todo[k];
        r.records[i] = sl_cli_sweep_do(&r, i);
        if (!r.records[i] && r.interrupted) {
            sl_cli_errf("samplab sweep: interrupted (Ctrl-C) at point %zu; %s/checkpoint keeps the %zu finished "
                    "points: run again with --resume", i, dir, k + r.n_resumed);
            rc = SL_CLI_EXIT_INTERRUPTED;
        } else if (!r.records[i]) {
            rc = r.write_failed ? 2 : fail("samplab sweep: point %s: out of memory%s\n", "", NULL);
        }
        sl_cli_sweep_progress(&r, k + 1, k + 1 == r.n_todo);
    }
    if (!rc)
        rc = sl_cli_sweep_finish(&r);
    sl_cli_sweep_run_free(&r);
    return rc;
}
