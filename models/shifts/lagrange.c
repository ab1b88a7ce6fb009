/* shifts/lagrange.c - strategy.bound: lagrange, a lower bound from whole rows.
 *
 * Cover ties the staff together; everything else is a rule of one staff
 * member's row.  Price the cover: lambda[d][t] for a shift t worked on day d.
 * For any prices,
 *
 *   cost >= sum over (d, t) of  min over y in 0..F  [ cover(d, t, y) - lambda y
 * ]
 *         + sum over staff of   min over legal rows  [ requests + lambda . row
 * ]
 *
 * because every roster is one legal row per staff member and its cover is
 * the rows' sum (F bounds the count).  A staff member's cheapest row is a
 * dynamic program over days (rows.c), run backwards once, so the cheapest
 * row that begins with a given prefix is the prefix's own cost plus the
 * program's value at the state the prefix ends in.  At setup the prices
 * are improved by subgradient steps; the search then keeps them fixed.  At
 * a node (cells staff by staff): the staff members whose row is full count
 * exactly, the one being set counts its cheapest row that begins with its
 * prefix (none: the prefix is a dead end), the rest their cheapest row.
 * Neighbourhood rounds re-price the rows they free (shf_lagrange_pin).
 * Pairs kept apart are left out, and the set-up tables ignore pinned cells,
 * which only loosens the bound.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "shifts/search.h"

/* ---- prices -------------------------------------------------------------- */

/* min over y in 0..F of cover(a + y) - lambda y, and the y that takes it.
 * The cover penalty is convex in y with its bend at need - a, so the
 * minimum is at 0, at F or at the bend. */
static double day_term(const struct shf_problem *p, int k, int a, int f,
                       double lambda, int *arg)
{
    int cand[3] = {0, f, p->need[k] - a};
    double best = INFINITY;
    *arg = 0;
    for (int i = 0; i < 3; i++) {
        int y = cand[i] < 0 ? 0 : cand[i] > f ? f : cand[i];
        int x = a + y;
        double c =
            (double)(x < p->need[k] ? (int64_t)(p->need[k] - x) * p->under[k]
                                    : (int64_t)(x - p->need[k]) * p->over[k]) -
            lambda * y;
        if (c < best) {
            best = c;
            *arg = y;
        }
    }
    return best;
}

/* Priced rows: the multipliers x[nk..] (mu_max, mu_min and pi, nstaff
 * each, after the nk cover prices) as the rows' prices and constants. */
static void set_row_prices(struct shf_lagrange *lg, const struct shf_problem *p,
                           const double *x)
{
    const int nk = p->ndays * p->nshifts, n = p->nstaff;
    if (!lg->priced)
        return;
    for (int s = 0; s < n; s++) {
        /* minutes in shifts of average length, so every multiplier's
         * subgradient counts shifts, as the cover prices' do */
        double mu_max = x[nk + s] / lg->shift_minutes,
               mu_min = x[nk + n + s] / lg->shift_minutes,
               pi = x[nk + 2 * n + s];
        lg->minute_price[s] = mu_max - mu_min;
        lg->weekend_price[s] = pi;
        lg->row_const[s] = -mu_max * (double)p->max_minutes[s] +
                           mu_min * (double)p->min_minutes[s] -
                           pi * p->max_weekends[s];
    }
}

/* threads the set-up prices rows on at most */
#define LAG_THREADS 64

/* Every staff member's table under x (shf_price_rows), shared out on
 * lg->threads threads: staff members taken one at a time from a counter,
 * each into its own table, so the tables do not depend on how many. */
struct row_job {
    const struct shf_lagrange *lg;
    const struct shf_problem *p;
    const double *x;
    atomic_int next;
};

static void *price_some(void *arg)
{
    struct row_job *job = arg;
    for (int s; (s = atomic_fetch_add(&job->next, 1)) < job->p->nstaff;)
        shf_price_rows(job->lg, job->p, job->x, s, NULL,
                       job->lg->space[s].togo);
    return NULL;
}

