/* test_framework_tfjs.c — `--framework tfjs` against TensorFlow.js 4.22.0 itself:
 * every record of data/golden/js/tfjs_multinomial.txt (analysis/golden/js/tfjs_multinomial.mjs:
 * the real tf.multinomial of @tensorflow/tfjs-core and tfjs-backend-cpu 4.22.0 under Node,
 * over the committed vectors of data/golden/js/tfjs_multinomial_vectors.safetensors). The
 * alea records check seedrandom's Alea over the strings of seeds of every kind (negative,
 * fractional, above 2^53, exponent notation, not numbers at all), the number records the
 * string an integer seed becomes, every case is replayed through a session (the C API),
 * N calls shown equal, and a sample through the command line. The same cases with the
 * seed one off are counted, so the replay is known to be able to fail. More sets made by
 * the script with other streams are checked when SL_TFJS_EXTRA names them (paths without
 * .txt, separated by spaces). Then the refusals. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

#define GOLDEN "data/golden/js/tfjs_multinomial"
#define MAX_K 128

static FILE *open_txt(const char *base)
{
    char p[512];
    snprintf(p, sizeof p, "%s.txt", base);
    FILE *f = fopen(p, "r");
    cr_assert(f, "%s", p);
    return f;
}

/* the fields of a tab-separated line (at most max), in place */
static size_t fields(char *line, char **f, size_t max)
{
    size_t n = 0;
    line[strcspn(line, "\n")] = '\0';
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

Test(framework_tfjs, alea_equals_seedrandom_over_seed_strings)
{
    FILE *f = open_txt(GOLDEN);
    char line[1 << 16];
    size_t n = 0, differ = 0;
    while (fgets(line, sizeof line, f)) {
        char *fl[4];
        if (strncmp(line, "alea\t", 5) || fields(line, fl, 4) != 4)
            continue;
        sl_rng_alea_state s, t;
        sl_rng_alea_seed_string(&s, fl[2], strlen(fl[2]));
        /* the same string one character longer: another stream from the first word */
        char other[128];
        snprintf(other, sizeof other, "%s ", fl[2]);
        sl_rng_alea_seed_string(&t, other, strlen(other));
        char *p = fl[3];
        for (int i = 0; i < 1000; i++) {
            uint32_t w = sl_rng_alea_next(&s), u = sl_rng_alea_next(&t);
            if (i < 8 || i == 999) {
                char *end;
                unsigned long want = strtoul(p, &end, 10);
                cr_assert_eq(w, (uint32_t)want, "alea(%s) output %d: %" PRIu32 ", seedrandom %lu", fl[1], i, w, want);
                p = *end ? end + 1 : end;
            }
            differ += i == 0 && u != w;
        }
        n++;
    }
    fclose(f);
    printf("alea: %zu seed strings, 9 outputs each equal seedrandom's; %zu of them differ from the next string's\n",
           n, differ);
    cr_assert_geq(n, 20);
    cr_assert_eq(differ, n);
}

Test(framework_tfjs, integer_seeds_read_as_javascript_numbers)
{
    FILE *f = open_txt(GOLDEN);
    char line[1 << 16];
    size_t n = 0, plain = 0;
    while (fgets(line, sizeof line, f)) {
        char *fl[3];
        if (strncmp(line, "number\t", 7) || fields(line, fl, 3) != 3)
            continue;
        sl_seed sd;
        sl_error e;
        cr_assert_eq(sl_base_seed_parse(fl[1], &sd, &e), 0, "%s: %s", fl[1], e.msg);
        char got[32];
        sl_base_js_number_string(sl_rng_alea_seed_number(&sd), got, sizeof got);
        cr_expect_str_eq(got, fl[2], "%s as a number: %s, Node %s", fl[1], got, fl[2]);
        plain += !strcmp(fl[1], fl[2]);
        n++;
    }
    fclose(f);
    printf("numbers: %zu integers give Node's string (%zu are their own decimal)\n", n, plain);
    cr_assert_geq(n, 50);
    cr_assert(plain < n, "some integers must change as numbers (above 2^53) or the check proves nothing");
    /* the rest of the spec's forms, which the generator's records show: fractions, exponents, signs */
    const struct { double x; const char *s; } more[] = {
        {0.5, "0.5"}, {-2.25, "-2.25"}, {0.1, "0.1"}, {1e-7, "1e-7"}, {1.5e300, "1.5e+300"}, {1e21, "1e+21"},
        {-0.0, "0"}, {123456789012345680000.0, "123456789012345680000"}, {0.000001, "0.000001"}, {3.14159, "3.14159"},
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        char got[32];
        sl_base_js_number_string(more[i].x, got, sizeof got);
        cr_expect_str_eq(got, more[i].s, "%.17g: %s, want %s", more[i].x, got, more[i].s);
    }
}

typedef struct tcase {
    char kind[8], pool[32];
    size_t row, K;
    char seed[48];
    long tokens[MAX_K];
} tcase;

static int parse_case(char *line, tcase *c)
{
    char *f[8];
    if (strncmp(line, "case\t", 5) || fields(line, f, 8) != 8)
        return 0;
    snprintf(c->kind, sizeof c->kind, "%s", f[2]);
    snprintf(c->pool, sizeof c->pool, "%s", f[3]);
    c->row = strtoull(f[4], NULL, 10);
    c->K = strtoull(f[5], NULL, 10);
    snprintf(c->seed, sizeof c->seed, "%s", f[6]);
    cr_assert(c->K <= MAX_K);
    for (char *q = f[7]; *q; q++)
        if (*q == ',')
            *q = ' ';
    cr_assert_eq(sl_test_ids(f[7], c->tokens, MAX_K), c->K, "%s row %zu: %zu tokens", c->pool, c->row, c->K);
    return 1;
}

/* n calls of tf.multinomial(row, K, seed, kind == probs) through a session; tokens[n * K] */
static void session_draw(const tcase *c, const sl_vec *v, const sl_seed *seed, size_t n, long *tokens,
                         uint64_t *words)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    int is_probs = !strcmp(c->kind, "probs");
    o.probs = is_probs ? v : NULL;
    o.logits = is_probs ? NULL : v;
    o.has_seed = 1;
    o.seed = *seed;
    o.k = c->K;
    o.n = n;
    sl_fw_session s;
    sl_error e;
    cr_assert_eq(sl_fw_session_open(&s, &sl_fw_tfjs_type, &o, &e), 0, "%s", e.msg);
    *words = 0;
    for (size_t i = 0; i < n; i++) {
        sl_fw_step st;
        cr_assert_eq(sl_fw_session_step(&s, v, &st, &e), 0, "%s row %zu: %s", c->pool, c->row, e.msg);
        cr_assert_eq(st.k, c->K);
        memcpy(tokens + i * c->K, st.tokens, c->K * sizeof *tokens);
        *words += st.words;
    }
    sl_fw_session_close(&s);
}

