/* rand_golden.h — what the tests of the Rust rand golden files (data/golden/rand_*.txt,
 * data/golden/current/rand_*_VERSION.txt, written by analysis/golden/rand_golden)
 * share: the generated vectors, the named vectors a file defines before it uses
 * them, the record's words, the StdRng of a seed and rand's error names.
 * Header-only, static. */
#ifndef TEST_RAND_GOLDEN_H
#define TEST_RAND_GOLDEN_H

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "golden_gen.h"
#include "samplab.h"

/* The generated vectors of rand_wi.txt (rand_golden's gen_vector). */
static inline float *rg_gen_vector(const char *name, size_t n)
{
    float *w = malloc((n ? n : 1) * sizeof *w);
    if (!strcmp(name, "zipf49152") || !strcmp(name, "zipf49152perm")) {
        for (size_t i = 0; i < n; i++)
            w[i] = (float)(1.0 / ((double)i + 1.0));
        if (!strcmp(name, "zipf49152perm")) {
            float *z = w;
            w = malloc((n ? n : 1) * sizeof *w);
            for (size_t i = 0; i < n; i++)
                w[i] = z[(i * 40507) % n];
            free(z);
        }
    } else if (!strcmp(name, "ones49152")) {
        for (size_t i = 0; i < n; i++)
            w[i] = 1.0f;
    } else if (!strncmp(name, "softmax49152_", 13)) {
        float *lg = gg_logits(2024, n);
        double t = strstr(name, "_T1_") ? 1.0 : strstr(name, "_T08_") ? 0.8 : 1.3;
        sl_logits_candle_softmax(lg, n, t, strstr(name, "simd") != NULL, w);
        free(lg);
    } else {
        cr_assert_fail("unknown generated vector %s", name);
    }
    return w;
}

/* Named vectors defined earlier in a golden file (vec/gen/logits/genlogits). */
typedef struct rg_named {
    char name[64];
    float *x;
    size_t n;
} rg_named;

typedef struct rg_book {
    rg_named *v;
    size_t n, cap;
} rg_book;

/* Takes x; a name defined again replaces the vector. */
static inline rg_named *rg_put(rg_book *b, const char *name, float *x, size_t n)
{
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->v[i].name, name)) {
            free(b->v[i].x);
            b->v[i].x = x;
            b->v[i].n = n;
            return &b->v[i];
        }
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->v = realloc(b->v, b->cap * sizeof *b->v);
    }
    snprintf(b->v[b->n].name, sizeof b->v[b->n].name, "%s", name);
    b->v[b->n].x = x;
    b->v[b->n].n = n;
    return &b->v[b->n++];
}

static inline rg_named *rg_get(rg_book *b, const char *name)
{
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->v[i].name, name))
            return &b->v[i];
    cr_assert_fail("vector %s used before it is defined", name);
    return NULL;
}

static inline void rg_free(rg_book *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->v[i].x);
    free(b->v);
    memset(b, 0, sizeof *b);
}

/* n float32 values as hex bits, from *p on. */
static inline float *rg_hex_floats(char **p, size_t n)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = gg_bitsf((uint32_t)strtoul(*p, p, 16));
    return x;
}

/* The next space-separated word of a record (cut in place). */
static inline char *rg_tok(char **p)
{
    while (**p == ' ')
        (*p)++;
    char *s = *p;
    while (**p && **p != ' ')
        (*p)++;
    if (**p)
        *(*p)++ = '\0';
    return s;
}

/* StdRng::seed_from_u64(seed). */
static inline sl_rng rg_stdrng(uint64_t seed)
{
    sl_rng r;
    sl_error err;
    sl_seed sd = {.lo = seed};
    cr_assert_eq(sl_rng_init(&r, &sl_rng_rand_stdrng_type, &sd, &err), 0, "%s", err.msg);
    return r;
}

/* A status in rand 0.8's words ("panic" for the range-overflow panic); rand >= 0.9
 * spells the same cases InvalidInput, InvalidWeight, InsufficientNonZero and Overflow. */
static inline const char *rg_status(sl_draw_rand_status st)
{
    switch (st) {
    case SL_RAND_OK: return "ok";
    case SL_RAND_NO_ITEM: return "NoItem";
    case SL_RAND_INVALID_WEIGHT: return "InvalidWeight";
    case SL_RAND_ALL_WEIGHTS_ZERO: return "AllWeightsZero";
    case SL_RAND_PANIC_RANGE: return "panic";
    default: return "other";
    }
}

#endif
