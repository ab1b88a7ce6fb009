/* test_moves.c - the moves layer's bursts (framework/local.c) from inside
 * the engine: a burst beside a portfolio's other threads, played by a fake
 * peer through struct eng_share, so that what a real portfolio leaves to
 * timing (which thread leads, and when) is fixed, and every adoption of
 * the portfolio's best (cs_bursts.adopt_seconds) is counted exactly.
 * layer_moves() is internal to libcsearch: the test compiles the library's
 * sources itself (tests/CMakeLists.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layers.h"

/* The valley model: two variables of values 0-2, cost 4 - 2v when both
 * are v, 9 when they differ.  So each diagonal cell is a valley: every
 * single move out of it climbs by 5 or more, which a burst at a
 * temperature of 1e-9 never makes.  A burst from (0, 0) stays there;
 * only another's roster can take it to (1, 1) or (2, 2). */
struct valley {
    int x[2];
};

static uint64_t starts; /* ls_start calls, all states */

static void valley_init(void *state, const void *problem)
{
    (void)problem;
    memset(state, 0, sizeof(struct valley));
}

static bool valley_start(void *state, uint64_t seed, volatile sig_atomic_t *s)
{
    (void)state, (void)seed, (void)s; /* the moves layer's copy: kept */
    starts++;
    return true;
}

static int64_t valley_cost(int a, int b)
{
    return a == b ? 4 - 2 * a : 9;
}

static uint64_t valley_conflicts(const void *state)
{
    const struct valley *v = state;
    return (uint64_t)valley_cost(v->x[0], v->x[1]);
}

static int valley_pick(void *state, uint64_t random)
{
    (void)state;
    return (int)(random % 2);
}

static uint64_t valley_moves(const void *state, int var)
{
    (void)state, (void)var;
    return 3;
}

static int64_t valley_delta(void *state, int var, uint64_t move)
{
    const struct valley *v = state;
    int x[2] = {v->x[0], v->x[1]};
    x[var] = (int)move;
    return valley_cost(x[0], x[1]) - valley_cost(v->x[0], v->x[1]);
}

static void valley_apply(void *state, int var, uint64_t move)
{
    struct valley *v = state;
    v->x[var] = (int)move;
}

static const struct cs_local_hooks valley_local = {.ls_start = valley_start,
                                                   .ls_conflicts =
                                                       valley_conflicts,
                                                   .ls_pick = valley_pick,
                                                   .ls_moves = valley_moves,
                                                   .ls_delta = valley_delta,
                                                   .ls_apply = valley_apply};

static const struct cs_hooks valley_hooks = {
    .local = &valley_local,
    .state_size = sizeof(struct valley),
    .init = valley_init,
};

/* The fake portfolio: its best is (1, 1) at the first poll and (2, 2)
 * from the second on (when `improves`), each with its own version. */
static struct {
    bool improves;
    int polls, copies;
} peer;

static int peer_level(void)
{
    return peer.improves && peer.polls >= 2 ? 2 : 1;
}

static void peer_poll(struct cs_engine *e)
{
    peer.polls++;
    int64_t cost = valley_cost(peer_level(), peer_level());
    if (cost < e->dfs.incumbent)
        e->dfs.incumbent = cost;
}

static bool peer_done(const struct cs_engine *e)
{
    (void)e;
    return false;
}

static void peer_best(struct cs_engine *e, void *best, uint64_t *version)
{
    (void)e;
    int level = peer_level();
    if (*version == (uint64_t)level)
        return;
    struct valley *v = best;
    v->x[0] = v->x[1] = level;
    *version = (uint64_t)level;
    peer.copies++;
}

static const struct eng_share fake_share = {
    .poll = peer_poll, .done = peer_done, .best = peer_best};

/* What one burst of `steps` steps from (0, 0), the incumbent at 4, left:
 * the walk's state and the layer's counts. */
struct burst {
    struct valley walker;
    struct layer_moves m;
    int64_t incumbent;
    uint64_t solutions;
    bool go_on;
};

