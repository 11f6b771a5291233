/* llamacpp_dry.c — llama.cpp's DRY sampler (llama_sampler_init_dry of
 * libllama, Debian sid 0.7.0) with real vocabularies: llama.cpp's own
 * models/ggml-vocab-*.gguf loaded with vocab_only.
 *
 * Per vocabulary:
 *   vocab NAME n=N pieces=H      H: fnv1a64 over every token's piece
 *                                (llama_detokenize of the one token,
 *                                remove_special 0, unparse_special 1: what
 *                                get_overlapping_token_sequences reads), each
 *                                as its 4-byte length then its bytes
 *   breaker NAME HEX n=K ids=H   the tokens whose piece contains the breaker
 *                                (HEX: its bytes), K of them, H = fnv1a64 of
 *                                their ids as 4-byte words
 *   first NAME HEX ID            the first such token (-1: none)
 * Then generations: a DRY sampler alone, the prompt accepted into it, then
 * 100 steps over logits made by the generator below (a repeating pattern the
 * logits favour, so DRY fires); each step llama_sampler_apply on
 * {id i, logit, 0} for every id, the token the greedy rule picks (the first
 * largest logit, llama_sampler_greedy_apply), llama_sampler_accept:
 *   gen ID vocab=NAME mult=M base=B allowed=A last_n=L breakers=LIST seed=S
 *   prompt ID t...
 *   step ID K token=T changed=C h=H   C logits DRY changed, H = fnv1a64 of
 *                                     (id, new logit bits) of each
 *   pen ID K id:logit-as-%a ...       the first 16 of them
 * Then, for the SPM vocabularies, DRY in the default chain as common_sampler_init
 * builds it (penalties, dry, top_n_sigma, top_k, typical, top_p, min_p, xtc,
 * temp_ext, dist(seed)), the prompt accepted, 100 steps over the same logits
 * (the pattern from seed), each selected token accepted into the chain:
 *   chain ID vocab=NAME seed=S pen=R mult=M allowed=A last_n=L breakers=default|none
 *         top_k=K top_p=P min_p=M xtc_p=X temp=T
 *   prompt ID t...
 *   tokens ID t0 ... t99
 * LIST: "default" (common_params_sampling's "\n" ":" "\"" "*"), "none" (no
 * breakers), or hex strings joined by ','.
 * With `multi` first (llamacpp_dry_multi.txt): breakers of several characters,
 * whose restart sequences are a head token and the tokens llama.cpp's
 * tokenizer makes of the breaker's rest (get_overlapping_token_sequences):
 *   tail NAME HEX K n=N t...      llama_tokenize(breaker + K, add_special 0,
 *                                 parse_special 0): the tail of a head token
 *                                 whose piece ends in the breaker's first K bytes
 *   restart NAME HEX single=S pairs=N h=H   S tokens whose piece holds the
 *                                 breaker, N (head, tail) pairs (tails cut at
 *                                 20 tokens, duplicates of a head dropped),
 *                                 H = fnv1a64 over (head, tail length, tail)
 *                                 in token then piece-position order
 *   gen/prompt/step/pen as above, one a breaker that has restart sequences of
 *   several tokens (the settings in turn), the prompt's pattern a, head,
 *   tail..., b (the first pair with the longest tail of at most 4 tokens),
 *   LIST the hex breakers, and pat=M the pattern's length at the gen line's end

 * Logits: logit[v] = (splitmix64(seed * 2^32 + step * V + v) >> 61) / 2 (eight
 * levels, so ties are common), -INFINITY for v % 101 == 7, and the pattern
 * token pat[(P + step) % 4] + 6, pat[(P + step + 1) % 4] + 5 (P the prompt's
 * length).
 * Usage: llamacpp_dry VOCAB.gguf... > llamacpp_dry.txt */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ggml-backend.h>
#include <llama.h>

#ifndef LLAMA_PKG_VERSION
#define LLAMA_PKG_VERSION "unknown"
#endif

#define STEPS 100

static void quiet(enum ggml_log_level level, const char *text, void *ud)
{
    (void)ud;
    if (level >= GGML_LOG_LEVEL_ERROR)
        fputs(text, stderr);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}
#define FNV0 14695981039346656037ULL

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static void hex(const char *s, char *out)
{
    out[0] = '\0';
    for (; *s; s++)
        sprintf(out + strlen(out), "%02x", (unsigned char)*s);
}

