/* test_capi_hostile.c — every public call docs/c-api.md documents, called with
 * each pointer argument NULL in turn, a vocabulary of 0, a NaN alpha, each double
 * setting NaN and a closed or never-opened session: the cases are generated from
 * the headers at build time (mk/gen-capi-hostile.py writes capi_hostile.c into the
 * test build), so a new public call is called here without anyone writing its case.
 * Each must refuse with SL_EINVAL and one non-empty line (and, with err NULL, the
 * status alone, no crash), a pointer call must give NULL, a void call return. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "capi_hostile_fixture.h"

fx_fixture fx;

static const char LOGITS[] = "5,4.3,3.9,2.2,1.4,0.7,-0.1,-1.2";

void fx_each(void *ctx, size_t token)
{
    (void)ctx, (void)token;
}

static void must(int rc, const char *what)
{
    if (rc)
        cr_assert_fail("fixture: %s: %s", what, fx.err.msg);
}

void fx_setup(void)
{
    memset(&fx, 0, sizeof fx);
    fx.src.spec = LOGITS;
    fx.src.row = -1;
    sl_api_settings_init(&fx.settings);
    fx.settings.framework = "hf";
    fx.settings.seed = "42";
    fx.handle = sl_api_settings_new("draw");
    cr_assert_not_null(fx.handle);
    static const double p[8] = {0.3, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05, 0.05};
    for (int i = 0; i < 8; i++) {
        fx.p[i] = p[i], fx.pf[i] = (float)p[i];
        fx.counts[i] = (uint64_t)(p[i] * 1000 + 0.5);
        fx.ids[i] = i;
    }
    fx.context[0] = 1, fx.context[1] = 2;
    fx.obs[0] = 0, fx.obs[1] = 1, fx.obs[2] = 2;
    fx.steps_path = LOGITS;
    must(sl_io_vec_read(LOGITS, NULL, -1, &fx.vec, &fx.err), "vector");
    must(sl_io_steps_read(LOGITS, NULL, &fx.steps, &fx.err), "steps");
    fx.ft = sl_fw_lookup("hf");
    fx.fo.logits = &fx.vec;
    fx.fo.n = fx.fo.k = 1;
    fx.fo.has_seed = 1, fx.fo.seed.lo = 42;
    must(sl_fw_session_open(&fx.sess, fx.ft, &fx.fo, &fx.err), "session");
    must(sl_fw_session_open(&fx.closed, fx.ft, &fx.fo, &fx.err), "session to close");
    sl_fw_session_close(&fx.closed);
    must(sl_stat_gof_compute(fx.p, fx.counts, 8, &fx.gof, &fx.err), "gof");
    fx.dt = sl_draw_lookup("cdf");
    fx.rt = sl_rng_lookup("mt19937");
    fx.seed.lo = 42;
    fx.pt = sl_logits_pipeline_lookup("hf");
    fx.et = sl_fw_exact_lookup("torch");
    cr_assert(fx.ft && fx.dt && fx.rt && fx.pt && fx.et);
    fx.ein.V = 8, fx.ein.d = fx.p, fx.ein.f = fx.pf, fx.ein.source = "fixture";
    fx.err.msg[0] = '\0';
}

/* Between the call with err and the one without: a fresh err, the outputs zeroed. */
void fx_reset(void)
{
    fx.err.msg[0] = '\0';
    memset(&fx.out, 0, sizeof fx.out);
    fx.json = NULL;
}

void fx_teardown(void)
{
    sl_fw_session_close(&fx.sess);
    sl_io_steps_free(&fx.steps);
    sl_base_vec_free(&fx.vec);
    sl_api_settings_free(fx.handle);
}

static void fail(const char *label, const char *fmt, int a)
{
    if (fx.failed)
        return;
    fx.failed = 1;
    char what[200];
    snprintf(what, sizeof what, fmt, a);
    snprintf(fx.why, sizeof fx.why, "%s: %s", label, what);
}

void fx_expect_status(int rc, const char *label)
{
    if (rc != SL_EINVAL)
        fail(label, "status %d, expected SL_EINVAL", rc);
    else if (!fx.err.msg[0])
        fail(label, "SL_EINVAL with no message%s", 0);
    else if (strchr(fx.err.msg, '\n'))
        fail(label, "a message of more than one line%s", 0);
}

void fx_expect_rc(int rc, const char *label)
{
    if (rc != SL_EINVAL)
        fail(label, "status %d, expected SL_EINVAL", rc);
}

void fx_expect_null(const void *r, const char *label)
{
    if (r)
        fail(label, "a result%s, expected NULL", 0);
}

void fx_expect_done(const char *label)
{
    (void)label;
}

Test(capi_hostile, every_documented_call_refuses_hostile_arguments, .timeout = 600)
{
    size_t n = 0, bad = 0;
    const char *only = getenv("SL_CAPI_CASE"); /* one call's cases, by name, to debug */
    for (const fx_case *c = fx_cases; c->fn; c++) {
        if (only && strcmp(only, c->fn))
            continue;
        if (getenv("SL_CAPI_VERBOSE"))
            fprintf(stderr, "case %s with %s\n", c->fn, c->what);
        c->run();
        n++;
        if (fx.failed) {
            bad++;
            fprintf(stderr, "capi_hostile: %s\n", fx.why);
        }
    }
    cr_log_info("capi_hostile: %zu calls in scope, %zu hostile calls, %zu wrong", fx_n_calls, n, bad);
    cr_assert_gt(n, 500, "too few cases: %zu", n);
    cr_assert_eq(bad, 0, "%zu of %zu hostile calls were not refused", bad, n);
}
