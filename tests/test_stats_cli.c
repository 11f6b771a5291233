/* test_stats_cli.c — `samplab gof`, `power` and `calibrate` as a user meets
 * them, and the draws/counts readers on small temporary files: exit 0/1/2,
 * one line on stderr naming the file and the position, nothing on stdout;
 * `draw --counts` output taken by gof as it is; `power --fault` computing only
 * the faults asked for; and gof's printed replay command on a .safetensors row
 * (data/golden/safetensors/multi.safetensors) naming --tensor and --row, so it
 * runs as printed. No golden file: the statistics themselves are checked by
 * test_stats_gof.c and test_stats_power.c. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "helpers.h"
#include "samplab.h"

static char *tmp(const char *text)
{
    char *f = sl_test_tmpfile(".txt", text, strlen(text));
    cr_assert_not_null(f);
    return f;
}

static void expect_bad(const char *args, const char *msg_part)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 2, "%s: exit %d, expected 2 (stderr %s)", args, r.status, r.err);
    cr_expect_str_empty(r.out, "%s: stdout not empty: %s", args, r.out);
    cr_expect_eq(sl_test_lines(r.err), 1, "%s: stderr should be one line: %s", args, r.err);
    cr_expect(strstr(r.err, msg_part) != NULL, "%s: stderr '%s' lacks '%s'", args, r.err, msg_part);
    sl_test_run_free(&r);
}

/* A draws file with the given content, judged against 3,2,2,1: must fail with msg. */
static void bad_draws(const char *content, const char *msg)
{
    char *f = tmp(content);
    char args[512], want[512];
    snprintf(args, sizeof args, "gof --probs 3,2,2,1 --draws %s", f);
    snprintf(want, sizeof want, "%s: %s", f, msg);
    expect_bad(args, want);
    unlink(f);
    free(f);
}

static void bad_counts(const char *content, const char *msg)
{
    char *f = tmp(content);
    char args[512], want[512];
    snprintf(args, sizeof args, "gof --probs 3,2,2,1 --counts %s", f);
    snprintf(want, sizeof want, "%s: %s", f, msg);
    expect_bad(args, want);
    unlink(f);
    free(f);
}

