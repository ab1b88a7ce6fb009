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
 * else it branches on a cell value the LP takes fractionally, chosen by
 * strong branching among the most fractional, early days first among near
 * ties (BP_EARLY, BP_STRONG); a value one of whose children is found dead
 * on the way is not branched on: the node becomes the other child.
 * Best first, each pick plunged while its bound's ceiling stays the
 * pick's: the least open bound is the proof's, and it rises as the tree is
 * worked, one whole unit of cost at a time, each level's rosters met as
 * depth first meets them (depth first alone left the root's "has not"
 * child open at the root's bound until the end: an 8-day ward of five
 * staff kept its LP bound, 214 against 250, for 60 s; plunged to a leaf,
 * Instance8's tree spent its time under nodes above its optimum).  So
 * that plunges held to their level do not leave the tree without a roster
 * worth cutting by, one plunge from the root runs first off the tree
 * (first_dive: the most fractional value made the cell's at each step,
 * nothing left open, at most BP_DIVE_SHARE of the time); the master's
 * columns and basis are then put back, so the tree is the one it would be
 * with that roster (Instance5's 12 nodes).  Instance8 in the minute's
 * share, two threads, Zen 5: 1319 in 2.26 s, against the dives' 1406.
 *
 * Each node's pricing is shared out on the threads (colgen.c), so two
 * threads work the tree one thread works, node for node.  With four or
 * more, half as many workers, each pricing on two, work the same open
 * nodes, each on a copy of the master and pricers of its own (GLPK's
 * objects belong to the thread that made them): a worker takes the least
 * open node, plunges it, and leaves its "has not" children to whichever is
 * free; the incumbent and the heap are shared under one lock.  The tree is
 * done when the heap is empty and no worker is at a node.
 *
 * No cell value is fixed by its reduced cost: at Instance8's root (bound
 * 1296.03) a value whose cheapest row under the root's duals lifts the
 * bound to the best roster's cost was 1277 of 4200 against a roster of
 * 1307 and 1268 against 2017 (the rest cost under 11 more); on Instance9
 * 1122 of 5040 against 439, and its branching still ended at 406 after
 * 168 s.
 */
#include <glpk.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "shifts/colgen.h"

/* the first dive's share of the tree's time at most (first_dive) */
#define BP_DIVE_SHARE 0.5

/* an LP value this close to 0 or 1 is whole */
#define BP_WHOLE 1e-6

/* the open nodes' masks at most (Instance9's 1680 cells: 13 KB a node) */
#define BP_BYTES ((size_t)256 << 20)

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

/* What the threads share, under lock. */
struct bp {
    const struct shf_problem *p;
    struct shf_colgen *out;
    signed char *roster; /* the incumbent */
    int64_t best;        /* its cost; INT64_MAX: none */
    double open;         /* least bound of the nodes left open */
    uint64_t seq;        /* nodes opened */
    double deadline;
    size_t cells;
    struct bp_heap *heap;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* a node opened, or the work is over */
    int busy;            /* threads working a node (they may open more) */
    bool stop;           /* out of time, of memory, or an error */
    int rc;
    struct cs_error *err;
};

/* Strong branching: the BP_STRONG values the LP takes most fractionally
 * (early days ahead: BP_EARLY) are each tried, both children, by
 * BP_STRONG_ROUNDS master rounds, and the node branches on the one whose
 * children's values rise most.  The most fractional value alone is a poor
 * guide (in integer programming no better than one drawn at random); on
 * Instance8 (LP 1296.57, optimum 1300) its tree, given the optimum as the
 * incumbent, still had 641 nodes open at 1298.29 after 80 s, where this
 * one closed in 69 s (187 nodes; two threads, Zen 5). */
#define BP_STRONG 8
#define BP_STRONG_ROUNDS 3

/* One thread's: its column generation (the caller's, or a copy) and
 * scratch. */
struct bp_worker {
    struct bp *b;
    struct shf_cg *c;
    struct shf_cg copy;
    const struct shf_cg *from; /* a helper's: what it copies */
    double *agg; /* nstaff x ndays x nv: the LP's value of each cell */
    signed char *try;
    /* the node's candidates to branch on (fractional) */
    size_t cand_k[BP_STRONG];
    int cand_v[BP_STRONG], ncand;
    struct cs_error err;
    pthread_t id;
    bool made; /* a helper's copy is ready (or failed) */
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
static bool sync_columns(struct shf_cg *c, int s)
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
    if (shf_price_row(c->pr[s], c->tables[0], c->lambda, 0, c->row, &value,
                      &requests) <= 0)
        return false;
    shf_cg_add_column(&c->m, c->p, s, c->row, requests);
    return true;
}

/* The masks made: every value left but a pinned cell's (re-rostering:
 * pinned, or before from_day) and, in a large neighbourhood, those outside
 * c->within, the pricers reading them, no staff fixed
 * and every column that keeps them open (the dives fixed some); false if a
 * staff member has no row that keeps the pins. */
static bool open_masks(struct shf_cg *c)
{
    const struct shf_problem *p = c->p;
    const int n = p->ndays, nv = p->nshifts + 1;
    const size_t cells = (size_t)p->nstaff * (size_t)n;
    c->allow = cs_xmalloc(cells * sizeof *c->allow);
    for (size_t k = 0; k < cells; k++) {
        c->allow[k] = p->fixed && p->fixed[k] >= 0 ? (uint64_t)1 << p->fixed[k]
                                                   : ((uint64_t)1 << nv) - 1;
        if (c->within)
            c->allow[k] &= c->within[k];
    }
    for (int s = 0; s < p->nstaff; s++)
        shf_pricer_allow(c->pr[s], c->allow + (size_t)s * (size_t)n);
    c->nfixed = 0;
    memset(c->fixed, 0, (size_t)p->nstaff * sizeof *c->fixed);
    for (int i = 0; i < c->m.nrows; i++)
        glp_set_col_bnds(c->m.lp, SHF_CG_FIRST(&c->m) + i, GLP_LO, 0, 0);
    bool rows = true;
    for (int s = 0; s < p->nstaff && rows; s++)
        rows = sync_columns(c, s);
    return rows;
}

/* The masks gone: every row priced again (the columns as they were). */
static void close_masks(struct shf_cg *c)
{
    for (int s = 0; s < c->p->nstaff; s++)
        shf_pricer_allow(c->pr[s], NULL);
    free(c->allow);
    c->allow = NULL;
}

/* How far a fractional value on day 0 is ahead of one as fractional on
 * the last day, the days between in proportion.  Branching where the rows
 * begin: a decision on an early day shapes the runs, minutes and weekends of
 * the rest of the row.  Against the most fractional value alone, one thread,
 * 30 s (bench/shifts_lp 15 -i 15 -b 45 -t 1): Instance6 proven in 16 nodes
 * (2102 nodes left it open), 7 in 21 (263), 5 in 58 (78); 8, 12 and 16 open
 * either way; with 0.3 or days strictly first, 6 and 7 took 34-64 and 17-57
 * nodes, 5 141-497. */
#define BP_EARLY 0.1

/* The LP's value of each cell and value into agg (nstaff x ndays x nv). */
static void cell_values(const struct shf_cg *c, double *agg)
{
    const int n = c->p->ndays, nv = c->p->nshifts + 1;
    const size_t cells = (size_t)c->p->nstaff * (size_t)n;
    const int first = SHF_CG_FIRST(&c->m);
    memset(agg, 0, cells * (size_t)nv * sizeof *agg);
    for (int i = 0; i < c->m.nrows; i++) {
        double x = glp_get_col_prim(c->m.lp, first + i);
        if (x < 1e-9)
            continue;
        const signed char *row = c->m.rows + (size_t)i * (size_t)n;
        double *a = agg + (size_t)c->m.staff[i] * (size_t)n * (size_t)nv;
        for (int d = 0; d < n; d++)
            a[(size_t)d * nv + row[d]] += x;
    }
}

/* A whole LP's roster (each cell's value at >= 0.5 in agg) into roster. */
static void whole_roster(const struct shf_problem *p, const double *agg,
                         signed char *roster)
{
    const int nv = p->nshifts + 1;
    const size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    for (size_t k = 0; k < cells; k++) {
        int v = 0;
        while (v < nv - 1 && agg[k * nv + v] < 0.5)
            v++;
        roster[k] = (signed char)v;
    }
}

/* The LP's value of each cell into w->agg; the BP_STRONG (s, d, v) it
 * takes most fractionally, the earliest days ahead by up to BP_EARLY, into
 * w->cand_k (s x ndays + d) and w->cand_v, most first (of equal ones the
 * first met), the first also into *cell and *value; false if whole. */
static bool fractional(struct bp_worker *w, int *cell, int *value)
{
    const struct shf_cg *c = w->c;
    const int n = c->p->ndays, nv = c->p->nshifts + 1;
    const size_t cells = (size_t)c->p->nstaff * (size_t)n;
    double key[BP_STRONG];
    int nc = 0;
    cell_values(c, w->agg);
    for (size_t k = 0; k < cells; k++) {
        const double early = BP_EARLY * (double)(n - (int)(k % (size_t)n)) / n;
        for (int v = 0; v < nv; v++) {
            double x = w->agg[k * nv + v], f = x < 1 - x ? x : 1 - x;
            if (f <= BP_WHOLE || (nc == BP_STRONG && f + early <= key[nc - 1]))
                continue;
            int i = nc < BP_STRONG ? nc++ : BP_STRONG - 1;
            for (; i > 0 && key[i - 1] < f + early; i--) {
                key[i] = key[i - 1];
                w->cand_k[i] = w->cand_k[i - 1];
                w->cand_v[i] = w->cand_v[i - 1];
            }
            key[i] = f + early;
            w->cand_k[i] = k;
            w->cand_v[i] = v;
        }
    }
    w->ncand = nc;
    if (nc) {
        *cell = (int)w->cand_k[0];
        *value = w->cand_v[0];
    }
    return nc > 0;
}

/* Node c's child with cell k's mask m tried by BP_STRONG_ROUNDS master
 * rounds (from the node's bound `at`), c as it was after: the last master
 * value, an estimate of the child's LP (`at` if the rounds did not end);
 * *dead if the child has no roster or its bound reaches best. */
static double try_child(struct bp_worker *w, size_t k, uint64_t m, double at,
                        int64_t best, bool *dead)
{
    struct shf_cg *c = w->c;
    const int s = (int)(k / (size_t)c->p->ndays);
    const uint64_t was = c->allow[k];
    double value = at;
    c->allow[k] = m;
    *dead = !sync_columns(c, s);
    if (!*dead) {
        struct shf_colgen child = {.bound = at};
        c->timed_out = c->infeasible = false;
        c->cutoff = best;
        if (!shf_cg_rounds(c, BP_STRONG_ROUNDS, &child, &w->err) &&
            !c->timed_out) {
            *dead = c->infeasible || shf_cg_ceiling(child.bound) >= best;
            if (!*dead)
                value = glp_get_obj_val(c->m.lp);
        }
    }
    c->allow[k] = was;
    sync_columns(c, s);
    return value;
}

/* The strong branching's choice (of the candidates fractional() left) into
 * *cell and *value, if any (else they stay): the value whose children's
 * estimates rise most over the node's bound `at` (their product), or the
 * first of the candidates with a dead child: *dead then 1 if its "has
 * not" child is, 2 if its "has" child is, 3 both (0: none). */
static void strong(struct bp_worker *w, double at, int64_t best, int *cell,
                   int *value, int *dead)
{
    struct shf_cg *c = w->c;
    double top = -1;
    *dead = 0;
    for (int i = 0; i < w->ncand && cs_now() < c->deadline; i++) {
        const size_t k = w->cand_k[i];
        const int v = w->cand_v[i];
        const uint64_t bit = (uint64_t)1 << v;
        bool dead_not, dead_has;
        double without =
            try_child(w, k, c->allow[k] & ~bit, at, best, &dead_not);
        double has = try_child(w, k, bit, at, best, &dead_has);
        if (dead_not || dead_has) {
            *cell = (int)k;
            *value = v;
            *dead = dead_not + 2 * dead_has;
            return;
        }
        double rise = fmax(without - at, 1e-3) * fmax(has - at, 1e-3);
        if (rise > top) {
            top = rise;
            *cell = (int)k;
            *value = v;
        }
    }
}

/* The whole LP's roster: a new incumbent if the checker passes it and it
 * is cheaper.  False if the checker fails it (a rule the pricers leave
 * out): the node stays open. */
static bool take_roster(struct bp_worker *w)
{
    struct bp *b = w->b;
    const struct shf_problem *p = b->p;
    whole_roster(p, w->agg, w->try);
    struct shf_report r;
    if (shf_check(p, w->try, &r))
        return false;
    pthread_mutex_lock(&b->lock);
    if (r.total < b->best) {
        b->best = r.total;
        memcpy(b->roster, w->try, b->cells);
        b->out->roster_cost = r.total;
    }
    pthread_mutex_unlock(&b->lock);
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
            if (!sync_columns(c, s))
                return false;
        }
    }
    return true;
}

