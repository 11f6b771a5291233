/* test_api_args.c — the C API's argument checks as a program outside the
 * library meets them: a name its lookup does not know (NULL type), a vector
 * of the kind a framework does not take, weights a draw method cannot draw
 * from, NULL or empty inputs, alpha outside (0, 1). Bytes in memory (what the
 * Python package hands over) must be read as the same file would be: a .npy
 * keeps its float64 whatever the source is named, a NaN or all -inf row is
 * refused, counts past 2^53 are refused, and so is a tensor or row named for
 * them. Each must be a status and a one-line message, never a crash, never a
 * draw outside 0..V-1 (docs/c-api.md, "Conventions"). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "samplab.h"

static void expect_einval(int rc, const sl_error *e, const char *part)
{
    cr_assert_eq(rc, SL_EINVAL, "expected SL_EINVAL, got %d (%s)", rc, e->msg);
    cr_assert(strstr(e->msg, part), "message '%s' lacks '%s'", e->msg, part);
    cr_assert(!strchr(e->msg, '\n'), "one line: '%s'", e->msg);
}

static void fill(sl_vec *v, const double *x, size_t n)
{
    sl_error err;
    cr_assert_eq(sl_base_vec_alloc(v, n, "v", &err), SL_OK);
    for (size_t i = 0; i < n; i++) {
        v->d[i] = x[i];
        v->f[i] = (float)x[i];
    }
}

Test(api_args, unknown_names_are_errors)
{
    sl_error err;
    cr_assert_null(sl_fw_lookup("hff"));
    cr_assert_null(sl_fw_lookup(NULL));
    cr_assert_null(sl_rng_lookup(NULL));
    cr_assert_null(sl_draw_lookup(NULL));
    cr_assert_null(sl_logits_pipeline_lookup(NULL));
    cr_assert_null(sl_fw_exact_lookup(NULL));
    sl_fw_session s;
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    expect_einval(sl_fw_session_open(&s, sl_fw_lookup("hff"), &o, &err), &err, "no such framework");
    sl_rng r;
    sl_seed seed = {.lo = 1, .hi = 0, .stream = 0, .has_stream = 0};
    expect_einval(sl_rng_init(&r, sl_rng_lookup("pcg33"), &seed, &err), &err, "no such random source");
    cr_assert_null(r.state);
    sl_rng_release(&r);
    void *table;
    const double p[2] = {1, 1};
    expect_einval(sl_draw_prepare(sl_draw_lookup("cdff"), &table, p, 2, &err), &err, "no such draw method");
}

Test(api_args, a_session_refuses_the_other_kind_of_vector)
{
    /* probabilities opened on llama.cpp or transformers were stepped as logits */
    const double x[4] = {0.4, 0.3, 0.2, 0.1};
    sl_vec v;
    fill(&v, x, 4);
    sl_error err;
    sl_fw_session s;
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.n = o.k = 1;
    o.seed.lo = 1;
    o.has_seed = 1;
    o.probs = &v;
    expect_einval(sl_fw_session_open(&s, sl_fw_lookup("hf"), &o, &err), &err, "framework hf takes --logits");
    expect_einval(sl_fw_session_open(&s, sl_fw_lookup("llamacpp"), &o, &err), &err, "takes --logits");
    o.probs = NULL;
    o.logits = &v;
    expect_einval(sl_fw_session_open(&s, sl_fw_lookup("torch"), &o, &err), &err, "framework torch takes --probs");
    expect_einval(sl_fw_session_open(&s, sl_fw_lookup("gsl"), &o, &err), &err, "takes --probs");
    /* candle takes both: a logits session steps */
    cr_assert_eq(sl_fw_session_open(&s, sl_fw_lookup("candle"), &o, &err), SL_OK, "%s", err.msg);
    sl_fw_step st;
    cr_assert_eq(sl_fw_session_step(&s, &v, &st, &err), SL_OK, "%s", err.msg);
    cr_assert(st.tokens[0] >= 0 && st.tokens[0] < 4);
    expect_einval(sl_fw_session_step(&s, NULL, &st, &err), &err, "candle: no vector");
    sl_vec empty;
    memset(&empty, 0, sizeof empty);
    expect_einval(sl_fw_session_step(&s, &empty, &st, &err), &err, "empty vector");
    sl_logits_result res;
    expect_einval(sl_fw_session_probs(&s, NULL, &res, &err), &err, "no vector");
    sl_fw_session_close(&s);
    sl_base_vec_free(&v);
}

