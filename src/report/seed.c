/* seed.c — section "Why the same seed gives other tokens": runs every
 * registered framework emulation with one seed on one vector and prints their
 * first 20 tokens with the words each has consumed, then gives the
 * exponential race and the cdf method one and the same generator (pcg32, same
 * seed) to show that their word streams fall out of step after the first
 * draw; and the same vector twice in one torch.multinomial batch (framework/batch.c,
 * as transformers draws a batch of prompts), whose second row draws other tokens
 * than the vector alone; and vLLM's batch of a seeded and an unseeded request, where only
 * the unseeded one draws other tokens than alone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

#define SEED_STEPS 20
#define SEED_VLLM_OWN 7 /* the seeded request's own seed */
#define SEED_VLLM_FILE "vllm_requests.txt" /* inputs/: the two requests' logits */
#define SEED_VLLM_LINE "0.9"               /* --vllm: the line whose batch takes a request without a seed */

/* Frameworks run only when named (not in sl_fw_types) that take any vector with a seed alone,
 * given a row here too: the browser's samplers and the counter-based ones (one name a line;
 * absent ones are skipped). */
static const char *const seed_named[] = {
    "transformers-js",
    "tfjs",
    "jax",
    "mlx",
    NULL,
};

typedef struct seed_fw {
    const sl_fw_type *fw;
    long tokens[SEED_STEPS];
    uint64_t words[SEED_STEPS]; /* after step i */
    unsigned word_bits;
    char rng[64];
    int rc;
    char msg[sizeof(sl_error)];
} seed_fw;

typedef struct seed_state {
    seed_fw *fws;
    size_t nfw;
    /* the shared-generator experiment */
    size_t race_tok[SEED_STEPS], cdf_tok[SEED_STEPS];
    uint64_t race_w[SEED_STEPS + 1], cdf_w[SEED_STEPS + 1]; /* word index before step i */
    /* the batch experiment: torch on [2, V], both rows the vector */
    long bat_tok[2][SEED_STEPS];
    uint64_t bat_w[2][SEED_STEPS]; /* the generator's total after row r's draw at step i */
    int bat_rc;
    char bat_msg[sizeof(sl_error)];
    /* vLLM: row 0 seeded, row 1 not, in one batch (0, 1) and each alone (2, 3) */
    long vl_tok[4][SEED_STEPS];
    uint64_t vl_w[4][SEED_STEPS];
    int vl_rc;
    char vl_msg[sizeof(sl_error)];
} seed_state;

/* B rows of one batch stepped SEED_STEPS times, each row on vecs[r]: tok[r][i] and
 * w[r][i], the words of the generator row r drew from after its draw at step i. */
static int seed_batch_steps(const sl_fw_type *t, const sl_fw_opts *o, size_t B, const sl_fw_batch_row *rows,
                            const sl_vec *vecs, long (*tok)[SEED_STEPS], uint64_t (*w)[SEED_STEPS], sl_error *e)
{
    sl_fw_batch b;
    int rc = sl_fw_batch_open(&b, t, o, B, rows, e);
    for (size_t i = 0; i < SEED_STEPS && !rc; i++)
        if (!(rc = sl_fw_batch_step(&b, vecs, e)))
            for (size_t r = 0; r < B; r++) {
                tok[r][i] = b.step[r].tokens[0];
                w[r][i] = b.words[r];
            }
    if (b.B)
        sl_fw_batch_close(&b);
    return rc;
}

