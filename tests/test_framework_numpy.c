/* test_framework_numpy.c — replay of NumPy 1.24's Generator.choice and legacy
 * np.random.choice (framework/numpy.c) against data/golden/numpy_*.txt: every
 * draw, the generator state after the draws (so the words consumed), cdf ties,
 * forced states, accept/reject of p with NumPy's messages; and the gsl
 * framework against GSL's own table read with the Knuth lookup convention,
 * with its one-word-per-draw consumption checked on the generator state.
 * Today's NumPy 2.4.6 (Debian sid, data/golden/current/numpy_*.txt, made by the
 * same analysis/golden/numpy_golden.py) is the second data set: its records are
 * compared with 1.24.2's, and where they are the same bytes (choice, legacy,
 * PCG64, SeedSequence, the exprace race) the replays above hold for 2.4.6 too.
 * What 2.x changes is pinned: Generator.choice's reworded ValueErrors
 * (numpy_validate: the same inputs refused, other words) and the last bit of two
 * entries of the float64 weather vector and of rand1000 (numpy_vectors: inputs,
 * not draws). */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "helpers.h"
#include "numpy_golden.h"

static ng_vec *VS;
static size_t NVS;

static void load_vectors(void)
{
    VS = ng_vectors(&NVS);
}

static void free_vectors(void)
{
    ng_vectors_free(VS, NVS);
}

/* The vector as samplab reads it: a float32 .npy keeps f (and d = its widening). */
static void to_slvec(const ng_vec *g, sl_vec *v)
{
    sl_test_vec(v, g->p, g->V, g->name, g->f32);
}

static int run_fw(const sl_fw_type *ft, const ng_vec *g, const char *seed_hex, size_t n, size_t k,
                  sl_fw_result *res, sl_error *err)
{
    sl_vec v;
    to_slvec(g, &v);
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.probs = &v;
    ng_u128(seed_hex, &o.seed.hi, &o.seed.lo);
    o.has_seed = 1;
    o.n = n;
    o.k = k;
    int rc = sl_fw_run(ft, &o, res, err);
    sl_base_vec_free(&v);
    return rc;
}

Test(replay_numpy, zipf_formula_matches_numpy, .init = load_vectors, .fini = free_vectors)
{
    /* numpy_vectors.txt's check line: p[0], p[1] and p[49151] of NumPy's zipf. */
    const ng_vec *z = ng_vec_find(VS, NVS, "zipf");
    FILE *fp = fopen("data/golden/numpy_vectors.txt", "r");
    cr_assert(fp);
    char line[512], a[64], b[64], c[64];
    int found = 0;
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "# zipf check p[0]=%63s p[1]=%63s p[49151]=%63s", a, b, c) == 3)
            found = 1;
    fclose(fp);
    cr_assert(found, "zipf check line missing");
    cr_assert(z->p[0] == ng_f64(a) && z->p[1] == ng_f64(b) && z->p[49151] == ng_f64(c),
              "zipf: observed %a %a %a expected %s %s %s", z->p[0], z->p[1], z->p[49151], a, b, c);
}

