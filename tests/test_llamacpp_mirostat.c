/* test_llamacpp_mirostat.c — llama.cpp's selecting samplers (mirostat,
 * mirostat v2, adaptive_p) against libllama 0.7.0 itself.
 *
 * What it proves, against what:
 *   - every case of data/golden/current/llamacpp_mirostat.txt (libllama 0.7.0's
 *     C API: temp then mirostat / mirostat v2, or a chain ending in adaptive_p,
 *     over 100-step generations on given logits with each drawn token
 *     accepted, as llama_sampler_sample does; V from 1 to 151,936, ties, -inf,
 *     defaults and edge values of tau, eta, target, decay, temp) replays
 *     through a llamacpp session with the same token and candidate count at
 *     every step, and the words libstdc++'s std::discrete_distribution spends
 *     (2 a draw, none for one candidate);
 *   - through the command line: `replay` gives the tokens and `check --seed`
 *     finds no divergence; with mu's update broken (--mirostat-lr 0: mu frozen
 *     at 2 tau; or mu updated from tau off by one) check finds one, so the check
 *     has power; adaptive_p's moving average likewise (--adaptive-decay 0);
 *   - the refusals (mirostat with a stage it replaces, the mirostat and
 *     adaptive options without their sampler) are one line, exit 2;
 *   - a chain's clone carries mu and the moving average.
 * Record format: analysis/golden/current/llamacpp_mirostat.c. */
#include <criterion/criterion.h>
#include <math.h>

#include "golden_gen.h"
#include "helpers.h"
#include "samplab.h"

#define STEPS 100

typedef struct {
    char mode[4], chain[12];
    long V;
    uint32_t seed;
    double temp, tau, eta, target, decay, scale;
    uint64_t vseed;
    int ties, ninf;
} mc;

static double kv(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    cr_assert_not_null(p, "no %s in '%.80s'", key, line);
    return strtod(p + strlen(key), NULL);
}

static void mc_read(const char *line, mc *c)
{
    memset(c, 0, sizeof *c);
    cr_assert_eq(sscanf(strstr(line, " mode="), " mode=%3s", c->mode), 1);
    cr_assert_eq(sscanf(strstr(line, " chain="), " chain=%11s", c->chain), 1);
    c->V = (long)kv(line, " V="), c->seed = (uint32_t)kv(line, " seed="), c->temp = kv(line, " temp=");
    c->tau = kv(line, " tau="), c->eta = kv(line, " eta="), c->target = kv(line, " target=");
    c->decay = kv(line, " decay="), c->scale = kv(line, " scale="), c->vseed = (uint64_t)kv(line, " vseed=");
    c->ties = (int)kv(line, " ties="), c->ninf = (int)kv(line, " ninf=");
}

/* llamacpp_mirostat.c's fill: step t's logits */
static void mc_fill(const mc *c, int t, float *x)
{
    gg_fill_logits(c->vseed + (uint64_t)t, (size_t)c->V, x);
    for (long i = 0; i < c->V; i++) {
        x[i] *= (float)c->scale;
        if (c->ties)
            x[i] = roundf(x[i]);
        if (c->ninf && i % 7 == 3)
            x[i] = -INFINITY;
    }
}

/* The settings as the golden program built its chain (temperatures and the rest as floats there). */
static void mc_cfg(const mc *c, sl_logits_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->has_temperature = 1, cfg->temperature = c->temp;
    if (c->mode[0] == 'm') {
        cfg->has_mirostat = 1, cfg->mirostat = c->mode[1] - '0';
        cfg->has_mirostat_tau = 1, cfg->mirostat_tau = c->tau;
        cfg->has_mirostat_eta = 1, cfg->mirostat_eta = c->eta;
        return;
    }
    cfg->has_adaptive_target = 1, cfg->adaptive_target = c->target;
    cfg->has_adaptive_decay = 1, cfg->adaptive_decay = c->decay;
    const char *order = !strcmp(c->chain, "default") ? "top_k;typ_p;top_p;min_p;temperature;adaptive_p"
                        : !strcmp(c->chain, "temp")  ? "temperature;adaptive_p"
                                                     : "adaptive_p";
    cfg->has_top_k = 1, cfg->top_k = 40, cfg->has_typical = 1, cfg->typical = 1.0;
    cfg->has_top_p = 1, cfg->top_p = 0.95, cfg->has_min_p = 1, cfg->min_p = 0.05;
    sl_error err;
    cr_assert_eq(sl_logits_llama_order_parse(order, 0, cfg, &err), 0, "%s", err.msg);
}

