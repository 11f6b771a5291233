/* audit_log.c — what a serving engine answered, per generated token, read into
 * sl_api_audit_req: samplab audit's own log (a header line, then one line per
 * request: body, status, response, times) or one response body per line. The
 * forms read, as the engines answer them:
 *   llama-server /completion: completion_probabilities[] of {id, logprob,
 *     top_logprobs[{id, logprob}]}, or {id, prob, top_probs[{id, prob}]} with
 *     post_sampling_probs (tools/server/server-common.cpp, completion_token_output);
 *   OpenAI-compatible chat or llama-server's /v1/completions: choices[0].logprobs.content[]
 *     of {token, logprob, top_logprobs[{token, logprob}]} (ids where the engine adds them);
 *   OpenAI's legacy completions (vLLM): choices[0].logprobs {tokens[], token_logprobs[],
 *     top_logprobs[{text: logprob}]}; vLLM's return_tokens_as_token_ids names them "token_id:N".
 * A token named only by its text is given the index of that text in the log's
 * own table, so equal texts are one token. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "api/sl_api.h"

#define MAX_ID 0x7fffffffL

typedef struct ctx {
    const char *name;
    size_t line;
    sl_api_audit_log *lg;
    sl_error *err;
} ctx;

static int bad(const ctx *c, const char *what, size_t step, const char *fmt, const char *detail)
{
    char d[256];
    snprintf(d, sizeof d, fmt, detail);
    if (step == SIZE_MAX)
        return sl_base_error_set(c->err, SL_EINVAL, "%s: line %zu: %s%s", c->name, c->line, what, d);
    return sl_base_error_set(c->err, SL_EINVAL, "%s: line %zu: token %zu: %s%s", c->name, c->line, step, what, d);
}

/* The id a token text names: its index in the log's table (added when new). */
static int text_id(const ctx *c, const char *t, long *id)
{
    sl_api_audit_log *lg = c->lg;
    /* vLLM's return_tokens_as_token_ids: "token_id:123" is the id itself */
    if (!strncmp(t, "token_id:", 9) && !lg->n_text) {
        char *e;
        errno = 0;
        long v = strtol(t + 9, &e, 10);
        if (!*e && e != t + 9 && !errno && v >= 0 && v <= MAX_ID) {
            *id = v;
            return SL_OK;
        }
    }
    lg->by_text = 1;
    for (size_t i = 0; i < lg->n_text; i++)
        if (!strcmp(lg->text[i], t)) {
            *id = (long)i;
            return SL_OK;
        }
    char **nt = realloc(lg->text, (lg->n_text + 1) * sizeof *nt);
    if (!nt)
        return sl_base_error_set(c->err, SL_ENOMEM, "%s: out of memory", c->name);
    lg->text = nt;
    if (!(nt[lg->n_text] = strdup(t)))
        return sl_base_error_set(c->err, SL_ENOMEM, "%s: out of memory", c->name);
    *id = (long)lg->n_text++;
    return SL_OK;
}

/* An entry's id: "id" where the engine gives it, else its "token" text. */
static int entry_id(const ctx *c, json_t *e, size_t step, long *id)
{
    json_t *j = json_object_get(e, "id");
    if (j) {
        if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > MAX_ID)
            return bad(c, "\"id\" is not a token id", step, "%s", "");
        if (c->lg->by_text)
            return bad(c, "ids and token texts mixed", step, "%s", "");
        *id = (long)json_integer_value(j);
        return SL_OK;
    }
    json_t *t = json_object_get(e, "token");
    if (!json_is_string(t))
        return bad(c, "an entry has neither \"id\" nor \"token\"", step, "%s", "");
    return text_id(c, json_string_value(t), id);
}

/* A value: a log-probability (finite, <= 0 but for rounding) or a probability in [0, 1]. */
static int value(const ctx *c, json_t *j, int post, size_t step, double *v)
{
    if (!json_is_number(j))
        return bad(c, post ? "\"prob\" is not a number" : "\"logprob\" is not a number", step, "%s", "");
    double x = json_number_value(j);
    if (!isfinite(x) || (post ? (x < 0 || x > 1 + 1e-6) : x > 1e-6))
        return bad(c, post ? "\"prob\" is not a probability" : "\"logprob\" is above 0", step, " (%s)",
                   json_is_real(j) ? "out of range" : "an integer");
    *v = x;
    return SL_OK;
}

