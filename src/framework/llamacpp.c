/* llamacpp.c — llama.cpp's sampling as `samplab draw --framework llamacpp`
 * runs it: the default sampler chain (logits/llamacpp.c), then the dist
 * sampler.
 *
 * Reproduces llama.cpp src/llama-sampling.cpp llama_sampler_dist_apply as
 * ggml-org/llama.cpp PR #15704 "sampling : optimize dist sampler" (merged
 * 2025-08-31) made it, read at commit 0344068c: softmax over the current candidate array (expf in float, the
 * sum in double), one std::uniform_real_distribution<double>(0, 1) draw from
 * std::mt19937(seed), and the first array index whose running sum reaches
 * u · sum — in the candidate array's order after the chain (descending logit
 * once top-k or top-p has sorted it, typical order after typical, id order
 * when nothing sorted it). A one-candidate array is chosen without a draw.
 * Older llama.cpp (before PR #15704) normalised first and drew with
 * std::discrete_distribution, which turns the same words into a different
 * token: not this emulation. The open PR #24934 (p *= 1/sum instead of
 * p /= sum) would change the reported probabilities in the last bit only.
 *
 * The uniform double is libstdc++'s generate_canonical<double, 53> over a
 * 32-bit engine (GCC <= 14): two words, (w1 + w2 · 2^32) / 2^64 rounded to
 * double, 1.0 replaced by nextafter(1, 0); tests/oracle/stdcxx_uniform.cpp
 * checks it against this machine's libstdc++. libc++ and MSVC differ.
 *
 * The draw is the draw type draw/llama_dist.c (the uniform is
 * sl_rng_uniform_f64_stdcxx in rng/uniform.c); this file runs the chain, the
 * generator and the seeding, and maps array indices to token ids.
 *
 * A session is one sampler chain: the context is accepted first, and each
 * drawn token is accepted into the penalties history, as llama_sampler_sample
 * does, so `draw --n N` with penalties is N steps of a generation on the same
 * logits. Release lines (--llamacpp): 0.7.0 (build b11669, the default,
 * measured through libllama: data/golden/current/llamacpp_*) draws one uniform
 * even when one candidate is left, and common_sampler ends its chain in greedy
 * (no word) when the last stage is the temperature at temp <= 0 (so in the
 * default order, or a --samplers order ending in temperature); pr15704 (the commit 0344068c above) chose a
 * lone candidate without a draw and ran dist at T <= 0 too.
 *
 * --mirostat 1|2 and a chain naming adaptive_p end in a selecting stage
 * (logits/stage_mirostat.c, stage_adaptive_p.c) that draws with the session's
 * generator (the sampler's own std::mt19937(seed); the chain then has no
 * dist), 2 words a draw through std::discrete_distribution, none for a lone
 * candidate, in both release lines. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

/* What tells the release lines apart (a variant's code): the sampling code, and
 * the compiler libllama was built with, whose libstdc++ decides what a uniform
 * that rounds to 1 becomes (rng/sl_rng.h: sl_rng_stdcxx). v0.4.0's chains,
 * orders and stages equal 0.7.0's (data/golden/llamacpp_0.4.0/); node-llama-cpp
 * 3.21.1's prebuilt libllama.v0.4.0.so was built with GCC 11.4 on Ubuntu 22.04. */
enum {
    LLAMA_LONE_DRAW = 1, /* one candidate left still draws the uniform */
    LLAMA_GREEDY_T0 = 2, /* common_sampler ends in greedy after a last temperature at temp <= 0 */
    LLAMA_GCC14 = 4,     /* libstdc++ of GCC <= 14: a uniform of 1 becomes nextafter(1, 0) */
};
static const sl_fw_variant llamacpp_variants[] = {
    {"0.7.0", "llama.cpp 0.7.0 (build b11669)", LLAMA_LONE_DRAW | LLAMA_GREEDY_T0},
    {"0.4.0", "llama.cpp v0.4.0 as node-llama-cpp 3.21.1 ships it (build 1, commit 5b4ebc5, GCC 11.4)",
     LLAMA_LONE_DRAW | LLAMA_GREEDY_T0 | LLAMA_GCC14},
    {"pr15704", "llama.cpp at commit 0344068c (PR #15704, 2025-08)", LLAMA_GCC14},
    {NULL, NULL, 0},
};

