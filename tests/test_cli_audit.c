/* test_cli_audit.c — `samplab audit` on what real llama-servers answered, v0.4.0 and
 * Debian sid's 0.7.0 (data/golden/audit/, recorded by analysis/golden/audit/record.py, an
 * independent recorder), on crafted logs that must be refused, and against
 * tests/audit/fake_server.py: a server replaying a recorded log (the live
 * path end to end, --out included), one that ignores the seed, and ones that
 * misbehave (not JSON, status 500, a body cut short, no answer, no server).
 * The faulty servers' logs are rejected (the tests' power), the correct
 * ones are not. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "helpers.h"

#define GOLD "data/golden/audit/"

static json_t *audit_json(const char *args, int want_status)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "audit %s --json --trials 40", args);
    sl_test_run r = sl_test_cli(cmd);
    cr_assert_eq(r.status, want_status, "%s: exit %d, stderr %s", cmd, r.status, r.err);
    json_error_t je;
    json_t *o = json_loads(r.out, 0, &je);
    cr_assert(o, "%s: stdout is not JSON: %s", cmd, je.text);
    sl_test_run_free(&r);
    return o;
}

static long jint(json_t *o, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *v = o;
    for (char *k = strtok(buf, "."); k; k = strtok(NULL, "."))
        v = json_object_get(v, k);
    cr_assert(json_is_integer(v), "%s is not an integer", path);
    return (long)json_integer_value(v);
}

/* The drawn tokens outside the claimed top 40 of a log, counted here from its raw lines with
 * jansson alone: a lower bound on what audit must name (its kept set is top-k, top-p and min-p). */
static size_t outside_top40(const char *path, size_t *steps)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s", path);
    size_t n = 0;
    *steps = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        json_t *o = json_loads(line, 0, NULL);
        cr_assert(o);
        json_t *body = json_object_get(o, "body");
        if (body && !json_is_true(json_object_get(body, "post_sampling_probs"))) {
            json_t *cp = json_object_get(json_object_get(o, "response"), "completion_probabilities");
            for (size_t t = 0; t < json_array_size(cp); t++) {
                json_t *e = json_array_get(cp, t), *top = json_object_get(e, "top_logprobs");
                json_int_t id = json_integer_value(json_object_get(e, "id"));
                int in = 0;
                for (size_t k = 0; k < json_array_size(top) && k < 40; k++)
                    in |= json_integer_value(json_object_get(json_array_get(top, k), "id")) == id;
                n += !in;
                (*steps)++;
            }
        }
        json_decref(o);
    }
    free(text);
    return n;
}

/* The recordings of each release's llama-server: v0.4.0 built here, Debian sid's 0.7.0 in a
 * chroot (analysis/golden/audit/record_sid.sh), each with the release its build_info names. */
static const struct {
    const char *dir, *release, *build;
} servers[] = {
    {GOLD, "0.4.0", "b1-80fb11a"},
    {GOLD "llamacpp-0.7.0/", "0.7.0", "b11669-Debian"},
};
#define EACH_SERVER for (size_t sv = 0; sv < sizeof servers / sizeof *servers; sv++)

static json_t *audit_log_json(size_t sv, const char *file, const char *more, int want_status)
{
    char args[1024];
    snprintf(args, sizeof args, "--log %s%s %s", servers[sv].dir, file, more);
    return audit_json(args, want_status);
}

/* A recorded log rewritten line by line into a temporary file (the caller unlinks and frees it):
 * fn gets each parsed line and returns what to write: the line, changed or not, a part of it, or
 * NULL to drop it. */
typedef json_t *(*line_fn)(json_t *line, void *ctx);
static char *log_rewrite(const char *path, line_fn fn, void *ctx)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s", path);
    sl_buf out;
    sl_io_buf_init(&out);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        json_t *o = json_loads(line, 0, NULL);
        cr_assert(o, "%s: a line is not JSON", path);
        json_t *w = fn(o, ctx);
        if (w) {
            char *d = json_dumps(w, JSON_COMPACT);
            sl_io_buf_puts(&out, d);
            sl_io_buf_puts(&out, "\n");
            free(d);
        }
        json_decref(o);
    }
    free(text);
    cr_assert(!out.oom);
    char *tmp = sl_test_tmpfile(".jsonl", out.data, out.len);
    cr_assert(tmp);
    sl_io_buf_free(&out);
    return tmp;
}

Test(audit_log, correct_server_is_consistent_and_predicted_exactly)
{
    static const char *const logs[] = {"correct.jsonl", "sendseed_ok.jsonl", "concurrent.jsonl", "penalties_on.jsonl"};
    EACH_SERVER for (size_t i = 0; i < sizeof logs / sizeof *logs; i++) {
        json_t *o = audit_log_json(sv, logs[i], "", 0);
        const char *at = servers[sv].release;
        cr_expect(json_is_true(json_object_get(o, "seed_honoured")), "%s %s", at, logs[i]);
        cr_expect(json_is_true(json_object_get(o, "settings_honoured")), "%s %s", at, logs[i]);
        cr_expect_eq(json_array_size(json_object_get(o, "outside_kept")), 0, "%s %s", at, logs[i]);
        cr_expect(json_real_value(json_object_get(o, "p_value")) >= 0.01, "%s %s", at, logs[i]);
        cr_expect_str_eq(json_string_value(json_object_get(o, "verdict")), "consistent", "%s %s", at, logs[i]);
        /* the release the server's build_info names is the one replayed */
        char sess[64], from[96];
        snprintf(sess, sizeof sess, "llamacpp %s", at);
        snprintf(from, sizeof from, "the server's build_info %s", servers[sv].build);
        cr_expect_str_eq(json_string_value(json_object_get(o, "session")), sess);
        cr_expect_str_eq(json_string_value(json_object_get(o, "release_from")), from);
        /* without penalties the seeded llama.cpp session predicts every token from the reported values */
        if (i < 3) {
            cr_expect_gt(jint(o, "predicted.steps"), 0, "%s %s", at, logs[i]);
            cr_expect_eq(jint(o, "predicted.exact"), jint(o, "predicted.steps"), "%s %s", at, logs[i]);
            cr_expect_eq(jint(o, "sufficed.steps"), jint(o, "sufficed.of"), "%s %s", at, logs[i]);
            cr_expect_null(json_object_get(o, "predicted_why"), "%s %s", at, logs[i]);
        } else { /* with penalties claimed no replay, and the reason given */
            const char *why = json_string_value(json_object_get(o, "predicted_why"));
            cr_expect(why && strstr(why, "the claim's penalties"), "%s %s: %s", at, logs[i], why ? why : "none");
        }
        json_decref(o);
    }
    EACH_SERVER {
        json_t *o = audit_log_json(sv, "concurrent.jsonl", "", 0);
        cr_expect(json_is_true(json_object_get(o, "concurrency")));
        cr_expect_eq(jint(o, "concurrent.requests"), jint(o, "concurrent.equal"));
        cr_expect_gt(jint(o, "concurrent.requests"), 0);
        json_decref(o);
    }
}

