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
/* The cheapest legal row under prices lambda (ndays x nshifts, what a
 * worked (day, shift) is worth): its values into row (ndays), its
 * requests - lambda . row into *value, its requests into *requests; 1.
 * 0: staff s has no legal row; -1: cs_now() reached deadline first (0:
 * none), nothing written. */
int shf_price_row(struct shf_pricer *pr, const double *lambda, double deadline,
                  signed char *row, double *value, int64_t *requests);

/* ---- the master (colgen.c) ---- */
struct shf_colgen {
    double bound;   /* the best Lagrangian value seen: <= the LP's optimum */
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
};
/* Column generation for at most `seconds` (> 0).  0, or -1 with why in
 * err (a staff member has no legal row, a row's tables are too large). */
int shf_colgen_run(const struct shf_problem *p, double seconds,
                   struct shf_colgen *out, struct cs_error *err);
/* The same, then dives until `until` seconds from its start: staff by staff the
 * row the LP uses most is chosen and the LP solved again over the rest, with
 * their rows priced anew, until each staff member has one.  The cheapest roster
 * of a dive that the checker (shf_check) passes goes into roster (nstaff x
 * ndays; 0 off, t + 1 shift t) at out->roster_cost (-1: none). */
int shf_colgen_roster(const struct shf_problem *p, double seconds, double until,
                      signed char *roster, struct shf_colgen *out,
                      struct cs_error *err);

#endif
