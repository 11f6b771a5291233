/* vocab.c — the vocabularies the report studies, each literal and path in
 * this one place: the weather example and the tie case (embedded, with the
 * data/ files that hold the same logits for replays), the synthetic Zipf-like
 * V = 49,152 vocabulary (SL_REPORT_ZIPF_PATH, or the same kind of vector made
 * in code), the k40p09 vector and the 80-token context of the penalty case;
 * and the input files a report writes so that its replays are exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include "report/sl_report.h"

static const double weather_logits[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
static const double ties_logits[4] = {3, 2, 2, 1};

const sl_report_vocab sl_report_weather = {
    "weather", "logits 4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2 (the weather example)", "data/weather.txt",
    weather_logits, 8};
const sl_report_vocab sl_report_ties = {"ties", "logits 3, 2, 2, 1 (a tie at the 2nd place)", "data/ties.txt",
                                        ties_logits, 4};

int sl_report_dist_from_logits(sl_report_dist *d, const char *name, const char *desc, const double *x, size_t V,
                               sl_error *err)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    snprintf(d->desc, sizeof d->desc, "%s", desc);
    d->V = V;
    int rc;
    if ((rc = sl_base_vec_alloc(&d->lvec, V, name, err)) || (rc = sl_base_vec_alloc(&d->pvec, V, name, err))) {
        sl_report_dist_free(d);
        return rc;
    }
    d->logits = d->lvec.d;
    d->p = d->pvec.d;
    for (size_t i = 0; i < V; i++) {
        d->lvec.d[i] = x[i];
        d->lvec.f[i] = (float)x[i];
    }
    rc = sl_logits_softmax(d->logits, V, 1.0, d->p, err);
    for (size_t i = 0; !rc && i < V; i++)
        d->pvec.f[i] = (float)d->p[i];
    if (rc)
        sl_report_dist_free(d);
    return rc;
}

int sl_report_dist_from_vocab(sl_report_dist *d, const sl_report_vocab *v, sl_error *err)
{
    int rc = sl_report_dist_from_logits(d, v->name, v->desc, v->logits, v->V, err);
    if (!rc)
        d->src = v->src;
    return rc;
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

int sl_report_dist_read(sl_report_dist *d, const char *name, const char *path, sl_error *err)
{
    memset(d, 0, sizeof *d);
    int rc = sl_io_vec_read(path, NULL, -1, &d->lvec, err);
    if (rc)
        return rc;
    snprintf(d->name, sizeof d->name, "%s", name);
    d->src = path;
    d->V = d->lvec.n;
    d->logits = d->lvec.d;
    return 0;
}

void sl_report_dist_free(sl_report_dist *d)
{
    sl_base_vec_free(&d->lvec);
    sl_base_vec_free(&d->pvec);
    memset(d, 0, sizeof *d);
}

int sl_report_zipf_present(void)
{
    return access(SL_REPORT_ZIPF_PATH, R_OK) == 0;
}

/* The vocabulary the large-V studies run on: --logits, else the committed
 * synthetic file, else the Zipf-like vector of the same size made in code. */
static int big_open(sl_report_dist *d, const sl_report_opts *o, const char *replay, sl_error *err)
{
    sl_vec v;
    int rc;
    if (o->logits) {
        if ((rc = sl_io_vec_read_as(o->logits, o->logits_opt, o->tensor, o->row, &v, err)))
            return rc;
        char desc[4096 + 64];
        snprintf(desc, sizeof desc, "logits read from %s", replay);
        rc = sl_report_dist_from_logits(d, "logits", desc, v.d, v.n, err);
        sl_base_vec_free(&v);
        if (rc) {
            /* the softmax's message names the entry; add the file, as draw does */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            return sl_base_error_set(err, rc, "%s: %s", o->logits, msg);
        }
        d->src = replay;
        return 0;
    }
    if (!sl_io_vec_read(SL_REPORT_ZIPF_PATH, NULL, -1, &v, err)) {
        rc = sl_report_dist_from_logits(d, "synthetic49152",
                                        SL_REPORT_ZIPF_PATH ": Zipf-like, logit of rank r = -1.1 ln r + U(-0.25, 0.25), "
                                        "ranks randomly permuted (analysis/make_synthetic_vocab.py)",
                                        v.d, v.n, err);
        sl_base_vec_free(&v);
    } else
        rc = sl_report_dist_zipf(d, SL_REPORT_ZIPF_V, err);
    if (!rc)
        d->src = SL_REPORT_ZIPF_PATH;
    return rc;
}

