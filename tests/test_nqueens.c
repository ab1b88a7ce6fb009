/* test_nqueens.c - the N-Queens model against known answers and against an
 * independent brute force (all permutations), through the engine.
 *
 * Every strategy combination (state x selection x symmetry x prune) must give
 * the OEIS totals; enumerated boards must be exactly the brute force's set;
 * node and fail counts of the plain search must equal those of a separate
 * recursion written here; undo must restore what apply changed.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nqueens/nqueens.h"
#include "support.h"

/* ---- the independent checker -------------------------------------------- */

/* All n! permutations in lexicographic order; calls fn for the valid ones. */
static void brute_force(int n, void (*fn)(const int *pos, int n, void *ud),
                        void *ud)
{
    int pos[16];
    for (int i = 0; i < n; i++)
        pos[i] = i;
    for (;;) {
        if (nq_board_valid(pos, n))
            fn(pos, n, ud);
        int i = n - 2;
        while (i >= 0 && pos[i] > pos[i + 1])
            i--;
        if (i < 0)
            return;
        int j = n - 1;
        while (pos[j] < pos[i])
            j--;
        int t = pos[i];
        pos[i] = pos[j];
        pos[j] = t;
        for (int a = i + 1, b = n - 1; a < b; a++, b--) {
            t = pos[a];
            pos[a] = pos[b];
            pos[b] = t;
        }
    }
}

/* Boards as one string each ("Q..." rows joined), kept sorted. */
struct boards {
    char **items;
    size_t count;
};

