/* test_framework_node_llama_cpp.c — `--framework node-llama-cpp` against
 * node-llama-cpp 3.21.1 itself: every generation of
 * data/golden/node_llama_cpp/generations.txt (analysis/golden/node_llama_cpp/
 * golden.sh: LlamaContextSequence.evaluate and LlamaCompletion on a tiny GGUF,
 * its prebuilt libllama.v0.4.0.so; the logits of each step teacher forced
 * through that library into logits.npy) replays through a node-llama-cpp
 * session with the same token at every step, and through the command line
 * (`replay` gives the tokens, `check --seed` finds no divergence), the options
 * given by node-llama-cpp's names (the schema's aliases: --topK, --repeatPenalty ...). tokenBias has
 * no command-line option yet (the C API's logit bias): those runs replay through
 * the C API only. The seed left out is the time in whole seconds: a run that
 * stayed within one second replays with it. Also: greedy runs equal the rows'
 * argmax (the logits are the ones node-llama-cpp sampled from); the refusals. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

/* SL_NLC_GOLDEN names another folder of the same two files: `make golden-nlc`
 * replays a fresh run of node-llama-cpp through this test (its unseeded run
 * takes the clock, so the files themselves differ from run to run). */
static const char *golden_dir(void)
{
    const char *d = getenv("SL_NLC_GOLDEN");
    return d && *d ? d : "data/golden/node_llama_cpp";
}

/* the value of " KEY=" on an opts line (up to its end), or NULL */
static const char *opt(const char *line, const char *key, char *buf, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = line; *p && *p != '\n'; p++)
        if ((p == line || p[-1] == ' ') && !strncmp(p, key, kl) && p[kl] == '=') {
            size_t k = 0;
            for (p += kl + 1; *p && *p != ' ' && *p != '\n' && k + 1 < len; p++)
                buf[k++] = *p;
            buf[k] = '\0';
            return buf;
        }
    return NULL;
}

typedef struct {
    sl_logits_cfg cfg;
    int has_seed;
    uint32_t seed;
    long bias_tok[8];
    float bias[8];
    char args[1024]; /* the command line's settings, "" when it cannot say them (tokenBias) */
    int needs_vocab; /* DRY with breakers: they are resolved against tiny.gguf by --vocab */
    int dry_on;      /* node-llama-cpp's DRY acts: strength > 0, lastTokens > 0, base >= 1 */
} mapped;

/* node-llama-cpp's options as samplab's settings (docs/pipelines.md's table): its
 * seed rule is Math.max(0, Math.floor(seed)) as a uint32, which samplab asks for reduced */
