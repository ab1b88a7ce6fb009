/* csearch/profiler.h - streaming a traced search to a running CP-Profiler.
 *
 * A profiler is an observer of the engine like a tracer (csearch/trace.h):
 * it is the run's on_trace callback and sends each node of the tree over
 * TCP as it is entered, in CP-Profiler's protocol, so the MiniZinc IDE's
 * profiler draws the search while it runs.  A node is sent when it is
 * entered, with its number of children counted from the model's values
 * for the chosen variable; parents always go before their children.
 * Order of calls: cs_profiler_connect, run.on_trace = cs_profiler_step,
 * cs_search, cs_profiler_done, cs_profiler_free.  A profiler that goes away
 * during the search, or takes no message for CS_PROFILER_TIMEOUT seconds,
 * never stops it: sending stops, cs_profiler_lost says so.  A run of
 * several searches (restarts, neighbourhood rounds, fzn-csearch -f's
 * phases) sends several trees, each root after the first a restart.
 */
#ifndef CSEARCH_PROFILER_H
#define CSEARCH_PROFILER_H

#include <stdbool.h>
#include <stddef.h>

#include "csearch/engine.h"

#pragma GCC visibility push(default)

/* CP-Profiler's port when none is given. */
#define CS_PROFILER_PORT 6565

/* Seconds a connection or one message may take before the profiler is
 * given up (connecting: an error; sending: lost). */
#define CS_PROFILER_TIMEOUT 10

struct cs_profiler;

/* What the START message tells the profiler about the run. */
struct cs_profiler_start {
    const char *name; /* the execution's name in the profiler's list */
    /* The id the profiler knows the run by (the MiniZinc IDE gives one to
     * each run it starts: --cp-profiler ID,PORT); negative: none sent. */
    long execution_id;
    /* More than one tree may come: each root after the first is sent as a
     * restart, under the profiler's super-root.  Without it the first tree
     * is all that is sent. */
    bool restarts;
};

/* Connect to where ("PORT" or "HOST:PORT"; the host 127.0.0.1 by default)
 * and send START.  NULL on failure, with why in msg. */
struct cs_profiler *cs_profiler_connect(const char *where,
                                        const struct cs_profiler_start *start,
                                        char *msg, size_t size);
/* The run's on_trace: ud is the profiler. */
void cs_profiler_step(void *ud, const struct cs_trace_event *event,
                      const struct cs_hooks *hooks, const void *state);
/* After cs_search: tell the profiler the search is over. */
void cs_profiler_done(struct cs_profiler *p);
/* Nodes sent, and whether the connection broke (nothing sent after it). */
unsigned long long cs_profiler_sent(const struct cs_profiler *p);
bool cs_profiler_lost(const struct cs_profiler *p);
void cs_profiler_free(struct cs_profiler *p);

#pragma GCC visibility pop

#endif