static int seed_batch_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    seed_state *s = arg;
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.probs = &ctx->main->pvec;
    o.seed.lo = ctx->seed;
    o.has_seed = 1;
    o.n = o.k = 1;
    sl_fw_batch_row rows[2];
    memset(rows, 0, sizeof rows);
    sl_error e;
    const sl_vec two[2] = {ctx->main->pvec, ctx->main->pvec};
    s->bat_rc = seed_batch_steps(&sl_fw_torch_type, &o, 2, rows, two, s->bat_tok, s->bat_w, &e);
    if (s->bat_rc)
        return sl_report_refusal(s->bat_rc, &e, s->bat_msg, sizeof s->bat_msg, err);
    /* vLLM: a request with its own seed beside one without (the global generator, --seed) */
    o.probs = NULL;
    o.logits = &ctx->main->lvec;
    sl_seed own;
    memset(&own, 0, sizeof own);
    own.lo = SEED_VLLM_OWN;
    rows[0].seed = &own;
    const sl_vec lv[2] = {ctx->main->lvec, ctx->main->lvec};
    /* vLLM 0.9-0.10's forward_native (random_sample): 0.11+ on an x86-64 or Arm CPU sends a batch
     * with a request without a seed to compiled_random_sample, which samplab does not model */
    const sl_fw_type *vt = sl_fw_lookup_as("vllm", SEED_VLLM_LINE);
    o.variant = SEED_VLLM_LINE;
    if (!(s->vl_rc = seed_batch_steps(vt, &o, 2, rows, lv, s->vl_tok, s->vl_w, &e)) &&
        !(s->vl_rc = seed_batch_steps(vt, &o, 1, &rows[0], lv, &s->vl_tok[2], &s->vl_w[2], &e)))
        s->vl_rc = seed_batch_steps(vt, &o, 1, &rows[1], lv, &s->vl_tok[3], &s->vl_w[3], &e);
    return s->vl_rc ? sl_report_refusal(s->vl_rc, &e, s->vl_msg, sizeof s->vl_msg, err) : 0;
}

static int seed_fw_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    seed_fw *f = arg;
    sl_error e;
    for (size_t step = 1; step <= SEED_STEPS; step++) {
        sl_fw_result res;
        f->rc = sl_report_fw_run(f->fw, ctx->main, ctx->seed, step, 0, &res, &e);
        if (f->rc)
            return sl_report_refusal(f->rc, &e, f->msg, sizeof f->msg, err);
        f->tokens[step - 1] = res.tokens[(step - 1) * res.k];
        f->words[step - 1] = res.words;
        f->word_bits = res.word_bits;
        snprintf(f->rng, sizeof f->rng, "%s", res.rng_name ? res.rng_name : "?");
        sl_fw_result_free(&res);
    }
    return 0;
}

static int seed_shared_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    seed_state *s = arg;
    const char *names[2] = {"exprace", "cdf"};
    for (int m = 0; m < 2; m++) {
        const sl_draw_type *t = sl_draw_lookup(names[m]);
        if (!t)
            return sl_base_error_set(err, SL_EINVAL, "report: draw method %s missing", names[m]);
        sl_rng r;
        int rc = sl_report_rng_open(&r, "pcg32", ctx->seed, err);
        if (rc)
            return rc;
        void *table = NULL;
        if ((rc = sl_draw_prepare(t, &table, ctx->main->p, ctx->main->V, err))) {
            sl_rng_release(&r);
            return rc;
        }
        uint64_t *w = m ? s->cdf_w : s->race_w;
        size_t *tok = m ? s->cdf_tok : s->race_tok;
        for (size_t i = 0; i < SEED_STEPS; i++) {
            w[i] = r.words;
            tok[i] = t->draw(table, &r);
        }
        w[SEED_STEPS] = r.words;
        t->free(table);
        sl_rng_release(&r);
    }
    return 0;
}

static void seed_release(void *state);

