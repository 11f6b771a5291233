/* test_io_markdown.c — the Markdown table writer and the gnuplot script
 * writer (io/markdown.c, io/gnuplot.c), against bytes written out here: a small
 * table (padding, alignment, '|' escaped, a header padded by its UTF-8 display
 * width), and a figure's .gp naming its own .dat, both terminals (PNG, SVG), its
 * quoted title and log axis, beside the .dat it wrote. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "samplab.h"

Test(io_markdown, table_bytes)
{
    sl_buf b;
    sl_io_buf_init(&b);
    const char *head[3] = {"name", "n", "note"};
    const char *cells[6] = {"pcg32", "42", "a|b", "mt19937", "7", NULL};
    sl_io_md_table(&b, 3, head, "lrl", 2, cells);
    /* Columns are at least 3 wide, so every separator has "---". */
    const char *want = "| name    |   n | note |\n"
                       "|---------|----:|------|\n"
                       "| pcg32   |  42 | a\\|b |\n"
                       "| mt19937 |   7 |      |\n";
    cr_assert_str_eq(b.data, want, "got:\n%s\nwant:\n%s", b.data, want);
    sl_io_buf_free(&b);
}

Test(io_markdown, rows_utf8_width)
{
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 1);
    sl_io_md_rows_cell(&t, "%d", 12345);
    sl_buf b;
    sl_io_buf_init(&b);
    const char *head[1] = {"X²"};
    sl_io_md_rows_emit(&b, &t, head, "r");
    /* "X²" is 2 columns wide, so the header pads to the 5-digit cell. */
    cr_assert_str_eq(b.data, "|    X² |\n|------:|\n| 12345 |\n", "got:\n%s", b.data);
    sl_io_md_rows_free(&t);
    sl_io_buf_free(&b);
}

Test(io_gnuplot, script_names_its_data)
{
    char dir[] = "/tmp/samplab-gp-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    sl_plot p = {.name = "fig", .title = "a \"quoted\" title", .xlabel = "x (tokens)", .ylabel = "y",
                 .logy = 1, .body = "plot @DAT@ using 1:2 with lines title 'top_k'\n", .dat = "1 2\n2 4\n"};
    sl_error err;
    cr_assert_eq(sl_io_plot_write(dir, &p, &err), 0, "%s", err.msg);
    char path[256];
    snprintf(path, sizeof path, "%s/fig.gp", dir);
    unsigned char *gp = NULL;
    size_t len = 0;
    cr_assert_eq(sl_io_file_slurp(path, &gp, &len, &err), 0, "%s", err.msg);
    const char *s = (const char *)gp;
    cr_assert_not_null(strstr(s, "plot 'fig.dat' using 1:2"), "data placeholder not replaced:\n%s", s);
    cr_assert_not_null(strstr(s, "set terminal pngcairo"), "no PNG terminal");
    cr_assert_not_null(strstr(s, "set terminal svg"), "no SVG terminal");
    cr_assert_not_null(strstr(s, "set title \"a \\\"quoted\\\" title\" noenhanced"), "title not quoted:\n%s", s);
    cr_assert_not_null(strstr(s, "set logscale y"), "log axis missing");
    free(gp);
    snprintf(path, sizeof path, "%s/fig.dat", dir);
    unsigned char *dat = NULL;
    cr_assert_eq(sl_io_file_slurp(path, &dat, &len, &err), 0, "%s", err.msg);
    cr_assert_eq(len, 8u);
    free(dat);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
