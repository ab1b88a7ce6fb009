/* nqueens/internal.h - what the files of the N-Queens model share, and no
 * one else: here the fast kernel's, d4.c and its search on vector lanes,
 * lanes.c.
 */
#ifndef CSEARCH_NQUEENS_INTERNAL_H
#define CSEARCH_NQUEENS_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"
#include "nqueens/d4.h"
#include "nqueens/nqueens.h"

/* ---- the fast kernel: d4.c, and its search on vector lanes, lanes.c ---- */

/* The 8-lane interior search: x86-64 compilers that take per-function
 * targets; used when the processor has AVX-512 F and CD. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NQ_LANES 1
#else
#define NQ_LANES 0
#endif

#define NQ_LANE_ROWS 13  /* rows a lane searches: 12 columns in 60 bits + last */
#define NQ_LANE_PREFIX 3 /* rows the scalar walk fills at least */

/* The border queens, a corner queen once: at most four. */
struct nq_queens {
    int count;
    int r[4], c[4];
};

/* One border's interior search, set up by d4.c: the rows to search
 * bottom-up, what the border queens attack in each, and the counters. */
struct nq_plan {
    int n, m;                   /* board size, interior rows to search */
    uint64_t full;
    uint64_t cols;              /* columns the border queens hold, 0, n-1 */
    uint64_t attack[NQ_D4_MAX]; /* squares border queens attack, row rows[i] */
    int shift[NQ_D4_MAX];       /* rows[i + 1] - rows[i] */
    int rows[NQ_D4_MAX];
    int pos[NQ_D4_MAX];         /* tracked search: the queen of each row */
    uint64_t nodes, fails, stab_sum;
    bool stopped;               /* the search gave up on *stop */
    struct nq_queens border;    /* where the lanes' absolute masks start */
};

/* The solutions of pl's interior, as d4.c's interior() counts them (nodes,
 * fails and all), with rows[0..depth_end) walked in scalar and the rest on
 * vector lanes; sets pl->stopped and returns 0 if *stop ended it.  Only
 * where NQ_LANES is 1, on a processor nq_d4_lanes_supported() approves. */
uint64_t nq_interior_lanes(struct nq_plan *pl, int depth_end,
                           volatile sig_atomic_t *stop);

#endif
