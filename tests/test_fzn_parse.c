/* test_fzn_parse.c - the FlatZinc reader (models/flatzinc/parse.c, lex.c):
 * files flattened by minizinc 2.6 and written by hand (tests/data/flatzinc)
 * read into exact trees; sets and domains sorted and merged; every bad
 * input refused at its exact line, column and message; hostile input
 * (deep nesting, huge literals, long files) refused or read quickly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fzn.h"

#define DATA CSEARCH_TEST_DATA "/flatzinc/"

static struct fzn_ast *parse_ok(const char *text)
{
    struct fzn_ast *ast = NULL;
    struct cs_error err = {0};
    if (fzn_parse("t.fzn", text, strlen(text), &ast, &err))
        fail_msg("%d:%d: %s", err.line, err.col, err.msg);
    assert_non_null(ast);
    return ast;
}

static struct fzn_ast *parse_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", DATA, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text, f);
    assert_true(feof(f));
    fclose(f);
    struct fzn_ast *ast = NULL;
    struct cs_error err = {0};
    if (fzn_parse(name, text, len, &ast, &err))
        fail_msg("%s:%d:%d: %s", name, err.line, err.col, err.msg);
    assert_string_equal(ast->file, name);
    return ast;
}

static void expect_error_len(const char *text, size_t len, int line, int col,
                             const char *msg)
{
    struct fzn_ast *ast = (struct fzn_ast *)&ast; /* must become NULL */
    struct cs_error err = {0};
    assert_int_equal(fzn_parse("bad.fzn", text, len, &ast, &err), -1);
    assert_null(ast);
    assert_string_equal(err.file, "bad.fzn");
    assert_string_equal(err.msg, msg);
    assert_int_equal(err.line, line);
    assert_int_equal(err.col, col);
}

static void expect_error(const char *text, int line, int col, const char *msg)
{
    expect_error_len(text, strlen(text), line, col, msg);
}

static const struct fzn_decl *decl(const struct fzn_ast *ast, const char *n)
{
    for (size_t k = 0; k < ast->ndecls; k++)
        if (!strcmp(ast->decls[k].name, n))
            return &ast->decls[k];
    fail_msg("no declaration '%s'", n);
    return NULL;
}

/* ranges equal the n [lo, hi] pairs that follow */
static void assert_ranges(const int64_t *ranges, size_t nranges, size_t n, ...)
{
    assert_int_equal(nranges, n);
    va_list ap;
    va_start(ap, n);
    for (size_t k = 0; k < 2 * n; k++)
        assert_int_equal(ranges[k], va_arg(ap, int));
    va_end(ap);
}

static void assert_expr(const struct fzn_expr *e, enum fzn_expr_kind kind,
                        int line, int col)
{
    assert_int_equal(e->kind, kind);
    assert_int_equal(e->line, line);
    assert_int_equal(e->col, col);
}

/* ---- files -------------------------------------------------------------- */

/* tiles.mzn flattened with `minizinc -c --solver gecode`: predicates,
 * parameter arrays, sparse domains, output annotations, nested search
 * annotations and an objective. */
