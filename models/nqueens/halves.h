/* nqueens/halves.h - the meet-in-the-middle counting kernel (halves.c) and
 * its disjoint-pair matcher (match.c), with the instruction-set cap
 * (CSEARCH_ISA) every N-Queens kernel obeys.
 *
 * A solution splits into its top rows and its bottom rows (on odd boards
 * around a middle row whose queen is fixed per unit); each half is listed
 * per column set as a mask of the diagonals the other half could meet, and
 * compatible halves are pairs of masks with no bit in common.  Counts are
 * exact totals; unique solutions are not counted (see halves.c).
 */
#ifndef CSEARCH_NQUEENS_HALVES_H
#define CSEARCH_NQUEENS_HALVES_H

#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

#define NQ_HALVES_MIN 12 /* smaller boards: the other kernels */
/* beyond NQ_HALVES_MAX the masks outgrow 56 bits and a total 64 */
#define NQ_HALVES_MAX 27
#define NQ_HALVES_AUTO 16 /* strategy.kernel auto takes it from here */

/* ---- instruction sets ---------------------------------------------------- */

enum nq_isa { NQ_ISA_SCALAR, NQ_ISA_AVX2, NQ_ISA_AVX512 };

/* "scalar", "avx2", "avx512" (CSEARCH_ISA: calibrate.c, nq_isa_env). */
const char *nq_isa_name(enum nq_isa isa);

/* ---- the matcher (match.c) ----------------------------------------------- */

/* The best matcher this processor runs at or below cap. */
enum nq_isa nq_match_isa(enum nq_isa cap);

/* The widest masks the matcher takes: 8 chunks of 7 bits. */
#define NQ_MATCH_BITS 56

/* The pairs (p in pats, x in items) with p & x == 0; every mask below
 * 2^bits, bits <= NQ_MATCH_BITS.  Allocates one table per call, 8 KiB per
 * 7 bits (48 KiB for 42). */
uint64_t nq_match_count(enum nq_isa isa, const uint64_t *pats, size_t npats,
                        const uint64_t *items, size_t nitems, int bits);

/* The same one table at a time: a table of up to 512 patterns (below
 * 2^bits), counted against items; and the pairs one by one (small sets). */
struct nq_table;
struct nq_table *nq_table_new(int bits); /* for masks below 2^bits; free() it */
int nq_table_bits(const struct nq_table *tb);
void nq_table_build(enum nq_isa isa, struct nq_table *tb, const uint64_t *pats,
                    size_t np, int bits);
uint64_t nq_table_count(enum nq_isa isa, const struct nq_table *tb,
                        const uint64_t *items, size_t ni, int bits);
uint64_t nq_direct_count(const uint64_t *pats, size_t np, const uint64_t *items,
                         size_t ni);

/* ---- the pairs of a split by classes (classes.c) ------------------------- */

/* How a split's pairs are sorted into classes: by the w diagonals of each
 * direction around the long ones (bits lo[w] .. lo[w] + w - 1 of both
 * halves of a pattern, L bits each), w chosen per split by the sizes of its
 * halves (0: no classes, the plain join of match.c); am[w] the class bits
 * of the two long diagonals when the symmetry is used, else 0.  With the
 * symmetry every split takes w >= 1: it changes what one split adds, so
 * all or none must use it. */
#define NQ_CLASS_WMAX 3
#define NQ_SYMMETRY_FROM 20 /* smaller boards: classes only where they pay */
struct nq_layout {
    int L;
    bool symmetry;
    int lo[NQ_CLASS_WMAX + 1], bits[NQ_CLASS_WMAX + 1]; /* bits: a key's */
    uint32_t am[NQ_CLASS_WMAX + 1];
    size_t at_least[NQ_CLASS_WMAX + 1]; /* w from this smaller half on */
};

/* The layout of an n x n board, with the long-diagonal symmetry or
 * without. */
void nq_layout_init(struct nq_layout *y, int n, bool symmetry);

