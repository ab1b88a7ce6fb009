/* units.h - running a count as work units (internal to libcsearch): the
 * checks of a split and its entry point.  The work pool it runs is pool.h;
 * the other MPI ranks are served by mpi.c (dist_impl.h).
 */
#ifndef CSEARCH_UNITS_H
#define CSEARCH_UNITS_H

#include "csearch/engine.h"

/* split asks for more than one search in this thread: threads, a
 * checkpoint or MPI ranks (NULL: no). */
bool cs_split_wanted(const struct cs_split *split);

/* The checks a count or a split makes of its spec (search.c calls it);
 * *key: the config key a failed check concerns, or NULL. */
int cs_units_validate(const struct cs_spec *spec, const struct cs_split *split,
                      struct cs_error *err, const char **key);

/* Split spec's count into units and run them on split->threads workers,
 * with the checkpoint and progress split asks for (and the other MPI ranks
 * when split->distribute).  Fills *out; -1 with err when the checkpoint
 * cannot be used, the slice lies beyond the units, another rank failed or
 * a count overflowed. */
int cs_search_units(const struct cs_spec *spec, const struct cs_split *split,
                    struct cs_result *out, struct cs_error *err);

#endif
