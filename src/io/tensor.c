/* tensor.c — a tensor view: what each binary format reader (io/npy.c,
 * io/safetensors.c) hands the vector and per-step readers (io/vec.c,
 * io/steps.c) instead of building their results itself, so the formats know
 * nothing of vectors or generations. Elements are decoded here, once for every
 * format: little-endian bytes, byte by byte (unaligned data and big-endian
 * hosts work); F16 and BF16 widen exactly to float32, F32 is kept, F64 is
 * kept in d and rounded once to nearest in f (what torch's .float() does). */
#include <string.h>

#include "io/sl_io.h"

/* IEEE binary16 -> binary32, exact (every half is a float). */
float sl_io_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);          /* inf, NaN keeping its payload */
    } else if (exp) {
        bits = sign | ((exp + 112) << 23) | (man << 13);  /* 112 = 127 - 15 */
    } else if (man) {
        /* subnormal half: man * 2^-24, normal as a float; shift until the
         * leading one reaches bit 10 */
        int e = 113;                                      /* 127 - 15 + 1 */
        while (!(man & 0x400)) {
            man <<= 1;
            e--;
        }
        bits = sign | ((uint32_t)e << 23) | ((man & 0x3ff) << 13);
    } else {
        bits = sign;                                      /* ±0 */
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* bfloat16 -> binary32, exact: bfloat16 is the top half of a float. */
float sl_io_bf16_to_f32(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

void sl_io_tensor_elem(const sl_io_tensor *t, uint64_t i, double *d, float *f)
{
    unsigned eb = t->bits / 8;
    const unsigned char *p = t->data + i * eb;
    uint64_t w = 0;
    for (unsigned b = eb; b-- > 0;)
        w = w << 8 | p[b];
    if (t->bits == 64) {
        double x;
        memcpy(&x, &w, sizeof x);
        *d = x;
        *f = (float)x;
        return;
    }
    float x;
    if (t->bits == 32) {
        uint32_t w32 = (uint32_t)w;
        memcpy(&x, &w32, sizeof x);
    } else {
        x = t->bf16 ? sl_io_bf16_to_f32((uint16_t)w) : sl_io_f16_to_f32((uint16_t)w);
    }
    *f = x;
    *d = (double)x;
}

sl_dtype sl_io_tensor_dtype(const sl_io_tensor *t)
{
    return t->bits == 64 ? SL_F64 : SL_F32;
}

int sl_io_tensor_native(const sl_io_tensor *t)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return t->bits == 32 || t->bits == 64;
#else
    (void)t;
    return 0;
#endif
}

int sl_io_tensor_aligned(const sl_io_tensor *t)
{
    return sl_io_tensor_native(t) && (uintptr_t)t->data % (t->bits / 8) == 0;
}
