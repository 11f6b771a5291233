/* generation.c — section "Same seed, other tokens over a generation": the
 * per-step logits of one real transformers generate() run (a committed golden
 * dump) replayed at one seed through every framework emulation, each as one
 * sampler session across the steps (sl_fw_replay, the loop `samplab replay`
 * runs). The frameworks that take logits get the recorded logits with the
 * run's settings, exactly as `samplab replay --framework all`; those that
 * sample given weights get the probabilities transformers hands
 * torch.multinomial at each step, written to inputs/ so their replay commands
 * run as printed. A table gives the first step at which each departs from the
 * first-listed framework; the figure shows the tokens row by row and the words
 * each step consumed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sl_report.h"

/* The golden run (analysis/golden/current/hf_generate.py): transformers 5.12.1
 * generate(do_sample=True) on torch 2.14.1 with its default settings (top-k 50,
 * T = 1), seed 42, 24 steps over a V = 512 random Llama. */
#define GEN_LOGITS "data/golden/current/hf_generate.safetensors"
#define GEN_MANIFEST "data/golden/current/hf_generate.txt"
#define GEN_RUN "r002"
#define GEN_TOP_K 50
#define GEN_PROBS_FILE "generation_probs.txt"
#define GEN_MAX_PROMPT 256

struct gen_state;

typedef struct gen_fw {
    const struct gen_state *st;
    const sl_fw_type *fw;
    int probs_input;          /* reads the hf probabilities (else the logits) */
    long *tokens;
    uint64_t *words;          /* cumulative, after each step */
    size_t *kept;
    const char *rng;
    unsigned word_bits;
    size_t depart;            /* first step that differs from the first-listed; T if none */
    size_t same;              /* steps with the first-listed's token */
    int rc;
    char msg[sizeof(sl_error)];
} gen_fw;

typedef struct gen_state {
    sl_io_steps logits;       /* [T, V], the recorded logits */
    sl_io_steps probs;        /* [T, V], hf's probabilities as inputs/ holds them (filled in phase 0) */
    sl_buf probs_text;        /* that file's text */
    long prompt[GEN_MAX_PROMPT];
    size_t prompt_n;
    long *golden;             /* the tokens transformers generated */
    size_t golden_n;
    uint64_t run_seed;
    char settings[128], chain[256], model[64];
    gen_fw *fws;
    size_t nfw;
    size_t nlogits;           /* how many of fws read logits (they come first) */
} gen_state;

/* The settings every framework gets: transformers' defaults said out loud
 * (candle's LogitsProcessor without a temperature is ArgMax); what they leave
 * unset takes each framework's own default, as in `replay --framework all`. */
static void gen_opts(const sl_report_ctx *ctx, const gen_state *s, const sl_fw_type *ft, int probs, sl_vec *marker,
                     sl_fw_opts *o)
{
    memset(o, 0, sizeof *o);
    if (probs) {
        o->probs = marker;
        /* float32, as torch holds them (transformers' probs, or probs.numpy()) */
        if (ft->accepts & SL_OPT_DTYPE) {
            o->dtype_set = 1;
            o->dtype = SL_F32;
        }
    } else {
        o->logits = marker;
        o->cfg.has_temperature = 1;
        o->cfg.temperature = 1.0;
        o->cfg.has_top_k = 1;
        o->cfg.top_k = GEN_TOP_K;
        o->cfg.context = s->prompt;
        o->cfg.context_n = s->prompt_n;
    }
    o->cfg.cpu = SL_REPORT_CPU;
    o->seed.lo = ctx->seed;
    o->has_seed = 1;
    o->k = 1;
    o->n = 1;
}

static int steps_row(const void *user, size_t t, sl_vec *row)
{
    return sl_io_steps_row(user, t, row);
}

/* Phase 0: hf's replay, then the distribution it drew from at each step (its
 * history: prompt + its own tokens), as the text inputs/ holds (%.17g of the
 * float32 values: strtod and strtof both read them back exactly). */
