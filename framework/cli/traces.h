/* traces.h - the CLI's traces: the text trace on stdout, the step-through
 * page (output.trace_html) and the tree (output.tree). */
#ifndef CSEARCH_CLI_TRACES_H
#define CSEARCH_CLI_TRACES_H

#include "csearch/job.h"
#include "csearch/trace.h"

struct traces {
    struct cs_tracer *tracer; /* NULL: the config asks for no trace */
    const struct cs_config *cfg;
    FILE *html, *dot;
    char title[256];
};

/* Before the search: check the config, open the files, hook the tracer into
 * run.  -1 with err at the offending key. */
int traces_open(struct traces *tr, const struct cs_job *job,
                const struct cs_config *cfg, struct cs_run *run,
                struct cs_error *err);
/* After the search: write the page and the tree; -1 if a write failed (the
 * message is on stderr already). */
int traces_end(struct traces *tr, const struct cs_run *run);
/* Close the files; remove_files: the search never ran, leave none behind. */
void traces_close(struct traces *tr, bool remove_files);

#endif
