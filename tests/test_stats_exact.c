/* test_stats_exact.c — the exact audit (stats/exact*.c) and `samplab exact`.
 *
 * Suite replay_exact: facts counted by hand (absorbed weights, a weight just above
 * half an ulp, subnormal totals, a filtered tail hit by the linear fallback, u = 0 in
 * torch); candle's binary-search counts against enumeration of all 2^23 uniforms;
 * the real libraries as oracles: rand 0.8.5 enumerated over 2^23 (data/golden/
 * exact_rand.txt), torch 1.13.1 and NumPy 1.24.2 at chosen uniforms through a crafted
 * MT19937 state (exact_numpy_torch.txt; exact_crafted.txt in test_stats_exact_torch.c), GSL's own
 * gsl_ran_discrete per bucket, libstdc++'s uniform_real_distribution for llama.cpp
 * (tests/oracle/llamacpp_dist.cpp), draw/cdf and draw/linear called at the
 * boundaries; 300 random vectors checked at every boundary; counts summing to 2^bits
 * (also at V = 49152); the CLI's JSON, errors and dtypes.
 * Suite stat_exact: 10^7 draws per sampler (candle from PCG32 words, GSL's own
 * gsl_ran_discrete with gsl_rng_mt19937, draw/alias with PCG32, llama.cpp's dist over
 * MT19937 words) against the exact distribution, Pearson chi-square via
 * gsl_cdf_chisq_Q at alpha = 0.001 (smallest expected count ~10^4; fixed seeds);
 * power: the candle draws against the exact distribution of a vector with one weight
 * 1% larger must be rejected (expected statistic ~ 50 on 3 df). */
#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "samplab.h"
#include "helpers.h"

static sl_stat_exact_input in_f(const float *f, const double *d, size_t V)
{
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = V;
    in.f = f;
    in.d = d;
    in.dtype = SL_F32;
    in.source = "test";
    return in;
}

static void run_ok(const sl_stat_exact_type *t, const sl_stat_exact_input *in, sl_stat_exact_result *r)
{
    sl_error e;
    int rc = sl_stat_exact_run(t, in, r, &e);
    cr_assert_eq(rc, 0, "%s: %s", t->name, e.msg);
}

static void assert_sum(const sl_stat_exact_result *r)
{
    sl_u128 s = 0;
    for (size_t i = 0; i < r->V; i++)
        s += r->count[i];
    cr_assert(s == ((sl_u128)1 << r->bits), "%s: counts sum to %.17g, expected 2^%u", r->sampler, (double)s,
              r->bits);
}

/* ---------------------------------------------------------------- hand-counted */

Test(replay_exact, candle_absorbed_weight_never_drawn)
{
    /* 1 + 2^-25 == 1 in float32, so the running sums are [1, 1] and the total is 2:
     * the middle token is never drawn, the others get half the 2^23 uniforms each. */
    float f[3] = {1.0f, 0x1p-25f, 1.0f};
    double d[3] = {1.0, 0x1p-25, 1.0};
    sl_stat_exact_input in = in_f(f, d, 3);
    sl_stat_exact_result r;
    run_ok(&sl_draw_rand_wi_exact, &in, &r);
    cr_assert(r.count[0] == (1u << 22) && r.count[1] == 0 && r.count[2] == (1u << 22),
              "counts %.0f %.0f %.0f, expected 2^22 0 2^22", (double)r.count[0], (double)r.count[1],
              (double)r.count[2]);
    cr_assert_eq(r.n_never, 1, "never: %zu tokens, expected 1", r.n_never);
    cr_assert_eq(r.never[0], 1, "never[0] = %zu, expected 1", r.never[0]);
    sl_stat_exact_result_free(&r);
}

Test(replay_exact, candle_running_sum_leaves_tokens_unreachable)
{
    /* 2^24 + 1 ties to even (2^24): both unit weights vanish from the running sums. */
    float f[3] = {0x1p24f, 1.0f, 1.0f};
    double d[3] = {0x1p24, 1.0, 1.0};
    sl_stat_exact_input in = in_f(f, d, 3);
    sl_stat_exact_result r;
    run_ok(&sl_draw_rand_wi_exact, &in, &r);
    cr_assert(r.count[0] == (1u << 23) && r.count[1] == 0 && r.count[2] == 0, "counts %.0f %.0f %.0f",
              (double)r.count[0], (double)r.count[1], (double)r.count[2]);
    cr_assert_eq(r.n_never, 2, "never: %zu, expected 2", r.n_never);
    sl_stat_exact_result_free(&r);
}

Test(replay_exact, candle_weight_just_above_half_ulp)
{
    /* total = fl(2^24 + 1.5) = 2^24 + 2; token 1 needs fl(k*2^-23*(2^24+2)) >= 2^24, which only
     * k = 2^23-1 reaches (2^24 - 2^-22 rounds up): 1 count, +33% against the ideal 8.9e-8. */
    float f[2] = {0x1p24f, 1.5f};
    double d[2] = {0x1p24, 1.5};
    sl_stat_exact_input in = in_f(f, d, 2);
    sl_stat_exact_result r;
    run_ok(&sl_draw_rand_wi_exact, &in, &r);
    cr_assert(r.count[1] == 1 && r.count[0] == (1u << 23) - 1, "counts %.0f %.0f, expected 2^23-1 1",
              (double)r.count[0], (double)r.count[1]);
    cr_assert_eq(r.worst, 1, "worst token %ld, expected 1", r.worst);
    cr_assert(fabs(r.worst_rel - (0x1p-23 / (1.5 / (0x1p24 + 1.5)) - 1)) < 1e-12, "worst_rel %.17g", r.worst_rel);
    sl_stat_exact_result_free(&r);
}

Test(replay_exact, candle_subnormal_total_shrinks_scale)
{
    /* total 3*2^-149 -> scale 2*2^-149; chosen = k*2^-23 * 2*2^-149 rounds to 0, 1 or 2 units of
     * 2^-149; token 1 iff chosen >= 2*2^-149 iff k*2^-22 > 1.5 (ties to even at 1.5 go to 2). */
    float f[2] = {0x1p-148f, 0x1p-149f};
    double d[2] = {0x1p-148, 0x1p-149};
    sl_stat_exact_input in = in_f(f, d, 2);
    sl_stat_exact_result r;
    run_ok(&sl_draw_rand_wi_exact, &in, &r);
    /* k*2^-22 >= 1.5 <=> k >= 3*2^21: at exactly 1.5 the tie goes to even (2) */
    cr_assert(r.count[1] == (1u << 23) - 3u * (1u << 21), "count[1] = %.0f, expected %u", (double)r.count[1],
              (1u << 23) - 3u * (1u << 21));
    cr_assert(r.n_paths >= 1 && !strcmp(r.paths[0].name, "subnormal_scale"), "subnormal path reported");
    sl_stat_exact_result_free(&r);
}

