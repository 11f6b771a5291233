/* test_framework_numpy_noreplace.c — NumPy's choice(V, size=K, replace=False,
 * p=p) replayed: Generator.choice (--framework numpy, with shuffle=True and
 * False) and np.random.choice (--framework numpy-legacy) against every record of
 * data/golden/numpy_noreplace.txt (Debian python3-numpy 1.24.2) and
 * data/golden/current/numpy_noreplace.txt (NumPy 2.4.6, Debian sid), both made
 * by analysis/golden/numpy_noreplace.py: V from 2 to 151,936, K from 1 to V,
 * ties, zero and subnormal entries. Each record goes through the C API
 * (sl_fw_run: the tokens, and the generator's next word after the call, so the
 * words spent) and through the command line (the release build, `draw ...
 * --no-replacement --json`: the same tokens and words); each of NumPy's
 * ValueErrors is refused by both, in NumPy's words, exit 2, stdout empty. */
#include <criterion/criterion.h>
#include <ctype.h>

#include "helpers.h"
#include "numpy_golden.h"

typedef struct nr_vec {
    char name[32];
    int f32;          /* given to NumPy as a float32 ndarray */
    size_t V;
    double *p;
    char *npy;        /* the vector as a .npy, for the command line */
} nr_vec;

typedef struct nr_file {
    nr_vec vec[64];
    size_t nvec;
    char **rec;       /* the ch, chh and err lines */
    size_t nrec;
    char header[256];
} nr_file;

/* p as numpy_noreplace.py's recipes make it (the same float64 operations, in order). */
static void recipe(nr_vec *v, const char *kind, size_t Z)
{
    if (!strcmp(kind, "flat")) {
        for (size_t i = 0; i < v->V; i++)
            v->p[i] = 1.0 / (double)v->V;
        return;
    }
    double H = 0.0;
    for (size_t i = 0; i < v->V; i++)
        if (!(Z > 0 && i % Z == Z - 1))
            H += 1.0 / (double)(i + 1);
    for (size_t i = 0; i < v->V; i++)
        v->p[i] = Z > 0 && i % Z == Z - 1 ? 0.0 : (1.0 / (double)(i + 1)) / H;
}

static void vec_npy(nr_vec *v)
{
    if (v->f32) {
        float *f = malloc(v->V * sizeof *f);
        for (size_t i = 0; i < v->V; i++)
            f[i] = (float)v->p[i];
        v->npy = sl_test_npy("<f4", 4, f, 0, v->V);
        free(f);
    } else {
        v->npy = sl_test_npy("<f8", 8, v->p, 0, v->V);
    }
    cr_assert_not_null(v->npy);
}

/* The file through numpy_golden.h's reader: the vectors made, the records kept as their lines. */
static void nr_load(nr_file *g, const char *path)
{
    memset(g, 0, sizeof *g);
    ng_file f;
    ng_load(&f, path);
    snprintf(g->header, sizeof g->header, "%s", f.header);
    g->rec = malloc(f.n * sizeof *g->rec);
    for (size_t l = 0; l < f.n; l++) {
        const ng_line *L = &f.lines[l];
        const char *kind = L->f[0];
        if (strcmp(kind, "vec") && strcmp(kind, "zipf") && strcmp(kind, "flat")) {
            size_t len = 1;
            for (size_t i = 0; i < L->n; i++)
                len += strlen(L->f[i]) + 1;
            g->rec[g->nrec] = malloc(len);
            ng_rest(L, 0, g->rec[g->nrec++], len);
            continue;
        }
        cr_assert(g->nvec < 64 && L->n >= 3);
        nr_vec *v = &g->vec[g->nvec++];
        snprintf(v->name, sizeof v->name, "%s", L->f[1]);
        int inl = !strcmp(kind, "vec");
        v->f32 = inl && !strcmp(L->f[2], "f32");
        v->V = strtoull(L->f[inl ? 3 : 2], NULL, 10);
        v->p = malloc(v->V * sizeof *v->p);
        if (inl) {
            cr_assert_eq(L->n, 4 + v->V, "%s: vector %s has %zu fields", path, v->name, L->n);
            for (size_t i = 0; i < v->V; i++)
                v->p[i] = ng_f64(L->f[4 + i]);
        } else {
            recipe(v, kind, !strcmp(kind, "zipf") ? strtoull(L->f[3], NULL, 10) : 0);
        }
        vec_npy(v);
    }
    ng_free(&f);
    cr_assert(g->nrec > 1000, "%s: only %zu records", path, g->nrec);
}

