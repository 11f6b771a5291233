/* llamacpp_generate.c — a real generation loop over libllama (Debian sid
 * llama.cpp 0.7.0) on the tiny random GGUF of make_tiny_gguf.py: per run,
 * clear the KV memory, llama_decode the prompt token ids, then per step read
 * llama_get_logits_ith(ctx, -1) (saved), draw with
 * llama_sampler_sample(chain, ctx, -1) (which accepts the token into the
 * chain, i.e. the penalties history) and decode the token.
 *
 * Beside it a twin chain with the same settings and seed runs the documented
 * equivalent by hand on the saved logits: llama_sampler_apply on
 * {id i, logit, 0}, data[selected].id, llama_sampler_accept; its tokens must
 * equal llama_sampler_sample's (the "twin" field). Words per step come from
 * the probe of llamacpp_probe.h.
 *
 * Usage: llamacpp_generate MODEL.gguf OUT.npy [orders] > MANIFEST.txt
 * With `orders`: 100-step runs whose chains are user orders (build_order_chain
 * of llamacpp_probe.h, as common_sampler_init builds them from --samplers),
 * with two more records a run: `order ID NAMES` ('-': none) and
 * `kept ID n:h ...` (the twin's candidates above -inf and kept_hash of them).
 * OUT.npy: float32 [T, V], row r = the logits of step r, runs one after the
 * other (run i owns rows rows=A..B-1). Manifest records, one per line:
 *   run ID seed=S temp=... accept_prompt=0|1 steps=24 (the settings, as
 *        llamacpp_chain.txt's case; accept_prompt 1: the prompt ids were
 *        passed to llama_sampler_accept before the first step)
 *   chain ID NAME,...
 *   prompt ID t...   tokens ID t...   words ID w... total W   rows ID A B
 *   twin ID 1|0 (manual apply+accept drew the same tokens)
 *   logits ID fnv1a64-of-each-row... */
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

extern int LLAMA_BUILD_NUMBER;
extern const char *LLAMA_COMMIT;
extern const char *LLAMA_COMPILER;
extern const char *LLAMA_BUILD_TARGET;

#define STEPS 24      /* a run's steps */
#define ORDER_STEPS 100 /* an orders run's */

static void quiet(enum ggml_log_level level, const char *text, void *ud)
{
    (void)ud;
    if (level >= GGML_LOG_LEVEL_ERROR)
        fputs(text, stderr);
}

