/* nqueens.c - N-Queens on the engine: rows are variables, columns values.
 *
 * Each representation is a static const hook table; the bitmask ones also
 * instantiate the engine body (csearch/dfs.h) with their own table so the
 * hooks inline.  Mirror symmetry lives in three hooks: at the root, first()
 * offers only the left half and the odd middle column, and weight() counts a
 * left-half queen twice (the board's mirror image is a different solution);
 * emit(k = 1) draws that mirror image.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/dfs.h"
#include "csearch/trace.h"
#include "nqueens/d4.h"
#include "nqueens/nqueens.h"

/* ---- shared by the representations ------------------------------------- */

static uint64_t low_bits(int count)
{
    return count >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << count) - 1;
}

/* Columns the first row may take under mirror symmetry. */
static int mirror_limit(int n) { return (n + 1) / 2; }

static uint64_t mirror_weight(bool at_root, bool mirror, int n, int col)
{
    return at_root && mirror && 2 * col + 1 < n ? 2 : 1;
}

/* d4 without the kernel: is the solution pos the smallest of its images
 * (rows compared in order)?  Counting only those counts each orbit once. */
static bool is_canonical(const int *pos, int n)
{
    int img[NQ_ARRAY_MAX];
    for (int g = 1; g < 8; g++) {
        for (int r = 0; r < n; r++) {
            int gr, gc;
            nq_d4_map(n, g, r, pos[r], &gr, &gc);
            img[gr] = gc;
        }
        for (int r = 0; r < n; r++) {
            if (img[r] != pos[r]) {
                if (img[r] < pos[r])
                    return false;
                break;
            }
        }
    }
    return true;
}

/* One board row per line; k = 1 is the mirror image. */
static void emit_board(const int *pos, int n, uint64_t k, struct cs_board *out)
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

/* Shared with formulations.c (declared in nqueens.h). */

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
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%d",
                                     pos[r]);
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
            line[c] = set ? (pos[r] == c ? 'Q' : '.')
                          : attacked(s, r, c) ? 'x' : '.';
        line[n] = '\0';
        cs_board_add(&v->board, line);
    }
}

/* The low `bits` bits of hi:lo in binary, the highest bit first. */
void nq_view_bits(struct cs_view *v, const char *name, uint64_t hi,
                  uint64_t lo, int bits)
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
void nq_view_flags(struct cs_view *v, const char *name, const bool *a,
                   int len)
{
    char buf[2 * NQ_ARRAY_MAX];
    for (int i = 0; i < len; i++)
        buf[i] = a[i] ? '1' : '0';
    buf[len] = '\0';
    cs_view_add(v, name, buf);
}

/* The helpers above, for the other formulations (formulations.c). */
bool nq_is_canonical(const int *pos, int n) { return is_canonical(pos, n); }

void nq_emit_board(const int *pos, int n, uint64_t k, struct cs_board *out)
{
    emit_board(pos, n, k, out);
}

/* ---- array: three boolean arrays, one check per column tried ------------ */

/* With `state: set` the same hooks keep the occupied lines in a hash set
 * instead of the arrays (formulations.c): the same tree, the same checks. */
struct nq_array {
    int n, placed;
    bool mirror, forward, d4;
    uint64_t checks, unique;
    struct nq_lineset *set; /* state set: the lines; NULL: the arrays */
    int pos[NQ_ARRAY_MAX]; /* column of row r's queen, -1 if open */
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
    return s->placed == 0 && s->mirror ? mirror_limit(s->n) : s->n;
}

static int arr_domain_size(void *state, int r)
{
    struct nq_array *s = state;
    if (s->pos[r] >= 0)
        return -1;
    int size = 0, limit = arr_limit(s);
    for (int c = 0; c < limit; c++) {
        s->checks++;
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
        s->checks++;
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
            s->checks++;
            any = arr_free(s, r, c);
        }
        if (!any)
            return true;
    }
    return false;
}

