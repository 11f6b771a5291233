/* src.c — an input as a command reads it, or the same bytes from memory: a
 * binding hands a list as text and an array as a .npy image, so both go
 * through the readers a file goes through (the same strtod / strtof pair). */
#include <string.h>

#include "api/sl_api.h"

static int is_npy(const sl_api_src *s)
{
    return sl_io_source_of_bytes(s->data, s->len) == SL_IO_SRC_NPY;
}

int sl_api_vec_read(const sl_api_src *s, sl_vec *out, sl_error *err)
{
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

int sl_api_batch_read(const sl_api_src *s, sl_io_steps *out, sl_error *err)
{
    return steps_read(s, 1, out, err);
}
