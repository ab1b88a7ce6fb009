/* shifts/colbranch.c - branch and price: the LP bound of colgen.c made
 * exact by branching on cells, best first.
 *
 * A node is the decisions on its path, each "staff s has value v on day d"
 * or "has not", kept as masks of the values each cell has left (c->allow,
 * read by the pricers; an open node keeps its own copy).  Invariant: a
 * master column is open (bounds [0, inf)) exactly when its row fits the
 * masks, else fixed at 0; every change of a mask re-reads that staff
 * member's columns, and new columns are priced under the masks, so they
 * fit.  A node's Lagrangian value (any round's, shf_cg_rounds) bounds
 * every roster under it; a node whose ceiling reaches the incumbent's cost
 * is pruned, one whose LP is whole is a roster (checked by shf_check),
 * else it branches on the cell value the LP takes most fractionally.
 * Best first, each pick plunged to a leaf: the least open bound is the
 * proof's, and it rises as the tree is worked (depth first alone left the
 * root's "has not" child open at the root's bound until the end: an 8-day
 * ward of five staff kept its LP bound, 214 against 250, for 60 s).
 */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "shifts/colgen.h"

/* an LP value this close to 0 or 1 is whole */
#define BP_WHOLE 1e-6

/* the open nodes' masks at most (Instance9's 1680 cells: 13 KB a node) */
#define BP_BYTES ((size_t)256 << 20)

struct bp {
    struct shf_cg *c;
    struct shf_colgen *out;
    struct cs_error *err;
    signed char *roster; /* the incumbent */
    int64_t best;        /* its cost; INT64_MAX: none */
    double open;         /* least bound of the nodes left open */
    uint64_t seq;        /* nodes opened */
    double *agg;         /* nstaff x ndays x nv: the LP's value of each cell */
    signed char *try;
    double deadline;
};

/* Does column i fit the masks? */
static bool fits(const struct shf_cg *c, int i)
{
    const int n = c->p->ndays, s = c->m.staff[i];
    const signed char *row = c->m.rows + (size_t)i * (size_t)n;
    const uint64_t *allow = c->allow + (size_t)s * (size_t)n;
    for (int d = 0; d < n; d++)
        if (!(allow[d] >> row[d] & 1))
            return false;
    return true;
}

/* Staff s's columns opened or closed by the masks; false if none is open
 * and s has no legal row left under them (else one is priced in). */
static bool sync(struct shf_cg *c, int s)
{
    const int first = SHF_CG_FIRST(&c->m);
    int open = 0;
    for (int i = 0; i < c->m.nrows; i++) {
        if (c->m.staff[i] != s)
            continue;
        bool on = fits(c, i);
        int type = glp_get_col_type(c->m.lp, first + i);
        if (on && type != GLP_LO)
            glp_set_col_bnds(c->m.lp, first + i, GLP_LO, 0, 0);
        else if (!on && type != GLP_FX)
            glp_set_col_bnds(c->m.lp, first + i, GLP_FX, 0, 0);
        open += on;
    }
    if (open)
        return true;
    double value;
    int64_t requests;
    if (shf_price_row(c->pr[s], c->lambda, 0, c->row, &value, &requests) <= 0)
        return false;
    shf_cg_add_column(&c->m, c->p, s, c->row, requests);
    return true;
}

/* The LP's value of each cell into b->agg; the (s, d, v) it takes most
 * fractionally into *cell (s x ndays + d) and *value, or false if whole. */
static bool fractional(struct bp *b, int *cell, int *value)
{
    const struct shf_cg *c = b->c;
    const int n = c->p->ndays, nv = c->p->nshifts + 1;
    const size_t cells = (size_t)c->p->nstaff * (size_t)n;
    const int first = SHF_CG_FIRST(&c->m);
    memset(b->agg, 0, cells * (size_t)nv * sizeof *b->agg);
    for (int i = 0; i < c->m.nrows; i++) {
        double x = glp_get_col_prim(c->m.lp, first + i);
        if (x < 1e-9)
            continue;
        const signed char *row = c->m.rows + (size_t)i * (size_t)n;
        double *agg = b->agg + (size_t)c->m.staff[i] * (size_t)n * (size_t)nv;
        for (int d = 0; d < n; d++)
            agg[(size_t)d * nv + row[d]] += x;
    }
    double most = BP_WHOLE;
    for (size_t k = 0; k < cells; k++)
        for (int v = 0; v < nv; v++) {
            double x = b->agg[k * nv + v], f = x < 1 - x ? x : 1 - x;
            if (f > most) {
                most = f;
                *cell = (int)k;
                *value = v;
            }
        }
    return most > BP_WHOLE;
}

