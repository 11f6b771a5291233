/* options.c — every option samplab has, in one table, and the one parser the
 * subcommands share. Each subcommand declares (sl_cli_specs) the groups and
 * single options it takes; sl_cli_parse reads argv into an sl_cli_parsed
 * (value, given flag, position) and refuses, with the messages below and
 * nowhere else: an option given twice, one the subcommand does not take, a
 * missing value, a malformed number. Values shown in a message are escaped so
 * it stays one printable line. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

#define OPT(id, nm, k, g, b, a, h) [id] = {nm, k, g, b, a, h}
/* Table order is the order of the "not an option of framework" checks and of
 * `draw --help`'s per-framework lists (the SL_OPT_* options first). */
const sl_cli_option sl_cli_options[SL_CLI_OPT_COUNT] = {
    OPT(SL_CLI_PROBS, "--probs", SL_CLI_STRING, SL_CLI_G_SOURCE, SL_OPT_PROBS, "SRC",
        "weights (finite, >= 0, not all zero; divided by their sum):\n"
        "inline 3,2,2,1, a text file, .npy or .safetensors"),
    OPT(SL_CLI_LOGITS, "--logits", SL_CLI_STRING, SL_CLI_G_SOURCE, SL_OPT_LOGITS, "SRC",
        "logits: inline \"3,2,2,1\", a text file, .npy, or .safetensors"),
    OPT(SL_CLI_TEMPERATURE, "--temperature", SL_CLI_DOUBLE, SL_CLI_G_SAMPLING, SL_OPT_TEMPERATURE, "T",
        "hf: T must be > 0 (0 is transformers' ValueError); vllm: T < 1e-5 is greedy;\n"
        "llamacpp: T <= 0 keeps the first maximum; tutorial: T must be > 0"),
    OPT(SL_CLI_TOP_K, "--top-k", SL_CLI_LONG, SL_CLI_G_SAMPLING, SL_OPT_TOP_K, "K",
        "hf, vllm: ties with the k-th value survive; llamacpp, tutorial: exactly K"),
    OPT(SL_CLI_TOP_P, "--top-p", SL_CLI_DOUBLE, SL_CLI_G_SAMPLING, SL_OPT_TOP_P, "P",
        "nucleus; hf/vllm remove ascending cumsum <= 1-P; llamacpp/tutorial keep\n"
        "through the token where the descending sum reaches P"),
    OPT(SL_CLI_MIN_P, "--min-p", SL_CLI_DOUBLE, SL_CLI_G_SAMPLING, SL_OPT_MIN_P, "M",
        "hf/vllm/tutorial in probability space after temperature;\n"
        "llamacpp in logit space (l >= max + ln M), before temperature"),
    OPT(SL_CLI_FRAMEWORK, "--framework", SL_CLI_STRING, SL_CLI_G_FRAMEWORK, 0, "F", "the framework to emulate"),
    OPT(SL_CLI_NUM_SAMPLES, "--num-samples", SL_CLI_SIZE, SL_CLI_G_FRAMEWORK, SL_OPT_NUM_SAMPLES, "K",
        "torch.multinomial(p, K) or NumPy's size=K (K tokens per output line)"),
    OPT(SL_CLI_REPLACEMENT, "--replacement", SL_CLI_FLAG, SL_CLI_G_FRAMEWORK, SL_OPT_REPLACEMENT, NULL,
        "torch's replacement=True"),
    OPT(SL_CLI_DTYPE, "--dtype", SL_CLI_STRING, SL_CLI_G_FRAMEWORK, SL_OPT_DTYPE, "float32|float64",
        "the tensor / array dtype (default: a .npy keeps its own, text is float32 for\n"
        "torch, float64 for NumPy)"),
    OPT(SL_CLI_TORCH, "--torch", SL_CLI_STRING, SL_CLI_G_FRAMEWORK, SL_OPT_VARIANT, "2|1.13",
        "torch's release line: 2 (default: 2.x, checked on 2.14.1 and 2.6.0) or 1.13"),
    OPT(SL_CLI_TORCH_BUILD, "--torch-build", SL_CLI_STRING, SL_CLI_G_FRAMEWORK, SL_OPT_TORCH_BUILD, "default|mkl",
        "torch: mkl is a build whose exponential_ is MKL's MCG31m1 (pip wheels 2.1 to 2.6;\n"
        "its stream exact, MKL's log not: docs/torch-builds.md)"),
    OPT(SL_CLI_LLAMACPP, "--llamacpp", SL_CLI_STRING, SL_CLI_G_FRAMEWORK, SL_OPT_LLAMA_VERSION, "0.7.0|pr15704",
        "llama.cpp's release line: 0.7.0 (default; a lone candidate still draws, greedy at\n"
        "T <= 0) or pr15704 (the 2025-08 commit: no draw for one candidate)"),
    OPT(SL_CLI_RAND, "--rand", SL_CLI_STRING, SL_CLI_G_FRAMEWORK, SL_OPT_RAND_VERSION, "0.8|0.9|0.10",
        "candle: Rust rand's WeightedIndex<f32> (they differ for subnormal totals)"),
    OPT(SL_CLI_CPU, "--cpu", SL_CLI_STRING, SL_CLI_G_FRAMEWORK, SL_OPT_CPU, "avx2|avx512",
        "hf, vllm: torch's CPU kernel, which orders softmax's sum (default: the one torch 2.x\n"
        "picks on this CPU, as ATEN_CPU_CAPABILITY would; torch 1.13: avx2)"),
    OPT(SL_CLI_SIMD_SUM, "--simd-sum", SL_CLI_FLAG, SL_CLI_G_FRAMEWORK, SL_OPT_SIMD_SUM, NULL,
        "candle: the float32 total as the SIMD build adds it"),
    OPT(SL_CLI_TYPICAL, "--typical", SL_CLI_DOUBLE, SL_CLI_G_SAMPLING, SL_OPT_TYPICAL, "M",
        "locally typical sampling (hf, llamacpp)"),
    OPT(SL_CLI_REPETITION_PENALTY, "--repetition-penalty", SL_CLI_DOUBLE, SL_CLI_G_SAMPLING, SL_OPT_PENALTY, "R",
        "penalise the ids in --context: hf every id, vllm every id,\n"
        "llamacpp the last --penalty-last-n (default 64)"),
    OPT(SL_CLI_CONTEXT, "--context", SL_CLI_STRING, SL_CLI_G_SAMPLING, SL_OPT_PENALTY, "IDS",
        "the token ids a penalty applies to (inline list or file)"),
    OPT(SL_CLI_MIN_KEEP, "--min-keep", SL_CLI_LONG, SL_CLI_G_SAMPLING, SL_OPT_MIN_KEEP, "N",
        "hf min_tokens_to_keep (default 1); llamacpp min_keep (default 0)"),
    OPT(SL_CLI_DEFAULTS, "--defaults", SL_CLI_FLAG, SL_CLI_G_SAMPLING, SL_OPT_DEFAULTS, NULL,
        "the framework's own defaults: hf top_k 50; llamacpp top-k 40, top-p 0.95,\n"
        "min-p 0.05, T 0.8; vllm none"),
    OPT(SL_CLI_PENALTY_LAST_N, "--penalty-last-n", SL_CLI_LONG, SL_CLI_G_LLAMA_PENALTY, SL_OPT_LAST_N, "N",
        "llamacpp: how many of the last --context ids are penalised (default 64)"),
    OPT(SL_CLI_FREQUENCY_PENALTY, "--frequency-penalty", SL_CLI_DOUBLE, SL_CLI_G_LLAMA_PENALTY,
        SL_OPT_FREQ_PRESENCE, "F", "llamacpp only (needs --context)"),
    OPT(SL_CLI_PRESENCE_PENALTY, "--presence-penalty", SL_CLI_DOUBLE, SL_CLI_G_LLAMA_PENALTY,
        SL_OPT_FREQ_PRESENCE, "P", "llamacpp only (needs --context)"),
    OPT(SL_CLI_MIROSTAT, "--mirostat", SL_CLI_LONG, SL_CLI_G_LLAMA_PENALTY, SL_OPT_MIROSTAT, "N",
        "llamacpp: 1 mirostat, 2 mirostat v2 (the chain becomes temperature then it;\n"
        "the other stages' options are refused: llama.cpp ignores them); default 0"),
    OPT(SL_CLI_MIROSTAT_LR, "--mirostat-lr", SL_CLI_DOUBLE, SL_CLI_G_LLAMA_PENALTY, SL_OPT_MIROSTAT, "ETA",
        "llamacpp: mirostat's learning rate eta (default 0.1)"),
    OPT(SL_CLI_MIROSTAT_ENT, "--mirostat-ent", SL_CLI_DOUBLE, SL_CLI_G_LLAMA_PENALTY, SL_OPT_MIROSTAT, "TAU",
        "llamacpp: mirostat's target surprise tau (default 5; mu starts at 2 tau)"),
    OPT(SL_CLI_ADAPTIVE_TARGET, "--adaptive-target", SL_CLI_DOUBLE, SL_CLI_G_LLAMA_PENALTY, SL_OPT_MIROSTAT, "P",
        "llamacpp: adaptive_p's target probability (default -1: a plain draw;\n"
        "needs adaptive_p in the stage order, which llama.cpp then puts last)"),
    OPT(SL_CLI_ADAPTIVE_DECAY, "--adaptive-decay", SL_CLI_DOUBLE, SL_CLI_G_LLAMA_PENALTY, SL_OPT_MIROSTAT, "D",
        "llamacpp: adaptive_p's moving-average decay (default 0.9, clamped to [0, 0.99])"),
    OPT(SL_CLI_SAMPLERS, "--samplers", SL_CLI_STRING, 0, SL_OPT_ORDER, "NAMES",
        "llamacpp: the stages in order, llama.cpp's names separated by ';' (its default:\n"
        "penalties;top_k;typ_p;top_p;min_p;temperature; docs/pipelines.md)"),
    OPT(SL_CLI_SAMPLING_SEQ, "--sampling-seq", SL_CLI_STRING, 0, SL_OPT_ORDER, "LETTERS",
        "llamacpp: the stages in order as llama.cpp's letters (e k y p m t; default ekypmt)"),
    OPT(SL_CLI_TENSOR, "--tensor", SL_CLI_STRING, SL_CLI_G_SOURCE, 0, "NAME",
        "which tensor of a .safetensors file (needed when it holds several)"),
    OPT(SL_CLI_ROW, "--row", SL_CLI_INDEX, SL_CLI_G_SOURCE, 0, "I", "row I (from 0) of a 2-D or larger tensor"),
    OPT(SL_CLI_METHOD, "--method", SL_CLI_STRING, 0, 0, "M", "draw method: exprace, cdf, linear, alias, greedy"),
    OPT(SL_CLI_RNG, "--rng", SL_CLI_STRING, SL_CLI_G_RNG, 0, "R", "random source (default pcg32)"),
    OPT(SL_CLI_SEED, "--seed", SL_CLI_STRING, SL_CLI_G_RNG, 0, "S",
        "seed: decimal or 0x hex (default 42)"),
    OPT(SL_CLI_STREAM, "--stream", SL_CLI_STRING, SL_CLI_G_RNG, 0, "Q", "stream of the source, where it has streams"),
    OPT(SL_CLI_N, "--n", SL_CLI_SIZE, 0, 0, "N", "how many"),
    OPT(SL_CLI_COUNTS, "--counts", SL_CLI_FLAG, 0, 0, NULL, "one line per token id: id<TAB>count"),
    OPT(SL_CLI_JSON, "--json", SL_CLI_FLAG, 0, 0, NULL, "machine-readable output"),
    OPT(SL_CLI_BINARY, "--binary", SL_CLI_FLAG, 0, 0, NULL,
        "little-endian bytes (4 per word, 8 for 64-bit sources); endless when N is 0"),
    OPT(SL_CLI_DRAWS, "--draws", SL_CLI_STRING, 0, 0, "FILE",
        "token ids separated by whitespace or newlines ('-' = stdin);\n"
        "read as a stream: memory O(V) whatever the number of draws"),
    OPT(SL_CLI_COUNTS_FILE, "--counts", SL_CLI_STRING, 0, 0, "FILE",
        "id<TAB>count lines for every id, the output of `samplab draw --counts`\n"
        "as is ('-' = stdin; a one-column file is draws: --draws)"),
    OPT(SL_CLI_ALPHA, "--alpha", SL_CLI_DOUBLE, 0, 0, "A", "test level (default 0.01)"),
    OPT(SL_CLI_NULL_REPS, "--null-reps", SL_CLI_SIZE, 0, 0, "R",
        "TV null samples for its 99th percentile (default: 200 to 2000, about\n"
        "0.15 s of simulation; 0 skips the simulation)"),
    OPT(SL_CLI_TRIALS, "--trials", SL_CLI_SIZE, 0, 0, "K", "simulated samples per fault size (default 200)"),
    OPT(SL_CLI_TARGET, "--target", SL_CLI_DOUBLE, 0, 0, "P", "target power (default 0.9)"),
    OPT(SL_CLI_FAULT, "--fault", SL_CLI_STRING, 0, 0, "F",
        "one fault family only (shift, leak, topk, temper), or mkl-seed-collision:\n"
        "the repeat test against torch's MKL exponential_ (no --probs or --logits)"),
    OPT(SL_CLI_SEEDS, "--seeds", SL_CLI_SIZE, 0, 0, "K", "how many seeds"),
    OPT(SL_CLI_FIRST_SEED, "--first-seed", SL_CLI_STRING, 0, 0, "S", "the first seed (default 0)"),
    OPT(SL_CLI_FRAMEWORKS, "--frameworks", SL_CLI_STRING, 0, 0, "a,b,...",
        "the frameworks to compare (default: all that have every option given)"),
    OPT(SL_CLI_TOP, "--top", SL_CLI_SIZE, 0, 0, "N", "top N tokens per framework (default 5, at most 100)"),
    OPT(SL_CLI_TOKENS, "--tokens", SL_CLI_FLAG, 0, 0, NULL, "one line per token"),
    OPT(SL_CLI_REPORT_DATA, "--report-data", SL_CLI_STRING, 0, 0, "DIR", "write the report's tables and figure data"),
    OPT(SL_CLI_OUT, "--out", SL_CLI_STRING, 0, 0, "DIR", "output directory (default reports)"),
    OPT(SL_CLI_ONLY, "--only", SL_CLI_STRING, 0, 0, "IDS", "comma-separated sections"),
    OPT(SL_CLI_JOBS, "--jobs", SL_CLI_SIZE, 0, 0, "J", "threads (default: all cores); results do not depend on it"),
    OPT(SL_CLI_GEN_TOKENS, "--tokens", SL_CLI_STRING, 0, 0, "FILE", "observed token ids"),
    OPT(SL_CLI_NO_PLOT, "--no-plot", SL_CLI_FLAG, 0, 0, NULL, "write the .dat and .gp files but do not run gnuplot"),
    OPT(SL_CLI_SPEC, "--spec", SL_CLI_STRING, 0, 0, "FILE", "the study: a JSON spec (docs/sweep.md)"),
    OPT(SL_CLI_RESUME, "--resume", SL_CLI_FLAG, 0, 0, NULL,
        "skip the points DIR/checkpoint holds (the same spec), run the rest"),
};
#undef OPT

