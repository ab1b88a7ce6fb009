/* shifts/search.h - what the files of the search share (private to them).
 *
 * A state is a struct shf_state, then the arrays at the problem's o_*
 * offsets (SHF_AT).  The hot hooks' helpers are `static inline`; the hooks
 * and the search instance shf_dfs are in rules.c with the hook table.  Then
 * the Lagrangian row tables, shared by lagrange.c and rows.c.
 */
#ifndef CSEARCH_SHIFTS_SEARCH_H
#define CSEARCH_SHIFTS_SEARCH_H

#include "shifts/shifts.h"

struct shf_state {
    struct cs_counters counters; /* the engine's */
    const struct shf_problem *p;
    int64_t requests; /* request penalties of the cells set */
    int64_t cover;    /* sum of the day bounds */
    int64_t fair;     /* local moves: params.fairness's penalty (o_fair) */
    int depth;        /* cells set */
    int last_staff;   /* whose cell was set last, for prune */
    int nshort;       /* local moves: cover lines short of staff (o_short) */
    bool in_round;    /* relax freed its cells: a neighbourhood round, not
                         the search for a first roster */
};

#define SHF_AT(s, off, type) ((type *)((char *)(s) + (off)))
#define SHF_CAT(s, off, type) ((const type *)((const char *)(s) + (off)))

/* The run field: length of the current run of worked or free days, and
 * whether it began on day 0 (such runs are exempt from the minimums). */
#define SHF_RUN_FROM0 (1 << 30)

/* A fixed cell that takes no value: a re-roster's clash (setup.c). */
#define SHF_NO_VALUE 127

/* ---- the state (state.c) ---- */

/* The offsets of the state's arrays and its size, into p. */
void shf_layout(struct shf_problem *p);
/* Hook init: every cell open (or pinned by p->pin), the counters from it. */
void shf_init(void *state, const void *problem);
/* Cover counters from scratch: after init and after relax pins cells. */
void shf_recount(struct shf_state *st);

/* The cell a variable stands for. */
static inline void shf_var_cell(const struct shf_problem *p, int var, int *s,
                                int *d)
{
    if (p->by_staff) {
        *s = var / p->ndays;
        *d = var % p->ndays;
    } else {
        *d = var / p->nstaff;
        *s = var % p->nstaff;
    }
}

/* May staff s take value v (0 off) on day d, rules of the row aside? */
static inline bool shf_able(const struct shf_state *st, int s, int d, int v)
{
    const struct shf_problem *p = st->p;
    int c = shf_cell(p, s, d), fix = SHF_CAT(st, p->o_fix, signed char)[c];
    if (fix >= 0)
        return v == fix;
    if (!v)
        return true;
    if (p->day_off[c])
        return false;
    int skill = p->shift_skill[v - 1];
    return skill < 0 || (p->skills[s] >> skill & 1);
}

/* A lower bound on day d's cover penalty, exact once the day is full. */
static inline int64_t shf_day_bound(const struct shf_state *st, int d)
{
    const struct shf_problem *p = st->p;
    const int32_t *have = SHF_CAT(st, p->o_have, int32_t) + d * p->nshifts;
    const int32_t *ablen = SHF_CAT(st, p->o_able, int32_t) + d * p->nshifts;
    const int *need = p->need + d * p->nshifts;
    const int *under = p->under + d * p->nshifts;
    const int *over = p->over + d * p->nshifts;
    int64_t over_cost = 0, short_cost = 0;
    int64_t missing = 0;
    for (int t = 0; t < p->nshifts; t++) {
        int lack = need[t] - have[t];
        if (lack < 0)
            over_cost += (int64_t)-lack * over[t];
        else if (lack > 0) {
            missing += lack;
            if (lack > ablen[t])
                short_cost += (int64_t)(lack - ablen[t]) * under[t];
        }
    }
    /* each staff member still free to work covers one shift at most */
    int64_t open = SHF_CAT(st, p->o_open, int32_t)[d];
    int64_t pooled = missing > open ? (missing - open) * p->min_under[d] : 0;
    return over_cost + (short_cost > pooled ? short_cost : pooled);
}

static inline void shf_refresh_day(struct shf_state *st, int d)
{
    int64_t *lb = SHF_AT(st, st->p->o_daylb, int64_t) + d;
    int64_t now = shf_day_bound(st, d);
    st->cover += now - *lb;
    *lb = now;
}