static void price_all(const struct shf_lagrange *lg,
                      const struct shf_problem *p, const double *x)
{
    struct row_job job = {.lg = lg, .p = p, .x = x};
    atomic_init(&job.next, 0);
    int helpers = (lg->threads < p->nstaff ? lg->threads : p->nstaff) - 1;
    helpers = helpers > LAG_THREADS ? LAG_THREADS : helpers;
    pthread_t id[LAG_THREADS];
    int started = 0;
    while (started < helpers &&
           !pthread_create(&id[started], NULL, price_some, &job))
        started++;
    price_some(&job);
    for (int t = 0; t < started; t++)
        pthread_join(id[t], NULL);
}

/* L(x), and its subgradient in g: for the cover prices the best rows'
 * cover minus the day terms' y; for a priced row's multipliers how far its
 * best row passes each limit. */
static double evaluate(struct shf_lagrange *lg, const struct shf_problem *p,
                       const double *x, double *g)
{
    const int nk = p->ndays * p->nshifts, n = p->nstaff;
    double L = 0;
    set_row_prices(lg, p, x);
    for (int k = 0; k < nk; k++) {
        int y;
        L += day_term(p, k, 0, lg->reach[k], x[k], &y);
        g[k] = -y;
    }
    price_all(lg, p, x);
    for (int s = 0; s < n; s++) {
        int64_t minutes;
        int weekends;
        L += lg->space[s].togo[0];
        shf_add_best_row(lg, p, x, s, g, &minutes, &weekends);
        if (lg->priced) {
            g[nk + s] =
                (double)(minutes - p->max_minutes[s]) / lg->shift_minutes;
            g[nk + n + s] =
                (double)(p->min_minutes[s] - minutes) / lg->shift_minutes;
            g[nk + 2 * n + s] = weekends - p->max_weekends[s];
        }
    }
    return L;
}

/* the first step factor, and the steps without a better value before it
 * halves (measured on Instances 1, 5 and 7: 0.5 and 25 climbed furthest in
 * 500 steps) */
enum { STALL = 25 };
#define STEP0 0.5
/* Subgradient ascent: Polyak steps towards a target above the bound,
 * scaled by a factor that halves when the best value stalls. */
static void improve(struct shf_lagrange *lg, const struct shf_problem *p,
                    int iterations, double seconds, double must_beat)
{
    const double began = cs_now();
    const int nk = p->ndays * p->nshifts;
    /* the cover prices, then (priced rows) the rows' multipliers, from 0 */
    const int nx = nk + (lg->priced ? 3 * p->nstaff : 0);
    double *lambda = cs_xcalloc((size_t)nx, sizeof *lambda);
    double *best_x = cs_xcalloc((size_t)nx, sizeof *best_x);
    double *g = cs_xcalloc((size_t)nx, sizeof *g);
    /* start from the under weights: a worked shift is worth what it saves */
    for (int k = 0; k < nk; k++)
        lambda[k] = p->need[k] ? -(double)p->under[k] : (double)p->over[k];
    /* the target: what a roster with no one at work would cost, a value
     * well above the bound, so the steps start long; theta shrinks them */
    double target = 0;
    for (int k = 0; k < nk; k++)
        target += (double)p->need[k] * p->under[k];
    memcpy(best_x, lambda, (size_t)nx * sizeof *lambda);
    double best = -INFINITY, theta = STEP0;
    int stall = 0;
    lg->steps = 0;
    for (int it = 0; it < iterations && theta > 1e-4; it++) {
        const double spent = cs_now() - began;
        if (it && seconds > 0 && spent >= seconds)
            break; /* the set-up's share of the time limit spent */
        bool half =
            2 * it >= iterations || (seconds > 0 && 2 * spent >= seconds);
        if (half && best <= must_beat) {
            lg->gave_up = true; /* half the budget, nothing gained */
            break;
        }
        double L = evaluate(lg, p, lambda, g);
        lg->steps++;
        if (L > best + 1e-9) {
            best = L;
            memcpy(best_x, lambda, (size_t)nx * sizeof *lambda);
            stall = 0;
        } else if (++stall >= STALL) {
            theta /= 2;
            stall = 0;
        }
        /* a multiplier at 0 whose limit holds stays there: no direction */
        for (int k = nk; k < nx; k++)
            if (lambda[k] <= 0 && g[k] < 0)
                g[k] = 0;
        double norm = 0;
        for (int k = 0; k < nx; k++)
            norm += g[k] * g[k];
        if (norm == 0)
            break; /* the best rows meet the day terms exactly: optimal */
        if (target < best + 1)
            target = best + fabs(best) / 2 + 1; /* stay above it */
        double step = theta * (target - L) / norm;
        for (int k = 0; k < nk; k++)
            lambda[k] += step * g[k];
        for (int k = nk; k < nx; k++) /* the rows' multipliers stay >= 0 */
            lambda[k] = fmax(0, lambda[k] + step * g[k]);
    }
    memcpy(lg->lambda, best_x, (size_t)nk * sizeof *lambda);
    set_row_prices(lg, p, best_x);
    free(best_x);
    free(lambda);
    free(g);
}

