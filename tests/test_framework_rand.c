/* test_framework_rand.c — `--framework rand`: Rust rand's WeightedIndex over
 * StdRng::seed_from_u64, replayed against the real rand.
 *  - WeightedIndex<f64> (--dtype float64, the default for text and float64 .npy):
 *    data/golden/rand_wi64.txt (Debian 12's rand 0.8.5, analysis/golden/rand_golden.sh)
 *    and data/golden/current/rand_wi64_{0.8.8,0.10.3}.txt (Debian sid,
 *    analysis/golden/current/rand_golden.sh), all made by rand_golden's wi64
 *    mode: fixed vectors (ties, zeros, -0.0, subnormal totals, absorbed weights,
 *    near overflow, every error and panic) and generated ones of V = 2 to
 *    151,936. Every record through the C API (the table: stored sums, total,
 *    Uniform scale; the draws, the words and the next word after them; the
 *    error in rand's words) and through the command line (the release build,
 *    `draw --framework rand --num-samples N --json`: tokens and words), with
 *    --rand 0.8 for 0.8.x and --rand 0.10 for 0.10.3; rand 0.9, the default
 *    line, is read from source and must draw as 0.10.3.
 *  - WeightedIndex<f32> (--dtype float32): candle's draw without its logits
 *    processor, replayed on data/golden/rand_wi.txt's draws (rand 0.8.5). */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "helpers.h"
#include "rand_golden.h"

static uint64_t fnv_f64(const double *x, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, &x[i], sizeof b);
        for (int k = 0; k < 8; k++)
            h = (h ^ ((b >> (8 * k)) & 0xff)) * 0x100000001b3ull;
    }
    return h;
}

/* rand_golden's gen_vector64: zipf, ones, splitmix64 units and their fourth powers. */
static double *gen_vector64(const char *name, size_t V)
{
    double *w = malloc((V ? V : 1) * sizeof *w);
    uint64_t g = V;
    for (size_t i = 0; i < V; i++) {
        if (!strncmp(name, "zipf", 4)) {
            w[i] = 1.0 / ((double)i + 1.0);
        } else if (!strncmp(name, "ones", 4)) {
            w[i] = 1.0;
        } else {
            double u = (double)(gg_smix(&g) >> 11) * (1.0 / 9007199254740992.0);
            w[i] = !strncmp(name, "units4_", 7) ? u * u * u * u : u;
        }
    }
    return w;
}

typedef struct run_opts {
    const char *rand;      /* --rand */
    int f32;               /* --dtype float32 */
} run_opts;

static int fw_run(const double *w, size_t V, uint64_t seed, size_t n, const run_opts *ro, sl_fw_result *res,
                  sl_error *err)
{
    sl_vec v;
    sl_test_vec(&v, w, V, "weights", 0);
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.probs = &v;
    o.seed.lo = seed;
    o.has_seed = 1;
    o.n = 1;
    o.k = n;
    o.variant = ro->rand;
    o.dtype_set = ro->f32;
    o.dtype = SL_F32;
    int rc = sl_fw_run(&sl_fw_rand_type, &o, res, err);
    sl_base_vec_free(&v);
    return rc;
}

/* `samplab draw --framework rand` on a .npy of the weights: its exit status, tokens and words. */
static void cli_check(const char *npy, uint64_t seed, size_t n, const run_opts *ro, const long *tokens, uint64_t words,
                      const char *what)
{
    char args[512];
    snprintf(args, sizeof args, "draw --framework rand --probs %s --seed %" PRIu64 " --num-samples %zu --rand %s%s --json",
             npy, seed, n, ro->rand, ro->f32 ? " --dtype float32" : "");
    sl_test_run c = sl_test_cli_bin(sl_test_rel_bin(), args);
    cr_assert_eq(c.status, 0, "%s: %s", what, c.err);
    const char *t = strstr(c.out, "{\"tokens\":[[");
    cr_assert_not_null(t, "%s: %s", what, c.out);
    t += strlen("{\"tokens\":[[");
    for (size_t j = 0; j < n; j++) {
        char *end;
        long x = strtol(t, &end, 10);
        cr_assert(end != t && x == tokens[j], "%s: the command line's token %zu is %ld, rand's %ld", what, j, x,
                  tokens[j]);
        t = end + 1;
    }
    char want[48];
    snprintf(want, sizeof want, "\"words\":%" PRIu64 "}", words);
    cr_assert(strstr(c.out, want), "%s: the command line spent other words than rand: %.200s", what, c.out);
    sl_test_run_free(&c);
}

