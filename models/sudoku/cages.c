/* cages.c - Killer Sudoku cages: params.cages read into the settings (a list
 * of {sum, cells} or a letter grid with its sums), and each cage's digit
 * sets built for a geometry.
 *
 * Invariants once read: the cages cover the grid of side cages_n, no cell
 * lies in two, a cage holds at most N cells and a sum its cells can reach,
 * and the sums add up to the grid's digits.  Every mistake is reported at
 * the config node it is about.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sudoku/sudoku_impl.h"

/* the most digit sets one cage may have (25 x 25 grids reach millions) */
#define SDK_MAX_COMBOS 65536

#define WIDE SDK_MAX_N /* cells while reading: (r - 1) * WIDE + c - 1 */

/* What reading keeps for the checks that need the grid's side. */
struct reading {
    int side;                               /* the grid's */
    int rows, cols;                         /* the largest row, column */
    short at[WIDE * WIDE];                  /* each cell's cage + 1, 0: none */
    int size[SDK_MAX_CELLS];                /* each cage's cells */
    struct cs_pos sum_pos[SDK_MAX_CELLS];   /* where its sum is */
    struct cs_pos cells_pos[SDK_MAX_CELLS]; /* where its cells are */
};

static void cage_name(const struct sdk_settings *set, int k, char *buf,
                      size_t size)
{
    if (set->cage_letter[k])
        snprintf(buf, size, "cage '%c'", set->cage_letter[k]);
    else
        snprintf(buf, size, "cage %d", k + 1);
}

/* A cage's sum node: an integer from 1 to the largest any cage can have. */
static int read_sum(const struct cs_node *node, struct sdk_settings *set, int k,
                    struct cs_error *err)
{
    int64_t v;
    if (cs_node_int_in(node, "sum", 1, SDK_MAX_N * (SDK_MAX_N + 1) / 2, &v,
                       err))
        return -1;
    set->cage_sum[k] = (short)v;
    return 0;
}

/* The number at *t (saturating at 1000), moving *t past it; false if
 * there is none. */
static bool parse_number(const char **t, int *out)
{
    if (!isdigit((unsigned char)**t))
        return false;
    for (*out = 0; isdigit((unsigned char)**t); (*t)++)
        *out = *out < 1000 ? *out * 10 + (**t - '0') : 1000;
    return true;
}

/* "r3c12" (or R3C12): row and column from 1, else false. */
static bool parse_cell(const char *t, int *r, int *c)
{
    if (!t || (*t != 'r' && *t != 'R'))
        return false;
    t++;
    if (!parse_number(&t, r) || (*t != 'c' && *t != 'C'))
        return false;
    t++;
    return parse_number(&t, c) && !*t;
}

/* Cell k of cage: into the reading, or -1 for a bad name or a cell taken. */
static int read_cell(const struct cs_node *node, int k, struct reading *rd,
                     struct cs_error *err)
{
    const char *text = cs_node_text(node);
    int r, c;
    if (!text)
        return cs_error_at(err, cs_node_pos(node),
                           "cage %d: a cell is a string rROWcCOLUMN, like "
                           "r1c1, not a list or mapping",
                           k + 1);
    if (!parse_cell(text, &r, &c))
        return cs_error_at(err, cs_node_pos(node),
                           "cage %d: '%s' is not a cell; write rROWcCOLUMN, "
                           "like r1c1",
                           k + 1, text);
    if (r < 1 || c < 1)
        return cs_error_at(err, cs_node_pos(node),
                           "cage %d: %s: rows and columns count from 1", k + 1,
                           text);
    if (r > WIDE || c > WIDE)
        return cs_error_at(err, cs_node_pos(node),
                           "cage %d: %s is outside the largest grid (%d x %d)",
                           k + 1, text, WIDE, WIDE);
    short *at = &rd->at[(r - 1) * WIDE + c - 1];
    if (*at == k + 1)
        return cs_error_at(err, cs_node_pos(node), "cage %d names r%dc%d twice",
                           k + 1, r, c);
    if (*at)
        return cs_error_at(err, cs_node_pos(node),
                           "r%dc%d is in cage %d and cage %d", r, c, *at,
                           k + 1);
    *at = (short)(k + 1);
    rd->size[k]++;
    if (r > rd->rows)
        rd->rows = r;
    if (c > rd->cols)
        rd->cols = c;
    return 0;
}

