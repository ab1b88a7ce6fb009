/* test_fzn_store.c - the FlatZinc store (models/flatzinc/store.c): domains,
 * the trail, the queues, clones; and every constraint of the table checked
 * by brute force: random small instances posted alone and propagated, then
 * every assignment of the original domains enumerated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fzn.h"

/* ---- the store ---------------------------------------------------------- */

struct snapshot {
    struct fzn_dom *dom;
    uint64_t *bits;
    int nvars;
    size_t nbits;
};

static struct snapshot snap(const struct fzn_store *s)
{
    struct snapshot sn = {.nvars = s->nvars, .nbits = s->nbits_words};
    sn.dom = malloc((size_t)s->nvars * sizeof *sn.dom + 1);
    memcpy(sn.dom, s->dom, (size_t)s->nvars * sizeof *sn.dom);
    sn.bits = malloc(s->nbits_words * sizeof *sn.bits + 1);
    memcpy(sn.bits, s->bits, s->nbits_words * sizeof *sn.bits);
    return sn;
}

static void assert_same(const struct snapshot *sn, const struct fzn_store *s)
{
    assert_int_equal(sn->nvars, s->nvars);
    assert_int_equal(sn->nbits, s->nbits_words);
    assert_memory_equal(sn->dom, s->dom, (size_t)s->nvars * sizeof *s->dom);
    if (s->nbits_words)
        assert_memory_equal(sn->bits, s->bits,
                            s->nbits_words * sizeof *s->bits);
}

static void snap_free(struct snapshot *sn)
{
    free(sn->dom);
    free(sn->bits);
}

/* size, min and max of x agree with a walk over its values */
static void assert_consistent(const struct fzn_store *s, int x)
{
    uint32_t n = 0;
    int64_t last = INT64_MIN;
    for (int64_t v = fzn_min(s, x); v != INT64_MAX;
         v = fzn_next_above(s, x, v)) {
        assert_true(fzn_contains(s, x, v));
        assert_true(v > last);
        if (last != INT64_MIN)
            assert_int_equal(fzn_next_below(s, x, v), last);
        last = v;
        n++;
    }
    assert_int_equal(last, fzn_max(s, x));
    assert_int_equal(n, fzn_size(s, x));
}

static void test_fzn_store_bitset_domain(void **ctx)
{
    (void)ctx;
    struct fzn_store *s = fzn_store_new();
    const int64_t r[] = {-3, -1, 2, 5, 100, 100};
    int x = fzn_new_var(s, r, 3);
    assert_true(fzn_is_bitset(s, x));
    assert_int_equal(fzn_size(s, x), 8);
    assert_int_equal(fzn_min(s, x), -3);
    assert_int_equal(fzn_max(s, x), 100);
    assert_false(fzn_contains(s, x, 0));
    assert_int_equal(fzn_next_above(s, x, -1), 2);
    assert_int_equal(fzn_next_below(s, x, 100), 5);
    assert_int_equal(fzn_next_above(s, x, 100), INT64_MAX);
    assert_int_equal(fzn_next_below(s, x, -3), INT64_MIN);
    assert_consistent(s, x);
    fzn_freeze(s);
    struct snapshot root = snap(s);
    fzn_push(s);
    assert_true(fzn_set_min(s, x, 0)); /* to the next value: 2 */
    assert_int_equal(fzn_min(s, x), 2);
    assert_int_equal(fzn_size(s, x), 5);
    assert_true(fzn_remove(s, x, 4));
    assert_true(fzn_remove(s, x, 4));
    assert_int_equal(fzn_size(s, x), 4);
    assert_true(fzn_set_max(s, x, 99));
    assert_int_equal(fzn_max(s, x), 5);
    assert_consistent(s, x);
    struct snapshot mid = snap(s);
    fzn_push(s);
    assert_true(fzn_fix(s, x, 3));
    assert_int_equal(fzn_size(s, x), 1);
    assert_false(fzn_remove(s, x, 3));
    assert_true(s->failed);
    fzn_pop(s);
    assert_false(s->failed);
    assert_same(&mid, s);
    assert_false(fzn_fix(s, x, 4));
    fzn_pop(s);
    assert_same(&root, s);
    assert_consistent(s, x);
    snap_free(&root);
    snap_free(&mid);
    fzn_store_free(s);
}

static void test_fzn_store_interval_domain(void **ctx)
{
    (void)ctx;
    struct fzn_store *s = fzn_store_new();
    const int64_t r[] = {-1000000, 1000000};
    int x = fzn_new_var(s, r, 1);
    assert_false(fzn_is_bitset(s, x));
    assert_int_equal(fzn_size(s, x), 2000001);
    fzn_freeze(s);
    fzn_push(s);
    assert_true(fzn_remove(s, x, 5)); /* inside: not kept */
    assert_true(fzn_contains(s, x, 5));
    assert_true(fzn_remove(s, x, -1000000));
    assert_true(fzn_set_max(s, x, 10));
    assert_int_equal(fzn_size(s, x), 1000010);
    assert_true(fzn_set_max(s, x, (int64_t)1 << 40)); /* clamped: nothing */
    assert_false(fzn_set_min(s, x, 11));
    fzn_pop(s);
    assert_int_equal(fzn_size(s, x), 2000001);
    assert_int_equal(fzn_min(s, x), -1000000);
    fzn_store_free(s);
}

