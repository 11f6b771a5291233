/* torch_mkl.c — exponential_ of PyTorch 2.x CPU builds with MKL
 * (aten/src/ATen/native/cpu/DistributionKernels.cpp, exponential_kernel, the
 * AT_MKL_ENABLED() && !FBCODE_CAFFE2 branch, read in the 2.6.0 source):
 *   seed = generator->random()      (random64() for double)
 *   parallel_for(0, n, 800, [begin, end):
 *       vslNewStream(VSL_BRNG_MCG31, seed); vslSkipAheadStream(begin);
 *       v?RngExponential(VSL_RNG_METHOD_EXPONENTIAL_ICDF, len, eps, 1/lambda))
 * with eps = numeric_limits<float or double>::min(). Half and bfloat16 go through
 * a float buffer; other dtypes and strided tensors are not handled here.
 *
 * Against the real MKL 2020.4 (data/golden/mkl_vsl.txt): the stream, its seeding,
 * the skip-ahead and the uniforms are exact; v?RngExponential is fma(beta, -ln(u), a)
 * with MKL's own logarithm (vsLn in LA mode for float, vdLn in EP mode for double),
 * which differs per CPU branch and is not reproduced: this file takes glibc's. */
#include <math.h>
#include <stdlib.h>

#include "framework/sl_fw.h"

uint32_t sl_fw_torch_mkl_seed_f32(sl_rng *gen)
{
    return (uint32_t)sl_rng_next(gen);
}

uint32_t sl_fw_torch_mkl_seed_f64(sl_rng *gen)
{
    (void)sl_rng_next(gen);              /* high half of random64(), cut by MKL_UINT */
    return (uint32_t)sl_rng_next(gen);
}

size_t sl_fw_torch_mkl_chunks(size_t n, unsigned threads, size_t *chunk_size)
{
    /* Parallel-inl.h parallel_for, then ParallelOpenMP.h invoke_parallel */
    if (n == 0) {
        *chunk_size = 0;
        return 0;
    }
    if (threads <= 1 || n <= SL_FW_TORCH_MKL_GRAIN) {
        *chunk_size = n;
        return 1;
    }
    size_t nt = threads;
    size_t by_grain = (n + SL_FW_TORCH_MKL_GRAIN - 1) / SL_FW_TORCH_MKL_GRAIN;
    if (by_grain < nt)
        nt = by_grain;
    size_t cs = (n + nt - 1) / nt;
    *chunk_size = cs;
    return (n + cs - 1) / cs; /* threads whose begin is past n do nothing */
}

float sl_fw_torch_mkl_expo_f32(uint32_t x, float a, float beta)
{
    float u = sl_rng_mcg31m1_u01_f32(x);
    float e = -(float)log((double)u); /* MKL: -vsLn(u) in LA mode */
    return fmaf(beta, e, a);
}

double sl_fw_torch_mkl_expo_f64(uint32_t x, double a, double beta)
{
    double u = sl_rng_mcg31m1_u01_f64(x);
    double e = -log(u); /* MKL: -vdLn(u) in EP mode */
    return fma(beta, e, a);
}

void sl_fw_torch_mkl_fill_f32(uint32_t seed, float *out, size_t n, double lambda, unsigned threads)
{
    size_t cs, nc = sl_fw_torch_mkl_chunks(n, threads, &cs);
    /* torch passes 1./lambda as a double; vsRngExponential takes float */
    float beta = (float)(1.0 / lambda), a = 0x1p-126f; /* FLT_MIN */
    for (size_t c = 0; c < nc; c++) {
        size_t begin = c * cs, end = begin + cs < n ? begin + cs : n;
        sl_rng_mcg31m1_state s;
        sl_rng_mcg31m1_seed(&s, seed);
        sl_rng_mcg31m1_skip(&s, begin);
        for (size_t i = begin; i < end; i++)
            out[i] = sl_fw_torch_mkl_expo_f32(sl_rng_mcg31m1_next(&s), a, beta);
    }
}

void sl_fw_torch_mkl_fill_f64(uint32_t seed, double *out, size_t n, double lambda, unsigned threads)
{
    size_t cs, nc = sl_fw_torch_mkl_chunks(n, threads, &cs);
    double beta = 1.0 / lambda, a = 0x1p-1022; /* DBL_MIN */
    for (size_t c = 0; c < nc; c++) {
        size_t begin = c * cs, end = begin + cs < n ? begin + cs : n;
        sl_rng_mcg31m1_state s;
        sl_rng_mcg31m1_seed(&s, seed);
        sl_rng_mcg31m1_skip(&s, begin);
        for (size_t i = begin; i < end; i++)
            out[i] = sl_fw_torch_mkl_expo_f64(sl_rng_mcg31m1_next(&s), a, beta);
    }
}

static int check_lambda(double lambda, sl_error *err)
{
    /* lambda <= 0 or NaN: torch raises this RuntimeError (torch 2.14.1, measured with 0, -1
     * and nan); only an infinite lambda goes on, down the MT19937 path */
    if (!(lambda > 0))
        return sl_base_error_set(err, SL_EINVAL,
                            "torch-mkl: exponential_ expects lambda > 0.0, but found lambda=%g (torch raises)", lambda);
    if (isinf(lambda))
        return sl_base_error_set(err, SL_EINVAL,
                            "torch-mkl: lambda %g takes torch's MT19937 path, not MKL's", lambda);
    return SL_OK;
}

int sl_fw_torch_mkl_exponential_f32(sl_rng *gen, float *out, size_t n, double lambda,
                                    unsigned threads, sl_error *err)
{
    int st = check_lambda(lambda, err);
    if (st)
        return st;
    if (n == 0)
        return SL_OK; /* exponential_impl_: CHECK_EMPTY_AND_RETURN before the kernel */
    sl_fw_torch_mkl_fill_f32(sl_fw_torch_mkl_seed_f32(gen), out, n, lambda, threads);
    return SL_OK;
}

int sl_fw_torch_mkl_exponential_f64(sl_rng *gen, double *out, size_t n, double lambda,
                                    unsigned threads, sl_error *err)
{
    int st = check_lambda(lambda, err);
    if (st)
        return st;
    if (n == 0)
        return SL_OK; /* exponential_impl_: CHECK_EMPTY_AND_RETURN before the kernel */
    sl_fw_torch_mkl_fill_f64(sl_fw_torch_mkl_seed_f64(gen), out, n, lambda, threads);
    return SL_OK;
}

int sl_fw_torch_mkl_multinomial1_f32(sl_rng *gen, const float *p, size_t V, unsigned threads,
                                     size_t *token, sl_error *err)
{
    if (V == 0)
        return sl_base_error_set(err, SL_EINVAL, "torch-mkl: empty probability vector");
    float *q = malloc(V * sizeof *q);
    double *qd = malloc(V * sizeof *qd);
    if (!q || !qd) {
        free(q);
        free(qd);
        return sl_base_error_set(err, SL_ENOMEM, "torch-mkl: out of memory for V = %zu", V);
    }
    /* q = exponential_(1), then the race's argmax of p / q in float32 (draw/race.c) */
    sl_fw_torch_mkl_fill_f32(sl_fw_torch_mkl_seed_f32(gen), q, V, 1.0, threads);
    for (size_t i = 0; i < V; i++)
        qd[i] = q[i];
    sl_draw_race_rule rule = {SL_RACE_U_TORCH53, 0, 1};
    sl_draw_race r = {V, SL_F32, p, NULL, NULL, rule, SL_SIMD_SCALAR};
    *token = sl_draw_race_argmax_q(&r, qd);
    free(q);
    free(qd);
    return SL_OK;
}
