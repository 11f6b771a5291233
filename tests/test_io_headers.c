/* test_io_headers.c — samplab's binary readers against the real libraries'
 * own readers on files made to probe them.
 *
 * .npy: samplab's header parser (io/npy.c) against
 * NumPy 2.4.6's own reader (numpy.lib.format._read_array_header, what np.load
 * calls) on the 2,947 headers of data/golden/current/npy_headers.txt
 * (analysis/golden/current/npy_headers.py: hand-written literal forms in
 * versions 1.0, 2.0 and 3.0, and random mutations of valid headers).
 * Where NumPy refuses a header, samplab refuses it; where both read it, they
 * read the same dtype width and shape; where only NumPy reads it, samplab's
 * message names one of its documented refusals (a key given twice, a negative
 * or bool or huge shape entry, more than 8 dimensions, Fortran order over two
 * dimensions, another dtype, a structured dtype, a \N{...} escape).
 *
 * .safetensors: samplab's reader (io/safetensors.c) against safetensors 0.8.0's
 * deserialize on the 2,082 files of data/golden/current/safetensors_headers.txt
 * (analysis/golden/current/safetensors_headers.py). Where the library refuses a
 * file, samplab refuses it; where only the library reads it, samplab's message is
 * one of its documented refusals (a key given twice, a \u0000 in a string). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

static size_t unhex(const char *h, unsigned char *out, size_t cap)
{
    size_t n = 0;
    if (!strcmp(h, "-"))
        return 0;
    for (; h[0] && h[1] && n < cap; h += 2) {
        unsigned v;
        sscanf(h, "%2x", &v);
        out[n++] = (unsigned char)v;
    }
    return n;
}

/* Parses buf[0..hl) as a header of version major with `data` zero bytes after it. */
static int parse(unsigned major, const unsigned char *hdr, size_t hl, size_t data, sl_io_npy_info *info, sl_error *e)
{
    static unsigned char file[1 << 16];
    size_t off = major == 1 ? 10 : 12;
    cr_assert(off + hl + data <= sizeof file);
    memcpy(file, "\x93NUMPY", 6);
    file[6] = (unsigned char)major;
    file[7] = 0;
    for (size_t k = 0; k < off - 8; k++)
        file[8 + k] = (unsigned char)(hl >> (8 * k));
    memcpy(file + off, hdr, hl);
    memset(file + off + hl, 0, data);
    return sl_io_npy_header("h.npy", file, off + hl + data, info, e);
}

Test(io_headers, npy_headers_as_numpy_reads_them)
{
    char *text = sl_test_slurp("data/golden/current/npy_headers.txt");
    cr_assert_not_null(text, "data/golden/current/npy_headers.txt");
    static const char *const stricter[] = {"appears twice", "is negative", "is True", "is False", "too large",
                                           "dimensions; samplab reads at most 8", "fortran_order True", "dtype '",
                                           "a list (", "a tuple inside a tuple", "\\N{...}",
                                           "a line continuation outside"};
    size_t n = 0, both = 0, refused = 0, strict = 0, bad = 0;
    static unsigned char hdr[1 << 15];
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        unsigned major;
        char hex[1 << 15], verdict[8], dtype[16] = "", shape[128] = "";
        int fo = 0;
        int got = sscanf(line, "%u %32767s %7s %15s %127s %d", &major, hex, verdict, dtype, shape, &fo);
        cr_assert(got >= 3, "bad line %.60s", line);
        size_t hl = unhex(hex, hdr, sizeof hdr);
        n++;
        sl_io_npy_info info;
        sl_error e;
        int rc = parse(major, hdr, hl, 0, &info, &e);
        const char *need = rc ? strstr(e.msg, "the shape needs ") : NULL;
        if (need) { /* the header was read: give it its data */
            size_t nb = strtoull(need + 16, NULL, 10);
            if (nb < 4096)
                rc = parse(major, hdr, hl, nb, &info, &e);
        }
        int numpy_ok = !strcmp(verdict, "OK");
        if (!numpy_ok) {
            refused++;
            if (rc == 0 || need) {
                bad++;
                cr_log_error("numpy refuses (%s), samplab reads: %s", dtype, line);
            }
            continue;
        }
        if (rc == 0) {
            both++;
            char ours[160];
            size_t k = 0;
            for (size_t i = 0; i < info.ndim; i++)
                k += (size_t)snprintf(ours + k, sizeof ours - k, "%s%zu", i ? "," : "", info.shape[i]);
            if (!info.ndim)
                snprintf(ours, sizeof ours, "-");
            size_t width = (size_t)(dtype[strlen(dtype) - 1] - '0');
            if (strcmp(ours, shape) || info.width != width || dtype[0] != '<') {
                bad++;
                cr_log_error("numpy reads %s %s, samplab %zu bytes, shape %s: %s", dtype, shape, info.width, ours, line);
            }
            continue;
        }
        int known = 0;
        for (size_t k = 0; k < sizeof stricter / sizeof stricter[0]; k++)
            known |= strstr(e.msg, stricter[k]) != NULL;
        strict++;
        if (!known) {
            bad++;
            cr_log_error("numpy reads %s %s, samplab refuses for no documented reason: %s (%s)", dtype, shape, e.msg,
                         line);
        }
    }
    cr_log_info("npy headers: %zu compared, %zu read by both, %zu refused by both, %zu refused by samplab only "
                "(documented), %zu differences", n, both, refused, strict, bad);
    cr_expect_eq(bad, 0, "%zu headers read otherwise than NumPy reads them", bad);
    cr_expect_gt(n, 2000);
    free(text);
}

