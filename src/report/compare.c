/* compare.c — section "Same logits, other tokens": the same logits and
 * the "same" settings through every framework's logits pipeline (the ones
 * `samplab pipeline` and `samplab compare` run), in five cases where they
 * part ways: the hidden top-k 50 of transformers' generate(do_sample=True),
 * top-k 40 + top-p 0.9 (renormalised or not between the two), the top-p
 * boundary, a repetition penalty over the whole context against the last 64
 * tokens, and temperature 0. Frameworks that draw with these settings
 * (candle, llama.cpp) add a row of observed draws: the distinct tokens they
 * produced, which shows what they keep. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

#define CMP_NCASE 5
#define CMP_MAXROW 16
#define CMP_DRAWS 20000

typedef struct cmp_row {
    const char *name;
    int is_draw;            /* 0: pipeline (exact distribution); 1: framework draws */
    int rc;
    char msg[sizeof(sl_error)];
    int greedy;
    size_t greedy_id;
    size_t kept;            /* pipeline: kept count; draws: distinct tokens drawn */
    double p0;              /* probability (or frequency) of token `focus` */
    double tv;              /* TV against the first pipeline row */
    double *probs;          /* V entries (pipelines: final distribution; draws: frequencies) */
    char steps[256];
} cmp_row;

typedef struct cmp_case {
    const char *id, *title, *what, *args;
    char text[2][256];      /* what and args, when made at run time */
    const sl_report_dist *d;      /* the vector, unless own */
    sl_report_dist own;           /* for cases that bring their own logits */
    const char *src;        /* what to pass as --logits in the replay */
    sl_logits_cfg cfg;
    sl_fw_opts fo;          /* the same settings for framework draws */
    unsigned need;          /* SL_OPT_* the settings use */
    size_t focus;           /* the token whose probability is shown */
    cmp_row rows[CMP_MAXROW];
    size_t nrows;
    uint64_t seed;
} cmp_case;

typedef struct cmp_state {
    cmp_case cases[CMP_NCASE];
    long context[SL_REPORT_CONTEXT_N];
    sl_report_dist k40;
} cmp_state;

static void cmp_fill_row_from_result(cmp_row *r, const sl_logits_result *res, size_t V, size_t focus)
{
    r->greedy = res->greedy;
    r->greedy_id = res->greedy_id;
    r->kept = res->n_kept;
    r->p0 = focus < V ? res->probs[focus] : 0.0;
    memcpy(r->probs, res->probs, V * sizeof *r->probs);
    r->steps[0] = '\0';
    for (size_t i = 0; i < res->n_steps; i++)
        snprintf(r->steps + strlen(r->steps), sizeof r->steps - strlen(r->steps), "%s%s", i ? " → " : "",
                 res->steps[i]);
}

