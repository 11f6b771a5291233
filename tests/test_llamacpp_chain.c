/* test_llamacpp_chain.c — the llama.cpp emulation (logits/llamacpp.c's
 * chain and dist, framework/llamacpp.c's uniform) against llama.cpp 0.7.0
 * itself: data/golden/current/llamacpp_chain.txt, made through libllama's C
 * API by analysis/golden/current/llamacpp_golden.sh (record formats in
 * analysis/golden/current/llamacpp_chain.c), and the generation run
 * llamacpp_generate.txt with its logits (.npy).
 *
 * Each case is replayed step by step through the framework's session
 * (sl_fw_llamacpp_type, its 0.7.0 line): the accepted tokens so far are the
 * penalties history (accept=1), the chain runs over the step's logits, then
 * greedy (first maximum) at T <= 0, else one uniform from std::mt19937(seed)
 * and the dist pick. llama.cpp 0.7.0 draws that uniform (2 words) even when one
 * candidate is left; the older pr15704 line skipped it, and the replay counts
 * (by hand) the cases where skipping would have changed the tokens. A penalty
 * window last_n < 0 disables the penalties in libllama
 * (llama_sampler_init_penalties clamps it to 0; common's CLI turns -1 into
 * the context size before) where sl_logits_llama_chain rejects it: replayed
 * as 0. The cases are replayed twice: every setting given, and with each setting
 * that equals common_params_sampling's default (as llama-completion 0.7.0
 * prints it, llamacpp_defaults.txt) left unset, for samplab's defaults to fill.
 * A second data set, data/golden/llamacpp_0.4.0/llamacpp_chain.txt, is the same
 * program through node-llama-cpp 3.21.1's own libllama v0.4.0, replayed with
 * --llamacpp 0.4.0. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>

#include "golden_gen.h"
#include "helpers.h"
#include "samplab.h"

/* llamacpp_chain.c's gen_logits (analysis/golden/rand_golden's generator) */
static void lc_gen(uint64_t seed, size_t n, float *x)
{
    gg_fill_logits(seed, n, x);
}

typedef struct {
    char name[32];
    size_t V;
    uint64_t gseed;
    float *x;
} lc_vec;

typedef struct {
    double temp, top_p, min_p, typical, repeat, freq, present;
    long top_k, last_n, min_keep;
    uint32_t seed;
    int accept, steps, perstep;
    int unset_defaults;       /* leave unset each setting equal to llama.cpp's default */
    lc_vec *v;
} lc_case;

static double kv(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    cr_assert_not_null(p, "no %s in '%s'", key, line);
    return strtod(p + strlen(key), NULL);
}

typedef struct {
    size_t cases, steps, tok_match, tok_differ, ncand_match, ncand_differ, word_match, word_differ, cases_ok,
        one_cand_steps, cases_with_one_cand, negative_last_n, skip_rule_token_cases, unset, all_unset;
} lc_score;

/* The case's settings as the framework takes them; returns how many were left
 * unset (c->unset_defaults: those equal to common_params_sampling's 0.7.0
 * defaults, compared as the float the case printed). */
static int lc_cfg(const lc_case *c, sl_logits_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    const struct {
        sl_logits_key k;
        double v, dflt;
    } s[] = {
        {SL_KEY_TEMPERATURE, c->temp, 0.8}, {SL_KEY_TOP_K, (double)c->top_k, 40}, {SL_KEY_TOP_P, c->top_p, 0.95},
        {SL_KEY_MIN_P, c->min_p, 0.05}, {SL_KEY_TYPICAL, c->typical, 1.0}, {SL_KEY_PENALTY, c->repeat, 1.0},
        {SL_KEY_FREQ, c->freq, 0}, {SL_KEY_PRESENCE, c->present, 0},
        {SL_KEY_LAST_N, c->last_n < 0 ? 0 : (double)c->last_n, 64}, {SL_KEY_MIN_KEEP, (double)c->min_keep, 0},
    };
    int unset = 0;
    for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
        if (c->unset_defaults && (float)s[i].v == (float)s[i].dflt) {
            unset++;
            continue;
        }
        sl_logits_cfg_set(cfg, s[i].k, s[i].v);
    }
    return unset;
}