static void map_opts(const char *line, const char *clock, mapped *m)
{
    memset(m, 0, sizeof *m);
    static const struct {
        const char *node, *cli;
        sl_logits_key key;
    } tab[] = {
        {"temperature", "--temperature", SL_KEY_TEMPERATURE},
        {"topK", "--topK", SL_KEY_TOP_K},
        {"topP", "--topP", SL_KEY_TOP_P},
        {"minP", "--minP", SL_KEY_MIN_P},
        {"xtc.probability", "--xtcProbability", SL_KEY_XTC_P},
        {"xtc.threshold", "--xtcThreshold", SL_KEY_XTC_T},
        {"repeatPenalty.penalty", "--repeatPenalty", SL_KEY_PENALTY},
        {"repeatPenalty.frequencyPenalty", "--repeatPenaltyFrequencyPenalty", SL_KEY_FREQ},
        {"repeatPenalty.presencePenalty", "--repeatPenaltyPresencePenalty", SL_KEY_PRESENCE},
        {"repeatPenalty.maxPunishTokens", "--repeatPenaltyMaxTokens", SL_KEY_LAST_N},
        {"repeatPenalty.lastTokens", "--repeatPenaltyMaxTokens", SL_KEY_LAST_N},
        {"dryRepeatPenalty.strength", "--dryRepeatPenaltyStrength", SL_KEY_DRY_MULT},
        {"dryRepeatPenalty.base", "--dryRepeatPenaltyBase", SL_KEY_DRY_BASE},
        {"dryRepeatPenalty.allowedLength", "--dryRepeatPenaltyAllowedLength", SL_KEY_DRY_ALLOWED},
        {"dryRepeatPenalty.lastTokens", "--dryRepeatPenaltyLastTokens", SL_KEY_DRY_LAST_N},
    };
    char v[512];
    size_t k = 0;
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (opt(line, tab[i].node, v, sizeof v)) {
            sl_logits_cfg_set(&m->cfg, tab[i].key, strtod(v, NULL));
            k += (size_t)snprintf(m->args + k, sizeof m->args - k, " %s %s", tab[i].cli, v);
        }
    if (opt(line, "seed", v, sizeof v)) {
        double s = floor(strtod(v, NULL));
        m->has_seed = 1, m->seed = (uint32_t)fmod(s < 0 ? 0 : s, 4294967296.0);
    } else if (clock) { /* the time in whole seconds, when the run stayed within one */
        long long s0, s1;
        cr_assert_eq(sscanf(clock, "%lld %lld", &s0, &s1), 2);
        m->has_seed = s0 == s1, m->seed = (uint32_t)s0;
    } else {
        m->has_seed = 1, m->seed = 1; /* greedy: any seed */
    }
    k += (size_t)snprintf(m->args + k, sizeof m->args - k, " --seed %u", m->seed);
    /* DRY's breakers, a JSON list whose escapes are llama.cpp's (the option reads them): [] is none;
     * left out, node-llama-cpp's four defaults (llama.cpp's); matched against the model's vocabulary */
    int dry_on = m->dry_on = m->cfg.has_dry_mult && m->cfg.dry_mult > 0 && m->cfg.has_dry_last_n &&
                             m->cfg.dry_last_n > 0 && (!m->cfg.has_dry_base || m->cfg.dry_base >= 1);
    if (opt(line, "dryRepeatPenalty.sequenceBreakers", v, sizeof v) && !strcmp(v, "[]")) {
        m->cfg.has_dry_breakers = 1; /* none */
        k += (size_t)snprintf(m->args + k, sizeof m->args - k, " --dryRepeatPenaltySequenceBreakers none");
    } else if (dry_on) {
        const char *list = opt(line, "dryRepeatPenalty.sequenceBreakers", v, sizeof v);
        for (const char *q = list ? strchr(list, '"') : NULL; q;) {
            const char *e = q + 1;
            while (*e && *e != '"')
                e += *e == '\\' && e[1] ? 2 : 1;
            k += (size_t)snprintf(m->args + k, sizeof m->args - k, " --dryRepeatPenaltySequenceBreakers '%.*s'",
                                  (int)(e - q - 1), q + 1);
            q = *e ? strchr(e + 1, '"') : NULL;
        }
        k += (size_t)snprintf(m->args + k, sizeof m->args - k, " --vocab %s/tiny.gguf", golden_dir());
        m->needs_vocab = 1; /* the session below has no vocabulary: the command line reads it */
    }
    if (opt(line, "tokenBias", v, sizeof v)) {
        for (char *save = NULL, *t = strtok_r(v, ",", &save); t && m->cfg.n_bias < 8; t = strtok_r(NULL, ",", &save)) {
            char *c = strchr(t, ':');
            m->bias_tok[m->cfg.n_bias] = strtol(t, NULL, 10);
            double b = !strcmp(c + 1, "never")      ? -INFINITY
                       : !strncmp(c + 1, "logit", 5) ? strtod(c + 6, NULL)
                                                      : log(strtod(c + 1, NULL) / (1 - strtod(c + 1, NULL)));
            m->bias[m->cfg.n_bias++] = (float)b; /* the addon's Float32Array */
        }
        m->cfg.bias_token = m->bias_tok;
        m->cfg.bias = m->bias;
        m->args[0] = '\0';
    }
}

static void load(char **text, unsigned char **npy, sl_io_npy_info *info)
{
    sl_error e;
    size_t len;
    char path[1024];
    snprintf(path, sizeof path, "%s/generations.txt", golden_dir());
    cr_assert_not_null(*text = sl_test_slurp(path));
    snprintf(path, sizeof path, "%s/logits.npy", golden_dir());
    cr_assert_eq(sl_io_file_slurp(path, npy, &len, &e), 0, "%s", e.msg);
    cr_assert_eq(sl_io_npy_header("logits", *npy, len, info, &e), 0, "%s", e.msg);
    cr_assert_eq(info->ndim, 2);
}

/* Run id through a node-llama-cpp session, each observed token accepted: 1 when every step
 * drew node-llama-cpp's token (steps and differ counted, the first difference into first). */
