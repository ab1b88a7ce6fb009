/* shifts/colgen.c - strategy.colgen: the linear relaxation of the
 * roster-per-staff formulation by column generation, a lower bound.
 *
 * Master: min  sum_j c_j x_j + sum_k (under_k u_k + over_k o_k)
 *         s.t. sum_j a_kj x_j + u_k - o_k = need_k   (lambda_k)  each (d, t)
 *              sum_{j of s} x_j = 1                  (pi_s)      each staff
 * over rows j (a_kj = 1 if row j works shift t on day d, c_j its requests).
 * Its duals lie in the box -over_k <= lambda_k <= under_k, and for any
 * lambda in that box and any roster (cover y_k)
 *   cost = sum_s c(row_s) + sum_k pen_k(y_k)
 *       >= sum_s c(row_s) + sum_k lambda_k (need_k - y_k)
 *       >= sum_k need_k lambda_k + sum_s min over legal rows (c - lambda a)
 * (pen_k(y) = max(under_k (need_k - y), over_k (y - need_k))).  So each
 * round's duals, clamped to the box and priced (colprice.c), give a bound
 * whether or not the master is optimal; costs are integers, so its ceiling
 * bounds too.  The master is solved by GLPK's primal simplex, warm from
 * the last basis (new columns keep it feasible): a Debian package, sparse,
 * and its duals exact at a vertex, which a first-order method of ours would
 * only approach (the subgradient steps of lagrange.c stop 5 below the
 * optimum on Instance3).
 */
#include <glpk.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "shifts/colgen.h"

/* The dives one after another: on cells (share > 0: shf_cg_cell_dive) or
 * on rows (dive below), each with its master rounds a step (0: until no
 * row prices out).  Rows, Instances 3-12, 30 s, each alone: 3 rounds was
 * best on 3, 5, 6 and 7, 0 on 9, 10 and 11, 1 on 5 and 6 (bench/shifts_lp
 * -i).  Cells first, two threads, Zen 5: Instance12's LP is its optimum,
 * 4040, and a dive on cells reaches it (3 rounds, 10%: 9.15 s), where one
 * on rows took 20.39 s for 5531; on 5, 8 and 9 rows do better (8: 1312
 * against 1315-1620). */
static const struct {
    int rounds;
    double share;
} dive_kinds[] = {{3, 0.1}, {3, 0}, {0, 0},    {10, 0.1},
                  {1, 0},   {2, 0}, {0, 0.05}, {5, 0}};
#define NDIVES (int)(sizeof dive_kinds / sizeof *dive_kinds)
/* a row enters the master when its reduced cost is below this */
#define CG_ENTER 1e-6
/* threads a round's pricing uses at most, past the caller's */
#define SHF_CG_THREADS 63
/* the bound's rounding: what floating sums may be off by, relatively */
#define CG_SLACK 1e-9
/* The root's rounds on wards above CG_SMOOTH_CELLS cells price at duals
 * half way between the master's and the best Lagrangian's so far (Wentges'
 * smoothing): the master's duals swing from round to round, the mix enters
 * fewer rows that the next round drops again.  A row enters if it prices
 * out at the master's own duals; a round where none does prices again at
 * those, so the LP ends solved as before.  Zen 5, two threads, bench/
 * shifts_lp 90 -t 2: Instance15 12.56 s and 2083 columns against 18.88 s
 * and 2982 (its quarter of a minute is 15 s); 13 43.33 s against 52.06 s,
 * 19 43.00 s against 66.38 s.  On Instance8 (840 cells) the tree that
 * follows the smoothed root's columns did not prove it in ten minutes
 * (1305, bound 1300) where it does in 172 s without; 12 (1680 cells) is
 * proven in 145.09 s with it. */
#define CG_SMOOTH_CELLS 1000
#define SMOOTH 0.5

int64_t shf_cg_ceiling(double v)
{
    if (!(v > -9e18)) /* no bound (-inf: out of time before one; or NaN) */
        return INT64_MIN;
    if (v > 9e18)
        return INT64_MAX;
    return (int64_t)ceil(v - CG_SLACK * (fabs(v) > 1 ? fabs(v) : 1) - 1e-7);
}

