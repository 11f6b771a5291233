/* test_rng_mcg31m1.c — MKL's MCG31m1 (rng/mcg31m1.c) and torch's MKL exponential_
 * (framework/torch_mkl.c) against the real Intel MKL 2020.4: the records of
 * data/golden/mkl_vsl.txt (auto CPU branch, AVX-512 here) and
 * data/golden/mkl_vsl_avx2.txt (MKL_ENABLE_INSTRUCTIONS=AVX2), made by
 * analysis/golden/mkl_vsl_golden.sh.
 * Exact (0 differences required): raw states, seeding, skip-ahead, both uniforms,
 * long hashed runs, and the token of 1,200 torch.multinomial races over V = 49,152.
 * Close, not exact: the exponential values, since MKL's logarithm is its own; the
 * test prints how many are equal and bounds the distance in ulps. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

static const char *const golden_files[] = {"data/golden/mkl_vsl.txt", "data/golden/mkl_vsl_avx2.txt"};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
#define FNV0 0xcbf29ce484222325ULL

/* Distance in representable values between two finite values of one sign. */
static uint64_t ulps_f32(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x > y ? x - y : y - x;
}

static uint64_t ulps_f64(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    return x > y ? x - y : y - x;
}

typedef struct tally {
    size_t lines, values, bad;
} tally;

static char *next_tok(char **save)
{
    return strtok_r(NULL, " ", save);
}

/* Replays the exact records of one golden file; counts per kind. */
static void replay_exact(const char *path, tally *t)
{
    char *text = sl_test_slurp(path);
    cr_assert_not_null(text, "%s missing (sh analysis/golden/mkl_vsl_golden.sh BUILDDIR %s)", path, path);
    char *lsave = NULL;
    for (char *line = strtok_r(text, "\n", &lsave); line; line = strtok_r(NULL, "\n", &lsave)) {
        if (line[0] == '#')
            continue;
        char *save = NULL, *kind = strtok_r(line, " ", &save);
        if (!strcmp(kind, "bits") || !strcmp(kind, "skip")) {
            uint64_t seed = strtoull(next_tok(&save), NULL, 10);
            long long k = !strcmp(kind, "skip") ? strtoll(next_tok(&save), NULL, 10) : 0;
            int n = atoi(next_tok(&save));
            sl_rng_mcg31m1_state s;
            sl_rng_mcg31m1_seed(&s, (uint32_t)seed);
            sl_rng_mcg31m1_skip(&s, (uint64_t)k);
            t[0].lines++;
            for (int i = 0; i < n; i++) {
                uint32_t want = (uint32_t)strtoul(next_tok(&save), NULL, 10), got = sl_rng_mcg31m1_next(&s);
                t[0].values++;
                if (got != want) {
                    t[0].bad++;
                    cr_log_error("%s seed %" PRIu64 " skip %lld word %d: observed %u, expected %u", kind,
                                 seed, k, i, got, want);
                }
            }
        } else if (!strcmp(kind, "ud") || !strcmp(kind, "us")) {
            uint64_t seed = strtoull(next_tok(&save), NULL, 10);
            int n = atoi(next_tok(&save));
            sl_rng_mcg31m1_state s;
            sl_rng_mcg31m1_seed(&s, (uint32_t)seed);
            t[1].lines++;
            for (int i = 0; i < n; i++) {
                double want = strtod(next_tok(&save), NULL);
                uint32_t x = sl_rng_mcg31m1_next(&s);
                double got = kind[1] == 'd' ? sl_rng_mcg31m1_u01_f64(x) : (double)sl_rng_mcg31m1_u01_f32(x);
                t[1].values++;
                if (got != want) {
                    t[1].bad++;
                    cr_log_error("%s seed %" PRIu64 " value %d: observed %a, expected %a", kind, seed, i, got, want);
                }
            }
        } else if (!strcmp(kind, "hashbits")) {
            uint64_t seed = strtoull(next_tok(&save), NULL, 10);
            long long k = strtoll(next_tok(&save), NULL, 10);
            int n = atoi(next_tok(&save));
            uint64_t want = strtoull(next_tok(&save), NULL, 16), h = FNV0;
            sl_rng_mcg31m1_state s;
            sl_rng_mcg31m1_seed(&s, (uint32_t)seed);
            sl_rng_mcg31m1_skip(&s, (uint64_t)k);
            for (int i = 0; i < n; i++) {
                uint32_t w = sl_rng_mcg31m1_next(&s);
                unsigned char le[4] = {(unsigned char)w, (unsigned char)(w >> 8), (unsigned char)(w >> 16),
                                       (unsigned char)(w >> 24)};
                h = fnv(h, le, 4);
            }
            t[2].lines++;
            t[2].values += (size_t)n;
            if (h != want) {
                t[2].bad++;
                cr_log_error("hashbits seed %" PRIu64 " skip %lld n %d: observed %016" PRIx64 ", expected %016" PRIx64,
                             seed, k, n, h, want);
            }
        } else if (!strcmp(kind, "chunk")) {
            /* real MKL: the chunked fill hashes like one call (skip-ahead is exact there) */
            for (int f = 0; f < 6; f++)
                next_tok(&save);
            char *hc = next_tok(&save), *h1 = next_tok(&save);
            t[3].lines++;
            if (strcmp(hc, h1)) {
                t[3].bad++;
                cr_log_error("chunk record: MKL's chunked fill %s differs from one call %s", hc, h1);
            }
        } else if (!strcmp(kind, "argmax")) {
            char *dt = next_tok(&save);
            uint32_t seed = (uint32_t)strtoull(next_tok(&save), NULL, 10);
            size_t V = (size_t)atoi(next_tok(&save)), want = (size_t)atoi(next_tok(&save)), got = 0;
            if (!strcmp(dt, "es")) {
                float *p = malloc(V * sizeof *p), *q = malloc(V * sizeof *q);
                for (size_t i = 0; i < V; i++)
                    p[i] = (float)(1.0 / ((double)i + 1.0));
                sl_fw_torch_mkl_fill_f32(seed, q, V, 1.0, 1);
                float br = 0;
                for (size_t i = 0; i < V; i++) {
                    float r = p[i] / q[i];
                    if (i == 0 || r > br) {
                        got = i;
                        br = r;
                    }
                }
                free(p);
                free(q);
            } else {
                double *q = malloc(V * sizeof *q), br = 0;
                sl_fw_torch_mkl_fill_f64(seed, q, V, 1.0, 1);
                for (size_t i = 0; i < V; i++) {
                    double r = (1.0 / ((double)i + 1.0)) / q[i];
                    if (i == 0 || r > br) {
                        got = i;
                        br = r;
                    }
                }
                free(q);
            }
            t[4].lines++;
            if (got != want) {
                t[4].bad++;
                cr_log_error("argmax %s seed %u V %zu: observed token %zu, expected %zu", dt, seed, V, got, want);
            }
        }
    }
    free(text);
}