static void test_fzn_parse_flattened_tiles(void **state)
{
    (void)state;
    struct fzn_ast *ast = parse_file("tiles.fzn");
    assert_int_equal(ast->ndecls, 15);
    assert_int_equal(ast->nconstraints, 5);

    const struct fzn_decl *d = decl(ast, "X_INTRODUCED_11_");
    assert_int_equal(d->type, FZN_T_INT);
    assert_false(d->is_var);
    assert_true(d->is_array);
    assert_int_equal(d->array_len, 5);
    assert_int_equal(d->ndomain, 0);
    assert_expr(d->init, FZN_E_ARRAY, 4, 41);
    assert_int_equal(d->init->n, 5);
    assert_int_equal(d->init->elems[4].i, 4);

    d = decl(ast, "X_INTRODUCED_0_");
    assert_int_equal(d->line, 6);
    assert_int_equal(d->col, 16);
    assert_true(d->is_var);
    assert_false(d->is_array);
    assert_ranges(d->domain, d->ndomain, 2, 0, 2, 4, 4);
    assert_ranges(decl(ast, "X_INTRODUCED_6_")->domain,
                  decl(ast, "X_INTRODUCED_6_")->ndomain, 1, -4, 12);

    d = decl(ast, "flag");
    assert_int_equal(d->type, FZN_T_BOOL);
    assert_int_equal(d->ndomain, 0);
    assert_int_equal(d->nanns, 1);
    assert_expr(&d->anns[0], FZN_E_ID, 12, 18);
    assert_string_equal(d->anns[0].name, "output_var");
    d = decl(ast, "X_INTRODUCED_15_");
    assert_int_equal(d->nanns, 2);
    assert_string_equal(d->anns[1].name, "is_defined_var");

    d = decl(ast, "board");
    assert_int_equal(d->array_len, 6);
    assert_int_equal(d->nanns, 1);
    const struct fzn_expr *a = &d->anns[0];
    assert_expr(a, FZN_E_CALL, 15, 34);
    assert_string_equal(a->name, "output_array");
    assert_int_equal(a->n, 1);
    assert_expr(&a->elems[0], FZN_E_ARRAY, 15, 47);
    assert_int_equal(a->elems[0].n, 2);
    assert_expr(&a->elems[0].elems[1], FZN_E_SET, 15, 53);
    assert_ranges(a->elems[0].elems[1].ranges, a->elems[0].elems[1].nranges, 1,
                  1, 3);
    assert_int_equal(d->init->n, 6);
    assert_expr(&d->init->elems[5], FZN_E_ID, 15, 143);
    assert_string_equal(d->init->elems[5].name, "X_INTRODUCED_5_");

    const struct fzn_constraint *c = &ast->constraints[3];
    assert_string_equal(c->name, "int_lin_eq");
    assert_int_equal(c->line, 21);
    assert_int_equal(c->col, 12);
    assert_int_equal(c->nargs, 3);
    assert_int_equal(c->args[0].elems[3].i, -1);
    assert_expr(&c->args[2], FZN_E_INT, 21, 119);
    assert_int_equal(c->nanns, 2);
    assert_string_equal(c->anns[0].name, "ctx_neg");
    assert_expr(&c->anns[1], FZN_E_CALL, 21, 134);
    assert_string_equal(c->anns[1].elems[0].name, "X_INTRODUCED_6_");
    assert_int_equal(ast->constraints[2].args[1].kind, FZN_E_BOOL);
    assert_int_equal(ast->constraints[2].args[1].i, 1);

    assert_int_equal(ast->goal, FZN_MINIMIZE);
    assert_int_equal(ast->solve_line, 23);
    assert_int_equal(ast->solve_col, 1);
    assert_expr(ast->objective, FZN_E_ID, 23, 230);
    assert_string_equal(ast->objective->name, "X_INTRODUCED_6_");
    assert_int_equal(ast->nsolve_anns, 1);
    const struct fzn_expr *seq = &ast->solve_anns[0];
    assert_expr(seq, FZN_E_CALL, 23, 10);
    assert_string_equal(seq->name, "seq_search");
    assert_int_equal(seq->elems[0].n, 2);
    const struct fzn_expr *is = &seq->elems[0].elems[0];
    const struct fzn_expr *bs = &seq->elems[0].elems[1];
    assert_string_equal(is->name, "int_search");
    assert_int_equal(is->n, 4);
    assert_int_equal(is->elems[0].n, 6);
    assert_string_equal(is->elems[1].name, "first_fail");
    assert_string_equal(is->elems[3].name, "complete");
    assert_expr(bs, FZN_E_CALL, 23, 165);
    assert_string_equal(bs->elems[2].name, "indomain_max");
    fzn_ast_free(ast);
}