/* ---- params.fairness in a state (fair.c) ----
 * The tree computes the penalty from the counters at a full roster
 * (shf_fair_of); the local moves keep it (st->fair) and each contract
 * group's sums (o_fair) from their start on.  A changed row: staff, its
 * nights and weekends before, and their change. */
struct shf_fair_row {
    int staff, nights, weekends, dnights, dweekends;
};
int shf_state_nights(const struct shf_state *st, int s);
int64_t shf_fair_of(const struct shf_state *st);
void shf_fair_recount(struct shf_state *st);
/* The change in the penalty when rows[0..n-1] (n <= 2) change so; made
 * when apply. */
int64_t shf_fair_change(struct shf_state *st, int n,
                        const struct shf_fair_row *rows, bool apply);

/* ---- look-ahead programs (lookahead.c), for prune ----
 * From day `from` (>= 1) on, staff s's row as the state has it so far:
 * the most days it can still work, by the rules of runs and weekends; and
 * the most minutes it can still add, by runs and rotation.  Both are upper
 * bounds; -1: the row cannot be finished at all. */
int shf_max_days_left(struct shf_state *st, int s, int from);
int64_t shf_max_minutes_left(struct shf_state *st, int s, int from);

/* ---- what a local move keeps (keeps.c, for moves.c) ---- */

/* A move changes a run of at most this many days of a row (moves.c says
 * how the moves are numbered) */
#define SHF_LS_BLOCK 4
/* the widest window of a row one move changes (a move has at most two):
 * an exchange's of two blocks side by side */
#define SHF_LS_WINDOW (2 * SHF_LS_BLOCK)

/* A window of days lo..hi of one row that a move changes: what they held
 * before, and the weekends the row started on days lo..hi+1 before.  A
 * move's windows are at least two days apart. */
struct shf_span {
    int lo, hi, weekends;
    signed char *old; /* buf, or a caller's for a long window */
    signed char buf[SHF_LS_WINDOW];
};

/* Weekends started on days lo..hi of a row, as the checker counts them
 * (a worked weekend day, but a Sunday after a worked Saturday). */
static inline int shf_weekends_in(const struct shf_problem *p,
                                  const signed char *row, int lo, int hi)
{
    if (hi >= p->ndays)
        hi = p->ndays - 1;
    int n = 0, d = lo, day = (p->weekday0 + lo) % 7;
    if (day == SHF_SUNDAY) {
        n += row[d] > 0 && !(d > 0 && row[d - 1] > 0);
        d += 6;
    } else {
        d += SHF_SATURDAY - day;
    }
    for (; d <= hi; d += 7) { /* d a Saturday */
        bool saturday = row[d] > 0;
        n += saturday + (d < hi && !saturday && row[d + 1] > 0);
    }
    return n;
}

/* Row s, its windows sp[0..n-1] now new: does it keep every hard rule?
 * The partners' rows must hold their new values already. */
bool shf_row_keeps(const struct shf_state *st, int s, const struct shf_span *sp,
                   int n);

/* ---- the bursts of local moves (bursts.c) ---- */

