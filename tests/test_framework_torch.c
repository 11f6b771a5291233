/* test_framework_torch.c — the torch.multinomial emulation (framework/torch.c) against
 * the real torch 1.13.1: every case of data/golden/torch_multinomial.txt (written by
 * analysis/golden/torch_golden.py), tokens and the words consumed after every call;
 * and the --torch 2 line against torch 2.6.0 (Debian trixie, CPU, no MKL):
 * data/torch2/torch_multinomial.txt (analysis/golden/torch2_golden.sh), and
 * against today's torch 2.14.1 (Debian sid, CPU, no MKL):
 * data/golden/current/torch_multinomial.txt (analysis/golden/current/run.sh),
 * the same replay over each data set. `samplab
 * draw --framework torch` from the command line gives golden cases' tokens and
 * words, torch's error messages, and float32 or float64 by --dtype and by .npy.
 * Also: the log-skipping race equals the every-log race; the top-k tie order equals
 * libstdc++'s (tests/oracle/torch_topk_oracle.cpp); the block filler equals
 * sl_rng_mt19937_next; errors draw nothing.
 * SL_TORCH_GOLDEN_EXTRA=FILE replays a further golden file of the same format
 * (torch_golden.py --random N SEED > FILE). */
#include <criterion/criterion.h>
#include <math.h>

#include "helpers.h"
#include "samplab.h"

#include "torch_replay.h"

Test(replay_torch, golden_torch_1_13)
{
    gold g;
    replay_file("data/golden/torch_multinomial.txt", &g);
    cr_log_info("torch golden: %zu cases and %zu error cases replayed, %zu mismatches", g.ncase, g.nerror, g.fail);
    cr_assert(g.ncase >= 700 && g.nerror >= 40, "golden file too small: %zu cases, %zu errors", g.ncase, g.nerror);
    cr_assert_eq(g.fail, 0, "%zu of %zu golden cases differ; first: %s", g.fail, g.ncase + g.nerror, g.first_fail);
}

Test(replay_torch, golden_torch_2_6_variant)
{
    /* the --torch 2 variant against Debian trixie's torch 2.6.0 (analysis/golden/torch2_golden.sh) */
    gold g;
    replay_file("data/torch2/torch_multinomial.txt", &g);
    cr_assert_eq(g.version, SL_TORCH_2, "data/torch2 header does not name torch 2.x");
    cr_assert(g.ncase >= 700, "golden file too small: %zu cases", g.ncase);
    cr_assert_eq(g.fail, 0, "%zu of %zu torch 2.6 cases differ; first: %s", g.fail, g.ncase + g.nerror, g.first_fail);
}

Test(replay_torch, golden_torch_2_14)
{
    gold g;
    replay_file("data/golden/current/torch_multinomial.txt", &g);
    cr_assert_eq(g.version, SL_TORCH_2, "data/golden/current header does not name torch 2.x");
    cr_log_info("torch 2.14 golden: %zu cases and %zu error cases replayed, %zu mismatches", g.ncase, g.nerror,
                g.fail);
    cr_assert(g.ncase >= 700 && g.nerror >= 40, "golden file too small: %zu cases, %zu errors", g.ncase, g.nerror);
    cr_assert_eq(g.fail, 0, "%zu of %zu torch 2.14 cases differ; first: %s", g.fail, g.ncase + g.nerror,
                 g.first_fail);
}

Test(replay_torch, golden_extra_file)
{
    const char *path = getenv("SL_TORCH_GOLDEN_EXTRA");
    if (!path)
        return; /* nothing extra to replay (cr_skip_test leaks inside Criterion 2.4) */
    gold g;
    replay_file(path, &g);
    cr_log_info("%s: %zu cases, %zu errors, %zu mismatches", path, g.ncase, g.nerror, g.fail);
    cr_assert_eq(g.fail, 0, "%zu of %zu cases differ; first: %s", g.fail, g.ncase + g.nerror, g.first_fail);
}

/* ---------------------------------------------------------------- fast race == every-log race */

