/* ties.c — section "Ties": draws 10,000 tokens from softmax([3, 2, 2, 1])
 * with top-k = 2 in every framework that takes top-k, beside what each
 * framework's logits pipeline keeps (`samplab pipeline`): a filter that keeps
 * everything tied with the k-th value keeps 3 tokens, one that keeps exactly
 * k drops one of the tied pair. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

#define TIES_N 10000

typedef struct ties_fw {
    const sl_fw_type *fw;
    uint64_t counts[4];
    int rc;
    char msg[sizeof(sl_error)];
} ties_fw;

typedef struct ties_state {
    ties_fw *fws;
    size_t nfw;
} ties_state;

static int ties_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    ties_fw *f = arg;
    sl_error e;
    sl_fw_result res;
    f->rc = sl_report_fw_run(f->fw, &ctx->ties, ctx->seed, TIES_N, 2, &res, &e);
    if (f->rc)
        return sl_report_refusal(f->rc, &e, f->msg, sizeof f->msg, err);
    for (size_t i = 0; i < res.n * res.k; i++)
        if (res.tokens[i] >= 0 && res.tokens[i] < 4)
            f->counts[res.tokens[i]]++;
    sl_fw_result_free(&res);
    return 0;
}

static void ties_release(void *state);

static int ties_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    *state = NULL;
    size_t n = 0, np = 0;
    for (size_t i = 0; sl_fw_types[i]; i++)
        n += (sl_fw_types[i]->accepts & SL_OPT_TOP_K) != 0;
    for (size_t i = 0; sl_logits_pipeline_types[i]; i++)
        np += (sl_logits_pipeline_types[i]->accepts & SL_OPT_TOP_K) &&
              !(sl_logits_pipeline_types[i]->traits & (SL_LOGITS_TRAIT_NEEDS_VARIANT | SL_LOGITS_TRAIT_NAMED_ONLY));
    if (!n && !np)
        return 0; /* nothing with top-k in this build: section left out */
    ties_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "ties: out of memory");
    int rc = (s->fws = calloc(n ? n : 1, sizeof *s->fws)) ? 0 : sl_base_error_set(err, SL_ENOMEM, "ties: out of memory");
    for (size_t i = 0; sl_fw_types[i] && !rc; i++)
        if (sl_fw_types[i]->accepts & SL_OPT_TOP_K) {
            s->fws[s->nfw].fw = sl_fw_types[i];
            rc = sl_report_add_job(ctx, 1, TIES_N * 10.0, ties_run, &s->fws[s->nfw++], err);
        }
    if (rc) {
        ties_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

/* What each logits pipeline keeps with top-k = 2 on [3, 2, 2, 1], and the
 * distribution it then samples from (samplab pipeline). */
typedef struct ties_pipe {
    const char *name;
    int rc;
    char msg[sizeof(sl_error)];
    double probs[4];
    size_t kept;
} ties_pipe;

/* Runs every pipeline that takes top-k into out[0..*n); fails only when
 * out of memory. */
static int ties_pipelines(const sl_report_ctx *ctx, ties_pipe *out, size_t max, size_t *np, sl_error *err)
{
    size_t n = 0;
    *np = 0;
    for (size_t i = 0; sl_logits_pipeline_types[i] && n < max; i++) {
        const sl_logits_pipeline_type *t = sl_logits_pipeline_types[i];
        if (!(t->accepts & SL_OPT_TOP_K) || (t->traits & (SL_LOGITS_TRAIT_NEEDS_VARIANT | SL_LOGITS_TRAIT_NAMED_ONLY)))
            continue; /* ollama 0.24 runs only under --ollama, which the replay commands do not give */
        ties_pipe *q = &out[n++];
        memset(q, 0, sizeof *q);
        q->name = t->name;
        sl_logits_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.cpu = SL_REPORT_CPU;
        cfg.has_top_k = 1;
        cfg.top_k = 2;
        if (t->accepts & SL_OPT_TEMPERATURE) { /* candle without one is argmax */
            cfg.has_temperature = 1;
            cfg.temperature = 1.0;
        }
        sl_logits_result r;
        sl_error e;
        q->rc = sl_logits_pipeline_run(t, &ctx->ties.lvec, &cfg, &r, &e);
        if (q->rc) {
            int rc = sl_report_refusal(q->rc, &e, q->msg, sizeof q->msg, err);
            if (rc)
                return rc;
            continue;
        }
        for (int k = 0; k < 4; k++)
            q->probs[k] = r.probs[k];
        q->kept = r.n_kept;
        sl_logits_result_free(&r);
    }
    *np = n;
    return 0;
}

/* One table row: the tokens with a positive count and the four counts
 * (expected or observed) with `decimals` digits, or why there are none. */
static void ties_row(sl_io_md_rows *t, const char *name, const char *kind, const char *why, const double *w,
                     int decimals)
{
    sl_io_md_rows_cell(t, "%s", name);
    sl_io_md_rows_cell(t, "%s", kind);
    if (why) {
        sl_io_md_rows_cell(t, "%s", why);
        for (int k = 0; k < 4; k++)
            sl_io_md_rows_cell(t, "-");
        return;
    }
    char kept[32] = "";
    for (int k = 0; k < 4; k++)
        if (w[k] > 0)
            snprintf(kept + strlen(kept), sizeof kept - strlen(kept), "%s%d", kept[0] ? ", " : "", k);
    sl_io_md_rows_cell(t, "%s", kept);
    for (int k = 0; k < 4; k++)
        sl_io_md_rows_cell(t, "%.*f", decimals, w[k]);
}

static int ties_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    ties_state *s = state;
    const double *p = ctx->ties.p;
    ties_pipe pipes[16];
    size_t npipe;
    int rc = ties_pipelines(ctx, pipes, 16, &npipe, err);
    if (rc)
        return rc;
    sl_io_buf_printf(md,
                  "softmax([3, 2, 2, 1]) = [%.4f, %.4f, %.4f, %.4f]: tokens 1 and 2 tie for the second\n"
                  "place. With top-k = 2 a filter that keeps everything tied with the k-th value keeps\n"
                  "3 tokens; one that keeps exactly k must drop one of the tied pair. The pipeline rows\n"
                  "are each framework's logits pipeline (`samplab pipeline --framework F --logits\n"
                  "3,2,2,1 --top-k 2 --temperature 1`): the tokens it keeps and the counts it should give in %d\n"
                  "draws. The draw rows are framework emulations drawing %d tokens with seed %llu.\n\n",
                  p[0], p[1], p[2], p[3], TIES_N, TIES_N, (unsigned long long)ctx->seed);
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 7);
    char why[sizeof(sl_error) + 16];
    double w[4];
    for (size_t i = 0; i < npipe; i++) {
        const ties_pipe *q = &pipes[i];
        snprintf(why, sizeof why, "error: %s", q->msg);
        for (int k = 0; k < 4; k++)
            w[k] = TIES_N * q->probs[k];
        ties_row(&t, q->name, "pipeline, expected", q->rc ? why : NULL, w, 1);
    }
    for (size_t i = 0; i < s->nfw; i++) {
        const ties_fw *f = &s->fws[i];
        snprintf(why, sizeof why, "refused: %s", f->msg);
        for (int k = 0; k < 4; k++)
            w[k] = (double)f->counts[k];
        ties_row(&t, f->fw->name, "draws, observed", f->rc ? why : NULL, w, 0);
    }
    static const char *const head[7] = {"framework", "row", "tokens kept", "token 0", "token 1", "token 2",
                                        "token 3"};
    sl_io_md_rows_emit(md, &t, head, "lllrrrr");
    sl_io_md_rows_free(&t);

    /* Figure: a bar per pipeline (the count it predicts), a dot per framework's
     * draws (the count observed) on its own pipeline's bar; tokens nobody keeps
     * are left out, the caption says which. */
    sl_buf dat, body;
    sl_io_buf_init(&dat);
    sl_io_buf_init(&body);
    sl_io_buf_puts(&dat, "# draws per token out of 10000, softmax([3,2,2,1]) with top-k = 2: pipelines\n"
                         "# (expected) then framework draws (observed); tokens no one keeps or draws left out\n# token");
    const char *series[16];
    size_t ncol = 0, nser = 0;
    for (size_t i = 0; i < npipe; i++)
        if (!pipes[i].rc) {
            sl_io_buf_printf(&dat, " %s(pipeline)", pipes[i].name);
            series[nser++] = pipes[i].name;
            ncol++;
        }
    for (size_t i = 0; i < s->nfw; i++)
        if (!s->fws[i].rc) {
            sl_io_buf_printf(&dat, " %s(draws)", s->fws[i].fw->name);
            ncol++;
        }
    sl_io_buf_puts(&dat, "\n");
    size_t nrow = 0;
    int gone[4] = {0};
    for (int k = 0; k < 4; k++) {
        double any = 0;
        for (size_t i = 0; i < npipe; i++)
            any += pipes[i].rc ? 0 : pipes[i].probs[k];
        for (size_t i = 0; i < s->nfw; i++)
            any += s->fws[i].rc ? 0 : (double)s->fws[i].counts[k];
        if (any == 0) {
            gone[k] = 1;
            continue;
        }
        nrow++;
        sl_io_buf_printf(&dat, "\"token %d\"", k);
        for (size_t i = 0; i < npipe; i++)
            if (!pipes[i].rc)
                sl_io_buf_printf(&dat, " %.1f", TIES_N * pipes[i].probs[k]);
        for (size_t i = 0; i < s->nfw; i++)
            if (!s->fws[i].rc)
                sl_io_buf_printf(&dat, " %llu", (unsigned long long)s->fws[i].counts[k]);
        sl_io_buf_puts(&dat, "\n");
    }
    sl_report_style_bars(&body, series, nser, nrow, 0, NULL);
    for (size_t i = 0, col = nser + 2, titled = 0; i < s->nfw; i++) {
        if (s->fws[i].rc)
            continue;
        size_t at = nser;
        for (size_t j = 0; j < nser; j++)
            at = !strcmp(series[j], s->fws[i].fw->name) ? j : at;
        if (at < nser)
            sl_io_buf_printf(&body, ", \\\n     @DAT@ using ($0%+.6g):%zu with points pt 7 ps 1.8 lc rgb '#000000' %s",
                             sl_report_style_bar_offset(at, nser), col,
                             titled++ ? "notitle" : "title \"dot: drawn (10,000 draws)\"");
        col++;
    }
    sl_io_buf_puts(&body, "\n");
    (void)ncol;
    sl_plot pl = {
        .name = "ties_topk2",
        .title = "top-k = 2 on softmax([3, 2, 2, 1]): who keeps the tie",
        .xlabel = "token id",
        .ylabel = "draws out of 10,000",
        .key = "top right box opaque",
        .extra = "set yrange [0:*]\nunset grid\nset grid ytics\nset xtics nomirror scale 0\n",
        .body = body.data, .dat = dat.data, .oom = body.oom || dat.oom, .width = 1000, .height = 680};
    rc = sl_report_plot(ctx, &pl, err);
    sl_io_buf_free(&dat);
    sl_io_buf_free(&body);
    if (rc)
        return rc;
    sl_buf cap;
    sl_io_buf_init(&cap);
    sl_io_buf_puts(&cap, "Bars: the count each framework's pipeline predicts; dots: what its sampler drew. Look "
                         "at token 2: the frameworks with a bar there keep the whole tie (3 tokens), the others "
                         "keep exactly 2 and never draw it");
    for (int k = 0, n = 0; k < 4; k++)
        if (gone[k])
            sl_io_buf_printf(&cap, "%s %d", n++ ? "," : "; no one keeps token", k);
    sl_io_buf_puts(&cap, ".");
    sl_io_buf_puts(md, "\n");
    sl_report_figure_md(md, "ties_topk2", "ties", cap.oom ? "" : cap.data);
    sl_io_buf_free(&cap);
    sl_io_buf_puts(md, "\nReplay a row:\n\n");
    for (size_t i = 0; i < npipe; i++)
        if (!pipes[i].rc)
            sl_io_buf_printf(md, "    samplab pipeline --framework %s --logits %s --top-k 2 --temperature 1\n",
                          pipes[i].name, ctx->ties.src);
    for (size_t i = 0; i < s->nfw; i++)
        if (!s->fws[i].rc)
            sl_io_buf_printf(md, "    samplab draw --framework %s --logits %s --top-k 2%s --seed %llu --n %d --counts\n",
                          s->fws[i].fw->name, ctx->ties.src,
                          s->fws[i].fw->accepts & SL_OPT_TEMPERATURE ? " --temperature 1" : "",
                          (unsigned long long)ctx->seed, TIES_N);
    sl_io_buf_puts(md, "\nRemake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "ties");
    return 0;
}

static void ties_release(void *state)
{
    ties_state *s = state;
    free(s->fws);
    free(s);
}

const sl_report_section sl_report_section_ties = {"ties", "Ties: top-k = 2 on [3, 2, 2, 1]", ties_plan, ties_emit,
                                      ties_release};
