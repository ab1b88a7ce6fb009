/* shifts/setup.c - the model: its options, and setup from a config.
 *
 * Setup reads the problem (the config's spec or a benchmark file, and a
 * roster to check), takes the strategy options, builds the Lagrangian
 * tables if asked, and lays out the search state.  Enumeration options are
 * read through the X-macro tables that also give their names.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/colgen.h"
#include "shifts/search.h"

/* The strategies, as enum constants and as the options' names, in one
 * table each (SHF_WEEKDAYS is in shifts.h: spec.c reads it too). */
#define SHF_ORDERS(X)                                                          \
    X(SHF_ORDER_DAY, "day")                                                    \
    X(SHF_ORDER_STAFF, "staff")
#define SHF_BOUNDS(X)                                                          \
    X(SHF_BOUND_DAYS, "days")                                                  \
    X(SHF_BOUND_WEEKENDS, "weekends")                                          \
    X(SHF_BOUND_LAGRANGE, "lagrange")                                          \
    X(SHF_BOUND_AUTO, "auto")

enum shf_order { SHF_ORDERS(SHF_ENUM_CONSTANT) };
enum shf_bound { SHF_BOUNDS(SHF_ENUM_CONSTANT) };

/* optimize: local moves between rounds above this many cells, wherever
 * rounds run (with exchanges in a row they end lower on Instances 3 and 4,
 * 5 higher by 5), bursts ending after this
 * many steps without a new best, a swap weighing this many of its moves
 * (measured: docs/shifts.md, "Local moves") */
#define SHF_LS_CELLS SHF_PROVE_CELLS
#define SHF_LS_IDLE 20000
#define SHF_LS_SAMPLE 16
/* and a burst again after this many rounds without a new best */
#define SHF_LS_STALL 50
/* the Lagrangian set-up's steps by default stop when they have taken
 * this share of limits.seconds (the limit is the whole run's, set-up and
 * all), so a short limit leaves the search its time: at 58 s none stops
 * (the most, on Instances 11, 12 and 21-24, took 4.2-7.8 s in runs
 * here, the machine's pace varying), where a
 * share of 0.05 cut the root bounds (11 3335 -> 3081, 12 2301 -> 2178,
 * 21 324 -> 0, 22 2936 -> 0) and 0.1 stopped 21 at 406 steps of 457
 * (324 -> 0) */
#define SHF_LAGRANGE_SHARE 0.15

/* the first roster's restarts: a row that has taken this many nodes is
 * calmed and begun again (rules.c, shf_restart).  A row that thrashes does
 * so from its first thousands of nodes on: from 20000 to 2000 the first
 * roster came in 0.44 s instead of 5.00 on Instance21, 0.32 instead of
 * 4.09 on 24, 0.10 instead of 0.70 on 23, where 1000 made 22's slower
 * (1.58 s against 1.21); 59 s side by side: 24 47934 against 48728, 21
 * 21647 against 21686, 13 1477 and 1456 against 1471 and 1472 */
#define SHF_RESTART_NODES 2000

/* the first roster by the plain value order above this many cells */
#define SHF_PLAIN_FIRST_CELLS 30000

/* the LP bound's share of limits.seconds by default, and its seconds
 * without a limit */
#define SHF_COLGEN_SHARE 0.25
#define SHF_COLGEN_SECONDS 60.0
/* and its dives (a roster from the LP, colgen.c) until this share of
 * limits.seconds from the LP's start (twice SHF_COLGEN_SECONDS without a
 * limit; strategy.colgen_seconds set: that for both) */
#define SHF_DIVE_SHARE 0.4
/* and branch and price, then large neighbourhoods of its roster (colgen.c,
 * colbranch.c), until this share of limits.seconds from the LP's start
 * (these seconds past the dives without a limit) */
#define SHF_PROVE_SHARE 0.7
#define SHF_PROVE_SECONDS 300.0
/* auto takes the LP bound up to this size only (colgen() says why) */
#define SHF_COLGEN_CELLS 2000
#define SHF_COLGEN_SHIFTS 10
#define SHF_COLGEN_DAYS 84

/* optimize by one branch and bound up to this many cells, rounds above */
#define SHF_PROVE_CELLS 200

/* The days bound at the root: what every day's cover must cost with no
 * one rostered yet (a state of the layout without Lagrangian tables). */
static int64_t root_days_bound(struct shf_problem *p)
{
    shf_layout(p);
    struct shf_state *st = cs_xcalloc(1, p->state_size);
    shf_init(st, p);
    int64_t bound = st->requests + st->cover;
    free(st);
    return bound;
}

