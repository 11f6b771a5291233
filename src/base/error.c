/* error.c — the one error type every layer returns through: a formatted line. */
#include <stdarg.h>
#include <stdio.h>

#include "base/sl_base.h"

int sl_base_error_set(sl_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}
