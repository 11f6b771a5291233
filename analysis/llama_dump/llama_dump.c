/* llama_dump.c — dump a llama.cpp generation for `samplab replay` and
 * `samplab check`: load a GGUF model with libllama, tokenize a prompt (or take
 * its ids), generate with a sampler chain built from the command line, and
 * write each step's raw logits (llama_get_logits_ith before sampling) as a
 * float32 [T, V] array, beside the prompt ids, the generated ids and the
 * settings, in the layout of analysis/dump_logits.py --generate.
 *
 * The chain is the one llama.cpp's common_sampler builds for its default
 * sampler order (common/sampling.cpp, llama.cpp 0.7.0): penalties, top-n-sigma
 * (off), top-k, typical, top-p, min-p, xtc (off), temp-ext (no dynamic range),
 * then dist(seed), or greedy when the temperature is <= 0; the loop is
 * llama-completion's: the prompt decoded at once and, unless
 * --no-accept-prompt, accepted into the chain's history
 * (common_sampler_accept), then per step llama_sampler_sample, which accepts
 * the drawn token, and llama_decode of that token. DRY, XTC, top-n-sigma,
 * mirostat and dynamic temperature are not offered here (this tool records the
 * default chain; samplab's replay models those stages).
 *
 * Build: see analysis/llama_dump/Makefile (cc ... $(pkg-config --cflags --libs llama ggml) -lm).
 * Usage: llama_dump --help. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ggml-backend.h>
#include <llama.h>

#ifndef LLAMA_DUMP_LLAMA_VERSION
#define LLAMA_DUMP_LLAMA_VERSION "unknown" /* the Makefile passes pkg-config --modversion llama */
#endif

#define PROG "llama_dump"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " -m MODEL.gguf (-p TEXT | --prompt-ids IDS) -o OUT.npy|OUT.safetensors [options]\n\n"
            "Runs one llama.cpp generation and writes what `samplab replay --framework llamacpp` and\n"
            "`samplab check --framework llamacpp` read:\n"
            "  OUT.npy           float32 [T, V]: the raw logits of each step, before any sampler\n"
            "                    (or OUT.safetensors: tensor \"logits\", the metadata below in __metadata__)\n"
            "  STEM.tokens       the generated ids, one per line (check's --tokens)\n"
            "  STEM.context      the prompt ids, one line (replay's and check's --context)\n"
            "  STEM.json         (with .npy) model, library, prompt_ids, tokens, settings, seed, steps,\n"
            "                    and the samplab commands that replay and check the generation\n"
            "STEM is OUT without its extension. The chain is llama.cpp's default order:\n"
            "penalties, top-k, typical, top-p, min-p, temperature, then dist(seed) (greedy at\n"
            "--temp <= 0), the prompt accepted into its history as llama-completion does.\n\n"
            "options (defaults are llama.cpp's common defaults):\n"
            "  -m, --model FILE          the GGUF model\n"
            "  -p, --prompt TEXT         the prompt, tokenized by the model's tokenizer (BOS as the model says)\n"
            "      --prompt-ids IDS      the prompt as token ids, e.g. 1,300,301 (instead of --prompt)\n"
            "  -o, --out FILE            OUT.npy or OUT.safetensors\n"
            "  -n, --steps N             tokens to generate (default 24)\n"
            "  -s, --seed S              the dist sampler's seed, 0..4294967294 (default: random, as\n"
            "                            LLAMA_DEFAULT_SEED; the seed used is read back and recorded)\n"
            "      --temp T              temperature (default 0.8; <= 0: greedy)\n"
            "      --top-k K             (default 40; 0 off)\n"
            "      --top-p P             (default 0.95; 1 off)\n"
            "      --min-p P             (default 0.05; 0 off)\n"
            "      --typical P           locally typical sampling (default 1, off)\n"
            "      --repeat-last-n N     penalty window (default 64; 0 off; -1 the context size)\n"
            "      --repeat-penalty R    (default 1, off)\n"
            "      --frequency-penalty F (default 0)\n"
            "      --presence-penalty P  (default 0)\n"
            "      --min-keep N          min_keep of typical, top-p and min-p (default 0)\n"
            "      --no-accept-prompt    do not put the prompt into the penalty history\n"
            "      --ignore-eos          keep generating past end-of-generation tokens (else stop after one)\n"
            "  -t, --threads N           CPU threads (default 4)\n"
            "  -h, --help                this text\n\n"
            "Exit status: 0 written, 1 llama.cpp failed, 2 bad usage or input (one line on stderr).\n");
}

