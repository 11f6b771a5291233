/* libm_diff.c — hashes of the libm results the emulations depend on, to diff
 * the page's C library (wasi-libc, musl's libm) against the CLI's (glibc):
 * expf and logf over float inputs (all 2^32 with "all", else every 2^S-th, S = argv[1]),
 * exp, log, log1p, expm1 and pow over random doubles in the ranges the
 * pipelines and draws use, and strtod/strtof + printf round trips. One line
 * per block of inputs: a mismatch names the function and the block. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t s = 0x2545F4914F6CDD1Du;
static uint64_t next(void)
{
    uint64_t z = (s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001B3u + (h >> 29);
}

/* NaN results compare as one value: libraries differ in a NaN's sign and payload */
static uint64_t fbits(float f)
{
    uint32_t u;
    if (isnan(f))
        return 0x7fc00000u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    if (isnan(d))
        return 0x7ff8000000000000u;
    memcpy(&u, &d, sizeof u);
    return u;
}

int main(int argc, char **argv)
{
    int all = argc > 1 && !strcmp(argv[1], "all");
    unsigned step = all ? 1u : argc > 1 ? 1u << atoi(argv[1]) : 1u << 6;
    long nd = argc > 2 ? atol(argv[2]) : 1000000;
    /* float functions: 256 blocks of 2^24 inputs */
    for (int f = 0; f < 2; f++)
        for (uint64_t blk = 0; blk < 256; blk++) {
            uint64_t h = 0;
            for (uint64_t i = blk << 24; i < (blk + 1) << 24; i += step) {
                uint32_t u = (uint32_t)i;
                float x;
                memcpy(&x, &u, sizeof x);
                h = mix(h, fbits(f == 0 ? expf(x) : logf(x)));
            }
            printf("%s %3u %016llx\n", f == 0 ? "expf" : "logf", (unsigned)blk, (unsigned long long)h);
        }
    /* double functions over random inputs in the ranges that occur: logits
     * differences (exp of -800..0), uniforms (log, log1p of -u), and all bit patterns */
    const char *names[] = {"exp", "log", "log1p", "expm1", "pow"};
    for (int f = 0; f < 5; f++)
        for (int blk = 0; blk < 64; blk++) {
            uint64_t h = 0;
            for (long i = 0; i < nd / 64; i++) {
                uint64_t w = next();
                double u = (double)(w >> 11) * 0x1p-53, x, r;
                double any;
                uint64_t w2 = next();
                memcpy(&any, &w2, sizeof any);
                switch (f) {
                case 0: x = (i & 1) ? -800 * u : any; r = exp(x); break;
                case 1: x = (i & 1) ? 1 - u : any; r = log(x); break;
                case 2: x = (i & 1) ? -u : any; r = log1p(x); break;
                case 3: x = (i & 1) ? -40 * u : any; r = expm1(x); break;
                default: x = (i & 1) ? u * 4 : any; r = pow(x, (i & 2) ? 0.25 * (double)(w & 7) : 1.0 / 3); break;
                }
                h = mix(h, dbits(r));
            }
            printf("%s %3d %016llx\n", names[f], blk, (unsigned long long)h);
        }
    /* text: printf %.17g / %.9g and strtod / strtof of random values and of random decimal text */
    for (int blk = 0; blk < 16; blk++) {
        uint64_t h = 0;
        for (long i = 0; i < nd / 16; i++) {
            uint64_t w = next();
            double d;
            memcpy(&d, &w, sizeof d);
            char b[64], t[64];
            snprintf(b, sizeof b, (i & 1) ? "%.17g" : "%.9g", (i & 2) ? d : (double)(w >> 11) * 0x1p-53);
            for (char *p = b; *p; p++)
                h = mix(h, (unsigned char)*p);
            /* one call per statement: the order of a call's arguments is unspecified */
            unsigned long long m1 = next() % 100000000000ull, m2 = next() % 10000000000ull;
            int ex = (int)(next() % 80) - 40;
            snprintf(t, sizeof t, "%llu.%llue%d", m1, m2, ex);
            h = mix(h, dbits(strtod(b, NULL)));
            h = mix(h, fbits(strtof(b, NULL)));
            h = mix(h, dbits(strtod(t, NULL)));
            h = mix(h, fbits(strtof(t, NULL)));
        }
        printf("text %3d %016llx\n", blk, (unsigned long long)h);
    }
    return 0;
}
