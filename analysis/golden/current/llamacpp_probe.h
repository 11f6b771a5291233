/* llamacpp_probe.h — shared by llamacpp_chain.c and llamacpp_generate.c: an
 * MT19937 reference stream, libstdc++'s uniform double, the probe that reads
 * the word position of a chain's dist sampler, and the splitmix64 logits
 * generator. Static functions only; include once per program. */
#ifndef LLAMACPP_PROBE_H
#define LLAMACPP_PROBE_H
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llama.h>

#define PROBE_V 65536
#define MAXW 4096

/* ------------------------------------------------------------ MT19937 */

typedef struct {
    uint32_t mt[624];
    int i;
} mt19937;

static void mt_seed(mt19937 *g, uint32_t s)
{
    g->mt[0] = s;
    for (int i = 1; i < 624; i++)
        g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + (uint32_t)i;
    g->i = 624;
}

static uint32_t mt_next(mt19937 *g)
{
    if (g->i >= 624) {
        for (int k = 0; k < 624; k++) {
            uint32_t y = (g->mt[k] & 0x80000000u) | (g->mt[(k + 1) % 624] & 0x7fffffffu);
            g->mt[k] = g->mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        g->i = 0;
    }
    uint32_t y = g->mt[g->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* libstdc++ generate_canonical<double, 53>(mt19937): two words, low first */
static double canon(uint32_t w1, uint32_t w2)
{
    double r = ((double)w1 + (double)w2 * 4294967296.0) / 18446744073709551616.0;
    return r >= 1.0 ? nextafter(1.0, 0.0) : r;
}

/* the dist sampler's pick over PROBE_V equal logits: first i with i+1 >= u*V */
static long probe_pick(double u)
{
    double t = u * (double)PROBE_V;
    long i = (long)ceil(t) - 1;
    return i < 0 ? 0 : i;
}

/* ------------------------------------------------------------ vectors */

static inline uint64_t sm_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void gen_logits(uint64_t seed, size_t n, float *x)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        float u = (float)(uint32_t)(sm_next(&s) >> 40) * (1.0f / 16777216.0f);
        float v = u * 20.0f - 10.0f;
        if (sm_next(&s) % 1000 == 0)
            v = v + 12.0f;
        x[i] = v;
    }
}

static uint64_t fnv_f32(const float *x, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &x[i], 4);
        for (int k = 0; k < 4; k++) {
            h ^= (b >> (8 * k)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    }
    return h;
}

/* ------------------------------------------------------------ probing */

static llama_token_data *probe_buf; /* PROBE_V entries, allocated by main */
static uint32_t refw[MAXW + 4];

static void probe_two(struct llama_sampler *dist, long *i1, long *i2)
{
    llama_token_data_array a;
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < PROBE_V; i++)
            probe_buf[i] = (llama_token_data){i, 0.0f, 0.0f};
        a = (llama_token_data_array){probe_buf, PROBE_V, -1, false};
        llama_sampler_apply(dist, &a);
        if (r == 0)
            *i1 = probe_buf[a.selected].id;
        else
            *i2 = probe_buf[a.selected].id;
    }
}

/* the word position of the chain's dist engine, searched from `from`; -1 if
 * no offset matches */
static long position(const struct llama_sampler *chain, int dist_idx, long from)
{
    struct llama_sampler *cl = llama_sampler_clone(chain);
    long i1 = -1, i2 = -1; /* gcc 12 cannot see that probe_two sets them */
    probe_two(llama_sampler_chain_get(cl, dist_idx), &i1, &i2);
    llama_sampler_free(cl);
    for (long k = from; k + 3 < MAXW; k++)
        if (probe_pick(canon(refw[k], refw[k + 1])) == i1 && probe_pick(canon(refw[k + 2], refw[k + 3])) == i2)
            return k;
    return -1;
}

static void ref_stream(uint32_t seed)
{
    mt19937 g;
    mt_seed(&g, seed);
    for (int i = 0; i < MAXW + 4; i++)
        refw[i] = mt_next(&g);
}

/* ------------------------------------------------------------ settings */

/* common_params_sampling's knobs that the chain below uses; order: the
 * stages as --samplers names them (canonical names, ';'-separated; "" none),
 * NULL for common_sampler_init's default list */
typedef struct {
    float temp;
    int top_k;
    float top_p, min_p, typical;
    int last_n;
    float repeat, freq, present;
    int min_keep;
    const char *order;
} cfg;

