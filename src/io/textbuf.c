/* textbuf.c — the growable text buffer every writer fills (the report, the
 * figures, the --json settings echo; the browser build too). No upstream
 * counterpart; plain C11. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
