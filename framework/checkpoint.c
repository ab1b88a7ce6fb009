/* checkpoint.c - see checkpoint.h for the format and its guarantees.
 *
 *   csearch-checkpoint 2 fingerprint=0123456789abcdef units=2390 unique=1
 *   top solutions=0 unique=0 nodes=41 checks=41 fails=3 depth=2 sum=...
 *   unit=17 solutions=... unique=... nodes=... checks=... fails=... depth=9
 * sum=1a2b3c4d
 *
 * sum is FNV-1a (32 bits) of the line up to the space before "sum=".
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint.h"
#include "csearch/dist.h"
#include "csearch/file.h"

/* the largest log read: some 10 million units */
#define CHECKPOINT_MAX_BYTES ((size_t)1 << 30)

#define MAGIC "csearch-checkpoint 2"

/* the most units a header may name: splits make thousands (N-Queens 28:
 * 45578), and `csearch merge` allocates a table of them */
#define CHECKPOINT_MAX_UNITS ((uint64_t)1 << 24)

static uint32_t fnv1a(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

/* "unit=7 solutions=... depth=9 sum=..." or, for unit NULL, the top line */
static int format_line(char *line, size_t size, const uint64_t *unit,
                       const struct cs_stats *s)
{
    int len = unit ? snprintf(line, size, "unit=%" PRIu64 " ", *unit)
                   : snprintf(line, size, "top ");
    len += snprintf(line + len, size - (size_t)len,
                    "solutions=%" PRIu64 " unique=%" PRIu64 " nodes=%" PRIu64
                    " checks=%" PRIu64 " fails=%" PRIu64 " depth=%d",
                    s->solutions, s->unique, s->nodes, s->checks, s->fails,
                    s->max_depth);
    return len + snprintf(line + len, size - (size_t)len,
                          " sum=%08" PRIx32 "\n", fnv1a(line, (size_t)len));
}

static bool same_counts(const struct cs_stats *a, const struct cs_stats *b)
{
    return a->solutions == b->solutions && a->unique == b->unique &&
           a->nodes == b->nodes && a->checks == b->checks &&
           a->fails == b->fails && a->max_depth == b->max_depth;
}

bool cs_stats_add(struct cs_stats *into, const struct cs_stats *s)
{
    bool overflow =
        __builtin_add_overflow(into->solutions, s->solutions, &into->solutions);
    overflow |= __builtin_add_overflow(into->unique, s->unique, &into->unique);
    into->nodes += s->nodes;
    into->checks += s->checks;
    into->fails += s->fails;
    if (s->max_depth > into->max_depth)
        into->max_depth = s->max_depth;
    return overflow;
}

/* A log's text, at most CHECKPOINT_MAX_BYTES; for an absent file (when
 * absent_ok) ""; a log to merge may be a pipe */
static char *read_all(const char *path, bool absent_ok, size_t *len,
                      struct cs_error *err)
{
    struct cs_file f;
    int rc = cs_file_read(path, CHECKPOINT_MAX_BYTES,
                          absent_ok ? 0 : CS_FILE_STREAM, &f);
    if (rc == CS_FILE_CANNOT_OPEN && f.errnum == ENOENT && absent_ok) {
        *len = 0;
        return cs_xstrdup("");
    }
    if (rc)
        cs_error_set(err, path, "cannot %s %s: %s",
                     rc == CS_FILE_CANNOT_OPEN ? "open" : "read",
                     absent_ok ? "checkpoint" : "log", f.why);
    *len = f.len;
    return f.text;
}

/* One "name=DIGITS" field at *p, advancing past it and one space; digits
 * only (no sign, no blanks), no overflow. */
static bool field(const char **p, const char *end, const char *name,
                  uint64_t *out)
{
    size_t len = strlen(name);
    if ((size_t)(end - *p) < len + 2 || memcmp(*p, name, len) ||
        (*p)[len] != '=')
        return false;
    const char *d = *p + len + 1;
    uint64_t v = 0;
    if (d == end || *d < '0' || *d > '9')
        return false;
    for (; d < end && *d >= '0' && *d <= '9'; d++)
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, (uint64_t)(*d - '0'), &v))
            return false;
    if (d < end && *d != ' ')
        return false;
    *out = v;
    *p = d < end ? d + 1 : d;
    return true;
}

/* Parse one unit line (unit non-NULL) or the top line (unit NULL), without
 * its newline; NULL or an error message (in why, for the counts).  A valid
 * checksum is not enough: the counts must be possible too, since an edited
 * line can be checksummed again. */
