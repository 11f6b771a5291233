/* test_cli_options.c — the settings schema (src/api/schema.c) as the command
 * line takes it (src/cli/options.c: which command takes what) against the
 * binary: every subcommand refuses a repeated option, an unknown one and one
 * it does not take, each by name; --help lists exactly the options the table
 * gives the subcommand and each of them is accepted; a framework, a pipeline
 * or a method refuses an option it lacks naming both; values shown in a
 * message are escaped, so it stays one printable line; the option the library
 * names when it refuses one (sl_api_refused) is the one the schema gives,
 * for every pair of options. Each refusal: exit 2, nothing on stdout, one line on
 * stderr. */
#include <criterion/criterion.h>
#include <ctype.h>

#include "cli/sl_cli.h"
#include "helpers.h"

/* A well-formed value for an option of this kind ("" for a flag). */
static const char *sample_value(sl_api_opt o)
{
    if (o == SL_API_OPT_LOGIT_BIAS) /* the one list read as numbers */
        return " 1+1";
    switch (sl_api_options[o].kind) {
    case SL_API_FLAG: return "";
    case SL_API_SIZE:
    case SL_API_LONG:
    case SL_API_INDEX: return " 3";
    case SL_API_DOUBLE: return " 0.5";
    default: return " x";
    }
}

Test(cli_options, repeated_option_refused_everywhere)
{
    size_t checked = 0;
    for (const sl_api_cmd *s = sl_api_cmds; s->name; s++)
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            if (!sl_api_cmd_takes(s, (sl_api_opt)o) || sl_api_options[o].kind == SL_API_LIST) /* repeatable */
                continue;
            /* replay and check take a batch's rows as one --logits (or --probs) each (test_cli_batch.c) */
            if ((o == SL_API_OPT_LOGITS || o == SL_API_OPT_PROBS) && (!strcmp(s->name, "replay") || !strcmp(s->name, "check")))
                continue;
            const char *name = sl_api_options[o].name, *v = sample_value((sl_api_opt)o);
            char args[256], want[128];
            snprintf(args, sizeof args, "%s %s%s %s%s", s->name, name, v, name, v);
            snprintf(want, sizeof want, "samplab %s: %s given twice", s->name, name);
            sl_test_expect_refused(args, want);
            checked++;
        }
    cr_assert_gt(checked, 80, "only %zu options in the table", checked);
}

/* A repeatable option (llama.cpp's --dry-sequence-breaker) takes up to SL_API_LIST_MAX uses, in order. */
Test(cli_options, repeatable_option_up_to_its_limit)
{
    char args[2048];
    size_t k = (size_t)snprintf(args, sizeof args, "pipeline --framework llamacpp --logits 3,2,1 --dry-multiplier 0.5 "
                                                   "--dry-sequence-breaker a --dry-sequence-breaker none");
    sl_test_run r = sl_test_cli(args); /* "none" clears the breakers before it: no vocabulary needed */
    cr_expect_eq(r.status, 0, "%s: %s", args, r.err);
    sl_test_run_free(&r);
    for (int i = 0; i < SL_API_LIST_MAX - 2; i++)
        k += (size_t)snprintf(args + k, sizeof args - k, " --dry-sequence-breaker x");
    sl_test_expect_refused(args, "give --vocab FILE.gguf"); /* 32 uses: taken, and "x" needs the vocabulary */
    snprintf(args + k, sizeof args - k, " --dry-sequence-breaker y");
    sl_test_expect_refused(args, "samplab pipeline: --dry-sequence-breaker given more than 32 times");
    sl_api_settings *s = sl_api_settings_new("pipeline");
    sl_error err;
    for (int i = 0; i < SL_API_LIST_MAX; i++)
        cr_assert_eq(sl_api_settings_set(s, "dry_sequence_breaker", "x", &err), SL_OK, "%s", err.msg);
    cr_expect_eq(sl_api_settings_set(s, "dry_sequence_breaker", "y", &err), SL_EINVAL);
    cr_expect_str_eq(err.msg, "samplab pipeline: --dry-sequence-breaker given more than 32 times");
    sl_api_settings_free(s);
}

Test(cli_options, unknown_option_named)
{
    for (const sl_api_cmd *s = sl_api_cmds; s->name; s++) {
        char args[128], want[128];
        snprintf(args, sizeof args, "%s --no-such-option", s->name);
        snprintf(want, sizeof want, "samplab %s: unknown option '--no-such-option'", s->name);
        sl_test_expect_refused(args, want);
        /* a word that is no option at all */
        snprintf(args, sizeof args, "%s stray", s->name);
        snprintf(want, sizeof want, "samplab %s: unknown option 'stray'", s->name);
        sl_test_expect_refused(args, want);
    }
}