static int gen_probs_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    gen_state *s = arg;
    const sl_io_steps *m = &s->logits;
    size_t T = m->t, V = m->v;
    sl_vec marker;
    memset(&marker, 0, sizeof marker);
    sl_fw_opts o;
    gen_opts(ctx, s, &sl_fw_hf_type, 0, &marker, &o);
    long *tok = malloc(T * sizeof *tok);
    uint64_t *w = malloc(T * sizeof *w);
    size_t *kept = malloc(T * sizeof *kept);
    int rc = tok && w && kept ? 0 : sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    if (!rc)
        rc = sl_fw_replay(&sl_fw_hf_type, &o, T, V, m->source, steps_row, m, tok, w, kept, NULL, err);
    sl_fw_session ss;
    sl_vec row;
    memset(&row, 0, sizeof row);
    int open = 0;
    if (!rc && !(rc = sl_base_vec_alloc(&row, V, m->source, err)))
        open = !(rc = sl_fw_session_open_prompt(&ss, &sl_fw_hf_type, &o, err));
    sl_buf *b = &s->probs_text;
    sl_io_buf_printf(b,
                     "# The probabilities transformers 5.12.1 hands torch.multinomial at each of the %zu steps of\n"
                     "# run %s in %s (top-k %d, T = 1, seed %llu), as samplab's hf emulation\n"
                     "# computes them: one step per line, V = %zu. Written by samplab report.\n",
                     T, GEN_RUN, GEN_LOGITS, GEN_TOP_K, (unsigned long long)ctx->seed, V);
    for (size_t t = 0; !rc && t < T; t++) {
        sl_io_steps_row(m, t, &row);
        sl_logits_result r;
        if ((rc = sl_fw_session_probs(&ss, &row, &r, err)))
            break;
        for (size_t i = 0; i < V; i++) {
            if (r.probs[i] == 0)
                sl_io_buf_puts(b, i ? " 0" : "0");
            else
                sl_io_buf_printf(b, "%s%.17g", i ? " " : "", (double)(float)r.probs[i]);
        }
        sl_io_buf_puts(b, "\n");
        sl_logits_result_free(&r);
        rc = sl_fw_session_accept(&ss, tok[t], err);
    }
    if (open)
        sl_fw_session_close(&ss);
    sl_base_vec_free(&row);
    free(tok);
    free(w);
    free(kept);
    if (!rc && b->oom)
        rc = sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    if (!rc)
        rc = sl_io_steps_read_text("inputs/" GEN_PROBS_FILE, b->data, b->len, &s->probs, err);
    return rc;
}

/* Phase 1: one framework's replay, on the logits or on hf's probabilities. */
static int gen_fw_run(const sl_report_ctx *ctx, void *arg, sl_error *err)
{
    gen_fw *f = arg;
    const gen_state *s = f->st;
    const sl_io_steps *m = f->probs_input ? &s->probs : &s->logits;
    sl_vec marker;
    memset(&marker, 0, sizeof marker);
    sl_fw_opts o;
    gen_opts(ctx, s, f->fw, f->probs_input, &marker, &o);
    size_t T = m->t;
    f->tokens = malloc(T * sizeof *f->tokens);
    f->words = malloc(T * sizeof *f->words);
    f->kept = malloc(T * sizeof *f->kept);
    if (!f->tokens || !f->words || !f->kept)
        return sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    sl_error e;
    f->rc = sl_fw_replay(f->fw, &o, T, m->v, m->source, steps_row, m, f->tokens, f->words, f->kept, &f->rng, &e);
    if (f->rc)
        return sl_report_refusal(f->rc, &e, f->msg, sizeof f->msg, err);
    const sl_rng_type *rt = sl_rng_lookup(f->fw->rng);
    f->word_bits = rt ? rt->word_bits : 0;
    return 0;
}

/* The value of `key=` in a manifest line (up to the next space), or NULL. */
static const char *field(const char *line, const char *end, const char *key, size_t *len)
{
    size_t kl = strlen(key);
    for (const char *p = line; p + kl < end; p++)
        if ((p == line || p[-1] == ' ') && !strncmp(p, key, kl) && p[kl] == '=') {
            const char *v = p + kl + 1, *q = v;
            while (q < end && *q != ' ')
                q++;
            *len = (size_t)(q - v);
            return v;
        }
    return NULL;
}

/* Comma-separated ids into out[0..max): the count, or SIZE_MAX if malformed. */
static size_t parse_ids(const char *v, size_t len, long *out, size_t max)
{
    size_t n = 0;
    const char *p = v, *end = v + len;
    while (p < end) {
        char *q;
        long x = strtol(p, &q, 10);
        if (q == p || x < 0 || n == max || (q < end && *q != ','))
            return SIZE_MAX;
        out[n++] = x;
        p = q + (q < end);
    }
    return n;
}