/* Replays every case of base.txt over base_vectors.safetensors; returns the cases, and
 * counts those whose tokens change with the seed one off (K >= 4, not all one token, seed below 2^53). */
static size_t replay_file(const char *base, int cli_every, size_t *off_changed, size_t *off_n, size_t *samples)
{
    FILE *f = open_txt(base);
    char st_path[512];
    snprintf(st_path, sizeof st_path, "%s_vectors.safetensors", base);
    size_t n = 0, cli = 0;
    char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        tcase c;
        if (!parse_case(line, &c))
            continue;
        sl_vec v;
        sl_error e;
        cr_assert_eq(sl_io_vec_read(st_path, c.pool, (long)c.row, &v, &e), 0, "%s", e.msg);
        sl_seed sd;
        cr_assert_eq(sl_base_seed_parse(c.seed, &sd, &e), 0, "%s", e.msg);
        /* three calls with one seed: tfjs answers each the same */
        long got[3 * MAX_K];
        uint64_t words;
        session_draw(&c, &v, &sd, 3, got, &words);
        for (size_t i = 0; i < c.K; i++)
            cr_assert_eq(got[i], c.tokens[i], "%s %s row %zu K %zu seed %s: sample %zu is %ld, tfjs %ld", base,
                         c.pool, c.row, c.K, c.seed, i, got[i], c.tokens[i]);
        cr_assert_eq(memcmp(got, got + c.K, c.K * sizeof *got), 0, "the second call differs");
        cr_assert_eq(memcmp(got, got + 2 * c.K, c.K * sizeof *got), 0, "the third call differs");
        cr_assert_eq(words, 3 * c.K, "one word a sample");
        int varied = 0; /* tokens not all one: a case a wrong seed could change */
        for (size_t i = 1; i < c.K; i++)
            varied |= c.tokens[i] != c.tokens[0];
        /* the seed one off: the replay must see it (below 2^53, where S + 1 is another number) */
        if (c.K >= 4 && varied && !sd.hi && sd.lo < (1ull << 53)) {
            sl_seed s2 = sd;
            s2.lo += 1;
            long o2[3 * MAX_K];
            session_draw(&c, &v, &s2, 1, o2, &words);
            *off_n += 1;
            *off_changed += memcmp(o2, c.tokens, c.K * sizeof *o2) != 0;
        }
        if (cli_every && n % (size_t)cli_every == 0) { /* the command line, end to end */
            char args[1024], want[MAX_K * 8] = "";
            snprintf(args, sizeof args, "draw --framework tfjs --%s %s --tensor %s --row %zu --num-samples %zu --seed %s",
                     c.kind, st_path, c.pool, c.row, c.K, c.seed);
            size_t k = 0;
            for (size_t i = 0; i < c.K; i++)
                k += (size_t)snprintf(want + k, sizeof want - k, "%s%ld", i ? " " : "", c.tokens[i]);
            snprintf(want + k, sizeof want - k, "\n");
            sl_test_run r = sl_test_cli_bin(sl_test_rel_bin(), args);
            cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
            cr_assert_str_eq(r.out, want, "%s", args);
            sl_test_run_free(&r);
            cli++;
        }
        *samples += c.K;
        sl_base_vec_free(&v);
        n++;
    }
    fclose(f);
    if (cli_every)
        printf("%s: %zu of the cases through the command line too\n", base, cli);
    return n;
}

