/* sl_stats.h — statistics: goodness of fit, total variation, power, calibration.
 * Uses the base layer only. Exported names start with sl_stat_.
 *
 * The statistics layer takes counts (one per token id, V = vocabulary size)
 * and a reference distribution p (normalised, sum 1); it never knows where
 * the draws came from, so a user's file of token ids and samplab's own draws
 * go through the same code. */
#ifndef SL_STAT_H
#define SL_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "base/sl_base.h"

/* ---------------------------------------------------------------- pooling */

/* The cells of the chi-square and G tests after pooling, which depends on p
 * and N only (so it is built once and reused for every replicate).
 *
 * The pooling rule (SL_STAT_POOL_RULE prints it): a token with p = 0 is no
 * cell (a draw there fails the zero-probability rule outright). A token whose
 * expected count N*p is >= min_expected (5) is a cell of its own. The others
 * are taken in order of increasing expectation (ties by token id) and merged
 * into consecutive groups, each closed as soon as its expected count reaches
 * min_expected; a last group still below is merged into the previous group,
 * or, if there is none, into the cell of smallest expectation. */
#define SL_STAT_POOL_RULE                                                              \
    "cells with expected count N*p < 5 pooled, in order of increasing expectation, " \
    "into groups closed when they reach 5 (a short last group joins the previous "   \
    "one); p = 0 tokens are no cell: any draw there fails outright"

typedef struct sl_stat_cells {
    size_t v;              /* V */
    uint64_t n;            /* N the expectations are for */
    double min_expected;   /* 5 */
    size_t support;        /* tokens with p > 0 */
    size_t ncells;         /* cells after pooling (df = ncells - 1) */
    size_t pooled_tokens;  /* tokens that share a cell with another */
    size_t pooled_cells;   /* cells holding more than one token */
    size_t *cell_of;       /* V entries: cell index, SIZE_MAX for p == 0 */
    double *expected;      /* ncells entries: N * (sum of p over the cell) */
} sl_stat_cells;

/* p: V probabilities, finite, >= 0, summing to 1 within 1e-9 * V + 1e-12 (checked). */
int sl_stat_cells_build(sl_stat_cells *c, const double *p, size_t V, uint64_t n,
                        double min_expected, struct sl_error *err);
void sl_stat_cells_free(sl_stat_cells *c);

/* Checks p as the statistics want it: V > 0, finite, >= 0, sum 1 (within
 * 1e-9 relative). `what` names the source in messages. */
int sl_stat_probs_check(const double *p, size_t V, const char *what, struct sl_error *err);

/* ---------------------------------------------------------------- goodness of fit */

#define SL_STAT_NRESID 10

typedef struct sl_stat_gof {
    uint64_t n;               /* total draws */
    size_t v, support;        /* V, tokens with p > 0 */
    size_t ncells, pooled_tokens, pooled_cells;
    uint64_t outside;         /* draws on tokens with p = 0 */
    size_t outside_tokens;    /* distinct such tokens */
    size_t outside_first;     /* the lowest such token id, SIZE_MAX if none */
    long df;                  /* ncells - 1 */
    double chi2, chi2_p;      /* Pearson, p from gsl_cdf_chisq_Q; p = 1 if df < 1 */
    double g, g_p;            /* 2 sum [O ln(O/E) - O + E] over cells (= 2 sum O ln(O/E)) */
    double tv;                /* 1/2 sum_i |c_i/N - p_i| over all V tokens */
    double max_diff;          /* max_i |c_i/N - p_i| */
    size_t max_diff_token;
    /* The tokens with the largest |standardized residual| (c_i - N p_i)/sqrt(N p_i),
     * over tokens with p > 0, largest first. */
    size_t nresid;
    size_t resid_token[SL_STAT_NRESID];
    uint64_t resid_count[SL_STAT_NRESID];
    double resid_expected[SL_STAT_NRESID];
    double resid[SL_STAT_NRESID];
} sl_stat_gof;

/* Chi-square and G over cells for counts (V entries) summing to n. Observed
 * counts on p = 0 tokens are returned in *outside and left out of the cells;
 * the expectations stay those of all N draws, so the deficit shows.
 * Returns 0, or SL_ENOMEM (err filled). */
int sl_stat_chi2_g(const sl_stat_cells *c, const uint64_t *counts, double *chi2, double *g,
                   uint64_t *outside, sl_error *err);
