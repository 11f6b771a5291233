/* test_llamacpp_orders.c — llama.cpp's stage order given by the user
 * (--samplers, --sampling-seq) against libllama itself: Debian sid's 0.7.0, and
 * the chains over given logits again through node-llama-cpp 3.21.1's libllama
 * v0.4.0 (data/golden/llamacpp_0.4.0/llamacpp_orders.txt, --llamacpp 0.4.0).
 *
 * What it proves, against what:
 *   - every chain of data/golden/current/llamacpp_orders.txt (libllama's C API
 *     building each user order as common_sampler_init does, over given logits,
 *     each drawn token accepted) replays through samplab's C API — the order
 *     read by sl_logits_llama_order_parse, a llamacpp session — with the same
 *     tokens, candidate counts, words and kept sets (count and hash of the
 *     ids above -inf) at every step;
 *   - the 100-step generations of llamacpp_orders_generate.txt (llama_decode +
 *     llama_sampler_sample on the tiny GGUF, logits in llamacpp_orders_logits.npy)
 *     the same, and through the command line: `replay --samplers` (tokens,
 *     words), `check --seed` (no divergence) and `pipeline --samplers
 *     --context` (the kept set at sampled steps); the given-logits cases on the
 *     weather vector through `draw --samplers` and `draw --sampling-seq`;
 *   - libllama-common's reading of names and letters (llamacpp_names.txt): a
 *     word it maps to a modelled stage maps to that stage, one it maps to a
 *     stage samplab does not model is refused as not modelled, one it drops is
 *     refused saying llama.cpp would drop it; likewise every printable letter;
 *   - the refusals of the command line are one line, exit 2;
 *   - a chain's clone and reset carry the penalties' ring as llama.cpp's do.
 * Record formats: analysis/golden/current/llamacpp_chain.c and llamacpp_generate.c. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>

#include "golden_gen.h"
#include "helpers.h"
#include "samplab.h"

typedef struct {
    double temp, top_p, min_p, typical, repeat, freq, present;
    long top_k, last_n, min_keep;
    uint32_t seed;
    char order[256];
    int fixed;        /* 1: samplab's fixed default order instead (what it ran before --samplers) */
} oc_set;

static const char *oc_variant; /* the release line of the data set replayed (NULL: 0.7.0) */

static double oc_kv(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    cr_assert_not_null(p, "no %s in '%.80s'", key, line);
    return strtod(p + strlen(key), NULL);
}

static void oc_read(const char *line, oc_set *c)
{
    memset(c, 0, sizeof *c);
    c->seed = (uint32_t)oc_kv(line, " seed=");
    c->temp = oc_kv(line, " temp="), c->top_k = (long)oc_kv(line, " top_k="), c->top_p = oc_kv(line, " top_p=");
    c->min_p = oc_kv(line, " min_p="), c->typical = oc_kv(line, " typical="), c->last_n = (long)oc_kv(line, " last_n=");
    c->repeat = oc_kv(line, " repeat="), c->freq = oc_kv(line, " freq="), c->present = oc_kv(line, " present=");
    c->min_keep = (long)oc_kv(line, " min_keep=");
}

/* The settings and the order as samplab takes them: "-" is --sampling-seq "" (no stage). */
static void oc_cfg(const oc_set *c, sl_logits_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->has_temperature = 1, cfg->temperature = c->temp;
    cfg->has_top_k = 1, cfg->top_k = c->top_k;
    cfg->has_top_p = 1, cfg->top_p = c->top_p;
    cfg->has_min_p = 1, cfg->min_p = c->min_p;
    cfg->has_typical = 1, cfg->typical = c->typical;
    cfg->has_penalty = 1, cfg->penalty = c->repeat;
    cfg->has_freq = 1, cfg->freq = c->freq;
    cfg->has_presence = 1, cfg->presence = c->present;
    cfg->has_last_n = 1, cfg->last_n = c->last_n;
    cfg->has_min_keep = 1, cfg->min_keep = c->min_keep;
    sl_error err;
    int none = !strcmp(c->order, "-");
    if (c->fixed)
        return;
    cr_assert_eq(sl_logits_llama_order_parse(none ? "" : c->order, none, cfg, &err), 0, "%s", err.msg);
}

/* kept_hash of llamacpp_probe.h over a chain's candidates: "n:fnv1a64 of the sorted ids above -inf" */
static void oc_kept_of(const sl_logits_cand *d, size_t n, char *out, size_t cap)
{
    cr_assert(gg_kept_of_cands(d, n, out, cap), "out of memory");
}

