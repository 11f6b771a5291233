/* sl_stats.h — statistics: goodness of fit, total variation, power, calibration.
 * Included by samplab.h; see there for conventions.
 *
 * The statistics layer takes counts (one per token id, V = vocabulary size)
 * and a reference distribution p (normalised, sum 1); it never knows where
 * the draws came from, so a user's file of token ids and samplab's own draws
 * go through the same code. */
#ifndef SL_STATS_H
#define SL_STATS_H

#include <stddef.h>
#include <stdint.h>

struct sl_error;

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
 * the expectations stay those of all N draws, so the deficit shows. */
void sl_stat_chi2_g(const sl_stat_cells *c, const uint64_t *counts, double *chi2, double *g,
                    uint64_t *outside);
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
                        double *tv, struct sl_error *err);
/* Which sampler sl_stat_tv_null_sim uses for this support size and N, and
 * its estimated cost in nanoseconds per multinomial sample. */
const char *sl_stat_tv_null_sampler(size_t support, uint64_t n);
double sl_stat_tv_null_cost(size_t support, uint64_t n);
/* Empirical quantile of sorted x[0..n): x[ceil(q n) - 1] (no interpolation). */
double sl_stat_quantile_sorted(const double *x, size_t n, double q);

/* ---------------------------------------------------------------- Kolmogorov–Smirnov */

/* K(n, d) = P(D_n < d) for the two-sided one-sample statistic D_n, by the
 * method of Marsaglia, Tsang and Wang, "Evaluating Kolmogorov's distribution",
 * J. Stat. Software 8(18), 2003 (Durbin's matrix, powered with exponent
 * tracking). For n d^2 > 7.24 (or > 3.76 with n > 99) it uses the paper's
 * right-tail approximation, 1 - 2 exp(-(2.000071 + .331/sqrt(n) + 1.409/n) n d^2),
 * accurate to 7 digits there: the p-value is then below 1e-3. */
double sl_stat_kolmogorov_cdf(size_t n, double d);

/* KS test of x[0..n) (values in [0,1]) against Uniform(0,1): D and its
 * p-value 1 - K(n, D). x is not modified. */
int sl_stat_ks_uniform(const double *x, size_t n, double *d, double *p, struct sl_error *err);

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
extern const char *const sl_fault_names[SL_FAULT_COUNT];
extern const char *const sl_fault_summaries[SL_FAULT_COUNT];

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
} sl_stat_power;

int sl_stat_power_init(sl_stat_power *s, const double *p, size_t V, uint64_t n, double alpha,
                       size_t trials, unsigned long seed, struct sl_error *err);
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

#endif
