/* ollama.c — the transforms of Ollama's own Go sampler, v0.6.3 to v0.25.0-rc0
 * (sample/transforms.go blob 3f677553, sample/samplers.go blob eb179928 at
 * v0.24.0 = commit c28ddc0a; read with Go 1.27.3's standard library), bit for bit:
 *   Sampler.sample: temperature 0 is greedy (the first maximum, no draw);
 *   else topK (k <= 0 or k >= V: slices.SortFunc descending, Go's pdqsort;
 *   otherwise a container/heap min-heap of the first k, each later value
 *   strictly above the root replacing it, popped into descending order),
 *   temperature (value / max(T, 1e-7) in float32), softmax (float32 max, then
 *   float32(math.Exp(float64(v - max))) with the float32 sum, then v / sum),
 *   topP (p == 1 keeps all; else through the first i whose float32 running sum
 *   exceeds p), minP (up to the first value below ts[0] * p).
 * The draw that follows (float32 cumulative sum, Float32 times the total, the
 * lower bound) is draw/go_cumsum.c. math.Exp is Go's amd64 assembly
 * (src/math/exp_amd64.s, Shibata's method), its AVX+FMA path by default, the
 * SSE2 one on request; arm64's exp is another algorithm (not modelled).
 * Tie order: pdqsort and the heap are not stable, so equal values come out in
 * the order those two algorithms leave them, reproduced here step for step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

/* ---- Go's math.Exp on amd64 (exp_amd64.s) */

#define GO_LOG2E 1.4426950408889634073599246810018920
#define GO_LN2U 0.69314718055966295651160180568695068359375
#define GO_LN2L 0.28235290563031577122588448175013436025525412068e-12
#define GO_EXP_OVERFLOW 7.09782712893384e+02

static double go_pow2_bits(uint64_t e)
{
    uint64_t b = e << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

double sl_logits_go_exp(double x, int fma_path)
{
    static const double c[] = {1.9841269841269841270e-4, 1.3888888888888888889e-3, 8.3333333333333333333e-3,
                               4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0};
    if (isnan(x) || x == INFINITY)
        return x;
    if (x == -INFINITY)
        return 0.0;
    if (x > GO_EXP_OVERFLOW)
        return INFINITY;
    double t = GO_LOG2E * x;
    /* CVTSD2SL: round to nearest even; out of int32 range gives 0x80000000 */
    int32_t bx = t >= -2147483648.0 && t < 2147483647.5 ? (int32_t)nearbyint(t) : INT32_MIN;
    double k = (double)bx, y, p = 2.4801587301587301587e-5;
    if (fma_path) {
        x = fma(-k, GO_LN2U, x);
        x = fma(-k, GO_LN2L, x);
        x *= 0.0625;
        for (size_t i = 0; i < sizeof c / sizeof *c; i++)
            p = fma(x, p, c[i]);
        y = x * p;
        for (int i = 0; i < 3; i++)
            y = y * (y + 2.0);
        y = fma(y + 2.0, y, 1.0);
    } else {
        x -= k * GO_LN2U;
        x -= k * GO_LN2L;
        x *= 0.0625;
        for (size_t i = 0; i < sizeof c / sizeof *c; i++)
            p = p * x + c[i];
        y = x * p;
        for (int i = 0; i < 4; i++)
            y = y * (2.0 + y);
        y += 1.0;
    }
    /* ldexp: the 32-bit exponent register plus the bias */
    int64_t e = (int64_t)bx + 0x3FF;
    if (e >= 0x7FF)
        return INFINITY;
    if (e <= 0) { /* denormal */
        if (e < -52)
            return 0.0;
        y *= go_pow2_bits((uint64_t)(uint32_t)(e + 0x3FE));
        e = 1;
    }
    return y * go_pow2_bits((uint64_t)e);
}

/* ---- slices.SortFunc (src/slices/zsortanyfunc.go pdqsortCmpFunc) with Ollama's
 * cmp: a before b when a.value > b.value; NaN compares equal to everything. */

typedef sl_logits_go_tok tok;

static int go_less(const tok *a, const tok *b) /* cmp(a, b) < 0 */
{
    return a->value > b->value;
}

static void go_swap(tok *d, size_t i, size_t j)
{
    tok t = d[i];
    d[i] = d[j];
    d[j] = t;
}

static void go_insertion(tok *d, size_t a, size_t b)
{
    for (size_t i = a + 1; i < b; i++)
        for (size_t j = i; j > a && go_less(&d[j], &d[j - 1]); j--)
            go_swap(d, j, j - 1);
}

static void go_sift_down(tok *d, size_t lo, size_t hi, size_t first)
{
    size_t root = lo;
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= hi)
            return;
        if (child + 1 < hi && go_less(&d[first + child], &d[first + child + 1]))
            child++;
        if (!go_less(&d[first + root], &d[first + child]))
            return;
        go_swap(d, first + root, first + child);
        root = child;
    }
}

