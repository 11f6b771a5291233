/* numpy.c — bit-exact emulations of NumPy 1.24's weighted choice with replacement:
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

double sl_fw_numpy_kahan_sum(const double *p, size_t V)
{
    /* Compensated sum exactly as NumPy writes it; needs -ffp-contract=off. */
    double sum = p[0], c = 0.0;
    for (size_t i = 1; i < V; i++) {
        double y = p[i] - c;
        double t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    return sum;
}

void sl_fw_numpy_validate(const double *p, size_t V, int is_f32, sl_fw_numpy_check *out)
{
    memset(out, 0, sizeof *out);
    /* np.sqrt(np.finfo(np.float32).eps) is a float32: 0x1.6a09e6p-12, and
     * max(float64 atol, it) compares and keeps it exactly. */
    out->atol = is_f32 ? (double)sqrtf(FLT_EPSILON) : sqrt(DBL_EPSILON);
    out->kahan_sum = V ? sl_fw_numpy_kahan_sum(p, V) : 0.0;
    if (V == 0) {
        out->code = SL_EINVAL;
        out->numpy_message = "a cannot be empty unless no samples are taken";
        return;
    }
    if (isnan(out->kahan_sum)) {
        out->code = SL_EINVAL;
        out->numpy_message = "probabilities contain NaN";
        /* Point at a NaN entry, or else at the first infinity that made the sum NaN. */
        size_t first_inf = V;
        for (size_t i = 0; i < V; i++) {
            if (isnan(p[i])) {
                out->entry = i;
                return;
            }
            if (isinf(p[i]) && first_inf == V)
                first_inf = i;
        }
        out->entry = first_inf;
        return;
    }
    for (size_t i = 0; i < V; i++)
        if (p[i] < 0) {
            out->code = SL_EINVAL;
            out->numpy_message = "probabilities are not non-negative";
            out->entry = i;
            return;
        }
    if (fabs(out->kahan_sum - 1.0) > out->atol) {
        out->code = SL_EINVAL;
        out->numpy_message = "probabilities do not sum to 1";
    }
}

void sl_fw_numpy_cdf_build(const double *p, size_t V, double *cdf)
{
    double s = 0.0;
    for (size_t i = 0; i < V; i++) {
        s += p[i];
        cdf[i] = s;
    }
    /* cdf[-1] is read once, before the in-place division, as NumPy does. */
    double last = cdf[V - 1];
    for (size_t i = 0; i < V; i++)
        cdf[i] /= last;
}

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

static int numpy_check(const sl_vec *v, const double *p, int is_f32, sl_error *err)
{
    sl_fw_numpy_check c;
    sl_fw_numpy_validate(p, v->n, is_f32, &c);
    if (!c.code)
        return SL_OK;
    const char *what = is_f32 ? "float32" : "float64";
    if (v->n == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: empty vector (NumPy: %s)", v->source, c.numpy_message);
    if (!strcmp(c.numpy_message, "probabilities contain NaN")) {
        if (isnan(p[c.entry]))
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is NaN (NumPy: %s)", v->source, c.entry,
                                c.numpy_message);
        return sl_base_error_set(err, SL_EINVAL,
                            "%s: entry %zu is %s, which makes NumPy's Kahan sum of p NaN (NumPy: %s)",
                            v->source, c.entry, p[c.entry] > 0 ? "infinite" : "-infinite", c.numpy_message);
    }
    if (!strcmp(c.numpy_message, "probabilities are not non-negative"))
        return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is negative (%.17g) (NumPy: %s)", v->source, c.entry,
                            p[c.entry], c.numpy_message);
    return sl_base_error_set(err, SL_EINVAL,
                        "%s: NumPy's Kahan sum of p is %.17g, more than %.17g (its tolerance for %s p) "
                        "away from 1 (NumPy: %s)",
                        v->source, c.kahan_sum, c.atol, what, c.numpy_message);
}

/* The shared run: validate, build the cdf once, then n calls of k draws. */
static int numpy_run_with(const sl_fw_opts *o, sl_fw_result *out, sl_error *err, const sl_rng_type *t,
                          int legacy)
{
    double *p = NULL, *cdf = NULL;
    int is_f32 = 0, rc;
    memset(out, 0, sizeof *out);
    if ((rc = numpy_probs(o, &p, &is_f32, err)))
        return rc;
    if ((rc = numpy_check(o->probs, p, is_f32, err))) {
        free(p);
        return rc;
    }
    size_t V = o->probs->n, n = o->n, k = o->k;
    if (k && n > SIZE_MAX / sizeof(long) / k) {
        free(p);
        return sl_base_error_set(err, SL_EINVAL, "numpy: --n times --num-samples is too large");
    }
    sl_rng rng;
    sl_seed seed = o->seed; /* without --seed: samplab's default seed (NumPy's own default is OS entropy) */
    if ((rc = sl_rng_init(&rng, t, &seed, err))) {
        free(p);
        return rc;
    }
    cdf = malloc(V * sizeof *cdf);
    size_t total = n * k;
    out->tokens = malloc((total ? total : 1) * sizeof *out->tokens);
    if (!cdf || !out->tokens) {
        free(p);
        free(cdf);
        sl_rng_release(&rng);
        sl_fw_result_free(out);
        return sl_base_error_set(err, SL_ENOMEM, "numpy: out of memory for %zu draws over V = %zu", n * k, V);
    }
    sl_fw_numpy_cdf_build(p, V, cdf);
    for (size_t i = 0; i < total; i++) {
        double u = legacy ? sl_rng_uniform_f64_2x32_numpy(&rng) : sl_rng_uniform_f64_64_high53(sl_rng_next(&rng));
        out->tokens[i] = (long)sl_draw_search_gt_f64(cdf, V, u);
    }
    out->n = n;
    out->k = k;
    out->rng_name = legacy ? "numpy-mt19937" : "numpy-pcg64";
    out->word_bits = t->word_bits;
    out->words = rng.words;
    sl_rng_release(&rng);
    free(cdf);
    free(p);
    return SL_OK;
}

static int numpy_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    return numpy_run_with(o, out, err, &sl_rng_pcg64_type, 0);
}

static int numpy_legacy_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    if (o->seed.hi || o->seed.lo > 0xffffffffull) {
        memset(out, 0, sizeof *out);
        return sl_base_error_set(err, SL_EINVAL,
                            "numpy-legacy: np.random.seed takes integers below 2^32, --framework numpy "
                            "up to 2^128 - 1 (NumPy: Seed must be between 0 and 2**32 - 1)");
    }
    return numpy_run_with(o, out, err, &sl_rng_numpy_mt19937_type, 1);
}

const sl_fw_type sl_fw_numpy_type = {
    .name = "numpy",
    .summary = "NumPy 1.24 default_rng(S).choice(V, p=p[, size=K]): SeedSequence + PCG64, cdf + searchsorted",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_DTYPE,
    .run = numpy_run,
};

const sl_fw_type sl_fw_numpy_legacy_type = {
    .name = "numpy-legacy",
    .summary = "NumPy 1.24 np.random.seed(S); np.random.choice(V, p=p[, size=K]): MT19937, 2 words per draw",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_DTYPE,
    .run = numpy_legacy_run,
};