/* one step by hand: the chain, then greedy or dist; returns the token, sets the
 * candidate count and the words drawn (the framework's rule, skip_one, aside) */
static long lc_step(const lc_case *c, const float *x, const long *hist, size_t nh, sl_rng *rng, size_t *ncand,
                    uint64_t *words, int skip_one)
{
    sl_logits_cfg cfg;
    lc_cfg(c, &cfg);
    cfg.context = hist, cfg.context_n = nh;
    sl_logits_llama_array a;
    sl_error err;
    cr_assert_eq(sl_logits_llama_chain(x, c->v->V, &cfg, &a, NULL, &err), 0, "%s", err.msg);
    *ncand = a.size;
    long tok;
    uint64_t w0 = rng->words;
    if (c->temp <= 0.0) {
        size_t best = 0;
        for (size_t i = 1; i < a.size; i++)
            if (a.data[i].logit > a.data[best].logit)
                best = i;
        tok = a.data[best].id;
    } else {
        /* drawn even for one candidate, as 0.7.0 does (skip_one: the framework's rule) */
        double u = skip_one && a.size == 1 ? 0.0 : sl_rng_uniform_f64_stdcxx(rng, SL_STDCXX_REDRAW); /* Debian sid's GCC */
        tok = a.data[sl_logits_llama_dist(&a, u)].id;
    }
    *words = rng->words - w0;
    free(a.data);
    return tok;
}

