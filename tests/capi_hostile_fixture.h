/* capi_hostile_fixture.h — the valid arguments the generated C API test
 * (mk/gen-capi-hostile.py, run by make into the test build) passes beside the one
 * under test, and its expectations: a status call refuses with SL_EINVAL and one
 * non-empty line, a pointer call gives NULL, a void call returns. One fixture
 * for every call, set up and torn down around each case, so a case that wrongly
 * succeeds leaks (LeakSanitizer reports it) instead of corrupting the next. */
#ifndef SL_CAPI_HOSTILE_FIXTURE_H
#define SL_CAPI_HOSTILE_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "samplab.h"

typedef struct fx_case {
    const char *fn, *what;
    void (*run)(void);
} fx_case;
extern const fx_case fx_cases[];
extern const size_t fx_n_calls;

/* What a case left: failures are counted by the driver (tests/test_capi_hostile.c). */
typedef struct fx_fixture {
    sl_error err;
    sl_api_src src;
    sl_api_settings settings, *handle;
    sl_progress prog;
    char *json;
    uint64_t counts[8], counts_out[8];
    long ids[8], context[2], obs[3], tokens_out[64];
    uint64_t words_out[64];
    size_t kept_out[64];
    const char *cstr;
    double p[8], p_out[8], sum;
    const sl_fw_type *ft;
    sl_fw_opts fo;
    sl_io_steps steps;
    const char *steps_path;
    sl_vec vec;
    sl_fw_session sess, closed, zeroed;
    sl_stat_gof gof;
    char rule[256];
    const sl_draw_type *dt;
    void *table;
    const sl_rng_type *rt;
    sl_seed seed;
    const sl_logits_pipeline_type *pt;
    const sl_stat_exact_type *et;
    sl_stat_exact_input ein;
    float pf[8];
    union {
        sl_vec vec; sl_io_steps steps; sl_fw_session sess; sl_rng rng;
        sl_api_draw_result draw; sl_api_gof_result gof; sl_api_pipeline_result pipeline;
        sl_api_compare_result compare; sl_api_exact_audit exact; sl_api_power_result power;
        sl_api_calibrate_result calibrate; sl_api_replay_result replay; sl_api_bench_result bench;
        sl_api_check_result check; sl_api_divergence div; sl_api_check_log_result clog;
        sl_fw_step step; sl_logits_result res; sl_fw_result fwres; sl_stat_gof g; sl_stat_gof_test t;
        sl_stat_exact_result exres;
    } out;
    /* the outcome of the case that ran */
    int failed;
    char why[600];
} fx_fixture;
extern fx_fixture fx;

void fx_setup(void);
void fx_reset(void);
void fx_teardown(void);
void fx_each(void *ctx, size_t token);
void fx_expect_status(int rc, const char *label);
void fx_expect_rc(int rc, const char *label);
void fx_expect_null(const void *r, const char *label);
void fx_expect_done(const char *label);

#endif
