/* test_llamacpp_dry.c — llama.cpp's DRY stage against libllama 0.7.0
 * (data/golden/current/llamacpp_dry.txt, made by
 * analysis/golden/current/llamacpp_dry.c over llama.cpp's own
 * models/ggml-vocab-*.gguf, which mk/vocab.sh fetches into $SL_VOCAB_DIR):
 *   - every token's piece, read from the GGUF by io/gguf.c and made by
 *     sl_logits_llama_piece, hashes as llama_detokenize's pieces do, on five
 *     vocabularies (SPM and BPE, 32,000 .. 151,936 tokens);
 *   - the tokens each single-character breaker picks out (count and ids);
 *   - DRY in the default chain (penalties ... xtc, temperature, dist): 6 runs
 *     through replay and check, the tokens libllama drew;
 *   - every generation: the prompt accepted, 100 steps of the stage alone over
 *     the golden program's logits, the greedy token accepted each step: the
 *     logits DRY changed (ids and bits) and the token, step by step;
 *   - llama.cpp's tests/test-sampling.cpp DRY cases with its expected values;
 *   - the refusals: DRY on without breakers resolved, a negative last_n, a
 *     breaker with a space or one needing a multi-token restart sequence;
 *     hostile GGUF headers, one line each. */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

#define FNV0 14695981039346656037ULL

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

typedef struct vocab {
    sl_io_gguf_vocab g;
    char **piece;
    size_t *plen;
} vocab;

static void vocab_load(vocab *v, const char *file)
{
    char path[1024];
    sl_error err;
    snprintf(path, sizeof path, "%s/%s", sl_test_vocab_dir(), file);
    cr_assert_eq(sl_io_gguf_vocab_read(path, &v->g, &err), 0, "%s", err.msg);
    v->piece = malloc(v->g.n * sizeof *v->piece);
    v->plen = malloc(v->g.n * sizeof *v->plen);
    cr_assert(v->piece && v->plen);
    for (size_t t = 0; t < v->g.n; t++) {
        char buf[1024];
        size_t n = sl_logits_llama_piece(v->g.model, v->g.pre, v->g.add_space_prefix, v->g.text[t], v->g.len[t], v->g.type[t],
                                         buf, sizeof buf);
        cr_assert(n != SIZE_MAX && n <= sizeof buf, "%s: token %zu: no piece", file, t);
        v->piece[t] = malloc(n + 1);
        memcpy(v->piece[t], buf, n);
        v->plen[t] = n;
    }
}

static void vocab_free(vocab *v)
{
    for (size_t t = 0; t < v->g.n; t++)
        free(v->piece[t]);
    free(v->piece);
    free(v->plen);
    sl_io_gguf_vocab_free(&v->g);
}

static void unhex(const char *h, size_t n, char *out)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        unsigned b;
        sscanf(h + i, "%2x", &b);
        out[k++] = (char)b;
    }
    out[k] = '\0';
}

/* The golden program's logits of step s: 1/8 steps, every 101st id -inf, the pattern's next tokens raised. */
static void step_logits(uint64_t seed, int s, size_t V, const int *pat, int pat_len, float *logit)
{
    for (size_t u = 0; u < V; u++) {
        uint64_t r = splitmix64(seed * 4294967296ULL + (uint64_t)s * (uint64_t)V + (uint64_t)u);
        logit[u] = u % 101 == 7 ? -INFINITY : (float)(r >> 61) * 0.5f;
    }
    logit[pat[(pat_len + s + 1) % 4]] += 5.0f;
    logit[pat[(pat_len + s) % 4]] += 6.0f;
}

