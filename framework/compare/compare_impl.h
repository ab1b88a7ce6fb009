/* compare_impl.h - what compare_plan.c (reading the section, setting up and
 * running every pair of n and strategy) hands compare_report.c (the table,
 * JSON, CSV and plot); the report calls nothing of the plan's.
 * cells[i * nst + s] holds value of n number i and strategy s; a cell with
 * runs == 0 never ran.
 */
#ifndef CSEARCH_COMPARE_IMPL_H
#define CSEARCH_COMPARE_IMPL_H

#include <stdio.h>

#include "compare.h"

/* One key a strategy overrides ("strategy.state=set") and where its value
 * stands in the file. */
struct overlay {
    char *assign;
    struct cs_pos pos;
};

struct strategy {
    const char *name; /* the config tree's */
    struct overlay *sets;
    size_t nsets;
};

struct cell {
    struct cs_config *cfg;
    struct cs_job job;
    bool ready; /* job set up (and to be freed) */
    int runs;   /* rounds done */
    enum cs_status status;
    struct cs_stats stats;
    double *seconds; /* one per round */
    double median;
};

struct plan {
    const struct compare_request *req;
    struct cs_option *others; /* the config's other top-level keys */
    int64_t *ns;              /* the values of n; none: the config's own */
    struct cs_pos *n_pos;
    size_t nn;
    struct strategy *st;
    size_t nst;
    int repeat;
    bool cpu; /* compare.clock: cpu (else wall) */
    const char *csv, *plot, *title, *tree;
    struct cs_pos csv_pos, plot_pos, tree_pos;
    FILE *csv_file, *plot_file, *tree_file;
    struct cell *cells;
};

static inline size_t plan_columns(const struct plan *p)
{
    return p->nn ? p->nn : 1;
}

static inline struct cell *plan_cell(const struct plan *p, size_t i, size_t s)
{
    return &p->cells[i * p->nst + s];
}

/* ---- compare_report.c -------------------------------------------------- */

/* complete, or limit if a run stopped at one, or interrupted */
enum cs_status plan_status(const struct plan *p);

/* The results on stdout (a table, or JSON with output.format json) and in
 * the plan's open files, which are closed: -1 with err at the file's key
 * if writing one failed. */
int compare_report(struct plan *p, struct cs_error *err);

#endif