/* The whole LP's roster: a new incumbent if the checker passes it and it
 * is cheaper.  False if the checker fails it (a rule the pricers leave
 * out): the node stays open. */
static bool take_roster(struct bp *b)
{
    const struct shf_problem *p = b->c->p;
    const int n = p->ndays, nv = p->nshifts + 1;
    const size_t cells = (size_t)p->nstaff * (size_t)n;
    for (size_t k = 0; k < cells; k++) {
        int v = 0;
        while (v < nv - 1 && b->agg[k * nv + v] < 0.5)
            v++;
        b->try[k] = (signed char)v;
    }
    struct shf_report r;
    if (shf_check(p, b->try, &r))
        return false;
    if (r.total < b->best) {
        b->best = r.total;
        memcpy(b->roster, b->try, cells);
        b->out->roster_cost = r.total;
    }
    return true;
}

/* An open node: the masks it is under (nstaff x ndays) and its parent's
 * bound; seq orders nodes of one bound, the newest first. */
struct bp_node {
    double bound;
    uint64_t seq;
    uint64_t allow[];
};

/* The open nodes, least bound first (a binary heap). */
struct bp_heap {
    struct bp_node **at;
    size_t n, cap, bytes;
};

static bool before(const struct bp_node *a, const struct bp_node *b)
{
    return a->bound < b->bound || (a->bound == b->bound && a->seq > b->seq);
}

static void heap_push(struct bp_heap *h, struct bp_node *x)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->at = cs_xrealloc(h->at, h->cap * sizeof *h->at);
    }
    size_t i = h->n++;
    while (i && before(x, h->at[(i - 1) / 2])) {
        h->at[i] = h->at[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->at[i] = x;
}

static struct bp_node *heap_pop(struct bp_heap *h)
{
    struct bp_node *top = h->at[0], *x = h->at[--h->n];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= h->n)
            break;
        if (k + 1 < h->n && before(h->at[k + 1], h->at[k]))
            k++;
        if (!before(h->at[k], x))
            break;
        h->at[i] = h->at[k];
        i = k;
    }
    if (h->n)
        h->at[i] = x;
    return top;
}

/* A node under masks allow (cells of them) at bound into the heap; false
 * if the open nodes would pass BP_BYTES. */
static bool open_node(struct bp *b, struct bp_heap *h, const uint64_t *allow,
                      size_t cells, double bound)
{
    const size_t size = sizeof(struct bp_node) + cells * sizeof *allow;
    if (h->bytes + size > BP_BYTES)
        return false;
    struct bp_node *x = cs_xmalloc(size);
    x->bound = bound;
    x->seq = b->seq++;
    memcpy(x->allow, allow, cells * sizeof *allow);
    h->bytes += size;
    heap_push(h, x);
    return true;
}

/* The masks of x made the pricers' and the master's (only staff whose
 * masks differ are re-read); false if a staff member has no row left. */
static bool load(struct shf_cg *c, const uint64_t *allow)
{
    const size_t n = (size_t)c->p->ndays;
    for (int s = 0; s < c->p->nstaff; s++) {
        uint64_t *mine = c->allow + (size_t)s * n;
        const uint64_t *want = allow + (size_t)s * n;
        if (memcmp(mine, want, n * sizeof *mine)) {
            memcpy(mine, want, n * sizeof *mine);
            if (!sync(c, s))
                return false;
        }
    }
    return true;
}

/* Best first from the root (the masks in c->allow, bound `bound`), each
 * pick plunged: the open node of least bound is taken up, then its "has"
 * child, and so on down until a node is cut or whole (so rosters are met
 * as depth first meets them), each "has not" child left open.  So the
 * least open bound, the proof's, rises as the tree is worked.  0, or -1
 * with why in b->err.  Past the deadline, or with the open nodes at
 * BP_BYTES, the rest is left open: b->open their least bound. */
