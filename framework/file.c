/* file.c - cs_file_read(): a whole input, refused when it has no end.
 *
 * The type is decided by stat before the file is opened (and checked again
 * by fstat on what was opened), so /dev/zero or a directory never hangs or
 * fills the memory.  A file is opened with O_NONBLOCK, so a FIFO (or one
 * swapped in after the stat) never holds the open; a FIFO allowed as a
 * stream waits WRITER_MS for its first writer, and is then read to the end
 * of what its writers write, cut off at the cap.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csearch/error.h"
#include "csearch/config.h"
#include "csearch/file.h"

/* The regular files read so far, by device and inode: the inputs an output
 * must not overwrite (cs_file_is_input).  Batches read on several threads. */
static struct {
    pthread_mutex_t lock;
    struct input {
        dev_t dev;
        ino_t ino;
    } * files;
    size_t count, cap;
} inputs = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void note_input(const struct stat *st)
{
    pthread_mutex_lock(&inputs.lock);
    bool known = false;
    for (size_t i = 0; i < inputs.count && !known; i++)
        known = inputs.files[i].dev == st->st_dev &&
                inputs.files[i].ino == st->st_ino;
    if (!known && inputs.count == inputs.cap) {
        inputs.cap = inputs.cap ? 2 * inputs.cap : 8;
        inputs.files =
            cs_xrealloc(inputs.files, inputs.cap * sizeof *inputs.files);
    }
    if (!known)
        inputs.files[inputs.count++] = (struct input){st->st_dev, st->st_ino};
    pthread_mutex_unlock(&inputs.lock);
}

bool cs_file_is_input(const char *path)
{
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return false;
    pthread_mutex_lock(&inputs.lock);
    bool known = false;
    for (size_t i = 0; i < inputs.count && !known; i++)
        known = inputs.files[i].dev == st.st_dev &&
                inputs.files[i].ino == st.st_ino;
    pthread_mutex_unlock(&inputs.lock);
    return known;
}

static int fail(struct cs_file *f, int status, int errnum, const char *why)
{
    f->errnum = errnum;
    snprintf(f->why, sizeof f->why, "%s", why ? why : strerror(errnum));
    return status;
}

/* The type of a file by its stat: 0 to read on, or a refusal in f. */
static int look(const struct stat *st, int flags, struct cs_file *f, bool *fifo)
{
    *fifo = S_ISFIFO(st->st_mode);
    if (S_ISDIR(st->st_mode))
        return fail(f, CS_FILE_CANNOT_READ, EISDIR, NULL);
    if (*fifo && (flags & CS_FILE_STREAM))
        return 0;
    if (!S_ISREG(st->st_mode))
        return fail(f, CS_FILE_CANNOT_READ, 0,
                    flags & CS_FILE_STREAM ? "not a regular file or a pipe"
                                           : "not a regular file");
    f->size = (uint64_t)st->st_size;
    return 0;
}

/* How long a FIFO waits for its first writer or bytes: a writer that
 * starts with csearch (a shell's `printf ... > fifo &`) is in time. */
#define WRITER_MS 1000

/* Has the FIFO at fd a writer (or bytes) within WRITER_MS?  Until a writer
 * has come, poll reports neither POLLIN nor POLLHUP. */
static bool has_writer(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int rc;
    while ((rc = poll(&p, 1, WRITER_MS)) < 0 && errno == EINTR)
        ;
    return rc > 0;
}

static int too_large(struct cs_file *f, size_t max)
{
    char why[64];
    snprintf(why, sizeof why, "larger than %zu MiB", max >> 20);
    return fail(f, CS_FILE_CANNOT_READ, 0, why);
}

/* A buffer for a file of n bytes.  A large one (a batch of puzzles, MBs)
 * is aligned to huge pages and asks for them: read() faulting a 4 KB page
 * at a time cost more than the copy (4 MB of Sudokus: 7 ms, a twentieth
 * of their search; in a virtual machine a fault is dear).  free() takes
 * either. */
static char *file_buffer(size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    void *p;
    const size_t whole = (n + huge - 1) & ~(huge - 1);
    if (n >= huge && !posix_memalign(&p, huge, whole)) {
        madvise(p, whole, MADV_HUGEPAGE);
        return p;
    }
#endif
    return cs_xmalloc(n);
}

/* fd to its end, at most max bytes. */
static int slurp(int fd, size_t max, struct cs_file *f)
{
    if (f->size > max)
        return too_large(f, max);
    size_t cap = f->size && f->size < max ? (size_t)f->size + 1 : 4096;
    char *buf = file_buffer(cap + 1);
    size_t len = 0;
    for (;;) {
        if (len == cap) {
            if (cap > max) {
                free(buf);
                return too_large(f, max);
            }
            cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            buf = cs_xrealloc(buf, cap + 1);
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            return fail(f, CS_FILE_CANNOT_READ, e, NULL);
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    if (len > max) {
        free(buf);
        return too_large(f, max);
    }
    buf[len] = '\0';
    f->text = buf;
    f->len = len;
    return CS_FILE_OK;
}

int cs_file_read(const char *path, size_t max, int flags, struct cs_file *f)
{
    static bool stdin_read; /* a stream is read once */
    memset(f, 0, sizeof *f);
    bool stdin_ = (flags & CS_FILE_STREAM) && !strcmp(path, "-");
    if (stdin_ && stdin_read)
        return fail(f, CS_FILE_CANNOT_READ, 0,
                    "standard input was read already");
    stdin_read |= stdin_ && !(flags & CS_FILE_PROBE);
    struct stat st;
    bool fifo = false;
    int fd = STDIN_FILENO;
    /* the path's type first: opening a FIFO or a device may block */
    if (!stdin_) {
        if (stat(path, &st))
            return fail(f, CS_FILE_CANNOT_OPEN, errno, NULL);
        int rc = look(&st, flags, f, &fifo);
        if (rc)
            return rc;
        if ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0)
            return fail(f, CS_FILE_CANNOT_OPEN, errno, NULL);
    }
    /* and what was opened, in case the path changed in between; standard
     * input may also be a terminal (typed, ended by Ctrl-D) */
    int rc = fstat(fd, &st)         ? fail(f, CS_FILE_CANNOT_READ, errno, NULL)
             : stdin_ && isatty(fd) ? 0
                                    : look(&st, flags, f, &fifo);
    if (!rc && !stdin_ && fifo && !(flags & CS_FILE_PROBE) && !has_writer(fd))
        rc = fail(f, CS_FILE_CANNOT_READ, 0, "a FIFO that nobody writes to");
    /* what was opened is what it should be: reads may wait from now on */
    if (!rc && !stdin_ &&
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
        rc = fail(f, CS_FILE_CANNOT_READ, errno, NULL);
    if (!rc && !(flags & CS_FILE_PROBE))
        rc = slurp(fd, max, f);
    if (!rc && S_ISREG(st.st_mode))
        note_input(&st);
    if (!stdin_)
        close(fd);
    return rc;
}

const char *cs_file_name(const char *path)
{
    return strcmp(path, "-") ? path : CS_STDIN_NAME;
}
