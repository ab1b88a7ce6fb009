/* search.h - the top of the engine (search.c), internal to libcsearch: the
 * spec's checks with the key each concerns, so that a config's reader
 * (job.c) points at the setting to blame.  cs_spec_validate and cs_search
 * are in csearch/engine.h.
 */
#ifndef CSEARCH_SEARCH_H
#define CSEARCH_SEARCH_H

#include "csearch/engine.h"

/* cs_spec_validate, and in *key the config key the failed check concerns
 * ("strategy.threads", "strategy.select", "strategy.local_moves"), or NULL
 * when none is to blame alone.  A model's messages begin "this model ". */
int spec_validate_key(const struct cs_spec *spec, const struct cs_split *split,
                      struct cs_error *err, const char **key);

#endif