static void oc_kept(const float *x, size_t V, const sl_logits_cfg *cfg, const long *hist, size_t nh, char *out,
                    size_t cap)
{
    sl_logits_cfg c = *cfg;
    c.context = hist, c.context_n = nh;
    sl_logits_llama_array a;
    sl_error err;
    cr_assert_eq(sl_logits_llama_chain(x, V, &c, &a, NULL, &err), 0, "%s", err.msg);
    oc_kept_of(a.data, a.size, out, cap);
    free(a.data);
}

typedef struct {
    size_t cases, cases_ok, steps, tok_differ, ncand_differ, word_differ, kept_differ;
} oc_score;

/* One case or run through a llamacpp session: rows(t) gives step t's logits;
 * prompt (np ids) accepted first; the golden records compared step by step. */
typedef const float *(*oc_rows)(void *ctx, int t);

static void oc_replay(const oc_set *c, size_t V, int steps, oc_rows rows, void *rctx, const long *prompt, size_t np,
                      const char *toks, const char *ncand, const char *kept, const char *words, oc_score *sc,
                      const char *what)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    oc_cfg(c, &o.cfg);
    o.cfg.context = prompt, o.cfg.context_n = np;
    o.has_seed = 1, o.seed.lo = c->seed, o.k = 1;
    o.variant = oc_variant;
    sl_vec xv;
    sl_error err;
    cr_assert_eq(sl_base_vec_alloc(&xv, V, "orders", &err), 0);
    o.logits = &xv;
    sl_fw_session ss;
    cr_assert_eq(sl_fw_session_open(&ss, &sl_fw_llamacpp_type, &o, &err), 0, "%s: %s", what, err.msg);
    long *hist = malloc((np + (size_t)steps + 1) * sizeof *hist);
    cr_assert(hist);
    if (np)
        memcpy(hist, prompt, np * sizeof *hist);
    size_t nh = np;
    int ok = 1;
    char *tp = (char *)toks, *cp = (char *)ncand, *kp = (char *)kept, *wp = (char *)words;
    for (int t = 0; t < steps; t++) {
        const float *x = rows(rctx, t);
        for (size_t i = 0; i < V; i++)
            xv.d[i] = xv.f[i] = x[i];
        sl_fw_session_forget(&ss);
        char kh[48], want[48];
        oc_kept(x, V, &o.cfg, hist, nh, kh, sizeof kh);
        sl_fw_step st;
        cr_assert_eq(sl_fw_session_step(&ss, &xv, &st, &err), 0, "%s: %s", what, err.msg);
        long wt = strtol(tp, &tp, 10);
        int d_tok = st.tokens[0] != wt;
        int d_nc = cp ? strtoul(cp, &cp, 10) != st.kept : 0;
        while (*kp == ' ')
            kp++;
        size_t kl = strcspn(kp, " \n");
        snprintf(want, sizeof want, "%.*s", (int)kl, kp);
        kp += kl;
        int d_kept = strcmp(want, kh) != 0;
        while (*wp == ' ')
            wp++;
        int d_w = *wp == '-' ? (wp++, st.words != 0) : strtoull(wp, &wp, 10) != st.words;
        sc->tok_differ += d_tok, sc->ncand_differ += d_nc, sc->kept_differ += d_kept, sc->word_differ += d_w;
        if ((d_tok || d_nc || d_kept || d_w) && ok)
            cr_log_info("%s: step %d differs: token %ld/%ld kept %s/%s words %" PRIu64, what, t, st.tokens[0], wt,
                        kh, want, st.words);
        ok &= !(d_tok || d_nc || d_kept || d_w);
        cr_assert_eq(sl_fw_session_accept(&ss, wt, &err), 0);
        hist[nh++] = wt;
        sc->steps++;
    }
    sl_fw_session_close(&ss);
    sl_base_vec_free(&xv);
    free(hist);
    sc->cases++;
    sc->cases_ok += ok;
}

