/* test_cli_replay_hf.c — `samplab replay` and `samplab check` run as a user
 * would on the generations of real transformers 5.12.1 generate() on torch
 * 2.14.1 (data/golden/current/hf_generate*.txt and .safetensors, written by
 * analysis/golden/current/hf_generate.py): every run replayed from the command
 * line with --torch 2 and the run's kernel (--cpu), its tokens and its words
 * after each step compared; `check --seed` must find no divergence; `check`
 * without a seed must find no token outside the kept set (a real sampler never
 * draws one), and its verdicts are counted (at alpha 0.01 about 1 in 100
 * correct logs is rejected by chance). The settings generate() left unset are
 * left unset here too (no --defaults): samplab fills them with
 * generate()'s defaults (top_k 50), and hf_defaults.txt's runs (several settings
 * unset, top_k 0, a model generation_config) replay the same way; --json's
 * "defaulted" must name exactly the settings left unset. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

/* generate()'s keyword arguments and samplab's options for them, in the order
 * --json echoes hf's settings */
static const char *const names[][2] = {{"temperature", "--temperature"}, {"top_k", "--top-k"},
                                       {"top_p", "--top-p"},             {"min_p", "--min-p"},
                                       {"typical_p", "--typical"},       {"repetition_penalty", "--repetition-penalty"}};
#define NNAMES (sizeof names / sizeof *names)

/* A run's settings as samplab options: settings=temperature:0.7,top_k:40 (what
 * generate() was called with; "default": nothing), then the model's
 * generation_config (genconfig=..., hf_defaults.txt), which generate() takes for
 * what the call leaves unset: samplab takes the library's defaults, not a
 * model's, so those are given as options. What neither sets stays unset, for
 * samplab's defaults. given[i]: names[i] was given. */
static void options(const char *set, const char *gen, char *out, size_t cap, int given[NNAMES])
{
    char val[NNAMES][32];
    memset(given, 0, NNAMES * sizeof *given);
    const char *lists[2] = {set, gen};
    for (int l = 0; l < 2; l++) {
        if (!lists[l] || !strcmp(lists[l], "default"))
            continue;
        for (const char *p = lists[l]; *p;) {
            const char *colon = strchr(p, ':'), *comma = strchr(p, ',');
            cr_assert(colon, "settings %s", lists[l]);
            size_t klen = (size_t)(colon - p), vlen = comma ? (size_t)(comma - colon - 1) : strlen(colon + 1);
            size_t i = 0;
            while (i < NNAMES && !(strlen(names[i][0]) == klen && !strncmp(p, names[i][0], klen)))
                i++;
            cr_assert(i < NNAMES, "unknown setting in %s", lists[l]);
            if (!given[i]) { /* the call's value wins over the model's */
                given[i] = 1;
                snprintf(val[i], sizeof val[i], "%.*s", (int)vlen, colon + 1);
            }
            p = comma ? comma + 1 : colon + 1 + vlen;
        }
    }
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = 0; i < NNAMES; i++)
        if (given[i])
            k += (size_t)snprintf(out + k, cap - k, " %s %s", names[i][1], val[i]);
}

/* what hf's --json must list as defaulted: the settings not given, in its order */
static void want_defaulted(const int given[NNAMES], char *out, size_t cap)
{
    static const char *const echo[NNAMES] = {"temperature", "top_k", "top_p", "min_p", "typical", "repetition_penalty"};
    size_t k = (size_t)snprintf(out, cap, "\"defaulted\":[");
    for (size_t i = 0; i < NNAMES; i++)
        if (!given[i])
            k += (size_t)snprintf(out + k, cap - k, "\"%s\",", echo[i]);
    snprintf(out + k, cap - k, "\"min_keep\"]");
}

