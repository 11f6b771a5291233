/* logits.c — the logits node-llama-cpp sampled from, by teacher forcing the
 * same prebuilt libllama.v0.4.0.so (node-llama-cpp 3.21.1's) on the same tiny
 * GGUF: per run of generate.mjs's output, clear the memory, llama_decode the
 * prompt ids as one batch (as LlamaContextSequence.evaluate does), then per
 * generated token read llama_get_logits_ith(ctx, -1) and decode the token
 * alone. One thread (node-llama-cpp ran with threads: 1), n_ctx 256.
 * Usage: GGML_BACKEND_DIR=BINS logits MODEL.gguf GENERATIONS.txt OUT.npy > ROWS.txt
 * OUT.npy: float32 [T, V], runs one after the other; ROWS.txt: `rows ID A B`
 * (run ID owns rows A..B-1) and `argmax ID a ...` (each row's first maximum,
 * which a greedy run's tokens must equal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ggml-backend.h>
#include <llama.h>

#define MAXT 1024

static void quiet(enum ggml_log_level level, const char *text, void *ud)
{
    (void)ud;
    if (level >= GGML_LOG_LEVEL_ERROR)
        fputs(text, stderr);
}

static int read_ids(char *s, llama_token *ids)
{
    int n = 0;
    for (char *t = strtok(s, " \n"); t && n < MAXT; t = strtok(NULL, " \n"))
        ids[n++] = (llama_token)atol(t);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: logits MODEL.gguf GENERATIONS.txt OUT.npy\n");
        return 2;
    }
    llama_log_set(quiet, NULL);
    /* the CPU variants sit beside the library (node-llama-cpp picks one the same way) */
    const char *dir = getenv("GGML_BACKEND_DIR");
    if (dir)
        ggml_backend_load_all_from_path(dir);
    else
        ggml_backend_load_all();
    llama_backend_init();
    struct llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    struct llama_model *model = llama_model_load_from_file(argv[1], mp);
    if (!model)
        return fprintf(stderr, "cannot load %s\n", argv[1]), 1;
    const int V = llama_vocab_n_tokens(llama_model_get_vocab(model));
    struct llama_context_params cp = llama_context_default_params();
    cp.n_ctx = 256;
    cp.n_threads = cp.n_threads_batch = 1;
    struct llama_context *ctx = llama_init_from_model(model, cp);
    FILE *g = fopen(argv[2], "r"), *npy = fopen(argv[3], "wb");
    if (!ctx || !g || !npy)
        return fprintf(stderr, "cannot open a context, %s or %s\n", argv[2], argv[3]), 1;
    /* the .npy header is written last, when the row count is known: leave room for it */
    char hdr[128];
    memset(hdr, ' ', sizeof hdr);
    fwrite(hdr, 1, sizeof hdr, npy);
    static char line[1 << 16];
    static llama_token prompt[MAXT], toks[MAXT];
    int np = 0, id = -1;
    long rows = 0;
    while (fgets(line, sizeof line, g)) {
        if (!strncmp(line, "prompt ", 7)) {
            char *p = line + 7;
            id = (int)strtol(p, &p, 10);
            np = read_ids(p, prompt);
            continue;
        }
        if (strncmp(line, "tokens ", 7))
            continue;
        char *p = line + 7;
        if ((int)strtol(p, &p, 10) != id)
            return fprintf(stderr, "%s: tokens without their prompt\n", argv[2]), 1;
        int nt = read_ids(p, toks);
        llama_memory_clear(llama_get_memory(ctx), true);
        if (llama_decode(ctx, llama_batch_get_one(prompt, np)))
            return fprintf(stderr, "decode failed\n"), 1;
        printf("rows %d %ld %ld\nargmax %d", id, rows, rows + nt, id);
        for (int t = 0; t < nt; t++) {
            const float *lg = llama_get_logits_ith(ctx, -1);
            int am = 0;
            for (int i = 1; i < V; i++)
                if (lg[i] > lg[am])
                    am = i;
            printf(" %d", am);
            fwrite(lg, sizeof *lg, (size_t)V, npy);
            rows++;
            if (t + 1 < nt && llama_decode(ctx, llama_batch_get_one(&toks[t], 1)))
                return fprintf(stderr, "decode failed\n"), 1;
        }
        printf("\n");
    }
    int k = snprintf(hdr + 10, sizeof hdr - 10, "{'descr': '<f4', 'fortran_order': False, 'shape': (%ld, %d), }", rows, V);
    memcpy(hdr, "\x93NUMPY\x01\x00", 8);
    hdr[8] = (char)(sizeof hdr - 10);
    hdr[9] = 0;
    hdr[10 + k] = ' ';
    hdr[sizeof hdr - 1] = '\n';
    fseek(npy, 0, SEEK_SET);
    fwrite(hdr, 1, sizeof hdr, npy);
    fclose(npy);
    fclose(g);
    llama_free(ctx);
    llama_model_free(model);
    return 0;
}
