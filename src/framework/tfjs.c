/* tfjs.c — `--framework tfjs`: TensorFlow.js 4.22's tf.multinomial(x, numSamples,
 * seed, normalized) on the CPU backend (@tensorflow/tfjs-core ops/multinomial.js,
 * @tensorflow/tfjs-backend-cpu kernels/Multinomial.js, 4.22.0): --logits x is
 * normalized = false (tf.softmax first, logits/tfjs_softmax.c), --probs x is
 * normalized = true (the values as given, rounded to float32 as tf.tensor1d does;
 * tfjs neither checks nor divides by their sum); then the float32 cdf and its scan
 * (draw/tfjs_cdf.c), numSamples (--num-samples K) uniforms from a new
 * seedrandom.alea(seed.toString()) (rng/alea.c) made for the row in every call.
 * So every call with the same seed draws the same K tokens: `draw --n N` makes N
 * calls and shows them equal, it does not pretend they are independent.
 * `seed || Math.random()` takes a missing seed and seed 0 to Math.random(), which
 * no seed reaches: refused at the draw. The WebGL and WebGPU backends draw with
 * their own shader hash instead of alea: not modelled. Checked against the real op
 * under Node: data/golden/js/tfjs_multinomial.txt (analysis/golden/js/tfjs_multinomial.mjs).
 * --seed takes any JavaScript number literal (-1, 1.5, 1e-7: sl_base_seed_parse_js),
 * whose String() seeds alea as tfjs's does. */
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

static const sl_fw_variant tfjs_variants[] = {
    {"4.22", "@tensorflow/tfjs-core and @tensorflow/tfjs-backend-cpu 4.22.0 (CPU backend; seedrandom 3.0.5's alea)",
     422},
    {NULL, NULL, 0},
};

typedef struct tfjs_state {
    void *table;              /* the prepared cdf of the vector last stepped on */
} tfjs_state;

static int tfjs_open(sl_fw_session *s, sl_error *err)
{
    tfjs_state *st = calloc(1, sizeof *st);
    if (!(s->state = st))
        return sl_base_error_set(err, SL_ENOMEM, "tfjs: out of memory");
    s->k = s->o.k ? s->o.k : 1; /* numSamples */
    return SL_OK;
}

static void tfjs_clear(tfjs_state *st)
{
    if (st->table)
        sl_draw_tfjs_type.free(st->table);
    st->table = NULL;
}

static void tfjs_close(sl_fw_session *s)
{
    tfjs_state *st = s->state;
    if (st)
        tfjs_clear(st);
    free(st);
    s->state = NULL;
}

/* The row's table: softmax unless normalized, then the float32 cdf. */
static int tfjs_prepare(const sl_fw_session *s, const sl_vec *v, void **table, sl_error *err)
{
    size_t V = v->n;
    float *x = malloc(V * sizeof *x), *w = s->logits_input ? malloc(V * sizeof *w) : x;
    if (!x || !w) {
        free(x);
        return sl_base_error_set(err, SL_ENOMEM, "tfjs: out of memory for %zu values", V);
    }
    for (size_t i = 0; i < V; i++)
        x[i] = (float)v->d[i]; /* tf.tensor1d(values): a Float32Array of the JavaScript numbers */
    if (s->logits_input) {
        sl_logits_tfjs_softmax(x, V, w);
        free(x);
    }
    sl_draw_dist dist = {V, v->d, w, SL_F32, v->source, 0};
    int rc = sl_draw_prepare_dist(&sl_draw_tfjs_type, table, &dist, err);
    free(w);
    return rc;
}

static int tfjs_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    tfjs_state *st = s->state;
    const sl_seed *sd = &s->o.seed; /* `seed || Math.random()`: 0, -0 (and NaN) are falsy */
    if (!s->o.has_seed || (sd->has_number ? sd->number == 0 : !sd->lo && !sd->hi))
        return sl_base_error_set(err, SL_EINVAL,
                                 "tfjs: tf.multinomial without a seed (or with seed 0: `seed || Math.random()`) draws "
                                 "from Math.random(), which cannot be reproduced: give --seed S, S not 0");
    if (v != s->prepared_vec || !st->table) {
        tfjs_clear(st);
        int rc = tfjs_prepare(s, v, &st->table, err);
        if (rc)
            return rc;
    }
    /* a new alea(seed.toString()) for the row, every call */
    int rc = s->rng.type->seed(s->rng.state, &s->o.seed, s->rng.type->param, err);
    if (rc)
        return rc;
    for (size_t j = 0; j < s->k; j++)
        s->tokens[j] = (long)sl_draw_tfjs_type.draw(st->table, &s->rng);
    *kept = v->n;
    return SL_OK;
}

/* The distribution one sample is drawn from: the cdf's steps on alea's 2^-32 grid. */
static int tfjs_probs(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err)
{
    void *table = NULL;
    int rc = tfjs_prepare(s, v, &table, err);
    if (!rc)
        rc = sl_logits_result_alloc(out, v->n, err);
    if (!rc) {
        sl_draw_tfjs_probs(table, out->probs);
        for (size_t i = 0; i < v->n; i++) {
            out->kept[i] = out->probs[i] > 0;
            out->n_kept += out->kept[i];
        }
        out->precision = 32;
    }
    if (table)
        sl_draw_tfjs_type.free(table);
    return rc;
}

/* N calls with one seed are one call N times: said rather than left to look independent */
static const char *tfjs_note(const sl_fw_opts *o)
{
    return o->n > 1 ? "tfjs: each tf.multinomial call seeds a new alea(String(seed)), so the --n calls with one seed "
                      "draw the same tokens, call after call"
                    : NULL;
}

const sl_fw_type sl_fw_tfjs_type = {
    .name = "tfjs",
    .summary = "TensorFlow.js 4.22 tf.multinomial(x, K, seed, normalized) on the CPU backend: softmax for --logits "
               "(normalized false), --probs as given (true); float32 cdf, first alea() < cdf[i], a new "
               "alea(String(seed)) each call (the WebGL backend's own generator is not modelled)",
    .variant_bit = SL_OPT_TFJS_VERSION,
    .variants = tfjs_variants,
    .replacement_why = "tf.multinomial(logits, numSamples, seed, normalized) always draws with replacement",
    .absent_why = "tf.multinomial(logits, numSamples, seed, normalized) has no such setting",
    .accepts = SL_OPT_PROBS | SL_OPT_LOGITS | SL_OPT_NUM_SAMPLES | SL_OPT_TFJS_VERSION,
    .input_why = "normalized = false takes logits, normalized = true probabilities",
    .draw = &sl_draw_tfjs_type,
    .rng = "seedrandom-alea",
    .seed_number = 1,
    .default_seed = 0,
    .per_request = 1, /* every row of a [B, V] call seeds its own alea, from the one seed */
    .batch = "tf.multinomial over [B, V]: the kernel's row loop, each row a new alea(String(seed)) from the one seed, "
             "so every row draws with the same uniforms",
    .open = tfjs_open,
    .step = tfjs_step,
    .probs = tfjs_probs,
    .close = tfjs_close,
    .note = tfjs_note,
};
