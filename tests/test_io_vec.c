/* test_io_vec.c — the vector readers (io/vec.c over io/source.c's resolver and
 * io/npy.c's tensor view) on hand-made inputs, no golden file: text with comments
 * and commas, float32 correctly rounded by strtof (not through a double), inline
 * lists, .npy float32/float64 with the header read as a literal (not searched for
 * keys), the weight checks, and every malformed input, directory, device or
 * standard input refused in one message naming the source and the position. The
 * .npy header rules against NumPy's own reader: test_io_headers.c. */
#include <criterion/criterion.h>
#include <math.h>

#include "helpers.h"
#include "samplab.h"

Test(replay_io, text_with_comments_and_commas)
{
    const char *t = "# weather\n4.0, 3.3 2.9\n1.2,0.4 # inline comment\n-0.3\t-1.0\n-2.2\n";
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_io_vec_read_text("w.txt", t, strlen(t), &v, &e), 0, "%s", e.msg);
    cr_assert_eq(v.n, 8);
    cr_assert_eq(v.d[1], 3.3);
    cr_assert_eq(v.f[1], 3.3f, "float32 parsed by strtof from the text");
    cr_assert_eq(v.d[7], -2.2);
    sl_base_vec_free(&v);
}

Test(replay_io, float32_is_correctly_rounded_from_text)
{
    /* 1.00000005960464477539062500001 lies just above the midpoint between 1 and
     * 1+2^-23: strtof rounds up, (float)strtod rounds the double (1+2^-24) to even = 1. */
    const char *t = "1.00000005960464477539062500001";
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_io_vec_read_text("x", t, strlen(t), &v, &e), 0);
    cr_assert_eq(v.f[0], 1.0f + 0x1p-23f, "observed %a", (double)v.f[0]);
    cr_assert_eq((float)v.d[0], 1.0f, "double rounding would give 1");
    sl_base_vec_free(&v);
}

