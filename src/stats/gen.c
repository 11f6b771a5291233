/* gen.c — statistics of a generation log: T steps, each with its own claimed
 * distribution p_t (V weights) and an observed token x_t. The layer sees only
 * these vectors and tokens, never a sampler.
 *
 * Three things are judged (the verdict combines them):
 *  - outside the kept set: p_t(x_t) = 0 fails outright;
 *  - the randomised probability integral transform: tokens ordered by
 *    decreasing p_t (ties by id), F- = the mass before x_t, u_t = F- + U p_t(x_t)
 *    with U uniform. Under the claim the u_t are independent Uniform(0,1)
 *    exactly, whatever the history (each is uniform given the past), so their
 *    KS test is exact; ordering by probability makes a too-hot or too-cold
 *    sampler push u toward 1 or 0;
 *  - the log-likelihood L = sum_t log p_t(x_t), against its exact mean
 *    sum_t sum_i p_ti log p_ti and variance sum_t Var_t(log p_t(X)) under the
 *    claim (the steps' terms are martingale differences, so the variances add),
 *    as a two-sided z-test (normal approximation: good once T is in the tens).
 * The verdict's p-value is Bonferroni's min(1, 2 min(p_KS, p_LL)), 0 with any
 * step outside the kept set: never above its level under the claim
 * (conservative, not uniform). The uniforms U come from splitmix64 seeded with
 * SL_STAT_GEN_SEED, so a log always gets the same answer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "stats/sl_stat.h"

static uint64_t smix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* a double in [0, 1) from the top 53 bits */
static double unif(uint64_t *s)
{
    return (double)(smix(s) >> 11) * 0x1p-53;
}

int sl_stat_gen_init(sl_stat_gen *g, size_t T, uint64_t seed, sl_error *err)
{
    memset(g, 0, sizeof *g);
    g->cap = T ? T : 1;
    g->pit = malloc(g->cap * sizeof *g->pit);
    if (!g->pit)
        return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu steps", T);
    g->state = seed;
    return SL_OK;
}

void sl_stat_gen_free(sl_stat_gen *g)
{
    free(g->pit);
    memset(g, 0, sizeof *g);
}

#define NZ_BLOCKS 512 /* eight-entry blocks with a weight, listed for the moments pass */

/* Checks the weights: finite, >= 0 (the first bad one is named). Eight at a time
 * (SSE2) where it can; when blk is given, the starts of the eight-entry blocks
 * holding a weight go there (at most NZ_BLOCKS, else *nblk = SIZE_MAX) and *done
 * is where the blocks end, so a filtered row's moments visit only those blocks. */
static int weights_check(const double *w, size_t V, size_t step, uint32_t *blk, size_t *nblk, size_t *done,
                         sl_error *err)
{
    size_t i = 0, nb = 0;
    (void)blk;
#if defined(__SSE2__)
    __m128d zero = _mm_setzero_pd(), inf = _mm_set1_pd(INFINITY);
    for (; i + 8 <= V; i += 8) {
        __m128d a = _mm_loadu_pd(w + i), b = _mm_loadu_pd(w + i + 2);
        __m128d c = _mm_loadu_pd(w + i + 4), d = _mm_loadu_pd(w + i + 6);
        /* each w >= 0 and w < inf, or the scalar loop below names the entry */
        __m128d ok = _mm_and_pd(_mm_and_pd(_mm_and_pd(_mm_cmpge_pd(a, zero), _mm_cmplt_pd(a, inf)),
                                           _mm_and_pd(_mm_cmpge_pd(b, zero), _mm_cmplt_pd(b, inf))),
                                _mm_and_pd(_mm_and_pd(_mm_cmpge_pd(c, zero), _mm_cmplt_pd(c, inf)),
                                           _mm_and_pd(_mm_cmpge_pd(d, zero), _mm_cmplt_pd(d, inf))));
        if (_mm_movemask_pd(ok) != 3)
            break;
        __m128d nz = _mm_or_pd(_mm_or_pd(_mm_cmpneq_pd(a, zero), _mm_cmpneq_pd(b, zero)),
                               _mm_or_pd(_mm_cmpneq_pd(c, zero), _mm_cmpneq_pd(d, zero)));
        if (!_mm_movemask_pd(nz))
            continue;
        if (blk && nb < NZ_BLOCKS && i <= UINT32_MAX)
            blk[nb] = (uint32_t)i;
        nb++;
    }
#endif
    size_t end = i;
    for (; i < V; i++)
        if (!(w[i] >= 0) || isinf(w[i]))
            return sl_base_error_set(err, SL_EINVAL, "step %zu: probability %zu is %.17g", step, i, w[i]);
    if (nblk) {
        *nblk = nb <= NZ_BLOCKS && V <= UINT32_MAX ? nb : SIZE_MAX;
        *done = end;
    }
    return SL_OK;
}

