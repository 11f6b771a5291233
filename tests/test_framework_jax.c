/* test_framework_jax.c — JAX's and MLX's PRNG paths (rng/jax_prng.c, rng/mlx_random.c)
 * and their categorical (framework/categorical.c), against values the libraries
 * themselves printed, committed here as known answers (JAX and MLX are not packaged
 * on this machine, so no golden script runs them):
 *  - JAX's tests/random_test.py (jax-ml/jax commit 00f5ef2ac0f49f4c963897dbde1fc2755e461432,
 *    jax_threefry_partitionable off, as JAX was then): testRngRandomBits (PRNGKey(1701),
 *    32 bits, shape (3,)), testPRNGValues (split(PRNGKey(0), 4), fold_in(PRNGKey(0), 4));
 *  - a JAX integration test of NVIDIA/TensorRT-Incubator
 *    (mlir-tensorrt/integrations/PJRT/test/JAX/test_random.py, commit
 *    8113a94db40f7b3b7c30d050354f6e4856657379; jax_threefry_partitionable on,
 *    JAX >= 0.5): split(PRNGKey(i)) for i = 0, 1, 2 and
 *    uniform(split(PRNGKey(0))[1], (4, 4)), printed to 7 digits;
 *  - MLX's tests/random_tests.cpp (ml-explore/mlx commit cc241fc96475b9b1684fbc2d2918fc9628c3d2c1):
 *    bits of key(0), key(1), keys (i, i), uniform of key(0), categorical with +-inf logits. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

Test(framework_jax, random_bits_original)
{
    uint32_t k[2], b[3];
    sl_error e = {0};
    sl_rng_jax_key(1701, k);
    cr_expect(k[0] == 0 && k[1] == 1701, "PRNGKey(1701) = (%u, %u)", k[0], k[1]);
    cr_assert_eq(sl_rng_jax_bits32(k, 3, 0, b, &e), 0, "%s", e.msg);
    const uint32_t want[3] = {56197195u, 4200222568u, 961309823u};
    for (int i = 0; i < 3; i++)
        cr_expect_eq(b[i], want[i], "random_bits(PRNGKey(1701), 32, (3,))[%d] = %u, JAX %u", i, b[i], want[i]);
}

Test(framework_jax, split_and_fold_in_original)
{
    uint32_t k[2], s[4][2], f[2];
    sl_rng_jax_key(0, k);
    sl_rng_jax_split(k, 4, 0, s);
    const uint32_t want[4][2] = {{2285895361u, 1501764800u}, {1518642379u, 4090693311u},
                                 {433833334u, 4221794875u}, {839183663u, 3740430601u}};
    for (int i = 0; i < 4; i++)
        cr_expect(s[i][0] == want[i][0] && s[i][1] == want[i][1], "split(PRNGKey(0), 4)[%d] = [%u, %u], JAX [%u, %u]",
                  i, s[i][0], s[i][1], want[i][0], want[i][1]);
    sl_rng_jax_fold_in(k, 4, f);
    cr_expect(f[0] == 2285895361u && f[1] == 433833334u, "fold_in(PRNGKey(0), 4) = [%u, %u]", f[0], f[1]);
}

Test(framework_jax, split_and_uniform_partitionable)
{
    const uint32_t want[3][2][2] = {{{1797259609u, 2579123966u}, {928981903u, 3453687069u}},
                                    {{507451445u, 1853169794u}, {1948878966u, 4237131848u}},
                                    {{1821159224u, 3364244817u}, {637334850u, 3278974502u}}};
    for (uint64_t seed = 0; seed < 3; seed++) {
        uint32_t k[2], s[2][2];
        sl_rng_jax_key(seed, k);
        sl_rng_jax_split(k, 2, 1, s);
        for (int j = 0; j < 2; j++)
            cr_expect(!memcmp(s[j], want[seed][j], sizeof s[j]), "split(PRNGKey(%d))[%d] = [%u, %u], JAX [%u, %u]",
                      (int)seed, j, s[j][0], s[j][1], want[seed][j][0], want[seed][j][1]);
    }
    const uint32_t key2[2] = {928981903u, 3453687069u};
    const float printed[16] = {0.00729382f, 0.02089119f, 0.5814265f, 0.36183798f, 0.22303772f, 0.11928833f,
                               0.12543893f, 0.61683f,    0.0950073f, 0.9834225f,  0.4248221f,  0.8324801f,
                               0.0966121f,  0.22702086f, 0.3545748f, 0.67104137f};
    uint32_t b[16];
    sl_error e = {0};
    cr_assert_eq(sl_rng_jax_bits32(key2, 16, 1, b, &e), 0);
    for (int i = 0; i < 16; i++) {
        float u = sl_rng_jax_uniform_f32(b[i], 0.0f, 1.0f);
        /* printed with 7 or 8 significant digits: 1e-6 relative covers the rounding of the print only */
        cr_expect(fabsf(u - printed[i]) <= 1e-6f * printed[i] + 1e-9f, "uniform[%d] = %.9g, JAX printed %.8g", i, u,
                  printed[i]);
    }
}