Test(audit_log, release_is_the_one_given_or_said_to_be_assumed)
{
    /* --llamacpp wins over the build; the replay then runs the release given */
    json_t *o = audit_log_json(1, "correct.jsonl", "--llamacpp 0.4.0", 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "llamacpp 0.4.0");
    cr_expect_str_eq(json_string_value(json_object_get(o, "release_from")), "--llamacpp");
    json_decref(o);
    /* a log without a header names no build: the release is said to be assumed */
    char *text = sl_test_slurp(GOLD "llamacpp-0.7.0/correct.jsonl");
    cr_assert(text);
    char *body = strchr(text, '\n');
    cr_assert(body);
    char *path = sl_test_tmpfile(".jsonl", body + 1, strlen(body + 1));
    cr_assert(path);
    free(text);
    char args[256];
    snprintf(args, sizeof args, "--log %s", path);
    o = audit_json(args, 0);
    cr_expect(strstr(json_string_value(json_object_get(o, "release_from")), "assumed: "), "%s",
              json_string_value(json_object_get(o, "release_from")));
    json_decref(o);
    unlink(path);
    free(path);
}

Test(audit_log, a_build_before_b10355_replays_without_a_lone_candidate_draw)
{
    /* recorded: llama-server at llama.cpp b10353 (the build Ollama v0.32.8 and v0.32.9 pin, built from
     * a source archive: its build_info is b0-unknown), top-p 0.5 sent: pr15704's dist rule predicts
     * every step; v0.4.0's, which draws for a lone candidate, does not */
    const char *log = GOLD "llamacpp-b10353/top_p05.jsonl";
    char args[512];
    snprintf(args, sizeof args, "--log %s --llamacpp pr15704", log);
    json_t *o = audit_json(args, 0);
    cr_expect_eq(jint(o, "predicted.exact"), jint(o, "predicted.steps"));
    cr_expect_gt(jint(o, "predicted.steps"), 300);
    json_decref(o);
    snprintf(args, sizeof args, "--log %s", log);
    o = audit_json(args, 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "llamacpp 0.4.0");
    cr_expect(strstr(json_string_value(json_object_get(o, "release_from")), "assumed: build_info b0-unknown"));
    cr_expect_lt(jint(o, "predicted.exact"), jint(o, "predicted.steps") - 50);
    json_decref(o);
    /* a header naming such a build picks that line by itself (b9452 to b10354), and not outside it */
    static const struct {
        const char *build, *session;
    } builds[] = {{"b10353-f8def7fe1", "llamacpp pr15704"}, {"b9452", "llamacpp pr15704"},
                  {"b10355-dd1ea52", "llamacpp 0.4.0"}, {"b9451-x", "llamacpp 0.4.0"}, {"b10353x", "llamacpp 0.4.0"}};
    char *text = sl_test_slurp(log);
    cr_assert(text);
    for (size_t i = 0; i < sizeof builds / sizeof *builds; i++) {
        char *body = strchr(text, '\n');
        cr_assert(body);
        json_t *h = json_loadb(text, (size_t)(body - text), 0, NULL);
        cr_assert(h);
        json_object_set_new(json_object_get(h, "props"), "build_info", json_string(builds[i].build));
        char *hs = json_dumps(h, JSON_COMPACT);
        json_decref(h);
        size_t hl = strlen(hs), bl = strlen(body);
        char *all = malloc(hl + bl + 1);
        cr_assert(all);
        memcpy(all, hs, hl);
        memcpy(all + hl, body, bl + 1);
        free(hs);
        char *path = sl_test_tmpfile(".jsonl", all, hl + bl);
        free(all);
        cr_assert(path);
        snprintf(args, sizeof args, "--log %s", path);
        o = audit_json(args, 0);
        cr_expect_str_eq(json_string_value(json_object_get(o, "session")), builds[i].session, "build %s",
                         builds[i].build);
        json_decref(o);
        unlink(path);
        free(path);
    }
    free(text);
}

/* The first request sent beside another: step 3 drew its top entry (or the next), the values untouched. */
static json_t *another_draw_at_step_3(json_t *d, void *ctx)
{
    int *done = ctx;
    const char *purpose = json_string_value(json_object_get(d, "purpose"));
    if (!*done && purpose && !strcmp(purpose, "concurrent")) {
        json_t *resp = json_object_get(d, "response");
        json_t *st = json_array_get(json_object_get(resp, "completion_probabilities"), 3);
        json_int_t was = json_integer_value(json_object_get(st, "id"));
        json_t *top = json_object_get(st, "top_logprobs");
        json_int_t other = json_integer_value(json_object_get(json_array_get(top, 0), "id"));
        if (other == was)
            other = json_integer_value(json_object_get(json_array_get(top, 1), "id"));
        json_object_set_new(st, "id", json_integer(other));
        json_array_set_new(json_object_get(resp, "tokens"), 3, json_integer(other));
        *done = 1;
    }
    return d;
}