#define G(g) {g, SL_CLI_NONE, NULL}
#define O(o) {0, o, NULL}
#define OH(o, h) {0, o, h}
#define END {0, SL_CLI_NONE, NULL}

static const sl_cli_take draw_takes[] = {
    G(SL_CLI_G_SOURCE),
    OH(SL_CLI_TEMPERATURE, "softmax temperature of --logits (default 1; T <= 0 is an error: use --method\n"
                           "greedy); with --framework, the framework's temperature"),
    O(SL_CLI_METHOD),
    O(SL_CLI_RNG),
    OH(SL_CLI_SEED, "seed: decimal or 0x hex (default 42; --framework gsl: 0,\n"
                      "GSL's gsl_rng_default_seed, which it turns into 4357)"),
    O(SL_CLI_STREAM),
    OH(SL_CLI_N, "how many draws (default 1)"),
    O(SL_CLI_COUNTS),
    OH(SL_CLI_JSON, "one object: {\"tokens\": [...], \"rng\": {\"name\", \"word_bits\", \"words\"}}"),
    G(SL_CLI_G_FRAMEWORK),
    OH(SL_CLI_REPETITION_PENALTY, "penalise the ids in --context: hf every id, vllm every id,\n"
                                  "llamacpp the last 64"),
    G(SL_CLI_G_SAMPLING),
    G(SL_CLI_G_LLAMA_PENALTY),
    O(SL_CLI_SAMPLERS),
    O(SL_CLI_SAMPLING_SEQ),
    END,
};
static const sl_cli_take logits_cmd_takes[] = {
    OH(SL_CLI_LOGITS, "logits: inline \"3,2,2,1\", a text file, .npy, or .safetensors"),
    O(SL_CLI_TENSOR),
    O(SL_CLI_ROW),
    G(SL_CLI_G_SAMPLING),
    O(SL_CLI_CPU),
    G(SL_CLI_G_LLAMA_PENALTY),
    O(SL_CLI_JSON),
    END,
};
static const sl_cli_take pipeline_takes[] = {
    OH(SL_CLI_FRAMEWORK, "the pipeline: hf, llamacpp, vllm, tutorial, candle"),
    O(SL_CLI_SAMPLERS),
    O(SL_CLI_SAMPLING_SEQ),
    END,
};
static const sl_cli_take compare_takes[] = {
    O(SL_CLI_FRAMEWORKS),
    O(SL_CLI_TOP),
    END,
};
static const sl_cli_take rng_takes[] = {
    OH(SL_CLI_RNG, "random source (required)"),
    O(SL_CLI_SEED),
    O(SL_CLI_STREAM),
    OH(SL_CLI_N, "how many words (default 10)"),
    O(SL_CLI_BINARY),
    END,
};
static const sl_cli_take gof_takes[] = {
    G(SL_CLI_G_SOURCE),
    OH(SL_CLI_TEMPERATURE, "softmax temperature of --logits (default 1)"),
    O(SL_CLI_DRAWS),
    O(SL_CLI_COUNTS_FILE),
    OH(SL_CLI_METHOD, "draw N tokens here with method M (exprace, cdf, linear, alias, greedy)\n"
                      "over --rng R (default pcg32) seeded with --seed S (default 42)"),
    O(SL_CLI_RNG),
    O(SL_CLI_SEED),
    OH(SL_CLI_N, "draws with --method"),
    OH(SL_CLI_ALPHA, "level of the chi-square test (default 0.01)"),
    O(SL_CLI_NULL_REPS),
    OH(SL_CLI_JSON, "one JSON object instead of text"),
    END,
};
static const sl_cli_take power_takes[] = {
    G(SL_CLI_G_SOURCE),
    OH(SL_CLI_TEMPERATURE, "softmax temperature of --logits (default 1)"),
    OH(SL_CLI_N, "draws (required, 1 <= N < 2^32)"),
    OH(SL_CLI_ALPHA, "level of the tests (default 0.01)"),
    O(SL_CLI_TRIALS),
    O(SL_CLI_TARGET),
    O(SL_CLI_FAULT),
    O(SL_CLI_JSON),
    END,
};
static const sl_cli_take calibrate_takes[] = {
    G(SL_CLI_G_SOURCE),
    OH(SL_CLI_TEMPERATURE, "softmax temperature of --logits (default 1)"),
    O(SL_CLI_METHOD),
    O(SL_CLI_RNG),
    OH(SL_CLI_N, "draws per seed"),
    O(SL_CLI_SEEDS),
    O(SL_CLI_FIRST_SEED),
    O(SL_CLI_JSON),
    END,
};
static const sl_cli_take exact_takes[] = {
    OH(SL_CLI_FRAMEWORK, "candle, numpy, numpy-legacy, torch, llamacpp, gsl"),
    OH(SL_CLI_METHOD, "cdf, alias, linear"),
    OH(SL_CLI_RNG, "for a method: any 32- or 64-bit source (default pcg32); for gsl: gsl:mt19937 ..."),
    G(SL_CLI_G_SOURCE),
    OH(SL_CLI_TEMPERATURE, "softmax temperature of --logits (default 1; must be > 0)"),
    OH(SL_CLI_REPLACEMENT, "torch: multinomial(p, K, replacement=True)"),
    OH(SL_CLI_NUM_SAMPLES, "torch --replacement: K samples a call (default 1; 2.x races for K = 1)"),
    OH(SL_CLI_TORCH, "torch's release line: 2 (default, 2.x: -log1p) or 1.13 (-log(1 - u))"),
    OH(SL_CLI_DTYPE, "the precision torch and numpy receive"),
    OH(SL_CLI_RAND, "candle: the rand release counted (0.9 default, 0.10: the same; 0.8 shrinks\n"
                    "the uniform's scale for subnormal totals)"),
    OH(SL_CLI_TOKENS, "one line per token: ideal, induced, count/2^bits, relative error"),
    OH(SL_CLI_JSON, "one object, induced probabilities as exact rationals \"numerator/2^bits\""),
    O(SL_CLI_REPORT_DATA),
    END,
};
static const sl_cli_take bench_takes[] = {
    OH(SL_CLI_LOGITS, "the large vocabulary (default data/synthetic_49152.txt); with --framework, per-step\n"
                      "logits: a [T, V] .npy, .safetensors tensor or text, one step per line"),
    OH(SL_CLI_FRAMEWORK, "time this framework in process over the rows of --logits: replay per step, and its\n"
                         "pipeline alone per call"),
    O(SL_CLI_TENSOR),
    O(SL_CLI_CONTEXT),
    O(SL_CLI_SEED),
    O(SL_CLI_TORCH),
    O(SL_CLI_CPU),
    OH(SL_CLI_REPETITION_PENALTY, "penalise the ids of the history (prompt + tokens so far)"),
    G(SL_CLI_G_SAMPLING),
    OH(SL_CLI_N, "with --framework: timing repetitions, the best kept (default 5)"),
    OH(SL_CLI_JSON, "with --framework: one object with the times and the replayed tokens"),
    END,
};
/* replay and check: per-step rows, the prompt, a framework's settings */
static const sl_cli_take gen_takes[] = {
    OH(SL_CLI_FRAMEWORK, "the framework (replay: or all)"),
    OH(SL_CLI_LOGITS, "per-step logits: a [T, V] .safetensors tensor, a 2-D .npy, or text, one step per line"),
    OH(SL_CLI_PROBS, "per-step weights (torch, numpy): the same forms"),
    OH(SL_CLI_TENSOR, "which tensor of a .safetensors file (needed when it holds several)"),
    OH(SL_CLI_CONTEXT, "the prompt's token ids (inline list or file): the history penalties start from"),
    OH(SL_CLI_SEED, "the framework's seed (replay: default the framework's own)"),
    O(SL_CLI_DTYPE),
    O(SL_CLI_TORCH),
    O(SL_CLI_LLAMACPP),
    O(SL_CLI_RAND),
    O(SL_CLI_CPU),
    O(SL_CLI_SIMD_SUM),
    G(SL_CLI_G_SAMPLING),
    G(SL_CLI_G_LLAMA_PENALTY),
    O(SL_CLI_SAMPLERS),
    O(SL_CLI_SAMPLING_SEQ),
    O(SL_CLI_JSON),
    END,
};
static const sl_cli_take replay_takes[] = {
    END,
};
static const sl_cli_take check_takes[] = {
    OH(SL_CLI_GEN_TOKENS, "the observed tokens: one id per line, or an inline list (T of them)"),
    OH(SL_CLI_ALPHA, "level of the test (default 0.01)"),
    OH(SL_CLI_TRIALS, "simulated logs per fault size for the power (default 200; 0 skips it)"),
    END,
};
/* report prints its own help (cli/report.c) */
static const sl_cli_take report_takes[] = {
    O(SL_CLI_OUT),
    O(SL_CLI_LOGITS),
    O(SL_CLI_TENSOR),
    O(SL_CLI_ROW),
    O(SL_CLI_N),
    O(SL_CLI_SEED),
    O(SL_CLI_JOBS),
    O(SL_CLI_ONLY),
    O(SL_CLI_NO_PLOT),
    END,
};
static const sl_cli_take sweep_takes[] = {
    O(SL_CLI_SPEC),
    OH(SL_CLI_OUT, "the output folder: <job>.jsonl, summary.md, checkpoint/ (made if absent)"),
    O(SL_CLI_RESUME),
    END,
};
#undef G
#undef O
#undef OH
#undef END

