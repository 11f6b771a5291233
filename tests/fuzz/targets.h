/* targets.h — what each fuzz target does with one input, shared by the libFuzzer
 * drivers (tests/fuzz/fuzz_<target>.c) and by the regression replay in make test
 * (tests/test_fuzz_regress.c), so a crashing input replays exactly.
 * Each function reads the bytes as its reader would read a file, walks every
 * success path the input allows (row and tensor selection, the weight check)
 * and frees everything; it returns 0 whatever the reader says: only a crash,
 * a hang or a sanitizer report is a finding. */
#ifndef SL_FUZZ_TARGETS_H
#define SL_FUZZ_TARGETS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
        (void)sl_vec_check_weights(&v, &err);
        sl_vec_free(&v);
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
        (void)sl_vec_check_weights(&v, &err);
        sl_vec_free(&v);
    }
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
            sl_vec_free(&v);
    }
    return 0;
}

#endif
