/* test_framework_transformers_js.c — `--framework transformers-js` against
 * transformers.js 4.3.1 itself: every record of data/golden/js/transformers_js.txt
 * (analysis/golden/js/transformers_js.mjs: the library's random, GenerationConfig,
 * PreTrainedModel._get_logits_processor, LogitsSampler.getSampler and the
 * onnxruntime-node TopK, under Node 20, over the committed logits of
 * data/golden/js/transformers_js_logits.safetensors). The seed records check
 * python-mt19937's random() (and that the neighbouring conversions and seedings
 * differ), the exp records sl_base_exp against V8's Math.exp (and that glibc's exp
 * is not it), the topk records the pipeline's order against ORT's, ties included;
 * every case is replayed through a session (the C API) and through the command
 * line (replay for a generation, draw --n for one row), token for token. What a
 * wrong tie order or a wrong default would change is counted, so the replay is
 * known to be able to fail. Then top_p's note, --json's ignored list and the
 * refusals. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

#define GOLDEN "data/golden/js/transformers_js.txt"
#define POOLS "data/golden/js/transformers_js_logits.safetensors"
#define MAX_T 24

typedef struct tcase {
    int id;
    char kind[8], tensor[16], set[160], prompt[160], promptc[160];
    size_t row, T;
    uint64_t seed;
    sl_logits_cfg cfg;
    long prompt_ids[16];
    size_t prompt_n;
    long tokens[MAX_T];
} tcase;

/* a list of ids, separated by commas or lines (up to max) */
static size_t ids_of(const char *p, long *out, size_t max)
{
    static char buf[1 << 16];
    snprintf(buf, sizeof buf, "%s", p);
    for (char *q = buf; *q; q++)
        if (*q == ',' || *q == '\n')
            *q = ' ';
    return sl_test_ids(buf, out, max);
}

/* "k=v,k=v" as generate() took them: each sets the key (the settings left out take the defaults) */
static void parse_settings(const char *s, sl_logits_cfg *c)
{
    memset(c, 0, sizeof *c);
    if (!strcmp(s, "-"))
        return;
    char buf[160];
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        cr_assert(eq, "%s", s);
        *eq = '\0';
        double v = strtod(eq + 1, NULL);
        if (!strcmp(kv, "temperature"))
            c->has_temperature = 1, c->temperature = v;
        else if (!strcmp(kv, "top_k"))
            c->has_top_k = 1, c->top_k = (long)v;
        else if (!strcmp(kv, "top_p"))
            c->has_top_p = 1, c->top_p = v;
        else if (!strcmp(kv, "repetition_penalty"))
            c->has_penalty = 1, c->penalty = v;
        else if (!strcmp(kv, "no_repeat_ngram_size"))
            c->has_ngram = 1, c->ngram = (long)v;
        else
            cr_assert_fail("unknown setting %s", kv);
    }
}

/* the same settings as options */
static void settings_args(const sl_logits_cfg *c, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    if (c->has_temperature)
        k += (size_t)snprintf(out + k, n - k, " --temperature %.17g", c->temperature);
    if (c->has_top_k)
        k += (size_t)snprintf(out + k, n - k, " --top-k %ld", c->top_k);
    if (c->has_top_p)
        k += (size_t)snprintf(out + k, n - k, " --top-p %.17g", c->top_p);
    if (c->has_penalty)
        k += (size_t)snprintf(out + k, n - k, " --repetition-penalty %.17g", c->penalty);
    if (c->has_ngram)
        snprintf(out + k, n - k, " --no-repeat-ngram-size %ld", c->ngram);
}

static int parse_case(char *line, tcase *c)
{
    if (strncmp(line, "case\t", 5))
        return 0;
    char *f[11];
    size_t n = 0;
    for (char *t = strtok(line, "\t\n"); t && n < 11; t = strtok(NULL, "\t\n"))
        f[n++] = t;
    cr_assert_eq(n, 10, "a case line has 10 fields");
    memset(c, 0, sizeof *c);
    c->id = atoi(f[1]);
    snprintf(c->kind, sizeof c->kind, "%s", f[2]);
    snprintf(c->tensor, sizeof c->tensor, "%s", f[3]);
    c->row = strtoull(f[4], NULL, 10);
    c->T = strtoull(f[5], NULL, 10);
    c->seed = strtoull(f[6], NULL, 10);
    snprintf(c->set, sizeof c->set, "%s", f[7]);
    parse_settings(c->set, &c->cfg);
    snprintf(c->prompt, sizeof c->prompt, "%s", f[8]);
    c->prompt_n = strcmp(f[8], "-") ? ids_of(f[8], c->prompt_ids, 16) : 0;
    cr_assert(c->T <= MAX_T);
    cr_assert_eq(ids_of(f[9], c->tokens, MAX_T), c->T, "case %d: %zu tokens", c->id, c->T);
    return 1;
}