/* A node under masks allow at bound into the heap (the lock held); false
 * if the open nodes would pass BP_BYTES. */
static bool open_node(struct bp *b, const uint64_t *allow, double bound)
{
    struct bp_heap *h = b->heap;
    const size_t size = sizeof(struct bp_node) + b->cells * sizeof *allow;
    if (h->bytes + size > BP_BYTES)
        return false;
    struct bp_node *x = cs_xmalloc(size);
    x->bound = bound;
    x->seq = b->seq++;
    memcpy(x->allow, allow, b->cells * sizeof *allow);
    h->bytes += size;
    heap_push(h, x);
    return true;
}

static void drop(struct bp *b, struct bp_node *x)
{
    b->heap->bytes -= sizeof *x + b->cells * sizeof *x->allow;
    free(x);
}

/* The work ends for every thread; a node left unworked at bound keeps the
 * proof open there (INFINITY: none).  The lock held. */
static void halt(struct bp *b, double bound)
{
    b->open = fmin(b->open, bound);
    b->stop = true;
    pthread_cond_broadcast(&b->wake);
}

/* The thread's node done: the open node of least bound loaded into its
 * masks, at *at; false once the tree is done or the work stops. */
static bool pick(struct bp_worker *w, double *at)
{
    struct bp *b = w->b;
    struct bp_heap *h = b->heap;
    pthread_mutex_lock(&b->lock);
    b->busy--;
    for (;;) {
        /* ordered by bound: once the least is cut, so is every one */
        while (h->n && shf_cg_ceiling(h->at[0]->bound) >= b->best)
            drop(b, heap_pop(h));
        if (b->stop || (!h->n && !b->busy)) {
            halt(b, INFINITY);
            pthread_mutex_unlock(&b->lock);
            return false;
        }
        if (!h->n) {
            pthread_cond_wait(&b->wake, &b->lock);
            continue;
        }
        if (cs_now() >= b->deadline) {
            halt(b, INFINITY); /* the heap's nodes are counted at the end */
            pthread_mutex_unlock(&b->lock);
            return false;
        }
        struct bp_node *x = heap_pop(h);
        b->busy++;
        pthread_mutex_unlock(&b->lock);
        *at = x->bound;
        const bool rows = load(w->c, x->allow);
        pthread_mutex_lock(&b->lock);
        drop(b, x);
        if (rows) {
            pthread_mutex_unlock(&b->lock);
            return true;
        }
        b->busy--;
    }
}