/* Sums of a step's weights, each kept in four lanes (lane j mod 4 of entry j) and
 * added lane by lane at the end: the four chains run side by side (one chain of
 * dependent adds per row was half of check's time at V = 32,000), four lanes are
 * one AVX2 register, and the result is the same at every SIMD level and whichever
 * blocks are visited. */
typedef struct moments {
    double s[4], a[4], b[4], bef[4]; /* sum w, sum w l, sum w l^2 (l = log w - K), weight ranked before x */
} moments;

#define MCHUNK 256 /* logs taken a chunk at a time (sl_base_log_n), then the sums */

/* One entry into its lane k, its log less K (the caller's); a zero weight adds +0 to
 * each sum (its l is taken as 0). */
#define MOMENT_ADD(k, wi, Li, ranked)                                                                             \
    do {                                                                                                           \
        double l_ = (wi) > 0 ? (Li) - K : 0.0;                                                                     \
        s[k] += (wi);                                                                                              \
        a[k] += (wi) * l_;                                                                                         \
        b[k] += (wi) * l_ * l_;                                                                                    \
        bef[k] += (ranked) ? (wi) : 0.0;                                                                           \
    } while (0)

#if SL_BASE_HAVE_AVX2
#include <immintrin.h>
/* whole groups of four from j (a multiple of 4) to hi: MOMENT_ADD, four lanes at once */
__attribute__((target("avx2"))) static size_t groups_avx2(double *s, double *a, double *b, double *bef,
                                                          const double *w, const double *L, size_t j, size_t hi,
                                                          double wx, double K, int below_x)
{
    __m256d S = _mm256_loadu_pd(s), A = _mm256_loadu_pd(a), B = _mm256_loadu_pd(b), E = _mm256_loadu_pd(bef);
    const __m256d X = _mm256_set1_pd(wx), Z = _mm256_setzero_pd(), KK = _mm256_set1_pd(K);
    for (; j + 4 <= hi; j += 4) {
        __m256d wi = _mm256_loadu_pd(w + j);
        __m256d l = _mm256_and_pd(_mm256_cmp_pd(wi, Z, _CMP_GT_OQ), _mm256_sub_pd(_mm256_loadu_pd(L + j), KK));
        __m256d r = below_x ? _mm256_cmp_pd(wi, X, _CMP_GE_OQ) : _mm256_cmp_pd(wi, X, _CMP_GT_OQ);
        __m256d wl = _mm256_mul_pd(wi, l);
        S = _mm256_add_pd(S, wi);
        A = _mm256_add_pd(A, wl);
        B = _mm256_add_pd(B, _mm256_mul_pd(wl, l));
        E = _mm256_add_pd(E, _mm256_and_pd(r, wi));
    }
    _mm256_storeu_pd(s, S);
    _mm256_storeu_pd(a, A);
    _mm256_storeu_pd(b, B);
    _mm256_storeu_pd(bef, E);
    return j;
}
#endif

/* Entries lo..hi of a chunk that starts at a multiple of 4, with their logs L (less K). Ranked
 * before x (decreasing weight, ties by id) is w > wx, or w = wx with a smaller id: so
 * w >= wx for entries below x (below_x) and w > wx for the others. */