static void go_heapsort(tok *d, size_t a, size_t b)
{
    size_t first = a, hi = b - a;
    for (size_t i = (hi - 1) / 2 + 1; i-- > 0;)
        go_sift_down(d, i, hi, first);
    for (size_t i = hi; i-- > 0;) {
        go_swap(d, first, first + i);
        go_sift_down(d, 0, i, first);
    }
}

static unsigned go_bits_len(uint64_t x)
{
    unsigned n = 0;
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
}

static void go_break_patterns(tok *d, size_t a, size_t b)
{
    size_t length = b - a;
    if (length < 8)
        return;
    uint64_t random = length, modulus = (uint64_t)1 << go_bits_len(length);
    for (size_t idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; idx++) {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        size_t other = (size_t)(random & (modulus - 1));
        if (other >= length)
            other -= length;
        go_swap(d, idx, a + other);
    }
}

enum { GO_UNKNOWN_HINT, GO_INCREASING_HINT, GO_DECREASING_HINT };

static void go_order2(const tok *d, size_t *a, size_t *b, int *swaps)
{
    if (go_less(&d[*b], &d[*a])) {
        ++*swaps;
        size_t t = *a;
        *a = *b;
        *b = t;
    }
}

static size_t go_median(const tok *d, size_t a, size_t b, size_t c, int *swaps)
{
    go_order2(d, &a, &b, swaps);
    go_order2(d, &b, &c, swaps);
    go_order2(d, &a, &b, swaps);
    return b;
}

static size_t go_choose_pivot(const tok *d, size_t a, size_t b, int *hint)
{
    size_t l = b - a, i = a + l / 4 * 1, j = a + l / 4 * 2, k = a + l / 4 * 3;
    int swaps = 0;
    if (l >= 8) {
        if (l >= 50) {
            i = go_median(d, i - 1, i, i + 1, &swaps);
            j = go_median(d, j - 1, j, j + 1, &swaps);
            k = go_median(d, k - 1, k, k + 1, &swaps);
        }
        j = go_median(d, i, j, k, &swaps);
    }
    *hint = swaps == 0 ? GO_INCREASING_HINT : swaps == 12 ? GO_DECREASING_HINT : GO_UNKNOWN_HINT;
    return j;
}

static int go_partial_insertion(tok *d, size_t a, size_t b)
{
    size_t i = a + 1;
    for (int step = 0; step < 5; step++) {
        while (i < b && !go_less(&d[i], &d[i - 1]))
            i++;
        if (i == b)
            return 1;
        if (b - a < 50)
            return 0;
        go_swap(d, i, i - 1);
        if (i - a >= 2)
            for (size_t j = i - 1; j >= 1; j--) {
                if (!go_less(&d[j], &d[j - 1]))
                    break;
                go_swap(d, j, j - 1);
            }
        if (b - i >= 2)
            for (size_t j = i + 1; j < b; j++) {
                if (!go_less(&d[j], &d[j - 1]))
                    break;
                go_swap(d, j, j - 1);
            }
    }
    return 0;
}

/* i and j as Go's ints: j can step to a (one below the remaining range). */
static size_t go_partition(tok *d, size_t a, size_t b, size_t pivot, int *already)
{
    go_swap(d, a, pivot);
    long i = (long)a + 1, j = (long)b - 1;
    while (i <= j && go_less(&d[i], &d[a]))
        i++;
    while (i <= j && !go_less(&d[j], &d[a]))
        j--;
    if (i > j) {
        go_swap(d, (size_t)j, a);
        *already = 1;
        return (size_t)j;
    }
    go_swap(d, (size_t)i, (size_t)j);
    i++;
    j--;
    for (;;) {
        while (i <= j && go_less(&d[i], &d[a]))
            i++;
        while (i <= j && !go_less(&d[j], &d[a]))
            j--;
        if (i > j)
            break;
        go_swap(d, (size_t)i, (size_t)j);
        i++;
        j--;
    }
    go_swap(d, (size_t)j, a);
    *already = 0;
    return (size_t)j;
}

