/* exact_data.c — data for the report section on exact induced distributions:
 * for each audited sampler on the embedded distributions, induced against ideal
 * probability of the tail tokens (a log-log figure), the exact TV, and the table
 * of failure-path probabilities per call and per 10^9 calls.
 *
 * Distributions: the tutorial's weather logits (T = 1), softmax([3,2,2,1]), the
 * weather logits with a top-3 filter (the tail set to probability 0, as a filtered
 * pipeline leaves it), the same with top-4 (where the linear fallback fires), and
 * the synthetic Zipf-like V = 49152 vocabulary (logits read from a file,
 * normally SL_REPORT_ZIPF_PATH). The embedded vectors are the report's own
 * (vocab.c). Float32 samplers get
 * float32 probabilities: candle's own float32 softmax for candle,
 * float32(float64 softmax) for torch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

static const sl_stat_exact_type *const report_types[] = {
    &sl_draw_rand_wi_exact, &sl_draw_numpy_exact, &sl_draw_torch_repl_exact, &sl_fw_gsl_exact,
    &sl_draw_cdf_exact, &sl_draw_alias_exact, &sl_draw_linear_exact, &sl_draw_llama_dist_exact,
    &sl_draw_torch_race_exact, NULL
};

#define ZIPF_CASE "zipf49152"
#define ZIPF_T08_CASE ZIPF_CASE "_t08"

const char *sl_report_exact_tail_case(int with_zipf)
{
    return with_zipf ? ZIPF_T08_CASE : sl_report_weather.name;
}

/* Writes text to dir/name (sl_io_write_atomic). */
static int write_file(const char *dir, const char *name, const char *text, size_t len, sl_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return sl_io_write_atomic(path, text ? text : "", len, err);
}

static double per_billion(double p)
{
    return p >= 1 ? 1 : -expm1(1e9 * log1p(-p));
}

/* One distribution: runs every sampler, appends to the failure and summary tables,
 * writes exact_tail_<name>.dat. */
static int report_one(const char *dir, const char *name, const double *logits, size_t V, double T, FILE *fail,
                      FILE *sum, sl_error *err)
{
    int rc = SL_ENOMEM;
    double *pd = malloc(V * sizeof *pd);
    float *pf = malloc(V * sizeof *pf), *pc = malloc(V * sizeof *pc), *lf = malloc(V * sizeof *lf);
    float *lt = malloc(V * sizeof *lt);
    size_t *order = NULL;
    size_t ntypes = 0;
    while (report_types[ntypes])
        ntypes++;
    sl_stat_exact_result *res = calloc(ntypes, sizeof *res);
    char *buf = NULL;
    size_t blen = 0;
    FILE *tail = NULL;
    if (!pd || !pf || !pc || !lf || !lt || !res) {
        rc = sl_base_error_set(err, SL_ENOMEM, "exact report: %s: out of memory for %zu tokens", name, V);
        goto out;
    }
    for (size_t i = 0; i < V; i++)
        lf[i] = (float)logits[i];
    if ((rc = sl_logits_softmax(logits, V, T, pd, err)) || (rc = sl_logits_candle_check(lf, V, err)))
        goto out;
    sl_logits_candle_softmax(lf, V, T, 0, pc); /* candle's own softmax, sequential sum */
    for (size_t i = 0; i < V; i++) {
        pf[i] = (float)pd[i];
        lt[i] = T == 1.0 ? lf[i] : lf[i] / (float)T; /* llama.cpp's temperature, in float32 */
    }
    for (size_t t = 0; t < ntypes; t++) {
        sl_stat_exact_input in;
        memset(&in, 0, sizeof in);
        in.V = V;
        in.d = pd;
        in.f = (report_types[t]->input & SL_STAT_EXACT_CANDLE_F32) ? pc : pf;
        in.dtype = (report_types[t]->input & SL_STAT_EXACT_TEXT_F32) ? SL_F32 : SL_F64;
        in.source = name;
        in.logits_f = lt;
        if ((rc = sl_stat_exact_run(report_types[t], &in, &res[t], err)))
            goto out;
        const sl_stat_exact_result *r = &res[t];
        fprintf(sum, "%s\t%s\t%.17g\t%s\t%zu\t%zu\t%ld\t%.6g\n", name, r->sampler,
                r->has_counts ? r->tv : r->tv_bound, r->has_counts ? "exact" : "bound", r->n_never,
                r->n_zero_drawn, r->worst, r->worst >= 0 ? r->worst_rel : 0.0);
        for (size_t k = 0; k < r->n_paths; k++) {
            const sl_stat_exact_path *p = &r->paths[k];
            if (!strcmp(p->name, "subnormal_scale"))
                continue; /* a note, not a failure */
            char rat[96] = "-";
            if (p->has_rational)
                sl_stat_exact_rational_format(p->num, p->bits, rat, sizeof rat);
            fprintf(fail, "%s\t%s\t%s\t%.6g\t%.6g\t%s\t%s\t%ld\n", name, r->sampler, p->name, p->prob,
                    per_billion(p->prob), p->exact ? "exact" : "bound", rat, p->token);
        }
    }
    /* tail tokens by ideal rank: all of them for small V; for large V log-spaced
     * ranks from 1 and the last 200 ranks */
    if ((rc = sl_report_rank_order(res[0].ideal, V, &order, err)))
        goto out;
    tail = open_memstream(&buf, &blen);
    if (!tail) {
        rc = sl_base_error_set(err, SL_ENOMEM, "exact report: %s: out of memory for the tail table", name);
        goto out;
    }
    fprintf(tail, "# samplab %s exact audit: induced vs ideal probability, distribution %s (V = %zu)\n",
            SL_VERSION, name, V);
    fprintf(tail, "# ideal = float64 softmax at T = %g; induced = exact count/2^bits (0 = never drawn)\n"
                  "# rank\ttoken\tideal", T);
    for (size_t t = 0; t < ntypes; t++)
        if (res[t].has_counts)
            fprintf(tail, "\t%s", res[t].sampler);
    fputc('\n', tail);
    size_t next_log = 1;
    for (size_t k = 0; k < V; k++) {
        size_t rank = k + 1;
        int keep = V <= 256 || rank + 200 > V || rank == next_log;
        if (rank == next_log)
            next_log = (size_t)ceil((double)next_log * 1.05) > next_log ? (size_t)ceil((double)next_log * 1.05)
                                                                        : next_log + 1;
        if (!keep)
            continue;
        size_t i = order[k];
        fprintf(tail, "%zu\t%zu\t%.17g", rank, i, res[0].ideal[i]);
        for (size_t t = 0; t < ntypes; t++)
            if (res[t].has_counts)
                fprintf(tail, "\t%.17g", sl_stat_exact_prob(res[t].count[i], res[t].bits));
        fputc('\n', tail);
    }
    int bad = ferror(tail);
    bad |= fclose(tail) != 0; /* a memory stream fails on flush when it cannot grow */
    tail = NULL;
    if (bad) {
        rc = sl_base_error_set(err, SL_ENOMEM, "exact report: %s: out of memory for the tail table", name);
        goto out;
    }
    char fname[256];
    snprintf(fname, sizeof fname, "exact_tail_%s.dat", name);
    rc = write_file(dir, fname, buf, blen, err);
out:
    if (tail)
        fclose(tail);
    for (size_t t = 0; res && t < ntypes; t++)
        sl_stat_exact_result_free(&res[t]);
    free(res);
    free(buf);
    free(pd);
    free(pf);
    free(pc);
    free(lf);
    free(lt);
    free(order);
    return rc;
}

