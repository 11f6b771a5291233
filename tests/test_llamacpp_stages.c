/* test_llamacpp_stages.c — llama.cpp's xtc, top_n_sigma, temp_ext (dynamic
 * temperature) and logit_bias stages against libllama itself, two data sets:
 * Debian sid's 0.7.0 and v0.4.0 as node-llama-cpp 3.21.1 ships it
 * (data/golden/llamacpp_0.4.0/, analysis/golden/llamacpp_0.4.0/golden.sh).
 *
 * What it proves, against what:
 *   - every case of data/golden/current/llamacpp_stages.txt (libllama's C API,
 *     analysis/golden/current/llamacpp_stages.c: each stage alone, in orders,
 *     with the default chain, many XTC seeds and probabilities, V from 1 to
 *     151,936, a -inf and a tie in every vector, biases of +-inf and ids >= V)
 *     replays through a llamacpp session with the same token and kept set
 *     (count and hash of the ids above -inf) at every step, each token accepted;
 *   - XTC's draws, read from its decisions: no draw on fewer than two
 *     candidates nor for the empty ?xtc (p <= 0, t > 0.5), one when it then
 *     removes nothing, and what libstdc++ does with a float that rounds to 1
 *     (three seeds whose stream holds a word >= 0xFFFFFF80): drawn again by
 *     sid's build (GCC >= 15), kept below 1 by node-llama-cpp's (GCC 11.4); the
 *     two rules tell the files apart;
 *   - the command line: draw --xtc-probability / --top-nsigma / --dynatemp-range
 *     give the golden first token; XTC without a seed is refused, exit 2;
 *   - llama.cpp's own tests/test-sampling.cpp cases for these stages. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <inttypes.h>
#include <math.h>

#include "golden_gen.h"
#include "helpers.h"
#include "samplab.h"

/* gen_logits of llamacpp_probe.h, then the golden program's -inf at 3 and tie 5 = 4 */
static void st_gen(uint64_t seed, size_t n, float *x)
{
    gg_fill_logits(seed, n, x);
    if (n > 7)
        x[3] = -INFINITY, x[5] = x[4];
}

static void st_kept(const sl_logits_cand *d, size_t n, char *out, size_t cap)
{
    cr_assert(gg_kept_of_cands(d, n, out, cap), "out of memory");
}

typedef struct {
    int id, steps, min_keep, top_k;
    size_t V;
    uint64_t vseed;
    unsigned seed;
    char order[256], bias[256];
    float temp, dyn, dexp, xp, xt, nsigma, top_p, min_p;
    long bt[16];
    float bb[16];
} st_case;

static void st_cfg(st_case *c, sl_logits_cfg *g)
{
    memset(g, 0, sizeof *g);
    g->has_temperature = 1, g->temperature = c->temp;
    g->has_top_k = 1, g->top_k = c->top_k;
    g->has_top_p = 1, g->top_p = c->top_p;
    g->has_min_p = 1, g->min_p = c->min_p;
    g->has_typical = 1, g->typical = 1.0;
    g->has_penalty = 1, g->penalty = 1.0;
    g->has_last_n = 1, g->last_n = 64;
    g->has_min_keep = 1, g->min_keep = c->min_keep;
    g->has_xtc_p = 1, g->xtc_p = c->xp;
    g->has_xtc_t = 1, g->xtc_t = c->xt;
    g->has_nsigma = 1, g->nsigma = c->nsigma;
    g->has_dyn_range = 1, g->dyn_range = c->dyn;
    g->has_dyn_exp = 1, g->dyn_exp = c->dexp;
    size_t nb = 0;
    for (char *p = strcmp(c->bias, "-") ? c->bias : ""; *p && nb < 16;) {
        char *e;
        c->bt[nb] = strtol(p, &e, 10);
        c->bb[nb] = strtof(e + 1, &e); /* "inf", "-inf" as strtof reads them */
        nb++;
        p = *e == ',' ? e + 1 : e;
    }
    g->n_bias = nb, g->bias_token = c->bt, g->bias = c->bb;
    int none = !strcmp(c->order, "-");
    sl_error err;
    cr_assert_eq(sl_logits_llama_order_parse(none ? "" : c->order, none, g, &err), 0, "%s", err.msg);
}

static int st_parse(const char *line, st_case *c)
{
    return sscanf(line, "case %d %zu %" SCNu64 " %u %d %255s %f %f %f %f %f %d %f %d %f %f %255s", &c->id, &c->V,
                  &c->vseed, &c->seed, &c->steps, c->order, &c->temp, &c->dyn, &c->dexp, &c->xp, &c->xt,
                  &c->min_keep, &c->nsigma, &c->top_k, &c->top_p, &c->min_p, c->bias) == 17;
}

