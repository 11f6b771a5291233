/* test_report_seed.c — the report's "same seed, other tokens" section says what samplab draw
 * prints: its vLLM table (a seeded and an unseeded request, in one batch and each alone) is
 * read back from REPORT.md and compared, cell by cell, with the replay command the section
 * prints (the batch) and with each request drawn alone; the seeded request must draw the same
 * tokens in both, as vLLM's per-request generator makes it, and the unseeded one must not. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

#define STEPS 20

/* the table's rows: cells "tok / words" in 4 columns after the step */
static size_t read_table(const char *md, long tok[4][STEPS], long long words[4][STEPS])
{
    const char *p = strstr(md, "| step | seeded, alone |");
    cr_assert(p, "no vLLM table in the report");
    p = strchr(p, '\n') + 1;
    p = strchr(p, '\n') + 1; /* the rule */
    size_t n = 0;
    for (; n < STEPS && *p == '|'; n++) {
        int step;
        cr_assert_eq(sscanf(p, "| %d |", &step), 1);
        cr_assert_eq(step, (int)n + 1);
        const char *c = strchr(p + 1, '|') + 1;
        for (int k = 0; k < 4; k++) {
            cr_assert_eq(sscanf(c, " %ld / %lld", &tok[k][n], &words[k][n]), 2, "cell at '%.30s'", c);
            c = strchr(c, '|') + 1;
        }
        p = strchr(p, '\n') + 1;
    }
    return n;
}

/* "[a,b,...]" of tok (or of words) */
static void list_of(const long *tok, const long long *words, char *out, size_t cap)
{
    size_t a = 0;
    for (int i = 0; i < STEPS; i++)
        a += (size_t)(tok ? snprintf(out + a, cap - a, "%s%ld", i ? "," : "[", tok[i])
                          : snprintf(out + a, cap - a, "%s%lld", i ? "," : "[", words[i]));
    snprintf(out + a, cap - a, "]");
}

Test(report_seed, vllm_table_is_what_draw_prints)
{
    char dir[] = "/tmp/sl-report-seed-XXXXXX";
    cr_assert(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args, "report --only seed --no-plot --out %s/r", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
    sl_test_run_free(&r);
    char path[512];
    snprintf(path, sizeof path, "%s/r/REPORT.md", dir);
    char *md = sl_test_slurp(path);
    cr_assert(md, "no %s", path);
    long tok[4][STEPS];
    long long words[4][STEPS];
    cr_assert_eq(read_table(md, tok, words), STEPS);
    const char *cmd = strstr(md, "samplab draw --framework vllm --logits DIR/inputs/");
    cr_assert(cmd, "no replay command");
    unsigned long long global;
    cr_assert_eq(sscanf(strstr(cmd, "--seed "), "--seed %llu", &global), 1);
    /* the batch (columns 1, 3): tokens and words of each row */
    snprintf(args, sizeof args, "draw --framework vllm --logits %s/r/inputs/vllm_requests.txt --seeds 7,none "
             "--seed %llu --n %d --json", dir, global, STEPS);
    r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
    for (int j = 0; j < 2; j++) {
        char want[1024], ww[1024];
        list_of(tok[2 * j + 1], NULL, want, sizeof want);
        list_of(NULL, words[2 * j + 1], ww, sizeof ww);
        cr_expect(strstr(r.out, want), "%s: row %d lacks tokens %s: %s", args, j, want, r.out);
        cr_expect(strstr(r.out, ww), "%s: row %d lacks words %s: %s", args, j, ww, r.out);
    }
    sl_test_run_free(&r);
    /* each request alone (columns 0, 2), on the file's first row */
    char *rows = sl_test_slurp(strcat(strcpy(path, dir), "/r/inputs/vllm_requests.txt"));
    cr_assert(rows && strchr(rows, '\n'));
    *strchr(rows, '\n') = 0;
    const char *seeds[2] = {"7", "none"};
    for (int j = 0; j < 2; j++) {
        snprintf(args, sizeof args, "draw --framework vllm --logits %s --seeds %s --seed %llu --n %d", rows, seeds[j],
                 global, STEPS);
        r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        const char *p = r.out;
        for (int i = 0; i < STEPS; i++) {
            char *end;
            long t = strtol(p, &end, 10);
            cr_assert(end != p, "%s: %d lines", args, i);
            cr_expect_eq(t, tok[2 * j][i], "%s: step %d: %ld, the report says %ld", args, i + 1, t, tok[2 * j][i]);
            p = end;
        }
        sl_test_run_free(&r);
    }
    free(rows);
    int same_seeded = 1, same_unseeded = 1;
    for (int i = 0; i < STEPS; i++) {
        same_seeded &= tok[0][i] == tok[1][i];
        same_unseeded &= tok[2][i] == tok[3][i];
    }
    cr_expect(same_seeded, "the seeded request drew other tokens in the batch than alone");
    cr_expect(!same_unseeded, "the unseeded request drew the same 20 tokens in the batch as alone");
    free(md);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
}
