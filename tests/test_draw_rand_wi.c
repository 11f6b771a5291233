/* test_draw_rand_wi.c — the candle/rand emulation (draw/rand_wi.c, its 0.8
 * and 0.10 lines) against the real Rust rand in three data sets: Debian 12's
 * rand 0.8.5 (data/golden/rand_{wi,fuzz,candle}.txt, analysis/golden/rand_golden.sh;
 * tests/test_framework_candle.c also replays them strictly, case by case) and today's:
 * data/golden/current/rand_{wi,fuzz,sub,candle}_{0.8.8,0.10.3}.txt, made in a
 * Debian sid chroot by analysis/golden/current/rand_golden.sh (same record
 * formats as data/golden/rand_*.txt, plus the subnormal-total cases of
 * rand_sub), and rand_raw_{0.8.8,0.10.3}.txt, which must equal rand 0.8.5's
 * rand_raw.txt line for line beyond their headers. The orders and
 * distributions (`sel`, `final` records) are counted, not replayed:
 * test_framework_candle.c replays the 0.8.5 ones, and the chroot's
 * rand_select_*.txt files are read by no test.
 *
 * Every record is replayed through the emulation's line for its release (0.8
 * for 0.8.8, 0.10 for 0.10.3), compared softly and tallied as a match or a
 * difference, in four classes: "subnormal" (the WeightedIndex total is a positive
 * subnormal: rand >= 0.9 builds Uniform::new(0, total) keeping scale = total
 * where 0.8 shrinks it, UniformFloat::new_bounded vs 0.8's ge_mask loop),
 * "errname" (rand 0.9 renamed the WeightedError variants and turned the
 * range-overflow panic into Error::Overflow), "known" (rand_sub's totals in
 * [2^-127, 2^-126], which once told a wrong max_rand apart), "other". rand 0.8.8
 * must match everywhere; rand 0.10.3 may differ only in "errname"; each run must
 * compare 2,159 records. */
#include <criterion/criterion.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>

#include "helpers.h"
#include "rand_golden.h"

/* ---------------------------------------------------------------- a soft replay */

enum { C_SUB, C_ERRNAME, C_KNOWN, C_OTHER, NCLASS };
static const char *class_name[NCLASS] = {"subnormal", "errname", "known", "other"};

/* Totals in [2^-127, 2^-126] (rand_sub's names) once told a wrong max_rand apart
 * (1 - 2^-24 where rand takes 1 - 2^-23, fixed in draw/rand_wi.c); they stay a
 * class of their own so a regression there is named. */
static const char *known_divergence[] = {"max_sub_0", "half_half_normal", "below_normal", "normal_1e-38_1e-39_0",
                                         "min_normal_0"};

static int is_known(const char *path, const char *name)
{
    if (!strstr(path, "rand_sub_"))
        return 0;
    for (size_t i = 0; i < sizeof known_divergence / sizeof *known_divergence; i++)
        if (!strcmp(name, known_divergence[i]))
            return 1;
    return 0;
}

typedef struct {
    size_t match[NCLASS], differ[NCLASS];
    size_t records;
} score;

static void tally(score *s, int cls, int ok, const char *path, const char *what)
{
    s->records++;
    if (ok)
        s->match[cls]++;
    else {
        s->differ[cls]++;
        if (s->differ[cls] <= 3)
            cr_log_info("%s: %s differs (%s)", path, what, class_name[cls]);
    }
}

/* the rand release the emulation replays as (sl_draw_rand_wi_new's version) */
static int rand_version = 8;

static int subnormal_total(float total)
{
    return total > 0.0f && total < FLT_MIN;
}

