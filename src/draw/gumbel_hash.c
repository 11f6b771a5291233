/* gumbel_hash.c — SGLang's multinomial_with_seed (python/sglang/srt/layers/sampler.py,
 * read in the 0.5.9-0.5.12 line and after PR #33423): one uniform per column from a
 * counter-based hash (the sglang-murmur3 source, one 32-bit word per column, V words
 * a draw), x = h / (2^32 - 1) in float64, Gumbel noise -log(-log(x)) computed as
 * x.log_().clamp_(...).neg_(); x.log_().neg_(), plus the column's log-probability,
 * then torch.argmax: the first NaN, else the first maximum (the Gumbel-max argmax
 * every such sampler shares, sl_draw_gumbel_max_offer of draw/gumbel.c).
 * The clamp is the release line's (param): the low end only (log x >= -DBL_MAX, the
 * 0.5.9-0.5.12 line), so h = 2^32 - 1 gives x = 1 and noise +inf, which wins its row
 * and, on a removed column (-inf), makes NaN, which wins too (SGLang issue #25106);
 * or both ends (log x <= -2^-32, PR #33423), which caps that bucket at 32 ln 2.
 * The table holds the log-probabilities as the caller computed them (SGLang takes
 * the log in float32 on one path and in float64 on the other: framework/sglang.c).
 * Known divergence: the logarithm is the C library's; torch's float64 log on CPU is
 * SLEEF's (u10), which differs from glibc's in the last bit for about 3% of
 * arguments: a token changes only when the two best perturbed scores are within an
 * ulp of each other (none of data/golden/current/sglang.txt's records). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

typedef struct gumbel_table {
    size_t V;
    int clamp_high;
    double *logp;
} gumbel_table;

#define GUMBEL_CHUNK 4096 /* words hashed at a time */

static int gumbel_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const sl_draw_gumbel_param *pr = param;
    gumbel_table *t = calloc(1, sizeof *t);
    if (!t || !(t->logp = malloc((dist->V ? dist->V : 1) * sizeof *t->logp))) {
        free(t);
        return sl_base_error_set(err, SL_ENOMEM, "sglang-gumbel: out of memory for %zu columns", dist->V);
    }
    t->V = dist->V;
    t->clamp_high = pr ? pr->clamp_high : 1;
    memcpy(t->logp, dist->d, dist->V * sizeof *t->logp);
    *table = t;
    return SL_OK;
}

double sl_draw_gumbel_noise(uint32_t h, int clamp_high)
{
    double x = (double)h / 4294967295.0; /* torch.iinfo(torch.uint32).max */
    x = log(x);
    if (x < -DBL_MAX)
        x = -DBL_MAX;
    if (clamp_high && x > -0x1p-32)
        x = -0x1p-32;
    return -log(-x);
}

static size_t gumbel_draw(const void *table, sl_rng *rng)
{
    const gumbel_table *t = table;
    uint32_t h[GUMBEL_CHUNK];
    sl_draw_gumbel_max m; /* the Gumbel-max argmax (torch.argmax's order), draw/gumbel.c */
    sl_draw_gumbel_max_init(&m);
    for (size_t j0 = 0; j0 < t->V; j0 += GUMBEL_CHUNK) {
        size_t n = t->V - j0 < GUMBEL_CHUNK ? t->V - j0 : GUMBEL_CHUNK;
        sl_rng_fill32(rng, h, n);
        for (size_t i = 0; i < n; i++) {
            double lp = t->logp[j0 + i], v;
            if (lp == -INFINITY) {
                /* -inf plus finite noise is -inf: only the unclamped +inf bucket makes NaN */
                if (t->clamp_high || h[i] != UINT32_MAX)
                    continue;
                v = NAN;
            } else {
                v = sl_draw_gumbel_noise(h[i], t->clamp_high) + lp;
            }
            sl_draw_gumbel_max_offer(&m, j0 + i, v);
        }
    }
    return sl_draw_gumbel_max_token(&m);
}

static void gumbel_free(void *table)
{
    gumbel_table *t = table;
    if (t)
        free(t->logp);
    free(t);
}

static const sl_draw_gumbel_param clamp_both = {1};

const sl_draw_type sl_draw_gumbel_hash_type = {
    .name = "sglang-gumbel",
    .cost = "prepare O(V) copy of the log-probabilities; draw V hashes, 2 logs per live column; V words (32-bit)",
    .prepare = gumbel_prepare,
    .draw = gumbel_draw,
    .free = gumbel_free,
    .param = &clamp_both,
};
