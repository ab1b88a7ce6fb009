/* output_columns.c - solutions one value per line (output.format columns),
 * where results go (output.file, and the files of other outputs), and which
 * boards are too large to draw.
 *
 * A board of a billion queens is a billion lines: they are formatted by
 * hand into a buffer of BUF bytes and written with fwrite, never through
 * the model's emit hook (which would copy each line into a cs_board).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csearch/file.h"
#include "output_impl.h"

#define BUF (1u << 20)

/* Can f take bytes?  Asked before the search, so that a full disk or
 * /dev/full is a config error and not a failure after the results: a
 * regular file takes a byte and is cut back to empty, a device (not a
 * terminal) takes a byte; a pipe or a terminal is not tried.  errno says
 * why not. */
static bool writable(FILE *f)
{
    struct stat st;
    int fd = fileno(f);
    if (fstat(fd, &st) || S_ISFIFO(st.st_mode) || isatty(fd))
        return true;
    if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode))
        return true;
    if (fputc('\n', f) == EOF || fflush(f))
        return false;
    if (S_ISREG(st.st_mode) && (ftruncate(fd, 0) || fseek(f, 0, SEEK_SET)))
        return false;
    return true;
}

int out_file_open(FILE **f, const char *path, struct cs_pos pos, bool try,
                  struct cs_error *err)
{
    *f = NULL;
    if (!path)
        return 0;
    if (cs_file_is_input(path)) /* before fopen truncates it */
        return cs_error_at(
            err, pos, "cannot write '%s': it is an input of this run", path);
    /* O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of
     * holding the open forever; the writes then block as usual */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0666);
    if (fd < 0 && errno == ENXIO)
        return cs_error_at(err, pos,
                           "cannot write '%s': a FIFO that nobody reads", path);
    if (fd >= 0 && (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) ||
                    !(*f = fdopen(fd, "w")))) {
        int e = errno;
        close(fd);
        errno = e;
    }
    if (!*f || (try && !writable(*f)))
        return cs_error_at(err, pos, "cannot write '%s': %s", path,
                           strerror(errno));
    return 0;
}

int out_open(struct out *o, struct cs_error *err)
{
    const struct cs_problem *p = &o->job->problem;
    const char *file = cs_config_str(o->cfg, "output.file");
    o->sol = o->out;
    bool shows =
        o->job->task == CS_TASK_SOLVE || o->job->task == CS_TASK_ENUMERATE;
    if (o->format == CS_FORMAT_COLUMNS && shows && !p->hooks->value &&
        !p->setup_instance)
        return cs_error_at(err, cs_config_pos(o->cfg, "output.format"),
                           "model %s cannot write columns with these "
                           "settings (its search keeps no value per "
                           "variable)",
                           o->job->model->name);
    if (o->format == CS_FORMAT_HTML &&
        (!shows && o->job->task != CS_TASK_OPTIMIZE))
        return cs_error_at(err, cs_config_pos(o->cfg, "output.format"),
                           "output.format html is a page of a solution: it "
                           "needs task solve, enumerate or optimize");
    /* csv and html draw the board or nothing: a board too large to draw
     * would leave an empty table or a page without it after the search */
    if ((o->format == CS_FORMAT_CSV || o->format == CS_FORMAT_HTML) && shows &&
        !p->setup_instance && out_board_too_large(o, p->hooks))
        return cs_error_at(err, cs_config_pos(o->cfg, "output.format"),
                           "output.format %s cannot draw a board of %d rows "
                           "(at most %d); output.format: columns writes it",
                           o->format == CS_FORMAT_CSV ? "csv" : "html",
                           p->nvars, OUT_BOARD_MAX);
    if (o->format == CS_FORMAT_HTML && p->setup_instance)
        return cs_error_at(err, cs_config_pos(o->cfg, "output.format"),
                           "output.format html is a page of a solution, not "
                           "of a batch: use text, json or csv");
    if (!file)
        return 0;
    if (o->format == CS_FORMAT_JSON)
        return cs_error_at(err, cs_config_pos(o->cfg, "output.file"),
                           "output.file takes the solutions of format text, "
                           "csv, columns or html; JSON keeps them in its "
                           "object");
    struct cs_pos pos = cs_config_pos(o->cfg, "output.file");
    const char *input = NULL;
    for (int i = 0; i < o->ninputs && !input; i++)
        if (out_same_file(file, o->inputs[i]))
            input = o->inputs[i];
    if (!input && !out_file_open(&o->sol, file, pos, true, err)) {
        /* a log not yet there when looked at is the file just made */
        for (int i = 0; i < o->ninputs && !input; i++)
            if (out_same_file(file, o->inputs[i]))
                input = o->inputs[i];
        if (!input)
            return 0;
        fclose(o->sol);
        remove(file); /* empty: it was not there before */
    } else if (o->sol && o->sol != o->out) {
        fclose(o->sol); /* the byte tried failed */
    }
    o->sol = o->out;
    if (input)
        return cs_error_at(err, pos,
                           "cannot write '%s': it is an input of this run "
                           "('%s')",
                           file, input);
    return -1;
}

bool out_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int out_close(struct out *o)
{
    int rc = 0;
    if (o->sol && o->sol != o->out) {
        /* the reason of a failed write is errno's as the last buffer goes
         * out (a disk that filled during the search stays full) */
        int why = fflush(o->sol) ? errno : 0;
        rc = ferror(o->sol) | fclose(o->sol) | why;
        if (!why)
            why = rc ? errno : 0;
        if (rc)
            fprintf(stderr, "csearch: writing '%s' failed%s%s\n",
                    cs_config_str(o->cfg, "output.file"), why ? ": " : "",
                    why ? strerror(why) : "");
    }
    o->sol = o->out;
    return rc ? -1 : 0;
}

bool out_board_too_large(const struct out *o, const struct cs_hooks *hooks)
{
    return o->format != CS_FORMAT_COLUMNS && hooks->value &&
           o->job->problem.nvars > OUT_BOARD_MAX;
}

/* v + 1 and a newline at p; returns the end. */
static char *put_line(char *p, unsigned v)
{
    char digits[12];
    int k = 0;
    do
        digits[k++] = (char)('0' + v % 10);
    while (v /= 10);
    while (k)
        *p++ = digits[--k];
    *p++ = '\n';
    return p;
}

void out_columns(struct out *o, const struct cs_hooks *hooks, const void *state)
{
    static char buf[BUF];
    char *p = buf;
    int n = o->job->problem.nvars;
    if (o->shown)
        *p++ = '\n'; /* a blank line between solutions */
    for (int v = 0; v < n; v++) {
        if (p > buf + BUF - 16) {
            fwrite(buf, 1, (size_t)(p - buf), o->sol);
            p = buf;
        }
        p = put_line(p, (unsigned)hooks->value(state, v) + 1u);
    }
    fwrite(buf, 1, (size_t)(p - buf), o->sol);
    o->shown++;
}
