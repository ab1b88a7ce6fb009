/* mpi_batch.c - a batch's instances shared out over the MPI ranks.
 *
 * Every rank sets the same batch up (the config is the same: dist_gather
 * checks the fingerprint and the number of instances).  Rank 0 hands
 * instance numbers out, a few in flight per rank, and searches instances
 * itself in between, all within a window past the next one to deliver (so
 * its memory does not grow with the batch); the others search what they
 * are sent and send each result back whole.  Rank 0 alone calls
 * on_result, strictly in input order, so the output is the serial run's.
 * Each instance is searched to the job's limits on its own, on one thread
 * per rank.  A stop (Ctrl-C,
 * which mpirun passes on to every rank, or an instance that came back
 * interrupted) ends the batch at once: rank 0 delivers what is ready in
 * order and drops what the others still hold, as the threads' batch drops
 * what finishes after its delivery gave up.  (After a Ctrl-C mpirun may
 * drop the last lines rank 0 writes, the summary among them.)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "csearch/batch.h"
#include "csearch/dist.h"
#include "dist_impl.h"
#include "workers.h"

#ifdef CSEARCH_HAVE_MPI
#include <mpi.h>

#define CREDIT 8 /* instances in flight per other rank */

/* A result on the wire: this, then the solution's and the note's bytes
 * (ranks share one architecture, as the counts' messages assume). */
struct wire {
    uint64_t index;
    uint32_t invalid, status;
    struct cs_error err;
    struct cs_stats stats;
    uint32_t solution_len, note_len; /* 0: none */
};

static uint32_t text_len(const char *s)
{
    return s ? (uint32_t)strlen(s) + 1 : 0;
}

static void send_result(const struct cs_batch_result *r)
{
    struct wire w = {r->index,         r->invalid, (uint32_t)r->status,
                     r->err,           r->stats,   text_len(r->solution),
                     text_len(r->note)};
    size_t len = sizeof w + w.solution_len + w.note_len;
    char *buf = cs_xmalloc(len);
    memcpy(buf, &w, sizeof w);
    if (w.solution_len)
        memcpy(buf + sizeof w, r->solution, w.solution_len);
    if (w.note_len)
        memcpy(buf + sizeof w + w.solution_len, r->note, w.note_len);
    MPI_Send(buf, (int)len, MPI_BYTE, 0, TAG_INSTANCE_RESULT, MPI_COMM_WORLD);
    free(buf);
}

static char *take_text(const char *at, uint32_t len)
{
    if (!len)
        return NULL;
    char *s = cs_xmalloc(len);
    memcpy(s, at, len);
    s[len - 1] = '\0';
    return s;
}

/* Receive the result probed in st into *r: false if the message makes
 * no sense (then *r is left empty). */
static bool take_result(const MPI_Status *st, uint64_t total,
                        struct cs_batch_result *r)
{
    int len;
    MPI_Get_count(st, MPI_BYTE, &len);
    char *buf = cs_xmalloc(len > 0 ? (size_t)len : 1);
    MPI_Recv(buf, len, MPI_BYTE, st->MPI_SOURCE, TAG_INSTANCE_RESULT,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    struct wire w;
    bool sane = (size_t)len >= sizeof w;
    if (sane) {
        memcpy(&w, buf, sizeof w);
        sane = w.index < total &&
               sizeof w + w.solution_len + w.note_len == (size_t)len;
    }
    if (sane) {
        r->index = w.index;
        r->invalid = w.invalid;
        r->status = (enum cs_status)w.status;
        r->err = w.err;
        r->stats = w.stats;
        r->solution = take_text(buf + sizeof w, w.solution_len);
        r->note = take_text(buf + sizeof w + w.solution_len, w.note_len);
    }
    free(buf);
    return sane;
}

static void send_instance(int to, uint64_t i)
{
    MPI_Send(&i, 1, MPI_UINT64_T, to, TAG_INSTANCE, MPI_COMM_WORLD);
}

/* Rank 0's view: instances [delivered, next) are out or ready, at most
 * `window` of them, each in slot index % window. */
struct master {
    uint64_t total, next, delivered, window;
    struct cs_batch_result *results;
    bool *ready;
    int *held, size;
    uint64_t out; /* instances the other ranks hold */
    bool stopping;
};

static uint64_t slot(const struct master *m, uint64_t i)
{
    return i % m->window;
}

/* Take the results that arrived. */
static void serve(struct master *m)
{
    for (;;) {
        int flag;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_INSTANCE_RESULT, MPI_COMM_WORLD, &flag,
                   &st);
        if (!flag)
            return;
        struct cs_batch_result r;
        memset(&r, 0, sizeof r);
        bool sane = take_result(&st, m->total, &r);
        m->held[st.MPI_SOURCE]--;
        m->out--;
        if (!sane || r.index < m->delivered || r.index >= m->next) {
            batch_result_clear(&r);
            continue;
        }
        m->results[slot(m, r.index)] = r;
        m->ready[slot(m, r.index)] = true;
        if (r.status == CS_INTERRUPTED)
            m->stopping = true; /* that rank was stopped: all stop */
    }
}

