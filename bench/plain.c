/* plain.c - the baseline: the textbook recursive bitmask N-Queens counter
 * with mirror pruning (first row: left half counted twice, odd middle once).
 *
 * The yardstick of bench/ and docs/performance.md.  No tricks on purpose:
 * candidates are full & ~(cols | d1 | d2), lowest bit first, one call per
 * queen placed, a solution when every column is taken.
 * It counts no nodes (the textbook does not); csearch's generic bitmask +
 * mirror strategy walks the same tree and reports them.
 * usage: nq_plain N   -> prints "N TOTAL"
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t full;

static uint64_t solve(uint64_t cols, uint64_t d1, uint64_t d2)
{
    if (cols == full)
        return 1;
    uint64_t count = 0, avail = full & ~(cols | d1 | d2);
    while (avail) {
        uint64_t bit = avail & -avail;
        avail ^= bit;
        count += solve(cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n < 1 || n > 32) {
        fprintf(stderr, "usage: nq_plain N (1..32)\n");
        return 2;
    }
    full = (UINT64_C(1) << n) - 1;
    uint64_t total = 0;
    for (int c = 0; c < n / 2; c++) {
        uint64_t bit = UINT64_C(1) << c;
        total += 2 * solve(bit, bit << 1, bit >> 1);
    }
    if (n % 2) {
        uint64_t bit = UINT64_C(1) << (n / 2);
        total += solve(bit, bit << 1, bit >> 1);
    }
    printf("%d %" PRIu64 "\n", n, total);
    return 0;
}