const sl_cli_spec sl_cli_specs[] = {
    {"draw", draw_takes, NULL},
    {"pipeline", pipeline_takes, logits_cmd_takes},
    {"compare", compare_takes, logits_cmd_takes},
    {"rng", rng_takes, NULL},
    {"gof", gof_takes, NULL},
    {"power", power_takes, NULL},
    {"calibrate", calibrate_takes, NULL},
    {"exact", exact_takes, NULL},
    {"bench", bench_takes, NULL},
    {"report", report_takes, NULL},
    {"replay", replay_takes, gen_takes},
    {"check", check_takes, gen_takes},
    {"sweep", sweep_takes, NULL},
    {NULL, NULL, NULL},
};

const sl_cli_spec *sl_cli_spec_lookup(const char *cmd)
{
    for (const sl_cli_spec *s = sl_cli_specs; s->name; s++)
        if (!strcmp(s->name, cmd))
            return s;
    return NULL;
}

/* The take in s naming option o itself (opt_take), or the first take of
 * group g (group_take); NULL if none. An option s takes both ways is listed
 * with its group, with the option take's help. */
static const sl_cli_take *opt_take(const sl_cli_spec *s, sl_cli_opt o)
{
    const sl_cli_take *lists[2] = {s->takes, s->shared};
    for (int l = 0; l < 2; l++)
        for (const sl_cli_take *t = lists[l]; t && (t->group || t->opt); t++)
            if (t->opt == o)
                return t;
    return NULL;
}

