/* csearch/engine.h - the depth-first search over a model's hooks.
 *
 * One struct cs_run carries a search: its settings going in and its
 * statistics coming out.  cs_search() runs it to the end, to a limit or to an
 * interrupt, and never prints: solutions reach the caller through
 * on_solution.  The search keeps an explicit stack (no recursion-depth
 * limit); with every hook a pure function of the state the run is
 * deterministic, so the same settings give the same node counts every time.
 */
#ifndef CSEARCH_ENGINE_H
#define CSEARCH_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

enum cs_select { CS_SELECT_IN_ORDER, CS_SELECT_MRV };

enum cs_status {
    CS_COMPLETE,    /* the whole tree was searched (or solve found one) */
    CS_LIMIT,       /* stopped by limits.solutions, nodes or seconds */
    CS_INTERRUPTED, /* *stop was set (Ctrl-C) */
    CS_INFEASIBLE,  /* optimise: proven that no solution exists */
    CS_OPTIMAL      /* optimise: best cost proven */
};

struct cs_limits {
    uint64_t solutions; /* 0 = none */
    uint64_t nodes;     /* 0 = none */
    double seconds;     /* 0 = none */
};

struct cs_stats {
    uint64_t nodes;     /* nodes entered, the root included */
    uint64_t checks;    /* candidate tests the model made */
    uint64_t fails;     /* nodes that ended with no solution and no child */
    uint64_t solutions; /* weighted: a mirrored branch counts twice */
    int max_depth;      /* deepest level entered (root = 0) */
    double seconds;     /* wall-clock time of the search */
};

/* Called for each solution found, with how many it stands for (its weight);
 * return false to stop the search (status CS_LIMIT). */
typedef bool (*cs_solution_fn)(void *ud, const struct cs_hooks *hooks,
                               const void *state, uint64_t weight);

struct cs_run {
    /* ---- in ---- */
    const struct cs_problem *problem;
    enum cs_task task;
    enum cs_select select;
    struct cs_limits limits;
    volatile sig_atomic_t *stop;  /* polled; non-zero = interrupt */
    cs_solution_fn on_solution;   /* may be NULL */
    void *ud;

    /* ---- out ---- */
    enum cs_status status;
    struct cs_stats stats;

    /* ---- the engine's own ---- */
    struct cs_frame *frames;      /* nvars + 1 of them */
    unsigned char *saved;         /* state copies when hooks->undo is NULL */
    double started;               /* monotonic seconds at start */
    uint64_t next_poll;           /* node count of the next clock/stop poll */
    uint64_t node_cap;            /* limits.nodes or UINT64_MAX */
    uint64_t solution_cap;        /* limits.solutions or UINT64_MAX */
};

/* One level of the explicit stack. */
struct cs_frame {
    int var;           /* variable being branched on */
    int value;         /* value applied last */
    uint64_t cursor;   /* the model's value iterator */
    uint64_t weight;   /* product of branch weights from the root */
};

/* Check that run's settings suit its problem (MRV needs domain_size, a task
 * the hooks can do).  Returns 0, or -1 with a message in err. */
int cs_run_validate(const struct cs_run *run, struct cs_error *err);

/* Run the search: fills run->status and run->stats.  Returns 0, or -1 if the
 * settings are invalid (err says why). */
int cs_search(struct cs_run *run, struct cs_error *err);

/* Monotonic wall clock in seconds. */
double cs_now(void);

const char *cs_status_name(enum cs_status status);
const char *cs_task_name(enum cs_task task);

#endif
