/* store.c - the finite-domain store: domains (bit sets up to
 * FZN_BITSET_LIMIT values, intervals beyond), the trail that fzn_pop()
 * rolls back exactly, and the watch lists that wake propagators into the
 * queues.  A domain's min and max are always
 * values it holds; its bits outside [min, max] mean nothing, so moving a
 * bound never writes a bit and a trail entry holds at most one word.
 * Posting propagators and running the queues is propagate.c.
 */
#include <stdlib.h>
#include <string.h>

#include "fzn.h"

#define uthash_malloc(sz) cs_xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#include <uthash.h>

struct fzn_const {
    int64_t value;
    int var;
    UT_hash_handle hh;
};

struct fzn_store *fzn_store_new(void)
{
    return cs_xcalloc(1, sizeof(struct fzn_store));
}

void fzn_store_free(struct fzn_store *s)
{
    if (!s)
        return;
    for (int p = 0; p < s->nprops; p++) {
        free(s->props[p].aux);
        if (!s->is_clone) {
            free(s->props[p].x);
            free(s->props[p].k);
        }
    }
    if (!s->is_clone) {
        free(s->watch_start);
        free(s->watch);
        free(s->watch_fix);
    }
    struct fzn_const *c, *tmp, *consts = s->consts;
    HASH_ITER(hh, consts, c, tmp)
    {
        HASH_DEL(consts, c);
        free(c);
    }
    for (int q = 0; q < FZN_PRIOS; q++)
        free(s->queue[q]);
    free(s->props);
    free(s->dom);
    free(s->bits);
    free(s->trail);
    free(s->level_start);
    free(s->entailed);
    free(s->level_entailed);
    free(s->failures);
    free(s);
}

/* ---- bit sets ----------------------------------------------------------- */

static uint64_t *words_of(const struct fzn_store *s, const struct fzn_dom *d)
{
    return s->bits + d->off;
}

/* The first value >= from held by d (from within [min, max]); max is
 * held, so there is one. */
static int32_t scan_up(const struct fzn_store *s, const struct fzn_dom *d,
                       int64_t from)
{
    const uint64_t *b = words_of(s, d);
    uint32_t i = (uint32_t)(from - d->base), w = i >> 6;
    uint64_t m = b[w] & (~UINT64_C(0) << (i & 63));
    while (!m)
        m = b[++w];
    return (int32_t)(d->base + (int64_t)w * 64 + __builtin_ctzll(m));
}

/* The last value <= from held by d (from within [min, max]). */
static int32_t scan_down(const struct fzn_store *s, const struct fzn_dom *d,
                         int64_t from)
{
    const uint64_t *b = words_of(s, d);
    uint32_t i = (uint32_t)(from - d->base), w = i >> 6;
    uint64_t m = b[w] & (~UINT64_C(0) >> (63 - (i & 63)));
    while (!m)
        m = b[--w];
    return (int32_t)(d->base + (int64_t)w * 64 + 63 - __builtin_clzll(m));
}

/* How many values of [lo, hi] the bits hold (lo <= hi, both in span). */
static uint32_t count_bits(const struct fzn_store *s, const struct fzn_dom *d,
                           int64_t lo, int64_t hi)
{
    const uint64_t *b = words_of(s, d);
    uint32_t i = (uint32_t)(lo - d->base), j = (uint32_t)(hi - d->base);
    uint32_t wi = i >> 6, wj = j >> 6, n = 0;
    uint64_t first = ~UINT64_C(0) << (i & 63);
    uint64_t last = ~UINT64_C(0) >> (63 - (j & 63));
    if (wi == wj)
        return (uint32_t)__builtin_popcountll(b[wi] & first & last);
    n += (uint32_t)__builtin_popcountll(b[wi] & first);
    for (uint32_t w = wi + 1; w < wj; w++)
        n += (uint32_t)__builtin_popcountll(b[w]);
    return n + (uint32_t)__builtin_popcountll(b[wj] & last);
}

static void set_bits(struct fzn_store *s, const struct fzn_dom *d, int64_t lo,
                     int64_t hi)
{
    uint64_t *b = words_of(s, d);
    for (int64_t v = lo; v <= hi; v++) {
        uint32_t i = (uint32_t)(v - d->base);
        b[i >> 6] |= UINT64_C(1) << (i & 63);
    }
}

