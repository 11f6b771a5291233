/* sl_report.h — the report layer: `samplab report` as a library call
 * (sl_report_run), the run context its sections share, the vocabularies it
 * studies (vocab.c), the job queue (independent studies run in parallel under
 * OpenMP, each with its own generator, so results never depend on scheduling)
 * and the section table (runner.c). Uses every library layer, never cli/; it
 * prints nothing: progress goes through the callback in sl_report_opts.
 * Exported names start with sl_report_. */
#ifndef SL_REPORT_H
#define SL_REPORT_H

#include <stdint.h>

#include "base/sl_base.h"
#include "rng/sl_rng.h"
#include "draw/sl_draw.h"
#include "logits/sl_logits.h"
#include "framework/sl_fw.h"
#include "stats/sl_stat.h"
#include "io/sl_io.h"

/* ---------------------------------------------------------------- running a report */

#define SL_REPORT_DEFAULT_N 100000
#define SL_REPORT_DEFAULT_SEED 42

typedef enum sl_report_event {
    SL_REPORT_EV_STUDY,        /* one more study done: `done` of `total` */
    SL_REPORT_EV_STUDIES_END,  /* every study has run */
    SL_REPORT_EV_RENDER        /* gnuplot is about to render `total` figures */
} sl_report_event;

typedef void (*sl_report_progress_fn)(void *user, sl_report_event ev, size_t done, size_t total);

typedef struct sl_report_opts {
    const char *outdir;        /* writes OUTDIR/REPORT.md, figures/, inputs/, timings.txt */
    const char *logits;        /* a vocabulary to study instead of the synthetic one, or NULL */
    const char *tensor;        /* with logits: the tensor of a .safetensors file, or NULL */
    long row;                  /* with logits: the row, or -1 */
    const char *logits_replay; /* with logits: what the replay commands pass after --logits */
    const char *logits_opt;    /* with logits: the option that gave it, as its inline list's messages name it */
    size_t n;                  /* draws per cell, 100 to 10^8 */
    uint64_t seed;             /* base seed */
    const char *only;          /* comma-separated section ids, or NULL for all */
    int no_plot;               /* write the .dat and .gp files but do not run gnuplot */
    size_t jobs;               /* threads; 0 = all cores */
    sl_report_progress_fn progress; /* NULL: silent */
    void *progress_user;
    const char *staging;       /* the folder the new set is built in, beside outdir; NULL: the
                                * name sl_io_outdir_staging_path gives for this process */
    int locked;                /* 1: the caller holds outdir's lock (sl_io_outdir_lock), as the command's
                                * supervising process does; 0: the run takes it, or is refused */
} sl_report_opts;

/* The defaults of `samplab report`: outdir "reports", n, seed, row -1. */
void sl_report_opts_init(sl_report_opts *o);

typedef struct sl_report_result {
    size_t nfigs;              /* figures written */
    double seconds;            /* wall time of the whole run */
} sl_report_result;

/* Runs the studies and writes the report. The same build and options give a
 * byte-identical REPORT.md and .dat files, whatever the number of threads.
 * The whole set (REPORT.md, timings.txt, figures/, inputs/) is built in a
 * staging folder beside outdir, starting from links to the old set's files,
 * and swapped in at the end (sl_io_dir_swap): outdir holds the old set or
 * the new one, never a mix. An outdir holding anything else than a report's
 * files (another folder, a link) is refused. On failure the staging folder
 * is removed and outdir is untouched. */
int sl_report_run(const sl_report_opts *o, sl_report_result *res, sl_error *err);


/* SL_EINVAL naming the first id in `only` that is no section (NULL is fine). */
int sl_report_only_check(const char *only, sl_error *err);

/* ---------------------------------------------------------------- vocabularies */

/* A vocabulary embedded in the code, with the file that holds the same logits
 * (what a replay command passes as --logits). */
typedef struct sl_report_vocab {
    const char *name;
    const char *desc;
    const char *src;
    const double *logits;
    size_t V;
} sl_report_vocab;

extern const sl_report_vocab sl_report_weather; /* the 8-token weather example */
extern const sl_report_vocab sl_report_ties;    /* logits [3, 2, 2, 1] */

/* The committed synthetic vocabulary (analysis/make_synthetic_vocab.py), read
 * relative to the working directory; without it, a Zipf-like vector of the
 * same size made in code. */
