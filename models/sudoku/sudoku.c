/* sudoku.c - Sudoku on the engine: cells are variables, digits values.
 *
 * Candidates are bitmasks (bit d = digit d + 1).  apply places a digit and
 * strikes it from every peer; a peer left without candidates marks the
 * state dead, which prune reports.  With propagate: singles, prune also
 * places naked singles (a cell with one candidate) and hidden singles (a
 * digit with one place left in a unit) until nothing changes; full adds
 * locked candidates (a digit confined to where two units meet leaves the
 * rest of the other unit).  Those are moves the engine did not make, so the
 * model copies its state instead of undoing; its copy hook leaves the checks
 * counter alone.  Units are a list (rows, columns, boxes or jigsaw regions,
 * and any extra units of a variant), so the search knows no grid shapes.
 * Plain 9 x 9 puzzles with full propagation go to the fast kernel instead
 * (fast9.c, strategy.kernel): same engine, its own state and hooks.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/dfs.h"
#include "sudoku/fast9.h"
#include "sudoku/sudoku.h"

#define MAX_CELLS (SDK_MAX_N * SDK_MAX_N)

enum { PROP_NONE, PROP_SINGLES, PROP_FULL };
enum { KERNEL_AUTO, KERNEL_FAST, KERNEL_GENERIC };

/* Where two units meet in two cells or more: the cells of a (in the meet,
 * and outside it) and the cells of b outside it. */
struct sdk_meet {
    int in[SDK_MAX_N], a_only[SDK_MAX_N], b_only[SDK_MAX_N];
    int nin, na, nb;
};

/* The shape of a grid, shared by every puzzle of that size in a config. */
struct sdk_geometry {
    int n, cells, nunits;
    int *units;            /* nunits rows of n cell indices */
    char (*names)[16];     /* "row 3", "box 2", "diagonal 1", "region C" */
    int *peer_start;       /* cells + 1 offsets into peers */
    int *peers;            /* the cells sharing a unit with each cell */
    int *unit_start;       /* cells + 1 offsets into cell_units */
    int *cell_units;       /* the units of each cell */
    struct sdk_meet *meets; /* for locked candidates */
    int nmeets;
};

struct sdk_problem {
    const struct sdk_geometry *g;
    struct sdk_geometry *own; /* freed with the problem; NULL: a batch's */
    int n, cells, propagate;
    unsigned char givens[MAX_CELLS]; /* 0 = blank, else the digit */
};

/* The state: fixed fields, then cand[cells] (uint32_t), then value[cells]. */
struct sdk_state {
    const struct sdk_problem *p;
    uint64_t checks; /* never copied: see sdk_copy */
    int npending;    /* cells left with one candidate, to place; empty
                        whenever the engine copies the state */
    short pending[MAX_CELLS];
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

static size_t state_size(const struct sdk_problem *p)
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
        else if (!(m & (m - 1)) && p->propagate != PROP_NONE)
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
    s->checks++;
    return __builtin_popcount(s->cand[c]);
}