/* One data set (path) through the release line that made it (variant; NULL: 0.7.0). */
static void replay_chain(lc_score *sc, int unset_defaults, const char *path, const char *variant)
{
    char *t = sl_test_slurp(path);
    cr_assert_not_null(t, "%s missing", path);
    static lc_vec vecs[16];
    size_t nv = 0;
    lc_case c;
    memset(&c, 0, sizeof c);
    long *tok = NULL;
    size_t *nc = NULL;
    uint64_t *wd = NULL;
    int ok_case = 1, have_case = 0, one_cand = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char kind[16], name[32];
        if (sscanf(line, "%15s", kind) != 1)
            continue;
        if (!strcmp(kind, "vec") || !strcmp(kind, "gen")) {
            cr_assert(nv < 16);
            lc_vec *v = &vecs[nv++];
            char *p = line + strlen(kind);
            int used;
            cr_assert_eq(sscanf(p, " %31s %zu%n", v->name, &v->V, &used), 2);
            p += used;
            v->x = malloc(v->V * sizeof *v->x);
            if (!strcmp(kind, "vec")) {
                for (size_t i = 0; i < v->V; i++)
                    v->x[i] = strtof(p, &p);
            } else {
                v->gseed = strtoull(p, &p, 10);
                lc_gen(v->gseed, v->V, v->x);
            }
        } else if (!strcmp(kind, "case")) {
            int id, perstep;
            cr_assert_eq(sscanf(line, "case %d %31s %d", &id, name, &perstep), 3);
            memset(&c, 0, sizeof c);
            for (size_t i = 0; i < nv; i++)
                if (!strcmp(vecs[i].name, name))
                    c.v = &vecs[i];
            cr_assert_not_null(c.v, "vector %s", name);
            c.perstep = perstep;
            c.unset_defaults = unset_defaults;
            c.seed = (uint32_t)kv(line, " seed=");
            c.temp = kv(line, " temp="), c.top_k = (long)kv(line, " top_k="), c.top_p = kv(line, " top_p=");
            c.min_p = kv(line, " min_p="), c.typical = kv(line, " typical="), c.last_n = (long)kv(line, " last_n=");
            c.repeat = kv(line, " repeat="), c.freq = kv(line, " freq="), c.present = kv(line, " present=");
            c.min_keep = (long)kv(line, " min_keep="), c.accept = (int)kv(line, " accept=");
            c.steps = (int)kv(line, " steps=");
            sc->negative_last_n += c.last_n < 0;
            free(tok), free(nc), free(wd);
            tok = malloc((size_t)c.steps * sizeof *tok);
            nc = malloc((size_t)c.steps * sizeof *nc);
            wd = malloc((size_t)c.steps * sizeof *wd);
            float *x = malloc(c.v->V * sizeof *x);
            sl_rng rng;
            sl_error err;
            sl_seed sd = {.lo = c.seed};
            /* the framework's session (llama.cpp 0.7.0, its default line): accept=1
             * cases accept each drawn token, as llama_sampler_sample does */
            sl_fw_opts o;
            memset(&o, 0, sizeof o);
            int unset = lc_cfg(&c, &o.cfg);
            sc->unset += (size_t)unset;
            sc->all_unset += unset == 10;
            o.has_seed = 1;
            o.seed.lo = c.seed;
            o.k = 1;
            o.variant = variant;
            sl_vec xv;
            cr_assert_eq(sl_base_vec_alloc(&xv, c.v->V, c.v->name, &err), 0);
            o.logits = &xv;
            sl_fw_session ss;
            cr_assert_eq(sl_fw_session_open(&ss, &sl_fw_llamacpp_type, &o, &err), 0, "%s", err.msg);
            one_cand = 0;
            for (int s = 0; s < c.steps; s++) {
                if (c.perstep)
                    lc_gen(c.v->gseed + (uint64_t)s, c.v->V, x);
                else
                    memcpy(x, c.v->x, c.v->V * sizeof *x);
                for (size_t i = 0; i < c.v->V; i++)
                    xv.d[i] = xv.f[i] = x[i];
                sl_fw_session_forget(&ss); /* the row's contents changed in place */
                sl_fw_step st;
                cr_assert_eq(sl_fw_session_step(&ss, &xv, &st, &err), 0, "%s", err.msg);
                tok[s] = st.tokens[0], nc[s] = st.kept, wd[s] = st.words;
                if (c.accept)
                    cr_assert_eq(sl_fw_session_accept(&ss, tok[s], &err), 0);
                if (nc[s] == 1 && c.temp > 0.0) {
                    sc->one_cand_steps++;
                    one_cand = 1;
                }
            }
            sl_fw_session_close(&ss);
            sl_base_vec_free(&xv);
            if (one_cand) { /* the same case without the draw for one candidate */
                long *tk2 = malloc((size_t)c.steps * sizeof *tk2);
                size_t n2;
                uint64_t w2;
                int differ = 0;
                cr_assert_eq(sl_rng_init(&rng, &sl_rng_mt19937_type, &sd, &err), 0, "%s", err.msg);
                for (int s = 0; s < c.steps; s++) {
                    if (c.perstep)
                        lc_gen(c.v->gseed + (uint64_t)s, c.v->V, x);
                    else
                        memcpy(x, c.v->x, c.v->V * sizeof *x);
                    tk2[s] = lc_step(&c, x, tk2, c.accept ? (size_t)s : 0, &rng, &n2, &w2, 1);
                    differ |= tk2[s] != tok[s];
                }
                sl_rng_release(&rng);
                sc->skip_rule_token_cases += differ;
                free(tk2);
            }
            free(x);
            have_case = 1;
            ok_case = 1;
            sc->cases++;
            sc->cases_with_one_cand += one_cand;
        } else if (!strcmp(kind, "tokens") || !strcmp(kind, "ncand") || !strcmp(kind, "words")) {
            cr_assert(have_case);
            char *p = line + strlen(kind);
            strtol(p, &p, 10); /* id */
            for (int s = 0; s < c.steps; s++) {
                while (*p == ' ')
                    p++;
                if (!strcmp(kind, "tokens")) {
                    int ok = strtol(p, &p, 10) == tok[s];
                    sc->tok_match += ok, sc->tok_differ += !ok, ok_case &= ok;
                    sc->steps++;
                } else if (!strcmp(kind, "ncand")) {
                    int ok = strtoul(p, &p, 10) == nc[s];
                    sc->ncand_match += ok, sc->ncand_differ += !ok, ok_case &= ok;
                } else {
                    int ok = *p == '-' ? (p++, wd[s] == 0) : strtoull(p, &p, 10) == wd[s];
                    sc->word_match += ok, sc->word_differ += !ok, ok_case &= ok;
                    sc->cases_ok += ok_case && s == c.steps - 1;
                    if (!ok_case && s == c.steps - 1 && sc->cases - sc->cases_ok <= 5)
                        cr_log_info("%s: %s differs", path, line);
                }
            }
        }
    }
    free(tok), free(nc), free(wd);
    for (size_t i = 0; i < nv; i++)
        free(vecs[i].x);
    free(t);
}

