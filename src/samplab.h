/* samplab.h — the public C API of samplab, for programs outside the library.
 * No file of the library includes it: each layer includes only its own header
 * and, through it, the layers below (see docs/architecture.md).
 *
 *   base/      errors, seeds, vectors                       sl_base_
 *   rng/       random sources, uniform conversions           sl_rng_
 *   draw/      draw methods over a probability vector        sl_draw_
 *   logits/    softmax and the per-framework pipelines        sl_logits_
 *   framework/ bit-exact framework emulations                 sl_fw_
 *   stats/     goodness of fit, power, exact bookkeeping      sl_stat_
 *   io/        readers and writers                            sl_io_
 *   api/       each command's computation and its JSON        sl_api_
 *   report/    the report runner and its sections             sl_report_
 *
 * Build against the installed library with pkg-config:
 *     cc my_test.c $(pkg-config --cflags --libs samplab)                     (libsamplab.so)
 *     cc my_test.c $(pkg-config --cflags samplab) \
 *        $(pkg-config --static --libs samplab | sed 's/-lsamplab/-l:libsamplab.a/')   (libsamplab.a)
 *
 * Every call returns 0 or a status (SL_EINVAL bad input, SL_ENOMEM, SL_EIO) and
 * fills an sl_error with one line naming the input and the position; the
 * library never prints and never exits. State is passed in: no globals.
 *
 * The calls a test needs, each with a short example (docs/c-api.md has whole
 * programs; examples/ has two that build against the installed tree):
 *
 * 1. A sampler session for a framework, stepped (framework/sl_fw.h):
 *
 *     sl_vec v;  sl_error err;
 *     sl_io_vec_read("logits.txt", NULL, -1, &v, &err);       // or sl_base_vec_alloc and fill d, f
 *     sl_fw_opts o = {0};
 *     o.logits = &v; o.n = o.k = 1; o.seed.lo = 42; o.has_seed = 1;
 *     o.cfg.has_temperature = 1; o.cfg.temperature = 0.7; o.cfg.has_top_k = 1; o.cfg.top_k = 40;
 *     sl_fw_session s;
 *     if (sl_fw_session_open(&s, sl_fw_lookup("hf"), &o, &err)) { puts(err.msg); return 2; }
 *     sl_fw_step st;
 *     sl_fw_session_step(&s, &v, &st, &err);                     // st.tokens[0], st.words
 *     sl_fw_session_accept(&s, st.tokens[0], &err);              // into the history penalties read
 *     sl_fw_session_close(&s);
 *
 *    A whole generation of [T, V] rows: sl_api_gen_replay (api/sl_api.h).
 *
 * 2. N tokens with a method over a random source (rng/sl_rng.h, draw/sl_draw.h):
 *
 *     sl_seed seed = {.lo = 42};  sl_rng rng;  void *table;
 *     sl_rng_init(&rng, sl_rng_lookup("mt19937"), &seed, &err);
 *     const sl_draw_type *dt = sl_draw_lookup("cdf");
 *     sl_draw_prepare(dt, &table, p, V, &err);
 *     for (size_t i = 0; i < n; i++) tokens[i] = dt->draw(table, &rng);   // rng.words: words spent
 *     dt->free(table);  sl_rng_release(&rng);
 *
 * 3. Goodness of fit of counts against a vector, with the statistics and the
 *    verdict `samplab gof` gives (stats/sl_stat.h):
 *
 *     uint64_t counts[V] = {0};
 *     for (int i = 0; i < 100000; i++) counts[my_sampler()]++;
 *     sl_stat_gof_test t;
 *     if (sl_stat_gof_test_run(p, counts, V, 0.01, &t, &err)) { puts(err.msg); return 2; }
 *     printf("%s: %s (chi2 p = %g, TV = %g)\n", t.fail ? "FAIL" : "PASS", t.rule, t.g.chi2_p, t.g.tv);
 *
 *    From draws (token ids) or a file: sl_api_gof (the JSON of `samplab gof --json`).
 *
 * 4. check a generation log: with the seed, where the seeded sampler first
 *    draws another token (sl_api_check_seeded); without, the PIT and
 *    log-likelihood tests and their power (sl_api_check_log); sl_api_check
 *    gives either as the JSON of `samplab check --json`:
 *
 *     sl_api_divergence d;
 *     sl_api_check_seeded(sl_fw_lookup("hf"), &o, &steps, observed, &d, &err);
 *     if (d.step < steps.t) printf("diverges at step %zu: %ld drawn\n", d.step, d.predicted);
 *
 * 5. The exact induced distribution (sl_api_exact, `samplab exact --json`):
 *
 *     sl_api_settings s;  sl_api_settings_init(&s);  s.framework = "candle";
 *     sl_api_src src = {"data/weather.txt", NULL, -1, NULL, 0, NULL, NULL, 0};
 *     char *json;
 *     if (!sl_api_exact(&src, 1, &s, &json, &err)) { puts(json); sl_api_free(json); }
 *
 * The sl_api_ calls take what the command takes (sl_api_src: a path, an inline
 * list or bytes in memory; sl_api_settings: the options) and return the JSON the
 * command prints for it, or its one-line message in err: the Python package
 * (python/samplab) is these calls through ctypes.
 */
#ifndef SAMPLAB_H
#define SAMPLAB_H

#ifdef __cplusplus
extern "C" {
#endif

#include "base/sl_base.h"
#include "rng/sl_rng.h"
#include "draw/sl_draw.h"
#include "logits/sl_logits.h"
#include "framework/sl_fw.h"
#include "stats/sl_stat.h"
#include "io/sl_io.h"
#include "api/sl_api.h"
#include "report/sl_report.h"

#ifdef __cplusplus
}
#endif

#endif
