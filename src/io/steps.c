/* steps.c — per-step logits of a generation: a [T, V] matrix, one row per step,
 * from a 2-D .safetensors tensor (io/safetensors.c), a 2-D .npy (io/npy.c) or
 * text with one step per line (io/text.c's numbers, parsed by strtod and by
 * strtof); or, read as a batch, a [T, B, V] tensor (transformers' output_logits
 * stacked per step: B rows a step, C order, row b of step t at t·B + b). Binary sources keep their own precision (float32 rows widen exactly
 * to double, float64 rows round once to float); text keeps both parsings.
 * Every row must have a number that is not NaN and not all -inf: a sampler
 * has nothing to draw from such a step, so it is refused here, by step. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "io/sl_io.h"

int sl_io_steps_alloc(sl_io_steps *m, size_t t, size_t v, sl_dtype dtype, const char *source, sl_error *err)
{
    memset(m, 0, sizeof *m);
    snprintf(m->source, sizeof m->source, "%s", source);
    if (!t || !v)
        return sl_base_error_set(err, SL_EINVAL, "%s: no steps", source);
    if (t > SIZE_MAX / sizeof(double) / v)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu steps of %zu entries", source, t, v);
    m->t = t;
    m->v = v;
    m->dtype = dtype;
    if (dtype == SL_F64)
        m->d = malloc(t * v * sizeof *m->d);
    else
        m->f = malloc(t * v * sizeof *m->f);
    if (!m->d && !m->f)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu steps of %zu entries", source, t, v);
    return SL_OK;
}

void sl_io_steps_free(sl_io_steps *m)
{
    if (!m->view) {
        free(m->d);
        free(m->f);
    }
    if (m->map)
        munmap(m->map, m->map_len);
    memset(m, 0, sizeof *m);
}

size_t sl_io_steps_rows(const sl_io_steps *m)
{
    return m->b > 1 ? m->b : 1;
}

/* Flat row i (t·B + b) into row, named "SOURCE step t" or, in a batch, "SOURCE step t row b". */
static int steps_row_at(const sl_io_steps *m, size_t i, sl_vec *row)
{
    size_t B = sl_io_steps_rows(m);
    if (i >= m->t * B || row->n != m->v)
        return SL_EINVAL;
    size_t V = m->v;
    if (m->d && m->f) {
        memcpy(row->d, m->d + i * V, V * sizeof *row->d);
        memcpy(row->f, m->f + i * V, V * sizeof *row->f);
    } else if (m->d) {
        const double *s = m->d + i * V;
        memcpy(row->d, s, V * sizeof *row->d);
        for (size_t j = 0; j < V; j++)
            row->f[j] = (float)s[j];
    } else {
        const float *s = m->f + i * V;
        memcpy(row->f, s, V * sizeof *row->f);
        size_t j = 0;
#if defined(__SSE2__)
        for (; j + 4 <= V; j += 4) { /* exact widening, two at a time */
            __m128 v = _mm_loadu_ps(s + j);
            _mm_storeu_pd(row->d + j, _mm_cvtps_pd(v));
            _mm_storeu_pd(row->d + j + 2, _mm_cvtps_pd(_mm_movehl_ps(v, v)));
        }
#endif
        for (; j < V; j++)
            row->d[j] = s[j];
    }
    row->dtype = m->dtype;
    row->own_dtype = m->own_dtype;
    if (B > 1)
        snprintf(row->source, sizeof row->source, "%.200s step %zu row %zu", m->source, i / B, i % B);
    else
        snprintf(row->source, sizeof row->source, "%.200s step %zu", m->source, i);
    return SL_OK;
}

int sl_io_steps_row(const sl_io_steps *m, size_t i, sl_vec *row)
{
    return sl_io_steps_rows(m) > 1 ? SL_EINVAL : steps_row_at(m, i, row);
}

int sl_io_steps_row_of(const sl_io_steps *m, size_t t, size_t b, sl_vec *row)
{
    size_t B = sl_io_steps_rows(m);
    if (t >= m->t || b >= B)
        return SL_EINVAL;
    return steps_row_at(m, t * B + b, row);
}

/* Whether row x[0..V) holds a NaN, and whether every entry is -inf: SSE2 (x86-64's
 * baseline) four floats or two doubles at a time, then the scalar tail. */
static void row_flags_f32(const float *x, size_t V, int *nan, int *live)
{
    size_t j = 0;
    int n = 0, l = 0;
#if defined(__SSE2__)
    __m128 ninf = _mm_set1_ps(-INFINITY), un = _mm_setzero_ps(), ne = _mm_setzero_ps();
    for (; j + 4 <= V; j += 4) {
        __m128 v = _mm_loadu_ps(x + j);
        un = _mm_or_ps(un, _mm_cmpunord_ps(v, v));
        ne = _mm_or_ps(ne, _mm_cmpneq_ps(v, ninf));
    }
    n = _mm_movemask_ps(un) != 0;
    l = _mm_movemask_ps(ne) != 0;
#endif
    for (; j < V; j++) {
        n |= x[j] != x[j];
        l |= x[j] != -INFINITY;
    }
    *nan = n;
    *live = l;
}

