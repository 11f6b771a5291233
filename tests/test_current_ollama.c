/* test_current_ollama.c — `--framework ollama --ollama 0.24` against Ollama's
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

#include "samplab.h"

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

Test(current_ollama, every_go_record_replays_token_for_token_and_word_for_word)
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

Test(current_ollama, go_math_exp_bit_for_bit)
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