/* A large domain with holes keeps them through a propagator. */
static void test_fzn_store_sparse_large_domain(void **ctx)
{
    (void)ctx;
    struct fzn_store *s = fzn_store_new();
    const int64_t r[] = {0, 10, 100000, 100010};
    int x = fzn_new_var(s, r, 2);
    assert_int_equal(s->nprops, 1);
    fzn_freeze(s);
    fzn_schedule_all(s);
    assert_true(fzn_propagate(s));
    fzn_push(s);
    assert_true(fzn_set_min(s, x, 11));
    assert_true(fzn_propagate(s));
    assert_int_equal(fzn_min(s, x), 100000);
    fzn_pop(s);
    fzn_push(s);
    assert_true(fzn_fix(s, x, 50000));
    assert_false(fzn_propagate(s));
    fzn_pop(s);
    /* narrowed below the limit before freezing: a bit set */
    struct fzn_store *t = fzn_store_new();
    int y = fzn_new_var(t, r, 2);
    assert_true(fzn_set_min(t, y, 99000));
    fzn_freeze(t);
    assert_true(fzn_is_bitset(t, y));
    fzn_schedule_all(t);
    assert_true(fzn_propagate(t)); /* the holes go from the bits */
    assert_int_equal(fzn_size(t, y), 11);
    assert_false(fzn_contains(t, y, 99999));
    fzn_store_free(t);
    fzn_store_free(s);
}

static void test_fzn_store_constants_shared(void **ctx)
{
    (void)ctx;
    struct fzn_store *s = fzn_store_new();
    int a = fzn_new_const(s, 7), b = fzn_new_const(s, -7);
    assert_int_not_equal(a, b);
    assert_int_equal(fzn_new_const(s, 7), a);
    assert_true(fzn_fixed(s, a));
    assert_int_equal(fzn_value(s, b), -7);
    fzn_store_free(s);
}

/* Random narrowing under nested levels: each pop restores exactly. */
static void test_fzn_store_trail_restores_exactly(void **ctx)
{
    (void)ctx;
    srand(11);
    struct fzn_store *s = fzn_store_new();
    for (int i = 0; i < 6; i++) {
        int64_t lo = rand() % 200 - 100, r[] = {lo, lo + rand() % 300};
        fzn_new_var(s, r, 1);
    }
    const int64_t big[] = {0, 100000};
    fzn_new_var(s, big, 1);
    fzn_freeze(s);
    struct snapshot stack[40];
    for (int round = 0; round < 200; round++) {
        int depth = 0;
        for (int step = 0; step < 40; step++) {
            stack[depth++] = snap(s);
            fzn_push(s);
            for (int k = 0; k < 5; k++) {
                int x = rand() % s->nvars;
                int64_t v = fzn_min(s, x) +
                            rand() % (fzn_max(s, x) - fzn_min(s, x) + 1);
                int op = rand() % 10;
                bool ok = op < 6   ? fzn_remove(s, x, v)
                          : op < 8 ? fzn_set_min(s, x, v)
                                   : fzn_set_max(s, x, v);
                assert_true(ok || fzn_fixed(s, x));
                if (!ok)
                    break;
                assert_consistent(s, x);
            }
            if (s->failed || rand() % 3 == 0) {
                fzn_pop(s);
                assert_same(&stack[--depth], s);
                snap_free(&stack[depth]);
            }
        }
        while (depth > 0) {
            fzn_pop(s);
            assert_same(&stack[--depth], s);
            snap_free(&stack[depth]);
        }
    }
    fzn_store_free(s);
}

/* The queue: lowest priority first, FIFO within one, a propagator queued
 * once, woken by its own changes. */
static int order[64], norder;

static bool run_log(struct fzn_store *s, struct fzn_prop *p)
{
    order[norder++] = (int)p->k[0];
    if (p->k[1] && fzn_max(s, p->x[0]) > 5) /* narrows its own variable */
        return fzn_set_max(s, p->x[0], fzn_max(s, p->x[0]) - 1);
    return true;
}

static bool run_fail(struct fzn_store *s, struct fzn_prop *p)
{
    (void)s;
    order[norder++] = (int)p->k[0];
    return false;
}

static void test_fzn_store_queue_order(void **ctx)
{
    (void)ctx;
    struct fzn_store *s = fzn_store_new();
    const int64_t r[] = {0, 9};
    int x = fzn_new_var(s, r, 1), y = fzn_new_var(s, r, 1);
    fzn_post(s, "a", run_log, 2, &x, 1, (int64_t[]){20, 0}, 2);
    fzn_post(s, "b", run_log, 1, &x, 1, (int64_t[]){10, 0}, 2);
    fzn_post(s, "c", run_log, 0, (int[]){x, x}, 2, (int64_t[]){0, 1}, 2);
    fzn_post(s, "d", run_log, 1, &y, 1, (int64_t[]){11, 0}, 2);
    fzn_freeze(s);
    assert_int_equal(s->watch_start[x + 1] - s->watch_start[x], 3);
    fzn_schedule_all(s);
    fzn_schedule_all(s);
    norder = 0;
    assert_true(fzn_propagate(s));
    /* c narrows x 9 -> 5 and is woken by itself each time */
    const int want[] = {0, 0, 0, 0, 0, 10, 11, 20};
    assert_int_equal(norder, 8);
    assert_memory_equal(order, want, sizeof want);
    assert_int_equal(fzn_max(s, x), 5);
    assert_int_equal(s->propagations, 8);
    fzn_store_free(s);

    s = fzn_store_new();
    x = fzn_new_var(s, r, 1);
    fzn_post(s, "ok", run_log, 0, &x, 1, (int64_t[]){1, 0}, 2);
    fzn_post(s, "bad", run_fail, 1, &x, 1, (int64_t[]){2, 0}, 2);
    fzn_post(s, "late", run_log, 2, &x, 1, (int64_t[]){3, 0}, 2);
    fzn_freeze(s);
    fzn_schedule_all(s);
    norder = 0;
    assert_false(fzn_propagate(s));
    assert_int_equal(norder, 2);
    assert_true(s->failed);
    assert_string_equal(s->culprit->name, "bad");
    assert_int_equal(s->culprit->weight, 1);
    for (int p = 0; p < s->nprops; p++)
        assert_false(s->props[p].queued);
    for (int q = 0; q < FZN_PRIOS; q++)
        assert_int_equal(s->qlen[q], 0);
    fzn_pop(s);
    assert_false(s->failed);
    fzn_store_free(s);
}

