/* audit.c — `samplab audit`: a serving engine judged through its HTTP API.
 * It sends seeded requests (seeds S, S+1, ...), each again with
 * post_sampling_probs (llama-server: the same seed draws the same tokens, and
 * the answer then holds the chain's own probabilities), and pairs of them at
 * once; records every request and answer (api/audit_log.c reads them back,
 * one path for a live run and `--log`), and judges what the answers show:
 *   seed      a repeat draws the same tokens; other seeds, other tokens;
 *   settings  no drawn token outside the kept set the claim implies on the
 *             reported raw probabilities (llama.cpp's chain on them, the stage
 *             that removes it named); the post-sampling probabilities are the
 *             raw ones through the claimed temperature, and penalised tokens moved;
 *   distribution  the drawn tokens against the claim's distribution: the
 *             randomised PIT and log-likelihood tests of `check` (api/check.c),
 *             with their power against a wrong temperature and top-p;
 *   predicted the seeded llama.cpp session (its --llamacpp line) replayed on the
 *             reported values, where they cover the kept set;
 *   concurrency  a request sent beside another draws what it drew alone.
 * The raw log-probabilities are the logits less one constant per step, which
 * llama.cpp's chain ignores but for its penalties (they scale a logit by its
 * sign): with penalties claimed, the claim is judged on the post-sampling
 * probabilities instead. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "api/sl_api.h"

#define AUDIT_MAX_REQUESTS 10000
#define AUDIT_MAX_PREDICT 4096
#define AUDIT_MAX_BYTES ((size_t)1 << 28) /* one answer */
#define OLLAMA_MAX_LOGPROBS 20 /* Ollama's GenerateHandler refuses top_logprobs above 20 (server/routes.go) */
#define AUDIT_FIT_TOL 1e-3                /* a log-probability moved by less is unchanged (float32 rounding) */

/* ---------------------------------------------------------------- the claim */

typedef struct claim {
    sl_api_settings s;        /* the settings judged: the given ones over the log's header */
    const sl_fw_type *ft;
    sl_fw_opts fo;
    sl_logits_cfg cfg;        /* in force */
    sl_logits_cfg sent;       /* as requests carry it (Ollama: before llama-server's float casts) */
    int has_fo;
    int history;              /* penalties in force: the raw values cannot carry the claim */
    char samplers[SL_LOGITS_ORDER_TEXT];
    char hdr_samplers[512];
    char session[96];         /* "llamacpp 0.4.0": the session the claim runs */
    char release_from[256];   /* how the release line was chosen */
    char hdr_framework[32], hdr_ollama[16]; /* the engine the log's header names */
    int ollama;               /* --framework ollama: llama-server's chain as Ollama drives it */
    int route_defaulted;      /* Ollama's OpenAI route set them: 1 temperature, 2 top_p */
    sl_vec marker;
} claim;

static int stage_in(const claim *c, const char *name)
{
    char buf[SL_LOGITS_ORDER_TEXT + 2];
    snprintf(buf, sizeof buf, ";%s;", c->samplers);
    char pat[64];
    snprintf(pat, sizeof pat, ";%s;", name);
    return strstr(buf, pat) != NULL;
}

/* The header's claim (llama-server's names) under the settings given on the command line. */
static int claim_from_header(claim *c, json_t *h, const char *src, sl_error *err)
{
    if (!h)
        return SL_OK;
    sl_logits_cfg *g = &c->s.cfg;
    const char *k;
    json_t *v;
    json_object_foreach(h, k, v) {
        double d = json_number_value(v);
        int num = json_is_number(v);
#define SET(key, has, field)                                                                                     \
    if (!strcmp(k, key)) {                                                                                      \
        if (!num)                                                                                               \
            return sl_base_error_set(err, SL_EINVAL, "samplab audit: %s: the log's claim: %s is not a number", src, key); \
        if (!g->has) {                                                                                          \
            g->has = 1;                                                                                         \
            g->field = d;                                                                                       \
        }                                                                                                       \
        continue;                                                                                               \
    }
        SET("temperature", has_temperature, temperature)
        SET("top_p", has_top_p, top_p)
        SET("min_p", has_min_p, min_p)
        SET("typical_p", has_typical, typical)
        SET("repeat_penalty", has_penalty, penalty)
        SET("presence_penalty", has_presence, presence)
        SET("frequency_penalty", has_freq, freq)
#undef SET
        if (!strcmp(k, "top_k") || !strcmp(k, "repeat_last_n")) {
            if (!json_is_integer(v))
                return sl_base_error_set(err, SL_EINVAL, "samplab audit: %s: the log's claim: %s is not an integer", src, k);
            if (k[0] == 't' && !g->has_top_k) {
                g->has_top_k = 1;
                g->top_k = (long)json_integer_value(v);
            } else if (k[0] == 'r' && !g->has_last_n) {
                g->has_last_n = 1;
                g->last_n = (long)json_integer_value(v);
            }
            continue;
        }
        if (!strcmp(k, "samplers")) {
            if (!json_is_array(v))
                return sl_base_error_set(err, SL_EINVAL, "samplab audit: %s: the log's claim: samplers is not a list", src);
            if (c->s.samplers || c->s.sampling_seq || c->ollama) /* Ollama sends none */
                continue;
            size_t n = 0;
            for (size_t i = 0; i < json_array_size(v); i++) {
                const char *nm = json_string_value(json_array_get(v, i));
                if (!nm || n + strlen(nm) + 2 > sizeof c->hdr_samplers)
                    return sl_base_error_set(err, SL_EINVAL, "samplab audit: %s: the log's claim: samplers entry %zu", src, i);
                n += (size_t)snprintf(c->hdr_samplers + n, sizeof c->hdr_samplers - n, "%s%s", i ? ";" : "", nm);
            }
            c->s.samplers = c->hdr_samplers;
            continue;
        }
        /* what the recorder writes besides the settings (the claim's engine: claim_engine) */
        if (!strcmp(k, "seed") || !strcmp(k, "n_predict") || !strcmp(k, "framework") || !strcmp(k, "ollama"))
            continue;
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: %s: the log's claim: %s is not modelled by samplab audit", src, k);
    }
    return SL_OK;
}

/* The release line a llama-server's /props build_info names, for the builds samplab
 * has run: Debian's llama.cpp 1:0.7.0+dfsg-2 is upstream build b11669 ("b11669-Debian");
 * node-llama-cpp 3.21.1's bundled v0.4.0 is one squashed commit ("b1-80fb11a"). Builds
 * b9452 to b10354 (those Ollama v0.30.0 to v0.32.9 pin) draw no uniform for a lone
 * candidate, as pr15704's line: b10355 (#25532) added it; b10353 was run (*why says so). */
static const char *release_of_build(const char *b, const char **why)
{
    size_t n = strlen(b);
    *why = NULL;
    if (!strncmp(b, "b11669", 6) && (b[6] == '\0' || b[6] == '-'))
        return "0.7.0";
    if (n >= 8 && !strcmp(b + n - 8, "-80fb11a"))
        return "0.4.0";
    char *end;
    long num = b[0] == 'b' && b[1] >= '0' && b[1] <= '9' ? strtol(b + 1, &end, 10) : -1;
    if (num >= 9452 && num <= 10354 && (*end == '\0' || *end == '-')) {
        *why = ", a build before b10355, whose dist draws no uniform for a lone candidate (pr15704's rule)";
        return "pr15704";
    }
    return NULL;
}

/* The engine the claim names: --framework, else the one the log's header recorded
 * (framework and ollama in its claim), else llama.cpp's. */
static int claim_engine(claim *c, const char *api, json_t *hdr, const char *src, sl_error *err)
{
    int native = api && !strcmp(api, "ollama");
    if (native && c->s.framework && strcmp(c->s.framework, "ollama"))
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --api ollama with --framework %s: Ollama's /api/generate runs Ollama's "
                                 "chain (--framework ollama)", c->s.framework);
    if (native && !c->s.framework)
        c->s.framework = "ollama";
    json_t *fw = hdr ? json_object_get(hdr, "framework") : NULL, *ol = hdr ? json_object_get(hdr, "ollama") : NULL;
    if ((fw && !json_is_string(fw)) || (ol && !json_is_string(ol)))
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: %s: the log's claim: framework or ollama is not a text",
                                 src);
    if (!c->s.framework && fw) {
        snprintf(c->hdr_framework, sizeof c->hdr_framework, "%s", json_string_value(fw));
        c->s.framework = c->hdr_framework;
        if (!c->s.ollama && ol) {
            snprintf(c->hdr_ollama, sizeof c->hdr_ollama, "%s", json_string_value(ol));
            c->s.ollama = c->hdr_ollama;
        }
    }
    if (!c->s.framework)
        c->s.framework = "llamacpp";
    c->ollama = !strcmp(c->s.framework, "ollama");
    if (strcmp(c->s.framework, "llamacpp") && !c->ollama)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --framework %s: the audit judges llama.cpp's chain (llamacpp: "
                                 "llama-server; ollama: Ollama v0.30 on); another engine's sampler is not modelled "
                                 "by samplab audit",
                                 c->s.framework);
    if (!c->ollama)
        return SL_OK;
    if (!c->s.ollama && native)
        return SL_OK; /* the line comes from the version the server names (claim_open) */
    if (!c->s.ollama || (strcmp(c->s.ollama, "0.30") && strcmp(c->s.ollama, "0.32")))
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --framework ollama needs --ollama 0.30 (Ollama v0.30.0 to v0.32.9) or "
                                 "0.32 (v0.32.10 on), the lines that run llama-server%s",
                                 c->s.ollama ? "; 0.24, its own Go sampler, is not modelled by samplab audit" : "");
    if (c->s.llamacpp)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --llamacpp with --framework ollama: the Ollama line names the llama.cpp "
                                 "builds (give one of them)");
    if (c->s.samplers || c->s.sampling_seq)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: %s with --framework ollama: Ollama sends llama-server no samplers "
                                 "field, so its order is llama-server's default; not a setting of Ollama's",
                                 c->s.samplers ? "--samplers" : "--sampling-seq");
    return SL_OK;
}

