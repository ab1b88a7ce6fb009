/* shifts/shifts.h - the shift scheduling (rostering) model.
 *
 * A roster gives every staff member, on every day of the horizon, one shift
 * or a day off.  Staff rules (shift limits, minutes, consecutive days,
 * weekends, fixed days off, skills, pairs kept apart) are hard; cover and
 * shift requests are soft, weighted, and their sum is the cost to minimise.
 * The problem comes from the config's own YAML spec (spec.c) or from a file
 * of the Shift Scheduling Benchmark (curtois.c); both build a struct
 * shf_problem, which the search (the files search.h names) and the
 * independent checker (check.c) read and never change.
 */
#ifndef CSEARCH_SHIFTS_H
#define CSEARCH_SHIFTS_H

#include <stdint.h>

#include "csearch/model.h"

extern const struct cs_model cs_shifts_model;

/* Values of a cell: 0 = off, 1..nshifts = shift value-1; a cursor holds them
 * all as bits of a uint64_t. */
#define SHF_MAX_SHIFTS 63
#define SHF_MAX_DAYS 3660
#define SHF_MAX_STAFF 10000
#define SHF_UNLIMITED 1000000000

/* A request, as written: shift -1 (off requests only) means any shift. */
struct shf_request {
    int staff, day, shift, weight;
    int line, col;
};

/* A cell's requests in 6 bytes, for the local moves, which read one of a
 * random cell at every step (the full table, 4 (nshifts + 1) bytes a cell,
 * is 7 MB on Instance24, where its misses took half of the samples of
 * the moves' busiest function):
 * on, the shift asked for (1..nshifts; 0 none), at on_weight; off, the
 * shift asked not to work (1..nshifts; SHF_REQ_ANY: any; 0 none), at
 * off_weight; on = SHF_REQ_TABLE: more than that, read req_cost. */
#define SHF_REQ_ANY (-1)
#define SHF_REQ_TABLE (-1)
struct shf_req {
    signed char on, off;
    uint16_t on_weight, off_weight;
};

struct shf_problem {
    char *source; /* where the spec came from, for messages */
    int ndays, nstaff, nshifts;
    int weekday0; /* weekday of day 0: an enum shf_weekday */

    /* shifts */
    char **shift_id;
    int *minutes;
    uint64_t *no_next; /* bit u: shift u may not follow on the next day */
    int *shift_skill;  /* -1: anyone may work it */

    /* staff; max_count is nstaff x nshifts */
    char **staff_id;
    int *max_count, *min_minutes, *max_minutes, *min_cons, *max_cons, *min_off,
        *max_weekends;
    uint64_t *skills;       /* bit k: has skill k */
    int *line;              /* where each staff member is defined */
    unsigned char *day_off; /* nstaff x ndays: 1 = a fixed day off */

    /* cover, ndays x nshifts; need 0 with no weight = no cover line */
    int *need, *under, *over;

    struct shf_request *on, *off;
    int non, noff;
    int (*apart)[2]; /* pairs who may not work the same shift on a day */
    int napart;
    char **skill_names;
    int nskills;

    /* what the readers collect before the sizes are known */
    struct shf_cover_line {
        int day, shift, need, under, over, line, col;
    } * covers;
    struct shf_day_off {
        int staff, day, line, col;
    } * offs;
    int ncovers, noffs, cap_staff, cap_shifts, cap_on, cap_off, cap_covers,
        cap_offs, cap_apart;

