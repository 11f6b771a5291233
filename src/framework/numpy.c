/* numpy.c — bit-exact emulations of NumPy 1.24's weighted choice with replacement
 * (the kernel is the draw type in draw/numpy_choice.c; this file picks the
 * generator, the seeding and NumPy's view of p):
 *   "numpy"        rng = np.random.default_rng(S); N times rng.choice(V, p=p[, size=K])
 *                  (Generator.choice in numpy/random/_generator.pyx over PCG64
 *                  seeded through SeedSequence; rng/pcg64.c)
 *   "numpy-legacy" np.random.seed(S); N times np.random.choice(V, p=p[, size=K])
 *                  (RandomState.choice in numpy/random/mtrand.pyx over MT19937,
 *                  init_genrand seeding; rng/numpy_mt19937.c)
 * Both validate p as NumPy does (kahan_sum of numpy/random/_common.pyx; NaN,
 * then negative, then |sum - 1| > atol with atol = sqrt(DBL_EPSILON), or
 * sqrt(FLT_EPSILON) as a float32 when p is a float32 ndarray), then build
 * cdf = p.cumsum() (strictly left to right), cdf /= cdf[-1] (IEEE division by
 * the last entry), and return cdf.searchsorted(u, side='right') = #{i: cdf[i] <= u}.
 * u is Generator.random() = (w >> 11) * 2^-53 from ONE 64-bit PCG64 word, or
 * RandomState.random_sample() = genrand_res53 from TWO 32-bit MT words.
 * Divergence by design: NumPy rebuilds the cdf on every call (O(V)); here it
 * is built once per run since p does not change, which gives the same bits.
 * A float32 .npy is what np.load gives a NumPy user: a float32 ndarray, so its
 * values are widened exactly and the float32 tolerance applies; --dtype float32
 * on text input means np.array(list_of_floats, dtype=np.float32).
 * Checked against data/golden/numpy_{choice,legacy,validate}.txt (Debian python3-numpy 1.24.2).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

/* p as NumPy receives it: float64, or a float32 array widened exactly. */
static int numpy_probs(const sl_fw_opts *o, double **pout, int *is_f32, sl_error *err)
{
    const sl_vec *v = o->probs;
    if (!v)
        return sl_base_error_set(err, SL_EINVAL, "numpy: needs --probs (choice takes probabilities p)");
    int f32 = o->dtype_set ? o->dtype == SL_F32 : v->dtype == SL_F32;
    double *p = malloc((v->n ? v->n : 1) * sizeof *p);
    if (!p)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu probabilities", v->source, v->n);
    for (size_t i = 0; i < v->n; i++) {
        if (!f32)
            p[i] = v->dtype == SL_F32 ? (double)v->f[i] : v->d[i];
        else
            p[i] = v->dtype == SL_F32 ? (double)v->f[i] : (double)(float)v->d[i];
    }
    *pout = p;
    *is_f32 = f32;
    return SL_OK;
}

/* The shared run: validate and build the cdf once (the draw type's prepare),
 * then n calls of k draws, the words counted by the generator wrapper. */
static int numpy_run_with(const sl_fw_opts *o, sl_fw_result *out, sl_error *err, const sl_rng_type *t,
                          const sl_draw_type *dt, const char *rng_name)
{
    double *p = NULL;
    void *table = NULL;
    int is_f32 = 0, rc;
    memset(out, 0, sizeof *out);
    if ((rc = numpy_probs(o, &p, &is_f32, err)))
        return rc;
    const sl_vec *v = o->probs;
    sl_draw_dist dist = {v->n, p, NULL, is_f32 ? SL_F32 : SL_F64, v->source};
    if ((rc = sl_draw_prepare_dist(dt, &table, &dist, err))) {
        free(p);
        return rc;
    }
    size_t V = v->n, n = o->n, k = o->k;
    if (k && n > SIZE_MAX / sizeof(long) / k) {
        rc = sl_base_error_set(err, SL_EINVAL, "numpy: --n times --num-samples is too large");
        goto done;
    }
    sl_rng rng;
    sl_seed seed = o->seed; /* without --seed: samplab's default seed (NumPy's own default is OS entropy) */
    if ((rc = sl_rng_init(&rng, t, &seed, err)))
        goto done;
    size_t total = n * k;
    out->tokens = malloc((total ? total : 1) * sizeof *out->tokens);
    if (!out->tokens) {
        sl_rng_release(&rng);
        rc = sl_base_error_set(err, SL_ENOMEM, "numpy: out of memory for %zu draws over V = %zu", n * k, V);
        goto done;
    }
    if ((rc = sl_draw_k(dt, table, &rng, total, out->tokens, err))) {
        sl_rng_release(&rng);
        sl_fw_result_free(out);
        goto done;
    }
    out->n = n;
    out->k = k;
    out->rng_name = rng_name;
    out->word_bits = t->word_bits;
    out->words = rng.words;
    sl_rng_release(&rng);
done:
    dt->free(table);
    free(p);
    return rc;
}

static int numpy_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    return numpy_run_with(o, out, err, &sl_rng_pcg64_type, &sl_draw_numpy_choice_type, "numpy-pcg64");
}

static int numpy_legacy_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    if (o->seed.hi || o->seed.lo > 0xffffffffull) {
        memset(out, 0, sizeof *out);
        return sl_base_error_set(err, SL_EINVAL,
                            "numpy-legacy: np.random.seed takes integers below 2^32, --framework numpy "
                            "up to 2^128 - 1 (NumPy: Seed must be between 0 and 2**32 - 1)");
    }
    return numpy_run_with(o, out, err, &sl_rng_numpy_mt19937_type, &sl_draw_numpy_legacy_choice_type,
                          "numpy-mt19937");
}

const sl_fw_type sl_fw_numpy_type = {
    .name = "numpy",
    .summary = "NumPy 1.24 default_rng(S).choice(V, p=p[, size=K]): SeedSequence + PCG64, cdf + searchsorted",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_DTYPE,
    .draw = &sl_draw_numpy_choice_type,
    .exact = &sl_draw_numpy_exact,
    .run = numpy_run,
};

const sl_fw_type sl_fw_numpy_legacy_type = {
    .name = "numpy-legacy",
    .summary = "NumPy 1.24 np.random.seed(S); np.random.choice(V, p=p[, size=K]): MT19937, 2 words per draw",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_DTYPE,
    .draw = &sl_draw_numpy_legacy_choice_type,
    .exact = &sl_draw_numpy_exact,
    .run = numpy_legacy_run,
};