/* Ollama's OpenAI-compatible /v1/completions puts temperature and top_p 1.0 into the
 * options when the body leaves them out (openai/openai.go, FromCompleteRequest, v0.30.0
 * to v0.33.0-rc2): those, not api.DefaultOptions' 0.8 and 0.9, are the route's defaults. */
static void claim_ollama_route(claim *c, const char *api)
{
    sl_logits_cfg *g = &c->s.cfg;
    if (!c->ollama || !api || strcmp(api, "openai"))
        return;
    if (!g->has_temperature)
        g->has_temperature = 1, g->temperature = 1.0, c->route_defaulted |= 1;
    if (!g->has_top_p)
        g->has_top_p = 1, g->top_p = 1.0, c->route_defaulted |= 2;
}

/* Ollama's release, as GET /api/version names it, to its line: v0.30.0 to v0.32.9 run
 * llama-server at b9452 to b10353 (0.30), v0.32.10 on at b10380 on (0.32, read up to
 * v0.33.0-rc2; a later release is that line assumed, and said so). Before v0.30 Ollama
 * sampled in its own Go engines: NULL. */
static const char *ollama_line_of(const char *v, char *why, size_t n)
{
    int a = -1, b = -1, c = -1;
    why[0] = '\0';
    if (sscanf(v[0] == 'v' ? v + 1 : v, "%d.%d.%d", &a, &b, &c) != 3 || a < 0 || b < 0 || c < 0) {
        snprintf(why, n, "not a release number");
        return NULL;
    }
    long k = (long)a * 1000000L + (long)b * 1000L + c;
    if (k < 30000L)
        return NULL;
    if (k < 32010L) {
        snprintf(why, n, "Ollama's /api/version %.31s: v0.30.0 to v0.32.9, --ollama 0.30", v);
        return "0.30";
    }
    snprintf(why, n, "Ollama's /api/version %.31s: %s", v,
             k <= 33000L ? "v0.32.10 on, --ollama 0.32"
                         : "assumed --ollama 0.32: a release after v0.33.0-rc2, the last one samplab has read");
    return "0.32";
}

static int claim_open(claim *c, const sl_api_settings *given, const char *api, json_t *hdr, const char *build,
                      const char *src, sl_error *err)
{
    memset(c, 0, sizeof *c);
    c->s = *given;
    if (claim_engine(c, api, hdr, src, err))
        return SL_EINVAL;
    int native = api && !strcmp(api, "ollama");
    int by_version = native && !given->ollama && build && *build; /* Ollama's own route: its version names the line */
    int from_header = c->ollama && !given->ollama && c->s.ollama && !by_version;
    if (by_version)
        c->s.ollama = NULL;
    if (c->ollama && !c->s.ollama) {
        if (!build || !*build)
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab audit: %s: no Ollama version known: --ollama 0.30 (v0.30.0 to v0.32.9) "
                                     "or 0.32 (v0.32.10 on) names the line", src);
        if (!(c->s.ollama = ollama_line_of(build, c->release_from, sizeof c->release_from)) && c->release_from[0])
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab audit: Ollama's version '%.31s' is not a release number: --ollama 0.30 "
                                     "(v0.30.0 to v0.32.9) or 0.32 (v0.32.10 on) names the line", build);
        if (!c->s.ollama)
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab audit: Ollama %.31s: before v0.30.0 Ollama sampled in its own Go engines, "
                                     "not llama-server: not modelled by samplab audit", build);
    }
    /* the release the server's build names; else the one this project builds and tests, said so */
    const char *why = NULL, *rel = build && *build ? release_of_build(build, &why) : NULL;
    if (c->ollama) {
        if (from_header)
            snprintf(c->release_from, sizeof c->release_from, "the log's claim, --ollama %s", c->s.ollama);
        else if (!c->release_from[0]) /* else the version named it (ollama_line_of) */
            snprintf(c->release_from, sizeof c->release_from, "--ollama %s%s", c->s.ollama,
                     native ? "" : "; Ollama's OpenAI route gives no version");
    } else if (c->s.llamacpp)
        snprintf(c->release_from, sizeof c->release_from, "--llamacpp");
    else if (rel) {
        c->s.llamacpp = rel;
        snprintf(c->release_from, sizeof c->release_from, "the server's build_info %.63s%s", build, why ? why : "");
    } else {
        c->s.llamacpp = "0.4.0";
        if (build && *build)
            snprintf(c->release_from, sizeof c->release_from,
                     "assumed: build_info %.63s is not a build samplab has run; --llamacpp names the release "
                     "(pr15704 before b10355)", build);
        else
            snprintf(c->release_from, sizeof c->release_from,
                     "assumed: no build_info known; --llamacpp names the release (pr15704 before b10355)");
    }
    c->s.seed = NULL;
    if (claim_from_header(c, hdr, src, err))
        return SL_EINVAL;
    claim_ollama_route(c, api);
    if (!(c->ft = sl_api_fw_type(&c->s)))
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --llamacpp %s: unknown release line", c->s.llamacpp);
    if (sl_api_fw_opts("audit", &c->s, &c->fo, err))
        return SL_EINVAL;
    c->has_fo = 1;
    c->cfg = c->fo.cfg;
    if (c->ollama) { /* Ollama's values as llama-server's schema takes them, its own defaults for the rest */
        if (sl_logits_ollama_server_cfg(c->ft->pipeline, &c->fo.cfg, &c->cfg, err))
            return SL_EINVAL;
        sl_logits_cfg_resolve(&sl_logits_pipeline_llamacpp_type, &c->cfg, NULL);
        c->sent = c->fo.cfg;
        sl_logits_cfg_resolve(c->ft->pipeline, &c->sent, NULL);
    } else {
        sl_logits_cfg_resolve(c->ft->pipeline, &c->cfg, NULL);
        c->sent = c->cfg;
    }
    const sl_logits_cfg *f = &c->cfg;
    const char *no = f->dry_mult > 0             ? "DRY (--dry-multiplier)"
                     : f->xtc_p > 0 && f->xtc_t <= 0.5 ? "XTC (--xtc-probability)"
                     : f->mirostat                ? "mirostat (--mirostat)"
                     : f->n_bias                  ? "logit bias (--logit-bias)"
                     : f->dyn_range > 0           ? "dynamic temperature (--dynatemp-range)"
                     : f->adaptive_target >= 0    ? "adaptive-p (--adaptive-target)"
                                                  : NULL;
    if (no)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: %s: not modelled by samplab audit (it judges penalties, top-n-sigma, "
                                 "top-k, typical, top-p, min-p and temperature)", no);
    /* Ollama sends no samplers field: llama-server's default order */
    if (!(c->ollama ? sl_logits_llama_order_text(&c->cfg, c->samplers, sizeof c->samplers)
                    : sl_api_samplers(c->ft->pipeline, c->ft->accepts, &c->fo.cfg, c->samplers, sizeof c->samplers)))
        c->samplers[0] = '\0';
    c->history = stage_in(c, "penalties") && f->last_n != 0 &&
                 (f->penalty != 1 || f->freq != 0 || f->presence != 0);
    c->fo.k = c->fo.n = 1;
    c->fo.logits = &c->marker;
    snprintf(c->session, sizeof c->session, "%s %s", c->ft->name, c->ollama ? c->s.ollama : c->s.llamacpp);
    return SL_OK;
}

static void claim_close(claim *c)
{
    if (c->has_fo)
        sl_api_fw_opts_free(&c->fo);
    c->has_fo = 0;
}

/* ---------------------------------------------------------------- driving a server */

typedef struct drive {
    const sl_api_settings *s;
    const claim *c;
    const char *base;         /* the URL without a trailing '/' */
    int openai, ollama;       /* the route: /v1/completions, Ollama's /api/generate, else /completion */
    sl_io_http_opts http;
    json_t *prompt_ids;       /* what /tokenize answered, or the ids given */
    sl_buf log;               /* audit.jsonl as it grows */
    size_t n_lines;
    double t_first;
} drive;

static json_t *parse_reply(const sl_io_http_reply *r)
{
    json_error_t je;
    return json_loadb(r->body, r->len, 0, &je);
}

