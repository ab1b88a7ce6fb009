/* prop_alldiff.c - all_different and the permutation globals built on it:
 * circuit and inverse.  all_different removes each fixed value from the
 * others, then narrows bounds to bounds consistency with the union-find
 * algorithm of Lopez-Ortiz, Quimper, Tromp and van Beek (IJCAI 2003).
 * circuit forbids the edge that would close a chain of fixed successors
 * early; inverse keeps f[i] = j exactly when invf[j] = i can hold.
 */
#include <stdlib.h>
#include <string.h>

#include "fzn.h"

/* ---- all_different ------------------------------------------------------ */

struct span {
    int64_t min, max;
    int minrank, maxrank;
};

struct bc {
    struct span *iv, **minsorted, **maxsorted;
    int64_t *bounds;
    int *t, *d, *h;
};

static struct bc *scratch(struct fzn_prop *p)
{
    int n = p->nx;
    if (!p->aux) {
        size_t sz = sizeof(struct bc) + (size_t)n * sizeof(struct span) +
                    2 * (size_t)n * sizeof(struct span *) +
                    (2 * (size_t)n + 2) * (sizeof(int64_t) + 3 * sizeof(int));
        struct bc *b = cs_xmalloc(sz);
        b->iv = (struct span *)(b + 1);
        b->minsorted = (struct span **)(b->iv + n);
        b->maxsorted = b->minsorted + n;
        b->bounds = (int64_t *)(b->maxsorted + n);
        b->t = (int *)(b->bounds + 2 * n + 2);
        b->d = b->t + 2 * n + 2;
        b->h = b->d + 2 * n + 2;
        for (int i = 0; i < n; i++)
            b->minsorted[i] = b->maxsorted[i] = &b->iv[i];
        p->aux = b;
    }
    return p->aux;
}

static int pathmax(const int *t, int i)
{
    while (t[i] > i)
        i = t[i];
    return i;
}

static int pathmin(const int *t, int i)
{
    while (t[i] < i)
        i = t[i];
    return i;
}

static void pathset(int *t, int start, int end, int to)
{
    int k, l;
    for (l = start; (k = l) != end; t[k] = to)
        l = t[k];
}

/* the distinct bounds (min, max + 1) of the intervals, ranked; returns
 * their number */
/* Sort by min (or by max): insertion from the order of the last call,
 * which the bounds of a search rarely change much. */
static void sort_spans(struct span **a, int n, bool by_max_end)
{
    for (int i = 1; i < n; i++) {
        struct span *v = a[i];
        int64_t key = by_max_end ? v->max : v->min;
        int j = i;
        while (j > 0 && (by_max_end ? a[j - 1]->max : a[j - 1]->min) > key) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static int rank(struct bc *b, int n)
{
    sort_spans(b->minsorted, n, false);
    sort_spans(b->maxsorted, n, true);
    int64_t min = b->minsorted[0]->min, max = b->maxsorted[0]->max + 1;
    int64_t last = min - 2;
    int nb = 0, i = 0, j = 0;
    b->bounds[0] = last;
    for (;;) {
        if (i < n && min <= max) {
            if (min != last)
                b->bounds[++nb] = last = min;
            b->minsorted[i]->minrank = nb;
            if (++i < n)
                min = b->minsorted[i]->min;
        } else {
            if (max != last)
                b->bounds[++nb] = last = max;
            b->maxsorted[j]->maxrank = nb;
            if (++j == n)
                break;
            max = b->maxsorted[j]->max + 1;
        }
    }
    b->bounds[nb + 1] = b->bounds[nb] + 2;
    return nb;
}

static bool filter_lower(struct bc *b, int n, int nb)
{
    int *t = b->t, *d = b->d, *h = b->h;
    for (int i = 1; i <= nb + 1; i++) {
        t[i] = h[i] = i - 1;
        d[i] = (int)(b->bounds[i] - b->bounds[i - 1]);
    }
    for (int i = 0; i < n; i++) {
        int x = b->maxsorted[i]->minrank, y = b->maxsorted[i]->maxrank;
        int z = pathmax(t, x + 1), j = t[z];
        if (--d[z] == 0) {
            t[z] = z + 1;
            z = pathmax(t, t[z]);
            t[z] = j;
        }
        pathset(t, x + 1, z, z);
        if (d[z] < b->bounds[z] - b->bounds[y])
            return false;
        if (h[x] > x) {
            int w = pathmax(h, h[x]);
            b->maxsorted[i]->min = b->bounds[w];
            pathset(h, x, w, w);
        }
        if (d[z] == b->bounds[z] - b->bounds[y]) {
            pathset(h, h[y], j - 1, y);
            h[y] = j - 1;
        }
    }
    return true;
}

static bool filter_upper(struct bc *b, int n, int nb)
{
    int *t = b->t, *d = b->d, *h = b->h;
    for (int i = 0; i <= nb; i++) {
        t[i] = h[i] = i + 1;
        d[i] = (int)(b->bounds[i + 1] - b->bounds[i]);
    }
    for (int i = n - 1; i >= 0; i--) {
        int x = b->minsorted[i]->maxrank, y = b->minsorted[i]->minrank;
        int z = pathmin(t, x - 1), j = t[z];
        if (--d[z] == 0) {
            t[z] = z - 1;
            z = pathmin(t, t[z]);
            t[z] = j;
        }
        pathset(t, x - 1, z, z);
        if (d[z] < b->bounds[y] - b->bounds[z])
            return false;
        if (h[x] < x) {
            int w = pathmin(h, h[x]);
            b->minsorted[i]->max = b->bounds[w] - 1;
            pathset(h, x, w, w);
        }
        if (d[z] == b->bounds[y] - b->bounds[z]) {
            pathset(h, h[y], j + 1, y);
            h[y] = j + 1;
        }
    }
    return true;
}

/* every fixed value leaves the other variables, to a fixpoint */
static bool eliminate(struct fzn_store *s, const int *x, int n)
{
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < n; i++) {
            if (!fzn_fixed(s, x[i]))
                continue;
            int64_t v = fzn_value(s, x[i]);
            for (int j = 0; j < n; j++) {
                if (j == i || !fzn_contains(s, x[j], v))
                    continue;
                if (!fzn_remove(s, x[j], v))
                    return false;
                again = again || fzn_fixed(s, x[j]);
            }
        }
    }
    return true;
}

