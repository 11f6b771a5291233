/* js_number.c — the decimal string JavaScript gives a number (ECMAScript 2024
 * Number::toString(x, 10), section 6.1.6.1.20): the shortest digits that read
 * back as x, written plainly for exponents up to 21 and as "d.ddde+N" beyond.
 * seedrandom's alea hashes seed.toString() (TensorFlow.js's tf.multinomial seeds it
 * so), so a seed's string decides the draws. The digits come from a correctly
 * rounded printf at 1, 2, ... 17 significant digits, the first that reads back
 * (the spec's shortest n, and of those the closest to x). Checked against
 * Node's Number(BigInt(s)).toString() in data/golden/js/tfjs_multinomial.txt. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sl_base.h"

size_t sl_base_js_number_string(double x, char *buf, size_t n)
{
    char out[64];
    size_t k = 0;
    if (isnan(x))
        return (size_t)snprintf(buf, n, "NaN");
    if (x == 0)
        return (size_t)snprintf(buf, n, "0"); /* -0 too */
    if (x < 0) {
        out[k++] = '-';
        x = -x;
    }
    if (isinf(x))
        return (size_t)snprintf(buf, n, "%sInfinity", k ? "-" : "");
    char e[40], digits[24];
    int p = 1;
    for (; p < 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, x);
        if (strtod(e, NULL) == x)
            break;
    }
    snprintf(e, sizeof e, "%.*e", p - 1, x);
    /* e is "d.ddde[+-]XX": the digits s (k digits) and the exponent n - 1 */
    size_t nd = 0;
    char *q = e;
    for (; *q && *q != 'e'; q++)
        if (*q != '.')
            digits[nd++] = *q;
    while (nd > 1 && digits[nd - 1] == '0') /* %.*e may pad: k is the count without trailing zeros */
        nd--;
    digits[nd] = '\0';
    int ex = atoi(q + 1) + 1; /* the spec's n: x = s * 10^(n - k) */
    int kd = (int)nd;
    if (kd <= ex && ex <= 21) {
        memcpy(out + k, digits, nd);
        k += nd;
        for (int i = kd; i < ex; i++)
            out[k++] = '0';
    } else if (0 < ex && ex <= 21) {
        memcpy(out + k, digits, (size_t)ex);
        k += (size_t)ex;
        out[k++] = '.';
        memcpy(out + k, digits + ex, nd - (size_t)ex);
        k += nd - (size_t)ex;
    } else if (-6 < ex && ex <= 0) {
        out[k++] = '0';
        out[k++] = '.';
        for (int i = 0; i < -ex; i++)
            out[k++] = '0';
        memcpy(out + k, digits, nd);
        k += nd;
    } else {
        out[k++] = digits[0];
        if (nd > 1) {
            out[k++] = '.';
            memcpy(out + k, digits + 1, nd - 1);
            k += nd - 1;
        }
        k += (size_t)snprintf(out + k, sizeof out - k, "e%c%d", ex - 1 < 0 ? '-' : '+', abs(ex - 1));
    }
    out[k] = '\0';
    return (size_t)snprintf(buf, n, "%s", out);
}