/* one candle LogitsProcessor run, as test_framework_candle.c's lp_run */
static int cr_lp(const float *logits, size_t V, const sl_logits_candle_cfg *cfg, uint64_t seed, size_t n, long *tok,
                 size_t *ntok, uint64_t *words, char *status, size_t sn, float *subtotal)
{
    float *w = malloc((V ? V : 1) * sizeof *w);
    size_t *order = malloc((V ? V : 1) * sizeof *order), m = 0;
    sl_error err;
    cr_assert_eq(sl_logits_candle_process(logits, V, cfg, w, order, &m, &err), 0, "%s", err.msg);
    snprintf(status, sn, "ok");
    *ntok = 0;
    *words = 0;
    *subtotal = 1.0f;
    if (cfg->sampling == SL_CANDLE_ARGMAX) {
        for (size_t i = 0; i < n; i++)
            tok[i] = (long)order[0];
        *ntok = n;
    } else {
        sl_draw_rand_wi wi;
        sl_draw_rand_status st = sl_draw_rand_wi_new(&wi, w, m, rand_version, NULL);
        if (st == SL_RAND_PANIC_RANGE)
            snprintf(status, sn, "panic Uniform::new: range overflow");
        else if (st)
            snprintf(status, sn, "err %s", rg_status(st));
        else {
            *subtotal = wi.total;
            sl_rng r = rg_stdrng(seed);
            for (size_t i = 0; i < n; i++)
                tok[i] = (long)order[sl_draw_rand_wi_sample(&wi, &r)];
            *ntok = n;
            *words = r.words;
            sl_rng_release(&r);
            sl_draw_rand_wi_free(&wi);
        }
    }
    free(w);
    free(order);
    return 0;
}

