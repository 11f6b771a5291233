/* stages.c — section "llama.cpp's stages, one at a time": what each stage of
 * llama.cpp's sampler chain (logits/stage_*.c) does to one distribution (the
 * k40p09 vector, or the user's --logits): the candidates it keeps, the
 * probability of the first and the entropy of what dist then draws from, the
 * words one step spends and the token seed S gives; then the same seed through
 * the engines that run that chain with their own defaults (llama-server and
 * llama-cli 0.7.0, node-llama-cpp's libllama v0.4.0 with llama.cpp's
 * defaults, node-llama-cpp 3.21.1 with its own, Ollama 0.24's Go sampler). Every row is a `samplab pipeline`,
 * `replay` or `draw` command, printed below the tables. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

#define ST_DRAWS 12 /* tokens of the engines' rows */
#define ST_ENGINES 6
#define ST_ROW_FILE "stages_row.txt" /* inputs/: the vector as one step, for replay */

/* One row: the stage order (--samplers; NULL: the default chain) and the
 * settings beside it (0: not given); random rows (XTC, mirostat) have no
 * `pipeline` (their cut needs the draw's seed). The replay commands print the
 * settings as the command line spells them (row_args). */
typedef struct st_row {
    const char *label;
    const char *samplers;
    double temp, dyn_range, typical, top_p, min_p, nsigma, penalty, xtc_p, xtc_t;
    long top_k, mirostat;
    int random;
} st_row;

static const st_row rows[] = {
    {"temperature 1 (nothing cut)", "temperature", .temp = 1},
    {"top-k 40", "top_k", .top_k = 40},
    {"typical 0.9", "typ_p", .typical = 0.9},
    {"top-p 0.95", "top_p", .top_p = 0.95},
    {"min-p 0.05", "min_p", .min_p = 0.05},
    {"top-n-sigma 1", "top_n_sigma", .nsigma = 1},
    {"temperature 0.7", "temperature", .temp = 0.7},
    {"dynamic temperature 0.8 +- 0.5", "temperature", .temp = 0.8, .dyn_range = 0.5},
    {"repetition penalty 1.5 (the top 4 ids, twice)", "penalties", .penalty = 1.5},
    {"XTC p 1, threshold 0.05", "xtc", .xtc_p = 1, .xtc_t = 0.05, .random = 1},
    {"mirostat v2 (tau 5, eta 0.1)", NULL, .mirostat = 2, .random = 1},
    {"the default chain (llama-server, llama-cli)", NULL, .random = 0},
};
#define NROWS (sizeof rows / sizeof *rows)

typedef struct st_out {
    int rc;
    char msg[sizeof(sl_error)];
    size_t kept;              /* after the chain: pipeline's count, or the session's for random rows */
    double ptop, entropy;     /* of the pipeline's distribution (not for random rows) */
    uint64_t words;           /* one step's words */
    long token;               /* the token of seed S */
} st_out;

typedef struct st_engine {
    const char *label, *framework, *option, *variant;
    int rc;
    char msg[sizeof(sl_error)];
    long tokens[ST_DRAWS];
    uint64_t words;
} st_engine;

typedef struct st_state {
    sl_report_dist k40;
    int own;                  /* k40 read here (else ctx->big) */
    const sl_report_dist *d;
    long context[8];
    char context_text[96];
    st_out out[NROWS];
    st_engine eng[ST_ENGINES];
} st_state;

/* Row i's settings, as the command line sets its options. */
static int row_cfg(const st_state *s, size_t i, sl_logits_cfg *c, sl_error *err)
{
    const st_row *r = &rows[i];
    memset(c, 0, sizeof *c);
    int rc = r->samplers ? sl_logits_llama_order_parse(r->samplers, 0, c, err) : 0;
    c->has_temperature = r->temp != 0, c->temperature = r->temp;
    c->has_dyn_range = r->dyn_range != 0, c->dyn_range = r->dyn_range;
    c->has_top_k = r->top_k != 0, c->top_k = r->top_k;
    c->has_typical = r->typical != 0, c->typical = r->typical;
    c->has_top_p = r->top_p != 0, c->top_p = r->top_p;
    c->has_min_p = r->min_p != 0, c->min_p = r->min_p;
    c->has_nsigma = r->nsigma != 0, c->nsigma = r->nsigma;
    c->has_penalty = r->penalty != 0, c->penalty = r->penalty;
    if (r->penalty != 0)
        c->context = s->context, c->context_n = 8;
    c->has_xtc_p = c->has_xtc_t = r->xtc_p != 0, c->xtc_p = r->xtc_p, c->xtc_t = r->xtc_t;
    c->has_mirostat = r->mirostat != 0, c->mirostat = r->mirostat;
    return rc;
}

