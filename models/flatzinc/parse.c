/* parse.c - FlatZinc text to struct fzn_ast (fzn.h, section 1): recursive
 * descent over lex.c's tokens, one token of lookahead, nothing resolved.
 *
 * Invariants: whatever a parse step allocates is attached to the tree at
 * once, so on an error fzn_ast_free() of the partial tree frees it all;
 * brackets nest at most FZN_MAX_DEPTH deep, which bounds the recursion;
 * vectors grow by doubling, so reading is linear (sets: n log n to sort).
 */
#include <stdlib.h>
#include <string.h>

#include "lex.h"

#define FZN_MAX_DEPTH 200

struct parser {
    struct fzn_lexer lx;
    struct fzn_ast *ast;
    int depth; /* open brackets around the current token */
    size_t decl_cap, constraint_cap;
    bool solved; /* the solve item has been read */
};

static const struct fzn_token *tok(const struct parser *ps)
{
    return &ps->lx.tok;
}
static bool at(const struct parser *ps, enum fzn_tok kind)
{
    return ps->lx.tok.kind == kind;
}
static bool at_word(const struct parser *ps, const char *word)
{
    return fzn_lex_is(&ps->lx.tok, word);
}
static int next(struct parser *ps)
{
    return fzn_lex_next(&ps->lx);
}
static int expected(struct parser *ps, const char *what)
{
    return fzn_lex_expected(&ps->lx, what);
}

/* Step over a token of this kind, or say what was expected instead. */
static int expect(struct parser *ps, enum fzn_tok kind, const char *what)
{
    return at(ps, kind) ? next(ps) : expected(ps, what);
}
static int expect_word(struct parser *ps, const char *word, const char *what)
{
    return at_word(ps, word) ? next(ps) : expected(ps, what);
}

/* Room for element n of a vector with *cap slots; doubles. */
static void *grow(void *v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return v;
    *cap = *cap ? 2 * *cap : 2;
    return cs_xrealloc(v, *cap * size);
}

/* The vector cut to its n elements: growth may leave half of it unused,
 * and a file holds millions of short lists. */
static void *fit(void *v, size_t n, size_t cap, size_t size)
{
    if (n == cap)
        return v;
    if (n == 0) {
        free(v);
        return NULL;
    }
    return cs_xrealloc(v, n * size);
}

static char *token_text(const struct fzn_token *t)
{
    char *s = cs_xmalloc(t->len + 1);
    memcpy(s, t->text, t->len);
    s[t->len] = '\0';
    return s;
}

/* Opening a bracket (the current token) one level deeper. */
static int enter(struct parser *ps)
{
    if (ps->depth >= FZN_MAX_DEPTH)
        return fzn_lex_error(&ps->lx, tok(ps), "nested deeper than 200 levels");
    ps->depth++;
    return next(ps);
}

/* ---- freeing ------------------------------------------------------------ */

static void expr_clear(struct fzn_expr *e)
{
    free(e->name);
    for (size_t k = 0; k < e->n; k++)
        expr_clear(&e->elems[k]);
    free(e->elems);
    free(e->ranges);
}

static void exprs_free(struct fzn_expr *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        expr_clear(&v[k]);
    free(v);
}

static void expr_free(struct fzn_expr *e)
{
    if (e)
        expr_clear(e);
    free(e);
}

void fzn_ast_free(struct fzn_ast *ast)
{
    if (!ast)
        return;
    for (size_t k = 0; k < ast->ndecls; k++) {
        struct fzn_decl *d = &ast->decls[k];
        free(d->name);
        free(d->domain);
        expr_free(d->init);
        exprs_free(d->anns, d->nanns);
    }
    free(ast->decls);
    for (size_t k = 0; k < ast->nconstraints; k++) {
        struct fzn_constraint *c = &ast->constraints[k];
        free(c->name);
        exprs_free(c->args, c->nargs);
        exprs_free(c->anns, c->nanns);
    }
    free(ast->constraints);
    expr_free(ast->objective);
    exprs_free(ast->solve_anns, ast->nsolve_anns);
    free(ast->file);
    free(ast);
}

/* ---- sets --------------------------------------------------------------- */

