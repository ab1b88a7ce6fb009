/* fast9_triads.c - the fast 9 x 9 kernel's triads and its choice of branch.
 *
 * A minirow (a row's three cells in one box) holds exactly three digits,
 * and so does a minicolumn: where only three digits can go, each of them
 * is there; where three are sure to be there, no other digit is (tdoku's
 * cardinality rules over triads, here on the digit-major bands).  All 54
 * triads of a digit sit in one 64-bit word, so one bit-sliced count over
 * the nine digits settles them all.  The same pass picks the branch at the
 * fixpoint, close to tdoku's: the band or stack with the fewest (digit,
 * triad) pairs left that is not settled yet, in it the digit with the
 * fewest configurations (the permutations its rows x boxes pattern in the
 * band, or bands x columns in the stack, holds); each child fixes one.
 * Each configuration fixed settles one of 54, so the depth stays below 81.
 */
#include "sudoku/fast9_impl.h"

const int sdk_f9_perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

/* pattern -> the permutations it holds (bit p), and how many */
static uint8_t configs[512], config_count[512];
/* the band cells of configuration p: row r in box sdk_f9_perms[p][r] */
static uint32_t config_cells[6];

void sdk_f9_build_triad_tables(void)
{
    unsigned perm[6];
    for (int p = 0; p < 6; p++) {
        perm[p] = 0;
        config_cells[p] = 0;
        for (int r = 0; r < 3; r++) {
            perm[p] |= 1u << (3 * r + sdk_f9_perms[p][r]);
            config_cells[p] |= UINT32_C(7) << (9 * r + 3 * sdk_f9_perms[p][r]);
        }
    }
    for (unsigned x = 0; x < 512; x++) {
        unsigned held = 0, n = 0;
        for (int p = 0; p < 6; p++)
            if ((x & perm[p]) == perm[p]) {
                held |= 1u << p;
                n++;
            }
        configs[x] = (uint8_t)held;
        config_count[x] = (uint8_t)n;
    }
}

/* The 54 triads of a digit in one word: bit 9r + 3k + b for the minirow
 * of band b's row r in box k (whether the digit can go there), bit
 * 32 + 9b + c for column c's minicolumn in band b. */
#define ROWS_K0 UINT64_C(0x1c0e07) /* the minirows of box 0, band by band */
#define ROWS_K1 (ROWS_K0 << 3)
#define ROWS_K2 (ROWS_K0 << 6)
#define SPREAD UINT32_C(0x1249249) /* bit 3m of a band: its minirow m */
#define ALL_TRIADS (UINT64_C(0x7ffffff) | UINT64_C(0x7ffffff) << 32)

/* Band cells -> bit 3m where minirow m holds one. */
static inline uint32_t minirows(uint32_t a)
{
    return (a | a >> 1 | a >> 2) & SPREAD;
}

static inline uint64_t triads_of(const struct f9_state *s, int d)
{
    const uint32_t digit[3] = {s->cand[IX(d, 0)], s->cand[IX(d, 1)],
                               s->cand[IX(d, 2)]};
    uint64_t rows =
        minirows(digit[0]) | minirows(digit[1]) << 1 | minirows(digit[2]) << 2;
    uint64_t cols = columns_of(digit[0]) | columns_of(digit[1]) << 9 |
                    columns_of(digit[2]) << 18;
    return rows | cols << 32;
}

/* A digit's rows x boxes pattern in band b from its triads: bit 3m of
 * (t >> b) & SPREAD is minirow m, and times 21 moves each row's three bits
 * side by side (no two of the products meet: no carries). */
static inline unsigned band_pattern_of(uint64_t t, int b)
{
    uint32_t y = ((uint32_t)(t >> b) & SPREAD) * 21u;
    return (y >> 4 & 7) | (y >> 10 & 070) | (y >> 16 & 0700);
}

/* Its bands x columns pattern in stack j, from the minicolumn bits. */
static inline unsigned stack_pattern_of(uint64_t t, int j)
{
    uint32_t x = (uint32_t)(t >> (32 + 3 * j)) & (uint32_t)ROWS_K0;
    return (x & 7) | (x >> 6 & 070) | (x >> 12 & 0700);
}

/* The triads a digit is sure to be in: a minirow that is the only one of
 * its row (the digit's row goes there), a minicolumn whose column no other
 * band leaves it. */
static inline uint64_t sure_of(uint64_t t)
{
    uint64_t rows = t & 0x7ffffff, cols = t >> 32;
    uint64_t other = ((rows >> 3) & (ROWS_K0 | ROWS_K1)) |
                     ((rows << 6) & ROWS_K2) | ((rows >> 6) & ROWS_K0) |
                     ((rows << 3) & (ROWS_K1 | ROWS_K2));
    uint64_t elsewhere =
        ((cols << 9) | (cols >> 18) | (cols << 18) | (cols >> 9)) & 0x7ffffff;
    return (rows & ~other) | (cols & ~elsewhere) << 32;
}

/* Three digits can go to triad bit p, not all sure yet: each goes there and
 * leaves the rest of its row and box (or column and box). */
