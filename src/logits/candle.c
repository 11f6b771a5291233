/* candle.c — candle 0.11 LogitsProcessor's logits -> weights path, emulated:
 * candle-transformers src/generation/mod.rs (sample_f, sample_argmax,
 * sample_topp, sample_topk, sample_topk_topp), candle-core tensor division
 * by f64 (affine), cpu_backend argmax (ReduceIndex, first maximum),
 * candle-nn ops.rs softmax_last_dim (CPU), candle-core cpu/mod.rs vec_sum and
 * cpu/avx.rs, and candle-transformers utils.rs apply_repeat_penalty.
 * The top-k order is Rust std's select_nth_unstable_by as of rustc 1.95
 * (library/core/src/slice/select.rs, sort/shared/pivot.rs,
 * sort/shared/smallsort.rs, sort/unstable/quicksort.rs: ipnsort's
 * introselect by L. Bergdoll and O. Peters; fallback median of medians with
 * Tukey's ninther, Alexandrescu, "Fast Deterministic Selection", SEA 2017).
 * Known divergences: the softmax is bit-exact only with the same expf as
 * candle's (glibc's here) and the sum order candle was built with (--simd-sum
 * for AVX builds; NEON/wasm orders are not emulated). Other rustc versions may
 * leave another top-k order: only the set of k tokens is fixed, and the order
 * for k = V-1 (a swap) and for V <= 10 (a stable insertion sort; 1.95 sorts
 * up to 16, older versions up to 10). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

/* ---------------------------------------------------------------- configuration */

int sl_logits_candle_cfg_make(int has_t, double t, int has_k, long k, int has_p, double p, int simd_sum,
                              sl_logits_candle_cfg *cfg, sl_error *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->simd_sum = simd_sum;
    if (has_k && k < 0)
        return sl_base_error_set(err, SL_EINVAL, "top-k %ld is negative (candle's k is a usize)", k);
    /* A NaN T or p flows on as in candle: T = NaN is not < 1e-7, so All with
     * NaN weights (InvalidWeight at the draw); p = NaN zeroes nothing. */
    /* LogitsProcessor::new: temperature None or < 1e-7 -> ArgMax */
    if (!has_t || t < 1e-7) {
        cfg->sampling = SL_CANDLE_ARGMAX;
        return SL_OK;
    }
    cfg->temperature = t;
    cfg->k = has_k ? (size_t)k : 0;
    cfg->p = has_p ? p : 0;
    if (has_k && has_p)
        cfg->sampling = SL_CANDLE_TOPK_TOPP;
    else if (has_k)
        cfg->sampling = SL_CANDLE_TOPK;
    else if (has_p)
        cfg->sampling = SL_CANDLE_TOPP;
    else
        cfg->sampling = SL_CANDLE_ALL;
    return SL_OK;
}


/* ---------------------------------------------------------------- softmax */

float sl_logits_candle_sum_simd(const float *x, size_t n)
{
    size_t np = n & ~(size_t)31;
    float a[4][8] = {{0}};
    for (size_t i = 0; i < np; i += 32)
        for (int j = 0; j < 4; j++)
            for (int l = 0; l < 8; l++)
                a[j][l] += x[i + 8 * (size_t)j + (size_t)l];
    float r[8];
    for (int l = 0; l < 8; l++)
        r[l] = (a[0][l] + a[1][l]) + (a[2][l] + a[3][l]);
    /* _mm_add_ps(low, high), then _mm_hadd_ps twice: (t0+t1) + (t2+t3) */
    float t0 = r[0] + r[4], t1 = r[1] + r[5], t2 = r[2] + r[6], t3 = r[3] + r[7];
    float b = (t0 + t1) + (t2 + t3);
    for (size_t i = np; i < n; i++)
        b += x[i];
    return b;
}

