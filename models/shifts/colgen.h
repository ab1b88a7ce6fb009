/* shifts/colgen.h - the linear relaxation of the roster-per-staff
 * formulation, by column generation (colgen.c), and its pricing: one staff
 * member's cheapest legal row under prices on the cover (colprice.c).
 *
 * The master: each staff member one convex combination of legal rows, the
 * cover lines soft (slacks at the under and over weights), the cost the
 * rows' requests plus the slacks.  Its value bounds every roster's cost
 * from below, and so does the Lagrangian value of any cover prices in the
 * weights' box (colgen.c says why), which is what is kept.
 */
#ifndef CSEARCH_SHIFTS_COLGEN_H
#define CSEARCH_SHIFTS_COLGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "shifts/shifts.h"

/* ---- pricing (colprice.c) ---- */
struct shf_pricer;
/* Staff s's pricer, its tables sized once; NULL if they would pass
 * SHF_CG_STATES states a day. */
struct shf_pricer *shf_pricer_new(const struct shf_problem *p, int s);
void shf_pricer_free(struct shf_pricer *pr);
/* Does it keep every rule of a row?  (false: more per-shift limits bind
 * than it tracks, or the row has partners kept apart; it then admits more
 * rows, which only lowers the bound.) */
bool shf_pricer_exact(const struct shf_pricer *pr);
/* From now on only rows whose value on day d is a bit of allow[d] (bit v:
 * value v, 0 off; ndays masks, the caller's, read at each shf_price_row;
 * NULL: every value), for branch and price. */
void shf_pricer_allow(struct shf_pricer *pr, const uint64_t *allow);
/* For tests: from now on every path of the forward pass is kept (no
 * completion bound, no narrow pass first), the plain shortest path. */
void shf_pricer_plain(struct shf_pricer *pr);
/* A thread's scratch for pricing: the forward pass's paths, grown to the
 * largest row's and kept; any pricers may share it, one row at a time. */
struct shf_price_tables;
struct shf_price_tables *shf_price_tables_new(void);
void shf_price_tables_free(struct shf_price_tables *tb);
/* The cheapest legal row under prices lambda (ndays x nshifts, what a
 * worked (day, shift) is worth), of equal ones the least by the sum over
 * days d of row[d] x (ndays - d), found in tables tb: its values into row
 * (ndays), its requests - lambda . row into *value, its requests into
 * *requests; 1.  0: staff s has no legal row; -1: cs_now() reached
 * deadline first (0: none), nothing written. */
int shf_price_row(struct shf_pricer *pr, struct shf_price_tables *tb,
                  const double *lambda, double deadline, signed char *row,
                  double *value, int64_t *requests);

/* ---- the master (colgen.c) ---- */
struct shf_colgen {
    double bound;   /* the best Lagrangian value seen: <= the LP's optimum,
                       or the split on the under-cover total's (colgen.c),
                       which may pass it */
    double master;  /* the restricted master's last value: >= it */
    int64_t floor;  /* bound rounded up: every roster costs at least this */
    int rounds;     /* master solves */
    int columns;    /* rows in the master */
    double seconds; /* taken */
    bool exact;     /* every staff member priced by all its rules */
    bool solved;    /* no row priced out: bound = the LP's optimum */
    int64_t roster_cost; /* shf_colgen_roster: its roster's cost, -1 none */
    int dives;           /* dives that ended with a roster */
    double dive_seconds; /* taken by the dives */
    /* shf_colgen_prove's branch and price (colbranch.c) */
    int64_t bp_nodes;  /* nodes whose LP was taken up */
    int bp_columns;    /* rows in the master at its end */
    int64_t bp_bound;  /* every roster costs at least this (>= floor) */
    bool bp_proven;    /* tree exhausted, every row exact: roster optimal */
    double bp_seconds; /* taken by it */
    /* then the large neighbourhoods of its roster (shf_cg_lns) */
    int lns_windows;    /* windows searched */
    int lns_better;     /* of them, found a cheaper roster */
    double lns_seconds; /* taken by them */
};
/* Column generation for at most `seconds` (> 0).  0, or -1 with why in
 * err (a staff member has no legal row, a row's tables are too large). */
