/* options.c — which subcommand takes which options, and the one parser the
 * subcommands share. The options themselves (names, kinds, help, where each
 * lands in sl_api_settings) are the api's schema (api/schema.c). Each
 * subcommand declares (sl_api_cmds) the groups and single options it takes;
 * sl_cli_parse reads argv into an sl_cli_parsed (value, given flag, position)
 * and refuses, with the messages below and nowhere else: an option given
 * twice, one the subcommand does not take, a setting samplab does not model,
 * a missing value, a malformed number (the schema's words). Values shown in a
 * message are escaped so it stays one printable line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"



int sl_cli_value_check(sl_api_opt o, const char *text, char *why, size_t n)
{
    sl_api_value v;
    if (o <= SL_API_OPT_NONE || (int)o >= sl_api_option_count())
        return 0;
    return sl_api_option_read(&sl_api_options[o], text, &v, why, n);
}

/* The schema entry named `word` that `s` takes, else any entry of that name
 * (*taken = 0), else SL_API_OPT_NONE. */
static sl_api_opt find(const sl_api_cmd *s, const char *word, int *taken)
{
    sl_api_opt other = SL_API_OPT_NONE;
    for (int o = SL_API_OPT_NONE + 1; o < sl_api_option_count(); o++) {
        if (strcmp(sl_api_options[o].name, word))
            continue;
        if (sl_api_cmd_takes(s, (sl_api_opt)o)) {
            *taken = 1;
            return (sl_api_opt)o;
        }
        other = (sl_api_opt)o;
    }
    sl_api_opt a = sl_api_alias_of(word, NULL); /* llama.cpp's spelling of one of samplab's */
    if (other == SL_API_OPT_NONE && a != SL_API_OPT_NONE)
        return find(s, sl_api_options[a].name, taken);
    *taken = 0;
    return other;
}

/* One option word w (and its value text, NULL for none) into p, with the
 * command line's checks: 0, or 2 with msg[0..n) the line it prints. */
static int set_word(sl_cli_parsed *p, int pos, const char *w, const char *text, char *msg, size_t n)
{
    const sl_api_cmd *s = p->spec;
    const char *cmd = s->name;
    char e[SL_CLI_ESC_MAX];
    int taken;
    sl_api_opt id = find(s, w, &taken);
    if (id == SL_API_OPT_NONE) {
        snprintf(msg, n, "samplab %s: unknown option '%s' (samplab %s --help)", cmd, sl_cli_esc(w, e, sizeof e), cmd);
        return 2;
    }
    const sl_api_option *o = &sl_api_options[id];
    if (!taken) {
        snprintf(msg, n, "samplab %s: %s is not an option of %s (samplab %s --help)", cmd, o->name, cmd, cmd);
        return 2;
    }
    /* a setting of the real library that samplab does not model: never ignored */
    if (sl_api_option_refusal(o, e, sizeof e)) {
        snprintf(msg, n, "samplab %s: %s", cmd, e);
        return 2;
    }
    sl_cli_arg *a = &p->a[id];
    /* replay and check take a batch's rows as one --logits (or --probs) each */
    int per_row = (id == SL_API_OPT_LOGITS || id == SL_API_OPT_PROBS) && (!strcmp(cmd, "replay") || !strcmp(cmd, "check"));
    if (a->given && o->kind != SL_API_LIST && !per_row) {
        snprintf(msg, n, "samplab %s: %s given twice", cmd, o->name);
        return 2;
    }
    if (a->n_list == SL_API_LIST_MAX) {
        snprintf(msg, n, "samplab %s: %s given more than %d times", cmd, o->name, SL_API_LIST_MAX);
        return 2;
    }
    a->given = 1;
    a->pos = pos;
    if (o->kind == SL_API_FLAG)
        return 0;
    if (!text) {
        snprintf(msg, n, "samplab %s: %s needs a value", cmd, o->name);
        return 2;
    }
    /* "--probs --method cdf" forgot the value: say so, rather than read "--method" as a
     * file name and complain about "cdf". A lone "-" (stdin) or "-1,2" stays a value. */
    if (text[0] == '-' && text[1] == '-' && text[2] != '\0') {
        snprintf(msg, n, "samplab %s: %s needs a value, not the option '%s'", cmd, o->name, sl_cli_esc(text, e, sizeof e));
        return 2;
    }
    a->text = text;
    if (o->kind == SL_API_LIST || per_row)
        a->list[a->n_list++] = text;
    char why[2 * SL_CLI_ESC_MAX];
    sl_api_value v;
    if (sl_api_option_read(o, a->text, &v, why, sizeof why)) {
        snprintf(msg, n, "samplab %s: %s", cmd, why);
        return 2;
    }
    a->size = v.size;
    a->l = v.l;
    a->d = v.d;
    return 0;
}

/* Whether word w is a flag of s (no value word follows it). */
static int is_flag(const sl_api_cmd *s, const char *w)
{
    int taken;
    sl_api_opt id = find(s, w, &taken);
    return id != SL_API_OPT_NONE && taken && sl_api_options[id].kind == SL_API_FLAG;
}

static int parse(const sl_api_cmd *s, int argc, char **argv, sl_cli_parsed *p)
{
    char msg[4 * SL_CLI_ESC_MAX];
    memset(p, 0, sizeof *p);
    p->spec = s;
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if (!strcmp(w, sl_api_help_option) || !strcmp(w, "-h")) {
            p->help = 1;
            return 0;
        }
        int flag = is_flag(s, w);
        const char *text = !flag && i + 1 < argc ? argv[i + 1] : NULL;
        if (set_word(p, i, w, text, msg, sizeof msg))
            return sl_cli_errf("%s\n", msg);
        if (!flag)
            i++;
    }
    return 0;
}

