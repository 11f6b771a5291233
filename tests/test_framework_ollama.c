/* test_framework_ollama.c — `--framework ollama --ollama 0.24` end to end:
 * check exposes Ollama issue #15783 (penalties accepted, never applied), the
 * refusals (one line, exit 2), the words per draw, and the exact audit against
 * a brute force over every Float32 value. Bit-exactness against Ollama's own
 * Go code is test_current_ollama.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

/* T steps of one logits row: token 0 at logit 4, the 49 others at 0. With a
 * repeat penalty of 1.1 over the last 64 ids, token 0 (always among them)
 * falls from e^4 / (e^4 + 49) = 0.527 to e^3.64 / (e^3.64 + 49) = 0.436. */
static char *gen_logits_file(size_t T)
{
    char row[256];
    size_t n = (size_t)snprintf(row, sizeof row, "4");
    for (int i = 1; i < 50; i++)
        n += (size_t)snprintf(row + n, sizeof row - n, ",0");
    row[n++] = '\n';
    char *buf = malloc(n * T);
    for (size_t t = 0; t < T; t++)
        memcpy(buf + t * n, row, n);
    char *path = sl_test_tmpfile(".txt", buf, n * T);
    free(buf);
    return path;
}

Test(framework_ollama, check_exposes_penalties_that_ollama_0_24_ignores)
{
    char *lg = gen_logits_file(1000), cmd[1024];
    /* the log: Ollama 0.24 asked for repeat_penalty 1.1, which its sampler ignores */
    snprintf(cmd, sizeof cmd, "replay --framework ollama --ollama 0.24 --seed 7 --logits %s --temperature 1 "
             "--top-k 0 --top-p 1 --repetition-penalty 1.1", lg);
    sl_test_run r = sl_test_cli(cmd);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "samplab replay: note: ollama 0.24:") && strstr(r.err, "#15783"), "%s", r.err);
    char *tok = sl_test_tmpfile(".txt", r.out, strlen(r.out));
    sl_test_run_free(&r);
    /* the verdict, not the power table; llama.cpp below with its default filters off */
    const char *S = "--logits %s --tokens %s --temperature 1 --top-k 0 --top-p 1 --trials 0";
    char set[512];
    snprintf(set, sizeof set, S, lg, tok);
    /* seeded: every token is the one Ollama 0.24 draws, the penalty accepted and noted */
    snprintf(cmd, sizeof cmd, "check --framework ollama --ollama 0.24 %s --repetition-penalty 1.1 "
             "--seed 7", set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "every observed token is the one the seeded sampler draws"), "%s", r.out);
    cr_expect(strstr(r.err, "#15783"), "%s", r.err);
    sl_test_run_free(&r);
    /* as a distribution: Ollama 0.24 with the penalty passes */
    snprintf(cmd, sizeof cmd, "check --framework ollama --ollama 0.24 %s --repetition-penalty 1.1",
             set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    sl_test_run_free(&r);
    /* llama.cpp with the same penalty (which it applies) rejects the log ... */
    snprintf(cmd, sizeof cmd, "check --framework llamacpp %s --min-p 0 --repetition-penalty 1.1", set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 1, "%s%s", r.out, r.err);
    cr_expect(strstr(r.out, "verdict: rejected"), "%s", r.out);
    sl_test_run_free(&r);
    /* ... and passes it without the penalty: the penalty is all that differs */
    snprintf(cmd, sizeof cmd, "check --framework llamacpp %s --min-p 0", set);
    r = sl_test_cli(cmd);
    cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
    sl_test_run_free(&r);
    unlink(lg);
    unlink(tok);
    free(lg);
    free(tok);
}

static void expect_refusal(const char *args, const char *words)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 2, "%s: exit %d", args, r.status);
    cr_expect_str_empty(r.out, "%s: stdout %s", args, r.out);
    size_t nl = 0;
    for (const char *p = r.err; *p; p++)
        nl += *p == '\n';
    cr_expect_eq(nl, 1, "%s: one line: %s", args, r.err);
    cr_expect(strstr(r.err, words), "%s: %s", args, r.err);
    sl_test_run_free(&r);
}

Test(framework_ollama, refusals_are_one_line_exit_2)
{
    expect_refusal("draw --framework ollama --logits 3,2,1 --seed 1", "models only --ollama 0.24");
    expect_refusal("pipeline --framework ollama --logits 3,2,1", "models only --ollama 0.24");
    expect_refusal("exact --framework ollama --logits 3,2,1", "models only --ollama 0.24");
    expect_refusal("draw --framework ollama --ollama 0.24 --logits 3,2,1", "needs --seed");
    expect_refusal("draw --framework ollama --ollama 0.24 --logits 3,2,1 --seed 18446744073709551615",
                   "Ollama's random seed");
    expect_refusal("draw --framework ollama --ollama 0.30 --logits 3,2,1 --seed 1", "--ollama takes 0.24");
    expect_refusal("draw --framework ollama --ollama 0.24 --probs 3,2,1 --seed 1", "--probs");
    expect_refusal("draw --framework ollama --ollama 0.24 --logits 3,2,1 --seed 1 --typical 0.5", "--typical");
    expect_refusal("draw --framework llamacpp --ollama 0.24 --logits 3,2,1 --seed 1", "--ollama");
}

