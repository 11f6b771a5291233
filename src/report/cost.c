/* cost.c — section "What a draw costs in randomness": the words each
 * draw method (over pcg32) and each framework emulation (over its own
 * generator) consumes per token, measured through the counting wrapper on
 * Zipf-like vectors of V = 8, 1,024, 49,152 and 262,144 tokens. The count is
 * what decides whether two samplers can ever stay in step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

#define COST_NV 4
static const size_t cost_V[COST_NV] = {8, 1024, 49152, 262144};

typedef struct cost_cell {
    const char *row;            /* method or framework name */
    const sl_fw_type *fw;/* NULL for a draw method */
    const sl_report_dist *d;
    size_t draws;
    uint64_t seed;
    double words;               /* per draw */
    unsigned word_bits;
    int rc;
    char msg[sizeof(sl_error)];
} cost_cell;

typedef struct cost_state {
    sl_report_dist dists[COST_NV + 1];
    size_t nd;
    cost_cell *cells;
    size_t nrows, ncells;
} cost_state;

static int cost_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    (void)ctx;
    cost_cell *c = arg;
    sl_error e;
    if (!c->fw) {
        uint64_t *counts = calloc(c->d->V, sizeof *counts);
        uint64_t w = 0;
        if (!counts)
            return sl_base_error_set(err, SL_ENOMEM, "cost: out of memory");
        c->rc = sl_report_draw_counts(c->d, c->row, "pcg32", c->seed, c->draws, counts, &w, &e);
        free(counts);
        c->words = (double)w / (double)c->draws;
        c->word_bits = 32;
    } else {
        sl_fw_result res;
        c->rc = sl_report_fw_run(c->fw, c->d, c->seed, c->draws, 0, &res, &e);
        if (!c->rc) {
            c->words = (double)res.words / (double)c->draws;
            c->word_bits = res.word_bits;
            sl_fw_result_free(&res);
        }
    }
    /* a framework refusing a vector is a result, not a failure */
    return c->rc ? sl_report_refusal(c->rc, &e, c->msg, sizeof c->msg, err) : 0;
}

static void cost_release(void *state);

