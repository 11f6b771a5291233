/* rng.c — `samplab rng`: raw words of a random source, in decimal one per
 * line, or as little-endian bytes (--binary) for test batteries such as
 * `dieharder -g 200` or PractRand's `RNG_test stdin32`. With --binary and
 * --n 0 the stream is endless. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

static void rng_help(FILE *f)
{
    fprintf(f, "usage: samplab rng --rng R [--seed S] [--stream Q] [--n N] [--binary]\n\n"
               "Prints N raw words of R (default 10) in decimal, one per line. --binary writes them\n"
               "as little-endian bytes (4 per word, 8 for 64-bit sources), endlessly when N is 0,\n"
               "for example: samplab rng --rng pcg32 --binary --n 0 | dieharder -g 200 -a\n"
               "Defaults: --seed 42, no --stream (= stream 0 for pcg32 and chacha12; pcg64 takes\n"
               "--stream Q as spawn_key=(Q,), so --stream 0 differs from none; mt19937,\n"
               "torch-mt19937 and gsl:* have no streams).\n\nrandom sources: ");
    for (size_t i = 0; sl_rng_types[i]; i++)
        fprintf(f, "%s (%u-bit), ", sl_rng_types[i]->name, sl_rng_types[i]->word_bits);
    fprintf(f, "gsl:NAME (any GSL generator)\n\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("rng"), "options:");
}

int sl_cli_rng_main(int argc, char **argv)
{
    sl_cli_parsed po;
    int st = sl_cli_parse("rng", argc, argv, rng_help, &po);
    if (st >= 0)
        return st;
    const char *rng_name = po.a[SL_API_OPT_RNG].text, *seed_text = po.a[SL_API_OPT_SEED].text;
    const char *stream_text = po.a[SL_API_OPT_STREAM].text;
    size_t n = po.a[SL_API_OPT_N].given ? po.a[SL_API_OPT_N].size : 10;
    int binary = po.a[SL_API_OPT_BINARY].given;
    char e[SL_CLI_ESC_MAX];
    if (!rng_name) {
        sl_cli_errf("samplab rng: --rng R is required (samplab rng --help lists the sources)\n");
        return 2;
    }
    if (n == 0 && !binary) {
        sl_cli_errf("samplab rng: --n 0 (endless) needs --binary\n");
        return 2;
    }
    const sl_rng_type *t = sl_rng_lookup(rng_name);
    if (!t) {
        sl_cli_errf("samplab rng: unknown random source '%s' (samplab rng --help lists them)\n",
                sl_cli_esc(rng_name, e, sizeof e));
        return 2;
    }
    sl_error err;
    sl_seed seed;
    if (sl_cli_seed(seed_text, stream_text, rng_name, &seed))
        return 2;
    sl_rng r;
    if (sl_rng_init(&r, t, &seed, &err))
        return sl_cli_fail(&err);
    int rc = 0;
    if (binary && t->word_bits != 32 && t->word_bits != 64)
        /* e.g. gsl:randu (2^31-1 values), gsl:ran0 (2^31-2): the bytes are not uniform,
         * and a battery fed them tests the packing, not the generator */
        sl_cli_errf(
                "samplab rng: note: %s words are not 32 bits wide (word_bits %u); --binary pads each to 4 "
                "bytes, so the bytes are not uniform and a test battery will reject them\n",
                t->name, t->word_bits);
    if (binary) {
        sl_cli_stdout_pipe_ends();
        unsigned char buf[8192];
        size_t width = t->word_bits > 32 ? 8 : 4, fill = 0;
        for (size_t i = 0; n == 0 || i < n; i++) {
            uint64_t w = sl_rng_next(&r);
            for (size_t b = 0; b < width; b++)
                buf[fill++] = (unsigned char)(w >> (8 * b));
            if (fill + width > sizeof buf || (n && i + 1 == n)) {
                if ((fwrite(buf, 1, fill, stdout) != fill) + sl_cli_stdout_broken())
                    break; /* the reader closed the pipe: a battery that has seen enough (main: exit 0) */
                fill = 0;
            }
        }
        if (fflush(stdout)) /* the last words' write: its errno decides (EPIPE is the battery's end) */
            sl_cli_stdout_broken();
    } else {
        /* the first failed write ends the run (main says why): 10^12 words into a closed pipe would take hours */
        for (size_t i = 0; i < n && !sl_cli_stdout_broken(); i++)
            printf("%llu\n", (unsigned long long)sl_rng_next(&r));
    }
    sl_rng_release(&r);
    return rc;
}
