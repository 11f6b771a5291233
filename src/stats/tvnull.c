/* tvnull.c — total variation between the empirical frequencies of N draws
 * and p, under the null hypothesis that the draws come from p.
 *
 * Mean: exact, from de Moivre's closed form for the mean absolute deviation
 * of a binomial, E|X - Np| = 2 nu (1-p) P(X = nu) with nu = floor(Np) + 1
 * (see Diaconis & Zabell, "Closed form summation for classical
 * distributions", Statistical Science 6(3), 1991). The pmf is evaluated in
 * log space with lgamma, so N is not limited to 32 bits.
 * Quantiles: by simulation driven by GSL's mt19937 with a fixed seed, over
 * the support only: each multinomial sample is either gsl_ran_multinomial
 * (conditional binomials, ~65 ns per support token here) or N draws of
 * gsl_ran_discrete (Walker's alias table), whichever the cost model below
 * names for this N and support; both are exact samplers of the same law.
 * The alias draws give gsl_ran_discrete's tokens from the same mt19937 words,
 * but computed here in blocks (base's SIMD MT19937, an integer test per word):
 * ~1.9 ns a draw where the calls took ~14, so `samplab gof` at V = 49,152 and
 * N = 10^5 spends ~37 ms CPU on the null instead of ~273 ms, with the same doubles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/sl_stat.h"

/* E|X - Np| for X ~ Binomial(n, p). */
static double binom_mad(uint64_t n, double p)
{
    if (p <= 0 || p >= 1)
        return 0;
    double N = (double)n;
    double nu = floor(N * p) + 1;
    if (nu > N)
        return 0;
    double lpmf = lgamma(N + 1) - lgamma(nu + 1) - lgamma(N - nu + 1) + nu * log(p) +
                  (N - nu) * log1p(-p);
    return 2 * nu * (1 - p) * exp(lpmf);
}