static void test_fzn_store_clone_is_independent(void **ctx)
{
    (void)ctx;
    struct fzn_store *s = fzn_store_new();
    const int64_t r[] = {0, 9};
    int x = fzn_new_var(s, r, 1), y = fzn_new_var(s, r, 1);
    const struct fzn_builtin *lt = fzn_builtin_find("int_lt");
    struct fzn_arg a[2] = {{.n = 1, .x = &x}, {.n = 1, .x = &y}};
    struct cs_error err;
    assert_int_equal(lt->post(s, a, &err), 0);
    fzn_freeze(s);
    s->props[0].weight = 5;
    struct fzn_store *c = fzn_store_clone(s);
    assert_int_equal(c->props[0].weight, 0);
    assert_ptr_equal(c->props[0].x, s->props[0].x);
    fzn_push(c);
    assert_true(fzn_fix(c, y, 3));
    fzn_schedule_all(c);
    assert_true(fzn_propagate(c));
    assert_int_equal(fzn_max(c, x), 2);
    assert_int_equal(fzn_max(s, x), 8); /* x < y narrowed at the root */
    assert_int_equal(fzn_size(s, y), 9);
    fzn_pop(c);
    assert_int_equal(fzn_max(c, x), 8);
    fzn_store_free(c);
    fzn_store_free(s);
}

static void test_fzn_store_table_sorted(void **ctx)
{
    (void)ctx;
    assert_true(fzn_nbuiltins > 50);
    for (size_t i = 0; i < fzn_nbuiltins; i++) {
        if (i > 0)
            assert_true(strcmp(fzn_builtins[i - 1].name, fzn_builtins[i].name) <
                        0);
        assert_ptr_equal(fzn_builtin_find(fzn_builtins[i].name),
                         &fzn_builtins[i]);
    }
    assert_null(fzn_builtin_find("int_lin_lt"));
    assert_null(fzn_builtin_find(""));
    assert_int_equal(fzn_builtin_find("int_lin_le_reif")->nargs, 4);
}

static void test_fzn_store_bad_arguments(void **ctx)
{
    (void)ctx;
    struct fzn_store *s = fzn_store_new();
    const int64_t r[] = {0, 9};
    int x = fzn_new_var(s, r, 1), y = fzn_new_var(s, r, 1);
    int64_t one = 1;
    struct cs_error err;
    struct fzn_arg a[3] = {{.n = 1, .x = &x},
                           {.n = 1, .x = &y},
                           {.n = 1, .x = &x, .v = &one, .fixed = true}};
    assert_int_equal(fzn_builtin_find("int_lin_le")->post(s, a, &err), -1);
    assert_string_equal(err.msg, "'int_lin_le' expects argument 1 to be "
                                 "an array of constants");
    struct fzn_arg b[3] = {{.n = 1, .x = &x, .v = &one, .fixed = true},
                           {.n = 1, .x = &y},
                           {.n = 1, .x = &y}};
    assert_int_equal(fzn_builtin_find("int_lin_le")->post(s, b, &err), -1);
    assert_string_equal(err.msg,
                        "'int_lin_le' expects argument 3 to be a constant");
    int xs[2] = {x, y};
    struct fzn_arg c[3] = {{.n = 1, .x = &x, .v = &one, .fixed = true},
                           {.n = 2, .x = xs},
                           {.n = 1, .x = &x, .v = &one, .fixed = true}};
    assert_int_equal(fzn_builtin_find("int_lin_eq")->post(s, c, &err), -1);
    assert_string_equal(err.msg, "'int_lin_eq' expects as many "
                                 "coefficients as variables");
    struct fzn_arg d[2] = {{.n = 1, .x = &x}, {.n = 1, .x = &y}};
    assert_int_equal(fzn_builtin_find("set_in")->post(s, d, &err), -1);
    assert_string_equal(err.msg,
                        "'set_in' expects argument 2 to be a constant set");
    assert_int_equal(s->nprops, 0);
    fzn_store_free(s);
}

/* ---- every constraint by brute force ------------------------------------ */

#define MAXARGS 5
#define MAXLEN 24
#define MAXDOM 12
#define MAXFLAT 40
#define INSTANCES 300
#define MAXPRODUCT 20000

/* An argument: its kind (fzn.h's letters), its values lo..hi (50 and
 * above: L + (v - 100)), its length: 'L', 'M' (a second length) or 'T'
 * (L times a number of rows, 0..5). */
struct aspec {
    char kind;
    int lo, hi;
    char len;
};

struct inst {
    int n[MAXARGS];
    int64_t v[MAXARGS][MAXLEN];
    const int64_t *ranges;
    size_t nranges;
};

typedef bool check_fn(const struct inst *t);

struct cspec {
    const char *name;
    check_fn *check;
    int strength; /* 1 (true): domain consistent, every value left has a
                     support; 2: bounds consistent, each bound has one
                     within the other variables' [min, max] */
    int minlen, maxlen, maxsz;
    struct aspec a[MAXARGS];
};

struct elem {
    bool is_const;
    int nd;
    int64_t dom[MAXDOM];
};

struct gen {
    const struct cspec *c;
    int nargs, n[MAXARGS];
    struct elem e[MAXARGS][MAXLEN];
    int64_t ranges[2 * MAXDOM];
    size_t nranges;
};

static int bound(int v, int L)
{
    return v >= 50 ? L + v - 100 : v;
}

/* When set, half the variables also hold their lo + FAR: a domain too wide
 * for a bit set, its hole kept by a propagator. */
#define FAR 5000
static bool far;

