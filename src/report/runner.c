/* runner.c — `samplab report` as one library call: plans every section,
 * runs their jobs (OpenMP, longest first), then emits the Markdown in a
 * fixed order and writes OUTDIR/REPORT.md, OUTDIR/figures/NAME.{dat,gp,png,svg}
 * and OUTDIR/timings.txt, each through sl_io_write_atomic.
 *
 * Reproducible by construction: every study owns its generator, seeded from
 * the base seed and its cell number, and writes into its own slot; the
 * Markdown is assembled afterwards in a fixed order. So the same build and
 * seeds give a byte-identical REPORT.md and .dat files whatever the number
 * of threads. Nothing time- or machine-dependent goes into them: wall-clock
 * timings go to OUTDIR/timings.txt. The header follows TestU01's bbattery.c
 * habit (version, generators, methods, N, seeds, the command), without the
 * date that would break byte equality. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "report/sl_report.h"

/* The section table: report order, and the ids --only takes. */
const sl_report_section *const sl_report_sections[] = {
    &sl_report_section_agree, &sl_report_section_cost, &sl_report_section_seed, &sl_report_section_generation,
    &sl_report_section_ties, &sl_report_section_compare, &sl_report_section_stages, &sl_report_section_evidence, &sl_report_section_exact, NULL};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the calling thread (0 where the clock is missing). */
static double thread_cpu(void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return 0.0;
}

/* User + system CPU time of this process (who = RUSAGE_SELF) or of its
 * waited-for children (RUSAGE_CHILDREN: the gnuplots). */
static double rusage_cpu(int who)
{
    struct rusage ru;
    if (getrusage(who, &ru) != 0)
        return 0.0;
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

/* Grows an array of pointers-or-records to hold one more entry. */
static int grow(void **arr, size_t *cap, size_t n, size_t first, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : first;
    void *a = realloc(*arr, c * size);
    if (!a)
        return SL_ENOMEM;
    *arr = a;
    *cap = c;
    return 0;
}

int sl_report_add_job(sl_report_ctx *ctx, int phase, double cost, sl_report_job_fn fn, void *arg, sl_error *err)
{
    if (grow((void **)&ctx->jobs, &ctx->capjobs, ctx->njobs, 64, sizeof *ctx->jobs))
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    sl_report_job *j = &ctx->jobs[ctx->njobs++];
    memset(j, 0, sizeof *j);
    j->fn = fn;
    j->arg = arg;
    j->cost = cost;
    j->phase = phase;
    j->section = ctx->cur_section;
    return 0;
}

/* Appends a copy of s to a list of strings. */
static int push_str(char ***list, size_t *n, size_t *cap, const char *s, sl_error *err)
{
    char *c;
    if (grow((void **)list, cap, *n, 16, sizeof **list) || !(c = strdup(s)))
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    (*list)[(*n)++] = c;
    return 0;
}

int sl_report_keep(sl_report_ctx *ctx, const char *stem, sl_error *err)
{
    return push_str(&ctx->keep, &ctx->nkeep, &ctx->capkeep, stem, err);
}

int sl_report_plot(sl_report_ctx *ctx, const sl_plot *p, sl_error *err)
{
    int rc = sl_io_plot_write(ctx->figdir, p, err);
    return rc ? rc : push_str(&ctx->figs, &ctx->nfigs, &ctx->capfigs, p->name, err);
}

static int null_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    (void)ctx;
    sl_report_null_slot *z = arg;
    return sl_report_tv_null(z->d->p, z->d->V, z->n, z->reps, z->seed, &z->q, err);
}