/* One thread's share of the tree, best first from the open nodes, each
 * pick plunged: its "has" child taken up next, and so on down until a node
 * is cut or whole (so rosters are met as depth first meets them), each
 * "has not" child left open.  So the least open bound, the proof's, rises
 * as the tree is worked.  The first thread starts at the root (the masks
 * in c->allow, at bound `root`; NAN: the others, which start by picking).
 * Past the deadline, with the open nodes at BP_BYTES, or on an error, the
 * rest is left open: b->open their least bound. */
static void work(struct bp_worker *w, double root)
{
    struct bp *b = w->b;
    struct shf_cg *c = w->c;
    const int n = b->p->ndays;
    double at = root;
    bool plunge = !isnan(root);
    int64_t level = plunge ? shf_cg_ceiling(root) : 0;
    for (;;) {
        if (!plunge) {
            if (!pick(w, &at))
                return;
            level = shf_cg_ceiling(at);
        }
        plunge = false;
        pthread_mutex_lock(&b->lock);
        const int64_t best = b->best;
        const bool stop = b->stop || cs_now() >= b->deadline;
        if (stop && shf_cg_ceiling(at) < best)
            halt(b, at);
        else if (!stop)
            b->out->bp_nodes++;
        pthread_mutex_unlock(&b->lock);
        if (stop || shf_cg_ceiling(at) >= best)
            continue;
        struct shf_colgen node = {.bound = at};
        c->timed_out = c->infeasible = false;
        c->cutoff = best;
        c->deadline = b->deadline;
        const int rc = shf_cg_rounds(c, 0, &node, &w->err);
        pthread_mutex_lock(&b->lock);
        b->out->rounds += node.rounds;
        if (rc && !b->rc) {
            b->rc = -1;
            *b->err = w->err;
        }
        if (rc || c->timed_out)
            halt(b, node.bound);
        const bool cut = c->infeasible || shf_cg_ceiling(node.bound) >= b->best;
        pthread_mutex_unlock(&b->lock);
        if (rc || c->timed_out || cut)
            continue;
        if (shf_cg_ceiling(node.bound) > level) { /* back to the heap */
            pthread_mutex_lock(&b->lock);
            if (open_node(b, c->allow, node.bound))
                pthread_cond_signal(&b->wake);
            else
                halt(b, node.bound);
            pthread_mutex_unlock(&b->lock);
            continue;
        }
        int cell = 0, v = 0;
        if (!fractional(w, &cell, &v)) {
            if (!take_roster(w)) {
                pthread_mutex_lock(&b->lock);
                b->open = fmin(b->open, node.bound);
                pthread_mutex_unlock(&b->lock);
            }
            continue;
        }
        int dead;
        strong(w, node.bound, best, &cell, &v, &dead);
        if (dead == 3) /* neither child has a roster to beat */
            continue;
        if (dead) { /* the node is its live child: plunged, nothing opened */
            const uint64_t bit = (uint64_t)1 << v;
            c->allow[cell] = dead == 1 ? bit : c->allow[cell] & ~bit;
            at = node.bound;
            plunge = sync_columns(c, cell / n);
            continue;
        }
        uint64_t *allow = c->allow + cell;
        const uint64_t was = *allow;
        *allow = was & ~((uint64_t)1 << v); /* has not: left open */
        pthread_mutex_lock(&b->lock);
        const bool opened = open_node(b, c->allow, node.bound);
        if (opened)
            pthread_cond_signal(&b->wake);
        else
            halt(b, node.bound);
        pthread_mutex_unlock(&b->lock);
        *allow = opened ? (uint64_t)1 << v : was; /* has: taken up next */
        if (!opened)
            continue;
        at = node.bound;
        plunge = sync_columns(c, cell / n);
    }
}