/* The tokens alone: how many steps of a case differ from llama.cpp's (into sc->tok_differ). */
static void oc_replay_tokens(const oc_set *c, size_t V, int steps, oc_rows rows, void *rctx, const char *toks,
                             oc_score *sc)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    oc_cfg(c, &o.cfg);
    o.has_seed = 1, o.seed.lo = c->seed, o.k = 1;
    o.variant = oc_variant;
    sl_vec xv;
    sl_error err;
    cr_assert_eq(sl_base_vec_alloc(&xv, V, "orders", &err), 0);
    o.logits = &xv;
    sl_fw_session ss;
    cr_assert_eq(sl_fw_session_open(&ss, &sl_fw_llamacpp_type, &o, &err), 0, "%s", err.msg);
    char *tp = (char *)toks;
    for (int t = 0; t < steps; t++) {
        const float *x = rows(rctx, t);
        for (size_t i = 0; i < V; i++)
            xv.d[i] = xv.f[i] = x[i];
        sl_fw_session_forget(&ss);
        sl_fw_step st;
        cr_assert_eq(sl_fw_session_step(&ss, &xv, &st, &err), 0, "%s", err.msg);
        long wt = strtol(tp, &tp, 10);
        sc->tok_differ += st.tokens[0] != wt;
        cr_assert_eq(sl_fw_session_accept(&ss, wt, &err), 0);
        sc->steps++;
    }
    sl_fw_session_close(&ss);
    sl_base_vec_free(&xv);
}

/* the words after "KEY ID " of a record line */
static const char *oc_rec(const char *text, const char *key, int id)
{
    const char *p = sl_test_rec(text, key, id);
    cr_assert(p, "no %s record %d", key, id);
    return strchr(strchr(p, ' ') + 1, ' ') + 1;
}

/* The settings and the order of record KEY ID (a case or a run); returns its line. */
static const char *oc_load(const char *text, const char *key, int id, oc_set *c)
{
    const char *line = sl_test_rec(text, key, id);
    cr_assert(line, "no %s %d", key, id);
    oc_read(line, c);
    const char *o = oc_rec(text, "order", id);
    snprintf(c->order, sizeof c->order, "%.*s", (int)strcspn(o, "\n"), o);
    return line;
}

typedef struct {
    const float *x;
    size_t V;
    uint64_t gseed;
    float *buf;
} oc_vec_rows;

static const float *vec_rows(void *ctx, int t)
{
    oc_vec_rows *r = ctx;
    if (!r->gseed || !r->buf)
        return r->x;
    gg_fill_logits(r->gseed + (uint64_t)t, r->V, r->buf);
    return r->buf;
}

typedef struct {
    char name[32];
    size_t V;
    uint64_t gseed;
    float *x;
} oc_vec;

/* Every chain of one data set over its given logits. */
static void replay_orders_file(const char *path)
{
    char *t = sl_test_slurp(path);
    cr_assert_not_null(t, "%s missing", path);
    oc_vec vecs[16];
    size_t nv = 0, fixed_cases_differ = 0;
    oc_score sc = {0}, fixed = {0};
    for (const char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (!strncmp(line, "vec ", 4) || !strncmp(line, "gen ", 4)) {
            cr_assert(nv < 16);
            oc_vec *v = &vecs[nv++];
            int used;
            cr_assert_eq(sscanf(line + 4, "%31s %zu%n", v->name, &v->V, &used), 2);
            char *p = (char *)line + 4 + used;
            v->x = malloc(v->V * sizeof *v->x);
            v->gseed = 0;
            if (line[0] == 'v')
                for (size_t i = 0; i < v->V; i++)
                    v->x[i] = strtof(p, &p);
            else {
                v->gseed = strtoull(p, &p, 10);
                gg_fill_logits(v->gseed, v->V, v->x);
            }
        } else if (!strncmp(line, "case ", 5)) {
            int id, perstep;
            char name[32];
            cr_assert_eq(sscanf(line, "case %d %31s %d", &id, name, &perstep), 3);
            oc_vec *v = NULL;
            for (size_t i = 0; i < nv; i++)
                if (!strcmp(vecs[i].name, name))
                    v = &vecs[i];
            cr_assert_not_null(v);
            oc_set c;
            oc_load(t, "case", id, &c);
            int steps = (int)oc_kv(line, " steps=");
            float *buf = perstep ? malloc(v->V * sizeof *buf) : NULL;
            oc_vec_rows r = {v->x, v->V, perstep ? v->gseed : 0, buf};
            char what[64];
            snprintf(what, sizeof what, "orders case %d", id);
            oc_replay(&c, v->V, steps, vec_rows, &r, NULL, 0, oc_rec(t, "tokens", id), oc_rec(t, "ncand", id),
                      oc_rec(t, "kept", id), oc_rec(t, "words", id), &sc, what);
            /* the same case in samplab's fixed order: what the order changes (V <= 1000, tokens only) */
            if (v->V <= 1000 && strcmp(c.order, "penalties;top_k;typ_p;top_p;min_p;temperature")) {
                size_t before = fixed.tok_differ;
                c.fixed = 1;
                oc_replay_tokens(&c, v->V, steps, vec_rows, &r, oc_rec(t, "tokens", id), &fixed);
                fixed_cases_differ += fixed.tok_differ > before;
                fixed.cases++;
            }
            free(buf);
        }
    }
    cr_log_info("%s: %zu cases (%zu steps), %zu equal in tokens, candidates, kept sets and "
                "words; differing steps: tokens %zu, candidates %zu, kept sets %zu, words %zu",
                path, sc.cases, sc.steps, sc.cases_ok, sc.tok_differ, sc.ncand_differ, sc.kept_differ, sc.word_differ);
    cr_log_info("the same %zu cases in samplab's fixed order (V <= 1000, other orders than the default): the tokens of "
                "%zu cases differ (%zu of %zu steps)", fixed.cases, fixed_cases_differ, fixed.tok_differ, fixed.steps);
    cr_assert(sc.cases == 630, "%zu cases read: golden file changed?", sc.cases);
    cr_assert_gt(fixed_cases_differ, fixed.cases / 4, "the order changes too few cases for the replay to mean much");
    cr_assert_eq(sc.cases_ok, sc.cases);
    cr_assert_eq(sc.tok_differ + sc.ncand_differ + sc.kept_differ + sc.word_differ, 0);
    for (size_t i = 0; i < nv; i++)
        free(vecs[i].x);
    free(t);
}

