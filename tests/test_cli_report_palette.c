/* test_cli_report_palette.c — the report's figures read as a reader needs them:
 * one style per framework (src/report/palette.c) that the explorer's
 * web/style.css repeats colour for colour; no two entries alike in colour,
 * point and hatch at once; every figure of REPORT.md followed by its caption (an
 * italic line right under the image) and every figure named in the Markdown
 * written; the generation figure measured against the tokens transformers
 * generated; compare_kept holding kept counts only; the exact tail named in
 * words with a link to every other vector's figure. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "samplab.h"
#include "report/sl_report.h"

/* The value of `--NAME:` in css, lower-cased, or "" when it has none. */
static void css_var(const char *css, const char *name, char *out, size_t n)
{
    char key[80];
    snprintf(key, sizeof key, "--%s:", name);
    out[0] = '\0';
    for (const char *p = strstr(css, key); p; p = strstr(p + 1, key)) {
        /* a whole name: "--numpy:" must not match inside "--numpy-legacy:" (it cannot, ':' follows) */
        if (p > css && (p[-1] == '-' || (p[-1] >= 'a' && p[-1] <= 'z')))
            continue;
        p += strlen(key);
        while (*p == ' ')
            p++;
        size_t k = 0;
        while (k + 1 < n && p[k] && p[k] != ';' && p[k] != ' ' && p[k] != '\n') {
            out[k] = (char)(p[k] >= 'A' && p[k] <= 'Z' ? p[k] + 32 : p[k]);
            k++;
        }
        out[k] = '\0';
        return;
    }
}

Test(report_palette, explorer_colours_are_the_reports)
{
    char *css = sl_test_slurp("web/style.css");
    cr_assert_not_null(css, "no web/style.css");
    /* every framework the explorer draws has its variable, equal to the report's colour */
    static const char *const shown[] = {"hf", "llamacpp", "vllm", "candle", "tutorial", "torch", "numpy",
                                        "numpy-legacy"};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        char v[32];
        css_var(css, shown[i], v, sizeof v);
        const sl_report_style *s = sl_report_style_of(shown[i]);
        cr_assert_str_neq(s->name, "?", "%s has no style in palette.c", shown[i]);
        cr_assert_str_eq(v, s->rgb, "web/style.css --%s is '%s', the report draws %s", shown[i], v, s->rgb);
    }
    /* and any other framework variable the page grows must agree too */
    for (const sl_report_style *s = sl_report_styles; s->name; s++) {
        char v[32];
        css_var(css, s->name, v, sizeof v);
        cr_assert(!v[0] || !strcmp(v, s->rgb), "web/style.css --%s is '%s', the report draws %s", s->name, v,
                  s->rgb);
    }
    free(css);
}

Test(report_palette, every_entry_is_told_apart)
{
    size_t n = 0;
    for (const sl_report_style *a = sl_report_styles; a->name; a++, n++) {
        cr_assert_eq(strlen(a->rgb), 7u, "%s: colour '%s'", a->name, a->rgb);
        cr_assert_neq(a->pattern, 3, "%s: cairo's pattern 3 is solid: the hatch would hide the colour", a->name);
        for (const sl_report_style *b = a + 1; b->name; b++) {
            cr_assert_str_neq(a->name, b->name, "%s listed twice", a->name);
            /* a shared hue needs another point type, so a greyscale print still separates them */
            cr_assert(strcmp(a->rgb, b->rgb) || a->pt != b->pt, "%s and %s: same colour and point type", a->name,
                      b->name);
        }
    }
    cr_assert_geq(n, 12u);
    /* the eight frameworks of the generation figure have eight different colours */
    static const char *const gen[] = {"llamacpp", "hf", "vllm", "candle", "torch", "numpy", "numpy-legacy", "gsl"};
    for (size_t i = 0; i < 8; i++)
        for (size_t j = i + 1; j < 8; j++)
            cr_assert_str_neq(sl_report_style_of(gen[i])->rgb, sl_report_style_of(gen[j])->rgb, "%s and %s",
                              gen[i], gen[j]);
    /* a series label names its framework: "hf(draws)", "numpy (64-bit)" */
    cr_assert_eq(sl_report_style_of("hf(draws)"), sl_report_style_of("hf"));
    cr_assert_eq(sl_report_style_of("numpy (64-bit)"), sl_report_style_of("numpy"));
    cr_assert_str_eq(sl_report_style_of("no-such-framework")->name, "?");
}

/* The committed report: every image line is followed by an italic caption, and
 * every figure it shows or links exists. */