static void chunk_add(moments *m, const double *w, const double *L, size_t lo, size_t hi, double wx, double K,
                      int below_x, int level)
{
    double s[4], a[4], b[4], bef[4];
    memcpy(s, m->s, sizeof s);
    memcpy(a, m->a, sizeof a);
    memcpy(b, m->b, sizeof b);
    memcpy(bef, m->bef, sizeof bef);
    size_t j = lo;
    for (; j < hi && (j & 3); j++)
        MOMENT_ADD(j & 3, w[j], L[j], below_x ? w[j] >= wx : w[j] > wx);
#if SL_BASE_HAVE_AVX2
    if (level == SL_SIMD_AVX2)
        j = groups_avx2(s, a, b, bef, w, L, j, hi, wx, K, below_x);
#endif
    (void)level;
    for (; j + 4 <= hi; j += 4)
#pragma GCC unroll 4
        for (size_t k = 0; k < 4; k++)
            MOMENT_ADD(k, w[j + k], L[j + k], below_x ? w[j + k] >= wx : w[j + k] > wx);
    for (; j < hi; j++)
        MOMENT_ADD(j & 3, w[j], L[j], below_x ? w[j] >= wx : w[j] > wx);
    memcpy(m->s, s, sizeof s);
    memcpy(m->a, a, sizeof a);
    memcpy(m->b, b, sizeof b);
    memcpy(m->bef, bef, sizeof bef);
}

/* entries lo..hi of the row, lo a multiple of 4; the logs shifted by K */
static void moments_add(moments *m, const double *w, size_t lo, size_t hi, double wx, size_t x, double K,
                        int level)
{
    double L[MCHUNK];
    for (size_t c = lo; c < hi; c += MCHUNK) {
        size_t n = hi - c < MCHUNK ? hi - c : MCHUNK;
        const double *wc = w + c;
        sl_base_log_n(wc, L, n, level);
        size_t cut = x <= c ? 0 : x - c < n ? x - c : n; /* the chunk's entries below x */
        chunk_add(m, wc, L, 0, cut, wx, K, 1, level);
        chunk_add(m, wc, L, cut, n, wx, K, 0, level);
    }
}

static double lanes(const double v[4])
{
    return (v[0] + v[1]) + (v[2] + v[3]);
}

/* The step's moments under p = w / S: with l = log w - K, log p = l + K - log S,
 * so E log p = A/S + K - log S and Var log p = B/S - (A/S)^2. K is log w_x (the
 * largest log weight without a token): a near-flat row's log p all lie within
 * 1e-7 of K, and its variance of 1e-14 survives, where the unshifted B/S -
 * (A/S)^2 lost it to cancellation (0, and a real transformers 5.12.1
 * generation rejected at p = 0). *dev = log p_x - E log p = -A/S (x < V). */
static int step_moments(const double *w, size_t V, size_t x, size_t step, int simd, double *sum, double *mean,
                        double *var, double *before, double *dev, sl_error *err)
{
    uint32_t blk[NZ_BLOCKS];
    size_t nblk = SIZE_MAX, done = 0;
    int rc = weights_check(w, V, step, blk, &nblk, &done, err);
    if (rc)
        return rc;
    moments m;
    memset(&m, 0, sizeof m);
    double wx = x < V ? w[x] : -1, wk = wx;
    if (!(wk > 0)) {
        wk = 0;
        for (size_t i = 0; i < V; i++)
            wk = w[i] > wk ? w[i] : wk;
    }
    double K = wk > 0 ? sl_base_log(wk) : 0;
    int level = sl_base_simd_level(simd);
    if (nblk != SIZE_MAX) {
        for (size_t b = 0; b < nblk; b++)
            moments_add(&m, w, blk[b], blk[b] + 8, wx, x, K, level);
        moments_add(&m, w, done, V, wx, x, K, level);
    } else {
        moments_add(&m, w, 0, V, wx, x, K, level);
    }
    double S = lanes(m.s);
    if (!(S > 0) || isinf(S))
        return sl_base_error_set(err, SL_EINVAL, isinf(S) ? "step %zu: the probabilities sum to infinity"
                                                          : "step %zu: the probabilities are all zero", step);
    double e = lanes(m.a) / S, v = lanes(m.b) / S - e * e;
    *sum = S;
    *mean = e + K - sl_base_log(S);
    *dev = x < V && wx > 0 ? -e : 0;
    *var = v > 0 ? v : 0;
    *before = lanes(m.bef) / S;
    return SL_OK;
}

int sl_stat_gen_step_at(const double *w, size_t V, size_t x, size_t step, int simd, sl_stat_gen_one *o,
                        sl_error *err)
{
    memset(o, 0, sizeof *o);
    if (x >= V)
        return sl_base_error_set(err, SL_EINVAL, "step %zu: token %zu is not below V = %zu", step, x, V);
    double sum;
    int rc = step_moments(w, V, x, step, simd, &sum, &o->mean, &o->var, &o->before, &o->dev, err);
    if (rc)
        return rc;
    o->px = w[x] / sum;
    return SL_OK;
}