/* ------------------------------------------------------------ settings */

typedef struct settings {
    const char *model, *prompt, *prompt_ids, *out;
    long steps;
    int has_seed;
    uint32_t seed;
    float temp, top_p, min_p, typical, repeat, freq, present;
    long top_k, last_n, min_keep, threads;
    int accept_prompt, ignore_eos;
} settings;

static int bad(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, " (" PROG " --help)\n");
    return 2;
}

static int parse_long(const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi) {
        char range[64];
        snprintf(range, sizeof range, "an integer in %ld..%ld", lo, hi);
        fprintf(stderr, PROG ": %s takes %s, not '%s'\n", opt, range, v);
        return 2;
    }
    *out = x;
    return 0;
}

static int parse_float(const char *opt, const char *v, float *out)
{
    char *end;
    errno = 0;
    float x = strtof(v, &end);
    if (!*v || *end || errno || !isfinite(x)) {
        fprintf(stderr, PROG ": %s takes a finite number, not '%s'\n", opt, v);
        return 2;
    }
    *out = x;
    return 0;
}

static int parse_args(int argc, char **argv, settings *s)
{
    memset(s, 0, sizeof *s);
    s->steps = 24;
    s->temp = 0.8f;
    s->top_k = 40;
    s->top_p = 0.95f;
    s->min_p = 0.05f;
    s->typical = 1.0f;
    s->last_n = 64;
    s->repeat = 1.0f;
    s->threads = 4;
    s->accept_prompt = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (!strcmp(a, "--no-accept-prompt")) {
            s->accept_prompt = 0;
            continue;
        }
        if (!strcmp(a, "--ignore-eos")) {
            s->ignore_eos = 1;
            continue;
        }
        if (i + 1 >= argc)
            return bad("%s needs a value%s", a, "");
        const char *v = argv[++i];
        long l;
        int rc = 0;
        if (!strcmp(a, "-m") || !strcmp(a, "--model"))
            s->model = v;
        else if (!strcmp(a, "-p") || !strcmp(a, "--prompt"))
            s->prompt = v;
        else if (!strcmp(a, "--prompt-ids"))
            s->prompt_ids = v;
        else if (!strcmp(a, "-o") || !strcmp(a, "--out"))
            s->out = v;
        else if (!strcmp(a, "-n") || !strcmp(a, "--steps"))
            rc = parse_long(a, v, 1, 1000000, &s->steps);
        else if (!strcmp(a, "-s") || !strcmp(a, "--seed")) {
            /* 0xFFFFFFFF is LLAMA_DEFAULT_SEED, "random": leave the option out for that */
            rc = parse_long(a, v, 0, (long)LLAMA_DEFAULT_SEED - 1, &l);
            s->seed = (uint32_t)l;
            s->has_seed = 1;
        } else if (!strcmp(a, "--temp"))
            rc = parse_float(a, v, &s->temp);
        else if (!strcmp(a, "--top-k"))
            rc = parse_long(a, v, 0, INT32_MAX, &s->top_k);
        else if (!strcmp(a, "--top-p"))
            rc = parse_float(a, v, &s->top_p);
        else if (!strcmp(a, "--min-p"))
            rc = parse_float(a, v, &s->min_p);
        else if (!strcmp(a, "--typical"))
            rc = parse_float(a, v, &s->typical);
        else if (!strcmp(a, "--repeat-last-n"))
            rc = parse_long(a, v, -1, INT32_MAX, &s->last_n);
        else if (!strcmp(a, "--repeat-penalty"))
            rc = parse_float(a, v, &s->repeat);
        else if (!strcmp(a, "--frequency-penalty"))
            rc = parse_float(a, v, &s->freq);
        else if (!strcmp(a, "--presence-penalty"))
            rc = parse_float(a, v, &s->present);
        else if (!strcmp(a, "--min-keep"))
            rc = parse_long(a, v, 0, 1000000, &s->min_keep);
        else if (!strcmp(a, "-t") || !strcmp(a, "--threads"))
            rc = parse_long(a, v, 1, 1024, &s->threads);
        else
            return bad("unknown option '%s'%s", a, "");
        if (rc)
            return rc;
    }
    if (!s->model)
        return bad("-m MODEL.gguf is required%s%s", "", "");
    if (!s->out)
        return bad("-o OUT.npy or OUT.safetensors is required%s%s", "", "");
    if (!!s->prompt == !!s->prompt_ids)
        return bad("give exactly one of -p TEXT and --prompt-ids IDS%s%s", "", "");
    size_t n = strlen(s->out);
    if (!(n > 4 && !strcmp(s->out + n - 4, ".npy")) && !(n > 12 && !strcmp(s->out + n - 12, ".safetensors")))
        return bad("-o '%s' must end in .npy or .safetensors%s", s->out, "");
    if (s->repeat <= 0.0f)
        return bad("--repeat-penalty must be > 0 (1 is off)%s%s", "", "");
    return 0;
}