static void sdk_first(void *state, int c, uint64_t *cursor)
{
    struct sdk_state *s = state;
    s->checks++;
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
            s->checks++;
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
            s->checks++;
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
        s->checks++;
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

static bool sdk_prune(void *state)
{
    struct sdk_state *s = state;
    s->before_prune = s->filled;
    if (s->dead)
        return true;
    if (s->p->propagate == PROP_NONE)
        return false;
    do {
        if (!singles(s))
            return true;
    } while (s->p->propagate == PROP_FULL && locked(s) && !s->dead);
    return s->dead;
}

static void sdk_collect(void *state, struct cs_stats *into)
{
    struct sdk_state *s = state;
    into->checks += s->checks;
    s->checks = 0;
}

static char digit_char(int d)
{
    return (char)(d <= 9 ? '0' + d : 'A' + d - 10);
}

static void sdk_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct sdk_state *s = state;
    const struct sdk_problem *p = s->p;
    char line[SDK_MAX_N + 1];
    (void)k;
    for (int r = 0; r < p->n; r++) {
        for (int c = 0; c < p->n; c++)
            line[c] = digit_char(cvalues(s)[r * p->n + c]);
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
    snprintf(buf, size, "%c", digit_char(d + 1));
}

static void sdk_describe(const void *state, struct cs_view *out)
{
    const struct sdk_state *s = state;
    const struct sdk_problem *p = s->p;
    char line[SDK_MAX_N + 1];
    for (int r = 0; r < p->n; r++) {
        for (int c = 0; c < p->n; c++) {
            int v = cvalues(s)[r * p->n + c];
            line[c] = v ? digit_char(v) : '.';
        }
        line[p->n] = '\0';
        cs_board_add(&out->board, line);
    }
    snprintf(line, sizeof line, "%d/%d", s->filled, p->cells);
    cs_view_add(out, "filled", line);
    snprintf(line, sizeof line, "%d", s->filled - s->before_prune);
    cs_view_add(out, "singles", line);
}

static int sdk_search(struct cs_run *run, void *state);

static const struct cs_hooks sdk_hooks = {
    .init = sdk_init,
    .copy = sdk_copy,
    .select = sdk_select,
    .domain_size = sdk_domain_size,
    .first = sdk_first,
    .next = sdk_next_candidate,
    .apply = sdk_apply,
    .prune = sdk_prune,
    .collect = sdk_collect,
    .emit = sdk_emit,
    .describe = sdk_describe,
    .var_name = sdk_var_name,
    .value_name = sdk_value_name,
    .search = sdk_search,
};

static int sdk_search(struct cs_run *run, void *state)
{
    return cs_dfs(run, state, &sdk_hooks);
}

/* ---- the model: puzzles, shapes, checks ---------------------------------- */

static const char *const propagate_names[] = {"none", "singles", "full",
                                              NULL};
static const char *const kernel_names[] = {"auto", "fast", "generic", NULL};

static const struct cs_option sdk_options[] = {
    {.key = "params.puzzle", .type = CS_OPT_NODE,
     .help = "the grid: one string of N*N cells, or a list of N row strings; "
             "'.' or '0' blank, digits 1-9 then A-P"},
    {.key = "params.file", .type = CS_OPT_STRING,
     .help = "a file of puzzles, one a line (a batch); relative to the "
             "config's folder"},
    {.key = "params.box", .type = CS_OPT_STRING,
     .help = "box shape RxC (rows x columns); default from the grid size"},
    {.key = "params.regions", .type = CS_OPT_NODE,
     .help = "jigsaw: N row strings of region letters, replacing the boxes"},
    {.key = "params.diagonals", .type = CS_OPT_BOOL, .def = "false",
     .help = "Sudoku X: both main diagonals hold every digit once"},
    {.key = "params.windoku", .type = CS_OPT_BOOL, .def = "false",
     .help = "windoku (9 x 9): four more 3 x 3 boxes, at rows and columns "
             "2-4 and 6-8"},
    {.key = "strategy.propagate", .type = CS_OPT_ENUM, .def = "singles",
     .choices = propagate_names,
     .help = "singles: naked and hidden singles after every move; full: "
             "and locked candidates"},
    {.key = "strategy.kernel", .type = CS_OPT_ENUM, .def = "auto",
     .choices = kernel_names,
     .help = "fast: the 9 x 9 digit-major kernel (3 x 3 boxes, no variant, "
             "propagate full); generic: the general grids; auto: fast where "
             "it applies"},
    {.key = NULL},
};

/* What every puzzle of a config shares: how to build its geometry. */
struct sdk_settings {
    int box_r, box_c;  /* 0: the squarest shape for the grid */
    bool diagonals, windoku;
    int regions_n;     /* jigsaw side, 0 = boxes */
    char regions[MAX_CELLS];
    int propagate;
    int kernel;        /* KERNEL_* as given */
    bool fast;         /* 9 x 9 puzzles go to the fast kernel */
};

/* A batch: the puzzles of params.file, one a line; the geometry of the
 * first puzzle's size is built once and shared. */
struct sdk_batch {
    struct sdk_settings set;
    char *path;
    char **lines;      /* NULL: the line was longer than any grid */
    int *lineno;       /* each puzzle's line in the file (blank lines skip) */
    size_t count;
    struct sdk_geometry *shared;
    pthread_mutex_t lock;
};

static void free_geometry(struct sdk_geometry *g)
{
    if (!g)
        return;
    free(g->units);
    free(g->names);
    free(g->peer_start);
    free(g->peers);
    free(g->unit_start);
    free(g->cell_units);
    free(g->meets);
    free(g);
}

static void free_problem(void *data)
{
    struct sdk_problem *p = data;
    if (!p)
        return;
    free_geometry(p->own);
    free(p);
}

static void free_batch(void *data)
{
    struct sdk_batch *b = data;
    if (!b)
        return;
    for (size_t i = 0; i < b->count; i++)
        free(b->lines[i]);
    free(b->lines);
    free(b->lineno);
    free(b->path);
    free_geometry(b->shared);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

/* Digit of a puzzle character: 0 blank, -1 not a digit of this size. */
static int char_digit(char ch, int n)
{
    int d = ch == '.' || ch == '0'   ? 0
            : ch >= '1' && ch <= '9' ? ch - '0'
            : ch >= 'A' && ch <= 'Z' ? ch - 'A' + 10
            : ch >= 'a' && ch <= 'z' ? ch - 'a' + 10
                                     : -1;
    return d <= n ? d : -1;
}

/* Why a grid is refused: a message, the 1-based cell it is about (0: the
 * grid as a whole), and the config key at fault (NULL: the puzzle). */
struct grid_error {
    char msg[256];
    int cell;
    const char *key;
};

static int grid_fail(struct grid_error *e, int cell, const char *key,
                     const char *fmt, ...) CS_PRINTF(4, 5);

static int grid_fail(struct grid_error *e, int cell, const char *key,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->cell = cell;
    e->key = key;
    return -1;
}

static bool memchr_int(const int *a, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (a[i] == x)
            return true;
    return false;
}

static void add_unit(struct sdk_geometry *g, const int *cells, const char *kind,
                     int number)
{
    memcpy(g->units + (size_t)g->nunits * (size_t)g->n, cells,
           (size_t)g->n * sizeof(int));
    snprintf(g->names[g->nunits], sizeof g->names[0], "%s %d", kind, number);
    g->nunits++;
}

/* Units, then each cell's peers, then the meets of units for locked
 * candidates.  NULL with e filled when the shape does not fit n. */
static struct sdk_geometry *geometry_new(int n, const struct sdk_settings *set,
                                         struct grid_error *e)
{
    int box_r = set->box_r, box_c = set->box_c;
    if (set->regions_n && set->regions_n != n) {
        grid_fail(e, 0, "params.regions",
                  "the regions are %d x %d, the grid is %d x %d",
                  set->regions_n, set->regions_n, n, n);
        return NULL;
    }
    if (set->windoku && n != 9) {
        grid_fail(e, 0, "params.windoku", "windoku needs a 9 x 9 grid, not "
                                          "%d x %d", n, n);
        return NULL;
    }
    if (!set->regions_n && !box_r) {
        for (int rows = 1; rows * rows <= n; rows++)
            if (n % rows == 0) {
                box_r = rows;
                box_c = n / rows;
            }
        if (box_r == 1) {
            grid_fail(e, 0, NULL,
                      "a %d x %d grid has no box shape; give params.box or "
                      "params.regions",
                      n, n);
            return NULL;
        }
    } else if (!set->regions_n && box_r * box_c != n) {
        grid_fail(e, 0, "params.box",
                  "a %dx%d box holds %d cells, the grid has %d digits", box_r,
                  box_c, box_r * box_c, n);
        return NULL;
    }

    struct sdk_geometry *g = cs_xcalloc(1, sizeof *g);
    int most = 3 * n + 2 + 4;
    g->n = n;
    g->cells = n * n;
    g->units = cs_xmalloc((size_t)most * (size_t)n * sizeof(int));
    g->names = cs_xcalloc((size_t)most, sizeof *g->names);
    int cells[SDK_MAX_N];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            cells[j] = i * n + j;
        add_unit(g, cells, "row", i + 1);
    }
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            cells[j] = j * n + i;
        add_unit(g, cells, "column", i + 1);
    }
    if (set->regions_n) {
        /* region letters in order of first appearance */
        char seen[MAX_CELLS];
        int nseen = 0;
        for (int c = 0; c < g->cells; c++)
            if (!memchr(seen, set->regions[c], (size_t)nseen))
                seen[nseen++] = set->regions[c];
        for (int k = 0; k < nseen; k++) {
            int count = 0;
            for (int c = 0; c < g->cells; c++)
                if (set->regions[c] == seen[k] && count++ < n)
                    cells[count - 1] = c;
            if (count != n || nseen != n) {
                grid_fail(e, 0, "params.regions",
                          "region '%c' has %d cells and there are %d regions; "
                          "a %d x %d grid needs %d regions of %d",
                          seen[k], count, nseen, n, n, n, n);
                free_geometry(g);
                return NULL;
            }
            add_unit(g, cells, "region", k + 1);
            snprintf(g->names[g->nunits - 1], sizeof g->names[0],
                     "region %c", seen[k]);
        }
    } else {
        int across = n / box_c;
        for (int i = 0; i < n; i++) {
            int br = i / across * box_r, bc = i % across * box_c;
            for (int j = 0; j < n; j++)
                cells[j] = (br + j / box_c) * n + bc + j % box_c;
            add_unit(g, cells, "box", i + 1);
        }
    }
    if (set->diagonals) {
        for (int j = 0; j < n; j++)
            cells[j] = j * n + j;
        add_unit(g, cells, "diagonal", 1);
        for (int j = 0; j < n; j++)
            cells[j] = j * n + n - 1 - j;
        add_unit(g, cells, "diagonal", 2);
    }
    if (set->windoku)
        for (int w = 0; w < 4; w++) {
            int r0 = w / 2 * 4 + 1, c0 = w % 2 * 4 + 1;
            for (int j = 0; j < 9; j++)
                cells[j] = (r0 + j / 3) * 9 + c0 + j % 3;
            add_unit(g, cells, "window", w + 1);
        }

    /* peers: every other cell of every unit of a cell, once */
    unsigned char *mark = cs_xcalloc((size_t)g->cells, 1);
    g->peer_start = cs_xcalloc((size_t)g->cells + 1, sizeof(int));
    /* a cell lies in at most 6 units: row, column, box, 2 diagonals, window */
    size_t cap = (size_t)g->cells * 6 * (size_t)n, len = 0;
    g->peers = cs_xmalloc(cap * sizeof(int));
    for (int c = 0; c < g->cells; c++) {
        g->peer_start[c] = (int)len;
        memset(mark, 0, (size_t)g->cells);
        for (int u = 0; u < g->nunits; u++) {
            const int *unit = g->units + (size_t)u * (size_t)n;
            if (!memchr_int(unit, n, c))
                continue;
            for (int j = 0; j < n; j++)
                if (unit[j] != c && !mark[unit[j]]) {
                    mark[unit[j]] = 1;
                    g->peers[len++] = unit[j];
                }
        }
    }
    g->peer_start[g->cells] = (int)len;
    free(mark);

    /* the units of each cell */
    g->unit_start = cs_xcalloc((size_t)g->cells + 1, sizeof(int));
    g->cell_units = cs_xmalloc((size_t)g->nunits * (size_t)n * sizeof(int));
    len = 0;
    for (int c = 0; c < g->cells; c++) {
        g->unit_start[c] = (int)len;
        for (int u = 0; u < g->nunits; u++)
            if (memchr_int(g->units + (size_t)u * (size_t)n, n, c))
                g->cell_units[len++] = u;
    }
    g->unit_start[g->cells] = (int)len;

    /* meets of two units in two cells or more, both ways round */
    g->meets = cs_xcalloc((size_t)g->nunits * (size_t)g->nunits,
                          sizeof *g->meets);
    for (int a = 0; a < g->nunits; a++)
        for (int b = 0; b < g->nunits; b++) {
            if (a == b)
                continue;
            const int *ua = g->units + (size_t)a * (size_t)n;
            const int *ub = g->units + (size_t)b * (size_t)n;
            struct sdk_meet m = {0};
            for (int j = 0; j < n; j++) {
                if (memchr_int(ub, n, ua[j]))
                    m.in[m.nin++] = ua[j];
                else
                    m.a_only[m.na++] = ua[j];
                if (!memchr_int(ua, n, ub[j]))
                    m.b_only[m.nb++] = ub[j];
            }
            if (m.nin >= 2 && m.nb > 0)
                g->meets[g->nmeets++] = m;
        }
    return g;
}

