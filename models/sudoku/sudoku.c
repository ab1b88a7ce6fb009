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
#include <errno.h>
#include <stdarg.h>
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
    {.key = "params.file", .type = CS_OPT_STRING,
     .help = "a file of puzzles, one a line (a batch); relative to the "
             "config's folder"},
    {.key = "params.box", .type = CS_OPT_STRING,
     .help = "box shape RxC (rows x columns); default from the grid size"},
    {.key = "strategy.propagate", .type = CS_OPT_ENUM, .def = "singles",
     .choices = propagate_names,
     .help = "singles: place naked and hidden singles after every move"},
    {.key = NULL},
};

/* What every puzzle of a config shares. */
struct sdk_settings {
    int box_r, box_c; /* 0: the squarest shape for the grid */
    int propagate;
};

/* A batch: the puzzles of params.file, one a line. */
struct sdk_batch {
    struct sdk_settings set;
    char *path;
    char **lines;
    size_t count;
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

static void free_batch(void *data)
{
    struct sdk_batch *b = data;
    if (!b)
        return;
    for (size_t i = 0; i < b->count; i++)
        free(b->lines[i]);
    free(b->lines);
    free(b->path);
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

/* Rows, columns and boxes; then each cell's peers (cells sharing a unit). */
static void build_units(struct sdk_problem *p)
{
    int n = p->n, across = n / p->box_c;
    p->nunits = 3 * n;
    p->units = cs_xmalloc((size_t)p->nunits * (size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int br = i / across * p->box_r, bc = i % across * p->box_c;
            p->units[(size_t)i * n + j] = i * n + j;       /* row i */
            p->units[(size_t)(n + i) * n + j] = j * n + i; /* column i */
            p->units[(size_t)(2 * n + i) * n + j] =        /* box i */
                (br + j / p->box_c) * n + bc + j % p->box_c;
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

/* Why a grid is refused: a message, the 1-based cell it is about (0: the
 * grid as a whole), and whether it is the box setting's fault. */
struct grid_error {
    char msg[256];
    int cell;
    bool box;
};

static int grid_fail(struct grid_error *e, int cell, bool box,
                     const char *fmt, ...) CS_PRINTF(4, 5);

static int grid_fail(struct grid_error *e, int cell, bool box,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->cell = cell;
    e->box = box;
    return -1;
}

/* Two equal givens in a unit: the puzzle is wrong, say where. */
static int check_givens(const struct sdk_problem *p, struct grid_error *e)
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
                return grid_fail(
                    e, c + 1, false,
                    "puzzle %s %d holds %c twice: row %d column %d and row "
                    "%d column %d",
                    kinds[u / p->n], u % p->n + 1, digit_char(d),
                    a / p->n + 1, a % p->n + 1, c / p->n + 1, c % p->n + 1);
            }
            seen[d] = c + 1;
        }
    }
    return 0;
}

/* A problem for the grid in text (len cells), or NULL with e filled. */
static struct sdk_problem *grid_problem(const char *text, size_t len,
                                        const struct sdk_settings *set,
                                        struct grid_error *e)
{
    int n = 0;
    while ((n + 1) * (n + 1) <= (int)len && n < SDK_MAX_N + 1)
        n++;
    if (n * n != (int)len || n < 4 || n > SDK_MAX_N) {
        grid_fail(e, 0, false,
                  "puzzle has %zu cells: not a square grid from 4 x 4 to "
                  "%d x %d (81 for 9 x 9)",
                  len, SDK_MAX_N, SDK_MAX_N);
        return NULL;
    }
    struct sdk_problem *p = cs_xcalloc(1, sizeof *p);
    p->n = n;
    p->cells = n * n;
    p->propagate = set->propagate;
    p->box_r = set->box_r;
    p->box_c = set->box_c;
    if (!p->box_r) {
        for (int rows = 1; rows * rows <= n; rows++)
            if (n % rows == 0) {
                p->box_r = rows;
                p->box_c = n / rows;
            }
        if (p->box_r == 1) {
            grid_fail(e, 0, false,
                      "a %d x %d grid has no box shape; give params.box", n,
                      n);
            free_problem(p);
            return NULL;
        }
    } else if (p->box_r * p->box_c != n) {
        grid_fail(e, 0, true,
                  "a %dx%d box holds %d cells, the grid has %d digits",
                  p->box_r, p->box_c, p->box_r * p->box_c, n);
        free_problem(p);
        return NULL;
    }
    for (int c = 0; c < p->cells; c++) {
        int d = char_digit(text[c], n);
        if (d < 0) {
            grid_fail(e, c + 1, false,
                      "puzzle cell %d (row %d, column %d): '%c' is not a "
                      "digit of a %d x %d grid",
                      c + 1, c / n + 1, c % n + 1, text[c], n, n);
            free_problem(p);
            return NULL;
        }
        p->givens[c] = (unsigned char)d;
    }
    build_units(p);
    if (check_givens(p, e)) {
        free_problem(p);
        return NULL;
    }
    return p;
}

static void fill_problem(struct cs_problem *out, struct sdk_problem *p)
{
    out->hooks = &sdk_hooks;
    out->data = p;
    out->free_data = free_problem;
    out->nvars = p->cells;
    out->state_size = state_size(p);
}

static int read_settings(const struct cs_config *cfg, struct sdk_settings *set,
                         struct cs_error *err)
{
    memset(set, 0, sizeof *set);
    set->propagate = cs_config_enum(cfg, "strategy.propagate");
    const char *box = cs_config_str(cfg, "params.box");
    char tail;
    if (box && (sscanf(box, "%dx%d%c", &set->box_r, &set->box_c, &tail) != 2 ||
                set->box_r < 1 || set->box_c < 1))
        return cs_error_at(err, cs_config_pos(cfg, "params.box"),
                           "'params.box' must be ROWSxCOLUMNS, like 2x3, "
                           "not '%s'",
                           box);
    return 0;
}

/* params.puzzle: one string, or a list of row strings. */
static int setup_puzzle(const struct cs_config *cfg,
                        const struct sdk_settings *set, struct cs_problem *out,
                        struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "params.puzzle");
    char text[SDK_MAX_N * SDK_MAX_N + 1];
    size_t len = 0, rows = 0;
    if (cs_node_kind(node) == CS_NODE_SCALAR) {
        const char *s = cs_node_text(node);
        len = strlen(s);
        if (len > SDK_MAX_N * SDK_MAX_N)
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
            if (len + rows > SDK_MAX_N * SDK_MAX_N)
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
    struct sdk_problem *p = grid_problem(text, len, set, &e);
    if (!p) {
        struct cs_pos pos = cs_node_pos(node);
        if (e.box)
            pos = cs_config_pos(cfg, "params.box");
        else if (rows && e.cell)
            pos = cs_node_pos(cs_node_at(node, (size_t)(e.cell - 1) / rows));
        return cs_error_at(err, pos, "%s", e.msg);
    }
    fill_problem(out, p);
    return 0;
}

static int sdk_instance(const void *data, uint64_t index,
                        struct cs_problem *out, struct cs_error *err)
{
    const struct sdk_batch *b = data;
    const char *line = b->lines[index];
    struct grid_error e;
    struct sdk_problem *p = grid_problem(line, strlen(line), &b->set, &e);
    if (!p) {
        struct cs_pos pos = {b->path, (int)index + 1, e.cell ? e.cell : 1};
        return cs_error_at(err, pos, "%s", e.msg);
    }
    fill_problem(out, p);
    return 0;
}

/* params.file, relative to the config's folder unless absolute (or given
 * with --set, then relative to where csearch runs). */
static char *batch_path(const struct cs_config *cfg)
{
    const char *file = cs_config_str(cfg, "params.file");
    struct cs_pos pos = cs_config_pos(cfg, "params.file");
    const char *slash = strrchr(pos.file, '/');
    if (file[0] == '/' || !slash || !strncmp(pos.file, "--set", 5))
        return cs_xstrdup(file);
    size_t dir = (size_t)(slash - pos.file) + 1, len = dir + strlen(file) + 1;
    char *path = cs_xmalloc(len);
    memcpy(path, pos.file, dir);
    strcpy(path + dir, file);
    return path;
}

static int setup_batch(const struct cs_config *cfg,
                       const struct sdk_settings *set, struct cs_problem *out,
                       struct cs_error *err)
{
    struct sdk_batch *b = cs_xcalloc(1, sizeof *b);
    b->set = *set;
    b->path = batch_path(cfg);
    FILE *f = fopen(b->path, "r");
    if (!f) {
        int rc = cs_error_at(err, cs_config_pos(cfg, "params.file"),
                             "cannot open '%s': %s", b->path, strerror(errno));
        free_batch(b);
        return rc;
    }
    size_t cap = 0;
    char buf[SDK_MAX_N * SDK_MAX_N + 8];
    while (fgets(buf, sizeof buf, f)) {
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            /* a line longer than any grid: keep its start, skip the rest */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n')
                ;
        }
        while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (b->count == cap) {
            cap = cap ? 2 * cap : 256;
            b->lines = cs_xrealloc(b->lines, cap * sizeof *b->lines);
        }
        b->lines[b->count++] = cs_xstrdup(buf);
    }
    fclose(f);
    out->hooks = &sdk_hooks;
    out->data = b;
    out->free_data = free_batch;
    out->instances = b->count;
    out->setup_instance = sdk_instance;
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
        return cs_error_set(err, cs_config_file(cfg),
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
