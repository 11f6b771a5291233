/* rand_wi.c — Rust rand 0.8.5 WeightedIndex<f32> and UniformFloat<f32>
 * (src/distributions/weighted_index.rs, uniform.rs, utils.rs), bit for bit, and
 * WeightedIndex<f64> (the same new, written once in rand_wi_tmpl.h; its sample
 * is one u64 = two words, low first, whose top 52 bits make the float in [1, 2)).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

#define RW_FN(name) rw32_##name
#define RW_T float
#define RW_BITS uint32_t
#define RW_MAX_RAND 0x3f7ffffeu /* (u32::MAX >> 9) as a float in [1, 2), minus 1 (0.8); 1 - f32::EPSILON (0.9+) */
#include "draw/rand_wi_tmpl.h"

#define RW_FN(name) rw64_##name
#define RW_T double
#define RW_BITS uint64_t
#define RW_MAX_RAND 0x3feffffffffffffeull /* 1 - 2^-52: (u64::MAX >> 12) in [1, 2), minus 1; 1 - f64::EPSILON */
#include "draw/rand_wi_tmpl.h"

const char *sl_draw_rand_status_name(sl_draw_rand_status s)
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

const char *sl_draw_rand_status_name_v(sl_draw_rand_status s, int version)
{
    if (version < 9)
        return sl_draw_rand_status_name(s);
    switch (s) {
    case SL_RAND_NO_ITEM: return "InvalidInput";
    case SL_RAND_ALL_WEIGHTS_ZERO: return "InsufficientNonZero";
    case SL_RAND_PANIC_RANGE: return version >= 10 ? "Overflow" : sl_draw_rand_status_name(s);
    default: return sl_draw_rand_status_name(s);
    }
}

sl_draw_rand_status sl_draw_rand_uniform_f32_new(float low, float high, int version, float *scale)
{
    return rw32_uniform_new(low, high, version, scale);
}

sl_draw_rand_status sl_draw_rand_uniform_f64_new(double low, double high, int version, double *scale)
{
    return rw64_uniform_new(low, high, version, scale);
}

sl_draw_rand_status sl_draw_rand_wi_new(sl_draw_rand_wi *wi, const float *w, size_t n, int version, size_t *bad)
{
    memset(wi, 0, sizeof *wi);
    sl_draw_rand_status st = rw32_wi_new(&wi->cum, &wi->total, &wi->scale, w, n, version, bad);
    if (!st)
        wi->n = n;
    return st;
}

sl_draw_rand_status sl_draw_rand_wi64_new(sl_draw_rand_wi64 *wi, const double *w, size_t n, int version, size_t *bad)
{
    memset(wi, 0, sizeof *wi);
    sl_draw_rand_status st = rw64_wi_new(&wi->cum, &wi->total, &wi->scale, w, n, version, bad);
    if (!st)
        wi->n = n;
    return st;
}

size_t sl_draw_rand_wi64_sample(const sl_draw_rand_wi64 *wi, sl_rng *rng)
{
    /* UniformFloat<f64>::sample: one u64 (two u32 words, low first), its top 52
     * bits as a float in [1, 2), minus 1, times scale, plus 0 */
    uint64_t u = sl_rng_next_u64_lohi(rng);
    double chosen = (rw64_from_bits((u >> 12) | 0x3ff0000000000000ull) - 1.0) * wi->scale + 0.0;
    return sl_draw_search_gt_f64(wi->cum, wi->n - 1, chosen);
}

void sl_draw_rand_wi64_free(sl_draw_rand_wi64 *wi)
{
    free(wi->cum);
    wi->cum = NULL;
}

/* The index for one word: the uniform, then the partition point of the
 * stored sums, which are nondecreasing (weights >= 0, finite total), so every
 * correct binary search returns it, Rust's halving form included. */
static inline float wi_chosen(const sl_draw_rand_wi *wi, uint32_t u)
{
    return (rw32_from_bits((u >> 9) | 0x3f800000u) - 1.0f) * wi->scale + 0.0f;
}

static inline size_t wi_index(const sl_draw_rand_wi *wi, uint32_t u)
{
    return sl_draw_search_gt_f32(wi->cum, wi->n - 1, wi_chosen(wi, u));
}