/* k[0] 1: the values are the pairs' (fzn_post_alldiff), bounds only. */
static bool run_alldiff(struct fzn_store *s, struct fzn_prop *p)
{
    int n = p->nx;
    if (!p->k[0] && !eliminate(s, p->x, n))
        return false;
    struct bc *b = scratch(p);
    for (int i = 0; i < n; i++) {
        b->iv[i] =
            (struct span){fzn_min(s, p->x[i]), fzn_max(s, p->x[i]), 0, 0};
    }
    int nb = rank(b, n);
    if (!filter_lower(b, n, nb) || !filter_upper(b, n, nb))
        return false;
    for (int i = 0; i < n; i++)
        if (!fzn_set_min(s, p->x[i], b->iv[i].min) ||
            !fzn_set_max(s, p->x[i], b->iv[i].max))
            return false;
    return true;
}

/* Up to this many variables, a fixed value leaves the others through a
 * != per pair (each woken by a fix only, asleep once done); beyond, the
 * global removes them itself.  Either way it keeps the bounds consistent,
 * woken by bound changes only (a hole inside changes nothing for it). */
#define ALLDIFF_PAIRS_MAX 64

void fzn_post_alldiff(struct fzn_store *s, const char *name, const int *x,
                      int n)
{
    if (n < 2)
        return;
    int64_t pairs = n <= ALLDIFF_PAIRS_MAX;
    for (int i = 0; pairs && i < n; i++)
        for (int j = i + 1; j < n; j++)
            fzn_post_ne(s, name, x[i], x[j]);
    fzn_post(s, name, run_alldiff, 2, x, n, &pairs, 1)->events = FZN_EV_BND;
}

int fzn_post_fzn_all_different_int(struct fzn_store *s, const struct fzn_arg *a,
                                   struct cs_error *err)
{
    (void)err;
    fzn_post_alldiff(s, "fzn_all_different_int", a[0].x, a[0].n);
    return 0;
}

/* ---- circuit ------------------------------------------------------------ */

/* x[i] - k[0] is the successor of node i (0-based) */
static bool run_circuit(struct fzn_store *s, struct fzn_prop *p)
{
    int n = p->nx;
    int64_t off = p->k[0];
    if (!p->aux)
        p->aux = cs_xmalloc(2 * (size_t)n);
    unsigned char *pred = p->aux, *seen = pred + n;
    memset(pred, 0, 2 * (size_t)n);
    for (int i = 0; i < n; i++)
        if (fzn_fixed(s, p->x[i])) {
            int64_t j = fzn_value(s, p->x[i]) - off;
            if (pred[j]++)
                return false; /* two fixed predecessors */
        }
    for (int i = 0; i < n; i++) { /* chains start where no fixed edge ends */
        if (pred[i])
            continue;
        int cur = i, len = 1;
        seen[i] = 1;
        while (fzn_fixed(s, p->x[cur])) {
            cur = (int)(fzn_value(s, p->x[cur]) - off);
            seen[cur] = 1;
            len++;
        }
        bool ok = len < n ? fzn_remove(s, p->x[cur], off + i)
                          : fzn_fix(s, p->x[cur], off + i);
        if (!ok)
            return false;
    }
    for (int i = 0; i < n; i++) { /* what is left: cycles of fixed edges */
        if (seen[i])
            continue;
        int cur = i, len = 0;
        do {
            seen[cur] = 1;
            cur = (int)(fzn_value(s, p->x[cur]) - off);
            len++;
        } while (cur != i);
        if (len < n)
            return false;
    }
    return true;
}

