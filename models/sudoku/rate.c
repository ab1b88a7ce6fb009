/* rate.c - how hard a 9 x 9 puzzle is for a solver by hand (task rate): the
 * techniques of rate.h, easiest first, then guesses where they stall.
 *
 * Each technique only removes candidates that no solution has, so the
 * techniques up to a level reach one fixpoint whatever the order: the level
 * (the hardest technique needed) does not depend on the order, and the
 * fixed order here makes the counts the same every run too.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/file.h"
#include "sudoku/fast9.h"
#include "sudoku/rate.h"

#define ALL 0x1FFu /* digits 1-9 as bits 0-8 */

#define SDK_NAME(name, text) text,
const char *const sdk_level_names[] = {SDK_LEVELS(SDK_NAME) NULL};
#undef SDK_NAME
#define SDK_TECH_NAME(name, text, level) text,
static const char *const tech_names[] = {SDK_TECHNIQUES(SDK_TECH_NAME)};
#undef SDK_TECH_NAME
#define SDK_TECH_LEVEL(name, text, level) level,
static const enum sdk_level tech_levels[] = {SDK_TECHNIQUES(SDK_TECH_LEVEL)};
#undef SDK_TECH_LEVEL

/* The 27 units (rows, columns, boxes), each cell's three and its 20 peers. */
static int units[27][9];
static int cell_units[81][3];
static int peers[81][20];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_meets(void);

static void build_tables(void)
{
    for (int c = 0; c < 81; c++) {
        int r = c / 9, k = c % 9, b = r / 3 * 3 + k / 3;
        units[r][k] = c;
        units[9 + k][r] = c;
        units[18 + b][r % 3 * 3 + k % 3] = c;
        cell_units[c][0] = r;
        cell_units[c][1] = 9 + k;
        cell_units[c][2] = 18 + b;
    }
    for (int c = 0; c < 81; c++) {
        int n = 0;
        for (int p = 0; p < 81; p++) {
            int r = c / 9, k = c % 9, pr = p / 9, pk = p % 9;
            bool box = r / 3 == pr / 3 && k / 3 == pk / 3;
            if (p != c && (r == pr || k == pk || box))
                peers[c][n++] = p;
        }
    }
    build_meets();
}

/* The number of digits in a mask of nine (no popcount instruction is
 * assumed). */
static int bits9(unsigned m)
{
    static const unsigned char nibble[16] = {0, 1, 1, 2, 1, 2, 2, 3,
                                             1, 2, 2, 3, 2, 3, 3, 4};
    return nibble[m & 15] + nibble[(m >> 4) & 15] + nibble[m >> 8];
}

/* The grid as the techniques see it: candidates of the open cells. */
struct logic {
    uint16_t cand[81];     /* open cells' candidates; 0 once placed */
    unsigned char val[81]; /* 0: open */
    uint16_t placed[27];   /* digits each unit holds */
    int open;
    uint32_t uses[SDK_TECH_COUNT];
};

/* Place digit d in open cell c; false on a contradiction. */
static bool place(struct logic *g, int c, int d)
{
    uint16_t bit = (uint16_t)(1u << (d - 1));
    if (!(g->cand[c] & bit))
        return false;
    g->val[c] = (unsigned char)d;
    g->cand[c] = 0;
    g->open--;
    for (int i = 0; i < 3; i++) {
        int u = cell_units[c][i];
        if (g->placed[u] & bit)
            return false;
        g->placed[u] |= bit;
    }
    for (int i = 0; i < 20; i++) {
        int p = peers[c][i];
        if (!g->val[p] && !(g->cand[p] &= (uint16_t)~bit))
            return false;
    }
    return true;
}

/* The givens placed (their units' digits first, then each open cell's
 * candidates: what placing them one by one gives, sooner); false if two of
 * them clash or a cell is left without a candidate. */
static bool logic_init(struct logic *g, const unsigned char givens[81])
{
    pthread_once(&tables_once, build_tables);
    memset(g, 0, sizeof *g);
    g->open = 81;
    for (int c = 0; c < 81; c++) {
        if (!givens[c])
            continue;
        uint16_t bit = (uint16_t)(1u << (givens[c] - 1));
        for (int i = 0; i < 3; i++) {
            int u = cell_units[c][i];
            if (g->placed[u] & bit)
                return false;
            g->placed[u] |= bit;
        }
        g->val[c] = givens[c];
        g->open--;
    }
    for (int c = 0; c < 81; c++) {
        if (g->val[c])
            continue;
        const int *u = cell_units[c];
        g->cand[c] = ALL & (uint16_t) ~(g->placed[u[0]] | g->placed[u[1]] |
                                        g->placed[u[2]]);
        if (!g->cand[c])
            return false;
    }
    return true;
}