#define SL_REPORT_ZIPF_PATH "data/synthetic_49152.txt"
#define SL_REPORT_ZIPF_V 49152
/* The vector shaped like the top-k 40 + top-p 0.9 step of the compare section. */
#define SL_REPORT_K40_PATH "data/k40p09.txt"
#define SL_REPORT_K40_NAME "k40p09"
/* The context of the repetition-penalty case: token 0 sixteen times, then 64
 * ids cycling over 3..7, so token 0 lies outside the last 64. */
#define SL_REPORT_CONTEXT_N 80
#define SL_REPORT_CONTEXT_FILE "context80.txt"
/* torch's CPU kernel the report models (hf, vllm), fixed so the report is the same
 * bytes on every machine; `samplab draw --cpu` chooses it elsewhere. */
#define SL_REPORT_CPU SL_CPU_AVX2

/* A probability vector the report studies, with the logits it came from. */
typedef struct sl_report_dist {
    char name[64];      /* short id used in tables and file names: weather, ties, zipf */
    char desc[512];     /* one line: where it comes from */
    const char *src;    /* what a replay passes as --logits (NULL for none) */
    size_t V;
    double *logits;     /* V entries (NULL for none) */
    double *p;          /* softmax(logits), V entries */
    sl_vec lvec;        /* the logits as an sl_vec, for framework runs */
    sl_vec pvec;        /* p as an sl_vec, for frameworks that take probabilities */
} sl_report_dist;

/* d from V float64 logits (float32 copies rounded once) and their softmax at
 * T = 1; on failure d holds nothing to free. */
int sl_report_dist_from_logits(sl_report_dist *d, const char *name, const char *desc, const double *x, size_t V,
                               sl_error *err);
int sl_report_dist_from_vocab(sl_report_dist *d, const sl_report_vocab *v, sl_error *err);
/* Makes a Zipf-like vocabulary: logit_i = -1.1 ln(i + 1), i = 0..V-1. */
int sl_report_dist_zipf(sl_report_dist *d, size_t V, sl_error *err);
/* Reads a vector file as it is (its own float32 values); d->p stays NULL. */
int sl_report_dist_read(sl_report_dist *d, const char *name, const char *path, sl_error *err);
void sl_report_dist_free(sl_report_dist *d);
/* 1 if the synthetic vocabulary file is readable. */
int sl_report_zipf_present(void);
/* Token ids by decreasing p, ties by id, into a new array *order (caller frees). */
int sl_report_rank_order(const double *p, size_t V, size_t **order, sl_error *err);
/* The SL_REPORT_CONTEXT_N ids of the penalty case. */
void sl_report_context_ids(long *ids);

struct sl_report_ctx;
/* Fills ctx->weather, ctx->ties, ctx->big (o->logits, else the synthetic
 * vocabulary) and ctx->main; on failure nothing is left to free. */
int sl_report_vocab_open(struct sl_report_ctx *ctx, const sl_report_opts *o, sl_error *err);
void sl_report_vocab_close(struct sl_report_ctx *ctx);
/* Writes OUTDIR/inputs/<main>_probs.txt and ties_probs.txt (round-trip
 * precision, so a replay with --probs is exact). */
int sl_report_inputs_write(const struct sl_report_ctx *ctx, sl_error *err);
/* Writes OUTDIR/inputs/SL_REPORT_CONTEXT_FILE. */
int sl_report_context_write(const struct sl_report_ctx *ctx, sl_error *err);

/* ---------------------------------------------------------------- sections and jobs */

typedef int (*sl_report_job_fn)(const struct sl_report_ctx *ctx, void *arg, sl_error *err);

typedef struct sl_report_job {
    sl_report_job_fn fn;
    void *arg;
    double cost;        /* rough work estimate: longest jobs start first */
    int phase;          /* phase 0 runs to completion before phase 1 starts */
    int section;        /* index into the section table, for timings */
    int rc;
    sl_error err;
    double seconds;     /* wall time */
    double cpu;         /* CPU time of the thread that ran it */
} sl_report_job;

/* A TV null distribution shared by every section that needs it for the same
 * vector and N (so one report never shows two q99 for the same case). */
typedef struct sl_report_null_slot {
    const struct sl_report_dist *d;
    size_t n;
    size_t reps;
    unsigned long seed;
    struct sl_report_null_q {
        double mean, q01, q50, q99;
    } q;
} sl_report_null_slot;