int sl_report_null_want(sl_report_ctx *ctx, const sl_report_dist *d, size_t n, const sl_report_null **out,
                        sl_error *err)
{
    for (size_t i = 0; i < ctx->nnulls; i++)
        if (ctx->nulls[i]->d == d && ctx->nulls[i]->n == n) {
            *out = &ctx->nulls[i]->q;
            return 0;
        }
    sl_report_null_slot *z;
    if (grow((void **)&ctx->nulls, &ctx->capnulls, ctx->nnulls, 16, sizeof *ctx->nulls) ||
        !(z = calloc(1, sizeof *z)))
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    z->d = d;
    z->n = n;
    z->reps = d->V > 4096 && ctx->null_reps > 300 ? 300 : ctx->null_reps;
    /* The seed depends on the case only, not on which sections run. */
    uint64_t h = 1469598103934665603u;
    for (const char *c = d->name; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    z->seed = (unsigned long)((h ^ (uint64_t)n ^ ctx->seed) & 0xFFFFFFFFu);
    ctx->nulls[ctx->nnulls++] = z;
    *out = &z->q;
    return sl_report_add_job(ctx, 0, (double)z->reps * ((double)d->V * 20.0 + 1000.0), null_run, z, err);
}

/* Longest first, so the two cores finish together; ties keep queue order. */
static int job_order_cmp(const void *a, const void *b)
{
    const sl_report_job *const *x = a, *const *y = b;
    if ((*x)->cost != (*y)->cost)
        return (*x)->cost < (*y)->cost ? 1 : -1;
    return (*x < *y) ? -1 : (*x > *y);
}

static int run_jobs(sl_report_ctx *ctx, const sl_report_opts *o, int threads, int phase, size_t *done,
                    sl_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < ctx->njobs; i++)
        n += ctx->jobs[i].phase == phase;
    if (!n)
        return 0;
    sl_report_job **order = malloc(n * sizeof *order);
    if (!order)
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    n = 0;
    for (size_t i = 0; i < ctx->njobs; i++)
        if (ctx->jobs[i].phase == phase)
            order[n++] = &ctx->jobs[i];
    qsort(order, n, sizeof *order, job_order_cmp);
    long nn = (long)n;
    (void)threads; /* unused without OpenMP */
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (long i = 0; i < nn; i++) {
        sl_report_job *j = order[i];
        double t0 = now(), c0 = thread_cpu();
        j->rc = j->fn(ctx, j->arg, &j->err);
        j->seconds = now() - t0;
        j->cpu = thread_cpu() - c0;
#pragma omp critical
        {
            (*done)++;
            if (o->progress)
                o->progress(o->progress_user, SL_REPORT_EV_STUDY, *done, ctx->njobs);
        }
    }
    free(order);
    return 0;
}

/* ---------------------------------------------------------------- the staging folder */

/* What a report folder may hold: files, and files in figures/ and inputs/.
 * Anything else would be lost or moved by the swap, so it is refused. */
static int check_target(const char *t, sl_error *err)
{
    DIR *d = opendir(t);
    if (!d) {
        if (errno == ENOENT)
            return 0;
        return sl_base_error_set(err, SL_EIO, "--out %s: %s", t, errno == ENOTDIR ? "not a folder" : strerror(errno));
    }
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[8400];
        snprintf(path, sizeof path, "%s/%s", t, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISREG(st.st_mode))
            continue;
        int sub = S_ISDIR(st.st_mode) && (!strcmp(e->d_name, "figures") || !strcmp(e->d_name, "inputs"));
        if (sub) {
            DIR *f = opendir(path);
            struct dirent *g;
            while (f && !rc && (g = readdir(f))) {
                char q[8700];
                snprintf(q, sizeof q, "%s/%s", path, g->d_name);
                if (strcmp(g->d_name, ".") && strcmp(g->d_name, "..") && (lstat(q, &st) != 0 || !S_ISREG(st.st_mode)))
                    rc = sl_base_error_set(err, SL_EINVAL, "--out %s: %s/%s is not part of a report (a report "
                                           "folder holds files, figures/ and inputs/): give --out a folder of its own",
                                           t, e->d_name, g->d_name);
            }
            if (f)
                closedir(f);
        } else
            rc = sl_base_error_set(err, SL_EINVAL, "--out %s: %s is not part of a report (a report folder holds "
                                   "files, figures/ and inputs/): give --out a folder of its own", t, e->d_name);
    }
    closedir(d);
    return rc;
}