/* Row i's options after --samplers, each with a leading space, as row_cfg sets them. */
static void row_args(const st_state *s, size_t i, char *buf, size_t len)
{
    const st_row *r = &rows[i];
    size_t n = 0;
    buf[0] = '\0';
#define ADD(...) n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__)
    if (r->temp != 0)
        ADD(" --temperature %g", r->temp);
    if (r->dyn_range != 0)
        ADD(" --dynatemp-range %g", r->dyn_range);
    if (r->top_k != 0)
        ADD(" --top-k %ld", r->top_k);
    if (r->typical != 0)
        ADD(" --typical %g", r->typical);
    if (r->top_p != 0)
        ADD(" --top-p %g", r->top_p);
    if (r->min_p != 0)
        ADD(" --min-p %g", r->min_p);
    if (r->nsigma != 0)
        ADD(" --top-nsigma %g", r->nsigma);
    if (r->penalty != 0)
        ADD(" --repetition-penalty %g --context %s", r->penalty, s->context_text);
    if (r->xtc_p != 0)
        ADD(" --xtc-probability %g --xtc-threshold %g", r->xtc_p, r->xtc_t);
    if (r->mirostat != 0)
        ADD(" --mirostat %ld", r->mirostat);
#undef ADD
}

static int st_run_row(const sl_report_ctx *ctx, st_state *s, size_t i, sl_error *err)
{
    st_out *o = &s->out[i];
    sl_logits_cfg c;
    sl_error e;
    if ((o->rc = row_cfg(s, i, &c, &e)))
        return sl_report_refusal(o->rc, &e, o->msg, sizeof o->msg, err);
    if (!rows[i].random) {
        sl_logits_result r;
        if ((o->rc = sl_logits_pipeline_run(&sl_logits_pipeline_llamacpp_type, &s->d->lvec, &c, &r, &e)))
            return sl_report_refusal(o->rc, &e, o->msg, sizeof o->msg, err);
        o->kept = r.n_kept;
        for (size_t j = 0; j < r.V; j++) {
            if (r.probs[j] > o->ptop)
                o->ptop = r.probs[j];
            if (r.probs[j] > 0)
                o->entropy -= r.probs[j] * log(r.probs[j]);
        }
        sl_logits_result_free(&r);
    }
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.logits = &s->d->lvec;
    fo.cfg = c;
    fo.has_seed = 1;
    fo.seed.lo = ctx->seed;
    fo.k = 1;
    sl_fw_session ss;
    if ((o->rc = sl_fw_session_open(&ss, &sl_fw_llamacpp_type, &fo, &e)))
        return sl_report_refusal(o->rc, &e, o->msg, sizeof o->msg, err);
    sl_fw_step st;
    o->rc = sl_fw_session_step(&ss, &s->d->lvec, &st, &e);
    if (!o->rc) {
        o->token = st.tokens[0];
        o->words = st.words;
        if (rows[i].random)
            o->kept = st.kept;
    }
    sl_fw_session_close(&ss);
    return o->rc ? sl_report_refusal(o->rc, &e, o->msg, sizeof o->msg, err) : 0;
}

static int st_run_engine(const sl_report_ctx *ctx, const st_state *s, st_engine *g, sl_error *err)
{
    const sl_fw_type *ft = sl_fw_lookup_as(g->framework, g->variant);
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.logits = &s->d->lvec;
    fo.has_seed = 1;
    fo.seed.lo = ctx->seed;
    fo.n = ST_DRAWS;
    fo.k = 1;
    fo.variant = g->variant;
    sl_fw_result res;
    sl_error e;
    if (!ft)
        return sl_base_error_set(err, SL_EINVAL, "stages: no framework %s", g->framework);
    if ((g->rc = sl_fw_run(ft, &fo, &res, &e)))
        return sl_report_refusal(g->rc, &e, g->msg, sizeof g->msg, err);
    for (size_t t = 0; t < ST_DRAWS && t < res.n; t++)
        g->tokens[t] = res.tokens[t];
    g->words = res.words;
    sl_fw_result_free(&res);
    return 0;
}

