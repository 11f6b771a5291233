/* agree.c — section "The draw methods agree in distribution": every
 * draw method (exprace, cdf, linear, alias) with every generator (pcg32,
 * mt19937, gsl:taus2) draws N tokens from each embedded vector; Pearson's
 * chi-square and the G-test (pooled bins, GSL p-values) and TV against its
 * simulated null 99th percentile judge the counts. Different methods turn
 * the same words into different tokens, but all must realise p. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

/* The exponential race visits all V tokens per draw and the linear scan on
 * average sum (i+1) p_i: where that exceeds 10,000 per draw they get a budget
 * of 10,000 N token visits per cell (10^9 at N = 100,000), rounded down to
 * hundreds of draws, at least 100. At V = 49,152 a race draw costs about
 * 0.15 ms (0.5 ms through gsl:taus2; `samplab bench`) and a scan 0.05 ms, so
 * the six capped cells take about 20 s of CPU at the default N, spread over
 * both cores. */
#define RACE_VISITS_PER_DRAW 10000.0

typedef struct agree_cell {
    const sl_report_dist *d;
    const char *method, *rng;
    uint64_t seed;
    size_t n;
    uint64_t *counts;
    uint64_t words;
    sl_report_gof gof;
    const sl_report_null *null;
} agree_cell;

typedef struct agree_state {
    agree_cell *cells;
    size_t ncells;
    size_t n_race;
} agree_state;

/* Token visits per draw: V for the race, the mean scan length for linear. */
static double agree_visits(const sl_report_dist *d, const char *method)
{
    if (!strcmp(method, "exprace"))
        return (double)d->V;
    if (!strcmp(method, "linear")) {
        double m = 0.0;
        for (size_t i = 0; i < d->V; i++)
            m += (double)(i + 1) * d->p[i];
        return m;
    }
    return 1.0;
}

static size_t agree_n(const sl_report_ctx *ctx, const sl_report_dist *d, const char *method)
{
    double budget = RACE_VISITS_PER_DRAW * (double)ctx->n, v = agree_visits(d, method);
    if (v * (double)ctx->n <= budget)
        return ctx->n;
    size_t n = (size_t)(budget / v);
    n = n / 100 * 100;
    return n < 100 ? 100 : n > ctx->n ? ctx->n : n;
}

static int agree_cell_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    (void)ctx;
    agree_cell *c = arg;
    c->counts = calloc(c->d->V, sizeof *c->counts);
    if (!c->counts)
        return sl_base_error_set(err, SL_ENOMEM, "agree: out of memory");
    int rc = sl_report_draw_counts(c->d, c->method, c->rng, c->seed, c->n, c->counts, &c->words, err);
    if (!rc)
        rc = sl_report_gof_compute(c->d->p, c->counts, c->d->V, c->n, &c->gof, err);
    return rc;
}

static void agree_release(void *state);