void sl_report_opts_init(sl_report_opts *o)
{
    memset(o, 0, sizeof *o);
    o->outdir = "reports";
    o->row = -1;
    o->n = SL_REPORT_DEFAULT_N;
    o->seed = SL_REPORT_DEFAULT_SEED;
}

/* 1 if section `id` is in the comma-separated list (NULL: all). */
static int wanted(const char *only, const char *id)
{
    if (!only)
        return 1;
    size_t n = strlen(id);
    for (const char *p = only; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, id, n))
            return 1;
        p += len + (e != NULL);
    }
    return 0;
}

int sl_report_only_check(const char *only, sl_error *err)
{
    /* An empty list (or an empty item) would select nothing and write an
     * empty report over the old one. */
    if (only && !*only)
        return sl_base_error_set(err, SL_EINVAL, "--only: the list of sections is empty (samplab report --help "
                                                 "lists them)");
    for (const char *p = only; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!len || (e && !e[1]))
            return sl_base_error_set(err, SL_EINVAL, "--only: an empty section name in '%s' (a comma too many)",
                                     only);
        int ok = 0;
        for (size_t k = 0; sl_report_sections[k]; k++)
            ok |= strlen(sl_report_sections[k]->id) == len && !strncmp(sl_report_sections[k]->id, p, len);
        if (!ok)
            return sl_base_error_set(err, SL_EINVAL,
                                     "--only: unknown section '%.*s' (samplab report --help lists them)", (int)len, p);
        p += len + (e != NULL);
    }
    return 0;
}

/* The options that differ from `make report`, as a command line spells them. */
static void options_md(const sl_report_ctx *ctx, sl_buf *md)
{
    if (ctx->logits_src)
        sl_io_buf_printf(md, " --logits %s", ctx->logits_src);
    if (ctx->n != SL_REPORT_DEFAULT_N)
        sl_io_buf_printf(md, " --n %zu", ctx->n);
    if (ctx->seed != SL_REPORT_DEFAULT_SEED)
        sl_io_buf_printf(md, " --seed %llu", (unsigned long long)ctx->seed);
}

void sl_report_cmd_only(const sl_report_ctx *ctx, sl_buf *md, const char *id)
{
    sl_io_buf_printf(md, "    samplab report --only %s", id);
    options_md(ctx, md);
    sl_io_buf_puts(md, " --out DIR\n\n");
}

/* What runs of each section: its state, whether it is in this report, the
 * CPU time and the wall time of its jobs, each summed over them. */
typedef struct section_run {
    void *state;
    int on;
    double cpu, wall;
} section_run;

