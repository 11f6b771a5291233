/* sl_io.h — readers and writers beyond the core vector readers (safetensors, draws/counts files, JSON, Markdown, gnuplot).
 * Uses the base layer only. Exported names start with sl_io_. */
#ifndef SL_IO_H
#define SL_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/sl_base.h"

/* Reads "3,2,2,1" (inline), a text file, a .npy or (io/safetensors) a
 * .safetensors file. tensor/row select within a safetensors file (NULL/-1 if unused). */
int sl_io_vec_read(const char *spec, const char *tensor, long row, sl_vec *out, sl_error *err);
/* The same; an inline list's messages name it `label` (the option that gave it,
 * "--probs": "--probs: entry 1: 'x' is not a number") instead of "inline", and
 * without "line 1" when it is one line. The vector's source stays "inline".
 * label NULL: sl_io_vec_read. */
int sl_io_vec_read_as(const char *spec, const char *label, const char *tensor, long row, sl_vec *out, sl_error *err);
int sl_io_vec_read_text(const char *name, const char *text, size_t len, sl_vec *out, sl_error *err);
int sl_io_vec_read_npy(const char *name, const unsigned char *buf, size_t len, sl_vec *out, sl_error *err);
/* The numbers of text[0..len) as sl_io_vec_read_text reads them; `line` is the
 * line number of text[0] in messages, 0 for none (one line without a '\n'). */
int sl_io_text_numbers(const char *name, const char *text, size_t len, size_t line, sl_vec *out, sl_error *err);
/* The same for token ids: each entry must pass sl_io_token_id_hint (no 1.0, +1, 0x0, 1e0). */
int sl_io_text_ids(const char *name, const char *text, size_t len, size_t line, sl_vec *out, sl_error *err);
/* Row `line` (row[0..len), its \n excluded) of a text of rows (per-step logits,
 * rows of ids): a lone \r, a form feed or a vertical tab inside it is refused by
 * name (SL_EINVAL), never read as a separator that joins two rows. */
int sl_io_text_row_check(const char *name, const char *row, size_t len, size_t line, sl_error *err);
/* Why tok[0..len) is no token id, or NULL when it is one (ASCII digits only): the
 * draws file's rule (io/draws.c), which every list of token ids shares. */
const char *sl_io_token_id_hint(const char *tok, size_t len);
/* A list of token ids as sl_io_vec_read_as reads a vector, its text or inline
 * entries checked by sl_io_token_id_hint; a .npy or .safetensors gives numbers. */
int sl_io_ids_read_as(const char *spec, const char *label, sl_vec *out, sl_error *err);
/* The kind of file behind PATH (io/input.c): a regular file or a pipe is fine;
 * a directory, a device (a symbolic link to /dev/zero) or a socket is
 * SL_EINVAL with one line naming it; a name that does not exist is SL_EIO. */
int sl_io_input_check(const char *path, sl_error *err);
/* The first bytes b[0..n) of a text input `name` that should hold `what`
 * ("numbers", "token ids", ...): the magic of a binary format (.npy,
 * .safetensors, zip, gzip) or a UTF-16/UTF-32 byte-order mark is SL_EINVAL,
 * naming what the file is; a UTF-8 byte-order mark is skipped (*skip = 3). */
int sl_io_text_start(const char *name, const unsigned char *b, size_t n, const char *what, size_t *skip,
                     sl_error *err);
/* The largest vector a reader returns: 2^24 entries (LLM vocabularies have at
 * most about 256,000 tokens); a longer one is refused, not allocated. */
#define SL_IO_MAX_V ((size_t)1 << 24)
/* The most bytes read from a pipe into memory (a regular file is read at its size). */
#define SL_IO_MAX_PIPE ((size_t)1 << 28)
/* Reads a whole file into memory (caller frees): a regular file or a pipe (at
 * most SL_IO_MAX_PIPE bytes), after sl_io_input_check. */
int sl_io_file_slurp(const char *path, unsigned char **buf, size_t *len, sl_error *err);


/* ---------------------------------------------------------------- text buffer */

/* A growable NUL-terminated text buffer. An allocation failure is sticky
 * (oom = 1) so callers can append freely and check once at the end. */
typedef struct sl_buf {
    char *data;
    size_t len, cap;
    int oom;
} sl_buf;

