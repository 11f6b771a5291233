/* test_cli_batch.c — batches on the command line: what a batch is made of (a
 * [T, B, V] tensor, one --logits per row, --context rows or --context-file, inline
 * [B, V] rows for draw), how it prints (one line per step, B tokens), that a batch
 * draw of B rows is each row's one-row draw at its place in the generator's stream
 * (torch.multinomial on [B, V] is B one-row calls in row order), and the refusals:
 * one line on stderr, exit 2, nothing on stdout. The tokens themselves are checked
 * against transformers and torch in test_replay_batch_golden.c. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "samplab.h"

#define G "data/golden/current/hf_batch.safetensors"
#define B001 "--framework hf --cpu avx2 --logits " G " --tensor b001.logits --seed 0"
#define B001_CTX "'1,17,30,42,7,99,5,25;0,0,0,0,0,1,3,9'"

/* Row r of b001's [12, 2, 128] logits as a [12, 128] .npy of its own (path malloc'd). */
static char *b001_row(int r, size_t keep_v, size_t keep_t)
{
    unsigned char *buf;
    size_t len;
    sl_error err;
    cr_assert_eq(sl_io_file_slurp(G, &buf, &len, &err), 0, "%s", err.msg);
    sl_io_tensor t;
    cr_assert_eq(sl_io_safetensors_view(G, buf, len, "b001.logits", &t, &err), 0, "%s", err.msg);
    cr_assert(t.ndim == 3 && t.d0 == 12 && t.v == 128 && t.rows == 24);
    float *rows = malloc(12 * 128 * sizeof *rows);
    for (size_t s = 0; s < keep_t; s++)
        for (size_t j = 0; j < keep_v; j++) {
            double d;
            float f;
            sl_io_tensor_elem(&t, (s * 2 + (size_t)r) * 128 + j, &d, &f);
            rows[s * keep_v + j] = f;
        }
    char *p = sl_test_npy_f32(rows, keep_t, keep_v);
    free(rows);
    free(buf);
    return p;
}

Test(cli_batch, replay_prints_one_line_per_step_and_takes_rows_three_ways)
{
    sl_test_run a = sl_test_cli("replay " B001 " --context " B001_CTX);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_expect_eq(sl_test_lines(a.out), 12, "one line per step: %s", a.out);
    cr_expect(!strncmp(a.out, "74 40\n48 52\n", 12), "the first steps of run b001 (row 0, row 1): %.40s", a.out);
    /* --context-file: one prompt row a line, a comment and a blank line between */
    const char ctx[] = "# prompts, left padded\n1,17,30,42,7,99,5,25\n\n0,0,0,0,0,1,3,9  # row 1\n";
    char *cf = sl_test_tmpfile(".txt", ctx, sizeof ctx - 1);
    char args[1024];
    snprintf(args, sizeof args, "replay " B001 " --context-file %s", cf);
    sl_test_run b = sl_test_cli(args);
    cr_expect_eq(b.status, 0, "%s", b.err);
    cr_expect_str_eq(b.out, a.out, "--context-file gives the rows --context gives");
    /* one --logits per row: the same batch */
    char *r0 = b001_row(0, 128, 12), *r1 = b001_row(1, 128, 12);
    snprintf(args, sizeof args, "replay --framework hf --cpu avx2 --logits %s --logits %s --seed 0 --context %s", r0, r1,
             B001_CTX);
    sl_test_run c = sl_test_cli(args);
    cr_expect_eq(c.status, 0, "%s", c.err);
    cr_expect_str_eq(c.out, a.out, "one --logits per row gives the [T, B, V] tensor's tokens");
    /* the prompt rows carry the penalty: another row 1 prompt changes row 1's tokens (and no row 0 token) */
    sl_test_run p = sl_test_cli("replay " B001 " --context " B001_CTX " --repetition-penalty 5 --top-k 0 --json");
    sl_test_run q = sl_test_cli("replay " B001 " --context '1,17,30,42,7,99,5,25;0,0,0,0,0,52,48,10' "
                                "--repetition-penalty 5 --top-k 0 --json");
    cr_expect(p.status == 0 && q.status == 0, "%s %s", p.err, q.err);
    cr_expect_str_neq(p.out, q.out, "row 1's prompt is its penalty history");
    sl_test_run_free(&a);
    sl_test_run_free(&b);
    sl_test_run_free(&c);
    sl_test_run_free(&p);
    sl_test_run_free(&q);
    /* rows that disagree in V, or in T */
    char *v3 = b001_row(1, 3, 12), *t2 = b001_row(1, 128, 2);
    snprintf(args, sizeof args, "replay --framework hf --logits %s --logits %s", r0, v3);
    sl_test_expect_refused(args, "(row 1) has V = 3");
    snprintf(args, sizeof args, "replay --framework hf --logits %s --logits %s", r0, t2);
    sl_test_expect_refused(args, "(row 1) has 2 steps");
    snprintf(args, sizeof args, "replay --framework llamacpp --logits %s --logits %s", r0, r1);
    sl_test_expect_refused(args, "--logits given 2 times (one per row)");
    /* a bad id in the context file names its line */
    const char bad[] = "1,2,3\n1,2,300\n";
    char *cb = sl_test_tmpfile(".txt", bad, sizeof bad - 1);
    snprintf(args, sizeof args, "replay " B001 " --context-file %s", cb);
    sl_test_expect_refused(args, "line 2: entry 2 (300) is not a token id in 0..127");
    snprintf(args, sizeof args, "replay " B001 " --context 1,2 --context-file %s", cf);
    sl_test_expect_refused(args, "give one of --context and --context-file");
    for (char **f = (char *[]){cf, r0, r1, v3, t2, cb, NULL}; *f; f++) {
        unlink(*f);
        free(*f);
    }
}