/* Scratch of one counting thread: both halves sorted by class, a table. */
struct nq_sorted {
    uint64_t *data;
    size_t room;
    uint32_t start[(1 << 2 * NQ_CLASS_WMAX) + 1];
};
struct nq_pairing {
    struct nq_sorted top, bottom;
    struct nq_table *table;
};
void nq_pairing_free(struct nq_pairing *pg);

/* The weighed compatible pairs of top[0..nt) and bottom[0..nb) (bottom
 * patterns already in the top's frame): without the symmetry the pairs
 * with no bit in common; with it, each such pair weighed 0, 1 or 2 by its
 * long diagonals (classes.c), so that a split orbit's sum is unchanged. */
uint64_t nq_pairs(const struct nq_layout *y, enum nq_isa isa,
                  struct nq_pairing *pg, const uint64_t *top, size_t nt,
                  const uint64_t *bottom, size_t nb);

/* ---- the top-half placements (parts.c) ----------------------------------- */

/* The placements of rows first..first+rows-1 over all n columns, grouped by
 * column set (colex rank): entries start[s] .. start[s+1]-1, absolute
 * diagonals (d1 bit r + c, d2 bit c - r + n - 1), and on odd boards the
 * middle-row columns whose queen would attack them.  A part is always
 * counted (start, count, longest, free_of); its entries are listed (d1,
 * d2, mid) only where memory allows, else each join lists the few within
 * its column set (struct nq_near). */
struct nq_part {
    int first, rows;
    uint32_t *start;
    uint64_t *d1, *d2;
    uint32_t *mid;
    uint32_t count, longest;
    uint32_t *free_of; /* odd boards: [set * n + m] the set's parts the middle
                          queen at column m does not attack; else NULL */
    bool listed;
};
#define NQ_PART_BYTES 20 /* a listed entry: d1, d2, mid */

/* Rows 0..a-1 and a..t-1 (a = t / 2), counted, not listed. */
struct nq_parts {
    struct nq_part upper, lower;
};

void nq_parts_init(struct nq_parts *ps, int n);
/* List the upper part, the lower or both (n = 24: 0.5 GB each; n = 26:
 * 1 GB and 12.6 GB). */
void nq_parts_list(struct nq_parts *ps, int n, bool upper, bool lower);
size_t nq_part_bytes(const struct nq_part *p); /* its entries, listed */
size_t nq_parts_counted_bytes(const struct nq_parts *ps, int n); /* counts */
/* A near list of it (struct nq_near), generously: its average and more. */
size_t nq_part_near_bytes(const struct nq_part *p, int n);
void nq_parts_free(struct nq_parts *ps);

/* A thread's lists of the parts within one column set, for the parts not
 * listed whole, ranked by the positions of their columns within it; kept
 * while the same set is joined again. */
struct nq_near {
    const struct nq_parts *of;
    uint32_t cols;
    struct nq_part upper, lower;
    size_t room[2];
};
void nq_near_free(struct nq_near *nr);

/* The pairs of upper and lower parts that make up the top placements with
 * columns `cols` (and the middle queen at mid, or -1), before their
 * diagonals are compared: a bound on those placements, proportional to them
 * on average, and cheap (C(t, t/2) lookups). */
double nq_parts_estimate(const struct nq_parts *ps, int n, uint32_t cols,
                         int mid);

/* The top placements with columns `cols` (and the middle queen at mid, or
 * -1), as patterns, a buffer at a time. */
struct nq_join {
    const struct nq_part *up, *lo; /* whole lists, or near ones */
    bool up_near, lo_near;
    int n, npos;
    int pos[16];
    uint32_t cols, midbit, comb, next_u;
    bool done;
};

/* near: the thread's, used where a part is not listed whole. */
void nq_join_start(struct nq_join *j, const struct nq_parts *ps, int n,
                   uint32_t cols, int mid, struct nq_near *near);
