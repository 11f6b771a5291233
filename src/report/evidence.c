/* evidence.c — section "How much evidence is enough": (a) TV of a
 * correct and of a faulty sampler against N on log-log axes, inside TV's
 * simulated null band; (b) power curves — the probability that chi-square,
 * G and TV detect a fault of a given size at N draws, at alpha = 0.01 —
 * estimated from multinomial samples (GSL mt19937, fixed seeds); (c) the
 * histogram of chi-square p-values of a correct sampler over 1,000 seeds,
 * which must be flat. The fault moves mass delta from the most likely token
 * to the second, so its TV distance from p is exactly delta. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "report/sl_report.h"

#define EV_NN 13
#define EV_NDELTA 17
#define EV_SEEDS 1000
#define EV_SEED_JOBS 10
#define EV_HBINS 20
#define EV_ALPHA 0.01

static const double ev_N[EV_NN] = {1e2, 2e2, 5e2, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6};

typedef struct ev_state ev_state;

typedef struct ev_power_job {
    ev_state *s;
    size_t i;
} ev_power_job;

typedef struct ev_seed_job {
    ev_state *s;
    size_t j;
} ev_seed_job;

struct ev_state {
    size_t V, a, b;        /* the fault moves mass from token a to token b */
    double *pf;            /* the faulty distribution */
    double fault;          /* delta of the TV-vs-N figure */
    const sl_report_null *null[EV_NN + 1]; /* ev_N, then the power N */
    double tv_ok[EV_NN], tv_bad[EV_NN];
    size_t power_n, power_reps;
    double delta[EV_NDELTA];
    double pow_chi[EV_NDELTA], pow_g[EV_NDELTA], pow_tv[EV_NDELTA];
    ev_power_job pj[EV_NDELTA];
    double pvals[EV_SEEDS];
    double gvals[EV_SEEDS];
    ev_seed_job sj[EV_SEED_JOBS];
    size_t seed_n;
};

/* TV of the running counts at each checkpoint N, for a sampler drawing from
 * q (correct: q = p; faulty: q = pf) and judged against p. */
static int ev_tv_path(const sl_report_ctx *ctx, const double *q, uint64_t seed, double *out, sl_error *err)
{
    const sl_report_dist *d = ctx->main;
    const sl_draw_type *m = sl_draw_lookup("alias");
    if (!m)
        return sl_base_error_set(err, SL_EINVAL, "report: draw method alias missing");
    sl_rng r;
    int rc = sl_report_rng_open(&r, "pcg32", seed, err);
    if (rc)
        return rc;
    void *table = NULL;
    uint64_t *c = calloc(d->V, sizeof *c);
    if (!c || (rc = sl_draw_prepare(m, &table, q, d->V, err))) {
        free(c);
        sl_rng_release(&r);
        return rc ? rc : sl_base_error_set(err, SL_ENOMEM, "evidence: out of memory");
    }
    size_t drawn = 0;
    for (size_t k = 0; k < EV_NN; k++) {
        for (; drawn < (size_t)ev_N[k]; drawn++)
            c[m->draw(table, &r)]++;
        out[k] = sl_report_tv(d->p, c, d->V, drawn);
    }
    m->free(table);
    free(c);
    sl_rng_release(&r);
    return 0;
}

static int ev_path_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    ev_state *s = arg;
    int rc = ev_tv_path(ctx, ctx->main->p, ctx->seed, s->tv_ok, err);
    if (!rc)
        rc = ev_tv_path(ctx, s->pf, ctx->seed + 1, s->tv_bad, err);
    return rc;
}

