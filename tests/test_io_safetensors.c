/* test_io_safetensors.c — the .safetensors reader (io/safetensors.c) against
 * files written by the format's rules (analysis/golden/make_safetensors.py,
 * values read back by torch into data/golden/safetensors/values.txt), against
 * upstream's own byte-exact test vectors (huggingface/safetensors
 * safetensors/src/tensor.rs test_serialization, test_empty), and on malformed
 * files: each must fail with SL_EINVAL and one line naming the file and the
 * rule, never crash (the test build runs under ASan and UBSan). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

#define DIR "data/golden/safetensors/"

/* A file image: 8-byte length, the header padded with spaces to a multiple
 * of 8 (as save_file pads), then `dlen` data bytes. */
static unsigned char *mk(const char *header, const void *data, size_t dlen, size_t *len)
{
    size_t h = strlen(header), hp = (h + 7) / 8 * 8;
    unsigned char *b = malloc(8 + hp + dlen + 1);
    cr_assert_not_null(b);
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)hp >> (8 * i));
    memcpy(b + 8, header, h);
    memset(b + 8 + h, ' ', hp - h);
    if (dlen)
        memcpy(b + 8 + hp, data, dlen);
    *len = 8 + hp + dlen;
    return b;
}

/* Reads and expects failure with `want` in the message, which must begin
 * with the file name and be one line. */