/* mixed.mzn flattened: a set variable, float variables and literals, and
 * no newline at the end. */
static void test_fzn_parse_flattened_mixed(void **state)
{
    (void)state;
    struct fzn_ast *ast = parse_file("mixed.fzn");
    assert_int_equal(ast->ndecls, 12);
    assert_int_equal(ast->nconstraints, 7);
    const struct fzn_decl *d = decl(ast, "s");
    assert_int_equal(d->type, FZN_T_SET);
    assert_true(d->is_var);
    assert_ranges(d->domain, d->ndomain, 1, 1, 3);
    d = decl(ast, "f");
    assert_int_equal(d->type, FZN_T_FLOAT);
    assert_true(d->is_var);
    assert_int_equal(d->ndomain, 0);
    d = decl(ast, "x");
    assert_ranges(d->domain, d->ndomain, 4, 1, 1, 3, 3, 5, 5, 9, 9);
    d = decl(ast, "y");
    assert_ranges(d->domain, d->ndomain, 1, -5, -1);
    d = decl(ast, "b");
    assert_int_equal(d->type, FZN_T_BOOL);
    assert_int_equal(d->array_len, 3);

    const struct fzn_constraint *c = &ast->constraints[4];
    assert_string_equal(c->name, "float_lin_eq");
    assert_expr(&c->args[0].elems[1], FZN_E_FLOAT, 18, 30);
    assert_true(c->args[0].elems[1].f == -1.0);
    assert_expr(&c->args[2], FZN_E_FLOAT, 18, 56);
    assert_true(c->args[2].f == 0.0);

    assert_int_equal(ast->goal, FZN_MAXIMIZE);
    assert_expr(ast->objective, FZN_E_ID, 21, 17);
    assert_int_equal(ast->nsolve_anns, 0);
    fzn_ast_free(ast);
}

/* annotations.fzn, by hand: a predicate over several lines, hex and octal,
 * set parameters, accesses, strings with escapes, nested calls. */
static void test_fzn_parse_hand_written(void **state)
{
    (void)state;
    struct fzn_ast *ast = parse_file("annotations.fzn");
    assert_int_equal(ast->ndecls, 10);
    assert_int_equal(ast->nconstraints, 2);
    assert_int_equal(decl(ast, "_n")->init->i, 31);
    assert_int_equal(decl(ast, "m")->init->i, -15);
    assert_int_equal(decl(ast, "yes")->init->kind, FZN_E_BOOL);
    assert_int_equal(decl(ast, "ratio")->type, FZN_T_FLOAT);
    assert_true(decl(ast, "ratio")->init->f == 2.5e-3);
    const struct fzn_expr *odd = decl(ast, "odd")->init;
    assert_expr(odd, FZN_E_SET, 8, 19);
    assert_ranges(odd->ranges, odd->nranges, 5, 1, 1, 3, 3, 5, 5, 7, 7, 9, 9);
    const struct fzn_decl *parts = decl(ast, "parts");
    assert_int_equal(parts->type, FZN_T_SET);
    assert_false(parts->is_var);
    assert_int_equal(parts->init->elems[0].nranges, 0);
    assert_int_equal(parts->init->elems[1].nranges, 0);
    assert_ranges(parts->init->elems[2].ranges, parts->init->elems[2].nranges,
                  2, 1, 2, 4, 5);
    assert_ranges(decl(ast, "q1")->domain, decl(ast, "q1")->ndomain, 1, 1, 5);
    assert_ranges(decl(ast, "q2")->domain, decl(ast, "q2")->ndomain, 1, 5, 7);
    assert_int_equal(decl(ast, "big")->ndomain, 0);

    const struct fzn_constraint *c = &ast->constraints[0];
    assert_expr(&c->args[0], FZN_E_ACCESS, 14, 19);
    assert_string_equal(c->args[0].name, "qs");
    assert_int_equal(c->args[0].i, 1);
    assert_int_equal(c->nanns, 2);
    assert_expr(&c->anns[0].elems[0], FZN_E_STRING, 14, 42);
    assert_string_equal(c->anns[0].elems[0].name, "tiles.mzn|3|12");
    assert_string_equal(ast->constraints[1].name, "my_pred");

    assert_int_equal(ast->goal, FZN_SATISFY);
    assert_null(ast->objective);
    const struct fzn_expr *seq = &ast->solve_anns[0].elems[0];
    assert_int_equal(seq->n, 3);
    assert_string_equal(seq->elems[1].name, "warm_start");
    const struct fzn_expr *note = &seq->elems[2];
    assert_expr(note, FZN_E_CALL, 18, 22);
    assert_int_equal(note->n, 4);
    assert_string_equal(note->elems[0].name, "a \"quoted\" \\ word");
    assert_int_equal(note->elems[1].kind, FZN_E_FLOAT);
    assert_int_equal(note->elems[2].kind, FZN_E_BOOL);
    assert_int_equal(note->elems[2].i, 0);
    assert_ranges(note->elems[3].ranges, note->elems[3].nranges, 1, 1, 2);
    fzn_ast_free(ast);
}