#define ST_SID "data/golden/current/llamacpp_stages.txt"
#define ST_040 "data/golden/llamacpp_0.4.0/llamacpp_stages.txt"

static char *st_golden_of(const char *path)
{
    char *t = sl_test_slurp(path);
    cr_assert(t, "%s missing", path);
    return t;
}

static char *st_golden(void)
{
    return st_golden_of(ST_SID);
}

/* Every case of one data set through the release line that made it. */
static void replay_cases(const char *path, const char *variant, sl_rng_stdcxx rule)
{
    char *text = st_golden_of(path);
    size_t cases = 0, bad = 0, steps = 0, tokd = 0, keptd = 0, xtc_cases = 0;
    float *x = malloc(151936 * sizeof *x);
    cr_assert(x);
    for (char *line = strstr(text, "\ncase "); line; line = strstr(line + 1, "\ncase ")) {
        st_case c;
        cr_assert(st_parse(line + 1, &c), "bad record near %.40s", line + 1);
        char *tl = strstr(line + 1, "\ntok") + 4, *kl = strstr(line + 1, "\nkept") + 5;
        sl_fw_opts o;
        memset(&o, 0, sizeof o);
        st_cfg(&c, &o.cfg);
        xtc_cases += strstr(c.order, "xtc") && c.xp > 0 && c.xt <= 0.5f;
        o.has_seed = 1, o.seed.lo = c.seed, o.k = 1;
        o.variant = variant;
        sl_vec xv;
        sl_error err;
        cr_assert_eq(sl_base_vec_alloc(&xv, c.V, "stages", &err), 0);
        o.logits = &xv;
        sl_fw_session ss;
        cr_assert_eq(sl_fw_session_open(&ss, &sl_fw_llamacpp_type, &o, &err), 0, "case %d: %s", c.id, err.msg);
        sl_logits_chain *ch; /* a twin chain for the kept sets */
        sl_logits_cfg g = o.cfg;
        g.has_seed = 1, g.seed = c.seed, g.stdcxx = rule;
        cr_assert_eq(sl_logits_chain_new_llama(&g, &ch, &err), 0, "%s", err.msg);
        int ok = 1;
        for (int t = 0; t < c.steps; t++) {
            st_gen(c.vseed + (uint64_t)t, c.V, x);
            for (size_t i = 0; i < c.V; i++)
                xv.d[i] = xv.f[i] = x[i];
            sl_fw_session_forget(&ss);
            sl_fw_step s;
            cr_assert_eq(sl_fw_session_step(&ss, &xv, &s, &err), 0, "case %d: %s", c.id, err.msg);
            sl_logits_llama_array a;
            cr_assert_eq(sl_logits_chain_run(ch, x, c.V, &a, NULL, &err), 0, "%s", err.msg);
            char kh[48], want[48];
            st_kept(a.data, a.size, kh, sizeof kh);
            free(a.data);
            long wt = strtol(tl, &tl, 10);
            while (*kl == ' ')
                kl++;
            size_t klen = strcspn(kl, " \n");
            snprintf(want, sizeof want, "%.*s", (int)klen, kl);
            kl += klen;
            int dt = s.tokens[0] != wt, dk = strcmp(kh, want) != 0;
            if ((dt || dk) && ok)
                cr_log_error("case %d step %d: token %ld (libllama %ld), kept %s (libllama %s)", c.id, t,
                             s.tokens[0], wt, kh, want);
            ok &= !(dt || dk);
            tokd += dt, keptd += dk;
            cr_assert_eq(sl_fw_session_accept(&ss, wt, &err), 0);
            cr_assert_eq(sl_logits_chain_accept(ch, wt, &err), 0);
            steps++;
        }
        sl_logits_chain_free(ch);
        sl_fw_session_close(&ss);
        sl_base_vec_free(&xv);
        cases++;
        bad += !ok;
    }
    free(x);
    free(text);
    cr_log_info("%s: %zu cases (%zu with XTC on), %zu steps: %zu token and %zu kept-set differences", path, cases,
                xtc_cases, steps, tokd, keptd);
    cr_expect_geq(cases, 400);
    cr_expect_geq(xtc_cases, 100);
    cr_expect_eq(bad, 0, "%zu of %zu cases differ", bad, cases);
}

Test(llamacpp_stages, golden_cases_replay, .timeout = 600)
{
    replay_cases(ST_SID, NULL, SL_STDCXX_REDRAW);
}