void sl_io_buf_init(sl_buf *b);
void sl_io_buf_free(sl_buf *b);
void sl_io_buf_puts(sl_buf *b, const char *s);
void sl_io_buf_append(sl_buf *b, const char *s, size_t n);
void sl_io_buf_printf(sl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------------------- writing into place (outdir.c, dirswap.c) */

/* Writes `len` bytes to `path` through a temporary file in the same
 * directory (path.tmp.PID) renamed into place, so a reader never sees a
 * half-written file. */
int sl_io_write_atomic(const char *path, const char *data, size_t len, sl_error *err);
/* Creates a directory (and its parents); an existing directory is fine. */
int sl_io_mkdir_p(const char *path, sl_error *err);
/* Puts the folder `staging` in the place of `target` in one step (dirswap.c):
 * afterwards target holds what staging held and staging the old target (or
 * nothing, when there was no target). Atomic where the system has
 * renameat2(RENAME_EXCHANGE); elsewhere two renames. */
int sl_io_dir_swap(const char *staging, const char *target, sl_error *err);
/* Removes path and, for a folder, everything below it (links are removed,
 * never followed); a missing path is fine. */
int sl_io_tree_remove(const char *path, sl_error *err);
/* Hard-links every regular file of folder `from` into folder `to` (created;
 * copied where a link is refused), skipping temporary files (*.tmp.*); a
 * missing `from` is fine. A file later rewritten through sl_io_write_atomic
 * replaces the link, so the files of `from` never change. */
int sl_io_dir_link_files(const char *from, const char *to, sl_error *err);

/* ---------------------------------------------------------------- output folders (outdir.c)
 *
 * A command that writes a set of files replaces its --out folder as a whole:
 * sl_io_outdir_init names the target and the staging folder, the caller checks
 * what the target holds, sl_io_outdir_begin makes the staging folder (the
 * stale ones of dead processes removed), the caller writes into o->staging,
 * sl_io_outdir_commit swaps it in; sl_io_outdir_discard on any failure. */
typedef struct sl_io_outdir {
    char target[4096];        /* the folder replaced: --out with its link resolved, no trailing '/' */
    char staging[4200];       /* where the new set is built */
    int open;                 /* the staging folder exists and is ours to remove */
} sl_io_outdir;
/* outdir with a link resolved (the folder a swap replaces), without trailing slashes. */
int sl_io_outdir_target(const char *outdir, char *buf, size_t n, sl_error *err);
/* A name beside outdir (its link resolved): DIR/.NAME.WHAT, NAME its last part. */
int sl_io_outdir_beside(const char *outdir, const char *what, char *buf, size_t n, sl_error *err);
/* The staging folder of process pid for outdir: DIR/.NAME.staging.PID beside it. */
int sl_io_outdir_staging_path(const char *outdir, long pid, char *buf, size_t n, sl_error *err);
/* One run at a time per --out folder: a flock on DIR/.NAME.lock beside it, holding
 * the holder's pid, taken at once or refused naming the file and the pid (SL_EINVAL).
 * A child forked after it holds it too; the kernel drops it when every holder has
 * closed it or died. sl_io_outdir_unlock removes the file and closes this copy. */
typedef struct sl_io_lock {
    int fd, held;             /* held 0 (a zeroed struct too): nothing to release */
    char path[4200];
} sl_io_lock;
int sl_io_outdir_lock(sl_io_lock *l, const char *outdir, sl_error *err);
void sl_io_outdir_unlock(sl_io_lock *l);
/* Names o's target and staging folder (staging NULL: the one of process pid); creates nothing. */
int sl_io_outdir_init(sl_io_outdir *o, const char *outdir, const char *staging, long pid, sl_error *err);
/* A fresh staging folder in the target's mode, holding hard links to the old
 * set's files of each sub-folder in keep ("" the folder itself; NULL-terminated;
 * NULL: none). */
int sl_io_outdir_begin(sl_io_outdir *o, const char *const *keep, sl_error *err);
/* The new set in the target's place in one step; the old one removed. */
int sl_io_outdir_commit(sl_io_outdir *o, sl_error *err);
/* Removes the staging folder if it is still ours (after a failure). */
void sl_io_outdir_discard(sl_io_outdir *o);
/* After a run was killed (its staging folder named): the old set back in place
 * if the kill fell between a swap's two renames, the staging folders removed. */
void sl_io_outdir_recover(const char *staging, const char *target);

/* ---------------------------------------------------------------- Markdown */

/* Appends a GitHub-flavoured Markdown table: `ncol` headers, `nrow` rows of
 * cells (row-major, nrow*ncol strings; NULL prints empty), `align` one
 * character per column ('l', 'r' or 'c'; NULL = all left). Columns are
 * padded to equal width so the raw file reads as a table too; '|' inside a
 * cell is escaped. */
void sl_io_md_table(sl_buf *b, size_t ncol, const char *const *head, const char *align,
                    size_t nrow, const char *const *cells);

/* A table being filled cell by cell (printf style), then emitted. */
typedef struct sl_io_md_rows {
    size_t ncol, n, cap;
    char **cells;
    int oom;
} sl_io_md_rows;
void sl_io_md_rows_init(sl_io_md_rows *t, size_t ncol);
void sl_io_md_rows_cell(sl_io_md_rows *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sl_io_md_rows_emit(sl_buf *b, const sl_io_md_rows *t, const char *const *head, const char *align);
void sl_io_md_rows_free(sl_io_md_rows *t);

/* ---------------------------------------------------------------- gnuplot */

/* One figure: DIR/NAME.dat (the data), DIR/NAME.gp (the script), and, once
 * gnuplot has run the script in DIR, NAME.png (pngcairo) and NAME.svg.
 * The script is self-contained: `cd DIR && gnuplot NAME.gp` remakes both
 * images. The driver writes a common preamble (terminal, fonts, grid, key,
 * labels, log axes); `body` holds the plot commands and refers to the data
 * as 'NAME.dat' (use the placeholder "@DAT@", which the driver replaces). */
typedef struct sl_plot {
    const char *name;    /* file stem, e.g. "agree_observed_expected" */
    const char *title;
    const char *xlabel;  /* with units, e.g. "vocabulary size V (tokens)" */
    const char *ylabel;
    int logx, logy;
    int width, height;   /* pixels for the PNG; 0 = 1000 x 620 */
    const char *key;     /* gnuplot "set key ..." arguments; NULL = "top left" */
    const char *extra;   /* further set commands before the plot (may be NULL) */
    const char *body;    /* the plot command(s) */
    const char *dat;     /* the data file's text; NULL: no NAME.dat (the body names its own files) */
    int oom;             /* the sl_buf behind body or dat ran out of memory: write nothing, fail */
} sl_plot;

/* Writes DIR/NAME.dat and DIR/NAME.gp (atomically). */
int sl_io_plot_write(const char *dir, const sl_plot *p, sl_error *err);

/* Runs `gnuplot NAME.gp` inside DIR for each of the n stems, all at once
 * (fork/exec, then waits for every child); gnuplot's stderr passes through.
 * Fails naming the first figure whose gnuplot exited non-zero. */
int sl_io_plot_render(const char *dir, const char *const *names, size_t n, sl_error *err);

/* Draws: token ids (non-negative decimal integers) separated by whitespace,
 * any number per line. Read as a stream into counts[0..V) (O(V) memory);
 * *n receives the number of draws. An id outside 0..V-1 or a field that is
 * not a decimal integer is SL_EINVAL, naming the file, line, column and draw
 * index; so are a control byte, a field of more than 64 bytes, 1 MiB of
 * whitespace in a row, more than SL_IO_MAX_DRAWS draws, a binary file and a
 * file of id<TAB>count lines (counts, not draws). prog (may be NULL) is ticked
 * once per MiB read. sl_io_draws_read zeroes counts first, reads "-" as
 * standard input, and also fails on a file with no draws. */
#define SL_IO_MAX_DRAWS 1000000000000ull /* 10^12: hours of reading; more is an endless stream */
int sl_io_draws_read(const char *path, size_t V, uint64_t *counts, uint64_t *n, const sl_progress *prog,
                     struct sl_error *err);
/* The same over an open stream (counts are added to, not zeroed; no-draw check left to the caller). */
int sl_io_draws_stream(FILE *f, const char *name, size_t V, uint64_t *counts, uint64_t *n, const sl_progress *prog,
                       struct sl_error *err);

/* Counts: `id<TAB>count` lines (any whitespace), one for every id 0..V-1, in
 * any order, as `samplab draw --counts` prints them. Blank lines and '#'
 * comments are skipped. Refused (SL_EINVAL, one line naming the file and the
 * line): a one-field line (one token id per line is a draws file, never
 * guessed to be a list of counts), a negative or non-integer count, an id
 * outside 0..V-1 or given twice, a missing id, all-zero counts, a total above
 * SL_IO_MAX_COUNT, a line over 4096 bytes, a control byte, a binary file. */
#define SL_IO_MAX_COUNT (1ull << 53) /* every total up to it is exact in a double */
int sl_io_counts_read(const char *path, size_t V, uint64_t *counts, uint64_t *n,
                      struct sl_error *err);

/* .safetensors (a view from io/safetensors.c, the vector built in io/vec.c). Reads row `row` of tensor `tensor` from the
 * file image buf[0..len): tensor NULL = the file's only tensor (else an error
 * listing the names); row -1 = the only row (a 1-D tensor, or [1, V]); a tensor
 * of shape [d0, ..., V] has d0*...*d(k-1) rows in C order. Dtypes F32, F16 and
 * BF16 give dtype SL_F32 (exact in f and d), F64 gives SL_F64 (f rounded once).
 * `name` is used in messages and in out->source. Every malformed file is an
 * SL_EINVAL with one line naming the file and the rule that failed. */
int sl_io_vec_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor,
                                long row, sl_vec *out, sl_error *err);
/* ---------------------------------------------------------------- per-step logits (io/steps.c) */

/* A generation's per-step logits (or probabilities): T rows of V entries,
 * row-major. Binary sources keep their own precision in one array (f for
 * float32, F16 and BF16; d for float64); text keeps both its strtod and its
 * strtof parsings (dtype SL_F64, d and f both set). */
typedef struct sl_io_steps {
    size_t t, v;
    size_t b;           /* rows a step: 0 or 1 for [T, V]; B for a [T, B, V] batch (t·b rows of v entries) */
    sl_dtype dtype;
    double *d;          /* T*V entries, or NULL */
    float *f;           /* T*V entries, or NULL */
    char source[256];
    int view;           /* d or f point into the caller's (or the mapped) buffer: not freed */
    void *map;          /* the file mapping sl_io_steps_read made, or NULL */
    size_t map_len;
    int own_dtype;      /* 1: .npy or .safetensors (dtype is the data's own); 0: text */
} sl_io_steps;

/* Reads PATH (binary files are mapped, not copied): a .safetensors file (its only tensor, or `tensor`), which must
 * be 2-D [T, V]; a 2-D .npy (float32 or float64); or text, one step per line
 * (numbers separated by spaces or commas, '#' comments, blank lines skipped;
 * an inline list is one step). Refused, with one line naming the file and the
 * position: a tensor of another rank, rows of different lengths, a NaN entry
 * or an all -inf row (by step, from 0), no steps. */
int sl_io_steps_read(const char *path, const char *tensor, sl_io_steps *out, sl_error *err);
/* The same; an inline list's messages name it `label` as sl_io_vec_read_as does. */
int sl_io_steps_read_as(const char *path, const char *label, const char *tensor, sl_io_steps *out, sl_error *err);
int sl_io_steps_read_text(const char *name, const char *text, size_t len, sl_io_steps *out, sl_error *err);
/* view: when the data are the host's float32 / float64, suitably aligned,
 * point into buf instead of copying (buf must then outlive out). */
int sl_io_steps_read_npy(const char *name, const unsigned char *buf, size_t len, int view, sl_io_steps *out,
                         sl_error *err);
int sl_io_steps_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor, int view,
                                 sl_io_steps *out, sl_error *err);
