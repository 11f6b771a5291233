/* sl_fw_torch_mkl.h — PyTorch's MKL exponential_ kernel (CPU builds with
 * AT_MKL_ENABLED() and without FBCODE_CAFFE2, in the releases docs/torch-builds.md
 * lists): one word of the torch generator seeds an MKL MCG31m1 stream that fills
 * the tensor. See framework/torch_mkl.c. */
#ifndef SL_FW_TORCH_MKL_H
#define SL_FW_TORCH_MKL_H

#include <stddef.h>
#include <stdint.h>

#include "samplab.h"

/* at::parallel_for's grain in exponential_kernel */
#define SL_FW_TORCH_MKL_GRAIN 800

/* The seed the kernel draws, under the generator's lock, before anything else:
 * float, half, bfloat16: random() (1 word). double: random64() = (w1 << 32) | w2,
 * of which vslNewStream keeps the low 32 bits, w2 (2 words). */
uint32_t sl_fw_torch_mkl_seed_f32(sl_rng *gen);
uint32_t sl_fw_torch_mkl_seed_f64(sl_rng *gen);

/* at::parallel_for(0, n, 800, f) under OpenMP with `threads` threads: the number of
 * chunks, each of *chunk_size elements but the last. threads <= 1, or n <= 800, give
 * one chunk of n. n = 0 gives 0 chunks. */
size_t sl_fw_torch_mkl_chunks(size_t n, unsigned threads, size_t *chunk_size);

/* One value of v?RngExponential(VSL_RNG_METHOD_EXPONENTIAL_ICDF, displacement a,
 * scale beta) from the raw state x: fma(beta, -ln(u), a), u the MKL uniform of x.
 * The logarithm is glibc's (log, or float(log(double))): MKL's own (vsLn LA,
 * vdLn EP) differs in the last bits, so values are close but not always equal. */
float sl_fw_torch_mkl_expo_f32(uint32_t x, float a, float beta);
double sl_fw_torch_mkl_expo_f64(uint32_t x, double a, double beta);

/* The kernel's fill from a given MKL seed: chunk by chunk, each a new stream from
 * the seed skipped ahead to its begin, displacement FLT_MIN / DBL_MIN, scale
 * 1/lambda (float: (float)(1.0 / lambda)). lambda must be finite and > 0. */
void sl_fw_torch_mkl_fill_f32(uint32_t seed, float *out, size_t n, double lambda, unsigned threads);
void sl_fw_torch_mkl_fill_f64(uint32_t seed, double *out, size_t n, double lambda, unsigned threads);

/* tensor.exponential_(lambda) on a contiguous float32 / float64 tensor of n
 * elements: the seed draw, then the fill. An empty tensor draws nothing (torch
 * returns before the kernel). lambda <= 0 or NaN is refused (torch raises), and so is
 * an infinite lambda (torch then takes the MT19937 path). */
int sl_fw_torch_mkl_exponential_f32(sl_rng *gen, float *out, size_t n, double lambda,
                                    unsigned threads, sl_error *err);
int sl_fw_torch_mkl_exponential_f64(sl_rng *gen, double *out, size_t n, double lambda,
                                    unsigned threads, sl_error *err);

/* torch.multinomial(p, 1) on a 1-D float32 p of V entries (the exponential race of
 * multinomial_out): q = exponential_(1), r = p / q in float32, the first index of
 * the largest r. 1 word of gen per call. p is not validated here. */
int sl_fw_torch_mkl_multinomial1_f32(sl_rng *gen, const float *p, size_t V, unsigned threads,
                                     size_t *token, sl_error *err);

#endif
