/* targets.h — what each fuzz target does with one input, shared by the libFuzzer
 * drivers (tests/fuzz/fuzz_<target>.c) and by the regression replay in make test
 * (tests/test_io_fuzz_regress.c), so a crashing input replays exactly.
 * Each function reads the bytes as its reader would read a file, walks every
 * success path the input allows (row and tensor selection, the weight check)
 * and frees everything; it returns 0 whatever the reader says: only a crash,
 * a hang or a sanitizer report is a finding. */
#ifndef SL_FUZZ_TARGETS_H
#define SL_FUZZ_TARGETS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "samplab.h"

/* Checks what every successful read must give: n > 0 entries, both arrays, a
 * one-line message on failure. Aborts (a finding) otherwise. */
static inline void sl_fuzz_check(int rc, const sl_vec *v, const sl_error *err)
{
    if (rc == 0) {
        if (v->n == 0 || !v->d || !v->f)
            abort();
        /* touch every entry so ASan sees any short allocation */
        volatile double s = 0;
        for (size_t i = 0; i < v->n; i++)
            s += v->d[i] + (double)v->f[i];
        (void)s;
    } else if (!memchr(err->msg, '\0', sizeof err->msg) || strchr(err->msg, '\n') || !err->msg[0]) {
        abort(); /* a message must be one non-empty line */
    }
}

static inline int sl_fuzz_text_one(const uint8_t *data, size_t size)
{
    sl_vec v;
    sl_error err;
    memset(&v, 0, sizeof v);
    err.msg[0] = '\0';
    int rc = sl_io_vec_read_text("fuzz.txt", (const char *)data, size, &v, &err);
    sl_fuzz_check(rc, &v, &err);
    if (rc == 0) {
        (void)sl_base_vec_check_weights(&v, &err);
        sl_base_vec_free(&v);
    }
    return 0;
}

static inline int sl_fuzz_npy_one(const uint8_t *data, size_t size)
{
    sl_vec v;
    sl_error err;
    memset(&v, 0, sizeof v);
    err.msg[0] = '\0';
    int rc = sl_io_vec_read_npy("fuzz.npy", data, size, &v, &err);
    sl_fuzz_check(rc, &v, &err);
    if (rc == 0) {
        (void)sl_base_vec_check_weights(&v, &err);
        sl_base_vec_free(&v);
    }
    return 0;
}

/* the per-step readers (io/steps.c) over one input as text, .npy and
 * .safetensors; every row of what is accepted is copied out */
static inline void sl_fuzz_steps_rows(int rc, sl_io_steps *m)
{
    if (rc)
        return;
    sl_vec row;
    sl_error err;
    if (sl_base_vec_alloc(&row, m->v, "fuzz", &err) == 0) {
        for (size_t t = 0; t < m->t; t++)
            (void)sl_io_steps_row(m, t, &row);
        sl_base_vec_free(&row);
    }
    sl_io_steps_free(m);
}

static inline int sl_fuzz_steps_one(const uint8_t *data, size_t size)
{
    sl_io_steps m;
    sl_error err;
    sl_fuzz_steps_rows(sl_io_steps_read_text("fuzz.txt", (const char *)data, size, &m, &err), &m);
    sl_fuzz_steps_rows(sl_io_steps_read_npy("fuzz.npy", data, size, 0, &m, &err), &m);
    sl_fuzz_steps_rows(sl_io_steps_read_safetensors("fuzz.safetensors", data, size, NULL, 0, &m, &err), &m);
    sl_fuzz_steps_rows(sl_io_steps_read_safetensors("fuzz.safetensors", data, size, "logits", 0, &m, &err), &m);
    return 0;
}

static inline int sl_fuzz_safetensors_one(const uint8_t *data, size_t size)
{
    /* the default selection, then explicit rows and a name the fuzzer can
     * learn from the string comparisons */
    static const struct { const char *tensor; long row; } sel[] = {
        {NULL, -1}, {NULL, 0}, {NULL, 1}, {"logits", -1}, {"logits", 2}, {"a", 0}
    };
    for (size_t i = 0; i < sizeof sel / sizeof sel[0]; i++) {
        sl_vec v;
        sl_error err;
        memset(&v, 0, sizeof v);
        err.msg[0] = '\0';
        int rc = sl_io_vec_read_safetensors("fuzz.safetensors", data, size, sel[i].tensor, sel[i].row, &v, &err);
        sl_fuzz_check(rc, &v, &err);
        if (rc == 0)
            sl_base_vec_free(&v);
    }
    return 0;
}