/* Allocates the array of `dtype` (d for SL_F64, else f) for t*v entries. */
int sl_io_steps_alloc(sl_io_steps *m, size_t t, size_t v, sl_dtype dtype, const char *source, sl_error *err);
/* Copies step i into row (allocated by the caller with sl_base_vec_alloc for
 * m->v entries), both precisions; row->source becomes "SOURCE step i".
 * SL_EINVAL if i or the row's size is wrong. */
int sl_io_steps_row(const sl_io_steps *m, size_t i, sl_vec *row);
/* Batches (transformers' output_logits stacked per step): the same readers, which
 * also take a 3-D [T, B, V] tensor (.npy, .safetensors; text stays one row a
 * step); a 2-D source reads as B = 1. */
int sl_io_batch_read_as(const char *path, const char *label, const char *tensor, sl_io_steps *out, sl_error *err);
int sl_io_batch_read_npy(const char *name, const unsigned char *buf, size_t len, int view, sl_io_steps *out,
                         sl_error *err);
int sl_io_batch_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor, int view,
                                 sl_io_steps *out, sl_error *err);
/* Rows a step (1 unless a [T, B, V] batch). */
size_t sl_io_steps_rows(const sl_io_steps *m);
/* Row b of step t into row (as sl_io_steps_row, which refuses a batch of B > 1:
 * its flat index would mix steps and rows); row->source "SOURCE step t row b". */