static uint64_t arr_weight(const void *state, int r, int c)
{
    const struct nq_array *s = state;
    (void)r;
    return mirror_weight(s->placed == 0, s->mirror, s->n, c);
}

static bool arr_goal(void *state)
{
    struct nq_array *s = state;
    if (s->d4)
        s->unique += is_canonical(s->pos, s->n);
    return true;
}

static void arr_collect(void *state, struct cs_stats *into)
{
    struct nq_array *s = state;
    into->checks += s->checks;
    into->unique += s->unique;
    s->checks = s->unique = 0;
}

static void arr_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct nq_array *s = state;
    emit_board(s->pos, s->n, k, out);
}

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
    .prune = arr_prune,
    .goal = arr_goal,
    .weight = arr_weight,
    .collect = arr_collect,
    .emit = arr_emit,
    .describe = arr_describe,
    .var_name = nq_var_name,
    .value_name = nq_value_name,
};

/* ---- bitmask: shifting masks, one level per row ------------------------- */

/* Level r holds the masks row r sees: columns taken, and the squares the
 * queens above attack along each diagonal (d1 shifts left a column per row,
 * d2 right).  apply writes level r + 1, undo just steps back. */
struct nq_bits {
    int n, row;
    bool mirror, d4;
    uint64_t full, half, checks, unique;
    uint64_t cols[NQ_BITMASK_MAX + 1];
    uint64_t d1[NQ_BITMASK_MAX + 1];
    uint64_t d2[NQ_BITMASK_MAX + 1];
    int pos[NQ_BITMASK_MAX];
};

static void bits_init(void *state, const void *problem)
{
    struct nq_bits *s = state;
    const struct nq_problem *p = problem;
    s->n = p->n;
    s->mirror = p->mirror;
    s->d4 = p->d4;
    s->full = low_bits(p->n);
    s->half = low_bits(mirror_limit(p->n));
}

static int bits_select(const void *state)
{
    const struct nq_bits *s = state;
    return s->row < s->n ? s->row : CS_NONE;
}

static void bits_first(void *state, int r, uint64_t *cursor)
{
    struct nq_bits *s = state;
    uint64_t avail = s->full & ~(s->cols[r] | s->d1[r] | s->d2[r]);
    if (r == 0 && s->mirror)
        avail &= s->half;
    s->checks++;
    *cursor = avail;
}

static bool bits_next(void *state, int r, uint64_t *cursor, int *value)
{
    (void)state;
    (void)r;
    if (!*cursor)
        return false;
    *value = __builtin_ctzll(*cursor);
    *cursor &= *cursor - 1;
    return true;
}

static void bits_apply(void *state, int r, int c)
{
    struct nq_bits *s = state;
    uint64_t bit = UINT64_C(1) << c;
    s->cols[r + 1] = s->cols[r] | bit;
    s->d1[r + 1] = (s->d1[r] | bit) << 1;
    s->d2[r + 1] = (s->d2[r] | bit) >> 1;
    s->pos[r] = c;
    s->row = r + 1;
}

static void bits_undo(void *state, int r, int c)
{
    struct nq_bits *s = state;
    (void)c;
    s->row = r;
}

/* Forward checking: row row + k sees the diagonals shifted k more times. */
static bool bits_prune(void *state)
{
    struct nq_bits *s = state;
    int r = s->row;
    for (int k = 0; k < s->n - r; k++) {
        s->checks++;
        if (!(s->full & ~(s->cols[r] | s->d1[r] << k | s->d2[r] >> k)))
            return true;
    }
    return false;
}

static uint64_t bits_weight(const void *state, int r, int c)
{
    const struct nq_bits *s = state;
    return mirror_weight(r == 0, s->mirror, s->n, c);
}

static bool bits_goal(void *state)
{
    struct nq_bits *s = state;
    if (s->d4)
        s->unique += is_canonical(s->pos, s->n);
    return true;
}

