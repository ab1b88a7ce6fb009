/* output_estimate.c - what task estimate prints: the estimated nodes and
 * solutions of the count's tree, each with its 95% interval (mean +- 1.96
 * standard errors, never below 0; none for solutions when fewer than
 * FEW_HITS probes ended in one), the probes made and their own work.
 * Text, one JSON object, or a CSV header and row.  Figures are printed
 * with fixed decimals so that one seed prints the same every run.
 */
#include <inttypes.h>

#include "output_impl.h"

#define Z95 1.959963984540054 /* the normal quantile of 0.975 */
#define FEW_HITS 10 /* fewer probes ending in a solution: no interval */

static double low(double mean, double error)
{
    double x = mean - Z95 * error;
    return x > 0 ? x : 0;
}

static double high(double mean, double error)
{
    return mean + Z95 * error;
}

void out_estimate_end(struct out *o, const struct cs_result *r)
{
    const struct cs_estimate *e = &r->estimate;
    const struct cs_stats *s = &r->stats;
    out_head(o);
    if (o->format == CS_FORMAT_JSON) {
        fprintf(o->out,
                "], \"status\": \"%s\", \"solutions\": %" PRIu64
                ", \"nodes\": %" PRIu64 ", \"checks\": %" PRIu64
                ", \"fails\": %" PRIu64 ", \"seconds\": %.6f"
                ", \"estimate\": {\"probes\": %" PRIu64
                ", \"nodes\": %.2f, \"nodes_error\": %.2f"
                ", \"nodes_low\": %.2f, \"nodes_high\": %.2f"
                ", \"solutions\": %.2f, \"solutions_error\": %.2f"
                ", \"solutions_low\": %.2f, \"solutions_high\": %.2f",
                cs_status_name(r->status), s->solutions, s->nodes, s->checks,
                s->fails, s->seconds, e->probes, e->nodes, e->nodes_error,
                low(e->nodes, e->nodes_error), high(e->nodes, e->nodes_error),
                e->solutions, e->solutions_error,
                low(e->solutions, e->solutions_error),
                high(e->solutions, e->solutions_error));
        if (e->units)
            fprintf(o->out,
                    ", \"kernel_units\": %" PRIu64 ", \"kernel_work\": %.2f"
                    ", \"largest_unit\": %" PRIu64 ", \"largest_work\": %.2f",
                    e->units, e->unit_work, e->largest_unit, e->largest_work);
        fputs("}}\n", o->out);
    } else if (o->format == CS_FORMAT_CSV) {
        fputs("status,probes,nodes,nodes_low,nodes_high,solutions,"
              "solutions_low,solutions_high,seconds\n",
              o->out);
        fprintf(o->out, "%s,%" PRIu64 ",%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.6f\n",
                cs_status_name(r->status), e->probes, e->nodes,
                low(e->nodes, e->nodes_error), high(e->nodes, e->nodes_error),
                e->solutions, low(e->solutions, e->solutions_error),
                high(e->solutions, e->solutions_error), s->seconds);
    } else {
        fprintf(o->out, "nodes      ~%.0f  (95%%: %.0f .. %.0f)\n", e->nodes,
                low(e->nodes, e->nodes_error), high(e->nodes, e->nodes_error));
        if (s->solutions >= FEW_HITS)
            fprintf(o->out, "solutions  ~%.0f  (95%%: %.0f .. %.0f)\n",
                    e->solutions, low(e->solutions, e->solutions_error),
                    high(e->solutions, e->solutions_error));
        else /* a mean of a few hits is no normal variable */
            fprintf(o->out,
                    "solutions  ~%.0f  (no interval: %" PRIu64 " of %" PRIu64
                    " probes ended in a solution)\n",
                    e->solutions, s->solutions, e->probes);
        if (e->units) /* the kernel's own sizes of its units */
            fprintf(o->out,
                    "kernel     %s: %" PRIu64 " units, ~%.4g %s; the "
                    "largest, unit %" PRIu64 ", ~%.4g\n",
                    o->job->problem.kernel ? o->job->problem.kernel : "units",
                    e->units, e->unit_work,
                    o->job->problem.unit_measure ? o->job->problem.unit_measure
                                                 : "nodes",
                    e->largest_unit, e->largest_work);
        if (!o->quiet)
            fprintf(o->out, "status     %s\n", cs_status_name(r->status));
        if (o->stats)
            fprintf(o->out,
                    "probes     %" PRIu64 " (%" PRIu64
                    " ended in a solution)\nentered    %" PRIu64
                    " nodes\nseconds    %.6f\n",
                    e->probes, s->solutions, s->nodes, s->seconds);
    }
    fflush(o->out);
}
