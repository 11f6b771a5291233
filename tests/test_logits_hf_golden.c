/* test_logits_hf_golden.c — the `hf` and `vllm` pipelines against golden files
 * of one format (a case line with the settings, the logits, the kept ids, the
 * probabilities as %.9g, which round-trips a float, and draw lines: 20
 * torch.multinomial calls after torch.manual_seed(S)), in three data sets, each
 * replayed by the same code, which names every differing case:
 *  - Debian 12: data/golden/hf_pipeline.txt, written by analysis/golden/hf_golden.py
 *    by running transformers 4.x's warpers and vLLM's sampler re-expressed in real
 *    torch 1.13.1 float32 ops on torch's AVX2 kernels (the libraries themselves
 *    are not installed there), hf and vllm cases; the same file's sum and exp
 *    records check torch 1.13.1's float32 kernels alone: torch.sum and
 *    torch.nansum (one thread) and torch.exp (SLEEF's expf_u10) on 3,000 values;
 *  - today, AVX2: data/golden/current/hf_pipeline.txt, the real transformers
 *    5.12.1 logits processors on torch 2.14.1 forced to its AVX2 kernel (Debian
 *    sid, analysis/golden/current/hf_pipeline.py), hf cases drawn with --torch 2;
 *  - today, AVX-512: hf_pipeline_avx512.txt, torch's default kernel on this
 *    machine, replayed with the 16-lane kernel model.
 * Kept sets must be identical and every probability bit-identical. transformers
 * 5.x's MinPLogitsWarper keeps its min_tokens_to_keep tokens with
 * torch.topk(probs, k), not with the descending argsort of 4.x (case ties1_minp
 * tells them apart), so each set runs with its transformers line. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

/* What a data set was made with. */
typedef struct hf_set {
    int cpu;                  /* torch's kernel, SL_CPU_* */
    int transformers;         /* 4 or 5 */
    const char *torch;        /* the draws' --torch line ("2"), or NULL for the framework's default */
    int with_vllm;            /* the file also holds vllm cases */
} hf_set;

static const hf_set DEBIAN12 = {SL_CPU_AVX2, 4, NULL, 1};
static const hf_set TODAY_AVX2 = {SL_CPU_AVX2, 5, "2", 0};
static const hf_set TODAY_AVX512 = {SL_CPU_AVX512, 5, "2", 0};

typedef struct hf_replay {
    size_t cases, differ, prob_only, draws, draws_differ;
    char names[1024]; /* the differing cases, space separated */
} hf_replay;

static void parse_case(char *line, sl_logits_cfg *c, long *ctx, size_t ctx_cap)
{
    memset(c, 0, sizeof *c);
    int dflt = 0; /* defaults=1: the case left top_k unset, as generate() fills it */
    char *tok = strstr(line, " V=");
    for (char *kv = strchr(tok + 1, ' '); kv; kv = strchr(kv + 1, ' ')) {
        char *k = kv + 1;
        if (!strncmp(k, "T=", 2)) { c->has_temperature = 1; c->temperature = strtod(k + 2, NULL); }
        else if (!strncmp(k, "k=", 2)) { c->has_top_k = 1; c->top_k = strtol(k + 2, NULL, 10); }
        else if (!strncmp(k, "p=", 2)) { c->has_top_p = 1; c->top_p = strtod(k + 2, NULL); }
        else if (!strncmp(k, "minp=", 5)) { c->has_min_p = 1; c->min_p = strtod(k + 5, NULL); }
        else if (!strncmp(k, "typ=", 4)) { c->has_typical = 1; c->typical = strtod(k + 4, NULL); }
        else if (!strncmp(k, "pen=", 4)) { c->has_penalty = 1; c->penalty = strtod(k + 4, NULL); }
        else if (!strncmp(k, "min_keep=", 9)) { c->has_min_keep = 1; c->min_keep = strtol(k + 9, NULL, 10); }
        else if (!strncmp(k, "defaults=", 9)) { dflt = 1; }
        else if (!strncmp(k, "ctx=", 4)) {
            char *p = k + 4;
            while (c->context_n < ctx_cap) {
                ctx[c->context_n++] = strtol(p, &p, 10);
                if (*p != ',')
                    break;
                p++;
            }
            c->context = ctx;
        }
    }
    if (!dflt && !c->has_top_k) { /* the processors were built without TopKLogitsWarper: top_k 0 */
        c->has_top_k = 1;
        c->top_k = 0;
    }
}