/* Reads the run's line of the golden manifest: 0, or 1 when it is missing or
 * not as this section expects (the section is then left out). */
static int read_manifest(gen_state *s, sl_error *err)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    sl_error e;
    int src = sl_io_file_slurp(GEN_MANIFEST, &buf, &len, &e);
    if (src)
        return src == SL_ENOMEM ? (*err = e, SL_ENOMEM) : 1;
    const char *text = (const char *)buf, *end = text + len;
    const char *line = NULL;
    for (const char *p = text; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if ((size_t)(le - p) > 9 && !strncmp(p, "run " GEN_RUN " ", 9))
            line = p, end = le;
        p = le + 1;
        if (line)
            break;
    }
    int rc = 1;
    size_t n;
    const char *v;
    if (line && (v = field(line, end, "prompt", &n)) && (s->prompt_n = parse_ids(v, n, s->prompt, GEN_MAX_PROMPT)) != SIZE_MAX) {
        const char *tk = field(line, end, "tokens", &n);
        size_t cap = tk ? n / 2 + 1 : 0;
        s->golden = tk ? malloc(cap * sizeof *s->golden) : NULL;
        if (tk && !s->golden) {
            free(buf);
            return sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
        }
        if (tk && (s->golden_n = parse_ids(tk, n, s->golden, cap)) != SIZE_MAX) {
            size_t sl = 0, cl = 0, ml = 0;
            const char *sv = field(line, end, "seed", &n);
            const char *st = field(line, end, "settings", &sl), *ch = field(line, end, "chain", &cl);
            const char *mo = field(line, end, "model", &ml);
            if (sv && st && ch && mo && sl < sizeof s->settings && cl < sizeof s->chain && ml < sizeof s->model) {
                s->run_seed = strtoull(sv, NULL, 10);
                memcpy(s->settings, st, sl);
                memcpy(s->chain, ch, cl);
                memcpy(s->model, mo, ml);
                rc = 0;
            }
        }
    }
    free(buf);
    return rc;
}

static void gen_release(void *state);

static int gen_plan(sl_report_ctx *ctx, void **state, sl_error *err)
{
    *state = NULL;
    gen_state *s = calloc(1, sizeof *s);
    if (!s)
        return sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    sl_io_buf_init(&s->probs_text);
    int rc = read_manifest(s, err);
    if (rc == 1 || (!rc && strcmp(s->settings, "default"))) { /* not in this build: left out */
        gen_release(s);
        return 0;
    }
    sl_error e;
    if (!rc && (rc = sl_io_steps_read(GEN_LOGITS, GEN_RUN ".logits", &s->logits, &e))) {
        gen_release(s);
        if (rc == SL_ENOMEM) {
            *err = e;
            return rc;
        }
        return 0;
    }
    if (rc || s->logits.t < 2 || s->golden_n != s->logits.t) {
        gen_release(s);
        return rc;
    }
    /* every session framework: those on logits that take the settings (the
     * frameworks `samplab replay --framework all` runs), then those that sample weights */
    size_t n = 0;
    while (sl_fw_types[n])
        n++;
    if (!(s->fws = calloc(n ? n : 1, sizeof *s->fws))) {
        gen_release(s);
        return sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    }
    const unsigned want = SL_OPT_LOGITS | SL_OPT_TEMPERATURE | SL_OPT_TOP_K;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; sl_fw_types[i]; i++) {
            const sl_fw_type *t = sl_fw_types[i];
            if (!t->step)
                continue;
            int on_logits = (t->accepts & want) == want;
            int on_probs = !(t->accepts & SL_OPT_LOGITS) && (t->accepts & SL_OPT_PROBS);
            if (pass == 0 ? !on_logits : !on_probs)
                continue;
            gen_fw *f = &s->fws[s->nfw++];
            f->st = s;
            f->fw = t;
            f->probs_input = pass;
            s->nlogits += !pass;
        }
    double cost = 40.0 * (double)s->logits.v * (double)s->logits.t;
    rc = sl_report_add_job(ctx, 0, cost, gen_probs_run, s, err);
    for (size_t i = 0; i < s->nfw && !rc; i++)
        rc = sl_report_add_job(ctx, 1, cost, gen_fw_run, &s->fws[i], err);
    if (rc || !s->nlogits) {
        gen_release(s);
        return rc;
    }
    *state = s;
    return 0;
}

/* Words step t consumed. */
static uint64_t step_words(const gen_fw *f, size_t t)
{
    return f->words[t] - (t ? f->words[t - 1] : 0);
}