static size_t go_partition_equal(tok *d, size_t a, size_t b, size_t pivot)
{
    go_swap(d, a, pivot);
    long i = (long)a + 1, j = (long)b - 1;
    for (;;) {
        while (i <= j && !go_less(&d[a], &d[i]))
            i++;
        while (i <= j && go_less(&d[a], &d[j]))
            j--;
        if (i > j)
            break;
        go_swap(d, (size_t)i, (size_t)j);
        i++;
        j--;
    }
    return (size_t)i;
}

static void go_pdqsort(tok *d, size_t a, size_t b, unsigned limit)
{
    int balanced = 1, partitioned = 1;
    for (;;) {
        size_t length = b - a;
        if (length <= 12) {
            go_insertion(d, a, b);
            return;
        }
        if (limit == 0) {
            go_heapsort(d, a, b);
            return;
        }
        if (!balanced) {
            go_break_patterns(d, a, b);
            limit--;
        }
        int hint;
        size_t pivot = go_choose_pivot(d, a, b, &hint);
        if (hint == GO_DECREASING_HINT) {
            for (size_t i = a, j = b - 1; i < j; i++, j--)
                go_swap(d, i, j);
            pivot = (b - 1) - (pivot - a);
            hint = GO_INCREASING_HINT;
        }
        if (balanced && partitioned && hint == GO_INCREASING_HINT && go_partial_insertion(d, a, b))
            return;
        if (a > 0 && !go_less(&d[a - 1], &d[pivot])) {
            a = go_partition_equal(d, a, b, pivot);
            continue;
        }
        int already;
        size_t mid = go_partition(d, a, b, pivot, &already);
        partitioned = already;
        size_t left = mid - a, right = b - mid, threshold = length / 8;
        if (left < right) {
            balanced = left >= threshold;
            go_pdqsort(d, a, mid, limit);
            a = mid + 1;
        } else {
            balanced = right >= threshold;
            go_pdqsort(d, mid + 1, b, limit);
            b = mid;
        }
    }
}

void sl_logits_go_sort_desc(sl_logits_go_tok *t, size_t n)
{
    go_pdqsort(t, 0, n, go_bits_len(n));
}

/* ---- container/heap over tokenHeap (Less: h[i].value < h[j].value) */

static int heap_less(const tok *h, size_t i, size_t j)
{
    return h[i].value < h[j].value;
}

static void heap_up(tok *h, size_t j)
{
    while (j > 0) { /* i == j only at the root: (0 - 1) / 2 is 0 in Go */
        size_t i = (j - 1) / 2;
        if (!heap_less(h, j, i))
            break;
        go_swap(h, i, j);
        j = i;
    }
}

static void heap_down(tok *h, size_t i, size_t n)
{
    for (;;) {
        size_t j1 = 2 * i + 1;
        if (j1 >= n)
            return;
        size_t j = j1;
        if (j1 + 1 < n && heap_less(h, j1 + 1, j1))
            j = j1 + 1;
        if (!heap_less(h, j, i))
            return;
        go_swap(h, i, j);
        i = j;
    }
}

size_t sl_logits_ollama_topk(sl_logits_go_tok *ts, size_t n, long k, sl_logits_go_tok *heap)
{
    if (k <= 0 || (size_t)k >= n) {
        sl_logits_go_sort_desc(ts, n);
        return n;
    }
    size_t m = (size_t)k;
    memcpy(heap, ts, m * sizeof *heap);
    for (size_t i = m / 2; i-- > 0;) /* heap.Init */
        heap_down(heap, i, m);
    for (size_t i = m; i < n; i++)
        if (ts[i].value > heap[0].value) {
            /* heap.Pop then heap.Push: the root swapped with the last, sifted down
             * over m - 1, the last dropped; the new token appended and sifted up */
            go_swap(heap, 0, m - 1);
            heap_down(heap, 0, m - 1);
            heap[m - 1] = ts[i];
            heap_up(heap, m - 1);
        }
    for (size_t len = m; len > 0; len--) { /* result[i] = heap.Pop() for i = k-1 .. 0 */
        go_swap(heap, 0, len - 1);
        heap_down(heap, 0, len - 1);
        ts[len - 1] = heap[len - 1];
    }
    return m;
}