static const sl_cli_take *group_take(const sl_cli_spec *s, unsigned g)
{
    const sl_cli_take *lists[2] = {s->takes, s->shared};
    for (int l = 0; l < 2; l++)
        for (const sl_cli_take *t = lists[l]; g && t && (t->group || t->opt); t++)
            if (t->group == g)
                return t;
    return NULL;
}

int sl_cli_takes(const sl_cli_spec *s, sl_cli_opt o)
{
    return o > SL_CLI_NONE && o < SL_CLI_OPT_COUNT && (opt_take(s, o) || group_take(s, sl_cli_options[o].group));
}

/* The numbers: the value is the whole word, in range. */
static int bad_value(char *why, size_t n, const char *opt, const char *what, const char *text)
{
    char e[SL_CLI_ESC_MAX];
    snprintf(why, n, "%s takes %s, not '%s'", opt, what, sl_cli_esc(text, e, sizeof e));
    return 2;
}

/* The value of option o read from its word into a, or 2 with why[0..n) saying what is wrong. */
static int read_value(const sl_cli_option *o, const char *text, sl_cli_arg *a, char *why, size_t n)
{
    char *end;
    errno = 0;
    switch (o->kind) {
    case SL_CLI_SIZE: {
        if (!*text || *text == '-' || *text == '+')
            return bad_value(why, n, o->name, "a non-negative integer", text);
        unsigned long long v = strtoull(text, &end, 10);
        if (*end)
            return bad_value(why, n, o->name, "a non-negative integer", text);
        /* one stated cap for every count: 10^12 draws are hours of work; more is a typo or
         * 2^64 - 1 (which would run for ever), never a plan */
        if (errno == ERANGE || v > SL_CLI_SIZE_MAX || v > SIZE_MAX)
            return bad_value(why, n, o->name, "at most 1000000000000 (10^12)", text);
        a->size = (size_t)v;
        return 0;
    }
    case SL_CLI_LONG:
    case SL_CLI_INDEX: {
        long v = strtol(text, &end, 10);
        if (!*text || *end || errno == ERANGE)
            return bad_value(why, n, o->name, "an integer", text);
        if (o->kind == SL_CLI_INDEX && v < 0) {
            snprintf(why, n, "%s takes a non-negative integer", o->name);
            return 2;
        }
        a->l = v;
        return 0;
    }
    case SL_CLI_DOUBLE: {
        double v = strtod(text, &end);
        if (!*text || *end || isnan(v))
            return bad_value(why, n, o->name, "a number", text);
        if (isinf(v)) /* "inf" or past DBL_MAX: no setting takes an infinity */
            return bad_value(why, n, o->name, "a finite number", text);
        a->d = v;
        return 0;
    }
    default:
        return 0;
    }
}

