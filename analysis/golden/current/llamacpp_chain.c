/* llamacpp_chain.c — golden runs of llama.cpp's sampler chain through its C
 * API (libllama, Debian sid llama.cpp 0.7.0), without a model.
 *
 * Each case builds a llama_token_data_array {id i, logit x_i, p 0} from given
 * logits, a chain in common_sampler_init's order (common/sampling.cpp with
 * common_params_sampling's default sampler list, as llama-completion prints
 * it): penalties -> top-n-sigma(-1, off) -> top-k -> typical -> top-p ->
 * min-p -> xtc(p 0, off) -> temp-ext(T, 0, 1) -> dist(seed), with greedy
 * instead of dist at T <= 0 (dry is left out: it needs a vocabulary and is off
 * by default). Per step: llama_sampler_apply, the token data[selected].id,
 * then llama_sampler_accept(chain, token) — what llama_sampler_sample does
 * after reading the logits — unless the case says accept=0.
 *
 * Words drawn: the dist sampler's std::mt19937 is private, so before every
 * step (and after the last) the chain is cloned (llama_sampler_clone copies the
 * engine) and the clone's dist sampler is applied twice to a probe array of
 * 65536 equal logits. Its picks are matched against this program's own
 * MT19937 stream: the probe position is the smallest word offset k at which
 * the picks equal those of uniforms u(k), u(k+2), u = libstdc++'s
 * generate_canonical<double, 53> over two 32-bit words, (w1 + w2 2^32) / 2^64.
 * The words of a step are the difference of two positions.
 *
 * Output (one record per line, fields separated by single spaces; floats
 * %.9g; '#' lines are comments):
 *   vec NAME V x_0 ... x_{V-1}          an inline vector (float32, %.9g)
 *   gen NAME V SEED fnv1a64             a generated vector: gen_logits(SEED, V)
 *   case ID VEC PERSTEP seed=S temp=T top_k=K top_p=P min_p=M typical=Y
 *        last_n=L repeat=R freq=F present=Q min_keep=MK accept=A steps=N
 *   chain ID NAME1,NAME2,...            llama_sampler_name of each member
 *   tokens ID t_1 ... t_N               the drawn token ids
 *   ncand ID c_1 ... c_N                candidates left when the chain ran
 *                                       (cur_p.size after apply)
 *   words ID w_1 ... w_N total W        mt19937 words per step ('-' greedy)
 *   order ID NAMES                      (`chain orders` only) the case's stage order as --samplers
 *                                       names it, '-' for none; the chain is build_order_chain's
 *   kept ID n_1:h_1 ... n_N:h_N         (`chain orders` only) candidates left above -inf after
 *                                       apply and the fnv1a64 of their sorted ids (kept_hash)
 *   seed ... / probe ...                LLAMA_DEFAULT_SEED and probe checks
 * PERSTEP 0: every step uses VEC; PERSTEP 1: step t (from 0) uses
 * gen_logits(SEED_of_VEC + t, V). gen_logits(seed, n): splitmix64(seed), per
 * entry u = (next >> 40) * 2^-24, x = u * 20 - 10 in float, then x += 12 when
 * next % 1000 == 0 (analysis/golden/rand_golden's generator). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ggml-backend.h>
#include <llama.h>

#include "llamacpp_probe.h"

#ifndef LLAMA_PKG_VERSION
#define LLAMA_PKG_VERSION "unknown" /* the build passes pkg-config --modversion llama */
#endif

/* build information exported by libllama-common (common/build-info.cpp) */
extern int LLAMA_BUILD_NUMBER;
extern const char *LLAMA_COMMIT;
extern const char *LLAMA_COMPILER;
extern const char *LLAMA_BUILD_TARGET;

typedef struct {
    const char *name;
    size_t V;
    uint64_t gseed; /* 0: inline */
    float *x;
} vec;

static int case_id;
static long n_nomatch;

