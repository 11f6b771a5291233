/* torch_replay.h — replays a golden file of analysis/golden/torch_golden.py
 * (vec/vecfile/case/error/exp records) through the torch draw type; shared by
 * test_framework_torch.c and test_framework_torch.c. Header-only, static. */
#ifndef SL_TEST_TORCH_REPLAY_H
#define SL_TEST_TORCH_REPLAY_H

#include <criterion/criterion.h>

#include "helpers.h"
#include "samplab.h"

typedef struct gvec {
    char name[64];
    sl_dtype dtype;
    size_t V;
    float *f;
    double *d;
} gvec;

typedef struct gold {
    int version;          /* SL_TORCH_2 when the header names torch 2.x */
    gvec *vecs;
    size_t nvec;
    size_t ncase, nerror;
    size_t fail;
    char first_fail[4096];
} gold;

static gvec *find_vec(gold *g, const char *name)
{
    for (size_t i = 0; i < g->nvec; i++)
        if (!strcmp(g->vecs[i].name, name))
            return &g->vecs[i];
    return NULL;
}

static void fail(gold *g, const char *fmt, const char *id, const char *a, const char *b)
{
    if (!g->fail++)
        snprintf(g->first_fail, sizeof g->first_fail, fmt, id, a, b);
}

static void fail3(gold *g, const char *id, const char *call, const char *wtok, const char *got)
{
    if (!g->fail++)
        snprintf(g->first_fail, sizeof g->first_fail, "%s: expected tokens %.200s (words %s), observed %s", id, call,
                 wtok, got);
}

static void parse_values(gvec *v, char *text, const char *sep)
{
    v->f = malloc((v->V ? v->V : 1) * sizeof *v->f);
    v->d = malloc((v->V ? v->V : 1) * sizeof *v->d);
    char *save = NULL, *tok = strtok_r(text, sep, &save);
    for (size_t i = 0; i < v->V; i++) {
        cr_assert(tok, "%s: only %zu of %zu values", v->name, i, v->V);
        v->f[i] = strtof(tok, NULL);
        v->d[i] = strtod(tok, NULL);
        tok = strtok_r(NULL, sep, &save);
    }
}

