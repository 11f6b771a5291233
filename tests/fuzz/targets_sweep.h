/* targets_sweep.h — what the sweep fuzz targets do with one input (shared by
 * tests/fuzz/fuzz_sweep_{spec,ckpt}.c and the regression replay in make test, as
 * targets.h is for the readers). They need the command line's objects (the sweep
 * lives in cli/), so they sit apart from targets.h, which links the library only.
 *
 * spec: the bytes as a spec file; a refusal must be one line on the error
 * stream, an accepted spec must expand into points whose checkpoint keys build.
 * ckpt: the bytes as a --resume checkpoint of a fixed 4-point spec; whatever it
 * holds, every point ends kept or rerun and the summary is one line. */
#ifndef SL_FUZZ_TARGETS_SWEEP_H
#define SL_FUZZ_TARGETS_SWEEP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

/* A message stream's text must be one line ending in '\n' (or nothing when ok). */
static inline void sl_fuzz_one_line(const char *buf, size_t len, int failed)
{
    if (!failed)
        return;
    if (len == 0 || buf[len - 1] != '\n' || memchr(buf, '\n', len - 1))
        abort();
}

static inline int sl_fuzz_sweep_spec_one(const uint8_t *data, size_t size)
{
    char *msg = NULL;
    size_t msg_len = 0;
    FILE *err = open_memstream(&msg, &msg_len);
    if (!err)
        abort();
    sl_cli_sweep sw;
    memset(&sw, 0, sizeof sw);
    sw.path = "fuzz.json";
    sw.err = err;
    sw.text = malloc(size ? size : 1);
    if (!sw.text)
        abort();
    memcpy(sw.text, data, size);
    sw.text_len = size;
    int rc = sl_cli_sweep_parse(&sw);
    fflush(err);
    sl_fuzz_one_line(msg, msg_len, rc != 0);
    if (rc == 0) {
        /* every point's identity, as its checkpoint line proves it (a few thousand at most) */
        for (size_t i = 0; i < sw.n_points && i < 2000; i++) {
            sl_cli_sweep_point p;
            sl_cli_sweep_point_at(&sw, i, &p);
            if (p.st == NULL || p.index != i)
                abort();
            char *key = sl_cli_sweep_point_key(&sw, i);
            if (!key)
                abort();
            free(key);
        }
    }
    sl_cli_sweep_free(&sw);
    fclose(err);
    free(msg);
    return 0;
}

/* The spec a fuzzed checkpoint answers: 4 draw points with inline inputs (no file to hash). */
static const char sl_fuzz_ckpt_spec[] =
    "{\"studies\": [{\"name\": \"d\", \"job\": \"draw\", \"inputs\": [{\"probs\": \"3,2,2,1\"}],"
    " \"methods\": [\"cdf\", \"alias\"], \"seeds\": [1, 2], \"options\": {\"n\": 5}}]}";

static inline int sl_fuzz_sweep_ckpt_one(const uint8_t *data, size_t size)
{
    sl_cli_sweep_run r;
    memset(&r, 0, sizeof r);
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        abort();
    r.sw.path = "fuzz-spec.json";
    r.sw.err = sink;
    r.sw.text_len = sizeof sl_fuzz_ckpt_spec - 1;
    if (!(r.sw.text = strdup(sl_fuzz_ckpt_spec)) || sl_cli_sweep_parse(&r.sw) || r.sw.n_points != 4)
        abort();
    r.resume = 1;
    r.records = calloc(r.sw.n_points, sizeof *r.records);
    r.seen = calloc(r.sw.n_points, 1);
    if (!r.records || !r.seen)
        abort();
    sl_cli_sweep_ckpt_load(&r, (const char *)data, size);
    size_t kept = 0;
    for (size_t i = 0; i < r.sw.n_points; i++)
        kept += r.records[i] != NULL;
    if (kept != r.n_resumed)
        abort();
    char *msg = NULL;
    size_t msg_len = 0;
    FILE *say = open_memstream(&msg, &msg_len);
    if (!say)
        abort();
    sl_cli_sweep_ckpt_say(&r, say);
    fclose(say);
    sl_fuzz_one_line(msg, msg_len, 1);
    free(msg);
    sl_cli_sweep_run_free(&r);
    fclose(sink);
    return 0;
}

#endif
