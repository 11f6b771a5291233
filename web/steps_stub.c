/* steps_stub.c — the page's stand-ins for io/steps.c, which the browser build leaves out (it
 * maps files): the page reads single vectors, so a batch or a tensor of steps is refused with
 * one line rather than linked to nothing. */
#include <string.h>

#include "io/sl_io.h"

static int no_steps(const char *name, sl_io_steps *out, sl_error *err)
{
    if (out)
        memset(out, 0, sizeof *out);
    return sl_base_error_set(err, SL_EINVAL, "%s: a batch or tensor of steps is not read in the page (use bin/samplab)",
                             name ? name : "input");
}

int sl_io_steps_read_as(const char *path, const char *label, const char *tensor, sl_io_steps *out, sl_error *err)
{
    (void)tensor;
    return no_steps(label ? label : path, out, err);
}

int sl_io_steps_read_text(const char *name, const char *text, size_t len, sl_io_steps *out, sl_error *err)
{
    (void)text, (void)len;
    return no_steps(name, out, err);
}

int sl_io_steps_read_npy(const char *name, const unsigned char *buf, size_t len, int view, sl_io_steps *out,
                         sl_error *err)
{
    (void)buf, (void)len, (void)view;
    return no_steps(name, out, err);
}

int sl_io_batch_read_as(const char *path, const char *label, const char *tensor, sl_io_steps *out, sl_error *err)
{
    (void)tensor;
    return no_steps(label ? label : path, out, err);
}

int sl_io_batch_read_npy(const char *name, const unsigned char *buf, size_t len, int view, sl_io_steps *out,
                         sl_error *err)
{
    (void)buf, (void)len, (void)view;
    return no_steps(name, out, err);
}

int sl_io_steps_row(const sl_io_steps *m, size_t i, sl_vec *row)
{
    (void)m, (void)i, (void)row;
    return SL_EINVAL;
}

int sl_io_steps_check(const sl_io_steps *m, sl_error *err)
{
    (void)m;
    return no_steps("input", NULL, err);
}

void sl_io_steps_free(sl_io_steps *m)
{
    if (m)
        memset(m, 0, sizeof *m);
}
