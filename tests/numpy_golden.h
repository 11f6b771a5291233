/* numpy_golden.h — readers for the NumPy golden files (data/golden/numpy_*.txt,
 * written by analysis/golden/numpy_golden.py): one case per line, fields
 * separated by spaces, words and states in hex, floats in C99 hex notation. */
#ifndef TEST_NUMPY_GOLDEN_H
#define TEST_NUMPY_GOLDEN_H

#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samplab.h"

typedef struct ng_line {
    char *buf;
    char **f;   /* fields */
    size_t n;
} ng_line;

typedef struct ng_file {
    ng_line *lines;
    size_t n;
    char header[256];
} ng_file;

static inline void ng_load(ng_file *g, const char *path)
{
    FILE *fp = fopen(path, "rb");
    cr_assert(fp != NULL, "cannot open %s (run from the repository root)", path);
    memset(g, 0, sizeof *g);
    size_t cap = 0;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    while ((len = getline(&line, &lcap, fp)) > 0) {
        if (line[len - 1] == '\n')
            line[--len] = 0;
        if (line[0] == '#') {
            if (!g->header[0])
                snprintf(g->header, sizeof g->header, "%s", line);
            continue;
        }
        if (g->n == cap) {
            cap = cap ? 2 * cap : 64;
            g->lines = realloc(g->lines, cap * sizeof *g->lines);
        }
        ng_line *L = &g->lines[g->n++];
        L->buf = strdup(line);
        size_t fc = 1;
        for (char *p = L->buf; *p; p++)
            fc += *p == ' ';
        L->f = malloc(fc * sizeof *L->f);
        L->n = 0;
        /* Fields are split on single spaces, except that the last field of a
         * "val"/"seed" line is a free-text message: callers rejoin with ng_rest. */
        for (char *tok = strtok(L->buf, " "); tok; tok = strtok(NULL, " "))
            L->f[L->n++] = tok;
    }
    free(line);
    fclose(fp);
    cr_assert(g->n > 0, "%s has no cases", path);
}

static inline void ng_free(ng_file *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free(g->lines[i].buf);
        free(g->lines[i].f);
    }
    free(g->lines);
}

/* Fields from i on, joined by single spaces (a message). */
static inline void ng_rest(const ng_line *L, size_t i, char *out, size_t cap)
{
    out[0] = 0;
    for (; i < L->n; i++) {
        strncat(out, L->f[i], cap - strlen(out) - 1);
        if (i + 1 < L->n)
            strncat(out, " ", cap - strlen(out) - 1);
    }
}

static inline uint64_t ng_u64(const char *s)
{
    return strtoull(s, NULL, 16);
}

/* A hex integer of any length as 32-bit digits, lowest first (0 -> [0]). */
static inline size_t ng_words(const char *hex, uint32_t *out, size_t cap)
{
    size_t len = strlen(hex), n = 0;
    while (len > 0 && n < cap) {
        size_t take = len >= 8 ? 8 : len;
        char tmp[9];
        memcpy(tmp, hex + len - take, take);
        tmp[take] = 0;
        out[n++] = (uint32_t)strtoul(tmp, NULL, 16);
        len -= take;
    }
    while (n > 1 && out[n - 1] == 0)
        n--;
    return n;
}

/* A hex integer below 2^128 as hi/lo. */
static inline void ng_u128(const char *hex, uint64_t *hi, uint64_t *lo)
{
    uint32_t w[5] = { 0 };
    size_t n = ng_words(hex, w, 5);
    cr_assert(n <= 4, "%s does not fit 128 bits", hex);
    *lo = (uint64_t)w[0] | (uint64_t)w[1] << 32;
    *hi = (uint64_t)w[2] | (uint64_t)w[3] << 32;
}

static inline double ng_f64(const char *s)
{
    return strtod(s, NULL);
}

/* The vectors of numpy_vectors.txt, by name. */
typedef struct ng_vec {
    char name[64];
    int f32;      /* passed to NumPy as a float32 ndarray */
    size_t V;
    double *p;    /* as NumPy sees it after widening */
} ng_vec;

static inline void ng_vec_zipf(ng_vec *v)
{
    /* Same float64 operations, same order, as numpy_golden.py's zipf(). */
    double H = 0.0;
    for (size_t i = 0; i < v->V; i++)
        H += 1.0 / (double)(i + 1);
    for (size_t i = 0; i < v->V; i++) {
        double x = (1.0 / (double)(i + 1)) / H;
        v->p[i] = v->f32 ? (double)(float)x : x;
    }
}

static inline ng_vec *ng_vectors(size_t *count)
{
    ng_file g;
    ng_load(&g, "data/golden/numpy_vectors.txt");
    ng_vec *vs = calloc(g.n, sizeof *vs);
    size_t n = 0;
    for (size_t i = 0; i < g.n; i++) {
        ng_line *L = &g.lines[i];
        ng_vec *v = &vs[n++];
        snprintf(v->name, sizeof v->name, "%s", L->f[1]);
        v->f32 = !strcmp(L->f[2], "f32");
        v->V = strtoull(L->f[3], NULL, 10);
        v->p = malloc(v->V * sizeof *v->p);
        if (!strcmp(L->f[0], "zipf")) {
            ng_vec_zipf(v);
        } else {
            cr_assert_eq(L->n, 4 + v->V, "vector %s: %zu fields", v->name, L->n);
            for (size_t j = 0; j < v->V; j++)
                v->p[j] = ng_f64(L->f[4 + j]);
        }
    }
    ng_free(&g);
    *count = n;
    return vs;
}

static inline const ng_vec *ng_vec_find(const ng_vec *vs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(vs[i].name, name))
            return &vs[i];
    cr_assert_fail("vector %s not in numpy_vectors.txt", name);
    return NULL;
}

static inline void ng_vectors_free(ng_vec *vs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(vs[i].p);
    free(vs);
}

#endif
