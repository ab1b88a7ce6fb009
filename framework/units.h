/* units.h - running a count as work units (internal to libcsearch). */
#ifndef CSEARCH_UNITS_H
#define CSEARCH_UNITS_H

#include "csearch/engine.h"

/* Split run's count into units and run them on run->threads workers, with
 * the checkpoint and progress run asks for.  Fills run->status, run->stats
 * and the unit counts; -1 with err when the checkpoint cannot be used or a
 * count overflowed. */
int cs_search_units(struct cs_run *run, struct cs_error *err);

#endif
