/* test_framework_sglang.c — `--framework sglang` against SGLang's own functions:
 * every record of data/golden/current/sglang.txt (analysis/golden/current/
 * sglang_golden.py: sampler.py's top_k_top_p_min_p_sampling_from_probs_torch,
 * multinomial_with_seed and sampling_from_probs_torch, murmur_hash.py's CPU path,
 * run eagerly in torch 2.14.1 on the AVX-512 kernel, for the 0.5.23 and 0.5.12
 * lines) replayed row by row through a samplab session (the C API) and through
 * `samplab replay` (the command line), tokens compared step by step. The logits are
 * rebuilt here from the script's integer generator and checked by their FNV-1a hash.
 * The hash records are SGLang's own test vectors (test_murmur_hash32_cpu_known_values),
 * 60 more triples and issue #25106's UINT32_MAX triple. Then the refusals. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

#define GOLDEN "data/golden/current/sglang.txt"
#define MAX_B 8
#define MAX_T 4

/* make_logits of sglang_golden.py (a kind's trailing '*' is the record's, not the generator's) */
static void make_logits(const char *kind, uint64_t gseed, size_t V, float *out)
{
    for (size_t i = 0; i < V; i++) {
        uint64_t z = gseed * 0x100000001B3ull + i + 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        uint64_t h = z ^ (z >> 31);
        double u = (double)(h >> 40) * 0x1p-24, x;
        if (!strncmp(kind, "rand", 4))
            x = u * 20.0 - 10.0;
        else if (!strncmp(kind, "peaked", 6))
            x = u * 4.0 - 2.0;
        else if (!strncmp(kind, "ties", 4))
            x = (double)(h % 4);
        else if (!strncmp(kind, "flat", 4))
            x = 0.0;
        else
            x = ((h >> 8) % 3 == 0) ? -INFINITY : u * 16.0 - 8.0;
        out[i] = (float)x;
    }
    if (!strncmp(kind, "peaked", 6))
        out[gseed % V] = 12.0f;
    else if (!strncmp(kind, "neginf", 6))
        out[gseed % V] = 1.0f;
}

