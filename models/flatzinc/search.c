/* search.c - the FlatZinc model's hooks: a store searched by the engine.
 *
 * A state owns a clone of the problem's store.  apply(x, v) opens a trail
 * level, fixes x = v and propagates to a fixpoint; undo pops that level, so
 * it restores exactly what apply and its propagation changed; prune reports
 * a failure.  Branching follows the solve item's annotations: the first
 * group with an open variable chooses one by its selection, its values are
 * tried in its order; then every other primary variable (problem.h), and
 * at the goal a first completion of the rest.  Under optimize each
 * solution found tightens the objective for the rest of the search (a cut
 * no stronger than the engine's own incumbent, so never unsound).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/random.h"
#include "flatzinc.h"

/* ---- state -------------------------------------------------------------- */

static bool cut(struct fzn_state *st);

static void fzs_init(void *state, const void *problem)
{
    struct fzn_state *st = state; /* zeroed by the engine */
    const struct fzn_problem *p = problem;
    st->p = p;
    st->s = fzn_store_clone(p->store);
    st->cut = p->has_start_cut ? p->start_cut : INT64_MAX;
    fzn_schedule_all(st->s);
    st->failed = p->store->failed || !cut(st) || !fzn_propagate(st->s);
    st->counters.checks += st->s->propagations;
    st->seen = st->s->propagations;
}

static void fzs_fini(void *state)
{
    struct fzn_state *st = state;
    fzn_store_free(st->s);
    st->s = NULL;
}

/* ---- choose ------------------------------------------------------------- */

/* The sum of the weights (failures caused, plus one) of x's propagators. */
static uint64_t wdeg(const struct fzn_store *s, int x)
{
    return (uint64_t)(s->watch_start[x + 1] - s->watch_start[x]) +
           (s->failures ? s->failures[x] : 0);
}

/* Is x a better choice than best (both open) by sel?  Ties keep best. */
static bool better(const struct fzn_store *s, enum fzn_varsel sel, int x,
                   int best)
{
    switch (sel) {
    case FZN_VAR_FIRST_FAIL:
        return fzn_size(s, x) < fzn_size(s, best);
    case FZN_VAR_ANTI_FIRST_FAIL:
        return fzn_size(s, x) > fzn_size(s, best);
    case FZN_VAR_SMALLEST:
        return fzn_min(s, x) < fzn_min(s, best);
    case FZN_VAR_LARGEST:
        return fzn_max(s, x) > fzn_max(s, best);
    case FZN_VAR_DOM_W_DEG: {
        /* size / wdeg smaller: size_x * wdeg_best < size_best * wdeg_x */
        return (double)fzn_size(s, x) * (double)wdeg(s, best) <
               (double)fzn_size(s, best) * (double)wdeg(s, x);
    }
    case FZN_VAR_MOST_CONSTRAINED:
        return fzn_size(s, x) < fzn_size(s, best) ||
               (fzn_size(s, x) == fzn_size(s, best) &&
                s->watch_start[x + 1] - s->watch_start[x] >
                    s->watch_start[best + 1] - s->watch_start[best]);
    case FZN_VAR_OCCURRENCE:
        return s->watch_start[x + 1] - s->watch_start[x] >
               s->watch_start[best + 1] - s->watch_start[best];
    case FZN_VAR_MAX_REGRET: {
        int64_t rx = fzn_next_above(s, x, fzn_min(s, x)) - fzn_min(s, x);
        int64_t rb =
            fzn_next_above(s, best, fzn_min(s, best)) - fzn_min(s, best);
        return rx > rb;
    }
    default:
        return false; /* input order: the first open one */
    }
}

static int pick(const struct fzn_store *s, const int *vars, int n,
                enum fzn_varsel sel)
{
    int best = CS_NONE;
    for (int i = 0; i < n; i++) {
        int x = vars[i];
        if (fzn_fixed(s, x))
            continue;
        if (best == CS_NONE) {
            best = x;
            if (sel == FZN_VAR_INPUT)
                break;
        } else if (better(s, sel, x, best)) {
            best = x;
        }
    }
    return best;
}

static int fzs_select(const void *state)
{
    const struct fzn_state *st = state;
    const struct fzn_problem *p = st->p;
    if (p->free_search)
        return pick(st->s, p->rest, p->nrest, FZN_VAR_DOM_W_DEG);
    for (size_t g = 0; g < p->ngroups; g++) {
        const struct fzn_group *gr = &p->groups[g];
        int x = pick(st->s, gr->vars, gr->n, gr->varsel);
        if (x != CS_NONE)
            return x;
    }
    return pick(st->s, p->rest, p->nrest,
                p->ngroups ? FZN_VAR_INPUT : FZN_VAR_FIRST_FAIL);
}

