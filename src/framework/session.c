/* session.c — sampler sessions: one generator stream and one history across
 * steps, whatever the framework. The framework type's step composes its
 * pipeline and draw; this file owns the stream, the history and the words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/sl_fw.h"

static int hist_reserve(sl_fw_session *s, size_t n, sl_error *err)
{
    if (n <= s->hist_cap)
        return SL_OK;
    size_t cap = s->hist_cap ? s->hist_cap : 64;
    while (cap < n)
        cap *= 2;
    long *h = realloc(s->hist, cap * sizeof *h);
    if (!h)
        return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for a history of %zu tokens", s->type->name, n);
    s->hist = h;
    s->hist_cap = cap;
    s->o.cfg.context = s->hist;
    return SL_OK;
}

int sl_fw_variant_find(const sl_fw_type *t, const char *name, const char *opt, const sl_fw_variant **out,
                       sl_error *err)
{
    *out = NULL;
    if (!t->variants)
        return name ? sl_base_error_set(err, SL_EINVAL, "framework %s has no release lines to choose", t->name) : SL_OK;
    if (!name) {
        *out = &t->variants[0];
        return SL_OK;
    }
    for (const char *const *u = t->unreproducible; u && u[0]; u += 2) {
        size_t n = strlen(u[0]);
        if (!strncmp(name, u[0], n) && (name[n] == '\0' || name[n] == '.'))
            return sl_base_error_set(err, SL_EINVAL, "%s %s: %s", opt ? opt : "the release line", name, u[1]);
    }
    char list[256] = "";
    /* a framework that runs only with its line named (ollama) has no default among them */
    int needs = t->pipeline && (t->pipeline->traits & SL_LOGITS_TRAIT_NEEDS_VARIANT);
    for (const sl_fw_variant *v = t->variants; v->name; v++) {
        if (!strcmp(v->name, name)) {
            *out = v;
            return SL_OK;
        }
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s%s", n ? ", " : "", v->name,
                 v == t->variants && t->variants[1].name && !needs ? " (default)" : ""); /* one line: none to default among */
    }
    return sl_base_error_set(err, SL_EINVAL, "%s takes %s, not '%s'", opt ? opt : "the release line", list,
                             name);
}

const char *sl_fw_session_version(const sl_fw_session *s)
{
    if (!s || s->magic != SL_FW_SESSION_MAGIC || !s->type)
        return NULL;
    return s->version ? s->version : s->variant ? s->variant->version : s->type->version;
}

int sl_fw_replacement(const sl_fw_type *t, const sl_fw_opts *o)
{
    if (o->replacement)
        return o->replacement == SL_FW_REPLACEMENT_YES;
    return t->replacement_default;
}