void shf_cg_add_column(struct shf_master *m, const struct shf_problem *p, int s,
                       const signed char *row, int64_t requests)
{
    int n = 0;
    for (int d = 0; d < p->ndays; d++)
        if (row[d] > 0) {
            m->ind[++n] = d * p->nshifts + row[d]; /* 1-based: k + 1 */
            m->val[n] = 1;
        }
    m->ind[++n] = m->nk + s + 1;
    m->val[n] = 1;
    if (m->nrows == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 256;
        m->staff = cs_xrealloc(m->staff, (size_t)m->cap * sizeof *m->staff);
        m->rows = cs_xrealloc(m->rows, (size_t)m->cap * (size_t)m->ndays);
    }
    m->staff[m->nrows] = s;
    memcpy(m->rows + (size_t)m->nrows * (size_t)m->ndays, row,
           (size_t)m->ndays);
    m->nrows++;
    int j = glp_add_cols(m->lp, 1);
    glp_set_col_bnds(m->lp, j, GLP_LO, 0, 0);
    glp_set_obj_coef(m->lp, j, (double)requests);
    glp_set_mat_col(m->lp, j, n, m->ind, m->val);
}

/* The cover rows with their slacks, and the staff's convexity rows. */
static void master_new(struct shf_master *m, const struct shf_problem *p)
{
    m->nk = p->ndays * p->nshifts;
    m->nstaff = p->nstaff;
    m->ndays = p->ndays;
    m->lp = glp_create_prob();
    glp_set_obj_dir(m->lp, GLP_MIN);
    glp_add_rows(m->lp, m->nk + p->nstaff);
    m->ind = cs_xmalloc(((size_t)p->ndays + 2) * sizeof *m->ind);
    m->val = cs_xmalloc(((size_t)p->ndays + 2) * sizeof *m->val);
    for (int k = 0; k < m->nk; k++) {
        glp_set_row_bnds(m->lp, k + 1, GLP_FX, p->need[k], p->need[k]);
        int j = glp_add_cols(m->lp, 2);
        int ind[2] = {0, k + 1};
        double up[2] = {0, 1}, down[2] = {0, -1};
        glp_set_col_bnds(m->lp, j, GLP_LO, 0, 0);
        glp_set_obj_coef(m->lp, j, p->under[k]);
        glp_set_mat_col(m->lp, j, 1, ind, up);
        glp_set_col_bnds(m->lp, j + 1, GLP_LO, 0, 0);
        glp_set_obj_coef(m->lp, j + 1, p->over[k]);
        glp_set_mat_col(m->lp, j + 1, 1, ind, down);
    }
    for (int s = 0; s < p->nstaff; s++)
        glp_set_row_bnds(m->lp, m->nk + s + 1, GLP_FX, 1, 1);
}

static void master_free(struct shf_master *m)
{
    if (m->lp)
        glp_delete_prob(m->lp);
    free(m->ind);
    free(m->val);
    free(m->staff);
    free(m->rows);
}

/* The master's cover duals, clamped to the box the slacks allow. */
static void duals(const struct shf_master *m, const struct shf_problem *p,
                  double *lambda, double *pi)
{
    for (int k = 0; k < m->nk; k++) {
        double l = glp_get_row_dual(m->lp, k + 1);
        lambda[k] = l > p->under[k]   ? p->under[k]
                    : l < -p->over[k] ? -p->over[k]
                                      : l;
    }
    for (int s = 0; s < m->nstaff; s++)
        pi[s] = glp_get_row_dual(m->lp, m->nk + s + 1);
}

/* A round's pricing shared out: staff members taken one at a time from a
 * counter, each into its own slot, until all are priced or one met the
 * deadline (the rest are then left at -1). */
struct pricing {
    struct shf_cg *c;
    atomic_int next;
    atomic_int slot; /* the threads' tables handed out */
    atomic_bool late;
};

static void *price_staff(void *arg)
{
    struct pricing *job = arg;
    struct shf_cg *c = job->c;
    const int n = c->p->ndays;
    struct shf_price_tables *tb = c->tables[atomic_fetch_add(&job->slot, 1)];
    for (int s; (s = atomic_fetch_add(&job->next, 1)) < c->p->nstaff;) {
        if (c->fixed[s] || atomic_load(&job->late))
            continue;
        c->pgot[s] = shf_price_row(c->pr[s], tb, c->lambda, c->deadline,
                                   c->prow + (size_t)s * (size_t)n,
                                   &c->pvalue[s], &c->preq[s]);
        if (c->pgot[s] < 0)
            atomic_store(&job->late, true);
    }
    return NULL;
}

/* c's pricing tables for n threads at least. */
static void make_tables(struct shf_cg *c, int n)
{
    if (n <= c->ntables)
        return;
    c->tables = cs_xrealloc(c->tables, (size_t)n * sizeof *c->tables);
    while (c->ntables < n)
        c->tables[c->ntables++] = shf_price_tables_new();
}

/* Every staff member not fixed priced under c->lambda into its slot, on
 * c->threads threads (the results do not depend on how many). */