/* A plunge from the root off the tree, for a roster: each node's LP,
 * then its most fractional value made the cell's, no child left open, down
 * to a whole LP (a roster) or a cut.  The master is then as it was (its
 * columns and basis: the tree's choices follow its LP solutions) and the
 * masks the root's. */
static void first_dive(struct bp_worker *w, const uint64_t *root, double at)
{
    struct bp *b = w->b;
    struct shf_cg *c = w->c;
    const int n = b->p->ndays, keep = c->m.nrows;
    glp_prob *lp = c->m.lp;
    const int nr = glp_get_num_rows(lp), nc = glp_get_num_cols(lp);
    int *stat = cs_xmalloc((size_t)(nr + nc) * sizeof *stat);
    for (int i = 1; i <= nr; i++)
        stat[i - 1] = glp_get_row_stat(lp, i);
    for (int j = 1; j <= nc; j++)
        stat[nr + j - 1] = glp_get_col_stat(lp, j);
    const double now = cs_now(),
                 until = now + BP_DIVE_SHARE * (b->deadline - now);
    while (cs_now() < until) {
        struct shf_colgen node = {.bound = at};
        c->timed_out = c->infeasible = false;
        c->cutoff = b->best;
        c->deadline = until;
        if (shf_cg_rounds(c, 0, &node, &w->err) || c->timed_out ||
            c->infeasible || shf_cg_ceiling(node.bound) >= b->best)
            break;
        int cell = 0, v = 0;
        if (!fractional(w, &cell, &v)) {
            take_roster(w);
            break;
        }
        c->allow[cell] = (uint64_t)1 << v;
        if (!sync_columns(c, cell / n))
            break;
        at = node.bound;
    }
    load(c, root);
    shf_cg_drop_columns(c, keep, NULL, false);
    for (int i = 1; i <= nr; i++)
        glp_set_row_stat(lp, i, stat[i - 1]);
    for (int j = 1; j <= nc; j++)
        glp_set_col_stat(lp, j, stat[nr + j - 1]);
    free(stat);
}

