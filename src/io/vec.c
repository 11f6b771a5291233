/* vec.c — vectors of weights or logits: where they come from (io/source.c says
 * what a name is: an inline list, text, a .npy or .safetensors tensor view). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/sl_io.h"

int sl_io_file_slurp(const char *path, unsigned char **buf, size_t *len, sl_error *err)
{
    int rc = sl_io_input_check(path, err);
    if (rc)
        return rc;
    FILE *f = fopen(path, "rb");
    if (!f)
        return sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", path, strerror(errno));
    /* a regular file is read in one piece of its size (a 1 GB logits dump must not be
     * copied through a doubling buffer); a pipe or a file that grows reads on, up to
     * SL_IO_MAX_PIPE bytes more: an endless pipe ends in an error, not in swap */
    struct stat st;
    size_t cap = 1 << 16, n = 0, limit = SL_IO_MAX_PIPE;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (unsigned long long)st.st_size < SIZE_MAX - 1 - SL_IO_MAX_PIPE) {
        cap = (size_t)st.st_size + 1;
        limit += (size_t)st.st_size;
    }
    unsigned char *b = malloc(cap);
    while (b) {
        n += fread(b + n, 1, cap - n, f);
        if (n < cap)
            break;
        if (n >= limit) {
            free(b);
            fclose(f);
            return sl_base_error_set(err, SL_EINVAL, "%s: more than %zu bytes from a pipe or a growing file; "
                                     "samplab reads at most %zu", path, limit, limit);
        }
        unsigned char *nb = cap <= SIZE_MAX / 2 ? realloc(b, cap *= 2) : NULL;
        if (!nb) {
            free(b);
            b = NULL;
        } else {
            b = nb;
        }
    }
    int bad = ferror(f), bad_errno = errno;
    fclose(f);
    if (!b)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory reading the file", path);
    if (bad) {
        free(b);
        return sl_base_error_set(err, SL_EIO, "%s: read error: %s", path, strerror(bad_errno));
    }
    *buf = b;
    *len = n;
    return SL_OK;
}

/* Weak so that a build without the safetensors reader (the explorer's) still links. */
int sl_io_safetensors_view(const char *name, const unsigned char *buf, size_t len, const char *tensor,
                           sl_io_tensor *t, sl_error *err) __attribute__((weak));

int sl_io_vec_read_npy(const char *name, const unsigned char *buf, size_t len, sl_vec *out, sl_error *err)
{
    sl_io_tensor t;
    int rc = sl_io_npy_view(name, buf, len, &t, err);
    if (rc)
        return rc;
    if (t.ndim != 1)
        return sl_base_error_set(err, SL_EINVAL, "%s: a %zu-D array; a vector must be 1-D, written (n,)", name, t.ndim);
    size_t n = (size_t)t.v;
    if (n == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: empty vector (shape (0,))", name);
    if (n > SL_IO_MAX_V)
        return sl_base_error_set(err, SL_EINVAL, "%s: a vector of %zu entries; samplab reads at most %zu", name, n,
                                 SL_IO_MAX_V);
    if ((rc = sl_base_vec_alloc(out, n, name, err)))
        return rc;
    for (size_t k = 0; k < n; k++)
        sl_io_tensor_elem(&t, k, &out->d[k], &out->f[k]);
    out->dtype = sl_io_tensor_dtype(&t);
    out->own_dtype = 1;
    return SL_OK;
}

/* Rows: a tensor of shape [d0, ..., dk, V] has d0*...*dk rows of V entries in C
 * order, so a [1, 5, V] forward-pass dump takes --row 4 for the last position;
 * a 1-D tensor is one row. */
int sl_io_vec_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor,
                               long row, sl_vec *out, sl_error *err)
{
    sl_io_tensor fd;
    memset(out, 0, sizeof *out);
    if (!sl_io_safetensors_view)
        return sl_base_error_set(err, SL_EINVAL, "%s: this build has no .safetensors reader", name);
    int rc = sl_io_safetensors_view(name, buf, len, tensor, &fd, err);
    if (rc)
        return rc;
    const char *cn = fd.name, *shp = fd.shape;
    uint64_t V = fd.v, rows = fd.rows;
    if (V == 0 || rows == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has shape %s: no entries", name, cn, shp);
    if (row < 0) {
        if (rows > 1)
            return sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has shape %s, %llu rows: choose one with --row (0 to %llu)",
                                     name, cn, shp, (unsigned long long)rows, (unsigned long long)(rows - 1));
        row = 0;
    }
    if ((uint64_t)row >= rows)
        return sl_base_error_set(err, SL_EINVAL, "%s: row %ld is out of range: tensor \"%s\" has shape %s, rows 0 to %llu",
                                 name, row, cn, shp, (unsigned long long)(rows - 1));

    char src[sizeof out->source];
    if (fd.ndim == 1 && !tensor)
        snprintf(src, sizeof src, "%s", name);
    else if (fd.ndim == 1)
        snprintf(src, sizeof src, "%s:%s", name, cn);
    else
        snprintf(src, sizeof src, "%s:%s[%ld]", name, cn, row);
    if (V > SL_IO_MAX_V)
        return sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has rows of %llu entries; samplab reads vectors of at "
                                 "most %zu", name, cn, (unsigned long long)V, SL_IO_MAX_V);
    if ((rc = sl_base_vec_alloc(out, (size_t)V, src, err)))
        return rc;
    for (size_t i = 0; i < (size_t)V; i++)
        sl_io_tensor_elem(&fd, (uint64_t)row * V + i, &out->d[i], &out->f[i]);
    out->dtype = sl_io_tensor_dtype(&fd);
    out->own_dtype = 1;
    return SL_OK;
}