static void replay_file(const char *manifest, const char *tensors, const char *cpu)
{
    char *text = sl_test_slurp(manifest);
    cr_assert_not_null(text, "%s missing", manifest);
    size_t runs = 0, exact = 0, seeded_ok = 0, outside = 0, rejected = 0, unset = 0, echoed = 0;
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
        char gen[256], defaulted[256];
        int given[NNAMES];
        options(sl_test_field(line, "settings", set, sizeof set),
                strstr(line, " genconfig=") ? sl_test_field(line, "genconfig", gen, sizeof gen) : NULL, opts,
                sizeof opts, given);
        want_defaulted(given, defaulted, sizeof defaulted);
        unset += NNAMES;
        for (size_t i = 0; i < NNAMES; i++)
            unset -= (size_t)given[i];
        const char *common = "--framework hf --torch 2 --cpu";
        snprintf(args, sizeof args, "replay %s %s --logits %s --tensor %s --context %s --seed %s%s --json", common,
                 cpu, tensors, tname, prompt, seed, opts);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        char want[4096];
        snprintf(want, sizeof want, "\"tokens\":[%s],\"words\":[%s]", tokens, words);
        runs++;
        echoed += strstr(r.out, defaulted) != NULL;
        if (strstr(r.out, want))
            exact++;
        else if (!first[0])
            snprintf(first, sizeof first, "%s: %.300s", id, r.out);
        sl_test_run_free(&r);
        snprintf(args, sizeof args, "check %s %s --logits %s --tensor %s --context %s --seed %s%s --tokens %s --json",
                 common, cpu, tensors, tname, prompt, seed, opts, tokens);
        r = sl_test_cli(args);
        seeded_ok += r.status == 0 && strstr(r.out, "\"first_divergence\":null") != NULL;
        sl_test_run_free(&r);
        snprintf(args, sizeof args, "check %s %s --logits %s --tensor %s --context %s%s --tokens %s --trials 0 --json",
                 common, cpu, tensors, tname, prompt, opts, tokens);
        r = sl_test_cli(args);
        cr_expect(r.status == 0 || r.status == 1, "%s: %s", args, r.err);
        outside += strstr(r.out, "\"outside_kept\":[]") == NULL;
        rejected += r.status == 1;
        if (!strstr(r.out, "\"outside_kept\":[]"))
            cr_log_error("%s: a real generation outside the kept set: %s", id, r.out);
        sl_test_run_free(&r);
    }
    cr_log_info("%s: %zu runs (%zu settings left unset for samplab's defaults); replay equal in tokens and words: "
                "%zu, its --json naming the defaulted settings: %zu; check --seed without divergence: %zu; "
                "check: %zu with a token outside the kept set, %zu rejected at alpha 0.01; first difference: %s",
                manifest, runs, unset, exact, echoed, seeded_ok, outside, rejected, first[0] ? first : "none");
    cr_assert_geq(runs, 5);
    cr_expect_eq(exact, runs, "first: %s", first);
    cr_expect_eq(echoed, runs, "--json's defaulted list differs from the settings left unset");
    cr_expect_eq(seeded_ok, runs);
    cr_expect_eq(outside, 0);
    cr_expect_leq(rejected, 2, "%zu of %zu real generations rejected at alpha 0.01", rejected, runs);
    free(text);
}

Test(replay_cli_hf, cli_replay_check_hf_generate_avx2)
{
    replay_file("data/golden/current/hf_generate.txt", "data/golden/current/hf_generate.safetensors", "avx2");
}

Test(replay_cli_hf, cli_replay_check_hf_generate_avx512)
{
    replay_file("data/golden/current/hf_generate_avx512.txt", "data/golden/current/hf_generate_avx512.safetensors",
                "avx512");
}

/* transformers' defaults: generate() with settings left unset in several
 * combinations, top_k = 0, and a model's generation_config
 * (analysis/golden/current/hf_defaults.py) */
Test(replay_cli_hf, cli_replay_check_hf_defaults_avx2, .timeout = 300)
{
    replay_file("data/golden/current/hf_defaults.txt", "data/golden/current/hf_defaults.safetensors", "avx2");
}