/* The chi-square upper tail Q(x; df) by GSL's gsl_cdf_chisq_Q. GSL signals
 * its own failures (no convergence, a domain error) through its error
 * handler, which sl_base_gsl_quiet switches off, and then returns whatever it
 * has: so a result outside [0, 1] (NaN) is an error here (SL_EINVAL). */
int sl_stat_chisq_q(double x, double df, double *q, sl_error *err);
/* TV = 1/2 sum |c_i/n - p_i|. */
double sl_stat_tv(const double *p, const uint64_t *counts, size_t V, uint64_t n);

/* Everything `samplab gof` prints except the TV null. counts has V entries;
 * their sum must be >= 1 (else SL_EINVAL "no draws"). */
int sl_stat_gof_compute(const double *p, const uint64_t *counts, size_t V, sl_stat_gof *out,
                        struct sl_error *err);

/* ---------------------------------------------------------------- TV under the null */

/* Exact null mean of TV for multinomial(N, p): 1/2 sum_i E|X_i - N p_i| / N with
 * X_i ~ Binomial(N, p_i), each mean absolute deviation by de Moivre's closed
 * form E|X - Np| = 2 nu (1-p) P(X = nu), nu = floor(Np) + 1. */
double sl_stat_tv_null_mean(const double *p, size_t V, uint64_t n);

/* The generator and seed of every simulation in this layer (named in output). */
#define SL_STAT_SIM_RNG "gsl mt19937"
#define SL_STAT_SIM_SEED 20260531UL

/* Draws `reps` multinomial(N, p) samples (GSL's mt19937 seeded with `seed`;
 * gsl_ran_multinomial or N alias draws, whichever is cheaper: see
 * sl_stat_tv_null_sampler) and writes their TV to tv[0..reps), sorted
 * ascending. N must be < 2^32 (GSL's argument type). */
int sl_stat_tv_null_sim(const double *p, size_t V, uint64_t n, size_t reps, unsigned long seed,
                        double *tv, const sl_progress *prog, struct sl_error *err);
/* Which sampler sl_stat_tv_null_sim uses for this support size and N, and
 * its estimated cost in nanoseconds per multinomial sample. */
const char *sl_stat_tv_null_sampler(size_t support, uint64_t n);
double sl_stat_tv_null_cost(size_t support, uint64_t n);
/* Empirical quantile of sorted x[0..n): x[ceil(q n) - 1] (no interpolation). */
double sl_stat_quantile_sorted(const double *x, size_t n, double q);

/* ---------------------------------------------------------------- the gof test and its verdict (stats/verdict.c)
 *
 * What `samplab gof` decides, as one call for a program's own test: the
 * statistics (sl_stat_gof_compute), the TV null (mean exact, q99 simulated),
 * and the verdict by the rules in order: any draw on a token with p = 0 fails;
 * Pearson's chi-square p < alpha fails; otherwise PASS. */

typedef struct sl_stat_gof_test {
    sl_stat_gof g;            /* the statistics */
    double alpha;
    double tv_null_mean;      /* exact */
    double tv_null_q99;       /* simulated; NaN when not (N >= 2^32 or reps = 0) */
    size_t tv_null_reps;      /* multinomial samples simulated */
    char tv_null_method[300]; /* how the TV null was had, one line */
    int fail;                 /* 1: FAIL (rejected), 0: PASS (consistent) */
    char rule[320];           /* the rule that decided, one line */
} sl_stat_gof_test;

/* The TV null replicates `samplab gof` simulates by default: about 0.15 s of
 * simulation, between 200 and 2000. */
size_t sl_stat_tv_null_reps(size_t support, uint64_t n);
/* The verdict of the rules above for g at alpha: returns 1 for FAIL, 0 for PASS,
 * and the deciding rule into rule[0..n). */
int sl_stat_gof_verdict(const sl_stat_gof *g, double alpha, char *rule, size_t n);
/* The TV null of `samplab gof` for p (V entries, `support` of them > 0) and N draws
 * into t (tv_null_mean, tv_null_q99, tv_null_reps, tv_null_method); reps as given,
 * or sl_stat_tv_null_reps's when reps_auto. SL_ENOMEM or GSL's failure: err filled. */
int sl_stat_gof_tv_null(const double *p, size_t V, size_t support, uint64_t n, size_t reps, int reps_auto,
                        sl_stat_gof_test *t, struct sl_error *err);