/* ---- literals ----------------------------------------------------------- */

static void test_fzn_parse_sets_sorted_and_merged(void **state)
{
    (void)state;
    struct fzn_ast *ast =
        parse_ok("set of int: a = {9, 3, 2, 1, 7, 3, 8, -1};\n"
                 "set of int: b = {};\n"
                 "set of int: c = 3..1;\n"
                 "set of int: d = -2..2;\n"
                 "var {5, 4, 2}: x;\n"
                 "var 3..1: y;\n"
                 "var int: z;\n"
                 "var set of {3, 1}: s;\n"
                 "var set of int: t;\n"
                 "var -9223372036854775808..9223372036854775807: w;\n"
                 "solve satisfy;\n");
    const struct fzn_expr *a = decl(ast, "a")->init;
    assert_ranges(a->ranges, a->nranges, 3, -1, -1, 1, 3, 7, 9);
    assert_int_equal(decl(ast, "b")->init->kind, FZN_E_SET);
    assert_int_equal(decl(ast, "b")->init->nranges, 0);
    assert_int_equal(decl(ast, "c")->init->kind, FZN_E_SET);
    assert_int_equal(decl(ast, "c")->init->nranges, 0);
    assert_ranges(decl(ast, "d")->init->ranges, decl(ast, "d")->init->nranges,
                  1, -2, 2);
    const struct fzn_decl *d = decl(ast, "x");
    assert_ranges(d->domain, d->ndomain, 2, 2, 2, 4, 5);
    /* an empty domain written out is kept apart from `int` */
    d = decl(ast, "y");
    assert_int_equal(d->ndomain, 0);
    assert_non_null(d->domain);
    d = decl(ast, "z");
    assert_int_equal(d->ndomain, 0);
    assert_null(d->domain);
    d = decl(ast, "s");
    assert_int_equal(d->type, FZN_T_SET);
    assert_ranges(d->domain, d->ndomain, 2, 1, 1, 3, 3);
    d = decl(ast, "t");
    assert_int_equal(d->type, FZN_T_SET);
    assert_int_equal(d->ndomain, 0);
    d = decl(ast, "w");
    assert_int_equal(d->ndomain, 1);
    assert_true(d->domain[0] == INT64_MIN && d->domain[1] == INT64_MAX);
    fzn_ast_free(ast);

    /* merging up to INT64_MAX does not overflow */
    ast = parse_ok("set of int: e = {9223372036854775807, 9223372036854775806,"
                   " 0};\nsolve satisfy;\n");
    const struct fzn_expr *e = decl(ast, "e")->init;
    assert_int_equal(e->nranges, 2);
    assert_true(e->ranges[2] == INT64_MAX - 1 && e->ranges[3] == INT64_MAX);
    fzn_ast_free(ast);
}

