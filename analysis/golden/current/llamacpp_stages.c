/* llamacpp_stages.c — libllama 0.7.0's xtc, top_n_sigma, temp_ext (dynamic
 * temperature) and logit_bias stages through its C API, no model.
 *
 * A case is a chain as common_sampler_init (0.7.0) builds it: logit_bias
 * first when biases are given, then the stages of the --samplers list
 * (penalties, top_n_sigma, top_k, typ_p, top_p, min_p, xtc, temperature =
 * temp_ext(temp, range, exp)) with the case's values, then dist(seed), or
 * greedy after a last temperature at temp <= 0. It runs STEPS steps: step s
 * applies the chain to gen_logits(vseed + s, V) (llamacpp_probe.h), reads
 * `selected` and accepts that token, as llama_sampler_sample does.
 * Records (one line a case):
 *   case ID V vseed seed steps order temp dyn dexp xp xt min_keep nsigma top_k top_p min_p bias
 *   tok t_1 ... t_STEPS
 *   kept n_1:h_1 ... (the kept set's size and fnv1a64, kept_hash)
 * and the XTC probes (see xtc_probe below):
 *   xtcprobe seed p t size1 first decisions...
 * Usage: stages > llamacpp_stages.txt */
#pragma GCC diagnostic ignored "-Wunused-function" /* the probe header serves several programs */
#include "llamacpp_probe.h"

typedef struct {
    size_t V;
    uint64_t vseed;
    uint32_t seed;
    int steps;
    const char *order;
    float temp, dyn, dexp, xp, xt, nsigma, top_p, min_p;
    int min_keep, top_k;
    const char *bias; /* "id:bias,id:bias" or "" */
} scase;

static struct llama_sampler *build(const scase *c)
{
    struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
    if (*c->bias) {
        llama_logit_bias lb[16];
        int n = 0;
        const char *p = c->bias;
        while (*p && n < 16) {
            char *e;
            lb[n].token = (llama_token)strtol(p, &e, 10);
            lb[n].bias = strtof(e + 1, &e);
            n++;
            p = *e == ',' ? e + 1 : e;
        }
        llama_sampler_chain_add(ch, llama_sampler_init_logit_bias((int32_t)c->V, n, lb));
    }
    const char *p = c->order;
    int last_temp = 0;
    while (*p) {
        size_t n = strcspn(p, ";");
        last_temp = 0;
        if (n == 9 && !strncmp(p, "penalties", n))
            llama_sampler_chain_add(ch, llama_sampler_init_penalties((int32_t)c->V, 64, 1.0f, 0.0f, 0.0f));
        else if (n == 11 && !strncmp(p, "top_n_sigma", n))
            llama_sampler_chain_add(ch, llama_sampler_init_top_n_sigma(c->nsigma));
        else if (n == 5 && !strncmp(p, "top_k", n))
            llama_sampler_chain_add(ch, llama_sampler_init_top_k(c->top_k));
        else if (n == 5 && !strncmp(p, "typ_p", n))
            llama_sampler_chain_add(ch, llama_sampler_init_typical(1.0f, (size_t)c->min_keep));
        else if (n == 5 && !strncmp(p, "top_p", n))
            llama_sampler_chain_add(ch, llama_sampler_init_top_p(c->top_p, (size_t)c->min_keep));
        else if (n == 5 && !strncmp(p, "min_p", n))
            llama_sampler_chain_add(ch, llama_sampler_init_min_p(c->min_p, (size_t)c->min_keep));
        else if (n == 3 && !strncmp(p, "xtc", n))
            llama_sampler_chain_add(ch, llama_sampler_init_xtc(c->xp, c->xt, (size_t)c->min_keep, c->seed));
        else if (n == 11 && !strncmp(p, "temperature", n)) {
            llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(c->temp, c->dyn, c->dexp));
            last_temp = 1;
        } else {
            fprintf(stderr, "unknown stage in '%s'\n", c->order);
            exit(1);
        }
        p += n;
        if (*p == ';')
            p++;
    }
    if (last_temp && c->temp <= 0.0f)
        llama_sampler_chain_add(ch, llama_sampler_init_greedy());
    else
        llama_sampler_chain_add(ch, llama_sampler_init_dist(c->seed));
    return ch;
}

