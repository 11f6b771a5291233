/* test_api_schema.c — the settings schema (src/api/schema.c) is the one list
 * of options, against the binary and the library: each long option text and
 * each key appears once (two entries share a name only where one option is a
 * flag of one command and a FILE of another, and calibrate's --seeds K beside
 * the per-row --seeds LIST); sl_api_settings_set parses a
 * value as the command line does, with its message word for word, and lands
 * it in the field the command line fills; a setting the real library has and
 * samplab does not model is refused by name (never "unknown option", never
 * ignored), exit 2, in every command that takes sampling settings, by the
 * Python package's path (sl_api_settings_set) and in a sweep spec; the schema's
 * JSON names every key. */
#include <criterion/criterion.h>
#include <jansson.h>

#include "cli/sl_cli.h"
#include "helpers.h"

static int n_options(void)
{
    int n = 1;
    while (sl_api_options[n].name)
        n++;
    return n;
}

Test(api_schema, names_and_keys_are_listed_once)
{
    int n = n_options(), shared = 0, unmodelled = 0;
    /* transformers' 21 processors and decoders (no_repeat_ngram_size is modelled, for transformers.js), vLLM's
     * 3 parameters, the logit bias, what samplab 0.1 had */
    cr_assert_gt(n, SL_API_OPT_COUNT + 24, "the not-modelled settings follow the modelled ones (%d entries)", n);
    for (int i = 1; i < n; i++) {
        const sl_api_option *o = &sl_api_options[i];
        cr_assert(!strncmp(o->name, "--", 2) && o->key && *o->key, "entry %d: '%s' key '%s'", i, o->name, o->key);
        unmodelled += o->kind == SL_API_UNMODELLED;
        cr_assert_eq(o->kind == SL_API_UNMODELLED || o->kind == SL_API_GONE, i >= SL_API_OPT_COUNT,
                     "%s: the refused entries come last", o->name);
        for (int j = i + 1; j < n; j++) {
            cr_assert_str_neq(o->key, sl_api_options[j].key, "key %s twice", o->key);
            if (!strcmp(o->name, sl_api_options[j].name)) {
                /* draw's --counts flag and gof's --counts FILE; exact's --tokens flag and check's --tokens FILE;
                 * calibrate's --seeds K (a count) and draw's, replay's and check's --seeds LIST (one per row) */
                int seeds = i == SL_API_OPT_SEEDS && j == SL_API_OPT_ROW_SEEDS;
                cr_assert(seeds || (o->kind == SL_API_FLAG) != (sl_api_options[j].kind == SL_API_FLAG),
                          "%s twice, not as a flag and a value", o->name);
                shared++;
            }
        }
    }
    cr_assert_eq(shared, 3, "%d names shared", shared);
    cr_assert_gt(unmodelled, 20);
    cr_assert_eq(sl_api_option_keyed("top_k"), &sl_api_options[SL_API_OPT_TOP_K]);
    cr_assert_eq(sl_api_option_named("--counts"), &sl_api_options[SL_API_OPT_COUNTS], "the first of a name");
    cr_assert_null(sl_api_option_keyed("top-k"));
}

/* Every numeric option read through sl_api_settings_set refuses what the
 * command line refuses, with the line the command prints. */
Test(api_schema, set_parses_as_the_command_line)
{
    static const char *const bad[] = {"abc", "", "-1", "1e400"};
    size_t checked = 0;
    for (const sl_api_cmd *c = sl_api_cmds; c->name; c++)
        for (int o = 1; o < SL_API_OPT_COUNT; o++) {
            const sl_api_option *d = &sl_api_options[o];
            if (!sl_api_cmd_takes(c, (sl_api_opt)o) || !d->at.val || d->kind == SL_API_STRING ||
                d->kind == SL_API_LIST || d->kind == SL_API_FLAG || sl_api_option_keyed(d->key) != d)
                continue;
            for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
                char args[256];
                snprintf(args, sizeof args, "%s %s '%s'", c->name, d->name, bad[b]);
                sl_test_run r = sl_test_cli(args);
                sl_api_settings *s = sl_api_settings_new(c->name);
                sl_error err;
                int rc = sl_api_settings_set(s, d->key, bad[b], &err);
                char line[sizeof err.msg + 1];
                snprintf(line, sizeof line, "%s\n", err.msg);
                if (!strcmp(bad[b], "-1") && (d->kind == SL_API_LONG || d->kind == SL_API_DOUBLE)) {
                    cr_assert_eq(rc, SL_OK, "%s %s -1: %s", c->name, d->key, err.msg);
                } else {
                    cr_assert_eq(rc, SL_EINVAL, "%s %s '%s' set", c->name, d->key, bad[b]);
                    cr_assert_eq(r.status, 2, "%s: exit %d", args, r.status);
                    cr_assert_str_eq(line, r.err, "%s: the call says '%s', the command '%s'", args, err.msg, r.err);
                }
                sl_test_run_free(&r);
                sl_api_settings_free(s);
                checked++;
            }
        }
    cr_assert_gt(checked, 100, "%zu checks", checked);
}

