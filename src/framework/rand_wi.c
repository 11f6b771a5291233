/* rand_wi.c — Rust rand 0.8.5 WeightedIndex<f32> and UniformFloat<f32>
 * (src/distributions/weighted_index.rs, uniform.rs, utils.rs), bit for bit.
 *
 * new: total = w[0] (must be >= 0), then for each later weight: check >= 0,
 * store the running total, add the weight (f32, left to right); n-1 sums are
 * stored. total == 0 -> AllWeightsZero. Then UniformFloat::new(0, total):
 * scale = total - 0 must be finite (else rand panics), and is shrunk one ulp
 * at a time while scale * (1 - 2^-23) + 0 >= total (only subnormal totals).
 * sample: one u32, (w >> 9) | 0x3f800000 as a float in [1,2), minus 1, times
 * scale, plus 0; the index is the number of stored sums <= that value
 * (binary_search_by with Less/Greater only, unwrap_err). One word per draw.
 *
 * rand 0.9 (candle >= 0.8.4): the same words and the same draws for normal
 * totals; it shrinks the scale only while the product is > high (not >=), so
 * subnormal totals can differ, and the errors are renamed (README.candle.md).
 * Needs IEEE f32 without FMA contraction (the Makefile sets -ffp-contract=off). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

const char *sl_fw_rand_status_name(sl_fw_rand_status s)
{
    switch (s) {
    case SL_RAND_OK: return "ok";
    case SL_RAND_NO_ITEM: return "NoItem";
    case SL_RAND_INVALID_WEIGHT: return "InvalidWeight";
    case SL_RAND_ALL_WEIGHTS_ZERO: return "AllWeightsZero";
    case SL_RAND_PANIC_RANGE: return "panic: Uniform::new: range overflow";
    case SL_RAND_NOMEM: return "out of memory";
    }
    return "?";
}

sl_fw_rand_status sl_fw_rand_uniform_f32_new(float low, float high, float *scale)
{
    /* assert!(low < high); then the range must be finite */
    if (!(low < high))
        return SL_RAND_PANIC_RANGE;
    float s = high - low;
    if (!isfinite(s))
        return SL_RAND_PANIC_RANGE;
    const float max_rand = f32_from_bits(0x3f7fffffu); /* 1 - 2^-23 */
    while (s * max_rand + low >= high)
        s = f32_from_bits(f32_bits(s) - 1u);
    *scale = s;
    return SL_RAND_OK;
}

float sl_fw_rand_uniform_f32_sample(float low, float scale, sl_rng *rng)
{
    uint32_t u = (uint32_t)sl_rng_next(rng);
    float v = f32_from_bits((u >> 9) | 0x3f800000u) - 1.0f;
    return v * scale + low;
}

sl_fw_rand_status sl_fw_rand_wi_new(sl_fw_rand_wi *wi, const float *w, size_t n, size_t *bad)
{
    memset(wi, 0, sizeof *wi);
    if (bad)
        *bad = n;
    if (n == 0)
        return SL_RAND_NO_ITEM;
    float total = w[0];
    if (!(total >= 0.0f)) {
        if (bad)
            *bad = 0;
        return SL_RAND_INVALID_WEIGHT;
    }
    float *cum = malloc((n > 1 ? n - 1 : 1) * sizeof *cum);
    if (!cum)
        return SL_RAND_NOMEM;
    for (size_t i = 1; i < n; i++) {
        if (!(w[i] >= 0.0f)) { /* negative, NaN, -inf */
            free(cum);
            if (bad)
                *bad = i;
            return SL_RAND_INVALID_WEIGHT;
        }
        cum[i - 1] = total;
        total += w[i];
    }
    if (total == 0.0f) {
        free(cum);
        return SL_RAND_ALL_WEIGHTS_ZERO;
    }
    float scale;
    sl_fw_rand_status st = sl_fw_rand_uniform_f32_new(0.0f, total, &scale);
    if (st) {
        free(cum);
        return st;
    }
    wi->cum = cum;
    wi->n = n;
    wi->total = total;
    wi->scale = scale;
    return SL_RAND_OK;
}

size_t sl_fw_rand_wi_sample(const sl_fw_rand_wi *wi, sl_rng *rng)
{
    float chosen = sl_fw_rand_uniform_f32_sample(0.0f, wi->scale, rng);
    /* The partition point of the non-decreasing sums: every binary search
     * that only answers Less (<=) or Greater returns it. Branch-free halving. */
    const float *c = wi->cum;
    size_t size = wi->n - 1, base = 0;
    if (size == 0)
        return 0;
    while (size > 1) {
        size_t half = size / 2;
        base = c[base + half] <= chosen ? base + half : base;
        size -= half;
    }
    return base + (c[base] <= chosen);
}

void sl_fw_rand_wi_free(sl_fw_rand_wi *wi)
{
    free(wi->cum);
    wi->cum = NULL;
}
