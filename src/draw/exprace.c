/* exprace.c — the exponential race: argmax over i of p_i / E_i with
 * E_i = -log(1 - U_i) ~ Exp(1), the first index winning ties. Equivalent to
 * the Gumbel-max trick; it is what torch.multinomial(p, 1) does on CPU
 * (ATen multinomial_with_replacement=False path), here in double with the
 * generic 53-bit uniform.
 * Cost: no table (prepare copies p, O(V)); per draw V uniforms (and few logs, below),
 * so 2V words from a 32-bit source (V from a 64-bit one), zeros included.
 * A zero-probability entry can win only through 0/0 = NaN, which never
 * compares greater here (torch's argmax differs: there a NaN wins).
 * Speed: every uniform is still drawn (so the words and the tokens are those
 * of the plain loop, sl_draw_exprace_reference), but few logarithms decide the
 * winner. Since -log(v) >= 1 - v, token i can only beat the current best ratio
 * b if d = 1 - (1 - u) <= p_i / b; d > p_i·c with c = (1 + 2^-20)/b skips the log
 * (the margin covers the roundings of c, the product, log and the division,
 * see exprace_scale). Words come a block at a time through sl_rng_fill. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "draw/sl_draw.h"

typedef struct exprace_table {
    size_t V;
    double p[];
} exprace_table;

static int exprace_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    const double *p = dist->d;
    size_t V = dist->V;
    (void)param;
    exprace_table *t = malloc(sizeof *t + V * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "exprace: out of memory");
    t->V = V;
    memcpy(t->p, p, V * sizeof(double));
    *table = t;
    return SL_OK;
}

/* The plain race: the reference the fast draw must equal token for token and
 * word for word (tests/test_draw_exprace.c). */
size_t sl_draw_exprace_reference(const double *p, size_t V, sl_rng *rng)
{
    size_t best = 0;
    double best_r = -1.0;
    for (size_t i = 0; i < V; i++) {
        double e = -log(1.0 - sl_rng_uniform_f64(rng));
        double r = p[i] / e;
        if (r > best_r) {
            best_r = r;
            best = i;
        }
    }
    return best;
}

/* Skip scale for best ratio b: token i is skipped when d > p_i·c. Why it is safe:
 * a skip means d > p_i(1 + 2^-20)(1 - 2^-52)/b (two roundings of 2^-53); the
 * computed e = -log(v) is within an ulp of -log(v) >= 1 - v >= d(1 - 2^-53), so
 * p_i/e rounded is below b by a factor of about 1 - 2^-20 and r > b fails.
 * b <= 0 (the start, -1, or a zero ratio) and a c that overflows disable skipping
 * (p_i·inf is inf or NaN, and d > NaN is false). A product that underflows
 * cannot hide a winner: nonzero d is at least 2^-64 here. b = inf gives c = 0:
 * only d = 0 is considered, and p_i/0 cannot exceed inf. */
static inline double exprace_scale(double b)
{
    return b > 0 ? (1.0 + 0x1p-20) / b : INFINITY;
}

/* One race element given its uniform u: the same arithmetic as the reference. */
static inline void exprace_consider(const double *p, size_t i, double u, size_t *best, double *best_r, double *c)
{
    double v = 1.0 - u;
    double d = 1.0 - v;
    if (d > p[i] * *c)
        return;
    double r = p[i] / -log(v);
    if (r > *best_r) {
        *best_r = r;
        *best = i;
        *c = exprace_scale(r);
    }
}

static size_t exprace_draw(const void *table, sl_rng *rng)
{
    enum { CH = 512 };
    const exprace_table *t = table;
    const double *p = t->p;
    size_t best = 0;
    double best_r = -1.0, c = exprace_scale(best_r);
    unsigned bits = rng->type->word_bits;
    if (bits != 32 && bits != 64) {
        /* GSL sources of other widths: sl_rng_uniform_f64's two-digit uniform, word by word */
        for (size_t i = 0; i < t->V; i++)
            exprace_consider(p, i, sl_rng_uniform_f64(rng), &best, &best_r, &c);
        return best;
    }
    uint64_t w[2 * CH];
    for (size_t base = 0; base < t->V; base += CH) {
        size_t m = t->V - base < CH ? t->V - base : CH;
        if (bits == 64) {
            sl_rng_fill(rng, w, m);
            for (size_t j = 0; j < m; j++)
                exprace_consider(p, base + j, sl_rng_uniform_f64_64_high53(w[j]), &best, &best_r, &c);
        } else {
            sl_rng_fill(rng, w, 2 * m);
            for (size_t j = 0; j < m; j++) {
                /* sl_rng_uniform_f64_2x32_numpy on two words already drawn */
                uint32_t a = (uint32_t)w[2 * j] >> 5, b = (uint32_t)w[2 * j + 1] >> 6;
                double u = ((double)a * 67108864.0 + (double)b) * 0x1p-53;
                exprace_consider(p, base + j, u, &best, &best_r, &c);
            }
        }
    }
    return best;
}

static void exprace_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_exprace_type = {
    .name = "exprace",
    .cost = "prepare O(V) copy; draw O(V): V uniforms, few logs; 2V words (32-bit source)",
    .prepare = exprace_prepare,
    .draw = exprace_draw,
    .free = exprace_free,
};
