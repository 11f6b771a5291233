/* test_logits_cases.c — the cases the background documents name, through
 * every pipeline: the top-k tie ([3,2,2,1], k = 2), the top-p boundary
 * (probabilities [0.5, 0.3, 0.2], p = 0.8), temperature 0, the tutorial's
 * 8-token weather example, the 14-vs-31 top-k + top-p case (its logits read from
 * case k40p09 of data/golden/hf_pipeline.txt), defaults, llama.cpp's min-p
 * before temperature against transformers' after it, top-p 0, 1 - p in float32
 * or float64 (transformers vs vLLM) and the penalty's scope (the whole context
 * vs llama.cpp's last 64). The kept sets expected are worked out in each test
 * from the documents' numbers and the upstream rules it names. A case that means
 * a stage off where its framework has a default turns it off by its neutral
 * value (top_k 0, top_p 1, min_p 0, T 1), as a user does. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

static int run(const sl_logits_pipeline_type *t, const double *x, size_t n, const sl_logits_cfg *c, sl_logits_result *r,
               sl_error *e)
{
    sl_vec v;
    cr_assert_eq(sl_base_vec_alloc(&v, n, "case", NULL), 0);
    for (size_t i = 0; i < n; i++) {
        v.d[i] = x[i];
        v.f[i] = (float)x[i];
    }
    int rc = sl_logits_pipeline_run(t, &v, c, r, e);
    sl_base_vec_free(&v);
    return rc;
}

static void expect_kept(const sl_logits_pipeline_type *t, const double *x, size_t n, const sl_logits_cfg *c,
                        const char *want /* '1'/'0' per id */)
{
    sl_logits_result r;
    sl_error e;
    cr_assert_eq(run(t, x, n, c, &r, &e), 0, "%s: %s", t->name, e.msg);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(r.kept[i], want[i] == '1', "%s: id %zu kept %d, expected %c", t->name, i, r.kept[i], want[i]);
    sl_logits_result_free(&r);
}

Test(replay_pipeline, tie_case_k2)
{
    /* 000_35ecf9df7ca706aa.txt: top_k=2 on [3,2,2,1]: transformers keeps 3 (ties
     * with the k-th survive); candle exactly 2; llama.cpp and the tutorial
     * exactly 2 as well */
    const double x[4] = {3, 2, 2, 1};
    sl_logits_cfg c = {0};
    c.has_top_k = 1;
    c.top_k = 2;
    expect_kept(&sl_logits_pipeline_hf_type, x, 4, &c, "1110");
    expect_kept(&sl_logits_pipeline_vllm_type, x, 4, &c, "1110");
    expect_kept(&sl_logits_pipeline_llamacpp_type, x, 4, &c, "1100");
    expect_kept(&sl_logits_pipeline_tutorial_type, x, 4, &c, "1100");
    /* candle's TopK { k: 2, temperature: 1 }: exactly 2 */
    c.has_temperature = 1;
    c.temperature = 1;
    expect_kept(&sl_logits_pipeline_candle_type, x, 4, &c, "1100");
    c.has_temperature = 0;
    /* hf: e^3 : e^2 : e^2 */
    sl_logits_result r;
    sl_error e;
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, 4, &c, &r, &e), 0);
    double w0 = exp(3) / (exp(3) + 2 * exp(2));
    cr_assert(fabs(r.probs[0] - w0) < 1e-7, "hf p0 %.9g expected %.9g", r.probs[0], w0);
    sl_logits_result_free(&r);
}

