/* test_logits_golden.c — the `hf` and `vllm` pipelines against
 * data/golden/hf_pipeline.txt, which analysis/golden/hf_golden.py writes by
 * running transformers' warpers and vLLM's sampler re-expressed in real torch
 * float32 ops with torch's AVX2 kernels (the libraries themselves are not
 * installed). Kept sets must be identical and every probability bit-identical
 * to torch's float32 (the file prints %.9g, which round-trips a float). The
 * same file's sum and exp records check torch 1.13.1's float32 kernels alone:
 * torch.sum and torch.nansum (one thread) and torch.exp (SLEEF's expf_u10) on
 * 3,000 values, bit for bit. The real transformers 5.12.1 processors on torch
 * 2.14.1: test_current_hf.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"


Test(replay_pipeline, golden_hf_vllm_against_torch_ops)
{
    char *text = sl_test_slurp("data/golden/hf_pipeline.txt");
    cr_assert_not_null(text, "data/golden/hf_pipeline.txt missing");
    size_t cases = 0, exact = 0, total = 0, draws = 0;
    double worst = 0;
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    while (line) {
        if (strncmp(line, "case ", 5)) {
            line = strtok_r(NULL, "\n", &save);
            continue;
        }
        char fw[16], name[64];
        size_t V;
        cr_assert_eq(sscanf(line, "case %15s %63s V=%zu", fw, name, &V), 3);
        sl_logits_cfg c;
        memset(&c, 0, sizeof c);
        c.cpu = SL_CPU_AVX2;  /* the golden file forced torch 1.13's AVX2 kernels */
        c.transformers = 4;   /* and re-expressed transformers 4.x's warpers */
        long ctx[64];
        int dflt = 0; /* defaults=1: the case left top_k unset, as generate() fills it */
        char *tok = strstr(line, " V=");
        for (char *kv = strchr(tok + 1, ' '); kv; kv = strchr(kv + 1, ' ')) {
            char *k = kv + 1;
            if (!strncmp(k, "T=", 2)) { c.has_temperature = 1; c.temperature = strtod(k + 2, NULL); }
            else if (!strncmp(k, "k=", 2)) { c.has_top_k = 1; c.top_k = strtol(k + 2, NULL, 10); }
            else if (!strncmp(k, "p=", 2)) { c.has_top_p = 1; c.top_p = strtod(k + 2, NULL); }
            else if (!strncmp(k, "minp=", 5)) { c.has_min_p = 1; c.min_p = strtod(k + 5, NULL); }
            else if (!strncmp(k, "typ=", 4)) { c.has_typical = 1; c.typical = strtod(k + 4, NULL); }
            else if (!strncmp(k, "pen=", 4)) { c.has_penalty = 1; c.penalty = strtod(k + 4, NULL); }
            else if (!strncmp(k, "min_keep=", 9)) { c.has_min_keep = 1; c.min_keep = strtol(k + 9, NULL, 10); }
            else if (!strncmp(k, "defaults=", 9)) { dflt = 1; }
            else if (!strncmp(k, "ctx=", 4)) {
                char *p = k + 4;
                while (c.context_n < 64) {
                    ctx[c.context_n++] = strtol(p, &p, 10);
                    if (*p != ',')
                        break;
                    p++;
                }
                c.context = ctx;
            }
        }
        if (!dflt && !c.has_top_k) { /* the warpers were built without TopKLogitsWarper: top_k 0 */
            c.has_top_k = 1;
            c.top_k = 0;
        }
        sl_vec v;
        cr_assert_eq(sl_base_vec_alloc(&v, V, name, NULL), 0);
        char *lg = strtok_r(NULL, "\n", &save), *kp = strtok_r(NULL, "\n", &save), *pr = strtok_r(NULL, "\n", &save);
        cr_assert(lg && kp && pr && !strncmp(lg, "logits ", 7) && !strncmp(kp, "kept", 4) && !strncmp(pr, "probs ", 6));
        cr_assert_eq(sl_test_read_floats(lg + 7, v.d, v.f, V), V);
        unsigned char *kept = calloc(V, 1);
        for (char *p = kp + 4; *p;) {
            char *e;
            long id = strtol(p, &e, 10);
            if (e == p)
                break;
            kept[id] = 1;
            p = e;
        }
        double *want = malloc(V * sizeof *want);
        cr_assert_eq(sl_test_read_floats(pr + 6, want, NULL, V), V);
        const sl_logits_pipeline_type *t = !strcmp(fw, "hf") ? &sl_logits_pipeline_hf_type : &sl_logits_pipeline_vllm_type;
        sl_logits_result r;
        sl_error e;
        cr_assert_eq(sl_logits_pipeline_run(t, &v, &c, &r, &e), 0, "%s %s: %s", fw, name, e.msg);
        for (size_t i = 0; i < V; i++) {
            cr_assert_eq(r.kept[i], kept[i], "%s %s: id %zu kept %d, torch %d", fw, name, i, r.kept[i], kept[i]);
            double d = fabs(r.probs[i] - want[i]);
            cr_assert(r.probs[i] == (double)(float)want[i], "%s %s: id %zu p %.9g (%a), torch %.9g", fw, name, i,
                      r.probs[i], r.probs[i], want[i]);
            exact += r.probs[i] == (double)(float)want[i];
            total++;
            if (want[i] > 0 && d / want[i] > worst)
                worst = d / want[i];
        }
        sl_logits_result_free(&r);
        free(kept);
        free(want);
        cases++;
        /* draw lines: torch.manual_seed(S), then 20 torch.multinomial(probs, 1)
         * calls, i.e. `samplab draw --framework hf --seed S --n 20` */
        line = strtok_r(NULL, "\n", &save);
        while (line && !strncmp(line, "draw ", 5)) {
            char *p = line + 5;
            sl_fw_opts o;
            memset(&o, 0, sizeof o);
            o.logits = &v;
            o.has_seed = 1;
            o.seed.lo = strtoull(p, &p, 10);
            o.n = 20;
            o.k = 1;
            o.cfg = c; /* the same settings the pipeline case ran with */
            sl_fw_result fr;
            const sl_fw_type *ft = t == &sl_logits_pipeline_hf_type ? &sl_fw_hf_type : &sl_fw_vllm_type;
            cr_assert_eq(sl_fw_run(ft, &o, &fr, &e), 0, "%s %s draw: %s", fw, name, e.msg);
            for (size_t q = 0; q < 20; q++) {
                long want_tok = strtol(p, &p, 10);
                cr_assert_eq(fr.tokens[q], want_tok, "%s %s seed %llu draw %zu: token %ld, torch %ld", fw, name,
                             (unsigned long long)o.seed.lo, q, fr.tokens[q], want_tok);
            }
            sl_fw_result_free(&fr);
            draws++;
            line = strtok_r(NULL, "\n", &save);
        }
        sl_base_vec_free(&v);
    }
    cr_assert(cases >= 20, "only %zu golden cases", cases);
    cr_assert(draws >= 20, "only %zu draw lines", draws);
    cr_log_info("golden: %zu cases, %zu of %zu probabilities bit-identical to torch, worst relative difference %.3g",
                cases, exact, total, worst);
    free(text);
}

Test(replay_pipeline, golden_torch_float32_kernels)
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
