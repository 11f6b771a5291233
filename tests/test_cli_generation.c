/* test_cli_generation.c — `samplab replay` and `samplab check` as a user runs
 * them: one session across the steps (the first step is `draw`'s one token,
 * words add up per step), --framework all, first divergence under a seed,
 * outside-kept steps with the filter that removed them, and every bad input of
 * the issue refused in one line with exit 2 and nothing on stdout. No golden
 * file: replay's first step must equal `draw` on the first row, and the words
 * torch's race spends (2V a step); the real generations are replayed by
 * test_cli_replay_hf.c and test_cli_replay_llamacpp.c. */
#include <criterion/criterion.h>

#include "helpers.h"

/* 6 steps of V = 10 logits, one per line */
static const char logits_txt[] =
    "0.1 1.2 -0.5 2.0 0.3 -1.0 0.8 1.5 -0.2 0.0\n"
    "1.0 0.2 0.5 -2.0 0.3 1.0 0.8 -1.5 0.2 0.4\n"
    "-0.1 0.2 1.5 0.0 0.3 -1.0 2.8 1.5 -0.2 0.9\n"
    "0.5 0.5 0.5 0.5 2.5 0.5 0.5 0.5 0.5 0.5\n"
    "2.1 1.2 -0.5 2.0 0.3 -1.0 0.8 1.5 -0.2 0.0\n"
    "0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 3.0 0.0\n";

static char *tmp(const char *suffix, const char *text)
{
    char *p = sl_test_tmpfile(suffix, text, strlen(text));
    cr_assert(p);
    return p;
}

Test(replay_cli_generation, replay_one_session)
{
    char *lg = tmp(".txt", logits_txt), args[512];
    snprintf(args, sizeof args, "replay --framework hf --torch 2 --logits %s --seed 5 --context 1,2 "
                                "--repetition-penalty 1.3 --json", lg);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"words\":[20,40,60,80,100,120]"), "torch's race spends 2V words a step: %s", r.out);
    cr_expect(strstr(r.out, "\"kept\":[10,10,10,10,10,10]"), "%s", r.out);
    /* the first step is draw's one token on the first row */
    long t0 = -1;
    const char *tk = strstr(r.out, "\"tokens\":[");
    cr_assert(tk);
    t0 = strtol(tk + 10, NULL, 10);
    char *row0 = tmp(".txt", "0.1 1.2 -0.5 2.0 0.3 -1.0 0.8 1.5 -0.2 0.0\n");
    snprintf(args, sizeof args, "draw --framework hf --torch 2 --logits %s --seed 5 --context 1,2 "
                                "--repetition-penalty 1.3", row0);
    sl_test_run d = sl_test_cli(args);
    cr_assert_eq(d.status, 0, "%s", d.err);
    cr_expect_eq(strtol(d.out, NULL, 10), t0, "draw %s vs replay's first token %ld", d.out, t0);
    sl_test_run_free(&d);
    sl_test_run_free(&r);

    /* all: side by side, each departure named */
    snprintf(args, sizeof args, "replay --framework all --logits %s --seed 5 --top-k 3", lg);
    r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(!strncmp(r.out, "step\tllamacpp\thf\tvllm\tcandle\n", 29), "every framework on logits: %s", r.out);
    cr_expect(strstr(r.out, "# hf") && strstr(r.out, "# vllm") && strstr(r.out, "# candle"), "%s", r.out);
    sl_test_run_free(&r);
    unlink(lg);
    unlink(row0);
    free(lg);
    free(row0);
}