Test(replay_pipeline, top_p_boundary_05_03_02)
{
    /* probabilities [0.5, 0.3, 0.2] (logits = their logs), p = 0.8: the two
     * largest sum to p, so the float32 rules keep 2 (as the document observed
     * for transformers and candle; torch's own float32 agrees:
     * data/golden/hf_pipeline.txt, case top_p_boundary). The tutorial computes
     * in float64, where exp(ln 0.3 - ln 0.5) / sum = 0.29999999999999993 and
     * 0.5 + that = 0.7999999999999999 < 0.8: it keeps the third token too. */
    const double x[3] = {log(0.5), log(0.3), log(0.2)};
    sl_logits_cfg c = {0};
    c.has_top_p = 1;
    c.top_p = 0.8;
    expect_kept(&sl_logits_pipeline_hf_type, x, 3, &c, "110");
    expect_kept(&sl_logits_pipeline_vllm_type, x, 3, &c, "110");
    expect_kept(&sl_logits_pipeline_llamacpp_type, x, 3, &c, "110");
    expect_kept(&sl_logits_pipeline_tutorial_type, x, 3, &c, "111");
    /* candle's TopP at T = 1: f32 0.5 + 0.3 reaches f32 0.8, the third is zeroed */
    c.has_temperature = 1;
    c.temperature = 1;
    expect_kept(&sl_logits_pipeline_candle_type, x, 3, &c, "110");
}

Test(replay_pipeline, temperature_zero_every_framework)
{
    const double x[4] = {1, 3, 3, 2};
    sl_logits_cfg c = {0};
    c.has_temperature = 1;
    c.temperature = 0;
    sl_logits_result r;
    sl_error e;
    /* transformers: TemperatureLogitsWarper raises */
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, 4, &c, &r, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "`temperature` (=0.0) has to be a strictly positive float, otherwise your next token "
                            "scores will be invalid. If you're looking for greedy decoding strategies, set "
                            "`do_sample=False`."),
              "hf message: %s", e.msg);
    /* the tutorial rejects it and points to Greedy */
    cr_assert_eq(run(&sl_logits_pipeline_tutorial_type, x, 4, &c, &r, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "sampling: temperature must be positive (use Greedy for t=0)"), "%s", e.msg);
    /* vLLM: greedy, argmax = the first maximum */
    cr_assert_eq(run(&sl_logits_pipeline_vllm_type, x, 4, &c, &r, &e), 0);
    cr_assert(r.greedy && r.greedy_id == 1 && r.n_kept == 1 && r.probs[1] == 1.0, "vllm greedy id %zu", r.greedy_id);
    sl_logits_result_free(&r);
    /* llama.cpp without its default top-k 40 and top-p 0.95 (both sort the array):
     * the first maximum in id order survives, the rest -inf */
    c.has_top_k = c.has_top_p = 1;
    c.top_k = 0;
    c.top_p = 1.0;
    cr_assert_eq(run(&sl_logits_pipeline_llamacpp_type, x, 4, &c, &r, &e), 0);
    cr_assert(r.n_kept == 1 && r.kept[1] && r.probs[1] == 1.0, "llamacpp kept %zu", r.n_kept);
    sl_logits_result_free(&r);
    /* llama.cpp after top-k: "first max" is in the sorted array's order, and
     * libstdc++'s std::partial_sort puts the tied 3s as ids 2, 1 — so T = 0
     * keeps id 2, not the argmax id 1 the others pick (checked with
     * std::partial_sort itself: tests/oracle/stdcxx_sort.cpp) */
    c.has_top_k = 1;
    c.top_k = 3;
    cr_assert_eq(run(&sl_logits_pipeline_llamacpp_type, x, 4, &c, &r, &e), 0);
    cr_assert(r.n_kept == 1 && r.kept[2], "llamacpp after top-k kept %zu, id 2 expected", r.n_kept);
    cr_assert_eq(r.cand[0].id, 2, "sorted array starts with id %ld", r.cand[0].id);
    sl_logits_result_free(&r);
    /* candle: LogitsProcessor's ArgMax below 1e-7 (the first maximum), also after top-k */
    cr_assert_eq(run(&sl_logits_pipeline_candle_type, x, 4, &c, &r, &e), 0);
    cr_assert(r.greedy && r.n_kept == 1 && r.kept[1] && r.probs[1] == 1.0, "candle kept %zu", r.n_kept);
    sl_logits_result_free(&r);
    /* negative temperatures: hf error without the greedy hint, vllm error, llama.cpp greedy */
    c.top_k = 0;
    c.temperature = -1;
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, 4, &c, &r, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "(=-1.0)") && !strstr(e.msg, "greedy"), "%s", e.msg);
    cr_assert_eq(run(&sl_logits_pipeline_vllm_type, x, 4, &c, &r, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "temperature must be non-negative, got -1.0."), "%s", e.msg);
    cr_assert_eq(run(&sl_logits_pipeline_llamacpp_type, x, 4, &c, &r, &e), 0);
    cr_assert(r.n_kept == 1 && r.kept[1]);
    sl_logits_result_free(&r);
}

