/* torch.c — torch.multinomial(p, k, replacement) on the CPU as a draw type: torch
 * 1.13.1 as Debian builds it (default generator, no MKL), and what 2.x CPU builds
 * without MKL change (read from the 2.6.0 source; checked against Debian trixie's
 * 2.6.0, data/torch2). The words come from a torch-mt19937 source through the
 * counting wrapper; framework/torch.c seeds it as torch.manual_seed does.
 *
 * torch 1.13.1, aten/src/ATen/native/Distributions.cpp multinomial_out:
 *  - replacement=False (any k): q = empty_like(p).exponential_(1); r = p / q in p's
 *    dtype; k = 1 returns argmax(r) (first index of the maximum; a NaN wins), k > 1
 *    returns topk(r, k) (TopKImpl.h: std::partial_sort when 64·k <= V, otherwise
 *    std::nth_element and std::sort of the first k-1; libstdc++'s algorithms decide
 *    the order of equal ratios: base/stdsort.c). exponential_ fills the elements
 *    serially, each from u = (random64() & (2^53-1))·2^-53, random64() = w1<<32 | w2,
 *    then q = -1.0 * log(1 - u) in double, rounded to p's dtype: every call draws 2·V
 *    words, whatever k and p are. The race is draw/race.c's.
 *  - replacement=True (cpu/MultinomialKernel.cpp): cum[j] = sum of p[0..j] in p's
 *    dtype, cum /= sum, cum[V-1] = 1; each sample takes one such u (2 words) and
 *    binary-searches the first j with !(cum[j] < u).
 *  - checks raise before any draw, with torch's own messages (quoted in ours); they
 *    are made here at prepare, since they depend on p, k and replacement only.
 *    k larger than the number of non-zero entries is NOT an error in torch (1.13.1
 *    and 2.6.0 both return zero-probability indices after the others).
 * Variant 2 (torch 2.x): exponential is -1.0 * log1p(-u), and the race also serves
 * replacement=True with one sample (multinomial_out tests `!with_replacement ||
 * n_sample == 1`, so its errors are the race's too).
 *
 * Known divergences: log is the C library's (glibc here, as torch's); another libm
 * may differ by an ulp in rare float64 cases. Builds whose exponential_ comes from
 * MKL/VSL draw other numbers from other words (docs/torch.md). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

#define TORCH_MAX_CATEGORIES (1L << 24) /* FLOAT32_MAX_CONSECUTIVE_INT */

static const char MSG_RACE_BAD[] = "probability tensor contains either `inf`, `nan` or element < 0";
static const char MSG_SUM0[] = "invalid multinomial distribution (sum of probabilities <= 0)";
static const char MSG_CDF_NEG[] = "invalid multinomial distribution (encountering probability entry < 0)";
static const char MSG_CDF_INF[] = "invalid multinomial distribution (encountering probability entry = infinity or NaN)";

typedef struct torch_table {
    size_t V, k;
    sl_dtype dtype;
    int race;              /* the call takes the race (else the cdf path) */
    sl_draw_race r;        /* race path */
    void *cdf;             /* cdf path: normalised cumulative sums (float or double) */
    double *ratio;         /* top-k path (k > 1): the V ratios, then (ratio, index) pairs */
    struct topk_elem *pairs;
} torch_table;

typedef struct topk_elem {
    double v;
    int64_t i;
} topk_elem;

static double entry(const sl_draw_dist *p, size_t i)
{
    return p->dtype == SL_F32 ? (double)p->f[i] : p->d[i];
}

static int entry_error(const sl_draw_dist *p, size_t i, const char *torch_msg, sl_error *err)
{
    double v = entry(p, i);
    const char *what = isnan(v) ? "NaN" : isinf(v) ? (v > 0 ? "+inf" : "-inf") : "negative";
    return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is %s; torch.multinomial raises \"%s\"", p->source, i,
                             what, torch_msg);
}