Test(replay_llamacpp_chain, chain_cases_replay)
{
    lc_score s = {0};
    replay_chain(&s, 0, "data/golden/current/llamacpp_chain.txt", NULL);
    cr_log_info("llama.cpp 0.7.0 chain: %zu cases, %zu equal in tokens, candidates and words; %zu steps: tokens %zu "
                "equal %zu differ, candidates %zu/%zu, words %zu/%zu",
                s.cases, s.cases_ok, s.steps, s.tok_match, s.tok_differ, s.ncand_match, s.ncand_differ, s.word_match,
                s.word_differ);
    cr_log_info("one-candidate dist steps %zu in %zu cases: each drew 2 words in llama.cpp; skipping those draws "
                "(llamacpp_fw_run's rule) changes the tokens of %zu cases; %zu cases have last_n < 0 (penalties off "
                "in libllama)",
                s.one_cand_steps, s.cases_with_one_cand, s.skip_rule_token_cases, s.negative_last_n);
    cr_assert(s.cases == 1536 && s.steps > 0, "%zu cases read: golden file changed?", s.cases);
    cr_assert_eq(s.cases_ok, s.cases, "%zu of %zu cases differ from llama.cpp 0.7.0", s.cases - s.cases_ok, s.cases);
}

/* The same cases with the settings equal to llama.cpp's defaults left unset:
 * samplab's llamacpp defaults must fill them as common_params_sampling does. */
Test(replay_llamacpp_chain, chain_cases_replay_defaults_unset)
{
    lc_score s = {0};
    replay_chain(&s, 1, "data/golden/current/llamacpp_chain.txt", NULL);
    cr_log_info("llama.cpp 0.7.0 chain, defaults left unset: %zu cases, %zu settings left unset (%zu cases with "
                "every setting unset), %zu cases equal in tokens, candidates and words; tokens %zu equal %zu differ",
                s.cases, s.unset, s.all_unset, s.cases_ok, s.tok_match, s.tok_differ);
    cr_assert(s.cases == 1536 && s.all_unset > 0 && s.unset > s.cases, "%zu cases, %zu unset", s.cases, s.unset);
    cr_assert_eq(s.cases_ok, s.cases, "%zu of %zu cases differ from llama.cpp 0.7.0", s.cases - s.cases_ok, s.cases);
    cr_assert_eq(s.tok_differ, 0);
}

/* v0.4.0 as node-llama-cpp 3.21.1 ships it (data/golden/llamacpp_0.4.0/, its own
 * prebuilt libllama.v0.4.0.so through the same program): --llamacpp 0.4.0. */
Test(replay_llamacpp_chain, chain_cases_replay_0_4_0)
{
    lc_score s = {0};
    replay_chain(&s, 0, "data/golden/llamacpp_0.4.0/llamacpp_chain.txt", "0.4.0");
    cr_log_info("llama.cpp v0.4.0 (node-llama-cpp 3.21.1) chain: %zu cases, %zu equal in tokens, candidates and "
                "words; %zu steps", s.cases, s.cases_ok, s.steps);
    cr_assert(s.cases == 1536 && s.steps > 0, "%zu cases read: golden file changed?", s.cases);
    cr_assert_eq(s.cases_ok, s.cases, "%zu of %zu cases differ from llama.cpp v0.4.0", s.cases - s.cases_ok, s.cases);
}

/* ---------------------------------------------------------------- the generation loop */

static float *lc_npy(const char *path, size_t *rows, size_t *cols)
{
    char *b = sl_test_slurp(path); /* binary: slurp reads bytes, NUL-terminates */
    cr_assert_not_null(b, "%s missing", path);
    cr_assert(!memcmp(b, "\x93NUMPY\x01\x00", 8), "%s: not a .npy v1", path);
    size_t hl = (size_t)(unsigned char)b[8] | (size_t)(unsigned char)b[9] << 8;
    cr_assert_not_null(strstr(b + 10, "'<f4'"), "%s: not float32", path);
    const char *sh = strstr(b + 10, "'shape': (");
    cr_assert_not_null(sh);
    cr_assert_eq(sscanf(sh, "'shape': (%zu, %zu)", rows, cols), 2);
    float *x = malloc(*rows * *cols * sizeof *x);
    memcpy(x, b + 10 + hl, *rows * *cols * sizeof *x);
    free(b);
    return x;
}

