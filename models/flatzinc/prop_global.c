/* prop_global.c - table (domain consistent on bit sets: a value stays
 * while some row that fits every domain has it), count (c = |{i : x[i] =
 * y}|) and global_cardinality by counting the sure and the possible
 * occurrences, and lex_lesseq by the first position not fixed equal.
 */
#include <stdlib.h>
#include <string.h>

#include "fzn.h"

/* ---- table -------------------------------------------------------------- */

/* x are the n variables, k the rows one after the other */
static bool run_table(struct fzn_store *s, struct fzn_prop *p)
{
    int n = p->nx, rows = p->nk / n;
    if (!p->aux) {
        size_t words = 0;
        for (int i = 0; i < n; i++)
            words += s->dom[p->x[i]].words;
        p->aux = cs_xmalloc((2 * (size_t)n + words + 1) * sizeof(int64_t));
    }
    int64_t *lo = p->aux, *hi = lo + n;
    uint64_t *marks = (uint64_t *)(hi + n);
    size_t words = 0;
    for (int i = 0; i < n; i++) {
        lo[i] = INT64_MAX;
        hi[i] = INT64_MIN;
        words += s->dom[p->x[i]].words;
    }
    memset(marks, 0, words * sizeof *marks);
    bool any = false;
    for (int r = 0; r < rows; r++) {
        const int64_t *row = p->k + (size_t)r * n;
        bool fits = true;
        for (int i = 0; i < n && fits; i++)
            fits = fzn_contains(s, p->x[i], row[i]);
        if (!fits)
            continue;
        any = true;
        uint64_t *m = marks;
        for (int i = 0; i < n; i++) {
            const struct fzn_dom *d = &s->dom[p->x[i]];
            lo[i] = row[i] < lo[i] ? row[i] : lo[i];
            hi[i] = row[i] > hi[i] ? row[i] : hi[i];
            if (d->words) {
                uint64_t b = (uint64_t)(row[i] - d->base);
                m[b >> 6] |= UINT64_C(1) << (b & 63);
            }
            m += d->words;
        }
    }
    if (!any)
        return false;
    uint64_t *m = marks;
    for (int i = 0; i < n; i++) {
        int x = p->x[i];
        const struct fzn_dom *d = &s->dom[x];
        if (!fzn_set_min(s, x, lo[i]) || !fzn_set_max(s, x, hi[i]))
            return false;
        if (d->words)
            for (int64_t v = fzn_min(s, x); v != INT64_MAX;
                 v = fzn_next_above(s, x, v)) {
                uint64_t b = (uint64_t)(v - d->base);
                if (!(m[b >> 6] >> (b & 63) & 1) && !fzn_remove(s, x, v))
                    return false;
            }
        m += d->words;
    }
    return true;
}

int fzn_post_fzn_table_int(struct fzn_store *s, const struct fzn_arg *a,
                           struct cs_error *err)
{
    int n = a[0].n;
    if (n == 0)
        return 0; /* no columns: every row fits the empty tuple */
    if (a[1].n % n)
        return fzn_expects(err, "fzn_table_int",
                           "a table of whole rows of length(x) values");
    if (a[1].n == 0)
        return fzn_post_false(s);
    fzn_post(s, "fzn_table_int", run_table, 2, a[0].x, n, a[1].v, a[1].n);
    return 0;
}

/* ---- count and global_cardinality --------------------------------------- */

/* c counts v among x: sure and possible occurrences bound c, and c's
 * bounds, once met, decide the open variables. */
static bool count_value(struct fzn_store *s, const int *x, int n, int64_t v,
                        int c)
{
    int64_t sure = 0, possible = 0;
    for (int i = 0; i < n; i++)
        if (fzn_contains(s, x[i], v)) {
            possible++;
            sure += fzn_fixed(s, x[i]);
        }
    if (!fzn_set_min(s, c, sure) || !fzn_set_max(s, c, possible))
        return false;
    if (fzn_max(s, c) == sure && sure < possible) {
        for (int i = 0; i < n; i++)
            if (!fzn_fixed(s, x[i]) && !fzn_remove(s, x[i], v))
                return false;
    } else if (fzn_min(s, c) == possible && sure < possible) {
        for (int i = 0; i < n; i++)
            if (fzn_contains(s, x[i], v) && !fzn_fix(s, x[i], v))
                return false;
    }
    return true;
}

#define COUNT_PAIRS 65536 /* values of y times x's, tried value by value */

