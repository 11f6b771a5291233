/* sl_cli.h — what the subcommands share: the command table entry and option helpers.
 * Only cli/ prints and exits; the library layers return statuses. */
#ifndef SL_CLI_H
#define SL_CLI_H

#include <stdio.h>

#include "api/sl_api.h"
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
int sl_cli_replay_main(int argc, char **argv);
int sl_cli_check_main(int argc, char **argv);
int sl_cli_audit_main(int argc, char **argv);
int sl_cli_sweep_main(int argc, char **argv);

/* The most threads a run takes (--jobs, OMP_NUM_THREADS): libgomp sizes some of a
 * team's bookkeeping on the stack, and 100000 threads end in SIGSEGV (env.c). */
#define SL_CLI_MAX_THREADS 256
#define SL_CLI_MAX_THREADS_TEXT "256"
/* The OpenMP settings of envp (OMP_*, GOMP_*) as libgomp would read them: 0, or 2
 * with msg[0..n) the one line that refuses the first bad one by name (env.c). Uses
 * no stdio, so it can run before libc's and libgomp's constructors. */
int sl_cli_env_check(char *const *envp, char *msg, size_t n);
/* The end of a command: stdout flushed; a write error (a full disk, a closed
 * stdout, a reader gone with SIGPIPE ignored) is one line and status 2 unless
 * the command said a closed pipe is its normal end (sl_cli_stdout_pipe_ends). */
int sl_cli_finish(int rc);
/* rng --binary: a battery that closes its pipe has read enough (exit 0, quiet). */
void sl_cli_stdout_pipe_ends(void);
/* Whether a write to stdout has failed (the reader gone, the disk full): long
 * output loops stop on it (draw, rng), as on Ctrl-C. */
int sl_cli_stdout_broken(void);

/* --seed and --stream as the user typed them (NULL if absent) into *out, with
 * samplab's default seed 42; prints the error and returns 2 when malformed. */
int sl_cli_seed(const char *seed_text, const char *stream_text, const char *rng, sl_seed *out); /* rng: its generator, which may take a JavaScript number */
/* Prints s (malloc'd JSON, as the api builds it) on one stdout line and frees
 * it; 2 for NULL (out of memory). */
int sl_cli_emit(char *s);
/* Prints a jansson object compactly on one stdout line and frees it; 2 if it cannot be dumped. */
struct json_t;
int sl_cli_json_emit(struct json_t *root);
/* Prints "samplab: <msg>" (escaped) to stderr and returns 2. */
int sl_cli_fail(const sl_error *err);
/* The same as "samplab: <source>: <msg>". */
int sl_cli_fail_in(const char *source, const sl_error *err);

/* Progress and Ctrl-C for long runs (util.c). Between begin and end, SIGINT
 * sets a flag instead of killing the process (a second Ctrl-C kills it; a
 * process started with SIGINT ignored keeps ignoring it), and tick, called
 * every so often with what is done, returns nonzero once the flag is set, so
 * the loop stops, frees what it holds and the command prints one line
 * ("interrupted after ...") and exits with SL_CLI_EXIT_INTERRUPTED. When
 * stderr is a terminal, tick also rewrites one progress line there (after the
 * first second, twice a second); end erases it. Nothing goes to stdout. */
#define SL_CLI_EXIT_INTERRUPTED 130 /* 128 + SIGINT, the shell's convention */
typedef struct sl_cli_progress {
    const char *cmd, *unit;    /* "gof", "draws" */
    double start, last;
    int shown;
    sl_progress p;             /* what a library loop takes: tick = sl_cli_progress_tick, ctx = this */
    sl_progress quiet;         /* the same without the line: tick = the Ctrl-C check alone */
} sl_cli_progress;
void sl_cli_progress_begin(sl_cli_progress *pr, const char *cmd, const char *unit);
int sl_cli_progress_tick(void *ctx, uint64_t done, uint64_t total);
void sl_cli_progress_end(sl_cli_progress *pr);
int sl_cli_interrupted(void);
/* Prints "samplab CMD: interrupted after DONE UNIT (Ctrl-C); WHAT" and returns SL_CLI_EXIT_INTERRUPTED. */
int sl_cli_interrupt_exit(const char *cmd, uint64_t done, const char *unit, const char *what);