Test(replay_mcg31m1, golden_exact_parts)
{
    static const char *names[5] = {"raw states (bits, skip)", "uniforms (ud, us)", "hashed runs",
                                   "MKL chunk = one call", "multinomial tokens"};
    for (size_t f = 0; f < sizeof golden_files / sizeof golden_files[0]; f++) {
        tally t[5] = {{0}};
        replay_exact(golden_files[f], t);
        for (int k = 0; k < 5; k++) {
            cr_log_info("%s: %s: %zu records, %zu values, %zu differences", golden_files[f], names[k], t[k].lines,
                        t[k].values, t[k].bad);
            cr_expect_gt(t[k].lines, 0, "%s: no %s records", golden_files[f], names[k]);
            cr_expect_eq(t[k].bad, 0, "%s: %s: observed %zu differences, expected 0", golden_files[f], names[k],
                         t[k].bad);
        }
    }
}

/* The exponential values: the fma(beta, -ln(u), a) structure with glibc's log.
 * Bounds measured on these files (MKL's vsLn LA and vdLn EP against glibc); a
 * larger distance would mean a wrong uniform, seed or formula, not the log. */
Test(replay_mcg31m1, golden_exponentials_close)
{
    for (size_t f = 0; f < sizeof golden_files / sizeof golden_files[0]; f++) {
        char *text = sl_test_slurp(golden_files[f]);
        cr_assert_not_null(text);
        size_t nf = 0, eqf = 0, nd = 0, eqd = 0;
        uint64_t maxf = 0, maxd = 0;
        double maxrel_d = 0;
        char *lsave = NULL;
        for (char *line = strtok_r(text, "\n", &lsave); line; line = strtok_r(NULL, "\n", &lsave)) {
            char *save = NULL, *kind = strtok_r(line, " ", &save);
            if (strcmp(kind, "es") && strcmp(kind, "ed"))
                continue;
            next_tok(&save); /* method: ICDF and ICDF_ACCURATE agree on MKL 2020.4 */
            uint64_t seed = strtoull(next_tok(&save), NULL, 10);
            double a = strtod(next_tok(&save), NULL), beta = strtod(next_tok(&save), NULL);
            int n = atoi(next_tok(&save));
            sl_rng_mcg31m1_state s;
            sl_rng_mcg31m1_seed(&s, (uint32_t)seed);
            for (int i = 0; i < n; i++) {
                double want = strtod(next_tok(&save), NULL);
                uint32_t x = sl_rng_mcg31m1_next(&s);
                if (kind[1] == 's') {
                    float got = sl_fw_torch_mkl_expo_f32(x, (float)a, (float)beta);
                    nf++;
                    eqf += got == (float)want;
                    uint64_t d = ulps_f32(got, (float)want);
                    maxf = d > maxf ? d : maxf;
                } else {
                    double got = sl_fw_torch_mkl_expo_f64(x, a, beta);
                    nd++;
                    eqd += got == want;
                    uint64_t d = ulps_f64(got, want);
                    maxd = d > maxd ? d : maxd;
                    double rel = fabs(got - want) / fabs(want);
                    maxrel_d = rel > maxrel_d ? rel : maxrel_d;
                }
            }
        }
        free(text);
        cr_log_info("%s: float32 exponentials: %zu values, %zu equal, at most %" PRIu64 " ulps apart",
                    golden_files[f], nf, eqf, maxf);
        cr_log_info("%s: float64 exponentials: %zu values, %zu equal, at most %" PRIu64
                    " ulps apart (relative %.3g)", golden_files[f], nd, eqd, maxd, maxrel_d);
        cr_expect_gt(nf, 1000);
        cr_expect_gt(nd, 1000);
        cr_expect_leq(maxf, 8, "float32: %" PRIu64 " ulps", maxf);
        cr_expect_lt(maxrel_d, 1e-9, "float64: relative %.3g", maxrel_d);
    }
}

