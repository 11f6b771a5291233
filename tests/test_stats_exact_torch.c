/* test_stats_exact_torch.c — torch's exact audits (draw/torch.c: "torch", the race
 * with q = -log1p(-u), and "torch-replacement", the cdf path of n >= 2 samples)
 * against the real torch fed chosen uniforms through a crafted MT19937 state, in
 * two data sets: Debian 12's torch 1.13.1 (with NumPy 1.24.2;
 * data/golden/exact_crafted.txt, analysis/golden/exact_crafted.py) and Debian
 * sid's torch 2.14.1 (CPU, no MKL; analysis/golden/current/run.sh):
 *  - data/golden/current/exact_crafted.txt, analysis/golden/exact_crafted.py run
 *    unmodified: q = +0.0 at u = 0, the +inf winner, and one sample with
 *    replacement taking the race;
 *  - data/golden/current/exact_torch2.txt (analysis/golden/current/exact_torch2.py):
 *    every uniform of a call chosen, float32 and float64, with and without
 *    replacement: zero weights, NaN after +inf, ties (float32 rounding q into a tie
 *    float64 keeps apart), subnormal and overflowing ratios; both samples of
 *    multinomial(p, 2, replacement=True) on both sides of every boundary; the words
 *    each path consumes; 200 seeded random vectors with u = 0 planted.
 * Each race record is checked three ways: the audit's own model of the race
 * (exact_crafted.h, written out apart from draw/race.c), samplab's draw, and the
 * audit's exact statements (which token a u = 0 event hands the call to, which
 * zero-probability tokens are drawable). The cdf records check the audit's exact
 * counts: the token of each uniform on both sides of every boundary.
 * SL_EXACT_TORCH2_EXTRA=FILE replays a further file of the same format. */
#include <criterion/criterion.h>

#include "exact_crafted.h"

/* data/golden/exact_crafted.txt (analysis/golden/exact_crafted.py): the real torch 1.13.1 and
 * NumPy 1.24.2 fed chosen uniforms through a crafted MT19937 state (tests/exact_crafted.h). */
Test(replay_exact, golden_chosen_uniforms)
{
    ec_tally n = ec_replay_crafted("data/golden/exact_crafted.txt", SL_TORCH_1_13);
    cr_log_info("torch 1.13 exact_crafted: %zu records, %zu checks, %zu where 2.x's model differs", n.lines,
                n.checks, n.race2_vs_113);
    cr_assert_eq(n.lines, 11, "golden lines: %zu", n.lines);
    cr_assert(n.checks > 40, "checks: %zu", n.checks);
}

Test(replay_exact, exact_crafted_torch_2_14)
{
    ec_tally n = ec_replay_crafted("data/golden/current/exact_crafted.txt", SL_TORCH_2);
    cr_log_info("torch 2.14 exact_crafted: %zu records, %zu checks, 0 differences; torch 1.13's models differ on "
                "%zu torch checks", n.lines, n.checks, n.race2_vs_113);
    cr_assert_eq(n.lines, 11, "golden lines: %zu", n.lines);
    cr_assert(n.checks > 40, "checks: %zu", n.checks);
    cr_assert(n.race2_vs_113 >= 10, "the 2.x file does not tell the lines apart (%zu)", n.race2_vs_113);
}

static sl_dtype dtype_of(const char *s)
{
    cr_assert(!strcmp(s, "float32") || !strcmp(s, "float64"), "dtype %s", s);
    return !strcmp(s, "float32") ? SL_F32 : SL_F64;
}

/* ks[0..V) after the weights' '|' ; returns the rest. */
static char *read_ks(char *s, uint64_t *ks, size_t V)
{
    char *end;
    s = strchr(s, '|') + 1;
    for (size_t i = 0; i < V; i++) {
        ks[i] = strtoull(s, &end, 10);
        cr_assert(end != s, "uniform %zu missing", i);
        s = end;
    }
    return s;
}

