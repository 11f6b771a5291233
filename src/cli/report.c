/* report.c — `samplab report [--out DIR] [--logits SRC] [--n N] [--seed S]
 * [--jobs J] [--only IDS] [--no-plot]`: runs the studies and writes
 * DIR/REPORT.md and DIR/figures/NAME.{dat,gp,png,svg}.
 *
 * Reproducible by construction: every study owns its generator, seeded from
 * the base seed and its cell number, and writes into its own slot; the
 * Markdown is assembled afterwards in a fixed order. So the same build and
 * seeds give a byte-identical REPORT.md and .dat files whatever the number
 * of threads. Nothing time- or machine-dependent goes into them: wall-clock
 * timings go to DIR/timings.txt. The header follows TestU01's bbattery.c
 * habit (version, generators, methods, N, seeds, the command), without the
 * date that would break byte equality. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/sl_cli.h"
#include "report/sl_report.h"

#define REP_DEFAULT_N 100000
#define REP_DEFAULT_SEED 42
#define REP_ZIPF_V 49152
#define REP_ZIPF_FILE "data/synthetic_49152.txt"

static const sl_report_section *const sl_report_sections[] = {
    &sl_report_section_agree, &sl_report_section_cost, &sl_report_section_seed, &sl_report_section_ties,
    &sl_report_section_compare, &sl_report_section_evidence, &sl_report_section_exact, NULL};

static double sl_report_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sl_report_add_job(sl_report_ctx *ctx, int phase, double cost, sl_report_job_fn fn, void *arg)
{
    if (ctx->njobs == ctx->capjobs) {
        size_t cap = ctx->capjobs ? 2 * ctx->capjobs : 64;
        sl_report_job *j = realloc(ctx->jobs, cap * sizeof *j);
        if (!j)
            return SL_ENOMEM;
        ctx->jobs = j;
        ctx->capjobs = cap;
    }
    sl_report_job *j = &ctx->jobs[ctx->njobs++];
    memset(j, 0, sizeof *j);
    j->fn = fn;
    j->arg = arg;
    j->cost = cost;
    j->phase = phase;
    j->section = ctx->cur_section;
    return 0;
}

int sl_report_keep(sl_report_ctx *ctx, const char *stem, sl_error *err)
{
    if (ctx->nkeep == ctx->capkeep) {
        size_t cap = ctx->capkeep ? 2 * ctx->capkeep : 16;
        char **k = realloc(ctx->keep, cap * sizeof *k);
        if (!k)
            return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
        ctx->keep = k;
        ctx->capkeep = cap;
    }
    if (!(ctx->keep[ctx->nkeep] = strdup(stem)))
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    ctx->nkeep++;
    return 0;
}

int sl_report_plot(sl_report_ctx *ctx, const sl_plot *p, sl_error *err)
{
    int rc = sl_io_plot_write(ctx->figdir, p, err);
    if (rc)
        return rc;
    if (ctx->nfigs == ctx->capfigs) {
        size_t cap = ctx->capfigs ? 2 * ctx->capfigs : 16;
        char **f = realloc(ctx->figs, cap * sizeof *f);
        if (!f)
            return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
        ctx->figs = f;
        ctx->capfigs = cap;
    }
    ctx->figs[ctx->nfigs] = strdup(p->name);
    if (!ctx->figs[ctx->nfigs])
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    ctx->nfigs++;
    return 0;
}

static int sl_report_null_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    (void)ctx;
    sl_report_null_slot *z = arg;
    return sl_report_tv_null(z->d->p, z->d->V, z->n, z->reps, z->seed, &z->q, err);
}

const sl_report_null *sl_report_null_want(sl_report_ctx *ctx, const sl_report_dist *d, size_t n, sl_error *err)
{
    for (size_t i = 0; i < ctx->nnulls; i++)
        if (ctx->nulls[i]->d == d && ctx->nulls[i]->n == n)
            return &ctx->nulls[i]->q;
    if (ctx->nnulls == ctx->capnulls) {
        size_t cap = ctx->capnulls ? 2 * ctx->capnulls : 16;
        sl_report_null_slot **z = realloc(ctx->nulls, cap * sizeof *z);
        if (!z)
            goto oom;
        ctx->nulls = z;
        ctx->capnulls = cap;
    }
    sl_report_null_slot *z = calloc(1, sizeof *z);
    if (!z)
        goto oom;
    z->d = d;
    z->n = n;
    z->reps = d->V > 4096 && ctx->null_reps > 300 ? 300 : ctx->null_reps;
    /* The seed depends on the case only, not on which sections run. */
    uint64_t h = 1469598103934665603u;
    for (const char *c = d->name; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211u;
    z->seed = (unsigned long)((h ^ (uint64_t)n ^ ctx->seed) & 0xFFFFFFFFu);
    ctx->nulls[ctx->nnulls++] = z;
    if (sl_report_add_job(ctx, 0, (double)z->reps * ((double)d->V * 20.0 + 1000.0), sl_report_null_run, z))
        goto oom;
    return &z->q;
oom:
    sl_base_error_set(err, SL_ENOMEM, "report: out of memory");
    return NULL;
}