/* One golden generation replayed through the chain [dry]. */
static void replay_gen(vocab *v, char *line, char **cursor, size_t *n_steps, size_t *n_fired)
{
    int id, allowed, last_n;
    float mult, base;
    char vn[64], list[128], name[16];
    uint64_t seed;
    cr_assert_eq(sscanf(line, "gen %d vocab=%63s mult=%a base=%a allowed=%d last_n=%d breakers=%127s seed=%" SCNu64
                        " name=%15s",
                        &id, vn, &mult, &base, &allowed, &last_n, list, &seed, name),
                 9, "%s", line);
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.has_order = 1;
    cfg.n_order = 1;
    cfg.order[0] = &sl_logits_stage_dry;
    cfg.has_dry_mult = 1;
    cfg.dry_mult = mult;
    cfg.has_dry_base = 1;
    cfg.dry_base = base;
    cfg.has_dry_allowed = 1;
    cfg.dry_allowed = allowed;
    cfg.has_dry_last_n = 1;
    cfg.dry_last_n = last_n;
    unsigned char *flag = calloc(v->g.n, 1);
    cr_assert(flag);
    sl_error err;
    if (strcmp(list, "none")) {
        const char *br[8];
        char store[8][16];
        size_t nb = 0;
        if (!strcmp(list, "default")) {
            for (; sl_logits_dry_default_breakers[nb]; nb++)
                br[nb] = sl_logits_dry_default_breakers[nb];
        } else {
            for (char *s = strtok(list, ","); s; s = strtok(NULL, ","), nb++) {
                if (!strcmp(s, "-"))
                    store[nb][0] = '\0';
                else
                    unhex(s, strlen(s), store[nb]);
                br[nb] = store[nb];
            }
        }
        cr_assert_eq(sl_logits_dry_breakers((const char *const *)v->piece, v->plen, v->g.n, br, nb, flag, &err), 0,
                     "gen %d: %s", id, err.msg);
    }
    cfg.has_dry_breakers = 1;
    cfg.dry_breaker = flag;
    cfg.dry_breaker_n = v->g.n;
    sl_logits_chain *ch;
    if (last_n < 0) { /* samplab refuses what libllama clamps to 0, which the golden shows off */
        cr_assert_str_eq(name, "?dry");
        cr_assert_neq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0);
        cr_assert(strstr(err.msg, "clamps it to 0"), "%s", err.msg);
        cfg.dry_last_n = 0;
    }
    if (base < 1.0f) { /* the same for a base below 1 (llama.cpp's command line ignores it): off */
        cr_assert_str_eq(name, "?dry");
        cr_assert_neq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0);
        cr_assert(strstr(err.msg, "is below 1"), "%s", err.msg);
        cfg.dry_mult = 0;
        cfg.dry_base = 1.75;
    }
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0, "gen %d: %s", id, err.msg);
    /* prompt */
    char *ln = strtok_r(NULL, "\n", cursor);
    char *p = ln;
    int pid, used;
    cr_assert_eq(sscanf(p, "prompt %d%n", &pid, &used), 1);
    p += used;
    int pat_len = 0;
    long t;
    while (sscanf(p, " %ld%n", &t, &used) == 1) {
        cr_assert_eq(sl_logits_chain_accept(ch, t, &err), 0, "%s", err.msg);
        p += used;
        pat_len++;
    }
    /* the golden program's pattern is the prompt's first four tokens */
    int pat[4];
    cr_assert_eq(sscanf(ln, "prompt %*d %d %d %d %d", &pat[0], &pat[1], &pat[2], &pat[3]), 4, "%s", ln);
    size_t V = v->g.n;
    float *logit = malloc(V * sizeof *logit);
    cr_assert(logit);
    int dry_on = strcmp(name, "dry") == 0;
    for (int s = 0; s < 100; s++) {
        char *sl = strtok_r(NULL, "\n", cursor);
        int gid, gs, tok, changed;
        uint64_t h;
        cr_assert_eq(sscanf(sl, "step %d %d token=%d changed=%d h=%" SCNx64, &gid, &gs, &tok, &changed, &h), 5, "%s",
                     sl);
        cr_assert(gid == id && gs == s);
        step_logits(seed, s, V, pat, pat_len, logit);
        sl_logits_llama_array a;
        cr_assert_eq(sl_logits_chain_run(ch, logit, V, &a, NULL, &err), 0, "%s", err.msg);
        size_t best = 0;
        int nc = 0;
        uint64_t hc = FNV0;
        for (size_t i = 0; i < a.size; i++) {
            if (a.data[i].logit > a.data[best].logit)
                best = i;
            uint32_t bits, bo;
            memcpy(&bits, &a.data[i].logit, 4);
            memcpy(&bo, &logit[a.data[i].id], 4);
            if (bits != bo) {
                uint32_t u = (uint32_t)a.data[i].id;
                hc = fnv(hc, &u, 4);
                hc = fnv(hc, &bits, 4);
                nc++;
            }
        }
        cr_assert_eq(nc, changed, "gen %d step %d: %d logits changed, libllama %d", id, s, nc, changed);
        cr_assert_eq(hc, h, "gen %d step %d: the changed logits differ", id, s);
        cr_assert_eq(a.data[best].id, tok, "gen %d step %d: token %ld, libllama %d", id, s, a.data[best].id, tok);
        if (changed) {
            cr_assert(dry_on);
            char *pl = strtok_r(NULL, "\n", cursor);
            cr_assert(!strncmp(pl, "pen ", 4), "%s", pl);
            (*n_fired)++;
        }
        cr_assert_eq(sl_logits_chain_accept(ch, tok, &err), 0, "%s", err.msg);
        free(a.data);
        (*n_steps)++;
    }
    free(logit);
    sl_logits_chain_free(ch);
    free(flag);
}