/* Up to room patterns into out (fewer when the next list would not fit:
 * room must exceed lower.longest + NQ_JOIN_SLACK to make progress; the
 * vector joins may write that many entries past the last); j->done at the
 * end. */
#define NQ_JOIN_SLACK 4
size_t nq_join_fill(struct nq_join *j, enum nq_isa isa, uint64_t *out,
                    size_t room);

/* ---- the kernel (halves.c) ----------------------------------------------- */

struct nq_halves {
    int n;
    int top;                 /* rows above the middle: n / 2 */
    int bits;                /* pattern bits: 2 (n - 1 - n % 2), at most 50 */
    enum nq_isa isa;         /* the matcher's */
    struct nq_layout layout; /* classes and symmetry of the pairs */
    size_t cap; /* patterns a buffer holds (strategy.halves_memory) */
    struct nq_parts parts; /* the top half's two parts, read-only */
    uint64_t reps, per_unit, units;
    uint32_t *cols;   /* per canonical split: the top half's columns */
    signed char *mid; /* the middle queen's column (odd n), else -1 */
    unsigned char
        *weight;    /* the split's orbit: how many splits it stands for */
    uint64_t bytes; /* the memory it plans for, all threads' included */
};

/* Canonical splits of an n x n board (NQ_HALVES_MIN <= n <= NQ_HALVES_MAX)
 * in memory_mib MiB for the kernel and `threads` counting threads: the
 * part lists listed whole where they fit beside the threads' least
 * buffers, then pattern buffers of up to NQ_BUFFER_MIB a thread; n = 26
 * and 27 list their lower part per split (nq_near), n = 24..27 need over
 * 1 GB.  Less memory than a board needs is no error: the least it can
 * do with. */
#define NQ_BUFFER_MIB 64
struct nq_halves *nq_halves_new(int n, enum nq_isa isa, uint64_t memory_mib,
                                int threads);
void nq_halves_free(void *k);

/* Units: consecutive runs of per_unit canonical splits.  Solutions are
 * exact; unique stays 0; nodes are the half placements listed. */
bool nq_halves_count_unit(const void *data, uint64_t unit,
                          volatile sig_atomic_t *stop, struct cs_stats *out);
/* The same count, its rows added to levels (n + 1 of them; cs_problem's
 * profile_unit): depth = queens on the board, the half placements listed
 * (n / 2 queens each, top and bottom halves; a bottom set listed again per
 * block of a large top set counts again) at depth n / 2, no fails, and the
 * solutions (the compatible pairs, weighted by the split's orbit) at depth
 * n. */
struct cs_level;
bool nq_halves_profile_unit(const void *data, uint64_t unit,
                            volatile sig_atomic_t *stop, struct cs_stats *out,
                            struct cs_level *levels);
/* A unit's estimated work (cs_problem.unit_size), cheap next to counting. */
double nq_halves_unit_size(const void *data, uint64_t unit);
/* The weighed count of canonical split rep < reps alone (calibrate.c). */
uint64_t nq_halves_count_split(const struct nq_halves *k, uint64_t rep);

/* ---- the variants chosen (calibrate.c) ----------------------------------- */

/* The instruction set the environment asks for: *isa the CSEARCH_ISA value
 * (the highest when unset, and *set false).  Returns NULL, or the message
 * of a value that is no instruction set or one this processor lacks. */
const char *nq_isa_env(enum nq_isa *isa, bool *set, char *msg, size_t size);

/* The kernels' variants, chosen at setup: the one CSEARCH_ISA (set) caps
 * them at, or the fastest of those this processor runs, measured on a few
 * of the kernel's own units.  Each returns its reason for
 * cs_problem.isa_reason ("measured", "only", "CSEARCH_ISA", and for the
 * border kernel "CSEARCH_NQ_LANES" when that turned its lanes off). */
const char *nq_halves_choose(struct nq_halves *k, enum nq_isa isa, bool set);
struct nq_d4;
const char *nq_d4_choose(struct nq_d4 *k, enum nq_isa isa, bool set);

#endif
