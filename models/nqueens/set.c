/* set.c - the set state's lines: the columns and diagonals queens occupy,
 * in a uthash set, behind the array hooks (array.c) with `state: set`.
 *
 * Entries come from a pool made in nq_lineset_new, with the bucket table
 * already grown to hold every key, so marking a line never allocates.
 */
#include <stdlib.h>

#include "nqueens/internal.h"

/* uthash allocates its tables through the project's wrapper (which aborts
 * with a message on exhaustion rather than returning NULL). */
#define uthash_malloc(size) cs_xmalloc(size)
#define uthash_free(ptr, size) free(ptr)
#include <uthash.h>

/* The naive textbook state, behind the array hooks (array.c): one hash
 * set holding a key for each occupied column (c), rising diagonal
 * (n + r + c) and falling diagonal (3n - 1 + r - c + n - 1).  Entries live
 * in a pool, one per possible key, so marking only links and unlinks; the
 * bucket table is grown in nq_lineset_new to hold every key at once and
 * keeps a sentinel entry, so no add or delete in the search allocates. */
struct line_entry {
    int key;
    UT_hash_handle hh;
};

struct nq_lineset {
    int n;
    struct line_entry *occupied; /* the hash set (uthash head) */
    struct line_entry sentinel;  /* key -1: keeps the table alive */
    struct line_entry pool[];    /* 5n - 2: one per key */
};

static bool line_has(struct nq_lineset *set, int key)
{
    struct line_entry *e;
    HASH_FIND_INT(set->occupied, &key, e);
    return e != NULL;
}

static void line_mark(struct nq_lineset *set, int key, bool on)
{
    struct line_entry *e = &set->pool[key];
    if (on)
        HASH_ADD_INT(set->occupied, key, e);
    else
        HASH_DEL(set->occupied, e);
}

struct nq_lineset *nq_lineset_new(int n)
{
    int keys = 5 * n - 2;
    struct nq_lineset *set =
        cs_xcalloc(1, sizeof *set + (size_t)keys * sizeof set->pool[0]);
    set->n = n;
    set->sentinel.key = -1;
    HASH_ADD_INT(set->occupied, key, &set->sentinel);
    for (int k = 0; k < keys; k++)
        set->pool[k].key = k;
    for (int k = 0; k < keys; k++)
        line_mark(set, k, true);
    for (int k = 0; k < keys; k++)
        line_mark(set, k, false);
    return set;
}

void nq_lineset_free(struct nq_lineset *set)
{
    if (!set)
        return;
    HASH_CLEAR(hh, set->occupied);
    free(set);
}

bool nq_lineset_attacks(struct nq_lineset *set, int r, int c)
{
    int n = set->n;
    return line_has(set, c) || line_has(set, n + r + c) ||
           line_has(set, 3 * n - 1 + r - c + n - 1);
}

bool nq_lineset_has(struct nq_lineset *set, int key)
{
    return line_has(set, key);
}

void nq_lineset_mark(struct nq_lineset *set, int r, int c, bool on)
{
    int n = set->n;
    line_mark(set, c, on);
    line_mark(set, n + r + c, on);
    line_mark(set, 3 * n - 1 + r - c + n - 1, on);
}
