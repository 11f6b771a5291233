/* sl_stats.h — statistics: goodness of fit, total variation, power, calibration, exact audit.
 * Included by samplab.h; see there for conventions. */
#ifndef SL_STATS_H
#define SL_STATS_H

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
typedef struct sl_exact_path {
    char name[32];     /* short id, e.g. "fallback", "u_zero_nan" */
    char what[320];    /* one line: what happens and who receives the draw */
    double prob;       /* per call: the exact value rounded to double, or an upper bound */
    int exact;         /* 1: prob is exact (rounded); 0: prob is a rigorous upper bound */
    int has_rational;  /* 1: prob == num / 2^bits exactly */
    sl_u128 num;
    unsigned bits;
    long token;        /* the token that receives the draw, -1 if none or several */
} sl_exact_path;

#define SL_EXACT_MAX_PATHS 8

typedef struct sl_exact_result {
    const char *sampler;     /* name of the sl_exact_type that made it */
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
    sl_exact_path paths[SL_EXACT_MAX_PATHS];
    char note[640];          /* what was modelled, in one or two sentences */
} sl_exact_result;

/* What an exact audit reads: the weights in both precisions (a float32 sampler
 * uses f, a float64 one uses d; both are the source's own roundings), and for
 * the method-based samplers the uniform grid of the random source. */
typedef struct sl_exact_input {
    size_t V;
    const double *d;
    const float *f;
    sl_dtype dtype;          /* the source's own dtype (torch, numpy follow it) */
    unsigned grid_bits;      /* our methods: uniform u = k * 2^-grid_bits (0 = 53) */
    const float *logits_f;   /* llamacpp: the float32 logits its dist sampler reads (already
                              * divided by the temperature), NULL when only weights are given */
    const char *source;      /* for messages */
} sl_exact_input;

typedef struct sl_exact_type {
    const char *name;
    const char *summary;     /* one line: upstream function and version */
    int (*run)(const sl_exact_input *in, sl_exact_result *out, sl_error *err);
} sl_exact_type;

extern const sl_exact_type sl_exact_candle_type;        /* rand 0.8.5 WeightedIndex<f32> */
extern const sl_exact_type sl_exact_numpy_type;         /* NumPy choice (Generator and legacy) */
extern const sl_exact_type sl_exact_torch_repl_type;    /* torch.multinomial replacement=True */
extern const sl_exact_type sl_exact_torch_race_type;    /* torch.multinomial(p, 1): argmax(p/q) */
extern const sl_exact_type sl_exact_gsl_discrete_type;  /* gsl_ran_discrete, 32-bit generator */
extern const sl_exact_type sl_exact_linear_type;        /* the tutorial's linear inverse CDF */
extern const sl_exact_type sl_exact_cdf_type;           /* draw/cdf: binary search on the cdf */
extern const sl_exact_type sl_exact_alias_type;         /* draw/alias (Vose) */
extern const sl_exact_type sl_exact_llamacpp_type;      /* llama.cpp dist sampler, 2^64 word pairs */
extern const sl_exact_type *const sl_exact_types[];     /* NULL-terminated */
const sl_exact_type *sl_exact_lookup(const char *name);

/* Runs t on `in` and fills the summary fields of `out` (TV, worst token, never
 * drawable, zero drawable). out is cleared first; free with sl_exact_result_free. */
int sl_exact_run(const sl_exact_type *t, const sl_exact_input *in, sl_exact_result *out,
                 sl_error *err);
void sl_exact_result_free(sl_exact_result *r);

/* count / 2^bits as a double (correctly rounded) and as text "count/2^bits". */
double sl_exact_prob(sl_u128 count, unsigned bits);
void sl_exact_rational_format(sl_u128 count, unsigned bits, char *buf, size_t len);
/* Decimal digits of a 128-bit count. */
void sl_exact_u128_format(sl_u128 x, char *buf, size_t len);

/* candle's float32 softmax of logits/T (candle-nn SoftmaxLastDim, sequential sum):
 * x * (float)(1/T) + 0, max, expf(x - max), sum, divide. -inf logits give 0. */
int sl_exact_candle_softmax(const float *x, size_t n, double temperature, float *out, sl_error *err);

/* Report data: for every audited sampler (candle, numpy, torch-replacement, gsl, cdf,
 * alias, linear, llamacpp; torch's race in the tables only) on the weather logits, softmax
 * of [3,2,2,1], the weather logits with a top-3 and a top-4 filter (tail logits
 * -inf) and, if zipf_logits is not
 * NULL, the V = 49152 vocabulary read from that file (data/synthetic_49152.txt)
 * at T = 1 (zipf49152) and T = 0.8 (zipf49152_t08),
 * writes into dir:
 *   exact_tail_<dist>.dat  rank, token, ideal, then the exact induced P per sampler,
 *                          tokens by decreasing ideal (all for V <= 256; else
 *                          log-spaced ranks plus the last 200): a log-log figure;
 *   exact_failures.dat     dist, sampler, path, P per call, P in 10^9 calls,
 *                          exact|bound, rational num/2^bits or -, token;
 *   exact_summary.dat      dist, sampler, TV, exact|bound, #never, #zero-p drawn,
 *                          worst token, its relative error.
 * Each file is written through a temporary name renamed into place. */
int sl_exact_report_data(const char *dir, const char *zipf_logits, sl_error *err);

#endif
