/* propagate.c - propagators posted into the store and run to a fixpoint:
 * three FIFO queues by priority (cheap propagators first), filled by the
 * store's watch lists (store.c) as domains change.  A fixpoint that runs
 * long looks at the clock and at the stop flag every FZN_POLL_RUNS runs
 * and gives the node up past the time limit (fzn.h: deadline, stop).
 */
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "fzn.h"

struct fzn_prop *fzn_post(struct fzn_store *s, const char *name, fzn_run_fn run,
                          int prio, const int *x, int nx, const int64_t *k,
                          int nk)
{
    if (s->nprops == s->props_cap) {
        s->props_cap = s->props_cap ? 2 * s->props_cap : 64;
        s->props =
            cs_xrealloc(s->props, (size_t)s->props_cap * sizeof *s->props);
    }
    struct fzn_prop *p = &s->props[s->nprops++];
    *p = (struct fzn_prop){.run = run,
                           .nx = nx,
                           .nk = nk,
                           .prio = prio,
                           .events = FZN_EV_ANY,
                           .name = name};
    p->x = cs_xmalloc((size_t)(nx ? nx : 1) * sizeof *p->x);
    if (nx)
        memcpy(p->x, x, (size_t)nx * sizeof *p->x);
    p->k = cs_xmalloc((size_t)(nk ? nk : 1) * sizeof *p->k);
    if (nk)
        memcpy(p->k, k, (size_t)nk * sizeof *p->k);
    return p;
}

void fzn_queue_clear(struct fzn_store *s)
{
    for (int q = 0; q < FZN_PRIOS; q++) {
        for (int i = 0; i < s->qlen[q]; i++)
            s->props[s->queue[q][(s->qhead[q] + i) % s->nprops]].queued = false;
        s->qhead[q] = s->qlen[q] = 0;
    }
}

/* How many propagator runs lie between two looks at the clock. */
#define FZN_POLL_RUNS 4096

static bool give_up(struct fzn_store *s)
{
    if (!s->gave_up &&
        ((s->stop && *s->stop) || (s->deadline > 0 && cs_now() >= s->deadline)))
        s->gave_up = true;
    return s->gave_up;
}

bool fzn_propagate(struct fzn_store *s)
{
    if (s->gave_up) {
        fzn_queue_clear(s);
        s->failed = true;
        return false;
    }
    while (!s->failed) {
        if (s->propagations % FZN_POLL_RUNS == FZN_POLL_RUNS - 1 &&
            give_up(s)) {
            fzn_queue_clear(s);
            s->failed = true;
            return false;
        }
        int q = 0;
        while (q < FZN_PRIOS && !s->qlen[q])
            q++;
        if (q == FZN_PRIOS)
            return true;
        struct fzn_prop *p = &s->props[s->queue[q][s->qhead[q]]];
        if (++s->qhead[q] == s->nprops)
            s->qhead[q] = 0;
        s->qlen[q]--;
        p->queued = false;
        s->propagations++;
        if (!p->run(s, p) || s->failed) {
            s->failed = true;
            s->culprit = p;
            p->weight++;
            if (!s->failures)
                s->failures =
                    cs_xcalloc((size_t)s->nvars + 1, sizeof *s->failures);
            for (int i = 0; i < p->nx; i++)
                s->failures[p->x[i]]++;
        }
    }
    fzn_queue_clear(s);
    return false;
}

void fzn_schedule_all(struct fzn_store *s)
{
    for (int p = 0; p < s->nprops; p++) {
        struct fzn_prop *pr = &s->props[p];
        if (pr->queued)
            continue;
        pr->queued = true;
        int q = pr->prio;
        int at = s->qhead[q] + s->qlen[q];
        s->queue[q][at >= s->nprops ? at - s->nprops : at] = p;
        s->qlen[q]++;
    }
}