/* One golden file (libllama `release`) replayed through the chain. */
static void golden_file(const char *path, const char *release)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s", path);
    char *cursor = NULL;
    vocab v;
    int have = 0;
    size_t n_vocab = 0, n_breaker = 0, n_gen = 0, n_steps = 0, n_fired = 0;
    for (char *line = strtok_r(text, "\n", &cursor); line; line = strtok_r(NULL, "\n", &cursor)) {
        if (!strncmp(line, "vocab ", 6)) {
            char file[64];
            size_t n;
            uint64_t h;
            cr_assert_eq(sscanf(line, "vocab %63s n=%zu pieces=%" SCNx64, file, &n, &h), 3, "%s", line);
            if (have)
                vocab_free(&v);
            vocab_load(&v, file);
            have = 1;
            cr_assert_eq(v.g.n, n, "%s: %zu tokens, libllama %zu", file, v.g.n, n);
            uint64_t hp = FNV0;
            for (size_t t = 0; t < v.g.n; t++) {
                uint32_t l = (uint32_t)v.plen[t];
                hp = fnv(hp, &l, 4);
                hp = fnv(hp, v.piece[t], v.plen[t]);
            }
            cr_assert_eq(hp, h, "%s: the pieces differ from llama_detokenize's", file);
            n_vocab++;
        } else if (!strncmp(line, "breaker ", 8)) {
            char file[64], hx[16], b[8];
            size_t k;
            uint64_t h;
            cr_assert_eq(sscanf(line, "breaker %63s %15s n=%zu ids=%" SCNx64, file, hx, &k, &h), 4, "%s", line);
            unhex(hx, strlen(hx), b);
            const char *br[1] = {b};
            unsigned char *flag = malloc(v.g.n);
            sl_error err;
            cr_assert_eq(sl_logits_dry_breakers((const char *const *)v.piece, v.plen, v.g.n, br, 1, flag, &err), 0,
                         "%s", err.msg);
            size_t m = 0;
            uint64_t hb = FNV0;
            for (size_t t = 0; t < v.g.n; t++)
                if (flag[t]) {
                    uint32_t u = (uint32_t)t;
                    hb = fnv(hb, &u, 4);
                    m++;
                }
            cr_assert_eq(m, k, "%s breaker %s: %zu tokens, libllama %zu", file, hx, m, k);
            cr_assert_eq(hb, h, "%s breaker %s: other tokens than libllama's", file, hx);
            free(flag);
            n_breaker++;
        } else if (!strncmp(line, "gen ", 4)) {
            size_t before = n_steps;
            replay_gen(&v, line, &cursor, &n_steps, &n_fired);
            cr_assert_eq(n_steps - before, 100);
            n_gen++;
        }
    }
    if (have)
        vocab_free(&v);
    free(text);
    printf("llamacpp_dry: %zu vocabularies, %zu breaker sets, %zu generations, %zu steps (%zu where DRY changed "
           "logits) equal to libllama %s\n",
           n_vocab, n_breaker, n_gen, n_steps, n_fired, release);
    cr_assert_eq(n_vocab, 5);
    cr_assert_geq(n_gen, 100);
    cr_assert_geq(n_fired, 1000);
}

Test(llamacpp_dry, golden)
{
    golden_file("data/golden/current/llamacpp_dry.txt", "0.7.0");
}

/* v0.4.0 as node-llama-cpp 3.21.1 ships it (its prebuilt libllama.v0.4.0.so): the same records */
Test(llamacpp_dry, golden_0_4_0)
{
    golden_file("data/golden/llamacpp_0.4.0/llamacpp_dry.txt", "0.4.0");
}

/* llama.cpp tests/test-sampling.cpp test_dry: logits log(p), the tokens accepted, DRY, then dist's softmax;
 * each probability within 1e-5 of llama.cpp's expected one (its sampler_tester::check). */