static void test_fzn_parse_numbers(void **state)
{
    (void)state;
    struct fzn_ast *ast = parse_ok(
        "array [1..8] of int: v = [-9223372036854775808, "
        "9223372036854775807, +7, -0, 0x7fffffffffffffff, -0o10, 010, 0];\n"
        "array [1..4] of float: f = [1.5, -2.0e2, 3E+1, 1e-1];\n"
        "solve minimize -3;\n");
    const struct fzn_expr *v = decl(ast, "v")->init;
    assert_true(v->elems[0].i == INT64_MIN);
    assert_true(v->elems[1].i == INT64_MAX);
    assert_int_equal(v->elems[2].i, 7);
    assert_int_equal(v->elems[3].i, 0);
    assert_true(v->elems[4].i == INT64_MAX);
    assert_int_equal(v->elems[5].i, -8);
    assert_int_equal(v->elems[6].i, 10);
    const struct fzn_expr *f = decl(ast, "f")->init;
    assert_true(f->elems[0].f == 1.5 && f->elems[1].f == -200.0);
    assert_true(f->elems[2].f == 30.0 && f->elems[3].f == 0.1);
    assert_int_equal(f->elems[2].kind, FZN_E_FLOAT);
    assert_expr(ast->objective, FZN_E_INT, 3, 16);
    assert_int_equal(ast->objective->i, -3);
    fzn_ast_free(ast);
}

/* Comments, CRLF line ends, identifiers with underscores and digits,
 * items without spaces; text needs no NUL after it. */
static void test_fzn_parse_layout(void **state)
{
    (void)state;
    struct fzn_ast *ast =
        parse_ok("% a comment;\r\n"
                 "var bool:_b1%no space before\r\n"
                 "::output_var;constraint bool_eq(_b1,true);% end\r\n"
                 "\tsolve::int_search([_b1],input_order,indomain_min,complete)"
                 " maximize _b1 [ 1 ] ; % trailing\n");
    assert_int_equal(ast->ndecls, 1);
    assert_string_equal(ast->decls[0].name, "_b1");
    assert_int_equal(ast->decls[0].line, 2);
    assert_int_equal(ast->decls[0].col, 10);
    assert_string_equal(ast->decls[0].anns[0].name, "output_var");
    assert_int_equal(ast->constraints[0].line, 3);
    assert_int_equal(ast->constraints[0].col, 25);
    assert_int_equal(ast->solve_line, 4);
    assert_int_equal(ast->solve_col, 2);
    assert_expr(ast->objective, FZN_E_ACCESS, 4, 70);
    assert_int_equal(ast->objective->i, 1);
    fzn_ast_free(ast);

    /* the byte after len is never read */
    const char text[] = "solve satisfy;solve";
    ast = NULL;
    struct cs_error err = {0};
    assert_int_equal(fzn_parse("t", text, 14, &ast, &err), 0);
    fzn_ast_free(ast);
    expect_error_len(text, 13, 1, 14,
                     "syntax error: expected ';', found end of file");
}

static void test_fzn_parse_predicates_skipped(void **state)
{
    (void)state;
    struct fzn_ast *ast =
        parse_ok("predicate p(array [int] of var int: x, var 1..3: y,\n"
                 "            array [1..2] of set of {1, 2}: z);\n"
                 "predicate q();\nsolve satisfy;\n");
    assert_int_equal(ast->ndecls, 0);
    assert_int_equal(ast->nconstraints, 0);
    fzn_ast_free(ast);
    expect_error("predicate p(int: x;\nsolve satisfy;\n", 1, 19,
                 "syntax error: expected ')', found ';'");
    expect_error("predicate p(int: x\n", 2, 1,
                 "syntax error: expected ')', found end of file");
    expect_error("predicate (int: x);\n", 1, 11,
                 "syntax error: expected an identifier, found '('");
    expect_error("predicate p;\n", 1, 12,
                 "syntax error: expected '(', found ';'");
}