/* The whole test: counts (V entries, sum >= 1) against p (V probabilities
 * summing to 1), alpha in (0, 1), the TV null with the default replicates.
 *
 *     uint64_t counts[4] = {0};
 *     for (int i = 0; i < 100000; i++) counts[my_sampler(p, 4)]++;
 *     sl_stat_gof_test t; sl_error err;
 *     if (sl_stat_gof_test_run(p, counts, 4, 0.01, &t, &err)) { puts(err.msg); return 2; }
 *     printf("%s (%s)\n", t.fail ? "FAIL" : "PASS", t.rule);
 */
int sl_stat_gof_test_run(const double *p, const uint64_t *counts, size_t V, double alpha, sl_stat_gof_test *t,
                         struct sl_error *err);

/* Weights as a reference, the way `samplab gof --probs` and Python's gof(probs=)
 * take them: p[i] = w[i] / sum(w), the sum in double in index order (api/ref.c
 * calls this). A float32 pipeline's probabilities (sl_logits_result.probs of hf,
 * vLLM, candle...) sum to 1 only within float32 rounding, which
 * sl_stat_gof_test_run refuses past 1e-9: normalise them here. w: V finite
 * weights >= 0 with a positive sum; p may be w; *sum (may be NULL) gets the sum. */
int sl_stat_gof_normalise(const double *w, size_t V, double *p, double *sum, struct sl_error *err);
/* sl_stat_gof_test_run against weights w normalised by sl_stat_gof_normalise. */
int sl_stat_gof_test_run_weights(const double *w, const uint64_t *counts, size_t V, double alpha,
                                 sl_stat_gof_test *t, struct sl_error *err);

/* ---------------------------------------------------------------- Kolmogorov–Smirnov */

/* K(n, d) = P(D_n < d) for the two-sided one-sample statistic D_n, by the
 * method of Marsaglia, Tsang and Wang, "Evaluating Kolmogorov's distribution",
 * J. Stat. Software 8(18), 2003 (Durbin's matrix, powered with exponent
 * tracking). For n d^2 > 7.24 (or > 3.76 with n > 99) it uses the paper's
 * right-tail approximation, 1 - 2 exp(-(2.000071 + .331/sqrt(n) + 1.409/n) n d^2),
 * accurate to 7 digits there: the p-value is then below 1e-3. For n d > 500
 * (a matrix over 1001 x 1001) Kolmogorov's limit with Stephens' finite-n
 * correction is used (about 3 digits). The matrix needs memory: returns 0
 * with K in *cdf, or SL_ENOMEM with err filled. */
int sl_stat_kolmogorov_cdf(size_t n, double d, double *cdf, sl_error *err);

/* KS test of x[0..n) (values in [0,1]) against Uniform(0,1): D and its
 * p-value 1 - K(n, D). x is not modified. */
int sl_stat_ks_uniform(const double *x, size_t n, double *d, double *p, struct sl_error *err);

/* ---------------------------------------------------------------- generation logs (stats/gen.c) */

/* A generation log judged against a claim: each step t has its own claimed
 * distribution p_t (V weights, divided by their sum here) and an observed
 * token x_t. Outside the kept set (p_t(x_t) = 0) fails outright; the
 * randomised PIT (tokens by decreasing p_t, ties by id; u = mass before x_t
 * + U p_t(x_t)) is KS-tested against Uniform(0,1); L = sum log p_t(x_t) is
 * z-tested against its exact mean and variance under the claim. The verdict's
 * p-value is min(1, 2 min(p_KS, p_LL)) (Bonferroni), 0 with a step outside.
 * The U come from splitmix64 seeded with SL_STAT_GEN_SEED, one per step. */
#define SL_STAT_GEN_SEED 20261201u
#define SL_STAT_GEN_RNG "splitmix64"
/* the seed of the power simulation of `samplab check` */
#define SL_STAT_SIM_SEED_GEN 20261202u

/* One step's terms. */
typedef struct sl_stat_gen_one {
    double px;          /* p_t(x_t), normalised */
    double mean, var;   /* sum_i p_i log p_i and Var(log p(X)) under p_t */
    double dev;         /* log p_t(x_t) - mean, from terms shifted by log p_t(x_t) */
    double before;      /* mass of the tokens ranked before x_t */
} sl_stat_gen_one;