static int write_npy(const char *path, const float *x, size_t rows, size_t cols)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    char h[128];
    int n = snprintf(h, sizeof h, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %zu), }", rows, cols);
    int total = 10 + n + 1;
    int pad = (64 - total % 64) % 64;
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    uint16_t hl = (uint16_t)(n + pad + 1);
    unsigned char hb[2] = {(unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
    fwrite(hb, 1, 2, f);
    fwrite(h, 1, (size_t)n, f);
    for (int i = 0; i < pad; i++)
        fputc(' ', f);
    fputc('\n', f);
    fwrite(x, sizeof(float), rows * cols, f); /* little-endian host (x86_64) */
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "orders"))) {
        fprintf(stderr, "usage: llamacpp_generate MODEL.gguf OUT.npy [orders] > MANIFEST.txt\n");
        return 2;
    }
    const int orders = argc == 4;
    const int steps = orders ? ORDER_STEPS : STEPS;
    llama_log_set(quiet, NULL);
    ggml_backend_load_all();
    llama_backend_init();
    probe_buf = malloc(PROBE_V * sizeof *probe_buf);

    struct llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    struct llama_model *model = llama_model_load_from_file(argv[1], mp);
    if (!model) {
        fprintf(stderr, "cannot load %s\n", argv[1]);
        return 1;
    }
    const struct llama_vocab *vocab = llama_model_get_vocab(model);
    const int V = llama_vocab_n_tokens(vocab);
    struct llama_context_params cp = llama_context_default_params();
    cp.n_ctx = 256;
    cp.n_batch = 256;
    cp.n_ubatch = 256;
    cp.n_threads = 1; /* one thread: the same summation order on every machine */
    cp.n_threads_batch = 1;
    struct llama_context *ctx = llama_init_from_model(model, cp);
    if (!ctx) {
        fprintf(stderr, "cannot create a context\n");
        return 1;
    }
    char desc[256];
    llama_model_desc(model, desc, sizeof desc);
    printf("# llamacpp_generate%s: llama.cpp %s build %d (commit %s, %s, %s), llama_decode + llama_sampler_sample\n",
           orders ? " orders" : "", LLAMA_PKG_VERSION, LLAMA_BUILD_NUMBER, LLAMA_COMMIT, LLAMA_COMPILER, LLAMA_BUILD_TARGET);
    printf("# system_info: %s\n", llama_print_system_info());
    printf("# this program: gcc %s; n_threads 1, n_ctx 256, CPU backend\n", __VERSION__);
    printf("# model: %s, n_vocab %d, n_embd %d, n_layer %d, params %" PRIu64 "\n", desc, V,
           llama_model_n_embd(model), llama_model_n_layer(model), llama_model_n_params(model));

    static const llama_token prompt[] = {1, 300, 301, 302, 303, 304, 305, 306};
    const int np = (int)(sizeof prompt / sizeof *prompt);
    struct run {
        cfg c;
        uint32_t seed;
    } runs[] = {
        {{0.8f, 40, 0.95f, 0.05f, 1.0f, 64, 1.0f, 0.0f, 0.0f, 0, NULL}, 42},       /* common defaults */
        {{0.0f, 40, 0.95f, 0.05f, 1.0f, 64, 1.0f, 0.0f, 0.0f, 0, NULL}, 42},       /* temp 0: greedy */
        {{1.0f, 0, 1.0f, 0.0f, 1.0f, 0, 1.0f, 0.0f, 0.0f, 0, NULL}, 0},            /* plain softmax */
        {{0.9f, 40, 0.95f, 0.05f, 1.0f, 64, 1.3f, 0.5f, 0.5f, 0, NULL}, 1},        /* all penalties */
        {{1.2f, 5, 1.0f, 0.0f, 0.8f, 8, 1.5f, 0.0f, 0.0f, 1, NULL}, 4294967294u},  /* top-k, typical, repeat */
        {{0.5f, 0, 0.9f, 0.1f, 1.0f, -1, 1.1f, 0.2f, 0.0f, 2, NULL}, 7},           /* last_n -1 (whole context) */
        {{1.5f, 0, 1.0f, 0.0f, 1.0f, 16, 2.0f, 1.0f, 1.0f, 0, NULL}, 123456789},   /* strong penalties, hot */
        {{0.0f, 0, 1.0f, 0.0f, 1.0f, 64, 3.0f, 0.0f, 0.0f, 0, NULL}, 42},          /* greedy with repeat penalty */
        {{0.9f, 40, 0.95f, 0.05f, 1.0f, 64, 1.3f, 0.5f, 0.5f, 0, NULL}, 1},        /* run 3, prompt accepted first */
    };
    /* the orders: every stage on (temperature 1, so that the order alone moves the tokens), then temp 0 */
#define ORD(o, t, s) {{t, 20, 0.9f, 0.05f, 0.95f, 32, 1.2f, 0.1f, 0.1f, 0, o}, s}
    struct run oruns[] = {
        ORD("penalties;top_k;typ_p;top_p;min_p;temperature", 1.0f, 42), ORD("top_p;top_k;temperature", 1.0f, 42),
        ORD("temperature;top_k;top_p;min_p", 1.0f, 42),   ORD("min_p;top_k;top_p;temperature", 1.0f, 42),
        ORD("top_k;top_k;temperature;temperature", 1.0f, 7), ORD("top_k;top_p;min_p;temperature;penalties", 1.0f, 7),
        ORD("top_p", 1.0f, 7),                               ORD("", 1.0f, 7),
        ORD("penalties;top_k;temperature", 0.0f, 42),      ORD("temperature;top_k", 0.0f, 42),
        ORD("penalties;temperature;penalties;top_k", 0.8f, 1), ORD("typ_p;min_p;temperature;top_p", 1.3f, 1),
    };
