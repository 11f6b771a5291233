/* src.c — an input as a command reads it, or the same bytes from memory: a
 * binding hands a list as text and an array as a .npy image, so both go
 * through the readers a file goes through (the same strtod / strtof pair). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/sl_api.h"

static int is_npy(const sl_api_src *s)
{
    return sl_io_source_of_bytes(s->data, s->len) == SL_IO_SRC_NPY;
}

int sl_api_vec_read(const sl_api_src *s, sl_vec *out, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_vec_read", out);
    memset(out, 0, sizeof *out);
    SL_BASE_NONNULL(err, "sl_api_vec_read", s);
    /* one vector is read: rows[1..] would be dropped without a word */
    if (s->n_rows > 1)
        return sl_base_error_set(err, SL_EINVAL, "%s given %zu times: one vector is read here",
                                 s->name ? s->name : "the source", s->n_rows);
    if (s->spec)
        return sl_io_vec_read_as(s->spec, s->name, s->tensor, s->row, out, err);
    const char *name = s->name ? s->name : "<memory>";
    if (!s->data)
        return sl_base_error_set(err, SL_EINVAL, "%s: no data", name);
    /* bytes in memory are .npy or text, as the file readers refuse these for them */
    if (s->tensor || s->row >= 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: --tensor and --row apply to .safetensors files only", name);
    if (is_npy(s))
        return sl_io_vec_read_npy(name, (const unsigned char *)s->data, s->len, out, err);
    return sl_io_vec_read_text(name, (const char *)s->data, s->len, out, err);
}

static int steps_read(const sl_api_src *s, int batch, sl_io_steps *out, sl_error *err)
{
    if (s->n_rows > 1 && !batch)
        return sl_base_error_set(err, SL_EINVAL, "%s given %zu times: one source of [T, V] rows is read here",
                                 s->name ? s->name : "the source", s->n_rows);
    if (s->spec)
        return batch ? sl_io_batch_read_as(s->spec, s->name, s->tensor, out, err)
                     : sl_io_steps_read_as(s->spec, s->name, s->tensor, out, err);
    const char *name = s->name ? s->name : "<memory>";
    if (!s->data)
        return sl_base_error_set(err, SL_EINVAL, "%s: no data", name);
    if (s->tensor)
        return sl_base_error_set(err, SL_EINVAL, "%s: --tensor applies to .safetensors files only", name);
    const unsigned char *b = s->data;
    int rc = !is_npy(s) ? sl_io_steps_read_text(name, (const char *)s->data, s->len, out, err)
             : batch    ? sl_io_batch_read_npy(name, b, s->len, 0, out, err)
                        : sl_io_steps_read_npy(name, b, s->len, 0, out, err);
    /* the rows a file's reader refuses (NaN, all -inf), refused from memory too */
    if (!rc && (rc = sl_io_steps_check(out, err)))
        sl_io_steps_free(out);
    return rc;
}

int sl_api_steps_read(const sl_api_src *s, sl_io_steps *out, sl_error *err)
{
    return steps_read(s, 0, out, err);
}

static const char *kind_name(const sl_io_steps *m)
{
    return !m->own_dtype ? "text" : m->dtype == SL_F64 ? "float64" : "float32";
}

/* A batch given one [T, V] SRC per row: each read as a generation is, then the
 * rows interleaved into [T, B, V] (row b of step t at t·B + b). Refused, one line:
 * rows that disagree in V, in T, or in their kind of numbers. */
static int batch_of_rows(const sl_api_src *s, sl_io_steps *out, sl_error *err)
{
    size_t B = s->n_rows;
    memset(out, 0, sizeof *out);
    sl_io_steps *r = calloc(B, sizeof *r);
    if (!r)
        return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu rows", B);
    int rc = SL_OK;
    const char *opt = s->name ? s->name : "--logits";
    for (size_t b = 0; b < B && !rc; b++) {
        if ((rc = sl_io_steps_read_as(s->rows[b], opt, s->tensor, &r[b], err)))
            break;
        if (b && r[b].v != r[0].v)
            rc = sl_base_error_set(err, SL_EINVAL, "%s %s (row %zu) has V = %zu, %s (row 0) has V = %zu: a batch's "
                                   "rows have one V", opt, s->rows[b], b, r[b].v, s->rows[0], r[0].v);
        else if (b && r[b].t != r[0].t)
            rc = sl_base_error_set(err, SL_EINVAL, "%s %s (row %zu) has %zu steps, %s (row 0) has %zu: a batch's "
                                   "rows have one T", opt, s->rows[b], b, r[b].t, s->rows[0], r[0].t);
        else if (b && (!r[b].d != !r[0].d || !r[b].f != !r[0].f || r[b].own_dtype != r[0].own_dtype))
            rc = sl_base_error_set(err, SL_EINVAL, "%s %s (row %zu) holds %s, %s (row 0) %s: give a batch's rows in "
                                   "one kind", opt, s->rows[b], b, kind_name(&r[b]), s->rows[0], kind_name(&r[0]));
    }
    size_t T = r[0].t, V = r[0].v;
    if (!rc && T > SIZE_MAX / sizeof(double) / V / B)
        rc = sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu rows of %zu steps", B, T);
    if (!rc) {
        snprintf(out->source, sizeof out->source, "%.200s", s->rows[0]);
        out->t = T;
        out->b = B;
        out->v = V;
        out->dtype = r[0].dtype;
        out->own_dtype = r[0].own_dtype;
        if ((r[0].d && !(out->d = malloc(T * B * V * sizeof *out->d))) ||
            (r[0].f && !(out->f = malloc(T * B * V * sizeof *out->f))))
            rc = sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu rows of %zu steps", B, T);
    }
    for (size_t b = 0; !rc && b < B; b++)
        for (size_t t = 0; t < T; t++) {
            if (out->d)
                memcpy(out->d + (t * B + b) * V, r[b].d + t * V, V * sizeof *out->d);
            if (out->f)
                memcpy(out->f + (t * B + b) * V, r[b].f + t * V, V * sizeof *out->f);
        }
    for (size_t b = 0; b < B; b++)
        sl_io_steps_free(&r[b]);
    free(r);
    if (rc)
        sl_io_steps_free(out);
    return rc;
}

int sl_api_batch_read(const sl_api_src *s, sl_io_steps *out, sl_error *err)
{
    return s->n_rows > 1 ? batch_of_rows(s, out, err) : steps_read(s, 1, out, err);
}
