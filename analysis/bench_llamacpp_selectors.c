/* bench_llamacpp_selectors.c — the time of one step of samplab's llama.cpp
 * selecting samplers at V = 151,936: a llamacpp session (sl_fw_session_step:
 * the candidate array built from the logits, the chain, the stage's own cut and
 * draw) over 100-step generations, each drawn token accepted, for mirostat
 * (temp 0.8, tau 5, eta 0.1), mirostat v2 (the same) and adaptive_p alone
 * (target 0.3, decay 0.9), seed 5, the logits of step t golden_gen's vector
 * seeded 1000 + t. With a vocabulary (argv[1], ggml-vocab-qwen2.gguf: 151,936
 * tokens) also the whole default chain with DRY and XTC on (penalties, dry with
 * multiplier 0.8 and llama.cpp's default breakers, top_n_sigma, top_k 40, typical,
 * top_p 0.95, min_p 0.05, xtc 0.5 / 0.1, temperature 0.8, dist), its settings
 * given as the command line gives them (api/: the breakers resolved against the
 * vocabulary once, before the steps). bench_llamacpp_selectors_llama.c times
 * llama_sampler_apply on the same candidates; analysis/bench_llamacpp_selectors.sh
 * runs both. Prints: MODE median-ms-per-step token-sum (the sums must agree).
 * argv[2], when given, runs that mode alone (for a profile: valgrind --tool=callgrind). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/sl_api.h"
#include "golden_gen.h"
#include "samplab.h"

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

/* the whole chain's settings, as `samplab draw --framework llamacpp` reads them */
static int chain_opts(const char *vocab, sl_fw_opts *o, sl_error *err)
{
    static const char *const kv[][2] = {{"framework", "llamacpp"}, {"dry_multiplier", "0.8"},
                                        {"xtc_probability", "0.5"}, {"xtc_threshold", "0.1"}, {"seed", "5"}};
    sl_api_settings *s = sl_api_settings_new("draw"); /* the options as draw takes them */
    int rc = s ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "bench: out of memory");
    for (size_t i = 0; !rc && i < sizeof kv / sizeof *kv; i++)
        rc = sl_api_settings_set(s, kv[i][0], kv[i][1], err);
    if (!rc)
        rc = sl_api_settings_set(s, "vocab", vocab, err);
    if (!rc)
        rc = sl_api_fw_opts("bench", s, o, err);
    sl_api_settings_free(s);
    return rc;
}

int main(int argc, char **argv)
{
    static const char *const modes[] = {"mirostat", "mirostat_v2", "adaptive_p", "chain_dry_xtc"};
    sl_error err;
    sl_vec xv;
    if (sl_base_vec_alloc(&xv, V, "bench", &err))
        return 1;
    for (int m = 0; m < (argc > 1 ? 4 : 3); m++) {
        if (argc > 2 && strcmp(argv[2], modes[m]))
            continue;
        sl_fw_opts o;
        memset(&o, 0, sizeof o);
        if (m == 3) {
            if (chain_opts(argv[1], &o, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
        } else if (m < 2) {
            o.cfg.has_mirostat = 1, o.cfg.mirostat = m + 1;
        } else {
            if (sl_logits_llama_order_parse("adaptive_p", 0, &o.cfg, &err))
                return 1;
            o.cfg.has_adaptive_target = 1, o.cfg.adaptive_target = 0.3;
        }
        o.has_seed = 1, o.seed.lo = 5, o.k = 1, o.logits = &xv;
        sl_fw_session ss;
        if (sl_fw_session_open(&ss, &sl_fw_llamacpp_type, &o, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        double ms[STEPS];
        long sum = 0;
        for (int t = 0; t < STEPS; t++) {
            gg_fill_logits(1000 + (uint64_t)t, V, xv.f);
            for (size_t i = 0; i < V; i++)
                xv.d[i] = xv.f[i];
            sl_fw_session_forget(&ss);
            sl_fw_step st;
            double t0 = now_s();
            if (sl_fw_session_step(&ss, &xv, &st, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            ms[t] = (now_s() - t0) * 1e3;
            sum += st.tokens[0];
            if (sl_fw_session_accept(&ss, st.tokens[0], &err))
                return 1;
        }
        sl_fw_session_close(&ss);
        if (m == 3)
            sl_api_fw_opts_free(&o);
        qsort(ms, STEPS, sizeof *ms, cmp_d); /* the median step: a step the scheduler took the core from is an outlier */
        printf("%s %.3f %ld\n", modes[m], (ms[STEPS / 2 - 1] + ms[STEPS / 2]) / 2, sum);
    }
    sl_base_vec_free(&xv);
    return 0;
}
