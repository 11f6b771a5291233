/* compare.c — `samplab compare --logits SRC [settings] [--frameworks a,b,...]`:
 * the same logits and settings through several frameworks' pipelines
 * (api/compare.c computes it: kept counts, entropies, pairs, translations);
 * this prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sl_cli.h"

static void cmp_help(FILE *f)
{
    fprintf(f, "usage: samplab compare --logits SRC [settings] [--frameworks a,b,...] [--top N] [--json]\n\n"
               "Runs the same logits and settings through each framework's pipeline (default: all that\n"
               "have every option given; a framework named in --frameworks that lacks one is an error).\n"
               "Per framework: kept count, entropy (nats), top N tokens (default 5). Per pair: TV distance,\n"
               "ids one keeps and the other drops, and a translation that makes them agree (verified).\n\n");
    sl_cli_help_options(f, sl_api_cmd_lookup("compare"),
                        "settings (each framework takes the ones it has; others are an error naming it):");
}

static void cmp_print_ids(const unsigned char *a, const unsigned char *b, size_t V)
{
    size_t n = 0;
    for (size_t i = 0; i < V; i++)
        n += a[i] && !b[i];
    printf("%zu", n);
    size_t shown = 0;
    for (size_t i = 0; i < V && shown < 12; i++)
        if (a[i] && !b[i]) {
            printf("%s%zu", shown ? " " : " [", i);
            shown++;
        }
    if (n)
        printf("%s]", n > shown ? " ..." : "");
}

static void cmp_print_tr(const sl_api_compare_tr *t)
{
    printf("    translation: %s reproduces %s (TV %.3g; %s)\n", t->command, t->source->name, t->tv, t->scope);
}

static void cmp_print(const sl_api_compare_result *r)
{
    printf("logits: %s (V = %zu); settings:%s\n", r->vec.source, r->vec.n, r->args[0] ? r->args : " (none)");
    for (size_t i = 0; i < r->nskip; i++)
        printf("skipped: %s has no %s\n", r->skip[i].t->name, r->skip[i].lacks);
    printf("%-9s %8s %14s  top tokens (id:probability)\n", "framework", "kept", "entropy(nats)");
    for (size_t i = 0; i < r->nfw; i++) {
        const sl_api_compare_fw *f = &r->fw[i];
        if (!f->ok) {
            printf("%-9s error: %s\n", f->t->name, f->error);
            continue;
        }
        printf("%-9s %8zu %14.6f ", f->t->name, f->r.n_kept, f->entropy);
        for (size_t j = 0; j < f->ntop; j++)
            printf(" %zu:%.6g", f->top[j], f->r.probs[f->top[j]]);
        printf("\n");
    }
    printf("pairs:\n");
    for (size_t i = 0; i < r->npairs; i++) {
        const sl_api_compare_pair *p = &r->pair[i];
        const sl_api_compare_fw *a = &r->fw[p->a], *b = &r->fw[p->b];
        printf("  %s vs %s: TV %.6g; %s keeps ", a->t->name, b->t->name, p->tv, a->t->name);
        cmp_print_ids(a->r.kept, b->r.kept, r->vec.n);
        printf(" that %s drops; %s keeps ", b->t->name, b->t->name);
        cmp_print_ids(b->r.kept, a->r.kept, r->vec.n);
        printf(" that %s drops\n", a->t->name);
        if (p->agree) {
            printf("    they agree\n");
            continue;
        }
        for (size_t k = 0; k < p->ntr; k++)
            cmp_print_tr(&p->tr[k]);
        if (!p->ntr)
            printf("    no translation found among the rules tried\n");
    }
    for (size_t i = 0; i < r->nskip; i++)
        for (size_t k = 0; k < r->skip[i].ntr; k++) {
            const sl_api_compare_tr *t = &r->skip[i].tr[k];
            printf("  %s (skipped) for %s: translation: %s reproduces %s (TV %.3g; %s)\n", r->skip[i].t->name,
                   t->source->name, t->command, t->source->name, t->tv, t->scope);
        }
    for (size_t i = 0; i < r->nnotes; i++)
        printf("note: %s\n", r->notes[i]);
}

int sl_cli_compare_main(int argc, char **argv)
{
    sl_cli_parsed po;
    sl_api_settings s; /* the settings as the library call takes them: one path for both (api/compare.c) */
    sl_api_src src;
    int st = sl_cli_parse_call("compare", argc, argv, cmp_help, &po, &s, &src);
    if (st >= 0)
        return st;
    sl_api_compare_result *r = malloc(sizeof *r);
    if (!r)
        return sl_cli_errf("samplab compare: out of memory\n");
    sl_error err;
    int rc = sl_api_compare_run(&src, &s, r, &err);
    if (rc)
        rc = sl_cli_api_fail(&err);
    else if (po.a[SL_API_OPT_JSON].given)
        rc = sl_cli_emit(sl_api_compare_result_json(r));
    else
        cmp_print(r);
    sl_api_compare_result_free(r);
    free(r);
    return rc;
}
