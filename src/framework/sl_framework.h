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

#endif