static void st_release(void *state)
{
    st_state *s = state;
    if (s && s->own)
        sl_report_dist_free(&s->k40);
    free(s);
}

static int st_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    *state = NULL;
    st_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "stages: out of memory");
    sl_error e;
    s->d = &ctx->big;
    if (!ctx->logits_src && !sl_report_dist_read(&s->k40, SL_REPORT_K40_NAME, SL_REPORT_K40_PATH, &e)) {
        s->own = 1;
        s->d = &s->k40;
    }
    *state = s;
    return 0;
}

/* The 4 ids of highest logit (ties by id), twice: the penalty row's history. */
static void st_context(st_state *s)
{
    const sl_vec *v = &s->d->lvec;
    long top[4] = {-1, -1, -1, -1};
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; i < v->n; i++) {
            int used = 0;
            for (int q = 0; q < k; q++)
                used |= top[q] == (long)i;
            if (!used && (top[k] < 0 || v->f[i] > v->f[top[k]]))
                top[k] = (long)i;
        }
    size_t n = 0;
    for (int r = 0; r < 8; r++) {
        s->context[r] = top[r % 4];
        n += (size_t)snprintf(s->context_text + n, sizeof s->context_text - n, "%s%ld", r ? "," : "", top[r % 4]);
    }
}

static int st_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    st_state *s = state;
    const char *src = s->d->src ? s->d->src : "LOGITS";
    st_context(s);
    int rc = 0;
    for (size_t i = 0; i < NROWS && !rc; i++)
        rc = st_run_row(ctx, s, i, err);
    static const st_engine engines[ST_ENGINES] = {
        {"llama-server, llama-cli 0.7.0 (llama.cpp's defaults)", "llamacpp", "", NULL, 0, "", {0}, 0},
        {"node-llama-cpp 3.21.1's libllama v0.4.0, llama.cpp's defaults", "llamacpp", " --llamacpp 0.4.0", "0.4.0", 0,
         "", {0}, 0},
        {"node-llama-cpp 3.21.1 (its defaults: temperature 0, greedy)", "node-llama-cpp", "", NULL, 0, "", {0}, 0},
        {"Ollama v0.32.10+ (llama-server's chain, Ollama's defaults)", "ollama", " --ollama 0.32", "0.32", 0, "",
         {0}, 0},
        {"Ollama v0.30.0 to v0.32.9 (llama.cpp b9452 to b10353, repeat penalty 1.1)", "ollama", " --ollama 0.30",
         "0.30", 0, "", {0}, 0},
        {"Ollama 0.24's Go sampler (its defaults)", "ollama", " --ollama 0.24", "0.24", 0, "", {0}, 0},
    };
    for (size_t i = 0; i < ST_ENGINES && !rc; i++) {
        s->eng[i] = engines[i];
        rc = st_run_engine(ctx, s, &s->eng[i], err);
    }
    if (rc)
        return rc;
    /* the vector as a one-step generation (replay reads a text row per step), float32 round-trip */
    sl_buf row;
    sl_io_buf_init(&row);
    for (size_t i = 0; i < s->d->lvec.n; i++)
        sl_io_buf_printf(&row, "%s%.9g", i ? "," : "", (double)s->d->lvec.f[i]);
    sl_io_buf_puts(&row, "\n");
    rc = sl_report_write(ctx, "inputs/" ST_ROW_FILE, &row, err);
    sl_io_buf_free(&row);
    if (rc)
        return rc;
    sl_io_buf_printf(md,
                     "Each of llama.cpp's stages alone (`--samplers NAME`) on one distribution, %s\n"
                     "(V = %zu), then its dist draw with seed %llu: the candidates the stage keeps, the\n"
                     "probability of the first and the entropy of what dist draws from (as `samplab\n"
                     "pipeline` prints them), the words one step spends (dist: 2; XTC draws one more from\n"
                     "its own mt19937, also when it cuts nothing) and the token. XTC and mirostat cut by a\n"
                     "draw of their own, so their rows come from one step of `samplab replay`; mirostat\n"
                     "replaces the chain (temperature, then its own cut and draw).\n\n",
                     s->d->name, s->d->lvec.n, (unsigned long long)ctx->seed);
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 6);
    for (size_t i = 0; i < NROWS; i++) {
        const st_out *o = &s->out[i];
        sl_io_md_rows_cell(&t, "%s", rows[i].label);
        if (o->rc) {
            sl_io_md_rows_cell(&t, "refused: %s", o->msg);
            for (int k = 0; k < 4; k++)
                sl_io_md_rows_cell(&t, "-");
            continue;
        }
        sl_io_md_rows_cell(&t, "%zu", o->kept);
        if (rows[i].random) {
            sl_io_md_rows_cell(&t, "-");
            sl_io_md_rows_cell(&t, "-");
        } else {
            sl_io_md_rows_cell(&t, "%.4f", o->ptop);
            sl_io_md_rows_cell(&t, "%.4f", o->entropy);
        }
        sl_io_md_rows_cell(&t, "%llu", (unsigned long long)o->words);
        sl_io_md_rows_cell(&t, "%ld", o->token);
    }
    static const char *const head[6] = {"stage", "kept", "p(first)", "entropy (nats)", "words", "token"};
    sl_io_md_rows_emit(md, &t, head, "lrrrrr");
    sl_io_md_rows_free(&t);

    sl_io_buf_printf(md, "\nThe same seed through the engines that run this chain, each with its own defaults\n"
                         "for what is left unset (%d draws; each drawn token joins the history):\n\n",
                     ST_DRAWS);
    sl_io_md_rows_init(&t, 3);
    for (size_t i = 0; i < ST_ENGINES; i++) {
        const st_engine *g = &s->eng[i];
        sl_io_md_rows_cell(&t, "%s", g->label);
        if (g->rc) {
            sl_io_md_rows_cell(&t, "refused: %s", g->msg);
            sl_io_md_rows_cell(&t, "-");
            continue;
        }
        char buf[256];
        size_t n = 0;
        buf[0] = '\0';
        for (size_t k = 0; k < ST_DRAWS; k++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%ld", k ? " " : "", g->tokens[k]);
        sl_io_md_rows_cell(&t, "%s", buf);
        sl_io_md_rows_cell(&t, "%llu", (unsigned long long)g->words);
    }
    static const char *const head2[3] = {"engine", "tokens", "words"};
    sl_io_md_rows_emit(md, &t, head2, "llr");
    sl_io_md_rows_free(&t);
    sl_io_buf_puts(md, "\nllama.cpp v0.4.0 and 0.7.0 sample alike; they part only where a uniform rounds to 1,\n"
                       "which the compiler decides (docs/versions.md). node-llama-cpp builds its own chain over\n"
                       "them with its own defaults (temperature 0: greedy; docs/pipelines.md). Ollama v0.32.10 and\n"
                       "later send each request to llama-server: its chain with Ollama's defaults (top-p 0.9,\n"
                       "min-p 0; docs/ollama.md); v0.30.0 to v0.32.9 ran older builds, which draw no uniform for a\n"
                       "lone candidate, with a repeat penalty of 1.1 by default.\n\nReplay a row (DIR is the report's directory, `reports` for `make report`):\n\n");
    for (size_t i = 0; i < NROWS; i++) {
        if (s->out[i].rc)
            continue;
        char order[128] = "", args[256];
        if (rows[i].samplers)
            snprintf(order, sizeof order, " --samplers %s", rows[i].samplers);
        row_args(s, i, args, sizeof args);
        if (rows[i].random)
            sl_io_buf_printf(md,
                             "    samplab replay --framework llamacpp --logits DIR/inputs/" ST_ROW_FILE
                             " --seed %llu%s%s --json\n",
                             (unsigned long long)ctx->seed, order, args);
        else
            sl_io_buf_printf(md, "    samplab pipeline --framework llamacpp --logits %s%s%s\n", src, order, args);
    }
    for (size_t i = 0; i < ST_ENGINES; i++)
        if (!s->eng[i].rc)
            sl_io_buf_printf(md, "    samplab draw --framework %s%s --logits %s --seed %llu --n %d\n",
                             s->eng[i].framework, s->eng[i].option, src, (unsigned long long)ctx->seed, ST_DRAWS);
    sl_io_buf_puts(md, "\nRemake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "stages");
    return 0;
}

const sl_report_section sl_report_section_stages = {"stages", "llama.cpp's stages, one at a time", st_plan, st_emit,
                                                     st_release};
