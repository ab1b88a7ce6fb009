/* test_nqueens_halves.c - the meet-in-the-middle kernel (strategy.kernel
 * halves): totals against OEIS A000170 for n = 1..17 through the kernel
 * asked for by name, the same totals and nodes on every instruction set, in
 * threads, in slices resumed from a checkpoint, and with buffers so small
 * that every split is joined block by block; the pairs sorted into classes
 * and weighed by the long-diagonal symmetry, against the pairs one by one
 * and OEIS for every class width; masks up to 56 bits (n = 24..27) on
 * tables of seven and eight chunks, forced on small boards; part lists
 * listed per split when the memory is too small for them; its set-up
 * errors and its limit.
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

/* The instruction sets this processor runs: scalar always. */
static int isas_here(enum nq_isa *out)
{
    int k = 0;
    for (int i = NQ_ISA_SCALAR; i <= NQ_ISA_AVX512; i++)
        if (nq_match_isa((enum nq_isa)i) == (enum nq_isa)i)
            out[k++] = (enum nq_isa)i;
    return k;
}

/* The largest board of the whole counts: 17, or CSEARCH_TEST_NMAX (the
 * sanitizer build's 14: it runs ten times slower). */
static int largest_n(void)
{
    const char *v = getenv("CSEARCH_TEST_NMAX");
    return v && *v ? atoi(v) : 17;
}

/* Every unit of k counted: the total. */
static uint64_t whole_total(const struct nq_halves *k)
{
    uint64_t total = 0;
    for (uint64_t u = 0; u < k->units; u++) {
        struct cs_stats st;
        assert_true(nq_halves_count_unit(k, u, NULL, &st));
        total += st.solutions;
    }
    return total;
}

/* Count with kernel halves at size n, extra settings appended, an optional
 * checkpoint (resumed when resume) and slice part/parts. */