/* The claim in llama-server's names (what a body sends, what the log's header records). */
static void claim_set(json_t *o, const sl_logits_cfg *f)
{
    json_object_set_new(o, "temperature", json_real(f->temperature));
    json_object_set_new(o, "top_k", json_integer(f->top_k));
    json_object_set_new(o, "top_p", json_real(f->top_p));
    json_object_set_new(o, "min_p", json_real(f->min_p));
    json_object_set_new(o, "typical_p", json_real(f->typical));
    json_object_set_new(o, "repeat_penalty", json_real(f->penalty));
    json_object_set_new(o, "repeat_last_n", json_integer(f->last_n));
    json_object_set_new(o, "presence_penalty", json_real(f->presence));
    json_object_set_new(o, "frequency_penalty", json_real(f->freq));
}

/* A request's body: the prompt, the length, the values asked for and, by --send, the seed and the claim. */
static json_t *body_of(const drive *d, uint64_t seed, int post)
{
    const sl_api_settings *s = d->s;
    const sl_logits_cfg *f = &d->c->sent;
    json_t *b = json_object();
    /* enough for the claimed kept set (its top-k), else a hundred */
    size_t np = s->has_n_probs ? s->n_probs : f->top_k > 0 ? (size_t)f->top_k : 100;
    /* Ollama's routes answer at most 20 (its OpenAI logprobs is its top_logprobs): asked for more, it answers 400 */
    if ((d->ollama || (d->openai && d->c->ollama)) && !s->has_n_probs && np > OLLAMA_MAX_LOGPROBS)
        np = OLLAMA_MAX_LOGPROBS;
    const char *send = s->send ? s->send : "all";
    if (d->ollama) { /* api.GenerateRequest: the settings are options, in the same names */
        json_t *op = json_object();
        json_object_set_new(b, "model", json_string(s->model));
        json_object_set_new(b, "prompt", json_string(s->prompt));
        json_object_set_new(b, "raw", json_true()); /* the prompt as given, no chat template */
        json_object_set_new(b, "stream", json_false());
        json_object_set_new(b, "logprobs", json_true());
        json_object_set_new(b, "top_logprobs", json_integer((json_int_t)np));
        json_object_set_new(op, "num_predict", json_integer((json_int_t)s->n_predict));
        if (strcmp(send, "none"))
            json_object_set_new(op, "seed", json_integer((json_int_t)seed));
        if (!strcmp(send, "all"))
            claim_set(op, f);
        json_object_set_new(b, "options", op);
        return b;
    }
    if (s->prompt_ids)
        json_object_set(b, "prompt", d->prompt_ids);
    else
        json_object_set_new(b, "prompt", json_string(s->prompt));
    if (!d->openai) {
        json_object_set_new(b, "n_predict", json_integer((json_int_t)s->n_predict));
        json_object_set_new(b, "n_probs", json_integer((json_int_t)np));
        json_object_set_new(b, "post_sampling_probs", json_boolean(post));
        json_object_set_new(b, "return_tokens", json_true());
        json_object_set_new(b, "cache_prompt", json_false());
    } else {
        if (s->model)
            json_object_set_new(b, "model", json_string(s->model));
        json_object_set_new(b, "max_tokens", json_integer((json_int_t)s->n_predict));
        json_object_set_new(b, "logprobs", json_integer((json_int_t)np));
        if (post)
            json_object_set_new(b, "post_sampling_probs", json_true());
    }
    if (strcmp(send, "none"))
        json_object_set_new(b, "seed", json_integer((json_int_t)seed));
    if (!strcmp(send, "all")) {
        claim_set(b, f);
        if (f->nsigma > 0)
            json_object_set_new(b, "top_n_sigma", json_real(f->nsigma));
        json_t *sm = json_array();
        char buf[SL_LOGITS_ORDER_TEXT];
        snprintf(buf, sizeof buf, "%s", d->c->samplers);
        for (char *t = strtok(buf, ";"); t; t = strtok(NULL, ";"))
            json_array_append_new(sm, json_string(t));
        json_object_set_new(b, "samplers", sm);
    }
    return b;
}

/* One line of audit.jsonl: the body, what came back, when. */
static int record(drive *d, size_t idx, const char *purpose, long same_as, json_t *body, const sl_io_http_reply *r,
                  const char *error)
{
    json_t *o = json_object();
    json_object_set_new(o, "request", json_integer((json_int_t)idx));
    json_object_set_new(o, "purpose", json_string(purpose));
    json_object_set_new(o, "same_as", same_as < 0 ? json_null() : json_integer(same_as));
    json_t *seed = json_object_get(body, "seed");
    json_object_set(o, "seed", seed ? seed : json_null());
    json_object_set(o, "body", body);
    json_object_set_new(o, "status", r && r->status ? json_integer(r->status) : json_null());
    json_t *resp = r && r->body ? parse_reply(r) : NULL;
    if (!resp && r && r->body && r->len) /* kept as it came: the text of an answer that is not JSON */
        resp = json_stringn_nocheck(r->body, r->len);
    json_object_set_new(o, "response", resp ? resp : json_null());
    json_object_set_new(o, "error", error ? json_string(error) : json_null());
    if (r) {
        if (d->t_first < 0)
            d->t_first = r->started_ms;
        json_object_set_new(o, "started_ms", json_real(round((r->started_ms - d->t_first) * 1e3) / 1e3));
        json_object_set_new(o, "time_ms", json_real(round(r->time_ms * 1e3) / 1e3));
    }
    char *line = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(o);
    if (!line)
        return SL_ENOMEM;
    sl_io_buf_puts(&d->log, line);
    sl_io_buf_puts(&d->log, "\n");
    free(line);
    d->n_lines++;
    return d->log.oom ? SL_ENOMEM : SL_OK;
}

/* The answer of r as the audit needs it: status 200, a JSON object; else the line why. */
static const char *reply_problem(const sl_io_http_reply *r, char *buf, size_t n)
{
    json_t *j = parse_reply(r);
    if (!j) {
        snprintf(buf, n, "the answer is not JSON (%zu bytes, status %ld)", r->len, r->status);
        return buf;
    }
    int obj = json_is_object(j);
    json_t *e = obj ? json_object_get(j, "error") : NULL;
    json_t *m = json_is_object(e) ? json_object_get(e, "message") : e;
    if (r->status != 200)
        snprintf(buf, n, "status %ld%s%s", r->status, json_is_string(m) ? ": " : "",
                 json_is_string(m) ? json_string_value(m) : "");
    else if (!obj)
        snprintf(buf, n, "the answer is not a JSON object");
    json_decref(j);
    return r->status != 200 || !obj ? buf : NULL;
}

static int send_many(drive *d, const char *route, json_t **bodies, size_t n, const char *purpose,
                     const long *same_as, size_t first_idx, sl_error *err)
{
    char url[4200];
    snprintf(url, sizeof url, "%s%s", d->base, route);
    char **txt = calloc(n, sizeof *txt);
    sl_io_http_reply *rep = calloc(n, sizeof *rep);
    int rc = txt && rep ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab audit: out of memory");
    for (size_t i = 0; !rc && i < n; i++)
        if (!(txt[i] = json_dumps(bodies[i], JSON_COMPACT)))
            rc = sl_base_error_set(err, SL_ENOMEM, "samplab audit: out of memory");
    sl_error he;
    int hrc = rc ? SL_OK : sl_io_http_many(url, (const char *const *)txt, n, &d->http, rep, &he);
    for (size_t i = 0; !rc && i < n; i++) {
        char why[600];
        const char *problem = hrc ? he.msg : reply_problem(&rep[i], why, sizeof why);
        if (record(d, first_idx + i, purpose, same_as ? same_as[i] : -1, bodies[i], &rep[i], problem))
            rc = sl_base_error_set(err, SL_ENOMEM, "samplab audit: out of memory");
        else if (problem)
            rc = sl_base_error_set(err, SL_EIO, "samplab audit: request %zu to %s: %s", first_idx + i, url,
                                   hrc ? he.msg : problem);
        if (hrc) { /* one failure names the batch */
            rc = sl_base_error_set(err, SL_EIO, "samplab audit: %s", he.msg);
            break;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (txt)
            free(txt[i]);
        if (rep)
            sl_io_http_reply_free(&rep[i]);
    }
    free(txt);
    free(rep);
    return rc;
}

static int get_json(drive *d, const char *route, const char *post_body, json_t **out, sl_error *err)
{
    char url[4200];
    snprintf(url, sizeof url, "%s%s", d->base, route);
    sl_io_http_reply r;
    if (sl_io_http(url, post_body, &d->http, &r, err)) {
        sl_io_http_reply_free(&r);
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s", err->msg);
        return sl_base_error_set(err, SL_EIO, "samplab audit: %s", m);
    }
    char why[600];
    const char *problem = reply_problem(&r, why, sizeof why);
    *out = problem ? NULL : parse_reply(&r);
    sl_io_http_reply_free(&r);
    if (problem)
        return sl_base_error_set(err, SL_EIO, "samplab audit: %s: %s", url, problem);
    return SL_OK;
}

/* Writes what was recorded (header and lines) to DIR/audit.jsonl through a temporary file. */
static int write_out(const sl_api_settings *s, const char *hdr, const sl_buf *lines, sl_error *err)
{
    if (!s->out)
        return SL_OK;
    if (sl_io_mkdir_p(s->out, err))
        return SL_EIO;
    sl_buf all;
    sl_io_buf_init(&all);
    sl_io_buf_puts(&all, hdr);
    sl_io_buf_puts(&all, "\n");
    if (lines->data)
        sl_io_buf_append(&all, lines->data, lines->len);
    char path[4200];
    snprintf(path, sizeof path, "%s/audit.jsonl", s->out);
    int rc = all.oom ? sl_base_error_set(err, SL_ENOMEM, "samplab audit: out of memory")
                     : sl_io_write_atomic(path, all.data, all.len, err);
    sl_io_buf_free(&all);
    return rc;
}

static int seed_of(const sl_api_settings *s, uint64_t *out, sl_error *err)
{
    if (!s->seed)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --seed S is required (requests use S, S+1, ...)");
    char *e;
    unsigned long long v = strtoull(s->seed, &e, 10);
    if (*e || e == s->seed || s->seed[0] == '-' || v > 0xFFFFFFFEULL - AUDIT_MAX_REQUESTS)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --seed %s: llama-server's seed is an integer in 0..%llu "
                                 "(4294967295 asks for a random one)", s->seed, 0xFFFFFFFEULL - AUDIT_MAX_REQUESTS);
    *out = v;
    return SL_OK;
}