static void post_circuit(struct fzn_store *s, const char *name, const int *x,
                         int n, int64_t off)
{
    for (int i = 0; i < n; i++) /* a successor, never itself */
        if (!fzn_set_min(s, x[i], off) || !fzn_set_max(s, x[i], off + n - 1) ||
            !fzn_remove(s, x[i], off + i))
            return;
    if (n == 0)
        return;
    fzn_post_alldiff(s, name, x, n);
    fzn_post(s, name, run_circuit, 2, x, n, &off, 1);
}

int fzn_post_csearch_circuit(struct fzn_store *s, const struct fzn_arg *a,
                             struct cs_error *err)
{
    (void)err;
    post_circuit(s, "csearch_circuit", a[0].x, a[0].n, a[1].v[0]);
    return 0;
}

int fzn_post_fzn_circuit(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    post_circuit(s, "fzn_circuit", a[0].x, a[0].n, 1);
    return 0;
}

/* ---- inverse ------------------------------------------------------------ */

/* f[i] = io + j only while g[j] can be fo + i; a fixed f[i] fixes g[j] */
static bool channel(struct fzn_store *s, const int *f, const int *g, int n,
                    int64_t fo, int64_t io)
{
    for (int i = 0; i < n; i++) {
        int x = f[i];
        if (fzn_is_bitset(s, x)) {
            for (int64_t v = fzn_min(s, x); v != INT64_MAX;
                 v = fzn_next_above(s, x, v))
                if (!fzn_contains(s, g[v - io], fo + i) && !fzn_remove(s, x, v))
                    return false;
        } else {
            while (!fzn_contains(s, g[fzn_min(s, x) - io], fo + i))
                if (!fzn_set_min(s, x, fzn_min(s, x) + 1))
                    return false;
            while (!fzn_contains(s, g[fzn_max(s, x) - io], fo + i))
                if (!fzn_set_max(s, x, fzn_max(s, x) - 1))
                    return false;
        }
        if (fzn_fixed(s, x) && !fzn_fix(s, g[fzn_value(s, x) - io], fo + i))
            return false;
    }
    return true;
}

/* x is f then invf (n each); k is fo, io */
static bool run_inverse(struct fzn_store *s, struct fzn_prop *p)
{
    int n = p->nx / 2;
    return channel(s, p->x, p->x + n, n, p->k[0], p->k[1]) &&
           channel(s, p->x + n, p->x, n, p->k[1], p->k[0]);
}

static void post_inverse(struct fzn_store *s, const char *name,
                         const struct fzn_arg *f, int64_t fo,
                         const struct fzn_arg *g, int64_t io)
{
    if (f->n != g->n) {
        fzn_post_false(s);
        return;
    }
    int n = f->n;
    for (int i = 0; i < n; i++)
        if (!fzn_set_min(s, f->x[i], io) ||
            !fzn_set_max(s, f->x[i], io + n - 1) ||
            !fzn_set_min(s, g->x[i], fo) ||
            !fzn_set_max(s, g->x[i], fo + n - 1))
            return;
    int *x = cs_xmalloc((size_t)(2 * n + 1) * sizeof *x);
    memcpy(x, f->x, (size_t)n * sizeof *x);
    memcpy(x + n, g->x, (size_t)n * sizeof *x);
    fzn_post_alldiff(s, name, f->x, n);
    fzn_post_alldiff(s, name, g->x, n);
    if (n)
        fzn_post(s, name, run_inverse, 1, x, 2 * n, (int64_t[]){fo, io}, 2);
    free(x);
}

int fzn_post_csearch_inverse(struct fzn_store *s, const struct fzn_arg *a,
                             struct cs_error *err)
{
    (void)err;
    post_inverse(s, "csearch_inverse", &a[0], a[1].v[0], &a[2], a[3].v[0]);
    return 0;
}

int fzn_post_fzn_inverse(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    post_inverse(s, "fzn_inverse", &a[0], 1, &a[1], 1);
    return 0;
}
