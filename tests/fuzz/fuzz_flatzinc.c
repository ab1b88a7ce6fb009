/* fuzz_flatzinc.c - libFuzzer harness: the FlatZinc reader (fzn_parse)
 * and the builder that makes a problem of what it read (build.c).
 * The bytes are a .fzn file; a tree that is read must keep section 1 of
 * fzn.h (sets and domains sorted and disjoint, annotations names or calls,
 * positions inside the text), a refusal must name a position and a
 * message, and either way nothing may leak.  Any broken promise aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fzn.h"
#include "problem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int lines; /* of the current input: a position's line is at most */

static void check(bool ok)
{
    if (!ok)
        abort();
}

static void check_ranges(const int64_t *r, size_t n)
{
    check(!n || r);
    for (size_t k = 0; k < n; k++) {
        check(r[2 * k] <= r[2 * k + 1]);
        /* disjoint and not adjacent, else they would have been merged */
        check(k == 0 || r[2 * k - 1] < r[2 * k] - 1);
    }
}

static void check_expr(const struct fzn_expr *e, int depth)
{
    check(depth <= 200);
    check(e->line >= 1 && e->line <= lines && e->col >= 1);
    switch (e->kind) {
    case FZN_E_INT:
    case FZN_E_FLOAT:
        break;
    case FZN_E_BOOL:
        check(e->i == 0 || e->i == 1);
        break;
    case FZN_E_SET:
        check_ranges(e->ranges, e->nranges);
        break;
    case FZN_E_ID:
    case FZN_E_ACCESS:
    case FZN_E_STRING:
        check(e->name != NULL);
        break;
    case FZN_E_CALL:
        check(e->name != NULL);
        /* fall through */
    case FZN_E_ARRAY:
        check(!e->n || e->elems);
        for (size_t k = 0; k < e->n; k++)
            check_expr(&e->elems[k], depth + 1);
        break;
    default:
        check(false);
    }
}

static void check_anns(const struct fzn_expr *anns, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        check(anns[k].kind == FZN_E_ID || anns[k].kind == FZN_E_CALL);
        check_expr(&anns[k], 0);
    }
}

static void check_ast(const struct fzn_ast *ast)
{
    check(!strcmp(ast->file, "fuzz.fzn"));
    for (size_t k = 0; k < ast->ndecls; k++) {
        const struct fzn_decl *d = &ast->decls[k];
        check(d->name && d->line >= 1 && d->line <= lines && d->col >= 1);
        check(d->array_len >= 0 && (d->is_array || d->array_len == 0));
        check_ranges(d->domain, d->ndomain);
        if (d->init)
            check_expr(d->init, 0);
        check_anns(d->anns, d->nanns);
    }
    for (size_t k = 0; k < ast->nconstraints; k++) {
        const struct fzn_constraint *c = &ast->constraints[k];
        check(c->name && c->line >= 1 && c->line <= lines && c->col >= 1);
        for (size_t a = 0; a < c->nargs; a++)
            check_expr(&c->args[a], 0);
        check_anns(c->anns, c->nanns);
    }
    check(ast->solve_line >= 1 && ast->solve_col >= 1);
    check((ast->goal == FZN_SATISFY) == (ast->objective == NULL));
    if (ast->objective) {
        enum fzn_expr_kind kind = ast->objective->kind;
        check(kind == FZN_E_ID || kind == FZN_E_ACCESS || kind == FZN_E_INT ||
              kind == FZN_E_FLOAT);
        check_expr(ast->objective, 0);
    }
    check_anns(ast->solve_anns, ast->nsolve_anns);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lines = 1;
    for (size_t k = 0; k < size; k++)
        lines += data[k] == '\n';
    struct fzn_ast *ast = (struct fzn_ast *)&ast;
    struct cs_error err = {0};
    /* libFuzzer's bytes are an exact-size copy: no NUL after them */
    if (fzn_parse("fuzz.fzn", (const char *)data, size, &ast, &err) == 0) {
        check_ast(ast);
        /* the builder: a problem, or a refusal with its position */
        struct fzn_problem *p = (struct fzn_problem *)&p;
        if (fzn_problem_build(ast, &p, &err) == 0) {
            check(p && p->store->nvars >= 0);
            fzn_problem_free(p);
        } else {
            check(p == NULL && err.line >= 1 && err.line <= lines &&
                  err.msg[0] != '\0');
        }
        fzn_ast_free(ast);
    } else {
        check(ast == NULL);
        check(err.line >= 1 && err.line <= lines && err.col >= 1);
        check(err.msg[0] != '\0' && !strcmp(err.file, "fuzz.fzn"));
    }
    return 0;
}
