/* test_current_hf.c — samplab's `hf` pipeline against the real transformers 5.12.1
 * logits processors (Debian sid, torch 2.14.1 forced to its AVX2 kernel):
 * data/golden/current/hf_pipeline.txt, written by
 * analysis/golden/current/hf_pipeline.py in the format of data/golden/hf_pipeline.txt.
 * Unlike tests/test_logits_golden.c this counts the differing cases instead of
 * stopping at the first and names them. transformers 5.x's MinPLogitsWarper keeps
 * its min_tokens_to_keep tokens with torch.topk(probs, k), not with the descending
 * argsort of 4.x (case ties1_minp tells them apart), so the pipeline runs with
 * cfg.transformers = 5.
 * The AVX-512 twin (hf_pipeline_avx512.txt, torch's default kernel on this machine)
 * is replayed with the 16-lane kernel model. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

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

/* `samplab draw --framework hf --seed S --n 20` on the case; 1 when the 20 tokens match */
static int draw_matches(sl_vec *v, const sl_logits_cfg *c, char *p)
{
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.logits = v;
    o.has_seed = 1;
    o.seed.lo = strtoull(p, &p, 10);
    o.n = 20;
    o.k = 1;
    o.variant = "2"; /* torch 2.x's multinomial (--torch 2) */
    o.cfg = *c;
    sl_fw_result fr;
    sl_error e;
    cr_assert_eq(sl_fw_run(&sl_fw_hf_type, &o, &fr, &e), 0, "draw: %s", e.msg);
    int same = 1;
    for (size_t q = 0; q < 20; q++)
        same &= fr.tokens[q] == strtol(p, &p, 10);
    sl_fw_result_free(&fr);
    return same;
}

static void replay_hf(const char *path, int cpu, hf_replay *r)
{
    memset(r, 0, sizeof *r);
    char *text = sl_test_slurp(path);
    cr_assert_not_null(text, "%s missing (make golden-current writes it)", path);
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    while (line) {
        if (strncmp(line, "case hf ", 8)) {
            line = strtok_r(NULL, "\n", &save);
            continue;
        }
        char name[64];
        size_t V;
        cr_assert_eq(sscanf(line, "case hf %63s V=%zu", name, &V), 2);
        sl_logits_cfg c;
        long ctx[64];
        parse_case(line, &c, ctx, 64);
        c.cpu = cpu;
        c.transformers = 5;
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
        sl_logits_result res;
        cr_assert_eq(sl_logits_pipeline_run(&sl_logits_pipeline_hf_type, &v, &c, &res, &e), 0, "%s: %s", name, e.msg);
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
            snprintf(r->names + len, sizeof r->names - len, "%s%s", len ? " " : "", name);
        }
        sl_logits_result_free(&res);
        free(kept);
        free(want);
        line = strtok_r(NULL, "\n", &save);
        while (line && !strncmp(line, "draw ", 5)) {
            r->draws++;
            r->draws_differ += !draw_matches(&v, &c, line + 5);
            line = strtok_r(NULL, "\n", &save);
        }
        sl_base_vec_free(&v);
    }
    free(text);
}

Test(replay_current, hf_pipeline_transformers_5_12_avx2)
{
    hf_replay r;
    replay_hf("data/golden/current/hf_pipeline.txt", SL_CPU_AVX2, &r);
    cr_log_info("transformers 5.12.1 (AVX2): %zu cases, %zu differ (%s), %zu of %zu draw lines differ", r.cases,
                r.differ, r.names, r.draws_differ, r.draws);
    cr_assert(r.cases >= 30 && r.draws >= 20, "only %zu cases, %zu draw lines", r.cases, r.draws);
    cr_assert_str_eq(r.names, "", "cases that differ from transformers 5.12.1: '%s'", r.names);
    cr_assert_eq(r.draws_differ, 0, "%zu draw lines differ", r.draws_differ);
}

Test(replay_current, hf_pipeline_transformers_5_12_avx512)
{
    /* torch 2.14.1 on its AVX-512 kernel: the 16-lane reduce_all order (logits/f32.c) */
    hf_replay r;
    replay_hf("data/golden/current/hf_pipeline_avx512.txt", SL_CPU_AVX512, &r);
    cr_log_info("transformers 5.12.1 (AVX-512): %zu cases, %zu differ (%zu in probabilities only): %s; "
                "%zu of %zu draw lines differ", r.cases, r.differ, r.prob_only, r.names, r.draws_differ, r.draws);
    cr_assert(r.cases >= 30, "only %zu cases", r.cases);
    cr_assert_str_eq(r.names, "", "cases that differ from transformers 5.12.1 (AVX-512): '%s'", r.names);
    cr_assert_eq(r.draws_differ, 0, "%zu draw lines differ", r.draws_differ);
}
