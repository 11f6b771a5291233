/* exact_gsl.c — exact induced distribution of GSL's gsl_ran_discrete (GSL 2.7.1,
 * randist/discrete.c, Walker's alias method after Knuth's convention) driven by a
 * 32-bit generator whose gsl_rng_uniform is w / 2^32 (mt19937 and the other
 * full-range 32-bit generators).
 *
 * The table is built by GSL itself (gsl_ran_discrete_preproc) and read from its
 * public struct (K, A, F). One draw: u = w/2^32, c = (size_t)(u*K) in float64,
 * f = F[c] (stored as (c + F)/K), return c if f == 1 or u < f, else A[c]. The
 * bucket is a nondecreasing function of w, so each bucket's range of w follows
 * from a binary search over the 2^32 words; inside it, u < f is a ceiling.
 * Bucket and fraction share the same 32 bits, which is why some buckets give
 * their alias a count off by one from the ideal K-fold split. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>

#include "rng/sl_rng.h"
#include "stats/sl_stat.h"

static size_t gsl_bucket(uint64_t w, size_t K)
{
    double u = ldexp((double)w, -32);
    return (size_t)(u * (double)K);
}

static int run_gsl(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    double s = 0;
    for (size_t i = 0; i < in->V; i++)
        s += in->d[i];
    if (!(s > 0))
        return sl_base_error_set(err, SL_EINVAL, "%s: the weights sum to 0",
                            in->source ? in->source : "weights");
    if (isinf(s))
        return sl_base_error_set(err, SL_EINVAL, "%s: the weights sum to +inf in float64 (GSL's table "
                            "would hold NaN)", in->source ? in->source : "weights");
    if ((rc = sl_stat_exact_result_init(out, in, 32, err)))
        return rc;
    /* The inputs are checked above, so GSL can only fail for want of memory. */
    sl_rng_gsl_quiet();
    gsl_ran_discrete_t *g = gsl_ran_discrete_preproc(in->V, in->d);
    if (!g)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: gsl_ran_discrete_preproc failed for %zu tokens (out of memory)", in->V);
    size_t K = g->K;
    const uint64_t N = (uint64_t)1 << 32;
    uint64_t lo = 0;
    for (size_t c = 0; c < K; c++) {
        /* hi = first w whose bucket exceeds c */
        uint64_t a = lo, b = N;
        while (a < b) {
            uint64_t mid = a + (b - a) / 2;
            if (gsl_bucket(mid, K) > c)
                b = mid;
            else
                a = mid + 1;
        }
        uint64_t hi = a;
        if (hi > lo) {
            double f = g->F[c];
            uint64_t own;
            if (f == 1.0) {
                own = hi - lo;
            } else {
                double x = ceil(ldexp(f, 32)); /* #{w : w/2^32 < f} */
                uint64_t below = x <= 0 ? 0 : x >= (double)N ? N : (uint64_t)x;
                own = below <= lo ? 0 : below >= hi ? hi - lo : below - lo;
            }
            out->count[c] += own;
            out->count[g->A[c]] += (hi - lo) - own;
        }
        lo = hi;
    }
    out->has_counts = 1;
    gsl_ran_discrete_free(g);
    snprintf(out->note, sizeof out->note,
             "GSL 2.7.1 gsl_ran_discrete (table from gsl_ran_discrete_preproc) with one 32-bit "
             "gsl_rng_uniform per draw, shared between bucket and fraction (Knuth convention)");
    return 0;
}

const sl_stat_exact_type sl_stat_exact_gsl_discrete_type = {
    "gsl", "GSL 2.7 gsl_ran_discrete with a 32-bit generator (u = w/2^32)", run_gsl
};
