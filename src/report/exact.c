/* exact.c — section "The distribution a sampler really induces": the
 * exact audit (stats/exact*.c, `samplab exact`) counts, for each sampler and
 * its own arithmetic, how many of the 2^bits uniform values select each
 * token, so the induced probabilities are exact rationals rather than
 * estimates. sl_report_exact_data (exact_data.c) writes the data files into figures/; this
 * section turns them into tables (TV to the ideal softmax, tokens never
 * drawn, failure paths per 10^9 calls) and a tail figure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

typedef struct exact_state {
    int have_zipf;
} exact_state;

static int exact_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    exact_state *s = arg;
    return sl_report_exact_data(ctx->figdir, s->have_zipf ? SL_REPORT_ZIPF_PATH : NULL, err);
}

static int exact_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    exact_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "exact: out of memory");
    s->have_zipf = sl_report_zipf_present();
    /* Every exact_* file in figures/ is this section's (sl_report_exact_data's
     * own list of distributions may grow). */
    int rc = sl_report_add_job(ctx, 1, 1e9, exact_run, s, err);
    if (!rc)
        rc = sl_report_keep(ctx, "exact_*", err);
    if (rc) {
        free(s);
        return rc;
    }
    *state = s;
    return 0;
}

/* Reads figures/NAME into a new NUL-terminated string *txt (caller frees);
 * sl_io_file_slurp gives bytes, not a string. */
static int exact_slurp(const sl_report_ctx *ctx, const char *name, char **txt, sl_error *err)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", ctx->figdir, name);
    unsigned char *buf = NULL;
    size_t len = 0;
    *txt = NULL;
    int rc = sl_io_file_slurp(path, &buf, &len, err);
    if (rc)
        return rc;
    char *t = realloc(buf, len + 1);
    if (!t) {
        free(buf);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", path);
    }
    t[len] = '\0';
    *txt = t;
    return 0;
}

static size_t exact_split(char *line, char **f, size_t max)
{
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, "\t", &save); t && n < max; t = strtok_r(NULL, "\t", &save))
        f[n++] = t;
    return n;
}

/* The vectors of sl_report_exact_data in words, for titles and links. */
static const char *exact_words(const char *dist)
{
    static const char *const w[][2] = {
        {"weather", "the 8-token weather example"},
        {"ties", "softmax of [3, 2, 2, 1]"},
        {"weather_top3", "the weather example after top-k 3"},
        {"weather_top4", "the weather example after top-k 4"},
        {"zipf49152", "the synthetic 49,152-token vocabulary at T = 1"},
        {"zipf49152_t08", "the synthetic 49,152-token vocabulary at T = 0.8"}};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (!strcmp(w[i][0], dist))
            return w[i][1];
    return dist;
}

/* One vector's tail figure (exact_tail for the main one, else exact_tail_DIST),
 * a panel per sampler on the axes the data span; cap gets what to look at,
 * from the data: the samplers exact to 1e-6 everywhere shown, the largest
 * departure, the tokens never drawn (exact_summary.dat's count). */
