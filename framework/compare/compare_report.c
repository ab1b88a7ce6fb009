/* compare_report.c - a comparison's results: a table with ratios to the
 * first strategy (or one JSON object), the CSV file and the SVG plot.
 *
 * Every output shows the runs that ran, n by n in the order of the
 * strategies; a ratio is "-" (null in JSON, empty in CSV) where the first
 * strategy did not run or measured 0.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_impl.h"
#include "output.h"
#include "svgplot.h"

enum measure { M_NODES, M_CHECKS, M_SECONDS };

static double measure(const struct cell *c, enum measure m)
{
    return m == M_NODES    ? (double)c->stats.nodes
           : m == M_CHECKS ? (double)c->stats.checks
                           : c->median;
}

/* Cell (i, s) against the first strategy at the same n, or NaN. */
static double ratio(const struct plan *p, size_t i, size_t s, enum measure m)
{
    const struct cell *base = plan_cell(p, i, 0), *c = plan_cell(p, i, s);
    double b = measure(base, m);
    return base->runs && c->runs && b > 0 ? measure(c, m) / b : NAN;
}

#define NCOLS 11
static const char *const headers[NCOLS] = {
    "n",       "strategy", "solutions", "nodes",     "checks", "fails",
    "seconds", "x nodes",  "x checks",  "x seconds", "status"};

/* Two decimals, but no "0.00" for a strategy 1000 times cheaper, and no
 * decimals to speak of for one 1000 times dearer. */
static void format_ratio(char *buf, size_t size, double r)
{
    if (isnan(r))
        snprintf(buf, size, "-");
    else if (r >= 100)
        snprintf(buf, size, "%.0f", r);
    else if (r >= 0.1)
        snprintf(buf, size, "%.2f", r);
    else
        snprintf(buf, size, "%.2g", r);
}

/* The text of row (i, s), column by column. */
static void row_text(const struct plan *p, size_t i, size_t s,
                     char text[NCOLS][32])
{
    const struct cell *c = plan_cell(p, i, s);
    if (p->nn)
        snprintf(text[0], 32, "%" PRId64, p->ns[i]);
    else
        snprintf(text[0], 32, "-");
    snprintf(text[1], 32, "%.31s", p->st[s].name);
    snprintf(text[2], 32, "%" PRIu64, c->stats.solutions);
    snprintf(text[3], 32, "%" PRIu64, c->stats.nodes);
    snprintf(text[4], 32, "%" PRIu64, c->stats.checks);
    snprintf(text[5], 32, "%" PRIu64, c->stats.fails);
    snprintf(text[6], 32, "%.6f", c->median);
    for (int m = M_NODES; m <= M_SECONDS; m++)
        format_ratio(text[7 + m], 32, ratio(p, i, s, (enum measure)m));
    snprintf(text[10], 32, "%s", cs_status_name(c->status));
}

/* One line of the table; or, with print false, widen the columns to fit
 * it.  The strategy is left-aligned, every number right-aligned. */
static void table_line(const char *const *cells, int ncols, size_t *width,
                       bool print)
{
    for (int k = 0; k < ncols; k++) {
        if (print)
            printf(k == 1 ? "  %-*s"
                   : k    ? "  %*s"
                          : "%*s",
                   (int)width[k], cells[k]);
        else if (strlen(cells[k]) > width[k])
            width[k] = strlen(cells[k]);
    }
    if (print)
        putchar('\n');
}

static void print_table(const struct plan *p)
{
    char text[NCOLS][32];
    const char *cells[NCOLS];
    size_t width[NCOLS] = {0};
    /* the status column only when some run did not complete */
    int ncols = plan_status(p) == CS_COMPLETE ? NCOLS - 1 : NCOLS;
    for (int k = 0; k < NCOLS; k++)
        cells[k] = text[k];
    for (int print = 0; print < 2; print++) { /* measure, then print */
        table_line(headers, ncols, width, print);
        for (size_t i = 0; i < plan_columns(p); i++)
            for (size_t s = 0; s < p->nst; s++)
                if (plan_cell(p, i, s)->runs) {
                    row_text(p, i, s, text);
                    table_line(cells, ncols, width, print);
                }
    }
    printf("\nx: ratio to strategy '%s' at the same n; seconds: %s",
           p->st[0].name, p->cpu ? "CPU time, " : "");
    if (p->repeat > 1)
        printf("median of %d runs\n", p->repeat);
    else
        puts("one run (compare.repeat takes the median of several)");
    if (p->csv)
        printf("csv   %s\n", p->csv);
    if (p->plot)
        printf("plot  %s\n", p->plot);
}

enum cs_status plan_status(const struct plan *p)
{
    enum cs_status status = CS_COMPLETE;
    for (size_t k = 0; k < plan_columns(p) * p->nst; k++) {
        const struct cell *c = &p->cells[k];
        if (c->runs && c->status == CS_INTERRUPTED)
            return CS_INTERRUPTED;
        if (c->runs && c->status == CS_LIMIT)
            status = CS_LIMIT;
    }
    return status;
}

/* "NAME: VALUE" in JSON, null for NaN or a missing string, after sep */
static void json_ratio(const char *sep, const char *name, double r)
{
    printf("%s\"%s\": ", sep, name);
    if (isnan(r))
        fputs("null", stdout);
    else
        printf("%.6g", r);
}