/* The side of the grid a list of cages makes: their largest row or column,
 * unless the cells past the one before it are a few strays (fewer than a
 * row) and the grid one smaller lacks no more cells than they are: then
 * they are slips (r10c9 for r9c9), each outside that grid, not a wider
 * grid with most of its last row and column uncovered. */
static int list_side(const struct cs_node *list, struct reading *rd,
                     struct cs_error *err)
{
    rd->side = rd->rows > rd->cols ? rd->rows : rd->cols;
    int n = rd->side - 1, inside = 0, cells = 0;
    for (size_t k = 0; k < cs_node_len(list); k++)
        cells += rd->size[k];
    for (int c = 0; c < n * n; c++)
        inside += rd->at[c / n * WIDE + c % n] != 0;
    int outside = cells - inside, missing = n * n - inside;
    if (outside >= n || missing > outside)
        return 0;
    for (size_t k = 0; k < cs_node_len(list); k++) {
        const struct cs_node *cells_node =
            cs_node_get(cs_node_at(list, k), "cells");
        for (size_t j = 0; j < cs_node_len(cells_node); j++) {
            const struct cs_node *cell = cs_node_at(cells_node, j);
            int r, c;
            if (parse_cell(cs_node_text(cell), &r, &c) && (r > n || c > n))
                return cs_error_at(err, cs_node_pos(cell),
                                   "cage %zu: %s is outside the %d x %d grid",
                                   k + 1, cs_node_text(cell), n, n);
        }
    }
    return 0;
}

/* params.cages as a list: - {sum: 15, cells: [r1c1, r1c2, r2c1]} */
static int read_list(const struct cs_node *list, struct sdk_settings *set,
                     struct reading *rd, struct cs_error *err)
{
    size_t count = cs_node_len(list);
    if (!count || count > SDK_MAX_CELLS)
        return cs_error_at(err, cs_node_pos(list),
                           "'params.cages' must list 1 to %d cages",
                           SDK_MAX_CELLS);
    for (int k = 0; k < (int)count; k++) {
        const struct cs_node *cage = cs_node_at(list, (size_t)k);
        if (cs_node_kind(cage) != CS_NODE_MAP)
            return cs_error_at(err, cs_node_pos(cage),
                               "cage %d must be a mapping like {sum: 15, "
                               "cells: [r1c1, r1c2]}",
                               k + 1);
        for (size_t j = 0; j < cs_node_len(cage); j++) {
            const char *key = cs_node_key(cage, j);
            if (strcmp(key, "sum") && strcmp(key, "cells"))
                return cs_error_at(err, cs_node_key_pos(cage, j),
                                   "unknown key '%s' in cage %d; a cage has "
                                   "sum and cells",
                                   key, k + 1);
        }
        const struct cs_node *sum = cs_node_get(cage, "sum");
        const struct cs_node *cells = cs_node_get(cage, "cells");
        if (!sum || !cells)
            return cs_error_at(err, cs_node_pos(cage), "cage %d has no %s",
                               k + 1, sum ? "cells" : "sum");
        if (read_sum(sum, set, k, err))
            return -1;
        if (cs_node_kind(cells) != CS_NODE_SEQ || !cs_node_len(cells))
            return cs_error_at(err, cs_node_pos(cells),
                               "cage %d: 'cells' must be a list of cells "
                               "like [r1c1, r1c2]",
                               k + 1);
        for (size_t j = 0; j < cs_node_len(cells); j++)
            if (read_cell(cs_node_at(cells, j), k, rd, err))
                return -1;
        rd->sum_pos[k] = cs_node_pos(sum);
        rd->cells_pos[k] = cs_node_pos(cells);
    }
    set->ncages = (int)count;
    return list_side(list, rd, err);
}