Test(replay_llamacpp_chain, generation_loop_replay)
{
    size_t R, V;
    float *lg = lc_npy("data/golden/current/llamacpp_generate_logits.npy", &R, &V);
    char *t = sl_test_slurp("data/golden/current/llamacpp_generate.txt");
    cr_assert_not_null(t);
    lc_case c;
    lc_vec v = {"model", V, 0, NULL};
    long prompt[64], hist[256];
    size_t np = 0, runs = 0, steps = 0, equal = 0;
    int accept_prompt = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "run ", 4)) {
            memset(&c, 0, sizeof c);
            c.v = &v;
            c.seed = (uint32_t)kv(line, " seed=");
            c.temp = kv(line, " temp="), c.top_k = (long)kv(line, " top_k="), c.top_p = kv(line, " top_p=");
            c.min_p = kv(line, " min_p="), c.typical = kv(line, " typical="), c.last_n = (long)kv(line, " last_n=");
            c.repeat = kv(line, " repeat="), c.freq = kv(line, " freq="), c.present = kv(line, " present=");
            c.min_keep = (long)kv(line, " min_keep="), c.accept = 1, c.steps = (int)kv(line, " steps=");
            accept_prompt = (int)kv(line, " accept_prompt=");
        } else if (!strncmp(line, "prompt ", 7)) {
            char *p = line + 7;
            strtol(p, &p, 10);
            for (np = 0; *p && np < 64; np++)
                prompt[np] = strtol(p, &p, 10);
        } else if (!strncmp(line, "tokens ", 7)) {
            char *p = line + 7;
            long r = strtol(p, &p, 10);
            size_t nh = 0;
            if (accept_prompt)
                for (size_t i = 0; i < np; i++)
                    hist[nh++] = prompt[i];
            sl_rng rng;
            sl_error err;
            sl_seed sd = {.lo = c.seed};
            cr_assert_eq(sl_rng_init(&rng, &sl_rng_mt19937_type, &sd, &err), 0, "%s", err.msg);
            int ok = 1;
            for (int s = 0; s < c.steps; s++) {
                const float *x = lg + ((size_t)r * (size_t)c.steps + (size_t)s) * V;
                size_t nc;
                uint64_t w;
                long want = strtol(p, &p, 10);
                long got = lc_step(&c, x, hist, nh, &rng, &nc, &w, 0);
                ok &= got == want;
                hist[nh++] = want;
                steps++;
            }
            sl_rng_release(&rng);
            runs++;
            equal += ok;
            if (!ok)
                cr_log_info("generation run %ld differs", r);
        }
    }
    cr_log_info("llama.cpp 0.7.0 generation loop: %zu of %zu runs (%zu steps) equal", equal, runs, steps);
    cr_assert(runs == 9 && R == 9 * 24, "%zu runs, %zu logit rows: golden files changed?", runs, R);
    cr_assert_eq(equal, runs);
    free(lg);
    free(t);
}

/* ---------------------------------------------------------------- the defaults llama-completion prints */

/* "name = value" in a params record */
static double lc_param(const char *params, const char *name)
{
    char key[48];
    snprintf(key, sizeof key, " %s = ", name);
    return kv(params, key);
}

/* whether the chain record marks stage `name` active (listed without '?') */
static int lc_active(const char *chain, const char *name)
{
    char key[48];
    snprintf(key, sizeof key, "> %s ", name);
    char line[1024];
    snprintf(line, sizeof line, "%s ", chain);
    return strstr(line, key) != NULL;
}

/* data/golden/current/llamacpp_defaults.txt (analysis/golden/current/llamacpp_defaults.sh):
 * for the defaults and each way of turning a stage off, llama-completion 0.7.0's
 * printed sampler params equal samplab's settings in force for the same options
 * (its %.3f), and the stages its chain marks active are the steps samplab's
 * llamacpp pipeline runs (weather logits, a context for the penalties). */