/* Room for n more words of bits; returns the offset of the first. */
static uint32_t new_words(struct fzn_store *s, uint32_t n)
{
    if (s->nbits_words + n > s->bits_cap) {
        size_t cap = s->bits_cap ? 2 * s->bits_cap : 64;
        while (cap < s->nbits_words + n)
            cap *= 2;
        s->bits = cs_xrealloc(s->bits, cap * sizeof *s->bits);
        s->bits_cap = cap;
    }
    uint32_t off = (uint32_t)s->nbits_words;
    memset(s->bits + off, 0, n * sizeof *s->bits);
    s->nbits_words += n;
    return off;
}

/* ---- variables ---------------------------------------------------------- */

static int64_t clamp(int64_t v)
{
    return v < FZN_INT_MIN ? FZN_INT_MIN : v > FZN_INT_MAX ? FZN_INT_MAX : v;
}

int fzn_new_var(struct fzn_store *s, const int64_t *ranges, size_t nranges)
{
    if (s->nvars == s->vars_cap) {
        s->vars_cap = s->vars_cap ? 2 * s->vars_cap : 64;
        s->dom = cs_xrealloc(s->dom, (size_t)s->vars_cap * sizeof *s->dom);
    }
    int x = s->nvars++;
    struct fzn_dom *d = &s->dom[x];
    *d = (struct fzn_dom){.min = 1, .max = 0};
    int64_t lo = nranges ? clamp(ranges[0]) : 1;
    int64_t hi = nranges ? clamp(ranges[2 * nranges - 1]) : 0;
    if (lo > hi) { /* an empty domain: the store cannot be satisfied */
        s->failed = true;
        return x;
    }
    d->min = (int32_t)lo;
    d->max = (int32_t)hi;
    d->base = (int32_t)lo;
    if (hi - lo + 1 > FZN_BITSET_LIMIT) {
        d->size = (uint32_t)(hi - lo + 1);
        if (nranges > 1)
            fzn_intersect(s, x, ranges, nranges);
        return x;
    }
    d->words = (uint32_t)((hi - lo + 64) / 64);
    d->off = new_words(s, d->words);
    for (size_t r = 0; r < nranges; r++) {
        int64_t a = clamp(ranges[2 * r]), b = clamp(ranges[2 * r + 1]);
        set_bits(s, d, a, b);
        d->size += (uint32_t)(b - a + 1);
    }
    return x;
}

int fzn_new_const(struct fzn_store *s, int64_t value)
{
    struct fzn_const *c, *consts = s->consts;
    HASH_FIND(hh, consts, &value, sizeof value, c);
    if (c)
        return c->var;
    int64_t r[2] = {value, value};
    c = cs_xmalloc(sizeof *c);
    c->value = value;
    c->var = fzn_new_var(s, r, 1);
    HASH_ADD(hh, consts, value, sizeof c->value, c);
    s->consts = consts;
    return c->var;
}

bool fzn_contains(const struct fzn_store *s, int x, int64_t v)
{
    const struct fzn_dom *d = &s->dom[x];
    if (v < d->min || v > d->max)
        return false;
    if (!d->words)
        return true;
    uint32_t i = (uint32_t)(v - d->base);
    return words_of(s, d)[i >> 6] >> (i & 63) & 1;
}

int64_t fzn_next_above(const struct fzn_store *s, int x, int64_t v)
{
    const struct fzn_dom *d = &s->dom[x];
    if (v < d->min)
        return d->min;
    if (v >= d->max)
        return INT64_MAX;
    return d->words ? scan_up(s, d, v + 1) : v + 1;
}

int64_t fzn_next_below(const struct fzn_store *s, int x, int64_t v)
{
    const struct fzn_dom *d = &s->dom[x];
    if (v > d->max)
        return d->max;
    if (v <= d->min)
        return INT64_MIN;
    return d->words ? scan_down(s, d, v - 1) : v - 1;
}

/* ---- narrowing ---------------------------------------------------------- */

static bool fail(struct fzn_store *s)
{
    s->failed = true;
    return false;
}