static const char *parse_line(const char *line, size_t len, uint64_t units,
                              bool unique_ok, uint64_t *unit,
                              struct cs_stats *s, char *why, size_t size)
{
    static const char *const names[] = {"unit",  "solutions", "unique",
                                        "nodes", "checks",    "fails",
                                        "depth", NULL};
    if (len < 13 || memcmp(line + len - 13, " sum=", 5))
        return "malformed checkpoint line";
    const char *sum = line + len - 13; /* " sum=" and 8 hex digits */
    uint32_t want = 0;
    for (const char *h = sum + 5; h < line + len; h++) {
        int x = *h >= '0' && *h <= '9'   ? *h - '0'
                : *h >= 'a' && *h <= 'f' ? *h - 'a' + 10
                                         : -1;
        if (x < 0)
            return "malformed checkpoint line";
        want = want << 4 | (uint32_t)x;
    }
    if (fnv1a(line, (size_t)(sum - line)) != want)
        return "corrupt checkpoint line (checksum mismatch)";
    uint64_t v[7] = {0};
    const char *p = line;
    int i = 0;
    if (!unit) {
        if (sum - p < 4 || memcmp(p, "top ", 4))
            return "malformed checkpoint line (expected the top line)";
        p += 4;
        i = 1;
    }
    for (; names[i]; i++)
        if (!field(&p, sum, names[i], &v[i]))
            return "malformed checkpoint line";
    if (p != sum || v[6] > 1000000)
        return "malformed checkpoint line";
    memset(s, 0, sizeof *s);
    s->solutions = v[1];
    s->unique = v[2];
    s->nodes = v[3];
    s->checks = v[4];
    s->fails = v[5];
    s->max_depth = (int)v[6];
    if (unit && (*unit = v[0]) >= units)
        return "checkpoint names a unit beyond this config's units";
    if (s->unique > s->solutions)
        snprintf(why, size,
                 "impossible counts: unique %" PRIu64 " is more than "
                 "solutions %" PRIu64,
                 s->unique, s->solutions);
    else if (s->unique && !unique_ok)
        snprintf(why, size,
                 "impossible counts: unique %" PRIu64 " in a log whose "
                 "header says it counts no unique solutions (unique=0)",
                 s->unique);
    else
        return NULL;
    return why;
}

/* The units a log records, as loading fills them in. */
struct table {
    unsigned char *done;
    struct cs_stats *results;
    uint64_t count; /* distinct units recorded */
};

static int parse_header(const char *line, size_t len, struct cs_pos pos,
                        struct checkpoint_head *head, struct cs_error *err)
{
    char text[128];
    uint64_t fp, n;
    int unique = -1, used = 0;
    if (len >= sizeof text)
        return cs_error_at(err, pos, "not a csearch checkpoint");
    memcpy(text, line, len);
    text[len] = '\0';
    if (!strncmp(text, "csearch-checkpoint 1 ", 21))
        return cs_error_at(err, pos,
                           "checkpoint of format 1 (before merge and MPI); "
                           "this csearch reads format 2");
    if (sscanf(text,
               MAGIC " fingerprint=%16" SCNx64 " units=%" SCNu64
                     " unique=%1d%n",
               &fp, &n, &unique, &used) != 3 ||
        (size_t)used != len || unique < 0 || unique > 1)
        return cs_error_at(err, pos, "not a csearch checkpoint");
    /* only the header csearch writes: sscanf takes "units=-14" (as
     * 2^64 - 14), signs, leading zeros and blanks too */
    char canon[sizeof text];
    snprintf(canon, sizeof canon,
             MAGIC " fingerprint=%016" PRIx64 " units=%" PRIu64 " unique=%d",
             fp, n, unique);
    if (strcmp(canon, text))
        return cs_error_at(err, pos, "not a csearch checkpoint");
    /* merge allocates a table of the header's units */
    if (n > CHECKPOINT_MAX_UNITS)
        return cs_error_at(err, pos,
                           "checkpoint splits into %" PRIu64 " units, more "
                           "than any split (at most %" PRIu64 ")",
                           n, (uint64_t)CHECKPOINT_MAX_UNITS);
    head->fingerprint = fp;
    head->units = n;
    head->reports_unique = unique;
    return 0;
}

/* Read a log's text into t.  With learn, the log's header and top line
 * define *head (and t is allocated for its units); otherwise they must
 * equal *head, whose's ("this config", "the first log").  *keep is the
 * length of the whole lines read, *torn says a torn last line was left. */
