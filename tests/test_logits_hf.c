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
    cr_assert_eq(sl_vec_alloc(v, n, "test"), 0);
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
    int rc = sl_pipeline_run(&sl_pipeline_hf_type, &v, c, &r, &e);
    cr_assert_eq(rc, 0, "hf pipeline failed: %s", e.msg);
    sl_vec_free(&v);
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