/* An option of the table that a subcommand does not take is refused by name. */
Test(cli_options, option_of_another_subcommand_named)
{
    sl_test_expect_refused("rng --top-k 3", "samplab rng: --top-k is not an option of rng");
    for (const sl_api_cmd *s = sl_api_cmds; s->name; s++)
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            const char *name = sl_api_options[o].name;
            int taken = 0;
            for (int q = SL_API_OPT_NONE + 1; q < SL_API_OPT_COUNT; q++)
                taken |= !strcmp(sl_api_options[q].name, name) && sl_api_cmd_takes(s, (sl_api_opt)q);
            if (taken)
                continue;
            char args[256], want[160];
            snprintf(args, sizeof args, "%s %s%s", s->name, name, sample_value((sl_api_opt)o));
            snprintf(want, sizeof want, "samplab %s: %s is not an option of %s", s->name, name, s->name);
            sl_test_expect_refused(args, want);
        }
}

Test(cli_options, missing_value_named)
{
    for (const sl_api_cmd *s = sl_api_cmds; s->name; s++)
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            if (!sl_api_cmd_takes(s, (sl_api_opt)o) || sl_api_options[o].kind == SL_API_FLAG)
                continue;
            char args[256], want[160];
            snprintf(args, sizeof args, "%s %s", s->name, sl_api_options[o].name);
            snprintf(want, sizeof want, "samplab %s: %s needs a value", s->name, sl_api_options[o].name);
            sl_test_expect_refused(args, want);
            snprintf(args, sizeof args, "%s %s --json", s->name, sl_api_options[o].name);
            snprintf(want, sizeof want, "%s needs a value, not the option '--json'", sl_api_options[o].name);
            sl_test_expect_refused(args, want);
        }
    sl_test_expect_refused("bench --logits", "samplab bench: --logits needs a value");
}

Test(cli_options, malformed_numbers_name_option_and_value)
{
    for (const sl_api_cmd *s = sl_api_cmds; s->name; s++)
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            sl_api_kind k = sl_api_options[o].kind;
            if (!sl_api_cmd_takes(s, (sl_api_opt)o) || (k != SL_API_SIZE && k != SL_API_LONG && k != SL_API_INDEX &&
                                                    k != SL_API_DOUBLE))
                continue;
            char args[256], want[160];
            snprintf(args, sizeof args, "%s %s 12x", s->name, sl_api_options[o].name);
            snprintf(want, sizeof want, "samplab %s: %s takes ", s->name, sl_api_options[o].name);
            sl_test_expect_refused(args, want);
            sl_test_expect_refused(args, ", not '12x'");
        }
    sl_test_expect_refused("draw --probs 1,2 --method cdf --row -1", "--row takes a non-negative integer");
    sl_test_expect_refused("power --probs 1,2 --n 1e3", "--n takes a non-negative integer, not '1e3'");
}

/* Does `text` mention option `name` as a whole word? */
static int mentions(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        char after = p[n];
        if (!(isalnum((unsigned char)after) || after == '-'))
            return 1;
    }
    return 0;
}

/* --help of each subcommand lists every option the table gives it, and names no
 * option it would refuse; each option it lists is accepted. */