void sl_logits_candle_softmax(const float *logits, size_t V, double temperature, int simd_sum, float *out)
{
    if (V == 0)
        return;
    const float mul = (float)(1.0 / temperature), add = 0.0f;
    for (size_t i = 0; i < V; i++)
        out[i] = logits[i] * mul + add;
    float mx = out[0];
    for (size_t i = 1; i < V; i++) /* f32::max: a NaN operand yields the other */
        if (isnan(mx) || out[i] > mx)
            mx = isnan(out[i]) ? mx : out[i];
    for (size_t i = 0; i < V; i++)
        out[i] = expf(out[i] - mx);
    float sum;
    if (simd_sum) {
        sum = sl_logits_candle_sum_simd(out, V);
    } else {
        sum = 0.0f;
        for (size_t i = 0; i < V; i++)
            sum += out[i];
    }
    for (size_t i = 0; i < V; i++)
        out[i] /= sum;
}

int sl_logits_candle_check(const float *logits, size_t V, sl_error *err)
{
    float mx = -INFINITY;
    for (size_t i = 0; i < V; i++) {
        if (isnan(logits[i]) || logits[i] == INFINITY)
            return sl_base_error_set(err, SL_EINVAL, "logit %zu is %s", i, isnan(logits[i]) ? "NaN" : "+infinite");
        mx = fmaxf(mx, logits[i]);
    }
    if (mx == -INFINITY)
        return sl_base_error_set(err, SL_EINVAL, "all %zu logits are -infinite", V);
    return SL_OK;
}

/* ---------------------------------------------------------------- total_cmp keys */

/* f32::total_cmp orders by this signed key: negative numbers have their
 * magnitude bits flipped, so -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN. */
static int32_t total_key(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    int32_t k = (int32_t)u;
    return k ^ (int32_t)((uint32_t)(k >> 31) >> 1);
}

/* ---------------------------------------------------------------- select_nth_unstable_by */

/* is_less(a, b) for |&i, &j| prs[j].total_cmp(&prs[i]): a goes first when its
 * probability is larger. `le` selects the `|a, b| !is_less(b, a)` variant
 * that partition_at_index_loop uses after an equal ancestor pivot. */
typedef struct sel_ctx {
    const int32_t *key;
} sel_ctx;

#define LESS(c, a, b) ((c)->key[(a)] > (c)->key[(b)])

static void swap_sz(size_t *v, size_t i, size_t j)
{
    size_t t = v[i];
    v[i] = v[j];
    v[j] = t;
}

static void insertion_sort_shift_left(const sel_ctx *c, size_t *v, size_t len, size_t offset)
{
    for (size_t i = offset; i < len; i++) {
        /* insert_tail(v[..=i]) */
        size_t tmp = v[i];
        if (!LESS(c, tmp, v[i - 1]))
            continue;
        size_t gap = i - 1;
        v[i] = v[i - 1];
        while (gap > 0 && LESS(c, tmp, v[gap - 1])) {
            v[gap] = v[gap - 1];
            gap--;
        }
        v[gap] = tmp;
    }
}

static size_t min_index(const sel_ctx *c, const size_t *v, size_t len)
{
    size_t acc = 0;
    for (size_t i = 1; i < len; i++)
        if (LESS(c, v[i], v[acc]))
            acc = i;
    return acc;
}

static size_t max_index(const sel_ctx *c, const size_t *v, size_t len)
{
    size_t acc = 0;
    for (size_t i = 1; i < len; i++)
        if (LESS(c, v[acc], v[i]))
            acc = i;
    return acc;
}

/* quicksort::partition with partition_lomuto_branchless_cyclic (element
 * size 8 <= 96 bytes): the pivot goes to v[0], the rest is scanned left to
 * right with a gap that cycles, the saved first element last. */
static size_t partition(const sel_ctx *c, size_t *v, size_t len, size_t pivot, int le)
{
    swap_sz(v, 0, pivot);
    const size_t pv = v[0];
    size_t *w = v + 1, wl = len - 1, num_lt = 0;
    if (wl > 0) {
        const size_t saved = w[0];
        size_t gap = 0;
        for (size_t r = 1; r <= wl; r++) {
            size_t t = r < wl ? w[r] : saved;
            int lt = le ? !LESS(c, pv, t) : LESS(c, t, pv);
            w[gap] = w[num_lt];
            w[num_lt] = t;
            gap = r;
            num_lt += (size_t)lt;
        }
    }
    swap_sz(v, 0, num_lt);
    return num_lt;
}