static uint64_t sm64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double sm64_unit(uint64_t *s)
{
    return (double)(sm64(s) >> 11) * 0x1p-53;
}

/* Fills p (float64, then float32 as torch would round it) with one of several shapes,
 * including the ones where skipping could go wrong: denormal and huge weights, many
 * zeros, exact ties, one dominant entry, float64 ranges beyond float. */
static void random_weights(uint64_t *s, double *d, float *f, size_t V, int shape, sl_dtype dt)
{
    for (size_t i = 0; i < V; i++) {
        double u = sm64_unit(s), w;
        switch (shape) {
        case 0: w = u; break;                                   /* uniform */
        case 1: w = 1.0 / pow((double)i + 1.0, 1.1); break;     /* Zipf */
        case 2: w = u < 0.9 ? 0.0 : u; break;                   /* sparse */
        case 3: w = i == V / 2 ? 1.0 : 1e-6 * u; break;         /* dominant */
        case 4: w = dt == SL_F32 ? 1e-45 * (double)(1 + sm64(s) % 8) : 1e-320 * u; break; /* denormal */
        case 5: w = dt == SL_F32 ? 3e38 : 1e300 * (1 + u); break; /* overflowing ratios */
        case 6: w = 1.0; break;                                 /* all equal */
        default: w = exp(40.0 * (u - 0.5)); break;              /* wide range */
        }
        d[i] = w;
        f[i] = (float)w;
    }
    if (shape == 2 || shape == 4)
        d[sm64(s) % V] = f[0] = 0.25, f[0] = (float)d[0];
}

Test(replay_torch, fast_race_equals_every_log_race)
{
    static const size_t sizes[] = {1, 2, 3, 7, 31, 100, 624, 1000, 4099, 49152};
    uint64_t s = 20261129;
    size_t mism = 0, calls = 0;
    char first[256] = "";
    for (int t = 0; t < 240; t++) {
        size_t V = sizes[sm64(&s) % (sizeof sizes / sizeof sizes[0])];
        if (V == 49152 && t % 4)
            V = 5000;
        int shape = (int)(sm64(&s) % 8);
        sl_dtype dt = sm64(&s) % 3 ? SL_F32 : SL_F64;
        int version = sm64(&s) % 4 ? SL_TORCH_1_13 : SL_TORCH_2;
        double *d = malloc(V * sizeof *d);
        float *f = malloc(V * sizeof *f);
        random_weights(&s, d, f, V, shape, dt);
        int nonzero = 0;
        for (size_t i = 0; i < V; i++)
            nonzero |= (dt == SL_F32 ? f[i] : d[i]) != 0;
        if (!nonzero)
            d[0] = f[0] = 1;
        sl_error err;
        sl_draw_dist dd = {V, d, f, dt, "random", 0};
        sl_seed seed = {.lo = sm64(&s), .hi = 0, .stream = 0, .has_stream = 0};
        sl_rng_mt19937_state start;
        sl_rng_torch_mt19937_seed(&start, &seed, &err);
        /* an odd start sends the fast path through its buffered branch */
        size_t skip = sm64(&s) % 3;
        for (size_t i = 0; i < skip; i++)
            sl_rng_mt19937_next(&start);
        /* every vector width this machine can run: the output must not depend on it */
        for (int level = SL_SIMD_SCALAR; level <= SL_SIMD_AVX2; level++) {
            if (sl_base_simd_level(level) != level)
                continue;
            sl_draw_torch_param param = {version, 0, 1, level};
            sl_draw_type tt = sl_draw_torch_type;
            tt.param = &param;
            void *table = NULL;
            cr_assert_eq(sl_draw_prepare_dist(&tt, &table, &dd, &err), 0, "%s", err.msg);
            sl_rng_mt19937_state a = start, b = start;
            for (int c = 0; c < 12; c++) {
                long ta = -1, tb = -2;
                sl_rng ra_ = {&sl_rng_torch_mt19937_type, &a, 0}, rb_ = {&sl_rng_torch_mt19937_type, &b, 0};
                int ra = sl_draw_k(&tt, table, &ra_, 1, &ta, &err);
                tb = (long)sl_draw_torch_naive(table, &rb_);
                uint64_t wa = ra_.words, wb = rb_.words;
                calls++;
                if (ra || ta != tb || wa != wb || wa != 2 * V || memcmp(&a, &b, sizeof a)) {
                    if (!mism++)
                        snprintf(first, sizeof first,
                                 "V=%zu shape=%d dtype=%d version=%d simd=%d call %d: fast %ld naive %ld", V, shape,
                                 (int)dt, version, level, c, ta, tb);
                }
            }
            tt.free(table);
        }
        free(d);
        free(f);
    }
    cr_assert_eq(mism, 0, "%zu of %zu calls differ; first: %s", mism, calls, first);
}

