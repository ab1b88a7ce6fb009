/* search.c - the Sudoku hooks of the general path: cells are variables,
 * digits values.
 *
 * Candidates are bitmasks (bit d = digit d + 1).  apply places a digit and
 * strikes it from every peer; a peer left without candidates marks the
 * state dead, which prune reports.  With propagate: singles, prune also
 * places naked singles (a cell with one candidate) and hidden singles (a
 * digit with one place left in a unit) until nothing changes; full adds
 * locked candidates (a digit confined to where two units meet leaves the
 * rest of the other unit).  Those are moves the engine did not make, so the
 * model copies its state instead of undoing; its copy hook leaves the checks
 * counter alone.  Units are a list (geometry.c: rows, columns, boxes or
 * jigsaw regions, and any extra units of a variant), so the search knows no
 * grid shapes.  Killer cages (cages.c) are peers of their cells, and their
 * sums prune through each cage's digit sets in the same loop.
 */
#include <stdio.h>
#include <string.h>

#include "csearch/dfs.h"
#include "sudoku/fast9.h"
#include "sudoku/sudoku_impl.h"

/* The state: fixed fields, then cand[cells] (uint32_t), then value[cells]. */
struct sdk_state {
    struct cs_counters counters; /* the engine's: never copied */
    const struct sdk_problem *p;
    int npending; /* cells left with one candidate, to place; empty
                     whenever the engine copies the state */
    short pending[SDK_MAX_CELLS];
    int filled;
    int before_prune; /* filled when prune began: traces show the rest */
    bool dead;
    uint32_t cand[]; /* followed by value[] */
};

/* After cand[cells]: done[nunits], the digits placed in each unit, then
 * value[cells]. */
static uint32_t *done(struct sdk_state *s)
{
    return s->cand + s->p->cells;
}

static unsigned char *values(struct sdk_state *s)
{
    return (unsigned char *)(s->cand + s->p->cells + s->p->g->nunits);
}

static const unsigned char *cvalues(const struct sdk_state *s)
{
    return (const unsigned char *)(s->cand + s->p->cells + s->p->g->nunits);
}

/* The bytes after the header: what a copy moves. */
static size_t body_size(const struct sdk_problem *p)
{
    return ((size_t)p->cells + (size_t)p->g->nunits) * sizeof(uint32_t) +
           (size_t)p->cells;
}

size_t sdk_state_size(const struct sdk_problem *p)
{
    return sizeof(struct sdk_state) + body_size(p);
}

/* Place digit d + 1 in cell c and strike it from the peers. */
static void place(struct sdk_state *s, int c, int d)
{
    const struct sdk_problem *p = s->p;
    const uint32_t bit = UINT32_C(1) << d;
    values(s)[c] = (unsigned char)(d + 1);
    s->cand[c] = 0;
    s->filled++;
    for (int k = p->g->unit_start[c]; k < p->g->unit_start[c + 1]; k++)
        done(s)[p->g->cell_units[k]] |= bit;
    const int *peer = p->g->peers + p->g->peer_start[c];
    const int *end = p->g->peers + p->g->peer_start[c + 1];
    for (; peer < end; peer++) {
        int q = *peer;
        uint32_t m = s->cand[q];
        if (!(m & bit) || values(s)[q])
            continue;
        m &= ~bit;
        s->cand[q] = m;
        if (!m)
            s->dead = true;
        else if (!(m & (m - 1)) && p->propagate != SDK_PROPAGATE_NONE)
            s->pending[s->npending++] = (short)q; /* a naked single */
    }
}

static void sdk_init(void *state, const void *problem)
{
    struct sdk_state *s = state;
    const struct sdk_problem *p = problem;
    s->p = p;
    const uint32_t all = (UINT32_C(1) << p->n) - 1;
    for (int c = 0; c < p->cells; c++)
        s->cand[c] = all;
    for (int c = 0; c < p->cells; c++)
        if (p->givens[c])
            place(s, c, p->givens[c] - 1);
}

static void sdk_copy(void *dst, const void *src)
{
    struct sdk_state *d = dst;
    const struct sdk_state *s = src;
    d->p = s->p; /* a saved copy must know its size when put back */
    d->npending = 0;
    d->filled = s->filled;
    d->dead = s->dead;
    memcpy(d->cand, s->cand, body_size(s->p));
}

static int sdk_select(const void *state)
{
    const struct sdk_state *s = state;
    if (s->filled == s->p->cells)
        return CS_NONE;
    const unsigned char *v = cvalues(s);
    for (int c = 0; c < s->p->cells; c++)
        if (!v[c])
            return c;
    return CS_NONE;
}