/* A helper thread: its copy of the master and pricers, made here, then its
 * share of the tree; its GLPK environment freed at its end. */
static void *helper(void *arg)
{
    struct bp_worker *w = arg;
    struct bp *b = w->b;
    glp_term_out(GLP_OFF);
    const int rc = shf_cg_copy(&w->copy, w->from);
    w->c = &w->copy;
    if (!rc) {
        const size_t n = (size_t)b->p->ndays;
        w->copy.allow = cs_xmalloc(b->cells * sizeof *w->copy.allow);
        memcpy(w->copy.allow, w->from->allow, b->cells * sizeof *w->copy.allow);
        for (int s = 0; s < b->p->nstaff; s++)
            shf_pricer_allow(w->copy.pr[s], w->copy.allow + (size_t)s * n);
    }
    pthread_mutex_lock(&b->lock);
    w->made = true;
    pthread_cond_broadcast(&b->wake);
    pthread_mutex_unlock(&b->lock);
    if (!rc)
        work(w, NAN);
    else { /* it leaves the work to the others */
        pthread_mutex_lock(&b->lock);
        b->busy--;
        pthread_cond_broadcast(&b->wake);
        pthread_mutex_unlock(&b->lock);
    }
    free(w->copy.allow);
    w->copy.allow = NULL;
    shf_cg_free(&w->copy);
    glp_free_env();
    return NULL;
}

