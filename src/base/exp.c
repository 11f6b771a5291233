/* exp.c — e^x as JavaScript's Math.exp gives it in V8 (Node 20, Chrome): V8's
 * base::ieee754::exp (src/base/ieee754.cc), fdlibm's __ieee754_exp (e_exp.c, Sun
 * Microsystems 1993) as FreeBSD's msun writes it, plus V8's own exp(1) = Math.E.
 * JavaScript samplers (TensorFlow.js's CPU softmax) compute their exponentials
 * with it, and glibc's exp differs from it in the last bit for some inputs, which
 * after a float32 rounding can move a probability by one float32 ulp.
 *
 * The method: x = k ln 2 + r with |r| <= ln 2 / 2 (ln 2 in two parts, so k ln2_hi is
 * exact), R(r) = r - r^2 (P1 + r^2 (P2 + ...)) fdlibm's Remez polynomial, e^r =
 * 1 + r + r R / (2 - R) (rearranged as fdlibm does), then scaled by 2^k. No fused
 * multiply-add anywhere (the build has -ffp-contract=off): the same bits as V8's
 * on x86-64 and in WebAssembly. tests/test_base_exp.c checks it against Node's own
 * Math.exp (data/golden/js/v8_exp.txt). */
#include <string.h>

#include "base/sl_base.h"

/* fdlibm's constants: ln 2 = LN2_HI + LN2_LO (LN2_HI ends in 32 zero bits), 1 / ln 2,
 * the polynomial P1..P5, the thresholds beyond which e^x overflows or underflows */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10
#define INV_LN2 1.44269504088896338700e+00
#define P1 1.66666666666666019037e-01
#define P2 -2.77777777770155933842e-03
#define P3 6.61375632143793436117e-05
#define P4 -1.65339022054652515390e-06
#define P5 4.13813679705723846039e-08
#define O_THRESHOLD 7.09782712893383973096e+02
#define U_THRESHOLD -7.45133219101941108420e+02
#define M_E_V8 2.718281828459045 /* Math.E */

static double of_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

double sl_base_exp(double x)
{
    uint64_t ux;
    memcpy(&ux, &x, sizeof ux);
    uint32_t hx = (uint32_t)(ux >> 32) & 0x7fffffffu;
    int neg = (int)(ux >> 63);
    if (hx >= 0x40862E42u) { /* |x| >= 709.78: overflow, underflow, inf, NaN */
        if (hx >= 0x7ff00000u) {
            if (((hx & 0xfffffu) | (uint32_t)ux) != 0)
                return x + x;               /* NaN */
            return neg ? 0.0 : x;           /* e^-inf = 0, e^inf = inf */
        }
        if (x > O_THRESHOLD)
            return of_bits(0x7ff0000000000000ull);
        if (x < U_THRESHOLD)
            return 0.0;
    }
    double hi = 0, lo = 0;
    int k = 0;
    if (hx > 0x3fd62e42u) {          /* |x| > ln 2 / 2: reduce */
        if (hx < 0x3FF0A2B2u) {      /* and |x| < 1.5 ln 2: k = +-1 */
            if (x == 1.0)
                return M_E_V8;       /* V8's exception, so that Math.exp(1) === Math.E */
            hi = neg ? x + LN2_HI : x - LN2_HI;
            lo = neg ? -LN2_LO : LN2_LO;
            k = neg ? -1 : 1;
        } else {
            k = (int)(INV_LN2 * x + (neg ? -0.5 : 0.5)); /* truncation, as the C cast */
            double t = (double)k;
            hi = x - t * LN2_HI;     /* exact: t LN2_HI has 32 trailing zero bits */
            lo = t * LN2_LO;
        }
        x = hi - lo;
    } else if (hx < 0x3e300000u) {   /* |x| < 2^-28: 1 + x is exact to the last bit */
        return 1.0 + x;
    }
    double t = x * x;
    double twopk = k >= -1021 ? of_bits((uint64_t)(0x3ff + k) << 52) : of_bits((uint64_t)(0x3ff + k + 1000) << 52);
    double c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if (k == 0)
        return 1.0 - ((x * c) / (c - 2.0) - x);
    double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k >= -1021) {
        if (k == 1024)
            return y * 2.0 * of_bits(0x7fe0000000000000ull); /* 2^1023 */
        return y * twopk;
    }
    return y * twopk * of_bits(0x0170000000000000ull); /* 2^-1000 */
}