static void generate(struct gen *g, const struct cspec *c)
{
    memset(g, 0, sizeof *g);
    g->c = c;
    int L = c->minlen + rand() % (c->maxlen - c->minlen + 1);
    int M = c->minlen + rand() % (c->maxlen - c->minlen + 1);
    int rows = rand() % 6;
    for (int i = 0; i < MAXARGS && c->a[i].kind; i++) {
        const struct aspec *a = &c->a[i];
        int lo = bound(a->lo, L), hi = bound(a->hi, L), span = hi - lo + 1;
        g->nargs = i + 1;
        if (a->kind == 'S') {
            for (int v = lo; v <= hi; v++)
                if (rand() % 2) {
                    if (g->nranges && g->ranges[2 * g->nranges - 1] == v - 1)
                        g->ranges[2 * g->nranges - 1] = v;
                    else {
                        g->ranges[2 * g->nranges] = v;
                        g->ranges[2 * g->nranges++ + 1] = v;
                    }
                }
            continue;
        }
        int n = strchr("vc", a->kind) ? 1
                : a->len == 'M'       ? M
                : a->len == 'T'       ? L * rows
                                      : L;
        g->n[i] = n;
        for (int j = 0; j < n; j++) {
            struct elem *e = &g->e[i][j];
            if (strchr("cC", a->kind) || rand() % 6 == 0) {
                e->is_const = true;
                e->nd = 1;
                e->dom[0] = lo + rand() % span;
                continue;
            }
            int pick[64],
                size = 1 + rand() % (c->maxsz < span ? c->maxsz : span);
            for (int v = 0; v < span; v++)
                pick[v] = lo + v;
            for (int v = 0; v < size; v++) { /* a partial shuffle */
                int w = v + rand() % (span - v), t = pick[v];
                pick[v] = pick[w];
                pick[w] = t;
            }
            for (int v = 1; v < size; v++) /* sorted */
                for (int w = v; w > 0 && pick[w - 1] > pick[w]; w--) {
                    int t = pick[w];
                    pick[w] = pick[w - 1];
                    pick[w - 1] = t;
                }
            e->nd = size;
            for (int v = 0; v < size; v++)
                e->dom[v] = pick[v];
            if (far && span > 2 && rand() % 2) /* not Booleans */
                e->dom[e->nd++] = lo + FAR;
        }
    }
}

/* Post g's constraint on a new store (each variable fixed to assign[f]
 * when assign is given), freeze and propagate. */
static bool post_instance(const struct gen *g, const int64_t *assign,
                          struct fzn_store **out, int var[MAXARGS][MAXLEN])
{
    struct fzn_store *s = fzn_store_new();
    struct fzn_arg a[MAXARGS];
    int64_t vals[MAXARGS][MAXLEN];
    int f = 0;
    memset(a, 0, sizeof a);
    for (int i = 0; i < g->nargs; i++) {
        a[i] = (struct fzn_arg){
            .n = g->n[i], .x = var[i], .v = vals[i], .fixed = true};
        if (g->c->a[i].kind == 'S') {
            a[i].set = true;
            a[i].ranges = (int64_t *)g->ranges;
            a[i].nranges = g->nranges;
            continue;
        }
        for (int j = 0; j < g->n[i]; j++, f++) {
            const struct elem *e = &g->e[i][j];
            vals[i][j] = e->dom[0];
            if (e->is_const) {
                var[i][j] = fzn_new_const(s, e->dom[0]);
                continue;
            }
            a[i].fixed = false;
            int64_t r[2 * MAXDOM];
            size_t nr = 0;
            for (int v = 0; v < e->nd; v++) {
                int64_t value = assign ? assign[f] : e->dom[v];
                if (nr && r[2 * nr - 1] == value - 1)
                    r[2 * nr - 1] = value;
                else {
                    r[2 * nr] = r[2 * nr + 1] = value;
                    nr++;
                }
                if (assign)
                    break;
            }
            var[i][j] = fzn_new_var(s, r, nr);
        }
    }
    const struct fzn_builtin *b = fzn_builtin_find(g->c->name);
    if (!b)
        fail_msg("no constraint %s", g->c->name);
    assert_int_equal(b->nargs, g->nargs);
    struct cs_error err;
    if (b->post(s, a, &err))
        fail_msg("%s: %s", g->c->name, err.msg);
    fzn_freeze(s);
    fzn_schedule_all(s);
    *out = s;
    return fzn_propagate(s);
}

static void print_assignment(const struct gen *g, const int64_t *assign)
{
    int f = 0;
    for (int i = 0; i < g->nargs; i++) {
        printf("argument %d:", i + 1);
        for (int j = 0; j < g->n[i]; j++, f++) {
            printf(" %lld%s of {", (long long)assign[f],
                   g->e[i][j].is_const ? " (constant)" : "");
            for (int k = 0; k < g->e[i][j].nd; k++)
                printf("%s%lld", k ? "," : "", (long long)g->e[i][j].dom[k]);
            printf("}");
        }
        for (size_t r = 0; g->c->a[i].kind == 'S' && r < g->nranges; r++)
            printf(" %lld..%lld", (long long)g->ranges[2 * r],
                   (long long)g->ranges[2 * r + 1]);
        printf("\n");
    }
    fflush(stdout);
}

/* Bounds consistency: each variable's min and max is part of a solution
 * in which every variable lies within its [min, max]. */