/* What set lands is what the command line's settings hold for the same words. */
Test(api_schema, set_lands_where_the_command_line_does)
{
    static const char *const words[][2] = {
        {"temperature", "0.7"}, {"top_k", "5"},     {"top_p", "0.9"},       {"min_p", "0.05"},
        {"typical", "0.5"},     {"min_keep", "2"},  {"penalty_last_n", "8"}, {"repetition_penalty", "1.3"},
        {"seed", "0x2a"},       {"n", "7"},         {"framework", "hf"},    {"context", "1,2"},
        {"torch", "1.13"},  {"cpu", "avx2"},
    };
    char *argv[64] = {"draw"};
    int argc = 1;
    sl_api_settings *s = sl_api_settings_new("draw");
    sl_error err;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        cr_assert_eq(sl_api_settings_set(s, words[i][0], words[i][1], &err), SL_OK, "%s: %s", words[i][0], err.msg);
        argv[argc++] = (char *)sl_api_option_keyed(words[i][0])->name;
        if (words[i][1])
            argv[argc++] = (char *)words[i][1];
    }
    sl_cli_parsed p;
    cr_assert_eq(sl_cli_parse("draw", argc, argv, NULL, &p), -1);
    sl_api_settings c;
    sl_cli_settings_from(&p, &c);
    cr_assert_eq(s->cfg.has_temperature, 1);
    cr_assert_eq(s->cfg.temperature, c.cfg.temperature);
    cr_assert_eq(s->cfg.top_k, 5);
    cr_assert_eq(c.cfg.top_k, 5);
    cr_assert_eq(s->cfg.top_p, c.cfg.top_p);
    cr_assert_eq(s->cfg.has_last_n, c.cfg.has_last_n);
    cr_assert_eq(s->cfg.last_n, 8);
    cr_assert_eq(s->cfg.penalty, 1.3);
    cr_assert_eq(s->has_n, 1);
    cr_assert_eq(s->n, c.n);
    cr_assert_str_eq(s->seed, c.seed);
    cr_assert_str_eq(s->framework, "hf");
    cr_assert_str_eq(s->context, c.context);
    cr_assert_str_eq(s->torch, c.torch);
    cr_assert_str_eq(s->cpu, c.cpu);
    sl_api_settings *g = sl_api_settings_new("gof");
    cr_assert_eq(sl_api_settings_set(g, "alpha", "0.05", &err), SL_OK, "%s", err.msg);
    cr_assert_eq(g->has_alpha, 1);
    cr_assert_eq(g->alpha, 0.05);
    cr_assert_str_eq(g->alpha_text, "0.05", "gof quotes --alpha as typed");
    sl_api_settings_free(g);
    /* the texts are copies: the caller's buffer may go */
    char buf[8] = "pcg32";
    cr_assert_eq(sl_api_settings_set(s, "rng", buf, &err), SL_OK);
    buf[0] = 'x';
    cr_assert_str_eq(s->rng, "pcg32");
    sl_api_settings_free(s);
}

Test(api_schema, set_refuses_unknown_and_command_line_only_keys)
{
    sl_api_settings *s = sl_api_settings_new("draw");
    sl_error err;
    cr_assert_eq(sl_api_settings_set(s, "top_kk", "3", &err), SL_EINVAL);
    cr_assert_str_eq(err.msg, "samplab draw: unknown option '--top-kk' (samplab draw --help)");
    cr_assert_eq(sl_api_settings_set(s, "json", NULL, &err), SL_EINVAL);
    cr_assert_str_eq(err.msg, "samplab draw: unknown option '--json' (samplab draw --help)");
    cr_assert_eq(sl_api_settings_set(s, "epsilon_cutoff", "0.1", &err), SL_EINVAL);
    cr_assert_str_eq(err.msg,
                     "samplab draw: --epsilon-cutoff: transformers' EpsilonLogitsWarper is not modelled by samplab");
    cr_assert_eq(sl_api_option_check("pipeline", "row", "-2", &err), SL_EINVAL);
    cr_assert_str_eq(err.msg, "samplab pipeline: --row takes a non-negative integer");
    sl_api_settings_free(s);
}