static int exact_tail_figure(sl_report_ctx *ctx, const char *dist, int is_main, sl_buf *cap, sl_error *err)
{
    char name[96], stem[96];
    snprintf(name, sizeof name, "exact_tail_%s.dat", dist);
    snprintf(stem, sizeof stem, is_main ? "exact_tail" : "exact_tail_%s", dist);
    char *txt;
    int rc = exact_slurp(ctx, name, &txt, err);
    if (rc)
        return rc;
    char hdr[1024] = "";
    double xlo = INFINITY, xhi = 0, rmax[32], rmin[32];
    for (size_t k = 0; k < 32; k++)
        rmax[k] = -INFINITY, rmin[k] = INFINITY;
    char *save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "# rank", 6))
            snprintf(hdr, sizeof hdr, "%s", line + 2);
        if (line[0] == '#')
            continue;
        char *f[32];
        size_t n = exact_split(line, f, 32);
        if (n < 4)
            continue;
        double ideal = strtod(f[2], NULL);
        if (!(ideal > 0))
            continue;
        xlo = ideal < xlo ? ideal : xlo;
        xhi = ideal > xhi ? ideal : xhi;
        for (size_t k = 3; k < n; k++) {
            double r = strtod(f[k], NULL) / ideal;
            rmax[k] = r > rmax[k] ? r : rmax[k];
            rmin[k] = r < rmin[k] ? r : rmin[k];
        }
    }
    free(txt);
    char *f[32];
    size_t nf = exact_split(hdr, f, 32);
    if (nf < 4 || !(xhi > 0))
        return sl_base_error_set(err, SL_EINVAL, "figures/%s: no samplers or no tokens with p > 0", name);
    double ytop = 1.1;
    for (size_t k = 3; k < nf; k++)
        ytop = rmax[k] * 1.05 > ytop ? rmax[k] * 1.05 : ytop;
    size_t ns = nf - 3, cols = ns > 4 ? 4 : ns, rows = (ns + cols - 1) / cols;
    sl_buf body;
    sl_io_buf_init(&body);
    sl_io_buf_printf(&body,
                     "unset title\nset xrange [%g:%g]\nset yrange [-0.05:%.3g]\nset key off\n"
                     "set multiplot layout %zu,%zu title \"Exact induced over ideal probability of every token shown, "
                     "%s (%s)\" noenhanced\n",
                     pow(10, floor(log10(xlo))), pow(10, ceil(log10(xhi))), ytop, rows, cols, exact_words(dist), dist);
    sl_io_buf_printf(&body, "set xtics %g\nset mxtics 10\n", xhi / xlo > 1e5 ? 100.0 : 10.0);
    for (size_t k = 3; k < nf; k++) {
        size_t at = k - 3;
        /* axis titles on the outer panels only */
        sl_io_buf_puts(&body, at % cols ? "unset ylabel\n" : "set ylabel \"induced / ideal (0 = never drawn)\"\n");
        sl_io_buf_puts(&body, at / cols + 1 == rows ? "set xlabel \"ideal probability (float64 softmax)\"\n"
                                                    : "unset xlabel\n");
        sl_io_buf_printf(&body, "set title \"%s\" noenhanced\nplot 1 with lines lw 1.5 lc rgb '#000000' notitle, "
                                "'%s' using 3:(column(%zu) / $3) with points ps 0.8 ",
                         f[k], name, k + 1);
        sl_report_style_points(&body, f[k]);
        sl_io_buf_puts(&body, " notitle\n");
    }
    sl_io_buf_puts(&body, "unset multiplot\n");
    char title[160];
    snprintf(title, sizeof title, "Exact induced over ideal probability, %s", dist);
    /* the script reads the section's own data file (name), so no .dat goes with it */
    sl_plot p = {.name = stem, .title = title,
                 .xlabel = "ideal probability (float64 softmax)",
                 .ylabel = "induced / ideal (0 = never drawn)", .logx = 1,
                 .body = body.data, .dat = NULL, .oom = body.oom, .width = 1400, .height = rows > 1 ? 760 : 420};
    rc = sl_report_plot(ctx, &p, err);
    sl_io_buf_free(&body);
    if (rc)
        return rc;
    /* the caption, from the same numbers */
    sl_io_buf_printf(cap, "%s (%s), a panel per sampler, a dot per token shown: where the dots lie on the line at 1 "
                          "the sampler draws each token exactly as often as the softmax says",
                     exact_words(dist), dist);
    size_t nexact = 0;
    for (size_t k = 3; k < nf; k++)
        if (rmax[k] - 1 < 1e-6 && 1 - rmin[k] < 1e-6)
            sl_io_buf_printf(cap, "%s%s", nexact++ ? ", " : " (", f[k]);
    sl_io_buf_puts(cap, nexact ? " are, to 1e-6)." : ".");
    size_t worst = 3;
    double wd = 0;
    for (size_t k = 3; k < nf; k++) {
        double d = fmax(rmax[k] - 1, 1 - rmin[k]);
        if (d > wd)
            wd = d, worst = k;
    }
    if (wd >= 1e-6)
        sl_io_buf_printf(cap, " Farthest from it: %s, from %.3g to %.3g times the ideal probability.", f[worst],
                         rmin[worst], rmax[worst]);
    if ((rc = exact_slurp(ctx, "exact_summary.dat", &txt, err)))
        return rc;
    save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *g[8];
        if (line[0] == '#' || exact_split(line, g, 8) < 8 || strcmp(g[0], dist))
            continue;
        long never = strtol(g[4], NULL, 10);
        if (never > 0)
            sl_io_buf_printf(cap, " %s never draws %ld tokens of p > 0 (the dots at 0).", g[1], never);
    }
    free(txt);
    return 0;
}

