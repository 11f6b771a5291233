/* ollama.c — `--framework ollama --ollama 0.24`: Ollama's own Go sampler, the
 * one its Go engine (runner/ollamarunner) ran from v0.6.3 to v0.25.0-rc0
 * (sample/samplers.go and sample/transforms.go, read at v0.24.0 = commit
 * c28ddc0a): NewSampler(temperature, top_k, top_p, min_p, seed) with Ollama's
 * option defaults, the transforms of logits/ollama.c, the draw of
 * draw/go_cumsum.c, and Go's PCG seeded rand.NewPCG(S, S ^ 0x9E3779B9)
 * (rng/go_pcg.c). One 64-bit word per sampled token, none at temperature 0.
 * Not modelled: seed -1 (Ollama's default), which draws from math/rand/v2's
 * global generator, seeded at random when the process starts; grammars
 * (format / JSON schema), which re-run the sampler after llama.cpp's grammar;
 * arm64 builds, whose math.Exp is another algorithm. Penalties (repeat_penalty,
 * repeat_last_n, presence_penalty, frequency_penalty) are accepted, as Ollama's
 * API accepts them, and ignored, as this sampler ignores them (Ollama issue
 * #15783; only v0.17.5 to v0.17.8-rc1 applied them, not modelled). --ollama 0.30
 * and 0.32 are llama-server's chain (framework/llamacpp.c); without a line the
 * framework is refused. Checked against the Go code itself:
 * data/golden/current/ollama_0.24.tsv (analysis/golden/current/ollama_golden.sh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

static const sl_fw_variant ollama_variants[] = {
    {"0.24", "Ollama 0.24.0 (commit c28ddc0a), its Go sampler (sample/, the same from v0.6.3 to v0.25.0-rc0)", 24},
    {"0.32", SL_FW_OLLAMA_SERVER_VERSION, 32},
    {"0.30", SL_FW_OLLAMA_SERVER030_VERSION, 30},
    {NULL, NULL, 0},
};
/* from v0.30.0 each request goes to llama-server (framework/llamacpp.c) */
static const sl_fw_type *const ollama_runs[] = {NULL, &sl_fw_ollama_server_type, &sl_fw_ollama_server030_type, NULL};

typedef struct ollama_state {
    sl_logits_ollama_cfg cfg;
    sl_logits_go_tok *ts, *heap;
    size_t cap;
    sl_logits_ollama_out out;
    float *pf;                /* the kept probabilities in array order, for the draw */
    void *table;
} ollama_state;

static int ollama_open(sl_fw_session *s, sl_error *err)
{
    const sl_fw_opts *o = &s->o;
    if (!o->variant)
        return sl_base_error_set(err, SL_EINVAL, SL_FW_OLLAMA_NEEDS_LINE);
    if (!o->has_seed)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama --ollama 0.24 needs --seed S: Ollama's default seed -1 draws from "
                                 "math/rand/v2's global generator, seeded at random when Ollama starts (not "
                                 "reproducible); give the seed the request gave");
    if (o->seed.hi || o->seed.lo == UINT64_MAX)
        return sl_base_error_set(err, SL_EINVAL,
                                 "framework ollama: the seed is a Go int taken mod 2^64: give one below 2^64 - 1 "
                                 "(2^64 - 1 is -1, Ollama's random seed; a negative seed -s is 2^64 - s)");
    ollama_state *st = calloc(1, sizeof *st);
    if (!(s->state = st))
        return sl_base_error_set(err, SL_ENOMEM, "ollama: out of memory");
    s->o.seed.has_stream = 0;
    sl_logits_ollama_cfg_make(&o->cfg, 1, &st->cfg);
    return SL_OK;
}

static void ollama_clear(ollama_state *st)
{
    if (st->table)
        sl_draw_go_cumsum_type.free(st->table);
    st->table = NULL;
}

static void ollama_close(sl_fw_session *s)
{
    ollama_state *st = s->state;
    if (st) {
        ollama_clear(st);
        free(st->ts);
        free(st->heap);
        free(st->pf);
    }
    free(st);
    s->state = NULL;
}

