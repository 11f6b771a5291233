/* after_pipeline.c — what the frameworks that start from logits share: the
 * draw options turned into pipeline settings, and "run a framework's
 * pipeline, then torch.multinomial(probs, 1)", the final step of both
 * transformers' generate(do_sample=True) and vLLM's seeded random_sample. */
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

int sl_fw_torch_after_pipeline(const sl_logits_pipeline_type *t, const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    sl_logits_result r;
    int rc = sl_logits_pipeline_run(t, o->logits, &o->cfg, &r, err);
    if (rc)
        return rc;
    if (r.greedy) { /* argmax: no draw, no word */
        out->tokens = malloc((o->n ? o->n : 1) * sizeof *out->tokens);
        if (!out->tokens) {
            sl_logits_result_free(&r);
            return sl_base_error_set(err, SL_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < o->n; i++)
            out->tokens[i] = (long)r.greedy_id;
        out->n = o->n;
        out->k = 1;
        out->rng_name = "torch-mt19937";
        out->word_bits = 32;
        sl_logits_result_free(&r);
        return SL_OK;
    }
    sl_vec probs;
    if ((rc = sl_base_vec_alloc(&probs, r.V, o->logits->source, err))) {
        sl_logits_result_free(&r);
        return rc;
    }
    for (size_t i = 0; i < r.V; i++) {
        probs.f[i] = (float)r.probs[i]; /* exact: the pipeline's float32 values */
        probs.d[i] = r.probs[i];
    }
    probs.dtype = SL_F32;
    sl_logits_result_free(&r);
    sl_fw_opts to = *o;
    to.logits = NULL;
    to.probs = &probs;
    to.k = 1;
    to.replacement = 0;
    to.dtype_set = 1;
    to.dtype = SL_F32;
    rc = sl_fw_torch_type.run(&to, out, err);
    sl_base_vec_free(&probs);
    return rc;
}