static void header_md(const sl_report_ctx *ctx, sl_buf *md, const char *only, const section_run *run)
{
    sl_io_buf_puts(md, "# samplab report\n\n");
    sl_io_buf_puts(md, "What the draw methods, random sources and framework emulations of samplab do to\n"
                    "a probability vector, measured. Every table and figure below is remade,\n"
                    "byte for byte, by the command in this header; each section names the command\n"
                    "that remakes it alone. Figures: PNG and SVG in `figures/`, each with the `.dat`\n"
                    "and `.gp` that made it.\n\n");
    sl_io_buf_puts(md, "```\n");
    sl_io_buf_printf(md, "samplab version     %s\n", SL_VERSION);
    sl_io_buf_puts(md, "command             samplab report");
    options_md(ctx, md);
    if (only)
        sl_io_buf_printf(md, " --only %s", only);
    if (!ctx->logits_src && ctx->n == SL_REPORT_DEFAULT_N && ctx->seed == SL_REPORT_DEFAULT_SEED && !only)
        sl_io_buf_puts(md, "   (make report)");
    sl_io_buf_puts(md, "\ngenerators          ");
    for (size_t i = 0; sl_report_rng_names[i]; i++)
        sl_io_buf_printf(md, "%s%s", i ? ", " : "", sl_report_rng_names[i]);
    sl_io_buf_puts(md, "\nmethods             ");
    for (size_t i = 0; sl_report_method_names[i]; i++)
        sl_io_buf_printf(md, "%s%s", i ? ", " : "", sl_report_method_names[i]);
    sl_io_buf_puts(md, "\nframeworks          ");
    if (!sl_fw_types[0])
        sl_io_buf_puts(md, "(none in this build)");
    for (size_t i = 0; sl_fw_types[i]; i++)
        sl_io_buf_printf(md, "%s%s", i ? ", " : "", sl_fw_types[i]->name);
    /* the upstream release each emulation follows here (its default line) */
    for (size_t i = 0; sl_fw_types[i]; i++) {
        const sl_fw_type *t = sl_fw_types[i];
        sl_io_buf_printf(md, "\n%-19s %-12s %s", i ? "" : "versions", t->name,
                         t->variants ? t->variants[0].version : t->version);
    }
    sl_io_buf_printf(md, "\ntorch CPU kernel    %s (fixed, so the report is the same on every machine; "
                         "`--cpu` elsewhere)", sl_logits_cpu_name(SL_REPORT_CPU));
    sl_io_buf_printf(md, "\nN                   %zu draws per cell (exceptions stated in the tables)\n", ctx->n);
    sl_io_buf_printf(md, "base seed           %llu (cell i of a table uses seed %llu + i; seeds listed per row)\n",
                  (unsigned long long)ctx->seed, (unsigned long long)ctx->seed);
    sl_io_buf_printf(md, "null quantiles      simulated: %zu multinomial samples per (vector, N) (300 when\n"
                      "                    V > 4096), sl_stat_tv_null_sim over %s seeded from the\n"
                      "                    vector's name, N and the base seed\n",
                  ctx->null_reps, SL_STAT_SIM_RNG);
    sl_io_buf_puts(md, "vocabularies        ");
    const sl_report_dist *ds[3] = {&ctx->weather, &ctx->ties, &ctx->big};
    for (int i = 0; i < 3; i++)
        sl_io_buf_printf(md, "%s%s (V = %zu): %s\n", i ? "                    " : "", ds[i]->name, ds[i]->V,
                      ds[i]->desc);
    sl_io_buf_puts(md, "p-value flags       '!' marks p < 0.001 or p > 0.999 (both tails, as TestU01)\n");
    sl_io_buf_puts(md, "```\n\n");
    sl_io_buf_puts(md, "Contents:\n\n");
    for (size_t i = 0, k = 0; sl_report_sections[i]; i++)
        if (run[i].on)
            sl_io_buf_printf(md, "%zu. [%s](#%s)\n", ++k, sl_report_sections[i]->title, sl_report_sections[i]->id);
    sl_io_buf_puts(md, "\n");
}

/* A full run owns figures/: files of figures it no longer makes go, so the
 * committed directory never shows a stale figure. */
static void prune_figures(const sl_report_ctx *ctx)
{
    DIR *dir = opendir(ctx->figdir);
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        const char *dot = strrchr(e->d_name, '.');
        if (!dot || (strcmp(dot, ".dat") && strcmp(dot, ".gp") && strcmp(dot, ".png") && strcmp(dot, ".svg")))
            continue;
        size_t stem = (size_t)(dot - e->d_name);
        int keep = 0;
        for (size_t i = 0; i < ctx->nfigs && !keep; i++)
            keep = strlen(ctx->figs[i]) == stem && !strncmp(ctx->figs[i], e->d_name, stem);
        for (size_t i = 0; i < ctx->nkeep && !keep; i++) {
            size_t kl = strlen(ctx->keep[i]);
            if (kl && ctx->keep[i][kl - 1] == '*') /* a prefix */
                keep = !strncmp(ctx->keep[i], e->d_name, kl - 1);
            else
                keep = kl == stem && !strncmp(ctx->keep[i], e->d_name, stem);
        }
        if (!keep) {
            char stale[8400];
            snprintf(stale, sizeof stale, "%s/%s", ctx->figdir, e->d_name);
            remove(stale);
        }
    }
    if (dir)
        closedir(dir);
}

