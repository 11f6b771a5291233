/* test_framework_hf_generate.c — whole generations of transformers 5.12.1's
 * generate(do_sample=True) (torch 2.14.1, Debian sid) replayed step by step with
 * samplab's hf framework session: data/golden/current/hf_generate.txt names, per
 * run, the settings, seed, prompt, the 24 generated ids and the MT19937 words
 * after each step; hf_generate.safetensors holds the raw logits generate() fed
 * its processors at each step ([24, V] float32). Every step: the session reads
 * that row, draws with the torch 2.x multinomial (--torch 2), and the drawn id
 * joins the history (generate() appends it to input_ids, which the repetition
 * penalty reads). Written by analysis/golden/current/hf_generate.py. The AVX2
 * runs replay with the AVX2 kernel model, the AVX-512 runs (hf_generate_avx512.txt,
 * torch's default kernel on such a machine) with the 16-lane one; both exactly. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

typedef struct gen_replay {
    size_t runs, exact, steps, steps_same, words_bad;
    char first_fail[512];
} gen_replay;

static size_t ids(const char *s, long *out, size_t cap)
{
    size_t n = 0;
    char *end;
    while (n < cap) {
        long v = strtol(s, &end, 10);
        if (end == s)
            break;
        out[n++] = v;
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* settings=temperature:0.7,top_k:40 (generate()'s keyword arguments) or "default" */
static void settings(const char *s, sl_logits_cfg *c)
{
    memset(c, 0, sizeof *c);
    /* the unset ones: what generate() fills them with (top_k 50), samplab's defaults */
    if (!strcmp(s, "default"))
        return;
    for (const char *p = s; *p;) {
        const char *colon = strchr(p, ':');
        cr_assert(colon, "settings %s", s);
        double v = strtod(colon + 1, NULL);
        size_t klen = (size_t)(colon - p);
        if (!strncmp(p, "temperature", klen)) { c->has_temperature = 1; c->temperature = v; }
        else if (!strncmp(p, "top_k", klen)) { c->has_top_k = 1; c->top_k = (long)v; }
        else if (!strncmp(p, "top_p", klen)) { c->has_top_p = 1; c->top_p = v; }
        else if (!strncmp(p, "min_p", klen)) { c->has_min_p = 1; c->min_p = v; }
        else if (!strncmp(p, "typical_p", klen)) { c->has_typical = 1; c->typical = v; }
        else if (!strncmp(p, "repetition_penalty", klen)) { c->has_penalty = 1; c->penalty = v; }
        else cr_assert_fail("unknown setting in %s", s);
        const char *comma = strchr(colon, ',');
        p = comma ? comma + 1 : colon + strlen(colon);
    }
}