    /* derived, for the search */
    int32_t *req_cost;   /* ncells x (nshifts+1): request penalty of a value */
    struct shf_req *req; /* ncells: the cell's requests in short */
    int *partner_start, *partners; /* apart pairs per staff member */
    int *off_suffix; /* nstaff x (ndays+1): fixed days off from day d */
    int *min_under;  /* per day: the smallest under weight with need */
    int *by_length;  /* shift indices, longest first */
    /* shifts as the row rules see them (the Lagrangian rows, the row
     * move): classes 1..nclasses of the shifts that may not be followed by
     * the same shifts (0 stands for a day off), what may not follow each
     * class ([0]: nothing), the classes each shift may not follow, and a
     * shift's length in levels of level_unit minutes (the gcd of the
     * lengths) */
    int nclasses;
    int shift_class[SHF_MAX_SHIFTS];
    uint64_t class_no_next[SHF_MAX_SHIFTS + 1];
    uint64_t banned_after[SHF_MAX_SHIFTS];
    int level_unit, level[SHF_MAX_SHIFTS];
    int max_minutes_shift;   /* the longest shift */
    signed char *pin;        /* ncells or NULL: a roster given to check */
    int *pin_line, *pin_col; /* where each staff row of the pin is */
    /* re-rostering (reroster.c), or NULL; fixed (ncells, -1 free): the
     * values its pinned cells and past days must hold, for every hook */
    struct shf_reroster *reroster;
    signed char *fixed;
    signed char *compare; /* ncells or NULL: params.compare's roster */
    char *compare_source; /* its path, as the config gave it */
    char *no_roster;      /* explain.c: why no staff row of some member is legal
                             (a sentence a line), or NULL */
    struct shf_fair {     /* params.fairness (fair.c) */
        int nights_weight, weekends_weight; /* 0: the rule is off */
        uint64_t nights;  /* bit t: shift t counts as a night */
        int ngroups;      /* contract groups: the same limits but per shift */
        int *group;       /* nstaff: each one's group */
        int *night_group; /* nstaff: its group for nights, -1 if it may
                             work no night shift */
        int *size, *night_size; /* ngroups: members of each */
    } fair;

    /* strategy */
    int by_staff;      /* variables staff by staff, else day by day */
    int weekend_bound; /* bound() adds the weekend capacity bound */
    struct shf_lagrange *lagrange; /* strategy.bound lagrange, or NULL */
    int64_t lp_floor; /* every roster costs at least this (colgen.c) */
    /* a legal roster the LP's dives found (colgen.c), or NULL: the first
     * search outside rounds tries its values first, so that its first
     * roster is this one */
    signed char *hint;
    bool plain_first; /* the first roster by the plain value order, the
                         priced rows for the rounds only */
    int lns_days, lns_staff, lns_rows;
    int nb_kinds[4], nb_count; /* strategy.neighbourhoods, in turn      */
    bool lns_grow;             /* strategy.lns_grow: sizes follow rounds */

    /* state layout (bytes from the start of struct shf_state) */
    size_t state_size;
    size_t o_run, o_minutes, o_weekends, o_pos, o_count, o_have, o_open, o_able,
        o_daylb, o_prev, o_val, o_fix, o_tight, o_calm, o_dp, o_pcover,
        o_preach, o_preq, o_prest, o_plambda, o_ptogo, o_pslot, o_pany,
        o_pscratch, o_short, o_short_at, o_fair;
    int lagrange_slots; /* free rows a round prices afresh, at most */
};

static inline int shf_cell(const struct shf_problem *p, int s, int d)
{
    return s * p->ndays + d;
}

/* params.first_day: the weekdays in order, as enum constants (weekday0 is
 * one) and as the option's names. */
#define SHF_WEEKDAYS(X)                                                        \
    X(SHF_MONDAY, "monday")                                                    \
    X(SHF_TUESDAY, "tuesday")                                                  \
    X(SHF_WEDNESDAY, "wednesday")                                              \
    X(SHF_THURSDAY, "thursday")                                                \
    X(SHF_FRIDAY, "friday")                                                    \
    X(SHF_SATURDAY, "saturday")                                                \
    X(SHF_SUNDAY, "sunday")
/* For an X-macro table: its enum constants, and its names. */
#define SHF_ENUM_CONSTANT(constant, name) constant,
#define SHF_ENUM_NAME(constant, name) name,

enum shf_weekday { SHF_WEEKDAYS(SHF_ENUM_CONSTANT) };

/* Saturday or Sunday. */
static inline int shf_weekend_day(const struct shf_problem *p, int d)
{
    return (p->weekday0 + d) % 7 >= SHF_SATURDAY;
}