static void price_round(struct shf_cg *c)
{
    const int nstaff = c->p->nstaff;
    if (!c->pgot) {
        c->prow = cs_xmalloc((size_t)nstaff * (size_t)c->p->ndays);
        c->pvalue = cs_xmalloc((size_t)nstaff * sizeof *c->pvalue);
        c->preq = cs_xmalloc((size_t)nstaff * sizeof *c->preq);
        c->pgot = cs_xmalloc((size_t)nstaff * sizeof *c->pgot);
    }
    for (int s = 0; s < nstaff; s++)
        c->pgot[s] = -1;
    struct pricing job = {.c = c};
    atomic_init(&job.next, 0);
    atomic_init(&job.slot, 0);
    atomic_init(&job.late, false);
    int helpers = (c->threads < nstaff ? c->threads : nstaff) - 1;
    pthread_t id[SHF_CG_THREADS];
    if (helpers > SHF_CG_THREADS)
        helpers = SHF_CG_THREADS;
    make_tables(c, helpers + 1);
    int started = 0;
    while (started < helpers &&
           !pthread_create(&id[started], NULL, price_staff, &job))
        started++;
    price_staff(&job);
    for (int t = 0; t < started; t++)
        pthread_join(id[t], NULL);
}

int shf_cg_rounds(struct shf_cg *c, int most, struct shf_colgen *out,
                  struct cs_error *err)
{
    const struct shf_problem *p = c->p;
    const int nk = p->ndays * p->nshifts;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    /* fixed bounds leave the last basis primal infeasible: the dual simplex
     * then (GLPK falls back to the primal where it fails).  The primal
     * after a round's new columns instead made the dives faster (Zen 4,
     * Instance8: three in 19 s, 1313, against one, 2017) but not the minute (8
     * at 1313 over seeds 0-2 against 1307-1362; 12 4085-4088 against
     * 4079-4091), and under branching it cost Instance7 its proof (1819
     * nodes unproven in 100 s against 411 nodes, 20 s; both with the
     * pricer's one pass then) */
    parm.meth = c->nfixed || c->allow ? GLP_DUALP : GLP_PRIMAL;
    const bool smooth = c->smooth && !c->nfixed && !c->allow;
    bool smoothed = false, resolve = true;
    double master = INFINITY;
    for (int round = 1;; round++) {
        if (!resolve) {
            /* a smoothed round added nothing: price at the master's duals */
            memcpy(c->lambda, c->master, (size_t)nk * sizeof *c->lambda);
            smoothed = false;
        } else {
            /* GLPK stops at the time left (its limit is in milliseconds) */
            parm.tm_lim =
                (int)fmin(INT32_MAX, fmax(1, (c->deadline - cs_now()) * 1e3));
            int solved = glp_simplex(c->m.lp, &parm);
            if (solved == GLP_ETMLIM) {
                c->timed_out = true;
                return 0;
            }
            if (solved || glp_get_status(c->m.lp) != GLP_OPT)
                return cs_error_set(err, NULL,
                                    "colgen: the master LP failed (GLPK)");
            out->rounds++;
            master = glp_get_obj_val(c->m.lp);
            if (!c->nfixed)
                out->master = master;
            duals(&c->m, p, c->lambda, c->pi);
            smoothed = false;
            if (smooth) {
                memcpy(c->master, c->lambda, (size_t)nk * sizeof *c->lambda);
                if (c->center_value > -INFINITY)
                    for (int k = 0; k < nk; k++) {
                        double mix =
                            SMOOTH * c->center[k] + (1 - SMOOTH) * c->master[k];
                        smoothed = smoothed || mix != c->master[k];
                        c->lambda[k] = mix;
                    }
            }
        }
        double L = 0;
        for (int k = 0; k < nk; k++)
            L += p->need[k] * c->lambda[k];
        int added = 0;
        if (c->threads > 1)
            price_round(c);
        for (int s = 0; s < p->nstaff; s++) {
            if (c->fixed[s])
                continue;
            double value;
            int64_t requests;
            signed char *row = c->row;
            int got;
            if (c->threads > 1) {
                row = c->prow + (size_t)s * (size_t)p->ndays;
                value = c->pvalue[s];
                requests = c->preq[s];
                got = c->pgot[s];
            } else
                got = shf_price_row(c->pr[s], c->tables[0], c->lambda,
                                    c->deadline, row, &value, &requests);
            if (got < 0) {
                c->timed_out = true; /* L is not a bound without every row */
                return 0;
            }
            if (!got) { /* only under branching: this node has no roster */
                c->infeasible = true;
                return 0;
            }
            L += value;
            double reduced = value;
            if (smoothed) { /* its reduced cost at the master's duals */
                reduced = (double)requests;
                for (int d = 0; d < p->ndays; d++)
                    if (row[d] > 0)
                        reduced -= c->master[d * p->nshifts + row[d] - 1];
            }
            if (reduced - c->pi[s] < -CG_ENTER) {
                shf_cg_add_column(&c->m, p, s, row, requests);
                added++;
            }
        }
        if (smooth && L > c->center_value) {
            c->center_value = L;
            memcpy(c->center, c->lambda, (size_t)nk * sizeof *c->center);
        }
        resolve = added || !smoothed;
        if (!c->nfixed) {
            if (L > out->bound)
                out->bound = L;
            out->solved = !added && !smoothed;
        }
        /* done: the LP solved, or its ceiling reached */
        if ((!added && !smoothed) ||
            (!c->nfixed &&
             (shf_cg_ceiling(out->bound) >= shf_cg_ceiling(master) ||
              shf_cg_ceiling(out->bound) >= c->cutoff)) ||
            round == most)
            return 0;
        if (cs_now() >= c->deadline) {
            c->timed_out = true;
            return 0;
        }
    }
}