Test(replay_exact, linear_fallback_draws_filtered_token)
{
    /* seven equal weights and a filtered eighth: 7 * fl(1/7) sums to 1 - 2^-53*2, so the two
     * largest of the 2^53 uniforms fall through to token 7, whose probability is 0. */
    double d[8] = {1, 1, 1, 1, 1, 1, 1, 0};
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = 8;
    in.d = d;
    in.source = "test";
    sl_stat_exact_result r;
    run_ok(&sl_draw_linear_exact, &in, &r);
    cr_assert(r.count[7] == 2, "count[7] = %.0f, expected 2", (double)r.count[7]);
    cr_assert_eq(r.n_zero_drawn, 1, "zero-probability tokens drawn: %zu, expected 1", r.n_zero_drawn);
    cr_assert(!strcmp(r.paths[0].name, "fallback") && r.paths[0].num == 2 && r.paths[0].token == 7,
              "fallback path %s %.0f token %ld", r.paths[0].name, (double)r.paths[0].num, r.paths[0].token);
    assert_sum(&r);
    /* the method itself, fed the two largest uniforms, returns 7; the one below returns 6 */
    void *table;
    sl_error e;
    cr_assert_eq(sl_draw_prepare(&sl_draw_linear_type, &table, d, 8, &e), 0);
    uint64_t hi = (((uint64_t)1 << 53) - 1) << 11, mid = (((uint64_t)1 << 53) - 2) << 11,
             lo = (((uint64_t)1 << 53) - 3) << 11;
    sl_rng_type gt = {.name = "grid", .word_bits = 64, .state_size = 8};
    extern uint64_t sl_test_exact_grid_next(void *);
    gt.next = sl_test_exact_grid_next;
    uint64_t w;
    sl_rng g = {.type = &gt, .state = &w};
    w = hi;
    cr_assert_eq(sl_draw_linear_type.draw(table, &g), 7);
    w = mid;
    cr_assert_eq(sl_draw_linear_type.draw(table, &g), 7);
    w = lo;
    cr_assert_eq(sl_draw_linear_type.draw(table, &g), 6);
    sl_draw_linear_type.free(table);
    sl_stat_exact_result_free(&r);
}

uint64_t sl_test_exact_grid_next(void *state);
uint64_t sl_test_exact_grid_next(void *state)
{
    return *(uint64_t *)state;
}

Test(replay_exact, torch_replacement_u_zero_draws_token_zero)
{
    float f[3] = {0, 1, 2};
    double d[3] = {0, 1, 2};
    sl_stat_exact_input in = in_f(f, d, 3);
    sl_stat_exact_result r;
    run_ok(&sl_draw_torch_repl_exact, &in, &r);
    cr_assert(r.count[0] == 1, "count[0] = %.0f, expected 1 (u == 0)", (double)r.count[0]);
    cr_assert(r.n_zero_drawn == 1 && r.zero_drawn[0] == 0, "zero-probability token 0 drawable");
    assert_sum(&r);
    sl_stat_exact_result_free(&r);
}

Test(replay_exact, gsl_uniform_weights_exact_quarters)
{
    double d[4] = {1, 1, 1, 1};
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = 4;
    in.d = d;
    sl_stat_exact_result r;
    run_ok(&sl_fw_gsl_exact, &in, &r);
    for (int i = 0; i < 4; i++)
        cr_assert(r.count[i] == ((sl_u128)1 << 30), "count[%d] = %.0f, expected 2^30", i, (double)r.count[i]);
    cr_assert_eq(r.tv, 0.0, "tv %.17g", r.tv);
    sl_stat_exact_result_free(&r);
}

Test(replay_exact, race_failure_paths)
{
    float f[4] = {0.5f, 0, 0.5f, 0};
    double d[4] = {0.5, 0, 0.5, 0};
    sl_stat_exact_input in = in_f(f, d, 4);
    sl_stat_exact_result r;
    run_ok(&sl_draw_torch_race_exact, &in, &r);
    cr_assert_eq(r.has_counts, 0);
    cr_assert(r.n_zero_drawn == 2 && r.zero_drawn[0] == 1 && r.zero_drawn[1] == 3, "zero tokens drawable via NaN");
    cr_assert_eq(r.n_never, 0, "every positive token is drawable");
    const sl_stat_exact_path *nan = NULL;
    for (size_t i = 0; i < r.n_paths; i++)
        if (!strcmp(r.paths[i].name, "nan_wins"))
            nan = &r.paths[i];
    cr_assert(nan, "a nan_wins path");
    double expect = -expm1(2 * log1p(-0x1p-53));
    cr_assert(fabs(nan->prob / expect - 1) < 1e-12, "P(nan) %.17g, expected %.17g", nan->prob, expect);
    cr_assert(r.tv_bound > 0 && r.tv_bound < 1e-6, "tv bound %.3g for V = 4", r.tv_bound);
    sl_stat_exact_result_free(&r);
}

/* ---------------------------------------------------------------- enumeration */

/* All 2^23 uniforms of rand's UniformFloat<f32>, each through the full rule (scale shrink,
 * v*scale, linear count of running sums <= chosen). */
static void candle_enumerate(const float *w, size_t V, uint64_t *counts)
{
    float cum[16], total = w[0];
    for (size_t i = 1; i < V; i++) {
        cum[i - 1] = total;
        total += w[i];
    }
    float scale = total;
    while (scale * (1.0f - 0x1p-23f) + 0.0f >= total)
        scale = nextafterf(scale, 0);
    memset(counts, 0, V * sizeof *counts);
    for (uint32_t u = 0; u < (1u << 23); u++) {
        uint32_t bits = u | 0x3f800000u;
        float v;
        memcpy(&v, &bits, 4);
        float chosen = (v - 1.0f) * scale + 0.0f;
        size_t t = 0;
        for (size_t i = 0; i + 1 < V; i++)
            t += cum[i] <= chosen;
        counts[t]++;
    }
}

Test(replay_exact, candle_counts_equal_full_enumeration)
{
    static const float vecs[][8] = {
        {0.515483551f, 0.255981556f, 0.171589568f, 0.031346587f, 0.0140849295f, 0.00699436898f, 0.00347330085f,
         0.00104613811f},
        {0, 0, 1, 0, 2, 0, 1e-30f, 0},
        {1, 0x1p-25f, 1, 1e-9f, 3, 0x1p-24f, 0.1f, 0},
        {0x1p-149f, 0x1p-148f, 0x1p-149f, 0, 0, 0, 0, 0},
    };
    for (size_t v = 0; v < sizeof vecs / sizeof vecs[0]; v++) {
        double d[8];
        for (int i = 0; i < 8; i++)
            d[i] = vecs[v][i];
        sl_stat_exact_input in = in_f(vecs[v], d, 8);
        sl_stat_exact_result r;
        run_ok(&sl_draw_rand_wi_exact, &in, &r);
        uint64_t c[8];
        candle_enumerate(vecs[v], 8, c);
        for (int i = 0; i < 8; i++)
            cr_assert(r.count[i] == c[i], "vector %zu token %d: binary search %.0f, enumeration %llu", v, i,
                      (double)r.count[i], (unsigned long long)c[i]);
        sl_stat_exact_result_free(&r);
    }
}

/* NumPy's and torch's rules evaluated at the boundary values of the 2^53 grid. */
static size_t numpy_token(const double *cdf, size_t V, double u)
{
    size_t t = 0;
    for (size_t i = 0; i < V; i++)
        t += cdf[i] <= u;
    return t;
}

