/* test_cli_translations.c — every "translation" `samplab compare` prints is a
 * whole command: pasted as it is (samplab -> the binary under test), it runs
 * and gives the distribution of the framework it claims to reproduce, as
 * `samplab pipeline` gives that one under the user's settings: the same kept
 * ids and TV < 1e-6. Cases: text, inline and .safetensors sources (--tensor,
 * --row), a context file whose name needs quoting, --cpu, the frameworks' defaults, and
 * the frameworks compare skips. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>

#include "helpers.h"

static json_t *run_json(const char *args)
{
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "%s: exit %d: %s", args, r.status, r.err);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    cr_assert_not_null(j, "%s: not JSON: %s", args, r.out);
    sl_test_run_free(&r);
    return j;
}

/* Runs the printed command itself: its "samplab " prefix stands for the binary. */
static json_t *run_command(const char *cmd)
{
    cr_assert(!strncmp(cmd, "samplab pipeline ", 17), "not a pipeline command: %s", cmd);
    char args[8192];
    snprintf(args, sizeof args, "%s --json", cmd + 8);
    return run_json(args);
}

static void expect_same(json_t *a, json_t *b, const char *what)
{
    json_t *ka = json_object_get(a, "kept"), *kb = json_object_get(b, "kept");
    cr_assert(json_is_array(ka) && json_is_array(kb), "%s: no kept list", what);
    cr_expect(json_equal(ka, kb), "%s: other kept ids", what);
    json_t *pa = json_object_get(a, "probs"), *pb = json_object_get(b, "probs");
    cr_assert_eq(json_array_size(pa), json_array_size(pb), "%s", what);
    double tv = 0;
    for (size_t i = 0; i < json_array_size(pa); i++)
        tv += fabs(json_number_value(json_array_get(pa, i)) - json_number_value(json_array_get(pb, i)));
    cr_expect_lt(tv / 2, 1e-6, "%s: TV %g", what, tv / 2);
}

/* For each translation in compare's JSON: run it, and the reproduced framework
 * under the user's settings (candle at temperature 1 when none is given, as
 * compare runs it); returns how many were checked. */
static size_t check_case(const char *src, const char *settings)
{
    char args[4096];
    snprintf(args, sizeof args, "compare %s %s --json", src, settings);
    json_t *root = run_json(args);
    size_t checked = 0;
    json_t *lists[2] = {json_object_get(root, "pairs"), json_object_get(root, "skipped")};
    for (int l = 0; l < 2; l++) {
        size_t i;
        json_t *p;
        json_array_foreach(lists[l], i, p) {
            size_t k;
            json_t *t;
            json_array_foreach(json_object_get(p, "translations"), k, t) {
                const char *cmd = json_string_value(json_object_get(t, "command"));
                const char *repro = json_string_value(json_object_get(t, "reproduces"));
                cr_assert(cmd && repro, "a translation without command: %s", args);
                json_t *got = run_command(cmd);
                char ref[4096];
                snprintf(ref, sizeof ref, "pipeline --framework %s %s %s%s --json", repro, src, settings,
                         !strcmp(repro, "candle") && !strstr(settings, "--temperature") ? " --temperature 1" : "");
                json_t *want = run_json(ref);
                char what[8192];
                snprintf(what, sizeof what, "%s (for %s)", cmd, ref);
                expect_same(got, want, what);
                json_decref(got);
                json_decref(want);
                checked++;
            }
        }
    }
    json_decref(root);
    return checked;
}

Test(replay_cli_translations, every_printed_command_runs_and_reproduces)
{
    size_t n = 0;
    n += check_case("--logits data/weather.txt", "--temperature 0.7"); /* hf and llama.cpp with their defaults */
    n += check_case("--logits data/k40p09.txt", "--temperature 0.7 --top-k 40 --top-p 0.9");
    n += check_case("--logits data/ties.txt", "--top-k 2");
    n += check_case("--logits 4,3.3,2.9,1.2,0.4,-0.3,-1,-2.2", "--temperature 0.5 --min-p 0.2");
    n += check_case("--logits data/golden/safetensors/multi.safetensors --tensor rows_f32 --row 1",
                    "--temperature 0.8 --top-k 5");
    n += check_case("--logits data/golden/safetensors/synthetic.safetensors --tensor logits",
                    "--temperature 0.7 --top-p 0.9 --cpu avx512");
    /* a context file whose name has a blank: printed quoted */
    char *ctx = sl_test_tmpfile(" ctx.txt", "0 0 1\n", 6);
    cr_assert_not_null(ctx);
    char settings[1024];
    snprintf(settings, sizeof settings, "--temperature 0.9 --top-k 6 --repetition-penalty 1.5 --context '%s'", ctx);
    n += check_case("--logits data/weather.txt", settings);
    unlink(ctx);
    free(ctx);
    cr_expect_gt(n, 20, "only %zu translations checked", n);
}

Test(replay_cli_translations, text_output_prints_the_same_commands)
{
    sl_test_run r = sl_test_cli("compare --logits data/k40p09.txt --temperature 0.7 --top-k 40 --top-p 0.9");
    cr_assert_eq(r.status, 0, "%s", r.err);
    size_t n = 0;
    for (const char *p = r.out; (p = strstr(p, "translation: ")); n++) {
        p += 13;
        cr_expect(!strncmp(p, "samplab pipeline --framework ", 29), "translation: %.80s", p);
        const char *end = strstr(p, " reproduces ");
        cr_assert(end);
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "%.*s", (int)(end - p), p);
        cr_expect(strstr(cmd, " --logits data/k40p09.txt "), "no --logits in %s", cmd);
        json_t *j = run_command(cmd);
        json_decref(j);
    }
    cr_expect_gt(n, 4, "%zu translations", n);
    sl_test_run_free(&r);
}