static void expect_fail(const unsigned char *b, size_t len, const char *tensor, long row, const char *want)
{
    sl_vec v;
    sl_error err;
    memset(&err, 0, sizeof err);
    int rc = sl_io_vec_read_safetensors("bad.safetensors", b, len, tensor, row, &v, &err);
    cr_assert_eq(rc, SL_EINVAL, "expected SL_EINVAL for '%s', got %d (%s)", want, rc, rc ? err.msg : "read ok");
    cr_assert(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
    cr_assert(!strncmp(err.msg, "bad.safetensors: ", 17), "message '%s' does not start with the file name", err.msg);
    cr_assert(!strchr(err.msg, '\n'), "message '%s' is not one line", err.msg);
}

static void expect_fail_hdr(const char *header, const void *data, size_t dlen, const char *tensor, long row,
                            const char *want)
{
    size_t len;
    unsigned char *b = mk(header, data, dlen, &len);
    expect_fail(b, len, tensor, row, want);
    free(b);
}

static int slurp(const char *path, unsigned char **buf, size_t *len)
{
    sl_error err;
    int rc = sl_io_file_slurp(path, buf, len, &err);
    cr_assert_eq(rc, 0, "%s", err.msg);
    return rc;
}

/* ---------------------------------------------------------------- golden fixtures */

Test(replay_io, safetensors_fixtures_match_torch)
{
    FILE *f = fopen(DIR "values.txt", "r");
    cr_assert_not_null(f, "cannot open " DIR "values.txt");
    size_t cap = 1 << 16, checked_rows = 0, checked_values = 0;
    char *line = malloc(cap);
    int seen[4] = {0, 0, 0, 0}; /* F32 F64 F16 BF16 */
    while (fgets(line, (int)cap, f)) {
        if (line[0] == '#')
            continue;
        char *save = NULL;
        char *file = strtok_r(line, "\t", &save), *tensor = strtok_r(NULL, "\t", &save);
        long row = strtol(strtok_r(NULL, "\t", &save), NULL, 10);
        char *dtype = strtok_r(NULL, "\t", &save);
        size_t n = strtoul(strtok_r(NULL, "\t", &save), NULL, 10);
        char *vals = strtok_r(NULL, "\n", &save);
        cr_assert(vals, "malformed values.txt line for %s %s", file, tensor);
        int is64 = !strcmp(dtype, "F64");
        seen[is64 ? 1 : !strcmp(dtype, "F32") ? 0 : !strcmp(dtype, "F16") ? 2 : 3]++;

        char path[512];
        snprintf(path, sizeof path, DIR "%s", file);
        sl_vec v;
        sl_error err;
        int rc = sl_io_vec_read(path, tensor, row, &v, &err);
        cr_assert_eq(rc, 0, "%s %s row %ld: %s", file, tensor, row, err.msg);
        cr_assert_eq(v.n, n, "%s %s row %ld: %zu entries, expected %zu", file, tensor, row, v.n, n);
        cr_assert_eq(v.dtype, is64 ? SL_F64 : SL_F32, "%s %s: dtype %d", file, tensor, (int)v.dtype);
        char *p = vals;
        for (size_t i = 0; i < n; i++) {
            char *end;
            if (is64) {
                double want = strtod(p, &end);
                cr_assert(end != p, "%s %s: value %zu unparsable", file, tensor, i);
                float wantf = (float)want;
                if (isnan(want)) {
                    cr_assert(isnan(v.d[i]) && isnan(v.f[i]), "%s %s row %ld entry %zu: %.17g, expected nan", file,
                              tensor, row, i, v.d[i]);
                } else {
                    cr_assert(memcmp(&v.d[i], &want, sizeof want) == 0,
                              "%s %s row %ld entry %zu: d = %.17g, expected %.17g", file, tensor, row, i, v.d[i], want);
                    cr_assert(memcmp(&v.f[i], &wantf, sizeof wantf) == 0,
                              "%s %s row %ld entry %zu: f = %.9g, expected %.9g", file, tensor, row, i, v.f[i], wantf);
                }
            } else {
                float want = strtof(p, &end);
                cr_assert(end != p, "%s %s: value %zu unparsable", file, tensor, i);
                double wantd = (double)want;
                if (isnan(want)) {
                    cr_assert(isnan(v.d[i]) && isnan(v.f[i]), "%s %s row %ld entry %zu: %.9g, expected nan", file,
                              tensor, row, i, v.f[i]);
                } else {
                    cr_assert(memcmp(&v.f[i], &want, sizeof want) == 0,
                              "%s %s row %ld entry %zu: f = %.9g, expected %.9g", file, tensor, row, i, v.f[i], want);
                    cr_assert(memcmp(&v.d[i], &wantd, sizeof wantd) == 0,
                              "%s %s row %ld entry %zu: d = %.17g, expected %.17g", file, tensor, row, i, v.d[i], wantd);
                }
            }
            p = end;
            checked_values++;
        }
        sl_base_vec_free(&v);
        checked_rows++;
    }
    free(line);
    fclose(f);
    cr_assert_geq(checked_rows, 20, "only %zu rows checked", checked_rows);
    cr_assert(seen[0] && seen[1] && seen[2] && seen[3], "dtypes seen F32 %d F64 %d F16 %d BF16 %d", seen[0], seen[1],
              seen[2], seen[3]);
    cr_log_info("safetensors fixtures: %zu rows, %zu values bit-exact against torch", checked_rows, checked_values);
}

Test(replay_io, safetensors_defaults_and_sources)
{
    sl_vec v;
    sl_error err;
    /* the only tensor, 1-D: no --tensor, no --row */
    cr_assert_eq(sl_io_vec_read(DIR "single.safetensors", NULL, -1, &v, &err), 0, "%s", err.msg);
    cr_assert_eq(v.n, 48);
    cr_assert_str_eq(v.source, DIR "single.safetensors");
    sl_base_vec_free(&v);
    /* [1, V]: the only row is the default */
    cr_assert_eq(sl_io_vec_read(DIR "row1.safetensors", NULL, -1, &v, &err), 0, "%s", err.msg);
    cr_assert_eq(v.n, 48);
    cr_assert_str_eq(v.source, DIR "row1.safetensors:scores[0]");
    sl_base_vec_free(&v);
    /* a 1-D tensor takes row 0 too */
    cr_assert_eq(sl_io_vec_read(DIR "single.safetensors", "logits", 0, &v, &err), 0, "%s", err.msg);
    cr_assert_str_eq(v.source, DIR "single.safetensors:logits");
    sl_base_vec_free(&v);
    /* 3-D [3, 2, V]: rows flattened in C order, row 3 = [1][1] = rows_f32 row 1 */
    sl_vec w;
    cr_assert_eq(sl_io_vec_read(DIR "multi.safetensors", "steps", 3, &v, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_io_vec_read(DIR "multi.safetensors", "rows_f32", 1, &w, &err), 0, "%s", err.msg);
    cr_assert_eq(v.n, w.n);
    cr_assert(!memcmp(v.f, w.f, v.n * sizeof *v.f), "steps row 3 differs from rows_f32 row 1");
    sl_base_vec_free(&v);
    sl_base_vec_free(&w);
}

Test(replay_io, safetensors_selection_errors)
{
    unsigned char *b;
    size_t len;
    slurp(DIR "multi.safetensors", &b, &len);
    expect_fail(b, len, NULL, -1, "choose one with --tensor (it has: ids, logits_f64");
    expect_fail(b, len, "nope", -1, "no tensor \"nope\" (it has: ids,");
    expect_fail(b, len, "rows_f32", -1, "tensor \"rows_f32\" has shape [3,48], 3 rows: choose one with --row (0 to 2)");
    expect_fail(b, len, "rows_f32", 3, "row 3 is out of range: tensor \"rows_f32\" has shape [3,48], rows 0 to 2");
    expect_fail(b, len, "logits_f32", 1, "row 1 is out of range");
    expect_fail(b, len, "ids", -1, "tensor \"ids\" has dtype I64; samplab reads F32, F64, F16 and BF16");
    free(b);
}

/* ---------------------------------------------------------------- upstream vectors */

Test(replay_io, safetensors_upstream_test_vectors)
{
    /* tensor.rs test_serialization: "attn.0" F32 shape [1,2,3] holding 0..5 */
    static const unsigned char ser[] = {
        64, 0, 0, 0, 0, 0, 0, 0, 123, 34, 97, 116, 116, 110, 46, 48, 34, 58, 123, 34, 100,
        116, 121, 112, 101, 34, 58, 34, 70, 51, 50, 34, 44, 34, 115, 104, 97, 112, 101, 34,
        58, 91, 49, 44, 50, 44, 51, 93, 44, 34, 100, 97, 116, 97, 95, 111, 102, 102, 115,
        101, 116, 115, 34, 58, 91, 48, 44, 50, 52, 93, 125, 125, 0, 0, 0, 0, 0, 0, 128, 63,
        0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64, 0, 0, 160, 64};
    sl_vec v;
    sl_error err;
    for (long r = 0; r < 2; r++) {
        cr_assert_eq(sl_io_vec_read_safetensors("ser", ser, sizeof ser, NULL, r, &v, &err), 0, "%s", err.msg);
        cr_assert_eq(v.n, 3);
        for (size_t i = 0; i < 3; i++)
            cr_assert_eq(v.f[i], (float)(3 * r + (long)i), "row %ld entry %zu: %.9g", r, i, v.f[i]);
        sl_base_vec_free(&v);
    }
    /* the same bytes one short, one long */
    expect_fail(ser, sizeof ser - 1, "attn.0", 0, "run past the 23 data bytes");
    unsigned char longer[sizeof ser + 1];
    memcpy(longer, ser, sizeof ser);
    longer[sizeof ser] = 0;
    expect_fail(longer, sizeof longer, "attn.0", 0, "tensors end at data byte 24 but the file has 25 data bytes");
    /* test_empty: no tensors at all, with and without metadata */
    static const unsigned char empty[] = {8, 0, 0, 0, 0, 0, 0, 0, 123, 125, 32, 32, 32, 32, 32, 32};
    expect_fail(empty, sizeof empty, NULL, -1, "holds no tensors");
    static const char meta[] = "\x28\0\0\0\0\0\0\0{\"__metadata__\":{\"framework\":\"pt\"}}     ";
    expect_fail((const unsigned char *)meta, sizeof meta - 1, NULL, -1, "holds no tensors");
}

Test(replay_io, safetensors_half_conversions)
{
    /* every one of the 65536 half and bfloat16 patterns against the formula
     * value = (-1)^s * 2^(e-bias) * (1.m) computed in double by ldexp */
    for (uint32_t h = 0; h < 65536; h++) {
        unsigned s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
        float got = sl_io_f16_to_f32((uint16_t)h);
        if (e == 31) {
            cr_assert(m ? isnan(got) : isinf(got), "f16 %#x -> %.9g", h, got);
        } else {
            double want = e ? ldexp(1024 + m, (int)e - 25) : ldexp(m, -24);
            if (s)
                want = -want;
            cr_assert_eq((double)got, want, "f16 %#x -> %.9g, expected %.17g", h, got, want);
            cr_assert_eq(!!signbit(got), s, "f16 %#x sign", h);
        }
        float bg = sl_io_bf16_to_f32((uint16_t)h);
        uint32_t bits;
        memcpy(&bits, &bg, sizeof bits);
        cr_assert_eq(bits, h << 16, "bf16 %#x -> bits %#x", h, bits);
    }
}

/* ---------------------------------------------------------------- malformed files */

Test(replay_io, safetensors_malformed_headers)
{
    float d3[3] = {1, 2, 3};
    size_t len;
    /* shorter than the length field */
    expect_fail((const unsigned char *)"\x08\0\0", 3, NULL, -1, "3 bytes, too short for the 8-byte header length");
    /* huge header lengths: over upstream's limit, and within it but past the file */
    unsigned char huge[16] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, '{', '}'};
    expect_fail(huge, sizeof huge, NULL, -1, "header length 18446744073709551615 (bytes 0-7) is over the 100000000");
    unsigned char big[16] = {0x00, 0xe1, 0xf5, 0x05, 0, 0, 0, 0, '{', '}'}; /* 100000000: allowed, but past the end */
    expect_fail(big, sizeof big, NULL, -1, "header length 100000000 (bytes 0-7) runs past the end of the file (16 bytes)");
    unsigned char *b = mk("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}", d3, sizeof d3, &len);
    b[0] = (unsigned char)(len - 7); /* one byte longer than the file */
    expect_fail(b, len, NULL, -1, "runs past the end of the file");
    free(b);
    /* JSON */
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",", d3, sizeof d3, NULL, -1, "header is not valid JSON at byte");
    expect_fail_hdr("[1,2]", d3, sizeof d3, NULL, -1, "header is JSON but an array, not an object");
    /* __metadata__ is null or a map of strings (safetensors' Option<HashMap<String, String>>) */
    expect_fail_hdr("{\"__metadata__\":{\"a\":1},\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}", d3,
                    sizeof d3, NULL, -1, "header entry \"__metadata__\" maps \"a\" to an integer; its values are strings");
    expect_fail_hdr("{\"__metadata__\":[\"a\"],\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}", d3,
                    sizeof d3, NULL, -1, "header entry \"__metadata__\" is an array, not a map of strings");
    expect_fail_hdr("{\"__metadata__\":{\"a\":{\"dtype\":\"F32\"}},\"a\":{\"dtype\":\"F32\",\"shape\":[3],"
                    "\"data_offsets\":[0,12]}}", d3, sizeof d3, NULL, -1, "maps \"a\" to an object");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]},"
                    "\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}",
                    d3, sizeof d3, NULL, -1, "duplicate");
    expect_fail_hdr("{\"\xff\xfe\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}", d3, sizeof d3, NULL, -1,
                    "not valid JSON");
    /* NUL padding instead of spaces */
    b = mk("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}", d3, sizeof d3, &len);
    b[8 + 54] = '\0';
    expect_fail(b, len, NULL, -1, "not valid JSON");
    free(b);
    /* entries */
    expect_fail_hdr("{\"a\":1}", NULL, 0, NULL, -1, "header entry \"a\" is not an object");
    expect_fail_hdr("{\"a\":{\"shape\":[3],\"data_offsets\":[0,12]}}", d3, 12, NULL, -1, "entry \"a\" lacks \"dtype\"");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,12]}}", d3, 12, NULL, -1, "lacks \"shape\"");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[3]}}", d3, 12, NULL, -1, "lacks \"data_offsets\"");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F128\",\"shape\":[3],\"data_offsets\":[0,12]}}", d3, 12, NULL, -1,
                    "header entry \"a\" has unknown dtype \"F128\"");
    expect_fail_hdr("{\"a\":{\"dtype\":32,\"shape\":[3],\"data_offsets\":[0,12]}}", d3, 12, NULL, -1,
                    "dtype that is not a string");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[-3],\"data_offsets\":[0,12]}}", d3, 12, NULL, -1,
                    "shape entry 0 that is not a non-negative integer");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[3.0],\"data_offsets\":[0,12]}}", d3, 12, NULL, -1,
                    "shape entry 0 that is not a non-negative integer");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":3,\"data_offsets\":[0,12]}}", d3, 12, NULL, -1,
                    "shape that is not an array");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12,1]}}", d3, 12, NULL, -1,
                    "data_offsets that are not two non-negative integers");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,99999999999999999999]}}", d3, 12, NULL,
                    -1, "not valid JSON"); /* beyond 2^63: jansson refuses the integer */
    /* a control character in a name is shown as '?' so the message stays one line */
    expect_fail_hdr("{\"a\\nb\":{\"dtype\":\"F128\",\"shape\":[3],\"data_offsets\":[0,12]}}", d3, 12, NULL, -1,
                    "header entry \"a\\x0ab\" has unknown dtype");
}

