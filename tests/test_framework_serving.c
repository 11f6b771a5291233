/* test_framework_serving.c — batches of requests as vLLM and TGI draw them, against
 * their own sampler code run in torch 2.14.1 (data/golden/current/vllm_batch.txt and
 * tgi_batch.txt, written by analysis/golden/current/vllm_batch.py and tgi_batch.py from
 * vLLM's and TGI's source at the commits their headers name). Every record is
 * replayed through the C API (sl_api_draw) and the command line (draw --json), with
 * 0 differences in the tokens of every row at every step and in the words each row's
 * generator (its own, or the global one) had spent after it. Each row's logits are
 * regenerated with the golden's generator (golden_gen.h, serving_cases.py). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>

#include "golden_gen.h"
#include "helpers.h"
#include "samplab.h"

#define MAXB 8

typedef struct rec {
    char id[64], kind[16], seeds[256], sets[512], context[128];
    size_t V, B, n;
    uint64_t gen;
    long global;
    long tokens[MAXB][8];
    long long words[MAXB][8];
} rec;

/* "a,b,c|d,e,f" into out[b][t] */
static void rows_of(const char *text, size_t B, size_t n, long long out[MAXB][8])
{
    const char *c = text;
    for (size_t b = 0; b < B; b++)
        for (size_t t = 0; t < n; t++) {
            char *end;
            out[b][t] = strtoll(c, &end, 10);
            cr_assert(end != c, "bad row text at '%s'", c);
            c = *end ? end + 1 : end;
        }
}

static const char *field(const char *line, const char *key, char *buf, size_t cap)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    size_t n = strcspn(p, " \n");
    snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
    return buf;
}

static int parse(const char *line, rec *r)
{
    memset(r, 0, sizeof *r);
    char v[4096];
    if (sscanf(line, "case %63s", r->id) != 1)
        return 0;
    r->V = strtoul(field(line, "V", v, sizeof v), NULL, 10);
    r->B = strtoul(field(line, "B", v, sizeof v), NULL, 10);
    r->n = strtoul(field(line, "n", v, sizeof v), NULL, 10);
    r->gen = strtoull(field(line, "gen", v, sizeof v), NULL, 10);
    r->global = field(line, "global", v, sizeof v) ? strtol(v, NULL, 10) : -1;
    field(line, "kind", r->kind, sizeof r->kind);
    field(line, "seeds", r->seeds, sizeof r->seeds);
    field(line, "context", r->context, sizeof r->context);
    /* the settings, as options */
    static const char *const keys[][2] = {{"temperature", "temperature"}, {"top_k", "top_k"}, {"top_p", "top_p"},
                                          {"typical_p", "typical"}, {"repetition_penalty", "repetition_penalty"}};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (field(line, keys[i][0], v, sizeof v)) {
            size_t k = strlen(r->sets);
            snprintf(r->sets + k, sizeof r->sets - k, " %s=%.64s", keys[i][1], v);
        }
    cr_assert(r->B >= 1 && r->B <= MAXB && r->n >= 1 && r->n <= 8, "%s: B %zu n %zu", r->id, r->B, r->n);
    long long t[MAXB][8];
    rows_of(field(line, "tokens", v, sizeof v), r->B, r->n, t);
    for (size_t b = 0; b < r->B; b++)
        for (size_t s = 0; s < r->n; s++)
            r->tokens[b][s] = (long)t[b][s];
    rows_of(field(line, "words", v, sizeof v), r->B, r->n, r->words);
    return 1;
}

/* The batch's logits as a .npy (1-D for one row, as --seeds S draws a vector) */
static char *batch_npy(const rec *r)
{
    float *x = malloc(r->B * r->V * sizeof *x);
    for (size_t b = 0; b < r->B; b++) {
        float *row = x + b * r->V;
        gg_fill_logits(r->gen + b, r->V, row);
        for (size_t i = 0; i < r->V; i++) {
            if (!strcmp(r->kind, "ties"))
                row[i] = floorf(row[i]);
            else if (!strcmp(r->kind, "neginf") && i % 3 == 1)
                row[i] = -INFINITY;
        }
    }
    char *path = sl_test_npy_f32(x, r->B == 1 ? 0 : r->B, r->V);
    free(x);
    return path;
}

