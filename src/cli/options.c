/* options.c — which subcommand takes which options, and the one parser the
 * subcommands share. The options themselves (names, kinds, help, where each
 * lands in sl_api_settings) are the api's schema (api/schema.c). Each
 * subcommand declares (sl_cli_specs) the groups and single options it takes;
 * sl_cli_parse reads argv into an sl_cli_parsed (value, given flag, position)
 * and refuses, with the messages below and nowhere else: an option given
 * twice, one the subcommand does not take, a setting samplab does not model,
 * a missing value, a malformed number (the schema's words). Values shown in a
 * message are escaped so it stays one printable line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"


#define G(g) {g, SL_API_OPT_NONE}
#define O(o) {0, o}
#define END {0, SL_API_OPT_NONE}

static const sl_cli_take draw_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_ROW_SEEDS),
    O(SL_API_OPT_STREAM),
    O(SL_API_OPT_N),
    O(SL_API_OPT_COUNTS),
    O(SL_API_OPT_JSON),
    G(SL_API_G_FRAMEWORK),
    O(SL_API_OPT_REPETITION_PENALTY),
    G(SL_API_G_SAMPLING),
    G(SL_API_G_LLAMA_PENALTY),
    O(SL_API_OPT_SAMPLERS),
    O(SL_API_OPT_SAMPLING_SEQ),
    O(SL_API_OPT_CONTEXT_FILE),
    /* generate()'s: taken to be refused by name (a generation's, replay and check) */
    O(SL_API_OPT_NUM_RETURN_SEQUENCES),
    O(SL_API_OPT_EOS_TOKEN_ID),
    O(SL_API_OPT_PAD_TOKEN_ID),
    END,
};
static const sl_cli_take logits_cmd_takes[] = {
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_ROW),
    G(SL_API_G_SAMPLING),
    O(SL_API_OPT_CPU),
    G(SL_API_G_LLAMA_PENALTY),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_cli_take pipeline_takes[] = {
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_SAMPLERS),
    O(SL_API_OPT_SAMPLING_SEQ),
    O(SL_API_OPT_OLLAMA),
    END,
};
static const sl_cli_take compare_takes[] = {
    O(SL_API_OPT_FRAMEWORKS),
    O(SL_API_OPT_OLLAMA),
    O(SL_API_OPT_TOP),
    END,
};
static const sl_cli_take rng_takes[] = {
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_STREAM),
    O(SL_API_OPT_N),
    O(SL_API_OPT_BINARY),
    END,
};
static const sl_cli_take gof_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_DRAWS),
    O(SL_API_OPT_COUNTS_FILE),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_N),
    O(SL_API_OPT_ALPHA),
    O(SL_API_OPT_NULL_REPS),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_cli_take power_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_N),
    O(SL_API_OPT_ALPHA),
    O(SL_API_OPT_TRIALS),
    O(SL_API_OPT_TARGET),
    O(SL_API_OPT_FAULT),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_cli_take calibrate_takes[] = {
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    O(SL_API_OPT_N),
    O(SL_API_OPT_SEEDS),
    O(SL_API_OPT_FIRST_SEED),
    O(SL_API_OPT_JSON),
    END,
};
static const sl_cli_take exact_takes[] = {
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_METHOD),
    O(SL_API_OPT_RNG),
    G(SL_API_G_SOURCE),
    O(SL_API_OPT_TEMPERATURE),
    O(SL_API_OPT_REPLACEMENT),
    O(SL_API_OPT_NO_REPLACEMENT),
    O(SL_API_OPT_NUM_SAMPLES),
    O(SL_API_OPT_TORCH),
    O(SL_API_OPT_DTYPE),
    O(SL_API_OPT_RAND),
    O(SL_API_OPT_OLLAMA),
    O(SL_API_OPT_TOKENS),
    O(SL_API_OPT_JSON),
    O(SL_API_OPT_REPORT_DATA),
    END,
};
static const sl_cli_take bench_takes[] = {
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_CONTEXT),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_TORCH),
    O(SL_API_OPT_CPU),
    O(SL_API_OPT_REPETITION_PENALTY),
    G(SL_API_G_SAMPLING),
    O(SL_API_OPT_N),
    O(SL_API_OPT_JSON),
    END,
};
/* replay and check: per-step rows, the prompt, a framework's settings */
static const sl_cli_take gen_takes[] = {
    O(SL_API_OPT_FRAMEWORK),
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_PROBS),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_CONTEXT),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_ROW_SEEDS),
    O(SL_API_OPT_DTYPE),
    O(SL_API_OPT_TORCH),
    O(SL_API_OPT_LLAMACPP),
    O(SL_API_OPT_RAND),
    O(SL_API_OPT_OLLAMA),
    O(SL_API_OPT_SGLANG),
    O(SL_API_OPT_VLLM),
    O(SL_API_OPT_POSITION),
    O(SL_API_OPT_SGLANG_SORTED),
    O(SL_API_OPT_TRANSFORMERSJS),
    O(SL_API_OPT_JAX_PARTITIONABLE),
    O(SL_API_OPT_TFJS),
    O(SL_API_OPT_CPU),
    O(SL_API_OPT_SIMD_SUM),
    G(SL_API_G_SAMPLING),
    G(SL_API_G_LLAMA_PENALTY),
    O(SL_API_OPT_SAMPLERS),
    O(SL_API_OPT_SAMPLING_SEQ),
    O(SL_API_OPT_JSON),
    O(SL_API_OPT_CONTEXT_FILE),
    O(SL_API_OPT_NUM_RETURN_SEQUENCES),
    O(SL_API_OPT_EOS_TOKEN_ID),
    O(SL_API_OPT_PAD_TOKEN_ID),
    END,
};
static const sl_cli_take replay_takes[] = {
    END,
};
static const sl_cli_take check_takes[] = {
    O(SL_API_OPT_GEN_TOKENS),
    O(SL_API_OPT_ALPHA),
    O(SL_API_OPT_TRIALS),
    END,
};
/* report prints its own help (cli/report.c) */
static const sl_cli_take report_takes[] = {
    O(SL_API_OPT_OUT),
    O(SL_API_OPT_LOGITS),
    O(SL_API_OPT_TENSOR),
    O(SL_API_OPT_ROW),
    O(SL_API_OPT_N),
    O(SL_API_OPT_SEED),
    O(SL_API_OPT_JOBS),
    O(SL_API_OPT_ONLY),
    O(SL_API_OPT_NO_PLOT),
    END,
};
static const sl_cli_take sweep_takes[] = {
    O(SL_API_OPT_SPEC),
    O(SL_API_OPT_OUT),
    O(SL_API_OPT_RESUME),
    END,
};
#undef G
#undef O
#undef END