Test(replay_orders, chains_over_given_logits)
{
    oc_variant = NULL;
    replay_orders_file("data/golden/current/llamacpp_orders.txt");
}

/* v0.4.0 as node-llama-cpp 3.21.1 ships it: the same program, its libllama */
Test(replay_orders, chains_over_given_logits_0_4_0)
{
    oc_variant = "0.4.0";
    replay_orders_file("data/golden/llamacpp_0.4.0/llamacpp_orders.txt");
}

/* ---------------------------------------------------------------- the generations */

typedef struct {
    const float *all;
    size_t V, first;
} oc_npy_rows;

static const float *npy_rows(void *ctx, int t)
{
    oc_npy_rows *r = ctx;
    return r->all + (r->first + (size_t)t) * r->V;
}

typedef struct {
    unsigned char *bytes;
    sl_io_npy_info info;
    char *text;
} oc_gen;

static void oc_gen_load(oc_gen *g)
{
    size_t len;
    sl_error e;
    g->text = sl_test_slurp("data/golden/current/llamacpp_orders_generate.txt");
    cr_assert_not_null(g->text);
    cr_assert_eq(sl_io_file_slurp("data/golden/current/llamacpp_orders_logits.npy", &g->bytes, &len, &e), 0, "%s",
                 e.msg);
    cr_assert_eq(sl_io_npy_header("logits", g->bytes, len, &g->info, &e), 0, "%s", e.msg);
    cr_assert_eq(g->info.ndim, 2);
}

static size_t oc_ids(const char *p, long *out, size_t cap)
{
    size_t n = 0;
    char *e;
    while (n < cap) {
        long v = strtol(p, &e, 10);
        if (e == p)
            break;
        out[n++] = v;
        p = e;
    }
    return n;
}

Test(replay_orders, generations_session)
{
    oc_gen g;
    oc_gen_load(&g);
    size_t V = g.info.shape[1];
    oc_score sc = {0};
    int id = 0;
    for (; sl_test_rec(g.text, "run", id); id++) {
        oc_set c;
        const char *line = oc_load(g.text, "run", id, &c);
        size_t a, b;
        cr_assert_eq(sscanf(oc_rec(g.text, "rows", id), "%zu %zu", &a, &b), 2);
        long prompt[64];
        size_t np = oc_kv(line, " accept_prompt=") ? oc_ids(oc_rec(g.text, "prompt", id), prompt, 64) : 0;
        oc_npy_rows r = {(const float *)(const void *)g.info.data, V, a};
        char what[64];
        snprintf(what, sizeof what, "orders generation run %d", id);
        oc_replay(&c, V, (int)(b - a), npy_rows, &r, prompt, np, oc_rec(g.text, "tokens", id), NULL,
                  oc_rec(g.text, "kept", id), oc_rec(g.text, "words", id), &sc, what);
    }
    cr_log_info("llama.cpp 0.7.0 generations in user orders: %zu runs (%zu steps), %zu equal in tokens, kept sets and "
                "words", sc.cases, sc.steps, sc.cases_ok);
    cr_assert(id == 12 && sc.steps == 1200, "%d runs, %zu steps: golden file changed?", id, sc.steps);
    cr_assert_eq(sc.cases_ok, sc.cases);
    free(g.bytes);
    free(g.text);
}