/* the pools, one safetensors tensor each */
static sl_io_steps pool_of(const char *name)
{
    sl_io_steps m;
    sl_error e;
    cr_assert_eq(sl_io_steps_read(POOLS, name, &m, &e), 0, "%s", e.msg);
    return m;
}

static FILE *open_golden(void)
{
    FILE *f = fopen(GOLDEN, "r");
    cr_assert(f, GOLDEN);
    return f;
}

Test(framework_transformers_js, random_equals_random_seed_and_random)
{
    FILE *f = open_golden();
    char line[4096];
    size_t n = 0, other_uniform = 0, other_seeding = 0;
    while (fgets(line, sizeof line, f)) {
        uint64_t s;
        int at;
        if (sscanf(line, "seed\t%" SCNu64 "\t%n", &s, &at) != 1)
            continue;
        double want[7];
        char *p = line + at;
        for (int i = 0; i < 7; i++) {
            want[i] = strtod(p, &p);
            p += *p == ',';
        }
        sl_seed seed = {.lo = s, .hi = 0, .stream = 0, .has_stream = 0};
        sl_rng g, h, m;
        sl_error e;
        cr_assert_eq(sl_rng_init(&g, &sl_rng_python_mt19937_type, &seed, &e), 0, "%s", e.msg);
        cr_assert_eq(sl_rng_init(&h, &sl_rng_python_mt19937_type, &seed, &e), 0);
        cr_assert_eq(sl_rng_init(&m, &sl_rng_mt19937_type, &seed, &e), 0);
        for (int i = 0; i < 700; i++) {
            double u = sl_rng_uniform_f64_2x32_numpy(&g);
            if (i < 6)
                cr_expect_eq(u, want[i], "seed %" PRIu64 " value %d: %.17g, transformers.js %.17g", s, i, u, want[i]);
        }
        double u = sl_rng_uniform_f64_2x32_numpy(&g);
        cr_expect_eq(u, want[6], "seed %" PRIu64 " value 700: %.17g, transformers.js %.17g", s, u, want[6]);
        cr_expect_eq(g.words, 2 * 701, "two words a random()");
        /* torch's conversion of the same words, and init_genrand's seeding, are other numbers */
        other_uniform += sl_rng_uniform_f64_2x32_hifirst_low53(&h) != want[0];
        other_seeding += sl_rng_uniform_f64_2x32_numpy(&m) != want[0];
        sl_rng_release(&g);
        sl_rng_release(&h);
        sl_rng_release(&m);
        n++;
    }
    fclose(f);
    cr_assert_eq(n, 12, "seed records: %zu", n);
    cr_assert_eq(other_uniform, n, "a 64-bit low-53 uniform would give other values for every seed");
    cr_assert_eq(other_seeding, n, "init_genrand seeding would give other values for every seed");
    printf("framework_transformers_js: random() after random.seed(S) for %zu seeds (0 to 2^53), 7 values each: "
           "equal\n", n);
}

static double of_hex(const char *h)
{
    uint64_t u = strtoull(h, NULL, 16);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

Test(framework_transformers_js, exp_equals_v8_math_exp)
{
    FILE *f = open_golden();
    char line[4096], xs[32], ys[32];
    size_t n = 0, glibc_off = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "exp\t%31s\t%31s", xs, ys) != 2)
            continue;
        double x = of_hex(xs), y = of_hex(ys), z = sl_base_exp(x);
        cr_expect(!memcmp(&z, &y, sizeof z), "exp(%.17g): %.17g, Math.exp %.17g", x, z, y);
        volatile double xv = x; /* libm's exp at run time, not folded */
        glibc_off += exp(xv) != y;
        n++;
    }
    fclose(f);
    cr_assert_eq(n, 512);
    printf("framework_transformers_js: %zu Math.exp values bit for bit (libm's exp differs on %zu of them)\n", n,
           glibc_off);
}