Test(cli_batch, replay_and_check_refuse_what_is_not_a_batch_of_theirs)
{
    sl_test_expect_refused("replay " B001 " --context 1,2,3", "--context gives 1 prompt rows; the logits have 2 rows");
    sl_test_expect_refused("replay " B001 " --context '1,2;3,4;5,6'", "gives 3 prompt rows");
    sl_test_expect_refused("replay " B001 " --context 1,2 --num-return-sequences 3",
                           "1 prompt rows, 3 rows with --num-return-sequences 3; the logits have 2 rows a step");
    sl_test_expect_refused("replay " B001 " --num-return-sequences 3", "not a multiple of --num-return-sequences 3");
    sl_test_expect_refused("replay " B001 " --context '1,2,3;1,2'", "prompt row 1 has 2 ids, row 0 has 3");
    sl_test_expect_refused("replay " B001 " --context '1,2,3;'", "--context row 1 is empty");
    sl_test_expect_refused("replay " B001 " --context " B001_CTX " --eos-token-id 128",
                           "--eos-token-id 128 is not a token id in 0..127");
    sl_test_expect_refused("replay " B001 " --context " B001_CTX " --eos-token-id 1 --pad-token-id 500",
                           "--pad-token-id 500 is not a token id in 0..127");
    sl_test_expect_refused("replay " B001 " --context " B001_CTX " --torch 1.13",
                           "a batch on release line 1.13 is not modelled by samplab");
    sl_test_expect_refused("replay --framework torch --probs " G " --tensor b001.logits --eos-token-id 1",
                           "--eos-token-id is not an option of framework torch");
    sl_test_expect_refused("replay --framework candle --logits " G " --tensor b001.logits",
                           "per-step logits are a 2-D [T, V] tensor");
    sl_test_expect_refused("check " B001 " --context " B001_CTX " --tokens '1,2;3,4'",
                           "row 0 holds 2 tokens, but --logits");
    sl_test_expect_refused("check " B001 " --context " B001_CTX " --tokens '1,2'", "holds 1 rows");
    sl_test_expect_refused("replay " B001 " --context " B001_CTX " --seeds 7,none",
                           "a seed for a row of a framework that has one generator per batch (hf draws every row");
    sl_test_expect_refused("check --framework hf --logits " G " --tensor b001.logits --context " B001_CTX
                           " --tokens '1;2'", "is checked with --seed S");
    /* every row has emitted EOS, and the source goes on: generate() would have stopped */
    sl_test_expect_refused("replay --framework hf --cpu avx2 --logits data/golden/current/hf_generate.safetensors "
                           "--tensor r002.logits --context 1,17,300,42,7,99,5,250 --seed 42 --eos-token-id 380",
                           "step 1: every row emitted EOS (380) by step 0, where generate() stops");
}