Test(replay_exact, numpy_and_torch_boundaries)
{
    double d[8];
    static const double logits[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
    sl_error e;
    cr_assert_eq(sl_logits_softmax(logits, 8, 1.0, d, &e), 0);
    float f[8];
    for (int i = 0; i < 8; i++)
        f[i] = (float)d[i];
    sl_stat_exact_input in = in_f(f, d, 8);
    in.dtype = SL_F64;
    sl_stat_exact_result r;
    run_ok(&sl_draw_numpy_exact, &in, &r);
    assert_sum(&r);
    double cdf[8], s = 0;
    for (int i = 0; i < 8; i++)
        cdf[i] = s += d[i];
    for (int i = 0; i < 8; i++)
        cdf[i] /= s;
    uint64_t K = 0;
    for (int j = 0; j < 7; j++) {
        K += (uint64_t)r.count[j];
        cr_assert_eq(numpy_token(cdf, 8, ldexp((double)K, -53)), (size_t)j + 1, "numpy: k = %llu",
                     (unsigned long long)K);
        cr_assert_eq(numpy_token(cdf, 8, ldexp((double)(K - 1), -53)), (size_t)j, "numpy: k = %llu - 1",
                     (unsigned long long)K);
    }
    sl_stat_exact_result_free(&r);

    in.dtype = SL_F32;
    run_ok(&sl_draw_torch_repl_exact, &in, &r);
    assert_sum(&r);
    float cf[8], sf = 0;
    for (int i = 0; i < 8; i++)
        cf[i] = sf += f[i];
    for (int i = 0; i < 8; i++)
        cf[i] /= sf;
    cf[7] = 1;
    K = 0;
    for (int j = 0; j < 7; j++) {
        K += (uint64_t)r.count[j];
        /* torch: first j with cum[j] >= u */
        double u = ldexp((double)K, -53), um = ldexp((double)(K - 1), -53);
        size_t t = 0, tm = 0;
        while ((double)cf[t] < u)
            t++;
        while ((double)cf[tm] < um)
            tm++;
        cr_assert(t == (size_t)j + 1 && tm == (size_t)j, "torch: boundary %d: tokens %zu %zu", j, tm, t);
    }
    sl_stat_exact_result_free(&r);
}

/* Our own cdf and alias methods, called at every boundary the audit reports. */
Test(replay_exact, own_methods_boundaries)
{
    double d[6] = {0.3, 0, 1e-12, 0.2, 0.5, 0};
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = 6;
    in.d = d;
    const sl_stat_exact_type *ts[2] = {&sl_draw_cdf_exact, &sl_draw_alias_exact};
    const sl_draw_type *ds[2] = {&sl_draw_cdf_type, &sl_draw_alias_type};
    sl_rng_type gt = {.name = "grid", .word_bits = 64, .state_size = 8, .next = sl_test_exact_grid_next};
    for (int m = 0; m < 2; m++) {
        sl_stat_exact_result r;
        run_ok(ts[m], &in, &r);
        assert_sum(&r);
        cr_assert(r.count[1] == 0 && r.count[5] == 0, "%s draws a zero weight", ts[m]->name);
        cr_assert(r.count[2] > 0, "%s never draws the 1e-12 weight", ts[m]->name);
        /* tally the method's own draws over 2^20 evenly spread grid points, plus the last
         * point: every token drawn there must have a positive exact count */
        void *table;
        sl_error e;
        cr_assert_eq(sl_draw_prepare(ds[m], &table, d, 6, &e), 0);
        uint64_t w;
        sl_rng g = {.type = &gt, .state = &w};
        for (uint64_t k = 0; k < (1u << 20); k++) {
            w = (k << 33);
            size_t t = ds[m]->draw(table, &g);
            cr_assert(r.count[t] > 0, "%s: k = %llu draws %zu with exact count 0", ts[m]->name,
                      (unsigned long long)(k << 22), t);
        }
        ds[m]->free(table);
        sl_stat_exact_result_free(&r);
    }
}

Test(replay_exact, counts_sum_to_2_bits_on_49152_tokens)
{
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_io_vec_read("data/synthetic_49152.txt", NULL, -1, &v, &e), 0, "%s", e.msg);
    double *p = malloc(v.n * sizeof *p);
    float *pf = malloc(v.n * sizeof *pf);
    cr_assert_eq(sl_logits_softmax(v.d, v.n, 1.0, p, &e), 0);
    cr_assert_eq(sl_logits_candle_check(v.f, v.n, &e), 0);
    sl_logits_candle_softmax(v.f, v.n, 1.0, 0, pf);
    sl_stat_exact_input in = in_f(pf, p, v.n);
    in.logits_f = v.f; /* llamacpp reads the logits */
    for (size_t i = 0; sl_fw_exact_types[i]; i++) {
        if (sl_fw_exact_types[i] == &sl_draw_torch_race_exact || sl_fw_exact_types[i] == &sl_draw_torch113_race_exact)
            continue;
        sl_stat_exact_result r;
        run_ok(sl_fw_exact_types[i], &in, &r);
        if (!r.has_counts) { /* a bound-only audit (Gumbel-max's): no counts to sum */
            cr_assert(r.tv_bound < 0.01, "%s: tv bound %.3g", r.sampler, r.tv_bound);
            sl_stat_exact_result_free(&r);
            continue;
        }
        assert_sum(&r);
        cr_assert(r.tv < 0.01, "%s: tv %.3g", r.sampler, r.tv);
        sl_stat_exact_result_free(&r);
    }
    free(p);
    free(pf);
    sl_base_vec_free(&v);
}

/* ---------------------------------------------------------------- CLI */

Test(replay_exact, cli_json_rationals_sum)
{
    sl_test_run r = sl_test_cli("exact --framework candle --probs 1,2,0,1e-9,4 --json");
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    /* parse the rationals back and add them */
    const char *s = strstr(r.out, "\"induced\":[");
    cr_assert(s);
    s += 11;
    unsigned long long sum = 0;
    while (*s == '"') {
        unsigned long long n;
        unsigned b;
        cr_assert_eq(sscanf(s, "\"%llu/2^%u\"", &n, &b), 2, "rational at %s", s);
        cr_assert_eq(b, 23);
        sum += n;
        s = strchr(s + 1, '"') + 1;
        if (*s == ',')
            s++;
    }
    cr_assert_eq(sum, 1ull << 23, "rationals sum to %llu", sum);
    cr_assert(strstr(r.out, "\"never\":[3]"), "token 3 (1e-9) is never drawn: %s", r.out);
    sl_test_run_free(&r);
}

Test(replay_exact, cli_errors_and_help)
{
    sl_test_run r = sl_test_cli("exact --framework numpy --probs 1,nan,2");
    cr_assert_eq(r.status, 2);
    cr_assert_eq(strlen(r.out), 0, "nothing on stdout");
    cr_assert_eq(sl_test_lines(r.err), 1, "one line: %s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("exact --framework nope --probs 1,2");
    cr_assert_eq(r.status, 2);
    sl_test_run_free(&r);
    r = sl_test_cli("exact --method cdf --rng gsl:ranlux --probs 1,2");
    cr_assert_eq(r.status, 2, "a 24-bit source is refused: %s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("exact --help");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "usage: samplab exact"));
    sl_test_run_free(&r);
    r = sl_test_cli("exact --framework candle --dtype float64 --probs 1,2");
    cr_assert_eq(r.status, 2, "--dtype is for torch and numpy");
    sl_test_run_free(&r);
    /* a float64 .npy keeps its dtype in torch; text gets torch's float32 */
    static const unsigned char npy[] = "\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"
                                       "                                                                      \n";
    unsigned char buf[256];
    memcpy(buf, npy, 128);
    double vals[2] = {1, 2};
    memcpy(buf + 128, vals, 16);
    char *path = sl_test_tmpfile(".npy", buf, 144);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "exact --framework torch --replacement --probs %s", path);
    r = sl_test_cli(cmd);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "over float64 p"), "npy float64 stays float64: %s", r.out);
    sl_test_run_free(&r);
    unlink(path);
    free(path);
    r = sl_test_cli("exact --framework torch --replacement --probs 1,2");
    cr_assert(strstr(r.out, "over float32 p"), "text is float32 for torch: %s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("exact --framework numpy --probs 1,2");
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "every call fails: ValueError"), "numpy rejects unnormalised p: %s", r.out);
    sl_test_run_free(&r);
}

