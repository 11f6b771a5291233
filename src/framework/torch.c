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

/* torch.multinomial(p, k) without replacement (or one sample, 2.x) in a build whose
 * exponential_ is MKL's (framework/torch_mkl.c: pip's x86-64 wheels 2.1 to 2.6):
 * torch's checks are the draw type's (made at prepare); q comes from an MCG31m1
 * stream seeded from one generator word (two for float64), then the race's argmax
 * or topk of p / q. MKL's own logarithm is not reproduced bit for bit (glibc's
 * here), so an exponential can differ in its last bits (docs/torch-builds.md). */
static int torch_mkl_call(sl_fw_session *s, const sl_vec *v, sl_dtype dt, sl_error *err)
{
    size_t V = v->n, k = s->k;
    double *q = malloc((V ? V : 1) * sizeof *q);
    float *qf = dt == SL_F32 ? malloc((V ? V : 1) * sizeof *qf) : NULL;
    int rc = q && (dt != SL_F32 || qf) ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "torch: out of memory for V = %zu", V);
    if (!rc && dt == SL_F32)
        rc = sl_fw_torch_mkl_exponential_f32(&s->rng, qf, V, 1.0, 1, err);
    else if (!rc)
        rc = sl_fw_torch_mkl_exponential_f64(&s->rng, q, V, 1.0, 1, err);
    for (size_t i = 0; !rc && qf && i < V; i++)
        q[i] = qf[i];
    if (!rc) {
        sl_draw_race_rule rule = {SL_RACE_U_TORCH53, 1, 1};
        sl_draw_race r = {V, dt, v->f, v->d, NULL, rule, SL_SIMD_SCALAR};
        if (k == 1) {
            s->tokens[0] = (long)sl_draw_race_argmax_q(&r, q);
        } else {
            for (size_t i = 0; i < V; i++) /* r = p / q in p's dtype, widened */
                q[i] = dt == SL_F32 ? (double)(v->f[i] / (float)q[i]) : v->d[i] / q[i];
            rc = sl_draw_torch_topk(q, V, k, s->tokens, err);
        }
    }
    free(q);
    free(qf);
    return rc;
}

static int torch_open(sl_fw_session *s, sl_error *err)
{
    sl_fw_torch_table *t = calloc(1, sizeof *t);
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "torch: out of memory");
    s->state = t;
    t->param.version = s->variant->code;
    t->param.replacement = sl_fw_replacement(s->type, &s->o);
    t->param.k = s->o.k;
    t->param.simd = SL_SIMD_AUTO;
    s->k = s->o.k;
    if (s->o.torch_mkl && t->param.version != SL_TORCH_2)
        return sl_base_error_set(err, SL_EINVAL, "--torch-build mkl is torch 2.x's (pip wheels 2.1 to 2.6), not 1.13's");
    if (s->o.torch_mkl)
        s->version = "torch 2.1-2.6 pip x86-64 wheels: MKL MCG31m1 exponential_ (stream as MKL 2020.4, glibc's log)";
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
        else if (v->own_dtype) /* the name does not say: bytes in memory, a tensor's row, a step */
            dt = v->dtype;
        sl_draw_dist dist = {v->n, v->d, v->f, dt, v->source, 0};
        int rc = sl_fw_torch_table_prepare(t, &dist, err);
        if (rc)
            return rc;
        t->dtype = dt;
    }
    int race = sl_draw_torch_takes_race(t->param.version, t->param.replacement, s->k);
    if (s->o.torch_mkl && race)
        return torch_mkl_call(s, v, t->dtype, err);
    return sl_draw_k(&t->draw, t->table, &s->rng, s->k, s->tokens, err);
}

static void torch_close(sl_fw_session *s)
{
    if (s->state)
        sl_fw_torch_table_free(s->state);
    free(s->state);
    s->state = NULL;
}

/* The audit of the call these settings make, by the release line's code: the
 * race of that line (2.x: -log1p, 1.13: -log) or the cdf path's exact counts.
 * NULL for a release line torch does not have (sl_fw_variant_find says which). */
static const sl_stat_exact_type *torch_exact_for(const sl_fw_opts *o)
{
    const sl_fw_variant *v;
    if (sl_fw_variant_find(&sl_fw_torch_type, o->variant, o->variant_opt, &v, NULL))
        return NULL;
    if (!sl_draw_torch_takes_race(v->code, o->replacement == SL_FW_REPLACEMENT_YES, o->k ? o->k : 1))
        return &sl_draw_torch_repl_exact;
    return v->code == SL_TORCH_2 ? &sl_draw_torch_race_exact : &sl_draw_torch113_race_exact;
}

const sl_fw_type sl_fw_torch_type = {
    .name = "torch",
    .summary = "torch.multinomial on CPU: torch 2.x (checked on 2.14.1 and 2.6.0; --torch 1.13 for 1.13.1), "
               "builds whose exponential_ takes the MT19937 path (docs/torch-builds.md)",
    .variant_bit = SL_OPT_VARIANT,
    .variants = torch_variants,
    .replacement_default = 0, /* torch.multinomial(..., replacement=False) */
    .accepts = SL_OPT_PROBS | SL_OPT_NUM_SAMPLES | SL_OPT_REPLACEMENT | SL_OPT_DTYPE | SL_OPT_VARIANT |
               SL_OPT_TORCH_BUILD,
    .input_why = "torch.multinomial samples probabilities",
    .draw = &sl_draw_torch_type,
    .rng = "torch-mt19937",
    .default_seed = 42,
    .open = torch_open,
    .step = torch_step,
    .probs = sl_fw_probs_of_weights,
    .close = torch_close,
    .exact = &sl_draw_torch_race_exact,
    .exact_for = torch_exact_for,
    .batch = "torch.multinomial(p, K, replacement) on [B, V]: B one-row calls in row order on the default generator "
             "(measured, torch 2.14.1)",
    .batch_gen = 1,
};
