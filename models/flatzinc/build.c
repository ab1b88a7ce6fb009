/* build.c - from a FlatZinc file as read to a problem ready to search.
 *
 * Names are resolved in one pass in file order (FlatZinc declares before
 * use): a parameter becomes constants, a variable a store variable (an
 * alias `var int: x = y` shares y's), an array a list of either.  Each
 * constraint is then posted by name from the builtins' table (post.c) on
 * its resolved arguments, and the solve item's annotations become the
 * branching groups (solve.c).  Every error names the file position of what
 * caused it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "csearch/config.h"
#include "csearch/file.h"
#include "build.h"

#define FZN_BITSET_LIMIT 4096 /* mirrors store.c: max_values for shuffles */

int build_fail_at(struct builder *b, int line, int col, const char *fmt,
                  const char *a, long long x, long long y)
{
    char msg[sizeof b->err->msg];
    snprintf(msg, sizeof msg, fmt, a, x, y);
    struct cs_pos pos = {b->ast->file, line, col};
    return cs_error_at(b->err, pos, "%s", msg);
}

static const char *ast_file(const struct builder *b)
{
    return b->ast->file;
}

static struct sym *lookup(struct builder *b, const char *name)
{
    struct sym *s = NULL;
    HASH_FIND_STR(b->syms, name, s);
    return s;
}

/* Room for the per-variable records of every store variable so far. */
static void grow_records(struct builder *b)
{
    int n = b->p->store->nvars;
    if (n <= b->cap)
        return;
    int cap = b->cap ? b->cap : 64;
    while (cap < n)
        cap *= 2;
    b->names = cs_xrealloc(b->names, (size_t)cap * sizeof *b->names);
    b->rank = cs_xrealloc(b->rank, (size_t)cap);
    b->is_bool = cs_xrealloc(b->is_bool, (size_t)cap * sizeof *b->is_bool);
    for (int i = b->cap; i < cap; i++) {
        b->names[i] = NULL;
        b->rank[i] = 3; /* a constant: never branched on */
        b->is_bool[i] = false;
    }
    b->cap = cap;
}

static int in_range(struct builder *b, const struct fzn_expr *e, int64_t v)
{
    if (v < FZN_INT_MIN || v > FZN_INT_MAX)
        return FAIL(b, e,
                    "value %s%lld is out of range (csearch's integers "
                    "are within +-1073741823)",
                    "", (long long)v, 0LL);
    return 0;
}

static int constant(struct builder *b, const struct fzn_expr *e, int64_t v,
                    int *var)
{
    if (in_range(b, e, v))
        return -1;
    *var = fzn_new_const(b->p->store, v);
    grow_records(b);
    return 0;
}

/* One scalar argument or array element: a store variable, and its value
 * when known now (*known). */
static int scalar(struct builder *b, const struct fzn_expr *e, int *var,
                  int64_t *value, bool *known, bool *is_bool)
{
    *known = false;
    *is_bool = e->kind == FZN_E_BOOL;
    switch (e->kind) {
    case FZN_E_INT:
    case FZN_E_BOOL:
        *known = true;
        *value = e->i;
        return constant(b, e, e->i, var);
    case FZN_E_FLOAT:
        return FAIL(b, e, "float values are not supported%s", "", 0LL, 0LL);
    case FZN_E_ID: {
        struct sym *s = lookup(b, e->name);
        if (!s)
            return FAIL(b, e, "undefined identifier '%s'", e->name, 0LL, 0LL);
        *is_bool = s->is_bool;
        if (s->kind == SYM_VAR) {
            *var = s->var;
            return 0;
        }
        if (s->kind == SYM_VALUE) {
            *known = true;
            *value = s->value;
            return constant(b, e, s->value, var);
        }
        return FAIL(b, e, "'%s' is an array or a set, not a single value",
                    e->name, 0LL, 0LL);
    }
    case FZN_E_ACCESS: {
        struct sym *s = lookup(b, e->name);
        if (!s)
            return FAIL(b, e, "undefined identifier '%s'", e->name, 0LL, 0LL);
        if (s->kind != SYM_ARRAY)
            return FAIL(b, e, "'%s' is not an array", e->name, 0LL, 0LL);
        if (e->i < 1 || e->i > s->n)
            return FAIL(b, e,
                        "index %2$lld out of range for array '%1$s' "
                        "of length %3$lld",
                        e->name, (long long)e->i, (long long)s->n);
        *is_bool = s->is_bool;
        *var = s->vars[e->i - 1];
        if (s->values) {
            *known = true;
            *value = s->values[e->i - 1];
        }
        return 0;
    }
    default:
        return FAIL(b, e, "expected a value or a variable%s", "", 0LL, 0LL);
    }
}