typedef struct sl_stat_gen {
    size_t t, cap, n_pit;
    double *pit;        /* the u of each step inside the kept set */
    double ll, ll_mean, ll_var;
    double ll_dev;      /* sum of the steps' dev: L - mean without subtracting two large sums */
    size_t outside;     /* steps with p_t(x_t) = 0 */
    uint64_t state;     /* the uniforms' generator */
} sl_stat_gen;

typedef struct sl_stat_gen_result {
    size_t steps, outside;
    double ll, ll_mean, ll_sd, ll_z, ll_p;
    double ks_d, ks_p;
    double p_value;     /* the verdict's */
    int reject;
} sl_stat_gen_result;

/* T: expected steps (the arrays grow past it). */
int sl_stat_gen_init(sl_stat_gen *g, size_t T, uint64_t seed, sl_error *err);
/* The terms of step `step` (for messages) from weights w[0..V) and token x:
 * O(V), no sort. SL_EINVAL for x >= V, a weight that is negative, NaN or
 * infinite, or all zero. */
int sl_stat_gen_step(const double *w, size_t V, size_t x, size_t step, sl_stat_gen_one *o, sl_error *err);
/* The same at a forced SIMD level (SL_SIMD_*): the same bits at every level. */
int sl_stat_gen_step_at(const double *w, size_t V, size_t x, size_t step, int simd, sl_stat_gen_one *o,
                        sl_error *err);
/* Adds a step's terms (in step order: the step's uniform is drawn here). */
int sl_stat_gen_add(sl_stat_gen *g, const sl_stat_gen_one *o, sl_error *err);
int sl_stat_gen_finish(const sl_stat_gen *g, double alpha, sl_stat_gen_result *r, sl_error *err);
void sl_stat_gen_free(sl_stat_gen *g);

/* Step `step`'s weights under alternative `alt` (0 = the claim, 1..n_alt the
 * faults), V entries in *w, valid until the next call. */
typedef int (*sl_stat_gen_dist)(void *ctx, size_t step, size_t alt, const double **w, size_t *V, sl_error *err);
/* The verdict's power against each fault: `trials` logs of T steps simulated
 * with step t drawn from fault a's weights and judged against the claim
 * (alpha), the draws from splitmix64 seeded with `seed`. power: n_alt entries.
 * Cost: T (V log V + n_alt (V + trials log V)); memory n_alt trials T floats. */
int sl_stat_gen_power(size_t T, size_t n_alt, sl_stat_gen_dist dist, void *ctx, size_t trials, double alpha,
                      uint64_t seed, double *power, sl_error *err);

/* ---------------------------------------------------------------- power */

/* The tests a power study reports. GOF is `samplab gof`'s verdict rule:
 * any draw on a p = 0 token, or chi-square p < alpha. */
enum { SL_TEST_CHI2 = 0, SL_TEST_G, SL_TEST_TV, SL_TEST_ZERO, SL_TEST_GOF, SL_TEST_COUNT };
extern const char *const sl_stat_test_names[SL_TEST_COUNT];

/* Fault families, each a one-parameter distortion q(theta) of the reference p. */
typedef enum sl_fault {
    SL_FAULT_SHIFT = 0, /* off-by-one: a fraction theta of each token's mass goes to
                           its right neighbour (the last token keeps it), theta in [0,1] */
    SL_FAULT_LEAK,      /* mass theta taken proportionally from all tokens onto the
                           first p = 0 token, theta in [0,1] */
    SL_FAULT_TOPK,      /* top-k (k = theta, an integer) without renormalisation: the
                           k most probable tokens keep p_i, the rest of the mass falls
                           back to the last token (the linear inverse CDF fallback) */
    SL_FAULT_TEMPER,    /* q ∝ p^(1/T), T = 1 + theta (theta in (-1, inf)) */
    SL_FAULT_COUNT
} sl_fault;
extern const char *const sl_stat_fault_names[SL_FAULT_COUNT];
extern const char *const sl_stat_fault_summaries[SL_FAULT_COUNT];

/* Writes q(theta). SL_EINVAL if the family does not apply (LEAK with no
 * p = 0 token, TOPK with theta outside 1..support). */
int sl_stat_fault_apply(sl_fault f, const double *p, size_t V, double theta, double *q,
                        struct sl_error *err);
