/* compare.c - csearch compare: one config, strategies x values of n.
 *
 * Every (n, strategy) pair gets a config of its own (the file, the command
 * line's --set, the strategy's keys, then params.n) and a job, all set up
 * before anything runs: a bad key fails with its position in the compare
 * section and nothing on stdout.  Runs go in rounds (each round every n and
 * every strategy, so repeated timings alternate A B A B); seconds are the
 * median over the rounds, counts those of the first.  Files named by the
 * section are opened before the first run, so a path that cannot be
 * written is an error at its key, not after a long comparison.
 */
#define _POSIX_C_SOURCE 200809L
#include "compare.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "output.h"
#include "svgplot.h"

#define MAX_NS 1000
#define MAX_STRATEGIES 32
#define MAX_REPEAT 100

/* One key a strategy overrides: "strategy.state=set" and where the value
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
    bool ready;         /* job set up (and to be freed) */
    int runs;           /* rounds done */
    enum cs_status status;
    struct cs_stats stats;
    double *seconds;    /* one per round */
    double median;
};

struct plan {
    const char *path;
    const char *const *sets;
    int nsets;
    int64_t *ns;           /* the values of n; none: the config's own */
    struct cs_pos *n_pos;
    size_t nn;
    struct strategy *st;
    size_t nst;
    int repeat;
    bool cpu;              /* compare.clock: cpu (else wall) */
    const char *csv, *plot, *title;
    struct cs_pos csv_pos, plot_pos;
    FILE *csv_file, *plot_file;
    struct cell *cells;    /* cells[i * nst + s]: n number i, strategy s */
};

static size_t columns(const struct plan *p) { return p->nn ? p->nn : 1; }

static struct cell *cell_at(const struct plan *p, size_t i, size_t s)
{
    return &p->cells[i * p->nst + s];
}

/* ---- reading the compare section ---------------------------------------- */

static const char *const compare_keys[] = {
    "n", "strategies", "repeat", "clock", "csv", "plot", "title", NULL};
static const char *const range_keys[] = {"from", "to", "step", NULL};
static const char *const strategy_keys[] = {"name", "set", NULL};

/* "unknown key 'compare.x'; did you mean 'compare.n'?", as config.c says
 * it: the nearest known key if it is within a third of the length. */
static int unknown_key(struct cs_error *err, struct cs_pos pos,
                       const char *prefix, const char *key,
                       const char *const *known)
{
    char full[256], best[256] = "";
    size_t best_distance = (size_t)-1;
    snprintf(full, sizeof full, "%s.%s", prefix, key);
    for (; *known; known++) {
        char candidate[256];
        snprintf(candidate, sizeof candidate, "%s.%s", prefix, *known);
        size_t d = cs_edit_distance(full, candidate);
        if (d < best_distance) {
            best_distance = d;
            snprintf(best, sizeof best, "%s", candidate);
        }
    }
    size_t len = strlen(full), threshold = len / 3 > 2 ? len / 3 : 2;
    if (best_distance <= threshold)
        return cs_error_at(err, pos, "unknown key '%s'; did you mean '%s'?",
                           full, best);
    return cs_error_at(err, pos, "unknown key '%s'", full);
}

/* Every key of map is one of known. */
static int check_keys(const struct cs_node *map, const char *prefix,
                      const char *const *known, struct cs_error *err)
{
    for (size_t i = 0; i < cs_node_len(map); i++) {
        const char *key = cs_node_key(map, i);
        const char *const *k = known;
        while (*k && strcmp(*k, key))
            k++;
        if (!*k)
            return unknown_key(err, cs_node_key_pos(map, i), prefix, key,
                               known);
    }
    return 0;
}

static int scalar_text(const struct cs_node *node, const char *name,
                       const char **out, struct cs_error *err)
{
    *out = cs_node_text(node);
    if (!*out)
        return cs_error_at(err, cs_node_pos(node), "'%s' must be a string",
                           name);
    return 0;
}

static void add_n(struct plan *p, int64_t n, struct cs_pos pos)
{
    p->ns = cs_xrealloc(p->ns, (p->nn + 1) * sizeof *p->ns);
    p->n_pos = cs_xrealloc(p->n_pos, (p->nn + 1) * sizeof *p->n_pos);
    p->ns[p->nn] = n;
    p->n_pos[p->nn++] = pos;
}

