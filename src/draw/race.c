/* race.c — the exponential race, the one implementation behind the generic
 * `exprace` method (draw/exprace.c) and torch.multinomial's no-replacement path
 * (draw/torch.c): argmax over i of r_i = p_i / q_i with q_i = -log(1 - u_i) ~ Exp(1),
 * one uniform u_i per token, the first index winning ties. Equivalent to the
 * Gumbel-max trick (Gumbel 1954; Yellott 1977 for the race of exponentials).
 *
 * A rule names what differs between the libraries:
 *  - the uniform: genrand_res53 of two 32-bit words, (w1 >> 5)·2^26 + (w2 >> 6)
 *    over 2^53, as NumPy's random_sample (one 64-bit word: (w >> 11)·2^-53); or
 *    torch's random64() & (2^53 - 1) over 2^53, random64 = w1 << 32 | w2
 *    (ATen/core/TransformationHelper.h uniform_real, torch 1.13 and 2.x);
 *  - the exponential: -1.0 * log(1 - u) (torch 1.13, the generic method), or
 *    -1.0 * log1p(-u) (torch 2.x, aten/src/ATen/native/cpu/DistributionTemplates.h);
 *  - the ratio's precision: float32 (p / (float)q) or float64;
 *  - NaN: torch's argmax lets the first NaN ratio win; the generic method never
 *    lets one win (0/0 only arises for a zero weight at u = 0).
 *
 * Speed: every word is still drawn (the stream position is part of the result),
 * but few logarithms decide the winner. Since -log(1 - u) >= u, token i can only
 * reach the current best ratio b if u <= p_i / b; the pre-test compares the top
 * 21 bits of u, taken from the first word alone, with a float bound
 * p_i·2^21·(1 + 2^-12)/b (race_scale says why that margin is safe), 8 tokens at a
 * time with AVX2 or 4 with SSE2 (base/simd.c chooses), and computes the exact log
 * only for the few that pass. sl_draw_race_one_naive takes every log; the tests
 * check that both agree token for token and word for word. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if SL_BASE_HAVE_AVX2
#include <immintrin.h>
#endif

#define MASK53 ((1ULL << 53) - 1)
#define CH 512 /* tokens per block of words */

int sl_draw_race_init(sl_draw_race *r, const sl_draw_dist *p, const sl_draw_race_rule *rule, int simd,
                      sl_error *err)
{
    memset(r, 0, sizeof *r);
    r->V = p->V;
    r->dtype = p->dtype;
    r->pf = p->f;
    r->pd = p->d;
    r->rule = *rule;
    r->simd = sl_base_simd_level(simd);
    if (p->dtype == SL_F32 && !p->f)
        return sl_base_error_set(err, SL_EINVAL, "%s: a float32 race needs float32 weights", p->source);
    r->bound = malloc((p->V ? p->V : 1) * sizeof *r->bound);
    if (!r->bound)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for V = %zu", p->source, p->V);
    for (size_t i = 0; i < p->V; i++) {
        /* a float no smaller than p_i (float32 p: itself); NaN stays NaN and always passes */
        if (p->dtype == SL_F32) {
            r->bound[i] = p->f[i];
        } else {
            float b = (float)p->d[i];
            if ((double)b < p->d[i])
                b = nextafterf(b, INFINITY);
            r->bound[i] = b;
        }
    }
    return SL_OK;
}

void sl_draw_race_free(sl_draw_race *r)
{
    free(r->bound);
    r->bound = NULL;
}

/* The uniform of one token from its two 32-bit words, and its top 21 bits. */
static inline double race_u(int uniform, uint32_t w1, uint32_t w2)
{
    if (uniform == SL_RACE_U_TORCH53)
        return (double)((((uint64_t)w1 << 32) | w2) & MASK53) * 0x1p-53;
    return ((double)(w1 >> 5) * 67108864.0 + (double)(w2 >> 6)) * 0x1p-53;
}

static inline double race_q(const sl_draw_race *r, double u)
{
    return r->rule.log1p ? -1.0 * log1p(-u) : -1.0 * log(1.0 - u);
}

/* r_i widened to double (exact) for comparisons */
static inline double race_ratio(const sl_draw_race *r, size_t i, double q)
{
    if (r->dtype == SL_F32)
        return (double)(r->pf[i] / (float)q);
    return r->pd[i] / q;
}

void sl_draw_race_exponentials(const sl_draw_race_rule *rule, sl_dtype dtype, sl_rng *rng, double *out, size_t n)
{
    sl_draw_race r;
    memset(&r, 0, sizeof r);
    r.rule = *rule;
    for (size_t i = 0; i < n; i++) {
        uint32_t w[2];
        sl_rng_fill32(rng, w, 2);
        double q = race_q(&r, race_u(rule->uniform, w[0], w[1]));
        out[i] = dtype == SL_F32 ? (double)(float)q : q;
    }
}

