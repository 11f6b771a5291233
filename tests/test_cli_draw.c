/* test_cli_draw.c — `samplab draw` and `samplab rng` as a user meets them, no
 * golden file: the same arguments give the same bytes, --counts equals the tally
 * of the token list, --json counts the words spent, `rng` prints PCG32's
 * published demo words (seed 42, stream 54) and their little-endian bytes; 10^8
 * draws as counts fit under `ulimit -v` 300 MB (memory O(V), not O(N)); a write
 * error on stdout is exit 2; --help lists each framework's options; bad input is
 * one line on stderr naming the source and position, exit 2, nothing on stdout. */
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
    /* a forgotten value is named, not read as the next option */
    expect_bad("draw --probs --method cdf", "--probs needs a value, not the option '--method'");
    expect_bad("gof --probs 1,2 --draws --json", "--draws needs a value, not the option '--json'");
    /* streams: named as such, never wrapped mod 2^64, never silently ignored */
    expect_bad("rng --rng pcg32 --stream -3", "stream '-3': character 1");
    expect_bad("rng --rng chacha12 --stream 18446744073709551616", "stream '18446744073709551616' is not below 2^64");
    expect_bad("draw --probs 1,2 --method cdf --stream 18446744073709551616", "is not below 2^64");
    expect_bad("rng --rng mt19937 --stream 3", "mt19937 has no streams");
    expect_bad("rng --rng torch-mt19937 --stream 1", "torch-mt19937 has no streams");
    expect_bad("rng --rng gsl:taus2 --stream 3", "gsl:taus2 has no streams");
    expect_bad("draw --probs 1,2 --method cdf --rng mt19937 --stream 3", "mt19937 has no streams");
    expect_bad("rng --rng mt19937 --seed 18446744073709551616", "mt19937 takes a seed below 2^64");
    /* an empty field would shift every later token id: refused, for every framework */
    expect_bad("draw --probs 0.5,,0.5 --framework torch", "samplab: --probs: entry 1 is empty");
    expect_bad("draw --probs 0.5,,0.5 --framework numpy", "samplab: --probs: entry 1 is empty");
    expect_bad("draw --probs ,1,2 --framework candle", "samplab: --probs: entry 0 is empty");
    expect_bad("draw --logits 1,x --framework hf", "samplab: --logits: entry 1: 'x' is not a number");
}

Test(replay_cli, greedy_takes_temperature_zero)
{
    sl_test_run r = sl_test_cli("draw --logits 1,5,5,2 --method greedy --temperature 0 --n 2 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"tokens\":[1,1]") && strstr(r.out, "\"words\":0"), "%s", r.out);
    sl_test_run_free(&r);
}

/* What `samplab ARGS` prints under a 300 MB address-space limit, newlines and tabs
 * as ' ' and ':'. The release build (SL_REL_BIN): ASan's shadow memory alone is
 * terabytes of address space. */
static void under_300mb(const char *args, char *out, size_t cap)
{
    const char *bin = sl_test_rel_bin();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sh -c 'ulimit -v 300000; %s %s' | tr '\\n\\t' ' :'", bin, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t got = fread(out, 1, cap - 1, p);
    out[got] = '\0';
    pclose(p);
}

Test(replay_cli, counts_need_memory_of_v_not_n)
{
    /* 10^8 draws as counts: an N-sized token array (800 MB) cannot be allocated,
     * V counts can. greedy keeps it fast. */
    char out[256];
    under_300mb("draw --probs 3,2,2,1 --method greedy --n 100000000 --counts", out, sizeof out);
    cr_assert_str_eq(out, "0:100000000 1:0 2:0 3:0 ", "draw --counts under ulimit -v printed '%s'", out);
}

/* The same for a framework's session: --counts and printed tokens keep O(V), not an
 * N-sized array (4 * 10^7 calls as tokens would be 320 MB). */
Test(replay_cli, framework_counts_need_memory_of_v_not_n)
{
    static const char *const forms[] = {"--counts", "| tail -1"};
    static const char *const want[] = {"0:20614587 1:10243188 2:6863931 3:1253584 4:564399 5:279492 6:138829 7:41990 ",
                                       "0 "};
    for (int k = 0; k < 2; k++) {
        char args[256], out[256];
        snprintf(args, sizeof args, "draw --framework candle --logits data/weather.txt --temperature 1 --n 40000000 %s",
                 forms[k]);
        under_300mb(args, out, sizeof out);
        cr_expect_str_eq(out, want[k], "%s under ulimit -v printed '%s'", args, out);
    }
}

Test(replay_cli, write_error_on_stdout_is_exit_2)
{
    /* a full disk behind stdout: a cut-off result must not end with status 0 */
    const char *bin = getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab";
    static const char *const cmds[] = {"draw --probs 3,2,2,1 --method cdf --n 100000",
                                       "gof --probs 3,2,2,1 --method cdf --n 1000 --json",
                                       "rng --rng pcg32 --n 100 --binary"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s %s 2>&1 >/dev/full; echo \" rc=$?\"", bin, cmds[i]);
        FILE *p = popen(cmd, "r");
        cr_assert_not_null(p);
        char out[512] = "";
        size_t got = fread(out, 1, sizeof out - 1, p);
        out[got] = '\0';
        pclose(p);
        cr_expect(strstr(out, "error writing standard output") && strstr(out, " rc=2"),
                  "%s >/dev/full: '%s', expected one error line and exit 2", cmds[i], out);
    }
}

static void sh_capture(const char *args, char *out, size_t cap)
{
    const char *bin = getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s", bin, args);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t got = fread(out, 1, cap - 1, p);
    out[got] = '\0';
    pclose(p);
}