static int step_alloc(const ctx *c, sl_api_audit_step *s, size_t n)
{
    s->n = 0;
    s->id = malloc((n ? n : 1) * sizeof *s->id);
    s->v = malloc((n ? n : 1) * sizeof *s->v);
    if (!s->id || !s->v)
        return sl_base_error_set(c->err, SL_ENOMEM, "%s: out of memory", c->name);
    return SL_OK;
}

/* The per-token list of llama-server's completion_probabilities or an OpenAI content[]. */
static int read_content(const ctx *c, json_t *arr, int post, sl_api_audit_req *r)
{
    size_t T = json_array_size(arr);
    if (!(r->step = calloc(T ? T : 1, sizeof *r->step)))
        return sl_base_error_set(c->err, SL_ENOMEM, "%s: out of memory", c->name);
    r->T = T;
    const char *vk = post ? "prob" : "logprob", *lk = post ? "top_probs" : "top_logprobs";
    for (size_t t = 0; t < T; t++) {
        json_t *e = json_array_get(arr, t);
        sl_api_audit_step *s = &r->step[t];
        if (!json_is_object(e))
            return bad(c, "a token is not an object", t, "%s", "");
        if (entry_id(c, e, t, &s->chosen))
            return SL_EINVAL;
        json_t *cv = json_object_get(e, vk);
        if (!cv && json_object_get(e, post ? "logprob" : "prob"))
            return bad(c, post ? "the body asked for post-sampling probabilities, the answer has log-probabilities"
                               : "the body asked for log-probabilities, the answer has post-sampling probabilities",
                       t, "%s", "");
        s->chosen_v = NAN;
        if (cv && value(c, cv, post, t, &s->chosen_v))
            return SL_EINVAL;
        json_t *top = json_object_get(e, lk);
        if (top && !json_is_array(top))
            return bad(c, "\"", t, "%s\" is not a list", lk);
        size_t n = json_array_size(top);
        if (step_alloc(c, s, n))
            return SL_ENOMEM;
        for (size_t i = 0; i < n; i++) {
            json_t *x = json_array_get(top, i);
            if (!json_is_object(x))
                return bad(c, "an entry of \"", t, "%s\" is not an object", lk);
            long id;
            double v;
            if (entry_id(c, x, t, &id) || value(c, json_object_get(x, vk), post, t, &v))
                return SL_EINVAL;
            for (size_t k = 0; k < s->n; k++)
                if (s->id[k] == id)
                    return bad(c, "a token listed twice in \"", t, "%s\"", lk);
            s->id[s->n] = id;
            s->v[s->n++] = v;
        }
    }
    return SL_OK;
}

/* OpenAI's legacy completions logprobs: parallel lists of texts and values. */
static int read_legacy(const ctx *c, json_t *lp, sl_api_audit_req *r)
{
    json_t *toks = json_object_get(lp, "tokens"), *vals = json_object_get(lp, "token_logprobs"),
           *tops = json_object_get(lp, "top_logprobs");
    if (!json_is_array(toks) || !json_is_array(vals) || json_array_size(vals) != json_array_size(toks))
        return bad(c, "logprobs has no tokens and token_logprobs lists of one length", SIZE_MAX, "%s", "");
    size_t T = json_array_size(toks);
    if (!(r->step = calloc(T ? T : 1, sizeof *r->step)))
        return sl_base_error_set(c->err, SL_ENOMEM, "%s: out of memory", c->name);
    r->T = T;
    for (size_t t = 0; t < T; t++) {
        sl_api_audit_step *s = &r->step[t];
        json_t *tk = json_array_get(toks, t);
        if (!json_is_string(tk))
            return bad(c, "a token is not a text", t, "%s", "");
        if (text_id(c, json_string_value(tk), &s->chosen) || value(c, json_array_get(vals, t), 0, t, &s->chosen_v))
            return SL_EINVAL;
        json_t *top = json_array_get(tops, t);
        if (top && !json_is_object(top) && !json_is_null(top))
            return bad(c, "a top_logprobs entry is not an object", t, "%s", "");
        if (step_alloc(c, s, json_object_size(top)))
            return SL_ENOMEM;
        const char *k;
        json_t *v;
        json_object_foreach(top, k, v) {
            long id;
            double x;
            if (text_id(c, k, &id) || value(c, v, 0, t, &x))
                return SL_EINVAL;
            s->id[s->n] = id;
            s->v[s->n++] = x;
        }
        /* listed by decreasing value, as the other forms are */
        for (size_t i = 1; i < s->n; i++)
            for (size_t j = i; j > 0 && s->v[j] > s->v[j - 1]; j--) {
                double tv = s->v[j];
                long ti = s->id[j];
                s->v[j] = s->v[j - 1];
                s->id[j] = s->id[j - 1];
                s->v[j - 1] = tv;
                s->id[j - 1] = ti;
            }
    }
    return SL_OK;
}