/* The server's URL without a trailing '/' into base, and the bounds of every request. */
static int drive_open(drive *d, const sl_api_settings *s, char *base, size_t bn, sl_error *err)
{
    snprintf(base, bn, "%s", s->server);
    for (size_t n = strlen(base); n && base[n - 1] == '/'; n--)
        base[n - 1] = '\0';
    if (strncmp(base, "http://", 7) && strncmp(base, "https://", 8))
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --server %s: an http:// or https:// URL", s->server);
    d->base = base;
    double tmo = s->has_timeout ? s->timeout : 120;
    if (!(tmo > 0 && tmo <= 86400))
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --timeout %g: seconds in (0, 86400]", tmo);
    d->http.connect_s = tmo < 10 ? tmo : 10;
    d->http.timeout_s = tmo;
    d->http.max_bytes = AUDIT_MAX_BYTES;
    d->http.bearer = getenv("SAMPLAB_API_KEY");
    return SL_OK;
}

/* The api --api names (default llama-server), checked. */
static int api_of(const sl_api_settings *s, const char **api, sl_error *err)
{
    *api = s->api ? s->api : "llama-server";
    if (strcmp(*api, "llama-server") && strcmp(*api, "openai") && strcmp(*api, "ollama"))
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --api %s: llama-server, openai or ollama", *api);
    return SL_OK;
}

/* What Ollama's /api/generate cannot take, said before anything is sent. */
static int ollama_usage(const sl_api_settings *s, sl_error *err)
{
    if (s->framework && strcmp(s->framework, "ollama"))
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --api ollama with --framework %s: Ollama's /api/generate runs Ollama's "
                                 "chain (--framework ollama)", s->framework);
    if (!s->model)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --api ollama needs --model NAME (the model Ollama runs)");
    if (s->prompt_ids)
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --prompt-ids with --api ollama: Ollama's /api/generate takes the "
                                 "prompt as text (--prompt)");
    if (s->has_n_probs && (!s->n_probs || s->n_probs > OLLAMA_MAX_LOGPROBS))
        return sl_base_error_set(err, SL_EINVAL,
                                 "samplab audit: --n-probs %zu with --api ollama: Ollama answers 1 to %d top_logprobs",
                                 s->n_probs, OLLAMA_MAX_LOGPROBS);
    return SL_OK;
}

/* Ollama's GET /api/version: {"version": "0.32.10"} (server/routes.go). */
static int ollama_version(const sl_api_settings *s, char *out, size_t n, sl_error *err)
{
    drive d;
    memset(&d, 0, sizeof d);
    char base[4096];
    json_t *v = NULL;
    int rc = drive_open(&d, s, base, sizeof base, err);
    if (!rc)
        rc = get_json(&d, "/api/version", NULL, &v, err);
    const char *t = rc ? NULL : json_string_value(json_object_get(v, "version"));
    if (!rc && (!t || !*t || strlen(t) >= n))
        rc = sl_base_error_set(err, SL_EIO, "samplab audit: %s/api/version: no \"version\" text in the answer", base);
    if (!rc)
        snprintf(out, n, "%s", t);
    json_decref(v);
    return rc;
}

/* Runs the requests against the server; the recorded log text in *text (caller frees). */
static int drive_server(const sl_api_settings *s, const claim *c, const char *version, char **text, size_t *len,
                        sl_error *err)
{
    drive d;
    memset(&d, 0, sizeof d);
    d.s = s;
    d.c = c;
    d.t_first = -1;
    sl_io_buf_init(&d.log);
    const char *api;
    if (api_of(s, &api, err))
        return SL_EINVAL;
    d.openai = !strcmp(api, "openai");
    d.ollama = !strcmp(api, "ollama");
    if (!!s->prompt == !!s->prompt_ids)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: give exactly one of --prompt TEXT and --prompt-ids IDS");
    const char *send = s->send ? s->send : "all";
    if (strcmp(send, "all") && strcmp(send, "seed") && strcmp(send, "none"))
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --send %s: all, seed or none", send);
    uint64_t seed0 = 0;
    if (seed_of(s, &seed0, err))
        return SL_EINVAL;
    size_t N = s->has_requests ? s->requests : 8;
    if (!N || N > AUDIT_MAX_REQUESTS)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --requests %zu: 1 to %d", N, AUDIT_MAX_REQUESTS);
    if (!s->has_n_predict || !s->n_predict || s->n_predict > AUDIT_MAX_PREDICT)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --n-predict T (1 to %d) is required",
                                 AUDIT_MAX_PREDICT);
    size_t C = s->has_concurrent ? s->concurrent : (N >= 2 ? 2 : 0);
    if (C % 2 || C > N)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --concurrent %zu: an even number up to --requests %zu",
                                 C, N);
    char base[4096];
    if (drive_open(&d, s, base, sizeof base, err))
        return SL_EINVAL;
    int rc;
    json_t *props = NULL, *hdr = json_object();
    json_object_set_new(hdr, "samplab_audit", json_integer(1));
    json_object_set_new(hdr, "api", json_string(api));
    json_object_set_new(hdr, "server", json_string(base));
    const char *route = d.openai ? "/v1/completions" : d.ollama ? "/api/generate" : "/completion";
    json_object_set_new(hdr, "route", json_string(route));
    json_object_set_new(hdr, "model", s->model ? json_string(s->model) : json_null());
    json_object_set_new(hdr, "send", json_string(send));
    if (version && *version)
        json_object_set_new(hdr, "ollama_version", json_string(version));
    if (!d.openai && !d.ollama) {
        if ((rc = get_json(&d, "/props", NULL, &props, err)))
            goto done;
        json_object_set(hdr, "props", props);
    }
    if (s->prompt_ids) {
        sl_vec ids;
        if (sl_io_ids_read_as(s->prompt_ids, "--prompt-ids", &ids, err)) {
            rc = SL_EINVAL;
            goto done;
        }
        d.prompt_ids = json_array();
        for (size_t i = 0; i < ids.n; i++)
            json_array_append_new(d.prompt_ids, json_integer((json_int_t)ids.d[i]));
        sl_base_vec_free(&ids);
    } else if (!d.openai && !d.ollama) {
        /* the ids the server evaluates: /completion tokenises with the BOS token */
        json_t *tb = json_pack("{s:s, s:b}", "content", s->prompt, "add_special", 1), *tok = NULL;
        char *tbt = json_dumps(tb, JSON_COMPACT);
        json_decref(tb);
        rc = get_json(&d, "/tokenize", tbt ? tbt : "{}", &tok, err);
        free(tbt);
        if (rc)
            goto done;
        json_t *tl = json_object_get(tok, "tokens");
        d.prompt_ids = json_is_array(tl) ? json_incref(tl) : NULL;
        json_decref(tok);
    }
    json_object_set(hdr, "prompt_tokens", d.prompt_ids ? d.prompt_ids : json_null());
    json_t *cl = json_object();
    claim_set(cl, &c->sent);
    if (c->ollama) {
        json_object_set_new(cl, "framework", json_string("ollama"));
        json_object_set_new(cl, "ollama", json_string(c->s.ollama));
    }
    json_object_set_new(hdr, "claim", cl);
    json_object_set_new(hdr, "recorder", json_string("samplab audit"));
    size_t idx = 0;
    /* the samples, one at a time */
    for (size_t i = 0; i < N; i++, idx++) {
        json_t *b = body_of(&d, seed0 + i, 0);
        rc = send_many(&d, route, &b, 1, "sample", NULL, idx, err);
        json_decref(b);
        if (rc)
            goto done;
    }
    /* each again, alone, with the chain's own probabilities (llama-server); the same tokens if the seed holds */
    for (size_t i = 0; i < N; i++, idx++) {
        json_t *b = body_of(&d, seed0 + i, !d.openai && !d.ollama);
        long sa = (long)i;
        rc = send_many(&d, route, &b, 1, "repeat", &sa, idx, err);
        json_decref(b);
        if (rc)
            goto done;
    }
    /* two at a time, started together: a server with two slots batches them */
    for (size_t i = 0; i < C; i += 2, idx += 2) {
        json_t *b[2] = {body_of(&d, seed0 + i, 0), body_of(&d, seed0 + i + 1, 0)};
        long sa[2] = {(long)i, (long)i + 1};
        rc = send_many(&d, route, b, 2, "concurrent", sa, idx, err);
        json_decref(b[0]);
        json_decref(b[1]);
        if (rc)
            goto done;
    }
    rc = SL_OK;
