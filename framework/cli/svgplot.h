/* svgplot.h - line charts with a logarithmic y axis, as one SVG file.
 *
 * What `csearch compare` draws: one chart per measure (seconds, nodes, ...)
 * side by side, x = n, one line per strategy in the same colour in every
 * chart, and one legend.  No external tool: the file is written directly,
 * self-contained, and every number in it comes from the caller.
 */
#ifndef CSEARCH_CLI_SVGPLOT_H
#define CSEARCH_CLI_SVGPLOT_H

#include <stdio.h>

struct svg_chart {
    const char *title;   /* "seconds" */
    /* y[s * npoints + i]: series s at x[i]; a value <= 0 (or NaN) has no
     * place on a log scale and is left out of its line */
    const double *y;
};

struct svg_plot {
    const char *title;         /* over the whole figure */
    const char *x_label;       /* "n" */
    const double *x;           /* npoints, increasing */
    size_t npoints;
    const char *const *series; /* nseries names, for the legend */
    size_t nseries;
    const struct svg_chart *charts;
    size_t ncharts;
};

/* Write the figure to out.  Returns 0, or -1 if writing failed. */
int svg_plot_write(FILE *out, const struct svg_plot *plot);

#endif