Test(replay_io, safetensors_malformed_offsets)
{
    float d4[4] = {1, 2, 3, 4};
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,400]}}", d4, 12, NULL, -1,
                    "tensor \"a\" data_offsets [0,400] run past the 12 data bytes in the file");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,12]}}", d4, 12, NULL, -1,
                    "tensor \"a\" has 12 data bytes but shape [4] of F32 needs 16");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F64\",\"shape\":[2],\"data_offsets\":[0,12]}}", d4, 12, NULL, -1,
                    "shape [2] of F64 needs 16");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[12,0]}}", d4, 12, NULL, -1,
                    "data_offsets [12,0] that end before they begin");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                    "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                    d4, 12, "a", -1, "tensor \"b\" data_offsets [4,12] overlap the tensor before it (ends at 8)");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", d4, 12, NULL, -1,
                    "tensor \"a\" data_offsets [4,12] leave a gap after byte 0 of the data");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", d4, 12, NULL, -1,
                    "tensors end at data byte 8 but the file has 12 data bytes (trailing bytes)");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,16]}}", d4, 16,
                    NULL, -1, "shape [4294967296,4294967296] overflows 64 bits");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,1]}}", d4, 1, NULL, -1,
                    "needs 1 and a part byte");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]}}", d4, 4, NULL, -1,
                    "tensor \"a\" is a scalar (shape []), not a vector");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}", NULL, 0, NULL, -1,
                    "tensor \"a\" has shape [0]: no entries");
    expect_fail_hdr("{\"a\":{\"dtype\":\"F32\",\"shape\":[0,3],\"data_offsets\":[0,0]}}", NULL, 0, NULL, -1,
                    "has shape [0,3]: no entries");
    /* out of order in the header but tiling the buffer once sorted: accepted, as upstream does */
    size_t len;
    unsigned char *b = mk("{\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]},"
                          "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
                          d4, 16, &len);
    sl_vec v;
    sl_error err;
    cr_assert_eq(sl_io_vec_read_safetensors("ok", b, len, "b", -1, &v, &err), 0, "%s", err.msg);
    cr_assert(v.f[0] == 3 && v.f[1] == 4, "b = %g %g", v.f[0], v.f[1]);
    sl_base_vec_free(&v);
    /* metadata of any shape is ignored */
    free(b);
    b = mk("{\"__metadata__\":{\"format\":\"pt\"},\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}", d4, 16,
           &len);
    cr_assert_eq(sl_io_vec_read_safetensors("ok", b, len, NULL, -1, &v, &err), 0, "%s", err.msg);
    sl_base_vec_free(&v);
    free(b);
}