static size_t median3(const sel_ctx *c, const size_t *v, size_t a, size_t b, size_t cc)
{
    int x = LESS(c, v[a], v[b]);
    int y = LESS(c, v[a], v[cc]);
    if (x == y) {
        int z = LESS(c, v[b], v[cc]);
        return (z ^ x) ? cc : b;
    }
    return a;
}

static size_t median3_rec(const sel_ctx *c, const size_t *v, size_t a, size_t b, size_t cc, size_t n)
{
    if (n * 8 >= 64) {
        size_t n8 = n / 8;
        a = median3_rec(c, v, a, a + n8 * 4, a + n8 * 7, n8);
        b = median3_rec(c, v, b, b + n8 * 4, b + n8 * 7, n8);
        cc = median3_rec(c, v, cc, cc + n8 * 4, cc + n8 * 7, n8);
    }
    return median3(c, v, a, b, cc);
}

static size_t choose_pivot(const sel_ctx *c, const size_t *v, size_t len)
{
    size_t d8 = len / 8;
    if (len < 64)
        return median3(c, v, 0, d8 * 4, d8 * 7);
    return median3_rec(c, v, 0, d8 * 4, d8 * 7, d8);
}

static size_t median_idx(const sel_ctx *c, const size_t *v, size_t a, size_t b, size_t cc)
{
    if (LESS(c, v[cc], v[a])) {
        size_t t = a;
        a = cc;
        cc = t;
    }
    if (LESS(c, v[cc], v[b]))
        return cc;
    if (LESS(c, v[b], v[a]))
        return a;
    return b;
}

static void ninther(const sel_ctx *c, size_t *v, size_t a, size_t b, size_t cc, size_t d, size_t e, size_t f,
                    size_t g, size_t h, size_t i)
{
    b = median_idx(c, v, a, b, cc);
    h = median_idx(c, v, g, h, i);
    if (LESS(c, v[h], v[b])) {
        size_t t = b;
        b = h;
        h = t;
    }
    if (LESS(c, v[f], v[d])) {
        size_t t = d;
        d = f;
        f = t;
    }
    if (LESS(c, v[e], v[d])) {
        /* do nothing */
    } else if (LESS(c, v[f], v[e])) {
        d = f;
    } else {
        if (LESS(c, v[e], v[b]))
            swap_sz(v, e, b);
        else if (LESS(c, v[h], v[e]))
            swap_sz(v, e, h);
        return;
    }
    if (LESS(c, v[d], v[b]))
        d = b;
    else if (LESS(c, v[h], v[d]))
        d = h;
    swap_sz(v, d, e);
}

static void median_of_medians(const sel_ctx *c, size_t *v, size_t len, size_t k);

static size_t median_of_ninthers(const sel_ctx *c, size_t *v, size_t len)
{
    size_t frac = len <= 1024 ? len / 12 : len <= 128 * 1024 ? len / 64 : len / 1024;
    size_t pivot = frac / 2;
    size_t lo = len / 2 - pivot;
    size_t hi = frac + lo;
    size_t gap = (len - 9 * frac) / 4;
    size_t a = lo - 4 * frac - gap;
    size_t b = hi + gap;
    for (size_t i = lo; i < hi; i++) {
        ninther(c, v, a, i - frac, b, a + 1, i, b + 1, a + 2, i + frac, b + 2);
        a += 3;
        b += 3;
    }
    median_of_medians(c, v + lo, frac, pivot);
    return partition(c, v, len, lo + pivot, 0);
}

static void median_of_medians(const sel_ctx *c, size_t *v, size_t len, size_t k)
{
    for (;;) {
        if (len <= 16) {
            if (len >= 2)
                insertion_sort_shift_left(c, v, len, 1);
            return;
        }
        if (k == len - 1) {
            swap_sz(v, max_index(c, v, len), k);
            return;
        } else if (k == 0) {
            swap_sz(v, min_index(c, v, len), k);
            return;
        }
        size_t p = median_of_ninthers(c, v, len);
        if (p == k)
            return;
        else if (p > k)
            len = p;
        else {
            v += p + 1;
            len -= p + 1;
            k -= p + 1;
        }
    }
}

