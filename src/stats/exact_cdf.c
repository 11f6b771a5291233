/* exact_cdf.c — exact induced distributions of the inverse-CDF samplers.
 *
 * Each sampler here reads ONE uniform on a grid (u = k * 2^-bits, k uniform) and its
 * token is a nondecreasing function of k. So the number of grid values selecting a
 * token <= j is the first k whose token exceeds j: a ceiling when the comparison is
 * made in float64 against k*2^-bits (exact, since scaling by 2^bits is exact), a
 * binary search over k when the uniform is rescaled in float32 (candle). O(V) or
 * O(V * bits), never 2^bits draws.
 *
 *  candle  rand 0.8.5 WeightedIndex<f32>::sample (weighted_index.rs) with
 *          UniformFloat<f32> (uniform.rs): cum = float32 running sums (n-1 stored),
 *          scale = total shrunk while scale*(1-2^-23) >= total, v = k*2^-23 from
 *          u>>9, chosen = v*scale (float32), token = #{cum[i] <= chosen}. 23 bits.
 *          rand 0.9 (candle >= 0.8.4) differs only for subnormal totals.
 *  numpy   NumPy 1.24 Generator.choice / RandomState.choice with p: float64 cumsum,
 *          cdf /= cdf[-1], u = k*2^-53, token = searchsorted(cdf, u, 'right').
 *          ValueError when |kahan_sum(p) - 1| > atol (reported as a failure path).
 *  torch-replacement  torch 1.13 multinomial(p, n, replacement=True)
 *          (ATen/native/cpu/MultinomialKernel.cpp): cum = running sum in p's dtype,
 *          cum /= sum, cum[V-1] = 1, u = (random64 & (2^53-1)) * 2^-53, token =
 *          first j with cum[j] >= u (binary search on cum[mid] < u). u = 0 returns
 *          token 0 whatever its probability.
 *  linear  the tutorial's Sample(probs, rng) (seed document 003): cum += p in
 *          float64, first i with u < cum; if the sum ends below u, the last index.
 *
 * Known divergences: torch 2.x takes the exponential race for replacement=True,
 * n=1 (see exact_race.c); reduced float types are not modelled. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sl_stat.h"

/* #{k in [0, 2^bits) : k * 2^-bits < c} for a float64 c >= 0 (bits <= 53). */
static uint64_t grid_below(double c, unsigned bits)
{
    double n = 0x1p0 * ldexp(1.0, (int)bits);
    double x = ldexp(c, (int)bits); /* exact: a power-of-two scaling of a finite double */
    if (!(x > 0))
        return 0;
    if (x >= n)
        return (uint64_t)n;
    return (uint64_t)ceil(x);
}

/* #{k : k * 2^-bits <= c}. */
static uint64_t grid_at_most(double c, unsigned bits)
{
    double n = ldexp(1.0, (int)bits);
    double x = ldexp(c, (int)bits);
    if (x < 0)
        return 0;
    if (x >= n)
        return (uint64_t)n;
    return (uint64_t)floor(x) + 1;
}

/* ------------------------------------------------------------------ candle */

/* rand 0.8.5 UniformFloat<f32>::new(0, total): shrink scale until the largest
 * uniform maps below total. Only subnormal totals shrink (3*2^-149 -> 2*2^-149). */
static float candle_scale(float total)
{
    const float max_rand = 1.0f - 0x1p-23f;
    float scale = total;
    while (scale * max_rand + 0.0f >= total) {
        uint32_t b;
        memcpy(&b, &scale, 4);
        if (b == 0)
            break;
        b--;
        memcpy(&scale, &b, 4);
    }
    return scale;
}

static float candle_chosen(uint32_t k, float scale)
{
    float v = (float)k * 0x1p-23f; /* == asfloat((u>>9)|0x3f800000) - 1, exactly */
    return v * scale + 0.0f;
}