/* Every truncation of a real file, and every single-byte corruption of a
 * small one, is either read or refused with a message: never a crash. */
Test(replay_io, safetensors_truncations_and_bitflips)
{
    unsigned char *b;
    size_t len;
    slurp(DIR "multi.safetensors", &b, &len);
    size_t refused = 0;
    for (size_t cut = 0; cut < len; cut += (cut < 1024 ? 1 : 61)) {
        unsigned char *c = malloc(cut ? cut : 1);
        memcpy(c, b, cut);
        sl_vec v;
        sl_error err;
        int rc = sl_io_vec_read_safetensors("cut", c, cut, "logits_f32", -1, &v, &err);
        cr_assert_eq(rc, SL_EINVAL, "a file cut at %zu of %zu bytes was read", cut, len);
        refused++;
        free(c);
    }
    free(b);
    slurp(DIR "single.safetensors", &b, &len);
    size_t read_ok = 0;
    for (size_t i = 0; i < len; i++)
        for (unsigned bit = 0; bit < 8; bit++) {
            b[i] ^= (unsigned char)(1u << bit);
            sl_vec v;
            sl_error err;
            int rc = sl_io_vec_read_safetensors("flip", b, len, NULL, -1, &v, &err);
            cr_assert(rc == 0 || rc == SL_EINVAL, "byte %zu bit %u: rc %d", i, bit, rc);
            if (rc == 0) {
                read_ok++;
                sl_base_vec_free(&v);
            }
            b[i] ^= (unsigned char)(1u << bit);
        }
    free(b);
    cr_log_info("safetensors: %zu truncations refused; %zu of the bit flips still read (data bytes)", refused, read_ok);
}