/* LLAMA_DEFAULT_SEED (llama.h): llama_sampler_init_dist replaces it by a random seed. */
#define LLAMA_DEFAULT_SEED 0xFFFFFFFFu

typedef struct llama_state {
    sl_logits_chain *chain;   /* the stages in order, their history fed by accept */
    sl_logits_llama_array a;  /* the chain's candidates for the prepared vector and history */
    float *lf;
    double *ld;
    void *table;              /* the dist draw over them */
    sl_draw_type dist;        /* sl_draw_llama_dist_type with the release line's param */
    int greedy;               /* common_sampler at T <= 0 after a last temperature stage (0.7.0): greedy, no draw */
} llama_state;

/* Opens the chain of cfg (the framework's settings in force) for release line code; greedy 1:
 * it ends in greedy whatever its last stage (node-llama-cpp at temperature <= 0). */
static int llama_session(sl_fw_session *s, const sl_logits_cfg *in, int code, int greedy, sl_error *err)
{
    llama_state *st = calloc(1, sizeof *st);
    if (!(s->state = st))
        return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory");
    st->dist = sl_draw_llama_dist_type;
    st->dist.param = !(code & LLAMA_LONE_DRAW) ? &sl_draw_llama_pr15704
                     : (code & LLAMA_GCC14)   ? &sl_draw_llama_0_4_0
                                              : &sl_draw_llama_0_7_0;
    sl_logits_cfg cfg = *in; /* XTC's mt19937 takes the chain's seed, as common_sampler_init passes params.seed */
    cfg.has_seed = 1;
    cfg.seed = (uint32_t)s->o.seed.lo;
    cfg.stdcxx = (code & LLAMA_GCC14) ? SL_STDCXX_CLAMP : SL_STDCXX_REDRAW;
    int rc = sl_logits_chain_new_llama(&cfg, &st->chain, err);
    for (size_t i = 0; !rc && i < s->hist_n; i++) /* the context, as common_sampler_accept takes a prompt */
        rc = sl_logits_chain_accept(st->chain, s->hist[i], err);
    if (rc)
        return rc;
    /* 0.7.0: greedy after a last temperature stage at temp <= 0; pr15704 ran dist there too */
    st->greedy = greedy || ((code & LLAMA_GREEDY_T0) && sl_logits_chain_ends_greedy(st->chain));
    return SL_OK;
}

static int llamacpp_open(sl_fw_session *s, sl_error *err)
{
    const sl_fw_opts *o = &s->o;
    if (!o->has_seed)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework llamacpp needs --seed S: llama.cpp's default, LLAMA_DEFAULT_SEED "
                                 "(0xFFFFFFFF), means a random seed; llama_sampler_get_seed(chain) returns the one it "
                                 "used (llama-cli and llama-completion print it as 'sampler seed: N')");
    if (o->seed.hi || o->seed.lo >= LLAMA_DEFAULT_SEED)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework llamacpp: seed must be below 4294967295 (a uint32_t; 0xFFFFFFFF is "
                                 "LLAMA_DEFAULT_SEED, which llama.cpp replaces by a random seed: read the one it used "
                                 "with llama_sampler_get_seed(chain), printed as 'sampler seed: N', and give that)");
    return llama_session(s, &o->cfg, s->variant->code, 0, err);
}

/* node-llama-cpp 3.21.1: its chain (logits/node_llama_cpp.c) over its prebuilt
 * libllama.v0.4.0.so, the 0.4.0 line (GCC 11.4's libstdc++). The seed is
 * Math.max(0, Math.floor(seed)) taken by the addon as a uint32 (ToUint32);
 * left out, it is Math.floor(Date.now() / 1000), read again at every token:
 * when the second changes mid-generation the addon seeds a new dist (and XTC). */
static int nlc_open(sl_fw_session *s, sl_error *err)
{
    const sl_fw_opts *o = &s->o;
    if (!o->has_seed)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework node-llama-cpp needs --seed S: node-llama-cpp's default seed is the time "
                                 "in whole seconds, Math.floor(Date.now() / 1000), read again at every token (a new "
                                 "generator each second); give the seed the call gave");
    if (o->seed.hi || o->seed.lo >= LLAMA_DEFAULT_SEED)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework node-llama-cpp: seed must be below 4294967295: the addon takes it as a "
                                 "uint32 (seed mod 2^32: give that), and 0xFFFFFFFF is LLAMA_DEFAULT_SEED, which "
                                 "llama_sampler_init_dist replaces by a random seed");
    sl_logits_cfg cfg;
    int greedy, rc = sl_logits_nlc_cfg(&o->cfg, &cfg, &greedy, err);
    return rc ? rc : llama_session(s, &cfg, LLAMA_LONE_DRAW | LLAMA_GCC14, greedy, err);
}

