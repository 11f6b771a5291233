/* test_framework_ollama.c — `--framework ollama --ollama 0.24` end to end:
 * check exposes Ollama issue #15783 (penalties accepted, never applied), the
 * refusals (one line, exit 2), the words per draw, and the exact audit against
 * a brute force over every Float32 value; and bit-exactness against Ollama's
 * own Go sampler: every record of data/golden/current/ollama_0.24.tsv (Ollama
 * v0.24.0 = c28ddc0a, sample/samplers.go and sample/transforms.go, built with
 * Go 1.27.3 in Debian sid on amd64 with AVX+FMA, by
 * analysis/golden/current/ollama_golden.sh) replayed through a samplab session:
 * the same logits (rebuilt here from the generator golden_test.go uses, their
 * FNV-1a hash compared), one session reused across the steps as Ollama reuses
 * its Sampler, each drawn token accepted; the tokens, the words (Go's generator
 * wrapped in a counter) and the NaN-sum failures must all be equal, and so
 * must the probabilities of step 0 as the draw receives them (ids and float32
 * bits, hashed; Go's side computed by the package's own topK, temperature,
 * softmax, topP and minP). ollama_exp.tsv holds math.Exp's bits for 20,009
 * float32 arguments, compared with sl_logits_go_exp one by one. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

/* T steps of one logits row: token 0 at logit 4, the 49 others at 0. With a
 * repeat penalty of 1.1 over the last 64 ids, token 0 (always among them)
 * falls from e^4 / (e^4 + 49) = 0.527 to e^3.64 / (e^3.64 + 49) = 0.436. */
static char *gen_logits_file(size_t T)
{
    char row[256];
    size_t n = (size_t)snprintf(row, sizeof row, "4");
    for (int i = 1; i < 50; i++)
        n += (size_t)snprintf(row + n, sizeof row - n, ",0");
    row[n++] = '\n';
    char *buf = malloc(n * T);
    for (size_t t = 0; t < T; t++)
        memcpy(buf + t * n, row, n);
    char *path = sl_test_tmpfile(".txt", buf, n * T);
    free(buf);
    return path;
}

Test(framework_ollama, check_exposes_penalties_that_ollama_0_24_ignores)
{
    char *lg = gen_logits_file(1000), cmd[1024];
    /* the log: Ollama 0.24 asked for repeat_penalty 1.1, which its sampler ignores */
    snprintf(cmd, sizeof cmd, "replay --framework ollama --ollama 0.24 --seed 7 --logits %s --temperature 1 "
             "--top-k 0 --top-p 1 --repetition-penalty 1.1", lg);
    sl_test_run r = sl_test_cli(cmd);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "samplab replay: note: ollama 0.24:") && strstr(r.err, "#15783"), "%s", r.err);
    char *tok = sl_test_tmpfile(".txt", r.out, strlen(r.out));
    sl_test_run_free(&r);
    /* the verdict, not the power table; llama.cpp below with its default filters off */
    const char *S = "--logits %s --tokens %s --temperature 1 --top-k 0 --top-p 1 --trials 0";
    char set[512];
    snprintf(set, sizeof set, S, lg, tok);
    /* seeded: every token is the one Ollama 0.24 draws, the penalty accepted and noted */
    snprintf(cmd, sizeof cmd, "check --framework ollama --ollama 0.24 %s --repetition-penalty 1.1 "
             "--seed 7", set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "every observed token is the one the seeded sampler draws"), "%s", r.out);
    cr_expect(strstr(r.err, "#15783"), "%s", r.err);
    sl_test_run_free(&r);
    /* as a distribution: Ollama 0.24 with the penalty passes */
    snprintf(cmd, sizeof cmd, "check --framework ollama --ollama 0.24 %s --repetition-penalty 1.1",
             set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    sl_test_run_free(&r);
    /* llama.cpp with the same penalty (which it applies) rejects the log ... */
    snprintf(cmd, sizeof cmd, "check --framework llamacpp %s --min-p 0 --repetition-penalty 1.1", set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "verdict: rejected"), "%s", r.out);
    sl_test_run_free(&r);
    /* ... and passes it without the penalty: the penalty is all that differs */
    snprintf(cmd, sizeof cmd, "check --framework llamacpp %s --min-p 0", set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    sl_test_run_free(&r);
    unlink(lg);
    unlink(tok);
    free(lg);
    free(tok);
}