/* ------------------------------------------------------------ output */

typedef struct sbuf {
    char *d;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->n;
        int k = vsnprintf(b->d ? b->d + b->n : NULL, b->d ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->d && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        char *d = realloc(b->d, cap);
        if (!d) {
            b->oom = 1;
            return;
        }
        b->d = d;
        b->cap = cap;
    }
}

/* A JSON string literal. */
static void sb_json(sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sb_printf(b, "\\%c", c);
        else if (c < 0x20)
            sb_printf(b, "\\u%04x", c);
        else
            sb_printf(b, "%c", c);
    }
    sb_printf(b, "\"");
}

/* Writes parts to path through path.tmp renamed into place (no half-written file). */
static int write_file(const char *path, const void *const *part, const size_t *len, int nparts)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, PROG ": %s: path too long\n", path);
        return 2;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, PROG ": cannot write %s: %s\n", tmp, strerror(errno));
        return 2;
    }
    int ok = 1;
    for (int i = 0; i < nparts; i++)
        ok &= fwrite(part[i], 1, len[i], f) == len[i];
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, PROG ": cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 2;
    }
    return 0;
}

static int host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char c;
    memcpy(&c, &one, 1);
    return c == 1;
}

/* .npy version 1.0: magic, header length, a dict padded with spaces to a multiple of 64, data. */
static int write_npy(const char *path, const float *x, size_t rows, size_t cols)
{
    char h[256];
    int n = snprintf(h, sizeof h, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %zu), }", rows, cols);
    size_t total = 10 + (size_t)n + 1, pad = (64 - total % 64) % 64;
    memset(h + n, ' ', pad);
    h[(size_t)n + pad] = '\n';
    size_t hl = (size_t)n + pad + 1;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
    const void *part[3] = {pre, h, x};
    size_t len[3] = {10, hl, rows * cols * sizeof(float)};
    return write_file(path, part, len, 3);
}

/* .safetensors: 8-byte little-endian header length, the JSON header (padded with
 * spaces to a multiple of 8), the data; metadata values are strings. */
static int write_safetensors(const char *path, const float *x, size_t rows, size_t cols, const char *meta_json)
{
    sbuf h = {0};
    size_t nb = rows * cols * sizeof(float);
    sb_printf(&h, "{\"__metadata__\":%s,\"logits\":{\"dtype\":\"F32\",\"shape\":[%zu,%zu],\"data_offsets\":[0,%zu]}}",
              meta_json, rows, cols, nb);
    while (!h.oom && h.n % 8)
        sb_printf(&h, " ");
    if (h.oom) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    unsigned char pre[8];
    for (int i = 0; i < 8; i++)
        pre[i] = (unsigned char)((uint64_t)h.n >> (8 * i));
    const void *part[3] = {pre, h.d, x};
    size_t len[3] = {8, h.n, nb};
    int rc = write_file(path, part, len, 3);
    free(h.d);
    return rc;
}

static int write_text(const char *path, const sbuf *b)
{
    if (b->oom) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    const void *part[1] = {b->d ? b->d : ""};
    size_t len[1] = {b->n};
    return write_file(path, part, len, 1);
}

/* ------------------------------------------------------------ the generation */

/* no progress dots on stderr while the model loads */
static bool no_progress(float progress, void *ud)
{
    (void)progress;
    (void)ud;
    return true;
}

/* llama.cpp's first error line, kept for our own one-line message (its log is off) */
static char llama_err[256];

static void quiet(enum ggml_log_level level, const char *text, void *ud)
{
    (void)ud;
    if (level >= GGML_LOG_LEVEL_ERROR && !llama_err[0]) {
        snprintf(llama_err, sizeof llama_err, "%s", text);
        llama_err[strcspn(llama_err, "\n")] = '\0';
    }
}