static const char *const format_names[] = {"curtois", NULL};
static const char *const order_names[] = {SHF_ORDERS(SHF_ENUM_NAME) NULL};
static const char *const bound_names[] = {SHF_BOUNDS(SHF_ENUM_NAME) NULL};
static const char *const weekday_names[] = {SHF_WEEKDAYS(SHF_ENUM_NAME) NULL};

static const struct cs_option shf_options[] = {
    {.key = "params.instance",
     .type = CS_OPT_STRING,
     .help = "a benchmark file (params.format), instead of the spec below; "
             "relative to the config's folder"},
    {.key = "params.format",
     .type = CS_OPT_ENUM,
     .def = "curtois",
     .choices = format_names,
     .help = "format of params.instance: the Shift Scheduling Benchmark's"},
    {.key = "params.days",
     .type = CS_OPT_INT,
     .min = 1,
     .max = SHF_MAX_DAYS,
     .help = "the horizon in days (required without params.instance)"},
    {.key = "params.first_day",
     .type = CS_OPT_ENUM,
     .def = "monday",
     .choices = weekday_names,
     .help = "weekday of day 0 (weekends: Saturday and Sunday)"},
    {.key = "params.shifts",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "shift types: id, minutes, not_followed_by, skill"},
    {.key = "params.staff",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "staff (required without params.instance): id, max_shifts, "
             "min/max_minutes, min/max_consecutive, min_days_off, "
             "max_weekends, days_off, skills"},
    {.key = "params.cover",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "cover: day (or all), shift, need, under, over weights"},
    {.key = "params.shift_on",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "requests to work: staff, day, shift, weight"},
    {.key = "params.shift_off",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "requests not to work: staff, day, shift (none: any), weight"},
    {.key = "params.apart",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "pairs [A, B] of staff who may not work the same shift on a "
             "day (a hard rule)"},
    {.key = "params.roster",
     .type = CS_OPT_STRING,
     .help = "check this roster (CSV as output.format csv writes it) "
             "instead of searching: a broken hard rule is an error at its "
             "cell, a legal roster gets status checked and its cost; with "
             "the keys below, the published roster to re-roster"},
    {.key = "params.from_day",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = SHF_MAX_DAYS,
     .help = "re-rostering params.roster: days before this one keep it"},
    {.key = "params.change_weight",
     .type = CS_OPT_INT,
     .def = "1",
     .min = 0,
     .max = 1000000,
     .help = "re-rostering: the penalty of each cell from from_day on that "
             "differs from params.roster"},
    {.key = "params.change",
     .type = CS_OPT_STRING,
     .help = "re-rostering: a CSV of changes, unavailable,STAFF,DAY... and "
             "cover,DAY,SHIFT,NEED[,UNDER,OVER] (a day D or D-E)"},
    {.key = "params.pinned",
     .type = CS_OPT_STRING,
     .help = "re-rostering: a CSV of STAFF,DAY,SHIFT that must hold (SHIFT "
             "empty or -: a day off)"},
    {.key = "params.compare",
     .type = CS_OPT_STRING,
     .help = "a second roster (CSV): the roster printed gets its penalty "
             "by rule beside this one's and the change"},
    {.key = "params.fairness.nights",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = 100000,
     .help = "weight of the soft rule balancing night shifts within each "
             "contract group: times the sum of squared deviations from "
             "the group's mean (0 = off)"},
    {.key = "params.fairness.weekends",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = 100000,
     .help = "the same for weekends worked (0 = off)"},
    {.key = "strategy.order",
     .type = CS_OPT_ENUM,
     .def = "staff",
     .choices = order_names,
     .help = "cells day by day (every staff member's day 0 first) or staff "
             "by staff"},
    {.key = "strategy.bound",
     .type = CS_OPT_ENUM,
     .def = "auto",
     .choices = bound_names,
     .help = "optimize: the cover bound day by day; weekends: also the "
             "weekend places the staff's weekend limits leave empty; "
             "lagrange: every staff member's cheapest legal row under cover "
             "prices (needs order staff); auto: lagrange under order staff, "
             "else days, and days above 30000 cells when lagrange has not "
             "beaten it by half its steps"},
    {.key = "strategy.lagrange_states",
     .type = CS_OPT_INT,
     .def = "8000000",
     .min = 1,
     .max = 1e10,
     .help = "bound lagrange: most row states (8 bytes each), all staff and "
             "days together; past it rows are priced, and past that too a "
             "named bound lagrange is an error"},
    {.key = "strategy.lagrange_rows",
     .type = CS_OPT_ENUM,
     .def = "auto",
     .choices = (const char *const[]){"auto", "tracked", "priced", NULL},
     .help = "bound lagrange: rows track their minutes and weekends "
             "exactly, or price them with multipliers of their own (a "
             "weaker bound with small tables); auto: tracked where the "
             "tables fit strategy.lagrange_states"},
    {.key = "strategy.lagrange_steps",
     .type = CS_OPT_INT,
     .def = "auto",
     .min = 0,
     .max = 1e9,
     .all_word = "auto",
     .help = "bound lagrange: subgradient steps improving the cover prices "
             "(auto: 500, fewer where the row tables are large, and none "
             "begun after 15% of limits.seconds)"},
    {.key = "strategy.lns_days",
     .type = CS_OPT_INT,
     .def = "14",
     .min = 1,
     .max = SHF_MAX_DAYS,
     .help = "days a neighbourhood frees (at its first size; sizes grow "
             "after rounds that search their neighbourhood out)"},
    {.key = "strategy.lns_staff",
     .type = CS_OPT_INT,
     .def = "8",
     .min = 1,
     .max = SHF_MAX_STAFF,
     .help = "staff members a neighbourhood frees"},
    {.key = "strategy.neighbourhoods",
     .type = CS_OPT_STRING,
     .def = "rows,staff",
     .help = "the neighbourhoods rounds take in turn, comma-separated: "
             "staff (lns_staff over lns_days), rows (lns_rows whole rows), "
             "cover (around the worst cover line), shift (who works one "
             "shift type most)"},
    {.key = "strategy.lns_grow",
     .type = CS_OPT_BOOL,
     .def = "false",
     .help = "neighbourhood sizes follow the rounds: larger after one "
             "searched out, smaller after one cut short"},
    {.key = "strategy.lns_rows",
     .type = CS_OPT_INT,
     .def = "2",
     .min = 0,
     .max = SHF_MAX_STAFF,
     .help = "the whole-row neighbourhood frees this many rows (0 = never)"},
    {.key = "strategy.colgen_seconds",
     CS_OPT_AUTO_REAL(0, 1e9,
                      "optimize: seconds the LP bound by column generation "
                      "and its dives for a first roster may take at set-up "
                      "(every staff member's rows under the cover's duals), "
                      "0 = none (auto: the LP 25% of limits.seconds, the "
                      "dives until 40%; 60 and 120 without it; 0 under "
                      "limits.nodes or limits.steps, and above 2000 cells, "
                      "10 shift types or 84 days)")},
    {.key = "strategy.prove_seconds",
     CS_OPT_AUTO_REAL(0, 1e9,
                      "optimize: seconds branch and price (the LP bound "
                      "made exact by branching on cells; half, and what "
                      "is left past 30 s of windows) and large "
                      "neighbourhoods of its roster (windows of days searched "
                      "by it) may run at set-up past the dives' deadline, "
                      "from their roster; a proof "
                      "ends the run as optimal, else its bound is every "
                      "node's floor, 0 = none (auto: until 70% of "
                      "limits.seconds "
                      "from the LP's start; 300 s past the dives without a "
                      "limit; 0 where the LP is not taken)")},
    SHF_BURST_OPTIONS{.key = NULL},
};