void sl_draw_race_skip(sl_rng *rng, size_t n)
{
    uint32_t w[2 * CH];
    for (size_t i = 0; i < n; i += CH) {
        size_t m = n - i < CH ? n - i : CH;
        sl_rng_fill32(rng, w, 2 * m); /* two words a uniform, as race_u reads them */
    }
}

typedef struct race_state {
    size_t best_i;
    double best;
    int done; /* a NaN won (nan_wins): nothing can beat it */
    float c;  /* the pre-test scale for the current best */
} race_state;

/* Pre-test scale for best ratio b: token i passes unless hi21(u) > bound_i·c with
 * c = 2^21·(1 + 2^-12)/b. Why it is safe: u·2^21 >= hi21 and -log(1-u) >= u, so a
 * skipped i has q >= u(1 - 2^-52) > p_i(1 + 2^-12)(1 - 2^-22)/b; rounding q to
 * float (2^-24), the log (an ulp) and the division (2^-24) cannot close a 2^-13
 * gap, so r_i < b. Products that underflow only matter below 1, where hi21 = 0 is
 * never skipped. b <= 0 (or -inf, the start) disables skipping (c = inf, and
 * 0·inf = NaN passes); b = NaN can no longer be beaten. */
static inline float race_scale(double b)
{
    if (!(b > 0))
        return INFINITY;
    double c = 0x1p21 * (1.0 + 0x1p-12) / b;
    return c > 3.0e38 ? INFINITY : (float)c;
}

static inline void race_consider(const sl_draw_race *r, race_state *s, size_t i, double u)
{
    double x = race_ratio(r, i, race_q(r, u));
    if (x > s->best || (r->rule.nan_wins && isnan(x) && !isnan(s->best))) {
        s->best = x;
        s->best_i = i;
        if (isnan(x))
            s->done = 1; /* the first NaN wins whatever follows */
        s->c = race_scale(x);
    }
}

static inline uint32_t race_hi21(int uniform, uint32_t w1)
{
    return uniform == SL_RACE_U_TORCH53 ? (w1 & 0x1FFFFFu) : (w1 >> 11);
}

#if SL_BASE_HAVE_AVX2
/* The pre-test 8 tokens at a time; returns the number of tokens dealt with. */
__attribute__((target("avx2"))) static size_t scan_avx2(const sl_draw_race *r, race_state *s, const uint32_t *w,
                                                        size_t i0, size_t m)
{
    const float *bound = r->bound + i0;
    const int torch = r->rule.uniform == SL_RACE_U_TORCH53;
    const __m256i mask21 = _mm256_set1_epi32(0x1FFFFF);
    size_t j = 0;
    for (; j + 8 <= m && !s->done; j += 8) {
        __m256 a = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(w + 2 * j)));
        __m256 b = _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(w + 2 * j + 8)));
        /* first words: lanes come out as tokens 0,1,4,5 | 2,3,6,7; the 64-bit permute restores order */
        __m256i y = _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
        y = _mm256_permute4x64_epi64(y, _MM_SHUFFLE(3, 1, 2, 0));
        y = torch ? _mm256_and_si256(y, mask21) : _mm256_srli_epi32(y, 11);
        __m256 hi = _mm256_cvtepi32_ps(y);
        __m256 x = _mm256_mul_ps(_mm256_loadu_ps(bound + j), _mm256_set1_ps(s->c));
        int pass = _mm256_movemask_ps(_mm256_cmp_ps(hi, x, _CMP_NGT_UQ)); /* !(hi > x): NaN passes */
        while (pass) {
            int l = __builtin_ctz((unsigned)pass);
            pass &= pass - 1;
            size_t e = j + (size_t)l;
            race_consider(r, s, i0 + e, race_u(r->rule.uniform, w[2 * e], w[2 * e + 1]));
            if (s->done)
                break;
        }
    }
    return j;
}
#endif