typedef struct cfg {
    float mult, base;
    int allowed, last_n;
    const char *breakers[4]; /* NULL-terminated; breakers[0] NULL and none 0: default */
    int none;
    uint64_t seed;
    int bprompt;             /* 1: a breaker token inside the prompt's pattern */
} cfg;

static const char *const defaults[] = {"\n", ":", "\"", "*"};

static int multi(int argc, char **argv);

int main(int argc, char **argv)
{
    llama_log_set(quiet, NULL);
    ggml_backend_load_all();
    if (argc > 1 && !strcmp(argv[1], "multi"))
        return multi(argc - 1, argv + 1);
    printf("# llamacpp_dry: libllama %s, llama_sampler_init_dry over ggml-vocab-*.gguf (vocab_only)\n",
           LLAMA_PKG_VERSION);
    static const cfg cfgs[] = {
        {0.8f, 1.75f, 2, 64, {NULL}, 0, 1, 0},
        {0.8f, 1.75f, 2, 64, {NULL}, 0, 2, 1},
        {0.8f, 1.75f, 2, 64, {NULL}, 1, 3, 1},
        {0.8f, 1.75f, 2, -1, {NULL}, 0, 4, 0},
        {0.8f, 1.75f, 2, 0, {NULL}, 0, 5, 0},
        {0.0f, 1.75f, 2, 64, {NULL}, 0, 6, 0},
        {0.8f, 0.5f, 2, 64, {NULL}, 0, 7, 0},
        {0.8f, 1.0f, 2, 64, {NULL}, 0, 8, 0},
        {1.5f, 1.000001f, 1, 64, {NULL}, 0, 9, 0},
        {2.5f, 3.0f, 0, 200, {NULL}, 0, 10, 0},
        {0.5f, 20.0f, 0, 300, {NULL}, 1, 11, 0},
        {0.8f, 1.75f, -1, 64, {NULL}, 0, 12, 0},
        {0.8f, 1.75f, 5, 64, {NULL}, 0, 13, 0},
        {0.8f, 1.75f, 2, 1, {NULL}, 0, 14, 0},
        {0.8f, 1.75f, 2, 3, {NULL}, 0, 15, 0},
        {0.8f, 1.75f, 2, 64, {"x", NULL}, 0, 16, 1},
        {0.8f, 1.75f, 2, 64, {"\n", "!", NULL}, 0, 17, 1},
        {0.8f, 1.75f, 2, 64, {"", ".", NULL}, 0, 18, 1},
        {-0.7f, 1.75f, 2, 64, {NULL}, 0, 19, 0},
        {0.8f, 1.75f, 2, 100000, {NULL}, 0, 20, 0},
    };
    int id = 0;
    for (int a = 1; a < argc; a++) {
        const char *path = argv[a];
        const char *vn = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        struct llama_model_params mp = llama_model_default_params();
        mp.vocab_only = true;
        struct llama_model *model = llama_model_load_from_file(path, mp);
        if (!model) {
            fprintf(stderr, "llamacpp_dry: cannot load %s\n", path);
            return 1;
        }
        const struct llama_vocab *vocab = llama_model_get_vocab(model);
        int V = llama_vocab_n_tokens(vocab);
        char **piece = malloc((size_t)V * sizeof *piece);
        int *plen = malloc((size_t)V * sizeof *plen);
        uint64_t h = FNV0;
        for (int t = 0; t < V; t++) {
            char buf[1024];
            int n = llama_detokenize(vocab, &t, 1, buf, sizeof buf, false, true);
            if (n < 0) {
                fprintf(stderr, "llamacpp_dry: piece of %d is over 1024 bytes\n", t);
                return 1;
            }
            piece[t] = malloc((size_t)n + 1);
            memcpy(piece[t], buf, (size_t)n);
            piece[t][n] = '\0';
            plen[t] = n;
            uint32_t l = (uint32_t)n;
            h = fnv(h, &l, 4);
            h = fnv(h, buf, (size_t)n);
        }
        printf("vocab %s n=%d pieces=%016" PRIx64 "\n", vn, V, h);
        static const char *const probe[] = {"\n", ":", "\"", "*", "x", "!", ".", NULL};
        int first[8];
        for (int b = 0; probe[b]; b++) {
            char hx[16];
            hex(probe[b], hx);
            uint64_t hb = FNV0;
            int k = 0;
            first[b] = -1;
            for (int t = 0; t < V; t++)
                if (memchr(piece[t], probe[b][0], (size_t)plen[t])) {
                    uint32_t u = (uint32_t)t;
                    hb = fnv(hb, &u, 4);
                    if (first[b] < 0)
                        first[b] = t;
                    k++;
                }
            printf("breaker %s %s n=%d ids=%016" PRIx64 "\n", vn, hx, k, hb);
            printf("first %s %s %d\n", vn, hx, first[b]);
        }
        float *logit = malloc((size_t)V * sizeof *logit);
        llama_token_data *cd = malloc((size_t)V * sizeof *cd);
        for (size_t ci = 0; ci < sizeof cfgs / sizeof *cfgs; ci++, id++) {
            const cfg *c = &cfgs[ci];
            const char *br[4];
            size_t nb = 0;
            char list[128] = "";
            if (c->none) {
                strcpy(list, "none");
            } else if (!c->breakers[0]) {
                for (; nb < 4; nb++)
                    br[nb] = defaults[nb];
                strcpy(list, "default");
            } else {
                for (; c->breakers[nb]; nb++) {
                    char hx[16];
                    br[nb] = c->breakers[nb];
                    hex(br[nb], hx);
                    if (nb)
                        strcat(list, ",");
                    strcat(list, *hx ? hx : "-");
                }
            }
            struct llama_sampler *dry =
                llama_sampler_init_dry(vocab, c->mult, c->base, c->allowed, c->last_n, nb ? br : NULL, nb);
            printf("gen %d vocab=%s mult=%a base=%a allowed=%d last_n=%d breakers=%s seed=%" PRIu64 " name=%s\n", id,
                   vn, c->mult, c->base, c->allowed, c->last_n, list, c->seed, llama_sampler_name(dry));
            /* the pattern: four tokens from the generator; with bprompt the first '\n' token among them */
            int pat[4];
            for (int i = 0; i < 4; i++)
                pat[i] = (int)(splitmix64(c->seed * 7919 + (uint64_t)i) % (uint64_t)V);
            if (c->bprompt && first[0] >= 0)
                pat[2] = first[0];
            int P = 22;
            printf("prompt %d", id);
            for (int i = 0; i < P; i++) {
                int t = pat[i % 4];
                if (i == 13) /* one break in the pattern */
                    t = pat[(i + 1) % 4];
                printf(" %d", t);
                llama_sampler_accept(dry, t);
            }
            printf("\n");
            for (int s = 0; s < STEPS; s++) {
                for (int v = 0; v < V; v++) {
                    uint64_t r = splitmix64(c->seed * 4294967296ULL + (uint64_t)s * (uint64_t)V + (uint64_t)v);
                    logit[v] = v % 101 == 7 ? -INFINITY : (float)(r >> 61) * 0.5f;
                }
                logit[pat[(P + s + 1) % 4]] += 5.0f;
                logit[pat[(P + s) % 4]] += 6.0f;
                for (int v = 0; v < V; v++) {
                    cd[v].id = v;
                    cd[v].logit = logit[v];
                    cd[v].p = 0.0f;
                }
                llama_token_data_array arr = {cd, (size_t)V, -1, false};
                llama_sampler_apply(dry, &arr);
                int best = 0, changed = 0;
                uint64_t hc = FNV0;
                char pen[16 * 40] = "";
                for (size_t i = 0; i < arr.size; i++) {
                    if (arr.data[i].logit > arr.data[best].logit)
                        best = (int)i;
                    uint32_t bits, bo;
                    memcpy(&bits, &arr.data[i].logit, 4);
                    memcpy(&bo, &logit[arr.data[i].id], 4);
                    if (bits != bo) {
                        uint32_t u = (uint32_t)arr.data[i].id;
                        hc = fnv(hc, &u, 4);
                        hc = fnv(hc, &bits, 4);
                        if (changed < 16)
                            sprintf(pen + strlen(pen), " %d:%a", arr.data[i].id, arr.data[i].logit);
                        changed++;
                    }
                }
                int tok = arr.data[best].id;
                printf("step %d %d token=%d changed=%d h=%016" PRIx64 "\n", id, s, tok, changed, hc);
                if (changed)
                    printf("pen %d %d%s\n", id, s, pen);
                llama_sampler_accept(dry, tok);
            }
            llama_sampler_free(dry);
        }
        /* DRY in the default chain, as common_sampler_init (0.7.0) builds it, over the SPM vocabularies */
        static const struct chain_case {
            float pen, mult;
            int allowed, last_n, none, top_k;
            float top_p, min_p, xtc_p, temp;
            uint32_t seed;
        } chains[] = {
            {1.0f, 0.8f, 2, 64, 0, 40, 0.95f, 0.05f, 0.0f, 0.8f, 42},   /* the defaults, DRY on */
            {1.1f, 1.5f, 1, 64, 0, 0, 1.0f, 0.0f, 0.0f, 1.0f, 7},       /* no filters: every token drawable */
            {1.1f, 1.5f, 1, 200, 1, 0, 1.0f, 0.0f, 0.5f, 1.0f, 1234},   /* no breakers, XTC drawing too */
        };
        for (size_t k = 0; strstr(vn, "-spm") || strstr(vn, "phi-3") ? k < sizeof chains / sizeof *chains : 0; k++) {
            const struct chain_case *c = &chains[k];
            struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
            llama_sampler_chain_add(ch, llama_sampler_init_penalties(V, 64, c->pen, 0.0f, 0.0f));
            const char *dbr[4] = {defaults[0], defaults[1], defaults[2], defaults[3]};
            llama_sampler_chain_add(ch, llama_sampler_init_dry(vocab, c->mult, 1.75f, c->allowed, c->last_n,
                                                               c->none ? NULL : dbr, c->none ? 0 : 4));
            llama_sampler_chain_add(ch, llama_sampler_init_top_n_sigma(-1.0f));
            llama_sampler_chain_add(ch, llama_sampler_init_top_k(c->top_k));
            llama_sampler_chain_add(ch, llama_sampler_init_typical(1.0f, 0));
            llama_sampler_chain_add(ch, llama_sampler_init_top_p(c->top_p, 0));
            llama_sampler_chain_add(ch, llama_sampler_init_min_p(c->min_p, 0));
            llama_sampler_chain_add(ch, llama_sampler_init_xtc(c->xtc_p, 0.1f, 0, c->seed));
            llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(c->temp, 0.0f, 1.0f));
            llama_sampler_chain_add(ch, llama_sampler_init_dist(c->seed));
            printf("chain %d vocab=%s seed=%u pen=%a mult=%a allowed=%d last_n=%d breakers=%s top_k=%d top_p=%a "
                   "min_p=%a xtc_p=%a temp=%a\n",
                   id, vn, c->seed, c->pen, c->mult, c->allowed, c->last_n, c->none ? "none" : "default", c->top_k,
                   c->top_p, c->min_p, c->xtc_p, c->temp);
            int pat[4], P = 22;
            for (int i = 0; i < 4; i++)
                pat[i] = (int)(splitmix64((uint64_t)c->seed * 7919 + (uint64_t)i) % (uint64_t)V);
            printf("prompt %d", id);
            for (int i = 0; i < P; i++) {
                printf(" %d", pat[i % 4]);
                llama_sampler_accept(ch, pat[i % 4]);
            }
            printf("\ntokens %d", id);
            for (int s = 0; s < STEPS; s++) {
                for (int v = 0; v < V; v++) {
                    uint64_t r = splitmix64((uint64_t)c->seed * 4294967296ULL + (uint64_t)s * (uint64_t)V + (uint64_t)v);
                    cd[v].id = v;
                    cd[v].logit = v % 101 == 7 ? -INFINITY : (float)(r >> 61) * 0.5f;
                    cd[v].p = 0.0f;
                }
                cd[pat[(P + s + 1) % 4]].logit += 5.0f;
                cd[pat[(P + s) % 4]].logit += 6.0f;
                llama_token_data_array arr = {cd, (size_t)V, -1, false};
                llama_sampler_apply(ch, &arr); /* llama_sampler_sample's apply, then its accept */
                int tok = arr.data[arr.selected].id;
                printf(" %d", tok);
                llama_sampler_accept(ch, tok);
            }
            printf("\n");
            llama_sampler_free(ch);
            id++;
        }
        for (int t = 0; t < V; t++)
            free(piece[t]);
        free(piece);
        free(plen);
        free(logit);
        free(cd);
        llama_model_free(model);
    }
    return 0;
}

