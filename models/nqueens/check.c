/* check.c - the independent check of an N-Queens solution, in O(n).
 *
 * It shares nothing with the searches: it reads only the columns, row by
 * row, and marks each column and diagonal in bitmaps of its own (5n bits),
 * so a counter the search got wrong cannot hide a clash from it.
 */
#include <stdlib.h>

#include "nqueens/internal.h"

static bool seen_before(uint64_t *bits, size_t i)
{
    uint64_t bit = UINT64_C(1) << (i % 64);
    bool was = bits[i / 64] & bit;
    bits[i / 64] |= bit;
    return was;
}

long long nq_check_columns(const uint32_t *pos, uint32_t n)
{
    size_t words = (2 * (size_t)n + 63) / 64;
    uint64_t *cols = calloc((n + 63) / 64 + 1, sizeof *cols);
    uint64_t *up = calloc(words, sizeof *up);
    uint64_t *down = calloc(words, sizeof *down);
    long long bad = -1;
    if (!cols || !up || !down)
        bad = 0; /* cannot check: no solution passes unchecked */
    for (uint32_t r = 0; bad < 0 && r < n; r++) {
        uint32_t c = pos[r];
        if (c >= n || seen_before(cols, c) || seen_before(up, (size_t)r + c) ||
            seen_before(down, (size_t)r + n - 1 - c))
            bad = r;
    }
    free(cols);
    free(up);
    free(down);
    return bad;
}