static void upstream_dry(const float *probs, size_t n, const long *last, size_t nl, const float *expected, float mult,
                         float base, long allowed, long last_n, long breaker)
{
    unsigned char flag[8] = {0};
    if (breaker >= 0)
        flag[breaker] = 1;
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.has_order = 1;
    cfg.n_order = 1;
    cfg.order[0] = &sl_logits_stage_dry;
    cfg.has_dry_mult = cfg.has_dry_base = cfg.has_dry_allowed = cfg.has_dry_last_n = 1;
    cfg.dry_mult = mult;
    cfg.dry_base = base;
    cfg.dry_allowed = allowed;
    cfg.dry_last_n = last_n;
    cfg.has_dry_breakers = 1;
    cfg.dry_breaker = flag;
    cfg.dry_breaker_n = n;
    sl_logits_chain *ch;
    sl_error err;
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0, "%s", err.msg);
    for (size_t i = 0; i < nl; i++)
        cr_assert_eq(sl_logits_chain_accept(ch, last[i], &err), 0);
    float lg[8];
    for (size_t i = 0; i < n; i++)
        lg[i] = logf(probs[i]);
    sl_logits_llama_array a;
    cr_assert_eq(sl_logits_chain_run(ch, lg, n, &a, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(sl_logits_llama_softmax(&a, 0, &err), 0);
    for (size_t i = 0; i < n; i++)
        cr_assert(fabsf(a.data[i].p - expected[a.data[i].id]) < 1e-5f, "token %ld: %.7g, llama.cpp expects %.7g",
                  a.data[i].id, a.data[i].p, expected[a.data[i].id]);
    free(a.data);
    sl_logits_chain_free(ch);
}

Test(llamacpp_dry, upstream_test_sampling)
{
    const float q[] = {0.25f, 0.25f, 0.25f, 0.25f}, f[] = {0.2f, 0.2f, 0.2f, 0.2f, 0.2f};
    upstream_dry(q, 4, (const long[]){0, 1}, 2, q, 1.0f, 1.1f, 2, 4, -1);
    upstream_dry(q, 4, (const long[]){0, 1, 2, 0, 1}, 5, (const float[]){0.296923f, 0.296923f, 0.109232f, 0.296923f},
                 1.0f, 1.1f, 2, 5, -1);
    upstream_dry(f, 5, (const long[]){0, 1, 3, 4, 0, 1}, 6, f, 1.0f, 1.1f, 2, 6, 3);
    upstream_dry(f, 5, (const long[]){0, 1, 2, 0, 1}, 5,
                 (const float[]){0.241818f, 0.241818f, 0.032727f, 0.241818f, 0.241818f}, 2.0f, 1.1f, 2, 5, -1);
    upstream_dry(f, 5, (const long[]){0, 1, 2, 3, 4, 0, 1}, 7, f, 1.0f, 1.1f, 4, 7, -1);
}

Test(llamacpp_dry, refusals)
{
    sl_logits_cfg cfg;
    sl_logits_chain *ch;
    sl_error err;
    memset(&cfg, 0, sizeof cfg);
    cfg.has_dry_mult = 1;
    cfg.dry_mult = 0.8;
    cr_assert_neq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0); /* on, no breakers resolved */
    cr_assert(strstr(err.msg, "--vocab FILE.gguf") && !strchr(err.msg, '\n'), "%s", err.msg);
    cfg.has_dry_breakers = 1; /* --dry-sequence-breaker none */
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0, "%s", err.msg);
    sl_logits_chain_free(ch);
    cfg.has_dry_last_n = 1;
    cfg.dry_last_n = -1;
    cr_assert_neq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0);
    cr_assert(strstr(err.msg, "clamps it to 0"), "%s", err.msg);
    cfg.has_dry_mult = 0; /* off at the default multiplier: nothing is needed */
    cfg.has_dry_breakers = 0;
    cfg.dry_last_n = 64;
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0, "%s", err.msg);
    sl_logits_chain_free(ch);
    const char *piece[] = {"ab", "xa", "q q"};
    size_t plen[] = {2, 2, 3};
    unsigned char flag[3];
    cr_assert_eq(sl_logits_dry_breakers(piece, plen, 2, (const char *[]){"b"}, 1, flag, &err), 0);
    cr_assert(flag[0] == 1 && flag[1] == 0);
    cr_assert_neq(sl_logits_dry_breakers(piece, plen, 2, (const char *[]){"ab"}, 1, flag, &err), 0);
    cr_assert(strstr(err.msg, "overlaps the end of token 1"), "%s", err.msg); /* "xa" ends in "a" */
    cr_assert_neq(sl_logits_dry_breakers(piece, plen, 3, (const char *[]){" q"}, 1, flag, &err), 0);
    cr_assert(strstr(err.msg, "holds a space"), "%s", err.msg);
}

/* The GGUF seeds of tests/fuzz/corpus/gguf: the valid one read whole, the malformed ones one line each
 * naming the file and the byte. */