/* An argument: a scalar, an array literal, an array name or a set. */
int build_argument(struct builder *b, const struct fzn_expr *e,
                   struct fzn_arg *a)
{
    *a = (struct fzn_arg){0};
    if (e->kind == FZN_E_SET) {
        a->set = true;
        a->ranges = e->ranges;
        a->nranges = e->nranges;
        return 0;
    }
    if (e->kind == FZN_E_ID) {
        struct sym *s = lookup(b, e->name);
        if (s && s->kind == SYM_SET) {
            a->set = true;
            a->ranges = (int64_t *)s->ranges;
            a->nranges = s->nranges;
            return 0;
        }
        if (s && s->kind == SYM_SET_ARRAY)
            return FAIL(b, e, "arrays of sets are not supported ('%s')",
                        e->name, 0LL, 0LL);
        if (s && s->kind == SYM_ARRAY) {
            a->n = s->n;
            a->x = cs_xmalloc((size_t)(s->n ? s->n : 1) * sizeof *a->x);
            a->v = cs_xmalloc((size_t)(s->n ? s->n : 1) * sizeof *a->v);
            if (s->n)
                memcpy(a->x, s->vars, (size_t)s->n * sizeof *a->x);
            a->fixed = true;
            for (int i = 0; i < s->n; i++) {
                a->fixed = a->fixed && fzn_fixed(b->p->store, s->vars[i]);
                a->v[i] =
                    s->values ? s->values[i] : fzn_min(b->p->store, s->vars[i]);
            }
            a->fixed = a->fixed || s->values;
            return 0;
        }
    }
    size_t n = e->kind == FZN_E_ARRAY ? e->n : 1;
    a->n = (int)n;
    a->x = cs_xmalloc((n ? n : 1) * sizeof *a->x);
    a->v = cs_xmalloc((n ? n : 1) * sizeof *a->v);
    a->fixed = true;
    for (size_t i = 0; i < n; i++) {
        const struct fzn_expr *el = e->kind == FZN_E_ARRAY ? &e->elems[i] : e;
        bool known, is_bool;
        if (scalar(b, el, &a->x[i], &a->v[i], &known, &is_bool))
            return -1;
        if (!known && fzn_fixed(b->p->store, a->x[i])) {
            known = true;
            a->v[i] = fzn_min(b->p->store, a->x[i]);
        }
        a->fixed = a->fixed && known;
    }
    return 0;
}

static void free_args(struct fzn_arg *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(a[i].x);
        free(a[i].v);
    }
    free(a);
}

static bool has_ann(const struct fzn_expr *anns, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (anns[i].name && !strcmp(anns[i].name, name))
            return true;
    return false;
}

static const struct fzn_expr *find_ann(const struct fzn_expr *anns, size_t n,
                                       const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (anns[i].kind == FZN_E_CALL && !strcmp(anns[i].name, name))
            return &anns[i];
    return NULL;
}

static char *xasprintf(const char *fmt, const char *s, long long i)
{
    int len = snprintf(NULL, 0, fmt, s, i);
    char *out = cs_xmalloc((size_t)len + 1);
    snprintf(out, (size_t)len + 1, fmt, s, i);
    return out;
}

static void name_var(struct builder *b, int var, char *name, int rank,
                     bool is_bool)
{
    grow_records(b);
    if (b->rank[var] == 3 && b->names[var]) {
        free(name); /* a constant keeps its value as its name */
        return;
    }
    if (b->names[var]) {
        /* a second name for the same variable (an alias, an element of
         * an array): the model's own name wins over an introduced one */
        if (rank < b->rank[var]) {
            free(b->names[var]);
            b->names[var] = name;
            b->rank[var] = (unsigned char)rank;
        } else {
            free(name);
        }
        return;
    }
    b->names[var] = name;
    b->rank[var] = (unsigned char)rank;
    b->is_bool[var] = is_bool;
}