int sl_stat_gen_step(const double *w, size_t V, size_t x, size_t step, sl_stat_gen_one *o, sl_error *err)
{
    return sl_stat_gen_step_at(w, V, x, step, SL_SIMD_AUTO, o, err);
}

int sl_stat_gen_add(sl_stat_gen *g, const sl_stat_gen_one *o, sl_error *err)
{
    if (g->t == g->cap) {
        size_t nc = 2 * g->cap;
        double *np = realloc(g->pit, nc * sizeof *np);
        if (!np)
            return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu steps", nc);
        g->pit = np;
        g->cap = nc;
    }
    double u = unif(&g->state); /* drawn for every step, so step t's U never depends on other steps' outcomes */
    if (o->px == 0) {
        g->outside++;
        g->t++;
        return SL_OK;
    }
    double v = o->before + u * o->px;
    g->pit[g->n_pit++] = v < 1 ? v : 1;
    g->ll += log(o->px);
    g->ll_mean += o->mean;
    g->ll_var += o->var;
    g->ll_dev += o->dev;
    g->t++;
    return SL_OK;
}

int sl_stat_gen_finish(const sl_stat_gen *g, double alpha, sl_stat_gen_result *r, sl_error *err)
{
    memset(r, 0, sizeof *r);
    r->steps = g->t;
    r->outside = g->outside;
    r->ll = g->ll;
    r->ll_mean = g->ll_mean;
    r->ll_sd = sqrt(g->ll_var);
    if (r->ll_sd > 0) {
        r->ll_z = g->ll_dev / r->ll_sd;
        r->ll_p = erfc(fabs(r->ll_z) / sqrt(2.0));
    } else {
        /* every step certain (or greedy): L must equal its mean exactly */
        r->ll_z = 0;
        r->ll_p = fabs(g->ll_dev) <= 1e-9 * (1 + fabs(g->ll_mean)) ? 1.0 : 0.0;
    }
    if (g->n_pit) {
        int rc = sl_stat_ks_uniform(g->pit, g->n_pit, &r->ks_d, &r->ks_p, err);
        if (rc)
            return rc;
    } else {
        r->ks_p = 1;
    }
    double m = r->ks_p < r->ll_p ? r->ks_p : r->ll_p;
    r->p_value = g->outside ? 0.0 : (2 * m < 1 ? 2 * m : 1.0);
    r->reject = g->outside > 0 || r->p_value < alpha;
    return SL_OK;
}

/* ---------------------------------------------------------------- power */

/* a token and its probability, sorted by decreasing probability, ties by id */
typedef struct ranked {
    double p;
    size_t i;
} ranked;