/* Longest first, so the two cores finish together; ties keep queue order. */
static int job_order_cmp(const void *a, const void *b)
{
    const sl_report_job *const *x = a, *const *y = b;
    if ((*x)->cost != (*y)->cost)
        return (*x)->cost < (*y)->cost ? 1 : -1;
    return (*x < *y) ? -1 : (*x > *y);
}

static int sl_report_run_jobs(sl_report_ctx *ctx, int phase, size_t *done, size_t total, int progress)
{
    size_t n = 0;
    for (size_t i = 0; i < ctx->njobs; i++)
        n += ctx->jobs[i].phase == phase;
    if (!n)
        return 0;
    sl_report_job **order = malloc(n * sizeof *order);
    if (!order)
        return SL_ENOMEM;
    n = 0;
    for (size_t i = 0; i < ctx->njobs; i++)
        if (ctx->jobs[i].phase == phase)
            order[n++] = &ctx->jobs[i];
    qsort(order, n, sizeof *order, job_order_cmp);
    long nn = (long)n;
#pragma omp parallel for schedule(dynamic, 1)
    for (long i = 0; i < nn; i++) {
        sl_report_job *j = order[i];
        double t0 = sl_report_now();
        j->rc = j->fn(ctx, j->arg, &j->err);
        j->seconds = sl_report_now() - t0;
#pragma omp critical(sl_report_progress)
        {
            (*done)++;
            if (progress)
                fprintf(stderr, "\rsamplab report: %zu/%zu studies done", *done, total);
        }
    }
    free(order);
    return 0;
}

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
            "                 of the synthetic Zipf-like V = %d one (" REP_ZIPF_FILE ")\n"
            "  --tensor NAME  the tensor of a .safetensors SRC (needed when it holds several)\n"
            "  --row R        row R (from 0) of a 2-D or larger tensor\n"
            "  --n N          draws per cell (default %d)\n"
            "  --seed S       base seed (default %d); cell i uses S + i\n"
            "  --jobs J       threads (default: all cores); results do not depend on it\n"
            "  --only IDS     comma-separated sections:",
            REP_ZIPF_V, REP_DEFAULT_N, REP_DEFAULT_SEED);
    for (size_t i = 0; sl_report_sections[i]; i++)
        fprintf(f, " %s", sl_report_sections[i]->id);
    fprintf(f, "\n  --no-plot      write the .dat and .gp files but do not run gnuplot\n");
}

static int sl_report_dist_from_logits(sl_report_dist *d, const char *name, const char *desc, const double *x,
                                size_t V, sl_error *err)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    snprintf(d->desc, sizeof d->desc, "%s", desc);
    d->V = V;
    int rc = sl_base_vec_alloc(&d->lvec, V, name, err);
    if (rc)
        return rc;
    d->logits = d->lvec.d;
    if ((rc = sl_base_vec_alloc(&d->pvec, V, name, err)))
        return rc;
    d->p = d->pvec.d;
    for (size_t i = 0; i < V; i++) {
        d->lvec.d[i] = x[i];
        d->lvec.f[i] = (float)x[i];
    }
    rc = sl_logits_softmax(d->logits, V, 1.0, d->p, err);
    for (size_t i = 0; !rc && i < V; i++)
        d->pvec.f[i] = (float)d->p[i];
    return rc;
}