Test(replay_pipeline, tutorial_weather_example)
{
    /* 003_1857ebf1d0eff5ab.txt: T = 1 gives 51.5 25.6 17.2 3.1 1.4 0.7 0.3 0.1 % */
    const double x[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
    const double pct[8] = {51.5, 25.6, 17.2, 3.1, 1.4, 0.7, 0.3, 0.1};
    sl_logits_cfg c = {0};
    sl_logits_result r;
    sl_error e;
    cr_assert_eq(run(&sl_logits_pipeline_tutorial_type, x, 8, &c, &r, &e), 0);
    for (int i = 0; i < 8; i++)
        cr_assert(fabs(100 * r.probs[i] - pct[i]) < 0.05 + 1e-9, "token %d: %.3f%% expected %.1f%%", i,
                  100 * r.probs[i], pct[i]);
    sl_logits_result_free(&r);
    /* top-p 0.8: 51.5 + 25.6 = 77.1 < 80, so the third (17.2) is kept: cum >= p */
    c.has_top_p = 1;
    c.top_p = 0.8;
    expect_kept(&sl_logits_pipeline_tutorial_type, x, 8, &c, "11100000");
    /* min-p 0.1: keep p >= 0.0515 */
    c.has_top_p = 0;
    c.has_min_p = 1;
    c.min_p = 0.1;
    expect_kept(&sl_logits_pipeline_tutorial_type, x, 8, &c, "11100000");
    /* k = 0 and p = 0 are the tutorial's errors */
    c.has_min_p = 0;
    c.has_top_k = 1;
    c.top_k = 0;
    cr_assert_eq(run(&sl_logits_pipeline_tutorial_type, x, 8, &c, &r, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "sampling: k must be positive"), "%s", e.msg);
    c.has_top_k = 0;
    c.has_top_p = 1;
    c.top_p = 0;
    cr_assert_eq(run(&sl_logits_pipeline_tutorial_type, x, 8, &c, &r, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "sampling: p must be in (0, 1]"), "%s", e.msg);
}

/* the logits of case k40p09 in data/golden/hf_pipeline.txt (built by
 * hf_golden.py like the document's step: top-40 mass 0.9208 at T = 0.7) */
static size_t load_k40p09(double *x, size_t cap)
{
    char *t = sl_test_slurp("data/golden/hf_pipeline.txt");
    cr_assert_not_null(t);
    char *c = strstr(t, "case hf k40p09 ");
    cr_assert_not_null(c);
    char *l = strstr(c, "\nlogits ") + 8;
    size_t n = 0;
    char *end;
    while (n < cap) {
        double v = strtod(l, &end);
        if (end == l)
            break;
        x[n++] = v;
        l = end;
    }
    free(t);
    return n;
}

Test(replay_pipeline, k40p09_fourteen_vs_thirtyone)
{
    /* 000_35ecf9df7ca706aa.txt: top-k 40 + top-p 0.9 at T 0.7 keeps 14 in
     * transformers (top-p renormalised inside the top 40) and 31 in candle
     * (raw top-40 mass 0.9208 >= 0.9, so top-p acts as if alone). The real
     * SmolLM2 logits are not available; this vector has the same structure. */
    static double x[1000];
    size_t n = load_k40p09(x, 1000);
    cr_assert_eq(n, 1000);
    sl_logits_cfg c = {0};
    c.has_temperature = 1;
    c.temperature = 0.7;
    c.has_top_k = 1;
    c.top_k = 40;
    c.has_top_p = 1;
    c.top_p = 0.9;
    sl_logits_result r;
    sl_error e;
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, n, &c, &r, &e), 0);
    cr_assert_eq(r.n_kept, 14, "hf k40p09 kept %zu, expected 14", r.n_kept);
    sl_logits_result_free(&r);
    cr_assert_eq(run(&sl_logits_pipeline_vllm_type, x, n, &c, &r, &e), 0);
    cr_assert_eq(r.n_kept, 14, "vllm k40p09 kept %zu, expected 14", r.n_kept);
    sl_logits_result_free(&r);
    c.top_k = 0; /* candle's TopKThenTopP here equals top-p alone: 31 */
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, n, &c, &r, &e), 0);
    cr_assert_eq(r.n_kept, 31, "hf p09 kept %zu, expected 31", r.n_kept);
    /* the top-40 mass of the T = 0.7 distribution (top_k 0: no TopKLogitsWarper) */
    sl_logits_cfg t = {0};
    t.has_temperature = 1;
    t.temperature = 0.7;
    t.has_top_k = 1;
    t.top_k = 0;
    sl_logits_result full;
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, n, &t, &full, &e), 0);
    double m40 = 0;
    for (int i = 0; i < 40; i++)
        m40 += full.probs[i];
    cr_assert(fabs(m40 - 0.9208) < 1e-5, "top-40 mass %.6f expected 0.9208", m40);
    sl_logits_result_free(&full);
    sl_logits_result_free(&r);
    /* do_sample=True, temperature=0.7, top_k left unset: generate()'s top_k = 50 */
    t.has_top_k = 0;
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, n, &t, &r, &e), 0);
    cr_assert_eq(r.n_kept, 50, "hf with top_k unset kept %zu, expected 50", r.n_kept);
    sl_logits_result_free(&r);
}