Test(replay_numpy, generator_choice_draws_and_final_state, .init = load_vectors, .fini = free_vectors)
{
    ng_file g;
    ng_load(&g, "data/golden/numpy_choice.txt");
    size_t cases = 0, draws = 0;
    for (size_t i = 0; i < g.n; i++) {
        ng_line *L = &g.lines[i];
        if (strcmp(L->f[0], "gen"))
            continue;
        const ng_vec *v = ng_vec_find(VS, NVS, L->f[2]);
        size_t C = strtoull(L->f[3], NULL, 10), K = strtoull(L->f[4], NULL, 10), m = C + K;
        cr_assert_eq(L->n, 6 + m);
        /* C single calls then one size=K call draw the same words as C+K singles. */
        sl_fw_result res;
        sl_error err;
        int rc = run_fw(&sl_fw_numpy_type, v, L->f[1], m, 1, &res, &err);
        cr_assert_eq(rc, 0, "seed 0x%s %s: %s", L->f[1], v->name, err.msg);
        for (size_t j = 0; j < m; j++)
            cr_assert_eq(res.tokens[j], strtol(L->f[5 + j], NULL, 10),
                         "default_rng(0x%s).choice(%zu, p=%s) draw %zu: observed %ld expected %s", L->f[1], v->V,
                         v->name, j, res.tokens[j], L->f[5 + j]);
        cr_assert_eq(res.words, m, "seed 0x%s %s: %llu words for %zu draws", L->f[1], v->name,
                     (unsigned long long)res.words, m);
        cr_assert_eq(res.word_bits, 64);
        cr_assert_str_eq(res.rng_name, "numpy-pcg64");
        /* The state after exactly res.words words equals NumPy's final state. */
        sl_rng r;
        sl_seed s = { 0 };
        ng_u128(L->f[1], &s.hi, &s.lo);
        cr_assert_eq(sl_rng_init(&r, &sl_rng_pcg64_type, &s, &err), 0);
        sl_rng_pcg64_advance(r.state, res.words, 0);
        const sl_rng_pcg64_state *st = r.state;
        uint64_t hi, lo;
        ng_u128(L->f[5 + m], &hi, &lo);
        cr_assert(st->state_hi == hi && st->state_lo == lo, "seed 0x%s %s: final state differs from NumPy's",
                  L->f[1], v->name);
        sl_rng_release(&r);
        sl_fw_result_free(&res);
        cases++;
        draws += m;
    }
    cr_assert(cases > 300, "only %zu cases", cases);
    cr_log_info("Generator.choice: %zu runs, %zu draws == %s", cases, draws, g.header);
    ng_free(&g);
}

Test(replay_numpy, size_k_rows_are_consecutive_words, .init = load_vectors, .fini = free_vectors)
{
    /* n calls of size=k give the same tokens as n*k single calls, row-major. */
    const ng_vec *v = ng_vec_find(VS, NVS, "weather");
    sl_fw_result a, b;
    sl_error err;
    cr_assert_eq(run_fw(&sl_fw_numpy_type, v, "2a", 4, 6, &a, &err), 0);
    cr_assert_eq(run_fw(&sl_fw_numpy_type, v, "2a", 24, 1, &b, &err), 0);
    cr_assert_eq(a.n, 4);
    cr_assert_eq(a.k, 6);
    cr_assert_eq(a.words, 24);
    for (size_t i = 0; i < 24; i++)
        cr_assert_eq(a.tokens[i], b.tokens[i]);
    sl_fw_result_free(&a);
    sl_fw_result_free(&b);
}