/* Two equal givens in a unit: the puzzle is wrong, say where. */
static int check_givens(const struct sdk_problem *p, struct grid_error *e)
{
    const struct sdk_geometry *g = p->g;
    for (int u = 0; u < g->nunits; u++) {
        const int *cell = g->units + (size_t)u * (size_t)p->n;
        uint32_t digits = 0, twice = 0; /* a quick look first: batches */
        for (int i = 0; i < p->n; i++) {
            uint32_t bit = UINT32_C(1) << p->givens[cell[i]];
            twice |= digits & bit;
            digits |= bit;
        }
        if (!(twice & ~UINT32_C(1)))
            continue;
        int seen[SDK_MAX_N + 1] = {0};
        for (int i = 0; i < p->n; i++) {
            int c = cell[i], d = p->givens[c];
            if (!d)
                continue;
            if (seen[d]) {
                int a = seen[d] - 1;
                return grid_fail(
                    e, c + 1, NULL,
                    "puzzle %s holds %c twice: row %d column %d and row %d "
                    "column %d",
                    g->names[u], digit_char(d), a / p->n + 1, a % p->n + 1,
                    c / p->n + 1, c % p->n + 1);
            }
            seen[d] = c + 1;
        }
    }
    return 0;
}

/* The side of the grid in text (len cells), or 0 with e filled. */
static int grid_side(size_t len, struct grid_error *e)
{
    int n = 0;
    while ((n + 1) * (n + 1) <= (int)len && n < SDK_MAX_N + 1)
        n++;
    if (n * n != (int)len || n < 4 || n > SDK_MAX_N) {
        grid_fail(e, 0, NULL,
                  "puzzle has %zu cells: not a square grid from 4 x 4 to "
                  "%d x %d (81 for 9 x 9)",
                  len, SDK_MAX_N, SDK_MAX_N);
        return 0;
    }
    return n;
}

