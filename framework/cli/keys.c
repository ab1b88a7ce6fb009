/* keys.c - the keys the csearch command reads itself: output.* and compare.
 *
 * The library declares only what the engine and its layers read; these are
 * the CLI's, passed to every cs_job_setup it makes.  The unit tests, which
 * read the same configs, compile this file too.
 */
#include "cli.h"

static const char *const format_names[] = {"text",    "json", "csv",
                                           "columns", "html", NULL};

static const struct cs_option cli_keys[] = {
    {.key = "output.format",
     .type = CS_OPT_ENUM,
     .def = "text",
     .choices = format_names,
     .help = "text, one JSON object (--json), csv (count: a header and a "
             "row of results; solve/enumerate: a row per solution), or "
             "columns (a line per variable, its value from 1: N-Queens, "
             "each row's column), or html (one self-contained page of the "
             "solution: the shifts model draws its roster)"},
    {.key = "output.file",
     .type = CS_OPT_STRING,
     .help = "write the solutions (a batch's result lines) to this file "
             "instead of stdout (the statistics stay on stdout)"},
    {.key = "output.show",
     .type = CS_OPT_INT,
     .def = "all",
     .min = 0,
     .max = 9e18,
     .all_word = "all",
     .help = "solutions to print for solve and enumerate (0: none); the "
             "search and its counts go on"},
    {.key = "output.stats",
     .type = CS_OPT_BOOL,
     .def = "true",
     .help = "print the search statistics (false: the text output keeps "
             "solutions, unique and status; JSON always has them)"},
    {.key = "output.trace",
     .type = CS_OPT_BOOL,
     .def = "false",
     .help = "print every step of the search (--trace); not with "
             "output.format json"},
    {.key = "output.trace_html",
     .type = CS_OPT_STRING,
     .help = "write a step-through HTML page of the search to this file "
             "(--trace-html)"},
    {.key = "output.profile",
     .type = CS_OPT_BOOL,
     .def = "false",
     .help = "print a per-level profile after the search: nodes, fails "
             "and solutions at each depth (--profile); counted on the "
             "generic engine on one thread, or by a counting kernel with "
             "levels (N-Queens fast, halves) on its own tree; "
             "output.format text or json"},
    {.key = "output.tree",
     .type = CS_OPT_STRING,
     .help = "write the search tree to this file as Graphviz DOT (--tree)"},
    {.key = "output.profiler",
     .type = CS_OPT_STRING,
     .help = "stream the search tree to a CP-Profiler listening at "
             "[HOST:]PORT (--profiler; its default port is 6565)"},
    {.key = "output.tree_max_nodes",
     .type = CS_OPT_INT,
     .def = "1000000",
     .min = 1,
     .max = 10000000,
     .help = "nodes the HTML page holds at most, a few bytes each (the "
             "first 2000 in full: the step-through and the --tree "
             "graph); local search: starts and steps; the search runs on"},
    {.key = "compare",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"mapping", NULL},
     .help = "strategies to run side by side over values of n: a table, "
             "CSV and a plot (csearch compare; docs/compare.md)"},
    {.key = NULL},
};
const struct cs_option *const cli_options[] = {cli_keys, NULL};