Test(audit_log, a_request_beside_another_says_why_its_tokens_differ)
{
    /* recorded: a default llama-server 0.4.0 (4 slots) batched seed 4307's request beside 4306's, and
     * its reported values moved (its batched kernels): another token at step 9, which the seeded replay
     * on the request's own values predicts, as it predicts every other step */
    json_t *o = audit_json("--log " GOLD "batched_values.jsonl", 1);
    cr_expect(json_is_false(json_object_get(o, "concurrency")));
    cr_expect(json_is_true(json_object_get(o, "seed_honoured")));
    cr_expect(json_is_true(json_object_get(o, "settings_honoured")));
    json_t *cf = json_object_get(json_object_get(o, "concurrent"), "first_unequal");
    cr_expect_str_eq(json_string_value(json_object_get(cf, "cause")), "values");
    cr_expect(json_real_value(json_object_get(cf, "values_moved")) > 1e-5);
    cr_expect_eq(jint(o, "concurrent.replayed.exact"), jint(o, "concurrent.replayed.steps"));
    cr_expect_gt(jint(o, "concurrent.replayed.steps"), 0);
    json_decref(o);
    /* crafted: a request beside another drew another token at step 3 with the very values its twin
     * had: the draw itself differed, and the replay on its values no longer predicts it */
    int done = 0;
    char *path = log_rewrite(GOLD "concurrent.jsonl", another_draw_at_step_3, &done);
    cr_assert(done);
    char args[256];
    snprintf(args, sizeof args, "--log %s", path);
    o = audit_json(args, 1);
    cf = json_object_get(json_object_get(o, "concurrent"), "first_unequal");
    cr_expect_str_eq(json_string_value(json_object_get(cf, "cause")), "sampler");
    cr_expect_eq(jint(o, "concurrent.first_unequal.step"), 3);
    cr_expect_lt(jint(o, "concurrent.replayed.exact"), jint(o, "concurrent.replayed.steps"));
    json_decref(o);
    unlink(path);
    free(path);
}

Test(audit_log, top_k_off_is_rejected_naming_each_token)
{
    EACH_SERVER {
        char path[256];
        snprintf(path, sizeof path, "%stopk_off.jsonl", servers[sv].dir);
        size_t steps, n40 = outside_top40(path, &steps);
        cr_assert_gt(n40, 10, "%s: too few tokens outside the top 40 to test with", path);
        json_t *o = audit_log_json(sv, "topk_off.jsonl", "", 1);
        cr_expect(json_is_false(json_object_get(o, "settings_honoured")));
        json_t *outs = json_object_get(o, "outside_kept");
        size_t by_topk = 0;
        for (size_t i = 0; i < json_array_size(outs); i++) {
            const char *stage = json_string_value(json_object_get(json_array_get(outs, i), "stage"));
            cr_assert(stage);
            by_topk += !strcmp(stage, "top-k");
            cr_expect(!strcmp(stage, "top-k") || !strcmp(stage, "top-p") || !strcmp(stage, "min-p") ||
                          !strcmp(stage, "temperature"), "stage %s", stage);
        }
        /* every token outside the top 40 is named, by top-k; the others by the later filters */
        cr_expect_eq(by_topk, n40, "%s: top-k named %zu, the log has %zu outside the top 40 of %zu", path, by_topk, n40,
                     steps);
        cr_expect_gt(json_array_size(outs), by_topk);
        json_decref(o);
    }
}

Test(audit_log, wrong_temperature_and_penalties_off_are_rejected)
{
    EACH_SERVER {
        /* temperature 1.2 served, 0.8 claimed: the distribution test, and the post-sampling fit */
        json_t *o = audit_log_json(sv, "temp12.jsonl", "", 1);
        cr_expect_lt(json_real_value(json_object_get(o, "p_value")), 0.01, "%s", servers[sv].release);
        json_t *tf = json_object_get(json_object_get(o, "post_sampling"), "temperature_furthest");
        cr_expect(json_is_real(tf) && fabs(json_real_value(tf) - 1.2) < 1e-3, "fitted temperature %g",
                  json_real_value(tf));
        json_decref(o);
        /* repeat_penalty 1.3 claimed, 1.0 served: the penalised tokens' post-sampling probabilities never moved */
        o = audit_log_json(sv, "penalties_off.jsonl", "", 1);
        cr_expect(json_is_false(json_object_get(o, "settings_honoured")));
        json_t *ps = json_object_get(o, "post_sampling");
        cr_expect_eq(jint(ps, "penalised_moved"), 0);
        cr_expect_gt(jint(ps, "penalised_unmoved"), 3);
        json_t *outs = json_object_get(o, "outside_kept");
        cr_expect_str_eq(json_string_value(json_object_get(json_array_get(outs, 0), "stage")), "penalties");
        json_decref(o);
        /* the same log claimed without the penalty: consistent */
        json_decref(audit_log_json(sv, "penalties_off.jsonl", "--repeat-penalty 1", 0));
        /* and the penalties-on server claimed without it: the fit sees the penalised tokens move */
        json_decref(audit_log_json(sv, "penalties_on.jsonl", "--repeat-penalty 1", 1));
    }
}

