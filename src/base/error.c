/* error.c — the one error type every layer returns through: a formatted line.
 * A message longer than the buffer (a 5000-byte file name) keeps its head and
 * its tail around "...": the tail says what is wrong. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sl_base.h"

int sl_base_error_set(sl_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return code;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n < sizeof err->msg)
        return code;
    char *full = malloc((size_t)n + 1);
    if (!full)
        return code; /* the cut message stays */
    va_start(ap, fmt);
    vsnprintf(full, (size_t)n + 1, fmt, ap);
    va_end(ap);
    size_t head = 160, tail = sizeof err->msg - 1 - head - 3;
    memcpy(err->msg, full, head);
    memcpy(err->msg + head, "...", 3);
    memcpy(err->msg + head + 3, full + (size_t)n - tail, tail);
    err->msg[sizeof err->msg - 1] = '\0';
    free(full);
    return code;
}

int sl_base_arg_null(sl_error *err, const char *call, const char *arg)
{
    return sl_base_error_set(err, SL_EINVAL, "%s: %s is NULL", call, arg);
}
