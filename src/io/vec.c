/* vec.c — vectors of weights or logits: where they come from (inline list,
 * text, .npy; .safetensors in safetensors.c) and the weight checks every
 * draw shares. Invalid weights are reported, never silently renormalised. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "samplab.h"

int sl_vec_alloc(sl_vec *v, size_t n, const char *source)
{
    memset(v, 0, sizeof *v);
    snprintf(v->source, sizeof v->source, "%s", source);
    v->n = n;
    v->d = malloc((n ? n : 1) * sizeof *v->d);
    v->f = malloc((n ? n : 1) * sizeof *v->f);
    if (!v->d || !v->f) {
        sl_vec_free(v);
        return SL_ENOMEM;
    }
    return SL_OK;
}

void sl_vec_free(sl_vec *v)
{
    free(v->d);
    free(v->f);
    v->d = NULL;
    v->f = NULL;
    v->n = 0;
}

int sl_io_file_slurp(const char *path, unsigned char **buf, size_t *len, sl_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return sl_error_set(err, SL_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    unsigned char *b = malloc(cap);
    while (b) {
        n += fread(b + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *nb = realloc(b, cap *= 2);
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
        return sl_error_set(err, SL_ENOMEM, "%s: out of memory reading the file", path);
    if (bad) {
        free(b);
        return sl_error_set(err, SL_EIO, "%s: read error: %s", path, strerror(bad_errno));
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

int sl_io_vec_read(const char *spec, const char *tensor, long row, sl_vec *out, sl_error *err)
{
    struct stat st;
    memset(out, 0, sizeof *out);
    if (!*spec)
        return sl_error_set(err, SL_EINVAL, "an empty name is neither a file nor an inline list");
    if (stat(spec, &st) != 0) {
        /* Not a file: an inline list such as "3,2,2,1" when it looks like numbers. */
        /* A comma and no '/' is meant as a list even with a typo in it ("3,2,x"):
         * say which entry is wrong rather than "no such file". */
        if (strspn(spec, "0123456789+-.,eEinfatyINFATY \t") == strlen(spec) ||
            (strchr(spec, ',') && !strchr(spec, '/'))) {
            if (tensor || row >= 0)
                return sl_error_set(err, SL_EINVAL, "inline: --tensor and --row apply to .safetensors files only");
            return sl_io_vec_read_text("inline", spec, strlen(spec), out, err);
        }
        return sl_error_set(err, SL_EIO, "%s: cannot open: %s", spec, strerror(errno));
    }
    unsigned char *buf;
    size_t len;
    int rc = sl_io_file_slurp(spec, &buf, &len, err);
    if (rc)
        return rc;
    if (ends_with(spec, ".safetensors")) {
        if (!sl_io_vec_read_safetensors)
            rc = sl_error_set(err, SL_EINVAL, "%s: this build has no .safetensors reader", spec);
        else
            rc = sl_io_vec_read_safetensors(spec, buf, len, tensor, row, out, err);
    } else if (tensor || row >= 0) {
        rc = sl_error_set(err, SL_EINVAL, "%s: --tensor and --row apply to .safetensors files only", spec);
    } else if (ends_with(spec, ".npy")) {
        rc = sl_io_vec_read_npy(spec, buf, len, out, err);
    } else {
        rc = sl_io_vec_read_text(spec, (const char *)buf, len, out, err);
    }
    free(buf);
    return rc;
}

int sl_vec_check_weights(const sl_vec *v, sl_error *err)
{
    if (v->n == 0)
        return sl_error_set(err, SL_EINVAL, "%s: empty vector: no weights", v->source);
    int any = 0;
    for (size_t i = 0; i < v->n; i++) {
        double w = v->d[i];
        if (isnan(w))
            return sl_error_set(err, SL_EINVAL, "%s: entry %zu is NaN", v->source, i);
        if (isinf(w))
            return sl_error_set(err, SL_EINVAL, "%s: entry %zu is %s", v->source, i,
                                w > 0 ? "infinite" : "-infinite");
        if (w < 0)
            return sl_error_set(err, SL_EINVAL, "%s: entry %zu is negative (%.17g)", v->source, i, w);
        any |= w > 0;
    }
    if (!any)
        return sl_error_set(err, SL_EINVAL, "%s: all %zu weights are zero", v->source, v->n);
    /* Every finite weight can still sum past DBL_MAX; the methods normalise by the sum. */
    double sum = 0;
    for (size_t i = 0; i < v->n; i++) {
        sum += v->d[i];
        if (isinf(sum))
            return sl_error_set(err, SL_EINVAL, "%s: the running sum of the weights overflows at entry %zu", v->source, i);
    }
    return SL_OK;
}