static void bits_collect(void *state, struct cs_stats *into)
{
    struct nq_bits *s = state;
    into->checks += s->checks;
    into->unique += s->unique;
    s->checks = s->unique = 0;
}

static void bits_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct nq_bits *s = state;
    emit_board(s->pos, s->n, k, out);
}

/* Row row + k sees the diagonals shifted k more times (as in prune). */
static uint64_t bits_taken(const struct nq_bits *s, int r)
{
    int k = r - s->row;
    return s->cols[s->row] | s->d1[s->row] << k | s->d2[s->row] >> k;
}

static bool bits_attacked(const void *state, int r, int c)
{
    return bits_taken(state, r) >> c & 1;
}

static void bits_describe(const void *state, struct cs_view *out)
{
    const struct nq_bits *s = state;
    int r = s->row;
    uint64_t rows = low_bits(r < 64 ? r : 64);
    uint64_t avail = s->full & ~(s->cols[r] | s->d1[r] | s->d2[r]);
    if (r == 0 && s->mirror)
        avail &= s->half;
    nq_view_board(out, s->pos, s->n, rows, s, bits_attacked);
    nq_view_queens(out, s->pos, s->n, rows);
    nq_view_bits(out, "cols", 0, s->cols[r] & s->full, s->n);
    nq_view_bits(out, "d1", 0, s->d1[r] & s->full, s->n);
    nq_view_bits(out, "d2", 0, s->d2[r] & s->full, s->n);
    nq_view_bits(out, "avail", 0, r < s->n ? avail : 0, s->n);
}

static int bits_search(struct cs_run *run, void *state);
static int bits_forward_search(struct cs_run *run, void *state);

#define BITS_HOOKS                                                             \
    .state_size = sizeof(struct nq_bits), .init = bits_init,                   \
    .select = bits_select, .first = bits_first, .next = bits_next,             \
    .apply = bits_apply, .undo = bits_undo, .weight = bits_weight,             \
    .collect = bits_collect, .emit = bits_emit, .describe = bits_describe,   \
    .var_name = nq_var_name, .value_name = nq_value_name

static const struct cs_hooks bitmask_hooks = {
    BITS_HOOKS,
    .search = bits_search,
};

/* d4 without the kernel: the plain tree, each solution tested at the goal. */
static const struct cs_hooks bitmask_d4_hooks = {
    BITS_HOOKS,
    .goal = bits_goal,
};

static const struct cs_hooks bitmask_forward_d4_hooks = {
    BITS_HOOKS,
    .prune = bits_prune,
    .goal = bits_goal,
};

static const struct cs_hooks bitmask_forward_hooks = {
    BITS_HOOKS,
    .prune = bits_prune,
    .search = bits_forward_search,
};

static int bits_search(struct cs_run *run, void *state)
{
    return cs_dfs(run, state, &bitmask_hooks);
}

static int bits_forward_search(struct cs_run *run, void *state)
{
    return cs_dfs(run, state, &bitmask_forward_hooks);
}

/* ---- count: the bitmask state slimmed down for counting ---------------- */

/* For a count nothing is shown, so no positions are kept and the state is a
 * handful of scalars.  It is copied rather than undone (its copy hook moves
 * four words and leaves the checks counter alone), and the search function
 * below keeps it in a local, so the compiler can hold it in registers: the
 * engine then walks the tree with no memory round trip between a queen's
 * placement and the next row's candidates, as a hand-written recursion does. */
struct nq_count {
    int n, row;
    bool mirror;
    uint64_t full, half, cols, d1, d2, checks;
};

static void count_init(void *state, const void *problem)
{
    struct nq_count *s = state;
    const struct nq_problem *p = problem;
    s->n = p->n;
    s->mirror = p->mirror;
    s->full = low_bits(p->n);
    s->half = low_bits(mirror_limit(p->n));
}