/* Are all the cells of letter ch in the grid joined, side by side? */
static bool is_joined(const char *grid, int n, char ch)
{
    int stack[SDK_MAX_CELLS], top = 0, seen = 0, total = 0;
    unsigned char mark[SDK_MAX_CELLS] = {0};
    for (int c = 0; c < n * n; c++)
        if (grid[c] == ch && !total++) {
            mark[c] = 1;
            stack[top++] = c;
        }
    while (top) {
        int c = stack[--top], r = c / n, k = c % n;
        seen++;
        const int next[4] = {r > 0 ? c - n : -1, r < n - 1 ? c + n : -1,
                             k > 0 ? c - 1 : -1, k < n - 1 ? c + 1 : -1};
        for (int i = 0; i < 4; i++)
            if (next[i] >= 0 && grid[next[i]] == ch && !mark[next[i]]) {
                mark[next[i]] = 1;
                stack[top++] = next[i];
            }
    }
    return seen == total;
}

/* The letters of params.cages.grid, in rows; its cages by first letter. */
static int read_grid_rows(const struct cs_node *node, struct sdk_settings *set,
                          struct reading *rd, char *grid, int *cage_of_letter,
                          struct cs_error *err)
{
    int side = sdk_read_rows(node, "params.cages.grid", "cage", grid, err);
    if (side < 0)
        return -1;
    for (int c = 0; c < side * side; c++) {
        unsigned char ch = (unsigned char)grid[c];
        if (!isalnum(ch))
            return cs_error_at(
                err, cs_node_pos(cs_node_at(node, (size_t)(c / side))),
                "cage row %d, column %d: '%c' is not a cage "
                "letter (letters and digits)",
                c / side + 1, c % side + 1, ch);
        if (cage_of_letter[ch] < 0) {
            cage_of_letter[ch] = set->ncages;
            set->cage_letter[set->ncages++] = (char)ch;
        }
        int k = cage_of_letter[ch];
        rd->at[c / side * WIDE + c % side] = (short)(k + 1);
        rd->size[k]++;
        rd->cells_pos[k] = cs_node_pos(node);
    }
    rd->side = side;
    for (int k = 0; k < set->ncages; k++)
        if (!is_joined(grid, rd->side, set->cage_letter[k]))
            return cs_error_at(err, cs_node_pos(node),
                               "cage '%c' is in pieces that do not touch; "
                               "give each cage its own letter",
                               set->cage_letter[k]);
    return 0;
}

/* params.cages as a letter grid: {grid: [rows], sums: {a: 3, b: 15}} */
static int read_grid(const struct cs_node *map, struct sdk_settings *set,
                     struct reading *rd, struct cs_error *err)
{
    for (size_t j = 0; j < cs_node_len(map); j++) {
        const char *key = cs_node_key(map, j);
        if (strcmp(key, "grid") && strcmp(key, "sums"))
            return cs_error_at(err, cs_node_key_pos(map, j),
                               "unknown key 'params.cages.%s'; a letter grid "
                               "has grid and sums",
                               key);
    }
    const struct cs_node *rows = cs_node_get(map, "grid");
    const struct cs_node *sums = cs_node_get(map, "sums");
    if (!rows || !sums)
        return cs_error_at(err, cs_node_pos(map), "'params.cages' has no %s",
                           rows ? "sums" : "grid");
    int cage_of_letter[256];
    char grid[SDK_MAX_CELLS];
    for (int i = 0; i < 256; i++)
        cage_of_letter[i] = -1;
    if (read_grid_rows(rows, set, rd, grid, cage_of_letter, err))
        return -1;
    if (cs_node_kind(sums) != CS_NODE_MAP)
        return cs_error_at(err, cs_node_pos(sums),
                           "'params.cages.sums' must map each cage letter to "
                           "its sum, like {a: 3, b: 15}");
    bool given[SDK_MAX_CELLS] = {false}; /* (the YAML has no key twice) */
    for (size_t j = 0; j < cs_node_len(sums); j++) {
        const char *key = cs_node_key(sums, j);
        int k = strlen(key) == 1 ? cage_of_letter[(unsigned char)key[0]] : -1;
        if (k < 0)
            return cs_error_at(err, cs_node_key_pos(sums, j),
                               "'params.cages.sums' gives a sum for '%s', "
                               "which is no cage of the grid",
                               key);
        given[k] = true;
        if (read_sum(cs_node_at(sums, j), set, k, err))
            return -1;
        rd->sum_pos[k] = cs_node_pos(cs_node_at(sums, j));
    }
    for (int k = 0; k < set->ncages; k++)
        if (!given[k])
            return cs_error_at(err, cs_node_pos(sums),
                               "cage '%c' has no sum in 'params.cages.sums'",
                               set->cage_letter[k]);
    return 0;
}