/* The command-line settings of a case (for replay and check). */
static void mc_args(const mc *c, char *buf, size_t len)
{
    if (c->mode[0] == 'm')
        snprintf(buf, len, "--seed %u --temperature %.9g --mirostat %c --mirostat-ent %.9g --mirostat-lr %.9g",
                 c->seed, c->temp, c->mode[1], c->tau, c->eta);
    else if (!strcmp(c->chain, "default"))
        snprintf(buf, len,
                 "--seed %u --temperature %.9g --top-k 40 --typical 1 --top-p 0.95 --min-p 0.05 --samplers "
                 "'top_k;typ_p;top_p;min_p;temperature;adaptive_p' --adaptive-target %.9g --adaptive-decay %.9g",
                 c->seed, c->temp, c->target, c->decay);
    else
        snprintf(buf, len, "--seed %u --temperature %.9g --samplers '%s' --adaptive-target %.9g --adaptive-decay %.9g",
                 c->seed, c->temp, !strcmp(c->chain, "temp") ? "temperature;adaptive_p" : "adaptive_p", c->target,
                 c->decay);
}

static char *golden(void)
{
    char *t = sl_test_slurp("data/golden/current/llamacpp_mirostat.txt");
    cr_assert_not_null(t, "data/golden/current/llamacpp_mirostat.txt is missing");
    cr_assert(strstr(t, "libllama 0.7.0"), "not libllama 0.7.0's output");
    return t;
}

static const char *rec(const char *text, const char *key, int id)
{
    const char *p = sl_test_rec(text, key, id);
    cr_assert_not_null(p, "no '%s %d' record", key, id);
    return strchr(strchr(p, ' ') + 1, ' ') + 1;
}

typedef struct {
    size_t cases, steps, tok_differ, n_differ, word_differ, cases_ok;
} score;

/* A case through a session; *toks gets its tokens (STEPS). */
static void mc_replay(const mc *c, const char *toks, const char *ns, score *sc, long *out, int quiet)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    mc_cfg(c, &o.cfg);
    o.has_seed = 1, o.seed.lo = c->seed, o.k = 1;
    sl_vec xv;
    sl_error err;
    cr_assert_eq(sl_base_vec_alloc(&xv, (size_t)c->V, "mirostat", &err), 0);
    o.logits = &xv;
    sl_fw_session ss;
    cr_assert_eq(sl_fw_session_open(&ss, &sl_fw_llamacpp_type, &o, &err), 0, "%s", err.msg);
    char *tp = (char *)toks, *np = (char *)ns;
    int ok = 1;
    for (int t = 0; t < STEPS; t++) {
        mc_fill(c, t, xv.f);
        for (long i = 0; i < c->V; i++)
            xv.d[i] = xv.f[i];
        sl_fw_session_forget(&ss);
        sl_fw_step st;
        cr_assert_eq(sl_fw_session_step(&ss, &xv, &st, &err), 0, "%s", err.msg);
        long wt = strtol(tp, &tp, 10);
        size_t wn = strtoul(np, &np, 10);
        int dt = st.tokens[0] != wt, dn = st.kept != wn, dw = st.words != (wn > 1 ? 2u : 0u);
        if ((dt || dn || dw) && ok && !quiet)
            cr_log_info("%s V=%ld seed=%u step %d: token %ld/%ld n %zu/%zu words %llu", c->mode, c->V, c->seed, t,
                        st.tokens[0], wt, st.kept, wn, (unsigned long long)st.words);
        ok &= !(dt || dn || dw);
        sc->tok_differ += dt, sc->n_differ += dn, sc->word_differ += dw;
        if (out)
            out[t] = st.tokens[0];
        cr_assert_eq(sl_fw_session_accept(&ss, wt, &err), 0);
        sc->steps++;
    }
    sl_fw_session_close(&ss);
    sl_base_vec_free(&xv);
    sc->cases++;
    sc->cases_ok += ok;
}

Test(llamacpp_mirostat, golden_generations)
{
    char *t = golden();
    score sc = {0};
    size_t by_mode[3] = {0};
    for (int id = 0; sl_test_rec(t, "case", id); id++) {
        mc c;
        mc_read(sl_test_rec(t, "case", id), &c);
        mc_replay(&c, rec(t, "tokens", id), rec(t, "n", id), &sc, NULL, 0);
        by_mode[c.mode[0] == 'a' ? 2 : c.mode[1] - '1']++;
    }
    cr_log_info("libllama 0.7.0: %zu generations (mirostat %zu, v2 %zu, adaptive_p %zu), %zu steps; differing steps: "
                "tokens %zu, candidates %zu, words %zu",
                sc.cases, by_mode[0], by_mode[1], by_mode[2], sc.steps, sc.tok_differ, sc.n_differ, sc.word_differ);
    cr_assert_geq(sc.cases, 100);
    cr_assert(by_mode[0] && by_mode[1] && by_mode[2]);
    cr_assert_eq(sc.cases_ok, sc.cases, "%zu of %zu generations differ", sc.cases - sc.cases_ok, sc.cases);
    free(t);
}