Test(replay_numpy, legacy_choice_draws_and_final_state, .init = load_vectors, .fini = free_vectors)
{
    ng_file g;
    ng_load(&g, "data/golden/numpy_legacy.txt");
    size_t cases = 0, raws = 0, seeds = 0;
    for (size_t i = 0; i < g.n; i++) {
        ng_line *L = &g.lines[i];
        sl_error err;
        sl_seed s = { 0 };
        ng_u128(L->f[1], &s.hi, &s.lo);
        if (!strcmp(L->f[0], "raw") || !strcmp(L->f[0], "dbl")) {
            sl_rng r;
            cr_assert_eq(sl_rng_init(&r, &sl_rng_numpy_mt19937_type, &s, &err), 0);
            if (L->f[0][0] == 'r')
                for (size_t j = 0; j < 8; j++)
                    cr_assert_eq(sl_rng_next(&r), ng_u64(L->f[2 + j]), "legacy seed 0x%s raw %zu", L->f[1], j);
            else
                for (size_t j = 0; j < 4; j++) {
                    double u = sl_rng_uniform_f64_2x32_numpy(&r);
                    cr_assert(u == ng_f64(L->f[2 + j]), "legacy seed 0x%s random_sample %zu: %a vs %s", L->f[1],
                              j, u, L->f[2 + j]);
                }
            sl_rng_release(&r);
            raws++;
        } else if (!strcmp(L->f[0], "seed")) {
            char msg[256];
            ng_rest(L, 2, msg, sizeof msg);
            sl_rng r;
            int rc = sl_rng_init(&r, &sl_rng_numpy_mt19937_type, &s, &err);
            if (!strcmp(msg, "ok")) {
                cr_assert_eq(rc, 0, "seed 0x%s: %s", L->f[1], err.msg);
                sl_rng_release(&r);
            } else {
                cr_assert_neq(rc, 0, "seed 0x%s accepted, NumPy says: %s", L->f[1], msg);
                cr_assert(strstr(err.msg, msg), "seed 0x%s: message '%s' lacks NumPy's '%s'", L->f[1], err.msg,
                          msg);
                sl_fw_result res;
                rc = run_fw(&sl_fw_numpy_legacy_type, &VS[0], L->f[1], 1, 1, &res, &err);
                cr_assert(rc != 0 && strstr(err.msg, msg), "numpy-legacy seed 0x%s: '%s'", L->f[1], err.msg);
            }
            seeds++;
        } else if (!strcmp(L->f[0], "leg")) {
            const ng_vec *v = ng_vec_find(VS, NVS, L->f[2]);
            size_t C = strtoull(L->f[3], NULL, 10), K = strtoull(L->f[4], NULL, 10), m = C + K;
            cr_assert_eq(L->n, 9 + m);
            sl_fw_result res;
            int rc = run_fw(&sl_fw_numpy_legacy_type, v, L->f[1], m, 1, &res, &err);
            cr_assert_eq(rc, 0, "legacy seed 0x%s %s: %s", L->f[1], v->name, err.msg);
            for (size_t j = 0; j < m; j++)
                cr_assert_eq(res.tokens[j], strtol(L->f[5 + j], NULL, 10),
                             "np.random.seed(0x%s); choice(%zu, p=%s) draw %zu: observed %ld expected %s", L->f[1],
                             v->V, v->name, j, res.tokens[j], L->f[5 + j]);
            cr_assert_eq(res.words, 2 * m, "legacy: %llu words for %zu draws", (unsigned long long)res.words, m);
            cr_assert_eq(res.word_bits, 32);
            /* MT state after res.words words: pos and key words as NumPy's get_state. */
            sl_rng r;
            cr_assert_eq(sl_rng_init(&r, &sl_rng_numpy_mt19937_type, &s, &err), 0);
            for (uint64_t w = 0; w < res.words; w++)
                sl_rng_next(&r);
            const sl_rng_mt19937_state *st = r.state;
            cr_assert_eq(st->mti, (int)strtol(L->f[5 + m], NULL, 10), "legacy seed 0x%s %s: pos %d expected %s",
                         L->f[1], v->name, st->mti, L->f[5 + m]);
            cr_assert_eq(st->mt[0], (uint32_t)ng_u64(L->f[6 + m]));
            cr_assert_eq(st->mt[1], (uint32_t)ng_u64(L->f[7 + m]));
            cr_assert_eq(st->mt[623], (uint32_t)ng_u64(L->f[8 + m]));
            sl_rng_release(&r);
            sl_fw_result_free(&res);
            cases++;
        }
    }
    cr_assert(cases > 150 && raws >= 20 && seeds >= 5, "too few cases %zu %zu %zu", cases, raws, seeds);
    cr_log_info("legacy choice: %zu runs, %zu raw/double runs, %zu seed checks == %s", cases, raws, seeds, g.header);
    ng_free(&g);
}

