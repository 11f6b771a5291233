/* test_framework_candle.c — the candle emulation against the real Rust rand
 * 0.8.5 and std (data/golden/rand_{wi,select,candle,fuzz}.txt, made by
 * analysis/golden/rand_golden.sh): WeightedIndex<f32> tables (stored sums,
 * total, uniform scale), draws and words consumed, errors and panics;
 * select_nth_unstable_by's order; candle LogitsProcessor steps (tokens,
 * words, errors, and the weights of the first draw in draw order); random
 * seeds, weight vectors and pipelines; the CLI on the [3,2,2,1] top-k tie, its
 * words and errors as rand's. Worked out from candle 0.11.0's source, not run:
 * apply_repeat_penalty (distinct ids once, ids beyond V skipped) and a NaN
 * temperature (Sampling::All, then rand's InvalidWeight). */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>

#include "helpers.h"
#include "rand_golden.h"

/* ---------------------------------------------------------------- shared with the generator */

typedef struct smix {
    uint64_t s;
} smix;




/* ---------------------------------------------------------------- one LogitsProcessor run */

typedef struct lp_out {
    long *tokens;
    size_t ntok;
    uint64_t words;
    char status[96];
    float *weights; /* first step's distribution */
    size_t *order;
    size_t m;
    int has_final;
} lp_out;

static void lp_run(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, uint64_t seed, size_t n, lp_out *o)
{
    memset(o, 0, sizeof *o);
    o->tokens = malloc((n ? n : 1) * sizeof *o->tokens);
    o->weights = malloc((V ? V : 1) * sizeof *o->weights);
    o->order = malloc((V ? V : 1) * sizeof *o->order);
    snprintf(o->status, sizeof o->status, "ok");
    sl_error err;
    cr_assert_eq(sl_logits_candle_process(logits, V, cfg, o->weights, o->order, &o->m, &err), 0, "%s", err.msg);
    if (cfg->sampling == SL_CANDLE_ARGMAX) {
        for (size_t i = 0; i < n; i++)
            o->tokens[i] = (long)o->order[0];
        o->ntok = n;
        return;
    }
    o->has_final = 1;
    sl_draw_rand_wi wi;
    sl_draw_rand_status st = sl_draw_rand_wi_new(&wi, o->weights, o->m, 8, NULL);
    if (st == SL_RAND_PANIC_RANGE) {
        snprintf(o->status, sizeof o->status, "panic Uniform::new: range overflow");
        return;
    }
    if (st) {
        snprintf(o->status, sizeof o->status, "err %s", rg_status(st));
        return;
    }
    sl_rng r = rg_stdrng(seed);
    for (size_t i = 0; i < n; i++)
        o->tokens[i] = (long)o->order[sl_draw_rand_wi_sample(&wi, &r)];
    o->ntok = n;
    o->words = r.words;
    sl_rng_release(&r);
    sl_draw_rand_wi_free(&wi);
}

static void lp_free(lp_out *o)
{
    free(o->tokens);
    free(o->weights);
    free(o->order);
}

/* ---------------------------------------------------------------- the replay of one golden file */

typedef struct tally {
    size_t tables, draws, tokens, errors, lps, finals, sels;
} tally;

