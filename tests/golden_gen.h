/* golden_gen.h — the generators analysis/golden/rand_golden and the llama.cpp golden
 * programs use to make their test vectors (SplitMix64, then floats in [-10, 10) with a
 * rare +12), and the FNV-1a hashes they print, so a test regenerates the same vectors
 * instead of reading them. */
#ifndef SL_TEST_GOLDEN_GEN_H
#define SL_TEST_GOLDEN_GEN_H

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GG_NO_SAMPLAB /* a golden program built beside the real library defines it */
#include "logits/sl_logits.h"
#endif

static inline uint64_t gg_smix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline float gg_unit(uint64_t *s)
{
    return (float)(uint32_t)(gg_smix(s) >> 40) * (1.0f / 16777216.0f);
}

static inline uint64_t gg_fnv_words(const uint32_t *w, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (w[i] >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ULL;
        }
    return h;
}

static inline uint32_t gg_fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float gg_bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint64_t gg_fnv_floats(const float *x, size_t n)
{
    uint32_t *w = malloc((n ? n : 1) * sizeof *w);
    for (size_t i = 0; i < n; i++)
        w[i] = gg_fbits(x[i]);
    uint64_t h = gg_fnv_words(w, n);
    free(w);
    return h;
}

/* n logits from seed: u * 20 - 10, plus 12 for one in a thousand */
static inline void gg_fill_logits(uint64_t seed, size_t n, float *x)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        float u = gg_unit(&s);
        x[i] = u * 20.0f - 10.0f;
        if (gg_smix(&s) % 1000 == 0)
            x[i] = x[i] + 12.0f;
    }
}

static inline float *gg_logits(uint64_t seed, size_t n)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    if (x)
        gg_fill_logits(seed, n, x);
    return x;
}

static inline int gg_long_cmp(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* kept_hash of llamacpp_probe.h: the k ids (sorted here, in place) as "k:fnv1a64 of int32 little-endian" */
static inline void gg_kept_text(long *ids, size_t k, char *out, size_t cap)
{
    qsort(ids, k, sizeof *ids, gg_long_cmp);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < k; i++)
        for (int b = 0; b < 4; b++) {
            h ^= ((uint32_t)ids[i] >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    snprintf(out, cap, "%zu:%016" PRIx64, k, h);
}

#ifndef GG_NO_SAMPLAB
/* The same over a chain's candidates d[0..n): the ids above -inf; 0 when out of memory. */
static inline int gg_kept_of_cands(const sl_logits_cand *d, size_t n, char *out, size_t cap)
{
    long *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids)
        return 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (d[i].logit != -INFINITY)
            ids[k++] = d[i].id;
    gg_kept_text(ids, k, out, cap);
    free(ids);
    return 1;
}
#endif

#endif
