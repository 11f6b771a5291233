/* exact_crafted.h — torch's exact audits (draw/torch.c) against the real torch fed
 * chosen uniforms through a crafted MT19937 state (analysis/golden/exact_crafted.py,
 * analysis/golden/current/exact_torch2.py): the words after the chosen ones are the
 * tempered zero state words, 0. Shared by test_stats_exact.c (torch 1.13.1) and
 * test_stats_exact_torch.c (torch 2.14.1). Header-only, static. */
#ifndef SL_TEST_EXACT_CRAFTED_H
#define SL_TEST_EXACT_CRAFTED_H

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

#define EC_MAXV 16

/* A 32-bit source returning given words, then zeros. */
typedef struct ec_words {
    uint32_t w[2 * EC_MAXV];
    size_t n, i;
} ec_words;

static uint64_t ec_words_next(void *state)
{
    ec_words *s = state;
    return s->i < s->n ? s->w[s->i++] : (s->i++, 0);
}

static const sl_rng_type ec_words_type = {.name = "crafted", .word_bits = 32, .state_size = sizeof(ec_words),
                                          .next = ec_words_next};

/* torch's words for the uniforms k_i * 2^-53: random64 = w1 << 32 | w2. */
static void ec_words_set(ec_words *s, const uint64_t *ks, size_t nk)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < nk; i++) {
        s->w[2 * i] = (uint32_t)(ks[i] >> 32);
        s->w[2 * i + 1] = (uint32_t)ks[i];
    }
    s->n = 2 * nk;
}

/* samplab's torch.multinomial(p, k, replacement) at the given uniforms (draw/torch.c);
 * *words: the words it took. */
static void ec_draw(int version, int replacement, size_t k, sl_dtype dt, const float *f, const double *d, size_t V,
                    const uint64_t *ks, size_t nk, long *out, uint64_t *words)
{
    sl_draw_torch_param tp = {version, replacement, k, SL_SIMD_AUTO};
    sl_draw_type t = sl_draw_torch_type;
    t.param = &tp;
    sl_draw_dist dist = {V, d, f, dt, "crafted", 0};
    void *table;
    sl_error e;
    cr_assert_eq(sl_draw_prepare_dist(&t, &table, &dist, &e), 0, "%s", e.msg);
    ec_words st;
    ec_words_set(&st, ks, nk);
    sl_rng g = {.type = &ec_words_type, .state = &st};
    cr_assert_eq(sl_draw_k(&t, table, &g, k, out, &e), 0, "%s", e.msg);
    if (words)
        *words = g.words;
    t.free(table);
}

/* The race as the audit describes it, written out independently of draw/race.c:
 * q_i = (-1.0) * log1p(-u_i) (2.x) or (-1.0) * log(1 - u_i) (1.13) in double,
 * rounded to p's dtype; r_i = p_i / q_i in p's dtype; the first NaN wins, else the
 * first maximum. q[] gets the exponentials (widened). */
static size_t ec_race_model(int version, sl_dtype dt, const float *f, const double *d, const uint64_t *ks, size_t V,
                            double *q)
{
    size_t best = 0;
    double br = 0;
    for (size_t i = 0; i < V; i++) {
        double u = ldexp((double)ks[i], -53);
        double x = version == SL_TORCH_2 ? -1.0 * log1p(-u) : -1.0 * log(1.0 - u);
        q[i] = dt == SL_F32 ? (double)(float)x : x;
    }
    for (size_t i = 0; i < V; i++) {
        double r = dt == SL_F32 ? (double)(f[i] / (float)q[i]) : d[i] / q[i];
        if (isnan(r))
            return i;
        if (i == 0 || r > br) {
            br = r;
            best = i;
        }
    }
    return best;
}

static sl_stat_exact_input ec_input(const float *f, const double *d, size_t V, sl_dtype dt)
{
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    in.V = V;
    in.f = f;
    in.d = d;
    in.dtype = dt;
    in.source = "crafted";
    return in;
}

static const sl_stat_exact_path *ec_path(const sl_stat_exact_result *r, const char *name)
{
    for (size_t i = 0; i < r->n_paths; i++)
        if (!strcmp(r->paths[i].name, name))
            return &r->paths[i];
    return NULL;
}

/* What the race audit of `version` states about a call at uniforms ks, checked
 * against the token torch drew: a drawn zero-probability token is listed as
 * drawable; when some u_i == 0, the winner is the first zero-probability token with
 * u_i == 0, else (2.x) the first positive one (+inf), or (1.13) a token with
 * u_i > 0 (-inf loses); the matching path is present and exact. */
