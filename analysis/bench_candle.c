/* bench_candle.c — per-draw time of samplab's candle emulation, the same
 * work analysis/golden/rand_golden's `bench` mode times on the real rand:
 * WeightedIndex<f32>::sample with StdRng over a Zipf vector (V = 49,152 and
 * V = 8) and raw next_u32. Best of 3, nanoseconds. Built and run by
 * analysis/bench_candle.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "samplab.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    static const struct {
        size_t v, n;
    } cases[] = {{49152, 4000000}, {8, 20000000}};
    sl_error err;
    sl_seed seed = {.lo = 42};
    for (size_t c = 0; c < 2; c++) {
        size_t V = cases[c].v, n = cases[c].n;
        float *w = malloc(V * sizeof *w);
        for (size_t i = 0; i < V; i++)
            w[i] = (float)(1.0 / ((double)i + 1.0));
        sl_draw_rand_wi wi;
        if (sl_draw_rand_wi_new(&wi, w, V, 8, NULL) /* rand 0.8.5, the oracle it runs beside */)
            return 1;
        double best = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            sl_rng r;
            if (sl_rng_init(&r, &sl_rng_rand_stdrng_type, &seed, &err))
                return 1;
            /* as samplab draw --framework candle does: blocks of 1024 draws */
            static size_t blk[1024];
            volatile size_t sink = 0;
            size_t acc = 0;
            double t0 = now_s();
            for (size_t i = 0; i < n; i += 1024) {
                size_t nb = n - i < 1024 ? n - i : 1024;
                sl_draw_rand_wi_sample_many(&wi, &r, nb, blk);
                acc += blk[0] + blk[nb - 1];
            }
            double dt = now_s() - t0;
            sink = acc;
            (void)sink;
            sl_rng_release(&r);
            if (dt * 1e9 / (double)n < best)
                best = dt * 1e9 / (double)n;
        }
        printf("wi%zu %.3f\n", V, best);
        sl_draw_rand_wi_free(&wi);
        free(w);
    }
    size_t n = 50000000;
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        sl_rng r;
        if (sl_rng_init(&r, &sl_rng_rand_stdrng_type, &seed, &err))
            return 1;
        volatile uint32_t sink = 0;
        uint32_t acc = 0;
        double t0 = now_s();
        for (size_t i = 0; i < n; i++)
            acc += (uint32_t)sl_rng_next(&r);
        double dt = now_s() - t0;
        sink = acc;
        (void)sink;
        sl_rng_release(&r);
        if (dt * 1e9 / (double)n < best)
            best = dt * 1e9 / (double)n;
    }
    printf("u32 %.3f\n", best);
    /* the generator itself, without the generic interface's indirect call */
    best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        uint32_t key[8];
        sl_rng_chacha_state s;
        sl_rng_rand_seed_from_u64(42, key);
        sl_rng_chacha_init(&s, key, 0, 6);
        volatile uint32_t sink = 0;
        uint32_t acc = 0;
        double t0 = now_s();
        for (size_t i = 0; i < n; i++)
            acc += sl_rng_chacha_next(&s);
        double dt = now_s() - t0;
        sink = acc;
        (void)sink;
        if (dt * 1e9 / (double)n < best)
            best = dt * 1e9 / (double)n;
    }
    printf("u32direct %.3f\n", best);
    return 0;
}
