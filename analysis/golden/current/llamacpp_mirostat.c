/* llamacpp_mirostat.c — libllama 0.7.0's selecting samplers over 100-step
 * generations: mirostat (llama_sampler_init_mirostat(V, seed, tau, eta, 100)),
 * mirostat v2 (llama_sampler_init_mirostat_v2(seed, tau, eta)), each after
 * llama_sampler_init_temp(temp) as common_sampler_init builds them for
 * --mirostat 1|2, and adaptive_p (llama_sampler_init_adaptive_p(target,
 * decay, seed)) last in a chain, alone or after common's default stages.
 *
 * Each step is llama_sampler_sample's CPU path on given logits: the array
 * {id i, logit, 0}, llama_sampler_apply(chain), token = data[selected].id,
 * llama_sampler_accept(chain, token). Mirostat updates mu inside its apply,
 * right after its own draw; adaptive_p updates its moving average in accept.
 *
 * Logits of step t of a case: golden_gen's generator seeded vseed + t
 * (u * 20 - 10, a rare +12), times `scale`; ties=1 rounds them to whole
 * numbers (many ties); ninf=1 sets every 7th id to -inf.
 *
 * Records:
 *   case ID mode=m1|m2|ap V=.. seed=.. temp=.. tau=.. eta=.. target=..
 *        decay=.. scale=.. vseed=.. ties=0|1 ninf=0|1 chain=alone|default|temp
 *   tokens ID t...     (the drawn token of each step)
 *   n ID n...          (the candidate count the selecting sampler left)
 * Usage: llamacpp_mirostat > OUT.txt */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llama.h>

#define GG_NO_SAMPLAB   /* its generator only: no samplab header beside the real library */
#include "golden_gen.h" /* tests/golden_gen.h, copied beside it by llamacpp_golden.sh */

#ifndef LLAMA_PKG_VERSION
#define LLAMA_PKG_VERSION "unknown"
#endif

extern int LLAMA_BUILD_NUMBER;

#define STEPS 100

typedef struct {
    const char *mode; /* m1, m2, ap */
    long V;
    uint32_t seed;
    float temp, tau, eta, target, decay, scale;
    uint64_t vseed;
    int ties, ninf;
    const char *chain; /* ap: alone (only adaptive_p), default (common's default stages), temp */
} mcase;

static void quiet(enum ggml_log_level level, const char *text, void *ud)
{
    (void)ud;
    if (level >= GGML_LOG_LEVEL_ERROR)
        fputs(text, stderr);
}

static void fill(const mcase *c, int t, float *x)
{
    gg_fill_logits(c->vseed + (uint64_t)t, (size_t)c->V, x);
    for (long i = 0; i < c->V; i++) {
        x[i] *= c->scale;
        if (c->ties)
            x[i] = roundf(x[i]);
        if (c->ninf && i % 7 == 3)
            x[i] = -INFINITY;
    }
}

static struct llama_sampler *build(const mcase *c)
{
    struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
    if (!strcmp(c->mode, "m1") || !strcmp(c->mode, "m2")) {
        llama_sampler_chain_add(ch, llama_sampler_init_temp(c->temp));
        if (c->mode[1] == '1')
            llama_sampler_chain_add(ch, llama_sampler_init_mirostat((int32_t)c->V, c->seed, c->tau, c->eta, 100));
        else
            llama_sampler_chain_add(ch, llama_sampler_init_mirostat_v2(c->seed, c->tau, c->eta));
        return ch;
    }
    if (!strcmp(c->chain, "default")) { /* common_params_sampling's defaults, in common's default order */
        llama_sampler_chain_add(ch, llama_sampler_init_top_k(40));
        llama_sampler_chain_add(ch, llama_sampler_init_typical(1.0f, 0));
        llama_sampler_chain_add(ch, llama_sampler_init_top_p(0.95f, 0));
        llama_sampler_chain_add(ch, llama_sampler_init_min_p(0.05f, 0));
        llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(c->temp, 0.0f, 1.0f));
    } else if (!strcmp(c->chain, "temp")) {
        llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(c->temp, 0.0f, 1.0f));
    }
    llama_sampler_chain_add(ch, llama_sampler_init_adaptive_p(c->target, c->decay, c->seed));
    return ch;
}

