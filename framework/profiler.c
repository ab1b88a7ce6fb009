/* profiler.c - a traced search streamed to CP-Profiler over TCP.
 *
 * Each message is a 4-byte little-endian length and a body: a type byte
 * (NODE 0, DONE 1, START 2, RESTART 3), then for NODE the node's and its
 * parent's ids (each node id, restart id, thread id), the alternative, the
 * number of children and a status byte (SOLVED 0, FAILED 1, BRANCH 2,
 * SKIPPED 3), then optional fields, each a tag byte and its value: LABEL 0,
 * NOGOOD 1 and INFO 2 a string, VERSION 3 an integer (START carries the
 * protocol version and the run's JSON info, RESTART its id as JSON).
 * Integers in a body are 4-byte big-endian, strings an integer length and
 * the bytes; so Gecode's connector writes them and CP-Profiler reads them.
 * Node ids are the order nodes are entered in, over all trees; a node is
 * sent when entered, its children counted by the model's values (what the
 * engine will try), so a parent always precedes its children.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "csearch/error.h"
#include "csearch/model.h"
#include "csearch/profiler.h"
#include "trace_impl.h"

enum { MSG_NODE = 0, MSG_DONE = 1, MSG_START = 2, MSG_RESTART = 3 };
enum { ST_SOLVED = 0, ST_FAILED = 1, ST_BRANCH = 2 };
enum { FIELD_LABEL = 0, FIELD_INFO = 2, FIELD_VERSION = 3 };
#define PROTOCOL_VERSION 3

struct cs_profiler {
    int fd;
    bool lost;
    bool restarts;   /* later trees are sent as restarts */
    bool rooted;     /* a root was sent */
    bool one_done;   /* !restarts and a second root came: send no more */
    int32_t restart; /* the current tree's restart id */
    unsigned long long sent;
    int32_t next_id;
    int32_t *ids;  /* ids[d]: the node open at depth d */
    int32_t *alts; /* alts[d]: children of ids[d] sent so far */
    size_t cap;
    unsigned char *buf;
    size_t len, size;
};

static void put(struct cs_profiler *p, const void *bytes, size_t n)
{
    if (p->len + n > p->size) {
        p->size = 2 * (p->len + n) + 64;
        p->buf = cs_xrealloc(p->buf, p->size);
    }
    memcpy(p->buf + p->len, bytes, n);
    p->len += n;
}

static void put_byte(struct cs_profiler *p, int b)
{
    unsigned char c = (unsigned char)b;
    put(p, &c, 1);
}

static void put_int(struct cs_profiler *p, int32_t v)
{
    uint32_t u = (uint32_t)v;
    unsigned char b[4] = {u >> 24, (u >> 16) & 255, (u >> 8) & 255, u & 255};
    put(p, b, 4);
}

static void put_string(struct cs_profiler *p, const char *s)
{
    size_t n = strlen(s);
    put_int(p, (int32_t)n);
    put(p, s, n);
}

/* text as the characters of a JSON string, cut short to fit buf */
static void json_text(const char *text, char *buf, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        char esc[16];
        if (*c == '"' || *c == '\\')
            snprintf(esc, sizeof esc, "\\%c", *c);
        else if (*c < 0x20)
            snprintf(esc, sizeof esc, "\\u%04x", *c);
        else
            snprintf(esc, sizeof esc, "%c", *c);
        size_t len = strlen(esc);
        if (n + len >= size)
            break;
        memcpy(buf + n, esc, len);
        n += len;
    }
    buf[n] = '\0';
}

/* A new message: room for its length, filled in by send_message(). */
static void begin(struct cs_profiler *p, int type)
{
    p->len = 0;
    put(p, "\0\0\0\0", 4);
    put_byte(p, type);
}

/* Send the message; on any failure stop for good (never raise SIGPIPE:
 * a profiler closed mid-run must not end the search). */
static void send_message(struct cs_profiler *p)
{
    if (p->lost)
        return;
    uint32_t body = (uint32_t)(p->len - 4);
    for (int i = 0; i < 4; i++)
        p->buf[i] = (unsigned char)(body >> (8 * i));
    size_t off = 0;
    while (off < p->len) {
        ssize_t n = send(p->fd, p->buf + off, p->len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            p->lost = true;
            return;
        }
        off += (size_t)n;
    }
}

/* Connect fd to a within CS_PROFILER_TIMEOUT seconds (a host that never
 * answers would otherwise hold the run for minutes); 0 or an errno. */
static int connect_within(int fd, const struct addrinfo *a)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK))
        return errno;
    if (connect(fd, a->ai_addr, a->ai_addrlen)) {
        if (errno != EINPROGRESS)
            return errno;
        struct pollfd pfd = {.fd = fd, .events = POLLOUT};
        int n;
        do
            n = poll(&pfd, 1, CS_PROFILER_TIMEOUT * 1000);
        while (n < 0 && errno == EINTR);
        if (n == 0)
            return ETIMEDOUT;
        int why = 0;
        socklen_t len = sizeof why;
        if (n < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &why, &len))
            return errno;
        if (why)
            return why;
    }
    return fcntl(fd, F_SETFL, flags) ? errno : 0;
}