static void boards_add(struct boards *b, const char *s)
{
    b->items = realloc(b->items, (b->count + 1) * sizeof *b->items);
    b->items[b->count++] = strdup(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void boards_sort(struct boards *b)
{
    if (b->count)
        qsort(b->items, b->count, sizeof *b->items, cmp_str);
}

static void boards_free(struct boards *b)
{
    for (size_t i = 0; i < b->count; i++)
        free(b->items[i]);
    free(b->items);
}

static void brute_board(const int *pos, int n, void *ud)
{
    char s[16 * 16 + 1];
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            s[r * n + c] = pos[r] == c ? 'Q' : '.';
    s[n * n] = '\0';
    boards_add(ud, s);
}

/* on_solution: every board the search stands for, checked and kept. */
static bool collect_board(void *ud, const struct cs_hooks *hooks,
                          const void *state, uint64_t weight)
{
    struct cs_board board = {0};
    for (uint64_t k = 0; k < weight; k++) {
        cs_board_clear(&board);
        hooks->emit(state, k, &board);
        char s[16 * 16 + 1] = "";
        int pos[16], n = (int)board.count;
        for (int r = 0; r < n; r++) {
            assert_int_equal(strlen(board.lines[r]), n);
            strcat(s, board.lines[r]);
            pos[r] = (int)(strchr(board.lines[r], 'Q') - board.lines[r]);
        }
        assert_true(nq_board_valid(pos, n));
        boards_add(ud, s);
    }
    cs_board_free(&board);
    return true;
}

/* ---- strategy combinations ---------------------------------------------- */

static const char *const states[] = {"array", "bitmask"};
static const char *const selects[] = {"in-order", "mrv"};
static const char *const symmetries[] = {"none", "mirror"};
static const char *const prunes[] = {"none", "forward"};

static struct cs_config *combo_config(int n, int combo, const char *task)
{
    char sets[6][64];
    snprintf(sets[0], 64, "params.n=%d", n);
    snprintf(sets[1], 64, "strategy.state=%s", states[combo & 1]);
    snprintf(sets[2], 64, "strategy.select=%s", selects[combo >> 1 & 1]);
    snprintf(sets[3], 64, "strategy.symmetry=%s", symmetries[combo >> 2 & 1]);
    snprintf(sets[4], 64, "strategy.prune=%s", prunes[combo >> 3 & 1]);
    snprintf(sets[5], 64, "task=%s", task);
    const char *const list[] = {"model=nqueens", sets[0], sets[1], sets[2],
                                sets[3],         sets[4], sets[5], NULL};
    return config_of(list);
}

static void test_nqueens_totals_every_strategy(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    for (int combo = 0; combo < 16; combo++)
        for (int n = 1; n <= 13; n++) {
            struct cs_config *cfg = combo_config(n, combo, "count");
            struct cs_result run;
            run_config(cfg, &run, NULL, NULL);
            if (run.stats.solutions != nq_answers[n].total)
                fail_msg("n=%d %s/%s/%s/%s: %llu solutions, expected %llu", n,
                         states[combo & 1], selects[combo >> 1 & 1],
                         symmetries[combo >> 2 & 1], prunes[combo >> 3 & 1],
                         (unsigned long long)run.stats.solutions,
                         (unsigned long long)nq_answers[n].total);
            assert_int_equal(run.status, CS_COMPLETE);
            cs_config_free(cfg);
        }
}

static void test_nqueens_boards_match_brute_force(void **ctx)
{
    (void)ctx;
    for (int n = 1; n <= 9; n++) {
        struct boards expected = {0};
        brute_force(n, brute_board, &expected);
        boards_sort(&expected);
        for (int combo = 0; combo < 16; combo++) {
            struct cs_config *cfg = combo_config(n, combo, "enumerate");
            struct boards got = {0};
            struct cs_result run;
            run_config(cfg, &run, collect_board, &got);
            assert_int_equal(run.stats.solutions, expected.count);
            assert_int_equal(got.count, expected.count);
            boards_sort(&got);
            for (size_t i = 0; i < got.count; i++)
                assert_string_equal(got.items[i], expected.items[i]);
            boards_free(&got);
            cs_config_free(cfg);
        }
        boards_free(&expected);
    }
}

/* ---- node counts --------------------------------------------------------- */

/* A plain recursion of its own: nodes = consistent prefixes (the empty one
 * included), fails = prefixes shorter than n with no consistent extension. */
static void count_prefixes(int *pos, int row, int n, uint64_t *nodes,
                           uint64_t *fails, int *depth)
{
    ++*nodes;
    if (row > *depth)
        *depth = row;
    if (row == n)
        return;
    bool child = false;
    for (int c = 0; c < n; c++) {
        pos[row] = c;
        if (!nq_board_valid(pos, row + 1))
            continue;
        child = true;
        count_prefixes(pos, row + 1, n, nodes, fails, depth);
    }
    if (!child)
        ++*fails;
}

static void test_nqueens_plain_tree_matches_recursion(void **ctx)
{
    (void)ctx;
    for (int n = 1; n <= 10; n++) {
        uint64_t nodes = 0, fails = 0;
        int pos[16], depth = 0;
        count_prefixes(pos, 0, n, &nodes, &fails, &depth);
        for (int state = 0; state < 2; state++) {
            /* combo bits: state, in-order, no symmetry, no pruning */
            struct cs_config *cfg = combo_config(n, state, "count");
            struct cs_result run;
            run_config(cfg, &run, NULL, NULL);
            assert_int_equal(run.stats.nodes, nodes);
            assert_int_equal(run.stats.fails, fails);
            assert_int_equal(run.stats.max_depth, depth);
            cs_config_free(cfg);
        }
    }
}

/* n = 10, each strategy, in combo order (state, select, symmetry, prune):
 * nodes, checks, fails.  The search is deterministic, so these are exact; a
 * change here is a change of the search tree.  Two relations make them more
 * than a recording: both states walk the same tree (equal nodes and fails,
 * the array making n checks where the bitmask makes one), and mirror halves
 * the plain tree of an even n exactly: (35539 - 1) / 2 + 1 = 17770. */
static void test_nqueens_node_counts_n10(void **ctx)
{
    (void)ctx;
    static const uint64_t want[16][3] = {
        {35539, 348150, 12050}, {35539, 34815, 12050}, {19745, 819150, 4992},
        {19745, 81915, 4992},   {17770, 174075, 6025}, {17770, 17408, 6025},
        {9873, 409575, 2496},   {9873, 40963, 2496},   {27833, 553343, 10344},
        {27833, 98969, 10344},  {19745, 952206, 4992}, {19745, 131445, 4992},
        {13917, 281288, 5172},  {13917, 49490, 5172},  {9873, 479559, 2496},
        {9873, 65733, 2496},
    };
    for (int combo = 0; combo < 16; combo++) {
        struct cs_config *cfg = combo_config(10, combo, "count");
        struct cs_result run;
        run_config(cfg, &run, NULL, NULL);
        assert_int_equal(run.stats.solutions, 724);
        assert_int_equal(run.stats.nodes, want[combo][0]);
        assert_int_equal(run.stats.checks, want[combo][1]);
        assert_int_equal(run.stats.fails, want[combo][2]);
        cs_config_free(cfg);
    }
}

/* ---- undo restores the state ------------------------------------------- */

/* What a state shows through its hooks: each row's values in order (or -1
 * when set) and what select says.  Equal snapshots = indistinguishable. */
static void snapshot(const struct cs_hooks *h, void *state, int n, int *out)
{
    uint64_t cursor;
    int value, k = 0;
    memset(out, 0, (16 * 18 + 4) * sizeof *out);
    out[k++] = h->select(state);
    for (int r = 0; r < n; r++) {
        /* the shifting bitmask knows only the row it is at */
        if (!h->domain_size && r != out[0])
            continue;
        if (h->domain_size && h->domain_size(state, r) < 0) {
            out[k++] = -1;
            continue;
        }
        h->first(state, r, &cursor);
        while (h->next(state, r, &cursor, &value))
            out[k++] = value;
        out[k++] = -2;
    }
    out[k++] = h->prune ? h->prune(state) : 0;
}

static void test_nqueens_undo_restores_state(void **ctx)
{
    (void)ctx;
    srand(12345);
    /* the last: the array hooks on the set state's hash set */
    static const enum nq_state kinds[] = {NQ_ARRAY, NQ_BITMASK, NQ_BITMASK,
                                          NQ_ABSOLUTE, NQ_ARRAY};
    for (int t = 0; t < 5; t++)
        for (int trial = 0; trial < 200; trial++) {
            struct nq_problem p = {.n = 1 + rand() % 12,
                                   .mirror = rand() & 1,
                                   .forward = t == 2 || (rand() & 1),
                                   .hashed = t == 4};
            const struct cs_hooks *h = nq_hooks(kinds[t], &p);
            void *state = calloc(1, h->state_size);
            h->init(state, &p);
            int vars[16], vals[16], depth = 0;
            int before[16][16 * 18 + 4], after[16 * 18 + 4];
            /* random walk down, snapshotting, then back up comparing */
            for (;;) {
                int var = h->select(state);
                if (var == CS_NONE)
                    break;
                if (kinds[t] != NQ_BITMASK) { /* any open row */
                    int open[16], nopen = 0;
                    for (int r = 0; r < p.n; r++)
                        if (h->domain_size(state, r) >= 0)
                            open[nopen++] = r;
                    var = open[rand() % nopen];
                }
                uint64_t cursor;
                int value, choices[16], nchoices = 0;
                h->first(state, var, &cursor);
                while (h->next(state, var, &cursor, &value))
                    choices[nchoices++] = value;
                if (!nchoices)
                    break;
                snapshot(h, state, p.n, before[depth]);
                vars[depth] = var;
                vals[depth] = choices[rand() % nchoices];
                h->apply(state, vars[depth], vals[depth]);
                depth++;
            }
            while (depth > 0) {
                depth--;
                h->undo(state, vars[depth], vals[depth]);
                snapshot(h, state, p.n, after);
                assert_memory_equal(before[depth], after, sizeof after);
            }
            if (h->fini)
                h->fini(state);
            free(state);
        }
}

/* ---- d4: totals and unique solutions ------------------------------------ */

static void test_nqueens_d4_fast_kernel_matches_oeis(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    for (int n = 1; n <= 14; n++) {
        char size[32];
        snprintf(size, sizeof size, "params.n=%d", n);
        const char *const sets[] = {"model=nqueens", size,
                                    "strategy.symmetry=d4", NULL};
        struct cs_config *cfg = config_of(sets);
        struct cs_result run;
        run_config(cfg, &run, NULL, NULL);
        assert_int_equal(run.status, CS_COMPLETE);
        assert_int_equal(run.stats.solutions, nq_answers[n].total);
        assert_int_equal(run.stats.unique, nq_answers[n].unique);
        /* the kernel's units for n >= 6, the generic search below */
        assert_int_equal(run.units.total > 0, n >= 6);
        cs_config_free(cfg);
    }
}

static void test_nqueens_d4_generic_every_strategy(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    for (int combo = 0; combo < 8; combo++)
        for (int n = 1; n <= 10; n++) {
            char sets[4][64];
            snprintf(sets[0], 64, "params.n=%d", n);
            snprintf(sets[1], 64, "strategy.state=%s", states[combo & 1]);
            snprintf(sets[2], 64, "strategy.select=%s",
                     selects[combo >> 1 & 1]);
            snprintf(sets[3], 64, "strategy.prune=%s", prunes[combo >> 2 & 1]);
            const char *const list[] = {"model=nqueens",
                                        "strategy.symmetry=d4",
                                        "strategy.kernel=generic",
                                        sets[0],
                                        sets[1],
                                        sets[2],
                                        sets[3],
                                        NULL};
            struct cs_config *cfg = config_of(list);
            struct cs_result run;
            run_config(cfg, &run, NULL, NULL);
            assert_int_equal(run.stats.solutions, nq_answers[n].total);
            assert_int_equal(run.stats.unique, nq_answers[n].unique);
            cs_config_free(cfg);
        }
}

/* The checker's own orbits: each brute-force solution is mapped by the 8
 * symmetries (written out here, not taken from the model) and counted when
 * it is the smallest of its images. */
static void orbit_count(const int *pos, int n, void *ud)
{
    int img[16];
    for (int g = 1; g < 8; g++) {
        for (int r = 0; r < n; r++) {
            int c = pos[r], gr, gc;
            switch (g) {
            case 1:
                gr = c;
                gc = n - 1 - r;
                break;
            case 2:
                gr = n - 1 - r;
                gc = n - 1 - c;
                break;
            case 3:
                gr = n - 1 - c;
                gc = r;
                break;
            case 4:
                gr = r;
                gc = n - 1 - c;
                break;
            case 5:
                gr = n - 1 - r;
                gc = c;
                break;
            case 6:
                gr = c;
                gc = r;
                break;
            default:
                gr = n - 1 - c;
                gc = n - 1 - r;
                break;
            }
            img[gr] = gc;
        }
        int r = 0;
        while (r < n && img[r] == pos[r])
            r++;
        if (r < n && img[r] < pos[r])
            return; /* an image is smaller: not the representative */
    }
    ++*(uint64_t *)ud;
}

static void test_nqueens_d4_unique_matches_brute_force(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    for (int n = 1; n <= 10; n++) {
        uint64_t orbits = 0;
        brute_force(n, orbit_count, &orbits);
        assert_int_equal(orbits, nq_answers[n].unique);
    }
}

static void test_nqueens_threads_same_totals(void **ctx)
{
    (void)ctx;
    static const char *const kinds[][2] = {
        {"strategy.symmetry=mirror", "strategy.state=bitmask"},
        {"strategy.symmetry=d4", "strategy.state=bitmask"},
        {"strategy.symmetry=none", "strategy.state=array"},
    };
    for (int k = 0; k < 3; k++) {
        struct cs_stats first = {0};
        for (int threads = 1; threads <= 3; threads++) {
            char t[32];
            snprintf(t, sizeof t, "strategy.threads=%d", threads);
            const char *const sets[] = {"model=nqueens",
                                        "params.n=11",
                                        kinds[k][0],
                                        kinds[k][1],
                                        t,
                                        NULL};
            struct cs_config *cfg = config_of(sets);
            struct cs_result run;
            run_config(cfg, &run, NULL, NULL);
            assert_int_equal(run.stats.solutions, 2680);
            /* split when threaded, or always with the fast kernel */
            assert_int_equal(run.units.total > 0, threads > 1 || k == 1);
            if (threads == 1) {
                first = run.stats;
            } else {
                assert_int_equal(run.stats.nodes, first.nodes);
                assert_int_equal(run.stats.checks, first.checks);
                assert_int_equal(run.stats.fails, first.fails);
                assert_int_equal(run.stats.unique, first.unique);
                assert_int_equal(run.stats.max_depth, first.max_depth);
            }
            cs_config_free(cfg);
        }
    }
}

static void test_nqueens_kernel_fast_needs_its_settings(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "strategy.kernel=fast",
                                "strategy.state=array", NULL};
    struct cs_config *cfg = config_of(sets);
    assert_string_equal(setup_error(cfg), "--set strategy.kernel=fast: "
                                          "kernel fast needs state bitmask");
    cs_config_free(cfg);
}

static void test_nqueens_count_overflow_refused(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "params.n=29", NULL};
    struct cs_config *cfg = config_of(sets);
    assert_string_equal(setup_error(cfg),
                        "--set params.n=29: counting n = 29 could overflow "
                        "64-bit counts (at most 28); task solve finds one "
                        "solution up to n = 1000000000");
    cs_config_free(cfg);
}