/* ---- errors ------------------------------------------------------------- */

static void test_fzn_parse_syntax_errors(void **state)
{
    (void)state;
    expect_error("var int x;\n", 1, 9, "syntax error: expected ':', found 'x'");
    expect_error("var int: x\nsolve satisfy;\n", 2, 1,
                 "syntax error: expected ';', found 'solve'");
    expect_error("var int: x foo;\n", 1, 12,
                 "syntax error: expected ';', found 'foo'");
    expect_error("var integer: x;\n", 1, 5,
                 "syntax error: expected a type, found 'integer'");
    expect_error("var 1..: x;\n", 1, 8,
                 "syntax error: expected an integer, found ':'");
    expect_error("var 1: x;\n", 1, 6, "syntax error: expected '..', found ':'");
    expect_error("var 1.0..2: x;\n", 1, 10,
                 "syntax error: expected a float, found '2'");
    expect_error("var {1, 2.0}: x;\n", 1, 9,
                 "syntax error: expected an integer, found '2.0'");
    expect_error("var {1 2}: x;\n", 1, 8,
                 "syntax error: expected ',' or '}', found '2'");
    expect_error("array [0..3] of int: a;\n", 1, 8,
                 "syntax error: expected '1', found '0'");
    expect_error("array [1..3] int: a;\n", 1, 14,
                 "syntax error: expected 'of', found 'int'");
    expect_error("array [1..n] of int: a;\n", 1, 11,
                 "syntax error: expected an integer, found 'n'");
    expect_error("var set int: s;\n", 1, 9,
                 "syntax error: expected 'of', found 'int'");
    expect_error("int: 3 = 3;\n", 1, 6,
                 "syntax error: expected an identifier, found '3'");
    expect_error("int: n = ;\n", 1, 10,
                 "syntax error: expected an expression, found ';'");
    expect_error("int: n = \"s\";\n", 1, 10,
                 "syntax error: expected an expression, found '\"s\"'");
    expect_error("array [1..2] of int: a = [1, 2;\n", 1, 31,
                 "syntax error: expected ',' or ']', found ';'");
    expect_error("array [1..2] of int: a = [1, 2,];\n", 1, 32,
                 "syntax error: expected an expression, found ']'");
    expect_error("var int: x :: ;\n", 1, 15,
                 "syntax error: expected an annotation, found ';'");
    expect_error("var int: x :: a[1];\n", 1, 16,
                 "syntax error: expected ';', found '['");
    expect_error("var int: x :: f(1;\n", 1, 18,
                 "syntax error: expected ',' or ')', found ';'");
    expect_error("constraint ;\n", 1, 12,
                 "syntax error: expected an identifier, found ';'");
    expect_error("constraint c[1];\n", 1, 13,
                 "syntax error: expected '(', found '['");
    expect_error("constraint c(x y);\n", 1, 16,
                 "syntax error: expected ',' or ')', found 'y'");
    expect_error("constraint c(f(x));\n", 1, 15,
                 "syntax error: expected ',' or ')', found '('");
    expect_error("constraint c(x[y]);\n", 1, 16,
                 "syntax error: expected an integer, found 'y'");
    expect_error("constraint c(x[1);\n", 1, 17,
                 "syntax error: expected ']', found ')'");
    expect_error("constraint c(1..);\n", 1, 17,
                 "syntax error: expected an integer, found ')'");
    expect_error("constraint c(x)\n", 2, 1,
                 "syntax error: expected ';', found end of file");
    expect_error("solve;\n", 1, 6,
                 "syntax error: expected 'satisfy', 'minimize' or "
                 "'maximize', found ';'");
    expect_error("solve minimize;\n", 1, 15,
                 "syntax error: expected a variable or a number, found ';'");
    expect_error("solve maximize true;\n", 1, 16,
                 "syntax error: expected a variable or a number, found "
                 "'true'");
    expect_error("solve minimize 1..3;\n", 1, 17,
                 "syntax error: expected ';', found '..'");
    expect_error("solve satisfy\n", 2, 1,
                 "syntax error: expected ';', found end of file");
    expect_error("output [x];\n", 1, 1,
                 "syntax error: expected an item, found 'output'");
    expect_error("var int: x;\n; solve satisfy;\n", 2, 1,
                 "syntax error: expected an item, found ';'");
    expect_error("int: n = 1 . 2;\n", 1, 12,
                 "syntax error: expected ';', found '.'");
    expect_error("int: n = -x;\n", 1, 10,
                 "syntax error: expected an expression, found '-'");
    expect_error("int: \x01n = 1;\n", 1, 6,
                 "syntax error: expected an identifier, found '\\x01'");
    expect_error("int: n\xc3\xa9 = 1;\n", 1, 7,
                 "syntax error: expected ';', found '\\xc3'");
    expect_error_len("int: n\0 = 1;\n", 13, 1, 7,
                     "syntax error: expected ';', found '\\x00'");
}