/* One option as parsed: given, where (argv index), its text and its number. */
typedef struct sl_cli_arg {
    int given, pos;
    const char *text;   /* NULL for a flag */
    size_t size;        /* SL_API_SIZE */
    long l;             /* SL_API_LONG, SL_API_INDEX */
    double d;           /* SL_API_DOUBLE */
    size_t n_list;      /* SL_API_LIST: each use's text, in order */
    const char *list[SL_API_LIST_MAX];
} sl_cli_arg;

typedef struct sl_cli_parsed {
    const sl_api_cmd *spec;
    int help;           /* --help or -h was given (parsing stopped there) */
    sl_cli_arg a[SL_API_OPT_COUNT];
} sl_cli_parsed;

/* Parses argv[1..] for subcommand cmd. -1: go on with p filled in; else the
 * exit status: 0 after printing help(stdout) for --help or -h, 2 after
 * printing the one line that says what is wrong: an option given twice, one
 * cmd does not take, an unknown word, a missing value, a malformed number. */
int sl_cli_parse(const char *cmd, int argc, char **argv, void (*help)(FILE *), sl_cli_parsed *p);
/* A parsed command line filled in without argv (a sweep's points): init for
 * command cmd (2 if there is none), then each option word ("--top-k") with its
 * value text (NULL for a flag) through the parser's own checks, in order: 0, or
 * 2 with msg[0..n) the line the command line prints for that word. */
int sl_cli_parsed_init(sl_cli_parsed *p, const char *cmd);
int sl_cli_parsed_set(sl_cli_parsed *p, const char *word, const char *text, char *msg, size_t n);
/* The first given option (table order) of `groups` whose SL_OPT_* bit is not
 * in `accepts`, or SL_API_OPT_NONE. */
sl_api_opt sl_cli_refused(const sl_cli_parsed *p, unsigned groups, unsigned accepts);
/* Every option name carrying `bit`, joined by '/', into buf. */
const char *sl_cli_bit_names(unsigned bit, char *buf, size_t n);
/* Prints "samplab CMD: OPT is not an option of WHAT NAME" (NAME escaped); returns 2. */
int sl_cli_not_an_option(const char *cmd, const char *opt, const char *what, const char *name);
/* The option list of s, generated from the table, under `title`. */
void sl_cli_help_options(FILE *f, const sl_api_cmd *s, const char *title);
/* `s` escaped for a one-line message (base's sl_base_esc_str: bytes below 0x20
 * and from 0x7f on as \xNN, cut with "..." to fit n). Returns buf. */
#define SL_CLI_ESC_MAX 1024
#define sl_cli_esc(s, buf, n) sl_base_esc_str((s), (buf), (n))
/* Formats one message and prints it to stderr as one printable line: every
 * byte below 0x20 or from 0x7f on (a newline in an argument, a terminal
 * escape) goes through sl_base_esc; the line ends in one newline; a long one
 * keeps its head and its tail. Returns 2. */
int sl_cli_errf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The framework's remark on these settings (its type's note hook), as
 * "samplab CMD: note: ..." on stderr; nothing when it has none. */
void sl_cli_fw_note(const char *cmd, const sl_api_settings *s);
/* The line sl_cli_errf prints for msg (without its newline) into out[0..n). */
void sl_cli_err_line(const char *msg, char *out, size_t n);
/* Whether text is a value option o takes, as the command line reads it (a number
 * in range for a numeric option; any text otherwise): 0, or 2 with why[0..n) the
 * command's words ("--n takes a non-negative integer, not 'abc'"). */
int sl_cli_value_check(sl_api_opt o, const char *text, char *why, size_t n);