/* ---------------------------------------------------------------- generator and top-k pieces */

Test(replay_torch, block_filler_equals_word_by_word)
{
    uint64_t s = 7;
    for (int t = 0; t < 20; t++) {
        sl_seed seed = {.lo = sm64(&s), .hi = 0, .stream = 0, .has_stream = 0};
        sl_error err;
        sl_rng_mt19937_state a, b;
        cr_assert_eq(sl_rng_torch_mt19937_seed(&a, &seed, &err), 0);
        b = a;
        uint32_t buf[3000];
        for (int chunk = 0; chunk < 40; chunk++) {
            size_t n = (size_t)(sm64(&s) % 3000);
            sl_rng_mt19937_fill32(&a, buf, n);
            for (size_t i = 0; i < n; i++) {
                uint32_t w = sl_rng_mt19937_next(&b);
                cr_assert_eq(buf[i], w, "seed %llu chunk %d word %zu: fill %u, next %u", (unsigned long long)seed.lo,
                             chunk, i, buf[i], w);
            }
        }
    }
}

/* mt19937ar.c's genrand_int32 twist, written out here as the reference */
static void textbook_twist(uint32_t *mt)
{
    static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
    for (int k = 0; k < 624; k++) {
        uint32_t y = (mt[k] & 0x80000000u) | (mt[(k + 1) % 624] & 0x7fffffffu);
        mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ mag01[y & 1u];
    }
}

Test(replay_torch, twist_widths_agree)
{
    /* the scalar, SSE2 and AVX2 twists against mt19937ar's */
    int levels = 0;
    for (int level = SL_SIMD_SCALAR; level <= SL_SIMD_AVX2; level++) {
        if (sl_base_simd_level(level) != level)
            continue;
        levels++;
        sl_rng_mt19937_state a, b;
        sl_rng_mt19937_init_genrand(&a, 5489u + (uint32_t)level);
        b = a;
        for (int t = 0; t < 50; t++) {
            sl_rng_mt19937_twist(&a, level);
            textbook_twist(b.mt);
            cr_assert(!memcmp(a.mt, b.mt, sizeof a.mt), "level %d: state differs after twist %d", level, t);
        }
    }
    cr_assert(levels >= 1, "no vector width ran");
}

Test(replay_torch, seeds_keep_low_32_bits)
{
    /* torch: manual_seed(s) seeds init_genrand(s & 0xFFFFFFFF); above 2^64 is an error */
    sl_error err;
    sl_rng_mt19937_state a, b;
    sl_seed s1 = {.lo = 42, .hi = 0, .stream = 0, .has_stream = 0}, s2 = {.lo = (1ULL << 32) + 42, .hi = 0, .stream = 0, .has_stream = 0}, s3 = {.lo = 0, .hi = 1, .stream = 0, .has_stream = 0};
    sl_rng_torch_mt19937_seed(&a, &s1, &err);
    sl_rng_torch_mt19937_seed(&b, &s2, &err);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(sl_rng_mt19937_next(&a), sl_rng_mt19937_next(&b), "word %d", i);
    cr_assert_neq(sl_rng_torch_mt19937_seed(&a, &s3, &err), 0, "2^64 accepted");
    /* torch.manual_seed(42); torch.rand(1) is 0.88226926 = (w & 0xFFFFFF) * 2^-24 */
    sl_rng r;
    cr_assert_eq(sl_rng_init(&r, &sl_rng_torch_mt19937_type, &s1, &err), 0);
    float x = sl_rng_uniform_f32_low24(&r);
    cr_assert_float_eq(x, 0.88226926f, 1e-8f, "torch.rand(1) after seed 42: %.9g", x);
    sl_rng_release(&r);
}