done:;
    char *h = json_dumps(hdr, JSON_COMPACT | JSON_ENSURE_ASCII);
    sl_error we;
    int wrc = h ? write_out(s, h, &d.log, &we) : SL_ENOMEM;
    if (!rc && wrc) {
        rc = wrc;
        *err = we;
    }
    if (!rc) {
        sl_buf all;
        sl_io_buf_init(&all);
        sl_io_buf_puts(&all, h);
        sl_io_buf_puts(&all, "\n");
        if (d.log.data)
            sl_io_buf_append(&all, d.log.data, d.log.len);
        if (all.oom) {
            sl_io_buf_free(&all);
            rc = sl_base_error_set(err, SL_ENOMEM, "samplab audit: out of memory");
        } else {
            *text = all.data;
            *len = all.len;
        }
    }
    free(h);
    json_decref(hdr);
    json_decref(props);
    json_decref(d.prompt_ids);
    sl_io_buf_free(&d.log);
    return rc;
}

/* ---------------------------------------------------------------- judging */

/* Whether top-p (top_p 1) or min-p (0) cuts inside the entries shown whatever the tokens not shown
 * weigh: each weighs at most the smallest entry p_n, so the mass top-p divides by lies in
 * [S, Dmax] (S the entries' sum; Dmax = S + (k - n) p_n under a top-k of k, else 1).
 * llama_sampler_top_p keeps the shortest prefix holding p of it: one prefix over the
 * whole range pins the kept set; min-p (p >= min_p * p_max) pins it when p_n is below
 * its threshold. The stages after read the entries alone, as the compact rows do. A
 * relative margin of 1e-6 leaves float rounding on the safe side. */
static int pinned(const sl_logits_cfg *f, int top_p, int after_top_k, const sl_api_audit_step *st)
{
    if (!st->n)
        return 0;
    double p[st->n], S = 0, pmax = 0, pn = INFINITY;
    for (size_t i = 0; i < st->n; i++) {
        p[i] = exp(st->v[i]);
        S += p[i];
        pmax = p[i] > pmax ? p[i] : pmax;
        pn = p[i] < pn ? p[i] : pn;
    }
    if (!top_p)
        return pn < f->min_p * pmax * (1 - 1e-6);
    double dmax = after_top_k ? S + (double)((size_t)f->top_k - st->n) * pn : 1;
    dmax = dmax > 1 ? 1 : dmax;
    double cum = 0, lo = f->top_p * S * (1 - 1e-6), hi = f->top_p * dmax * (1 + 1e-6);
    for (size_t i = 0; i < st->n; i++) { /* listed by decreasing value (audit_log.c) */
        if (i && p[i] > p[i - 1])
            return 0;
        double before = cum;
        cum += p[i];
        if (cum >= hi)
            return before < lo && (size_t)(f->min_keep > 0 ? f->min_keep : 1) <= st->n;
    }
    return 0;
}

/* Whether step st's raw values cover the claim's kept set: the whole vocabulary
 * (fewer entries than asked for: the server had no more), llama.cpp's top-k
 * first of the stages that read every token, with k no more than the entries,
 * or a top-p or min-p that cuts inside them (pinned). */
static const char *sufficed(const claim *c, const sl_api_audit_req *r, const sl_api_audit_step *st)
{
    int whole = r->n_probs && st->n < r->n_probs;
    if (whole)
        return NULL;
    const sl_logits_cfg *f = &c->cfg;
    char buf[SL_LOGITS_ORDER_TEXT];
    snprintf(buf, sizeof buf, "%s", c->samplers);
    int after_top_k = 0; /* a top-k above the entries: the unseen mass is bounded */
    for (char *t = strtok(buf, ";"); t; t = strtok(NULL, ";")) {
        if (!strcmp(t, "top_k") && f->top_k > 0 && (size_t)f->top_k <= st->n)
            return NULL;
        after_top_k |= !strcmp(t, "top_k") && f->top_k > 0;
        if (!strcmp(t, "top_p") && f->top_p < 1)
            return pinned(f, 1, after_top_k, st) ? NULL : "fewer entries than the claimed top-k, and top-p's cut is "
                                                          "not pinned inside them";
        if (!strcmp(t, "min_p") && f->min_p > 0)
            return pinned(f, 0, after_top_k, st) ? NULL : "fewer entries than the claimed top-k, and min-p's "
                                                          "threshold is not above the smallest of them";
        if (!strcmp(t, "temperature") && f->temperature <= 0)
            return NULL; /* greedy: the top entry */
        if (!strcmp(t, "temperature") && f->temperature != 1)
            return "a temperature before the stage that cuts, and the entries are not the whole vocabulary";
        if ((!strcmp(t, "top_n_sigma") && f->nsigma > 0) || (!strcmp(t, "typ_p") && f->typical < 1))
            return "a stage that reads every token (top-n-sigma, typical), and the entries are not the whole "
                   "vocabulary";
    }
    return "no top-k in the claim, and the entries are not the whole vocabulary";
}

typedef struct judge {
    const claim *c;
    const sl_api_audit_log *lg;
    double alpha;
    size_t trials;
    json_t *out;              /* the result */
    int rejected;
} judge;

static int same_tokens(const sl_api_audit_req *a, const sl_api_audit_req *b, size_t *at)
{
    size_t T = a->T < b->T ? a->T : b->T;
    for (size_t t = 0; t < T; t++)
        if (a->step[t].chosen != b->step[t].chosen) {
            *at = t;
            return 0;
        }
    *at = T;
    return a->T == b->T;
}

/* How far a's reported values moved from its twin b's over steps 0..upto (the ids both list,
 * values of one kind): the largest difference, and the first step with any (SIZE_MAX: none).
 * A request batched beside another meets other kernels, so its logits may move. */
static double values_moved(const sl_api_audit_req *a, const sl_api_audit_req *b, size_t upto, size_t *first)
{
    double worst = 0;
    *first = SIZE_MAX;
    if (a->post != b->post)
        return NAN;
    for (size_t t = 0; t <= upto && t < a->T && t < b->T; t++) {
        const sl_api_audit_step *x = &a->step[t], *y = &b->step[t];
        for (size_t k = 0; k < x->n; k++)
            for (size_t l = 0; l < y->n; l++)
                if (x->id[k] == y->id[l]) {
                    double d = fabs(x->v[k] - y->v[l]);
                    if (d > 0 && *first == SIZE_MAX)
                        *first = t;
                    worst = d > worst ? d : worst;
                    break;
                }
    }
    return worst;
}

static void judge_seed(judge *j)
{
    const sl_api_audit_log *lg = j->lg;
    size_t reps = 0, equal = 0, conc = 0, conc_equal = 0;
    json_t *first = json_null(), *cfirst = json_null();
    for (size_t i = 0; i < lg->n; i++) {
        const sl_api_audit_req *r = &lg->r[i];
        /* without a seed a server draws a fresh one per request (llama-server: seed -1): a repeat
         * then says nothing of the seed */
        if (r->purpose == SL_API_AUDIT_SAMPLE || !lg->r[r->same_as].has_seed)
            continue;
        size_t at;
        int eq = same_tokens(r, &lg->r[r->same_as], &at);
        if (r->purpose == SL_API_AUDIT_REPEAT) {
            reps++;
            equal += (size_t)eq;
            if (!eq && json_is_null(first))
                first = json_pack("{s:I, s:I, s:I}", "request", (json_int_t)i, "same_as", (json_int_t)r->same_as,
                                  "step", (json_int_t)at);
        } else {
            conc++;
            conc_equal += (size_t)eq;
            if (!eq && json_is_null(cfirst)) {
                /* the cause: the server's own values moved beside another request (its batched
                 * kernels computed other logits), or they did not and the draw differed */
                size_t vfirst;
                double moved = values_moved(r, &lg->r[r->same_as], at, &vfirst);
                cfirst = json_pack("{s:I, s:I, s:I, s:s, s:o, s:o}", "request", (json_int_t)i, "same_as",
                                   (json_int_t)r->same_as, "step", (json_int_t)at, "cause",
                                   isnan(moved) ? "unknown" : moved > 0 ? "values" : "sampler", "values_moved",
                                   isnan(moved) ? json_null() : json_real(moved), "values_first_moved",
                                   vfirst == SIZE_MAX ? json_null() : json_integer((json_int_t)vfirst));
            }
        }
    }
    /* other seeds, other tokens: every seeded sample alike is a seed the server does not read, unless the
     * claim's most likely token is nearly certain at every step (then null: the log cannot tell) */
    size_t seeded = 0, alike = 0;
    const sl_api_audit_req *r0 = NULL;
    for (size_t i = 0; i < lg->n; i++) {
        const sl_api_audit_req *r = &lg->r[i];
        if (r->purpose != SL_API_AUDIT_SAMPLE || !r->has_seed)
            continue;
        size_t at;
        if (!r0)
            r0 = r;
        else
            alike += (size_t)same_tokens(r, r0, &at);
        seeded++;
    }
    json_t *differ;
    if (seeded < 2) {
        differ = json_null();
    } else if (alike < seeded - 1) {
        differ = json_true();
    } else {
        /* the chance that seeded - 1 further draws repeat r0's tokens, from its own reported values */
        double lp = 0;
        for (size_t t = 0; t < r0->T; t++)
            lp += r0->post ? log(r0->step[t].chosen_v) : r0->step[t].chosen_v;
        differ = isfinite(lp) && (double)(seeded - 1) * lp < log(j->alpha) ? json_false() : json_null();
    }
    json_t *v = reps && equal < reps ? json_false()
                : json_is_false(differ)  ? json_false()
                : reps                   ? json_true()
                                         : json_null();
    if (json_is_false(v))
        j->rejected = 1;
    json_object_set_new(j->out, "seed_honoured", v);
    json_object_set_new(j->out, "seed", json_pack("{s:I, s:I, s:o, s:I, s:o}", "repeats", (json_int_t)reps,
                                                  "repeats_equal", (json_int_t)equal, "first_unequal", first,
                                                  "seeded_samples", (json_int_t)seeded, "other_seeds_differ", differ));
    json_t *cv = conc ? json_boolean(conc_equal == conc) : json_null();
    if (conc && conc_equal < conc)
        j->rejected = 1;
    json_object_set_new(j->out, "concurrency", cv);
    json_object_set_new(j->out, "concurrent", json_pack("{s:I, s:I, s:o}", "requests", (json_int_t)conc, "equal",
                                                        (json_int_t)conc_equal, "first_unequal", cfirst));
}