/* An option a command does not take (gof's --alpha on draw): the call refuses
 * it with the command line's very line, for every command and option, so a
 * binding's keyword of another command is never taken and then ignored. */
Test(api_schema, set_refuses_what_the_command_does_not_take)
{
    size_t refused = 0;
    for (const sl_api_cmd *c = sl_api_cmds; c->name; c++)
        for (int o = 1; o < SL_API_OPT_COUNT; o++) {
            const sl_api_option *d = &sl_api_options[o];
            if (sl_api_cmd_takes(c, (sl_api_opt)o) || sl_api_option_keyed(d->key) != d ||
                sl_api_option_named(d->name) != d)
                continue;
            /* a name two entries share (--counts: draw's flag, gof's file) is the command's own */
            int other = 0;
            for (int k = 1; k < SL_API_OPT_COUNT; k++)
                other |= k != o && !strcmp(sl_api_options[k].name, d->name) && sl_api_cmd_takes(c, (sl_api_opt)k);
            if (other)
                continue;
            const char *text = d->kind == SL_API_FLAG ? NULL : "1";
            char args[256];
            snprintf(args, sizeof args, "%s %s%s%s", c->name, d->name, text ? " " : "", text ? text : "");
            sl_test_run r = sl_test_cli(args);
            sl_api_settings *s = sl_api_settings_new(c->name);
            sl_error err;
            cr_assert_eq(sl_api_settings_set(s, d->key, text, &err), SL_EINVAL, "%s: set", args);
            char line[sizeof err.msg + 1];
            snprintf(line, sizeof line, "%s\n", err.msg);
            cr_assert_eq(r.status, 2, "%s: exit %d", args, r.status);
            cr_assert_str_eq(line, r.err, "%s: the call says '%s', the command '%s'", args, err.msg, r.err);
            cr_assert(strstr(err.msg, " is not an option of "), "%s: %s", args, err.msg);
            sl_test_run_free(&r);
            sl_api_settings_free(s);
            refused++;
        }
    cr_assert_gt(refused, 200, "%zu refusals", refused);
}

/* Each not-modelled setting: refused by name, with its library's name for it,
 * by every command that takes sampling settings; another command says it is
 * not one of its options. Never "unknown option". So is samplab 0.1's
 * --defaults, with why it is gone. */
Test(api_schema, not_modelled_settings_refused_by_name_everywhere)
{
    size_t refused = 0;
    for (int o = SL_API_OPT_COUNT; sl_api_options[o].name; o++) {
        const sl_api_option *d = &sl_api_options[o];
        char line[1024];
        sl_api_option_refusal(d, line, sizeof line);
        if (d->kind == SL_API_GONE)
            cr_assert(!strcmp(d->name, "--defaults") &&
                          strstr(line, "--defaults: refused: each framework's own defaults now always "
                                       "apply") == line,
                      "%s", line);
        else
            cr_assert(strstr(line, " not modelled by samplab") && (d->hf || d->vllm || d->llamacpp), "%s: %s",
                      d->name, line);
        if (d->hf)
            cr_assert(strstr(line, "transformers' ") && strstr(line, d->hf), "%s", line);
        if (d->llamacpp)
            cr_assert(strstr(line, "llama.cpp's ") && strstr(line, d->llamacpp), "%s", line);
        for (const sl_api_cmd *c = sl_api_cmds; c->name; c++) {
            char args[256], want[1200];
            snprintf(args, sizeof args, "%s %s 1", c->name, d->name);
            if (sl_api_cmd_takes(c, (sl_api_opt)o)) {
                snprintf(want, sizeof want, "samplab %s: %s\n", c->name, line);
                refused++;
            } else {
                snprintf(want, sizeof want, "samplab %s: %s is not an option of %s (samplab %s --help)\n", c->name,
                         d->name, c->name, c->name);
            }
            sl_test_run r = sl_test_cli(args);
            cr_assert_eq(r.status, 2, "%s: exit %d", args, r.status);
            cr_assert_str_empty(r.out, "%s: %s", args, r.out);
            cr_assert_str_eq(r.err, want, "%s", args);
            sl_test_run_free(&r);
        }
        sl_api_settings *s = sl_api_settings_new("replay");
        sl_error err;
        cr_assert_eq(sl_api_settings_set(s, d->key, "1", &err), SL_EINVAL, "%s set", d->key);
        cr_assert(strstr(err.msg, line), "%s: '%s'", d->key, err.msg);
        sl_api_settings_free(s);
    }
    /* draw, pipeline, compare, bench, replay, check and audit take sampling settings */
    cr_assert_eq(refused, 7 * (size_t)(n_options() - SL_API_OPT_COUNT), "%zu refusals", refused);
    sl_test_expect_refused("draw --framework hf --logits 1,2 --dry-multiplier 0.8",
                           "samplab draw: --dry-multiplier is not an option of framework hf");
    sl_test_expect_refused("pipeline --framework vllm --logits 1,2 --logit-bias 1+1",
                           "samplab pipeline: --logit-bias: vLLM's SamplingParams.logit_bias is not modelled by "
                           "samplab for framework vllm");
    sl_test_expect_refused("pipeline --framework llamacpp --logits 1,2 --logit-bias 1",
                           "samplab pipeline: --logit-bias takes TOKEN+BIAS or TOKEN-BIAS (15043+1, 15043-inf), not '1'");
}