Test(llamacpp_dry, gguf_reader)
{
    sl_io_gguf_vocab g;
    sl_error err;
    cr_assert_eq(sl_io_gguf_vocab_read("tests/fuzz/corpus/gguf/spm", &g, &err), 0, "%s", err.msg);
    cr_assert_str_eq(g.model, "llama");
    cr_assert_eq(g.n, 6);
    cr_assert_eq(g.add_space_prefix, 1);
    static const char *const want[] = {"<unk>", "<s>", "a", "\n", ":", "b\n"};
    for (size_t t = 0; t < g.n; t++) {
        char buf[64];
        size_t n = sl_logits_llama_piece(g.model, g.pre, g.add_space_prefix, g.text[t], g.len[t], g.type[t], buf,
                                         sizeof buf);
        cr_assert(n == strlen(want[t]) && !memcmp(buf, want[t], n), "token %zu", t);
    }
    sl_io_gguf_vocab_free(&g);
    cr_assert_eq(sl_io_gguf_vocab_read("tests/fuzz/corpus/gguf/bpe_v2", &g, &err), 0, "%s", err.msg);
    cr_assert(!strcmp(g.model, "gpt2") && !strcmp(g.pre, "gpt-2") && g.type[3] == 1 && g.add_space_prefix == -1);
    sl_io_gguf_vocab_free(&g);
    static const char *const badf[][2] = {
        {"no_model", "no tokenizer.ggml.model key"},
        {"types_short", "has 2 entries for 6 tokens"},
        {"huge_count", "byte 106: the token count is 0 or over 2^24"},
        {"truncated", "runs past the end of the file"},
        {"nested", "arrays nested deeper than two"},
    };
    for (size_t i = 0; i < sizeof badf / sizeof *badf; i++) {
        char path[96];
        snprintf(path, sizeof path, "tests/fuzz/corpus/gguf/%s", badf[i][0]);
        cr_assert_eq(sl_io_gguf_vocab_read(path, &g, &err), SL_EINVAL, "%s", path);
        cr_assert(strstr(err.msg, path) && strstr(err.msg, "byte ") && strstr(err.msg, badf[i][1]) &&
                      !strchr(err.msg, '\n'),
                  "%s: %s", path, err.msg);
    }
}

/* One golden generation as the command line is given it. */
typedef struct cli_gen {
    int id, allowed, last_n, pat[4], pat_len;
    char vocab[64], list[128], name[16], mult[32], base[32];
    uint64_t seed;
    size_t V;
    long prompt[64], tok[100];
} cli_gen;

static int cli_gen_next(char **cursor, cli_gen *g)
{
    char *line;
    while ((line = strtok_r(NULL, "\n", cursor)) && strncmp(line, "gen ", 4))
        if (!strncmp(line, "vocab ", 6)) /* the vocabulary's size: the logits' V */
            cr_assert_eq(sscanf(line, "vocab %*s n=%zu", &g->V), 1, "%s", line);
    if (!line)
        return 0;
    cr_assert_eq(sscanf(line, "gen %d vocab=%63s mult=%31s base=%31s allowed=%d last_n=%d breakers=%127s seed=%" SCNu64
                        " name=%15s",
                        &g->id, g->vocab, g->mult, g->base, &g->allowed, &g->last_n, g->list, &g->seed, g->name),
                 9, "%s", line);
    char *p = strtok_r(NULL, "\n", cursor);
    int used;
    cr_assert_eq(sscanf(p, "prompt %*d%n", &used), 0);
    p += used;
    g->pat_len = 0;
    while (g->pat_len < 64 && sscanf(p, " %ld%n", &g->prompt[g->pat_len], &used) == 1) {
        p += used;
        g->pat_len++;
    }
    for (int i = 0; i < 4; i++)
        g->pat[i] = (int)g->prompt[i];
    for (int s = 0; s < 100; s++) {
        char *sl = strtok_r(NULL, "\n", cursor);
        cr_assert_eq(sscanf(sl, "step %*d %*d token=%ld", &g->tok[s]), 1, "%s", sl);
        if (!strstr(sl, "changed=0"))
            strtok_r(NULL, "\n", cursor); /* its "pen" line */
    }
    return 1;
}

/* The DRY options of g as typed (the breakers as llama.cpp's escapes \xHH; an empty one left out, which
 * llama.cpp skips and samplab refuses). */
static void cli_gen_opts(const cli_gen *g, char *buf, size_t cap)
{
    size_t k = (size_t)snprintf(buf, cap,
                                "--dry-multiplier %s --dry-base %s --dry-allowed-length %d --dry-penalty-last-n %d "
                                "--vocab %s/%s",
                                g->mult, g->base, g->allowed, g->last_n, sl_test_vocab_dir(), g->vocab);
    if (!strcmp(g->list, "none")) {
        snprintf(buf + k, cap - k, " --dry-sequence-breaker none");
        return;
    }
    if (!strcmp(g->list, "default"))
        return;
    char list[128];
    snprintf(list, sizeof list, "%s", g->list);
    for (char *save, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
        if (!strcmp(b, "-"))
            continue;
        k += (size_t)snprintf(buf + k, cap - k, " --dry-sequence-breaker '");
        for (size_t i = 0; b[i] && b[i + 1]; i += 2)
            k += (size_t)snprintf(buf + k, cap - k, "\\x%c%c", b[i], b[i + 1]);
        k += (size_t)snprintf(buf + k, cap - k, "'");
    }
}