/* The JSON of one draw against the record: tokens[b][t] and words[b][t] (one row: the
 * flat tokens and the generator's words at the end). */
static void expect_json(const rec *r, const char *fw, const char *how, const char *text, size_t *diffs)
{
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    cr_assert_not_null(o, "%s %s %s: not JSON: %s", fw, r->id, how, text);
    json_t *tk = json_object_get(o, "tokens");
    for (size_t b = 0; b < r->B; b++)
        for (size_t t = 0; t < r->n; t++) {
            json_t *v = r->B == 1 ? json_array_get(tk, t) : json_array_get(json_array_get(tk, b), t);
            long got = (long)json_integer_value(v);
            if (!v || got != r->tokens[b][t]) {
                (*diffs)++;
                cr_log_error("%s %s %s: row %zu step %zu: token %ld, golden %ld", fw, r->id, how, b, t, got,
                             r->tokens[b][t]);
            }
            long long w = r->B == 1 ? (t + 1 == r->n ? json_integer_value(json_object_get(json_object_get(o, "rng"),
                                                                                          "words"))
                                                     : r->words[b][t])
                                    : json_integer_value(json_array_get(json_array_get(json_object_get(o, "words"), b), t));
            if (w != r->words[b][t]) {
                (*diffs)++;
                cr_log_error("%s %s %s: row %zu step %zu: words %lld, golden %lld", fw, r->id, how, b, t, w,
                             r->words[b][t]);
            }
        }
    json_decref(o);
}

static void replay_file(const char *path, const char *fw, size_t want)
{
    char *text = sl_test_slurp(path);
    cr_assert_not_null(text, "%s: run analysis/golden/current/run.sh", path);
    size_t n = 0, diffs = 0, cli = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        rec r;
        if (!parse(line, &r))
            continue;
        char *npy = batch_npy(&r);
        cr_assert_not_null(npy);
        /* the C API */
        sl_api_settings *s = sl_api_settings_new("draw");
        sl_error err;
        char nbuf[32];
        cr_assert_eq(sl_api_settings_set(s, "framework", fw, &err), SL_OK, "%s", err.msg);
        cr_assert_eq(sl_api_settings_set(s, "row_seeds", r.seeds, &err), SL_OK, "%s", err.msg);
        snprintf(nbuf, sizeof nbuf, "%zu", r.n);
        cr_assert_eq(sl_api_settings_set(s, "n", nbuf, &err), SL_OK, "%s", err.msg);
        cr_assert_eq(sl_api_settings_set(s, "cpu", "avx2", &err), SL_OK, "%s", err.msg);
        if (r.global >= 0) {
            snprintf(nbuf, sizeof nbuf, "%ld", r.global);
            cr_assert_eq(sl_api_settings_set(s, "seed", nbuf, &err), SL_OK, "%s", err.msg);
        }
        if (r.context[0])
            cr_assert_eq(sl_api_settings_set(s, "context", r.context, &err), SL_OK, "%s", err.msg);
        char opts[1024] = "";
        /* each key=value of the settings */
        char sets[512], *save = NULL;
        snprintf(sets, sizeof sets, "%s", r.sets);
        for (char *kv = strtok_r(sets, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(kv, '=');
            *eq = '\0';
            cr_assert_eq(sl_api_settings_set(s, kv, eq + 1, &err), SL_OK, "%s %s: %s", fw, r.id, err.msg);
            size_t k = strlen(opts);
            snprintf(opts + k, sizeof opts - k, " --%s %s", kv, eq + 1);
            for (char *c = opts + k + 3; *c && *c != ' '; c++)
                if (*c == '_')
                    *c = '-';
        }
        sl_api_src src = {npy, NULL, -1, NULL, 0, "--logits", NULL, 0};
        char *json = NULL;
        int rc = sl_api_draw(&src, 1, s, &json, &err);
        cr_assert_eq(rc, SL_OK, "%s %s: %s", fw, r.id, err.msg);
        expect_json(&r, fw, "api", json, &diffs);
        sl_api_free(json);
        sl_api_settings_free(s);
        /* the command line */
        char cmd[2048];
        snprintf(cmd, sizeof cmd, "draw --framework %s --logits %s --seeds %s --n %zu --cpu avx2%s%s%s%s%s --json", fw,
                 npy, r.seeds, r.n, r.global >= 0 ? " --seed " : "", r.global >= 0 ? nbuf : "",
                 r.context[0] ? " --context " : "", r.context, opts);
        sl_test_run run = sl_test_cli(cmd);
        cr_assert_eq(run.status, 0, "%s: %s", cmd, run.err);
        expect_json(&r, fw, "cli", run.out, &diffs);
        cli++;
        sl_test_run_free(&run);
        unlink(npy);
        free(npy);
        n++;
    }
    free(text);
    cr_log_info("%s: %zu batches (%zu through the command line) replayed, %zu differences", path, n, cli, diffs);
    cr_assert_eq(diffs, 0, "%s: %zu differences", path, diffs);
    cr_assert_geq(n, want, "%s: %zu records", path, n);
}