/* 1 if a and b consumed the same words at every step. */
static int same_words(const gen_fw *a, const gen_fw *b, size_t T)
{
    for (size_t t = 0; t < T; t++)
        if (step_words(a, t) != step_words(b, t))
            return 0;
    return 1;
}

static void fw_label(sl_buf *b, const gen_fw *f)
{
    sl_io_buf_puts(b, f->fw->name);
    if (f->word_bits != 32)
        sl_io_buf_printf(b, " (%u-bit)", f->word_bits);
}

/* What every row is measured against: the tokens transformers generated in the
 * run itself when the report's seed is the run's; at another seed, the hf
 * emulation's row (at the run's seed it is that generation, as the section says). */
static const long *gen_ref_tokens(const gen_state *s, const sl_report_ctx *ctx, const gen_fw *const *ok, size_t nok)
{
    if (ctx->seed == s->run_seed && s->golden && s->golden_n >= s->logits.t)
        return s->golden;
    for (size_t i = 0; i < nok; i++)
        if (!strcmp(ok[i]->fw->name, "hf"))
            return ok[i]->tokens;
    return ok[0]->tokens;
}

static const char *gen_ref_name(const gen_state *s, const sl_report_ctx *ctx, const gen_fw *const *ok, size_t nok)
{
    if (ctx->seed == s->run_seed && s->golden && s->golden_n >= s->logits.t)
        return "generate()";
    for (size_t i = 0; i < nok; i++)
        if (!strcmp(ok[i]->fw->name, "hf"))
            return "hf";
    return ok[0]->fw->name;
}

/* The figure: tokens row by row with the first departure marked, and below,
 * the words each step consumed, one curve per set of frameworks that consumed
 * the same (so no curve hides under another: they are one curve, named so). */
