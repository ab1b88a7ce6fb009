/* error.c - filling struct cs_error, and the one allocation wrapper.
 *
 * Errors are records, not prints: the library describes a failure and the
 * caller decides how to show it.  Allocation failure is the one exception:
 * there is nothing sensible to return, so we say so and abort.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/error.h"

static void set_file(struct cs_error *err, const char *file)
{
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
}

int cs_error_at(struct cs_error *err, struct cs_pos pos, const char *fmt, ...)
{
    if (!err)
        return -1;
    set_file(err, pos.file);
    err->line = pos.line;
    err->col = pos.col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int cs_error_set(struct cs_error *err, const char *file, const char *fmt, ...)
{
    if (!err)
        return -1;
    set_file(err, file);
    err->line = 0;
    err->col = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

void cs_error_format(const struct cs_error *err, char *buf, size_t size)
{
    if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%d:%d: %s", err->file, err->line, err->col,
                 err->msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, err->msg);
    else
        snprintf(buf, size, "%s", err->msg);
}

static void *checked(void *p)
{
    if (!p) {
        fputs("csearch: out of memory\n", stderr);
        abort();
    }
    return p;
}

void *cs_xmalloc(size_t size)
{
    return checked(malloc(size ? size : 1));
}

void *cs_xcalloc(size_t count, size_t size)
{
    return checked(calloc(count ? count : 1, size ? size : 1));
}

void *cs_xrealloc(void *ptr, size_t size)
{
    return checked(realloc(ptr, size ? size : 1));
}

char *cs_xstrdup(const char *s)
{
    size_t len = strlen(s) + 1;
    return memcpy(cs_xmalloc(len), s, len);
}
