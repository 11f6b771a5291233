/* test_cli_silent.c — options that would change nothing are refused, not
 * silently accepted: a penalty with no history to act on (no --context, and a
 * framework that does not add its draws to the history, or one draw), a
 * --context no penalty reads, and an empty `report --only` list, which would
 * write an empty report over the old one. Each: exit 2, nothing on stdout,
 * one line naming the option. */
#include <criterion/criterion.h>

#include "helpers.h"

Test(cli_silent, penalty_without_context_refused_by_every_subcommand)
{
    static const char *const penalties[] = {"--repetition-penalty 1.3", "--frequency-penalty 0.5",
                                            "--presence-penalty 0.5"};
    /* draw: hf, vllm and candle draw from one vector with a fixed history */
    sl_test_expect_refused("draw --framework hf --logits 3,2,2,1 --repetition-penalty 1.3 --n 5",
                           "--repetition-penalty without --context changes nothing: framework hf");
    sl_test_expect_refused("draw --framework vllm --logits 3,2,2,1 --repetition-penalty 1.3",
                           "--repetition-penalty without --context changes nothing: framework vllm");
    sl_test_expect_refused("draw --framework candle --logits 3,2,2,1 --temperature 1 --repetition-penalty 1.3",
                           "--repetition-penalty without --context changes nothing: framework candle");
    for (size_t i = 0; i < sizeof penalties / sizeof *penalties; i++) {
        char args[256], want[128];
        /* llama.cpp adds each draw to the history: only one draw has nothing to penalise */
        snprintf(args, sizeof args, "draw --framework llamacpp --seed 1 --logits 3,2,2,1 %s", penalties[i]);
        snprintf(want, sizeof want, "%.*s without --context changes nothing in one draw",
                 (int)(strchr(penalties[i], ' ') - penalties[i]), penalties[i]);
        sl_test_expect_refused(args, want);
        /* pipeline and compare name the penalty given too */
        snprintf(want, sizeof want, "%.*s needs --context IDS", (int)(strchr(penalties[i], ' ') - penalties[i]),
                 penalties[i]);
        snprintf(args, sizeof args, "pipeline --framework llamacpp --logits 3,2,2,1 %s", penalties[i]);
        sl_test_expect_refused(args, want);
        snprintf(args, sizeof args, "compare --logits 3,2,2,1 %s", penalties[i]);
        sl_test_expect_refused(args, want);
    }
    sl_test_expect_refused("pipeline --framework hf --logits 3,2,2,1 --repetition-penalty 1.3",
                           "samplab pipeline: --repetition-penalty needs --context IDS");
    /* with several llama.cpp draws the drawn tokens are the history: accepted, and it does change them */
    sl_test_run a = sl_test_cli("draw --framework llamacpp --seed 1 --logits data/weather.txt --n 30");
    sl_test_run b = sl_test_cli("draw --framework llamacpp --seed 1 --logits data/weather.txt --n 30 "
                                "--repetition-penalty 3");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_expect_str_neq(a.out, b.out, "the penalty changed none of 30 llama.cpp draws");
    sl_test_run_free(&a);
    sl_test_run_free(&b);
}

Test(cli_silent, context_without_penalty_refused)
{
    sl_test_expect_refused("draw --framework hf --logits 3,2,2,1 --context 1,2",
                           "--context is only used by --repetition-penalty");
    sl_test_expect_refused("pipeline --framework hf --logits 3,2,2,1 --context 1,2",
                           "--context is only used by --repetition-penalty");
}

Test(cli_silent, report_only_empty_or_unknown_refused)
{
    sl_test_expect_refused("report --only '' --no-plot --out /tmp/sl-test-report-never",
                           "--only: the list of sections is empty");
    sl_test_expect_refused("report --only agree, --no-plot --out /tmp/sl-test-report-never",
                           "--only: an empty section name");
    sl_test_expect_refused("report --only ,agree --no-plot --out /tmp/sl-test-report-never",
                           "--only: an empty section name");
    sl_test_expect_refused("report --only agree,,cost --no-plot --out /tmp/sl-test-report-never",
                           "--only: an empty section name");
    sl_test_expect_refused("report --only agree,nosuch --no-plot --out /tmp/sl-test-report-never",
                           "--only: unknown section 'nosuch'");
    cr_expect(access("/tmp/sl-test-report-never", F_OK) != 0, "a refused report made its folder");
}