static int gen_figure(sl_report_ctx *ctx, const gen_state *s, const gen_fw *const *ok, size_t nok, size_t T,
                      sl_error *err)
{
    sl_buf dat, body;
    sl_io_buf_init(&dat);
    sl_io_buf_init(&body);
    const long *reft = gen_ref_tokens(s, ctx, ok, nok);
    const char *ref = gen_ref_name(s, ctx, ok, nok);
    sl_io_buf_printf(&dat,
                     "# Same seed, other tokens over a generation: run %s of %s, seed %llu\n"
                     "# block 0: step row token kind framework colour (kind 0: %s, the reference;\n"
                     "# 1: its token; 2: another token; 3: the first step that differs from it)\n",
                     GEN_RUN, GEN_MANIFEST, (unsigned long long)ctx->seed, ref);
    for (size_t t = 0; t < T; t++)
        sl_io_buf_printf(&dat, "%zu %zu %ld 0 %s 0\n", t, nok + 1, reft[t], ref);
    for (size_t i = 0; i < nok; i++)
        for (size_t t = 0; t < T; t++) {
            int kind = ok[i]->tokens[t] == reft[t] ? 1 : t == ok[i]->depart ? 3 : 2;
            sl_io_buf_printf(&dat, "%zu %zu %ld %d %s %ld\n", t, nok - i, ok[i]->tokens[t], kind, ok[i]->fw->name,
                             strtol(sl_report_style_of(ok[i]->fw->name)->rgb + 1, NULL, 16));
        }
    /* block 1: words per step, one column per group of equal consumption */
    size_t *group = calloc(nok, sizeof *group), ngroups = 0;
    if (!group)
        return sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    size_t *rep = calloc(nok, sizeof *rep);
    if (!rep) {
        free(group);
        return sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    }
    for (size_t i = 0; i < nok; i++) {
        size_t g = 0;
        while (g < ngroups && !same_words(ok[rep[g]], ok[i], T))
            g++;
        if (g == ngroups)
            rep[ngroups++] = i;
        group[i] = g;
    }
    sl_io_buf_puts(&dat, "\n\n# block 1: step, then the words consumed at that step by each group:");
    for (size_t g = 0; g < ngroups; g++) {
        sl_io_buf_printf(&dat, " [%zu]", g + 1);
        for (size_t i = 0; i < nok; i++)
            if (group[i] == g)
                sl_io_buf_printf(&dat, " %s", ok[i]->fw->name);
    }
    sl_io_buf_puts(&dat, "\n");
    uint64_t wmax = 1;
    for (size_t t = 0; t < T; t++) {
        sl_io_buf_printf(&dat, "%zu", t);
        for (size_t g = 0; g < ngroups; g++) {
            uint64_t w = step_words(ok[rep[g]], t);
            wmax = w > wmax ? w : wmax;
            sl_io_buf_printf(&dat, " %llu", (unsigned long long)w);
        }
        sl_io_buf_puts(&dat, "\n");
    }

    /* panel 1: the tokens, each framework in its colour */
    sl_io_buf_printf(&body,
                     "set multiplot\n"
                     "set lmargin at screen 0.1\nset rmargin at screen 0.74\n"
                     "set origin 0,0.37\nset size 1,0.63\n"
                     "unset logscale y\nset format y '%%g'\nset xrange [-0.6:%zu.6]\nset xtics 0,1,%zu\n"
                     "set yrange [0.4:%zu.7]\nset ytics (\"%s\" %zu",
                     T - 1, T - 1, nok + 1, ref, nok + 1);
    for (size_t i = 0; i < nok; i++)
        sl_io_buf_printf(&body, ", \"%s\" %zu", ok[i]->fw->name, nok - i);
    sl_io_buf_printf(&body,
                     ") noenhanced\nunset grid\nset grid xtics lc rgb '#e4e4e4'\n"
                     "set title \"Seed %llu, the logits of one transformers generation (run %s, V = %zu): "
                     "the token each framework draws, against the generation's own\" noenhanced\n"
                     "set xlabel \"step of the generation (from 0)\"\nset ylabel \"\"\n"
                     "set key at screen 0.755,0.955 left top Left reverse noenhanced spacing 1.4 samplen 1.5\n"
                     "plot @DAT@ index 0 using 1:2:3 with labels offset 0,1.05 font ',10' notitle, \\\n"
                     "     '' index 0 using 1:($4==0?$2:NaN) with points pt 7 ps 1.3 lc rgb '#000000' "
                     "title \"%s: the tokens generated\", \\\n"
                     "     '' index 0 using 1:($4==1?$2:NaN):6 with points pt 7 ps 1.3 lc rgb variable notitle, \\\n"
                     "     '' index 0 using 1:($4>=2?$2:NaN):6 with points pt 6 ps 1.3 lw 1.5 lc rgb variable notitle, \\\n"
                     "     '' index 0 using 1:($4==3?$2:NaN) with points pt 4 ps 3.2 lw 2.5 lc rgb '#000000' "
                     "title \"first step that differs from %s\", \\\n"
                     "     keyentry with points pt 7 ps 1.3 lc rgb '#707070' title \"filled: the same token as %s\", \\\n"
                     "     keyentry with points pt 6 ps 1.3 lw 1.5 lc rgb '#707070' title \"open: another token\"\n",
                     (unsigned long long)ctx->seed, GEN_RUN, s->logits.v, ref, ref, ref);
    /* panel 2: the words */
    /* a curve is a group of frameworks, no one framework: greys, told apart by dash and point */
    static const char *const cols[] = {"#000000", "#555555", "#999999", "#000000", "#555555", "#999999",
                                       "#000000", "#555555"};
    static const int pts[] = {7, 5, 9, 11, 13, 15, 3, 2};
    sl_io_buf_printf(&body,
                     "set origin 0,0\nset size 1,0.37\n"
                     "set logscale y\nset format y '%%g'\nset yrange [0.5:%llu]\nset ytics auto\n"
                     "unset grid\nset grid ytics xtics lc rgb '#e4e4e4'\n"
                     "set title \"Random words each framework's generator gives at each step\" noenhanced\n"
                     "set xlabel \"step of the generation (from 0)\"\n"
                     "set ylabel \"words at this step (log scale)\"\n"
                     "set key at graph 0.02,0.70 left top Left reverse noenhanced spacing 1.4 samplen 2.5 opaque box\n"
                     "plot ",
                     (unsigned long long)(wmax * 4));
    for (size_t g = 0; g < ngroups; g++) {
        const gen_fw *f = ok[rep[g]];
        int constant = 1;
        for (size_t t = 1; t < T; t++)
            constant &= step_words(f, t) == step_words(f, 0);
        sl_buf title;
        sl_io_buf_init(&title);
        for (size_t i = 0, k = 0; i < nok; i++)
            if (group[i] == g) {
                sl_io_buf_puts(&title, k++ ? ", " : "");
                fw_label(&title, ok[i]);
            }
        if (constant)
            sl_io_buf_printf(&title, ": %llu word%s each step", (unsigned long long)step_words(f, 0),
                             step_words(f, 0) == 1 ? "" : "s");
        sl_io_buf_printf(&body, "%s@DAT@ index 1 using 1:($%zu>0?$%zu:NaN) with linespoints lw 2 pt %d ps 1.2 dt %zu "
                                "lc rgb '%s' title \"%s\"",
                         g ? ", \\\n     " : "", g + 2, g + 2, pts[g % 8], g % 8 + 1, cols[g % 8], title.oom ? "" : title.data);
        sl_io_buf_free(&title);
    }
    sl_io_buf_puts(&body, "\nunset multiplot\n");
    free(group);
    free(rep);
    sl_plot p = {.name = "generation_tokens",
                 .title = "Same seed, other tokens over a generation",
                 .xlabel = "step of the generation (from 0)",
                 .ylabel = "",
                 .width = 1600,
                 .height = 1080,
                 .key = "outside right top",
                 .body = body.data,
                 .dat = dat.data,
                 .oom = body.oom || dat.oom};
    int rc = sl_report_plot(ctx, &p, err);
    sl_io_buf_free(&dat);
    sl_io_buf_free(&body);
    return rc;
}