static int run_candle(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_check_f(in, err);
    if (rc)
        return rc;
    if ((rc = sl_stat_exact_result_init(out, in, 23, err)))
        return rc;
    size_t V = in->V;
    uint64_t *K = malloc(V * sizeof *K);
    float *cum = malloc(V * sizeof *cum);
    if (!K || !cum) {
        free(K);
        free(cum);
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    }
    float total = in->f[0];
    for (size_t i = 1; i < V; i++) {
        cum[i - 1] = total;
        total += in->f[i];
    }
    snprintf(out->note, sizeof out->note,
             "rand 0.8.5 WeightedIndex<f32> over float32 weights; uniform on 2^23 values "
             "(u>>9), chosen = v*scale in float32, token = #{running sum <= chosen}");
    if (total == 0) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "all_zero", -1,
            "WeightedIndex::new returns Err(AllWeightsZero): the float32 weights sum to 0");
        sl_stat_exact_path_set(p, 1, 0);
    } else if (isinf(total)) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "panic_overflow", -1,
            "the float32 sum overflows to +inf: Uniform::new panics (not an Err)");
        sl_stat_exact_path_set(p, 1, 0);
    } else {
        float scale = candle_scale(total);
        const uint32_t N = 1u << 23;
        uint32_t lo = 0;
        for (size_t j = 0; j + 1 < V; j++) {
            /* first k with cum[j] <= chosen(k); cum is nondecreasing, so lo carries over */
            uint32_t a = lo, b = N;
            while (a < b) {
                uint32_t mid = a + (b - a) / 2;
                if (cum[j] <= candle_chosen(mid, scale))
                    b = mid;
                else
                    a = mid + 1;
            }
            K[j] = a;
            lo = a;
        }
        K[V - 1] = N;
        sl_stat_exact_counts_from_cumulative(out, K);
        if (scale != total) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "subnormal_scale", -1,
                "subnormal total %.9g: rand 0.8.5 shrinks the uniform's scale to %.9g "
                "(counts above include it; rand 0.9 shrinks less)", (double)total, (double)scale);
            if (p)
                sl_stat_exact_path_set(p, 1, 0);
        }
    }
    free(K);
    free(cum);
    return 0;
}

const sl_stat_exact_type sl_stat_exact_candle_type = {
    "candle", "rand 0.8.5 WeightedIndex<f32> (candle LogitsProcessor, 23-bit uniform)", run_candle
};

int sl_stat_exact_candle_softmax(const float *x, size_t n, double temperature, float *out, sl_error *err)
{
    if (n == 0)
        return sl_base_error_set(err, SL_EINVAL, "softmax of an empty vector");
    if (!(temperature > 0) || isinf(temperature))
        return sl_base_error_set(err, SL_EINVAL, "temperature %g is not a positive finite number", temperature);
    float a = (float)(1.0 / temperature), mx = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]) || x[i] == INFINITY)
            return sl_base_error_set(err, SL_EINVAL, "logit %zu is %s", i, isnan(x[i]) ? "NaN" : "+infinite");
        out[i] = x[i] * a + 0.0f; /* candle's affine(1/T, 0) */
        mx = fmaxf(mx, out[i]);
    }
    if (mx == -INFINITY)
        return sl_base_error_set(err, SL_EINVAL, "all %zu logits are -infinite", n);
    float sum = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = expf(out[i] - mx);
        sum += out[i];
    }
    for (size_t i = 0; i < n; i++)
        out[i] /= sum;
    return 0;
}

/* ------------------------------------------------------------------ numpy */