static int range_order(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* n [lo, hi] pairs (none empty) sorted and merged in place: disjoint and
 * not adjacent; *n becomes their number. */
static void normalise(int64_t *r, size_t *n)
{
    bool sorted = true;
    for (size_t k = 1; k < *n && sorted; k++)
        sorted = r[2 * k - 2] <= r[2 * k];
    if (!sorted)
        qsort(r, *n, 2 * sizeof *r, range_order);
    size_t out = 0;
    for (size_t k = 0; k < *n; k++) {
        int64_t lo = r[2 * k], hi = r[2 * k + 1];
        if (out && (r[2 * out - 1] == INT64_MAX || lo <= r[2 * out - 1] + 1)) {
            if (hi > r[2 * out - 1])
                r[2 * out - 1] = hi;
        } else {
            r[2 * out] = lo;
            r[2 * out + 1] = hi;
            out++;
        }
    }
    *n = out;
}

/* e becomes the set lo..hi: empty when lo > hi. */
static void make_range(struct fzn_expr *e, int64_t lo, int64_t hi)
{
    e->kind = FZN_E_SET;
    if (lo <= hi) {
        e->ranges = cs_xmalloc(2 * sizeof *e->ranges);
        e->ranges[0] = lo;
        e->ranges[1] = hi;
        e->nranges = 1;
    }
}

/* A number, or a range `a..b` of two of the same kind (FZN_E_SET of ints,
 * FZN_E_FLOAT of floats holding a); with need_range only a range. */
static int parse_number(struct parser *ps, struct fzn_expr *e, bool need_range)
{
    const struct fzn_token *t = tok(ps);
    bool is_float = t->kind == FZN_TOK_FLOAT;
    e->kind = is_float ? FZN_E_FLOAT : FZN_E_INT;
    e->i = t->i;
    e->f = t->f;
    if (next(ps))
        return -1;
    if (!at(ps, FZN_TOK_DOTDOT))
        return need_range ? expected(ps, "'..'") : 0;
    if (next(ps))
        return -1;
    if (!at(ps, is_float ? FZN_TOK_FLOAT : FZN_TOK_INT))
        return expected(ps, is_float ? "a float" : "an integer");
    if (!is_float)
        make_range(e, e->i, tok(ps)->i);
    return next(ps);
}

/* `{a, b, ...}` of integers (FZN_E_SET) or floats (FZN_E_FLOAT holding
 * the first), at the '{'. */
static int parse_braces(struct parser *ps, struct fzn_expr *e)
{
    if (enter(ps))
        return -1;
    e->kind = FZN_E_SET;
    size_t cap = 0;
    if (at(ps, FZN_TOK_FLOAT)) {
        e->kind = FZN_E_FLOAT;
        e->f = tok(ps)->f;
    }
    enum fzn_tok kind = e->kind == FZN_E_SET ? FZN_TOK_INT : FZN_TOK_FLOAT;
    const char *what = kind == FZN_TOK_INT ? "an integer" : "a float";
    if (!at(ps, FZN_TOK_RBRACE))
        for (;;) {
            if (!at(ps, kind))
                return expected(ps, what);
            if (kind == FZN_TOK_INT) {
                e->ranges = grow(e->ranges, 2 * e->nranges + 1, &cap,
                                 sizeof *e->ranges);
                e->ranges[2 * e->nranges] = tok(ps)->i;
                e->ranges[2 * e->nranges + 1] = tok(ps)->i;
                e->nranges++;
            }
            if (next(ps))
                return -1;
            if (!at(ps, FZN_TOK_COMMA))
                break;
            if (next(ps))
                return -1;
        }
    if (expect(ps, FZN_TOK_RBRACE, "',' or '}'"))
        return -1;
    normalise(e->ranges, &e->nranges);
    e->ranges = fit(e->ranges, 2 * e->nranges, cap, sizeof *e->ranges);
    ps->depth--;
    return 0;
}

/* ---- expressions -------------------------------------------------------- */

static int parse_expr(struct parser *ps, struct fzn_expr *e, bool ann);

/* Expressions up to the token `close` (consumed), into *v, *n: each slot
 * counted before it is parsed, so a partial one is freed with the rest. */
static int parse_list(struct parser *ps, enum fzn_tok close, const char *what,
                      bool ann, struct fzn_expr **v, size_t *n)
{
    size_t cap = 0;
    if (at(ps, close))
        return next(ps);
    for (;;) {
        *v = grow(*v, *n, &cap, sizeof **v);
        struct fzn_expr *e = &(*v)[(*n)++];
        memset(e, 0, sizeof *e);
        if (parse_expr(ps, e, ann))
            return -1;
        if (!at(ps, FZN_TOK_COMMA)) {
            *v = fit(*v, *n, cap, sizeof **v);
            return expect(ps, close, what);
        }
        if (next(ps))
            return -1;
    }
}

/* `[e, ...]` at the '['. */
static int parse_array(struct parser *ps, struct fzn_expr *e, bool ann)
{
    e->kind = FZN_E_ARRAY;
    if (enter(ps) ||
        parse_list(ps, FZN_TOK_RBRACK, "',' or ']'", ann, &e->elems, &e->n))
        return -1;
    ps->depth--;
    return 0;
}

/* An identifier (at it), `name[i]` (if access), or in an annotation
 * `name(e, ...)`. */
static int parse_name(struct parser *ps, struct fzn_expr *e, bool ann,
                      bool access)
{
    e->kind = FZN_E_ID;
    e->name = token_text(tok(ps));
    if (next(ps))
        return -1;
    if (access && at(ps, FZN_TOK_LBRACK)) {
        e->kind = FZN_E_ACCESS;
        if (next(ps))
            return -1;
        if (!at(ps, FZN_TOK_INT))
            return expected(ps, "an integer");
        e->i = tok(ps)->i;
        if (next(ps))
            return -1;
        return expect(ps, FZN_TOK_RBRACK, "']'");
    }
    if (ann && at(ps, FZN_TOK_LPAREN)) {
        e->kind = FZN_E_CALL;
        if (enter(ps) || parse_list(ps, FZN_TOK_RPAREN, "',' or ')'", true,
                                    &e->elems, &e->n))
            return -1;
        ps->depth--;
    }
    return 0;
}

/* An expression; in an annotation (ann) also strings and calls. */
static int parse_expr(struct parser *ps, struct fzn_expr *e, bool ann)
{
    const struct fzn_token *t = tok(ps);
    e->line = t->line;
    e->col = t->col;
    switch (t->kind) {
    case FZN_TOK_INT:
    case FZN_TOK_FLOAT:
        return parse_number(ps, e, false);
    case FZN_TOK_LBRACE:
        return parse_braces(ps, e);
    case FZN_TOK_LBRACK:
        return parse_array(ps, e, ann);
    case FZN_TOK_STRING:
        if (!ann)
            break;
        e->kind = FZN_E_STRING;
        e->name = fzn_lex_string(t);
        return next(ps);
    case FZN_TOK_ID:
        if (at_word(ps, "true") || at_word(ps, "false")) {
            e->kind = FZN_E_BOOL;
            e->i = at_word(ps, "true");
            return next(ps);
        }
        return parse_name(ps, e, ann, true);
    default:
        break;
    }
    return expected(ps, "an expression");
}

/* `:: ann :: ann ...` into *v, *n; each an identifier or a call. */
static int parse_anns(struct parser *ps, struct fzn_expr **v, size_t *n)
{
    size_t cap = 0;
    while (at(ps, FZN_TOK_ANN)) {
        if (next(ps))
            return -1;
        if (!at(ps, FZN_TOK_ID))
            return expected(ps, "an annotation");
        *v = grow(*v, *n, &cap, sizeof **v);
        struct fzn_expr *e = &(*v)[(*n)++];
        *e = (struct fzn_expr){.line = tok(ps)->line, .col = tok(ps)->col};
        if (parse_name(ps, e, true, false))
            return -1;
    }
    *v = fit(*v, *n, cap, sizeof **v);
    return 0;
}

/* ---- items -------------------------------------------------------------- */

/* `predicate name(...);`, discarded: its brackets are only balanced. */
static int skip_predicate(struct parser *ps)
{
    if (next(ps))
        return -1;
    if (!at(ps, FZN_TOK_ID))
        return expected(ps, "an identifier");
    if (next(ps))
        return -1;
    if (!at(ps, FZN_TOK_LPAREN))
        return expected(ps, "'('");
    size_t open = 0;
    do {
        enum fzn_tok k = tok(ps)->kind;
        if (k == FZN_TOK_EOF || k == FZN_TOK_SEMI)
            return expected(ps, "')'");
        open +=
            k == FZN_TOK_LPAREN || k == FZN_TOK_LBRACK || k == FZN_TOK_LBRACE;
        open -=
            k == FZN_TOK_RPAREN || k == FZN_TOK_RBRACK || k == FZN_TOK_RBRACE;
        if (next(ps))
            return -1;
    } while (open);
    return expect(ps, FZN_TOK_SEMI, "';'");
}

/* The domain of a type at its first token: `{...}` or `a..b`. */
static int parse_domain(struct parser *ps, struct fzn_decl *d)
{
    struct fzn_expr e = {0};
    int rc = at(ps, FZN_TOK_LBRACE) ? parse_braces(ps, &e)
                                    : parse_number(ps, &e, true);
    if (e.kind == FZN_E_FLOAT)
        d->type = FZN_T_FLOAT;
    d->domain = e.ranges;
    d->ndomain = e.nranges;
    e.ranges = NULL;
    expr_clear(&e);
    /* an empty domain written out keeps a (zero-length) vector */
    if (rc == 0 && !d->domain && d->type != FZN_T_FLOAT)
        d->domain = cs_xmalloc(sizeof *d->domain);
    return rc;
}

/* [array [1..n] of] [var] bool | int | float | set of S | S, where S is
 * int, `{...}` or `a..b`. */
static int parse_type(struct parser *ps, struct fzn_decl *d)
{
    if (at_word(ps, "array")) {
        d->is_array = true;
        if (next(ps) || expect(ps, FZN_TOK_LBRACK, "'['"))
            return -1;
        if (!at(ps, FZN_TOK_INT) || tok(ps)->i != 1)
            return expected(ps, "'1'");
        if (next(ps) || expect(ps, FZN_TOK_DOTDOT, "'..'"))
            return -1;
        if (!at(ps, FZN_TOK_INT))
            return expected(ps, "an integer");
        d->array_len = tok(ps)->i > 0 ? tok(ps)->i : 0;
        if (next(ps) || expect(ps, FZN_TOK_RBRACK, "']'") ||
            expect_word(ps, "of", "'of'"))
            return -1;
    }
    if (at_word(ps, "var")) {
        d->is_var = true;
        if (next(ps))
            return -1;
    }
    if (at_word(ps, "set")) {
        d->type = FZN_T_SET;
        if (next(ps) || expect_word(ps, "of", "'of'"))
            return -1;
        if (!at_word(ps, "int"))
            return parse_domain(ps, d);
    } else if (at_word(ps, "bool") || at_word(ps, "int") ||
               at_word(ps, "float")) {
        d->type = at_word(ps, "bool")  ? FZN_T_BOOL
                  : at_word(ps, "int") ? FZN_T_INT
                                       : FZN_T_FLOAT;
    } else if (at(ps, FZN_TOK_INT) || at(ps, FZN_TOK_FLOAT) ||
               at(ps, FZN_TOK_LBRACE)) {
        d->type = FZN_T_INT;
        return parse_domain(ps, d);
    } else {
        return expected(ps, "a type");
    }
    return next(ps);
}

/* TYPE: name :: anns [= expr]; */
static int parse_decl(struct parser *ps)
{
    struct fzn_ast *ast = ps->ast;
    ast->decls =
        grow(ast->decls, ast->ndecls, &ps->decl_cap, sizeof *ast->decls);
    struct fzn_decl *d = &ast->decls[ast->ndecls++];
    memset(d, 0, sizeof *d);
    if (parse_type(ps, d) || expect(ps, FZN_TOK_COLON, "':'"))
        return -1;
    if (!at(ps, FZN_TOK_ID))
        return expected(ps, "an identifier");
    d->name = token_text(tok(ps));
    d->line = tok(ps)->line;
    d->col = tok(ps)->col;
    if (next(ps) || parse_anns(ps, &d->anns, &d->nanns))
        return -1;
    if (at(ps, FZN_TOK_EQ)) {
        d->init = cs_xcalloc(1, sizeof *d->init);
        if (next(ps) || parse_expr(ps, d->init, false))
            return -1;
    }
    return expect(ps, FZN_TOK_SEMI, "';'");
}

/* constraint name(args) :: anns; */
static int parse_constraint(struct parser *ps)
{
    struct fzn_ast *ast = ps->ast;
    if (next(ps))
        return -1;
    if (!at(ps, FZN_TOK_ID))
        return expected(ps, "an identifier");
    ast->constraints = grow(ast->constraints, ast->nconstraints,
                            &ps->constraint_cap, sizeof *ast->constraints);
    struct fzn_constraint *c = &ast->constraints[ast->nconstraints++];
    *c = (struct fzn_constraint){.name = token_text(tok(ps)),
                                 .line = tok(ps)->line,
                                 .col = tok(ps)->col};
    if (next(ps) || expect(ps, FZN_TOK_LPAREN, "'('") ||
        parse_list(ps, FZN_TOK_RPAREN, "',' or ')'", false, &c->args,
                   &c->nargs) ||
        parse_anns(ps, &c->anns, &c->nanns))
        return -1;
    return expect(ps, FZN_TOK_SEMI, "';'");
}

/* The objective: a variable, `name[i]` or a number (a float refused by
 * the builder with its position). */
static int parse_objective(struct parser *ps, struct fzn_expr *e)
{
    bool name =
        at(ps, FZN_TOK_ID) && !at_word(ps, "true") && !at_word(ps, "false");
    if (!name && !at(ps, FZN_TOK_INT) && !at(ps, FZN_TOK_FLOAT))
        return expected(ps, "a variable or a number");
    const struct fzn_token *t = tok(ps);
    *e =
        (struct fzn_expr){.line = t->line, .col = t->col, .i = t->i, .f = t->f};
    e->kind = t->kind == FZN_TOK_INT ? FZN_E_INT : FZN_E_FLOAT;
    return name ? parse_name(ps, e, false, true) : next(ps);
}

/* solve :: anns satisfy | minimize x | maximize x; */
static int parse_solve(struct parser *ps)
{
    struct fzn_ast *ast = ps->ast;
    ast->solve_line = tok(ps)->line;
    ast->solve_col = tok(ps)->col;
    ps->solved = true;
    if (next(ps) || parse_anns(ps, &ast->solve_anns, &ast->nsolve_anns))
        return -1;
    if (at_word(ps, "minimize") || at_word(ps, "maximize"))
        ast->goal = at_word(ps, "minimize") ? FZN_MINIMIZE : FZN_MAXIMIZE;
    else if (!at_word(ps, "satisfy"))
        return expected(ps, "'satisfy', 'minimize' or 'maximize'");
    if (next(ps))
        return -1;
    if (ast->goal != FZN_SATISFY) {
        ast->objective = cs_xcalloc(1, sizeof *ast->objective);
        if (parse_objective(ps, ast->objective))
            return -1;
    }
    return expect(ps, FZN_TOK_SEMI, "';'");
}

static bool at_decl(const struct parser *ps)
{
    static const char *const starts[] = {"array", "var",   "bool",
                                         "int",   "float", "set"};
    for (size_t k = 0; k < sizeof starts / sizeof *starts; k++)
        if (at_word(ps, starts[k]))
            return true;
    return false;
}

static int parse_items(struct parser *ps)
{
    while (!at(ps, FZN_TOK_EOF)) {
        int rc;
        if (ps->solved)
            rc = expected(ps, "end of file");
        else if (at_word(ps, "predicate"))
            rc = skip_predicate(ps);
        else if (at_word(ps, "constraint"))
            rc = parse_constraint(ps);
        else if (at_word(ps, "solve"))
            rc = parse_solve(ps);
        else if (at_decl(ps))
            rc = parse_decl(ps);
        else
            rc = expected(ps, "an item");
        if (rc)
            return -1;
    }
    if (!ps->solved)
        return fzn_lex_error(&ps->lx, tok(ps), "missing solve item");
    return 0;
}

int fzn_parse(const char *file, const char *text, size_t len,
              struct fzn_ast **out, struct cs_error *err)
{
    struct parser ps = {.ast = cs_xcalloc(1, sizeof *ps.ast)};
    ps.ast->file = cs_xstrdup(file ? file : "");
    int rc = fzn_lex_init(&ps.lx, ps.ast->file, text ? text : "",
                          text ? len : 0, err);
    if (rc == 0)
        rc = parse_items(&ps);
    if (rc) {
        fzn_ast_free(ps.ast);
        *out = NULL;
        return -1;
    }
    *out = ps.ast;
    return 0;
}