/* x is y, c, then the array */
static bool run_count(struct fzn_store *s, struct fzn_prop *p)
{
    int y = p->x[0], c = p->x[1], n = p->nx - 2;
    const int *x = p->x + 2;
    if (fzn_fixed(s, y))
        return count_value(s, x, n, fzn_value(s, y), c);
    if (!fzn_is_bitset(s, y) ||
        (uint64_t)fzn_size(s, y) * (uint64_t)n > COUNT_PAIRS) {
        int64_t possible = 0;
        for (int i = 0; i < n; i++)
            possible += fzn_intersects(s, x[i], y);
        return fzn_set_min(s, c, 0) && fzn_set_max(s, c, possible);
    }
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t v = fzn_min(s, y); v != INT64_MAX;
         v = fzn_next_above(s, y, v)) {
        int64_t sure = 0, possible = 0;
        for (int i = 0; i < n; i++)
            if (fzn_contains(s, x[i], v)) {
                possible++;
                sure += fzn_fixed(s, x[i]);
            }
        if (sure > fzn_max(s, c) || possible < fzn_min(s, c)) {
            if (!fzn_remove(s, y, v))
                return false;
            continue;
        }
        lo = sure < lo ? sure : lo;
        hi = possible > hi ? possible : hi;
    }
    return fzn_set_min(s, c, lo) && fzn_set_max(s, c, hi);
}

int fzn_post_fzn_count_eq(struct fzn_store *s, const struct fzn_arg *a,
                          struct cs_error *err)
{
    (void)err;
    int n = a[0].n;
    int *x = cs_xmalloc((size_t)(n + 2) * sizeof *x);
    x[0] = a[1].x[0];
    x[1] = a[2].x[0];
    memcpy(x + 2, a[0].x, (size_t)n * sizeof *x);
    fzn_post(s, "fzn_count_eq", run_count, 1, x, n + 2, NULL, 0);
    free(x);
    return 0;
}

/* x is the array (k[0] of them), then the counts; k[1..] the cover */
static bool run_gcc(struct fzn_store *s, struct fzn_prop *p)
{
    int n = (int)p->k[0], m = p->nx - n;
    for (int j = 0; j < m; j++)
        if (!count_value(s, p->x, n, p->k[j + 1], p->x[n + j]))
            return false;
    return true;
}

int fzn_post_fzn_global_cardinality(struct fzn_store *s,
                                    const struct fzn_arg *a,
                                    struct cs_error *err)
{
    int n = a[0].n, m = a[1].n;
    if (a[2].n != m)
        return fzn_expects(err, "fzn_global_cardinality",
                           "as many counts as cover values");
    int *x = cs_xmalloc((size_t)(n + m + 1) * sizeof *x);
    int64_t *k = cs_xmalloc((size_t)(m + 1) * sizeof *k);
    memcpy(x, a[0].x, (size_t)n * sizeof *x);
    memcpy(x + n, a[2].x, (size_t)m * sizeof *x);
    k[0] = n;
    memcpy(k + 1, a[1].v, (size_t)m * sizeof *k);
    fzn_post(s, "fzn_global_cardinality", run_gcc, 2, x, n + m, k, m + 1);
    /* std's decomposition adds sum(counts) <= length(x), which only
       matters when cover repeats a value */
    int64_t *ones = cs_xmalloc((size_t)(m ? m : 1) * sizeof *ones);
    for (int j = 0; j < m; j++)
        ones[j] = 1;
    fzn_post_linear(s, "fzn_global_cardinality", FZN_LIN_LE, ones, a[2].x, m, n,
                    -1);
    free(ones);
    free(x);
    free(k);
    return 0;
}

/* ---- lex_lesseq --------------------------------------------------------- */

/* x is the first array (k[0] long) then the second (k[1] long) */
static bool run_lex(struct fzn_store *s, struct fzn_prop *p)
{
    int nx = (int)p->k[0], ny = (int)p->k[1], m = nx < ny ? nx : ny;
    const int *x = p->x, *y = p->x + nx;
    int i = 0;
    while (i < m && fzn_fixed(s, x[i]) && fzn_fixed(s, y[i]) &&
           fzn_value(s, x[i]) == fzn_value(s, y[i]))
        i++;
    if (i == m)
        return nx <= ny;
    if (!fzn_set_max(s, x[i], fzn_max(s, y[i])) ||
        !fzn_set_min(s, y[i], fzn_min(s, x[i])))
        return false;
    if (fzn_max(s, x[i]) < fzn_min(s, y[i]))
        return true; /* decided at i */
    int j = i + 1;   /* equal at i: does what follows forbid it? */
    while (j < m && fzn_fixed(s, x[j]) && fzn_fixed(s, y[j]) &&
           fzn_value(s, x[j]) == fzn_value(s, y[j]))
        j++;
    bool strict = j == m ? nx > ny : fzn_min(s, x[j]) > fzn_max(s, y[j]);
    return !strict || (fzn_set_max(s, x[i], (int64_t)fzn_max(s, y[i]) - 1) &&
                       fzn_set_min(s, y[i], (int64_t)fzn_min(s, x[i]) + 1));
}

int fzn_post_fzn_lex_lesseq_int(struct fzn_store *s, const struct fzn_arg *a,
                                struct cs_error *err)
{
    (void)err;
    int nx = a[0].n, ny = a[1].n;
    int *x = cs_xmalloc((size_t)(nx + ny + 1) * sizeof *x);
    memcpy(x, a[0].x, (size_t)nx * sizeof *x);
    memcpy(x + nx, a[1].x, (size_t)ny * sizeof *x);
    fzn_post(s, "fzn_lex_lesseq_int", run_lex, 1, x, nx + ny,
             (int64_t[]){nx, ny}, 2);
    free(x);
    return 0;
}