Test(audit_log, text_output_names_the_verdicts)
{
    sl_test_run r = sl_test_cli("audit --log " GOLD "topk_off.jsonl --trials 0");
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.out, "settings honoured: NO"), "%s", r.out);
    cr_expect(strstr(r.out, "top-k should have removed it"), "%s", r.out);
    cr_expect(strstr(r.out, "verdict: rejected"), "%s", r.out);
    sl_test_run_free(&r);
}

/* The response bodies of a recording's samples, one a line, as another recorder would keep them
 * (no header, so no claim and no route): a temporary file the caller frees and unlinks. */
static json_t *sample_response(json_t *line, void *ctx)
{
    (void)ctx;
    const char *purpose = json_string_value(json_object_get(line, "purpose"));
    return purpose && !strcmp(purpose, "sample") ? json_object_get(line, "response") : NULL;
}

static char *bodies_of(const char *path)
{
    return log_rewrite(path, sample_response, NULL);
}

static double jreal(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(json_object_get(o, a), b);
    cr_assert(json_is_number(v), "%s.%s is not a number", a, b);
    return json_number_value(v);
}

/* Ollama v0.32.10 on drives llama-server with api.DefaultOptions (top_p 0.9, min_p 0) and no
 * samplers field; its /v1/completions puts temperature and top_p 1.0 in when a body leaves them
 * out. llama-server 0.4.0 started with those values, Ollama's defaults claimed (record.py
 * --engine ollama-0.32, which names the engine in the header): consistent and predicted exactly
 * as --framework ollama --ollama 0.32. The same answers without a header, so with no claim of
 * their own: consistent under Ollama's defaults and its route's, rejected under llama-server's
 * (top-p 0.95, min-p 0.05, temperature 0.8), which is the power. */
Test(audit_log, ollama_defaults_are_the_claim_of_framework_ollama)
{
    static const char *const logs[] = {"ollama_defaults.jsonl", "ollama_openai.jsonl"};
    for (size_t i = 0; i < 2; i++) {
        char args[256];
        snprintf(args, sizeof args, "--log " GOLD "%s", logs[i]);
        json_t *o = audit_json(args, 0);
        cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "ollama 0.32", "%s", logs[i]);
        cr_expect_str_eq(json_string_value(json_object_get(o, "framework")), "ollama", "%s", logs[i]);
        cr_expect(json_is_true(json_object_get(o, "seed_honoured")), "%s", logs[i]);
        cr_expect(json_is_true(json_object_get(o, "settings_honoured")), "%s", logs[i]);
        cr_expect_eq(jint(o, "predicted.steps"), i ? 48 : 192, "%s", logs[i]);
        cr_expect_eq(jint(o, "predicted.exact"), jint(o, "predicted.steps"), "%s", logs[i]);
        cr_expect_eq(jreal(o, "settings", "top_p"), i ? 1.0 : 0.9, "%s", logs[i]);
        cr_expect_eq(jreal(o, "settings", "min_p"), 0.0, "%s", logs[i]);
        json_decref(o);
    }
    char *body = bodies_of(GOLD "ollama_defaults.jsonl"), args[512];
    snprintf(args, sizeof args, "--log %s --framework ollama --ollama 0.32", body);
    json_t *o = audit_json(args, 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "api")), "llama-server");
    cr_expect(json_is_true(json_object_get(o, "settings_honoured")));
    cr_expect_eq(jint(o, "predicted.exact"), 192);
    cr_expect_eq(jreal(o, "settings", "top_p"), 0.9);
    cr_expect_eq(jreal(o, "settings", "repetition_penalty"), 1.0);
    cr_expect_null(json_object_get(o, "route_defaults"), "/completion has no route defaults");
    json_decref(o);
    /* --ollama 0.30 claims repeat_penalty 1.1: the raw values cannot carry it, and nothing is predicted */
    snprintf(args, sizeof args, "--log %s --framework ollama --ollama 0.30", body);
    o = audit_json(args, 0);
    cr_expect_eq(jreal(o, "settings", "repetition_penalty"), 1.1);
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "ollama 0.30");
    json_decref(o);
    snprintf(args, sizeof args, "--log %s", body);
    o = audit_json(args, 1);
    cr_expect(json_is_false(json_object_get(o, "settings_honoured")), "llama-server's min-p 0.05 is not what ran");
    cr_expect_lt(jint(o, "predicted.exact"), 96);
    json_decref(o);
    unlink(body);
    free(body);
    body = bodies_of(GOLD "ollama_openai.jsonl");
    snprintf(args, sizeof args, "--log %s --framework ollama --ollama 0.32", body);
    o = audit_json(args, 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "api")), "openai");
    json_t *rd = json_object_get(o, "route_defaults");
    cr_expect_eq(json_array_size(rd), 2);
    cr_expect_str_eq(json_string_value(json_array_get(rd, 0)), "temperature");
    cr_expect_eq(jreal(o, "settings", "temperature"), 1.0);
    cr_expect_eq(jreal(o, "settings", "top_p"), 1.0);
    cr_expect(json_is_true(json_object_get(o, "settings_honoured")));
    json_decref(o);
    /* a temperature given is the claim's, not the route's (48 steps are too few to reject 0.8) */
    snprintf(args, sizeof args, "--log %s --framework ollama --ollama 0.32 --temperature 0.8", body);
    o = audit_json(args, 0);
    cr_expect_eq(json_array_size(json_object_get(o, "route_defaults")), 1);
    cr_expect_str_eq(json_string_value(json_array_get(json_object_get(o, "route_defaults"), 0)), "top_p");
    cr_expect_eq(jreal(o, "settings", "temperature"), 0.8);
    json_decref(o);
    snprintf(args, sizeof args, "--log %s", body);
    o = audit_json(args, 1);
    cr_expect(json_is_false(json_object_get(o, "settings_honoured")));
    json_decref(o);
    unlink(body);
    free(body);
}

