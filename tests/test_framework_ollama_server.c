/* test_framework_ollama_server.c — `--framework ollama --ollama 0.32` against llama-server itself:
 * data/golden/ollama_0.32/ (analysis/golden/ollama_0.32/golden.sh) holds 32 generations that
 * llama.cpp v0.4.0's llama-server streamed for the request bodies Ollama v0.32.10 to v0.33.0-rc2
 * posts (Ollama's defaults, 31 option sets: temperatures, top-k/top-p/min-p in and out of range,
 * typical, penalties over the prompt), and the logits of each step teacher forced through the same
 * build's libllama. Each run is replayed through the command line (Ollama's options as samplab's, the
 * prompt as the history where a penalty reads it): replay and check --seed, 0 token differences. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "samplab.h"

#define DIR "data/golden/ollama_0.32"
#define DIR_030 "data/golden/ollama_0.30"

/* Ollama's option names as samplab's (the options client.py varies) */
static const struct {
    const char *ollama, *opt;
} names[] = {
    {"temperature", "--temperature"}, {"top_k", "--top-k"}, {"top_p", "--top-p"}, {"min_p", "--min-p"},
    {"typical_p", "--typical"}, {"repeat_penalty", "--repetition-penalty"}, {"repeat_last_n", "--penalty-last-n"},
    {"frequency_penalty", "--frequency-penalty"}, {"presence_penalty", "--presence-penalty"},
};

/* the run's options as samplab settings words (" --top-k 5 ..."), its seed, whether a penalty acts;
 * *omitted: typical_p 0, which Ollama's /api/generate leaves out (samplab refuses --typical 0: /api/chat
 * sends it), given as the 1 llama-server then keeps */
static void run_args(const char *opts, char *args, size_t cap, unsigned long *seed, int *penalised, int *omitted)
{
    size_t k = 0;
    *penalised = *omitted = 0;
    for (const char *p = opts; *p && *p != '\n';) {
        char key[64], val[64];
        if (sscanf(p, "%63[^=]=%63[^ \n]", key, val) != 2)
            break;
        if (!strcmp(key, "seed")) {
            *seed = strtoul(val, NULL, 10);
        } else {
            size_t i = 0;
            while (i < sizeof names / sizeof *names && strcmp(names[i].ollama, key))
                i++;
            cr_assert(i < sizeof names / sizeof *names, "option %s", key);
            *omitted |= !strcmp(key, "typical_p") && strtod(val, NULL) == 0;
            k += (size_t)snprintf(args + k, cap - k, " %s %s", names[i].opt, *omitted ? "1" : val);
            *penalised |= strstr(key, "penalty") != NULL;
        }
        p += strlen(key) + 1 + strlen(val);
        while (*p == ' ')
            p++;
    }
}

/* the value of option key in a run's opts line, or NAN */
static double opt_of(const char *opts, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "%s=", key);
    for (const char *p = opts; (p = strstr(p, pat)); p++)
        if (p == opts || p[-1] == ' ')
            return strtod(p + strlen(pat), NULL);
    return NAN;
}

/* Every run of dir's golden through `replay --framework ollama --ollama LINE` and `check --seed`.
 * Line 0.30 refuses the values its builds treat in more than one way (out of range): those runs
 * must be refused by name, the rest replayed exactly. *other: runs that the other line (with this
 * line's penalty default) replays otherwise, the golden's power to tell the two apart. */