typedef struct tally64 {
    size_t tables, draws, errors, cli;
} tally64;

/* The weights of the current vector. */
typedef struct cur64 {
    char name[64];
    double *w;
    size_t V;
    char *npy;
} cur64;

static void cur_set(cur64 *c, const char *name, double *w, size_t V)
{
    free(c->w);
    if (c->npy) {
        unlink(c->npy);
        free(c->npy);
    }
    snprintf(c->name, sizeof c->name, "%s", name);
    c->w = w;
    c->V = V;
    c->npy = V ? sl_test_npy("<f8", 8, w, 0, V) : NULL;
}

/* One wi64 file: version is rand's line (8 or 10), ro the options it replays as;
 * with_cli 0 replays through the C API only (a file whose records another run covers). */
static void replay64(const char *path, int version, const run_opts *ro, int with_cli, tally64 *tl)
{
    char *text = sl_test_slurp(path);
    cr_assert_not_null(text, "cannot read %s", path);
    cur64 cur = {{0}, NULL, 0, NULL};
    sl_draw_rand_wi64 wi;
    int have = 0;
    long *tok = NULL;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *p = line, *kind = rg_tok(&p);
        if (!strcmp(kind, "vec") || !strcmp(kind, "gen")) {
            char *name = rg_tok(&p);
            size_t V = strtoull(p, &p, 10);
            double *w;
            if (!strcmp(kind, "vec")) {
                w = malloc((V ? V : 1) * sizeof *w);
                for (size_t i = 0; i < V; i++) {
                    uint64_t b = strtoull(p, &p, 16);
                    memcpy(&w[i], &b, sizeof b);
                }
            } else {
                w = gen_vector64(name, V);
                cr_assert_eq(fnv_f64(w, V), strtoull(p, &p, 16), "%s: generated vector %s differs from rand_golden's",
                             path, name);
            }
            cur_set(&cur, name, w, V);
            if (have)
                sl_draw_rand_wi64_free(&wi);
            have = sl_draw_rand_wi64_new(&wi, w, V, version, NULL) == SL_RAND_OK;
        } else if (!strcmp(kind, "table")) {
            char *name = rg_tok(&p);
            size_t ncum = strtoull(p, &p, 10);
            uint64_t h = strtoull(p, &p, 16), total = strtoull(p, &p, 16), scale = strtoull(p, &p, 16);
            cr_assert(have, "%s: %s: rand built a table, samplab refused", path, name);
            uint64_t tb, sb;
            memcpy(&tb, &wi.total, sizeof tb);
            memcpy(&sb, &wi.scale, sizeof sb);
            cr_assert(wi.n - 1 == ncum && fnv_f64(wi.cum, ncum) == h && tb == total && sb == scale,
                      "%s: %s: table (n-1 %zu, total %016" PRIx64 ", scale %016" PRIx64 ") differs from rand's (%zu, "
                      "%016" PRIx64 ", %016" PRIx64 ")",
                      path, name, wi.n - 1, tb, sb, ncum, total, scale);
            tl->tables++;
        } else if (!strcmp(kind, "draw")) {
            char *name = rg_tok(&p);
            uint64_t seed = strtoull(rg_tok(&p), NULL, 10);
            size_t n = strtoull(rg_tok(&p), NULL, 10);
            tok = realloc(tok, n * sizeof *tok);
            for (size_t i = 0; i < n; i++)
                tok[i] = strtol(rg_tok(&p), NULL, 10);
            rg_tok(&p); /* words */
            uint64_t words = strtoull(rg_tok(&p), NULL, 10);
            rg_tok(&p); /* next */
            uint32_t next = (uint32_t)strtoul(rg_tok(&p), NULL, 16);
            sl_fw_result res;
            sl_error err;
            cr_assert_eq(fw_run(cur.w, cur.V, seed, n, ro, &res, &err), 0, "%s: %s seed %" PRIu64 ": %s", path, name,
                         seed, err.msg);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(res.tokens[i], tok[i], "%s: %s seed %" PRIu64 " draw %zu: observed %ld expected %ld", path,
                             name, seed, i, res.tokens[i], tok[i]);
            cr_assert_eq(res.words, words, "%s: %s seed %" PRIu64 ": %" PRIu64 " words, rand %" PRIu64, path, name,
                         seed, res.words, words);
            sl_rng r = rg_stdrng(seed);
            for (uint64_t i = 0; i < words; i++)
                (void)sl_rng_next(&r);
            cr_assert_eq((uint32_t)sl_rng_next(&r), next, "%s: %s seed %" PRIu64 ": the next word differs", path, name,
                         seed);
            sl_rng_release(&r);
            char what[160];
            snprintf(what, sizeof what, "%s: %s seed %" PRIu64, path, name, seed);
            if (with_cli) {
                cli_check(cur.npy, seed, n, ro, res.tokens, res.words, what);
                tl->cli++;
            }
            sl_fw_result_free(&res);
            tl->draws++;
        } else if (!strcmp(kind, "err") || !strcmp(kind, "panic")) {
            char *name = rg_tok(&p);
            while (*p == ' ')
                p++;
            /* rand's words: an error's name, or the panic's message (its text after "Uniform::new: ") */
            const char *want = !strcmp(kind, "panic") ? "range overflow" : p;
            if (cur.V == 0) /* samplab refuses an empty vector for every framework, before rand sees it */
                want = "empty vector";
            cr_assert(!have, "%s: %s: rand refused (%s), samplab built a table", path, name, p);
            sl_fw_result res;
            sl_error err;
            cr_assert_eq(fw_run(cur.w, cur.V, 0, 1, ro, &res, &err), SL_EINVAL, "%s: %s accepted", path, name);
            cr_assert(strstr(err.msg, want), "%s: %s: samplab says '%s', rand '%s'", path, name, err.msg, p);
            if (with_cli && cur.npy) {
                char args[512];
                snprintf(args, sizeof args, "draw --framework rand --probs %s --rand %s", cur.npy, ro->rand);
                sl_test_run c = sl_test_cli_bin(sl_test_rel_bin(), args);
                cr_assert(c.status == 2 && !c.out[0] && strstr(c.err, want) && sl_test_lines(c.err) == 1,
                          "%s: %s: the command line exits %d, says '%s'", path, name, c.status, c.err);
                sl_test_run_free(&c);
                tl->cli++;
            }
            tl->errors++;
        } else {
            cr_assert_fail("%s: unknown record '%s'", path, kind);
        }
    }
    if (have)
        sl_draw_rand_wi64_free(&wi);
    cur_set(&cur, "", NULL, 0);
    free(tok);
    free(text);
}