int sl_cli_parsed_init(sl_cli_parsed *p, const char *cmd)
{
    memset(p, 0, sizeof *p);
    p->spec = sl_api_cmd_lookup(cmd);
    return p->spec ? 0 : 2;
}

int sl_cli_parsed_set(sl_cli_parsed *p, const char *word, const char *text, char *msg, size_t n)
{
    int pos = 1;
    for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++)
        pos += p->a[o].given;
    return set_word(p, pos, word, text, msg, n);
}

int sl_cli_parse(const char *cmd, int argc, char **argv, void (*help)(FILE *), sl_cli_parsed *p)
{
    const sl_api_cmd *s = sl_api_cmd_lookup(cmd);
    if (!s || parse(s, argc, argv, p))
        return 2;
    if (p->help) {
        help(stdout);
        return 0;
    }
    return -1;
}

sl_api_opt sl_cli_refused(const sl_cli_parsed *p, unsigned groups, unsigned accepts)
{
    for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
        const sl_api_option *d = &sl_api_options[o];
        if (p->a[o].given && (d->group & groups) && d->bit && !(d->bit & accepts))
            return (sl_api_opt)o;
    }
    return SL_API_OPT_NONE;
}

const char *sl_cli_bit_names(unsigned bit, char *buf, size_t n)
{
    return sl_api_bit_names(bit, buf, n);
}

int sl_cli_not_an_option(const char *cmd, const char *opt, const char *what, const char *name)
{
    char e[SL_CLI_ESC_MAX];
    sl_cli_errf("samplab %s: %s is not an option of %s %s\n", cmd, opt, what, sl_cli_esc(name, e, sizeof e));
    return 2;
}

/* One line per option: "--name ARG" in a 26-column field, the help beside it,
 * continuation lines of the help under it. */
static void help_line(FILE *f, sl_api_opt id, const char *help)
{
    const sl_api_option *o = &sl_api_options[id];
    char head[64];
    snprintf(head, sizeof head, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    if (strlen(head) > 25)
        fprintf(f, "  %s\n  %-25s ", head, "");
    else
        fprintf(f, "  %-25s ", head);
    for (const char *c = help; *c; c++) {
        fputc(*c, f);
        if (*c == '\n')
            fprintf(f, "  %-25s ", "");
    }
    fputc('\n', f);
}

static void help_list(FILE *f, const sl_api_cmd *s, const sl_api_take *list)
{
    for (const sl_api_take *t = list; t && (t->group || t->opt); t++) {
        if (t->opt) {
            if (!sl_api_cmd_group(s, sl_api_options[t->opt].group))
                help_line(f, t->opt, sl_api_option_help(&sl_api_options[t->opt], s->name));
            continue;
        }
        if (sl_api_cmd_group(s, t->group) != t)
            continue;
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            if (sl_api_options[o].group != t->group)
                continue;
            help_line(f, (sl_api_opt)o, sl_api_option_help(&sl_api_options[o], s->name));
        }
    }
}

void sl_cli_help_options(FILE *f, const sl_api_cmd *s, const char *title)
{
    fprintf(f, "%s\n", title);
    help_list(f, s, s->takes);
    help_list(f, s, s->shared);
}

void sl_cli_settings_from(const sl_cli_parsed *p, sl_api_settings *s)
{
    sl_api_settings_init(s);
    for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
        const sl_cli_arg *a = &p->a[o];
        sl_api_value v = {a->size, a->l, a->d};
        for (size_t i = 0; a->given && i < a->n_list; i++) { /* a repeatable option: each use, read again */
            sl_api_option_read(&sl_api_options[o], a->list[i], &v, NULL, 0);
            sl_api_settings_land(s, &sl_api_options[o], a->list[i], &v);
        }
        if (a->given && sl_api_options[o].kind != SL_API_LIST)
            sl_api_settings_land(s, &sl_api_options[o], a->text, &v);
    }
}

int sl_cli_parse_call(const char *cmd, int argc, char **argv, void (*help)(FILE *), sl_cli_parsed *p,
                      sl_api_settings *s, sl_api_src *src)
{
    int st = sl_cli_parse(cmd, argc, argv, help, p);
    if (st < 0) {
        sl_cli_settings_from(p, s);
        *src = sl_cli_src_from(p);
    }
    return st;
}

sl_api_src sl_cli_src_from(const sl_cli_parsed *p)
{
    const sl_cli_arg *v = p->a;
    /* both given is refused by the call as neither is: no source */
    const char *spec = v[SL_API_OPT_PROBS].given && v[SL_API_OPT_LOGITS].given ? NULL
                       : v[SL_API_OPT_PROBS].text                            ? v[SL_API_OPT_PROBS].text
                                                                         : v[SL_API_OPT_LOGITS].text;
    /* name: an inline list's messages name its option */
    const sl_cli_arg *a = v[SL_API_OPT_PROBS].given ? &v[SL_API_OPT_PROBS] : &v[SL_API_OPT_LOGITS];
    if (spec && a->n_list > 1) /* given once per row (replay, check): a batch of [T, V] sources */
        spec = a->list[0];
    sl_api_src src = {spec, v[SL_API_OPT_TENSOR].text, v[SL_API_OPT_ROW].given ? v[SL_API_OPT_ROW].l : -1, NULL, 0,
                      spec && v[SL_API_OPT_PROBS].given ? SL_API_NAME(PROBS) : SL_API_NAME(LOGITS),
                      spec && a->n_list > 1 ? a->list : NULL, spec && a->n_list > 1 ? a->n_list : 0};
    return src;
}