int shf_cg_branch(struct shf_cg *c, double deadline, int threads,
                  signed char *roster, struct shf_colgen *out,
                  struct cs_error *err)
{
    const double began = cs_now();
    const struct shf_problem *p = c->p;
    const int n = p->ndays, nv = p->nshifts + 1;
    const size_t cells = (size_t)p->nstaff * (size_t)n;
    /* fairness's penalties are no row's: a whole LP is then not the cost
     * of its roster, and a leaf proves nothing */
    if (p->fair.nights_weight || p->fair.weekends_weight)
        return 0;
    /* the threads as workers of the tree, each pricing on threads/workers
     * of them: two price the nodes of one tree (Instance7's proof, Zen 4:
     * the tree of one thread, 411 nodes, in 19.6 s against 22.9 s), where
     * two workers took 1376-2143 nodes in 44-77 s */
    const int pricing = c->threads;
    const int given = threads < 1 ? 1 : threads;
    const int workers = given / 2 > 1 ? given / 2 : 1;
    c->threads = given / workers;
    struct bp_heap heap = {0};
    struct bp b = {.p = p,
                   .out = out,
                   .err = err,
                   .roster = roster,
                   .best = out->roster_cost < 0 ? INT64_MAX : out->roster_cost,
                   .open = INFINITY,
                   .deadline = deadline,
                   .cells = cells,
                   .heap = &heap,
                   .busy = workers};
    pthread_mutex_init(&b.lock, NULL);
    pthread_cond_init(&b.wake, NULL);
    bool rows = open_masks(c);
    /* a staff member with no row that keeps the pins: the tree is empty,
     * but the pricers may keep fewer rules than the checker: no proof */
    uint64_t *root = cs_xmalloc(cells * sizeof *root);
    memcpy(root, c->allow, cells * sizeof *root);
    struct bp_worker *w = cs_xcalloc((size_t)workers, sizeof *w);
    for (int t = 0; t < workers; t++) {
        w[t].b = &b;
        w[t].c = c;
        w[t].from = c;
        w[t].agg = cs_xmalloc(cells * (size_t)nv * sizeof *w[t].agg);
        w[t].try = cs_xmalloc(cells);
    }
    if (rows)
        first_dive(&w[0], root, out->bound);
    /* the helpers copy c before the first thread changes it */
    int started = 1;
    for (int t = 1; rows && t < workers; t++) {
        if (pthread_create(&w[t].id, NULL, helper, &w[t]))
            break;
        started++;
    }
    pthread_mutex_lock(&b.lock);
    b.busy -= workers - started; /* helpers that did not start */
    for (int t = 1; t < started; t++)
        while (!w[t].made)
            pthread_cond_wait(&b.wake, &b.lock);
    pthread_mutex_unlock(&b.lock);
    if (rows)
        work(&w[0], out->bound);
    else
        b.open = out->bound;
    for (int t = 1; t < started; t++)
        pthread_join(w[t].id, NULL);
    while (heap.n) {
        struct bp_node *x = heap_pop(&heap);
        if (shf_cg_ceiling(x->bound) < b.best)
            b.open = fmin(b.open, x->bound);
        drop(&b, x);
    }
    free(heap.at);
    /* the master as at the root for what follows (shf_cg_lns) */
    if (rows)
        load(c, root);
    free(root);
    /* every roster costs at least the least open bound, or the best */
    int64_t open = b.open < INFINITY ? shf_cg_ceiling(b.open) : INT64_MAX;
    out->bp_bound = open < b.best ? open : b.best;
    if (out->bp_bound < out->floor)
        out->bp_bound = out->floor;
    out->bp_proven = !b.rc && b.open == INFINITY && out->exact;
    out->bp_seconds = cs_now() - began;
    out->bp_columns = c->m.nrows;
    close_masks(c);
    for (int t = 0; t < workers; t++) {
        free(w[t].agg);
        free(w[t].try);
    }
    free(w);
    c->threads = pricing;
    pthread_mutex_destroy(&b.lock);
    pthread_cond_destroy(&b.wake);
    return b.rc;
}