/* v0.4.0 as node-llama-cpp 3.21.1 ships it (its GCC 11.4 build) */
Test(llamacpp_stages, golden_cases_replay_0_4_0, .timeout = 600)
{
    replay_cases(ST_040, "0.4.0", SL_STDCXX_CLAMP);
}

/* XTC's decisions over its own stream; returns how many probes differ under rule */
static size_t xtc_probes(const char *path, sl_rng_stdcxx rule, int quiet, size_t *nprobes, size_t *nstreams)
{
    char *text = st_golden_of(path);
    size_t probes = 0, bad = 0, streams = 0;
    for (char *line = strstr(text, "\nxtc"); line; line = strstr(line + 1, "\nxtc")) {
        line++;
        int stream = !strncmp(line, "xtcstream ", 10);
        unsigned sd;
        float p, t = 0.1f;
        int s1 = 0, first = 0, off = 0;
        long from = 0, n = 64;
        char *q;
        if (stream) {
            cr_assert_eq(sscanf(line, "xtcstream %u %f %ld %ld %n", &sd, &p, &from, &n, &off), 4);
        } else {
            cr_assert_eq(sscanf(line, "xtcprobe %u %f %f %d %d%n", &sd, &p, &t, &s1, &first, &off), 5);
        }
        q = line + off;
        sl_logits_cfg c;
        memset(&c, 0, sizeof c);
        sl_error err;
        cr_assert_eq(sl_logits_llama_order_parse("xtc", 0, &c, &err), 0);
        c.has_xtc_p = 1, c.xtc_p = p, c.has_xtc_t = 1, c.xtc_t = t, c.has_seed = 1, c.seed = sd;
        c.stdcxx = rule;
        sl_logits_chain *ch;
        cr_assert_eq(sl_logits_chain_new_llama(&c, &ch, &err), 0, "%s", err.msg);
        const float l1[4] = {5, -5, -5, -5}, l2[3] = {5, 4.9f, 0};
        sl_logits_llama_array a;
        int ok = 1;
        for (int r = 0; r < first; r++) {
            cr_assert_eq(sl_logits_chain_run(ch, l1, (size_t)s1, &a, NULL, &err), 0);
            free(a.data);
        }
        for (long r = 0; r < from + n; r++) {
            cr_assert_eq(sl_logits_chain_run(ch, l2, 3, &a, NULL, &err), 0);
            int dec = a.data[0].id != 0;
            free(a.data);
            if (r < from)
                continue;
            int want = stream ? *q++ - '0' : (int)strtol(q, &q, 10);
            ok &= dec == want;
        }
        if (!ok && !quiet)
            cr_log_error("differs: %.80s", line);
        probes++;
        streams += stream;
        bad += !ok;
        sl_logits_chain_free(ch);
    }
    free(text);
    *nprobes = probes;
    *nstreams = streams;
    return bad;
}

Test(llamacpp_stages, xtc_draws_as_libllama)
{
    size_t probes, streams, bad = xtc_probes(ST_SID, SL_STDCXX_REDRAW, 0, &probes, &streams);
    cr_expect_eq(streams, 3);
    cr_expect_geq(probes, 19);
    cr_expect_eq(bad, 0, "%zu of %zu XTC probes differ", bad, probes);
}

/* node-llama-cpp's libllama (GCC 11.4): a float of 1 stays below 1, no second word.
 * The three streams that meet a 1 tell the two rules apart: each fails under the other's. */
Test(llamacpp_stages, xtc_draws_as_node_llama_cpp_0_4_0)
{
    size_t probes, streams, bad = xtc_probes(ST_040, SL_STDCXX_CLAMP, 0, &probes, &streams);
    cr_expect_eq(streams, 3);
    cr_expect_geq(probes, 19);
    cr_expect_eq(bad, 0, "%zu of %zu XTC probes differ", bad, probes);
    cr_expect_eq(xtc_probes(ST_040, SL_STDCXX_REDRAW, 1, &probes, &streams), 3, "GCC 15's rule on the 0.4.0 file");
    cr_expect_eq(xtc_probes(ST_SID, SL_STDCXX_CLAMP, 1, &probes, &streams), 3, "GCC 14's rule on the 0.7.0 file");
}

/* A small case as a command line: CMD, its seed, order, logits and settings, the biases as
 * --logit-bias words (malloc'd); *outside: a bias names an id outside 0..V-1 (libllama skips it). */