/* One race call at chosen uniforms: the model, samplab's draw and the audit agree with torch. */
static void race_record(sl_dtype dt, int repl, const float *f, const double *d, size_t V, const uint64_t *ks,
                        size_t tok, const char *id, size_t *other_differs)
{
    double q[EC_MAXV];
    size_t mine = ec_race_model(SL_TORCH_2, dt, f, d, ks, V, q);
    cr_assert_eq(mine, tok, "%s: model draws %zu, torch drew %zu", id, mine, tok);
    long drawn;
    uint64_t words;
    ec_draw(SL_TORCH_2, repl, 1, dt, f, d, V, ks, V, &drawn, &words);
    cr_assert_eq(drawn, (long)tok, "%s: draw/torch.c draws %ld, torch drew %zu", id, drawn, tok);
    cr_assert_eq(words, 2 * V, "%s: %llu words, the race takes 2V", id, (unsigned long long)words);
    ec_check_race_audit(SL_TORCH_2, dt, f, d, V, ks, tok, id);
    *other_differs += ec_race_model(SL_TORCH_1_13, dt, f, d, ks, V, q) != tok;
}

typedef struct t2_tally {
    size_t nrace, ncdf, nwords, nrand, checks, differs;
} t2_tally;

/* One file of analysis/golden/current/exact_torch2.py. */
static t2_tally replay_torch2(const char *path)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s is missing (make golden-current)", path);
    cr_assert(strstr(text, "torch 2."), "%s: the header does not name torch 2.x", path);
    size_t nrace = 0, ncdf = 0, nwords = 0, nrand = 0, checks = 0, differs = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char kind[16], dts[16], name[64], id[128];
        int off = 0, repl = 0;
        size_t V = 0;
        double d[EC_MAXV];
        float f[EC_MAXV];
        uint64_t ks[EC_MAXV];
        char *s, *end;
        cr_assert_eq(sscanf(line, "%15s %15s", kind, dts), 2, "line: %.60s", line);
        sl_dtype dt = dtype_of(dts);
        if (!strcmp(kind, "race") || !strcmp(kind, "rand")) {
            unsigned seed = 0;
            int ok = !strcmp(kind, "race")
                         ? sscanf(line, "%*s %*s %d %63s %zu%n", &repl, name, &V, &off) == 3
                         : sscanf(line, "%*s %*s %d %zu %u%n", &repl, &V, &seed, &off) == 3;
            cr_assert(ok && V >= 1 && V <= EC_MAXV, "line: %.60s", line);
            if (!strcmp(kind, "rand"))
                snprintf(name, sizeof name, "seed %u", seed);
            snprintf(id, sizeof id, "%s %s %s repl=%d", kind, dts, name, repl);
            s = line + off;
            cr_assert_eq(sl_test_read_floats(s, d, f, V), V, "%s: weights", id);
            s = read_ks(s, ks, V);
            s = strchr(s, '|') + 1;
            size_t tok = strtoul(s, &end, 10);
            race_record(dt, repl, f, d, V, ks, tok, id, &differs);
            if (!strcmp(kind, "race")) {
                /* exponential_ at the same uniforms, sign included */
                sl_draw_race_rule rule = {SL_RACE_U_TORCH53, 1, 1};
                double q[EC_MAXV];
                ec_words st;
                ec_words_set(&st, ks, V);
                sl_rng g = {.type = &ec_words_type, .state = &st};
                sl_draw_race_exponentials(&rule, dt, &g, q, V);
                s = strchr(end, '|') + 1;
                for (size_t i = 0; i < V; i++) {
                    double x = strtod(s, &end);
                    cr_assert(end != s, "%s: q[%zu] missing", id, i);
                    s = end;
                    cr_assert(memcmp(&x, &q[i], sizeof x) == 0 || (dt == SL_F32 && (float)x == (float)q[i] &&
                                                                    signbit(x) == signbit(q[i])),
                              "%s: q[%zu] = %a, torch %a", id, i, q[i], x);
                }
                nrace++;
            } else {
                nrand++;
            }
            checks++;
        } else if (!strcmp(kind, "cdf")) {
            cr_assert_eq(sscanf(line, "%*s %*s %63s %zu%n", name, &V, &off), 2, "line: %.60s", line);
            cr_assert(V >= 1 && V <= EC_MAXV);
            snprintf(id, sizeof id, "cdf %s %s", dts, name);
            s = line + off;
            cr_assert_eq(sl_test_read_floats(s, d, f, V), V, "%s: weights", id);
            s = strchr(s, '|') + 1;
            sl_stat_exact_input in = ec_input(f, d, V, dt);
            sl_stat_exact_result r;
            sl_error e;
            cr_assert_eq(sl_stat_exact_run(&sl_draw_torch_repl_exact, &in, &r, &e), 0, "%s: %s", id, e.msg);
            unsigned long long ka, kb;
            unsigned ta, tb;
            int used;
            size_t seen = 0;
            while (sscanf(s, " %llu,%llu:%u,%u%n", &ka, &kb, &ta, &tb, &used) == 4) {
                cr_assert_eq(ec_cdf_token(&r, ka), ta, "%s: k = %llu, the exact counts give %zu, torch drew %u", id,
                             ka, ec_cdf_token(&r, ka), ta);
                cr_assert_eq(ec_cdf_token(&r, kb), tb, "%s: k = %llu, the exact counts give %zu, torch drew %u", id,
                             kb, ec_cdf_token(&r, kb), tb);
                uint64_t two[2] = {ka, kb};
                long drawn[2];
                uint64_t words;
                ec_draw(SL_TORCH_2, 1, 2, dt, f, d, V, two, 2, drawn, &words);
                cr_assert(drawn[0] == (long)ta && drawn[1] == (long)tb && words == 4,
                          "%s: draw/torch.c draws %ld,%ld in %llu words, torch %u,%u", id, drawn[0], drawn[1],
                          (unsigned long long)words, ta, tb);
                ec_cdf_probed(&r, ka, &seen);
                s += used;
                checks += 2;
            }
            size_t need = ec_cdf_need(&r);
            cr_assert(seen >= need, "%s: boundaries probed %zu of %zu", id, seen, need);
            sl_stat_exact_result_free(&r);
            ncdf++;
        } else if (!strcmp(kind, "words")) {
            size_t n;
            unsigned long long w;
            cr_assert_eq(sscanf(line, "%*s %*s %zu %zu %d | %llu", &V, &n, &repl, &w), 4, "line: %.60s", line);
            double *dd = malloc(V * sizeof *dd);
            float *ff = malloc(V * sizeof *ff);
            uint64_t *kk = calloc(V, sizeof *kk);
            long *out = malloc(n * sizeof *out);
            for (size_t i = 0; i < V; i++) {
                dd[i] = 1;
                ff[i] = 1;
                kk[i] = (uint64_t)1 << 52;
            }
            /* words only: the uniforms past the first EC_MAXV are 0 here, not in torch */
            uint64_t words;
            ec_draw(SL_TORCH_2, repl, n, dt, ff, dd, V, kk, V < EC_MAXV ? V : EC_MAXV, out, &words);
            cr_assert_eq(words, w, "words %s V = %zu n = %zu repl = %d: %llu, torch %llu", dts, V, n, repl,
                         (unsigned long long)words, w);
            cr_assert_eq(sl_draw_torch_takes_race(SL_TORCH_2, repl, n), w == 2 * V, "route V = %zu n = %zu", V, n);
            free(dd);
            free(ff);
            free(kk);
            free(out);
            nwords++;
            checks++;
        } else {
            cr_assert_fail("unknown record: %.60s", line);
        }
    }
    free(text);
    cr_log_info("%s: %zu race + %zu random race records, %zu cdf vectors, %zu word counts: %zu checks, "
                "0 differences; torch 1.13's race model differs on %zu", path, nrace, nrand, ncdf, nwords, checks,
                differs);
    return (t2_tally){nrace, ncdf, nwords, nrand, checks, differs};
}