/* ---------------------------------------------------------------- statistics */

#define N_STAT 10000000u

static double chi2_q(const uint64_t *obs, const sl_stat_exact_result *r, size_t n)
{
    double stat = 0;
    size_t df = 0;
    for (size_t i = 0; i < r->V; i++) {
        double e = sl_stat_exact_prob(r->count[i], r->bits) * (double)n;
        if (e == 0) {
            cr_assert_eq(obs[i], 0, "token %zu has exact probability 0 but was drawn %llu times", i,
                         (unsigned long long)obs[i]);
            continue;
        }
        stat += ((double)obs[i] - e) * ((double)obs[i] - e) / e;
        df++;
    }
    return gsl_cdf_chisq_Q(stat, (double)(df - 1));
}

Test(stat_exact, candle_draws_match_exact)
{
    /* [3,2,2,1] as float32 and a variant whose last weight is 1% larger (power). */
    float f[4] = {3, 2, 2, 1}, g[4] = {3, 2, 2, 1.01f};
    double d[4] = {3, 2, 2, 1}, dg[4] = {3, 2, 2, 1.01};
    sl_stat_exact_input in = in_f(f, d, 4), ing = in_f(g, dg, 4);
    sl_stat_exact_result r, rg;
    run_ok(&sl_draw_rand_wi_exact, &in, &r);
    run_ok(&sl_draw_rand_wi_exact, &ing, &rg);
    sl_rng_pcg32_state s;
    sl_rng_pcg32_seed(&s, 20261129, 7);
    uint64_t obs[4] = {0};
    float cum[3] = {3, 5, 7};
    for (uint32_t n = 0; n < N_STAT; n++) {
        uint32_t u = sl_rng_pcg32_next(&s) >> 9 | 0x3f800000u;
        float v;
        memcpy(&v, &u, 4);
        float chosen = (v - 1.0f) * 8.0f;
        obs[(cum[0] <= chosen) + (cum[1] <= chosen) + (cum[2] <= chosen)]++;
    }
    double q = chi2_q(obs, &r, N_STAT), qg = chi2_q(obs, &rg, N_STAT);
    cr_assert(q > 0.001, "seed 20261129, N = 10^7: chi-square Q = %.3g against the exact candle distribution", q);
    cr_assert(qg < 0.001, "power: Q = %.3g against a 1%% heavier last weight should reject", qg);
    sl_stat_exact_result_free(&r);
    sl_stat_exact_result_free(&rg);
}

Test(stat_exact, gsl_discrete_draws_match_exact)
{
    static const double logits[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
    double d[8];
    sl_error e;
    cr_assert_eq(sl_logits_softmax(logits, 8, 1.0, d, &e), 0);
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = 8;
    in.d = d;
    sl_stat_exact_result r;
    run_ok(&sl_fw_gsl_exact, &in, &r);
    assert_sum(&r);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 12345);
    gsl_ran_discrete_t *t = gsl_ran_discrete_preproc(8, d);
    uint64_t obs[8] = {0};
    for (uint32_t n = 0; n < N_STAT; n++)
        obs[gsl_ran_discrete(g, t)]++;
    double q = chi2_q(obs, &r, N_STAT);
    cr_assert(q > 0.001, "gsl mt19937 seed 12345, N = 10^7: chi-square Q = %.3g", q);
    gsl_ran_discrete_free(t);
    gsl_rng_free(g);
    sl_stat_exact_result_free(&r);
}

/* ---------------------------------------------------------------- golden: the real libraries */

/* data/golden/exact_numpy_torch.txt (analysis/golden/exact_numpy_torch.py, NumPy 1.24.2,
 * torch 1.13.1): NumPy's own grid boundaries K_j, and torch (u, token) pairs. */
Test(replay_exact, golden_numpy_boundaries_and_torch_pairs)
{
    char *text = sl_test_slurp("data/golden/exact_numpy_torch.txt");
    cr_assert(text, "data/golden/exact_numpy_torch.txt is missing (make golden)");
    size_t lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char lib[16], name[64];
        size_t V;
        int off = 0;
        cr_assert_eq(sscanf(line, "%15s %63s %zu%n", lib, name, &V, &off), 3, "line: %.60s", line);
        double d[16];
        float f[16];
        cr_assert(V <= 16);
        char *s = line + off, *end;
        for (size_t i = 0; i < V; i++) {
            d[i] = strtod(s, &end);
            f[i] = (float)d[i];
            s = end;
        }
        s = strchr(s, '|') + 1;
        sl_stat_exact_input in = in_f(f, d, V);
        sl_stat_exact_result r;
        if (!strcmp(lib, "numpy")) {
            in.dtype = SL_F64;
            run_ok(&sl_draw_numpy_exact, &in, &r);
            uint64_t K = 0;
            for (size_t j = 0; j + 1 < V; j++) {
                K += (uint64_t)r.count[j];
                unsigned long long g = strtoull(s, &end, 10);
                s = end;
                cr_assert_eq(K, g, "numpy %s: K_%zu = %llu, NumPy says %llu", name, j, (unsigned long long)K, g);
            }
        } else {
            in.dtype = SL_F32;
            run_ok(&sl_draw_torch_repl_exact, &in, &r);
            uint64_t lo[16], hi[16], K = 0;
            for (size_t j = 0; j < V; j++) {
                lo[j] = K;
                K += (uint64_t)r.count[j];
                hi[j] = K;
            }
            unsigned long long k;
            unsigned t;
            int n, pairs = 0;
            while (sscanf(s, " %llu:%u%n", &k, &t, &n) == 2) {
                cr_assert(t < V && k >= lo[t] && k < hi[t], "torch %s: k = %llu drew %u, exact interval [%llu, %llu)",
                          name, k, t, (unsigned long long)lo[t], (unsigned long long)hi[t]);
                s += n;
                pairs++;
            }
            cr_assert_eq(pairs, 300, "torch %s: %d pairs", name, pairs);
        }
        sl_stat_exact_result_free(&r);
        lines++;
    }
    cr_assert_eq(lines, 7, "golden lines: %zu", lines);
    free(text);
}

/* ---------------------------------------------------------------- the samplers' own code as oracle */

/* A GSL generator whose next uniform is the word in its state, over 2^32. */
static void fixed_set(void *state, unsigned long seed)
{
    *(uint64_t *)state = seed;
}
static unsigned long fixed_get(void *state)
{
    return (unsigned long)*(uint64_t *)state;
}
static double fixed_get_double(void *state)
{
    return ldexp((double)*(uint64_t *)state, -32);
}
static const gsl_rng_type fixed_type = {"fixed", 0xffffffffUL, 0, sizeof(uint64_t), fixed_set, fixed_get,
                                        fixed_get_double};