/* The replacement kernel's table in p's dtype; 0 when the sum is not > 0. */
static int build_cdf(torch_table *t, const sl_draw_dist *p)
{
    size_t V = p->V;
    if (p->dtype == SL_F32) {
        float *c = t->cdf, sum = 0;
        for (size_t j = 0; j < V; j++)
            c[j] = sum += p->f[j];
        if (!(sum > 0))
            return 0;
        for (size_t j = 0; j < V; j++)
            c[j] /= sum;
        c[V - 1] = 1;
    } else {
        double *c = t->cdf, sum = 0;
        for (size_t j = 0; j < V; j++)
            c[j] = sum += p->d[j];
        if (!(sum > 0))
            return 0;
        for (size_t j = 0; j < V; j++)
            c[j] /= sum;
        c[V - 1] = 1;
    }
    return 1;
}

static void torch_free(void *table)
{
    torch_table *t = table;
    if (!t)
        return;
    sl_draw_race_free(&t->r);
    free(t->cdf);
    free(t->pairs);
    free(t->ratio);
    free(t);
}

static int torch_prepare(void **table, const sl_draw_dist *p, const void *param, sl_error *err)
{
    const sl_draw_torch_param *tp = param;
    size_t V = p->V, k = tp->k;
    /* the order of torch's checks (multinomial_out), all before any draw */
    if (k == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: torch.multinomial raises \"cannot sample n_sample <= 0 samples\"",
                                 p->source);
    if (!tp->replacement && k > V)
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: torch.multinomial raises \"cannot sample n_sample > prob_dist.size(-1) samples "
                                 "without replacement\" (num-samples %zu > V = %zu)",
                                 p->source, k, V);
    if (V > (size_t)TORCH_MAX_CATEGORIES)
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: torch.multinomial raises \"number of categories cannot exceed 2^24\" (V = %zu)",
                                 p->source, V);
    int race = !tp->replacement || (tp->version == SL_TORCH_2 && k == 1);
    if (race) {
        int all_zero = 1;
        for (size_t i = 0; i < V; i++) {
            double v = entry(p, i);
            if (!(v >= 0 && v < INFINITY))
                return entry_error(p, i, MSG_RACE_BAD, err);
            all_zero &= v == 0;
        }
        if (all_zero)
            return sl_base_error_set(err, SL_EINVAL, "%s: all %zu entries are zero; torch.multinomial raises \"%s\"",
                                     p->source, V, MSG_SUM0);
    } else {
        for (size_t i = 0; i < V; i++) {
            double v = entry(p, i);
            if (!(v >= 0 && isfinite(v)))
                return entry_error(p, i, !(v >= 0) ? MSG_CDF_NEG : MSG_CDF_INF, err);
        }
    }
    torch_table *t = calloc(1, sizeof *t);
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for V = %zu", p->source, V);
    t->V = V;
    t->k = k;
    t->dtype = p->dtype;
    t->race = race;
    int rc = SL_OK;
    if (race) {
        sl_draw_race_rule rule = {SL_RACE_U_TORCH53, tp->version == SL_TORCH_2, 1};
        rc = sl_draw_race_init(&t->r, p, &rule, tp->simd, err);
        if (!rc && k > 1 && (!(t->ratio = malloc(V * sizeof *t->ratio)) || !(t->pairs = malloc(V * sizeof *t->pairs))))
            rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for V = %zu", p->source, V);
    } else {
        t->cdf = malloc(V * (p->dtype == SL_F32 ? sizeof(float) : sizeof(double)));
        if (!t->cdf)
            rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for V = %zu", p->source, V);
        else if (!build_cdf(t, p))
            rc = sl_base_error_set(err, SL_EINVAL, "%s: the entries sum to zero; torch.multinomial raises \"%s\"",
                                   p->source, MSG_SUM0);
    }
    if (rc) {
        torch_free(t);
        return rc;
    }
    *table = t;
    return SL_OK;
}

