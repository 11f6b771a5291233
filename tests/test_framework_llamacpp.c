/* test_framework_llamacpp.c — llama.cpp's dist sampler emulation
 * (framework/llamacpp.c): the uniform double against libstdc++'s own
 * std::uniform_real_distribution<double> over std::mt19937
 * (tests/oracle/stdcxx_uniform.cpp, this machine's GCC 12) and Debian sid's
 * (data/golden/current/stdcxx_uniform.txt, GCC 16), the two rules for a uniform
 * that rounds to 1 (float and double), the pick in candidate-array order, words
 * consumed (two a draw), the first 50 of 20,000 draws replayed by hand and
 * their frequencies within 5 sigma of the softmax, the boundaries of the
 * exact audit (sl_draw_llama_dist_exact) equal to where the pick changes over
 * all 2^64 word pairs, and `draw --n N` with penalties as N steps of one
 * sampler, each drawn token joining the history (llama_sampler_sample). The
 * real libllama 0.7.0: test_llamacpp_chain.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

/* a generator that replays two fixed words, for the 1.0-clamp corner */
typedef struct fixed2 {
    uint32_t w[2];
    int i;
} fixed2;
static int fixed2_seed(void *s, const sl_seed *seed, const void *param, sl_error *err)
{
    (void)s; (void)seed; (void)param; (void)err;
    return 0;
}
static uint64_t fixed2_next(void *s)
{
    fixed2 *f = s;
    return f->w[f->i++ & 1];
}
static const sl_rng_type fixed2_type = {.name = "fixed2", .word_bits = 32, .state_size = sizeof(fixed2), .seed = fixed2_seed, .next = fixed2_next};

/* a generator that replays six fixed words in turn */
typedef struct fixed6 {
    uint32_t w[6];
    int i;
} fixed6;
static uint64_t fixed6_next(void *s)
{
    fixed6 *f = s;
    return f->w[f->i++ % 6];
}
static const sl_rng_type fixed6_type = {.name = "fixed6", .word_bits = 32, .state_size = sizeof(fixed6), .seed = fixed2_seed, .next = fixed6_next};

typedef struct transcript {
    size_t seeds, corners, canon, gcc;
} transcript;

/* One libstdc++ transcript of tests/oracle/stdcxx_uniform.cpp against samplab
 * under rule: mt19937 draws, the fixed-pair corners (only where a pair that
 * rounds to 1 is clamped: drawn again, the same pair would repeat forever),
 * and the canonical edges with the words each took. */
static transcript check_transcript(char *t, sl_rng_stdcxx rule, const char *what)
{
    transcript n = {0, 0, 0, 0};
    char *save = NULL;
    uint32_t cur = 0xFFFFFFFFu;
    sl_rng r;
    memset(&r, 0, sizeof r);
    sl_error e;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "# libstdc++ ", 12)) {
            const char *g = strstr(line, "(GCC ");
            cr_assert(g, "%s: no GCC in '%s'", what, line);
            n.gcc = strtoul(g + 5, NULL, 10);
        } else if (!strncmp(line, "seed ", 5)) {
            unsigned long seed;
            int i;
            char hex[64];
            cr_assert_eq(sscanf(line, "seed %lu %d %63s", &seed, &i, hex), 3);
            if (i == 0) {
                if (cur != 0xFFFFFFFFu)
                    sl_rng_release(&r);
                sl_seed sd = {.lo = seed};
                cr_assert_eq(sl_rng_init(&r, &sl_rng_mt19937_type, &sd, &e), 0);
                cur = (uint32_t)seed;
                n.seeds++;
            }
            double want = strtod(hex, NULL), got = sl_rng_uniform_f64_stdcxx(&r, rule);
            cr_assert(got == want, "%s: seed %lu draw %d: observed %a, libstdc++ %a", what, seed, i, got, want);
            cr_assert_eq(r.words, 2u * (unsigned)(i + 1), "two words per double");
        } else if (!strncmp(line, "words ", 6) && rule == SL_STDCXX_CLAMP) {
            unsigned long w1, w2;
            char hex[64];
            cr_assert_eq(sscanf(line, "words %lu %lu %63s", &w1, &w2, hex), 3);
            fixed2 st = {{(uint32_t)w1, (uint32_t)w2}, 0};
            sl_rng fr = {&fixed2_type, &st, 0};
            double want = strtod(hex, NULL), got = sl_rng_uniform_f64_stdcxx(&fr, rule);
            cr_assert(got == want, "%s: words %lu %lu: observed %a, libstdc++ %a", what, w1, w2, got, want);
            n.corners++;
        } else if (!strncmp(line, "canon ", 6)) {
            char kind[8], hex[64];
            unsigned long w[6];
            int calls;
            cr_assert_eq(sscanf(line, "canon %7s %lu %lu %lu %lu %lu %lu %63s %d", kind, &w[0], &w[1], &w[2], &w[3],
                                &w[4], &w[5], hex, &calls), 9, "%s: %s", what, line);
            fixed6 st = {{(uint32_t)w[0], (uint32_t)w[1], (uint32_t)w[2], (uint32_t)w[3], (uint32_t)w[4],
                          (uint32_t)w[5]}, 0};
            sl_rng fr = {&fixed6_type, &st, 0};
            double got = !strcmp(kind, "f64") ? sl_rng_uniform_f64_stdcxx(&fr, rule)
                                              : (double)sl_rng_uniform_f32_stdcxx(&fr, rule);
            cr_assert(got == strtod(hex, NULL) && st.i == calls, "%s: %s: samplab %a after %d words", what, line,
                      got, st.i);
            n.canon++;
        }
    }
    if (cur != 0xFFFFFFFFu)
        sl_rng_release(&r);
    return n;
}