static size_t gsl_at(gsl_rng *g, const gsl_ran_discrete_t *t, uint64_t w)
{
    *(uint64_t *)g->state = w;
    return gsl_ran_discrete(g, t);
}

Test(replay_exact, gsl_counts_from_gsl_itself)
{
    /* Per bucket (the 2^32 words split by (size_t)(w/2^32*K)), GSL's own gsl_ran_discrete
     * returns the bucket, then its alias: the switch is found by binary search calling
     * GSL, so the counts follow GSL's code, not the audit's interval arithmetic. */
    static const double vecs[][7] = {
        {0.5154835512819855, 0.25598155591283933, 0.1715895683437691, 0.0313465870357273, 0.014084929481373673,
         0.006994368985388527, 0.0034733008474383737},
        {1, 0, 3, 1e-9, 0, 2, 1e-300},
        {1, 1, 1, 1, 1, 1, 1},
    };
    gsl_rng *g = gsl_rng_alloc(&fixed_type);
    for (size_t v = 0; v < 3; v++) {
        const size_t V = 7;
        sl_stat_exact_input in;
        memset(&in, 0, sizeof in);
        in.V = V;
        in.d = vecs[v];
        sl_stat_exact_result r;
        run_ok(&sl_fw_gsl_exact, &in, &r);
        assert_sum(&r);
        gsl_ran_discrete_t *t = gsl_ran_discrete_preproc(V, vecs[v]);
        uint64_t c[7] = {0}, lo = 0, N = (uint64_t)1 << 32;
        for (size_t b = 0; b < V; b++) {
            uint64_t a = lo, e = N;
            while (a < e) {
                uint64_t mid = a + (e - a) / 2;
                if ((size_t)(ldexp((double)mid, -32) * (double)V) > b)
                    e = mid;
                else
                    a = mid + 1;
            }
            uint64_t hi = a;
            size_t t0 = gsl_at(g, t, lo), t1 = gsl_at(g, t, hi - 1);
            if (t0 == t1) {
                c[t0] += hi - lo;
            } else {
                uint64_t x = lo, y = hi - 1;
                while (x < y) {
                    uint64_t mid = x + (y - x) / 2;
                    if (gsl_at(g, t, mid) != t0)
                        y = mid;
                    else
                        x = mid + 1;
                }
                c[t0] += x - lo;
                c[t1] += hi - x;
                cr_assert_eq(gsl_at(g, t, x - 1), t0);
                cr_assert_eq(gsl_at(g, t, x), t1);
            }
            lo = hi;
        }
        for (size_t i = 0; i < V; i++)
            cr_assert(r.count[i] == c[i], "vector %zu token %zu: audit %.0f, GSL %llu", v, i, (double)r.count[i],
                      (unsigned long long)c[i]);
        gsl_ran_discrete_free(t);
        sl_stat_exact_result_free(&r);
    }
    gsl_rng_free(g);
}

Test(replay_exact, cdf_counts_from_the_method_itself)
{
    /* draw/cdf's token is nondecreasing in k: the boundaries are found by binary search
     * calling the method's own draw on the 2^53 grid. */
    double d[9] = {0.3, 0, 1e-12, 0.2, 0.5, 0, 1e-300, 0x1p-60, 0};
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = 9;
    in.d = d;
    sl_stat_exact_result r;
    run_ok(&sl_draw_cdf_exact, &in, &r);
    void *table;
    sl_error e;
    cr_assert_eq(sl_draw_prepare(&sl_draw_cdf_type, &table, d, 9, &e), 0);
    sl_rng_type gt = {.name = "grid", .word_bits = 64, .state_size = 8, .next = sl_test_exact_grid_next};
    uint64_t w;
    sl_rng g = {.type = &gt, .state = &w};
    uint64_t prev = 0, N = (uint64_t)1 << 53;
    for (size_t j = 0; j < 9; j++) {
        uint64_t a = prev, b = N;
        while (a < b) {
            uint64_t mid = a + (b - a) / 2;
            w = mid << 11;
            if (sl_draw_cdf_type.draw(table, &g) > j)
                b = mid;
            else
                a = mid + 1;
        }
        cr_assert(r.count[j] == a - prev, "token %zu: audit %.0f, method %llu", j, (double)r.count[j],
                  (unsigned long long)(a - prev));
        prev = a;
    }
    sl_draw_cdf_type.free(table);
    sl_stat_exact_result_free(&r);
}

Test(replay_exact, own_methods_when_the_float64_sum_overflows)
{
    /* 1e308 + 1e308 = inf: draw/cdf's target u*inf exceeds every running sum (the guard
     * returns the last positive token), draw/linear's p/inf = 0 sends every draw through
     * the fallback to the zero-probability last token. The audit says so, exactly. */
    double d[3] = {1e308, 1e308, 0};
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = 3;
    in.d = d;
    sl_stat_exact_result r;
    run_ok(&sl_draw_cdf_exact, &in, &r);
    cr_assert(r.count[1] == ((sl_u128)1 << 53) && r.n_never == 1 && r.never[0] == 0, "cdf: all on token 1");
    sl_stat_exact_result_free(&r);
    run_ok(&sl_draw_linear_exact, &in, &r);
    cr_assert(r.count[2] == ((sl_u128)1 << 53) && r.n_zero_drawn == 1, "linear: all on the zero token 2");
    sl_stat_exact_result_free(&r);
    sl_rng_type gt = {.name = "grid", .word_bits = 64, .state_size = 8, .next = sl_test_exact_grid_next};
    uint64_t w;
    sl_rng g = {.type = &gt, .state = &w};
    const sl_draw_type *ds[2] = {&sl_draw_cdf_type, &sl_draw_linear_type};
    size_t expect[2] = {1, 2};
    for (int m = 0; m < 2; m++) {
        void *table;
        sl_error e;
        cr_assert_eq(sl_draw_prepare(ds[m], &table, d, 3, &e), 0);
        for (uint64_t k = 0; k < 4; k++) {
            w = (k * (((uint64_t)1 << 53) / 3)) << 11;
            cr_assert_eq(ds[m]->draw(table, &g), expect[m], "%s at k = %llu", ds[m]->name, (unsigned long long)k);
        }
        ds[m]->free(table);
    }
}

/* data/golden/exact_rand.txt (rand 0.8.5, Debian 12) and data/golden/current/
 * exact_rand_{0.8.8,0.10.3}.txt (sid), written by the rand oracle's `exact` mode
 * (analysis/golden/rand_golden.sh, current/rand_golden.sh): the real
 * WeightedIndex<f32> enumerated over all 2^23 uniforms, fixed vectors (subnormal
 * totals among them) and, for the 49152-token vocabulary, FNV-1a hashes of the
 * float32 weights (candle's softmax recipe) and of the counts. Each is replayed
 * through `samplab exact --framework candle --rand R --json`, count for count. */
