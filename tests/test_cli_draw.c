/* test_cli_draw.c — `samplab draw` and `samplab rng` as a user meets them:
 * outputs, determinism, words in --json, and bad input (one line on stderr
 * naming the source and position, exit 2, nothing on stdout). */
#include <criterion/criterion.h>

#include "helpers.h"

Test(replay_cli, draw_is_deterministic_and_counts)
{
    sl_test_run a = sl_test_cli("draw --probs 3,2,2,1 --method alias --seed 7 --n 1000");
    sl_test_run b = sl_test_cli("draw --probs 3,2,2,1 --method alias --seed 7 --n 1000");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, b.out, "the same arguments gave other bytes");
    cr_assert_eq(sl_test_lines(a.out), 1000);
    sl_test_run c = sl_test_cli("draw --probs 3,2,2,1 --method alias --seed 7 --n 1000 --counts");
    cr_assert_eq(sl_test_lines(c.out), 4);
    /* the counts are those of the token list */
    unsigned long cnt[4] = {0};
    for (char *p = a.out; *p; p = strchr(p, '\n') + 1)
        cnt[atoi(p)]++;
    char want[128];
    snprintf(want, sizeof want, "0\t%lu\n1\t%lu\n2\t%lu\n3\t%lu\n", cnt[0], cnt[1], cnt[2], cnt[3]);
    cr_assert_str_eq(c.out, want);
    sl_test_run_free(&a);
    sl_test_run_free(&b);
    sl_test_run_free(&c);
}

Test(replay_cli, json_reports_words)
{
    sl_test_run a = sl_test_cli("draw --logits 4.0,3.3,2.9,1.2,0.4,-0.3,-1.0,-2.2 --method exprace --n 3 --json");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert(strstr(a.out, "\"rng\":{\"name\":\"pcg32\",\"word_bits\":32,\"words\":48}"), "%s", a.out);
    sl_test_run b = sl_test_cli("draw --probs 3,2,2,1 --method cdf --rng gsl:mt19937 --n 5 --counts --json");
    cr_assert(strstr(b.out, "\"counts\":["), "%s", b.out);
    cr_assert(strstr(b.out, "\"words\":10"), "%s", b.out);
    sl_test_run_free(&a);
    sl_test_run_free(&b);
}

Test(replay_cli, rng_words_and_binary)
{
    sl_test_run a = sl_test_cli("rng --rng pcg32 --seed 42 --stream 54 --n 2");
    cr_assert_eq(a.status, 0);
    cr_assert_str_eq(a.out, "2707161783\n2068313097\n");
    sl_test_run b = sl_test_cli("rng --rng pcg32 --seed 42 --stream 54 --n 2 --binary | od -An -tx1 | tr -d ' \\n'");
    cr_assert_str_eq(b.out, "b7025ca109f4477b", "little-endian bytes of 0xa15c02b7 0x7b47f409");
    sl_test_run c = sl_test_cli("rng --rng mt19937 --binary --n 0 | head -c 100000 | wc -c");
    cr_assert_eq(atoi(c.out), 100000, "endless stream stopped early: %s", c.out);
    sl_test_run_free(&a);
    sl_test_run_free(&b);
    sl_test_run_free(&c);
}

static void expect_bad(const char *args, const char *msg_part)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 2, "%s: exit %d, expected 2", args, r.status);
    cr_expect_str_empty(r.out, "%s: stdout not empty: %s", args, r.out);
    cr_expect_eq(sl_test_lines(r.err), 1, "%s: stderr should be one line: %s", args, r.err);
    cr_expect(strstr(r.err, msg_part) != NULL, "%s: stderr '%s' lacks '%s'", args, r.err, msg_part);
    sl_test_run_free(&r);
}

Test(replay_cli, bad_input_is_one_line_exit_2)
{
    char *f = sl_test_tmpfile(".txt", "0.1\n0.2\n# c\n0.3 nan\n", 20);
    cr_assert_not_null(f);
    char args[256];
    snprintf(args, sizeof args, "draw --probs %s --method cdf", f);
    expect_bad(args, ": entry 3 is NaN");
    unlink(f);
    free(f);
    expect_bad("draw --probs 1,-2 --method cdf", "inline: entry 1 is negative");
    expect_bad("draw --probs 1,inf --method cdf", "inline: entry 1 is infinite");
    expect_bad("draw --probs 0,0,0 --method cdf", "all 3 weights are zero");
    expect_bad("draw --probs no-such-file.txt --method cdf", "no-such-file.txt: cannot open");
    expect_bad("draw --probs 1,2 --method nope", "unknown method 'nope'");
    expect_bad("draw --probs 1,2 --method cdf --rng nope", "unknown random source 'nope'");
    expect_bad("draw --probs 1,2 --method cdf --bogus", "unknown option '--bogus'");
    expect_bad("draw --logits 1,2 --method cdf --temperature 0", "use --method greedy");
    expect_bad("draw --probs 1,2 --method cdf --n -3", "--n takes a non-negative integer");
    expect_bad("draw --probs 1,2 --method cdf --seed 12x", "seed '12x'");
    expect_bad("draw --probs 1,2 --method cdf --top-k 3", "needs --framework");
    expect_bad("draw --probs 1,2 --framework no-such", "unknown framework 'no-such'");
    expect_bad("rng --rng nope", "unknown random source");
    /* an empty field would shift every later token id: refused, for every framework */
    expect_bad("draw --probs 0.5,,0.5 --framework torch", "inline: line 1, entry 1 is empty");
    expect_bad("draw --probs 0.5,,0.5 --framework numpy", "inline: line 1, entry 1 is empty");
    expect_bad("draw --probs ,1,2 --framework candle", "inline: line 1, entry 0 is empty");
}

Test(replay_cli, greedy_takes_temperature_zero)
{
    sl_test_run r = sl_test_cli("draw --logits 1,5,5,2 --method greedy --temperature 0 --n 2 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"tokens\":[1,1]") && strstr(r.out, "\"words\":0"), "%s", r.out);
    sl_test_run_free(&r);
}

/* --help names every option each framework accepts (from its accepts bits), so a
 * user learns that --replacement is torch's and --top-k candle's before an error. */
Test(replay_cli, help_lists_each_frameworks_options)
{
    sl_test_run h = sl_test_cli("draw --help");
    cr_assert_eq(h.status, 0, "%s", h.err);
    const char *want[] = {
        "  torch ", "options: --probs --num-samples --replacement --dtype --torch\n",
        "  numpy ", "options: --probs --num-samples --dtype\n",
        "  gsl ", "options: --probs\n",
        "  candle ", "options: --probs --logits --temperature --top-k --top-p --simd-sum",
    };
    for (size_t i = 0; i < 8; i += 2) {
        const char *at = strstr(h.out, want[i]);
        cr_assert_not_null(at, "no line for '%s' in:\n%s", want[i], h.out);
        const char *nl = strchr(at, '\n');
        const char *o = nl ? strstr(nl, "options:") : NULL;
        cr_assert(o && !strncmp(o, want[i + 1], strlen(want[i + 1])),
                  "after '%s' expected '%s' in:\n%s", want[i], want[i + 1], h.out);
    }
    cr_assert(strstr(h.out, "numpy 0 .. 2^128 - 1"), "seed ranges missing:\n%s", h.out);
    sl_test_run_free(&h);
}
