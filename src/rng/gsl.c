/* gsl.c — any GSL generator as a samplab random source: "gsl:NAME" with NAME
 * as gsl_rng_types_setup() lists it (gsl:mt19937, gsl:taus2, gsl:ranlxd2, ...).
 * One adapter for all, after GSL's own gsl_rng_type table. A word is one
 * gsl_rng_get() minus the generator's minimum, so word values start at 0;
 * word_bits is floor(log2(max - min + 1)). Seeding is gsl_rng_set(r, seed mod 2^64),
 * so GSL's own rules apply (mt19937 replaces seed 0 by 4357). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* gsl_rng_get as GSL's inline (one indirect call per word, not two) */
#define HAVE_INLINE 1
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>

#include "rng/sl_rng.h"

typedef struct gsl_state {
    gsl_rng *r;
    unsigned long min;
} gsl_state;

static int gsl_adapter_seed(void *state, const sl_seed *seed, const void *param, sl_error *err)
{
    gsl_state *s = state;
    const gsl_rng_type *t = param;
    if (seed->hi)
        return sl_base_error_set(err, SL_EINVAL, "gsl:%s takes a seed below 2^64", t->name);
    if (seed->has_stream && seed->stream)
        return sl_base_error_set(err, SL_EINVAL, "gsl:%s has no streams (gsl_rng_set takes a seed only)", t->name);
    sl_base_gsl_quiet();
    s->r = gsl_rng_alloc(t);
    if (!s->r)
        return sl_base_error_set(err, SL_ENOMEM, "gsl:%s: gsl_rng_alloc failed", t->name);
    gsl_rng_set(s->r, (unsigned long)seed->lo);
    s->min = gsl_rng_min(s->r);
    return SL_OK;
}

static uint64_t gsl_adapter_next(void *state)
{
    gsl_state *s = state;
    return (uint64_t)(gsl_rng_get(s->r) - s->min);
}

static void gsl_adapter_fill(void *state, uint64_t *out, size_t n)
{
    gsl_state *s = state;
    for (size_t i = 0; i < n; i++)
        out[i] = (uint64_t)(gsl_rng_get(s->r) - s->min);
}

static void gsl_adapter_release(void *state)
{
    gsl_state *s = state;
    gsl_rng_free(s->r);
    s->r = NULL;
}

/* GSL 2.7's gsl_rng_types_setup lists 62 generators; the table is static so
 * that a lookup cannot fail for want of memory (a name past the capacity is
 * not found, which tests/test_rng_gsl.c would catch for every listed name). */
#define GSL_TYPES_MAX 128
static sl_rng_type gsl_table[GSL_TYPES_MAX];
static char gsl_names[GSL_TYPES_MAX][64];
static size_t gsl_count;
static pthread_once_t gsl_once = PTHREAD_ONCE_INIT;

static void gsl_table_build(void)
{
    const gsl_rng_type **all = gsl_rng_types_setup();
    size_t n = 0;
    while (all[n] && n < GSL_TYPES_MAX)
        n++;
    for (size_t i = 0; i < n; i++) {
        unsigned long range = all[i]->max - all[i]->min; /* + 1, without overflow */
        /* floor(log2(range + 1)): the bits of range, one fewer unless range is all ones */
        unsigned bits = range ? 64u - (unsigned)__builtin_clzl(range) : 0u;
        if ((range & (range + 1ul)) != 0)
            bits--;
        snprintf(gsl_names[i], sizeof gsl_names[i], "gsl:%s", all[i]->name);
        gsl_table[i] = (sl_rng_type){
            .name = gsl_names[i],
            .word_bits = bits,
            .state_size = sizeof(gsl_state),
            .seed = gsl_adapter_seed,
            .next = gsl_adapter_next,
            .fill = gsl_adapter_fill,
            .release = gsl_adapter_release,
            .param = all[i],
        };
    }
    gsl_count = n;
}

const sl_rng_type *sl_rng_gsl_lookup(const char *gsl_name)
{
    pthread_once(&gsl_once, gsl_table_build);
    for (size_t i = 0; i < gsl_count; i++)
        if (!strcmp(gsl_table[i].name + 4, gsl_name))
            return &gsl_table[i];
    return NULL;
}

/* The words of a GSL source span [0, range]; the generic uniform needs it. */
double sl_rng_gsl_range(const sl_rng_type *t)
{
    const gsl_rng_type *g = t->param;
    return (double)(g->max - g->min) + 1.0;
}