/* The compact rows of raw steps: the listed ids (and the drawn one, if unlisted
 * with its value) in id order, so llama.cpp's chain meets the candidates in the
 * order it would (ties fall as over the whole vocabulary); W entries a row, the
 * rest filler far below, which the claim's top-k removes. */
typedef struct rows {
    size_t n, W;
    float *f;
    double *d;
    long *obs;
    size_t *req, *step;       /* where each row came from */
} rows;

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static int row_fill(const sl_api_audit_step *st, size_t W, float *f, double *d, long *obs)
{
    long ids[W];
    double val[W];
    size_t n = 0;
    for (size_t i = 0; i < st->n && n < W; i++)
        ids[n++] = st->id[i];
    int listed = 0;
    for (size_t i = 0; i < st->n; i++)
        listed |= st->id[i] == st->chosen;
    if (!listed) {
        if (isnan(st->chosen_v) || n >= W)
            return -1;
        ids[n++] = st->chosen;
    }
    qsort(ids, n, sizeof *ids, cmp_long);
    double lo = 0;
    for (size_t i = 0; i < n; i++) {
        double v = st->chosen_v;
        for (size_t k = 0; k < st->n; k++)
            if (st->id[k] == ids[i])
                v = st->v[k];
        val[i] = v;
        lo = v < lo ? v : lo;
        if (ids[i] == st->chosen)
            *obs = (long)i;
    }
    for (size_t i = 0; i < W; i++) {
        f[i] = (float)(i < n ? val[i] : lo - 1000);
        d[i] = f[i];
    }
    return 0;
}

static void rows_free(rows *R)
{
    free(R->f);
    free(R->d);
    free(R->obs);
    free(R->req);
    free(R->step);
    memset(R, 0, sizeof *R);
}

static int rows_alloc(rows *R, size_t n, size_t W, sl_error *err)
{
    memset(R, 0, sizeof *R);
    R->W = W;
    size_t m = n ? n : 1;
    R->f = malloc(m * W * sizeof *R->f);
    R->d = malloc(m * W * sizeof *R->d);
    R->obs = malloc(m * sizeof *R->obs);
    R->req = malloc(m * sizeof *R->req);
    R->step = malloc(m * sizeof *R->step);
    if (!R->f || !R->d || !R->obs || !R->req || !R->step) {
        rows_free(R);
        return sl_base_error_set(err, SL_ENOMEM, "samplab audit: out of memory for %zu steps", n);
    }
    return SL_OK;
}

static sl_io_steps steps_view(const rows *R, size_t from, size_t n)
{
    sl_io_steps m;
    memset(&m, 0, sizeof m);
    m.t = n;
    m.v = R->W;
    m.dtype = SL_F32;
    m.f = R->f + from * R->W;
    m.d = R->d + from * R->W;
    m.view = 1;
    snprintf(m.source, sizeof m.source, "the reported log-probabilities");
    return m;
}

static json_t *outside(size_t req, size_t step, long token, const char *stage)
{
    return json_pack("{s:I, s:I, s:I, s:s}", "request", (json_int_t)req, "step", (json_int_t)step, "token",
                     (json_int_t)token, "stage", stage);
}

/* Why the raw values cannot carry a claim with penalties: judge_raw's "raw" and no_replay_why. */
#define PENALTIES_WHY \
    "the claim's penalties scale each logit by its sign, and the raw log-probabilities are the logits less an unknown " \
    "constant"

/* The raw steps against the claim: kept sets, the distribution, the seeded replay. */
static int judge_raw(judge *j, json_t *outs, sl_error *err)
{
    const claim *c = j->c;
    const sl_api_audit_log *lg = j->lg;
    size_t total = 0, ok = 0, W = 0;
    json_t *first_not = json_null();
    for (size_t i = 0; i < lg->n; i++) {
        const sl_api_audit_req *r = &lg->r[i];
        if (r->post)
            continue;
        for (size_t t = 0; t < r->T; t++) {
            total++;
            const char *why = sufficed(c, r, &r->step[t]);
            if (!why) {
                ok++;
                W = r->step[t].n + 1 > W ? r->step[t].n + 1 : W;
            } else if (json_is_null(first_not)) {
                first_not = json_pack("{s:I, s:I, s:s}", "request", (json_int_t)i, "step", (json_int_t)t, "why", why);
            }
        }
    }
    json_object_set_new(j->out, "sufficed", json_pack("{s:I, s:I, s:o}", "steps", (json_int_t)ok, "of",
                                                      (json_int_t)total, "first_not", first_not));
    if (c->history) {
        json_object_set_new(j->out, "raw", json_string("not judged: " PENALTIES_WHY));
        return SL_OK;
    }
    if (!ok)
        return SL_OK;
    /* the samples' steps, in request order: one log for the tests; every raw request for the kept sets */
    rows R;
    if (rows_alloc(&R, ok, W, err))
        return SL_ENOMEM;
    size_t n_kept_only = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < lg->n; i++) {
            const sl_api_audit_req *r = &lg->r[i];
            if (r->post || (r->purpose == SL_API_AUDIT_SAMPLE) != (pass == 0))
                continue;
            for (size_t t = 0; t < r->T; t++) {
                const sl_api_audit_step *st = &r->step[t];
                if (sufficed(c, r, st))
                    continue;
                int listed = 0;
                for (size_t k = 0; k < st->n; k++)
                    listed |= st->id[k] == st->chosen;
                if (!listed && isnan(st->chosen_v)) {
                    /* the entries cover the kept set, and the drawn token is not among them */
                    json_array_append_new(outs, outside(i, t, st->chosen,
                                                        c->cfg.top_k > 0 && (size_t)c->cfg.top_k <= st->n ? "top_k"
                                                                                                         : "the chain"));
                    continue;
                }
                size_t at = R.n;
                if (row_fill(st, W, R.f + at * W, R.d + at * W, &R.obs[at]))
                    continue;
                R.req[at] = i;
                R.step[at] = t;
                R.n++;
                n_kept_only += pass;
            }
        }
    size_t n_sample = R.n - n_kept_only;
    int rc = SL_OK;
    sl_api_check_log_result L;
    memset(&L, 0, sizeof L);
    if (R.n) {
        sl_io_steps m = steps_view(&R, 0, R.n);
        /* the kept sets over every row; the tests over the samples' (the repeats are not new draws) */
        rc = sl_api_check_log(c->ft, &c->fo, 1, &m, NULL, 0, R.obs, j->alpha, 0, &L, err);
        for (size_t k = 0; !rc && k < L.n_out; k++) {
            size_t row = L.out_steps[k];
            const sl_api_audit_req *r = &lg->r[R.req[row]];
            json_array_append_new(outs, outside(R.req[row], R.step[row], r->step[R.step[row]].chosen, L.out_why[k]));
        }
        sl_api_check_log_free(&L);
    }
    if (!rc && n_sample) {
        sl_io_steps m = steps_view(&R, 0, n_sample);
        memset(&L, 0, sizeof L);
        rc = sl_api_check_log(c->ft, &c->fo, 1, &m, NULL, 0, R.obs, j->alpha, j->trials, &L, err);
        if (!rc) {
            json_t *pw = json_array();
            for (size_t a = 0; a < L.n_alt; a++)
                json_array_append_new(pw, json_pack("{s:s, s:f, s:f}", "fault", L.alt_kind[a] ? "top_p" : "temperature",
                                                    "value", L.alt_value[a], "power", L.power[a]));
            json_t *dist = json_pack(
                "{s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:o, s:o, s:o}", "basis",
                "the claim on the reported raw log-probabilities", "steps", (json_int_t)n_sample, "loglik", L.res.ll,
                "loglik_mean", L.res.ll_mean, "loglik_sd", L.res.ll_sd, "loglik_p", L.res.ll_p, "pit_ks_d",
                L.res.ks_d, "pit_ks_p", L.res.ks_p, "trials", (json_int_t)L.trials, "power", pw,
                "detects_temperature", isnan(L.det[0]) ? json_null() : json_real(L.det[0]), "detects_top_p",
                !L.has_topp || isnan(L.det[1]) ? json_null() : json_real(L.det[1]));
            json_object_set_new(j->out, "distribution", dist);
            json_object_set_new(j->out, "p_value", json_real(L.res.p_value));
            if (L.res.p_value < j->alpha)
                j->rejected = 1;
        }
        sl_api_check_log_free(&L);
    }
    /* the seeded replay: a sample whose every step sufficed, llama.cpp's session with its seed */
    /* ... and each request sent beside another on its own values: the sampler followed the values it met */
    size_t p_req = 0, p_steps = 0, p_exact = 0, c_req = 0, c_steps = 0, c_exact = 0;
    json_t *divs = json_array();
    for (size_t row = 0; !rc && row < R.n;) {
        size_t i = R.req[row], from = row;
        while (row < R.n && R.req[row] == i)
            row++;
        const sl_api_audit_req *r = &lg->r[i];
        int beside = r->purpose == SL_API_AUDIT_CONCURRENT;
        /* a log naming tokens by text only has no ids to replay llama.cpp's order with */
        if (!r->has_seed || row - from != r->T || lg->by_text || (from >= n_sample && !beside))
            continue;
        char sd[32];
        snprintf(sd, sizeof sd, "%llu", (unsigned long long)r->seed);
        sl_api_settings s2 = c->s;
        s2.seed = sd;
        sl_fw_opts fo;
        if ((rc = sl_api_fw_opts("audit", &s2, &fo, err)))
            break;
        fo.k = fo.n = 1;
        fo.logits = &c->marker;
        sl_io_steps m = steps_view(&R, from, row - from);
        sl_api_divergence dv;
        rc = sl_api_check_seeded(c->ft, &fo, &m, R.obs + from, &dv, err);
        sl_api_fw_opts_free(&fo);
        if (rc)
            break;
        if (beside) {
            c_req++;
            c_steps += r->T;
            c_exact += dv.step;
        } else {
            p_req++;
            p_steps += r->T;
            p_exact += dv.step;
        }
        if (dv.step < r->T && !beside) {
            /* the compact row's index back to the engine's id */
            const sl_api_audit_step *st = &r->step[dv.step];
            long ids[R.W];
            size_t n = 0;
            for (size_t k = 0; k < st->n; k++)
                ids[n++] = st->id[k];
            int listed = 0;
            for (size_t k = 0; k < st->n; k++)
                listed |= st->id[k] == st->chosen;
            if (!listed)
                ids[n++] = st->chosen;
            qsort(ids, n, sizeof *ids, cmp_long);
            long pid = dv.predicted >= 0 && (size_t)dv.predicted < n ? ids[dv.predicted] : -1;
            json_array_append_new(divs, json_pack("{s:I, s:I, s:I, s:I}", "request", (json_int_t)i, "step",
                                                  (json_int_t)dv.step, "observed", (json_int_t)st->chosen, "predicted",
                                                  (json_int_t)pid));
        }
    }
    json_object_set_new(j->out, "predicted",
                        json_pack("{s:I, s:I, s:I, s:s, s:o}", "requests", (json_int_t)p_req, "steps",
                                  (json_int_t)p_steps, "exact", (json_int_t)p_exact, "session",
                                  c->session, "first_divergence", divs));
    json_t *cc = json_object_get(j->out, "concurrent");
    if (json_is_object(cc) && c_req)
        json_object_set_new(cc, "replayed", json_pack("{s:I, s:I, s:I}", "requests", (json_int_t)c_req, "steps",
                                                      (json_int_t)c_steps, "exact", (json_int_t)c_exact));
    rows_free(&R);
    return rc;
}

