/* csearch/error.h - the error record every fallible call fills in.
 *
 * The library never prints and never exits: a function that can fail returns
 * a status (0 = fine) and describes the failure in a caller-supplied
 * struct cs_error.  The CLI turns it into one line on stderr:
 *     csearch: FILE:LINE:COL: message
 * LINE and COL are 1-based; 0 means "no position" and is left out.
 */
#ifndef CSEARCH_ERROR_H
#define CSEARCH_ERROR_H

#include <stddef.h>

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

#if defined(__GNUC__)
#define CS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CS_PRINTF(fmt, args)
#endif

/* A place in a config: the file (or "--set" for command-line overrides) and a
 * 1-based line and column; line 0 means the file as a whole. */
struct cs_pos {
    const char *file; /* borrowed; lives as long as the config */
    int line;
    int col;
};

struct cs_error {
    char file[256];
    int line; /* 1-based, 0 = none */
    int col;  /* 1-based, 0 = none */
    char msg[512];
};

/* Fill err (if not NULL) with a position and a printf-style message; returns
 * -1 so callers can write `return cs_error_at(err, pos, "...")`. */
int cs_error_at(struct cs_error *err, struct cs_pos pos, const char *fmt, ...)
    CS_PRINTF(3, 4);

/* The same without a position (file may be NULL). */
int cs_error_set(struct cs_error *err, const char *file, const char *fmt, ...)
    CS_PRINTF(3, 4);

/* "FILE:LINE:COL: message", "FILE: message" or "message" into buf. */
void cs_error_format(const struct cs_error *err, char *buf, size_t size);

/* The allocation wrapper: never returns NULL; on exhaustion it prints one line
 * and aborts (the only place the library may stop the process). */
void *cs_xmalloc(size_t size);
void *cs_xcalloc(size_t count, size_t size);
void *cs_xrealloc(void *ptr, size_t size);
char *cs_xstrdup(const char *s);

#pragma GCC visibility pop

#endif