static void replay(const char *path, tally *tl)
{
    char *t = sl_test_slurp(path);
    cr_assert_not_null(t, "%s missing", path);
    rg_book bk = {0};
    lp_out last;
    int have_last = 0;
    char lastname[64] = "";
    sl_draw_rand_wi wi;
    int have_wi = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *p = line;
        char *kind = rg_tok(&p);
        if (!strcmp(kind, "vec") || !strcmp(kind, "gen")) {
            char *name = rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            float *x;
            if (!strcmp(kind, "vec")) {
                x = rg_hex_floats(&p, n);
            } else {
                x = rg_gen_vector(name, n);
                uint64_t h = strtoull(p, &p, 16), got = gg_fnv_floats(x, n);
                cr_assert_eq(got, h, "%s: generated vector hash %016" PRIx64 ", rand's %016" PRIx64, name, got, h);
            }
            rg_put(&bk, name, x, n);
            if (have_wi)
                sl_draw_rand_wi_free(&wi);
            have_wi = 0;
            rg_named *v = rg_get(&bk, name);
            sl_draw_rand_status st = sl_draw_rand_wi_new(&wi, v->x, v->n, 8, NULL);
            /* the next record says what rand did; keep the status in the book entry's name slot */
            if (st == SL_RAND_OK)
                have_wi = 1;
            snprintf(lastname, sizeof lastname, "%s", rg_status(st));
        } else if (!strcmp(kind, "table")) {
            char *name = rg_tok(&p);
            size_t ncum = strtoul(p, &p, 10);
            uint64_t h = strtoull(p, &p, 16);
            uint32_t total = (uint32_t)strtoul(p, &p, 16), scale = (uint32_t)strtoul(p, &p, 16);
            cr_assert(have_wi, "%s: rand built a table, we report %s", name, lastname);
            cr_assert_eq(wi.n - 1, ncum, "%s: %zu stored sums, rand %zu", name, wi.n - 1, ncum);
            uint64_t got = gg_fnv_floats(wi.cum, wi.n - 1);
            cr_assert_eq(got, h, "%s: stored sums hash %016" PRIx64 ", rand %016" PRIx64, name, got, h);
            cr_assert_eq(gg_fbits(wi.total), total, "%s: total %08x, rand %08x", name, gg_fbits(wi.total), total);
            cr_assert_eq(gg_fbits(wi.scale), scale, "%s: scale %08x (%.9g), rand %08x (%.9g)", name, gg_fbits(wi.scale),
                         (double)wi.scale, scale, (double)gg_bitsf(scale));
            tl->tables++;
        } else if (!strcmp(kind, "draw")) {
            char *name = rg_tok(&p);
            uint64_t seed = strtoull(p, &p, 10);
            size_t n = strtoul(p, &p, 10);
            cr_assert(have_wi, "%s: no table", name);
            sl_rng r = rg_stdrng(seed);
            for (size_t i = 0; i < n; i++) {
                unsigned long want = strtoul(p, &p, 10);
                size_t got = sl_draw_rand_wi_sample(&wi, &r);
                cr_assert_eq(got, want, "%s seed %" PRIu64 " draw %zu: observed %zu, rand %lu", name, seed, i, got,
                             want);
            }
            unsigned long long words = strtoull(strstr(p, "words") + 5, &p, 10);
            uint32_t next = (uint32_t)strtoul(strstr(p, "next") + 4, NULL, 16);
            cr_assert_eq(r.words, words, "%s seed %" PRIu64 ": %" PRIu64 " words, rand %llu", name, seed, r.words,
                         words);
            uint32_t gn = (uint32_t)sl_rng_next(&r);
            cr_assert_eq(gn, next, "%s seed %" PRIu64 ": next word %08x, rand %08x", name, seed, gn, next);
            sl_rng_release(&r);
            tl->draws++;
            tl->tokens += n;
        } else if (!strcmp(kind, "err") || !strcmp(kind, "panic")) {
            char *name = rg_tok(&p);
            const char *want = !strcmp(kind, "panic") ? "panic" : p;
            cr_assert_str_eq(lastname, want, "%s: we report %s, rand %s %s", name, lastname, kind, p);
            tl->errors++;
        } else if (!strcmp(kind, "logits")) {
            char *name = rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            rg_put(&bk, name, rg_hex_floats(&p, n), n);
        } else if (!strcmp(kind, "genlogits")) {
            char *name = rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            uint64_t gs = strtoull(p, &p, 10), h = strtoull(p, &p, 16);
            float *x = gg_logits(gs, n);
            cr_assert_eq(gg_fnv_floats(x, n), h, "%s: generated logits differ from the oracle's", name);
            rg_put(&bk, name, x, n);
        } else if (!strcmp(kind, "lp")) {
            /* lp NAME SAMPLING.. simd=X seed S n N : tokens | words W status */
            char *name = rg_tok(&p);
            sl_logits_candle_cfg cfg;
            memset(&cfg, 0, sizeof cfg);
            char *mode = rg_tok(&p);
            cfg.sampling = !strcmp(mode, "argmax") ? SL_CANDLE_ARGMAX
                           : !strcmp(mode, "all")  ? SL_CANDLE_ALL
                           : !strcmp(mode, "topk") ? SL_CANDLE_TOPK
                           : !strcmp(mode, "topp") ? SL_CANDLE_TOPP
                                                   : SL_CANDLE_TOPK_TOPP;
            for (;;) {
                char *tok = rg_tok(&p);
                if (!strncmp(tok, "K=", 2))
                    cfg.k = strtoul(tok + 2, NULL, 10);
                else if (!strncmp(tok, "P=", 2))
                    cfg.p = strtod(tok + 2, NULL);
                else if (!strncmp(tok, "T=", 2))
                    cfg.temperature = strtod(tok + 2, NULL);
                else if (!strncmp(tok, "simd=", 5)) {
                    cfg.simd_sum = tok[5] == '1';
                    break;
                }
            }
            rg_tok(&p); /* seed */
            uint64_t seed = strtoull(p, &p, 10);
            rg_tok(&p); /* n */
            size_t n = strtoul(p, &p, 10);
            rg_tok(&p); /* : */
            rg_named *v = rg_get(&bk, name);
            if (have_last)
                lp_free(&last);
            lp_run(v->x, v->n, &cfg, seed, n, &last);
            have_last = 1;
            size_t i = 0;
            for (;; i++) {
                char *tok = rg_tok(&p);
                if (!strcmp(tok, "|"))
                    break;
                cr_assert(i < last.ntok, "%s %s seed %" PRIu64 ": rand drew token %zu (%s), we stopped (%s)", name,
                          mode, seed, i, tok, last.status);
                long want = strtol(tok, NULL, 10);
                cr_assert_eq(last.tokens[i], want, "%s %s seed %" PRIu64 " step %zu: observed %ld, candle %ld", name,
                             mode, seed, i, last.tokens[i], want);
            }
            cr_assert_eq(i, last.ntok, "%s %s: %zu tokens, candle %zu", name, mode, last.ntok, i);
            rg_tok(&p); /* words */
            unsigned long long words = strtoull(rg_tok(&p), NULL, 10);
            cr_assert_eq(last.words, words, "%s %s seed %" PRIu64 ": %" PRIu64 " words, candle %llu", name, mode, seed,
                         last.words, words);
            while (*p == ' ')
                p++;
            cr_assert_str_eq(last.status, p, "%s %s seed %" PRIu64 ": we report '%s', candle '%s'", name, mode, seed,
                             last.status, p);
            tl->lps++;
            tl->tokens += i;
        } else if (!strcmp(kind, "final")) {
            char *name = rg_tok(&p);
            size_t m = strtoul(p, &p, 10);
            uint64_t h = strtoull(p, &p, 16);
            cr_assert(have_last && last.has_final, "%s: no distribution to compare", name);
            cr_assert_eq(last.m, m, "%s: %zu weights drawn over, candle %zu", name, last.m, m);
            uint32_t *pairs = malloc((2 * m + 1) * sizeof *pairs);
            for (size_t i = 0; i < m; i++) {
                pairs[2 * i] = (uint32_t)last.order[i];
                pairs[2 * i + 1] = gg_fbits(last.weights[i]);
            }
            uint64_t got = gg_fnv_words(pairs, 2 * m);
            if (got != h) /* say where, for the small ones */
                for (size_t i = 0; i < m && *p; i++) {
                    unsigned long idx = strtoul(p, &p, 10);
                    uint32_t bits = (uint32_t)strtoul(p + 1, &p, 16);
                    cr_assert(pairs[2 * i] == idx && pairs[2 * i + 1] == bits,
                              "%s position %zu: token %u weight %08x, candle token %lu weight %08x", name, i,
                              pairs[2 * i], pairs[2 * i + 1], idx, bits);
                }
            cr_assert_eq(got, h, "%s: distribution hash %016" PRIx64 ", candle %016" PRIx64, name, got, h);
            free(pairs);
            tl->finals++;
        } else if (!strcmp(kind, "sel")) {
            size_t V = strtoul(p, &p, 10), k = strtoul(p, &p, 10);
            uint64_t q = strtoull(p, &p, 10), gs = strtoull(p, &p, 10), h = strtoull(p, &p, 16);
            smix g = {gs};
            float *prs = malloc(V * sizeof *prs);
            size_t *idx = malloc(V * sizeof *idx);
            uint32_t *w = malloc(V * sizeof *w);
            for (size_t i = 0; i < V; i++) {
                uint64_t x = gg_smix(&g.s) >> 40;
                prs[i] = q == 0 ? (float)(uint32_t)x * (1.0f / 16777216.0f) : (float)(x % q) / (float)q;
                idx[i] = i;
            }
            sl_error e;
            cr_assert_eq(sl_logits_candle_select_nth(idx, V, k, prs, &e), 0, "%s", e.msg);
            for (size_t i = 0; i < V; i++)
                w[i] = (uint32_t)idx[i];
            uint64_t got = gg_fnv_words(w, V);
            if (got != h)
                for (size_t i = 0; i < V && *p; i++) {
                    unsigned long want = strtoul(p, &p, 10);
                    cr_assert_eq(idx[i], want, "select V=%zu k=%zu q=%" PRIu64 ": position %zu holds %zu, std %lu", V,
                                 k, q, i, idx[i], want);
                }
            cr_assert_eq(got, h, "select V=%zu k=%zu q=%" PRIu64 ": order hash %016" PRIx64 ", std %016" PRIx64, V, k,
                         q, got, h);
            free(prs);
            free(idx);
            free(w);
            tl->sels++;
        } else if (!strcmp(kind, "selp")) {
            size_t V = strtoul(p, &p, 10), k = strtoul(p, &p, 10);
            char *pat = rg_tok(&p);
            uint64_t h = strtoull(p, &p, 16);
            smix g = {7};
            float *prs = malloc(V * sizeof *prs);
            size_t *idx = malloc(V * sizeof *idx);
            uint32_t *w = malloc(V * sizeof *w);
            for (size_t i = 0; i < V; i++) {
                prs[i] = !strcmp(pat, "asc")     ? (float)i / (float)V
                         : !strcmp(pat, "desc")  ? (float)(V - i) / (float)V
                         : !strcmp(pat, "organ") ? (float)(i < V / 2 ? i : V - i) / (float)V
                         : !strcmp(pat, "saw")   ? (float)(i % 1000) / 1000.0f
                                                 : gg_unit(&g.s);
                idx[i] = i;
            }
            sl_error e;
            cr_assert_eq(sl_logits_candle_select_nth(idx, V, k, prs, &e), 0, "%s", e.msg);
            for (size_t i = 0; i < V; i++)
                w[i] = (uint32_t)idx[i];
            uint64_t got = gg_fnv_words(w, V);
            cr_assert_eq(got, h, "select %s V=%zu k=%zu: order hash %016" PRIx64 ", std %016" PRIx64, pat, V, k, got,
                         h);
            free(prs);
            free(idx);
            free(w);
            tl->sels++;
        } else {
            cr_assert_fail("%s: unknown record '%s'", path, kind);
        }
    }
    if (have_last)
        lp_free(&last);
    if (have_wi)
        sl_draw_rand_wi_free(&wi);
    rg_free(&bk);
    free(t);
}