static void run_case(const vec *v, int perstep, const cfg *c, uint32_t seed, int accept, int steps)
{
    int id = case_id++;
    int dist_idx;
    struct llama_sampler *ch = build_chain(c, v->V, seed, &dist_idx);
    printf("case %d %s %d seed=%" PRIu32 " temp=%.9g top_k=%d top_p=%.9g min_p=%.9g typical=%.9g last_n=%d "
           "repeat=%.9g freq=%.9g present=%.9g min_keep=%d accept=%d steps=%d\n",
           id, v->name, perstep, seed, c->temp, c->top_k, c->top_p, c->min_p, c->typical, c->last_n, c->repeat,
           c->freq, c->present, c->min_keep, accept, steps);
    if (c->order) /* the orders run: the stages as --samplers names them ('-': none) on a line of their own */
        printf("order %d %s\n", id, *c->order ? c->order : "-");
    printf("chain %d", id);
    for (int i = 0; i < llama_sampler_chain_n(ch); i++)
        printf("%c%s", i ? ',' : ' ', llama_sampler_name(llama_sampler_chain_get(ch, i)));
    printf("\n");
    if (dist_idx >= 0)
        ref_stream(seed);
    llama_token_data *d = malloc(v->V * sizeof *d);
    float *x = malloc(v->V * sizeof *x);
    int *tok = malloc((size_t)steps * sizeof *tok);
    long *nc = malloc((size_t)steps * sizeof *nc);
    long *pos = malloc(((size_t)steps + 1) * sizeof *pos);
    int *ids = malloc(v->V * sizeof *ids);
    size_t *nk = malloc((size_t)steps * sizeof *nk);
    uint64_t *kh = malloc((size_t)steps * sizeof *kh);
    if (!d || !x || !tok || !nc || !pos || !ids || !nk || !kh) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (int t = 0; t < steps; t++) {
        if (perstep)
            gen_logits(v->gseed + (uint64_t)t, v->V, x);
        else
            memcpy(x, v->x, v->V * sizeof *x);
        for (size_t i = 0; i < v->V; i++)
            d[i] = (llama_token_data){(llama_token)i, x[i], 0.0f};
        llama_token_data_array a = {d, v->V, -1, false};
        if (dist_idx >= 0)
            pos[t] = position(ch, dist_idx, t ? (pos[t - 1] < 0 ? 0 : pos[t - 1]) : 0);
        llama_sampler_apply(ch, &a);
        if (a.selected < 0 || (size_t)a.selected >= a.size) {
            fprintf(stderr, "case %d step %d: no token selected\n", id, t);
            exit(1);
        }
        tok[t] = a.data[a.selected].id;
        nc[t] = (long)a.size;
        kh[t] = kept_hash(&a, ids, &nk[t]);
        if (accept)
            llama_sampler_accept(ch, tok[t]);
    }
    if (dist_idx >= 0)
        pos[steps] = position(ch, dist_idx, pos[steps - 1] < 0 ? 0 : pos[steps - 1]);
    printf("tokens %d", id);
    for (int t = 0; t < steps; t++)
        printf(" %d", tok[t]);
    printf("\nncand %d", id);
    for (int t = 0; t < steps; t++)
        printf(" %ld", nc[t]);
    if (c->order) {
        printf("\nkept %d", id);
        for (int t = 0; t < steps; t++)
            printf(" %zu:%016" PRIx64, nk[t], kh[t]);
    }
    printf("\nwords %d", id);
    for (int t = 0; t < steps; t++) {
        if (dist_idx < 0)
            printf(" -");
        else if (pos[t] < 0 || pos[t + 1] < 0) {
            printf(" ?");
            n_nomatch++;
        } else
            printf(" %ld", pos[t + 1] - pos[t]);
    }
    if (dist_idx < 0)
        printf(" total -\n");
    else if (pos[0] != 0 || pos[steps] < 0) {
        printf(" total ?\n");
        n_nomatch++;
    } else
        printf(" total %ld\n", pos[steps]);
    llama_sampler_free(ch);
    free(d);
    free(x);
    free(tok);
    free(nc);
    free(pos);
    free(ids);
    free(nk);
    free(kh);
}