static int session_same(const mapped *m, const sl_io_npy_info *info, size_t V, size_t a, const long *toks, size_t nt,
                        int id, size_t *steps, size_t *differ, char *first, size_t cap)
{
    sl_fw_opts fo;
    memset(&fo, 0, sizeof fo);
    fo.cfg = m->cfg;
    fo.has_seed = 1, fo.seed.lo = m->seed, fo.k = 1;
    sl_vec xv;
    sl_error err;
    cr_assert_eq(sl_base_vec_alloc(&xv, V, "node-llama-cpp", &err), 0);
    fo.logits = &xv;
    sl_fw_session ss;
    cr_assert_eq(sl_fw_session_open(&ss, &sl_fw_nlc_type, &fo, &err), 0, "run %d: %s", id, err.msg);
    int same = 1;
    for (size_t t = 0; t < nt; t++) {
        memcpy(xv.f, info->data + (a + t) * V * 4, V * 4);
        for (size_t i = 0; i < V; i++)
            xv.d[i] = xv.f[i];
        sl_fw_session_forget(&ss);
        sl_fw_step st;
        cr_assert_eq(sl_fw_session_step(&ss, &xv, &st, &err), 0, "%s", err.msg);
        if (st.tokens[0] != toks[t] && same && !first[0])
            snprintf(first, cap, "run %d step %zu: %ld, node-llama-cpp %ld", id, t, st.tokens[0],
                     toks[t]);
        same &= st.tokens[0] == toks[t];
        *differ += st.tokens[0] != toks[t];
        (*steps)++;
        cr_assert_eq(sl_fw_session_accept(&ss, toks[t], &err), 0);
    }
    sl_fw_session_close(&ss);
    sl_base_vec_free(&xv);
    return same;
}

Test(framework_node_llama_cpp, golden_generations)
{
    char *text;
    unsigned char *npy;
    sl_io_npy_info info;
    load(&text, &npy, &info);
    size_t V = info.shape[1];
    size_t runs = 0, ok = 0, steps = 0, differ = 0, cli = 0, cli_ok = 0, seeded_ok = 0, greedy = 0, greedy_ok = 0;
    size_t clock_runs = 0, dry_greedy = 0, dry_moved = 0;
    char first[512] = "";
    for (int id = 0; sl_test_line_of(text, "run", id); id++) {
        const char *o = sl_test_line_of(text, "opts", id);
        cr_assert_not_null(o);
        mapped m;
        map_opts(o, sl_test_line_of(text, "clock", id), &m);
        if (!m.has_seed)
            continue; /* the second changed during the run: its seeds are not known */
        clock_runs += sl_test_line_of(text, "clock", id) != NULL;
        size_t a, b;
        cr_assert_eq(sscanf(sl_test_line_of(text, "rows", id), "%zu %zu", &a, &b), 2);
        long toks[512], am[512];
        size_t nt = sl_test_ids(sl_test_line_of(text, "tokens", id), toks, 512);
        cr_assert_eq(nt, b - a, "run %d", id);
        cr_assert_eq(sl_test_ids(sl_test_line_of(text, "argmax", id), am, 512), nt);
        /* through a session (DRY's breakers need the vocabulary: the command line's --vocab) */
        if (!m.needs_vocab) {
            runs++;
            ok += session_same(&m, &info, V, a, toks, nt, id, &steps, &differ, first, sizeof first);
        }
        /* a greedy run without penalties or bias: the rows' first maximum, unless DRY acted (it
         * then must have moved some step off the argmax, which samplab reproduced above) */
        if ((!m.cfg.has_temperature || (float)m.cfg.temperature <= 0) && !m.cfg.n_bias && !m.cfg.has_penalty &&
            !m.cfg.has_xtc_p) {
            int argmax = !memcmp(toks, am, nt * sizeof *toks);
            if (m.dry_on) {
                dry_greedy++;
                dry_moved += !argmax;
            } else {
                greedy++;
                greedy_ok += argmax;
            }
        }
        if (!m.args[0])
            continue;
        /* the command line */
        char *path = sl_test_npy_f32(info.data + a * V * 4, nt, V), args[2048], list[4096], want[4200];
        cr_assert(path);
        size_t k = 0;
        for (size_t t = 0; t < nt; t++)
            k += (size_t)snprintf(list + k, sizeof list - k, "%s%ld", t ? "," : "", toks[t]);
        snprintf(args, sizeof args, "replay --framework node-llama-cpp --logits %s%s --json", path, m.args);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "run %d: %s: %s", id, args, r.err);
        snprintf(want, sizeof want, "\"tokens\":[%s]", list);
        cli++;
        cli_ok += strstr(r.out, want) != NULL;
        sl_test_run_free(&r);
        seeded_ok += (size_t)sl_test_check_seeded(args, list);
        unlink(path);
        free(path);
    }
    cr_log_info("node-llama-cpp 3.21.1: %zu runs (%zu with the time as seed), %zu steps: %zu runs equal, %zu steps "
                "differ; command line %zu runs, replay equal %zu, check --seed without divergence %zu; greedy runs "
                "equal to the argmax %zu of %zu; greedy runs with DRY acting %zu, off the argmax %zu; first difference: %s",
                runs, clock_runs, steps, ok, differ, cli, cli_ok, seeded_ok, greedy_ok, greedy, dry_greedy, dry_moved,
                first[0] ? first : "none");
    cr_assert_geq(runs, 35);
    cr_expect_eq(ok, runs, "%s", first);
    cr_expect_eq(differ, 0);
    cr_assert_geq(cli, 25);
    cr_expect_eq(cli_ok, cli);
    cr_expect_eq(seeded_ok, cli);
    cr_assert_geq(greedy, 3);
    cr_expect_eq(greedy_ok, greedy);
    cr_expect_geq(dry_moved, 2, "DRY moved %zu of %zu greedy runs off the argmax", dry_moved, dry_greedy);
    free(npy);
    free(text);
}

