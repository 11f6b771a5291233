/* test_base_errors.c — running out of memory is an error, never a quiet
 * fallback. Each public function here is asked for an absurd size: its
 * first allocation fails before it reads the (small) input, and it must
 * return SL_ENOMEM with a one-line "source: ..." message. No test-only
 * malloc hook exists in the library; the sizes alone make malloc fail. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>

#include "samplab.h"

/* Under ASan an allocation beyond its limit aborts unless the allocator may
 * return NULL as malloc does; these tests want malloc's own contract. The
 * whole test binary gets the option (nothing else relies on the abort). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

#define HUGE_N ((size_t)1 << 58) /* 2^58 entries: >= 2^58 bytes for any element, no size_t wrap for <= 32-byte ones */

static void expect_nomem(int rc, const sl_error *e, const char *source)
{
    cr_assert_eq(rc, SL_ENOMEM, "expected SL_ENOMEM, got %d (%s)", rc, e->msg);
    cr_assert(!strncmp(e->msg, source, strlen(source)) && e->msg[strlen(source)] == ':',
              "message '%s' does not start with '%s:'", e->msg, source);
    cr_assert_null(strchr(e->msg, '\n'), "message '%s' is not one line", e->msg);
}

Test(errors, vec_alloc)
{
    sl_vec v;
    sl_error e = {{0}};
    expect_nomem(sl_base_vec_alloc(&v, HUGE_N, "huge", &e), &e, "huge");
    cr_assert(v.d == NULL && v.f == NULL);
    /* n * sizeof(double) would wrap: refused, not a short buffer */
    expect_nomem(sl_base_vec_alloc(&v, SIZE_MAX / 4, "wrap", &e), &e, "wrap");
    cr_assert(v.d == NULL && v.f == NULL);
}

Test(errors, every_pipeline)
{
    float lf[1] = {0};
    double ld[1] = {0};
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    for (size_t i = 0; sl_logits_pipeline_types[i]; i++) {
        const sl_logits_pipeline_type *t = sl_logits_pipeline_types[i];
        sl_logits_result r;
        sl_error e = {{0}};
        sl_logits_cfg in = cfg; /* run takes the settings in force */
        sl_logits_cfg_resolve(t, &in, NULL);
        int rc = t->run(lf, ld, HUGE_N, &in, &r, &e);
        cr_assert_eq(rc, SL_ENOMEM, "%s: expected SL_ENOMEM, got %d (%s)", t->name, rc, e.msg);
        cr_assert_null(strchr(e.msg, '\n'));
        cr_assert_not_null(strstr(e.msg, ": out of memory"), "%s: '%s'", t->name, e.msg);
    }
}

Test(errors, llamacpp_filters_do_not_fall_back)
{
    /* More than 128 candidates to sort: llama.cpp's bucket sort needs a copy
     * of the array, and without it no other sort may stand in (ties). */
    sl_logits_cand one[1] = {{0, 0.0f, 0.0f}};
    sl_error e = {{0}};
    sl_logits_llama_array a = {one, HUGE_N, 0};
    expect_nomem(sl_logits_llama_top_k(&a, 200, &e), &e, "llamacpp");
    cr_assert_eq(a.size, HUGE_N, "top-k left the array alone");
    cr_assert_eq(a.sorted, 0);
    expect_nomem(sl_logits_llama_typical(&a, 0.5f, 0, &e), &e, "llamacpp");
    cr_assert_eq(a.size, HUGE_N, "typical did not return the array unfiltered as a result");
    expect_nomem(sl_logits_llama_softmax(&a, 1, &e), &e, "llamacpp");
    sl_logits_llama_array b;
    sl_logits_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    expect_nomem(sl_logits_llama_chain((const float[]){0}, HUGE_N, &cfg, &b, NULL, &e), &e, "llamacpp");
}

Test(errors, torch_argsort_does_not_fall_back)
{
    float x[1] = {0};
    size_t idx[1];
    float kth = 0;
    sl_error e = {{0}};
    expect_nomem(sl_logits_argsort_f32(x, HUGE_N, 0, idx, &e), &e, "torch sort");
    expect_nomem(sl_logits_kth_largest_f32(x, HUGE_N, 1, idx, &kth, &e), &e, "torch sort");
}