/* Each technique: 1 progress, 0 none, -1 a contradiction. */

static int naked_singles(struct logic *g)
{
    int placed = 0;
    for (int c = 0; c < 81; c++) {
        uint16_t m = g->cand[c];
        if (g->val[c] || m & (m - 1))
            continue;
        if (!place(g, c, __builtin_ctz(m) + 1))
            return -1;
        g->uses[SDK_TECH_NAKED_SINGLE]++;
        placed = 1;
    }
    return placed;
}

/* Where each digit can go in unit u: pos[d] bits are positions 0-8. */
static void positions(const struct logic *g, int u, uint16_t pos[9])
{
    memset(pos, 0, 9 * sizeof *pos);
    for (int i = 0; i < 9; i++) {
        uint16_t m = g->cand[units[u][i]];
        while (m) {
            pos[__builtin_ctz(m)] |= (uint16_t)(1u << i);
            m &= (uint16_t)(m - 1);
        }
    }
}

/* The digits that have one place left in a unit, found for all nine at
 * once: those seen once and not twice. */
static int hidden_singles(struct logic *g)
{
    int placed = 0;
    for (int u = 0; u < 27; u++) {
        const int *cell = units[u];
        uint16_t once = 0, twice = 0;
        for (int i = 0; i < 9; i++) {
            uint16_t m = g->cand[cell[i]];
            twice |= once & m;
            once |= m;
        }
        if ((once | g->placed[u]) != ALL)
            return -1; /* a digit with no place left */
        for (uint16_t single = once & ~twice; single;
             single &= (uint16_t)(single - 1)) {
            uint16_t bit = single & (uint16_t)-single;
            int i = 0;
            while (!(g->cand[cell[i]] & bit))
                if (++i == 9)
                    return -1; /* taken away by a placement of this pass */
            if (!place(g, cell[i], __builtin_ctz(bit) + 1))
                return -1;
            g->uses[SDK_TECH_HIDDEN_SINGLE]++;
            placed = 1;
        }
    }
    return placed;
}

/* Remove the digits `bits` from the open cells of unit u outside `keep`
 * (positions); 1 if one went, -1 if a cell is left with none. */
static int strike(struct logic *g, int u, uint16_t keep, uint16_t bits)
{
    int struck = 0;
    for (int i = 0; i < 9; i++) {
        int c = units[u][i];
        if (keep & (1u << i) || !(g->cand[c] & bits))
            continue;
        if (!(g->cand[c] &= (uint16_t)~bits))
            return -1;
        struck = 1;
    }
    return struck;
}

/* Where a box meets a row or a column: the three cells they share, the
 * box's six others and the line's six others. */
struct meet {
    int in[3], box[6], line[6];
};
static struct meet meets[54];

static void build_meets(void)
{
    int n = 0;
    for (int b = 0; b < 9; b++)
        for (int l = 0; l < 6; l++) {
            int line = l < 3 ? b / 3 * 3 + l : 9 + b % 3 * 3 + (l - 3);
            struct meet *m = &meets[n++];
            int ni = 0, nb = 0, nl = 0;
            for (int i = 0; i < 9; i++) {
                int c = units[18 + b][i];
                bool shared =
                    cell_units[c][0] == line || cell_units[c][1] == line;
                if (shared)
                    m->in[ni++] = c;
                else
                    m->box[nb++] = c;
            }
            for (int i = 0; i < 9; i++) {
                int c = units[line][i];
                if (cell_units[c][2] != 18 + b)
                    m->line[nl++] = c;
            }
        }
}

static uint16_t digits_of(const struct logic *g, const int *cells, int n)
{
    uint16_t m = 0;
    for (int i = 0; i < n; i++)
        m |= g->cand[cells[i]];
    return m;
}

/* Remove digits from open cells; 1 if one went, -1 if a cell has none. */
static int strike_cells(struct logic *g, const int *cells, int n, uint16_t bits)
{
    int struck = 0;
    for (int i = 0; i < n; i++) {
        int c = cells[i];
        if (!(g->cand[c] & bits))
            continue;
        if (!(g->cand[c] &= (uint16_t)~bits))
            return -1;
        struck = 1;
    }
    return struck;
}

/* A digit of a box confined to where it meets a line leaves the rest of
 * the line (pointing), and one of a line confined to a box leaves the rest
 * of the box (claiming); all digits of a meet at once. */
