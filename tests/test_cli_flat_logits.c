/* test_cli_flat_logits.c — `samplab check` and `replay` on real transformers
 * 5.12.1 generate() runs over near-flat logits (all within 1e-6, V = 4096,
 * BF16 tensors; data/golden/current/hf_flat.txt and .safetensors, written by
 * analysis/golden/current/hf_flat.py on torch 2.14.1). Each step's
 * log-probabilities differ by about 1e-6, so the log-likelihood's variance
 * under the claim is about 1e-13 a step: a one-pass variance lost it and
 * rejected such a generation with p = 0. Every run must replay token for
 * token, and `check` without a seed must find it consistent with a positive
 * sd. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* settings=top_k:0,temperature:0.7 as samplab options */
static void options(const char *s, char *out, size_t cap)
{
    static const char *const names[][2] = {{"temperature", "--temperature"}, {"top_k", "--top-k"},
                                           {"top_p", "--top-p"}, {"repetition_penalty", "--repetition-penalty"}};
    size_t k = 0;
    out[0] = 0;
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

Test(replay_cli_flat, cli_check_near_flat_hf_generate)
{
    const char *manifest = "data/golden/current/hf_flat.txt", *tensors = "data/golden/current/hf_flat.safetensors";
    char *text = sl_test_slurp(manifest);
    cr_assert_not_null(text, "%s missing", manifest);
    size_t runs = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "run ", 4))
            continue;
        char id[16], prompt[256], tokens[1024], set[256], opts[512], seed[32], tname[64], kernel[16], args[4096];
        sscanf(line, "run %15s", id);
        sl_test_field(line, "prompt", prompt, sizeof prompt);
        sl_test_field(line, "tokens", tokens, sizeof tokens);
        sl_test_field(line, "seed", seed, sizeof seed);
        sl_test_field(line, "logits", tname, sizeof tname);
        sl_test_field(line, "kernel", kernel, sizeof kernel);
        options(sl_test_field(line, "settings", set, sizeof set), opts, sizeof opts);
        const char *cpu = !strcmp(kernel, "AVX512") ? "avx512" : "avx2";
        snprintf(args, sizeof args, "replay --framework hf --cpu %s --logits %s --tensor %s --context %s --seed %s%s",
                 cpu, tensors, tname, prompt, seed, opts);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        char got[1024];
        size_t k = 0;
        got[0] = 0;
        for (char *p = r.out; *p && k + 1 < sizeof got; p++)
            got[k++] = *p == '\n' ? ',' : *p;
        if (k && got[k - 1] == ',')
            k--;
        got[k] = 0;
        cr_expect_str_eq(got, tokens, "%s: replay", id);
        sl_test_run_free(&r);
        snprintf(args, sizeof args, "check --framework hf --cpu %s --logits %s --tensor %s --context %s%s --tokens %s "
                 "--trials 0 --json", cpu, tensors, tname, prompt, opts, tokens);
        r = sl_test_cli(args);
        cr_expect_eq(r.status, 0, "%s: a real generation rejected: %s %s", id, r.out, r.err);
        cr_expect(strstr(r.out, "\"outside_kept\":[]"), "%s: %s", id, r.out);
        cr_expect(!strstr(r.out, "\"sd\":0.0,"), "%s: the variance under the claim vanished: %s", id, r.out);
        sl_test_run_free(&r);
        runs++;
    }
    cr_expect_eq(runs, 4, "%zu runs in %s", runs, manifest);
    free(text);
}