/* `samplab draw --framework F --seed S --n 20` on the case; 1 when the 20 tokens match */
static int draw_matches(const sl_fw_type *ft, const hf_set *set, sl_vec *v, const sl_logits_cfg *c, char *p)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.logits = v;
    o.has_seed = 1;
    o.seed.lo = strtoull(p, &p, 10);
    o.n = 20;
    o.k = 1;
    o.variant = set->torch;
    o.cfg = *c; /* the same settings the pipeline case ran with */
    sl_fw_result fr;
    sl_error e;
    cr_assert_eq(sl_fw_run(ft, &o, &fr, &e), 0, "draw: %s", e.msg);
    int same = 1;
    for (size_t q = 0; q < 20; q++)
        same &= fr.tokens[q] == strtol(p, &p, 10);
    sl_fw_result_free(&fr);
    return same;
}

static void replay_set(const char *path, const hf_set *set, hf_replay *r)
{
    memset(r, 0, sizeof *r);
    char *text = sl_test_slurp(path);
    cr_assert_not_null(text, "%s missing", path);
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    while (line) {
        char fw[16], name[64];
        size_t V;
        if (strncmp(line, "case ", 5) || sscanf(line, "case %15s %63s V=%zu", fw, name, &V) != 3 ||
            (strcmp(fw, "hf") && (!set->with_vllm || strcmp(fw, "vllm")))) {
            line = strtok_r(NULL, "\n", &save);
            continue;
        }
        int is_hf = !strcmp(fw, "hf");
        sl_logits_cfg c;
        long ctx[64];
        parse_case(line, &c, ctx, 64);
        c.cpu = set->cpu;
        c.transformers = set->transformers;
        char *lg = strtok_r(NULL, "\n", &save), *kp = strtok_r(NULL, "\n", &save), *pr = strtok_r(NULL, "\n", &save);
        cr_assert(lg && kp && pr && !strncmp(lg, "logits ", 7) && !strncmp(kp, "kept", 4) && !strncmp(pr, "probs ", 6));
        /* the text reader parses each value with strtod and strtof, as torch got them */
        sl_vec v;
        sl_error e;
        cr_assert_eq(sl_io_vec_read_text(name, lg + 7, strlen(lg + 7), &v, &e), 0, "%s: %s", name, e.msg);
        cr_assert_eq(v.n, V, "%s: %zu logits, V=%zu", name, v.n, V);
        unsigned char *kept = calloc(V, 1);
        for (char *p = kp + 4; *p;) {
            char *end;
            long id = strtol(p, &end, 10);
            if (end == p)
                break;
            kept[id] = 1;
            p = end;
        }
        double *want = malloc(V * sizeof *want);
        cr_assert_eq(sl_test_read_floats(pr + 6, want, NULL, V), V);
        const sl_logits_pipeline_type *t = is_hf ? &sl_logits_pipeline_hf_type : &sl_logits_pipeline_vllm_type;
        sl_logits_result res;
        cr_assert_eq(sl_logits_pipeline_run(t, &v, &c, &res, &e), 0, "%s %s: %s", fw, name, e.msg);
        int kept_same = 1, probs_same = 1;
        for (size_t i = 0; i < V; i++) {
            kept_same &= res.kept[i] == kept[i];
            probs_same &= res.probs[i] == (double)(float)want[i];
        }
        r->cases++;
        if (!kept_same || !probs_same) {
            r->differ++;
            r->prob_only += kept_same;
            size_t len = strlen(r->names);
            snprintf(r->names + len, sizeof r->names - len, "%s%s/%s", len ? " " : "", fw, name);
        }
        sl_logits_result_free(&res);
        free(kept);
        free(want);
        line = strtok_r(NULL, "\n", &save);
        while (line && !strncmp(line, "draw ", 5)) {
            r->draws++;
            r->draws_differ += !draw_matches(is_hf ? &sl_fw_hf_type : &sl_fw_vllm_type, set, &v, &c, line + 5);
            line = strtok_r(NULL, "\n", &save);
        }
        sl_base_vec_free(&v);
    }
    free(text);
}

