/* commands.c — which command takes which options: the groups and single
 * options of the schema (schema.c) each command declares. The command line
 * (cli/options.c) parses and lists --help from these tables, and
 * sl_api_settings_set refuses, by name, an option the settings' command does
 * not take, so a binding's keyword is taken or refused as the command line's
 * option is. */
#include <string.h>

#include "api/sl_api.h"

#define G(g) {g, SL_API_OPT_NONE}
#define O(o) {0, o}
#define END {0, SL_API_OPT_NONE}

static const sl_api_take draw_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_ROW_SEEDS),
    O(SL_API_OPT_STREAM),
    O(SL_API_OPT_N),
    O(SL_API_OPT_COUNTS),
    O(SL_API_OPT_JSON),
    G(SL_API_G_FRAMEWORK),
    O(SL_API_OPT_REPETITION_PENALTY),
    G(SL_API_G_SAMPLING),
    G(SL_API_G_LLAMA_PENALTY),
    O(SL_API_OPT_SAMPLERS),
    O(SL_API_OPT_SAMPLING_SEQ),
    O(SL_API_OPT_CONTEXT_FILE),
    /* generate()'s: taken to be refused by name (a generation's, replay and check) */
    O(SL_API_OPT_NUM_RETURN_SEQUENCES),
    O(SL_API_OPT_EOS_TOKEN_ID),
    O(SL_API_OPT_PAD_TOKEN_ID),
    END,
};
static const sl_api_take logits_cmd_takes[] = {
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_ROW),
    G(SL_API_G_SAMPLING),
    O(SL_API_OPT_CPU),
    G(SL_API_G_LLAMA_PENALTY),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_api_take pipeline_takes[] = {
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_SAMPLERS),
    O(SL_API_OPT_SAMPLING_SEQ),
    O(SL_API_OPT_OLLAMA),
    END,
};
static const sl_api_take compare_takes[] = {
    O(SL_API_OPT_FRAMEWORKS),
    O(SL_API_OPT_OLLAMA),
    O(SL_API_OPT_TOP),
    END,
};
static const sl_api_take rng_takes[] = {
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_STREAM),
    O(SL_API_OPT_N),
    O(SL_API_OPT_BINARY),
    END,
};
static const sl_api_take gof_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_DRAWS),
    O(SL_API_OPT_COUNTS_FILE),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_N),
    O(SL_API_OPT_ALPHA),
    O(SL_API_OPT_NULL_REPS),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_api_take power_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_N),
    O(SL_API_OPT_ALPHA),
    O(SL_API_OPT_TRIALS),
    O(SL_API_OPT_TARGET),
    O(SL_API_OPT_FAULT),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_api_take calibrate_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_N),
    O(SL_API_OPT_SEEDS),
    O(SL_API_OPT_FIRST_SEED),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_api_take exact_takes[] = {
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_REPLACEMENT),
    O(SL_API_OPT_NO_REPLACEMENT),
    O(SL_API_OPT_NUM_SAMPLES),
    O(SL_API_OPT_TORCH),
    O(SL_API_OPT_DTYPE),
    O(SL_API_OPT_RAND),
    O(SL_API_OPT_OLLAMA),
    O(SL_API_OPT_TOKENS),
    O(SL_API_OPT_JSON),
    O(SL_API_OPT_REPORT_DATA),
    END,
};
static const sl_api_take bench_takes[] = {
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_CONTEXT),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_TORCH),
    O(SL_API_OPT_CPU),
    O(SL_API_OPT_REPETITION_PENALTY),
    G(SL_API_G_SAMPLING),
    O(SL_API_OPT_N),
    O(SL_API_OPT_JSON),
    END,
};
/* replay and check: per-step rows, the prompt, a framework's settings */
static const sl_api_take gen_takes[] = {
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_PROBS),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_CONTEXT),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_ROW_SEEDS),
    O(SL_API_OPT_DTYPE),
    O(SL_API_OPT_TORCH),
    O(SL_API_OPT_LLAMACPP),
    O(SL_API_OPT_RAND),
    O(SL_API_OPT_OLLAMA),
    O(SL_API_OPT_SGLANG),
    O(SL_API_OPT_VLLM),
    O(SL_API_OPT_POSITION),
    O(SL_API_OPT_SGLANG_SORTED),
    O(SL_API_OPT_TRANSFORMERSJS),
    O(SL_API_OPT_JAX_PARTITIONABLE),
    O(SL_API_OPT_TFJS),
    O(SL_API_OPT_CPU),
    O(SL_API_OPT_SIMD_SUM),
    G(SL_API_G_SAMPLING),
    G(SL_API_G_LLAMA_PENALTY),
    O(SL_API_OPT_SAMPLERS),
    O(SL_API_OPT_SAMPLING_SEQ),
    O(SL_API_OPT_JSON),
    O(SL_API_OPT_CONTEXT_FILE),
    O(SL_API_OPT_NUM_RETURN_SEQUENCES),
    O(SL_API_OPT_EOS_TOKEN_ID),
    O(SL_API_OPT_PAD_TOKEN_ID),
    END,
};
static const sl_api_take replay_takes[] = {
    END,
};
static const sl_api_take check_takes[] = {
    O(SL_API_OPT_GEN_TOKENS),
    O(SL_API_OPT_ALPHA),
    O(SL_API_OPT_TRIALS),
    END,
};
/* report prints its own help (cli/report.c) */
static const sl_api_take report_takes[] = {
    O(SL_API_OPT_OUT),
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_ROW),
    O(SL_API_OPT_N),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_JOBS),
    O(SL_API_OPT_ONLY),
    O(SL_API_OPT_NO_PLOT),
    END,
};
static const sl_api_take sweep_takes[] = {
    O(SL_API_OPT_SPEC),
    O(SL_API_OPT_OUT),
    O(SL_API_OPT_RESUME),
    END,
};
static const sl_api_take audit_takes[] = {
    O(SL_API_OPT_SERVER),
    O(SL_API_OPT_API),
    O(SL_API_OPT_MODEL),
    O(SL_API_OPT_PROMPT),
    O(SL_API_OPT_PROMPT_IDS),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_N_PREDICT),
    O(SL_API_OPT_N_PROBS),
    O(SL_API_OPT_REQUESTS),
    O(SL_API_OPT_CONCURRENT),
    O(SL_API_OPT_SEND),
    O(SL_API_OPT_TIMEOUT),
    O(SL_API_OPT_OUT),
    O(SL_API_OPT_LOG),
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_LLAMACPP),
    O(SL_API_OPT_OLLAMA),
    G(SL_API_G_SAMPLING),
    G(SL_API_G_LLAMA_PENALTY),
    O(SL_API_OPT_REPETITION_PENALTY),
    O(SL_API_OPT_SAMPLERS),
    O(SL_API_OPT_SAMPLING_SEQ),
    O(SL_API_OPT_ALPHA),
    O(SL_API_OPT_TRIALS),
    O(SL_API_OPT_JSON),
    END,
};
#undef G
#undef O
#undef END