static struct cs_result halves_run(int n, const char *extra, const char *log,
                                   bool resume, uint64_t part, uint64_t parts)
{
    char size[32];
    snprintf(size, sizeof size, "params.n=%d", n);
    const char *const sets[] = {"model=nqueens", size, "strategy.kernel=halves",
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
    assert_string_equal(job.problem.kernel, n >= NQ_HALVES_MIN ? "halves"
                                            : n >= 6           ? "fast"
                                                               : "generic");
    /* its variant measured, unless the processor runs one only or
     * CSEARCH_ISA names it */
    enum nq_isa here[3];
    if (n >= NQ_HALVES_MIN)
        assert_string_equal(job.problem.isa_reason,
                            getenv("CSEARCH_ISA") ? "CSEARCH_ISA"
                            : isas_here(here) > 1 ? "measured"
                                                  : "only");
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
    for (int n = 1; n <= largest_n(); n++) {
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

/* CSEARCH_ISA names the matcher and the join: every instruction set this
 * processor runs gives the same counts as the measured choice, n = 12..17
 * (OEIS). */
static void test_nqueens_halves_every_isa(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    enum nq_isa isas[3];
    int nisa = isas_here(isas);
    for (int n = NQ_HALVES_MIN; n <= largest_n(); n++) {
        unsetenv("CSEARCH_ISA");
        struct cs_stats first = halves_run(n, NULL, NULL, false, 0, 0).stats;
        for (int i = 0; i < nisa; i++) {
            setenv("CSEARCH_ISA", nq_isa_name(isas[i]), 1);
            struct cs_result run = halves_run(n, NULL, NULL, false, 0, 0);
            assert_same_counts(&run.stats, &first);
        }
        assert_int_equal(first.solutions, nq_answers[n].total);
    }
    unsetenv("CSEARCH_ISA");
}

/* CSEARCH_ISA: an instruction set by name, one this processor runs. */
static void test_nqueens_halves_isa_env(void **ctx)
{
    (void)ctx;
    enum nq_isa isa;
    bool set;
    char msg[160];
    unsetenv("CSEARCH_ISA");
    assert_null(nq_isa_env(&isa, &set, msg, sizeof msg));
    assert_false(set);
    assert_int_equal(isa, NQ_ISA_AVX512);
    setenv("CSEARCH_ISA", "scalar", 1);
    assert_null(nq_isa_env(&isa, &set, msg, sizeof msg));
    assert_true(set);
    assert_int_equal(isa, NQ_ISA_SCALAR);
    enum nq_isa isas[3];
    if (isas_here(isas) < 3) { /* an instruction set beyond this processor */
        setenv("CSEARCH_ISA", "avx512", 1);
        assert_non_null(nq_isa_env(&isa, &set, msg, sizeof msg));
        const char *want = "CSEARCH_ISA=avx512: this processor lacks avx";
        assert_int_equal(strncmp(msg, want, strlen(want)), 0);
    }
    setenv("CSEARCH_ISA", "sse9", 1);
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
        struct nq_halves *small = nq_halves_new(n, NQ_ISA_SCALAR, 0, 1);
        struct nq_halves *big = nq_halves_new(n, NQ_ISA_SCALAR, 64, 1);
        assert_true(small->cap < 200);
        /* no memory for the part lists either: each split lists its own */
        assert_false(small->parts.upper.listed || small->parts.lower.listed);
        assert_true(big->parts.upper.listed && big->parts.lower.listed);
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

/* Force class width w on every split (thresholds 0 up to w, never above). */
static void force_width(struct nq_layout *y, int w)
{
    for (int v = 1; v <= NQ_CLASS_WMAX; v++)
        y->at_least[v] = v <= w ? 0 : SIZE_MAX;
}

static uint64_t draw(uint64_t *r)
{
    *r ^= *r << 13;
    *r ^= *r >> 7;
    *r ^= *r << 17;
    return *r;
}

/* Weighed pairs one by one: h(s, u) by the long-diagonal bits. */
static uint64_t brute_pairs(const struct nq_layout *y, int t, const uint64_t *a,
                            size_t na, const uint64_t *b, size_t nb)
{
    const uint64_t A = UINT64_C(1) << (t - 1), M = A << y->L;
    uint64_t total = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++) {
            if (a[i] & b[j])
                continue;
            if (!y->symmetry) {
                total++;
                continue;
            }
            int sa = !!(a[i] & A) + !!(a[i] & M),
                sb = !!(b[j] & A) + !!(b[j] & M);
            uint64_t top = sa ? 0 : UINT64_C(1) << sb;
            uint64_t bot = sb ? 0 : UINT64_C(1) << sa;
            total += (top + bot) / 2;
        }
    return total;
}

/* nq_pairs against the pairs one by one, on random sparse patterns of an
 * n = 20 board (38 bits), every class width, with and without the
 * symmetry, every instruction set here; sizes across the direct and the
 * table paths.  Plus one hand-made case with exact weights. */
static void test_nqueens_halves_pairs(void **ctx)
{
    (void)ctx;
    enum nq_isa isas[3];
    int nisa = isas_here(isas);
    const int n = 20, t = n / 2;
    static uint64_t a[1500], b[1300];
    uint64_t r = 88172645463325252u;
    for (size_t i = 0; i < 1500; i++)
        a[i] = draw(&r) & draw(&r) & draw(&r) & ((UINT64_C(1) << 38) - 1);
    for (size_t i = 0; i < 1300; i++)
        b[i] = draw(&r) & draw(&r) & draw(&r) & ((UINT64_C(1) << 38) - 1);
    const size_t sizes[][2] = {{1500, 1300}, {40, 1300}, {700, 9}, {3, 5}};
    for (int sym = 0; sym <= 1; sym++)
        for (int w = sym; w <= NQ_CLASS_WMAX; w++) {
            struct nq_layout y;
            nq_layout_init(&y, n, sym);
            force_width(&y, w);
            for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
                uint64_t want =
                    brute_pairs(&y, t, a, sizes[k][0], b, sizes[k][1]);
                for (int i = 0; i < nisa; i++) {
                    struct nq_pairing pg = {0};
                    assert_int_equal(nq_pairs(&y, isas[i], &pg, a, sizes[k][0],
                                              b, sizes[k][1]),
                                     want);
                    nq_pairing_free(&pg);
                }
            }
        }
    /* a top on the anti-diagonal (bit t - 1) against bottoms on none, the
     * anti-diagonal, the main one (bit L + t - 1) and both: weights 1, -
     * (they meet), 0 (one long diagonal in each half) and - */
    struct nq_layout y;
    nq_layout_init(&y, n, true);
    const uint64_t A = UINT64_C(1) << (t - 1), M = UINT64_C(1) << (19 + t - 1);
    const uint64_t top[] = {A}, bottoms[] = {1, A, M, A | M}, none[] = {2};
    struct nq_pairing pg = {0};
    assert_int_equal(nq_pairs(&y, NQ_ISA_SCALAR, &pg, top, 1, bottoms, 4), 1);
    /* a top on neither against the same: 1 + 1 + 1 + 2 */
    assert_int_equal(nq_pairs(&y, NQ_ISA_SCALAR, &pg, none, 1, bottoms, 4), 5);
    nq_pairing_free(&pg);
}

/* Whole counts through every class width, with the symmetry and without,
 * on every instruction set: the totals of OEIS; the symmetry moves counts
 * between splits (some unit differs) but never the total or the nodes. */
static void test_nqueens_halves_classes(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    enum nq_isa isas[3];
    int nisa = isas_here(isas);
    for (int n = 12; n <= 15 && n <= largest_n(); n++)
        for (int i = 0; i < nisa; i++) {
            struct nq_halves *plain = nq_halves_new(n, isas[i], 64, 1);
            force_width(&plain->layout, 0);
            uint64_t *units = calloc(plain->units, sizeof *units);
            uint64_t want = 0, nodes = 0;
            for (uint64_t u = 0; u < plain->units; u++) {
                struct cs_stats s;
                assert_true(nq_halves_count_unit(plain, u, NULL, &s));
                units[u] = s.solutions;
                want += s.solutions;
                nodes += s.nodes;
            }
            assert_int_equal(want, nq_answers[n].total);
            for (int sym = 0; sym <= 1; sym++)
                for (int w = sym; w <= NQ_CLASS_WMAX; w++) {
                    struct nq_halves *k = nq_halves_new(n, isas[i], 64, 1);
                    nq_layout_init(&k->layout, n, sym);
                    force_width(&k->layout, w);
                    uint64_t total = 0, listed = 0, moved = 0;
                    for (uint64_t u = 0; u < k->units; u++) {
                        struct cs_stats s;
                        assert_true(nq_halves_count_unit(k, u, NULL, &s));
                        total += s.solutions;
                        listed += s.nodes;
                        moved += s.solutions != units[u];
                    }
                    assert_int_equal(total, nq_answers[n].total);
                    assert_int_equal(listed, nodes);
                    if (sym)
                        assert_true(moved > 0);
                    else
                        assert_int_equal(moved, 0);
                    nq_halves_free(k);
                }
            free(units);
            nq_halves_free(plain);
        }
}

/* Does the queen of row r at column c[r] attack none of rows from..r-1? */
static bool row_fits(const int *c, int from, int r)
{
    for (int q = from; q < r; q++)
        if (c[q] - c[r] == r - q || c[r] - c[q] == r - q)
            return false;
    return true;
}

/* Every order of the t columns of cols down rows 0..t-1 whose rows
 * 0..a-1 and a..t-1 are each free of attacks among themselves, and none
 * of whose queens the middle queen (row t, column mid; -1: none) attacks. */
static uint64_t brute_part_pairs(int t, int a, int mid, const int *cols, int *c,
                                 int r, uint32_t used)
{
    if (r == t)
        return 1;
    uint64_t sum = 0;
    for (int i = 0; i < t; i++) {
        if (used >> i & 1)
            continue;
        c[r] = cols[i];
        if (mid >= 0 && (cols[i] - mid == t - r || mid - cols[i] == t - r))
            continue;
        if (row_fits(c, r < a ? 0 : a, r))
            sum += brute_part_pairs(t, a, mid, cols, c, r + 1, used | 1u << i);
    }
    return sum;
}

/* Masks of 43..56 bits (the keys of n = 24..27) on tables of seven and
 * eight chunks, against the pairs one by one: sparse random masks, so that
 * some pairs are disjoint, with the top bit set in some. */
static void test_nqueens_halves_wide_masks(void **ctx)
{
    (void)ctx;
    enum nq_isa isas[3];
    int nisa = isas_here(isas);
    uint64_t r = 88172645463325252u;
    static uint64_t pats[1500], items[300];
    for (int bits = 43; bits <= NQ_MATCH_BITS; bits++) {
        const uint64_t below = (UINT64_C(1) << bits) - 1;
        for (size_t i = 0; i < 1500; i++)
            pats[i] = draw(&r) & draw(&r) & draw(&r) & below;
        for (size_t i = 0; i < 300; i++)
            items[i] = (draw(&r) & draw(&r) & draw(&r) & below) |
                       (i % 7 ? 0 : UINT64_C(1) << (bits - 1));
        uint64_t want = nq_direct_count(pats, 1500, items, 300);
        assert_true(want > 0);
        for (int i = 0; i < nisa; i++)
            assert_int_equal(
                nq_match_count(isas[i], pats, 1500, items, 300, bits), want);
    }
}

/* Whole counts with every table forced to NQ_MATCH_BITS (eight chunks, the
 * widest n = 26 and 27 take), through every class width (n = 16, 17: the
 * widest, on the best instruction set): OEIS's totals. */
static void test_nqueens_halves_wide_tables(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    enum nq_isa isas[3];
    int nisa = isas_here(isas);
    const int every = largest_n() - 2; /* every ISA and width to here */
    for (int n = 12; n <= largest_n(); n++)
        for (int i = n <= every ? 0 : nisa - 1; i < nisa; i++)
            for (int w = n <= every ? 0 : NQ_CLASS_WMAX; w <= NQ_CLASS_WMAX;
                 w++) {
                struct nq_halves *k = nq_halves_new(n, isas[i], 64, 1);
                nq_layout_init(&k->layout, n, w > 0);
                force_width(&k->layout, w);
                for (int v = 0; v <= NQ_CLASS_WMAX; v++)
                    k->layout.bits[v] = NQ_MATCH_BITS;
                assert_int_equal(whole_total(k), nq_answers[n].total);
                nq_halves_free(k);
            }
}

/* Memory for the upper part's list only (n = 26 and 27 by default): the
 * lower parts listed per split, n = 12..16, OEIS's totals. */
static void test_nqueens_halves_near_lists(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    enum nq_isa isas[3];
    int nisa = isas_here(isas);
    /* to 16, or the sanitizer build's largest_n() (n = 16 took 163 s of
     * its 248) */
    for (int n = 12; n <= 16 && n <= largest_n(); n++) {
        struct nq_halves *k = nq_halves_new(n, isas[nisa - 1], 0, 1);
        nq_parts_list(&k->parts, n, true, false);
        assert_true(k->parts.upper.listed && !k->parts.lower.listed);
        assert_int_equal(whole_total(k), nq_answers[n].total);
        nq_halves_free(k);
    }
}

/* The memory plan: within the budget when the board allows it, the lists
 * whole only where they fit; units from 4096 up to 2^20 by n. */
static void test_nqueens_halves_memory_plan(void **ctx)
{
    (void)ctx;
    struct nq_halves *k = nq_halves_new(22, NQ_ISA_SCALAR, 256, 2);
    assert_false(k->parts.lower.listed); /* 263 MB would not fit */
    assert_true(k->bytes <= UINT64_C(256) << 20);
    assert_true(k->units > 15000 && k->units <= 4 * 4096);
    nq_halves_free(k);
    k = nq_halves_new(22, NQ_ISA_SCALAR, 6144, 2);
    assert_true(k->parts.upper.listed && k->parts.lower.listed);
    assert_true(k->bytes <= UINT64_C(450) << 20);
    nq_halves_free(k);
}

/* A unit's size comes from nq_parts_estimate: the pairs of an upper and a
 * lower part with the set's columns that the middle queen leaves alone,
 * before their diagonals meet; against a brute force over the set's
 * orders, for every top column set of n = 12 and every split of 13. */
static void test_nqueens_halves_unit_sizes(void **ctx)
{
    (void)ctx;
    for (int n = 12; n <= 13; n++) {
        struct nq_halves *k = nq_halves_new(n, NQ_ISA_SCALAR, 64, 1);
        const int t = n / 2, a = t / 2;
        uint64_t sets = 0;
        for (uint32_t cols = 0; cols < UINT32_C(1) << n; cols++) {
            if (__builtin_popcount(cols) != t)
                continue;
            int list[16], m = 0, order[16];
            for (int c = 0; c < n; c++)
                if (cols >> c & 1)
                    list[m++] = c;
            for (int mid = n % 2 ? 0 : -1; mid < (n % 2 ? n : 0); mid++) {
                if (mid >= 0 && cols >> mid & 1)
                    continue;
                assert_true(
                    nq_parts_estimate(&k->parts, n, cols, mid) ==
                    (double)brute_part_pairs(t, a, mid, list, order, 0, 0));
                sets++;
            }
        }
        /* n = 12: C(12, 6); n = 13: C(13, 6) sets, 7 middle columns each */
        assert_int_equal(sets, n == 12 ? 924 : 1716 * 7);
        for (uint64_t u = 0; u < k->units; u++)
            assert_true(nq_halves_unit_size(k, u) > 0);
        nq_halves_free(k);
    }
}

/* A unit asked to stop is counted not at all. */
static void test_nqueens_halves_stop(void **ctx)
{
    (void)ctx;
    struct nq_halves *k = nq_halves_new(13, NQ_ISA_SCALAR, 64, 1);
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

/* n = 28 is refused at params.n; smaller boards go to the others. */
static void test_nqueens_halves_limit(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "params.n=28",
                                "strategy.kernel=halves", NULL};
    struct cs_config *cfg = config_of(sets);
    assert_string_equal(setup_error(cfg),
                        "--set params.n=28: n = 28 is beyond the halves "
                        "kernel (n = 12..27); kernel fast counts up to n = 28");
    cs_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nqueens_halves_matches_oeis),
        cmocka_unit_test(test_nqueens_halves_known_figures),
        cmocka_unit_test(test_nqueens_halves_every_isa),
        cmocka_unit_test(test_nqueens_halves_isa_env),
        cmocka_unit_test(test_nqueens_halves_threads),
        cmocka_unit_test(test_nqueens_halves_checkpoint),
        cmocka_unit_test(test_nqueens_halves_blocks),
        cmocka_unit_test(test_nqueens_halves_pairs),
        cmocka_unit_test(test_nqueens_halves_classes),
        cmocka_unit_test(test_nqueens_halves_wide_masks),
        cmocka_unit_test(test_nqueens_halves_wide_tables),
        cmocka_unit_test(test_nqueens_halves_near_lists),
        cmocka_unit_test(test_nqueens_halves_memory_plan),
        cmocka_unit_test(test_nqueens_halves_unit_sizes),
        cmocka_unit_test(test_nqueens_halves_stop),
        cmocka_unit_test(test_nqueens_halves_needs_its_settings),
        cmocka_unit_test(test_nqueens_halves_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