/* TV between two distributions (1/2 sum |p - q|). */
double sl_stat_tv_dist(const double *p, const double *q, size_t V);

/* A power study at N draws: the reference p, its cells and the TV critical
 * value at level alpha (from a simulated null). */
typedef struct sl_stat_power {
    const double *p;
    size_t v;
    uint64_t n;
    double alpha;
    size_t trials;           /* simulated samples per power estimate */
    unsigned long seed;      /* seeds the GSL mt19937 of the simulations */
    size_t null_reps;        /* TV null replicates */
    double tv_crit;          /* reject TV when > tv_crit (the 1-alpha null quantile) */
    sl_stat_cells cells;
    /* power already estimated, by (family, theta): bisections for different
     * tests share their first midpoints */
    size_t nmemo;
    int memo_f[256];
    double memo_theta[256], memo_power[256][SL_TEST_COUNT], memo_tv[256];
    /* scratch */
    size_t *supp_idx;
    double *supp_q;
    unsigned int *draw;
    uint64_t *counts;
    const sl_progress *progress; /* ticked per simulated sample (set before eval/detect); a stop: SL_EINTR */
    uint64_t simulated;          /* samples simulated so far, the null's included */
} sl_stat_power;

int sl_stat_power_init(sl_stat_power *s, const double *p, size_t V, uint64_t n, double alpha,
                       size_t trials, unsigned long seed, const sl_progress *prog, struct sl_error *err);
void sl_stat_power_free(sl_stat_power *s);
/* Fraction of `trials` samples of N draws from q that each test rejects.
 * The generator is reseeded with s->seed on every call (common random numbers,
 * so power varies smoothly with q). */
int sl_stat_power_eval(sl_stat_power *s, const double *q, double power[SL_TEST_COUNT],
                       struct sl_error *err);

/* The smallest fault of family f that `test` detects with power >= target,
 * by bisection on theta (power is assumed to grow with the fault). Fills the
 * theta found, its TV from p and the power there; *found = 0 if even the
 * largest fault of the family is not detected (theta/tv/power then describe
 * that largest fault). */
typedef struct sl_stat_detect {
    int found;
    double theta, tv, power;
} sl_stat_detect;
int sl_stat_power_detect(sl_stat_power *s, sl_fault f, int test, double target,
                         sl_stat_detect *out, struct sl_error *err);


/* ---------------------------------------------------------------- repeats (stats/repeats.c)
 *
 * The repeat (birthday) test: N outcomes, each hashed by the caller to a 64-bit key;
 * R = the outcomes equal to an earlier one (N - distinct keys). Under the null the
 * outcomes are independent and uniform over M possibilities; a fault that makes them
 * uniform over M' << M possibilities (a generator seeded from too few bits) raises R.
 * P(R >= 1) is exact, 1 - prod_{i<N} (1 - i/M), for N <= SL_STAT_REPEATS_EXACT_N;
 * every other tail is Poisson with the expected colliding pairs, N(N-1)/(2M), as mean
 * (gsl_cdf_poisson_Q), which holds while N << M. */
#define SL_STAT_REPEATS_EXACT_N (1u << 20)

/* R for keys[0..n) (a sorted copy; keys are not modified). */
int sl_stat_repeats_count(const uint64_t *keys, size_t n, uint64_t *repeats, struct sl_error *err);
/* The M of the test when the keys are 64-bit hashes of outcomes from a larger space:
 * a pair then collides with probability 1/M + 2^-64 (a well-mixed hash), 1/(1/M + 2^-64). */
double sl_stat_repeats_hashed_m(double m);
/* N(N-1)/(2M): the expected colliding pairs, the Poisson mean. */
double sl_stat_repeats_mean(uint64_t n, double m);
/* P(R >= r) for N outcomes uniform over M (M >= 1); *exact = 1 when not Poisson. */
int sl_stat_repeats_sf(uint64_t n, double m, uint64_t r, double *p, int *exact, struct sl_error *err);

typedef struct sl_stat_repeats {
    uint64_t n, repeats;
    double m;        /* possibilities under the null */
    double mean;     /* sl_stat_repeats_mean(n, m) */
    double p;        /* P(R >= repeats) under the null */
    int exact;
} sl_stat_repeats;
int sl_stat_repeats_test(const uint64_t *keys, size_t n, double m, sl_stat_repeats *out, struct sl_error *err);

