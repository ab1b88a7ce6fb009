/* minconflicts.c - the textbook min-conflicts baseline for N-Queens.
 *
 * Sosic and Gu's QS4 (1991) as a textbook gives it, in plain C with no
 * part of csearch: a permutation (pos[r] = column of row r), int counters
 * per diagonal, a greedy start that tries random columns for each of the
 * first n - c rows until one is free of attacks (the last c rows take a
 * random column), then passes over the rows: an attacked queen swaps with
 * random others until a swap lowers the diagonal collisions.  After
 * 10 * n swaps tried without a solution it starts again.  The solution is
 * checked in O(n) before the program says so.
 *
 * usage: nq_minconflicts N [SEED]
 * prints: n seconds steps restarts peak_kb (one line), exit 0 when solved
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static uint64_t rng_state;

static uint64_t next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static long n;
static int *pos, *up, *down; /* up[r + c], down[r - c + n - 1] */
static long long collisions;

static int attacks(long r, long c)
{
    return up[r + c] + down[r - c + n - 1];
}

/* add (d = 1) or remove (d = -1) the queen of row r */
static void mark(long r, int d)
{
    long c = pos[r];
    if (d > 0)
        collisions += (up[r + c] > 0) + (down[r - c + n - 1] > 0);
    up[r + c] += d;
    down[r - c + n - 1] += d;
    if (d < 0)
        collisions -= (up[r + c] > 0) + (down[r - c + n - 1] > 0);
}

static void swap_rows(long a, long b)
{
    mark(a, -1);
    mark(b, -1);
    int t = pos[a];
    pos[a] = pos[b];
    pos[b] = t;
    mark(a, 1);
    mark(b, 1);
}

static void start(void)
{
    long c = n < 100 ? n : 100; /* rows left to chance, after Sosic and Gu */
    memset(up, 0, (size_t)(2 * n) * sizeof *up);
    memset(down, 0, (size_t)(2 * n) * sizeof *down);
    collisions = 0;
    for (long r = 0; r < n; r++)
        pos[r] = (int)r;
    for (long i = 0; i < n; i++) {
        long j;
        int tries = 0;
        do
            j = i + (long)(next() % (uint64_t)(n - i));
        while (i < n - c && attacks(i, pos[j]) && ++tries < 100000);
        int t = pos[i];
        pos[i] = pos[j];
        pos[j] = t;
        mark(i, 1);
    }
}

static int solved_check(void)
{
    char *col = calloc((size_t)n, 1), *u = calloc((size_t)(2 * n), 1),
         *d = calloc((size_t)(2 * n), 1);
    int ok = col && u && d;
    for (long r = 0; ok && r < n; r++) {
        long c = pos[r];
        if (col[c]++ || u[r + c]++ || d[r - c + n - 1]++)
            ok = 0;
    }
    free(col);
    free(u);
    free(d);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (n = atol(argv[1])) < 4) {
        fprintf(stderr, "usage: nq_minconflicts N [SEED] (N >= 4)\n");
        return 2;
    }
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pos = malloc((size_t)n * sizeof *pos);
    up = malloc((size_t)(2 * n) * sizeof *up);
    down = malloc((size_t)(2 * n) * sizeof *down);
    if (!pos || !up || !down) {
        fprintf(stderr, "nq_minconflicts: out of memory\n");
        return 2;
    }
    uint64_t steps = 0, restarts = 0, budget = 10 * (uint64_t)n;
    for (;;) {
        start();
        uint64_t tried = 0;
        while (collisions > 0 && tried < budget) {
            for (long i = 0; i < n && collisions > 0 && tried < budget; i++) {
                if (attacks(i, pos[i]) <= 2)
                    continue; /* its own two marks: not attacked */
                for (; tried < budget; tried++) {
                    long j = (long)(next() % (uint64_t)n);
                    if (j == i)
                        continue;
                    long long before = collisions;
                    swap_rows(i, j);
                    steps++;
                    if (collisions < before)
                        break;
                    swap_rows(i, j); /* no better: undo */
                }
            }
        }
        if (!collisions)
            break;
        restarts++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) +
                  (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    int ok = solved_check();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%ld %.3f %llu %llu %ld\n", n, secs, (unsigned long long)steps,
           (unsigned long long)restarts, ru.ru_maxrss);
    return ok ? 0 : 1;
}