/* TopKImpl.h sorts std::pair<double, int64_t> with comp(x, y) = (isnan(x) && !isnan(y)) || x > y. */
static int topk_less(const void *a, const void *b, const void *ctx)
{
    (void)ctx;
    const topk_elem *x = a, *y = b;
    return (isnan(x->v) && !isnan(y->v)) || x->v > y->v;
}

/* torch's topk_impl_loop on pairs[0..V): partial_sort when 64·k <= V, else
 * nth_element and a sort of the first k-1. */
static void topk_order(topk_elem *q, size_t V, size_t k, long *out)
{
    if ((unsigned long long)k * 64 <= V) {
        sl_base_std_partial_sort(q, k, V, sizeof *q, topk_less, NULL);
    } else {
        sl_base_std_nth_element(q, k - 1, V, sizeof *q, topk_less, NULL);
        sl_base_std_sort(q, k - 1, sizeof *q, topk_less, NULL);
    }
    for (size_t j = 0; j < k; j++)
        out[j] = (long)q[j].i;
}

int sl_draw_torch_topk(const double *v, size_t V, size_t k, long *out, sl_error *err)
{
    if (k == 0 || k > V)
        return sl_base_error_set(err, SL_EINVAL, "topk: k = %zu outside 1..V = %zu", k, V);
    topk_elem *q = malloc(V * sizeof *q);
    if (!q)
        return sl_base_error_set(err, SL_ENOMEM, "topk: out of memory for V = %zu", V);
    for (size_t i = 0; i < V; i++)
        q[i] = (topk_elem){v[i], (int64_t)i};
    topk_order(q, V, k, out);
    free(q);
    return SL_OK;
}

/* first j with !(cum[j] < u) */
static size_t cdf_search(const torch_table *t, double u)
{
    if (t->dtype == SL_F32)
        return sl_draw_search_ge_f32(t->cdf, t->V, u);
    return sl_draw_search_ge_f64(t->cdf, t->V, u);
}

static int torch_draw_k(const void *table, sl_rng *rng, size_t k, long *out, sl_error *err)
{
    const torch_table *t = table;
    if (k != t->k)
        return sl_base_error_set(err, SL_EINVAL, "torch: prepared for %zu samples a call, asked for %zu", t->k, k);
    if (t->race) {
        if (k == 1) {
            out[0] = (long)sl_draw_race_one(&t->r, rng);
        } else {
            sl_draw_race_ratios(&t->r, rng, t->ratio);
            for (size_t i = 0; i < t->V; i++)
                t->pairs[i] = (topk_elem){t->ratio[i], (int64_t)i};
            topk_order(t->pairs, t->V, k, out);
        }
        return SL_OK;
    }
    for (size_t j = 0; j < k; j++) {
        uint32_t w[2];
        sl_rng_fill32(rng, w, 2);
        out[j] = (long)cdf_search(t, (double)((((uint64_t)w[0] << 32) | w[1]) & ((1ULL << 53) - 1)) * 0x1p-53);
    }
    return SL_OK;
}

/* One sample a call (the table was prepared with k = 1, so this cannot fail). */
static size_t torch_draw(const void *table, sl_rng *rng)
{
    long tok = 0;
    torch_draw_k(table, rng, 1, &tok, NULL);
    return (size_t)tok;
}

size_t sl_draw_torch_naive(const void *table, sl_rng *rng)
{
    return sl_draw_race_one_naive(&((const torch_table *)table)->r, rng);
}

const sl_draw_type sl_draw_torch_type = {
    .name = "torch-multinomial",
    .cost = "prepare O(V) checks and bounds (cdf table with replacement); race: 2V words a call, few logs; "
            "replacement: 2 words a sample",
    .prepare = torch_prepare,
    .draw = torch_draw,
    .draw_k = torch_draw_k,
    .free = torch_free,
};
