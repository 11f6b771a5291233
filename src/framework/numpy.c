/* numpy.c — bit-exact emulations of NumPy 1.24's weighted choice, with
 * replacement (NumPy's default, replace=True; the kernel is draw/numpy_choice.c)
 * or without it (--no-replacement: replace=False, draw/numpy_noreplace.c); this
 * file picks the generator, the seeding and NumPy's view of p:
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
/* The probabilities as the ndarray NumPy receives: float64, or a float32 array
 * (--dtype float32, or a float32 .npy), widened exactly. */
static int numpy_probs(const sl_fw_session *s, const sl_vec *v, double **pout, int *is_f32, sl_error *err)
{
    int f32 = s->o.dtype_set ? s->o.dtype == SL_F32 : v->dtype == SL_F32;
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

typedef struct numpy_state {
    double *p;
    void *table;
    const sl_draw_type *draw; /* choice with or without replacement */
} numpy_state;

static int choice_open(sl_fw_session *s, const sl_draw_type *noreplace, sl_error *err)
{
    numpy_state *st = calloc(1, sizeof *st);
    if (!(s->state = st))
        return sl_base_error_set(err, SL_ENOMEM, "numpy: out of memory");
    st->draw = sl_fw_replacement(s->type, &s->o) ? s->type->draw : noreplace;
    s->k = s->o.k;
    return SL_OK;
}

static int numpy_open(sl_fw_session *s, sl_error *err)
{
    return choice_open(s, &sl_draw_numpy_noreplace_type, err);
}

static int numpy_legacy_open(sl_fw_session *s, sl_error *err)
{
    const sl_seed *seed = &s->o.seed;
    if (s->o.has_seed && (seed->hi || seed->lo > 0xffffffffull))
        return sl_base_error_set(err, SL_EINVAL,
                                 "numpy-legacy: np.random.seed takes integers below 2^32, --framework numpy "
                                 "up to 2^128 - 1 (NumPy: Seed must be between 0 and 2**32 - 1)");
    if (s->o.shuffle_set)
        return sl_base_error_set(err, SL_EINVAL,
                                 "numpy-legacy: RandomState.choice has no shuffle argument (Generator.choice has: "
                                 "--framework numpy)");
    return choice_open(s, &sl_draw_numpy_legacy_noreplace_type, err);
}

static void numpy_close(sl_fw_session *s)
{
    numpy_state *st = s->state;
    if (st) {
        if (st->table)
            st->draw->free(st->table);
        free(st->p);
    }
    free(st);
    s->state = NULL;
}

/* One rng.choice(V, p=p, size=K) call: NumPy validates p and builds the cdf on
 * every call; the same p gives the same table, so it is built once per vector. */
static int numpy_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    numpy_state *st = s->state;
    (void)kept;
    if (v != s->prepared_vec || !st->table) {
        if (st->table)
            st->draw->free(st->table);
        st->table = NULL;
        free(st->p);
        st->p = NULL;
        int is_f32 = 0, rc = numpy_probs(s, v, &st->p, &is_f32, err);
        if (rc)
            return rc;
        sl_draw_dist dist = {v->n, st->p, NULL, is_f32 ? SL_F32 : SL_F64, v->source, 0};
        if ((rc = sl_draw_prepare_dist(st->draw, &st->table, &dist, err)))
            return rc;
    }
    return sl_draw_k(st->draw, st->table, &s->rng, s->k, s->tokens, err);
}

const sl_fw_type sl_fw_numpy_type = {
    .name = "numpy",
    .summary = "NumPy default_rng(S).choice(V, p=p[, size=K, replace=False]): SeedSequence + PCG64, cdf + searchsorted",
    .version = "NumPy 1.24.2 and 2.4.6 (1.24 error texts)",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_DTYPE | SL_OPT_REPLACEMENT | SL_OPT_SHUFFLE,
    .replacement_default = 1, /* choice(..., replace=True) */
    .input_why = "choice takes probabilities p",
    .draw = &sl_draw_numpy_choice_type,
    .rng = "pcg64",
    .rng_label = "numpy-pcg64",
    .default_seed = 42, /* samplab's default seed (NumPy's own default is OS entropy) */
    .open = numpy_open,
    .step = numpy_step,
    .probs = sl_fw_probs_of_weights,
    .close = numpy_close,
    .exact = &sl_draw_numpy_exact,
};

const sl_fw_type sl_fw_numpy_legacy_type = {
    .name = "numpy-legacy",
    .summary = "NumPy np.random.seed(S); np.random.choice(V, p=p[, size=K, replace=False]): MT19937, 2 words per draw",
    .version = "NumPy 1.24.2 and 2.4.6 (1.24 error texts)",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_DTYPE | SL_OPT_REPLACEMENT,
    .replacement_default = 1, /* np.random.choice(..., replace=True) */
    .input_why = "choice takes probabilities p",
    .draw = &sl_draw_numpy_legacy_choice_type,
    .rng = "numpy-mt19937",
    .default_seed = 42,
    .open = numpy_legacy_open,
    .step = numpy_step,
    .probs = sl_fw_probs_of_weights,
    .close = numpy_close,
    .exact = &sl_draw_numpy_exact,
};