/* Replays one "case" line (or "error" line). */
static void replay_line(gold *g, char *line, const char *dir)
{
    char kind[16], id[32], name[64];
    if (sscanf(line, "%15s %31s %63s", kind, id, name) != 3)
        return;
    if (!strcmp(kind, "vec") || !strcmp(kind, "vecfile")) {
        gvec v;
        memset(&v, 0, sizeof v);
        char dt[16];
        int off = 0;
        sscanf(line, "%*s %63s %15s %zu %n", v.name, dt, &v.V, &off);
        v.dtype = !strcmp(dt, "float32") ? SL_F32 : SL_F64;
        char *rest = line + off;
        rest[strcspn(rest, "\n")] = '\0';
        if (!strcmp(kind, "vec")) {
            parse_values(&v, rest, ",");
        } else {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, rest);
            char *text = sl_test_slurp(path);
            if (!text) { /* data/torch2 shares the big vectors of data/golden */
                snprintf(path, sizeof path, "data/golden/%s", rest);
                text = sl_test_slurp(path);
            }
            cr_assert(text, "cannot read %s", path);
            parse_values(&v, text, "\n");
            free(text);
        }
        g->vecs = realloc(g->vecs, (g->nvec + 1) * sizeof *g->vecs);
        g->vecs[g->nvec++] = v;
        return;
    }
    if (!strcmp(kind, "exp")) {
        /* exp ID SEED DTYPE N WORDS FNV x0,x1,x2 */
        char seedtext[32], dt[16], first[200];
        size_t n;
        unsigned long long want_words, want_hash;
        cr_assert(sscanf(line, "%*s %*s %31s %15s %zu %llu %llx %199s", seedtext, dt, &n, &want_words, &want_hash,
                         first) == 6, "%s", line);
        sl_seed seed;
        sl_error err;
        sl_rng_mt19937_state mt;
        cr_assert_eq(sl_base_seed_parse(seedtext, &seed, &err), 0);
        cr_assert_eq(sl_rng_torch_mt19937_seed(&mt, &seed, &err), 0);
        sl_rng rng = {&sl_rng_torch_mt19937_type, &mt, 0};
        sl_dtype dtype = !strcmp(dt, "float32") ? SL_F32 : SL_F64;
        double *x = malloc(n * sizeof *x);
        uint64_t h = 0xcbf29ce484222325ULL;
        sl_draw_race_rule rule = {SL_RACE_U_TORCH53, g->version == SL_TORCH_2, 1};
        sl_draw_race_exponentials(&rule, dtype, &rng, x, n);
        uint64_t words = rng.words;
        for (size_t i = 0; i < n; i++) {
            unsigned char b[8];
            float f = (float)x[i];
            size_t len = dtype == SL_F32 ? 4 : 8;
            if (dtype == SL_F32)
                memcpy(b, &f, 4);
            else
                memcpy(b, &x[i], 8);
            for (size_t j = 0; j < len; j++) /* little-endian bytes, as numpy's tobytes() here */
                h = (h ^ b[j]) * 0x100000001b3ULL;
        }
        char got[200];
        snprintf(got, sizeof got, "%a,%a,%a", x[0], x[1], x[2]);
        g->ncase++;
        if (h != want_hash || words != want_words)
            fail3(g, id, first, "exponential_ hash", got);
        free(x);
        return;
    }
    int is_case = !strcmp(kind, "case");
    if (!is_case && strcmp(kind, "error"))
        return;
    gvec *v = find_vec(g, name);
    cr_assert(v, "%s: unknown vector %s", id, name);
    char seedtext[32];
    size_t n = 1, k;
    int repl, off = 0;
    if (is_case) {
        cr_assert(sscanf(line, "%*s %*s %*s %31s %zu %zu %d %n", seedtext, &n, &k, &repl, &off) == 4, "%s", line);
        g->ncase++;
    } else {
        cr_assert(sscanf(line, "%*s %*s %*s %31s %zu %d %n", seedtext, &k, &repl, &off) == 3, "%s", line);
        g->nerror++;
    }
    char *rest = line + off;
    rest[strcspn(rest, "\n")] = '\0';
    sl_seed seed;
    sl_error err;
    cr_assert_eq(sl_base_seed_parse(seedtext, &seed, &err), 0, "%s", err.msg);
    sl_rng_mt19937_state mt;
    cr_assert_eq(sl_rng_torch_mt19937_seed(&mt, &seed, &err), 0, "%s", err.msg);
    sl_rng rng = {&sl_rng_torch_mt19937_type, &mt, 0};
    sl_draw_torch_param param = {g->version, repl, k, SL_SIMD_AUTO};
    sl_draw_type tt = sl_draw_torch_type;
    tt.param = &param;
    sl_draw_dist dist = {v->V, v->d, v->f, v->dtype, v->name, 0};
    void *table = NULL;
    int prc = sl_draw_prepare_dist(&tt, &table, &dist, &err);
    long *tok = malloc((k ? k : 1) * sizeof *tok);
    if (!is_case) {
        /* error ID NAME SEED K R WORDS MESSAGE: torch raises before drawing a word */
        char *msg = strchr(rest, ' ');
        cr_assert(msg, "%s", line);
        msg++;
        char got[1024];
        snprintf(got, sizeof got, "rc %d words %llu: %s", prc, (unsigned long long)rng.words, prc ? err.msg : "");
        if (prc == 0 || rng.words != 0 || !strstr(err.msg, msg))
            fail(g, "%s: expected torch's error '%s', observed %s", id, msg, got);
    } else {
        cr_assert_eq(prc, 0, "%s: %s", id, err.msg);
        /* case ... WORDS TOKENS: cumulative words per call, calls ';', samples ',' */
        char *wsave = NULL, *tsave = NULL;
        char *wl = strtok_r(rest, " ", &wsave);
        char *tl = strtok_r(NULL, " ", &wsave);
        cr_assert(wl && tl, "%s", line);
        char *wtok = strtok_r(wl, ",", &tsave);
        char *csave = NULL;
        char *call = strtok_r(tl, ";", &csave);
        for (size_t c = 0; c < n; c++) {
            cr_assert(call && wtok, "%s: truncated", id);
            sl_rng_mt19937_state mt2 = mt;
            int rc = sl_draw_k(&tt, table, &rng, k, tok, &err);
            uint64_t words = rng.words;
            /* compare numerically: the expected call is "t0,t1,..." and the words after it */
            int same = rc == 0 && words == strtoull(wtok, NULL, 10);
            char *p = call;
            for (size_t j = 0; same && j < k; j++) {
                char *end;
                long want = strtol(p, &end, 10);
                same = end != p && want == tok[j];
                p = *end == ',' ? end + 1 : end;
            }
            if (!same) {
                char got[256];
                if (rc)
                    snprintf(got, sizeof got, "error: %.200s", err.msg);
                else
                    snprintf(got, sizeof got, "first token %ld, words %llu", tok[0], (unsigned long long)words);
                fail3(g, id, call, wtok, got);
            }
            if (!repl && k == 1 && !rc) {
                /* the every-log race on the same words must agree */
                sl_rng r2 = {&sl_rng_torch_mt19937_type, &mt2, 0};
                long t2 = (long)sl_draw_torch_naive(table, &r2);
                if (t2 != tok[0] || memcmp(&mt2, &mt, sizeof mt))
                    fail(g, "%s: naive race disagrees (%s vs %s)", id, "naive", "fast");
            }
            wtok = strtok_r(NULL, ",", &tsave);
            call = strtok_r(NULL, ";", &csave);
        }
    }
    free(tok);
    if (table)
        tt.free(table);
}

static void replay_file(const char *path, gold *g)
{
    char *text = sl_test_slurp(path);
    cr_assert(text, "cannot read %s (make golden writes it)", path);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    memset(g, 0, sizeof *g);
    /* "# torch.multinomial golden outputs: torch 2.6.0+debian ..." selects the 2.x variant */
    g->version = strstr(text, "golden outputs: torch 2.") ? SL_TORCH_2 : SL_TORCH_1_13;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (line[0] != '#')
            replay_line(g, line, dir);
    for (size_t i = 0; i < g->nvec; i++) {
        free(g->vecs[i].f);
        free(g->vecs[i].d);
    }
    free(g->vecs);
    free(text);
}

#endif
