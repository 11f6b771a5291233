/* test_logits_torch_log.c — torch 2.14.1's float32 log (SLEEF logf_u10, which
 * log_softmax applies to each row's sum), log_softmax and transformers
 * 5.12.1's TypicalLogitsWarper, from data/golden/current/torch_log.txt (AVX2)
 * and torch_log_avx512.txt, written by analysis/golden/current/torch_log.py:
 * every log and log_softmax bit for bit, and the tokens typical keeps, from the
 * command line. glibc's logf differs from torch's in some of the logs; on a
 * near-flat row that last bit reorders typical's shifted scores. The warper ran
 * alone, so the command turns off generate()'s default top_k 50 (--top-k 0). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "samplab.h"

static float from_hex(char **p)
{
    uint32_t u = (uint32_t)strtoul(*p, p, 16);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int same(float a, float b)
{
    return !memcmp(&a, &b, sizeof a);
}

static void check_file(const char *path, int cpu, const char *cpu_name)
{
    char *text = sl_test_slurp(path);
    cr_assert_not_null(text, "%s missing", path);
    size_t logs = 0, glibc_differs = 0, rows = 0, typ = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *p = line;
        if (!strncmp(line, "log ", 4)) {
            p += 4;
            float x = from_hex(&p), y = from_hex(&p);
            float got = sl_logits_logf_sleef(x);
            cr_expect(same(got, y), "log(%a): %a, torch %a", x, got, y);
            glibc_differs += !same(logf(x), y);
            logs++;
        } else if (!strncmp(line, "lsm ", 4)) {
            p += 4;
            size_t V = strtoul(p, &p, 10);
            float x[128], want[128], got[128];
            cr_assert(V <= 128);
            for (size_t i = 0; i < V; i++)
                x[i] = from_hex(&p);
            p = strchr(p, ':') + 1;
            for (size_t i = 0; i < V; i++)
                want[i] = from_hex(&p);
            sl_logits_log_softmax_f32(x, V, got, cpu);
            for (size_t i = 0; i < V; i++)
                cr_expect(same(got[i], want[i]), "%s: log_softmax V=%zu entry %zu: %a, torch %a", cpu_name, V, i,
                          got[i], want[i]);
            rows++;
        } else if (!strncmp(line, "typical ", 8)) {
            p += 8;
            double mass = strtod(p, &p);
            long mk = strtol(p, &p, 10);
            size_t V = strtoul(p, &p, 10);
            char args[4096];
            size_t k = (size_t)snprintf(args, sizeof args,
                                        "pipeline --framework hf --cpu %s --top-k 0 --typical %.17g --min-keep %ld --json "
                                        "--logits ", cpu_name, mass, mk);
            for (size_t i = 0; i < V; i++)
                k += (size_t)snprintf(args + k, sizeof args - k, "%s%.9g", i ? "," : "", (double)from_hex(&p));
            p = strchr(p, ':') + 1;
            while (*p == ' ')
                p++;
            char want[512];
            snprintf(want, sizeof want, "\"kept\":[%s]", p);
            sl_test_run r = sl_test_cli(args);
            cr_expect_eq(r.status, 0, "%s: %s", args, r.err);
            cr_expect(strstr(r.out, want) != NULL, "%s: torch keeps %s, samplab: %.300s", args, want, r.out);
            sl_test_run_free(&r);
            typ++;
        }
    }
    cr_log_info("%s: %zu logs (glibc's logf differs in %zu), %zu log_softmax rows, %zu typical cases", path, logs,
                glibc_differs, rows, typ);
    cr_expect_geq(logs, 3000u);
    cr_expect_gt(glibc_differs, 0u, "the logs should include ones where glibc's logf differs");
    cr_expect_geq(rows, 300u);
    cr_expect_geq(typ, 200u);
    free(text);
}

Test(replay_torch_log, torch_log_softmax_typical_avx2)
{
    check_file("data/golden/current/torch_log.txt", SL_CPU_AVX2, "avx2");
}

Test(replay_torch_log, torch_log_softmax_typical_avx512)
{
    check_file("data/golden/current/torch_log_avx512.txt", SL_CPU_AVX512, "avx512");
}
