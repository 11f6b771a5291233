/* libm_fma.c — exp and log for the WebAssembly page, as the CLI gets them from
 * glibc on x86-64 CPUs with FMA (and on aarch64): glibc 2.36 picks __exp_fma
 * and __log_fma there, Arm's optimized-routines algorithm (sysdeps/ieee754/
 * dbl-64/e_exp.c, e_log.c) compiled with -mfma, where GCC fuses each product
 * whose only use is a sum. wasi-libc's exp and log (musl, the same algorithm
 * and tables) round separately and differ in the last bit for about 2 in
 * 10,000 arguments; the tutorial pipeline's float64 softmax and compare's
 * entropy print those bits. Written here from the algorithm with each fused
 * step an explicit fma(); the tables are the C library's own __exp_data and
 * __log_data (musl's copies of Arm's numbers). web/test/libm_diff.c compares
 * the results with glibc's over random and special arguments.
 * Not covered (measured, left as they are): log1p (musl's and glibc's are
 * different algorithms), expm1, pow, and expf, which differs at 2 of 2^32
 * floats (32.5646324, -63.0994606). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define EXP_TABLE_BITS 7
#define EXP_N (1 << EXP_TABLE_BITS)
#define LOG_TABLE_BITS 7
#define LOG_N (1 << LOG_TABLE_BITS)

/* the layout of musl's src/internal exp_data.h and log_data.h (its build without fast FMA) */
extern const struct sl_web_exp_data {
    double invln2N, shift, negln2hiN, negln2loN;
    double poly[4];
    double exp2_shift;
    double exp2_poly[5];
    uint64_t tab[2 * EXP_N];
} __exp_data;

extern const struct sl_web_log_data {
    double ln2hi, ln2lo;
    double poly[5];
    double poly1[11];
    struct {
        double invc, logc;
    } tab[LOG_N];
    struct {
        double chi, clo;
    } tab2[LOG_N];
} __log_data;

static uint64_t asu64(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double asdbl(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* e_exp.c's specialcase: scale * (1 + tmp) where the exponent of scale has left the range */
static double exp_special(double tmp, uint64_t sbits, uint64_t ki)
{
    if ((ki & 0x80000000) == 0) {
        double scale = asdbl(sbits - (1009ull << 52));
        return 0x1p1009 * fma(scale, tmp, scale);
    }
    double scale = asdbl(sbits + (1022ull << 52));
    double st = scale * tmp; /* used twice: GCC computes it once and fuses neither sum */
    double y = scale + st;
    if (y < 1.0) {
        /* round once before scaling into the subnormal range */
        double lo = scale - y + st;
        double hi = 1.0 + y;
        lo = 1.0 - hi + y + lo;
        y = (hi + lo) - 1.0;
        if (y == 0.0)
            y = 0.0;
    }
    return 0x1p-1022 * y;
}

double exp(double x)
{
    const struct sl_web_exp_data *d = &__exp_data;
    uint32_t abstop = (uint32_t)(asu64(x) >> 52) & 0x7ff;
    if (abstop - 0x3c9u >= 0x408u - 0x3c9u) { /* |x| < 2^-54, or |x| >= 512, or inf, nan */
        if (abstop - 0x3c9u >= 0x80000000u)
            return 1.0 + x;
        if (abstop >= 0x409u) {
            if (asu64(x) == asu64(-INFINITY))
                return 0.0;
            if (abstop >= 0x7ffu)
                return 1.0 + x;
            return (asu64(x) >> 63) ? 0x1p-767 * 0x1p-767 : 0x1p769 * 0x1p769;
        }
        abstop = 0; /* large |x|: the special case below */
    }
    double kd = fma(d->invln2N, x, d->shift); /* z = InvLn2N * x; kd = z + Shift */
    uint64_t ki = asu64(kd);
    kd -= d->shift;
    double r = fma(kd, d->negln2loN, fma(kd, d->negln2hiN, x));
    uint64_t idx = 2 * (ki % EXP_N), top = ki << (52 - EXP_TABLE_BITS);
    double tail = asdbl(d->tab[idx]);
    uint64_t sbits = d->tab[idx + 1] + top;
    double r2 = r * r;
    /* tail + r + r2 * (C2 + r * C3) + r2 * r2 * (C4 + r * C5) */
    double tmp = fma(r2 * r2, fma(r, d->poly[3], d->poly[2]), fma(r2, fma(r, d->poly[1], d->poly[0]), tail + r));
    if (abstop == 0)
        return exp_special(tmp, sbits, ki);
    double scale = asdbl(sbits);
    return fma(scale, tmp, scale);
}

double log(double x)
{
    const struct sl_web_log_data *d = &__log_data;
    const double *A = d->poly, *B = d->poly1;
    uint64_t ix = asu64(x);
    uint32_t top = (uint32_t)(ix >> 48);
    const uint64_t LO = 0x3fee000000000000u, HI = 0x3ff1090000000000u; /* 1 - 2^-4, 1 + 0x1.09p-4 */
    if (ix - LO < HI - LO) {
        /* close to 1 */
        if (ix == asu64(1.0))
            return 0;
        double r = x - 1.0;
        double r2 = r * r, r3 = r * r2;
        double p3 = fma(r3, B[10], fma(r2, B[9], fma(r, B[8], B[7])));
        double p2 = fma(r3, p3, fma(r2, B[6], fma(r, B[5], B[4])));
        double p1 = fma(r3, p2, fma(r2, B[3], fma(r, B[2], B[1])));
        /* the split of r: the products by 2^27 and -0.5 are exact, fused or not */
        double w = r * 0x1p27;
        double rhi = r + w - w;
        double rlo = r - rhi;
        w = rhi * rhi * B[0];
        double hi = r + w;
        double lo = r - hi + w;
        lo = fma(B[0] * rlo, rhi + r, lo);
        double y = fma(r3, p1, lo); /* y = r3 * p1; y += lo */
        return y + hi;
    }
    if (top - 0x0010u >= 0x7ff0u - 0x0010u) {
        if (ix * 2 == 0)
            return -INFINITY;
        if (ix == asu64(INFINITY))
            return x;
        if ((top & 0x8000) || (top & 0x7ff0) == 0x7ff0)
            return (x - x) / (x - x);
        ix = asu64(x * 0x1p52); /* subnormal: normalise */
        ix -= 52ull << 52;
    }
    uint64_t tmp = ix - 0x3fe6000000000000u;
    int i = (int)((tmp >> (52 - LOG_TABLE_BITS)) % LOG_N);
    int k = (int)((int64_t)tmp >> 52);
    uint64_t iz = ix - (tmp & 0xfffull << 52);
    double invc = d->tab[i].invc, logc = d->tab[i].logc, z = asdbl(iz);
    double r = fma(z, invc, -1.0);
    double kd = (double)k;
    double w = fma(kd, d->ln2hi, logc);
    double hi = w + r;
    double lo = fma(kd, d->ln2lo, w - hi + r);
    double r2 = r * r;
    /* lo + r2 * A0 + r * r2 * (A1 + r * A2 + r2 * (A3 + r * A4)) + hi */
    double p = fma(r2, fma(r, A[4], A[3]), fma(r, A[2], A[1]));
    double y = fma(r * r2, p, fma(r2, A[0], lo));
    return y + hi;
}
