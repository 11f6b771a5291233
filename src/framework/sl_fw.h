/* sl_fw.h — the framework layer: bit-exact emulations of real libraries, each
 * a fixed choice of pipeline, draw method, generator and seeding. Uses the
 * logits, draw, rng and base layers. Exported names start with sl_fw_. */
#ifndef SL_FW_H
#define SL_FW_H

#include <stddef.h>
#include <stdint.h>

#include "logits/sl_logits.h"

/* ---------------------------------------------------------------- framework emulations */

typedef struct sl_fw_opts {
    const sl_vec *probs;      /* exactly one of probs / logits */
    const sl_vec *logits;
    sl_seed seed;
    int has_seed;             /* 0: the framework's default seed */
    size_t n;                 /* calls */
    size_t k;                 /* samples per call (num-samples) */
    int replacement;
    int dtype_set; sl_dtype dtype;
    const char *variant;      /* e.g. torch "2"; NULL = default */
    int simd_sum;
    sl_logits_cfg cfg;        /* the pipeline settings (temperature, filters, penalties, context) */
} sl_fw_opts;

/* What a framework run produced: n calls of k tokens each, row-major. */
typedef struct sl_fw_result {
    size_t n, k;
    long *tokens;             /* n*k entries, malloc'd */
    const char *rng_name;     /* as reported in --json */
    unsigned word_bits;
    uint64_t words;           /* words consumed by all calls */
} sl_fw_result;

typedef struct sl_fw_type {
    const char *name;
    const char *summary;      /* one line for --help */
    unsigned accepts;         /* SL_OPT_* bits */
    int (*run)(const sl_fw_opts *o, sl_fw_result *out, sl_error *err);
} sl_fw_type;

extern const sl_fw_type *const sl_fw_types[]; /* NULL-terminated */
const sl_fw_type *sl_fw_lookup(const char *name);
void sl_fw_result_free(sl_fw_result *r);

/* llama.cpp (framework/llamacpp.c): the chain of logits/llamacpp.c, then
 * llama_sampler_dist_apply with std::mt19937 and libstdc++'s uniform double. */
extern const sl_fw_type sl_fw_llamacpp_type;
/* transformers (framework/hf.c): the hf pipeline, then the torch framework's
 * torch.multinomial(probs, 1). */
extern const sl_fw_type sl_fw_hf_type;
/* vLLM (framework/vllm.c): the vllm pipeline, then random_sample's
 * argmax(probs / q) from the request's seeded torch.Generator. */
extern const sl_fw_type sl_fw_vllm_type;
/* std::uniform_real_distribution<double>(0, 1) over std::mt19937 as
 * libstdc++ computes it: generate_canonical<double, 53>, two 32-bit words. */
double sl_fw_llamacpp_uniform(sl_rng *r);
/* ---------------------------------------------------------------- torch (framework/torch.c) */

extern const sl_fw_type sl_fw_torch_type;

/* ---------------------------------------------------------------- NumPy (rng/seedseq.c, rng/pcg64.c,
 * rng/numpy_mt19937.c, framework/numpy.c) and GSL (framework/gsl.c) */

/* NumPy's choice(V, p=p) with replacement (Generator and RandomState, v1.24):
 * validation, then cdf = cumsum(p) left to right, cdf /= cdf[-1], and
 * searchsorted(cdf, u, side='right'). */
typedef struct sl_fw_numpy_check {
    int code;            /* 0 ok, else the NumPy ValueError below */
    const char *numpy_message; /* NumPy's own text, e.g. "probabilities do not sum to 1" */
    double kahan_sum;    /* NumPy's kahan_sum(p) */
    double atol;         /* sqrt(eps) of float64, or of float32 for a float32 array */
    size_t entry;        /* the first offending entry (NaN / negative) */
} sl_fw_numpy_check;
/* p in float64 (a float32 array widened exactly); is_f32: p came as a float32
 * ndarray, which widens NumPy's tolerance to sqrt(FLT_EPSILON). */
void sl_fw_numpy_validate(const double *p, size_t V, int is_f32, sl_fw_numpy_check *out);
/* NumPy's kahan_sum from numpy/random/_common.pyx (V >= 1). */
double sl_fw_numpy_kahan_sum(const double *p, size_t V);
/* cdf[i] = p[0] + ... + p[i] left to right, then each divided by cdf[V-1]. */
void sl_fw_numpy_cdf_build(const double *p, size_t V, double *cdf);
/* #{i : cdf[i] <= u} = searchsorted(cdf, u, side='right'). */
size_t sl_fw_numpy_cdf_search(const double *cdf, size_t V, double u);

extern const sl_fw_type sl_fw_numpy_type;        /* "numpy" */
extern const sl_fw_type sl_fw_numpy_legacy_type; /* "numpy-legacy" */
extern const sl_fw_type sl_fw_gsl_type;          /* "gsl" */

/* ---------------------------------------------------------------- framework types */

/* "candle": candle 0.11 LogitsProcessor / rand WeightedIndex<f32> with StdRng. */
extern const sl_fw_type sl_fw_candle_type;

/* ---------------------------------------------------------------- shared by the logits frameworks (framework/after_pipeline.c) */

/* Runs pipeline t on o->logits, then torch.multinomial(probs, 1) per call
 * (argmax without a word when the settings are greedy). */
int sl_fw_torch_after_pipeline(const sl_logits_pipeline_type *t, const sl_fw_opts *o, sl_fw_result *out, sl_error *err);

#endif
