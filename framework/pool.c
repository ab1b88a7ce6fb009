/* pool.c - the work pool (pool.h): units taken from the counter or, on a
 * fed pool, from the queue its controller fills; finished units recorded
 * and logged to the checkpoint at once, one write per unit, so a crash
 * loses only the units in flight.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "pool.h"

bool pool_take(struct pool *pool, uint64_t *unit)
{
    if (pool->fed) {
        pthread_mutex_lock(&pool->w.lock);
        while (!pool->qlen && !pool->ended && !pool->stop)
            pthread_cond_wait(&pool->work, &pool->w.lock);
        bool got = pool->qlen && !pool->stop;
        if (got) {
            *unit = pool->queue[pool->qhead];
            pool->qhead = (pool->qhead + 1) % pool->qcap;
            pool->qlen--;
        }
        pthread_mutex_unlock(&pool->w.lock);
        return got;
    }
    while (!pool->stop) {
        uint64_t i = atomic_fetch_add(&pool->next, 1);
        if (i >= pool->end)
            return false;
        if (!atomic_load(&pool->done[i])) {
            *unit = i;
            return true;
        }
    }
    return false;
}

void pool_queue(struct pool *pool, uint64_t unit)
{
    if (pool->qlen == pool->qcap) {
        size_t cap = pool->qcap ? 2 * pool->qcap : 16;
        uint64_t *q = cs_xmalloc(cap * sizeof *q);
        for (size_t k = 0; k < pool->qlen; k++)
            q[k] = pool->queue[(pool->qhead + k) % pool->qcap];
        free(pool->queue);
        pool->queue = q;
        pool->qcap = cap;
        pool->qhead = 0;
    }
    pool->queue[(pool->qhead + pool->qlen++) % pool->qcap] = unit;
    pthread_cond_signal(&pool->work);
}

void pool_record(struct pool *pool, uint64_t unit, const struct cs_stats *s)
{
    pool->results[unit] = *s;
    atomic_store(&pool->done[unit], 1);
    atomic_fetch_add(&pool->finished, 1);
    /* logged at once, one write per unit: a crash loses only the units
     * still in flight */
    pthread_mutex_lock(&pool->w.lock);
    if (pool->cp && !pool->io_failed) {
        checkpoint_add(pool->cp, unit, s);
        if (checkpoint_flush(pool->cp, &pool->io_err)) {
            pool->io_failed = true;
            pool->stop = 1;
        }
    }
    pthread_mutex_unlock(&pool->w.lock);
}

void pool_partial(struct pool *pool, const struct cs_stats *s)
{
    pthread_mutex_lock(&pool->w.lock);
    cs_stats_add(&pool->partial, s);
    pthread_mutex_unlock(&pool->w.lock);
}