/* The dive (shf_colgen_roster): every row the LP uses whole, else the one
 * it uses most, is chosen (its column fixed at 1, the staff member's others
 * at 0, no more of its rows priced), and the master solved again with the
 * rest priced anew, until every staff member has its row: a roster of
 * generated rows, into roster.  0 done, 1 out of time, -1 an error. */
static int dive(struct shf_cg *c, struct shf_colgen *out, signed char *roster,
                struct cs_error *err)
{
    const struct shf_problem *p = c->p;
    const int first = SHF_CG_FIRST(&c->m);
    int *chosen = cs_xmalloc((size_t)p->nstaff * sizeof *chosen);
    int rc = 0;
    while (c->nfixed < p->nstaff) {
        if ((rc = shf_cg_rounds(c, c->dive_rounds, out, err)) || c->timed_out) {
            rc = rc ? rc : 1;
            break;
        }
        int took = 0;
        for (int i = 0; i < c->m.nrows; i++) {
            int s = c->m.staff[i];
            if (!c->fixed[s] &&
                glp_get_col_prim(c->m.lp, first + i) > 1 - 1e-6) {
                c->fixed[s] = true;
                chosen[s] = i;
                took++;
            }
        }
        if (!took) {
            int best = -1;
            double top = -1;
            for (int i = 0; i < c->m.nrows; i++) {
                double x;
                if (!c->fixed[c->m.staff[i]] &&
                    (x = glp_get_col_prim(c->m.lp, first + i)) > top) {
                    top = x;
                    best = i;
                }
            }
            c->fixed[c->m.staff[best]] = true;
            chosen[c->m.staff[best]] = best;
            took = 1;
        }
        c->nfixed += took;
        for (int i = 0; i < c->m.nrows; i++)
            if (c->fixed[c->m.staff[i]]) {
                int on = chosen[c->m.staff[i]] == i;
                glp_set_col_bnds(c->m.lp, first + i, GLP_FX, on, on);
            }
    }
    if (!rc)
        for (int s = 0; s < p->nstaff; s++)
            memcpy(roster + (size_t)s * (size_t)p->ndays,
                   c->m.rows + (size_t)chosen[s] * (size_t)p->ndays,
                   (size_t)p->ndays);
    free(chosen);
    return rc;
}

/* The columns past the first `keep` dropped from the master, but the
 * rows of roster if `have` (the best so far, which a window of shf_cg_lns
 * holds outside its days), and the basis made anew.  The dives price their rows
 * under fixings and masks: left in, they made branch and price's trees and
 * nodes larger (two threads, Zen 5, `bench/shifts_lp 15 -i 15 -b 90 -t 2`:
 * Instance7 proven in 75 nodes, 4.22 s, against 80, 2.19 s without them;
 * 5 in 188, 1.58 s, against 56, 0.46 s; 6 in 14, 0.28 s, against 10,
 * 0.14 s). */
void shf_cg_drop_columns(struct shf_cg *c, int keep, const signed char *roster,
                         bool have)
{
    const int first = SHF_CG_FIRST(&c->m), n = c->p->ndays;
    if (c->m.nrows <= keep)
        return;
    int *num = cs_xmalloc((size_t)(c->m.nrows - keep + 1) * sizeof *num);
    int gone = 0, at = keep;
    for (int i = keep; i < c->m.nrows; i++) {
        const signed char *row = c->m.rows + (size_t)i * (size_t)n;
        if (have && !memcmp(row, roster + (size_t)c->m.staff[i] * (size_t)n,
                            (size_t)n)) {
            c->m.staff[at] = c->m.staff[i];
            memmove(c->m.rows + (size_t)at * (size_t)n, row, (size_t)n);
            at++;
        } else
            num[++gone] = first + i;
    }
    if (gone) {
        glp_del_cols(c->m.lp, gone, num);
        glp_std_basis(c->m.lp);
    }
    c->m.nrows = at;
    free(num);
}