/* node-llama-cpp's names set samplab's settings: by key (Python, sweep) and on the command line */
Test(framework_node_llama_cpp, option_names)
{
    static const char *const pairs[][2] = {{"topK", "top_k"}, {"topP", "top_p"}, {"minP", "min_p"},
                                           {"xtcProbability", "xtc_probability"}, {"xtcThreshold", "xtc_threshold"},
                                           {"repeatPenalty", "repetition_penalty"},
                                           {"repeatPenaltyMaxTokens", "penalty_last_n"},
                                           {"repeatPenaltyFrequencyPenalty", "frequency_penalty"},
                                           {"repeatPenaltyPresencePenalty", "presence_penalty"},
                                           {"dryRepeatPenaltyStrength", "dry_multiplier"},
                                           {"dryRepeatPenaltyBase", "dry_base"},
                                           {"dryRepeatPenaltyAllowedLength", "dry_allowed_length"},
                                           {"dryRepeatPenaltyLastTokens", "dry_penalty_last_n"},
                                           {"dryRepeatPenaltySequenceBreakers", "dry_sequence_breaker"}};
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        cr_expect_eq(sl_api_option_keyed(pairs[i][0]), sl_api_option_keyed(pairs[i][1]), "%s", pairs[i][0]);
    sl_test_run a = sl_test_cli("pipeline --framework node-llama-cpp --logits 3,2,1,0 --context 0,0,1 --temperature 0.7 "
                                "--topK 3 --minP 0.2 --repeatPenalty 1.5 --repeatPenaltyMaxTokens 2 --json");
    sl_test_run b = sl_test_cli("pipeline --framework node-llama-cpp --logits 3,2,1,0 --context 0,0,1 --temperature 0.7 "
                                "--top-k 3 --min-p 0.2 --repetition-penalty 1.5 --penalty-last-n 2 --json");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_expect_str_eq(a.out, b.out);
    sl_test_run_free(&a);
    sl_test_run_free(&b);
}

/* The chain is what node-llama-cpp builds: a sampling run replayed as llamacpp's own default
 * chain (its typical stage, min-p 0.05, llama.cpp's T 0.8 if unset) differs somewhere. */
Test(framework_node_llama_cpp, chain_matters)
{
    sl_test_run r = sl_test_cli("draw --framework node-llama-cpp --logits 0.5,1.2,3,2.9,-1,0.2 --seed 3 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"samplers\":\"penalties;greedy\""), "%s", r.out); /* T 0: greedy */
    cr_expect(strstr(r.out, "\"tokens\":[2]"), "%s", r.out);
    sl_test_run_free(&r);
    r = sl_test_cli("pipeline --framework node-llama-cpp --logits 0.5,1.2,3,2.9,-1,0.2 --temperature 0.8 --top-k 0 "
                    "--top-p 1.5 --json");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"samplers\":\"penalties;top_k;top_p;min_p;temperature;dist\""), "%s", r.out);
    cr_expect(strstr(r.out, "\"kept\":[0,1,2,3,4,5]"), "%s", r.out); /* topK 0: all, topP 1.5: no stage */
    sl_test_run_free(&r);
}