/* A case's logits as an .npy of [STEPS, V]. */
static char *mc_npy(const mc *c)
{
    float *x = malloc((size_t)STEPS * (size_t)c->V * sizeof *x);
    cr_assert(x);
    for (int s = 0; s < STEPS; s++)
        mc_fill(c, s, x + (size_t)s * (size_t)c->V);
    char *p = sl_test_npy_f32(x, STEPS, (size_t)c->V);
    free(x);
    cr_assert(p);
    return p;
}

static void commas(const char *ids, char *buf, size_t len)
{
    size_t k = 0;
    for (char *e; k + 12 < len; ids = e) {
        long v = strtol(ids, &e, 10);
        if (e == ids)
            break;
        k += (size_t)snprintf(buf + k, len - k, "%s%ld", k ? "," : "", v);
    }
}

/* check on TOKENS with SET: 1 when it finds a divergence (exit 1 or a first_divergence) */
static int check_diverges(const char *npy, const char *set, const char *tokens)
{
    char args[4096];
    snprintf(args, sizeof args, "check --framework llamacpp --logits %s %s --tokens %s --json", npy, set, tokens);
    sl_test_run r = sl_test_cli(args);
    int d = r.status != 2 && !strstr(r.out, "\"first_divergence\":null");
    cr_assert_neq(r.status, 2, "%s: %s", args, r.err);
    sl_test_run_free(&r);
    return d;
}

Test(llamacpp_mirostat, replay_and_check_cli)
{
    char *t = golden();
    size_t n = 0, tok_ok = 0, seeded_ok = 0, broken = 0, found = 0;
    for (int id = 0; sl_test_rec(t, "case", id); id++) {
        mc c;
        mc_read(sl_test_rec(t, "case", id), &c);
        if (c.V < 5 || c.V > 1000 || id % 2) /* every other case of V 5 .. 1000: the CLI is slow under ASan */
            continue;
        char set[512], tokens[1400], args[4096], want[1500];
        mc_args(&c, set, sizeof set);
        commas(rec(t, "tokens", id), tokens, sizeof tokens);
        char *npy = mc_npy(&c);
        snprintf(args, sizeof args, "replay --framework llamacpp --logits %s %s --json", npy, set);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        snprintf(want, sizeof want, "\"tokens\":[%s]", tokens);
        n++;
        tok_ok += strstr(r.out, want) != NULL;
        if (!strstr(r.out, want))
            cr_log_info("case %d: replay gives %.300s", id, r.out);
        sl_test_run_free(&r);
        seeded_ok += (size_t)sl_test_check_seeded(args, tokens);
        /* the same log checked with the state's update broken: mu frozen (eta 0) or from another tau; the
         * moving average without memory (decay 0) or another target */
        mc b = c;
        if (c.mode[0] == 'm') {
            if (c.eta == 0.0)
                b.tau = c.tau + 1.0;
            else
                b.eta = 0.0;
        } else if (c.target >= 0.0 && c.target < 1.0) {
            b.decay = c.decay == 0.0 ? 0.9 : 0.0;
        } else {
            b.target = -1.0, b.decay = 0.9; /* a plain draw (or target >= 1): only another target differs */
            if (c.target < 0.0)
                b.target = 0.5;
        }
        char bset[512];
        mc_args(&b, bset, sizeof bset);
        /* a broken update need not change a token (one candidate, mu never binding): count where it does in
         * samplab's own session, then demand check sees exactly those */
        score s2 = {0};
        long bt[STEPS];
        mc_replay(&b, rec(t, "tokens", id), rec(t, "n", id), &s2, bt, 1);
        if (s2.tok_differ) {
            broken++;
            found += (size_t)check_diverges(npy, bset, tokens);
        }
        unlink(npy);
        free(npy);
    }
    cr_log_info("CLI: %zu generations, replay tokens equal in %zu, check --seed without divergence in %zu; broken "
                "update: %zu logs it changes, check finds a divergence in %zu",
                n, tok_ok, seeded_ok, broken, found);
    cr_assert_geq(n, 20);
    cr_assert_eq(tok_ok, n);
    cr_assert_eq(seeded_ok, n);
    cr_assert_geq(broken, 10);
    cr_assert_eq(found, broken);
    free(t);
}

