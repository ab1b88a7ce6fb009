/* cli.h - what the files of the csearch command share.
 *
 * main.c reads the command line (one table of options) and hands the config
 * to run.c (a search, a batch, a merge) or to compare_plan.c (many).
 * run.c alone turns a job into a search (cli_search); output.c and compare
 * print the struct cs_result it comes out with.
 */
#ifndef CSEARCH_CLI_H
#define CSEARCH_CLI_H

#include <signal.h>
#include <stdio.h>

#include "csearch/batch.h"
#include "csearch/trace.h"

/* ---- main.c ------------------------------------------------------------- */

/* The keys the CLI reads itself (output.*, compare): the options of its
 * every cs_job_setup. */
extern const struct cs_option *const cli_options[];

/* The values of output.format, in the order of its choices. */
enum cs_format {
    CS_FORMAT_TEXT,
    CS_FORMAT_JSON,
    CS_FORMAT_CSV,
    CS_FORMAT_COLUMNS,
    CS_FORMAT_HTML
};

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

/* err as one line on stderr, remembered for the other MPI ranks; returns
 * CLI_EXIT_USAGE. */
int cli_fail(const struct cs_error *err);

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

/* What a search needs besides its job; zero means none. */
struct search_opts {
    struct out *out;          /* prints the boards */
    struct cs_tracer *tracer; /* follows every step */
    const char *checkpoint;   /* --checkpoint or --resume FILE */
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

/* ---- compare_plan.c ----------------------------------------------------- */

/* csearch compare: cfg is the config read from path with the overrides
 * sets applied; each run reads path again and applies sets, its strategy's
 * keys, then n.  -1 with err (at the offending key, nothing printed) when
 * the comparison cannot start, else the exit status: 0 all complete, 3 a
 * run stopped by a limit, 130 interrupted (143 by SIGTERM). */
int compare_run(struct cs_config *cfg, const char *path,
                const char *const *sets, int nsets,
                const struct cs_registry *reg, struct cs_error *err);

/* ---- output.c ----------------------------------------------------------- */

struct out {
    FILE *out;
    FILE *sol;         /* the solutions: out, or output.file */
    bool board_hidden; /* a board too large to draw was left out */
    const struct cs_job *job;
    const struct cs_config *cfg;
    enum cs_format format; /* output.format */
    int64_t show;          /* output.show: boards to print, -1 = all */
    bool stats;            /* output.stats (off with --quiet) */
    bool quiet;            /* --quiet: no status line either */
    struct cs_board board; /* reused for every solution */
    uint64_t shown;
    bool head_done; /* the JSON object's head is out */
    /* optimize: a copy of the best solution's state, drawn at the end (each
     * new best is copied, not drawn: drawing a year's roster costs more
     * than the moves that improve it), and the hooks that draw it */
    void *best;
    const struct cs_hooks *best_hooks;
    bool drawn; /* optimize, a model with fini: board holds the best */
    struct batch_summary *batch; /* a batch's counts so far */
};

/* Printing job's results on stdout as cfg asks; out_free after. */
void out_init(struct out *o, const struct cs_job *job,
              const struct cs_config *cfg);
void out_free(struct out *o);

/* The engine's on_solution: prints up to output.show boards. */
bool out_solution(void *ud, const struct cs_hooks *hooks, const void *state,
                  uint64_t weight);
/* After the search: results and statistics. */
void out_end(struct out *o, const struct cs_result *r);
/* The head of the JSON object (model, task, params, strategy, limits, the
 * opening of the boards' list), once; nothing for text. */
void out_head(struct out *o);
/* output_estimate.c: task estimate's result. */
void out_estimate_end(struct out *o, const struct cs_result *r);

/* A batch: one line (or JSON element) per instance, in input order, then
 * the summary. */
struct batch_summary {
    uint64_t instances, solved, unique, multiple, none, invalid, limited;
    uint64_t nodes;
    double seconds;
    bool stopped;
};
void out_batch_result(struct out *o, const struct cs_batch_result *r,
                      struct batch_summary *sum);
void out_batch_end(struct out *o, const struct batch_summary *sum);

/* ---- columns.c: output.format columns and output.file ------------------ */

/* Boards of Q and . rows are drawn for at most this many rows. */
#define CLI_BOARD_MAX 64

/* After out_init: check the format against the model, open output.file.
 * -1 with err at the offending key. */
int out_open(struct out *o, struct cs_error *err);
/* Close output.file; -1 (said on stderr) if writing it failed. */
int out_close(struct out *o);
/* Would the model's board of this problem be too large to draw? */
bool out_board_too_large(const struct out *o, const struct cs_hooks *hooks);
/* One solution as a line per variable, its value from 1, to o->sol. */
void out_columns(struct out *o, const struct cs_hooks *hooks,
                 const void *state);

/* s as a JSON string, quoted and escaped. */
void out_json_string(FILE *out, const char *s);

/* ---- output_csv.c: output.format csv ------------------------------------ */

/* o->board as a row (the header before the first); the end of a count (a
 * header and its row); an instance of a batch (rows: those printed). */
/* s as one CSV field (RFC 4180): as it is, or in double quotes with quotes
 * doubled when it holds a comma, a quote or a line break. */
void out_csv_field(FILE *out, const char *s);
void out_csv_board(struct out *o);
void out_csv_end(struct out *o, const struct cs_result *r);
void out_csv_batch_result(struct out *o, const struct cs_batch_result *r,
                          const char *outcome, uint64_t rows);

/* ---- output_html.c: output.format html ---------------------------------- */

/* One page, of the first board shown: the model's own (board.page) as it
 * wrote it, or the board's lines in a page of the CLI's.  At the end, a
 * run that showed no board writes a page that says why. */
void out_html_board(struct out *o);
void out_html_end(struct out *o, const struct cs_result *r);

/* ---- traces.c: --trace, --trace-html, --tree ---------------------------- */

struct traces {
    struct cs_tracer *tracer; /* NULL: the config asks for no trace */
    const struct cs_config *cfg;
    FILE *html, *dot;
    bool local; /* a local search: frames are starts and steps */
    char title[256];
};

/* Whether cfg (checked or not) asks for a trace. */
bool cli_traced(const struct cs_config *cfg);

/* Before the search: check the config, open the files, make the tracer.
 * -1 with err at the offending key. */
int traces_open(struct traces *tr, const struct cs_job *job,
                const struct cs_config *cfg, struct cs_error *err);
/* After the search: write the page and the tree; -1 if a write failed (the
 * message is on stderr already). */
int traces_end(struct traces *tr);
/* Close the files; remove_files: the search never ran, leave none behind. */
void traces_close(struct traces *tr, bool remove_files);

#endif