static int search(struct bp *b, double bound)
{
    struct shf_cg *c = b->c;
    const size_t cells = (size_t)c->p->nstaff * (size_t)c->p->ndays;
    struct bp_heap h = {0};
    int rc = 0;
    bool plunge = true; /* the root's masks are c->allow's */
    double at = bound;
    while (!rc) {
        if (!plunge) {
            if (!h.n || shf_cg_ceiling(h.at[0]->bound) >= b->best)
                break; /* every open node: none cheaper under it */
            if (cs_now() >= b->deadline)
                break;
            struct bp_node *x = heap_pop(&h);
            h.bytes -= sizeof *x + cells * sizeof *x->allow;
            at = x->bound;
            const bool rows = load(c, x->allow);
            free(x);
            if (!rows)
                continue;
        }
        plunge = false;
        if (shf_cg_ceiling(at) >= b->best)
            continue;
        if (cs_now() >= b->deadline) {
            b->open = fmin(b->open, at);
            break;
        }
        b->out->bp_nodes++;
        struct shf_colgen node = {.bound = at};
        c->timed_out = c->infeasible = false;
        c->cutoff = b->best;
        c->deadline = b->deadline;
        if (shf_cg_rounds(c, 0, &node, b->err)) {
            rc = -1;
            break;
        }
        b->out->rounds += node.rounds;
        if (c->infeasible)
            continue;
        if (c->timed_out) {
            b->open = fmin(b->open, node.bound);
            break;
        }
        if (shf_cg_ceiling(node.bound) >= b->best)
            continue;
        int cell = 0, v = 0;
        if (!fractional(b, &cell, &v)) {
            if (!take_roster(b))
                b->open = fmin(b->open, node.bound);
            continue;
        }
        uint64_t *allow = c->allow + cell;
        const uint64_t was = *allow;
        *allow = was & ~((uint64_t)1 << v); /* has not: left open */
        if (!open_node(b, &h, c->allow, cells, node.bound)) {
            *allow = was;
            b->open = fmin(b->open, node.bound);
            break;
        }
        *allow = (uint64_t)1 << v; /* has: taken up next */
        at = node.bound;
        plunge = sync(c, cell / c->p->ndays);
    }
    while (h.n) {
        struct bp_node *x = heap_pop(&h);
        if (shf_cg_ceiling(x->bound) < b->best)
            b->open = fmin(b->open, x->bound);
        free(x);
    }
    free(h.at);
    return rc;
}

int shf_cg_branch(struct shf_cg *c, double deadline, signed char *roster,
                  struct shf_colgen *out, struct cs_error *err)
{
    const double began = cs_now();
    const struct shf_problem *p = c->p;
    const int n = p->ndays, nv = p->nshifts + 1;
    const size_t cells = (size_t)p->nstaff * (size_t)n;
    out->bp_bound = out->floor;
    /* fairness's penalties are no row's: a whole LP is then not the cost
     * of its roster, and a leaf proves nothing */
    if (p->fair.nights_weight || p->fair.weekends_weight)
        return 0;
    struct bp b = {.c = c,
                   .out = out,
                   .err = err,
                   .roster = roster,
                   .best = out->roster_cost < 0 ? INT64_MAX : out->roster_cost,
                   .open = INFINITY,
                   .deadline = deadline};
    b.agg = cs_xmalloc(cells * (size_t)nv * sizeof *b.agg);
    b.try = cs_xmalloc(cells);
    /* every value left, every column open (the dives fixed some) */
    /* every value left but a pinned cell's (re-rostering: pinned, or
     * before from_day), every column that keeps them open (the dives
     * fixed some) */
    c->allow = cs_xmalloc(cells * sizeof *c->allow);
    for (size_t k = 0; k < cells; k++)
        c->allow[k] = p->fixed && p->fixed[k] >= 0 ? (uint64_t)1 << p->fixed[k]
                                                   : ((uint64_t)1 << nv) - 1;
    for (int s = 0; s < p->nstaff; s++)
        shf_pricer_allow(c->pr[s], c->allow + (size_t)s * (size_t)n);
    c->nfixed = 0;
    memset(c->fixed, 0, (size_t)p->nstaff * sizeof *c->fixed);
    for (int i = 0; i < c->m.nrows; i++)
        glp_set_col_bnds(c->m.lp, SHF_CG_FIRST(&c->m) + i, GLP_LO, 0, 0);
    bool rows = true;
    for (int s = 0; s < p->nstaff && rows; s++)
        rows = sync(c, s);
    /* a staff member with no row that keeps the pins: the tree is empty,
     * but the pricers may keep fewer rules than the checker: no proof */
    uint64_t *root = cs_xmalloc(cells * sizeof *root);
    memcpy(root, c->allow, cells * sizeof *root);
    int rc = rows ? search(&b, out->bound) : 0;
    if (!rows)
        b.open = out->bound;
    /* the master as at the root for what follows (master_ip) */
    if (rows)
        load(c, root);
    free(root);
    /* every roster costs at least the least open bound, or the best */
    int64_t open = b.open < INFINITY ? shf_cg_ceiling(b.open) : INT64_MAX;
    out->bp_bound = open < b.best ? open : b.best;
    if (out->bp_bound < out->floor)
        out->bp_bound = out->floor;
    out->bp_proven = !rc && b.open == INFINITY && out->exact;
    out->bp_seconds = cs_now() - began;
    out->bp_columns = c->m.nrows;
    for (int s = 0; s < p->nstaff; s++)
        shf_pricer_allow(c->pr[s], NULL);
    free(c->allow);
    c->allow = NULL;
    free(b.agg);
    free(b.try);
    return rc;
}