double sl_stat_tv_null_mean(const double *p, size_t V, uint64_t n)
{
    double s = 0;
    for (size_t i = 0; i < V; i++)
        s += binom_mad(n, p[i]);
    return 0.5 * s / (double)n;
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sl_stat_quantile_sorted(const double *x, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double r = ceil(q * (double)n);
    size_t k = r < 1 ? 0 : (size_t)r - 1;
    if (k >= n)
        k = n - 1;
    return x[k];
}

/* Estimated nanoseconds per multinomial sample (measured on a 2-core x86-64
 * with N calls of gsl_ran_discrete). They choose the sampler and, through
 * sl_stat_tv_null_reps, the number of replicates, so they are part of what a
 * seed reproduces: kept as measured, though the alias draws are faster now. */
static double cost_multinomial(size_t K) { return 65.0 * (double)K; }
static double cost_alias(uint64_t n) { return 10.0 * (double)n; }

static int use_alias(size_t K, uint64_t n)
{
    return cost_alias(n) < cost_multinomial(K);
}

double sl_stat_tv_null_cost(size_t support, uint64_t n)
{
    double a = cost_alias(n), m = cost_multinomial(support);
    return a < m ? a : m;
}

const char *sl_stat_tv_null_sampler(size_t support, uint64_t n)
{
    return use_alias(support, n) ? "N draws of gsl_ran_discrete (Walker alias)"
                                 : "gsl_ran_multinomial (conditional binomials)";
}

/* Walker's alias table of gsl_ran_discrete_preproc in the form one MT19937
 * word decides: gsl_ran_discrete (GSL 2.7.1 randist/discrete.c) takes
 * u = w / 2^32 (gsl_rng_uniform over mt19937), c = (size_t)(u K) and returns c
 * when u < F[c], else A[c]. As w is an integer, u < F[c] iff w < ceil(F[c] 2^32),
 * so an entry is that bound and the alias in one 64-bit word, 8 bytes where GSL
 * reads 16 from two arrays; an entry with F[c] >= 1 always keeps c (alias c). The same token for
 * every word, hence the same counts and TV as N calls of gsl_ran_discrete. */
typedef uint64_t alias_cell; /* low 32 bits: keep c when w < them; high 32: the alias */

static void alias_cells(const gsl_ran_discrete_t *g, alias_cell *cell)
{
    for (size_t c = 0; c < g->K; c++) {
        double b = ceil(g->F[c] * 4294967296.0);
        if (b >= 4294967296.0) /* w < 2^32 always: c whatever the word */
            cell[c] = (uint64_t)c << 32 | UINT32_MAX;
        else
            cell[c] = (uint64_t)g->A[c] << 32 | (b > 0 ? (uint32_t)b : 0);
    }
}

/* TV = 1/2 sum_j |cnt[j]/N - p[j]| of one replicate, summed in token order
 * (the same additions, hence the same double, however it is split up); the
 * quotients of small counts come from a table of the same divisions. Tokens
 * with p = 0 are left out: they never receive draws under the null. */
typedef struct {
    const unsigned int *cnt; /* NULL: nothing to sum */
    const double *p;
    size_t K, j;             /* tokens, next token */
    double s, N;
    const double *q;         /* q[c] = c / N for c < TV_Q */
} tv_sum;
#define TV_Q 64

static inline double tv_term(const tv_sum *a, size_t j)
{
    unsigned int c = a->cnt[j];
    return fabs((c < TV_Q ? a->q[c] : (double)c / a->N) - a->p[j]);
}

static double tv_sum_finish(tv_sum *a)
{
    for (; a->j < a->K; a->j++)
        a->s += tv_term(a, a->j);
    return 0.5 * a->s;
}

/* The token of word w: (w K) >> 32 is u K rounded down while w K < 2^53
 * (exact in a double); past that, GSL's own double product (clamped: GSL
 * would read cell K). */
static inline uint32_t alias_token(const alias_cell *cell, size_t K, uint32_t w, int exact)
{
    size_t c = exact ? (size_t)(((uint64_t)w * K) >> 32) : (size_t)(w / 4294967296.0 * (double)K);
    if (!exact && c >= K)
        c = K - 1;
    /* one 8-byte load, so the compiler has no load of the alias to skip by a
     * branch on a coin toss (clang 14 made one of the struct's: 1.7x slower) */
    alias_cell e = cell[c];
    uint32_t alias = (uint32_t)(e >> 32), keep = 0u - (uint32_t)(w < (uint32_t)e);
    return alias ^ ((alias ^ (uint32_t)c) & keep);
}

/* One block of m words into tokens, the first q of them beside q terms of the
 * previous replicate's TV sum (inlined with exact constant, both ways). */
static inline void alias_block(const alias_cell *cell, size_t K, const uint32_t *w, size_t m, uint32_t *tok,
                               tv_sum *prev, size_t q, int exact)
{
    size_t i = 0, j0 = prev->j;
    double s = prev->s;
    for (; i < q; i++) {
        tok[i] = alias_token(cell, K, w[i], exact);
        s += tv_term(prev, j0 + i);
    }
    for (; i < m; i++)
        tok[i] = alias_token(cell, K, w[i], exact);
    prev->s = s;
    prev->j = j0 + q;
}

/* n draws of gsl_ran_discrete from words of GSL's mt19937 stream (base's
 * block MT19937 seeded as gsl_rng_set seeds it), counted into cnt[0..K).
 * A block of words is first turned into tokens, then counted: mixing the
 * table's loads with the counters' stores ran 2-3 times slower (measured).
 * The previous replicate's TV sum advances `chunk` tokens a block inside the
 * first loop, where its chain of dependent additions costs nothing. */
static void alias_counts(sl_base_mt19937 *mt, const alias_cell *cell, size_t K, uint64_t n, unsigned int *cnt,
                         tv_sum *prev, size_t chunk)
{
    uint32_t w[624], tok[624];
    int exact = K < ((size_t)1 << 21);
    memset(cnt, 0, K * sizeof *cnt);
    while (n) {
        size_t m = n < 624 ? (size_t)n : 624;
        sl_base_mt19937_fill32(mt, w, m);
        size_t q = prev->cnt ? prev->K - prev->j : 0;
        q = q < chunk ? q : chunk;
        q = q < m ? q : m;
        if (exact)
            alias_block(cell, K, w, m, tok, prev, q, 1);
        else
            alias_block(cell, K, w, m, tok, prev, q, 0);
        for (size_t i = 0; i < m; i++)
            cnt[tok[i]]++;
        n -= m;
    }
}

int sl_stat_tv_null_sim(const double *p, size_t V, uint64_t n, size_t reps, unsigned long seed,
                        double *tv, const sl_progress *prog, sl_error *err)
{
    if (n > UINT32_MAX)
        return sl_base_error_set(err, SL_EINVAL, "TV null simulation needs N < 2^32 (N = %llu)",
                            (unsigned long long)n);
    size_t K = 0;
    for (size_t i = 0; i < V; i++)
        K += p[i] > 0;
    int alias = use_alias(K, n);
    double *ps = malloc((K ? K : 1) * sizeof *ps);
    unsigned int *cnt = malloc((K ? K : 1) * sizeof *cnt);
    unsigned int *cnt2 = alias ? malloc((K ? K : 1) * sizeof *cnt2) : NULL;
    alias_cell *cell = alias ? malloc((K ? K : 1) * sizeof *cell) : NULL;
    sl_base_mt19937 *mt = alias ? malloc(sizeof *mt) : NULL;
    sl_base_gsl_quiet();
    gsl_rng *r = alias ? NULL : gsl_rng_alloc(gsl_rng_mt19937);
    gsl_ran_discrete_t *g = NULL;
    if (ps)
        for (size_t i = 0, j = 0; i < V; i++)
            if (p[i] > 0)
                ps[j++] = p[i];
    if (!ps || !cnt || (alias ? !cnt2 || !cell || !mt || !(g = gsl_ran_discrete_preproc(K, ps)) : !r)) {
        free(ps);
        free(cnt);
        free(cnt2);
        free(cell);
        free(mt);
        if (r)
            gsl_rng_free(r);
        return sl_base_error_set(err, SL_ENOMEM, "TV null: out of memory for %zu tokens", K);
    }
    if (alias) {
        alias_cells(g, cell);
        gsl_ran_discrete_free(g);
        /* gsl_rng_set on mt19937 (GSL's rng/mt.c mt_set): seed 0 means 4357,
         * then init_genrand of the seed's low 32 bits */
        sl_base_mt19937_init_genrand(mt, seed ? (uint32_t)(seed & 0xffffffffUL) : 4357u);
    } else {
        gsl_rng_set(r, seed);
    }
    double N = (double)n, q[TV_Q];
    for (unsigned int c = 0; c < TV_Q; c++)
        q[c] = (double)c / N;
    /* two count buffers: replicate t is drawn into one while t-1's TV is summed from the other */
    unsigned int *buf[2] = {cnt, cnt2};
    size_t blocks = (size_t)((n + 623) / 624), chunk = blocks ? (K + blocks - 1) / blocks : K;
    tv_sum prev = {NULL, ps, K, K, 0, N, q};
    int rc = SL_OK;
    for (size_t t = 0; t < reps; t++) {
        if (prog && prog->tick && prog->tick(prog->ctx, t, reps)) {
            rc = sl_base_error_set(err, SL_EINTR, "TV null: interrupted after %zu of %zu replicates", t, reps);
            break;
        }
        unsigned int *cur = alias ? buf[t & 1] : cnt;
        if (alias)
            alias_counts(mt, cell, K, n, cur, &prev, chunk);
        else
            gsl_ran_multinomial(r, K, (unsigned int)n, ps, cur);
        if (prev.cnt)
            tv[t - 1] = tv_sum_finish(&prev);
        prev = (tv_sum){cur, ps, K, 0, 0, N, q};
        if (!alias)
            tv[t] = tv_sum_finish(&prev), prev.cnt = NULL;
    }
    if (!rc && prev.cnt)
        tv[reps - 1] = tv_sum_finish(&prev);
    if (!rc)
        qsort(tv, reps, sizeof *tv, dbl_cmp);
    free(ps);
    free(cnt);
    free(cnt2);
    free(cell);
    free(mt);
    if (r)
        gsl_rng_free(r);
    return rc;
}
