/* svgplot.c - what `csearch compare` draws (svgplot.h): charts side by
 * side, each a plot area with a log-scale y axis (a grid line per power of
 * ten that the data spans) and a linear x axis (a tick per x value, thinned
 * past 16), then the legend.  Values that a log scale cannot show (<= 0,
 * NaN) break their line.  The file is self-contained, written directly.
 */
#include "svgplot.h"

#include <math.h>
#include <stdbool.h>

#include "output.h" /* out_html_text */

enum {
    CHART_W = 420,
    CHART_H = 320, /* one chart, margins included */
    MARGIN_L = 72,
    MARGIN_R = 16,
    MARGIN_T = 36,
    MARGIN_B = 48,
    TITLE_H = 36,
    LEGEND_W = 190,
    MAX_TICKS = 16
};

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c",
                                      "#ff7f0e", "#9467bd", "#8c564b",
                                      "#e377c2", "#17becf"};
#define NCOLOURS (sizeof palette / sizeof *palette)

static bool plottable(double v)
{
    return isfinite(v) && v > 0;
}

/* The series' style: a colour, and past the palette a dash as well. */
static void stroke(FILE *out, size_t s)
{
    fprintf(out, "stroke=\"%s\"%s", palette[s % NCOLOURS],
            s >= NCOLOURS ? " stroke-dasharray=\"6 3\"" : "");
}

struct frame {
    double left, right, top, bottom; /* the plot area, in pixels */
    double x_lo, x_hi;               /* data range on x */
    int y_lo, y_hi;                  /* decades on y: 10^y_lo .. 10^y_hi */
};

static double px(const struct frame *f, double x)
{
    return f->left + (x - f->x_lo) / (f->x_hi - f->x_lo) * (f->right - f->left);
}

static double py(const struct frame *f, double y)
{
    return f->bottom -
           (log10(y) - f->y_lo) / (f->y_hi - f->y_lo) * (f->bottom - f->top);
}

static void y_decades(const struct svg_plot *p, const double *y, int *lo,
                      int *hi)
{
    double min = INFINITY, max = -INFINITY;
    for (size_t i = 0; i < p->nseries * p->npoints; i++)
        if (plottable(y[i])) {
            min = fmin(min, y[i]);
            max = fmax(max, y[i]);
        }
    if (min > max) { /* nothing to show: one empty decade */
        *lo = 0;
        *hi = 1;
        return;
    }
    *lo = (int)floor(log10(min));
    *hi = (int)ceil(log10(max));
    if (*hi <= *lo)
        *hi = *lo + 1;
}

static void axes(FILE *out, const struct svg_plot *p, const struct frame *f)
{
    int decades = f->y_hi - f->y_lo;
    int step = decades > 8 ? (decades + 7) / 8 : 1;
    for (int k = f->y_lo; k <= f->y_hi; k += step) {
        double y =
            f->bottom - (double)(k - f->y_lo) / decades * (f->bottom - f->top);
        fprintf(out,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#ddd\"/>\n",
                f->left, y, f->right, y);
        fprintf(out,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">10"
                "<tspan dy=\"-6\" font-size=\"9\">%d</tspan></text>\n",
                f->left - 6, y + 4, k);
    }
    size_t every = (p->npoints + MAX_TICKS - 1) / MAX_TICKS;
    for (size_t i = 0; i < p->npoints; i += every ? every : 1) {
        double x = px(f, p->x[i]);
        fprintf(out,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#000\"/>\n",
                x, f->bottom, x, f->bottom + 4);
        fprintf(
            out,
            "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%g</text>\n", x,
            f->bottom + 17, p->x[i]);
    }
    fprintf(out,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
            "fill=\"none\" stroke=\"#000\"/>\n",
            f->left, f->top, f->right - f->left, f->bottom - f->top);
    fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">",
            (f->left + f->right) / 2, f->bottom + 36);
    out_html_text(out, p->x_label);
    fputs("</text>\n", out);
}

/* One path per series: M at the start and after each gap, L between. */
static void lines(FILE *out, const struct svg_plot *p, const double *y,
                  const struct frame *f)
{
    for (size_t s = 0; s < p->nseries; s++) {
        const double *v = y + s * p->npoints;
        bool pen = false, any = false;
        for (size_t i = 0; i < p->npoints; i++) {
            if (!plottable(v[i])) {
                pen = false;
                continue;
            }
            /* earlier lines wider, so lines that coincide stay visible */
            size_t wider = p->nseries - 1 - s;
            if (!any)
                fprintf(out, "<path fill=\"none\" stroke-width=\"%.1f\" d=\"",
                        2 + 1.5 * (double)(wider < 4 ? wider : 4));
            fprintf(out, "%s%c%.2f %.2f", any ? " " : "", pen ? 'L' : 'M',
                    px(f, p->x[i]), py(f, v[i]));
            pen = any = true;
        }
        if (any) {
            fputs("\" ", out);
            stroke(out, s);
            fputs("/>\n", out);
        }
        for (size_t i = 0; i < p->npoints; i++)
            if (plottable(v[i]))
                fprintf(
                    out,
                    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\"/>\n",
                    px(f, p->x[i]), py(f, v[i]), palette[s % NCOLOURS]);
    }
}

int svg_plot_write(FILE *out, const struct svg_plot *p)
{
    int width = (int)p->ncharts * CHART_W + LEGEND_W;
    int height = CHART_H + TITLE_H;
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            width, height, width, height);
    fprintf(out,
            "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" "
            "font-size=\"15\">",
            width / 2);
    out_html_text(out, p->title);
    fputs("</text>\n", out);

    double x_lo = p->npoints ? p->x[0] : 0;
    double x_hi = p->npoints ? p->x[p->npoints - 1] : 1;
    if (x_hi <= x_lo) { /* one n: centre it */
        x_lo -= 1;
        x_hi += 1;
    }
    for (size_t c = 0; c < p->ncharts; c++) {
        const struct svg_chart *chart = &p->charts[c];
        double ox = (double)c * CHART_W, oy = TITLE_H;
        struct frame f = {.left = ox + MARGIN_L,
                          .right = ox + CHART_W - MARGIN_R,
                          .top = oy + MARGIN_T,
                          .bottom = oy + CHART_H - MARGIN_B,
                          .x_lo = x_lo,
                          .x_hi = x_hi};
        y_decades(p, chart->y, &f.y_lo, &f.y_hi);
        fprintf(out,
                "<g>\n<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" "
                "font-weight=\"bold\">",
                (f.left + f.right) / 2, f.top - 10);
        out_html_text(out, chart->title);
        fputs(" (log scale)</text>\n", out);
        axes(out, p, &f);
        lines(out, p, chart->y, &f);
        fputs("</g>\n", out);
    }

    double lx = (double)p->ncharts * CHART_W + 8;
    for (size_t s = 0; s < p->nseries; s++) {
        double ly = TITLE_H + MARGIN_T + 8 + 20.0 * (double)s;
        fprintf(out,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke-width=\"2\" ",
                lx, ly, lx + 24, ly);
        stroke(out, s);
        fprintf(out, "/>\n<text x=\"%.2f\" y=\"%.2f\">", lx + 30, ly + 4);
        out_html_text(out, p->series[s]);
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}