Test(replay_pipeline, llamacpp_defaults_and_order)
{
    /* llama.cpp's defaults: top-k 40, top-p 0.95, min-p 0.05 (before T), T 0.8.
     * min-p in logit space before temperature: keep l >= max + ln 0.05 = max - 2.996 */
    const double x[6] = {5.0, 4.0, 3.0, 2.01, 1.99, -10};
    sl_logits_cfg c = {0};
    c.has_top_p = 1;
    c.top_p = 1.0;
    expect_kept(&sl_logits_pipeline_llamacpp_type, x, 6, &c, "111100");
    /* in transformers the same min-p acts after T = 0.8: keep (l - max)/0.8 >= ln 0.05, l >= 2.603 */
    sl_logits_cfg h = {0};
    h.has_temperature = 1;
    h.temperature = 0.8;
    h.has_min_p = 1;
    h.min_p = 0.05;
    expect_kept(&sl_logits_pipeline_hf_type, x, 6, &h, "111000");
    /* rule: llama.cpp min-p 0.05^0.8 reproduces it (its top-k and top-p off) */
    sl_logits_cfg l = {0};
    l.has_temperature = 1;
    l.temperature = 0.8;
    l.has_top_k = l.has_top_p = 1;
    l.top_k = 0;
    l.top_p = 1.0;
    l.has_min_p = 1;
    l.min_p = pow(0.05, 0.8);
    expect_kept(&sl_logits_pipeline_llamacpp_type, x, 6, &l, "111000");
}

Test(replay_pipeline, top_p_zero)
{
    /* semantics: top_p = 0 keeps 1 in llama.cpp and transformers (min_tokens_to_keep), vLLM rejects it */
    const double x[4] = {0.1, 0.4, 0.3, 0.2};
    sl_logits_cfg c = {0};
    c.has_top_p = 1;
    c.top_p = 0;
    expect_kept(&sl_logits_pipeline_llamacpp_type, x, 4, &c, "0100");
    expect_kept(&sl_logits_pipeline_hf_type, x, 4, &c, "0100");
    sl_logits_result r;
    sl_error e;
    cr_assert_eq(run(&sl_logits_pipeline_vllm_type, x, 4, &c, &r, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "top_p must be in (0, 1], got 0.0."), "%s", e.msg);
}