static int parse_value(const char *cmd, const sl_cli_option *o, const char *text, sl_cli_arg *a)
{
    char why[2 * SL_CLI_ESC_MAX];
    if (read_value(o, text, a, why, sizeof why))
        return sl_cli_errf("samplab %s: %s\n", cmd, why);
    return 0;
}

int sl_cli_value_check(sl_cli_opt o, const char *text, char *why, size_t n)
{
    sl_cli_arg a;
    memset(&a, 0, sizeof a);
    if (o <= SL_CLI_NONE || o >= SL_CLI_OPT_COUNT)
        return 0;
    return read_value(&sl_cli_options[o], text, &a, why, n);
}

/* The table entry named `word` that `s` takes, else any entry of that name
 * (*taken = 0), else SL_CLI_NONE. */
static sl_cli_opt find(const sl_cli_spec *s, const char *word, int *taken)
{
    sl_cli_opt other = SL_CLI_NONE;
    for (int o = SL_CLI_NONE + 1; o < SL_CLI_OPT_COUNT; o++) {
        if (strcmp(sl_cli_options[o].name, word))
            continue;
        if (sl_cli_takes(s, (sl_cli_opt)o)) {
            *taken = 1;
            return (sl_cli_opt)o;
        }
        other = (sl_cli_opt)o;
    }
    *taken = 0;
    return other;
}