Test(cli_options, help_matches_the_table)
{
    for (const sl_api_cmd *s = sl_api_cmds; s->name; s++) {
        char args[256];
        snprintf(args, sizeof args, "%s --help", s->name);
        sl_test_run h = sl_test_cli(args);
        cr_assert_eq(h.status, 0, "%s: exit %d", args, h.status);
        cr_assert_str_empty(h.err, "%s: %s", args, h.err);
        /* a table entry left empty is named, not printed through %s as glibc's "(null)" */
        cr_expect(!strstr(h.out, "(null)"), "%s prints (null)", args);
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            if (!sl_api_cmd_takes(s, (sl_api_opt)o))
                continue;
            const char *name = sl_api_options[o].name;
            cr_expect(mentions(h.out, name), "%s does not list %s", args, name);
            /* accepted: parsing goes past it and stops at the next word */
            snprintf(args, sizeof args, "%s %s%s --zz-after", s->name, name, sample_value((sl_api_opt)o));
            sl_test_expect_refused(args, "unknown option '--zz-after'");
        }
        /* every --word the help names is an option of this subcommand */
        for (const char *p = strstr(h.out, "--"); p; p = strstr(p + 2, "--")) {
            if (p > h.out && (isalnum((unsigned char)p[-1]) || p[-1] == '-'))
                continue;
            char word[64];
            size_t n = 0;
            while (n + 1 < sizeof word && (isalnum((unsigned char)p[n]) || p[n] == '-'))
                word[n] = p[n], n++;
            word[n] = '\0';
            if (n <= 2 || !strcmp(word, "--help"))
                continue;
            int known = 0;
            for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++)
                known |= !strcmp(sl_api_options[o].name, word) && sl_api_cmd_takes(s, (sl_api_opt)o);
            /* a word after another subcommand ("samplab draw --counts") or a script
             * ("torch_golden.py --fingerprint") is that one's option */
            const char *b = p - 1;
            while (b > h.out && b[-1] != ' ' && b[-1] != '\n')
                b--;
            char prev[64];
            size_t pn = (size_t)(p - 1 - b) < sizeof prev - 1 ? (size_t)(p - 1 - b) : sizeof prev - 1;
            memcpy(prev, b, pn);
            prev[pn] = '\0';
            int other = p > h.out + 1 && p[-1] == ' ' &&
                        ((sl_api_cmd_lookup(prev) && strcmp(prev, s->name)) ||
                         (pn > 3 && !strcmp(prev + pn - 3, ".py")));
            cr_expect(known || other, "%s --help names %s, which it does not take", s->name, word);
        }
        sl_test_run_free(&h);
    }
}

/* A framework of draw, a pipeline of pipeline and compare, and a method of draw
 * refuse an option they lack, naming the option and themselves. */
Test(cli_options, framework_and_method_refusals_name_both)
{
    const unsigned draw_groups = SL_API_G_SOURCE | SL_API_G_SAMPLING | SL_API_G_FRAMEWORK;
    size_t checked = 0;
    for (size_t i = 0; sl_fw_types[i]; i++) {
        const sl_fw_type *ft = sl_fw_types[i];
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            const sl_api_option *d = &sl_api_options[o];
            if (!d->bit || !(d->group & draw_groups) || (d->bit & ft->accepts))
                continue;
            const char *src = "";
            if (o != SL_API_OPT_PROBS && o != SL_API_OPT_LOGITS)
                src = ft->accepts & SL_OPT_LOGITS ? " --logits 1,2" : " --probs 1,2";
            char args[256], want[640];
            snprintf(args, sizeof args, "draw --framework %s%s %s%s%s", ft->name, src, d->name,
                     o == SL_API_OPT_PROBS || o == SL_API_OPT_LOGITS ? " 1,2" : "", o == SL_API_OPT_PROBS || o == SL_API_OPT_LOGITS ? "" : sample_value((sl_api_opt)o));
            char why[512]; /* "not an option", or its library's name for it: the explicit cases are in api_schema */
            snprintf(want, sizeof want, "samplab draw: %s", sl_api_not_taken(d->name, ft->name, why, sizeof why));
            sl_test_expect_refused(args, want);
            checked++;
        }
        char args[128], want[128];
        snprintf(args, sizeof args, "draw --framework %s --probs 1,2 --rng pcg32", ft->name);
        snprintf(want, sizeof want, "samplab draw: --rng is not an option of framework %s", ft->name);
        if (ft->accepts & SL_OPT_PROBS)
            sl_test_expect_refused(args, want);
    }
    for (size_t i = 0; sl_logits_pipeline_types[i]; i++) {
        const sl_logits_pipeline_type *t = sl_logits_pipeline_types[i];
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            const sl_api_option *d = &sl_api_options[o];
            if (!d->bit || !(d->group & (SL_API_G_SAMPLING | SL_API_G_LLAMA_PENALTY)) || (d->bit & t->accepts))
                continue;
            char args[256], want[640], why[512];
            snprintf(args, sizeof args, "pipeline --framework %s --logits 1,2 %s%s", t->name, d->name,
                     sample_value((sl_api_opt)o));
            snprintf(want, sizeof want, "samplab pipeline: %s", sl_api_not_taken(d->name, t->name, why, sizeof why));
            sl_test_expect_refused(args, want);
            snprintf(args, sizeof args, "compare --frameworks hf,%s --logits 1,2 %s%s", t->name, d->name,
                     sample_value((sl_api_opt)o));
            snprintf(want, sizeof want, "samplab compare: %s", d->name);
            sl_test_expect_refused(args, want);
            checked++;
        }
    }
    cr_assert_gt(checked, 20, "only %zu refusals checked", checked);
    for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
        const sl_api_option *d = &sl_api_options[o];
        if (!d->bit || !(d->group & (SL_API_G_SAMPLING | SL_API_G_FRAMEWORK)) || o == SL_API_OPT_TEMPERATURE)
            continue;
        char args[256], want[160];
        snprintf(args, sizeof args, "draw --probs 1,2 --method alias %s%s", d->name, sample_value((sl_api_opt)o));
        snprintf(want, sizeof want, "samplab draw: %s is not an option of method alias: it needs --framework",
                 d->name);
        sl_test_expect_refused(args, want);
    }
}