Test(replay_pipeline, llamacpp_uniform_equals_libstdcxx)
{
    char *host = sl_test_oracle("stdcxx_uniform"), *sid = sl_test_slurp("data/golden/current/stdcxx_uniform.txt");
    cr_assert_not_null(host, "no libstdc++ transcript: run through make test");
    cr_assert_not_null(sid);
    /* the rule by the compiler: a libstdc++ of GCC 15 or later draws a 1 again */
    char *h2 = strdup(host), *s2 = strdup(sid);
    transcript a = check_transcript(host, SL_STDCXX_CLAMP, "this machine");
    transcript b = check_transcript(sid, SL_STDCXX_REDRAW, "Debian sid");
    cr_assert(a.gcc <= 14 && b.gcc >= 15, "the transcripts' compilers: GCC %zu here, %zu in sid", a.gcc, b.gcc);
    cr_assert(a.seeds >= 300 && a.corners >= 5 && a.canon >= 14, "seeds %zu corners %zu canon %zu", a.seeds,
              a.corners, a.canon);
    cr_assert(b.seeds >= 300 && b.canon >= 14, "sid: seeds %zu canon %zu", b.seeds, b.canon);
    /* power: the two rules are not the same on the edges (each transcript fails under the other's rule) */
    size_t differ = 0;
    char *sa = NULL, *sb = NULL;
    for (char *x = strtok_r(h2, "\n", &sa), *y = strtok_r(s2, "\n", &sb); x && y;
         x = strtok_r(NULL, "\n", &sa), y = strtok_r(NULL, "\n", &sb))
        differ += !strncmp(x, "canon ", 6) && strcmp(x, y);
    cr_assert_geq(differ, 5, "only %zu canonical edges differ between GCC 12 and GCC 16", differ);
    free(h2);
    free(s2);
    free(host);
    free(sid);
}

Test(replay_pipeline, llamacpp_dist_picks_in_array_order)
{
    /* array sorted by top-k: ids 2 (p .5), 0 (.3), 1 (.2) */
    sl_logits_cand d[3] = {{2, logf(0.5f), 0}, {0, logf(0.3f), 0}, {1, logf(0.2f), 0}};
    sl_logits_llama_array a = {d, 3, 1};
    cr_assert_eq(sl_logits_llama_dist(&a, 0.0), 0, "u = 0 picks the first entry");
    cr_assert_eq(sl_logits_llama_dist(&a, 0.49), 0);
    cr_assert_eq(sl_logits_llama_dist(&a, 0.51), 1, "u = 0.51 falls in the second entry (id 0)");
    cr_assert_eq(sl_logits_llama_dist(&a, 0.81), 2);
    /* the same probabilities in id order give different tokens for the same u */
    sl_logits_cand e[3] = {{0, logf(0.3f), 0}, {1, logf(0.2f), 0}, {2, logf(0.5f), 0}};
    sl_logits_llama_array b = {e, 3, 0};
    cr_assert_eq(b.data[sl_logits_llama_dist(&b, 0.51)].id, 2);
    cr_assert_eq(a.data[sl_logits_llama_dist(&a, 0.51)].id, 0);
}