/* the pipeline over one row, no setting but top_k (temperature 1, no penalty) */
static void run_pipeline(const sl_io_steps *m, size_t r, long k, sl_logits_result *out)
{
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_base_vec_alloc(&v, m->v, "pool", &e), 0);
    cr_assert_eq(sl_io_steps_row(m, r, &v), 0);
    sl_logits_cfg c;
    memset(&c, 0, sizeof c);
    c.has_top_k = 1;
    c.top_k = k;
    cr_assert_eq(sl_logits_pipeline_run(&sl_logits_pipeline_tjs_type, &v, &c, out, &e), 0, "%s", e.msg);
    sl_base_vec_free(&v);
}

Test(framework_transformers_js, topk_order_equals_onnxruntime)
{
    FILE *f = open_golden();
    static char line[1 << 16];
    size_t n = 0, tied = 0;
    long *ids = malloc(8192 * sizeof *ids);
    while (fgets(line, sizeof line, f)) {
        char name[16];
        size_t r;
        long k;
        int at;
        if (sscanf(line, "topk\t%15s\t%zu\t%ld\t%n", name, &r, &k, &at) != 3)
            continue;
        size_t m = ids_of(line + at, ids, 8192);
        sl_io_steps p = pool_of(name);
        sl_logits_result out;
        run_pipeline(&p, r, k, &out);
        cr_assert_eq(out.n_cand, (size_t)k);
        int has_tie = 0;
        for (size_t j = 0; j < m; j++) {
            cr_expect_eq(out.cand[j].id, ids[j], "%s row %zu k %ld: position %zu is %ld, ORT's %ld", name, r, k, j,
                         out.cand[j].id, ids[j]);
            has_tie |= j && out.cand[j].logit == out.cand[j - 1].logit;
        }
        tied += has_tie; /* ties listed: ties by higher index first would reorder them */
        sl_logits_result_free(&out);
        sl_io_steps_free(&p);
        n++;
    }
    fclose(f);
    free(ids);
    cr_assert_eq(n, 4 * 10 + 2 * 6 + 5 + 2 * 4, "topk records: %zu", n);
    cr_assert_geq(tied, 30, "records with tied values in ORT's order: %zu", tied);
    printf("framework_transformers_js: %zu ORT TopK orders (%zu with ties, k = 1 to V) equal\n", n, tied);
}

/* the rows of case c: its T rows from its row on (gen), or its row every step (draw) */
static size_t case_row(const tcase *c, size_t t)
{
    return strcmp(c->kind, "draw") ? c->row + t : c->row;
}

static sl_fw_opts case_opts(const tcase *c, const sl_logits_cfg *cfg)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.has_seed = 1;
    o.seed.lo = c->seed;
    o.n = o.k = 1;
    o.cfg = *cfg;
    o.cfg.context = c->prompt_ids;
    o.cfg.context_n = c->prompt_n;
    return o;
}

/* Case c through a session with settings cfg: its tokens into got; tie_draws counts the steps whose
 * token shares its probability with a kept neighbour that is not its mirror in the tie group (a
 * reversed tie order would have drawn another token). Returns the words spent. */