Test(api_args, draw_prepare_refuses_what_no_method_draws_from)
{
    sl_error err;
    void *table;
    const double nan3[3] = {0.5, NAN, 0.5}, neg3[3] = {0.5, -1, 0.5}, zero3[3] = {0, 0, 0},
                 inf3[3] = {1, INFINITY, 0};
    for (const sl_draw_type *const *t = sl_draw_types; *t; t++) {
        expect_einval(sl_draw_prepare(*t, &table, nan3, 3, &err), &err, "probs: entry 1 is NaN");
        expect_einval(sl_draw_prepare(*t, &table, neg3, 3, &err), &err, "probs: entry 1 is negative");
        expect_einval(sl_draw_prepare(*t, &table, zero3, 3, &err), &err, "all 3 weights are zero");
        expect_einval(sl_draw_prepare(*t, &table, inf3, 3, &err), &err, "probs: entry 1 is infinite");
        expect_einval(sl_draw_prepare(*t, &table, nan3, 0, &err), &err, "probs: empty vector");
        expect_einval(sl_draw_prepare(*t, &table, NULL, 3, &err), &err, "probs: no weights");
        /* zeros among positive weights stay a distribution */
        const double ok[3] = {0, 2, 0};
        cr_assert_eq(sl_draw_prepare(*t, &table, ok, 3, &err), SL_OK, "%s: %s", (*t)->name, err.msg);
        (*t)->free(table);
    }
}

Test(api_args, gof_of_nothing)
{
    sl_error err;
    sl_stat_gof_test t;
    const double p[2] = {0.5, 0.5};
    const uint64_t c[2] = {1, 1};
    expect_einval(sl_stat_gof_test_run(p, c, 0, 0.01, &t, &err), &err, "no tokens (V = 0)");
    expect_einval(sl_stat_gof_test_run(NULL, c, 2, 0.01, &t, &err), &err, "no reference distribution");
    expect_einval(sl_stat_gof_test_run(p, NULL, 2, 0.01, &t, &err), &err, "no counts");
}

Test(api_args, null_source_and_settings)
{
    sl_error err;
    char *json = NULL;
    sl_vec v;
    expect_einval(sl_io_vec_read(NULL, NULL, -1, &v, &err), &err, "the source is NULL");
    /* NULL settings are the defaults: the command's own message for what is missing */
    sl_api_src src = {"1,2", NULL, -1, NULL, 0, NULL, NULL, 0};
    expect_einval(sl_api_draw(&src, 0, NULL, &json, &err), &err, "give exactly one of --method M and --framework F");
    sl_api_settings s;
    sl_api_settings_init(&s);
    s.method = "cdf";
    expect_einval(sl_api_draw(NULL, 0, &s, &json, &err), &err, "give exactly one of --probs SRC and --logits SRC");
    cr_assert_eq(sl_api_draw(&src, 0, &s, &json, &err), SL_OK, "%s", err.msg);
    sl_api_free(json);
    cr_assert_neq(sl_api_gof(NULL, 0, NULL, 0, NULL, 0, NULL, &json, &err), SL_OK);
    expect_einval(sl_api_pipeline(NULL, NULL, &json, &err), &err, "--framework F is required");
    expect_einval(sl_api_exact(NULL, 0, NULL, &json, &err), &err, "give exactly one of --framework F and --method M");
    expect_einval(sl_api_replay(NULL, 1, NULL, 0, NULL, &json, &err), &err, "--framework F is required");
    expect_einval(sl_api_check(NULL, 1, NULL, 0, NULL, 0, NULL, &json, &err), &err, "--tokens FILE is required");
    s.method = NULL;
    s.framework = "hf";
    long tok[1] = {0};
    cr_assert_neq(sl_api_check(NULL, 1, NULL, 0, tok, 1, &s, &json, &err), SL_OK);
    cr_assert_neq(sl_api_replay(NULL, 1, NULL, 0, &s, &json, &err), SL_OK);
}

