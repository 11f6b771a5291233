/* exact_llama.c — exact induced distribution of llama.cpp's dist sampler
 * (src/llama-sampler.cpp llama_sampler_dist_apply, the single-pass version of
 * 2025): p_i = expf(logit_i - max) in float32, sum_cum = double sum of them,
 * rnd = std::uniform_real_distribution<double>(0, 1) over std::mt19937, target =
 * sum_cum * rnd, token = first i (array order) whose double running sum of p is
 * >= target, else the last index ("don't think this can happen").
 *
 * The uniform is libstdc++'s generate_canonical<double, 53> over two 32-bit words
 * (GCC 12, bits/random.tcc): sum = w1 + w2 * 2^32 in double (one rounding of the
 * 64-bit integer W = w2*2^32 + w1), u = sum / 2^64, clamped to 1 - 2^-53 when it
 * rounds to 1. So u is a nondecreasing function of W over 2^64 equally likely
 * word pairs, on a non-uniform grid: counts are over 2^64 (bits = 64), found by
 * one binary search over W per boundary. Checked against libstdc++ itself by
 * tests/oracle/llamacpp_dist.cpp.
 *
 * Known divergences: older llama.cpp versions used std::discrete_distribution or a
 * normalise-then-scan loop; the candidate array order is whatever the chain left
 * (here: the order given); libc++ (macOS) has another generate_canonical. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/sl_stat.h"

/* u for the word pair W = w2 * 2^32 + w1 (w1 drawn first). */
static double llama_canonical(uint64_t W)
{
    double sum = (double)(uint32_t)W;
    sum += (double)(uint32_t)(W >> 32) * 0x1p32;
    double u = sum / 0x1p64;
    return u >= 1 ? 0x1.fffffffffffffp-1 : u;
}

/* first W in [lo, 2^64] with pred(W) true, pred monotone; 2^64 if none */
static sl_u128 first_w_above(double S, double sum_cum, sl_u128 lo)
{
    sl_u128 a = lo, b = (sl_u128)1 << 64;
    while (a < b) {
        sl_u128 mid = a + (b - a) / 2;
        if (S < sum_cum * llama_canonical((uint64_t)mid))
            b = mid;
        else
            a = mid + 1;
    }
    return a;
}

static int run_llama(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    const char *src = in->source ? in->source : "logits";
    if (!in->logits_f)
        return sl_base_error_set(err, SL_EINVAL, "%s: llama.cpp's dist sampler takes logits (use --logits)", src);
    size_t V = in->V;
    if (V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no entries", src);
    float mx = in->logits_f[0];
    for (size_t i = 0; i < V; i++) {
        float x = in->logits_f[i];
        if (isnan(x) || x == INFINITY)
            return sl_base_error_set(err, SL_EINVAL, "%s: logit %zu is %s", src, i, isnan(x) ? "NaN" : "+infinite");
        mx = fmaxf(mx, x);
    }
    if (mx == -INFINITY)
        return sl_base_error_set(err, SL_EINVAL, "%s: all %zu logits are -infinite", src, V);
    int rc = sl_stat_exact_result_init(out, in, 64, err);
    if (rc)
        return rc;
    double *S = malloc(V * sizeof *S), sum_cum = 0;
    if (!S)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    for (size_t i = 0; i < V; i++) {
        float p = expf(in->logits_f[i] - mx);
        sum_cum += p;
        S[i] = sum_cum; /* sum_run adds the same floats in the same order */
    }
    snprintf(out->note, sizeof out->note,
             "llama.cpp dist: float32 expf(logit - max), double sums, u = generate_canonical<double,53> "
             "over two mt19937 words (libstdc++), first running sum >= u*sum; 2^64 word pairs");
    if (V == 1) {
        out->count[0] = (sl_u128)1 << 64;
    } else {
        sl_u128 prev = 0, a = 0;
        for (size_t j = 0; j < V; j++) {
            a = first_w_above(S[j], sum_cum, a);
            out->count[j] = a - prev;
            prev = a;
        }
        sl_u128 fell = ((sl_u128)1 << 64) - prev;
        out->count[V - 1] += fell;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "not_found", (long)V - 1,
            "no running sum reaches u*sum: the fallback returns the last index %zu", V - 1);
        sl_stat_exact_path_set(p, fell, 64);
        if (expf(in->logits_f[0] - mx) == 0) {
            p = sl_stat_exact_path_add(out, "u_zero", 0,
                "u == 0 (both words 0): target 0, and the first running sum (0) reaches it: "
                "token 0, whose probability is 0");
            sl_stat_exact_path_set(p, 1, 64);
        }
    }
    out->has_counts = 1;
    free(S);
    return 0;
}

const sl_stat_exact_type sl_stat_exact_llamacpp_type = {
    "llamacpp", "llama.cpp dist sampler (float32 expf, double sums, libstdc++ 64-bit canonical uniform)",
    run_llama
};
