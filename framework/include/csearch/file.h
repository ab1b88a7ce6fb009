/* csearch/file.h - reading a whole input file, bounded.
 *
 * Every reader of the framework and its models (configs, checkpoints and
 * logs, puzzle files, benchmark instances, rosters) goes through
 * cs_file_read(): it refuses what has no end (a device such as /dev/zero, a
 * directory), takes a pipe only where a stream is meant, and caps the size.
 */
#ifndef CSEARCH_FILE_H
#define CSEARCH_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

enum cs_file_flags {
    CS_FILE_STREAM = 1, /* a pipe (FIFO) is fine, and "-" is standard input */
    CS_FILE_PROBE = 2   /* only look and open: fill size, read nothing */
};

/* cs_file_read()'s answer.  On failure why is the reason, fit for a
 * reader's "cannot open: WHY" or "cannot read: WHY" message:
 *   <strerror>             (open failed; errnum says why, ENOENT: absent)
 *   Is a directory
 *   not a regular file     (a device, a socket; a pipe without
 *                           CS_FILE_STREAM: "not a regular file or a pipe"
 *                           with it)
 *   larger than N MiB      (N = max in MiB, rounded down)
 *   a FIFO that nobody writes to       (none came within a second)
 *   standard input was read already    (a second "-" in one process)
 *   <strerror>             (a read failed) */
struct cs_file {
    char *text;    /* the bytes read and a NUL (free() it); NULL on failure */
    size_t len;    /* bytes before that NUL */
    uint64_t size; /* a regular file's size by fstat, 0 for a stream */
    int errnum;    /* the errno of a failed open or read, else 0 */
    char why[64];
};

/* Status of cs_file_read(). */
enum cs_file_status {
    CS_FILE_OK = 0,
    CS_FILE_CANNOT_OPEN,
    CS_FILE_CANNOT_READ
};

/* Read path whole (at most max bytes) into f; flags from cs_file_flags.
 * Returns CS_FILE_OK, or CS_FILE_CANNOT_OPEN / CS_FILE_CANNOT_READ with
 * f->why set and f->text NULL.  The type is looked at (stat) before the
 * file is opened, and the open never waits: a FIFO is read only with
 * CS_FILE_STREAM, to the end of what its writers write, and refused ("a
 * FIFO that nobody writes to") when no writer comes within a second. */
int cs_file_read(const char *path, size_t max, int flags, struct cs_file *f);

/* Whether path is a regular file that cs_file_read() read (or probed) in
 * this process, the same file by device and inode whatever the name: an
 * output opened there would overwrite an input of the run. */
bool cs_file_is_input(const char *path);

/* path as messages name it: "<stdin>" (CS_STDIN_NAME, csearch/config.h)
 * for "-", which cs_file_read() takes as standard input; else path. */
const char *cs_file_name(const char *path);

#pragma GCC visibility pop

#endif