/* A new store variable for a declaration's domain. */
static int new_var(struct builder *b, const struct fzn_decl *d, int *var)
{
    static const int64_t any[] = {FZN_INT_MIN, FZN_INT_MAX};
    static const int64_t boolean[] = {0, 1};
    const int64_t *ranges = d->type == FZN_T_BOOL ? boolean
                            : d->ndomain          ? d->domain
                                                  : any;
    size_t n = d->type == FZN_T_BOOL || !d->ndomain ? 1 : d->ndomain;
    struct fzn_expr at = {.line = d->line, .col = d->col};
    if (d->type != FZN_T_BOOL && d->domain && !d->ndomain) {
        /* an empty domain written out (1..0, {}): no solution at all */
        static const int64_t zero[] = {0, 0};
        *var = fzn_new_var(b->p->store, zero, 1);
        b->p->store->failed = true;
        return 0;
    }
    if (ranges[0] < FZN_INT_MIN || ranges[2 * n - 1] > FZN_INT_MAX)
        return in_range(
            b, &at, ranges[0] < FZN_INT_MIN ? ranges[0] : ranges[2 * n - 1]);
    *var = fzn_new_var(b->p->store, ranges, n);
    return 0;
}

/* An alias or a fixed value: var's domain narrowed to the declaration's. */
static bool narrow(struct builder *b, const struct fzn_decl *d, int var)
{
    struct fzn_store *s = b->p->store;
    if (d->type != FZN_T_BOOL && d->domain && !d->ndomain)
        return false; /* an empty domain written out */
    if (d->type == FZN_T_BOOL || !d->ndomain)
        return d->type != FZN_T_BOOL ||
               (fzn_set_min(s, var, 0) && fzn_set_max(s, var, 1));
    return fzn_intersect(s, var, d->domain, d->ndomain);
}

static int declare(struct builder *b, const struct fzn_decl *d)
{
    struct fzn_store *st = b->p->store;
    struct sym *s = cs_xcalloc(1, sizeof *s);
    s->name = d->name;
    s->is_bool = d->type == FZN_T_BOOL;
    struct fzn_expr at = {.line = d->line, .col = d->col};
    if (lookup(b, d->name)) {
        free(s);
        return FAIL(b, &at, "'%s' is declared twice", d->name, 0LL, 0LL);
    }
    HASH_ADD_KEYPTR(hh, b->syms, s->name, strlen(s->name), s);
    if (d->type == FZN_T_FLOAT)
        return FAIL(b, &at,
                    "float %s are not supported (the MiniZinc "
                    "Challenge has none)",
                    d->is_var ? "variables" : "parameters", 0LL, 0LL);
    if (d->type == FZN_T_SET && d->is_var)
        return FAIL(b, &at,
                    "set variables are not supported (flatten "
                    "with csearch's mznlib)%s",
                    "", 0LL, 0LL);
    const struct fzn_expr *init = d->init;
    if (d->type == FZN_T_SET) {
        if (d->is_array) {
            s->kind = SYM_SET_ARRAY;
            return 0;
        }
        if (!init || init->kind != FZN_E_SET)
            return FAIL(b, &at, "set parameter '%s' needs a set value", d->name,
                        0LL, 0LL);
        s->kind = SYM_SET;
        s->ranges = init->ranges;
        s->nranges = init->nranges;
        return 0;
    }
    int rank = has_ann(d->anns, d->nanns, "is_defined_var")      ? 2
               : has_ann(d->anns, d->nanns, "var_is_introduced") ? 1
                                                                 : 0;
    if (!d->is_array) {
        if (!d->is_var) {
            bool known, is_bool;
            int var;
            if (!init)
                return FAIL(b, &at, "parameter '%s' has no value", d->name, 0LL,
                            0LL);
            if (scalar(b, init, &var, &s->value, &known, &is_bool))
                return -1;
            if (!known)
                return FAIL(b, init, "parameter '%s' needs a fixed value",
                            d->name, 0LL, 0LL);
            s->kind = SYM_VALUE;
            return 0;
        }
        s->kind = SYM_VAR;
        if (init) {
            int64_t value;
            bool known, is_bool;
            if (scalar(b, init, &s->var, &value, &known, &is_bool))
                return -1;
        } else if (new_var(b, d, &s->var)) {
            return -1;
        }
        if (!narrow(b, d, s->var))
            b->p->store->failed = true; /* unsatisfiable at the root */
        name_var(b, s->var, cs_xstrdup(d->name), rank, s->is_bool);
        return 0;
    }
    s->kind = SYM_ARRAY;
    if (!init || init->kind != FZN_E_ARRAY)
        return FAIL(b, &at, "array '%s' needs a list of elements", d->name, 0LL,
                    0LL);
    if ((int64_t)init->n != d->array_len)
        return FAIL(b, init, "array '%1$s' has %2$lld elements, not %3$lld",
                    d->name, (long long)init->n, (long long)d->array_len);
    s->n = (int)init->n;
    s->vars = cs_xmalloc((init->n ? init->n : 1) * sizeof *s->vars);
    if (!d->is_var)
        s->values = cs_xmalloc((init->n ? init->n : 1) * sizeof *s->values);
    for (size_t i = 0; i < init->n; i++) {
        int64_t value = 0;
        bool known, is_bool;
        if (scalar(b, &init->elems[i], &s->vars[i], &value, &known, &is_bool))
            return -1;
        if (!d->is_var) {
            if (!known)
                return FAIL(b, &init->elems[i],
                            "parameter array '%s' needs "
                            "fixed values",
                            d->name, 0LL, 0LL);
            s->values[i] = value;
        } else if (fzn_fixed(st, s->vars[i]) && d->ndomain &&
                   !fzn_contains(st, s->vars[i], fzn_min(st, s->vars[i]))) {
            st->failed = true;
        }
        if (d->is_var && init->elems[i].kind == FZN_E_ID)
            name_var(b, s->vars[i],
                     xasprintf("%s[%lld]", d->name, (long long)i + 1), rank,
                     s->is_bool);
    }
    return 0;
}