/* Remember x's bounds, size and (word >= 0) one word of its bits. */
static void save(struct fzn_store *s, int x, int32_t word)
{
    if (s->level == 0) /* the root is never undone */
        return;
    if (s->trail_len == s->trail_cap) {
        s->trail_cap = s->trail_cap ? 2 * s->trail_cap : 1024;
        s->trail = cs_xrealloc(s->trail, s->trail_cap * sizeof *s->trail);
    }
    const struct fzn_dom *d = &s->dom[x];
    s->trail[s->trail_len++] =
        (struct fzn_trail){.var = x,
                           .word = word,
                           .min = d->min,
                           .max = d->max,
                           .size = d->size,
                           .bits = word >= 0 ? words_of(s, d)[word] : 0};
}

/* Queue every propagator watching x for the change ev (before fzn_freeze
 * there are none: fzn_schedule_all queues them all). */
static void wake(struct fzn_store *s, int x, unsigned ev)
{
    if (!s->frozen)
        return;
    int end = ev & FZN_EV_FIX ? s->watch_start[x + 1] : s->watch_fix[x];
    for (int i = s->watch_start[x]; i < end; i++) {
        struct fzn_prop *p = &s->props[s->watch[i]];
        if (p->queued || p->entailed || !(p->events & ev))
            continue;
        p->queued = true;
        int q = p->prio, at = s->qhead[q] + s->qlen[q];
        if (at >= s->nprops) /* a ring: one compare, not a division */
            at -= s->nprops;
        s->queue[q][at] = s->watch[i];
        s->qlen[q]++;
    }
}

static unsigned bound_moved(const struct fzn_dom *d)
{
    return FZN_EV_DOM | FZN_EV_BND | (d->min == d->max ? FZN_EV_FIX : 0);
}

bool fzn_set_min(struct fzn_store *s, int x, int64_t v)
{
    struct fzn_dom *d = &s->dom[x];
    if (v <= d->min)
        return true;
    if (v > d->max)
        return fail(s);
    save(s, x, -1);
    if (d->words) {
        int32_t m = scan_up(s, d, v);
        d->size -= count_bits(s, d, d->min, (int64_t)m - 1);
        d->min = m;
    } else {
        d->size -= (uint32_t)(v - d->min);
        d->min = (int32_t)v;
    }
    wake(s, x, bound_moved(d));
    return true;
}

bool fzn_set_max(struct fzn_store *s, int x, int64_t v)
{
    struct fzn_dom *d = &s->dom[x];
    if (v >= d->max)
        return true;
    if (v < d->min)
        return fail(s);
    save(s, x, -1);
    if (d->words) {
        int32_t m = scan_down(s, d, v);
        d->size -= count_bits(s, d, (int64_t)m + 1, d->max);
        d->max = m;
    } else {
        d->size -= (uint32_t)(d->max - v);
        d->max = (int32_t)v;
    }
    wake(s, x, bound_moved(d));
    return true;
}

bool fzn_fix(struct fzn_store *s, int x, int64_t v)
{
    if (!fzn_contains(s, x, v))
        return fail(s);
    struct fzn_dom *d = &s->dom[x];
    if (d->min == d->max)
        return true;
    save(s, x, -1);
    d->min = d->max = (int32_t)v;
    d->size = 1;
    wake(s, x, FZN_EV_ANY);
    return true;
}

bool fzn_remove(struct fzn_store *s, int x, int64_t v)
{
    struct fzn_dom *d = &s->dom[x];
    if (v < d->min || v > d->max)
        return true;
    if (v == d->min)
        return d->min == d->max ? fail(s) : fzn_set_min(s, x, v + 1);
    if (v == d->max)
        return fzn_set_max(s, x, v - 1);
    if (!d->words)
        return true; /* an interval keeps no holes */
    uint32_t i = (uint32_t)(v - d->base);
    uint64_t *w = &words_of(s, d)[i >> 6];
    if (!(*w >> (i & 63) & 1))
        return true;
    save(s, x, (int32_t)(i >> 6));
    *w &= ~(UINT64_C(1) << (i & 63));
    d->size--;
    wake(s, x, FZN_EV_DOM); /* inside the bounds: never the last value */
    return true;
}