static struct burst run_burst(double adopt_seconds, double adopt_after,
                              bool with_peer, bool improves)
{
    struct cs_problem p = {.hooks = &valley_hooks,
                           .nvars = 2,
                           .bursts = {.anneal_steps = 300000,
                                      .anneal_t0 = 1e-9,
                                      .anneal_t1 = 1e-9,
                                      .adopt_seconds = adopt_seconds,
                                      .adopt_after = adopt_after}};
    /* a limit far off: the burst looks at the clock every 65536 steps
     * (four times in 300000), and never cools early */
    struct cs_spec spec = {
        .problem = &p, .task = CS_TASK_OPTIMIZE, .limits.seconds = 1000};
    struct cs_engine e;
    eng_init(&e, &spec, NULL);
    if (with_peer)
        e.peers.share = &fake_share;
    e.dfs.incumbent = 4;
    peer.improves = improves;
    peer.polls = peer.copies = 0;
    starts = 0;
    struct burst r = {.m = {.bound = -1}};
    struct valley from = {{0, 0}};
    r.go_on = layer_moves(&e, &from, &r.m);
    memcpy(&r.walker, r.m.walker, sizeof r.walker);
    r.incumbent = e.dfs.incumbent;
    r.solutions = e.dfs.stats.solutions;
    layer_moves_free(&r.m);
    eng_free(&e);
    return r;
}

/* The burst ended in valley (level, level), after `adoptions` adoptions,
 * the incumbent at `incumbent`, having handed nothing out (an adopted cost
 * is no find of the burst's). */
static void expect_walk(const struct burst *r, int level, uint64_t adoptions,
                        int64_t incumbent)
{
    assert_true(r->go_on);
    assert_int_equal(r->m.steps, 300000);
    assert_int_equal(r->m.adoptions, adoptions);
    assert_int_equal(r->walker.x[0], level);
    assert_int_equal(r->walker.x[1], level);
    assert_int_equal(r->incumbent, incumbent);
    assert_int_equal(r->solutions, 0);
    assert_int_equal(starts, 1 + adoptions); /* the burst's, each taken */
}

/* Alone, or with adoption off, a burst stays in its valley and never asks
 * the portfolio for its best. */
static void test_moves_no_adoption(void **ctx)
{
    (void)ctx;
    for (int with_peer = 0; with_peer <= 1; with_peer++) {
        struct burst r = run_burst(with_peer ? 0 : 2, 0, with_peer, false);
        expect_walk(&r, 0, 0, 4);
        assert_int_equal(peer.polls, 0);
        assert_true(r.m.heat == 2); /* nothing better: hotter next */
    }
}

/* The peer's (1, 1) at cost 2 is below the burst's lowest (4): the first
 * clock look (step 65536) takes it, the walk goes on from there and ends
 * in that valley, and nothing goes out (the cost is no find of the
 * burst's).  The three later looks find the burst as low as the peer. */
static void test_moves_adopts_the_peers_best(void **ctx)
{
    (void)ctx;
    struct burst r = run_burst(2, 0, true, false);
    expect_walk(&r, 1, 1, 2); /* the incumbent the peer's, by the poll */
    assert_int_equal(r.m.adopted, 1);
    assert_int_equal(peer.polls, 4);
    assert_int_equal(peer.copies, 1);
    assert_true(r.m.heat == 2); /* no find of its own: hotter next */
}

/* The peer improves again, to (2, 2) at cost 0, after the first look:
 * within adopt_seconds of the first adoption the burst keeps its walk;
 * with a gap of 1e-9 s it takes the new best at the next look. */
static void test_moves_adopts_at_most_once_a_gap(void **ctx)
{
    (void)ctx;
    struct burst r = run_burst(1e9, 0, true, true);
    expect_walk(&r, 1, 1, 0);
    assert_int_equal(peer.polls, 4);
    assert_int_equal(peer.copies, 1);

    r = run_burst(1e-9, 0, true, true);
    expect_walk(&r, 2, 2, 0);
    assert_int_equal(r.m.adopted, 2);
    assert_int_equal(peer.polls, 4);
    assert_int_equal(peer.copies, 2);
}

/* Before adopt_after of the time limit (0.75 of 1000 s here) a burst
 * learns the portfolio's best cost but keeps its own walk. */
static void test_moves_adopts_late_only(void **ctx)
{
    (void)ctx;
    struct burst r = run_burst(2, 0.75, true, false);
    expect_walk(&r, 0, 0, 2);
    assert_int_equal(peer.polls, 4);
    assert_int_equal(peer.copies, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_no_adoption),
        cmocka_unit_test(test_moves_adopts_the_peers_best),
        cmocka_unit_test(test_moves_adopts_at_most_once_a_gap),
        cmocka_unit_test(test_moves_adopts_late_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