static void row_flags_f64(const double *x, size_t V, int *nan, int *live)
{
    size_t j = 0;
    int n = 0, l = 0;
#if defined(__SSE2__)
    __m128d ninf = _mm_set1_pd(-INFINITY), un = _mm_setzero_pd(), ne = _mm_setzero_pd();
    for (; j + 2 <= V; j += 2) {
        __m128d v = _mm_loadu_pd(x + j);
        un = _mm_or_pd(un, _mm_cmpunord_pd(v, v));
        ne = _mm_or_pd(ne, _mm_cmpneq_pd(v, ninf));
    }
    n = _mm_movemask_pd(un) != 0;
    l = _mm_movemask_pd(ne) != 0;
#endif
    for (; j < V; j++) {
        n |= x[j] != x[j];
        l |= x[j] != -INFINITY;
    }
    *nan = n;
    *live = l;
}

/* NaN anywhere, or nothing above -inf: the step has no distribution. The rows
 * are scanned in parallel (a 10,000-step dump is over a gigabyte), then the first
 * bad one is named, as a scan in step order would. */
int sl_io_steps_check(const sl_io_steps *m, sl_error *err)
{
    size_t V = m->v, B = sl_io_steps_rows(m), T = m->t * B; /* T: rows, B per step */
    unsigned char *bad = calloc(T ? T : 1, 1);
    if (!bad)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu steps", m->source, T);
    long long nt = (long long)T;
#pragma omp parallel for schedule(static) if (T * V > ((size_t)1 << 22))
    for (long long ii = 0; ii < nt; ii++) {
        size_t i = (size_t)ii;
        int nan, live;
        if (m->d)
            row_flags_f64(m->d + i * V, V, &nan, &live);
        else
            row_flags_f32(m->f + i * V, V, &nan, &live);
        bad[i] = (unsigned char)(nan ? 1 : !live ? 2 : 0);
    }
    int rc = SL_OK;
    for (size_t i = 0; !rc && i < T; i++) {
        char at[64];
        if (B > 1)
            snprintf(at, sizeof at, "step %zu row %zu", i / B, i % B);
        else
            snprintf(at, sizeof at, "step %zu", i);
        for (size_t j = 0; bad[i] == 1 && j < V; j++)
            if (isnan(m->d ? m->d[i * V + j] : (double)m->f[i * V + j])) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: %s, entry %zu is NaN", m->source, at, j);
                break;
            }
        if (!rc && bad[i] == 2)
            rc = sl_base_error_set(err, SL_EINVAL, "%s: %s is all -inf (nothing to draw)", m->source, at);
    }
    free(bad);
    return rc;
}

/* A [T, V] matrix of a tensor view (the format checked its shape): used in place
 * when the bytes are the host's floats, suitably aligned, and view is asked for;
 * else one copy (a memcpy when the bytes are the host's), F16 and BF16 widened. */
static int steps_of_tensor(const sl_io_tensor *t, const char *src, int view, sl_io_steps *out, sl_error *err)
{
    sl_dtype dt = sl_io_tensor_dtype(t);
    size_t B = t->ndim == 3 ? (size_t)(t->rows / t->d0) : 0; /* 0 for [T, V], B for [T, B, V] */
    memset(out, 0, sizeof *out);
    if (view && sl_io_tensor_aligned(t)) {
        snprintf(out->source, sizeof out->source, "%s", src);
        out->t = (size_t)t->d0;
        out->b = B;
        out->v = (size_t)t->v;
        out->dtype = dt;
        if (dt == SL_F64)
            out->d = (double *)(uintptr_t)t->data;
        else
            out->f = (float *)(uintptr_t)t->data;
        out->view = 1;
        out->own_dtype = 1;
        return SL_OK;
    }
    int rc = sl_io_steps_alloc(out, (size_t)t->rows, (size_t)t->v, dt, src, err);
    if (rc)
        return rc;
    size_t n = out->t * out->v;
    out->t = (size_t)t->d0;
    out->b = B;
    if (sl_io_tensor_native(t)) {
        memcpy(dt == SL_F64 ? (void *)out->d : (void *)out->f, t->data, n * (t->bits / 8));
    } else {
        for (size_t i = 0; i < n; i++) {
            double d;
            float f;
            sl_io_tensor_elem(t, i, &d, &f);
            if (dt == SL_F64)
                out->d[i] = d;
            else
                out->f[i] = f;
        }
    }
    out->own_dtype = 1;
    return SL_OK;
}