Test(replay_hf_pipeline, debian12_warpers_in_torch_1_13_ops)
{
    hf_replay r;
    replay_set("data/golden/hf_pipeline.txt", &DEBIAN12, &r);
    cr_log_info("transformers 4.x / vLLM in torch 1.13.1 ops (AVX2): %zu cases, %zu differ (%s), %zu of %zu draw "
                "lines differ", r.cases, r.differ, r.names, r.draws_differ, r.draws);
    cr_assert(r.cases >= 20 && r.draws >= 20, "only %zu cases, %zu draw lines", r.cases, r.draws);
    cr_assert_str_eq(r.names, "", "cases that differ from torch 1.13.1's ops: '%s'", r.names);
    cr_assert_eq(r.draws_differ, 0, "%zu draw lines differ", r.draws_differ);
}

Test(replay_hf_pipeline, transformers_5_12_avx2)
{
    hf_replay r;
    replay_set("data/golden/current/hf_pipeline.txt", &TODAY_AVX2, &r);
    cr_log_info("transformers 5.12.1 (AVX2): %zu cases, %zu differ (%s), %zu of %zu draw lines differ", r.cases,
                r.differ, r.names, r.draws_differ, r.draws);
    cr_assert(r.cases >= 30 && r.draws >= 20, "only %zu cases, %zu draw lines", r.cases, r.draws);
    cr_assert_str_eq(r.names, "", "cases that differ from transformers 5.12.1: '%s'", r.names);
    cr_assert_eq(r.draws_differ, 0, "%zu draw lines differ", r.draws_differ);
}

Test(replay_hf_pipeline, transformers_5_12_avx512)
{
    /* torch 2.14.1 on its AVX-512 kernel: the 16-lane reduce_all order (logits/f32.c) */
    hf_replay r;
    replay_set("data/golden/current/hf_pipeline_avx512.txt", &TODAY_AVX512, &r);
    cr_log_info("transformers 5.12.1 (AVX-512): %zu cases, %zu differ (%zu in probabilities only): %s; "
                "%zu of %zu draw lines differ", r.cases, r.differ, r.prob_only, r.names, r.draws_differ, r.draws);
    cr_assert(r.cases >= 30, "only %zu cases", r.cases);
    cr_assert_str_eq(r.names, "", "cases that differ from transformers 5.12.1 (AVX-512): '%s'", r.names);
    cr_assert_eq(r.draws_differ, 0, "%zu draw lines differ", r.draws_differ);
}

/* Debian 12's file alone: */
Test(replay_hf_pipeline, debian12_torch_1_13_float32_kernels)
{
    /* torch.sum / torch.nansum (one thread) and torch.exp, bit for bit */
    char *text = sl_test_slurp("data/golden/hf_pipeline.txt");
    cr_assert_not_null(text);
    size_t sums = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "sum ", 4)) {
            char *p = line + 4;
            size_t n = strtoul(p, &p, 10);
            double want = strtod(p, &p), want_nan = strtod(p, &p);
            float *x = malloc(n * sizeof *x);
            for (size_t i = 0; i < n; i++)
                x[i] = (float)(3.0 * sin(0.7 * (double)i + 0.1));
            float got = sl_logits_sum_torch_f32(x, n, 0);
            cr_assert(got == (float)want, "sum n=%zu: %a, torch %a", n, got, want);
            for (size_t i = 0; i < n; i += 5)
                x[i] = NAN;
            got = sl_logits_sum_torch_f32(x, n, 1);
            cr_assert(got == (float)want_nan, "nansum n=%zu: %a, torch %a", n, got, want_nan);
            free(x);
            sums++;
        } else if (!strncmp(line, "exp ", 4)) {
            char *p = line + 4;
            for (int i = 0; i < 3000; i++) {
                float d = (float)(-110.0 + 0.0737 * i);
                double want = strtod(p, &p);
                float got = sl_logits_expf_sleef(d);
                cr_assert(got == (float)want, "exp(%a): %a, torch %a", d, got, want);
            }
        }
    }
    cr_assert(sums >= 25, "%zu sum lines", sums);
    free(text);
}
