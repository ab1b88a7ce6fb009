/* profiler_listener.c - a stand-in for CP-Profiler in the tests.
 *
 * Listens on 127.0.0.1 at a free port, prints the port, takes one
 * connection and decodes every message of CP-Profiler's protocol.  It
 * checks that START comes first and DONE last, that each node's parent was
 * sent before it (the root has none) and that no id repeats, then prints
 * "nodes N solutions S" and exits 0, or names the first fault and exits 1.
 * With an argument K it hangs up after K messages (a profiler closed mid-run).
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fail(const char *why, long at)
{
    fprintf(stderr, "profiler_listener: message %ld: %s\n", at, why);
    return 1;
}

static bool read_all(int fd, unsigned char *buf, size_t n)
{
    size_t off = 0;
    while (off < n) {
        ssize_t got = read(fd, buf + off, n - off);
        if (got <= 0)
            return false;
        off += (size_t)got;
    }
    return true;
}

struct cursor {
    const unsigned char *p, *end;
    bool bad;
};

static int32_t get_int(struct cursor *c)
{
    if (c->end - c->p < 4) {
        c->bad = true;
        return 0;
    }
    uint32_t u = (uint32_t)c->p[0] << 24 | (uint32_t)c->p[1] << 16 |
                 (uint32_t)c->p[2] << 8 | c->p[3];
    c->p += 4;
    return (int32_t)u;
}

static int get_byte(struct cursor *c)
{
    if (c->p >= c->end) {
        c->bad = true;
        return 0;
    }
    return *c->p++;
}

static void skip_string(struct cursor *c)
{
    int32_t n = get_int(c);
    if (n < 0 || c->end - c->p < n)
        c->bad = true;
    else
        c->p += n;
}

/* Optional fields: a tag (label 0, nogood 1, info 2) and a string each. */
static void skip_fields(struct cursor *c)
{
    while (!c->bad && c->p < c->end) {
        if (get_byte(c) > 3)
            c->bad = true;
        skip_string(c);
    }
}

int main(int argc, char **argv)
{
    long hang_up = argc > 1 ? atol(argv[1]) : -1;
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
        getsockname(ls, (struct sockaddr *)&a, &len))
        return fail("cannot listen", 0);
    printf("%d\n", ntohs(a.sin_port));
    fflush(stdout);
    if (hang_up == 0) /* a port that was free and is closed again */
        return 0;
    int fd = accept(ls, NULL, NULL);
    if (fd < 0)
        return fail("cannot accept", 0);

    size_t cap = 1024;
    unsigned char *seen = calloc(cap, 1); /* seen[id]: node id was sent */
    long msgs = 0, nodes = 0, solutions = 0;
    bool done = false;
    unsigned char head[4];
    while (read_all(fd, head, 4)) {
        uint32_t n = (uint32_t)head[0] | (uint32_t)head[1] << 8 |
                     (uint32_t)head[2] << 16 | (uint32_t)head[3] << 24;
        unsigned char *body = malloc(n ? n : 1);
        if (!body || !read_all(fd, body, n))
            return fail("message cut short", msgs);
        struct cursor c = {body, body + n, false};
        int type = get_byte(&c);
        if (done)
            return fail("a message after DONE", msgs);
        if ((msgs == 0) != (type == 2))
            return fail("START is not (only) the first message", msgs);
        if (type == 2) { /* START: version, then fields */
            if (get_int(&c) != 3)
                return fail("not protocol version 3", msgs);
            skip_fields(&c);
        } else if (type == 0) { /* NODE */
            int32_t id = get_int(&c);
            get_int(&c), get_int(&c);
            int32_t parent = get_int(&c);
            get_int(&c), get_int(&c);
            int32_t alt = get_int(&c), kids = get_int(&c);
            int status = get_byte(&c);
            skip_fields(&c);
            if (c.bad || id < 0 || status > 3 || kids < 0)
                return fail("a malformed node", msgs);
            if ((size_t)id >= cap) {
                seen = realloc(seen, 2 * (size_t)id + 1);
                memset(seen + cap, 0, 2 * (size_t)id + 1 - cap);
                cap = 2 * (size_t)id + 1;
            }
            if (seen[id])
                return fail("a node id sent twice", msgs);
            if (nodes == 0 ? parent != -1 || alt != -1
                           : parent < 0 || (size_t)parent >= cap ||
                                 !seen[parent] || alt < 0)
                return fail("a node before its parent", msgs);
            seen[id] = 1;
            nodes++;
            solutions += status == 0;
        } else if (type == 1) {
            done = true;
        } else if (type != 3) {
            return fail("an unknown message type", msgs);
        }
        if (c.bad || c.p != c.end)
            return fail("a message of the wrong length", msgs);
        free(body);
        if (++msgs == hang_up) {
            free(seen);
            close(fd);
            close(ls);
            return 0;
        }
    }
    if (!done)
        return fail("no DONE at the end", msgs);
    printf("nodes %ld solutions %ld\n", nodes, solutions);
    free(seen);
    close(fd);
    close(ls);
    return 0;
}