/* Dives one after another for `seconds`, each of its own kind
 * (dive_kinds in turn; the pool of rows grows from dive to dive, and what
 * the dives added but the best roster's rows is dropped at the end), the
 * cheapest roster the checker passes into roster.  0, or -1 with why in
 * err.  (A roster of the pool's rows alone, their choice
 * annealed on requests plus cover with no pricing, ended far above: 2400
 * and 2015 on Instance14 after its LP and branching, 1937 and 1442 on 8,
 * where the anneal reaches 1362-1386 and 1307-1362.) */
static int dives(struct shf_cg *c, double seconds, signed char *roster,
                 struct shf_colgen *out, struct cs_error *err)
{
    const struct shf_problem *p = c->p;
    const size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    const int first = SHF_CG_FIRST(&c->m);
    const double began = cs_now();
    signed char *try = cs_xmalloc(cells);
    const int keep = c->m.nrows;
    int rc = 0;
    c->deadline = began + seconds;
    /* until a roster at the floor, or every kind of dive in turn since
     * the last better one (so a small ward is not held to the deadline) */
    for (int i = 0, since = 0;
         !rc && cs_now() < c->deadline && since < NDIVES &&
         (out->roster_cost < 0 || out->roster_cost > out->floor);
         i++, since++) {
        c->timed_out = false;
        c->nfixed = 0;
        memset(c->fixed, 0, (size_t)p->nstaff * sizeof *c->fixed);
        for (int j = 0; j < c->m.nrows; j++)
            glp_set_col_bnds(c->m.lp, first + j, GLP_LO, 0, 0);
        c->dive_rounds = dive_kinds[i % NDIVES].rounds;
        const int64_t was = out->roster_cost;
        int got;
        if (dive_kinds[i % NDIVES].share > 0)
            got = shf_cg_cell_dive(c, c->dive_rounds,
                                   dive_kinds[i % NDIVES].share, roster, out,
                                   err);
        else {
            struct shf_report r;
            got = dive(c, out, try, err);
            if (!got && !shf_check(p, try, &r) &&
                (out->roster_cost < 0 || r.total < out->roster_cost)) {
                out->roster_cost = r.total;
                memcpy(roster, try, cells);
            }
        }
        if (got < 0)
            rc = -1;
        if (out->roster_cost != was)
            since = -1;
        out->dives += !got;
    }
    shf_cg_drop_columns(c, keep, roster, out->roster_cost >= 0);
    out->dive_seconds = cs_now() - began;
    free(try);
    return rc;
}

/* One side of the split on the under-cover total U = sum of the under
 * slacks: the master with the row U >= b (ge) or U <= b, solved by column
 * generation until no row prices out, the deadline, or its bound's ceiling
 * reaches `enough`.  Returns the side's best Lagrangian value: with mu the
 * new row's dual (>= 0 on U >= b, <= 0 on U <= b), for cover duals clamped
 * to -over_k <= lambda_k <= under_k - mu
 *   cost >= sum_k need_k lambda_k + mu b + sum_s min over rows (c - lambda a)
 * for every roster of that side, as in the file's comment.  U <= b may
 * leave the master no solution: an artificial column, at a cost above any
 * roster's cover, keeps one (mu >= -that cost, its reduced cost). */