static int run_numpy(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int f32 = in->dtype == SL_F32;
    int rc = f32 ? sl_stat_exact_check_f(in, err) : sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    if ((rc = sl_stat_exact_result_init(out, in, 53, err)))
        return rc;
    size_t V = in->V;
    double *cdf = calloc(V, sizeof *cdf);
    uint64_t *K = malloc(V * sizeof *K);
    if (!cdf || !K) {
        free(cdf);
        free(K);
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    }
    for (size_t i = 0; i < V; i++)
        cdf[i] = f32 ? (double)in->f[i] : in->d[i];
    /* numpy's kahan_sum, only for the validity check */
    double sum = cdf[0], c = 0;
    for (size_t i = 1; i < V; i++) {
        double y = cdf[i] - c, t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    double atol = sqrt(DBL_EPSILON);
    if (f32 && (double)sqrtf(FLT_EPSILON) > atol)
        atol = (double)sqrtf(FLT_EPSILON);
    snprintf(out->note, sizeof out->note,
             "NumPy 1.24 choice(p=...) over %s probabilities: float64 cumsum, cdf /= cdf[-1], "
             "53-bit uniform, searchsorted side='right' (Generator and RandomState alike)",
             f32 ? "float32" : "float64");
    if (fabs(sum - 1.) > atol) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "value_error", -1,
            "ValueError('probabilities do not sum to 1'): kahan_sum(p) = %.17g, |sum-1| > %.3g",
            sum, atol);
        sl_stat_exact_path_set(p, 1, 0);
    } else {
        for (size_t i = 1; i < V; i++)
            cdf[i] += cdf[i - 1];
        double last = cdf[V - 1];
        for (size_t i = 0; i < V; i++)
            cdf[i] /= last;
        /* token > j  <=>  cdf[j] <= u  <=>  k >= ceil(cdf[j] * 2^53) */
        for (size_t j = 0; j < V; j++)
            K[j] = grid_below(cdf[j], 53);
        sl_stat_exact_counts_from_cumulative(out, K);
    }
    free(cdf);
    free(K);
    return 0;
}

const sl_stat_exact_type sl_stat_exact_numpy_type = {
    "numpy", "NumPy 1.24 choice with p (default_rng PCG64 or legacy MT19937, 53-bit uniform)", run_numpy
};

/* ------------------------------------------------------------------ torch, replacement=True */

/* torch's search: left = 0, right = V; cum[mid] < u moves right. */
static size_t torch_search(const double *cum, size_t V, double u)
{
    size_t l = 0, r = V;
    while (r > l) {
        size_t mid = l + (r - l) / 2;
        if (cum[mid] < u)
            l = mid + 1;
        else
            r = mid;
    }
    return l;
}

static int run_torch_repl(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int f32 = in->dtype == SL_F32;
    int rc = f32 ? sl_stat_exact_check_f(in, err) : sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    if ((rc = sl_stat_exact_result_init(out, in, 53, err)))
        return rc;
    size_t V = in->V;
    double *cum = malloc(V * sizeof *cum);
    uint64_t *K = malloc(V * sizeof *K);
    if (!cum || !K) {
        free(cum);
        free(K);
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    }
    double sumd = 0;
    if (f32) {
        float s = 0;
        float *cf = malloc(V * sizeof *cf);
        if (!cf) {
            free(cum);
            free(K);
            return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
        }
        for (size_t j = 0; j < V; j++) {
            s += in->f[j];
            cf[j] = s;
        }
        for (size_t j = 0; j < V; j++)
            cum[j] = (double)(cf[j] / s); /* float32 division, then the compare promotes */
        sumd = (double)s;
        free(cf);
    } else {
        double s = 0;
        for (size_t j = 0; j < V; j++) {
            s += in->d[j];
            cum[j] = s;
        }
        for (size_t j = 0; j < V; j++)
            cum[j] /= s;
        sumd = s;
    }
    snprintf(out->note, sizeof out->note,
             "torch 1.13 multinomial(p, n, replacement=True) over %s p: running sum in p's dtype, "
             "cum /= sum, cum[V-1] = 1, 53-bit double u, first j with cum[j] >= u",
             f32 ? "float32" : "float64");
    if (!(sumd > 0)) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "runtime_error", -1,
            "RuntimeError: invalid multinomial distribution (sum of probabilities <= 0)");
        sl_stat_exact_path_set(p, 1, 0);
    } else {
        cum[V - 1] = 1;
        int has_nan = 0;
        for (size_t j = 0; j < V; j++)
            has_nan |= isnan(cum[j]);
        if (!has_nan) {
            /* token > j  <=>  cum[j] < u  <=>  k > cum[j]*2^53 */
            for (size_t j = 0; j < V; j++)
                K[j] = grid_at_most(cum[j], 53);
        } else {
            /* inf/inf = NaN entries (the sum overflowed): the table is not sorted, so
             * follow torch's own binary search. Each of its comparisons is monotone in
             * u, so its result still is: search per boundary over k. */
            uint64_t a0 = 0;
            for (size_t j = 0; j + 1 < V; j++) {
                uint64_t a = a0, b = (uint64_t)1 << 53;
                while (a < b) {
                    uint64_t mid = a + (b - a) / 2;
                    if (torch_search(cum, V, ldexp((double)mid, -53)) > j)
                        b = mid;
                    else
                        a = mid + 1;
                }
                K[j] = a0 = a;
            }
            K[V - 1] = (uint64_t)1 << 53;
        }
        sl_stat_exact_counts_from_cumulative(out, K);
        if (isinf(sumd)) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "sum_overflow", (long)V - 1,
                "the %s running sum overflows to +inf: cum/sum is 0 before the overflow and "
                "NaN after it, and torch's binary search lands where the sum overflowed",
                f32 ? "float32" : "float64");
            if (p)
                sl_stat_exact_path_set(p, 1, 0);
        }
        /* u = 0 (k = 0): the first j with cum[j] >= 0 is 0, whatever p[0] is;
         * a failure only when p[0] == 0 */
        double p0 = f32 ? (double)in->f[0] : in->d[0];
        if (p0 == 0) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "u_zero", 0,
                "u == 0 exactly (k = 0): returns token 0, which has probability 0");
            sl_stat_exact_path_set(p, 1, 53);
        }
    }
    free(cum);
    free(K);
    return 0;
}