static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* the counts of the "induced" rationals of `exact --json` ("c/2^23"), n of them */
static unsigned long long *induced_counts(const char *json, size_t n)
{
    const char *s = strstr(json, "\"induced\":[");
    cr_assert(s, "no induced counts in %.200s", json);
    s += 11;
    unsigned long long *c = malloc((n ? n : 1) * sizeof *c);
    cr_assert(c);
    for (size_t i = 0; i < n; i++) {
        char *end;
        cr_assert_eq(*s, '"', "induced entry %zu", i);
        c[i] = strtoull(s + 1, &end, 10);
        cr_assert(!strncmp(end, "/2^23\"", 6), "induced entry %zu: %.20s", i, end);
        s = end + 6;
        if (*s == ',')
            s++;
    }
    cr_assert_eq(*s, ']', "more than %zu induced entries", n);
    return c;
}

/* The fixed vectors of an exact_rand file: per record the float32 total
 * (summed left to right as WeightedIndex::new does) and the counts. */
typedef struct {
    size_t n;
    float total[32];
    unsigned long long count[32][32];
} exact_wi_book;

static void read_exact_wi(const char *path, exact_wi_book *bk)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s is missing", path);
    memset(bk, 0, sizeof *bk);
    char *save;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[64];
        size_t V;
        int off;
        if (strncmp(line, "wi ", 3))
            continue;
        cr_assert_eq(sscanf(line + 3, "%63s %zu%n", name, &V, &off), 2);
        cr_assert(V <= 32 && bk->n < 32, "%s: record %s", path, name);
        char *s = line + 3 + off, *end;
        for (size_t j = 0; j < V; j++) {
            uint32_t b = (uint32_t)strtoul(s, &end, 16);
            s = end;
            float f;
            memcpy(&f, &b, 4);
            bk->total[bk->n] += f;
        }
        s = strchr(s, '|') + 1;
        for (size_t j = 0; j < V; j++) {
            bk->count[bk->n][j] = strtoull(s, &end, 10);
            s = end;
        }
        bk->n++;
    }
    free(text);
}

/* Replays one golden file under --rand R. */
static void replay_exact_rand(const char *path, const char *rand)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s is missing", path);
    sl_vec zipf;
    sl_error e;
    cr_assert_eq(sl_io_vec_read("data/synthetic_49152.txt", NULL, -1, &zipf, &e), 0, "%s", e.msg);
    size_t wi = 0, zl = 0, records = 0, tokens = 0;
    char *save;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[64], args[2048];
        size_t V;
        int off = 0;
        if (!strncmp(line, "wi ", 3)) {
            cr_assert_eq(sscanf(line + 3, "%63s %zu%n", name, &V, &off), 2);
            cr_assert(V <= 32, "%s: record %s", path, name);
            char *s = line + 3 + off, *end;
            int k = snprintf(args, sizeof args, "exact --framework candle --rand %s --json --probs ", rand);
            for (size_t i = 0; i < V; i++) {
                uint32_t b = (uint32_t)strtoul(s, &end, 16);
                s = end;
                float f;
                memcpy(&f, &b, 4);
                k += snprintf(args + k, sizeof args - (size_t)k, "%s%.9g", i ? "," : "", (double)f);
            }
            s = strchr(s, '|') + 1;
            sl_test_run r = sl_test_cli(args);
            cr_assert_eq(r.status, 0, "%s: %s: %s", path, args, r.err);
            unsigned long long *got = induced_counts(r.out, V);
            for (size_t i = 0; i < V; i++) {
                unsigned long long c = strtoull(s, &end, 10);
                s = end;
                cr_assert(got[i] == c, "%s %s token %zu: samplab exact --rand %s %llu, rand %llu", path, name, i, rand,
                          got[i], c);
            }
            free(got);
            sl_test_run_free(&r);
            tokens += V;
            wi++;
        } else if (!strncmp(line, "zipf T=", 7)) {
            double T;
            unsigned long long wf, cf;
            size_t never;
            cr_assert_eq(sscanf(line + 7, "%lf %zu weights_fnv=%llx counts_fnv=%llx never=%zu", &T, &V, &wf, &cf,
                                &never), 5, "line %s", line);
            cr_assert_eq(V, zipf.n);
            /* the weights the crate counted: candle's softmax as samplab computes it */
            float *f = malloc(V * sizeof *f);
            cr_assert_eq(sl_logits_candle_check(zipf.f, V, &e), 0, "%s", e.msg);
            sl_logits_candle_softmax(zipf.f, V, T, 0, f);
            uint64_t h = 0xcbf29ce484222325ull;
            for (size_t i = 0; i < V; i++)
                h = fnv_bytes(h, &f[i], 4); /* little-endian bit patterns, as rand's side hashes them */
            cr_assert_eq(h, wf, "T = %g: candle softmax weights hash %016llx, rand side %016llx", T,
                         (unsigned long long)h, wf);
            free(f);
            snprintf(args, sizeof args,
                     "exact --framework candle --rand %s --json --logits data/synthetic_49152.txt --temperature %g",
                     rand, T);
            sl_test_run r = sl_test_cli(args);
            cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
            unsigned long long *got = induced_counts(r.out, V);
            h = 0xcbf29ce484222325ull;
            size_t zero = 0;
            for (size_t i = 0; i < V; i++) {
                uint64_t c = got[i];
                h = fnv_bytes(h, &c, 8);
                zero += c == 0;
            }
            cr_assert_eq(h, cf, "%s T = %g: counts hash %016llx, rand %016llx", path, T, (unsigned long long)h, cf);
            cr_assert_eq(zero, never, "%s T = %g: never drawn %zu, rand %zu", path, T, zero, never);
            free(got);
            sl_test_run_free(&r);
            tokens += V;
            zl++;
        } else {
            continue;
        }
        records++;
    }
    cr_log_info("%s: %zu records (%zu vectors, %zu vocabularies), %zu token counts equal under --rand %s", path,
                records, wi, zl, tokens, rand);
    cr_assert(wi == 22 && zl == 2, "%s: golden lines: %zu wi, %zu zipf", path, wi, zl);
    sl_base_vec_free(&zipf);
    free(text);
}

Test(replay_exact, golden_rand_full_enumeration)
{
    replay_exact_rand("data/golden/exact_rand.txt", "0.8");
}

/* The fixed-vector counts of two exact_rand files, the same vectors in both. */
static void read_exact_pair(const char *pa, const char *pb, exact_wi_book *a, exact_wi_book *b)
{
    read_exact_wi(pa, a);
    read_exact_wi(pb, b);
    cr_assert_eq(a->n, b->n, "%s and %s hold other vectors", pa, pb);
    cr_assert_eq(memcmp(a->total, b->total, sizeof a->total), 0, "%s and %s hold other vectors", pa, pb);
}

Test(replay_exact, exact_rand_088_full_enumeration)
{
    replay_exact_rand("data/golden/current/exact_rand_0.8.8.txt", "0.8");
    exact_wi_book a, b;
    read_exact_pair("data/golden/exact_rand.txt", "data/golden/current/exact_rand_0.8.8.txt", &a, &b);
    cr_assert_eq(memcmp(a.count, b.count, sizeof a.count), 0, "rand 0.8.8 counts differ from 0.8.5's");
}

