/* test_llamacpp_dry_multi.c — DRY's restart sequences of several tokens
 * against llama.cpp v0.4.0 as node-llama-cpp 3.21.1 ships it
 * (data/golden/llamacpp_0.4.0/llamacpp_dry_multi.txt, made by
 * analysis/golden/current/llamacpp_dry.c `multi` through its prebuilt
 * libllama over llama.cpp's models/ggml-vocab-*.gguf, in $SL_VOCAB_DIR):
 *   - every rest of every breaker, tokenized by logits/llama_tokenize.c, is
 *     llama_tokenize's tokens (SPM and BPE; the BPE rests samplab does not
 *     model are refused by name, and counted);
 *   - the restart sequences sl_logits_dry_restarts resolves: the tokens that
 *     are breakers alone, the (head, tail) pairs and their hash;
 *   - every generation: 100 steps of DRY alone, the logits it changed (ids
 *     and bits) and the greedy token, step by step;
 *   - power: the same generations with the tails dropped (a breaker of
 *     several tokens then never restarts the count) differ from libllama.
 * And the command line: replay with --vocab and such a breaker draws
 * libllama's tokens. */
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
    sl_logits_llama_tok *tk;
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
        size_t n = sl_logits_llama_piece(v->g.model, v->g.pre, v->g.add_space_prefix, v->g.text[t], v->g.len[t],
                                         v->g.type[t], buf, sizeof buf);
        cr_assert(n != SIZE_MAX && n <= sizeof buf, "%s: token %zu: no piece", file, t);
        v->piece[t] = malloc(n + 1);
        memcpy(v->piece[t], buf, n);
        v->plen[t] = n;
    }
    cr_assert_eq(sl_logits_llama_tok_new(v->g.model, v->g.pre, v->g.add_space_prefix, v->g.n,
                                         (const char *const *)v->g.text, v->g.len, v->g.type, v->g.score,
                                         v->g.n_merge, (const char *const *)v->g.merge, v->g.merge_len, &v->tk, &err),
                 0, "%s: %s", file, err.msg);
}

static void vocab_free(vocab *v)
{
    for (size_t t = 0; t < v->g.n; t++)
        free(v->piece[t]);
    free(v->piece);
    free(v->plen);
    sl_logits_llama_tok_free(v->tk);
    sl_io_gguf_vocab_free(&v->g);
}

static size_t unhex(const char *h, char *out)
{
    size_t k = 0, n = strlen(h);
    for (size_t i = 0; i + 1 < n; i += 2) {
        unsigned b;
        sscanf(h + i, "%2x", &b);
        out[k++] = (char)b;
    }
    out[k] = '\0';
    return k;
}

/* The golden program's logits of step s, favouring pat[(P + s) % m] and the next. */
static void step_logits(uint64_t seed, int s, size_t V, const long *pat, int m, int P, float *logit)
{
    for (size_t u = 0; u < V; u++) {
        uint64_t r = splitmix64(seed * 4294967296ULL + (uint64_t)s * (uint64_t)V + (uint64_t)u);
        logit[u] = u % 101 == 7 ? -INFINITY : (float)(r >> 61) * 0.5f;
    }
    logit[pat[(P + s + 1) % m]] += 5.0f;
    logit[pat[(P + s) % m]] += 6.0f;
}

typedef struct counts {
    size_t vocabs, tails, tails_refused, restarts, gens, gens_refused, steps, fired, gens_differ_without_tails;
} counts;

/* Resolves the hex breakers of list (joined by ',') with the tokenizer; 0 when refused. */
static int resolve(vocab *v, char *list, unsigned char **block, const sl_logits_dry_tails **tails, sl_error *err)
{
    const char *br[8];
    char store[8][48];
    size_t nb = 0;
    for (char *s = strtok(list, ","); s; s = strtok(NULL, ","), nb++) {
        unhex(s, store[nb]);
        br[nb] = store[nb];
    }
    return sl_logits_dry_restarts((const char *const *)v->piece, v->plen, v->g.n, br, nb, v->tk, block, tails,
                                  err) == 0;
}

/* One generation through the chain [dry]: the number of steps equal to libllama's (all 100 unless
 * with_tails is 0, where the replay stops at the first difference), -1 when its breakers are refused. */
