/* halves.c - N-Queens counting by meeting in the middle: the top half of a
 * solution and its bottom half, listed per column set and joined by their
 * diagonals.  Its units (canonical splits) and the count of one unit; the
 * half placements come from parts.c, the join of their masks from match.c.
 *
 * The split.  With t = n / 2, rows 0..t-1 are the top half; on an odd board
 * row t holds a middle queen at column m, and the rest are the bottom half.
 * The top half's queens take a set C of t columns, the bottom's the others
 * (D = the columns outside C, and outside m).  A top placement and a bottom
 * placement make a solution iff they share no diagonal: the solutions with
 * top columns C (and middle m) are the compatible pairs (P(C), a unit's sum).
 *
 * Patterns.  Of a top placement only the diagonals a bottom queen could
 * share matter: L = n - 1 - n % 2 of each direction, starting at n - t
 * (r + c for one, c - r + n - 1 for the other), 2L bits in one word.  The
 * board turned upside down maps a bottom placement with columns D to a top
 * placement with columns D and swaps its two diagonal directions, so the
 * bottom's patterns are the top placements of D with their halves swapped:
 * every pattern comes from one generator, the top-half join of parts.c.
 * Pairs with no common bit are counted by match.c.
 *
 * Symmetry.  The mirror image (columns reversed) maps the solutions of
 * (C, m) one-to-one onto those of (mirror C, n-1-m), and turning the board
 * upside down onto those of (D, m): the four splits of such an orbit share
 * one count.  The kernel counts the smallest split of each orbit (by m, then
 * C) and weighs it by the orbit's size: about a quarter of the splits.  The
 * pairs of a split are sorted into classes by the diagonals near the long
 * ones, and the reflections in the long diagonals weigh them so that pairs
 * with a long-diagonal queen in each half need no counting (classes.c).

 * Unique solutions.  A split orbit is not a union of whole solution orbits
 * (a quarter turn maps rows to columns), so this kernel cannot count orbits:
 * it counts the total only, and the problem does not report unique (the
 * border kernel, strategy.kernel: fast, counts both).
 *
 * Memory.  Shared: the splits (6 bytes each: 420 MB at n = 27), the parts'
 * counts, and their lists where they fit in the budget (20 bytes a part:
 * 0.4 GB at n = 23, 2.5 GB at 24, 13 GB at 26, when the lower part goes
 * near: listed per split within its columns, a few ms, 40 MB a thread).
 * Per counting thread: two buffers of patterns (the top and the bottom
 * sets of one split), each at most `cap` patterns, and their copies sorted
 * by class: a larger set is joined block by block, the bottom one listed
 * again for each top block (a small cost where sets are that large).
 * docs/config.md (strategy.kernel) gives the process's size for some n.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "nqueens/halves.h"
#include "nqueens/internal.h"

/* Splits are grouped into about TARGET_UNITS units up to n = 21, four
 * times as many per n beyond (a unit's time grows about eightfold), at
 * most MAX_UNITS: every unit is sized and summed for progress. */
#define TARGET_UNITS 4096
#define MAX_UNITS (UINT64_C(1) << 20)

/* A bottom placement's pattern: the top one's with its halves swapped. */
static void swap_halves(uint64_t *p, size_t count, int L)
{
    const uint64_t maskL = (UINT64_C(1) << L) - 1;
    for (size_t i = 0; i < count; i++)
        p[i] = p[i] >> L | (p[i] & maskL) << L;
}

/* ---- the canonical splits ------------------------------------------------ */

static uint32_t mirror(uint32_t c, int n)
{
    uint32_t out = 0;
    for (int i = 0; i < n; i++)
        if (c >> i & 1)
            out |= UINT32_C(1) << (n - 1 - i);
    return out;
}

/* The other columns of split (c, mid): the bottom half's. */
static uint32_t other_cols(uint32_t c, int mid, int n)
{
    uint32_t rest = (uint32_t)nq_low_bits(n) & ~c;
    return mid >= 0 ? rest & ~(UINT32_C(1) << mid) : rest;
}

static uint64_t split_key(uint32_t c, int mid, int n)
{
    return (uint64_t)(mid + 1) << n | c;
}