int shf_colgen_run(const struct shf_problem *p, double seconds,
                   struct shf_colgen *out, struct cs_error *err);
/* The same, then dives until `until` seconds from its start, on cells
 * (shf_cg_cell_dive) and on rows in turn: on rows, staff by staff the row
 * the LP uses most is chosen and the LP solved again over the rest, with
 * their rows priced anew, until each staff member has one.  The cheapest
 * roster of a dive that the checker (shf_check) passes goes into roster
 * (nstaff x ndays; 0 off, t + 1 shift t) at out->roster_cost (-1: none). */
int shf_colgen_roster(const struct shf_problem *p, double seconds, double until,
                      signed char *roster, struct shf_colgen *out,
                      struct cs_error *err);
/* The same, then branch and price (colbranch.c) from the dives' roster,
 * on `threads` threads, for half the time until `prove` seconds from
 * its start, then large neighbourhoods of the best roster (shf_cg_lns) for
 * the rest, 30 s at most, and branch and price again for what is left: a
 * cheaper roster found goes into roster at out->roster_cost, and
 * out->bp_bound is the least any roster costs (the roster's cost when
 * out->bp_proven or when a roster meets it). */
int shf_colgen_prove(const struct shf_problem *p, double seconds, double until,
                     double prove, int threads, signed char *roster,
                     struct shf_colgen *out, struct cs_error *err);
/* The LP for at most `seconds`, then `windows` large neighbourhoods
 * (shf_cg_lns, one thread, each's tree until `prove` seconds from the
 * start) of the roster given in roster, which the checker must pass: the
 * cheapest into roster at out->roster_cost. */
int shf_colgen_lns(const struct shf_problem *p, double seconds, double prove,
                   int windows, signed char *roster, struct shf_colgen *out,
                   struct cs_error *err);

/* ---- shared by the master (colgen.c) and branch and price (colbranch.c) */
struct glp_prob;
struct shf_master {
    struct glp_prob *lp;
    int nk, nstaff, ndays;
    int *ind; /* 1-based, for glp_set_mat_col */
    double *val;
    /* each row column's staff member and row (ndays each), in order: the
     * row columns follow the 2 nk slacks (column SHF_CG_FIRST(m) + i) */
    int nrows, cap;
    int *staff;
    signed char *rows;
};
#define SHF_CG_FIRST(m) (2 * (m)->nk + 1)

/* One column generation: the master, its pricers and scratch. */
struct shf_cg {
    const struct shf_problem *p;
    struct shf_master m;
    struct shf_pricer **pr;
    double *lambda, *pi;
    signed char *row;
    bool *fixed; /* the dive's: staff whose row is chosen (not priced) */
    int nfixed;
    /* branch and price's: nstaff x ndays masks of the values left (the
     * pricers read them), NULL before; the rounds stop once the bound's
     * ceiling reaches cutoff */
    uint64_t *allow;
    /* a neighbourhood's masks (nstaff x ndays; NULL: none), within which
     * branch and price's root keeps its values (shf_cg_lns) */
    const uint64_t *within;
    int64_t cutoff;
    bool infeasible; /* a staff member had no legal row left */
    double deadline;
    bool timed_out;
    /* the root's rounds price at duals smoothed toward the best so far
     * (center, its Lagrangian value center_value; master: the master's own,
     * by which a row enters) */
    bool smooth;
    double *center, *master, center_value;
    int dive_rounds; /* master rounds a dive step (0: until none) */
    /* threads that price the staff of a round (1: this one alone), the
     * pricing tables of each (ntables made so far, [0] this thread's);
     * each staff member's row, value, requests and outcome of the last
     * round */
    int threads;
    struct shf_price_tables **tables;
    int ntables;
    signed char *prow;
    double *pvalue;
    int64_t *preq;
    int *pgot;
};