const sl_api_cmd sl_api_cmds[] = {
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
    {"audit", audit_takes, NULL},
    {NULL, NULL, NULL},
};

const sl_api_cmd *sl_api_cmd_lookup(const char *cmd)
{
    for (const sl_api_cmd *s = sl_api_cmds; s->name; s++)
        if (!strcmp(s->name, cmd))
            return s;
    return NULL;
}

/* The first take in s's lists naming option o itself (o not NONE) or group g
 * (g not 0); NULL if none. An option s takes both ways is listed with its
 * group, with the option take's help. */
static const sl_api_take *take_of(const sl_api_cmd *s, sl_api_opt o, unsigned g)
{
    const sl_api_take *lists[2] = {s->takes, s->shared};
    for (int l = 0; l < 2; l++)
        for (const sl_api_take *t = lists[l]; t && (t->group || t->opt); t++)
            if ((o != SL_API_OPT_NONE && t->opt == o) || (g && t->group == g))
                return t;
    return NULL;
}

const sl_api_take *sl_api_cmd_group(const sl_api_cmd *s, unsigned g)
{
    return take_of(s, SL_API_OPT_NONE, g);
}

/* The number of entries in the schema, the not-modelled settings included. */
int sl_api_option_count(void)
{
    static int n;
    if (!n)
        while (sl_api_options[n + 1].name)
            n++;
    return n + 1;
}

int sl_api_cmd_takes(const sl_api_cmd *s, sl_api_opt o)
{
    return o > SL_API_OPT_NONE && (int)o < sl_api_option_count() &&
           (take_of(s, o, 0) || take_of(s, SL_API_OPT_NONE, sl_api_options[o].group));
}
