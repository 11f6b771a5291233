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

    /* Tail figure: induced / ideal against ideal, for the tempered
     * vocabulary (or the weather example without it). */
    const char *dist = sl_report_exact_tail_case(s->have_zipf);
    char name[64];
    snprintf(name, sizeof name, "exact_tail_%s.dat", dist);
    if ((rc = exact_slurp(ctx, name, &txt, err)))
        return rc;
    char hdr[1024] = "";
    save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (!strncmp(line, "# rank", 6))
            snprintf(hdr, sizeof hdr, "%s", line + 2);
    free(txt);
    char *f[32];
    size_t nf = exact_split(hdr, f, 32);
    sl_buf body;
    sl_io_buf_init(&body);
    sl_io_buf_puts(&body, "plot 1 with lines lw 2 lc rgb '#000000' title 'induced = ideal'");
    static const char *const pt[] = {"6", "4", "8", "10", "12", "2", "1", "3"};
    for (size_t k = 3; k < nf; k++)
        sl_io_buf_printf(&body, ", \\\n  '%s' using 3:(column(%zu) / $3) with points pt %s ps 0.9 title '%s'", name,
                      k + 1, pt[(k - 3) % 8], f[k]);
    sl_io_buf_puts(&body, "\n");
    char title[160];
    snprintf(title, sizeof title, "Exact induced over ideal probability, %s", dist);
    sl_plot p = {.name = "exact_tail", .title = title,
                 .xlabel = "ideal probability (float64 softmax)",
                 .ylabel = "induced / ideal (0 = never drawn)", .logx = 1,
                 .key = "top right box opaque", .extra = "set yrange [-0.05:2.05]\n", .body = body.data,
                 .dat = NULL, .oom = body.oom, .width = 1000, .height = 650};
    rc = sl_report_plot(ctx, &p, err);
    sl_io_buf_free(&body);
    if (rc)
        return rc;
    sl_io_buf_printf(md, "\n![exact tail](figures/exact_tail.png)\n\nThe data: `figures/exact_summary.dat`, "
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