static uint64_t replay_case(const tcase *c, const sl_logits_cfg *cfg, const sl_io_steps *m, long *got,
                            size_t *tie_draws)
{
    sl_fw_opts o = case_opts(c, cfg);
    sl_fw_session s;
    sl_error e;
    cr_assert_eq(sl_fw_session_open_prompt(&s, &sl_fw_tjs_type, &o, &e), 0, "case %d: %s", c->id, e.msg);
    sl_vec v;
    cr_assert_eq(sl_base_vec_alloc(&v, m->v, "golden", &e), 0);
    uint64_t words = 0;
    for (size_t t = 0; t < c->T; t++) {
        cr_assert_eq(sl_io_steps_row(m, case_row(c, t), &v), 0);
        sl_fw_session_forget(&s);
        if (tie_draws) { /* the candidates this step draws over, before the draw */
            sl_logits_result r;
            cr_assert_eq(sl_fw_session_probs(&s, &v, &r, &e), 0, "case %d: %s", c->id, e.msg);
            sl_fw_session_forget(&s);
            sl_fw_step st;
            cr_assert_eq(sl_fw_session_step(&s, &v, &st, &e), 0, "case %d step %zu: %s", c->id, t, e.msg);
            for (size_t j = 0; !r.greedy && r.cand && j < r.n_cand; j++) {
                if (r.cand[j].id != st.tokens[0])
                    continue;
                size_t lo = j, hi = j;
                while (lo > 0 && r.cand[lo - 1].p == r.cand[j].p)
                    lo--;
                while (hi + 1 < r.n_cand && r.cand[hi + 1].p == r.cand[j].p)
                    hi++;
                *tie_draws += hi > lo && lo + hi != 2 * j;
            }
            sl_logits_result_free(&r);
            got[t] = st.tokens[0];
            words += st.words;
        } else {
            sl_fw_step st;
            cr_assert_eq(sl_fw_session_step(&s, &v, &st, &e), 0, "case %d step %zu: %s", c->id, t, e.msg);
            got[t] = st.tokens[0];
            words += st.words;
        }
        cr_assert_eq(sl_fw_session_accept(&s, got[t], &e), 0);
    }
    sl_base_vec_free(&v);
    sl_fw_session_close(&s);
    return words;
}

Test(framework_transformers_js, every_case_through_the_c_api)
{
    FILE *f = open_golden();
    static char line[1 << 16];
    const char *names[] = {"small8", "ties256", "cont1000", "big8192", "masked512", "flat64", "wide300"};
    sl_io_steps pools[7];
    for (size_t i = 0; i < 7; i++)
        pools[i] = pool_of(names[i]);
    tcase c;
    size_t cases = 0, steps = 0, diff = 0, ties = 0, greedy = 0, defaults = 0, default_matters = 0, draws = 0;
    while (fgets(line, sizeof line, f)) {
        if (!parse_case(line, &c))
            continue;
        size_t pi = 0;
        while (pi < 7 && strcmp(names[pi], c.tensor))
            pi++;
        cr_assert(pi < 7, "case %d: tensor %s", c.id, c.tensor);
        long got[MAX_T];
        uint64_t words = replay_case(&c, &c.cfg, &pools[pi], got, &ties);
        for (size_t t = 0; t < c.T; t++)
            if (got[t] != c.tokens[t]) {
                diff++;
                cr_log_error("case %d (%s %s row %zu, seed %" PRIu64 ", %s) step %zu: samplab %ld, transformers.js "
                             "%ld", c.id, c.kind, c.tensor, c.row, c.seed, c.set, t, got[t], c.tokens[t]);
            }
        int is_greedy = c.cfg.has_temperature && c.cfg.temperature == 0;
        cr_expect_eq(words, is_greedy ? 0 : 2 * c.T, "case %d: %" PRIu64 " words", c.id, words);
        greedy += is_greedy;
        draws += !strcmp(c.kind, "draw");
        /* top_k left out is 50: the same case over all V must differ somewhere */
        if (!c.cfg.has_top_k && !is_greedy && pools[pi].v > 50) {
            sl_logits_cfg all = c.cfg;
            all.has_top_k = 1;
            all.top_k = 0;
            long other[MAX_T];
            replay_case(&c, &all, &pools[pi], other, NULL);
            defaults++;
            default_matters += memcmp(other, got, c.T * sizeof *got) != 0;
        }
        steps += c.T;
        cases++;
    }
    fclose(f);
    for (size_t i = 0; i < 7; i++)
        sl_io_steps_free(&pools[i]);
    cr_assert_eq(cases, 422, "cases: %zu", cases);
    cr_assert_eq(diff, 0, "%zu of %zu steps differ", diff, steps);
    cr_assert_geq(ties, 30, "steps whose token a reversed tie order would change: %zu", ties);
    cr_assert_geq(default_matters, defaults / 4, "top_k 50 by default: %zu of %zu cases change over all V",
                  default_matters, defaults);
    cr_assert_geq(greedy, 10);
    printf("framework_transformers_js: %zu cases (%zu draw --n, %zu greedy), %zu steps through the C API: 0 "
           "differences; %zu draws depend on ORT's tie order, %zu of %zu cases on the default top_k 50\n", cases,
           draws, greedy, steps, ties, default_matters, defaults);
}