/* ------------------------------------------------------------ seeds */

/* LLAMA_DEFAULT_SEED: dist draws its seed from std::random_device; the seed in
 * use is llama_sampler_get_seed (on the dist sampler or on the chain). Only
 * checks are printed (the seed itself changes every run: stderr). */
static void default_seed_checks(void)
{
    struct llama_sampler *d1 = llama_sampler_init_dist(LLAMA_DEFAULT_SEED);
    struct llama_sampler *d2 = llama_sampler_init_dist(LLAMA_DEFAULT_SEED);
    uint32_t s1 = llama_sampler_get_seed(d1), s2 = llama_sampler_get_seed(d2);
    struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
    llama_sampler_chain_add(ch, llama_sampler_init_dist(LLAMA_DEFAULT_SEED));
    uint32_t sc = llama_sampler_get_seed(ch);
    uint32_t sd = llama_sampler_get_seed(llama_sampler_chain_get(ch, 0));
    /* replay: a dist seeded with the reported seed draws the same tokens */
    struct llama_sampler *re = llama_sampler_init_dist(sc);
    int same = 1;
    llama_token_data a1[8], a2[8];
    for (int t = 0; t < 200; t++) {
        for (int i = 0; i < 8; i++)
            a1[i] = a2[i] = (llama_token_data){i, (float)(i % 3), 0.0f};
        llama_token_data_array x1 = {a1, 8, -1, false}, x2 = {a2, 8, -1, false};
        llama_sampler_apply(ch, &x1);
        llama_sampler_apply(re, &x2);
        same &= a1[x1.selected].id == a2[x2.selected].id;
    }
    /* reset: a dist made with LLAMA_DEFAULT_SEED draws a new random seed */
    llama_sampler_reset(d1);
    uint32_t s1r = llama_sampler_get_seed(d1);
    struct llama_sampler *fixed = llama_sampler_init_dist(42);
    llama_sampler_reset(fixed);
    uint32_t s42 = llama_sampler_get_seed(fixed);
    struct llama_sampler *gr = llama_sampler_chain_init(llama_sampler_chain_default_params());
    llama_sampler_chain_add(gr, llama_sampler_init_greedy());
    printf("seed default_is_0xffffffff %d\n", LLAMA_DEFAULT_SEED == 0xFFFFFFFFu);
    printf("seed dist_default_get_seed_not_default %d\n", s1 != LLAMA_DEFAULT_SEED && s2 != LLAMA_DEFAULT_SEED);
    printf("seed two_default_dists_differ %d\n", s1 != s2);
    printf("seed chain_get_seed_equals_dist_get_seed %d\n", sc == sd);
    printf("seed replay_with_reported_seed_equal_200 %d\n", same);
    printf("seed reset_default_dist_new_seed %d\n", s1r != s1);
    printf("seed fixed_42_get_seed_after_reset %" PRIu32 "\n", s42);
    printf("seed greedy_chain_get_seed %" PRIu32 "\n", llama_sampler_get_seed(gr));
    fprintf(stderr, "default seeds this run: %" PRIu32 " %" PRIu32 " chain %" PRIu32 " after reset %" PRIu32 "\n", s1,
            s2, sc, s1r);
    llama_sampler_free(d1);
    llama_sampler_free(d2);
    llama_sampler_free(ch);
    llama_sampler_free(re);
    llama_sampler_free(fixed);
    llama_sampler_free(gr);
}

/* probe self-check: a bare dist(seed) probed at the start is at word 0 for
 * every seed, and after one apply on a one-candidate array at word 2 */