/* ---------------------------------------------------------------- the tests */

Test(replay_candle, weighted_index)
{
    tally tl = {0};
    replay("data/golden/rand_wi.txt", &tl);
    cr_assert(tl.tables == 33 && tl.draws == 165 && tl.errors == 15 && tl.tokens == 61000,
              "checked %zu tables, %zu draw runs (%zu tokens), %zu errors: golden file changed?", tl.tables, tl.draws,
              tl.tokens, tl.errors);
}

Test(replay_candle, select_nth_unstable_order)
{
    tally tl = {0};
    replay("data/golden/rand_select.txt", &tl);
    cr_assert_eq(tl.sels, 1072 + 105, "%zu select orders checked", tl.sels);
}

Test(replay_candle, logits_processor)
{
    tally tl = {0};
    replay("data/golden/rand_candle.txt", &tl);
    cr_assert(tl.lps == 93 && tl.finals == 83, "checked %zu runs, %zu distributions, %zu tokens", tl.lps, tl.finals,
              tl.tokens);
}

Test(replay_candle, random_seeds_vectors_pipelines)
{
    tally tl = {0};
    replay("data/golden/rand_fuzz.txt", &tl);
    cr_assert(tl.tables + tl.errors == 300 && tl.lps == 200, "checked %zu tables, %zu errors, %zu runs, %zu tokens",
              tl.tables, tl.errors, tl.lps, tl.tokens);
}