/* Only the primary variables are open to the engine (problem.h). */
static int fzs_domain_size(void *state, int var)
{
    const struct fzn_state *st = state;
    return fzn_fixed(st->s, var) || !st->p->primary[var]
               ? -1
               : (int)fzn_size(st->s, var);
}

/* ---- values: the cursor holds the last value tried ---------------------- */

#define STARTED (UINT64_C(1) << 63)
#define MEDIAN_DONE (UINT64_C(1) << 62) /* median first, then the rest up */

static uint64_t at(int64_t v, uint64_t flags)
{
    return flags | (uint32_t)(int32_t)v;
}

static int64_t last(uint64_t cursor)
{
    return (int32_t)(uint32_t)cursor;
}

/* The median of x's values: the lower middle one. */
static int64_t median(const struct fzn_store *s, int x)
{
    int64_t v = fzn_min(s, x);
    for (uint32_t k = (fzn_size(s, x) - 1) / 2; k > 0; k--)
        v = fzn_next_above(s, x, v);
    return v;
}

static void fzs_first(void *state, int var, uint64_t *cursor)
{
    (void)state, (void)var;
    *cursor = 0;
}

static bool fzs_next(void *state, int var, uint64_t *cursor, int *value)
{
    const struct fzn_state *st = state;
    const struct fzn_store *s = st->s;
    enum fzn_valsel sel = st->p->free_search ? FZN_VAL_MIN : st->p->valsel[var];
    int64_t v;
    switch (sel) {
    case FZN_VAL_MAX:
    case FZN_VAL_REVERSE_SPLIT:
        v = *cursor ? fzn_next_below(s, var, last(*cursor)) : fzn_max(s, var);
        if (v == INT64_MIN)
            return false;
        break;
    case FZN_VAL_MEDIAN:
    case FZN_VAL_MIDDLE: {
        int64_t m = median(s, var);
        if (!*cursor) {
            *cursor = at(m, STARTED);
            *value = (int)m;
            return true;
        }
        v = *cursor & MEDIAN_DONE ? fzn_next_above(s, var, last(*cursor))
                                  : fzn_min(s, var);
        if (v == m)
            v = fzn_next_above(s, var, v);
        if (v == INT64_MAX)
            return false;
        *cursor = at(v, STARTED | MEDIAN_DONE);
        *value = (int)v;
        return true;
    }
    default:
        v = *cursor ? fzn_next_above(s, var, last(*cursor)) : fzn_min(s, var);
        if (v == INT64_MAX)
            return false;
        break;
    }
    *cursor = at(v, STARTED);
    *value = (int)v;
    return true;
}

/* ---- apply, undo, cut --------------------------------------------------- */

/* Under optimize: the objective must beat the best found in this state. */
static bool cut(struct fzn_state *st)
{
    const struct fzn_problem *p = st->p;
    if (st->cut == INT64_MAX || !p->cut_by_cost)
        return true;
    return p->goal == FZN_MINIMIZE
               ? fzn_set_max(st->s, p->objective, st->cut - 1)
               : fzn_set_min(st->s, p->objective, 1 - st->cut);
}

static void count_checks(struct fzn_state *st)
{
    st->counters.checks += st->s->propagations - st->seen;
    st->seen = st->s->propagations;
}

static void fzs_apply(void *state, int var, int value)
{
    struct fzn_state *st = state;
    fzn_push(st->s);
    st->failed =
        !(fzn_fix(st->s, var, value) && cut(st) && fzn_propagate(st->s));
    count_checks(st);
}

static void fzs_undo(void *state, int var, int value)
{
    struct fzn_state *st = state;
    (void)var, (void)value;
    fzn_pop(st->s);
    st->failed = false;
}

static bool fzs_prune(void *state)
{
    return ((const struct fzn_state *)state)->failed;
}

static int64_t fzs_cost(const void *state)
{
    const struct fzn_state *st = state;
    if (st->p->objective < 0)
        return 0; /* a satisfaction problem: every solution costs 0 */
    int64_t v = st->sol[st->p->objective];
    return st->p->goal == FZN_MINIMIZE ? v : -v;
}

/* The first value of the first open secondary variable, or CS_NONE. */
static int open_secondary(const struct fzn_state *st)
{
    const struct fzn_problem *p = st->p;
    for (int i = 0; i < p->nsecondary; i++)
        if (!fzn_fixed(st->s, p->secondary[i]))
            return p->secondary[i];
    return CS_NONE;
}