/* searchsorted(side='left'): a deliberately wrong recipe the ties must catch. */
static size_t search_left(const double *cdf, size_t V, double u)
{
    size_t lo = 0, hi = V;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

Test(replay_numpy, cdf_ties_and_forced_states, .init = load_vectors, .fini = free_vectors)
{
    ng_file g;
    ng_load(&g, "data/golden/numpy_choice.txt");
    size_t ties = 0, forced = 0, left_wrong = 0;
    for (size_t i = 0; i < g.n; i++) {
        ng_line *L = &g.lines[i];
        int tie = !strcmp(L->f[0], "tie");
        if (!tie && strcmp(L->f[0], "forced"))
            continue;
        const ng_vec *v = ng_vec_find(VS, NVS, L->f[1]);
        double *cdf = malloc(v->V * sizeof *cdf);
        sl_draw_numpy_cdf_build(v->p, v->V, cdf);
        double u;
        long want;
        if (tie) {
            u = ng_f64(L->f[2]);
            want = strtol(L->f[3], NULL, 10);
            ties++;
        } else {
            sl_rng_pcg64_state s;
            ng_u128(L->f[2], &s.state_hi, &s.state_lo);
            ng_u128(L->f[3], &s.inc_hi, &s.inc_lo);
            u = sl_rng_uniform_f64_64_high53(sl_rng_pcg64_next(&s));
            want = strtol(L->f[4], NULL, 10);
            forced++;
        }
        size_t got = sl_draw_search_gt_f64(cdf, v->V, u);
        cr_assert_eq((long)got, want, "%s %s u=%a: observed %zu expected %ld", L->f[0], v->name, u, got, want);
        left_wrong += (long)search_left(cdf, v->V, u) != want;
        free(cdf);
    }
    cr_assert(ties > 50 && forced > 10, "too few: %zu ties %zu forced", ties, forced);
    cr_assert(left_wrong > 20, "side='left' should fail many tie cases, failed %zu", left_wrong);
    cr_log_info("ties: %zu, forced states: %zu; side='left' would miss %zu", ties, forced, left_wrong);
    ng_free(&g);
}

Test(replay_numpy, validation_accepts_and_rejects_as_numpy, .init = load_vectors, .fini = free_vectors)
{
    ng_file g;
    ng_load(&g, "data/golden/numpy_validate.txt");
    size_t ok = 0, bad = 0;
    for (size_t i = 0; i < g.n; i++) {
        ng_line *L = &g.lines[i];
        const ng_vec *v = ng_vec_find(VS, NVS, L->f[2]);
        char msg[256];
        ng_rest(L, 3, msg, sizeof msg);
        const sl_fw_type *ft = !strcmp(L->f[1], "gen") ? &sl_fw_numpy_type
                                                               : &sl_fw_numpy_legacy_type;
        sl_fw_result res;
        sl_error err;
        int rc = run_fw(ft, v, "0", 1, 1, &res, &err);
        if (!strcmp(msg, "ok")) {
            cr_assert_eq(rc, 0, "%s %s: rejected (%s), NumPy accepts", L->f[1], v->name, err.msg);
            sl_fw_result_free(&res);
            ok++;
        } else {
            cr_assert_neq(rc, 0, "%s %s: accepted, NumPy says: %s", L->f[1], v->name, msg);
            char want[300];
            snprintf(want, sizeof want, "(NumPy: %s)", msg);
            cr_assert(strstr(err.msg, want), "%s %s: message '%s' lacks '%s'", L->f[1], v->name, err.msg, want);
            cr_assert(!strncmp(err.msg, v->name, strlen(v->name)), "message '%s' does not name the source",
                      err.msg);
            bad++;
        }
    }
    cr_assert(ok >= 30 && bad >= 30, "ok %zu bad %zu", ok, bad);
    cr_log_info("validation: %zu accepted, %zu rejected, as NumPy", ok, bad);
    ng_free(&g);
}

Test(replay_numpy, validation_points_at_the_entry_and_tolerance)
{
    sl_draw_numpy_check c;
    const double p[] = { 0.6, -0.1, 0.5 };
    sl_draw_numpy_validate(p, 3, 0, &c);
    cr_assert_eq(c.entry, 1);
    cr_assert_str_eq(c.numpy_message, "probabilities are not non-negative");
    const double q[] = { 0.5, 0.5 };
    sl_draw_numpy_validate(q, 2, 1, &c);
    cr_assert_eq(c.code, 0);
    cr_assert(c.atol == 0x1.6a09e6p-12, "float32 atol %a", c.atol);
    sl_draw_numpy_validate(q, 2, 0, &c);
    cr_assert(c.atol == 0x1p-26, "float64 atol %a", c.atol);
}

/* ---------------------------------------------------------------- gsl */

static const double GSL_W[] = { 0.1, 0.25, 0.05, 0.3, 0.0, 0.2, 0.1 };

static int run_gsl(const double *w, size_t V, int has_seed, uint64_t seed, size_t n, sl_fw_result *res)
{
    sl_vec v;
    sl_test_vec(&v, w, V, "gsl-test", 0);
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.probs = &v;
    o.seed.lo = seed;
    o.has_seed = has_seed;
    o.n = n;
    o.k = 1;
    sl_error err;
    int rc = sl_fw_run(&sl_fw_gsl_type, &o, res, &err);
    sl_base_vec_free(&v);
    return rc;
}

/* Knuth's reading of GSL's alias table, from the words of a separate generator. */
static void check_gsl_knuth(const double *w, size_t V, uint64_t seed, size_t n)
{
    sl_fw_result res;
    cr_assert_eq(run_gsl(w, V, 1, seed, n, &res), 0);
    cr_assert_eq(res.words, n);
    cr_assert_str_eq(res.rng_name, "gsl-mt19937");
    gsl_ran_discrete_t *g = gsl_ran_discrete_preproc(V, w);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)seed);
    size_t zero_hits = 0;
    for (size_t i = 0; i < n; i++) {
        double u = (double)gsl_rng_get(r) / 4294967296.0;
        size_t c = (size_t)(u * (double)g->K);
        double f = g->F[c];
        size_t want = (f == 1.0 || u < f) ? c : g->A[c];
        cr_assert_eq((size_t)res.tokens[i], want, "gsl seed %llu draw %zu: observed %ld expected %zu",
                     (unsigned long long)seed, i, res.tokens[i], want);
        zero_hits += w[res.tokens[i]] == 0.0;
    }
    cr_assert_eq(zero_hits, 0, "a zero-weight entry was drawn");
    gsl_rng_free(r);
    gsl_ran_discrete_free(g);
    sl_fw_result_free(&res);
}