#undef ORD
    struct run *rs = orders ? oruns : runs;
    const int nr = orders ? (int)(sizeof oruns / sizeof *oruns) : (int)(sizeof runs / sizeof *runs);
    float *all = malloc((size_t)nr * (size_t)steps * (size_t)V * sizeof(float));
    llama_token_data *d = malloc((size_t)V * sizeof *d);
    int *ids = malloc((size_t)V * sizeof *ids);
    if (!all || !d || !ids || !probe_buf)
        return 1;
    int bad = 0;
    for (int r = 0; r < nr; r++) {
        const cfg *c = &rs[r].c;
        int di, di2;
        struct llama_sampler *ch = build_chain(c, (size_t)V, rs[r].seed, &di);
        struct llama_sampler *twin = build_chain(c, (size_t)V, rs[r].seed, &di2);
        /* the last run feeds the prompt into the history first, as
         * llama-completion does (common_sampler_accept for each prompt token) */
        const int accept_prompt = r == nr - 1;
        for (int i = 0; accept_prompt && i < np; i++) {
            llama_sampler_accept(ch, prompt[i]);
            llama_sampler_accept(twin, prompt[i]);
        }
        llama_memory_clear(llama_get_memory(ctx), true);
        llama_token buf[sizeof prompt / sizeof *prompt];
        memcpy(buf, prompt, sizeof prompt);
        if (llama_decode(ctx, llama_batch_get_one(buf, np))) {
            fprintf(stderr, "decode of the prompt failed\n");
            return 1;
        }
        if (di >= 0)
            ref_stream(rs[r].seed);
        llama_token tok[ORDER_STEPS];
        long pos[ORDER_STEPS + 1];
        size_t nk[ORDER_STEPS];
        uint64_t kh[ORDER_STEPS];
        int twin_ok = 1;
        for (int t = 0; t < steps; t++) {
            const float *lg = llama_get_logits_ith(ctx, -1);
            float *row = all + ((size_t)r * (size_t)steps + (size_t)t) * (size_t)V;
            memcpy(row, lg, (size_t)V * sizeof(float));
            if (di >= 0)
                pos[t] = position(ch, di, t ? (pos[t - 1] < 0 ? 0 : pos[t - 1]) : 0);
            tok[t] = llama_sampler_sample(ch, ctx, -1);
            for (int i = 0; i < V; i++)
                d[i] = (llama_token_data){i, row[i], 0.0f};
            llama_token_data_array a = {d, (size_t)V, -1, false};
            llama_sampler_apply(twin, &a);
            llama_token tt = a.data[a.selected].id;
            kh[t] = kept_hash(&a, ids, &nk[t]);
            llama_sampler_accept(twin, tt);
            twin_ok &= tt == tok[t];
            llama_token one = tok[t];
            if (llama_decode(ctx, llama_batch_get_one(&one, 1))) {
                fprintf(stderr, "decode failed at step %d\n", t);
                return 1;
            }
        }
        if (di >= 0)
            pos[steps] = position(ch, di, pos[steps - 1] < 0 ? 0 : pos[steps - 1]);
        printf("run %d seed=%" PRIu32 " temp=%.9g top_k=%d top_p=%.9g min_p=%.9g typical=%.9g last_n=%d "
               "repeat=%.9g freq=%.9g present=%.9g min_keep=%d accept=1 accept_prompt=%d steps=%d\n",
               r, rs[r].seed, c->temp, c->top_k, c->top_p, c->min_p, c->typical, c->last_n, c->repeat, c->freq,
               c->present, c->min_keep, accept_prompt, steps);
        if (orders)
            printf("order %d %s\n", r, *c->order ? c->order : "-");
        printf("chain %d", r);
        for (int i = 0; i < llama_sampler_chain_n(ch); i++)
            printf("%c%s", i ? ',' : ' ', llama_sampler_name(llama_sampler_chain_get(ch, i)));
        printf("\nprompt %d", r);
        for (int i = 0; i < np; i++)
            printf(" %d", prompt[i]);
        printf("\ntokens %d", r);
        for (int t = 0; t < steps; t++)
            printf(" %d", tok[t]);
        if (orders) {
            printf("\nkept %d", r);
            for (int t = 0; t < steps; t++)
                printf(" %zu:%016" PRIx64, nk[t], kh[t]);
        }
        printf("\nwords %d", r);
        for (int t = 0; t < steps; t++) {
            if (di < 0)
                printf(" -");
            else if (pos[t] < 0 || pos[t + 1] < 0) {
                printf(" ?");
                bad = 1;
            } else
                printf(" %ld", pos[t + 1] - pos[t]);
        }
        if (di < 0)
            printf(" total -\n");
        else
            printf(" total %ld\n", pos[steps]);
        printf("rows %d %d %d\n", r, r * steps, (r + 1) * steps);
        printf("twin %d %d\n", r, twin_ok);
        printf("logits %d", r);
        for (int t = 0; t < steps; t++)
            printf(" %016" PRIx64, fnv_f32(all + ((size_t)r * (size_t)steps + (size_t)t) * (size_t)V, (size_t)V));
        printf("\n");
        bad |= !twin_ok;
        llama_sampler_free(ch);
        llama_sampler_free(twin);
    }
    if (write_npy(argv[2], all, (size_t)nr * (size_t)steps, (size_t)V)) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    free(all);
    free(d);
    free(ids);
    free(probe_buf);
    return bad;
}
