/* npy.c — vectors and [T, V] matrices from NumPy .npy files (format versions
 * 1.0, 2.0 and 3.0, as numpy/lib/format.py writes them): little-endian float32
 * ('<f4') or float64 ('<f8'), C order. The file's own dtype is kept in
 * vec->dtype; the other precision is derived (float32 -> double is exact).
 * The header is parsed strictly: a dict literal whose shape is a tuple of
 * decimal integers, "(n,)" for 1-D and "(t, v)" (numpy's own spelling, an
 * optional trailing comma) for 2-D; anything else is refused by position. */
#include <stdlib.h>
#include <string.h>

#include "io/sl_io.h"

static const char *find_key(const char *hdr, size_t hl, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl <= hl; i++)
        if (!memcmp(hdr + i, key, kl))
            return hdr + i + kl;
    return NULL;
}

/* Parses the header of buf: dims (1 to 8), shape, element width and the data
 * offset; the data length is checked against the shape. */
int sl_io_npy_header(const char *name, const unsigned char *buf, size_t len, sl_io_npy_info *info, sl_error *err)
{
    memset(info, 0, sizeof *info);
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6))
        return sl_base_error_set(err, SL_EINVAL, "%s: byte 0: not a .npy file (no \\x93NUMPY magic)", name);
    unsigned major = buf[6];
    size_t hl, off;
    if (major == 1) {
        hl = (size_t)buf[8] | (size_t)buf[9] << 8;
        off = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12)
            return sl_base_error_set(err, SL_EINVAL, "%s: byte 8: truncated .npy header length", name);
        hl = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        off = 12;
    } else {
        return sl_base_error_set(err, SL_EINVAL, "%s: byte 6: unsupported .npy format version %u", name, major);
    }
    if (hl > len - off)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: header of %zu bytes runs past the end of the file (%zu bytes)",
                            name, off, hl, len);
    const char *hdr = (const char *)buf + off;
    /* The header is a Python dict literal, padded with spaces and a newline: a cut
     * or garbled one must not be read by key search alone. */
    size_t hb = 0, he = hl;
    while (hb < hl && hdr[hb] == ' ')
        hb++;
    while (he > hb && (hdr[he - 1] == ' ' || hdr[he - 1] == '\n' || hdr[he - 1] == '\0'))
        he--;
    if (hb == he || hdr[hb] != '{' || hdr[he - 1] != '}')
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: the header is not a {...} dictionary", name,
                            off + (hb < he && hdr[hb] != '{' ? hb : he));
    const char *descr = find_key(hdr, hl, "'descr':");
    const char *fo = find_key(hdr, hl, "'fortran_order':");
    const char *shape = find_key(hdr, hl, "'shape':");
    if (!descr || !fo || !shape)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: header lacks descr, fortran_order or shape", name, off);
    size_t rest = hl - (size_t)(descr - hdr);
    while (rest && *descr == ' ') {
        descr++;
        rest--;
    }
    size_t width;
    if (rest >= 5 && (!memcmp(descr, "'<f4'", 5) || !memcmp(descr, "'|f4'", 5)))
        width = 4;
    else if (rest >= 5 && (!memcmp(descr, "'<f8'", 5) || !memcmp(descr, "'|f8'", 5)))
        width = 8;
    else
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: dtype must be little-endian float32 '<f4' or float64 '<f8'",
                            name, off + (size_t)(descr - hdr));
    rest = hl - (size_t)(fo - hdr);
    while (rest && *fo == ' ') {
        fo++;
        rest--;
    }
    if (!(rest >= 5 && !memcmp(fo, "False", 5)))
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: fortran_order must be False", name, off + (size_t)(fo - hdr));
    rest = hl - (size_t)(shape - hdr);
    while (rest && *shape == ' ') {
        shape++;
        rest--;
    }
    size_t at = off + (size_t)(shape - hdr);
    if (!rest || *shape != '(')
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: malformed shape", name, at);
    /* "(n,)", "(t, v)", "(t, v,)": digits, then ',' and optional spaces, then ')' */
    size_t i = 1, nd = 0;
    int comma = 0;
    while (i < rest && shape[i] != ')') {
        size_t n = 0, digits = 0;
        while (i < rest && shape[i] >= '0' && shape[i] <= '9') {
            if (n > (SIZE_MAX - 9) / 10)
                return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: shape is too large", name, at + i);
            n = n * 10 + (size_t)(shape[i] - '0');
            i++;
            digits++;
        }
        if (!digits || nd == SL_IO_NPY_MAXDIM)
            return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: malformed shape (a tuple of integers, e.g. (n,) or (t, v))",
                                name, at + i);
        info->shape[nd++] = n;
        comma = 0;
        if (i < rest && shape[i] == ',') {
            comma = 1;
            i++;
            while (i < rest && shape[i] == ' ')
                i++;
        } else if (i < rest && shape[i] != ')') {
            return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: malformed shape (a tuple of integers, e.g. (n,) or (t, v))",
                                name, at + i);
        }
    }
    if (i >= rest || nd == 0 || (nd == 1 && !comma))
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: malformed shape (a tuple of integers, e.g. (n,) or (t, v))",
                            name, at + (i < rest ? i : 0));
    size_t total = 1;
    for (size_t k = 0; k < nd; k++) {
        if (info->shape[k] && total > SIZE_MAX / width / info->shape[k])
            return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: shape is too large", name, at);
        total *= info->shape[k];
    }
    size_t data = off + hl;
    if (len - data != total * width)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte %zu: the shape needs %zu data bytes, the file has %zu", name,
                            data, total * width, len - data);
    info->ndim = nd;
    info->width = width;
    info->count = total;
    info->data = buf + data;
    return SL_OK;
}

/* Element k of the data, in both precisions (float32 widens exactly; float64
 * rounds once to float). */
void sl_io_npy_elem(const sl_io_npy_info *info, size_t k, double *d, float *f)
{
    const unsigned char *p = info->data;
    if (info->width == 4) {
        uint32_t u = (uint32_t)p[4 * k] | (uint32_t)p[4 * k + 1] << 8 | (uint32_t)p[4 * k + 2] << 16 |
                     (uint32_t)p[4 * k + 3] << 24;
        float x;
        memcpy(&x, &u, 4);
        *f = x;
        *d = x;
    } else {
        uint64_t u = 0;
        for (int b = 7; b >= 0; b--)
            u = u << 8 | p[8 * k + (size_t)b];
        double x;
        memcpy(&x, &u, 8);
        *d = x;
        *f = (float)x;
    }
}

int sl_io_vec_read_npy(const char *name, const unsigned char *buf, size_t len, sl_vec *out, sl_error *err)
{
    sl_io_npy_info info;
    int rc = sl_io_npy_header(name, buf, len, &info, err);
    if (rc)
        return rc;
    if (info.ndim != 1)
        return sl_base_error_set(err, SL_EINVAL, "%s: a %zu-D array; a vector must be 1-D, written (n,)", name, info.ndim);
    size_t n = info.shape[0];
    if (n == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: empty vector (shape (0,))", name);
    if ((rc = sl_base_vec_alloc(out, n, name, err)))
        return rc;
    for (size_t k = 0; k < n; k++)
        sl_io_npy_elem(&info, k, &out->d[k], &out->f[k]);
    out->dtype = info.width == 4 ? SL_F32 : SL_F64;
    return SL_OK;
}
