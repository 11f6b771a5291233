/* cli.h — what the subcommands share: the command table entry and option helpers.
 * Only cli/ prints and exits; the library layers return statuses. */
#ifndef SL_CLI_H
#define SL_CLI_H

#include "samplab.h"

typedef struct sl_cli_command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv);
} sl_cli_command;

int sl_cli_draw_main(int argc, char **argv);
int sl_cli_rng_main(int argc, char **argv);
int sl_cli_bench_main(int argc, char **argv);

/* Option parsing helpers: each prints "samplab CMD: ..." and returns 2 on error. */
int sl_cli_parse_size(const char *cmd, const char *opt, const char *text, size_t *out);
int sl_cli_parse_long(const char *cmd, const char *opt, const char *text, long *out);
int sl_cli_parse_double(const char *cmd, const char *opt, const char *text, double *out);
/* Returns argv[*i+1] and advances *i, or prints "OPT needs a value" and returns NULL. */
const char *sl_cli_value(const char *cmd, int argc, char **argv, int *i);
/* Prints "samplab: <msg>" to stderr and returns 2. */
int sl_cli_fail(const sl_error *err);

/* Writes `data` to `path` through a temporary file renamed into place, so a
 * failure never leaves a half-written output. */
int sl_cli_write_atomic(const char *path, const char *data, size_t len, sl_error *err);

#endif