Test(replay_io, text_errors_name_position)
{
    sl_vec v;
    sl_error e;
    const char *t = "1 2\n3 abc 4\n";
    cr_assert_eq(sl_io_vec_read_text("p.txt", t, strlen(t), &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "p.txt: line 2, entry 3: 'abc' is not a number");
    /* an empty field between commas would shift every later token id: refused */
    t = "1, 2,\n,3\n";
    cr_assert_eq(sl_io_vec_read_text("c.txt", t, strlen(t), &v, &e), SL_EINVAL, "'2,\\n,3' accepted");
    cr_assert_str_eq(e.msg, "c.txt: line 2, entry 2 is empty (a comma with no number before it)");
    t = ",1";
    cr_assert_eq(sl_io_vec_read_text("c.txt", t, strlen(t), &v, &e), SL_EINVAL, "leading comma accepted");
    t = "1,2,\n3,\n";
    cr_assert_eq(sl_io_vec_read_text("c.txt", t, strlen(t), &v, &e), SL_OK, "trailing commas refused: %s", e.msg);
    cr_assert_eq(v.n, 3);
    sl_base_vec_free(&v);
    cr_assert_eq(sl_io_vec_read_text("e.txt", "# only\n", 7, &v, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "empty vector"), "%s", e.msg);
}

Test(replay_io, weight_checks)
{
    sl_error e;
    sl_vec v;
    const char *cases[][2] = {
        {"1 2 nan", "w: entry 2 is NaN"},       {"1 inf", "w: entry 1 is infinite"},
        {"1 -0.5", "w: entry 1 is negative (-0.5)"}, {"0 0 -0", "w: all 3 weights are zero"},
        {"1e308 1e308 0", "w: the running sum of the weights overflows at entry 1"},
    };
    for (size_t i = 0; i < 5; i++) {
        cr_assert_eq(sl_io_vec_read_text("w", cases[i][0], strlen(cases[i][0]), &v, &e), 0);
        cr_assert_eq(sl_base_vec_check_weights(&v, &e), SL_EINVAL, "%s accepted", cases[i][0]);
        cr_assert_str_eq(e.msg, cases[i][1]);
        sl_base_vec_free(&v);
    }
}

static size_t npy_bytes(unsigned char *buf, const char *descr, const char *shape, const void *data, size_t dlen)
{
    char hdr[128];
    int hl = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
    size_t total = 10 + (size_t)hl + 1;
    size_t pad = (64 - total % 64) % 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    size_t H = (size_t)hl + pad + 1;
    buf[8] = (unsigned char)(H & 0xff);
    buf[9] = (unsigned char)(H >> 8);
    memcpy(buf + 10, hdr, (size_t)hl);
    memset(buf + 10 + hl, ' ', pad);
    buf[10 + hl + pad] = '\n';
    memcpy(buf + 10 + H, data, dlen);
    return 10 + H + dlen;
}

Test(replay_io, npy_float32_and_float64)
{
    unsigned char buf[512];
    float f[3] = {0.5f, 0.25f, 0.1f};
    double d[2] = {0.1, 1e-300};
    sl_vec v;
    sl_error e;
    size_t n = npy_bytes(buf, "<f4", "(3,)", f, sizeof f);
    cr_assert_eq(sl_io_vec_read_npy("a.npy", buf, n, &v, &e), 0, "%s", e.msg);
    cr_assert_eq(v.n, 3);
    cr_assert_eq(v.dtype, SL_F32);
    cr_assert_eq(v.f[2], 0.1f);
    cr_assert_eq(v.d[2], (double)0.1f, "float32 widened exactly");
    sl_base_vec_free(&v);
    n = npy_bytes(buf, "<f8", "(2,)", d, sizeof d);
    cr_assert_eq(sl_io_vec_read_npy("b.npy", buf, n, &v, &e), 0, "%s", e.msg);
    cr_assert_eq(v.dtype, SL_F64);
    cr_assert_eq(v.d[1], 1e-300);
    sl_base_vec_free(&v);
}

Test(replay_io, npy_malformed)
{
    unsigned char buf[512];
    float f[3] = {0.5f, 0.25f, 0.1f};
    sl_vec v;
    sl_error e;
    size_t n = npy_bytes(buf, "<f4", "(3,)", f, sizeof f);
    cr_assert_eq(sl_io_vec_read_npy("t.npy", buf, n - 1, &v, &e), SL_EINVAL, "truncated data accepted");
    cr_assert(strstr(e.msg, "needs 12 data bytes, the file has 11"), "%s", e.msg);
    n = npy_bytes(buf, ">f4", "(3,)", f, sizeof f);
    cr_assert_eq(sl_io_vec_read_npy("b.npy", buf, n, &v, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "little-endian"), "%s", e.msg);
    n = npy_bytes(buf, "<f4", "(3, 1)", f, sizeof f);
    cr_assert_eq(sl_io_vec_read_npy("s.npy", buf, n, &v, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "1-D"), "%s", e.msg);
    /* a header dict without its closing brace is refused, not read by key search */
    n = npy_bytes(buf, "<f4", "(3,)", f, sizeof f);
    unsigned char *brace = memchr(buf, '}', n);
    cr_assert_not_null(brace);
    *brace = ' ';
    cr_assert_eq(sl_io_vec_read_npy("u.npy", buf, n, &v, &e), SL_EINVAL, "header without '}' accepted");
    cr_assert(strstr(e.msg, "the header dict has no closing '}'"), "%s", e.msg);
    cr_assert_eq(sl_io_vec_read_npy("m.npy", (const unsigned char *)"hello world", 11, &v, &e), SL_EINVAL);
    buf[8] = 0xff;
    buf[9] = 0xff;
    cr_assert_eq(sl_io_vec_read_npy("h.npy", buf, 100, &v, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "runs past the end"), "%s", e.msg);
}

/* A version-1.0 file of the header text h and data. */
static size_t npy_raw(unsigned char *buf, const char *h, const void *data, size_t dlen)
{
    size_t hl = strlen(h);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hl & 0xff);
    buf[9] = (unsigned char)(hl >> 8);
    memcpy(buf + 10, h, hl);
    memcpy(buf + 10 + hl, data, dlen);
    return 10 + hl + dlen;
}

