/* test_io_steps.c — the per-step logits reader (io/steps.c over the tensor views
 * of io/npy.c and io/safetensors.c): [T, V] from a 2-D .safetensors tensor, a 2-D
 * .npy and text with one step per line, on files built here byte by byte; each
 * row equal in float32 and float64 to the values written, and every refusal
 * naming the file and the position. */
#include <criterion/criterion.h>
#include <math.h>

#include "helpers.h"
#include "samplab.h"

/* A .npy image with header dict text `dict` (padded as numpy pads) and data. */
static unsigned char *npy(const char *dict, const void *data, size_t dlen, size_t *len)
{
    size_t hl = strlen(dict) + 1, pad = (64 - (10 + hl) % 64) % 64;
    *len = 10 + hl + pad + dlen;
    unsigned char *b = malloc(*len);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)((hl + pad) & 255);
    b[9] = (unsigned char)((hl + pad) >> 8);
    memcpy(b + 10, dict, strlen(dict));
    memset(b + 10 + strlen(dict), ' ', pad);
    b[10 + hl + pad - 1] = '\n';
    memcpy(b + 10 + hl + pad, data, dlen);
    return b;
}

/* A one-tensor .safetensors image. */
static unsigned char *st(const char *dtype, const char *shape, const void *data, size_t dlen, size_t *len)
{
    char hdr[256];
    int n = snprintf(hdr, sizeof hdr, "{\"x\":{\"dtype\":\"%s\",\"shape\":%s,\"data_offsets\":[0,%zu]}}", dtype, shape, dlen);
    while (n % 8)
        hdr[n++] = ' ';
    *len = 8 + (size_t)n + dlen;
    unsigned char *b = malloc(*len);
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(b + 8, hdr, (size_t)n);
    memcpy(b + 8 + n, data, dlen);
    return b;
}

static void row_eq(const sl_io_steps *m, size_t i, const float *want)
{
    sl_vec r;
    sl_error e;
    cr_assert_eq(sl_base_vec_alloc(&r, m->v, "t", &e), 0);
    cr_assert_eq(sl_io_steps_row(m, i, &r), 0);
    for (size_t j = 0; j < m->v; j++) {
        cr_expect_eq(r.f[j], want[j], "step %zu entry %zu: f %.9g, want %.9g", i, j, r.f[j], want[j]);
        cr_expect_eq(r.d[j], (double)want[j], "step %zu entry %zu: d %.17g", i, j, r.d[j]);
    }
    sl_base_vec_free(&r);
}

Test(replay_io, steps_npy_safetensors_text)
{
    const float x[6] = {1.5f, -2.0f, 0.25f, -INFINITY, 3.0f, 0.1f};
    size_t len;
    sl_io_steps m;
    sl_error e;
    unsigned char *b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", x, sizeof x, &len);
    cr_assert_eq(sl_io_steps_read_npy("a.npy", b, len, 0, &m, &e), 0, "%s", e.msg);
    cr_expect_eq(m.t, 2);
    cr_expect_eq(m.v, 3);
    row_eq(&m, 0, x);
    row_eq(&m, 1, x + 3);
    sl_io_steps_free(&m);
    /* a view points into the buffer (64-byte aligned data) and reads the same rows */
    cr_assert_eq(sl_io_steps_read_npy("a.npy", b, len, 1, &m, &e), 0, "%s", e.msg);
    cr_expect(m.view && (const unsigned char *)m.f == b + len - sizeof x, "the view is the file's data");
    row_eq(&m, 1, x + 3);
    sl_io_steps_free(&m);
    free(b);

    b = st("F32", "[2,3]", x, sizeof x, &len);
    cr_assert_eq(sl_io_steps_read_safetensors("a.safetensors", b, len, NULL, 0, &m, &e), 0, "%s", e.msg);
    cr_expect_eq(m.t, 2);
    row_eq(&m, 1, x + 3);
    sl_io_steps_free(&m);
    free(b);

    /* text: both parsings kept (0.1 by strtof is not (float)strtod's double rounding case here, but both stored) */
    const char *txt = "# two steps\n1.5, -2, 0.25\n\n-inf 3 0.1  # second\n";
    cr_assert_eq(sl_io_steps_read_text("a.txt", txt, strlen(txt), &m, &e), 0, "%s", e.msg);
    cr_expect_eq(m.t, 2);
    cr_expect(m.d && m.f);
    row_eq(&m, 0, x);
    sl_vec r;
    cr_assert_eq(sl_base_vec_alloc(&r, 3, "t", &e), 0);
    sl_io_steps_row(&m, 1, &r);
    cr_expect_eq(r.d[2], 0.1, "text keeps strtod's 0.1: %.17g", r.d[2]);
    cr_expect_eq(r.f[2], 0.1f);
    cr_expect(strstr(r.source, "step 1"), "%s", r.source);
    sl_base_vec_free(&r);
    sl_io_steps_free(&m);
}