/* A log of bodies alone is named by their form, one form a log (the claim's route defaults
 * depend on it: Ollama's /v1/completions, audit.c). */
static int form_is(const ctx *c, const char *api)
{
    sl_api_audit_log *lg = c->lg;
    if (lg->has_header)
        return SL_OK;
    if (lg->api[0] && strcmp(lg->api, api))
        return bad(c, "a response in another form than the first's (llama-server's /completion, an "
                      "OpenAI-compatible route, Ollama's /api/generate): give one server's log", SIZE_MAX, "%s", "");
    snprintf(lg->api, sizeof lg->api, "%s", api);
    return SL_OK;
}

static int response(const ctx *c, json_t *resp, int post, sl_api_audit_req *r)
{
    if (!json_is_object(resp))
        return bad(c, "the response is not a JSON object", SIZE_MAX, "%s", "");
    json_t *err = json_object_get(resp, "error");
    if (err && !json_is_null(err)) {
        json_t *m = json_is_object(err) ? json_object_get(err, "message") : err;
        return bad(c, "the server answered an error: ", SIZE_MAX, "%s",
                   json_is_string(m) ? json_string_value(m) : "(no message)");
    }
    json_t *cp = json_object_get(resp, "completion_probabilities");
    if (json_is_array(cp)) {
        if (form_is(c, "llama-server"))
            return SL_EINVAL;
        if (json_array_size(cp) && json_object_get(json_array_get(cp, 0), "prob"))
            post = 1;
        r->post = post;
        if (!r->has_seed) { /* llama-server echoes the seed it used */
            json_t *gs = json_object_get(json_object_get(resp, "generation_settings"), "seed");
            if (json_is_integer(gs) && json_integer_value(gs) >= 0 && json_integer_value(gs) != 4294967295LL) {
                r->has_seed = 1;
                r->seed = (uint64_t)json_integer_value(gs);
            }
        }
        return read_content(c, cp, post, r);
    }
    json_t *ch = json_object_get(resp, "choices"), *ol = json_object_get(resp, "logprobs");
    if (!ch && json_object_get(resp, "done")) { /* Ollama's /api/generate: logprobs[] of {token, logprob, top_logprobs} */
        if (form_is(c, "ollama"))
            return SL_EINVAL;
        if (!json_is_array(ol))
            return bad(c, "the Ollama answer has no logprobs (ask with logprobs true; Ollama v0.12.11 on)", SIZE_MAX,
                       "%s", "");
        r->post = 0;
        return read_content(c, ol, 0, r);
    }
    if (!json_is_array(ch) || !json_array_size(ch))
        return bad(c, "the response has neither completion_probabilities, choices nor an Ollama logprobs list",
                   SIZE_MAX, "%s", "");
    if (json_array_size(ch) > 1)
        return bad(c, "the response has several choices (n > 1): not modelled by samplab audit", SIZE_MAX, "%s", "");
    if (form_is(c, "openai"))
        return SL_EINVAL;
    json_t *lp = json_object_get(json_array_get(ch, 0), "logprobs");
    if (!json_is_object(lp))
        return bad(c, "choices[0] has no logprobs (ask with logprobs and top_logprobs)", SIZE_MAX, "%s", "");
    json_t *content = json_object_get(lp, "content");
    if (json_is_array(content)) {
        if (json_array_size(content) && json_object_get(json_array_get(content, 0), "prob"))
            post = 1;
        r->post = post;
        return read_content(c, content, post, r);
    }
    r->post = 0;
    return read_legacy(c, lp, r);
}

int sl_api_audit_response(const char *name, size_t line, json_t *resp, int post, sl_api_audit_log *lg,
                          sl_api_audit_req *r, sl_error *err)
{
    ctx c = {name, line, lg, err};
    return response(&c, resp, post, r);
}