/* The checks that need the side: cage sizes and sums, cover, the total. */
static int check_cages(const struct cs_config *cfg, struct sdk_settings *set,
                       const struct reading *rd, struct cs_error *err)
{
    const struct cs_pos at = cs_config_pos(cfg, "params.cages");
    const int n = rd->side;
    if (n < 4)
        return cs_error_at(err, at,
                           "the cages reach row and column %d only; a grid "
                           "is 4 x 4 to %d x %d",
                           n, SDK_MAX_N, SDK_MAX_N);
    /* ways[k][s]: the sets of k digits adding up to s, counted to one
     * past SDK_MAX_COMBOS (a digit at a time, largest k first) */
    static const int most = SDK_MAX_N * (SDK_MAX_N + 1) / 2;
    uint32_t(*ways)[SDK_MAX_N * (SDK_MAX_N + 1) / 2 + 1] =
        cs_xcalloc(SDK_MAX_N + 1, sizeof *ways);
    ways[0][0] = 1;
    for (int d = 1; d <= n; d++)
        for (int k = d; k >= 1; k--)
            for (int t = most; t >= d; t--)
                if ((ways[k][t] += ways[k - 1][t - d]) > SDK_MAX_COMBOS)
                    ways[k][t] = SDK_MAX_COMBOS + 1;
    int total = 0, rc = 0;
    for (int k = 0; k < set->ncages && !rc; k++) {
        char name[16];
        cage_name(set, k, name, sizeof name);
        int size = rd->size[k], sum = set->cage_sum[k];
        int low = size * (size + 1) / 2, high = size * (2 * n - size + 1) / 2;
        if (size > n)
            rc = cs_error_at(err, rd->cells_pos[k],
                             "%s has %d cells, more than the %d digits (no "
                             "digit twice in a cage)",
                             name, size, n);
        else if (sum < low || sum > high)
            rc = cs_error_at(err, rd->sum_pos[k],
                             "%s: %d %s up to %d to %d in a %d x %d grid, "
                             "not %d",
                             name, size, size == 1 ? "cell adds" : "cells add",
                             low, high, n, n, sum);
        else if (ways[size][sum] > SDK_MAX_COMBOS)
            rc = cs_error_at(err, rd->cells_pos[k],
                             "%s: %d cells adding up to %d have more than %d "
                             "sets of digits; split it",
                             name, size, sum, SDK_MAX_COMBOS);
        total += sum;
    }
    free(ways);
    if (rc)
        return rc;
    for (int c = 0; c < n * n; c++) {
        int k = rd->at[c / n * WIDE + c % n] - 1;
        if (k < 0)
            return cs_error_at(err, at,
                               "r%dc%d is in no cage: the cages must cover "
                               "the %d x %d grid",
                               c / n + 1, c % n + 1, n, n);
        set->cage_of[c] = (short)k;
    }
    if (total != n * n * (n + 1) / 2)
        return cs_error_at(err, at,
                           "the cage sums add up to %d; the digits of a %d x "
                           "%d grid add up to %d",
                           total, n, n, n * n * (n + 1) / 2);
    set->cages_n = n;
    return 0;
}