static int load(const char *path, const char *text, size_t len,
                struct checkpoint_head *head, bool learn, const char *whose,
                struct table *t, bool *torn, size_t *keep, struct cs_error *err)
{
    struct cs_pos pos = {path, 1, 1};
    const char *line = text, *end = text + len;
    *keep = 0;
    *torn = false;
    for (int lineno = 1; line < end; lineno++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        pos.line = lineno;
        if (!nl) {
            /* a torn last line: a write cut short by a kill (a torn
             * header: killed before anything was logged; start afresh) */
            *torn = lineno > 2;
            if (lineno == 2)
                *keep = 0;
            break;
        }
        size_t line_len = (size_t)(nl - line);
        if (lineno == 1) {
            struct checkpoint_head got;
            if (parse_header(line, line_len, pos, &got, err))
                return -1;
            if (learn) {
                *head = got;
                t->done = cs_xcalloc(got.units ? got.units : 1, 1);
                t->results =
                    cs_xcalloc(got.units ? got.units : 1, sizeof *t->results);
            } else if (got.fingerprint != head->fingerprint) {
                return cs_error_at(err, pos,
                                   "checkpoint belongs to another config "
                                   "(fingerprint %016" PRIx64 ", %s %016" PRIx64
                                   ")",
                                   got.fingerprint, whose, head->fingerprint);
            } else if (got.units != head->units) {
                return cs_error_at(err, pos,
                                   "checkpoint splits into %" PRIu64
                                   " units, %s into %" PRIu64,
                                   got.units, whose, head->units);
            }
        } else {
            uint64_t unit;
            struct cs_stats s;
            char why[160];
            const char *bad =
                parse_line(line, line_len, head->units, head->reports_unique,
                           lineno == 2 ? NULL : &unit, &s, why, sizeof why);
            if (bad)
                return cs_error_at(err, pos, "%s", bad);
            if (lineno == 2) {
                if (learn)
                    head->top = s;
                else if (!same_counts(&head->top, &s))
                    return cs_error_at(err, pos,
                                       "checkpoint counts other nodes above "
                                       "the split than %s",
                                       whose);
            } else if (t->done[unit]) {
                if (!same_counts(&t->results[unit], &s))
                    return cs_error_at(err, pos,
                                       "unit %" PRIu64 " is recorded twice "
                                       "with different counts",
                                       unit);
            } else {
                t->done[unit] = 1;
                t->results[unit] = s;
                t->count++;
            }
        }
        line = nl + 1;
        *keep = lineno >= 2 ? (size_t)(line - text) : 0;
    }
    return 0;
}

int checkpoint_open(struct checkpoint *cp, const char *path, bool resume,
                    const struct checkpoint_head *head, unsigned char *done,
                    struct cs_stats *results, uint64_t *resumed, bool *torn,
                    struct cs_error *err)
{
    memset(cp, 0, sizeof *cp);
    cp->path = path;
    cp->fd = -1;
    *resumed = 0;
    *torn = false;

    /* whether it exists is its size, by fstat; only --resume reads it */
    struct cs_file probe;
    int st = cs_file_read(path, 0, CS_FILE_PROBE, &probe);
    if (st == CS_FILE_CANNOT_READ ||
        (st == CS_FILE_CANNOT_OPEN && probe.errnum != ENOENT))
        return cs_error_set(err, path, "cannot %s checkpoint: %s",
                            st == CS_FILE_CANNOT_OPEN ? "open" : "read",
                            probe.why);
    if (!st && probe.size && !resume)
        return cs_error_set(err, path,
                            "checkpoint exists; continue it with --resume "
                            "or remove it");
    size_t len = 0, keep = 0;
    char *text =
        st || !probe.size ? cs_xstrdup("") : read_all(path, true, &len, err);
    if (!text)
        return -1;
    struct table t = {done, results, 0};
    struct checkpoint_head want = *head;
    if (len && load(path, text, len, &want, false, "this config", &t, torn,
                    &keep, err)) {
        free(text);
        return -1;
    }
    free(text);
    *resumed = t.count;

    cp->fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (cp->fd < 0)
        return cs_error_set(err, path, "cannot write checkpoint: %s",
                            strerror(errno));
    /* cut a torn tail so the next line starts on a line of its own */
    if (ftruncate(cp->fd, (off_t)keep) || lseek(cp->fd, 0, SEEK_END) < 0) {
        int e = errno;
        close(cp->fd);
        cp->fd = -1;
        return cs_error_set(err, path, "cannot write checkpoint: %s",
                            strerror(e));
    }
    if (keep == 0) {
        /* header and top line in one write: a kill leaves both or a torn
         * header, never a header alone */
        char first[96], top[512];
        int n = snprintf(
            first, sizeof first,
            MAGIC " fingerprint=%016" PRIx64 " units=%" PRIu64 " unique=%d\n",
            head->fingerprint, head->units, head->reports_unique ? 1 : 0);
        int m = format_line(top, sizeof top, NULL, &head->top);
        cp->buf = cs_xmalloc((size_t)(n + m));
        memcpy(cp->buf, first, (size_t)n);
        memcpy(cp->buf + n, top, (size_t)m);
        cp->len = cp->cap = (size_t)(n + m);
        if (checkpoint_flush(cp, err)) {
            checkpoint_close(cp, NULL);
            return -1;
        }
    }
    return 0;
}