/* The request penalty of value v (0 off) in cell c. */
static inline int32_t shf_req_cost(const struct shf_problem *p, size_t c, int v)
{
    const struct shf_req r = p->req[c];
    if (r.on == SHF_REQ_TABLE)
        return p->req_cost[c * (size_t)(p->nshifts + 1) + v];
    return (r.on && v != r.on ? r.on_weight : 0) +
           (r.off && v && (r.off == v || r.off == SHF_REQ_ANY) ? r.off_weight
                                                               : 0);
}

struct shf_problem *shf_problem_new(void);
void shf_problem_free(void *problem);
/* Readers add items one by one (ids are copied); the index of the new one.
 * add_staff needs every shift added first: its limits start unlimited. */
int shf_add_shift(struct shf_problem *p, const char *id);
int shf_add_staff(struct shf_problem *p, const char *id, int line);
int shf_find(char *const *ids, int n, const char *id);
struct shf_request *shf_add_request(struct shf_problem *p, bool on);
struct shf_cover_line *shf_add_cover(struct shf_problem *p);
struct shf_day_off *shf_add_day_off(struct shf_problem *p);
void shf_add_apart(struct shf_problem *p, int a, int b);
/* After a reader filled the lists: checks that need the whole spec, then the
 * derived tables.  -1 with err positioned in p->source. */
int shf_problem_finish(struct shf_problem *p, struct cs_error *err);
/* After finish: request q's penalty into the request tables (req_cost,
 * req) and not into the lists; and the tables that follow from day_off
 * and the cover (off_suffix, min_under) made again after they changed. */
void shf_add_request_cost(struct shf_problem *p, const struct shf_request *q,
                          bool on);
void shf_problem_days(struct shf_problem *p);

/* Readers.  Both fill p and call shf_problem_finish. */
int shf_read_curtois(struct shf_problem *p, const char *path,
                     struct cs_error *err);
int shf_read_yaml(struct shf_problem *p, const struct cs_config *cfg,
                  struct cs_error *err);
/* A roster as output.format csv writes it: into p->pin. */
int shf_read_roster(struct shf_problem *p, const char *path,
                    struct cs_error *err);

/* A search state's problem and roster (values per cell, -1 unset): what a
 * caller's on_solution sees. */
const struct shf_problem *shf_state_problem(const void *state);
const signed char *shf_state_roster(const void *state);

/* ---- strategy.bound: lagrange (lagrange.c, rows.c) ----
 * Cover prices improved by `iterations` subgradient steps (< 0: as many as
 * the tables' size allows, at most 500; with seconds > 0, none begun after
 * that long), and every staff member's cheapest
 * row under them as a dynamic program (at most max_states states in all,
 * else NULL and err).  rows: SHF_ROWS_TRACKED keeps minutes and weekends in
 * the states, SHF_ROWS_PRICED prices them instead (search.h), AUTO tracks
 * them where the tables fit.  The steps stop at half their budget (of
 * steps or seconds) when no value so far is above must_beat (-INFINITY:
 * never), and mark the bound gave_up.  The rows of a step are priced on
 * `threads` threads: the steps and their values are those of one thread,
 * in less time. */
enum { SHF_ROWS_AUTO, SHF_ROWS_TRACKED, SHF_ROWS_PRICED };
struct shf_lagrange;
struct shf_lagrange *shf_lagrange_new(const struct shf_problem *p,
                                      size_t max_states, int iterations,
                                      double seconds, int rows,
                                      double must_beat, int threads,
                                      struct cs_error *err);
void shf_lagrange_free(struct shf_lagrange *lg);
/* Neighbourhood rounds.  Rows pinned whole count as set; the others are
 * priced afresh each round: a shift costs what it changes in the cover the
 * pinned rows give (-under while short, +over after), and each such row's
 * cheapest completion under those prices (keeping its pinned cells) gets a
 * table of its own.  By staff index s (nstaff + 1 entries, or (nstaff + 1)
 * x ndays x nshifts): the cover and requests of the rows pinned whole from s
 * on, the staff from s on not pinned whole who may work each shift, and the
 * sum of their cheapest rows.  *any = 0 (a state as init leaves it): no
 * round, the set-up prices and tables. */