static void probe_checks(void)
{
    uint32_t seeds[] = {0, 1, 42, 4294967294u, 7, 123456789};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        ref_stream(seeds[s]);
        struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
        llama_sampler_chain_add(ch, llama_sampler_init_dist(seeds[s]));
        long p0 = position(ch, 0, 0);
        llama_token_data one = {5, 1.5f, 0.0f};
        llama_token_data_array a = {&one, 1, -1, false};
        llama_sampler_apply(ch, &a);
        long p1 = position(ch, 0, 0);
        llama_token_data two[2] = {{0, 0.0f, 0.0f}, {1, -INFINITY, 0.0f}};
        llama_token_data_array b = {two, 2, -1, false};
        llama_sampler_apply(ch, &b);
        long p2 = position(ch, 0, 0);
        printf("probe seed=%" PRIu32 " start %ld after_one_candidate %ld after_one_finite_of_two %ld selected %d\n",
               seeds[s], p0, p1, p2, two[b.selected].id);
        llama_sampler_free(ch);
    }
}

static void quiet(enum ggml_log_level level, const char *text, void *ud)
{
    (void)level;
    (void)text;
    (void)ud;
}

/* the orders run (`chain orders`): chains in user orders, as common_sampler_init
 * builds them from --samplers, over the vectors above, each drawn token accepted */
static void run_orders(vec *vecs)
{
    static const char *const orders[] = {
        "penalties;top_k;typ_p;top_p;min_p;temperature", /* the default list without dry, top_n_sigma, xtc */
        "top_p;top_k;temperature",                       /* top-p before top-k */
        "temperature;top_k;top_p;min_p",                 /* temperature first (min-p after it) */
        "min_p;top_k;top_p;temperature",                 /* min-p before top-k */
        "top_k;top_k;temperature;temperature",           /* repeated stages */
        "top_k;top_p;min_p;temperature;penalties",       /* penalties last */
        "top_p",                                         /* a single stage */
        "",                                              /* no stage: dist alone */
        "penalties;top_k;temperature",                   /* greedy at temp <= 0 */
        "temperature;top_k",                             /* temp <= 0 not last: dist */
        "typ_p;min_p;temperature;top_p",
        "penalties;temperature;penalties;top_k",
        "min_p;temperature;min_p",
        "top_k;typ_p;temperature;typ_p;top_p",
    };
    static const cfg sets[] = {
        {0.8f, 40, 0.95f, 0.05f, 1.0f, 64, 1.0f, 0.0f, 0.0f, 0, NULL},  /* common defaults */
        {1.3f, 10, 0.8f, 0.1f, 0.9f, 16, 1.3f, 0.2f, 0.3f, 1, NULL},   /* every stage on, hot */
        {0.0f, 40, 0.95f, 0.05f, 1.0f, 64, 1.5f, 0.0f, 0.0f, 0, NULL}, /* temp 0 */
        {0.7f, 3, 0.5f, 0.3f, 0.5f, 8, 1.5f, 0.5f, 0.5f, 0, NULL},     /* tight filters, strong penalties */
        {-1.0f, 5, 0.9f, 0.0f, 1.0f, 4, 2.0f, 0.0f, 0.0f, 2, NULL},    /* temp < 0 */
    };
    static const uint32_t seeds[] = {0, 42};
    for (size_t o = 0; o < sizeof orders / sizeof *orders; o++)
        for (size_t si = 0; si < sizeof sets / sizeof *sets; si++) {
            cfg c = sets[si];
            c.order = orders[o];
            for (int k = 0; k < 2; k++) {
                run_case(&vecs[0], 0, &c, seeds[k], 1, 32);
                run_case(&vecs[4], 0, &c, seeds[k], 1, 32);
                run_case(&vecs[7], 1, &c, seeds[k], 1, 24);
                run_case(&vecs[5], 0, &c, seeds[k], 1, 24);
            }
            run_case(&vecs[6], 1, &c, seeds[(o + si) % 2], 1, 8);
        }
}