/* A problem for the grid in text on geometry g (of the grid's size), or
 * NULL with e filled. */
static struct sdk_problem *grid_problem(const char *text,
                                        const struct sdk_geometry *g,
                                        int propagate, struct grid_error *e)
{
    struct sdk_problem *p = cs_xcalloc(1, sizeof *p);
    p->g = g;
    p->n = g->n;
    p->cells = g->cells;
    p->propagate = propagate;
    for (int c = 0; c < p->cells; c++) {
        int d = char_digit(text[c], p->n);
        if (d < 0) {
            grid_fail(e, c + 1, NULL,
                      "puzzle cell %d (row %d, column %d): '%c' is not a "
                      "digit of a %d x %d grid",
                      c + 1, c / p->n + 1, c % p->n + 1, text[c], p->n, p->n);
            free_problem(p);
            return NULL;
        }
        p->givens[c] = (unsigned char)d;
    }
    if (check_givens(p, e)) {
        free_problem(p);
        return NULL;
    }
    return p;
}

/* What keeps settings from the fast kernel: NULL, or what it needs. */
static const char *fast_conflict(const struct sdk_settings *set)
{
    if (set->diagonals || set->windoku || set->regions_n)
        return "a grid without variants (diagonals, windoku, regions)";
    if (set->box_r && (set->box_r != 3 || set->box_c != 3))
        return "3x3 boxes";
    if (set->propagate != PROP_FULL)
        return "propagate full";
    return NULL;
}

