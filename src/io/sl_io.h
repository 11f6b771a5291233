/* sl_io.h — readers and writers beyond the core vector readers (safetensors, draws/counts files, JSON, Markdown, gnuplot).
 * Included by samplab.h; see there for conventions. */
#ifndef SL_IO_H
#define SL_IO_H

#include <stdint.h>

/* .safetensors (io/safetensors.c; sl_io_vec_read dispatches *.safetensors here). Reads row `row` of tensor `tensor` from the
 * file image buf[0..len): tensor NULL = the file's only tensor (else an error
 * listing the names); row -1 = the only row (a 1-D tensor, or [1, V]); a tensor
 * of shape [d0, ..., V] has d0*...*d(k-1) rows in C order. Dtypes F32, F16 and
 * BF16 give dtype SL_F32 (exact in f and d), F64 gives SL_F64 (f rounded once).
 * `name` is used in messages and in out->source. Every malformed file is an
 * SL_EINVAL with one line naming the file and the rule that failed. */
int sl_io_vec_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor,
                                long row, sl_vec *out, sl_error *err);
/* Exact widenings of IEEE binary16 and bfloat16 bit patterns to float. */
float sl_io_f16_to_f32(uint16_t h);
float sl_io_bf16_to_f32(uint16_t b);

#endif
