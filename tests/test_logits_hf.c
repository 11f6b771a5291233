/* test_logits_hf.c — samplab's `hf` pipeline (logits/hf.c) on the vectors of
 * transformers' own tests/generation/test_logits_process.py
 * (LogitsProcessorTest, transformers 4.5x/5.x): each test names the upstream
 * test function and row it reproduces. Upstream compares processed scores;
 * the pipeline returns the renormalised distribution, so where upstream
 * expects exp(scores) = e, we expect e / sum(e) on the kept ids and 0
 * elsewhere, and where it counts kept entries, we count them. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "samplab.h"

static void hf_vec(sl_vec *v, const double *x, size_t n)
{
    cr_assert_eq(sl_base_vec_alloc(v, n, "test", NULL), 0);
    for (size_t i = 0; i < n; i++) {
        v->d[i] = x[i];
        v->f[i] = (float)x[i];
    }
}

static sl_logits_result hf_run(const double *x, size_t n, const sl_logits_cfg *c)
{
    sl_vec v;
    hf_vec(&v, x, n);
    sl_logits_result r;
    sl_error e;
    int rc = sl_logits_pipeline_run(&sl_logits_pipeline_hf_type, &v, c, &r, &e);
    cr_assert_eq(rc, 0, "hf pipeline failed: %s", e.msg);
    sl_base_vec_free(&v);
    return r;
}

/* logits = log(dist) in float32, as torch.log(torch.tensor(dist)) */
static void hf_logdist(const double *dist, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = logf((float)dist[i]);
}

static void hf_expect_filtered(const char *what, const double *dist, size_t n, const double *expected,
                               const sl_logits_cfg *c)
{
    double lg[16] = {0};
    hf_logdist(dist, n, lg);
    sl_logits_result r = hf_run(lg, n, c);
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += expected[i];
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(r.kept[i], expected[i] > 0, "%s: id %zu kept %d, expected %d", what, i, r.kept[i],
                     expected[i] > 0);
        cr_assert(fabs(r.probs[i] - expected[i] / s) < 1e-3, "%s: id %zu p %.9g expected %.9g", what, i, r.probs[i],
                  expected[i] / s);
    }
    sl_logits_result_free(&r);
}

static size_t hf_kept(const double *x, size_t n, const sl_logits_cfg *c)
{
    sl_logits_result r = hf_run(x, n, c);
    size_t k = r.n_kept;
    sl_logits_result_free(&r);
    return k;
}

/* ramp logits of test_*_dist_warper: arange(10) - 5, second row x 100 */
static void hf_ramp(double *x, double scale)
{
    for (int i = 0; i < 10; i++)
        x[i] = ((double)i - 5) * scale;
}

/* test_temperature_dist_warper: uniform 1/20 with a peak (+0.1) and a valley (-0.4) */
Test(replay_pipeline, hf_test_temperature_dist_warper)
{
    double x[20];
    for (int i = 0; i < 20; i++)
        x[i] = 1.0 / 20;
    sl_logits_cfg c = {0};
    sl_logits_result base = hf_run(x, 20, &c);
    c.has_temperature = 1;
    c.temperature = 0.5;
    sl_logits_result sharp = hf_run(x, 20, &c);
    for (int i = 0; i < 20; i++) /* uniform stays uniform */
        cr_assert(fabs(sharp.probs[i] - base.probs[i]) < 1e-3);
    x[5] = 1.0 / 20 + 0.1;
    x[10] = 1.0 / 20 - 0.4;
    c.has_temperature = 0;
    sl_logits_result p = hf_run(x, 20, &c);
    c.has_temperature = 1;
    c.temperature = 0.5;
    sl_logits_result s = hf_run(x, 20, &c);
    c.temperature = 1.3;
    sl_logits_result m = hf_run(x, 20, &c);
    cr_assert(p.probs[5] < s.probs[5] && p.probs[10] > s.probs[10], "T=0.5: peak %.9g->%.9g valley %.9g->%.9g",
              p.probs[5], s.probs[5], p.probs[10], s.probs[10]);
    cr_assert(p.probs[5] > m.probs[5] && p.probs[10] < m.probs[10], "T=1.3: peak %.9g->%.9g valley %.9g->%.9g",
              p.probs[5], m.probs[5], p.probs[10], m.probs[10]);
    sl_logits_result_free(&base);
    sl_logits_result_free(&sharp);
    sl_logits_result_free(&p);
    sl_logits_result_free(&s);
    sl_logits_result_free(&m);
}

