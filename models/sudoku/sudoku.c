/* sudoku.c - Sudoku on the engine: cells are variables, digits values.
 *
 * Candidates are bitmasks (bit d = digit d + 1).  apply places a digit and
 * strikes it from every peer; a peer left without candidates marks the
 * state dead, which prune reports.  With propagate: singles, prune also
 * places naked singles (a cell with one candidate) and hidden singles (a
 * digit with one place left in a unit) until nothing changes.  Those are
 * placements the engine did not make, so the model copies its state instead
 * of undoing; its copy hook leaves the checks counter alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/dfs.h"
#include "sudoku/sudoku.h"

#define MAX_CELLS (SDK_MAX_N * SDK_MAX_N)

enum { PROP_NONE, PROP_SINGLES };

struct sdk_problem {
    int n, box_r, box_c, cells;
    int propagate;
    int nunits;
    int *units;        /* nunits rows of n cell indices */
    int *peers;        /* cells rows of npeers cell indices */
    int npeers;
    unsigned char givens[MAX_CELLS]; /* 0 = blank, else the digit */
};

/* The state: fixed fields, then cand[cells] (uint32_t), then value[cells]. */
struct sdk_state {
    const struct sdk_problem *p;
    uint64_t checks; /* never copied: see sdk_copy */
    int filled;
    bool dead;
    uint32_t cand[]; /* followed by value[] */
};

static unsigned char *values(struct sdk_state *s)
{
    return (unsigned char *)(s->cand + s->p->cells);
}

static const unsigned char *cvalues(const struct sdk_state *s)
{
    return (const unsigned char *)(s->cand + s->p->cells);
}

static size_t state_size(const struct sdk_problem *p)
{
    return sizeof(struct sdk_state) +
           (size_t)p->cells * (sizeof(uint32_t) + 1);
}

