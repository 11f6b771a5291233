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
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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
    sl_base_f64i *pairs;    /* TopKImpl.h's std::pair<double, int64_t> */
} torch_table;

typedef sl_base_f64i topk_elem;

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

/* The replacement kernel's table in p's dtype; 0 when the sum is not > 0.
 * *total (if not NULL) is the running sum in p's dtype, widened. */
static int build_cdf(torch_table *t, const sl_draw_dist *p, double *total)
{
    size_t V = p->V;
    if (p->dtype == SL_F32) {
        float *c = t->cdf, sum = 0;
        for (size_t j = 0; j < V; j++)
            c[j] = sum += p->f[j];
        if (total)
            *total = (double)sum;
        if (!(sum > 0))
            return 0;
        for (size_t j = 0; j < V; j++)
            c[j] /= sum;
        c[V - 1] = 1;
    } else {
        double *c = t->cdf, sum = 0;
        for (size_t j = 0; j < V; j++)
            c[j] = sum += p->d[j];
        if (total)
            *total = sum;
        if (!(sum > 0))
            return 0;
        for (size_t j = 0; j < V; j++)
            c[j] /= sum;
        c[V - 1] = 1;
    }
    return 1;
}

int sl_draw_torch_takes_race(int version, int replacement, size_t k)
{
    return !replacement || (version == SL_TORCH_2 && k == 1);
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
    int race = sl_draw_torch_takes_race(tp->version, tp->replacement, k);
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
        else if (!build_cdf(t, p, NULL))
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

/* torch's topk_impl_loop on pairs[0..V): partial_sort when 64·k <= V, else
 * nth_element and a sort of the first k-1, with TopKImpl.h's comparator
 * comp(x, y) = (isnan(x) && !isnan(y)) || x > y (base/stdsort.c's typed pairs). */
static void topk_order(topk_elem *q, size_t V, size_t k, long *out)
{
    if ((unsigned long long)k * 64 <= V) {
        sl_base_std_partial_sort_f64i(q, k, V);
    } else {
        sl_base_std_nth_element_f64i(q, k - 1, V);
        sl_base_std_sort_f64i(q, k - 1);
    }
    for (size_t j = 0; j < k; j++)
        out[j] = (long)q[j].i;
}

int sl_draw_torch_topk(const double *v, size_t V, size_t k, long *out, sl_error *err)
{
    if (k == 0 || k > V)
        return sl_base_error_set(err, SL_EINVAL, "topk: k = %zu outside 1..V = %zu", k, V);
    if (k == 1 && V >= 64) {
        /* partial_sort(first, first + 1, last): the heap of one is replaced by each
         * later element that compares before it, so it ends on the first maximum
         * (a NaN first) — no copy of the row needed */
        size_t best = 0;
        for (size_t i = 1; i < V; i++)
            if ((isnan(v[i]) && !isnan(v[best])) || v[i] > v[best])
                best = i;
        out[0] = (long)best;
        return SL_OK;
    }
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

/* ---------------------------------------------------------------- exact audit, replacement=True
 *
 * multinomial(p, n, replacement=True) on the cdf path (torch 1.13: any n; 2.x: n >= 2,
 * since 2.x sends one sample to the race, sl_draw_torch_takes_race; the kernel,
 * cpu/MultinomialKernel.cpp, is the same in both lines): each sample reads ONE uniform
 * u = k * 2^-53 (random64 & (2^53-1)), token = the first j with !(cum[j] < u) over
 * the table build_cdf makes (running sum in p's dtype, cum /= sum, cum[V-1] = 1).
 * The token is nondecreasing in k: token > j  <=>  cum[j] < u  <=>  k > cum[j]*2^53.
 * u = 0 returns token 0 whatever its probability. */
static int repl_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int f32 = in->dtype == SL_F32;
    int rc = sl_stat_exact_begin(in, f32, 53, out, err);
    if (rc)
        return rc;
    size_t V = in->V;
    torch_table t;
    memset(&t, 0, sizeof t);
    t.V = V;
    t.dtype = f32 ? SL_F32 : SL_F64;
    t.cdf = malloc(V * (f32 ? sizeof(float) : sizeof(double)));
    uint64_t *K = malloc(V * sizeof *K);
    if (!t.cdf || !K) {
        free(t.cdf);
        free(K);
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    }
    sl_draw_dist dist = {V, in->d, in->f, t.dtype, in->source, 0};
    double sumd = 0;
    int sum_ok = build_cdf(&t, &dist, &sumd);
    snprintf(out->note, sizeof out->note,
             "torch multinomial(p, n, replacement=True), each sample (1.13: any n; 2.x: n >= 2) over %s p: "
             "running sum in p's dtype, cum /= sum, cum[V-1] = 1, 53-bit double u, first j with cum[j] >= u",
             f32 ? "float32" : "float64");
    if (!sum_ok) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "runtime_error", -1,
            "RuntimeError: invalid multinomial distribution (sum of probabilities <= 0)");
        sl_stat_exact_path_set(p, 1, 0);
    } else {
        int has_nan = 0;
        for (size_t j = 0; j < V; j++)
            has_nan |= isnan(f32 ? (double)((const float *)t.cdf)[j] : ((const double *)t.cdf)[j]);
        if (!has_nan) {
            for (size_t j = 0; j < V; j++)
                K[j] = sl_stat_exact_grid_at_most(f32 ? (double)((const float *)t.cdf)[j]
                                                      : ((const double *)t.cdf)[j], 53);
        } else {
            /* inf/inf = NaN entries (the sum overflowed): the table is not sorted, so
             * follow the draw's own search. Each of its comparisons is monotone in u,
             * so its result still is: search per boundary over k. */
            uint64_t a0 = 0;
            for (size_t j = 0; j + 1 < V; j++) {
                uint64_t a = a0, b = (uint64_t)1 << 53;
                while (a < b) {
                    uint64_t mid = a + (b - a) / 2;
                    if (cdf_search(&t, ldexp((double)mid, -53)) > j)
                        b = mid;
                    else
                        a = mid + 1;
                }
                K[j] = a0 = a;
            }
            K[V - 1] = (uint64_t)1 << 53;
        }
        sl_stat_exact_counts_from_cumulative(out, K);
        if (isinf(sumd)) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "sum_overflow", (long)V - 1,
                "the %s running sum overflows to +inf: cum/sum is 0 before the overflow and "
                "NaN after it, and torch's binary search lands where the sum overflowed",
                f32 ? "float32" : "float64");
            if (p)
                sl_stat_exact_path_set(p, 1, 0);
        }
        /* u = 0 (k = 0): the first j with cum[j] >= 0 is 0, whatever p[0] is;
         * a failure only when p[0] == 0 */
        double p0 = f32 ? (double)in->f[0] : in->d[0];
        if (p0 == 0) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "u_zero", 0,
                "u == 0 exactly (k = 0): returns token 0, which has probability 0");
            sl_stat_exact_path_set(p, 1, 53);
        }
    }
    free(t.cdf);
    free(K);
    return 0;
}