static int exact_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    exact_state *s = state;
    sl_io_buf_puts(md, "A sampler does not draw from the softmax it is given but from what its own arithmetic\n"
                    "makes of it: a float32 cumulative sum, a 24- or 53-bit uniform, an alias table. The\n"
                    "exact audit (`samplab exact`) counts how many of the 2^bits uniform values select\n"
                    "each token, so every induced probability below is an exact rational, not an estimate\n"
                    "(the exponential race, whose outcome depends on V uniforms at once, gets a rigorous\n"
                    "bound instead). TV is between the induced distribution and the float64 softmax;\n"
                    "'never' counts tokens with p > 0 that no uniform value can select.\n\n");
    char *txt;
    int rc = exact_slurp(ctx, "exact_summary.dat", &txt, err);
    if (rc)
        return rc;
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 7);
    char *save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *f[8];
        if (exact_split(line, f, 8) < 8)
            continue;
        sl_io_md_rows_cell(&t, "%s", f[0]);
        sl_io_md_rows_cell(&t, "%s", f[1]);
        sl_io_md_rows_cell(&t, "%.3g%s", strtod(f[2], NULL), strcmp(f[3], "exact") ? " (bound)" : "");
        sl_io_md_rows_cell(&t, "%s", f[4]);
        sl_io_md_rows_cell(&t, "%s", f[5]);
        sl_io_md_rows_cell(&t, "%s", strcmp(f[6], "-1") ? f[6] : "-");
        sl_io_md_rows_cell(&t, "%s", strcmp(f[6], "-1") ? f[7] : "-");
    }
    free(txt);
    static const char *const h1[7] = {"vector", "sampler", "TV(induced, ideal)", "never", "p = 0 drawn",
                                      "worst token", "its relative error"};
    sl_io_md_rows_emit(md, &t, h1, "llrrrrr");
    sl_io_md_rows_free(&t);

    sl_io_buf_puts(md, "\n**Failure paths.** How often per call a sampler takes a path its authors did not\n"
                    "intend (a uniform of exactly 0, a search running past the end, the linear scan's\n"
                    "fallback), exactly or as a bound, and the chance 1 - (1 - P)^(10^9) that it happens at\n"
                    "least once in 10^9 calls:\n\n");
    if ((rc = exact_slurp(ctx, "exact_failures.dat", &txt, err)))
        return rc;
    sl_io_md_rows_init(&t, 7);
    save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *f[8];
        if (exact_split(line, f, 8) < 8)
            continue;
        sl_io_md_rows_cell(&t, "%s", f[0]);
        sl_io_md_rows_cell(&t, "%s", f[1]);
        sl_io_md_rows_cell(&t, "%s", f[2]);
        sl_io_md_rows_cell(&t, "%s%s", f[3], strcmp(f[5], "exact") ? " (bound)" : "");
        sl_io_md_rows_cell(&t, "%s%s", f[4], strcmp(f[5], "exact") ? " (bound)" : "");
        sl_io_md_rows_cell(&t, "%s", f[6]);
        sl_io_md_rows_cell(&t, "%s", strcmp(f[7], "-1") ? f[7] : "-");
    }
    free(txt);
    static const char *const h2[7] = {"vector", "sampler", "path", "P per call", "P(at least once in 10^9 calls)", "rational",
                                      "token"};
    sl_io_md_rows_emit(md, &t, h2, "lllrrrr");
    sl_io_md_rows_free(&t);

    /* Tail figures: induced / ideal against ideal, one panel per sampler so no
     * sampler hides under another; the tempered vocabulary (or the weather
     * example without it) shown, every other vector a figure of its own, linked. */
    const char *main_dist = sl_report_exact_tail_case(s->have_zipf);
    char dists[16][64];
    size_t nd = 0;
    if ((rc = exact_slurp(ctx, "exact_summary.dat", &txt, err)))
        return rc;
    save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        size_t n = strcspn(line, "\t");
        if (line[0] == '#' || !n || n >= sizeof dists[0])
            continue;
        int seen = 0;
        for (size_t i = 0; i < nd; i++)
            seen |= strlen(dists[i]) == n && !strncmp(dists[i], line, n);
        if (!seen && nd < 16)
            snprintf(dists[nd++], sizeof dists[0], "%.*s", (int)n, line);
    }
    free(txt);
    sl_buf links;
    sl_io_buf_init(&links);
    for (size_t i = 0; i < nd; i++) {
        int is_main = !strcmp(dists[i], main_dist);
        sl_buf cap;
        sl_io_buf_init(&cap);
        if ((rc = exact_tail_figure(ctx, dists[i], is_main, &cap, err))) {
            sl_io_buf_free(&cap);
            sl_io_buf_free(&links);
            return rc;
        }
        if (is_main) {
            sl_io_buf_puts(md, "\n");
            sl_report_figure_md(md, "exact_tail", "exact tail", cap.oom ? "" : cap.data);
        } else {
            sl_io_buf_printf(&links, "%s[%s](figures/exact_tail_%s.png)", links.len ? ", " : "", exact_words(dists[i]),
                             dists[i]);
        }
        sl_io_buf_free(&cap);
    }
    if (links.len)
        sl_io_buf_printf(md, "\nThe same figure for the other vectors: %s.\n", links.data);
    sl_io_buf_free(&links);
    sl_io_buf_printf(md, "\nThe data: `figures/exact_summary.dat`, "
                      "`figures/exact_failures.dat` and `figures/exact_tail_*.dat` (rank, token, ideal, then the "
                      "induced probability per sampler). Remake them alone: `samplab exact --report-data DIR`; "
                      "this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "exact");
    return 0;
}

static void exact_release(void *state)
{
    free(state);
}

const sl_report_section sl_report_section_exact = {"exact", "The distribution a sampler really induces", exact_plan, exact_emit,
                                       exact_release};
