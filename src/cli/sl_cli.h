/* sl_cli.h — what the subcommands share: the command table entry and option helpers.
 * Only cli/ prints and exits; the library layers return statuses. */
#ifndef SL_CLI_H
#define SL_CLI_H

#include "report/sl_report.h"

typedef struct sl_cli_command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv);
} sl_cli_command;

int sl_cli_draw_main(int argc, char **argv);
int sl_cli_rng_main(int argc, char **argv);
int sl_cli_pipeline_main(int argc, char **argv);
int sl_cli_compare_main(int argc, char **argv);
int sl_cli_gof_main(int argc, char **argv);
int sl_cli_power_main(int argc, char **argv);
int sl_cli_calibrate_main(int argc, char **argv);
int sl_cli_bench_main(int argc, char **argv);
int sl_cli_report_main(int argc, char **argv);
int sl_cli_exact_main(int argc, char **argv);

/* Option parsing helpers: each prints "samplab CMD: ..." and returns 2 on error. */
int sl_cli_parse_size(const char *cmd, const char *opt, const char *text, size_t *out);
int sl_cli_parse_long(const char *cmd, const char *opt, const char *text, long *out);
int sl_cli_parse_double(const char *cmd, const char *opt, const char *text, double *out);
/* Returns argv[*i+1] and advances *i, or prints "OPT needs a value" and returns NULL. */
const char *sl_cli_value(const char *cmd, int argc, char **argv, int *i);
/* --seed and --stream as the user typed them (NULL if absent) into *out, with
 * samplab's default seed 42; prints the error and returns 2 when malformed. */
int sl_cli_seed(const char *seed_text, const char *stream_text, sl_seed *out);
/* Prints "samplab: <msg>" to stderr and returns 2. */
int sl_cli_fail(const sl_error *err);

/* The logits settings `samplab pipeline` and `samplab compare` share (cli/pipeline.c). */
typedef struct sl_cli_logits_args {
    const char *src, *tensor, *context_src;
    long row;
    int json;
    unsigned given;          /* SL_OPT_* bits the user gave */
    sl_logits_cfg cfg;
    sl_vec vec;
    int loaded;
    long *context;
} sl_cli_logits_args;
/* Consumes argv[*i] (and its value) if it is a settings option: 1 consumed,
 * 0 not a settings option, -1 error (already printed). */
int sl_cli_logits_opt(const char *cmd, int argc, char **argv, int *i, sl_cli_logits_args *a);
/* Reads the logits and the context; prints the error and returns 2 on failure. */
int sl_cli_logits_load(const char *cmd, sl_cli_logits_args *a);
void sl_cli_logits_free(sl_cli_logits_args *a);
/* The first option name in `given` that `accepts` lacks, or NULL. */
const char *sl_cli_logits_missing(unsigned given, unsigned accepts);
extern const char sl_cli_logits_settings_help[];
/* The reference distribution of gof / power / calibrate (statref.c). */
typedef struct sl_cli_ref_opts {
    const char *probs, *logits, *tensor;
    long row;                 /* -1 unless --row */
    int has_temperature;
    double temperature;
} sl_cli_ref_opts;

typedef struct sl_cli_ref {
    double *p;                /* V probabilities summing to 1 */
    size_t v, support;
    double weight_sum;        /* --probs: the sum the weights were divided by */
    double temperature;       /* --logits */
    int from_logits;
    char source[256];
} sl_cli_ref;

/* Consumes --probs/--logits/--temperature/--tensor/--row at argv[*i]: returns 1
 * if it was one of them (then *status is 2 on a bad value), else 0. */
int sl_cli_ref_option(int argc, char **argv, int *i, const char *cmd, sl_cli_ref_opts *o, int *status);
int sl_cli_ref_load(const sl_cli_ref_opts *o, sl_cli_ref *ref, sl_error *err);
void sl_cli_ref_free(sl_cli_ref *ref);
/* Draws n tokens from p with method dt over generator rt, into counts[V] (zeroed first). */
int sl_cli_draw_counts(const double *p, size_t V, const sl_draw_type *dt, const sl_rng_type *rt,
                       const sl_seed *seed, uint64_t n, uint64_t *counts, sl_error *err);

#endif