static void ec_check_race_audit(int version, sl_dtype dt, const float *f, const double *d, size_t V,
                                const uint64_t *ks, size_t tok, const char *id)
{
    sl_stat_exact_input in = ec_input(f, d, V, dt);
    sl_stat_exact_result r;
    sl_error e;
    const sl_stat_exact_type *t = version == SL_TORCH_2 ? &sl_draw_torch_race_exact : &sl_draw_torch113_race_exact;
    cr_assert_eq(sl_stat_exact_run(t, &in, &r, &e), 0, "%s: %s", id, e.msg);
    size_t first_nan = V, first_inf = V;
    for (size_t i = 0; i < V; i++) {
        double w = dt == SL_F32 ? (double)f[i] : d[i];
        if (ks[i] == 0 && w == 0 && first_nan == V)
            first_nan = i;
        if (ks[i] == 0 && w > 0 && first_inf == V)
            first_inf = i;
    }
    double wt = dt == SL_F32 ? (double)f[tok] : d[tok];
    if (wt == 0 && r.ideal[tok] == 0) {
        int listed = 0;
        for (size_t i = 0; i < r.n_zero_drawn; i++)
            listed |= r.zero_drawn[i] == tok;
        cr_assert(listed, "%s: zero token %zu drawn by torch but not listed", id, tok);
    }
    if (first_nan < V) {
        cr_assert_eq(tok, first_nan, "%s: torch drew %zu, the audit's rule says the first NaN, %zu", id, tok, first_nan);
        const sl_stat_exact_path *p = ec_path(&r, "nan_wins");
        cr_assert(p && p->exact && p->prob > 0, "%s: no exact nan_wins path", id);
    } else if (first_inf < V && version == SL_TORCH_2) {
        cr_assert_eq(tok, first_inf, "%s: torch drew %zu, the audit's rule says the first +inf, %zu", id, tok,
                     first_inf);
        const sl_stat_exact_path *p = ec_path(&r, "pos_inf_wins");
        cr_assert(p && p->exact && p->prob > 0, "%s: no exact pos_inf_wins path", id);
    } else if (first_inf < V) {
        cr_assert(ks[tok] != 0, "%s: torch 1.13 drew %zu at u = 0 (-inf cannot win)", id, tok);
        const sl_stat_exact_path *p = ec_path(&r, "neg_inf");
        cr_assert(p && p->exact && p->prob > 0, "%s: no exact neg_inf path", id);
    }
    cr_assert_eq(r.n_never, 0, "%s: every positive token is drawable", id);
    sl_stat_exact_result_free(&r);
}

/* The token the cdf audit's exact counts give to uniform k. */
static size_t ec_cdf_token(const sl_stat_exact_result *r, uint64_t k)
{
    uint64_t hi = 0;
    for (size_t j = 0; j < r->V; j++) {
        hi += (uint64_t)r->count[j];
        if (k < hi)
            return j;
    }
    return r->V;
}

/* #{interior boundaries of the counts} and how many have k == K_j or k + 1 == K_j. */
static void ec_cdf_probed(const sl_stat_exact_result *r, uint64_t k, size_t *seen)
{
    uint64_t hi = 0;
    for (size_t j = 0; j + 1 < r->V; j++) {
        hi += (uint64_t)r->count[j];
        *seen += hi > 0 && hi < ((uint64_t)1 << 53) && (k == hi || k + 1 == hi);
    }
}

static size_t ec_cdf_need(const sl_stat_exact_result *r)
{
    uint64_t hi = 0;
    size_t need = 0;
    for (size_t j = 0; j + 1 < r->V; j++) {
        hi += (uint64_t)r->count[j];
        need += 2 * (hi > 0 && hi < ((uint64_t)1 << 53));
    }
    return need;
}

typedef struct ec_tally {
    size_t lines, checks;
    size_t race2_vs_113; /* torch checks where the other release line's model gives another token */
} ec_tally;

/* One file of analysis/golden/exact_crafted.py (torch + NumPy legacy, the torch
 * release line `version`):
 *  race: multinomial(p, 1) with u = 0 planted, and exponential_ at the same uniforms;
 *  repl: multinomial(p, 1, replacement=True) with the first uniform chosen (1.13: the
 *        cdf path, one uniform; 2.x: the race, the other uniforms 0);
 *  npleg: RandomState.choice at chosen uniforms. */