bool fzn_ranges_contain(const int64_t *ranges, size_t nranges, int64_t v)
{
    size_t lo = 0, hi = nranges;
    while (lo < hi) { /* the first range whose hi is >= v */
        size_t mid = lo + (hi - lo) / 2;
        if (ranges[2 * mid + 1] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nranges && ranges[2 * lo] <= v;
}

/* x's bounds onto values of ranges, and a bit set's values outside them
 * removed.  Returns false on a wipe-out; *holes says whether an interval
 * domain still spans values outside ranges. */
static bool narrow_to_ranges(struct fzn_store *s, int x, const int64_t *r,
                             size_t n, bool *holes)
{
    *holes = false;
    if (!n)
        return fail(s);
    size_t i = 0;
    while (i < n && r[2 * i + 1] < fzn_min(s, x))
        i++;
    if (i == n || !fzn_set_min(s, x, r[2 * i]))
        return fail(s);
    size_t j = n - 1;
    while (j > i && r[2 * j] > fzn_max(s, x))
        j--;
    if (!fzn_set_max(s, x, r[2 * j + 1]))
        return false;
    if (!fzn_is_bitset(s, x)) { /* min is in range i, max in range j */
        *holes = i != j;
        return true;
    }
    for (int64_t v = fzn_min(s, x); v != INT64_MAX;
         v = fzn_next_above(s, x, v)) {
        while (i < n && r[2 * i + 1] < v)
            i++;
        if ((i == n || v < r[2 * i]) && !fzn_remove(s, x, v))
            return false;
    }
    return true;
}

static bool run_ranges(struct fzn_store *s, struct fzn_prop *p)
{
    bool holes;
    return narrow_to_ranges(s, p->x[0], p->k, (size_t)p->nk / 2, &holes);
}

bool fzn_intersect(struct fzn_store *s, int x, const int64_t *ranges,
                   size_t nranges)
{
    bool holes;
    if (!narrow_to_ranges(s, x, ranges, nranges, &holes))
        return false;
    if (holes && !s->frozen)
        fzn_post(s, "set_in", run_ranges, 0, &x, 1, ranges, (int)(2 * nranges));
    return true;
}

/* ---- levels ------------------------------------------------------------- */

void fzn_push(struct fzn_store *s)
{
    if (s->level == s->level_cap) {
        s->level_cap = s->level_cap ? 2 * s->level_cap : 64;
        s->level_start = cs_xrealloc(
            s->level_start, (size_t)s->level_cap * sizeof *s->level_start);
        s->level_entailed =
            cs_xrealloc(s->level_entailed,
                        (size_t)s->level_cap * sizeof *s->level_entailed);
    }
    s->level_entailed[s->level] = s->nentailed;
    s->level_start[s->level++] = s->trail_len;
}

void fzn_entail(struct fzn_store *s, struct fzn_prop *p)
{
    p->entailed = true;
    if (!s->level)
        return; /* at the root: for good */
    if (s->nentailed == s->entailed_cap) {
        s->entailed_cap = s->entailed_cap ? 2 * s->entailed_cap : 64;
        s->entailed =
            cs_xrealloc(s->entailed, s->entailed_cap * sizeof *s->entailed);
    }
    s->entailed[s->nentailed++] = (int)(p - s->props);
}

void fzn_pop(struct fzn_store *s)
{
    if (s->level > 0) {
        size_t start = s->level_start[--s->level];
        while (s->nentailed > s->level_entailed[s->level])
            s->props[s->entailed[--s->nentailed]].entailed = false;
        while (s->trail_len > start) {
            const struct fzn_trail *t = &s->trail[--s->trail_len];
            struct fzn_dom *d = &s->dom[t->var];
            d->min = t->min;
            d->max = t->max;
            d->size = t->size;
            if (t->word >= 0)
                words_of(s, d)[t->word] = t->bits;
        }
    }
    s->failed = false;
    if (s->frozen)
        fzn_queue_clear(s);
}

/* Large domains narrowed below the limit while building get their bits;
 * each propagator watches its variables not fixed yet, once each. */
void fzn_freeze(struct fzn_store *s)
{
    for (int x = 0; x < s->nvars; x++) {
        struct fzn_dom *d = &s->dom[x];
        if (d->words || d->min > d->max ||
            (int64_t)d->max - d->min + 1 > FZN_BITSET_LIMIT)
            continue;
        d->base = d->min;
        d->words = (uint32_t)(((int64_t)d->max - d->min + 64) / 64);
        d->off = new_words(s, d->words);
        set_bits(s, d, d->min, d->max);
    }
    int *last = cs_xmalloc((size_t)(s->nvars ? s->nvars : 1) * sizeof *last);
    s->watch_start = cs_xcalloc((size_t)s->nvars + 1, sizeof *s->watch_start);
    for (int x = 0; x < s->nvars; x++)
        last[x] = -1;
    for (int p = 0; p < s->nprops; p++)
        for (int i = 0; i < s->props[p].nx; i++) {
            int x = s->props[p].x[i];
            if (last[x] != p && !fzn_fixed(s, x)) {
                last[x] = p;
                s->watch_start[x + 1]++;
            }
        }
    for (int x = 0; x < s->nvars; x++) {
        s->watch_start[x + 1] += s->watch_start[x];
        last[x] = -1;
    }
    s->watch = cs_xmalloc(
        (size_t)(s->watch_start[s->nvars] ? s->watch_start[s->nvars] : 1) *
        sizeof *s->watch);
    /* those a fix alone wakes at the back of each list, the rest in front */
    int *fill = cs_xmalloc((size_t)(s->nvars ? s->nvars : 1) * sizeof *fill);
    int *back = cs_xmalloc((size_t)(s->nvars ? s->nvars : 1) * sizeof *back);
    memcpy(fill, s->watch_start, (size_t)s->nvars * sizeof *fill);
    memcpy(back, s->watch_start + 1, (size_t)s->nvars * sizeof *back);
    for (int p = 0; p < s->nprops; p++)
        for (int i = 0; i < s->props[p].nx; i++) {
            int x = s->props[p].x[i];
            if (last[x] != p && !fzn_fixed(s, x)) {
                last[x] = p;
                if (s->props[p].events == FZN_EV_FIX)
                    s->watch[--back[x]] = p;
                else
                    s->watch[fill[x]++] = p;
            }
        }
    s->watch_fix = back; /* where the fix-only ones begin */
    free(fill);
    free(last);
    for (int q = 0; q < FZN_PRIOS; q++)
        s->queue[q] =
            cs_xmalloc((size_t)(s->nprops ? s->nprops : 1) * sizeof(int));
    s->frozen = true;
}

struct fzn_store *fzn_store_clone(const struct fzn_store *s)
{
    struct fzn_store *c = cs_xmalloc(sizeof *c);
    *c = *s;
    c->dom = cs_xmalloc((size_t)(s->nvars ? s->nvars : 1) * sizeof *c->dom);
    if (s->nvars)
        memcpy(c->dom, s->dom, (size_t)s->nvars * sizeof *c->dom);
    c->bits =
        cs_xmalloc((s->nbits_words ? s->nbits_words : 1) * sizeof *c->bits);
    if (s->nbits_words)
        memcpy(c->bits, s->bits, s->nbits_words * sizeof *c->bits);
    c->props =
        cs_xmalloc((size_t)(s->nprops ? s->nprops : 1) * sizeof *c->props);
    if (s->nprops)
        memcpy(c->props, s->props, (size_t)s->nprops * sizeof *c->props);
    for (int p = 0; p < s->nprops; p++) {
        c->props[p].queued = false;
        c->props[p].weight = 0;
        c->props[p].aux = NULL;
    }
    for (int q = 0; q < FZN_PRIOS; q++) {
        c->queue[q] =
            cs_xmalloc((size_t)(s->nprops ? s->nprops : 1) * sizeof(int));
        c->qhead[q] = c->qlen[q] = 0;
    }
    c->trail = NULL;
    c->trail_len = c->trail_cap = 0;
    c->level_start = NULL;
    c->level = c->level_cap = 0;
    c->entailed = NULL;
    c->nentailed = c->entailed_cap = 0;
    c->level_entailed = NULL;
    c->culprit = NULL;
    c->propagations = 0;
    c->failures = NULL;
    c->vars_cap = s->nvars;
    c->props_cap = s->nprops;
    c->bits_cap = s->nbits_words;
    c->consts = NULL;
    c->is_clone = true;
    return c;
}