/* A recording with each step's entries cut to the first n (and the bodies asking for n), as a
 * server with a cap answers (vLLM's 20, Ollama's 20): a temporary file the caller unlinks. */
static json_t *entries_cut(json_t *o, void *ctx)
{
    size_t n = *(const size_t *)ctx;
    json_t *b = json_object_get(o, "body");
    if (b) {
        json_object_set_new(b, "n_probs", json_integer((json_int_t)n));
        json_t *cp = json_object_get(json_object_get(o, "response"), "completion_probabilities");
        for (size_t t = 0; t < json_array_size(cp); t++)
            for (int k = 0; k < 2; k++) {
                json_t *top = json_object_get(json_array_get(cp, t), k ? "top_probs" : "top_logprobs");
                while (json_array_size(top) > n)
                    json_array_remove(top, json_array_size(top) - 1);
            }
    }
    return o;
}

static char *truncated_of(const char *path, size_t n)
{
    return log_rewrite(path, entries_cut, &n);
}

static int listed_outside(json_t *outs, json_t *e)
{
    for (size_t i = 0; i < json_array_size(outs); i++) {
        json_t *x = json_array_get(outs, i);
        if (json_equal(json_object_get(x, "request"), json_object_get(e, "request")) &&
            json_equal(json_object_get(x, "step"), json_object_get(e, "step")) &&
            json_equal(json_object_get(x, "token"), json_object_get(e, "token")))
            return 1;
    }
    return 0;
}

/* Fewer entries than the claimed top-k: a step still counts where top-p cuts inside the
 * entries whatever the unseen tokens weigh (each at most the smallest shown). On llama-server
 * b10353's answers with top-p 0.5 (40 entries, top-k 40) cut to 10, 20 and 30 entries: more
 * steps count as n grows, the correct claim stays consistent, and a claimed top-p of 0.3 names
 * only tokens the full answers name too (the cut is never guessed). */
Test(audit_log, a_kept_set_pinned_inside_fewer_entries_than_top_k_is_judged)
{
    const char *gold = GOLD "llamacpp-b10353/top_p05.jsonl";
    json_t *full = audit_json("--log data/golden/audit/llamacpp-b10353/top_p05.jsonl --llamacpp pr15704 --top-p 0.3", 1);
    json_t *full_out = json_object_get(full, "outside_kept");
    cr_assert_gt(json_array_size(full_out), 0);
    long last = 0;
    for (size_t n = 10; n <= 30; n += 10) {
        char *path = truncated_of(gold, n), args[512];
        cr_assert(path);
        snprintf(args, sizeof args, "--log %s --llamacpp pr15704", path);
        json_t *o = audit_json(args, 0);
        long ok = jint(o, "sufficed.steps");
        cr_expect(ok > last && ok < jint(o, "sufficed.of"), "n = %zu: %ld steps pinned (before %ld)", n, ok, last);
        last = ok;
        cr_expect(json_is_true(json_object_get(o, "settings_honoured")), "n = %zu", n);
        json_decref(o);
        snprintf(args, sizeof args, "--log %s --llamacpp pr15704 --top-p 0.3", path);
        o = audit_json(args, 1);
        json_t *outs = json_object_get(o, "outside_kept");
        cr_expect_gt(json_array_size(outs), 0, "n = %zu", n);
        for (size_t i = 0; i < json_array_size(outs); i++)
            cr_expect(listed_outside(full_out, json_array_get(outs, i)), "n = %zu: entry %zu is not the full answers'",
                      n, i);
        json_decref(o);
        unlink(path);
        free(path);
    }
    json_decref(full);
}

/* ---------------------------------------------------------------- refused input */

Test(audit_refused, malformed_logs_are_one_line_naming_file_and_line)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"", "no request in the log"},
        {"not json\n", "line 1, column 3: not JSON"},
        {"{\"completion_probabilities\":[{\"id\":1,\"logprob\":0.5,\"top_logprobs\":[]}]}\n",
         "line 1: token 0: \"logprob\" is above 0"},
        {"{\"completion_probabilities\":[{\"id\":-1,\"logprob\":-0.5}]}\n", "line 1: token 0: \"id\" is not a token id"},
        {"{\"completion_probabilities\":[{\"id\":1.5,\"logprob\":-0.5}]}\n", "\"id\" is not a token id"},
        {"{\"completion_probabilities\":[{\"id\":1,\"logprob\":-0.5,\"top_logprobs\":[{\"id\":1,\"logprob\":-0.5},"
         "{\"id\":1,\"logprob\":-0.7}]}]}\n",
         "a token listed twice"},
        {"{\"completion_probabilities\":[{\"id\":1,\"prob\":1.5,\"top_probs\":[]}]}\n", "\"prob\" is not a probability"},
        {"{\"completion_probabilities\":[{\"id\":1,\"logprob\":\"x\"}]}\n", "\"logprob\" is not a number"},
        {"{\"choices\":[{\"text\":\"a\"}]}\n", "choices[0] has no logprobs"},
        {"{\"completion_probabilities\":[{\"id\":1,\"logprob\":-0.5}]}\n{\"choices\":[{\"logprobs\":{}}]}\n",
         "line 2: a response in another form than the first's"},
        {"{\"samplab_audit\":1,\"claim\":{\"framework\":3}}\n{\"completion_probabilities\":[{\"id\":1,\"logprob\":-0.5}]}\n",
         "the log's claim: framework or ollama is not a text"},
        {"{\"choices\":[{\"logprobs\":{}},{\"logprobs\":{}}]}\n", "several choices (n > 1): not modelled"},
        {"{\"error\":{\"message\":\"model not found\"}}\n", "the server answered an error: model not found"},
        {"[1,2]\n", "line 1: not a JSON object"},
        {"{\"samplab_audit\":1}\n{\"samplab_audit\":1}\n", "line 2: a second header"},
        {"{\"samplab_audit\":2}\n", "only version 1 is read"},
        {"{\"samplab_audit\":1}\n{\"request\":0,\"purpose\":\"repeat\",\"same_as\":5,\"body\":{},\"response\":{}}\n",
         "line 2: \"same_as\" names no earlier request"},
        {"{\"samplab_audit\":1}\n{\"request\":0,\"body\":{},\"status\":500,\"response\":{}}\n",
         "line 2: the server answered status 500"},
        {"{\"samplab_audit\":1,\"claim\":{\"dry_multiplier\":0.8}}\n"
         "{\"completion_probabilities\":[{\"id\":1,\"logprob\":-0.5}]}\n",
         "dry_multiplier is not modelled by samplab audit"},
        {"{\"choices\":[{\"logprobs\":{\"tokens\":[\"a\"],\"token_logprobs\":[]}}]}\n",
         "no tokens and token_logprobs lists of one length"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *p = sl_test_tmpfile(".jsonl", cases[i].text, strlen(cases[i].text));
        cr_assert(p);
        char args[512], want[512];
        snprintf(args, sizeof args, "audit --log %s", p);
        snprintf(want, sizeof want, "%s", cases[i].want);
        sl_test_expect_refused(args, want);
        sl_test_run r = sl_test_cli(args);
        cr_expect(strstr(r.err, p), "case %zu: the message does not name the file: %s", i, r.err);
        sl_test_run_free(&r);
        unlink(p);
        free(p);
    }
    sl_test_expect_refused("audit --log /nonexistent/audit.jsonl", "/nonexistent/audit.jsonl");
}