static uint64_t fnv_f32(const float *x, size_t n)
{
    uint64_t h = 0xCBF29CE484222325ull;
    const unsigned char *b = (const unsigned char *)x;
    for (size_t i = 0; i < n * 4; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

typedef struct row {
    int has_seed;
    uint64_t seed;            /* SGLang's int64 as uint64 */
    uint64_t position;
    double temperature, top_p;
    long top_k;
} row;

/* the logits of row b at step t: a kind ending in '*' repeats step 0's */
static uint64_t row_gseed(const char *kind, uint64_t gseed, size_t t, size_t b)
{
    return gseed + (kind[strlen(kind) - 1] == '*' ? 0 : t * 16) + b;
}

typedef struct rec {
    int id;
    char line[16], kind[16], path[16];
    size_t V, B, T;
    uint64_t gseed, fnv;
    row rows[MAX_B];
    long tokens[MAX_B][MAX_T];
} rec;

static uint64_t parse_seed(const char *s, int *has)
{
    *has = strcmp(s, "none") != 0;
    if (!*has)
        return 0;
    if (*s == '-')
        return (uint64_t)0 - strtoull(s + 1, NULL, 10); /* -s is 2^64 - s */
    return strtoull(s, NULL, 10);
}

/* One record line; 0 when the line is not a case. */
static int parse_rec(char *line, rec *r)
{
    if (!(line[0] >= '0' && line[0] <= '9'))
        return 0;
    char *f[11];
    size_t n = 0;
    for (char *t = strtok(line, "\t\n"); t && n < 11; t = strtok(NULL, "\t\n"))
        f[n++] = t;
    cr_assert_eq(n, 11, "a case line has 11 fields");
    memset(r, 0, sizeof *r);
    r->id = atoi(f[0]);
    snprintf(r->line, sizeof r->line, "%s", f[1]);
    snprintf(r->kind, sizeof r->kind, "%s", f[2]);
    r->V = strtoull(f[3], NULL, 10);
    r->B = strtoull(f[4], NULL, 10);
    r->T = strtoull(f[5], NULL, 10);
    r->gseed = strtoull(f[6], NULL, 10);
    r->fnv = strtoull(f[7], NULL, 16);
    cr_assert(r->B <= MAX_B && r->T <= MAX_T);
    snprintf(r->path, sizeof r->path, "%.*s", (int)strcspn(f[8], ","), f[8]);
    char *save = NULL;
    size_t b = 0;
    for (char *t = strtok_r(f[9], ";", &save); t; t = strtok_r(NULL, ";", &save), b++) {
        char sd[32];
        row *w = &r->rows[b];
        cr_assert_eq(sscanf(t, "%31[^/]/%" SCNu64 "/%lf/%ld/%lf", sd, &w->position, &w->temperature, &w->top_k,
                            &w->top_p), 5, "%s", t);
        w->seed = parse_seed(sd, &w->has_seed);
    }
    cr_assert_eq(b, r->B);
    b = 0;
    for (char *t = strtok_r(f[10], ";", &save); t; t = strtok_r(NULL, ";", &save), b++) {
        size_t s = 0;
        for (char *q = t; *q; s++) {
            r->tokens[b][s] = strtol(q, &q, 10);
            if (*q == ',')
                q++;
        }
        cr_assert_eq(s, r->T);
    }
    return 1;
}

static sl_fw_opts row_opts(const rec *r, const row *w, int cpu)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.has_seed = w->has_seed;
    o.seed.lo = w->seed;
    o.variant = r->line;
    o.has_position = 1;
    o.position = w->position;
    o.sglang_sorted = !strcmp(r->path, "rank");
    o.n = 1;
    o.k = 1;
    o.cfg.has_temperature = o.cfg.has_top_k = o.cfg.has_top_p = 1;
    o.cfg.temperature = w->temperature;
    o.cfg.top_k = w->top_k;
    o.cfg.top_p = w->top_p;
    o.cfg.cpu = cpu; /* the golden's kernel */
    return o;
}

static FILE *open_golden(void)
{
    FILE *f = fopen(GOLDEN, "r");
    cr_assert(f, GOLDEN);
    return f;
}

Test(framework_sglang, hash_equals_sglang_murmur_hash32)
{
    FILE *f = open_golden();
    char line[512];
    size_t n = 0, max = 0;
    while (fgets(line, sizeof line, f)) {
        uint64_t seed, pos, col, h;
        if (sscanf(line, "hash\t%" SCNu64 "\t%" SCNu64 "\t%" SCNu64 "\t%" SCNu64, &seed, &pos, &col, &h) != 4)
            continue;
        cr_expect_eq(sl_rng_murmur3_sglang(seed, pos, (uint32_t)col), h, "seed %" PRIu64 " position %" PRIu64
                     " column %" PRIu64, seed, pos, col);
        /* the same word through the random source: --seed S --stream P, column col */
        sl_rng g;
        sl_error e;
        sl_seed s = {.lo = seed, .hi = 0, .stream = pos, .has_stream = 1};
        cr_assert_eq(sl_rng_init(&g, &sl_rng_murmur3_type, &s, &e), 0, "%s", e.msg);
        g.type->advance(g.state, col, 0);
        cr_expect_eq(sl_rng_next(&g), h);
        sl_rng_release(&g);
        max += h == UINT32_MAX;
        n++;
    }
    fclose(f);
    cr_assert_eq(n, 16 + 60 + 1, "hash records: %zu", n);
    cr_assert_eq(max, 1, "issue #25106's triple hashes to 2^32 - 1");
    printf("framework_sglang: %zu murmur_hash32 values equal SGLang's\n", n);
}

/* the records of one golden file through sessions at its CPU kernel */
static void replay_c_api(const char *path, int cpu)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s", path);
    static char line[1 << 16];
    rec r;
    size_t recs = 0, rows = 0, steps = 0, diff = 0, words = 0;
    float *lg = malloc(151936 * MAX_T * sizeof *lg);
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "# cpu kernel:", 13))
            cr_assert(strstr(line, cpu == SL_CPU_AVX2 ? "= AVX2;" : "= AVX512;"), "%s: %s", path, line);
        if (!parse_rec(line, &r))
            continue;
        recs++;
        make_logits(r.kind, r.gseed, r.V, lg);
        cr_assert_eq(fnv_f32(lg, r.V), r.fnv, "case %d: the logits rebuilt differ from the script's", r.id);
        for (size_t b = 0; b < r.B; b++) {
            sl_fw_opts o = row_opts(&r, &r.rows[b], cpu);
            sl_fw_session s;
            sl_error e;
            cr_assert_eq(sl_fw_session_open(&s, &sl_fw_sglang_type, &o, &e), 0, "case %d: %s", r.id, e.msg);
            sl_vec v;
            cr_assert_eq(sl_base_vec_alloc(&v, r.V, "golden", &e), 0);
            v.dtype = SL_F32;
            for (size_t t = 0; t < r.T; t++) {
                make_logits(r.kind, row_gseed(r.kind, r.gseed, t, b), r.V, v.f);
                for (size_t i = 0; i < r.V; i++)
                    v.d[i] = v.f[i];
                sl_fw_session_forget(&s);
                sl_fw_step st;
                cr_assert_eq(sl_fw_session_step(&s, &v, &st, &e), 0, "case %d row %zu: %s", r.id, b, e.msg);
                if (st.tokens[0] != r.tokens[b][t]) {
                    diff++;
                    cr_log_error("case %d (%s) row %zu step %zu: samplab %ld, SGLang %ld", r.id, r.line, b, t,
                                 st.tokens[0], r.tokens[b][t]);
                }
                /* V words a seeded draw, none for an all-greedy batch */
                cr_expect_eq(st.words, strcmp(r.path, "greedy") ? r.V : 0, "case %d", r.id);
                words += st.words;
                cr_assert_eq(sl_fw_session_accept(&s, st.tokens[0], &e), 0);
                steps++;
            }
            sl_base_vec_free(&v);
            sl_fw_session_close(&s);
            rows++;
        }
    }
    fclose(f);
    free(lg);
    cr_assert_eq(recs, 312 * 2, "records: %zu", recs);
    cr_assert_eq(diff, 0, "%zu of %zu steps differ", diff, steps);
    printf("framework_sglang: %s: %zu records, %zu rows, %zu steps (%zu hash words) through the C API: 0 "
           "differences\n", path, recs, rows, steps, words);
}