/* rand 0.10.3 against 0.8.8: the counts differ exactly where the total is subnormal */
Test(replay_exact, exact_rand_0103_full_enumeration)
{
    replay_exact_rand("data/golden/current/exact_rand_0.10.3.txt", "0.10");
    exact_wi_book a, b;
    read_exact_pair("data/golden/current/exact_rand_0.8.8.txt", "data/golden/current/exact_rand_0.10.3.txt", &a, &b);
    size_t differ = 0, sub = 0;
    for (size_t i = 0; i < a.n; i++) {
        int is_sub = a.total[i] > 0 && a.total[i] < FLT_MIN;
        int d = memcmp(a.count[i], b.count[i], sizeof a.count[i]) != 0;
        sub += is_sub;
        differ += d;
        cr_expect(!d || is_sub, "vector %zu: rand 0.10.3 and 0.8.8 counts differ with a normal total", i);
    }
    cr_log_info("exact_rand: rand 0.10.3 vs 0.8.8: %zu of %zu vectors differ, all with a subnormal total (%zu "
                "subnormal totals)", differ, a.n, sub);
    cr_assert(differ > 0);
}

/* ---------------------------------------------------------------- random vectors */

/* The token each sampler's own rule gives at grid value k (direct evaluation, no search). */
static size_t rule_candle(const float *w, size_t V, uint64_t k)
{
    float total = w[0], cum[64];
    for (size_t i = 1; i < V; i++) {
        cum[i - 1] = total;
        total += w[i];
    }
    float scale = total;
    while (scale * (1.0f - 0x1p-23f) + 0.0f >= total)
        scale = nextafterf(scale, 0);
    float chosen = ldexpf((float)k, -23) * scale + 0.0f;
    size_t t = 0;
    for (size_t i = 0; i + 1 < V; i++)
        t += cum[i] <= chosen;
    return t;
}

static size_t rule_numpy(const double *p, size_t V, uint64_t k)
{
    double cdf[64], s = 0;
    for (size_t i = 0; i < V; i++)
        cdf[i] = s += p[i];
    for (size_t i = 0; i < V; i++)
        cdf[i] /= cdf[V - 1];
    return numpy_token(cdf, V, ldexp((double)k, -53));
}

static size_t rule_torch(const float *p, size_t V, uint64_t k)
{
    float c[64], s = 0;
    for (size_t i = 0; i < V; i++)
        c[i] = s += p[i];
    for (size_t i = 0; i < V; i++)
        c[i] /= s;
    c[V - 1] = 1;
    double u = ldexp((double)k, -53);
    size_t l = 0, r = V;
    while (r > l) {
        size_t mid = l + (r - l) / 2;
        if ((double)c[mid] < u)
            l = mid + 1;
        else
            r = mid;
    }
    return l;
}

Test(replay_exact, random_vectors_boundaries)
{
    /* 300 vectors (seed 9, PCG32): V in 1..40, weights drawn from zeros, tiny (2^-30..2^-140),
     * ordinary and large values. At each boundary of every counted sampler, the sampler's
     * own rule (or its code, for draw/cdf and draw/linear) gives the tokens on both sides. */
    sl_rng_pcg32_state s;
    sl_rng_pcg32_seed(&s, 9, 1);
    sl_rng_type gt = {.name = "grid", .word_bits = 64, .state_size = 8, .next = sl_test_exact_grid_next};
    uint64_t w;
    sl_rng g = {.type = &gt, .state = &w};
    size_t checks = 0;
    for (int rep = 0; rep < 300; rep++) {
        size_t V = 1 + sl_rng_pcg32_bounded(&s, 40);
        double d[64];
        float f[64];
        int any = 0;
        for (size_t i = 0; i < V; i++) {
            uint32_t kind = sl_rng_pcg32_bounded(&s, 6), m = sl_rng_pcg32_next(&s);
            double x = kind == 0 ? 0 : kind == 1 ? ldexp(1 + m / 0x1p32, -30 - (int)(m % 110))
                     : kind == 2 ? ldexp(1 + m / 0x1p32, 20) : m / 0x1p32;
            f[i] = (float)x;
            d[i] = f[i]; /* one value both samplers read */
            any |= f[i] > 0;
        }
        if (!any)
            f[0] = 1, d[0] = 1;
        double ds = 0;
        for (size_t i = 0; i < V; i++)
            ds += d[i];
        double dn[64];
        for (size_t i = 0; i < V; i++)
            dn[i] = d[i] / ds; /* numpy needs p summing to 1 */
        sl_stat_exact_input in = in_f(f, d, V);
        const sl_stat_exact_type *ts[5] = {&sl_draw_rand_wi_exact, &sl_draw_numpy_exact, &sl_draw_torch_repl_exact,
                                      &sl_draw_cdf_exact, &sl_draw_linear_exact};
        for (int m = 0; m < 5; m++) {
            in.d = m == 1 ? dn : d;
            in.dtype = m == 2 ? SL_F32 : SL_F64;
            sl_stat_exact_result r;
            run_ok(ts[m], &in, &r);
            cr_assert(!r.always_fails, "%s rep %d always fails: %s", ts[m]->name, rep, r.paths[0].what);
            assert_sum(&r);
            void *table = NULL;
            sl_error e;
            if (m >= 3)
                cr_assert_eq(sl_draw_prepare((m == 3 ? &sl_draw_cdf_type : &sl_draw_linear_type), &table, d, V, &e), 0);
            uint64_t K = 0, N = (uint64_t)1 << r.bits;
            for (size_t j = 0; j + 1 < V; j++) {
                K += (uint64_t)r.count[j];
                if (r.count[j + 1] == 0 || K == 0 || K >= N)
                    continue; /* no boundary between j and the next drawn token here */
                size_t before, at;
                if (m == 0) {
                    before = rule_candle(f, V, K - 1), at = rule_candle(f, V, K);
                } else if (m == 1) {
                    before = rule_numpy(dn, V, K - 1), at = rule_numpy(dn, V, K);
                } else if (m == 2) {
                    before = rule_torch(f, V, K - 1), at = rule_torch(f, V, K);
                } else {
                    const sl_draw_type *dt = m == 3 ? &sl_draw_cdf_type : &sl_draw_linear_type;
                    w = (K - 1) << 11;
                    before = dt->draw(table, &g);
                    w = K << 11;
                    at = dt->draw(table, &g);
                }
                cr_assert(before <= j && at > j && r.count[before] > 0 && r.count[at] > 0,
                          "%s rep %d V %zu: boundary after token %zu at k = %llu: rule gives %zu | %zu", ts[m]->name,
                          rep, V, j, (unsigned long long)K, before, at);
                checks++;
            }
            if (table)
                (m == 3 ? &sl_draw_cdf_type : &sl_draw_linear_type)->free(table);
            sl_stat_exact_result_free(&r);
        }
    }
    cr_assert(checks > 3000, "boundaries checked: %zu", checks);
}

Test(replay_exact, gsl_generators_accepted_have_a_32_bit_grid)
{
    /* `samplab exact --framework gsl --rng R` accepts these because their
     * gsl_rng_uniform is exactly gsl_rng_get / 2^32 over the full 32-bit range */
    const gsl_rng_type *ts[] = {gsl_rng_mt19937, gsl_rng_mt19937_1999, gsl_rng_mt19937_1998, gsl_rng_taus,
                                gsl_rng_taus2, gsl_rng_gfsr4};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        cr_assert(ts[i]->min == 0 && ts[i]->max == 0xffffffffUL, "%s range", ts[i]->name);
        gsl_rng *a = gsl_rng_alloc(ts[i]), *b = gsl_rng_alloc(ts[i]);
        for (int n = 0; n < 1000; n++) {
            double u = gsl_rng_uniform(a);
            unsigned long w = gsl_rng_get(b);
            cr_assert_eq(u, ldexp((double)w, -32), "%s draw %d", ts[i]->name, n);
        }
        gsl_rng_free(a);
        gsl_rng_free(b);
    }
    sl_test_run r = sl_test_cli("exact --framework gsl --rng gsl:ranlxd2 --probs 1,2");
    cr_assert_eq(r.status, 2, "ranlxd2 (48-bit doubles) is refused");
    sl_test_run_free(&r);
}