static int count_select(const void *state)
{
    const struct nq_count *s = state;
    return s->row < s->n ? s->row : CS_NONE;
}

static void count_first(void *state, int r, uint64_t *cursor)
{
    struct nq_count *s = state;
    uint64_t avail = s->full & ~(s->cols | s->d1 | s->d2);
    if (r == 0 && s->mirror)
        avail &= s->half;
    s->checks++;
    *cursor = avail;
}

static void count_apply(void *state, int r, int c)
{
    struct nq_count *s = state;
    uint64_t bit = UINT64_C(1) << c;
    s->cols |= bit;
    s->d1 = (s->d1 | bit) << 1;
    s->d2 = (s->d2 | bit) >> 1;
    s->row = r + 1;
}

static void count_copy(void *dst, const void *src)
{
    struct nq_count *d = dst;
    const struct nq_count *s = src;
    d->row = s->row;
    d->cols = s->cols;
    d->d1 = s->d1;
    d->d2 = s->d2;
}

static bool count_prune(void *state)
{
    struct nq_count *s = state;
    for (int k = 0; k < s->n - s->row; k++) {
        s->checks++;
        if (!(s->full & ~(s->cols | s->d1 << k | s->d2 >> k)))
            return true;
    }
    return false;
}

static uint64_t count_weight(const void *state, int r, int c)
{
    const struct nq_count *s = state;
    return mirror_weight(r == 0, s->mirror, s->n, c);
}

static void count_collect(void *state, struct cs_stats *into)
{
    struct nq_count *s = state;
    into->checks += s->checks;
    s->checks = 0;
}

static int count_search(struct cs_run *run, void *state);
static int count_forward_search(struct cs_run *run, void *state);

#define COUNT_HOOKS                                                            \
    .state_size = sizeof(struct nq_count), .init = count_init,                 \
    .copy = count_copy, .select = count_select, .first = count_first,          \
    .next = bits_next, .apply = count_apply, .weight = count_weight,           \
    .collect = count_collect

static const struct cs_hooks count_hooks = {
    COUNT_HOOKS,
    .search = count_search,
};

static const struct cs_hooks count_forward_hooks = {
    COUNT_HOOKS,
    .prune = count_prune,
    .search = count_forward_search,
};

/* The state in a local whose address never escapes the inlined engine. */
static int count_search(struct cs_run *run, void *state)
{
    struct nq_count local = *(struct nq_count *)state;
    int status = cs_dfs(run, &local, &count_hooks);
    *(struct nq_count *)state = local;
    return status;
}

static int count_forward_search(struct cs_run *run, void *state)
{
    struct nq_count local = *(struct nq_count *)state;
    int status = cs_dfs(run, &local, &count_forward_hooks);
    *(struct nq_count *)state = local;
    return status;
}

/* ---- absolute: diagonal masks indexed by r + c and c - r + n - 1 -------- */

/* 2n - 1 diagonals need up to 127 bits for n = 64. */
__extension__ typedef unsigned __int128 nq_diag;

struct nq_abs {
    int n, placed;
    bool mirror, forward, d4;
    uint64_t full, half, checks, unique;
    uint64_t cols, rows; /* rows: the rows that have a queen */
    nq_diag d1, d2;      /* bit r + c, bit c - r + n - 1 */
    int pos[NQ_BITMASK_MAX];
};

static uint64_t abs_avail(const struct nq_abs *s, int r)
{
    uint64_t taken = s->cols | (uint64_t)(s->d1 >> r) |
                     (uint64_t)(s->d2 >> (s->n - 1 - r));
    uint64_t avail = s->full & ~taken;
    return s->placed == 0 && s->mirror ? avail & s->half : avail;
}

static void abs_init(void *state, const void *problem)
{
    struct nq_abs *s = state;
    const struct nq_problem *p = problem;
    s->n = p->n;
    s->mirror = p->mirror;
    s->forward = p->forward;
    s->d4 = p->d4;
    s->full = low_bits(p->n);
    s->half = low_bits(mirror_limit(p->n));
}

