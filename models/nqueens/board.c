/* board.c - the N-Queens boards as text, for every state and formulation:
 * a solution's board (the emit hooks) and the traces' names and views
 * (declared in internal.h).  None of it is on the search's path: boards
 * are drawn only for solutions shown and trace steps.
 */
#include <stdio.h>
#include <string.h>

#include "nqueens/internal.h"

/* One board row per line; k = 1 is the mirror image. */
void nq_emit_board(const int *pos, int n, uint64_t k, struct cs_board *out)
{
    char line[NQ_ARRAY_MAX + 1];
    for (int r = 0; r < n; r++) {
        memset(line, '.', (size_t)n);
        line[n] = '\0';
        line[k ? n - 1 - pos[r] : pos[r]] = 'Q';
        cs_board_add(out, line);
    }
}

/* ---- traces: names, the board and the state as text ------------------- */

void nq_var_name(const void *state, int r, char *buf, size_t size)
{
    (void)state;
    snprintf(buf, size, "row %d", r);
}

void nq_value_name(const void *state, int r, int c, char *buf, size_t size)
{
    (void)state;
    (void)r;
    snprintf(buf, size, "col %d", c);
}

/* The queens' columns row by row, '.' for an open row (pos[r] < 0, or r not
 * in rows); one character each up to n = 10, else numbers with spaces. */
void nq_view_queens(struct cs_view *v, const int *pos, int n, uint64_t rows)
{
    char buf[4 * NQ_ARRAY_MAX + 1];
    size_t used = 0;
    for (int r = 0; r < n; r++) {
        bool set = r < 64 ? rows >> r & 1 : pos[r] >= 0;
        if (n <= 10)
            buf[used++] = set ? (char)('0' + pos[r]) : '.';
        else
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s",
                                     r ? " " : "", set ? "" : ".");
        if (set && n > 10)
            used +=
                (size_t)snprintf(buf + used, sizeof buf - used, "%d", pos[r]);
    }
    buf[used] = '\0';
    cs_view_add(v, "queens", buf);
}

/* The board: Q for a queen, x for a square a queen attacks in an open row,
 * . for a free one.  attacked(r, c) answers for the open rows. */
void nq_view_board(struct cs_view *v, const int *pos, int n, uint64_t rows,
                   const void *s, bool (*attacked)(const void *s, int r, int c))
{
    char line[NQ_ARRAY_MAX + 1];
    for (int r = 0; r < n; r++) {
        bool set = r < 64 ? rows >> r & 1 : pos[r] >= 0;
        for (int c = 0; c < n; c++)
            line[c] = set                 ? (pos[r] == c ? 'Q' : '.')
                      : attacked(s, r, c) ? 'x'
                                          : '.';
        line[n] = '\0';
        cs_board_add(&v->board, line);
    }
}

/* The low `bits` bits of hi:lo in binary, the highest bit first. */
void nq_view_bits(struct cs_view *v, const char *name, uint64_t hi, uint64_t lo,
                  int bits)
{
    char buf[2 * NQ_BITMASK_MAX + 1];
    for (int i = 0; i < bits; i++) {
        int b = bits - 1 - i;
        buf[i] = (char)('0' + (int)((b < 64 ? lo >> b : hi >> (b - 64)) & 1));
    }
    buf[bits] = '\0';
    cs_view_add(v, name, buf);
}

/* An array of flags, index 0 first. */
void nq_view_flags(struct cs_view *v, const char *name, const bool *a, int len)
{
    char buf[2 * NQ_ARRAY_MAX];
    for (int i = 0; i < len; i++)
        buf[i] = a[i] ? '1' : '0';
    buf[len] = '\0';
    cs_view_add(v, name, buf);
}