/* The test at level alpha rejects when R >= r_crit, the smallest r >= 1 with
 * P_null(R >= r) <= alpha; its power is P(R >= r_crit) with M' possibilities. */
typedef struct sl_stat_repeats_power {
    double m, m_fault, alpha;
    uint64_t n;
    uint64_t r_crit;
    double size;         /* P_null(R >= r_crit) <= alpha */
    double power;        /* P_fault(R >= r_crit) */
    double mean_null, mean_fault;
    int exact;           /* size and power both exact */
} sl_stat_repeats_power;
/* At N outcomes (1 <= M' < M, alpha in (0,1)). */
int sl_stat_repeats_power_at(uint64_t n, double m, double m_fault, double alpha, sl_stat_repeats_power *out,
                             struct sl_error *err);
/* The smallest N with power >= target (in (0,1)), by doubling then bisection
 * (power assumed to grow with N, as it does while r_crit stays 1). SL_EINVAL if
 * N would pass 2^53. */
int sl_stat_repeats_power_n(double m, double m_fault, double alpha, double target, sl_stat_repeats_power *out,
                            struct sl_error *err);


/* ---------------------------------------------------------------- exact audit (stats/exact*.c)
 *
 * Every emulated sampler turns a finite number of random bits into a token, so the
 * distribution it really induces under its own arithmetic can be counted: for a
 * sampler that reads one uniform on a grid of 2^bits values, count[i] is the number
 * of grid values that select token i, and induced P(i) = count[i] / 2^bits exactly.
 * The counts of all tokens sum to 2^bits (tested).
 *
 * Counts may reach 2^64 (a sampler with bits = 64 and one token), so they are held
 * in unsigned __int128: a GCC/Clang extension, not ISO C11 (both compilers we
 * support provide it on every 64-bit target; __extension__ keeps -pedantic quiet). */
__extension__ typedef unsigned __int128 sl_u128;

/* One failure path of a sampler: an event whose probability per call is reported. */
typedef struct sl_stat_exact_path {
    char name[32];     /* short id, e.g. "fallback", "u_zero_nan" */
    char what[320];    /* one line: what happens and who receives the draw */
    double prob;       /* per call: the exact value rounded to double, or an upper bound */
    int exact;         /* 1: prob is exact (rounded); 0: prob is a rigorous upper bound */
    int has_rational;  /* 1: prob == num / 2^bits exactly */
    sl_u128 num;
    unsigned bits;
    long token;        /* the token that receives the draw, -1 if none or several */
} sl_stat_exact_path;

#define SL_EXACT_MAX_PATHS 8

typedef struct sl_stat_exact_result {
    const char *sampler;     /* name of the sl_stat_exact_type that made it */
    size_t V;
    unsigned bits;           /* the grid: counts are over 2^bits equally likely inputs */
    int has_counts;          /* 1: count[] is exact; 0: only bounds (exponential race) */
    int always_fails;        /* 1: every call raises / panics (paths[0] says which) */
    sl_u128 *count;          /* V entries, sum == 2^bits when has_counts */
    double *ideal;           /* V entries: the input weights (float64) over their sum */
    double tv;               /* exact TV(induced, ideal) rounded to double, if has_counts */
    double tv_bound;         /* rigorous upper bound on TV when !has_counts; else = tv */
    long worst;              /* token with the largest |induced/ideal - 1| (ideal > 0), -1 if none */
    double worst_rel;        /* that relative error (-1 = never drawn) */
    size_t n_never;          /* tokens with ideal > 0 that can never be drawn */
    size_t *never;
    size_t n_zero_drawn;     /* tokens with ideal == 0 that can be drawn */
    size_t *zero_drawn;
    size_t n_paths;
    sl_stat_exact_path paths[SL_EXACT_MAX_PATHS];
    char note[640];          /* what was modelled, in one or two sentences */
} sl_stat_exact_result;

/* What an exact audit reads: the weights in both precisions (a float32 sampler
 * uses f, a float64 one uses d; both are the source's own roundings), and for
 * the method-based samplers the uniform grid of the random source. */
typedef struct sl_stat_exact_input {
    size_t V;
    const double *d;
    const float *f;
    sl_dtype dtype;          /* the source's own dtype (torch, numpy follow it) */
    unsigned grid_bits;      /* our methods: uniform u = k * 2^-grid_bits (0 = 53) */
    const float *logits_f;   /* llamacpp: the float32 logits its dist sampler reads (already
                              * divided by the temperature), NULL when only weights are given */
    const char *source;      /* for messages */
} sl_stat_exact_input;

