/* test_cli_replay_llamacpp.c — `samplab replay --framework llamacpp` and
 * `samplab check --seed` run as a user would on the generation loops of real
 * llama.cpp 0.7.0 (data/golden/current/llamacpp_generate.txt and its logits
 * llamacpp_generate_logits.npy, written by analysis/golden/current/
 * llamacpp_golden.sh: llama_decode + llama_sampler_sample on a tiny GGUF).
 * Each run's rows are cut into a [24, V] .npy of their own; the prompt is the
 * history only where the run accepted it (accept_prompt=1; llama.cpp's
 * common_sampler does not); the tokens and the words after each step (dist: 2 a
 * step, one uniform even with one candidate left) must equal llama.cpp's. A
 * penalty window last_n < 0 (llama.cpp clamps it to 0) is given as 0. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

/* the words after "KEY ID " on the line of that key and run */
static const char *rec(const char *text, const char *key, int id)
{
    const char *p = sl_test_rec(text, key, id);
    cr_assert(p, "no %s record for run %d", key, id);
    return strchr(strchr(p, ' ') + 1, ' ') + 1;
}

static double num(const char *line, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    cr_assert(p, "no %s in %.60s", key, line);
    return strtod(p + strlen(pat), NULL);
}

/* writes rows [a, b) of the float32 [T, V] array as a .npy of its own */
static char *slice(const sl_io_npy_info *in, size_t a, size_t b)
{
    size_t V = in->shape[1];
    char *p = sl_test_npy_f32(in->data + a * V * 4, b - a, V);
    cr_assert(p);
    return p;
}

Test(replay_cli_llamacpp, cli_replay_llamacpp_generate)
{
    char *text = sl_test_slurp("data/golden/current/llamacpp_generate.txt");
    cr_assert_not_null(text);
    unsigned char *npy;
    size_t len;
    sl_error e;
    cr_assert_eq(sl_io_file_slurp("data/golden/current/llamacpp_generate_logits.npy", &npy, &len, &e), 0, "%s", e.msg);
    sl_io_npy_info info;
    cr_assert_eq(sl_io_npy_header("logits", npy, len, &info, &e), 0, "%s", e.msg);
    cr_assert_eq(info.ndim, 2);
    size_t runs = 0, exact = 0, words_ok = 0, seeded_ok = 0;
    char first[1024] = "";
    for (int id = 0;; id++) {
        const char *line = sl_test_rec(text, "run", id);
        if (!line)
            break;
        size_t a, b;
        cr_assert_eq(sscanf(rec(text, "rows", id), "%zu %zu", &a, &b), 2);
        char prompt[256] = "", tokens[512] = "", words[512] = "", args[2048];
        const char *p = rec(text, "prompt", id);
        size_t k = 0;
        for (; *p && *p != '\n' && k + 1 < sizeof prompt; p++)
            prompt[k++] = *p == ' ' ? ',' : *p;
        prompt[k] = '\0';
        p = rec(text, "tokens", id);
        k = 0;
        for (; *p && *p != '\n' && k + 1 < sizeof tokens; p++)
            tokens[k++] = *p == ' ' ? ',' : *p;
        tokens[k] = '\0';
        /* cumulative words, or none for greedy ("-") */
        p = rec(text, "words", id);
        unsigned long long tot = 0;
        k = 0;
        int greedy = *p == '-';
        for (size_t t = a; !greedy && t < b; t++) {
            char *end;
            tot += strtoull(p, &end, 10);
            p = end;
            k += (size_t)snprintf(words + k, sizeof words - k, "%s%llu", t > a ? "," : "", tot);
        }
        char *path = slice(&info, a, b);
        long last_n = (long)num(line, "last_n");
        snprintf(args, sizeof args,
                 "replay --framework llamacpp --logits %s --seed %.0f --temperature %.9g --top-k %.0f --top-p %.9g "
                 "--min-p %.9g --typical %.9g --penalty-last-n %ld --repetition-penalty %.9g --frequency-penalty %.9g "
                 "--presence-penalty %.9g --min-keep %.0f%s%s --json",
                 path, num(line, "seed"), num(line, "temp"), num(line, "top_k"), num(line, "top_p"), num(line, "min_p"),
                 num(line, "typical"), last_n < 0 ? 0 : last_n, num(line, "repeat"), num(line, "freq"),
                 num(line, "present"), num(line, "min_keep"), num(line, "accept_prompt") ? " --context " : "",
                 num(line, "accept_prompt") ? prompt : "");
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "run %d: %s: %s", id, args, r.err);
        char want[1024];
        snprintf(want, sizeof want, "\"tokens\":[%s]", tokens);
        runs++;
        if (strstr(r.out, want))
            exact++;
        else if (!first[0])
            snprintf(first, sizeof first, "run %d: want %.200s, got %.300s", id, tokens, r.out);
        snprintf(want, sizeof want, "\"words\":[%s]", words);
        words_ok += greedy || strstr(r.out, want) != NULL;
        sl_test_run_free(&r);
        /* check --seed with the same settings: no divergence */
        seeded_ok += (size_t)sl_test_check_seeded(args, tokens);
        unlink(path);
        free(path);
    }
    cr_log_info("llama.cpp 0.7.0 generate: %zu runs; replay equal in tokens %zu, words %zu; check --seed without "
                "divergence %zu; first difference: %s", runs, exact, words_ok, seeded_ok, first[0] ? first : "none");
    cr_assert_geq(runs, 5);
    cr_expect_eq(exact, runs, "%s", first);
    cr_expect_eq(words_ok, runs);
    cr_expect_eq(seeded_ok, runs);
    free(npy);
    free(text);
}