int sl_io_steps_row_of(const sl_io_steps *m, size_t t, size_t b, sl_vec *row);
/* What sl_io_steps_read refuses after reading: a NaN entry ("SOURCE: step i, entry j
 * is NaN") or a step with nothing above -inf. The readers of bytes in memory
 * (_read_text, _read_npy, _read_safetensors) leave it to the caller. */
int sl_io_steps_check(const sl_io_steps *m, sl_error *err);
void sl_io_steps_free(sl_io_steps *m);

/* The header of a .npy file (io/npy.c): its shape (up to 8 dimensions),
 * element width (4 or 8) and data, checked against the length. */
#define SL_IO_NPY_MAXDIM 8
typedef struct sl_io_npy_info {
    size_t ndim, shape[SL_IO_NPY_MAXDIM];
    size_t width, count;
    const unsigned char *data;
} sl_io_npy_info;
int sl_io_npy_header(const char *name, const unsigned char *buf, size_t len, sl_io_npy_info *info, sl_error *err);

/* ---------------------------------------------------------------- sources and tensor views (io/source.c, io/tensor.c) */

/* What a source names (io/source.c), decided once for the vector readers, the
 * per-step readers and the api's bytes in memory. */
typedef enum sl_io_src_kind {
    SL_IO_SRC_MISSING = 0,  /* no such file (or an empty name), and not numbers */
    SL_IO_SRC_INLINE,       /* no such file, but an inline list: "3,2,2,1" (a comma and no '/'
                             * counts too, so "3,2,x" is answered with its bad entry) */
    SL_IO_SRC_TEXT,         /* a file, by its name's ending */
    SL_IO_SRC_NPY,
    SL_IO_SRC_SAFETENSORS
} sl_io_src_kind;
typedef struct sl_io_source {
    sl_io_src_kind kind;
    size_t size;            /* a regular file's size (0: empty, or a pipe) */
    int err;                /* the errno of the failed stat (MISSING, INLINE) */
} sl_io_source;
void sl_io_source_resolve(const char *spec, sl_io_source *s);
/* Bytes in memory: a .npy image (they start with "\x93NUMPY") or text. */
sl_io_src_kind sl_io_source_of_bytes(const void *data, size_t len);