static const char *const neighbourhood_names[] = {
    SHF_NEIGHBOURHOODS(SHF_ENUM_NAME) NULL};

/* strategy.neighbourhoods: kinds by name, comma-separated, at most four. */
static int read_neighbourhoods(struct shf_problem *p,
                               const struct cs_config *cfg,
                               struct cs_error *err)
{
    const char *text = cs_config_str(cfg, "strategy.neighbourhoods");
    p->nb_count = 0;
    for (const char *at = text;;) {
        size_t len = strcspn(at, ",");
        int k = 0;
        while (neighbourhood_names[k] &&
               (strlen(neighbourhood_names[k]) != len ||
                strncmp(neighbourhood_names[k], at, len)))
            k++;
        struct cs_pos pos = cs_config_pos(cfg, "strategy.neighbourhoods");
        if (!neighbourhood_names[k])
            return cs_error_at(err, pos,
                               "'strategy.neighbourhoods': no kind '%.*s' "
                               "(staff, rows, cover, shift)",
                               (int)len, at);
        if (p->nb_count == 4)
            return cs_error_at(err, pos,
                               "'strategy.neighbourhoods': at most four kinds");
        p->nb_kinds[p->nb_count++] = k;
        if (!at[len])
            return 0;
        at += len + 1;
    }
}

