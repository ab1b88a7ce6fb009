/* fast9.c - plain 9 x 9 Sudoku, digit-major, searched by the engine.
 *
 * The state keeps, for each digit d and band b (three rows of the grid),
 * the cells of the band where d may still go: cand[3d + b], bit 9r + c for
 * the band's row r and column c.  A digit meets each row of a band once and
 * each of the band's boxes once, so its rows x boxes pattern must hold a
 * permutation; a table keeps the cells that lie on one (hidden singles in
 * boxes, pointing and claiming at a stroke), and a row left with one cell
 * places the digit there.  Naked singles come from counting the nine
 * digits' masks bit-parallel; down the columns, a digit with one cell left
 * in a column goes there, and the same permutation argument over a stack's
 * bands and columns strikes columns: the general path's full fixpoint.
 * On top of it the triads (fast9_triads.c), which also choose the branch:
 * a digit's configuration in a band or stack.  Propagation runs in prune
 * and places cells of its own, so the engine copies the state instead of
 * undoing.  Invariant at every fixpoint: nothing to do, each open cell has
 * two candidates or more, each placed cell exactly its digit.  On AVX-512
 * the same fixpoint (not the triads) runs on vectors, fast9_lanes.c; the
 * loop here is the scalar path, for processors without it.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "csearch/dfs.h"
#include "sudoku/fast9.h"
#include "sudoku/fast9_impl.h"

uint8_t sdk_f9_boxes_of_row[512];
/* rows x boxes pattern (bit 3r + k: row r reaches box k) -> the band cells
 * on some permutation the pattern holds. */
static uint32_t permutable[512];
/* 9 bits of a band row -> the same bits if exactly one is set, else 0. */
static uint16_t lone[512];
/* the same for a stack (three columns): bands x columns (bit 3b + j) ->
 * the pairs on some permutation, as bits 9b + j */
static uint32_t stack_keep[512];
/* the band's cells sharing a row or a box with cell i, i itself excluded */
static uint32_t band_peers[27];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
/* the instruction set propagation runs on, one for the process (the
 * processor and CSEARCH_ISA decide it): fast9_lanes.c where true */
static bool use_lanes;
static const char *isa_reason, *isa_error;
static char isa_message[160];

static bool lanes_faster(void);

/* AVX-512 where the processor has it and it is measured faster than the
 * scalar path here (1.4x on AMD Zen 5, docs/performance.md; Zen 4 runs
 * 512-bit instructions as two halves), unless CSEARCH_ISA names a set:
 * avx512, or avx2 and scalar, both the scalar path here. */
static void choose_isa(void)
{
    bool avx512 = false;
#if SDK_F9_LANES
    __builtin_cpu_init();
    avx512 = __builtin_cpu_supports("avx512f");
#endif
    const char *v = getenv("CSEARCH_ISA");
    isa_reason = "only";
    use_lanes = false;
    if (avx512 && (!v || !*v)) {
        use_lanes = lanes_faster();
        isa_reason = "measured";
    }
    if (!v || !*v)
        return;
    isa_reason = "CSEARCH_ISA";
    if (!strcmp(v, "avx512") && !avx512) {
        snprintf(isa_message, sizeof isa_message,
                 "CSEARCH_ISA=avx512: this processor lacks avx512f (the "
                 "Sudoku kernel runs scalar)");
        isa_error = isa_message;
    } else if (strcmp(v, "avx512") && strcmp(v, "avx2") &&
               strcmp(v, "scalar")) {
        snprintf(isa_message, sizeof isa_message,
                 "CSEARCH_ISA=%.40s: unknown instruction set (avx512, avx2 or "
                 "scalar)",
                 v);
        isa_error = isa_message;
    }
    use_lanes = avx512 && !strcmp(v, "avx512");
}

