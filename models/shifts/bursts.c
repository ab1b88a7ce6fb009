/* shifts/bursts.c - how the moves layer's bursts walk on a roster
 * (struct cs_bursts, csearch/model.h): the model's own keys
 * strategy.anneal_* and strategy.large_*, their defaults by the instance's
 * size, the checks that point at a key, and what --json says ran.
 */
#include "shifts/search.h"

/* each burst anneals: this many steps, the temperature falling from T0 to
 * T1 (cost units: an under-covered shift costs 100 in the benchmark, a
 * request 1-3; measured: docs/shifts.md, "Annealing bursts") */
#define SHF_ANNEAL_STEPS 100000000
/* and from 3 for the one burst to the limit (strategy.anneal_fill) on
 * wards of SHF_COOL_CELLS cells or more: there the burst makes fewer steps
 * a cell, and a cooler start spends them on descent.  Zen 4, 60 s, two
 * threads, seeds 0-2, one run at a time, t0 3 against 10: lower on 13,
 * 19, 20, 21, 23 and 24 in all three (13: 1438, 1440, 1445 against 1453,
 * 1467, 1481; 24: 47928, 47699 against 48545, 47872), 22 mixed (33067,
 * 32944, 32901 against 33074, 32676, 33134); one thread, seed 0: lower on
 * all but 22 (33939 against 32666).  Below (Instances 12-18), 3 was higher
 * on 14, 15 and 18 (one thread 14: 1452 against 1362), so 10 stays. */
#define SHF_ANNEAL_T0_COOL 3.0
#define SHF_COOL_CELLS 3000
#define SHF_ANNEAL_T0 10.0
#define SHF_ANNEAL_T1 0.1
/* and under a time limit, above this many cells, one burst cools over all
 * the time left (strategy.anneal_fill): at 58 s lower on Instances 9, 10,
 * 13-16, 20, 21, 23 and 24 than bursts with rounds between, equal on 11
 * and 12; not below (5, 7 and 8 ended higher; docs/shifts.md, "One burst
 * to the limit") */
#define SHF_FILL_CELLS 1000

/* and the row move (a window of a staff member's row re-solved whole,
 * rowbest.c) takes this share of the annealing's time under a time limit,
 * on horizons of at least SHF_LARGE_DAYS days with at most
 * SHF_LARGE_SHIFTS shift types: Instances 16, 17 and 18, where at 20 s it
 * ended lower (16 3856 -> 3244, 17 6223 -> 5810, 18 5004 -> 4898); it
 * cost on 9, 13, 19 and 24, and on 14 (42 days) six runs of 20-60 s with
 * it averaged 1423, four without 1374 (docs/shifts.md, "The row move");
 * and a portfolio's odd threads walk the other way on horizons of 56 days
 * or more, or of at most 28, with at most 10 shift types
 * (strategy.large_share_odd), so that two threads differ in more than their
 * seeds.  At 60 s on two threads (seeds 0 and 2) it was even on 16-24 as a
 * whole, 4954 and 4974 against 5004 and 5036 on 20, 18898 and 18908 against
 * 18763 and 18806 on 23 (16 shift types, where row moves cost on one
 * thread, as on 24); it cost on 13-15 (13: 18 shift types; 14 and 15: 42
 * days).  On Instance8 (28 days, 4 shift types) seeds 0-2 ended at 1313,
 * 1362 and 1307 against 1352-1366, 1348 and 1335 (docs/performance.md) */
#define SHF_LARGE_SHARE 0.5
#define SHF_LARGE_DAYS 56
#define SHF_LARGE_SHIFTS 4
#define SHF_ODD_SHIFTS 10
#define SHF_ODD_SHORT 28

/* and in a portfolio under a time limit, in the last quarter of the
 * search's time (the limit less the set-up), a thread whose annealing is
 * above the best roster any thread has found takes that roster, at most
 * once in 2 s (strategy.anneal_adopt and anneal_adopt_after).  Zen 5,
 * 60 s, two threads, Instances 13, 15 and 18-24, seeds 2 and 3, without
 * and with it, interleaved: lower in 11 of 18 pairs, by 0.68% on average;
 * 18 4580 -> 4483 and 4585 -> 4483, 13 1527 -> 1460, 19 3342 -> 3260;
 * higher at most 1.8% (15, 3975 -> 4048).  From the start instead
 * (adopt_after 0) the two threads follow each other all the minute: lower
 * in 10 of 18 pairs, 0.09% higher on average (22: 32589 -> 33120, 32678
 * -> 33141); docs/performance.md */
#define SHF_ADOPT_SECONDS 2.0
#define SHF_ADOPT_AFTER 0.75

const char *const shf_switch_names[] = {"auto", "on", "off", NULL};

/* The temperatures: the defaults, or the keys' where given (> 0). */
static void read_temperatures(const struct cs_config *cfg, struct cs_bursts *b)
{
    double t = cs_config_real(cfg, "strategy.anneal_t0");
    if (t > 0)
        b->anneal_t0 = t;
    t = cs_config_real(cfg, "strategy.anneal_t1");
    if (t > 0)
        b->anneal_t1 = t;
}