/* Ollama v0.32.10 to v0.33.0-rc2: llama-server's chain for the fields Ollama sends
 * (logits/ollama_server.c), the v0.4.0 line with GCC <= 14's rule (gcc-toolset-13). llama-server
 * reads the seed as a uint32 (seed mod 2^32); Ollama's default -1 is LLAMA_DEFAULT_SEED. The
 * prompt joins the penalties' history (server_slot::init_sampler accepts its tokens). */
static int ollama_server_line(sl_fw_session *s, const sl_logits_pipeline_type *t, const char *line, int code,
                              sl_error *err)
{
    const sl_fw_opts *o = &s->o;
    if (!o->has_seed)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama %s needs --seed S: Ollama's default seed -1 reaches "
                                 "llama-server as LLAMA_DEFAULT_SEED, a random seed; give the seed the request gave",
                                 line);
    if (o->seed.hi || o->seed.lo >= LLAMA_DEFAULT_SEED)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama %s: seed must be below 4294967295: llama-server takes "
                                 "it as a uint32 (seed mod 2^32: give that), and 0xFFFFFFFF (-1) is a random seed",
                                 line);
    sl_logits_cfg cfg;
    int rc = sl_logits_ollama_server_cfg(t, &o->cfg, &cfg, err);
    return rc ? rc : llama_session(s, &cfg, code, 0, err);
}

static int ollama_server_open(sl_fw_session *s, sl_error *err)
{
    return ollama_server_line(s, &sl_logits_pipeline_ollama_server_type, "0.32",
                              LLAMA_LONE_DRAW | LLAMA_GREEDY_T0 | LLAMA_GCC14, err);
}

/* Ollama v0.30.0 to v0.32.9: llama.cpp b9452 to b10353, before b10355 (#25532) made
 * llama_sampler_dist_apply draw its uniform for a lone candidate too; gcc-toolset-11 and 13. */
static int ollama_server030_open(sl_fw_session *s, sl_error *err)
{
    return ollama_server_line(s, &sl_logits_pipeline_ollama_server_030_type, "0.30", LLAMA_GREEDY_T0 | LLAMA_GCC14,
                              err);
}

static void llama_clear(llama_state *st)
{
    if (st->table)
        st->dist.free(st->table);
    st->table = NULL;
    free(st->a.data);
    free(st->lf);
    free(st->ld);
    st->a.data = NULL;
    st->lf = NULL;
    st->ld = NULL;
}

static void llamacpp_close(sl_fw_session *s)
{
    if (s->state) {
        llama_clear(s->state);
        sl_logits_chain_free(((llama_state *)s->state)->chain);
    }
    free(s->state);
    s->state = NULL;
}

static int llamacpp_accept(sl_fw_session *s, long token, sl_error *err)
{
    return sl_logits_chain_accept(((llama_state *)s->state)->chain, token, err);
}

/* Whether f[0..n) holds a NaN or +infinity (-infinity is a logit llama.cpp takes): the bits with the sign
 * cleared at least +infinity's, and not -infinity's. Blocks of a fixed 64 with no branch inside, so that
 * gcc -O2 vectorises them; the entry itself is found only when there is one. */
static int has_bad(const float *f, size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        unsigned any = 0;
        for (size_t j = 0; j < 64; j++) {
            uint32_t u;
            memcpy(&u, &f[i + j], 4);
            any |= ((u & 0x7fffffffu) >= 0x7f800000u) & (u != 0xff800000u);
        }
        if (any)
            return 1;
    }
    for (; i < n; i++)
        if (isnan(f[i]) || f[i] == INFINITY)
            return 1;
    return 0;
}