/* The repeats with post-sampling probabilities beside their raw twins: the
 * temperature the ratio shows, and whether the penalised tokens moved. */
static int judge_post(judge *j, json_t *outs, sl_error *err)
{
    (void)err;
    const claim *c = j->c;
    const sl_api_audit_log *lg = j->lg;
    const sl_logits_cfg *f = &c->cfg;
    size_t steps = 0, moved = 0, unmoved = 0, n_temp = 0, temp_off = 0;
    double t_worst = NAN;
    json_t *first_unmoved = NULL, *first_temp = NULL;
    sl_stat_gen sg;
    int have_sg = sl_stat_gen_init(&sg, 64, SL_STAT_GEN_SEED, err) == SL_OK;
    if (!have_sg)
        return SL_EINVAL;
    size_t n_dist = 0, post_unlisted = 0;
    int rc = SL_OK;
    for (size_t i = 0; !rc && i < lg->n; i++) {
        const sl_api_audit_req *q = &lg->r[i];
        if (!q->post)
            continue;
        /* the distribution: the drawn token against the probabilities the server reports */
        for (size_t t = 0; !rc && t < q->T; t++) {
            const sl_api_audit_step *st = &q->step[t];
            size_t x = SIZE_MAX;
            for (size_t k = 0; k < st->n; k++)
                if (st->id[k] == st->chosen)
                    x = k;
            if (x == SIZE_MAX || !st->n) {
                /* a list shorter than asked for is the whole kept set: the drawn token must be in it */
                if (q->n_probs && st->n < q->n_probs)
                    json_array_append_new(outs, outside(i, t, st->chosen, "the server's own kept set"));
                else
                    post_unlisted++;
                continue;
            }
            sl_stat_gen_one one;
            if (!(rc = sl_stat_gen_step(st->v, st->n, x, t, &one, err)))
                rc = sl_stat_gen_add(&sg, &one, err);
            n_dist++;
        }
        if (q->same_as < 0 || lg->r[q->same_as].post)
            continue;
        const sl_api_audit_req *r = &lg->r[q->same_as];
        size_t T = q->T < r->T ? q->T : r->T;
        for (size_t t = 0; t < T; t++) {
            const sl_api_audit_step *ps = &q->step[t], *rs = &r->step[t];
            if (ps->chosen != rs->chosen)
                break; /* another draw: the seed verdict says so */
            /* pairs (raw log-probability, post-sampling log-probability) of the kept tokens */
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            size_t n = 0;
            for (int pass = 0; pass < 2; pass++) {
                if (pass == 1 && n >= 2) {
                    double a = (n * sxy - sx * sy) / (n * sxx - sx * sx), b = (sy - a * sx) / n;
                    if (!isfinite(a) || a <= 0)
                        break;
                    double Ti = 1 / a;
                    if (!(f->temperature > 0))
                        break; /* greedy: no temperature to fit */
                    n_temp++;
                    if (fabs(Ti / f->temperature - 1) > AUDIT_FIT_TOL) {
                        temp_off++;
                        if (!first_temp)
                            first_temp = json_pack("{s:I, s:I, s:f}", "request", (json_int_t)q->same_as, "step",
                                                   (json_int_t)t, "temperature", Ti);
                    }
                    if (isnan(t_worst) || fabs(Ti - f->temperature) > fabs(t_worst - f->temperature))
                        t_worst = Ti;
                    sx = b; /* the intercept, for the penalised tokens below */
                    sy = a;
                }
                if (pass == 1 && n < 2)
                    break;
                for (size_t k = 0; k < ps->n; k++) {
                    if (!(ps->v[k] > 0))
                        continue;
                    double raw = NAN;
                    for (size_t m = 0; m < rs->n; m++)
                        if (rs->id[m] == ps->id[k])
                            raw = rs->v[m];
                    if (isnan(raw))
                        continue;
                    /* penalised: among the last repeat_last_n of the prompt and the tokens drawn before */
                    int pen = 0;
                    if (c->history) {
                        size_t H = lg->prompt_n + t;
                        size_t last = f->last_n < 0 || (size_t)f->last_n > H ? H : (size_t)f->last_n;
                        for (size_t h = H - last; h < H && !pen; h++) {
                            long tok = h < lg->prompt_n ? lg->prompt[h] : r->step[h - lg->prompt_n].chosen;
                            pen = tok == ps->id[k];
                        }
                    }
                    double y = log(ps->v[k]);
                    if (pass == 0 && !pen) {
                        sx += raw;
                        sy += y;
                        sxx += raw * raw;
                        sxy += raw * y;
                        n++;
                    } else if (pass == 1 && pen) {
                        double dev = y - (sy * raw + sx);
                        if (fabs(dev) > AUDIT_FIT_TOL) {
                            moved++;
                        } else {
                            unmoved++;
                            if (!first_unmoved)
                                first_unmoved = outside(q->same_as, t, ps->id[k], "penalties");
                        }
                    }
                }
            }
            steps++;
        }
    }
    if (!steps && !n_dist) {
        sl_stat_gen_free(&sg);
        json_object_set_new(j->out, "post_sampling", json_null());
        if (first_unmoved)
            json_decref(first_unmoved);
        if (first_temp)
            json_decref(first_temp);
        return rc;
    }
    json_t *ps = json_pack("{s:I, s:I, s:I, s:I, s:o, s:o}", "steps", (json_int_t)steps, "unlisted_draws",
                           (json_int_t)post_unlisted, "temperature_fits",
                           (json_int_t)n_temp, "temperature_off", (json_int_t)temp_off, "temperature_furthest",
                           isnan(t_worst) ? json_null() : json_real(t_worst), "first_temperature_off",
                           first_temp ? first_temp : json_null());
    if (temp_off)
        json_array_append_new(outs, json_pack("{s:O, s:O, s:n, s:s}", "request",
                                              json_object_get(first_temp, "request"), "step",
                                              json_object_get(first_temp, "step"), "token", "stage", "temperature"));
    if (c->history) {
        json_object_set_new(ps, "penalised_moved", json_integer((json_int_t)moved));
        json_object_set_new(ps, "penalised_unmoved", json_integer((json_int_t)unmoved));
        /* a penalty leaves a logit where it is only at 0: never moved over several tokens, it is off */
        if (!moved && unmoved >= 3)
            json_array_append_new(outs, first_unmoved), first_unmoved = NULL;
    }
    if (first_unmoved)
        json_decref(first_unmoved);
    json_object_set_new(j->out, "post_sampling", ps);
    if (!rc && n_dist && !json_object_get(j->out, "distribution")) {
        sl_stat_gen_result res;
        if (!(rc = sl_stat_gen_finish(&sg, j->alpha, &res, err))) {
            json_object_set_new(j->out, "distribution",
                                json_pack("{s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:f}", "basis",
                                          "the server's own post-sampling probabilities", "steps", (json_int_t)n_dist,
                                          "loglik", res.ll, "loglik_mean", res.ll_mean, "loglik_sd", res.ll_sd,
                                          "loglik_p", res.ll_p, "pit_ks_d", res.ks_d, "pit_ks_p", res.ks_p));
            json_object_set_new(j->out, "p_value", json_real(res.p_value));
            if (res.p_value < j->alpha)
                j->rejected = 1;
        }
    }
    sl_stat_gen_free(&sg);
    return rc;
}