/* ---- solve --------------------------------------------------------------- */

static void test_nqueens_solve_gives_first_board(void **ctx)
{
    (void)ctx;
    static const char *const first8[] = {"Q.......", "....Q...", ".......Q",
                                         ".....Q..", "..Q.....", "......Q.",
                                         ".Q......", "...Q...."};
    for (int state = 0; state < 2; state++) {
        const char *const sets[] = {
            "model=nqueens", "params.n=8", "task=solve",
            state ? "strategy.state=bitmask" : "strategy.state=array", NULL};
        struct cs_config *cfg = config_of(sets);
        struct boards got = {0};
        struct cs_result run;
        run_config(cfg, &run, collect_board, &got);
        assert_int_equal(run.status, CS_COMPLETE);
        assert_int_equal(run.stats.solutions, 1);
        char want[65] = "";
        for (int r = 0; r < 8; r++)
            strcat(want, first8[r]);
        assert_string_equal(got.items[0], want);
        boards_free(&got);
        cs_config_free(cfg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nqueens_totals_every_strategy),
        cmocka_unit_test(test_nqueens_boards_match_brute_force),
        cmocka_unit_test(test_nqueens_plain_tree_matches_recursion),
        cmocka_unit_test(test_nqueens_node_counts_n10),
        cmocka_unit_test(test_nqueens_undo_restores_state),
        cmocka_unit_test(test_nqueens_d4_fast_kernel_matches_oeis),
        cmocka_unit_test(test_nqueens_d4_generic_every_strategy),
        cmocka_unit_test(test_nqueens_d4_unique_matches_brute_force),
        cmocka_unit_test(test_nqueens_threads_same_totals),
        cmocka_unit_test(test_nqueens_kernel_fast_needs_its_settings),
        cmocka_unit_test(test_nqueens_count_overflow_refused),
        cmocka_unit_test(test_nqueens_solve_gives_first_board),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