/* Place digit d + 1 in cell c and strike it from the peers. */
static void place(struct sdk_state *s, int c, int d)
{
    const struct sdk_problem *p = s->p;
    const uint32_t bit = UINT32_C(1) << d;
    values(s)[c] = (unsigned char)(d + 1);
    s->cand[c] = 0;
    s->filled++;
    const int *peer = p->peers + (size_t)c * (size_t)p->npeers;
    for (int i = 0; i < p->npeers; i++) {
        int q = peer[i];
        if (values(s)[q])
            continue;
        s->cand[q] &= ~bit;
        if (!s->cand[q])
            s->dead = true;
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
    d->filled = s->filled;
    d->dead = s->dead;
    memcpy(d->cand, s->cand, (size_t)s->p->cells * (sizeof(uint32_t) + 1));
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

static bool sdk_next(void *state, int c, uint64_t *cursor, int *value)
{
    (void)state;
    (void)c;
    if (!*cursor)
        return false;
    *value = __builtin_ctzll(*cursor);
    *cursor &= *cursor - 1;
    return true;
}

static void sdk_apply(void *state, int c, int d)
{
    place(state, c, d);
}

/* Naked and hidden singles until nothing changes; false on a contradiction. */
static bool singles(struct sdk_state *s)
{
    const struct sdk_problem *p = s->p;
    bool changed = true;
    while (changed && !s->dead) {
        changed = false;
        for (int c = 0; c < p->cells && !s->dead; c++) {
            if (values(s)[c])
                continue;
            s->checks++;
            uint32_t m = s->cand[c];
            if (m && !(m & (m - 1))) {
                place(s, c, __builtin_ctz(m));
                changed = true;
            }
        }
        for (int u = 0; u < p->nunits && !s->dead; u++) {
            const int *cell = p->units + (size_t)u * (size_t)p->n;
            uint32_t once = 0, twice = 0, placed = 0;
            for (int i = 0; i < p->n; i++) {
                int c = cell[i];
                if (values(s)[c]) {
                    placed |= UINT32_C(1) << (values(s)[c] - 1);
                    continue;
                }
                twice |= once & s->cand[c];
                once |= s->cand[c];
            }
            s->checks++;
            const uint32_t all = (UINT32_C(1) << p->n) - 1;
            if ((once | placed) != all) {
                s->dead = true; /* a digit with no place left */
                break;
            }
            uint32_t hidden = once & ~twice;
            while (hidden) {
                int d = __builtin_ctz(hidden);
                hidden &= hidden - 1;
                for (int i = 0; i < p->n; i++) {
                    int c = cell[i];
                    if (!values(s)[c] && (s->cand[c] >> d & 1)) {
                        place(s, c, d);
                        changed = true;
                        break;
                    }
                }
                if (s->dead)
                    break;
            }
        }
    }
    return !s->dead;
}

static bool sdk_prune(void *state)
{
    struct sdk_state *s = state;
    if (s->dead)
        return true;
    if (s->p->propagate == PROP_SINGLES)
        return !singles(s);
    return false;
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

static int sdk_search(struct cs_run *run, void *state);

static const struct cs_hooks sdk_hooks = {
    .init = sdk_init,
    .copy = sdk_copy,
    .select = sdk_select,
    .domain_size = sdk_domain_size,
    .first = sdk_first,
    .next = sdk_next,
    .apply = sdk_apply,
    .prune = sdk_prune,
    .collect = sdk_collect,
    .emit = sdk_emit,
    .search = sdk_search,
};

static int sdk_search(struct cs_run *run, void *state)
{
    return cs_dfs(run, state, &sdk_hooks);
}

/* ---- the model: puzzles, sizes, checks ----------------------------------- */

static const char *const propagate_names[] = {"none", "singles", NULL};

static const struct cs_option sdk_options[] = {
    {.key = "params.puzzle", .type = CS_OPT_NODE,
     .help = "the grid: one string of N*N cells, or a list of N row strings; "
             "'.' or '0' blank, digits 1-9 then A-P"},
    {.key = "params.box", .type = CS_OPT_STRING,
     .help = "box shape RxC (rows x columns); default from the grid size"},
    {.key = "strategy.propagate", .type = CS_OPT_ENUM, .def = "singles",
     .choices = propagate_names,
     .help = "singles: place naked and hidden singles after every move"},
    {.key = NULL},
};

static void free_problem(void *data)
{
    struct sdk_problem *p = data;
    if (!p)
        return;
    free(p->units);
    free(p->peers);
    free(p);
}

/* Digit of a puzzle character: 0 blank, -1 not a digit of this size. */
static int char_digit(char ch, int n)
{
    int d = ch == '.' || ch == '0'           ? 0
            : ch >= '1' && ch <= '9'         ? ch - '0'
            : ch >= 'A' && ch <= 'Z'         ? ch - 'A' + 10
            : ch >= 'a' && ch <= 'z'         ? ch - 'a' + 10
                                             : -1;
    return d <= n ? d : -1;
}

/* The default box for an N-digit grid: the squarest r x c with r <= c. */
static bool default_box(int n, int *r, int *c)
{
    for (int rows = 1; rows * rows <= n; rows++)
        if (n % rows == 0) {
            *r = rows;
            *c = n / rows;
        }
    return *r > 1;
}

/* Rows, columns and boxes; then each cell's peers (cells sharing a unit). */
static void build_units(struct sdk_problem *p)
{
    int n = p->n;
    p->nunits = 3 * n;
    p->units = cs_xmalloc((size_t)p->nunits * (size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            p->units[(size_t)i * n + j] = i * n + j;           /* row i */
            p->units[(size_t)(n + i) * n + j] = j * n + i;     /* column i */
            int br = i / (n / p->box_c) * p->box_r, bc = i % (n / p->box_c) * p->box_c;
            p->units[(size_t)(2 * n + i) * n + j] =
                (br + j / p->box_c) * n + bc + j % p->box_c;   /* box i */
        }
    p->npeers = 2 * (n - 1) + (p->box_r - 1) * (p->box_c - 1);
    p->peers = cs_xmalloc((size_t)p->cells * (size_t)p->npeers * sizeof(int));
    for (int c = 0; c < p->cells; c++) {
        int r = c / n, col = c % n, k = 0;
        int *out = p->peers + (size_t)c * (size_t)p->npeers;
        for (int q = 0; q < p->cells; q++) {
            int qr = q / n, qc = q % n;
            bool same_box = qr / p->box_r == r / p->box_r &&
                            qc / p->box_c == col / p->box_c;
            if (q != c && (qr == r || qc == col || same_box))
                out[k++] = q;
        }
    }
}

/* Read params.puzzle into p->givens (and p->n when the box is not given). */
static int read_puzzle(const struct cs_config *cfg, struct sdk_problem *p,
                       struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "params.puzzle");
    if (!node)
        return cs_error_set(err, cs_config_file(cfg),
                            "missing key 'params.puzzle'");
    char text[MAX_CELLS + 1];
    size_t len = 0;
    int rows = 0;
    if (cs_node_kind(node) == CS_NODE_SCALAR) {
        const char *s = cs_node_text(node);
        len = strlen(s);
        if (len > MAX_CELLS)
            return cs_error_at(err, cs_node_pos(node),
                               "puzzle has %zu cells, more than %d x %d",
                               len, SDK_MAX_N, SDK_MAX_N);
        memcpy(text, s, len);
    } else if (cs_node_kind(node) == CS_NODE_SEQ) {
        rows = (int)cs_node_len(node);
        for (size_t i = 0; i < cs_node_len(node); i++) {
            const struct cs_node *row = cs_node_at(node, i);
            const char *s = cs_node_text(row);
            if (!s)
                return cs_error_at(err, cs_node_pos(row),
                                   "puzzle row %zu must be a string", i + 1);
            size_t rl = strlen(s);
            if ((int)rl != rows)
                return cs_error_at(err, cs_node_pos(row),
                                   "puzzle row %zu has %zu cells, expected "
                                   "%d (one per row)",
                                   i + 1, rl, rows);
            if (len + rl > MAX_CELLS)
                return cs_error_at(err, cs_node_pos(row),
                                   "puzzle is larger than %d x %d",
                                   SDK_MAX_N, SDK_MAX_N);
            memcpy(text + len, s, rl);
            len += rl;
        }
    } else {
        return cs_error_at(err, cs_node_pos(node),
                           "'params.puzzle' must be a string or a list of "
                           "row strings");
    }
    text[len] = '\0';

    int n = 0;
    while ((n + 1) * (n + 1) <= (int)len)
        n++;
    if (n * n != (int)len || n < 4)
        return cs_error_at(err, cs_node_pos(node),
                           "puzzle has %zu cells: not a square grid of "
                           "4 x 4 or more (81 for 9 x 9)",
                           len);
    p->n = n;
    p->cells = n * n;
    for (int c = 0; c < p->cells; c++) {
        int d = char_digit(text[c], n);
        if (d < 0)
            return cs_error_at(err, cs_node_pos(node),
                               "puzzle cell %d (row %d, column %d): '%c' is "
                               "not a digit of a %d x %d grid",
                               c + 1, c / n + 1, c % n + 1, text[c], n, n);
        p->givens[c] = (unsigned char)d;
    }
    return 0;
}

static int read_box(const struct cs_config *cfg, struct sdk_problem *p,
                    struct cs_error *err)
{
    const char *box = cs_config_str(cfg, "params.box");
    if (!box) {
        if (!default_box(p->n, &p->box_r, &p->box_c))
            return cs_error_at(err, cs_config_pos(cfg, "params.puzzle"),
                               "a %d x %d grid has no box shape; give "
                               "params.box",
                               p->n, p->n);
        return 0;
    }
    char tail;
    if (sscanf(box, "%dx%d%c", &p->box_r, &p->box_c, &tail) != 2 ||
        p->box_r < 1 || p->box_c < 1)
        return cs_error_at(err, cs_config_pos(cfg, "params.box"),
                           "'params.box' must be ROWSxCOLUMNS, like 2x3, "
                           "not '%s'",
                           box);
    if (p->box_r * p->box_c != p->n)
        return cs_error_at(err, cs_config_pos(cfg, "params.box"),
                           "a %dx%d box holds %d cells, the grid has %d "
                           "digits",
                           p->box_r, p->box_c, p->box_r * p->box_c, p->n);
    return 0;
}

/* Two equal givens in a unit: the puzzle is wrong, say where. */
static int check_givens(const struct cs_config *cfg,
                        const struct sdk_problem *p, struct cs_error *err)
{
    static const char *const kinds[] = {"row", "column", "box"};
    for (int u = 0; u < p->nunits; u++) {
        const int *cell = p->units + (size_t)u * (size_t)p->n;
        int seen[SDK_MAX_N + 1] = {0};
        for (int i = 0; i < p->n; i++) {
            int c = cell[i], d = p->givens[c];
            if (!d)
                continue;
            if (seen[d]) {
                int a = seen[d] - 1;
                return cs_error_at(
                    err, cs_config_pos(cfg, "params.puzzle"),
                    "puzzle %s %d holds %c twice: row %d column %d and "
                    "row %d column %d",
                    kinds[u / p->n], u % p->n + 1, digit_char(d),
                    a / p->n + 1, a % p->n + 1, c / p->n + 1, c % p->n + 1);
            }
            seen[d] = c + 1;
        }
    }
    return 0;
}

static int sdk_setup(const struct cs_config *cfg, struct cs_problem *out,
                     struct cs_error *err)
{
    struct sdk_problem *p = cs_xcalloc(1, sizeof *p);
    if (read_puzzle(cfg, p, err) || read_box(cfg, p, err)) {
        free_problem(p);
        return -1;
    }
    if (p->n > SDK_MAX_N) {
        struct cs_pos pos = cs_config_pos(cfg, "params.puzzle");
        free_problem(p);
        return cs_error_at(err, pos, "grids go up to %d x %d", SDK_MAX_N,
                           SDK_MAX_N);
    }
    build_units(p);
    if (check_givens(cfg, p, err)) {
        free_problem(p);
        return -1;
    }
    p->propagate = cs_config_enum(cfg, "strategy.propagate");
    out->hooks = &sdk_hooks;
    out->data = p;
    out->free_data = free_problem;
    out->nvars = p->cells;
    out->state_size = state_size(p);
    out->kernel = NULL;
    return 0;
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