/* The logits of step s as main's generations make them, favouring pat[(P + s) % m] and the next. */
static void step_logits(float *logit, int V, uint64_t seed, int s, const int *pat, int m, int P)
{
    for (int v = 0; v < V; v++) {
        uint64_t r = splitmix64(seed * 4294967296ULL + (uint64_t)s * (uint64_t)V + (uint64_t)v);
        logit[v] = v % 101 == 7 ? -INFINITY : (float)(r >> 61) * 0.5f;
    }
    logit[pat[(P + s + 1) % m]] += 5.0f;
    logit[pat[(P + s) % m]] += 6.0f;
}

#define MAX_SEQ 20

/* get_overlapping_token_sequences for one breaker, as llama_sampler_init_dry runs it (the tail cut at
 * MAX_SEQ_LEN 20), printed as the restart line; *head and tail[] get the first pair whose tail is the
 * longest (for the generations' prompts). */
static void restart(const struct llama_vocab *vocab, const char *vn, char **piece, const int *plen, int V,
                    const char *b, int *head, int *tail, int *tail_n)
{
    char hx[128];
    hex(b, hx);
    int bl = (int)strlen(b);
    int tl[64][64], tn[64];
    for (int k = 1; k < bl; k++) {
        int n = llama_tokenize(vocab, b + k, bl - k, tl[k], 64, false, false);
        if (n < 0) {
            fprintf(stderr, "llamacpp_dry: tail of %s over 64 tokens\n", hx);
            exit(1);
        }
        tn[k] = n;
        printf("tail %s %s %d n=%d", vn, hx, k, n);
        for (int i = 0; i < n; i++)
            printf(" %d", tl[k][i]);
        printf("\n");
    }
    uint64_t h = FNV0;
    int single = 0, pairs = 0;
    *head = -1;
    *tail_n = 0;
    for (int t = 0; t < V; t++) {
        const char *w = piece[t];
        int wl = plen[t];
        int found = 0;
        for (int p = 0; p + bl <= wl && !found; p++)
            found = !memcmp(w + p, b, (size_t)bl);
        if (found) {
            single++;
            continue;
        }
        int seen[64][MAX_SEQ], seen_n[64], ns = 0;
        for (int p = 0; p < wl; p++) {
            int k = wl - p; /* the piece's last k bytes are the breaker's first k */
            if (k >= bl || memcmp(w + p, b, (size_t)k))
                continue;
            int n = tn[k] < MAX_SEQ ? tn[k] : MAX_SEQ, dup = 0;
            for (int j = 0; j < ns && !dup; j++)
                dup = seen_n[j] == n && !memcmp(seen[j], tl[k], (size_t)n * sizeof(int));
            if (dup)
                continue;
            memcpy(seen[ns], tl[k], (size_t)n * sizeof(int));
            seen_n[ns++] = n;
            uint32_t u = (uint32_t)t, l = (uint32_t)n;
            h = fnv(h, &u, 4);
            h = fnv(h, &l, 4);
            for (int i = 0; i < n; i++) {
                u = (uint32_t)tl[k][i];
                h = fnv(h, &u, 4);
            }
            pairs++;
            if (n > *tail_n && n <= 4) {
                *head = t;
                *tail_n = n;
                memcpy(tail, tl[k], (size_t)n * sizeof(int));
            }
        }
    }
    printf("restart %s %s single=%d pairs=%d h=%016" PRIx64 "\n", vn, hx, single, pairs, h);
}