/* A cell value the LP takes at least this much is fixed in a cell dive
 * whatever its share */
#define CELL_SURE 0.9

/* The fractional cells' values, largest first, fixed (their masks made
 * that value alone) while they are at least CELL_SURE or fewer than
 * `share` of the fractional cells are fixed, at least one; touched[s] set
 * for each staff member whose masks changed.  False if no cell is
 * fractional. */
static bool fix_cells(struct shf_cg *c, const double *agg, double share,
                      bool *touched)
{
    const struct shf_problem *p = c->p;
    const int n = p->ndays, nv = p->nshifts + 1;
    const size_t cells = (size_t)p->nstaff * (size_t)n;
    int frac = 0;
    for (size_t k = 0; k < cells; k++)
        for (int v = 0; v < nv; v++) {
            double x = agg[k * nv + v];
            if (x > BP_WHOLE && x < 1 - BP_WHOLE) {
                frac++;
                break;
            }
        }
    if (!frac)
        return false;
    const int want = share * frac > 1 ? (int)(share * frac) : 1;
    memset(touched, 0, (size_t)p->nstaff * sizeof *touched);
    for (int fixed = 0;; fixed++) {
        size_t at = 0;
        int value = -1;
        double top = 0;
        for (size_t k = 0; k < cells; k++) {
            if (!(c->allow[k] & (c->allow[k] - 1)))
                continue; /* one value left */
            for (int v = 0; v < nv; v++) {
                double x = agg[k * nv + v];
                if (x > top && x > BP_WHOLE && x < 1 - BP_WHOLE) {
                    top = x;
                    at = k;
                    value = v;
                }
            }
        }
        if (value < 0 || (fixed >= want && top < CELL_SURE))
            break;
        c->allow[at] = (uint64_t)1 << value;
        touched[at / (size_t)n] = true;
    }
    return true;
}