static int is_chacha(const sl_rng *rng)
{
    return rng->type == &sl_rng_rand_stdrng_type || rng->type == &sl_rng_chacha12_type;
}

size_t sl_draw_rand_wi_sample(const sl_draw_rand_wi *wi, sl_rng *rng)
{
    uint32_t u;
    if (is_chacha(rng)) { /* the usual case, inlined: same word, same count */
        rng->words++;
        u = sl_rng_chacha_next(rng->state);
    } else {
        u = (uint32_t)sl_rng_next(rng);
    }
    return wi_index(wi, u);
}

void sl_draw_rand_wi_sample_many(const sl_draw_rand_wi *wi, sl_rng *rng, size_t n, size_t *out)
{
    if (is_chacha(rng)) {
        /* straight over the keystream buffer: word i of the stream for draw i */
        sl_rng_chacha_state *s = rng->state;
        for (size_t i = 0; i < n;) {
            if (s->idx >= SL_CHACHA_BUF_WORDS)
                sl_rng_chacha_refill(s);
            size_t take = SL_CHACHA_BUF_WORDS - s->idx;
            if (take > n - i)
                take = n - i;
            const uint32_t *w = s->buf + s->idx;
            size_t j = 0;
            for (; j + 4 <= take; j += 4) {
                float c[4];
                for (int k = 0; k < 4; k++)
                    c[k] = wi_chosen(wi, w[j + k]);
                sl_draw_search_gt_f32_x4(wi->cum, wi->n - 1, c, out + i + j);
            }
            for (; j < take; j++)
                out[i + j] = wi_index(wi, w[j]);
            s->idx += (unsigned)take;
            i += take;
        }
        rng->words += n;
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = wi_index(wi, (uint32_t)sl_rng_next(rng));
    }
}

void sl_draw_rand_wi_free(sl_draw_rand_wi *wi)
{
    free(wi->cum);
    wi->cum = NULL;
}

/* ---------------------------------------------------------------- as a draw type */

/* The table of the draw type: WeightedIndex<f32> or WeightedIndex<f64>. */
typedef struct wi_table {
    int f64;
    sl_draw_rand_wi w32;
    sl_draw_rand_wi64 w64;
} wi_table;

/* rand's failure, named in the words of its release; where the total is +inf,
 * the entry from which the running sum (in the weights' type) is infinite. */
static int wi_error(sl_error *err, const char *src, sl_draw_rand_status st, size_t bad, const double *w, size_t n,
                    int f64, int version)
{
    if (st == SL_RAND_NOMEM)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for WeightedIndex over %zu weights", src, n);
    if (st == SL_RAND_INVALID_WEIGHT)
        return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is %.17g (not >= 0): WeightedIndex::new returns %s",
                                 src, bad, w[bad], sl_draw_rand_status_name_v(st, version));
    if (st == SL_RAND_PANIC_RANGE) {
        size_t at = 0;
        double sd = 0.0;
        float sf = 0.0f;
        for (size_t i = 0; i < n; i++) {
            sd += w[i];
            sf += (float)w[i];
            if (f64 ? isinf(sd) : isinf(sf)) {
                at = i;
                break;
            }
        }
        const char *how = isinf(w[at]) ? "an infinite weight" : "overflow";
        if (version >= 10) /* rand 0.10.3 measured: Err(Overflow), not a panic */
            return sl_base_error_set(err, SL_EINVAL,
                                     "%s: the %s sum of the weights is +inf from entry %zu on (%s): WeightedIndex::new "
                                     "returns Overflow (rand 0.10)",
                                     src, f64 ? "f64" : "f32", at, how);
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: the %s sum of the weights is +inf from entry %zu on (%s): rand panics in "
                                 "Uniform::new \"range overflow\"",
                                 src, f64 ? "f64" : "f32", at, how);
    }
    return sl_base_error_set(err, SL_EINVAL, "%s: WeightedIndex::new returns %s", src,
                             sl_draw_rand_status_name_v(st, version));
}