Test(framework_jax, mlx_bits_and_uniform)
{
    uint32_t k[2], b[3];
    sl_error e = {0};
    sl_rng_mlx_key(0, k);
    cr_assert_eq(sl_rng_jax_bits32(k, 1, 0, b, &e), 0);
    cr_expect_eq(b[0], 1797259609u, "bits({}, key(0)) = %u", b[0]);
    cr_expect_eq(sl_rng_mlx_uniform_f32(b[0]), (float)1797259609u / (float)UINT32_MAX);
    sl_rng_mlx_key(1, k);
    sl_rng_jax_bits32(k, 1, 0, b, &e);
    cr_expect_eq(b[0], 507451445u, "bits({}, key(1)) = %u", b[0]);
    sl_rng_mlx_key(0, k);
    sl_rng_jax_bits32(k, 3, 0, b, &e);
    const uint32_t w3[3] = {4146024105u, 1351547692u, 2718843009u};
    cr_expect(!memcmp(b, w3, sizeof b), "bits({3}, key(0)) = %u %u %u", b[0], b[1], b[2]);
    const uint32_t k11[2] = {1, 1}, w11[3] = {3725146706u, 1802982961u, 1349634643u};
    sl_rng_jax_bits32(k11, 3, 0, b, &e);
    cr_expect(!memcmp(b, w11, sizeof b), "bits({3}, (1, 1)) = %u %u %u", b[0], b[1], b[2]);
    const uint32_t w2[6][2] = {{928981903u, 3453687069u}, {3606183818u, 460005496u}, {2799733733u, 856293553u},
                               {4081856343u, 3445925136u}, {2775548010u, 1430281703u}, {305173070u, 2615843348u}};
    for (uint32_t i = 0; i < 6; i++) {
        const uint32_t kk[2] = {i, i};
        sl_rng_jax_bits32(kk, 2, 0, b, &e);
        cr_expect(b[0] == w2[i][0] && b[1] == w2[i][1], "bits({2}, (%u, %u)) = %u %u", i, i, b[0], b[1]);
    }
    /* MLX's uniform never reaches 1: the largest words clamp to nextafter(1, 0) */
    cr_expect_eq(sl_rng_mlx_uniform_f32(UINT32_MAX), 0x1.fffffep-1f);
    cr_expect_eq(sl_rng_mlx_uniform_f32(0), 0.0f);
    /* JAX's: tiny at the zero word, at most 1 - 2^-23 (23 mantissa bits) */
    cr_expect_eq(sl_rng_jax_uniform_f32(0, FLT_MIN, 1.0f), FLT_MIN);
    cr_expect_eq(sl_rng_jax_uniform_f32(UINT32_MAX, FLT_MIN, 1.0f), 0x1.fffffcp-1f);
}

/* MLX's test categorical: an +inf logit wins, a single finite one among -inf wins. */
Test(framework_jax, categorical_infinities)
{
    const float a[5] = {1.0f, -2.0f, INFINITY, 4.0f, 3.0f}, b[4] = {-INFINITY, -2.0f, -INFINITY, -INFINITY};
    float u[5];
    for (uint32_t w = 0; w < 64; w++) {
        for (int i = 0; i < 5; i++)
            u[i] = sl_rng_mlx_uniform_f32(w * 0x9E3779B9u + (uint32_t)i * 0x7F4A7C15u);
        cr_expect_eq(sl_draw_gumbel_f32(a, u, 5), 2);
        cr_expect_eq(sl_draw_gumbel_f32(b, u, 4), 1);
    }
}

/* A session steps split-then-categorical: its tokens equal the by-hand loop. */
static void by_hand(int jax, int part, uint64_t seed, const float *l, size_t V, size_t n, long *out)
{
    uint32_t key[2], sub[2], bits[16];
    float u[16];
    sl_error e = {0};
    if (jax)
        sl_rng_jax_key(seed, key);
    else
        sl_rng_mlx_key(seed, key);
    for (size_t t = 0; t < n; t++) {
        uint32_t two[2][2];
        sl_rng_jax_split(key, 2, jax && part, two);
        memcpy(key, two[0], sizeof key);
        memcpy(sub, two[1], sizeof sub);
        cr_assert_eq(sl_rng_jax_bits32(sub, V, jax && part, bits, &e), 0);
        for (size_t i = 0; i < V; i++)
            u[i] = jax ? sl_rng_jax_uniform_f32(bits[i], FLT_MIN, 1.0f) : sl_rng_mlx_uniform_f32(bits[i]);
        size_t best = 0;
        float bv = -INFINITY;
        for (size_t i = 0; i < V; i++) {
            float sc = -logf(-logf(u[i])) + l[i];
            if (sc > bv) {
                bv = sc;
                best = i;
            }
        }
        out[t] = (long)best;
    }
}