static void expect_refusal(const char *args, const char *words)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 2, "%s: exit %d", args, r.status);
    cr_expect_str_empty(r.out, "%s: stdout %s", args, r.out);
    size_t nl = 0;
    for (const char *p = r.err; *p; p++)
        nl += *p == '\n';
    cr_expect_eq(nl, 1, "%s: one line: %s", args, r.err);
    cr_expect(strstr(r.err, words), "%s: %s", args, r.err);
    sl_test_run_free(&r);
}

Test(framework_ollama, refusals_are_one_line_exit_2)
{
    expect_refusal("draw --framework ollama --logits 3,2,1 --seed 1", "needs its release line: --ollama 0.32");
    expect_refusal("pipeline --framework ollama --logits 3,2,1", "needs its release line: --ollama 0.32");
    expect_refusal("exact --framework ollama --logits 3,2,1", "needs its release line: --ollama 0.32");
    expect_refusal("draw --framework ollama --ollama 0.24 --logits 3,2,1", "needs --seed");
    expect_refusal("draw --framework ollama --ollama 0.24 --logits 3,2,1 --seed 18446744073709551615",
                   "Ollama's random seed");
    expect_refusal("draw --framework ollama --ollama 0.31 --logits 3,2,1 --seed 1", "--ollama takes 0.24, 0.32, 0.30, not '0.31'");
    expect_refusal("draw --framework ollama --ollama 0.24 --probs 3,2,1 --seed 1", "--probs");
    expect_refusal("draw --framework ollama --ollama 0.24 --logits 3,2,1 --seed 1 --typical 0.5", "--typical");
    expect_refusal("draw --framework llamacpp --ollama 0.24 --logits 3,2,1 --seed 1", "--ollama");
}

Test(framework_ollama, one_word_per_draw_none_when_greedy)
{
    sl_test_run r = sl_test_cli("draw --framework ollama --ollama 0.24 --logits 3,2,2,1 --seed 1 --n 25 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"name\":\"go-pcg\",\"word_bits\":64,\"words\":25"), "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework ollama --ollama 0.24 --logits 3,2,2,1 --seed 1 --n 25 --json --temperature 0");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"words\":0"), "%s", r.out);
    cr_expect(strstr(r.out, "\"tokens\":[0,0,0"), "%s", r.out);
    sl_test_run_free(&r);
    /* a temperature below 0 is 0 (greedy), with a note */
    r = sl_test_cli("draw --framework ollama --ollama 0.24 --logits 1,3,3 --seed 1 --temperature -1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "1\n");
    cr_expect(strstr(r.err, "greedy"), "%s", r.err);
    sl_test_run_free(&r);
}

/* The audit against every one of the 2^24 Float32 values, with the lower bound
 * done here as a linear scan over the float32 running sums. */
Test(framework_ollama, exact_counts_equal_a_brute_force_over_every_float32)
{
    const float lg[5] = {1.5f, -0.25f, 1.5f, 0.0f, -3.0f};
    double ld[5];
    float lf[5];
    for (int i = 0; i < 5; i++)
        ld[i] = lf[i] = lg[i];
    sl_stat_exact_input in = {.V = 5, .d = ld, .f = lf, .logits_f = lg, .source = "test"};
    sl_stat_exact_result res;
    sl_error err;
    cr_assert_eq(sl_stat_exact_run(&sl_fw_ollama_exact, &in, &res, &err), 0, "%s", err.msg);
    cr_assert_eq(res.bits, 24);
    /* Ollama's array: the tokens sorted by descending logit (ties as Go's sort leaves them) */
    sl_logits_go_tok t[5];
    for (int i = 0; i < 5; i++)
        t[i].id = i, t[i].value = lg[i];
    sl_logits_go_sort_desc(t, 5);
    float mx = t[0].value, sum = 0, cum[5], c = 0;
    for (int i = 0; i < 5; i++)
        sum += t[i].value = (float)sl_logits_go_exp((double)(t[i].value - mx), 1);
    for (int i = 0; i < 5; i++)
        cum[i] = c += t[i].value /= sum;
    uint64_t brute[5] = {0};
    for (uint32_t u = 0; u < (1u << 24); u++) {
        float r = (float)u * 0x1p-24f * cum[4];
        int j = 0;
        while (j < 4 && cum[j] < r)
            j++;
        brute[t[j].id]++;
    }
    for (int i = 0; i < 5; i++)
        cr_expect_eq((uint64_t)res.count[i], brute[i], "token %d: audit %llu, brute force %llu", i,
                     (unsigned long long)res.count[i], (unsigned long long)brute[i]);
    sl_stat_exact_result_free(&res);
}