Test(replay_pipeline, one_minus_p_in_double_or_float)
{
    /* top-p 0.16 on probabilities [0.14 x 6, 0.16]: the ascending cumsum of
     * the six 0.14s is 0.84000003 in float32. transformers compares with
     * float32(1 - 0.16) = 0.83999997 computed in double: the sixth 0.14 stays,
     * 2 kept; vLLM compares with 1.0f - 0.16f = 0.84000003: all six removed,
     * 1 kept. torch agrees (data/golden/hf_pipeline.txt, one_minus_p_0.16). */
    double x[7];
    for (int i = 0; i < 6; i++)
        x[i] = logf(0.14f);
    x[6] = logf(0.16f);
    sl_logits_cfg c = {0};
    c.has_top_p = 1;
    c.top_p = 0.16;
    expect_kept(&sl_logits_pipeline_hf_type, x, 7, &c, "0000011");
    expect_kept(&sl_logits_pipeline_vllm_type, x, 7, &c, "0000001");
}

Test(replay_pipeline, penalty_scope_whole_context_vs_last_64)
{
    /* 000_35ecf9df7ca706aa.txt: transformers penalises every id of input_ids
     * (prompt included); llama.cpp only the last penalty_last_n (64) accepted
     * tokens. Context: id 0 once, then 69 times id 1: only hf penalises id 0. */
    const double x[3] = {2.0, 1.0, 0.5};
    long ctx[70];
    ctx[0] = 0;
    for (int i = 1; i < 70; i++)
        ctx[i] = 1;
    sl_logits_cfg c = {0};
    c.has_penalty = 1;
    c.penalty = 2.0;
    c.context = ctx;
    c.context_n = 70;
    /* the penalty alone: llama.cpp's default stages off (neutral in hf and vLLM too) */
    c.has_temperature = c.has_top_k = c.has_top_p = c.has_min_p = 1;
    c.temperature = 1.0, c.top_k = 0, c.top_p = 1.0, c.min_p = 0;
    sl_logits_result h, l, v;
    sl_error e;
    cr_assert_eq(run(&sl_logits_pipeline_hf_type, x, 3, &c, &h, &e), 0);
    cr_assert_eq(run(&sl_logits_pipeline_llamacpp_type, x, 3, &c, &l, &e), 0);
    cr_assert_eq(run(&sl_logits_pipeline_vllm_type, x, 3, &c, &v, &e), 0);
    /* hf/vllm: logits 1.0, 0.5, 0.5; llama.cpp: 2.0, 0.5, 0.5 */
    cr_assert(fabs(log(h.probs[0] / h.probs[2]) - 0.5) < 1e-6, "hf penalised id 0");
    cr_assert(fabs(log(v.probs[0] / v.probs[2]) - 0.5) < 1e-6, "vllm penalised id 0");
    cr_assert(fabs(log(l.probs[0] / l.probs[2]) - 1.5) < 1e-6, "llama.cpp did not (outside the last 64)");
    sl_logits_result_free(&l);
    /* --penalty-last-n 70 covers the whole context: the same as hf */
    c.has_last_n = 1;
    c.last_n = 70;
    cr_assert_eq(run(&sl_logits_pipeline_llamacpp_type, x, 3, &c, &l, &e), 0);
    for (int i = 0; i < 3; i++)
        cr_assert(fabs(l.probs[i] - h.probs[i]) < 1e-7, "id %d: %.9g vs %.9g", i, l.probs[i], h.probs[i]);
    sl_logits_result_free(&h);
    sl_logits_result_free(&l);
    sl_logits_result_free(&v);
}