static int steps_npy(const char *name, const unsigned char *buf, size_t len, int view, int batch, sl_io_steps *out,
                     sl_error *err)
{
    sl_io_tensor t;
    memset(out, 0, sizeof *out);
    int rc = sl_io_npy_view(name, buf, len, &t, err);
    if (rc)
        return rc;
    if (t.ndim != 2 && !(batch && t.ndim == 3))
        return sl_base_error_set(err, SL_EINVAL, "%s: a %zu-D array: per-step logits are a 2-D [T, V] array%s", name,
                                 t.ndim, batch ? " (or a 3-D [T, B, V] batch)" : "");
    if (!t.rows || !t.v)
        return sl_base_error_set(err, SL_EINVAL, "%s: shape (%zu, %zu) has no entries", name, (size_t)t.d0,
                                 (size_t)t.v);
    if (t.v > SL_IO_MAX_V)
        return sl_base_error_set(err, SL_EINVAL, "%s: steps of %zu entries; samplab reads at most %zu", name,
                                 (size_t)t.v, SL_IO_MAX_V);
    return steps_of_tensor(&t, name, view, out, err);
}

int sl_io_steps_read_npy(const char *name, const unsigned char *buf, size_t len, int view, sl_io_steps *out,
                         sl_error *err)
{
    return steps_npy(name, buf, len, view, 0, out, err);
}

int sl_io_batch_read_npy(const char *name, const unsigned char *buf, size_t len, int view, sl_io_steps *out,
                         sl_error *err)
{
    return steps_npy(name, buf, len, view, 1, out, err);
}

static int steps_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor, int view,
                             int batch, sl_io_steps *out, sl_error *err)
{
    sl_io_tensor t;
    memset(out, 0, sizeof *out);
    int rc = sl_io_safetensors_view(name, buf, len, tensor, &t, err);
    if (rc)
        return rc;
    if (t.ndim != 2 && !(batch && t.ndim == 3))
        return sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has shape %s: per-step logits are a 2-D [T, V] tensor%s",
                                 name, t.name, t.shape, batch ? " (or a 3-D [T, B, V] batch)" : "");
    if (t.v == 0 || t.rows == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has shape %s: no entries", name, t.name, t.shape);
    if (t.v > SL_IO_MAX_V)
        return sl_base_error_set(err, SL_EINVAL, "%s: tensor \"%s\" has steps of %llu entries; samplab reads at most %zu",
                                 name, t.name, (unsigned long long)t.v, SL_IO_MAX_V);
    char src[sizeof out->source];
    if (tensor)
        snprintf(src, sizeof src, "%s:%s", name, t.name);
    else
        snprintf(src, sizeof src, "%s", name);
    return steps_of_tensor(&t, src, view, out, err);
}

int sl_io_steps_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor, int view,
                                 sl_io_steps *out, sl_error *err)
{
    return steps_safetensors(name, buf, len, tensor, view, 0, out, err);
}

int sl_io_batch_read_safetensors(const char *name, const unsigned char *buf, size_t len, const char *tensor, int view,
                                 sl_io_steps *out, sl_error *err)
{
    return steps_safetensors(name, buf, len, tensor, view, 1, out, err);
}

/* A line holds a step when it has something other than separators and a comment. */
static int line_has_numbers(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '#')
            return 0;
        if (!strchr(" \t\r\f\v,", s[i]))
            return 1;
    }
    return 0;
}

int sl_io_steps_read_text(const char *name, const char *text, size_t len, sl_io_steps *out, sl_error *err)
{
    memset(out, 0, sizeof *out);
    size_t skip;
    int src = sl_io_text_start(name, (const unsigned char *)text, len, "text of per-step numbers", &skip, err);
    if (src)
        return src;
    text += skip;
    len -= skip;
    size_t cap = 0, t = 0, V = 0, line = 0, first_line = 0;
    double *d = NULL;
    float *f = NULL;
    int rc = SL_OK;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        line++;
        if ((rc = sl_io_text_row_check(name, text + at, end - at, line, err)))
            goto fail;
        if (line_has_numbers(text + at, end - at)) {
            sl_vec row;
            if ((rc = sl_io_text_numbers(name, text + at, end - at, line, &row, err)))
                goto fail;
            if (t == 0) {
                V = row.n;
                first_line = line;
            } else if (row.n != V) {
                rc = sl_base_error_set(err, SL_EINVAL, "%s: line %zu (step %zu) has %zu numbers, line %zu (step 0) has %zu",
                                       name, line, t, row.n, first_line, V);
                sl_base_vec_free(&row);
                goto fail;
            }
            if (t == cap) {
                size_t nc = cap ? 2 * cap : 16;
                double *nd = NULL;
                float *nf = NULL;
                if (nc <= SIZE_MAX / sizeof(double) / V) {
                    nd = realloc(d, nc * V * sizeof *d);
                    if (nd)
                        d = nd;
                    nf = realloc(f, nc * V * sizeof *f);
                    if (nf)
                        f = nf;
                }
                if (!nd || !nf) {
                    sl_base_vec_free(&row);
                    rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory at step %zu", name, t);
                    goto fail;
                }
                cap = nc;
            }
            memcpy(d + t * V, row.d, V * sizeof *d);
            memcpy(f + t * V, row.f, V * sizeof *f);
            sl_base_vec_free(&row);
            t++;
        }
        at = end + 1;
    }
    if (!t) {
        rc = sl_base_error_set(err, SL_EINVAL, "%s: no steps (no line with numbers)", name);
        goto fail;
    }
    snprintf(out->source, sizeof out->source, "%s", name);
    out->t = t;
    out->v = V;
    out->d = d;
    out->f = f;
    out->dtype = SL_F64;
    return SL_OK;
