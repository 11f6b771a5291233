/* source.c — what a source names, decided in one place for every reader: the
 * vector readers (io/vec.c), the per-step readers (io/steps.c) and the api's
 * bytes in memory (api/src.c). A name that is a file is read by its ending
 * (.npy, .safetensors, else text); a name that is no file is an inline list
 * when it looks like numbers, so a typo in "3,2,x" is answered with the entry
 * that is wrong rather than "no such file". The readers word their own
 * refusals (a vector and a generation refuse standard input differently). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "io/sl_io.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

void sl_io_source_resolve(const char *spec, sl_io_source *s)
{
    struct stat st;
    memset(s, 0, sizeof *s);
    if (!*spec) {
        s->kind = SL_IO_SRC_MISSING;
        s->err = ENOENT;
        return;
    }
    if (stat(spec, &st) != 0) {
        s->err = errno;
        /* numbers only, or a comma and no '/': meant as a list even with a typo in it */
        int list = strspn(spec, "0123456789+-.,eEinfatyINFATY \t") == strlen(spec) ||
                   (strchr(spec, ',') && !strchr(spec, '/'));
        s->kind = list ? SL_IO_SRC_INLINE : SL_IO_SRC_MISSING;
        return;
    }
    s->size = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size : 0;
    s->kind = ends_with(spec, ".safetensors") ? SL_IO_SRC_SAFETENSORS
              : ends_with(spec, ".npy")       ? SL_IO_SRC_NPY
                                              : SL_IO_SRC_TEXT;
}

sl_io_src_kind sl_io_source_of_bytes(const void *data, size_t len)
{
    /* a binding hands an array as a .npy image and a list as text */
    return len >= 6 && !memcmp(data, "\x93NUMPY", 6) ? SL_IO_SRC_NPY : SL_IO_SRC_TEXT;
}