Test(replay_exact, exact_torch2_paths)
{
    t2_tally n = replay_torch2("data/golden/current/exact_torch2.txt");
    cr_assert(n.nrace >= 80 && n.nrand >= 200 && n.ncdf >= 15 && n.nwords >= 14, "golden file too small");
    cr_assert(n.differs >= 10, "the records do not tell 2.x from 1.13 (%zu)", n.differs);
}

/* SL_EXACT_TORCH2_EXTRA=FILE replays further records of the same format
 * (exact_torch2.py OUT --random FIRST COUNT: seeded vectors beyond the committed ones). */
Test(replay_exact, exact_torch2_extra)
{
    const char *path = getenv("SL_EXACT_TORCH2_EXTRA");
    if (!path)
        return; /* nothing extra to replay (cr_skip_test leaks inside Criterion 2.4) */
    t2_tally n = replay_torch2(path);
    cr_assert(n.checks > 0, "%s: no records", path);
}

/* The audit picked by release line through the framework type (exact_for), as
 * `samplab exact` picks it. */
Test(replay_exact, exact_audit_by_release_line)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.k = 1;
    cr_assert_eq(sl_fw_torch_type.exact_for(&o), &sl_draw_torch_race_exact, "default: 2.x race");
    o.replacement = 1;
    cr_assert_eq(sl_fw_torch_type.exact_for(&o), &sl_draw_torch_race_exact, "2.x, one sample with replacement");
    o.k = 2;
    cr_assert_eq(sl_fw_torch_type.exact_for(&o), &sl_draw_torch_repl_exact, "2.x, two samples with replacement");
    o.variant = "1.13";
    o.k = 1;
    cr_assert_eq(sl_fw_torch_type.exact_for(&o), &sl_draw_torch_repl_exact, "1.13, one sample with replacement");
    o.replacement = 0;
    cr_assert_eq(sl_fw_torch_type.exact_for(&o), &sl_draw_torch113_race_exact, "1.13 race");
    o.variant = "0.4";
    cr_assert_null(sl_fw_torch_type.exact_for(&o), "no such release line");
    sl_test_expect_refused("exact --framework torch --torch 0.4 --probs 1,2", "--torch takes 2 (default), 1.13");
    sl_test_expect_refused("exact --framework torch --num-samples 2 --probs 1,2", "not audited");
    sl_test_expect_refused("exact --framework candle --torch 2 --probs 1,2", "--torch is not an option of framework");
    sl_test_expect_refused("exact --method cdf --replacement --probs 1,2", "--replacement is not an option of method");
    sl_test_run r = sl_test_cli("exact --framework torch --replacement --probs 0.5,0.5 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "\"sampler\":\"torch\"") && strstr(r.out, "pos_inf_wins"), "2.x race: %s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("exact --framework torch --torch 1.13 --probs 0.5,0.5 --json");
    cr_assert(strstr(r.out, "\"sampler\":\"torch-1.13\"") && strstr(r.out, "neg_inf"), "1.13 race: %s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("exact --framework torch --replacement --num-samples 3 --probs 1,2 --json");
    cr_assert(strstr(r.out, "\"sampler\":\"torch-replacement\"") && strstr(r.out, "\"exact\":true"), "cdf: %s",
              r.out);
    sl_test_run_free(&r);
}