int sl_report_exact_data(const char *dir, const char *zipf_logits, sl_error *err)
{
    const sl_report_vocab *w = &sl_report_weather, *t = &sl_report_ties;
    char *fbuf = NULL, *sbuf = NULL;
    size_t flen = 0, slen = 0;
    FILE *fail = NULL, *sum = NULL;
    double *top3 = malloc(w->V * sizeof *top3), *top4 = malloc(w->V * sizeof *top4);
    int rc = SL_OK;
    if (!top3 || !top4) {
        rc = sl_base_error_set(err, SL_ENOMEM, "exact report: out of memory for the filtered vectors");
        goto out;
    }
    for (size_t i = 0; i < w->V; i++) {
        top3[i] = i < 3 ? w->logits[i] : -INFINITY;
        top4[i] = i < 4 ? w->logits[i] : -INFINITY;
    }
    fail = open_memstream(&fbuf, &flen);
    sum = open_memstream(&sbuf, &slen);
    if (!fail || !sum) {
        rc = sl_base_error_set(err, SL_ENOMEM, "exact report: out of memory for the summary tables");
        goto out;
    }
    fprintf(fail, "# samplab %s exact audit: failure paths per call and in 10^9 calls\n"
                  "# dist\tsampler\tpath\tper_call\tper_1e9_calls\texact_or_bound\trational\ttoken\n", SL_VERSION);
    fprintf(sum, "# samplab %s exact audit: TV(induced, ideal) per sampler (bound = rigorous upper bound)\n"
                 "# dist\tsampler\ttv\texact_or_bound\tnever_drawn\tzero_p_drawn\tworst_token\tworst_rel_error\n",
            SL_VERSION);
    char top3_name[64], top4_name[64];
    snprintf(top3_name, sizeof top3_name, "%s_top3", w->name);
    snprintf(top4_name, sizeof top4_name, "%s_top4", w->name);
    if ((rc = report_one(dir, w->name, w->logits, w->V, 1.0, fail, sum, err)))
        goto out;
    if ((rc = report_one(dir, t->name, t->logits, t->V, 1.0, fail, sum, err)))
        goto out;
    if ((rc = report_one(dir, top3_name, top3, w->V, 1.0, fail, sum, err)))
        goto out;
    /* top-4: the normalised float64 probabilities sum to 1 - 2^-53, so the linear
     * scan's fallback hands 1/2^53 to the filtered last token */
    if ((rc = report_one(dir, top4_name, top4, w->V, 1.0, fail, sum, err)))
        goto out;
    if (zipf_logits) {
        sl_vec v;
        if ((rc = sl_io_vec_read(zipf_logits, NULL, -1, &v, err)))
            goto out;
        rc = report_one(dir, ZIPF_CASE, v.d, v.n, 1.0, fail, sum, err);
        /* T = 0.8 sharpens the tail below candle's 2^-23 grid: 586 tokens never drawn */
        if (!rc)
            rc = report_one(dir, ZIPF_T08_CASE, v.d, v.n, 0.8, fail, sum, err);
        sl_base_vec_free(&v);
        if (rc)
            goto out;
    }
    int bad = ferror(fail) | ferror(sum);
    bad |= fclose(fail) != 0; /* a memory stream fails on flush when it cannot grow */
    bad |= fclose(sum) != 0;
    fail = sum = NULL;
    if (bad) {
        rc = sl_base_error_set(err, SL_ENOMEM, "exact report: out of memory for the summary tables");
        goto out;
    }
    if ((rc = write_file(dir, "exact_failures.dat", fbuf, flen, err)))
        goto out;
    rc = write_file(dir, "exact_summary.dat", sbuf, slen, err);
out:
    if (fail)
        fclose(fail);
    if (sum)
        fclose(sum);
    free(fbuf);
    free(sbuf);
    free(top3);
    free(top4);
    return rc;
}