Test(api_args, check_log_refuses_alpha_outside_0_1)
{
    sl_error err;
    sl_io_steps m;
    const char *text = "1 2 3\n3 2 1\n";
    cr_assert_eq(sl_io_steps_read_text("mem", text, strlen(text), &m, &err), SL_OK, "%s", err.msg);
    sl_vec kind;
    memset(&kind, 0, sizeof kind);
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.logits = &kind;
    o.n = o.k = 1;
    const long obs[2] = {2, 0};
    sl_api_check_log_result r;
    expect_einval(sl_api_check_log(sl_fw_lookup("hf"), &o, 1, &m, NULL, 0, obs, 2.0, 0, &r, &err), &err,
                  "--alpha must be in (0, 1)");
    expect_einval(sl_api_check_log(NULL, &o, 1, &m, NULL, 0, obs, 0.01, 0, &r, &err), &err, "the framework is NULL");
    cr_assert_eq(sl_api_check_log(sl_fw_lookup("hf"), &o, 1, &m, NULL, 0, obs, 0.01, 0, &r, &err), SL_OK, "%s",
                 err.msg);
    sl_api_check_log_free(&r);
    sl_api_divergence d;
    expect_einval(sl_api_check_seeded(NULL, &o, &m, obs, &d, &err), &err, "the framework is NULL");
    sl_io_steps_free(&m);
}

/* A .npy image of float64 x[0..n) (version 1.0, header padded to 128 bytes). */
static size_t npy_f64(unsigned char *buf, const double *x, size_t n)
{
    char dict[100];
    int len = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu,), }", n);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    size_t hl = 128 - 10;
    buf[8] = (unsigned char)hl;
    buf[9] = 0;
    memset(buf + 10, ' ', hl);
    memcpy(buf + 10, dict, (size_t)len);
    buf[10 + hl - 1] = '\n';
    memcpy(buf + 128, x, n * sizeof *x);
    return 128 + n * sizeof *x;
}

Test(api_args, a_binary_source_keeps_its_dtype_whatever_its_name)
{
    /* torch keeps a float64 .npy or F64 safetensors tensor in float64; the test
     * was the source's name ending in .npy / .safetensors, which bytes in memory
     * ("<probs>", Python's arrays), a tensor's row ("f:t[0]") and a step do not */
    const double x[4] = {3, 2, 2, 1};
    unsigned char buf[128 + sizeof x];
    size_t len = npy_f64(buf, x, 4);
    sl_api_settings s;
    sl_api_settings_init(&s);
    s.framework = "torch";
    sl_api_src mem = {NULL, NULL, -1, buf, len, "<probs>", NULL, 0};
    char *json;
    sl_error err;
    cr_assert_eq(sl_api_exact(&mem, 0, &s, &json, &err), SL_OK, "%s", err.msg);
    cr_assert(strstr(json, "over float64 p"), "%.300s", json);
    sl_api_free(json);
    /* text stays torch.tensor(list)'s float32 */
    sl_api_src text = {"3,2,2,1", NULL, -1, NULL, 0, NULL, NULL, 0};
    cr_assert_eq(sl_api_exact(&text, 0, &s, &json, &err), SL_OK, "%s", err.msg);
    cr_assert(strstr(json, "over float32 p"), "%.300s", json);
    sl_api_free(json);
    /* a safetensors row: an F64 tensor [1, 4] */
    char hdr[128];
    int hl = snprintf(hdr, sizeof hdr, "{\"p\":{\"dtype\":\"F64\",\"shape\":[1,4],\"data_offsets\":[0,32]}}");
    while (hl % 8)
        hdr[hl++] = ' ';
    unsigned char st[8 + 128 + 32];
    uint64_t n = (uint64_t)hl;
    for (int i = 0; i < 8; i++)
        st[i] = (unsigned char)(n >> (8 * i));
    memcpy(st + 8, hdr, (size_t)hl);
    memcpy(st + 8 + hl, x, sizeof x);
    sl_vec v;
    cr_assert_eq(sl_io_vec_read_safetensors("f.safetensors", st, 8 + (size_t)hl + sizeof x, "p", 0, &v, &err), SL_OK,
                 "%s", err.msg);
    cr_assert(v.own_dtype && v.dtype == SL_F64);
    sl_base_vec_free(&v);
    cr_assert_eq(sl_io_vec_read_npy("<m>", buf, len, &v, &err), SL_OK, "%s", err.msg);
    cr_assert(v.own_dtype && v.dtype == SL_F64);
    sl_base_vec_free(&v);
    cr_assert_eq(sl_io_vec_read_text("<t>", "3 2", 3, &v, &err), SL_OK, "%s", err.msg);
    cr_assert(!v.own_dtype);
    sl_base_vec_free(&v);
    /* steps read from .npy bytes hand their rows the flag: the same image as shape (1, 4) */
    const char *two = "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 4), }";
    memset(buf + 10, ' ', 118);
    memcpy(buf + 10, two, strlen(two));
    buf[127] = '\n';
    sl_io_steps m;
    cr_assert_eq(sl_io_steps_read_npy("<rows>", buf, len, 0, &m, &err), SL_OK, "%s", err.msg);
    cr_assert(m.own_dtype && m.t == 1 && m.v == 4);
    cr_assert_eq(sl_base_vec_alloc(&v, 4, "row", &err), SL_OK);
    cr_assert_eq(sl_io_steps_row(&m, 0, &v), SL_OK);
    cr_assert(v.own_dtype && v.dtype == SL_F64 && v.d[0] == 3);
    sl_base_vec_free(&v);
    sl_io_steps_free(&m);
    cr_assert_eq(sl_io_steps_read_text("<t>", "1 2\n3 4\n", 8, &m, &err), SL_OK, "%s", err.msg);
    cr_assert(!m.own_dtype);
    sl_io_steps_free(&m);
}