Test(serving, vllm_batches_equal_vllms_own_sampler, .timeout = 600)
{
    replay_file("data/golden/current/vllm_batch.txt", "vllm", 250);
}

Test(serving, tgi_batches_equal_tgis_own_chooser, .timeout = 600)
{
    replay_file("data/golden/current/tgi_batch.txt", "tgi", 110);
}

/* What a batch refuses, one line, exit 2, stdout empty: a row count other than the list's,
 * --counts and --row (a batch is every row), a none for TGI (its router seeds such a request
 * at random), top_k above V for TGI (its warper fails there), TGI's settings samplab does not
 * model named as TGI names them, a framework with one generator. */
Test(serving, batch_refusals)
{
    static const char *const bad[][2] = {
        {"draw --framework vllm --logits data/batch3.txt --seeds 7,none", "--seeds gives 2 entries for 3 rows (one per row)"},
        {"draw --framework vllm --logits data/batch3.txt --seeds 7,none,9 --counts", "--counts counts the draws of one row: a [3, 4] batch has 3"},
        {"draw --framework tgi --logits data/batch3.txt --seeds 7,none,9",
         "--seeds: entry 2 is none: TGI's router gives a request without a seed a random one"},
        {"draw --framework tgi --logits data/batch3.txt --seeds 7,8,9 --top-k 5",
         "tgi: top_k 5 is more than the 4 logits"},
        {"draw --framework tgi --logits data/batch3.txt --seeds 7,8,9 --top-p 0", "`top_p` must be > 0.0 and < 1.0"},
        {"draw --framework tgi --logits data/batch3.txt --seeds 7,8,9 --min-p 0.1",
         "--min-p is not an option of framework tgi"},
        {"draw --framework tgi --logits data/batch3.txt --seeds 7,8,9 --frequency-penalty 0.5 --context 1",
         "--frequency-penalty: TGI's frequency_penalty (HeterogeneousFrequencyPenaltyLogitsProcessor) is not "
         "modelled by samplab for framework tgi"},
        {"replay --framework tgi --logits data/batch3.txt --logit-bias 1+2",
         "--logit-bias: TGI's chat logit_bias, which v3.3.7 takes and ignores"},
        {"draw --framework hf --logits data/batch3.txt --seeds 7,8,9", "one generator per batch (hf"},
        {"draw --framework vllm --probs data/batch3.txt --seeds 7,8,9", "--probs is not an option of framework vllm"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        sl_test_expect_refused(bad[i][0], bad[i][1]);
}

/* The batch's words as vLLM spends them: all seeded, the global generator draws nothing;
 * all greedy (temperature 0), no generator draws; one unseeded row, the global fill covers
 * every row (2 words an entry) while each seeded row spends 2V of its own. */
Test(serving, vllm_global_words)
{
    static const struct {
        const char *args;
        long long global, total;
    } c[] = {
        {"--seeds 7,8,9 --n 2", 0, 3 * 2 * 2 * 4},
        {"--seeds 7,none,9 --n 2", 2 * 2 * 3 * 4, 2 * 2 * 3 * 4 + 2 * 2 * 2 * 4},
        {"--seeds none,none,none --temperature 0 --n 2", 0, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "draw --framework vllm --logits data/batch3.txt %s --json", c[i].args);
        sl_test_run r = sl_test_cli(cmd);
        cr_assert_eq(r.status, 0, "%s: %s", cmd, r.err);
        json_t *o = json_loads(r.out, 0, NULL);
        cr_assert_not_null(o, "%s", r.out);
        json_t *rng = json_object_get(o, "rng");
        cr_expect_eq(json_integer_value(json_object_get(rng, "global_words")), c[i].global, "%s: %s", cmd, r.out);
        cr_expect_eq(json_integer_value(json_object_get(rng, "words")), c[i].total, "%s: %s", cmd, r.out);
        json_decref(o);
        sl_test_run_free(&r);
    }
}

/* TGI's top-p threshold, 1 - float32(p) in float32, against transformers' float32(1 - p):
 * the records where TGI's HeterogeneousTopPLogitsWarper and transformers' TopPLogitsWarper
 * keep different sets (tgi_batch.txt's edge lines), through the pipelines of both (C API)
 * and `samplab pipeline` (command line). */
Test(serving, tgi_top_p_threshold_is_tgis)
{
    char *text = sl_test_slurp("data/golden/current/tgi_batch.txt");
    cr_assert_not_null(text);
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "edge ", 5))
            continue;
        char lg[128], tp[64], k1[16], k2[16];
        cr_assert(field(line, "logits", lg, sizeof lg) && field(line, "top_p", tp, sizeof tp) &&
                  field(line, "kept", k1, sizeof k1) && field(line, "hf_kept", k2, sizeof k2), "%s", line);
        double d = strtod(strchr(lg, ',') + 1, NULL);
        sl_vec v;
        sl_error err;
        cr_assert_eq(sl_base_vec_alloc(&v, 2, "edge", &err), SL_OK);
        v.d[0] = 0;
        v.f[0] = 0;
        v.d[1] = (float)d;
        v.f[1] = (float)d;
        static const struct {
            const sl_logits_pipeline_type *t;
            const char *name;
            int hf;
        } fw[] = {{&sl_logits_pipeline_tgi_type, "tgi", 0}, {&sl_logits_pipeline_hf_type, "hf", 1}};
        for (size_t i = 0; i < 2; i++) {
            sl_logits_cfg c;
            memset(&c, 0, sizeof c);
            c.has_top_p = 1;
            c.top_p = strtod(tp, NULL);
            c.cpu = SL_CPU_AVX2;
            sl_logits_result r;
            cr_assert_eq(sl_logits_pipeline_run(fw[i].t, &v, &c, &r, &err), SL_OK, "%s", err.msg);
            cr_expect_eq((long)r.n_kept, strtol(fw[i].hf ? k2 : k1, NULL, 10), "%s: %s keeps %zu", line, fw[i].name,
                         r.n_kept);
            sl_logits_result_free(&r);
            char cmd[256];
            snprintf(cmd, sizeof cmd, "pipeline --framework %s --logits %s --top-p %s --cpu avx2 --json", fw[i].name,
                     lg, tp);
            sl_test_run run = sl_test_cli(cmd);
            json_t *o = json_loads(run.out, 0, NULL);
            cr_assert_not_null(o, "%s: %s %s", cmd, run.out, run.err);
            cr_expect_eq((long)json_array_size(json_object_get(o, "kept")), strtol(fw[i].hf ? k2 : k1, NULL, 10),
                         "%s: %s", cmd, run.out);
            json_decref(o);
            sl_test_run_free(&run);
        }
        sl_base_vec_free(&v);
        n++;
    }
    free(text);
    cr_assert_geq(n, 3, "%zu edge records", n);
}
