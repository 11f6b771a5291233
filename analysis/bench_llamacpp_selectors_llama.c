/* bench_llamacpp_selectors_llama.c — libllama's own time for the work
 * bench_llamacpp_selectors.c times in samplab: llama_sampler_apply of
 * temp(0.8) then llama_sampler_init_mirostat(V, 5, 5, 0.1, 100), of temp(0.8)
 * then llama_sampler_init_mirostat_v2(5, 5, 0.1), and of
 * llama_sampler_init_adaptive_p(0.3, 0.9, 5) alone, on the candidates {i,
 * logit, 0} of the same logits, 100 steps, each selected token accepted. Only
 * the apply is timed (the candidate array is filled before). With a vocabulary
 * (argv[1], loaded vocab_only) also common_sampler_init's default chain with DRY
 * (0.8, base 1.75, allowed 2, last_n 64, its four default breakers) and XTC (0.5,
 * 0.1) on, seed 5. Built in the chroot by analysis/bench_llamacpp_selectors.sh.
 * Prints: MODE median-ms-per-step token-sum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llama.h>

#define GG_NO_SAMPLAB
#include "golden_gen.h" /* tests/golden_gen.h, copied beside it */

#define V 151936
#define STEPS 100

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: a machine shared with other work takes the core away mid-step */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void quiet(enum ggml_log_level level, const char *text, void *user)
{
    (void)level, (void)text, (void)user;
}

/* common_sampler_init's default order (0.7.0), DRY and XTC on */
static struct llama_sampler *whole_chain(const struct llama_vocab *vocab)
{
    static const char *const breakers[4] = {"\n", ":", "\"", "*"}; /* common_params_sampling's defaults */
    struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
    llama_sampler_chain_add(ch, llama_sampler_init_penalties(V, 64, 1.0f, 0.0f, 0.0f));
    llama_sampler_chain_add(ch, llama_sampler_init_dry(vocab, 0.8f, 1.75f, 2, 64, (const char **)breakers, 4));
    llama_sampler_chain_add(ch, llama_sampler_init_top_n_sigma(-1.0f));
    llama_sampler_chain_add(ch, llama_sampler_init_top_k(40));
    llama_sampler_chain_add(ch, llama_sampler_init_typical(1.0f, 0));
    llama_sampler_chain_add(ch, llama_sampler_init_top_p(0.95f, 0));
    llama_sampler_chain_add(ch, llama_sampler_init_min_p(0.05f, 0));
    llama_sampler_chain_add(ch, llama_sampler_init_xtc(0.5f, 0.1f, 0, 5));
    llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(0.8f, 0.0f, 1.0f));
    llama_sampler_chain_add(ch, llama_sampler_init_dist(5));
    return ch;
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"mirostat", "mirostat_v2", "adaptive_p", "chain_dry_xtc"};
    struct llama_model *model = NULL;
    llama_log_set(quiet, NULL); /* the vocabulary's loader prints pages of metadata */
    if (argc > 1) {
        struct llama_model_params mp = llama_model_default_params();
        mp.vocab_only = true;
        if (!(model = llama_model_load_from_file(argv[1], mp)))
            return 1;
    }
    float *x = malloc(V * sizeof *x);
    llama_token_data *d = malloc(V * sizeof *d);
    if (!x || !d)
        return 1;
    for (int m = 0; m < (model ? 4 : 3); m++) {
        if (argc > 2 && strcmp(argv[2], modes[m])) /* one mode alone, for a profile */
            continue;
        struct llama_sampler *ch = m == 3 ? whole_chain(llama_model_get_vocab(model))
                                          : llama_sampler_chain_init(llama_sampler_chain_default_params());
        if (m < 2)
            llama_sampler_chain_add(ch, llama_sampler_init_temp(0.8f));
        if (m < 3)
            llama_sampler_chain_add(ch, m == 0   ? llama_sampler_init_mirostat(V, 5, 5.0f, 0.1f, 100)
                                        : m == 1 ? llama_sampler_init_mirostat_v2(5, 5.0f, 0.1f)
                                                 : llama_sampler_init_adaptive_p(0.3f, 0.9f, 5));
        double ms[STEPS];
        long sum = 0;
        for (int t = 0; t < STEPS; t++) {
            gg_fill_logits(1000 + (uint64_t)t, V, x);
            for (size_t i = 0; i < V; i++) {
                d[i].id = (llama_token)i;
                d[i].logit = x[i];
                d[i].p = 0.0f;
            }
            llama_token_data_array a = {d, V, -1, false};
            double t0 = now_s();
            llama_sampler_apply(ch, &a);
            ms[t] = (now_s() - t0) * 1e3;
            sum += a.data[a.selected].id; /* XTC moves a.data forward past what it removes */
            llama_sampler_accept(ch, a.data[a.selected].id);
        }
        llama_sampler_free(ch);
        qsort(ms, STEPS, sizeof *ms, cmp_d); /* the median step: a step the scheduler took the core from is an outlier */
        printf("%s %.3f %ld\n", modes[m], (ms[STEPS / 2 - 1] + ms[STEPS / 2]) / 2, sum);
    }
    if (model)
        llama_model_free(model);
    free(x);
    free(d);
    return 0;
}