/* test_repetition_penalty_dist_process: penalty 2.0, rows input_ids [0,1] and [5,0] */
Test(replay_pipeline, hf_test_repetition_penalty_dist_process)
{
    for (int row = 0; row < 2; row++) {
        double x[10];
        for (int i = 0; i < 10; i++)
            x[i] = 0.1;
        long ctx0[2] = {0, 1}, ctx1[2] = {5, 0};
        if (row == 0)
            x[0] = -0.1;
        else
            x[5] = 0.4;
        sl_logits_cfg c = {0};
        c.has_penalty = 1;
        c.penalty = 2.0;
        c.context = row ? ctx1 : ctx0;
        c.context_n = 2;
        sl_logits_result r = hf_run(x, 10, &c);
        /* processed scores, up to the softmax constant: log(p_i / p_2) = s_i - s_2 */
        double want0 = row ? 0.1 / 2 : -0.1 * 2, wantk = row ? 0.4 / 2 : 0.1 / 2;
        size_t k = row ? 5 : 1;
        double got0 = log(r.probs[0] / r.probs[2]) + 0.1, gotk = log(r.probs[k] / r.probs[2]) + 0.1;
        cr_assert(fabs(got0 - want0) < 1e-6, "row %d id 0: score %.9g expected %.9g", row, got0, want0);
        cr_assert(fabs(gotk - wantk) < 1e-6, "row %d id %zu: score %.9g expected %.9g", row, k, gotk, wantk);
        sl_logits_result_free(&r);
    }
}

/* test_top_k_dist_warper: TopKLogitsWarper(3) on two ramps; min_tokens_to_keep=3 with top_k=1 */
Test(replay_pipeline, hf_test_top_k_dist_warper)
{
    double x[10];
    for (int i = 0; i < 10; i++)
        x[i] = i;
    sl_logits_cfg c = {0};
    c.has_top_k = 1;
    c.top_k = 3;
    sl_logits_result r = hf_run(x, 10, &c);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(r.kept[i], i >= 7, "row 0 id %d kept %d", i, r.kept[i]);
    sl_logits_result_free(&r);
    for (int i = 0; i < 5; i++)
        x[i] += 10;
    r = hf_run(x, 10, &c);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(r.kept[i], i >= 2 && i < 5, "row 1 id %d kept %d", i, r.kept[i]);
    sl_logits_result_free(&r);
    /* safety check: top_k=1, min_tokens_to_keep=3 */
    double u[5] = {0.2, 0.2, 0.2, 0.2, 0.2}, ramp[5] = {0, 1, 2, 3, 4};
    c.top_k = 1;
    c.has_min_keep = 1;
    c.min_keep = 3;
    cr_assert_eq(hf_kept(u, 5, &c), 5, "uniform dist is not changed");
    cr_assert_eq(hf_kept(ramp, 5, &c), 3, "min_tokens overwrites k: 3 tokens are kept");
}

/* test_top_p_dist_warper: TopPLogitsWarper(0.8) on log([0.3,0.1,0.1,0.5]) and
 * log([0.15,0.3,0.3,0.25]); TopPLogitsWarper(0.9, min_tokens_to_keep=2) on ramps */
Test(replay_pipeline, hf_test_top_p_dist_warper)
{
    sl_logits_cfg c = {0};
    c.has_top_p = 1;
    c.top_p = 0.8;
    hf_expect_filtered("top_p row 0", (double[]){0.3, 0.1, 0.1, 0.5}, 4, (double[]){0.3, 0, 0, 0.5}, &c);
    hf_expect_filtered("top_p row 1", (double[]){0.15, 0.3, 0.3, 0.25}, 4, (double[]){0, 0.3, 0.3, 0.25}, &c);
    double x[10];
    c.top_p = 0.9;
    c.has_min_keep = 1;
    c.min_keep = 2;
    hf_ramp(x, 1);
    cr_assert_eq(hf_kept(x, 10, &c), 3, "first batch keeps three tokens");
    hf_ramp(x, 100);
    cr_assert_eq(hf_kept(x, 10, &c), 2, "second batch keeps 2 because of min_tokens_to_keep=2");
}

/* test_min_p_dist_warper: MinPLogitsWarper(0.05) on three rows; MinPLogitsWarper(0.9, min_tokens_to_keep=2) on ramps */
Test(replay_pipeline, hf_test_min_p_dist_warper)
{
    sl_logits_cfg c = {0};
    c.has_min_p = 1;
    c.min_p = 0.05;
    hf_expect_filtered("min_p row 0", (double[]){0.9, 0.0274, 0.047, 0.0274}, 4, (double[]){0.9, 0, 0.047, 0}, &c);
    hf_expect_filtered("min_p row 1", (double[]){0.15, 0.3, 0.3, 0.25}, 4, (double[]){0.15, 0.3, 0.3, 0.25}, &c);
    hf_expect_filtered("min_p row 2", (double[]){0.97, 0.01, 0.01, 0.01}, 4, (double[]){0.97, 0, 0, 0}, &c);
    double x[10];
    c.min_p = 0.9;
    c.has_min_keep = 1;
    c.min_keep = 2;
    hf_ramp(x, 1);
    cr_assert_eq(hf_kept(x, 10, &c), 2, "first batch keeps two tokens");
    hf_ramp(x, 100);
    cr_assert_eq(hf_kept(x, 10, &c), 2, "second batch keeps 2 because of min_tokens_to_keep=2");
}

