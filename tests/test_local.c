/* test_local.c - the min-conflicts layer (framework/local.c) on a toy model
 * of its own, apart from N-Queens: solving, the seed, the step and time
 * limits, interrupts, restarts, verify and the checks of the spec.
 *
 * The toy: colour a cycle of len vertices with k colours, no two neighbours
 * alike.  A variable's moves are its k colours (its own: delta 0).  With
 * k = 3 every cycle can be coloured; with k = 2 an odd cycle cannot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "csearch/engine.h"

struct ring_problem {
    int len, k;
    bool lie; /* verify refuses every solution */
};

struct ring {
    const struct ring_problem *p;
    uint64_t starts; /* ls_start calls */
    int colour[64];
};

static void ring_init(void *state, const void *problem)
{
    struct ring *s = state;
    s->p = problem;
}

static bool ring_start(void *state, uint64_t seed, volatile sig_atomic_t *stop)
{
    (void)stop;
    struct ring *s = state;
    s->starts++;
    for (int i = 0; i < s->p->len; i++) {
        seed = seed * UINT64_C(6364136223846793005) + 1442695040888963407u;
        s->colour[i] = (int)((seed >> 33) % (uint64_t)s->p->k);
    }
    return true;
}

static int ring_at(const struct ring *s, int i)
{
    return s->colour[(i + s->p->len) % s->p->len];
}

/* conflicts of vertex i with colour c against its two neighbours */
static int ring_clash(const struct ring *s, int i, int c)
{
    return (ring_at(s, i - 1) == c) + (ring_at(s, i + 1) == c);
}

static uint64_t ring_conflicts(const void *state)
{
    const struct ring *s = state;
    uint64_t n = 0;
    for (int i = 0; i < s->p->len; i++)
        n += ring_at(s, i) == ring_at(s, i + 1);
    return n;
}

static int ring_pick(void *state, uint64_t random)
{
    struct ring *s = state;
    int bad[64], count = 0;
    for (int i = 0; i < s->p->len; i++)
        if (ring_clash(s, i, s->colour[i]))
            bad[count++] = i;
    return count ? bad[random % (uint64_t)count] : CS_NONE;
}

static uint64_t ring_moves(const void *state, int var)
{
    const struct ring *s = state;
    (void)var;
    return (uint64_t)s->p->k;
}

static int64_t ring_delta(void *state, int var, uint64_t move)
{
    struct ring *s = state;
    return ring_clash(s, var, (int)move) - ring_clash(s, var, s->colour[var]);
}

static void ring_apply(void *state, int var, uint64_t move)
{
    struct ring *s = state;
    s->colour[var] = (int)move;
}

static bool ring_verify(const void *state)
{
    const struct ring *s = state;
    for (int i = 0; i < s->p->len; i++)
        if (s->colour[i] == s->colour[(i + 1) % s->p->len])
            return false;
    return !s->p->lie;
}

static const struct cs_local_hooks ring_local = {.ls_start = ring_start,
                                                 .ls_conflicts = ring_conflicts,
                                                 .ls_pick = ring_pick,
                                                 .ls_moves = ring_moves,
                                                 .ls_delta = ring_delta,
                                                 .ls_apply = ring_apply};

static const struct cs_hooks ring_hooks = {
    .local = &ring_local,
    .state_size = sizeof(struct ring),
    .init = ring_init,
    .verify = ring_verify,
};

/* What on_solution saw: the colours of the solution handed out. */
struct seen {
    int calls;
    int colour[64];
};

static bool keep(void *ud, const struct cs_hooks *h, const void *state,
                 uint64_t weight)
{
    struct seen *seen = ud;
    const struct ring *s = state;
    (void)h;
    assert_int_equal(weight, 1);
    seen->calls++;
    memcpy(seen->colour, s->colour, sizeof seen->colour);
    return true;
}

static void run(struct ring_problem *rp, uint64_t seed, uint64_t steps,
                volatile sig_atomic_t *stop, struct cs_result *r,
                struct seen *seen)
{
    struct cs_problem p = {.hooks = &ring_hooks, .data = rp, .nvars = rp->len};
    struct cs_spec spec = {.problem = &p,
                           .task = CS_TASK_SOLVE,
                           .seed = seed,
                           .stop = stop,
                           .on_solution = keep,
                           .ud = seen};
    spec.layers.local = true;
    spec.layers.walk = 0.02;
    spec.layers.local_steps = 200;
    spec.limits.steps = steps;
    struct cs_error err;
    memset(seen, 0, sizeof *seen);
    assert_int_equal(cs_search(&spec, NULL, r, &err), 0);
}

static void test_local_solves_and_verifies(void **ctx)
{
    (void)ctx;
    for (int len = 3; len <= 60; len++) {
        struct ring_problem rp = {.len = len, .k = 3};
        struct cs_result r;
        struct seen seen;
        run(&rp, (uint64_t)len, 0, NULL, &r, &seen);
        assert_int_equal(r.status, CS_COMPLETE);
        assert_int_equal(r.stats.solutions, 1);
        assert_int_equal(r.conflicts, 0);
        assert_int_equal(seen.calls, 1);
        for (int i = 0; i < len; i++)
            assert_int_not_equal(seen.colour[i], seen.colour[(i + 1) % len]);
        assert_true(r.peak_bytes > 0);
    }
}

