/* input.c — what every reader checks before it parses, so that no input is
 * read as something it is not: the kind of file behind a name (a directory, a
 * device such as /dev/zero behind a symbolic link, which would read forever),
 * and, for the text readers, a byte-order mark (UTF-8's is skipped, UTF-16's
 * and UTF-32's refused) or the magic of a binary format given to a text reader
 * (.npy, .safetensors, zip/.npz, gzip). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "io/sl_io.h"

int sl_io_input_check(const char *path, sl_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return sl_base_error_set(err, SL_EIO, "%s: cannot open: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return sl_base_error_set(err, SL_EINVAL, "%s: a directory, not a file", path);
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return sl_base_error_set(err, SL_EINVAL, "%s: a device, not a file%s", path,
                                 S_ISCHR(st.st_mode) ? " (a character device such as /dev/zero never ends)" : "");
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        return sl_base_error_set(err, SL_EINVAL, "%s: not a regular file or a pipe", path);
    return SL_OK;
}

/* A .safetensors file begins with its header length (u64 LE) and then '{'. */
static int looks_safetensors(const unsigned char *b, size_t n)
{
    if (n < 9 || b[8] != '{')
        return 0;
    uint64_t h = 0;
    for (int i = 7; i >= 0; i--)
        h = h << 8 | b[i];
    return h >= 2 && h <= 100000000u;
}

int sl_io_text_start(const char *name, const unsigned char *b, size_t n, const char *what, size_t *skip,
                     sl_error *err)
{
    *skip = 0;
    const char *bin = NULL;
    if (n >= 6 && !memcmp(b, "\x93NUMPY", 6))
        bin = "a .npy file (by its magic bytes)";
    else if (looks_safetensors(b, n))
        bin = "a .safetensors file (by its header)";
    else if (n >= 4 && !memcmp(b, "PK\x03\x04", 4))
        bin = "a zip archive (an .npz? save one array with np.save)";
    else if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        bin = "gzip-compressed (gunzip it first)";
    else if ((n >= 4 && !memcmp(b, "\xff\xfe\0\0", 4)) || (n >= 4 && !memcmp(b, "\0\0\xfe\xff", 4)))
        bin = "UTF-32 text (a byte-order mark; convert it: iconv -f UTF-32 -t UTF-8)";
    else if (n >= 2 && (!memcmp(b, "\xff\xfe", 2) || !memcmp(b, "\xfe\xff", 2)))
        bin = "UTF-16 text (a byte-order mark; convert it: iconv -f UTF-16 -t UTF-8)";
    if (bin)
        return sl_base_error_set(err, SL_EINVAL, "%s: byte 0: %s, not %s", name, bin, what);
    if (n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3))
        *skip = 3; /* UTF-8's byte-order mark says nothing about the numbers: skipped */
    return SL_OK;
}