/* n: 10 | n: [6, 8, 10] | n: {from: 1, to: 11, step: 1} */
static int read_n(struct plan *p, const struct cs_node *node,
                  struct cs_error *err)
{
    int64_t v;
    switch (cs_node_kind(node)) {
    case CS_NODE_SCALAR:
        if (cs_node_int(node, "compare.n", &v, err))
            return -1;
        add_n(p, v, cs_node_pos(node));
        return 0;
    case CS_NODE_SEQ:
        if (cs_node_len(node) == 0)
            return cs_error_at(err, cs_node_pos(node),
                               "'compare.n' is an empty list");
        if (cs_node_len(node) > MAX_NS)
            return cs_error_at(err, cs_node_pos(node),
                               "'compare.n' lists more than %d values",
                               MAX_NS);
        for (size_t i = 0; i < cs_node_len(node); i++) {
            const struct cs_node *item = cs_node_at(node, i);
            if (cs_node_int(item, "compare.n", &v, err))
                return -1;
            if (p->nn && v <= p->ns[p->nn - 1])
                return cs_error_at(err, cs_node_pos(item),
                                   "'compare.n' must increase: %" PRId64
                                   " after %" PRId64,
                                   v, p->ns[p->nn - 1]);
            add_n(p, v, cs_node_pos(item));
        }
        return 0;
    case CS_NODE_MAP:
        break;
    }
    if (check_keys(node, "compare.n", range_keys, err))
        return -1;
    const struct cs_node *from = cs_node_get(node, "from");
    const struct cs_node *to = cs_node_get(node, "to");
    const struct cs_node *step = cs_node_get(node, "step");
    int64_t lo, hi, by = 1;
    if (!from || !to)
        return cs_error_at(err, cs_node_pos(node),
                           "missing key 'compare.n.%s'", from ? "to" : "from");
    if (cs_node_int(from, "compare.n.from", &lo, err) ||
        cs_node_int(to, "compare.n.to", &hi, err) ||
        (step && cs_node_int(step, "compare.n.step", &by, err)))
        return -1;
    if (hi < lo)
        return cs_error_at(err, cs_node_pos(to),
                           "'compare.n.to' must not be below compare.n.from "
                           "(%" PRId64 "), not %" PRId64,
                           lo, hi);
    if (by < 1)
        return cs_error_at(err, cs_node_pos(step),
                           "'compare.n.step' must be at least 1, not %" PRId64,
                           by);
    if ((hi - lo) / by >= MAX_NS)
        return cs_error_at(err, cs_node_pos(node),
                           "'compare.n' spans more than %d values", MAX_NS);
    for (int64_t n = lo; n <= hi; n += by)
        add_n(p, n, cs_node_pos(from));
    return 0;
}

/* One strategy: {name: NAME, set: {dotted.key: value, ...}} */
static int read_strategy(struct plan *p, const struct cs_node *node,
                         size_t index, struct cs_error *err)
{
    char where[64];
    snprintf(where, sizeof where, "compare.strategies[%zu]", index + 1);
    if (cs_node_kind(node) != CS_NODE_MAP)
        return cs_error_at(err, cs_node_pos(node),
                           "'%s' must be a mapping {name, set}", where);
    if (check_keys(node, where, strategy_keys, err))
        return -1;
    struct strategy *st = &p->st[p->nst];
    const struct cs_node *name = cs_node_get(node, "name");
    if (!name)
        return cs_error_at(err, cs_node_pos(node), "missing key '%s.name'",
                           where);
    if (scalar_text(name, "name", &st->name, err))
        return -1;
    for (size_t s = 0; s < p->nst; s++)
        if (!strcmp(p->st[s].name, st->name))
            return cs_error_at(err, cs_node_pos(name),
                               "strategy name '%s' is used twice", st->name);
    p->nst++;
    const struct cs_node *set = cs_node_get(node, "set");
    if (!set)
        return 0; /* the config as it is */
    if (cs_node_kind(set) != CS_NODE_MAP)
        return cs_error_at(err, cs_node_pos(set),
                           "'%s.set' must be a mapping of keys to values "
                           "(strategy.state: set)",
                           where);
    st->sets = cs_xcalloc(cs_node_len(set) + 1, sizeof *st->sets);
    for (size_t i = 0; i < cs_node_len(set); i++) {
        const char *key = cs_node_key(set, i);
        const struct cs_node *value = cs_node_at(set, i);
        struct cs_pos key_pos = cs_node_key_pos(set, i);
        if (!cs_node_text(value))
            return cs_error_at(err, cs_node_pos(value),
                               "'%s' in %s.set needs a single value; write "
                               "dotted keys (strategy.state: set)",
                               key, where);
        if (!strncmp(key, "compare", 7) && (!key[7] || key[7] == '.'))
            return cs_error_at(err, key_pos,
                               "a strategy cannot set '%s'", key);
        if (p->nn && !strcmp(key, "params.n"))
            return cs_error_at(err, key_pos,
                               "a strategy cannot set 'params.n': "
                               "compare.n gives it");
        size_t len = strlen(key) + strlen(cs_node_text(value)) + 2;
        struct overlay *ov = &st->sets[st->nsets++];
        ov->assign = cs_xmalloc(len);
        snprintf(ov->assign, len, "%s=%s", key, cs_node_text(value));
        ov->pos = cs_node_pos(value);
    }
    return 0;
}

