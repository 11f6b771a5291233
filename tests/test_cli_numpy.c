/* test_cli_numpy.c — `samplab draw --framework numpy | numpy-legacy | gsl` as a
 * user meets them: NumPy's draws from the command line (seed above 2^64 typed
 * in decimal), words in --json, a float32 .npy getting NumPy's float32
 * tolerance, and bad input (exit 2, one line on stderr, nothing on stdout). The
 * tokens, word counts and verdicts expected are those of NumPy 1.24.2's records
 * (data/golden/numpy_choice.txt, numpy_legacy.txt and numpy_validate.txt, the
 * weather vector of numpy_vectors.txt), copied into the test. */
#include <criterion/criterion.h>

#include "helpers.h"

/* numpy_vectors.txt "weather": softmax([4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2]) as NumPy computed it. */
#define WEATHER "0.5154835512819855,0.2559815559128394,0.1715895683437691,0.031346587035727305," \
                "0.014084929481373673,0.006994368985388527,0.0034733008474383737,0.0010461381114781846"

Test(replay_cli_numpy, draws_match_numpy_golden)
{
    /* each value in its shortest decimal that reads back as the same double (Python's repr) */
    char *w = sl_test_tmpfile(".txt", WEATHER "\n", strlen(WEATHER) + 1);
    char args[1024];
    /* numpy_choice.txt: default_rng(2**128 - 1), 5 calls then size=7, weather. */
    snprintf(args, sizeof args, "draw --framework numpy --probs %s --seed 340282366920938463463374607431768211455 --n 12", w);
    sl_test_run a = sl_test_cli(args);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, "0\n1\n0\n0\n0\n2\n2\n0\n0\n0\n0\n1\n");
    snprintf(args, sizeof args, "draw --framework numpy --probs %s --seed 0xffffffffffffffffffffffffffffffff --n 2 --num-samples 6 --json", w);
    sl_test_run b = sl_test_cli(args);
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_assert_str_eq(b.out, "{\"tokens\":[[0,1,0,0,0,2],[2,0,0,0,0,1]],"
                            "\"rng\":{\"name\":\"numpy-pcg64\",\"word_bits\":64,\"words\":12},"
                            "\"version\":\"NumPy 1.24.2 and 2.4.6 (1.24 error texts)\"}\n");
    /* numpy_legacy.txt: np.random.seed(2**32 - 1), weather. */
    snprintf(args, sizeof args, "draw --framework numpy-legacy --probs %s --seed 4294967295 --n 12 --json", w);
    sl_test_run c = sl_test_cli(args);
    cr_assert_eq(c.status, 0, "%s", c.err);
    cr_assert_str_eq(c.out, "{\"tokens\":[[0],[2],[2],[2],[0],[3],[1],[0],[2],[1],[4],[0]],"
                            "\"rng\":{\"name\":\"numpy-mt19937\",\"word_bits\":32,\"words\":24},"
                            "\"version\":\"NumPy 1.24.2 and 2.4.6 (1.24 error texts)\"}\n");
    snprintf(args, sizeof args, "draw --framework gsl --probs %s --seed 7 --n 9 --json", w);
    sl_test_run d = sl_test_cli(args);
    cr_assert_eq(d.status, 0, "%s", d.err);
    cr_assert(strstr(d.out, "\"rng\":{\"name\":\"gsl-mt19937\",\"word_bits\":32,\"words\":9}"), "%s", d.out);
    sl_test_run_free(&a);
    sl_test_run_free(&b);
    sl_test_run_free(&c);
    sl_test_run_free(&d);
    unlink(w);
    free(w);
}

/* A 1-D little-endian float32 .npy (format 1.0). */
static char *npy_f32(const float *x, size_t n)
{
    char hdr[128];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu,), }", n);
    size_t total = 10 + (size_t)hl + 1, pad = (64 - total % 64) % 64;
    size_t len = total + pad + 4 * n;
    unsigned char *buf = malloc(len);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    size_t h = (size_t)hl + pad + 1;
    buf[8] = (unsigned char)(h & 0xff);
    buf[9] = (unsigned char)(h >> 8);
    memcpy(buf + 10, hdr, (size_t)hl);
    memset(buf + 10 + hl, ' ', pad);
    buf[10 + hl + pad] = '\n';
    memcpy(buf + 10 + h, x, 4 * n);
    char *path = sl_test_tmpfile(".npy", buf, len);
    free(buf);
    return path;
}

Test(replay_cli_numpy, float32_npy_gets_numpy_float32_tolerance)
{
    /* numpy_validate.txt: f32_in accepted as a float32 array, f32_in_as64 rejected. */
    const float x[2] = { 0.5f, 0.5003f };
    char *npy = npy_f32(x, 2);
    char args[512];
    snprintf(args, sizeof args, "draw --framework numpy --probs %s --seed 1 --n 3", npy);
    sl_test_run a = sl_test_cli(args);
    cr_assert_eq(a.status, 0, "float32 .npy with sum 1.0003 must pass NumPy's float32 tolerance: %s", a.err);
    snprintf(args, sizeof args, "draw --framework numpy --probs %s --dtype float64 --seed 1 --n 3", npy);
    sl_test_run b = sl_test_cli(args);
    cr_assert_eq(b.status, 2, "the same values as float64 must be rejected");
    cr_assert(strstr(b.err, "(NumPy: probabilities do not sum to 1)"), "%s", b.err);
    cr_assert(strstr(b.err, npy), "message names the file: %s", b.err);
    sl_test_run c = sl_test_cli("draw --framework numpy --probs 0.5,0.5003 --dtype float32 --n 1");
    cr_assert_eq(c.status, 0, "--dtype float32 on text is np.array(p, dtype=np.float32): %s", c.err);
    unlink(npy);
    free(npy);
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

Test(replay_cli_numpy, bad_input_is_one_line_and_exit_2)
{
    expect_bad("draw --framework numpy --probs 0.5,nan,0.5", "inline: entry 1 is NaN (NumPy: probabilities contain NaN)");
    expect_bad("draw --framework numpy --probs 0.6,-0.1,0.5", "entry 1 is negative");
    expect_bad("draw --framework numpy-legacy --probs 0.25,0.25", "(NumPy: probabilities do not sum to 1)");
    expect_bad("draw --framework numpy --probs inf,0.5,0.5", "entry 0 is infinite");
    expect_bad("draw --framework numpy-legacy --probs 1 --seed 4294967296",
               "(NumPy: Seed must be between 0 and 2**32 - 1)");
    expect_bad("draw --framework gsl --probs 1 --seed 18446744073709551616", "below 2^64");
    expect_bad("draw --framework gsl --probs 0.5,0.5 --num-samples 2", "not an option of framework gsl");
    expect_bad("draw --framework numpy --probs 1 --seed 340282366920938463463374607431768211456", "");
}