/* The keys of struct cs_bursts, the model's own, for shf_options. */
extern const char *const shf_switch_names[]; /* auto, on, off */
#define SHF_BURST_OPTIONS                                                      \
    {.key = "strategy.anneal_steps",                                           \
     CS_OPT_AUTO_INT(                                                          \
         "task optimize with local moves: each burst anneals for "             \
         "this many steps (random moves, uphill ones by Metropolis' "          \
         "chance), 0 = bursts descend (auto: 100000000)")},                    \
        {.key = "strategy.anneal_fill",                                        \
         .type = CS_OPT_ENUM,                                                  \
         .def = "auto",                                                        \
         .choices = shf_switch_names,                                          \
         .help =                                                               \
             "annealing under limits.seconds: on, a burst cools over all the " \
             "time left (one burst, anneal_steps aside); off, bursts of "      \
             "anneal_steps; auto: on above 1000 cells, off when "              \
             "anneal_steps is given; on needs limits.seconds"},                \
        {.key = "strategy.large_steps",                                        \
         CS_OPT_AUTO_INT(                                                      \
             "task optimize with local moves: a row move (a window of "        \
             "a row re-solved whole) after every this many steps of a "        \
             "burst, 0 = by large_share (auto: 0)")},                          \
        {.key = "strategy.large_share",                                        \
         CS_OPT_AUTO_REAL(                                                     \
             0, 0.99,                                                          \
             "task optimize with local moves: the share of a "                 \
             "burst's time its row moves may take, when large_steps "          \
             "is 0; 0 = none (auto: 0.5 on 56 days or more with at "           \
             "most 4 shift types under limits.seconds, else 0)")},             \
        {.key = "strategy.large_share_odd",                                    \
         CS_OPT_AUTO_REAL(                                                     \
             0, 0.99,                                                          \
             "with strategy.threads above 1: large_share on the odd "          \
             "threads, so that two walk different neighbourhoods (auto: on "   \
             "56 days or more, or 28 or fewer, with at most 10 shift types "   \
             "under limits.seconds, 0 where large_share is above 0, else "     \
             "0.5; elsewhere, or with large_share or large_steps given, "      \
             "large_share's value)")},                                         \
        {.key = "strategy.anneal_t0",                                          \
         CS_OPT_AUTO_REAL(                                                     \
             1e-9, 1e15,                                                       \
             "annealing: the temperature a burst starts "                      \
             "at, in cost units; after a burst that found nothing "            \
             "better the next starts twice as hot, up to 8 times this "        \
             "(auto: 10; 3 for the one burst to the limit, "                   \
             "strategy.anneal_fill, "                                          \
             "from 3000 cells)")},                                             \
        {.key = "strategy.anneal_t1",                                          \
         CS_OPT_AUTO_REAL(1e-9, 1e15,                                          \
                          "annealing: the temperature a burst ends at, "       \
                          "at most anneal_t0 (auto: 0.1)")},                   \
        {.key = "strategy.anneal_adopt",                                       \
         CS_OPT_AUTO_REAL(                                                     \
             0, 1e9,                                                           \
             "with strategy.threads above 1 under limits.seconds: a "          \
             "thread whose annealing has stalled above the best roster any "   \
             "thread has found takes that roster and anneals on from it, at "  \
             "most once in this many seconds, 0 = never (auto: 2)")},          \
        {.key = "strategy.anneal_adopt_after",                                 \
         CS_OPT_AUTO_REAL(0, 1,                                                \
                          "strategy.anneal_adopt: from this share of the "     \
                          "search's time on (limits.seconds less the "         \
                          "set-up; auto: 0.75)")},

/* The bursts' keys that can be wrong on their own (anneal_fill on without
 * a time limit, anneal_t1 above anneal_t0): checked before the set-up,
 * which takes seconds on large instances; -1 with err at the key. */
int shf_bursts_check(const struct cs_config *cfg, const struct cs_setup *how,
                     struct cs_error *err);

/* The bursts from the keys over the defaults for p, into out->bursts (after
 * out->layers), and what ran into out->chosen; returns 0 (the keys were
 * checked by shf_bursts_check()). */
int shf_bursts(const struct cs_config *cfg, const struct cs_setup *how,
               const struct shf_problem *p, struct cs_problem *out,
               struct cs_error *err);

/* ---- the hooks (rules.c; relax in neighbourhoods.c) ---- */

/* strategy.neighbourhoods' kinds (neighbourhoods.c) */
#define SHF_NEIGHBOURHOODS(X)                                                  \
    X(SHF_NB_STAFF, "staff")                                                   \
    X(SHF_NB_ROWS, "rows")                                                     \
    X(SHF_NB_COVER, "cover")                                                   \
    X(SHF_NB_SHIFT, "shift")
enum shf_neighbourhood { SHF_NEIGHBOURHOODS(SHF_ENUM_CONSTANT) };

extern const struct cs_hooks *const shf_model_hooks;
/* The same table with the local moves (moves.c), for task optimize. */
extern const struct cs_hooks *const shf_moves_hooks;
bool shf_ls_start(void *state, uint64_t seed, volatile sig_atomic_t *stop);
uint64_t shf_ls_cost(const void *state);
int shf_ls_pick(void *state, uint64_t random);
uint64_t shf_ls_moves(const void *state, int var);
int64_t shf_ls_delta(void *state, int var, uint64_t move);
void shf_ls_apply(void *state, int var, uint64_t move);
/* The row move: a window of a staff member's row re-solved whole. */
int64_t shf_ls_large(void *state, uint64_t random);
/* Days of the window a row move re-solves (the whole row when shorter):
 * on Instance18 (84 days) whole rows ended lower than windows of 56 days
 * (docs/shifts.md, "The row move"). */
