/* categorical.c — `--framework jax` and `--framework mlx`: categorical sampling
 * from float32 logits by Gumbel-max over Threefry-2x32 bits, one draw a call, the
 * key split per call. Both read from source (the commits are in rng/jax_prng.c and
 * rng/mlx_random.c):
 *  - jax: key = jax.random.PRNGKey(seed); each call
 *      key, sub = jax.random.split(key); token = jax.random.categorical(sub, logits)
 *    (jax/_src/random.py categorical with replace=True: argmax(gumbel(sub, (V,),
 *    float32) + logits); gumbel mode "low": -log(-log(uniform(minval=tiny, maxval=1))));
 *    random_bits and split as --jax-threefry-partitionable says (default true, JAX 0.5+).
 *  - mlx: mx.random.seed(seed); each call mx.random.categorical(logits), which takes
 *    its key from the default KeySequence (split, keep the first half, use the second:
 *    the same split as JAX's without partitioning) and draws gumbel(shape, float32) =
 *    -log(-log(uniform)), uniform = min(float(bits) / 2^32, nextafter(1, 0)).
 * A call spends V words of bits and the split's 4 (counted as the session's words).
 * Known divergences: the logs are the C library's logf (XLA's CPU log and MLX's are
 * their own code: a token can differ where two scores are within an ulp); JAX's
 * jax_enable_x64 (float64 logits, 64-bit seeds) and MLX's GPU stream are not modelled;
 * a NaN score (MLX: a +inf logit whose word is 0, so +inf - inf) wins as the first NaN,
 * which MLX's ArgReduce was not checked for.
 * Known answers from JAX's and MLX's own tests: tests/test_framework_jax.c. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

typedef struct cat_state {
    uint32_t key[2];
    uint32_t *bits;
    float *u;
    size_t cap;
    int partitionable; /* jax only */
} cat_state;

static int cat_open(sl_fw_session *s, int jax, sl_error *err)
{
    cat_state *st = calloc(1, sizeof *st);
    if (!(s->state = st))
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", s->type->name);
    uint64_t seed = s->o.has_seed ? s->o.seed.lo : s->type->default_seed;
    if (s->o.has_seed && s->o.seed.hi)
        return sl_base_error_set(err, SL_EINVAL, "%s: the seed is %s: give one below 2^%d", s->type->name,
                                 jax ? "PRNGKey's np.int64" : "mx.random.seed's uint64", jax ? 63 : 64);
    if (jax) {
        if (seed >> 63)
            return sl_base_error_set(err, SL_EINVAL,
                                     "jax: PRNGKey(S) converts S to np.int64 first (OverflowError from 2^63): give "
                                     "a seed below 2^63");
        sl_rng_jax_key(seed, st->key);
        st->partitionable = !s->o.jax_unpartitioned;
        s->version = st->partitionable ? sl_fw_jax_type.version : "JAX (read from source: jax/_src/prng.py commit "
                                                                  "00538d0a, random.py 3238b627), "
                                                                  "jax_threefry_partitionable=False (JAX < 0.5)";
    } else {
        sl_rng_mlx_key(seed, st->key);
    }
    return SL_OK;
}

static int jax_open(sl_fw_session *s, sl_error *err)
{
    return cat_open(s, 1, err);
}

static int mlx_open(sl_fw_session *s, sl_error *err)
{
    return cat_open(s, 0, err);
}

static void cat_close(sl_fw_session *s)
{
    cat_state *st = s->state;
    if (st) {
        free(st->bits);
        free(st->u);
    }
    free(st);
    s->state = NULL;
}