/* With every primary variable fixed: fix the secondary ones too, by a
 * search of their own (values from the least, a level per choice) that
 * stops at the first completion.  True with the store at that completion's
 * levels (the caller pops them); false, the store as it was, when there is
 * none. */
static bool complete(struct fzn_state *st)
{
    struct fzn_store *s = st->s;
    struct choice {
        int x;
        int64_t v;
    } *stack = cs_xmalloc((size_t)(st->p->nsecondary + 1) * sizeof *stack);
    int depth = 0;
    bool found = true;
    for (int x; found && (x = open_secondary(st)) != CS_NONE;) {
        int64_t v = fzn_min(s, x);
        for (;;) {
            fzn_push(s);
            stack[depth++] = (struct choice){x, v};
            if (fzn_fix(s, x, v) && fzn_propagate(s))
                break;
            fzn_pop(s);
            depth--;
            while ((v = fzn_next_above(s, x, v)) == INT64_MAX) {
                if (!depth) {
                    found = false;
                    break;
                }
                fzn_pop(s);
                depth--;
                x = stack[depth].x;
                v = stack[depth].v;
            }
            if (!found)
                break;
        }
    }
    free(stack);
    return found;
}

/* Every primary variable is fixed and no propagator failed: a solution
 * once the secondary ones complete it.  Keep its values in the state
 * itself, so that a byte copy of it (the layers' incumbent) holds the
 * solution. */
static bool fzs_goal(void *state)
{
    struct fzn_state *st = state;
    int level = st->s->level;
    bool found = complete(st);
    count_checks(st);
    if (found)
        for (int v = 0; v < st->s->nvars; v++)
            st->sol[v] = fzn_min(st->s, v);
    while (st->s->level > level)
        fzn_pop(st->s);
    if (!found)
        return false;
    if (st->p->objective >= 0) {
        int64_t c = fzs_cost(st);
        if (c < st->cut)
            st->cut = c;
    }
    return true;
}

static int64_t fzs_bound(const void *state)
{
    const struct fzn_state *st = state;
    const struct fzn_problem *p = st->p;
    if (p->objective < 0)
        return 0;
    return p->goal == FZN_MINIMIZE ? fzn_min(st->s, p->objective)
                                   : -(int64_t)fzn_max(st->s, p->objective);
}

/* ---- neighbourhood rounds ----------------------------------------------- */

/* Keep each decision variable at its value in best, but a share `size` of
 * them drawn at random; then propagate. */
static void fzs_relax(void *state, const void *best,
                      const struct cs_round *round)
{
    struct fzn_state *st = state;
    const struct fzn_state *b = best;
    const struct fzn_problem *p = st->p;
    uint64_t rng = round->seed;
    const uint64_t free_below =
        (uint64_t)(round->size * 0x1p64 < 0x1p64 ? round->size * 0x1p64
                                                 : 0x1p64 - 1);
    st->cut = fzs_cost(b);
    bool ok = !st->failed;
    for (int i = 0; ok && i < p->ndecisions; i++) {
        int x = p->decisions[i];
        if (cs_random(&rng) >= free_below && fzn_contains(st->s, x, b->sol[x]))
            ok = fzn_fix(st->s, x, b->sol[x]);
    }
    st->failed = !(ok && cut(st) && fzn_propagate(st->s));
    count_checks(st);
}

/* ---- output ------------------------------------------------------------- */

/* v as MiniZinc prints it; at most 21 characters and a NUL. */
static int put_value(char *buf, size_t size, bool is_bool, int64_t v)
{
    if (is_bool)
        return snprintf(buf, size, "%s", v ? "true" : "false");
    if (size < 22)
        return snprintf(buf, size, "%" PRId64, v);
    /* by hand: every solution of a count is printed (-a) */
    char digits[20];
    int n = 0, len = 0;
    uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[len++] = '-';
    while (n)
        buf[len++] = digits[--n];
    buf[len] = '\0';
    return len;
}

/* An output item as MiniZinc writes it: `x = 3;` or
 * `q = array2d(1..2, 1..2, [1, 2, 3, 4]);`. */