/* The chain common_sampler_init (0.7.0) builds for a user's --samplers list
 * without the stages samplab does not model: each name's constructor with
 * common_params_sampling's values, in order, then dist(seed) — or greedy when
 * the last stage is the temperature and temp <= 0, the rule llama-completion's
 * printed chains show (llamacpp_golden.sh quotes them). */
static struct llama_sampler *build_order_chain(const cfg *c, size_t V, uint32_t seed, int *dist_idx)
{
    struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
    const char *p = c->order;
    int last_temp = 0;
    while (*p) {
        size_t n = strcspn(p, ";");
        last_temp = 0;
        if (n == 9 && !strncmp(p, "penalties", n))
            llama_sampler_chain_add(ch, llama_sampler_init_penalties((int32_t)V, c->last_n, c->repeat, c->freq,
                                                                     c->present));
        else if (n == 5 && !strncmp(p, "top_k", n))
            llama_sampler_chain_add(ch, llama_sampler_init_top_k(c->top_k));
        else if (n == 5 && !strncmp(p, "typ_p", n))
            llama_sampler_chain_add(ch, llama_sampler_init_typical(c->typical, (size_t)c->min_keep));
        else if (n == 5 && !strncmp(p, "top_p", n))
            llama_sampler_chain_add(ch, llama_sampler_init_top_p(c->top_p, (size_t)c->min_keep));
        else if (n == 5 && !strncmp(p, "min_p", n))
            llama_sampler_chain_add(ch, llama_sampler_init_min_p(c->min_p, (size_t)c->min_keep));
        else if (n == 11 && !strncmp(p, "temperature", n)) {
            llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(c->temp, 0.0f, 1.0f));
            last_temp = 1;
        } else {
            fprintf(stderr, "unknown stage in order '%s'\n", c->order);
            exit(1);
        }
        p += n;
        if (*p == ';')
            p++;
    }
    if (last_temp && c->temp <= 0.0f) {
        llama_sampler_chain_add(ch, llama_sampler_init_greedy());
        *dist_idx = -1;
    } else {
        llama_sampler_chain_add(ch, llama_sampler_init_dist(seed));
        *dist_idx = llama_sampler_chain_n(ch) - 1;
    }
    return ch;
}

/* The candidates a chain kept: how many have a logit above -inf, and the
 * fnv1a64 of their ids (int32, little-endian) in ascending order. */
static int kept_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static uint64_t kept_hash(const llama_token_data_array *a, int *ids, size_t *nk)
{
    size_t n = 0;
    for (size_t i = 0; i < a->size; i++)
        if (a->data[i].logit != -INFINITY)
            ids[n++] = a->data[i].id;
    qsort(ids, n, sizeof *ids, kept_cmp);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++) {
            h ^= ((uint32_t)ids[i] >> (8 * k)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    *nk = n;
    return h;
}

static struct llama_sampler *build_chain(const cfg *c, size_t V, uint32_t seed, int *dist_idx)
{
    if (c->order)
        return build_order_chain(c, V, seed, dist_idx);
    struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
    llama_sampler_chain_add(ch, llama_sampler_init_penalties((int32_t)V, c->last_n, c->repeat, c->freq, c->present));
    llama_sampler_chain_add(ch, llama_sampler_init_top_n_sigma(-1.0f));
    llama_sampler_chain_add(ch, llama_sampler_init_top_k(c->top_k));
    llama_sampler_chain_add(ch, llama_sampler_init_typical(c->typical, (size_t)c->min_keep));
    llama_sampler_chain_add(ch, llama_sampler_init_top_p(c->top_p, (size_t)c->min_keep));
    llama_sampler_chain_add(ch, llama_sampler_init_min_p(c->min_p, (size_t)c->min_keep));
    llama_sampler_chain_add(ch, llama_sampler_init_xtc(0.0f, 0.10f, (size_t)c->min_keep, seed));
    llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(c->temp, 0.0f, 1.0f));
    if (c->temp > 0.0f) {
        llama_sampler_chain_add(ch, llama_sampler_init_dist(seed));
        *dist_idx = llama_sampler_chain_n(ch) - 1;
    } else {
        llama_sampler_chain_add(ch, llama_sampler_init_greedy());
        *dist_idx = -1;
    }
    return ch;
}

/* ------------------------------------------------------------ one case */

#endif