Test(framework_tfjs, every_case_equals_tf_multinomial, .timeout = 600)
{
    size_t changed = 0, off = 0, samples = 0;
    size_t n = replay_file(GOLDEN, 16, &changed, &off, &samples);
    printf("tfjs: %zu cases (%zu samples) equal tf.multinomial's, 3 calls each the same; with the seed one off "
           "%zu of %zu cases with K >= 4, tokens not all one and a seed below 2^53 change\n", n, samples, changed, off);
    cr_assert_geq(n, 400);
    cr_assert_geq(changed * 10, off * 9, "a seed one off must change nearly every case: %zu of %zu", changed, off);
}

/* tf.multinomial over a whole pool as [R, V]: each row a new alea from the one seed, so row r
 * draws what row r alone draws; through draw's batch path (one line: rows separated by spaces) */
Test(framework_tfjs, batch_rows_each_seed_alea_anew)
{
    FILE *f = open_txt(GOLDEN);
    char line[1 << 16];
    size_t n = 0, rows = 0, refused = 0;
    while (fgets(line, sizeof line, f)) {
        char *fl[6];
        if (strncmp(line, "batch\t", 6) || fields(line, fl, 6) != 6)
            continue;
        char args[1024];
        snprintf(args, sizeof args, "draw --framework tfjs --%s " GOLDEN "_vectors.safetensors --tensor %s "
                 "--num-samples %s --seed %s", fl[1], fl[2], fl[3], fl[4]);
        sl_test_run r = sl_test_cli(args);
        if (strstr(fl[2], "nan") || strstr(fl[2], "neg")) {
            /* a batch with NaN entries is refused by samplab's batch reader (row by row it is drawn) */
            cr_expect_eq(r.status, 2, "%s: %s", args, r.err);
            refused++;
        } else {
            cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
            char want[1 << 15];
            snprintf(want, sizeof want, "%s\n", fl[5]);
            if (!strchr(fl[5], ' ')) /* one row: [1, V] is drawn as the vector it is, tokens by spaces */
                for (char *q = want; *q; q++)
                    *q = *q == ',' ? ' ' : *q;
            cr_expect_str_eq(r.out, want, "%s", args);
        }
        sl_test_run_free(&r);
        /* and each row is the one-row call's */
        tcase c;
        memset(&c, 0, sizeof c);
        snprintf(c.kind, sizeof c.kind, "%s", fl[1]);
        snprintf(c.pool, sizeof c.pool, "%s", fl[2]);
        c.K = strtoull(fl[3], NULL, 10);
        sl_seed sd;
        sl_error e;
        cr_assert_eq(sl_base_seed_parse(fl[4], &sd, &e), 0, "%s", e.msg);
        char *p = fl[5];
        for (c.row = 0; *p; c.row++) {
            sl_vec v;
            cr_assert_eq(sl_io_vec_read(GOLDEN "_vectors.safetensors", c.pool, (long)c.row, &v, &e), 0, "%s", e.msg);
            long got[MAX_K];
            uint64_t words;
            session_draw(&c, &v, &sd, 1, got, &words);
            for (size_t i = 0; i < c.K; i++) {
                char *end;
                long want_tok = strtol(p, &end, 10);
                cr_assert_eq(got[i], want_tok, "%s row %zu sample %zu: %ld, tfjs %ld", c.pool, c.row, i, got[i],
                             want_tok);
                p = *end ? end + 1 : end;
            }
            sl_base_vec_free(&v);
            rows++;
        }
        n++;
    }
    fclose(f);
    printf("batches: %zu pools as [R, V] tensors (%zu rows) equal tf.multinomial's row by row, %zu of them through "
           "draw (%zu with NaN entries refused there)\n", n, rows, n - refused, refused);
    cr_assert_geq(n, 13);
}