Test(framework_ollama, go_exp_is_close_to_exp_and_exact_at_0)
{
    cr_assert_eq(sl_logits_go_exp(0.0, 1), 1.0);
    cr_assert_eq(sl_logits_go_exp(0.0, 0), 1.0);
    cr_assert_eq(sl_logits_go_exp(-INFINITY, 1), 0.0);
    cr_assert(isnan(sl_logits_go_exp(NAN, 1)));
    cr_assert_eq(sl_logits_go_exp(710.0, 1), INFINITY);
    for (double x = -745.0; x < 709.0; x += 0.37) {
        double a = sl_logits_go_exp(x, 1), b = exp(x);
        cr_expect(fabs(a - b) <= 2 * fabs(nextafter(b, INFINITY) - b) || b < 0x1p-1000, "x=%.17g: %.17g vs %.17g",
                  x, a, b);
    }
}

Test(framework_ollama, go_sort_orders_descending)
{
    sl_logits_go_tok t[1000];
    uint32_t x = 1;
    for (int i = 0; i < 1000; i++) {
        x = x * 1103515245u + 12345u;
        t[i].id = i;
        t[i].value = (float)((x >> 16) % 17);
    }
    sl_logits_go_sort_desc(t, 1000);
    for (int i = 1; i < 1000; i++)
        cr_assert_geq(t[i - 1].value, t[i].value, "position %d", i);
}

/* ---------------------------------------------------------------- Ollama v0.24.0's own records */

static uint64_t sm64_next(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float centered(uint64_t w)
{
    return (float)((int32_t)(w >> 40) - (1 << 23));
}

/* golden_test.go's logits(kind, V, g) */
static void gen_logits(const char *kind, size_t V, uint64_t g, float *out)
{
    uint64_t x = g;
    size_t special = (size_t)(g % V);
    for (size_t i = 0; i < V; i++) {
        uint64_t w = sm64_next(&x);
        if (!strcmp(kind, "rand") || !strcmp(kind, "peak") || !strcmp(kind, "nan") || !strcmp(kind, "posinf"))
            out[i] = centered(w) * 0x1p-20f;
        else if (!strcmp(kind, "ties"))
            out[i] = (float)((int32_t)(w >> 61) - 4) * 0.5f;
        else if (!strcmp(kind, "neginf"))
            out[i] = (w & 3) == 0 ? -INFINITY : centered(w) * 0x1p-20f;
        else if (!strcmp(kind, "huge"))
            out[i] = centered(w) * 0x1p100f;
        else if (!strcmp(kind, "tiny"))
            out[i] = centered(w) * 0x1p-149f;
        else if (!strcmp(kind, "const"))
            out[i] = 1.5f;
        else
            out[i] = -INFINITY; /* oneinf, allinf */
    }
    if (!strcmp(kind, "peak"))
        out[special] = 40.0f;
    else if (!strcmp(kind, "nan"))
        out[special] = NAN;
    else if (!strcmp(kind, "posinf"))
        out[special] = INFINITY;
    else if (!strcmp(kind, "oneinf"))
        out[special] = 0.0f;
}

static uint64_t fnv(uint64_t h, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &v[i], sizeof b);
        for (int k = 0; k < 4; k++) {
            h ^= (b >> (8 * k)) & 0xFF;
            h *= 0x100000001b3ull;
        }
    }
    return h;
}

typedef struct golden_case {
    long id;
    char kind[16];
    size_t V, steps;
    uint64_t g, seed, hash, words;
    double T, P, M;
    long K;
    char tokens[4096];
    char error[128];
    char phash[24];
} golden_case;