/* " (llama.cpp: FIRST ERROR)" or "" */
static const char *why(void)
{
    static char b[300];
    snprintf(b, sizeof b, llama_err[0] ? " (llama.cpp: %s)" : "%s", llama_err);
    return b;
}

/* The prompt's ids: parsed from --prompt-ids, or tokenized as llama-completion
 * does (add_special: BOS if the model asks for it; parse_special). */
static int prompt_tokens(const settings *s, const struct llama_vocab *vocab, int V, llama_token **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (s->prompt_ids) {
        size_t cap = strlen(s->prompt_ids) / 2 + 1, k = 0;
        llama_token *ids = malloc(cap * sizeof *ids);
        if (!ids)
            return bad("out of memory%s%s", "", "");
        for (const char *p = s->prompt_ids; *p;) {
            char *end;
            errno = 0;
            long x = strtol(p, &end, 10);
            if (end == p || errno || x < 0 || x >= V || (*end && *end != ',') || k == cap) {
                char pos[32];
                snprintf(pos, sizeof pos, "%zu", k);
                free(ids);
                return bad("--prompt-ids: entry %s is not a token id of this model (0..V-1)%s", pos, "");
            }
            ids[k++] = (llama_token)x;
            p = *end ? end + 1 : end;
        }
        if (!k) {
            free(ids);
            return bad("--prompt-ids is empty%s%s", "", "");
        }
        *out = ids;
        *n = (int)k;
        return 0;
    }
    int len = (int)strlen(s->prompt);
    int need = -llama_tokenize(vocab, s->prompt, len, NULL, 0, true, true);
    if (need <= 0)
        need = len + 2;
    llama_token *ids = malloc((size_t)need * sizeof *ids);
    if (!ids)
        return bad("out of memory%s%s", "", "");
    int k = llama_tokenize(vocab, s->prompt, len, ids, need, true, true);
    if (k <= 0) {
        free(ids);
        return bad("-p: the prompt gives no tokens with this model's tokenizer%s%s", "", "");
    }
    *out = ids;
    *n = k;
    return 0;
}

static struct llama_sampler *build_chain(const settings *s, int V, int *dist_idx)
{
    struct llama_sampler *ch = llama_sampler_chain_init(llama_sampler_chain_default_params());
    uint32_t seed = s->has_seed ? s->seed : LLAMA_DEFAULT_SEED;
    size_t mk = (size_t)s->min_keep;
    /* common_sampler's default order, with its off switches for what samplab does not emulate */
    llama_sampler_chain_add(ch, llama_sampler_init_penalties(V, (int32_t)s->last_n, s->repeat, s->freq, s->present));
    llama_sampler_chain_add(ch, llama_sampler_init_top_n_sigma(-1.0f));
    llama_sampler_chain_add(ch, llama_sampler_init_top_k((int32_t)s->top_k));
    llama_sampler_chain_add(ch, llama_sampler_init_typical(s->typical, mk));
    llama_sampler_chain_add(ch, llama_sampler_init_top_p(s->top_p, mk));
    llama_sampler_chain_add(ch, llama_sampler_init_min_p(s->min_p, mk));
    llama_sampler_chain_add(ch, llama_sampler_init_xtc(0.0f, 0.10f, mk, seed));
    llama_sampler_chain_add(ch, llama_sampler_init_temp_ext(s->temp, 0.0f, 1.0f));
    if (s->temp > 0.0f) {
        llama_sampler_chain_add(ch, llama_sampler_init_dist(seed));
        *dist_idx = llama_sampler_chain_n(ch) - 1;
    } else {
        llama_sampler_chain_add(ch, llama_sampler_init_greedy());
        *dist_idx = -1;
    }
    return ch;
}

static void ids_csv(sbuf *b, const llama_token *x, int n)
{
    for (int i = 0; i < n; i++)
        sb_printf(b, "%s%d", i ? "," : "", x[i]);
}

/* The basename of a path (the commands name the files beside each other). */
static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