int sl_report_vocab_open(sl_report_ctx *ctx, const sl_report_opts *o, sl_error *err)
{
    int rc;
    if ((rc = sl_report_dist_from_vocab(&ctx->weather, &sl_report_weather, err)) ||
        (rc = sl_report_dist_from_vocab(&ctx->ties, &sl_report_ties, err)) ||
        (rc = big_open(&ctx->big, o, ctx->logits_src, err))) {
        sl_report_vocab_close(ctx);
        return rc;
    }
    ctx->main = o->logits ? &ctx->big : &ctx->weather;
    return 0;
}

void sl_report_vocab_close(sl_report_ctx *ctx)
{
    sl_report_dist_free(&ctx->weather);
    sl_report_dist_free(&ctx->ties);
    sl_report_dist_free(&ctx->big);
    ctx->main = NULL;
}

typedef struct ranked {
    double p;
    size_t i;
} ranked;

static int ranked_cmp(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->p != b->p)
        return a->p > b->p ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

int sl_report_rank_order(const double *p, size_t V, size_t **order, sl_error *err)
{
    ranked *r = malloc((V ? V : 1) * sizeof *r);
    size_t *o = malloc((V ? V : 1) * sizeof *o);
    if (!r || !o) {
        free(r);
        free(o);
        return sl_base_error_set(err, SL_ENOMEM, "report: out of memory for the rank order of %zu tokens", V);
    }
    for (size_t i = 0; i < V; i++) {
        r[i].p = p[i];
        r[i].i = i;
    }
    qsort(r, V, sizeof *r, ranked_cmp);
    for (size_t i = 0; i < V; i++)
        o[i] = r[i].i;
    free(r);
    *order = o;
    return 0;
}

void sl_report_context_ids(long *ids)
{
    for (size_t i = 0; i < SL_REPORT_CONTEXT_N; i++)
        ids[i] = i < 16 ? 0 : (long)(3 + (i - 16) % 5);
}

/* Writes OUTDIR/inputs/NAME from b (freed here either way). */
static int input_write(const sl_report_ctx *ctx, const char *name, sl_buf *b, sl_error *err)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/inputs", ctx->outdir);
    int rc = sl_io_mkdir_p(path, err);
    if (!rc) {
        snprintf(path, sizeof path, "inputs/%s", name);
        rc = sl_report_write(ctx, path, b, err);
    }
    sl_io_buf_free(b);
    return rc;
}

int sl_report_inputs_write(const sl_report_ctx *ctx, sl_error *err)
{
    const sl_report_dist *w[2] = {ctx->main, &ctx->ties};
    for (int k = 0; k < 2; k++) {
        sl_buf b;
        sl_io_buf_init(&b);
        sl_io_buf_printf(&b, "# softmax of %s (%s), %%.17g; written by samplab report\n", w[k]->name, w[k]->desc);
        for (size_t i = 0; i < w[k]->V; i++)
            sl_io_buf_printf(&b, "%.17g\n", w[k]->p[i]);
        char name[128];
        snprintf(name, sizeof name, "%s_probs.txt", w[k]->name);
        int rc = input_write(ctx, name, &b, err);
        if (rc)
            return rc;
    }
    return 0;
}

int sl_report_context_write(const sl_report_ctx *ctx, sl_error *err)
{
    long ids[SL_REPORT_CONTEXT_N];
    sl_report_context_ids(ids);
    sl_buf b;
    sl_io_buf_init(&b);
    sl_io_buf_puts(&b, "# context of the repetition-penalty case: token 0 x16, then 64 ids cycling 3..7\n");
    for (size_t i = 0; i < SL_REPORT_CONTEXT_N; i++)
        sl_io_buf_printf(&b, "%ld\n", ids[i]);
    return input_write(ctx, SL_REPORT_CONTEXT_FILE, &b, err);
}