const sl_cli_spec sl_cli_specs[] = {
    {"draw", draw_takes, NULL},
    {"pipeline", pipeline_takes, logits_cmd_takes},
    {"compare", compare_takes, logits_cmd_takes},
    {"rng", rng_takes, NULL},
    {"gof", gof_takes, NULL},
    {"power", power_takes, NULL},
    {"calibrate", calibrate_takes, NULL},
    {"exact", exact_takes, NULL},
    {"bench", bench_takes, NULL},
    {"report", report_takes, NULL},
    {"replay", replay_takes, gen_takes},
    {"check", check_takes, gen_takes},
    {"sweep", sweep_takes, NULL},
    {NULL, NULL, NULL},
};

const sl_cli_spec *sl_cli_spec_lookup(const char *cmd)
{
    for (const sl_cli_spec *s = sl_cli_specs; s->name; s++)
        if (!strcmp(s->name, cmd))
            return s;
    return NULL;
}

/* The take in s naming option o itself (opt_take), or the first take of
 * group g (group_take); NULL if none. An option s takes both ways is listed
 * with its group, with the option take's help. */
static const sl_cli_take *opt_take(const sl_cli_spec *s, sl_api_opt o)
{
    const sl_cli_take *lists[2] = {s->takes, s->shared};
    for (int l = 0; l < 2; l++)
        for (const sl_cli_take *t = lists[l]; t && (t->group || t->opt); t++)
            if (t->opt == o)
                return t;
    return NULL;
}

static const sl_cli_take *group_take(const sl_cli_spec *s, unsigned g)
{
    const sl_cli_take *lists[2] = {s->takes, s->shared};
    for (int l = 0; l < 2; l++)
        for (const sl_cli_take *t = lists[l]; g && t && (t->group || t->opt); t++)
            if (t->group == g)
                return t;
    return NULL;
}

/* The number of entries in the schema, the not-modelled settings included. */
static int all_options(void)
{
    static int n;
    if (!n)
        while (sl_api_options[n + 1].name)
            n++;
    return n + 1;
}

int sl_cli_takes(const sl_cli_spec *s, sl_api_opt o)
{
    return o > SL_API_OPT_NONE && (int)o < all_options() &&
           (opt_take(s, o) || group_take(s, sl_api_options[o].group));
}

int sl_cli_value_check(sl_api_opt o, const char *text, char *why, size_t n)
{
    sl_api_value v;
    if (o <= SL_API_OPT_NONE || (int)o >= all_options())
        return 0;
    return sl_api_option_read(&sl_api_options[o], text, &v, why, n);
}

/* The schema entry named `word` that `s` takes, else any entry of that name
 * (*taken = 0), else SL_API_OPT_NONE. */
static sl_api_opt find(const sl_cli_spec *s, const char *word, int *taken)
{
    sl_api_opt other = SL_API_OPT_NONE;
    for (int o = SL_API_OPT_NONE + 1; o < all_options(); o++) {
        if (strcmp(sl_api_options[o].name, word))
            continue;
        if (sl_cli_takes(s, (sl_api_opt)o)) {
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
    const sl_cli_spec *s = p->spec;
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
static int is_flag(const sl_cli_spec *s, const char *w)
{
    int taken;
    sl_api_opt id = find(s, w, &taken);
    return id != SL_API_OPT_NONE && taken && sl_api_options[id].kind == SL_API_FLAG;
}

static int parse(const sl_cli_spec *s, int argc, char **argv, sl_cli_parsed *p)
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
    p->spec = sl_cli_spec_lookup(cmd);
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
    const sl_cli_spec *s = sl_cli_spec_lookup(cmd);
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

static void help_list(FILE *f, const sl_cli_spec *s, const sl_cli_take *list)
{
    for (const sl_cli_take *t = list; t && (t->group || t->opt); t++) {
        if (t->opt) {
            if (!group_take(s, sl_api_options[t->opt].group))
                help_line(f, t->opt, sl_api_option_help(&sl_api_options[t->opt], s->name));
            continue;
        }
        if (group_take(s, t->group) != t)
            continue;
        for (int o = SL_API_OPT_NONE + 1; o < SL_API_OPT_COUNT; o++) {
            if (sl_api_options[o].group != t->group)
                continue;
            help_line(f, (sl_api_opt)o, sl_api_option_help(&sl_api_options[o], s->name));
        }
    }
}

void sl_cli_help_options(FILE *f, const sl_cli_spec *s, const char *title)
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
