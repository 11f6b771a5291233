/* test_api_row_seeds.c — per-request seeds, `--seeds 7,none,9` (api/seeds.c):
 * the list reads one entry per row, each a seed as --seed reads it or "none";
 * a malformed entry is named by its position; a framework with one generator
 * per batch refuses any list, by the C API and the command line alike (exit 2,
 * stdout empty); calibrate's --seeds K keeps its meaning (a count); for vLLM a
 * one-row batch's own seed is that request's generator, and "none" draws from
 * the global generator --seed seeds. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

Test(row_seeds, a_list_reads_seeds_and_none_in_order)
{
    sl_api_row_seeds r;
    sl_error err;
    cr_assert_eq(sl_api_row_seeds_parse("draw", "7,none,0x10,18446744073709551615", &r, &err), SL_OK, "%s", err.msg);
    cr_assert_eq(r.n, 4);
    cr_assert(r.row[0].given && r.row[0].seed.lo == 7 && r.row[0].seed.hi == 0);
    cr_assert(!r.row[1].given);
    cr_assert(r.row[2].given && r.row[2].seed.lo == 16);
    cr_assert(r.row[3].given && r.row[3].seed.lo == UINT64_MAX);
    sl_api_row_seeds_free(&r);
    cr_assert_null(r.row);
    cr_assert_eq(sl_api_row_seeds_parse("draw", "none", &r, &err), SL_OK, "%s", err.msg);
    cr_assert(r.n == 1 && !r.row[0].given);
    sl_api_row_seeds_free(&r);
}

Test(row_seeds, a_bad_entry_is_named_by_position)
{
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"", "samplab check: --seeds is empty (one seed or none per row: 7,none,9)"},
        {"7,,9", "samplab check: --seeds: entry 2 is empty (a seed or none)"},
        {"7,9,", "samplab check: --seeds: entry 3 is empty (a seed or none)"},
        {",7", "samplab check: --seeds: entry 1 is empty (a seed or none)"},
        {"7,None",
         "samplab check: --seeds: entry 2 ('None') is neither none nor a seed (seed 'None': character 1 ('N') is not "
         "a decimal digit)"},
        {"-1", "samplab check: --seeds: entry 1 ('-1') is neither none nor a seed (seed '-1': character 1 ('-') is "
               "not a decimal digit)"},
        {"1, 2", "samplab check: --seeds: entry 2 (' 2') is neither none nor a seed (seed ' 2': character 1 (' ') "
                 "is not a decimal digit)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sl_api_row_seeds r;
        sl_error err;
        cr_assert_eq(sl_api_row_seeds_parse("check", bad[i].text, &r, &err), SL_EINVAL, "'%s' read", bad[i].text);
        cr_assert_str_eq(err.msg, bad[i].msg);
        cr_assert(r.n == 0 && !r.row);
    }
}

Test(row_seeds, one_generator_per_batch_refuses_a_row_seed)
{
    sl_api_settings s;
    sl_api_settings_init(&s);
    s.row_seeds = "7,none";
    sl_api_row_seeds r;
    sl_error err;
    static const char *const per_batch[] = {"hf", "torch", "candle", "numpy", "llamacpp"};
    for (size_t i = 0; i < sizeof per_batch / sizeof *per_batch; i++) {
        const sl_fw_type *ft = sl_fw_lookup(per_batch[i]);
        cr_assert_not_null(ft);
        cr_assert_eq(sl_api_row_seeds_for("draw", &s, ft, 2, &r, &err), SL_EINVAL, "%s took --seeds", per_batch[i]);
        cr_assert(strstr(err.msg, "--seeds: a seed for a row of a framework that has one generator per batch ("),
                  "%s", err.msg);
        cr_assert(strstr(err.msg, per_batch[i]), "%s", err.msg);
    }
    const sl_fw_type *vllm = sl_fw_lookup("vllm");
    cr_assert_eq(sl_api_row_seeds_for("draw", &s, vllm, 2, &r, &err), SL_OK, "%s", err.msg);
    cr_assert(r.n == 2 && r.row[0].given && r.row[0].seed.lo == 7 && !r.row[1].given);
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.seed.lo = 99; /* --seed: the global generator */
    sl_api_row_seed_apply(&r, 1, &fo);
    cr_assert(fo.seed.lo == 99 && !fo.has_seed, "none keeps the global seed");
    sl_api_row_seed_apply(&r, 0, &fo);
    cr_assert(fo.seed.lo == 7 && fo.has_seed, "a row's own seed");
    sl_api_row_seeds_free(&r);
    cr_assert_eq(sl_api_row_seeds_for("draw", &s, vllm, 3, &r, &err), SL_EINVAL);
    cr_assert_str_eq(err.msg, "samplab draw: --seeds gives 2 entries for 3 rows (one per row)");
    s.row_seeds = NULL;
    cr_assert_eq(sl_api_row_seeds_for("draw", &s, sl_fw_lookup("hf"), 3, &r, &err), SL_OK, "none given: no refusal");
    cr_assert_eq(r.n, 0);
}