Test(framework_sglang, every_record_through_the_c_api)
{
    replay_c_api(GOLDEN, SL_CPU_AVX512);
    replay_c_api("data/golden/current/sglang_avx2.txt", SL_CPU_AVX2);
}

Test(framework_sglang, every_record_through_the_command_line)
{
    /* the release build for the rows (SL_REL_BIN), the sanitized one (SL_BIN) for every 8th:
     * 2,436 processes under ASan take minutes */
    char asan[4096], rel[4096];
    snprintf(asan, sizeof asan, "%s", getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab");
    snprintf(rel, sizeof rel, "%s", getenv("SL_REL_BIN") ? getenv("SL_REL_BIN") : asan);
    FILE *f = open_golden();
    static char line[1 << 16];
    rec r;
    size_t rows = 0, diff = 0, by_context = 0;
    float *lg = malloc(151936 * MAX_T * sizeof *lg);
    while (fgets(line, sizeof line, f)) {
        if (!parse_rec(line, &r))
            continue;
        for (size_t b = 0; b < r.B; b++) {
            const row *w = &r.rows[b];
            for (size_t t = 0; t < r.T; t++)
                make_logits(r.kind, row_gseed(r.kind, r.gseed, t, b), r.V, lg + t * r.V);
            char *npy = sl_test_npy_f32(lg, r.T, r.V);
            cr_assert(npy);
            char seed[48] = "", where[256], cmd[1024];
            if (w->has_seed)
                snprintf(seed, sizeof seed, " --seed %" PRIu64, w->seed);
            /* a short prompt stands for the position (its length - 1) in every other such row */
            char *ctx = NULL;
            if (w->position < 40 && (rows % 2)) {
                char ids[200];
                size_t k = 0;
                for (uint64_t i = 0; i <= w->position; i++)
                    k += (size_t)snprintf(ids + k, sizeof ids - k, "%s%u", i ? "," : "", (unsigned)(i % r.V));
                ctx = sl_test_tmpfile(".txt", ids, k);
                snprintf(where, sizeof where, "--context %s", ctx);
                by_context++;
            } else {
                snprintf(where, sizeof where, "--position %" PRIu64, w->position);
            }
            snprintf(cmd, sizeof cmd,
                     "replay --framework sglang --sglang %s --cpu avx512 --logits %s %s%s --temperature %.17g "
                     "--top-k %ld --top-p %.17g%s", r.line, npy, where, seed, w->temperature, w->top_k, w->top_p,
                     strcmp(r.path, "rank") ? "" : " --sglang-sorted");
            setenv("SL_BIN", rows % 8 ? rel : asan, 1);
            sl_test_run run = sl_test_cli(cmd);
            cr_assert_eq(run.status, 0, "%s: %s", cmd, run.err);
            char *p = run.out;
            for (size_t t = 0; t < r.T; t++) {
                long tok = strtol(p, &p, 10);
                if (tok != r.tokens[b][t]) {
                    diff++;
                    cr_log_error("case %d row %zu step %zu: %s gave %ld, SGLang %ld", r.id, b, t, cmd, tok,
                                 r.tokens[b][t]);
                }
            }
            sl_test_run_free(&run);
            unlink(npy);
            free(npy);
            if (ctx) {
                unlink(ctx);
                free(ctx);
            }
            rows++;
        }
    }
    fclose(f);
    free(lg);
    cr_assert_eq(diff, 0, "%zu differences", diff);
    setenv("SL_BIN", asan, 1);
    printf("framework_sglang: %zu rows through samplab replay (%zu positioned by --context; %zu under ASan): 0 "
           "differences\n", rows, by_context, (rows + 7) / 8);
}

Test(framework_sglang, batch_records_through_draw_over_a_2d_tensor)
{
    /* the records whose rows share position and settings (kind ending in '*'), each row
     * with its own seed: one `samplab draw --logits [B, V] --n T --seeds S1,...`, one line
     * per step with the B tokens */
    FILE *f = open_golden();
    static char line[1 << 16];
    rec r;
    size_t recs = 0, diff = 0;
    float *lg = malloc(151936 * MAX_B * sizeof *lg);
    while (fgets(line, sizeof line, f)) {
        if (!parse_rec(line, &r) || r.kind[strlen(r.kind) - 1] != '*')
            continue;
        for (size_t b = 0; b < r.B; b++)
            make_logits(r.kind, row_gseed(r.kind, r.gseed, 0, b), r.V, lg + b * r.V);
        char *npy = sl_test_npy_f32(lg, r.B, r.V), seed[512] = " --seeds ", cmd[1024];
        const row *w = &r.rows[0];
        for (size_t b = 0; b < r.B; b++) {
            size_t k = strlen(seed);
            if (r.rows[b].has_seed)
                snprintf(seed + k, sizeof seed - k, "%s%" PRIu64, b ? "," : "", r.rows[b].seed);
            else
                snprintf(seed + k, sizeof seed - k, "%snone", b ? "," : "");
        }
        snprintf(cmd, sizeof cmd,
                 "draw --framework sglang --sglang %s --cpu avx512 --logits %s --n %zu --position %" PRIu64
                 "%s --temperature %.17g --top-k %ld --top-p %.17g", r.line, npy, r.T, w->position, seed,
                 w->temperature, w->top_k, w->top_p);
        sl_test_run run = sl_test_cli(cmd);
        cr_assert_eq(run.status, 0, "%s: %s", cmd, run.err);
        char *p = run.out;
        for (size_t t = 0; t < r.T; t++)
            for (size_t b = 0; b < r.B; b++) {
                long tok = strtol(p, &p, 10);
                diff += tok != r.tokens[b][t];
                cr_expect_eq(tok, r.tokens[b][t], "case %d step %zu row %zu: %s", r.id, t, b, cmd);
            }
        sl_test_run_free(&run);
        /* --json: tokens[b][t], and every row's own generator */
        strcat(cmd, " --json");
        run = sl_test_cli(cmd);
        cr_assert_eq(run.status, 0, "%s: %s", cmd, run.err);
        char want[4096];
        snprintf(want, sizeof want, "{\"rows\":%zu,\"tokens\":[", r.B);
        size_t k = strlen(want);
        for (size_t b = 0; b < r.B; b++) {
            k += (size_t)snprintf(want + k, sizeof want - k, "%s[", b ? "," : "");
            for (size_t t = 0; t < r.T; t++)
                k += (size_t)snprintf(want + k, sizeof want - k, "%s%ld", t ? "," : "", r.tokens[b][t]);
            k += (size_t)snprintf(want + k, sizeof want - k, "]");
        }
        snprintf(want + k, sizeof want - k, "],");
        cr_expect(!strncmp(run.out, want, strlen(want)), "%s: %s lacks %s", cmd, run.out, want);
        char words[64];
        snprintf(words, sizeof words, "\"words\":%zu,\"global_words\":0}", strcmp(r.path, "greedy") ? r.V * r.B * r.T : 0);
        cr_expect(strstr(run.out, words), "%s: %s lacks %s", cmd, run.out, words);
        sl_test_run_free(&run);
        unlink(npy);
        free(npy);
        recs++;
    }
    fclose(f);
    free(lg);
    cr_assert_eq(recs, 48 * 2, "batch records: %zu", recs);
    cr_assert_eq(diff, 0, "%zu differences", diff);
    printf("framework_sglang: %zu batch records through draw over [B, V]: 0 differences\n", recs);
}

Test(framework_sglang, refusals_name_what_is_not_modelled)
{
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --min-p 0.1",
                           "multinomial_with_seed will provide wrong results");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3", "needs --position P");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --sglang 0.5.8",
                           "--sglang takes 0.5.23 (default), 0.5.12, not '0.5.8'");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --top-k 0",
                           "top_k must be -1 (disable) or at least 1, got 0.");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --top-p 0",
                           "top_p must be in (0, 1], got 0.0.");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --temperature -1",
                           "temperature must be a non-negative finite number, got -1.0.");
    sl_test_expect_refused("draw --framework sglang --logits 1,nan,3 --position 0", "sanitize_nan_logits");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --context 1 --repetition-penalty 1.2",
                           "penalizers (penaltylib, applied to the logits before the sampler) are not modelled");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --logit-bias 0+1",
                           "--logit-bias: SGLang's SamplingParams.logit_bias is not modelled by samplab for framework "
                           "sglang");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --seeds 1,2",
                           "--seeds gives 2 entries for 1 row (one per row)");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position 0 --seeds 1 --seed 2",
                           "--seed with --seeds: framework sglang has no global generator (a request without a seed "
                           "gets 42)");
    sl_test_expect_refused("draw --framework sglang --probs 1,2,3 --position 0", "--probs is not an option of framework sglang");
    sl_test_expect_refused("draw --framework sglang --logits 1,2,3 --position x", "--position takes an integer");
    sl_test_expect_refused("draw --framework torch --probs 1,2,3 --position 3",
                           "--position is not an option of framework torch");
}

