/* file.c - cs_file_read(): a whole input, refused when it has no end.
 *
 * The type is decided by stat before the file is opened (and checked again
 * by fstat on what was opened), so /dev/zero, a directory or a FIFO nobody
 * writes to never hangs or fills the memory; a stream that is allowed is
 * still cut off at the cap while it is read.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csearch/error.h"
#include "csearch/config.h"
#include "csearch/file.h"

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

static int too_large(struct cs_file *f, size_t max)
{
    char why[64];
    snprintf(why, sizeof why, "larger than %zu MiB", max >> 20);
    return fail(f, CS_FILE_CANNOT_READ, 0, why);
}

/* fd to its end, at most max bytes. */
static int slurp(int fd, size_t max, struct cs_file *f)
{
    if (f->size > max)
        return too_large(f, max);
    size_t cap = f->size && f->size < max ? (size_t)f->size + 1 : 4096;
    char *buf = cs_xmalloc(cap + 1);
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
        if ((fd = open(path, O_RDONLY)) < 0)
            return fail(f, CS_FILE_CANNOT_OPEN, errno, NULL);
    }
    /* and what was opened, in case the path changed in between; standard
     * input may also be a terminal (typed, ended by Ctrl-D) */
    int rc = fstat(fd, &st)         ? fail(f, CS_FILE_CANNOT_READ, errno, NULL)
             : stdin_ && isatty(fd) ? 0
                                    : look(&st, flags, f, &fifo);
    if (!rc && !(flags & CS_FILE_PROBE))
        rc = slurp(fd, max, f);
    if (!stdin_)
        close(fd);
    return rc;
}

const char *cs_file_name(const char *path)
{
    return strcmp(path, "-") ? path : CS_STDIN_NAME;
}
