/* validate_sampler.c — validate a hand-written token sampler the way an engine's
 * contributor would: draw 100,000 tokens from it, hand the counts to samplab's
 * goodness-of-fit test, print the verdict. A deliberately broken copy (its
 * cumulative sum skips the last token) must be rejected.
 *
 *   cc validate_sampler.c $(pkg-config --cflags --libs samplab) -o validate_sampler
 *
 * Exit 0 when the right sampler passes and the broken one fails. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <samplab.h>

#define V 8
#define N 100000

/* the sampler under test's own generator (xorshift64*), as an engine has its own */
static uint64_t state = 0x9e3779b97f4a7c15u;
static double uniform01(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (double)((state * 0x2545f4914f6cdd1du) >> 11) * 0x1.0p-53;
}

/* softmax, then an inverse-CDF draw: the sampler as written */
static int sample(const float *logits, int n, float temp)
{
    double p[V], sum = 0, max = logits[0];
    for (int i = 1; i < n; i++)
        max = logits[i] > max ? logits[i] : max;
    for (int i = 0; i < n; i++)
        sum += p[i] = exp((logits[i] - max) / temp);
    double u = uniform01() * sum, c = 0;
    for (int i = 0; i < n; i++)
        if (u < (c += p[i]))
            return i;
    return n - 1;
}

/* the same with a bug seen in the wild: the loop stops one short and the
 * fallback returns token 0, so the last token is never drawn */
static int sample_broken(const float *logits, int n, float temp)
{
    double p[V], sum = 0, max = logits[0];
    for (int i = 1; i < n; i++)
        max = logits[i] > max ? logits[i] : max;
    for (int i = 0; i < n; i++)
        sum += p[i] = exp((logits[i] - max) / temp);
    double u = uniform01() * sum, c = 0;
    for (int i = 0; i < n - 1; i++)
        if (u < (c += p[i]))
            return i;
    return 0;
}

static int validate(const char *name, int (*fn)(const float *, int, float), const float *logits, float temp)
{
    /* the claim: softmax(logits / T), computed by samplab (its stable softmax, float64) */
    double x[V], probs[V];
    for (int i = 0; i < V; i++)
        x[i] = logits[i];
    sl_error err;
    if (sl_logits_softmax(x, V, temp, probs, &err)) {
        fprintf(stderr, "softmax: %s\n", err.msg);
        return -1;
    }
    uint64_t counts[V] = {0};
    for (int i = 0; i < N; i++)
        counts[fn(logits, V, temp)]++;
    sl_stat_gof_test t;
    if (sl_stat_gof_test_run(probs, counts, V, 0.01, &t, &err)) {
        fprintf(stderr, "gof: %s\n", err.msg);
        return -1;
    }
    printf("%-14s %s  chi2 = %.2f (df %ld), p = %.3g, TV = %.4f\n  rule: %s\n", name, t.fail ? "FAIL" : "PASS",
           t.g.chi2, t.g.df, t.g.chi2_p, t.g.tv, t.rule);
    return t.fail;
}

int main(void)
{
    /* data/weather.txt: the 8-token example */
    const float logits[V] = {5.0f, 4.3f, 3.9f, 2.2f, 1.4f, 0.7f, -0.1f, -1.2f};
    printf("samplab %s: %d draws from each sampler, softmax at T = 0.8\n", sl_api_version(), N);
    int good = validate("sample", sample, logits, 0.8f);
    int bad = validate("sample_broken", sample_broken, logits, 0.8f);
    if (good == 0 && bad == 1) {
        printf("ok: the sampler is consistent with its distribution, the broken copy is rejected\n");
        return 0;
    }
    printf("unexpected verdicts\n");
    return 1;
}