static void build_tables(void)
{
    for (unsigned x = 0; x < 512; x++) {
        sdk_f9_boxes_of_row[x] =
            (uint8_t)((x & 07 ? 1 : 0) | (x & 070 ? 2 : 0) |
                      (x & 0700 ? 4 : 0));
        lone[x] = (uint16_t)(x && !(x & (x - 1)) ? x : 0);
        uint32_t cells = 0;
        for (int p = 0; p < 6; p++) {
            bool fits = true;
            for (int r = 0; r < 3; r++)
                fits = fits && (x >> (3 * r + sdk_f9_perms[p][r]) & 1);
            if (fits)
                for (int r = 0; r < 3; r++)
                    cells |= UINT32_C(7) << (9 * r + 3 * sdk_f9_perms[p][r]);
        }
        permutable[x] = cells;
        unsigned pairs = 0;
        for (int p = 0; p < 6; p++) {
            unsigned perm = 0;
            for (int r = 0; r < 3; r++)
                perm |= 1u << (3 * r + sdk_f9_perms[p][r]);
            if ((x & perm) == perm)
                for (int r = 0; r < 3; r++)
                    pairs |= 1u << (9 * r + sdk_f9_perms[p][r]);
        }
        stack_keep[x] = pairs;
    }
    for (int i = 0; i < 27; i++) {
        uint32_t peers = 0;
        for (int j = 0; j < 27; j++)
            if (j != i && (j / 9 == i / 9 || j % 9 / 3 == i % 9 / 3))
                peers |= UINT32_C(1) << j;
        band_peers[i] = peers;
    }
    sdk_f9_build_triad_tables();
    choose_isa();
}

const char *sdk_fast9_prepare(void)
{
    pthread_once(&tables_once, build_tables);
    return isa_error;
}

void sdk_fast9_name_isa(struct cs_problem *out)
{
    out->isa = use_lanes ? "avx512" : "scalar";
    out->isa_reason = isa_reason;
}

/* Take cells of band b from every digit (they hold other digits now):
 * the band's nine words, eight of them two vectors at a time. */
static void strike_band(struct f9_state *s, int b, uint32_t cells)
{
    uint32_t *band = &s->cand[IX(0, b)];
    uint32_t todo; /* a local: the stores to cand cannot touch it */
#ifdef __SSE2__
    const __m128i c = _mm_set1_epi32((int)cells), zero = _mm_setzero_si128();
    __m128i a0 = _mm_loadu_si128((const __m128i *)band);
    __m128i a1 = _mm_loadu_si128((const __m128i *)(band + 4));
    _mm_storeu_si128((__m128i *)band, _mm_andnot_si128(c, a0));
    _mm_storeu_si128((__m128i *)(band + 4), _mm_andnot_si128(c, a1));
    unsigned kept =
        (unsigned)_mm_movemask_ps(
            _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(a0, c), zero))) |
        (unsigned)_mm_movemask_ps(
            _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(a1, c), zero)))
            << 4;
    todo = ~kept & 255;
#else
    todo = 0;
    for (int e = 0; e < 8; e++) {
        todo |= (uint32_t)((band[e] & cells) != 0) << e;
        band[e] &= ~cells;
    }
#endif
    todo |= (uint32_t)((band[8] & cells) != 0) << 8;
    band[8] &= ~cells;
    s->todo |= todo << 9 * b;
}

/* Take cells of every band from digit d (the same columns in each). */
static void strike_digit(struct f9_state *s, int d, uint32_t cells)
{
    uint32_t todo = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t old = s->cand[IX(d, k)];
        s->cand[IX(d, k)] = old & ~cells;
        todo |= (uint32_t)((old & cells) != 0) << 9 * k;
    }
    s->todo |= todo << d;
}

/* Put digit d + 1 in cell i of band b: the cell loses its other digits
 * (unless it is known to have none: a naked single), the digit its row, box
 * and column. */
static CS_ALWAYS_INLINE void place_digit(struct f9_state *s, int b, int i,
                                         int d, bool naked)
{
    const uint32_t bit = UINT32_C(1) << i;
    const int x = IX(d, b);
    if (!(s->cand[x] & bit))
        s->dead = 1;
    if (!naked)
        strike_band(s, b, bit);
    strike_digit(s, d, COLUMN << (i % 9));
    strike(s, x, band_peers[i]);
    s->cand[x] |= bit;
    s->open[b] &= ~bit;
}

static void place(struct f9_state *s, int b, int i, int d)
{
    place_digit(s, b, i, d, false);
}

/* Keep the cells of digit d's band b on a rows x boxes permutation and
 * place the digit in every row left with one cell.  False on a
 * contradiction. */
