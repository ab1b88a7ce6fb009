/* prop_cumulative.c - cumulative by time-tabling: the compulsory parts
 * ([latest start, earliest end) of tasks whose duration and use are
 * surely positive) make a profile that must stay within b, and each task
 * is pushed off the stretches where its use on top of the others' would
 * not fit.  Once all is fixed the profile is the usage itself.
 */
#include <stdlib.h>

#include "fzn.h"

struct event {
    int64_t t, dh;
};

struct seg {
    int64_t a, z, h; /* height h over [a, z) */
};

static int by_time(const void *l, const void *r)
{
    const struct event *a = l, *b = r;
    return (a->t > b->t) - (a->t < b->t);
}

/* x is s[n], d[n], r[n], b */
static bool run_cumulative(struct fzn_store *s, struct fzn_prop *p)
{
    int n = (p->nx - 1) / 3;
    const int *st = p->x, *du = p->x + n, *re = p->x + 2 * n;
    int b = p->x[3 * n];
    if (!p->aux)
        p->aux = cs_xmalloc(
            2 * (size_t)n * (sizeof(struct event) + sizeof(struct seg)) + 1);
    struct event *ev = p->aux;
    struct seg *sg = (struct seg *)(ev + 2 * n);
    int ne = 0, ns = 0;
    for (int i = 0; i < n; i++) {
        int64_t lst = fzn_max(s, st[i]);
        int64_t ect = (int64_t)fzn_min(s, st[i]) + fzn_min(s, du[i]);
        if (fzn_min(s, du[i]) > 0 && fzn_min(s, re[i]) > 0 && lst < ect) {
            ev[ne++] = (struct event){lst, fzn_min(s, re[i])};
            ev[ne++] = (struct event){ect, -(int64_t)fzn_min(s, re[i])};
        }
        if (fzn_min(s, du[i]) > 0 && !fzn_set_max(s, re[i], fzn_max(s, b)))
            return false;
    }
    qsort(ev, (size_t)ne, sizeof *ev, by_time);
    int64_t h = 0, top = 0;
    for (int e = 0; e < ne; e++) {
        h += ev[e].dh;
        if (e + 1 < ne && ev[e + 1].t > ev[e].t && h > 0) {
            sg[ns++] = (struct seg){ev[e].t, ev[e + 1].t, h};
            top = h > top ? h : top;
        }
    }
    if (!fzn_set_min(s, b, top))
        return false;
    int64_t cap = fzn_max(s, b);
    for (int i = 0; i < n; i++) {
        int64_t d = fzn_min(s, du[i]), r = fzn_min(s, re[i]);
        if (d <= 0 || r <= 0)
            continue;
        int64_t lst = fzn_max(s, st[i]), est = fzn_min(s, st[i]);
        int64_t ect = est + d;
        /* the others' height on a segment: less this task's own part */
        for (int k = 0; k < ns; k++) {
            int64_t own = sg[k].a >= lst && sg[k].z <= ect ? r : 0;
            if (sg[k].h - own + r > cap && est < sg[k].z && sg[k].a < est + d)
                est = sg[k].z;
        }
        int64_t ls = lst;
        for (int k = ns; k-- > 0;) {
            int64_t own = sg[k].a >= lst && sg[k].z <= ect ? r : 0;
            if (sg[k].h - own + r > cap && ls < sg[k].z && sg[k].a < ls + d)
                ls = sg[k].a - d;
        }
        if (!fzn_set_min(s, st[i], est) || !fzn_set_max(s, st[i], ls))
            return false;
    }
    return true;
}

int fzn_post_fzn_cumulative(struct fzn_store *s, const struct fzn_arg *a,
                            struct cs_error *err)
{
    int n = a[0].n;
    if (a[1].n != n || a[2].n != n)
        return fzn_expects(err, "fzn_cumulative",
                           "as many durations and uses as starts");
    if (n == 0)
        return 0;
    int *x = cs_xmalloc((size_t)(3 * n + 1) * sizeof *x);
    for (int i = 0; i < n; i++) {
        x[i] = a[0].x[i];
        x[n + i] = a[1].x[i];
        x[2 * n + i] = a[2].x[i];
        /* MiniZinc's cumulative asserts durations and uses are >= 0 */
        if (!fzn_set_min(s, x[n + i], 0) || !fzn_set_min(s, x[2 * n + i], 0))
            break;
    }
    x[3 * n] = a[3].x[0];
    if (fzn_set_min(s, x[3 * n], 0)) /* std: b >= 0 once there is a task */
        fzn_post(s, "fzn_cumulative", run_cumulative, 2, x, 3 * n + 1, NULL, 0);
    free(x);
    return 0;
}