Test(framework_tfjs, more_sets_when_named, .timeout = 1200)
{
    const char *env = getenv("SL_TFJS_EXTRA");
    if (!env || !*env) {
        printf("SL_TFJS_EXTRA not set: no further sets\n");
        return;
    }
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", env);
    size_t total = 0, samples = 0, changed = 0, off = 0;
    char *save = NULL;
    for (char *b = strtok_r(buf, " ", &save); b; b = strtok_r(NULL, " ", &save)) {
        size_t n = replay_file(b, 0, &changed, &off, &samples);
        printf("%s: %zu cases equal tf.multinomial's\n", b, n);
        total += n;
    }
    printf("SL_TFJS_EXTRA: %zu cases (%zu samples) in all equal tf.multinomial's\n", total, samples);
    cr_assert_gt(total, 0);
}

Test(framework_tfjs, draws_from_the_cdf_it_says)
{
    /* probabilities as given: the kernel's steps on alea's grid, not w / sum(w) */
    const double w[] = {0.25, -0.125, 0.5, NAN, 0.1};
    sl_vec v;
    sl_test_vec(&v, w, 5, "w", 0);
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.probs = &v;
    o.has_seed = 1;
    o.seed.lo = 5;
    sl_fw_session s;
    sl_error e;
    cr_assert_eq(sl_fw_session_open(&s, &sl_fw_tfjs_type, &o, &e), 0, "%s", e.msg);
    sl_logits_result r;
    cr_assert_eq(sl_fw_session_probs(&s, &v, &r, &e), 0, "%s", e.msg);
    /* cdf 0.25, 0.125, 0.625, NaN: token 1 never (below the running max), 3 never (NaN), 4 the rest */
    const double want[] = {0.25, 0, 0.375, 0, 0.375};
    for (size_t i = 0; i < 5; i++)
        cr_expect_eq(r.probs[i], want[i], "p[%zu] = %.17g, want %.17g", i, r.probs[i], want[i]);
    /* and the draws land where it says: 4000 samples, none on 1 or 3 */
    size_t cnt[5] = {0};
    for (uint64_t sd = 1; sd <= 400; sd++) {
        sl_fw_session t;
        o.seed.lo = sd;
        o.k = 10;
        cr_assert_eq(sl_fw_session_open(&t, &sl_fw_tfjs_type, &o, &e), 0, "%s", e.msg);
        sl_fw_step st;
        cr_assert_eq(sl_fw_session_step(&t, &v, &st, &e), 0, "%s", e.msg);
        for (size_t j = 0; j < st.k; j++)
            cnt[st.tokens[j]]++;
        sl_fw_session_close(&t);
    }
    cr_expect_eq(cnt[1], 0);
    cr_expect_eq(cnt[3], 0);
    cr_expect(cnt[0] > 800 && cnt[0] < 1200 && cnt[2] > 1300 && cnt[4] > 1300, "%zu %zu %zu", cnt[0], cnt[2], cnt[4]);
    sl_logits_result_free(&r);
    sl_fw_session_close(&s);
    sl_base_vec_free(&v);
}

