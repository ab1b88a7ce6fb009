/* puzzle.c - Sudoku puzzles into problems: params.puzzle (one string or a
 * list of rows), or params.file (a batch, one puzzle a line, each set up
 * when the engine asks for it).
 *
 * A puzzle is checked (characters, size, equal givens in a unit) before it
 * becomes a problem; 9 x 9 puzzles go to the fast kernel when the settings
 * allow, the rest to the general path (search.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/file.h"
#include "sudoku/fast9.h"
#include "sudoku/sudoku_impl.h"

/* the largest puzzle file read: millions of 9 x 9 lines */
#define SDK_MAX_BATCH_BYTES ((size_t)256 << 20)

/* One puzzle of a batch. */
struct sdk_line {
    char *text; /* in the batch's text, NUL-ended; NULL: the line was
                   longer than any grid */
    int len;    /* its characters; SDK_GIVENS: the fast kernel takes it and
                   text holds its givens (struct sdk_fast9) now */
    int lineno; /* its line in the file (blank lines skip) */
};

#define SDK_GIVENS (-1)

/* A batch: the puzzles of params.file, one a line, kept in the file's text
 * as read (no copy per line); the geometry of the first puzzle's size is
 * built once and shared.  A line the fast kernel takes becomes its givens
 * in place as the file is split, while its bytes are in the cache; they
 * are the problem's data: no allocation per puzzle. */
struct sdk_batch {
    struct sdk_settings set;
    char *path;
    char *text;
    struct sdk_line *lines;
    size_t count;
    struct sdk_geometry *shared;
    pthread_mutex_t lock;
};

static void free_problem(void *data)
{
    struct sdk_problem *p = data;
    if (!p)
        return;
    sdk_geometry_free(p->own);
    free(p);
}

