/* util.c — option parsing and error output shared by the subcommands. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

int sl_cli_parse_size(const char *cmd, const char *opt, const char *text, size_t *out)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-' || *text == '+') {
        fprintf(stderr, "samplab %s: %s takes a non-negative integer, not '%s'\n", cmd, opt, text);
        return 2;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno == ERANGE || v > SIZE_MAX) {
        fprintf(stderr, "samplab %s: %s takes a non-negative integer, not '%s'\n", cmd, opt, text);
        return 2;
    }
    *out = (size_t)v;
    return 0;
}

int sl_cli_parse_long(const char *cmd, const char *opt, const char *text, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (!*text || *end || errno == ERANGE) {
        fprintf(stderr, "samplab %s: %s takes an integer, not '%s'\n", cmd, opt, text);
        return 2;
    }
    *out = v;
    return 0;
}

int sl_cli_parse_double(const char *cmd, const char *opt, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!*text || *end || isnan(v)) {
        fprintf(stderr, "samplab %s: %s takes a number, not '%s'\n", cmd, opt, text);
        return 2;
    }
    *out = v;
    return 0;
}

const char *sl_cli_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "samplab %s: %s needs a value\n", cmd, argv[*i]);
        return NULL;
    }
    /* "--probs --method cdf" forgot the value: say so, rather than read "--method" as a
     * file name and complain about "cdf". A lone "-" (stdin) or "-1,2" stays a value. */
    const char *v = argv[*i + 1];
    if (v[0] == '-' && v[1] == '-' && v[2] != '\0') {
        fprintf(stderr, "samplab %s: %s needs a value, not the option '%s'\n", cmd, argv[*i], v);
        return NULL;
    }
    return argv[++*i];
}

int sl_cli_fail(const sl_error *err)
{
    fprintf(stderr, "samplab: %s\n", err->msg);
    return 2;
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