/* A file that cannot be read at all is the config key's fault: point there
 * (errors inside the file keep their own line). */
static int repoint(int rc, const struct cs_config *cfg, const char *key,
                   struct cs_error *err)
{
    if (rc && !err->line) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        cs_error_at(err, cs_config_pos(cfg, key), "%s", msg);
    }
    return rc;
}

/* strategy.colgen_seconds and prove_seconds: the LP bound, rounded up and
 * raised by branch and price, as every node's floor (p->lp_floor), and the
 * best roster the dives, the branching and its windows found as
 * the first (p->hint); a proof makes the floor that roster's cost, so the
 * search ends at once as optimal.  A row too large to price leaves it all
 * out under auto. */
static int colgen(struct shf_problem *p, const struct cs_config *cfg,
                  const struct cs_setup *how, struct cs_problem *out,
                  struct cs_error *err)
{
    double seconds = cs_config_real(cfg, "strategy.colgen_seconds");
    double prove = cs_config_real(cfg, "strategy.prove_seconds");
    const bool auto_seconds = seconds < 0;
    /* a run bounded by nodes or steps is meant to be the same each time:
     * no LP (its rounds are timed) */
    /* nor on a ward larger than the benchmark's Instances 1-12 and 14-18,
     * where it was measured to converge or help: Instance13 (120 staff, 18
     * shift types) needs 53 s on two threads, Instance22 (364 days) ends
     * no round in 10 s, and 19 (3360 cells) and 20 (182 days) spend their
     * quarter for no bound; 15 (1890 cells) and 18 (84 days) came in when
     * the pricer left the per-shift limits out until a row broke one */
    const bool small = (int64_t)p->nstaff * p->ndays <= SHF_COLGEN_CELLS &&
                       p->nshifts <= SHF_COLGEN_SHIFTS &&
                       p->ndays <= SHF_COLGEN_DAYS;
    const bool repeatable = how->limits.nodes || how->limits.steps;
    const double limit = how->limits.seconds;
    double until = seconds;
    if (auto_seconds) {
        seconds = repeatable || !small ? 0
                  : limit > 0          ? SHF_COLGEN_SHARE * limit
                                       : SHF_COLGEN_SECONDS;
        until = limit > 0 ? SHF_DIVE_SHARE * limit : 2 * SHF_COLGEN_SECONDS;
    }
    /* the dives and the branching run for a time, not a number of steps:
     * none where the run must repeat */
    if (repeatable)
        until = prove = 0;
    else if (prove < 0)
        prove = seconds <= 0 ? 0
                : limit > 0  ? fmax(0, SHF_PROVE_SHARE * limit - until)
                             : SHF_PROVE_SECONDS;
    cs_problem_chose_real(out, "strategy.colgen_seconds", seconds);
    cs_problem_chose_real(out, "strategy.prove_seconds", prove);
    struct shf_colgen cg;
    if (seconds <= 0)
        return 0;
    signed char *hint = cs_xmalloc((size_t)p->nstaff * (size_t)p->ndays);
    if (shf_colgen_prove(p, seconds, until, prove > 0 ? until + prove : 0,
                         how->threads, hint, &cg, err)) {
        free(hint);
        if (auto_seconds) {
            memset(err, 0, sizeof *err);
            return 0;
        }
        return repoint(-1, cfg, "strategy.colgen_seconds", err);
    }
    p->lp_floor = cg.bp_bound > cg.floor ? cg.bp_bound : cg.floor;
    if (cg.roster_cost >= 0)
        p->hint = hint;
    else
        free(hint);
    return 0;
}

/* One plain search, staff by staff: no bound tables (they cost time and
 * may not fit: Instance24), no restarts or neighbourhoods.  For a roster
 * given to check (params.roster, every cell fixed, so no strategy
 * matters: the framework reports it checked, cs_problem.given), and for a
 * spec with a row that has no legal assignment (its root fails). */
static void setup_plain(struct shf_problem *p, struct cs_problem *out)
{
    p->by_staff = true;
    shf_layout(p);
    out->hooks = shf_model_hooks;
    out->data = p;
    out->free_data = shf_problem_free;
    out->nvars = p->nstaff * p->ndays;
    out->state_size = p->state_size;
}

