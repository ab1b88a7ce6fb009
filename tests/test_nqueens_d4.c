/* test_nqueens_d4.c - the fast kernel's two interior searches, unit by unit.
 *
 * The 8-lane search (AVX-512) must walk the tree of the scalar one: for every
 * canonical border, equal solutions, unique, nodes, checks, fails and depth.
 * Totals against OEIS are test_nqueens.c's.  On a processor without AVX-512
 * the lane tests are skipped (the scalar search is then the only one).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "nqueens/d4.h"
#include "nqueens/halves.h"
#include "support.h"

static struct nq_d4 *kernel(int n)
{
    struct nq_d4 *k = cs_xcalloc(1, sizeof *k);
    nq_d4_init(k, n);
    return k;
}

static void count(struct nq_d4 *k, bool lanes, uint64_t unit,
                  struct cs_stats *out)
{
    k->lanes = lanes;
    assert_true(nq_d4_count_unit(k, unit, NULL, out));
}

static void test_nqueens_d4_lanes_walk_the_scalar_tree(void **ctx)
{
    (void)ctx;
    if (!nq_d4_lanes_supported())
        skip();
    load_nq_answers();
    /* 6..9 have units too short for the lanes (scalar either way); 10..13
     * have units with 2..11 rows below the prefix */
    for (int n = NQ_D4_MIN; n <= 13; n++) {
        struct nq_d4 *k = kernel(n);
        uint64_t solutions = 0, unique = 0;
        for (uint64_t u = 0; u < k->count; u++) {
            struct cs_stats scalar, lanes;
            count(k, false, u, &scalar);
            count(k, true, u, &lanes);
            assert_int_equal(lanes.solutions, scalar.solutions);
            assert_int_equal(lanes.unique, scalar.unique);
            assert_int_equal(lanes.nodes, scalar.nodes);
            assert_int_equal(lanes.checks, scalar.checks);
            assert_int_equal(lanes.fails, scalar.fails);
            assert_int_equal(lanes.max_depth, scalar.max_depth);
            solutions += lanes.solutions;
            unique += lanes.unique;
        }
        assert_int_equal(solutions, nq_answers[n].total);
        assert_int_equal(unique, nq_answers[n].unique);
        nq_d4_free(k);
    }
}

/* The longest lanes: a corner border of n = 19 leaves 16 rows, so the lanes
 * search 13 of them, 12 with their columns packed in a word.  Unit 1, queens
 * at (0, 0), (18, 1) and (3, 18), is one of the smaller corner units; its
 * figures as the scalar search gives them. */
static void test_nqueens_d4_lanes_longest(void **ctx)
{
    (void)ctx;
    if (!nq_d4_lanes_supported())
        skip();
    struct nq_d4 *k = kernel(19);
    assert_int_equal(k->units[1].top, 0);
    assert_int_equal(k->units[1].bottom, 1);
    assert_int_equal(k->units[1].right, 3);
    struct cs_stats scalar, lanes;
    count(k, false, 1, &scalar);
    count(k, true, 1, &lanes);
    assert_int_equal(scalar.solutions, 882896);
    assert_int_equal(scalar.unique, 110362);
    assert_int_equal(scalar.nodes, 31965139);
    assert_int_equal(scalar.fails, 11417429);
    assert_int_equal(scalar.max_depth, 16);
    assert_int_equal(lanes.solutions, scalar.solutions);
    assert_int_equal(lanes.unique, scalar.unique);
    assert_int_equal(lanes.nodes, scalar.nodes);
    assert_int_equal(lanes.fails, scalar.fails);
    nq_d4_free(k);
}

/* n = 13's unit with the most nodes, a corner border (queens at (0, 0),
 * (12, 6), (8, 12)) with 10 rows to fill: its numbers as the scalar search
 * gave them before the lanes were written. */