/* ---- set-up ------------------------------------------------------------- */

/* The row tables' sizes (tracked or priced rows); false if all staff's
 * together pass max_states. */
static bool size_tables(struct shf_lagrange *lg, const struct shf_problem *p,
                        size_t max_states)
{
    int longest = 0;
    for (int t = 0; t < p->nshifts; t++)
        longest = p->level[t] > longest ? p->level[t] : longest;
    size_t total = 0;
    int nweekends = (p->ndays + 13) / 7 + 1;
    lg->widest = 0;
    for (int s = 0; s < p->nstaff; s++) {
        struct shf_rowspace *sp = &lg->space[s];
        int runs = p->max_cons[s];
        runs = p->min_cons[s] > runs ? p->min_cons[s] : runs;
        runs = p->min_off[s] > runs ? p->min_off[s] : runs;
        sp->runs = runs < p->ndays + 1 ? (runs > 0 ? runs : 1) : p->ndays + 1;
        int64_t levels = p->max_minutes[s] / p->level_unit,
                most = (int64_t)longest * p->ndays;
        sp->levels = lg->priced ? 0 : (int)(levels < most ? levels : most);
        sp->weekends = lg->priced                       ? 0
                       : p->max_weekends[s] < nweekends ? p->max_weekends[s]
                                                        : nweekends;
        sp->size = (size_t)(p->nclasses + 1) * (size_t)sp->runs * 2 *
                   ((size_t)sp->levels + 1) * ((size_t)sp->weekends + 1);
        size_t table = sp->size * ((size_t)p->ndays + 1);
        total += table;
        lg->states = total;
        lg->widest = table > lg->widest ? table : lg->widest;
        if (total > max_states)
            return false;
    }
    return true;
}

/* The set-up's subgradient steps by default: 500, or fewer where one step
 * (every reachable state of every staff member's table, each with every
 * value) is large, so the set-up stays near STEPS_WORK visits (about four
 * seconds here: Instance12 takes 288 steps, Instance24 21; Instances 1-11
 * all 500). */
#define STEPS_WORK 1.5e9
static int auto_steps(const struct shf_lagrange *lg,
                      const struct shf_problem *p)
{
    double visits = 0; /* one step: every reachable state, every value */
    for (int s = 0; s < p->nstaff; s++)
        visits += (double)lg->space[s].first[p->ndays + 1] * (p->nshifts + 1);
    double steps = STEPS_WORK / (visits > 1 ? visits : 1);
    return steps >= 500 ? 500 : steps < 10 ? 10 : (int)steps;
}