static void replay_golden(const char *dir, const char *line, const char *other, double penalty, size_t *runs_out,
                          size_t *steps_out, size_t *refused_out, size_t *other_differ)
{
    char path_t[256], path_n[256];
    snprintf(path_t, sizeof path_t, "%s/generations.txt", dir);
    snprintf(path_n, sizeof path_n, "%s/logits.npy", dir);
    char *text = sl_test_slurp(path_t);
    unsigned char *npy;
    size_t len;
    sl_error e;
    sl_io_npy_info info;
    cr_assert_not_null(text, "%s", path_t);
    cr_assert_eq(sl_io_file_slurp(path_n, &npy, &len, &e), 0, "%s", e.msg);
    cr_assert_eq(sl_io_npy_header("logits", npy, len, &info, &e), 0, "%s", e.msg);
    int l030 = !strcmp(line, "0.30");
    size_t V = info.shape[1], runs = 0, steps = 0, cli_same = 0, checked = 0, refused = 0, differ = 0;
    for (int id = 0; sl_test_line_of(text, "run", id); id++) {
        char args[2048], words[512], list[4096], want[4200], ctx[512];
        unsigned long seed = 0;
        int pen, omitted;
        const char *opts = sl_test_line_of(text, "opts", id);
        run_args(opts, words, sizeof words, &seed, &pen, &omitted);
        pen |= penalty != 1; /* the line's default penalty reads the prompt too */
        long toks[256], prompt[64];
        size_t nt = sl_test_ids(sl_test_line_of(text, "tokens", id), toks, 256);
        size_t np = sl_test_ids(sl_test_line_of(text, "prompt", id), prompt, 64), a, b;
        cr_assert_eq(sscanf(sl_test_line_of(text, "rows", id), "%zu %zu", &a, &b), 2);
        cr_assert_eq(b - a, nt, "run %d", id);
        size_t k = 0;
        for (size_t i = 0; i < np; i++)
            k += (size_t)snprintf(ctx + k, sizeof ctx - k, "%s%ld", i ? "," : "", prompt[i]);
        k = 0;
        for (size_t t = 0; t < nt; t++)
            k += (size_t)snprintf(list + k, sizeof list - k, "%s%ld", t ? "," : "", toks[t]);
        char *path = sl_test_npy_f32(info.data + a * V * 4, nt, V);
        cr_assert(path);
        /* the prompt is the penalties' history (init_sampler); without a penalty it changes nothing */
        snprintf(args, sizeof args, "replay --framework ollama --ollama %s --logits %s --seed %lu%s%s%s --json", line,
                 path, seed, words, pen ? " --context " : "", pen ? ctx : "");
        if (omitted) { /* as the request gave it: refused by name */
            char zero[2100];
            snprintf(zero, sizeof zero, "%s", args);
            memcpy(strstr(zero, "--typical 1"), "--typical 0", 11);
            sl_test_expect_refused(zero, "--typical 0 is two chains");
        }
        double tk = opt_of(opts, "top_k"), tp = opt_of(opts, "top_p"), mp = opt_of(opts, "min_p"),
               tt = opt_of(opts, "temperature");
        int edge = tk < 0 || tp < 0 || tp > 1 || mp < 0 || mp > 1 || tt < 0;
        if (l030 && edge) {
            sl_test_expect_refused(args, "llama-server clamps it from llama.cpp b9707 (Ollama v0.30.11)");
            refused++;
        } else {
            sl_test_run r = sl_test_cli(args);
            cr_assert_eq(r.status, 0, "run %d: %s: %s", id, args, r.err);
            snprintf(want, sizeof want, "\"tokens\":[%s]", list);
            int ok = strstr(r.out, want) != NULL;
            cr_expect(ok, "run %d: %s\n  samplab %.300s\n  llama-server %s", id, args, r.out, list);
            cli_same += ok;
            sl_test_run_free(&r);
            checked += (size_t)sl_test_check_seeded(args, list);
            runs++;
            steps += nt;
            /* the other line, with this line's penalty (0.30 refuses the out-of-range runs) */
            char alt[2200], *at = strstr(args, "--ollama ");
            cr_assert(at);
            snprintf(alt, sizeof alt, "%.*s--ollama %s%s --repetition-penalty %g", (int)(at - args), args, other,
                     at + 9 + strlen(line), penalty);
            if (!edge && !strstr(words, "--repetition-penalty")) {
                sl_test_run ro = sl_test_cli(alt);
                cr_assert_eq(ro.status, 0, "%s: %s", alt, ro.err);
                differ += strstr(ro.out, want) == NULL;
                sl_test_run_free(&ro);
            }
        }
        unlink(path);
        free(path);
    }
    cr_expect_eq(cli_same, runs);
    cr_expect_eq(checked, runs);
    *runs_out = runs;
    *steps_out = steps;
    *refused_out = refused;
    *other_differ = differ;
    free(npy);
    free(text);
}

