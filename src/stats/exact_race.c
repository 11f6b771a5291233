/* exact_race.c — torch.multinomial(p, 1) on CPU (torch 1.13.1, replacement=False):
 * q = empty_like(p).exponential_(1), each q_i = (-1.0/1) * log(1 - u_i) in double
 * with u_i = k_i * 2^-53 (ATen TransformationHelper.h exponential, CPU branch),
 * rounded to p's dtype; r = p / q in p's dtype; argmax(r), first maximum, and a
 * NaN wins (torch's max/argmax propagate NaN).
 *
 * The race reads V independent 53-bit uniforms, so its induced distribution is a
 * count over 2^(53V) inputs: out of reach for counting. What is exact:
 *  - u_i == 0 happens with probability 2^-53 per entry. Then log(1) = +0 and
 *    (-1) * (+0) = -0.0, so q_i = -0.0: a token with p_i > 0 gets p/-0 = -inf and
 *    cannot win that call; a token with p_i == 0 gets 0/-0 = NaN and wins (the
 *    first NaN). Hence every zero-probability token is drawable, the m-th one
 *    (in index order) with probability exactly 2^-53 (1 - 2^-53)^(m-1).
 *  - every token with p_i > 0 is drawable (its k_i = 1, the other positive tokens
 *    at u = 0, hence -inf, and the zero tokens at u > 0, hence +0).
 * What is bounded (rigorously, by a coupling with the continuous race on the same
 * weights): outside the event G^c that some k_i < K0 or k_i > 2^53 - K0 (union
 * bound: 2 V K0 2^-53), every computed ratio is within a factor gamma of the
 * continuous p_i / E_i, E_i = -log(1 - U_i), where gamma covers the 2^-53 grid of
 * u (at most 2/K0 relative, or 1/((K0-1) ln 2) near u = 1), glibc's log (< 1 ulp)
 * and the float32 roundings of q and p/q. Only tokens with p_i > 0 enter G (a zero
 * weight gives +0, or NaN when u_i == 0: that event is added exactly, 1-(1-2^-53)^Z
 * for Z zero weights). Then the winners differ only if the two
 * smallest continuous T_i = E_i/p_i are within a factor rho = gamma_max/gamma_min,
 * whose probability in the continuous race is exactly
 *   sum_w p_w (1-p_w)(rho-1) / (1 + (1-p_w)(rho-1)) <= (rho-1)(1 - sum p^2)
 * (memorylessness: the gap to the runner-up is Exp(1-p_w), independent of the
 * winning time Exp(1)). TV(induced, ideal) <= P(NaN) + P(G^c) + P(close call)
 * + TV(float32 weights, float64 weights), minimised over K0.
 *
 * Checked against the real torch 1.13.1 at chosen uniforms (crafted MT19937 state,
 * data/golden/exact_crafted.txt): q = -0.0 at u = 0, the NaN winner, the -inf loser.
 *
 * Known divergences: torch 2.x computes log1p(-u) (read from source, not run here):
 * at u = 0 that is -0, so q = +0 and a positive token gets +inf and wins instead of
 * losing (the NaN case is unchanged); MKL builds draw the exponentials differently;
 * float16/bfloat16 not modelled. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/sl_stat.h"

/* 1 - (1 - 2^-53)^n, accurately. */
static double any_zero(double n)
{
    return -expm1(n * log1p(-0x1p-53));
}