/* One tensor of a binary file, located and checked by its format's reader
 * (io/npy.c, io/safetensors.c): what io/vec.c and io/steps.c build vectors and
 * generations from, so the formats know nothing of either. */
typedef struct sl_io_tensor {
    char name[96];          /* a .safetensors tensor's name, cleaned for messages ("" for .npy) */
    char shape[96];         /* a .safetensors shape as its messages print it: "[2,3]" */
    size_t ndim;
    uint64_t d0, rows, v;   /* the first dimension, the product of all but the last, the last */
    unsigned bits;          /* 16, 32 or 64 */
    int bf16;               /* 16 bits: bfloat16 (else IEEE binary16) */
    const unsigned char *data; /* little-endian elements in C order */
} sl_io_tensor;
/* The only tensor of a .npy image (float32 or float64; io/npy.c), its header
 * read by sl_io_npy_header (ndim 0 has d0 = v = rows = 1). */
int sl_io_npy_view(const char *name, const unsigned char *buf, size_t len, sl_io_tensor *t, sl_error *err);
/* Tensor `tensor` of a .safetensors image (NULL: the file's only one), after the
 * whole file is validated as upstream validates it (io/safetensors.c); F32, F64,
 * F16 and BF16 only, not a scalar. */
int sl_io_safetensors_view(const char *name, const unsigned char *buf, size_t len, const char *tensor,
                           sl_io_tensor *t, sl_error *err);