/* The draws and counts readers (io/draws.c) read files: the draws reader
 * also reads a stream, fed from memory; the counts reader reads one
 * temporary file, rewritten for each input and removed at exit. */
static char sl_fuzz_tmp_path[4096];

static inline void sl_fuzz_tmp_remove(void)
{
    if (sl_fuzz_tmp_path[0])
        remove(sl_fuzz_tmp_path);
}

static inline const char *sl_fuzz_tmp_write(const uint8_t *data, size_t size)
{
    if (!sl_fuzz_tmp_path[0]) {
        /* memory-backed /dev/shm when there is one: a file per input on a disk
         * makes the target ten times slower */
        const char *dir = getenv("TMPDIR");
        if (!dir || !*dir)
            dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(sl_fuzz_tmp_path, sizeof sl_fuzz_tmp_path, "%s/samplab-fuzz-XXXXXX", dir);
        int fd = mkstemp(sl_fuzz_tmp_path);
        if (fd < 0)
            abort();
        close(fd);
        atexit(sl_fuzz_tmp_remove);
    }
    FILE *f = fopen(sl_fuzz_tmp_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f))
        abort();
    return sl_fuzz_tmp_path;
}

/* Vocabulary sizes each input is read against: one token, a few, many. */
static const size_t sl_fuzz_vocab[] = {1, 7, 1000};

static inline int sl_fuzz_draws_one(const uint8_t *data, size_t size)
{
    /* Two reads: the stream reader from memory over a small vocabulary, the
     * file reader (which adds the empty-file check) over a large one. Each
     * read allocates the reader's 1 MiB buffer, the main cost under ASan. */
    uint64_t counts[1000], n = 0;
    sl_error err;
    if (size) {
        memset(counts, 0, sizeof counts);
        err.msg[0] = '\0';
        FILE *f = fmemopen((void *)data, size, "r");
        if (!f)
            abort();
        int rc = sl_io_draws_stream(f, "fuzz.draws", 7, counts, &n, NULL, &err);
        fclose(f);
        if (rc && (!err.msg[0] || strchr(err.msg, '\n')))
            abort();
    }
    err.msg[0] = '\0';
    int rc = sl_io_draws_read(sl_fuzz_tmp_write(data, size), 1000, counts, &n, NULL, &err);
    if (rc && (!err.msg[0] || strchr(err.msg, '\n')))
        abort();
    return 0;
}

static inline int sl_fuzz_counts_one(const uint8_t *data, size_t size)
{
    uint64_t counts[1000];
    const char *path = sl_fuzz_tmp_write(data, size);
    for (size_t k = 0; k < sizeof sl_fuzz_vocab / sizeof sl_fuzz_vocab[0]; k++) {
        uint64_t n = 0;
        sl_error err;
        err.msg[0] = '\0';
        int rc = sl_io_counts_read(path, sl_fuzz_vocab[k], counts, &n, &err);
        if (rc && (!err.msg[0] || strchr(err.msg, '\n')))
            abort();
    }
    return 0;
}

/* the GGUF tokenizer reader (io/gguf.c); on success every token text and type is read */
static inline int sl_fuzz_gguf_one(const uint8_t *data, size_t size)
{
    sl_io_gguf_vocab v;
    sl_error err;
    err.msg[0] = '\0';
    int rc = sl_io_gguf_vocab_parse("fuzz.gguf", data, size, &v, &err);
    if (rc == 0) {
        volatile size_t s = 0;
        for (size_t i = 0; i < v.n; i++)
            s += v.len[i] + (size_t)v.type[i] + (unsigned char)v.text[i][v.len[i]];
        (void)s;
        sl_io_gguf_vocab_free(&v);
    } else if (!memchr(err.msg, '\0', sizeof err.msg) || strchr(err.msg, '\n') || !err.msg[0]) {
        abort();
    }
    return 0;
}

#endif