Test(llamacpp_mirostat, refusals_one_line)
{
    static const char *const bad[][2] = {
        {"--mirostat 2 --top-k 40", "--top-k with --mirostat 2: llama.cpp ignores it"},
        {"--mirostat 1 --samplers top_k", "--samplers with --mirostat 1: llama.cpp ignores it"},
        {"--mirostat 2 --repetition-penalty 1.1 --context 1", "--repetition-penalty with --mirostat 2"},
        {"--mirostat 2 --adaptive-target 0.5", "--adaptive-target with --mirostat 2"},
        {"--mirostat 1 --xtc-probability 0.5", "--xtc-probability with --mirostat 1: llama.cpp ignores it"},
        {"--mirostat 2 --dynatemp-range 0.5", "--dynatemp-range with --mirostat 2: llama.cpp ignores it"},
        {"--mirostat 2 --top-nsigma 1", "--top-nsigma with --mirostat 2"},
        {"--mirostat 3", "--mirostat 3: llama.cpp takes 0, 1 or 2"},
        {"--mirostat-ent 3", "--mirostat-ent without --mirostat 1|2: llama.cpp ignores it"},
        {"--mirostat 0 --mirostat-lr 0.2", "--mirostat-lr without --mirostat 1|2"},
        {"--adaptive-target 0.5", "--adaptive-target without adaptive_p in --samplers"},
        {"--samplers top_k --adaptive-decay 0.5", "--adaptive-decay without adaptive_p"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char args[512];
        snprintf(args, sizeof args, "draw --framework llamacpp --logits 3,2,1,0 --seed 1 %s", bad[i][0]);
        sl_test_run r = sl_test_cli(args);
        cr_expect_eq(r.status, 2, "%s: exit %d", args, r.status);
        cr_expect(strstr(r.err, bad[i][1]) && sl_test_lines(r.err) == 1, "%s: %s", args, r.err);
        sl_test_run_free(&r);
    }
    /* accepted: --mirostat with the settings it reads left unset (llama.cpp's defaults) */
    sl_test_run r = sl_test_cli("draw --framework llamacpp --logits 3,2,1,0 --seed 1 --mirostat 2 --n 3");
    cr_expect_eq(r.status, 0, "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("pipeline --framework llamacpp --logits 3,2,1,0 --mirostat 2");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "not modelled by samplab") && sl_test_lines(r.err) == 1, "%s", r.err);
    sl_test_run_free(&r);
}

/* common_sampler_init puts adaptive_p last wherever it is named; clone carries mu and the average. */
Test(llamacpp_mirostat, chain_rules_and_clone)
{
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    sl_error err;
    cr_assert_eq(sl_logits_llama_order_parse("top_k;adaptive_p;top_p;adaptive_p", 0, &cfg, &err), 0, "%s", err.msg);
    sl_logits_chain *c;
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &c, &err), 0, "%s", err.msg);
    cr_expect_eq(sl_logits_chain_n(c), 3); /* top-k, top-p, adaptive-p (libllama: llamacpp_mirostat.txt header) */
    cr_expect_eq(sl_logits_chain_stage(c, 2), &sl_logits_stage_adaptive_p);
    cr_expect(sl_logits_chain_selects(c));
    sl_logits_chain_free(c);
    memset(&cfg, 0, sizeof cfg);
    cfg.has_order = 1, cfg.n_order = 1, cfg.order[0] = &sl_logits_stage_top_k; /* ignored under mirostat */
    cfg.has_mirostat = 1, cfg.mirostat = 2;
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &c, &err), 0, "%s", err.msg);
    cr_expect_eq(sl_logits_chain_n(c), 2);
    cr_expect_str_eq(sl_logits_chain_stage(c, 0)->label, "temp");
    cr_expect_str_eq(sl_logits_chain_stage(c, 1)->label, "mirostat-v2");
    /* one draw moves mu; a clone then cuts as the original does, a fresh chain (mu = 2 tau) does not */
    float x[64];
    gg_fill_logits(7, 64, x);
    sl_rng r;
    sl_seed sd = {0};
    sd.lo = 5;
    cr_assert_eq(sl_rng_init(&r, sl_rng_lookup("mt19937"), &sd, &err), 0, "%s", err.msg);
    sl_logits_llama_array a;
    size_t idx, n_after[3];
    for (int k = 0; k < 6; k++) {
        cr_assert_eq(sl_logits_chain_run(c, x, 64, &a, NULL, &err), 0);
        cr_assert_eq(sl_logits_chain_select(c, &a, &r, &idx, &err), 0);
        free(a.data);
    }
    sl_logits_chain *d, *fresh;
    cr_assert_eq(sl_logits_chain_clone(c, &d, &err), 0);
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &fresh, &err), 0);
    sl_logits_chain *all[3] = {c, d, fresh};
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(sl_logits_chain_run(all[k], x, 64, &a, NULL, &err), 0);
        cr_assert_eq(sl_logits_chain_select(all[k], &a, NULL, &idx, &err), 0);
        n_after[k] = a.size;
        free(a.data);
    }
    cr_expect_eq(n_after[0], n_after[1]);
    cr_expect_neq(n_after[0], n_after[2], "mu after six draws cuts as at 2 tau: the test has no power");
    sl_logits_chain_reset(d); /* reset: mu back to 2 tau */
    cr_assert_eq(sl_logits_chain_run(d, x, 64, &a, NULL, &err), 0);
    cr_assert_eq(sl_logits_chain_select(d, &a, NULL, &idx, &err), 0);
    cr_expect_eq(a.size, n_after[2]);
    free(a.data);
    sl_logits_chain_free(c);
    sl_logits_chain_free(d);
    sl_logits_chain_free(fresh);
    sl_rng_release(&r);
}