static int shf_setup(const struct cs_config *cfg, const struct cs_setup *how,
                     struct cs_problem *out, struct cs_error *err)
{
    /* keys first: the bound's tables below take seconds (Instance7 1.7 s);
     * a roster to check reads none of them */
    if (!cs_config_has(cfg, "params.roster") && shf_bursts_check(cfg, how, err))
        return -1;
    struct shf_problem *p = shf_problem_new();
    int rc;
    if (cs_config_has(cfg, "params.instance")) {
        static const char *const spec_keys[] = {
            "params.days",     "params.shifts",
            "params.staff",    "params.cover",
            "params.shift_on", "params.shift_off",
            "params.apart",    NULL};
        for (int i = 0; spec_keys[i]; i++)
            if (cs_config_has(cfg, spec_keys[i])) {
                shf_problem_free(p);
                return cs_error_at(err, cs_config_pos(cfg, spec_keys[i]),
                                   "give params.instance or the roster spec "
                                   "(%s), not both",
                                   spec_keys[i]);
            }
        char *path = cs_config_path(cfg, "params.instance");
        rc = repoint(shf_read_curtois(p, path, err), cfg, "params.instance",
                     err);
        free(path);
    } else {
        rc = shf_read_yaml(p, cfg, err);
    }
    if (!rc && cs_config_has(cfg, "params.compare")) {
        char *path = cs_config_path(cfg, "params.compare");
        rc = repoint(shf_read_compare(
                         p, path, cs_config_str(cfg, "params.compare"), err),
                     cfg, "params.compare", err);
        free(path);
    }
    if (!rc && cs_config_has(cfg, "params.roster")) {
        char *path = cs_config_path(cfg, "params.roster");
        rc = repoint(shf_read_roster(p, path, err), cfg, "params.roster", err);
        free(path);
    }
    if (!rc)
        rc = shf_setup_reroster(p, cfg, err);
    if (rc) {
        shf_problem_free(p);
        return -1;
    }
    p->fair.nights_weight = (int)cs_config_int(cfg, "params.fairness.nights");
    p->fair.weekends_weight =
        (int)cs_config_int(cfg, "params.fairness.weekends");
    if (p->pin) {
        setup_plain(p, out);
        out->given = true;
        return 0;
    }
    /* a re-roster whose fixed cells break a hard rule on their own: the
     * first such cell gets no value at all (state.c), so the search ends
     * at once, infeasible, and the note says which cells and which rule */
    if (p->reroster && p->reroster->clash[0]) {
        setup_plain(p, out);
        out->note = p->reroster->clash;
        return 0;
    }
    /* a staff member with no legal row: no roster, and why (explain.c);
     * the search then ends at its root */
    if ((p->no_roster = shf_explain(p))) {
        setup_plain(p, out);
        out->note = p->no_roster;
        return 0;
    }
    /* before the bound's tables, which take seconds */
    p->lns_days = (int)cs_config_int(cfg, "strategy.lns_days");
    p->lns_staff = (int)cs_config_int(cfg, "strategy.lns_staff");
    p->lns_rows = (int)cs_config_int(cfg, "strategy.lns_rows");
    p->lns_grow = cs_config_bool(cfg, "strategy.lns_grow");
    if (read_neighbourhoods(p, cfg, err)) {
        shf_problem_free(p);
        return -1;
    }
    p->by_staff = cs_config_enum(cfg, "strategy.order") == SHF_ORDER_STAFF;
    enum shf_bound bound = cs_config_enum(cfg, "strategy.bound");
    if (bound == SHF_BOUND_AUTO)
        bound = p->by_staff && how->task == CS_TASK_OPTIMIZE && !p->pin
                    ? SHF_BOUND_LAGRANGE
                    : SHF_BOUND_DAYS;
    p->weekend_bound = bound == SHF_BOUND_WEEKENDS;
    if (bound == SHF_BOUND_LAGRANGE && !p->by_staff) {
        shf_problem_free(p);
        return cs_error_at(err, cs_config_pos(cfg, "strategy.bound"),
                           "bound lagrange needs order staff");
    }
    const bool auto_bound =
        cs_config_enum(cfg, "strategy.bound") == SHF_BOUND_AUTO;
    if (bound == SHF_BOUND_LAGRANGE && how->task == CS_TASK_OPTIMIZE) {
        int steps = (int)cs_config_int(cfg, "strategy.lagrange_steps");
        /* auto, above SHF_PLAIN_FIRST_CELLS (where the prices order no
         * first roster): the Lagrangian must beat the days bound by half
         * its steps, else it goes */
        double must_beat = -INFINITY;
        if (auto_bound && p->nstaff * p->ndays > SHF_PLAIN_FIRST_CELLS)
            must_beat = (double)root_days_bound(p);
        p->lagrange = shf_lagrange_new(
            p, (size_t)cs_config_int(cfg, "strategy.lagrange_states"), steps,
            steps < 0 ? SHF_LAGRANGE_SHARE * how->limits.seconds : 0,
            cs_config_enum(cfg, "strategy.lagrange_rows"), must_beat,
            how->threads, err);
        if (p->lagrange && p->lagrange->gave_up) {
            shf_lagrange_free(p->lagrange);
            p->lagrange = NULL;
            bound = SHF_BOUND_DAYS;
        } else if (!p->lagrange && auto_bound) {
            bound = SHF_BOUND_DAYS; /* auto: the tables do not fit */
            memset(err, 0, sizeof *err);
        } else if (!p->lagrange) {
            shf_problem_free(p);
            return repoint(-1, cfg, "strategy.bound", err);
        }
    }
    /* the first roster of the largest instances by the plain order: the
     * priced order finds it in many restarts, the plain one at once, and
     * the moves make up its cost (60 s, side by side: Instance23 first
     * roster 1.15 s against 8.23 s, cost 32211 against 39743; 24 4.99 s
     * against 30.10 s, 253747 against 530514); on Instances 20-22 (up to
     * 18200 cells) the priced first roster is found as fast and ends lower
     * (40 s: 6028 against 8945 on 20, 42136 against 58360 on 22) */
    p->plain_first = p->lagrange && p->lagrange->priced &&
                     p->nstaff * p->ndays > SHF_PLAIN_FIRST_CELLS;
    cs_problem_chose(out, "strategy.bound", "%s", bound_names[bound]);
    if (p->lagrange) {
        cs_problem_chose(out, "strategy.lagrange_steps", "%d",
                         p->lagrange->steps);
        cs_problem_chose(out, "strategy.lagrange_rows", "%s",
                         p->lagrange->priced ? "priced" : "tracked");
    }
    if (how->task == CS_TASK_OPTIMIZE && colgen(p, cfg, how, out, err)) {
        shf_problem_free(p);
        return -1;
    }
    p->lagrange_slots = p->lns_staff > p->lns_rows ? p->lns_staff : p->lns_rows;
    shf_layout(p);
    out->hooks = shf_model_hooks;
    out->data = p;
    out->free_data = shf_problem_free;
    out->nvars = p->nstaff * p->ndays;
    out->state_size = p->state_size;
    /* the first roster by restarts of rows (shf_restart), doubling from
     * SHF_RESTART_NODES; a roster given to check is searched as it is */
    if (p->by_staff && !p->pin)
        out->layers = (struct cs_layers){.restarts = CS_RESTARTS_GEOMETRIC,
                                         .restart_nodes = SHF_RESTART_NODES};
    /* optimize: one branch and bound where it can finish (Instances 1 and
     * 2 prove their optimum in seconds), else neighbourhood rounds of
     * 10000 nodes (measured on Instances 3-7: docs/shifts.md) */
    if (how->task == CS_TASK_OPTIMIZE && !p->pin &&
        p->nstaff * p->ndays > SHF_PROVE_CELLS)
        out->layers.lns_nodes = 10000;
    /* optimize: the local moves (moves.c) for the moves layer, which
     * polishes the incumbent between rounds (strategy.local_moves) */
    if (how->task == CS_TASK_OPTIMIZE) {
        out->hooks = shf_moves_hooks;
        out->layers.moves = p->nstaff * p->ndays > SHF_LS_CELLS;
        out->layers.local_steps = SHF_LS_IDLE;
        out->layers.sample = SHF_LS_SAMPLE;
        out->layers.stall_rounds = SHF_LS_STALL;
    }
    if (shf_bursts(cfg, how, p, out, err)) {
        cs_problem_free(out);
        return -1;
    }
    return 0;
}

const struct cs_model cs_shifts_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "shifts",
    .summary = "staff rosters: hard staff rules, weighted cover and requests",
    .options = shf_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE) | CS_TASK_BIT(CS_TASK_OPTIMIZE),
    .setup = shf_setup,
    .default_task = CS_TASK_OPTIMIZE,
};
