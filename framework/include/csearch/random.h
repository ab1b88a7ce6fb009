/* csearch/random.h - the one random generator of csearch and its models:
 * splitmix64, a stream of 64-bit numbers from any 64-bit state.  Every seed
 * gives a full-period stream and the same numbers on every machine, so a
 * seed names a search (strategy.seed); shuffles, probes, neighbourhoods,
 * local search and puzzle generation all draw from it.
 */
#ifndef CSEARCH_RANDOM_H
#define CSEARCH_RANDOM_H

#include <stdint.h>

/* The next number of the stream whose state is *state (advanced). */
static inline uint64_t cs_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A draw below n (n > 0), by remainder: the bias is below n / 2^64. */
static inline uint64_t cs_random_below(uint64_t *state, uint64_t n)
{
    return cs_random(state) % n;
}

/* A draw in [0, 1) with 53 random bits. */
static inline double cs_random_unit(uint64_t *state)
{
    return (double)(cs_random(state) >> 11) * 0x1p-53;
}

/* The number a stream starting at x draws first: a hash of x, for numbers
 * that must depend on a value alone (a round's index, a seed and an
 * index). */
static inline uint64_t cs_random_mix(uint64_t x)
{
    return cs_random(&x);
}

#endif