static int parse_case(char *line, golden_case *c)
{
    char *f[15];
    size_t n = 0;
    for (char *p = strtok(line, "\t\n"); p && n < 15; p = strtok(NULL, "\t\n"))
        f[n++] = p;
    if (n != 15)
        return 0;
    c->id = strtol(f[0], NULL, 10);
    snprintf(c->kind, sizeof c->kind, "%s", f[1]);
    c->V = strtoull(f[2], NULL, 10);
    c->g = strtoull(f[3], NULL, 10);
    c->steps = strtoull(f[4], NULL, 10);
    c->T = strtod(f[5], NULL);
    c->K = strtol(f[6], NULL, 10);
    c->P = strtod(f[7], NULL);
    c->M = strtod(f[8], NULL);
    c->seed = strtoull(f[9], NULL, 10);
    c->hash = strtoull(f[10], NULL, 16);
    snprintf(c->tokens, sizeof c->tokens, "%s", f[11]);
    c->words = strtoull(f[12], NULL, 10);
    snprintf(c->error, sizeof c->error, "%s", f[13]);
    snprintf(c->phash, sizeof c->phash, "%s", f[14]);
    return 1;
}

/* The FNV-1a hash of (id, value bits) of what the draw receives for step 0,
 * as golden_test.go's phash writes it ("-" at temperature 0). */
static void probs_hash(const golden_case *c, char *out, size_t len)
{
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.has_temperature = cfg.has_top_k = cfg.has_top_p = cfg.has_min_p = 1;
    cfg.temperature = c->T;
    cfg.top_k = c->K;
    cfg.top_p = c->P;
    cfg.min_p = c->M;
    sl_logits_ollama_cfg oc;
    sl_logits_ollama_cfg_make(&cfg, 1, &oc);
    float *lg = malloc(c->V * sizeof *lg);
    sl_logits_go_tok *ts = malloc(c->V * sizeof *ts), *heap = malloc(c->V * sizeof *heap);
    cr_assert(lg && ts && heap);
    gen_logits(c->kind, c->V, c->g, lg);
    sl_logits_ollama_out r;
    cr_assert_eq(sl_logits_ollama_apply(lg, c->V, &oc, ts, heap, &r), 0);
    if (r.greedy) {
        snprintf(out, len, "-");
    } else {
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < r.n; i++) {
            uint32_t b[2] = {(uint32_t)r.tok[i].id, 0};
            memcpy(&b[1], &r.tok[i].value, sizeof b[1]);
            for (int j = 0; j < 2; j++)
                for (int k = 0; k < 4; k++) {
                    h ^= (b[j] >> (8 * k)) & 0xFF;
                    h *= 0x100000001b3ull;
                }
        }
        snprintf(out, len, "%016" PRIx64, h);
    }
    free(lg);
    free(ts);
    free(heap);
}