/* Text (a file's, or an inline list's from line0 on): numbers, or token ids (ids). */
static int read_text(const char *name, const char *text, size_t len, size_t line0, int ids, sl_vec *out, sl_error *err)
{
    size_t skip;
    int rc = sl_io_text_start(name, (const unsigned char *)text, len, ids ? "token ids" : "a text vector of numbers",
                              &skip, err);
    if (rc)
        return rc;
    return (ids ? sl_io_text_ids : sl_io_text_numbers)(name, text + skip, len - skip, line0, out, err);
}

/* An inline list named by the option that gave it (label), or "inline". */
static int read_inline(const char *spec, const char *label, int ids, sl_vec *out, sl_error *err)
{
    size_t len = strlen(spec);
    if (!label)
        return read_text("inline", spec, len, 1, ids, out, err);
    int rc = read_text(label, spec, len, memchr(spec, '\n', len) ? 1 : 0, ids, out, err);
    if (!rc)
        snprintf(out->source, sizeof out->source, "inline");
    return rc;
}

int sl_io_vec_read(const char *spec, const char *tensor, long row, sl_vec *out, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_io_vec_read", out);
    memset(out, 0, sizeof *out);
    return sl_io_vec_read_as(spec, NULL, tensor, row, out, err);
}

static int read_as(const char *spec, const char *label, const char *tensor, long row, int ids, sl_vec *out,
                   sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!spec)
        return sl_base_error_set(err, SL_EINVAL, "no vector named (the source is NULL)");
    if (!*spec)
        return sl_base_error_set(err, SL_EINVAL, "an empty name is neither a file nor an inline list");
    if (!strcmp(spec, "-"))
        return sl_base_error_set(err, SL_EINVAL, "-: standard input is not read for a vector; give a file name or an "
                                 "inline list such as 3,2,2,1");
    sl_io_source src;
    sl_io_source_resolve(spec, &src);
    /* ids: a hexadecimal "0x0" or "1 0x1" is a list with a bad id, not a missing file */
    if (ids && src.kind == SL_IO_SRC_MISSING && strspn(spec, "0123456789abcdefABCDEFxXpP+-., \t") == strlen(spec))
        src.kind = SL_IO_SRC_INLINE;
    /* a lone hexadecimal float ("0x1p-2", no comma so not taken as a list) that names no
     * file is a number the inline reader refuses by name, not a file that cannot be opened */
    if (src.kind == SL_IO_SRC_MISSING && strspn(spec, "0123456789abcdefABCDEFxXpP+-.") == strlen(spec) &&
        (strstr(spec, "0x") || strstr(spec, "0X")))
        src.kind = SL_IO_SRC_INLINE;
    if (src.kind == SL_IO_SRC_MISSING)
        return sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", spec, strerror(src.err));
    if (src.kind == SL_IO_SRC_INLINE) {
        if (tensor || row >= 0)
            return sl_base_error_set(err, SL_EINVAL, "%s: --tensor and --row apply to .safetensors files only",
                                     label ? label : "inline");
        return read_inline(spec, label, ids, out, err);
    }
    unsigned char *buf;
    size_t len;
    int rc = sl_io_file_slurp(spec, &buf, &len, err);
    if (rc)
        return rc;
    if (src.kind == SL_IO_SRC_SAFETENSORS)
        rc = sl_io_vec_read_safetensors(spec, buf, len, tensor, row, out, err);
    else if (tensor || row >= 0)
        rc = sl_base_error_set(err, SL_EINVAL, "%s: --tensor and --row apply to .safetensors files only", spec);
    else if (src.kind == SL_IO_SRC_NPY)
        rc = sl_io_vec_read_npy(spec, buf, len, out, err);
    else
        rc = read_text(spec, (const char *)buf, len, 1, ids, out, err);
    free(buf);
    return rc;
}

int sl_io_vec_read_as(const char *spec, const char *label, const char *tensor, long row, sl_vec *out, sl_error *err)
{
    return read_as(spec, label, tensor, row, 0, out, err);
}

int sl_io_ids_read_as(const char *spec, const char *label, sl_vec *out, sl_error *err)
{
    return read_as(spec, label, NULL, -1, 1, out, err);
}
