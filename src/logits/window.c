/* window.c — the last N accepted tokens, oldest first: llama.cpp's
 * ring_buffer<llama_token> (src/llama-sampler.cpp) as the penalties and DRY
 * stages keep it, here a window over a growing buffer compacted when it
 * reaches the end, so a stage reads it as one array and a large N costs only
 * the tokens really accepted. */
#include <stdlib.h>
#include <string.h>

#include "logits/sl_logits.h"

int sl_logits_window_push(sl_logits_window *w, size_t limit, long token, sl_error *err)
{
    if (!limit)
        return SL_OK;
    if (w->n == limit) { /* full: the oldest leaves */
        w->start++;
        w->n--;
    }
    if (w->start + w->n == w->cap) {
        if (w->start) { /* room at the front: slide the window back */
            memmove(w->buf, w->buf + w->start, w->n * sizeof *w->buf);
            w->start = 0;
        } else {
            size_t cap = w->cap ? 2 * w->cap : 16;
            long *b = realloc(w->buf, cap * sizeof *b);
            if (!b)
                return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for %zu tokens", cap);
            w->buf = b;
            w->cap = cap;
        }
    }
    w->buf[w->start + w->n++] = token;
    return SL_OK;
}

int sl_logits_window_clone(sl_logits_window *dst, const sl_logits_window *src, sl_error *err)
{
    memset(dst, 0, sizeof *dst);
    if (!src->n)
        return SL_OK;
    if (!(dst->buf = malloc(src->n * sizeof *dst->buf)))
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for %zu tokens", src->n);
    memcpy(dst->buf, src->buf + src->start, src->n * sizeof *dst->buf);
    dst->cap = dst->n = src->n;
    return SL_OK;
}

void sl_logits_window_free(sl_logits_window *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}