static int read_plan(struct plan *p, const struct cs_config *cfg,
                     struct cs_error *err)
{
    const struct cs_node *section = cs_config_node(cfg, "compare");
    if (!section)
        return cs_error_at(err, cs_config_missing_pos(cfg, "compare"),
                           "no 'compare' section: nothing to compare "
                           "(docs/compare.md)");
    if (cs_node_kind(section) != CS_NODE_MAP)
        return cs_error_at(err, cs_node_pos(section),
                           "'compare' must be a mapping");
    if (check_keys(section, "compare", compare_keys, err))
        return -1;
    /* n first: a strategy may not set params.n when it is given */
    const struct cs_node *n = cs_node_get(section, "n");
    if (n && read_n(p, n, err))
        return -1;

    const struct cs_node *list = cs_node_get(section, "strategies");
    if (!list)
        return cs_error_at(err, cs_node_pos(section),
                           "missing key 'compare.strategies'");
    if (cs_node_kind(list) != CS_NODE_SEQ || cs_node_len(list) == 0)
        return cs_error_at(err, cs_node_pos(list),
                           "'compare.strategies' must be a non-empty list of "
                           "{name, set} mappings");
    if (cs_node_len(list) > MAX_STRATEGIES)
        return cs_error_at(err, cs_node_pos(list),
                           "'compare.strategies' lists more than %d "
                           "strategies",
                           MAX_STRATEGIES);
    p->st = cs_xcalloc(cs_node_len(list), sizeof *p->st);
    for (size_t i = 0; i < cs_node_len(list); i++)
        if (read_strategy(p, cs_node_at(list, i), i, err))
            return -1;

    int64_t repeat = 1;
    const struct cs_node *node = cs_node_get(section, "repeat");
    if (node && cs_node_int(node, "compare.repeat", &repeat, err))
        return -1;
    if (repeat < 1 || repeat > MAX_REPEAT)
        return cs_error_at(err, cs_node_pos(node),
                           "'compare.repeat' must be between 1 and %d, not "
                           "%" PRId64,
                           MAX_REPEAT, repeat);
    p->repeat = (int)repeat;
    if ((node = cs_node_get(section, "csv"))) {
        if (scalar_text(node, "compare.csv", &p->csv, err))
            return -1;
        p->csv_pos = cs_node_pos(node);
    }
    if ((node = cs_node_get(section, "plot"))) {
        if (scalar_text(node, "compare.plot", &p->plot, err))
            return -1;
        p->plot_pos = cs_node_pos(node);
        if (!p->nn)
            return cs_error_at(err, p->plot_pos,
                               "a plot needs compare.n (its x axis)");
    }
    if ((node = cs_node_get(section, "clock"))) {
        const char *clock;
        if (scalar_text(node, "compare.clock", &clock, err))
            return -1;
        if (strcmp(clock, "wall") && strcmp(clock, "cpu"))
            return cs_error_at(err, cs_node_pos(node),
                               "unknown value '%s' for 'compare.clock'; "
                               "expected one of: wall, cpu",
                               clock);
        p->cpu = !strcmp(clock, "cpu");
    }
    p->title = p->path;
    if ((node = cs_node_get(section, "title")) &&
        scalar_text(node, "compare.title", &p->title, err))
        return -1;
    return 0;
}

/* ---- setting up every run ----------------------------------------------- */

/* An error of run (i, s) said where the strategy's key or n stands in the
 * compare section (the run's config received them as --set overrides), and
 * which run it was. */