static char *st_command(const char *cmd, st_case *c, int *outside, size_t *n_bias)
{
    sl_logits_cfg g;
    st_cfg(c, &g);
    float x[100];
    st_gen(c->vseed, c->V, x);
    char *args = malloc(8192), *p = args;
    p += sprintf(p, "%s --framework llamacpp --seed %u --samplers '%s' --logits '", cmd, c->seed, c->order);
    for (size_t i = 0; i < c->V; i++)
        p += isinf(x[i]) ? sprintf(p, "%s-inf", i ? "," : "") : sprintf(p, "%s%.9g", i ? "," : "", x[i]);
    p += sprintf(p, "' --temperature %.9g --top-k %d --top-p %.9g --min-p %.9g --min-keep %d --xtc-probability %.9g "
                    "--xtc-threshold %.9g --top-nsigma %.9g --dynatemp-range %.9g --dynatemp-exp %.9g",
                 c->temp, c->top_k, c->top_p, c->min_p, c->min_keep, c->xp, c->xt, c->nsigma, c->dyn, c->dexp);
    *outside = 0;
    for (size_t k = 0; k < g.n_bias; k++) {
        *outside |= g.bias_token[k] < 0 || (size_t)g.bias_token[k] >= c->V;
        p += sprintf(p, " --logit-bias '%ld%c%.9g'", g.bias_token[k], g.bias[k] < 0 ? '-' : '+',
                     fabs((double)g.bias[k]));
    }
    *n_bias = g.n_bias;
    return args;
}

/* The first token of small cases through `draw`, the biases as --logit-bias words; a bias naming
 * an id outside 0..V-1 (which libllama skips) is refused by name instead. */
Test(llamacpp_stages, cli_draw_first_token, .timeout = 300)
{
    char *text = st_golden();
    size_t done = 0, biased = 0, refused = 0;
    for (char *line = strstr(text, "\ncase "); line && done < 60; line = strstr(line + 1, "\ncase ")) {
        st_case c;
        cr_assert(st_parse(line + 1, &c));
        if (c.V < 2 || c.V > 100 || !strcmp(c.order, "-"))
            continue;
        int outside;
        size_t nb;
        char *args = st_command("draw", &c, &outside, &nb);
        sl_test_run r = sl_test_cli(args);
        long want = strtol(strstr(line + 1, "\ntok") + 4, NULL, 10);
        if (outside) {
            cr_expect_eq(r.status, 2, "%s", args);
            cr_expect(strstr(r.err, "is not a token id in 0..") && strstr(r.err, "--logit-bias"), "%s", r.err);
            cr_expect_eq(r.out[0], '\0');
            refused++;
        } else {
            cr_expect_eq(r.status, 0, "%s: %s", args, r.err);
            cr_expect_eq(strtol(r.out, NULL, 10), want, "%s: %s, libllama %ld", args, r.out, want);
            biased += nb > 0;
        }
        sl_test_run_free(&r);
        free(args);
        done++;
    }
    free(text);
    cr_expect_geq(done, 40);
    cr_expect_geq(biased, 10, "%zu cases with biases through the command line", biased);
    cr_expect_geq(refused, 5);
}

/* `pipeline --seed`: the kept set of the first step, XTC's draw included, is libllama's. */
Test(llamacpp_stages, cli_pipeline_kept_with_xtc, .timeout = 300)
{
    char *text = st_golden();
    size_t done = 0, removed = 0;
    for (char *line = strstr(text, "\ncase "); line && done < 60; line = strstr(line + 1, "\ncase ")) {
        st_case c;
        cr_assert(st_parse(line + 1, &c));
        if (c.V < 2 || c.V > 100 || !strcmp(c.order, "-") || !strstr(c.order, "xtc") || c.xp <= 0 || c.xt > 0.5f)
            continue;
        int outside;
        size_t nb;
        char *args = st_command("pipeline", &c, &outside, &nb);
        if (outside) {
            free(args);
            continue;
        }
        strcat(args, " --json");
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        json_error_t je;
        json_t *o = json_loads(r.out, 0, &je), *kept = json_object_get(o, "kept");
        cr_assert(json_is_array(kept), "%s", r.out);
        long ids[100];
        size_t k = json_array_size(kept);
        for (size_t i = 0; i < k; i++)
            ids[i] = (long)json_integer_value(json_array_get(kept, i));
        char got[64], want[64];
        gg_kept_text(ids, k, got, sizeof got);
        cr_assert_eq(sscanf(strstr(line + 1, "\nkept") + 5, " %63s", want), 1);
        cr_expect_str_eq(got, want, "%s: kept %s, libllama %s", args, got, want);
        removed += k < c.V;
        json_decref(o);
        sl_test_run_free(&r);
        free(args);
        done++;
    }
    free(text);
    cr_expect_geq(done, 10, "%zu XTC cases through pipeline --seed", done);
    cr_expect_geq(removed, 5);
}