static int seed_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    seed_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "seed: out of memory");
    size_t nt = 0, nn = 0;
    while (sl_fw_types[nt])
        nt++;
    while (seed_named[nn])
        nn++;
    s->fws = calloc(nt + nn, sizeof *s->fws);
    int rc = s->fws ? 0 : sl_base_error_set(err, SL_ENOMEM, "seed: out of memory");
    for (size_t i = 0; !rc && i < nt + nn; i++) {
        const sl_fw_type *t = i < nt ? sl_fw_types[i] : sl_fw_lookup(seed_named[i - nt]);
        if (t)
            s->fws[s->nfw++].fw = t;
    }
    for (size_t i = 0; i < s->nfw && !rc; i++)
        rc = sl_report_add_job(ctx, 1, 210.0 * (double)ctx->main->V * 4, seed_fw_run, &s->fws[i], err);
    if (!rc)
        rc = sl_report_add_job(ctx, 1, 40.0 * (double)ctx->main->V, seed_shared_run, s, err);
    if (!rc)
        rc = sl_report_add_job(ctx, 1, 420.0 * (double)ctx->main->V * 4, seed_batch_run, s, err);
    if (rc) {
        seed_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

static int seed_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    seed_state *s = state;
    const sl_report_dist *d = ctx->main;
    size_t nok = 0;
    for (size_t i = 0; i < s->nfw; i++)
        nok += !s->fws[i].rc;
    if (nok) {
        sl_io_buf_printf(md,
                      "Seed %llu, vector `%s` (V = %zu), one token per call, through every framework\n"
                      "emulation in this build. Each framework seeds its own generator its own way and\n"
                      "turns words into a token with its own method, so the same seed gives other tokens.\n"
                      "Each cell shows the token and, after the slash, the words the generator has given\n"
                      "so far.\n\n",
                      (unsigned long long)ctx->seed, d->name, d->V);
        sl_io_md_rows g;
        sl_io_md_rows_init(&g, 4);
        for (size_t i = 0; i < s->nfw; i++) {
            const seed_fw *f = &s->fws[i];
            if (f->rc)
                continue;
            sl_io_md_rows_cell(&g, "%s", f->fw->name);
            sl_io_md_rows_cell(&g, "%s", f->rng);
            sl_io_md_rows_cell(&g, "%u", f->word_bits);
            sl_io_md_rows_cell(&g, "%.6g", (double)f->words[SEED_STEPS - 1] / SEED_STEPS);
        }
        static const char *const gh[4] = {"framework", "generator", "word bits", "words per token"};
        sl_io_md_rows_emit(md, &g, gh, "llrr");
        sl_io_md_rows_free(&g);
        sl_io_buf_puts(md, "\n");
        const char **head = calloc(1 + nok, sizeof *head);
        char *align = calloc(2 + nok, 1);
        if (!head || !align) {
            free(head);
            free(align);
            return sl_base_error_set(err, SL_ENOMEM, "seed: out of memory");
        }
        sl_io_md_rows t;
        sl_io_md_rows_init(&t, 1 + nok);
        head[0] = "step";
        align[0] = 'r';
        for (size_t i = 0, k = 1; i < s->nfw; i++)
            if (!s->fws[i].rc) {
                head[k] = s->fws[i].fw->name;
                align[k++] = 'r';
            }
        for (size_t step = 0; step < SEED_STEPS; step++) {
            sl_io_md_rows_cell(&t, "%zu", step + 1);
            for (size_t i = 0; i < s->nfw; i++)
                if (!s->fws[i].rc)
                    sl_io_md_rows_cell(&t, "%ld / %llu", s->fws[i].tokens[step],
                                    (unsigned long long)s->fws[i].words[step]);
        }
        sl_io_md_rows_emit(md, &t, head, align);
        sl_io_md_rows_free(&t);
        free(head);
        free(align);
        /* a column of one token is a library that seeds a new generator at every call
         * (tf.multinomial's alea): said, so it does not read as a stuck sampler */
        for (size_t i = 0; i < s->nfw; i++) {
            size_t same = 1;
            while (!s->fws[i].rc && same < SEED_STEPS && s->fws[i].tokens[same] == s->fws[i].tokens[0])
                same++;
            if (!s->fws[i].rc && same == SEED_STEPS)
                sl_io_buf_printf(md, "\nEvery call of %s draws token %ld: it seeds a new generator from the seed at "
                                 "each call, so a fixed seed repeats one draw.\n", s->fws[i].fw->name,
                                 s->fws[i].tokens[0]);
        }
        for (size_t i = 0; i < s->nfw; i++)
            if (s->fws[i].rc)
                sl_io_buf_printf(md, "\n%s refused this vector: %s\n", s->fws[i].fw->name, s->fws[i].msg);
        sl_io_buf_puts(md, "\nReplay a column (DIR is the report's directory, `reports` for `make report`):\n\n");
        for (size_t i = 0; i < s->nfw; i++) {
            if (s->fws[i].rc)
                continue;
            if (s->fws[i].fw->accepts & SL_OPT_LOGITS)
                sl_io_buf_printf(md, "    samplab draw --framework %s --logits %s%s --seed %llu --n %d\n",
                              s->fws[i].fw->name, d->src,
                              s->fws[i].fw->accepts & SL_OPT_TEMPERATURE ? " --temperature 1" : "",
                              (unsigned long long)ctx->seed, SEED_STEPS);
            else
                sl_io_buf_printf(md, "    samplab draw --framework %s --probs DIR/inputs/%s_probs.txt --seed %llu --n %d\n",
                              s->fws[i].fw->name, d->name, (unsigned long long)ctx->seed, SEED_STEPS);
        }
        sl_io_buf_puts(md, "\n");
    }
    sl_io_buf_printf(md,
                  "**One generator, two methods.** The exponential race and the cdf method each get a\n"
                  "pcg32 seeded with %llu. Both start at word 0, but the race takes 2V = %llu words per\n"
                  "token and the cdf method 2, so from the second draw on they read different parts of\n"
                  "the stream: the same seed cannot give the same tokens, even when both are exact.\n\n",
                  (unsigned long long)ctx->seed, (unsigned long long)(s->race_w[1] - s->race_w[0]));
    sl_io_md_rows t;
    sl_io_md_rows_init(&t, 5);
    for (size_t i = 0; i < SEED_STEPS; i++) {
        sl_io_md_rows_cell(&t, "%zu", i + 1);
        sl_io_md_rows_cell(&t, "%llu", (unsigned long long)s->race_w[i]);
        sl_io_md_rows_cell(&t, "%zu", s->race_tok[i]);
        sl_io_md_rows_cell(&t, "%llu", (unsigned long long)s->cdf_w[i]);
        sl_io_md_rows_cell(&t, "%zu", s->cdf_tok[i]);
    }
    static const char *const th[5] = {"step", "exprace: first word", "exprace: token", "cdf: first word",
                                      "cdf: token"};
    sl_io_md_rows_emit(md, &t, th, "rrrrr");
    sl_io_md_rows_free(&t);
    size_t same = 0;
    for (size_t i = 0; i < SEED_STEPS; i++)
        same += s->race_tok[i] == s->cdf_tok[i];
    sl_io_buf_printf(md, "\nThe two agree on %zu of %d tokens (by chance: both draw from the same p). Replay:\n\n"
                      "    samplab draw --method exprace --rng pcg32 --seed %llu --n 20 --logits %s\n"
                      "    samplab draw --method cdf --rng pcg32 --seed %llu --n 20 --logits %s\n\n",
                  same, SEED_STEPS, (unsigned long long)ctx->seed, d->src, (unsigned long long)ctx->seed, d->src);

    const seed_fw *alone = NULL;
    for (size_t i = 0; i < s->nfw; i++)
        if (s->fws[i].fw == &sl_fw_torch_type && !s->fws[i].rc)
            alone = &s->fws[i];
    if (alone && !s->bat_rc) {
        size_t same0 = 0, same1 = 0;
        for (size_t i = 0; i < SEED_STEPS; i++) {
            same0 += s->bat_tok[0][i] == alone->tokens[i];
            same1 += s->bat_tok[1][i] == alone->tokens[i];
        }
        sl_io_buf_printf(md,
                      "**In a batch.** transformers draws a batch of prompts (or `num_return_sequences`) with one\n"
                      "`torch.multinomial` over the [B, V] probabilities a step: B one-row races in row order\n"
                      "from the one generator. The vector twice in a batch of two, seed %llu: each step spends\n"
                      "4V words, row 0 the first 2V and row 1 the next, so neither row draws what the vector\n"
                      "alone draws after the first step, and the two rows differ from each other (each cell:\n"
                      "the token / the generator's words after that row's draw).\n\n",
                      (unsigned long long)ctx->seed);
        sl_io_md_rows bt;
        sl_io_md_rows_init(&bt, 4);
        for (size_t i = 0; i < SEED_STEPS; i++) {
            sl_io_md_rows_cell(&bt, "%zu", i + 1);
            sl_io_md_rows_cell(&bt, "%ld / %llu", alone->tokens[i], (unsigned long long)alone->words[i]);
            sl_io_md_rows_cell(&bt, "%ld / %llu", s->bat_tok[0][i], (unsigned long long)s->bat_w[0][i]);
            sl_io_md_rows_cell(&bt, "%ld / %llu", s->bat_tok[1][i], (unsigned long long)s->bat_w[1][i]);
        }
        static const char *const bh[4] = {"step", "torch, alone", "batch row 0", "batch row 1"};
        sl_io_md_rows_emit(md, &bt, bh, "rrrr");
        sl_io_md_rows_free(&bt);
        sl_io_buf_printf(md, "\nRow 0 and the vector alone agree on %zu of %d tokens, row 1 on %zu. Row r of step s\n"
                          "is call 2s + r - 1 of the vector alone (r = 0, 1): the rows are every other line of\n\n"
                          "    samplab draw --framework torch --probs DIR/inputs/%s_probs.txt --seed %llu --n %d\n\n",
                      same0, SEED_STEPS, same1, d->name, (unsigned long long)ctx->seed, 2 * SEED_STEPS);
    } else if (s->bat_rc) {
        sl_io_buf_printf(md, "The batch of two refused this vector: %s\n\n", s->bat_msg);
    }
    if (!s->bat_rc && !s->vl_rc) {
        /* the two requests' logits, one row a line, float32 round-trip: the replay's input */
        sl_buf rows;
        sl_io_buf_init(&rows);
        for (int r = 0; r < 2; r++)
            for (size_t i = 0; i < d->lvec.n; i++)
                sl_io_buf_printf(&rows, "%.9g%s", (double)d->lvec.f[i], i + 1 < d->lvec.n ? "," : "\n");
        int rc = sl_report_write(ctx, "inputs/" SEED_VLLM_FILE, &rows, err);
        sl_io_buf_free(&rows);
        if (rc)
            return rc;
        size_t same_own = 0, same_glob = 0;
        for (size_t i = 0; i < SEED_STEPS; i++) {
            same_own += s->vl_tok[0][i] == s->vl_tok[2][i];
            same_glob += s->vl_tok[1][i] == s->vl_tok[3][i];
        }
        sl_io_buf_printf(md,
                      "**A server's batch.** vLLM's V1 sampler (framework/vllm.c, `--vllm " SEED_VLLM_LINE "`: 0.9 to\n"
                      "0.10's `random_sample`) gives a request with a seed its own generator and draws the\n"
                      "others from the global one: when a request has no seed, `q.exponential_()` fills the\n"
                      "whole batch's noise from the global generator, row after row, before each seeded row\n"
                      "refills its own (0.11 and later on an x86-64 or Arm CPU send such a batch to\n"
                      "`compiled_random_sample`, not modelled: docs/serving.md). Two requests on these logits,\n"
                      "one with seed %d, one without (global seed %llu), in one batch and each alone:\n\n",
                      SEED_VLLM_OWN, (unsigned long long)ctx->seed);
        sl_io_md_rows vt;
        sl_io_md_rows_init(&vt, 5);
        for (size_t i = 0; i < SEED_STEPS; i++) {
            sl_io_md_rows_cell(&vt, "%zu", i + 1);
            static const int col[4] = {2, 0, 3, 1}; /* seeded alone, in the batch; unseeded alone, in it */
            for (int c = 0; c < 4; c++)
                sl_io_md_rows_cell(&vt, "%ld / %llu", s->vl_tok[col[c]][i], (unsigned long long)s->vl_w[col[c]][i]);
        }
        static const char *const vh[5] = {"step", "seeded, alone", "seeded, in the batch", "unseeded, alone",
                                           "unseeded, in the batch"};
        sl_io_md_rows_emit(md, &vt, vh, "rrrrr");
        sl_io_md_rows_free(&vt);
        sl_io_buf_printf(md, "\nThe seeded request draws the same %zu of %d tokens alone and in the batch; the\n"
                          "unseeded one %zu of %d: in the batch its noise starts behind the seeded row's slot of\n"
                          "the global stream (2·V words, filled, then overwritten). Replay:\n\n"
                          "    samplab draw --framework vllm --vllm " SEED_VLLM_LINE
                          " --logits DIR/inputs/" SEED_VLLM_FILE " --seeds %d,none --seed %llu --n %d\n\n",
                      same_own, SEED_STEPS, same_glob, SEED_STEPS, SEED_VLLM_OWN, (unsigned long long)ctx->seed,
                      SEED_STEPS);
    } else if (s->vl_rc) {
        sl_io_buf_printf(md, "vLLM's batch of two refused this vector: %s\n\n", s->vl_msg);
    }
    sl_io_buf_puts(md, "The same seed over a whole generation, step by step with a figure: section\n"
                       "[Same seed, other tokens over a generation](#generation).\n\nRemake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "seed");
    return 0;
}

static void seed_release(void *state)
{
    seed_state *s = state;
    free(s->fws);
    free(s);
}

const sl_report_section sl_report_section_seed = {"seed", "Why the same seed gives other tokens", seed_plan, seed_emit,
                                      seed_release};