static void test_nqueens_d4_lanes_count_a_known_unit(void **ctx)
{
    (void)ctx;
    if (!nq_d4_lanes_supported())
        skip();
    struct nq_d4 *k = kernel(13);
    const struct nq_border *b = &k->units[41];
    assert_int_equal(b->top, 0);
    assert_int_equal(b->bottom, 6);
    assert_int_equal(b->left, 0);
    assert_int_equal(b->right, 8);
    assert_int_equal(b->stab, 1);
    struct cs_stats s;
    count(k, true, 41, &s);
    assert_int_equal(s.solutions, 496); /* 62 interior completions x 8 */
    assert_int_equal(s.unique, 62);
    assert_int_equal(s.nodes, 5449);
    assert_int_equal(s.fails, 2012);
    assert_int_equal(s.max_depth, 10);
    nq_d4_free(k);
}

/* A stop request makes a lane search give the unit up, counted not at all. */
static void test_nqueens_d4_lanes_stop(void **ctx)
{
    (void)ctx;
    if (!nq_d4_lanes_supported())
        skip();
    struct nq_d4 *k = kernel(13);
    volatile sig_atomic_t stop = 1;
    struct cs_stats s = {.solutions = 7};
    k->lanes = true;
    assert_false(nq_d4_count_unit(k, 0, &stop, &s));
    assert_int_equal(s.solutions, 7); /* untouched */
    nq_d4_free(k);
}

/* CSEARCH_NQ_LANES=0 turns the lanes off; anything else leaves them be. */
static void test_nqueens_d4_lanes_environment(void **ctx)
{
    (void)ctx;
    setenv("CSEARCH_NQ_LANES", "0", 1);
    struct nq_d4 *k = kernel(8);
    assert_false(k->lanes);
    nq_d4_free(k);
    setenv("CSEARCH_NQ_LANES", "1", 1);
    k = kernel(8);
    assert_int_equal(k->lanes, nq_d4_lanes_supported());
    nq_d4_free(k);
    unsetenv("CSEARCH_NQ_LANES");
}

/* The variant chosen (measured, or named by the environment) never changes
 * a count: every unit as in OEIS, and the reason said. */
static void test_nqueens_d4_choose(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    const char *const envs[] = {NULL, "scalar", "avx512"};
    for (int e = 0; e < 3; e++) {
        if (e == 2 && !nq_d4_lanes_supported())
            break;
        if (envs[e])
            setenv("CSEARCH_ISA", envs[e], 1);
        else
            unsetenv("CSEARCH_ISA");
        for (int n = 8; n <= 13; n++) {
            struct nq_d4 *k = kernel(n);
            enum nq_isa isa;
            bool set;
            char msg[160];
            assert_null(nq_isa_env(&isa, &set, msg, sizeof msg));
            assert_string_equal(nq_d4_choose(k, isa, set),
                                set                       ? "CSEARCH_ISA"
                                : nq_d4_lanes_supported() ? "measured"
                                                          : "only");
            if (e == 1)
                assert_false(k->lanes);
            uint64_t solutions = 0, unique = 0;
            for (uint64_t u = 0; u < k->count; u++) {
                struct cs_stats st;
                assert_true(nq_d4_count_unit(k, u, NULL, &st));
                solutions += st.solutions;
                unique += st.unique;
            }
            assert_int_equal(solutions, nq_answers[n].total);
            assert_int_equal(unique, nq_answers[n].unique);
            nq_d4_free(k);
        }
    }
    unsetenv("CSEARCH_ISA");
    setenv("CSEARCH_NQ_LANES", "0", 1);
    struct nq_d4 *k = kernel(10);
    assert_string_equal(nq_d4_choose(k, NQ_ISA_AVX512, false),
                        nq_d4_lanes_supported() ? "CSEARCH_NQ_LANES" : "only");
    assert_false(k->lanes);
    nq_d4_free(k);
    unsetenv("CSEARCH_NQ_LANES");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nqueens_d4_lanes_walk_the_scalar_tree),
        cmocka_unit_test(test_nqueens_d4_lanes_longest),
        cmocka_unit_test(test_nqueens_d4_lanes_count_a_known_unit),
        cmocka_unit_test(test_nqueens_d4_lanes_stop),
        cmocka_unit_test(test_nqueens_d4_lanes_environment),
        cmocka_unit_test(test_nqueens_d4_choose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
