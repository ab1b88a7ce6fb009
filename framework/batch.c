/* batch.c - a batch of instances on worker threads, results in input order.
 *
 * Workers take instance numbers from an atomic counter, set each instance
 * up and search it with an ordinary single-threaded run; the calling thread
 * hands the results to the caller strictly in input order, waiting on a
 * condition variable for the next one to be ready; a window of slots past
 * the next to deliver holds them.  Each result is written
 * by one worker and read by the caller only after its ready flag, under the
 * lock, so no result is touched by two threads at once.  The threads are
 * the library's one pool (workers.h).  With one thread
 * the calling thread searches the instances itself: a worker would cost a
 * wake-up and two context switches per instance, a third of the time of a
 * file of easy Sudokus.  Each thread lends its engines one memory for
 * the stack and states (engine_impl.h), reused from instance to instance.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/batch.h"
#include "dist_impl.h"
#include "engine_impl.h"
#include "workers.h"

struct batch {
    const struct cs_job *job;
    uint64_t total;
    /* instance i's result is in slot i % window, searched only once
     * i < delivered + window: memory for the window, not the batch */
    uint64_t window;
    uint64_t delivered; /* under w.lock */
    struct cs_batch_result *results;
    bool *ready; /* under w.lock */
    atomic_uint_fast64_t next;
    volatile sig_atomic_t *stop;
    double deadline;  /* cs_now() at which limits.seconds ends, 0: none */
    struct workers w; /* w.wake: a result is ready */
};

/* on_solution: keep the first solution as one string of its lines. */
static bool keep_first(void *ud, const struct cs_hooks *hooks,
                       const void *state, uint64_t weight)
{
    char **out = ud;
    (void)weight;
    if (*out || !hooks->emit)
        return true;
    struct cs_board board = {0};
    hooks->emit(state, 0, &board);
    size_t len = 1;
    for (size_t i = 0; i < board.count; i++)
        len += strlen(board.lines[i]);
    char *s = cs_xmalloc(len);
    s[0] = '\0';
    for (size_t i = 0; i < board.count; i++)
        strcat(s, board.lines[i]);
    cs_board_free(&board);
    *out = s;
    return true;
}

void batch_result_clear(struct cs_batch_result *r)
{
    free(r->solution);
    free(r->note);
    r->solution = r->note = NULL;
}

double batch_deadline(const struct cs_job *job)
{
    return job->limits.seconds > 0 ? cs_now() + job->limits.seconds : 0;
}

bool batch_past(double deadline)
{
    return deadline > 0 && cs_now() >= deadline;
}

void batch_search(const struct cs_job *job, volatile sig_atomic_t *stop,
                  double deadline, uint64_t i, struct cs_batch_result *r)
{
    struct cs_problem sub;
    memset(&sub, 0, sizeof sub);
    r->index = i;
    if (job->problem.setup_instance(job->problem.data, i, &sub, &r->err)) {
        r->invalid = true;
        return;
    }
    /* the batch's threads run instances side by side: no split */
    struct cs_spec spec;
    cs_job_spec(job, &spec, NULL);
    spec.problem = &sub;
    spec.stop = stop;
    if (deadline > 0) /* the batch's time left, not limits.seconds anew */
        spec.limits.seconds = cs_limit_left(deadline - cs_now(), 0);
    if (job->task == CS_TASK_GENERATE || job->task == CS_TASK_RATE) {
        /* the model made or judged it: the search says it is unique */
        spec.task = CS_TASK_COUNT;
        spec.limits.solutions = 2;
        r->note = sub.note ? cs_xstrdup(sub.note) : NULL;
    } else if (job->task != CS_TASK_COUNT) {
        spec.on_solution = keep_first;
        spec.ud = &r->solution;
    }
    struct cs_result res;
    if (cs_search(&spec, NULL, &res, &r->err))
        r->invalid = true;
    r->status = res.status;
    r->stats = res.stats;
    cs_problem_free(&sub);
}