Test(replay_llamacpp_chain, defaults_as_llama_completion_prints)
{
    char *t = sl_test_slurp("data/golden/current/llamacpp_defaults.txt");
    cr_assert_not_null(t, "llamacpp_defaults.txt missing");
    static const float weather[8] = {4.0f, 3.3f, 2.9f, 1.2f, 0.4f, -0.3f, -1.0f, -2.2f};
    static const long ctx[] = {0, 1, 0};
    sl_vec v;
    sl_error err;
    cr_assert_eq(sl_base_vec_alloc(&v, 8, "weather", &err), 0);
    for (size_t i = 0; i < 8; i++)
        v.d[i] = v.f[i] = weather[i];
    sl_logits_cfg cfg;
    char args[256] = "", params[2048] = "";
    size_t sets = 0, checks = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "args", 4)) {
            snprintf(args, sizeof args, "%s", line + 4);
            memset(&cfg, 0, sizeof cfg);
            static const struct { const char *opt; sl_logits_key k; } opts[] = {
                {"--top-k", SL_KEY_TOP_K}, {"--top-p", SL_KEY_TOP_P}, {"--min-p", SL_KEY_MIN_P},
                {"--temp", SL_KEY_TEMPERATURE}, {"--repeat-penalty", SL_KEY_PENALTY}};
            for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
                char key[32];
                snprintf(key, sizeof key, "%s ", opts[i].opt);
                const char *p = strstr(args, key);
                if (p)
                    sl_logits_cfg_set(&cfg, opts[i].k, strtod(p + strlen(key), NULL));
            }
        } else if (!strncmp(line, "params ", 7)) {
            snprintf(params, sizeof params, "%s", line + 6);
        } else if (!strncmp(line, "chain ", 6)) {
            sl_logits_cfg in = cfg;
            sl_logits_cfg_resolve(&sl_logits_pipeline_llamacpp_type, &in, NULL);
            const struct { const char *name; double mine; } p[] = {
                {"top_k", (double)in.top_k}, {"top_p", in.top_p}, {"min_p", in.min_p}, {"typical_p", in.typical},
                {"temp", in.temperature}, {"repeat_last_n", (double)in.last_n}, {"repeat_penalty", in.penalty},
                {"frequency_penalty", in.freq}, {"presence_penalty", in.presence}};
            for (size_t i = 0; i < sizeof p / sizeof *p; i++, checks++) {
                char a[32], b[32];
                snprintf(a, sizeof a, "%.3f", lc_param(params, p[i].name));
                snprintf(b, sizeof b, "%.3f", p[i].mine);
                cr_expect_str_eq(a, b, "args '%s': %s is %s in llama-completion, %s in samplab", args, p[i].name, a, b);
            }
            cfg.context = ctx;
            cfg.context_n = sizeof ctx / sizeof *ctx;
            sl_logits_result r;
            cr_assert_eq(sl_logits_pipeline_run(&sl_logits_pipeline_llamacpp_type, &v, &cfg, &r, &err), 0, "%s",
                         err.msg);
            static const char *const stages[][2] = {{"penalties", "penalties"}, {"top-k", "top-k"},
                                                    {"typical", "typical"}, {"top-p", "top-p"},
                                                    {"min-p", "min-p"}, {"temp-ext", "temp"}};
            for (size_t i = 0; i < sizeof stages / sizeof *stages; i++, checks++) {
                int ran = 0;
                for (size_t j = 0; j < r.n_steps; j++)
                    ran |= !strncmp(r.steps[j], stages[i][1], strlen(stages[i][1]));
                cr_expect_eq(ran, lc_active(line, stages[i][0]), "args '%s': %s %s in llama.cpp, %s in samplab",
                             args, stages[i][0], lc_active(line, stages[i][0]) ? "active" : "off",
                             ran ? "ran" : "did not run");
            }
            sl_logits_result_free(&r);
            sets++;
        }
    }
    cr_log_info("llamacpp_defaults.txt: %zu option sets, %zu checks against llama-completion 0.7.0's sampler lines",
                sets, checks);
    cr_assert_geq(sets, 8);
    sl_base_vec_free(&v);
    free(t);
}