const sl_stat_exact_type sl_draw_torch_repl_exact = {
    .name = "torch-replacement",
    .summary = "multinomial(p, n, replacement=True) per sample (torch 1.13: any n; 2.x: n >= 2): float cdf, 53-bit "
               "uniform",
    .run = repl_exact_run,
    .input = SL_STAT_EXACT_TEXT_F32,
};

/* ---------------------------------------------------------------- exact audit, the race
 *
 * torch.multinomial(p, 1) on CPU (Distributions.cpp multinomial_out; in 2.x also
 * replacement=True with one sample): q = empty_like(p).exponential_(1), each
 * q_i = (-1.0/1) * f(u_i) in double with u_i = k_i * 2^-53 (random64 & (2^53-1),
 * ATen/core/TransformationHelper.h uniform_real), rounded to p's dtype; r = p / q
 * in p's dtype; argmax(r), first maximum, and a NaN wins (torch's argmax
 * propagates NaN: the first NaN, wherever it is). f is the CPU branch of
 * TransformationHelper.h exponential:
 *  - torch 1.13: f(u) = log(1 - u), so u = 0 gives q = (-1) * (+0) = -0.0;
 *  - torch 2.x: f(u) = log1p(-u) (read in 2.6.0's source and in the header that
 *    libtorch-dev 2.14.1 installs), so u = 0 gives log1p(-0) = -0 and q = +0.0.
 *
 * The race reads V independent 53-bit uniforms, so its induced distribution is a
 * count over 2^(53V) inputs: out of reach for counting. What is exact:
 *  - u_i == 0 happens with probability 2^-53 per entry. A token with p_i == 0
 *    then gets 0/(+-0) = NaN and wins (the first NaN). Hence every zero-probability
 *    token is drawable, the m-th one (in index order) with probability exactly
 *    2^-53 (1 - 2^-53)^(m-1). A token with p_i > 0 gets p/-0 = -inf in 1.13 (it
 *    cannot win that call) but p/+0 = +inf in 2.x: it wins unless a NaN occurs
 *    or an earlier token also got +inf, so in 2.x every positive token i is drawn
 *    with probability at least 2^-53 (1 - 2^-53)^(m_i + Z) (m_i positive tokens
 *    before it, Z zero ones), whatever its p_i.
 *  - every token with p_i > 0 is drawable in both lines (1.13: its k_i = 1, the
 *    other positive tokens at u = 0, hence -inf, and the zero tokens at u > 0,
 *    hence +0; 2.x: its u_i = 0 alone).
 * What is bounded (rigorously, by a coupling with the continuous race on the same
 * weights): outside the event G^c that some positive token has k_i < K0 or
 * k_i > 2^53 - K0 (union bound: 2 V K0 2^-53), every computed ratio is within a
 * factor gamma of the continuous p_i / E_i, E_i = -log(1 - U_i), where gamma
 * covers the 2^-53 grid of u (at most 2/K0 relative, or 1/((K0-1) ln 2) near
 * u = 1), glibc's log or log1p (< 1 ulp, glibc's own error tables) and the
 * roundings of q and p/q to p's dtype. -log(1 - u) and -log1p(-u) are the same
 * function of u, so the bound is the same for both lines; the u = 0 outcomes are
 * inside G^c. A zero weight gives +0, or NaN when u_i == 0: that event is added
 * exactly, 1-(1-2^-53)^Z for Z zero weights. Then the winners differ only if the
 * two smallest continuous T_i = E_i/p_i are within a factor rho =
 * gamma_max/gamma_min, whose probability in the continuous race is exactly
 *   sum_w p_w (1-p_w)(rho-1) / (1 + (1-p_w)(rho-1)) <= (rho-1)(1 - sum p^2)
 * (memorylessness: the gap to the runner-up is Exp(1-p_w), independent of the
 * winning time Exp(1)). TV(induced, ideal) <= P(NaN) + P(G^c) + P(close call)
 * + TV(weights in p's dtype, float64 weights), minimised over K0.
 *
 * Checked at chosen uniforms (crafted MT19937 states): torch 1.13.1 in
 * data/golden/exact_crafted.txt (q = -0.0 at u = 0, the NaN winner, the -inf
 * loser); torch 2.14.1 in data/golden/current/exact_crafted.txt and
 * exact_torch2.txt (q = +0.0, the +inf winner, a NaN after a +inf, ties to the
 * first index, float32 and float64).
 *
 * Known divergences: MKL builds draw the exponentials differently (their
 * exponential_ is not audited); float16/bfloat16 not modelled. */

