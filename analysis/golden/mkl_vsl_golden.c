/* mkl_vsl_golden.c — golden records of Intel MKL's VSL MCG31m1 stream, as the
 * MKL exponential_ kernel of PyTorch 2.x CPU builds uses it
 * (aten/src/ATen/native/cpu/DistributionKernels.cpp, exponential_kernel:
 * vslNewStream(VSL_BRNG_MCG31, seed), vslSkipAheadStream(begin), then
 * vsRngExponential / vdRngExponential(VSL_RNG_METHOD_EXPONENTIAL_ICDF,
 * displacement FLT_MIN / DBL_MIN, scale 1/lambda) on each parallel_for chunk).
 *
 * Links against the real libmkl_rt (LP64 interface: the seed argument of
 * vslNewStream is an unsigned int, so torch's int64 seed is cut to 32 bits
 * there, exactly as the C conversion below does).
 *
 * Output lines (values of float32 are printed as the double they widen to):
 *   bits SEED N w...            viRngUniformBits (the raw MCG31m1 states)
 *   ud SEED N v...              vdRngUniform(STD, a=0, b=1), %a
 *   us SEED N v...              vsRngUniform(STD, a=0, b=1), %a
 *   es M SEED A BETA N v...     vsRngExponential(method M, displacement A, scale BETA)
 *   ed M SEED A BETA N v...     vdRngExponential(...)
 *   skip SEED K N w...          viRngUniformBits after vslSkipAheadStream(K)
 *   chunk T SEED A BETA N C H   the torch chunking: C chunks of ceil(N/C), each a
 *                               new stream skipped to its begin; H = FNV-1a 64 of
 *                               the N values' bit patterns (T = es or ed)
 *   hash T M SEED A BETA N H    one call of N values, hashed as above
 * M is 0 for VSL_RNG_METHOD_EXPONENTIAL_ICDF, 1 for ..._ICDF_ACCURATE.
 * SEED is printed as the unsigned 64-bit value a caller holds. */
#include <float.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mkl.h>

static void die(const char *what, int st)
{
    fprintf(stderr, "mkl_vsl_golden: %s failed (%d)\n", what, st);
    exit(1);
}

static VSLStreamStatePtr stream_new(uint64_t seed)
{
    VSLStreamStatePtr s;
    /* the same implicit conversion as torch's int64_t seed -> MKL_UINT */
    int st = vslNewStream(&s, VSL_BRNG_MCG31, (MKL_UINT)seed);
    if (st != VSL_STATUS_OK)
        die("vslNewStream", st);
    return s;
}

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
#define FNV0 0xcbf29ce484222325ULL

static int method_of(int m)
{
    return m ? VSL_RNG_METHOD_EXPONENTIAL_ICDF_ACCURATE : VSL_RNG_METHOD_EXPONENTIAL_ICDF;
}

static void rec_bits(uint64_t seed, int n)
{
    unsigned int *w = malloc(sizeof *w * (size_t)n);
    VSLStreamStatePtr s = stream_new(seed);
    int st = viRngUniformBits(VSL_RNG_METHOD_UNIFORMBITS_STD, s, n, w);
    if (st != VSL_STATUS_OK)
        die("viRngUniformBits", st);
    printf("bits %" PRIu64 " %d", seed, n);
    for (int i = 0; i < n; i++)
        printf(" %u", w[i]);
    printf("\n");
    vslDeleteStream(&s);
    free(w);
}

static void rec_skip(uint64_t seed, long long k, int n)
{
    unsigned int *w = malloc(sizeof *w * (size_t)n);
    VSLStreamStatePtr s = stream_new(seed);
    int st = vslSkipAheadStream(s, k);
    if (st != VSL_STATUS_OK)
        die("vslSkipAheadStream", st);
    st = viRngUniformBits(VSL_RNG_METHOD_UNIFORMBITS_STD, s, n, w);
    if (st != VSL_STATUS_OK)
        die("viRngUniformBits", st);
    printf("skip %" PRIu64 " %lld %d", seed, k, n);
    for (int i = 0; i < n; i++)
        printf(" %u", w[i]);
    printf("\n");
    vslDeleteStream(&s);
    free(w);
}