int sl_report_write(const sl_report_ctx *ctx, const char *name, const sl_buf *b, sl_error *err)
{
    if (b->oom)
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", ctx->outdir, name);
    return sl_io_write_atomic(path, b->data ? b->data : "", b->len, err);
}

static void timings_md(sl_buf *tm, int threads, const section_run *run, size_t nsec, double t_studies,
                       double t_total)
{
    sl_io_buf_printf(tm, "# samplab report timings (seconds; not reproducible, kept out of REPORT.md)\n");
    sl_io_buf_printf(tm, "# per section: the CPU time of the threads that ran its jobs, and their wall\n"
                         "# times summed (more than the CPU time when the jobs waited for a core)\n");
    sl_io_buf_printf(tm, "threads\t%d\n", threads);
    for (size_t i = 0; i < nsec; i++)
        if (run[i].on)
            sl_io_buf_printf(tm, "section %s (cpu; jobs' wall summed)\t%.3f\t%.3f\n", sl_report_sections[i]->id,
                             run[i].cpu, run[i].wall);
    sl_io_buf_printf(tm, "studies + markdown (wall)\t%.3f\n", t_studies);
    sl_io_buf_printf(tm, "figures (wall)\t%.3f\n", t_total - t_studies);
    sl_io_buf_printf(tm, "total (wall)\t%.3f\n", t_total);
    sl_io_buf_printf(tm, "this process (cpu, user + sys)\t%.3f\n", rusage_cpu(RUSAGE_SELF));
    sl_io_buf_printf(tm, "gnuplot (cpu, user + sys)\t%.3f\n", rusage_cpu(RUSAGE_CHILDREN));
}

static void ctx_free(sl_report_ctx *ctx)
{
    for (size_t i = 0; i < ctx->nfigs; i++)
        free(ctx->figs[i]);
    free(ctx->figs);
    for (size_t i = 0; i < ctx->nkeep; i++)
        free(ctx->keep[i]);
    free(ctx->keep);
    free(ctx->jobs);
    for (size_t i = 0; i < ctx->nnulls; i++)
        free(ctx->nulls[i]);
    free(ctx->nulls);
    sl_report_vocab_close(ctx);
}