static void partition_at_index_loop(const sel_ctx *c, size_t *v, size_t len, size_t index)
{
    int limit = 16, has_anc = 0;
    size_t anc = 0;
    for (;;) {
        if (len <= 16) {
            if (len >= 2)
                insertion_sort_shift_left(c, v, len, 1);
            return;
        }
        if (limit == 0) {
            median_of_medians(c, v, len, index);
            return;
        }
        limit--;
        size_t pivot_pos = choose_pivot(c, v, len);
        if (has_anc && !LESS(c, anc, v[pivot_pos])) {
            size_t mid = partition(c, v, len, pivot_pos, 1) + 1;
            if (mid > index)
                return;
            v += mid;
            len -= mid;
            index -= mid;
            has_anc = 0;
            continue;
        }
        size_t mid = partition(c, v, len, pivot_pos, 0);
        if (mid < index) {
            anc = v[mid];
            has_anc = 1;
            v += mid + 1;
            len -= mid + 1;
            index -= mid + 1;
        } else if (mid > index) {
            len = mid;
        } else {
            return;
        }
    }
}

static void select_nth_keys(size_t *idx, size_t V, size_t k, const int32_t *key)
{
    sel_ctx c = {key};
    if (k >= V)
        return;
    if (k == V - 1)
        swap_sz(idx, max_index(&c, idx, V), k);
    else if (k == 0)
        swap_sz(idx, min_index(&c, idx, V), k);
    else
        partition_at_index_loop(&c, idx, V, k);
}

int sl_logits_candle_select_nth(size_t *idx, size_t V, size_t k, const float *prs, sl_error *err)
{
    /* keys indexed by token id; idx holds token ids < V */
    int32_t *key = malloc((V ? V : 1) * sizeof *key);
    if (!key)
        return sl_base_error_set(err, SL_ENOMEM, "candle: select_nth: out of memory for %zu keys", V);
    for (size_t i = 0; i < V; i++)
        key[i] = total_key(prs[i]);
    select_nth_keys(idx, V, k, key);
    free(key);
    return SL_OK;
}

/* ---------------------------------------------------------------- top-p */

typedef struct keyed {
    int32_t key;
    uint32_t pad;
    size_t i;
} keyed;

static int keyed_desc(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i; /* stable: the earlier index first */
}

int sl_logits_candle_topp_zero(float *prs, size_t n, float p, sl_error *err)
{
    if (n == 0)
        return SL_OK;
    keyed *ks = malloc(n * sizeof *ks);
    if (!ks)
        return sl_base_error_set(err, SL_ENOMEM, "candle: top-p: out of memory for %zu tokens", n);
    for (size_t i = 0; i < n; i++) {
        ks[i].key = total_key(prs[i]);
        ks[i].pad = 0;
        ks[i].i = i;
    }
    /* sort_by is stable and total_cmp is a total order, so the result is unique */
    qsort(ks, n, sizeof *ks, keyed_desc);
    float cumsum = 0.0f;
    for (size_t r = 0; r < n; r++) {
        size_t i = ks[r].i;
        if (cumsum >= p)
            prs[i] = 0.0f;
        else
            cumsum += prs[i];
    }
    free(ks);
    return SL_OK;
}

/* ---------------------------------------------------------------- repeat penalty */

int sl_logits_candle_repeat_penalty(float *logits, size_t V, float penalty, const long *context, size_t n,
                                    long *n_changed, sl_error *err)
{
    unsigned char *seen = calloc(V ? V : 1, 1);
    if (!seen)
        return sl_base_error_set(err, SL_ENOMEM, "candle: repeat penalty: out of memory for %zu ids", V);
    long changed = 0;
    for (size_t i = 0; i < n; i++) {
        long t = context[i];
        if (t < 0 || (unsigned long)t >= V || seen[t])
            continue;
        seen[t] = 1;
        if (logits[t] >= 0.0f)
            logits[t] /= penalty;
        else
            logits[t] *= penalty;
        changed++;
    }
    free(seen);
    if (n_changed)
        *n_changed = changed;
    return SL_OK;
}

/* ---------------------------------------------------------------- one step */