static void only_three(struct f9_state *s, const uint64_t open[9], int p)
{
    uint32_t keep[3] = {0, 0, 0}, lines[3] = {0, 0, 0};
    if (p < 32) {
        int r = p / 9, k = p / 3 % 3, b = p % 3;
        keep[b] = UINT32_C(7) << (9 * r + 3 * k);
        lines[b] = (UINT32_C(511) << 9 * r | (UINT32_C(7) << 3 * k) * COLUMN) &
                   ~keep[b];
    } else {
        int b = (p - 32) / 9, c = (p - 32) % 9;
        uint32_t col = COLUMN << c;
        for (int e = 0; e < 3; e++)
            lines[e] = col;
        lines[b] = (UINT32_C(7) << 3 * (c / 3)) * COLUMN & ~col;
    }
    for (int d = 0; d < 9; d++)
        if (open[d] >> p & 1)
            for (int b = 0; b < 3; b++)
                if (lines[b])
                    strike(s, IX(d, b), lines[b]);
}

/* Three digits are sure to be in triad bit p: the others leave it. */
static void three_sure(struct f9_state *s, const uint64_t open[9], int p)
{
    int b;
    uint32_t cells;
    if (p < 32) {
        b = p % 3;
        cells = UINT32_C(7) << (9 * (p / 9) + 3 * (p / 3 % 3));
    } else {
        b = (p - 32) / 9;
        cells = COLUMN << (p - 32) % 9;
    }
    for (int d = 0; d < 9; d++)
        if (open[d] >> p & 1)
            strike(s, IX(d, b), cells);
}

/* The triad bits of band or stack g. */
static inline uint64_t group_mask(int g)
{
    return g < 3 ? (uint64_t)SPREAD << g : ROWS_K0 << (32 + 3 * (g - 3));
}

/* The branch (see the top of the file), from the digits' triad words and
 * the four bit planes of how many digits can go to each triad: the band or
 * stack with the fewest (digit, triad) pairs left that is not settled (27
 * pairs: one per digit and row), in it the digit with the fewest
 * configurations, two if it can. */
static inline __attribute__((always_inline)) int choose(const uint64_t can[9],
                                                        const uint64_t plane[4])
{
    int g = -1;
    unsigned best = ~0u;
    for (int k = 0; k < 6; k++) {
        uint64_t m = group_mask(k);
        unsigned pairs = (unsigned)__builtin_popcountll(plane[0] & m) +
                         2 * (unsigned)__builtin_popcountll(plane[1] & m) +
                         4 * (unsigned)__builtin_popcountll(plane[2] & m) +
                         8 * (unsigned)__builtin_popcountll(plane[3] & m);
        if (pairs > 27 && pairs < best) {
            best = pairs;
            g = k;
        }
    }
    if (g < 0)
        return CS_NONE;
    int d = 0;
    unsigned fewest = ~0u;
    for (int k = 0; k < 9 && fewest > 2; k++) {
        unsigned n = config_count[g < 3 ? band_pattern_of(can[k], g)
                                        : stack_pattern_of(can[k], g - 3)];
        if (n >= 2 && n < fewest) {
            fewest = n;
            d = k;
        }
    }
    return F9_CELLS + 6 * d + g;
}

/* popcnt where the CPU has it (the branch counts with it) */
/* gcc: a popcnt clone chosen at load time.  clang 14 leaves the
 * clones' dispatcher undefined when the caller is in another file (the
 * fuzz build links no sdk_f9_triads), so it gets the one plain copy. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
int sdk_f9_triads(struct f9_state *s)
{
    uint64_t can[9], open[9], plane[4] = {0, 0, 0, 0};
    uint64_t sure1 = 0, sure2 = 0, sure3 = 0, sure4 = 0;
    for (int d = 0; d < 9; d++) {
        uint64_t t = triads_of(s, d), sure = sure_of(t);
        can[d] = t;
        open[d] = t & ~sure;
        /* add t to the count planes (at most 9: four planes) */
        uint64_t carry = plane[0] & t;
        plane[0] ^= t;
        t = carry;
        carry = plane[1] & t;
        plane[1] ^= t;
        t = carry;
        carry = plane[2] & t;
        plane[2] ^= t;
        plane[3] |= carry;
        sure4 |= sure3 & sure;
        sure3 |= sure2 & sure;
        sure2 |= sure1 & sure;
        sure1 |= sure;
    }
    const uint64_t four = plane[3] | plane[2];
    const uint64_t three = four | (plane[1] & plane[0]);
    if ((ALL_TRIADS & ~three) || sure4)
        return -1; /* a triad short of three digits, or with four sure */
    for (uint64_t only = three & ~four & ~sure3; only; only &= only - 1)
        only_three(s, open, __builtin_ctzll(only));
    for (uint64_t full = sure3 & four; full; full &= full - 1)
        three_sure(s, open, __builtin_ctzll(full));
    if (s->todo)
        return 1;
    s->branch = choose(can, plane);
    return 0;
}

unsigned sdk_f9_configs_of(const struct f9_state *s, int d, int g)
{
    if (g < 3)
        return configs[band_pattern(s->cand[IX(d, g)])];
    uint32_t cols[3] = {columns_of(s->cand[IX(d, 0)]),
                        columns_of(s->cand[IX(d, 1)]),
                        columns_of(s->cand[IX(d, 2)])};
    return configs[stack_pattern(cols, g - 3)];
}

void sdk_f9_fix_config(struct f9_state *s, int d, int g, int p)
{
    if (g < 3) {
        strike(s, IX(d, g), ~config_cells[p]);
        return;
    }
    const int j = g - 3;
    const uint32_t stack = (UINT32_C(7) << 3 * j) * COLUMN;
    for (int b = 0; b < 3; b++)
        strike(s, IX(d, b), stack & ~(COLUMN << (3 * j + sdk_f9_perms[p][b])));
}