Test(framework_transformers_js, every_case_through_the_command_line)
{
    /* the release build for most (SL_REL_BIN), the sanitized one (SL_BIN) for every 8th */
    char asan[4096], rel[4096];
    snprintf(asan, sizeof asan, "%s", getenv("SL_BIN") ? getenv("SL_BIN") : "bin/samplab");
    snprintf(rel, sizeof rel, "%s", getenv("SL_REL_BIN") ? getenv("SL_REL_BIN") : asan);
    FILE *f = open_golden();
    static char line[1 << 16];
    tcase c;
    size_t cases = 0, diff = 0, by_draw = 0;
    while (fgets(line, sizeof line, f)) {
        if (!parse_case(line, &c))
            continue;
        char set[512], ctx[200] = "", cmd[1536];
        settings_args(&c.cfg, set, sizeof set);
        /* draw refuses a prompt nothing reads (no penalty, no n-gram ban); replay takes it as the history */
        if (c.prompt_n && (strcmp(c.kind, "draw") || c.cfg.has_penalty || c.cfg.has_ngram))
            snprintf(ctx, sizeof ctx, " --context %s", c.prompt);
        char *npy = NULL;
        if (!strcmp(c.kind, "draw")) { /* one row, --n steps: each token joins the history */
            snprintf(cmd, sizeof cmd,
                     "draw --framework transformers-js --logits %s --tensor %s --row %zu --n %zu --seed %" PRIu64
                     "%s%s", POOLS, c.tensor, c.row, c.T, c.seed, set, ctx);
            by_draw++;
        } else {
            sl_io_steps m = pool_of(c.tensor);
            npy = sl_test_npy_f32(m.f + c.row * m.v, c.T, m.v);
            cr_assert(npy);
            snprintf(cmd, sizeof cmd, "replay --framework transformers-js --transformersjs 4.3 --logits %s --seed %"
                     PRIu64 "%s%s", npy, c.seed, set, ctx);
            sl_io_steps_free(&m);
        }
        setenv("SL_BIN", cases % 8 ? rel : asan, 1);
        sl_test_run run = sl_test_cli(cmd);
        cr_assert_eq(run.status, 0, "%s: %s", cmd, run.err);
        long got[MAX_T];
        cr_assert_eq(ids_of(run.out, got, MAX_T), c.T, "%s: %s", cmd, run.out);
        for (size_t t = 0; t < c.T; t++)
            if (got[t] != c.tokens[t]) {
                diff++;
                cr_log_error("case %d step %zu: %s gave %ld, transformers.js %ld", c.id, t, cmd, got[t], c.tokens[t]);
            }
        sl_test_run_free(&run);
        if (npy) {
            unlink(npy);
            free(npy);
        }
        cases++;
    }
    fclose(f);
    setenv("SL_BIN", asan, 1);
    cr_assert_eq(cases, 422);
    cr_assert_eq(diff, 0, "%zu differences", diff);
    printf("framework_transformers_js: %zu cases through samplab replay and draw --n (%zu by draw; %zu under ASan): "
           "0 differences\n", cases, by_draw, (cases + 7) / 8);
}

#define L40 "--logits " POOLS " --tensor cont1000"