typedef struct sl_report_ctx {
    /* options */
    size_t n;           /* draws per cell (--n) */
    uint64_t seed;      /* base seed (--seed) */
    const char *logits_src; /* --logits as the replays spell it, or NULL */
    const char *outdir; /* --out */
    char figdir[4096];
    size_t null_reps;   /* simulation size for null quantiles */
    /* data */
    sl_report_dist weather, ties, big; /* big = the synthetic Zipf vocabulary or --logits */
    sl_report_dist *main;     /* the vector the per-framework sections run on */
    /* jobs */
    sl_report_job *jobs;
    size_t njobs, capjobs;
    int cur_section;
    sl_report_null_slot **nulls;
    size_t nnulls, capnulls;
    /* figures written, rendered at the end */
    char **figs;
    size_t nfigs, capfigs;
    char **keep;        /* other file stems in figures/ a section writes */
    size_t nkeep, capkeep;
} sl_report_ctx;

int sl_report_add_job(sl_report_ctx *ctx, int phase, double cost, sl_report_job_fn fn, void *arg, sl_error *err);
/* Writes OUTDIR/NAME from b (sl_io_write_atomic); a buffer that ran out of
 * memory is an SL_ENOMEM. */
int sl_report_write(const sl_report_ctx *ctx, const char *name, const sl_buf *b, sl_error *err);
/* Marks figures/STEM.* (or every file starting with PREFIX for "PREFIX*")
 * as written by a section, so a full run keeps it. */
int sl_report_keep(sl_report_ctx *ctx, const char *stem, sl_error *err);
/* Writes FIGDIR/NAME.{dat,gp} and queues NAME for rendering (p->oom: an
 * SL_ENOMEM, never a figure with a missing part). */
int sl_report_plot(sl_report_ctx *ctx, const sl_plot *p, sl_error *err);

/* A section: plan() allocates its state and queues its jobs (or sets *state
 * to NULL when its inputs are not in this build, so the section is left
 * out; on failure it frees what it allocated); emit() appends its Markdown
 * and writes its figures once every job has run; release() frees the state,
 * whether or not its jobs ran. */
typedef struct sl_report_section {
    const char *id;     /* for --only */
    const char *title;
    int (*plan)(sl_report_ctx *ctx, void **state, sl_error *err);
    int (*emit)(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err);
    void (*release)(void *state);
} sl_report_section;

extern const sl_report_section sl_report_section_agree;
extern const sl_report_section sl_report_section_cost;
extern const sl_report_section sl_report_section_seed;
extern const sl_report_section sl_report_section_generation;
extern const sl_report_section sl_report_section_ties;
extern const sl_report_section sl_report_section_compare;
extern const sl_report_section sl_report_section_stages;
extern const sl_report_section sl_report_section_evidence;
extern const sl_report_section sl_report_section_exact;
/* The sections in report order, NULL-terminated (runner.c). */
extern const sl_report_section *const sl_report_sections[];

/* The generators and methods the report compares. */
extern const char *const sl_report_rng_names[];     /* NULL-terminated */
extern const char *const sl_report_method_names[];  /* NULL-terminated */

/* Appends the command that remakes section `id` alone (indented code). */
void sl_report_cmd_only(const sl_report_ctx *ctx, sl_buf *md, const char *id);

/* Draws n tokens from d with a method and a generator; counts has V slots. */
int sl_report_draw_counts(const sl_report_dist *d, const char *method, const char *rng, uint64_t seed, size_t n,
                    uint64_t *counts, uint64_t *words, sl_error *err);

/* Runs a framework emulation on d (its logits if it takes logits, else p):
 * n calls of one token each. top_k > 0 sets --top-k. */
int sl_report_fw_run(const sl_fw_type *fw, const sl_report_dist *d, uint64_t seed, size_t n, long top_k,
               sl_fw_result *res, sl_error *err);

/* A framework or pipeline that refuses its input (status rc, message in e)
 * is a result: its message goes to msg[0..n) and this returns 0. Running out
 * of memory is no result: e goes to err and rc is returned. */
int sl_report_refusal(int rc, const sl_error *e, char *msg, size_t n, sl_error *err);

/* Seeds a generator by name with a 64-bit seed. */
int sl_report_rng_open(sl_rng *r, const char *name, uint64_t seed, sl_error *err);

/* ---------------------------------------------------------------- statistics */

typedef struct sl_report_gof {
    double chi2, chi2_p;   /* Pearson over pooled bins */
    double g, g_p;         /* likelihood ratio over the same bins */
    size_t df, bins;
    double tv;             /* 1/2 sum |c_i/N - p_i| over all tokens */
    uint64_t outside;      /* draws on zero-probability tokens */
} sl_report_gof;

/* Chi-square and G over the cells of the statistics layer (SL_STAT_POOL_RULE,
 * minimum expected count 5), TV over all tokens. */