Test(row_seeds, the_command_line_refuses_and_keeps_calibrates_count)
{
    static const char *const refused[][2] = {
        {"draw --framework hf --logits 3,2,1 --seeds 7", "samplab draw: --seeds: a seed for a row of a framework that "
                                                         "has one generator per batch (hf draws every row from the "
                                                         "generator --seed seeds)\n"},
        {"draw --framework torch --probs 3,2,1 --seeds none", "(torch draws every row"},
        {"replay --framework hf --logits 1,2 --seeds 3", "samplab replay: --seeds: a seed for a row of a framework"},
        {"check --framework candle --logits 1,2 --tokens 1 --seeds 3", "samplab check: --seeds: a seed for a row"},
        {"draw --method cdf --probs 3,2,1 --seeds 7", "--seeds is not an option of method cdf"},
        {"draw --framework vllm --logits 3,2,1 --seeds 7,8", "samplab draw: --seeds gives 2 entries for 1 row (one per row)"},
        {"draw --framework vllm --logits 3,2,1 --seeds 7,x", "entry 2 ('x') is neither none nor a seed"},
        {"pipeline --framework vllm --logits 3,2,1 --seeds 7", "--seeds is not an option of pipeline"},
        {"calibrate --probs 3,2,1 --method cdf --n 10 --seeds 7,none", "--seeds takes a non-negative integer"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        sl_test_expect_refused(refused[i][0], refused[i][1]);
    /* calibrate's --seeds is still K seeds from --first-seed */
    sl_test_run r = sl_test_cli("calibrate --probs 3,2,1 --method cdf --n 100 --seeds 3 --first-seed 5");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "seeds 5..7 (K = 3)"), "%s", r.out);
    sl_test_run_free(&r);
}

/* A batch of one request: its own seed is the generator vLLM makes for it
 * (torch.Generator().manual_seed(seed)); none draws from the global one,
 * torch.manual_seed(--seed). On a fresh generator both are the same words. */
Test(row_seeds, vllm_one_request_seeded_or_not)
{
    static const char *const same[][2] = {
        {"draw --framework vllm --logits data/weather.txt --seeds 11 --n 40 --json",
         "draw --framework vllm --logits data/weather.txt --seed 11 --n 40 --json"},
        {"draw --framework vllm --logits data/weather.txt --seeds 11 --seed 3 --n 40 --json",
         "draw --framework vllm --logits data/weather.txt --seed 11 --n 40 --json"},
        {"draw --framework vllm --logits data/weather.txt --seeds none --seed 11 --n 40 --json",
         "draw --framework vllm --logits data/weather.txt --seed 11 --n 40 --json"},
        {"replay --framework vllm --logits data/weather.txt --seeds 5 --top-k 3 --json",
         "replay --framework vllm --logits data/weather.txt --seed 5 --top-k 3 --json"},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        sl_test_run a = sl_test_cli(same[i][0]), b = sl_test_cli(same[i][1]);
        cr_assert_eq(a.status, 0, "%s: %s", same[i][0], a.err);
        cr_assert_eq(b.status, 0, "%s: %s", same[i][1], b.err);
        cr_assert_str_eq(a.out, b.out, "%s", same[i][0]);
        sl_test_run_free(&a);
        sl_test_run_free(&b);
    }
    sl_test_run a = sl_test_cli("draw --framework vllm --logits data/weather.txt --seeds 11 --n 40");
    sl_test_run b = sl_test_cli("draw --framework vllm --logits data/weather.txt --seeds 12 --n 40");
    cr_assert_str_neq(a.out, b.out, "another seed, other tokens");
    sl_test_run_free(&a);
    sl_test_run_free(&b);
}

/* The Python package's path: the key row_seeds lands where --seeds LIST does. */
Test(row_seeds, set_by_key_as_the_command_line)
{
    sl_api_settings *s = sl_api_settings_new("draw");
    sl_error err;
    cr_assert_eq(sl_api_settings_set(s, "row_seeds", "7,none", &err), SL_OK, "%s", err.msg);
    cr_assert_str_eq(s->row_seeds, "7,none");
    cr_assert_eq(sl_api_settings_set(s, "framework", "hf", &err), SL_OK, "%s", err.msg);
    sl_api_src src = {"3,2,1", NULL, -1, NULL, 0, "--logits", NULL, 0};
    char *json = NULL;
    cr_assert_eq(sl_api_draw(&src, 1, s, &json, &err), SL_EINVAL);
    cr_assert_null(json);
    cr_assert(strstr(err.msg, "one generator per batch"), "%s", err.msg);
    sl_api_settings_free(s);
}
