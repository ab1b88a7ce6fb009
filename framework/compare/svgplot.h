/* svgplot.h - line charts with a logarithmic y axis, side by side in one
 * SVG file with one legend: what csearch compare plots its measures with.
 */
#ifndef CSEARCH_SVGPLOT_H
#define CSEARCH_SVGPLOT_H

#include <stddef.h>
#include <stdio.h>

struct svg_chart {
    const char *title; /* "seconds" */
    /* y[s * npoints + i]: series s at x[i]; a value <= 0 (or NaN) has no
     * place on a log scale and is left out of its line */
    const double *y;
};

struct svg_plot {
    const char *title;   /* over the whole figure */
    const char *x_label; /* "n" */
    const double *x;     /* npoints, increasing */
    size_t npoints;
    const char *const *series; /* nseries names, for the legend */
    size_t nseries;
    const struct svg_chart *charts;
    size_t ncharts;
};

/* Charts side by side, one line per series in the same colour in each, and
 * one legend.  Returns 0, or -1 if writing failed. */
int svg_plot_write(FILE *out, const struct svg_plot *plot);

#endif