Test(api_schema, schema_json_names_every_key)
{
    char *s = sl_api_schema_json();
    cr_assert_not_null(s);
    json_error_t je;
    json_t *root = json_loads(s, 0, &je);
    cr_assert_not_null(root, "%s", je.text);
    size_t aliases = 0;
    while (sl_api_aliases[aliases].name)
        aliases++;
    cr_assert_eq(json_object_size(root), (size_t)n_options() - 1 + aliases);
    json_t *rp = json_object_get(root, "repeat_penalty"); /* llama.cpp's spelling, named as such */
    cr_assert_str_eq(json_string_value(json_object_get(rp, "option")), "--repeat-penalty");
    cr_assert_str_eq(json_string_value(json_object_get(rp, "alias_of")), "repetition_penalty");
    cr_assert_str_eq(json_string_value(json_object_get(rp, "kind")), "double");
    json_t *k = json_object_get(root, "top_k");
    cr_assert_str_eq(json_string_value(json_object_get(k, "option")), "--top-k");
    cr_assert_str_eq(json_string_value(json_object_get(k, "kind")), "long");
    cr_assert(json_is_true(json_object_get(k, "settings")));
    json_t *e = json_object_get(root, "eta_cutoff");
    cr_assert_str_eq(json_string_value(json_object_get(e, "kind")), "not_modelled");
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(e, "upstream"), "transformers")),
                     "EtaLogitsWarper");
    cr_assert(json_is_false(json_object_get(json_object_get(root, "json"), "settings")));
    json_decref(root);
    sl_api_free(s);
}

/* llama.cpp's spellings (--temp, --repeat-penalty, --repeat-last-n) set samplab's
 * settings: the same output as samplab's names, from the command line and by key;
 * both spellings at once are the same option given twice. */
Test(api_schema, llamacpp_spellings_are_the_same_settings)
{
    sl_test_run a = sl_test_cli("pipeline --framework llamacpp --logits 3,2,1,0 --context 0,0,1 --temp 0.7 "
                                "--repeat-penalty 1.5 --repeat-last-n 2 --json");
    sl_test_run b = sl_test_cli("pipeline --framework llamacpp --logits 3,2,1,0 --context 0,0,1 --temperature 0.7 "
                                "--repetition-penalty 1.5 --penalty-last-n 2 --json");
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_str_eq(a.out, b.out);
    cr_assert(strstr(a.out, "\"repetition_penalty\":1.5") && strstr(a.out, "\"penalty_last_n\":2"), "%s", a.out);
    sl_test_run_free(&a);
    sl_test_run_free(&b);
    sl_test_expect_refused("pipeline --framework llamacpp --logits 3,2,1,0 --temp 0.7 --temperature 0.8",
                           "samplab pipeline: --temperature given twice");
    for (const sl_api_alias *x = sl_api_aliases; x->name; x++) {
        cr_assert_eq(sl_api_option_named(x->name), &sl_api_options[x->opt], "%s", x->name);
        cr_assert_eq(sl_api_option_keyed(x->key), &sl_api_options[x->opt], "%s", x->key);
        cr_assert_null(sl_api_option_named(x->name + 1), "%s without a dash", x->name);
    }
    sl_api_settings *s = sl_api_settings_new("draw");
    sl_error err;
    cr_assert_eq(sl_api_settings_set(s, "repeat_penalty", "1.25", &err), SL_OK, "%s", err.msg);
    cr_assert(s->cfg.has_penalty && s->cfg.penalty == 1.25);
    sl_api_settings_free(s);
}