static void rec_uniform(uint64_t seed, int n)
{
    double *d = malloc(sizeof *d * (size_t)n);
    float *f = malloc(sizeof *f * (size_t)n);
    VSLStreamStatePtr s = stream_new(seed);
    int st = vdRngUniform(VSL_RNG_METHOD_UNIFORM_STD, s, n, d, 0.0, 1.0);
    if (st != VSL_STATUS_OK)
        die("vdRngUniform", st);
    vslDeleteStream(&s);
    s = stream_new(seed);
    st = vsRngUniform(VSL_RNG_METHOD_UNIFORM_STD, s, n, f, 0.0f, 1.0f);
    if (st != VSL_STATUS_OK)
        die("vsRngUniform", st);
    vslDeleteStream(&s);
    printf("ud %" PRIu64 " %d", seed, n);
    for (int i = 0; i < n; i++)
        printf(" %a", d[i]);
    printf("\nus %" PRIu64 " %d", seed, n);
    for (int i = 0; i < n; i++)
        printf(" %a", (double)f[i]);
    printf("\n");
    free(d);
    free(f);
}

/* One call of vsRngExponential / vdRngExponential on a fresh stream. */
static void gen_exp(int dbl, int m, uint64_t seed, long long skip, double a, double beta,
                    int n, void *out)
{
    VSLStreamStatePtr s = stream_new(seed);
    int st;
    if (skip) {
        st = vslSkipAheadStream(s, skip);
        if (st != VSL_STATUS_OK)
            die("vslSkipAheadStream", st);
    }
    if (dbl)
        st = vdRngExponential(method_of(m), s, n, out, a, beta);
    else
        st = vsRngExponential(method_of(m), s, n, out, (float)a, (float)beta);
    if (st != VSL_STATUS_OK)
        die("v?RngExponential", st);
    vslDeleteStream(&s);
}

static void rec_exp(int dbl, int m, uint64_t seed, double a, double beta, int n)
{
    void *buf = malloc((dbl ? sizeof(double) : sizeof(float)) * (size_t)n);
    gen_exp(dbl, m, seed, 0, a, beta, n, buf);
    if (dbl) {
        printf("ed %d %" PRIu64 " %a %a %d", m, seed, a, beta, n);
        for (int i = 0; i < n; i++)
            printf(" %a", ((double *)buf)[i]);
    } else {
        printf("es %d %" PRIu64 " %a %a %d", m, seed, (double)(float)a, (double)(float)beta, n);
        for (int i = 0; i < n; i++)
            printf(" %a", (double)((float *)buf)[i]);
    }
    printf("\n");
    free(buf);
}

static void rec_hash(int dbl, int m, uint64_t seed, double a, double beta, int n)
{
    size_t es = dbl ? sizeof(double) : sizeof(float);
    void *buf = malloc(es * (size_t)n);
    gen_exp(dbl, m, seed, 0, a, beta, n, buf);
    printf("hash %s %d %" PRIu64 " %a %a %d %016" PRIx64 "\n", dbl ? "ed" : "es", m, seed,
           dbl ? a : (double)(float)a, dbl ? beta : (double)(float)beta, n,
           fnv_bytes(FNV0, buf, es * (size_t)n));
    free(buf);
}

/* torch's kernel: every parallel_for chunk [begin, end) opens a new stream
 * from the same seed and skips ahead to begin (method ICDF). Printed with the
 * hash of one call over all N, which the chunked fill must equal. */
static void rec_chunk(int dbl, uint64_t seed, double a, double beta, int n, int nchunk)
{
    size_t es = dbl ? sizeof(double) : sizeof(float);
    unsigned char *buf = malloc(es * (size_t)n), *one = malloc(es * (size_t)n);
    int chunk = (n + nchunk - 1) / nchunk;
    for (int b = 0; b < n; b += chunk) {
        int len = n - b < chunk ? n - b : chunk;
        gen_exp(dbl, 0, seed, b, a, beta, len, buf + es * (size_t)b);
    }
    gen_exp(dbl, 0, seed, 0, a, beta, n, one);
    printf("chunk %s %" PRIu64 " %a %a %d %d %016" PRIx64 " %016" PRIx64 "\n", dbl ? "ed" : "es",
           seed, dbl ? a : (double)(float)a, dbl ? beta : (double)(float)beta, n, nchunk,
           fnv_bytes(FNV0, buf, es * (size_t)n), fnv_bytes(FNV0, one, es * (size_t)n));
    free(buf);
    free(one);
}

/* The raw states of N outputs after skipping K, hashed (FNV-1a 64 over the
 * little-endian uint32 values): long runs the emulation must reproduce. */
