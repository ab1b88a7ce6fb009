/* checkpoint.h - the log of finished work units (internal to libcsearch).
 *
 * A text file: a header line tying it to one config (its fingerprint) and one
 * split (the number of units), a `top` line with the counts of the nodes above
 * the split (counted once per run, not per unit), then one line per finished
 * unit with its counts and a checksum of the line.  Each finished unit's line
 * is appended with one write() as soon as the unit ends, so a killed process
 * loses only the units in flight and leaves at most one torn last line, which
 * resuming drops (the unit is searched again) and cuts off the file.
 * Anything else that does not parse or check out is refused, never trusted.
 * A slice log (--units I:J) is the same file holding only its slice's units,
 * so `csearch merge` reads checkpoints and slice logs alike.
 */
#ifndef CSEARCH_CHECKPOINT_H
#define CSEARCH_CHECKPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

/* What a log belongs to: one config's split into units. */
struct checkpoint_head {
    uint64_t fingerprint;
    uint64_t units;
    bool reports_unique; /* stats.unique means something */
    struct cs_stats top; /* the nodes above the split depth */
};

struct checkpoint {
    const char *path;
    int fd;
    char *buf; /* lines waiting for the next flush */
    size_t len, cap;
    bool broken; /* a write failed: nothing more is written, so the file
                    ends at most with one torn line */
};

/* Open path for appending.  With resume, read what it holds first: its head
 * must equal *head, each recorded unit sets done[unit] = 1 and results[unit];
 * *resumed counts them and *torn says a torn last line was dropped.  Without
 * resume the file must not exist yet or be empty.  Errors name
 * FILE:LINE:COL where they can. */
int checkpoint_open(struct checkpoint *cp, const char *path, bool resume,
                    const struct checkpoint_head *head, unsigned char *done,
                    struct cs_stats *results, uint64_t *resumed, bool *torn,
                    struct cs_error *err);

/* Queue one finished unit's line; checkpoint_flush writes the queue. */
void checkpoint_add(struct checkpoint *cp, uint64_t unit,
                    const struct cs_stats *stats);
int checkpoint_flush(struct checkpoint *cp, struct cs_error *err);

/* Flush and close; safe on a checkpoint that failed to open. */
int checkpoint_close(struct checkpoint *cp, struct cs_error *err);

#endif
