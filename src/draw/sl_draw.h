/* sl_draw.h — the draw-method layer: a draw type turns a probability vector
 * and a random source into a token (one file per method in src/draw/).
 * Uses the rng and base layers. Exported names start with sl_draw_. */
#ifndef SL_DRAW_H
#define SL_DRAW_H

#include <stddef.h>
#include <stdint.h>

#include "rng/sl_rng.h"

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
} sl_draw_type;

/* prepare over a float64 vector p[0..V) (f = NULL, dtype SL_F64, source "probs"). */
int sl_draw_prepare(const sl_draw_type *t, void **table, const double *p, size_t V, sl_error *err);
/* prepare over a dist, with the type's own param. */
int sl_draw_prepare_dist(const sl_draw_type *t, void **table, const sl_draw_dist *p, sl_error *err);
/* k tokens from a prepared table: the type's draw_k, or k draws. */
int sl_draw_k(const sl_draw_type *t, const void *table, sl_rng *rng, size_t k, long *out, sl_error *err);

extern const sl_draw_type sl_draw_exprace_type;
/* The exponential race without shortcuts, one sl_rng_uniform_f64 and one log per token:
 * what exprace's draw must equal, token and words (kept for the tests). */
size_t sl_draw_exprace_reference(const double *p, size_t V, sl_rng *rng);
extern const sl_draw_type sl_draw_cdf_type;
extern const sl_draw_type sl_draw_linear_type;
extern const sl_draw_type sl_draw_alias_type;
extern const sl_draw_type sl_draw_greedy_type;
extern const sl_draw_type *const sl_draw_types[]; /* NULL-terminated */
const sl_draw_type *sl_draw_lookup(const char *name);
/* First i with cum[i] > target, or V if none (the cdf method's search). */
size_t sl_draw_cdf_search(const double *cum, size_t V, double target);

/* ---------------------------------------------------------------- rand 0.8.5 WeightedIndex<f32> (draw/rand_wi.c) */

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

/* UniformFloat<f32>::new(low, high) of rand 0.8.5: scale = high - low, then
 * shrunk one ulp at a time while scale * (1 - 2^-23) + low >= high. Returns
 * SL_RAND_PANIC_RANGE when rand panics (low >= high, or a non-finite scale). */
sl_draw_rand_status sl_draw_rand_uniform_f32_new(float low, float high, float *scale);
/* One sample: value1_2 = bits (w >> 9) | 0x3f800000, minus 1, times scale, plus low. One word. */
float sl_draw_rand_uniform_f32_sample(float low, float scale, sl_rng *rng);

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
sl_draw_rand_status sl_draw_rand_wi_new(sl_draw_rand_wi *wi, const float *w, size_t n, size_t *bad);
/* Distribution::sample: one u32, one uniform f32 in [0, total), then the
 * number of stored sums <= it (binary_search_by ... unwrap_err). */
size_t sl_draw_rand_wi_sample(const sl_draw_rand_wi *wi, sl_rng *rng);
/* n samples into out[0..n): the same draws as n calls, in one loop. */
void sl_draw_rand_wi_sample_many(const sl_draw_rand_wi *wi, sl_rng *rng, size_t n, size_t *out);
void sl_draw_rand_wi_free(sl_draw_rand_wi *wi);

#endif