static int parse(const sl_cli_spec *s, int argc, char **argv, sl_cli_parsed *p)
{
    const char *cmd = s->name;
    char e[SL_CLI_ESC_MAX], e2[SL_CLI_ESC_MAX];
    memset(p, 0, sizeof *p);
    p->spec = s;
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (!strcmp(w, "--help") || !strcmp(w, "-h")) {
            p->help = 1;
            return 0;
        }
        int taken;
        sl_cli_opt id = find(s, w, &taken);
        if (id == SL_CLI_NONE) {
            sl_cli_errf("samplab %s: unknown option '%s' (samplab %s --help)\n", cmd, sl_cli_esc(w, e, sizeof e),
                    cmd);
            return 2;
        }
        const sl_cli_option *o = &sl_cli_options[id];
        if (!taken) {
            sl_cli_errf("samplab %s: %s is not an option of %s (samplab %s --help)\n", cmd, o->name, cmd, cmd);
            return 2;
        }
        sl_cli_arg *a = &p->a[id];
        if (a->given) {
            sl_cli_errf("samplab %s: %s given twice\n", cmd, o->name);
            return 2;
        }
        a->given = 1;
        a->pos = i;
        if (o->kind == SL_CLI_FLAG)
            continue;
        if (i + 1 >= argc) {
            sl_cli_errf("samplab %s: %s needs a value\n", cmd, o->name);
            return 2;
        }
        /* "--probs --method cdf" forgot the value: say so, rather than read "--method" as a
         * file name and complain about "cdf". A lone "-" (stdin) or "-1,2" stays a value. */
        const char *v = argv[i + 1];
        if (v[0] == '-' && v[1] == '-' && v[2] != '\0') {
            sl_cli_errf("samplab %s: %s needs a value, not the option '%s'\n", cmd, o->name,
                    sl_cli_esc(v, e2, sizeof e2));
            return 2;
        }
        a->text = argv[++i];
        if (parse_value(cmd, o, a->text, a))
            return 2;
    }
    return 0;
}