int sl_report_gof_compute(const double *p, const uint64_t *counts, size_t V, uint64_t N, sl_report_gof *out, sl_error *err);
/* The same with cells built once for many count vectors. */
int sl_report_gof_with_cells(const sl_stat_cells *c, const double *p, const uint64_t *counts, size_t V, uint64_t N,
                             sl_report_gof *out, sl_error *err);
double sl_report_tv(const double *p, const uint64_t *counts, size_t V, uint64_t N);

typedef struct sl_report_null_q sl_report_null;
/* Null distribution of TV for N draws from p: R multinomial samples
 * (sl_stat_tv_null_sim: GSL's mt19937 seeded with `seed`). */
int sl_report_tv_null(const double *p, size_t V, uint64_t N, size_t R, unsigned long seed, sl_report_null *out,
                sl_error *err);

/* The null of TV for N draws from d, computed in phase 0 (queued on first
 * request; read it only from phase-1 jobs or emit). Simulation size:
 * ctx->null_reps, at most 300 when V > 4096 (each sample costs O(V)). */
int sl_report_null_want(sl_report_ctx *ctx, const sl_report_dist *d, size_t n, const sl_report_null **out,
                        sl_error *err);

/* Formats a p-value for a table, flagging both tails (TestU01's habit):
 * "0.0004 !" below 0.001 and "0.9996 !" above 0.999. */
const char *sl_report_fmt_p(char *buf, size_t n, double p);

/* Report data: for every audited sampler (candle, numpy, torch-replacement, gsl, cdf,
 * alias, linear, llamacpp; torch's race in the tables only) on the weather logits, softmax
 * of [3,2,2,1], the weather logits with a top-3 and a top-4 filter (tail logits
 * -inf) and, if zipf_logits is not
 * NULL, the V = 49152 vocabulary read from that file (SL_REPORT_ZIPF_PATH)
 * at T = 1 (zipf49152) and T = 0.8 (zipf49152_t08),
 * writes into dir:
 *   exact_tail_<dist>.dat  rank, token, ideal, then the exact induced P per sampler,
 *                          tokens by decreasing ideal (all for V <= 256; else
 *                          log-spaced ranks plus the last 200): a log-log figure;
 *   exact_failures.dat     dist, sampler, path, P per call, P in 10^9 calls,
 *                          exact|bound, rational num/2^bits or -, token;
 *   exact_summary.dat      dist, sampler, TV, exact|bound, #never, #zero-p drawn,
 *                          worst token, its relative error.
 * Each file is written through a temporary name renamed into place (sl_io_write_atomic). */
int sl_report_exact_data(const char *dir, const char *zipf_logits, sl_error *err);
/* The distribution of the exact section's tail figure. */
const char *sl_report_exact_tail_case(int with_zipf);


/* ---------------------------------------------------------------- figures (palette.c) */

/* How a framework or draw method is drawn in every figure: one colour (Okabe-Ito),
 * and a point type, dash type and hatch of its own, so a greyscale print or a
 * colour-blind reader still tells the series apart. web/style.css's --NAME colours
 * are the same (tests/test_cli_report_palette.c). */
typedef struct sl_report_style {
    const char *name;   /* as the report names it: llamacpp, hf, exprace, ... */
    const char *rgb;    /* "#rrggbb" */
    int pt;             /* gnuplot point type */
    int dt;             /* gnuplot dash type */
    int pattern;        /* cairo fill pattern drawn over bars, 0 for none */
} sl_report_style;

extern const sl_report_style sl_report_styles[]; /* NULL-terminated */
/* The style of NAME, read up to its first '(' or space ("hf(draws)" is hf); a
 * mid grey for a name the table lacks. */
const sl_report_style *sl_report_style_of(const char *name);
/* Appends "lc rgb '#..' pt N" (points) or that with "dt N" (lines). */
void sl_report_style_points(sl_buf *b, const char *name);
void sl_report_style_lines(sl_buf *b, const char *name);
/* Appends a plot command of clustered bars: data column 1 the group label,
 * columns 2..ns+1 the series, each in its style, ngroups rows; labels: its value over each bar;
 * sel: what follows the file name in each clause ("index 2"), or NULL. The
 * command is left open (no newline), so more clauses may follow. */
void sl_report_style_bars(sl_buf *b, const char *const *series, size_t ns, size_t ngroups, int labels,
                          const char *sel);
/* Where bar i of ns sits, from its group's centre. */
double sl_report_style_bar_offset(size_t i, size_t ns);
/* Appends a figure to the Markdown: its image, then its caption in italics on
 * the line below (what to look at). */
void sl_report_figure_md(sl_buf *md, const char *name, const char *alt, const char *caption);

#endif