const sl_stat_exact_type sl_stat_exact_torch_repl_type = {
    "torch-replacement", "torch 1.13 multinomial(p, n, replacement=True): float cdf, 53-bit uniform",
    run_torch_repl
};

/* ------------------------------------------------------------------ the tutorial's linear scan */

static int run_linear(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    unsigned bits = in->grid_bits ? in->grid_bits : 53;
    if (bits > 53)
        return sl_base_error_set(err, SL_EINVAL, "linear: a uniform grid of %u bits does not fit a double", bits);
    if ((rc = sl_stat_exact_result_init(out, in, bits, err)))
        return rc;
    size_t V = in->V;
    uint64_t *K = malloc(V * sizeof *K);
    if (!K)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    /* draw/linear.c normalises once by the plain sum, as the tutorial's softmax
     * output is normalised, then scans the running sum */
    double s = 0, cum = 0;
    for (size_t i = 0; i < V; i++)
        s += in->d[i];
    if (!(s > 0)) {
        free(K);
        return sl_base_error_set(err, SL_EINVAL, "%s: the weights sum to 0", in->source ? in->source : "weights");
    }
    for (size_t i = 0; i < V; i++) {
        cum += in->d[i] / s;
        K[i] = grid_below(cum, bits); /* token <= i  <=>  u < cum_i */
    }
    uint64_t N = (uint64_t)1 << bits, fell = N - K[V - 1];
    sl_stat_exact_counts_from_cumulative(out, K); /* the fallback lands on V-1 */
    snprintf(out->note, sizeof out->note,
             "tutorial Sample() (samplab draw/linear): p/sum, float64 running sum, first i with "
             "u < sum, else the last index; u = k*2^-%u", bits);
    double plast = in->d[V - 1];
    sl_stat_exact_path *p = sl_stat_exact_path_add(out, "fallback", (long)V - 1,
        "the running sum %.17g ends at or below u: the loop falls through to the last token %zu%s",
        cum, V - 1, plast == 0 ? ", which has probability 0" : "");
    sl_stat_exact_path_set(p, fell, bits);
    free(K);
    return 0;
}

const sl_stat_exact_type sl_stat_exact_linear_type = {
    "linear", "the tutorial's linear inverse CDF with a last-index fallback (float64)", run_linear
};