/* Units a..b as "a-b" or "a", after a separator when *out is not empty. */
static void add_range(char *out, size_t size, uint64_t a, uint64_t b)
{
    size_t used = strlen(out);
    if (used + 40 >= size) {
        if (!strstr(out, ", ..."))
            snprintf(out + used, size - used, ", ...");
        return;
    }
    const char *sep = used ? ", " : "";
    if (a == b)
        snprintf(out + used, size - used, "%s%" PRIu64, sep, a);
    else
        snprintf(out + used, size - used, "%s%" PRIu64 "-%" PRIu64, sep, a, b);
}

/* Where text ends: its last line, just past its last character. */
static struct cs_pos end_pos(const char *path, const char *text, size_t len)
{
    struct cs_pos pos = {path, 1, 1};
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            pos.line++, pos.col = 1;
        else
            pos.col++;
    return pos;
}

int cs_merge_logs(const char *const *paths, int n, struct cs_merge *out,
                  struct cs_error *err)
{
    struct checkpoint_head head = {0};
    struct table t = {NULL, NULL, 0};
    int rc = 0;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n && !rc; i++) {
        size_t len, keep;
        bool torn;
        char *text = NULL;
        if (!(text = read_all(paths[i], false, &len, err)))
            rc = -1;
        else
            rc = load(paths[i], text, len, &head, i == 0, "the first log", &t,
                      &torn, &keep, err);
        if (!rc && keep == 0 && len == 0)
            rc = cs_error_set(err, paths[i], "empty log");
        else if (!rc && keep == 0)
            rc = cs_error_at(err, end_pos(paths[i], text, len),
                             "the log ends inside its header: its run "
                             "stopped before it logged a unit");
        out->torn += !rc && torn;
        free(text);
    }
    if (!rc) {
        out->fingerprint = head.fingerprint;
        out->units = head.units;
        out->present = t.count;
        out->reports_unique = head.reports_unique;
        out->total = head.top;
        bool overflow = false;
        uint64_t gap = UINT64_MAX; /* first unit of a missing run */
        for (uint64_t u = 0; u < head.units; u++) {
            if (!t.done[u]) {
                if (gap == UINT64_MAX)
                    gap = u;
                continue;
            }
            overflow |= cs_stats_add(&out->total, &t.results[u]);
            if (gap != UINT64_MAX)
                add_range(out->missing, sizeof out->missing, gap, u - 1);
            gap = UINT64_MAX;
        }
        if (gap != UINT64_MAX)
            add_range(out->missing, sizeof out->missing, gap, head.units - 1);
        if (overflow)
            rc = cs_error_set(err, NULL,
                              "the count overflowed 64 bits; no "
                              "total printed");
    }
    free(t.done);
    free(t.results);
    return rc;
}

void checkpoint_add(struct checkpoint *cp, uint64_t unit,
                    const struct cs_stats *stats)
{
    char line[512];
    size_t n = (size_t)format_line(line, sizeof line, &unit, stats);
    if (cp->len + n > cp->cap) {
        cp->cap = 2 * (cp->len + n);
        cp->buf = cs_xrealloc(cp->buf, cp->cap);
    }
    memcpy(cp->buf + cp->len, line, n);
    cp->len += n;
}

int checkpoint_flush(struct checkpoint *cp, struct cs_error *err)
{
    size_t off = 0;
    if (cp->broken) {
        cp->len = 0;
        return cs_error_set(err, cp->path, "checkpoint no longer written");
    }
    while (off < cp->len) {
        ssize_t n = write(cp->fd, cp->buf + off, cp->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            /* never write after a failure: a retry would append a whole
             * line to a half-written one */
            cp->broken = true;
            cp->len = 0;
            return cs_error_set(err, cp->path, "cannot write checkpoint: %s",
                                strerror(e));
        }
        off += (size_t)n;
    }
    cp->len = 0;
    return 0;
}

int checkpoint_close(struct checkpoint *cp, struct cs_error *err)
{
    int rc = 0;
    if (cp->fd >= 0) {
        if (cp->len)
            rc = checkpoint_flush(cp, err);
        close(cp->fd);
    }
    free(cp->buf);
    cp->buf = NULL;
    cp->fd = -1;
    return rc;
}