Test(replay_torch, topk_tie_order_equals_libstdcxx)
{
    char *text = sl_test_oracle("torch_topk_oracle");
    cr_assert_not_null(text, "oracle transcript missing (make test builds tests/oracle/torch_topk_oracle.cpp)");
    const double codes[7] = {0.0, 1.0, 2.0, INFINITY, NAN, -INFINITY, 0.5};
    size_t cases = 0, bad = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *p = line, *end;
        size_t V = strtoul(p, &end, 10), k = strtoul(end, &end, 10);
        double *v = malloc(V * sizeof *v);
        long *out = malloc(k * sizeof *out);
        for (size_t j = 0; j < V; j++)
            v[j] = codes[strtol(end, &end, 10)];
        end = strchr(end, '|') + 1;
        sl_error err;
        cr_assert_eq(sl_draw_torch_topk(v, V, k, out, &err), 0, "%s", err.msg);
        for (size_t j = 0; j < k; j++) {
            long want = strtol(end, &end, 10);
            if (out[j] != want) {
                if (!bad)
                    cr_log_error("V=%zu k=%zu position %zu: samplab %ld, libstdc++ %ld", V, k, j, out[j], want);
                bad++;
                break;
            }
        }
        cases++;
        free(v);
        free(out);
    }
    free(text);
    cr_assert(cases >= 1000, "only %zu oracle cases", cases);
    cr_assert_eq(bad, 0, "%zu of %zu tie-heavy top-k orders differ from libstdc++", bad, cases);
}

/* ---------------------------------------------------------------- samplab draw --framework torch */

static void expect_cli(const char *args, const char *want)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 0, "%s: exit %d (%s)", args, r.status, r.err);
    cr_expect_str_eq(r.out, want, "%s", args);
    sl_test_run_free(&r);
}

static void expect_cli_error(const char *args, const char *msg_part)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 2, "%s: exit %d, expected 2", args, r.status);
    cr_expect_str_empty(r.out, "%s: stdout not empty: %s", args, r.out);
    cr_expect_eq(sl_test_lines(r.err), 1, "%s: stderr should be one line: %s", args, r.err);
    cr_expect(strstr(r.err, msg_part) != NULL, "%s: stderr '%s' lacks '%s'", args, r.err, msg_part);
    sl_test_run_free(&r);
}

#define SM4 "0.534446657,0.196611926,0.196611926,0.0723294914"

Test(replay_cli, torch_draw_matches_golden)
{
    /* golden c1, c5, c83, c206, c667 (torch 1.13.1) */
    expect_cli("draw --framework torch --torch 1.13 --probs " SM4 " --seed 0 --n 3", "2\n2\n0\n");
    expect_cli("draw --framework torch --torch 1.13 --probs " SM4 " --seed 18446744073709551615 --n 3", "1\n0\n1\n");
    expect_cli("draw --framework torch --torch 1.13 --probs " SM4 " --seed 0 --n 2 --num-samples 2", "2 1\n2 0\n");
    expect_cli("draw --framework torch --torch 1.13 --probs " SM4 " --seed 0 --n 2 --num-samples 2 --replacement", "3 1\n0 2\n");
    expect_cli("draw --framework torch --torch 1.13 --probs " SM4 " --seed 0 --n 3 --json",
               "{\"tokens\":[[2],[2],[0]],\"rng\":{\"name\":\"torch-mt19937\",\"word_bits\":32,\"words\":24},"
               "\"version\":\"torch 1.13.1 (CPU, no MKL)\"}\n");
    expect_cli("draw --framework torch --torch 1.13 --probs data/golden/torch_vec_zipf49152.txt --n 4", "0\n306\n26\n3\n");
}