static void run(int id, const scase *c, llama_token_data *buf, float *lg, int *ids)
{
    struct llama_sampler *ch = build(c);
    printf("case %d %zu %" PRIu64 " %" PRIu32 " %d %s %.9g %.9g %.9g %.9g %.9g %d %.9g %d %.9g %.9g %s\n", id, c->V,
           c->vseed, c->seed, c->steps, *c->order ? c->order : "-", c->temp, c->dyn, c->dexp, c->xp, c->xt,
           c->min_keep, c->nsigma, c->top_k, c->top_p, c->min_p, *c->bias ? c->bias : "-");
    char *kept = malloc((size_t)c->steps * 48);
    size_t ko = 0;
    printf("tok");
    for (int s = 0; s < c->steps; s++) {
        gen_logits(c->vseed + (uint64_t)s, c->V, lg);
        if (c->V > 7)
            lg[3] = -INFINITY, lg[5] = lg[4]; /* a -inf and a tie in every vector */
        for (size_t i = 0; i < c->V; i++)
            buf[i] = (llama_token_data){(llama_token)i, lg[i], 0.0f};
        llama_token_data_array a = {buf, c->V, -1, false};
        llama_sampler_apply(ch, &a);
        llama_token t = a.data[a.selected].id;
        size_t nk;
        uint64_t h = kept_hash(&a, ids, &nk);
        ko += (size_t)sprintf(kept + ko, " %zu:%016" PRIx64, nk, h);
        llama_sampler_accept(ch, t);
        printf(" %d", t);
    }
    printf("\nkept%s\n", kept);
    free(kept);
    llama_sampler_free(ch);
}

/* XTC's draws, read from its decisions: an xtc(p, t, seed) sampler alone is
 * applied first to an array of `size1` candidates (the branch in question),
 * then 64 times to a 3-candidate array {5, 4.9, 0}, where it removes the top
 * candidate exactly when its float draw is <= p; the decisions (1 removed)
 * show whether the first apply drew. `first` repeats the first apply. */
static void xtc_probe(uint32_t seed, float p, float t, int size1, int first)
{
    struct llama_sampler *x = llama_sampler_init_xtc(p, t, 0, seed);
    llama_token_data d[4];
    printf("xtcprobe %" PRIu32 " %.9g %.9g %d %d", seed, p, t, size1, first);
    for (int r = 0; r < first; r++) {
        for (int i = 0; i < size1; i++)
            d[i] = (llama_token_data){i, i ? -5.0f : 5.0f, 0.0f}; /* p[0] ~ 1: removes nothing */
        llama_token_data_array a = {d, (size_t)size1, -1, false};
        llama_sampler_apply(x, &a);
    }
    for (int r = 0; r < 64; r++) {
        d[0] = (llama_token_data){0, 5.0f, 0.0f};
        d[1] = (llama_token_data){1, 4.9f, 0.0f};
        d[2] = (llama_token_data){2, 0.0f, 0.0f};
        llama_token_data_array a = {d, 3, -1, false};
        llama_sampler_apply(x, &a);
        printf(" %d", a.data[0].id != 0);
    }
    printf("\n");
    llama_sampler_free(x);
}

/* XTC over a long stream: decisions of n applies to the 3-candidate array, as
 * a string of 0/1 from apply `from` on (for a seed whose stream holds a word
 * >= 0xFFFFFF80, where libstdc++'s float canonical is 1 before rounding). */
static void xtc_stream(uint32_t seed, float p, long from, long n)
{
    struct llama_sampler *x = llama_sampler_init_xtc(p, 0.1f, 0, seed);
    llama_token_data d[3];
    printf("xtcstream %" PRIu32 " %.9g %ld %ld ", seed, p, from, n);
    for (long r = 0; r < from + n; r++) {
        d[0] = (llama_token_data){0, 5.0f, 0.0f};
        d[1] = (llama_token_data){1, 4.9f, 0.0f};
        d[2] = (llama_token_data){2, 0.0f, 0.0f};
        llama_token_data_array a = {d, 3, -1, false};
        llama_sampler_apply(x, &a);
        if (r >= from)
            putchar(a.data[0].id != 0 ? '1' : '0');
    }
    printf("\n");
    llama_sampler_free(x);
}