int sl_fw_session_open(sl_fw_session *s, const sl_fw_type *t, const sl_fw_opts *o, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_fw_session_open", s);
    memset(s, 0, sizeof *s);
    SL_BASE_NONNULL(err, "sl_fw_session_open", o);
    if (sl_logits_cfg_check(&o->cfg, "sl_fw_session_open", err))
        return SL_EINVAL;
    if (!t)
        return sl_base_error_set(err, SL_EINVAL, "no such framework (sl_fw_lookup gave NULL)");
    /* A vector of the kind the type does not take would be read as the other kind
     * (probabilities stepped as llama.cpp logits): refused as sl_fw_run refuses it. */
    if ((o->probs && !o->logits && !(t->accepts & SL_OPT_PROBS)) ||
        (o->logits && !o->probs && !(t->accepts & SL_OPT_LOGITS)))
        return sl_base_error_set(err, SL_EINVAL, "framework %s takes --%s (%s)", t->name,
                                 t->accepts & SL_OPT_LOGITS ? "logits" : "probs", t->input_why);
    const sl_fw_type *runs = sl_fw_lookup_as(t->name, o->variant);
    if (runs && runs != t && t->variant_runs)
        return sl_fw_session_open(s, runs, o, err); /* that release line is another program */
    s->type = t;
    s->o = *o;
    s->logits_input = (t->accepts & SL_OPT_LOGITS) && (o->logits || !(t->accepts & SL_OPT_PROBS));
    s->o.probs = s->o.logits = NULL;
    /* the settings in force: what o leaves unset takes the library's default */
    if (t->pipeline && s->logits_input)
        sl_logits_cfg_resolve(t->pipeline, &s->o.cfg, NULL);
    s->k = 1;
    sl_seed seed;
    memset(&seed, 0, sizeof seed);
    seed.lo = t->default_seed;
    if (o->has_seed)
        seed = o->seed;
    int rc = sl_fw_variant_find(t, o->variant, o->variant_opt, &s->variant, err);
    if (!rc)
        rc = hist_reserve(s, o->cfg.context_n ? o->cfg.context_n : 1, err);
    if (!rc) {
        if (o->cfg.context_n)
            memcpy(s->hist, o->cfg.context, o->cfg.context_n * sizeof *s->hist);
        s->hist_n = o->cfg.context_n;
        s->o.cfg.context = s->hist;
        s->o.cfg.context_n = s->hist_n;
    }
    if (!rc && t->open)
        rc = t->open(s, err);
    if (!rc) {
        const sl_rng_type *rt = sl_rng_lookup(t->rng);
        rc = rt ? sl_rng_init(&s->rng, rt, &seed, err)
                : sl_base_error_set(err, SL_EINVAL, "%s: no random source '%s'", t->name, t->rng);
    }
    if (!rc && !(s->tokens = malloc((s->k ? s->k : 1) * sizeof *s->tokens)))
        rc = sl_base_error_set(err, SL_ENOMEM, "%s: out of memory for %zu tokens a call", t->name, s->k);
    if (!rc)
        s->magic = SL_FW_SESSION_MAGIC;
    if (rc)
        sl_fw_session_close(s);
    return rc;
}

/* s is an open session: not NULL, not closed, not a zeroed or stray struct. */
static int session_ok(const sl_fw_session *s, const char *call, sl_error *err)
{
    SL_BASE_NONNULL(err, call, s);
    if (s->magic != SL_FW_SESSION_MAGIC || !s->type)
        return sl_base_error_set(err, SL_EINVAL, "%s: the session is closed or was never opened", call);
    return SL_OK;
}

int sl_fw_session_step(sl_fw_session *s, const sl_vec *v, sl_fw_step *out, sl_error *err)
{
    if (session_ok(s, "sl_fw_session_step", err))
        return SL_EINVAL;
    SL_BASE_NONNULL(err, "sl_fw_session_step", out);
    if (!v || !v->n)
        return sl_base_error_set(err, SL_EINVAL, "%s: %s", s->type ? s->type->name : "session",
                                 v ? "empty vector: nothing to draw from" : "no vector to step on (NULL)");
    uint64_t before = s->rng.words;
    size_t kept = v->n;
    int rc = s->type->step(s, v, &kept, err);
    if (rc)
        return rc;
    s->prepared_vec = v;
    s->prepared_hist = s->hist_n;
    out->tokens = s->tokens;
    out->k = s->k;
    out->words = s->rng.words - before;
    out->kept = kept;
    return SL_OK;
}

int sl_fw_session_probs(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_fw_session_probs", out);
    memset(out, 0, sizeof *out);
    if (session_ok(s, "sl_fw_session_probs", err))
        return SL_EINVAL;
    memset(out, 0, sizeof *out);
    if (!v || !v->n)
        return sl_base_error_set(err, SL_EINVAL, "%s: %s", s->type->name,
                                 v ? "empty vector: no distribution" : "no vector (NULL)");
    if (!s->type->probs)
        return sl_base_error_set(err, SL_EINVAL, "framework %s cannot say which distribution it draws from",
                                 s->type->name);
    return s->type->probs(s, v, out, err);
}

