/* test_cli_llama_dump.c — the dumps of analysis/llama_dump/llama_dump.c (real
 * llama.cpp 0.7.0 generations through libllama on a tiny GGUF, written by
 * analysis/llama_dump/golden.sh into data/golden/current/llama_dump/) are read as
 * they are: for every case of the manifest, the `samplab replay` command the dump
 * records (in NAME.json, or in the .safetensors header's __metadata__) gives the
 * tokens llama.cpp drew (NAME.tokens), and the recorded `samplab check` command
 * finds no divergence; without its --seed, `check` judges the log by its
 * distributions and must find no token outside the kept set. Settings: defaults, a random seed read back, plain softmax,
 * repetition / frequency / presence penalties over windows of 8, 16, 64 and the
 * whole context, typical with min_keep, greedy, the prompt not accepted, and a
 * 96-step .safetensors dump from prompt ids. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

#define DUMP_DIR "data/golden/current/llama_dump"

/* The JSON string value of "key" in text (no escapes in these values), malloc'd. */
static char *json_str(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(text, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    const char *e = strchr(p, '"');
    cr_assert_not_null(e);
    char *v = malloc((size_t)(e - p) + 1);
    memcpy(v, p, (size_t)(e - p));
    v[e - p] = '\0';
    return v;
}

/* cmd without "samplab ", each file after --logits / --context / --tokens put in DUMP_DIR. */
static char *in_dir(const char *cmd)
{
    static const char *const opts[] = {"--logits ", "--context ", "--tokens "};
    size_t cap = strlen(cmd) + 4 * sizeof DUMP_DIR, k = 0;
    char *out = malloc(cap);
    const char *p = cmd + strlen("samplab ");
    while (*p) {
        int hit = 0;
        for (int i = 0; i < 3 && !hit; i++)
            if (!strncmp(p, opts[i], strlen(opts[i]))) {
                k += (size_t)snprintf(out + k, cap - k, "%s" DUMP_DIR "/", opts[i]);
                p += strlen(opts[i]);
                hit = 1;
            }
        if (!hit)
            out[k++] = *p++;
    }
    out[k] = '\0';
    return out;
}

/* args without " --seed N", with " --trials 0" added (malloc'd) */
static char *without_seed(const char *args)
{
    size_t n = strlen(args);
    char *out = malloc(n + 16);
    const char *p = strstr(args, " --seed ");
    cr_assert_not_null(p, "%s", args);
    const char *q = strchr(p + 8, ' ');
    snprintf(out, n + 16, "%.*s%s --trials 0", (int)(p - args), args, q ? q : "");
    return out;
}

Test(replay_cli_llama_dump, replay_and_check_read_the_dumps)
{
    char *man = sl_test_slurp(DUMP_DIR "/llama_dump.txt");
    cr_assert_not_null(man, "no " DUMP_DIR "/llama_dump.txt");
    size_t cases = 0, equal = 0, steps = 0, undiverged = 0, penalised = 0, inside = 0;
    for (const char *l = strstr(man, "\ncase "); l; l = strstr(l + 1, "\ncase ")) {
        char name[64], path[256];
        cr_assert_eq(sscanf(l + 6, "%63s", name), 1);
        const char *eol = strchr(l + 1, '\n');
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(eol ? eol - l - 1 : (long)strlen(l + 1)), l + 1);
        penalised += strstr(line, "penalty") != NULL;
        snprintf(path, sizeof path, DUMP_DIR "/%s.json", name);
        char *meta = sl_test_slurp(path);
        const char *head = meta;
        if (!meta) { /* a .safetensors dump: the metadata is in its JSON header, after 8 bytes of length */
            snprintf(path, sizeof path, DUMP_DIR "/%s.safetensors", name);
            meta = sl_test_slurp(path);
            head = meta ? meta + 8 : NULL;
        }
        cr_assert_not_null(meta, "case %s: no .json or .safetensors", name);
        char *replay = json_str(head, "replay"), *check = json_str(head, "check");
        cr_assert(replay && check, "case %s: no replay or check command in %s", name, path);
        snprintf(path, sizeof path, DUMP_DIR "/%s.tokens", name);
        char *want = sl_test_slurp(path);
        cr_assert_not_null(want);
        char *args = in_dir(replay);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "case %s: %s: %s", name, args, r.err);
        cases++;
        steps += sl_test_lines(want);
        if (!strcmp(r.out, want))
            equal++;
        else
            cr_log_error("case %s (%s): replay gave\n%s\nllama.cpp drew\n%s", name, line, r.out, want);
        sl_test_run_free(&r);
        free(args);
        args = in_dir(check);
        r = sl_test_cli(args);
        if (r.status == 0 && strstr(r.out, "every observed token is the one the seeded sampler draws"))
            undiverged++;
        else
            cr_log_error("case %s: %s: exit %d: %s %s", name, args, r.status, r.out, r.err);
        sl_test_run_free(&r);
        char *noseed = without_seed(args);
        r = sl_test_cli(noseed);
        if ((r.status == 0 || r.status == 1) && strstr(r.out, "outside the kept set: none"))
            inside++;
        else
            cr_log_error("case %s: %s: exit %d: %s %s", name, noseed, r.status, r.out, r.err);
        sl_test_run_free(&r);
        free(noseed);
        free(args);
        free(want);
        free(replay);
        free(check);
        free(meta);
    }
    cr_log_info("llama_dump: %zu cases (%zu with penalties), %zu steps; replay equal in %zu, check --seed without "
                "divergence in %zu; check without a seed: every token inside the kept set in %zu", cases, penalised,
                steps, equal, undiverged, inside);
    cr_assert_geq(cases, 8u);
    cr_assert_geq(penalised, 4u);
    cr_expect_eq(equal, cases);
    cr_expect_eq(undiverged, cases);
    cr_expect_eq(inside, cases);
    free(man);
}