/* A grid of n x n that kernel fast cannot take: -1 with e filled. */
static int check_kernel(const struct sdk_settings *set, int n,
                        struct grid_error *e)
{
    if (set->kernel != KERNEL_FAST || n == 9)
        return 0;
    return grid_fail(e, 0, "strategy.kernel",
                     "kernel fast needs a 9 x 9 grid, not %d x %d", n, n);
}

static void fill_fast(struct cs_problem *out, struct sdk_fast9 *f)
{
    out->hooks = sdk_fast9_hooks;
    out->data = f;
    out->free_data = free;
    out->nvars = 81;
    out->state_size = sdk_fast9_hooks->state_size;
    out->kernel = "fast";
}

/* The givens of a 9 x 9 grid in text (81 characters), or NULL if a
 * character is not a digit or a unit holds a digit twice: the quick way in
 * for a batch, the general path says what is wrong. */
static struct sdk_fast9 *fast_givens(const char *text)
{
    struct sdk_fast9 *f = cs_xmalloc(sizeof *f);
    uint32_t row[9] = {0}, col[9] = {0}, box[9] = {0};
    for (int c = 0; c < 81; c++) {
        int d = char_digit(text[c], 9);
        int r = c / 9, k = c % 9, x = r / 3 * 3 + k / 3;
        uint32_t bit = d > 0 ? UINT32_C(1) << d : 0;
        if (d < 0 || (row[r] | col[k] | box[x]) & bit) {
            free(f);
            return NULL;
        }
        row[r] |= bit;
        col[k] |= bit;
        box[x] |= bit;
        f->givens[c] = (unsigned char)d;
    }
    return f;
}