/* The logits settings `samplab pipeline` and `samplab compare` share (cli/pipeline.c). */
typedef struct sl_cli_logits_args {
    const char *src, *tensor, *context_src, *cpu_text;
    long row;
    int json;
    sl_logits_cfg cfg;
    sl_vec vec;
    int loaded;
    long *context;
} sl_cli_logits_args;
/* The settings of a parsed command line (a fresh sl_cli_logits_args). */
/* Reads the settings options into a (--cpu as text: sl_cli_logits_load parses it). */
void sl_cli_logits_from(const sl_cli_parsed *p, sl_cli_logits_args *a);
/* Reads the logits and the context of p (api's sl_api_logits_input: --cpu and
 * the penalty's --context checked there); prints the error and returns 2 on failure. */
int sl_cli_logits_load(const char *cmd, const sl_cli_parsed *p, sl_cli_logits_args *a);
void sl_cli_logits_free(sl_cli_logits_args *a);
/* The settings of a parsed command line as the library calls take them
 * (api/settings.c): each option given into its field (its text where the
 * field is text). The calls check the values; cli/ only reads argv. */
void sl_cli_settings_from(const sl_cli_parsed *p, sl_api_settings *s);
/* The source a command reads: --probs or --logits (spec NULL for neither or
 * both, which the calls refuse with the command's line), --tensor, --row. */
sl_api_src sl_cli_src_from(const sl_cli_parsed *p);
/* sl_cli_parse, then (when it says go on, -1) the settings and the source of
 * the command line: what a command passes to its sl_api_*_run. */
int sl_cli_parse_call(const char *cmd, int argc, char **argv, void (*help)(FILE *), sl_cli_parsed *p,
                      sl_api_settings *s, sl_api_src *src);
/* Prints the library's one-line message (api: "samplab CMD: ..." or
 * "samplab: ...") and returns 2. */
int sl_cli_api_fail(const sl_error *err);

/* --probs/--logits/--temperature/--tensor/--row of a parsed command line. */
void sl_cli_ref_from(const sl_cli_parsed *p, sl_api_ref_opts *o);


/* `samplab sweep` (sweep*.c): a study spec expanded into grid points, each
 * point one in-process library call whose --json object is kept. */
#define SL_CLI_SWEEP_MAX_POINTS 100000000
struct json_t;
typedef struct sl_cli_sweep_study {
    char name[128];
    const char *job;              /* draw, gof, replay, check, calibrate, power, exact */
    struct json_t *obj, *inputs, *axis, *settings, *seeds, *options; /* borrowed from the root */
    const char *axis_opt;         /* "--framework", "--method" or NULL */
    size_t n_inputs, n_axis, n_combos, n_seeds;
    uint64_t seed_first;          /* seeds {"first": S, "count": K} */
    size_t first, count;          /* its points: first .. first + count - 1 */
} sl_cli_sweep_study;

typedef struct sl_cli_sweep {
    const char *path;             /* the spec file, for messages */
    char *text;                   /* its bytes (owned) */
    size_t text_len;
    struct json_t *root;
    sl_cli_sweep_study *studies;
    size_t n_studies, n_points;
    FILE *err;                    /* where messages go */
} sl_cli_sweep;

typedef struct sl_cli_sweep_point {
    const sl_cli_sweep_study *st;
    size_t index, input, axis, combo, seed;
} sl_cli_sweep_point;

/* Parses and checks sw->text; 2 after printing "FILE:LINE:COL: key K: why". */
int sl_cli_sweep_parse(sl_cli_sweep *sw);
/* Reads the spec file (at most 64 MiB) and parses it; 2 after printing why. */
int sl_cli_sweep_read(sl_cli_sweep *sw, const char *path, FILE *err);
void sl_cli_sweep_free(sl_cli_sweep *sw);
void sl_cli_sweep_point_at(const sl_cli_sweep *sw, size_t i, sl_cli_sweep_point *p);
/* A gof study over frameworks: draw --counts, then gof against the framework's own distribution. */
int sl_cli_sweep_gof_chain(const sl_cli_sweep_study *st);
/* The option a spec key names ("top_k": --top-k), SL_API_OPT_NONE if none. */
sl_api_opt sl_cli_sweep_option(const char *key);
/* The jobs a study can run, NULL-terminated; each writes <job>.jsonl. */
extern const char *const sl_cli_sweep_jobs[];
const char *sl_cli_sweep_number(double v, char *buf, size_t n);
int sl_cli_sweep_value(const struct json_t *v, char *buf, size_t n, const char **out);
/* Runs point i in this process, through the library calls in memory; returns
 * its result line (malloc'd, no newline), NULL when out of memory. */