/* The generations over the 32,000- and 32,064-token vocabularies through the command line: replay (the whole run,
 * the prompt as --context), check (no divergence from the golden tokens), and pipeline and draw at the
 * last step with the history as --context: each gives libllama's tokens. The chain is dry, then a
 * temperature of 0 (the first maximum, as the golden program takes it). */
Test(llamacpp_dry, cli_replay_check_pipeline_draw, .timeout = 600)
{
    char *text = sl_test_slurp("data/golden/current/llamacpp_dry.txt");
    cr_assert(text);
    char *cursor = NULL;
    strtok_r(text, "\n", &cursor);
    cli_gen g;
    memset(&g, 0, sizeof g);
    size_t n_gen = 0, n_cmd = 0;
    const size_t VMAX = 32064;
    float *rows = malloc(100 * VMAX * sizeof *rows);
    char *opts = malloc(4096), *args = malloc(16384), *toks = malloc(2048), *ctx = malloc(4096);
    cr_assert(rows && opts && args && toks && ctx);
    while (cli_gen_next(&cursor, &g)) {
        if (strcmp(g.vocab, "ggml-vocab-llama-spm.gguf") && strcmp(g.vocab, "ggml-vocab-phi-3.gguf"))
            continue;
        size_t V = g.V;
        cr_assert_leq(V, VMAX);
        cli_gen_opts(&g, opts, 4096);
        if (g.last_n < 0 || strtod(g.base, NULL) < 1) { /* refused: what llama.cpp's command line does */
            snprintf(args, 16384,
                     "replay --framework llamacpp --logits 1,2 --samplers dry --seed 1 --dry-multiplier %s --dry-base "
                     "%s --dry-penalty-last-n %d --dry-sequence-breaker none",
                     g.mult, g.base, g.last_n);
            sl_test_expect_refused(args, g.last_n < 0 ? "--dry-penalty-last-n -1 is negative" : "is below 1");
            n_cmd++;
            continue;
        }
        for (int s = 0; s < 100; s++)
            step_logits(g.seed, s, V, g.pat, g.pat_len, rows + (size_t)s * V);
        char *npy = sl_test_npy_f32(rows, 100, V);
        size_t k = 0;
        for (int i = 0; i < g.pat_len; i++)
            k += (size_t)snprintf(ctx + k, 4096 - k, "%s%ld", i ? "," : "", g.prompt[i]);
        k = 0;
        for (int s = 0; s < 100; s++)
            k += (size_t)snprintf(toks + k, 2048 - k, "%s%ld", s ? "," : "", g.tok[s]);
        snprintf(args, 16384,
                 "replay --framework llamacpp --logits %s --context %s --samplers 'dry;temperature' --temperature 0 "
                 "--seed 1 %s --json",
                 npy, ctx, opts);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "gen %d: %s: %s", g.id, args, r.err);
        char want[2100];
        snprintf(want, sizeof want, "\"tokens\":[%s]", toks);
        cr_expect(strstr(r.out, want) != NULL, "gen %d: replay's tokens differ from libllama's: %.300s", g.id, r.out);
        sl_test_run_free(&r);
        cr_expect(sl_test_check_seeded(args, toks), "gen %d: check finds a divergence", g.id);
        /* the last step alone, its history the prompt and 99 tokens */
        char *row = sl_test_npy_f32(rows + 99 * V, 0, V);
        k = strlen(ctx);
        for (int s = 0; s < 99; s++)
            k += (size_t)snprintf(ctx + k, 4096 - k, ",%ld", g.tok[s]);
        snprintf(args, 16384, "pipeline --framework llamacpp --logits %s --context %s --samplers 'dry;temperature' "
                              "--temperature 0 %s --json", row, ctx, opts);
        r = sl_test_cli(args);
        snprintf(want, sizeof want, "\"kept\":[%ld]", g.tok[99]);
        cr_expect(r.status == 0 && strstr(r.out, want), "gen %d: pipeline: %s %.200s", g.id, r.err, r.out);
        sl_test_run_free(&r);
        snprintf(args, 16384, "draw --framework llamacpp --seed 1 --logits %s --context %s --samplers "
                              "'dry;temperature' --temperature 0 %s", row, ctx, opts);
        r = sl_test_cli(args);
        cr_expect(r.status == 0 && strtol(r.out, NULL, 10) == g.tok[99], "gen %d: draw: %s %s (libllama %ld)", g.id,
                  r.err, r.out, g.tok[99]);
        sl_test_run_free(&r);
        unlink(row);
        free(row);
        unlink(npy);
        free(npy);
        n_gen++;
        n_cmd += 4;
    }
    printf("llamacpp_dry: %zu generations through replay, check, pipeline and draw (%zu commands) equal to "
           "libllama 0.7.0\n", n_gen, n_cmd);
    cr_expect_geq(n_gen, 30);
    free(rows);
    free(opts);
    free(args);
    free(toks);
    free(ctx);
    free(text);
}