int sl_cli_parse(const char *cmd, int argc, char **argv, void (*help)(FILE *), sl_cli_parsed *p)
{
    const sl_cli_spec *s = sl_cli_spec_lookup(cmd);
    if (!s || parse(s, argc, argv, p))
        return 2;
    if (p->help) {
        help(stdout);
        return 0;
    }
    return -1;
}

sl_cli_opt sl_cli_refused(const sl_cli_parsed *p, unsigned groups, unsigned accepts)
{
    for (int o = SL_CLI_NONE + 1; o < SL_CLI_OPT_COUNT; o++) {
        const sl_cli_option *d = &sl_cli_options[o];
        if (p->a[o].given && (d->group & groups) && d->bit && !(d->bit & accepts))
            return (sl_cli_opt)o;
    }
    return SL_CLI_NONE;
}

const char *sl_cli_bit_names(unsigned bit, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int o = SL_CLI_NONE + 1; o < SL_CLI_OPT_COUNT && k < n; o++)
        if (sl_cli_options[o].bit == bit)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "/" : "", sl_cli_options[o].name);
    return buf;
}

int sl_cli_not_an_option(const char *cmd, const char *opt, const char *what, const char *name)
{
    char e[SL_CLI_ESC_MAX];
    sl_cli_errf("samplab %s: %s is not an option of %s %s\n", cmd, opt, what, sl_cli_esc(name, e, sizeof e));
    return 2;
}

/* One line per option: "--name ARG" in a 26-column field, the help beside it,
 * continuation lines of the help under it. */