/* The tie of 000_35ecf9df7ca706aa.txt through the command line: logits
 * [3,2,2,1], k = 2, 10,000 draws with seed 42 are candle's [7349, 2651, 0, 0],
 * and the token sequence equals the golden run token for token. */
Test(replay_candle, cli_topk_tie_3221)
{
    sl_test_run r = sl_test_cli("draw --framework candle --logits 3,2,2,1 --temperature 1 --top-k 2 --seed 42 "
                                "--n 10000 --counts");
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "0\t7349\n1\t2651\n2\t0\n3\t0\n", "observed counts:\n%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework candle --logits 3,2,2,1 --temperature 1 --top-k 2 --seed 42 --n 10000");
    cr_assert_eq(r.status, 0);
    char *g = sl_test_slurp("data/golden/rand_candle.txt");
    char *line = strstr(g, "lp t3221 topk K=2 T=1e0 simd=0 seed 42 n 10000 :");
    cr_assert_not_null(line);
    line = strchr(line, ':') + 1;
    char *o = r.out;
    for (size_t i = 0; i < 10000; i++) {
        long want = strtol(line, &line, 10), got = strtol(o, &o, 10);
        cr_assert_eq(got, want, "draw %zu: samplab %ld, candle %ld", i, got, want);
    }
    free(g);
    sl_test_run_free(&r);
}

