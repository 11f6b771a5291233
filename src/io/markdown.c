/* markdown.c — GitHub-flavoured Markdown tables for the report. Columns are
 * padded to equal width so the raw file is readable too (as pandoc's pipe
 * tables allow); a '|' inside a cell is escaped as "\|". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/sl_io.h"

/* Display width: counts UTF-8 code points, not bytes, so "×" pads right. */
static size_t md_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w += 1 + (*s == '|');
    return w;
}

static void md_cell(sl_buf *b, const char *s, size_t width, char align)
{
    size_t w = md_width(s), pad = width > w ? width - w : 0;
    size_t left = align == 'r' ? pad : align == 'c' ? pad / 2 : 0;
    for (size_t i = 0; i < left; i++)
        sl_io_buf_puts(b, " ");
    for (const char *p = s; *p; p++) {
        if (*p == '|')
            sl_io_buf_puts(b, "\\|");
        else
            sl_io_buf_append(b, p, 1);
    }
    for (size_t i = 0; i < pad - left; i++)
        sl_io_buf_puts(b, " ");
}

void sl_io_md_table(sl_buf *b, size_t ncol, const char *const *head, const char *align,
                    size_t nrow, const char *const *cells)
{
    size_t *width = calloc(ncol ? ncol : 1, sizeof *width);
    if (!width) {
        b->oom = 1;
        return;
    }
    for (size_t c = 0; c < ncol; c++) {
        width[c] = md_width(head[c]);
        if (width[c] < 3)
            width[c] = 3;
        for (size_t r = 0; r < nrow; r++) {
            const char *s = cells[r * ncol + c] ? cells[r * ncol + c] : "";
            size_t w = md_width(s);
            if (w > width[c])
                width[c] = w;
        }
    }
    for (size_t c = 0; c < ncol; c++) {
        sl_io_buf_puts(b, "| ");
        md_cell(b, head[c], width[c], align ? align[c] : 'l');
        sl_io_buf_puts(b, " ");
    }
    sl_io_buf_puts(b, "|\n");
    for (size_t c = 0; c < ncol; c++) {
        char a = align ? align[c] : 'l';
        sl_io_buf_puts(b, "|");
        sl_io_buf_puts(b, a == 'c' ? ":" : "-");
        for (size_t i = 0; i < width[c]; i++)
            sl_io_buf_puts(b, "-");
        sl_io_buf_puts(b, a == 'r' || a == 'c' ? ":" : "-");
    }
    sl_io_buf_puts(b, "|\n");
    for (size_t r = 0; r < nrow; r++) {
        for (size_t c = 0; c < ncol; c++) {
            const char *s = cells[r * ncol + c] ? cells[r * ncol + c] : "";
            sl_io_buf_puts(b, "| ");
            md_cell(b, s, width[c], align ? align[c] : 'l');
            sl_io_buf_puts(b, " ");
        }
        sl_io_buf_puts(b, "|\n");
    }
    free(width);
}

void sl_io_md_rows_init(sl_io_md_rows *t, size_t ncol)
{
    t->ncol = ncol;
    t->n = t->cap = 0;
    t->cells = NULL;
    t->oom = 0;
}

void sl_io_md_rows_cell(sl_io_md_rows *t, const char *fmt, ...)
{
    if (t->oom)
        return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **c = realloc(t->cells, cap * sizeof *c);
        if (!c) {
            t->oom = 1;
            return;
        }
        t->cells = c;
        t->cap = cap;
    }
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s) {
        t->oom = 1;
        va_end(ap2);
        return;
    }
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    t->cells[t->n++] = s;
}

void sl_io_md_rows_emit(sl_buf *b, const sl_io_md_rows *t, const char *const *head, const char *align)
{
    if (t->oom) {
        b->oom = 1;
        return;
    }
    size_t nrow = t->ncol ? t->n / t->ncol : 0;
    sl_io_md_table(b, t->ncol, head, align, nrow, (const char *const *)t->cells);
}

void sl_io_md_rows_free(sl_io_md_rows *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->cells[i]);
    free(t->cells);
    sl_io_md_rows_init(t, t->ncol);
}