/* Why no request was replayed, the first reason that holds (judge_raw's conditions). */
static const char *no_replay_why(const judge *j)
{
    if (j->c->history)
        return PENALTIES_WHY;
    if (j->lg->by_text)
        return "the log names its tokens by text, not by id, and llama.cpp's order among equal logits needs the ids";
    int seeded = 0;
    for (size_t i = 0; i < j->lg->n; i++)
        seeded |= j->lg->r[i].has_seed;
    if (!seeded)
        return "no request names its seed";
    return "no seeded request whose every step's values cover the kept set";
}

static int judge_all(judge *j, sl_error *err)
{
    json_t *outs = json_array();
    judge_seed(j);
    int rc = judge_raw(j, outs, err);
    if (!rc)
        rc = judge_post(j, outs, err);
    if (rc) {
        json_decref(outs);
        return rc;
    }
    int raw_judged = !j->c->history && json_is_object(json_object_get(j->out, "sufficed")) &&
                     json_integer_value(json_object_get(json_object_get(j->out, "sufficed"), "steps")) > 0;
    json_t *ps = json_object_get(j->out, "post_sampling");
    json_t *sh = json_array_size(outs) ? json_false() : raw_judged || json_is_object(ps) ? json_true() : json_null();
    if (json_is_false(sh))
        j->rejected = 1;
    json_object_set_new(j->out, "settings_honoured", sh);
    json_object_set_new(j->out, "outside_kept", outs);
    if (!json_object_get(j->out, "p_value"))
        json_object_set_new(j->out, "p_value", json_null());
    if (!json_object_get(j->out, "distribution"))
        json_object_set_new(j->out, "distribution", json_null());
    if (!json_object_get(j->out, "predicted"))
        json_object_set_new(j->out, "predicted", json_null());
    json_t *pr = json_object_get(j->out, "predicted");
    if (!json_is_object(pr) || !json_integer_value(json_object_get(pr, "requests")))
        json_object_set_new(j->out, "predicted_why", json_string(no_replay_why(j)));
    return SL_OK;
}

/* ---------------------------------------------------------------- the command */

int sl_api_audit_run(const sl_api_settings *s, sl_api_audit_result *r, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_audit_run", r);
    memset(r, 0, sizeof *r);
    sl_api_or_defaults(&s, NULL);
    if (sl_api_settings_check(s, "sl_api_audit_run", err))
        return SL_EINVAL;
    if (!!s->server == !!s->log)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: give exactly one of --server URL and --log FILE");
    double alpha = s->has_alpha ? s->alpha : 0.01;
    if (!(alpha > 0 && alpha < 1))
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --alpha must be in (0, 1)");
    size_t trials = s->has_trials ? s->trials : 200;
    if (trials > SL_API_CHECK_MAX_TRIALS)
        return sl_base_error_set(err, SL_EINVAL, "samplab audit: --trials %zu: at most %d", trials,
                                 SL_API_CHECK_MAX_TRIALS);
    char *text = NULL;
    size_t len = 0;
    claim c;
    int rc;
    sl_api_audit_log lg;
    memset(&lg, 0, sizeof lg);
    if (s->server) {
        const char *api;
        char version[64] = "";
        if ((rc = api_of(s, &api, err)))
            goto out;
        /* Ollama's own route: its version names the line, unless --ollama does */
        if (!strcmp(api, "ollama") && ((rc = ollama_usage(s, err)) ||
                                       (!s->ollama && (rc = ollama_version(s, version, sizeof version, err)))))
            goto out;
        if ((rc = claim_open(&c, s, api, NULL, version, s->server, err))) {
            claim_close(&c);
            goto out;
        }
        rc = drive_server(s, &c, version, &text, &len, err);
        claim_close(&c);
        if (rc)
            goto out;
        rc = sl_api_audit_log_parse("the server's answers", text, len, &lg, err);
    } else {
        if (s->prompt || s->prompt_ids || s->has_requests || s->has_n_predict || s->send || s->out ||
            s->has_concurrent || s->api || s->model || s->has_n_probs || s->has_timeout || s->seed)
            return sl_base_error_set(err, SL_EINVAL,
                                     "samplab audit: with --log FILE the log holds the requests; --prompt, --seed, --requests, "
                                     "--n-predict, --n-probs, --send, --api, --model, --concurrent, --timeout and "
                                     "--out drive a server (--server)");
        unsigned char *buf;
        if ((rc = sl_io_file_slurp(s->log, &buf, &len, err)))
            goto out;
        text = (char *)buf;
        rc = sl_api_audit_log_parse(s->log, text, len, &lg, err);
    }
    if (rc)
        goto out;
    if ((rc = claim_open(&c, s, lg.api, lg.claim, lg.build, s->server ? "the server's answers" : s->log, err))) {
        claim_close(&c);
        goto out;
    }
    judge j = {&c, &lg, alpha, trials, json_object(), 0};
    json_object_set_new(j.out, "command", json_string("audit"));
    json_object_set_new(j.out, s->server ? "server" : "log", json_string(s->server ? s->server : s->log));
    json_object_set_new(j.out, "api", json_string(lg.api[0] ? lg.api : "unknown"));
    json_object_set_new(j.out, "requests", json_integer((json_int_t)lg.n));
    size_t T = 0;
    for (size_t i = 0; i < lg.n; i++)
        T += lg.r[i].T;
    json_object_set_new(j.out, "tokens", json_integer((json_int_t)T));
    sl_api_settings_echo(j.out, c.ft->pipeline, &c.s.cfg);
    json_object_set_new(j.out, "samplers", json_string(c.samplers));
    json_object_set_new(j.out, "session", json_string(c.session));
    json_object_set_new(j.out, "release_from", json_string(c.release_from));
    json_object_set_new(j.out, "framework", json_string(c.s.framework));
    if (c.route_defaulted) {
        json_t *rd = json_array();
        if (c.route_defaulted & 1)
            json_array_append_new(rd, json_string("temperature"));
        if (c.route_defaulted & 2)
            json_array_append_new(rd, json_string("top_p"));
        json_object_set_new(j.out, "route_defaults", rd);
        json_object_set_new(j.out, "route_defaults_why",
                            json_string("Ollama's /v1/completions sets temperature and top_p to 1.0 when a request "
                                        "leaves them out (openai/openai.go, FromCompleteRequest)"));
    }
    json_object_set_new(j.out, "alpha", json_real(alpha));
    if (c.history && !lg.prompt)
        json_object_set_new(j.out, "note", json_string("the log names no prompt ids: the penalties' window holds "
                                                       "the generated tokens only"));
    rc = judge_all(&j, err);
    claim_close(&c);
    if (rc) {
        json_decref(j.out);
        goto out;
    }
    json_object_set_new(j.out, "verdict", json_string(j.rejected ? "rejected" : "consistent"));
    json_object_set_new(j.out, "exit", json_integer(j.rejected));
    r->json = j.out;
    r->rejected = j.rejected;
out:
    free(text);
    sl_api_audit_log_free(&lg);
    return rc;
}

void sl_api_audit_result_free(sl_api_audit_result *r)
{
    if (r && r->json)
        json_decref(r->json);
    if (r)
        r->json = NULL;
}

int sl_api_audit(const sl_api_settings *s, char **json, sl_error *err)
{
    SL_BASE_NONNULL(err, "sl_api_audit", json);
    *json = NULL;
    sl_api_audit_result r;
    int rc = sl_api_audit_run(s, &r, err);
    if (rc)
        return rc;
    *json = sl_api_json_dumps(r.json, JSON_COMPACT | JSON_REAL_PRECISION(17));
    sl_api_audit_result_free(&r);
    return *json ? SL_OK : sl_base_error_set(err, SL_ENOMEM, "samplab audit: out of memory");
}