static int cmp_case_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    (void)ctx;
    cmp_case *c = arg;
    const sl_report_dist *d = c->d;
    c->nrows = 0;
    for (size_t i = 0; sl_logits_pipeline_types[i] && c->nrows < CMP_MAXROW; i++) {
        const sl_logits_pipeline_type *t = sl_logits_pipeline_types[i];
        /* a pipeline run only under its release option (ollama 0.24) is left out: its
         * replay command would need it, and the report's commands name the settings alone */
        if ((t->accepts & c->need) != c->need || (t->traits & (SL_LOGITS_TRAIT_NEEDS_VARIANT | SL_LOGITS_TRAIT_NAMED_ONLY)))
            continue;
        cmp_row *r = &c->rows[c->nrows++];
        r->name = t->name;
        r->probs = calloc(d->V, sizeof *r->probs);
        if (!r->probs)
            return sl_base_error_set(err, SL_ENOMEM, "compare: out of memory");
        /* Sampling at T = 1 said out loud where the case sets no temperature:
         * candle's LogitsProcessor without one is argmax. */
        sl_logits_cfg cfg = c->cfg;
        cfg.cpu = SL_REPORT_CPU;
        if (!cfg.has_temperature && (t->accepts & SL_OPT_TEMPERATURE)) {
            cfg.has_temperature = 1;
            cfg.temperature = 1.0;
        }
        sl_logits_result res;
        sl_error e;
        r->rc = sl_logits_pipeline_run(t, &d->lvec, &cfg, &res, &e);
        if (r->rc) {
            int rc = sl_report_refusal(r->rc, &e, r->msg, sizeof r->msg, err);
            if (rc)
                return rc;
            continue;
        }
        cmp_fill_row_from_result(r, &res, d->V, c->focus);
        sl_logits_result_free(&res);
    }
    /* Framework draws with the same settings, on small vectors only (each
     * call is O(V)). */
    for (size_t i = 0; d->V <= 4096 && sl_fw_types[i] && c->nrows < CMP_MAXROW; i++) {
        const sl_fw_type *fw = sl_fw_types[i];
        unsigned need = c->need | SL_OPT_LOGITS;
        if ((fw->accepts & need) != need)
            continue;
        cmp_row *r = &c->rows[c->nrows++];
        r->name = fw->name;
        r->is_draw = 1;
        r->probs = calloc(d->V, sizeof *r->probs);
        if (!r->probs)
            return sl_base_error_set(err, SL_ENOMEM, "compare: out of memory");
        sl_fw_opts o = c->fo;
        o.cfg.cpu = SL_REPORT_CPU;
        o.logits = &d->lvec;
        o.seed.lo = c->seed;
        o.has_seed = 1;
        o.n = CMP_DRAWS;
        o.k = 1;
        sl_fw_result res;
        sl_error e;
        r->rc = sl_fw_run(fw, &o, &res, &e);
        if (r->rc) {
            int rc = sl_report_refusal(r->rc, &e, r->msg, sizeof r->msg, err);
            if (rc)
                return rc;
            continue;
        }
        for (size_t k = 0; k < res.n * res.k; k++)
            if (res.tokens[k] >= 0 && (size_t)res.tokens[k] < d->V)
                r->probs[res.tokens[k]] += 1.0 / (double)(res.n * res.k);
        for (size_t k = 0; k < d->V; k++)
            r->kept += r->probs[k] > 0;
        r->p0 = r->probs[c->focus];
        snprintf(r->steps, sizeof r->steps, "%d draws, seed %llu", CMP_DRAWS, (unsigned long long)c->seed);
        sl_fw_result_free(&res);
    }
    const cmp_row *ref = NULL;
    for (size_t i = 0; i < c->nrows && !ref; i++)
        if (!c->rows[i].rc && !c->rows[i].is_draw && !c->rows[i].greedy)
            ref = &c->rows[i];
    for (size_t i = 0; i < c->nrows; i++) {
        cmp_row *r = &c->rows[i];
        r->tv = NAN;
        if (!ref || r->rc || r->greedy)
            continue;
        double s = 0.0;
        for (size_t k = 0; k < d->V; k++)
            s += fabs(r->probs[k] - ref->probs[k]);
        r->tv = 0.5 * s;
    }
    return 0;
}

static size_t cmp_argmax(const double *p, size_t V)
{
    size_t a = 0;
    for (size_t i = 1; i < V; i++)
        if (p[i] > p[a])
            a = i;
    return a;
}

static void cmp_release(void *state);