Test(replay_io, npy_header_is_a_literal_not_a_key_search)
{
    unsigned char buf[512];
    const double d[4] = {1, 2, 3, 4};
    sl_vec v;
    sl_error e;
    /* double-quoted keys and a comment that spells other single-quoted ones: searching for
     * 'descr': found '<f4' and (8,) and read 8 float32 values out of 4 doubles */
    size_t n = npy_raw(buf, "{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (4,)} # 'descr': '<f4', "
                            "'fortran_order': False, 'shape': (8,)\n", d, sizeof d);
    cr_assert_eq(sl_io_vec_read_npy("c.npy", buf, n, &v, &e), 0, "%s", e.msg);
    cr_expect_eq(v.n, 4);
    cr_expect_eq(v.dtype, SL_F64);
    cr_expect_eq(v.d[3], 4.0);
    sl_base_vec_free(&v);
    /* Python's literal forms NumPy reads: concatenation, escapes, bases, parentheses */
    n = npy_raw(buf, "({'de' 'scr': '\\x3cf8', u'fortran_order': (False), 'shape': (0x4 ,),})", d, sizeof d);
    cr_assert_eq(sl_io_vec_read_npy("l.npy", buf, n, &v, &e), 0, "%s", e.msg);
    cr_expect_eq(v.n, 4);
    sl_base_vec_free(&v);
    static const struct { const char *h; const char *want; } bad[] = {
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), 'x': 1}", "byte 66: key 'x' in the .npy header"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), 'descr': '<f8'}", "key 'descr' appears twice"},
        {"{'descr': '<f8', 'fortran_order': False}", "lacks 'shape'"},
        {"{'descr': '<f8', 'fortran_order': 0, 'shape': (4,)}", "fortran_order is an integer"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4)}", "malformed shape: an integer, not a tuple"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (True,)}", "entry 0 is True"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (-4,)}", "shape entry 0 is negative"},
        {"{'descr': 'f8\\x00', 'fortran_order': False, 'shape': (4,)}", "dtype 'f8\\x00'"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,)}\n x", "an indented line"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,)}x", "bytes after the header dict"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,)}\v", "bytes after the header dict"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (04,)}", "leading zero"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = npy_raw(buf, bad[i].h, d, sizeof d);
        cr_expect_eq(sl_io_vec_read_npy("b.npy", buf, n, &v, &e), SL_EINVAL, "accepted: %s", bad[i].h);
        cr_expect(strstr(e.msg, bad[i].want), "%s: '%s' lacks '%s'", bad[i].h, e.msg, bad[i].want);
    }
    /* the NUL padding NumPy refuses, and the version bytes */
    n = npy_raw(buf, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,)}  ", d, sizeof d);
    buf[10 + 56] = '\0';
    cr_expect_eq(sl_io_vec_read_npy("z.npy", buf, n, &v, &e), SL_EINVAL);
    cr_expect(strstr(e.msg, "z.npy: byte 66: a NUL byte in the .npy header"), "%s", e.msg);
    n = npy_raw(buf, "{'descr': '<f8', 'fortran_order': False, 'shape': (4,)}", d, sizeof d);
    buf[7] = 1;
    cr_expect_eq(sl_io_vec_read_npy("m.npy", buf, n, &v, &e), SL_EINVAL);
    cr_expect(strstr(e.msg, "m.npy: byte 6: .npy format version 1.1"), "%s", e.msg);
}