/* prepare: WeightedIndex::new over the weights in the param's type: f32 reads
 * dist->f (float64 weights rounded to f32 first, as a Vec<f32> would hold
 * them), f64 reads dist->d. A failure is rand's error or panic, named; callers
 * that want more context (candle's token order) call sl_draw_rand_wi_new
 * themselves for the status. */
static int wi_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const sl_draw_rand_param *rp = param;
    int version = rp ? rp->version : 8, f64 = rp && rp->f64;
    const char *src = dist->source ? dist->source : "weights";
    size_t V = dist->V;
    float *tmp = NULL;
    const float *w = dist->f;
    double *wd = malloc((V ? V : 1) * sizeof *wd); /* the weights in float64, for messages */
    if (!f64 && !w && wd)
        w = tmp = malloc((V ? V : 1) * sizeof *tmp);
    wi_table *t = calloc(1, sizeof *t);
    if (!wd || !t || (!f64 && !w)) {
        free(wd);
        free(tmp);
        free(t);
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu weights", src, V);
    }
    for (size_t i = 0; i < V; i++) {
        if (tmp)
            tmp[i] = (float)dist->d[i];
        wd[i] = f64 ? dist->d[i] : (double)w[i];
    }
    size_t bad = V;
    t->f64 = f64;
    sl_draw_rand_status st = f64 ? sl_draw_rand_wi64_new(&t->w64, dist->d, V, version, &bad)
                                 : sl_draw_rand_wi_new(&t->w32, w, V, version, &bad);
    free(tmp);
    if (st) {
        free(t);
        int rc = wi_error(err, src, st, bad, wd, V, f64, version);
        free(wd);
        return rc;
    }
    free(wd);
    *table = t;
    return SL_OK;
}

static size_t wi_draw(const void *table, sl_rng *rng)
{
    const wi_table *t = table;
    return t->f64 ? sl_draw_rand_wi64_sample(&t->w64, rng) : sl_draw_rand_wi_sample(&t->w32, rng);
}

/* k samples: f32 through sample_many (straight over the ChaCha keystream). */
static int wi_draw_k(const void *table, sl_rng *rng, size_t k, long *out, sl_error *err)
{
    const wi_table *t = table;
    size_t blk[1024];
    (void)err;
    if (t->f64) {
        for (size_t i = 0; i < k; i++)
            out[i] = (long)sl_draw_rand_wi64_sample(&t->w64, rng);
        return SL_OK;
    }
    for (size_t i = 0; i < k; i += 1024) {
        size_t nb = k - i < 1024 ? k - i : 1024;
        sl_draw_rand_wi_sample_many(&t->w32, rng, nb, blk);
        for (size_t j = 0; j < nb; j++)
            out[i + j] = (long)blk[j];
    }
    return SL_OK;
}

static void wi_free(void *table)
{
    wi_table *t = table;
    if (t) {
        sl_draw_rand_wi_free(&t->w32);
        sl_draw_rand_wi64_free(&t->w64);
    }
    free(t);
}

const sl_draw_type sl_draw_rand_wi_type = {
    .name = "rand-wi",
    .cost = "prepare O(V) running sums; draw O(log V) binary search; 1 uniform: f32 1 word, f64 2 words (32 bits)",
    .prepare = wi_prepare,
    .draw = wi_draw,
    .free = wi_free,
    .draw_k = wi_draw_k,
    .exact = &sl_draw_rand_wi_exact,
};

/* ---------------------------------------------------------------- exact audit */

/* The induced distribution over the 2^23 values of u >> 9 (the mantissa bits
 * rand keeps), with this file's WeightedIndex::new and wi_index: the token is
 * nondecreasing in k, so the tokens <= j end at the first k whose index
 * exceeds j (a binary search over k that carries over from j to j + 1).
 * version 8 or 9 (9 also for 0.10): they differ only for subnormal totals, where
 * 0.8 shrinks the scale and 0.9+ keeps scale = total, so that v * scale can
 * round up to the total and draw the last index even when its weight is 0. */