#define CANDLE_V "candle 0.11 with rand 0.9 (read from source; 0.10.3 measured the same)"

Test(replay_candle, cli_json_words_and_probs)
{
    /* the golden "odd_weights" vector, seed 42: same tokens through the CLI, one word per draw */
    sl_test_run r = sl_test_cli("draw --framework candle --probs 0.1,0.2,0.3,0.4,0.5,0.6,0.7 --seed 42 --n 5 --json");
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *g = sl_test_slurp("data/golden/rand_wi.txt");
    char *line = strstr(g, "draw odd_weights 42 200");
    cr_assert_not_null(line);
    line += strlen("draw odd_weights 42 200");
    char want[256] = "{\"tokens\":[";
    for (int i = 0; i < 5; i++) {
        long t = strtol(line, &line, 10);
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%ld", i ? "," : "", t);
    }
    strcat(want, "],\"rng\":{\"name\":\"rand-stdrng-chacha12\",\"word_bits\":32,\"words\":5},\"version\":\"" CANDLE_V "\"}\n");
    cr_assert_str_eq(r.out, want, "observed %s", r.out);
    free(g);
    sl_test_run_free(&r);
    /* ArgMax (no temperature) consumes nothing and keeps the first maximum */
    r = sl_test_cli("draw --framework candle --logits 1,5,5,0 --n 3 --json");
    cr_assert_str_eq(r.out, "{\"tokens\":[1,1,1],\"rng\":{\"name\":\"rand-stdrng-chacha12\",\"word_bits\":32,\"words\":0},"
                            "\"version\":\"" CANDLE_V "\"}\n",
                     "observed %s", r.out);
    sl_test_run_free(&r);
}

Test(replay_candle, cli_errors_as_rand)
{
    static const struct {
        const char *args, *needle;
    } cases[] = {
        {"--probs 1,nan,2", "InvalidWeight"},
        {"--probs 1,-2,3", "entry 1 is -2"},
        {"--probs 1,-inf", "InvalidWeight"},
        {"--probs 0,0,-0", "InsufficientNonZero"}, /* the default, rand 0.9's name */
        {"--rand 0.8 --probs 0,0,-0", "AllWeightsZero"},
        {"--rand 0.10 --probs 3e38,3e38", "WeightedIndex::new returns Overflow (rand 0.10; 0 words drawn)"},
        {"--rand 0.9 --probs 3e38,3e38", "rand panics in Uniform::new"},
        {"--probs 1,inf", "range overflow"},
        {"--probs 3e38,3e38", "overflow"},
        {"--logits 1,nan,2 --temperature 1", "InvalidWeight"},
        {"--logits 1,2,3 --temperature 1 --top-k 0", "NoItem"},
        {"--logits 1,2,3 --temperature 1 --top-k 5 --top-p 0", "AllWeightsZero"},
        {"--probs 1,2 --temperature 1", "--logits"},
        {"--probs 1,2 --seed 18446744073709551616", "below 2^64"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[256];
        snprintf(args, sizeof args, "draw --framework candle %s --n 3", cases[i].args);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 2, "%s: exit %d", args, r.status);
        cr_assert_str_empty(r.out, "%s: stdout not empty: %s", args, r.out);
        cr_assert_eq(sl_test_lines(r.err), 1, "%s: stderr is not one line: %s", args, r.err);
        cr_assert_not_null(strstr(r.err, cases[i].needle), "%s: stderr lacks '%s': %s", args, cases[i].needle, r.err);
        sl_test_run_free(&r);
    }
    /* the exact audit of the 0.9/0.10 line says what 0.10.3 does with an overflowing total */
    sl_test_run r = sl_test_cli("exact --framework candle --rand 0.10 --probs 3e38,3e38");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_not_null(strstr(r.out, "WeightedIndex::new returns Err(Overflow) (rand 0.10.3"), "%s", r.out);
    sl_test_run_free(&r);
}

