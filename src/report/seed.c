/* seed.c — section "Why the same seed gives other tokens": runs every
 * registered framework emulation with one seed on one vector and prints their
 * first 20 tokens with the words each has consumed, then gives the
 * exponential race and the cdf method one and the same generator (pcg32, same
 * seed) to show that their word streams fall out of step after the first
 * draw. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

#define SEED_STEPS 20

/* Frameworks run only when named (not in sl_fw_types) that take any vector with a seed alone,
 * given a row here too: the browser's samplers (one name a line; absent ones are skipped). */
static const char *const seed_named[] = {
    "transformers-js",
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
} seed_state;

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