/* output_var and output_array(dims) of a declaration, as an output item. */
static void add_output(struct builder *b, const struct fzn_decl *d)
{
    const struct fzn_expr *arr = find_ann(d->anns, d->nanns, "output_array");
    if (!has_ann(d->anns, d->nanns, "output_var") && !arr)
        return;
    struct sym *s = lookup(b, d->name);
    struct fzn_problem *p = b->p;
    p->outputs =
        cs_xrealloc(p->outputs, (p->noutputs + 1) * sizeof *p->outputs);
    struct fzn_output *o = &p->outputs[p->noutputs++];
    *o = (struct fzn_output){.name = cs_xstrdup(d->name),
                             .is_bool = d->type == FZN_T_BOOL};
    if (s->kind == SYM_VAR || s->kind == SYM_VALUE) {
        o->vars = cs_xmalloc(sizeof *o->vars);
        o->vars[0] =
            s->kind == SYM_VAR ? s->var : fzn_new_const(p->store, s->value);
        o->n = 1;
        grow_records(b);
        return;
    }
    o->is_array = true;
    o->n = s->n;
    o->vars = cs_xmalloc((size_t)(s->n ? s->n : 1) * sizeof *o->vars);
    if (s->n)
        memcpy(o->vars, s->vars, (size_t)s->n * sizeof *o->vars);
    const struct fzn_expr *dims = arr && arr->n ? &arr->elems[0] : NULL;
    size_t nd = dims && dims->kind == FZN_E_ARRAY ? dims->n : 0;
    o->dims = cs_xmalloc((nd ? nd : 1) * 2 * sizeof *o->dims);
    for (size_t i = 0; i < nd; i++) {
        const struct fzn_expr *r = &dims->elems[i];
        bool ok = r->kind == FZN_E_SET && r->nranges == 1;
        o->dims[2 * i] = ok ? r->ranges[0] : 1;
        o->dims[2 * i + 1] = ok ? r->ranges[1] : 0;
    }
    o->ndims = (int)nd;
    if (!nd) { /* output_array without dims: one dimension from 1 */
        o->dims[0] = 1;
        o->dims[1] = s->n;
        o->ndims = 1;
    }
}

static int post(struct builder *b, const struct fzn_constraint *c)
{
    struct fzn_expr at = {.line = c->line, .col = c->col};
    const struct fzn_builtin *bi = fzn_builtin_find(c->name);
    if (!bi)
        return FAIL(b, &at,
                    "unknown constraint '%s' (flatten with "
                    "csearch's mznlib: minizinc --solver csearch)",
                    c->name, 0LL, 0LL);
    if (bi->nargs != (int)c->nargs)
        return FAIL(b, &at, "'%1$s' expects %2$lld arguments, not %3$lld",
                    c->name, (long long)bi->nargs, (long long)c->nargs);
    struct fzn_arg *a = cs_xcalloc(c->nargs ? c->nargs : 1, sizeof *a);
    for (size_t i = 0; i < c->nargs; i++)
        if (build_argument(b, &c->args[i], &a[i])) {
            free_args(a, c->nargs);
            return -1;
        }
    struct cs_error perr = {0};
    int rc = bi->post(b->p->store, a, &perr);
    free_args(a, c->nargs);
    grow_records(b);
    if (rc)
        return cs_error_at(b->err,
                           (struct cs_pos){ast_file(b), c->line, c->col}, "%s",
                           perr.msg[0] ? perr.msg : "invalid arguments");
    const struct fzn_expr *def = find_ann(c->anns, c->nanns, "defines_var");
    if (def && def->n == 1 && def->elems[0].kind == FZN_E_ID) {
        struct sym *s = lookup(b, def->elems[0].name);
        if (s && s->kind == SYM_VAR && b->rank[s->var] < 2)
            b->rank[s->var] = 2;
    }
    return 0;
}

