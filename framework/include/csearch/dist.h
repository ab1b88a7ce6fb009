/* csearch/dist.h - a count beyond one process: MPI ranks and merged logs.
 *
 * Under `mpirun -np K csearch CONFIG`, rank 0 hands out the work units of a
 * count (csearch/engine.h) to the other ranks as they ask, searches some
 * itself, sums the results, writes the checkpoint and alone reports; the
 * totals equal the serial run's.  A program calls cs_dist_init() first and
 * cs_dist_finish() last; outside mpirun (or in a build without MPI) both do
 * nothing and the rank is 0, so serial runs never touch MPI.
 *
 * cs_merge_logs() checks and sums checkpoint and slice logs (--units I:J) of
 * one config: every unit present, a unit logged twice logged the same.
 */
#ifndef CSEARCH_DIST_H
#define CSEARCH_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "csearch/error.h"
#include "csearch/model.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

/* Join the MPI job when launched by mpirun (or srun); returns this process's
 * rank, 0 when alone, -1 when launched as one of several processes by a
 * build without MPI.  Call before anything else reads argv. */
int cs_dist_init(int *argc, char ***argv);

/* The number of processes in the job (1 when alone). */
int cs_dist_size(void);

/* Leave the job.  failure: why this process ends without having joined a
 * count the others may be waiting in (rank 0 then tells the others to stop;
 * another rank tells rank 0 why), or NULL. */
void cs_dist_finish(const struct cs_error *failure);

/* The sum of logs of one config. */
struct cs_merge {
    uint64_t fingerprint;
    uint64_t units;   /* units of the config's split */
    uint64_t present; /* distinct units found in the logs */
    bool reports_unique;
    int torn;              /* logs whose torn last line was ignored */
    struct cs_stats total; /* the nodes above the split plus every unit */
    char missing[256];     /* "3, 7-9, 12" when present < units (cut
                              short with ", ...") */
};

/* Read the logs at paths[0..n-1] (same fingerprint, units and counts above
 * the split; a unit in several logs with the same counts) and sum them into
 * *out.  -1 with err (FILE:LINE:COL where it can) when a log is unreadable,
 * corrupt or of another config, or a unit is logged with two different
 * counts; missing units are not an error here (out->present says). */
int cs_merge_logs(const char *const *paths, int n, struct cs_merge *out,
                  struct cs_error *err);

#pragma GCC visibility pop

#endif
