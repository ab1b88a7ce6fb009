/* post.c - the table of constraints, built from FZN_BUILTINS (fzn.h):
 * each entry checks its arguments' kinds against the list's letters and
 * then calls the propagators' own post function.  The table is sorted by
 * name, so fzn_builtin_find is a binary search.
 */
#include <stdio.h>
#include <string.h>

#include "fzn.h"

int fzn_expects(struct cs_error *err, const char *name, const char *what)
{
    return cs_error_set(err, NULL, "'%s' expects %s", name, what);
}

int fzn_post_false(struct fzn_store *s)
{
    s->failed = true;
    return 0;
}

/* Argument i (0-based) against its kind letter. */
static bool kind_ok(const struct fzn_arg *a, char kind)
{
    switch (kind) {
    case 'v':
        return !a->set && a->n == 1;
    case 'c':
        return !a->set && a->n == 1 && a->fixed;
    case 'V':
        return !a->set;
    case 'C':
        return !a->set && (a->fixed || a->n == 0);
    default: /* 'S' */
        return a->set;
    }
}

static const char *kind_name(char kind)
{
    switch (kind) {
    case 'v':
        return "a single value";
    case 'c':
        return "a constant";
    case 'V':
        return "an array";
    case 'C':
        return "an array of constants";
    default:
        return "a constant set";
    }
}

static int check_kinds(const char *name, const char *kinds,
                       const struct fzn_arg *a, struct cs_error *err)
{
    for (int i = 0; kinds[i]; i++)
        if (!kind_ok(&a[i], kinds[i])) {
            char what[64];
            snprintf(what, sizeof what, "argument %d to be %s", i + 1,
                     kind_name(kinds[i]));
            return fzn_expects(err, name, what);
        }
    return 0;
}

#define FZN_CHECKED_POST(name, kinds)                                          \
    static int post_##name(struct fzn_store *s, const struct fzn_arg *a,       \
                           struct cs_error *err)                               \
    {                                                                          \
        if (check_kinds(#name, kinds, a, err))                                 \
            return -1;                                                         \
        return fzn_post_##name(s, a, err);                                     \
    }
FZN_BUILTINS(FZN_CHECKED_POST)
#undef FZN_CHECKED_POST

#define FZN_ENTRY(name, kinds) {#name, (int)sizeof kinds - 1, post_##name},
const struct fzn_builtin fzn_builtins[] = {FZN_BUILTINS(FZN_ENTRY)};
#undef FZN_ENTRY
const size_t fzn_nbuiltins = sizeof fzn_builtins / sizeof fzn_builtins[0];

const struct fzn_builtin *fzn_builtin_find(const char *name)
{
    size_t lo = 0, hi = fzn_nbuiltins;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(fzn_builtins[mid].name, name);
        if (!c)
            return &fzn_builtins[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
