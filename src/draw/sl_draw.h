/* sl_draw.h — the draw-method layer: a draw type turns a probability vector
 * and a random source into a token (one file per method in src/draw/).
 * Uses the rng and base layers. Exported names start with sl_draw_. */
#ifndef SL_DRAW_H
#define SL_DRAW_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "rng/sl_rng.h"
#include "stats/sl_stat.h"

/* ---------------------------------------------------------------- draw methods */

/* What a draw method reads: one weight vector (V = vocabulary size) in both
 * precisions, the source's own roundings, and the precision the kernel
 * computes in. Weights need not sum to 1. */
typedef struct sl_draw_dist {
    size_t V;
    const double *d;     /* float64 weights (always set) */
    const float *f;      /* float32 weights; NULL where only d exists */
    sl_dtype dtype;      /* SL_F32: a float32 kernel reads f; SL_F64: d */
    const char *source;  /* name for messages */
    int sorted;          /* llama-dist: the chain sorted the array (its max is then f[0]) */
} sl_draw_dist;

/* A draw method, after GSL's gsl_ran_discrete: prepare once per distribution
 * (per-distribution cost), draw per token (per-draw cost), free. Framework
 * kernels (torch's race, NumPy's searchsorted, rand's WeightedIndex,
 * llama.cpp's dist) are draw types too; `param` selects a variant of the
 * same algorithm (a release line, a uniform conversion). */
typedef struct sl_draw_type {
    const char *name;
    const char *cost;   /* one line: per-distribution work, per-draw work, words per draw */
    int (*prepare)(void **table, const sl_draw_dist *p, const void *param, sl_error *err);
    size_t (*draw)(const void *table, sl_rng *rng);
    void (*free)(void *table);
    /* Optional: k tokens in one call, with the call's own checks (torch.multinomial(p, k));
     * NULL means k calls of draw. Errors draw nothing. */
    int (*draw_k)(const void *table, sl_rng *rng, size_t k, long *out, sl_error *err);
    const void *param;
    /* Optional: the exact audit of this sampler, beside it and built from its own
     * functions (its table, its search, its uniform grid); stats/ keeps the
     * bookkeeping over the counts. NULL when there is none. */
    const sl_stat_exact_type *exact;
} sl_draw_type;

/* prepare over a float64 vector p[0..V) (f = NULL, dtype SL_F64, source "probs").
 * Refused (SL_EINVAL, "probs: entry I is NaN"...): t NULL (an unknown name's
 * lookup), p NULL, V = 0, a NaN, infinite or negative entry, all entries zero. */
int sl_draw_prepare(const sl_draw_type *t, void **table, const double *p, size_t V, sl_error *err);
/* prepare over a dist, with the type's own param. */
int sl_draw_prepare_dist(const sl_draw_type *t, void **table, const sl_draw_dist *p, sl_error *err);
/* k tokens from a prepared table: the type's draw_k, or k draws. */
int sl_draw_k(const sl_draw_type *t, const void *table, sl_rng *rng, size_t k, long *out, sl_error *err);

/* ---------------------------------------------------------------- binary search (draw/search.c) */

/* The first i in a[0..n) with a[i] > x (gt; #{a[i] <= x} when sorted) or with
 * !(a[i] < x) (ge), n if none. On a sorted table without NaN every binary search
 * agrees; otherwise a NaN entry counts as not greater (gt) and not less (ge),
 * probed in torch's own bisection order for ge (search.c says why). */
size_t sl_draw_search_gt_f64(const double *a, size_t n, double x);
size_t sl_draw_search_ge_f64(const double *a, size_t n, double x);
size_t sl_draw_search_gt_f32(const float *a, size_t n, float x);
/* Four keys at once, each answered as sl_draw_search_gt_f32 answers it (for draw loops). */
void sl_draw_search_gt_f32_x4(const float *a, size_t n, const float x[4], size_t out[4]);
size_t sl_draw_search_ge_f32(const float *a, size_t n, double x);

/* ---------------------------------------------------------------- the exponential race (draw/race.c) */