static size_t need_fixed(const float *p, size_t n, void *ctx)
{
    (void)p, (void)n;
    return *(const size_t *)ctx;
}

/* sl_logits_llama_softmax_top (mirostat's sorted softmax that sorts only the buckets it needs)
 * leaves the top n exactly as the full sort (sl_logits_llama_softmax, checked against libllama
 * above) does: ids, logit and p bits, for unique logits (one bucket selected by a heap) and for
 * ties, -0.0 / 0.0, -inf and logits piled into the top and bottom buckets (each bucket sorted
 * as libstdc++ sorts it, the lowest heap-sorted). */
Test(llamacpp_mirostat, softmax_top_is_the_full_sort)
{
    static const size_t Vs[] = {129, 300, 5000, 151936};
    sl_error err;
    size_t cases = 0, differ = 0;
    for (size_t vi = 0; vi < sizeof Vs / sizeof *Vs; vi++) {
        size_t V = Vs[vi];
        float *x = malloc(V * sizeof *x);
        sl_logits_cand *c1 = malloc(V * sizeof *c1), *c2 = malloc(V * sizeof *c2);
        cr_assert(x && c1 && c2);
        for (int kind = 0; kind < 5; kind++) {
            gg_fill_logits(77 + (uint64_t)kind, V, x);
            for (size_t i = 0; i < V; i++) {
                if (kind == 1)
                    x[i] = roundf(x[i]); /* many ties */
                else if (kind == 2 && i % 7 == 3)
                    x[i] = -INFINITY;
                else if (kind == 3)
                    x[i] = i % 5 == 0 ? (i % 10 ? 0.0f : -0.0f) : x[i] * 3.0f; /* signed zeros; full end buckets */
                else if (kind == 4)
                    x[i] = x[i] * 0.05f + 9.9f; /* nearly all in the top bucket */
            }
            const size_t ns[] = {1, 2, 37, 128, 1000, V / 2, V - 1, V};
            for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
                size_t n = ns[k] > V ? V : ns[k];
                for (size_t i = 0; i < V; i++)
                    c1[i] = c2[i] = (sl_logits_cand){(long)i, x[i] / 0.8f, 0.0f};
                sl_logits_llama_array full = {c1, V, 0}, top = {c2, V, 0};
                cr_assert_eq(sl_logits_llama_softmax(&full, 1, &err), 0);
                cr_assert_eq(sl_logits_llama_softmax_top(&top, need_fixed, &n, &err), 0);
                cr_assert_eq(top.size, n);
                cr_assert(top.sorted);
                int bad = 0;
                for (size_t i = 0; i < n; i++)
                    bad |= c1[i].id != c2[i].id || memcmp(&c1[i].logit, &c2[i].logit, sizeof(float)) ||
                           memcmp(&c1[i].p, &c2[i].p, sizeof(float));
                if (bad)
                    cr_log_info("V %zu kind %d n %zu: the top differs from the full sort", V, kind, n);
                differ += (size_t)bad;
                cases++;
            }
        }
        free(x);
        free(c1);
        free(c2);
    }
    cr_assert_eq(differ, 0, "%zu of %zu cases differ", differ, cases);
}