static void run(int id, const mcase *c, float *x, llama_token_data *buf)
{
    printf("case %d mode=%s V=%ld seed=%u temp=%.9g tau=%.9g eta=%.9g target=%.9g decay=%.9g scale=%.9g "
           "vseed=%llu ties=%d ninf=%d chain=%s\n",
           id, c->mode, c->V, c->seed, (double)c->temp, (double)c->tau, (double)c->eta, (double)c->target,
           (double)c->decay, (double)c->scale, (unsigned long long)c->vseed, c->ties, c->ninf, c->chain);
    struct llama_sampler *ch = build(c);
    long tok[STEPS];
    size_t n[STEPS];
    for (int t = 0; t < STEPS; t++) {
        fill(c, t, x);
        for (long i = 0; i < c->V; i++)
            buf[i] = (llama_token_data){(llama_token)i, x[i], 0.0f};
        llama_token_data_array a = {buf, (size_t)c->V, -1, false};
        llama_sampler_apply(ch, &a);
        tok[t] = buf[a.selected].id;
        n[t] = a.size;
        llama_sampler_accept(ch, (llama_token)tok[t]);
    }
    printf("tokens %d", id);
    for (int t = 0; t < STEPS; t++)
        printf(" %ld", tok[t]);
    printf("\nn %d", id);
    for (int t = 0; t < STEPS; t++)
        printf(" %zu", n[t]);
    printf("\n");
    llama_sampler_free(ch);
}

int main(void)
{
    static const long Vs[] = {1, 2, 5, 100, 1000, 32000, 151936};
    static const uint32_t seeds[] = {0, 42, 1234567, 4294967294u};
    static const float taus[] = {5.0f, 3.0f, 0.5f, 8.0f, 0.0f};
    static const float etas[] = {0.1f, 0.5f, 1.0f, 0.0f};
    static const float targets[] = {-1.0f, 0.5f, 0.1f, 0.9f, 0.0f, 1.0f, 1.5f};
    static const float decays[] = {0.9f, 0.0f, 0.5f, 0.99f, 1.0f, -0.5f};
    static const float temps[] = {0.8f, 1.0f, 1.5f, 0.0f, -1.0f};
    static const float scales[] = {1.0f, 0.3f, 2.0f};
    static const char *const chains[] = {"alone", "default", "temp"};
    long vmax = 151936;
    float *x = malloc((size_t)vmax * sizeof *x);
    llama_token_data *buf = malloc((size_t)vmax * sizeof *buf);
    if (!x || !buf)
        return 1;
    llama_log_set(quiet, NULL);
    printf("# llamacpp_mirostat: libllama %s (build %d), llama_sampler_apply + accept per step, %d steps\n",
           LLAMA_PKG_VERSION, LLAMA_BUILD_NUMBER, STEPS);
    int id = 0;
    uint64_t k = 0; /* walks the parameter lists together, so every value meets several others */
    for (int mi = 0; mi < 3; mi++) {
        const char *mode = mi == 0 ? "m1" : mi == 1 ? "m2" : "ap";
        for (size_t vi = 0; vi < sizeof Vs / sizeof *Vs; vi++) {
            int reps = Vs[vi] >= 32000 ? 3 : 8;
            for (int r = 0; r < reps; r++, k++) {
                mcase c = {mode, Vs[vi], seeds[k % 4], temps[k % 5], taus[(k / 2) % 5], etas[(k / 3) % 4],
                           targets[k % 7], decays[(k / 2) % 6], scales[(k / 5) % 3], 1000 + 17 * k,
                           (int)((k / 3) % 3 == 1), (int)(k % 4 == 2), chains[(k / 4) % 3]};
                if (mi < 2)
                    c.chain = "-";
                if (r == 0) { /* common's defaults: temp 0.8, tau 5, eta 0.1, target -1 / 0.5, decay 0.9 */
                    c.temp = 0.8f, c.tau = 5.0f, c.eta = 0.1f, c.target = mi == 2 ? 0.5f : -1.0f, c.decay = 0.9f;
                    c.scale = 1.0f, c.ties = 0, c.ninf = 0, c.chain = mi == 2 ? "default" : "-";
                }
                run(id++, &c, x, buf);
            }
        }
    }
    free(x);
    free(buf);
    return 0;
}