static int run_race(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    int f32 = in->dtype == SL_F32;
    int rc = f32 ? sl_stat_exact_check_f(in, err) : sl_stat_exact_check_d(in, err);
    if (rc)
        return rc;
    if ((rc = sl_stat_exact_result_init(out, in, 53, err)))
        return rc;
    size_t V = in->V;
    out->has_counts = 0;
    out->never = calloc(V, sizeof *out->never);
    out->zero_drawn = calloc(V, sizeof *out->zero_drawn);
    if (!out->never || !out->zero_drawn)
        return sl_base_error_set(err, SL_ENOMEM, "exact audit: out of memory for %zu tokens", V);

    /* the weights the race really sees, and their own normalisation */
    long double s = 0, s2 = 0, tvw = 0;
    double pmax = 0;
    size_t nzero = 0, first_zero = V;
    for (size_t i = 0; i < V; i++) {
        double w = f32 ? (double)in->f[i] : in->d[i];
        s += w;
        if (w > pmax)
            pmax = w;
        if (w == 0) {
            if (first_zero == V)
                first_zero = i;
            nzero++;
        }
    }
    snprintf(out->note, sizeof out->note,
             "torch 1.13 multinomial(p, 1): argmax(p / q) over %s p, q_i = -log(1 - u_i) with "
             "53-bit u_i, rounded to p's dtype; NaN wins argmax. Not countable (2^(53V) inputs): "
             "failure paths are exact, the TV is a rigorous upper bound",
             f32 ? "float32" : "float64");
    if (!(s > 0)) {
        out->always_fails = 1;
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "runtime_error", -1,
            "RuntimeError: invalid multinomial distribution (sum of probabilities <= 0)");
        sl_stat_exact_path_set(p, 1, 0);
        return 0;
    }
    for (size_t i = 0; i < V; i++) {
        double w = f32 ? (double)in->f[i] : in->d[i];
        long double p = w / s;
        s2 += p * p;
        tvw += fabsl(p - (long double)out->ideal[i]);
        if (w == 0)
            out->zero_drawn[out->n_zero_drawn++] = i; /* via 0/-0 = NaN */
    }
    /* the zero-probability tokens of the ideal that the race can still draw are
     * exactly those with w == 0 here; tokens with ideal > 0 and w == 0 (float32
     * underflow) are drawable too, so no token is ever undrawable. */
    size_t nz_ideal = 0;
    for (size_t i = 0; i < out->n_zero_drawn; i++)
        if (out->ideal[out->zero_drawn[i]] == 0)
            out->zero_drawn[nz_ideal++] = out->zero_drawn[i];
    out->n_zero_drawn = nz_ideal;
    tvw /= 2;

    /* the bound */
    const double h = 0x1p-53, rnd = f32 ? 0x1p-24 : 0x1p-53, lg = 0x1p-52;
    double best = 1, bestK = 0;
    /* every ratio near the winner's must be normal: on G, q <= 53 ln 2 < 37, so the
     * winner's ratio is >= pmax/37, and competitors within rho of it are normal when
     * pmax >= 2^-120 (float32) or 2^-1000 (float64); overflow is excluded per K0 below */
    int ok = pmax >= (f32 ? 0x1p-120 : 0x1p-1000);
    for (int e4 = 16; ok && e4 <= 200; e4++) {
        double K0 = ldexp(1.0, e4 / 4) * pow(2.0, (e4 % 4) / 4.0);
        K0 = floor(K0);
        if (pmax * (1 / (K0 * h)) * 2 > (f32 ? (double)FLT_MAX : DBL_MAX / 4))
            continue;
        double eu = fmax(2 / (K0 * (1 - 2 * h)), 1 / ((K0 - 1) * log(2.0)));
        /* c_i / R_i = (1+eta)(1+d3) / ((1+d1)(1+d2)): eta in [0, eu] (grid), d1 log,
         * d2 rounding of q to float32, d3 the division; rho = max / min of it */
        double rho = (1 + eu) * (1 + lg) / (1 - lg) * (1 + rnd) * (1 + rnd) / ((1 - rnd) * (1 - rnd));
        /* zero-weight tokens matter only through u == 0 (NaN, counted exactly below);
         * otherwise their ratio is +0 and never reaches the winner's */
        double b = any_zero((double)nzero) + 2 * (double)(V - nzero) * K0 * h + (rho - 1) * (double)(1 - s2);
        if (b < best) {
            best = b;
            bestK = K0;
        }
    }
    double differ = best * (1 + 1e-9); /* margin for the double evaluation of the bound */
    best = differ + (double)tvw * (1 + 1e-9);
    out->tv_bound = best < 1 ? best : 1;
    out->tv = NAN;

    sl_stat_exact_path *p = sl_stat_exact_path_add(out, "u_zero", -1,
        "some u_i == 0 (exact: 1-(1-2^-53)^V): q_i = -0.0, p_i/q_i = -inf (p_i > 0) or NaN (p_i = 0)");
    if (p) {
        p->exact = 1;
        p->prob = any_zero((double)V);
    }
    p = !nzero ? NULL : sl_stat_exact_path_add(out, "nan_wins", (long)first_zero,
        "a zero-probability token gets u == 0: 0/-0 = NaN wins argmax (%zu such tokens, the first is %ld "
        "with probability 2^-53)", nzero, (long)first_zero);
    if (p) {
        p->exact = 1;
        p->prob = any_zero((double)nzero);
        if (nzero == 1)
            sl_stat_exact_path_set(p, 1, 53);
    }
    p = sl_stat_exact_path_add(out, "neg_inf", -1,
        "a positive-probability token gets u == 0: p/-0 = -inf, it cannot win that call");
    if (p) {
        p->exact = 1;
        p->prob = any_zero((double)(V - nzero));
    }
    p = sl_stat_exact_path_add(out, "rounding", -1,
        "%s: the computed argmax differs from the continuous race (grid of u, log, %s roundings, ties "
        "to the first index)%s",
        ok ? "upper bound" : "no bound available", f32 ? "float32" : "float64",
        ok ? "" : " (weights too small or too large for the normal-range argument)");
    if (p) {
        p->exact = 0;
        p->prob = differ < 1 ? differ : 1;
    }
    (void)bestK;
    return 0;
}

const sl_stat_exact_type sl_stat_exact_torch_race_type = {
    "torch", "torch 1.13 multinomial(p, 1): exponential race argmax(p/q), bound + exact failure paths",
    run_race
};