/* The settings of a record line as command-line options, the order as --samplers (or --sampling-seq). */
static void oc_args(const oc_set *c, int letters, char *buf, size_t cap)
{
    char ord[300];
    if (!strcmp(c->order, "-"))
        snprintf(ord, sizeof ord, "--sampling-seq ''");
    else if (letters) {
        size_t k = snprintf(ord, sizeof ord, "--sampling-seq ");
        for (const char *p = c->order; *p; p += strcspn(p, ";"), p += *p == ';') {
            static const char *const nm[] = {"penalties", "top_k", "typ_p", "top_p", "min_p", "temperature"};
            static const char lt[] = "ekypmt";
            for (int i = 0; i < 6; i++)
                if (!strncmp(p, nm[i], strlen(nm[i])) && (p[strlen(nm[i])] == ';' || !p[strlen(nm[i])]))
                    ord[k++] = lt[i];
        }
        ord[k] = '\0';
    } else
        snprintf(ord, sizeof ord, "--samplers '%s'", c->order);
    snprintf(buf, cap,
             "--seed %" PRIu32 " --temperature %.9g --top-k %ld --top-p %.9g --min-p %.9g --typical %.9g "
             "--penalty-last-n %ld --repetition-penalty %.9g --frequency-penalty %.9g --presence-penalty %.9g "
             "--min-keep %ld %s",
             c->seed, c->temp, c->top_k, c->top_p, c->min_p, c->typical, c->last_n, c->repeat, c->freq, c->present,
             c->min_keep, ord);
}

/* "a b c" (to the end of the line) as "a,b,c" */
static void oc_commas(const char *p, char *out, size_t cap)
{
    size_t k = 0;
    for (; *p && *p != '\n' && k + 1 < cap; p++)
        out[k++] = *p == ' ' ? ',' : *p;
    out[k] = '\0';
}

/* one float32 row as a 1-D .npy of its own (the vector pipeline takes); the path, malloc'd */
static char *oc_npy_row(const void *bytes, size_t V)
{
    unsigned char *buf = malloc(128 + V * 4);
    cr_assert(buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = 128 - 10, buf[9] = 0;
    memset(buf + 10, ' ', 128 - 10);
    int dl = snprintf((char *)buf + 10, 100, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu,), }", V);
    buf[10 + dl] = ' ';
    buf[127] = '\n';
    memcpy(buf + 128, bytes, V * 4);
    char *p = sl_test_tmpfile(".npy", buf, 128 + V * 4);
    free(buf);
    cr_assert(p);
    return p;
}