static void worker(void *arg, int t)
{
    struct batch *b = arg;
    struct eng_memory memory = {0};
    (void)t;
    eng_lend(&memory); /* one engine's memory for all its instances */
    for (;;) {
        uint64_t i = atomic_fetch_add(&b->next, 1);
        if (i >= b->total || *b->stop || batch_past(b->deadline))
            break;
        /* a slow instance holds delivery up: wait for its slot to free
         * (polling the stop, which a signal sets without a wake-up) */
        pthread_mutex_lock(&b->w.lock);
        while (i >= b->delivered + b->window && !*b->stop)
            workers_wait(&b->w, POLL_NS);
        pthread_mutex_unlock(&b->w.lock);
        if (*b->stop)
            break;
        batch_search(b->job, b->stop, b->deadline, i,
                     &b->results[i % b->window]);
        pthread_mutex_lock(&b->w.lock);
        b->ready[i % b->window] = true;
        pthread_cond_broadcast(&b->w.wake);
        pthread_mutex_unlock(&b->w.lock);
    }
    eng_lend(NULL);
    eng_memory_free(&memory);
}

/* How a batch ended when delivered of its instances were delivered. */
/* One thread: each instance searched and delivered in turn, no worker. */
static uint64_t run_inline(struct batch *b, cs_batch_fn on_result, void *ud)
{
    uint64_t i = 0;
    struct eng_memory memory = {0};
    eng_lend(&memory);
    for (; i < b->total && !*b->stop && !batch_past(b->deadline); i++) {
        struct cs_batch_result r;
        memset(&r, 0, sizeof r);
        batch_search(b->job, b->stop, b->deadline, i, &r);
        on_result(ud, &r);
        batch_result_clear(&r);
    }
    eng_lend(NULL);
    eng_memory_free(&memory);
    return i;
}

enum cs_status batch_ended(volatile sig_atomic_t *stop, uint64_t delivered,
                           uint64_t total)
{
    if (*stop)
        return CS_INTERRUPTED; /* in-flight instances came back so */
    return delivered < total ? CS_LIMIT : CS_COMPLETE;
}

int cs_batch_run(const struct cs_job *job, volatile sig_atomic_t *stop,
                 cs_batch_fn on_result, void *ud, enum cs_status *ended,
                 struct cs_error *err)
{
    static volatile sig_atomic_t never;
    struct batch b = {.job = job,
                      .total = job->problem.instances,
                      .stop = stop ? stop : &never,
                      .deadline = batch_deadline(job)};
    if (job->threads <= 1) {
        *ended = batch_ended(b.stop, run_inline(&b, on_result, ud), b.total);
        return 0;
    }
    b.window = 256 * (uint64_t)job->threads;
    b.results = cs_xcalloc(b.window, sizeof *b.results);
    b.ready = cs_xcalloc(b.window, sizeof *b.ready);
    atomic_init(&b.next, 0);
    int started = workers_start(&b.w, job->threads, worker, &b);

    uint64_t delivered = 0;
    pthread_mutex_lock(&b.w.lock);
    while (delivered < b.total) {
        uint64_t k = delivered % b.window;
        if (b.ready[k]) {
            pthread_mutex_unlock(&b.w.lock);
            on_result(ud, &b.results[k]);
            batch_result_clear(&b.results[k]);
            pthread_mutex_lock(&b.w.lock);
            b.ready[k] = false;
            b.delivered = ++delivered;
            pthread_cond_broadcast(&b.w.wake); /* a slot is free */
        } else if (b.w.running == 0) {
            break; /* stopped: what is not ready never will be */
        } else {
            pthread_cond_wait(&b.w.wake, &b.w.lock);
        }
    }
    pthread_mutex_unlock(&b.w.lock);
    workers_join(&b.w);
    /* an instance finished after the delivery loop gave up is dropped */
    for (uint64_t k = 0; k < b.window; k++)
        batch_result_clear(&b.results[k]);
    *ended = batch_ended(b.stop, delivered, b.total);

    free(b.results);
    free(b.ready);
    if (!started)
        return cs_error_set(err, NULL, "cannot start a worker thread");
    return 0;
}
