/* test_logits_candle_pipeline.c — `samplab pipeline --framework candle`:
 * the tie case of 000_35ecf9df7ca706aa.txt ([3,2,2,1], k = 2: candle keeps
 * exactly 2 where transformers keeps 3), top-k then top-p without
 * renormalisation (data/k40p09.txt: 31 kept against transformers' 14), and
 * options candle does not have. The counts expected are the background
 * documents' own; candle's steps against the real rand: test_framework_candle.c. */
#include <criterion/criterion.h>

#include "helpers.h"
#include "samplab.h"

static size_t kept(const char *fw, const char *logits, const char *settings)
{
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_io_vec_read(logits, NULL, -1, &v, &e), 0, "%s", e.msg);
    sl_logits_cfg c;
    memset(&c, 0, sizeof c);
    if (strstr(settings, "k2")) {
        c.has_top_k = 1;
        c.top_k = 2;
    }
    if (strstr(settings, "k40")) {
        c.has_top_k = 1;
        c.top_k = 40;
        c.has_top_p = 1;
        c.top_p = 0.9;
    }
    c.has_temperature = 1;
    c.temperature = strstr(settings, "t07") ? 0.7 : 1.0;
    sl_logits_result r;
    cr_assert_eq(sl_logits_pipeline_run(sl_logits_pipeline_lookup(fw), &v, &c, &r, &e), 0, "%s", e.msg);
    size_t n = r.n_kept;
    double s = 0;
    for (size_t i = 0; i < r.V; i++)
        s += r.probs[i];
    cr_assert_float_eq(s, 1.0, 1e-6, "%s: probabilities sum to %.9g", fw, s);
    sl_logits_result_free(&r);
    sl_base_vec_free(&v);
    return n;
}

Test(replay_pipeline, candle_tie_keeps_exactly_k)
{
    size_t c = kept("candle", "data/ties.txt", "k2"), h = kept("hf", "data/ties.txt", "k2");
    cr_assert_eq(c, 2, "candle kept %zu of [3,2,2,1] with k = 2", c);
    cr_assert_eq(h, 3, "transformers kept %zu", h);
}

Test(replay_pipeline, candle_topk_topp_not_renormalised)
{
    size_t c = kept("candle", "data/k40p09.txt", "k40 t07"), h = kept("hf", "data/k40p09.txt", "k40 t07");
    cr_assert_eq(c, 31, "candle kept %zu, the seed document says 31", c);
    cr_assert_eq(h, 14, "transformers kept %zu, the seed document says 14", h);
}

Test(replay_pipeline, candle_cli_agrees_with_its_draws)
{
    sl_test_run p = sl_test_cli("pipeline --framework candle --logits data/ties.txt --top-k 2 --temperature 1");
    cr_assert_eq(p.status, 0, "%s", p.err);
    cr_assert_str_eq(p.out, "0\t0.731058575\n1\t0.268941425\n");
    sl_test_run bad = sl_test_cli("pipeline --framework candle --logits data/ties.txt --min-p 0.1");
    cr_assert_eq(bad.status, 2);
    cr_assert(strstr(bad.err, "--min-p is not an option of framework candle"), "%s", bad.err);
    sl_test_run_free(&p);
    sl_test_run_free(&bad);
}