struct shf_pins {
    int32_t *cover, *reach;
    int64_t *requests;
    double *rest, *lambda;
    double *togo;  /* shf_lagrange_round_size(slots) doubles */
    int32_t *slot; /* nstaff: a free row's table, -1 pinned whole */
    int slots;     /* tables: a round that frees more rows uses the
                      set-up prices */
    int32_t *any;
    void *scratch; /* shf_lagrange_scratch() bytes */
};
size_t shf_lagrange_round_size(const struct shf_lagrange *lg, int slots);
void shf_lagrange_pin(const struct shf_lagrange *lg,
                      const struct shf_problem *p, const signed char *fix,
                      struct shf_pins *out);
/* Bytes of the search's scratch (shf_pins.scratch). */
size_t shf_lagrange_scratch(const struct shf_problem *p);
/* The cheapest row under the set-up prices that begins with staff s's days
 * 0..d-1 as set and then v (INFINITY: none).  Only at a node whose bound
 * was taken (the bound keeps the prefix in the scratch). */
double shf_lagrange_try(const struct shf_lagrange *lg,
                        const struct shf_problem *p,
                        const struct shf_pins *pins, int s, int d, int v);
/* A lower bound for a roster set staff by staff: rows before s full, s's
 * first len days set; have = cover counts of the cells set, requests = their
 * request penalties.  INT64_MAX: s's row cannot be finished.  To be called
 * at every node of the search, in order (it keeps the scratch). */
int64_t shf_lagrange_bound(const struct shf_lagrange *lg,
                           const struct shf_problem *p,
                           const struct shf_pins *pins,
                           const signed char *roster, const int32_t *have,
                           int s, int len, int64_t requests);

/* ---- re-rostering (reroster.c) ----
 * A published roster (params.roster) re-optimised after a change: staff
 * unavailable on some days (fixed days off, their missed minutes taken off
 * their minimum) and cover lines changed (params.change), cells pinned
 * (params.pinned), days before from_day kept.  Each cell from from_day on
 * that differs from the published roster costs change_weight: that is
 * added to the request tables (req_cost, req), so every bound, value order
 * and move sees it; the checker counts it from published itself. */
struct shf_reroster {
    signed char *published; /* ncells: the roster as published */
    signed char *pinned;    /* ncells: the value pinned (-1: none) */
    int from_day, change_weight;
    char clash[320]; /* fixed cells that break a hard rule, in words */
};
/* Read the re-roster keys after the problem and p->pin (the published
 * roster, checked against the problem as it was): move the roster to
 * published, apply the change, pin, and cost the changes.  0 when none of
 * the keys is given; -1 with err positioned. */
int shf_setup_reroster(struct shf_problem *p, const struct cs_config *cfg,
                       struct cs_error *err);
/* The text lines of a re-roster, under the roster's penalty lines:
 * the published roster's penalty by rule, the change, the changed cells
 * (check.c calls it for the text roster). */
void shf_write_changes(const struct shf_problem *p, const signed char *roster,
                       struct cs_board *out);

/* ---- small CSV files of records (curtois.c), for reroster.c ----
 * Each line that is not blank and does not start with '#' is cut at its
 * commas (fields quoted as in a roster) and handed to take; a line 1
 * whose first field is `header` is skipped.  Field lookups name the file,
 * line and column of a field that is wrong (-1 with err). */
struct shf_record;
int shf_read_records(struct shf_problem *p, const char *path,
                     const char *header,
                     int (*take)(struct shf_record *rec, void *ud), void *ud,
                     struct cs_error *err);
int shf_record_fields(const struct shf_record *rec);
const char *shf_record_text(const struct shf_record *rec, int i);
int shf_record_staff(struct shf_record *rec, int i);
int shf_record_shift(struct shf_record *rec, int i);
int shf_record_number(struct shf_record *rec, int i, const char *what, int max,
                      int *out);
int shf_record_bad(struct shf_record *rec, int i, const char *fmt, ...)
    CS_PRINTF(3, 4);

/* ---- the independent checker (check.c) ----
 * Recomputes every hard rule and the objective from a roster alone (values
 * per cell as above), with none of the search's counters. */
