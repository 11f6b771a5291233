/* after_pipeline.c — what transformers' generate(do_sample=True) and vLLM's seeded
 * random_sample share: run the framework's pipeline over the step's logits with
 * the history as context, then torch.multinomial(probs, 1) on the float32
 * probabilities (the torch race, draw/torch.c), or the argmax without a word when
 * the settings are greedy. The pipeline runs again only when the logits or the
 * history change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

typedef struct after_state {
    sl_fw_torch_table torch;
    sl_vec probs;             /* the pipeline's float32 probabilities (exact in d and f) */
    int greedy;
    long greedy_id;
    size_t kept;
    sl_logits_work *work;     /* the pipeline's scratch, kept across steps */
} after_state;

int sl_fw_after_pipeline_open(sl_fw_session *s, sl_error *err)
{
    after_state *a = calloc(1, sizeof *a);
    if (!a)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", s->type->name);
    s->state = a;
    if (!(a->work = sl_logits_work_new()))
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", s->type->name);
    s->o.cfg.work = a->work;
    a->torch.param.replacement = 0;
    a->torch.param.k = 1;
    a->torch.param.simd = SL_SIMD_AUTO;
    a->torch.param.version = s->variant->code;
    /* torch 1.13 ran its AVX2 kernels on AVX-512 machines too; 2.x picks by CPU */
    if (s->o.cfg.cpu == SL_CPU_AUTO)
        s->o.cfg.cpu = a->torch.param.version == SL_TORCH_1_13 ? SL_CPU_AVX2 : sl_logits_cpu_resolve(SL_CPU_AUTO);
    /* the torch 1.13 line goes with transformers 4.x, the 2.x line with 5.x */
    if (!s->o.cfg.transformers)
        s->o.cfg.transformers = a->torch.param.version == SL_TORCH_1_13 ? 4 : 5;
    return SL_OK;
}

int sl_fw_after_pipeline_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    after_state *a = s->state;
    if (v != s->prepared_vec || s->hist_n != s->prepared_hist || (!a->greedy && !a->torch.table)) {
        sl_logits_result r;
        int rc = sl_logits_pipeline_run(s->type->pipeline, v, &s->o.cfg, &r, err);
        if (rc)
            return rc;
        a->kept = r.n_kept;
        a->greedy = r.greedy;
        a->greedy_id = (long)r.greedy_id;
        if (!r.greedy) {
            if (a->probs.n != r.V) {
                sl_base_vec_free(&a->probs);
                if ((rc = sl_base_vec_alloc(&a->probs, r.V, v->source, err))) {
                    sl_logits_result_free(&r);
                    return rc;
                }
            } else {
                snprintf(a->probs.source, sizeof a->probs.source, "%s", v->source);
            }
            for (size_t i = 0; i < r.V; i++) {
                a->probs.f[i] = (float)r.probs[i]; /* exact: the pipeline's float32 values */
                a->probs.d[i] = r.probs[i];
            }
            a->probs.dtype = SL_F32;
        }
        sl_logits_result_free(&r);
        if (!a->greedy) {
            sl_draw_dist dist = {a->probs.n, a->probs.d, a->probs.f, SL_F32, a->probs.source, 0};
            if ((rc = sl_fw_torch_table_prepare(&a->torch, &dist, err)))
                return rc;
        }
    }
    *kept = a->kept;
    if (a->greedy) { /* argmax: no draw, no word */
        s->tokens[0] = a->greedy_id;
        return SL_OK;
    }
    return sl_draw_k(&a->torch.draw, a->torch.table, &s->rng, 1, s->tokens, err);
}

void sl_fw_after_pipeline_close(sl_fw_session *s)
{
    after_state *a = s->state;
    if (a) {
        sl_fw_torch_table_free(&a->torch);
        sl_base_vec_free(&a->probs);
        sl_logits_work_free(a->work);
    }
    free(a);
    s->state = NULL;
}
