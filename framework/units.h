/* units.h - running a count as work units (internal to libcsearch).
 *
 * A pool of worker threads searches units [first, end) of a split.  On a
 * process alone (or on MPI rank 0) the workers pull unit numbers from an
 * atomic counter and record each finished unit (results, done, checkpoint);
 * rank 0's controller also hands units out to the other ranks (mpi.c).  On
 * another rank the pool is `fed`: its controller queues the units rank 0
 * sends and ships the workers' results back.
 */
#ifndef CSEARCH_UNITS_H
#define CSEARCH_UNITS_H

#include <stdatomic.h>

#include "checkpoint.h"
#include "csearch/engine.h"
#include "workers.h"

/* split asks for more than one search in this thread: threads, a
 * checkpoint or MPI ranks (NULL: no). */
bool cs_split_wanted(const struct cs_split *split);

/* The checks a count or a split makes of its spec (engine.c calls it). */
int cs_units_validate(const struct cs_spec *spec, const struct cs_split *split,
                      struct cs_error *err);

/* Split spec's count into units and run them on split->threads workers,
 * with the checkpoint and progress split asks for (and the other MPI ranks
 * when split->distribute).  Fills *out; -1 with err when the checkpoint
 * cannot be used, the slice lies beyond the units, another rank failed or
 * a count overflowed. */
int cs_search_units(const struct cs_spec *spec, const struct cs_split *split,
                    struct cs_result *out, struct cs_error *err);

/* The prefixes of a generic split: the nodes at the split depth, in the
 * order the body reaches them. */
struct frontier {
    int depth;
    bool record;
    int *prefixes; /* count * depth * 2 when recording */
    uint64_t *weights;
    uint64_t count, cap;
    struct cs_stats stats; /* of the nodes above the split depth */
};

/* How a unit handed to a worker came back. */
enum unit_end { UNIT_WHOLE, UNIT_PARTIAL, UNIT_DROPPED };

struct unit_result {
    uint64_t unit;
    enum unit_end end;
    struct cs_stats stats;
};

struct pool {
    const struct cs_spec *spec;
    const struct cs_split *split;
    struct cs_result *out;
    const struct cs_problem *problem;
    struct frontier fr;  /* generic units; unused with a kernel */
    uint64_t total;      /* units of the split */
    uint64_t first, end; /* the slice searched */
    double started;
    struct cs_stats *results;
    _Atomic unsigned char *done; /* finished (or resumed) */
    atomic_uint_fast64_t next;
    volatile sig_atomic_t stop; /* set by the controller */
    struct checkpoint *cp;      /* NULL: none kept */
    bool io_failed;             /* a checkpoint write failed (io_err) */
    struct cs_error io_err;
    atomic_uint_fast64_t finished; /* units done, resumed ones included */
    struct workers w;              /* w.lock guards everything below, cp;
                                      w.wake: a worker ended or, fed, has a
                                      result */
    struct cs_stats partial;       /* what interrupted units had found */

    /* progress: each unit's estimated size (units.c, size_units), filled
     * in by the controller while the workers count; sized: units of the
     * slice done so */
    double *size;
    uint64_t sized;
    unsigned char *resumed; /* NULL: none; else 1 per resumed unit */

    /* fed (MPI ranks other than 0): units queued by the controller */
    bool fed, ended;
    pthread_cond_t work; /* workers: a unit queued, or the end */
    uint64_t *queue;
    size_t qhead, qlen, qcap;
    struct unit_result *outbox; /* finished, not yet sent */
    size_t olen, ocap;
};

/* The next unit to search, false when none is left or the pool stops. */
bool pool_take(struct pool *pool, uint64_t *unit);
/* A unit finished whole: results, done, checkpoint (takes the lock). */
void pool_record(struct pool *pool, uint64_t unit, const struct cs_stats *s);
/* What a unit cut short had found (takes the lock). */
void pool_partial(struct pool *pool, const struct cs_stats *s);
/* Fed pool: queue a unit for the workers (with the lock held). */
void pool_queue(struct pool *pool, uint64_t unit);

/* ---- MPI (mpi.c; without MPI, rank 0 of 1 and nothing to do) ---------- */
int dist_rank(void);
/* Rank 0: wait for every rank to join with the same split and hand out the
 * first units; -1 with err (and the ranks told to end) if one cannot. */
int dist_master_start(struct pool *pool, struct cs_error *err);
/* Rank 0, from the controller: take the results that arrived, hand out more
 * units (none once pool->stop is set: the ranks are then told to stop).
 * True while some rank still holds units. */
bool dist_master_serve(struct pool *pool);
/* Rank 0: the run is over; tell every rank how (rc, status, solutions). */
void dist_master_end(struct pool *pool, int rc);
/* Another rank: the controller of a fed pool, until rank 0 ends the run;
 * then out->status and out->stats.solutions are rank 0's totals. */
int dist_worker(struct pool *pool, struct cs_error *err);

#endif