static int ev_power_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    ev_power_job *j = arg;
    ev_state *s = j->s;
    size_t V = s->V;
    double *q = malloc(V * sizeof *q);
    unsigned *c = malloc(V * sizeof *c);
    uint64_t *c64 = malloc(V * sizeof *c64);
    sl_base_gsl_quiet();
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!q || !c || !c64 || !g) {
        free(q);
        free(c);
        free(c64);
        gsl_rng_free(g);
        return sl_base_error_set(err, SL_ENOMEM, "evidence: out of memory for the power study over %zu tokens", V);
    }
    sl_stat_cells cells;
    int rc = sl_stat_cells_build(&cells, ctx->main->p, V, s->power_n, 5.0, err);
    if (rc) {
        free(q);
        free(c);
        free(c64);
        gsl_rng_free(g);
        return rc;
    }
    gsl_rng_set(g, (unsigned long)(ctx->seed + 3000 + j->i));
    memcpy(q, ctx->main->p, V * sizeof *q);
    q[s->a] -= s->delta[j->i];
    q[s->b] += s->delta[j->i];
    size_t hit_chi = 0, hit_g = 0, hit_tv = 0;
    double q99 = s->null[EV_NN]->q99;
    for (size_t r = 0; r < s->power_reps; r++) {
        gsl_ran_multinomial(g, V, (unsigned)s->power_n, q, c);
        for (size_t i = 0; i < V; i++)
            c64[i] = c[i];
        sl_report_gof gof;
        rc = sl_report_gof_with_cells(&cells, ctx->main->p, c64, V, s->power_n, &gof, err);
        if (rc) {
            sl_stat_cells_free(&cells);
            free(q);
            free(c);
            free(c64);
            gsl_rng_free(g);
            return rc;
        }
        hit_chi += gof.chi2_p < EV_ALPHA;
        hit_g += gof.g_p < EV_ALPHA;
        hit_tv += gof.tv > q99;
    }
    s->pow_chi[j->i] = (double)hit_chi / (double)s->power_reps;
    s->pow_g[j->i] = (double)hit_g / (double)s->power_reps;
    s->pow_tv[j->i] = (double)hit_tv / (double)s->power_reps;
    sl_stat_cells_free(&cells);
    free(q);
    free(c);
    free(c64);
    gsl_rng_free(g);
    return 0;
}

static int ev_seed_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    ev_seed_job *j = arg;
    ev_state *s = j->s;
    const sl_report_dist *d = ctx->main;
    uint64_t *c = calloc(d->V, sizeof *c);
    if (!c)
        return sl_base_error_set(err, SL_ENOMEM, "evidence: out of memory");
    size_t per = EV_SEEDS / EV_SEED_JOBS;
    sl_stat_cells cells;
    int rc = sl_stat_cells_build(&cells, d->p, d->V, s->seed_n, 5.0, err);
    if (rc) {
        free(c);
        return rc;
    }
    for (size_t k = j->j * per; k < (j->j + 1) * per && !rc; k++) {
        uint64_t w;
        rc = sl_report_draw_counts(d, "alias", "pcg32", ctx->seed + 10000 + k, s->seed_n, c, &w, err);
        if (rc)
            break;
        sl_report_gof gof;
        if ((rc = sl_report_gof_with_cells(&cells, d->p, c, d->V, s->seed_n, &gof, err)))
            break;
        s->pvals[k] = gof.chi2_p;
        s->gvals[k] = gof.g_p;
    }
    sl_stat_cells_free(&cells);
    free(c);
    return rc;
}

static void ev_release(void *state);