int sl_report_run(const sl_report_opts *o, sl_report_result *res, sl_error *err)
{
    double t_start = now();
    memset(res, 0, sizeof *res);
    if (!o->outdir)
        return sl_base_error_set(err, SL_EINVAL, "report: no output directory");
    if (o->n < 100 || o->n > 100000000)
        return sl_base_error_set(err, SL_EINVAL, "report: n must be between 100 and 100000000, not %zu", o->n);
    int rc = sl_report_only_check(o->only, err);
    if (rc)
        return rc;
    sl_io_outdir out;
    sl_io_lock lock = {.fd = -1};
    if ((rc = sl_io_outdir_init(&out, o->outdir, o->staging, (long)getpid(), err)) ||
        (!o->locked && (rc = sl_io_outdir_lock(&lock, out.target, err))))
        return rc;
    if ((rc = check_target(out.target, err))) {
        sl_io_outdir_unlock(&lock);
        return rc;
    }
    sl_report_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.n = o->n;
    ctx.seed = o->seed;
    ctx.outdir = out.staging;
    ctx.logits_src = o->logits ? (o->logits_replay ? o->logits_replay : o->logits) : NULL;
    /* a quick run (tests) needs no precise null tails */
    ctx.null_reps = o->n < SL_REPORT_DEFAULT_N ? 200 : 1000;
#ifdef _OPENMP
    int threads = o->jobs ? (int)o->jobs : omp_get_max_threads();
#else
    int threads = 1;
#endif
    size_t nsec = 0;
    while (sl_report_sections[nsec])
        nsec++;
    section_run *run = calloc(nsec, sizeof *run);
    size_t emitted = 0; /* sections [0, emitted) are released */
    sl_buf md, tm;
    sl_io_buf_init(&md);
    sl_io_buf_init(&tm);
    if (!run) {
        sl_io_outdir_unlock(&lock);
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    }
    /* the old set's files, linked in, so a partial run (--only) keeps the rest */
    static const char *const keep[] = {"", "figures", "inputs", NULL};
    if ((rc = sl_report_vocab_open(&ctx, o, err)) || (rc = sl_io_outdir_begin(&out, keep, err)))
        goto out;
    snprintf(ctx.figdir, sizeof ctx.figdir, "%s/figures", ctx.outdir);
    if ((rc = sl_io_mkdir_p(ctx.figdir, err)) || (rc = sl_report_inputs_write(&ctx, err)))
        goto out;

    /* Plan every section, run all jobs, then emit in order. */
    for (size_t i = 0; i < nsec; i++) {
        if (!wanted(o->only, sl_report_sections[i]->id))
            continue;
        ctx.cur_section = (int)i;
        if ((rc = sl_report_sections[i]->plan(&ctx, &run[i].state, err)))
            goto out;
        run[i].on = run[i].state != NULL;
    }
    size_t done = 0;
    for (int phase = 0; phase < 2 && !rc; phase++)
        rc = run_jobs(&ctx, o, threads, phase, &done, err);
    if (o->progress)
        o->progress(o->progress_user, SL_REPORT_EV_STUDIES_END, done, ctx.njobs);
    if (rc)
        goto out;
    for (size_t i = 0; i < ctx.njobs; i++) {
        run[ctx.jobs[i].section].cpu += ctx.jobs[i].cpu;
        run[ctx.jobs[i].section].wall += ctx.jobs[i].seconds;
        if (ctx.jobs[i].rc && !rc) {
            rc = ctx.jobs[i].rc;
            *err = ctx.jobs[i].err;
        }
    }
    if (rc)
        goto out;

    header_md(&ctx, &md, o->only, run);
    for (size_t k = 0; emitted < nsec; emitted++) {
        size_t i = emitted;
        if (!run[i].on)
            continue;
        sl_io_buf_printf(&md, "<a id=\"%s\"></a>\n\n## %zu. %s\n\n", sl_report_sections[i]->id, ++k,
                         sl_report_sections[i]->title);
        rc = sl_report_sections[i]->emit(&ctx, run[i].state, &md, err);
        sl_report_sections[i]->release(run[i].state);
        run[i].state = NULL;
        if (rc)
            goto out;
    }
    if ((rc = sl_report_write(&ctx, "REPORT.md", &md, err)))
        goto out;
    double t_studies = now() - t_start;
    if (!o->no_plot) {
        if (o->progress)
            o->progress(o->progress_user, SL_REPORT_EV_RENDER, 0, ctx.nfigs);
        if ((rc = sl_io_plot_render(ctx.figdir, (const char *const *)ctx.figs, ctx.nfigs, err)))
            goto out;
    }
    if (!o->only)
        prune_figures(&ctx);
    double t_total = now() - t_start;
    timings_md(&tm, threads, run, nsec, t_studies, t_total);
    if ((rc = sl_report_write(&ctx, "timings.txt", &tm, err)))
        goto out;
    if ((rc = sl_io_outdir_commit(&out, err)))
        goto out;
    res->nfigs = ctx.nfigs;
    res->seconds = t_total;
out:
    sl_io_outdir_discard(&out);
    sl_io_outdir_unlock(&lock);
    for (size_t i = emitted; i < nsec; i++)
        if (run[i].state)
            sl_report_sections[i]->release(run[i].state);
    free(run);
    sl_io_buf_free(&md);
    sl_io_buf_free(&tm);
    ctx_free(&ctx);
    return rc;
}
