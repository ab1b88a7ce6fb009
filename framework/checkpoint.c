/* checkpoint.c - see checkpoint.h for the format and its guarantees.
 *
 *   csearch-checkpoint 1 fingerprint=0123456789abcdef units=2390
 *   unit=17 solutions=... unique=... nodes=... checks=... fails=... depth=9 sum=1a2b3c4d
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

#define MAGIC "csearch-checkpoint 1"

static uint32_t fnv1a(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static int format_unit(char *line, size_t size, uint64_t unit,
                       const struct cs_stats *s)
{
    int len = snprintf(line, size,
                       "unit=%" PRIu64 " solutions=%" PRIu64
                       " unique=%" PRIu64 " nodes=%" PRIu64
                       " checks=%" PRIu64 " fails=%" PRIu64 " depth=%d",
                       unit, s->solutions, s->unique, s->nodes, s->checks,
                       s->fails, s->max_depth);
    return len + snprintf(line + len, size - (size_t)len, " sum=%08" PRIx32 "\n",
                          fnv1a(line, (size_t)len));
}

static bool same_counts(const struct cs_stats *a, const struct cs_stats *b)
{
    return a->solutions == b->solutions && a->unique == b->unique &&
           a->nodes == b->nodes && a->checks == b->checks &&
           a->fails == b->fails && a->max_depth == b->max_depth;
}

static char *read_all(const char *path, size_t *len, struct cs_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) {
            *len = 0;
            return cs_xstrdup("");
        }
        cs_error_set(err, path, "cannot open checkpoint: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 4096, got;
    char *buf = cs_xmalloc(cap + 1);
    *len = 0;
    while ((got = fread(buf + *len, 1, cap - *len, f)) > 0) {
        *len += got;
        if (*len == cap)
            buf = cs_xrealloc(buf, (cap *= 2) + 1);
    }
    int bad = ferror(f) ? errno : 0;
    fclose(f);
    if (bad) {
        free(buf);
        cs_error_set(err, path, "cannot read checkpoint: %s", strerror(bad));
        return NULL;
    }
    buf[*len] = '\0';
    return buf;
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

/* Parse one unit line (without its newline); NULL or an error message. */
static const char *parse_unit(const char *line, size_t len, uint64_t units,
                              uint64_t *unit, struct cs_stats *s)
{
    static const char *const names[] = {"unit",   "solutions", "unique",
                                        "nodes",  "checks",    "fails",
                                        "depth",  NULL};
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
    uint64_t v[7];
    const char *p = line;
    for (int i = 0; names[i]; i++)
        if (!field(&p, sum, names[i], &v[i]))
            return "malformed checkpoint line";
    if (p != sum || v[6] > 1000000)
        return "malformed checkpoint line";
    *unit = v[0];
    memset(s, 0, sizeof *s);
    s->solutions = v[1];
    s->unique = v[2];
    s->nodes = v[3];
    s->checks = v[4];
    s->fails = v[5];
    s->max_depth = (int)v[6];
    if (*unit >= units)
        return "checkpoint names a unit beyond this config's units";
    return NULL;
}

static int load(struct checkpoint *cp, const char *text, size_t len,
                uint64_t fingerprint, uint64_t units, unsigned char *done,
                struct cs_stats *results, uint64_t *resumed, bool *torn,
                size_t *keep, struct cs_error *err)
{
    struct cs_pos pos = {cp->path, 1, 1};
    const char *line = text, *end = text + len;
    *keep = 0;
    for (int lineno = 1; line < end; lineno++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        pos.line = lineno;
        if (!nl) {
            /* a torn last line: a write cut short by a kill (a torn
             * header: killed before anything was logged; start afresh) */
            *torn = lineno > 1;
            break;
        }
        size_t line_len = (size_t)(nl - line);
        if (lineno == 1) {
            uint64_t fp, n;
            int used = 0;
            char head[128];
            if (line_len >= sizeof head)
                return cs_error_at(err, pos, "not a csearch checkpoint");
            memcpy(head, line, line_len);
            head[line_len] = '\0';
            if (sscanf(head, MAGIC " fingerprint=%16" SCNx64 " units=%" SCNu64
                             "%n",
                       &fp, &n, &used) != 2 ||
                (size_t)used != line_len)
                return cs_error_at(err, pos, "not a csearch checkpoint");
            if (fp != fingerprint)
                return cs_error_at(err, pos,
                                   "checkpoint belongs to another config "
                                   "(fingerprint %016" PRIx64
                                   ", this config %016" PRIx64 ")",
                                   fp, fingerprint);
            if (n != units)
                return cs_error_at(err, pos,
                                   "checkpoint splits into %" PRIu64
                                   " units, this run into %" PRIu64,
                                   n, units);
        } else {
            uint64_t unit;
            struct cs_stats s;
            const char *bad = parse_unit(line, line_len, units, &unit, &s);
            if (bad)
                return cs_error_at(err, pos, "%s", bad);
            if (done[unit]) {
                if (!same_counts(&results[unit], &s))
                    return cs_error_at(err, pos,
                                       "unit %" PRIu64 " is recorded twice "
                                       "with different counts",
                                       unit);
            } else {
                done[unit] = 1;
                results[unit] = s;
                ++*resumed;
            }
        }
        line = nl + 1;
        *keep = (size_t)(line - text);
    }
    return 0;
}

int checkpoint_open(struct checkpoint *cp, const char *path, bool resume,
                    uint64_t fingerprint, uint64_t units, unsigned char *done,
                    struct cs_stats *results, uint64_t *resumed, bool *torn,
                    struct cs_error *err)
{
    memset(cp, 0, sizeof *cp);
    cp->path = path;
    cp->fd = -1;
    *resumed = 0;
    *torn = false;

    size_t len, keep = 0;
    char *text = read_all(path, &len, err);
    if (!text)
        return -1;
    if (len && !resume) {
        free(text);
        return cs_error_set(err, path,
                            "checkpoint exists; continue it with --resume "
                            "or remove it");
    }
    if (len && load(cp, text, len, fingerprint, units, done, results,
                    resumed, torn, &keep, err)) {
        free(text);
        return -1;
    }
    free(text);

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
        char head[96];
        int n = snprintf(head, sizeof head,
                         MAGIC " fingerprint=%016" PRIx64 " units=%" PRIu64
                               "\n",
                         fingerprint, units);
        cp->buf = cs_xmalloc((size_t)n);
        memcpy(cp->buf, head, (size_t)n);
        cp->len = cp->cap = (size_t)n;
        if (checkpoint_flush(cp, err)) {
            checkpoint_close(cp, NULL);
            return -1;
        }
    }
    return 0;
}

void checkpoint_add(struct checkpoint *cp, uint64_t unit,
                    const struct cs_stats *stats)
{
    char line[512];
    size_t n = (size_t)format_unit(line, sizeof line, unit, stats);
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