/* tests/oracle/llamacpp_dist.cpp: llama.cpp's dist selection over libstdc++'s own
 * uniform_real_distribution<double>, counted over all 2^64 word pairs. */
Test(replay_exact, llamacpp_against_libstdcxx)
{
    char *text = sl_test_oracle("llamacpp_dist");
    cr_assert(text, "oracle transcript missing (make test runs tests/oracle/llamacpp_dist.cpp)");
    const float ninf = -INFINITY;
    static const struct {
        const char *name;
        size_t V;
        float x[8];
    } cases[] = {
        {"weather", 8, {4.0f, 3.3f, 2.9f, 1.2f, 0.4f, -0.3f, -1.0f, -2.2f}},
        {"leading_ban", 3, {0, 1.0f, 2.0f}},
        {"ties_t07", 4, {3.0f / 0.7f, 2.0f / 0.7f, 2.0f / 0.7f, 1.0f / 0.7f}},
        {"top4", 8, {4.0f, 3.3f, 2.9f, 1.2f, 0, 0, 0, 0}},
        {"wide", 8, {0.0f, -20.0f, -40.0f, -60.0f, -80.0f, -100.0f, -103.0f, 5.0f}},
    };
    size_t found = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        float x[8];
        double lx[8], d[8];
        memcpy(x, cases[c].x, sizeof x);
        if (!strcmp(cases[c].name, "leading_ban"))
            x[0] = ninf;
        if (!strcmp(cases[c].name, "top4"))
            x[4] = x[5] = x[6] = x[7] = ninf;
        size_t V = cases[c].V;
        for (size_t i = 0; i < V; i++)
            lx[i] = x[i];
        sl_error e;
        cr_assert_eq(sl_logits_softmax(lx, V, 1.0, d, &e), 0, "%s", e.msg);
        sl_stat_exact_input in;
        memset(&in, 0, sizeof in);
        in.V = V;
        in.d = d;
        in.logits_f = x;
        sl_stat_exact_result r;
        run_ok(&sl_draw_llama_dist_exact, &in, &r);
        assert_sum(&r);
        char key[80];
        snprintf(key, sizeof key, "\n%s %zu ", cases[c].name, V);
        char *s = strstr(text, key);
        if (!s && !strncmp(text, key + 1, strlen(key + 1)))
            s = text - 1;
        cr_assert(s, "oracle line for %s", cases[c].name);
        s += strlen(key);
        for (size_t i = 0; i < V; i++) {
            char *end;
            sl_u128 g = 0;
            while (*s == ' ')
                s++;
            for (end = s; *end >= '0' && *end <= '9'; end++)
                g = g * 10 + (sl_u128)(*end - '0');
            s = end;
            char a[48], b[48];
            sl_stat_exact_u128_format(r.count[i], a, sizeof a);
            sl_stat_exact_u128_format(g, b, sizeof b);
            cr_assert(r.count[i] == g, "%s token %zu: audit %s, libstdc++ %s", cases[c].name, i, a, b);
        }
        if (!strcmp(cases[c].name, "leading_ban"))
            cr_assert(r.n_zero_drawn == 1 && r.count[0] == 1, "banned token 0 drawn at u = 0 (1/2^64)");
        sl_stat_exact_result_free(&r);
        found++;
    }
    cr_assert_eq(found, 5);
    free(text);
}

Test(stat_exact, alias_and_llamacpp_draws_match_exact)
{
    /* draw/alias with PCG32 (seed 77) and llama.cpp's dist emulated over MT19937 words
     * (seed 5489, generate_canonical: w1 + w2*2^32 in double over 2^64), 10^7 draws each
     * on the weather logits, against the exact counts; alpha = 0.001. */
    static const float x[8] = {4.0f, 3.3f, 2.9f, 1.2f, 0.4f, -0.3f, -1.0f, -2.2f};
    double lx[8], d[8];
    for (int i = 0; i < 8; i++)
        lx[i] = x[i];
    sl_error e;
    cr_assert_eq(sl_logits_softmax(lx, 8, 1.0, d, &e), 0);
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = 8;
    in.d = d;
    in.logits_f = x;
    sl_stat_exact_result ra, rl;
    run_ok(&sl_draw_alias_exact, &in, &ra);
    run_ok(&sl_draw_llama_dist_exact, &in, &rl);
    sl_rng r;
    sl_seed s = {.lo = 77};
    cr_assert_eq(sl_rng_init(&r, &sl_rng_pcg32_type, &s, &e), 0, "%s", e.msg);
    void *table;
    cr_assert_eq(sl_draw_prepare(&sl_draw_alias_type, &table, d, 8, &e), 0);
    uint64_t oa[8] = {0}, ol[8] = {0};
    for (uint32_t n = 0; n < N_STAT; n++)
        oa[sl_draw_alias_type.draw(table, &r)]++;
    sl_draw_alias_type.free(table);
    sl_rng_release(&r);
    sl_rng_mt19937_state mt;
    sl_rng_mt19937_init_genrand(&mt, 5489);
    float p[8];
    double sum = 0, run[8];
    for (int i = 0; i < 8; i++) {
        p[i] = expf(x[i] - x[0]);
        sum += p[i];
        run[i] = sum;
    }
    for (uint32_t n = 0; n < N_STAT; n++) {
        double w1 = sl_rng_mt19937_next(&mt), w2 = sl_rng_mt19937_next(&mt);
        double u = (w1 + w2 * 0x1p32) / 0x1p64;
        if (u >= 1)
            u = 0x1.fffffffffffffp-1;
        double tgt = sum * u;
        int t = 0;
        while (t < 7 && run[t] < tgt)
            t++;
        ol[t]++;
    }
    double qa = chi2_q(oa, &ra, N_STAT), ql = chi2_q(ol, &rl, N_STAT);
    cr_assert(qa > 0.001, "alias, pcg32 seed 77, N = 10^7: Q = %.3g", qa);
    cr_assert(ql > 0.001, "llama.cpp dist, mt19937 seed 5489, N = 10^7: Q = %.3g", ql);
    sl_stat_exact_result_free(&ra);
    sl_stat_exact_result_free(&rl);
}

/* --temperature 0 is greedy everywhere: one line that says so, not the
 * softmax's hint to --method greedy, which exact does not count */
Test(replay_exact, cli_temperature_zero_is_one_clear_error)
{
    sl_test_run r = sl_test_cli("exact --framework candle --logits 1,3,3,2 --temperature 0");
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.out, "");
    cr_assert(strstr(r.err, "samplab exact: --temperature 0: at T <= 0") && !strstr(r.err, "--method greedy"), "%s",
              r.err);
    sl_test_run_free(&r);
}
