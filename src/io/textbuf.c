/* textbuf.c — a growable text buffer and the atomic file writer the report
 * and figure writers share. No upstream counterpart; plain C11 + POSIX
 * (rename(2) is atomic within one file system, so readers see either the old
 * file or the new one, never half of it). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/sl_io.h"

void sl_io_buf_init(sl_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

void sl_io_buf_free(sl_buf *b)
{
    free(b->data);
    sl_io_buf_init(b);
}

static int buf_reserve(sl_buf *b, size_t extra)
{
    if (b->oom)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->oom = 1;
        return -1;
    }
    b->data = d;
    b->cap = cap;
    return 0;
}

void sl_io_buf_append(sl_buf *b, const char *s, size_t n)
{
    if (buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sl_io_buf_puts(sl_buf *b, const char *s)
{
    sl_io_buf_append(b, s, strlen(s));
}

void sl_io_buf_printf(sl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || buf_reserve(b, (size_t)n)) {
        if (n < 0)
            b->oom = 1;
        va_end(ap2);
        return;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    b->len += (size_t)n;
}

int sl_io_write_atomic(const char *path, const char *data, size_t len, sl_error *err)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp)
        return sl_base_error_set(err, SL_EINVAL, "%s: path too long", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return sl_base_error_set(err, SL_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    size_t w = len ? fwrite(data, 1, len, f) : 0;
    int bad = (w != len) | ferror(f);
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        int e = errno;
        remove(tmp);
        return sl_base_error_set(err, SL_EIO, "%s: write failed: %s", path, strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return sl_base_error_set(err, SL_EIO, "%s: cannot rename into place: %s", path, strerror(e));
    }
    return 0;
}

int sl_io_mkdir_p(const char *path, sl_error *err)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return sl_base_error_set(err, SL_EINVAL, "bad directory name '%s'", path);
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return sl_base_error_set(err, SL_EIO, "%s: cannot create directory: %s", buf, strerror(errno));
            buf[i] = c;
        }
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return sl_base_error_set(err, SL_EIO, "%s: not a directory", path);
    return 0;
}
