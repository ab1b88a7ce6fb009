/* solve.c - the solve item of a FlatZinc file: its search annotations as
 * branching groups (followed as MiniZinc states them), the output's names
 * on their variables, and the orders the search takes after the groups.
 * Which variables are primary (branched on) and which are completed once
 * those are fixed is decided here (mark_primary).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

static int lookup_name(const char *const *names, const char *name)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

int solve_annotation(struct builder *b, const struct fzn_expr *e, int depth)
{
    struct fzn_problem *p = b->p;
    if (e->kind != FZN_E_CALL || depth > 100) {
        p->annotations_ignored++;
        return 0;
    }
    if (!strcmp(e->name, "seq_search") && e->n == 1 &&
        e->elems[0].kind == FZN_E_ARRAY) {
        for (size_t i = 0; i < e->elems[0].n; i++)
            if (solve_annotation(b, &e->elems[0].elems[i], depth + 1))
                return -1;
        return 0;
    }
    if ((strcmp(e->name, "int_search") && strcmp(e->name, "bool_search")) ||
        e->n < 3 || e->elems[1].kind != FZN_E_ID ||
        e->elems[2].kind != FZN_E_ID) {
        p->annotations_ignored++;
        return 0;
    }
    int varsel = lookup_name(fzn_varsel_names, e->elems[1].name);
    int valsel = lookup_name(fzn_valsel_names, e->elems[2].name);
    if (varsel < 0)
        return FAIL(b, &e->elems[1], "unknown variable selection '%s'",
                    e->elems[1].name, 0LL, 0LL);
    if (valsel < 0)
        return FAIL(b, &e->elems[2], "unknown value selection '%s'",
                    e->elems[2].name, 0LL, 0LL);
    struct fzn_arg a = {0};
    if (build_argument(b, &e->elems[0], &a)) {
        free(a.x);
        free(a.v);
        return -1;
    }
    free(a.v);
    p->groups = cs_xrealloc(p->groups, (p->ngroups + 1) * sizeof *p->groups);
    p->groups[p->ngroups++] =
        (struct fzn_group){.vars = a.x,
                           .n = a.n,
                           .varsel = (enum fzn_varsel)varsel,
                           .valsel = (enum fzn_valsel)valsel};
    return 0;
}

/* Which variables the search branches on: the groups', the model's own,
 * the output's and the objective.  The others (MiniZinc introduced them)
 * are completed once those are fixed: branching on them would count a
 * solution once per completion. */
static void mark_primary(struct builder *b)
{
    struct fzn_problem *p = b->p;
    int n = p->store->nvars;
    p->primary = cs_xcalloc((size_t)(n ? n : 1), sizeof *p->primary);
    for (int v = 0; v < n; v++)
        p->primary[v] = b->rank[v] == 0;
    for (size_t g = 0; g < p->ngroups; g++)
        for (int i = 0; i < p->groups[g].n; i++)
            p->primary[p->groups[g].vars[i]] = true;
    for (size_t o = 0; o < p->noutputs; o++)
        for (int i = 0; i < p->outputs[o].n; i++)
            p->primary[p->outputs[o].vars[i]] = true;
    if (p->objective >= 0)
        p->primary[p->objective] = true;
    for (int v = 0; v < n; v++)
        if (b->rank[v] == 3)
            p->primary[v] = false;
}

/* The output's names win in traces: `q[3]`, `x[2,1]`, `cost`. */
static void name_outputs(struct builder *b)
{
    const struct fzn_problem *p = b->p;
    for (size_t i = p->noutputs; i-- > 0;) {
        const struct fzn_output *o = &p->outputs[i];
        for (int k = 0; k < o->n; k++) {
            int x = o->vars[k];
            if (b->rank[x] == 3)
                continue;
            char buf[256];
            size_t len = (size_t)snprintf(buf, sizeof buf, "%s", o->name);
            if (o->is_array) {
                /* k's index in each dimension, the last varying fastest */
                int64_t idx[32], rest = k;
                int nd = o->ndims < 32 ? o->ndims : 32;
                for (int d = nd; d-- > 0;) {
                    int64_t lo = o->dims[2 * d], hi = o->dims[2 * d + 1];
                    int64_t span = hi >= lo ? hi - lo + 1 : 1;
                    idx[d] = lo + rest % span;
                    rest /= span;
                }
                for (int d = 0; d < nd && len < sizeof buf; d++)
                    len +=
                        (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld",
                                         d ? "," : "[", (long long)idx[d]);
                if (len < sizeof buf)
                    snprintf(buf + len, sizeof buf - len, "]");
            }
            free(b->names[x]);
            b->names[x] = cs_xstrdup(buf);
        }
    }
}

/* The default order after the groups: by rank, then by index; the
 * primary variables in rest, the others in secondary. */
static void order_rest(struct builder *b)
{
    struct fzn_problem *p = b->p;
    int n = p->store->nvars;
    mark_primary(b);
    p->rest = cs_xmalloc((size_t)(n ? n : 1) * sizeof *p->rest);
    p->secondary = cs_xmalloc((size_t)(n ? n : 1) * sizeof *p->secondary);
    for (int rank = 0; rank < 3; rank++)
        for (int v = 0; v < n; v++)
            if (b->rank[v] == rank) {
                if (p->primary[v])
                    p->rest[p->nrest++] = v;
                else
                    p->secondary[p->nsecondary++] = v;
            }
}

/* Each variable's value order (its first group's), and the decision
 * variables a neighbourhood round keeps or frees. */
static void order_groups(struct builder *b)
{
    struct fzn_problem *p = b->p;
    int n = p->store->nvars;
    p->valsel = cs_xcalloc((size_t)(n ? n : 1), 1);
    bool *seen = cs_xcalloc((size_t)(n ? n : 1), sizeof *seen);
    p->decisions = cs_xmalloc((size_t)(n ? n : 1) * sizeof *p->decisions);
    for (size_t g = p->ngroups; g-- > 0;)
        for (int i = 0; i < p->groups[g].n; i++)
            p->valsel[p->groups[g].vars[i]] =
                (unsigned char)p->groups[g].valsel;
    for (size_t g = 0; g < p->ngroups; g++)
        for (int i = 0; i < p->groups[g].n; i++) {
            int x = p->groups[g].vars[i];
            if (!seen[x] && b->rank[x] != 3) {
                seen[x] = true;
                p->decisions[p->ndecisions++] = x;
            }
        }
    for (int rank = 0; rank < 3 && !p->ndecisions; rank++)
        for (int i = 0; i < p->nrest; i++)
            if (b->rank[p->rest[i]] == rank)
                p->decisions[p->ndecisions++] = p->rest[i];
    free(seen);
}

void solve_order(struct builder *b)
{
    name_outputs(b);
    order_rest(b);
    order_groups(b);
}

#define FZN_ENUM_NAME(constant, name) name,
const char *const fzn_varsel_names[] = {FZN_VARSELS(FZN_ENUM_NAME) NULL};
const char *const fzn_valsel_names[] = {FZN_VALSELS(FZN_ENUM_NAME) NULL};
#undef FZN_ENUM_NAME
