/* util.c — seeds and errors shared by the subcommands. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sl_cli.h"

int sl_cli_errf(const char *fmt, ...)
{
    char msg[2048], e[2 * SL_CLI_ESC_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1;
    if (len && msg[len - 1] == '\n') /* the format's own line end; any other newline is escaped */
        len--;
    fprintf(stderr, "%s\n", sl_base_esc(msg, len, e, sizeof e));
    return 2;
}

int sl_cli_fail(const sl_error *err)
{
    /* a message may quote the user's bytes (a file name, a field): one printable line */
    return sl_cli_errf("samplab: %s", err->msg);
}

int sl_cli_fail_in(const char *source, const sl_error *err)
{
    return sl_cli_errf("samplab: %s: %s", source, err->msg);
}

int sl_cli_seed(const char *seed_text, const char *stream_text, sl_seed *out)
{
    sl_error err;
    memset(out, 0, sizeof *out);
    out->lo = 42; /* samplab's default seed */
    if (seed_text && sl_base_seed_parse(seed_text, out, &err))
        return sl_cli_fail(&err);
    if (stream_text) {
        if (sl_base_seed_parse_stream(stream_text, &out->stream, &err))
            return sl_cli_fail(&err);
        out->has_stream = 1;
    }
    return 0;
}

int sl_cli_cpu(const char *cmd, const char *text, int *cpu)
{
    char e[SL_CLI_ESC_MAX];
    *cpu = SL_CPU_AUTO;
    if (!text)
        return 0;
    if (!strcmp(text, "avx2"))
        *cpu = SL_CPU_AVX2;
    else if (!strcmp(text, "avx512"))
        *cpu = SL_CPU_AVX512;
    else {
        sl_cli_errf("samplab %s: --cpu takes avx2 or avx512, not '%s'\n", cmd, sl_cli_esc(text, e, sizeof e));
        return 2;
    }
    return 0;
}

int sl_cli_json_emit(struct json_t *root)
{
    char *s = json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!s)
        return 2;
    fputs(s, stdout);
    fputc('\n', stdout);
    free(s);
    return 0;
}