static void assert_bounds_supported(const struct cspec *c, const struct gen *g,
                                    struct fzn_store *s,
                                    int var[MAXARGS][MAXLEN],
                                    const struct elem *const *flat,
                                    int where[][2], int nf, int round)
{
    int64_t lo[MAXFLAT], hi[MAXFLAT], v[MAXFLAT];
    bool at_lo[MAXFLAT] = {0}, at_hi[MAXFLAT] = {0};
    struct inst t = {.ranges = g->ranges, .nranges = g->nranges};
    memcpy(t.n, g->n, sizeof t.n);
    for (int f = 0; f < nf; f++) {
        int x = var[where[f][0]][where[f][1]];
        v[f] = lo[f] = fzn_min(s, x);
        hi[f] = fzn_max(s, x);
    }
    (void)flat;
    for (;;) {
        for (int f = 0; f < nf; f++)
            t.v[where[f][0]][where[f][1]] = v[f];
        if (c->check(&t))
            for (int f = 0; f < nf; f++) {
                at_lo[f] = at_lo[f] || v[f] == lo[f];
                at_hi[f] = at_hi[f] || v[f] == hi[f];
            }
        int f = 0;
        while (f < nf && ++v[f] > hi[f])
            v[f] = lo[f], f++;
        if (f == nf)
            break;
    }
    for (int f = 0; f < nf; f++)
        if (!at_lo[f] || !at_hi[f])
            fail_msg("%s (instance %d): bound %lld of argument %d[%d] has "
                     "no support",
                     c->name, round, (long long)(at_lo[f] ? hi[f] : lo[f]),
                     where[f][0] + 1, where[f][1] + 1);
}

static void brute_force(const struct cspec *c)
{
    int nsat = 0, nfail = 0;
    for (int round = 0; round < INSTANCES; round++) {
        struct gen g;
        const struct elem *flat[MAXFLAT];
        int nf, where[MAXFLAT][2];
        long product;
        do {
            generate(&g, c);
            nf = 0;
            product = 1;
            for (int i = 0; i < g.nargs; i++)
                for (int j = 0; j < g.n[i]; j++) {
                    where[nf][0] = i;
                    where[nf][1] = j;
                    flat[nf++] = &g.e[i][j];
                    product *= flat[nf - 1]->nd;
                }
        } while (product > MAXPRODUCT || nf > MAXFLAT);
        int var[MAXARGS][MAXLEN];
        struct fzn_store *s;
        bool ok = post_instance(&g, NULL, &s, var);
        bool supported[MAXFLAT][MAXDOM] = {{0}};
        struct inst t = {.ranges = g.ranges, .nranges = g.nranges};
        memcpy(t.n, g.n, sizeof t.n);
        int idx[MAXFLAT] = {0};
        int64_t assign[MAXFLAT];
        long nsol = 0, checked = 0;
        for (;;) {
            for (int f = 0; f < nf; f++) {
                assign[f] = flat[f]->dom[idx[f]];
                t.v[where[f][0]][where[f][1]] = assign[f];
            }
            bool sol = c->check(&t);
            if (sol) {
                nsol++;
                if (!ok)
                    fail_msg("%s (instance %d): failed with a solution",
                             c->name, round);
                for (int f = 0; f < nf; f++) {
                    supported[f][idx[f]] = true;
                    if (!fzn_contains(s, var[where[f][0]][where[f][1]],
                                      assign[f]))
                        fail_msg("%s (instance %d): removed %lld of "
                                 "argument %d[%d], in a solution",
                                 c->name, round, (long long)assign[f],
                                 where[f][0] + 1, where[f][1] + 1);
                }
            }
            if (ok) { /* every variable fixed: fails iff violated */
                fzn_push(s);
                bool fixed = true;
                for (int f = 0; f < nf && fixed; f++)
                    fixed =
                        fzn_fix(s, var[where[f][0]][where[f][1]], assign[f]);
                bool held = fixed && fzn_propagate(s);
                if (held != sol)
                    print_assignment(&g, assign);
                if (held != sol)
                    fail_msg("%s (instance %d): fixed %s, propagation %s",
                             c->name, round,
                             sol ? "a solution"
                                 : "a "
                                   "violation",
                             held ? "held" : "failed");
                fzn_pop(s);
            }
            if (checked++ < 3 || rand() % 50 == 0) { /* posted all fixed */
                struct fzn_store *u;
                int uvar[MAXARGS][MAXLEN];
                bool held = post_instance(&g, assign, &u, uvar);
                if (held != sol)
                    fail_msg("%s (instance %d): posted fixed, %s %s", c->name,
                             round, sol ? "a solution" : "a violation",
                             held ? "held" : "failed");
                fzn_store_free(u);
            }
            int f = 0;
            while (f < nf && ++idx[f] == flat[f]->nd)
                idx[f++] = 0;
            if (f == nf)
                break;
        }
        if (far) { /* intervals keep no holes: no strength to check */
        } else if (ok && c->strength == 2)
            assert_bounds_supported(c, &g, s, var, flat, where, nf, round);
        else if (ok && c->strength == 1)
            for (int f = 0; f < nf; f++)
                for (int k = 0; k < flat[f]->nd; k++)
                    if (fzn_contains(s, var[where[f][0]][where[f][1]],
                                     flat[f]->dom[k]) &&
                        !supported[f][k])
                        fail_msg("%s (instance %d): kept %lld of argument "
                                 "%d[%d], in no solution",
                                 c->name, round, (long long)flat[f]->dom[k],
                                 where[f][0] + 1, where[f][1] + 1);
        nsat += nsol > 0;
        nfail += !ok;
        fzn_store_free(s);
    }
    if (getenv("FZN_BRUTE_STATS"))
        printf("%-24s %3d of %d satisfiable, %3d failed\n", c->name, nsat,
               INSTANCES, nfail);
    assert_true(nsat >= INSTANCES / 20); /* not a test of nothing */
}

/* the checkers: t->v[argument][element] */
#define A(i) (t->v[i][0])
#define N(i) (t->n[i])
#define E(i, j) (t->v[i][j])

static bool all_of(const struct inst *t, int i)
{
    for (int j = 0; j < N(i); j++)
        if (!E(i, j))
            return false;
    return true;
}

static bool any_of(const struct inst *t, int i)
{
    for (int j = 0; j < N(i); j++)
        if (E(i, j))
            return true;
    return false;
}

static int64_t dot(const struct inst *t, int c, int x)
{
    int64_t sum = 0;
    for (int j = 0; j < N(x); j++)
        sum += E(c, j) * E(x, j);
    return sum;
}