static int agree_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    agree_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "agree: out of memory");
    const sl_report_dist *ds[3] = {&ctx->weather, &ctx->ties, &ctx->big};
    int rc = 0;
    size_t nm = 0, nr = 0;
    while (sl_report_method_names[nm])
        nm++;
    while (sl_report_rng_names[nr])
        nr++;
    s->ncells = 3 * nm * nr;
    s->cells = calloc(s->ncells, sizeof *s->cells);
    if (!s->cells) {
        agree_release(s);
        return sl_base_error_set(err, SL_ENOMEM, "agree: out of memory");
    }
    size_t c = 0;
    for (int di = 0; di < 3 && !rc; di++)
        for (size_t mi = 0; mi < nm && !rc; mi++)
            for (size_t ri = 0; ri < nr && !rc; ri++, c++) {
                agree_cell *x = &s->cells[c];
                x->d = ds[di];
                x->method = sl_report_method_names[mi];
                x->rng = sl_report_rng_names[ri];
                x->seed = ctx->seed + c;
                x->n = agree_n(ctx, ds[di], x->method);
                double cost = (double)x->n * (agree_visits(x->d, x->method) + log2((double)x->d->V));
                if (!(rc = sl_report_add_job(ctx, 1, cost, agree_cell_run, x, err)))
                    rc = sl_report_null_want(ctx, x->d, x->n, &x->null, err);
            }
    if (rc) {
        agree_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

/* Log-spaced rank bins (ranks 1, 2-3, 4-7, ... by decreasing p) for large
 * vocabularies, so the figure shows the whole range without 49,152 points
 * per cell; small vocabularies get one point per token. order[] lists the
 * token ids by rank. */
static size_t agree_bins(size_t V, size_t *lo, size_t *hi, size_t max)
{
    size_t nb = 0;
    if (V <= 64) {
        for (size_t i = 0; i < V && nb < max; i++, nb++)
            lo[nb] = i, hi[nb] = i + 1;
        return nb;
    }
    for (size_t a = 0; a < V && nb < max; nb++) {
        size_t b = a ? 2 * a + 1 : 1;
        if (b > V)
            b = V;
        lo[nb] = a;
        hi[nb] = b;
        a = b;
    }
    return nb;
}

/* Token ids by decreasing p (ties by id); identity for small V. */
static int agree_order(const sl_report_dist *d, size_t **order, sl_error *err)
{
    if (d->V > 64)
        return sl_report_rank_order(d->p, d->V, order, err);
    size_t *o = malloc(d->V * sizeof *o);
    if (!o)
        return sl_base_error_set(err, SL_ENOMEM, "agree: out of memory");
    for (size_t i = 0; i < d->V; i++)
        o[i] = i;
    *order = o;
    return 0;
}

static int agree_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    agree_state *s = state;
    size_t flagged = 0;
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 13);
    for (size_t i = 0; i < s->ncells; i++) {
        const agree_cell *c = &s->cells[i];
        const sl_report_null *z = c->null;
        char p1[32], p2[32];
        int bad = c->gof.chi2_p < 0.001 || c->gof.chi2_p > 0.999 || c->gof.g_p < 0.001 || c->gof.g_p > 0.999 ||
                  c->gof.tv > z->q99 || c->gof.outside;
        flagged += bad;
        sl_io_md_rows_cell(&t, "%s", c->d->name);
        sl_io_md_rows_cell(&t, "%s", c->method);
        sl_io_md_rows_cell(&t, "%s", c->rng);
        sl_io_md_rows_cell(&t, "%llu", (unsigned long long)c->seed);
        sl_io_md_rows_cell(&t, "%zu", c->n);
        sl_io_md_rows_cell(&t, "%zu", c->gof.df);
        sl_io_md_rows_cell(&t, "%.2f", c->gof.chi2);
        sl_io_md_rows_cell(&t, "%s", sl_report_fmt_p(p1, sizeof p1, c->gof.chi2_p));
        sl_io_md_rows_cell(&t, "%.2f", c->gof.g);
        sl_io_md_rows_cell(&t, "%s", sl_report_fmt_p(p2, sizeof p2, c->gof.g_p));
        sl_io_md_rows_cell(&t, "%.5f", c->gof.tv);
        sl_io_md_rows_cell(&t, "%.5f", z->q99);
        sl_io_md_rows_cell(&t, "%s", bad ? "FLAG" : "ok");
    }
    sl_io_buf_printf(md,
                  "Each draw method turns the generator's words into tokens its own way, so the same\n"
                  "seed gives different tokens; what must agree is the distribution. Every method draws\n"
                  "with every generator from each vector (cell i uses seed %llu + i). Pearson's\n"
                  "chi-square and the G-test use the cells of `samplab gof` (" SL_STAT_POOL_RULE
                  "; df = cells - 1); TV = 1/2 sum |c_i/N - p_i| is compared with the 99th\n"
                  "percentile of its own null distribution for that vector and N (simulated, see the\n"
                  "header). The exponential race visits all V tokens per draw and the linear scan\n"
                  "%.0f on average here, so on the V = %zu vector they draw %zu and %zu tokens per\n"
                  "cell instead of %zu (a budget of 10,000 N token visits).\n\n",
                  (unsigned long long)ctx->seed, agree_visits(&ctx->big, "linear"), ctx->big.V,
                  agree_n(ctx, &ctx->big, "exprace"), agree_n(ctx, &ctx->big, "linear"), ctx->n);
    static const char *const head[13] = {"vector", "method", "generator", "seed", "N", "df", "X²", "p",
                                         "G", "p", "TV", "TV null q99", "verdict"};
    sl_io_md_rows_emit(md, &t, head, "lllrrrrrrrrrl");
    sl_io_md_rows_free(&t);
    sl_io_buf_printf(md,
                  "\n%zu of %zu cells flagged (a cell is flagged when a p-value falls outside [0.001, 0.999],\n"
                  "TV exceeds its null q99, or a draw lands on a zero-probability token). With three\n"
                  "checks per cell at these levels, about %.1f flags are expected by chance alone.\n"
                  "On the large vocabulary most pooled bins hold expected counts just above 5, where\n"
                  "the G statistic's chi-square approximation is known to run high (Larntz 1978):\n"
                  "its p-values lean low there while Pearson's and TV's do not.\n\n",
                  flagged, s->ncells, (double)s->ncells * (0.002 + 0.002 + 0.01));

    /* Figure: observed against expected frequency, log-log, one point per
     * token (or rank bin) per cell; and the same as standardised residuals. */
    sl_buf dat;
    sl_io_buf_init(&dat);
    sl_io_buf_puts(&dat, "# observed vs expected frequency per token (small V) or rank bin [lo, hi) of tokens\n"
                      "# sorted by decreasing p (large V)\n"
                      "# one gnuplot index block per method\n"
                      "# vector generator lo hi expected observed z\n");
    size_t lo[64], hi[64], nz = 0, nbins = 0;
    double emin = 1, zmax = 0;
    for (size_t mi = 0; sl_report_method_names[mi]; mi++) {
        sl_io_buf_printf(&dat, "# method %s\n", sl_report_method_names[mi]);
        for (size_t i = 0; i < s->ncells; i++) {
            const agree_cell *c = &s->cells[i];
            if (strcmp(c->method, sl_report_method_names[mi]))
                continue;
            size_t nb = agree_bins(c->d->V, lo, hi, 64);
            size_t *ord;
            int rc = agree_order(c->d, &ord, err);
            if (rc) {
                sl_io_buf_free(&dat);
                return rc;
            }
            for (size_t b = 0; b < nb; b++) {
                double e = 0.0, o = 0.0;
                for (size_t k = lo[b]; k < hi[b]; k++) {
                    e += c->d->p[ord[k]];
                    o += (double)c->counts[ord[k]];
                }
                o /= (double)c->n;
                double se = sqrt(e * (1.0 - e) / (double)c->n), z = se > 0 ? (o - e) / se : 0.0;
                emin = e > 0 && e < emin ? e : emin;
                zmax = fabs(z) > zmax ? fabs(z) : zmax;
                nz += fabs(z) > 3;
                nbins++;
                sl_io_buf_printf(&dat, "%s %s %zu %zu %.17g %.17g %.17g\n", c->d->name, c->rng, lo[b], hi[b], e, o,
                              se > 0 ? (o - e) / se : 0.0);
            }
            free(ord);
        }
        sl_io_buf_puts(&dat, "\n\n");
    }
    /* each method in its style (palette.c); the axes start at the decade of the smallest p shown */
    static const char *const ps[4] = {"1.6", "1.3", "1.1", "1.0"};
    char pt[4][96];
    for (size_t mi = 0; sl_report_method_names[mi] && mi < 4; mi++) {
        const sl_report_style *st = sl_report_style_of(sl_report_method_names[mi]);
        snprintf(pt[mi], sizeof pt[mi], "pt %d ps %s lc rgb '%s'", st->pt, ps[mi], st->rgb);
    }
    double axlo = pow(10, floor(log10(emin)));
    axlo *= emin < 1.5 * axlo ? 0.7 : 1; /* a dot on the decade's edge stays off the axis */
    char ext1[128], ext2[128];
    snprintf(ext1, sizeof ext1, "set size square\nset xrange [%g:1]\nset yrange [%g:1]\n", axlo, axlo);
    snprintf(ext2, sizeof ext2, "set xrange [%g:1]\nset yrange [-5:5]\n", axlo);
    sl_buf body;
    sl_io_buf_init(&body);
    sl_io_buf_puts(&body, "plot x with lines lc rgb '#888888' dt 2 title 'observed = expected'");
    for (size_t mi = 0; sl_report_method_names[mi] && mi < 4; mi++)
        sl_io_buf_printf(&body, ", \\\n  @DAT@ index %zu using 5:6 with points %s title '%s'", mi, pt[mi],
                      sl_report_method_names[mi]);
    sl_io_buf_puts(&body, "\n");
    sl_plot p = {
        .name = "agree_observed_expected",
        .title = "Observed against expected frequency (all vectors and generators)",
        .xlabel = "expected frequency p (probability per draw)",
        .ylabel = "observed frequency (draws / N)",
        .logx = 1, .logy = 1, .key = "top left box opaque",
        .extra = ext1,
        .body = body.data, .dat = dat.data, .oom = body.oom || dat.oom, .width = 800, .height = 760};
    int rc = sl_report_plot(ctx, &p, err);
    sl_io_buf_free(&body);
    sl_io_buf_init(&body);
    sl_io_buf_puts(&body, "plot 3 with lines lc rgb '#888888' dt 2 title '±3 standard errors', "
                       "-3 with lines lc rgb '#888888' dt 2 notitle");
    for (size_t mi = 0; sl_report_method_names[mi] && mi < 4; mi++)
        sl_io_buf_printf(&body, ", \\\n  @DAT@ index %zu using 5:7 with points %s title '%s'", mi, pt[mi],
                      sl_report_method_names[mi]);
    sl_io_buf_puts(&body, "\n");
    sl_plot p2 = {
        .name = "agree_residuals",
        .title = "Standardised residual of each token / rank bin",
        .xlabel = "expected frequency p (probability per draw)",
        .ylabel = "(observed - expected) / standard error",
        .logx = 1, .key = "bottom left box opaque horizontal",
        .extra = ext2,
        .body = body.data, .dat = dat.data, .oom = body.oom || dat.oom};
    if (!rc)
        rc = sl_report_plot(ctx, &p2, err);
    sl_io_buf_free(&body);
    sl_io_buf_free(&dat);
    if (rc)
        return rc;
    sl_report_figure_md(md, "agree_observed_expected", "observed against expected",
                        "Every dot is a token (or a bin of tokens ranked by p) for one method, generator and "
                        "vector: on the dashed diagonal the observed frequency is the expected one; the "
                        "methods' symbols overlap because they agree.");
    sl_io_buf_puts(md, "\n");
    char cap[320];
    snprintf(cap, sizeof cap,
             "The same dots as distances from the expectation in standard errors: a correct sampler keeps "
             "almost all of them between the dashed lines at ±3 (by chance about 0.3 %% fall outside; here "
             "%zu of %zu, the largest %.2f).", nz, nbins, zmax);
    sl_report_figure_md(md, "agree_residuals", "standardised residuals", cap);
    sl_io_buf_puts(md, "\n");
    sl_io_buf_printf(md, "Replay a row's counts: `samplab draw --method M --rng R --seed SEED --n N --logits SRC "
                      "--counts` with SRC = `%s`, `%s` or `%s`.\n\n",
                  ctx->weather.src, ctx->ties.src, ctx->big.src);
    sl_io_buf_puts(md, "Large vectors are shown in bins of tokens ranked by p: ranks [2^k, 2^(k+1)). Remake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "agree");
    return 0;
}

static void agree_release(void *state)
{
    agree_state *s = state;
    for (size_t i = 0; s->cells && i < s->ncells; i++)
        free(s->cells[i].counts);
    free(s->cells);
    free(s);
}

const sl_report_section sl_report_section_agree = {"agree", "The draw methods agree in distribution", agree_plan, agree_emit,
                                       agree_release};