#define SHF_ROW_DAYS 84
/* rowbest.c: the cheapest days lo..hi of staff s's row with the rest of
 * the roster as it is, into out (hi - lo + 1 values); false: none found. */
bool shf_row_best(const struct shf_state *st, int s, int lo, int hi,
                  signed char *out);
void shf_relax(void *state, const void *best, const struct cs_round *round);

/* The state's pins for the Lagrangian bound (struct shf_pins): bound()
 * reads them, relax() writes them. */
static inline struct shf_pins shf_pins_of(const struct shf_state *st)
{
    const struct shf_problem *p = st->p;
    void *base = (void *)st; /* bound() reads them, relax() writes them */
    return (struct shf_pins){
        SHF_AT(base, p->o_pcover, int32_t), SHF_AT(base, p->o_preach, int32_t),
        SHF_AT(base, p->o_preq, int64_t),   SHF_AT(base, p->o_prest, double),
        SHF_AT(base, p->o_plambda, double), SHF_AT(base, p->o_ptogo, double),
        SHF_AT(base, p->o_pslot, int32_t),  p->lagrange_slots,
        SHF_AT(base, p->o_pany, int32_t),   SHF_AT(base, p->o_pscratch, void)};
}

/* ---- strategy.bound lagrange: the row tables (lagrange.c, rows.c) ----
 *
 * Before day d a row is in a state: yesterday's value (0 off, -1 before day
 * 0), the length of the current run of worked or free days (capped where
 * the rules stop telling lengths apart), whether that run began on day 0
 * (exempt from the minimums), the minutes worked (in levels) and the
 * weekends worked.  Yesterday's value is kept as its class: shifts that
 * forbid the same shifts the next day are one class (the rules tell them
 * apart no further).  When those tables would pass strategy.lagrange_states
 * (long horizons), the rows are `priced': minutes and weekends are not
 * tracked at all, their limits leave the row rules and enter the row's cost
 * with multipliers of their own (mu_max (minutes - max) + mu_min (min -
 * minutes) + pi (weekends - max), all multipliers >= 0, so a legal row
 * costs no more than it would; lagrange.c improves them with the prices). */
struct shf_rowstate {
    int last, len, from0, minutes, weekends;
};

struct shf_lagrange {
    int nstaff, ndays, nshifts;
    bool priced;           /* minutes and weekends priced, not tracked      */
    double *minute_price;  /* nstaff: mu_max - mu_min (0 unless priced)     */
    double *weekend_price; /* nstaff: pi (0 unless priced)                 */
    double *row_const;     /* nstaff: - mu_max max + mu_min min - pi max_w  */
    int steps;             /* the subgradient steps taken at set-up          */
    int threads;           /* the set-up's rows priced on this many threads */
    double shift_minutes;  /* the shifts' average length: the scale of the
                              minutes' multipliers                          */
    struct shf_rowspace {  /* one staff member's states before a day       */
        int runs, levels, weekends; /* run lengths 1..runs, 0..levels, 0.. */
        size_t size;   /* states per day                                */
        double *togo;  /* (ndays + 1) x size: cheapest rest of the row  */
        size_t *first; /* ndays + 1: day d's reachable states are      */
        struct shf_rowstate *reach; /* reach[first[d]..first[d+1]-1]      */
        size_t *at; /* and their indices                             */
    } * space;
    double *lambda; /* ndays x nshifts                               */
    double *rest;   /* nstaff + 1: sum of best row costs, s and on  */
    int *reach;     /* (nstaff + 1) x ndays x nshifts: staff from s
                       on who may work t on day d                   */
    size_t states;  /* all tables together, in doubles            */
    size_t widest;  /* the largest one staff member's table takes  */
    bool dead;      /* some staff member has no legal row           */
    bool gave_up;   /* steps stopped at half: none beat must_beat    */
};