/* The file analysis/dump_logits.py --synthetic writes, read as a user would:
 * several tensors with metadata, 1-D and 2-D, F32 and BF16. */
Test(replay_io, safetensors_dump_logits_synthetic)
{
    const char *p = DIR "synthetic.safetensors";
    sl_vec lg, bf, k40, st;
    sl_error err;
    cr_assert_eq(sl_io_vec_read(p, "logits", -1, &lg, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_io_vec_read(p, "logits_bf16", -1, &bf, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_io_vec_read(p, "t07k40", -1, &k40, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_io_vec_read(p, "steps", 3, &st, &err), 0, "%s", err.msg);
    cr_assert_eq(lg.n, 256);
    cr_assert_eq(st.n, 256);
    cr_assert_str_eq(st.source, DIR "synthetic.safetensors:steps[3]");
    size_t kept = 0;
    for (size_t i = 0; i < k40.n; i++)
        kept += isfinite(k40.f[i]) != 0;
    cr_assert_eq(kept, 40, "t07k40 keeps %zu finite entries, expected 40", kept);
    /* bfloat16 is float32 rounded to nearest even on the top 16 bits (torch's .to(bfloat16)) */
    for (size_t i = 0; i < lg.n; i++) {
        uint32_t u;
        memcpy(&u, &lg.f[i], sizeof u);
        uint32_t r = (u + 0x7fffu + ((u >> 16) & 1)) & 0xffff0000u;
        float want;
        memcpy(&want, &r, sizeof want);
        cr_assert_eq(bf.f[i], want, "entry %zu: bf16 %.9g, expected %.9g from %.9g", i, bf.f[i], want, lg.f[i]);
    }
    sl_base_vec_free(&lg);
    sl_base_vec_free(&bf);
    sl_base_vec_free(&k40);
    sl_base_vec_free(&st);
    unsigned char *b;
    size_t len;
    slurp(p, &b, &len);
    expect_fail(b, len, NULL, -1, "5 tensors, choose one with --tensor (it has: logits, steps, t07, t07k40, logits_bf16)");
    free(b);
}

/* ---------------------------------------------------------------- the command line */

#include "helpers.h"

static void cli_bad(const char *args, const char *want)
{
    sl_test_run r = sl_test_cli(args);
    cr_expect_eq(r.status, 2, "%s: exit %d, expected 2", args, r.status);
    cr_expect_str_empty(r.out, "%s: stdout not empty: %s", args, r.out);
    cr_expect_eq(sl_test_lines(r.err), 1, "%s: stderr should be one line: %s", args, r.err);
    cr_expect(strstr(r.err, want) != NULL, "%s: stderr '%s' lacks '%s'", args, r.err, want);
    sl_test_run_free(&r);
}

Test(replay_io, safetensors_cli_as_a_user)
{
    sl_test_run r = sl_test_cli("draw --method greedy --logits " DIR "synthetic.safetensors --tensor steps --row 2");
    cr_assert_eq(r.status, 0, "%s", r.err);
    sl_test_run_free(&r);
    cli_bad("draw --method cdf --logits " DIR "synthetic.safetensors", "choose one with --tensor (it has: logits,");
    cli_bad("draw --method cdf --logits " DIR "synthetic.safetensors --tensor steps", "choose one with --row (0 to 3)");
    cli_bad("draw --method cdf --logits " DIR "synthetic.safetensors --tensor steps --row 4", "row 4 is out of range");
    cli_bad("draw --method cdf --logits " DIR "multi.safetensors --tensor ids", "has dtype I64");
    /* a truncated dump, a header length far beyond the file, a text file by the wrong name */
    unsigned char *b;
    size_t len;
    slurp(DIR "single.safetensors", &b, &len);
    char *cut = sl_test_tmpfile(".safetensors", (const char *)b, 200);
    free(b);
    char *huge = sl_test_tmpfile(".safetensors", "\x00\x00\x00\x00\x00\x10\x00\x00{}", 10);
    char *text = sl_test_tmpfile(".safetensors", "3,2,2,1\n", 8);
    cr_assert(cut && huge && text);
    char args[512];
    snprintf(args, sizeof args, "draw --method cdf --logits %s", cut);
    cli_bad(args, "tensor \"logits\" data_offsets [0,192] run past the 128 data bytes in the file");
    snprintf(args, sizeof args, "draw --method cdf --logits %s", huge);
    cli_bad(args, "header length 17592186044416 (bytes 0-7) is over the 100000000");
    snprintf(args, sizeof args, "draw --method cdf --probs %s", text);
    cli_bad(args, "not a .safetensors file?");
    unlink(cut);
    unlink(huge);
    unlink(text);
    free(cut);
    free(huge);
    free(text);
}

/* The dump's two views of one step agree: samplab's hf pipeline on the raw
 * logits (T = 0.7, top-k 40) prints the same distribution, byte for byte, as
 * on the scores torch processed (t07k40 = logits / 0.7, then
 * TopKLogitsWarper's -inf mask, written by dump_logits.py --synthetic). */
Test(replay_io, safetensors_dump_scores_match_pipeline)
{
    sl_test_run a = sl_test_cli("pipeline --framework hf --logits " DIR "synthetic.safetensors --tensor logits"
                                " --temperature 0.7 --top-k 40");
    sl_test_run b = sl_test_cli("pipeline --framework hf --logits " DIR "synthetic.safetensors --tensor t07k40");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_assert_eq(sl_test_lines(a.out), 40, "kept %zu tokens, expected 40", sl_test_lines(a.out));
    cr_assert_str_eq(a.out, b.out, "pipeline on logits:\n%s\non torch's scores:\n%s", a.out, b.out);
    sl_test_run_free(&a);
    sl_test_run_free(&b);
}