Test(audit_refused, settings_and_usage_not_modelled_are_named)
{
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --dry-multiplier 0.8",
                           "DRY (--dry-multiplier): not modelled by samplab audit");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --mirostat 2", "--mirostat 2");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --framework hf",
                           "another engine's sampler is not modelled by samplab audit");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --framework ollama", "needs --ollama 0.30");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --framework ollama --ollama 0.24",
                           "0.24, its own Go sampler, is not modelled by samplab audit");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --framework ollama --ollama 0.32 --llamacpp 0.4.0",
                           "the Ollama line names the llama.cpp builds");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --framework ollama --ollama 0.32 --samplers top_k",
                           "--samplers with --framework ollama: Ollama sends llama-server no samplers field");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --seed 3", "the log holds the requests");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --server http://127.0.0.1:1",
                           "exactly one of --server URL and --log FILE");
    sl_test_expect_refused("audit --server http://127.0.0.1:1 --seed 1 --n-predict 4",
                           "exactly one of --prompt TEXT and --prompt-ids IDS");
    sl_test_expect_refused("audit --server http://127.0.0.1:1 --prompt x --n-predict 4", "--seed S is required");
    sl_test_expect_refused("audit --server http://127.0.0.1:1 --prompt x --seed 1", "--n-predict T");
    sl_test_expect_refused("audit --server ftp://127.0.0.1:1 --prompt x --seed 1 --n-predict 4",
                           "an http:// or https:// URL");
    sl_test_expect_refused("audit --server http://127.0.0.1:1 --prompt x --seed 1 --n-predict 4 --send most",
                           "--send most: all, seed or none");
    sl_test_expect_refused("audit --server http://127.0.0.1:1 --prompt x --seed -3 --n-predict 4",
                           "--seed -3: llama-server's seed");
    sl_test_expect_refused("audit --server http://127.0.0.1:1 --prompt x --seed 1 --n-predict 4 --requests 4 "
                           "--concurrent 3", "--concurrent 3: an even number");
    sl_test_expect_refused("audit --log " GOLD "correct.jsonl --logits 1,2", "--logits");
}

/* ---------------------------------------------------------------- against a stand-in server */

typedef struct fake {
    pid_t pid;
    char url[64];
    char portfile[64];
} fake;

