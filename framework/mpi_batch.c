/* mpi_batch.c - a batch's instances shared out over the MPI ranks.
 *
 * Every rank sets the same batch up (the config is the same: dist_gather
 * checks the fingerprint and the number of instances).  Rank 0 hands
 * instance numbers out, a few in flight per rank, and searches instances
 * itself in between; the others search what they are sent and send each
 * result back whole.  Rank 0 alone calls on_result, strictly in input
 * order, so the output is the serial run's.  Each instance is searched to
 * the job's limits on its own, on one thread per rank.  A stop (Ctrl-C,
 * which mpirun passes on to every rank, or an instance that came back
 * interrupted) ends the hand-out; the instances out are waited for, and
 * rank 0 delivers what is ready in order, as the threads' batch does.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "csearch/batch.h"
#include "csearch/dist.h"
#include "dist_impl.h"
#include "units.h"
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
    struct wire w = {r->index, r->invalid, (uint32_t)r->status, r->err,
                     r->stats, text_len(r->solution), text_len(r->note)};
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

/* Receive the result probed in st into results[] (its index's slot);
 * returns that index, or total if the message makes no sense. */
static uint64_t take_result(const MPI_Status *st, uint64_t total,
                            struct cs_batch_result *results)
{
    int len;
    MPI_Get_count(st, MPI_BYTE, &len);
    char *buf = cs_xmalloc(len > 0 ? (size_t)len : 1);
    MPI_Recv(buf, len, MPI_BYTE, st->MPI_SOURCE, TAG_INSTANCE_RESULT,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    struct wire w;
    uint64_t at = total;
    if ((size_t)len >= sizeof w) {
        memcpy(&w, buf, sizeof w);
        if (w.index < total &&
            sizeof w + w.solution_len + w.note_len == (size_t)len) {
            at = w.index;
            struct cs_batch_result *r = &results[at];
            r->index = w.index;
            r->invalid = w.invalid;
            r->status = (enum cs_status)w.status;
            r->err = w.err;
            r->stats = w.stats;
            r->solution = take_text(buf + sizeof w, w.solution_len);
            r->note = take_text(buf + sizeof w + w.solution_len, w.note_len);
        }
    }
    free(buf);
    return at;
}

static void send_instance(int to, uint64_t i)
{
    MPI_Send(&i, 1, MPI_UINT64_T, to, TAG_INSTANCE, MPI_COMM_WORLD);
}

struct master {
    const struct cs_job *job;
    uint64_t total, next, delivered;
    struct cs_batch_result *results;
    bool *ready;
    int *held, size;
    uint64_t out; /* instances the other ranks hold */
    bool stopping;
};

/* Take the results that arrived and hand the senders more. */
static void serve(struct master *m)
{
    for (;;) {
        int flag;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_INSTANCE_RESULT, MPI_COMM_WORLD, &flag,
                   &st);
        if (!flag)
            return;
        uint64_t i = take_result(&st, m->total, m->results);
        m->held[st.MPI_SOURCE]--;
        m->out--;
        if (i < m->total) {
            m->ready[i] = true;
            if (m->results[i].status == CS_INTERRUPTED)
                m->stopping = true; /* that rank was stopped: all stop */
        }
        if (!m->stopping && m->next < m->total) {
            send_instance(st.MPI_SOURCE, m->next++);
            m->held[st.MPI_SOURCE]++;
            m->out++;
        }
    }
}

static void deliver(struct master *m, cs_batch_fn on_result, void *ud)
{
    while (m->delivered < m->total && m->ready[m->delivered]) {
        struct cs_batch_result *r = &m->results[m->delivered++];
        on_result(ud, r);
        batch_result_clear(r);
    }
}

static int run_master(const struct cs_job *job, volatile sig_atomic_t *stop,
                      cs_batch_fn on_result, void *ud, bool *stopped,
                      struct cs_error *err)
{
    struct master m = {.job = job, .total = job->problem.instances,
                       .size = cs_dist_size()};
    if (dist_gather(m.total, job->fingerprint, err)) {
        dist_end_all(1, CS_INTERRUPTED, 0);
        return -1;
    }
    m.results = cs_xcalloc(m.total ? m.total : 1, sizeof *m.results);
    m.ready = cs_xcalloc(m.total ? m.total : 1, sizeof *m.ready);
    m.held = cs_xcalloc((size_t)m.size, sizeof *m.held);
    for (int k = 0; k < CREDIT; k++)
        for (int r = 1; r < m.size && m.next < m.total; r++) {
            send_instance(r, m.next++);
            m.held[r]++;
            m.out++;
        }
    while (m.delivered < m.total) {
        serve(&m);
        deliver(&m, on_result, ud);
        if (*stop)
            m.stopping = true;
        if (m.stopping && !m.out)
            break; /* what is not ready now never will be */
        if (!m.stopping && m.next < m.total) {
            uint64_t i = m.next++;
            batch_search(job, stop, i, &m.results[i]);
            m.ready[i] = true;
        } else if (m.out) {
            workers_sleep(POLL_NS);
        }
    }
    dist_end_all(0, CS_COMPLETE, 0);
    for (uint64_t i = m.delivered; i < m.total; i++)
        batch_result_clear(&m.results[i]);
    *stopped = m.delivered < m.total || *stop;
    free(m.results);
    free(m.ready);
    free(m.held);
    return 0;
}

/* Another rank: search what rank 0 sends until it ends the run. */
static int run_worker(const struct cs_job *job, volatile sig_atomic_t *stop,
                      bool *stopped, struct cs_error *err)
{
    dist_join(job->problem.instances, job->fingerprint);
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
            *stopped = *stop;
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
        batch_search(job, stop, i, &r);
        send_result(&r);
        batch_result_clear(&r);
    }
}

int cs_batch_run_ranks(const struct cs_job *job, volatile sig_atomic_t *stop,
                       cs_batch_fn on_result, void *ud, bool *stopped,
                       struct cs_error *err)
{
    static volatile sig_atomic_t never;
    if (cs_dist_size() <= 1)
        return cs_batch_run(job, stop, on_result, ud, stopped, err);
    if (!stop)
        stop = &never;
    return dist_rank() == 0
               ? run_master(job, stop, on_result, ud, stopped, err)
               : run_worker(job, stop, stopped, err);
}

#else /* no MPI: one process, the threads' batch */

int cs_batch_run_ranks(const struct cs_job *job, volatile sig_atomic_t *stop,
                       cs_batch_fn on_result, void *ud, bool *stopped,
                       struct cs_error *err)
{
    return cs_batch_run(job, stop, on_result, ud, stopped, err);
}

#endif