/* The problem for p on the settings' kernel; p is the caller's no more. */
static void fill_problem(struct cs_problem *out, struct sdk_problem *p,
                         const struct sdk_settings *set)
{
    if (set->fast && p->n == 9) {
        struct sdk_fast9 *f = cs_xmalloc(sizeof *f);
        memcpy(f->givens, p->givens, sizeof f->givens);
        free_problem(p);
        fill_fast(out, f);
        return;
    }
    out->hooks = &sdk_hooks;
    out->data = p;
    out->free_data = free_problem;
    out->nvars = p->cells;
    out->state_size = state_size(p);
    out->kernel = "generic";
}

/* params.regions: N strings of N region letters. */
static int read_regions(const struct cs_config *cfg, struct sdk_settings *set,
                        struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "params.regions");
    if (!node)
        return 0;
    size_t rows = cs_node_len(node);
    if (cs_node_kind(node) != CS_NODE_SEQ || rows < 4 || rows > SDK_MAX_N)
        return cs_error_at(err, cs_node_pos(node),
                           "'params.regions' must be a list of 4 to %d row "
                           "strings",
                           SDK_MAX_N);
    for (size_t i = 0; i < rows; i++) {
        const struct cs_node *row = cs_node_at(node, i);
        const char *text = cs_node_text(row);
        if (!text || strlen(text) != rows)
            return cs_error_at(err, cs_node_pos(row),
                               "region row %zu must be a string of %zu "
                               "letters",
                               i + 1, rows);
        memcpy(set->regions + i * rows, text, rows);
    }
    set->regions_n = (int)rows;
    return 0;
}