Test(framework_ollama_server, llama_server_generations, .timeout = 600)
{
    size_t runs, steps, refused, differ;
    replay_golden(DIR, "0.32", "0.30", 1.0, &runs, &steps, &refused, &differ);
    cr_log_info("Ollama 0.32 as llama-server v0.4.0 ran it: %zu runs, %zu steps, replay and check --seed exact; "
                "%zu replay otherwise on the 0.30 line", runs, steps, differ);
    cr_assert_geq(runs, 30);
    cr_assert_geq(steps, 700);
    cr_expect_eq(refused, 0);
}

/* Ollama v0.30.0 to v0.32.9: llama-server at llama.cpp b10353 (the build v0.32.8 and v0.32.9 pin),
 * driven with their request bodies (repeat_penalty 1.1 by default) */
Test(framework_ollama_server, llama_server_b10353_generations, .timeout = 600)
{
    size_t runs, steps, refused, differ;
    replay_golden(DIR_030, "0.30", "0.32", 1.1, &runs, &steps, &refused, &differ);
    cr_log_info("Ollama 0.30 as llama-server b10353 ran it: %zu runs, %zu steps, replay and check --seed exact; %zu "
                "out-of-range runs refused; %zu replay otherwise on the 0.32 line", runs, steps, refused, differ);
    cr_assert_geq(runs, 30);
    cr_assert_geq(refused, 4);
    /* the golden tells the lines apart: the lone-candidate rule changes some runs */
    cr_expect_gt(differ, 0);
}

/* The settings Ollama has no field for, and what llama-server refuses, by name. */
Test(framework_ollama_server, refusals)
{
    sl_test_expect_refused("draw --framework ollama --ollama 0.32 --logits 3,2,1 --seed 1 --xtc-probability 0.5",
                           "--xtc-probability is not an option of framework ollama");
    sl_test_expect_refused("draw --framework ollama --ollama 0.32 --logits 3,2,1 --seed 1 --samplers top_k",
                           "--samplers is not an option of framework ollama");
    sl_test_expect_refused("draw --framework ollama --ollama 0.32 --logits 3,2,1",
                           "needs --seed S: Ollama's default seed -1 reaches llama-server as LLAMA_DEFAULT_SEED");
    sl_test_expect_refused("draw --framework ollama --ollama 0.32 --logits 3,2,1 --seed 4294967295",
                           "seed must be below 4294967295");
    sl_test_expect_refused("replay --framework ollama --ollama 0.32 --logits 3,2,1 --seed 1 --repetition-penalty 1.1 "
                           "--penalty-last-n -1 --context 1",
                           "llama-server refuses repeat_last_n below 0");
    sl_test_expect_refused("draw --framework ollama --logits 3,2,1 --seed 1",
                           "framework ollama needs its release line: --ollama 0.32");
    sl_test_expect_refused("pipeline --framework ollama --ollama 0.3 --logits 3,2,1", "--ollama takes 0.24, 0.32, 0.30, not '0.3'");
}