int sl_report_fw_run(const sl_fw_type *fw, const sl_report_dist *d, uint64_t seed, size_t n, long top_k,
               sl_fw_result *res, sl_error *err)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    memset(res, 0, sizeof *res);
    if (fw->accepts & SL_OPT_LOGITS)
        o.logits = &d->lvec;
    else
        o.probs = &d->pvec;
    o.seed.lo = seed;
    o.has_seed = 1;
    o.n = n;
    o.k = 1;
    o.replacement = 0; /* as `samplab draw` and torch.multinomial default */
    o.cfg.cpu = SL_REPORT_CPU;
    if (top_k > 0) {
        o.cfg.has_top_k = 1;
        o.cfg.top_k = top_k;
    }
    /* Sampling at T = 1 said out loud: candle's LogitsProcessor without a
     * temperature is ArgMax, which draws nothing. */
    if (fw->accepts & SL_OPT_TEMPERATURE) {
        o.cfg.has_temperature = 1;
        o.cfg.temperature = 1.0;
    }
    return sl_fw_run(fw, &o, res, err);
}

void sl_report_cmd_only(const sl_report_ctx *ctx, sl_buf *md, const char *id)
{
    sl_io_buf_printf(md, "    samplab report --only %s", id);
    if (ctx->logits_src)
        sl_io_buf_printf(md, " --logits %s", ctx->logits_src);
    if (ctx->n != REP_DEFAULT_N)
        sl_io_buf_printf(md, " --n %zu", ctx->n);
    if (ctx->seed != REP_DEFAULT_SEED)
        sl_io_buf_printf(md, " --seed %llu", (unsigned long long)ctx->seed);
    sl_io_buf_puts(md, " --out DIR\n\n");
}

int sl_report_dist_zipf(sl_report_dist *d, size_t V, sl_error *err)
{
    double *x = malloc(V * sizeof *x);
    if (!x)
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory for the zipf vector");
    for (size_t i = 0; i < V; i++)
        x[i] = -1.1 * log((double)(i + 1));
    char name[64], desc[256];
    snprintf(name, sizeof name, "zipf%zu", V);
    snprintf(desc, sizeof desc, "synthetic Zipf-like vocabulary, V = %zu, logit_i = -1.1 ln(i+1)", V);
    int rc = sl_report_dist_from_logits(d, name, desc, x, V, err);
    free(x);
    return rc;
}

void sl_report_dist_free(sl_report_dist *d)
{
    sl_base_vec_free(&d->lvec);
    sl_base_vec_free(&d->pvec);
    memset(d, 0, sizeof *d);
}

static int sl_report_wanted(const char *only, const char *id)
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

static void sl_report_header(const sl_report_ctx *ctx, sl_buf *md, const char *only, const void *const *state)
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
    if (ctx->logits_src)
        sl_io_buf_printf(md, " --logits %s", ctx->logits_src);
    if (ctx->n != REP_DEFAULT_N)
        sl_io_buf_printf(md, " --n %zu", ctx->n);
    if (ctx->seed != REP_DEFAULT_SEED)
        sl_io_buf_printf(md, " --seed %llu", (unsigned long long)ctx->seed);
    if (only)
        sl_io_buf_printf(md, " --only %s", only);
    if (!ctx->logits_src && ctx->n == REP_DEFAULT_N && ctx->seed == REP_DEFAULT_SEED && !only)
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
        if (state[i])
            sl_io_buf_printf(md, "%zu. [%s](#%s)\n", ++k, sl_report_sections[i]->title, sl_report_sections[i]->id);
    sl_io_buf_puts(md, "\n");
}

