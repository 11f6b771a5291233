/* esc.c — the one escaping function every message uses: bytes from a file or
 * an argument become printable ASCII, so a message stays one line whatever
 * it quotes (a NUL, a newline, a terminal escape, a byte-order mark). */
#include <string.h>

#include "base/sl_base.h"

const char *sl_base_esc(const void *s, size_t len, char *buf, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = s;
    size_t k = 0;
    if (cap == 0)
        return buf;
    if (cap < 8) { /* too small for one \xNN and "...": nothing quoted */
        buf[0] = '\0';
        return buf;
    }
    for (size_t i = 0; i < len; i++) {
        int plain = p[i] >= 0x20 && p[i] < 0x7f;
        /* room for this byte (4 at most) and, if more follow, "..." and the NUL */
        if (k + (plain ? 1 : 4) + (i + 1 < len ? 4 : 1) > cap) {
            memcpy(buf + k, "...", 4);
            return buf;
        }
        if (plain) {
            buf[k++] = (char)p[i];
        } else {
            buf[k++] = '\\';
            buf[k++] = 'x';
            buf[k++] = hex[p[i] >> 4];
            buf[k++] = hex[p[i] & 15];
        }
    }
    buf[k] = '\0';
    return buf;
}

const char *sl_base_esc_str(const char *s, char *buf, size_t cap)
{
    return sl_base_esc(s, s ? strlen(s) : 0, buf, cap);
}
