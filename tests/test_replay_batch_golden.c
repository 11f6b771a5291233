/* test_replay_batch_golden.c — batches against the real libraries (Debian sid):
 *  - transformers 5.12.1 generate() on batches of left-padded prompts, with
 *    num_return_sequences, repetition penalty, top-k / top-p / min-p / temperature and
 *    rows finishing at EOS (data/golden/current/hf_batch.txt, its [T, R, V] raw logits in
 *    hf_batch.safetensors; analysis/golden/current/hf_batch.py), replayed with
 *    `replay --framework hf`: every row's tokens, and the generator's running total
 *    after each row's draw at each step;
 *  - torch 2.14.1 torch.multinomial on [B, V] with K samples, with and without
 *    replacement, N calls (torch_batch.txt / .safetensors; torch_batch.py), drawn with
 *    `draw --framework torch`: every row's tokens and words.
 * Each record goes through the C API (sl_api_replay_run / sl_api_draw_run with the
 * settings set by key, as the Python package sets them) and through the command line,
 * and a seeded `check` of each hf run's own tokens finds no divergence. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

#define HF_GOLD "data/golden/current/hf_batch"
#define TORCH_GOLD "data/golden/current/torch_batch"

/* The value of " KEY=" of a record, malloc'd (the rows can be long). */
static char *field(const char *line, const char *key)
{
    char pat[40];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    cr_assert(p, "no %s in %.80s", key, line);
    p += strlen(pat);
    size_t n = strcspn(p, " \n");
    char *v = malloc(n + 1);
    cr_assert(v);
    memcpy(v, p, n);
    v[n] = 0;
    return v;
}

/* A list of rows "1,2;3,4" into out (row after row), the number of rows into *rows. */
static size_t rows_of(const char *s, long long *out, size_t cap, size_t *rows)
{
    size_t n = 0;
    *rows = 1;
    for (const char *p = s; *p && n < cap;) {
        char *end;
        out[n++] = strtoll(p, &end, 10);
        if (*end == ';')
            (*rows)++;
        p = *end ? end + 1 : end;
    }
    return n;
}

static void set(sl_api_settings *s, const char *key, const char *text)
{
    sl_error err;
    cr_assert_eq(sl_api_settings_set(s, key, text, &err), SL_OK, "%s=%s: %s", key, text, err.msg);
}

/* the record's JSON rows ("[[1,2],[3,4]]") as "1,2;3,4" */
static char *rows_text(const char *json, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":[[", key);
    const char *p = strstr(json, pat);
    cr_assert(p, "no %s in %.200s", key, json);
    p += strlen(pat) - 2; /* at the outer [ */
    size_t n = strlen(p);
    char *out = malloc(n + 1), *o = out;
    int depth = 0;
    for (; *p; p++) {
        if (*p == '[') {
            depth++;
            if (depth == 3) /* draw's nested calls: flattened into the row */
                continue;
            continue;
        }
        if (*p == ']') {
            if (--depth == 0)
                break;
            continue;
        }
        if (*p == ',' && depth == 1) {
            *o++ = ';';
            continue;
        }
        *o++ = *p;
    }
    *o = 0;
    return out;
}

typedef struct hf_rec {
    char id[16];
    char *settings, *prompts, *tokens, *words, *tensor, *seed, *eos, *pad, *N;
} hf_rec;

static void hf_rec_read(const char *line, hf_rec *r)
{
    sscanf(line, "run %15s", r->id);
    r->settings = field(line, "settings");
    r->prompts = field(line, "prompts");
    r->tokens = field(line, "tokens");
    r->words = field(line, "words");
    r->tensor = field(line, "logits");
    r->seed = field(line, "seed");
    r->eos = field(line, "eos");
    r->pad = field(line, "pad");
    r->N = field(line, "N");
}

static void hf_rec_free(hf_rec *r)
{
    free(r->settings);
    free(r->prompts);
    free(r->tokens);
    free(r->words);
    free(r->tensor);
    free(r->seed);
    free(r->eos);
    free(r->pad);
    free(r->N);
}