static bool reduce(struct f9_state *s, int d, int b)
{
    const int x = IX(d, b);
    uint32_t a = s->cand[x];
    a &= permutable[band_pattern(a)];
    if (!a)
        return false;
    s->columns_todo |= UINT32_C(1) << d;
    uint32_t placed = (lone[a & 511] | (uint32_t)lone[a >> 9 & 511] << 9 |
                       (uint32_t)lone[a >> 18] << 18) &
                      s->open[b];
    if (placed) {
        /* the permutation already cleared the cells' rows and boxes; the
         * loops clear cand[x] too, which is put back after them */
        uint32_t cols = (placed | placed >> 9 | placed >> 18) & 511;
        s->open[b] &= ~placed;
        strike_band(s, b, placed);
        strike_digit(s, d, cols * COLUMN);
    }
    s->cand[x] = a;
    s->todo &= ~(UINT32_C(1) << x);
    return true;
}

/* Place every open cell left with one candidate: how many, or -1 when an
 * open cell has none. */
static int naked_singles(struct f9_state *s)
{
    int placed = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t once = 0, twice = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t m = s->cand[IX(d, b)];
            twice |= once & m;
            once |= m;
        }
        s->counters.checks++;
        if (s->open[b] & ~once)
            return -1;
        uint32_t singles = s->open[b] & ~twice;
        while (singles) {
            int i = __builtin_ctz(singles);
            uint32_t bit = UINT32_C(1) << i;
            singles &= singles - 1;
            int d = 0;
            while (d < 9 && !(s->cand[IX(d, b)] & bit))
                d++;
            if (d == 9)
                return -1; /* an earlier single took its last digit */
            place_digit(s, b, i, d, true);
            placed++;
        }
    }
    return placed;
}

/* Down the columns, digit by digit: a column with one cell left for the
 * digit gets it (a hidden single); failing that, in each stack the digit
 * takes one column per band, a different one in each, so a band keeps only
 * the columns on a bands x columns permutation (locked candidates).  How
 * many cells it placed, or -1 when a column has no cell for a digit;
 * *struck tells whether a band lost candidates. */
static int column_pass(struct f9_state *s, bool *struck)
{
    int placed = 0;
    for (; s->columns_todo; s->columns_todo &= s->columns_todo - 1) {
        const int d = __builtin_ctz(s->columns_todo);
        const uint32_t digit[3] = {s->cand[IX(d, 0)], s->cand[IX(d, 1)],
                                   s->cand[IX(d, 2)]};
        uint32_t once = 0, twice = 0, cols[3];
        for (int b = 0; b < 3; b++) {
            uint32_t a = digit[b], r0 = a & 511, r1 = a >> 9 & 511,
                     r2 = a >> 18;
            cols[b] = r0 | r1 | r2;
            twice |= (r0 & r1) | (r2 & (r0 | r1)) | (once & cols[b]);
            once |= cols[b];
        }
        s->counters.checks++;
        if (once != 511)
            return -1;
        uint32_t lone_cells = (once & ~twice) * COLUMN;
        int before = placed;
        for (int b = 0; b < 3; b++) {
            uint32_t cells = s->cand[IX(d, b)] & lone_cells & s->open[b];
            for (; cells; cells &= cells - 1, placed++)
                place(s, b, __builtin_ctz(cells), d);
        }
        if (placed != before)
            continue;      /* the stacks wait for the next pass */
        uint32_t keep = 0; /* bit 9b + c: band b keeps column c */
        for (int k = 0; k < 9; k += 3)
            keep |= stack_keep[(cols[0] >> k & 7) | (cols[1] >> k & 7) << 3 |
                               (cols[2] >> k & 7) << 6]
                    << k;
        for (int b = 0; b < 3; b++) {
            uint32_t kb = keep >> 9 * b & 511;
            if (cols[b] & ~kb) {
                strike(s, IX(d, b), ~(kb * COLUMN));
                *struck = true;
            }
        }
    }
    return placed;
}

/* The fixpoint of all but the triads: -1 on a contradiction. */
static int propagate(struct f9_state *s)
{
    for (;;) {
        while (s->todo) {
            int x = __builtin_ctz(s->todo);
            s->counters.checks++;
            if (!reduce(s, x % 9, x / 9))
                return -1;
        }
        int placed = naked_singles(s);
        if (placed < 0)
            return -1;
        if (placed)
            continue;
        bool struck = false;
        placed = column_pass(s, &struck);
        if (placed < 0)
            return -1;
        if (!placed && !struck)
            return 0;
    }
}