static void rec_hashbits(uint64_t seed, long long k, int n)
{
    unsigned int *w = malloc(sizeof *w * (size_t)n);
    VSLStreamStatePtr s = stream_new(seed);
    if (k)
        vslSkipAheadStream(s, k);
    int st = viRngUniformBits(VSL_RNG_METHOD_UNIFORMBITS_STD, s, n, w);
    if (st != VSL_STATUS_OK)
        die("viRngUniformBits", st);
    vslDeleteStream(&s);
    printf("hashbits %" PRIu64 " %lld %d %016" PRIx64 "\n", seed, k, n,
           fnv_bytes(FNV0, w, sizeof *w * (size_t)n));
    free(w);
}

/* torch.multinomial(p, 1)'s race on MKL values: q from one ICDF call with torch's
 * arguments (displacement FLT_MIN / DBL_MIN, scale 1), r = p / q in the dtype, the
 * first index of the largest r. p_i = 1 / (i + 1), rounded to the dtype. */
static void rec_argmax(int dbl, uint64_t seed, int V)
{
    size_t es = dbl ? sizeof(double) : sizeof(float);
    void *q = malloc(es * (size_t)V);
    gen_exp(dbl, 0, seed, 0, dbl ? DBL_MIN : FLT_MIN, 1.0, V, q);
    int best = 0;
    if (dbl) {
        double br = 0;
        for (int i = 0; i < V; i++) {
            double r = (1.0 / (i + 1.0)) / ((double *)q)[i];
            if (i == 0 || r > br) {
                best = i;
                br = r;
            }
        }
    } else {
        float br = 0;
        for (int i = 0; i < V; i++) {
            float r = (float)(1.0 / (i + 1.0)) / ((float *)q)[i];
            if (i == 0 || r > br) {
                best = i;
                br = r;
            }
        }
    }
    printf("argmax %s %" PRIu64 " %d %d\n", dbl ? "ed" : "es", seed, V, best);
    free(q);
}

static const char *branch_name(int b)
{
    switch (b) {
    case MKL_CBWR_COMPATIBLE: return "COMPATIBLE";
    case MKL_CBWR_SSE2: return "SSE2";
    case MKL_CBWR_SSE3: return "SSE3";
    case MKL_CBWR_SSSE3: return "SSSE3";
    case MKL_CBWR_SSE4_1: return "SSE4_1";
    case MKL_CBWR_SSE4_2: return "SSE4_2";
    case MKL_CBWR_AVX: return "AVX";
    case MKL_CBWR_AVX2: return "AVX2";
    case MKL_CBWR_AVX512_MIC: return "AVX512_MIC";
    case MKL_CBWR_AVX512: return "AVX512";
    case MKL_CBWR_AVX512_MIC_E1: return "AVX512_MIC_E1";
    case MKL_CBWR_AVX512_E1: return "AVX512_E1";
    default: return "other";
    }
}

