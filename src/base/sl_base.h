/* sl_base.h — the base layer: what every layer may use (errors, seeds, vectors, the CPU dispatch, a log).
 *
 * Conventions: library code returns a status (0 = ok) and fills an sl_error,
 * it never prints or exits; state is always passed in (no globals, after
 * pcg-c's _r functions); V = vocabulary size throughout. Exported names of
 * this layer start with sl_base_.
 * Any function that allocates returns a status: out of memory is SL_ENOMEM,
 * never a fallback that could change a result (another sort, a truncated
 * filter, a NaN statistic). Text builders (sl_buf, sl_io_md_rows) keep a
 * sticky oom flag that their final consumer checks. Every function that
 * calls GSL first calls sl_base_gsl_quiet, so GSL returns its
 * errors instead of aborting, and checks what GSL returns. */
#ifndef SL_BASE_H
#define SL_BASE_H

#include <stddef.h>
#include <stdint.h>

#define SL_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

enum { SL_OK = 0, SL_EINVAL = 2, SL_ENOMEM = 3, SL_EIO = 4, SL_EINTR = 5 };

typedef struct sl_error {
    char msg[512]; /* one line, "source: what is wrong at which position" */
} sl_error;

/* Formats err->msg (printf style) and returns code, so callers can write
 * `return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is NaN", src, i);`. */