Test(replay_orders, generations_cli)
{
    oc_gen g;
    oc_gen_load(&g);
    size_t V = g.info.shape[1];
    size_t runs = 0, tok_ok = 0, words_ok = 0, seeded_ok = 0, kept_n = 0, kept_ok = 0;
    for (int id = 0; sl_test_rec(g.text, "run", id); id++) {
        oc_set c;
        const char *line = oc_load(g.text, "run", id, &c);
        size_t a, b;
        cr_assert_eq(sscanf(oc_rec(g.text, "rows", id), "%zu %zu", &a, &b), 2);
        char set[1024], prompt[512] = "", tokens[2048], args[4096], want[2100];
        oc_args(&c, id % 2, set, sizeof set);
        int ap = (int)oc_kv(line, " accept_prompt=");
        if (ap)
            oc_commas(oc_rec(g.text, "prompt", id), prompt, sizeof prompt);
        oc_commas(oc_rec(g.text, "tokens", id), tokens, sizeof tokens);
        char *path = sl_test_npy_f32(g.info.data + a * V * 4, b - a, V);
        cr_assert(path);
        snprintf(args, sizeof args, "replay --framework llamacpp --logits %s %s%s%s --json", path, set,
                 ap ? " --context " : "", prompt);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        snprintf(want, sizeof want, "\"tokens\":[%s]", tokens);
        runs++;
        tok_ok += strstr(r.out, want) != NULL;
        /* words: cumulative in replay's JSON, per step in the record ('-': greedy, none) */
        const char *wp = oc_rec(g.text, "words", id);
        char words[1024];
        size_t k = 0;
        unsigned long long tot = 0;
        for (size_t s = a; *wp != '-' && s < b; s++) {
            char *e;
            tot += strtoull(wp, &e, 10);
            wp = e;
            k += (size_t)snprintf(words + k, sizeof words - k, "%s%llu", s > a ? "," : "", tot);
        }
        snprintf(want, sizeof want, "\"words\":[%s]", words);
        words_ok += *wp == '-' || strstr(r.out, want) != NULL;
        char so[400];
        snprintf(so, sizeof so, "\"samplers\":\"%s\"", strcmp(c.order, "-") ? c.order : "");
        cr_expect(strstr(r.out, so), "%s: no %s in %.200s", args, so, r.out);
        sl_test_run_free(&r);
        seeded_ok += (size_t)sl_test_check_seeded(args, tokens);
        unlink(path);
        free(path);
        /* the kept set through `pipeline`, every 25th step, the history so far as --context */
        long tk[128], pr[64];
        size_t nt = oc_ids(oc_rec(g.text, "tokens", id), tk, 128);
        size_t np = ap ? oc_ids(oc_rec(g.text, "prompt", id), pr, 64) : 0;
        const char *kp = oc_rec(g.text, "kept", id);
        for (size_t s = 0; s < nt; s++) {
            while (*kp == ' ')
                kp++;
            size_t kl = strcspn(kp, " \n");
            if (s % 25 == 7) {
                char ctx[2048] = "";
                size_t q = 0;
                for (size_t i = 0; i < np; i++)
                    q += (size_t)snprintf(ctx + q, sizeof ctx - q, "%s%ld", q ? "," : "", pr[i]);
                for (size_t i = 0; i < s; i++)
                    q += (size_t)snprintf(ctx + q, sizeof ctx - q, "%s%ld", q ? "," : "", tk[i]);
                char *row = oc_npy_row(g.info.data + (a + s) * V * 4, V);
                snprintf(args, sizeof args, "pipeline --framework llamacpp --logits %s %s%s%s --json", row,
                         strstr(set, "--seed ") ? strchr(strchr(set, ' ') + 1, ' ') + 1 : set, q ? " --context " : "",
                         ctx);
                if (!q) { /* no history: the penalties change nothing, give none */
                    char *pen = strstr(args, " --penalty-last-n");
                    char *end = strstr(args, " --min-keep");
                    memmove(pen, end, strlen(end) + 1);
                }
                sl_test_run p = sl_test_cli(args);
                cr_assert_eq(p.status, 0, "%s: %s", args, p.err);
                const char *kj = strstr(p.out, "\"kept\":[");
                cr_assert(kj);
                /* the kept ids as llamacpp_probe.h hashes them */
                sl_logits_cand cd[1024];
                size_t nc = 0;
                for (char *e, *q2 = (char *)kj + 8; *q2 != ']' && nc < 1024; q2 = e + (*e == ',')) {
                    cd[nc].id = strtol(q2, &e, 10);
                    cd[nc++].logit = 0.0f;
                }
                char got[48], exp[48];
                oc_kept_of(cd, nc, got, sizeof got);
                snprintf(exp, sizeof exp, "%.*s", (int)kl, kp);
                kept_n++;
                kept_ok += !strcmp(got, exp);
                if (strcmp(got, exp))
                    cr_log_info("run %d step %zu: pipeline kept %s, llama.cpp %s", id, s, got, exp);
                sl_test_run_free(&p);
                unlink(row);
                free(row);
            }
            kp += kl;
        }
    }
    cr_log_info("llama.cpp 0.7.0 generations in user orders through the command line: %zu runs; replay equal in "
                "tokens %zu, words %zu; check --seed without divergence %zu; pipeline kept sets %zu of %zu",
                runs, tok_ok, words_ok, seeded_ok, kept_ok, kept_n);
    cr_assert_eq(runs, 12);
    cr_expect_eq(tok_ok, runs);
    cr_expect_eq(words_ok, runs);
    cr_expect_eq(seeded_ok, runs);
    cr_expect_eq(kept_ok, kept_n);
    free(g.bytes);
    free(g.text);
}

