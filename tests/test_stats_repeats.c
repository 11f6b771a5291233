/* test_stats_repeats.c — the repeat (birthday) test of stats/repeats.c.
 *
 * replay_stats: counts and tails on cases known by hand (the birthday problem).
 * stat_stats: end to end on PyTorch issue #132395. N is the one `samplab power
 * --fault mkl-seed-collision` computes (90 % power at alpha 0.01 against 2^31 - 2
 * stream starts); N permutations torch.multinomial(ones(26), 26) drawn through
 * samplab's MKL exponential_ emulation (framework/torch_mkl.c, checked against
 * Intel MKL 2020.4 in test_rng_mcg31m1.c) must be rejected, and N drawn through
 * the MT19937 race (draw/torch.c, torch 2.x without MKL) must not. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "samplab.h"

Test(replay_stats, repeats_count_and_birthday_tails)
{
    sl_error err;
    static const uint64_t keys[7] = {5, 1, 5, 9, 1, 5, 0};
    uint64_t r;
    cr_assert_eq(sl_stat_repeats_count(keys, 7, &r, &err), 0);
    cr_expect_eq(r, 3, "5 twice again and 1 once again: 3 repeats, counted %llu", (unsigned long long)r);
    cr_assert_eq(sl_stat_repeats_count(keys, 1, &r, &err), 0);
    cr_expect_eq(r, 0);
    /* 23 people, 365 days: P(a shared birthday) = 0.5072972343 (1 - 365!/(342! 365^23)) */
    double p;
    int exact;
    cr_assert_eq(sl_stat_repeats_sf(23, 365, 1, &p, &exact, &err), 0);
    cr_expect(exact && fabs(p - 0.5072972343239857) < 1e-12, "P(R >= 1) = %.16g", p);
    cr_assert_eq(sl_stat_repeats_sf(366, 365, 1, &p, &exact, &err), 0);
    cr_expect_eq(p, 1.0, "pigeonhole");
    /* r >= 2 is Poisson with mean 23*22/730 = 0.69315: P(R >= 2) = 1 - e^-mu (1 + mu) */
    double mu = 23.0 * 22.0 / 730.0;
    cr_assert_eq(sl_stat_repeats_sf(23, 365, 2, &p, &exact, &err), 0);
    cr_expect(!exact && fabs(p - (1 - exp(-mu) * (1 + mu))) < 1e-12, "P(R >= 2) = %.16g", p);
    cr_expect_neq(sl_stat_repeats_sf(23, 0.5, 1, &p, &exact, &err), 0, "M < 1 is refused");
    /* the size never passes alpha; a small M puts the critical value above 1 */
    sl_stat_repeats_power pw;
    cr_assert_eq(sl_stat_repeats_power_at(2000, 1e6, 1e5, 0.01, &pw, &err), 0, "%s", err.msg);
    cr_expect(pw.r_crit > 1 && pw.size <= 0.01 && pw.power > pw.size, "r_crit %llu size %g power %g",
              (unsigned long long)pw.r_crit, pw.size, pw.power);
    double prev;
    cr_assert_eq(sl_stat_repeats_sf(2000, 1e6, pw.r_crit - 1, &prev, &exact, &err), 0);
    cr_expect_gt(prev, 0.01, "r_crit is the smallest critical value");
    cr_expect_neq(sl_stat_repeats_power_at(10, 100, 100, 0.01, &pw, &err), 0, "M' must be below M");
}

/* FNV-1a, 64 bits: the key of one permutation */
static uint64_t perm_key(const long *idx, size_t k)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < k; i++) {
        h ^= (uint64_t)idx[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static double m_null(void)
{
    double f = 1;
    for (int i = 2; i <= 26; i++)
        f *= i;
    return sl_stat_repeats_hashed_m(f);
}

/* The reporters' seed (discuss.pytorch.org 207149, PR #132532): 16000000000000000000 + 2024 */
#define ISSUE_SEED 0xDE0B6B3A764007E8ULL

Test(stat_stats, repeats_detect_torch_mkl_seed_collisions, .timeout = 60)
{
    sl_error err;
    sl_stat_repeats_power pw;
    cr_assert_eq(sl_stat_repeats_power_n(m_null(), 2147483646.0, 0.01, 0.9, &pw, &err), 0, "%s", err.msg);
    cr_assert(pw.n > 95000 && pw.n < 105000 && pw.r_crit == 1, "N = %llu", (unsigned long long)pw.n);
    size_t n = (size_t)pw.n;
    uint64_t *mkl = malloc(n * sizeof *mkl), *race = malloc(n * sizeof *race);
    cr_assert(mkl && race);

    /* torch 2.0-2.6 pip wheels: q = empty(26).exponential_(1) through MKL, then
     * topk(1/q, 26) = the indices by ascending q (equal q, rare, by index) */
    sl_seed sd = {.lo = ISSUE_SEED, .hi = 0, .stream = 0, .has_stream = 0};
    sl_rng g;
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0, "%s", err.msg);
    for (size_t c = 0; c < n; c++) {
        float q[26];
        cr_assert_eq(sl_fw_torch_mkl_exponential_f32(&g, q, 26, 1.0, 1, &err), 0, "%s", err.msg);
        long idx[26];
        for (int i = 0; i < 26; i++) {
            int j = i;
            for (; j > 0 && q[idx[j - 1]] > q[i]; j--)
                idx[j] = idx[j - 1];
            idx[j] = i;
        }
        mkl[c] = perm_key(idx, 26);
    }
    cr_expect_eq(g.words, n, "one MT19937 word per call");
    sl_rng_release(&g);

    /* torch 2.x without MKL: the MT19937 race of draw/torch.c, multinomial(ones(26), 26) */
    double d[26];
    float f[26];
    for (int i = 0; i < 26; i++) {
        d[i] = 1;
        f[i] = 1;
    }
    sl_draw_dist dist = {26, d, f, SL_F32, "ones(26)", 0};
    sl_draw_torch_param param = {SL_TORCH_2, 0, 26, SL_SIMD_AUTO};
    sl_draw_type tt = sl_draw_torch_type;
    tt.param = &param;
    void *table = NULL;
    cr_assert_eq(sl_draw_prepare_dist(&tt, &table, &dist, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_rng_init(&g, &sl_rng_torch_mt19937_type, &sd, &err), 0, "%s", err.msg);
    for (size_t c = 0; c < n; c++) {
        long idx[26];
        cr_assert_eq(sl_draw_k(&tt, table, &g, 26, idx, &err), 0, "%s", err.msg);
        race[c] = perm_key(idx, 26);
    }
    cr_expect_eq(g.words, 52 * (uint64_t)n, "2V words per call");
    tt.free(table);
    sl_rng_release(&g);

    sl_stat_repeats a, b;
    cr_assert_eq(sl_stat_repeats_test(mkl, n, m_null(), &a, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_stat_repeats_test(race, n, m_null(), &b, &err), 0, "%s", err.msg);
    cr_log_info("N = %zu calls (power %.4f): MKL %llu repeats (p = %.3g, %.4g expected under the fault), "
                "MT19937 race %llu (p = %.3g)",
                n, pw.power, (unsigned long long)a.repeats, a.p, pw.mean_fault, (unsigned long long)b.repeats, b.p);
    cr_expect(a.p < 0.01, "MKL: %llu repeats, p = %g: the test does not reject", (unsigned long long)a.repeats, a.p);
    cr_expect(b.p >= 0.01, "race: %llu repeats, p = %g: a correct sampler rejected", (unsigned long long)b.repeats,
              b.p);
    free(mkl);
    free(race);
}