/* Seeds only a JavaScript number holds (-1, 1.5, 1e21, Infinity): tf.multinomial takes any
 * number, and so does --seed with --framework tfjs, through the command line as a user gives
 * them (the records' seeds are String(seed), the literal a user would type). */
Test(framework_tfjs, number_seeds_equal_tf_multinomial)
{
    FILE *f = open_txt(GOLDEN);
    char line[1 << 16];
    size_t n = 0, differ = 0;
    while (fgets(line, sizeof line, f)) {
        char *fl[6];
        if (strncmp(line, "jscase\t", 7) || fields(line, fl, 6) != 6)
            continue;
        char args[1024], want[MAX_K * 8];
        snprintf(args, sizeof args, "draw --framework tfjs --%s " GOLDEN "_vectors.safetensors --tensor %s --row 0 "
                 "--num-samples %s --seed %s", fl[1], fl[2], fl[3], fl[4]);
        snprintf(want, sizeof want, "%s\n", fl[5]);
        for (char *q = want; *q; q++)
            if (*q == ',')
                *q = ' ';
        sl_test_run r = sl_test_cli(args);
        /* rows with NaN or negative weights (the nan and neg pools) samplab refuses, by name */
        if ((strstr(fl[2], "nan") || strstr(fl[2], "neg")) && r.status == 2) {
            cr_assert(strchr(r.err, '\n') == strrchr(r.err, '\n'), "%s: one line: %s", args, r.err);
        } else {
            cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
            cr_assert_str_eq(r.out, want, "%s", args);
            n++;
            /* the same row with seed 1 draws otherwise for most: the seed reached alea */
            snprintf(args, sizeof args, "draw --framework tfjs --%s " GOLDEN "_vectors.safetensors --tensor %s "
                     "--row 0 --num-samples %s --seed 1", fl[1], fl[2], fl[3]);
            sl_test_run o = sl_test_cli(args);
            differ += strcmp(o.out, r.out) != 0;
            sl_test_run_free(&o);
        }
        sl_test_run_free(&r);
    }
    fclose(f);
    printf("tfjs: %zu cases with seeds such as -1, 1.5, 1e+21 and Infinity equal tf.multinomial's; %zu differ from "
           "seed 1's\n", n, differ);
    cr_assert_geq(n, 100);
    cr_assert_geq(differ * 2, n, "%zu of %zu", differ, n);
    /* -0 is falsy as 0 is; any other generator takes integers only; not a number is said so */
    sl_test_expect_refused("draw --framework tfjs --probs 0.3,0.7 --seed -0", "Math.random()");
    sl_test_expect_refused("draw --method cdf --rng pcg32 --probs 0.3,0.7 --seed 1.5", "not a decimal digit");
    sl_test_expect_refused("draw --framework tfjs --probs 0.3,0.7 --seed 1.5.2", "is not a JavaScript number");
    sl_test_expect_refused("draw --framework tfjs --probs 0.3,0.7 --seed NaN", "is not a JavaScript number");
    sl_seed s;
    sl_error e;
    cr_assert_eq(sl_base_seed_parse_js("-2.25", &s, &e), 0);
    sl_rng g;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_pcg32_type, &s, &e), SL_EINVAL, "pcg32 must refuse a seed of -2.25");
    cr_assert(strstr(e.msg, "takes an integer seed"), "%s", e.msg);
}

