/* output_profile.c - a run's per-level profile (--profile): for each depth
 * the nodes entered, the fails and the solutions there, as a text table
 * after the statistics or as the JSON array "profile", one object per depth.
 * The depths run from the root to the deepest one with a node or a solution
 * (a kernel may count its solutions below its deepest node); the rows sum
 * to the run's nodes, fails and solutions.  A counting kernel's tree says
 * what its depths are (cs_problem.profile_rows): in the header, and as
 * "profile_rows" in JSON.
 */
#include <inttypes.h>

#include "output_impl.h"

/* The depths to show: up to the deepest one with a node or a solution. */
static int shown_levels(const struct cs_level *levels, int count)
{
    while (count > 0 && !levels[count - 1].nodes &&
           !levels[count - 1].solutions)
        count--;
    return count;
}

void out_profile_text(FILE *out, const struct cs_level *levels, int count,
                      const char *rows)
{
    struct cs_level sum = {0};
    count = shown_levels(levels, count);
    fprintf(out, "\nprofile (per depth%s%s)\n%5s %20s %20s %20s\n",
            rows ? ": " : "", rows ? rows : "", "depth", "nodes", "fails",
            "solutions");
    for (int d = 0; d < count; d++) {
        fprintf(out, "%5d %20" PRIu64 " %20" PRIu64 " %20" PRIu64 "\n", d,
                levels[d].nodes, levels[d].fails, levels[d].solutions);
        sum.nodes += levels[d].nodes;
        sum.fails += levels[d].fails;
        sum.solutions += levels[d].solutions;
    }
    fprintf(out, "%5s %20" PRIu64 " %20" PRIu64 " %20" PRIu64 "\n", "all",
            sum.nodes, sum.fails, sum.solutions);
}

void out_profile_json(FILE *out, const struct cs_level *levels, int count,
                      const char *rows)
{
    count = shown_levels(levels, count);
    if (rows) {
        fputs(", \"profile_rows\": ", out);
        out_json_string(out, rows);
    }
    fputs(", \"profile\": [", out);
    for (int d = 0; d < count; d++)
        fprintf(out,
                "%s{\"depth\": %d, \"nodes\": %" PRIu64 ", \"fails\": %" PRIu64
                ", \"solutions\": %" PRIu64 "}",
                d ? ", " : "", d, levels[d].nodes, levels[d].fails,
                levels[d].solutions);
    fputc(']', out);
}
