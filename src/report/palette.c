/* palette.c — the one colour, point type, dash type and hatch of every framework
 * and draw method the report draws, so a framework looks the same in every figure
 * (and in the explorer: web/style.css's --NAME variables hold the same colours, a
 * test compares them with this table).
 * Colours are Okabe and Ito's colour-blind-safe set ("Color Universal Design",
 * 2008, jfly.uni-koeln.de/color): eight hues a dichromat still tells apart.
 * Several of them share a grey level (vermillion and bluish green; orange and sky
 * blue), so every entry also has its own point type, dash type and hatch, and a
 * greyscale print still separates them. Frameworks built on another share its hue
 * with another point type (transformers.js and TGI with hf, SGLang with vLLM,
 * Ollama and node-llama-cpp with llama.cpp); draw methods are greys, since they
 * are no framework. */
#include <string.h>

#include "report/sl_report.h"

/* gnuplot 5.4 point types: 7 filled circle, 5 filled square, 9 filled triangle,
 * 11 filled inverted triangle, 13 filled diamond, 6/4/8/10/12 their open forms,
 * 1 plus, 2 cross, 3 star. Hatches: cairo's fill patterns 1, 2 and 4 to 7 (3 is solid). */
const sl_report_style sl_report_styles[] = {
    {"llamacpp", "#0072b2", 7, 1, 0},
    {"hf", "#d55e00", 5, 2, 4},
    {"vllm", "#cc79a7", 9, 3, 5},
    {"torch", "#e69f00", 11, 4, 6},
    {"candle", "#009e73", 13, 5, 7},
    {"numpy", "#56b4e9", 6, 6, 1},
    {"numpy-legacy", "#f0e442", 4, 7, 2},
    {"gsl", "#000000", 8, 8, 6},
    {"tutorial", "#999999", 12, 9, 1},
    {"transformers-js", "#d55e00", 10, 10, 1},
    {"tgi", "#d55e00", 2, 11, 2},
    {"tfjs", "#e69f00", 3, 12, 2},
    {"torch-replacement", "#e69f00", 10, 13, 1},
    {"sglang", "#cc79a7", 12, 14, 1},
    {"ollama", "#0072b2", 6, 15, 1},
    {"node-llama-cpp", "#0072b2", 1, 16, 2},
    {"jax", "#009e73", 2, 17, 1},
    {"mlx", "#009e73", 3, 18, 2},
    {"exprace", "#404040", 6, 2, 5},
    {"cdf", "#6a6a6a", 2, 3, 6},
    {"linear", "#949494", 4, 4, 7},
    {"alias", "#bdbdbd", 8, 5, 4},
    {NULL, NULL, 0, 0, 0}};

/* What no entry names: a mid grey, plain. */
static const sl_report_style unknown = {"?", "#808080", 1, 1, 0};

const sl_report_style *sl_report_style_of(const char *name)
{
    /* "hf(draws)", "numpy (64-bit)": the name up to its first '(' or space */
    size_t n = strcspn(name, "( ");
    for (const sl_report_style *s = sl_report_styles; s->name; s++)
        if (strlen(s->name) == n && !strncmp(s->name, name, n))
            return s;
    return &unknown;
}

void sl_report_style_points(sl_buf *b, const char *name)
{
    const sl_report_style *s = sl_report_style_of(name);
    sl_io_buf_printf(b, "lc rgb '%s' pt %d", s->rgb, s->pt);
}

void sl_report_style_lines(sl_buf *b, const char *name)
{
    const sl_report_style *s = sl_report_style_of(name);
    sl_io_buf_printf(b, "lc rgb '%s' pt %d dt %d", s->rgb, s->pt, s->dt);
}

/* One bar per series and group, side by side: the colour, then the series'
 * hatch in white over it (so a grey print still tells neighbours apart).
 * Column 1 of the data is the group's label, columns 2.. the series. */
void sl_report_style_bars(sl_buf *b, const char *const *series, size_t ns, size_t ngroups, int labels,
                          const char *sel)
{
    double w = 0.8 / (double)(ns ? ns : 1);
    sl_io_buf_printf(b, "set boxwidth %.6g absolute\nset xrange [-0.5:%zu.5]\n"
                        "plot @DAT@ %s using 0:(NaN):xtic(1) with points notitle", w, ngroups ? ngroups - 1 : 0,
                     sel ? sel : "");
    for (size_t i = 0; i < ns; i++) {
        const sl_report_style *s = sl_report_style_of(series[i]);
        double off = sl_report_style_bar_offset(i, ns);
        sl_io_buf_printf(b, "%s@DAT@ %s using ($0%+.6g):%zu with boxes fs solid 1 border lc rgb '#000000' lc rgb '%s' "
                            "title \"%s\"",
                         ", \\\n     ", sel ? sel : "", off, i + 2, s->rgb, series[i]);
        if (s->pattern)
            sl_io_buf_printf(b, ", \\\n     @DAT@ %s using ($0%+.6g):%zu with boxes fs transparent pattern %d noborder "
                                "lc rgb '#ffffff' notitle",
                             sel ? sel : "", off, i + 2, s->pattern);
        if (labels)
            sl_io_buf_printf(b, ", \\\n     @DAT@ %s using ($0%+.6g):%zu:(sprintf('%%d', int(column(%zu)))) with labels "
                                "offset 0,0.6 font ',10' notitle",
                             sel ? sel : "", off, i + 2, i + 2);
    }
}

double sl_report_style_bar_offset(size_t i, size_t ns)
{
    double w = 0.8 / (double)(ns ? ns : 1);
    return -0.4 + w * ((double)i + 0.5);
}

void sl_report_figure_md(sl_buf *md, const char *name, const char *alt, const char *caption)
{
    sl_io_buf_printf(md, "![%s](figures/%s.png)\n*%s*\n", alt, name, caption);
}
