/* bench.c — `samplab bench`: prepare time per distribution and time per draw
 * of every draw method, at V = 8 (the weather example) and V = 49,152 (the
 * synthetic vocabulary, or any --logits file), with pcg32. Honest numbers
 * for `make bench`, no targets. Timings use CLOCK_MONOTONIC; each cell is
 * the best of 3 repetitions.
 * With --framework F and per-step rows, the generation in process instead: the
 * replay loop of `samplab replay` (one session, every token accepted) per step,
 * and F's pipeline alone per call with fresh buffers (as `samplab pipeline` runs
 * it), in the CPU time of the calling thread (steady on a shared machine), so
 * analysis/bench_generation.py can set them beside torch's own ops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/sl_cli.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bench_one(const sl_draw_type *dt, const double *p, size_t V, double *prep_us, double *draw_ns, double *wpd)
{
    sl_error err;
    sl_seed seed = {.lo = 42};
    /* enough draws for ~0.1 s at the expected per-draw cost */
    size_t draws = !strcmp(dt->name, "exprace") || !strcmp(dt->name, "linear") ? (V > 1000 ? 200 : 200000) : 1000000;
    size_t preps = V > 1000 ? 20 : 200000;
    double best_prep = 1e30, best_draw = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        void *table = NULL;
        double t0 = now_s();
        for (size_t i = 0; i < preps; i++) {
            if (table)
                dt->free(table);
            sl_draw_prepare(dt, &table, p, V, &err);
        }
        double t1 = now_s();
        sl_rng r;
        sl_rng_init(&r, &sl_rng_pcg32_type, &seed, &err);
        size_t sink = 0;
        double t2 = now_s();
        for (size_t i = 0; i < draws; i++)
            sink += dt->draw(table, &r);
        double t3 = now_s();
        if (sink == (size_t)-1)
            fputs("", stderr); /* keeps the loop from being optimised away */
        *wpd = (double)r.words / (double)draws;
        sl_rng_release(&r);
        dt->free(table);
        if ((t1 - t0) / (double)preps < best_prep)
            best_prep = (t1 - t0) / (double)preps;
        if ((t3 - t2) / (double)draws < best_draw)
            best_draw = (t3 - t2) / (double)draws;
    }
    *prep_us = best_prep * 1e6;
    *draw_ns = best_draw * 1e9;
}

/* The exponential race with log skipping and bulk words against its plain
 * loop (sl_draw_exprace_reference), per generator: seconds per draw, best of 3. */
static int bench_race(const char *rng, const double *p, size_t V, double *plain_s, double *fast_s)
{
    const sl_rng_type *t = sl_rng_lookup(rng);
    sl_error err;
    sl_seed seed = {.lo = 42};
    void *table = NULL;
    if (!t || sl_draw_prepare(&sl_draw_exprace_type, &table, p, V, &err))
        return -1;
    size_t draws = V > 1000 ? 100 : 100000, sink = 0;
    *plain_s = *fast_s = 1e30;
    for (int rep = 0; rep < 3; rep++)
        for (int fast = 0; fast < 2; fast++) {
            sl_rng r;
            if (sl_rng_init(&r, t, &seed, &err))
                return -1;
            double t0 = now_s();
            for (size_t i = 0; i < draws; i++)
                sink += fast ? sl_draw_exprace_type.draw(table, &r) : sl_draw_exprace_reference(p, V, &r);
            double dt = (now_s() - t0) / (double)draws;
            sl_rng_release(&r);
            double *best = fast ? fast_s : plain_s;
            if (dt < *best)
                *best = dt;
        }
    sl_draw_exprace_type.free(table);
    if (sink == (size_t)-1)
        fputs("", stderr);
    return 0;
}

/* The generic exprace over mt19937 against torch.multinomial(p, 1)'s race on the
 * same float64 weights (both draw/race.c, 2V words a draw): seconds per draw, best of 5. */
static int bench_race_vs_torch(const double *p, size_t V, double *generic_s, double *torch_s)
{
    sl_error err;
    sl_seed seed = {.lo = 42};
    sl_draw_torch_param tp = {SL_TORCH_2, 0, 1, SL_SIMD_AUTO};
    sl_draw_type tt = sl_draw_torch_type;
    tt.param = &tp;
    sl_draw_dist dist = {V, p, NULL, SL_F64, "bench", 0};
    void *gen = NULL, *tor = NULL;
    if (sl_draw_prepare(&sl_draw_exprace_type, &gen, p, V, &err) || sl_draw_prepare_dist(&tt, &tor, &dist, &err))
        return -1;
    size_t draws = 200, sink = 0;
    *generic_s = *torch_s = 1e30;
    for (int rep = 0; rep < 5; rep++)
        for (int which = 0; which < 2; which++) {
            sl_rng r;
            if (sl_rng_init(&r, which ? &sl_rng_torch_mt19937_type : &sl_rng_mt19937_type, &seed, &err))
                return -1;
            double t0 = now_s();
            for (size_t i = 0; i < draws; i++)
                sink += which ? tt.draw(tor, &r) : sl_draw_exprace_type.draw(gen, &r);
            double dt = (now_s() - t0) / (double)draws;
            sl_rng_release(&r);
            double *best = which ? torch_s : generic_s;
            if (dt < *best)
                *best = dt;
        }
    sl_draw_exprace_type.free(gen);
    tt.free(tor);
    if (sink == (size_t)-1)
        fputs("", stderr);
    return 0;
}

/* `samplab bench --framework F --logits ROWS [settings]`: replay per step and the
 * pipeline per call, in process, best of --n (api/bench.c times them). */