/* Element i in both precisions (float32 widens exactly, float64 rounds once to float). */
void sl_io_tensor_elem(const sl_io_tensor *t, uint64_t i, double *d, float *f);
sl_dtype sl_io_tensor_dtype(const sl_io_tensor *t);  /* SL_F64 for 64 bits, else SL_F32 */
/* 1 when the elements are the host's float32 / float64 as they lie (a copy is a memcpy)... */
int sl_io_tensor_native(const sl_io_tensor *t);
/* ...and aligned for them (the data can be used in place). */
int sl_io_tensor_aligned(const sl_io_tensor *t);

/* Exact widenings of IEEE binary16 and bfloat16 bit patterns to float. */
float sl_io_f16_to_f32(uint16_t h);
float sl_io_bf16_to_f32(uint16_t b);

/* A GGUF file's tokenizer section (io/gguf.c): what llama.cpp's DRY stage reads of a vocabulary. */
typedef struct sl_io_gguf_vocab {
    char model[32];           /* tokenizer.ggml.model: "llama" (SPM), "gpt2" (BPE), ... */
    size_t n;                 /* tokens */
    char **text;              /* tokenizer.ggml.tokens[i] (NUL-terminated; len[i] bytes, may hold NULs) */
    size_t *len;
    int *type;                /* tokenizer.ggml.token_type[i] (1 when the file has none, as llama.cpp takes it) */
    char pre[32];             /* tokenizer.ggml.pre ("" when absent) */
    int add_space_prefix;     /* tokenizer.ggml.add_space_prefix (-1 when absent) */
    char *blob;               /* the texts' storage */
    float *score;             /* tokenizer.ggml.scores[i] (NULL when absent: llama.cpp takes 0) */
    size_t n_merge;           /* tokenizer.ggml.merges ("left right", BPE), in rank order */
    char **merge;
    size_t *merge_len;
    char *merge_blob;
} sl_io_gguf_vocab;
/* Parses a GGUF file (versions 2 and 3) in buf[0..len) as far as its key-value section. A malformed file
 * is SL_EINVAL naming `name` and the byte; at most SL_IO_MAX_V tokens, strings of at most 2^20 bytes,
 * 2^20 keys; never reads past len. */
int sl_io_gguf_vocab_parse(const char *name, const unsigned char *buf, size_t len, sl_io_gguf_vocab *out,
                           sl_error *err);
/* Reads PATH whole (sl_io_file_slurp), then parses it. */
int sl_io_gguf_vocab_read(const char *path, sl_io_gguf_vocab *out, sl_error *err);
void sl_io_gguf_vocab_free(sl_io_gguf_vocab *v);

/* ---------------------------------------------------------------- HTTP (io/http.c, libcurl) */

/* Bounds of a request: seconds to connect and in all, bytes of the answer; a bearer token or NULL. */
typedef struct sl_io_http_opts {
    double connect_s, timeout_s;
    size_t max_bytes;
    const char *bearer;
} sl_io_http_opts;
typedef struct sl_io_http_reply {
    long status;              /* the HTTP status (0: none came) */
    char *body;               /* the answer, NUL-terminated (len bytes; may be partial after a failure) */
    size_t len;
    double started_ms, time_ms; /* on CLOCK_MONOTONIC: when it was sent, how long it took */
} sl_io_http_reply;
/* POSTs json to url (json NULL: a GET). A refused connection, a timeout, an
 * answer larger than max_bytes or a body cut short is SL_EIO naming the url; the
 * status is the caller's to judge. Free the reply with sl_io_http_reply_free. */
int sl_io_http(const char *url, const char *json, const sl_io_http_opts *o, sl_io_http_reply *r, sl_error *err);
/* n requests to url started together (json[i] each; NULL: n GETs); every reply is
 * filled, and the first failure is the message. */
int sl_io_http_many(const char *url, const char *const *json, size_t n, const sl_io_http_opts *o,
                    sl_io_http_reply *replies, sl_error *err);
void sl_io_http_reply_free(sl_io_http_reply *r);

#endif