/* A newline, a terminal escape or a control byte in a value is shown as \xNN. */
Test(cli_options, values_in_messages_are_escaped)
{
    sl_test_expect_refused("draw --probs 1,2 --method \"$(printf 'a\\nb\\033[31mc')\"",
                   "unknown method 'a\\x0ab\\x1b[31mc'");
    sl_test_expect_refused("draw \"$(printf -- '--x\\ny')\"", "unknown option '--x\\x0ay'");
    sl_test_expect_refused("draw --probs 1,2 --method cdf --n \"$(printf '5\\001')\"",
                   "--n takes a non-negative integer, not '5\\x01'");
    sl_test_expect_refused("gof --probs 1,2 --method cdf --n 10 --alpha \"$(printf '0.5\\r')\"",
                   "--alpha takes a number, not '0.5\\x0d'");
    sl_test_expect_refused("draw --probs 1,2 --framework \"$(printf 'to\\033rch')\"", "unknown framework 'to\\x1brch'");
    sl_test_expect_refused("rng --rng \"$(printf 'pcg\\n32')\"", "unknown random source 'pcg\\x0a32'");
    /* a library message quoting the user's bytes (here a file name) too */
    sl_test_expect_refused("draw --probs \"$(printf 'no\\033such')\" --method cdf", "no\\x1bsuch");
    /* bytes from 0x7f on (C1 controls, a BOM) as well */
    sl_test_expect_refused("draw --probs 1,2 --method \"$(printf '\\357\\273\\277cdf')\"", "unknown method '\\xef\\xbb\\xbfcdf'");
}

/* The library names a refused option from its own list (api/settings.c); the
 * command line fills the settings from argv (sl_cli_settings_from). Every
 * option carrying an SL_OPT_* bit, parsed alone and before each later one,
 * must be the one the library names: its list is the table's, in its order. */
Test(cli_options, api_refusal_follows_the_table)
{
    size_t checked = 0;
    for (int a = SL_API_OPT_NONE + 1; a < SL_API_OPT_COUNT; a++) {
        if (!sl_api_options[a].bit || a == SL_API_OPT_PROBS || a == SL_API_OPT_LOGITS)
            continue;
        for (int b = a; b < SL_API_OPT_COUNT; b++) {
            if (!sl_api_options[b].bit || b == SL_API_OPT_PROBS || b == SL_API_OPT_LOGITS)
                continue;
            const char *v[] = {"draw", "--logits", "1,2", sl_api_options[a].name, a == SL_API_OPT_LOGIT_BIAS ? "1+3" : "3",
                               sl_api_options[b].name, b == SL_API_OPT_LOGIT_BIAS ? "1+3" : "3"};
            char *argv[7];
            int argc = 0;
            for (int i = 0; i < 7; i++) {
                if ((i == 4 && sl_api_options[a].kind == SL_API_FLAG) || (i >= 5 && b == a) ||
                    (i == 6 && sl_api_options[b].kind == SL_API_FLAG))
                    continue;
                argv[argc++] = (char *)v[i];
            }
            sl_cli_parsed po;
            cr_assert_eq(sl_cli_parse("draw", argc, argv, NULL, &po), -1, "%s %s", v[3], v[5]);
            sl_api_settings s;
            sl_cli_settings_from(&po, &s);
            const char *got = sl_api_refused(&s, 1, SL_OPT_LOGITS);
            cr_expect(got && !strcmp(got, sl_api_options[a].name), "%s then %s: the library names %s", v[3], v[5],
                      got ? got : "none");
            checked++;
        }
    }
    cr_expect_gt(checked, 200);
}