static int by_prob_desc(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->p != y->p)
        return x->p > y->p ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int sl_stat_gen_power(size_t T, size_t n_alt, sl_stat_gen_dist dist, void *ctx, size_t trials, double alpha,
                      uint64_t seed, double *power, sl_error *err)
{
    int rc = SL_OK;
    size_t V = 0, nl = n_alt * trials;
    double *p = NULL, *cq = NULL, *before = NULL, *ll = NULL, *mean = NULL, *var = NULL;
    float *pit = NULL;
    ranked *idx = NULL;
    size_t *outside = NULL;
    if (!T || !n_alt || !trials)
        return sl_base_error_set(err, SL_EINVAL, "power: no steps, faults or trials");
    if (nl > SIZE_MAX / sizeof(float) / T)
        return sl_base_error_set(err, SL_ENOMEM, "power: out of memory for %zu simulated logs of %zu steps", nl, T);
    ll = calloc(nl, sizeof *ll);
    outside = calloc(nl, sizeof *outside);
    pit = malloc(nl * T * sizeof *pit);
    mean = calloc(1, sizeof *mean);
    var = calloc(1, sizeof *var);
    if (!ll || !outside || !pit || !mean || !var) {
        rc = sl_base_error_set(err, SL_ENOMEM, "power: out of memory for %zu simulated logs of %zu steps", nl, T);
        goto out;
    }
    uint64_t st = seed;
    for (size_t t = 0; t < T; t++) {
        const double *w;
        size_t Vt;
        if ((rc = dist(ctx, t, 0, &w, &Vt, err)))
            goto out;
        if (!V) {
            V = Vt;
            p = malloc(V * sizeof *p);
            cq = malloc(V * sizeof *cq);
            before = malloc(V * sizeof *before);
            idx = malloc(V * sizeof *idx);
            if (!p || !cq || !before || !idx) {
                rc = sl_base_error_set(err, SL_ENOMEM, "power: out of memory for V = %zu", V);
                goto out;
            }
        } else if (Vt != V) {
            rc = sl_base_error_set(err, SL_EINVAL, "power: step %zu has V = %zu, not %zu", t, Vt, V);
            goto out;
        }
        double sum, m1, v1, unused;
        double no_dev;
        if ((rc = step_moments(w, V, V, t, SL_SIMD_AUTO, &sum, &m1, &v1, &unused, &no_dev, err)))
            goto out;
        for (size_t i = 0; i < V; i++) {
            p[i] = w[i] / sum;
            idx[i].p = p[i];
            idx[i].i = i;
        }
        *mean += m1;
        *var += v1;
        /* the mass ranked before each token (decreasing p, ties by id), as sl_stat_gen_step */
        qsort(idx, V, sizeof *idx, by_prob_desc);
        double acc = 0;
        for (size_t r = 0; r < V; r++) {
            before[idx[r].i] = acc;
            acc += idx[r].p;
        }
        for (size_t a = 0; a < n_alt; a++) {
            const double *q;
            if ((rc = dist(ctx, t, a + 1, &q, &Vt, err)))
                goto out;
            if (Vt != V) {
                rc = sl_base_error_set(err, SL_EINVAL, "power: step %zu, fault %zu has V = %zu, not %zu", t, a, Vt, V);
                goto out;
            }
            double c = 0;
            for (size_t i = 0; i < V; i++) {
                if (!(q[i] >= 0) || isinf(q[i])) {
                    rc = sl_base_error_set(err, SL_EINVAL, "power: step %zu, fault %zu: weight %zu is %.17g", t, a, i, q[i]);
                    goto out;
                }
                cq[i] = c += q[i];
            }
            if (!(c > 0)) {
                rc = sl_base_error_set(err, SL_EINVAL, "power: step %zu, fault %zu: all weights zero", t, a);
                goto out;
            }
            for (size_t j = 0; j < trials; j++) {
                size_t lj = a * trials + j;
                /* x ~ q: the first i with cq[i] > u c */
                double u = unif(&st) * c;
                size_t lo = 0, hi = V - 1;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (cq[mid] > u)
                        hi = mid;
                    else
                        lo = mid + 1;
                }
                while (lo > 0 && q[lo] == 0) /* never land on a zero weight */
                    lo--;
                double U = unif(&st), px = p[lo];
                if (px == 0) {
                    outside[lj]++;
                    pit[lj * T + t] = -1;
                    continue;
                }
                double v = before[lo] + U * px;
                pit[lj * T + t] = (float)(v < 1 ? v : 1);
                ll[lj] += log(px);
            }
        }
    }
    /* the verdict of each simulated log */
    double *u = malloc(T * sizeof *u);
    if (!u) {
        rc = sl_base_error_set(err, SL_ENOMEM, "power: out of memory");
        goto out;
    }
    for (size_t a = 0; a < n_alt; a++) {
        size_t rej = 0;
        for (size_t j = 0; j < trials; j++) {
            size_t lj = a * trials + j;
            if (outside[lj]) {
                rej++;
                continue;
            }
            for (size_t t = 0; t < T; t++)
                u[t] = pit[lj * T + t];
            double d, pks, sd = sqrt(*var), pll;
            if ((rc = sl_stat_ks_uniform(u, T, &d, &pks, err))) {
                free(u);
                goto out;
            }
            pll = sd > 0 ? erfc(fabs((ll[lj] - *mean) / sd) / sqrt(2.0))
                         : (fabs(ll[lj] - *mean) <= 1e-9 * (1 + fabs(*mean)) ? 1.0 : 0.0);
            double m = pks < pll ? pks : pll;
            rej += 2 * m < alpha;
        }
        power[a] = (double)rej / (double)trials;
    }
    free(u);
out:
    free(p);
    free(cq);
    free(before);
    free(idx);
    free(ll);
    free(mean);
    free(var);
    free(pit);
    free(outside);
    return rc;
}