Test(replay_pipeline, llamacpp_framework_draws)
{
    sl_vec v;
    cr_assert_eq(sl_base_vec_alloc(&v, 4, "inline", NULL), 0);
    const double x[4] = {1, 2, 3, 0.5};
    for (int i = 0; i < 4; i++) {
        v.d[i] = x[i];
        v.f[i] = (float)x[i];
    }
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.logits = &v;
    o.has_seed = 1;
    o.seed.lo = 42;
    o.n = 20000;
    o.k = 1;
    /* the chain's default stages off (top-k 40 and top-p 0.95 would sort the array), T 1 */
    o.cfg.has_temperature = o.cfg.has_top_k = o.cfg.has_top_p = o.cfg.has_min_p = 1;
    o.cfg.temperature = 1.0, o.cfg.top_k = 0, o.cfg.top_p = 1.0, o.cfg.min_p = 0;
    sl_fw_result res;
    sl_error e;
    cr_assert_eq(sl_fw_run(&sl_fw_llamacpp_type, &o, &res, &e), 0, "%s", e.msg);
    cr_assert_eq(res.words, 2 * 20000u, "two mt19937 words per draw");
    cr_assert_str_eq(res.rng_name, "std-mt19937");
    /* replay by hand: std::mt19937(42), uniform, walk ids in order (no filter sorted the array) */
    sl_rng r;
    sl_seed sd = {.lo = 42};
    cr_assert_eq(sl_rng_init(&r, &sl_rng_mt19937_type, &sd, &e), 0);
    double p[4], s = 0;
    for (int i = 0; i < 4; i++)
        s += p[i] = expf((float)x[i] - 3.0f);
    for (size_t t = 0; t < 50; t++) {
        double u = sl_rng_uniform_f64_stdcxx(&r, SL_STDCXX_CLAMP), acc = 0;
        long want = 3;
        for (int i = 0; i < 4; i++) {
            acc += (float)p[i];
            if (acc >= s * u) {
                want = i;
                break;
            }
        }
        cr_assert_eq(res.tokens[t], want, "draw %zu: %ld expected %ld", t, res.tokens[t], want);
    }
    sl_rng_release(&r);
    /* frequencies: 20000 draws, each within 5 sigma of softmax */
    long cnt[4] = {0};
    for (size_t t = 0; t < 20000; t++)
        cnt[res.tokens[t]]++;
    for (int i = 0; i < 4; i++) {
        double q = p[i] / s, sd5 = 5 * sqrt(q * (1 - q) / 20000);
        cr_assert(fabs(cnt[i] / 20000.0 - q) < sd5, "id %d: freq %.4f p %.4f", i, cnt[i] / 20000.0, q);
    }
    sl_fw_result_free(&res);
    /* one candidate left (top-k 1): llama.cpp 0.7.0 still draws one uniform a step;
     * the pr15704 line chose it without a draw */
    o.cfg.has_top_k = 1;
    o.cfg.top_k = 1;
    o.n = 10;
    cr_assert_eq(sl_fw_run(&sl_fw_llamacpp_type, &o, &res, &e), 0);
    cr_assert_eq(res.words, 20, "0.7.0: a single candidate still takes a uniform (2 words)");
    cr_assert_eq(res.tokens[0], 2);
    cr_assert_str_eq(res.version, "llama.cpp 0.7.0 (build b11669)");
    sl_fw_result_free(&res);
    o.variant = "pr15704";
    cr_assert_eq(sl_fw_run(&sl_fw_llamacpp_type, &o, &res, &e), 0);
    cr_assert_eq(res.words, 0, "pr15704: a single candidate is chosen without a draw");
    cr_assert_eq(res.tokens[0], 2);
    sl_fw_result_free(&res);
    /* temperature 0: 0.7.0's common_sampler ends in greedy, no word; pr15704 ran dist */
    o.cfg.top_k = 0;
    o.cfg.has_temperature = 1;
    o.cfg.temperature = 0;
    o.variant = NULL;
    cr_assert_eq(sl_fw_run(&sl_fw_llamacpp_type, &o, &res, &e), 0);
    cr_assert_eq(res.words, 0, "0.7.0 greedy at T = 0 draws nothing");
    cr_assert_eq(res.tokens[0], 2);
    sl_fw_result_free(&res);
    o.variant = "pr15704";
    cr_assert_eq(sl_fw_run(&sl_fw_llamacpp_type, &o, &res, &e), 0);
    cr_assert_eq(res.words, 20, "pr15704 runs dist at T = 0 (2 words a step)");
    cr_assert_eq(res.tokens[0], 2);
    sl_fw_result_free(&res);
    o.variant = NULL;
    o.cfg.has_temperature = 0;
    /* no seed: llama.cpp's default means a random seed */
    o.has_seed = 0;
    cr_assert_eq(sl_fw_run(&sl_fw_llamacpp_type, &o, &res, &e), SL_EINVAL);
    sl_base_vec_free(&v);
}

/* Cross-check with the exact audit of the dist draw type (draw/llama_dist.c:
 * running sums and a binary search), against logits/llamacpp.c's own linear
 * scan (sl_logits_llama_dist), a separate implementation: the audit counts, over all 2^64 word pairs (w1, w2), how many pick
 * each token. Those counts put token i on the word-pair range [lo_i, lo_i +
 * count_i) (u is nondecreasing in W = w2·2^32 + w1); at each boundary this
 * emulation's uniform and pick must switch token exactly there. */