static int sdk_domain_size(void *state, int c)
{
    struct sdk_state *s = state;
    if (values(s)[c])
        return -1;
    s->counters.checks++;
    return __builtin_popcount(s->cand[c]);
}

static void sdk_first(void *state, int c, uint64_t *cursor)
{
    struct sdk_state *s = state;
    s->counters.checks++;
    *cursor = s->cand[c];
}

static void sdk_apply(void *state, int c, int d)
{
    place(state, c, d);
}

/* Naked singles as place() found them, then hidden singles unit by unit,
 * until nothing changes; false on a contradiction. */
static bool singles(struct sdk_state *s)
{
    const struct sdk_problem *p = s->p;
    const uint32_t all = (UINT32_C(1) << p->n) - 1;
    for (;;) {
        while (s->npending && !s->dead) {
            int c = s->pending[--s->npending];
            uint32_t m = s->cand[c];
            s->counters.checks++;
            if (!values(s)[c] && m && !(m & (m - 1)))
                place(s, c, __builtin_ctz(m));
        }
        if (s->dead)
            break;
        bool placed = false;
        for (int u = 0; u < p->g->nunits && !s->dead; u++) {
            const uint32_t digits = done(s)[u];
            if (digits == all)
                continue; /* a finished unit */
            const int *cell = p->g->units + (size_t)u * (size_t)p->n;
            uint32_t once = 0, twice = 0;
            for (int i = 0; i < p->n; i++) {
                uint32_t m = s->cand[cell[i]]; /* 0 once placed */
                twice |= once & m;
                once |= m;
            }
            s->counters.checks++;
            if ((once | digits) != all) {
                s->dead = true; /* a digit with no place left */
                break;
            }
            uint32_t hidden = once & ~twice;
            while (hidden && !s->dead) {
                int d = __builtin_ctz(hidden);
                hidden &= hidden - 1;
                for (int i = 0; i < p->n; i++) {
                    int c = cell[i];
                    if (!values(s)[c] && (s->cand[c] >> d & 1)) {
                        place(s, c, d);
                        placed = true;
                        break;
                    }
                }
            }
        }
        if (s->dead || (!placed && !s->npending))
            break;
    }
    s->npending = 0;
    return !s->dead;
}

/* Locked candidates: a digit whose places in unit a all lie where a meets
 * b cannot go anywhere else in b.  True if it struck any candidate. */
static bool locked(struct sdk_state *s)
{
    const struct sdk_geometry *g = s->p->g;
    bool struck = false;
    for (int k = 0; k < g->nmeets && !s->dead; k++) {
        const struct sdk_meet *m = &g->meets[k];
        uint32_t in = 0, out = 0;
        for (int i = 0; i < m->nin; i++)
            in |= s->cand[m->in[i]];
        for (int i = 0; i < m->na; i++)
            out |= s->cand[m->a_only[i]];
        s->counters.checks++;
        uint32_t confined = in & ~out;
        if (!confined)
            continue;
        for (int i = 0; i < m->nb; i++) {
            int c = m->b_only[i];
            uint32_t cand = s->cand[c];
            if (cand & confined) {
                cand &= ~confined;
                s->cand[c] = cand;
                struck = true;
                if (!cand && !values(s)[c])
                    s->dead = true;
                else if (cand && !(cand & (cand - 1)))
                    s->pending[s->npending++] = (short)c; /* naked single */
            }
        }
    }
    return struck;
}

/* Does every open cell of the cage (cell, size) have a digit in rest? */
static bool has_places(const struct sdk_state *s, const int *cell, int size,
                       uint32_t rest)
{
    for (int i = 0; i < size; i++)
        if (!cvalues(s)[cell[i]] && !(s->cand[cell[i]] & rest))
            return false;
    return true;
}

/* Killer cages: a cage's digit sets (geometry) that hold its placed digits
 * and have a place for each of the rest are the ones left; its open cells
 * keep only their digits, and with propagation a digit that every such set
 * needs and one open cell alone can take goes there.  No set left: a dead
 * state, so a full cage is checked too (also under propagate none).  True
 * if it struck any candidate. */