static int read_settings(const struct cs_config *cfg, struct sdk_settings *set,
                         struct cs_error *err)
{
    memset(set, 0, sizeof *set);
    set->propagate = cs_config_enum(cfg, "strategy.propagate");
    set->diagonals = cs_config_bool(cfg, "params.diagonals");
    set->windoku = cs_config_bool(cfg, "params.windoku");
    const char *box = cs_config_str(cfg, "params.box");
    char tail;
    if (box && (sscanf(box, "%dx%d%c", &set->box_r, &set->box_c, &tail) != 2 ||
                set->box_r < 1 || set->box_c < 1 || set->box_r > SDK_MAX_N ||
                set->box_c > SDK_MAX_N))
        return cs_error_at(err, cs_config_pos(cfg, "params.box"),
                           "'params.box' must be ROWSxCOLUMNS, like 2x3, "
                           "not '%s'",
                           box);
    if (box && cs_config_has(cfg, "params.regions"))
        return cs_error_at(err, cs_config_pos(cfg, "params.regions"),
                           "give params.box or params.regions, not both");
    if (read_regions(cfg, set, err))
        return -1;
    set->kernel = cs_config_enum(cfg, "strategy.kernel");
    const char *conflict = fast_conflict(set);
    if (set->kernel == KERNEL_FAST && conflict)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.kernel"),
                           "kernel fast needs %s", conflict);
    set->fast = set->kernel != KERNEL_GENERIC && !conflict;
    if (set->fast)
        sdk_fast9_prepare();
    return 0;
}

static struct cs_pos error_pos(const struct cs_config *cfg,
                               const struct grid_error *e,
                               const struct cs_node *node, size_t rows)
{
    if (e->key)
        return cs_config_pos(cfg, e->key);
    if (rows && e->cell)
        return cs_node_pos(cs_node_at(node, (size_t)(e->cell - 1) / rows));
    return cs_node_pos(node);
}

/* params.puzzle: one string, or a list of row strings. */
static int setup_puzzle(const struct cs_config *cfg,
                        const struct sdk_settings *set, struct cs_problem *out,
                        struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "params.puzzle");
    char text[MAX_CELLS + 1];
    size_t len = 0, rows = 0;
    if (cs_node_kind(node) == CS_NODE_SCALAR) {
        const char *s = cs_node_text(node);
        len = strlen(s);
        if (len > MAX_CELLS)
            return cs_error_at(err, cs_node_pos(node),
                               "puzzle has %zu cells, more than %d x %d", len,
                               SDK_MAX_N, SDK_MAX_N);
        memcpy(text, s, len);
    } else if (cs_node_kind(node) == CS_NODE_SEQ) {
        rows = cs_node_len(node);
        for (size_t i = 0; i < rows; i++) {
            const struct cs_node *row = cs_node_at(node, i);
            const char *s = cs_node_text(row);
            if (!s)
                return cs_error_at(err, cs_node_pos(row),
                                   "puzzle row %zu must be a string", i + 1);
            if (strlen(s) != rows)
                return cs_error_at(err, cs_node_pos(row),
                                   "puzzle row %zu has %zu cells, expected "
                                   "%zu (one per row)",
                                   i + 1, strlen(s), rows);
            if (len + rows > MAX_CELLS)
                return cs_error_at(err, cs_node_pos(row),
                                   "puzzle is larger than %d x %d", SDK_MAX_N,
                                   SDK_MAX_N);
            memcpy(text + len, s, rows);
            len += rows;
        }
    } else {
        return cs_error_at(err, cs_node_pos(node),
                           "'params.puzzle' must be a string or a list of "
                           "row strings");
    }
    struct grid_error e;
    int n = grid_side(len, &e);
    if (n && check_kernel(set, n, &e))
        n = 0;
    struct sdk_geometry *g = n ? geometry_new(n, set, &e) : NULL;
    struct sdk_problem *p = g ? grid_problem(text, g, set->propagate, &e)
                              : NULL;
    if (!p) {
        free_geometry(g);
        return cs_error_at(err, error_pos(cfg, &e, node, rows), "%s", e.msg);
    }
    p->own = g;
    fill_problem(out, p, set);
    return 0;
}

