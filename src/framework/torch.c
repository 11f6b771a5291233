/* torch.c — torch.multinomial as `samplab draw --framework torch` runs it:
 * torch.manual_seed(S) (rng/torch_mt19937.c), then one torch.multinomial(p, K,
 * replacement) call a step (draw/torch.c, which says what is reproduced and from
 * which source). p is float32 unless --dtype says otherwise or a .npy or
 * .safetensors brings its own dtype. --torch picks the release line: 2 (the
 * default, today's 2.x) or 1.13. */
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

static const sl_fw_variant torch_variants[] = {
    {"2", "torch 2.14.1 (CPU, MT19937 exponential_; also 2.6.0)", SL_TORCH_2},
    {"1.13", "torch 1.13.1 (CPU, no MKL)", SL_TORCH_1_13},
    {NULL, NULL, 0},
};

void sl_fw_torch_table_free(sl_fw_torch_table *t)
{
    if (t->table)
        t->draw.free(t->table);
    t->table = NULL;
}

int sl_fw_torch_table_prepare(sl_fw_torch_table *t, const sl_draw_dist *p, sl_error *err)
{
    sl_fw_torch_table_free(t);
    t->draw = sl_draw_torch_type;
    t->draw.param = &t->param;
    return sl_draw_prepare_dist(&t->draw, &t->table, p, err);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static int torch_open(sl_fw_session *s, sl_error *err)
{
    sl_fw_torch_table *t = calloc(1, sizeof *t);
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "torch: out of memory");
    s->state = t;
    t->param.version = s->variant->code;
    t->param.replacement = s->o.replacement;
    t->param.k = s->o.k;
    t->param.simd = SL_SIMD_AUTO;
    s->k = s->o.k;
    return SL_OK;
}

static int torch_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    sl_fw_torch_table *t = s->state;
    (void)kept;
    if (v != s->prepared_vec || !t->table) {
        /* text is parsed straight to the dtype (float32 unless --dtype); a .npy or
         * .safetensors keeps its own dtype unless --dtype overrides it */
        sl_dtype dt = SL_F32;
        if (s->o.dtype_set)
            dt = s->o.dtype;
        else if (ends_with(v->source, ".npy") || ends_with(v->source, ".safetensors"))
            dt = v->dtype;
        sl_draw_dist dist = {v->n, v->d, v->f, dt, v->source};
        int rc = sl_fw_torch_table_prepare(t, &dist, err);
        if (rc)
            return rc;
    }
    return sl_draw_k(&t->draw, t->table, &s->rng, s->k, s->tokens, err);
}

static void torch_close(sl_fw_session *s)
{
    if (s->state)
        sl_fw_torch_table_free(s->state);
    free(s->state);
    s->state = NULL;
}

const sl_fw_type sl_fw_torch_type = {
    .name = "torch",
    .summary = "torch.multinomial on CPU: torch 2.x (checked on 2.14.1 and 2.6.0; --torch 1.13 for 1.13.1), "
               "builds whose exponential_ takes the MT19937 path (docs/torch-builds.md)",
    .variant_option = "--torch",
    .variants = torch_variants,
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_REPLACEMENT | SL_OPT_DTYPE | SL_OPT_VARIANT,
    .input_why = "torch.multinomial samples probabilities",
    .draw = &sl_draw_torch_type,
    .rng = "torch-mt19937",
    .default_seed = 42,
    .open = torch_open,
    .step = torch_step,
    .probs = sl_fw_probs_of_weights,
    .close = torch_close,
};
