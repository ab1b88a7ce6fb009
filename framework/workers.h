/* workers.h - the one thread pool of libcsearch (internal).
 *
 * workers_start() runs body(arg, t) on threads t = 0..n-1 with Ctrl-C and
 * SIGTERM blocked (they are the calling thread's to notice).  The lock and
 * the condition variable are the pool's users' too: work units, batches and
 * portfolios keep their shared state under w->lock and are woken on
 * w->wake, which also signals each thread's end (w->running drops).
 */
#ifndef CSEARCH_WORKERS_H
#define CSEARCH_WORKERS_H

#include <pthread.h>

struct workers {
    pthread_t *tids;
    int started;
    int running; /* under lock: threads still in body */
    pthread_mutex_t lock;
    pthread_cond_t wake; /* a thread ended, or a user's news */
    void (*body)(void *arg, int t);
    void *arg;
};

/* Start n threads; returns how many started (the rest count as ended). */
int workers_start(struct workers *w, int n, void (*body)(void *arg, int t),
                  void *arg);
/* Start, and wait for every thread: workers_start then join. */
int workers_run(struct workers *w, int n, void (*body)(void *arg, int t),
                void *arg);
/* With w->lock held: wait on w->wake at most ns nanoseconds. */
void workers_wait(struct workers *w, long ns);
/* Wait for every thread to end and release the pool. */
void workers_join(struct workers *w);
/* Sleep ns nanoseconds (< 1 s), signals or not. */
void workers_sleep(long ns);

#endif
