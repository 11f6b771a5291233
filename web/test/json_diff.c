/* json_diff.c — prints the same values through whichever jansson it is linked
 * with: Debian's libjansson, or the page's writer (web/jansson/json.c). `make
 * test-browser` builds it both ways and diffs the outputs: random doubles (all
 * bit patterns, NaN and infinities among them) at the CLI's precisions 9 and
 * 17 and none, random byte strings (most not UTF-8), nesting and key order. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t s = 0x9E3779B97F4A7C15u;
static uint64_t next(void)
{
    /* splitmix64 */
    uint64_t z = (s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static void emit(json_t *root, size_t flags)
{
    char *t = json_dumps(root, flags);
    printf("%s\n", t ? t : "(null)");
    free(t);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    const double fixed[] = {0.0, -0.0, 1.0, 0.1, 1e16, 1e17, 1e-5, 123456789.0, 5e-324, 1.7976931348623157e308,
                            1e21, 100.0, 0.5, 2.5e-7, 1e100, 1e-100, 3.0e-310};
    for (int p = 0; p <= 17; p += (p == 0 ? 9 : 8)) {
        json_t *a = json_array();
        for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
            json_array_append_new(a, json_real(fixed[i]));
        emit(a, JSON_COMPACT | JSON_REAL_PRECISION(p));
        json_decref(a);
    }
    for (long r = 0; r < n; r++) {
        json_t *o = json_object(), *a = json_array();
        for (int i = 0; i < 8; i++) {
            uint64_t w = next();
            double d;
            if (i & 1) {
                memcpy(&d, &w, sizeof d); /* any bit pattern */
            } else {
                float f;
                uint32_t h = (uint32_t)w;
                memcpy(&f, &h, sizeof f);
                d = i == 2 ? (double)(w >> 11) * 0x1p-53 : (double)f; /* probabilities, float32 values */
            }
            json_array_append_new(a, json_real(d));
            json_array_append_new(a, json_integer((json_int_t)next()));
        }
        char str[12], key[4] = {'k', 0, 0, 0};
        uint64_t w = next();
        for (int i = 0; i < 11; i++)
            str[i] = (char)(((w >> (5 * i)) & 0x1F) + ((r & 1) ? 0x60 : 0)); /* control bytes, or 0x60.. 0x7f */
        if (r & 2)
            for (int i = 0; i < 11; i++)
                str[i] = (char)(next() & 0xFF ? next() & 0xFF : 'a'); /* raw bytes, mostly not UTF-8 */
        str[11] = 0;
        key[1] = (char)('a' + (w >> 60));
        json_object_set_new(o, "a", a);
        json_object_set_new(o, str, json_string(str));
        json_object_set_new(o, key, json_string(str));
        json_object_set_new(o, key, json_boolean(r & 4)); /* replaced in place */
        json_object_set_new(o, "z", json_object());
        emit(o, JSON_COMPACT | JSON_REAL_PRECISION((r % 3) == 0 ? 9 : (r % 3) == 1 ? 17 : 0));
        json_decref(o);
    }
    return 0;
}