static void test_fzn_parse_long_token_quoted_short(void **state)
{
    (void)state;
    expect_error("var int: x abcdefghijklmnopqrstuvwxyz;\n", 1, 12,
                 "syntax error: expected ';', found 'abcdefghijklmnopqrst...'");
    expect_error("var int: x abcdefghijklmnopqrst;\n", 1, 12,
                 "syntax error: expected ';', found 'abcdefghijklmnopqrst'");
}

static void test_fzn_parse_solve_item_once(void **state)
{
    (void)state;
    expect_error("", 1, 1, "missing solve item");
    expect_error("% nothing\n", 2, 1, "missing solve item");
    expect_error("var int: x;\nconstraint c(x);", 2, 17, "missing solve item");
    expect_error("solve satisfy;\nsolve satisfy;\n", 2, 1,
                 "syntax error: expected end of file, found 'solve'");
    expect_error("solve satisfy;\nvar int: x;\n", 2, 1,
                 "syntax error: expected end of file, found 'var'");
}

static void test_fzn_parse_integer_out_of_range(void **state)
{
    (void)state;
    expect_error("int: n = 9223372036854775808;\n", 1, 10,
                 "integer literal out of range");
    expect_error("int: n = -9223372036854775809;\nsolve satisfy;\n", 1, 10,
                 "integer literal out of range");
    expect_error("int: n = 0x10000000000000000;\n", 1, 10,
                 "integer literal out of range");
    expect_error("var 1..99999999999999999999999999999: x;\n", 1, 8,
                 "integer literal out of range");
    /* the first problem wins: the syntax error comes before */
    expect_error("int n = 99999999999999999999;\n", 1, 5,
                 "syntax error: expected ':', found 'n'");
}

static void test_fzn_parse_unterminated_string(void **state)
{
    (void)state;
    expect_error("var int: x :: f(\"abc);\nsolve satisfy;\n", 1, 17,
                 "unterminated string");
    expect_error("var int: x :: f(\"abc\\\"", 1, 17, "unterminated string");
    expect_error("var int: x :: f(\"a\\\nb\");\n", 1, 17,
                 "unterminated string");
}

/* prefix, n times open, middle, n times close, suffix; free it. */
static char *nested(const char *prefix, const char *open, const char *middle,
                    const char *close, size_t n, const char *suffix)
{
    size_t size = strlen(prefix) + n * (strlen(open) + strlen(close)) +
                  strlen(middle) + strlen(suffix) + 1;
    char *text = malloc(size), *p = text;
    assert_non_null(text);
    p += sprintf(p, "%s", prefix);
    for (size_t k = 0; k < n; k++)
        p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", middle);
    for (size_t k = 0; k < n; k++)
        p += sprintf(p, "%s", close);
    strcpy(p, suffix);
    return text;
}