/* llama-server's clamps: out-of-range top_k, top_p, min_p and temperature become its edges. */
Test(framework_ollama_server, clamps_are_llama_servers)
{
    static const char *pairs[][2] = {
        {"--top-k -3", "--top-k 0"},      {"--top-p 1.2", "--top-p 1"}, {"--min-p 1.5", "--min-p 1"},
        {"--temperature -1", "--temperature 0"}, {"--top-p -0.5", "--top-p 0"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        char a[256], b[256];
        snprintf(a, sizeof a, "draw --framework ollama --ollama 0.32 --logits 3,2,2,1,0.5,0 --seed 9 --n 40 %s", pairs[i][0]);
        snprintf(b, sizeof b, "draw --framework ollama --ollama 0.32 --logits 3,2,2,1,0.5,0 --seed 9 --n 40 %s", pairs[i][1]);
        sl_test_run ra = sl_test_cli(a), rb = sl_test_cli(b);
        cr_expect_eq(ra.status, 0, "%s: %s", a, ra.err);
        cr_expect_str_eq(ra.out, rb.out, "%s vs %s", a, b);
        sl_test_run_free(&ra);
        sl_test_run_free(&rb);
    }
}

/* compare --ollama 0.32 runs llama-server's chain for Ollama (the penalties applied, Ollama's
 * defaults): its row is what `pipeline --framework ollama --ollama 0.32` keeps, to the printed digits,
 * and not the 0.24 Go sampler's (which ignores the penalty) */
Test(framework_ollama_server, compare_takes_the_0_32_line)
{
    const char *set = "--logits 1,2,3,0.5,0.1 --temperature 0.9 --repetition-penalty 1.5 --context 2";
    char args[512];
    snprintf(args, sizeof args, "pipeline --framework ollama --ollama 0.32 %s", set);
    sl_test_run p = sl_test_cli(args);
    cr_assert_eq(p.status, 0, "%s: %s", args, p.err);
    char want[512] = "", *line, *save = NULL;
    size_t k = 0;
    /* compare's ollama row: top tokens as [id, p] pairs, highest first */
    snprintf(args, sizeof args, "compare --frameworks llamacpp,ollama --ollama 0.32 %s --json", set);
    sl_test_run c = sl_test_cli(args);
    cr_assert_eq(c.status, 0, "%s: %s", args, c.err);
    const char *row = strstr(c.out, "{\"framework\":\"ollama\"");
    cr_assert(row, "%s", c.out);
    for (line = strtok_r(p.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        long id;
        char pr[64];
        cr_assert_eq(sscanf(line, "%ld\t%63s", &id, pr), 2);
        snprintf(want, sizeof want, "[%ld,%s]", id, pr);
        cr_expect(strstr(row, want), "compare's ollama row lacks %s: %.300s", want, row);
        k++;
    }
    cr_expect_eq(k, 4, "llama-server's chain keeps 4 of 5 here");
    sl_test_run_free(&c);
    snprintf(args, sizeof args, "compare --frameworks llamacpp,ollama --ollama 0.24 %s --json", set);
    c = sl_test_cli(args);
    cr_assert_eq(c.status, 0, "%s: %s", args, c.err);
    cr_expect(!strstr(strstr(c.out, "{\"framework\":\"ollama\""), want), "0.24's Go sampler drew the 0.32 chain: %s",
              c.out);
    sl_test_run_free(&c);
    sl_test_run_free(&p);
}

/* exact on the llama-server lines counts llama.cpp's dist over its 2^64 word pairs, as for
 * --framework llamacpp (the same sampler, GCC <= 14's pairs), and not the 0.24 Go sampler's grid */
Test(framework_ollama_server, exact_counts_llama_servers_dist)
{
    sl_test_run l = sl_test_cli("exact --framework llamacpp --logits 3,2,1,0.5,-1 --temperature 0.7 --json");
    cr_assert_eq(l.status, 0, "%s", l.err);
    const char *counts = strstr(l.out, "\"induced\"");
    cr_assert(counts, "%s", l.out);
    for (int i = 0; i < 3; i++) {
        static const char *const line[] = {"0.32", "0.30", "0.24"};
        char args[256];
        snprintf(args, sizeof args, "exact --framework ollama --ollama %s --logits 3,2,1,0.5,-1 --temperature 0.7 --json",
                 line[i]);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        const char *c = strstr(r.out, "\"induced\"");
        cr_assert(c, "%s", r.out);
        size_t n = strcspn(counts, "]");
        if (i < 2)
            cr_expect(!strncmp(c, counts, n), "%s: %.200s\n  llamacpp %.200s", args, c, counts);
        else
            cr_expect(strncmp(c, counts, n), "0.24's Go sampler counted as llama.cpp's dist: %.200s", c);
        sl_test_run_free(&r);
    }
    sl_test_run_free(&l);
}