Test(framework_ollama, one_word_per_draw_none_when_greedy)
{
    sl_test_run r = sl_test_cli("draw --framework ollama --ollama 0.24 --logits 3,2,2,1 --seed 1 --n 25 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"name\":\"go-pcg\",\"word_bits\":64,\"words\":25"), "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework ollama --ollama 0.24 --logits 3,2,2,1 --seed 1 --n 25 --json --temperature 0");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"words\":0"), "%s", r.out);
    cr_expect(strstr(r.out, "\"tokens\":[0,0,0"), "%s", r.out);
    sl_test_run_free(&r);
    /* a temperature below 0 is 0 (greedy), with a note */
    r = sl_test_cli("draw --framework ollama --ollama 0.24 --logits 1,3,3 --seed 1 --temperature -1");
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "1\n");
    cr_expect(strstr(r.err, "greedy"), "%s", r.err);
    sl_test_run_free(&r);
}

/* The audit against every one of the 2^24 Float32 values, with the lower bound
 * done here as a linear scan over the float32 running sums. */
Test(framework_ollama, exact_counts_equal_a_brute_force_over_every_float32)
{
    const float lg[5] = {1.5f, -0.25f, 1.5f, 0.0f, -3.0f};
    double ld[5];
    float lf[5];
    for (int i = 0; i < 5; i++)
        ld[i] = lf[i] = lg[i];
    sl_stat_exact_input in = {.V = 5, .d = ld, .f = lf, .logits_f = lg, .source = "test"};
    sl_stat_exact_result res;
    sl_error err;
    cr_assert_eq(sl_stat_exact_run(&sl_fw_ollama_exact, &in, &res, &err), 0, "%s", err.msg);
    cr_assert_eq(res.bits, 24);
    /* Ollama's array: the tokens sorted by descending logit (ties as Go's sort leaves them) */
    sl_logits_go_tok t[5];
    for (int i = 0; i < 5; i++)
        t[i].id = i, t[i].value = lg[i];
    sl_logits_go_sort_desc(t, 5);
    float mx = t[0].value, sum = 0, cum[5], c = 0;
    for (int i = 0; i < 5; i++)
        sum += t[i].value = (float)sl_logits_go_exp((double)(t[i].value - mx), 1);
    for (int i = 0; i < 5; i++)
        cum[i] = c += t[i].value /= sum;
    uint64_t brute[5] = {0};
    for (uint32_t u = 0; u < (1u << 24); u++) {
        float r = (float)u * 0x1p-24f * cum[4];
        int j = 0;
        while (j < 4 && cum[j] < r)
            j++;
        brute[t[j].id]++;
    }
    for (int i = 0; i < 5; i++)
        cr_expect_eq((uint64_t)res.count[i], brute[i], "token %d: audit %llu, brute force %llu", i,
                     (unsigned long long)res.count[i], (unsigned long long)brute[i]);
    sl_stat_exact_result_free(&res);
}

Test(framework_ollama, go_exp_is_close_to_exp_and_exact_at_0)
{
    cr_assert_eq(sl_logits_go_exp(0.0, 1), 1.0);
    cr_assert_eq(sl_logits_go_exp(0.0, 0), 1.0);
    cr_assert_eq(sl_logits_go_exp(-INFINITY, 1), 0.0);
    cr_assert(isnan(sl_logits_go_exp(NAN, 1)));
    cr_assert_eq(sl_logits_go_exp(710.0, 1), INFINITY);
    for (double x = -745.0; x < 709.0; x += 0.37) {
        double a = sl_logits_go_exp(x, 1), b = exp(x);
        cr_expect(fabs(a - b) <= 2 * fabs(nextafter(b, INFINITY) - b) || b < 0x1p-1000, "x=%.17g: %.17g vs %.17g",
                  x, a, b);
    }
}

Test(framework_ollama, go_sort_orders_descending)
{
    sl_logits_go_tok t[1000];
    uint32_t x = 1;
    for (int i = 0; i < 1000; i++) {
        x = x * 1103515245u + 12345u;
        t[i].id = i;
        t[i].value = (float)((x >> 16) % 17);
    }
    sl_logits_go_sort_desc(t, 1000);
    for (int i = 1; i < 1000; i++)
        cr_assert_geq(t[i - 1].value, t[i].value, "position %d", i);
}