/* Whether samplab's refusal is about the choice within a valid file (which tensor,
 * which row, a dtype or rank it does not read as a vector), not the file. */
static int st_valid_file(int rc, const char *msg)
{
    static const char *const choice[] = {"choose one with --tensor", "has dtype", "is a scalar", "choose one with --row", "holds no tensors",
                                         "no entries"};
    if (rc == 0)
        return 1;
    for (size_t k = 0; k < sizeof choice / sizeof choice[0]; k++)
        if (strstr(msg, choice[k]))
            return 1;
    return 0;
}

Test(io_headers, safetensors_files_as_the_library_reads_them)
{
    char *text = sl_test_slurp("data/golden/current/safetensors_headers.txt");
    cr_assert_not_null(text, "data/golden/current/safetensors_headers.txt");
    static const char *const stricter[] = {"duplicate object key", "\\u0000 is not allowed"};
    static unsigned char file[1 << 15];
    size_t n = 0, both = 0, refused = 0, strict = 0, bad = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *sp = strchr(line, ' ');
        cr_assert_not_null(sp, "bad line %.60s", line);
        *sp = '\0';
        size_t len = unhex(line, file, sizeof file);
        int lib_ok = !strcmp(sp + 1, "OK");
        sl_vec v;
        sl_error e;
        int rc = sl_io_vec_read_safetensors("h.safetensors", file, len, NULL, -1, &v, &e);
        if (rc == 0)
            sl_base_vec_free(&v);
        int ours = st_valid_file(rc, e.msg);
        n++;
        if (!lib_ok) {
            refused++;
            if (ours) {
                bad++;
                cr_log_error("safetensors refuses, samplab reads (%s): %s", rc ? e.msg : "ok", line);
            }
        } else if (ours) {
            both++;
        } else {
            int known = 0;
            for (size_t k = 0; k < sizeof stricter / sizeof stricter[0]; k++)
                known |= strstr(e.msg, stricter[k]) != NULL;
            strict++;
            if (!known) {
                bad++;
                cr_log_error("safetensors reads, samplab refuses for no documented reason: %s (%s)", e.msg, line);
            }
        }
    }
    cr_log_info("safetensors files: %zu compared, %zu valid for both, %zu refused by both, %zu refused by samplab "
                "only (documented), %zu differences", n, both, refused, strict, bad);
    cr_expect_eq(bad, 0, "%zu files judged otherwise than safetensors judges them", bad);
    cr_expect_gt(n, 2000);
    free(text);
}
