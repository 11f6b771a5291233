/* test_cli_report.c — `samplab report --logits` on a .safetensors dump: --tensor
 * and --row pick the row, and every replay command in REPORT.md names them, so
 * the commands printed there run as written. Bad combinations exit 2 with one
 * line on stderr and nothing on stdout. Also from REPORT.md: the failure-path
 * table's columns (P per call, and the chance of one occurrence in 10^9 calls),
 * the cost section's replay commands spending the words its table gives, and the
 * generation section's replay commands giving its figure's tokens row by row
 * (the section replays a transformers 5.12.1 run of
 * data/golden/current/hf_generate.txt and must say its hf row is that run),
 * from the command line and in process; the stages section's replay commands
 * giving its table's kept counts, words and tokens. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

#define MULTI "data/golden/safetensors/multi.safetensors"

Test(replay_cli_report, safetensors_row_and_its_replays)
{
    char dir[] = "/tmp/sl-test-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args,
             "report --logits " MULTI " --tensor rows_f32 --row 1 --n 200 --only seed --no-plot --out %s", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    sl_test_run_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/REPORT.md", dir);
    char *md = sl_test_slurp(path);
    cr_assert_not_null(md, "no %s", path);
    static const char want[] = "samplab draw --framework llamacpp --logits " MULTI
                               " --tensor rows_f32 --row 1 --temperature 1 --seed 42 --n 20";
    const char *at = strstr(md, want);
    cr_assert_not_null(at, "REPORT.md lacks the replay \"%s\"", want);
    /* the replay runs as printed and gives 20 tokens */
    sl_test_run rr = sl_test_cli(strstr(want, "draw"));
    cr_assert_eq(rr.status, 0, "replay exit %d: %s", rr.status, rr.err);
    cr_assert_eq(sl_test_lines(rr.out), 20u, "replay printed %zu lines", sl_test_lines(rr.out));
    /* its first token is the llamacpp column's first cell: "|    1 | TOKEN / 2 |" */
    const char *row1 = strstr(md, "\n|    1 |");
    cr_assert_not_null(row1);
    long tok = strtol(row1 + 10, NULL, 10);
    cr_assert_eq(tok, strtol(rr.out, NULL, 10), "table says %ld, replay says %s", tok, rr.out);
    sl_test_run_free(&rr);
    free(md);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(replay_cli_report, bad_tensor_options)
{
    sl_test_run r = sl_test_cli("report --logits " MULTI " --n 200 --only seed --no-plot --out /tmp/sl-test-report-never");
    cr_assert_eq(r.status, 2, "several tensors without --tensor: exit %d", r.status);
    cr_assert_str_empty(r.out);
    cr_assert_not_null(strstr(r.err, "--tensor"), "stderr: %s", r.err);
    cr_assert_eq(sl_test_lines(r.err), 1u, "stderr: %s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("report --row 1 --n 200 --only seed --no-plot --out /tmp/sl-test-report-never");
    cr_assert_eq(r.status, 2, "--row without --logits: exit %d", r.status);
    cr_assert_str_empty(r.out);
    cr_assert_eq(sl_test_lines(r.err), 1u, "stderr: %s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("report --logits " MULTI " --tensor rows_f32 --row -1 --no-plot --out /tmp/sl-test-report-never");
    cr_assert_eq(r.status, 2, "--row -1: exit %d", r.status);
    sl_test_run_free(&r);
}

/* The failure-path table gives per call P and the chance of at least one
 * occurrence in 10^9 calls (1 - (1 - P)^1e9, which is 1 for P = 2.5e-7, not a
 * count of 247); a bound per call makes the second column a bound too. */
Test(replay_cli_report, failure_paths_columns)
{
    char dir[] = "/tmp/sl-test-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char args[256];
    snprintf(args, sizeof args, "report --only exact --n 200 --no-plot --out %s", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    sl_test_run_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/REPORT.md", dir);
    char *md = sl_test_slurp(path);
    cr_assert_not_null(md);
    cr_assert_not_null(strstr(md, "| P(at least once in 10^9 calls) |"), "header missing");
    const char *row = strstr(md, "| rounding ");
    cr_assert_not_null(row, "no torch rounding row");
    const char *end = strchr(row, '\n');
    size_t bounds = 0;
    for (const char *q = row; q && q < end; q = strstr(q + 1, "(bound)"))
        bounds += q != row;
    cr_assert_eq(bounds, 2u, "the rounding row should mark both columns as bounds: %.*s", (int)(end - row), row);
    free(md);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* The cost section's replay commands print the words of 10 draws: 10 times
 * the table's V = 49152 cell for that sampler. */
static unsigned long long cost_cell(const char *md, const char *row)
{
    char key[64];
    snprintf(key, sizeof key, "\n| %s ", row);
    const char *at = strstr(md, key);
    cr_assert_not_null(at, "no row %s", row);
    /* columns: sampler | kind | word bits | V = 8 | V = 1024 | V = 49152 | ... */
    for (int bars = 0; bars < 6; at++)
        bars += *at == '|' ? 1 : 0;
    return strtoull(at, NULL, 10);
}

Test(replay_cli_report, cost_replays_print_the_table_words)
{
    char dir[] = "/tmp/sl-test-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char args[256];
    snprintf(args, sizeof args, "report --only cost --n 200 --no-plot --out %s", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    sl_test_run_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/REPORT.md", dir);
    char *md = sl_test_slurp(path);
    cr_assert_not_null(md);
    static const char *const rows[2] = {"exprace", "hf"};
    static const char *const cmds[2] = {"    samplab draw --method exprace ", "    samplab draw --framework hf "};
    for (int i = 0; i < 2; i++) {
        const char *c = strstr(md, cmds[i]);
        cr_assert_not_null(c, "no replay for %s", rows[i]);
        const char *e = strchr(c, '\n');
        char cmd[300];
        snprintf(cmd, sizeof cmd, "%.*s", (int)(e - (c + 12)), c + 12); /* after "    samplab " */
        sl_test_run rr = sl_test_cli(cmd);
        cr_assert_eq(rr.status, 0, "%s: exit %d %s", cmd, rr.status, rr.err);
        const char *w = strstr(rr.out, "\"words\":");
        cr_assert_not_null(w, "%s: %s", cmd, rr.out);
        unsigned long long words = strtoull(w + 8, NULL, 10), cell = cost_cell(md, rows[i]);
        cr_assert_eq(words, 10 * cell, "%s: %llu words, table cell %llu x 10", cmd, words, cell);
        sl_test_run_free(&rr);
    }
    free(md);
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    cr_assert_eq(system(rm), 0);
}

/* A bad --logits file: one line naming the file and the entry, exit 2, no stdout. */
Test(replay_cli_report, nan_logits_name_the_file)
{
    char *path = sl_test_tmpfile(".txt", "1.0\nnan\n2.0\n", 12);
    cr_assert_not_null(path);
    char args[512];
    snprintf(args, sizeof args, "report --logits %s --only ties --no-plot --out /tmp/sl-test-report-never", path);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 2, "exit %d", r.status);
    cr_assert_str_empty(r.out);
    cr_assert_not_null(strstr(r.err, path), "stderr does not name the file: %s", r.err);
    cr_assert_not_null(strstr(r.err, "1 is NaN"), "stderr does not name the entry: %s", r.err);
    cr_assert_eq(sl_test_lines(r.err), 1u, "stderr: %s", r.err);
    sl_test_run_free(&r);
    unlink(path);
    free(path);
}

/* The token the generation figure's data gives framework fw at step t, or -1. */
static long gen_dat_token(const char *dat, const char *fw, long t)
{
    for (const char *p = dat; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (*p == '\n' && p[1] == '\n')
            break; /* block 1: the words */
        long step, row, tok;
        int kind;
        char name[64];
        if (*p != '#' && sscanf(p, "%ld %ld %ld %d %63s", &step, &row, &tok, &kind, name) == 5 && step == t &&
            !strcmp(name, fw))
            return tok;
    }
    return -1;
}

/* Section "Same seed, other tokens over a generation": every replay command it
 * prints runs as written and gives the tokens of its figure, row by row; the
 * hf row is the generation transformers made; the one-vector words figure is gone. */
Test(replay_cli_report, generation_replays_give_the_figure)
{
    char dir[] = "/tmp/sl-test-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args, "report --n 200 --only generation,seed --no-plot --out %s", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    sl_test_run_free(&r);
    char path[256];
    snprintf(path, sizeof path, "%s/REPORT.md", dir);
    char *md = sl_test_slurp(path);
    snprintf(path, sizeof path, "%s/figures/generation_tokens.dat", dir);
    char *dat = sl_test_slurp(path);
    cr_assert_not_null(md);
    cr_assert_not_null(dat, "no %s", path);
    cr_assert_not_null(strstr(md, "The hf row is the generation itself"), "the hf row is not transformers' run");
    cr_assert_null(strstr(md, "seed_words"), "the one-vector words figure is still there");
    snprintf(path, sizeof path, "%s/figures/seed_words.dat", dir);
    cr_assert_eq(access(path, F_OK), -1, "seed_words.dat is still written");
    size_t ncmd = 0, ncols = 0;
    for (const char *p = strstr(md, "\n    samplab replay "); p; p = strstr(p + 1, "\n    samplab replay ")) {
        const char *a = p + strlen("\n    samplab "), *e = strchr(a, '\n');
        char cmd[1024];
        size_t k = 0;
        for (const char *q = a; q < e && k + 64 < sizeof cmd; q++) {
            if (!strncmp(q, "DIR", 3)) { /* the report's directory */
                k += (size_t)snprintf(cmd + k, sizeof cmd - k, "%s", dir);
                q += 2;
            } else {
                cmd[k++] = *q;
            }
        }
        cmd[k] = '\0';
        sl_test_run rr = sl_test_cli(cmd);
        cr_assert_eq(rr.status, 0, "%s: exit %d: %s", cmd, rr.status, rr.err);
        ncmd++;
        if (strstr(cmd, "--framework all")) {
            /* a header "step<TAB>fw..." then "t<TAB>token[*]..." per step */
            char names[16][32];
            size_t nf = 0;
            const char *l = rr.out;
            for (const char *q = strchr(l, '\t'); q && q < strchr(l, '\n') && nf < 16; q = strchr(q + 1, '\t'))
                sscanf(q + 1, "%31[^\t\n]", names[nf++]);
            cr_assert_geq(nf, 2u, "%s", rr.out);
            long t = 0;
            for (l = strchr(l, '\n') + 1; *l && *l != '#'; l = strchr(l, '\n') + 1, t++) {
                const char *q = strchr(l, '\t');
                for (size_t j = 0; j < nf; j++, q = strchr(q + 1, '\t'))
                    cr_assert_eq(strtol(q + 1, NULL, 10), gen_dat_token(dat, names[j], t), "%s step %ld", names[j],
                                 t);
            }
            cr_assert_eq(t, 24, "%ld steps", t);
            ncols += nf;
        } else {
            char fw[32];
            cr_assert_eq(sscanf(strstr(cmd, "--framework ") + 12, "%31s", fw), 1);
            long t = 0;
            for (const char *l = rr.out; *l; l = strchr(l, '\n') + 1, t++)
                cr_assert_eq(strtol(l, NULL, 10), gen_dat_token(dat, fw, t), "%s step %ld", fw, t);
            cr_assert_eq(t, 24, "%ld steps", t);
            ncols++;
        }
        sl_test_run_free(&rr);
    }
    cr_assert_geq(ncmd, 2u, "expected the replay commands in REPORT.md");
    cr_assert_geq(ncols, 6u, "%zu frameworks replayed", ncols);
    free(md);
    free(dat);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* The same section in process, so AddressSanitizer and UBSan watch its code. */
Test(replay_cli_report, generation_in_process)
{
    char dir[] = "/tmp/sl-test-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    sl_report_opts o;
    sl_report_opts_init(&o);
    o.outdir = dir;
    o.n = 200;
    o.only = "generation";
    o.no_plot = 1;
    o.jobs = 2;
    sl_report_result res;
    sl_error err;
    int rc = sl_report_run(&o, &res, &err);
    cr_assert_eq(rc, 0, "%s", err.msg);
    cr_assert_eq(res.nfigs, 1u);
    char path[256];
    snprintf(path, sizeof path, "%s/inputs/generation_probs.txt", dir);
    cr_assert_eq(access(path, R_OK), 0, "no %s", path);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* The stages section: each replay command, run as printed (DIR the report's
 * folder), gives its table row: a pipeline command as many kept lines as the
 * row's "kept", a replay command the row's kept count, words and token; the
 * engines' draws their tokens. */
Test(replay_cli_report, stages_replays_give_the_table)
{
    char dir[] = "/tmp/sl-test-report-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char args[512], path[300];
    snprintf(args, sizeof args, "report --only stages --no-plot --out %s", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    sl_test_run_free(&r);
    snprintf(path, sizeof path, "%s/REPORT.md", dir);
    char *md = sl_test_slurp(path);
    cr_assert_not_null(md);
    /* the table rows in order: | stage | kept | p | H | words | token | */
    long kept[16], words[16], token[16];
    size_t nrow = 0;
    const char *p = strstr(md, "| stage ");
    cr_assert_not_null(p);
    p = strchr(strchr(p, '\n') + 1, '\n') + 1; /* past the header and the rule */
    while (*p == '|' && nrow < 16) {
        const char *c = p;
        long v[5];
        int got = 0;
        for (int col = 0; col < 5; col++) {
            c = strchr(c + 1, '|');
            if (col == 0 || col == 3 || col == 4) /* after bar col+1: kept, words, token */
                v[got++] = strtol(c + 1, NULL, 10);
        }
        kept[nrow] = v[0], words[nrow] = v[1], token[nrow] = v[2];
        nrow++;
        p = strchr(p, '\n') + 1;
    }
    cr_assert_geq(nrow, 10, "%zu rows", nrow);
    size_t checked = 0, i = 0, engines = 0;
    for (const char *q = strstr(md, "\n    samplab "); q; q = strstr(q + 1, "\n    samplab ")) {
        const char *cmd0 = q + 13;
        size_t len = strcspn(cmd0, "\n");
        char cmd[1200], *d;
        snprintf(cmd, sizeof cmd, "%.*s", (int)len, cmd0);
        if (!strncmp(cmd, "report", 6))
            continue;
        while ((d = strstr(cmd, "DIR/"))) { /* DIR: the report's folder */
            char tail[1200];
            snprintf(tail, sizeof tail, "%s", d + 3);
            snprintf(d, sizeof cmd - (size_t)(d - cmd), "%s%s", dir, tail);
        }
        sl_test_run rr = sl_test_cli(cmd);
        cr_assert_eq(rr.status, 0, "%s: exit %d: %s", cmd, rr.status, rr.err);
        if (!strncmp(cmd, "pipeline", 8)) {
            cr_assert_lt(i, nrow);
            cr_assert_eq((long)sl_test_lines(rr.out), kept[i], "%s: %zu kept, the table %ld", cmd,
                         sl_test_lines(rr.out), kept[i]);
            i++, checked++;
        } else if (!strncmp(cmd, "replay", 6)) {
            cr_assert_lt(i, nrow);
            char want[96];
            snprintf(want, sizeof want, "\"tokens\":[%ld],\"words\":[%ld],\"kept\":[%ld]", token[i], words[i],
                     kept[i]);
            cr_assert(strstr(rr.out, want), "%s: %s lacks %s", cmd, rr.out, want);
            i++, checked++;
        } else {
            cr_assert_eq(sl_test_lines(rr.out), 12u, "%s", cmd);
            engines++;
        }
        sl_test_run_free(&rr);
    }
    cr_assert_eq(checked, nrow, "%zu of %zu rows replayed", checked, nrow);
    cr_assert_eq(engines, 6u); /* llama.cpp 0.7.0, v0.4.0, node-llama-cpp, Ollama 0.32, 0.30 and 0.24 */
    free(md);
    char rm[400];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    cr_assert_eq(system(rm), 0);
}