int sl_fw_probs_of_weights(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err)
{
    (void)s;
    int rc = sl_base_vec_check_weights(v, err);
    if (rc || (rc = sl_logits_result_alloc(out, v->n, err)))
        return rc;
    double sum = 0;
    for (size_t i = 0; i < v->n; i++)
        sum += v->d[i];
    for (size_t i = 0; i < v->n; i++) {
        out->probs[i] = v->d[i] / sum;
        out->kept[i] = v->d[i] > 0;
        out->n_kept += out->kept[i];
    }
    out->precision = 64;
    return SL_OK;
}

int sl_fw_probs_of_pipeline(sl_fw_session *s, const sl_vec *v, sl_logits_result *out, sl_error *err)
{
    return sl_logits_pipeline_run(s->type->pipeline, v, &s->o.cfg, out, err);
}

void sl_fw_session_forget(sl_fw_session *s)
{
    if (!s || s->magic != SL_FW_SESSION_MAGIC)
        return;
    s->prepared_vec = NULL;
}

int sl_fw_session_accept(sl_fw_session *s, long token, sl_error *err)
{
    if (session_ok(s, "sl_fw_session_accept", err))
        return SL_EINVAL;
    if (token < 0)
        return sl_base_error_set(err, SL_EINVAL, "%s: token %ld is not a token id", s->type->name, token);
    int rc = hist_reserve(s, s->hist_n + 1, err);
    if (rc)
        return rc;
    s->hist[s->hist_n++] = token;
    s->o.cfg.context_n = s->hist_n;
    return s->type->accept ? s->type->accept(s, token, err) : SL_OK;
}

void sl_fw_session_close(sl_fw_session *s)
{
    /* a second close, or one of a session never opened (whose pointers are not
     * ours to free), does nothing; a failed open's partial session is freed */
    if (!s || (s->magic != SL_FW_SESSION_MAGIC && !s->type))
        return;
    if (s->type && s->type->close)
        s->type->close(s);
    sl_rng_release(&s->rng);
    free(s->hist);
    free(s->tokens);
    memset(s, 0, sizeof *s);
}

#define RUN_TICK 256 /* steps between progress ticks: ~25 us at V = 8, ~0.3 s at V = 151,936 */

int sl_fw_run_each(const sl_fw_type *t, const sl_fw_opts *o, const sl_progress *prog, sl_fw_each_fn each,
                   void *ctx, sl_fw_result *out, size_t *done, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_fw_run", out);
    memset(out, 0, sizeof *out);
    SL_BASE_NONNULL(err, "sl_fw_run", t);
    SL_BASE_NONNULL(err, "sl_fw_run", o);
    memset(out, 0, sizeof *out);
    if (done)
        *done = 0;
    const sl_vec *v = (t->accepts & SL_OPT_LOGITS) && o->logits ? o->logits
                      : (t->accepts & SL_OPT_PROBS) && o->probs ? o->probs : NULL;
    if (!v)
        return sl_base_error_set(err, SL_EINVAL, "framework %s takes --%s (%s)", t->name,
                                 t->accepts & SL_OPT_LOGITS ? "logits" : "probs", t->input_why);
    sl_fw_session s;
    int rc = sl_fw_session_open(&s, t, o, err);
    if (rc)
        return rc;
    size_t n = o->n, k = s.k;
    if (!each) {
        if (k && n > SIZE_MAX / sizeof(long) / k) {
            sl_fw_session_close(&s);
            return sl_base_error_set(err, SL_EINVAL, "--n %zu times --num-samples %zu is too many tokens", n, k);
        }
        size_t ntok = n * k;
        out->tokens = malloc((ntok ? ntok : 1) * sizeof *out->tokens);
        if (!out->tokens) {
            sl_fw_session_close(&s);
            return sl_base_error_set(err, SL_ENOMEM, "out of memory for %zu tokens", n * k);
        }
    }
    for (size_t i = 0; i < n && !rc; i++) {
        if (!(i % RUN_TICK) && prog && prog->tick && prog->tick(prog->ctx, i, n)) {
            rc = sl_base_error_set(err, SL_EINTR, "interrupted after %zu of %zu steps", i, n);
            break;
        }
        sl_fw_step st;
        rc = sl_fw_session_step(&s, v, &st, err);
        if (!rc && each)
            each(ctx, st.tokens, k);
        else if (!rc)
            memcpy(out->tokens + i * k, st.tokens, k * sizeof *st.tokens);
        for (size_t j = 0; !rc && t->accepts_drawn && j < k; j++)
            rc = sl_fw_session_accept(&s, st.tokens[j], err);
        if (!rc && done)
            *done = i + 1;
    }
    if (rc) {
        sl_fw_result_free(out);
        sl_fw_session_close(&s);
        return rc;
    }
    out->n = n;
    out->k = k;
    out->rng_name = t->rng_label ? t->rng_label : s.rng.type->name;
    out->version = sl_fw_session_version(&s);
    if (t->accepts & SL_OPT_CPU)
        out->cpu = sl_logits_cpu_name(sl_logits_cpu_resolve(s.o.cfg.cpu));
    out->word_bits = s.rng.type->word_bits;
    out->words = s.rng.words;
    sl_fw_session_close(&s);
    return SL_OK;
}