/* What an audit takes of its caller's input besides the weights: `samplab exact`
 * and the report read these, never the type's identity. */
enum {
    /* weights given as text are float32 to its sampler (torch.tensor(list));
     * without it float64 (np.array(list)) */
    SL_STAT_EXACT_TEXT_F32 = 1u << 0,
    /* from logits, in.f holds candle's own float32 softmax (its sequential sum),
     * not the float64 softmax rounded */
    SL_STAT_EXACT_CANDLE_F32 = 1u << 1,
    /* takes logits only, its sampler computing its own softmax: in.logits_f,
     * the float32 logits divided by T as the sampler divides them */
    SL_STAT_EXACT_OWN_SOFTMAX = 1u << 2,
};

typedef struct sl_stat_exact_type {
    const char *name;
    const char *summary;     /* one line: upstream function and version */
    int (*run)(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err);
    unsigned input;          /* SL_STAT_EXACT_* */
    const char *sampler;     /* with SL_STAT_EXACT_OWN_SOFTMAX: whose softmax, for a refusal */
    float t_floor;           /* with SL_STAT_EXACT_OWN_SOFTMAX: the least T its temperature divides by (0: none) */
} sl_stat_exact_type;

/* The audits live beside the sampler they audit (the `exact` of a draw or
 * framework type); sl_fw_exact_types lists them all. */

/* Runs t on `in` and fills the summary fields of `out` (TV, worst token, never
 * drawable, zero drawable). out is cleared first; free with sl_stat_exact_result_free. */
int sl_stat_exact_run(const sl_stat_exact_type *t, const sl_stat_exact_input *in, sl_stat_exact_result *out,
                 sl_error *err);
void sl_stat_exact_result_free(sl_stat_exact_result *r);

/* count / 2^bits as a double (correctly rounded) and as text "count/2^bits". */
double sl_stat_exact_prob(sl_u128 count, unsigned bits);
void sl_stat_exact_rational_format(sl_u128 count, unsigned bits, char *buf, size_t len);
/* Decimal digits of a 128-bit count. */
void sl_stat_exact_u128_format(sl_u128 x, char *buf, size_t len);

/* Grid counts for u = k * 2^-bits, k in [0, 2^bits) (bits <= 53), c a float64:
 * below = #{k : k * 2^-bits < c}, at_most = #{k : k * 2^-bits <= c}. */
uint64_t sl_stat_exact_grid_below(double c, unsigned bits);
uint64_t sl_stat_exact_grid_at_most(double c, unsigned bits);


/* ---- helpers of the exact-audit samplers (stats/exact*.c) */

/* Allocates count[] and ideal[] for V tokens, fills ideal from in->d (or in->f when
 * in->d is NULL) over its sum, and sets bits. */
int sl_stat_exact_result_init(sl_stat_exact_result *r, const sl_stat_exact_input *in, unsigned bits, sl_error *err);

/* Turns cumulative counts into per-token counts: cum[j] = number of grid values
 * whose token is <= j (nondecreasing, cum[V-1] == 2^bits). */
void sl_stat_exact_counts_from_cumulative(sl_stat_exact_result *r, const uint64_t *cum);

/* Adds a failure path; returns it (NULL when the table is full). */
sl_stat_exact_path *sl_stat_exact_path_add(sl_stat_exact_result *r, const char *name, long token,
                                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Sets the path's probability to num / 2^bits exactly. */
void sl_stat_exact_path_set(sl_stat_exact_path *p, sl_u128 num, unsigned bits);

/* Checks weights in the precision a sampler reads: finite and >= 0. Message:
 * "SOURCE: entry I is NaN". */
int sl_stat_exact_check_d(const sl_stat_exact_input *in, sl_error *err);
int sl_stat_exact_check_f(const sl_stat_exact_input *in, sl_error *err);
/* The start of most audits: check the weights in the precision the sampler reads
 * (f32: in->f, else in->d), then sl_stat_exact_result_init with bits. */
int sl_stat_exact_begin(const sl_stat_exact_input *in, int f32, unsigned bits, sl_stat_exact_result *out,
                        sl_error *err);

#endif