static long pick_at(const sl_logits_cand *base, size_t V, sl_u128 W)
{
    fixed2 st = {{(uint32_t)W, (uint32_t)(W >> 32)}, 0};
    sl_rng fr = {&fixed2_type, &st, 0};
    double u = sl_rng_uniform_f64_stdcxx(&fr, SL_STDCXX_CLAMP);
    sl_logits_cand d[16];
    memcpy(d, base, V * sizeof *d);
    sl_logits_llama_array a = {d, V, 0};
    return d[sl_logits_llama_dist(&a, u)].id;
}

Test(replay_pipeline, llamacpp_dist_boundaries_match_exact_audit)
{
    const float lg[8] = {4.0f, 3.3f, 2.9f, 1.2f, 0.4f, -0.3f, -1.0f, -2.2f};
    sl_stat_exact_input in;
    memset(&in, 0, sizeof in);
    double d[8];
    for (int i = 0; i < 8; i++)
        d[i] = lg[i];
    in.V = 8;
    in.d = d;
    in.f = lg;
    in.logits_f = lg;
    in.source = "weather";
    sl_stat_exact_result res;
    sl_error e;
    cr_assert_eq(sl_stat_exact_run(&sl_draw_llama_dist_exact, &in, &res, &e), 0, "%s", e.msg);
    cr_assert_eq(res.bits, 64);
    sl_logits_cand base[8];
    for (int i = 0; i < 8; i++)
        base[i] = (sl_logits_cand){i, lg[i], 0};
    sl_u128 lo = 0;
    long prev = -1;
    for (int i = 0; i < 8; i++) {
        if (!res.count[i])
            continue;
        cr_assert_eq(pick_at(base, 8, lo), i, "first word pair of token %d", i);
        if (prev >= 0)
            cr_assert_eq(pick_at(base, 8, lo - 1), prev, "last word pair before token %d", i);
        lo += res.count[i];
        prev = i;
    }
    cr_assert(lo == ((sl_u128)1 << 64), "counts cover all 2^64 word pairs");
    cr_assert_eq(pick_at(base, 8, lo - 1), prev);
    sl_stat_exact_result_free(&res);
}

/* draw --framework llamacpp --n N with penalties is N steps of one sampler: each
 * drawn token joins the history that the frequency/presence/repetition penalties
 * read over the last --penalty-last-n ids (llama_sampler_sample accepts it). The
 * replay by hand runs the chain on context + the tokens drawn so far. */
Test(replay_pipeline, llamacpp_draw_accepts_each_token)
{
    static const double x[8] = {4.0, 3.3, 2.9, 1.2, 0.4, -0.3, -1.0, -2.2};
    sl_vec v;
    sl_error e;
    cr_assert_eq(sl_base_vec_alloc(&v, 8, "weather", &e), 0);
    for (int i = 0; i < 8; i++)
        v.d[i] = v.f[i] = (float)x[i];
    long ctx[1] = {0};
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.logits = &v;
    o.has_seed = 1;
    o.seed.lo = 1;
    o.n = 40;
    o.k = 1;
    o.cfg.has_penalty = 1, o.cfg.penalty = 1.5;
    o.cfg.has_freq = 1, o.cfg.freq = 0.5;
    o.cfg.has_presence = 1, o.cfg.presence = 0.25;
    o.cfg.has_last_n = 1, o.cfg.last_n = 3;
    o.cfg.context = ctx, o.cfg.context_n = 1;
    sl_fw_result res;
    cr_assert_eq(sl_fw_run(&sl_fw_llamacpp_type, &o, &res, &e), 0, "%s", e.msg);
    sl_rng r;
    sl_seed sd = {.lo = 1};
    cr_assert_eq(sl_rng_init(&r, &sl_rng_mt19937_type, &sd, &e), 0);
    long hist[41] = {0};
    size_t nh = 1, changed = 0;
    for (size_t t = 0; t < 40; t++) {
        sl_logits_cfg c = o.cfg;
        c.context = hist, c.context_n = nh;
        sl_logits_llama_array a;
        cr_assert_eq(sl_logits_llama_chain(v.f, 8, &c, &a, NULL, &e), 0, "%s", e.msg);
        long want = a.data[sl_logits_llama_dist(&a, sl_rng_uniform_f64_stdcxx(&r, SL_STDCXX_CLAMP))].id;
        free(a.data);
        cr_assert_eq(res.tokens[t], want, "step %zu: %ld, by hand %ld", t, res.tokens[t], want);
        changed += t && res.tokens[t] != res.tokens[t - 1];
        hist[nh++] = want;
    }
    cr_assert_eq(res.words, r.words, "2 words a step");
    cr_assert(changed > 5, "the penalties should move the draws (%zu changes)", changed);
    sl_rng_release(&r);
    sl_fw_result_free(&res);
    sl_base_vec_free(&v);
}