static void replay_generate(const char *manifest, const char *tensors, int cpu, gen_replay *r)
{
    memset(r, 0, sizeof *r);
    char *text = sl_test_slurp(manifest);
    cr_assert_not_null(text, "%s missing (make golden-current writes it)", manifest);
    unsigned char *buf;
    size_t len;
    sl_error err;
    cr_assert_eq(sl_io_file_slurp(tensors, &buf, &len, &err), 0, "%s", err.msg);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "run ", 4))
            continue;
        char id[16], tmp[1024], tname[64];
        sscanf(line, "run %15s", id);
        long prompt[64], want[64];
        unsigned long long words[64];
        long wl[64];
        size_t np = ids(sl_test_field(line, "prompt", tmp, sizeof tmp), prompt, 64);
        size_t nt = ids(sl_test_field(line, "tokens", tmp, sizeof tmp), want, 64);
        cr_assert_eq(ids(sl_test_field(line, "words", tmp, sizeof tmp), wl, 64), nt);
        for (size_t t = 0; t < nt; t++)
            words[t] = (unsigned long long)wl[t];
        sl_test_field(line, "logits", tname, sizeof tname);
        sl_fw_opts o;
        memset(&o, 0, sizeof o);
        settings(sl_test_field(line, "settings", tmp, sizeof tmp), &o.cfg);
        o.cfg.cpu = cpu;
        o.cfg.context = prompt;
        o.cfg.context_n = np;
        o.has_seed = 1;
        o.seed.lo = strtoull(sl_test_field(line, "seed", tmp, sizeof tmp), NULL, 10);
        o.n = nt;
        o.k = 1;
        o.variant = "2"; /* torch 2.x's multinomial */
        sl_fw_session s;
        cr_assert_eq(sl_fw_session_open(&s, &sl_fw_hf_type, &o, &err), 0, "%s: %s", id, err.msg);
        size_t same = 0;
        uint64_t total = 0;
        int diverged = 0;
        for (size_t t = 0; t < nt; t++) {
            sl_vec v;
            cr_assert_eq(sl_io_vec_read_safetensors(tensors, buf, len, tname, (long)t, &v, &err), 0, "%s", err.msg);
            sl_fw_step st;
            cr_assert_eq(sl_fw_session_step(&s, &v, &st, &err), 0, "%s step %zu: %s", id, t, err.msg);
            total += st.words;
            r->steps++;
            if (!diverged && st.tokens[0] == want[t]) {
                same++;
            } else if (!diverged) {
                diverged = 1;
                if (!r->first_fail[0])
                    snprintf(r->first_fail, sizeof r->first_fail, "%s step %zu: drew %ld, transformers %ld", id, t,
                             st.tokens[0], want[t]);
            }
            if (!diverged && total != words[t])
                r->words_bad++;
            /* generate() appends the token it drew; after a divergence the golden one keeps
             * the history that of the golden run */
            cr_assert_eq(sl_fw_session_accept(&s, want[t], &err), 0, "%s", err.msg);
            sl_base_vec_free(&v);
        }
        sl_fw_session_close(&s);
        r->runs++;
        r->steps_same += same;
        r->exact += same == nt;
    }
    free(buf);
    free(text);
}

Test(replay_hf_generate, hf_generate_transformers_5_12_avx2, .timeout = 120)
{
    gen_replay r;
    replay_generate("data/golden/current/hf_generate.txt", "data/golden/current/hf_generate.safetensors", SL_CPU_AVX2,
                    &r);
    cr_log_info("generate() AVX2: %zu of %zu runs replayed exactly, %zu of %zu steps before any divergence, "
                "%zu word counts differ; first: %s", r.exact, r.runs, r.steps_same, r.steps, r.words_bad,
                r.first_fail[0] ? r.first_fail : "none");
    cr_assert(r.runs >= 20, "only %zu runs", r.runs);
    cr_assert_eq(r.exact, r.runs, "%zu of %zu runs differ; first: %s", r.runs - r.exact, r.runs, r.first_fail);
    cr_assert_eq(r.words_bad, 0);
}

Test(replay_hf_generate, hf_generate_transformers_5_12_avx512, .timeout = 120)
{
    gen_replay r;
    replay_generate("data/golden/current/hf_generate_avx512.txt",
                    "data/golden/current/hf_generate_avx512.safetensors", SL_CPU_AVX512, &r);
    cr_log_info("generate() AVX-512: %zu of %zu runs replayed exactly, %zu of %zu steps before any divergence; "
                "first: %s", r.exact, r.runs, r.steps_same, r.steps, r.first_fail[0] ? r.first_fail : "none");
    cr_assert(r.runs >= 5, "only %zu runs", r.runs);
    cr_assert_eq(r.exact, r.runs, "%zu of %zu runs differ; first: %s", r.runs - r.exact, r.runs, r.first_fail);
    cr_assert_eq(r.words_bad, 0);
}

/* data/golden/current/hf_defaults.txt (analysis/golden/current/hf_defaults.py):
 * transformers 5.12.1's own defaults (GenerationConfig._get_default_generation_params)
 * are samplab's hf defaults, the warpers it does not model are off by default,
 * and for each combination of settings left unset the processors generate()
 * built are the steps samplab's hf pipeline runs. */