Test(replay_gsl, draws_equal_knuth_lookup_of_gsl_table)
{
    check_gsl_knuth(GSL_W, 7, 1, 20000);
    check_gsl_knuth(GSL_W, 7, 4357, 5000);
    double *z = malloc(49152 * sizeof *z);
    for (size_t i = 0; i < 49152; i++)
        z[i] = 1.0 / (double)(i + 1);
    check_gsl_knuth(z, 49152, 12345, 20000);
    free(z);
}

Test(replay_gsl, one_word_per_draw_and_seed_zero_is_4357)
{
    /* After n draws the generator stands exactly n words further. */
    gsl_ran_discrete_t *g = gsl_ran_discrete_preproc(7, GSL_W);
    gsl_rng *a = gsl_rng_alloc(gsl_rng_mt19937), *b = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(a, 99);
    gsl_rng_set(b, 99);
    for (int i = 0; i < 1000; i++) {
        gsl_ran_discrete(a, g);
        gsl_rng_get(b);
    }
    cr_assert_eq(gsl_rng_get(a), gsl_rng_get(b), "gsl_ran_discrete does not take one word per draw");
    gsl_rng_free(a);
    gsl_rng_free(b);
    gsl_ran_discrete_free(g);
    /* Seed 0 and no seed both mean 4357, as in GSL; 2^32 reduces to init_genrand(0). */
    sl_fw_result s0, s4357, none, s32, mt0;
    cr_assert_eq(run_gsl(GSL_W, 7, 1, 0, 500, &s0), 0);
    cr_assert_eq(run_gsl(GSL_W, 7, 1, 4357, 500, &s4357), 0);
    cr_assert_eq(run_gsl(GSL_W, 7, 0, 0, 500, &none), 0);
    cr_assert_eq(run_gsl(GSL_W, 7, 1, 1ull << 32, 500, &s32), 0);
    /* init_genrand(0) words through the core mt19937, read with GSL's table. */
    sl_rng_mt19937_state mt;
    sl_rng_mt19937_init_genrand(&mt, 0);
    g = gsl_ran_discrete_preproc(7, GSL_W);
    size_t diff = 0;
    for (size_t i = 0; i < 500; i++) {
        cr_assert_eq(s0.tokens[i], s4357.tokens[i]);
        cr_assert_eq(none.tokens[i], s4357.tokens[i]);
        double u = (double)sl_rng_mt19937_next(&mt) / 4294967296.0;
        size_t c = (size_t)(u * 7.0);
        size_t want = (g->F[c] == 1.0 || u < g->F[c]) ? c : g->A[c];
        cr_assert_eq((size_t)s32.tokens[i], want, "seed 2^32 draw %zu", i);
        diff += s32.tokens[i] != s0.tokens[i];
    }
    cr_assert(diff > 100, "seed 2^32 should differ from seed 0 (4357)");
    (void)mt0;
    gsl_ran_discrete_free(g);
    sl_fw_result_free(&s0);
    sl_fw_result_free(&s4357);
    sl_fw_result_free(&none);
    sl_fw_result_free(&s32);
}

Test(replay_gsl, rejects_bad_weights_without_gsl_abort)
{
    sl_fw_result res;
    const double bad[] = { 0.5, -0.1 };
    cr_assert_neq(run_gsl(bad, 2, 1, 1, 3, &res), 0);
    const double zero[] = { 0.0, 0.0 };
    cr_assert_neq(run_gsl(zero, 2, 1, 1, 3, &res), 0);
}