/* the record's settings as command-line words into buf, and into s when s is given */
static void hf_args(const hf_rec *r, sl_api_settings *s, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "--framework hf --cpu avx2 --seed %s --context '%s'", r->seed, r->prompts);
    if (s) {
        set(s, "framework", "hf");
        set(s, "cpu", "avx2");
        set(s, "seed", r->seed);
        set(s, "context", r->prompts);
    }
    if (strcmp(r->N, "1")) {
        n += snprintf(buf + n, cap - (size_t)n, " --num-return-sequences %s", r->N);
        if (s)
            set(s, "num_return_sequences", r->N);
    }
    if (strcmp(r->eos, "none")) {
        n += snprintf(buf + n, cap - (size_t)n, " --eos-token-id %s", r->eos);
        if (s)
            set(s, "eos_token_id", r->eos);
    }
    if (strcmp(r->pad, "none")) {
        n += snprintf(buf + n, cap - (size_t)n, " --pad-token-id %s", r->pad);
        if (s)
            set(s, "pad_token_id", r->pad);
    }
    if (strcmp(r->settings, "default")) {
        char *cp = strdup(r->settings), *save = NULL;
        for (char *kv = strtok_r(cp, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            char *colon = strchr(kv, ':');
            *colon = 0;
            char opt[64];
            snprintf(opt, sizeof opt, "%s", kv);
            for (char *c = opt; *c; c++)
                if (*c == '_')
                    *c = '-';
            n += snprintf(buf + n, cap - (size_t)n, " --%s %s", opt, colon + 1);
            if (s)
                set(s, kv, colon + 1);
        }
        free(cp);
    }
}

/* tokens[b][t] and words[b][t] of a batched result against the record's rows */
static int same_rows(const char *want, const long *got, const uint64_t *gotw, size_t B, size_t T, int words)
{
    long long v[8 * 64];
    size_t rows, n = rows_of(want, v, sizeof v / sizeof *v, &rows);
    if (rows != B || n != B * T)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (words ? gotw[i] != (uint64_t)v[i] : got[i] != v[i])
            return 0;
    return 1;
}

Test(replay_batch, hf_generate_batches_c_api_and_cli, .timeout = 600)
{
    char *text = sl_test_slurp(HF_GOLD ".txt");
    cr_assert_not_null(text, HF_GOLD ".txt missing (make golden-current writes it)");
    cr_assert(strstr(text, "transformers 5.12.1") && strstr(text, "torch 2.14.1"), "not the 5.12.1 / 2.14.1 golden");
    size_t runs = 0, api_ok = 0, cli_ok = 0, check_ok = 0, finished = 0, rowsum = 0, maxrows = 0, nrs = 0, pen = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "run ", 4))
            continue;
        hf_rec r;
        hf_rec_read(line, &r);
        runs++;
        finished += strcmp(r.eos, "none") != 0;
        nrs += strcmp(r.N, "1") != 0;
        pen += strstr(r.settings, "repetition_penalty") != NULL;
        /* the C API, the settings set by key */
        sl_api_settings *s = sl_api_settings_new("replay");
        char args[4096];
        hf_args(&r, s, args, sizeof args);
        sl_api_src src = {HF_GOLD ".safetensors", r.tensor, -1, NULL, 0, NULL, NULL, 0};
        sl_api_replay_result res;
        sl_error err;
        int rc = sl_api_replay_run(&src, 1, NULL, 0, s, &res, &err);
        if (rc)
            cr_log_error("%s: %s", r.id, err.msg);
        else if (same_rows(r.tokens, res.runs[0].tokens, NULL, res.B, res.T, 0) &&
                 same_rows(r.words, NULL, res.runs[0].words, res.B, res.T, 1))
            api_ok++;
        else
            cr_log_error("%s: the C API's tokens or words differ", r.id);
        if (!rc) {
            rowsum += res.B;
            maxrows = res.B > maxrows ? res.B : maxrows;
        }
        sl_api_replay_result_free(&res);
        sl_api_settings_free(s);
        /* the command line */
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "replay --logits " HF_GOLD ".safetensors --tensor %s %s --json", r.tensor, args);
        sl_test_run o = sl_test_cli(cmd);
        char *tk = o.status ? NULL : rows_text(o.out, "tokens"), *wd = o.status ? NULL : rows_text(o.out, "words");
        if (tk && !strcmp(tk, r.tokens) && !strcmp(wd, r.words))
            cli_ok++;
        else
            cr_log_error("%s: %s: exit %d %.300s %s", r.id, cmd, o.status, o.out, o.err);
        free(tk);
        free(wd);
        sl_test_run_free(&o);
        /* check --seed of the run's own tokens: no divergence */
        snprintf(cmd, sizeof cmd, "check --logits " HF_GOLD ".safetensors --tensor %s %s --tokens '%s' --json", r.tensor,
                 args, r.tokens);
        o = sl_test_cli(cmd);
        if (o.status == 0 && strstr(o.out, "\"first_divergence\":null"))
            check_ok++;
        else
            cr_log_error("%s: %s: exit %d %.300s %s", r.id, cmd, o.status, o.out, o.err);
        sl_test_run_free(&o);
        hf_rec_free(&r);
    }
    cr_log_info("hf_batch: %zu runs (%zu rows, up to %zu a batch; %zu with EOS, %zu with num_return_sequences > 1, "
                "%zu with a repetition penalty): C API %zu, CLI %zu, check %zu exact",
                runs, rowsum, maxrows, finished, nrs, pen, api_ok, cli_ok, check_ok);
    cr_expect_geq(runs, 150, "only %zu runs", runs);
    cr_expect_eq(api_ok, runs, "C API: %zu of %zu runs exact", api_ok, runs);
    cr_expect_eq(cli_ok, runs, "CLI: %zu of %zu runs exact", cli_ok, runs);
    cr_expect_eq(check_ok, runs, "check: %zu of %zu runs without divergence", check_ok, runs);
    cr_expect_geq(maxrows, 8, "no batch of 8 rows");
    free(text);
}