int shf_bursts_check(const struct cs_config *cfg, const struct cs_setup *how,
                     struct cs_error *err)
{
    if (cs_config_enum(cfg, "strategy.anneal_fill") == 1 &&
        !(how->limits.seconds > 0))
        return cs_error_at(err, cs_config_pos(cfg, "strategy.anneal_fill"),
                           "strategy.anneal_fill on anneals up to "
                           "limits.seconds, and no limits.seconds is given");
    if (how->task != CS_TASK_OPTIMIZE)
        return 0; /* no bursts, so no temperatures */
    struct cs_bursts b = {.anneal_steps = SHF_ANNEAL_STEPS,
                          .anneal_t0 = SHF_ANNEAL_T0,
                          .anneal_t1 = SHF_ANNEAL_T1};
    if (cs_config_int(cfg, "strategy.anneal_steps") >= 0)
        b.anneal_steps = (uint64_t)cs_config_int(cfg, "strategy.anneal_steps");
    read_temperatures(cfg, &b);
    if (!cs_bursts_cooling(&b))
        return cs_error_at(err, cs_config_pos(cfg, "strategy.anneal_t1"),
                           "model shifts cools, not heats: "
                           "strategy.anneal_t1 must be at most "
                           "strategy.anneal_t0");
    return 0;
}

int shf_bursts(const struct cs_config *cfg, const struct cs_setup *how,
               const struct shf_problem *p, struct cs_problem *out,
               struct cs_error *err)
{
    (void)err; /* every key was checked before the set-up */
    const bool timed = how->limits.seconds > 0;
    const int fill = cs_config_enum(cfg, "strategy.anneal_fill");
    if (how->task != CS_TASK_OPTIMIZE)
        return 0; /* bursts polish an incumbent */
    struct cs_bursts b = {.anneal_steps = SHF_ANNEAL_STEPS,
                          .anneal_t0 = SHF_ANNEAL_T0,
                          .anneal_t1 = SHF_ANNEAL_T1,
                          .anneal_fill = p->nstaff * p->ndays > SHF_FILL_CELLS};
    if (p->ndays >= SHF_LARGE_DAYS && p->nshifts <= SHF_LARGE_SHIFTS)
        b.large_share = SHF_LARGE_SHARE;
    int64_t n = cs_config_int(cfg, "strategy.anneal_steps");
    if (n >= 0) /* steps given: bursts of them, unless fill says on */
        b.anneal_steps = (uint64_t)n, b.anneal_fill = false;
    if (fill)
        b.anneal_fill = fill == 1;
    if (!timed)
        b.anneal_fill = false; /* no limit to fill */
    const double t1 = cs_config_real(cfg, "strategy.anneal_t1");
    if (b.anneal_fill && p->nstaff * p->ndays >= SHF_COOL_CELLS &&
        t1 <= SHF_ANNEAL_T0_COOL) /* a named t1 above it: 10 as checked */
        b.anneal_t0 = SHF_ANNEAL_T0_COOL;
    read_temperatures(cfg, &b);
    n = cs_config_int(cfg, "strategy.large_steps");
    if (n >= 0)
        b.large_steps = (uint64_t)n;
    double t = cs_config_real(cfg, "strategy.large_share");
    const bool named = t >= 0 || n >= 0;
    if (t >= 0)
        b.large_share = t;
    else if (!timed)
        b.large_share = 0; /* auto times nothing without a time limit, so
                              the same spec keeps giving the same run */
    t = cs_config_real(cfg, "strategy.anneal_adopt");
    b.adopt_seconds = t >= 0 ? t : SHF_ADOPT_SECONDS;
    t = cs_config_real(cfg, "strategy.anneal_adopt_after");
    b.adopt_after = t >= 0 ? t : SHF_ADOPT_AFTER;
    out->bursts = b; /* cooling: shf_bursts_check() */
    /* the odd threads on horizons of SHF_LARGE_DAYS or more, or of at
     * most SHF_ODD_SHORT, with at most SHF_ODD_SHIFTS shift types: row
     * moves where the even ones make none, none where they do (or as
     * named) */
    struct cs_bursts odd = b;
    t = cs_config_real(cfg, "strategy.large_share_odd");
    if (t >= 0) {
        odd.large_share = t;
        odd.large_steps = 0;
    } else if (timed && !named && p->nshifts <= SHF_ODD_SHIFTS &&
               (p->ndays >= SHF_LARGE_DAYS || p->ndays <= SHF_ODD_SHORT)) {
        odd.large_share = b.large_share > 0 ? 0 : SHF_LARGE_SHARE;
    }
    out->bursts_alt = odd;
    out->bursts_alt_set = how->threads > 1;
    /* what ran: fill and the large moves only where bursts anneal */
    const bool moves = out->layers.moves;
    cs_problem_chose(out, "strategy.anneal_steps", "%llu",
                     (unsigned long long)b.anneal_steps);
    cs_problem_chose_real(out, "strategy.anneal_t0", b.anneal_t0);
    cs_problem_chose_real(out, "strategy.anneal_t1", b.anneal_t1);
    cs_problem_chose(out, "strategy.anneal_fill", "%s",
                     moves && b.anneal_steps && b.anneal_fill ? "on" : "off");
    cs_problem_chose(out, "strategy.large_steps", "%llu",
                     (unsigned long long)(moves ? b.large_steps : 0));
    cs_problem_chose_real(out, "strategy.large_share",
                          moves && !b.large_steps ? b.large_share : 0);
    /* adoption only where a portfolio's bursts anneal to a time limit */
    const bool adopting =
        moves && b.anneal_steps && timed && out->bursts_alt_set;
    cs_problem_chose_real(out, "strategy.anneal_adopt",
                          adopting ? b.adopt_seconds : 0);
    cs_problem_chose_real(out, "strategy.anneal_adopt_after",
                          adopting && b.adopt_seconds > 0 ? b.adopt_after : 0);
    /* and the odd threads' only where there are some */
    cs_problem_chose_real(
        out, "strategy.large_share_odd",
        moves && out->bursts_alt_set && !odd.large_steps ? odd.large_share : 0);
    return 0;
}