/* What differs between the libraries' races (draw/race.c says where each comes from). */
enum { SL_RACE_U_RES53 = 0, SL_RACE_U_TORCH53 = 1 };
typedef struct sl_draw_race_rule {
    int uniform;   /* SL_RACE_U_RES53: genrand_res53 (NumPy; one 64-bit word: high 53 bits);
                      SL_RACE_U_TORCH53: torch's random64() & (2^53 - 1) */
    int log1p;     /* q = -log1p(-u) (torch 2.x) instead of -log(1 - u) */
    int nan_wins;  /* a NaN ratio wins, as torch's argmax; else NaN never wins */
} sl_draw_race_rule;

/* One weight vector prepared for races: the weights are not copied (they must
 * outlive the race); bound[] holds float upper bounds for the pre-test. */
typedef struct sl_draw_race {
    size_t V;
    sl_dtype dtype;          /* SL_F32: r = f / (float)q; SL_F64: d / q */
    const float *pf;
    const double *pd;
    float *bound;
    sl_draw_race_rule rule;
    int simd;                /* SL_SIMD_* level of the pre-test */
} sl_draw_race;

/* simd: SL_SIMD_AUTO, or a level to force (tests). Only allocation fails. */
int sl_draw_race_init(sl_draw_race *r, const sl_draw_dist *p, const sl_draw_race_rule *rule, int simd,
                      sl_error *err);
void sl_draw_race_free(sl_draw_race *r);
/* One race: V uniforms (2V words from a 32-bit source, V from a 64-bit one), few logs. */
size_t sl_draw_race_one(const sl_draw_race *r, sl_rng *rng);
/* The same race taking every log: what sl_draw_race_one must equal, token and words. */
size_t sl_draw_race_one_naive(const sl_draw_race *r, sl_rng *rng);
/* The race's argmax over given exponentials q[0..V) (as p's dtype holds them):
 * for exponentials from another generator (torch's MKL kernel). */
size_t sl_draw_race_argmax_q(const sl_draw_race *r, const double *q);
/* Every ratio of one race, widened to double (torch's top-k path), ratio[0..V). */
void sl_draw_race_ratios(const sl_draw_race *r, sl_rng *rng, double *ratio);
/* n exponentials as the rule draws them (torch.empty(n, dtype).exponential_()),
 * rounded to dtype and widened to double. 32-bit sources. */
void sl_draw_race_exponentials(const sl_draw_race_rule *rule, sl_dtype dtype, sl_rng *rng, double *out, size_t n);
/* The words n exponentials take, their values unused: a row of q.exponential_() that is
 * overwritten afterwards (vLLM's random_sample refills its seeded rows). */
void sl_draw_race_skip(sl_rng *rng, size_t n);

/* "exprace": the race over float64 weights with the generic uniform (NumPy's
 * random_sample over mt19937: np.argmax(p / -np.log(1 - u))), NaN never winning. */
extern const sl_draw_type sl_draw_exprace_type;
/* The plain race over p[0..V) with the generic rule (sl_draw_race_one_naive). */
size_t sl_draw_exprace_reference(const double *p, size_t V, sl_rng *rng);
extern const sl_draw_type sl_draw_cdf_type;
extern const sl_draw_type sl_draw_linear_type;
extern const sl_draw_type sl_draw_alias_type;
extern const sl_draw_type sl_draw_greedy_type;
extern const sl_draw_type *const sl_draw_types[]; /* NULL-terminated */
/* The audits of cdf, linear and alias (also their types' `exact`). */
extern const sl_stat_exact_type sl_draw_cdf_exact;
extern const sl_stat_exact_type sl_draw_linear_exact;
extern const sl_stat_exact_type sl_draw_alias_exact;
const sl_draw_type *sl_draw_lookup(const char *name);

/* ---------------------------------------------------------------- NumPy 1.24 choice with p (draw/numpy_choice.c) */

/* NumPy's choice(V, p=p) with replacement (Generator and RandomState, v1.24):
 * validation, then cdf = cumsum(p) left to right, cdf /= cdf[-1], and
 * searchsorted(cdf, u, side='right') (draw/numpy_choice.c). */