static int sdk_instance(const void *data, uint64_t index,
                        struct cs_problem *out, struct cs_error *err)
{
    struct sdk_batch *b = (struct sdk_batch *)data;
    const char *line = b->lines[index];
    struct sdk_fast9 *f;
    if (b->set.fast && line && strlen(line) == 81 && (f = fast_givens(line))) {
        fill_fast(out, f);
        return 0;
    }
    struct grid_error e;
    struct sdk_problem *p = NULL;
    struct sdk_geometry *own = NULL;
    int n = 0;
    if (!line)
        grid_fail(&e, 0, NULL, "puzzle line is longer than a %d x %d grid",
                  SDK_MAX_N, SDK_MAX_N);
    else
        n = grid_side(strlen(line), &e);
    if (n && check_kernel(&b->set, n, &e))
        n = 0;
    if (n) {
        /* the first size seen is shared by the batch; others are built for
         * their line alone */
        pthread_mutex_lock(&b->lock);
        if (!b->shared)
            b->shared = geometry_new(n, &b->set, &e);
        const struct sdk_geometry *g = b->shared;
        pthread_mutex_unlock(&b->lock);
        if (g && g->n != n)
            g = own = geometry_new(n, &b->set, &e);
        p = g ? grid_problem(line, g, b->set.propagate, &e) : NULL;
    }
    if (!p) {
        free_geometry(own);
        struct cs_pos pos = {b->path, b->lineno[index], e.cell ? e.cell : 1};
        return cs_error_at(err, pos, "%s", e.msg);
    }
    p->own = own;
    fill_problem(out, p, &b->set);
    return 0;
}

static int setup_batch(const struct cs_config *cfg,
                       const struct sdk_settings *set, struct cs_problem *out,
                       struct cs_error *err)
{
    struct sdk_batch *b = cs_xcalloc(1, sizeof *b);
    b->set = *set;
    pthread_mutex_init(&b->lock, NULL);
    b->path = cs_config_path(cfg, "params.file");
    FILE *f = fopen(b->path, "r");
    if (!f) {
        int rc = cs_error_at(err, cs_config_pos(cfg, "params.file"),
                             "cannot open '%s': %s", b->path, strerror(errno));
        free_batch(b);
        return rc;
    }
    size_t cap = 0;
    char buf[MAX_CELLS + 8];
    int lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strlen(buf);
        bool too_long = false;
        lineno++;
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            /* longer than any grid: remember that, skip the rest */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n')
                ;
            too_long = true;
        }
        while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (!len)
            continue; /* blank lines separate, they are not puzzles */
        if (b->count == cap) {
            cap = cap ? 2 * cap : 256;
            b->lines = cs_xrealloc(b->lines, cap * sizeof *b->lines);
            b->lineno = cs_xrealloc(b->lineno, cap * sizeof *b->lineno);
        }
        b->lineno[b->count] = lineno;
        b->lines[b->count++] = too_long ? NULL : cs_xstrdup(buf);
    }
    int failed = ferror(f) ? errno : 0;
    fclose(f);
    if (failed || !b->count) {
        int rc = cs_error_at(err, cs_config_pos(cfg, "params.file"),
                             failed ? "cannot read '%s': %s"
                                    : "'%s' holds no puzzle%s",
                             b->path, failed ? strerror(failed) : "");
        free_batch(b);
        return rc;
    }
    out->hooks = &sdk_hooks;
    out->data = b;
    out->free_data = free_batch;
    out->instances = b->count;
    out->setup_instance = sdk_instance;
    out->kernel = set->fast ? "fast" : "generic";
    return 0;
}

static int sdk_setup(const struct cs_config *cfg, struct cs_problem *out,
                     struct cs_error *err)
{
    struct sdk_settings set;
    if (read_settings(cfg, &set, err))
        return -1;
    bool puzzle = cs_config_has(cfg, "params.puzzle");
    bool file = cs_config_has(cfg, "params.file");
    if (puzzle && file)
        return cs_error_at(err, cs_config_pos(cfg, "params.file"),
                           "give params.puzzle or params.file, not both");
    if (file)
        return setup_batch(cfg, &set, out, err);
    if (!puzzle)
        return cs_error_at(err, cs_config_missing_pos(cfg, "params.puzzle"),
                           "missing key 'params.puzzle' (or params.file)");
    return setup_puzzle(cfg, &set, out, err);
}

const struct cs_model cs_sudoku_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "sudoku",
    .summary = "fill an N x N grid so every row, column and box holds each "
               "digit once",
    .options = sdk_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE),
    .setup = sdk_setup,
};