static fake fake_start(const char *mode, const char *log)
{
    fake f;
    snprintf(f.portfile, sizeof f.portfile, "/tmp/sl-fake-%d-%s", (int)getpid(), mode);
    unlink(f.portfile);
    f.pid = fork();
    cr_assert(f.pid >= 0);
    if (f.pid == 0) {
        unsetenv("LD_PRELOAD");
        /* not the test's own streams: a server left behind must not hold them open */
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execl("/usr/bin/python3", "python3", "tests/audit/fake_server.py", mode, f.portfile, log, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < 200; i++) {
        char *p = sl_test_slurp(f.portfile);
        if (p) {
            snprintf(f.url, sizeof f.url, "http://127.0.0.1:%s", p);
            free(p);
            return f;
        }
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    kill(f.pid, SIGKILL);
    cr_assert_fail("tests/audit/fake_server.py %s did not start", mode);
    return f;
}

static void fake_stop(fake *f)
{
    kill(f->pid, SIGTERM);
    waitpid(f->pid, NULL, 0);
    unlink(f->portfile);
}

Test(audit_server, a_replayed_llama_server_is_audited_end_to_end)
{
    fake f = fake_start("replay", GOLD "correct.jsonl");
    char dir[] = "/tmp/sl-audit-out-XXXXXX";
    cr_assert(mkdtemp(dir));
    char args[1024];
    /* the recorded run's own requests: seeds 1000.., prompt, n_predict 8, every setting sent */
    snprintf(args, sizeof args, "--server %s/ --prompt \" ba ko mi nu te\" --seed 1000 --n-predict 8 --requests 24 "
             "--concurrent 0 --out %s", f.url, dir);
    json_t *o = audit_json(args, 0);
    cr_expect(json_is_true(json_object_get(o, "seed_honoured")));
    cr_expect(json_is_true(json_object_get(o, "settings_honoured")));
    cr_expect_eq(jint(o, "requests"), 48);
    cr_expect_eq(jint(o, "predicted.exact"), 24 * 8);
    json_decref(o);
    /* what was sent and answered is in DIR/audit.jsonl, which --log judges the same way */
    char path[512];
    snprintf(path, sizeof path, "%s/audit.jsonl", dir);
    char *rec = sl_test_slurp(path);
    cr_assert(rec, "no %s", path);
    size_t lines = 0;
    for (char *c = rec; *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, 49, "%s: %zu lines", path, lines);
    cr_expect(strstr(rec, "\"n_probs\":40"), "the body asks for the claimed top-k's worth of entries");
    free(rec);
    snprintf(args, sizeof args, "--log %s", path);
    o = audit_json(args, 0);
    cr_expect_eq(jint(o, "predicted.exact"), 24 * 8);
    json_decref(o);
    fake_stop(&f);
    /* a server that draws its own randomness: each repeat answers another seed's tokens */
    f = fake_start("ignore-seed", GOLD "correct.jsonl");
    snprintf(args, sizeof args, "--server %s --prompt \" ba ko mi nu te\" --seed 1000 --n-predict 8 --requests 24 "
             "--concurrent 0", f.url);
    o = audit_json(args, 1);
    cr_expect(json_is_false(json_object_get(o, "seed_honoured")));
    json_decref(o);
    fake_stop(&f);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_expect_eq(system(args), 0);
}

Test(audit_server, failing_servers_are_one_line_and_exit_2)
{
    static const struct {
        const char *mode, *want;
    } cases[] = {
        {"garbage", "/props: the answer is not JSON"},
        {"error", "/completion: status 500: the model is not loaded"},
        {"cut", "/completion: transfer closed with"},
        {"hang", "timed out"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fake f = fake_start(cases[i].mode, NULL);
        char dir[] = "/tmp/sl-audit-fail-XXXXXX";
        cr_assert(mkdtemp(dir));
        char args[1024];
        snprintf(args, sizeof args, "audit --server %s --prompt x --seed 5 --n-predict 4 --timeout 2 --out %s", f.url,
                 dir);
        sl_test_expect_refused(args, cases[i].want);
        fake_stop(&f);
        /* what came before the failure is kept: the header, and the failed request's line with its error */
        char path[512];
        snprintf(path, sizeof path, "%s/audit.jsonl", dir);
        char *rec = sl_test_slurp(path);
        cr_expect(rec && strstr(rec, "\"samplab_audit\":1"), "%s: %s", cases[i].mode, path);
        if (!strcmp(cases[i].mode, "error"))
            cr_expect(rec && strstr(rec, "\"status\":500") && strstr(rec, "the model is not loaded"), "%s", rec);
        free(rec);
        snprintf(args, sizeof args, "rm -rf %s", dir);
        cr_expect_eq(system(args), 0);
    }
    /* no server at all: a port nobody listens on */
    sl_test_expect_refused("audit --server http://127.0.0.1:9 --prompt x --seed 5 --n-predict 4",
                           "Couldn't connect to server");
}

/* Ollama's own route, against tests/audit/fake_server.py's Ollama (its /api/version and
 * /api/generate as Ollama's source gives them, answering what llama-server 0.4.0 drew with
 * the values Ollama sends: ollama_defaults.jsonl). The line comes from the version; Ollama's
 * at most 20 top_logprobs pin no kept set of its default top-k 40 on the flat test model, so
 * only the seed is judged there, and a claimed top-k of 20 that the server does not apply is
 * caught. */
static json_t *audit_ollama(const char *mode, const char *version, const char *more, int want_status)
{
    setenv("OLLAMA_VERSION", version, 1);
    fake f = fake_start(mode, GOLD "ollama_defaults.jsonl");
    unsetenv("OLLAMA_VERSION");
    char args[1024];
    snprintf(args, sizeof args, "--server %s --api ollama --model tiny --prompt \" ba ko mi nu te\" --seed 8000 "
             "--n-predict 8 --requests 24 --concurrent 0 %s", f.url, more);
    json_t *o = audit_json(args, want_status);
    fake_stop(&f);
    return o;
}

Test(audit_server, ollama_api_generate_takes_its_line_from_api_version)
{
    char dir[] = "/tmp/sl-audit-ollama-XXXXXX";
    cr_assert(mkdtemp(dir));
    char more[700];
    snprintf(more, sizeof more, "--send seed --out %s", dir);
    json_t *o = audit_ollama("ollama", "0.32.10", more, 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "api")), "ollama");
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "ollama 0.32");
    cr_expect(strstr(json_string_value(json_object_get(o, "release_from")), "/api/version 0.32.10"));
    cr_expect(json_is_true(json_object_get(o, "seed_honoured")));
    cr_expect(json_is_null(json_object_get(o, "settings_honoured")),
              "20 entries of the flat test model pin no top-p 0.9 cut of a top-k of 40");
    cr_expect_eq(jint(o, "sufficed.steps"), 0);
    cr_expect_eq(jreal(o, "settings", "top_p"), 0.9);
    json_decref(o);
    char path[600];
    snprintf(path, sizeof path, "%s/audit.jsonl", dir);
    char *rec = sl_test_slurp(path);
    cr_assert(rec, "no %s", path);
    cr_expect(strstr(rec, "\"route\":\"/api/generate\"") && strstr(rec, "\"ollama_version\":\"0.32.10\""));
    cr_expect(strstr(rec, "\"top_logprobs\":20") && strstr(rec, "\"options\":{\"num_predict\":8,\"seed\":8000}"),
              "--send seed: only the seed and the length go into the options");
    free(rec);
    /* the recording judged again: the engine and the version from its header */
    snprintf(more, sizeof more, "--log %s", path);
    o = audit_json(more, 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "ollama 0.32");
    cr_expect(json_is_true(json_object_get(o, "seed_honoured")));
    json_decref(o);
    snprintf(more, sizeof more, "rm -rf %s", dir);
    cr_expect_eq(system(more), 0);
    /* the version picks the line; before v0.30 is refused, after the last one read is said to be assumed */
    o = audit_ollama("ollama", "0.31.2", "--send seed", 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "ollama 0.30");
    cr_expect_eq(jreal(o, "settings", "repetition_penalty"), 1.1);
    json_decref(o);
    o = audit_ollama("ollama", "0.34.1", "--send seed", 0);
    cr_expect(strstr(json_string_value(json_object_get(o, "release_from")), "assumed --ollama 0.32"));
    json_decref(o);
    o = audit_ollama("ollama", "0.31.2", "--send seed --ollama 0.32", 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "ollama 0.32", "--ollama given wins");
    json_decref(o);
    setenv("OLLAMA_VERSION", "0.29.1", 1);
    fake f = fake_start("ollama", GOLD "ollama_defaults.jsonl");
    unsetenv("OLLAMA_VERSION");
    snprintf(more, sizeof more, "audit --server %s --api ollama --model tiny --prompt x --seed 1 --n-predict 4", f.url);
    sl_test_expect_refused(more, "Ollama 0.29.1: before v0.30.0 Ollama sampled in its own Go engines");
    fake_stop(&f);
    setenv("OLLAMA_VERSION", "dev", 1);
    f = fake_start("ollama", GOLD "ollama_defaults.jsonl");
    unsetenv("OLLAMA_VERSION");
    snprintf(more, sizeof more, "audit --server %s --api ollama --model tiny --prompt x --seed 1 --n-predict 4", f.url);
    sl_test_expect_refused(more, "Ollama's version 'dev' is not a release number: --ollama 0.30");
    fake_stop(&f);
    /* a server that draws its own randomness, and one that ignores a top-k sent in the options */
    o = audit_ollama("ollama-ignore-seed", "0.32.10", "--send seed", 1);
    cr_expect(json_is_false(json_object_get(o, "seed_honoured")));
    json_decref(o);
    o = audit_ollama("ollama", "0.32.10", "--top-k 20", 1);
    cr_expect(json_is_false(json_object_get(o, "settings_honoured")));
    cr_expect_gt(json_array_size(json_object_get(o, "outside_kept")), 0);
    json_decref(o);
}