static int replay(vocab *v, const char *gen, const char *prompt, char **steps, int with_tails, counts *c)
{
    int id, allowed, last_n, m;
    float mult, base;
    char vn[64], list[256], name[16];
    uint64_t seed;
    cr_assert_eq(sscanf(gen, "gen %d vocab=%63s mult=%a base=%a allowed=%d last_n=%d breakers=%255s seed=%" SCNu64
                        " name=%15s pat=%d",
                        &id, vn, &mult, &base, &allowed, &last_n, list, &seed, name, &m),
                 10, "%s", gen);
    unsigned char *block;
    const sl_logits_dry_tails *tails;
    sl_error err;
    if (!resolve(v, list, &block, &tails, &err)) { /* refused as its restart line was */
        cr_assert(!strcmp(v->g.model, "gpt2") && strstr(err.msg, "not modelled by samplab"), "gen %d: %s", id, err.msg);
        return -1;
    }
    cr_assert(tails && tails->n, "gen %d: no restart sequence of several tokens", id);
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
    cfg.dry_breaker = block;
    cfg.dry_breaker_n = v->g.n;
    cfg.dry_tails = with_tails ? tails : NULL;
    sl_logits_chain *ch;
    cr_assert_eq(sl_logits_chain_new_llama(&cfg, &ch, &err), 0, "gen %d: %s", id, err.msg);
    long pr[64];
    int P = 0, used;
    const char *p = prompt;
    cr_assert_eq(sscanf(p, "prompt %*d%n", &used), 0);
    p += used;
    long t;
    while (sscanf(p, " %ld%n", &t, &used) == 1) {
        cr_assert_eq(sl_logits_chain_accept(ch, t, &err), 0, "%s", err.msg);
        pr[P++] = t;
        p += used;
    }
    cr_assert(P > m && m <= 23);
    size_t V = v->g.n;
    float *logit = malloc(V * sizeof *logit);
    cr_assert(logit);
    int same = 0;
    for (int s = 0; s < 100; s++) {
        int gid, gs, tok, changed;
        uint64_t h;
        cr_assert_eq(sscanf(steps[s], "step %d %d token=%d changed=%d h=%" SCNx64, &gid, &gs, &tok, &changed, &h), 5,
                     "%s", steps[s]);
        cr_assert(gid == id && gs == s);
        step_logits(seed, s, V, pr, m, P, logit); /* pat = the prompt's first m tokens */
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
        long got = a.data[best].id;
        free(a.data);
        if (!with_tails && (nc != changed || hc != h || got != tok))
            break;
        cr_assert_eq(nc, changed, "gen %d step %d: %d logits changed, libllama %d", id, s, nc, changed);
        cr_assert_eq(hc, h, "gen %d step %d: the changed logits differ", id, s);
        cr_assert_eq(got, tok, "gen %d step %d: token %ld, libllama %d", id, s, got, tok);
        c->fired += with_tails && changed;
        cr_assert_eq(sl_logits_chain_accept(ch, tok, &err), 0, "%s", err.msg);
        same++;
    }
    free(logit);
    sl_logits_chain_free(ch);
    free(block);
    return same;
}

