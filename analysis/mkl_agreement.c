/* mkl_agreement.c — how often samplab's MKL-path emulation (framework/torch_mkl.c)
 * draws the same torch.multinomial tokens as the real Intel MKL, beyond the golden
 * records: R float32 races (and R/4 float64) at V = 49,152 with p_i = 1/(i+1), and
 * R·15 calls of multinomial(ones(26), 26) compared as whole permutations. The MKL side
 * calls vsRngExponential / vdRngExponential as torch's kernel does (ICDF,
 * displacement FLT_MIN / DBL_MIN, scale 1). Prints counts; exits 1 on any difference.
 * Run through analysis/mkl_agreement.sh BUILDDIR [R]. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mkl.h>

#include "framework/sl_fw.h"

#define V 49152

static float qf[V], ef[V], pf[V];
static double qd[V], ed[V], pd[V];

static size_t argmax_f(const float *p, const float *q, size_t n)
{
    size_t b = 0;
    float br = 0;
    for (size_t i = 0; i < n; i++) {
        float r = p[i] / q[i];
        if (i == 0 || r > br) {
            b = i;
            br = r;
        }
    }
    return b;
}

static size_t argmax_d(const double *p, const double *q, size_t n)
{
    size_t b = 0;
    double br = 0;
    for (size_t i = 0; i < n; i++) {
        double r = p[i] / q[i];
        if (i == 0 || r > br) {
            b = i;
            br = r;
        }
    }
    return b;
}

static void perm26(const float *q, unsigned char *idx)
{
    /* topk(1 / q, 26) of ones(26): ascending q, equal q by index */
    for (int i = 0; i < 26; i++)
        idx[i] = (unsigned char)i;
    for (int i = 1; i < 26; i++)
        for (int j = i; j > 0 && q[idx[j]] < q[idx[j - 1]]; j--) {
            unsigned char t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
}

int main(int argc, char **argv)
{
    long R = argc > 1 ? atol(argv[1]) : 2000;
    for (size_t i = 0; i < V; i++) {
        pd[i] = 1.0 / ((double)i + 1.0);
        pf[i] = (float)pd[i];
    }
    long tf = 0, td = 0, eqv = 0, tot = 0, perms = 0, permsame = 0;
    for (long k = 0; k < R; k++) {
        unsigned seed = (unsigned)k * 2654435761u + 12345u;
        VSLStreamStatePtr s;
        vslNewStream(&s, VSL_BRNG_MCG31, seed);
        vsRngExponential(VSL_RNG_METHOD_EXPONENTIAL_ICDF, s, V, qf, FLT_MIN, 1.0f);
        vslDeleteStream(&s);
        sl_fw_torch_mkl_fill_f32(seed, ef, V, 1.0, 1);
        for (size_t i = 0; i < V; i++)
            eqv += memcmp(&qf[i], &ef[i], sizeof(float)) == 0;
        tot += V;
        tf += argmax_f(pf, qf, V) == argmax_f(pf, ef, V);
        if (k % 4 == 0) {
            vslNewStream(&s, VSL_BRNG_MCG31, seed);
            vdRngExponential(VSL_RNG_METHOD_EXPONENTIAL_ICDF, s, V, qd, DBL_MIN, 1.0);
            vslDeleteStream(&s);
            sl_fw_torch_mkl_fill_f64(seed, ed, V, 1.0, 1);
            td += argmax_d(pd, qd, V) == argmax_d(pd, ed, V);
        }
        for (int j = 0; j < 15; j++) {
            unsigned s26 = seed * 747796405u + (unsigned)j * 2891336453u + 1u;
            float a[26], b[26];
            unsigned char pa[26], pb[26];
            vslNewStream(&s, VSL_BRNG_MCG31, s26);
            vsRngExponential(VSL_RNG_METHOD_EXPONENTIAL_ICDF, s, 26, a, FLT_MIN, 1.0f);
            vslDeleteStream(&s);
            sl_fw_torch_mkl_fill_f32(s26, b, 26, 1.0, 1);
            perm26(a, pa);
            perm26(b, pb);
            perms++;
            permsame += memcmp(pa, pb, 26) == 0;
        }
    }
    char ver[256];
    MKL_Get_Version_String(ver, (int)sizeof ver);
    printf("# %s; branch %d\n", ver, MKL_CBWR_Get_Auto_Branch());
    printf("float32 races V=%d: %ld of %ld tokens equal; q bit-equal %ld of %ld (%.2f%%)\n", V, tf, R, eqv, tot,
           100.0 * (double)eqv / (double)tot);
    printf("float64 races V=%d: %ld of %ld tokens equal\n", V, td, (R + 3) / 4);
    printf("multinomial(ones(26), 26): %ld of %ld permutations equal\n", permsame, perms);
    return (tf == R && td == (R + 3) / 4 && permsame == perms) ? 0 : 1;
}