Test(replay_hf_generate, hf_defaults_are_transformers_5_12)
{
    char *text = sl_test_slurp("data/golden/current/hf_defaults.txt");
    cr_assert_not_null(text, "hf_defaults.txt missing");
    static const struct { const char *upstream; sl_logits_key k; } keys[] = {
        {"temperature", SL_KEY_TEMPERATURE}, {"top_k", SL_KEY_TOP_K}, {"top_p", SL_KEY_TOP_P},
        {"min_p", SL_KEY_MIN_P}, {"typical_p", SL_KEY_TYPICAL}, {"repetition_penalty", SL_KEY_PENALTY}};
    /* the warpers samplab does not model: built only away from these values */
    static const char *const off[][2] = {{"top_h", "None"}, {"epsilon_cutoff", "0.0"}, {"eta_cutoff", "0.0"}};
    static const char *const steps[][2] = {{"RepetitionPenaltyLogitsProcessor", "repetition_penalty"},
                                           {"TemperatureLogitsWarper", "temperature"}, {"TopKLogitsWarper", "top_k"},
                                           {"TopPLogitsWarper", "top_p"}, {"MinPLogitsWarper", "min_p"},
                                           {"TypicalLogitsWarper", "typical"}};
    size_t defaults = 0, chains = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char key[64], val[64];
        if (sscanf(line, "default %63s %63s", key, val) == 2) {
            int known = 0;
            for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
                if (strcmp(key, keys[i].upstream))
                    continue;
                const sl_logits_default *d = sl_logits_default_of(&sl_logits_pipeline_hf_type, keys[i].k);
                cr_assert_not_null(d, "samplab has no hf default for %s", key);
                if (!strcmp(val, "None"))
                    cr_expect(d->none, "%s: transformers None, samplab %g", key, d->value);
                else
                    cr_expect(!d->none && d->value == strtod(val, NULL), "%s: transformers %s, samplab %g%s", key,
                              val, d->value, d->none ? " (None)" : "");
                known = 1;
            }
            for (size_t i = 0; i < sizeof off / sizeof *off; i++)
                if (!strcmp(key, off[i][0])) {
                    cr_expect_str_eq(val, off[i][1], "%s's default builds a warper samplab does not model", key);
                    known = 1;
                }
            cr_expect(known, "default %s not checked", key);
            defaults++;
        } else if (!strncmp(line, "chain ", 6)) {
            char set[256], chain[512];
            cr_assert_eq(sscanf(line, "chain %255s %511s", set, chain), 2);
            sl_logits_cfg c;
            settings(set, &c);
            long ctx[2] = {0, 1};
            c.context = ctx, c.context_n = 2;
            c.cpu = SL_CPU_AVX2;
            sl_vec v;
            sl_error err;
            cr_assert_eq(sl_base_vec_alloc(&v, 64, "ramp", &err), 0);
            for (size_t i = 0; i < 64; i++)
                v.d[i] = v.f[i] = (float)(64 - (double)i) / 8;
            sl_logits_result r;
            cr_assert_eq(sl_logits_pipeline_run(&sl_logits_pipeline_hf_type, &v, &c, &r, &err), 0, "%s", err.msg);
            char mine[512] = "";
            for (size_t i = 0; i < r.n_steps; i++)
                for (size_t j = 0; j < sizeof steps / sizeof *steps; j++)
                    if (!strcmp(r.steps[i], steps[j][1]))
                        snprintf(mine + strlen(mine), sizeof mine - strlen(mine), "%s%s", mine[0] ? "," : "",
                                 steps[j][0]);
            cr_expect_str_eq(mine[0] ? mine : "none", chain, "settings %s: generate() built %s, samplab ran %s", set,
                             chain, mine[0] ? mine : "none");
            sl_logits_result_free(&r);
            sl_base_vec_free(&v);
            chains++;
        }
    }
    cr_log_info("hf_defaults.txt: %zu defaults and %zu processor chains of transformers 5.12.1 checked", defaults,
                chains);
    cr_assert_geq(defaults, 9);
    cr_assert_geq(chains, 9);
    free(text);
}