static int cost_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    cost_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "cost: out of memory");
    int rc = 0;
    for (size_t i = 0; i < COST_NV && !rc; i++)
        if (!(rc = sl_report_dist_zipf(&s->dists[s->nd], cost_V[i], err)))
            s->nd++;
    if (rc) {
        cost_release(s);
        return rc;
    }
    size_t nm = 0, nf = 0;
    while (sl_report_method_names[nm])
        nm++;
    while (sl_fw_types[nf])
        nf++;
    s->nrows = nm + nf;
    s->ncells = s->nrows * s->nd;
    s->cells = calloc(s->ncells, sizeof *s->cells);
    if (!s->cells) {
        cost_release(s);
        return sl_base_error_set(err, SL_ENOMEM, "cost: out of memory");
    }
    for (size_t r = 0; r < s->nrows && !rc; r++)
        for (size_t v = 0; v < s->nd && !rc; v++) {
            cost_cell *c = &s->cells[r * s->nd + v];
            c->fw = r < nm ? NULL : sl_fw_types[r - nm];
            c->row = r < nm ? sl_report_method_names[r] : c->fw->name;
            c->d = &s->dists[v];
            c->seed = ctx->seed + r * s->nd + v;
            /* Methods whose draw is O(V) (and every framework, which may
             * rebuild its table per call) get fewer draws at large V. */
            int per_call_v = c->fw || !strcmp(c->row, "exprace") || !strcmp(c->row, "linear");
            size_t draws = per_call_v ? (size_t)(4e6 / (double)c->d->V) : 10000;
            c->draws = draws < 8 ? 8 : draws > 10000 ? 10000 : draws;
            double cost = (double)c->draws * (per_call_v ? (double)c->d->V : 20.0) * 3.0;
            rc = sl_report_add_job(ctx, 1, cost, cost_run, c, err);
        }
    if (rc) {
        cost_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

static int cost_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    cost_state *s = state;
    sl_io_buf_puts(md, "Words drawn from the random source per token, counted by the generator wrapper\n"
                    "(every word goes through it), on Zipf-like vectors made in code (logit_i = -1.1 ln(i+1)). Draw\n"
                    "methods run over pcg32 (32-bit words); a framework runs over its own generator,\n"
                    "one token per call. The figure shows random bits (words x word width), so 32- and\n"
                    "64-bit sources compare fairly. greedy (argmax) draws no words at all.\n\n");
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 3 + s->nd);
    size_t notes = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        const cost_cell *c0 = &s->cells[r * s->nd];
        sl_io_md_rows_cell(&t, "%s", c0->row);
        sl_io_md_rows_cell(&t, "%s", c0->fw ? "framework" : "method");
        unsigned bits = 0;
        for (size_t v = 0; v < s->nd; v++)
            if (!s->cells[r * s->nd + v].rc)
                bits = s->cells[r * s->nd + v].word_bits;
        sl_io_md_rows_cell(&t, "%u", bits);
        for (size_t v = 0; v < s->nd; v++) {
            const cost_cell *c = &s->cells[r * s->nd + v];
            if (c->rc) {
                sl_io_md_rows_cell(&t, "refused (%zu)", ++notes);
                continue;
            }
            sl_io_md_rows_cell(&t, "%.6g", c->words);
        }
    }
    const char *head[3 + COST_NV + 1] = {"sampler", "kind", "word bits"};
    char hv[COST_NV + 1][32];
    char align[8] = "llr";
    for (size_t v = 0; v < s->nd; v++) {
        snprintf(hv[v], sizeof hv[v], "V = %zu", s->dists[v].V);
        head[3 + v] = hv[v];
        align[3 + v] = 'r';
    }
    sl_io_md_rows_emit(md, &t, head, align);
    sl_io_md_rows_free(&t);
    if (notes) {
        sl_io_buf_puts(md, "\n");
        size_t k = 0;
        for (size_t i = 0; i < s->ncells; i++)
            if (s->cells[i].rc)
                sl_io_buf_printf(md, "- (%zu) %s at V = %zu: %s\n", ++k, s->cells[i].row, s->cells[i].d->V,
                              s->cells[i].msg);
    }
    sl_io_buf_printf(md, "\nDraws measured per cell: 10,000 for O(1) and O(log V) methods; 4,000,000 / V\n"
                    "(between 8 and 10,000) where every draw visits the whole vector. The counts do not\n"
                    "depend on p, so any vector of the same size checks a cell: `--json` ends with the\n"
                    "words drawn (here 10 draws, so 10 times the V = 49152 cell):\n\n"
                    "    samplab draw --method exprace --rng pcg32 --seed 42 --n 10 --logits %s --json\n"
                    "    samplab draw --framework hf --logits %s --temperature 1 --seed 42 --n 10 --json\n\n",
                    SL_REPORT_ZIPF_PATH, SL_REPORT_ZIPF_PATH);

    /* Figure: clustered bars, one cluster per V, log-scale bits per draw. */
    sl_buf dat;
    sl_io_buf_init(&dat);
    sl_io_buf_puts(&dat, "# random bits per draw (words x word bits); rows: V, columns: samplers; - = refused\n# V");
    for (size_t r = 0; r < s->nrows; r++)
        sl_io_buf_printf(&dat, " %s", s->cells[r * s->nd].row);
    sl_io_buf_puts(&dat, "\n");
    double lo = INFINITY, hi = 0;
    for (size_t v = 0; v < s->nd; v++) {
        sl_io_buf_printf(&dat, "\"V = %zu\"", s->dists[v].V);
        for (size_t r = 0; r < s->nrows; r++) {
            const cost_cell *c = &s->cells[r * s->nd + v];
            if (c->rc) {
                sl_io_buf_puts(&dat, " -");
                continue;
            }
            double bits = c->words * c->word_bits;
            sl_io_buf_printf(&dat, " %.9g", bits);
            lo = bits > 0 && bits < lo ? bits : lo;
            hi = bits > hi ? bits : hi;
        }
        sl_io_buf_puts(&dat, "\n");
    }
    /* the axis spans the decades the bars reach, no empty one above or below */
    double ylo = lo < INFINITY ? pow(10, floor(log10(lo))) : 1, yhi = hi > 0 ? pow(10, ceil(log10(hi))) : 10;
    yhi = yhi <= ylo ? ylo * 10 : yhi;
    const char **names = malloc((s->nrows ? s->nrows : 1) * sizeof *names);
    if (!names) {
        sl_io_buf_free(&dat);
        return sl_base_error_set(err, SL_ENOMEM, "cost: out of memory");
    }
    for (size_t r = 0; r < s->nrows; r++)
        names[r] = s->cells[r * s->nd].row;
    sl_buf body, extra;
    sl_io_buf_init(&body);
    sl_io_buf_init(&extra);
    sl_report_style_bars(&body, names, s->nrows, s->nd, 0, NULL);
    sl_io_buf_puts(&body, "\n");
    free(names);
    sl_io_buf_printf(&extra, "set datafile missing '-'\nset yrange [%g:%g]\nset xtics nomirror\n"
                             "unset grid\nset grid ytics\nset key outside right top box\n", ylo, yhi);
    sl_plot p = {
        .name = "cost_bits_per_draw",
        .title = "Randomness consumed per token drawn",
        .xlabel = "vocabulary size (tokens)",
        .ylabel = "random bits per token (log scale)",
        .logy = 1, .key = "outside right top box",
        .extra = extra.data,
        .body = body.data, .dat = dat.data, .oom = dat.oom || body.oom || extra.oom, .width = 1200, .height = 620};
    int rc = sl_report_plot(ctx, &p, err);
    sl_io_buf_free(&dat);
    sl_io_buf_free(&body);
    sl_io_buf_free(&extra);
    if (rc)
        return rc;
    sl_report_figure_md(md, "cost_bits_per_draw", "bits per draw",
                        "Look at how far apart the bars of one V are: the exponential race (exprace, and hf, vllm "
                        "and torch, which use it) spends words for every token of the vocabulary, so its cost grows with V, every other sampler "
                        "one or two words whatever V; two samplers that spend different numbers of words "
                        "cannot stay in step on one seed.");
    sl_io_buf_puts(md, "\nRemake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "cost");
    return 0;
}

static void cost_release(void *state)
{
    cost_state *s = state;
    for (size_t i = 0; i < s->nd; i++)
        sl_report_dist_free(&s->dists[i]);
    free(s->cells);
    free(s);
}

const sl_report_section sl_report_section_cost = {"cost", "What a draw costs in randomness", cost_plan, cost_emit,
                                      cost_release};