Test(framework_transformers_js, top_p_is_ignored_and_says_so)
{
    /* a log drawn with top_p 0.9 is the same log as without it, and hf's top-p 0.9 rejects it */
    sl_test_run a = sl_test_cli("replay --framework transformers-js " L40 " --seed 7 --top-p 0.9");
    sl_test_run b = sl_test_cli("replay --framework transformers-js " L40 " --seed 7");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, b.out);
    cr_expect(strstr(a.err, "note: transformers.js 4.3.1 ignores top_p") != NULL, "%s", a.err);
    cr_expect_str_empty(b.err);
    char *log = sl_test_tmpfile(".txt", a.out, strlen(a.out)), cmd[512];
    snprintf(cmd, sizeof cmd, "check --framework transformers-js " L40 " --top-p 0.9 --tokens %s --trials 0", log);
    sl_test_run ok = sl_test_cli(cmd);
    cr_expect_eq(ok.status, 0, "%s: %s", ok.out, ok.err);
    cr_expect(strstr(ok.out, "outside the kept set: none") != NULL, "%s", ok.out);
    snprintf(cmd, sizeof cmd, "check --framework hf " L40 " --top-p 0.9 --tokens %s --trials 0", log);
    sl_test_run no = sl_test_cli(cmd);
    cr_expect_eq(no.status, 1, "%s", no.out);
    cr_expect(strstr(no.out, "(removed by top_p)") != NULL, "%s", no.out);
    /* --json: the settings in force, the defaults, and what was ignored */
    sl_test_run j = sl_test_cli("draw --framework transformers-js " L40 " --row 3 --top-p 0.9 --json");
    cr_assert_eq(j.status, 0, "%s", j.err);
    cr_expect(strstr(j.out, "\"top_k\":50") && strstr(j.out, "\"top_p\":0.9"), "%s", j.out);
    cr_expect(strstr(j.out, "\"ignored\":[\"top_p\",\"typical\"]") != NULL, "%s", j.out);
    cr_expect(strstr(j.out, "\"defaulted\":[\"temperature\",\"top_k\"") != NULL, "%s", j.out);
    cr_expect(strstr(j.out, "python-mt19937") != NULL, "%s", j.out);
    for (sl_test_run *r = (sl_test_run[]){a, b, ok, no, j}, *e = r + 5; r < e; r++)
        sl_test_run_free(r);
    unlink(log);
    free(log);
}

Test(framework_transformers_js, refusals)
{
    sl_test_expect_refused("draw --framework transformers-js --logits 1,2,3 --transformersjs 3.x",
                           "--transformersjs 3.x: transformers.js 3.x samples with Math.random(), which no seed "
                           "reaches: its draws cannot be reproduced");
    sl_test_expect_refused("draw --framework transformers-js --logits 1,2,3 --transformersjs 3.8.1", "Math.random()");
    sl_test_expect_refused("replay --framework transformers-js --logits 1,2,3 --transformersjs 2", "Math.random()");
    sl_test_expect_refused("draw --framework transformers-js --logits 1,2,3 --transformersjs 4.0",
                           "--transformersjs takes 4.3, not '4.0'");
    sl_test_expect_refused("draw --framework transformers-js --logits 1,2,3 --seed 9007199254740993",
                           "seeds above 2^53 are not exact integers");
    sl_test_expect_refused("draw --framework transformers-js --logits 1,2,3 --min-p 0.1",
                           "--min-p is not an option of framework transformers-js");
    sl_test_expect_refused("draw --framework transformers-js --logits 1,2,3 --num-beams 2", "num_beams");
    sl_test_expect_refused("draw --framework hf --logits 1,2,3 --no-repeat-ngram-size 2",
                           "transformers' no_repeat_ngram_size (NoRepeatNGramLogitsProcessor) is not modelled by "
                           "samplab for framework hf");
    sl_test_expect_refused("draw --framework torch --probs 1,2,3 --transformersjs 4.3",
                           "--transformersjs is not an option of framework torch");
    /* a NaN score before TopK (0 / 0 from a zero penalty) */
    sl_test_expect_refused("draw --framework transformers-js --logits 0,1,2 --context 0 --repetition-penalty 0",
                           "NaN before TopK");
}

Test(framework_transformers_js, greedy_and_an_infinite_score)
{
    /* temperature 0: GreedySampler, the first maximum after the penalty, no word */
    sl_test_run g = sl_test_cli("draw --framework transformers-js --logits 3,1,3,2 --temperature 0 --n 3 --json");
    cr_assert_eq(g.status, 0, "%s", g.err);
    cr_expect(strstr(g.out, "\"tokens\":[0,0,0]") && strstr(g.out, "\"words\":0"), "%s", g.out);
    sl_test_run_free(&g);
    /* a banned -inf over a negative temperature is +inf: every probability NaN, the last of the k drawn */
    sl_test_run n = sl_test_cli("draw --framework transformers-js --logits 1,2,3,4 --context 2,2 "
                                "--no-repeat-ngram-size 1 --temperature -1 --top-k 3 --n 2");
    cr_assert_eq(n.status, 0, "%s", n.err);
    cr_expect_str_eq(n.out, "1\n0\n"); /* TopK: 2 (+inf), 0, 1: the last is 1; then 1 and 2 are +inf: 0 */
    sl_test_run_free(&n);
}