/* 1 - (1 - 2^-53)^n, accurately. */
static double any_zero(double n)
{
    return -expm1(n * log1p(-0x1p-53));
}

static int race_exact(const sl_stat_exact_input *in, sl_stat_exact_result *out, int version, sl_error *err)
{
    int f32 = in->dtype == SL_F32, v2 = version == SL_TORCH_2;
    int rc = sl_stat_exact_begin(in, f32, 53, out, err);
    if (rc)
        return rc;
    size_t V = in->V;
    out->has_counts = 0;
    out->never = calloc(V, sizeof *out->never);
    out->zero_drawn = calloc(V, sizeof *out->zero_drawn);
    if (!out->never || !out->zero_drawn)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);

    /* the weights the race really sees, and their own normalisation */
    long double s = 0, s2 = 0, tvw = 0;
    double pmax = 0;
    size_t nzero = 0, first_zero = V, first_pos = V;
    for (size_t i = 0; i < V; i++) {
        double w = f32 ? (double)in->f[i] : in->d[i];
        s += w;
        if (w > pmax)
            pmax = w;
        if (w == 0) {
            if (first_zero == V)
                first_zero = i;
            nzero++;
        } else if (first_pos == V) {
            first_pos = i;
        }
    }
    snprintf(out->note, sizeof out->note,
             "%s: argmax(p / q) over %s p, q_i = %s with 53-bit u_i, rounded to p's dtype; NaN wins argmax. "
             "Not countable (2^(53V) inputs): failure paths are exact, the TV is a rigorous upper bound",
             v2 ? "torch 2.x multinomial(p, 1) (and replacement=True with one sample)" : "torch 1.13 multinomial(p, 1)",
             f32 ? "float32" : "float64", v2 ? "-log1p(-u_i)" : "-log(1 - u_i)");
    if (!(s > 0)) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "runtime_error", -1,
            "RuntimeError: invalid multinomial distribution (sum of probabilities <= 0)");
        sl_stat_exact_path_set(p, 1, 0);
        return 0;
    }
    /* 2.x: positive tokens whose ideal probability is below the floor the +inf
     * path alone gives them, 2^-53 (1-2^-53)^(m+Z) */
    size_t n_floor = 0, first_floor = V, m = 0;
    for (size_t i = 0; i < V; i++) {
        double w = f32 ? (double)in->f[i] : in->d[i];
        long double p = w / s;
        s2 += p * p;
        tvw += fabsl(p - (long double)out->ideal[i]);
        if (w == 0) {
            out->zero_drawn[out->n_zero_drawn++] = i; /* via 0/(+-0) = NaN */
            continue;
        }
        if (v2 && out->ideal[i] < 0x1p-53 * (1 - any_zero((double)(m + nzero)))) {
            if (first_floor == V)
                first_floor = i;
            n_floor++;
        }
        m++;
    }
    /* the zero-probability tokens of the ideal that the race can still draw are
     * exactly those with w == 0 here; tokens with ideal > 0 and w == 0 (float32
     * underflow) are drawable too, so no token is ever undrawable. */
    size_t nz_ideal = 0;
    for (size_t i = 0; i < out->n_zero_drawn; i++)
        if (out->ideal[out->zero_drawn[i]] == 0)
            out->zero_drawn[nz_ideal++] = out->zero_drawn[i];
    out->n_zero_drawn = nz_ideal;
    tvw /= 2;

    /* the bound */
    const double h = 0x1p-53, rnd = f32 ? 0x1p-24 : 0x1p-53, lg = 0x1p-52;
    double best = 1;
    /* every ratio near the winner's must be normal: on G, q <= 53 ln 2 < 37, so the
     * winner's ratio is >= pmax/37, and competitors within rho of it are normal when
     * pmax >= 2^-120 (float32) or 2^-1000 (float64); overflow is excluded per K0 below */
    int ok = pmax >= (f32 ? 0x1p-120 : 0x1p-1000);
    for (int e4 = 16; ok && e4 <= 200; e4++) {
        double K0 = ldexp(1.0, e4 / 4) * pow(2.0, (e4 % 4) / 4.0);
        K0 = floor(K0);
        if (pmax * (1 / (K0 * h)) * 2 > (f32 ? (double)FLT_MAX : DBL_MAX / 4))
            continue;
        double eu = fmax(2 / (K0 * (1 - 2 * h)), 1 / ((K0 - 1) * log(2.0)));
        /* c_i / R_i = (1+eta)(1+d3) / ((1+d1)(1+d2)): eta in [0, eu] (grid), d1 log,
         * d2 rounding of q to float32, d3 the division; rho = max / min of it */
        double rho = (1 + eu) * (1 + lg) / (1 - lg) * (1 + rnd) * (1 + rnd) / ((1 - rnd) * (1 - rnd));
        /* zero-weight tokens matter only through u == 0 (NaN, counted exactly below);
         * otherwise their ratio is +0 and never reaches the winner's */
        double b = any_zero((double)nzero) + 2 * (double)(V - nzero) * K0 * h + (rho - 1) * (double)(1 - s2);
        if (b < best)
            best = b;
    }
    double differ = best * (1 + 1e-9); /* margin for the double evaluation of the bound */
    best = differ + (double)tvw * (1 + 1e-9);
    out->tv_bound = best < 1 ? best : 1;
    out->tv = NAN;

    sl_stat_exact_path *p = sl_stat_exact_path_add(out, "u_zero", -1,
        "some u_i == 0 (exact: 1-(1-2^-53)^V): q_i = %s, p_i/q_i = %s (p_i > 0) or NaN (p_i = 0)",
        v2 ? "+0.0 (log1p(-0) = -0)" : "-0.0", v2 ? "+inf" : "-inf");
    if (p) {
        p->exact = 1;
        p->prob = any_zero((double)V);
    }
    p = !nzero ? NULL : sl_stat_exact_path_add(out, "nan_wins", (long)first_zero,
        "a zero-probability token gets u == 0: 0/%s0 = NaN wins argmax (%zu such tokens, the first is %ld "
        "with probability 2^-53)", v2 ? "+" : "-", nzero, (long)first_zero);
    if (p) {
        p->exact = 1;
        p->prob = any_zero((double)nzero);
        if (nzero == 1)
            sl_stat_exact_path_set(p, 1, 53);
    }
    if (v2 && first_pos < V) {
        char floor_note[96] = "";
        if (n_floor)
            snprintf(floor_note, sizeof floor_note, "; %zu have p below it (the first: %ld) and are drawn too often",
                     n_floor, (long)first_floor);
        p = sl_stat_exact_path_add(out, "pos_inf_wins", (long)first_pos,
            "u == 0 for a positive token and for no zero one: p/+0 = +inf wins argmax whatever p is (the first "
            "such token), so positive token i has probability >= 2^-53 (1-2^-53)^(m_i+Z) (m_i positive tokens "
            "before it, Z = %zu zero ones)%s", nzero, floor_note);
        if (p) {
            p->exact = 1;
            p->prob = any_zero((double)(V - nzero)) * (1 - any_zero((double)nzero));
            if (V - nzero == 1 && nzero == 0)
                sl_stat_exact_path_set(p, 1, 53);
        }
    } else if (!v2) {
        p = sl_stat_exact_path_add(out, "neg_inf", -1,
            "a positive-probability token gets u == 0: p/-0 = -inf, it cannot win that call");
        if (p) {
            p->exact = 1;
            p->prob = any_zero((double)(V - nzero));
        }
    }
    p = sl_stat_exact_path_add(out, "rounding", -1,
        "%s: the computed argmax differs from the continuous race (grid of u, %s, %s roundings, ties "
        "to the first index)%s",
        ok ? "upper bound" : "no bound available", v2 ? "log1p" : "log", f32 ? "float32" : "float64",
        ok ? "" : " (weights too small or too large for the normal-range argument)");
    if (p) {
        p->exact = 0;
        p->prob = differ < 1 ? differ : 1;
    }
    return 0;
}

static int race2_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    return race_exact(in, out, SL_TORCH_2, err);
}

static int race113_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    return race_exact(in, out, SL_TORCH_1_13, err);
}

const sl_stat_exact_type sl_draw_torch_race_exact = {
    .name = "torch",
    .summary = "torch 2.x multinomial(p, 1): exponential race argmax(p/q), q = -log1p(-u); bound + exact failure paths",
    .run = race2_exact_run,
    .input = SL_STAT_EXACT_TEXT_F32,
};

const sl_stat_exact_type sl_draw_torch113_race_exact = {
    .name = "torch-1.13",
    .summary = "torch 1.13 multinomial(p, 1): exponential race argmax(p/q), q = -log(1-u); bound + exact failure paths",
    .run = race113_exact_run,
    .input = SL_STAT_EXACT_TEXT_F32,
};