Test(errors, candle_helpers)
{
    float x[1] = {0};
    size_t idx[1] = {0};
    sl_error e = {{0}};
    expect_nomem(sl_logits_candle_select_nth(idx, HUGE_N, 1, x, &e), &e, "candle");
    expect_nomem(sl_logits_candle_topp_zero(x, HUGE_N, 0.5f, &e), &e, "candle");
    long changed = -1;
    expect_nomem(sl_logits_candle_repeat_penalty(x, HUGE_N, 2.0f, NULL, 0, &changed, &e), &e, "candle");
    cr_assert_eq(changed, -1, "no count on failure");
}

Test(errors, chi_square)
{
    sl_stat_cells c;
    memset(&c, 0, sizeof c);
    c.ncells = HUGE_N;
    double chi2 = -1, g = -1;
    uint64_t outside = 0;
    sl_error e = {{0}};
    expect_nomem(sl_stat_chi2_g(&c, NULL, &chi2, &g, &outside, &e), &e, "chi-square");
    cr_assert(chi2 == -1 && g == -1, "no NaN statistic stands in for the failure");
}

Test(errors, result_alloc)
{
    sl_logits_result r;
    sl_error e = {{0}};
    expect_nomem(sl_logits_result_alloc(&r, HUGE_N, &e), &e, "pipeline");
    cr_assert(r.probs == NULL && r.kept == NULL);
}

/* GSL's default handler would abort this process on the invalid weight;
 * after sl_base_gsl_quiet (called twice: idempotent) GSL returns NULL. */
Test(errors, gsl_quiet_turns_aborts_into_return_values)
{
    sl_base_gsl_quiet();
    sl_base_gsl_quiet();
    const double w[2] = {1.0, -1.0};
    gsl_ran_discrete_t *g = gsl_ran_discrete_preproc(2, w);
    cr_assert_null(g, "a negative weight is an error GSL reports by returning NULL");
}

/* A GSL failure inside the chi-square tail (here a negative df: a domain
 * error in gsl_sf_gamma_inc_Q) returns NaN once the handler is off; the
 * wrapper turns it into an error instead of a p-value. */
Test(errors, chisq_q_reports_gsl_failures)
{
    double q = -1;
    sl_error e = {{0}};
    cr_assert_eq(sl_stat_chisq_q(3.841458820694124, 1, &q, &e), 0, "%s", e.msg);
    cr_assert(fabs(q - 0.05) < 1e-12, "Q(3.8415; 1) = %.17g", q);
    q = -1;
    cr_assert_eq(sl_stat_chisq_q(1.0, -1.0, &q, &e), SL_EINVAL, "df = -1 gave %.17g", q);
    cr_assert_eq(q, -1, "no p-value on failure");
    cr_assert(!strncmp(e.msg, "chi-square: ", 12), "%s", e.msg);
}

Test(errors, escaping_and_long_messages)
{
    char b[64];
    /* NUL, newline, escape, DEL, a byte-order mark: each \xNN; printable bytes and '\' kept */
    cr_assert_str_eq(sl_base_esc("a\0b\n\x1b[2J\x7f\xef\xbb\xbf\\", 13, b, sizeof b),
                     "a\\x00b\\x0a\\x1b[2J\\x7f\\xef\\xbb\\xbf\\");
    /* escaping an escaped text changes nothing */
    char c[64];
    cr_assert_str_eq(sl_base_esc_str(b, c, sizeof c), b);
    /* cut with "..." to fit, never in the middle of an \xNN */
    cr_assert_str_eq(sl_base_esc("\x01\x02\x03\x04", 4, b, 12), "\\x01\\x02...");
    cr_assert_str_eq(sl_base_esc("abcdefghijkl", 12, b, 12), "abcdefgh...");
    /* a message longer than its buffer keeps its head and its tail (what is wrong) */
    char name[2000];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    sl_error e;
    cr_assert_eq(sl_base_error_set(&e, SL_EIO, "%s: cannot open: File name too long", name), SL_EIO);
    cr_assert(strlen(e.msg) == sizeof e.msg - 1, "%zu", strlen(e.msg));
    cr_assert(!strncmp(e.msg, "xxxx", 4), "%s", e.msg);
    cr_assert(strstr(e.msg, "x...x"), "%s", e.msg);
    const char *tail = ": cannot open: File name too long";
    cr_assert_str_eq(e.msg + strlen(e.msg) - strlen(tail), tail);
}
