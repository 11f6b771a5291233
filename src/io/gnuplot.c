/* gnuplot.c — a small gnuplot driver: each figure is NAME.dat (data),
 * NAME.gp (a self-contained script) and the PNG (pngcairo) and SVG that
 * gnuplot 5.4 makes from them. The script takes an optional `outstem`
 * variable so the driver can render to temporary names and rename them into
 * place; run by hand (`gnuplot NAME.gp`) it writes NAME.png and NAME.svg.
 * Titles, axis labels and the key are `noenhanced` so names such as top_k
 * print as typed (enhanced text would make '_' a subscript); the terminal
 * stays enhanced so log-axis tics read 10^3. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/sl_io.h"

/* A gnuplot double-quoted string literal. */
static void gp_quote(sl_buf *b, const char *s)
{
    sl_io_buf_puts(b, "\"");
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            sl_io_buf_puts(b, "\\");
        sl_io_buf_append(b, s, 1);
    }
    sl_io_buf_puts(b, "\"");
}

/* Appends `body` with every "@DAT@" replaced by 'NAME.dat'. */
static void gp_body(sl_buf *b, const char *body, const char *name)
{
    const char *p = body;
    for (;;) {
        const char *q = strstr(p, "@DAT@");
        if (!q) {
            sl_io_buf_puts(b, p);
            break;
        }
        sl_io_buf_append(b, p, (size_t)(q - p));
        sl_io_buf_printf(b, "'%s.dat'", name);
        p = q + 5;
    }
    if (b->len && b->data[b->len - 1] != '\n')
        sl_io_buf_puts(b, "\n");
}

int sl_io_plot_write(const char *dir, const sl_plot *p, sl_error *err)
{
    if (p->oom)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory building the figure's script or data", p->name);
    char path[4096];
    int w = p->width ? p->width : 1000, h = p->height ? p->height : 620;
    sl_buf gp;
    sl_io_buf_init(&gp);
    sl_io_buf_printf(&gp, "# %s.gp: gnuplot 5.4 script written by samplab report.\n"
                       "# In this directory, `gnuplot %s.gp` remakes %s.png and %s.svg from %s.dat.\n",
                  p->name, p->name, p->name, p->name, p->name);
    sl_io_buf_printf(&gp, "if (!exists(\"outstem\")) outstem = \"%s\"\n", p->name);
    sl_io_buf_puts(&gp, "set encoding utf8\nset title ");
    gp_quote(&gp, p->title);
    sl_io_buf_puts(&gp, " noenhanced\nset xlabel ");
    gp_quote(&gp, p->xlabel);
    sl_io_buf_puts(&gp, " noenhanced\nset ylabel ");
    gp_quote(&gp, p->ylabel);
    sl_io_buf_puts(&gp, " noenhanced\nset grid back lc rgb '#dddddd'\n");
    sl_io_buf_printf(&gp, "set key %s noenhanced\n", p->key ? p->key : "top left");
    if (p->logx)
        sl_io_buf_puts(&gp, "set logscale x\nset format x '10^{%L}'\n");
    if (p->logy)
        sl_io_buf_puts(&gp, "set logscale y\nset format y '10^{%L}'\n");
    if (p->extra)
        gp_body(&gp, p->extra, p->name);
    /* The same plot twice: once per terminal (replot cannot repeat a multiplot). */
    static const char *const term[2][2] = {
        {"pngcairo size %d,%d font 'DejaVu Sans,13' linewidth 1.5", ".png"},
        {"svg size %d,%d font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'", ".svg"}};
    for (int t = 0; t < 2; t++) {
        sl_io_buf_puts(&gp, "set terminal ");
        sl_io_buf_printf(&gp, term[t][0], w, h);
        sl_io_buf_printf(&gp, "\nset output outstem.'%s'\n", term[t][1]);
        gp_body(&gp, p->body, p->name);
        sl_io_buf_puts(&gp, "unset output\n");
    }
    if (gp.oom) {
        sl_io_buf_free(&gp);
        return sl_base_error_set(err, SL_ENOMEM, "%s.gp: out of memory", p->name);
    }
    int rc = 0;
    snprintf(path, sizeof path, "%s/%s.gp", dir, p->name);
    rc = sl_io_write_atomic(path, gp.data, gp.len, err);
    sl_io_buf_free(&gp);
    if (rc)
        return rc;
    if (!p->dat)
        return 0; /* the body reads data files written elsewhere */
    snprintf(path, sizeof path, "%s/%s.dat", dir, p->name);
    return sl_io_write_atomic(path, p->dat, strlen(p->dat), err);
}

int sl_io_plot_render(const char *dir, const char *const *names, size_t n, sl_error *err)
{
    pid_t *pid = calloc(n ? n : 1, sizeof *pid);
    if (!pid)
        return sl_base_error_set(err, SL_ENOMEM, "gnuplot: out of memory for %zu processes", n);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        pid[i] = fork();
        if (pid[i] < 0) {
            rc = sl_base_error_set(err, SL_EIO, "cannot start gnuplot for %s: %s", names[i], strerror(errno));
            break;
        }
        if (pid[i] == 0) {
            char var[1100];
            char script[1100];
            snprintf(var, sizeof var, "outstem='%s.tmp'", names[i]);
            snprintf(script, sizeof script, "%s.gp", names[i]);
            if (chdir(dir) != 0)
                _exit(126);
            dup2(2, 1); /* keep the report's stdout clean */
            execlp("gnuplot", "gnuplot", "-e", var, script, (char *)NULL);
            _exit(127);
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (pid[i] <= 0)
            continue;
        int st = 0;
        while (waitpid(pid[i], &st, 0) < 0 && errno == EINTR)
            ;
        int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
        if (!ok && !rc)
            rc = sl_base_error_set(err, SL_EIO, "%s/%s.gp: gnuplot %s", dir, names[i],
                              WIFEXITED(st) && WEXITSTATUS(st) == 127 ? "not found (install gnuplot-nox)"
                                                                      : "failed");
        for (int t = 0; ok && t < 2; t++) {
            const char *ext = t ? "svg" : "png";
            char from[4200], to[4200];
            snprintf(from, sizeof from, "%s/%s.tmp.%s", dir, names[i], ext);
            snprintf(to, sizeof to, "%s/%s.%s", dir, names[i], ext);
            if (rename(from, to) != 0 && !rc)
                rc = sl_base_error_set(err, SL_EIO, "%s: cannot rename into place: %s", to, strerror(errno));
        }
    }
    free(pid);
    return rc;
}
