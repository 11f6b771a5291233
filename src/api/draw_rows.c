/* draw_rows.c — `samplab draw --framework F` over a 2-D [B, V] tensor (.npy or
 * .safetensors) for a framework whose requests each own their generator (a
 * per-request seed: sglang): B rows of one batch step, each row a session of its
 * own with the settings given, drawn in row order; --n N steps carry each row's
 * state (SGLang: its position). Tokens are kept step-major (one output line per step,
 * the B tokens separated by spaces); --json prints them as tokens[b][t]. --seeds
 * 7,none,9 gives each row its request's seed (none: the framework's default for a
 * request without one), or --seed gives every row the same. A framework with one
 * generator for the whole batch is not read this way: its rows are not independent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

#define FAIL(...) sl_base_error_set(err, SL_EINVAL, "samplab draw: " __VA_ARGS__)

int sl_api_draw_rows(const sl_api_src *src, int is_logits, const sl_api_settings *s, sl_api_draw_result *r,
                     sl_error *err)
{
    const sl_fw_type *ft = sl_fw_lookup(s->framework);
    sl_io_steps m;
    sl_error se;
    err->msg[0] = '\0';
    if (!ft || !ft->per_request || sl_api_steps_read(src, &m, &se))
        return SL_EINVAL; /* not a batch: the caller's message stands */
    const char *miss = s->stream ? SL_API_NAME(STREAM) : s->rng ? SL_API_NAME(RNG) : sl_api_refused(s, is_logits, ft->accepts);
    int rc = SL_OK;
    char why[512];
    size_t B = m.t, V = m.v, n = s->has_n ? s->n : 1;
    sl_api_row_seeds rs;
    memset(&rs, 0, sizeof rs);
    if (miss)
        rc = FAIL("%s", sl_api_not_taken(miss, ft->name, why, sizeof why));
    else if (s->counts)
        rc = FAIL("%s over a [B, V] batch: give one row (--tensor, or a 1-D vector)", SL_API_NAME(COUNTS));
    else if (sl_api_row_seeds_for("draw", s, ft, B, &rs, err))
        rc = SL_EINVAL;
    sl_fw_opts fo;
    long *ctx = NULL;
    size_t ctx_n = 0;
    memset(&fo, 0, sizeof fo);
    if (!rc && s->context && sl_api_ids("draw", SL_API_NAME(CONTEXT), s->context, "context", V, &ctx, &ctx_n, err))
        rc = SL_EINVAL;
    if (!rc && sl_api_fw_opts("draw", s, &fo, err))
        rc = SL_EINVAL;
    if (!rc && n > SIZE_MAX / sizeof(long) / B)
        rc = FAIL("--n %zu times %zu rows is too many tokens", n, B);
    if (rc) {
        free(ctx);
        sl_api_fw_opts_free(&fo);
        sl_api_row_seeds_free(&rs);
        sl_io_steps_free(&m);
        return rc;
    }
    sl_fw_opts all = fo; /* --seed, for the rows --seeds leaves to it */
    fo.cfg.context = ctx;
    fo.cfg.context_n = ctx_n;
    sl_vec row;
    memset(&row, 0, sizeof row);
    r->V = V;
    if (!(r->tokens = malloc(n * B * sizeof *r->tokens)) || sl_base_vec_alloc(&row, V, m.source, err))
        rc = r->tokens ? SL_ENOMEM /* the row's message is in err */
                       : sl_base_error_set(err, SL_ENOMEM, "samplab draw: out of memory for %zu tokens", n * B);
    for (size_t b = 0; b < B && !rc; b++) {
        if ((rc = sl_io_steps_row(&m, b, &row)))
            break;
        if (m.own_dtype)
            row.dtype = m.dtype;
        fo.seed = all.seed;
        fo.has_seed = all.has_seed;
        sl_api_row_seed_apply(&rs, b, &fo);
        fo.logits = is_logits ? &row : NULL;
        fo.probs = is_logits ? NULL : &row;
        sl_fw_session ses;
        if ((rc = sl_fw_session_open(&ses, ft, &fo, err)))
            break;
        for (size_t t = 0; t < n && !rc; t++) {
            sl_fw_step st;
            if (!(rc = sl_fw_session_step(&ses, &row, &st, err))) {
                r->tokens[t * B + b] = st.tokens[0];
                r->words += st.words;
                if (ft->accepts_drawn)
                    rc = sl_fw_session_accept(&ses, st.tokens[0], err);
            }
        }
        if (!rc && b == 0) {
            r->rng_name = ft->rng_label ? ft->rng_label : ses.rng.type->name;
            r->word_bits = ses.rng.type->word_bits;
            r->version = sl_fw_session_version(&ses);
            if (ft->accepts & SL_OPT_CPU)
                r->cpu = sl_logits_cpu_name(sl_logits_cpu_resolve(ses.o.cfg.cpu));
        }
        sl_fw_session_close(&ses);
    }
    sl_base_vec_free(&row);
    free(ctx);
    sl_api_row_seeds_free(&rs);
    sl_api_fw_opts_free(&fo);
    sl_io_steps_free(&m);
    if (rc) {
        free(r->tokens);
        r->tokens = NULL;
        return sl_api_lib_error(err, rc);
    }
    r->framework = 1;
    r->n = n;
    r->k = B;
    r->rows = B;
    if (ft->pipeline && is_logits) {
        r->pipeline = ft->pipeline;
        r->given = s->cfg;
        r->given.context = NULL;
        r->given.context_n = 0;
    }
    return SL_OK;
}
