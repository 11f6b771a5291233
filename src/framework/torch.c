/* torch.c — torch.multinomial as `samplab draw --framework torch` runs it:
 * torch.manual_seed(S) (rng/torch_mt19937.c), then N calls of
 * torch.multinomial(p, K, replacement) (draw/torch.c, which says what is
 * reproduced and from which source). p is float32 unless --dtype says
 * otherwise or a .npy/.safetensors brings its own dtype. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

/* ---------------------------------------------------------------- samplab draw --framework torch */

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static int torch_run(const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    if (!o->probs)
        return sl_base_error_set(err, SL_EINVAL, "framework torch takes --probs (torch.multinomial samples probabilities)");
    int version = SL_TORCH_1_13;
    if (o->variant) {
        if (!strcmp(o->variant, "2"))
            version = SL_TORCH_2;
        else if (!strcmp(o->variant, "1.13"))
            version = SL_TORCH_1_13;
        else
            return sl_base_error_set(err, SL_EINVAL, "--torch takes 1.13 (default) or 2, not '%s'", o->variant);
    }
    const sl_vec *v = o->probs;
    /* text is parsed straight to the dtype (float32 unless --dtype); a .npy or
     * .safetensors keeps its own dtype unless --dtype overrides it */
    sl_dtype dt = SL_F32;
    if (o->dtype_set)
        dt = o->dtype;
    else if (ends_with(v->source, ".npy") || ends_with(v->source, ".safetensors"))
        dt = v->dtype;
    sl_seed seed;
    memset(&seed, 0, sizeof seed);
    seed.lo = 42;
    if (o->has_seed)
        seed = o->seed;
    sl_rng rng;
    int rc = sl_rng_init(&rng, &sl_rng_torch_mt19937_type, &seed, err);
    if (rc)
        return rc;
    size_t n = o->n, k = o->k;
    if (k && n > SIZE_MAX / sizeof(long) / k)
        return sl_base_error_set(err, SL_EINVAL, "--n %zu times --num-samples %zu is too many tokens", n, k);
    sl_draw_torch_param param = {version, o->replacement, k, SL_SIMD_AUTO};
    sl_draw_type dtype = sl_draw_torch_type;
    dtype.param = &param;
    sl_draw_dist dist = {v->n, v->d, v->f, dt, v->source};
    void *table = NULL;
    if ((rc = sl_draw_prepare_dist(&dtype, &table, &dist, err)))
        return rc;
    size_t ntok = n * k;
    long *tokens = malloc((ntok ? ntok : 1) * sizeof *tokens);
    if (!tokens) {
        dtype.free(table);
        return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu tokens", n * k);
    }
    for (size_t i = 0; i < n && !rc; i++)
        rc = sl_draw_k(&dtype, table, &rng, k, tokens + i * k, err);
    dtype.free(table);
    if (rc) {
        free(tokens);
        return rc;
    }
    uint64_t words = rng.words;
    out->n = n;
    out->k = k;
    out->tokens = tokens;
    out->rng_name = "torch-mt19937";
    out->word_bits = 32;
    out->words = words;
    return SL_OK;
}

const sl_fw_type sl_fw_torch_type = {
    .name = "torch",
    .summary = "torch.multinomial on CPU: torch 1.13.1 (--torch 2: 2.x, checked on 2.6.0); builds "
               "without MKL exponentials only (check: analysis/golden/torch_golden.py --fingerprint)",
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_REPLACEMENT | SL_OPT_DTYPE | SL_OPT_VARIANT,
    .run = torch_run,
};
