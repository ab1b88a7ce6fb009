/* array.c - the array state: three boolean arrays (columns and both
 * diagonals), one check per column tried: the textbook version.
 *
 * Rows may be taken in any order (MRV reads domain_size); pos[r] is -1 for
 * an open row.  The flags of the problem (mirror, forward, d4, hashed) are
 * read at run time, so one table serves them all; no search of its own.
 */
#include "nqueens/internal.h"

/* With `state: set` the same hooks keep the occupied lines in a hash set
 * instead of the arrays (set.c): the same tree, the same checks. */
struct nq_array {
    struct cs_counters counters; /* the engine's: checks, unique */
    int n, placed;
    bool mirror, forward, d4;
    struct nq_lineset *set; /* state set: the lines; NULL: the arrays */
    int pos[NQ_ARRAY_MAX];  /* column of row r's queen, -1 if open */
    bool col[NQ_ARRAY_MAX];
    bool d1[2 * NQ_ARRAY_MAX - 1]; /* r + c */
    bool d2[2 * NQ_ARRAY_MAX - 1]; /* r - c + n - 1 */
};

static bool arr_free(const struct nq_array *s, int r, int c)
{
    if (s->set)
        return !nq_lineset_attacks(s->set, r, c);
    return !s->col[c] && !s->d1[r + c] && !s->d2[r - c + s->n - 1];
}

static void arr_init(void *state, const void *problem)
{
    struct nq_array *s = state;
    const struct nq_problem *p = problem;
    s->n = p->n;
    s->mirror = p->mirror;
    s->forward = p->forward;
    s->d4 = p->d4;
    for (int r = 0; r < s->n; r++)
        s->pos[r] = -1;
    if (p->hashed)
        s->set = nq_lineset_new(p->n);
}

static void arr_fini(void *state)
{
    struct nq_array *s = state;
    nq_lineset_free(s->set);
}

static int arr_select(const void *state)
{
    const struct nq_array *s = state;
    return s->placed < s->n ? s->placed : CS_NONE;
}

static int arr_limit(const struct nq_array *s)
{
    return s->placed == 0 && s->mirror ? nq_mirror_limit(s->n) : s->n;
}

static int arr_domain_size(void *state, int r)
{
    struct nq_array *s = state;
    if (s->pos[r] >= 0)
        return -1;
    int size = 0, limit = arr_limit(s);
    for (int c = 0; c < limit; c++) {
        s->counters.checks++;
        size += arr_free(s, r, c);
    }
    return size;
}

static void arr_first(void *state, int r, uint64_t *cursor)
{
    (void)state;
    (void)r;
    *cursor = 0;
}

static bool arr_next(void *state, int r, uint64_t *cursor, int *value)
{
    struct nq_array *s = state;
    int limit = arr_limit(s);
    for (int c = (int)*cursor; c < limit; c++) {
        s->counters.checks++;
        if (arr_free(s, r, c)) {
            *value = c;
            *cursor = (uint64_t)c + 1;
            return true;
        }
    }
    *cursor = (uint64_t)limit;
    return false;
}

static void arr_set(struct nq_array *s, int r, int c, bool on)
{
    if (s->set) {
        nq_lineset_mark(s->set, r, c, on);
        return;
    }
    s->col[c] = on;
    s->d1[r + c] = on;
    s->d2[r - c + s->n - 1] = on;
}

static void arr_apply(void *state, int r, int c)
{
    struct nq_array *s = state;
    arr_set(s, r, c, true);
    s->pos[r] = c;
    s->placed++;
}

static void arr_undo(void *state, int r, int c)
{
    struct nq_array *s = state;
    arr_set(s, r, c, false);
    s->pos[r] = -1;
    s->placed--;
}

static bool arr_prune(void *state)
{
    struct nq_array *s = state;
    if (!s->forward)
        return false;
    for (int r = 0; r < s->n; r++) {
        if (s->pos[r] >= 0)
            continue;
        bool any = false;
        for (int c = 0; c < s->n && !any; c++) {
            s->counters.checks++;
            any = arr_free(s, r, c);
        }
        if (!any)
            return true;
    }
    return false;
}

NQ_ROW_HOOKS(arr, struct nq_array, s->placed == 0)

static bool arr_attacked(const void *state, int r, int c)
{
    return !arr_free(state, r, c);
}

static void arr_describe(const void *state, struct cs_view *out)
{
    const struct nq_array *s = state;
    uint64_t rows = 0;
    for (int r = 0; r < s->n && r < 64; r++)
        rows |= (uint64_t)(s->pos[r] >= 0) << r;
    nq_view_board(out, s->pos, s->n, rows, s, arr_attacked);
    nq_view_queens(out, s->pos, s->n, rows);
    if (s->set) { /* state set: the lines its hash set holds, as arrays */
        bool col[NQ_ARRAY_MAX], d1[2 * NQ_ARRAY_MAX - 1],
            d2[2 * NQ_ARRAY_MAX - 1];
        for (int k = 0; k < 2 * s->n - 1; k++) {
            if (k < s->n)
                col[k] = nq_lineset_has(s->set, k);
            d1[k] = nq_lineset_has(s->set, s->n + k);
            d2[k] = nq_lineset_has(s->set, 3 * s->n - 1 + k);
        }
        nq_view_flags(out, "col", col, s->n);
        nq_view_flags(out, "d1", d1, 2 * s->n - 1);
        nq_view_flags(out, "d2", d2, 2 * s->n - 1);
        return;
    }
    nq_view_flags(out, "col", s->col, s->n);
    nq_view_flags(out, "d1", s->d1, 2 * s->n - 1);
    nq_view_flags(out, "d2", s->d2, 2 * s->n - 1);
}

static const struct cs_name_hooks arr_names = {.describe = arr_describe,
                                               .var_name = nq_var_name,
                                               .value_name = nq_value_name};

static const struct cs_hooks array_hooks = {
    .state_size = sizeof(struct nq_array),
    .init = arr_init,
    .fini = arr_fini,
    .select = arr_select,
    .domain_size = arr_domain_size,
    .first = arr_first,
    .next = arr_next,
    .apply = arr_apply,
    .undo = arr_undo,
    .counters = true,
    .prune = arr_prune,
    .goal = arr_goal,
    .weight = arr_weight,
    .emit = arr_emit,
    .value = arr_value,
    .names = &arr_names,
};

const struct cs_hooks *nq_array_hooks(const struct nq_problem *p)
{
    (void)p;
    return &array_hooks;
}
