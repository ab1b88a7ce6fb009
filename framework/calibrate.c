/* calibrate.c - which variant of a kernel is fastest on this machine,
 * measured on a piece of the real work (csearch/model.h: cs_fastest).
 *
 * A kernel's variants (instruction sets, loop shapes) rank differently from
 * one processor to the next: AMD Zen 4 runs 512-bit instructions as two
 * 256-bit halves, Zen 5 and Intel Sapphire Rapids do not.  So the piece is
 * grown until the first variant spends CS_FASTEST_PIECE seconds of CPU on
 * it (the lesser of two timings at each size), then every variant runs it in
 * CS_FASTEST_ROUNDS interleaved rounds (the order reversed each round, so a
 * slow patch of the machine hits all alike) and the least CPU time of each
 * decides.  A variant more than twice as slow as the best in the first round
 * runs no further round. Time is the calling thread's CPU time: another job on
 * the machine delays the measurement but hardly changes it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <time.h>

#include "csearch/model.h"

#define CS_FASTEST_PIECE 0.0005 /* seconds: a piece's least time */
#define CS_FASTEST_ROUNDS 3

static double thread_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double timed(void (*piece)(void *, int, int), void *ctx, int variant,
                    int size)
{
    double t0 = thread_seconds();
    piece(ctx, variant, size);
    return thread_seconds() - t0;
}

static double timed2(void (*piece)(void *, int, int), void *ctx, int size)
{
    double a = timed(piece, ctx, 0, size), b = timed(piece, ctx, 0, size);
    return a < b ? a : b;
}

static int fastest(const double *best, int count)
{
    int winner = 0;
    for (int v = 1; v < count; v++)
        if (best[v] < best[winner])
            winner = v;
    return winner;
}

int cs_fastest(int count, void (*piece)(void *ctx, int variant, int size),
               void *ctx, int max_size, double *seconds)
{
    if (count <= 0)
        return -1;
    if (count > CS_FASTEST_MAX)
        count = CS_FASTEST_MAX;
    double best[CS_FASTEST_MAX];
    for (int v = 0; v < count; v++)
        best[v] = -1;
    /* each size timed twice, the lesser kept: one timing that a page fault
     * or an interrupt stretched would stop the growth at a piece so small
     * that the noise decides (a 2-step piece at n = 16 once picked AVX2
     * over AVX-512 on Zen 5, 1 run in 40) */
    int size = 1;
    while (size < max_size && timed2(piece, ctx, size) < CS_FASTEST_PIECE)
        size = size * 2 < max_size ? size * 2 : max_size;
    bool dropped[CS_FASTEST_MAX] = {false};
    for (int round = 0; round < CS_FASTEST_ROUNDS; round++) {
        for (int i = 0; i < count; i++) {
            int v = round % 2 ? count - 1 - i : i;
            if (dropped[v])
                continue;
            double t = timed(piece, ctx, v, size);
            if (best[v] < 0 || t < best[v])
                best[v] = t;
        }
        for (int v = 0; v < count && round == 0; v++)
            dropped[v] = best[v] > 2 * best[fastest(best, count)];
    }
    int winner = fastest(best, count);
    if (seconds)
        for (int v = 0; v < count; v++)
            seconds[v] = best[v];
    return winner;
}