/* The state before day 0. */
#define SHF_BEFORE_DAY0 ((struct shf_rowstate){-1, 1, 1, 0, 0})

/* A state's index in its day's table. */
static inline size_t shf_row_index(const struct shf_rowspace *sp,
                                   struct shf_rowstate r)
{
    return ((((size_t)r.last * sp->runs + (size_t)(r.len - 1)) * 2 +
             (size_t)r.from0) *
                ((size_t)sp->levels + 1) +
            (size_t)r.minutes) *
               ((size_t)sp->weekends + 1) +
           (size_t)r.weekends;
}

/* Whether value v on day d, after a row in state r, works a new weekend. */
static inline bool shf_new_weekend(const struct shf_problem *p, int d,
                                   struct shf_rowstate r, int v)
{
    return v > 0 && shf_weekend_day(p, d) &&
           !((p->weekday0 + d) % 7 == SHF_SUNDAY && r.last > 0);
}

/* Value v on day d from state r (r.last = -1 on day 0): the next state, or
 * false if a rule forbids it.  The same rules as the search's legal(). */
static inline bool shf_row_step(const struct shf_lagrange *lg,
                                const struct shf_problem *p, int s, int d,
                                struct shf_rowstate r, int v,
                                struct shf_rowstate *out)
{
    const struct shf_rowspace *sp = &lg->space[s];
    bool same = d > 0 && (r.last > 0) == (v > 0);
    out->len = same ? (r.len < sp->runs ? r.len + 1 : sp->runs) : 1;
    out->from0 = d == 0 || (same && r.from0);
    out->last = v ? p->shift_class[v - 1] : 0;
    out->minutes = r.minutes;
    out->weekends = r.weekends;
    if (p->fixed && p->fixed[shf_cell(p, s, d)] >= 0 &&
        p->fixed[shf_cell(p, s, d)] != v)
        return false; /* a re-roster's pinned cell or past day */
    if (!v)
        return !(r.last > 0 && !r.from0 && r.len < p->min_cons[s]);
    int t = v - 1, skill = p->shift_skill[t];
    if (p->day_off[shf_cell(p, s, d)] || !p->max_count[s * p->nshifts + t] ||
        (skill >= 0 && !(p->skills[s] >> skill & 1)))
        return false;
    if (r.last > 0 &&
        ((p->class_no_next[r.last] >> t & 1) || r.len >= p->max_cons[s]))
        return false;
    if (r.last == 0 && !r.from0 && r.len < p->min_off[s])
        return false;
    if (lg->priced)
        return true;
    out->minutes += p->level[t];
    if (out->minutes > sp->levels)
        return false;
    out->weekends += shf_new_weekend(p, d, r, v);
    return out->weekends <= sp->weekends;
}

/* What value v costs staff s on day d under prices lambda (priced rows:
 * with its minutes' price). */
static inline double shf_value_cost(const struct shf_lagrange *lg,
                                    const struct shf_problem *p,
                                    const double *lambda, int s, int d, int v)
{
    double c = shf_req_cost(p, (size_t)shf_cell(p, s, d), v);
    return v ? c + lambda[d * lg->nshifts + v - 1] +
                   lg->minute_price[s] * p->minutes[v - 1]
             : c;
}

/* The step's cost beyond shf_value_cost: a priced row's new weekend. */
static inline double shf_step_extra(const struct shf_lagrange *lg,
                                    const struct shf_problem *p, int s, int d,
                                    struct shf_rowstate r, int v)
{
    return lg->priced && shf_new_weekend(p, d, r, v) ? lg->weekend_price[s] : 0;
}

/* rows.c: the states a row of staff s can be in before each day (space's
 * first, reach, at); the cheapest rest of its row from each of them under
 * prices lambda, into togo (with fix, only the pinned value of a pinned
 * cell); and the cover of its cheapest row, added to g. */
void shf_row_reachable(struct shf_lagrange *lg, const struct shf_problem *p,
                       int s);
void shf_price_rows(const struct shf_lagrange *lg, const struct shf_problem *p,
                    const double *lambda, int s, const signed char *fix,
                    double *togo);
void shf_add_best_row(const struct shf_lagrange *lg,
                      const struct shf_problem *p, const double *lambda, int s,
                      double *g, int64_t *minutes, int *weekends);

#endif