Test(replay_stats_io, draws_reader_counts_and_positions)
{
    char *f = tmp("0 1 1\n\n  3\t2 2\r\n0");
    uint64_t c[4], n;
    sl_error err;
    cr_assert_eq(sl_io_draws_read(f, 4, c, &n, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(n, 7);
    cr_assert(c[0] == 2 && c[1] == 2 && c[2] == 2 && c[3] == 1, "%llu %llu %llu %llu", (unsigned long long)c[0],
              (unsigned long long)c[1], (unsigned long long)c[2], (unsigned long long)c[3]);
    unlink(f);
    free(f);
}

Test(replay_stats_io, bad_draws_files)
{
    bad_draws("0 1 2\n3 4\n", "line 2, column 3 (draw 5): token id 4 outside 0..3");
    bad_draws("0 1\n 2 x7\n", "line 2, column 4 (draw 4): 'x7' is not a token id");
    bad_draws("1 -1\n", "line 1, column 3 (draw 2): '-1' is not a token id: a negative number");
    bad_draws("1.000000000000000000e+00\n",
              "line 1, column 1 (draw 1): '1.000000000000000000e+00' is not a token id: token ids are integers");
    bad_draws("1,2,3\n", "line 1, column 1 (draw 1): '1,2,3' is not a token id: token ids are separated by whitespace");
    bad_draws("0 1 99999999999999999999999999\n", "line 1, column 5 (draw 3): token id 99999999999999999999999999 outside 0..3");
    bad_draws("\x93NUMPY\x01\x00", "byte 0: a .npy file (by its magic bytes), not text token ids");
    bad_draws("1 2\n\x01\x02\n", "line 2, column 1: byte \\x01 is not text");
    bad_draws("1 2\n3\x1b[31m", "line 2, column 2: byte \\x1b is not text");
    bad_draws("\xef\xbb\xbf" "0 1\n\xef\xbb\xbf" "2\n", "line 2, column 1 (draw 3): '\\xef\\xbb\\xbf2' is not a token id: "
              "token ids are ASCII digits");
    bad_draws("0\t3\n1\t2\n2\t0\n3\t1\n", "every line is 'i<TAB>count' with i = 0, 1, 2, ...");
    bad_draws("0\t5\n1\t7\n", "line 1, column 3 (draw 2): token id 5 outside 0..3 (the file looks like id<TAB>count");
    bad_draws("00000000000000000000000000000000000000000000000000000000000000000000000",
              "line 1, column 1 (draw 1): a field of more than 64 bytes");
    bad_draws("", "no draws");
    bad_draws("\n  \n", "no draws");
    expect_bad("gof --probs 3,2,2,1 --draws no-such-draws.txt", "no-such-draws.txt: cannot open");
}

Test(replay_stats_io, bad_counts_files)
{
    bad_counts("0\t5\n1\t-1\n", "line 2, column 3: '-1' is not a count: a count is never negative");
    bad_counts("0 5\n1 1.5\n", "line 2, column 3: '1.5' is not a count: a count is a whole number");
    /* one field a line is a draws file as often as counts: refused, never guessed */
    bad_counts("5\n1\n3\n2\n", "line 1 has one field ('5'); counts are id<TAB>count lines");
    bad_counts("\x93NUMPY\x01\x00", "byte 0: a .npy file (by its magic bytes), not text counts");
    bad_counts("0\t5\n1\t5\x01\n", "line 2, column 4: byte \\x01 is not text");
    bad_counts("0\t9007199254740993\n", "line 1, column 3: '9007199254740993' is not a count: larger than 2^53");
    bad_counts("0\t4503599627370496\n1\t4503599627370496\n2\t1\n3\t0\n", "line 3: the counts add up past 2^53");
    bad_counts("0\t5\n4\t1\n", "line 2: token id 4 outside 0..3");
    bad_counts("0\t5\n0\t1\n", "line 2: token id 0 appears twice");
    bad_counts("0\t5\n7\n", "line 2 has one field ('7')");
    bad_counts("0\t0\n1\t0\n2\t0\n3\t0\n", "no draws");
    /* a cut-off id<TAB>count file is no sparse file: every id must have its line */
    bad_counts("0\t5\n1\t6\n3\t2\n", "no line for token id 2 (id<TAB>count lines must cover 0..3)");
    bad_counts("0 1 2\n", "line 1 has 3 fields");
    bad_counts("\xef\xbb\xbf" "0\t1\n1\t1\n2\t1\n", "no line for token id 3");
}

Test(replay_stats_cli, counts_from_samplab_draw_accepted_as_is)
{
    /* `samplab draw --counts` output piped into gof --counts - */
    sl_test_run r = sl_test_cli("draw --probs 3,2,2,1 --method alias --seed 3 --n 20000 --counts | "
                                "${SL_BIN:-bin/samplab} gof --probs 3,2,2,1 --counts -");
    cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
    cr_assert(strstr(r.out, "N = 20000"), "%s", r.out);
    cr_assert(strstr(r.out, "verdict: PASS"), "%s", r.out);
    sl_test_run_free(&r);
    /* any whitespace, any order, comments, a UTF-8 byte-order mark */
    char *f = tmp("\xef\xbb\xbf# counts\n3 3000\n0\t3000\n1 2000  # one\n\n2\t2000\n");
    char args[256];
    snprintf(args, sizeof args, "gof --probs 3,2,2,1 --counts %s", f);
    r = sl_test_cli(args);
    cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.out);
    cr_assert(strstr(r.out, "verdict: FAIL (Pearson chi-square p ="), "%s", r.out);
    sl_test_run_free(&r);
    unlink(f);
    free(f);
}

Test(replay_stats_cli, gof_exit_codes_and_json)
{
    sl_test_run a = sl_test_cli("gof --probs 3,2,2,1 --method cdf --n 50000 --seed 1");
    cr_assert_eq(a.status, 0, "%s%s", a.out, a.err);
    cr_assert(strstr(a.out, "replay: samplab draw --probs 3,2,2,1 --method cdf --rng pcg32 --seed 1 --n 50000"),
              "%s", a.out);
    sl_test_run_free(&a);
    /* one draw on a zero-probability token */
    char *f = tmp("0 1 2 0 1 0 3\n");
    char args[256];
    snprintf(args, sizeof args, "gof --probs 3,2,2,0 --draws %s --json", f);
    sl_test_run b = sl_test_cli(args);
    cr_assert_eq(b.status, 1, "%s%s", b.out, b.err);
    const char *keys[] = {"\"n\":7", "\"v\":4", "\"chi2\":{\"stat\":", "\"g\":{\"stat\":", "\"tv\":{\"value\":",
                          "\"null_mean\":", "\"null_q99\":", "\"outside_support\":1", "\"verdict\":\"FAIL\"",
                          "zero-probability rule"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_assert(strstr(b.out, keys[i]), "JSON lacks %s: %s", keys[i], b.out);
    sl_test_run_free(&b);
    unlink(f);
    free(f);
    expect_bad("gof --probs 3,2,2,1", "give exactly one of --draws FILE, --counts FILE, --method M");
    expect_bad("gof --probs 3,2,2,1 --method cdf", "--method needs --n N");
    expect_bad("gof --probs 3,2,2,1 --method cdf --n 10 --alpha 2", "--alpha must be in (0,1)");
    expect_bad("gof --probs 3,2,2,1 --method nope --n 10", "unknown method 'nope'");
    expect_bad("gof --logits 1,2 --temperature 0 --method cdf --n 10", "use --method greedy");
}

Test(replay_stats_cli, power_and_calibrate_run)
{
    sl_test_run a = sl_test_cli("power --probs 0.5,0.3,0.2,0 --n 10000 --trials 50 --json");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert(strstr(a.out, "\"leak\":{") && strstr(a.out, "\"temper\":{") && strstr(a.out, "\"tv_critical\":"),
              "%s", a.out);
    sl_test_run_free(&a);
    sl_test_run b = sl_test_cli("calibrate --probs 3,2,2,1 --method alias --n 2000 --seeds 100");
    cr_assert_eq(b.status, 0, "%s%s", b.out, b.err);
    cr_assert(strstr(b.out, "KS uniformity: D = "), "%s", b.out);
    cr_assert(strstr(b.out, "# bin\tlow\thigh\tcount\texpected"), "%s", b.out);
    sl_test_run_free(&b);
    /* a sampler that ignores p (greedy: always token 0): every seed's p-value is
     * ~0, so the KS p-value is far below 0.001 and calibrate exits 1 */
    sl_test_run c = sl_test_cli("calibrate --probs 3,2,2,1 --method greedy --n 1000 --seeds 20");
    cr_assert_eq(c.status, 1, "%s%s", c.out, c.err);
    cr_assert(strstr(c.out, "p < 0.001: the p-values are not uniform") && strstr(c.out, "verdict: SUSPECT"), "%s",
              c.out);
    sl_test_run_free(&c);
    expect_bad("calibrate --probs 3,2,2,1 --method alias --n 0 --seeds 5", "--n N >= 1");
}

/* --fault F: one family only, or the repeat study of issue #132395 (no reference) */
Test(replay_stats_cli, power_fault_selects)
{
    sl_test_run a = sl_test_cli("power --probs 0.5,0.3,0.2,0 --n 10000 --trials 20 --fault leak --json");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert(strstr(a.out, "\"leak\":{") && !strstr(a.out, "\"shift\":{"), "%s", a.out);
    sl_test_run_free(&a);
    /* sqrt(2 ln 10 (2^31 - 2)) = 99445.6: the exact birthday product at 99,446 calls */
    sl_test_run b = sl_test_cli("power --fault mkl-seed-collision --n 300000");
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_assert(strstr(b.out, "N = 99446 calls for power >= target: reject at 1 repeat") &&
                  strstr(b.out, "expected repeats: 20.9547 under the fault"),
              "%s", b.out);
    sl_test_run_free(&b);
    expect_bad("power --fault mkl-seed-collision --probs 1,2", "takes no --probs");
    expect_bad("power --probs 1,2 --n 10 --fault skew", "unknown --fault skew");
}

/* gof's replay line names the tensor and row of a .safetensors source, and runs */
Test(replay_stats_cli, gof_replay_keeps_tensor_and_row)
{
    sl_test_run r = sl_test_cli("gof --logits data/golden/safetensors/multi.safetensors --tensor rows_f32 --row 2 "
                                "--method cdf --n 2000");
    cr_assert(r.status == 0 || r.status == 1, "status %d: %s", r.status, r.err);
    const char *p = strstr(r.out, "(replay: samplab draw ");
    cr_assert(p, "%s", r.out);
    cr_assert(strstr(p, "--tensor rows_f32 --row 2 --method cdf"), "%s", r.out);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s", p + strlen("(replay: samplab "));
    *strchr(cmd, ')') = 0;
    sl_test_run_free(&r);
    r = sl_test_cli(cmd);
    cr_assert_eq(r.status, 0, "%s: %s", cmd, r.err);
    sl_test_run_free(&r);
}