/* DRY in common_sampler_init's default chain (penalties, dry, top_n_sigma, top_k, typical, top_p, min_p, xtc,
 * temperature, dist) as libllama 0.7.0 ran it: the golden's "chain" runs through `replay` (the prompt as
 * --context, the chain's seed as --seed), the drawn tokens equal step by step, and `check` finds no
 * divergence. */
static void default_chain_file(const char *path, const char *release, const char *opt)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "%s", path);
    size_t V = 0, n_chain = 0;
    const size_t VMAX = 32064;
    float *rows = malloc(100 * VMAX * sizeof *rows);
    char *args = malloc(8192), *ctx = malloc(1024), *toks = malloc(2048);
    cr_assert(rows && args && ctx && toks);
    char *cursor = NULL;
    for (char *line = strtok_r(text, "\n", &cursor); line; line = strtok_r(NULL, "\n", &cursor)) {
        if (!strncmp(line, "vocab ", 6))
            cr_assert_eq(sscanf(line, "vocab %*s n=%zu", &V), 1, "%s", line);
        if (strncmp(line, "chain ", 6))
            continue;
        int id, allowed, last_n, top_k;
        unsigned seed;
        char vn[64], pen[32], mult[32], br[16], top_p[32], min_p[32], xtc_p[32], temp[32];
        cr_assert_eq(sscanf(line, "chain %d vocab=%63s seed=%u pen=%31s mult=%31s allowed=%d last_n=%d breakers=%15s "
                                  "top_k=%d top_p=%31s min_p=%31s xtc_p=%31s temp=%31s",
                            &id, vn, &seed, pen, mult, &allowed, &last_n, br, &top_k, top_p, min_p, xtc_p, temp),
                     13, "%s", line);
        cr_assert_leq(V, VMAX);
        char *pl = strtok_r(NULL, "\n", &cursor), *tl = strtok_r(NULL, "\n", &cursor);
        int used, pat[4], P = 0;
        cr_assert_eq(sscanf(pl, "prompt %*d%n", &used), 0);
        snprintf(ctx, 1024, "%s", pl + used + 1);
        for (char *c = ctx; *c; c++)
            *c = *c == ' ' ? ',' : *c;
        for (char *q = pl + used; sscanf(q, " %d%n", P < 4 ? &pat[P] : &(int){0}, &used) == 1; q += used)
            P++;
        cr_assert_eq(sscanf(tl, "tokens %*d%n", &used), 0);
        snprintf(toks, 2048, "%s", tl + used + 1);
        for (char *c = toks; *c; c++)
            *c = *c == ' ' ? ',' : *c;
        for (int s = 0; s < 100; s++)
            step_logits(seed, s, V, pat, P, rows + (size_t)s * V);
        char *npy = sl_test_npy_f32(rows, 100, V);
        snprintf(args, 8192,
                 "replay --framework llamacpp%s --logits %s --context %s --seed %u --repetition-penalty %s "
                 "--dry-multiplier %s --dry-allowed-length %d --dry-penalty-last-n %d%s --vocab %s/%s --top-k %d "
                 "--top-p %s --min-p %s --xtc-probability %s --temperature %s --json",
                 opt, npy, ctx, seed, pen, mult, allowed, last_n, strcmp(br, "none") ? "" : " --dry-sequence-breaker none",
                 sl_test_vocab_dir(), vn, top_k, top_p, min_p, xtc_p, temp);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "chain %d: %s: %s", id, args, r.err);
        char want[2100];
        snprintf(want, sizeof want, "\"tokens\":[%s]", toks);
        cr_expect(strstr(r.out, want) != NULL, "chain %d: replay's tokens differ from libllama's:\n%.700s\nlibllama %s", id,
                  r.out, toks);
        sl_test_run_free(&r);
        cr_expect(sl_test_check_seeded(args, toks), "chain %d: check finds a divergence", id);
        unlink(npy);
        free(npy);
        n_chain++;
    }
    printf("llamacpp_dry: %zu runs of the default chain with DRY on through replay and check equal to libllama %s\n",
           n_chain, release);
    cr_expect_eq(n_chain, 6);
    free(rows);
    free(args);
    free(ctx);
    free(toks);
    free(text);
}