static void free_batch(void *data)
{
    struct sdk_batch *b = data;
    if (!b)
        return;
    free(b->text);
    free(b->lines);
    free(b->path);
    sdk_geometry_free(b->shared);
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

/* Two equal givens among the count cells of a unit or cage called name:
 * the puzzle is wrong, say where. */
static int check_group(const struct sdk_problem *p, const int *cell, int count,
                       const char *name, struct sdk_grid_error *e)
{
    uint32_t digits = 0, twice = 0; /* a quick look first: batches */
    for (int i = 0; i < count; i++) {
        uint32_t bit = UINT32_C(1) << p->givens[cell[i]];
        twice |= digits & bit;
        digits |= bit;
    }
    if (!(twice & ~UINT32_C(1)))
        return 0;
    int seen[SDK_MAX_N + 1] = {0};
    for (int i = 0; i < count; i++) {
        int c = cell[i], d = p->givens[c];
        if (!d)
            continue;
        if (seen[d]) {
            int a = seen[d] - 1;
            return sdk_grid_fail(
                e, c + 1, NULL,
                "puzzle %s holds %c twice: row %d column %d and row %d "
                "column %d",
                name, sdk_digit_char(d), a / p->n + 1, a % p->n + 1,
                c / p->n + 1, c % p->n + 1);
        }
        seen[d] = c + 1;
    }
    return 0;
}

static int check_givens(const struct sdk_problem *p, struct sdk_grid_error *e)
{
    const struct sdk_geometry *g = p->g;
    for (int u = 0; u < g->nunits; u++)
        if (check_group(p, g->units + (size_t)u * (size_t)p->n, p->n,
                        g->names[u], e))
            return -1;
    for (int k = 0; k < g->ncages; k++)
        if (check_group(p, g->cage_cells + g->cage_start[k],
                        g->cage_start[k + 1] - g->cage_start[k],
                        g->cage_names[k], e))
            return -1;
    return 0;
}

/* The side of the grid in text (len cells), or 0 with e filled. */
static int grid_side(size_t len, struct sdk_grid_error *e)
{
    int n = 0;
    while ((n + 1) * (n + 1) <= (int)len && n < SDK_MAX_N + 1)
        n++;
    if (n * n != (int)len || n < 4 || n > SDK_MAX_N) {
        sdk_grid_fail(e, 0, NULL,
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
                                        int propagate, struct sdk_grid_error *e)
{
    struct sdk_problem *p = cs_xcalloc(1, sizeof *p);
    p->g = g;
    p->n = g->n;
    p->cells = g->cells;
    p->propagate = propagate;
    for (int c = 0; c < p->cells; c++) {
        int d = char_digit(text[c], p->n);
        if (d < 0) {
            sdk_grid_fail(e, c + 1, NULL,
                          "puzzle cell %d (row %d, column %d): '%c' is not a "
                          "digit of a %d x %d grid",
                          c + 1, c / p->n + 1, c % p->n + 1, text[c], p->n,
                          p->n);
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

/* A grid of n x n that kernel fast cannot take: -1 with e filled. */
static int check_kernel(const struct sdk_settings *set, int n,
                        struct sdk_grid_error *e)
{
    if (set->kernel != SDK_KERNEL_FAST || n == 9)
        return 0;
    return sdk_grid_fail(e, 0, "strategy.kernel",
                         "kernel fast needs a 9 x 9 grid, not %d x %d", n, n);
}

static void fill_fast(struct cs_problem *out, struct sdk_fast9 *f,
                      void (*free_data)(void *))
{
    out->hooks = sdk_fast9_hooks;
    out->data = f;
    out->free_data = free_data;
    out->nvars = SDK_FAST9_VARS;
    out->state_size = sdk_fast9_hooks->state_size;
    out->kernel = "fast";
    sdk_fast9_name_isa(out);
}

/* A 9 x 9 character -> its digit + 1 (1: blank), 0 if it is none. */
static const unsigned char digit_code[256] = {
    ['.'] = 1, ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
    ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10};

/* The givens of a 9 x 9 grid in text (81 characters) into f; false if a
 * character is not a digit or a unit holds a digit twice: the quick way in
 * for a batch (no branch per cell), the general path says what is wrong. */
static bool fast_givens(const char *text, struct sdk_fast9 *f)
{
    uint32_t row[9] = {0}, col[9] = {0}, box[9] = {0}, bad = 0;
    /* f may be text itself: read every character before writing */
    unsigned char givens[81];
    for (int r = 0, c = 0; r < 9; r++)
        for (int k = 0; k < 9; k++, c++) {
            unsigned code = digit_code[(unsigned char)text[c]];
            int x = r / 3 * 3 + k / 3;
            uint32_t bit = (UINT32_C(1) << code) >> 2; /* blank: none */
            bad |= (code == 0) | ((row[r] | col[k] | box[x]) & bit);
            row[r] |= bit;
            col[k] |= bit;
            box[x] |= bit;
            givens[c] = (unsigned char)(code - 1);
        }
    if (bad)
        return false;
    memcpy(f->givens, givens, sizeof givens);
    return true;
}

/* The problem for p on the settings' kernel; p is the caller's no more. */
static void fill_problem(struct cs_problem *out, struct sdk_problem *p,
                         const struct sdk_settings *set)
{
    if (set->fast && p->n == 9) {
        struct sdk_fast9 *f = cs_xmalloc(sizeof *f);
        memcpy(f->givens, p->givens, sizeof f->givens);
        free_problem(p);
        fill_fast(out, f, free);
        return;
    }
    out->hooks = sdk_generic_hooks;
    out->data = p;
    out->free_data = free_problem;
    out->nvars = p->cells;
    out->state_size = sdk_state_size(p);
    out->kernel = "generic";
}

static struct cs_pos error_pos(const struct cs_config *cfg,
                               const struct sdk_grid_error *e,
                               const struct cs_node *node, size_t rows)
{
    if (e->key || !node)
        return cs_config_pos(cfg, e->key ? e->key : "params.cages");
    if (rows && e->cell)
        return cs_node_pos(cs_node_at(node, (size_t)(e->cell - 1) / rows));
    return cs_node_pos(node);
}

/* params.puzzle: one string, or a list of row strings. */
int sdk_setup_puzzle(const struct cs_config *cfg,
                     const struct sdk_settings *set, struct cs_problem *out,
                     struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "params.puzzle");
    char text[SDK_MAX_CELLS + 1];
    size_t len = 0, rows = 0;
    if (!node) { /* Killer cages alone: an empty grid of their side */
        len = (size_t)(set->cages_n * set->cages_n);
        memset(text, '.', len);
    } else if (cs_node_kind(node) == CS_NODE_SCALAR) {
        const char *s = cs_node_text(node);
        len = strlen(s);
        if (len > SDK_MAX_CELLS)
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
            if (len + rows > SDK_MAX_CELLS)
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
    struct sdk_grid_error e;
    int n = grid_side(len, &e);
    if (n && check_kernel(set, n, &e))
        n = 0;
    struct sdk_geometry *g = n ? sdk_geometry_new(n, set, &e) : NULL;
    struct sdk_problem *p =
        g ? grid_problem(text, g, set->propagate, &e) : NULL;
    if (!p) {
        sdk_geometry_free(g);
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
    struct sdk_line *at = &b->lines[index];
    const char *line = at->text;
    if (at->len == SDK_GIVENS) {
        fill_fast(out, (struct sdk_fast9 *)at->text, NULL); /* the batch's */
        return 0;
    }
    struct sdk_grid_error e;
    struct sdk_problem *p = NULL;
    struct sdk_geometry *own = NULL;
    int n = 0;
    if (!line)
        sdk_grid_fail(&e, 0, NULL, "puzzle line is longer than a %d x %d grid",
                      SDK_MAX_N, SDK_MAX_N);
    else
        n = grid_side((size_t)b->lines[index].len, &e);
    if (n && check_kernel(&b->set, n, &e))
        n = 0;
    if (n) {
        /* the first size seen is shared by the batch; others are built for
         * their line alone */
        pthread_mutex_lock(&b->lock);
        if (!b->shared)
            b->shared = sdk_geometry_new(n, &b->set, &e);
        const struct sdk_geometry *g = b->shared;
        pthread_mutex_unlock(&b->lock);
        if (g && g->n != n)
            g = own = sdk_geometry_new(n, &b->set, &e);
        p = g ? grid_problem(line, g, b->set.propagate, &e) : NULL;
    }
    if (!p) {
        sdk_geometry_free(own);
        struct cs_pos pos = {b->path, b->lines[index].lineno,
                             e.cell ? e.cell : 1};
        return cs_error_at(err, pos, "%s", e.msg);
    }
    p->own = own;
    fill_problem(out, p, &b->set);
    return 0;
}

int sdk_batch_lineno(const struct cs_problem *batch, uint64_t index)
{
    const struct sdk_batch *b = batch->data;
    return b->lines[index].lineno;
}

int sdk_setup_batch(const struct cs_config *cfg, const struct sdk_settings *set,
                    struct cs_problem *out, struct cs_error *err)
{
    struct sdk_batch *b = cs_xcalloc(1, sizeof *b);
    b->set = *set;
    pthread_mutex_init(&b->lock, NULL);
    b->path = cs_config_path(cfg, "params.file");
    struct cs_file f;
    int st = cs_file_read(b->path, SDK_MAX_BATCH_BYTES, CS_FILE_STREAM, &f);
    if (st) {
        int rc = cs_error_at(
            err, cs_config_pos(cfg, "params.file"), "cannot %s '%s': %s",
            st == CS_FILE_CANNOT_OPEN ? "open" : "read", b->path, f.why);
        free_batch(b);
        return rc;
    }
    size_t cap = 0;
    int lineno = 0;
    for (char *line = f.text, *end = f.text + f.len; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        char *next = nl ? nl + 1 : end;
        lineno++;
        while (len && line[len - 1] == '\r')
            len--;
        line[len] = '\0';
        if (!line[strspn(line, " \t\r\f\v")]) {
            line = next;
            continue; /* blank lines (or only blanks) separate, they are
                         not puzzles */
        }
        if (b->count == cap) {
            cap = cap ? 2 * cap : 256;
            b->lines = cs_xrealloc(b->lines, cap * sizeof *b->lines);
        }
        /* longer than any grid: an invalid line; a 9 x 9 line for the
         * fast kernel becomes its givens now, while it is in the cache */
        int kept = (int)len;
        if (set->fast && len == 81 && fast_givens(line, (void *)line))
            kept = SDK_GIVENS;
        b->lines[b->count++] = (struct sdk_line){
            len > SDK_MAX_CELLS + 6 ? NULL : line, kept, lineno};
        line = next;
    }
    b->text = f.text;
    if (!strcmp(b->path, "-")) { /* read: from now on, the name for messages */
        free(b->path);
        b->path = cs_xstrdup(cs_file_name("-"));
    }
    if (!b->count) {
        int rc = cs_error_at(err, cs_config_pos(cfg, "params.file"),
                             "'%s' holds no puzzle", b->path);
        free_batch(b);
        return rc;
    }
    out->hooks = sdk_generic_hooks;
    out->data = b;
    out->free_data = free_batch;
    out->instances = b->count;
    out->setup_instance = sdk_instance;
    out->kernel = set->fast ? "fast" : "generic";
    if (set->fast)
        sdk_fast9_name_isa(out);
    return 0;
}
