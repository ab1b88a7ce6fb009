/* cli.h - what the files of the csearch command share.
 *
 * main.c reads the command line (one table of options) and hands the config
 * to run.c (a search, a batch, a merge) or to compare (many runs,
 * framework/compare/).
 * run.c alone turns a job into a search (cli_search); the result writers
 * (framework/output/) and compare print the struct cs_result it comes out
 * with.
 */
#ifndef CSEARCH_CLI_H
#define CSEARCH_CLI_H

#include <signal.h>
#include <stdio.h>

#include "csearch/batch.h"
#include "csearch/profiler.h"
#include "csearch/trace.h"

/* ---- keys.c ------------------------------------------------------------- */

/* The keys the CLI reads itself (output.*, compare): the options of its
 * every cs_job_setup. */
extern const struct cs_option *const cli_options[];

/* The csearch command's exit statuses (docs/config.md, "Exit status"). */
enum cli_exit {
    CLI_EXIT_DONE = 0,
    CLI_EXIT_NO_SOLUTION = 1, /* solve or optimize found none */
    CLI_EXIT_USAGE = 2,       /* bad input: a flag, a key, a file */
    CLI_EXIT_LIMIT = 3,       /* a limit stopped the run first */
    CLI_EXIT_INTERNAL = 70,
    CLI_EXIT_INTERRUPTED = 130, /* Ctrl-C (or SIGTERM under mpirun) */
    CLI_EXIT_TERMINATED = 143   /* SIGTERM */
};

/* ---- fail.c ------------------------------------------------------------- */

/* err as one line on stderr, remembered for the other MPI ranks; returns
 * CLI_EXIT_USAGE. */
int cli_fail(const struct cs_error *err);
/* A mistake on the command line: "csearch: MESSAGE; try 'csearch --help'"
 * on stderr, remembered as a usage error; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) CS_PRINTF(1, 2);
/* The error this process ends with, or NULL. */
const struct cs_error *cli_failure(void);

/* ---- list.c ------------------------------------------------------------- */

/* csearch --list (markdown: the tables of docs/keys.md); the exit status. */
int cli_list(const struct cs_registry *reg, bool markdown);

/* ---- run.c -------------------------------------------------------------- */

/* Set by Ctrl-C or SIGTERM once cli_catch_sigint() ran (or by rank 0 when
 * another rank was interrupted); cli_signalled: a signal reached this
 * process.  cli_interrupted_status(): the exit status of an interrupted
 * run, 143 after a SIGTERM (but under mpirun), else 130. */
extern volatile sig_atomic_t cli_interrupted, cli_signalled;
void cli_catch_sigint(void);
int cli_interrupted_status(void);

struct out; /* output.h, the result writers */

/* What a search needs besides its job; zero means none. */
struct search_opts {
    struct out *out;              /* prints the boards */
    struct cs_tracer *tracer;     /* follows every step */
    struct cs_level *profile;     /* the per-level counts to fill, or NULL */
    struct cs_profiler *profiler; /* streams the tree; NULL: none */
    const char *checkpoint;       /* --checkpoint or --resume FILE */
    bool resume;
    uint64_t slice[4];   /* --units: first, end, part, parts */
    bool progress;       /* a progress line on stderr */
    bool progress_lines; /* a line per report (stderr is no terminal)
                            instead of one redrawn in place */
    bool quiet;          /* --quiet: the result lines alone */
};

/* Search job once (polling cli_interrupted); the result even on failure. */
int cli_search(const struct cs_job *job, const struct search_opts *o,
               struct cs_result *r, struct cs_error *err);

/* csearch CONFIG: the config's search or batch, printed; or with logs,
 * csearch merge: their total as a run of cfg prints it.  The exit status. */
int cli_run(struct cs_config *cfg, const struct cs_registry *reg,
            struct search_opts *o, const char *const *logs, int nlogs);

/* ---- traces.c: --trace, --trace-html, --tree ---------------------------- */

struct traces {
    struct cs_tracer *tracer;     /* NULL: the config asks for no trace */
    struct cs_profiler *profiler; /* --profiler: NULL: none */
    const struct cs_config *cfg;
    FILE *html, *dot;
    bool local; /* a local search: frames are starts and steps */
    char title[256];
    /* output.profile: the run's per-level counts (levels of them, the
     * search fills them in; the caller frees them, after the results are
     * printed); NULL: no profile */
    struct cs_level *profile;
    int levels;
};

/* Whether cfg (checked or not) asks for a trace, or (cli_profiled) for a
 * per-level profile: the model is told (struct cs_setup). */
bool cli_traced(const struct cs_config *cfg);
bool cli_profiled(const struct cs_config *cfg);

/* Before the search: check the config, open the files, make the tracer.
 * -1 with err at the offending key. */
int traces_open(struct traces *tr, const struct cs_job *job,
                const struct cs_config *cfg, struct cs_error *err);
/* After the search: tell the profiler it is done (one warning if it went
 * away mid-run), write the page and the tree; -1 if a write failed (the
 * message is on stderr already). */
int traces_end(struct traces *tr);
/* Close the files; remove_files: the search never ran, leave none behind. */
void traces_close(struct traces *tr, bool remove_files);

#endif
