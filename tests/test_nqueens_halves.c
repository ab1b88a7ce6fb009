/* test_nqueens_halves.c - the meet-in-the-middle kernel (strategy.kernel
 * halves): totals against OEIS A000170 for n = 1..17 through the kernel
 * asked for by name, the same totals and nodes on every instruction set, in
 * threads, in slices resumed from a checkpoint, and with buffers so small
 * that every split is joined block by block; its set-up errors.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "csearch/dist.h"
#include "nqueens/halves.h"
#include "support.h"

/* Count with kernel halves at size n, extra settings appended, an optional
 * checkpoint (resumed when resume) and slice part/parts. */
static struct cs_result halves_run(int n, const char *extra, const char *log,
                                   bool resume, uint64_t part, uint64_t parts)
{
    char size[32];
    snprintf(size, sizeof size, "params.n=%d", n);
    const char *const sets[] = {"model=nqueens", size,
                                "strategy.kernel=halves",
                                extra ? extra : "strategy.symmetry=d4", NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_error err;
    struct cs_job job;
    struct cs_registry *reg = setup_job(cfg, &job);
    struct cs_spec spec;
    struct cs_split split;
    struct cs_result run;
    cs_job_spec(&job, &spec, &split);
    split.checkpoint = log;
    split.resume = resume;
    split.slice_part = part;
    split.slice_parts = parts;
    if (cs_search(&spec, &split, &run, &err))
        fail_msg("search: %s", err.msg);
    /* kernel halves from n = 12 (no unique count), the others below */
    assert_string_equal(job.problem.kernel,
                        n >= NQ_HALVES_MIN ? "halves" : n >= 6 ? "fast"
                                                               : "generic");
    assert_int_equal(job.problem.reports_unique, n < NQ_HALVES_MIN);
    cs_job_free(&job);
    cs_registry_free(reg);
    cs_config_free(cfg);
    return run;
}

static void test_nqueens_halves_matches_oeis(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    for (int n = 1; n <= 17; n++) {
        struct cs_result run = halves_run(n, NULL, NULL, false, 0, 0);
        assert_int_equal(run.status, CS_COMPLETE);
        assert_int_equal(run.stats.solutions, nq_answers[n].total);
        if (n < NQ_HALVES_MIN)
            assert_int_equal(run.stats.unique, nq_answers[n].unique);
        else
            assert_int_equal(run.stats.unique, 0);
    }
}

/* Its figures at n = 16, whatever the symmetry key says: 3299 units, and
 * the half placements it listed as nodes. */
static void test_nqueens_halves_known_figures(void **ctx)
{
    (void)ctx;
    const char *const symmetries[] = {"strategy.symmetry=d4",
                                      "strategy.symmetry=mirror",
                                      "strategy.symmetry=none"};
    for (int i = 0; i < 3; i++) {
        struct cs_result run = halves_run(16, symmetries[i], NULL, false, 0, 0);
        assert_int_equal(run.stats.solutions, 14772512);
        assert_int_equal(run.stats.nodes, 7851480);
        assert_int_equal(run.stats.max_depth, 8);
        assert_int_equal(run.units.total, 3299);
    }
}

/* CSEARCH_ISA caps the matcher and the join: every cap gives the same
 * counts (on a processor without AVX-512 or AVX2 the cap changes nothing). */
static void test_nqueens_halves_every_isa(void **ctx)
{
    (void)ctx;
    const char *const caps[] = {"scalar", "avx2", "avx512"};
    for (int n = 14; n <= 15; n++) {
        struct cs_stats first = {0};
        for (int i = 0; i < 3; i++) {
            setenv("CSEARCH_ISA", caps[i], 1);
            struct cs_result run = halves_run(n, NULL, NULL, false, 0, 0);
            if (i == 0)
                first = run.stats;
            assert_same_counts(&run.stats, &first);
        }
        assert_int_equal(first.solutions, n == 14 ? 365596 : 2279184);
    }
    unsetenv("CSEARCH_ISA");
}

static void test_nqueens_halves_isa_cap(void **ctx)
{
    (void)ctx;
    const char *bad = NULL;
    unsetenv("CSEARCH_ISA");
    assert_int_equal(nq_isa_cap(&bad), NQ_ISA_AVX512);
    setenv("CSEARCH_ISA", "avx2", 1);
    assert_int_equal(nq_isa_cap(&bad), NQ_ISA_AVX2);
    assert_true(nq_match_isa(NQ_ISA_AVX2) <= NQ_ISA_AVX2);
    setenv("CSEARCH_ISA", "scalar", 1);
    assert_int_equal(nq_isa_cap(&bad), NQ_ISA_SCALAR);
    assert_int_equal(nq_match_isa(NQ_ISA_SCALAR), NQ_ISA_SCALAR);
    setenv("CSEARCH_ISA", "sse9", 1);
    assert_int_equal(nq_isa_cap(&bad), -1);
    assert_string_equal(bad, "sse9");
    const char *const sets[] = {"model=nqueens", "params.n=16", NULL};
    struct cs_config *cfg = config_of(sets);
    assert_string_equal(setup_error(cfg),
                        "CSEARCH_ISA=sse9: unknown instruction set (avx512, "
                        "avx2 or scalar)");
    cs_config_free(cfg);
    unsetenv("CSEARCH_ISA");
}

static void test_nqueens_halves_threads(void **ctx)
{
    (void)ctx;
    struct cs_result one = halves_run(15, NULL, NULL, false, 0, 0);
    for (int threads = 2; threads <= 3; threads++) {
        char t[32];
        snprintf(t, sizeof t, "strategy.threads=%d", threads);
        struct cs_result run = halves_run(15, t, NULL, false, 0, 0);
        assert_same_counts(&run.stats, &one.stats);
        assert_int_equal(run.stats.solutions, 2279184);
    }
}

/* Slice 0 of 3 into a log, then the whole count resumed from it. */
static void test_nqueens_halves_checkpoint(void **ctx)
{
    (void)ctx;
    char log[] = "/tmp/csearch-halves-XXXXXX";
    int fd = mkstemp(log);
    assert_true(fd >= 0);
    close(fd);
    unlink(log);
    struct cs_result slice = halves_run(14, NULL, log, false, 0, 3);
    assert_int_equal(slice.units.total, 890);
    assert_int_equal(slice.units.first, 0);
    assert_int_equal(slice.units.end, 297);
    assert_int_equal(slice.units.done, 297);
    struct cs_result whole = halves_run(14, NULL, log, true, 0, 0);
    assert_int_equal(whole.status, CS_COMPLETE);
    assert_int_equal(whole.units.resumed, 297);
    assert_int_equal(whole.units.done, 890);
    assert_int_equal(whole.stats.solutions, 365596);
    struct cs_result plain = halves_run(14, NULL, NULL, false, 0, 0);
    assert_same_counts(&whole.stats, &plain.stats);
    unlink(log);
}

/* The smallest buffers (memory 0: just the longest list of lower parts):
 * every split is joined block by block, the bottom set listed again for
 * each top block; the pairs, and so the totals, do not change. */
static void test_nqueens_halves_blocks(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    for (int n = 12; n <= 15; n++) {
        struct nq_halves *small = nq_halves_new(n, NQ_ISA_SCALAR, 0);
        struct nq_halves *big = nq_halves_new(n, NQ_ISA_SCALAR, 64);
        assert_true(small->cap < 200);
        uint64_t a = 0, b = 0, nodes_small = 0, nodes_big = 0;
        for (uint64_t u = 0; u < small->units; u++) {
            struct cs_stats s, t;
            assert_true(nq_halves_count_unit(small, u, NULL, &s));
            assert_true(nq_halves_count_unit(big, u, NULL, &t));
            assert_int_equal(s.solutions, t.solutions);
            a += s.solutions;
            b += t.solutions;
            nodes_small += s.nodes;
            nodes_big += t.nodes;
        }
        assert_int_equal(a, nq_answers[n].total);
        assert_int_equal(b, nq_answers[n].total);
        assert_true(nodes_small > nodes_big); /* bottoms listed again */
        nq_halves_free(small);
        nq_halves_free(big);
    }
}

/* A unit asked to stop is counted not at all. */
static void test_nqueens_halves_stop(void **ctx)
{
    (void)ctx;
    struct nq_halves *k = nq_halves_new(13, NQ_ISA_SCALAR, 64);
    volatile sig_atomic_t stop = 1;
    struct cs_stats s = {.solutions = 7};
    assert_false(nq_halves_count_unit(k, 0, &stop, &s));
    assert_int_equal(s.solutions, 7); /* untouched */
    nq_halves_free(k);
}

static void test_nqueens_halves_needs_its_settings(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "params.n=14",
                                "strategy.kernel=halves",
                                "strategy.state=array", NULL};
    struct cs_config *cfg = config_of(sets);
    assert_string_equal(setup_error(cfg), "--set strategy.kernel=halves: "
                                          "kernel halves needs state bitmask");
    cs_config_free(cfg);
    const char *const task[] = {"model=nqueens", "params.n=14", "task=solve",
                                "strategy.kernel=halves", NULL};
    cfg = config_of(task);
    assert_string_equal(setup_error(cfg), "--set strategy.kernel=halves: "
                                          "kernel halves needs task count");
    cs_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nqueens_halves_matches_oeis),
        cmocka_unit_test(test_nqueens_halves_known_figures),
        cmocka_unit_test(test_nqueens_halves_every_isa),
        cmocka_unit_test(test_nqueens_halves_isa_cap),
        cmocka_unit_test(test_nqueens_halves_threads),
        cmocka_unit_test(test_nqueens_halves_checkpoint),
        cmocka_unit_test(test_nqueens_halves_blocks),
        cmocka_unit_test(test_nqueens_halves_stop),
        cmocka_unit_test(test_nqueens_halves_needs_its_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