/* Is (c, mid) the smallest split of its orbit?  *size: the orbit's size. */
static bool split_canonical(uint32_t c, int mid, int n, int *size)
{
    int mm = mid >= 0 ? n - 1 - mid : -1;
    uint32_t d = other_cols(c, mid, n);
    uint64_t keys[4] = {split_key(c, mid, n), split_key(d, mid, n),
                        split_key(mirror(c, n), mm, n),
                        split_key(mirror(d, n), mm, n)};
    int distinct = 0;
    for (int i = 0; i < 4; i++) {
        if (keys[i] < keys[0])
            return false;
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= keys[j] == keys[i];
        distinct += !seen;
    }
    *size = distinct;
    return true;
}

static uint64_t target_units(int n)
{
    uint64_t units = TARGET_UNITS;
    for (int m = 22; m <= n && units < MAX_UNITS; m++)
        units *= 4;
    return units;
}

/* Which part lists go whole into the budget and how many patterns a
 * buffer holds: lists first (they make the join fast), each thread's
 * least buffers and near lists beside them, then buffers up to
 * NQ_BUFFER_MIB a thread. */
static void plan_memory(struct nq_halves *k, uint64_t budget, int threads)
{
    struct nq_parts *ps = &k->parts;
    const int n = k->n;
    const uint64_t t = (uint64_t)threads, per_pattern = 32; /* 2 x 2 x 8 */
    /* a buffer must hold the longest lower list to make progress */
    const uint64_t least =
        2 * ((uint64_t)ps->lower.longest + NQ_JOIN_SLACK + 1);
    uint64_t shared = k->reps * 6 + nq_parts_counted_bytes(ps, n);
    uint64_t up = nq_part_bytes(&ps->upper), lo = nq_part_bytes(&ps->lower);
    uint64_t near_up = nq_part_near_bytes(&ps->upper, n),
             near_lo = nq_part_near_bytes(&ps->lower, n);
    uint64_t floor = least * per_pattern, near = 0;
    bool list_up = false, list_lo = false;
    if (shared + up + lo + t * floor <= budget)
        list_up = list_lo = true;
    else if (shared + up + t * (floor + 2 * near_lo) <= budget)
        list_up = true;
    near = 2 * ((list_up ? 0 : near_up) + (list_lo ? 0 : near_lo));
    nq_parts_list(ps, n, list_up, list_lo);
    uint64_t used = shared + (list_up ? up : 0) + (list_lo ? lo : 0) + t * near;
    uint64_t per_thread = used < budget ? (budget - used) / t : 0;
    uint64_t most = (uint64_t)NQ_BUFFER_MIB << 20;
    uint64_t cap = (per_thread < most ? per_thread : most) / per_pattern;
    if (cap < least)
        cap = least;
    k->cap = cap > UINT32_MAX ? UINT32_MAX : (size_t)cap;
    k->bytes = used + t * cap * per_pattern;
}

struct nq_halves *nq_halves_new(int n, enum nq_isa isa, uint64_t memory_mib,
                                int threads)
{
    struct nq_halves *k = cs_xcalloc(1, sizeof *k);
    k->n = n;
    k->top = n / 2;
    k->bits = 2 * (n - 1 - n % 2);
    k->isa = isa;
    nq_layout_init(&k->layout, n, n >= NQ_SYMMETRY_FROM);
    size_t room = 0;
    const int t = k->top;
    const uint32_t full = (uint32_t)nq_low_bits(n);
    int mid_from = n % 2 ? 0 : -1, mid_to = n % 2 ? n - 1 : -1;
    for (int mid = mid_from; mid <= mid_to; mid++) {
        uint32_t outside = mid >= 0 ? UINT32_C(1) << mid : 0;
        /* every t-subset of the columns, by Gosper's step */
        for (uint32_t c = (UINT32_C(1) << t) - 1; c <= full;) {
            int size;
            if (!(c & outside) && split_canonical(c, mid, n, &size)) {
                if (k->reps == room) {
                    room = room ? 2 * room : 1024;
                    k->cols = cs_xrealloc(k->cols, room * sizeof *k->cols);
                    k->mid = cs_xrealloc(k->mid, room * sizeof *k->mid);
                    k->weight =
                        cs_xrealloc(k->weight, room * sizeof *k->weight);
                }
                k->cols[k->reps] = c;
                k->mid[k->reps] = (signed char)mid;
                k->weight[k->reps] = (unsigned char)size;
                k->reps++;
            }
            uint32_t low = c & -c, ripple = c + low;
            if (!ripple)
                break;
            c = ripple | (((c ^ ripple) >> 2) / low);
        }
    }
    nq_parts_init(&k->parts, n);
    plan_memory(k, memory_mib << 20, threads > 0 ? threads : 1);
    uint64_t target = target_units(n);
    k->per_unit = (k->reps + target - 1) / target;
    k->units = (k->reps + k->per_unit - 1) / k->per_unit;
    return k;
}

