/* sl_framework.h — framework emulations: generators and helpers of the bit-exact emulations.
 * Included by samplab.h; see there for conventions. */
#ifndef SL_FRAMEWORK_H
#define SL_FRAMEWORK_H

/* ---------------------------------------------------------------- torch (framework/torch.c) */

/* torch's CPU generator: MT19937, init_genrand(seed & 0xFFFFFFFF), seeds up to 2^64-1. */
extern const sl_rng_type sl_rng_torch_mt19937_type;
int sl_rng_torch_mt19937_seed(sl_rng_mt19937_state *s, const sl_seed *seed, sl_error *err);
/* Writes the next n words (the same as n sl_rng_mt19937_next calls), a block at a time. */
void sl_rng_torch_mt19937_fill(sl_rng_mt19937_state *s, uint32_t *out, size_t n);
void sl_rng_torch_mt19937_twist(sl_rng_mt19937_state *s);
/* Vector width of the twist and of the race's pre-test. AUTO picks AVX2 when the CPU
 * has it, else SSE2 (x86-64), else scalar; tests force each level (same output). */
enum { SL_SIMD_AUTO = 0, SL_SIMD_SCALAR = 1, SL_SIMD_SSE2 = 2, SL_SIMD_AVX2 = 3 };
int sl_rng_torch_simd_level(int wanted);   /* the level that will run for `wanted` */
void sl_rng_torch_mt19937_twist_simd(sl_rng_mt19937_state *s, int level);

extern const sl_framework_type sl_framework_torch_type;

enum { SL_TORCH_1_13 = 1, SL_TORCH_2 = 2 };   /* emulated release line (2: checked on 2.6.0) */
enum { SL_TORCH_FAST = 0, SL_TORCH_NAIVE = 1 };/* one-sample race: log-skipping or every log */

/* One probability row as torch holds it, prepared once for many calls. */
typedef struct sl_fw_torch_dist {
    size_t V;
    sl_dtype dtype;        /* SL_F32: pf is read; SL_F64: pd */
    const float *pf;
    const double *pd;
    int version;           /* SL_TORCH_1_13 or SL_TORCH_2 */
    float *bound;          /* float upper bounds of p (the fast race's pre-test) */
    void *cdf;             /* replacement path: normalised cumulative sums (float or double) */
    /* input checks, done once: index of the first entry each path rejects (SIZE_MAX: none) */
    size_t bad_race;       /* NaN, +-inf or < 0 (race path message) */
    size_t bad_cdf;        /* first entry failing `val >= 0 && isfinite(val)` */
    int bad_cdf_neg;       /* 1: that entry fails `val >= 0` (also NaN), 0: it is infinite */
    int all_zero;          /* race: sum == 0 */
    int cdf_sum_ok;        /* replacement: sequential dtype sum > 0 */
    const char *source;    /* name for messages */
    int simd;              /* SL_SIMD_* level of the fast race (prepare: the best available) */
} sl_fw_torch_dist;

/* Prepares p (not copied: pf/pd must outlive dist). Only allocation fails here;
 * invalid entries are reported by the call that meets them, as torch does. */
int sl_fw_torch_prepare(sl_fw_torch_dist *d, const float *pf, const double *pd, size_t V, sl_dtype dtype,
                        int version, const char *source, sl_error *err);
void sl_fw_torch_free(sl_fw_torch_dist *d);

/* One torch.multinomial(p, k, replacement) call: writes k tokens to out and adds the
 * 32-bit words drawn to *words. Errors (torch's message quoted) draw nothing. mode:
 * SL_TORCH_FAST or SL_TORCH_NAIVE (the reference the fast path is tested against). */
int sl_fw_torch_multinomial(const sl_fw_torch_dist *d, sl_rng_mt19937_state *mt, size_t k, int replacement,
                            int mode, long *out, uint64_t *words, sl_error *err);

/* torch.empty(n, dtype).exponential_() (lambda = 1), widened to double; adds 2·n to *words. */
void sl_fw_torch_exponential(sl_rng_mt19937_state *mt, sl_dtype dtype, int version, double *out, size_t n,
                             uint64_t *words);

/* torch.topk(v, k) indices (largest, sorted) with libstdc++'s order among equal values;
 * the tests compare it with the real std::partial_sort / nth_element / sort. */
int sl_fw_torch_topk(const double *v, size_t V, size_t k, long *out, sl_error *err);

/* ---------------------------------------------------------------- NumPy (rng/seedseq.c, rng/pcg64.c,
 * rng/numpy_mt19937.c, framework/numpy.c) and GSL (framework/gsl.c) */

/* NumPy's SeedSequence (numpy/random/bit_generator.pyx, v1.24): a 4-word pool
 * hashed from the entropy words (lowest base-2^32 digit first) and an optional
 * spawn key; generate_state hashes the pool out again. */
typedef struct sl_rng_seedseq {
    uint32_t pool[4];
} sl_rng_seedseq;
/* entropy: n words (n >= 1); spawn: nspawn words appended after the entropy,
 * which is first zero-padded to 4 words when a spawn key is present. */
void sl_rng_seedseq_init(sl_rng_seedseq *ss, const uint32_t *entropy, size_t n,
                         const uint32_t *spawn, size_t nspawn);
void sl_rng_seedseq_generate32(const sl_rng_seedseq *ss, uint32_t *out, size_t n);
/* generate_state(n, np.uint64): word i = w[2i] | w[2i+1] << 32. */
void sl_rng_seedseq_generate64(const sl_rng_seedseq *ss, uint64_t *out, size_t n);
/* An integer as NumPy coerces it: base-2^32 digits, lowest first, 0 -> [0].
 * Returns the count (1..4). */
size_t sl_rng_seedseq_int_words(uint64_t lo, uint64_t hi, uint32_t out[4]);

/* PCG64 as NumPy 1.24 uses it: pcg-c's setseq XSL-RR 128/64 (step first,
 * then output from the new state). 128-bit values as hi/lo halves. */
typedef struct sl_rng_pcg64_state {
    uint64_t state_hi, state_lo, inc_hi, inc_lo;
} sl_rng_pcg64_state;
void sl_rng_pcg64_srandom(sl_rng_pcg64_state *s, uint64_t initstate_hi, uint64_t initstate_lo,
                          uint64_t initseq_hi, uint64_t initseq_lo);
/* default_rng / PCG64(seed) with a SeedSequence: generate_state(4, uint64). */
void sl_rng_pcg64_seed_seedseq(sl_rng_pcg64_state *s, const sl_rng_seedseq *ss);
uint64_t sl_rng_pcg64_next(sl_rng_pcg64_state *s);
/* PCG64.advance(delta), delta mod 2^128 (Brown 1994, O(log delta)). */
void sl_rng_pcg64_advance(sl_rng_pcg64_state *s, uint64_t delta_lo, uint64_t delta_hi);

/* "pcg64": seed S as default_rng(S) (SeedSequence(S)); a stream q gives
 * SeedSequence(S, spawn_key=(q,)). 64-bit words. */
extern const sl_rng_type sl_rng_pcg64_type;
/* "numpy-mt19937": np.random.seed(S) (RandomState legacy seeding): S in
 * [0, 2^32) -> init_genrand(S). 32-bit words. */
extern const sl_rng_type sl_rng_numpy_mt19937_type;

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

extern const sl_framework_type sl_framework_numpy_type;        /* "numpy" */
extern const sl_framework_type sl_framework_numpy_legacy_type; /* "numpy-legacy" */
extern const sl_framework_type sl_framework_gsl_type;          /* "gsl" */

#endif