static int locked_candidates(struct logic *g)
{
    for (int k = 0; k < 54; k++) {
        const struct meet *m = &meets[k];
        uint16_t in = digits_of(g, m->in, 3);
        if (!in)
            continue;
        uint16_t box = digits_of(g, m->box, 6);
        uint16_t line = digits_of(g, m->line, 6);
        int r = strike_cells(g, m->line, 6, in & ~box);
        if (!r)
            r = strike_cells(g, m->box, 6, in & ~line);
        if (r) {
            g->uses[SDK_TECH_LOCKED] += r > 0;
            return r;
        }
    }
    return 0;
}

static int naked_pairs(struct logic *g)
{
    for (int u = 0; u < 27; u++)
        for (int i = 0; i < 9; i++) {
            uint16_t m = g->cand[units[u][i]];
            if (bits9(m) != 2)
                continue;
            for (int j = i + 1; j < 9; j++) {
                if (g->cand[units[u][j]] != m)
                    continue;
                int r = strike(g, u, (uint16_t)(1u << i | 1u << j), m);
                if (r) {
                    g->uses[SDK_TECH_NAKED_PAIR] += r > 0;
                    return r;
                }
            }
        }
    return 0;
}

static int hidden_pairs(struct logic *g)
{
    for (int u = 0; u < 27; u++) {
        uint16_t pos[9];
        positions(g, u, pos);
        for (int a = 0; a < 9; a++) {
            if (bits9(pos[a]) != 2)
                continue;
            for (int b = a + 1; b < 9; b++) {
                if (pos[b] != pos[a])
                    continue;
                uint16_t pair = (uint16_t)(1u << a | 1u << b);
                bool struck = false;
                for (int i = 0; i < 9; i++) {
                    int c = units[u][i];
                    if (pos[a] & (1u << i) && g->cand[c] & ~pair) {
                        g->cand[c] &= pair;
                        struck = true;
                    }
                }
                if (struck) {
                    g->uses[SDK_TECH_HIDDEN_PAIR]++;
                    return 1;
                }
            }
        }
    }
    return 0;
}

typedef int (*technique_fn)(struct logic *g);

/* Run the techniques up to `hardest`, easiest first, until they stall
 * (or cells a and b are placed, a >= 0): 1 solved (or placed), 0 stalled,
 * -1 a contradiction. */
static int logic_run_until(struct logic *g, enum sdk_technique hardest, int a,
                           int b)
{
    static const technique_fn order[SDK_TECH_COUNT] = {
        naked_singles, hidden_singles, locked_candidates, naked_pairs,
        hidden_pairs};
    for (int t = 0; t <= (int)hardest && g->open;) {
        int r = order[t](g);
        if (r < 0)
            return -1;
        if (a >= 0 && g->val[a] && g->val[b])
            return 1;
        t = r ? 0 : t + 1;
    }
    return g->open ? 0 : 1;
}

static int logic_run(struct logic *g, enum sdk_technique hardest)
{
    return logic_run_until(g, hardest, -1, -1);
}

bool sdk_logic_places(const unsigned char givens[81],
                      enum sdk_technique hardest, int a, int b)
{
    struct logic g;
    return logic_init(&g, givens) && logic_run_until(&g, hardest, a, b) == 1;
}

bool sdk_logic_solves(const unsigned char givens[81],
                      enum sdk_technique hardest)
{
    struct logic g;
    return logic_init(&g, givens) && logic_run(&g, hardest) == 1;
}

/* Guess where the techniques stall: true when a solution is found. */
static bool guess(struct logic *g, uint64_t *guesses)
{
    int r = logic_run(g, SDK_TECH_COUNT - 1);
    if (r)
        return r > 0;
    int best = -1, fewest = 10;
    for (int c = 0; c < 81; c++) {
        int n = bits9(g->cand[c]);
        if (!g->val[c] && n < fewest) {
            best = c;
            fewest = n;
        }
    }
    for (uint16_t m = g->cand[best]; m; m &= (uint16_t)(m - 1)) {
        struct logic h = *g;
        (*guesses)++;
        if (place(&h, best, __builtin_ctz(m) + 1) && guess(&h, guesses))
            return true;
    }
    return false;
}

void sdk_rate(const unsigned char givens[81], struct sdk_rating *out)
{
    struct logic g;
    memset(out, 0, sizeof *out);
    if (!logic_init(&g, givens))
        return;
    int r = logic_run(&g, SDK_TECH_COUNT - 1);
    memcpy(out->uses, g.uses, sizeof out->uses);
    if (r < 0)
        return;
    if (r == 0) {
        if (guess(&g, &out->guesses))
            out->level = SDK_LEVEL_EXPERT;
        return;
    }
    out->level = SDK_LEVEL_SIMPLE;
    for (int t = 0; t < SDK_TECH_COUNT; t++)
        if (out->uses[t] && tech_levels[t] > out->level)
            out->level = tech_levels[t];
}