fail:
    free(d);
    free(f);
    return rc;
}

int sl_io_steps_read(const char *path, const char *tensor, sl_io_steps *out, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_io_steps_read", out);
    memset(out, 0, sizeof *out);
    SL_BASE_NONNULL(err, "sl_io_steps_read", path);
    return sl_io_steps_read_as(path, NULL, tensor, out, err);
}

static int steps_read(const char *path, const char *label, const char *tensor, int batch, sl_io_steps *out,
                      sl_error *err)
{
    memset(out, 0, sizeof *out);
    if (!strcmp(path, "-"))
        return sl_base_error_set(err, SL_EINVAL, "-: standard input is not read for per-step rows; give a file name");
    sl_io_source src;
    sl_io_source_resolve(path, &src);
    if (src.kind == SL_IO_SRC_MISSING)
        return sl_base_error_set(err, SL_EIO, "%s: cannot open a file of per-step logits", path);
    if (src.kind == SL_IO_SRC_INLINE) {
        /* an inline list is one step: "3,2,2,1" */
        if (tensor)
            return sl_base_error_set(err, SL_EINVAL, "%s: --tensor applies to .safetensors files only",
                                     label ? label : "inline");
        /* named by its option: its numbers read first as that list (the same
         * reader), so a bad entry is "--logits: entry 1: ..." */
        sl_vec row;
        if (label) {
            int rc = sl_io_vec_read_as(path, label, NULL, -1, &row, err);
            if (rc)
                return rc;
            sl_base_vec_free(&row);
        }
        int rc = sl_io_steps_read_text("inline", path, strlen(path), out, err);
        return rc ? rc : sl_io_steps_check(out, err);
    }
    int rc = sl_io_input_check(path, err); /* a directory or a device: say which */
    if (rc)
        return rc;
    if (tensor && src.kind != SL_IO_SRC_SAFETENSORS)
        return sl_base_error_set(err, SL_EINVAL, "%s: --tensor applies to .safetensors files only", path);
    if (src.kind != SL_IO_SRC_TEXT && src.size > 0) {
        /* mapped, not read: a [10000, 32000] float32 dump is 1.28 GB, and its rows are
         * used in place where the bytes are the host's floats */
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            return sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", path, strerror(errno));
        size_t len = src.size;
        void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (map == MAP_FAILED)
            return sl_base_error_set(err, SL_EIO, "%s: cannot map: %s", path, strerror(errno));
        if (src.kind == SL_IO_SRC_SAFETENSORS)
            rc = steps_safetensors(path, map, len, tensor, 1, batch, out, err);
        else
            rc = steps_npy(path, map, len, 1, batch, out, err);
        if (!rc && out->view) {
            out->map = map;
            out->map_len = len;
        } else {
            munmap(map, len);
        }
    } else {
        unsigned char *buf;
        size_t len;
        if ((rc = sl_io_file_slurp(path, &buf, &len, err)))
            return rc;
        if (src.kind == SL_IO_SRC_SAFETENSORS)
            rc = steps_safetensors(path, buf, len, tensor, 0, batch, out, err);
        else if (src.kind == SL_IO_SRC_NPY)
            rc = steps_npy(path, buf, len, 0, batch, out, err);
        else
            rc = sl_io_steps_read_text(path, (const char *)buf, len, out, err);
        free(buf);
    }
    if (!rc && (rc = sl_io_steps_check(out, err)))
        sl_io_steps_free(out);
    return rc;
}

int sl_io_steps_read_as(const char *path, const char *label, const char *tensor, sl_io_steps *out, sl_error *err)
{
    return steps_read(path, label, tensor, 0, out, err);
}

int sl_io_batch_read_as(const char *path, const char *label, const char *tensor, sl_io_steps *out, sl_error *err)
{
    return steps_read(path, label, tensor, 1, out, err);
}