static size_t candle_argmax(const float *x, size_t V)
{
    size_t acc = 0;
    float val = x[0];
    for (size_t i = 0; i < V; i++)
        if (val < x[i]) {
            acc = i;
            val = x[i];
        }
    return acc;
}

int sl_logits_candle_process(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, float *weights,
                             size_t *order, size_t *m, sl_error *err)
{
    *m = 0;
    if (V == 0)
        return SL_OK; /* nothing to draw from: WeightedIndex reports NoItem */
    if (cfg->sampling == SL_CANDLE_ARGMAX) {
        weights[0] = 1.0f;
        order[0] = candle_argmax(logits, V);
        *m = 1;
        return SL_OK;
    }
    sl_logits_candle_softmax(logits, V, cfg->temperature, cfg->simd_sum, weights);
    int topk = cfg->sampling == SL_CANDLE_TOPK || cfg->sampling == SL_CANDLE_TOPK_TOPP;
    if (!topk || cfg->k >= V) {
        for (size_t i = 0; i < V; i++)
            order[i] = i;
        *m = V;
        if (cfg->sampling == SL_CANDLE_TOPP && !(cfg->p <= 0.0 || cfg->p >= 1.0))
            return sl_logits_candle_topp_zero(weights, V, (float)cfg->p, err);
        if (cfg->sampling == SL_CANDLE_TOPK_TOPP) /* k >= V: sample_topp, p unchecked */
            return sl_logits_candle_topp_zero(weights, V, (float)cfg->p, err);
        return SL_OK;
    }
    /* top-k: select the k most probable in std's partition order */
    int32_t *key = malloc(V * sizeof *key);
    float *sub = malloc((cfg->k ? cfg->k : 1) * sizeof *sub);
    if (!key || !sub) {
        free(key);
        free(sub);
        return sl_base_error_set(err, SL_ENOMEM, "candle: top-k: out of memory for %zu tokens", V);
    }
    for (size_t i = 0; i < V; i++) {
        key[i] = total_key(weights[i]);
        order[i] = i;
    }
    select_nth_keys(order, V, cfg->k, key);
    free(key);
    size_t k = cfg->k;
    for (size_t i = 0; i < k; i++)
        sub[i] = weights[order[i]];
    memcpy(weights, sub, k * sizeof *sub);
    free(sub);
    *m = k;
    if (cfg->sampling == SL_CANDLE_TOPK_TOPP) {
        float pf = (float)cfg->p, sum_p = -0.0f; /* Sum for f32 folds from -0.0 */
        for (size_t i = 0; i < k; i++)
            sum_p += weights[i];
        if (!(pf <= 0.0f || pf >= sum_p))
            return sl_logits_candle_topp_zero(weights, k, pf, err);
    }
    return SL_OK;
}

int sl_logits_candle_probs(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, double *p, sl_error *err)
{
    float *w = malloc((V ? V : 1) * sizeof *w);
    size_t *order = malloc((V ? V : 1) * sizeof *order), m = 0;
    int rc = SL_OK;
    if (!w || !order) {
        rc = sl_base_error_set(err, SL_ENOMEM, "candle: out of memory for %zu logits", V);
        goto out;
    }
    if ((rc = sl_logits_candle_process(logits, V, cfg, w, order, &m, err)))
        goto out;
    for (size_t i = 0; i < V; i++)
        p[i] = 0.0;
    sl_draw_rand_wi wi;
    size_t bad;
    sl_draw_rand_status st = cfg->sampling == SL_CANDLE_ARGMAX ? SL_RAND_OK : sl_draw_rand_wi_new(&wi, w, m, 8, &bad);
    if (st) {
        rc = sl_base_error_set(err, st == SL_RAND_NOMEM ? SL_ENOMEM : SL_EINVAL, "candle would fail: %s",
                          sl_draw_rand_status_name(st));
        goto out;
    }
    if (cfg->sampling == SL_CANDLE_ARGMAX) {
        p[order[0]] = 1.0;
    } else {
        for (size_t i = 0; i < m; i++)
            p[order[i]] = (double)w[i] / (double)wi.total;
        sl_draw_rand_wi_free(&wi);
    }
out:
    free(w);
    free(order);
    return rc;
}