static int cat_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    cat_state *st = s->state;
    int jax = s->type == &sl_fw_jax_type;
    size_t V = v->n;
    if (!v->f)
        return sl_base_error_set(err, SL_EINVAL, "%s: %s has no float32 logits", s->type->name, v->source);
    if (V > st->cap) {
        free(st->bits);
        free(st->u);
        st->bits = malloc(V * sizeof *st->bits);
        st->u = malloc(V * sizeof *st->u);
        st->cap = st->bits && st->u ? V : 0;
        if (!st->cap)
            return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu columns", s->type->name, V);
    }
    uint32_t sub[2];
    if (jax) {
        uint32_t two[2][2];
        sl_rng_jax_split(st->key, 2, st->partitionable, two);
        memcpy(st->key, two[0], sizeof st->key);
        memcpy(sub, two[1], sizeof sub);
    } else {
        sl_rng_mlx_next_key(st->key, sub);
    }
    int rc = sl_rng_jax_bits32(sub, V, jax && st->partitionable, st->bits, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < V; i++)
        st->u[i] = jax ? sl_rng_jax_uniform_f32(st->bits[i], FLT_MIN, 1.0f) : sl_rng_mlx_uniform_f32(st->bits[i]);
    s->tokens[0] = (long)sl_draw_gumbel_f32(v->f, st->u, V);
    s->rng.words += V + 4;
    *kept = V;
    return SL_OK;
}

/* The distribution categorical samples: softmax of the float32 logits, in double. */
static int cat_probs(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err)
{
    (void)s;
    int rc = sl_logits_result_alloc(out, v->n, err);
    if (rc)
        return rc;
    double mx = -INFINITY, sum = 0;
    for (size_t i = 0; i < v->n; i++)
        if ((double)v->f[i] > mx)
            mx = v->f[i];
    for (size_t i = 0; i < v->n; i++)
        sum += out->probs[i] = exp((double)v->f[i] - mx);
    for (size_t i = 0; i < v->n; i++) {
        out->probs[i] /= sum;
        out->kept[i] = out->probs[i] > 0;
        out->n_kept += out->kept[i];
    }
    out->precision = 32;
    return SL_OK;
}

/* PRNGKey(S) keeps only S mod 2^32 in JAX's default 32-bit mode: said, not hidden. */
static const char *jax_note(const sl_fw_opts *o)
{
    return o->has_seed && !o->seed.hi && o->seed.lo >> 32
               ? "jax: in JAX's default 32-bit mode PRNGKey(S) is (0, S mod 2^32): seeds 2^32 apart give the same "
                 "key (jax_enable_x64 is not modelled)"
               : NULL;
}

const sl_fw_type sl_fw_jax_type = {
    .name = "jax",
    .summary = "jax.random.categorical(sub, logits) after key, sub = split(key), key = PRNGKey(seed): Gumbel-max "
               "over float32 logits, Threefry-2x32 bits (--jax-threefry-partitionable)",
    .version = "JAX (read from source: jax/_src/prng.py commit 00538d0a, random.py 3238b627), "
               "jax_threefry_partitionable=True (JAX 0.5 and later)",
    .accepts = SL_OPT_LOGITS | SL_OPT_JAX,
    .replacement_why = "jax.random.categorical draws one token a call here (replace=True)",
    .input_why = "jax.random.categorical takes logits",
    .absent_why = "jax.random.categorical(key, logits) has no such setting",
    .draw = NULL, /* its own kernel: sl_draw_gumbel_f32 over the bits of the call's key */
    .rng = "threefry2x32",
    .rng_label = "threefry2x32 (jax.random.PRNGKey, split per call)",
    .default_seed = 0,
    .open = jax_open,
    .step = cat_step,
    .probs = cat_probs,
    .close = cat_close,
    .note = jax_note,
};

const sl_fw_type sl_fw_mlx_type = {
    .name = "mlx",
    .summary = "mlx.core.random.categorical(logits) after mx.random.seed(seed): Gumbel-max over float32 logits, "
               "Threefry-2x32 bits, the default key split per call",
    .version = "MLX (read from source: mlx/random.cpp commit 7ae2c449, backend/cpu/primitives.cpp 96710936), CPU",
    .accepts = SL_OPT_LOGITS,
    .replacement_why = "mlx.core.random.categorical draws one token a call here",
    .input_why = "mlx.core.random.categorical takes logits",
    .absent_why = "mlx.core.random.categorical(logits) has no such setting",
    .draw = NULL, /* its own kernel: sl_draw_gumbel_f32 over the bits of the call's key */
    .rng = "threefry2x32",
    .rng_label = "threefry2x32 (mlx.core.random.seed, split per call)",
    .default_seed = 0,
    .open = mlx_open,
    .step = cat_step,
    .probs = cat_probs,
    .close = cat_close,
};