struct shf_lagrange *shf_lagrange_new(const struct shf_problem *p,
                                      size_t max_states, int iterations,
                                      double seconds, int rows,
                                      double must_beat, int threads,
                                      struct cs_error *err)
{
    struct shf_lagrange *lg = cs_xcalloc(1, sizeof *lg);
    lg->threads = threads > 1 ? threads : 1;
    const int nk = p->ndays * p->nshifts;
    lg->nstaff = p->nstaff;
    lg->ndays = p->ndays;
    lg->nshifts = p->nshifts;
    lg->shift_minutes = 0;
    for (int t = 0; t < p->nshifts; t++)
        lg->shift_minutes += (double)p->minutes[t] / p->nshifts;
    lg->shift_minutes = lg->shift_minutes > 0 ? lg->shift_minutes : 1;
    lg->minute_price = cs_xcalloc((size_t)p->nstaff, sizeof(double));
    lg->weekend_price = cs_xcalloc((size_t)p->nstaff, sizeof(double));
    lg->row_const = cs_xcalloc((size_t)p->nstaff, sizeof(double));
    lg->space = cs_xcalloc((size_t)p->nstaff, sizeof *lg->space);
    /* minutes and weekends tracked where the tables fit, else priced */
    lg->priced = rows == SHF_ROWS_PRICED;
    bool fits = size_tables(lg, p, max_states);
    if (!fits && rows == SHF_ROWS_AUTO) {
        lg->priced = true;
        fits = size_tables(lg, p, max_states);
    }
    if (!fits) {
        cs_error_set(err, NULL,
                     "bound lagrange: more than %zu row states %s; raise "
                     "strategy.lagrange_states or use bound days or weekends",
                     max_states,
                     lg->priced ? "even with minutes and weekends priced"
                                : "with minutes and weekends tracked");
        shf_lagrange_free(lg);
        return NULL;
    }
    for (int s = 0; s < p->nstaff; s++) {
        lg->space[s].togo = cs_xmalloc(lg->space[s].size *
                                       ((size_t)p->ndays + 1) * sizeof(double));
        shf_row_reachable(lg, p, s);
    }
    if (iterations < 0)
        iterations = auto_steps(lg, p);

    /* who may work (d, t): staff s and on; a loose count only loosens */
    lg->reach =
        cs_xcalloc(((size_t)p->nstaff + 1) * (size_t)nk, sizeof *lg->reach);
    for (int s = p->nstaff - 1; s >= 0; s--) {
        int *here = lg->reach + (size_t)s * nk, *after = here + nk;
        for (int d = 0; d < p->ndays; d++)
            for (int t = 0; t < p->nshifts; t++) {
                int skill = p->shift_skill[t], k = d * p->nshifts + t;
                bool may = !p->day_off[shf_cell(p, s, d)] &&
                           p->max_count[s * p->nshifts + t] &&
                           (skill < 0 || (p->skills[s] >> skill & 1));
                here[k] = after[k] + may;
            }
    }

    /* a staff member with no legal row at all: the bound says so at the
     * root (the search then ends infeasible), and no prices help */
    lg->lambda = cs_xcalloc((size_t)nk, sizeof *lg->lambda);
    price_all(lg, p, lg->lambda);
    for (int s = 0; s < p->nstaff; s++)
        lg->dead |= lg->space[s].togo[0] == INFINITY;
    if (!lg->dead)
        improve(lg, p, iterations, seconds, must_beat);
    /* the search's tables, under the best prices */
    lg->rest = cs_xcalloc((size_t)p->nstaff + 1, sizeof *lg->rest);
    price_all(lg, p, lg->lambda);
    for (int s = p->nstaff - 1; s >= 0; s--)
        lg->rest[s] = lg->rest[s + 1] + lg->space[s].togo[0];
    return lg;
}

void shf_lagrange_free(struct shf_lagrange *lg)
{
    if (!lg)
        return;
    for (int s = 0; lg->space && s < lg->nstaff; s++) {
        free(lg->space[s].togo);
        free(lg->space[s].first);
        free(lg->space[s].reach);
        free(lg->space[s].at);
    }
    free(lg->space);
    free(lg->minute_price);
    free(lg->weekend_price);
    free(lg->row_const);
    free(lg->lambda);
    free(lg->rest);
    free(lg->reach);
    free(lg);
}