static void replay_soft(const char *path, score *sc)
{
    char *t = sl_test_slurp(path);
    cr_assert_not_null(t, "%s missing", path);
    static rg_book bk;
    memset(&bk, 0, sizeof bk);
    sl_draw_rand_wi wi;
    int have_wi = 0, cls = C_OTHER;
    const char *st_name = "ok";
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *p = line;
        char *kind = rg_tok(&p);
        if (!strcmp(kind, "vec") || !strcmp(kind, "gen")) {
            char *name = rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            float *x;
            if (!strcmp(kind, "vec")) {
                x = rg_hex_floats(&p, n);
            } else {
                x = rg_gen_vector(name, n);
                uint64_t h = strtoull(p, &p, 16);
                cr_assert_eq(gg_fnv_floats(x, n), h, "%s: generated vector differs from rand_golden's", name);
            }
            rg_named *v = rg_put(&bk, name, x, n);
            if (have_wi)
                sl_draw_rand_wi_free(&wi);
            sl_draw_rand_status st = sl_draw_rand_wi_new(&wi, v->x, v->n, rand_version, NULL);
            have_wi = st == SL_RAND_OK;
            st_name = rg_status(st);
            cls = is_known(path, name) ? C_KNOWN : have_wi && subnormal_total(wi.total) ? C_SUB : C_OTHER;
        } else if (!strcmp(kind, "table")) {
            char *name = rg_tok(&p);
            size_t ncum = strtoul(p, &p, 10);
            uint64_t h = strtoull(p, &p, 16);
            uint32_t total = (uint32_t)strtoul(p, &p, 16), scale = (uint32_t)strtoul(p, &p, 16);
            int ok = have_wi && wi.n - 1 == ncum && gg_fnv_floats(wi.cum, wi.n - 1) == h && gg_fbits(wi.total) == total &&
                     gg_fbits(wi.scale) == scale;
            if (!ok && getenv("SL_DEBUG_CURRENT"))
                cr_log_info("%s table: ours n %zu total %08x scale %08x cum %016" PRIx64 "; rand n %zu total %08x "
                            "scale %08x cum %016" PRIx64,
                            name, have_wi ? wi.n - 1 : 0, have_wi ? gg_fbits(wi.total) : 0,
                            have_wi ? gg_fbits(wi.scale) : 0, have_wi ? gg_fnv_floats(wi.cum, wi.n - 1) : 0, ncum, total,
                            scale, h);
            tally(sc, have_wi ? cls : C_ERRNAME, ok, path, name);
        } else if (!strcmp(kind, "draw")) {
            char *name = rg_tok(&p);
            uint64_t seed = strtoull(p, &p, 10);
            size_t n = strtoul(p, &p, 10);
            int ok = have_wi;
            if (have_wi) {
                sl_rng r = rg_stdrng(seed);
                for (size_t i = 0; i < n; i++)
                    ok &= sl_draw_rand_wi_sample(&wi, &r) == strtoul(p, &p, 10);
                unsigned long long words = strtoull(strstr(p, "words") + 5, &p, 10);
                uint32_t next = (uint32_t)strtoul(strstr(p, "next") + 4, NULL, 16);
                ok &= r.words == words && (uint32_t)sl_rng_next(&r) == next;
                sl_rng_release(&r);
            }
            tally(sc, cls, ok, path, name);
        } else if (!strcmp(kind, "err") || !strcmp(kind, "panic")) {
            char *name = rg_tok(&p);
            const char *want = !strcmp(kind, "panic") ? "panic" : p;
            tally(sc, C_ERRNAME, !strcmp(st_name, want), path, name);
        } else if (!strcmp(kind, "logits")) {
            char *name = rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            rg_put(&bk, name, rg_hex_floats(&p, n), n);
        } else if (!strcmp(kind, "genlogits")) {
            char *name = rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            uint64_t gs = strtoull(p, &p, 10), h = strtoull(p, &p, 16);
            float *x = gg_logits(gs, n);
            cr_assert_eq(gg_fnv_floats(x, n), h, "%s: generated logits differ", name);
            rg_put(&bk, name, x, n);
        } else if (!strcmp(kind, "lp")) {
            char *name = rg_tok(&p);
            sl_logits_candle_cfg cfg;
            memset(&cfg, 0, sizeof cfg);
            char *mode = rg_tok(&p);
            cfg.sampling = !strcmp(mode, "argmax") ? SL_CANDLE_ARGMAX
                           : !strcmp(mode, "all")  ? SL_CANDLE_ALL
                           : !strcmp(mode, "topk") ? SL_CANDLE_TOPK
                           : !strcmp(mode, "topp") ? SL_CANDLE_TOPP
                                                   : SL_CANDLE_TOPK_TOPP;
            for (;;) {
                char *tk = rg_tok(&p);
                if (!strncmp(tk, "K=", 2))
                    cfg.k = strtoul(tk + 2, NULL, 10);
                else if (!strncmp(tk, "P=", 2))
                    cfg.p = strtod(tk + 2, NULL);
                else if (!strncmp(tk, "T=", 2))
                    cfg.temperature = strtod(tk + 2, NULL);
                else if (!strncmp(tk, "simd=", 5) || !*tk) {
                    cfg.simd_sum = tk[5] == '1';
                    break;
                }
            }
            rg_tok(&p);
            uint64_t seed = strtoull(p, &p, 10);
            rg_tok(&p);
            size_t n = strtoul(p, &p, 10);
            rg_tok(&p);
            rg_named *v = rg_get(&bk, name);
            long *tok = malloc((n ? n : 1) * sizeof *tok);
            size_t ntok;
            uint64_t words;
            char status[96];
            float total;
            cr_lp(v->x, v->n, &cfg, seed, n, tok, &ntok, &words, status, sizeof status, &total);
            int ok = 1;
            size_t i = 0;
            for (;; i++) {
                char *tk = rg_tok(&p);
                if (!strcmp(tk, "|") || !*tk)
                    break;
                ok &= i < ntok && tok[i] == strtol(tk, NULL, 10);
            }
            ok &= i == ntok;
            rg_tok(&p);
            ok &= words == strtoull(rg_tok(&p), NULL, 10);
            while (*p == ' ')
                p++;
            int st_ok = !strcmp(status, p);
            ok &= st_ok;
            tally(sc, !st_ok && strcmp(status, "ok") ? C_ERRNAME : subnormal_total(total) ? C_SUB : C_OTHER, ok, path,
                  name);
            free(tok);
        } else if (!strcmp(kind, "final") || !strcmp(kind, "sel") || !strcmp(kind, "selp")) {
            /* orders and distributions: unchanged between rand versions (std's
             * select_nth_unstable_by, candle's softmax), replayed by
             * test_framework_candle.c on the 0.8.5 files; counted here only */
            sc->records++;
        } else {
            cr_assert_fail("%s: unknown record '%s'", path, kind);
        }
    }
    if (have_wi)
        sl_draw_rand_wi_free(&wi);
    rg_free(&bk);
    free(t);
}