static bool in_set(const struct inst *t, int64_t v)
{
    for (size_t i = 0; i < t->nranges; i++)
        if (t->ranges[2 * i] <= v && v <= t->ranges[2 * i + 1])
            return true;
    return false;
}

static bool c_array_bool_and(const struct inst *t)
{
    return all_of(t, 0) == A(1);
}
static bool c_array_bool_or(const struct inst *t)
{
    return any_of(t, 0) == A(1);
}
static bool c_array_bool_xor(const struct inst *t)
{
    int64_t sum = 0;
    for (int j = 0; j < N(0); j++)
        sum += E(0, j);
    return sum % 2 == 1;
}
static bool c_element(const struct inst *t)
{
    return A(0) >= 1 && A(0) <= N(1) && E(1, A(0) - 1) == A(2);
}
static bool c_maximum(const struct inst *t)
{
    int64_t m = INT64_MIN;
    for (int j = 0; j < N(1); j++)
        m = E(1, j) > m ? E(1, j) : m;
    return N(1) > 0 && A(0) == m;
}
static bool c_minimum(const struct inst *t)
{
    int64_t m = INT64_MAX;
    for (int j = 0; j < N(1); j++)
        m = E(1, j) < m ? E(1, j) : m;
    return N(1) > 0 && A(0) == m;
}
static bool c_eq(const struct inst *t)
{
    return A(0) == A(1);
}
static bool c_ne(const struct inst *t)
{
    return A(0) != A(1);
}
static bool c_le(const struct inst *t)
{
    return A(0) <= A(1);
}
static bool c_lt(const struct inst *t)
{
    return A(0) < A(1);
}
static bool c_eq_reif(const struct inst *t)
{
    return (A(0) == A(1)) == A(2);
}
static bool c_ne_reif(const struct inst *t)
{
    return (A(0) != A(1)) == A(2);
}
static bool c_le_reif(const struct inst *t)
{
    return (A(0) <= A(1)) == A(2);
}
static bool c_lt_reif(const struct inst *t)
{
    return (A(0) < A(1)) == A(2);
}
static bool c_and(const struct inst *t)
{
    return (A(0) && A(1)) == A(2);
}
static bool c_or(const struct inst *t)
{
    return (A(0) || A(1)) == A(2);
}
static bool c_xor(const struct inst *t)
{
    return (A(0) != A(1)) == A(2);
}
static bool c_clause(const struct inst *t)
{
    return any_of(t, 0) || !all_of(t, 1);
}
static bool c_clause_reif(const struct inst *t)
{
    return (any_of(t, 0) || !all_of(t, 1)) == A(2);
}
static bool c_lin_eq_var(const struct inst *t)
{
    return dot(t, 0, 1) == A(2);
}
static bool c_lin_eq(const struct inst *t)
{
    return dot(t, 0, 1) == A(2);
}
static bool c_lin_le(const struct inst *t)
{
    return dot(t, 0, 1) <= A(2);
}
static bool c_lin_ne(const struct inst *t)
{
    return dot(t, 0, 1) != A(2);
}
static bool c_lin_eq_reif(const struct inst *t)
{
    return (dot(t, 0, 1) == A(2)) == A(3);
}
static bool c_lin_le_reif(const struct inst *t)
{
    return (dot(t, 0, 1) <= A(2)) == A(3);
}
static bool c_lin_ne_reif(const struct inst *t)
{
    return (dot(t, 0, 1) != A(2)) == A(3);
}
static bool c_abs(const struct inst *t)
{
    return (A(0) < 0 ? -A(0) : A(0)) == A(1);
}
static bool c_div(const struct inst *t)
{
    return A(1) != 0 && A(0) / A(1) == A(2);
}
static bool c_mod(const struct inst *t)
{
    return A(1) != 0 && A(0) % A(1) == A(2);
}
static bool c_max(const struct inst *t)
{
    return (A(0) > A(1) ? A(0) : A(1)) == A(2);
}
static bool c_min(const struct inst *t)
{
    return (A(0) < A(1) ? A(0) : A(1)) == A(2);
}
static bool c_plus(const struct inst *t)
{
    return A(0) + A(1) == A(2);
}
static bool c_times(const struct inst *t)
{
    return A(0) * A(1) == A(2);
}
static bool c_pow(const struct inst *t)
{
    int64_t x = A(0), y = A(1), r = 1;
    if (y < 0) {
        if (x == 0)
            return false;
        for (int64_t i = 0; i < -y; i++)
            r *= x;
        return 1 / r == A(2);
    }
    for (int64_t i = 0; i < y; i++)
        r *= x;
    return r == A(2);
}
static bool c_set_in(const struct inst *t)
{
    return in_set(t, A(0));
}
static bool c_set_in_reif(const struct inst *t)
{
    return in_set(t, A(0)) == A(2);
}

#define INT -3, 3
#define BOOL 0, 1
#define INDEX 0, 101 /* 0..L+1: the valid 1..L and one either side */