/* test_typical_dist_warper: TypicalLogitsWarper(0.5) on two rows; mass 0.5 with
 * min_tokens_to_keep=3 on a uniform row; mass 0.7 with min_tokens_to_keep=2 on ramps */
Test(replay_pipeline, hf_test_typical_dist_warper)
{
    sl_logits_cfg c = {0};
    c.has_typical = 1;
    c.typical = 0.5;
    hf_expect_filtered("typical row 0", (double[]){0.97, 0.01, 0.01, 0.01}, 4, (double[]){0.97, 0, 0, 0}, &c);
    hf_expect_filtered("typical row 1", (double[]){0.4, 0.2, 0.2, 0.2}, 4, (double[]){0, 0.2, 0.2, 0.2}, &c);
    double u[5] = {0.2, 0.2, 0.2, 0.2, 0.2}, x[10];
    c.has_min_keep = 1;
    c.min_keep = 3;
    cr_assert_eq(hf_kept(u, 5, &c), 5, "uniform dist is not changed");
    c.typical = 0.7;
    c.min_keep = 2;
    hf_ramp(x, 1);
    cr_assert_eq(hf_kept(x, 10, &c), 2, "first batch keeps two tokens");
    hf_ramp(x, 100);
    cr_assert_eq(hf_kept(x, 10, &c), 2, "second batch keeps 2 because of min_tokens_to_keep=2");
}

/* tests/generation/test_utils.py, UtilsFunctionsTest.test_top_k_top_p_filtering:
 * top_k_top_p_filtering(logits, top_k=10, top_p=0.6, min_tokens_to_keep=4),
 * i.e. TopKLogitsWarper(10, min_tokens_to_keep=4) then TopPLogitsWarper(0.6,
 * min_tokens_to_keep=4): upstream expects ids [0, 10, 25, 26] and [13, 17, 20,
 * 27] (the older 2019 version of this test, before the min_tokens_to_keep
 * fix, expected five per row). Probabilities: torch 1.13.1 running the
 * warpers' ops in float32, printed %.9g. */
Test(replay_pipeline, hf_test_utils_top_k_top_p_filtering)
{
    static const double row0[30] = {
        8.2220991,   -0.5620044, 5.23229752,  4.0386393,  -6.8798378,  -0.54785802, -3.2012153, 2.92777176,
        1.88171953,  7.35341276, 8.43207833,  -9.85711836, -5.96209236, -1.13039161, -7.1115294, -0.8369633,
        -5.3186408,  7.06427407, 0.81369344,  -0.82023817, -5.9179796,  0.58813443,  -6.99778438, 4.71551189,
        -0.18771637, 7.44020759, 9.38450987,  2.12662941,  -9.32562038, 2.35652522};
    static const double row1[30] = {
        0.58425518,  4.53139238, -5.57510464, -6.28030699, -7.19529503, -4.02122551, 1.39337037, -6.06707057,
        1.59480517,  -9.643119,  0.03907799,  0.67231762,  -8.88206726, 6.27115922,  2.28520723, 4.82767506,
        4.30421368,  8.8275313,  5.44029958,  -4.4735794,  7.38579536,  -2.91051663, 2.61946077, -2.5674762,
        -9.48959302, -4.02922645, -1.35416918, 9.67702323, -5.89478553, 1.85370467};
    static const size_t ids[2][4] = {{0, 10, 25, 26}, {13, 17, 20, 27}};
    static const char *probs[2][4] = {{"0.169813156", "0.209490374", "0.0776962489", "0.543000102"},
                                      {"0.02124146", "0.273780465", "0.0647537336", "0.640224338"}};
    sl_logits_cfg c = {0};
    c.has_top_k = 1;
    c.top_k = 10;
    c.has_top_p = 1;
    c.top_p = 0.6;
    c.has_min_keep = 1;
    c.min_keep = 4;
    for (int row = 0; row < 2; row++) {
        sl_logits_result r = hf_run(row ? row1 : row0, 30, &c);
        cr_assert_eq(r.n_kept, 4, "row %d: kept %zu, upstream keeps 4", row, r.n_kept);
        for (int j = 0; j < 4; j++) {
            char b[32];
            snprintf(b, sizeof b, "%.9g", r.probs[ids[row][j]]);
            cr_assert(r.kept[ids[row][j]], "row %d: id %zu not kept", row, ids[row][j]);
            cr_assert_str_eq(b, probs[row][j], "row %d id %zu: %s, torch %s", row, ids[row][j], b, probs[row][j]);
        }
        sl_logits_result_free(&r);
    }
}