struct shf_report {
    int64_t under, over, on, off, total; /* penalties by rule */
    int64_t nights, weekends;            /* params.fairness's rules */
    int64_t change;  /* re-rostering: change_weight x cells changed */
    int changed;     /* cells from from_day on unlike the published */
    int violations;  /* hard rules broken */
    char first[256]; /* the first one, in words */
    int staff, day;  /* where (-1 if the rule is about no one cell) */
};
int shf_check(const struct shf_problem *p, const signed char *roster,
              struct shf_report *r);

/* ---- fairness (fair.c) ----
 * Nights and weekends worked by each staff member, as the checker counts
 * them (a weekend once, on its first worked day), into nights and
 * weekends (nstaff each); and the penalties of params.fairness for such
 * counts: per contract group, the weight times the sum of the squared
 * deviations from the group's mean, rounded down (shf_fair_group). */
void shf_fair_setup(struct shf_problem *p);
void shf_tallies(const struct shf_problem *p, const signed char *roster,
                 int *nights, int *weekends);
void shf_fair_penalties(const struct shf_problem *p, const int *nights,
                        const int *weekends, int64_t *pn, int64_t *pw);
static inline int64_t shf_fair_group(int64_t members, int64_t sum,
                                     int64_t squares, int weight)
{
    return members ? weight * (members * squares - sum * sum) / members : 0;
}
/* Is value v (0 off) a night shift? */
static inline int shf_night(const struct shf_problem *p, int v)
{
    return v > 0 && (p->fair.nights >> (v - 1) & 1);
}
static inline bool shf_fair_on(const struct shf_problem *p)
{
    return p->fair.nights_weight || p->fair.weekends_weight;
}

/* ---- explain.c ----
 * For each staff member whose row has no legal assignment under the hard
 * rules: a sentence naming a smallest set of the rules (and the days) that
 * cannot all hold.  NULL: every row has one (or the search for one ran
 * past its budget).  Malloc'd. */
char *shf_explain(const struct shf_problem *p);

/* ---- by rule, and two rosters compared (compare.c) ----
 * A report's penalties by rule (params.fairness's only when on, changes
 * only when re-rostering), their names as the output writes them and their
 * ids on the page (ids may be NULL); how many. */
#define SHF_RULES 7
int shf_report_rules(const struct shf_problem *p, const struct shf_report *r,
                     const char **names, const char **ids, int64_t *values);
/* params.compare: the roster's penalty by rule beside p->compare's, and the
 * change, as text lines; shf_compare_page writes them as a page table. */
void shf_write_compare(const struct shf_problem *p, const signed char *roster,
                       struct cs_board *out);
/* params.compare read into p->compare (-1 with err in its file). */
int shf_read_compare(struct shf_problem *p, const char *path,
                     const char *as_given, struct cs_error *err);

/* The roster as text: the grid (staff x days, shift ids, '-' off), a cover
 * row per shift, the penalty by rule and the checker's verdict; or as CSV
 * (out->csv), or as a page (out->html: shf_write_page). */
void shf_write_roster(const struct shf_problem *p, const signed char *roster,
                      struct cs_board *out);
/* The roster as one self-contained HTML page (page.c), a line of it per
 * board line: staff by days in a colour per shift type, fixed days off,
 * unmet requests, the cover rows with under- and over-cover marked, and
 * the checker's penalty by rule and verdict. */
void shf_write_page(const struct shf_problem *p, const signed char *roster,
                    struct cs_board *out);

/* A line of output being built (check.c): shf_put appends as printf does,
 * shf_flush adds it to a board without trailing blanks and empties it. */
struct shf_line {
    char *buf;
    size_t len, cap;
};
void shf_put(struct shf_line *l, const char *fmt, ...) CS_PRINTF(2, 3);
void shf_flush(struct shf_line *l, struct cs_board *out);
/* The page's table of params.compare (compare.c), and the page's escape. */
void shf_compare_page(const struct shf_problem *p, const signed char *roster,
                      struct shf_line *l, struct cs_board *out);
void shf_put_text(struct shf_line *l, const char *s);

#endif
