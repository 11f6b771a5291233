/* gof.c — goodness of fit of counts to a reference distribution: Pearson's
 * chi-square and the G-test (likelihood ratio) over pooled cells, total
 * variation, the largest |f - p| and the largest standardized residuals.
 *
 * Pooling follows the usual rule of thumb (Cochran 1954: expected counts of
 * at least 5) made explicit and deterministic; SL_STAT_POOL_RULE in
 * sl_stats.h states it. P-values come from GSL's gsl_cdf_chisq_Q.
 * Tokens with p = 0 are never cells: a single draw there is a failure by
 * itself, reported as `outside`.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "stats/sl_stat.h"

int sl_stat_probs_check(const double *p, size_t V, const char *what, sl_error *err)
{
    if (V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: empty distribution", what);
    double sum = 0;
    for (size_t i = 0; i < V; i++) {
        if (!isfinite(p[i]))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is not finite", what, i);
        if (p[i] < 0)
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is negative (%.17g)", what, i, p[i]);
        sum += p[i];
    }
    if (!(fabs(sum - 1.0) <= 1e-9))
        return sl_base_error_set(err, SL_EINVAL, "%s: probabilities sum to %.17g, not 1", what, sum);
    return SL_OK;
}

typedef struct small_cell {
    double e;
    size_t tok;
} small_cell;

static int small_cmp(const void *a, const void *b)
{
    const small_cell *x = a, *y = b;
    if (x->e < y->e) return -1;
    if (x->e > y->e) return 1;
    return (x->tok > y->tok) - (x->tok < y->tok);
}

void sl_stat_cells_free(sl_stat_cells *c)
{
    free(c->cell_of);
    free(c->expected);
    memset(c, 0, sizeof *c);
}

int sl_stat_cells_build(sl_stat_cells *c, const double *p, size_t V, uint64_t n,
                        double min_expected, sl_error *err)
{
    memset(c, 0, sizeof *c);
    int rc = sl_stat_probs_check(p, V, "reference distribution", err);
    if (rc)
        return rc;
    if (n == 0)
        return sl_base_error_set(err, SL_EINVAL, "no draws");
    c->v = V;
    c->n = n;
    c->min_expected = min_expected;
    c->cell_of = malloc(V * sizeof *c->cell_of);
    c->expected = malloc(V * sizeof *c->expected);
    small_cell *small = malloc(V * sizeof *small);
    if (!c->cell_of || !c->expected || !small) {
        free(small);
        sl_stat_cells_free(c);
        return sl_base_error_set(err, SL_ENOMEM, "cells: out of memory for %zu tokens", V);
    }
    size_t nsmall = 0, ncell = 0;
    double N = (double)n;
    for (size_t i = 0; i < V; i++) {
        if (p[i] == 0) {
            c->cell_of[i] = SIZE_MAX;
            continue;
        }
        c->support++;
        double e = N * p[i];
        if (e >= min_expected) {
            c->cell_of[i] = ncell;
            c->expected[ncell++] = e;
        } else {
            small[nsmall].e = e;
            small[nsmall].tok = i;
            nsmall++;
        }
    }
    qsort(small, nsmall, sizeof *small, small_cmp);
    /* Greedy grouping in increasing expectation. */
    size_t first_group = ncell, group_start = 0;
    size_t prev_group = SIZE_MAX;
    double acc = 0;
    size_t members = 0;
    for (size_t j = 0; j < nsmall; j++) {
        if (members == 0) {
            group_start = j;
            acc = 0;
        }
        acc += small[j].e;
        members++;
        if (acc >= min_expected || j + 1 == nsmall) {
            size_t cell;
            if (acc < min_expected && j + 1 == nsmall) {
                /* Short last group: join the previous small group, or the
                 * smallest big cell, or stand alone if nothing else exists. */
                if (prev_group != SIZE_MAX) {
                    cell = prev_group;
                } else if (first_group > 0) {
                    cell = 0;
                    for (size_t k = 1; k < first_group; k++)
                        if (c->expected[k] < c->expected[cell])
                            cell = k;
                } else {
                    cell = ncell;
                    c->expected[ncell++] = 0;
                }
                c->expected[cell] += acc;
            } else {
                cell = ncell;
                c->expected[ncell++] = acc;
                prev_group = cell;
            }
            for (size_t k = group_start; k <= j; k++)
                c->cell_of[small[k].tok] = cell;
            members = 0;
        }
    }
    free(small);
    c->ncells = ncell;
    /* Count the tokens sharing a cell, for the printed rule. */
    size_t *sizes = calloc(ncell ? ncell : 1, sizeof *sizes);
    if (!sizes) {
        sl_stat_cells_free(c);
        return sl_base_error_set(err, SL_ENOMEM, "cells: out of memory for %zu cells", ncell);
    }
    for (size_t i = 0; i < V; i++)
        if (c->cell_of[i] != SIZE_MAX)
            sizes[c->cell_of[i]]++;
    for (size_t k = 0; k < ncell; k++)
        if (sizes[k] > 1) {
            c->pooled_cells++;
            c->pooled_tokens += sizes[k];
        }
    free(sizes);
    return SL_OK;
}