static int place_error(const struct plan *p, size_t i, size_t s,
                       struct cs_error *err)
{
    const struct strategy *st = &p->st[s];
    char origin[300], msg[sizeof err->msg];
    const struct cs_pos *pos = NULL;
    for (size_t k = 0; k < st->nsets; k++) {
        snprintf(origin, sizeof origin, "--set %s", st->sets[k].assign);
        if (!strcmp(err->file, origin))
            pos = &st->sets[k].pos;
    }
    if (p->nn) {
        snprintf(origin, sizeof origin, "--set params.n=%" PRId64, p->ns[i]);
        if (!strcmp(err->file, origin))
            pos = &p->n_pos[i];
    }
    memcpy(msg, err->msg, sizeof msg);
    struct cs_pos at = {err->file, err->line, err->col};
    char file[sizeof err->file];
    if (!pos) { /* a key of the file or the command line: keep its place */
        memcpy(file, err->file, sizeof file);
        at.file = file;
        pos = &at;
    }
    if (p->nn)
        return cs_error_at(err, *pos, "strategy '%s', n = %" PRId64 ": %s",
                           st->name, p->ns[i], msg);
    return cs_error_at(err, *pos, "strategy '%s': %s", st->name, msg);
}

static int setup_cell(struct plan *p, size_t i, size_t s,
                      const struct cs_registry *reg, struct cs_error *err)
{
    struct cell *c = cell_at(p, i, s);
    const struct strategy *st = &p->st[s];
    if (cs_config_load(&c->cfg, p->path, err))
        return -1;
    for (int k = 0; k < p->nsets; k++)
        if (cs_config_set(c->cfg, p->sets[k], err))
            return -1;
    for (size_t k = 0; k < st->nsets; k++)
        if (cs_config_set(c->cfg, st->sets[k].assign, err))
            return place_error(p, i, s, err);
    if (p->nn) {
        char n[64];
        snprintf(n, sizeof n, "params.n=%" PRId64, p->ns[i]);
        if (cs_config_set(c->cfg, n, err))
            return place_error(p, i, s, err);
    }
    if (cs_job_setup(&c->job, c->cfg, reg, cli_options, err))
        return place_error(p, i, s, err);
    c->ready = true;
    if (c->job.problem.setup_instance) { /* its runs are per instance */
        cs_error_set(err, p->path, "a batch (a file of instances) cannot be "
                                   "compared");
        return place_error(p, i, s, err);
    }
    c->seconds = cs_xcalloc((size_t)p->repeat, sizeof *c->seconds);
    return 0;
}

static int open_output(const char *path, struct cs_pos pos, FILE **out,
                       struct cs_error *err)
{
    if (!path)
        return 0;
    *out = fopen(path, "w");
    if (!*out)
        return cs_error_at(err, pos, "cannot write '%s': %s", path,
                           strerror(errno));
    return 0;
}

/* ---- running ------------------------------------------------------------ */

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, compare_doubles);
    return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

/* CPU time of the process: on a loaded machine it moves far less than the
 * wall clock, and for a run on one thread it is the search's own. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every round in full unless Ctrl-C stops a run; returns -1 if the engine
 * refuses a run (err set), else whether it was interrupted. */
static int run_rounds(struct plan *p, volatile sig_atomic_t *stop,
                      struct cs_error *err)
{
    for (int r = 0; r < p->repeat; r++)
        for (size_t i = 0; i < columns(p); i++)
            for (size_t s = 0; s < p->nst; s++) {
                struct cell *c = cell_at(p, i, s);
                struct cs_run run;
                cs_job_run(&c->job, &run);
                run.stop = stop;
                double cpu = p->cpu ? cpu_seconds() : 0;
                if (cs_search(&run, err))
                    return place_error(p, i, s, err);
                if (p->cpu)
                    run.stats.seconds = cpu_seconds() - cpu;
                if (r == 0) {
                    c->stats = run.stats;
                    c->status = run.status;
                }
                c->seconds[c->runs++] = run.stats.seconds;
                c->median = median(c->seconds, c->runs);
                if (run.status == CS_INTERRUPTED) {
                    c->status = CS_INTERRUPTED;
                    return 1;
                }
            }
    return 0;
}

/* ---- the results -------------------------------------------------------- */

enum measure { M_NODES, M_CHECKS, M_SECONDS };

static double measure(const struct cell *c, enum measure m)
{
    switch (m) {
    case M_NODES:
        return (double)c->stats.nodes;
    case M_CHECKS:
        return (double)c->stats.checks;
    default:
        return c->median;
    }
}

/* Cell (i, s) against the first strategy at the same n; NaN when the first
 * did not run or measured 0. */