/* Row `row` of staff s, at cost requests, as a new column. */
void shf_cg_add_column(struct shf_master *m, const struct shf_problem *p, int s,
                       const signed char *row, int64_t requests);
/* Master solves and pricing rounds until no row prices out (or `most`
 * rounds, 0: no limit): 0, or -1 with why in err; c->timed_out when the
 * deadline came first.  With no staff fixed, each round's Lagrangian value
 * raises out->bound (under c->allow: the bound of that node), and the
 * rounds stop once its ceiling meets the master's or c->cutoff.  With
 * c->smooth and no staff fixed or masks, a round prices at the master's
 * duals mixed with c->center's (colgen.c); a row enters by its reduced
 * cost at the master's, and a round where none does is followed by one
 * priced at the master's. */
int shf_cg_rounds(struct shf_cg *c, int most, struct shf_colgen *out,
                  struct cs_error *err);
/* A Lagrangian value's ceiling, safe against rounding; INT64_MIN for no
 * bound (-inf or NaN), INT64_MAX beyond int64_t. */
int64_t shf_cg_ceiling(double v);
/* A copy of src for another thread, to be made in that thread (GLPK's
 * objects belong to the thread that makes them; src is only read): the
 * same columns in a master of its own, its own pricers and scratch.  0, or
 * -1 if a row's tables are too large (dst is then for shf_cg_free). */
int shf_cg_copy(struct shf_cg *dst, const struct shf_cg *src);
/* The master, pricers and scratch of c (shf_colgen_prove's, a copy's). */
void shf_cg_free(struct shf_cg *c);
/* The master's columns past the first `keep` dropped, but the rows of
 * roster if `have`, and its basis made anew. */
void shf_cg_drop_columns(struct shf_cg *c, int keep, const signed char *roster,
                         bool have);
/* A dive on cells (colbranch.c): the LP solved by `rounds` master rounds
 * a step (0: until no row prices out) under masks as branch and price's,
 * then its fractional cells' values fixed, largest first, those at 0.9 or
 * more and at least `share` of the fractional cells, until the LP is whole
 * (its roster into roster and out->roster_cost if the checker passes it
 * and it is cheaper) or its bound reaches the roster so far.  Where the LP
 * is tight the cells it is sure of leave the rest to be priced anew, where
 * fixing whole rows (shf_colgen_roster's dives) had to fix rows the LP
 * only mixed.  0 a whole LP, 1 none (out of time at c->deadline, no roster
 * under the masks, or none cheaper), -1 an error with why in err. */
int shf_cg_cell_dive(struct shf_cg *c, int rounds, double share,
                     signed char *roster, struct shf_colgen *out,
                     struct cs_error *err);
/* Branch and price over c's master until deadline (colbranch.c), from the
 * roster at out->roster_cost (-1: none), on `threads` threads (the others
 * on copies of c); fills out's bp_ fields. */
int shf_cg_branch(struct shf_cg *c, double deadline, int threads,
                  signed char *roster, struct shf_colgen *out,
                  struct cs_error *err);

/* Large neighbourhoods of the roster at out->roster_cost (colbranch.c),
 * one after another: a window of days, drawn at random, free for every
 * staff member and the rest of the roster held, searched by branch and
 * price (its root's masks in c->within) for a cheaper roster, which goes
 * into roster.  A window searched to its end is followed by one two days
 * wider, one cut short by one a day narrower (7 days first, 3 at least).
 * Until deadline, each window's tree for 2 s at most; or, with `windows`
 * > 0, that many windows, each's tree until deadline (so a test's windows
 * are the same each run).  Counts into out->lns_*. */
int shf_cg_lns(struct shf_cg *c, double deadline, int windows, int threads,
               signed char *roster, struct shf_colgen *out,
               struct cs_error *err);

#endif