size_t shf_lagrange_round_size(const struct shf_lagrange *lg, int slots)
{
    return (size_t)slots * lg->widest;
}

void shf_lagrange_pin(const struct shf_lagrange *lg,
                      const struct shf_problem *p, const signed char *fix,
                      struct shf_pins *out)
{
    const int nk = p->ndays * p->nshifts;
    size_t n = (size_t)nk;
    memset(out->cover + (size_t)p->nstaff * n, 0, n * sizeof *out->cover);
    memset(out->reach + (size_t)p->nstaff * n, 0, n * sizeof *out->reach);
    out->requests[p->nstaff] = 0;
    out->rest[p->nstaff] = 0;
    for (int s = p->nstaff - 1; s >= 0; s--) {
        const signed char *row = fix + (size_t)shf_cell(p, s, 0);
        bool whole = true;
        for (int d = 0; d < p->ndays && whole; d++)
            whole = row[d] >= 0;
        out->slot[s] = whole ? -1 : 0;
        int32_t *cover = out->cover + (size_t)s * n,
                *reach = out->reach + (size_t)s * n;
        memcpy(cover, cover + n, n * sizeof *cover);
        memcpy(reach, reach + n, n * sizeof *reach);
        out->requests[s] = out->requests[s + 1];
        if (whole) {
            for (int d = 0; d < p->ndays; d++) {
                out->requests[s] +=
                    shf_req_cost(p, (size_t)shf_cell(p, s, d), row[d]);
                if (row[d])
                    cover[d * p->nshifts + row[d] - 1]++;
            }
        } else {
            const int *may = lg->reach + (size_t)s * n;
            for (int k = 0; k < nk; k++)
                reach[k] += may[k] - may[k + nk];
        }
    }
    /* the round's prices: what one more shift changes in the cover the
     * pinned rows give; each free row's cheapest completion under them */
    for (int k = 0; k < nk; k++)
        out->lambda[k] = out->cover[k] < p->need[k] ? -(double)p->under[k]
                                                    : (double)p->over[k];
    int used = 0;
    for (int s = p->nstaff - 1; s >= 0; s--) {
        out->rest[s] = out->rest[s + 1];
        if (out->slot[s] < 0)
            continue;
        if (used == out->slots)
            return; /* more free rows than tables: the set-up prices */
        out->slot[s] = used++;
        double *togo = out->togo + (size_t)out->slot[s] * lg->widest;
        shf_price_rows(lg, p, out->lambda, s, fix, togo);
        out->rest[s] += togo[0];
    }
    *out->any = 1;
}

/* ---- at a node ------------------------------------------------------------ *
 *
 * The search calls the bound at every node, before it tries values, and
 * cells go staff by staff; so the prefix of the row being set grows by one
 * day per level.  The state's scratch keeps, per level, the state the
 * prefix of the row being set ends in and the prefix's costs, each made from
 * its parent's; and, per staff member, the day terms, which stay the same
 * while its row is set (they count the rows before it, and the pins). */

struct prefix {
    struct shf_rowstate r;
    double setup, round; /* the prefix's cost under each set of prices */
    int64_t requests;
    int ok; /* some legal row begins this way */
};

size_t shf_lagrange_scratch(const struct shf_problem *p)
{
    return (size_t)p->nstaff * (size_t)p->ndays * sizeof(struct prefix) +
           (size_t)p->nstaff * sizeof(double);
}

/* The entry of the node at depth s x ndays + len, from its parent's (an
 * entry per depth: the nodes below a node never overwrite its own). */