static int bench_generation(const sl_cli_parsed *po)
{
    sl_api_settings set;
    sl_cli_settings_from(po, &set);
    sl_api_src src = sl_cli_src_from(po);
    sl_api_bench_result r;
    sl_error err;
    int rc = sl_api_bench_run(&src, po->a[SL_API_OPT_LOGITS].given, &set, &r, &err);
    if (rc)
        rc = sl_cli_api_fail(&err);
    else if (po->a[SL_API_OPT_JSON].given)
        rc = sl_cli_emit(sl_api_bench_result_json(&r));
    else {
        printf("bench: %s, %zu steps of V = %zu, in process (thread CPU time, best of %zu)%s%s\n", r.g.ft->name,
               r.g.steps.t, r.g.steps.v, r.reps, r.cpu ? ", cpu " : "", r.cpu ? r.cpu : "");
        printf("replay: %.4f ms/step\n", r.replay * 1e3);
        if (r.pipe >= 0)
            printf("pipeline alone: %.4f ms/call (fresh buffers), %.4f ms/call (a session's scratch)\n", r.pipe * 1e3,
                   r.pipe_s * 1e3);
    }
    sl_api_bench_result_free(&r);
    return rc;
}

static void bench_help(FILE *f)
{
    fprintf(f, "usage: samplab bench [--logits SRC]\n"
               "       samplab bench --framework F --logits ROWS [settings] [--seed S] [--n R] [--json]\n\n"
               "Times prepare and draw of every method at V = 8 (the weather example) and on SRC\n"
               "(default data/synthetic_49152.txt), with pcg32.\n"
               "With --framework: F's generation over the [T, V] rows in process, as `samplab replay`\n"
               "runs it, in ms per step, and its pipeline alone in ms per call (the first 24 rows;\n"
               "with fresh buffers as one `samplab pipeline` run, and in a session's scratch),\n"
               "in the CPU time of this thread, the best of R repetitions (default 5).\n\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("bench"), "options:");
}

int sl_cli_bench_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("bench", argc, argv, bench_help, &po);
    if (st >= 0)
        return st;
    if (po.a[SL_API_OPT_FRAMEWORK].given)
        return bench_generation(&po);
    sl_api_opt gen_only[] = {SL_API_OPT_TENSOR, SL_API_OPT_CONTEXT, SL_API_OPT_SEED, SL_API_OPT_TORCH, SL_API_OPT_CPU, SL_API_OPT_N, SL_API_OPT_JSON};
    sl_api_opt miss = sl_cli_refused(&po, SL_API_G_SAMPLING, 0);
    for (size_t i = 0; !miss && i < sizeof gen_only / sizeof *gen_only; i++)
        if (po.a[gen_only[i]].given)
            miss = gen_only[i];
    if (miss) {
        fprintf(stderr, "samplab bench: %s needs --framework (the generation bench)\n", sl_api_options[miss].name);
        return 2;
    }
    const char *big = po.a[SL_API_OPT_LOGITS].given ? po.a[SL_API_OPT_LOGITS].text : "data/synthetic_49152.txt";
    static const double weather[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
    sl_error err;
    sl_vec v;
    if (sl_io_vec_read_as(big, SL_API_NAME(LOGITS), NULL, -1, &v, &err)) /* an inline list named by its option */
        return sl_cli_fail(&err);
    double p8[8], *pv = malloc(v.n * sizeof *pv);
    if (!pv || sl_logits_softmax(weather, 8, 1.0, p8, &err) || sl_logits_softmax(v.d, v.n, 1.0, pv, &err)) {
        free(pv);
        sl_base_vec_free(&v);
        return sl_cli_fail(&err);
    }
    printf("| method | V | prepare (us) | draw (ns) | words/draw |\n|---|---:|---:|---:|---:|\n");
    for (size_t m = 0; sl_draw_types[m]; m++) {
        double prep, draw, wpd;
        bench_one(sl_draw_types[m], p8, 8, &prep, &draw, &wpd);
        printf("| %s | 8 | %.3f | %.1f | %g |\n", sl_draw_types[m]->name, prep, draw, wpd);
        bench_one(sl_draw_types[m], pv, v.n, &prep, &draw, &wpd);
        printf("| %s | %zu | %.1f | %.1f | %g |\n", sl_draw_types[m]->name, v.n, prep, draw, wpd);
    }
    printf("\nexprace: skipping the logs that cannot win, words in blocks, against the plain loop\n"
           "(same tokens and words):\n\n| generator | V | plain (us/draw) | fast (us/draw) | speed-up |\n"
           "|---|---:|---:|---:|---:|\n");
    static const char *const race_rngs[] = {"pcg32", "mt19937", "gsl:taus2", "pcg64"};
    for (size_t i = 0; i < sizeof race_rngs / sizeof race_rngs[0]; i++) {
        double plain, fast;
        if (bench_race(race_rngs[i], pv, v.n, &plain, &fast))
            continue;
        printf("| %s | %zu | %.1f | %.1f | %.2fx |\n", race_rngs[i], v.n, plain * 1e6, fast * 1e6, plain / fast);
    }
    double g, t;
    if (!bench_race_vs_torch(pv, v.n, &g, &t))
        printf("\none race (draw/race.c) for both: the generic exprace over mt19937 against torch.multinomial(p, 1)\n"
               "on the same float64 weights, 2V words each:\n\n| V | exprace (us/draw) | torch race (us/draw) | "
               "ratio |\n|---:|---:|---:|---:|\n| %zu | %.1f | %.1f | %.2f |\n",
               v.n, g * 1e6, t * 1e6, g / t);
    free(pv);
    sl_base_vec_free(&v);
    return 0;
}
