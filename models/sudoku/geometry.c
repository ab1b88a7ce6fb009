/* geometry.c - the shape of a Sudoku grid: its units (rows, columns, then
 * boxes or jigsaw regions, then a variant's diagonals or windows), each
 * cell's peers and units, and where two units meet (for locked candidates);
 * Killer cages (cages.c) add their cells to each other's peers.
 *
 * A geometry depends on the grid's side and the settings only, so every
 * puzzle of that size in a config may share one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sudoku/sudoku_impl.h"

void sdk_geometry_free(struct sdk_geometry *g)
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
    free(g->cage_start);
    free(g->cage_cells);
    free(g->cage_sum);
    free(g->cage_names);
    free(g->combo_start);
    free(g->combos);
    free(g);
}

int sdk_grid_fail(struct sdk_grid_error *e, int cell, const char *key,
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

int sdk_read_rows(const struct cs_node *node, const char *key, const char *noun,
                  char *out, struct cs_error *err)
{
    size_t rows = cs_node_len(node);
    if (cs_node_kind(node) != CS_NODE_SEQ || rows < 4 || rows > SDK_MAX_N)
        return cs_error_at(err, cs_node_pos(node),
                           "'%s' must be a list of 4 to %d row strings", key,
                           SDK_MAX_N);
    for (size_t i = 0; i < rows; i++) {
        const struct cs_node *row = cs_node_at(node, i);
        const char *text = cs_node_text(row);
        if (!text || strlen(text) != rows)
            return cs_error_at(err, cs_node_pos(row),
                               "%s row %zu must be a string of %zu letters",
                               noun, i + 1, rows);
        memcpy(out + i * rows, text, rows);
    }
    return (int)rows;
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

/* If cell c is one of the count cells, the others are its peers: those
 * not yet marked go to the end of g->peers. */
static void add_peers(struct sdk_geometry *g, unsigned char *mark,
                      const int *cell, int count, int c, size_t *len)
{
    if (!memchr_int(cell, count, c))
        return;
    for (int j = 0; j < count; j++)
        if (cell[j] != c && !mark[cell[j]]) {
            mark[cell[j]] = 1;
            g->peers[(*len)++] = cell[j];
        }
}

/* Units, then each cell's peers, then the meets of units for locked
 * candidates.  NULL with e filled when the shape does not fit n. */
struct sdk_geometry *sdk_geometry_new(int n, const struct sdk_settings *set,
                                      struct sdk_grid_error *e)
{
    int box_r = set->box_r, box_c = set->box_c;
    if (set->regions_n && set->regions_n != n) {
        sdk_grid_fail(e, 0, "params.regions",
                      "the regions are %d x %d, the grid is %d x %d",
                      set->regions_n, set->regions_n, n, n);
        return NULL;
    }
    if (set->windoku && n != 9) {
        sdk_grid_fail(e, 0, "params.windoku",
                      "windoku needs a 9 x 9 grid, not "
                      "%d x %d",
                      n, n);
        return NULL;
    }
    if (!set->regions_n && !box_r) {
        for (int rows = 1; rows * rows <= n; rows++)
            if (n % rows == 0) {
                box_r = rows;
                box_c = n / rows;
            }
        if (box_r == 1) {
            sdk_grid_fail(e, 0, NULL,
                          "a %d x %d grid has no box shape; give params.box or "
                          "params.regions",
                          n, n);
            return NULL;
        }
    } else if (!set->regions_n && box_r * box_c != n) {
        sdk_grid_fail(e, 0, "params.box",
                      "a %dx%d box holds %d cells, the grid has %d digits",
                      box_r, box_c, box_r * box_c, n);
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
        char seen[SDK_MAX_CELLS];
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
                sdk_grid_fail(
                    e, 0, "params.regions",
                    "region '%c' has %d cells and there are %d regions; "
                    "a %d x %d grid needs %d regions of %d",
                    seen[k], count, nseen, n, n, n, n);
                sdk_geometry_free(g);
                return NULL;
            }
            add_unit(g, cells, "region", k + 1);
            snprintf(g->names[g->nunits - 1], sizeof g->names[0], "region %c",
                     seen[k]);
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

    if (sdk_cages_build(g, set, e)) {
        sdk_geometry_free(g);
        return NULL;
    }

    /* peers: every other cell of every unit of a cell, and of its cage (no
     * digit twice in a cage), once */
    unsigned char *mark = cs_xcalloc((size_t)g->cells, 1);
    g->peer_start = cs_xcalloc((size_t)g->cells + 1, sizeof(int));
    /* a cell lies in at most 6 units: row, column, box, 2 diagonals, window;
     * and one cage */
    size_t cap = (size_t)g->cells * 7 * (size_t)n, len = 0;
    g->peers = cs_xmalloc(cap * sizeof(int));
    for (int c = 0; c < g->cells; c++) {
        g->peer_start[c] = (int)len;
        memset(mark, 0, (size_t)g->cells);
        for (int u = 0; u < g->nunits; u++)
            add_peers(g, mark, g->units + (size_t)u * (size_t)n, n, c, &len);
        for (int k = 0; k < g->ncages; k++)
            add_peers(g, mark, g->cage_cells + g->cage_start[k],
                      g->cage_start[k + 1] - g->cage_start[k], c, &len);
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
    g->meets =
        cs_xcalloc((size_t)g->nunits * (size_t)g->nunits, sizeof *g->meets);
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