void nq_halves_free(void *data)
{
    struct nq_halves *k = data;
    if (!k)
        return;
    nq_parts_free(&k->parts);
    free(k->cols);
    free(k->mid);
    free(k->weight);
    free(k);
}

/* ---- one split, one unit ------------------------------------------------- */

/* A pattern buffer that grows up to its cap. */
struct buffer {
    uint64_t *data;
    size_t room, cap;
    uint64_t listed; /* patterns listed into it, for the nodes statistic */
};

/* List j's patterns into b until the join ends or b is full at its cap. */
static size_t fill(const struct nq_halves *k, struct nq_join *j,
                   struct buffer *b)
{
    const size_t need = (size_t)k->parts.lower.longest + NQ_JOIN_SLACK + 1;
    size_t count = 0;
    for (;;) {
        if (b->room - count < need) {
            if (b->room >= b->cap)
                return count;
            size_t room = b->room ? 2 * b->room : 4096;
            b->room = room < b->cap ? room : b->cap;
            b->data = cs_xrealloc(b->data, b->room * sizeof *b->data);
            continue;
        }
        size_t got = nq_join_fill(j, k->isa, b->data + count, b->room - count);
        count += got;
        b->listed += got;
        if (j->done)
            return count;
    }
}

/* A counting thread's scratch, kept from unit to unit (and freed when the
 * thread ends): listing a unit's patterns into fresh memory cost more in
 * page faults than the pairs of a small unit. */
struct scratch {
    struct buffer top, bottom;
    struct nq_near near_top, near_bottom;
    struct nq_pairing pg;
};

/* P(c, mid): the compatible pairs of one split, block by block. */
static uint64_t split_pairs(const struct nq_halves *k, uint32_t c, int mid,
                            struct scratch *sc)
{
    const int n = k->n, L = k->bits / 2;
    struct buffer *top_buf = &sc->top, *bottom_buf = &sc->bottom;
    struct nq_pairing *pg = &sc->pg;
    uint32_t d = other_cols(c, mid, n);
    struct nq_join top, bottom;
    nq_join_start(&bottom, &k->parts, n, d, mid, &sc->near_bottom);
    size_t nb = fill(k, &bottom, bottom_buf);
    swap_halves(bottom_buf->data, nb, L);
    bool bottom_whole = bottom.done;
    uint64_t pairs = 0;
    nq_join_start(&top, &k->parts, n, c, mid, &sc->near_top);
    while (!top.done) {
        size_t nt = fill(k, &top, top_buf);
        if (bottom_whole) {
            pairs += nq_pairs(&k->layout, k->isa, pg, top_buf->data, nt,
                              bottom_buf->data, nb);
            continue;
        }
        /* the bottom set is larger than a buffer: list it again */
        nq_join_start(&bottom, &k->parts, n, d, mid, &sc->near_bottom);
        while (!bottom.done) {
            size_t m = fill(k, &bottom, bottom_buf);
            swap_halves(bottom_buf->data, m, L);
            pairs += nq_pairs(&k->layout, k->isa, pg, top_buf->data, nt,
                              bottom_buf->data, m);
        }
    }
    return pairs;
}

/* A unit's work for the progress line: its splits' top and bottom
 * placements as their part lists bound them, to the power 0.8 (the pair
 * work grows slower than the product of the halves once they are sorted
 * into classes; fitted to the seconds of every unit at n = 17, 18 and a
 * part of 20, where units alike put the ETA at 10% of n = 18 25% low).
 * At most SIZE_SAMPLES splits of a unit are bounded (2 where units are
 * many, n >= 22), evenly spaced, and stand for the rest: sizing runs while
 * the first units count, and all of n = 19's splits took a third of a
 * second from them. */