static bool cages(struct sdk_state *s)
{
    const struct sdk_geometry *g = s->p->g;
    const bool propagating = s->p->propagate != SDK_PROPAGATE_NONE;
    bool struck = false;
    for (int k = 0; k < g->ncages && !s->dead; k++) {
        const int *cell = g->cage_cells + g->cage_start[k];
        const int size = g->cage_start[k + 1] - g->cage_start[k];
        uint32_t placed = 0, open = 0;
        for (int i = 0; i < size; i++) {
            int v = values(s)[cell[i]];
            if (v)
                placed |= UINT32_C(1) << (v - 1);
            else
                open |= s->cand[cell[i]];
        }
        s->counters.checks++;
        uint32_t usable = 0, needed = ~UINT32_C(0);
        bool any = false;
        for (int j = g->combo_start[k]; j < g->combo_start[k + 1]; j++) {
            uint32_t set = g->combos[j], rest = set & ~placed;
            if ((set & placed) != placed || (rest & ~open) ||
                !has_places(s, cell, size, rest))
                continue;
            any = true;
            usable |= rest;
            needed &= rest;
        }
        if (!any) {
            s->dead = true;
            break;
        }
        for (int i = 0; i < size; i++) {
            int c = cell[i];
            uint32_t m = s->cand[c] & usable;
            if (values(s)[c] || m == s->cand[c])
                continue;
            s->cand[c] = m;
            struck = true;
            if (!m)
                s->dead = true;
            else if (!(m & (m - 1)) && propagating)
                s->pending[s->npending++] = (short)c; /* a naked single */
        }
        while (propagating && needed && !s->dead) {
            const uint32_t bit = needed & -needed;
            needed &= needed - 1;
            int places = 0, last = -1;
            for (int i = 0; i < size; i++)
                if (!values(s)[cell[i]] && (s->cand[cell[i]] & bit)) {
                    places++;
                    last = cell[i];
                }
            if (!places)
                s->dead = true; /* an earlier one took its only place */
            else if (places == 1 && s->cand[last] != bit) {
                s->cand[last] = bit; /* the cage's hidden single */
                s->pending[s->npending++] = (short)last;
                struck = true;
            }
        }
    }
    return struck;
}

static bool sdk_prune(void *state)
{
    struct sdk_state *s = state;
    s->before_prune = s->filled;
    if (s->dead)
        return true;
    if (s->p->propagate == SDK_PROPAGATE_NONE) {
        cages(s); /* the cages' check: no cage sum left unreachable */
        return s->dead;
    }
    bool struck;
    do {
        if (!singles(s))
            return true;
        struck = cages(s);
        if (!struck && s->p->propagate == SDK_PROPAGATE_FULL)
            struck = locked(s);
    } while (struck && !s->dead);
    return s->dead;
}

static void sdk_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct sdk_state *s = state;
    const struct sdk_problem *p = s->p;
    char line[SDK_MAX_N + 1];
    (void)k;
    for (int r = 0; r < p->n; r++) {
        for (int c = 0; c < p->n; c++)
            line[c] = sdk_digit_char(cvalues(s)[r * p->n + c]);
        line[p->n] = '\0';
        cs_board_add(out, line);
    }
}

/* For traces: r3c5 = 7, the grid, and how far propagation got. */
static void sdk_var_name(const void *state, int c, char *buf, size_t size)
{
    const struct sdk_state *s = state;
    snprintf(buf, size, "r%dc%d", c / s->p->n + 1, c % s->p->n + 1);
}

static void sdk_value_name(const void *state, int c, int d, char *buf,
                           size_t size)
{
    (void)state;
    (void)c;
    snprintf(buf, size, "%c", sdk_digit_char(d + 1));
}

static void sdk_describe(const void *state, struct cs_view *out)
{
    const struct sdk_state *s = state;
    const struct sdk_problem *p = s->p;
    char line[SDK_MAX_N + 1];
    for (int r = 0; r < p->n; r++) {
        for (int c = 0; c < p->n; c++) {
            int v = cvalues(s)[r * p->n + c];
            line[c] = v ? sdk_digit_char(v) : '.';
        }
        line[p->n] = '\0';
        cs_board_add(&out->board, line);
    }
    snprintf(line, sizeof line, "%d/%d", s->filled, p->cells);
    cs_view_add(out, "filled", line);
    snprintf(line, sizeof line, "%d", s->filled - s->before_prune);
    cs_view_add(out, "singles", line);
}

static const struct cs_name_hooks sdk_names = {.describe = sdk_describe,
                                               .var_name = sdk_var_name,
                                               .value_name = sdk_value_name};

CS_HOOKS(sdk_hooks, .init = sdk_init, .copy = sdk_copy, .select = sdk_select,
         .domain_size = sdk_domain_size, .first = sdk_first,
         .next = sdk_next_candidate, .apply = sdk_apply, .prune = sdk_prune,
         .counters = true, .emit = sdk_emit, .names = &sdk_names)

const struct cs_hooks *const sdk_generic_hooks = &sdk_hooks;
