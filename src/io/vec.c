/* vec.c — vectors of weights or logits: where they come from (inline list,
 * text, .npy; .safetensors in safetensors.c). */
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

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* Weak so that the build without the safetensors reader still links. */
int sl_io_vec_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor,
                               long row, sl_vec *out, sl_error *err) __attribute__((weak));

/* An inline list named by the option that gave it (label), or "inline". */
static int read_inline(const char *spec, const char *label, sl_vec *out, sl_error *err)
{
    if (!label)
        return sl_io_vec_read_text("inline", spec, strlen(spec), out, err);
    size_t skip, len = strlen(spec);
    int rc = sl_io_text_start(label, (const unsigned char *)spec, len, "a text vector of numbers", &skip, err);
    if (!rc)
        rc = sl_io_text_numbers(label, spec + skip, len - skip, memchr(spec, '\n', len) ? 1 : 0, out, err);
    if (!rc)
        snprintf(out->source, sizeof out->source, "inline");
    return rc;
}

int sl_io_vec_read(const char *spec, const char *tensor, long row, sl_vec *out, sl_error *err)
{
    return sl_io_vec_read_as(spec, NULL, tensor, row, out, err);
}

int sl_io_vec_read_as(const char *spec, const char *label, const char *tensor, long row, sl_vec *out, sl_error *err)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    if (!spec)
        return sl_base_error_set(err, SL_EINVAL, "no vector named (the source is NULL)");
    if (!*spec)
        return sl_base_error_set(err, SL_EINVAL, "an empty name is neither a file nor an inline list");
    if (!strcmp(spec, "-"))
        return sl_base_error_set(err, SL_EINVAL, "-: standard input is not read for a vector; give a file name or an "
                                 "inline list such as 3,2,2,1");
    if (stat(spec, &st) != 0) {
        /* Not a file: an inline list such as "3,2,2,1" when it looks like numbers. */
        /* A comma and no '/' is meant as a list even with a typo in it ("3,2,x"):
         * say which entry is wrong rather than "no such file". */
        if (strspn(spec, "0123456789+-.,eEinfatyINFATY \t") == strlen(spec) ||
            (strchr(spec, ',') && !strchr(spec, '/'))) {
            if (tensor || row >= 0)
                return sl_base_error_set(err, SL_EINVAL, "%s: --tensor and --row apply to .safetensors files only",
                                         label ? label : "inline");
            return read_inline(spec, label, out, err);
        }
        return sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", spec, strerror(errno));
    }
    unsigned char *buf;
    size_t len;
    int rc = sl_io_file_slurp(spec, &buf, &len, err);
    if (rc)
        return rc;
    if (ends_with(spec, ".safetensors")) {
        if (!sl_io_vec_read_safetensors)
            rc = sl_base_error_set(err, SL_EINVAL, "%s: this build has no .safetensors reader", spec);
        else
            rc = sl_io_vec_read_safetensors(spec, buf, len, tensor, row, out, err);
    } else if (tensor || row >= 0) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: --tensor and --row apply to .safetensors files only", spec);
    } else if (ends_with(spec, ".npy")) {
        rc = sl_io_vec_read_npy(spec, buf, len, out, err);
    } else {
        rc = sl_io_vec_read_text(spec, (const char *)buf, len, out, err);
    }
    free(buf);
    return rc;
}