/* 2.x's +inf floor: a positive token whose p is below 2^-53 is still drawn with
 * probability >= 2^-53 (1-2^-53)^(m+Z), and the audit says so; 1.13 has no floor. */
Test(replay_exact, exact_torch2_inf_floor)
{
    double d[3] = {1e-30, 1, 0};
    float f[3] = {1e-30f, 1, 0};
    sl_stat_exact_input in = ec_input(f, d, 3, SL_F32);
    sl_stat_exact_result r;
    sl_error e;
    cr_assert_eq(sl_stat_exact_run(&sl_draw_torch_race_exact, &in, &r, &e), 0, "%s", e.msg);
    const sl_stat_exact_path *p = ec_path(&r, "pos_inf_wins");
    cr_assert(p && p->token == 0 && strstr(p->what, "1 have p below it (the first: 0)"), "%s", p ? p->what : "none");
    double expect = -expm1(2 * log1p(-0x1p-53)) * exp(log1p(-0x1p-53));
    cr_assert(fabs(p->prob / expect - 1) < 1e-12, "P(+inf) %.17g, expected %.17g", p->prob, expect);
    cr_assert(r.tv_bound >= 0x1p-53, "the bound %.3g covers the floor", r.tv_bound);
    sl_stat_exact_result_free(&r);
    cr_assert_eq(sl_stat_exact_run(&sl_draw_torch113_race_exact, &in, &r, &e), 0, "%s", e.msg);
    cr_assert_null(ec_path(&r, "pos_inf_wins"));
    cr_assert(ec_path(&r, "neg_inf"));
    sl_stat_exact_result_free(&r);
}