Test(cli_batch, check_names_the_step_and_row_of_the_first_divergence)
{
    /* run b001's tokens with row 1's step 5 changed: the divergence is there, not in row 0 */
    const char *tok = "74,48,115,81,52,108,123,45,48,62,118,36;40,52,48,10,3,93,5,76,38,87,92,25";
    char args[1024];
    snprintf(args, sizeof args, "check " B001 " --context " B001_CTX " --tokens '%s' --json", tok);
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 1, "a divergence exits 1: %s", r.err);
    cr_expect(strstr(r.out, "\"first_divergence\":5,\"row\":1,\"observed\":93,\"predicted\":92"), "%s", r.out);
    sl_test_run_free(&r);
}

/* Token j of `draw ARGS --json` (the j-th number after "tokens":), or -1. */
static long nth_token(const char *out, size_t j)
{
    const char *p = strstr(out, "\"tokens\":");
    if (!p)
        return -1;
    p += 9;
    for (size_t i = 0;; i++) {
        while (*p && !(*p >= '0' && *p <= '9'))
            p++;
        if (!*p)
            return -1;
        char *end;
        long v = strtol(p, &end, 10);
        if (i == j)
            return v;
        p = end;
    }
}

Test(cli_batch, draw_of_b_rows_is_each_row_at_its_place_in_the_stream)
{
    /* torch.multinomial on [B, V]: row b of call i is the (i·B + b + 1)-th one-row call on row b's vector */
    const char *rows[] = {"5,1,1,1,1", "1,1,1,1,5", "1,2,3,4,5"};
    for (int repl = 0; repl < 2; repl++) {
        char args[512];
        snprintf(args, sizeof args, "draw --framework torch --probs '%s;%s;%s' --seed 7 --n 4 --num-samples 2%s --json",
                 rows[0], rows[1], rows[2], repl ? " --replacement" : "");
        sl_test_run all = sl_test_cli(args);
        cr_assert_eq(all.status, 0, "%s", all.err);
        cr_expect(strstr(all.out, "\"rows\":3,"), "%s", all.out);
        for (size_t b = 0; b < 3; b++)
            for (size_t i = 0; i < 4; i++) {
                snprintf(args, sizeof args, "draw --framework torch --probs %s --seed 7 --n %zu --num-samples 2%s --json",
                         rows[b], i * 3 + b + 1, repl ? " --replacement" : "");
                sl_test_run one = sl_test_cli(args);
                cr_assert_eq(one.status, 0, "%s", one.err);
                size_t last = (i * 3 + b) * 2;
                for (size_t j = 0; j < 2; j++)
                    cr_expect_eq(nth_token(all.out, (b * 4 + i) * 2 + j), nth_token(one.out, last + j),
                                 "replacement %d row %zu call %zu sample %zu", repl, b, i, j);
                sl_test_run_free(&one);
            }
        sl_test_run_free(&all);
    }
    /* one line per call: rows separated by spaces, a row's samples by commas */
    sl_test_run t = sl_test_cli("draw --framework torch --probs '1,0,0;0,0,1' --n 2 --num-samples 2 --replacement");
    cr_expect_eq(t.status, 0, "%s", t.err);
    cr_expect_str_eq(t.out, "0,0 2,2\n0,0 2,2\n", "one-hot rows: only their token, in the layout: %s", t.out);
    sl_test_run_free(&t);
    sl_test_expect_refused("draw --framework torch --probs '1,2;3,4,5'", "row 1 has 3 entries, row 0 has 2");
    sl_test_expect_refused("draw --framework torch --probs '1,2;;3,4'", "row 1 is empty");
    sl_test_expect_refused("draw --framework torch --probs '1,2;3,4' --counts", "--counts counts the draws of one row");
    sl_test_expect_refused("draw --framework hf --logits '1,2,3;3,2,1' --repetition-penalty 1.5 --context 1",
                           "--context gives 1 prompt rows; the logits have 2 rows a step");
    sl_test_expect_refused("draw --framework numpy --probs '1,2;3,4'", "'2;3' is not a number");
    /* one generator per batch: no seed per row */
    sl_test_expect_refused("draw --framework torch --probs '1,2;3,4' --seeds 1,2",
                           "a seed for a row of a framework that has one generator per batch");
}
