/* framework_session.c — the bit-exact emulations from C: a llama.cpp sampler
 * session stepped over one logits vector (each drawn token accepted into its
 * penalty history, as llama_sampler_sample does), N draws with a method over a
 * counted random source, and the distribution candle's sampler really induces.
 *
 *   cc framework_session.c $(pkg-config --cflags --libs samplab) -o framework_session */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <samplab.h>

static int fail(const sl_error *err)
{
    fprintf(stderr, "error: %s\n", err->msg);
    return 2;
}

int main(void)
{
    sl_error err;
    sl_vec v;
    const double logits[8] = {5.0, 4.3, 3.9, 2.2, 1.4, 0.7, -0.1, -1.2};
    if (sl_base_vec_alloc(&v, 8, "weather", &err))
        return fail(&err);
    for (int i = 0; i < 8; i++) {
        v.d[i] = logits[i];
        v.f[i] = (float)logits[i];
    }

    /* 1. a session: llama.cpp 0.7.0's common_sampler chain, top-k 4, T = 0.8, seed 7 */
    sl_fw_opts o;
    memset(&o, 0, sizeof o);
    o.logits = &v;
    o.n = o.k = 1;
    o.seed.lo = 7;
    o.has_seed = 1;
    o.cfg.has_temperature = 1;
    o.cfg.temperature = 0.8;
    o.cfg.has_top_k = 1;
    o.cfg.top_k = 4;
    sl_fw_session s;
    if (sl_fw_session_open(&s, sl_fw_lookup("llamacpp"), &o, &err))
        return fail(&err);
    printf("llamacpp (%s), seed 7:", sl_fw_session_version(&s));
    uint64_t words = 0;
    for (int t = 0; t < 10; t++) {
        sl_fw_step st;
        if (sl_fw_session_step(&s, &v, &st, &err) || sl_fw_session_accept(&s, st.tokens[0], &err)) {
            sl_fw_session_close(&s);
            return fail(&err);
        }
        words += st.words;
        printf(" %ld", st.tokens[0]);
    }
    printf("  (%llu words)\n", (unsigned long long)words);
    sl_fw_session_close(&s);

    /* 2. a method over a source: the alias method over MT19937 seeded 42 */
    double p[8];
    if (sl_logits_softmax(v.d, 8, 1.0, p, &err))
        return fail(&err);
    const sl_rng_type *rt = sl_rng_lookup("mt19937");
    const sl_draw_type *dt = sl_draw_lookup("alias");
    sl_seed seed = {.lo = 42};
    sl_rng rng;
    void *table;
    if (sl_rng_init(&rng, rt, &seed, &err))
        return fail(&err);
    if (sl_draw_prepare(dt, &table, p, 8, &err)) {
        sl_rng_release(&rng);
        return fail(&err);
    }
    printf("alias over mt19937, seed 42:");
    for (int i = 0; i < 10; i++)
        printf(" %zu", dt->draw(table, &rng));
    printf("  (%llu words)\n", (unsigned long long)rng.words);
    dt->free(table);
    sl_rng_release(&rng);

    /* 3. the exact distribution, as `samplab exact --json` prints it */
    sl_api_settings set;
    sl_api_settings_init(&set);
    set.framework = "candle";
    sl_api_src src = {"5,4.3,3.9,2.2,1.4,0.7,-0.1,-1.2", NULL, -1, NULL, 0, NULL, NULL, 0};
    char *json;
    if (sl_api_exact(&src, 1, &set, &json, &err))
        return fail(&err);
    printf("exact, candle: %.160s...\n", json);
    sl_api_free(json);
    sl_base_vec_free(&v);
    return 0;
}