/* the weather cases (one vector, each drawn token accepted) through `draw --n` */
Test(replay_orders, weather_draw_cli)
{
    char *t = sl_test_slurp("data/golden/current/llamacpp_orders.txt");
    cr_assert_not_null(t);
    size_t n = 0, ok = 0;
    for (int id = 0; sl_test_rec(t, "case", id); id++) {
        const char *line = sl_test_rec(t, "case", id);
        if (strncmp(line + strcspn(line + 5, " ") + 6, "weather", 7))
            continue;
        oc_set c;
        oc_load(t, "case", id, &c);
        char set[1024], args[2048], tokens[512], want[600];
        oc_args(&c, id % 2, set, sizeof set);
        snprintf(args, sizeof args, "draw --framework llamacpp --logits data/weather.txt --n %d %s --json",
                 (int)oc_kv(line, " steps="), set);
        oc_commas(oc_rec(t, "tokens", id), tokens, sizeof tokens);
        snprintf(want, sizeof want, "\"tokens\":[%s]", tokens);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        n++;
        ok += strstr(r.out, want) != NULL;
        if (!strstr(r.out, want))
            cr_log_info("%s: want %s, got %.300s", args, want, r.out);
        sl_test_run_free(&r);
    }
    cr_log_info("llama.cpp 0.7.0 user orders on the weather vector through draw: %zu of %zu cases equal", ok, n);
    cr_assert_eq(n, 140);
    cr_assert_eq(ok, n);
    free(t);
}

/* ---------------------------------------------------------------- names and letters */

Test(replay_orders, names_and_letters_as_libllama_common)
{
    char *t = sl_test_slurp("data/golden/current/llamacpp_names.txt");
    cr_assert_not_null(t);
    size_t names = 0, letters = 0, ok = 0;
    int seen[128] = {0};
    for (const char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char w[64], got[32];
        int is_name = sscanf(line, "name %63s -> %31s", w, got) == 2;
        int is_char = !is_name && sscanf(line, "char %63s -> %31s", w, got) == 2;
        if (!is_name && !is_char)
            continue;
        if (is_char)
            seen[(unsigned char)w[0]] = 1;
        sl_logits_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        sl_error err;
        int rc = sl_logits_llama_order_parse(w, is_char, &cfg, &err);
        int good;
        if (!strcmp(got, "-"))
            good = rc != 0 && strstr(err.msg, "would warn") != NULL;
        else if (rc == 0)
            good = cfg.n_order == 1 && !strcmp(cfg.order[0]->name, got);
        else
            good = strstr(err.msg, "not modelled by samplab") != NULL && strstr(err.msg, "would warn") == NULL;
        if (!good)
            cr_log_info("'%s' (libllama-common: %s): samplab %s", w, got, rc ? err.msg : cfg.order[0]->name);
        names += is_name, letters += is_char, ok += good;
    }
    /* every other printable letter: dropped by llama.cpp, refused here */
    for (int ch = 0x21; ch < 0x7f; ch++) {
        if (seen[ch])
            continue;
        char w[2] = {(char)ch, 0};
        sl_logits_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        sl_error err;
        int good = sl_logits_llama_order_parse(w, 1, &cfg, &err) != 0 && strstr(err.msg, "would warn");
        letters++, ok += good != 0;
    }
    cr_log_info("libllama-common 0.7.0 names %zu, letters %zu: samplab reads %zu alike", names, letters, ok);
    cr_assert_geq(names, 60);
    cr_assert_eq(letters, 0x7f - 0x21);
    cr_assert_eq(ok, names + letters);
    free(t);
}

