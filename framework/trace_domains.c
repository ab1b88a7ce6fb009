/* trace_domains.c - the domain matrix of the page: every variable's values
 * at every recorded node, for any model that can enumerate them.
 *
 * A model that supports MRV (its domain_size hook) must be able to list the
 * values of any open variable (first/next), not only of the one its own
 * order picks, since MRV may branch on any.  That is all the tracer needs:
 * at the root it lists every variable's values, whose range gives the
 * matrix's columns, and at each recorded node it lists them again, so a
 * value the search has since removed shows struck out.  A set variable
 * shows its value: the one the path to the node gave it, else the model's
 * value hook (a given, or a value propagation fixed), else '?'.
 *
 * The hooks are called on a byte copy of the state, never on the state the
 * search goes on with: first and domain_size may count checks in the
 * model's counters, and the tracer must not change the search or its
 * statistics.  (A byte copy shares whatever the state points to, which
 * these hooks only read.)
 *
 * Each node's matrix is a string of nvars x width characters, row after
 * row: '#' the variable's value, '.' a value it still has, 'x' a value it
 * had at the root and has lost, ' ' a value it never had; a set variable
 * whose value the model does not say is a row of '?'.
 */
#include <stdlib.h>
#include <string.h>

#include "trace_impl.h"

/* Values a variable may list at the root before the matrix gives up (a
 * FlatZinc variable over 0..10^6, say). */
#define DOMAIN_VALUES_MAX 4096

/* Every value var still has, each passed to add(); false if there are more
 * than DOMAIN_VALUES_MAX. */
static bool each_value(const struct cs_hooks *h, void *state, int var,
                       void (*add)(void *ud, int value), void *ud)
{
    uint64_t cursor = 0;
    int value, count = 0;
    if (h->first)
        h->first(state, var, &cursor);
    while (h->next(state, var, &cursor, &value)) {
        if (++count > DOMAIN_VALUES_MAX)
            return false;
        add(ud, value);
    }
    return true;
}

struct range {
    int lo, hi;
    bool any;
};

static void widen(void *ud, int value)
{
    struct range *r = ud;
    if (!r->any || value < r->lo)
        r->lo = value;
    if (!r->any || value > r->hi)
        r->hi = value;
    r->any = true;
}

struct row {
    char *cells;
    int lo, width;
};

static void mark_open(void *ud, int value)
{
    struct row *r = ud;
    if (value >= r->lo && value - r->lo < r->width)
        r->cells[value - r->lo] = '.';
}

/* The copy of state the hooks are called on. */
static void *scratch_copy(struct trace_domains *m, const void *state)
{
    memcpy(m->scratch, state, m->state_size);
    return m->scratch;
}

/* At the root: whether there is a matrix, its columns, each variable's
 * values there. */
static void domains_start(struct cs_tracer *t, const struct cs_hooks *h,
                          const void *state)
{
    struct trace_domains *m = &t->domains;
    int nvars = t->problem->nvars;
    m->started = true;
    if (!h->domain_size || !h->next || nvars <= 0) {
        snprintf(m->why, sizeof m->why,
                 "the model cannot list the values of any open variable "
                 "(no domain_size hook)");
        return;
    }
    m->state_size = h->state_size ? h->state_size : t->problem->state_size;
    m->scratch = cs_xcalloc(1, m->state_size ? m->state_size : 1);
    struct range all = {0};
    for (int v = 0; v < nvars; v++) {
        void *s = scratch_copy(m, state);
        if (h->domain_size(s, v) < 0) {
            if (h->value)
                widen(&all, h->value(state, v));
        } else if (!each_value(h, s, v, widen, &all)) {
            snprintf(m->why, sizeof m->why,
                     "a variable has more than %d values", DOMAIN_VALUES_MAX);
            return;
        }
    }
    int64_t width = all.any ? (int64_t)all.hi - all.lo + 1 : 0;
    if (width <= 0 || width * nvars > CS_TRACE_DOMAIN_CELLS) {
        snprintf(m->why, sizeof m->why,
                 "%d variables x %lld values: more than %d cells", nvars,
                 (long long)width, CS_TRACE_DOMAIN_CELLS);
        return;
    }
    m->nvars = nvars;
    m->lo = all.lo;
    m->width = (int)width;
    m->root = cs_xcalloc((size_t)nvars * (size_t)width, 1);
    m->path = cs_xcalloc((size_t)nvars, sizeof *m->path);
    for (int v = 0; v < nvars; v++) {
        struct row r = {m->root + (size_t)v * (size_t)width, m->lo, m->width};
        void *s = scratch_copy(m, state);
        if (h->domain_size(s, v) >= 0)
            each_value(h, s, v, mark_open, &r);
        else if (h->value)
            mark_open(&r, h->value(state, v));
    }
}

void trace_domains_node(struct cs_tracer *t, struct trace_node *n,
                        const struct cs_hooks *h, const void *state)
{
    struct trace_domains *m = &t->domains;
    if (!m->started)
        domains_start(t, h, state);
    if (!m->nvars)
        return;
    /* the values the path gave: the moves from the root to n */
    for (int v = 0; v < m->nvars; v++)
        m->path[v] = CS_NONE;
    for (int64_t i = n - t->nodes; i > 0; i = t->nodes[i].parent) {
        const struct trace_node *a = &t->nodes[i];
        if (a->var >= 0 && a->var < m->nvars && m->path[a->var] == CS_NONE)
            m->path[a->var] = a->value;
    }
    size_t cells = (size_t)m->nvars * (size_t)m->width;
    n->domains = cs_xcalloc(cells + 1, 1);
    for (int v = 0; v < m->nvars; v++) {
        char *row = n->domains + (size_t)v * (size_t)m->width;
        const char *root = m->root + (size_t)v * (size_t)m->width;
        for (int k = 0; k < m->width; k++)
            row[k] = root[k] ? 'x' : ' ';
        struct row r = {row, m->lo, m->width};
        void *s = scratch_copy(m, state);
        if (h->domain_size(s, v) >= 0) {
            each_value(h, s, v, mark_open, &r);
            continue;
        }
        int value = m->path[v] != CS_NONE ? m->path[v]
                    : h->value            ? h->value(state, v)
                                          : CS_NONE;
        if (value == CS_NONE) {
            memset(row, '?', (size_t)m->width);
        } else if (value >= m->lo && value - m->lo < m->width) {
            row[value - m->lo] = '#';
        }
    }
}

void trace_domains_free(struct trace_domains *m)
{
    for (int v = 0; m->names && v < m->nvars; v++)
        free(m->names[v]);
    free(m->names);
    free(m->scratch);
    free(m->root);
    free(m->path);
}
