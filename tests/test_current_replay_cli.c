/* test_current_replay_cli.c — `samplab replay` and `samplab check` run as a user
 * would on the generations of real transformers 5.12.1 generate() on torch
 * 2.14.1 (data/golden/current/hf_generate*.txt and .safetensors, written by
 * analysis/golden/current/hf_generate.py): every run replayed from the command
 * line with --torch 2 and the run's kernel (--cpu), its tokens and its words
 * after each step compared; `check --seed` must find no divergence; `check`
 * without a seed must find no token outside the kept set (a real sampler never
 * draws one), and its verdicts are counted (at alpha 0.01 about 1 in 100
 * correct logs is rejected by chance). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* settings=temperature:0.7,top_k:40 as samplab options; generate()'s unset ones are --defaults */
static void options(const char *s, char *out, size_t cap)
{
    size_t k = (size_t)snprintf(out, cap, "--defaults");
    if (!strcmp(s, "default"))
        return;
    static const char *const names[][2] = {{"temperature", "--temperature"}, {"top_k", "--top-k"},
                                           {"top_p", "--top-p"}, {"min_p", "--min-p"},
                                           {"typical_p", "--typical"}, {"repetition_penalty", "--repetition-penalty"}};
    for (const char *p = s; *p;) {
        const char *colon = strchr(p, ':'), *comma = strchr(p, ',');
        cr_assert(colon, "settings %s", s);
        size_t klen = (size_t)(colon - p), vlen = comma ? (size_t)(comma - colon - 1) : strlen(colon + 1);
        const char *opt = NULL;
        for (size_t i = 0; i < sizeof names / sizeof *names; i++)
            if (strlen(names[i][0]) == klen && !strncmp(p, names[i][0], klen))
                opt = names[i][1];
        cr_assert(opt, "unknown setting in %s", s);
        k += (size_t)snprintf(out + k, cap - k, " %s %.*s", opt, (int)vlen, colon + 1);
        p = comma ? comma + 1 : colon + 1 + vlen;
    }
}

static void replay_file(const char *manifest, const char *tensors, const char *cpu)
{
    char *text = sl_test_slurp(manifest);
    cr_assert_not_null(text, "%s missing", manifest);
    size_t runs = 0, exact = 0, seeded_ok = 0, outside = 0, rejected = 0;
    char first[512] = "";
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "run ", 4))
            continue;
        char id[16], prompt[512], tokens[1024], words[2048], set[256], opts[512], seed[32], tname[64], args[4096];
        sscanf(line, "run %15s", id);
        sl_test_field(line, "prompt", prompt, sizeof prompt);
        sl_test_field(line, "tokens", tokens, sizeof tokens);
        sl_test_field(line, "words", words, sizeof words);
        sl_test_field(line, "seed", seed, sizeof seed);
        sl_test_field(line, "logits", tname, sizeof tname);
        options(sl_test_field(line, "settings", set, sizeof set), opts, sizeof opts);
        const char *common = "--framework hf --torch 2 --cpu";
        snprintf(args, sizeof args, "replay %s %s --logits %s --tensor %s --context %s --seed %s %s --json", common,
                 cpu, tensors, tname, prompt, seed, opts);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        char want[4096];
        snprintf(want, sizeof want, "\"tokens\":[%s],\"words\":[%s]", tokens, words);
        runs++;
        if (strstr(r.out, want))
            exact++;
        else if (!first[0])
            snprintf(first, sizeof first, "%s: %.300s", id, r.out);
        sl_test_run_free(&r);
        snprintf(args, sizeof args, "check %s %s --logits %s --tensor %s --context %s --seed %s %s --tokens %s --json",
                 common, cpu, tensors, tname, prompt, seed, opts, tokens);
        r = sl_test_cli(args);
        seeded_ok += r.status == 0 && strstr(r.out, "\"first_divergence\":null") != NULL;
        sl_test_run_free(&r);
        snprintf(args, sizeof args, "check %s %s --logits %s --tensor %s --context %s %s --tokens %s --trials 0 --json",
                 common, cpu, tensors, tname, prompt, opts, tokens);
        r = sl_test_cli(args);
        cr_expect(r.status == 0 || r.status == 1, "%s: %s", args, r.err);
        outside += strstr(r.out, "\"outside_kept\":[]") == NULL;
        rejected += r.status == 1;
        if (!strstr(r.out, "\"outside_kept\":[]"))
            cr_log_error("%s: a real generation outside the kept set: %s", id, r.out);
        sl_test_run_free(&r);
    }
    cr_log_info("%s: %zu runs; replay equal in tokens and words: %zu; check --seed without divergence: %zu; "
                "check: %zu with a token outside the kept set, %zu rejected at alpha 0.01; first difference: %s",
                manifest, runs, exact, seeded_ok, outside, rejected, first[0] ? first : "none");
    cr_assert_geq(runs, 5);
    cr_expect_eq(exact, runs, "first: %s", first);
    cr_expect_eq(seeded_ok, runs);
    cr_expect_eq(outside, 0);
    cr_expect_leq(rejected, 2, "%zu of %zu real generations rejected at alpha 0.01", rejected, runs);
    free(text);
}

Test(replay_current, cli_replay_check_hf_generate_avx2)
{
    replay_file("data/golden/current/hf_generate.txt", "data/golden/current/hf_generate.safetensors", "avx2");
}

Test(replay_current, cli_replay_check_hf_generate_avx512)
{
    replay_file("data/golden/current/hf_generate_avx512.txt", "data/golden/current/hf_generate_avx512.safetensors",
                "avx512");
}