static int llamacpp_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    llama_state *st = s->state;
    /* a selecting stage (mirostat's mu, adaptive_p's average) changes with every draw: run it each step */
    int selects = sl_logits_chain_selects(st->chain);
    int stale = selects || v != s->prepared_vec || !st->a.data || sl_logits_chain_random(st->chain) ||
                (sl_logits_chain_stateful(st->chain) && s->hist_n != s->prepared_hist);
    if (stale) {
        llama_clear(st);
        for (size_t i = 0, bad = has_bad(v->f, v->n); bad && i < v->n; i++)
            if (isnan(v->f[i]) || v->f[i] == INFINITY)
                return sl_base_error_set(err, SL_EINVAL, "%s: entry %zu is %s", v->source, i,
                                         isnan(v->f[i]) ? "NaN" : "+infinity in float32");
        uint64_t w0 = sl_logits_chain_words(st->chain);
        int rc = sl_logits_chain_run(st->chain, v->f, v->n, &st->a, NULL, err);
        /* XTC's words join the dist's in the step's count (two streams, one total) */
        s->rng.words += sl_logits_chain_words(st->chain) - w0;
        if (rc)
            return rc;
        if (selects) { /* mirostat, adaptive_p: their own cut and draw with the session's generator */
            size_t sel = 0;
            if ((rc = sl_logits_chain_select(st->chain, &st->a, &s->rng, &sel, err)))
                return rc;
            *kept = st->a.size;
            s->tokens[0] = st->a.data[sel].id;
            return SL_OK;
        }
        size_t n = st->a.size;
        st->lf = malloc((n ? n : 1) * sizeof *st->lf);
        st->ld = malloc((n ? n : 1) * sizeof *st->ld);
        if (!st->lf || !st->ld)
            return sl_base_error_set(err, SL_ENOMEM, "llamacpp: out of memory for %zu candidates", n);
        /* the dist draw type reads the candidates' logits in array order */
        for (size_t i = 0; i < n; i++)
            st->ld[i] = st->lf[i] = st->a.data[i].logit;
        sl_draw_dist dist = {n, st->ld, st->lf, SL_F32, v->source, st->a.sorted};
        if (!st->greedy && (rc = sl_draw_prepare_dist(&st->dist, &st->table, &dist, err)))
            return rc;
    }
    *kept = st->a.size;
    size_t sel = 0;
    if (st->greedy) { /* llama_sampler_greedy: the first maximum, no word */
        for (size_t i = 1; i < st->a.size; i++)
            if (st->a.data[i].logit > st->a.data[sel].logit)
                sel = i;
    } else {
        sel = st->dist.draw(st->table, &s->rng);
    }
    s->tokens[0] = st->a.data[sel].id;
    return SL_OK;
}

/* The distribution the next step draws from: the pipeline's, or for a chain ending in a selecting
 * stage, that stage's cut and probabilities under its state now (on a clone, without a draw). */
static int llamacpp_probs(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err)
{
    llama_state *st = s->state;
    if (!sl_logits_chain_selects(st->chain))
        return sl_fw_probs_of_pipeline(s, v, out, err);
    sl_logits_chain *c;
    int rc = sl_logits_chain_clone(st->chain, &c, err);
    if (rc)
        return rc;
    sl_logits_llama_array a = {0};
    size_t idx;
    if (!(rc = sl_logits_chain_run(c, v->f, v->n, &a, NULL, err)) &&
        !(rc = sl_logits_chain_select(c, &a, NULL, &idx, err)) && !(rc = sl_logits_result_alloc(out, v->n, err))) {
        out->precision = 32;
        for (size_t i = 0; i < a.size; i++) {
            out->probs[a.data[i].id] = a.data[i].p;
            out->kept[a.data[i].id] = 1;
        }
        out->n_kept = a.size;
        sl_logits_step(out, sl_logits_chain_stage(c, sl_logits_chain_n(c) - 1)->label);
    }
    free(a.data);
    sl_logits_chain_free(c);
    return rc;
}

const sl_fw_type sl_fw_llamacpp_type = {
    .name = "llamacpp",
    .summary = "llama.cpp common_sampler chain + dist: std::mt19937(seed), libstdc++ uniform double, pick in array "
               "order; each drawn token joins the penalties history",
    .variant_bit = SL_OPT_LLAMA_VERSION,
    .variants = llamacpp_variants,
    .replacement_why = "llama.cpp's dist sampler draws one token a step: it has no replacement setting",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_TYPICAL |
               SL_OPT_PENALTY | SL_OPT_MIN_KEEP | SL_OPT_LLAMA_VERSION | SL_OPT_LAST_N |
               SL_OPT_FREQ_PRESENCE | SL_OPT_ORDER,
    .input_why = "its samplers work on logits",
    .pipeline = &sl_logits_pipeline_llamacpp_type,
    .draw = &sl_draw_llama_dist_type,
    .rng = "mt19937",
    .rng_label = "std-mt19937",
    .accepts_drawn = 1,
    .open = llamacpp_open,
    .step = llamacpp_step,
    .probs = llamacpp_probs,
    .close = llamacpp_close,
    .accept = llamacpp_accept,
    .exact = &sl_draw_llama_dist_exact,
};