/* Tokens i0..i0+m-1 from their words w[0..2m). */
static void scan32(const sl_draw_race *r, race_state *s, const uint32_t *w, size_t i0, size_t m)
{
    const float *bound = r->bound + i0;
    const int uniform = r->rule.uniform;
    size_t j = 0;
#if SL_BASE_HAVE_AVX2
    if (r->simd == SL_SIMD_AVX2)
        j = scan_avx2(r, s, w, i0, m);
#endif
#if defined(__SSE2__)
    if (r->simd != SL_SIMD_SCALAR) {
        const __m128i mask21 = _mm_set1_epi32(0x1FFFFF);
        const int torch = uniform == SL_RACE_U_TORCH53;
        for (; j + 4 <= m && !s->done; j += 4) {
            __m128 a = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(w + 2 * j)));
            __m128 b = _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(w + 2 * j + 4)));
            __m128i y = _mm_castps_si128(_mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
            y = torch ? _mm_and_si128(y, mask21) : _mm_srli_epi32(y, 11);
            __m128 hi = _mm_cvtepi32_ps(y);
            __m128 x = _mm_mul_ps(_mm_loadu_ps(bound + j), _mm_set1_ps(s->c));
            int pass = _mm_movemask_ps(_mm_cmpngt_ps(hi, x)); /* !(hi > x): NaN passes */
            while (pass) {
                int l = __builtin_ctz((unsigned)pass);
                pass &= pass - 1;
                size_t e = j + (size_t)l;
                race_consider(r, s, i0 + e, race_u(uniform, w[2 * e], w[2 * e + 1]));
                if (s->done)
                    break;
            }
        }
    }
#endif
    for (; j < m && !s->done; j++) {
        if ((float)race_hi21(uniform, w[2 * j]) > bound[j] * s->c)
            continue;
        race_consider(r, s, i0 + j, race_u(uniform, w[2 * j], w[2 * j + 1]));
    }
}

size_t sl_draw_race_one(const sl_draw_race *r, sl_rng *rng)
{
    race_state s = {0, -INFINITY, 0, INFINITY};
    unsigned bits = rng->type->word_bits;
    if (bits == 32) {
        uint32_t w[2 * CH];
        for (size_t base = 0; base < r->V; base += CH) {
            size_t m = r->V - base < CH ? r->V - base : CH;
            sl_rng_fill32(rng, w, 2 * m);
            if (!s.done)
                scan32(r, &s, w, base, m);
        }
    } else if (bits == 64) {
        /* one 64-bit word a token: u = (w >> 11)·2^-53, top 21 bits w >> 43 */
        uint64_t w[CH];
        for (size_t base = 0; base < r->V; base += CH) {
            size_t m = r->V - base < CH ? r->V - base : CH;
            sl_rng_fill(rng, w, m);
            for (size_t j = 0; j < m && !s.done; j++)
                if (!((float)(uint32_t)(w[j] >> 43) > r->bound[base + j] * s.c))
                    race_consider(r, &s, base + j, sl_rng_uniform_f64_64_high53(w[j]));
        }
    } else {
        /* GSL sources of other widths: sl_rng_uniform_f64's two-digit uniform, word by word */
        for (size_t i = 0; i < r->V; i++) {
            double u = sl_rng_uniform_f64(rng);
            if (!s.done && !((float)(uint32_t)(u * 0x1p21) > r->bound[i] * s.c))
                race_consider(r, &s, i, u);
        }
    }
    return s.best_i;
}

/* The uniform of token i drawn the plain way, for the reference and the ratios. */
static double next_u(const sl_draw_race *r, sl_rng *rng)
{
    unsigned bits = rng->type->word_bits;
    if (bits == 32) {
        uint32_t w1 = (uint32_t)sl_rng_next(rng);
        return race_u(r->rule.uniform, w1, (uint32_t)sl_rng_next(rng));
    }
    return sl_rng_uniform_f64(rng);
}

size_t sl_draw_race_one_naive(const sl_draw_race *r, sl_rng *rng)
{
    race_state s = {0, -INFINITY, 0, INFINITY};
    for (size_t i = 0; i < r->V; i++) {
        double x = race_ratio(r, i, race_q(r, next_u(r, rng)));
        if (x > s.best || (r->rule.nan_wins && isnan(x) && !isnan(s.best) && !s.done)) {
            s.best = x;
            s.best_i = i;
            s.done |= isnan(x);
        }
    }
    return s.best_i;
}

size_t sl_draw_race_argmax_q(const sl_draw_race *r, const double *q)
{
    race_state s = {0, -INFINITY, 0, INFINITY};
    for (size_t i = 0; i < r->V && !s.done; i++) {
        double x = race_ratio(r, i, q[i]);
        if (x > s.best || (r->rule.nan_wins && isnan(x) && !isnan(s.best))) {
            s.best = x;
            s.best_i = i;
            s.done = isnan(x);
        }
    }
    return s.best_i;
}

void sl_draw_race_ratios(const sl_draw_race *r, sl_rng *rng, double *ratio)
{
    for (size_t i = 0; i < r->V; i++)
        ratio[i] = race_ratio(r, i, race_q(r, next_u(r, rng)));
}