static bool f9_prune(void *state)
{
    struct f9_state *s = state;
    if (s->dead)
        return true;
    for (;;) {
#if SDK_F9_LANES
        if (use_lanes ? sdk_f9_propagate_lanes(s) < 0 : propagate(s) < 0)
            return true;
#else
        if (propagate(s) < 0)
            return true;
#endif
        int triads = sdk_f9_triads(s);
        if (triads <= 0)
            return triads < 0;
    }
}

/* The givens placed all at once: a digit leaves the rows, columns and boxes
 * of its givens and the cells of the other givens.  The model checked that
 * no unit holds a digit twice. */
static void f9_init(void *state, const void *problem)
{
    struct f9_state *s = state;
    const struct sdk_fast9 *p = problem;
    /* at[b][g]: band b's cells holding digit g (g = 0: the blanks), filled
     * without a branch per cell */
    uint32_t at[3][10] = {{0}}, given[3];
    for (int b = 0; b < 3; b++) {
        const unsigned char *cell = p->givens + 27 * b;
        for (int i = 0; i < 27; i++)
            at[b][cell[i]] |= UINT32_C(1) << i;
        given[b] = BAND_CELLS & ~at[b][0];
    }
    for (int d = 0; d < 9; d++) {
        const uint32_t mine[3] = {at[0][d + 1], at[1][d + 1], at[2][d + 1]};
        uint32_t all = mine[0] | mine[1] | mine[2];
        uint32_t columns = ((all | all >> 9 | all >> 18) & 511) * COLUMN;
        for (int b = 0; b < 3; b++) {
            uint32_t gone = columns | given[b];
            for (int k = 0; k < 3; k++) {
                if (mine[b] >> (9 * k) & 511)
                    gone |= UINT32_C(511) << (9 * k); /* its row */
                if (mine[b] & (UINT32_C(7) << (3 * k)) * COLUMN)
                    gone |= (UINT32_C(7) << (3 * k)) * COLUMN; /* its box */
            }
            s->cand[IX(d, b)] = (BAND_CELLS & ~gone) | mine[b];
        }
    }
    for (int b = 0; b < 3; b++)
        s->open[b] = BAND_CELLS & ~given[b];
    s->todo = (UINT32_C(1) << 27) - 1; /* every band gets reduced */
    s->branch = CS_NONE;
}

/* The digits of cell c as a mask (bit d = digit d + 1). */
static uint32_t digits_of(const struct f9_state *s, int c)
{
    const int b = c / 27, i = c % 27;
    uint32_t m = 0;
    for (int d = 0; d < 9; d++)
        m |= (s->cand[IX(d, b)] >> i & 1) << d;
    return m;
}

/* The open cell with the fewest candidates, the first in row-major order
 * on ties - the cell the engine's MRV picks, found by counting all cells at
 * once bit-sliced: the branch when every configuration is settled (which a
 * fixpoint with open cells should not see). */
static int choose_cell(const struct f9_state *s)
{
    /* after prune every open cell has two candidates or more: look for
     * two first, counting only to three */
    uint32_t pairs[3], fewer = 0;
    for (int b = 0; b < 3; b++) {
        uint32_t once = 0, twice = 0, thrice = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t m = s->cand[IX(d, b)];
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        fewer |= s->open[b] & ~twice;
        pairs[b] = s->open[b] & twice & ~thrice;
    }
    if (!fewer)
        for (int b = 0; b < 3; b++)
            if (pairs[b])
                return 27 * b + __builtin_ctz(pairs[b]);
    uint32_t bit0[3], bit1[3], bit2[3], bit3[3];
    for (int b = 0; b < 3; b++) {
        uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t m = s->cand[IX(d, b)], carry = c0 & m;
            c0 ^= m;
            m = c1 & carry;
            c1 ^= carry;
            carry = c2 & m;
            c2 ^= m;
            c3 |= carry;
        }
        bit0[b] = c0;
        bit1[b] = c1;
        bit2[b] = c2;
        bit3[b] = c3;
    }
    for (unsigned k = 0; k <= 9; k++)
        for (int b = 0; b < 3; b++) {
            uint32_t m = s->open[b] & (k & 1 ? bit0[b] : ~bit0[b]) &
                         (k & 2 ? bit1[b] : ~bit1[b]) &
                         (k & 4 ? bit2[b] : ~bit2[b]) &
                         (k & 8 ? bit3[b] : ~bit3[b]);
            if (m)
                return 27 * b + __builtin_ctz(m);
        }
    return CS_NONE; /* not reached: an open cell has 0 to 9 candidates */
}

