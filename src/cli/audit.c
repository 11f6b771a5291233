/* audit.c — `samplab audit`: a serving engine judged through its HTTP API
 * (api/audit.c), or a log of what one answered. Prints each verdict on a line,
 * or the result as JSON; exit 0 consistent, 1 rejected, 2 bad input or a
 * server that does not answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sl_cli.h"

static void audit_help(FILE *f)
{
    fprintf(f,
            "usage: samplab audit --server URL [--api llama-server|openai|ollama] [--model M]\n"
            "                     (--prompt TEXT | --prompt-ids IDS) --seed S --n-predict T [--requests N]\n"
            "                     [--send all|seed|none] [--n-probs K] [--concurrent C] [--out DIR] [settings]\n"
            "       samplab audit --log FILE [settings]\n\n"
            "Judges an engine's sampler through what its HTTP API answers per token: the token drawn and the\n"
            "top-K probabilities. The claim is llama.cpp's chain (--llamacpp, default the release the\n"
            "server's build_info names, else 0.4.0) with the settings given and llama-server's defaults for\n"
            "the others; --framework ollama --ollama 0.30|0.32: the chain Ollama drives llama-server with,\n"
            "Ollama's defaults (and on --api openai its route's: temperature and top_p 1.0). --send says\n"
            "which of them the requests carry (seed: only the seed, so the server's own defaults must be\n"
            "the claim).\n"
            "Requests: seeds S .. S+N-1, each once, then again (llama-server: with post_sampling_probs),\n"
            "then the first C two at a time. Verdicts (--json keys): seed_honoured, settings_honoured with\n"
            "outside_kept (each token outside the claimed kept set, the stage that removes it), p_value (the\n"
            "randomised PIT and log-likelihood tests of `samplab check`, with their power), predicted (the\n"
            "seeded llama.cpp session replayed where the reported values cover the kept set), concurrency.\n"
            "true, false or null where the answers cannot tell. Exit 0 consistent, 1 rejected, 2 bad input\n"
            "or a server that does not answer (what was recorded is kept in --out). SAMPLAB_API_KEY, when\n"
            "set, is sent as a bearer token. docs/audit.md has the commands for llama-server, Ollama, vLLM\n"
            "and SGLang.\n\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("audit"), "options:");
}

static const char *tri(json_t *v)
{
    return json_is_true(v) ? "yes" : json_is_false(v) ? "NO" : "cannot tell";
}

static long num(json_t *o, const char *k)
{
    return (long)json_integer_value(json_object_get(o, k));
}

static void print_text(json_t *o)
{
    json_t *seed = json_object_get(o, "seed"), *suf = json_object_get(o, "sufficed");
    printf("audit: %s %s, %ld requests, %ld tokens; claim: %s (%s), samplers %s\n",
           json_string_value(json_object_get(o, "api")),
           json_string_value(json_object_get(o, json_object_get(o, "server") ? "server" : "log")),
           num(o, "requests"), num(o, "tokens"), json_string_value(json_object_get(o, "session")),
           json_string_value(json_object_get(o, "release_from")), json_string_value(json_object_get(o, "samplers")));
    json_t *rd = json_object_get(o, "route_defaults");
    if (json_array_size(rd))
        printf("  unset, the route's: %s%s 1.0 (%s)\n", json_string_value(json_array_get(rd, 0)),
               json_array_size(rd) > 1 ? " and top_p" : "",
               json_string_value(json_object_get(o, "route_defaults_why")));
    printf("seed honoured: %s (%ld of %ld repeats drew the same tokens; other seeds drew other tokens: %s)\n",
           tri(json_object_get(o, "seed_honoured")), num(seed, "repeats_equal"), num(seed, "repeats"),
           tri(json_object_get(seed, "other_seeds_differ")));
    json_t *fu = json_object_get(seed, "first_unequal");
    if (json_is_object(fu))
        printf("  request %ld (a repeat of %ld) first drew another token at step %ld\n", num(fu, "request"),
               num(fu, "same_as"), num(fu, "step"));
    json_t *outs = json_object_get(o, "outside_kept");
    printf("settings honoured: %s (%zu outside the claimed kept set)\n", tri(json_object_get(o, "settings_honoured")),
           json_array_size(outs));
    for (size_t i = 0; i < json_array_size(outs) && i < 10; i++) {
        json_t *e = json_array_get(outs, i);
        const char *stage = json_string_value(json_object_get(e, "stage"));
        if (json_is_null(json_object_get(e, "token")))
            printf("  request %ld, step %ld: the post-sampling probabilities are not the claimed temperature's\n",
                   num(e, "request"), num(e, "step"));
        else if (stage && !strcmp(stage, "penalties"))
            printf("  request %ld, step %ld: token %ld is penalised by the claim, and its probability did not move\n",
                   num(e, "request"), num(e, "step"), num(e, "token"));
        else
            printf("  request %ld, step %ld: token %ld (%s should have removed it)\n", num(e, "request"),
                   num(e, "step"), num(e, "token"), json_string_value(json_object_get(e, "stage")));
    }
    if (json_array_size(outs) > 10)
        printf("  ... %zu in all\n", json_array_size(outs));
    json_t *ps = json_object_get(o, "post_sampling");
    if (json_is_object(ps)) {
        json_t *tf = json_object_get(ps, "temperature_furthest");
        printf("post-sampling probabilities: %ld steps beside their raw twins; temperature off at %ld of %ld",
               num(ps, "steps"), num(ps, "temperature_off"), num(ps, "temperature_fits"));
        if (json_is_number(tf))
            printf(" (furthest %.6g)", json_number_value(tf));
        if (json_object_get(ps, "penalised_moved"))
            printf("; penalised tokens moved %ld, unmoved %ld", num(ps, "penalised_moved"),
                   num(ps, "penalised_unmoved"));
        printf("\n");
    }
    json_t *d = json_object_get(o, "distribution");
    if (json_is_object(d)) {
        printf("distribution (%s, %ld steps): log-likelihood p = %.6g, randomised PIT KS p = %.6g; p_value = %.6g\n",
               json_string_value(json_object_get(d, "basis")), num(d, "steps"),
               json_number_value(json_object_get(d, "loglik_p")), json_number_value(json_object_get(d, "pit_ks_p")),
               json_number_value(json_object_get(o, "p_value")));
        json_t *dt = json_object_get(d, "detects_temperature"), *dp = json_object_get(d, "detects_top_p");
        if (num(d, "trials")) {
            printf("  power (%ld simulated logs a fault size, at alpha %g): ", num(d, "trials"),
                   json_number_value(json_object_get(o, "alpha")));
            if (json_is_number(dt))
                printf("a temperature of %.6g is detected with 90%% power", json_number_value(dt));
            else
                printf("no temperature error up to T x 2 is detected with 90%% power");
            if (json_is_number(dp))
                printf("; a top-p of %.6g too", json_number_value(dp));
            printf("\n");
        }
    } else {
        printf("distribution: not judged (no step whose reported values cover the claimed kept set)\n");
    }
    json_t *p = json_object_get(o, "predicted");
    if (json_is_object(p) && num(p, "requests")) {
        printf("predicted: %ld of %ld steps of %ld seeded requests as %s draws them\n", num(p, "exact"),
               num(p, "steps"), num(p, "requests"), json_string_value(json_object_get(p, "session")));
    } else {
        const char *why = json_string_value(json_object_get(o, "predicted_why"));
        printf("predicted: none (%s)\n", why ? why : "no seeded request replayed");
    }
    if (json_is_object(suf))
        printf("reported values sufficed: %ld of %ld raw steps\n", num(suf, "steps"), num(suf, "of"));
    json_t *cc = json_object_get(o, "concurrent");
    printf("concurrency: %s (%ld of %ld requests sent beside another drew what they drew alone)\n",
           tri(json_object_get(o, "concurrency")), num(cc, "equal"), num(cc, "requests"));
    json_t *cf = json_object_get(cc, "first_unequal"), *rp = json_object_get(cc, "replayed");
    if (json_is_object(cf)) {
        const char *cause = json_string_value(json_object_get(cf, "cause"));
        printf("  request %ld (beside another; alone: request %ld) first drew another token at step %ld", num(cf, "request"),
               num(cf, "same_as"), num(cf, "step"));
        if (cause && !strcmp(cause, "values"))
            printf(": the server's own values had moved beside the other request (up to %.3g, from step %ld): "
                   "its batched kernels computed other logits\n",
                   json_real_value(json_object_get(cf, "values_moved")), num(cf, "values_first_moved"));
        else if (cause && !strcmp(cause, "sampler"))
            printf(": with the same reported values up to there, so the draw itself differed\n");
        else
            printf("\n");
    }
    if (json_is_object(rp))
        printf("  each request beside another, replayed on its own values: %ld of %ld steps predicted\n",
               num(rp, "exact"), num(rp, "steps"));
    if (json_is_string(json_object_get(o, "note")))
        printf("note: %s\n", json_string_value(json_object_get(o, "note")));
    printf("verdict: %s\n", json_string_value(json_object_get(o, "verdict")));
}

int sl_cli_audit_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings set;
    sl_api_src src;
    int st = sl_cli_parse_call("audit", argc, argv, audit_help, &po, &set, &src);
    if (st >= 0)
        return st;
    sl_api_audit_result r;
    sl_error err;
    if (sl_api_audit_run(&set, &r, &err))
        return sl_cli_api_fail(&err);
    int rc;
    if (po.a[SL_API_OPT_JSON].given) {
        rc = sl_cli_emit(sl_api_json_dumps(r.json, JSON_COMPACT | JSON_REAL_PRECISION(17)));
    } else {
        print_text(r.json);
        rc = 0;
    }
    if (!rc)
        rc = r.rejected ? 1 : 0;
    sl_api_audit_result_free(&r);
    return rc;
}