Test(replay_cli, torch_draw_errors_as_torch)
{
    expect_cli_error("draw --framework torch --probs 0.5,nan,0.5", "probability tensor contains either");
    expect_cli_error("draw --framework torch --torch 1.13 --probs 0.5,-1,0.5 --replacement",
                     "encountering probability entry < 0");
    /* torch 2.x: one sample with replacement takes the race, and its check */
    expect_cli_error("draw --framework torch --probs 0.5,-1,0.5 --replacement", "probability tensor contains either");
    expect_cli_error("draw --framework torch --probs 0.5,-1,0.5 --replacement --num-samples 2",
                     "encountering probability entry < 0");
    expect_cli_error("draw --framework torch --probs 0,0,0", "sum of probabilities <= 0");
    expect_cli_error("draw --framework torch --probs 1,2 --num-samples 3", "cannot sample n_sample > prob_dist.size(-1)");
    expect_cli_error("draw --framework torch --probs 1,2 --seed 18446744073709551616", "below 2^64");
    expect_cli_error("draw --framework torch --probs 1,2 --torch 3", "--torch takes");
}

/* A 1-D little-endian float64 .npy of n <= 16 values (format 1.0, a 128-byte header as numpy writes). */
static char *npy_f64(const double *v, size_t n)
{
    unsigned char buf[128 + 8 * 16];
    char dict[100];
    int len = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu,), }", n);
    memset(buf, ' ', 128);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = 128 - 10;
    buf[9] = 0;
    memcpy(buf + 10, dict, (size_t)len);
    buf[127] = '\n';
    memcpy(buf + 128, v, 8 * n);
    return sl_test_tmpfile(".npy", buf, 128 + 8 * n);
}

Test(replay_cli, torch_draw_dtype_text_and_npy)
{
    /* golden: huge6 (3e38 x 6), seed 42, 3 calls: float32 draws 0 2 2, float64 3 2 4 */
    const double huge[6] = {3e38, 3e38, 3e38, 3e38, 3e38, 3e38};
    char *npy = npy_f64(huge, 6);
    cr_assert_not_null(npy);
    char args[512];
    expect_cli("draw --framework torch --probs 3e38,3e38,3e38,3e38,3e38,3e38 --n 3", "0\n2\n2\n");
    expect_cli("draw --framework torch --probs 3e38,3e38,3e38,3e38,3e38,3e38 --n 3 --dtype float64", "3\n2\n4\n");
    snprintf(args, sizeof args, "draw --framework torch --probs %s --n 3", npy);
    expect_cli(args, "3\n2\n4\n"); /* a .npy keeps its float64 */
    snprintf(args, sizeof args, "draw --framework torch --probs %s --n 3 --dtype float32", npy);
    expect_cli(args, "0\n2\n2\n");
    unlink(npy);
    free(npy);
}

Test(replay_cli, torch_draw_variant_2_words)
{
    /* torch 2.6.0 (data/torch2 c203): one sample with replacement takes the race, 2 V words */
    expect_cli("draw --framework torch --torch 2 --probs " SM4 " --seed 0 --n 2 --replacement --json",
               "{\"tokens\":[[2],[2]],\"rng\":{\"name\":\"torch-mt19937\",\"word_bits\":32,\"words\":16},"
               "\"version\":\"torch 2.14.1 (CPU, MT19937 exponential_; also 2.6.0)\"}\n");
    expect_cli("draw --framework torch --torch 1.13 --probs " SM4 " --seed 0 --n 2 --replacement --json",
               "{\"tokens\":[[3],[1]],\"rng\":{\"name\":\"torch-mt19937\",\"word_bits\":32,\"words\":4},"
               "\"version\":\"torch 1.13.1 (CPU, no MKL)\"}\n");
}