static int abs_select(const void *state)
{
    const struct nq_abs *s = state;
    return s->placed < s->n ? __builtin_ctzll(~s->rows) : CS_NONE;
}

static int abs_domain_size(void *state, int r)
{
    struct nq_abs *s = state;
    if (s->rows >> r & 1)
        return -1;
    s->checks++;
    return __builtin_popcountll(abs_avail(s, r));
}

static void abs_first(void *state, int r, uint64_t *cursor)
{
    struct nq_abs *s = state;
    s->checks++;
    *cursor = abs_avail(s, r);
}

static void abs_apply(void *state, int r, int c)
{
    struct nq_abs *s = state;
    s->cols |= UINT64_C(1) << c;
    s->d1 |= (nq_diag)1 << (r + c);
    s->d2 |= (nq_diag)1 << (c - r + s->n - 1);
    s->rows |= UINT64_C(1) << r;
    s->pos[r] = c;
    s->placed++;
}

static void abs_undo(void *state, int r, int c)
{
    struct nq_abs *s = state;
    s->cols &= ~(UINT64_C(1) << c);
    s->d1 &= ~((nq_diag)1 << (r + c));
    s->d2 &= ~((nq_diag)1 << (c - r + s->n - 1));
    s->rows &= ~(UINT64_C(1) << r);
    s->pos[r] = 0;
    s->placed--;
}

static bool abs_prune(void *state)
{
    struct nq_abs *s = state;
    if (!s->forward)
        return false;
    for (int r = 0; r < s->n; r++) {
        if (s->rows >> r & 1)
            continue;
        s->checks++;
        if (!abs_avail(s, r))
            return true;
    }
    return false;
}

static uint64_t abs_weight(const void *state, int r, int c)
{
    const struct nq_abs *s = state;
    (void)r;
    return mirror_weight(s->placed == 0, s->mirror, s->n, c);
}

static bool abs_goal(void *state)
{
    struct nq_abs *s = state;
    if (s->d4)
        s->unique += is_canonical(s->pos, s->n);
    return true;
}

static void abs_collect(void *state, struct cs_stats *into)
{
    struct nq_abs *s = state;
    into->checks += s->checks;
    into->unique += s->unique;
    s->checks = s->unique = 0;
}

static void abs_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct nq_abs *s = state;
    emit_board(s->pos, s->n, k, out);
}

static bool abs_attacked(const void *state, int r, int c)
{
    const struct nq_abs *s = state;
    return !(s->full & ~(s->cols | (uint64_t)(s->d1 >> r) |
                         (uint64_t)(s->d2 >> (s->n - 1 - r))) >>
             c & 1);
}

static void abs_describe(const void *state, struct cs_view *out)
{
    const struct nq_abs *s = state;
    nq_view_board(out, s->pos, s->n, s->rows, s, abs_attacked);
    nq_view_queens(out, s->pos, s->n, s->rows);
    nq_view_bits(out, "rows", 0, s->rows, s->n);
    nq_view_bits(out, "cols", 0, s->cols, s->n);
    nq_view_bits(out, "d1", (uint64_t)(s->d1 >> 64), (uint64_t)s->d1,
              2 * s->n - 1);
    nq_view_bits(out, "d2", (uint64_t)(s->d2 >> 64), (uint64_t)s->d2,
              2 * s->n - 1);
}

static int abs_search(struct cs_run *run, void *state);

static const struct cs_hooks absolute_hooks = {
    .state_size = sizeof(struct nq_abs),
    .init = abs_init,
    .select = abs_select,
    .domain_size = abs_domain_size,
    .first = abs_first,
    .next = bits_next,
    .apply = abs_apply,
    .undo = abs_undo,
    .prune = abs_prune,
    .goal = abs_goal,
    .weight = abs_weight,
    .collect = abs_collect,
    .emit = abs_emit,
    .describe = abs_describe,
    .var_name = nq_var_name,
    .value_name = nq_value_name,
    .search = abs_search,
};