static void test_local_same_seed_same_run(void **ctx)
{
    (void)ctx;
    struct ring_problem rp = {.len = 60, .k = 3};
    struct cs_result a, b, c;
    struct seen sa, sb, sc;
    run(&rp, 7, 0, NULL, &a, &sa);
    run(&rp, 7, 0, NULL, &b, &sb);
    assert_int_equal(a.steps, b.steps);
    assert_int_equal(a.restarts, b.restarts);
    assert_memory_equal(sa.colour, sb.colour, sizeof sa.colour);
    /* another seed, another run (for these seeds) */
    run(&rp, 8, 0, NULL, &c, &sc);
    assert_true(a.steps != c.steps ||
                memcmp(sa.colour, sc.colour, sizeof sa.colour));
}

/* An odd cycle in two colours: steps run out, restarts happen, the
 * conflicts left are reported and nothing is handed out. */
static void test_local_step_limit_and_restarts(void **ctx)
{
    (void)ctx;
    struct ring_problem rp = {.len = 9, .k = 2};
    struct cs_result r;
    struct seen seen;
    run(&rp, 1, 1000, NULL, &r, &seen);
    assert_int_equal(r.status, CS_LIMIT);
    assert_int_equal(r.steps, 1000);
    assert_int_equal(r.restarts, 4); /* 200 steps each: 5 starts */
    assert_true(r.conflicts >= 1);
    assert_int_equal(r.stats.solutions, 0);
    assert_int_equal(seen.calls, 0);
}

static void test_local_interrupt_and_time_limit(void **ctx)
{
    (void)ctx;
    struct ring_problem rp = {.len = 9, .k = 2};
    struct cs_result r;
    struct seen seen;
    volatile sig_atomic_t stop = 1;
    run(&rp, 1, 0, &stop, &r, &seen);
    assert_int_equal(r.status, CS_INTERRUPTED);
    assert_true(r.conflicts >= 1);
    struct cs_problem p = {.hooks = &ring_hooks, .data = &rp, .nvars = 9};
    struct cs_spec spec = {.problem = &p, .task = CS_TASK_SOLVE};
    spec.layers.local = true;
    spec.limits.seconds = 0.05;
    struct cs_error err;
    assert_int_equal(cs_search(&spec, NULL, &r, &err), 0);
    assert_int_equal(r.status, CS_LIMIT);
    assert_true(r.steps > 0);
    assert_true(r.stats.seconds >= 0.05);
}

static void test_local_verify_failure_is_unverified(void **ctx)
{
    (void)ctx;
    struct ring_problem rp = {.len = 12, .k = 3, .lie = true};
    struct cs_result r;
    struct seen seen;
    run(&rp, 3, 0, NULL, &r, &seen);
    assert_int_equal(r.status, CS_UNVERIFIED);
    assert_string_equal(cs_status_name(r.status), "unverified");
    assert_int_equal(r.stats.solutions, 0);
    assert_int_equal(seen.calls, 0);
}

static void test_local_spec_checks(void **ctx)
{
    (void)ctx;
    struct ring_problem rp = {.len = 5, .k = 3};
    struct cs_local_hooks partial_local = ring_local;
    partial_local.ls_delta = NULL;
    struct cs_hooks partial = ring_hooks;
    partial.local = &partial_local;
    struct cs_problem p = {.hooks = &partial, .data = &rp, .nvars = 5};
    struct cs_spec spec = {.problem = &p, .task = CS_TASK_SOLVE};
    spec.layers.local = true;
    struct cs_error err;
    assert_int_equal(cs_spec_validate(&spec, NULL, &err), -1);
    assert_string_equal(err.msg,
                        "this model has no local search (the ls_* hooks)");
    p.hooks = &ring_hooks;
    spec.task = CS_TASK_COUNT;
    assert_int_equal(cs_spec_validate(&spec, NULL, &err), -1);
    assert_string_equal(err.msg, "local search needs task solve");
    spec.task = CS_TASK_SOLVE;
    struct cs_split split = {.threads = 2};
    assert_int_equal(cs_spec_validate(&spec, &split, &err), -1);
    assert_string_equal(err.msg, "local search runs on one thread");
    /* annealing bursts need temperatures that fall and stay above 0 */
    struct cs_spec anneal = {.problem = &p, .task = CS_TASK_OPTIMIZE};
    anneal.layers.moves = true;
    p.bursts.anneal_steps = 5;
    p.bursts.anneal_t1 = 0.1;
    assert_int_equal(cs_spec_validate(&anneal, NULL, &err), -1);
    assert_string_equal(err.msg, "annealing needs temperatures 0 < "
                                 "anneal_t1 <= anneal_t0");
    p.bursts.anneal_t0 = 0.05;
    assert_int_equal(cs_spec_validate(&anneal, NULL, &err), -1);
    assert_string_equal(err.msg, "annealing needs temperatures 0 < "
                                 "anneal_t1 <= anneal_t0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_solves_and_verifies),
        cmocka_unit_test(test_local_same_seed_same_run),
        cmocka_unit_test(test_local_step_limit_and_restarts),
        cmocka_unit_test(test_local_interrupt_and_time_limit),
        cmocka_unit_test(test_local_verify_failure_is_unverified),
        cmocka_unit_test(test_local_spec_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