Test(replay_candle, repeat_penalty)
{
    /* candle utils::apply_repeat_penalty: distinct ids once, >= 0 (and -0.0) divided, < 0 multiplied,
     * ids beyond V skipped */
    float lg[5] = {2.0f, -1.0f, -0.0f, 3.0f, 0.5f};
    long ctx[] = {0, 1, 1, 2, 0, 7, 4};
    long changed = -1;
    sl_error e;
    int rc = sl_logits_candle_repeat_penalty(lg, 5, 2.0f, ctx, sizeof ctx / sizeof ctx[0], &changed, &e);
    cr_assert_eq(rc, 0, "%s", e.msg);
    cr_assert_eq(changed, 4, "changed %ld", changed);
    cr_assert(lg[0] == 1.0f && lg[1] == -2.0f && lg[3] == 3.0f && lg[4] == 0.25f, "got %g %g %g %g", (double)lg[0],
              (double)lg[1], (double)lg[3], (double)lg[4]);
    cr_assert(lg[2] == 0.0f && signbit(lg[2]), "-0.0 / 2 stays -0.0");
    /* through the CLI: penalising token 0 of [3,2,2,1] by 10 makes ArgMax pick token 1 */
    sl_test_run r = sl_test_cli("draw --framework candle --logits 3,2,2,1 --repetition-penalty 10 --context 0 --n 1");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "1\n");
    sl_test_run_free(&r);
}

Test(replay_candle, final_distribution_in_token_order)
{
    /* [3,2,2,1], T = 1, k = 2: candle keeps tokens 0 and 1 (e^3 : e^2), never 2 or 3 */
    const float lg[4] = {3, 2, 2, 1};
    sl_logits_candle_cfg cfg;
    sl_error err;
    cr_assert_eq(sl_logits_candle_cfg_make(1, 1.0, 1, 2, 0, 0, 0, &cfg, &err), 0);
    double p[4];
    cr_assert_eq(sl_logits_candle_probs(lg, 4, &cfg, p, &err), 0, "%s", err.msg);
    double e = exp(1.0);
    cr_assert(fabs(p[0] - e / (e + 1)) < 1e-6 && fabs(p[1] - 1 / (e + 1)) < 1e-6 && p[2] == 0 && p[3] == 0,
              "p = %.9g %.9g %.9g %.9g", p[0], p[1], p[2], p[3]);
    /* ArgMax is one-hot at the first maximum; a NaN logit is rand's InvalidWeight */
    cr_assert_eq(sl_logits_candle_cfg_make(0, 0, 0, 0, 0, 0, 0, &cfg, &err), 0);
    const float tie[3] = {1, 5, 5};
    cr_assert_eq(sl_logits_candle_probs(tie, 3, &cfg, p, &err), 0);
    cr_assert(p[1] == 1.0 && p[2] == 0.0);
    const float bad[3] = {1, NAN, 0};
    cr_assert_eq(sl_logits_candle_cfg_make(1, 1.0, 0, 0, 0, 0, 0, &cfg, &err), 0);
    cr_assert_neq(sl_logits_candle_probs(bad, 3, &cfg, p, &err), 0);
    cr_assert_not_null(strstr(err.msg, "InvalidWeight"), "%s", err.msg);
}

Test(replay_candle, nan_temperature_as_candle)
{
    /* candle: Some(NaN) is not < 1e-7, so Sampling::All with NaN weights -> InvalidWeight */
    sl_logits_candle_cfg cfg;
    sl_error err;
    cr_assert_eq(sl_logits_candle_cfg_make(1, NAN, 0, 0, 0, 0, 0, &cfg, &err), 0);
    cr_assert_eq(cfg.sampling, SL_CANDLE_ALL);
    const float lg[2] = {1, 2};
    double p[2];
    cr_assert_neq(sl_logits_candle_probs(lg, 2, &cfg, p, &err), 0);
    cr_assert_not_null(strstr(err.msg, "InvalidWeight"), "%s", err.msg);
}