Test(llamacpp_dry_multi, golden_0_4_0, .timeout = 600)
{
    char *text = sl_test_slurp("data/golden/llamacpp_0.4.0/llamacpp_dry_multi.txt");
    cr_assert(text);
    size_t nl = 0, cap = 1024;
    char **lines = malloc(cap * sizeof *lines), *cursor = NULL;
    cr_assert(lines);
    for (char *l = strtok_r(text, "\n", &cursor); l; l = strtok_r(NULL, "\n", &cursor)) {
        if (nl == cap)
            cr_assert((lines = realloc(lines, (cap *= 2) * sizeof *lines)));
        lines[nl++] = l;
    }
    vocab v;
    int have = 0;
    counts c = {0};
    for (size_t li = 0; li < nl; li++) {
        char *line = lines[li];
        if (!strncmp(line, "vocab ", 6)) {
            char file[64];
            size_t n;
            cr_assert_eq(sscanf(line, "vocab %63s n=%zu", file, &n), 2, "%s", line);
            if (have)
                vocab_free(&v);
            vocab_load(&v, file);
            have = 1;
            cr_assert_eq(v.g.n, n);
            c.vocabs++;
        } else if (!strncmp(line, "tail ", 5)) {
            char file[64], hx[128], b[64];
            size_t k, n;
            int used;
            cr_assert_eq(sscanf(line, "tail %63s %127s %zu n=%zu%n", file, hx, &k, &n, &used), 4, "%s", line);
            size_t bl = unhex(hx, b);
            int32_t got[64];
            size_t ng;
            sl_error err;
            if (sl_logits_llama_tokenize(v.tk, b + k, bl - k, got, 64, &ng, &err)) {
                /* only BPE text outside ASCII, or holding a user-defined token, is refused */
                cr_assert(!strcmp(v.g.model, "gpt2") || strstr(err.msg, "user-defined"), "%s: %s", line, err.msg);
                cr_assert(strstr(err.msg, "not modelled by samplab") && !strchr(err.msg, '\n'), "%s", err.msg);
                c.tails_refused++;
                continue;
            }
            cr_assert_eq(ng, n, "%s: %zu tokens", line, ng);
            const char *p = line + used;
            for (size_t i = 0; i < n; i++) {
                long want;
                int u;
                cr_assert_eq(sscanf(p, " %ld%n", &want, &u), 1);
                p += u;
                cr_assert_eq(got[i], want, "%s: token %zu is %d", line, i, got[i]);
            }
            c.tails++;
        } else if (!strncmp(line, "restart ", 8)) {
            char file[64], hx[128];
            size_t single, npairs;
            uint64_t h;
            cr_assert_eq(sscanf(line, "restart %63s %127s single=%zu pairs=%zu h=%" SCNx64, file, hx, &single, &npairs,
                                &h),
                         5, "%s", line);
            unsigned char *block;
            const sl_logits_dry_tails *tails;
            sl_error err;
            if (!resolve(&v, hx, &block, &tails, &err)) {
                cr_assert(!strcmp(v.g.model, "gpt2") && strstr(err.msg, "not modelled by samplab"), "%s: %s", line,
                          err.msg);
                continue;
            }
            size_t ns = 0;
            for (size_t t = 0; t < v.g.n; t++)
                ns += (block[t] & SL_LOGITS_DRY_SINGLE) != 0;
            cr_assert_eq(ns, single, "%s: %zu breakers alone", line, ns);
            size_t np = tails ? tails->n : 0;
            cr_assert_eq(np, npairs, "%s: %zu pairs", line, np);
            uint64_t hh = FNV0;
            for (size_t i = 0; i < np; i++) {
                uint32_t u = (uint32_t)tails->head[i], l = (uint32_t)(tails->off[i + 1] - tails->off[i]);
                hh = fnv(hh, &u, 4);
                hh = fnv(hh, &l, 4);
                for (size_t k = tails->off[i]; k < tails->off[i + 1]; k++) {
                    u = (uint32_t)tails->tok[k];
                    hh = fnv(hh, &u, 4);
                }
                cr_assert(block[tails->head[i]] & SL_LOGITS_DRY_HEAD);
            }
            cr_assert_eq(hh, h, "%s: other pairs than libllama's", line);
            free(block);
            c.restarts++;
        } else if (!strncmp(line, "gen ", 4)) {
            cr_assert(li + 1 < nl);
            char *prompt = lines[++li];
            char *steps[100];
            for (int s = 0; s < 100; s++) {
                cr_assert(li + 1 < nl);
                steps[s] = lines[++li];
                if (li + 1 < nl && !strncmp(lines[li + 1], "pen ", 4)) /* after a step that changed logits */
                    li++;
            }
            char gen_copy[512], prompt_copy[1024];
            snprintf(gen_copy, sizeof gen_copy, "%s", line);
            snprintf(prompt_copy, sizeof prompt_copy, "%s", prompt);
            int same = replay(&v, gen_copy, prompt_copy, steps, 1, &c);
            if (same < 0) {
                c.gens_refused++;
                continue;
            }
            cr_assert_eq(same, 100);
            snprintf(gen_copy, sizeof gen_copy, "%s", line);
            c.gens_differ_without_tails += replay(&v, gen_copy, prompt_copy, steps, 0, &c) < 100;
            c.gens++;
            c.steps += 100;
        }
    }
    if (have)
        vocab_free(&v);
    free(lines);
    free(text);
    printf("llamacpp_dry_multi: %zu vocabularies, %zu breaker rests tokenized as llama_tokenize (%zu refused), %zu "
           "restart sets, %zu generations (%zu steps, %zu where DRY changed logits) equal to libllama 0.4.0 (%zu "
           "refused); %zu of them differ with the tails dropped\n",
           c.vocabs, c.tails, c.tails_refused, c.restarts, c.gens, c.steps, c.fired, c.gens_refused,
           c.gens_differ_without_tails);
    cr_assert_eq(c.vocabs, 5);
    cr_assert_geq(c.tails, 200);
    cr_assert_geq(c.restarts, 55);
    cr_assert_geq(c.gens, 55);
    cr_assert_geq(c.gens_differ_without_tails, c.gens / 4, "dropping the tails changed only %zu of %zu generations",
                  c.gens_differ_without_tails, c.gens);
}

/* The SPM generations (V up to 32,064) through the command line: replay with the breakers typed as
 * --dry-sequence-breaker '\xHH...' and --vocab the GGUF, the prompt as --context, 'dry;temperature' at
 * temperature 0 (the first maximum, as the golden program takes it): libllama's 100 tokens. */