Test(replay_orders, refusals_one_line)
{
    const char *L = "--framework llamacpp --logits 3,2,1";
    char a[512];
    static const struct {
        const char *opt, *want;
    } bad[] = {
        {"--samplers 'top_k;foo'", "'foo' (stage 2) is not a llama.cpp 0.7.0 stage name: llama.cpp would warn"},
        {"--samplers 'top_k;infill'", "'infill' (stage 2) is llama.cpp's infill sampler (llama_sampler_init_infill): "
                                      "not modelled"},
        {"--samplers adaptive_p --mirostat 2", "--samplers with --mirostat 2: llama.cpp ignores it"},
        {"--samplers infill", "not modelled by samplab"},
        {"--samplers mirostat", "--mirostat 1|2"},
        {"--samplers 'top_k;;top_p'", "stage 2 is empty"},
        {"--samplers 'top_k;'", "stage 2 is empty"},
        {"--samplers 'top_k; top_p'", "' top_p' (stage 2) is not a llama.cpp 0.7.0 stage name"},
        {"--samplers ''", "stage 1 is empty"},
        {"--samplers typical", "'typical' (stage 1) is not a llama.cpp 0.7.0 stage name"},
        {"--sampling-seq kK", "'K' (stage 2) is not a llama.cpp 0.7.0 stage letter"},
        {"--sampling-seq dki", "'i' (stage 3) is llama.cpp's infill sampler"},
        {"--samplers top_k --sampling-seq k", "--samplers and --sampling-seq both set the stage order"},
    };
    static const char *const cmds[] = {"pipeline", "draw --seed 1"};
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            snprintf(a, sizeof a, "%s %s %s", cmds[c], L, bad[i].opt);
            sl_test_expect_refused(a, bad[i].want);
        }
    sl_test_expect_refused("pipeline --framework hf --logits 3,2,1 --samplers top_k",
                           "--samplers is not an option of framework hf");
    sl_test_expect_refused("draw --framework torch --probs 3,2,1 --sampling-seq k",
                           "--sampling-seq is not an option of framework torch");
    sl_test_expect_refused("compare --logits 3,2,1 --samplers top_k", "--samplers is not an option of compare");
    sl_test_expect_refused("draw --method cdf --probs 3,2,1 --samplers top_k", "--samplers");
}

/* ---------------------------------------------------------------- the stage type's state */

Test(replay_orders, chain_clone_and_reset_carry_the_ring)
{
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.has_penalty = 1, cfg.penalty = 2.0;
    cfg.has_last_n = 1, cfg.last_n = 3;
    sl_error err;
    cr_assert_eq(sl_logits_llama_order_parse("penalties;top_k", 0, &cfg, &err), 0, "%s", err.msg);
    cfg.has_top_k = 1, cfg.top_k = 2;
    const float x[5] = {3.0f, 2.9f, 2.8f, 2.0f, 0.0f};
    sl_logits_chain *ch, *cl;
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_logits_chain_n(ch), 2);
    cr_assert_eq(sl_logits_chain_stage(ch, 0), &sl_logits_stage_penalties);
    cr_assert(sl_logits_chain_stateful(ch));
    /* 0 then 1, 1, 2: the ring of 3 holds 1, 1, 2 -> ids 1 and 2 halved, 0 back in front */
    for (long tkn = 0; tkn < 4; tkn++)
        cr_assert_eq(sl_logits_chain_accept(ch, tkn == 0 ? 0 : tkn == 3 ? 2 : 1, &err), 0);
    cr_assert_eq(sl_logits_chain_clone(ch, &cl, &err), 0, "%s", err.msg);
    sl_logits_llama_array a, b;
    cr_assert_eq(sl_logits_chain_run(ch, x, 5, &a, NULL, &err), 0);
    cr_assert_eq(sl_logits_chain_run(cl, x, 5, &b, NULL, &err), 0);
    cr_assert_eq(a.size, 2);
    cr_assert(a.data[0].id == 0 && a.data[1].id == 3, "kept %ld %ld", a.data[0].id, a.data[1].id);
    cr_assert(b.size == 2 && b.data[0].id == 0 && b.data[1].id == 3);
    free(a.data), free(b.data);
    /* reset forgets the ring: the unpenalised top two */
    sl_logits_chain_reset(cl);
    cr_assert_eq(sl_logits_chain_run(cl, x, 5, &b, NULL, &err), 0);
    cr_assert(b.size == 2 && b.data[0].id == 0 && b.data[1].id == 1);
    free(b.data);
    /* the original keeps its own ring */
    cr_assert_eq(sl_logits_chain_run(ch, x, 5, &a, NULL, &err), 0);
    cr_assert(a.data[1].id == 3);
    free(a.data);
    sl_logits_chain_free(ch);
    sl_logits_chain_free(cl);
    /* every stage describes its parameters */
    for (size_t i = 0; sl_logits_llama_default_order[i]; i++) {
        const sl_logits_stage_type *st = sl_logits_llama_default_order[i];
        cr_assert(st->n_params >= 1 && st->letter, "%s", st->name);
        /* each parameter is a setting of the schema, which names llama.cpp's own option or field for it */
        for (size_t j = 0; j < st->n_params; j++) {
            const sl_api_option *o = sl_api_option_keyed(st->params[j].key);
            cr_assert(o && o->kind != SL_API_UNMODELLED && o->llamacpp, "%s: %s", st->name, st->params[j].key);
        }
    }
}