static double ratio(const struct plan *p, size_t i, size_t s, enum measure m)
{
    const struct cell *base = cell_at(p, i, 0), *c = cell_at(p, i, s);
    double b = measure(base, m);
    return base->runs && c->runs && b > 0 ? measure(c, m) / b : NAN;
}

#define NCOLS 11
static const char *const headers[NCOLS] = {
    "n",      "strategy", "solutions", "nodes",    "checks",   "fails",
    "seconds", "x nodes", "x checks",  "x seconds", "status"};

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
    const struct cell *c = cell_at(p, i, s);
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
    format_ratio(text[7], 32, ratio(p, i, s, M_NODES));
    format_ratio(text[8], 32, ratio(p, i, s, M_CHECKS));
    format_ratio(text[9], 32, ratio(p, i, s, M_SECONDS));
    snprintf(text[10], 32, "%s", cs_status_name(c->status));
}

static enum cs_status overall(const struct plan *p)
{
    enum cs_status status = CS_COMPLETE;
    for (size_t k = 0; k < columns(p) * p->nst; k++) {
        const struct cell *c = &p->cells[k];
        if (c->runs && c->status == CS_INTERRUPTED)
            return CS_INTERRUPTED;
        if (c->runs && c->status == CS_LIMIT)
            status = CS_LIMIT;
    }
    return status;
}

/* One line of the table; or, with print false, widen the columns to fit
 * it.  The strategy is left-aligned, every number right-aligned. */