char *sl_cli_sweep_job(const sl_cli_sweep *sw, size_t i);
/* What point i is, as its checkpoint line proves it: {"point", "study", "job", "input",
 * axis, "settings", "seed", "options"} (malloc'd JSON, NULL when out of memory). */
char *sl_cli_sweep_point_key(const sl_cli_sweep *sw, size_t i);
/* Under mpirun: 1 if this process is one rank of several (env of Open MPI / PMIx). */
int sl_cli_sweep_mpi_launched(void);
/* Why --resume did not take a checkpoint line. */
enum { SL_CLI_CKPT_UNREADABLE, SL_CLI_CKPT_VERSION, SL_CLI_CKPT_POINT, SL_CLI_CKPT_INPUT, SL_CLI_CKPT_SUM,
       SL_CLI_CKPT_WHY };
/* A run: the spec, the output folder, the records gathered so far (rank 0),
 * the points still to do, this rank's checkpoint and the progress line. */
typedef struct sl_cli_sweep_run {
    sl_cli_sweep sw;
    const char *dir;
    int resume;
    char **records;               /* n_points, NULL until the point is done */
    size_t *todo, n_todo;         /* points not in the checkpoint, in grid order */
    size_t n_resumed;             /* points taken from the checkpoint */
    int rank;
    FILE *ckpt;                   /* FLIGHT/rank-R.jsonl, appended to */
    char flight[4300];            /* this run's checkpoint, .NAME.checkpoint beside DIR */
    FILE *progress;               /* stderr when it is a terminal, else NULL */
    double t0, last;              /* seconds: start, last progress line */
    int interrupted;              /* a point stopped by Ctrl-C: not recorded */
    int write_failed;             /* the checkpoint could not be appended to (said on stderr) */
    /* --resume: lines not taken, by why (SL_CLI_CKPT_*); seen[i]: point i had a line */
    size_t n_refused[SL_CLI_CKPT_WHY];
    unsigned char *seen;
    struct sl_cli_sweep_digest *digests; /* the input files' digests, each read once */
    size_t n_digests;
    sl_io_lock lock;       /* rank 0: DIR's lock, held from setup to the end */
} sl_cli_sweep_run;
/* sweep_ckpt.c: a checkpoint line proves what it answers (the point, samplab's
 * version, its input files' SHA-256) and carries its record's checksum. */
char *sl_cli_sweep_ckpt_line(sl_cli_sweep_run *r, size_t i, const char *rec); /* malloc'd, no newline */
void sl_cli_sweep_ckpt_load(sl_cli_sweep_run *r, const char *text, size_t len); /* takes the verified */
void sl_cli_sweep_ckpt_say(const sl_cli_sweep_run *r, FILE *f); /* kept, rerun, and why: one line */
void sl_cli_sweep_ckpt_free(sl_cli_sweep_run *r);
/* sweep.c: the steps a serial run and an MPI run share. */
int sl_cli_sweep_setup(sl_cli_sweep_run *r);   /* the folder and the checkpoint (rank 0) */
int sl_cli_sweep_open_rank(sl_cli_sweep_run *r); /* this rank's checkpoint file */
char *sl_cli_sweep_do(sl_cli_sweep_run *r, size_t i); /* run, then append to the checkpoint */
void sl_cli_sweep_progress(sl_cli_sweep_run *r, size_t done, int last);
int sl_cli_sweep_finish(sl_cli_sweep_run *r);  /* the result set, swapped into DIR (rank 0) */
void sl_cli_sweep_run_free(sl_cli_sweep_run *r);
/* sweep_mpi.c: the run under mpirun; rank 0 reads the spec and hands out
 * points one at a time. Returns the exit status. */
int sl_cli_sweep_mpi(int argc, char **argv, const char *spec, const char *dir, int resume);

#endif