static int build(struct builder *b)
{
    const struct fzn_ast *ast = b->ast;
    struct fzn_problem *p = b->p;
    for (size_t i = 0; i < ast->ndecls; i++)
        if (declare(b, &ast->decls[i]))
            return -1;
    for (size_t i = 0; i < ast->ndecls; i++)
        if (ast->decls[i].is_var)
            add_output(b, &ast->decls[i]);
    for (size_t i = 0; i < ast->nconstraints; i++)
        if (post(b, &ast->constraints[i]))
            return -1;
    p->goal = ast->goal;
    p->objective = -1;
    if (ast->goal != FZN_SATISFY) {
        int64_t value;
        bool known, is_bool;
        if (scalar(b, ast->objective, &p->objective, &value, &known, &is_bool))
            return -1;
    }
    for (size_t i = 0; i < ast->nsolve_anns; i++)
        if (solve_annotation(b, &ast->solve_anns[i], 0))
            return -1;
    grow_records(b);
    solve_order(b);
    for (int v = 0; v < p->store->nvars; v++) {
        if (!b->names[v])
            b->names[v] = b->rank[v] == 3
                              ? xasprintf("%s%lld", "", fzn_min(p->store, v))
                              : xasprintf("X_INTRODUCED_%s%lld", "", v);
        uint32_t size = fzn_size(p->store, v);
        if (size > (uint32_t)p->max_values && b->rank[v] != 3)
            p->max_values = (int)size;
    }
    if (p->max_values > FZN_BITSET_LIMIT)
        p->max_values = 0;
    fzn_freeze(p->store);
    return 0;
}

int fzn_problem_build(const struct fzn_ast *ast, struct fzn_problem **out,
                      struct cs_error *err)
{
    struct builder b = {.ast = ast, .err = err};
    b.p = cs_xcalloc(1, sizeof *b.p);
    b.p->file = cs_xstrdup(ast->file);
    b.p->store = fzn_store_new();
    int rc = build(&b);
    struct sym *s, *tmp;
    HASH_ITER(hh, b.syms, s, tmp)
    {
        HASH_DEL(b.syms, s);
        free(s->vars);
        free(s->values);
        free(s);
    }
    grow_records(&b); /* a record for every variable, even after an error */
    b.p->names = b.names;
    b.p->is_bool = b.is_bool;
    free(b.rank);
    if (rc) {
        /* names past the store's variables were never set */
        fzn_problem_free(b.p);
        *out = NULL;
        return -1;
    }
    *out = b.p;
    return 0;
}

/* FlatZinc files of MiniZinc Challenge instances reach hundreds of MB */
#define FZN_MAX_FILE_BYTES ((size_t)1 << 31)

int fzn_problem_read(const char *path, struct fzn_problem **out,
                     struct cs_error *err)
{
    struct cs_file f;
    *out = NULL;
    int st = cs_file_read(path, FZN_MAX_FILE_BYTES, CS_FILE_STREAM, &f);
    const char *name = strcmp(path, "-") ? path : CS_STDIN_NAME;
    if (st != CS_FILE_OK)
        return cs_error_set(err, name, "cannot %s: %s",
                            st == CS_FILE_CANNOT_OPEN ? "open" : "read", f.why);
    struct fzn_ast *ast;
    int rc = fzn_parse(name, f.text, f.len, &ast, err);
    free(f.text);
    if (rc)
        return -1;
    rc = fzn_problem_build(ast, out, err);
    fzn_ast_free(ast);
    return rc;
}

void fzn_problem_free(void *problem)
{
    struct fzn_problem *p = problem;
    if (!p)
        return;
    if (p->names)
        for (int v = 0; v < p->store->nvars; v++)
            free(p->names[v]);
    free(p->names);
    free(p->is_bool);
    for (size_t i = 0; i < p->noutputs; i++) {
        free(p->outputs[i].name);
        free(p->outputs[i].vars);
        free(p->outputs[i].dims);
    }
    free(p->outputs);
    for (size_t i = 0; i < p->ngroups; i++)
        free(p->groups[i].vars);
    free(p->groups);
    free(p->rest);
    free(p->valsel);
    free(p->decisions);
    free(p->primary);
    free(p->secondary);
    fzn_store_free(p->store);
    free(p->file);
    free(p);
}
