/* study.c — how the sections draw: the generators and draw methods the report
 * compares, a draw of n tokens into counts through the library's own types,
 * and a framework emulation run on a report vector, as `samplab draw` runs
 * them. */
#include <stdio.h>
#include <string.h>

#include "report/sl_report.h"

const char *const sl_report_rng_names[] = {"pcg32", "mt19937", "gsl:taus2", NULL};
const char *const sl_report_method_names[] = {"exprace", "cdf", "linear", "alias", NULL};

int sl_report_rng_open(sl_rng *r, const char *name, uint64_t seed, sl_error *err)
{
    const sl_rng_type *t = sl_rng_lookup(name);
    if (!t)
        return sl_base_error_set(err, SL_EINVAL, "report: unknown generator %s", name);
    sl_seed s;
    memset(&s, 0, sizeof s);
    s.lo = seed;
    return sl_rng_init(r, t, &s, err);
}

int sl_report_draw_counts(const sl_report_dist *d, const char *method, const char *rng, uint64_t seed, size_t n,
                    uint64_t *counts, uint64_t *words, sl_error *err)
{
    const sl_draw_type *m = sl_draw_lookup(method);
    if (!m)
        return sl_base_error_set(err, SL_EINVAL, "report: unknown draw method %s", method);
    sl_rng r;
    int rc = sl_report_rng_open(&r, rng, seed, err);
    if (rc)
        return rc;
    void *table = NULL;
    if ((rc = sl_draw_prepare(m, &table, d->p, d->V, err))) {
        sl_rng_release(&r);
        return rc;
    }
    memset(counts, 0, d->V * sizeof *counts);
    for (size_t i = 0; i < n; i++) {
        size_t t = m->draw(table, &r);
        if (t >= d->V) {
            rc = sl_base_error_set(err, SL_EINVAL, "report: %s drew token %zu outside 0..%zu", method, t, d->V - 1);
            break;
        }
        counts[t]++;
    }
    *words = r.words;
    m->free(table);
    sl_rng_release(&r);
    return rc;
}

int sl_report_fw_run(const sl_fw_type *fw, const sl_report_dist *d, uint64_t seed, size_t n, long top_k,
               sl_fw_result *res, sl_error *err)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    memset(res, 0, sizeof *res);
    if (fw->accepts & SL_OPT_LOGITS)
        o.logits = &d->lvec;
    else
        o.probs = &d->pvec;
    o.seed.lo = seed;
    o.has_seed = 1;
    o.n = n;
    o.k = 1;
    o.replacement = SL_FW_REPLACEMENT_DEFAULT; /* as `samplab draw`: torch.multinomial's replacement=False */
    o.cfg.cpu = SL_REPORT_CPU;
    if (top_k > 0) {
        o.cfg.has_top_k = 1;
        o.cfg.top_k = top_k;
    }
    /* Sampling at T = 1 said out loud: candle's LogitsProcessor without a
     * temperature is ArgMax, which draws nothing. */
    if (fw->accepts & SL_OPT_TEMPERATURE) {
        o.cfg.has_temperature = 1;
        o.cfg.temperature = 1.0;
    }
    return sl_fw_run(fw, &o, res, err);
}

int sl_report_refusal(int rc, const sl_error *e, char *msg, size_t n, sl_error *err)
{
    if (rc == SL_ENOMEM) {
        *err = *e;
        return rc;
    }
    snprintf(msg, n, "%s", e->msg);
    return 0;
}