static int ollama_prepare(sl_fw_session *s, const sl_vec *v, sl_error *err)
{
    ollama_state *st = s->state;
    ollama_clear(st);
    if (v->n == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no logits (Ollama: \"sample: no logits provided to sample\")",
                                 v->source);
    if (st->cap < v->n) {
        free(st->ts);
        free(st->heap);
        free(st->pf);
        st->ts = malloc(v->n * sizeof *st->ts);
        st->heap = malloc(v->n * sizeof *st->heap);
        st->pf = malloc(v->n * sizeof *st->pf);
        st->cap = v->n;
        if (!st->ts || !st->heap || !st->pf) {
            st->cap = 0;
            return sl_base_error_set(err, SL_ENOMEM, "ollama: out of memory for %zu logits", v->n);
        }
    }
    sl_logits_ollama_apply(v->f, v->n, &st->cfg, st->ts, st->heap, &st->out);
    if (st->out.greedy || st->out.nan_sum)
        return SL_OK;
    for (size_t i = 0; i < st->out.n; i++)
        st->pf[i] = st->out.tok[i].value;
    sl_draw_dist dist = {st->out.n, NULL, st->pf, SL_F32, v->source, 0};
    return sl_draw_prepare_dist(&sl_draw_go_cumsum_type, &st->table, &dist, err);
}

static int ollama_step(sl_fw_session *s, const sl_vec *v, size_t *kept, sl_error *err)
{
    ollama_state *st = s->state;
    /* the history changes nothing: this sampler reads none */
    if (v != s->prepared_vec || (!st->table && !st->out.greedy && !st->out.nan_sum)) {
        int rc = ollama_prepare(s, v, err);
        if (rc)
            return rc;
    }
    if (st->out.greedy) {
        *kept = 1;
        s->tokens[0] = st->out.greedy_id;
        return SL_OK;
    }
    *kept = st->out.n;
    if (st->out.nan_sum) { /* Sample draws r before it looks at the sum */
        (void)sl_rng_next(&s->rng);
        return sl_base_error_set(err, SL_EINVAL,
                                 "%s: Ollama's sampler fails with \"sample: logits sum to NaN, check model output\" "
                                 "(a NaN or +inf logit kept, all -inf, or logit/T overflowing; 1 word drawn)",
                                 v->source);
    }
    size_t i = sl_draw_go_cumsum_type.draw(st->table, &s->rng);
    s->tokens[0] = st->out.tok[i].id;
    return SL_OK;
}

/* The pipeline's remark (logits/ollama.c), for every command that runs the session. */
static const char *ollama_note(const sl_fw_opts *o)
{
    return sl_logits_pipeline_ollama_type.note(&o->cfg);
}

/* The draw's exact distribution on the 2^24 grid of Go's Float32, through the
 * draw type's own pick: Ollama's path over every token (top_k 0, top_p 1,
 * min_p 0) at the temperature exact gives (in->logits_f = logit / T, float32). */
static int ollama_exact_run(const sl_stat_exact_input *in, sl_stat_exact_result *out, sl_error *err)
{
    const char *src = in->source ? in->source : "logits";
    if (!in->logits_f)
        return sl_base_error_set(err, SL_EINVAL, "%s: Ollama's sampler takes logits (use --logits)", src);
    size_t V = in->V;
    if (V == 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: no entries", src);
    sl_logits_cfg c;
    memset(&c, 0, sizeof c);
    c.has_temperature = c.has_top_k = c.has_top_p = c.has_min_p = 1;
    c.temperature = 1.0; /* logits_f is already divided: value / 1 is exact */
    c.top_k = 0;
    c.top_p = 1.0;
    c.min_p = 0.0;
    sl_logits_ollama_cfg oc;
    sl_logits_ollama_cfg_make(&c, 1, &oc);
    sl_logits_go_tok *ts = malloc(V * sizeof *ts), *heap = malloc(V * sizeof *heap);
    float *pf = malloc(V * sizeof *pf);
    uint64_t *below = malloc(V * sizeof *below);
    void *table = NULL;
    int rc = SL_ENOMEM;
    if (!ts || !heap || !pf || !below) {
        sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu logits", src, V);
        goto out;
    }
    sl_logits_ollama_out r;
    sl_logits_ollama_apply(in->logits_f, V, &oc, ts, heap, &r);
    if (r.nan_sum) {
        rc = sl_base_error_set(err, SL_EINVAL,
                               "%s: Ollama's sampler fails on these logits (\"sample: logits sum to NaN\": a NaN or "
                               "+inf logit, all -inf, or logit/T overflowing)", src);
        goto out;
    }
    if ((rc = sl_stat_exact_result_init(out, in, 24, err)))
        goto out;
    for (size_t i = 0; i < r.n; i++)
        pf[i] = r.tok[i].value;
    sl_draw_dist dist = {r.n, NULL, pf, SL_F32, src, 0};
    if ((rc = sl_draw_prepare_dist(&sl_draw_go_cumsum_type, &table, &dist, err)))
        goto out;
    sl_draw_go_cumsum_counts(table, below);
    for (size_t j = 0; j < r.n; j++)
        out->count[r.tok[j].id] = below[j] - (j ? below[j - 1] : 0);
    if (sl_draw_go_cumsum_pick(table, 0) == 0 && pf[0] == 0.0f) {
        sl_stat_exact_path *p = sl_stat_exact_path_add(out, "u_zero", (long)r.tok[0].id,
                                                       "Float32() == 0: target 0, reached by the first running sum");
        sl_stat_exact_path_set(p, 1, 24);
    }
    snprintf(out->note, sizeof out->note,
             "Ollama 0.24 Go sampler over all V tokens (top_k 0, top_p 1, min_p 0): Go pdqsort descending, float32 "
             "softmax with Go's amd64 math.Exp, float32 running sum, r = Float32()*sum (24 bits of one PCG word), "
             "first sum >= r; 2^24 grid");
    out->has_counts = 1;
out:
    if (table)
        sl_draw_go_cumsum_type.free(table);
    free(ts);
    free(heap);
    free(pf);
    free(below);
    return rc;
}

const sl_stat_exact_type sl_fw_ollama_exact = {
    .name = "ollama",
    .summary = "Ollama 0.24's Go sampler (pdqsort, float32 softmax and running sum, Go Float32, lower bound)",
    .run = ollama_exact_run,
    .input = SL_STAT_EXACT_OWN_SOFTMAX,
    .sampler = "Ollama's Go sampler",
    .t_floor = 1e-7f, /* temperature(): value / max(temp, 1e-7) */
};

const sl_fw_type sl_fw_ollama_type = {
    .name = "ollama",
    .summary = "Ollama's Go sampler (--ollama 0.24 only: v0.6.3 to v0.25): heap top-k, float32 softmax, top-p, "
               "min-p, float32 cumsum, Go PCG(S, S^0x9E3779B9) Float32; penalties accepted and ignored",
    .variant_bit = SL_OPT_OLLAMA_VERSION,
    .variants = ollama_variants,
    .variant_runs = ollama_runs,
    .replacement_why = "Ollama's sampler draws one token a step: it has no replacement setting",
    .accepts = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K | SL_OPT_TOP_P | SL_OPT_MIN_P | SL_OPT_PENALTY |
               SL_OPT_LAST_N | SL_OPT_FREQ_PRESENCE | SL_OPT_OLLAMA_VERSION,
    .input_why = "its sampler works on logits",
    .pipeline = &sl_logits_pipeline_ollama_type,
    .draw = &sl_draw_go_cumsum_type,
    .rng = "go-pcg",
    .rng_label = "go-pcg",
    .accepts_drawn = 1,
    .open = ollama_open,
    .step = ollama_step,
    .probs = sl_fw_probs_of_pipeline,
    .close = ollama_close,
    .note = ollama_note,
    .exact = &sl_fw_ollama_exact,
};