int sl_fw_run(const sl_fw_type *t, const sl_fw_opts *o, sl_fw_result *out, sl_error *err)
{
    return sl_fw_run_each(t, o, NULL, NULL, NULL, out, NULL, err);
}

int sl_fw_session_open_prompt(sl_fw_session *s, const sl_fw_type *t, const sl_fw_opts *o, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_fw_session_open_prompt", s);
    memset(s, 0, sizeof *s);
    SL_BASE_NONNULL(err, "sl_fw_session_open_prompt", o);
    SL_BASE_NONNULL_N(err, "sl_fw_session_open_prompt", o->cfg.context, o->cfg.context_n);
    sl_fw_opts q = *o;
    q.cfg.context = NULL;
    q.cfg.context_n = 0;
    int rc = sl_fw_session_open(s, t, &q, err);
    for (size_t i = 0; !rc && i < o->cfg.context_n; i++)
        if ((rc = sl_fw_session_accept(s, o->cfg.context[i], err)))
            sl_fw_session_close(s);
    return rc;
}

int sl_fw_replay(const sl_fw_type *t, const sl_fw_opts *o, size_t T, size_t V, const char *source, sl_fw_row_fn row,
                 const void *user, long *tokens, uint64_t *words, size_t *kept, const char **rng_name, sl_error *err)
{
    sl_fw_session s;
    sl_vec rows[2];
    memset(rows, 0, sizeof rows);
    int rc = sl_fw_session_open_prompt(&s, t, o, err);
    if (rc)
        return rc;
    /* two row buffers in turn: a session reuses its prepared state only for the same vector */
    if ((rc = sl_base_vec_alloc(&rows[0], V, source, err)) || (rc = sl_base_vec_alloc(&rows[1], V, source, err)))
        goto out;
    for (size_t i = 0; i < T; i++) {
        sl_vec *r = &rows[i & 1];
        if ((rc = row(user, i, r))) {
            rc = sl_base_error_set(err, rc, "%s: cannot read step %zu", source, i);
            goto out;
        }
        if (o->dtype_set)
            r->dtype = o->dtype;
        sl_fw_step st;
        if ((rc = sl_fw_session_step(&s, r, &st, err)))
            goto out;
        tokens[i] = st.tokens[0];
        words[i] = (i ? words[i - 1] : 0) + st.words;
        kept[i] = st.kept;
        if ((rc = sl_fw_session_accept(&s, st.tokens[0], err)))
            goto out;
    }
    if (rng_name)
        *rng_name = t->rng_label ? t->rng_label : s.rng.type->name;
out:
    sl_base_vec_free(&rows[0]);
    sl_base_vec_free(&rows[1]);
    sl_fw_session_close(&s);
    return rc;
}