int main(int argc, char **argv)
{
    settings s;
    int rc = parse_args(argc, argv, &s);
    if (rc)
        return rc;
    FILE *probe = fopen(s.model, "rb");
    if (!probe) {
        fprintf(stderr, PROG ": %s: %s\n", s.model, strerror(errno));
        return 2;
    }
    fclose(probe);

    llama_log_set(quiet, NULL);
    ggml_backend_load_all();
    llama_backend_init();
    struct llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    mp.progress_callback = no_progress;
    struct llama_model *model = llama_model_load_from_file(s.model, mp);
    if (!model) {
        fprintf(stderr, PROG ": %s: llama.cpp cannot load it as a GGUF model%s\n", s.model, why());
        return 2;
    }
    const struct llama_vocab *vocab = llama_model_get_vocab(model);
    const int V = llama_vocab_n_tokens(vocab);
    llama_token *prompt = NULL;
    int np = 0;
    if ((rc = prompt_tokens(&s, vocab, V, &prompt, &np))) {
        llama_model_free(model);
        return rc;
    }
    struct llama_context_params cp = llama_context_default_params();
    uint32_t n_ctx = (uint32_t)np + (uint32_t)s.steps + 1;
    cp.n_ctx = n_ctx;
    cp.n_batch = n_ctx;
    cp.n_threads = (int32_t)s.threads;
    cp.n_threads_batch = (int32_t)s.threads;
    struct llama_context *ctx = llama_init_from_model(model, cp);
    if (!ctx) {
        fprintf(stderr, PROG ": llama.cpp cannot make a context of %u tokens for %s%s\n", n_ctx, s.model, why());
        return 1;
    }
    /* -1 is the context size, as common resolves it before llama_sampler_init_penalties */
    if (s.last_n < 0)
        s.last_n = (long)llama_n_ctx(ctx);
    int dist_idx;
    struct llama_sampler *ch = build_chain(&s, V, &dist_idx);
    /* the seed dist really uses (LLAMA_DEFAULT_SEED draws a random one) */
    uint32_t seed_used = dist_idx >= 0 ? llama_sampler_get_seed(llama_sampler_chain_get(ch, dist_idx)) : 0;
    for (int i = 0; s.accept_prompt && i < np; i++)
        llama_sampler_accept(ch, prompt[i]);

    float *logits = malloc((size_t)s.steps * (size_t)V * sizeof *logits);
    llama_token *tok = malloc((size_t)s.steps * sizeof *tok);
    if (!logits || !tok) {
        fprintf(stderr, PROG ": out of memory for %ld steps of %d logits\n", s.steps, V);
        return 1;
    }
    if (llama_decode(ctx, llama_batch_get_one(prompt, np))) {
        fprintf(stderr, PROG ": llama_decode of the %d prompt tokens failed%s\n", np, why());
        return 1;
    }
    long T = 0;
    while (T < s.steps) {
        const float *lg = llama_get_logits_ith(ctx, -1);
        if (!lg) {
            fprintf(stderr, PROG ": no logits at step %ld%s\n", T, why());
            return 1;
        }
        memcpy(logits + (size_t)T * (size_t)V, lg, (size_t)V * sizeof *lg);
        llama_token t = llama_sampler_sample(ch, ctx, -1); /* applies the chain and accepts t */
        tok[T++] = t;
        if (!s.ignore_eos && llama_vocab_is_eog(vocab, t))
            break;
        if (T < s.steps && llama_decode(ctx, llama_batch_get_one(&t, 1))) {
            fprintf(stderr, PROG ": llama_decode failed at step %ld%s\n", T, why());
            return 1;
        }
    }

    /* the files: STEM.{tokens,context,json} beside OUT */
    size_t ol = strlen(s.out);
    int st = ol > 12 && !strcmp(s.out + ol - 12, ".safetensors");
    size_t sl = ol - (st ? 12 : 4);
    char stem[4096], path[4200];
    if (sl >= sizeof stem) {
        fprintf(stderr, PROG ": -o: path too long\n");
        return 2;
    }
    memcpy(stem, s.out, sl);
    stem[sl] = '\0';
    char desc[256];
    llama_model_desc(model, desc, sizeof desc);
    sbuf opts = {0}, settings_s = {0}, replay = {0}, check = {0}, meta = {0}, b = {0};
    /* samplab's options for this chain; %.9g gives each float32 back exactly */
    sb_printf(&opts, "--seed %" PRIu32 " --temperature %.9g --top-k %ld --top-p %.9g --min-p %.9g --typical %.9g "
                     "--min-keep %ld --repetition-penalty %.9g --frequency-penalty %.9g --presence-penalty %.9g "
                     "--penalty-last-n %ld",
              seed_used, (double)s.temp, s.top_k, (double)s.top_p, (double)s.min_p, (double)s.typical, s.min_keep,
              (double)s.repeat, (double)s.freq, (double)s.present, s.last_n);
    if (s.accept_prompt)
        sb_printf(&opts, " --context %s.context", base(stem));
    sb_printf(&settings_s, "temp=%.9g,top_k=%ld,top_p=%.9g,min_p=%.9g,typical=%.9g,min_keep=%ld,repeat_last_n=%ld,"
                           "repeat_penalty=%.9g,frequency_penalty=%.9g,presence_penalty=%.9g,accept_prompt=%d,"
                           "ignore_eos=%d,seed_given=%d",
              (double)s.temp, s.top_k, (double)s.top_p, (double)s.min_p, (double)s.typical, s.min_keep, s.last_n,
              (double)s.repeat, (double)s.freq, (double)s.present, s.accept_prompt, s.ignore_eos, s.has_seed);
    sb_printf(&replay, "samplab replay --framework llamacpp --logits %s %s", base(s.out), opts.d);
    sb_printf(&check, "samplab check --framework llamacpp --logits %s %s --tokens %s.tokens", base(s.out), opts.d,
              base(stem));
    char chain[512] = "";
    for (int i = 0; i < llama_sampler_chain_n(ch); i++) {
        size_t k = strlen(chain);
        snprintf(chain + k, sizeof chain - k, "%s%s", i ? "," : "", llama_sampler_name(llama_sampler_chain_get(ch, i)));
    }
    /* metadata as dump_logits.py --generate writes it: every value a string */
    sbuf tmp = {0};
    sb_printf(&meta, "{\"model\":");
    sb_printf(&tmp, "%s (%s)", s.model, desc);
    sb_json(&meta, tmp.d ? tmp.d : "");
    tmp.n = 0;
    sb_printf(&meta, ",\"llama_cpp\":");
    sb_printf(&tmp, "llama.cpp %s (libllama), %s", LLAMA_DUMP_LLAMA_VERSION, llama_print_system_info());
    sb_json(&meta, tmp.d);
    tmp.n = 0;
    sb_printf(&meta, ",\"chain\":");
    sb_json(&meta, chain);
    sb_printf(&meta, ",\"prompt_ids\":\"");
    ids_csv(&meta, prompt, np);
    sb_printf(&meta, "\",\"tokens\":\"");
    ids_csv(&meta, tok, (int)T);
    sb_printf(&meta, "\",\"settings\":");
    sb_json(&meta, settings_s.d);
    sb_printf(&meta, ",\"seed\":\"%" PRIu32 "\",\"steps\":\"%ld\",\"replay\":", seed_used, T);
    sb_json(&meta, replay.d);
    sb_printf(&meta, ",\"check\":");
    sb_json(&meta, check.d);
    sb_printf(&meta, "}");
    free(tmp.d);
    if (opts.oom || settings_s.oom || replay.oom || check.oom || meta.oom) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    rc = st ? write_safetensors(s.out, logits, (size_t)T, (size_t)V, meta.d)
            : (host_is_little_endian() ? write_npy(s.out, logits, (size_t)T, (size_t)V)
                                       : (fprintf(stderr, PROG ": .npy '<f4' needs a little-endian host\n"), 2));
    if (!rc) {
        for (long t = 0; t < T; t++)
            sb_printf(&b, "%d\n", tok[t]);
        snprintf(path, sizeof path, "%s.tokens", stem);
        rc = write_text(path, &b);
    }
    if (!rc) {
        b.n = 0;
        ids_csv(&b, prompt, np);
        sb_printf(&b, "\n");
        snprintf(path, sizeof path, "%s.context", stem);
        rc = write_text(path, &b);
    }
    if (!rc && !st) {
        b.n = 0;
        sb_printf(&b, "%s\n", meta.d);
        snprintf(path, sizeof path, "%s.json", stem);
        rc = write_text(path, &b);
    }
    if (!rc)
        printf("%s: logits [%ld, %d]; %s.tokens, %s.context%s%s%s (seed %" PRIu32 ", %ld tokens%s)\n%s\n", s.out, T,
               V, stem, stem, st ? "" : ", ", st ? "" : stem, st ? "" : ".json", seed_used, T,
               T < s.steps ? ", stopped at end of generation" : "", replay.d);
    free(opts.d);
    free(settings_s.d);
    free(replay.d);
    free(check.d);
    free(meta.d);
    free(b.d);
    free(logits);
    free(tok);
    free(prompt);
    llama_sampler_free(ch);
    llama_free(ctx);
    llama_model_free(model);
    llama_backend_free();
    return rc;
}