static int ids_of(const ctx *c, json_t *a, long **out, size_t *n)
{
    if (!json_is_array(a))
        return bad(c, "\"prompt_tokens\" is not a list of token ids", SIZE_MAX, "%s", "");
    size_t k = json_array_size(a);
    if (!(*out = malloc((k ? k : 1) * sizeof **out)))
        return sl_base_error_set(c->err, SL_ENOMEM, "%s: out of memory", c->name);
    for (size_t i = 0; i < k; i++) {
        json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > MAX_ID)
            return bad(c, "\"prompt_tokens\" holds an entry that is not a token id", SIZE_MAX, "%s", "");
        (*out)[i] = (long)json_integer_value(x);
    }
    *n = k;
    return SL_OK;
}

static int header(const ctx *c, json_t *h)
{
    sl_api_audit_log *lg = c->lg;
    json_t *v = json_object_get(h, "samplab_audit");
    if (!json_is_integer(v) || json_integer_value(v) != 1)
        return bad(c, "samplab_audit: only version 1 is read", SIZE_MAX, "%s", "");
    lg->has_header = 1;
    json_t *api = json_object_get(h, "api");
    if (json_is_string(api)) {
        if (strcmp(json_string_value(api), "llama-server") && strcmp(json_string_value(api), "openai") &&
            strcmp(json_string_value(api), "ollama"))
            return bad(c, "\"api\" is not llama-server, openai or ollama", SIZE_MAX, "%s", "");
        snprintf(lg->api, sizeof lg->api, "%s", json_string_value(api));
    }
    json_t *pt = json_object_get(h, "prompt_tokens");
    if (pt && !json_is_null(pt) && ids_of(c, pt, &lg->prompt, &lg->prompt_n))
        return SL_EINVAL;
    json_t *bi = json_object_get(json_object_get(h, "props"), "build_info");
    if (!json_is_string(bi))
        bi = json_object_get(h, "ollama_version"); /* Ollama's /api/version: the release it names */
    if (json_is_string(bi))
        snprintf(lg->build, sizeof lg->build, "%s", json_string_value(bi));
    json_t *cl = json_object_get(h, "claim");
    if (cl && !json_is_null(cl)) {
        if (!json_is_object(cl))
            return bad(c, "\"claim\" is not an object", SIZE_MAX, "%s", "");
        lg->claim = json_incref(cl);
    }
    return SL_OK;
}

/* A request line of samplab audit's own log. */
static int request(const ctx *c, json_t *o, sl_api_audit_req *r)
{
    json_t *p = json_object_get(o, "purpose"), *sa = json_object_get(o, "same_as"), *body = json_object_get(o, "body");
    const char *ps = json_is_string(p) ? json_string_value(p) : "sample";
    r->purpose = !strcmp(ps, "repeat") ? SL_API_AUDIT_REPEAT : !strcmp(ps, "concurrent") ? SL_API_AUDIT_CONCURRENT
                                                                                          : SL_API_AUDIT_SAMPLE;
    if (strcmp(ps, "sample") && r->purpose == SL_API_AUDIT_SAMPLE)
        return bad(c, "\"purpose\" is not sample, repeat or concurrent", SIZE_MAX, "%s", "");
    r->same_as = -1;
    if (r->purpose != SL_API_AUDIT_SAMPLE) {
        if (!json_is_integer(sa) || json_integer_value(sa) < 0 || (size_t)json_integer_value(sa) >= c->lg->n)
            return bad(c, "\"same_as\" names no earlier request", SIZE_MAX, "%s", "");
        r->same_as = (long)json_integer_value(sa);
    }
    json_t *opts = json_is_object(body) ? json_object_get(body, "options") : NULL; /* Ollama's /api/generate */
    json_t *seed = json_is_object(opts) ? json_object_get(opts, "seed")
                   : json_is_object(body) ? json_object_get(body, "seed") : json_object_get(o, "seed");
    if (seed && !json_is_null(seed)) {
        if (!json_is_integer(seed) || json_integer_value(seed) < 0)
            return bad(c, "\"seed\" is not a non-negative integer", SIZE_MAX, "%s", "");
        r->has_seed = json_integer_value(seed) != -1 && json_integer_value(seed) != 4294967295LL;
        r->seed = (uint64_t)json_integer_value(seed);
    }
    int post = 0;
    if (json_is_object(body)) {
        post = json_is_true(json_object_get(body, "post_sampling_probs"));
        json_t *np = json_object_get(body, "n_probs");
        if (!np)
            np = json_object_get(body, "logprobs");
        if (!json_is_integer(np))
            np = json_object_get(body, "top_logprobs");
        if (json_is_integer(np) && json_integer_value(np) > 0)
            r->n_probs = (size_t)json_integer_value(np);
    }
    json_t *st = json_object_get(o, "started_ms"), *tm = json_object_get(o, "time_ms");
    r->started_ms = json_is_number(st) ? json_number_value(st) : NAN;
    r->time_ms = json_is_number(tm) ? json_number_value(tm) : NAN;
    json_t *e = json_object_get(o, "error");
    if (json_is_string(e))
        return bad(c, "the request failed when it was recorded: ", SIZE_MAX, "%s", json_string_value(e));
    json_t *status = json_object_get(o, "status");
    if (json_is_integer(status) && json_integer_value(status) != 200) {
        char st_text[32];
        snprintf(st_text, sizeof st_text, "%lld", (long long)json_integer_value(status));
        return bad(c, "the server answered status ", SIZE_MAX, "%s", st_text);
    }
    return response(c, json_object_get(o, "response"), post, r);
}