static int cmp_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    *state = NULL;
    if (!sl_logits_pipeline_types[0])
        return 0;
    cmp_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "compare: out of memory");
    /* The vector shaped like the document's 14-against-31 step, if present
     * (with --logits, the user's vector). */
    sl_error e;
    const sl_report_dist *k40 = &ctx->big;
    if (!ctx->logits_src && !sl_report_dist_read(&s->k40, SL_REPORT_K40_NAME, SL_REPORT_K40_PATH, &e))
        k40 = &s->k40;
    sl_report_context_ids(s->context);

    cmp_case *c = s->cases;
    /* 1. hidden top-k 50 */
    c[0].id = "defaults";
    c[0].title = "hidden defaults";
    c[0].what = "T = 0.7 and nothing else: each framework's own defaults (transformers' generate(do_sample=True) "
                "adds top_k = 50; llama.cpp top-k 40, top-p 0.95, min-p 0.05)";
    c[0].args = "--temperature 0.7";
    c[0].d = &ctx->big;
    c[0].src = ctx->big.src;
    c[0].cfg.has_temperature = c[0].fo.cfg.has_temperature = 1;
    c[0].cfg.temperature = c[0].fo.cfg.temperature = 0.7;
    c[0].need = SL_OPT_TEMPERATURE;
    /* 2. top-k 40 + top-p 0.9 */
    c[1].id = "k40p09";
    c[1].title = "top-k 40 + top-p 0.9";
    c[1].what = "T = 0.7, top-k 40 then top-p 0.9: renormalising between the two (transformers) or not (candle)";
    c[1].args = "--temperature 0.7 --top-k 40 --top-p 0.9";
    c[1].d = k40;
    c[1].src = k40->src;
    c[1].cfg.has_temperature = c[1].fo.cfg.has_temperature = 1;
    c[1].cfg.temperature = c[1].fo.cfg.temperature = 0.7;
    c[1].cfg.has_top_k = c[1].fo.cfg.has_top_k = 1;
    c[1].cfg.top_k = c[1].fo.cfg.top_k = 40;
    c[1].cfg.has_top_p = c[1].fo.cfg.has_top_p = 1;
    c[1].cfg.top_p = c[1].fo.cfg.top_p = 0.9;
    c[1].need = SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P;
    /* 3. top-p boundary: p = [0.5, 0.3, 0.2] exactly at p = 0.8 */
    static const double bnd[3] = {0.5, 0.3, 0.2};
    double lb[3];
    for (int i = 0; i < 3; i++)
        lb[i] = log(bnd[i]);
    c[2].id = "boundary";
    c[2].title = "top-p boundary";
    c[2].what = "logits ln([0.5, 0.3, 0.2]) with top-p 0.8: the first two tokens hold exactly 0.8";
    c[2].args = "--top-p 0.8 --temperature 1";
    c[2].src = "-0.69314718055994529,-1.2039728043259361,-1.6094379124341003";
    c[2].cfg.has_top_p = c[2].fo.cfg.has_top_p = 1;
    c[2].cfg.top_p = c[2].fo.cfg.top_p = 0.8;
    c[2].fo.cfg.has_temperature = 1;
    c[2].fo.cfg.temperature = 1.0;
    c[2].need = SL_OPT_TOP_P;
    /* 4. repetition penalty */
    c[3].id = "penalty";
    c[3].title = "repetition penalty scope";
    snprintf(c[3].text[0], sizeof c[3].text[0],
             "penalty 1.3 over a context of %d ids: token 0 sixteen times, then 64 ids cycling over 3-7 "
             "(token 0 is outside the last 64)", SL_REPORT_CONTEXT_N);
    c[3].what = c[3].text[0];
    snprintf(c[3].text[1], sizeof c[3].text[1],
             "--repetition-penalty 1.3 --context DIR/inputs/%s --temperature 1", SL_REPORT_CONTEXT_FILE);
    c[3].args = c[3].text[1];
    c[3].d = &ctx->weather;
    c[3].src = ctx->weather.src;
    c[3].cfg.has_penalty = c[3].fo.cfg.has_penalty = 1;
    c[3].cfg.penalty = c[3].fo.cfg.penalty = 1.3;
    c[3].cfg.context = c[3].fo.cfg.context = s->context;
    c[3].cfg.context_n = c[3].fo.cfg.context_n = SL_REPORT_CONTEXT_N;
    c[3].fo.cfg.has_temperature = 1;
    c[3].fo.cfg.temperature = 1.0;
    c[3].need = SL_OPT_PENALTY;
    /* 5. temperature 0 */
    c[4].id = "t0";
    c[4].title = "temperature 0";
    c[4].what = "T = 0 on the weather logits: an error, argmax, or a clamp";
    c[4].args = "--temperature 0";
    c[4].d = &ctx->weather;
    c[4].src = ctx->weather.src;
    c[4].cfg.has_temperature = c[4].fo.cfg.has_temperature = 1;
    c[4].cfg.temperature = c[4].fo.cfg.temperature = 0.0;
    c[4].need = SL_OPT_TEMPERATURE;

    snprintf(c[2].own.name, sizeof c[2].own.name, "boundary");
    c[2].own.V = 3;
    int rc = sl_base_vec_alloc(&c[2].own.lvec, 3, "boundary", err);
    if (rc) {
        cmp_release(s);
        return rc;
    }
    for (int i = 0; i < 3; i++) {
        c[2].own.lvec.d[i] = lb[i];
        c[2].own.lvec.f[i] = (float)lb[i];
    }
    c[2].d = &c[2].own;

    for (int i = 0; i < CMP_NCASE && !rc; i++) {
        c[i].seed = ctx->seed + (uint64_t)i;
        /* the token to watch: the most likely one of the plain softmax */
        double *p = malloc(c[i].d->V * sizeof *p);
        if (!p)
            rc = sl_base_error_set(err, SL_ENOMEM, "compare: out of memory for %zu probabilities", c[i].d->V);
        else if (!(rc = sl_logits_softmax(c[i].d->lvec.d, c[i].d->V, 1.0, p, err)))
            c[i].focus = cmp_argmax(p, c[i].d->V);
        free(p);
        double cost = (double)c[i].d->V * 200.0 + (c[i].d->V <= 4096 ? CMP_DRAWS * (double)c[i].d->V * 4 : 0);
        if (!rc)
            rc = sl_report_add_job(ctx, 1, cost, cmp_case_run, &c[i], err);
    }
    if (rc) {
        cmp_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

static int cmp_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    cmp_state *s = state;
    /* The context file the penalty case replays with. */
    int rc = sl_report_context_write(ctx, err);
    if (rc)
        return rc;

    sl_io_buf_puts(md, "The same logits and the \"same\" settings through each framework's logits pipeline\n"
                    "(exact final distributions, as `samplab pipeline` prints them) and, on small vectors,\n"
                    "through the framework emulations that draw with these settings (distinct tokens seen\n"
                    "in 20,000 draws). TV is measured against the first pipeline row of the case; p(top)\n"
                    "is the final probability of the token the plain softmax ranks first. llama.cpp's sampler\n"
                    "accepts every token it draws into its penalty history (llama_sampler_sample), so with a\n"
                    "repetition penalty its draws drift from the one-step pipeline as the history grows.\n"
                    "Each setting a case leaves out takes the framework's own default, as its library fills\n"
                    "it in (transformers' top_k 50; llama.cpp's top-k 40, top-p 0.95, min-p 0.05, T 0.8).\n"
                    "samplab 0.1 ran those stages off unless `--defaults` was given, so its rows for hf and\n"
                    "llamacpp here differed (docs/pipelines.md, \"What changed in 0.2\").\n\n");
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 6);
    sl_buf notes;
    sl_io_buf_init(&notes);
    size_t nnote = 0;
    for (int i = 0; i < CMP_NCASE; i++) {
        const cmp_case *c = &s->cases[i];
        for (size_t j = 0; j < c->nrows; j++) {
            const cmp_row *r = &c->rows[j];
            sl_io_md_rows_cell(&t, "%s", j ? "" : c->title);
            sl_io_md_rows_cell(&t, "%s%s", r->name, r->is_draw ? " (draws)" : "");
            if (r->rc) {
                sl_io_md_rows_cell(&t, "error (%zu)", ++nnote);
                sl_io_md_rows_cell(&t, "-");
                sl_io_md_rows_cell(&t, "-");
                sl_io_md_rows_cell(&t, "-");
                /* One line: messages may hold newlines. */
                char m[sizeof r->msg];
                snprintf(m, sizeof m, "%s", r->msg);
                for (char *q = m; *q; q++)
                    if (*q == '\n')
                        *q = ' ';
                sl_io_buf_printf(&notes, "- (%zu) %s, %s: %s\n", nnote, c->title, r->name, m);
                continue;
            }
            if (r->greedy) {
                sl_io_md_rows_cell(&t, "greedy → %zu", r->greedy_id);
                sl_io_md_rows_cell(&t, "1");
                sl_io_md_rows_cell(&t, "-");
            } else {
                sl_io_md_rows_cell(&t, "%zu %s", r->kept, r->is_draw ? "seen" : "kept");
                sl_io_md_rows_cell(&t, "%.4f", r->p0);
                if (isnan(r->tv))
                    sl_io_md_rows_cell(&t, "-");
                else
                    sl_io_md_rows_cell(&t, "%.4f", r->tv);
            }
            sl_io_md_rows_cell(&t, "%s", r->steps);
        }
    }
    static const char *const head[6] = {"case", "framework", "tokens", "p(top)", "TV vs first", "steps"};
    sl_io_md_rows_emit(md, &t, head, "llrrrl");
    sl_io_md_rows_free(&t);
    if (notes.oom)
        md->oom = 1; /* as sl_io_md_rows_emit does: the report fails, never drops a note */
    else if (nnote) {
        sl_io_buf_puts(md, "\n");
        sl_io_buf_append(md, notes.data, notes.len);
    }
    sl_io_buf_free(&notes);
    sl_io_buf_puts(md, "\nThe cases and their replays (`samplab compare` runs all pipelines at once):\n\n");
    for (int i = 0; i < CMP_NCASE; i++) {
        const cmp_case *c = &s->cases[i];
        sl_io_buf_printf(md, "- **%s** (%s, V = %zu): %s.\n\n      samplab compare --logits %s %s\n\n", c->title,
                      i == 2 ? "inline" : c->d->name, c->d->V, c->what, c->src, c->args);
    }

    /* Figure: tokens each pipeline keeps, one panel per case on its own scale (a
     * count of 2 against 3 must show), the value over each bar. The draws rows
     * count tokens seen in a sample, another quantity: they stay in the table. */
    sl_buf dat, body;
    sl_io_buf_init(&dat);
    sl_io_buf_init(&body);
    char names[CMP_MAXROW][64];
    size_t nn = 0;
    for (int i = 0; i < 3; i++)
        for (size_t j = 0; j < s->cases[i].nrows; j++) {
            if (s->cases[i].rows[j].is_draw)
                continue;
            int seen = 0;
            for (size_t k = 0; k < nn; k++)
                seen |= !strcmp(names[k], s->cases[i].rows[j].name);
            if (!seen && nn < CMP_MAXROW)
                snprintf(names[nn++], sizeof names[0], "%s", s->cases[i].rows[j].name);
        }
    sl_io_buf_puts(&dat, "# tokens each pipeline keeps (greedy: 1); one block per case; - = not run\n");
    size_t top[3] = {1, 1, 1};
    for (int i = 0; i < 3; i++) {
        const cmp_case *c = &s->cases[i];
        sl_io_buf_puts(&dat, i ? "\n\n# case" : "# case");
        for (size_t k = 0; k < nn; k++)
            sl_io_buf_printf(&dat, " %s", names[k]);
        sl_io_buf_printf(&dat, "\n\"%s\"", c->title);
        for (size_t k = 0; k < nn; k++) {
            const cmp_row *hit = NULL;
            for (size_t j = 0; j < c->nrows; j++)
                if (!c->rows[j].is_draw && !strcmp(c->rows[j].name, names[k]) && !c->rows[j].rc)
                    hit = &c->rows[j];
            if (hit) {
                size_t v = hit->greedy ? (size_t)1 : hit->kept;
                sl_io_buf_printf(&dat, " %zu", v);
                top[i] = v > top[i] ? v : top[i];
            } else {
                sl_io_buf_puts(&dat, " -");
            }
        }
        sl_io_buf_puts(&dat, "\n");
    }
    const char *series[CMP_MAXROW];
    for (size_t k = 0; k < nn; k++)
        series[k] = names[k];
    sl_io_buf_puts(&body, "set datafile missing '-'\nunset title\nunset xlabel\nset xtics nomirror scale 0\nset bmargin 6\n"
                          "set multiplot layout 1,3 title \"Same logits, same settings: how many tokens each "
                          "framework keeps\" noenhanced\n");
    for (int i = 0; i < 3; i++) {
        char sel[16];
        snprintf(sel, sizeof sel, "index %d", i);
        /* a span of several decades on a log axis; a few tokens on a linear one from 0 */
        if (top[i] > 100)
            sl_io_buf_printf(&body, "set logscale y\nset format y '10^{%%L}'\nset yrange [1:%g]\n"
                                    "set ylabel \"tokens kept (log scale)\"\n",
                             pow(10, ceil(log10((double)top[i] * 1.5))));
        else
            sl_io_buf_printf(&body, "unset logscale y\nset format y '%%g'\nset yrange [0:%g]\nset ytics 0,%g\n"
                                    "set ylabel \"tokens kept\"\n",
                             ceil((double)top[i] * 1.25), top[i] > 20 ? 10.0 : 1.0);
        sl_io_buf_puts(&body, i == 0 ? "set key at screen 0.5,0.015 center bottom horizontal maxrows 1 box\n" : "unset key\n");
        sl_report_style_bars(&body, series, nn, 1, 1, sel);
        sl_io_buf_puts(&body, "\n");
    }
    sl_io_buf_puts(&body, "unset multiplot\n");
    sl_plot p = {
        .name = "compare_kept",
        .title = "Same logits, same settings: tokens each framework keeps",
        .xlabel = "case",
        .ylabel = "tokens kept",
        .key = "top left box opaque",
        .body = body.data, .dat = dat.data, .oom = body.oom || dat.oom, .width = 1400, .height = 620};
    rc = sl_report_plot(ctx, &p, err);
    sl_io_buf_free(&dat);
    sl_io_buf_free(&body);
    if (rc)
        return rc;
    /* the caption says what the bars show, from the counts themselves */
    sl_buf cap;
    sl_io_buf_init(&cap);
    sl_io_buf_puts(&cap, "Each panel is one case on its own scale, the count over each bar.");
    for (int i = 0; i < 3; i++) {
        const cmp_case *c = &s->cases[i];
        size_t v[CMP_MAXROW], nv = 0, lo = SIZE_MAX, hi = 0;
        for (size_t j = 0; j < c->nrows; j++)
            if (!c->rows[j].is_draw && !c->rows[j].rc) {
                v[nv] = c->rows[j].greedy ? 1 : c->rows[j].kept;
                lo = v[nv] < lo ? v[nv] : lo;
                hi = v[nv] > hi ? v[nv] : hi;
                nv++;
            }
        if (!nv)
            continue;
        if (lo == hi) {
            sl_io_buf_printf(&cap, " %s: every framework keeps %zu.", c->title, lo);
            continue;
        }
        /* the count most of them keep, then who keeps another */
        size_t mode = v[0], best = 0;
        for (size_t a2 = 0; a2 < nv; a2++) {
            size_t k = 0;
            for (size_t b2 = 0; b2 < nv; b2++)
                k += v[b2] == v[a2];
            if (k > best)
                best = k, mode = v[a2];
        }
        if (best * 2 > nv) {
            sl_io_buf_printf(&cap, " %s: all keep %zu but", c->title, mode);
            size_t k = 0;
            for (size_t j = 0; j < c->nrows; j++)
                if (!c->rows[j].is_draw && !c->rows[j].rc && (c->rows[j].greedy ? 1 : c->rows[j].kept) != mode)
                    sl_io_buf_printf(&cap, "%s %s (%zu)", k++ ? "," : "", c->rows[j].name,
                                     c->rows[j].greedy ? (size_t)1 : c->rows[j].kept);
            sl_io_buf_puts(&cap, ".");
        } else {
            sl_io_buf_printf(&cap, " %s: from %zu to %zu tokens for the same settings.", c->title, lo, hi);
        }
    }
    sl_report_figure_md(md, "compare_kept", "tokens kept", cap.oom ? "" : cap.data);
    sl_io_buf_free(&cap);
    sl_io_buf_puts(md, "\nRemake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "compare");
    return 0;
}

static void cmp_release(void *state)
{
    cmp_state *s = state;
    for (int i = 0; i < CMP_NCASE; i++) {
        for (size_t j = 0; j < s->cases[i].nrows; j++)
            free(s->cases[i].rows[j].probs);
        sl_base_vec_free(&s->cases[i].own.lvec);
    }
    sl_report_dist_free(&s->k40);
    free(s);
}

const sl_report_section sl_report_section_compare = {"compare", "Same logits, other tokens", cmp_plan, cmp_emit, cmp_release};
