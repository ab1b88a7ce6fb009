/* output.h - the result writers: a run's boards, results and statistics as
 * text, one JSON object, CSV, a value per line (columns) or an HTML page;
 * a batch's results; and the small writers of JSON strings, CSV fields and
 * HTML text that other outputs (csearch compare) use too.
 *
 * A front end (the csearch command) makes a job, then: out_init, out_open,
 * out_solution as the engine's on_solution during the search, out_end (or
 * out_batch_result per instance and out_batch_end), out_close, out_free.
 * out_init and out_open read output.format, output.show, output.stats and
 * output.file from the config: keys the front end declares to cs_job_setup
 * (the csearch command's are cli_options, framework/cli/keys.c).
 */
#ifndef CSEARCH_OUTPUT_H
#define CSEARCH_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "csearch/batch.h"

/* The values of output.format, in the order of its choices. */
enum cs_format {
    CS_FORMAT_TEXT,
    CS_FORMAT_JSON,
    CS_FORMAT_CSV,
    CS_FORMAT_COLUMNS,
    CS_FORMAT_HTML
};

/* Boards of Q and . rows are drawn for at most this many rows. */
#define OUT_BOARD_MAX 64

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
     * than the moves that improve it), and the hooks that draw it (a copy:
     * the table the engine hands out may live on its stack) */
    void *best;
    struct cs_hooks best_hooks;
    bool drawn; /* optimize, a model with fini: board holds the best */
    struct batch_summary *batch; /* a batch's counts so far */
    /* files the run reads or appends to besides those cs_file_read read
     * already (a checkpoint, merge's logs): output.file must be none */
    const char *const *inputs;
    int ninputs;
    /* the run's per-level profile (output.profile), levels from the root,
     * filled by the search: text and JSON print it; NULL: none */
    const struct cs_level *profile;
    int levels;
};

/* Printing job's results on stdout as cfg asks; out_free after. */
void out_init(struct out *o, const struct cs_job *job,
              const struct cs_config *cfg);
void out_free(struct out *o);

/* After out_init: check the format against the model, open output.file
 * and try a byte (a full disk fails now, not after the search); an input
 * of the run (cs_file_is_input, o->inputs) is refused before it is cut.
 * -1 with err at the offending key. */
int out_open(struct out *o, struct cs_error *err);
/* Close output.file; -1 (said on stderr) if writing it failed. */
int out_close(struct out *o);
/* A result file: path (NULL: none, *f NULL) opened for writing into *f,
 * and with try, a byte tried (a full disk or /dev/full fails now, not
 * after the search); else -1 with "cannot write 'PATH': why" at pos, *f
 * left open if the try failed.  A file the run read (cs_file_is_input) is
 * refused ("it is an input of this run") before it is opened. */
int out_file_open(FILE **f, const char *path, struct cs_pos pos, bool try,
                  struct cs_error *err);

/* Whether paths a and b name the same existing file (device and inode). */
bool out_same_file(const char *a, const char *b);

/* The engine's on_solution: prints up to output.show boards. */
bool out_solution(void *ud, const struct cs_hooks *hooks, const void *state,
                  uint64_t weight);
/* After the search: results and statistics. */
void out_end(struct out *o, const struct cs_result *r);
/* The head of the JSON object (model, task, params, strategy, limits, the
 * opening of the boards' list), once; nothing for text. */
void out_head(struct out *o);

/* A batch: one line (or JSON element) per instance, in input order, then
 * the summary. */
struct batch_summary {
    uint64_t instances, solved, unique, multiple, none, invalid, limited;
    uint64_t nodes;
    double seconds;
    enum cs_status ended; /* complete, interrupted, limit (limits.seconds) */
};
void out_batch_result(struct out *o, const struct cs_batch_result *r,
                      struct batch_summary *sum);
void out_batch_end(struct out *o, const struct batch_summary *sum);

/* s as a JSON string, quoted and escaped. */
void out_json_string(FILE *out, const char *s);
/* s as one CSV field (RFC 4180): as it is, or in double quotes with quotes
 * doubled when it holds a comma, a quote or a line break. */
void out_csv_field(FILE *out, const char *s);
/* s as HTML or XML text: & < > and " escaped. */
void out_html_text(FILE *out, const char *s);

#endif