static int abs_search(struct cs_run *run, void *state)
{
    return cs_dfs(run, state, &absolute_hooks);
}

const struct cs_hooks *nq_hooks(enum nq_state state, const struct nq_problem *p)
{
    switch (state) {
    case NQ_ARRAY:
        return &array_hooks;
    case NQ_COUNT:
        return p->forward ? &count_forward_hooks : &count_hooks;
    case NQ_BITMASK:
        if (p->d4)
            return p->forward ? &bitmask_forward_d4_hooks : &bitmask_d4_hooks;
        return p->forward ? &bitmask_forward_hooks : &bitmask_hooks;
    case NQ_ABSOLUTE:
        return &absolute_hooks;
    }
    return NULL;
}

/* ---- the model: options and set-up -------------------------------------- */

static const char *const state_names[] = {"array", "bitmask", "set", NULL};
static const char *const formulation_names[] = {"row", "cell", NULL};
static const char *const search_names[] = {"backtrack", "brute-force", NULL};
static const char *const symmetry_names[] = {"none", "mirror", "d4", NULL};
static const char *const prune_names[] = {"none", "forward", NULL};
static const char *const kernel_names[] = {"auto", "fast", "generic", NULL};
enum { SYM_NONE, SYM_MIRROR, SYM_D4 };
enum { KERNEL_AUTO, KERNEL_FAST, KERNEL_GENERIC };

static const struct cs_option nq_options[] = {
    {.key = "params.n", .type = CS_OPT_INT, .def = "8", .min = 1,
     .max = NQ_ARRAY_MAX, .help = "board size (queens, rows, columns)"},
    {.key = "strategy.state", .type = CS_OPT_ENUM, .def = "bitmask",
     .choices = state_names,
     .help = "array: three boolean arrays; bitmask: three integer masks; "
             "set: a hash set of occupied lines (formulation row only: "
             "cell and brute-force keep their own)"},
    {.key = "strategy.formulation", .type = CS_OPT_ENUM, .def = "row",
     .choices = formulation_names,
     .help = "row: a queen per row; cell: each queen on a later square"},
    {.key = "strategy.prune_skipped_rows", .type = CS_OPT_BOOL,
     .def = "false",
     .help = "formulation cell: cut a branch once a row is passed empty"},
    {.key = "strategy.search", .type = CS_OPT_ENUM, .def = "backtrack",
     .choices = search_names,
     .help = "brute-force: all n! permutations, each tested at the leaf"},
    {.key = "strategy.symmetry", .type = CS_OPT_ENUM, .def = "d4",
     .choices = symmetry_names,
     .help = "mirror: first row searches the left half, counted twice; "
             "d4: all 8 symmetries, also counts unique solutions"},
    {.key = "strategy.prune", .type = CS_OPT_ENUM, .def = "none",
     .choices = prune_names,
     .help = "forward: after each queen every open row keeps a free column"},
    {.key = "strategy.kernel", .type = CS_OPT_ENUM, .def = "auto",
     .choices = kernel_names,
     .help = "count with the fast border-constellation kernel, or the "
             "generic engine; auto: fast where it applies"},
    {.key = NULL},
};

/* The fast kernel counts with d4 over the plain bitmask tree; anything that
 * changes the tree, or needs to stop inside it, is the engine's. */
static const char *fast_conflict(const struct cs_config *cfg)
{
    if (cs_config_enum(cfg, "task") != CS_TASK_COUNT)
        return "task count";
    if (cs_config_int(cfg, "limits.nodes") || cs_config_int(cfg, "limits.solutions"))
        return "no node or solution limit";
    if (cs_config_enum(cfg, "strategy.state") != 1)
        return "state bitmask";
    if (cs_config_enum(cfg, "strategy.select") != CS_SELECT_IN_ORDER)
        return "select in-order";
    if (cs_config_enum(cfg, "strategy.prune") != 0)
        return "prune none";
    if (cs_config_enum(cfg, "strategy.symmetry") != SYM_D4)
        return "symmetry d4";
    if (cs_config_traced(cfg))
        return "a run without traces (output.trace, trace_html, tree)";
    return NULL;
}