Test(llamacpp_stages, xtc_without_seed_refused)
{
    sl_test_run r = sl_test_cli("pipeline --framework llamacpp --logits 3,2,1 --samplers xtc --xtc-probability 0.5");
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "xtc: needs --seed") != NULL, "%s", r.err);
    cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
    sl_test_run_free(&r);
}

/* tests/test-sampling.cpp's sampler_tester: logits logf(p), the stage, then (top_n_sigma,
 * temp_ext) dist(0); its expected p in array order, tolerance 1e-5. */
static void st_upstream(const float *probs, size_t n, const char *order, sl_logits_cfg *g, int dist, const float *want,
                        size_t nw, const char *what)
{
    float lf[8];
    for (size_t i = 0; i < n; i++)
        lf[i] = logf(probs[i]);
    sl_error err;
    cr_assert_eq(sl_logits_llama_order_parse(order, 0, g, &err), 0);
    g->has_seed = 1, g->seed = 0;
    sl_logits_chain *ch;
    cr_assert_eq(sl_logits_chain_new_llama(g, &ch, &err), 0, "%s", err.msg);
    sl_logits_llama_array a;
    cr_assert_eq(sl_logits_chain_run(ch, lf, n, &a, NULL, &err), 0);
    if (dist)
        sl_logits_llama_dist(&a, 0.5);
    else
        for (size_t i = 0; i < a.size; i++) /* tester set p = probs; XTC's softmax rewrote it when it ran */
            if (a.data[i].p == 0.0f)
                a.data[i].p = probs[a.data[i].id];
    cr_expect_eq(a.size, nw, "%s: %zu candidates, want %zu", what, a.size, nw);
    for (size_t i = 0; i < a.size && i < nw; i++)
        cr_expect(fabsf(a.data[i].p - want[i]) < 1e-5f, "%s: p[%zu] %.9g, want %.9g", what, i, a.data[i].p, want[i]);
    free(a.data);
    sl_logits_chain_free(ch);
}

Test(llamacpp_stages, upstream_test_sampling)
{
    const float up[4] = {0.1f, 0.2f, 0.3f, 0.4f}, down[4] = {0.4f, 0.3f, 0.2f, 0.1f};
    sl_logits_cfg g;
    /* test_temp_ext(probs, same, 1, 0, 1) and (.., {0,0,0,1}, 0, 0, 1) */
    memset(&g, 0, sizeof g), g.has_temperature = 1, g.temperature = 1.0, g.has_dyn_range = 1, g.dyn_range = 0;
    st_upstream(up, 4, "temperature", &g, 1, up, 4, "temp_ext(1, 0, 1)");
    memset(&g, 0, sizeof g), g.has_temperature = 1, g.temperature = 0.0;
    st_upstream(up, 4, "temperature", &g, 1, (const float[]){0, 0, 0, 1}, 4, "temp_ext(0, 0, 1)");
    /* test_xtc: p 0.99, t 0.09 / 0.19 / 0.29 remove the top; 0.39 keeps all */
    const float t[4] = {0.09f, 0.19f, 0.29f, 0.39f};
    const float w0[1] = {0.1f}, w1[2] = {0.2f, 0.1f}, w2[3] = {0.3f, 0.2f, 0.1f};
    const float *w[4] = {w0, w1, w2, down};
    const size_t nw[4] = {1, 2, 3, 4};
    for (int k = 0; k < 4; k++) {
        memset(&g, 0, sizeof g), g.has_xtc_p = 1, g.xtc_p = 0.99, g.has_xtc_t = 1, g.xtc_t = t[k];
        st_upstream(down, 4, "xtc", &g, 0, w[k], nw[k], "xtc(0.99, t)");
    }
    /* test_top_n_sigma: n 1 keeps {0.3, 0.4} renormalised; 0 and 3 keep all */
    memset(&g, 0, sizeof g), g.has_nsigma = 1, g.nsigma = 1;
    st_upstream(up, 4, "top_n_sigma", &g, 1, (const float[]){0, 0, 0.428571f, 0.571429f}, 4, "top_n_sigma(1)");
    memset(&g, 0, sizeof g), g.has_nsigma = 1, g.nsigma = 0;
    st_upstream(up, 4, "top_n_sigma", &g, 1, up, 4, "top_n_sigma(0)");
    memset(&g, 0, sizeof g), g.has_nsigma = 1, g.nsigma = 3;
    st_upstream(up, 4, "top_n_sigma", &g, 1, up, 4, "top_n_sigma(3)");
}
