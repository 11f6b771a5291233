/* llamacpp.c — llama.cpp's sampling as `samplab draw --framework llamacpp`
 * runs it: the default sampler chain (logits/llamacpp.c), then the dist
 * sampler.
 *
 * Reproduces llama.cpp src/llama-sampling.cpp llama_sampler_dist_apply as
 * ggml-org/llama.cpp PR #15704 "sampling : optimize dist sampler" (merged
 * 2025-08-31) made it, read at commit 0344068c: softmax over the current candidate array (expf in float, the
 * sum in double), one std::uniform_real_distribution<double>(0, 1) draw from
 * std::mt19937(seed), and the first array index whose running sum reaches
 * u · sum — in the candidate array's order after the chain (descending logit
 * once top-k or top-p has sorted it, typical order after typical, id order
 * when nothing sorted it). A one-candidate array is chosen without a draw.
 * Older llama.cpp (before PR #15704) normalised first and drew with
 * std::discrete_distribution, which turns the same words into a different
 * token: not this emulation. The open PR #24934 (p *= 1/sum instead of
 * p /= sum) would change the reported probabilities in the last bit only.
 *
 * The uniform double is libstdc++'s generate_canonical<double, 53> over a
 * 32-bit engine (GCC <= 14): two words, (w1 + w2 · 2^32) / 2^64 rounded to
 * double, 1.0 replaced by nextafter(1, 0); tests/oracle/stdcxx_uniform.cpp
 * checks it against this machine's libstdc++. libc++ and MSVC differ.
 *
 * The draw is the draw type draw/llama_dist.c (the uniform is
 * sl_rng_uniform_f64_stdcxx in rng/uniform.c); this file runs the chain, the
 * generator and the seeding, and maps array indices to token ids.
 *
 * Calls are independent (llama_sampler_apply on fresh arrays): drawn tokens
 * are not accepted into the penalties history between calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

static int llamacpp_fw_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!o->logits)
        return sl_base_error_set(err, SL_EINVAL, "framework llamacpp takes --logits (its samplers work on logits)");
    if (!o->has_seed)
        return sl_base_error_set(err, SL_EINVAL,
                            "framework llamacpp needs --seed S (llama.cpp's default seed 0xFFFFFFFF means a random one)");
    if (o->seed.hi || o->seed.lo >= 0xFFFFFFFFu)
        return sl_base_error_set(err, SL_EINVAL,
                            "framework llamacpp: seed must be below 4294967295 (a uint32_t; 0xFFFFFFFF means random)");
    const sl_logits_cfg c = o->cfg;

    const sl_vec *v = o->logits;
    for (size_t i = 0; i < v->n; i++)
        if (isnan(v->f[i]) || v->f[i] == INFINITY)
            return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is %s", v->source, i,
                                isnan(v->f[i]) ? "NaN" : "+infinity in float32");

    sl_logits_llama_array a;
    int rc = sl_logits_llama_chain(v->f, v->n, &c, &a, NULL, err);
    if (rc)
        return rc;
    /* the dist draw type reads the candidates' logits in array order */
    const sl_draw_type *dt = &sl_draw_llama_dist_type;
    void *table = NULL;
    float *lf = malloc((a.size ? a.size : 1) * sizeof *lf);
    double *ld = malloc((a.size ? a.size : 1) * sizeof *ld);
    out->tokens = malloc((o->n ? o->n : 1) * sizeof *out->tokens);
    sl_rng rng;
    memset(&rng, 0, sizeof rng);
    if (!lf || !ld || !out->tokens) {
        rc = sl_base_error_set(err, SL_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < a.size; i++)
        ld[i] = lf[i] = a.data[i].logit;
    sl_draw_dist dist = {a.size, ld, lf, SL_F32, v->source};
    if ((rc = sl_draw_prepare_dist(dt, &table, &dist, err)))
        goto done;
    sl_seed s = o->seed;
    if ((rc = sl_rng_init(&rng, &sl_rng_mt19937_type, &s, err)))
        goto done;
    if ((rc = sl_draw_k(dt, table, &rng, o->n, out->tokens, err)))
        goto done;
    for (size_t t = 0; t < o->n; t++)
        out->tokens[t] = a.data[out->tokens[t]].id;
    out->n = o->n;
    out->k = 1;
    out->rng_name = "std-mt19937";
    out->word_bits = 32;
    out->words = rng.words;
done:
    sl_rng_release(&rng);
    if (table)
        dt->free(table);
    free(a.data);
    free(lf);
    free(ld);
    if (rc) {
        free(out->tokens);
        out->tokens = NULL;
    }
    return rc;
}

const sl_fw_type sl_fw_llamacpp_type = {
    .name = "llamacpp",
    .summary = "llama.cpp default chain + dist sampler: std::mt19937(seed), libstdc++ uniform double, pick in array order",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL |
               SL_OPT_PENALTY | SL_OPT_MIN_KEEP | SL_OPT_DEFAULTS,
    .draw = &sl_draw_llama_dist_type,
    .exact = &sl_draw_llama_dist_exact,
    .run = llamacpp_fw_run,
};