typedef struct sl_draw_numpy_check {
    int code;            /* 0 ok, else the NumPy ValueError below */
    const char *numpy_message; /* NumPy's own text, e.g. "probabilities do not sum to 1" */
    double kahan_sum;    /* NumPy's kahan_sum(p) */
    double atol;         /* sqrt(eps) of float64, or of float32 for a float32 array */
    size_t entry;        /* the first offending entry (NaN / negative) */
} sl_draw_numpy_check;
/* p in float64 (a float32 array widened exactly); is_f32: p came as a float32
 * ndarray, which widens NumPy's tolerance to sqrt(FLT_EPSILON). */
void sl_draw_numpy_validate(const double *p, size_t V, int is_f32, sl_draw_numpy_check *out);
/* NumPy's kahan_sum from numpy/random/_common.pyx (V >= 1). */
double sl_draw_numpy_kahan_sum(const double *p, size_t V);
/* cdf[i] = p[0] + ... + p[i] left to right, then each divided by cdf[V-1]. */
void sl_draw_numpy_cdf_build(const double *p, size_t V, double *cdf);

/* The draw type's param: the uniform NumPy turns words into, and replace=. */
typedef struct sl_draw_numpy_param {
    double (*uniform)(sl_rng *rng);
    int replace;                /* 0: choice(..., replace=False) (draw/numpy_noreplace.c) */
    const char *larger_message; /* replace=False: NumPy's ValueError for size > V */
} sl_draw_numpy_param;
/* The table both choices prepare: the cdf of p, and (replace=False) p itself. */
typedef struct sl_draw_numpy_table {
    size_t V;
    const sl_draw_numpy_param *param;
    double *p;          /* replace=False: p as validated (float64); else NULL */
    double cdf[];
} sl_draw_numpy_table;
/* The types' hooks: prepare validates p (NumPy's ValueErrors) and builds the
 * cdf; draw is one searchsorted of one uniform. */
int sl_draw_numpy_prepare(void **table, const sl_draw_dist *p, const void *param, sl_error *err);
size_t sl_draw_numpy_draw(const void *table, sl_rng *rng);
void sl_draw_numpy_free(void *table);
/* Generator.random(): (w >> 11) * 2^-53 of one 64-bit word. */
double sl_draw_numpy_generator_uniform(sl_rng *rng);
/* Generator.choice (one 64-bit word per draw: (w >> 11) * 2^-53) and
 * RandomState.choice (genrand_res53 from two 32-bit words). dist->d is p in
 * float64; dist->dtype SL_F32 when p was a float32 ndarray (its tolerance).
 * prepare reports NumPy's ValueError naming dist->source. */
extern const sl_draw_type sl_draw_numpy_choice_type;
extern const sl_draw_type sl_draw_numpy_legacy_choice_type;
/* Their audit (both: a 53-bit uniform), "numpy": the ValueError as a failure path. */
extern const sl_stat_exact_type sl_draw_numpy_exact;

/* ---------------------------------------------------------------- NumPy choice without replacement (draw/numpy_noreplace.c) */

/* choice(V, size=K, replace=False, p=p) (Generator and RandomState alike, NumPy
 * 1.24.2 and 2.4.6): rounds of K - found uniforms, each round over the cdf of p
 * with the found entries zeroed, keeping each new token at its first occurrence.
 * draw_k refuses K > V and K above the non-zero entries with NumPy's words;
 * draw (one token) is the replacement draw, as size=1 is. */
extern const sl_draw_type sl_draw_numpy_noreplace_type;        /* Generator: 1 word a uniform */
extern const sl_draw_type sl_draw_numpy_legacy_noreplace_type; /* RandomState: 2 words a uniform */

/* ---------------------------------------------------------------- std::discrete_distribution (draw/stdcxx_discrete.c) */

/* One draw of libstdc++'s std::discrete_distribution<int> over n float weights
 * read at w, w + stride bytes, ... (a field of an array of structs): n < 2
 * returns 0 and draws nothing, else two words. cp: n doubles of scratch. */
size_t sl_draw_stdcxx_discrete(const float *w, size_t stride, size_t n, double *cp, sl_rng *rng, sl_rng_stdcxx rule);

/* ---------------------------------------------------------------- llama.cpp's dist (draw/llama_dist.c) */

/* llama_sampler_dist_apply's draw over a candidate array: dist->f holds the
 * candidates' float32 logits in array order; draw returns an array index (the
 * caller maps it to a token id). One libstdc++ uniform double (2 words) per
 * draw; param says whether a one-candidate array draws it too (0.7.0: yes). */