/* ---------------------------------------------------------------- NumPy 2.4.6 */

/* the next line of *p that is not a '#' comment, NUL-terminated in place; NULL at the end */
static char *next_record(char **p)
{
    while (*p && **p) {
        char *line = *p, *nl = strchr(line, '\n');
        *p = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        if (line[0] != '#' && line[0])
            return line;
    }
    return NULL;
}

/* compares the records of two golden files; returns how many differ (*n: how many compared) */
static size_t compare(const char *name, size_t *n, size_t fields, size_t *same_key)
{
    char a[128], b[128];
    snprintf(a, sizeof a, "data/golden/%s", name);
    snprintf(b, sizeof b, "data/golden/current/%s", name);
    char *ta = sl_test_slurp(a), *tb = sl_test_slurp(b);
    cr_assert(ta && tb, "%s or %s missing", a, b);
    char *pa = ta, *pb = tb, *la, *lb;
    size_t differ = 0;
    *n = 0;
    if (same_key)
        *same_key = 0;
    while ((la = next_record(&pa)) && (lb = next_record(&pb))) {
        (*n)++;
        if (strcmp(la, lb)) {
            differ++;
            if (same_key) { /* the first `fields` words (kind, case, name) agree */
                const char *x = la, *y = lb;
                size_t f = 0;
                while (*x && *x == *y && f < fields) {
                    f += *x == ' ';
                    x++, y++;
                }
                *same_key += f >= fields;
            }
        }
    }
    cr_assert(!next_record(&pa) && !next_record(&pb), "%s: the files hold different numbers of records", name);
    free(ta);
    free(tb);
    return differ;
}

Test(replay_numpy, numpy_2_4_6_draws_as_1_24_2)
{
    static const char *const same[] = {"numpy_choice.txt", "numpy_legacy.txt", "numpy_pcg64.txt", "numpy_seedseq.txt",
                                       "exprace_numpy.txt"};
    for (size_t i = 0; i < 5; i++) {
        size_t n, d = compare(same[i], &n, 0, NULL);
        cr_log_info("NumPy 2.4.6 %s: %zu records, %zu differ from 1.24.2", same[i], n, d);
        cr_assert(n > 10 || (i == 4 && n > 0), "%s: only %zu records", same[i], n);
        cr_assert_eq(d, 0, "%s: %zu of %zu records of NumPy 2.4.6 differ from 1.24.2's", same[i], d, n);
    }
}

Test(replay_numpy, numpy_2_4_6_rewords_choice_errors)
{
    size_t n, key, d = compare("numpy_validate.txt", &n, 3, &key);
    cr_log_info("NumPy 2.4.6 numpy_validate.txt: %zu records, %zu reworded", n, d);
    cr_assert(n > 50, "only %zu records", n);
    /* every difference is the same case refused with other words, none a new verdict */
    cr_assert_eq(key, d, "%zu of %zu differing records differ beyond their message", d - key, d);
    cr_assert(d > 0 && d < n, "%zu of %zu records differ: the files changed?", d, n);
    /* 1.24.2's vectors are libm's exp and pow (its AVX-512 dispatch off, analysis/golden/run.sh);
     * 2.4.6's were made with its own AVX-512 kernels: weather and rand1000 may differ in their
     * last bits, and nothing else may */
    char *ta = sl_test_slurp("data/golden/numpy_vectors.txt"), *tb = sl_test_slurp("data/golden/current/numpy_vectors.txt");
    cr_assert(ta && tb);
    char *pa = ta, *pb = tb, *la, *lb;
    size_t nv = 0, dv = 0;
    while ((la = next_record(&pa)) && (lb = next_record(&pb))) {
        nv++;
        if (!strcmp(la, lb))
            continue;
        dv++;
        char na[64] = "", nb[64] = "";
        cr_assert(sscanf(la, "vec %63s", na) == 1 && sscanf(lb, "vec %63s", nb) == 1 && !strcmp(na, nb),
                  "numpy_vectors record %zu: not the same vector", nv);
        cr_assert(!strcmp(na, "weather") || !strcmp(na, "rand1000"), "numpy_vectors: %s differs", na);
    }
    cr_assert(nv > 10 && dv <= 2, "numpy_vectors: %zu of %zu vectors differ", dv, nv);
    free(ta);
    free(tb);
}
