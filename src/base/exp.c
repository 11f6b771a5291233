/* exp.c — e^x as fdlibm's __ieee754_exp computes it (e_exp.c, Sun Microsystems
 * 1993; FreeBSD msun's form, which V8 ports as base::ieee754::exp and Node's
 * Math.exp runs): x = k ln2 + r with |r| <= ln2 / 2, ln2 in two parts so that
 * k ln2_hi is exact, then e^r = 1 + r + r c / (2 - c) with c = r - r^2 P(r^2),
 * P fdlibm's degree-5 Remez polynomial, and the scale 2^k. Error below 1 ulp,
 * so it differs from glibc's exp in the last bit of about one result in twenty
 * (measured on Node 20's Math.exp): transformers.js's softmax, which rounds
 * Math.exp to float32, is reproduced with this one. No fused multiply-add (the
 * build has -ffp-contract=off). */
#include <math.h>
#include <string.h>

#include "base/sl_base.h"

#define LN2_HI 6.93147180369123816490e-01 /* ends in 32 zero bits */
#define LN2_LO 1.90821492927058770002e-10
#define INV_LN2 1.44269504088896338700e+00
#define P1 1.66666666666666019037e-01
#define P2 -2.77777777770155933842e-03
#define P3 6.61375632143793436117e-05
#define P4 -1.65339022054652515390e-06
#define P5 4.13813679705723846039e-08
#define O_THRESHOLD 7.09782712893383973096e+02  /* above: +inf */
#define U_THRESHOLD -7.45133219101941108420e+02 /* below: 0 */

static double pow2(int k) /* 2^k for a normal exponent, from its bits */
{
    uint64_t u = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

double sl_base_exp(double x)
{
    uint64_t ix;
    memcpy(&ix, &x, sizeof ix);
    uint32_t hx = (uint32_t)(ix >> 32) & 0x7fffffffu;
    int neg = (int)(ix >> 63);
    if (hx >= 0x40862E42u) { /* |x| >= 709.78...: NaN, infinities, overflow, underflow */
        if (hx >= 0x7ff00000u)
            return isnan(x) ? x + x : neg ? 0.0 : x;
        if (x > O_THRESHOLD)
            return HUGE_VAL;
        if (x < U_THRESHOLD)
            return 0.0;
    }
    double hi = 0, lo = 0;
    int k = 0;
    if (hx > 0x3fd62e42u) {      /* |x| > ln2 / 2 */
        if (hx < 0x3FF0A2B2u) {  /* and < 3 ln2 / 2: k = +-1 */
            hi = neg ? x + LN2_HI : x - LN2_HI;
            lo = neg ? -LN2_LO : LN2_LO;
            k = neg ? -1 : 1;
        } else {
            k = (int)(INV_LN2 * x + (neg ? -0.5 : 0.5));
            double t = k;
            hi = x - t * LN2_HI;
            lo = t * LN2_LO;
        }
        x = hi - lo;
    } else if (hx < 0x3e300000u) { /* |x| < 2^-28: 1 + x, inexact */
        return 1.0 + x;
    }
    double t = x * x;
    double c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    if (k == 0)
        return 1.0 - ((x * c) / (c - 2.0) - x);
    double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k >= -1021)
        return k == 1024 ? y * 2.0 * 0x1p1023 : y * pow2(k);
    return y * pow2(k + 1000) * 0x1p-1000; /* a subnormal result: rounded once, at the end */
}