Test(replay_rand, wi64_rand_0_8_and_0_10)
{
    static const struct {
        const char *path;
        int version, cli;
        run_opts ro;
    } files[] = {
        {"data/golden/rand_wi64.txt", 8, 1, {"0.8", 0}},
        {"data/golden/current/rand_wi64_0.8.8.txt", 8, 0, {"0.8", 0}}, /* the same records as 0.8.5 (checked below) */
        {"data/golden/current/rand_wi64_0.10.3.txt", 10, 1, {"0.10", 0}},
    };
    for (size_t i = 0; i < 3; i++) {
        tally64 tl = {0};
        replay64(files[i].path, files[i].version, &files[i].ro, files[i].cli, &tl);
        cr_assert(tl.tables >= 51 && tl.draws >= 255 && tl.errors >= 15, "%s: %zu tables, %zu draws, %zu errors",
                  files[i].path, tl.tables, tl.draws, tl.errors);
        cr_log_info("%s: %zu tables, %zu draw records and %zu errors through the C API, %zu through the command "
                    "line: 0 differences",
                    files[i].path, tl.tables, tl.draws, tl.errors, tl.cli);
    }
    /* rand 0.8.8's records are 0.8.5's, line for line after the headers */
    char *a = sl_test_slurp(files[0].path), *b = sl_test_slurp(files[1].path);
    const char *ra = strstr(a, "\nvec "), *rb = strstr(b, "\nvec ");
    cr_assert(ra && rb && !strcmp(ra, rb), "rand 0.8.8's WeightedIndex<f64> records differ from 0.8.5's");
    free(a);
    free(b);
}

/* rand 0.9 (the default line) is read from source: its UniformFloat::new_bounded is
 * 0.10.3's, so it draws as 0.10.3 on every record; only the +inf total is named
 * otherwise (0.9 panics, 0.10 returns Err(Overflow)). */