Test(api_args, rows_in_memory_are_checked_as_a_file_is)
{
    /* a NaN step from Python's 2-D list replayed without a word: a file with the
     * same text is refused (sl_io_steps_read), bytes in memory now too */
    sl_api_settings s;
    sl_api_settings_init(&s);
    s.framework = "candle";
    s.seed = "1";
    char *json;
    sl_error err;
    const char *nan = "1.0,nan\n1.0,2.0\n", *dead = "1,2\n-inf,-inf\n";
    sl_api_src a = {NULL, NULL, -1, nan, strlen(nan), "<logits>", NULL, 0};
    expect_einval(sl_api_replay(&a, 1, NULL, 0, &s, &json, &err), &err, "<logits>: step 0, entry 1 is NaN");
    sl_api_src b = {NULL, NULL, -1, dead, strlen(dead), "<logits>", NULL, 0};
    expect_einval(sl_api_replay(&b, 1, NULL, 0, &s, &json, &err), &err, "<logits>: step 1 is all -inf");
    const long tok[2] = {0, 1};
    expect_einval(sl_api_check(&a, 1, NULL, 0, tok, 2, &s, &json, &err), &err, "step 0, entry 1 is NaN");
}

Test(api_args, gof_counts_past_2_53_as_the_counts_file)
{
    /* a counts file is refused past 2^53; the same counts as an array were taken
     * (and a sum past 2^64 wrapped) */
    sl_api_settings s;
    sl_api_settings_init(&s);
    sl_api_src src = {"1,1", NULL, -1, NULL, 0, NULL, NULL, 0};
    char *json;
    sl_error err;
    const uint64_t big[2] = {(1ull << 53) + 1, 1}, wrap[2] = {UINT64_MAX, 2}, ok[2] = {1ull << 52, 1ull << 52};
    expect_einval(sl_api_gof(&src, 0, big, 2, NULL, 0, &s, &json, &err), &err, "add up past 2^53");
    expect_einval(sl_api_gof(&src, 0, wrap, 2, NULL, 0, &s, &json, &err), &err, "at token 0");
    cr_assert_eq(sl_api_gof(&src, 0, ok, 2, NULL, 0, &s, &json, &err), SL_OK, "%s", err.msg);
    sl_api_free(json);
}

Test(api_args, tensor_and_row_are_refused_for_bytes_in_memory)
{
    /* they were ignored: a tensor= or row= with a Python array drew from the whole array */
    sl_api_settings s;
    sl_api_settings_init(&s);
    s.method = "cdf";
    char *json;
    sl_error err;
    sl_api_src a = {NULL, "t", -1, "1 2", 3, "<probs>", NULL, 0}, b = {NULL, NULL, 0, "1 2", 3, "<probs>", NULL, 0};
    expect_einval(sl_api_draw(&a, 0, &s, &json, &err), &err, "<probs>: --tensor and --row apply to .safetensors");
    expect_einval(sl_api_draw(&b, 0, &s, &json, &err), &err, "<probs>: --tensor and --row apply to .safetensors");
    s.method = NULL;
    s.framework = "hf";
    sl_api_src c = {NULL, "t", -1, "1 2\n2 1\n", 8, "<logits>", NULL, 0};
    expect_einval(sl_api_replay(&c, 1, NULL, 0, &s, &json, &err), &err, "<logits>: --tensor applies to .safetensors");
}