/* ver NULL: Debian 12's rand 0.8.5 files (no rand_sub there) */
static void run_version(const char *ver, score *total)
{
    rand_version = !ver || !strncmp(ver, "0.8", 3) ? 8 : 10;
    static const char *modes[] = {"wi", "fuzz", "sub", "candle"};
    memset(total, 0, sizeof *total);
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        char path[128];
        if (!ver && !strcmp(modes[m], "sub"))
            continue;
        if (ver)
            snprintf(path, sizeof path, "data/golden/current/rand_%s_%s.txt", modes[m], ver);
        else
            snprintf(path, sizeof path, "data/golden/rand_%s.txt", modes[m]);
        score s = {0};
        replay_soft(path, &s);
        cr_log_info("rand %s %-6s: subnormal %zu match %zu differ, errname %zu/%zu, known %zu/%zu, other %zu/%zu",
                    ver ? ver : "0.8.5", modes[m], s.match[C_SUB], s.differ[C_SUB], s.match[C_ERRNAME], s.differ[C_ERRNAME],
                    s.match[C_KNOWN], s.differ[C_KNOWN], s.match[C_OTHER], s.differ[C_OTHER]);
        for (int c = 0; c < NCLASS; c++) {
            total->match[c] += s.match[c];
            total->differ[c] += s.differ[c];
        }
        total->records += s.records;
    }
}

/* raw words are compared with the 0.8.5 file line for line: ChaCha12 keyed by
 * the PCG32 expansion of seed_from_u64 in every version */
static void same_as_085(const char *cur)
{
    char *a = sl_test_slurp("data/golden/rand_raw.txt"), *b = sl_test_slurp(cur);
    cr_assert(a && b, "rand_raw files missing");
    char *pa = strchr(a, '\n'), *pb = b;
    for (int k = 0; k < 2; k++) /* two header lines in the current files */
        pb = strchr(pb, '\n') + 1;
    cr_assert_str_eq(pa + 1, pb, "%s differs from rand_raw.txt (rand 0.8.5) beyond its header", cur);
    free(a);
    free(b);
}

static size_t sum(const size_t *x)
{
    size_t t = 0;
    for (int c = 0; c < NCLASS; c++)
        t += x[c];
    return t;
}

Test(replay_rand_wi, rand_085_debian12_matches)
{
    score s;
    run_version(NULL, &s);
    size_t m = sum(s.match), d = sum(s.differ);
    cr_log_info("rand 0.8.5: %zu records, %zu compared, %zu match, %zu differ", s.records, m + d, m, d);
    cr_assert_eq(d, 0, "rand 0.8.5: %zu records differ from the emulation", d);
    cr_assert(m + d == 1079, "rand 0.8.5: %zu records compared: golden files changed?", m + d);
}

Test(replay_rand_wi, rand_088_matches)
{
    score s;
    run_version("0.8.8", &s);
    size_t m = sum(s.match), d = sum(s.differ);
    cr_log_info("rand 0.8.8: %zu records, %zu compared, %zu match, %zu differ (%zu of them the known max_rand "
                "divergence)",
                s.records, m + d, m, d, s.differ[C_KNOWN]);
    cr_assert_eq(d, 0, "rand 0.8.8: %zu records differ from the emulation", d);
    cr_assert(m + d == 2159, "rand 0.8.8: %zu records compared: golden files changed?", m + d);
    same_as_085("data/golden/current/rand_raw_0.8.8.txt");
}

Test(replay_rand_wi, rand_0103_matches_but_for_error_names)
{
    score s;
    run_version("0.10.3", &s);
    size_t m = sum(s.match), d = sum(s.differ);
    cr_log_info("rand 0.10.3: %zu compared, %zu match, %zu differ: subnormal total %zu (of %zu), error names %zu (of "
                "%zu), known divergence %zu, other %zu (of %zu)",
                m + d, m, d, s.differ[C_SUB], s.match[C_SUB] + s.differ[C_SUB], s.differ[C_ERRNAME],
                s.match[C_ERRNAME] + s.differ[C_ERRNAME], s.differ[C_KNOWN], s.differ[C_OTHER],
                s.match[C_OTHER] + s.differ[C_OTHER]);
    cr_assert_eq(s.differ[C_OTHER], 0, "rand 0.10.3: %zu records with a normal total differ", s.differ[C_OTHER]);
    cr_assert_eq(s.differ[C_SUB] + s.differ[C_KNOWN], 0, "rand 0.10.3 (version 10): %zu subnormal-total records differ",
                 s.differ[C_SUB] + s.differ[C_KNOWN]);
    cr_assert(m + d == 2159, "rand 0.10.3: %zu records compared: golden files changed?", m + d);
    same_as_085("data/golden/current/rand_raw_0.10.3.txt");
}