typedef struct sl_draw_llama_param {
    int draw_single;    /* 1: one candidate still draws (llama.cpp 0.7.0, v0.4.0); 0: chosen without a draw */
    sl_rng_stdcxx stdcxx; /* the uniform's rule for a 1: that of the compiler libllama was built with */
} sl_draw_llama_param;
extern const sl_draw_llama_param sl_draw_llama_0_7_0;   /* the type's default (Debian sid: GCC >= 15) */
extern const sl_draw_llama_param sl_draw_llama_0_4_0;   /* v0.4.0 as node-llama-cpp 3.21.1 ships it (GCC 11.4) */
extern const sl_draw_llama_param sl_draw_llama_pr15704; /* the commit 0344068c after PR #15704 (GCC 12) */
extern const sl_draw_type sl_draw_llama_dist_type;
/* Its audit, "llamacpp": counts over the 2^64 word pairs; reads in->logits_f. */
extern const sl_stat_exact_type sl_draw_llama_dist_exact;
/* S[i] = double running sum of expf(logit[j] - max) for j <= i (n >= 1). */
int sl_draw_llama_dist_sums(const float *logit, size_t n, int sorted, double *S);
/* The array index for uniform u: first i with S[i] >= S[n-1] * u, else n - 1. */
size_t sl_draw_llama_dist_pick(const double *S, size_t n, double u);

/* ---------------------------------------------------------------- Ollama's Go draw (draw/go_cumsum.c) */

/* Ollama 0.24's draw over its transforms' array: dist->f the probabilities in
 * array order; float32 running sum, Go's Float32 (one 64-bit word) times the
 * total, the first index whose sum is >= it. draw returns an array index. */
extern const sl_draw_type sl_draw_go_cumsum_type;
/* The index a prepared table picks when Float32 is u / 2^24 (u < 2^24). */
size_t sl_draw_go_cumsum_pick(const void *table, uint32_t u);
/* below[j] = #{u < 2^24 : pick(u) <= j} for every index j (the pick is
 * nondecreasing in u): the exact counts of the draw, by binary search. */
void sl_draw_go_cumsum_counts(const void *table, uint64_t *below);

/* ---------------------------------------------------------------- rand WeightedIndex<f32> and <f64> (draw/rand_wi.c) */

/* What WeightedIndex::new reports. The panics are rand's `assert!`s in
 * UniformFloat::new (release build), reported here as errors. */
typedef enum sl_draw_rand_status {
    SL_RAND_OK = 0,
    SL_RAND_NO_ITEM,           /* WeightedError::NoItem: empty input */
    SL_RAND_INVALID_WEIGHT,    /* WeightedError::InvalidWeight: < 0, NaN, -inf */
    SL_RAND_ALL_WEIGHTS_ZERO,  /* WeightedError::AllWeightsZero: total == 0 (also -0.0) */
    SL_RAND_PANIC_RANGE,       /* panic "Uniform::new: range overflow": the f32 total is +inf */
    SL_RAND_NOMEM              /* ours: out of memory for the table */
} sl_draw_rand_status;

const char *sl_draw_rand_status_name(sl_draw_rand_status s);
/* The same in the words of rand `version` (8, 9 or 10): 0.9 and 0.10 rename the
 * errors InvalidInput, InvalidWeight, InsufficientNonZero; an f32 total of +inf
 * panics in 0.8 and 0.9 (0.9 read from source) and is Err(Overflow) in 0.10
 * (0.10.3 measured: data/golden/current/rand_wi_0.10.3.txt). */
const char *sl_draw_rand_status_name_v(sl_draw_rand_status s, int version);

/* UniformFloat<f32>::new(low, high): scale = high - low, then shrunk one ulp at a
 * time while scale * (1 - 2^-23) + low >= high (rand 0.8, version 8), or only
 * while it is > high (rand 0.9 and 0.10, version 9 or 10: new_bounded), so 0.9+
 * can draw the last index of a subnormal total even with weight 0. Returns
 * SL_RAND_PANIC_RANGE when rand fails (low >= high, or a non-finite scale). */
sl_draw_rand_status sl_draw_rand_uniform_f32_new(float low, float high, int version, float *scale);