static const sl_fw_variant ollama_server_variants[] = {
    {"0.32", SL_FW_OLLAMA_SERVER_VERSION, 32},
    {NULL, NULL, 0},
};

/* The two Ollama lines differ in their pipeline (defaults, refusals) and their open (the lone
 * candidate's draw); the rest is llama-server's session. The chain's last draw is llama.cpp's
 * dist over GCC <= 14's word pairs (a lone candidate has probability 1 with or without a word). */
#define OLLAMA_SERVER_TYPE(summary_text, line_variants, line_pipeline, line_open)                               \
    {                                                                                                         \
        .name = "ollama", .summary = summary_text, .variant_bit = SL_OPT_OLLAMA_VERSION,                     \
        .variants = line_variants,                                                                            \
        .replacement_why = "Ollama's sampler draws one token a step: it has no replacement setting",           \
        .accepts = SL_LOGITS_OLLAMA_SERVER_ACCEPTS, .input_why = "its samplers work on logits",               \
        .pipeline = line_pipeline, .draw = &sl_draw_llama_dist_type, .rng = "mt19937",                       \
        .rng_label = "std-mt19937", .accepts_drawn = 1, .open = line_open, .step = llamacpp_step,             \
        .probs = llamacpp_probs, .close = llamacpp_close, .accept = llamacpp_accept,                          \
        .exact = &sl_draw_llama_dist_exact,                                                                   \
    }

const sl_fw_type sl_fw_ollama_server_type =
    OLLAMA_SERVER_TYPE("Ollama v0.32.10+ (--ollama 0.32): llama-server's default chain over llama.cpp v0.4.0 + dist: "
                       "std::mt19937(seed); Ollama's defaults T 0.8, top_k 40, top_p 0.9, min_p 0",
                       ollama_server_variants, &sl_logits_pipeline_ollama_server_type, ollama_server_open);

static const sl_fw_variant ollama_server030_variants[] = {
    {"0.30", SL_FW_OLLAMA_SERVER030_VERSION, 30},
    {NULL, NULL, 0},
};

const sl_fw_type sl_fw_ollama_server030_type =
    OLLAMA_SERVER_TYPE("Ollama v0.30.0 to v0.32.9 (--ollama 0.30): llama-server's default chain over llama.cpp b9452 "
                       "to b10353 + dist: std::mt19937(seed), no word for a lone candidate; Ollama's defaults T 0.8, "
                       "top_k 40, top_p 0.9, min_p 0, repeat_penalty 1.1",
                       ollama_server030_variants, &sl_logits_pipeline_ollama_server_030_type, ollama_server030_open);

static const char *nlc_note(const sl_fw_opts *o)
{
    return sl_logits_pipeline_nlc_type.note(&o->cfg);
}

const sl_fw_type sl_fw_nlc_type = {
    .name = "node-llama-cpp",
    .summary = "node-llama-cpp 3.21.1's chain (token bias, penalties, dry, top-k, top-p, min-p, xtc, temp) + dist over "
               "llama.cpp v0.4.0: std::mt19937(seed); greedy at T <= 0 (its default)",
    .replacement_why = "llama.cpp's dist sampler draws one token a step: it has no replacement setting",
    .accepts = SL_LOGITS_NLC_ACCEPTS,
    .input_why = "its samplers work on logits",
    .pipeline = &sl_logits_pipeline_nlc_type,
    .draw = &sl_draw_llama_dist_type,
    .rng = "mt19937",
    .rng_label = "std-mt19937",
    .version = "node-llama-cpp 3.21.1 (its prebuilt libllama, llama.cpp v0.4.0)",
    .accepts_drawn = 1,
    .open = nlc_open,
    .step = llamacpp_step,
    .probs = llamacpp_probs,
    .close = llamacpp_close,
    .accept = llamacpp_accept,
    .note = nlc_note,
};
