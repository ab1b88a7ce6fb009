/* dist_impl.h - what the MPI files share (internal to libcsearch): the
 * message tags, the poll interval and the handshake that makes a rank part
 * of a run.  mpi.c runs the counts' units, mpi_batch.c a batch's instances.
 *
 * Every rank that joins a run (dist_join) is ended by rank 0
 * (dist_end_all); a rank that never joins says why in cs_dist_finish.
 */
#ifndef CSEARCH_DIST_IMPL_H
#define CSEARCH_DIST_IMPL_H

#include <stdint.h>

#include "csearch/batch.h"

#define POLL_NS 200000L /* a controller's wake-up: 0.2 ms */

enum {
    TAG_HELLO = 1,
    TAG_UNIT,
    TAG_RESULT,
    TAG_STOP,
    TAG_END,
    TAG_INSTANCE,
    TAG_INSTANCE_RESULT
};

/* Rank 0: every other rank joins with the same config fingerprint and
 * number of pieces (units, instances), or says why it cannot: 0, or -1
 * with err (the first complaint).  The caller then ends them all. */
int dist_gather(uint64_t units, uint64_t fingerprint, struct cs_error *err);
/* Another rank: join rank 0's run. */
void dist_join(uint64_t units, uint64_t fingerprint);
/* Rank 0: end every other rank's run (TAG_END: rc non-zero on an error,
 * the status and the solutions). */
void dist_end_all(uint64_t rc, uint64_t status, uint64_t solutions);

/* batch.c: set up and search instance i of job's batch into *r (zeroed by
 * the caller), as every batch does it, within the batch's deadline. */
void batch_search(const struct cs_job *job, volatile sig_atomic_t *stop,
                  double deadline, uint64_t i, struct cs_batch_result *r);
/* The cs_now() at which the job's limits.seconds ends a batch started now
 * (0: no limit), and whether that time has come. */
double batch_deadline(const struct cs_job *job);
bool batch_past(double deadline);
/* How a batch of total instances ended with delivered of them delivered:
 * CS_INTERRUPTED by stop, CS_LIMIT by its deadline, else CS_COMPLETE. */
enum cs_status batch_ended(volatile sig_atomic_t *stop, uint64_t delivered,
                           uint64_t total);
/* Free r's solution and note (and set them NULL). */
void batch_result_clear(struct cs_batch_result *r);

/* ---- a count's units across ranks (mpi.c; without MPI, rank 0 of 1 and
 * nothing to do) */
struct pool; /* pool.h */
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