/* ---- the settings as NewSampler takes them */

void sl_logits_ollama_cfg_make(const sl_logits_cfg *c, int fma_path, sl_logits_ollama_cfg *o)
{
    /* the settings in force: DefaultOptions for those left out (ollama_defaults
     * below); Options hold float32s and an int */
    sl_logits_cfg r = *c;
    sl_logits_cfg_resolve(&sl_logits_pipeline_ollama_type, &r, NULL);
    o->temperature = (float)r.temperature;
    o->top_k = r.top_k;
    o->top_p = (float)r.top_p;
    o->min_p = (float)r.min_p;
    o->fma = fma_path;
    /* NewSampler's clamps */
    if (o->temperature < 0.0f)
        o->temperature = 0.0f;
    if (o->top_p < 0.0f)
        o->top_p = 0.0f;
    if (o->top_p >= 1.0f)
        o->top_p = 1.0f;
    if (o->min_p < 0.0f)
        o->min_p = 0.0f;
    if (o->min_p >= 1.0f)
        o->min_p = 1.0f;
}

int sl_logits_ollama_apply(const float *logits, size_t V, const sl_logits_ollama_cfg *cfg, sl_logits_go_tok *ts,
                           sl_logits_go_tok *heap, sl_logits_ollama_out *out)
{
    memset(out, 0, sizeof *out);
    if (V == 0)
        return SL_EINVAL;
    for (size_t i = 0; i < V; i++) {
        ts[i].id = (int32_t)i;
        ts[i].value = logits[i];
    }
    if (cfg->temperature == 0.0f) { /* greedy: the first maximum (NaN at 0 stays, later NaNs lose) */
        size_t best = 0;
        for (size_t i = 1; i < V; i++)
            if (ts[i].value > ts[best].value)
                best = i;
        out->greedy = 1;
        out->greedy_id = (long)best;
        return SL_OK;
    }
    size_t n = sl_logits_ollama_topk(ts, V, cfg->top_k, heap);
    /* temperature: max(temp, 1e-7) (Go's max: NaN if either is) */
    float t = isnan(cfg->temperature) ? cfg->temperature : cfg->temperature > 1e-7f ? cfg->temperature : 1e-7f;
    for (size_t i = 0; i < n; i++)
        ts[i].value = ts[i].value / t;
    float mx = -INFINITY, sum = 0.0f;
    for (size_t i = 0; i < n; i++)
        if (ts[i].value > mx)
            mx = ts[i].value;
    for (size_t i = 0; i < n; i++) {
        ts[i].value = (float)sl_logits_go_exp((double)(ts[i].value - mx), cfg->fma);
        sum += ts[i].value;
    }
    for (size_t i = 0; i < n; i++)
        ts[i].value /= sum;
    if (cfg->top_p != 1.0f) {
        float s = 0.0f;
        for (size_t i = 0; i < n; i++) {
            s += ts[i].value;
            if (s > cfg->top_p) {
                n = i + 1;
                break;
            }
        }
    }
    float threshold = ts[0].value * cfg->min_p;
    for (size_t i = 0; i < n; i++)
        if (ts[i].value < threshold) {
            n = i;
            break;
        }
    out->tok = ts;
    out->n = n;
    /* the float32 running total the draw scales by; NaN is Sample's error */
    float c = 0.0f;
    for (size_t i = 0; i < n; i++)
        c += ts[i].value;
    out->total = c;
    out->nan_sum = isnan(c);
    return SL_OK;
}

/* `samplab pipeline --framework ollama --ollama 0.24`: the distribution the draw
 * realises, p = value / the float32 total (the exact audit gives the 2^-24 grid's). */