Test(replay_cli, binary_of_a_short_word_source_says_so)
{
    /* gsl:randu words take 2^31-1 values: a battery fed them would reject the padding */
    char out[512];
    sh_capture("rng --rng gsl:randu --binary --n 2 2>/dev/null | wc -c", out, sizeof out);
    cr_assert_eq(atoi(out), 8, "bytes: %s", out);
    sh_capture("rng --rng gsl:randu --binary --n 2 2>&1 >/dev/null", out, sizeof out);
    cr_assert_eq(sl_test_lines(out), 1, "stderr: %s", out);
    cr_assert(strstr(out, "gsl:randu words are not 32 bits wide"), "stderr: %s", out);
    sh_capture("rng --rng gsl:taus2 --binary --n 2 2>&1 >/dev/null", out, sizeof out);
    cr_assert_str_empty(out, "a full 32-bit source got a note: %s", out);
}

/* --help names every option each framework accepts (from its accepts bits), so a
 * user learns that --replacement is torch's and --top-k candle's before an error. */
Test(replay_cli, help_lists_each_frameworks_options)
{
    sl_test_run h = sl_test_cli("draw --help");
    cr_assert_eq(h.status, 0, "%s", h.err);
    const char *want[] = {
        "  torch ", "options: --probs --num-samples --replacement --no-replacement --dtype --torch --torch-build\n",
        "  numpy ", "options: --probs --num-samples --replacement --no-replacement --shuffle --dtype\n",
        "  numpy-legacy ", "options: --probs --num-samples --replacement --no-replacement --dtype\n",
        "  gsl ", "options: --probs\n",
        "  candle ", "options: --probs --logits --temperature --top-k --top-p --rand --simd-sum",
        "  rand ", "options: --probs --num-samples --dtype --rand\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i += 2) {
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

/* --replacement / --no-replacement: each library's default when neither is given
 * (torch: replacement=False; NumPy: replace=True), both refused by name, with the
 * library's reason, where the library has no such setting. */
Test(replay_cli, replacement_takes_each_librarys_default)
{
    static const struct {
        const char *fw, *src, *why;
    } none[] = {
        {"candle", "--logits 3,2,2,1", "candle's LogitsProcessor::sample draws one token a step"},
        {"hf", "--logits 3,2,2,1", "torch.multinomial(probs, num_samples=1) a step"},
        {"vllm", "--logits 3,2,2,1", "vLLM's sampler draws one token a request a step"},
        {"llamacpp", "--logits 3,2,2,1", "llama.cpp's dist sampler draws one token a step"},
        {"node-llama-cpp", "--logits 3,2,2,1", "llama.cpp's dist sampler draws one token a step"},
        {"ollama --ollama 0.24", "--logits 3,2,2,1", "Ollama's sampler draws one token a step"},
        {"ollama --ollama 0.32", "--logits 3,2,2,1", "Ollama's sampler draws one token a step"},
        {"gsl", "--probs 3,2,2,1", "GSL has no weighted draw without replacement"},
        {"rand", "--probs 3,2,2,1", "index::sample_weighted (without replacement) is not modelled by samplab"},
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        for (int r = 0; r < 2; r++) {
            char args[256];
            const char *opt = r ? "--replacement" : "--no-replacement";
            snprintf(args, sizeof args, "draw --framework %s %s %s", none[i].fw, none[i].src, opt);
            sl_test_expect_refused(args, none[i].why);
            sl_test_expect_refused(args, opt);
        }
    /* the default is the library's: the same tokens and words as the flag that names it */
    static const struct {
        const char *fw, *same, *other;
    } deflt[] = {
        {"torch", "--no-replacement", "--replacement"},
        {"numpy", "--replacement", "--no-replacement"},
        {"numpy-legacy", "--replacement", "--no-replacement"},
    };
    for (size_t i = 0; i < sizeof deflt / sizeof *deflt; i++) {
        char a[200], b[256], c[256];
        snprintf(a, sizeof a, "draw --framework %s --probs 0.1,0.2,0.3,0.4 --num-samples 3 --n 4 --json", deflt[i].fw);
        snprintf(b, sizeof b, "%s %s", a, deflt[i].same);
        snprintf(c, sizeof c, "%s %s", a, deflt[i].other);
        sl_test_run ra = sl_test_cli(a), rb = sl_test_cli(b), rc = sl_test_cli(c);
        cr_assert(ra.status == 0 && rb.status == 0 && rc.status == 0, "%s: %s %s %s", deflt[i].fw, ra.err, rb.err,
                  rc.err);
        cr_expect_str_eq(ra.out, rb.out, "%s: the default differs from %s", deflt[i].fw, deflt[i].same);
        cr_expect_str_neq(ra.out, rc.out, "%s: %s changes nothing", deflt[i].fw, deflt[i].other);
        sl_test_run_free(&ra);
        sl_test_run_free(&rb);
        sl_test_run_free(&rc);
    }
    sl_test_expect_refused("draw --framework torch --probs 1,2 --replacement --no-replacement",
                           "--replacement and --no-replacement: give one of them");
    sl_test_expect_refused("draw --framework numpy --probs 0.5,0.5 --shuffle maybe", "--shuffle takes true or false");
    sl_test_expect_refused("draw --framework numpy-legacy --probs 0.5,0.5 --shuffle false",
                           "--shuffle is not an option of framework numpy-legacy");
    sl_test_expect_refused("draw --framework numpy-legacy --probs 0.5,0.5 --num-samples 3 --no-replacement",
                           "Cannot take a larger sample than population when 'replace=False'");
}