static void emit_output(const struct fzn_state *st, const struct fzn_output *o,
                        struct cs_board *out)
{
    /* a value: 11 characters (booleans 5), its separator 2; 24 to spare */
    size_t cap =
        64 + strlen(o->name) + (size_t)o->n * 14 + (size_t)o->ndims * 48;
    char *line = cs_xmalloc(cap);
    size_t len = (size_t)snprintf(line, cap, "%s = ", o->name);
    if (o->is_array) {
        len += (size_t)snprintf(line + len, cap - len, "array%dd(", o->ndims);
        for (int d = 0; d < o->ndims; d++)
            len += (size_t)snprintf(line + len, cap - len,
                                    "%" PRId64 "..%" PRId64 ", ",
                                    o->dims[2 * d], o->dims[2 * d + 1]);
        line[len++] = '[';
    }
    for (int i = 0; i < o->n; i++) {
        if (i) {
            line[len++] = ',';
            line[len++] = ' ';
        }
        len += (size_t)put_value(line + len, cap - len, o->is_bool,
                                 st->sol[o->vars[i]]);
    }
    snprintf(line + len, cap - len, o->is_array ? "]);" : ";");
    cs_board_add(out, line);
    free(line);
}

static void fzs_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct fzn_state *st = state;
    (void)k; /* every branch weighs 1 */
    for (size_t i = 0; i < st->p->noutputs; i++)
        emit_output(st, &st->p->outputs[i], out);
}

/* ---- traces ------------------------------------------------------------- */

static void fzs_var_name(const void *state, int var, char *buf, size_t size)
{
    const struct fzn_state *st = state;
    snprintf(buf, size, "%s", st->p->names[var]);
}

static void fzs_value_name(const void *state, int var, int value, char *buf,
                           size_t size)
{
    const struct fzn_state *st = state;
    put_value(buf, size, st->p->is_bool[var], value);
}

/* The domain of x as text: "3", "1..8" or "{1,3..5,8}" (cut short). */
static void domain_text(const struct fzn_state *st, int x, char *buf,
                        size_t size)
{
    const struct fzn_store *s = st->s;
    bool is_bool = st->p->is_bool[x];
    if (fzn_fixed(s, x)) {
        put_value(buf, size, is_bool, fzn_min(s, x));
        return;
    }
    if (is_bool) {
        snprintf(buf, size, "{false,true}");
        return;
    }
    if ((int64_t)fzn_size(s, x) == (int64_t)fzn_max(s, x) - fzn_min(s, x) + 1) {
        snprintf(buf, size, "%d..%d", fzn_min(s, x), fzn_max(s, x));
        return;
    }
    size_t len = (size_t)snprintf(buf, size, "{");
    for (int64_t v = fzn_min(s, x); v != INT64_MAX && len + 24 < size;) {
        int64_t hi = v;
        while (hi + 1 <= fzn_max(s, x) && fzn_contains(s, x, hi + 1))
            hi++;
        len += (size_t)(hi > v ? snprintf(buf + len, size - len,
                                          "%s%" PRId64 "..%" PRId64,
                                          len > 1 ? "," : "", v, hi)
                               : snprintf(buf + len, size - len, "%s%" PRId64,
                                          len > 1 ? "," : "", v));
        v = fzn_next_above(s, x, hi);
    }
    snprintf(buf + len, size - len, "%s}", len + 24 < size ? "" : ",...");
}

#define FZN_DESCRIBE_MAX 100 /* output variables a trace shows */

/* The domains of the output variables, by their names ("q[3]"). */
static void fzs_describe(const void *state, struct cs_view *out)
{
    const struct fzn_state *st = state;
    const struct fzn_problem *p = st->p;
    char name[128], dom[256];
    int shown = 0;
    for (size_t i = 0; i < p->noutputs && shown < FZN_DESCRIBE_MAX; i++) {
        const struct fzn_output *o = &p->outputs[i];
        for (int k = 0; k < o->n && shown < FZN_DESCRIBE_MAX; k++, shown++) {
            if (o->is_array)
                snprintf(name, sizeof name, "%s[%d]", o->name, k + 1);
            else
                snprintf(name, sizeof name, "%s", o->name);
            domain_text(st, o->vars[k], dom, sizeof dom);
            cs_view_add(out, name, dom);
        }
    }
}

static int fzs_value(const void *state, int var)
{
    return ((const struct fzn_state *)state)->sol[var];
}

static const struct cs_name_hooks fzs_names = {.describe = fzs_describe,
                                               .var_name = fzs_var_name,
                                               .value_name = fzs_value_name};

const struct cs_hooks fzn_hooks = {
    .init = fzs_init,
    .fini = fzs_fini,
    .counters = true,
    .select = fzs_select,
    .domain_size = fzs_domain_size,
    .first = fzs_first,
    .next = fzs_next,
    .apply = fzs_apply,
    .undo = fzs_undo,
    .prune = fzs_prune,
    .goal = fzs_goal,
    .emit = fzs_emit,
    .cost = fzs_cost,
    .bound = fzs_bound,
    .relax = fzs_relax,
    .rounds_whole = true,
    .names = &fzs_names,
    .value = fzs_value,
};
