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
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "shifts/colgen.h"

/* a row enters the master when its reduced cost is below this */
#define CG_ENTER 1e-6
/* the bound's rounding: what floating sums may be off by, relatively */
#define CG_SLACK 1e-9

/* The Lagrangian value's ceiling, safe against rounding. */
static int64_t ceiling(double v)
{
    return (int64_t)ceil(v - CG_SLACK * (fabs(v) > 1 ? fabs(v) : 1) - 1e-7);
}

struct master {
    glp_prob *lp;
    int nk, nstaff;
    int *ind; /* 1-based, for glp_set_mat_col */
    double *val;
};

/* Row `row` of staff s, at cost requests, as a new column. */
static void add_column(struct master *m, const struct shf_problem *p, int s,
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
    int j = glp_add_cols(m->lp, 1);
    glp_set_col_bnds(m->lp, j, GLP_LO, 0, 0);
    glp_set_obj_coef(m->lp, j, (double)requests);
    glp_set_mat_col(m->lp, j, n, m->ind, m->val);
}

/* The cover rows with their slacks, and the staff's convexity rows. */
static void master_new(struct master *m, const struct shf_problem *p)
{
    m->nk = p->ndays * p->nshifts;
    m->nstaff = p->nstaff;
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

static void master_free(struct master *m)
{
    if (m->lp)
        glp_delete_prob(m->lp);
    free(m->ind);
    free(m->val);
}

/* The master's cover duals, clamped to the box the slacks allow. */
static void duals(const struct master *m, const struct shf_problem *p,
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

int shf_colgen_run(const struct shf_problem *p, double seconds,
                   struct shf_colgen *out, struct cs_error *err)
{
    const double began = cs_now(), deadline = began + seconds;
    bool timed_out = false;
    const int nk = p->ndays * p->nshifts, n = p->nstaff;
    int rc = 0;
    memset(out, 0, sizeof *out);
    out->bound = -INFINITY;
    out->exact = true;
    struct shf_pricer **pr = cs_xcalloc((size_t)n, sizeof *pr);
    for (int s = 0; s < n && !rc; s++) {
        pr[s] = shf_pricer_new(p, s);
        if (!pr[s])
            rc = cs_error_set(err, NULL,
                              "colgen: staff %s's row has too many states to "
                              "price",
                              p->staff_id[s]);
        else
            out->exact = out->exact && shf_pricer_exact(pr[s]);
    }
    double *lambda = cs_xcalloc((size_t)nk, sizeof *lambda);
    double *pi = cs_xcalloc((size_t)n, sizeof *pi);
    signed char *row = cs_xmalloc((size_t)p->ndays);
    struct master m = {0};
    glp_term_out(GLP_OFF);
    if (!rc)
        master_new(&m, p);
    /* the first columns: each staff member's cheapest row by its requests
     * alone, and with every short shift worth its under weight */
    for (int pass = 0; pass < 2 && !rc && !timed_out; pass++)
        for (int s = 0; s < n && !rc && !timed_out; s++) {
            for (int k = 0; k < nk; k++)
                lambda[k] = pass ? (p->need[k] ? p->under[k] : -p->over[k]) : 0;
            double value;
            int64_t requests;
            int got =
                shf_price_row(pr[s], lambda, deadline, row, &value, &requests);
            if (got < 0)
                timed_out = true;
            else if (!got)
                rc =
                    cs_error_set(err, NULL, "colgen: staff %s has no legal row",
                                 p->staff_id[s]);
            else
                add_column(&m, p, s, row, requests);
        }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_PRIMAL;
    while (!rc && !timed_out) {
        /* GLPK stops at the time left (its limit is in milliseconds) */
        parm.tm_lim =
            (int)fmin(INT32_MAX, fmax(1, (deadline - cs_now()) * 1e3));
        int solved = glp_simplex(m.lp, &parm);
        if (solved == GLP_ETMLIM)
            break;
        if (solved || glp_get_status(m.lp) != GLP_OPT) {
            rc = cs_error_set(err, NULL, "colgen: the master LP failed (GLPK)");
            break;
        }
        out->rounds++;
        out->master = glp_get_obj_val(m.lp);
        duals(&m, p, lambda, pi);
        double L = 0;
        for (int k = 0; k < nk; k++)
            L += p->need[k] * lambda[k];
        int added = 0;
        for (int s = 0; s < n && !timed_out; s++) {
            double value;
            int64_t requests;
            if (shf_price_row(pr[s], lambda, deadline, row, &value, &requests) <
                0) {
                timed_out = true; /* L is not a bound without every row */
                break;
            }
            L += value;
            if (value - pi[s] < -CG_ENTER) {
                add_column(&m, p, s, row, requests);
                added++;
            }
        }
        if (timed_out)
            break;
        if (L > out->bound)
            out->bound = L;
        out->solved = !added;
        /* done: the LP solved, its ceiling reached, or the time spent */
        if (!added || ceiling(out->bound) >= ceiling(out->master) ||
            cs_now() - began >= seconds)
            break;
    }
    out->columns = m.lp ? glp_get_num_cols(m.lp) - 2 * nk : 0;
    out->floor = out->bound > -INFINITY ? ceiling(out->bound) : 0;
    out->seconds = cs_now() - began;
    master_free(&m);
    for (int s = 0; s < n; s++)
        shf_pricer_free(pr[s]);
    free(pr);
    free(lambda);
    free(pi);
    free(row);
    return rc;
}