int shf_cg_cell_dive(struct shf_cg *c, int rounds, double share,
                     signed char *roster, struct shf_colgen *out,
                     struct cs_error *err)
{
    const struct shf_problem *p = c->p;
    const size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    double *agg = cs_xmalloc(cells * (size_t)(p->nshifts + 1) * sizeof *agg);
    signed char *try = cs_xmalloc(cells);
    bool *touched = cs_xmalloc((size_t)p->nstaff * sizeof *touched);
    const int64_t best = out->roster_cost < 0 ? INT64_MAX : out->roster_cost;
    bool rows = open_masks(c);
    int rc = 0, got = 1;
    while (rows) {
        struct shf_colgen step = {.bound = -INFINITY};
        c->timed_out = c->infeasible = false;
        c->cutoff = best;
        if ((rc = shf_cg_rounds(c, rounds, &step, err)))
            break;
        /* out of time, no roster under the masks, or none cheaper */
        if (c->timed_out || c->infeasible || shf_cg_ceiling(step.bound) >= best)
            break;
        cell_values(c, agg);
        if (!fix_cells(c, agg, share, touched)) {
            whole_roster(p, agg, try);
            struct shf_report r;
            got = 0;
            if (!shf_check(p, try, &r) && r.total < best) {
                out->roster_cost = r.total;
                memcpy(roster, try, cells);
            }
            break;
        }
        for (int s = 0; s < p->nstaff && rows; s++)
            if (touched[s])
                rows = sync_columns(c, s);
    }
    close_masks(c);
    c->cutoff = INT64_MAX;
    c->infeasible = false;
    free(touched);
    free(try);
    free(agg);
    return rc ? rc : got;
}

/* A window's days at first, and at least (shf_cg_lns) */
#define LNS_FIRST_DAYS 7
#define LNS_LEAST_DAYS 3
/* a window's tree's seconds at most, unless a number of windows is given */
#define LNS_SECONDS 2.0

int shf_cg_lns(struct shf_cg *c, double deadline, int windows, int threads,
               signed char *roster, struct shf_colgen *out,
               struct cs_error *err)
{
    const struct shf_problem *p = c->p;
    const int n = p->ndays;
    const size_t cells = (size_t)p->nstaff * (size_t)n;
    const double began = cs_now();
    /* fairness's penalties are no row's (shf_cg_branch) */
    if (out->roster_cost < 0 || p->fair.nights_weight ||
        p->fair.weekends_weight)
        return 0;
    uint64_t *within = cs_xmalloc(cells * sizeof *within);
    const int keep = c->m.nrows;
    uint64_t draw = 0x9E3779B97F4A7C15u; /* xorshift64 */
    int width = LNS_FIRST_DAYS, rc = 0;
    /* until the roster meets the bound: optimal */
    while (!rc && out->roster_cost > out->bp_bound &&
           (windows > 0 ? out->lns_windows < windows : cs_now() < deadline)) {
        width = width < n ? width : n;
        draw ^= draw << 13;
        draw ^= draw >> 7;
        draw ^= draw << 17;
        const int from = (int)(draw % (uint64_t)(n - width + 1));
        for (size_t k = 0; k < cells; k++) {
            const int d = (int)(k % (size_t)n);
            within[k] = d >= from && d < from + width
                            ? ~(uint64_t)0
                            : (uint64_t)1 << roster[k];
        }
        struct shf_colgen sub = *out;
        c->within = within;
        rc = shf_cg_branch(
            c, windows > 0 ? deadline : fmin(deadline, cs_now() + LNS_SECONDS),
            threads, roster, &sub, err);
        c->within = NULL;
        out->lns_windows++;
        out->lns_better += sub.roster_cost < out->roster_cost;
        out->roster_cost = sub.roster_cost;
        out->rounds = sub.rounds;
        shf_cg_drop_columns(c, keep, roster, true);
        /* a window searched to its end grows, one cut short shrinks */
        if (sub.bp_bound >= sub.roster_cost)
            width += 2;
        else if (width > LNS_LEAST_DAYS)
            width--;
    }
    free(within);
    out->lns_seconds = cs_now() - began;
    return rc;
}