int sl_api_audit_log_parse(const char *name, const char *text, size_t len, sl_api_audit_log *lg, sl_error *err)
{
    memset(lg, 0, sizeof *lg);
    ctx c = {name, 0, lg, err};
    size_t cap = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        c.line++;
        const char *q = p;
        while (q < le && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q == le) { /* blank lines between records are fine */
            p = nl ? nl + 1 : end;
            continue;
        }
        json_error_t je;
        json_t *o = json_loadb(q, (size_t)(le - q), JSON_REJECT_DUPLICATES, &je);
        if (!o)
            return sl_base_error_set(err, SL_EINVAL, "%s: line %zu, column %d: not JSON: %s", name, c.line,
                                     je.column, je.text);
        int rc = SL_OK;
        if (!json_is_object(o)) {
            rc = bad(&c, "not a JSON object", SIZE_MAX, "%s", "");
        } else if (json_object_get(o, "samplab_audit")) {
            rc = lg->n || lg->has_header ? bad(&c, "a second header", SIZE_MAX, "%s", "") : header(&c, o);
        } else {
            if (lg->n == cap) {
                size_t nc = cap ? 2 * cap : 16;
                sl_api_audit_req *nr = realloc(lg->r, nc * sizeof *nr);
                if (!nr) {
                    json_decref(o);
                    return sl_base_error_set(err, SL_ENOMEM, "%s: out of memory", name);
                }
                lg->r = nr;
                cap = nc;
            }
            sl_api_audit_req *r = &lg->r[lg->n];
            memset(r, 0, sizeof *r);
            r->line = c.line;
            r->same_as = -1;
            r->started_ms = r->time_ms = NAN;
            lg->n++;
            /* samplab audit's own lines hold the response; anything else is a response body */
            rc = json_object_get(o, "response") && json_object_get(o, "body") ? request(&c, o, r)
                                                                                : response(&c, o, 0, r);
        }
        json_decref(o);
        if (rc)
            return rc;
        p = nl ? nl + 1 : end;
    }
    if (!lg->n)
        return sl_base_error_set(err, SL_EINVAL, "%s: no request in the log (%zu line%s)", name, c.line,
                                 c.line == 1 ? "" : "s");
    if (lg->prompt && lg->by_text)
        return sl_base_error_set(err, SL_EINVAL, "%s: the header names prompt ids, the responses token texts", name);
    return SL_OK;
}

void sl_api_audit_log_free(sl_api_audit_log *lg)
{
    if (!lg)
        return;
    for (size_t i = 0; i < lg->n; i++) {
        for (size_t t = 0; t < lg->r[i].T; t++) {
            free(lg->r[i].step[t].id);
            free(lg->r[i].step[t].v);
        }
        free(lg->r[i].step);
    }
    free(lg->r);
    free(lg->prompt);
    for (size_t i = 0; i < lg->n_text; i++)
        free(lg->text[i]);
    free(lg->text);
    if (lg->claim)
        json_decref(lg->claim);
    memset(lg, 0, sizeof *lg);
}