Test(framework_tfjs, refusals)
{
    /* no seed and seed 0 are tf.multinomial's Math.random() */
    sl_test_expect_refused("draw --framework tfjs --probs 0.3,0.7", "Math.random()");
    sl_test_expect_refused("draw --framework tfjs --probs 0.3,0.7 --seed 0", "Math.random()");
    /* what the op throws */
    sl_test_expect_refused("draw --framework tfjs --probs 1 --seed 3", "you need at least 2 outcomes, but got 1");
    sl_test_expect_refused("draw --framework tfjs --logits 1 --seed 3", "you need at least 2 outcomes, but got 1");
    /* settings tf.multinomial does not have, by name */
    const char *absent[] = {"--temperature 0.7", "--top-k 2", "--top-p 0.9", "--min-p 0.1", "--repetition-penalty 1.2",
                            "--stream 2"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
        char args[256], want[128];
        snprintf(args, sizeof args, "draw --framework tfjs --logits 1,2,3 --seed 3 %s", absent[i]);
        snprintf(want, sizeof want, "%.*s is not an option of framework tfjs: tf.multinomial(logits, numSamples, seed, "
                 "normalized) has no such setting", (int)strcspn(absent[i], " "), absent[i]);
        sl_test_expect_refused(args, want);
    }
    sl_test_expect_refused("draw --framework tfjs --logits 1,2,3 --seed 3 --no-replacement", "always draws with replacement");
    sl_test_expect_refused("draw --framework tfjs --logits 1,2,3 --seed 3 --tfjs 4.21", "--tfjs takes 4.22");
    sl_test_expect_refused("draw --framework hf --logits 1,2,3 --seed 3 --tfjs 4.22", "--tfjs");
    /* accepted: the release line by name, N calls that repeat themselves, said in a note */
    sl_test_run r = sl_test_cli("draw --framework tfjs --probs 0.3,0.2,0.5 --seed 7 --num-samples 4 --n 3 --tfjs 4.22 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"tokens\":[[1,0,0,2],[1,0,0,2],[1,0,0,2]]"), "%s", r.out);
    cr_expect(strstr(r.out, "\"name\":\"seedrandom-alea\"") && strstr(r.out, "\"words\":12"), "%s", r.out);
    cr_expect(strstr(r.out, "4.22.0"), "%s", r.out);
    cr_expect(strstr(r.err, "the same tokens"), "%s", r.err);
    sl_test_run_free(&r);
    /* a seed above 2^53 is the number it reads as: 2^64 - 1 and 2^64 are one number */
    sl_test_run a = sl_test_cli("draw --framework tfjs --logits 1,2,3,0.5 --seed 18446744073709551615 --num-samples 20");
    sl_test_run b = sl_test_cli("draw --framework tfjs --logits 1,2,3,0.5 --seed 18446744073709551616 --num-samples 20");
    sl_test_run c = sl_test_cli("draw --framework tfjs --logits 1,2,3,0.5 --seed 18446744073709551614 --num-samples 20");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_expect_str_eq(a.out, b.out);
    cr_expect_str_eq(a.out, c.out, "2^64 - 2 is the number 2^64 too");
    sl_test_run_free(&a);
    sl_test_run_free(&b);
    sl_test_run_free(&c);
}