/* The model's own order: the configuration the triads chose. */
static int f9_select(const void *state)
{
    const struct f9_state *s = state;
    if (!(s->open[0] | s->open[1] | s->open[2]))
        return CS_NONE;
    return s->branch != CS_NONE ? s->branch : choose_cell(s);
}

static int f9_domain_size(void *state, int c)
{
    if (c >= F9_CELLS)
        return -1;
    struct f9_state *s = state;
    if (!(s->open[c / 27] >> (c % 27) & 1))
        return -1;
    s->counters.checks++;
    return __builtin_popcount(digits_of(s, c));
}

static void f9_first(void *state, int c, uint64_t *cursor)
{
    struct f9_state *s = state;
    s->counters.checks++;
    *cursor = c < F9_CELLS ? digits_of(s, c)
                           : sdk_f9_configs_of(s, (c - F9_CELLS) / 6,
                                               (c - F9_CELLS) % 6);
}

static void f9_apply(void *state, int c, int v)
{
    if (c < F9_CELLS)
        place(state, c / 27, c % 27, v);
    else
        sdk_f9_fix_config(state, (c - F9_CELLS) / 6, (c - F9_CELLS) % 6, v);
}

static void f9_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct f9_state *s = state;
    char line[10];
    (void)k;
    for (int r = 0; r < 9; r++) {
        for (int col = 0; col < 9; col++) {
            uint32_t m = digits_of(s, 9 * r + col);
            line[col] = m ? (char)('1' + __builtin_ctz(m)) : '.';
        }
        line[9] = '\0';
        cs_board_add(out, line);
    }
}

CS_HOOKS(f9_hooks, .state_size = sizeof(struct f9_state), .init = f9_init,
         .select = f9_select, .domain_size = f9_domain_size, .first = f9_first,
         .next = sdk_next_candidate, .apply = f9_apply, .prune = f9_prune,
         .counters = true, .emit = f9_emit)

const struct cs_hooks *const sdk_fast9_hooks = &f9_hooks;

/* ---- the instruction set, by measurement ----------------------------------
 * A piece of the kernel's real work: hard puzzles (top1465's first four)
 * propagated at the root and one level below it, every value of the
 * variable the kernel branches on, on the path `variant` names (0 the
 * AVX-512 lanes, 1 scalar); cs_fastest times both on this machine. */
static const char *const calibration_puzzles[] = {
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4."
    "9........",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5.."
    ".........",
    "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5.."
    ".........",
    "3.7.4...........918........4.....7.....16.......25..........38..9....5.."
    ".2.6.....",
};
#define CALIBRATION_PUZZLES                                                    \
    (int)(sizeof calibration_puzzles / sizeof *calibration_puzzles)

struct calibration {
    struct sdk_fast9 givens[CALIBRATION_PUZZLES];
    uint64_t sink; /* the pieces' results, so no work is left out */
};

static void calibration_piece(void *ctx, int variant, int size)
{
    struct calibration *cal = ctx;
    const bool was = use_lanes;
    use_lanes = variant == 0;
    for (int i = 0; i < size; i++) {
        struct f9_state root = {.dead = 0}, child;
        f9_init(&root, &cal->givens[i % CALIBRATION_PUZZLES]);
        int var;
        if (f9_prune(&root) || (var = f9_select(&root)) < 0)
            continue;
        uint64_t cursor;
        int value;
        f9_first(&root, var, &cursor);
        while (sdk_next_candidate(&root, var, &cursor, &value)) {
            child = root;
            f9_apply(&child, var, value);
            cal->sink += f9_prune(&child) + child.counters.checks;
        }
    }
    use_lanes = was;
}

static bool lanes_faster(void)
{
#if SDK_F9_LANES
    struct calibration cal = {.sink = 0};
    for (int p = 0; p < CALIBRATION_PUZZLES; p++)
        for (int c = 0; c < 81; c++) {
            char ch = calibration_puzzles[p][c];
            cal.givens[p].givens[c] =
                (unsigned char)(ch >= '1' && ch <= '9' ? ch - '0' : 0);
        }
    return cs_fastest(2, calibration_piece, &cal, 1 << 12, NULL) == 0;
#else
    return false;
#endif
}