Test(replay_mcg31m1, seeding_rule_and_period)
{
    sl_rng_mcg31m1_state s;
    /* 0, m, 2m and 2^32 - 1 (= 2m + 1) all start at 1 */
    static const uint32_t ones[] = {0u, 1u, 2147483647u, 2147483648u, 4294967294u, 4294967295u};
    for (size_t i = 0; i < sizeof ones / sizeof ones[0]; i++) {
        sl_rng_mcg31m1_seed(&s, ones[i]);
        cr_expect_eq(s.x, 1u, "seed %u: state %u, expected 1", ones[i], s.x);
    }
    /* a has order m - 1: a^(m-1) = 1, and skipping the period returns */
    cr_expect_eq(sl_rng_mcg31m1_pow(2147483646u), 1u);
    cr_expect_eq(sl_rng_mcg31m1_pow(1073741823u), 2147483646u, "a is a primitive root: a^((m-1)/2) = -1");
    sl_rng_mcg31m1_seed(&s, 42);
    sl_rng_mcg31m1_skip(&s, 2147483646u);
    cr_expect_eq(s.x, 42u);
    /* skip-ahead equals stepping */
    sl_rng_mcg31m1_state a, b;
    sl_rng_mcg31m1_seed(&a, 123456789u);
    sl_rng_mcg31m1_seed(&b, 123456789u);
    for (int i = 0; i < 100000; i++)
        sl_rng_mcg31m1_next(&a);
    sl_rng_mcg31m1_skip(&b, 100000);
    cr_expect_eq(a.x, b.x);
}

Test(replay_mcg31m1, type_table_and_advance)
{
    sl_error err;
    sl_rng r;
    sl_seed sd = {.lo = (1ULL << 32) + 42, .hi = 0, .stream = 0, .has_stream = 0};
    cr_assert_eq(sl_rng_init(&r, &sl_rng_mcg31m1_type, &sd, &err), 0, "%s", err.msg);
    cr_expect_eq(sl_rng_next(&r), 42u, "the low 32 bits seed the stream; 42 comes first");
    cr_expect_eq(sl_rng_next(&r), 319929686u);
    /* one step back, then two forward, through the 128-bit two's complement delta */
    r.type->advance(r.state, UINT64_MAX, UINT64_MAX);
    cr_expect_eq(sl_rng_next(&r), 319929686u);
    r.type->advance(r.state, (1ULL << 40), 0);
    cr_expect_eq(sl_rng_next(&r), 801562262u, "index 2^40 + 2 from 42 (golden: skip 42 1099511627776)");
    sl_rng_release(&r);
    sl_seed big = {.lo = 0, .hi = 1, .stream = 0, .has_stream = 0};
    cr_expect_neq(sl_rng_init(&r, &sl_rng_mcg31m1_type, &big, &err), 0);
}