Test(report_palette, committed_report_has_a_caption_under_every_figure)
{
    char *md = sl_test_slurp("reports/REPORT.md");
    cr_assert_not_null(md, "no reports/REPORT.md");
    size_t nimg = 0;
    for (const char *p = strstr(md, "\n!["); p; p = strstr(p + 1, "\n![")) {
        const char *src = strstr(p, "](figures/"), *eol = strchr(p + 1, '\n');
        cr_assert(src && eol && src < eol, "image line without a figure: %.60s", p + 1);
        char png[160];
        cr_assert_eq(sscanf(src + 2, "%150[^)]", png), 1);
        char path[200];
        snprintf(path, sizeof path, "reports/%s", png);
        cr_assert_eq(access(path, R_OK), 0, "REPORT.md shows %s, which is not there", path);
        const char *cap = eol + 1, *cend = strchr(cap, '\n');
        cr_assert(cap[0] == '*' && cap[1] != '*' && cend && cend[-1] == '*' && cend - cap > 40,
                  "%s: the line under it is no caption: %.80s", png, cap);
        nimg++;
    }
    cr_assert_geq(nimg, 10u, "%zu figures in REPORT.md", nimg);
    /* linked figures (the exact tail of each other vector) are there too */
    size_t nlink = 0;
    for (const char *p = strstr(md, "](figures/exact_tail_"); p; p = strstr(p + 1, "](figures/exact_tail_")) {
        char png[160], path[200];
        cr_assert_eq(sscanf(p + 2, "%150[^)]", png), 1);
        snprintf(path, sizeof path, "reports/%s", png);
        cr_assert_eq(access(path, R_OK), 0, "REPORT.md links %s, which is not there", path);
        nlink++;
    }
    cr_assert_geq(nlink, 3u, "the exact tail's other vectors are not linked (%zu)", nlink);
    free(md);
}

/* A fresh run of the sections whose figures changed: the generation figure's
 * reference row is the generation itself, compare_kept's data holds only
 * pipelines' kept counts, the exact tail is named in words. */
Test(report_palette, figures_say_what_they_show)
{
    char dir[] = "/tmp/sl-test-report-palette-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args, "report --n 200 --only generation,compare,exact --no-plot --out %s", dir);
    sl_test_run r = sl_test_cli(args);
    cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
    sl_test_run_free(&r);
    char path[300];
    snprintf(path, sizeof path, "%s/figures/generation_tokens.dat", dir);
    char *dat = sl_test_slurp(path);
    cr_assert_not_null(dat, "no %s", path);
    /* the top row is generate(), and hf, which is that generation at this seed, never departs from it */
    cr_assert_not_null(strstr(dat, " 0 generate() 0\n"), "no generate() row in the generation figure");
    cr_assert_null(strstr(dat, " 3 hf "), "hf departs from the generation it reproduces");
    cr_assert_not_null(strstr(dat, " 3 llamacpp "), "llamacpp never departs from hf's generation?");
    free(dat);
    snprintf(path, sizeof path, "%s/REPORT.md", dir);
    char *md = sl_test_slurp(path);
    cr_assert_not_null(md);
    cr_assert_not_null(strstr(md, "first step that differs from generate()"), "the table is not against the run");
    cr_assert_not_null(strstr(md, "at T = 0.8 (zipf49152_t08), a panel per sampler"),
                       "the exact tail's caption does not name its vector in words");
    cr_assert_not_null(strstr(md, "candle never draws "), "the exact tail's caption misses candle's never-drawn tokens");
    /* the compare caption names the one pipeline that keeps 3 at the top-p boundary */
    cr_assert_not_null(strstr(md, "top-p boundary: all keep 2 but tutorial (3)"), "compare caption");
    free(md);
    snprintf(path, sizeof path, "%s/figures/compare_kept.dat", dir);
    dat = sl_test_slurp(path);
    cr_assert_not_null(dat, "no %s", path);
    cr_assert_null(strstr(dat, "(draws)"), "compare_kept mixes seen counts of draws with kept counts");
    cr_assert_null(strstr(dat, "seen"), "compare_kept mixes seen counts of draws with kept counts");
    free(dat);
    snprintf(path, sizeof path, "%s/figures/compare_kept.gp", dir);
    char *gp = sl_test_slurp(path);
    cr_assert_not_null(gp);
    /* the boundary case (2 against 3) on a linear axis from 0 */
    cr_assert_not_null(strstr(gp, "set yrange [0:4]"), "compare_kept's boundary panel scale:\n%s", gp);
    free(gp);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