static int wi_exact_count(const sl_stat_exact_input *in, sl_stat_exact_result *out, int version, sl_error *err)
{
    int rc = sl_stat_exact_begin(in, 1, 23, out, err);
    if (rc)
        return rc;
    size_t V = in->V;
    snprintf(out->note, sizeof out->note,
             "rand %s WeightedIndex<f32> over float32 weights; uniform on 2^23 values "
             "(u>>9), chosen = v*scale in float32, token = #{running sum <= chosen}",
             version >= 9 ? "0.9/0.10" : "0.8.5");
    sl_draw_rand_wi wi;
    sl_draw_rand_status st = sl_draw_rand_wi_new(&wi, in->f, V, version, NULL);
    if (st == SL_RAND_ALL_WEIGHTS_ZERO) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "all_zero", -1,
            version >= 9 ? "WeightedIndex::new returns Err(InsufficientNonZero): the float32 weights sum to 0"
                         : "WeightedIndex::new returns Err(AllWeightsZero): the float32 weights sum to 0");
        sl_stat_exact_path_set(p, 1, 0);
        return 0;
    }
    if (st == SL_RAND_PANIC_RANGE) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "panic_overflow", -1,
            version >= 9 ? "the float32 sum overflows to +inf: WeightedIndex::new returns Err(Overflow) (rand 0.10.3; "
                           "0.9 panics in Uniform::new, read from source)"
                         : "the float32 sum overflows to +inf: Uniform::new panics (not an Err)");
        sl_stat_exact_path_set(p, 1, 0);
        return 0;
    }
    if (st)
        return sl_base_error_set(err, st == SL_RAND_NOMEM ? SL_ENOMEM : SL_EINVAL, "%s: WeightedIndex::new: %s",
                                 in->source ? in->source : "weights", sl_draw_rand_status_name_v(st, version));
    uint64_t *K = malloc(V * sizeof *K);
    if (!K) {
        sl_draw_rand_wi_free(&wi);
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    }
    const uint32_t N = 1u << 23;
    uint32_t lo = 0;
    for (size_t j = 0; j + 1 < V; j++) {
        uint32_t a = lo, b = N;
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (wi_index(&wi, mid << 9) > j) /* the word whose u >> 9 is mid */
                b = mid;
            else
                a = mid + 1;
        }
        K[j] = a;
        lo = a;
    }
    K[V - 1] = N;
    sl_stat_exact_counts_from_cumulative(out, K);
    if (wi.scale != wi.total) {
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "subnormal_scale", -1,
            "subnormal total %.9g: rand 0.8.5 shrinks the uniform's scale to %.9g "
            "(counts above include it; rand 0.9 shrinks less)", (double)wi.total, (double)wi.scale);
        if (p)
            sl_stat_exact_path_set(p, 1, 0);
    } else if (V > 1 && wi.cum[V - 2] == wi.total) {
        /* the last weight is 0 (or absorbed): only a chosen value equal to the
         * total reaches it, which happens when v * scale rounds up (subnormal totals) */
        uint64_t hit = N - K[V - 2];
        if (hit) {
            sl_stat_exact_path *p = sl_stat_exact_path_add(out, "reaches_total", (long)(V - 1),
                "total %.9g: v*scale rounds up to the total for %llu of 2^23 uniforms, and no running sum "
                "exceeds it: rand 0.9+ returns the last index, %zu, whose weight adds nothing",
                (double)wi.total, (unsigned long long)hit, V - 1);
            if (p)
                sl_stat_exact_path_set(p, hit, 23);
        }
    }
    free(K);
    sl_draw_rand_wi_free(&wi);
    return 0;
}

static int wi_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    return wi_exact_count(in, out, 8, err);
}

static int wi9_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    return wi_exact_count(in, out, 9, err);
}

const sl_stat_exact_type sl_draw_rand_wi_exact = {
    .name = "candle",
    .summary = "rand 0.8.5 WeightedIndex<f32> (candle LogitsProcessor, 23-bit uniform)",
    .run = wi_exact_run,
    .input = SL_STAT_EXACT_CANDLE_F32,
};

const sl_stat_exact_type sl_draw_rand_wi9_exact = {
    .name = "candle",
    .summary = "rand 0.9 and 0.10 WeightedIndex<f32> (candle 0.11 LogitsProcessor, 23-bit uniform)",
    .run = wi9_exact_run,
    .input = SL_STAT_EXACT_CANDLE_F32,
};