static int gen_emit(sl_report_ctx *ctx, void *state, sl_buf *md, sl_error *err)
{
    gen_state *s = state;
    size_t T = s->logits.t, V = s->logits.v;
    int rc = sl_report_write(ctx, "inputs/" GEN_PROBS_FILE, &s->probs_text, err);
    if (rc)
        return rc;
    const gen_fw **ok = calloc(s->nfw, sizeof *ok);
    if (!ok)
        return sl_base_error_set(err, SL_ENOMEM, "generation: out of memory");
    size_t nok = 0;
    for (size_t i = 0; i < s->nfw; i++)
        if (!s->fws[i].rc)
            ok[nok++] = &s->fws[i];
    const long *reft = nok ? gen_ref_tokens(s, ctx, ok, nok) : NULL;
    for (size_t i = 0; i < nok; i++) {
        gen_fw *f = (gen_fw *)ok[i];
        f->depart = T;
        f->same = 0;
        for (size_t t = 0; t < T; t++) {
            int eq = f->tokens[t] == reft[t];
            f->same += eq;
            if (!eq && f->depart == T)
                f->depart = t;
        }
    }
    const char *ref = nok ? gen_ref_name(s, ctx, ok, nok) : "";
    sl_io_buf_printf(md,
                     "The logits of one real generation, step by step, through every framework emulation at\n"
                     "one seed. Run %s of `%s`: transformers 5.12.1 `generate(do_sample=True)`\n"
                     "on torch 2.14.1 with its default settings (%s: top-k %d at T = 1), %zu new tokens\n"
                     "after a prompt of %zu tokens, on a random Llama (`%s`, V = %zu). Each framework is one\n"
                     "sampler session across the %zu steps, as `samplab replay` runs it: the prompt is the\n"
                     "starting history, every drawn token is accepted into it, one generator stream from\n"
                     "seed %llu. ",
                     GEN_RUN, GEN_MANIFEST, s->chain, GEN_TOP_K, T, s->prompt_n, s->model, V, T,
                     (unsigned long long)ctx->seed);
    sl_io_buf_puts(md, "The frameworks that take logits (");
    for (size_t i = 0, k = 0; i < nok; i++)
        if (!ok[i]->probs_input)
            sl_io_buf_printf(md, "%s%s", k++ ? ", " : "", ok[i]->fw->name);
    sl_io_buf_printf(md, ") get the recorded\nlogits with top-k %d at T = 1 and their own defaults for the rest "
                         "(llama.cpp's top-p 0.95,\nmin-p 0.05), as `samplab replay --framework all` runs them; "
                         "those that\nsample given weights (",
                     GEN_TOP_K);
    for (size_t i = 0, k = 0; i < nok; i++)
        if (ok[i]->probs_input)
            sl_io_buf_printf(md, "%s%s", k++ ? ", " : "", ok[i]->fw->name);
    sl_io_buf_printf(md,
                     ") get the probabilities that samplab's hf\n"
                     "emulation hands torch.multinomial at each step, transformers' softmax after its top-k\n"
                     "(`inputs/%s`). So every row draws from the\n"
                     "same top-%d distribution at each step, up to each framework's rounding: only the\n"
                     "random words, and how each framework turns them into a token, differ.\n\n",
                     GEN_PROBS_FILE, GEN_TOP_K);
    /* the hf row against what transformers itself generated */
    for (size_t i = 0; i < nok; i++) {
        if (strcmp(ok[i]->fw->name, "hf") || ctx->seed != s->run_seed)
            continue;
        size_t eq = 0, first = T;
        for (size_t t = 0; t < T; t++) {
            eq += ok[i]->tokens[t] == s->golden[t];
            if (ok[i]->tokens[t] != s->golden[t] && first == T)
                first = t;
        }
        if (eq == T)
            sl_io_buf_printf(md, "The hf row is the generation itself: its %zu tokens are the ones transformers\n"
                                 "generated in that run (`tokens=` in the manifest). The table and the figure\n"
                                 "measure every framework against those tokens (`generate()`).\n\n", T);
        else
            sl_io_buf_printf(md, "The hf row differs from the tokens transformers generated in that run at %zu of\n"
                                 "%zu steps, first at step %zu (%ld, not %ld).\n\n",
                             T - eq, T, first, ok[i]->tokens[first], s->golden[first]);
    }
    sl_io_md_rows g;
    sl_io_md_rows_init(&g, 7);
    for (size_t i = 0; i < nok; i++) {
        const gen_fw *f = ok[i];
        uint64_t lo = UINT64_MAX, hi = 0;
        for (size_t t = 0; t < T; t++) {
            uint64_t w = step_words(f, t);
            lo = w < lo ? w : lo;
            hi = w > hi ? w : hi;
        }
        sl_io_md_rows_cell(&g, "%s", f->fw->name);
        sl_io_md_rows_cell(&g, "%s", f->probs_input ? "hf's probabilities" : "logits");
        sl_io_md_rows_cell(&g, "%s", f->rng ? f->rng : "?");
        sl_io_md_rows_cell(&g, "%u", f->word_bits);
        if (lo == hi)
            sl_io_md_rows_cell(&g, "%llu", (unsigned long long)lo);
        else
            sl_io_md_rows_cell(&g, "%llu to %llu", (unsigned long long)lo, (unsigned long long)hi);
        if (f->depart == T)
            sl_io_md_rows_cell(&g, "never");
        else
            sl_io_md_rows_cell(&g, "step %zu (%ld, not %ld)", f->depart, f->tokens[f->depart], reft[f->depart]);
        sl_io_md_rows_cell(&g, "%zu of %zu", f->same, T);
    }
    char h5[64], h6[64];
    snprintf(h5, sizeof h5, "first step that differs from %s", ref);
    snprintf(h6, sizeof h6, "steps with %s's token", ref);
    const char *const gh[7] = {"framework", "reads", "generator", "word bits", "words per step", h5, h6};
    sl_io_md_rows_emit(md, &g, gh, "lllrrll");
    sl_io_md_rows_free(&g);
    for (size_t i = 0; i < s->nfw; i++)
        if (s->fws[i].rc)
            sl_io_buf_printf(md, "\n%s refused this generation: %s\n", s->fws[i].fw->name, s->fws[i].msg);
    /* frameworks with the very same tokens */
    int said = 0;
    for (size_t i = 0; i < nok; i++) {
        int first = 1, any = 0;
        for (size_t j = 0; j < i && first; j++)
            first = memcmp(ok[j]->tokens, ok[i]->tokens, T * sizeof *ok[i]->tokens) != 0;
        if (!first)
            continue;
        for (size_t j = i + 1; j < nok; j++)
            if (!memcmp(ok[j]->tokens, ok[i]->tokens, T * sizeof *ok[i]->tokens)) {
                if (!any && said)
                    sl_io_buf_printf(md, "; %s", ok[i]->fw->name);
                else if (!any)
                    sl_io_buf_printf(md, "\nThe same %zu tokens: %s", T, ok[i]->fw->name);
                sl_io_buf_printf(md, " = %s", ok[j]->fw->name);
                any = said = 1;
            }
        if (any)
            sl_io_buf_printf(md, " (%s, %llu words a step)", ok[i]->rng ? ok[i]->rng : "?",
                             (unsigned long long)step_words(ok[i], 0));
    }
    if (said)
        sl_io_buf_puts(md, ": one generator, seeded the same way, spending the same words per step on\n"
                           "the same race over the same probabilities.\n");
    /* steps where every framework draws the same token */
    size_t nall = 0;
    for (size_t t = 0; t < T; t++) {
        int all = 1;
        for (size_t i = 1; i < nok; i++)
            all &= ok[i]->tokens[t] == ok[0]->tokens[t];
        if (!all)
            continue;
        long tok = ok[0]->tokens[t];
        double p = s->probs.d ? s->probs.d[t * V + (size_t)tok] : NAN;
        sl_io_buf_printf(md, "%s step %zu (%ld, p = %.3f)", nall++ ? "," : "\nAll of them draw the same token at",
                         t, tok, p);
    }
    if (nall)
        sl_io_buf_printf(md, ": steps where one token holds most of the top-%d probability\n(p as transformers "
                             "computed it), so any uniform picks it.\n", GEN_TOP_K);
    sl_io_buf_printf(md,
                     "\nThe logits are the recorded ones at every step. In a real generation a framework that\n"
                     "departs feeds its own token back and the model gives other logits from then on; the\n"
                     "replay keeps the recorded logits, so the steps after a departure show what each\n"
                     "sampler draws from the same distributions, not the text it would have written.\n\n"
                     "Replay it (the first command prints the %s frameworks side by side with the first\n"
                     "step each departs; `--json` adds the words after each step; DIR is the report's\n"
                     "directory, `reports` for `make report`):\n\n"
                     "    samplab replay --framework all --logits %s --tensor %s.logits --context ",
                     s->nlogits == 1 ? "one" : "logits", GEN_LOGITS, GEN_RUN);
    for (size_t i = 0; i < s->prompt_n; i++)
        sl_io_buf_printf(md, "%s%ld", i ? "," : "", s->prompt[i]);
    sl_io_buf_printf(md, " --temperature 1 --top-k %d --cpu %s --seed %llu\n", GEN_TOP_K,
                     sl_logits_cpu_name(SL_REPORT_CPU), (unsigned long long)ctx->seed);
    for (size_t i = 0; i < nok; i++)
        if (ok[i]->probs_input)
            sl_io_buf_printf(md, "    samplab replay --framework %s --probs DIR/inputs/%s%s --seed %llu\n",
                             ok[i]->fw->name, GEN_PROBS_FILE,
                             ok[i]->fw->accepts & SL_OPT_DTYPE ? " --dtype float32" : "",
                             (unsigned long long)ctx->seed);
    sl_io_buf_puts(md, "\n");
    rc = nok ? gen_figure(ctx, s, ok, nok, T, err) : 0;
    if (!rc && nok) {
        sl_buf cap;
        sl_io_buf_init(&cap);
        sl_io_buf_printf(&cap, "Top: a filled dot is a step where the framework draws the token of %s (top row), "
                               "an open one a step where it draws another, the square its first such step; ",
                         ref);
        size_t nsame = 0;
        for (size_t i = 0; i < nok; i++)
            if (ok[i]->depart == T)
                sl_io_buf_printf(&cap, "%s%s", nsame++ ? ", " : "only ", ok[i]->fw->name);
        if (nsame)
            sl_io_buf_printf(&cap, " stay%s on it all %zu steps. ", nsame == 1 ? "s" : "", T);
        else
            sl_io_buf_printf(&cap, "no framework stays on it all %zu steps. ", T);
        sl_io_buf_puts(&cap, "Bottom: the random words each step spends, a curve per set of frameworks that spend "
                             "the same; a framework can only follow another if it spends the same words.");
        sl_report_figure_md(md, "generation_tokens", "tokens and words of one generation", cap.oom ? "" : cap.data);
        sl_io_buf_puts(md, "\n");
        sl_io_buf_free(&cap);
    }
    free(ok);
    if (rc)
        return rc;
    sl_io_buf_puts(md, "Remake this section alone:\n\n");
    sl_report_cmd_only(ctx, md, "generation");
    return 0;
}

static void gen_release(void *state)
{
    gen_state *s = state;
    if (!s)
        return;
    for (size_t i = 0; i < s->nfw; i++) {
        free(s->fws[i].tokens);
        free(s->fws[i].words);
        free(s->fws[i].kept);
    }
    free(s->fws);
    free(s->golden);
    sl_io_steps_free(&s->logits);
    sl_io_steps_free(&s->probs);
    sl_io_buf_free(&s->probs_text);
    free(s);
}

const sl_report_section sl_report_section_generation = {"generation", "Same seed, other tokens over a generation",
                                                        gen_plan, gen_emit, gen_release};