int main(void)
{
    char ver[256];
    MKL_Get_Version_String(ver, (int)sizeof ver);
    const char *ei = getenv("MKL_ENABLE_INSTRUCTIONS");
    int br = MKL_CBWR_Get_Auto_Branch();
    printf("# Intel MKL VSL golden (analysis/golden/mkl_vsl_golden.c)\n");
    printf("# mkl_get_version_string: %s\n", ver);
    printf("# MKL_CBWR_Get_Auto_Branch: %s (%d); MKL_ENABLE_INSTRUCTIONS=%s; interface LP64, "
           "brng VSL_BRNG_MCG31\n", branch_name(br), br, ei ? ei : "(unset)");

    /* seeds: MKL's special cases (0, multiples of 2^31-1), the 32-bit limits,
     * and 64-bit values as torch holds them (random64() for double tensors;
     * the call keeps only the low 32 bits) */
    static const uint64_t seeds[] = {
        0, 1, 2, 3, 42, 12345, 1132489760, 2147483646, 2147483647, 2147483648,
        2147483649, 4294967293, 4294967294, 4294967295, 2357136044, 2546248239,
        3071714933, 4294967296ULL + 42, 0xDE0B6B3A764007E8ULL, 0xFFFFFFFFFFFFFFFFULL,
        0x9E3779B97F4A7C15ULL, 0x8000000000000000ULL,
    };
    const size_t ns = sizeof seeds / sizeof seeds[0];
    for (size_t i = 0; i < ns; i++)
        rec_bits(seeds[i], 16);
    for (size_t i = 0; i < ns; i++)
        rec_uniform(seeds[i], 16);
    /* float and double exponentials as torch calls them (lambda = 1), then
     * other scales, no displacement, and the ACCURATE flag for comparison */
    for (size_t i = 0; i < ns; i++) {
        rec_exp(0, 0, seeds[i], FLT_MIN, 1.0, 32);
        rec_exp(1, 0, seeds[i], DBL_MIN, 1.0, 32);
    }
    static const double lambdas[] = {2.5, 0.3, 7.0, 1e-3};
    for (size_t l = 0; l < sizeof lambdas / sizeof lambdas[0]; l++) {
        rec_exp(0, 0, 42, FLT_MIN, 1.0 / lambdas[l], 32);
        rec_exp(1, 0, 42, DBL_MIN, 1.0 / lambdas[l], 32);
    }
    for (int m = 0; m < 2; m++) {
        rec_exp(0, m, 7, 0.0, 1.0, 32);
        rec_exp(1, m, 7, 0.0, 1.0, 32);
        rec_exp(0, m, 7, 0.5, 2.0, 32);
        rec_exp(1, m, 7, 0.5, 2.0, 32);
    }
    /* torch 2.0 passed displacement 0: the 63 states x >= 2^31 - 64 give u = 1.0f and
     * an exponential of exactly 0 (x0 = 2^31 - 2 for seed 2147483646) */
    rec_exp(0, 0, 2147483646, 0.0, 1.0, 4);
    rec_exp(0, 0, 2147483584, 0.0, 1.0, 4);
    rec_exp(0, 0, 2147483583, 0.0, 1.0, 4);
    rec_exp(0, 1, 42, FLT_MIN, 1.0, 32);
    rec_exp(1, 1, 42, DBL_MIN, 1.0, 32);
    /* long runs: a length that is no multiple of any vector width */
    rec_exp(0, 0, 42, FLT_MIN, 1.0, 1000);
    rec_exp(1, 0, 42, DBL_MIN, 1.0, 1000);
    rec_exp(0, 0, 2147483646, FLT_MIN, 1.0, 1000);
    rec_exp(1, 0, 2147483646, DBL_MIN, 1.0, 1000);
    /* skip-ahead, including past the period 2^31 - 2 */
    static const long long skips[] = {0, 1, 2, 799, 800, 1600, 12345, 1000000,
                                      2147483645LL, 2147483646LL, 2147483647LL,
                                      4294967292LL + 5, 1LL << 40};
    for (size_t k = 0; k < sizeof skips / sizeof skips[0]; k++) {
        rec_skip(42, skips[k], 4);
        rec_skip(2147483646, skips[k], 4);
    }
    /* hashed long runs */
    static const uint64_t hseeds[] = {0, 42, 2147483646, 4294967295, 3071714933,
                                      0xDE0B6B3A764007E8ULL};
    for (size_t i = 0; i < sizeof hseeds / sizeof hseeds[0]; i++) {
        for (int m = 0; m < 2; m++) {
            rec_hash(0, m, hseeds[i], FLT_MIN, 1.0, 1000003);
            rec_hash(1, m, hseeds[i], DBL_MIN, 1.0, 1000003);
        }
    }
    rec_hash(0, 0, 42, FLT_MIN, 1.0 / 2.5, 100003);
    rec_hash(1, 0, 42, DBL_MIN, 1.0 / 2.5, 100003);
    rec_hash(0, 0, 42, 0.0, 1.0, 100003);
    rec_hash(1, 0, 42, 0.0, 1.0, 100003);
    /* torch's chunking: grain 800, chunks of ceil(n / threads) */
    static const int chunks[][2] = {{1000, 2}, {49152, 2}, {49152, 3}, {49152, 8},
                                    {49152, 61}, {100003, 7}};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        rec_chunk(0, 42, FLT_MIN, 1.0, chunks[c][0], chunks[c][1]);
        rec_chunk(1, 42, DBL_MIN, 1.0, chunks[c][0], chunks[c][1]);
        rec_chunk(0, 1, FLT_MIN, 1.0, chunks[c][0], chunks[c][1]);
    }
    for (size_t i = 0; i < sizeof hseeds / sizeof hseeds[0]; i++) {
        rec_hashbits(hseeds[i], 0, 1000003);
        rec_hashbits(hseeds[i], 2147483000LL, 100003);
    }
    /* 1000 float32 and 200 float64 races over V = 49,152 */
    for (uint32_t k = 0; k < 1000; k++)
        rec_argmax(0, (uint32_t)(k * 2654435769u + 7u), 49152);
    for (uint32_t k = 0; k < 200; k++)
        rec_argmax(1, (uint32_t)(k * 2654435769u + 7u), 49152);
    return 0;
}
