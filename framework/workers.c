/* workers.c - the one thread pool: start, wait, join (workers.h).
 *
 * The condition variable runs on the monotonic clock, so a timed wait is
 * immune to jumps of the wall clock.  A thread that cannot be started is
 * simply not running: its users see fewer workers, never a hang.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "csearch/error.h"
#include "workers.h"

struct start {
    struct workers *w;
    int t;
};

static void *thread_main(void *arg)
{
    struct start s = *(struct start *)arg;
    free(arg);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM); /* mpirun's Ctrl-C, timeout's, Slurm's */
    pthread_sigmask(SIG_BLOCK, &block, NULL);
    s.w->body(s.w->arg, s.t);
    pthread_mutex_lock(&s.w->lock);
    s.w->running--;
    pthread_cond_broadcast(&s.w->wake);
    pthread_mutex_unlock(&s.w->lock);
    return NULL;
}

int workers_start(struct workers *w, int n, void (*body)(void *arg, int t),
                  void *arg)
{
    w->tids = cs_xcalloc(n > 0 ? (size_t)n : 1, sizeof *w->tids);
    w->started = 0;
    w->running = n;
    w->body = body;
    w->arg = arg;
    pthread_mutex_init(&w->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &attr);
    pthread_condattr_destroy(&attr);
    for (; w->started < n; w->started++) {
        struct start *s = cs_xmalloc(sizeof *s);
        *s = (struct start){w, w->started};
        if (pthread_create(&w->tids[w->started], NULL, thread_main, s)) {
            free(s);
            break;
        }
    }
    pthread_mutex_lock(&w->lock);
    w->running -= n - w->started;
    pthread_mutex_unlock(&w->lock);
    return w->started;
}

int workers_run(struct workers *w, int n, void (*body)(void *arg, int t),
                void *arg)
{
    int started = workers_start(w, n, body, arg);
    for (int t = 0; t < started; t++)
        pthread_join(w->tids[t], NULL);
    w->started = 0;
    return started;
}

void workers_wait(struct workers *w, long ns)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += ns;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&w->wake, &w->lock, &until);
}

void workers_join(struct workers *w)
{
    for (int t = 0; t < w->started; t++)
        pthread_join(w->tids[t], NULL);
    free(w->tids);
    w->tids = NULL;
    w->started = 0;
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
}

void workers_sleep(long ns)
{
    struct timespec ts = {0, ns};
    while (nanosleep(&ts, &ts) && errno == EINTR)
        ;
}