static struct prefix *prefix_at(const struct shf_lagrange *lg,
                                const struct shf_problem *p,
                                const struct shf_pins *pins, int s,
                                const signed char *row, int len)
{
    struct prefix *e = (struct prefix *)pins->scratch + shf_cell(p, s, 0);
    if (!len) {
        e[0] = (struct prefix){SHF_BEFORE_DAY0, 0, 0, 0, 1};
        return e;
    }
    const struct prefix *prev = &e[len - 1];
    struct prefix *cur = &e[len];
    int d = len - 1, v = row[d];
    cur->ok = prev->ok && shf_row_step(lg, p, s, d, prev->r, v, &cur->r);
    if (cur->ok) {
        double extra = shf_step_extra(lg, p, s, d, prev->r, v);
        cur->setup =
            prev->setup + shf_value_cost(lg, p, lg->lambda, s, d, v) + extra;
        cur->round = *pins->any
                         ? prev->round +
                               shf_value_cost(lg, p, pins->lambda, s, d, v) +
                               extra
                         : 0;
        cur->requests =
            prev->requests + shf_req_cost(p, (size_t)shf_cell(p, s, d), v);
    }
    return cur;
}

double shf_lagrange_try(const struct shf_lagrange *lg,
                        const struct shf_problem *p,
                        const struct shf_pins *pins, int s, int d, int v)
{
    const struct shf_rowspace *sp = &lg->space[s];
    const struct prefix *e =
        (const struct prefix *)pins->scratch + shf_cell(p, s, d);
    struct shf_rowstate to;
    if (!e->ok || !shf_row_step(lg, p, s, d, e->r, v, &to))
        return INFINITY;
    return e->setup + shf_value_cost(lg, p, lg->lambda, s, d, v) +
           shf_step_extra(lg, p, s, d, e->r, v) +
           sp->togo[(size_t)(d + 1) * sp->size + shf_row_index(sp, to)];
}

int64_t shf_lagrange_bound(const struct shf_lagrange *lg,
                           const struct shf_problem *p,
                           const struct shf_pins *pins,
                           const signed char *roster, const int32_t *have,
                           int s, int len, int64_t requests)
{
    const struct shf_rowspace *sp = &lg->space[s];
    const int nk = p->ndays * p->nshifts;
    if (lg->dead)
        return INT64_MAX;
    const struct prefix *e =
        prefix_at(lg, p, pins, s, roster + (size_t)shf_cell(p, s, 0), len);
    if (!e->ok)
        return INT64_MAX; /* no legal row begins this way */
    const bool round = *pins->any, whole = round && pins->slot[s] < 0;
    /* the prefix's requests are in its row's cost */
    double sum = (double)(requests - e->requests);
    if (!whole) {
        const double *togo =
            round ? pins->togo + (size_t)pins->slot[s] * lg->widest : sp->togo;
        double row =
            (round ? e->round : e->setup) +
            togo[len ? (size_t)len * sp->size + shf_row_index(sp, e->r) : 0];
        if (row == INFINITY)
            return INT64_MAX;
        sum += row;
    }
    /* a round: rows pinned whole count as set, the others under the
     * round's prices */
    if (round)
        sum += pins->rest[s + 1] + (double)pins->requests[whole ? s : s + 1];
    else
        sum += lg->rest[s + 1];
    double *days = (double *)((struct prefix *)pins->scratch +
                              (size_t)p->nstaff * (size_t)p->ndays);
    if (!len) {
        const int *may = lg->reach + (size_t)s * nk;
        size_t here = (size_t)s * (size_t)nk, after = here + (size_t)nk;
        days[s] = 0;
        for (int k = 0; k < nk; k++) {
            int y, a = have[k], f = may[k];
            if (round) {
                a += pins->cover[(whole ? here : after) + k];
                f = pins->reach[after + k] + (whole ? 0 : may[k] - may[k + nk]);
            }
            days[s] += day_term(p, k, a, f,
                                round ? pins->lambda[k] : lg->lambda[k], &y);
        }
    }
    return (int64_t)ceil(sum + days[s] - 1e-6);
}
