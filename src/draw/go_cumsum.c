/* go_cumsum.c — the draw of Ollama's Go sampler (sample/samplers.go
 * Sampler.sample, v0.6.3 to v0.25.0-rc0): r = rng.Float32() (Go's
 * math/rand/v2: ((w >> 32) & 0xFFFFFF) / 2^24, one 64-bit word), the float32
 * running sum of the probabilities in array order, r *= the last sum (float32),
 * then slices.BinarySearchFunc with a comparison that never answers 0: the
 * lower bound, the first index whose running sum is >= r. dist->f holds the
 * probabilities in the array order Ollama's transforms leave (logits/ollama.c);
 * draw returns an array index. The NaN-sum error is the framework's
 * (framework/ollama.c): Ollama draws its word first. */
#include <stdlib.h>

#include "draw/sl_draw.h"

typedef struct go_cumsum_table {
    size_t n;
    float cum[];
} go_cumsum_table;

static int go_cumsum_prepare(void **table, const sl_draw_dist *p, const void *param, sl_error *err)
{
    (void)param;
    const char *src = p->source ? p->source : "probs";
    if (!p->f || p->V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: Ollama's draw takes a non-empty float32 vector", src);
    go_cumsum_table *t = malloc(sizeof *t + p->V * sizeof *t->cum);
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu running sums", src, p->V);
    float s = 0.0f;
    for (size_t i = 0; i < p->V; i++)
        t->cum[i] = s += p->f[i];
    t->n = p->V;
    *table = t;
    return SL_OK;
}

static size_t go_cumsum_draw(const void *table, sl_rng *rng)
{
    const go_cumsum_table *t = table;
    float r = sl_rng_uniform_f32_hi32_low24(rng) * t->cum[t->n - 1];
    size_t i = sl_draw_search_ge_f32(t->cum, t->n, (double)r);
    return i < t->n ? i : t->n - 1; /* a NaN total; the caller refuses it */
}

static void go_cumsum_free(void *table)
{
    free(table);
}

/* A source whose one word is u << 32: Float32 gives u / 2^24. */
static uint64_t grid_next(void *state)
{
    return *(const uint64_t *)state << 32;
}

static const sl_rng_type grid_type = {.name = "exact-go-float32", .word_bits = 64, .state_size = sizeof(uint64_t),
                                      .next = grid_next};

size_t sl_draw_go_cumsum_pick(const void *table, uint32_t u)
{
    uint64_t st = u;
    sl_rng r = {.type = &grid_type, .state = &st, .words = 0};
    return go_cumsum_draw(table, &r);
}

void sl_draw_go_cumsum_counts(const void *table, uint64_t *below)
{
    const go_cumsum_table *t = table;
    uint64_t a = 0;
    for (size_t j = 0; j < t->n; j++) { /* the first u whose pick is past j (2^24: none) */
        uint64_t lo = a, hi = (uint64_t)1 << 24;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (sl_draw_go_cumsum_pick(table, (uint32_t)mid) > j)
                hi = mid;
            else
                lo = mid + 1;
        }
        below[j] = a = lo;
    }
}

const sl_draw_type sl_draw_go_cumsum_type = {
    .name = "go-cumsum",
    .cost = "per distribution: a float32 running sum (V adds); per draw: one 64-bit word, a binary search",
    .prepare = go_cumsum_prepare,
    .draw = go_cumsum_draw,
    .free = go_cumsum_free,
};