/* Is there an instance to hand out within the window? */
static bool more(const struct master *m)
{
    return m->next < m->total && m->next < m->delivered + m->window;
}

/* Each other rank holds up to CREDIT instances. */
static void top_up(struct master *m)
{
    for (int r = 1; r < m->size; r++)
        while (m->held[r] < CREDIT && more(m)) {
            send_instance(r, m->next++);
            m->held[r]++;
            m->out++;
        }
}

static void deliver(struct master *m, cs_batch_fn on_result, void *ud)
{
    while (m->delivered < m->next && m->ready[slot(m, m->delivered)]) {
        uint64_t k = slot(m, m->delivered++);
        on_result(ud, &m->results[k]);
        batch_result_clear(&m->results[k]);
        m->ready[k] = false;
    }
}

static int run_master(const struct cs_job *job, volatile sig_atomic_t *stop,
                      cs_batch_fn on_result, void *ud, enum cs_status *ended,
                      struct cs_error *err)
{
    struct master m = {.total = job->problem.instances, .size = cs_dist_size()};
    if (dist_gather(m.total, job->fingerprint, err)) {
        dist_end_all(1, CS_INTERRUPTED, 0);
        return -1;
    }
    /* room for the instances out and a slow one that holds delivery up */
    m.window = 64 * CREDIT * (uint64_t)m.size;
    m.results = cs_xcalloc(m.window, sizeof *m.results);
    m.ready = cs_xcalloc(m.window, sizeof *m.ready);
    m.held = cs_xcalloc((size_t)m.size, sizeof *m.held);
    double deadline = batch_deadline(job);
    while (m.delivered < m.total) {
        bool late = batch_past(deadline); /* limits.seconds: as a stop */
        if (!late)
            top_up(&m);
        serve(&m);
        deliver(&m, on_result, ud);
        /* stopped: mpirun ends every rank soon after it passes Ctrl-C on,
         * so what is not ready now is dropped, not waited for */
        if (*stop || m.stopping || late)
            break;
        if (more(&m)) {
            uint64_t i = m.next++;
            struct cs_batch_result *r = &m.results[slot(&m, i)];
            batch_search(job, stop, deadline, i, r);
            m.ready[slot(&m, i)] = true;
        } else if (m.out) {
            workers_sleep(POLL_NS);
        }
    }
    dist_end_all(0, *stop || m.stopping ? CS_INTERRUPTED : CS_COMPLETE, 0);
    for (uint64_t k = 0; k < m.window; k++)
        batch_result_clear(&m.results[k]);
    *ended = m.stopping && !*stop ? CS_INTERRUPTED
                                  : batch_ended(stop, m.delivered, m.total);
    free(m.results);
    free(m.ready);
    free(m.held);
    return 0;
}

/* Another rank: search what rank 0 sends until it ends the run. */
static int run_worker(const struct cs_job *job, volatile sig_atomic_t *stop,
                      enum cs_status *ended, struct cs_error *err)
{
    dist_join(job->problem.instances, job->fingerprint);
    double deadline = batch_deadline(job);
    for (;;) {
        int flag;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            workers_sleep(POLL_NS);
            continue;
        }
        if (st.MPI_TAG == TAG_END) {
            uint64_t end[3];
            MPI_Recv(end, 3, MPI_UINT64_T, 0, TAG_END, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            *ended = *stop ? CS_INTERRUPTED : CS_COMPLETE;
            if (end[0])
                return cs_error_set(err, NULL,
                                    "rank 0 ended the batch on an error");
            return 0;
        }
        uint64_t i;
        MPI_Recv(&i, 1, MPI_UINT64_T, 0, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (st.MPI_TAG != TAG_INSTANCE)
            continue;
        struct cs_batch_result r;
        memset(&r, 0, sizeof r);
        batch_search(job, stop, deadline, i, &r);
        send_result(&r);
        batch_result_clear(&r);
    }
}

int cs_batch_run_ranks(const struct cs_job *job, volatile sig_atomic_t *stop,
                       cs_batch_fn on_result, void *ud, enum cs_status *ended,
                       struct cs_error *err)
{
    static volatile sig_atomic_t never;
    if (cs_dist_size() <= 1)
        return cs_batch_run(job, stop, on_result, ud, ended, err);
    if (!stop)
        stop = &never;
    return dist_rank() == 0 ? run_master(job, stop, on_result, ud, ended, err)
                            : run_worker(job, stop, ended, err);
}

#else /* no MPI: one process, the threads' batch */

int cs_batch_run_ranks(const struct cs_job *job, volatile sig_atomic_t *stop,
                       cs_batch_fn on_result, void *ud, enum cs_status *ended,
                       struct cs_error *err)
{
    return cs_batch_run(job, stop, on_result, ud, ended, err);
}

#endif