static void free_problem(void *data)
{
    struct nq_problem *p = data;
    if (p)
        nq_d4_free(p->kernel);
    free(p);
}

static bool count_unit(const void *data, uint64_t unit,
                       volatile sig_atomic_t *stop, struct cs_stats *out)
{
    const struct nq_problem *p = data;
    return nq_d4_count_unit(p->kernel, unit, stop, out);
}

static int nq_setup(const struct cs_config *cfg, struct cs_problem *out,
                    struct cs_error *err)
{
    int formulation = nq_formulation_setup(cfg, out, err);
    if (formulation <= 0)
        return formulation; /* set, cell or brute force: formulations.c */
    int n = (int)cs_config_int(cfg, "params.n");
    bool mrv = cs_config_enum(cfg, "strategy.select") == CS_SELECT_MRV;
    bool hashed = cs_config_enum(cfg, "strategy.state") == 2; /* set */
    enum nq_state state = cs_config_enum(cfg, "strategy.state") == 0 || hashed
                              ? NQ_ARRAY
                              : mrv ? NQ_ABSOLUTE : NQ_BITMASK;
    /* a count with nothing to test at the leaves runs on the slim state,
     * unless traced: the trace shows the queens, which it does not keep */
    if (state == NQ_BITMASK && cs_config_enum(cfg, "task") == CS_TASK_COUNT &&
        cs_config_enum(cfg, "strategy.symmetry") != SYM_D4 &&
        !cs_config_traced(cfg))
        state = NQ_COUNT;
    int limit = state == NQ_ARRAY ? NQ_ARRAY_MAX : NQ_BITMASK_MAX;
    if (n > limit)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "n = %d is beyond the limit of the %s state "
                           "(at most %d)",
                           n, state == NQ_ARRAY ? "array" : "bitmask", limit);
    if (cs_config_enum(cfg, "task") == CS_TASK_COUNT && n > NQ_D4_MAX)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "counting n = %d could overflow 64-bit counts "
                           "(at most %d); task solve works up to %d",
                           n, NQ_D4_MAX, limit);
    int kernel = cs_config_enum(cfg, "strategy.kernel");
    const char *conflict = fast_conflict(cfg);
    if (kernel == KERNEL_FAST && conflict)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.kernel"),
                           "kernel fast needs %s", conflict);
    bool fast = kernel != KERNEL_GENERIC && !conflict && n >= NQ_D4_MIN;

    struct nq_problem *p = cs_xcalloc(1, sizeof *p);
    int symmetry = cs_config_enum(cfg, "strategy.symmetry");
    p->n = n;
    p->mirror = symmetry == SYM_MIRROR;
    p->d4 = symmetry == SYM_D4;
    p->forward = cs_config_enum(cfg, "strategy.prune") == 1;
    p->hashed = hashed;
    out->hooks = nq_hooks(state, p);
    out->data = p;
    out->free_data = free_problem;
    out->nvars = n;
    out->reports_unique = p->d4;
    out->kernel = "generic";
    if (fast) {
        /* small boards (n < 6) have no border constellations worth the
         * name: they stay with the generic search */
        p->kernel = cs_xcalloc(1, sizeof *p->kernel);
        nq_d4_init(p->kernel, n);
        out->kernel = "fast";
        out->units = p->kernel->count;
        out->count_unit = count_unit;
    }
    return 0;
}

const struct cs_model cs_nqueens_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "nqueens",
    .summary = "place n queens on an n x n board, none attacking another",
    .options = nq_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE),
    .setup = nq_setup,
};