Test(framework_sglang, a_filtering_batchmate_changes_the_token_and_the_unclamped_bucket_wins)
{
    /* the same row, seed and position: alone (vocabulary ids as columns) and in a batch
     * where another request sets top-k (ranks as columns); case 260 of the golden: the
     * UINT32_MAX triple (case 311: seed 7847, position 12345, token 1208, whose logit is -inf)
     * wins under 0.5.12 only: -inf + inf is NaN, and torch.argmax takes the first NaN */
    float lg[1500];
    make_logits("neginf", 311000, 1500, lg);
    char *npy = sl_test_npy_f32(lg, 0, 1500), cmd[512];
    const char *want[] = {"1194", "1208"};
    const char *line[] = {"0.5.23", "0.5.12"};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "draw --framework sglang --sglang %s --cpu avx512 --logits %s --seed 7847 "
                 "--position 12345", line[i], npy);
        sl_test_run r = sl_test_cli(cmd);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cr_assert_eq(strtol(r.out, NULL, 10), strtol(want[i], NULL, 10), "%s: %s", cmd, r.out);
        sl_test_run_free(&r);
    }
    size_t differ = 0;
    for (int p = 0; p < 50; p++) {
        snprintf(cmd, sizeof cmd, "draw --framework sglang --cpu avx512 --logits %s --seed 7 --position %d", npy, p);
        sl_test_run a = sl_test_cli(cmd);
        strcat(cmd, " --sglang-sorted");
        sl_test_run b = sl_test_cli(cmd);
        cr_assert_eq(a.status + b.status, 0);
        differ += strcmp(a.out, b.out) != 0;
        sl_test_run_free(&a);
        sl_test_run_free(&b);
    }
    /* two independent draws from a 1,500-token distribution agree about as often as its collision chance */
    cr_assert_gt(differ, 40, "alone and beside a filtering request: %zu of 50 positions differ", differ);
    unlink(npy);
    free(npy);
}

Test(framework_sglang, depends_on_batch_follows_the_path_a_batchmate_forces)
{
    /* every row owns its seed, so a row depends on its batchmates only when --sglang-sorted
     * moves it onto the batch's sort path: a row without a filter of its own */
    struct {
        const char *settings, *want;
    } c[] = {
        {"", "[false,false]"},
        {" --sglang-sorted", "[true,true]"},
        {" --top-k 5 --sglang-sorted", "[false,false]"},
        {" --temperature 0 --sglang-sorted", "[true,true]"},
    };
    const float lg[] = {1, 2, 3, 4, 4, 3, 2, 1};
    char *npy = sl_test_npy_f32(lg, 2, 4);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "draw --framework sglang --logits %s --position 3 --seeds 5,6 --json%s", npy,
                 c[i].settings);
        sl_test_run r = sl_test_cli(cmd);
        cr_assert_eq(r.status, 0, "%s: %s", cmd, r.err);
        char want[64];
        snprintf(want, sizeof want, "\"depends_on_batch\":%s,", c[i].want);
        cr_expect(strstr(r.out, want), "%s: %s lacks %s", cmd, r.out, want);
        sl_test_run_free(&r);
    }
    unlink(npy);
    free(npy);
}
