/* profiler_listener.c - a stand-in for CP-Profiler in the tests.
 *
 * Listens on 127.0.0.1 at a free port, prints the port, takes one
 * connection and decodes every message of CP-Profiler's protocol as its
 * receiver does (optional fields by their tags: VERSION an integer, the
 * others strings).  It checks that START comes first with protocol version
 * 3 and DONE last, that a root (parent -1) comes first or right after a
 * RESTART and every other node after its parent, at an alternative below
 * the parent's number of children, in the current restart, and that no id
 * repeats.  Then it prints "nodes N solutions S", "restarts R", "start
 * INFO" (START's JSON) and, with --show M, the first M nodes as "ID PARENT
 * ALT KIDS STATUS LABEL", and exits 0; or it names the first fault and
 * exits 1.  With an argument K it hangs up after K messages (a profiler
 * closed mid-run); K = 0 prints a port that nobody listens on.  Nothing
 * waits for ever: no connection or no byte for 60 s is a fault.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define WAIT_SECONDS 60

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

/* A string field's text, copied into out (cut short to fit). */
static void get_string(struct cursor *c, char *out, size_t size)
{
    int32_t n = get_int(c);
    if (n < 0 || c->end - c->p < n) {
        c->bad = true;
        return;
    }
    size_t k = (size_t)n < size - 1 ? (size_t)n : size - 1;
    memcpy(out, c->p, k);
    out[k] = '\0';
    c->p += n;
}

/* The optional fields: their tag (label 0, nogood 1, info 2: strings;
 * version 3: an integer), as CP-Profiler's receiver reads them. */
struct fields {
    char label[256], info[1024];
    int32_t version; /* -1: none */
};

static void get_fields(struct cursor *c, struct fields *f)
{
    char ignored[256];
    f->label[0] = f->info[0] = '\0';
    f->version = -1;
    while (!c->bad && c->p < c->end) {
        switch (get_byte(c)) {
        case 0:
            get_string(c, f->label, sizeof f->label);
            break;
        case 1:
            get_string(c, ignored, sizeof ignored);
            break;
        case 2:
            get_string(c, f->info, sizeof f->info);
            break;
        case 3:
            f->version = get_int(c);
            break;
        default:
            c->bad = true;
        }
    }
}

/* The nodes seen: whether each id was sent, and its number of children. */
struct table {
    int32_t *kids; /* -1: not sent */
    size_t cap;
};

static void grow(struct table *t, size_t id)
{
    if (id < t->cap)
        return;
    size_t cap = 2 * id + 1024;
    t->kids = realloc(t->kids, cap * sizeof *t->kids);
    if (!t->kids)
        exit(2);
    for (size_t i = t->cap; i < cap; i++)
        t->kids[i] = -1;
    t->cap = cap;
}

static int listen_here(void)
{
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
        getsockname(ls, (struct sockaddr *)&a, &len)) {
        if (ls >= 0)
            close(ls);
        return -1;
    }
    printf("%d\n", ntohs(a.sin_port));
    fflush(stdout);
    return ls;
}

static const char *const status_names[] = {"solved", "failed", "branch",
                                           "skipped"};

int main(int argc, char **argv)
{
    long hang_up = -1, show = 0;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--show") && i + 1 < argc)
            show = atol(argv[++i]);
        else
            hang_up = atol(argv[i]);
    int ls = listen_here();
    if (ls < 0)
        return fail("cannot listen", 0);
    if (hang_up == 0) { /* a port that was free and is closed again */
        close(ls);
        return 0;
    }
    struct pollfd pfd = {.fd = ls, .events = POLLIN};
    if (poll(&pfd, 1, WAIT_SECONDS * 1000) != 1) {
        close(ls);
        return fail("nobody connected", 0);
    }
    int fd = accept(ls, NULL, NULL);
    close(ls);
    if (fd < 0)
        return fail("cannot accept", 0);
    struct timeval tv = {.tv_sec = WAIT_SECONDS};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);

    struct table seen = {0};
    char start[1024] = "";
    char *shown = calloc((size_t)(show > 0 ? show : 1), 320);
    long msgs = 0, nodes = 0, solutions = 0, restarts = 0;
    bool done = false, want_root = true;
    const char *fault = NULL;
    unsigned char head[4];
    while (!fault && read_all(fd, head, 4)) {
        uint32_t n = (uint32_t)head[0] | (uint32_t)head[1] << 8 |
                     (uint32_t)head[2] << 16 | (uint32_t)head[3] << 24;
        unsigned char *body = malloc(n ? n : 1);
        if (!body || !read_all(fd, body, n)) {
            free(body);
            fault = "message cut short";
            break;
        }
        struct cursor c = {body, body + n, false};
        struct fields f;
        int type = get_byte(&c);
        if (done) {
            fault = "a message after DONE";
        } else if ((msgs == 0) != (type == 2)) {
            fault = "START is not (only) the first message";
        } else if (type == 2) {
            get_fields(&c, &f);
            if (f.version != 3)
                fault = "START without protocol version 3";
            snprintf(start, sizeof start, "%s", f.info);
        } else if (type == 0) {
            int32_t id = get_int(&c), rid = get_int(&c);
            get_int(&c);
            int32_t parent = get_int(&c), prid = get_int(&c);
            get_int(&c);
            int32_t alt = get_int(&c), kids = get_int(&c);
            int status = get_byte(&c);
            get_fields(&c, &f);
            if (!c.bad && id >= 0)
                grow(&seen, (size_t)id);
            if (c.bad || id < 0 || status > 3 || kids < 0 || rid != restarts)
                fault = "a malformed node";
            else if (seen.kids[id] >= 0)
                fault = "a node id sent twice";
            else if (want_root ? parent != -1 || alt != -1
                               : parent < 0 || prid != restarts ||
                                     (size_t)parent >= seen.cap ||
                                     seen.kids[parent] < 0 || alt < 0 ||
                                     alt >= seen.kids[parent])
                fault = "a root out of place, or a node before its parent";
            if (fault)
                break;
            seen.kids[id] = kids;
            if (nodes < show)
                snprintf(shown + 320 * nodes, 320, "%d %d %d %d %s %s", id,
                         parent, alt, kids, status_names[status], f.label);
            want_root = false;
            nodes++;
            solutions += status == 0;
        } else if (type == 1) {
            done = true;
        } else if (type == 3) {
            get_fields(&c, &f);
            restarts++;
            want_root = true;
        } else {
            fault = "an unknown message type";
        }
        if (!fault && (c.bad || c.p != c.end))
            fault = "a message of the wrong length";
        free(body);
        if (!fault && ++msgs == hang_up) {
            free(seen.kids);
            free(shown);
            close(fd);
            return 0;
        }
    }
    if (!fault && !done)
        fault = "no DONE at the end";
    if (!fault) {
        printf("nodes %ld solutions %ld\nrestarts %ld\nstart %s\n", nodes,
               solutions, restarts, start);
        for (long i = 0; i < show && i < nodes; i++)
            printf("%s\n", shown + 320 * i);
    }
    free(seen.kids);
    free(shown);
    close(fd);
    return fault ? fail(fault, msgs) : 0;
}