void sdk_rating_text(const struct sdk_rating *r, char *buf, size_t size)
{
    if (r->level == SDK_LEVEL_NONE) {
        snprintf(buf, size, "0 none: no solution");
        return;
    }
    size_t used = (size_t)snprintf(buf, size, "%d %s:", (int)r->level,
                                   sdk_level_names[r->level]);
    const char *sep = " ";
    for (int t = 0; t < SDK_TECH_COUNT && used < size; t++) {
        if (!r->uses[t])
            continue;
        used += (size_t)snprintf(buf + used, size - used, "%s%s %u", sep,
                                 tech_names[t], r->uses[t]);
        sep = ", ";
    }
    if (used < size)
        snprintf(buf + used, size - used, "%sguesses %llu", sep,
                 (unsigned long long)r->guesses);
}

void sdk_fast_fill(struct cs_problem *out, void *data,
                   void (*free_data)(void *))
{
    memset(out, 0, sizeof *out);
    out->hooks = sdk_fast9_hooks;
    out->data = data;
    out->free_data = free_data;
    out->nvars = 81;
    out->state_size = sdk_fast9_hooks->state_size;
    out->kernel = "fast";
    sdk_fast9_name_isa(out);
}

void *sdk_fast_problem(const unsigned char givens[81], size_t extra,
                       struct cs_problem *out)
{
    struct sdk_fast9 *f = cs_xcalloc(1, sizeof *f + extra);
    memcpy(f->givens, givens, sizeof f->givens);
    sdk_fast_fill(out, f, free);
    return f;
}

/* ---- task rate ----------------------------------------------------------- */

/* The puzzles to rate: params.puzzle's or params.file's problem. */
struct rate_batch {
    struct cs_problem inner;
    char *path; /* params.file, for the messages; NULL: params.puzzle */
};

static void free_rate_batch(void *data)
{
    struct rate_batch *b = data;
    if (!b)
        return;
    cs_problem_free(&b->inner);
    free(b->path);
    free(b);
}

#define NOTE_SIZE 256

static int rate_instance(const void *data, uint64_t index,
                         struct cs_problem *out, struct cs_error *err)
{
    const struct rate_batch *b = data;
    struct cs_problem sub;
    memset(&sub, 0, sizeof sub);
    const struct cs_problem *p = &b->inner;
    if (p->setup_instance) {
        if (p->setup_instance(p->data, index, &sub, err))
            return -1;
        p = &sub;
    }
    if (p->hooks != sdk_fast9_hooks) {
        const int n = ((const struct sdk_problem *)p->data)->n;
        cs_problem_free(&sub);
        struct cs_pos pos = {b->path, sdk_batch_lineno(&b->inner, index), 1};
        return cs_error_at(err, pos,
                           "puzzle %llu is %d x %d: task rate rates 9 x 9 "
                           "grids only",
                           (unsigned long long)index + 1, n, n);
    }
    const struct sdk_fast9 *given = p->data;
    struct sdk_rating rating;
    sdk_rate(given->givens, &rating);
    char *note = (char *)sdk_fast_problem(given->givens, NOTE_SIZE, out) +
                 sizeof(struct sdk_fast9);
    sdk_rating_text(&rating, note, NOTE_SIZE);
    out->note = note;
    cs_problem_free(&sub);
    return 0;
}

int sdk_setup_rate(const struct cs_config *cfg, const struct sdk_settings *set,
                   struct cs_problem *out, struct cs_error *err)
{
    if (!set->fast)
        return cs_error_at(err, cs_config_pos(cfg, "task"),
                           "task rate needs plain 9 x 9 grids (no variants, "
                           "kernel auto or fast)");
    struct rate_batch *b = cs_xcalloc(1, sizeof *b);
    bool file = cs_config_has(cfg, "params.file");
    int rc = file ? sdk_setup_batch(cfg, set, &b->inner, err)
                  : sdk_setup_puzzle(cfg, set, &b->inner, err);
    if (rc) {
        free(b);
        return -1;
    }
    if (!file && b->inner.hooks != sdk_fast9_hooks) {
        const int n = ((const struct sdk_problem *)b->inner.data)->n;
        free_rate_batch(b);
        return cs_error_at(err, cs_config_pos(cfg, "params.puzzle"),
                           "the puzzle is %d x %d: task rate rates 9 x 9 "
                           "grids only",
                           n, n);
    }
    if (file) {
        char *path = cs_config_path(cfg, "params.file");
        b->path = cs_xstrdup(cs_file_name(path));
        free(path);
    }
    sdk_fast_fill(out, b, free_rate_batch);
    out->instances = b->inner.setup_instance ? b->inner.instances : 1;
    out->setup_instance = rate_instance;
    return 0;
}