Test(replay_batch, torch_multinomial_2d_c_api_and_cli, .timeout = 600)
{
    char *text = sl_test_slurp(TORCH_GOLD ".txt");
    cr_assert_not_null(text, TORCH_GOLD ".txt missing (make golden-current writes it)");
    cr_assert(strstr(text, "torch 2.14.1"), "not the torch 2.14.1 golden");
    size_t cases = 0, api_ok = 0, cli_ok = 0, repl = 0, big = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "case ", 5))
            continue;
        char id[16];
        sscanf(line, "case %15s", id);
        char *seed = field(line, "seed"), *K = field(line, "K"), *R = field(line, "replacement"), *N = field(line, "n");
        char *tensor = field(line, "probs"), *tokens = field(line, "tokens"), *words = field(line, "words");
        char *B = field(line, "B"), *V = field(line, "V");
        cases++;
        repl += R[0] == '1';
        big += atol(V) >= 32000;
        sl_api_settings *s = sl_api_settings_new("draw");
        set(s, "framework", "torch");
        set(s, "seed", seed);
        set(s, "n", N);
        set(s, "num_samples", K);
        if (R[0] == '1')
            set(s, "replacement", NULL);
        sl_api_src src = {TORCH_GOLD ".safetensors", tensor, -1, NULL, 0, NULL, NULL, 0};
        sl_api_draw_result res;
        sl_error err;
        int rc = sl_api_draw_run(&src, 0, s, NULL, NULL, NULL, &res, &err);
        size_t nb = (size_t)atol(B), n = (size_t)atol(N), k = (size_t)atol(K);
        long long want[8 * 3 * 1000];
        uint64_t wantw[64];
        size_t rows, nt = rows_of(tokens, want, sizeof want / sizeof *want, &rows);
        long long ww[64];
        size_t nw = rows_of(words, ww, 64, &rows);
        for (size_t i = 0; i < nw; i++)
            wantw[i] = (uint64_t)ww[i];
        int ok = !rc && nt == nb * n * k;
        /* a [1, V] tensor reads as one vector (not a batch): the same tokens, its words the total */
        for (size_t i = 0; ok && i < nt; i++)
            ok = res.tokens[i] == want[i];
        for (size_t i = 0; ok && i < nw; i++)
            ok = res.B ? res.row_words[i] == wantw[i] : i + 1 < nw || res.words == wantw[i];
        if (rc)
            cr_log_error("%s: %s", id, err.msg);
        else if (!ok)
            cr_log_error("%s: the C API's tokens or words differ", id);
        api_ok += ok;
        sl_api_draw_result_free(&res);
        sl_api_settings_free(s);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "draw --framework torch --probs " TORCH_GOLD ".safetensors --tensor %s --seed %s "
                 "--n %s --num-samples %s%s --json", tensor, seed, N, K, R[0] == '1' ? " --replacement" : "");
        sl_test_run o = sl_test_cli(cmd);
        if (nb > 1) {
            char *tk = o.status ? NULL : rows_text(o.out, "tokens"), *wd = o.status ? NULL : rows_text(o.out, "words");
            if (tk && !strcmp(tk, tokens) && !strcmp(wd, words))
                cli_ok++;
            else
                cr_log_error("%s: %s: exit %d %.300s %s", id, cmd, o.status, o.out, o.err);
            free(tk);
            free(wd);
        } else {
            cli_ok += o.status == 0 && strstr(o.out, "\"tokens\":[[") != NULL; /* one row: checked by the C API */
        }
        sl_test_run_free(&o);
        free(seed); free(K); free(R); free(N); free(tensor); free(tokens); free(words); free(B); free(V);
    }
    cr_log_info("torch_batch: %zu cases (%zu with replacement, %zu with V >= 32000): C API %zu, CLI %zu exact", cases,
                repl, big, api_ok, cli_ok);
    cr_expect_geq(cases, 150, "only %zu cases", cases);
    cr_expect_eq(api_ok, cases, "C API: %zu of %zu exact", api_ok, cases);
    cr_expect_eq(cli_ok, cases, "CLI: %zu of %zu exact", cli_ok, cases);
    free(text);
}