static void help_line(FILE *f, sl_cli_opt id, const char *help)
{
    const sl_cli_option *o = &sl_cli_options[id];
    char head[64];
    snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    if (strlen(head) > 25)
        fprintf(f, "  %s\n  %-25s ", head, "");
    else
        fprintf(f, "  %-25s ", head);
    for (const char *c = help; *c; c++) {
        fputc(*c, f);
        if (*c == '\n')
            fprintf(f, "  %-25s ", "");
    }
    fputc('\n', f);
}

static void help_list(FILE *f, const sl_cli_spec *s, const sl_cli_take *list)
{
    for (const sl_cli_take *t = list; t && (t->group || t->opt); t++) {
        if (t->opt) {
            if (!group_take(s, sl_cli_options[t->opt].group))
                help_line(f, t->opt, t->help ? t->help : sl_cli_options[t->opt].help);
            continue;
        }
        if (group_take(s, t->group) != t)
            continue;
        for (int o = SL_CLI_NONE + 1; o < SL_CLI_OPT_COUNT; o++) {
            if (sl_cli_options[o].group != t->group)
                continue;
            const sl_cli_take *own = opt_take(s, (sl_cli_opt)o);
            help_line(f, (sl_cli_opt)o, own && own->help ? own->help : sl_cli_options[o].help);
        }
    }
}

void sl_cli_help_options(FILE *f, const sl_cli_spec *s, const char *title)
{
    fprintf(f, "%s\n", title);
    help_list(f, s, s->takes);
    help_list(f, s, s->shared);
}

void sl_cli_settings_from(const sl_cli_parsed *p, sl_api_settings *s)
{
    const sl_cli_arg *v = p->a;
    sl_cli_logits_args la;
    sl_api_settings_init(s);
    s->framework = v[SL_CLI_FRAMEWORK].text;
    s->method = v[SL_CLI_METHOD].text;
    s->rng = v[SL_CLI_RNG].text;
    s->seed = v[SL_CLI_SEED].text;
    s->stream = v[SL_CLI_STREAM].text;
    s->has_n = v[SL_CLI_N].given;
    s->n = v[SL_CLI_N].size;
    s->has_num_samples = v[SL_CLI_NUM_SAMPLES].given;
    s->num_samples = v[SL_CLI_NUM_SAMPLES].size;
    s->replacement = v[SL_CLI_REPLACEMENT].given;
    s->simd_sum = v[SL_CLI_SIMD_SUM].given;
    s->counts = v[SL_CLI_COUNTS].given;
    s->dtype = v[SL_CLI_DTYPE].text;
    s->torch = v[SL_CLI_TORCH].text;
    s->torch_build = v[SL_CLI_TORCH_BUILD].text;
    s->llamacpp = v[SL_CLI_LLAMACPP].text;
    s->rand = v[SL_CLI_RAND].text;
    s->cpu = v[SL_CLI_CPU].text;
    s->context = v[SL_CLI_CONTEXT].text;
    sl_cli_logits_from(p, &la);
    s->cfg = la.cfg;
    s->has_alpha = v[SL_CLI_ALPHA].given;
    s->alpha = v[SL_CLI_ALPHA].d;
    s->alpha_text = v[SL_CLI_ALPHA].text;
    s->has_null_reps = v[SL_CLI_NULL_REPS].given;
    s->null_reps = v[SL_CLI_NULL_REPS].size;
    s->has_trials = v[SL_CLI_TRIALS].given;
    s->trials = v[SL_CLI_TRIALS].size;
    s->tokens = v[SL_CLI_GEN_TOKENS].text;
    s->draws_file = v[SL_CLI_DRAWS].text;
    s->counts_file = v[SL_CLI_COUNTS_FILE].text;
    s->samplers = v[SL_CLI_SAMPLERS].text;
    s->sampling_seq = v[SL_CLI_SAMPLING_SEQ].text;
}

int sl_cli_parse_call(const char *cmd, int argc, char **argv, void (*help)(FILE *), sl_cli_parsed *p,
                      sl_api_settings *s, sl_api_src *src)
{
    int st = sl_cli_parse(cmd, argc, argv, help, p);
    if (st < 0) {
        sl_cli_settings_from(p, s);
        *src = sl_cli_src_from(p);
    }
    return st;
}

sl_api_src sl_cli_src_from(const sl_cli_parsed *p)
{
    const sl_cli_arg *v = p->a;
    /* both given is refused by the call as neither is: no source */
    const char *spec = v[SL_CLI_PROBS].given && v[SL_CLI_LOGITS].given ? NULL
                       : v[SL_CLI_PROBS].text                            ? v[SL_CLI_PROBS].text
                                                                         : v[SL_CLI_LOGITS].text;
    /* name: an inline list's messages name its option */
    sl_api_src src = {spec, v[SL_CLI_TENSOR].text, v[SL_CLI_ROW].given ? v[SL_CLI_ROW].l : -1, NULL, 0,
                      spec && v[SL_CLI_PROBS].given ? "--probs" : "--logits"};
    return src;
}