/* clang-format off */
static const struct cspec builtin_specs[] = {
    {"array_bool_and", c_array_bool_and, true, 0, 4, 2, {{'V', BOOL, 'L'}, {'v', BOOL, 0}}},
    {"array_bool_element", c_element, true, 0, 4, 4, {{'v', INDEX, 0}, {'C', BOOL, 'L'}, {'v', BOOL, 0}}},
    {"array_bool_or", c_array_bool_or, true, 0, 4, 2, {{'V', BOOL, 'L'}, {'v', BOOL, 0}}},
    {"array_bool_xor", c_array_bool_xor, true, 0, 4, 2, {{'V', BOOL, 'L'}}},
    {"array_int_element", c_element, true, 0, 4, 4, {{'v', INDEX, 0}, {'C', INT, 'L'}, {'v', INT, 0}}},
    {"array_int_maximum", c_maximum, false, 0, 3, 4, {{'v', INT, 0}, {'V', INT, 'L'}}},
    {"array_int_minimum", c_minimum, false, 0, 3, 4, {{'v', INT, 0}, {'V', INT, 'L'}}},
    {"array_var_bool_element", c_element, true, 1, 3, 2, {{'v', INDEX, 0}, {'V', BOOL, 'L'}, {'v', BOOL, 0}}},
    {"array_var_int_element", c_element, true, 1, 3, 3, {{'v', INDEX, 0}, {'V', INT, 'L'}, {'v', INT, 0}}},
    {"bool2int", c_eq, true, 1, 1, 4, {{'v', BOOL, 0}, {'v', -1, 2, 0}}},
    {"bool_and", c_and, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_clause", c_clause, true, 0, 3, 2, {{'V', BOOL, 'L'}, {'V', BOOL, 'M'}}},
    {"bool_clause_reif", c_clause_reif, true, 0, 3, 2, {{'V', BOOL, 'L'}, {'V', BOOL, 'M'}, {'v', BOOL, 0}}},
    {"bool_eq", c_eq, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_eq_reif", c_eq_reif, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_le", c_le, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_le_reif", c_le_reif, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_lin_eq", c_lin_eq_var, false, 0, 4, 2, {{'C', INT, 'L'}, {'V', BOOL, 'L'}, {'v', INT, 0}}},
    {"bool_lin_le", c_lin_le, false, 0, 4, 2, {{'C', INT, 'L'}, {'V', BOOL, 'L'}, {'c', INT, 0}}},
    {"bool_lt", c_lt, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_lt_reif", c_lt_reif, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_not", c_ne, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_or", c_or, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"bool_xor", c_xor, true, 1, 1, 2, {{'v', BOOL, 0}, {'v', BOOL, 0}, {'v', BOOL, 0}}},
    {"int_abs", c_abs, true, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}}},
    {"int_div", c_div, false, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}, {'v', INT, 0}}},
    {"int_eq", c_eq, true, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}}},
    {"int_eq_reif", c_eq_reif, true, 1, 1, 4, {{'v', INT, 0}, {'v', INT, 0}, {'v', BOOL, 0}}},
    {"int_le", c_le, true, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}}},
    {"int_le_reif", c_le_reif, true, 1, 1, 4, {{'v', INT, 0}, {'v', INT, 0}, {'v', BOOL, 0}}},
    {"int_lin_eq", c_lin_eq, false, 0, 4, 4, {{'C', INT, 'L'}, {'V', INT, 'L'}, {'c', INT, 0}}},
    {"int_lin_eq_reif", c_lin_eq_reif, false, 0, 3, 4, {{'C', INT, 'L'}, {'V', INT, 'L'}, {'c', INT, 0}, {'v', BOOL, 0}}},
    {"int_lin_le", c_lin_le, false, 0, 4, 4, {{'C', INT, 'L'}, {'V', INT, 'L'}, {'c', INT, 0}}},
    {"int_lin_le_reif", c_lin_le_reif, false, 0, 3, 4, {{'C', INT, 'L'}, {'V', INT, 'L'}, {'c', INT, 0}, {'v', BOOL, 0}}},
    {"int_lin_ne", c_lin_ne, true, 0, 4, 4, {{'C', INT, 'L'}, {'V', INT, 'L'}, {'c', INT, 0}}},
    {"int_lin_ne_reif", c_lin_ne_reif, false, 0, 3, 4, {{'C', INT, 'L'}, {'V', INT, 'L'}, {'c', INT, 0}, {'v', BOOL, 0}}},
    {"int_lt", c_lt, true, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}}},
    {"int_lt_reif", c_lt_reif, true, 1, 1, 4, {{'v', INT, 0}, {'v', INT, 0}, {'v', BOOL, 0}}},
    {"int_max", c_max, false, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}, {'v', INT, 0}}},
    {"int_min", c_min, false, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}, {'v', INT, 0}}},
    {"int_mod", c_mod, false, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}, {'v', INT, 0}}},
    {"int_ne", c_ne, true, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}}},
    {"int_ne_reif", c_ne_reif, true, 1, 1, 4, {{'v', INT, 0}, {'v', INT, 0}, {'v', BOOL, 0}}},
    {"int_plus", c_plus, false, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}, {'v', INT, 0}}},
    {"int_pow", c_pow, false, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}, {'v', -9, 9, 0}}},
    {"int_times", c_times, false, 1, 1, 5, {{'v', INT, 0}, {'v', INT, 0}, {'v', -9, 9, 0}}},
    {"set_in", c_set_in, true, 1, 1, 6, {{'v', INT, 0}, {'S', INT, 0}}},
    {"set_in_reif", c_set_in_reif, true, 1, 1, 5, {{'v', INT, 0}, {'S', INT, 0}, {'v', BOOL, 0}}},
};
/* clang-format on */

static void test_fzn_store_brute_force_builtins(void **ctx)
{
    (void)ctx;
    srand(2024);
    for (size_t i = 0; i < sizeof builtin_specs / sizeof *builtin_specs; i++)
        brute_force(&builtin_specs[i]);
}