static void test_fzn_parse_nesting_limit(void **state)
{
    (void)state;
    /* 200 levels are fine, the 201st bracket is refused */
    char *text =
        nested("constraint c(", "[", "1", "]", 200, ");solve satisfy;");
    fzn_ast_free(parse_ok(text));
    free(text);
    text = nested("constraint c(", "[", "1", "]", 201, ");solve satisfy;");
    expect_error(text, 1, 214, "nested deeper than 200 levels");
    free(text);
    /* calls and arrays count alike; a set is a level too */
    text = nested("solve :: ", "f(", "[{1}]", ")", 198, " satisfy;");
    fzn_ast_free(parse_ok(text));
    free(text);
    text = nested("solve :: ", "f(", "[{1}]", ")", 199, " satisfy;");
    expect_error(text, 1, 10 + 2 * 199 + 1, "nested deeper than 200 levels");
    free(text);
    /* a million unclosed brackets are refused early, in linear time */
    text = nested("int: n = ", "[", "", "", 1000000, "");
    expect_error(text, 1, 210, "nested deeper than 200 levels");
    free(text);
    /* a predicate's brackets are only counted */
    text = nested("predicate p(", "[", "", "]", 100000, ");solve satisfy;");
    fzn_ast_free(parse_ok(text));
    free(text);
}

/* Large inputs read in linear time: long arrays, many items, long lines. */
static void test_fzn_parse_large_input(void **state)
{
    (void)state;
    size_t n = 1000000;
    char *text = malloc(24 * n + 256), *p = text;
    assert_non_null(text);
    p += sprintf(p, "array [1..%zu] of int: a = [", n);
    for (size_t k = 0; k < n; k++)
        p += sprintf(p, "%s%zu", k ? "," : "", n - k);
    p += sprintf(p, "];\nset of int: s = {");
    for (size_t k = 0; k < n; k++)
        p += sprintf(p, "%s%zu", k ? "," : "", (k * 7919) % n);
    p += sprintf(p, "};\n");
    for (size_t k = 0; k < n / 10; k++)
        p += sprintf(p, "var 0..1:x%zu;\n", k);
    strcpy(p, "solve satisfy;\n");
    struct fzn_ast *ast = parse_ok(text);
    assert_int_equal(ast->ndecls, 2 + n / 10);
    assert_int_equal(ast->decls[0].array_len, n);
    assert_int_equal(ast->decls[0].init->n, n);
    assert_int_equal(ast->decls[0].init->elems[n - 1].i, 1);
    assert_ranges(ast->decls[1].init->ranges, ast->decls[1].init->nranges, 1, 0,
                  (int)n - 1);
    assert_int_equal(ast->decls[n / 10 + 1].line, (int)n / 10 + 2);
    fzn_ast_free(ast);
    free(text);
}

static void test_fzn_parse_free_null(void **state)
{
    (void)state;
    fzn_ast_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fzn_parse_flattened_tiles),
        cmocka_unit_test(test_fzn_parse_flattened_mixed),
        cmocka_unit_test(test_fzn_parse_hand_written),
        cmocka_unit_test(test_fzn_parse_sets_sorted_and_merged),
        cmocka_unit_test(test_fzn_parse_numbers),
        cmocka_unit_test(test_fzn_parse_layout),
        cmocka_unit_test(test_fzn_parse_predicates_skipped),
        cmocka_unit_test(test_fzn_parse_syntax_errors),
        cmocka_unit_test(test_fzn_parse_long_token_quoted_short),
        cmocka_unit_test(test_fzn_parse_solve_item_once),
        cmocka_unit_test(test_fzn_parse_integer_out_of_range),
        cmocka_unit_test(test_fzn_parse_unterminated_string),
        cmocka_unit_test(test_fzn_parse_nesting_limit),
        cmocka_unit_test(test_fzn_parse_large_input),
        cmocka_unit_test(test_fzn_parse_free_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