/* Replays one case; returns the number of differences (0 or 1) and logs them. */
static int replay(const golden_case *c, size_t *steps_done)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.n = o.k = 1;
    o.variant = "0.24";
    o.has_seed = 1;
    o.seed.lo = c->seed;
    o.cfg.has_temperature = o.cfg.has_top_k = o.cfg.has_top_p = o.cfg.has_min_p = 1;
    o.cfg.temperature = c->T;
    o.cfg.top_k = c->K;
    o.cfg.top_p = c->P;
    o.cfg.min_p = c->M;
    sl_vec v;
    sl_error err;
    cr_assert_eq(sl_base_vec_alloc(&v, c->V, "golden", &err), 0);
    o.logits = &v;
    sl_fw_session s;
    cr_assert_eq(sl_fw_session_open(&s, &sl_fw_ollama_type, &o, &err), 0, "case %ld: %s", c->id, err.msg);
    char got[4096] = "";
    size_t len = 0;
    uint64_t h = 0xcbf29ce484222325ull, words = 0;
    int failed = 0;
    for (size_t t = 0; t < c->steps; t++) {
        gen_logits(c->kind, c->V, c->g + (uint64_t)t * 1000003u, v.f);
        for (size_t i = 0; i < c->V; i++)
            v.d[i] = v.f[i];
        h = fnv(h, v.f, c->V);
        sl_fw_session_forget(&s);
        sl_fw_step st;
        uint64_t before = s.rng.words;
        int rc = sl_fw_session_step(&s, &v, &st, &err);
        words += s.rng.words - before;
        ++*steps_done;
        if (rc) {
            len += (size_t)snprintf(got + len, sizeof got - len, "%sE", t ? "," : "");
            failed = strstr(err.msg, "logits sum to NaN") != NULL;
            if (!failed)
                cr_log_error("case %ld step %zu: %s", c->id, t, err.msg);
            break;
        }
        len += (size_t)snprintf(got + len, sizeof got - len, "%s%ld", t ? "," : "", st.tokens[0]);
        cr_assert_eq(sl_fw_session_accept(&s, st.tokens[0], &err), 0);
    }
    sl_fw_session_close(&s);
    sl_base_vec_free(&v);
    cr_assert_eq(h, c->hash, "case %ld: the logits differ from Go's (hash %016" PRIx64 ", Go %016" PRIx64 ")", c->id,
                 h, c->hash);
    char ph[24];
    probs_hash(c, ph, sizeof ph);
    if (strcmp(ph, c->phash)) {
        cr_log_error("case %ld (%s V=%zu T=%g k=%ld p=%g m=%g): step 0's probabilities differ from Go's (hash %s, Go %s)",
                     c->id, c->kind, c->V, c->T, c->K, c->P, c->M, ph, c->phash);
        return 1;
    }
    int want_err = strcmp(c->error, "-") != 0;
    if (strcmp(got, c->tokens) || words != c->words || failed != want_err) {
        cr_log_error("case %ld (%s V=%zu T=%g k=%ld p=%g m=%g seed %" PRIu64 "): samplab %s (%" PRIu64
                     " words), Ollama %s (%" PRIu64 " words, %s)",
                     c->id, c->kind, c->V, c->T, c->K, c->P, c->M, c->seed, got, words, c->tokens, c->words, c->error);
        return 1;
    }
    return 0;
}

Test(framework_ollama, every_go_record_replays_token_for_token_and_word_for_word)
{
    FILE *f = fopen("data/golden/current/ollama_0.24.tsv", "r");
    cr_assert(f, "data/golden/current/ollama_0.24.tsv");
    static char line[8192];
    size_t n = 0, diff = 0, steps = 0, errors = 0, big = 0;
    golden_case c;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        cr_assert(parse_case(line, &c), "record %zu is not 15 fields", n);
        diff += (size_t)replay(&c, &steps);
        errors += strcmp(c.error, "-") != 0;
        big += c.V == 151936;
        n++;
    }
    fclose(f);
    cr_log_info("ollama 0.24: %zu Go records (%zu steps, %zu at V = 151936, %zu NaN-sum failures), %zu differences",
                n, steps, big, errors, diff);
    cr_assert_geq(n, 7000);
    cr_assert_eq(diff, 0);
}

Test(framework_ollama, go_math_exp_bit_for_bit)
{
    FILE *f = fopen("data/golden/current/ollama_exp.tsv", "r");
    cr_assert(f, "data/golden/current/ollama_exp.tsv");
    char line[128];
    size_t n = 0, bad = 0, fma_vs_sse2 = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char *e;
        uint32_t xb = (uint32_t)strtoul(line, &e, 16);
        uint64_t want = strtoull(e + 1, NULL, 16), got, other;
        float x;
        memcpy(&x, &xb, sizeof x);
        double y = sl_logits_go_exp((double)x, 1), z = sl_logits_go_exp((double)x, 0);
        memcpy(&got, &y, sizeof got);
        memcpy(&other, &z, sizeof other);
        if (got != want)
            bad++, cr_log_error("Exp(%.9g): %016" PRIx64 ", Go %016" PRIx64, (double)x, got, want);
        fma_vs_sse2 += other != want;
        n++;
    }
    fclose(f);
    cr_log_info("math.Exp: %zu values, %zu differences (the SSE2 path differs in %zu)", n, bad, fma_vs_sse2);
    cr_assert_geq(n, 20000);
    cr_assert_eq(bad, 0);
}
