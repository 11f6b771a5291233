/* test_framework_candle_generate.c — `samplab replay --framework candle` and
 * `samplab check --seed` on whole generations of candle 0.11.0's loop:
 * data/golden/candle_generate.txt (rand 0.8.5, Debian 12) and
 * data/golden/current/candle_generate_0.10.3.txt (rand 0.10.3, sid), written by
 * the rand oracle's `generate` mode (analysis/golden/rand_golden.sh,
 * current/rand_golden.sh). The loop there is re-expressed from candle's source
 * (LogitsProcessor across the steps, apply_repeat_penalty over the last
 * repeat_last_n of prompt + generated as candle-examples do) over the real
 * rand's StdRng and WeightedIndex<f32>: candle itself is not packaged, so not
 * run. The rows are rebuilt here from golden_gen.h (hash checked) and written
 * as a [T, V] .npy; every run's tokens and cumulative words must equal. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "golden_gen.h"
#include "helpers.h"
#include "samplab.h"

/* the text after "KEY ID " on that key's line for run id, up to the line end, in buf */
static const char *field_of(const char *text, const char *key, int id, char *buf, size_t cap)
{
    const char *p = sl_test_rec(text, key, id);
    cr_assert(p, "no %s record for run %d", key, id);
    p = strchr(strchr(p, ' ') + 1, ' ') + 1;
    size_t n = strcspn(p, "\n");
    cr_assert(n < cap, "%s %d too long", key, id);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

/* spaces to commas: the golden lists as the CLI and its JSON write them */
static void commas(char *s)
{
    for (; *s; s++)
        if (*s == ' ')
            *s = ',';
}

typedef struct {
    char name[32];
    char *npy; /* the rows as a .npy */
} rows_file;

/* rows line "rows NAME V STEPS GSEED HASH": rebuild, check, write */
static void rows_make(const char *line, rows_file *rf)
{
    size_t V, T;
    unsigned long long gseed, hash;
    cr_assert_eq(sscanf(line, "rows %31s %zu %zu %llu %llx", rf->name, &V, &T, &gseed, &hash), 5, "%s", line);
    float *x = malloc(T * V * sizeof *x), *base = malloc(V * sizeof *base);
    cr_assert(x && base);
    gg_fill_logits(gseed, V, base);
    for (size_t t = 0; t < T; t++) {
        float *row = x + t * V;
        gg_fill_logits(gseed + 1 + t, V, row);
        for (size_t i = 0; i < V; i++)
            row[i] = 0.5f * base[i] + 0.5f * row[i]; /* 0.5 * base + 0.5 * jitter_t, as the oracle */
    }
    cr_assert_eq(gg_fnv_floats(x, T * V), hash, "rows %s: rebuilt rows hash differently", rf->name);
    rf->npy = sl_test_npy_f32(x, T, V);
    cr_assert(rf->npy);
    free(x);
    free(base);
}

static void replay_file(const char *path, const char *rand)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s is missing", path);
    rows_file rf[4];
    size_t nrf = 0;
    for (const char *p = strstr(text, "\nrows "); p; p = strstr(p + 1, "\nrows ")) {
        cr_assert(nrf < 4);
        rows_make(p + 1, &rf[nrf++]);
    }
    size_t runs = 0, tok_ok = 0, words_ok = 0, seeded_ok = 0, steps = 0;
    char first[1024] = "";
    for (int id = 0;; id++) {
        const char *line = sl_test_rec(text, "run", id);
        if (!line)
            break;
        char rows[32], kind[16], penalty[32], temp[32], p[32], k[32], last_n[32], seed[32], simd[4];
        sl_test_field(line, "rows", rows, sizeof rows);
        sl_test_field(line, "sampling", kind, sizeof kind);
        sl_test_field(line, "temp", temp, sizeof temp);
        sl_test_field(line, "k", k, sizeof k);
        sl_test_field(line, "p", p, sizeof p);
        sl_test_field(line, "simd", simd, sizeof simd);
        sl_test_field(line, "penalty", penalty, sizeof penalty);
        sl_test_field(line, "last_n", last_n, sizeof last_n);
        sl_test_field(line, "seed", seed, sizeof seed);
        char prompt[256], tokens[4096], words[4096], status[256];
        commas((char *)field_of(text, "prompt", id, prompt, sizeof prompt));
        commas((char *)field_of(text, "tokens", id, tokens, sizeof tokens));
        commas((char *)field_of(text, "words", id, words, sizeof words));
        cr_assert_str_eq(field_of(text, "status", id, status, sizeof status), "ok", "run %d", id);
        const char *npy = NULL;
        for (size_t r = 0; r < nrf; r++)
            if (!strcmp(rf[r].name, rows))
                npy = rf[r].npy;
        cr_assert(npy, "run %d: no rows %s", id, rows);
        /* candle-examples' Sampling from --temperature/--top-k/--top-p: ArgMax
         * without a temperature; the penalty only when != 1, as they skip it */
        char args[8192];
        int n = snprintf(args, sizeof args, "replay --framework candle --rand %s --logits %s --seed %s", rand, npy, seed);
        if (strcmp(kind, "argmax"))
            n += snprintf(args + n, sizeof args - (size_t)n, " --temperature %s", temp);
        if (!strcmp(kind, "topk") || !strcmp(kind, "topkp"))
            n += snprintf(args + n, sizeof args - (size_t)n, " --top-k %s", k);
        if (!strcmp(kind, "topp") || !strcmp(kind, "topkp"))
            n += snprintf(args + n, sizeof args - (size_t)n, " --top-p %s", p);
        if (!strcmp(simd, "1"))
            n += snprintf(args + n, sizeof args - (size_t)n, " --simd-sum");
        if (strcmp(penalty, "1"))
            n += snprintf(args + n, sizeof args - (size_t)n, " --repetition-penalty %s --context %s --penalty-last-n %s",
                          penalty, prompt, last_n);
        snprintf(args + n, sizeof args - (size_t)n, " --json");
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "run %d: %s: %s", id, args, r.err);
        char want[4200];
        snprintf(want, sizeof want, "\"tokens\":[%s]", tokens);
        runs++;
        steps += tokens[0] != '\0';
        for (const char *c = tokens; *c; c++)
            steps += *c == ',';
        if (strstr(r.out, want))
            tok_ok++;
        else if (!first[0])
            snprintf(first, sizeof first, "run %d: want %.200s, got %.300s", id, tokens, r.out);
        snprintf(want, sizeof want, "\"words\":[%s]", words);
        if (strstr(r.out, want))
            words_ok++;
        else
            cr_log_info("run %d: words want %.200s, got %.300s", id, words, r.out);
        sl_test_run_free(&r);
        /* check --seed with the same settings finds no divergence */
        seeded_ok += (size_t)sl_test_check_seeded(args, tokens);
    }
    cr_log_info("%s: %zu runs, %zu steps; replay --rand %s equal in tokens %zu, words %zu; check --seed without "
                "divergence %zu; first difference: %s",
                path, runs, steps, rand, tok_ok, words_ok, seeded_ok, first[0] ? first : "none");
    cr_assert_geq(runs, 20);
    cr_expect_eq(tok_ok, runs, "%s", first);
    cr_expect_eq(words_ok, runs);
    cr_expect_eq(seeded_ok, runs);
    for (size_t i = 0; i < nrf; i++) {
        unlink(rf[i].npy);
        free(rf[i].npy);
    }
    free(text);
}

Test(replay_candle, generate_rand_085)
{
    replay_file("data/golden/candle_generate.txt", "0.8");
}

Test(replay_candle, candle_generate_rand_0103)
{
    replay_file("data/golden/current/candle_generate_0.10.3.txt", "0.10");
}