Test(replay_cli_generation, check_seeded_and_unseeded)
{
    char *lg = tmp(".txt", logits_txt), args[768];
    snprintf(args, sizeof args, "replay --framework hf --torch 2 --logits %s --seed 9 --top-k 3", lg);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *tk = tmp(".txt", r.out);
    sl_test_run_free(&r);
    snprintf(args, sizeof args, "check --framework hf --torch 2 --logits %s --seed 9 --top-k 3 --tokens %s --json", lg, tk);
    r = sl_test_cli(args);
    cr_expect_eq(r.status, 0, "%s %s", r.out, r.err);
    cr_expect(strstr(r.out, "\"first_divergence\":null"), "%s", r.out);
    sl_test_run_free(&r);
    /* another seed departs somewhere, with both probabilities */
    snprintf(args, sizeof args, "check --framework hf --torch 2 --logits %s --seed 10 --top-k 3 --tokens %s --json", lg, tk);
    r = sl_test_cli(args);
    if (!strstr(r.out, "null")) {
        cr_expect_eq(r.status, 1, "%s", r.out);
        cr_expect(strstr(r.out, "\"p_observed\":") && strstr(r.out, "\"p_predicted\":"), "%s", r.out);
    }
    sl_test_run_free(&r);
    /* top-k 1: at step 1 ids 0 and 5 tie at 1.0 and both survive (transformers keeps ties);
     * at step 5 token 0 is outside (only id 8 is kept): top_k removed it */
    snprintf(args, sizeof args, "check --framework hf --torch 2 --logits %s --top-k 1 --tokens 3,0,6,4,0,0 "
                                "--trials 0 --json", lg);
    r = sl_test_cli(args);
    cr_expect_eq(r.status, 1, "%s %s", r.out, r.err);
    cr_expect(strstr(r.out, "\"outside_kept\":[5]"), "%s", r.out);
    cr_expect(strstr(r.out, "\"removed_by\":\"top_k\""), "%s", r.out);
    cr_expect(strstr(r.out, "\"p_value\":0.0"), "%s", r.out);
    sl_test_run_free(&r);
    /* the argmax of each step is consistent with top-k 1 */
    snprintf(args, sizeof args, "check --framework hf --torch 2 --logits %s --top-k 1 --tokens 3,0,6,4,0,8 --trials 0", lg);
    r = sl_test_cli(args);
    cr_expect_eq(r.status, 0, "%s %s", r.out, r.err);
    sl_test_run_free(&r);
    unlink(lg);
    unlink(tk);
    free(lg);
    free(tk);
}

Test(replay_cli_generation, bad_input_refused)
{
    char *lg = tmp(".txt", logits_txt), args[512];
    char *nan = tmp(".txt", "1 2 3\n1 nan 3\n"), *inf = tmp(".txt", "1 2 3\n-inf -inf -inf\n");
    char *ragged = tmp(".txt", "1 2 3\n1 2\n");
    snprintf(args, sizeof args, "check --framework hf --logits %s --tokens 1,2,3", lg);
    sl_test_expect_refused(args, "--tokens 1,2,3 holds 3 tokens, but --logits");
    sl_test_expect_refused(args, "has T = 6 steps");
    snprintf(args, sizeof args, "check --framework hf --logits %s --tokens 1,2,3,4,5,10", lg);
    sl_test_expect_refused(args, "samplab check: --tokens: entry 5 (10) is not a token id in 0..9");
    snprintf(args, sizeof args, "replay --framework hf --logits %s --context 3,12", lg);
    sl_test_expect_refused(args, "samplab replay: --context: entry 1 (12) is not a token id in 0..9");
    snprintf(args, sizeof args, "replay --framework hf --logits %s", nan);
    sl_test_expect_refused(args, "step 1, entry 1 is NaN");
    snprintf(args, sizeof args, "replay --framework hf --logits %s", inf);
    sl_test_expect_refused(args, "step 1 is all -inf");
    snprintf(args, sizeof args, "replay --framework hf --logits %s", ragged);
    sl_test_expect_refused(args, "line 2 (step 1) has 2 numbers");
    snprintf(args, sizeof args, "replay --framework hf --probs %s", lg);
    sl_test_expect_refused(args, "framework hf takes --logits");
    snprintf(args, sizeof args, "replay --framework torch --probs %s --top-k 3", lg);
    sl_test_expect_refused(args, "--top-k is not an option of framework torch");
    snprintf(args, sizeof args, "replay --framework hf --logits %s --seed 1 --seed 2", lg);
    sl_test_expect_refused(args, "--seed given twice");
    unlink(lg);
    unlink(nan);
    unlink(inf);
    unlink(ragged);
    free(lg);
    free(nan);
    free(inf);
    free(ragged);
    /* a 3-D .npy */
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1), }";
    unsigned char npy3[160];
    size_t hl = 128 - 10; /* header padded so data starts at byte 128 */
    memcpy(npy3, "\x93NUMPY\x01\x00", 8);
    npy3[8] = (unsigned char)hl;
    npy3[9] = 0;
    memset(npy3 + 10, ' ', hl);
    memcpy(npy3 + 10, dict, strlen(dict));
    npy3[127] = '\n';
    const float one = 1.0f;
    memcpy(npy3 + 128, &one, 4);
    char *p = sl_test_tmpfile(".npy", npy3, 132);
    cr_assert(p);
    /* a [T, B, V] batch for hf and torch; refused by the frameworks without batches */
    snprintf(args, sizeof args, "replay --framework llamacpp --logits %s", p);
    sl_test_expect_refused(args, "a 3-D array");
    unlink(p);
    free(p);
}