int sl_cli_report_main(int argc, char **argv)
{
    const char *cmd = "report";
    sl_report_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.n = REP_DEFAULT_N;
    ctx.seed = REP_DEFAULT_SEED;
    ctx.outdir = "reports";
    ctx.null_reps = 1000;
    const char *only = NULL, *logits_path = NULL, *tensor = NULL;
    long row = -1;
    char logits_arg[4096];
    sl_cli_parsed po;
    int st = sl_cli_parse(cmd, argc, argv, report_help, &po);
    if (st >= 0)
        return st;
    const sl_cli_arg *pa = po.a;
    ctx.no_plot = pa[SL_CLI_NO_PLOT].given;
    if (pa[SL_CLI_OUT].given)
        ctx.outdir = pa[SL_CLI_OUT].text;
    logits_path = pa[SL_CLI_LOGITS].text;
    tensor = pa[SL_CLI_TENSOR].text;
    if (pa[SL_CLI_ROW].given)
        row = pa[SL_CLI_ROW].l;
    only = pa[SL_CLI_ONLY].text;
    if (pa[SL_CLI_N].given)
        ctx.n = pa[SL_CLI_N].size;
    if (pa[SL_CLI_SEED].given) {
        sl_seed s;
        sl_error e;
        if (sl_base_seed_parse(pa[SL_CLI_SEED].text, &s, &e) || s.hi || s.lo > UINT64_MAX - 100000) {
            fprintf(stderr, "samplab report: --seed must be an integer below 2^64 - 100000\n");
            return 2;
        }
        ctx.seed = s.lo;
    }
    if (ctx.n < 100 || ctx.n > 100000000) {
        fprintf(stderr, "samplab report: --n must be between 100 and 100000000\n");
        return 2;
    }
    if ((tensor || row >= 0) && !logits_path) {
        fprintf(stderr, "samplab report: --tensor and --row choose inside a --logits file; give --logits SRC\n");
        return 2;
    }
    if (logits_path) {
        /* What the replay commands pass after --logits: the path, then the tensor and row. */
        int len = snprintf(logits_arg, sizeof logits_arg, "%s", logits_path);
        if (tensor && len >= 0 && (size_t)len < sizeof logits_arg)
            len += snprintf(logits_arg + len, sizeof logits_arg - (size_t)len, " --tensor %s", tensor);
        if (row >= 0 && len >= 0 && (size_t)len < sizeof logits_arg)
            len += snprintf(logits_arg + len, sizeof logits_arg - (size_t)len, " --row %ld", row);
        if (len < 0 || (size_t)len >= sizeof logits_arg) {
            fprintf(stderr, "samplab report: --logits path too long\n");
            return 2;
        }
        ctx.logits_src = logits_arg;
    }
    if (only)
        for (const char *p = only; *p;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            int ok = 0;
            for (size_t k = 0; sl_report_sections[k]; k++)
                ok |= strlen(sl_report_sections[k]->id) == len && !strncmp(sl_report_sections[k]->id, p, len);
            if (!ok) {
                char id[256], esc[SL_CLI_ESC_MAX];
                snprintf(id, sizeof id, "%.*s", (int)len, p);
                fprintf(stderr, "samplab report: --only: unknown section '%s' (samplab report --help lists them)\n",
                        sl_cli_esc(id, esc, sizeof esc));
                return 2;
            }
            p += len + (e != NULL);
        }
#ifdef _OPENMP
    if (pa[SL_CLI_JOBS].size)
        omp_set_num_threads((int)pa[SL_CLI_JOBS].size);
#endif
    if (ctx.n < REP_DEFAULT_N)
        ctx.null_reps = 200; /* a quick run (tests) needs no precise null tails */

    double t_start = sl_report_now();
    sl_error err;
    int rc = 0;
    static const double weather[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
    static const double ties[4] = {3, 2, 2, 1};
    if ((rc = sl_report_dist_from_logits(&ctx.weather, "weather",
                                   "logits 4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2 (the weather example)",
                                   weather, 8, &err)) ||
        (rc = sl_report_dist_from_logits(&ctx.ties, "ties", "logits 3, 2, 2, 1 (a tie at the 2nd place)", ties,
                                   4, &err)))
        return sl_cli_fail(&err);
    if (logits_path) {
        sl_vec v;
        if (sl_io_vec_read(logits_path, tensor, row, &v, &err))
            return sl_cli_fail(&err);
        char desc[4096 + 64];
        snprintf(desc, sizeof desc, "logits read from %s", ctx.logits_src);
        rc = sl_report_dist_from_logits(&ctx.big, "logits", desc, v.d, v.n, &err);
        sl_base_vec_free(&v);
        if (rc) {
            /* the softmax's message names the entry; add the file, as draw does */
            fprintf(stderr, "samplab: %s: %s\n", logits_path, err.msg);
            return 2;
        }
        ctx.main = &ctx.big;
    } else {
        /* The committed synthetic vocabulary (analysis/make_synthetic_vocab.py);
         * outside the source tree, the same kind of vector made in code. */
        sl_vec v;
        if (!sl_io_vec_read(REP_ZIPF_FILE, NULL, -1, &v, &err)) {
            rc = sl_report_dist_from_logits(&ctx.big, "synthetic49152",
                                      REP_ZIPF_FILE ": Zipf-like, logit of rank r = -1.1 ln r + U(-0.25, 0.25), "
                                      "ranks randomly permuted (analysis/make_synthetic_vocab.py)",
                                      v.d, v.n, &err);
            sl_base_vec_free(&v);
            if (rc)
                return sl_cli_fail(&err);
        } else if (sl_report_dist_zipf(&ctx.big, REP_ZIPF_V, &err))
            return sl_cli_fail(&err);
        ctx.main = &ctx.weather;
    }

    snprintf(ctx.figdir, sizeof ctx.figdir, "%s/figures", ctx.outdir);
    if (sl_io_mkdir_p(ctx.figdir, &err))
        return sl_cli_fail(&err);

    /* The probabilities the framework sections hand to frameworks that take
     * --probs, written at round-trip precision so a replay is exact. */
    {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/inputs", ctx.outdir);
        if (sl_io_mkdir_p(dir, &err))
            return sl_cli_fail(&err);
        const sl_report_dist *w[2] = {ctx.main, &ctx.ties};
        for (int k = 0; k < 2; k++) {
            sl_buf b;
            sl_io_buf_init(&b);
            sl_io_buf_printf(&b, "# softmax of %s (%s), %%.17g; written by samplab report\n", w[k]->name, w[k]->desc);
            for (size_t i = 0; i < w[k]->V; i++)
                sl_io_buf_printf(&b, "%.17g\n", w[k]->p[i]);
            char path[4300];
            snprintf(path, sizeof path, "%s/%s_probs.txt", dir, w[k]->name);
            rc = b.oom ? sl_base_error_set(&err, SL_ENOMEM, "report: out of memory") : sl_io_write_atomic(path, b.data, b.len, &err);
            sl_io_buf_free(&b);
            if (rc)
                return sl_cli_fail(&err);
        }
    }

    /* Plan every section, run all jobs, then emit in order. */
    size_t nsec = 0;
    while (sl_report_sections[nsec])
        nsec++;
    void **state = calloc(nsec, sizeof *state);
    double *secs = calloc(nsec, sizeof *secs);
    if (!state || !secs)
        return 2;
    for (size_t i = 0; i < nsec; i++) {
        if (!sl_report_wanted(only, sl_report_sections[i]->id))
            continue;
        ctx.cur_section = (int)i;
        if ((rc = sl_report_sections[i]->plan(&ctx, &state[i], &err)))
            return sl_cli_fail(&err);
    }
    int progress = isatty(2);
    size_t done = 0;
    for (int phase = 0; phase < 2; phase++)
        if (sl_report_run_jobs(&ctx, phase, &done, ctx.njobs, progress)) {
            fprintf(stderr, "samplab report: out of memory\n");
            return 2;
        }
    if (progress)
        fprintf(stderr, "\n");
    for (size_t i = 0; i < ctx.njobs; i++) {
        secs[ctx.jobs[i].section] += ctx.jobs[i].seconds;
        if (ctx.jobs[i].rc && !rc) {
            rc = ctx.jobs[i].rc;
            err = ctx.jobs[i].err;
        }
    }
    if (rc)
        return sl_cli_fail(&err);

    sl_buf md;
    sl_io_buf_init(&md);
    sl_report_header(&ctx, &md, only, (const void *const *)state);
    for (size_t i = 0, k = 0; i < nsec; i++) {
        if (!state[i])
            continue;
        sl_io_buf_printf(&md, "<a id=\"%s\"></a>\n\n## %zu. %s\n\n", sl_report_sections[i]->id, ++k,
                      sl_report_sections[i]->title);
        if ((rc = sl_report_sections[i]->emit(&ctx, state[i], &md, &err)))
            return sl_cli_fail(&err);
        sl_report_sections[i]->release(state[i]);
    }
    if (md.oom) {
        fprintf(stderr, "samplab report: out of memory\n");
        return 2;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/REPORT.md", ctx.outdir);
    if (sl_io_write_atomic(path, md.data, md.len, &err))
        return sl_cli_fail(&err);
    double t_studies = sl_report_now() - t_start;
    if (!ctx.no_plot) {
        if (progress)
            fprintf(stderr, "samplab report: rendering %zu figures with gnuplot\n", ctx.nfigs);
        if (sl_io_plot_render(ctx.figdir, (const char *const *)ctx.figs, ctx.nfigs, &err))
            return sl_cli_fail(&err);
    }
    /* A full run owns figures/: files of figures it no longer makes go, so
     * the committed directory never shows a stale figure. */
    if (!only) {
        DIR *dir = opendir(ctx.figdir);
        struct dirent *e;
        while (dir && (e = readdir(dir))) {
            const char *dot = strrchr(e->d_name, '.');
            if (!dot || (strcmp(dot, ".dat") && strcmp(dot, ".gp") && strcmp(dot, ".png") && strcmp(dot, ".svg")))
                continue;
            size_t stem = (size_t)(dot - e->d_name);
            int keep = 0;
            for (size_t i = 0; i < ctx.nfigs && !keep; i++)
                keep = strlen(ctx.figs[i]) == stem && !strncmp(ctx.figs[i], e->d_name, stem);
            for (size_t i = 0; i < ctx.nkeep && !keep; i++) {
                size_t kl = strlen(ctx.keep[i]);
                if (kl && ctx.keep[i][kl - 1] == '*') /* a prefix */
                    keep = !strncmp(ctx.keep[i], e->d_name, kl - 1);
                else
                    keep = kl == stem && !strncmp(ctx.keep[i], e->d_name, stem);
            }
            if (!keep) {
                char stale[8400];
                snprintf(stale, sizeof stale, "%s/%s", ctx.figdir, e->d_name);
                remove(stale);
            }
        }
        if (dir)
            closedir(dir);
    }
    double t_total = sl_report_now() - t_start;

    sl_buf tm;
    sl_io_buf_init(&tm);
    sl_io_buf_printf(&tm, "# samplab report timings (seconds; not reproducible, kept out of REPORT.md)\n");
#ifdef _OPENMP
    sl_io_buf_printf(&tm, "threads\t%d\n", omp_get_max_threads());
#else
    sl_io_buf_printf(&tm, "threads\t1\n");
#endif
    for (size_t i = 0; i < nsec; i++)
        if (state[i])
            sl_io_buf_printf(&tm, "section %s (cpu)\t%.3f\n", sl_report_sections[i]->id, secs[i]);
    sl_io_buf_printf(&tm, "studies + markdown (wall)\t%.3f\n", t_studies);
    sl_io_buf_printf(&tm, "figures (wall)\t%.3f\n", t_total - t_studies);
    sl_io_buf_printf(&tm, "total (wall)\t%.3f\n", t_total);
    snprintf(path, sizeof path, "%s/timings.txt", ctx.outdir);
    if (sl_io_write_atomic(path, tm.data ? tm.data : "", tm.len, &err))
        return sl_cli_fail(&err);
    printf("samplab report: wrote %s/REPORT.md and %zu figures in %s (%.1f s)\n", ctx.outdir, ctx.nfigs,
           ctx.figdir, t_total);
    sl_io_buf_free(&tm);
    sl_io_buf_free(&md);
    for (size_t i = 0; i < ctx.nfigs; i++)
        free(ctx.figs[i]);
    free(ctx.figs);
    for (size_t i = 0; i < ctx.nkeep; i++)
        free(ctx.keep[i]);
    free(ctx.keep);
    free(ctx.jobs);
    for (size_t i = 0; i < ctx.nnulls; i++)
        free(ctx.nulls[i]);
    free(ctx.nulls);
    free(state);
    free(secs);
    sl_report_dist_free(&ctx.weather);
    sl_report_dist_free(&ctx.ties);
    sl_report_dist_free(&ctx.big);
    return 0;
}