static void table_line(const char *const *cells, int ncols, size_t *width,
                       bool print)
{
    for (int k = 0; k < ncols; k++) {
        if (print)
            printf(k == 1 ? "  %-*s" : k ? "  %*s" : "%*s", (int)width[k],
                   cells[k]);
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
    int ncols = overall(p) == CS_COMPLETE ? NCOLS - 1 : NCOLS;
    for (int k = 0; k < NCOLS; k++)
        cells[k] = text[k];
    for (int print = 0; print < 2; print++) { /* measure, then print */
        table_line(headers, ncols, width, print);
        for (size_t i = 0; i < columns(p); i++)
            for (size_t s = 0; s < p->nst; s++)
                if (cell_at(p, i, s)->runs) {
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

static void json_ratio(FILE *out, const char *name, double r)
{
    if (isnan(r))
        fprintf(out, "\"%s\": null", name);
    else
        fprintf(out, "\"%s\": %.6g", name, r);
}

static void json_path(FILE *out, const char *path)
{
    if (path)
        out_json_string(out, path);
    else
        fputs("null", out);
}

static void print_json(const struct plan *p)
{
    const struct cs_job *job = &cell_at(p, 0, 0)->job;
    fputs("{\"config\": ", stdout);
    out_json_string(stdout, p->path);
    fputs(", \"model\": ", stdout);
    out_json_string(stdout, job->model->name);
    fputs(", \"task\": ", stdout);
    out_json_string(stdout, cs_task_name(job->task));
    printf(", \"repeat\": %d, \"clock\": \"%s\", \"status\": ", p->repeat,
           p->cpu ? "cpu" : "wall");
    out_json_string(stdout, cs_status_name(overall(p)));
    fputs(", \"rows\": [", stdout);
    bool first = true;
    for (size_t i = 0; i < columns(p); i++)
        for (size_t s = 0; s < p->nst; s++) {
            const struct cell *c = cell_at(p, i, s);
            if (!c->runs)
                continue;
            fputs(first ? "{\"n\": " : ", {\"n\": ", stdout);
            first = false;
            if (p->nn)
                printf("%" PRId64, p->ns[i]);
            else
                fputs("null", stdout);
            fputs(", \"strategy\": ", stdout);
            out_json_string(stdout, p->st[s].name);
            fputs(", \"status\": ", stdout);
            out_json_string(stdout, cs_status_name(c->status));
            printf(", \"solutions\": %" PRIu64 ", \"nodes\": %" PRIu64
                   ", \"checks\": %" PRIu64 ", \"fails\": %" PRIu64
                   ", \"seconds\": %.6f, \"ratio\": {",
                   c->stats.solutions, c->stats.nodes, c->stats.checks,
                   c->stats.fails, c->median);
            json_ratio(stdout, "nodes", ratio(p, i, s, M_NODES));
            fputs(", ", stdout);
            json_ratio(stdout, "checks", ratio(p, i, s, M_CHECKS));
            fputs(", ", stdout);
            json_ratio(stdout, "seconds", ratio(p, i, s, M_SECONDS));
            fputs("}}", stdout);
        }
    fputs("], \"csv\": ", stdout);
    json_path(stdout, p->csv);
    fputs(", \"plot\": ", stdout);
    json_path(stdout, p->plot);
    fputs("}\n", stdout);
}

/* RFC 4180: a field with a comma, quote or line break is quoted. */
static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void write_csv(const struct plan *p, FILE *out)
{
    fputs("n,strategy,status,solutions,nodes,checks,fails,seconds,"
          "nodes_ratio,checks_ratio,seconds_ratio\n",
          out);
    char text[NCOLS][32];
    for (size_t i = 0; i < columns(p); i++)
        for (size_t s = 0; s < p->nst; s++) {
            if (!cell_at(p, i, s)->runs)
                continue;
            row_text(p, i, s, text);
            fputs(p->nn ? text[0] : "", out);
            fputc(',', out);
            csv_field(out, p->st[s].name);
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
            const struct cell *c = cell_at(p, i, s);
            for (int m = 0; m < 3; m++)
                y[(size_t)m * count + s * points + i] =
                    c->runs ? measure(c, charted[m]) : NAN;
        }
    }
    const struct svg_chart charts[] = {
        {"seconds", y}, {"nodes", y + count}, {"checks", y + 2 * count}};
    const struct svg_plot plot = {
        .title = p->title, .x_label = "n", .x = x, .npoints = points,
        .series = names, .nseries = p->nst,
        .charts = charts, .ncharts = 3};
    svg_plot_write(out, &plot); /* a failed write shows in finish_file */
    free(x);
    free(y);
    free(names);
}

/* Close a file the results went to; an error at its key if writing it
 * failed (a full disk, say). */
static int finish_file(FILE *f, const char *path, struct cs_pos pos,
                       struct cs_error *err)
{
    if (!f)
        return 0;
    int failed = ferror(f);
    if (fclose(f) || failed)
        return cs_error_at(err, pos, "cannot write '%s'", path);
    return 0;
}

static void plan_free(struct plan *p)
{
    for (size_t k = 0; p->cells && k < columns(p) * p->nst; k++) {
        struct cell *c = &p->cells[k];
        if (c->ready)
            cs_job_free(&c->job);
        cs_config_free(c->cfg);
        free(c->seconds);
    }
    for (size_t s = 0; s < p->nst; s++) {
        for (size_t k = 0; k < p->st[s].nsets; k++)
            free(p->st[s].sets[k].assign);
        free(p->st[s].sets);
    }
    if (p->csv_file)
        fclose(p->csv_file);
    if (p->plot_file)
        fclose(p->plot_file);
    free(p->st);
    free(p->cells);
    free(p->ns);
    free(p->n_pos);
}

int compare_run(const struct cs_config *cfg, const char *path,
                const char *const *sets, int nsets,
                const struct cs_registry *reg, volatile sig_atomic_t *stop,
                struct cs_error *err)
{
    struct plan p = {.path = path, .sets = sets, .nsets = nsets};
    int rc = read_plan(&p, cfg, err);
    if (!rc) {
        p.cells = cs_xcalloc(columns(&p) * p.nst, sizeof *p.cells);
        for (size_t i = 0; !rc && i < columns(&p); i++)
            for (size_t s = 0; !rc && s < p.nst; s++)
                rc = setup_cell(&p, i, s, reg, err);
    }
    if (!rc)
        rc = open_output(p.csv, p.csv_pos, &p.csv_file, err);
    if (!rc)
        rc = open_output(p.plot, p.plot_pos, &p.plot_file, err);
    int interrupted = rc ? 0 : run_rounds(&p, stop, err);
    if (rc || interrupted < 0) {
        plan_free(&p);
        return -1;
    }

    if (cs_config_enum(cell_at(&p, 0, 0)->cfg, "output.format") ==
        CS_FORMAT_JSON)
        print_json(&p);
    else
        print_table(&p);
    if (p.csv_file)
        write_csv(&p, p.csv_file);
    if (p.plot_file)
        write_plot(&p, p.plot_file);
    rc |= finish_file(p.csv_file, p.csv, p.csv_pos, err);
    p.csv_file = NULL;
    rc |= finish_file(p.plot_file, p.plot, p.plot_pos, err);
    p.plot_file = NULL;
    enum cs_status status = overall(&p);
    plan_free(&p);
    if (rc)
        return -1;
    return status == CS_INTERRUPTED ? 130 : status == CS_LIMIT ? 3 : 0;
}