static int ev_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    const sl_report_dist *d = ctx->main;
    if (d->V < 2)
        return sl_base_error_set(err, SL_EINVAL, "report: the vector needs at least 2 tokens");
    ev_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "evidence: out of memory");
    s->V = d->V;
    /* a = most likely token, b = second (first index on ties). */
    s->a = 0;
    for (size_t i = 1; i < d->V; i++)
        if (d->p[i] > d->p[s->a])
            s->a = i;
    s->b = s->a == 0 ? 1 : 0;
    for (size_t i = 0; i < d->V; i++)
        if (i != s->a && d->p[i] > d->p[s->b])
            s->b = i;
    s->power_n = ctx->n;
    /* Each power sample costs O(V): 400 per point on small vectors, 100 on large. */
    s->power_reps = ctx->n < 100000 || d->V > 4096 ? 100 : 400;
    s->seed_n = ctx->n;
    /* Fault sizes: up to 6 standard errors of the moved mass at N, or twice
     * the size at which chi-square's noncentrality N d^2 (1/p_a + 1/p_b)
     * reaches (z_0.99 + z_0.9) sqrt(2 df) (~90%% power with many bins),
     * whichever is larger. */
    double pa = d->p[s->a], pb = d->p[s->b];
    sl_stat_cells c0;
    int rc = sl_stat_cells_build(&c0, d->p, d->V, s->power_n, 5.0, err);
    if (rc) {
        ev_release(s);
        return rc;
    }
    double df0 = c0.ncells > 1 ? (double)(c0.ncells - 1) : 1.0;
    sl_stat_cells_free(&c0);
    double dmax = 6.0 * sqrt((pa + pb) / (double)s->power_n);
    double dchi = 2.0 * sqrt(3.6 * sqrt(2.0 * df0) / ((double)s->power_n * (1.0 / pa + 1.0 / pb)));
    if (dchi > dmax)
        dmax = dchi;
    if (dmax > d->p[s->a])
        dmax = d->p[s->a];
    for (size_t i = 0; i < EV_NDELTA; i++)
        s->delta[i] = dmax * (double)i / (EV_NDELTA - 1);
    s->fault = 0.005 < d->p[s->a] / 2 ? 0.005 : d->p[s->a] / 2;
    s->pf = malloc(d->V * sizeof *s->pf);
    if (!s->pf) {
        ev_release(s);
        return sl_base_error_set(err, SL_ENOMEM, "evidence: out of memory");
    }
    memcpy(s->pf, d->p, d->V * sizeof *s->pf);
    s->pf[s->a] -= s->fault;
    s->pf[s->b] += s->fault;
    for (size_t i = 0; i <= EV_NN && !rc; i++)
        rc = sl_report_null_want(ctx, d, i < EV_NN ? (size_t)ev_N[i] : s->power_n, &s->null[i], err);
    if (!rc)
        rc = sl_report_add_job(ctx, 1, 2e6 * 20.0, ev_path_run, s, err);
    for (size_t i = 0; i < EV_NDELTA && !rc; i++) {
        s->pj[i].s = s;
        s->pj[i].i = i;
        rc = sl_report_add_job(ctx, 1, (double)s->power_reps * (double)d->V * 20.0, ev_power_run, &s->pj[i], err);
    }
    for (size_t j = 0; j < EV_SEED_JOBS && !rc; j++) {
        s->sj[j].s = s;
        s->sj[j].j = j;
        rc = sl_report_add_job(ctx, 1, (double)(EV_SEEDS / EV_SEED_JOBS) * (double)s->seed_n * 10.0, ev_seed_run,
                               &s->sj[j], err);
    }
    if (rc) {
        ev_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

/* Smallest fault size with estimated power >= 0.9, linearly interpolated. */
static double ev_detect90(const ev_state *s, const double *pw)
{
    for (size_t i = 1; i < EV_NDELTA; i++)
        if (pw[i] >= 0.9) {
            double t = (0.9 - pw[i - 1]) / (pw[i] - pw[i - 1]);
            return s->delta[i - 1] + t * (s->delta[i] - s->delta[i - 1]);
        }
    return NAN;
}

static int ev_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    ev_state *s = state;
    const sl_report_dist *d = ctx->main;
    int rc;
    sl_io_buf_printf(md,
                  "On vector `%s` (V = %zu). A *fault* moves mass delta from token %zu (p = %.4f) to\n"
                  "token %zu (p = %.4f): an off-by-one in the table, say. Its TV distance from p is\n"
                  "exactly delta. Null quantiles are simulated (see the header).\n\n",
                  d->name, d->V, s->a, d->p[s->a], s->b, d->p[s->b]);

    /* (a) TV against N */
    sl_io_buf_printf(md, "**TV against N.** A correct sampler (alias over pcg32, seed %llu) and one with a\n"
                      "fault of delta = %.4g (seed %llu); the band is TV's null 1%%-99%% range.\n\n",
                  (unsigned long long)ctx->seed, s->fault, (unsigned long long)ctx->seed + 1);
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 6);
    for (size_t k = 0; k < EV_NN; k++) {
        sl_io_md_rows_cell(&t, "%.0f", ev_N[k]);
        sl_io_md_rows_cell(&t, "%.5f", s->null[k]->q01);
        sl_io_md_rows_cell(&t, "%.5f", s->null[k]->q50);
        sl_io_md_rows_cell(&t, "%.5f", s->null[k]->q99);
        sl_io_md_rows_cell(&t, "%.5f%s", s->tv_ok[k], s->tv_ok[k] > s->null[k]->q99 ? " !" : "");
        sl_io_md_rows_cell(&t, "%.5f%s", s->tv_bad[k], s->tv_bad[k] > s->null[k]->q99 ? " !" : "");
    }
    char hb[64];
    snprintf(hb, sizeof hb, "TV, fault %.4g", s->fault);
    const char *h1[6] = {"N", "null q01", "null median", "null q99", "TV, correct", hb};
    sl_io_md_rows_emit(md, &t, h1, "rrrrrr");
    sl_io_md_rows_free(&t);
    size_t first = EV_NN;
    for (size_t k = 0; k < EV_NN; k++)
        if (s->tv_bad[k] > s->null[k]->q99) {
            int all = 1;
            for (size_t m = k; m < EV_NN; m++)
                all &= s->tv_bad[m] > s->null[m]->q99;
            if (all) {
                first = k;
                break;
            }
        }
    if (first < EV_NN)
        sl_io_buf_printf(md, "\nThe faulty sampler leaves the band for good at N = %.0f ('!' = above null q99).\n\n",
                      ev_N[first]);
    else
        sl_io_buf_printf(md, "\nThe faulty sampler stays inside the band up to N = 10^6 on this vector.\n\n");
    sl_buf dat;
    sl_io_buf_init(&dat);
    sl_io_buf_puts(&dat, "# N null_q01 null_median null_q99 tv_correct tv_faulty\n");
    for (size_t k = 0; k < EV_NN; k++)
        sl_io_buf_printf(&dat, "%.0f %.17g %.17g %.17g %.17g %.17g\n", ev_N[k], s->null[k]->q01, s->null[k]->q50,
                      s->null[k]->q99, s->tv_ok[k], s->tv_bad[k]);
    char body[1024], ttl[128];
    snprintf(body, sizeof body,
             "plot @DAT@ using 1:2:4 with filledcurves lc rgb '#c6dbef' title 'null 1%%-99%% band', \\\n"
             "  @DAT@ using 1:3 with lines lc rgb '#2171b5' dt 2 lw 1.5 title 'null median', \\\n"
             "  @DAT@ using 1:5 with linespoints pt 7 ps 1.2 lc rgb '#238b45' lw 2 title 'correct sampler', \\\n"
             "  @DAT@ using 1:6 with linespoints pt 5 ps 1.2 lc rgb '#cb181d' lw 2 title 'fault delta = %.4g', \\\n"
             "  %.17g with lines lc rgb '#cb181d' dt 3 title 'delta (the fault itself)'\n",
             s->fault, s->fault);
    snprintf(ttl, sizeof ttl, "TV distance against the number of draws (%s, V = %zu)", d->name, d->V);
    sl_plot p1 = {.name = "evidence_tv_vs_n", .title = ttl, .xlabel = "draws N",
                  .ylabel = "total variation distance from p", .logx = 1, .logy = 1,
                  .key = "bottom left box opaque", .body = body, .dat = dat.data, .oom = dat.oom};
    rc = sl_report_plot(ctx, &p1, err);
    sl_io_buf_free(&dat);
    if (rc)
        return rc;
    {
        char cap[400];
        if (first < EV_NN)
            snprintf(cap, sizeof cap,
                     "The shaded band is where a correct sampler's TV falls 98 %% of the time at each N: the "
                     "correct sampler (dots) stays in it, the faulty one (squares) leaves it for good at "
                     "N = %.0f and then levels off at its fault, the dotted line.", ev_N[first]);
        else
            snprintf(cap, sizeof cap,
                     "The shaded band is where a correct sampler's TV falls 98 %% of the time at each N: here "
                     "the faulty sampler (squares) stays in it up to N = 10^6, too small a fault for these N.");
        sl_report_figure_md(md, "evidence_tv_vs_n", "TV against N", cap);
        sl_io_buf_puts(md, "\n");
    }

    /* (b) power */
    double d90[3] = {ev_detect90(s, s->pow_chi), ev_detect90(s, s->pow_g), ev_detect90(s, s->pow_tv)};
    char f90[3][48];
    for (int k = 0; k < 3; k++) {
        if (isnan(d90[k]))
            snprintf(f90[k], sizeof f90[k], "not reached by %.5f", s->delta[EV_NDELTA - 1]);
        else
            snprintf(f90[k], sizeof f90[k], "%.5f", d90[k]);
    }
    sl_io_buf_printf(md,
                  "**Power at N = %zu.** Probability of rejecting p (alpha = %.2f; TV rejects above its\n"
                  "null q99 = %.5f) against the fault size, %zu multinomial samples per point. Smallest\n"
                  "fault detected with 90%% power: chi-square %s, G %s, TV %s. At delta = 0 (no\n"
                  "fault) they reject %.3f, %.3f and %.3f of the samples, against the nominal %.2f.\n\n",
                  s->power_n, EV_ALPHA, s->null[EV_NN]->q99, s->power_reps, f90[0], f90[1], f90[2],
                  s->pow_chi[0], s->pow_g[0], s->pow_tv[0], EV_ALPHA);
    sl_io_md_rows_init(&t, 4);
    for (size_t i = 0; i < EV_NDELTA; i++) {
        sl_io_md_rows_cell(&t, "%.5f", s->delta[i]);
        sl_io_md_rows_cell(&t, "%.3f", s->pow_chi[i]);
        sl_io_md_rows_cell(&t, "%.3f", s->pow_g[i]);
        sl_io_md_rows_cell(&t, "%.3f", s->pow_tv[i]);
    }
    static const char *const h2[4] = {"fault delta (= TV)", "chi-square", "G", "TV"};
    sl_io_md_rows_emit(md, &t, h2, "rrrr");
    sl_io_md_rows_free(&t);
    sl_io_buf_init(&dat);
    sl_io_buf_puts(&dat, "# delta power_chisq power_g power_tv\n");
    for (size_t i = 0; i < EV_NDELTA; i++)
        sl_io_buf_printf(&dat, "%.17g %.17g %.17g %.17g\n", s->delta[i], s->pow_chi[i], s->pow_g[i], s->pow_tv[i]);
    snprintf(body, sizeof body,
             "plot @DAT@ using 1:2 with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'chi-square', \\\n"
             "  @DAT@ using 1:3 with linespoints pt 5 lw 2 dt 2 lc rgb '#ff7f0e' title 'G-test', \\\n"
             "  @DAT@ using 1:4 with linespoints pt 9 lw 2 lc rgb '#2ca02c' title 'TV > null q99', \\\n"
             "  %g with lines lc rgb '#888888' dt 3 title 'alpha = %g', \\\n"
             "  0.9 with lines lc rgb '#444444' dt 4 title '90%% power'\n",
             EV_ALPHA, EV_ALPHA);
    snprintf(ttl, sizeof ttl, "Power against fault size, N = %zu draws (%s)", s->power_n, d->name);
    sl_plot p2 = {.name = "evidence_power", .title = ttl, .xlabel = "fault size delta (TV distance from p)",
                  .ylabel = "probability of detection", .key = "bottom right box opaque",
                  .extra = "set yrange [0:1.05]\nset xrange [0:*]\n", .body = body, .dat = dat.data, .oom = dat.oom};
    rc = sl_report_plot(ctx, &p2, err);
    sl_io_buf_free(&dat);
    if (rc)
        return rc;
    {
        char cap[400];
        snprintf(cap, sizeof cap,
                 "Read each curve where it crosses the 90 %% line: the fault size N = %zu draws find nine times "
                 "in ten (chi-square %s, G %s, TV %s); at delta = 0 the curves give the false alarm rate, "
                 "which should be near alpha.", s->power_n, f90[0], f90[1], f90[2]);
        sl_io_buf_puts(md, "\n");
        sl_report_figure_md(md, "evidence_power", "power curves", cap);
        sl_io_buf_puts(md, "\n");
    }

    /* (c) p-value histogram */
    size_t hist[EV_HBINS] = {0}, ghist[EV_HBINS] = {0}, below = 0;
    for (size_t k = 0; k < EV_SEEDS; k++) {
        size_t b = (size_t)(s->pvals[k] * EV_HBINS), g = (size_t)(s->gvals[k] * EV_HBINS);
        hist[b < EV_HBINS ? b : EV_HBINS - 1]++;
        ghist[g < EV_HBINS ? g : EV_HBINS - 1]++;
        below += s->pvals[k] < EV_ALPHA;
    }
    double e = (double)EV_SEEDS / EV_HBINS, x2 = 0.0;
    for (size_t b = 0; b < EV_HBINS; b++)
        x2 += ((double)hist[b] - e) * ((double)hist[b] - e) / e;
    double px2;
    if ((rc = sl_stat_chisq_q(x2, EV_HBINS - 1, &px2, err)))
        return rc;
    char pb[32], pk[32];
    double ks_d = 0.0, ks_p = 1.0;
    if ((rc = sl_stat_ks_uniform(s->pvals, EV_SEEDS, &ks_d, &ks_p, err)))
        return rc;
    sl_io_buf_printf(md,
                  "**p-values over %d seeds.** The chi-square p-value of a correct sampler (alias over\n"
                  "pcg32, seeds %llu to %llu, N = %zu each) is uniform on [0, 1]: %zu of %d fall below\n"
                  "%.2f (expected %.0f); the %d-bin histogram's own chi-square is %.2f on %d df,\n"
                  "p = %s; the Kolmogorov-Smirnov test against uniform (as `samplab calibrate`) gives\n"
                  "D = %.4f, p = %s.\n\n",
                  EV_SEEDS, (unsigned long long)ctx->seed + 10000, (unsigned long long)ctx->seed + 10000 + EV_SEEDS - 1,
                  s->seed_n, below, EV_SEEDS, EV_ALPHA, EV_ALPHA * EV_SEEDS, EV_HBINS, x2, EV_HBINS - 1,
                  sl_report_fmt_p(pb, sizeof pb, px2), ks_d, sl_report_fmt_p(pk, sizeof pk, ks_p));
    sl_io_buf_init(&dat);
    sl_io_buf_puts(&dat, "# bin_lo bin_hi chisq_count g_count expected\n");
    for (size_t b = 0; b < EV_HBINS; b++)
        sl_io_buf_printf(&dat, "%.2f %.2f %zu %zu %.1f\n", (double)b / EV_HBINS, (double)(b + 1) / EV_HBINS, hist[b],
                      ghist[b], e);
    snprintf(body, sizeof body,
             "plot @DAT@ using (($1+$2)/2):3 with boxes fs solid 0.6 lc rgb '#6baed6' title 'chi-square p-values', \\\n"
             "  @DAT@ using (($1+$2)/2):4 with histeps lw 2 lc rgb '#e6550d' title 'G-test p-values', \\\n"
             "  %.1f with lines lw 2 dt 2 lc rgb '#333333' title 'expected (uniform)'\n", e);
    snprintf(ttl, sizeof ttl, "p-values of a correct sampler over %d seeds, N = %zu", EV_SEEDS, s->seed_n);
    sl_plot p3 = {.name = "evidence_pvalues", .title = ttl, .xlabel = "p-value",
                  .ylabel = "seeds per bin (of 1,000)", .key = "top right box opaque",
                  .extra = "set boxwidth 0.045\nset xrange [0:1]\nset yrange [0:*]\nset offsets 0,0,graph 0.25,0\n",
                  .body = body, .dat = dat.data, .oom = dat.oom};
    rc = sl_report_plot(ctx, &p3, err);
    sl_io_buf_free(&dat);
    if (rc)
        return rc;
    {
        char cap[400];
        snprintf(cap, sizeof cap,
                 "A correct sampler's p-values are uniform: every bar near the dashed line at %.0f seeds per "
                 "bin, none piled up near 0 (false alarms) or near 1 (a sampler too regular to be random).", e);
        sl_report_figure_md(md, "evidence_pvalues", "p-value histogram", cap);
    }
    sl_io_buf_puts(md, "\nRemake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "evidence");
    return 0;
}

static void ev_release(void *state)
{
    ev_state *s = state;
    free(s->pf);
    free(s);
}

const sl_report_section sl_report_section_evidence = {"evidence", "How much evidence is enough", ev_plan, ev_emit, ev_release};
