/* mpi.c - work units across MPI ranks: rank 0 hands out, the others search.
 *
 * Every rank computes the same split (a config and its split are
 * deterministic) and runs a pool of worker threads (units.c).  Rank 0's pool
 * pulls units from its own counter; its controller also sends units to the
 * other ranks, a few in flight per rank so none waits for the next, and takes
 * their results in: each whole unit is recorded (and logged to the
 * checkpoint) on rank 0 exactly as a local one.  The other ranks' pools are
 * fed: their controller queues what rank 0 sends and returns each unit once,
 * whole, partial (stopped) or dropped (stopped before it began), so rank 0
 * always knows which units are out.  Only the controllers call MPI
 * (MPI_THREAD_FUNNELED); they poll every 0.2 ms, never spin.
 *
 * Without MPI (or outside mpirun) this file is the trivial rank 0 of 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/dist.h"
#include "dist_impl.h"
#include "pool.h"

#ifdef CSEARCH_HAVE_MPI
#include <inttypes.h>
#include <mpi.h>

#define CREDIT 16 /* units in flight per worker thread of a rank */

/* A rank joining a count (or saying why it cannot): sent as bytes, so the
 * ranks must share one architecture, as the binary they run does. */
struct hello {
    uint64_t ok, units, fingerprint;
    char msg[512];
};

static bool active; /* MPI_Init was called */
static int rank, size = 1;
static bool joined; /* took part in a count's exchange */

/* rank 0's view of the other ranks */
static int *held;    /* units each rank holds */
static uint64_t out; /* units held by all of them */
static int credit;
static bool stop_sent;

static bool launched_by_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") ||
           getenv("PMIX_RANK");
}

int cs_dist_init(int *argc, char ***argv)
{
    if (active || !launched_by_mpirun())
        return 0;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS)
        return 0;
    active = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return rank;
}

int cs_dist_size(void)
{
    return size;
}

int dist_rank(void)
{
    return rank;
}

static void send_end(int to, uint64_t rc, uint64_t status, uint64_t solutions)
{
    uint64_t e[3] = {rc, status, solutions};
    MPI_Send(e, 3, MPI_UINT64_T, to, TAG_END, MPI_COMM_WORLD);
}

void dist_end_all(uint64_t rc, uint64_t status, uint64_t solutions)
{
    joined = true;
    for (int r = 1; r < size; r++)
        send_end(r, rc, status, solutions);
}