Test(replay_io, inline_and_file_dispatch)
{
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_io_vec_read("3,2,2,1", NULL, -1, &v, &e), 0, "%s", e.msg);
    cr_assert_eq(v.n, 4);
    cr_assert_str_eq(v.source, "inline");
    sl_base_vec_free(&v);
    /* an inline list with a typo names the entry, not a missing file */
    cr_assert_eq(sl_io_vec_read("3,2,x", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "inline: line 1, entry 2: 'x' is not a number");
    cr_assert_eq(sl_io_vec_read("3,,2", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "inline: line 1, entry 1 is empty (a comma with no number before it)");
    /* given by an option: named by it, no "line 1" in a one-line list; the source stays "inline" */
    cr_assert_eq(sl_io_vec_read_as("3,2,x", "--probs", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "--probs: entry 2: 'x' is not a number");
    cr_assert_eq(sl_io_vec_read_as("3,,2", "--context", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "--context: entry 1 is empty (a comma with no number before it)");
    cr_assert_eq(sl_io_vec_read_as("3,2\nx", "--probs", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "--probs: line 2, entry 2: 'x' is not a number");
    cr_assert_eq(sl_io_vec_read_as("3,2", "--probs", "t", -1, &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "--probs: --tensor and --row apply to .safetensors files only");
    cr_assert_eq(sl_io_vec_read_as("3,2", "--probs", NULL, -1, &v, &e), 0, "%s", e.msg);
    cr_assert_str_eq(v.source, "inline");
    sl_base_vec_free(&v);
    sl_io_steps m;
    cr_assert_eq(sl_io_steps_read_as("3,x", "--logits", NULL, &m, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "--logits: entry 1: 'x' is not a number");
    cr_assert_eq(sl_io_steps_read("3,x", NULL, &m, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "inline: line 1, entry 1: 'x' is not a number");
    cr_assert_eq(sl_io_steps_read_as("3,2", "--logits", NULL, &m, &e), 0, "%s", e.msg);
    cr_assert_str_eq(m.source, "inline");
    cr_assert_eq(m.t, 1);
    sl_io_steps_free(&m);
    /* a directory, a device, standard input: each named, none read */
    cr_assert_eq(sl_io_vec_read("tests", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert_str_eq(e.msg, "tests: a directory, not a file");
    cr_assert_eq(sl_io_vec_read("/dev/zero", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "/dev/zero: a device, not a file"), "%s", e.msg);
    cr_assert_eq(sl_io_vec_read("-", NULL, -1, &v, &e), SL_EINVAL);
    cr_assert(strstr(e.msg, "-: standard input is not read"), "%s", e.msg);
    cr_assert_neq(sl_io_vec_read("no/such/file.txt", NULL, -1, &v, &e), 0);
    cr_assert(strstr(e.msg, "no/such/file.txt: cannot open"), "%s", e.msg);
    char *p = sl_test_tmpfile(".txt", "1\n2\n", 4);
    cr_assert_eq(sl_io_vec_read(p, NULL, -1, &v, &e), 0);
    cr_assert_eq(v.n, 2);
    sl_base_vec_free(&v);
    cr_assert_neq(sl_io_vec_read(p, "logits", -1, &v, &e), 0, "--tensor on a text file accepted");
    unlink(p);
    free(p);
}

/* An empty CSV field must not vanish: "1,,2" read as [1, 2] would move token 2
 * to id 1 and every draw after it. A trailing comma at a line end stays fine. */
Test(replay_io, empty_field_between_commas_is_an_error)
{
    sl_vec v;
    sl_error e;
    const char *bad[][2] = {
        {"1,,2", "c.txt: line 1, entry 1 is empty (a comma with no number before it)"},
        {"0.5, ,0.5", "c.txt: line 1, entry 1 is empty (a comma with no number before it)"},
        {",1,2", "c.txt: line 1, entry 0 is empty (a comma with no number before it)"},
        {"1,2\n3,\t,4\n", "c.txt: line 2, entry 3 is empty (a comma with no number before it)"},
    };
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(sl_io_vec_read_text("c.txt", bad[i][0], strlen(bad[i][0]), &v, &e), SL_EINVAL, "'%s' accepted",
                     bad[i][0]);
        cr_assert_str_eq(e.msg, bad[i][1]);
    }
    const char *ok = "0.25,\n0.75, # note, with commas\n1 , 2,3\n";
    cr_assert_eq(sl_io_vec_read_text("c.txt", ok, strlen(ok), &v, &e), 0, "%s", e.msg);
    cr_assert_eq(v.n, 5, "read %zu entries", v.n);
    cr_assert_eq(v.d[4], 3.0);
    sl_base_vec_free(&v);
}
