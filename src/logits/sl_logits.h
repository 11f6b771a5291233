/* sl_logits.h — logits pipelines per framework (temperature, top-k, top-p, min-p, typical, penalties).
 * Included by samplab.h; see there for conventions. */
#ifndef SL_LOGITS_H
#define SL_LOGITS_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- candle 0.11 (logits/candle.c) */

/* candle-transformers generation::Sampling. */
typedef enum sl_logits_candle_sampling {
    SL_CANDLE_ARGMAX = 0,       /* Sampling::ArgMax */
    SL_CANDLE_ALL,              /* Sampling::All { temperature } */
    SL_CANDLE_TOPK,             /* Sampling::TopK { k, temperature } */
    SL_CANDLE_TOPP,             /* Sampling::TopP { p, temperature } */
    SL_CANDLE_TOPK_TOPP         /* Sampling::TopKThenTopP { k, p, temperature } */
} sl_logits_candle_sampling;

typedef struct sl_logits_candle_cfg {
    sl_logits_candle_sampling sampling;
    double temperature;  /* f64, as Sampling holds it; unused for ArgMax */
    size_t k;            /* TopK, TopKThenTopP */
    double p;            /* TopP, TopKThenTopP: f64, compared as candle does (f64 or f32) */
    int simd_sum;        /* softmax sum in the 4x8-lane AVX order (candle-core built with avx) */
} sl_logits_candle_cfg;

/* The Sampling that LogitsProcessor::new(seed, T, p) would build, extended
 * with k: ArgMax when T is absent or < 1e-7; else TopKThenTopP (k and p),
 * TopK (k), TopP (p) or All. k < 0 is an error; NaN T or p go on as in candle. */
int sl_logits_candle_cfg_make(int has_t, double t, int has_k, long k, int has_p, double p, int simd_sum,
                              sl_logits_candle_cfg *cfg, sl_error *err);
/* "argmax", "all T=..", "topk K=.. T=..", ... for messages and reports. */
void sl_logits_candle_cfg_describe(const sl_logits_candle_cfg *cfg, char *buf, size_t len);

/* candle's `&logits / T` (= affine(1/T, 0): x * (float)(1.0 / T) + 0.0f)
 * then candle-nn softmax_last_dim on the CPU: max by an f32::max fold,
 * expf(x - max) (the platform libm, glibc here), an f32 sum (sequential, or
 * the AVX order when simd_sum), then a division. out may equal logits. */
void sl_logits_candle_softmax(const float *logits, size_t V, double temperature, int simd_sum, float *out);
/* candle-core cpu::vec_sum with AVX: 4 accumulators of 8 lanes over
 * 32-element steps, reduced (a0+a1)+(a2+a3), then high+low 128-bit halves,
 * two horizontal adds, then the tail added one by one. */
float sl_logits_candle_sum_simd(const float *x, size_t n);

/* Rust std's slice::select_nth_unstable_by(k, |&i, &j| prs[j].total_cmp(&prs[i]))
 * on idx[0..V] (token ids), the introselect of rustc 1.95 (core/src/slice/
 * sort/select.rs with shared/pivot.rs choose_pivot, shared/smallsort.rs
 * insertion sort and unstable/quicksort.rs branchless cyclic Lomuto
 * partition): the order of idx afterwards is the real std's. k < V (else
 * nothing moves). Returns 0, or SL_ENOMEM (idx untouched). */
int sl_logits_candle_select_nth(size_t *idx, size_t V, size_t k, const float *prs);

/* sample_topp's clamp: stable sort by descending total_cmp, f32 running
 * sum; a probability is zeroed once the sum of the ones kept before it
 * reaches p. Returns 0 or SL_ENOMEM (prs untouched). */
int sl_logits_candle_topp_zero(float *prs, size_t n, float p);

/* candle-transformers utils::apply_repeat_penalty(logits, penalty, context):
 * every distinct id of the context that is < V, once: logit >= 0 (also -0.0)
 * is divided by the penalty, otherwise multiplied. Ids >= V or < 0 are
 * skipped, as candle's get_mut does. Returns the number of logits changed,
 * or -1 when out of memory. */
long sl_logits_candle_repeat_penalty(float *logits, size_t V, float penalty, const long *context, size_t n);

/* The distribution LogitsProcessor::sample draws from, for one step over
 * logits[0..V] (float32; candle converts to f32 first):
 *   weights[0..*m]  the f32 weights handed to WeightedIndex, in the order it
 *                   draws over them (not normalised; removed tokens are 0),
 *   order[0..*m]    the token id of each weight.
 * All/TopP: *m = V, order = identity. TopK/TopKThenTopP with k < V: *m = k,
 * order = the partition order std's select_nth_unstable_by leaves.
 * ArgMax: *m = 1, weights[0] = 1, order[0] = the first maximal logit (a NaN
 * at index 0 wins, later NaNs are ignored, as candle's CPU argmax); no draw.
 * weights and order need room for V entries.
 * Returns 0, or SL_ENOMEM. It does not validate the weights: feed them to
 * sl_fw_rand_wi_new, which reports what rand would (e.g. NaN logits give
 * InvalidWeight, k = 0 gives NoItem, TopKThenTopP with k >= V and p <= 0
 * gives AllWeightsZero). */
int sl_logits_candle_process(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, float *weights,
                             size_t *order, size_t *m, sl_error *err);

/* candle's final distribution in token order, for printing: p[t] = weight of
 * token t / the f32 total WeightedIndex divides by (0 for removed tokens;
 * ArgMax: one-hot). p has V entries. When rand would refuse the weights
 * (NaN, all zero, no token, +inf total) returns SL_EINVAL with rand's
 * error name in err. The exact chance of a token differs from p[t] by less
 * than 2^-23 (the uniform has 23 random bits). */
int sl_logits_candle_probs(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, double *p, sl_error *err);

#endif