int sdk_read_cages(const struct cs_config *cfg, struct sdk_settings *set,
                   struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "params.cages");
    if (!node)
        return 0;
    struct reading *rd = cs_xcalloc(1, sizeof *rd);
    int rc;
    if (cs_node_kind(node) == CS_NODE_SEQ)
        rc = read_list(node, set, rd, err);
    else if (cs_node_kind(node) == CS_NODE_MAP)
        rc = read_grid(node, set, rd, err);
    else
        rc = cs_error_at(err, cs_node_pos(node),
                         "'params.cages' must be a list of cages like {sum: "
                         "15, cells: [r1c1, r1c2]}, or a letter grid {grid: "
                         "[rows], sums: {a: 15}}");
    if (!rc)
        rc = check_cages(cfg, set, rd, err);
    free(rd);
    return rc;
}

/* ---- digit sets ---------------------------------------------------------- */

/* Append to cage k's list the sets of `left` more digits from `from` up to
 * n that add up to sum, joined to mask (check_cages bounded their number). */
static void add_sets(struct sdk_geometry *g, int k, size_t *cap, int from,
                     int n, int left, int sum, uint32_t mask)
{
    if (!left) {
        if (sum)
            return;
        if ((size_t)g->combo_start[k + 1] == *cap) {
            *cap = *cap ? 2 * *cap : 256;
            g->combos = cs_xrealloc(g->combos, *cap * sizeof *g->combos);
        }
        g->combos[g->combo_start[k + 1]++] = mask;
        return;
    }
    for (int d = from; d <= n; d++) {
        /* the smallest and largest sums of `left` digits from d on */
        int low = left * (2 * d + left - 1) / 2;
        int high = left * (2 * n - left + 1) / 2;
        if (sum < low || sum > high)
            return;
        add_sets(g, k, cap, d + 1, n, left - 1, sum - d,
                 mask | UINT32_C(1) << (d - 1));
    }
}

int sdk_cages_build(struct sdk_geometry *g, const struct sdk_settings *set,
                    struct sdk_grid_error *e)
{
    if (!set->cages_n)
        return 0;
    if (set->cages_n != g->n)
        return sdk_grid_fail(e, 0, "params.cages",
                             "the cages cover a %d x %d grid, the puzzle is "
                             "%d x %d",
                             set->cages_n, set->cages_n, g->n, g->n);
    int ncages = set->ncages;
    g->cage_start = cs_xcalloc((size_t)ncages + 1, sizeof(int));
    g->cage_cells = cs_xmalloc((size_t)g->cells * sizeof(int));
    g->cage_sum = cs_xmalloc((size_t)ncages * sizeof(int));
    g->cage_names = cs_xcalloc((size_t)ncages, sizeof *g->cage_names);
    g->combo_start = cs_xcalloc((size_t)ncages + 1, sizeof(int));
    int len = 0;
    size_t cap = 0;
    for (int k = 0; k < ncages; k++) {
        g->cage_start[k] = len;
        for (int c = 0; c < g->cells; c++)
            if (set->cage_of[c] == k)
                g->cage_cells[len++] = c;
        g->cage_sum[k] = set->cage_sum[k];
        cage_name(set, k, g->cage_names[k], sizeof g->cage_names[0]);
        g->combo_start[k + 1] = g->combo_start[k];
        add_sets(g, k, &cap, 1, g->n, len - g->cage_start[k], g->cage_sum[k],
                 0);
    }
    g->ncages = ncages;
    g->cage_start[ncages] = len;
    return 0;
}