Test(replay_mcg31m1, torch_seed_draw_and_words)
{
    /* float32: the seed is torch's next word; float64: the second of two */
    sl_error err;
    sl_seed sd = {.lo = 42, .hi = 0, .stream = 0, .has_stream = 0};
    sl_rng g, ref;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0);
    cr_assert_eq(sl_rng_init(&ref, &sl_rng_torch_mt19937_type, &sd, &err), 0);
    float q[1000];
    cr_assert_eq(sl_fw_torch_mkl_exponential_f32(&g, q, 1000, 1.0, 4, &err), 0);
    cr_expect_eq(g.words, 1, "1000 float32 exponentials: %" PRIu64 " words, expected 1", g.words);
    uint32_t w0 = (uint32_t)sl_rng_next(&ref);
    float want[1000];
    sl_fw_torch_mkl_fill_f32(w0, want, 1000, 1.0, 1);
    cr_expect_eq(memcmp(q, want, sizeof q), 0);
    double d[10];
    cr_assert_eq(sl_fw_torch_mkl_exponential_f64(&g, d, 10, 1.0, 1, &err), 0);
    cr_expect_eq(g.words, 3, "then 10 float64: %" PRIu64 " words, expected 3", g.words);
    (void)sl_rng_next(&ref);
    uint32_t w2 = (uint32_t)sl_rng_next(&ref);
    double dw[10];
    sl_fw_torch_mkl_fill_f64(w2, dw, 10, 1.0, 1);
    cr_expect_eq(memcmp(d, dw, sizeof d), 0, "the seed of a double tensor is random64()'s low half");
    /* an empty tensor returns before the kernel (exponential_impl_'s CHECK_EMPTY_AND_RETURN) */
    cr_assert_eq(sl_fw_torch_mkl_exponential_f32(&g, q, 0, 1.0, 1, &err), 0);
    cr_expect_eq(g.words, 3);
    cr_expect_neq(sl_fw_torch_mkl_exponential_f32(&g, q, 10, INFINITY, 1, &err), 0);
    cr_expect(strstr(err.msg, "MT19937 path"), "%s", err.msg);
    /* lambda <= 0 or NaN is torch's RuntimeError, word for word (torch 2.14.1), not a path */
    cr_expect_neq(sl_fw_torch_mkl_exponential_f32(&g, q, 10, 0.0, 1, &err), 0);
    cr_expect(strstr(err.msg, "exponential_ expects lambda > 0.0, but found lambda=0"), "%s", err.msg);
    cr_expect_neq(sl_fw_torch_mkl_exponential_f64(&g, d, 10, NAN, 1, &err), 0);
    cr_expect(strstr(err.msg, "but found lambda=nan"), "%s", err.msg);
    cr_expect_eq(g.words, 3, "refused lambdas draw nothing here");
    sl_rng_release(&g);
    sl_rng_release(&ref);
}