int main(int argc, char **argv)
{
    const int orders = argc > 1 && !strcmp(argv[1], "orders");
    llama_log_set(quiet, NULL);
    /* the CPU backend is a loadable module in Debian's build: load it so that
     * llama_print_system_info names the CPU features (samplers need no backend) */
    ggml_backend_load_all();
    probe_buf = malloc(PROBE_V * sizeof *probe_buf);
    if (!probe_buf)
        return 1;
    printf("# %s: llama.cpp %s build %d (commit %s, %s, %s), libllama sampler chain%s without a model\n",
           orders ? "llamacpp_orders" : "llamacpp_chain", LLAMA_PKG_VERSION, LLAMA_BUILD_NUMBER, LLAMA_COMMIT,
           LLAMA_COMPILER, LLAMA_BUILD_TARGET, orders ? "s in user orders" : "");
    printf("# system_info: %s\n", llama_print_system_info());
    printf("# this program: %s\n", "gcc " __VERSION__);
    printf("# records: vec, gen, case, %schain, tokens, ncand, %swords%s (see llamacpp_chain.c)\n",
           orders ? "order, " : "", orders ? "kept, " : "", orders ? "" : ", seed, probe");

    if (!orders) {
        default_seed_checks();
        probe_checks();
    }

    static float weather[8] = {4.0f, 3.3f, 2.9f, 1.2f, 0.4f, -0.3f, -1.0f, -2.2f};
    static float l3221[4] = {3, 2, 2, 1};
    static float one[1] = {2.5f};
    static float ties8[8] = {1, 1, 1, 1, 0, 0, 0, 0};
    vec vecs[8] = {
        {"weather", 8, 0, weather},  {"logits3221", 4, 0, l3221}, {"single", 1, 0, one},
        {"ties8", 8, 0, ties8},      {"gen32", 32, 3201, NULL},   {"gen1000", 1000, 100001, NULL},
        {"gen32000", 32000, 3200001, NULL}, {"gen256", 256, 25601, NULL},
    };
    for (int i = 0; i < 8; i++) {
        if (vecs[i].gseed) {
            vecs[i].x = malloc(vecs[i].V * sizeof(float));
            gen_logits(vecs[i].gseed, vecs[i].V, vecs[i].x);
            printf("gen %s %zu %" PRIu64 " %016" PRIx64 "\n", vecs[i].name, vecs[i].V, vecs[i].gseed,
                   fnv_f32(vecs[i].x, vecs[i].V));
        } else {
            printf("vec %s %zu", vecs[i].name, vecs[i].V);
            for (size_t k = 0; k < vecs[i].V; k++)
                printf(" %.9g", vecs[i].x[k]);
            printf("\n");
        }
    }

    if (orders) {
        run_orders(vecs);
        printf("# cases %d, unmatched probe positions %ld\n", case_id, n_nomatch);
        fprintf(stderr, "order cases %d, unmatched probe positions %ld\n", case_id, n_nomatch);
        return n_nomatch != 0;
    }

    /* settings: hand-picked ones first (defaults, one knob at a time), then
     * combinations drawn by splitmix64(777) from the value lists below */
    cfg dflt = {0.8f, 40, 0.95f, 0.05f, 1.0f, 64, 1.0f, 0.0f, 0.0f, 0, NULL};
    cfg set[96];
    int ns = 0;
    set[ns++] = dflt;
    cfg c;
#define VARY(field, val)                                                                                               \
    do {                                                                                                               \
        c = dflt;                                                                                                      \
        c.field = (val);                                                                                               \
        set[ns++] = c;                                                                                                 \
    } while (0)
    VARY(temp, 0.0f);
    VARY(temp, -1.0f);
    VARY(temp, 1.0f);
    VARY(temp, 1.5f);
    VARY(temp, 0.3f);
    VARY(top_k, 0);
    VARY(top_k, 1);
    VARY(top_k, 2);
    VARY(top_p, 1.0f);
    VARY(top_p, 0.5f);
    VARY(top_p, 0.0f);
    VARY(min_p, 0.0f);
    VARY(min_p, 0.2f);
    VARY(min_p, 1.0f);
    VARY(typical, 0.7f);
    VARY(typical, 0.2f);
    VARY(repeat, 1.3f);
    VARY(freq, 0.5f);
    VARY(present, 0.7f);
    VARY(min_keep, 3);
    c = dflt;
    c.repeat = 1.5f;
    c.last_n = 4;
    set[ns++] = c;
    c = dflt;
    c.repeat = 1.2f;
    c.freq = 0.3f;
    c.present = 0.4f;
    c.last_n = -1;
    set[ns++] = c;
    c = dflt;
    c.repeat = 2.0f;
    c.last_n = 1;
    c.temp = 0.0f;
    set[ns++] = c;
    c = (cfg){1.0f, 0, 1.0f, 0.0f, 1.0f, 0, 1.0f, 0.0f, 0.0f, 0, NULL}; /* plain softmax sampling */
    set[ns++] = c;
    c.temp = 0.7f;
    set[ns++] = c;
    {
        static const float temps[] = {0.0f, 0.25f, 0.7f, 0.8f, 1.0f, 1.3f, 2.0f};
        static const int ks[] = {0, 1, 3, 10, 40, 100};
        static const float ps[] = {1.0f, 0.95f, 0.8f, 0.5f, 0.1f};
        static const float mps[] = {0.0f, 0.05f, 0.1f, 0.3f};
        static const float typs[] = {1.0f, 1.0f, 0.9f, 0.5f};
        static const int lns[] = {0, 64, 8, 3, -1};
        static const float reps[] = {1.0f, 1.1f, 1.5f, 0.8f};
        static const float frs[] = {0.0f, 0.0f, 0.2f, 1.0f};
        static const float prs[] = {0.0f, 0.0f, 0.3f, -0.5f};
        static const int mks[] = {0, 0, 1, 5};
        uint64_t s = 777;
#define PICK(arr) arr[sm_next(&s) % (sizeof arr / sizeof *arr)]
        while (ns < 72) {
            c.temp = PICK(temps);
            c.top_k = PICK(ks);
            c.top_p = PICK(ps);
            c.min_p = PICK(mps);
            c.typical = PICK(typs);
            c.last_n = PICK(lns);
            c.repeat = PICK(reps);
            c.freq = PICK(frs);
            c.present = PICK(prs);
            c.min_keep = PICK(mks);
            set[ns++] = c;
        }
    }
    printf("# %d settings\n", ns);

    static const uint32_t seeds[] = {0, 1, 42, 4294967294u};
    /* small vectors: every setting x 4 seeds x 32 steps; V = 32 and 256 also
     * per-step; V = 1000 and 32000 fewer */
    for (int si = 0; si < ns; si++)
        for (int k = 0; k < 4; k++) {
            run_case(&vecs[0], 0, &set[si], seeds[k], 1, 32);
            run_case(&vecs[1], 0, &set[si], seeds[k], 1, 32);
            run_case(&vecs[4], 0, &set[si], seeds[k], 1, 32);
            run_case(&vecs[4], 1, &set[si], seeds[k], 1, 24);
        }
    for (int si = 0; si < ns; si++) {
        run_case(&vecs[2], 0, &set[si], seeds[si % 4], 1, 16);
        run_case(&vecs[3], 0, &set[si], seeds[si % 4], 1, 16);
        run_case(&vecs[7], 1, &set[si], seeds[(si + 1) % 4], 1, 24);
        run_case(&vecs[5], 0, &set[si], seeds[(si + 2) % 4], 1, 24);
    }
    /* accept=0 twins of the penalised settings: what the history changes */
    for (int si = 0; si < ns; si++)
        if (set[si].last_n != 0 && (set[si].repeat != 1.0f || set[si].freq != 0.0f || set[si].present != 0.0f)) {
            run_case(&vecs[0], 0, &set[si], 42, 0, 32);
            run_case(&vecs[4], 0, &set[si], 42, 0, 32);
        }
    for (int si = 0; si < ns; si += 6)
        run_case(&vecs[6], si % 12 == 0, &set[si], seeds[(si / 6) % 4], 1, 16);
    printf("# cases %d, unmatched probe positions %ld\n", case_id, n_nomatch);
    fprintf(stderr, "cases %d, unmatched probe positions %ld\n", case_id, n_nomatch);
    return n_nomatch != 0;
}