static void json_text(const char *name, const char *text)
{
    printf(", \"%s\": ", name);
    if (text)
        out_json_string(stdout, text);
    else
        fputs("null", stdout);
}

static void print_json(const struct plan *p)
{
    const struct cs_job *job = &plan_cell(p, 0, 0)->job;
    fputs("{\"config\": ", stdout);
    out_json_string(stdout, p->req->path);
    json_text("model", job->model->name);
    json_text("task", cs_task_name(job->task));
    printf(", \"repeat\": %d, \"clock\": \"%s\"", p->repeat,
           p->cpu ? "cpu" : "wall");
    json_text("status", cs_status_name(plan_status(p)));
    fputs(", \"rows\": [", stdout);
    const char *comma = "";
    for (size_t i = 0; i < plan_columns(p); i++)
        for (size_t s = 0; s < p->nst; s++) {
            const struct cell *c = plan_cell(p, i, s);
            if (!c->runs)
                continue;
            printf("%s{\"n\": ", comma);
            comma = ", ";
            if (p->nn)
                printf("%" PRId64, p->ns[i]);
            else
                fputs("null", stdout);
            json_text("strategy", p->st[s].name);
            json_text("status", cs_status_name(c->status));
            printf(", \"solutions\": %" PRIu64 ", \"nodes\": %" PRIu64
                   ", \"checks\": %" PRIu64 ", \"fails\": %" PRIu64
                   ", \"seconds\": %.6f, \"ratio\": {",
                   c->stats.solutions, c->stats.nodes, c->stats.checks,
                   c->stats.fails, c->median);
            json_ratio("", "nodes", ratio(p, i, s, M_NODES));
            json_ratio(", ", "checks", ratio(p, i, s, M_CHECKS));
            json_ratio(", ", "seconds", ratio(p, i, s, M_SECONDS));
            fputs("}}", stdout);
        }
    fputs("]", stdout);
    json_text("csv", p->csv);
    json_text("plot", p->plot);
    fputs("}\n", stdout);
}

static void write_csv(const struct plan *p, FILE *out)
{
    fputs("n,strategy,status,solutions,nodes,checks,fails,seconds,"
          "nodes_ratio,checks_ratio,seconds_ratio\n",
          out);
    char text[NCOLS][32];
    for (size_t i = 0; i < plan_columns(p); i++)
        for (size_t s = 0; s < p->nst; s++) {
            if (!plan_cell(p, i, s)->runs)
                continue;
            row_text(p, i, s, text);
            fputs(p->nn ? text[0] : "", out);
            fputc(',', out);
            out_csv_field(out, p->st[s].name);
            fprintf(out, ",%s,%s,%s,%s,%s,%s", text[10], text[2], text[3],
                    text[4], text[5], text[6]);
            for (int m = M_NODES; m <= M_SECONDS; m++) {
                double r = ratio(p, i, s, (enum measure)m);
                if (isnan(r))
                    fputc(',', out); /* no ratio: an empty field */
                else
                    fprintf(out, ",%.6g", r);
            }
            fputc('\n', out);
        }
}

/* Seconds, nodes and checks against n, one chart each. */
static void write_plot(const struct plan *p, FILE *out)
{
    static const enum measure charted[3] = {M_SECONDS, M_NODES, M_CHECKS};
    size_t points = p->nn, count = points * p->nst;
    double *x = cs_xmalloc(points * sizeof *x);
    double *y = cs_xmalloc(3 * count * sizeof *y);
    const char **names = cs_xmalloc(p->nst * sizeof *names);
    for (size_t i = 0; i < points; i++)
        x[i] = (double)p->ns[i];
    for (size_t s = 0; s < p->nst; s++) {
        names[s] = p->st[s].name;
        for (size_t i = 0; i < points; i++) {
            const struct cell *c = plan_cell(p, i, s);
            for (int m = 0; m < 3; m++)
                y[(size_t)m * count + s * points + i] =
                    c->runs ? measure(c, charted[m]) : NAN;
        }
    }
    const struct svg_chart charts[] = {
        {"seconds", y}, {"nodes", y + count}, {"checks", y + 2 * count}};
    const struct svg_plot plot = {.title = p->title,
                                  .x_label = "n",
                                  .x = x,
                                  .npoints = points,
                                  .series = names,
                                  .nseries = p->nst,
                                  .charts = charts,
                                  .ncharts = 3};
    svg_plot_write(out, &plot); /* a failed write shows in finish_file */
    free(x);
    free(y);
    free(names);
}

/* Close a file the results went to; an error at its key if writing it
 * failed (a full disk, say). */
static int finish_file(FILE **f, const char *path, struct cs_pos pos,
                       struct cs_error *err)
{
    if (!*f)
        return 0;
    int failed = ferror(*f);
    failed |= fclose(*f);
    *f = NULL;
    return failed ? cs_error_at(err, pos, "cannot write '%s'", path) : 0;
}

int compare_report(struct plan *p, struct cs_error *err)
{
    if (cs_config_enum(plan_cell(p, 0, 0)->cfg, "output.format") ==
        CS_FORMAT_JSON)
        print_json(p);
    else
        print_table(p);
    if (p->csv_file)
        write_csv(p, p->csv_file);
    if (p->plot_file)
        write_plot(p, p->plot_file);
    int rc = finish_file(&p->csv_file, p->csv, p->csv_pos, err);
    return rc | finish_file(&p->plot_file, p->plot, p->plot_pos, err);
}