static int multi(int argc, char **argv)
{
    printf("# llamacpp_dry multi: libllama %s, llama_sampler_init_dry with breakers of several characters\n",
           LLAMA_PKG_VERSION);
    /* no spaces (samplab refuses those); ASCII, one UTF-8 quote, digits, an apostrophe, CR LF */
    static const char *const brk[] = {
        "assistant", "User:", "<|im_end|>", "\n\n", "###", "Question", "ing", "\xe2\x80\x9c", "2024",
        "it's", "\r\n", "Instruction:Response", "[/INST]", NULL,
    };
    static const struct gcase {
        float mult, base;
        int allowed, last_n, with_defaults;
    } gcases[] = {
        {0.8f, 1.75f, 2, 64, 0},
        {1.5f, 1.75f, 1, 64, 1},
        {0.8f, 2.0f, 0, 200, 0},
    };
    int id = 0;
    for (int a = 1; a < argc; a++) {
        const char *path = argv[a];
        const char *vn = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        struct llama_model_params mp = llama_model_default_params();
        mp.vocab_only = true;
        struct llama_model *model = llama_model_load_from_file(path, mp);
        if (!model) {
            fprintf(stderr, "llamacpp_dry: cannot load %s\n", path);
            return 1;
        }
        const struct llama_vocab *vocab = llama_model_get_vocab(model);
        int V = llama_vocab_n_tokens(vocab);
        char **piece = malloc((size_t)V * sizeof *piece);
        int *plen = malloc((size_t)V * sizeof *plen);
        for (int t = 0; t < V; t++) {
            char buf[1024];
            int n = llama_detokenize(vocab, &t, 1, buf, sizeof buf, false, true);
            if (n < 0) {
                fprintf(stderr, "llamacpp_dry: piece of %d is over 1024 bytes\n", t);
                return 1;
            }
            piece[t] = malloc((size_t)n + 1);
            memcpy(piece[t], buf, (size_t)n);
            piece[t][n] = '\0';
            plen[t] = n;
        }
        printf("vocab %s n=%d\n", vn, V);
        float *logit = malloc((size_t)V * sizeof *logit);
        llama_token_data *cd = malloc((size_t)V * sizeof *cd);
        for (int bi = 0; brk[bi]; bi++) {
            int head, tail[MAX_SEQ], tail_n;
            restart(vocab, vn, piece, plen, V, brk[bi], &head, tail, &tail_n);
            if (head < 0)
                continue;
            char hx[128];
            hex(brk[bi], hx);
            /* one case a breaker, in turn */
            for (size_t ci = (size_t)bi % 3; ci == (size_t)bi % 3; ci++, id++) {
                const struct gcase *c = &gcases[ci];
                const char *br[5] = {brk[bi]};
                size_t nb = 1;
                char list[160];
                strcpy(list, hx);
                if (c->with_defaults) {
                    for (int k = 0; k < 4; k++) {
                        char dh[8];
                        br[nb++] = defaults[k];
                        hex(defaults[k], dh);
                        strcat(list, ",");
                        strcat(list, dh);
                    }
                }
                uint64_t seed = 100 + (uint64_t)id;
                struct llama_sampler *dry =
                    llama_sampler_init_dry(vocab, c->mult, c->base, c->allowed, c->last_n, br, nb);
                /* the pattern a, head, tail..., b: a restart sequence inside every repeat */
                int pat[3 + MAX_SEQ], m = 0;
                pat[m++] = (int)(splitmix64(seed * 7919) % (uint64_t)V);
                pat[m++] = head;
                for (int i = 0; i < tail_n; i++)
                    pat[m++] = tail[i];
                pat[m++] = (int)(splitmix64(seed * 7919 + 1) % (uint64_t)V);
                printf("gen %d vocab=%s mult=%a base=%a allowed=%d last_n=%d breakers=%s seed=%" PRIu64
                       " name=%s pat=%d\n",
                       id, vn, c->mult, c->base, c->allowed, c->last_n, list, seed, llama_sampler_name(dry), m);
                int P = 22;
                printf("prompt %d", id);
                for (int i = 0; i < P; i++) {
                    int t = pat[i % m];
                    if (i == 13) /* one break in the pattern */
                        t = pat[(i + 1) % m];
                    printf(" %d", t);
                    llama_sampler_accept(dry, t);
                }
                printf("\n");
                for (int s = 0; s < STEPS; s++) {
                    step_logits(logit, V, seed, s, pat, m, P);
                    for (int v = 0; v < V; v++) {
                        cd[v].id = v;
                        cd[v].logit = logit[v];
                        cd[v].p = 0.0f;
                    }
                    llama_token_data_array arr = {cd, (size_t)V, -1, false};
                    llama_sampler_apply(dry, &arr);
                    int best = 0, changed = 0;
                    uint64_t hc = FNV0;
                    char pen[16 * 40] = "";
                    for (size_t i = 0; i < arr.size; i++) {
                        if (arr.data[i].logit > arr.data[best].logit)
                            best = (int)i;
                        uint32_t bits, bo;
                        memcpy(&bits, &arr.data[i].logit, 4);
                        memcpy(&bo, &logit[arr.data[i].id], 4);
                        if (bits != bo) {
                            uint32_t u = (uint32_t)arr.data[i].id;
                            hc = fnv(hc, &u, 4);
                            hc = fnv(hc, &bits, 4);
                            if (changed < 16)
                                sprintf(pen + strlen(pen), " %d:%a", arr.data[i].id, arr.data[i].logit);
                            changed++;
                        }
                    }
                    int tok = arr.data[best].id;
                    printf("step %d %d token=%d changed=%d h=%016" PRIx64 "\n", id, s, tok, changed, hc);
                    if (changed)
                        printf("pen %d %d%s\n", id, s, pen);
                    llama_sampler_accept(dry, tok);
                }
                llama_sampler_free(dry);
            }
        }
        for (int t = 0; t < V; t++)
            free(piece[t]);
        free(piece);
        free(plen);
        free(logit);
        free(cd);
        llama_model_free(model);
    }
    return 0;
}
