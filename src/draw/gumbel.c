/* gumbel.c — Gumbel-max (Gumbel 1954; Maddison, Tarlow, Minka, "A* sampling", 2014):
 * token = argmax_i (log w_i + G_i), G_i = -log(-log U_i), one uniform per column.
 * The argmax (sl_draw_gumbel_max_offer, sl_draw.h) is the one every Gumbel-max
 * sampler here goes through: SGLang's hashed noise (draw/gumbel_hash.c), JAX's and
 * MLX's categorical (framework/jax.c, framework/mlx.c) and the "gumbel" method of
 * this file, which takes the generic 53-bit uniform (sl_rng_uniform_f64: 2 words
 * from a 32-bit source, 1 from a 64-bit one) and computes in float64 with the C
 * library's log. A zero weight (log 0 = -inf) is never a candidate, so it is never
 * drawn; its column still takes its uniform, so every draw spends V uniforms.
 * Cost: prepare O(V) logs; draw V uniforms and 2V logs. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "draw/sl_draw.h"

typedef struct gumbel_table {
    size_t V;
    double logw[];
} gumbel_table;

static int gumbel_prepare(void **table, const sl_draw_dist *dist, const void *param, sl_error *err)
{
    (void)param;
    gumbel_table *t = malloc(sizeof *t + (dist->V ? dist->V : 1) * sizeof(double));
    if (!t)
        return sl_base_error_set(err, SL_ENOMEM, "gumbel: out of memory for %zu columns", dist->V);
    t->V = dist->V;
    for (size_t i = 0; i < dist->V; i++)
        t->logw[i] = log(dist->d[i]);
    *table = t;
    return SL_OK;
}

static size_t gumbel_draw(const void *table, sl_rng *rng)
{
    const gumbel_table *t = table;
    sl_draw_gumbel_max m;
    sl_draw_gumbel_max_init(&m);
    for (size_t i = 0; i < t->V; i++) {
        double u = sl_rng_uniform_f64(rng);
        /* a zero weight takes its uniform but is no candidate: even when every live
         * column draws u = 0 (score -inf), the first live column wins, not index 0 */
        if (t->logw[i] != -INFINITY)
            sl_draw_gumbel_max_offer(&m, i, t->logw[i] + -log(-log(u)));
    }
    return sl_draw_gumbel_max_token(&m);
}

static void gumbel_free(void *table)
{
    free(table);
}

const sl_draw_type sl_draw_gumbel_type = {
    .name = "gumbel",
    .cost = "prepare O(V) logs; draw V uniforms, 2V logs, argmax; V uniforms = 2V words (32-bit source)",
    .prepare = gumbel_prepare,
    .draw = gumbel_draw,
    .free = gumbel_free,
    .exact = &sl_draw_gumbel_exact,
};

/* ---------------------------------------------------------------- exact audit
 *
 * The draw reads V independent 53-bit uniforms u_i = k_i 2^-53: 2^(53V) inputs, out of
 * reach for counting, so the audit is a rigorous bound, as the race's (draw/torch.c).
 * Gumbel-max is the exponential race argmin E_i / w_i with E_i = -log U_i (the same
 * uniforms), so the same coupling holds. What is exact: a zero weight is never drawn
 * (it is no candidate); every positive token is drawable (the others at k = 0 get
 * -log(-log 0) = -inf, and a tie of -inf keeps the first candidate).
 * What is bounded: outside the event that some positive column has k_i < K0 or
 * k_i > 2^53 - K0 (union bound 2 V+ K0 2^-53), each computed score is within D of
 * log w_i - log E(U_i) for the continuous U_i in [k_i h, (k_i + 1) h): the grid moves
 * log E by at most eu = max(2/(K0 (1 - 2h)), 1/((K0 - 1) ln 2)) (as in the race), the
 * inner log (1 ulp, glibc) by 2^-52, the outer log by 1 ulp of |G| <= 37, log w_i by
 * 1 ulp of |log w| <= 745, the sum by half an ulp of |score| <= 782. Winners differ only
 * if the two best continuous scores are within 2D, i.e. the race's two smallest times
 * within rho = e^(2D): probability <= (rho - 1)(1 - sum p^2). TV <= both, minimised
 * over K0, plus TV(w over its double sum, the float64 ideal). */
static int gumbel_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int rc = sl_stat_exact_begin(in, 0, 53, out, err);
    if (rc)
        return rc;
    size_t V = in->V, npos = 0;
    out->has_counts = 0;
    out->never = calloc(V ? V : 1, sizeof *out->never);
    out->zero_drawn = calloc(V ? V : 1, sizeof *out->zero_drawn);
    if (!out->never || !out->zero_drawn)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);
    long double s = 0, s2 = 0;
    for (size_t i = 0; i < V; i++) {
        s += in->d[i];
        npos += in->d[i] > 0;
    }
    for (size_t i = 0; i < V; i++) {
        long double p = in->d[i] / s;
        s2 += p * p;
    }
    const double h = 0x1p-53, ulp = 0x1p-52;
    double best = 1;
    for (int e4 = 16; e4 <= 200; e4++) {
        double K0 = floor(ldexp(1.0, e4 / 4) * pow(2.0, (e4 % 4) / 4.0));
        double eu = fmax(2 / (K0 * (1 - 2 * h)), 1 / ((K0 - 1) * log(2.0)));
        double D = eu + ulp * (1 + 37 + 745) + 0.5 * ulp * 782;
        double b = 2 * (double)npos * K0 * h + expm1(2 * D) * (double)(1 - s2);
        if (b < best)
            best = b;
    }
    out->tv_bound = fmin(1, best * (1 + 1e-9));
    out->tv = NAN;
    snprintf(out->note, sizeof out->note,
             "samplab draw/gumbel: argmax(log w_i - log(-log u_i)) in float64, u_i = k_i*2^-53, the first maximum. "
             "Not countable (2^(53V) inputs): a rigorous TV bound (coupling with the continuous exponential race); "
             "zero weights are never drawn and every positive one is drawable");
    return 0;
}

const sl_stat_exact_type sl_draw_gumbel_exact = {
    .name = "gumbel",
    .summary = "samplab draw/gumbel (Gumbel-max over float64 log-weights, 53-bit uniforms): a rigorous TV bound",
    .run = gumbel_exact_run,
};

/* ---------------------------------------------------------------- float32 categorical (JAX, MLX)
 *
 * jax.random.categorical and mlx.core.random.categorical over float32 logits:
 * gumbel = -log(-log(u)) in float32 (jax/_src/random.py _gumbel mode "low";
 * mlx/random.cpp gumbel), then gumbel + logits in float32 and argmax over the axis.
 * The logarithm is the C library's logf: XLA's CPU backend and MLX compute log with
 * their own vectorised code, which may differ in the last bit, so a token can differ
 * where the two best scores are within an ulp of each other. */
size_t sl_draw_gumbel_f32(const float *logits, const float *u, size_t V)
{
    sl_draw_gumbel_max m;
    sl_draw_gumbel_max_init(&m);
    for (size_t i = 0; i < V; i++) {
        float g = -logf(-logf(u[i]));
        float score = g + logits[i];
        sl_draw_gumbel_max_offer(&m, i, (double)score);
    }
    return sl_draw_gumbel_max_token(&m);
}