Test(llamacpp_dry, default_chain_cli, .timeout = 600)
{
    default_chain_file("data/golden/current/llamacpp_dry.txt", "0.7.0", "");
}

Test(llamacpp_dry, default_chain_cli_0_4_0, .timeout = 600)
{
    default_chain_file("data/golden/llamacpp_0.4.0/llamacpp_dry.txt", "0.4.0", " --llamacpp 0.4.0");
}

/* --mirostat 1|2 replaces the chain (common_sampler_init): DRY's options are refused with it, as the other
 * stages' are, since llama.cpp would ignore them. */
Test(llamacpp_dry, refused_with_mirostat)
{
    sl_test_expect_refused("pipeline --framework llamacpp --logits 3,2,1 --mirostat 2 --dry-multiplier 0.8",
                           "--dry-multiplier with --mirostat 2: llama.cpp ignores it");
    sl_test_expect_refused("draw --framework llamacpp --seed 1 --logits 3,2,1 --mirostat 1 --dry-sequence-breaker none",
                           "--dry-sequence-breaker with --mirostat 1: llama.cpp ignores it");
}

/* --vocab takes a token list as well as a GGUF: each vocabulary's pieces written one a line (every
 * byte as \xHH, so newlines and backslashes inside tokens survive) resolve the default breakers
 * and a set of two to the same per-token flags as the GGUF; a NUL byte and an empty list are
 * refused with the file's name. */
Test(llamacpp_dry, token_list_is_the_gguf)
{
    static const char *const files[] = {"ggml-vocab-llama-spm.gguf", "ggml-vocab-gpt-2.gguf"};
    static const char *const sets[][4] = {{NULL}, {"\\n", "\\x2a", NULL}};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        vocab v;
        vocab_load(&v, files[f]);
        char list[] = "/tmp/sl-vocab-list-XXXXXX";
        int fd = mkstemp(list);
        cr_assert(fd >= 0);
        FILE *o = fdopen(fd, "w");
        for (size_t t = 0; t < v.g.n; t++) {
            for (size_t i = 0; i < v.plen[t]; i++)
                fprintf(o, "\\x%02x", (unsigned char)v.piece[t][i]);
            fputc('\n', o);
        }
        cr_assert_eq(fclose(o), 0);
        char gguf[1024];
        snprintf(gguf, sizeof gguf, "%s/%s", sl_test_vocab_dir(), files[f]);
        for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
            sl_logits_cfg c[2];
            for (int w = 0; w < 2; w++) {
                sl_api_settings *s = sl_api_settings_new("test");
                sl_error err;
                cr_assert_eq(sl_api_settings_set(s, "vocab", w ? list : gguf, &err), 0, "%s", err.msg);
                for (size_t b = 0; sets[k][b]; b++)
                    cr_assert_eq(sl_api_settings_set(s, "dry_sequence_breaker", sets[k][b], &err), 0, "%s", err.msg);
                memset(&c[w], 0, sizeof c[w]);
                cr_assert_eq(sl_api_dry_breakers("test", s, &c[w], &err), 0, "%s: %s", w ? list : gguf, err.msg);
                sl_api_settings_free(s);
            }
            cr_assert_eq(c[0].dry_breaker_n, v.g.n);
            cr_assert_eq(c[1].dry_breaker_n, v.g.n);
            size_t on = 0;
            for (size_t t = 0; t < v.g.n; t++)
                on += c[0].dry_breaker[t];
            cr_expect(on > 0, "%s: set %zu flags no token", files[f], k);
            cr_expect(!memcmp(c[0].dry_breaker, c[1].dry_breaker, v.g.n), "%s: set %zu: the list's flags differ",
                      files[f], k);
            free((void *)c[0].dry_breaker);
            free((void *)c[1].dry_breaker);
        }
        unlink(list);
        vocab_free(&v);
    }
    char *empty = sl_test_tmpfile(".txt", "", 0), args[512];
    cr_assert(empty);
    snprintf(args, sizeof args, "draw --framework llamacpp --logits 1,2 --seed 1 --dry-multiplier 0.8 --vocab %s", empty);
    sl_test_expect_refused(args, ": no tokens");
    unlink(empty);
    free(empty);
    char *nul = sl_test_tmpfile(".txt", "a\nb\0c\n", 6);
    cr_assert(nul);
    snprintf(args, sizeof args, "draw --framework llamacpp --logits 1,2,3 --seed 1 --dry-multiplier 0.8 --vocab %s", nul);
    sl_test_expect_refused(args, "line 2: a NUL byte");
    unlink(nul);
    free(nul);
}