static void nr_free(nr_file *g)
{
    for (size_t i = 0; i < g->nvec; i++) {
        unlink(g->vec[i].npy);
        free(g->vec[i].npy);
        free(g->vec[i].p);
    }
    for (size_t i = 0; i < g->nrec; i++)
        free(g->rec[i]);
    free(g->rec);
}

static const nr_vec *nr_vec_find(const nr_file *g, const char *name)
{
    for (size_t i = 0; i < g->nvec; i++)
        if (!strcmp(g->vec[i].name, name))
            return &g->vec[i];
    cr_assert_fail("vector %s is not in the file", name);
    return NULL;
}

static uint64_t fnv1a(const long *t, size_t k)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < k; i++) {
        uint64_t x = (uint64_t)(int64_t)t[i];
        for (int b = 0; b < 8; b++)
            h = (h ^ ((x >> (8 * b)) & 0xff)) * 0x100000001b3ull;
    }
    return h;
}

/* A seed in hex as the C API takes it. */
static void seed_of(const char *hex, sl_seed *s)
{
    memset(s, 0, sizeof *s);
    size_t n = strlen(hex);
    char lo[17] = {0}, hi[17] = {0};
    if (n > 16) {
        memcpy(hi, hex, n - 16);
        memcpy(lo, hex + n - 16, 16);
    } else {
        memcpy(lo, hex, n);
    }
    s->lo = strtoull(lo, NULL, 16);
    s->hi = hi[0] ? strtoull(hi, NULL, 16) : 0;
}

/* NumPy's message as samplab quotes it: 2.x capitalises "Probabilities ..." and
 * adds ". See Notes ..."; samplab keeps 1.24's words, compared without case. */