#define SIZE_SAMPLES 8

double nq_halves_unit_size(const void *data, uint64_t unit)
{
    const struct nq_halves *k = data;
    uint64_t first = unit * k->per_unit;
    uint64_t end =
        first + k->per_unit < k->reps ? first + k->per_unit : k->reps;
    /* fewer samples where there are many units (n >= 22) */
    uint64_t samples = SIZE_SAMPLES * TARGET_UNITS / k->units;
    samples = samples < 2 ? 2 : samples > SIZE_SAMPLES ? SIZE_SAMPLES : samples;
    uint64_t step = (end - first + samples - 1) / samples;
    double sum = 0;
    uint64_t taken = 0;
    for (uint64_t i = first; i < end; i += step, taken++)
        sum += nq_parts_estimate(&k->parts, k->n, k->cols[i], k->mid[i]) +
               nq_parts_estimate(&k->parts, k->n,
                                 other_cols(k->cols[i], k->mid[i], k->n),
                                 k->mid[i]);
    return pow(sum * (double)(end - first) / (double)taken, 0.8);
}

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *p)
{
    struct scratch *sc = p;
    free(sc->top.data);
    free(sc->bottom.data);
    nq_near_free(&sc->near_top);
    nq_near_free(&sc->near_bottom);
    nq_pairing_free(&sc->pg);
    free(sc);
}

static void scratch_key_make(void)
{
    if (pthread_key_create(&scratch_key, scratch_free))
        abort();
}

/* This thread's scratch, its buffers within cap patterns. */
static struct scratch *scratch_get(size_t cap)
{
    pthread_once(&scratch_once, scratch_key_make);
    struct scratch *sc = pthread_getspecific(scratch_key);
    if (!sc) {
        sc = cs_xcalloc(1, sizeof *sc);
        if (pthread_setspecific(scratch_key, sc))
            abort();
    }
    struct buffer *b[2] = {&sc->top, &sc->bottom};
    for (int i = 0; i < 2; i++) {
        if (b[i]->room > cap) { /* another kernel's, larger than ours */
            free(b[i]->data);
            b[i]->data = NULL;
            b[i]->room = 0;
        }
        b[i]->cap = cap;
        b[i]->listed = 0;
    }
    return sc;
}

bool nq_halves_count_unit(const void *data, uint64_t unit,
                          volatile sig_atomic_t *stop, struct cs_stats *out)
{
    const struct nq_halves *k = data;
    uint64_t first = unit * k->per_unit;
    uint64_t end =
        first + k->per_unit < k->reps ? first + k->per_unit : k->reps;
    struct scratch *sc = scratch_get(k->cap);
    uint64_t total = 0;
    bool whole = true;
    for (uint64_t i = first; i < end && whole; i++) {
        if (stop && *stop)
            whole = false; /* a unit is counted whole or not at all */
        else
            total += k->weight[i] * split_pairs(k, k->cols[i], k->mid[i], sc);
    }
    if (!whole)
        return false;
    memset(out, 0, sizeof *out);
    out->solutions = total;
    out->nodes = sc->top.listed + sc->bottom.listed;
    out->checks = out->nodes;
    out->max_depth = k->top;
    return true;
}

/* The kernel has no tree below a half: its rows are the half placements
 * listed (depth n / 2) and the solutions they make (depth n), taken from
 * the unit's totals, so counting pays nothing for them. */
bool nq_halves_profile_unit(const void *data, uint64_t unit,
                            volatile sig_atomic_t *stop, struct cs_stats *out,
                            struct cs_level *levels)
{
    const struct nq_halves *k = data;
    if (!nq_halves_count_unit(data, unit, stop, out))
        return false;
    levels[k->top].nodes += out->nodes;
    levels[k->n].solutions += out->solutions;
    return true;
}

uint64_t nq_halves_count_split(const struct nq_halves *k, uint64_t rep)
{
    struct scratch *sc = scratch_get(k->cap);
    return k->weight[rep] * split_pairs(k, k->cols[rep], k->mid[rep], sc);
}