void dist_join(uint64_t units, uint64_t fingerprint)
{
    joined = true;
    struct hello h = {1, units, fingerprint, ""};
    MPI_Send(&h, sizeof h, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
}

int dist_gather(uint64_t units, uint64_t fingerprint, struct cs_error *err)
{
    joined = true;
    int rc = 0;
    for (int r = 1; r < size; r++) {
        struct hello h;
        MPI_Recv(&h, sizeof h, MPI_BYTE, r, TAG_HELLO, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        h.msg[sizeof h.msg - 1] = '\0';
        if (rc)
            continue; /* the first complaint is the one reported */
        if (!h.ok)
            rc = cs_error_set(err, NULL, "rank %d of %d: %s", r, size, h.msg);
        else if (h.fingerprint != fingerprint)
            rc = cs_error_set(err, NULL,
                              "rank %d of %d runs another config "
                              "(fingerprint %016" PRIx64 ", rank 0 %016" PRIx64
                              ")",
                              r, size, h.fingerprint, fingerprint);
        else if (h.units != units)
            rc = cs_error_set(err, NULL,
                              "rank %d of %d splits into %" PRIu64
                              " units, rank 0 into %" PRIu64,
                              r, size, h.units, units);
    }
    return rc;
}

void cs_dist_finish(const struct cs_error *failure)
{
    if (!active)
        return;
    /* a rank that took no part in a count squares the protocol: rank 0
     * ends the others, the others say why and wait for that end */
    if (!joined && size > 1) {
        if (rank == 0) {
            for (int r = 1; r < size; r++)
                send_end(r, 1, CS_INTERRUPTED, 0);
        } else {
            struct hello h = {0};
            if (failure)
                cs_error_format(failure, h.msg, sizeof h.msg);
            else
                snprintf(h.msg, sizeof h.msg, "did not start the count");
            MPI_Send(&h, sizeof h, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
            uint64_t e[3];
            MPI_Recv(e, 3, MPI_UINT64_T, 0, TAG_END, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
    }
    MPI_Finalize();
    active = false;
}

/* ---- rank 0 ------------------------------------------------------------- */

static void hand_out(struct pool *pool, int to)
{
    uint64_t unit;
    while (held[to] < credit && pool_take(pool, &unit)) {
        MPI_Send(&unit, 1, MPI_UINT64_T, to, TAG_UNIT, MPI_COMM_WORLD);
        held[to]++;
        out++;
    }
}

int dist_master_start(struct pool *pool, struct cs_error *err)
{
    held = cs_xcalloc((size_t)size, sizeof *held);
    out = 0;
    stop_sent = false;
    credit = CREDIT * (pool->split->threads > 1 ? pool->split->threads : 1);
    int rc = dist_gather(pool->total, pool->split->fingerprint, err);
    if (!rc)
        for (int r = 1; r < size; r++)
            hand_out(pool, r);
    return rc;
}

bool dist_master_serve(struct pool *pool)
{
    int flag;
    for (;;) {
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &flag,
                   MPI_STATUS_IGNORE);
        if (!flag)
            break;
        /* a rank was interrupted (mpirun passes Ctrl-C on as SIGTERM to
         * every rank): the whole count stops as if rank 0 had been */
        uint64_t none;
        MPI_Recv(&none, 1, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_STOP,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (pool->spec->stop)
            *pool->spec->stop = 1;
        else
            pool->stop = 1;
    }
    if (pool->stop && !stop_sent) {
        stop_sent = true;
        for (int r = 1; r < size; r++)
            if (held[r]) {
                uint64_t none = 0;
                MPI_Send(&none, 1, MPI_UINT64_T, r, TAG_STOP, MPI_COMM_WORLD);
            }
    }
    for (;;) {
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            break;
        uint64_t m[8];
        MPI_Recv(m, 8, MPI_UINT64_T, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        held[st.MPI_SOURCE]--;
        out--;
        struct cs_stats s = {.nodes = m[2],
                             .checks = m[3],
                             .fails = m[4],
                             .solutions = m[5],
                             .unique = m[6],
                             .max_depth = (int)m[7]};
        if (m[1] == UNIT_WHOLE && m[0] < pool->total && !pool->done[m[0]])
            pool_record(pool, m[0], &s);
        else if (m[1] == UNIT_PARTIAL)
            pool_partial(pool, &s);
        if (!pool->stop)
            hand_out(pool, st.MPI_SOURCE);
    }
    return out > 0;
}

void dist_master_end(struct pool *pool, int rc)
{
    if (!active || rank != 0 || size < 2)
        return;
    dist_end_all(rc != 0, pool->out->status, pool->out->stats.solutions);
    free(held);
    held = NULL;
}

/* ---- the other ranks ---------------------------------------------------- */

static void send_result(const struct unit_result *r)
{
    const struct cs_stats *s = &r->stats;
    uint64_t m[8] = {r->unit,  r->end,       s->nodes,  s->checks,
                     s->fails, s->solutions, s->unique, (uint64_t)s->max_depth};
    MPI_Send(m, 8, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
}

/* Stop the fed pool: its workers end their units (partial), and every unit
 * still queued goes back to rank 0, dropped. */
static void stop_and_drop(struct pool *pool)
{
    pthread_mutex_lock(&pool->w.lock);
    pool->stop = 1;
    size_t dropped = pool->qlen;
    uint64_t *back = dropped ? cs_xmalloc(dropped * sizeof *back) : NULL;
    for (size_t k = 0; k < dropped; k++) {
        back[k] = pool->queue[pool->qhead];
        pool->qhead = (pool->qhead + 1) % pool->qcap;
    }
    pool->qlen = 0;
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->w.lock);
    for (size_t k = 0; k < dropped; k++)
        send_result(&(struct unit_result){back[k], UNIT_DROPPED, {0}});
    free(back);
}

/* What rank 0 sent: units to queue, stop, or the end (true). */
static bool take_messages(struct pool *pool, uint64_t *end)
{
    for (;;) {
        int flag;
        MPI_Status st;
        MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            return false;
        if (st.MPI_TAG == TAG_END) {
            MPI_Recv(end, 3, MPI_UINT64_T, 0, TAG_END, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            return true;
        }
        uint64_t unit = 0;
        MPI_Recv(&unit, 1, MPI_UINT64_T, 0, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (st.MPI_TAG == TAG_UNIT) {
            pthread_mutex_lock(&pool->w.lock);
            pool_queue(pool, unit);
            pthread_mutex_unlock(&pool->w.lock);
        }
        if (st.MPI_TAG == TAG_STOP || pool->stop)
            stop_and_drop(pool);
    }
}

int dist_worker(struct pool *pool, struct cs_error *err)
{
    dist_join(pool->total, pool->split->fingerprint);
    uint64_t end[3];
    struct unit_result *sending = NULL;
    size_t cap = 0;
    bool told = false;
    for (;;) {
        if (!told && pool->spec->stop && *pool->spec->stop) {
            /* interrupted here: rank 0 stops every rank and ends the
             * count with what is finished */
            told = true;
            uint64_t none = 0;
            MPI_Send(&none, 1, MPI_UINT64_T, 0, TAG_STOP, MPI_COMM_WORLD);
            stop_and_drop(pool);
        }
        pthread_mutex_lock(&pool->w.lock);
        if (!pool->olen && pool->w.running > 0)
            workers_wait(&pool->w, POLL_NS);
        size_t n = pool->olen;
        if (n > cap) {
            cap = pool->ocap;
            sending = cs_xrealloc(sending, cap * sizeof *sending);
        }
        if (n)
            memcpy(sending, pool->outbox, n * sizeof *sending);
        pool->olen = 0;
        int running = pool->w.running;
        pthread_mutex_unlock(&pool->w.lock);
        for (size_t k = 0; k < n; k++)
            send_result(&sending[k]);
        if (take_messages(pool, end))
            break;
        if (!running && !n)
            workers_sleep(POLL_NS);
    }
    free(sending);
    pthread_mutex_lock(&pool->w.lock);
    pool->ended = true;
    pool->stop = 1; /* an end on an error may come with units in hand */
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->w.lock);
    pool->out->status = (enum cs_status)end[1];
    pool->out->stats.solutions = end[2];
    if (end[0])
        return cs_error_set(err, NULL, "rank 0 ended the count on an error");
    return 0;
}

#else /* no MPI: one process, rank 0 of 1 */

int cs_dist_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* mpirun -np K of a build without MPI would run K whole counts */
    const char *k = getenv("OMPI_COMM_WORLD_SIZE");
    if (!k)
        k = getenv("PMI_SIZE");
    return k && atoi(k) > 1 ? -1 : 0;
}

int cs_dist_size(void)
{
    return 1;
}

int dist_rank(void)
{
    return 0;
}

void cs_dist_finish(const struct cs_error *failure)
{
    (void)failure;
}

int dist_master_start(struct pool *pool, struct cs_error *err)
{
    (void)pool;
    (void)err;
    return 0;
}

bool dist_master_serve(struct pool *pool)
{
    (void)pool;
    return false;
}

void dist_master_end(struct pool *pool, int rc)
{
    (void)pool;
    (void)rc;
}

int dist_worker(struct pool *pool, struct cs_error *err)
{
    (void)pool;
    return cs_error_set(err, NULL, "not an MPI build");
}

void dist_end_all(uint64_t rc, uint64_t status, uint64_t solutions)
{
    (void)rc;
    (void)status;
    (void)solutions;
}

void dist_join(uint64_t units, uint64_t fingerprint)
{
    (void)units;
    (void)fingerprint;
}

int dist_gather(uint64_t units, uint64_t fingerprint, struct cs_error *err)
{
    (void)units;
    (void)fingerprint;
    (void)err;
    return 0;
}

#endif