Test(replay_mcg31m1, chunking_is_invisible)
{
    /* at::parallel_for's chunks: ceil(n / min(threads, ceil(n / 800))) */
    size_t cs;
    cr_expect_eq(sl_fw_torch_mkl_chunks(800, 8, &cs), 1);
    cr_expect_eq(cs, 800);
    cr_expect_eq(sl_fw_torch_mkl_chunks(801, 8, &cs), 2);
    cr_expect_eq(cs, 401);
    cr_expect_eq(sl_fw_torch_mkl_chunks(49152, 8, &cs), 8);
    cr_expect_eq(cs, 6144);
    cr_expect_eq(sl_fw_torch_mkl_chunks(100003, 7, &cs), 7);
    cr_expect_eq(cs, 14287);
    cr_expect_eq(sl_fw_torch_mkl_chunks(0, 7, &cs), 0);
    static float a[100003], b[100003];
    static double c[100003], d[100003];
    sl_fw_torch_mkl_fill_f32(42, a, 100003, 1.0, 1);
    sl_fw_torch_mkl_fill_f64(42, c, 100003, 1.0, 1);
    static const unsigned threads[] = {2, 3, 7, 61, 128};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        sl_fw_torch_mkl_fill_f32(42, b, 100003, 1.0, threads[i]);
        sl_fw_torch_mkl_fill_f64(42, d, 100003, 1.0, threads[i]);
        cr_expect_eq(memcmp(a, b, sizeof a), 0, "float32, %u threads", threads[i]);
        cr_expect_eq(memcmp(c, d, sizeof c), 0, "float64, %u threads", threads[i]);
    }
    /* the one-pass race equals argmax over the chunked fill */
    sl_error err;
    sl_seed sd = {.lo = 7, .hi = 0, .stream = 0, .has_stream = 0};
    sl_rng g;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0);
    static float p[49152];
    for (size_t i = 0; i < 49152; i++)
        p[i] = (float)(1.0 / ((double)i + 1.0));
    for (int call = 0; call < 20; call++) {
        sl_rng_mt19937_state snap;
        memcpy(&snap, g.state, sizeof snap);
        size_t tok;
        cr_assert_eq(sl_fw_torch_mkl_multinomial1_f32(&g, p, 49152, 4, &tok, &err), 0);
        uint32_t seed = sl_rng_mt19937_next(&snap);
        sl_fw_torch_mkl_fill_f32(seed, b, 49152, 1.0, 4);
        size_t best = 0;
        for (size_t i = 1; i < 49152; i++)
            if (p[i] / b[i] > p[best] / b[best])
                best = i;
        cr_expect_eq(tok, best, "call %d", call);
    }
    cr_expect_eq(g.words, 20, "one word per multinomial call");
    sl_rng_release(&g);
}

/* Issue #132395 (torch 2.4.0): the script of PR #132532 / test_multinomial_sequential_draw,
 * torch.manual_seed(0xDE0B6B3A764007E8); multinomial(ones(26), 26) repeated, counting
 * permutations seen before. With the MKL kernel each call opens an MCG31m1 stream at
 * x0 = (one MT19937 word) mod (2^31 - 1), so two calls repeat a permutation exactly when
 * their words agree mod 2^31 - 1: a birthday collision among about 2^31 starts. */
typedef struct perm_set {
    uint64_t *h;
    size_t cap;
} perm_set;

static int perm_insert(perm_set *s, uint64_t h)
{
    /* open addressing; 0 marks an empty slot (h | 1 is never 0) */
    h |= 1u;
    size_t i = (size_t)(h * 0x9E3779B97F4A7C15ULL >> 11) & (s->cap - 1);
    while (s->h[i]) {
        if (s->h[i] == h)
            return 0;
        i = (i + 1) & (s->cap - 1);
    }
    s->h[i] = h;
    return 1;
}

static void count_dups(size_t calls, size_t *dup_perms, size_t *dup_starts)
{
    sl_error err;
    sl_seed sd = {.lo = 0xDE0B6B3A764007E8ULL, .hi = 0, .stream = 0, .has_stream = 0};
    sl_rng g;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0);
    perm_set perms = {calloc(1u << 22, 8), 1u << 22}, starts = {calloc(1u << 22, 8), 1u << 22};
    float q[26];
    *dup_perms = *dup_starts = 0;
    for (size_t c = 0; c < calls; c++) {
        uint32_t seed = sl_fw_torch_mkl_seed_f32(&g);
        sl_fw_torch_mkl_fill_f32(seed, q, 26, 1.0, 1);
        /* topk(1 / q, 26): indices by ascending q; equal q (rare) by index */
        unsigned char idx[26];
        for (int i = 0; i < 26; i++)
            idx[i] = (unsigned char)i;
        for (int i = 1; i < 26; i++)
            for (int j = i; j > 0 && (q[idx[j]] < q[idx[j - 1]]); j--) {
                unsigned char t = idx[j];
                idx[j] = idx[j - 1];
                idx[j - 1] = t;
            }
        *dup_perms += !perm_insert(&perms, fnv(FNV0, idx, 26));
        sl_rng_mcg31m1_state s;
        sl_rng_mcg31m1_seed(&s, seed);
        *dup_starts += !perm_insert(&starts, (uint64_t)s.x << 1);
    }
    cr_expect_eq(g.words, calls, "one MT19937 word per call");
    free(perms.h);
    free(starts.h);
    sl_rng_release(&g);
}