Test(audit_refused, ollama_api_usage_not_modelled_is_named)
{
    const char *base = "audit --server http://127.0.0.1:9 --api ollama --prompt x --seed 1 --n-predict 4";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s --framework llamacpp --model m", base);
    sl_test_expect_refused(cmd, "--api ollama with --framework llamacpp");
    sl_test_expect_refused("audit --server http://127.0.0.1:9 --api ollam --prompt x --seed 1 --n-predict 4",
                           "--api ollam: llama-server, openai or ollama");
    snprintf(cmd, sizeof cmd, "%s --ollama 0.32", base);
    sl_test_expect_refused(cmd, "--api ollama needs --model NAME");
    snprintf(cmd, sizeof cmd, "audit --server http://127.0.0.1:9 --api ollama --prompt-ids 1,2 --seed 1 "
             "--n-predict 4 --model m --ollama 0.32");
    sl_test_expect_refused(cmd, "Ollama's /api/generate takes the prompt as text");
    snprintf(cmd, sizeof cmd, "%s --model m --ollama 0.32 --n-probs 40", base);
    sl_test_expect_refused(cmd, "--n-probs 40 with --api ollama: Ollama answers 1 to 20 top_logprobs");
    /* without --ollama the version is asked for: no server, one line */
    snprintf(cmd, sizeof cmd, "%s --model m", base);
    sl_test_expect_refused(cmd, "/api/version");
    /* Ollama's answers alone name no version: the line is asked for, then they are judged */
    static const char body[] = "{\"model\":\"m\",\"done\":true,\"logprobs\":[{\"token\":\"a\",\"logprob\":-0.5,"
                               "\"top_logprobs\":[{\"token\":\"a\",\"logprob\":-0.5}]}]}\n";
    char *path = sl_test_tmpfile(".jsonl", body, sizeof body - 1);
    cr_assert(path);
    snprintf(cmd, sizeof cmd, "audit --log %s", path);
    sl_test_expect_refused(cmd, "no Ollama version known: --ollama 0.30");
    snprintf(cmd, sizeof cmd, "--log %s --ollama 0.32", path);
    json_t *o = audit_json(cmd, 0);
    cr_expect_str_eq(json_string_value(json_object_get(o, "api")), "ollama");
    cr_expect_str_eq(json_string_value(json_object_get(o, "session")), "ollama 0.32");
    /* tokens named by text: no replay, and the text and JSON say that is why */
    const char *why = json_string_value(json_object_get(o, "predicted_why"));
    cr_expect(why && strstr(why, "tokens by text"), "%s", why ? why : "none");
    json_decref(o);
    snprintf(cmd, sizeof cmd, "audit --log %s --ollama 0.32", path);
    sl_test_run r = sl_test_cli(cmd);
    cr_expect(strstr(r.out, "predicted: none (the log names its tokens by text"), "%s%s", r.out, r.err);
    sl_test_run_free(&r);
    static const char none[] = "{\"model\":\"m\",\"done\":true,\"response\":\"a\"}\n";
    char *p2 = sl_test_tmpfile(".jsonl", none, sizeof none - 1);
    cr_assert(p2);
    snprintf(cmd, sizeof cmd, "audit --log %s --ollama 0.32", p2);
    sl_test_expect_refused(cmd, "line 1: the Ollama answer has no logprobs");
    unlink(path);
    unlink(p2);
    free(path);
    free(p2);
}
