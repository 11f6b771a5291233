/* sl_io.h — readers and writers beyond the core vector readers (safetensors, draws/counts files, JSON, Markdown, gnuplot).
 * Included by samplab.h; see there for conventions. */
#ifndef SL_IO_H
#define SL_IO_H

#include <stdint.h>
#include <stdio.h>

struct sl_error;

/* Draws: token ids (non-negative decimal integers) separated by whitespace,
 * any number per line. Read as a stream into counts[0..V) (O(V) memory);
 * *n receives the number of draws. An id outside 0..V-1 or a field that is
 * not a decimal integer is SL_EINVAL, naming the file, line, column and draw
 * index. sl_io_draws_read zeroes counts first, reads "-" as standard input,
 * and also fails on a file with no draws. */
int sl_io_draws_read(const char *path, size_t V, uint64_t *counts, uint64_t *n,
                     struct sl_error *err);
/* The same over an open stream (counts are added to, not zeroed; no-draw check left to the caller). */
int sl_io_draws_stream(FILE *f, const char *name, size_t V, uint64_t *counts, uint64_t *n,
                       struct sl_error *err);

/* Counts: either one count per line for token ids 0..V-1 in order (exactly V
 * lines), or `id<TAB>count` lines (any whitespace; missing ids count 0, a
 * repeated id is an error), as `samplab draw --counts` prints them. Blank
 * lines and '#' comments are skipped. A negative or non-integer count, an id
 * outside 0..V-1 or all-zero counts is SL_EINVAL. */
int sl_io_counts_read(const char *path, size_t V, uint64_t *counts, uint64_t *n,
                      struct sl_error *err);

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
