/* ref.c — the reference distribution of gof, power and calibrate (--probs
 * weights normalised by their sum, or --logits through the stable softmax at
 * --temperature), and N draws into counts with a draw method over a random
 * source, as `samplab draw --method` makes them (moved from cli/statref.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

int sl_api_ref_load(const sl_api_ref_opts *o, sl_api_ref *ref, sl_error *err)
{
    memset(ref, 0, sizeof *ref);
    if (!!o->probs == !!o->logits)
        return sl_base_error_set(err, SL_EINVAL, "give exactly one of --probs SRC and --logits SRC");
    if (o->probs && o->has_temperature)
        return sl_base_error_set(err, SL_EINVAL, "--temperature applies to --logits only");
    sl_vec vec;
    int rc = sl_io_vec_read_as(o->probs ? o->probs : o->logits, o->probs ? SL_API_NAME(PROBS) : SL_API_NAME(LOGITS), o->tensor, o->row,
                                &vec, err);
    if (rc)
        return rc;
    return sl_api_ref_of_vec(&vec, o, ref, err);
}

int sl_api_ref_of_vec(sl_vec *vec_in, const sl_api_ref_opts *o, sl_api_ref *ref, sl_error *err)
{
    sl_vec vec = *vec_in;
    int rc;
    memset(ref, 0, sizeof *ref);
    snprintf(ref->source, sizeof ref->source, "%s", vec.source);
    ref->v = vec.n;
    ref->p = malloc((vec.n ? vec.n : 1) * sizeof *ref->p);
    if (!ref->p) {
        sl_base_vec_free(&vec);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", ref->source);
    }
    if (o->logits) {
        double t = o->has_temperature ? o->temperature : 1.0;
        rc = sl_logits_softmax(vec.d, vec.n, t, ref->p, err);
        if (rc) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            sl_base_error_set(err, rc, "%s: %s", ref->source, msg);
        }
        ref->weight_sum = 1.0;
        ref->temperature = t;
        ref->from_logits = 1;
    } else {
        rc = sl_base_vec_check_weights(&vec, err);
        if (!rc) /* checked above with the source's name: cannot fail */
            rc = sl_stat_gof_normalise(vec.d, vec.n, ref->p, &ref->weight_sum, err);
    }
    sl_base_vec_free(&vec);
    if (rc) {
        free(ref->p);
        ref->p = NULL;
        return rc;
    }
    for (size_t i = 0; i < ref->v; i++)
        ref->support += ref->p[i] > 0;
    return SL_OK;
}

void sl_api_ref_free(sl_api_ref *ref)
{
    free(ref->p);
    ref->p = NULL;
}

int sl_api_draw_counts(const double *p, size_t V, const sl_draw_type *dt, const sl_rng_type *rt,
                       const sl_seed *seed, uint64_t n, uint64_t *counts, const sl_progress *prog, sl_error *err)
{
    sl_rng rng;
    void *table = NULL;
    int rc = sl_rng_init(&rng, rt, seed, err);
    if (rc)
        return rc;
    rc = sl_draw_prepare(dt, &table, p, V, err);
    if (rc) {
        sl_rng_release(&rng);
        return rc;
    }
    memset(counts, 0, V * sizeof *counts);
    for (uint64_t i = 0; i < n; i++) {
        if (!(i & 0xfffff) && prog && prog->tick && prog->tick(prog->ctx, i, n)) {
            rc = sl_base_error_set(err, SL_EINTR, "interrupted after %llu of %llu draws", (unsigned long long)i,
                                   (unsigned long long)n);
            break;
        }
        counts[dt->draw(table, &rng)]++;
    }
    dt->free(table);
    sl_rng_release(&rng);
    return rc;
}

int sl_api_ref_from_src(const sl_api_src *src, int is_logits, const sl_api_settings *s, sl_api_ref_opts *ro,
                        sl_api_ref *ref, sl_error *err)
{
    int given = src->spec || src->data;
    const char *name = src->spec ? src->spec : "<memory>";
    memset(ro, 0, sizeof *ro);
    ro->probs = given && !is_logits ? name : NULL;
    ro->logits = given && is_logits ? name : NULL;
    ro->tensor = src->tensor;
    ro->row = src->row;
    ro->has_temperature = s->cfg.has_temperature;
    ro->temperature = s->cfg.temperature;
    int rc;
    if (src->spec || !given) {
        rc = sl_api_ref_load(ro, ref, err);
    } else if (ro->probs && ro->has_temperature) {
        rc = sl_base_error_set(err, SL_EINVAL, "--temperature applies to --logits only");
    } else {
        sl_vec vec;
        if ((rc = sl_api_vec_read(src, &vec, err)) == SL_OK)
            rc = sl_api_ref_of_vec(&vec, ro, ref, err);
    }
    return rc ? sl_api_lib_error(err, rc) : SL_OK;
}