static ec_tally ec_replay_crafted(const char *path, int version)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s is missing", path);
    ec_tally n = {0, 0, 0};
    int other = version == SL_TORCH_2 ? SL_TORCH_1_13 : SL_TORCH_2;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char kind[16], name[64];
        size_t V;
        int off = 0;
        cr_assert_eq(sscanf(line, "%15s %63s %zu%n", kind, name, &V, &off), 3, "line: %.60s", line);
        cr_assert(V <= EC_MAXV);
        double d[EC_MAXV], q[EC_MAXV], qo[EC_MAXV];
        float f[EC_MAXV];
        char *s = line + off, *end;
        cr_assert_eq(sl_test_read_floats(s, d, f, V), V, "%s: weights", name);
        s = strchr(s, '|') + 1;
        if (!strcmp(kind, "race")) {
            uint64_t ks[EC_MAXV];
            for (size_t i = 0; i < V; i++) {
                ks[i] = strtoull(s, &end, 10);
                s = end;
            }
            s = strchr(s, '|') + 1;
            size_t tok = strtoul(s, &end, 10);
            s = strchr(end, '|') + 1;
            size_t mine = ec_race_model(version, SL_F32, f, d, ks, V, q);
            cr_assert_eq(mine, tok, "race %s: model draws %zu, torch drew %zu", name, mine, tok);
            long drawn;
            ec_draw(version, 0, 1, SL_F32, f, d, V, ks, V, &drawn, NULL);
            cr_assert_eq(drawn, (long)tok, "race %s: draw/torch.c draws %ld, torch drew %zu", name, drawn, tok);
            for (size_t i = 0; i < V; i++) {
                float g = strtof(s, &end), m = (float)q[i];
                s = end;
                cr_assert(memcmp(&g, &m, 4) == 0, "race %s: q[%zu] = %a, torch %a", name, i, (double)m, (double)g);
            }
            n.race2_vs_113 += ec_race_model(other, SL_F32, f, d, ks, V, qo) != tok;
            ec_check_race_audit(version, SL_F32, f, d, V, ks, tok, name);
            n.checks++;
        } else if (!strcmp(kind, "repl") && version == SL_TORCH_2) {
            /* one sample with replacement is the race; uniforms 1.. are 0. 1.13 takes
             * the cdf path on the first uniform alone: its exact counts for comparison */
            sl_stat_exact_input in = ec_input(f, d, V, SL_F32);
            sl_stat_exact_result r113;
            sl_error e;
            cr_assert_eq(sl_stat_exact_run(&sl_draw_torch_repl_exact, &in, &r113, &e), 0, "%s", e.msg);
            unsigned long long k;
            unsigned t;
            int used;
            while (sscanf(s, " %llu:%u%n", &k, &t, &used) == 2) {
                n.race2_vs_113 += ec_cdf_token(&r113, k) != t;
                uint64_t ks[EC_MAXV] = {k};
                long drawn;
                ec_draw(version, 1, 1, SL_F32, f, d, V, ks, 1, &drawn, NULL);
                cr_assert_eq(drawn, (long)t, "repl %s: k = %llu, draw/torch.c draws %ld, torch drew %u", name, k,
                             drawn, t);
                size_t mine = ec_race_model(version, SL_F32, f, d, ks, V, q);
                cr_assert_eq(mine, t, "repl %s: k = %llu, model draws %zu, torch drew %u", name, k, mine, t);
                ec_check_race_audit(version, SL_F32, f, d, V, ks, t, name);
                s += used;
                n.checks++;
            }
            sl_stat_exact_result_free(&r113);
        } else {
            int np = !strcmp(kind, "npleg");
            sl_stat_exact_input in = ec_input(f, d, V, np ? SL_F64 : SL_F32);
            sl_stat_exact_result r;
            sl_error e;
            cr_assert_eq(sl_stat_exact_run(np ? &sl_draw_numpy_exact : &sl_draw_torch_repl_exact, &in, &r, &e), 0,
                         "%s", e.msg);
            unsigned long long k;
            unsigned t;
            int used;
            size_t seen = 0;
            while (sscanf(s, " %llu:%u%n", &k, &t, &used) == 2) {
                size_t mine = ec_cdf_token(&r, k);
                cr_assert_eq(mine, t, "%s %s: k = %llu, exact model gives %zu, the library drew %u", kind, name, k,
                             mine, t);
                if (!np) {
                    uint64_t ks[1] = {k};
                    long drawn;
                    ec_draw(version, 1, 1, SL_F32, f, d, V, ks, 1, &drawn, NULL);
                    cr_assert_eq(drawn, (long)t, "repl %s: k = %llu, draw/torch.c draws %ld", name, k, drawn);
                }
                ec_cdf_probed(&r, k, &seen);
                s += used;
                n.checks++;
            }
            /* every interior boundary of the model was probed on both sides */
            size_t need = ec_cdf_need(&r);
            cr_assert(seen >= need, "%s %s: boundaries probed %zu of %zu", kind, name, seen, need);
            sl_stat_exact_result_free(&r);
        }
        n.lines++;
    }
    free(text);
    return n;
}

#endif
