/* output.h - the CLI's printer: boards as they come, results at the end. */
#ifndef CSEARCH_CLI_OUTPUT_H
#define CSEARCH_CLI_OUTPUT_H

#include <stdio.h>

#include "csearch/batch.h"
#include "csearch/dist.h"
#include "csearch/job.h"

/* The keys the CLI reads itself (output.stats, output.tree_max_nodes,
 * compare): the caller_options of its every cs_job_setup. */
extern const struct cs_option *const cli_options[];

struct out {
    FILE *out;
    const struct cs_job *job;
    const struct cs_config *cfg;
    enum cs_format format; /* output.format */
    int64_t show;          /* output.show: boards to print, -1 = all */
    bool stats;            /* output.stats */
    struct cs_board board; /* reused for every solution */
    uint64_t shown;
    bool head_done; /* the JSON object's head is out */
    bool best_kept; /* optimize: board holds the best solution, unprinted */
};

/* Printing job's results on stdout as cfg asks. */
void out_init(struct out *o, const struct cs_job *job,
              const struct cs_config *cfg);

/* The engine's on_solution: prints up to output.show boards. */
bool out_solution(void *ud, const struct cs_hooks *hooks, const void *state,
                  uint64_t weight);
/* After the search: results and statistics. */
void out_end(struct out *o, const struct cs_run *run);

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

/* s as a JSON string, quoted and escaped. */
void out_json_string(FILE *out, const char *s);

#endif