Test(llamacpp_dry_multi, cli_replay, .timeout = 600)
{
    char *text = sl_test_slurp("data/golden/llamacpp_0.4.0/llamacpp_dry_multi.txt");
    cr_assert(text);
    char *cursor = NULL, *vn = NULL;
    size_t V = 0, n_gen = 0;
    float *rows = malloc(100 * 32064 * sizeof *rows);
    char *args = malloc(16384), *ctx = malloc(4096), *toks = malloc(2048), *opts = malloc(2048);
    cr_assert(rows && args && ctx && toks && opts);
    for (char *line = strtok_r(text, "\n", &cursor); line; line = strtok_r(NULL, "\n", &cursor)) {
        if (!strncmp(line, "vocab ", 6)) {
            static char name[64];
            cr_assert_eq(sscanf(line, "vocab %63s n=%zu", name, &V), 2);
            vn = name;
            continue;
        }
        if (strncmp(line, "gen ", 4) || V > 32064)
            continue;
        int id, allowed, last_n, m;
        char mult[32], base[32], list[256];
        uint64_t seed;
        cr_assert_eq(sscanf(line, "gen %d vocab=%*s mult=%31s base=%31s allowed=%d last_n=%d breakers=%255s seed=%" SCNu64
                            " name=%*s pat=%d", &id, mult, base, &allowed, &last_n, list, &seed, &m), 8, "%s", line);
        size_t k = (size_t)snprintf(opts, 2048, "--dry-multiplier %s --dry-base %s --dry-allowed-length %d "
                                    "--dry-penalty-last-n %d --vocab %s/%s", mult, base, allowed, last_n,
                                    sl_test_vocab_dir(), vn);
        for (char *save, *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
            k += (size_t)snprintf(opts + k, 2048 - k, " --dry-sequence-breaker '");
            for (size_t i = 0; b[i] && b[i + 1]; i += 2)
                k += (size_t)snprintf(opts + k, 2048 - k, "\\x%c%c", b[i], b[i + 1]);
            k += (size_t)snprintf(opts + k, 2048 - k, "'");
        }
        char *p = strtok_r(NULL, "\n", &cursor);
        long pr[64];
        int P = 0, used;
        cr_assert_eq(sscanf(p, "prompt %*d%n", &used), 0);
        p += used;
        k = 0;
        while (sscanf(p, " %ld%n", &pr[P], &used) == 1) {
            k += (size_t)snprintf(ctx + k, 4096 - k, "%s%ld", P ? "," : "", pr[P]);
            p += used;
            P++;
        }
        k = 0;
        for (int s = 0; s < 100; s++) {
            char *sl = strtok_r(NULL, "\n", &cursor);
            long t;
            cr_assert_eq(sscanf(sl, "step %*d %*d token=%ld", &t), 1, "%s", sl);
            k += (size_t)snprintf(toks + k, 2048 - k, "%s%ld", s ? "," : "", t);
            if (!strstr(sl, "changed=0"))
                strtok_r(NULL, "\n", &cursor); /* its pen line */
            step_logits(seed, s, V, pr, m, P, rows + (size_t)s * V);
        }
        char *npy = sl_test_npy_f32(rows, 100, V);
        snprintf(args, 16384, "replay --framework llamacpp --logits %s --context %s --samplers 'dry;temperature' "
                              "--temperature 0 --seed 1 %s --json", npy, ctx, opts);
        sl_test_run r = sl_test_cli(args);
        cr_assert_eq(r.status, 0, "gen %d: %s: %s", id, args, r.err);
        char want[2100];
        snprintf(want, sizeof want, "\"tokens\":[%s]", toks);
        cr_expect(strstr(r.out, want) != NULL, "gen %d: replay's tokens differ from libllama's: %.300s", id, r.out);
        sl_test_run_free(&r);
        unlink(npy);
        free(npy);
        n_gen++;
    }
    printf("llamacpp_dry_multi: %zu generations with breakers of several tokens through replay equal to libllama "
           "0.4.0\n", n_gen);
    cr_expect_geq(n_gen, 20);
    /* refused by name, one line, exit 2: a BPE rest outside ASCII, a token list for a breaker needing a tail */
    snprintf(args, 16384, "pipeline --framework llamacpp --logits 1,2 --dry-multiplier 0.8 --dry-sequence-breaker "
                          "'\\xe2\\x80\\x9c' --vocab %s/ggml-vocab-qwen2.gguf", sl_test_vocab_dir());
    sl_test_expect_refused(args, "outside printable ASCII");
    free(rows), free(args), free(ctx), free(toks), free(opts);
    free(text);
}
