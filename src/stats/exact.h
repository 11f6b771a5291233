/* exact.h — internal helpers shared by the exact-audit samplers (stats/exact*.c).
 * Not part of the public API. */
#ifndef SL_STATS_EXACT_H
#define SL_STATS_EXACT_H

#include "samplab.h"

/* Allocates count[] and ideal[] for V tokens, fills ideal from in->d (or in->f when
 * in->d is NULL) over its sum, and sets bits. */
int sl_exact_result_init(sl_exact_result *r, const sl_exact_input *in, unsigned bits, sl_error *err);

/* Turns cumulative counts into per-token counts: cum[j] = number of grid values
 * whose token is <= j (nondecreasing, cum[V-1] == 2^bits). */
void sl_exact_counts_from_cumulative(sl_exact_result *r, const uint64_t *cum);

/* Adds a failure path; returns it (NULL when the table is full). */
sl_exact_path *sl_exact_path_add(sl_exact_result *r, const char *name, long token,
                                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Sets the path's probability to num / 2^bits exactly. */
void sl_exact_path_set(sl_exact_path *p, sl_u128 num, unsigned bits);

/* Checks weights in the precision a sampler reads: finite and >= 0. Message:
 * "SOURCE: entry I is NaN". */
int sl_exact_check_d(const sl_exact_input *in, sl_error *err);
int sl_exact_check_f(const sl_exact_input *in, sl_error *err);

#endif