static int dial(const char *where, char *msg, size_t size)
{
    char host[256] = "127.0.0.1";
    const char *port = where;
    const char *colon = strrchr(where, ':');
    if (colon) {
        size_t n = (size_t)(colon - where);
        if (n == 0 || n >= sizeof host) {
            snprintf(msg, size, "'%s' is not [HOST:]PORT", where);
            return -1;
        }
        memcpy(host, where, n);
        host[n] = '\0';
        port = colon + 1;
    }
    char *end;
    long num = strtol(port, &end, 10);
    if (!*port || *end || num < 1 || num > 65535) {
        snprintf(msg, size, "'%s' is not [HOST:]PORT (a port is 1..65535)",
                 where);
        return -1;
    }
    struct addrinfo hints = {0}, *res;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc) {
        snprintf(msg, size, "%s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1, why = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0)
            why = errno;
        else if ((why = connect_within(fd, a))) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(msg, size, "cannot connect to %s:%s: %s", host, port,
                 strerror(why));
        return -1;
    }
    /* a profiler that stops reading must not stall the search for ever */
    struct timeval tv = {.tv_sec = CS_PROFILER_TIMEOUT};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    return fd;
}

struct cs_profiler *cs_profiler_connect(const char *where,
                                        const struct cs_profiler_start *start,
                                        char *msg, size_t size)
{
    int fd = dial(where, msg, size);
    if (fd < 0)
        return NULL;
    struct cs_profiler *p = cs_xcalloc(1, sizeof *p);
    p->fd = fd;
    p->restarts = start->restarts;
    begin(p, MSG_START);
    put_byte(p, FIELD_VERSION);
    put_int(p, PROTOCOL_VERSION);
    put_byte(p, FIELD_INFO);
    char name[400], info[512], id[48] = "";
    json_text(start->name ? start->name : "", name, sizeof name);
    if (start->execution_id >= 0)
        snprintf(id, sizeof id, ", \"execution_id\": %ld", start->execution_id);
    snprintf(info, sizeof info, "{\"name\": \"%s\", \"has_restarts\": %s%s}",
             name, p->restarts ? "true" : "false", id);
    put_string(p, info);
    send_message(p);
    return p;
}

/* A root after the first: a restart, or (none announced) the end of what
 * is sent.  False: send nothing of this tree. */
static bool next_tree(struct cs_profiler *p)
{
    if (!p->restarts) {
        p->one_done = true;
        return false;
    }
    p->restart++;
    char info[64];
    snprintf(info, sizeof info, "{\"restart_id\": %ld}", (long)p->restart);
    begin(p, MSG_RESTART);
    put_byte(p, FIELD_INFO);
    put_string(p, info);
    send_message(p);
    return true;
}

/* How many values the engine will try for var: the model's own count. */
static int32_t kids_of(const struct cs_hooks *h, const void *state, int var)
{
    /* the values depend on the state alone (csearch/model.h), but first
     * may count a check in the model's counters: they are put back, so a
     * streamed run reports the checks of one that is not */
    void *s = (void *)(uintptr_t)state;
    struct cs_counters counted = {0};
    if (h->counters)
        memcpy(&counted, s, sizeof counted);
    uint64_t cursor = 0;
    int value;
    int32_t n = 0;
    if (h->first)
        h->first(s, var, &cursor);
    while (h->next(s, var, &cursor, &value))
        n++;
    if (h->counters)
        memcpy(s, &counted, sizeof counted);
    return n;
}

void cs_profiler_step(void *ud, const struct cs_trace_event *ev,
                      const struct cs_hooks *h, const void *state)
{
    struct cs_profiler *p = ud;
    int status;
    int32_t kids = 0;
    switch (ev->kind) {
    case CS_TRACE_NODE:
        kids = kids_of(h, state, ev->branch);
        status = kids ? ST_BRANCH : ST_FAILED;
        break;
    case CS_TRACE_PRUNED:
    case CS_TRACE_REJECTED:
        status = ST_FAILED;
        break;
    case CS_TRACE_SOLUTION:
        status = ST_SOLVED;
        break;
    default: /* NO_VALUE was sent as a FAILED node; local search: no tree */
        return;
    }
    if (p->lost || p->one_done || ev->depth < 0)
        return;
    size_t d = (size_t)ev->depth;
    if (d == 0 && p->rooted && !next_tree(p))
        return;
    p->rooted = true;
    if (d + 1 >= p->cap) {
        p->cap = 2 * (d + 1) + 16;
        p->ids = cs_xrealloc(p->ids, p->cap * sizeof *p->ids);
        p->alts = cs_xrealloc(p->alts, p->cap * sizeof *p->alts);
    }
    int32_t id = p->next_id++;
    p->ids[d] = id;
    p->alts[d] = 0;
    char label[160];
    trace_move_name(h, state, ev->var, ev->value, label, sizeof label);
    begin(p, MSG_NODE);
    put_int(p, id);
    put_int(p, p->restart);
    put_int(p, 0); /* thread id: a traced search has one */
    put_int(p, d ? p->ids[d - 1] : -1);
    put_int(p, d ? p->restart : -1);
    put_int(p, d ? 0 : -1);
    put_int(p, d ? p->alts[d - 1]++ : -1);
    put_int(p, kids);
    put_byte(p, status);
    put_byte(p, FIELD_LABEL);
    put_string(p, label);
    send_message(p);
    if (!p->lost)
        p->sent++;
}

void cs_profiler_done(struct cs_profiler *p)
{
    if (!p)
        return;
    begin(p, MSG_DONE);
    send_message(p);
}

unsigned long long cs_profiler_sent(const struct cs_profiler *p)
{
    return p ? p->sent : 0;
}

bool cs_profiler_lost(const struct cs_profiler *p)
{
    return p && p->lost;
}

void cs_profiler_free(struct cs_profiler *p)
{
    if (!p)
        return;
    close(p->fd);
    free(p->ids);
    free(p->alts);
    free(p->buf);
    free(p);
}