int main(int argc, char **argv)
{
    printf("# llamacpp_stages: libllama %s\n", LLAMA_PKG_VERSION);
    const size_t Vs[] = {1, 2, 3, 8, 100, 1000, 32000, 151936};
    const size_t maxV = 151936;
    llama_token_data *buf = malloc(maxV * sizeof *buf);
    float *lg = malloc(maxV * sizeof *lg);
    int *ids = malloc(maxV * sizeof *ids);
    const char *def = "penalties;top_n_sigma;top_k;typ_p;top_p;min_p;xtc;temperature";
    const char *orders[] = {def, "xtc", "top_n_sigma", "temperature", "xtc;temperature", "top_n_sigma;xtc;temperature",
                            "temperature;xtc;top_n_sigma", ""};
    const float xps[] = {0.0f, 0.25f, 0.5f, 1.0f, 1.5f, -1.0f};
    const float xts[] = {0.1f, 0.0f, 0.05f, 0.3f, 0.5f, 0.51f};
    const float nss[] = {-1.0f, 0.0f, 0.5f, 1.0f, 2.0f};
    const float dyns[] = {0.0f, 0.5f, 2.0f};
    const float dexps[] = {1.0f, 0.5f, 2.0f};
    const float temps[] = {0.8f, 1.0f, 0.0f, 1.5f};
    const char *biases[] = {"", "0:2.5", "1:-inf,2:5,7:-1.5", "99999:3,4:inf", "-1:2,3:1"};
    int id = 0;
    int gen_steps = argc > 1 ? atoi(argv[1]) : 100;
    for (size_t o = 0; o < sizeof orders / sizeof *orders; o++)
        for (size_t v = 0; v < sizeof Vs / sizeof *Vs; v++)
            for (int k = 0; k < 6; k++) {
                scase c = {Vs[v], 1000u + 17u * (uint64_t)k + (uint64_t)v, 42u + (uint32_t)(k * 7919 + o * 131),
                           Vs[v] >= 32000 ? 3 : gen_steps, orders[o], temps[k % 4], dyns[(k + o) % 3],
                           dexps[(k / 2) % 3], xps[(k + v) % 6], xts[(k + o + v) % 6], nss[(k + v + o) % 5],
                           0.95f, 0.05f, k % 3, 40, biases[(k + v) % 5]};
                if (o != 0) /* the stage with the other filters off */
                    c.top_k = 0, c.top_p = 1.0f, c.min_p = 0.0f;
                run(id++, &c, buf, lg, ids);
            }
    /* XTC many seeds and probabilities over generations */
    for (int s = 0; s < 40; s++) {
        scase c = {1000, 7000u + (uint64_t)s, (uint32_t)(s * 2654435761u % 4294967295u), gen_steps,
                   "xtc;temperature", 1.0f, 0.0f, 1.0f, (float)(s % 5) * 0.25f, (float)(s % 4) * 0.04f, -1.0f,
                   1.0f, 0.0f, s % 2, 0, ""};
        run(id++, &c, buf, lg, ids);
    }
    for (int s = 0; s < 20; s++) { /* the default chain with xtc, dynatemp, top_n_sigma, a bias */
        scase c = {2000, 9000u + (uint64_t)s, (uint32_t)(s * 40503u + 1u), gen_steps, def, 0.8f, (float)(s % 3) * 0.4f,
                   1.0f + (float)(s % 2), 0.5f + (float)(s % 2) * 0.5f, 0.05f, (float)(s % 3), 40, 0.95f, 0.05f,
                   0, s % 2 ? "10:1.5,11:-inf" : ""};
        run(id++, &c, buf, lg, ids);
    }
    const int sizes[] = {0, 1, 2, 3};
    for (int s = 0; s < 4; s++) {
        xtc_probe(1234u + (uint32_t)s, 0.5f, 0.1f, sizes[s], 1);
        xtc_probe(99u + (uint32_t)s, 0.5f, 0.6f, 3, 1);   /* t > 0.5: ?xtc */
        xtc_probe(77u + (uint32_t)s, 0.0f, 0.1f, 3, 1);   /* p <= 0: ?xtc */
        xtc_probe(55u + (uint32_t)s, 0.5f + 0.25f * (float)(s % 3), 0.1f, 3, 5); /* 5 applies that remove nothing */
    }
    for (int i = 2; i + 2 < argc; i += 3)
        xtc_stream((uint32_t)atol(argv[i]), 0.5f, atol(argv[i + 1]), atol(argv[i + 2]));
    free(buf);
    free(lg);
    free(ids);
    return 0;
}