Test(replay_mcg31m1, issue_132395_duplicate_permutations, .timeout = 120)
{
    size_t dp, ds;
    count_dups(300000, &dp, &ds);
    cr_log_info("300,000 calls: %zu repeated permutations, %zu repeated stream starts", dp, ds);
    cr_expect_eq(dp, ds, "every repeat is a repeated MCG31m1 start");
    /* PR #151218: "For the old (reseeded) implementation ..., this test showed 21 repetitions" */
    cr_expect_eq(dp, 21, "observed %zu repeated permutations, expected 21 as upstream reported", dp);
    count_dups(1000000, &dp, &ds);
    cr_log_info("1,000,000 calls: %zu repeated permutations, %zu repeated stream starts", dp, ds);
    cr_expect_eq(dp, ds);
}

Test(replay_mcg31m1, issue_114945_first_token)
{
    /* issue #114945 (2.1.1+cpu): multinomial(ones(10), 1, replacement=True) with
     * Generator().manual_seed(123) printed 9; 2.x takes the race for one sample */
    sl_error err;
    sl_seed sd = {.lo = 123, .hi = 0, .stream = 0, .has_stream = 0};
    sl_rng g;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0);
    float p[10];
    for (int i = 0; i < 10; i++)
        p[i] = 1.0f;
    size_t tok;
    cr_assert_eq(sl_fw_torch_mkl_multinomial1_f32(&g, p, 10, 1, &tok, &err), 0);
    cr_expect_eq(tok, 9, "observed token %zu, expected 9 as printed by 2.1.1+cpu", tok);
    sl_rng_release(&g);
}

Test(replay_mcg31m1, issue_150538_seed42_values)
{
    /* issue #150538 printed, after torch.manual_seed(42) and torch.rand(5) (5 words),
     * torch.empty(5).exponential_(1) = [0.5809, 0.0436, 2.0548, 1.9680, 0.3315] for one
     * build: the MKL path seeded by word 5 (3348747335, x0 = 1201263688) */
    static const double printed[5] = {0.5809, 0.0436, 2.0548, 1.9680, 0.3315};
    sl_error err;
    sl_seed sd = {.lo = 42, .hi = 0, .stream = 0, .has_stream = 0};
    sl_rng g;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0);
    for (int i = 0; i < 5; i++)
        (void)sl_rng_next(&g);
    float q[5];
    cr_assert_eq(sl_fw_torch_mkl_exponential_f32(&g, q, 5, 1.0, 1, &err), 0);
    for (int i = 0; i < 5; i++)
        cr_expect(fabs(q[i] - printed[i]) <= 0.5e-4, "value %d: observed %.6f, printed %.4f", i, q[i], printed[i]);
    cr_expect_eq(g.words, 6);
    sl_rng_release(&g);
}

/* `draw --framework torch --torch-build mkl`: the issue's call (multinomial(ones(10), 1,
 * replacement=True) after manual_seed(123), token 9) through the command line, one
 * word a call, and 40 calls on a Zipf vector equal to the kernel called directly. */
Test(replay_mcg31m1, torch_build_mkl_through_the_framework)
{
    sl_test_run r = sl_test_cli("draw --framework torch --torch-build mkl --probs 1,1,1,1,1,1,1,1,1,1 "
                                "--replacement --seed 123 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"tokens\":[[9]]") && strstr(r.out, "\"words\":1}"), "%s", r.out);
    sl_test_run_free(&r);
    float p[1000];
    static char list[32000];
    list[0] = 0;
    for (int i = 0; i < 1000; i++) {
        p[i] = (float)(1.0 / pow(i + 1.0, 1.1));
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.9g", i ? "," : "", (double)p[i]);
        p[i] = strtof(strrchr(list, ',') ? strrchr(list, ',') + 1 : list, NULL);
    }
    char *f = sl_test_tmpfile(".txt", list, strlen(list));
    char args[256];
    snprintf(args, sizeof args, "draw --framework torch --torch-build mkl --probs %s --seed 7 --n 40", f);
    r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    sl_error err;
    sl_seed sd = {.lo = 7, .hi = 0, .stream = 0, .has_stream = 0};
    sl_rng g;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0);
    char *line = r.out;
    for (int c = 0; c < 40; c++) {
        size_t tok;
        cr_assert_eq(sl_fw_torch_mkl_multinomial1_f32(&g, p, 1000, 1, &tok, &err), 0);
        cr_assert_eq(strtoul(line, &line, 10), tok, "call %d", c);
    }
    cr_assert_eq(g.words, 40);
    sl_rng_release(&g);
    sl_test_run_free(&r);
    unlink(f);
    free(f);
}