Test(replay_rand, wi64_rand_0_9_draws_as_0_10)
{
    tally64 tl = {0};
    run_opts ro = {"0.9", 0};
    char *text = sl_test_slurp("data/golden/current/rand_wi64_0.10.3.txt");
    cr_assert_not_null(text);
    /* drop the Overflow records, which 0.9 words as a panic, then replay as 0.10 */
    char *tmp = sl_test_tmpfile(".txt", "", 0);
    FILE *f = fopen(tmp, "w");
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (!strstr(line, " Overflow"))
            fprintf(f, "%s\n", line);
    fclose(f);
    replay64(tmp, 9, &ro, 0, &tl);
    cr_assert(tl.draws > 250, "%zu draws", tl.draws);
    sl_error err;
    sl_fw_result res;
    double inf2[2] = {1.0, HUGE_VAL};
    cr_assert_eq(fw_run(inf2, 2, 0, 1, &ro, &res, &err), SL_EINVAL);
    cr_assert(strstr(err.msg, "rand panics in Uniform::new \"range overflow\""), "%s", err.msg);
    unlink(tmp);
    free(tmp);
    free(text);
}

/* --dtype float32 is candle's draw without its logits processor: rand_wi.txt's
 * WeightedIndex<f32> draws (rand 0.8.5), one word a sample. */
Test(replay_rand, f32_is_candles_weighted_index)
{
    char *text = sl_test_slurp("data/golden/rand_wi.txt");
    cr_assert_not_null(text);
    rg_book bk = {0};
    rg_named *cur = NULL;
    char *npy = NULL;
    size_t draws = 0;
    run_opts ro = {"0.8", 1};
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *p = line, *kind = rg_tok(&p);
        if (!strcmp(kind, "vec") || !strcmp(kind, "gen")) {
            char *name = rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            cur = rg_put(&bk, name, !strcmp(kind, "vec") ? rg_hex_floats(&p, n) : rg_gen_vector(name, n), n);
            if (npy) {
                unlink(npy);
                free(npy);
            }
            npy = n ? sl_test_npy_f32(cur->x, 0, n) : NULL;
        } else if (!strcmp(kind, "draw")) {
            char *name = rg_tok(&p);
            uint64_t seed = strtoull(rg_tok(&p), NULL, 10);
            size_t n = strtoull(rg_tok(&p), NULL, 10);
            long *tok = malloc(n * sizeof *tok);
            for (size_t i = 0; i < n; i++)
                tok[i] = strtol(rg_tok(&p), NULL, 10);
            rg_tok(&p);
            uint64_t words = strtoull(rg_tok(&p), NULL, 10);
            double *w = malloc(cur->n * sizeof *w);
            for (size_t i = 0; i < cur->n; i++)
                w[i] = (double)cur->x[i];
            sl_fw_result res;
            sl_error err;
            cr_assert_eq(fw_run(w, cur->n, seed, n, &ro, &res, &err), 0, "%s seed %" PRIu64 ": %s", name, seed,
                         err.msg);
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(res.tokens[i], tok[i], "%s seed %" PRIu64 " draw %zu: observed %ld expected %ld", name,
                             seed, i, res.tokens[i], tok[i]);
            cr_assert_eq(res.words, words);
            char what[128];
            snprintf(what, sizeof what, "rand_wi.txt %s seed %" PRIu64, name, seed);
            cli_check(npy, seed, n, &ro, res.tokens, res.words, what);
            sl_fw_result_free(&res);
            free(w);
            free(tok);
            draws++;
        }
    }
    cr_assert(draws > 150, "only %zu draw records", draws);
    cr_log_info("rand_wi.txt: %zu WeightedIndex<f32> draw records as --framework rand --dtype float32, C API and "
                "command line: 0 differences",
                draws);
    if (npy) {
        unlink(npy);
        free(npy);
    }
    rg_free(&bk);
    free(text);
}

Test(replay_rand, refusals_by_name)
{
    sl_test_expect_refused("draw --framework rand --probs 1,2 --no-replacement",
                           "--no-replacement is not an option of framework rand: rand's WeightedIndex draws each "
                           "sample on its own");
    sl_test_expect_refused("draw --framework rand --probs 1,2 --rand 0.7", "0.7");
    sl_test_expect_refused("draw --framework rand --logits 1,2", "rand");
    sl_test_expect_refused("draw --framework rand --probs 1,2 --seed 18446744073709551616", "below 2^64");
}