static int says(const char *msg, const char *numpy)
{
    char want[160], got[1024];
    snprintf(want, sizeof want, "%s", numpy);
    snprintf(got, sizeof got, "%s", msg);
    char *dot = strstr(want, ". See Notes");
    if (dot)
        *dot = 0;
    for (char *c = want; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    for (char *c = got; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return strstr(got, want) != NULL;
}

static sl_vec to_slvec(const nr_vec *g)
{
    sl_vec v;
    sl_test_vec(&v, g->p, g->V, g->name, g->f32);
    return v;
}

/* `samplab draw` for one record (the release build: thousands of runs). */
static sl_test_run cli(const char *fw, const nr_vec *v, const char *seed, size_t K, int shuffle_false)
{
    char args[512];
    snprintf(args, sizeof args, "draw --framework %s --probs %s --seed 0x%s --num-samples %zu --no-replacement%s --json",
             fw, v->npy, seed, K, shuffle_false ? " --shuffle false" : "");
    return sl_test_cli_bin(sl_test_rel_bin(), args);
}

/* 1 when `seen` holds the same record over the same vector: its command-line run
 * would repeat one already made (the two NumPy versions agree on most records). */
static int seen_before(const nr_file *seen, const nr_file *g, const char *L, const char *vname)
{
    if (!seen)
        return 0;
    const nr_vec *a = NULL, *b = nr_vec_find(g, vname);
    for (size_t i = 0; i < seen->nvec && !a; i++)
        if (!strcmp(seen->vec[i].name, vname))
            a = &seen->vec[i];
    if (!a || a->V != b->V || a->f32 != b->f32 || memcmp(a->p, b->p, a->V * sizeof *a->p))
        return 0;
    for (size_t r = 0; r < seen->nrec; r++)
        if (!strcmp(seen->rec[r], L))
            return 1;
    return 0;
}

/* Every record of path through the C API, and through the command line unless
 * `seen` (a file already replayed) has it over the same vector. */
static void replay_file(nr_file *g_out, const char *path, const nr_file *seen)
{
    nr_file g;
    nr_load(&g, path);
    size_t cases = 0, errors = 0, tokens = 0, maxV = 0, maxK = 0, cli_runs = 0;
    long *expect = NULL;
    for (size_t r = 0; r < g.nrec; r++) {
        char *L = g.rec[r];
        char kind[4], fw[4], vname[32];
        int off = 0;
        cr_assert_eq(sscanf(L, "%3s %3s%n", kind, fw, &off), 2);
        int gen = !strcmp(fw, "gen");
        const sl_fw_type *ft = gen ? &sl_fw_numpy_type : &sl_fw_numpy_legacy_type;
        const char *fwname = gen ? "numpy" : "numpy-legacy";
        sl_error err;
        sl_fw_result res;
        memset(&res, 0, sizeof res);
        if (!strcmp(kind, "err")) {
            size_t K;
            int m = 0;
            cr_assert_eq(sscanf(L + off, " %31s %zu %n", vname, &K, &m), 2);
            const char *numpy = L + off + m;
            const nr_vec *v = nr_vec_find(&g, vname);
            sl_vec sv = to_slvec(v);
            sl_fw_opts o;
            memset(&o, 0, sizeof o);
            o.probs = &sv;
            o.has_seed = 1;
            o.n = 1;
            o.k = K;
            o.replacement = SL_FW_REPLACEMENT_NO;
            int rc = sl_fw_run(ft, &o, &res, &err);
            cr_assert_eq(rc, SL_EINVAL, "%s: %s accepted, NumPy raised '%s'", path, L, numpy);
            cr_assert(says(err.msg, numpy), "%s: %s: samplab says '%s'", path, L, err.msg);
            sl_base_vec_free(&sv);
            errors++;
            if (seen_before(seen, &g, L, vname))
                continue;
            cli_runs++;
            sl_test_run c = cli(fwname, v, "0", K, 0);
            cr_assert_eq(c.status, 2, "%s: %s: the command line exits %d", path, L, c.status);
            cr_assert_str_empty(c.out, "%s: %s: stdout '%s'", path, L, c.out);
            cr_assert(says(c.err, numpy) && sl_test_lines(c.err) == 1, "%s: %s: stderr '%s'", path, L, c.err);
            sl_test_run_free(&c);
            continue;
        }
        char seed[40], shuf[4], next[20];
        size_t K, rounds;
        int m = 0;
        cr_assert_eq(sscanf(L + off, " %39s %31s %zu %3s %zu %19s %n", seed, vname, &K, shuf, &rounds, next, &m), 6,
                     "%s: bad record %.80s", path, L);
        const nr_vec *v = nr_vec_find(&g, vname);
        expect = realloc(expect, K * sizeof *expect);
        uint64_t want_fnv = 0;
        if (!strcmp(kind, "chh")) {
            want_fnv = strtoull(L + off + m, NULL, 16);
        } else {
            char *s = L + off + m, *end;
            for (size_t j = 0; j < K; j++, s = end) {
                expect[j] = strtol(s, &end, 10);
                cr_assert(end != s, "%s: %.80s has fewer than %zu tokens", path, L, K);
            }
        }
        sl_vec sv = to_slvec(v);
        sl_fw_opts o;
        memset(&o, 0, sizeof o);
        o.probs = &sv;
        seed_of(seed, &o.seed);
        o.has_seed = 1;
        o.n = 1;
        o.k = K;
        o.replacement = SL_FW_REPLACEMENT_NO;
        o.shuffle_set = gen;
        o.shuffle = strcmp(shuf, "0") != 0;
        int rc = sl_fw_run(ft, &o, &res, &err);
        cr_assert_eq(rc, 0, "%s: %.80s: %s", path, L, err.msg);
        cr_assert_eq(res.k, K);
        if (!strcmp(kind, "chh"))
            cr_assert_eq(fnv1a(res.tokens, K), want_fnv, "%s: %.80s: the tokens' FNV-1a differs", path, L);
        else
            for (size_t j = 0; j < K; j++)
                cr_assert_eq(res.tokens[j], expect[j], "%s: %.80s: token %zu: observed %ld expected %ld", path, L, j,
                             res.tokens[j], expect[j]);
        /* the words spent: the generator after res.words words gives NumPy's next random_raw() */
        sl_rng rng;
        cr_assert_eq(sl_rng_init(&rng, sl_rng_lookup(ft->rng), &o.seed, &err), 0, "%s", err.msg);
        for (uint64_t w = 0; w < res.words; w++)
            (void)sl_rng_next(&rng);
        uint64_t nx = sl_rng_next(&rng);
        cr_assert_eq(nx, strtoull(next, NULL, 16), "%s: %.80s: after %llu words the next is %llx, NumPy's %s", path,
                     L, (unsigned long long)res.words, (unsigned long long)nx, next);
        sl_rng_release(&rng);
        cases++;
        tokens += K;
        maxV = v->V > maxV ? v->V : maxV;
        maxK = K > maxK ? K : maxK;
        if (seen_before(seen, &g, L, vname)) {
            sl_fw_result_free(&res);
            sl_base_vec_free(&sv);
            continue;
        }
        cli_runs++;
        /* the command line: the same tokens and words */
        sl_test_run c = cli(fwname, v, seed, K, gen && !o.shuffle);
        cr_assert_eq(c.status, 0, "%s: %.80s: %s", path, L, c.err);
        const char *t = strstr(c.out, "{\"tokens\":[[");
        cr_assert_not_null(t, "%s", c.out);
        t += strlen("{\"tokens\":[[");
        for (size_t j = 0; j < K; j++) {
            char *end;
            long x = strtol(t, &end, 10);
            cr_assert(end != t && x == res.tokens[j], "%s: %.80s: the command line's token %zu differs", path, L, j);
            t = end + 1;
        }
        char words[48];
        snprintf(words, sizeof words, "\"words\":%llu}", (unsigned long long)res.words);
        cr_assert(strstr(c.out, words), "%s: %.80s: the command line spent other words: %.200s", path, L, c.out);
        sl_test_run_free(&c);
        sl_fw_result_free(&res);
        sl_base_vec_free(&sv);
    }
    free(expect);
    cr_assert(errors >= 40, "%s: only %zu ValueError records", path, errors);
    cr_log_info("%s: %zu calls (%zu tokens, V up to %zu, K up to %zu) and %zu ValueErrors through the C API, %zu "
                "through the command line (the others as already run), 0 differences (%s)",
                path, cases, tokens, maxV, maxK, errors, cli_runs, g.header);
    *g_out = g;
}

/* NumPy 1.24.2, then 2.4.6: the command line runs a 2.4.6 record only where it differs. */
Test(replay_numpy_noreplace, numpy_1_24_2_and_2_4_6)
{
    nr_file a, b;
    replay_file(&a, "data/golden/numpy_noreplace.txt", NULL);
    replay_file(&b, "data/golden/current/numpy_noreplace.txt", &a);
    nr_free(&a);
    nr_free(&b);
}

/* size=1 without replacement is the replacement draw: the same token and words. */
Test(replay_numpy_noreplace, one_sample_is_the_replacement_draw)
{
    double p[5] = {0.1, 0.2, 0.3, 0.15, 0.25};
    sl_vec v;
    sl_test_vec(&v, p, 5, "p", 0);
    const sl_fw_type *fts[2] = {&sl_fw_numpy_type, &sl_fw_numpy_legacy_type};
    for (int f = 0; f < 2; f++) {
        sl_fw_opts o;
        memset(&o, 0, sizeof o);
        o.probs = &v;
        o.n = 50;
        o.k = 1;
        sl_fw_result a, b;
        sl_error err;
        cr_assert_eq(sl_fw_run(fts[f], &o, &a, &err), 0, "%s", err.msg);
        o.replacement = SL_FW_REPLACEMENT_NO;
        cr_assert_eq(sl_fw_run(fts[f], &o, &b, &err), 0, "%s", err.msg);
        cr_assert_eq(a.words, b.words);
        for (size_t i = 0; i < 50; i++)
            cr_assert_eq(a.tokens[i], b.tokens[i], "%s call %zu", fts[f]->name, i);
        sl_fw_result_free(&a);
        sl_fw_result_free(&b);
    }
    sl_base_vec_free(&v);
}