Test(framework_jax, session_is_split_then_categorical)
{
    const double ld[5] = {1.5, 0.25, -0.5, 1.0, -2.0};
    float lf[5];
    for (int i = 0; i < 5; i++)
        lf[i] = (float)ld[i];
    sl_vec v = {.n = 5, .d = (double *)ld, .f = lf, .dtype = SL_F64};
    strcpy(v.source, "inline");
    for (int c = 0; c < 3; c++) {
        const sl_fw_type *t = c < 2 ? &sl_fw_jax_type : &sl_fw_mlx_type;
        sl_fw_opts o;
        memset(&o, 0, sizeof o);
        o.logits = &v;
        o.has_seed = 1;
        o.seed.lo = 1234567 + (uint64_t)c;
        o.n = 1;
        o.jax_unpartitioned = c == 1;
        sl_fw_session s;
        sl_error e = {0};
        cr_assert_eq(sl_fw_session_open(&s, t, &o, &e), 0, "%s", e.msg);
        long want[300];
        by_hand(c < 2, c == 0, o.seed.lo, lf, 5, 300, want);
        for (int n = 0; n < 300; n++) {
            sl_fw_step st;
            cr_assert_eq(sl_fw_session_step(&s, &v, &st, &e), 0, "%s", e.msg);
            cr_assert_eq(st.tokens[0], want[n], "%s case %d step %d: %ld, by hand %ld", t->name, c, n, st.tokens[0],
                         want[n]);
            cr_assert_eq(st.words, 9, "V + 4 words a call");
        }
        sl_fw_session_close(&s);
    }
}

Test(framework_jax, refusals)
{
    double ld[2] = {0, 1};
    float lf[2] = {0, 1};
    sl_vec v = {.n = 2, .d = ld, .f = lf};
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.logits = &v;
    o.has_seed = 1;
    o.seed.lo = 1ull << 63;
    sl_fw_session s;
    sl_error e = {0};
    cr_expect_neq(sl_fw_session_open(&s, &sl_fw_jax_type, &o, &e), 0);
    cr_expect(strstr(e.msg, "2^63"), "%s", e.msg);
    cr_expect_eq(sl_fw_session_open(&s, &sl_fw_mlx_type, &o, &e), 0, "MLX takes a uint64 seed: %s", e.msg);
    sl_fw_session_close(&s);
}

/* The command line draws what the session does (the by-hand loop), and refuses what
 * neither library takes. */
Test(framework_jax, command_line)
{
    const float lf[4] = {2.0f, 1.0f, 0.5f, -1.0f};
    const char *args[3] = {"draw --framework jax --logits 2,1,0.5,-1 --seed 77 --n 40",
                           "draw --framework jax --jax-threefry-partitionable false --logits 2,1,0.5,-1 --seed 77 --n 40",
                           "draw --framework mlx --logits 2,1,0.5,-1 --seed 77 --n 40"};
    for (int c = 0; c < 3; c++) {
        long want[40];
        by_hand(c < 2, c == 0, 77, lf, 4, 40, want);
        sl_test_run r = sl_test_cli(args[c]);
        cr_assert_eq(r.status, 0, "%s: %s", args[c], r.err);
        char *p = r.out, *e;
        for (int n = 0; n < 40; n++) {
            long t = strtol(p, &e, 10);
            cr_assert(e != p, "%s: line %d missing", args[c], n);
            cr_expect_eq(t, want[n], "%s: draw %d is %ld, the loop's %ld", args[c], n, t, want[n]);
            p = e;
        }
        sl_test_run_free(&r);
    }
    sl_test_run r = sl_test_cli("draw --framework jax --logits 1,2 --jax-threefry-partitionable maybe");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "true or false"), "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework mlx --logits 1,2 --jax-threefry-partitionable false");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "not an option of framework mlx"), "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework jax --logits 1,2 --seed 9223372036854775808");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "2^63"), "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework jax --probs 1,2");
    cr_expect_eq(r.status, 2, "categorical takes logits");
    sl_test_run_free(&r);
}