typedef struct sl_draw_rand_wi {
    float *cum;      /* the n-1 running f32 sums rand stores (cum[i] = w[0] + ... + w[i]) */
    size_t n;        /* number of weights */
    float total;     /* f32 sum of all weights, left to right */
    float scale;     /* UniformFloat<f32>::new(0, total).scale */
} sl_draw_rand_wi;

/* WeightedIndex::<f32>::new(w[0..n]), checks in rand's order (first entry,
 * then each later one, then the total, then the uniform). On an error `*bad`
 * (if not NULL) is the offending entry for SL_RAND_INVALID_WEIGHT, else n,
 * and nothing stays allocated. Never touches a generator. */
sl_draw_rand_status sl_draw_rand_wi_new(sl_draw_rand_wi *wi, const float *w, size_t n, int version, size_t *bad);
/* Distribution::sample: one u32, one uniform f32 in [0, total), then the
 * number of stored sums <= it (binary_search_by ... unwrap_err). */
size_t sl_draw_rand_wi_sample(const sl_draw_rand_wi *wi, sl_rng *rng);
/* n samples into out[0..n): the same draws as n calls, in one loop. */
void sl_draw_rand_wi_sample_many(const sl_draw_rand_wi *wi, sl_rng *rng, size_t n, size_t *out);
void sl_draw_rand_wi_free(sl_draw_rand_wi *wi);
/* WeightedIndex<f64>: the same rule in float64 (UniformFloat<f64>: 1 - 2^-52). */
typedef struct sl_draw_rand_wi64 {
    double *cum;     /* the n-1 running f64 sums */
    size_t n;
    double total, scale;
} sl_draw_rand_wi64;
sl_draw_rand_status sl_draw_rand_uniform_f64_new(double low, double high, int version, double *scale);
sl_draw_rand_status sl_draw_rand_wi64_new(sl_draw_rand_wi64 *wi, const double *w, size_t n, int version, size_t *bad);
/* One u64 (two u32 words, low first: rand's next_u64), then the stored sums <= the uniform. */
size_t sl_draw_rand_wi64_sample(const sl_draw_rand_wi64 *wi, sl_rng *rng);
void sl_draw_rand_wi64_free(sl_draw_rand_wi64 *wi);
/* The same as a draw type: prepare = WeightedIndex::new over dist->f (f32) or
 * dist->d (f64) (rand's failures as errors), draw = sample, draw_k = sample_many
 * (f32). param: the rand release and the weights' type (NULL: 0.8, f32). */
typedef struct sl_draw_rand_param {
    int version;      /* 8, 9 or 10 */
    int f64;          /* 1: WeightedIndex<f64> over dist->d */
} sl_draw_rand_param;
extern const sl_draw_type sl_draw_rand_wi_type;
/* Its audit, "candle": counts over the 2^23 mantissa values; reads in->f. */
extern const sl_stat_exact_type sl_draw_rand_wi_exact;  /* rand 0.8 (0.8.5, 0.8.8) */
extern const sl_stat_exact_type sl_draw_rand_wi9_exact; /* rand 0.9 and 0.10: the scale shrink of new_bounded */

/* ---------------------------------------------------------------- torch.multinomial (draw/torch.c) */

enum { SL_TORCH_1_13 = 1, SL_TORCH_2 = 2 };   /* emulated release line */
/* The variant of one torch.multinomial(p, k, replacement) call. */
typedef struct sl_draw_torch_param {
    int version;        /* SL_TORCH_1_13 or SL_TORCH_2 */
    int replacement;
    size_t k;           /* samples a call (num_samples) */
    int simd;           /* SL_SIMD_AUTO, or a level the tests force */
} sl_draw_torch_param;
/* param: an sl_draw_torch_param (the const type below has none: set it in a copy).
 * prepare makes torch's checks (its messages quoted); draw_k then cannot fail.
 * Words: 2V a call on the race path, 2 a sample on the cdf path (torch-mt19937). */
extern const sl_draw_type sl_draw_torch_type;
/* The race of a prepared k = 1 table taking every log (the reference of the tests). */
size_t sl_draw_torch_naive(const void *table, sl_rng *rng);
/* torch.topk(v, k) indices (largest, sorted) with libstdc++'s order among equal values. */
int sl_draw_torch_topk(const double *v, size_t V, size_t k, long *out, sl_error *err);
/* 1 when multinomial(p, k, replacement) takes the exponential race (else the cdf
 * path): always without replacement; with it, one sample in 2.x, never in 1.13. */