static int ollama_run(const float *lf, const double *ld, size_t V, const sl_logits_cfg *cfg, sl_logits_result *out,
                      sl_error *err)
{
    (void)ld;
    if (V == 0)
        return sl_base_error_set(err, SL_EINVAL, "sample: no logits provided to sample");
    sl_logits_ollama_cfg oc;
    sl_logits_ollama_cfg_make(cfg, 1, &oc);
    tok *ts = malloc(V * sizeof *ts), *heap = malloc(V * sizeof *heap);
    int rc = SL_OK;
    if (!ts || !heap) {
        rc = sl_base_error_set(err, SL_ENOMEM, "ollama: out of memory for %zu logits", V);
        goto out;
    }
    sl_logits_ollama_out r;
    sl_logits_ollama_apply(lf, V, &oc, ts, heap, &r);
    if (!r.greedy && r.nan_sum) {
        rc = sl_base_error_set(err, SL_EINVAL, "sample: logits sum to NaN, check model output (Ollama's error)");
        goto out;
    }
    if ((rc = sl_logits_result_alloc(out, V, err)))
        goto out;
    out->precision = 32;
    if (r.greedy) {
        out->greedy = 1;
        out->greedy_id = (size_t)r.greedy_id;
        out->probs[r.greedy_id] = 1.0;
        out->kept[r.greedy_id] = 1;
        out->n_kept = 1;
        sl_logits_step(out, "greedy");
        goto out;
    }
    sl_logits_step(out, "top_k");
    sl_logits_step(out, "temperature");
    sl_logits_step(out, "softmax");
    sl_logits_step(out, "top_p");
    sl_logits_step(out, "min_p");
    for (size_t i = 0; i < r.n; i++) {
        out->probs[r.tok[i].id] = (double)r.tok[i].value / (double)r.total;
        out->kept[r.tok[i].id] = 1;
    }
    out->n_kept = r.n;
out:
    free(ts);
    free(heap);
    return rc;
}

/* api/types.go DefaultOptions (v0.24.0): what a request's options leave out.
 * Its repeat_penalty 1.1 and repeat_last_n 64 are left out here: the Go
 * sampler never applies them (ollama_note). */
static const sl_logits_default ollama_defaults[] = {
    {SL_KEY_TEMPERATURE, 0, 0.8, "Options.Temperature = 0.8", NULL, 0},
    {SL_KEY_TOP_K, 0, 40, "Options.TopK = 40", NULL, 0},
    {SL_KEY_TOP_P, 0, 0.9, "Options.TopP = 0.9", NULL, 0},
    {SL_KEY_MIN_P, 0, 0.0, "Options.MinP = 0.0", NULL, 0},
    {SL_KEY_COUNT, 0, 0, NULL, NULL, 0},
};

/* What Ollama 0.24 does with settings its Go sampler ignores or clamps. */
static const char *ollama_note(const sl_logits_cfg *c)
{
    if ((c->has_penalty && c->penalty != 1.0) || (c->has_freq && c->freq != 0) ||
        (c->has_presence && c->presence != 0) || c->has_last_n)
        return "ollama 0.24: repeat_penalty, repeat_last_n, presence_penalty and frequency_penalty are accepted by "
               "Ollama's API but never applied by its Go sampler (Ollama issue #15783): ignored, as Ollama ignored "
               "them";
    if (c->has_top_k && c->top_k < 0)
        return "ollama 0.24: top_k < 0 is taken as 0 by Ollama's topK (every token kept, all sorted)";
    if (c->has_temperature && c->temperature < 0)
        return "ollama 0.24: NewSampler turns a temperature below 0 into 0 (greedy)";
    if ((c->has_top_p && (c->top_p < 0 || c->top_p > 1)) || (c->has_min_p && (c->min_p < 0 || c->min_p > 1)))
        return "ollama 0.24: NewSampler clamps top_p and min_p into [0, 1]";
    return NULL;
}

const sl_logits_pipeline_type sl_logits_pipeline_ollama_type = {
    .name = "ollama",
    .summary = "Ollama 0.24's Go sampler: top-k (heap, or pdqsort of all), temperature, float32 softmax, top-p, "
               "min-p (sample/transforms.go); penalties are not applied",
    .accepts = SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_PENALTY | SL_OPT_LAST_N |
               SL_OPT_FREQ_PRESENCE | SL_OPT_OLLAMA_VERSION,
    .run = ollama_run,
    .traits = SL_LOGITS_TRAIT_OWN_DEFAULTS | SL_LOGITS_TRAIT_NEEDS_VARIANT,
    .defaults = ollama_defaults,
    .note = ollama_note,
};