Test(replay_io, steps_refusals)
{
    const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float bad[6] = {1, 2, 3, -INFINITY, -INFINITY, -INFINITY};
    const float nan[6] = {1, NAN, 3, 4, 5, 6};
    size_t len;
    sl_io_steps m;
    sl_error e;
    unsigned char *b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2), }", x, sizeof x, &len);
    cr_expect_neq(sl_io_steps_read_npy("a.npy", b, len, 0, &m, &e), 0);
    cr_expect(strstr(e.msg, "a.npy: a 3-D array"), "%s", e.msg);
    free(b);
    b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2 3), }", x, 24, &len);
    cr_expect_neq(sl_io_steps_read_npy("a.npy", b, len, 0, &m, &e), 0);
    cr_expect(strstr(e.msg, "malformed tuple"), "%s", e.msg);
    free(b);
    b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8), }", x, 32, &len);
    sl_vec v;
    cr_expect_neq(sl_io_vec_read_npy("a.npy", b, len, &v, &e), 0, "(8) is an int, not a tuple");
    free(b);
    b = st("F32", "[2,2,2]", x, sizeof x, &len);
    cr_expect_neq(sl_io_steps_read_safetensors("a.safetensors", b, len, NULL, 0, &m, &e), 0);
    cr_expect(strstr(e.msg, "2-D [T, V]"), "%s", e.msg);
    free(b);
    const char *ragged = "1 2 3\n4 5\n";
    cr_expect_neq(sl_io_steps_read_text("r.txt", ragged, strlen(ragged), &m, &e), 0);
    cr_expect(strstr(e.msg, "r.txt: line 2 (step 1) has 2 numbers"), "%s", e.msg);
    cr_expect_neq(sl_io_steps_read_text("r.txt", "# none\n\n", 8, &m, &e), 0);
    cr_expect(strstr(e.msg, "no steps"), "%s", e.msg);
    const char *word = "1 2 3\n4 x 6\n";
    cr_expect_neq(sl_io_steps_read_text("w.txt", word, strlen(word), &m, &e), 0);
    cr_expect(strstr(e.msg, "w.txt: line 2, entry 1: 'x'"), "%s", e.msg);

    /* NaN and all -inf rows through the file reader (the checks sit there) */
    b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", bad, sizeof bad, &len);
    char *p = sl_test_tmpfile(".npy", b, len);
    cr_expect_neq(sl_io_steps_read(p, NULL, &m, &e), 0);
    cr_expect(strstr(e.msg, "step 1 is all -inf"), "%s", e.msg);
    unlink(p);
    free(p);
    free(b);
    b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", nan, sizeof nan, &len);
    p = sl_test_tmpfile(".npy", b, len);
    cr_expect_neq(sl_io_steps_read(p, NULL, &m, &e), 0);
    cr_expect(strstr(e.msg, "step 0, entry 1 is NaN"), "%s", e.msg);
    unlink(p);
    free(p);
    free(b);
}