static double split_side(struct shf_cg *c, double b, bool ge, int64_t enough)
{
    const struct shf_problem *p = c->p;
    const int nk = c->m.nk;
    glp_prob *lp = c->m.lp;
    int *ind = cs_xmalloc((size_t)(nk + 1) * sizeof *ind);
    double *val = cs_xmalloc((size_t)(nk + 1) * sizeof *val);
    double big = 1;
    int n = 0;
    for (int k = 0; k < nk; k++)
        if (p->under[k] > 0) {
            ind[++n] = 2 * k + 1;
            val[n] = 1;
            big += (double)p->under[k] * p->need[k];
        }
    const int r = glp_add_rows(lp, 1);
    glp_set_mat_row(lp, r, n, ind, val);
    glp_set_row_bnds(lp, r, ge ? GLP_LO : GLP_UP, b, b);
    int art = 0;
    if (!ge) {
        art = glp_add_cols(lp, 1);
        int ai[2] = {0, r};
        double av[2] = {0, -1};
        glp_set_col_bnds(lp, art, GLP_LO, 0, 0);
        glp_set_obj_coef(lp, art, big);
        glp_set_mat_col(lp, art, 1, ai, av);
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    double best = -INFINITY;
    for (;;) {
        parm.tm_lim =
            (int)fmin(INT32_MAX, fmax(1, (c->deadline - cs_now()) * 1e3));
        int got = glp_simplex(lp, &parm);
        if (got == GLP_EBADB || got == GLP_ESING || got == GLP_ECOND) {
            glp_adv_basis(lp, 0); /* the new row's basis, once */
            got = glp_simplex(lp, &parm);
        }
        if (got || glp_get_status(lp) != GLP_OPT)
            break; /* out of time (or GLPK failed): the best so far holds */
        double mu = glp_get_row_dual(lp, r);
        mu = ge ? fmax(mu, 0) : fmin(fmax(mu, -big), 0);
        double L = mu * b;
        for (int k = 0; k < nk; k++) {
            double l = glp_get_row_dual(lp, k + 1);
            double top = p->under[k] > 0 ? p->under[k] - mu : p->under[k];
            c->lambda[k] = l > top ? top : l < -p->over[k] ? -p->over[k] : l;
            L += p->need[k] * c->lambda[k];
        }
        int added = 0;
        for (int s = 0; s < p->nstaff && L > -INFINITY; s++) {
            double value;
            int64_t requests;
            int priced = shf_price_row(c->pr[s], c->tables[0], c->lambda,
                                       c->deadline, c->row, &value, &requests);
            if (priced <= 0) {
                L = -INFINITY; /* out of time: no bound this round */
                break;
            }
            L += value;
            if (value - glp_get_row_dual(lp, c->m.nk + s + 1) < -CG_ENTER) {
                shf_cg_add_column(&c->m, p, s, c->row, requests);
                added++;
            }
        }
        best = fmax(best, L);
        if (L == -INFINITY || !added || shf_cg_ceiling(best) >= enough ||
            shf_cg_ceiling(best) >= shf_cg_ceiling(glp_get_obj_val(lp)))
            break;
    }
    int dr[2] = {0, r};
    glp_del_rows(lp, 1, dr);
    if (art) {
        int dc[2] = {0, art};
        glp_del_cols(lp, 1, dc);
    }
    glp_adv_basis(lp, 0); /* the rows and columns changed: a fresh basis */
    free(ind);
    free(val);
    return best;
}

/* Every roster's under slacks are whole, so is their sum U.  Where the
 * LP's is not (Instance9: 3.67, LP 405.67), every roster has U <= floor or
 * U >= ceil, and the lesser of the two sides' bounds holds for all
 * (Instance9: U >= 4 costs 439, its optimum, and U <= 3 has no LP
 * solution; Instance1: 606.33 and none, so 607, its optimum, against 558).
 * The bound raised into out->bound.  The sides work on a copy of the
 * master and its pricers (shf_cg_copy), which goes after: the dives start
 * from the master's basis and columns as the rounds left them, and follow
 * them closely (on the master itself, with the sides' rows and a new basis,
 * Instance9's dives found 539 in the minute's share, against 439). */
static void split_under(struct shf_cg *c, struct shf_colgen *out)
{
    const int nk = c->m.nk;
    double u = 0;
    for (int k = 0; k < nk; k++)
        if (c->p->under[k] > 0)
            u += glp_get_col_prim(c->m.lp, 2 * k + 1);
    const double low = floor(u + 1e-6);
    if (u - low < 1e-6 || cs_now() >= c->deadline)
        return;
    struct shf_cg side;
    if (!shf_cg_copy(&side, c)) {
        const double up = split_side(&side, low + 1, true, INT64_MAX);
        /* the other side need not pass the first: the bound is the lesser
         * (none where the first ran out of time before a bound) */
        const double down =
            up > -INFINITY ? split_side(&side, low, false, shf_cg_ceiling(up))
                           : -INFINITY;
        if (fmin(up, down) > out->bound)
            out->bound = fmin(up, down);
    }
    shf_cg_free(&side);
}

int shf_colgen_run(const struct shf_problem *p, double seconds,
                   struct shf_colgen *out, struct cs_error *err)
{
    return shf_colgen_roster(p, seconds, 0, NULL, out, err);
}

int shf_colgen_roster(const struct shf_problem *p, double seconds, double until,
                      signed char *roster, struct shf_colgen *out,
                      struct cs_error *err)
{
    return shf_colgen_prove(p, seconds, until, 0, 1, roster, out, err);
}

/* c made for p (its pricers, master and first columns, as shf_cg_free
 * takes them) and the LP solved for at most `seconds`, the split on the
 * under-cover total after: out's LP fields.  0, or -1 with why in err. */
static int root(struct shf_cg *c, const struct shf_problem *p, double seconds,
                int threads, struct shf_colgen *out, struct cs_error *err)
{
    const double began = cs_now();
    const int nk = p->ndays * p->nshifts, n = p->nstaff;
    int rc = 0;
    memset(out, 0, sizeof *out);
    out->bound = -INFINITY;
    out->exact = true;
    *c = (struct shf_cg){.p = p,
                         .deadline = began + seconds,
                         .cutoff = INT64_MAX,
                         .threads = threads};
    c->pr = cs_xcalloc((size_t)n, sizeof *c->pr);
    for (int s = 0; s < n && !rc; s++) {
        c->pr[s] = shf_pricer_new(p, s);
        if (!c->pr[s])
            rc = cs_error_set(err, NULL,
                              "colgen: staff %s's row has too many states to "
                              "price",
                              p->staff_id[s]);
        else
            out->exact = out->exact && shf_pricer_exact(c->pr[s]);
    }
    c->lambda = cs_xcalloc((size_t)nk, sizeof *c->lambda);
    c->pi = cs_xcalloc((size_t)n, sizeof *c->pi);
    c->smooth = (int64_t)n * p->ndays > CG_SMOOTH_CELLS;
    c->center = cs_xcalloc((size_t)nk, sizeof *c->center);
    c->master = cs_xcalloc((size_t)nk, sizeof *c->master);
    c->center_value = -INFINITY;
    c->row = cs_xmalloc((size_t)p->ndays);
    c->fixed = cs_xcalloc((size_t)n, sizeof *c->fixed);
    make_tables(c, 1);
    glp_term_out(GLP_OFF);
    if (!rc)
        master_new(&c->m, p);
    /* the first columns: each staff member's cheapest row by its requests
     * alone, and with every short shift worth its under weight */
    for (int pass = 0; pass < 2 && !rc && !c->timed_out; pass++)
        for (int s = 0; s < n && !rc && !c->timed_out; s++) {
            for (int k = 0; k < nk; k++)
                c->lambda[k] =
                    pass ? (p->need[k] ? p->under[k] : -p->over[k]) : 0;
            double value;
            int64_t requests;
            int got = shf_price_row(c->pr[s], c->tables[0], c->lambda,
                                    c->deadline, c->row, &value, &requests);
            if (got < 0)
                c->timed_out = true;
            else if (!got)
                rc =
                    cs_error_set(err, NULL, "colgen: staff %s has no legal row",
                                 p->staff_id[s]);
            else
                shf_cg_add_column(&c->m, p, s, c->row, requests);
        }
    if (!rc && !c->timed_out)
        rc = shf_cg_rounds(c, 0, out, err);
    c->smooth = false;
    if (!rc && !c->timed_out && out->solved)
        split_under(c, out);
    out->columns = c->m.lp ? c->m.nrows : 0;
    out->floor = out->bound > -INFINITY ? shf_cg_ceiling(out->bound) : 0;
    out->seconds = cs_now() - began;
    out->roster_cost = -1;
    return rc;
}

/* branch and price's share of the time after the dives; the large
 * neighbourhoods of the best roster have the rest, CG_LNS_SECONDS at most,
 * and a longer time goes to branch and price again, from that roster, for
 * the proof.  The minute on two threads (Zen 5): Instance8 1310, 12 4043,
 * where branch and price for two thirds and the master's rows as an
 * integer program (GLPK) for the third left 1319 and 4045; Instance8
 * proven in 188 s, 12 in 138 s (docs/performance.md).  A fifth for the
 * tree, with the dives until 30% of the minute, cost Instances 14 and 16
 * their proofs on one thread (1279; 3225 at the bound 3224). */
#define CG_BP_SHARE 0.5
#define CG_LNS_SECONDS 30.0

int shf_colgen_prove(const struct shf_problem *p, double seconds, double until,
                     double prove, int threads, signed char *roster,
                     struct shf_colgen *out, struct cs_error *err)
{
    const double began = cs_now();
    struct shf_cg c;
    int rc = root(&c, p, seconds, threads, out, err);
    /* an LP its time cut short leads no dive, and gives no tree a bound
     * worth branching under: its bound stays, the search gets the time
     * (Instance15 on one thread, its LP 3762 of 3824 in its quarter: dives
     * from it kept the search's first roster to 32 s and its minute to
     * 4246, against 4063 without the LP) */
    const bool cut = c.timed_out;
    if (!rc && roster && !cut && out->bound > -INFINITY &&
        cs_now() < began + until)
        rc = dives(&c, began + until - cs_now(), roster, out, err);
    /* each dive's first rounds are the root's, priced whole: where the LP
     * stopped at its ceiling unsolved they may have raised its bound */
    if (out->bound > -INFINITY && shf_cg_ceiling(out->bound) > out->floor)
        out->floor = shf_cg_ceiling(out->bound);
    out->bp_bound = out->floor;
    const bool go = !rc && roster && !cut && out->bound > -INFINITY;
    const double bp_until = cs_now() + (began + prove - cs_now()) * CG_BP_SHARE;
    if (go && cs_now() < began + prove)
        rc = shf_cg_branch(&c, bp_until, threads, roster, out, err);
    if (go && !rc && cs_now() < began + prove && out->roster_cost >= 0 &&
        !out->bp_proven && out->roster_cost > out->bp_bound)
        rc = shf_cg_lns(&c, fmin(began + prove, cs_now() + CG_LNS_SECONDS), 0,
                        threads, roster, out, err);
    if (go && !rc && cs_now() < began + prove && !out->bp_proven &&
        out->roster_cost > out->bp_bound) {
        /* its bound is the higher of the two trees' */
        const int64_t had = out->bp_bound;
        const double took = out->bp_seconds;
        rc = shf_cg_branch(&c, began + prove, threads, roster, out, err);
        out->bp_bound = out->bp_bound > had ? out->bp_bound : had;
        out->bp_seconds += took;
    }
    shf_cg_free(&c);
    return rc;
}

int shf_colgen_lns(const struct shf_problem *p, double seconds, double prove,
                   int windows, signed char *roster, struct shf_colgen *out,
                   struct cs_error *err)
{
    const double began = cs_now();
    struct shf_cg c;
    int rc = root(&c, p, seconds, 1, out, err);
    struct shf_report r;
    if (!rc && shf_check(p, roster, &r))
        rc = cs_error_set(err, NULL, "colgen: the roster breaks a hard rule");
    if (!rc && !c.timed_out && out->bound > -INFINITY) {
        out->roster_cost = r.total;
        out->bp_bound = out->floor;
        rc = shf_cg_lns(&c, began + prove, windows, 1, roster, out, err);
    }
    shf_cg_free(&c);
    return rc;
}

void shf_cg_free(struct shf_cg *c)
{
    master_free(&c->m);
    if (c->pr)
        for (int s = 0; s < c->p->nstaff; s++)
            shf_pricer_free(c->pr[s]);
    free(c->pr);
    free(c->lambda);
    free(c->center);
    free(c->master);
    free(c->pi);
    free(c->row);
    free(c->fixed);
    free(c->prow);
    free(c->pvalue);
    free(c->preq);
    free(c->pgot);
    for (int i = 0; i < c->ntables; i++)
        shf_price_tables_free(c->tables[i]);
    free(c->tables);
}

int shf_cg_copy(struct shf_cg *dst, const struct shf_cg *src)
{
    const struct shf_problem *p = src->p;
    const int nk = p->ndays * p->nshifts, n = p->nstaff;
    *dst = (struct shf_cg){.p = p,
                           .threads = src->threads,
                           .cutoff = INT64_MAX,
                           .deadline = src->deadline,
                           .dive_rounds = src->dive_rounds};
    dst->pr = cs_xcalloc((size_t)n, sizeof *dst->pr);
    for (int s = 0; s < n; s++)
        if (!(dst->pr[s] = shf_pricer_new(p, s)))
            return -1;
    dst->lambda = cs_xmalloc((size_t)nk * sizeof *dst->lambda);
    memcpy(dst->lambda, src->lambda, (size_t)nk * sizeof *dst->lambda);
    dst->pi = cs_xcalloc((size_t)n, sizeof *dst->pi);
    dst->row = cs_xmalloc((size_t)p->ndays);
    dst->fixed = cs_xcalloc((size_t)n, sizeof *dst->fixed);
    make_tables(dst, 1);
    struct shf_master *m = &dst->m;
    const struct shf_master *from = &src->m;
    *m = (struct shf_master){.nk = from->nk,
                             .nstaff = from->nstaff,
                             .ndays = from->ndays,
                             .nrows = from->nrows,
                             .cap = from->nrows};
    m->lp = glp_create_prob();
    glp_copy_prob(m->lp, from->lp, GLP_OFF);
    m->ind = cs_xmalloc(((size_t)p->ndays + 2) * sizeof *m->ind);
    m->val = cs_xmalloc(((size_t)p->ndays + 2) * sizeof *m->val);
    m->staff = cs_xmalloc((size_t)m->cap * sizeof *m->staff);
    memcpy(m->staff, from->staff, (size_t)m->nrows * sizeof *m->staff);
    m->rows = cs_xmalloc((size_t)m->cap * (size_t)m->ndays);
    memcpy(m->rows, from->rows, (size_t)m->nrows * (size_t)m->ndays);
    return 0;
}