int sl_stat_chi2_g(const sl_stat_cells *c, const uint64_t *counts, double *chi2, double *g,
                   uint64_t *outside, sl_error *err)
{
    /* Observed per cell; cells are few compared with V only after heavy
     * pooling, so a V-sized scratch is not worth it: accumulate directly. */
    double *obs = calloc(c->ncells ? c->ncells : 1, sizeof *obs);
    uint64_t out = 0;
    if (!obs)
        return sl_base_error_set(err, SL_ENOMEM, "chi-square: out of memory for %zu cells", c->ncells);
    for (size_t i = 0; i < c->v; i++) {
        size_t k = c->cell_of[i];
        if (k == SIZE_MAX)
            out += counts[i];
        else
            obs[k] += (double)counts[i];
    }
    double x2 = 0, gg = 0;
    for (size_t k = 0; k < c->ncells; k++) {
        double e = c->expected[k], o = obs[k], d = o - e;
        x2 += d * d / e;
        /* Deviance form: equals sum O ln(O/E) when the totals agree, and
         * stays >= 0 when draws outside the support leave a deficit. */
        gg += (o > 0 ? o * log(o / e) : 0) - o + e;
    }
    free(obs);
    *chi2 = x2;
    *g = 2 * gg;
    *outside = out;
    return SL_OK;
}

int sl_stat_chisq_q(double x, double df, double *q, sl_error *err)
{
    sl_base_gsl_quiet();
    double r = gsl_cdf_chisq_Q(x, df);
    if (!(r >= 0 && r <= 1))
        return sl_base_error_set(err, SL_EINVAL, "chi-square: gsl_cdf_chisq_Q(%.17g, %.17g) gives %g, not a probability",
                                 x, df, r);
    *q = r;
    return SL_OK;
}

double sl_stat_tv(const double *p, const uint64_t *counts, size_t V, uint64_t n)
{
    double N = (double)n, s = 0;
    for (size_t i = 0; i < V; i++)
        s += fabs((double)counts[i] / N - p[i]);
    return 0.5 * s;
}

/* Keeps the SL_STAT_NRESID largest |r| in descending order (insertion). */
static void resid_offer(sl_stat_gof *o, size_t tok, uint64_t cnt, double e, double r)
{
    size_t n = o->nresid;
    if (n == SL_STAT_NRESID && fabs(r) <= fabs(o->resid[n - 1]))
        return;
    size_t pos = n < SL_STAT_NRESID ? n : n - 1;
    while (pos > 0 && fabs(o->resid[pos - 1]) < fabs(r)) {
        o->resid[pos] = o->resid[pos - 1];
        o->resid_token[pos] = o->resid_token[pos - 1];
        o->resid_count[pos] = o->resid_count[pos - 1];
        o->resid_expected[pos] = o->resid_expected[pos - 1];
        pos--;
    }
    o->resid[pos] = r;
    o->resid_token[pos] = tok;
    o->resid_count[pos] = cnt;
    o->resid_expected[pos] = e;
    if (n < SL_STAT_NRESID)
        o->nresid++;
}

int sl_stat_gof_compute(const double *p, const uint64_t *counts, size_t V, sl_stat_gof *out,
                        sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_stat_gof_compute", out);
    memset(out, 0, sizeof *out);
    if (!V)
        return sl_base_error_set(err, SL_EINVAL, "no tokens (V = 0)");
    if (!p || !counts)
        return sl_base_error_set(err, SL_EINVAL, "no %s (NULL)", p ? "counts" : "reference distribution");
    uint64_t n = 0;
    for (size_t i = 0; i < V; i++) {
        if (counts[i] > UINT64_MAX - n)
            return sl_base_error_set(err, SL_EINVAL, "counts overflow 2^64");
        n += counts[i];
    }
    if (n == 0)
        return sl_base_error_set(err, SL_EINVAL, "no draws");
    sl_stat_cells c;
    int rc = sl_stat_cells_build(&c, p, V, n, 5.0, err);
    if (rc)
        return rc;
    out->n = n;
    out->v = V;
    out->support = c.support;
    out->ncells = c.ncells;
    out->pooled_tokens = c.pooled_tokens;
    out->pooled_cells = c.pooled_cells;
    out->df = (long)c.ncells - 1;
    if ((rc = sl_stat_chi2_g(&c, counts, &out->chi2, &out->g, &out->outside, err))) {
        sl_stat_cells_free(&c);
        return rc;
    }
    if (out->df >= 1) {
        if ((rc = sl_stat_chisq_q(out->chi2, (double)out->df, &out->chi2_p, err)) ||
            (rc = sl_stat_chisq_q(out->g, (double)out->df, &out->g_p, err))) {
            sl_stat_cells_free(&c);
            return rc;
        }
    } else {
        out->chi2_p = out->g_p = 1.0; /* one cell: nothing to test */
    }
    sl_stat_cells_free(&c);

    double N = (double)n;
    out->outside_first = SIZE_MAX;
    out->max_diff = -1;
    double tv = 0;
    for (size_t i = 0; i < V; i++) {
        double f = (double)counts[i] / N, d = fabs(f - p[i]);
        tv += d;
        if (d > out->max_diff) {
            out->max_diff = d;
            out->max_diff_token = i;
        }
        if (p[i] == 0) {
            if (counts[i]) {
                out->outside_tokens++;
                if (out->outside_first == SIZE_MAX)
                    out->outside_first = i;
            }
            continue;
        }
        double e = N * p[i];
        resid_offer(out, i, counts[i], e, ((double)counts[i] - e) / sqrt(e));
    }
    out->tv = 0.5 * tv;
    return SL_OK;
}