int sl_base_error_set(sl_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A pointer argument a call cannot do without was NULL (or an array NULL with a
 * non-zero length): SL_EINVAL, err "CALL: ARG is NULL". Every public call checks
 * its pointers first (tests/test_capi_hostile.c calls each with each one NULL). */
int sl_base_arg_null(sl_error *err, const char *call, const char *arg);
#define SL_BASE_NONNULL(err, call, p) \
    do { \
        if (!(p)) \
            return sl_base_arg_null(err, call, #p); \
    } while (0)
/* An array p of n entries: NULL is refused unless n is 0. */
#define SL_BASE_NONNULL_N(err, call, p, n) \
    do { \
        if (!(p) && (n)) \
            return sl_base_arg_null(err, call, #p); \
    } while (0)

/* Bytes s[0..len) made printable for a one-line message: each byte below 0x20,
 * 0x7f and each byte from 0x80 on becomes \xNN, the rest is kept (a backslash
 * too, so escaping an escaped text changes nothing); cut with "..." to fit
 * cap bytes with the NUL. Every message that quotes a file's bytes or an
 * argument goes through it (base/esc.c). Returns buf. */
const char *sl_base_esc(const void *s, size_t len, char *buf, size_t cap);
/* The same for a NUL-terminated string (NULL quotes nothing). */
const char *sl_base_esc_str(const char *s, char *buf, size_t cap);

/* A long loop's report to its caller (a reader of 10^9 draws, a simulation):
 * tick(ctx, done, total) every so often (total 0 if unknown); a nonzero return
 * stops the loop, which then returns SL_EINTR with err saying how far it got.
 * A NULL sl_progress, or a NULL tick, is never called. */
typedef struct sl_progress {
    int (*tick)(void *ctx, uint64_t done, uint64_t total);
    void *ctx;
} sl_progress;

/* ---------------------------------------------------------------- seeds */

/* A seed as the user typed it, widened to 128 bits (NumPy takes up to 2^128-1,
 * torch and rand up to 2^64-1), plus an optional stream (PCG32's sequence). */
typedef struct sl_seed {
    uint64_t lo, hi;     /* value = hi * 2^64 + lo */
    uint64_t stream;     /* PCG stream selector; 0 unless given */
    int has_stream;
    /* a JavaScript Number seed that is not an integer in [0, 2^128) (-1, 1.5, 1e-7,
     * Infinity): only a generator seeded from the number's string takes it (alea);
     * lo and hi are then 0 */
    int has_number;
    double number;
} sl_seed;

/* Parses a decimal or 0x-hex integer in [0, 2^128). */
int sl_base_seed_parse(const char *text, sl_seed *out, sl_error *err);
/* The same, or else a JavaScript decimal number literal ([+-] digits [. digits]
 * [e [+-] digits], or [+-]Infinity), read as Number(text) reads it, into number
 * with has_number set: the seeds of a library that takes any Number (TensorFlow.js). */
int sl_base_seed_parse_js(const char *text, sl_seed *out, sl_error *err);
int sl_base_seed_parse_stream(const char *text, uint64_t *stream, sl_error *err); /* [0, 2^64) */

/* ---------------------------------------------------------------- vectors */

typedef enum sl_dtype { SL_F64 = 0, SL_F32 = 1 } sl_dtype;

/* A 1-D vector of weights or logits as read. Both precisions are kept from
 * the source itself: text parsed by strtod into d and by strtof (correctly
 * rounded) into f, so a float32 consumer never sees a double rounding. */
typedef struct sl_vec {
    size_t n;
    double *d;
    float *f;
    sl_dtype dtype;      /* the source's own type (.npy), SL_F64 for text */
    char source[256];    /* name for messages: a file name or "inline" */
    int own_dtype;       /* 1: read from .npy or .safetensors (a file or bytes in memory), whose dtype
                          * a framework keeps (torch.from_numpy); 0: text, parsed to both */
} sl_vec;

/* Allocates d and f for n entries (uninitialised); returns 0, or SL_ENOMEM
 * with err filled ("SOURCE: out of memory for N entries"). */
int sl_base_vec_alloc(sl_vec *v, size_t n, const char *source, sl_error *err);
void sl_base_vec_free(sl_vec *v);
/* Checks weights: finite, >= 0, not all zero, not empty. Messages name the
 * source and the entry ("probs.txt: entry 17 is NaN"). Uses v->d. */
int sl_base_vec_check_weights(const sl_vec *v, sl_error *err);

/* Switches GSL's abort-on-error handler off, once per process and thread-safe
 * (base/gsl.c); every function that calls GSL calls it first and then checks
 * GSL's return values. Idempotent and cheap. */
void sl_base_gsl_quiet(void);

/* ---------------------------------------------------------------- the CPU dispatch (base/simd.c) */

/* Vector width of the SIMD kernels of every layer, the one CPU dispatch. AUTO
 * picks AVX2 when the CPU has it, else SSE2 (x86-64), else scalar; the output
 * never depends on the level (tests force each level and compare). */
enum { SL_SIMD_AUTO = 0, SL_SIMD_SCALAR = 1, SL_SIMD_SSE2 = 2, SL_SIMD_AVX2 = 3 };
int sl_base_simd_level(int wanted);  /* the level that will run for `wanted` */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SL_BASE_HAVE_AVX2 1          /* AVX2 kernels are compiled (target attribute), run if the CPU has it */
#else
#define SL_BASE_HAVE_AVX2 0
#endif

/* ---------------------------------------------------------------- MT19937 (base/mt19937.c) */

/* MT19937's state, init_genrand and genrand_int32 (mt19937ar.c, 2002), block-twisted
 * and SIMD-tempered; the rng layer's MT19937 types and the statistics' simulations
 * share it. The words are the same at every SIMD level. */
typedef struct sl_base_mt19937 {
    uint32_t mt[624];
    int mti;
} sl_base_mt19937;
void sl_base_mt19937_init_genrand(sl_base_mt19937 *s, uint32_t seed);
uint32_t sl_base_mt19937_next(sl_base_mt19937 *s);
/* One twist of the whole state at the given SIMD level (the same state at every level). */
void sl_base_mt19937_twist(sl_base_mt19937 *s, int level);
/* The next n words, the same as n sl_base_mt19937_next calls. */
void sl_base_mt19937_fill32(sl_base_mt19937 *s, uint32_t *out, size_t n);

/* ---------------------------------------------------------------- log (base/log.c) */

/* The natural log as fdlibm's __ieee754_log computes it (error below 1 ulp): the
 * same bits at every SIMD level and on every machine, unlike libm's log. y may be
 * x. Zero gives -inf, negatives and NaN give NaN, +inf gives +inf. */
double sl_base_log(double x);
void sl_base_log_n(const double *x, double *y, size_t n, int simd);

/* ---------------------------------------------------------------- exp (base/exp.c) */

/* e^x as JavaScript's Math.exp computes it in V8 (Node, Chrome): fdlibm's
 * __ieee754_exp as V8's base::ieee754::exp has it, with exp(1) = Math.E. */
double sl_base_exp(double x);

/* ---------------------------------------------------------------- JavaScript's number strings (base/js_number.c) */

/* The string JavaScript's String(x) gives a number (Number::toString, radix 10):
 * "42", "9007199254740992", "18446744073709552000", "1e+21", "1.5", "-0.25", "NaN".
 * Writes at most n bytes into buf (NUL included); returns the length. 32 bytes hold any. */
size_t sl_base_js_number_string(double x, char *buf, size_t n);

/* ---------------------------------------------------------------- libstdc++'s sorts (base/stdsort.c) */

/* std::sort, std::partial_sort and std::nth_element as libstdc++ performs them, so
 * tied elements end in the order C++ code (llama.cpp's samplers, torch.topk) leaves
 * them. less(a, b, ctx) is the comparator; elements are at most 64 bytes. */
typedef int (*sl_base_less)(const void *a, const void *b, const void *ctx);
void sl_base_std_sort(void *base, size_t n, size_t size, sl_base_less less, const void *ctx);
void sl_base_std_partial_sort(void *base, size_t middle, size_t n, size_t size, sl_base_less less,
                              const void *ctx);
void sl_base_std_nth_element(void *base, size_t nth, size_t n, size_t size, sl_base_less less, const void *ctx);

/* The same algorithms, typed, with the comparator inline (same order, several
 * times faster): a float value and its index, as torch.sort orders (value,
 * index) pairs by value alone; plain floats; and torch.topk's (double, int64)
 * pairs under TopKImpl.h's comp(x, y) = (isnan(x) && !isnan(y)) || x > y. */
typedef struct sl_base_f32i {
    float v;
    uint32_t i;
} sl_base_f32i;
typedef struct sl_base_f64i {
    double v;
    int64_t i;
} sl_base_f64i;
enum { SL_BASE_ASC = 0, SL_BASE_DESC = 1 }; /* less = a < b, or a > b */
void sl_base_std_sort_f32i(sl_base_f32i *a, size_t n, int order);
void sl_base_std_nth_element_f32(float *a, size_t nth, size_t n, int order);
void sl_base_std_sort_f64i(sl_base_f64i *a, size_t n);
void sl_base_std_partial_sort_f64i(sl_base_f64i *a, size_t middle, size_t n);
void sl_base_std_nth_element_f64i(sl_base_f64i *a, size_t nth, size_t n);
/* llama.cpp's candidate (llama_token_data: id, logit, p) under its sort's comparator
 * a.logit > b.logit (src/llama-sampler.cpp); logits/ names it sl_logits_cand. */
typedef struct sl_base_cand {
    long id;
    float logit;
    float p;
} sl_base_cand;
void sl_base_std_sort_cand(sl_base_cand *a, size_t n);
void sl_base_std_partial_sort_cand(sl_base_cand *a, size_t middle, size_t n);

#endif
