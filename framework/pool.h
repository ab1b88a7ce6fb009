/* pool.h - the work pool of a count split into units (internal to
 * libcsearch), shared by the threads that search units (units.c) and the
 * controller that serves other MPI ranks (mpi.c).
 *
 * A pool of worker threads searches units [first, end) of a split.  On a
 * process alone (or on MPI rank 0) the workers pull unit numbers from an
 * atomic counter and record each finished unit (results, done, checkpoint);
 * rank 0's controller also hands units out to the other ranks (mpi.c).  On
 * another rank the pool is `fed`: its controller queues the units rank 0
 * sends and ships the workers' results back.
 */
#ifndef CSEARCH_POOL_H
#define CSEARCH_POOL_H

#include <stdatomic.h>

#include "checkpoint.h"
#include "csearch/engine.h"
#include "workers.h"

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

#endif