static bool c_alldiff(const struct inst *t)
{
    for (int i = 0; i < N(0); i++)
        for (int j = i + 1; j < N(0); j++)
            if (E(0, i) == E(0, j))
                return false;
    return true;
}
static bool c_table(const struct inst *t)
{
    int n = N(0);
    for (int r = 0; r < N(1) / n; r++) {
        bool match = true;
        for (int i = 0; i < n; i++)
            match = match && E(0, i) == E(1, r * n + i);
        if (match)
            return true;
    }
    return false;
}
static int64_t occurrences(const struct inst *t, int x, int64_t v)
{
    int64_t n = 0;
    for (int i = 0; i < N(x); i++)
        n += E(x, i) == v;
    return n;
}
static bool c_count(const struct inst *t)
{
    return occurrences(t, 0, A(1)) == A(2);
}
static bool c_gcc(const struct inst *t) /* as std's decomposition */
{
    int64_t sum = 0;
    for (int j = 0; j < N(1); j++) {
        if (occurrences(t, 0, E(1, j)) != E(2, j))
            return false;
        sum += E(2, j);
    }
    return sum <= N(0);
}
static bool c_lex(const struct inst *t)
{
    for (int i = 0; i < N(0) && i < N(1); i++)
        if (E(0, i) != E(1, i))
            return E(0, i) < E(1, i);
    return N(0) <= N(1);
}
static bool inverse_ok(const struct inst *t, int f, int64_t fo, int g,
                       int64_t io)
{
    if (N(f) != N(g))
        return false;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < N(f); i++) {
            int64_t j = E(f, i) - io;
            if (j < 0 || j >= N(g) || E(g, j) != fo + i)
                return false;
        }
        int tmp = f;
        f = g;
        g = tmp;
        int64_t to = fo;
        fo = io;
        io = to;
    }
    return true;
}
static bool c_csearch_inverse(const struct inst *t)
{
    return inverse_ok(t, 0, A(1), 2, A(3));
}
static bool c_fzn_inverse(const struct inst *t)
{
    return inverse_ok(t, 0, 1, 1, 1);
}
static bool circuit_ok(const struct inst *t, int64_t off)
{
    int n = N(0);
    for (int i = 0; i < n; i++)
        if (E(0, i) < off || E(0, i) >= off + n || E(0, i) == off + i)
            return false;
    int64_t cur = 0;
    for (int k = 1; k <= n; k++) {
        cur = E(0, cur) - off;
        if (cur == 0)
            return k == n;
    }
    return false;
}
static bool c_csearch_circuit(const struct inst *t)
{
    return circuit_ok(t, A(1));
}
static bool c_fzn_circuit(const struct inst *t)
{
    return circuit_ok(t, 1);
}
static bool c_cumulative(const struct inst *t)
{
    int n = N(0);
    if (n == 0)
        return true;
    if (A(3) < 0)
        return false;
    for (int k = 0; k < n; k++) { /* the peaks are at starts */
        int64_t when = E(0, k);
        int64_t use = 0;
        for (int i = 0; i < n; i++)
            if (E(0, i) <= when && when < E(0, i) + E(1, i))
                use += E(2, i);
        if (use > A(3))
            return false;
    }
    return true;
}

/* clang-format off */
static const struct cspec global_specs[] = {
    {"csearch_circuit", c_csearch_circuit, false, 1, 4, 3, {{'V', -1, 100, 'L'}, {'c', 0, 0, 0}}},
    {"csearch_inverse", c_csearch_inverse, false, 0, 3, 3, {{'V', -1, 100, 'L'}, {'c', 2, 2, 0}, {'V', 1, 102, 'L'}, {'c', 0, 0, 0}}},
    {"fzn_all_different_int", c_alldiff, 2, 0, 4, 4, {{'V', INT, 'L'}}},
    {"fzn_all_different_int", c_alldiff, 2, 2, 5, 3, {{'V', 0, 3, 'L'}}},
    {"fzn_circuit", c_fzn_circuit, false, 1, 4, 3, {{'V', 0, 101, 'L'}}},
    {"fzn_count_eq", c_count, false, 0, 4, 3, {{'V', -2, 2, 'L'}, {'v', -2, 2, 0}, {'v', -1, 3, 0}}},
    {"fzn_cumulative", c_cumulative, false, 0, 3, 2, {{'V', 0, 3, 'L'}, {'V', 0, 2, 'L'}, {'V', 0, 2, 'L'}, {'v', -1, 3, 0}}},
    {"fzn_global_cardinality", c_gcc, false, 0, 3, 3, {{'V', -2, 2, 'L'}, {'C', -2, 2, 'M'}, {'V', -1, 3, 'M'}}},
    {"fzn_inverse", c_fzn_inverse, false, 0, 3, 3, {{'V', 0, 101, 'L'}, {'V', 0, 101, 'L'}}},
    {"fzn_lex_lesseq_int", c_lex, false, 0, 3, 3, {{'V', -1, 1, 'L'}, {'V', -1, 1, 'M'}}},
    {"fzn_table_int", c_table, true, 1, 3, 4, {{'V', -2, 2, 'L'}, {'C', -2, 2, 'T'}}},
};
/* clang-format on */

static void test_fzn_store_brute_force_globals(void **ctx)
{
    (void)ctx;
    srand(2025);
    for (size_t i = 0; i < sizeof global_specs / sizeof *global_specs; i++)
        brute_force(&global_specs[i]);
}

/* The same with interval domains (values far apart): soundness and the
 * fixed-variables invariant only.  pow's checker would overflow. */
static void test_fzn_store_brute_force_intervals(void **ctx)
{
    (void)ctx;
    srand(2026);
    far = true;
    for (size_t i = 0; i < sizeof builtin_specs / sizeof *builtin_specs; i++)
        if (strcmp(builtin_specs[i].name, "int_pow"))
            brute_force(&builtin_specs[i]);
    for (size_t i = 0; i < sizeof global_specs / sizeof *global_specs; i++)
        brute_force(&global_specs[i]);
    far = false;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fzn_store_bitset_domain),
        cmocka_unit_test(test_fzn_store_interval_domain),
        cmocka_unit_test(test_fzn_store_sparse_large_domain),
        cmocka_unit_test(test_fzn_store_constants_shared),
        cmocka_unit_test(test_fzn_store_trail_restores_exactly),
        cmocka_unit_test(test_fzn_store_queue_order),
        cmocka_unit_test(test_fzn_store_clone_is_independent),
        cmocka_unit_test(test_fzn_store_table_sorted),
        cmocka_unit_test(test_fzn_store_bad_arguments),
        cmocka_unit_test(test_fzn_store_brute_force_builtins),
        cmocka_unit_test(test_fzn_store_brute_force_globals),
        cmocka_unit_test(test_fzn_store_brute_force_intervals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