Test(framework_node_llama_cpp, refusals)
{
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3", "the time in whole seconds");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 4294967296", "mod 2^32");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 4294967295", "LLAMA_DEFAULT_SEED");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 1 --xtc-probability 0.5",
                    "both probability and threshold");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 1 --top-nsigma 1", "no such option");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 1 --mirostat 2", "no such option");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 1 --samplers top_k", "no stage order");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 1 --typical 0.5", "--typical");
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 1 --llamacpp 0.7.0",
                    "not an option of framework node-llama-cpp");
    sl_test_expect_refused("exact --framework node-llama-cpp --logits 1,2,3 --temperature 0.8",
                           "no exact audit in samplab");
    /* DRY acting with breakers needs the vocabulary they are matched against */
    sl_test_expect_refused("draw --framework node-llama-cpp --logits 1,2,3 --seed 1 --dry-multiplier 0.8 "
                           "--dry-penalty-last-n 8", "give --vocab FILE.gguf, or --dry-sequence-breaker none");
}

/* dryRepeatPenalty left without lastTokens (or with a base below 1) is node-llama-cpp's no-op DRY:
 * said on stderr, and the tokens are those of no DRY at all; with lastTokens it acts. */
Test(framework_node_llama_cpp, dry_off_is_named)
{
    const char *base = "draw --framework node-llama-cpp --logits 1,2,3,4 --seed 1 --temperature 0.8 --n 12";
    char args[512];
    sl_test_run plain = sl_test_cli(base);
    cr_assert_eq(plain.status, 0, "%s", plain.err);
    static const char *const off[][2] = {{"--dryRepeatPenaltyStrength 0.8", "lastTokens left out is -1"},
                                         {"--dry-multiplier 2 --dry-penalty-last-n 0", "lastTokens left out is -1"},
                                         {"--dry-multiplier 2 --dry-penalty-last-n 8 --dry-base 0.5",
                                          "a base below 1"}};
    for (size_t i = 0; i < sizeof off / sizeof *off; i++) {
        snprintf(args, sizeof args, "%s %s", base, off[i][0]);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
        cr_expect(strstr(r.err, "dryRepeatPenalty does nothing here") && strstr(r.err, off[i][1]) &&
                      sl_test_lines(r.err) == 1, "%s: %s", args, r.err);
        cr_expect_str_eq(r.out, plain.out, "%s", args);
        sl_test_run_free(&r);
    }
    snprintf(args, sizeof args, "%s --dryRepeatPenaltyStrength 3 --dryRepeatPenaltyLastTokens 8 "
             "--dryRepeatPenaltyAllowedLength 1 --dry-sequence-breaker none", base);
    sl_test_run on = sl_test_cli(args);
    cr_assert_eq(on.status, 0, "%s: %s", args, on.err);
    cr_expect(!on.err[0], "%s: %s", args, on.err);
    cr_expect(strcmp(on.out, plain.out), "%s: DRY on drew what DRY off drew", args);
    sl_test_run_free(&on);
    sl_test_run_free(&plain);
}

/* penalizeNewLine: false (LlamaCompletion's and LlamaChat's default) is not modelled:
 * with a penalty on, the command says so on stderr, never silently; without one it is quiet. */
Test(framework_node_llama_cpp, penalized_newline_is_named)
{
    sl_test_run r = sl_test_cli("draw --framework node-llama-cpp --logits 3,2,2,1 --seed 3 --temperature 0.8 "
                                "--repeatPenalty 1.2 --context 0,1 --n 2");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "note: node-llama-cpp: LlamaCompletion and LlamaChat leave the newline token out") &&
                  strstr(r.err, "penalizeNewLine: false") && sl_test_lines(r.err) == 1,
              "%s", r.err);
    sl_test_run_free(&r);
    r = sl_test_cli("draw --framework node-llama-cpp --logits 3,2,2,1 --seed 3 --temperature 0.8 --n 2");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_empty(r.err);
    sl_test_run_free(&r);
}