int sl_draw_torch_takes_race(int version, int replacement, size_t k);
/* torch's audits: "torch" (2.x multinomial(p, 1), also replacement=True with one
 * sample: the race, q = -log1p(-u); exact failure paths and a rigorous TV bound),
 * "torch-1.13" (1.13's race, q = -log(1 - u)) and "torch-replacement" (the cdf
 * path, each sample of multinomial(p, n, replacement=True): 1.13 any n, 2.x n >= 2;
 * exact counts). */
extern const sl_stat_exact_type sl_draw_torch_race_exact;
extern const sl_stat_exact_type sl_draw_torch113_race_exact;
extern const sl_stat_exact_type sl_draw_torch_repl_exact;

/* ---------------------------------------------------------------- Gumbel-max (draw/gumbel.c) */

/* The argmax of every Gumbel-max sampler (torch.argmax's and jnp.argmax's order): a
 * NaN beats everything and the first NaN stays; otherwise the larger wins and a tie
 * keeps the lower index; no column offered (or all -inf): token 0. */
typedef struct sl_draw_gumbel_max {
    size_t best;             /* SIZE_MAX: none yet */
    double best_v;
} sl_draw_gumbel_max;
static inline void sl_draw_gumbel_max_init(sl_draw_gumbel_max *m)
{
    m->best = SIZE_MAX;
    m->best_v = -INFINITY;
}
static inline void sl_draw_gumbel_max_offer(sl_draw_gumbel_max *m, size_t i, double v)
{
    if (m->best != SIZE_MAX && (m->best_v != m->best_v || !(v != v || v > m->best_v)))
        return;
    m->best = i;
    m->best_v = v;
}
static inline size_t sl_draw_gumbel_max_token(const sl_draw_gumbel_max *m)
{
    return m->best == SIZE_MAX ? 0 : m->best;
}
/* "gumbel": argmax(log w_i - log(-log u_i)) over float64 weights, one generic 53-bit
 * uniform per column (sl_rng_uniform_f64), with its exact audit (a rigorous TV bound). */
extern const sl_draw_type sl_draw_gumbel_type;
extern const sl_stat_exact_type sl_draw_gumbel_exact;
/* JAX's and MLX's categorical over float32 logits[0..V) given the uniforms u[0..V):
 * argmax((-logf(-logf(u_i))) + logits_i) in float32, the first maximum (a NaN first). */
size_t sl_draw_gumbel_f32(const float *logits, const float *u, size_t V);

/* ---------------------------------------------------------------- SGLang's seeded Gumbel-max (draw/gumbel_hash.c) */

/* dist->d holds the log-probabilities in column order (-inf for removed columns);
 * the draw hashes one 32-bit word per column from the source (sglang-murmur3, at the
 * row's position) and returns the column of torch.argmax(logp + noise). */
typedef struct sl_draw_gumbel_param {
    int clamp_high;           /* 1: log x <= -2^-32 (PR #33423); 0: the low end only (0.5.9-0.5.12) */
} sl_draw_gumbel_param;
extern const sl_draw_type sl_draw_gumbel_hash_type; /* param: clamp both ends */

/* transformers.js 4.x's _weightedIndex (draw/tjs_weighted.c): x = random() * (double sum of the
 * weights), x -= w[i] in order until x < 0, else the last index; f (float32) weights when set. */
extern const sl_draw_type sl_draw_tjs_weighted_type;
/* TensorFlow.js 4.22's CPU multinomial (draw/tfjs_cdf.c): float32 cdf of the first V - 1
 * probabilities as given, the first with alea() < cdf[i], else V - 1; V >= 2. */
extern const sl_draw_type sl_draw_tfjs_type;
/* The distribution a prepared tfjs-cdf table draws from, on alea's 2^-32 grid: p[0..V). */
void sl_draw_tfjs_probs(const void *table, double *p);
/* The noise of one hash word, as multinomial_with_seed computes it in float64. */
double sl_draw_gumbel_noise(uint32_t h, int clamp_high);

#endif
