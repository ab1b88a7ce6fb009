/* run.c - one config's run: its search or its batch, printed; and merge.
 *
 * cli_search() is the one place the command turns a job into a search
 * (struct cs_spec and cs_split); the printers see its struct cs_result.  Ctrl-C
 * and SIGTERM are caught only once a run is set up, so a long setup still stops
 * at once.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "csearch/dist.h"

volatile sig_atomic_t cli_interrupted, cli_signalled;
static volatile sig_atomic_t caught; /* the signal that stopped the run */

static void on_signal(int sig)
{
    cli_interrupted = 1;
    cli_signalled = 1;
    caught = sig;
}

/* SIGTERM (timeout, Slurm, systemd; mpirun's Ctrl-C) is Ctrl-C: the run
 * stops, logs its finished units and prints what it has.  SA_RESETHAND: a
 * second signal ends the process at once.  SA_RESTART: a write to a slow
 * pipe must not fail with EINTR and lose buffered output. */
void cli_catch_sigint(void)
{
    struct sigaction sa = {.sa_handler = on_signal,
                           .sa_flags = (int)(SA_RESETHAND | SA_RESTART)};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* a checkpoint or output past `ulimit -f` is a write error (EFBIG),
     * reported like a full disk, not a silent death by SIGXFSZ */
    signal(SIGXFSZ, SIG_IGN);
}

int cli_interrupted_status(void)
{
    /* under mpirun a SIGTERM is the user's Ctrl-C passed on to the ranks */
    return caught == SIGTERM && cs_dist_size() <= 1 ? CLI_EXIT_TERMINATED
                                                    : CLI_EXIT_INTERRUPTED;
}

/* How progress goes to stderr: one line redrawn in place on a terminal;
 * elsewhere (--progress forced it, for a log or a script) a line per
 * report.  shown: a line is on the terminal, to be cleared at the end. */
static struct {
    bool lines, shown;
} progress_view;

/* Seconds left when share done of the work is done, fresh of it (not
 * resumed) in elapsed seconds; negative: not known. */
static double eta(double done, double fresh, double elapsed)
{
    if (done < 0 || fresh <= 0 || elapsed <= 0)
        return -1;
    return (1 - done) * elapsed / fresh;
}

/* One report as text: "units 1234/3206  work 38.5%  elapsed 2.4s  ETA
 * 3.9s" (a split count: work is the share of the units' estimated sizes),
 * "probes 300/1000 ...", "nodes 81234567  4.1e+07 nodes/s  elapsed 2.4s"
 * (a search on one thread), "best 1086  bound 1014  gap 6.63%  nodes
 * 123456  elapsed 2.4s" (optimize on one thread), or "steps 51234  conflicts 12
 * 2.1e+06 steps/s  elapsed 2.4s" (local search). */
static void progress_text(const struct cs_progress *p, char *buf, size_t size)
{
    double left = -1;
    int len;
    if (p->units_total) {
        len = snprintf(buf, size, "units %" PRIu64 "/%" PRIu64, p->units_done,
                       p->units_total);
        if (p->work >= 0) {
            len += snprintf(buf + len, size - (size_t)len, "  work %.1f%%",
                            100.0 * p->work);
            left = eta(p->work, p->work - p->work_resumed, p->elapsed);
        }
    } else if (p->probes_total) {
        double share = (double)p->probes / (double)p->probes_total;
        len = snprintf(buf, size, "probes %" PRIu64 "/%" PRIu64 " (%.1f%%)",
                       p->probes, p->probes_total, 100.0 * share);
        left = eta(share, share, p->elapsed);
    } else if (p->optimizing) { /* "best 1086  bound 1014  gap 6.63% ..." */
        if (p->has_cost)
            len = snprintf(buf, size,
                           "best %" PRId64 "  bound %" PRId64
                           "  gap %.2f%%  nodes %" PRIu64,
                           p->cost, p->bound,
                           p->cost ? 100.0 * (double)(p->cost - p->bound) /
                                         (double)p->cost
                                   : 0.0,
                           p->nodes);
        else
            len = snprintf(buf, size,
                           "no solution yet  bound %" PRId64 "  nodes %" PRIu64,
                           p->bound, p->nodes);
    } else if (p->nodes) {
        len = snprintf(buf, size, "nodes %" PRIu64 "  %.3g nodes/s", p->nodes,
                       p->elapsed > 0 ? (double)p->nodes / p->elapsed : 0.0);
    } else {
        len = snprintf(buf, size,
                       "steps %" PRIu64 "  conflicts %" PRIu64 "  %.3g steps/s",
                       p->steps, p->conflicts,
                       p->elapsed > 0 ? (double)p->steps / p->elapsed : 0.0);
    }
    len +=
        snprintf(buf + len, size - (size_t)len, "  elapsed %.1fs", p->elapsed);
    if (p->units_total || p->probes_total) {
        if (left >= 0)
            snprintf(buf + len, size - (size_t)len, "  ETA %.1fs", left);
        else
            snprintf(buf + len, size - (size_t)len, "  ETA ?");
    }
}

static void show_progress(void *ud, const struct cs_progress *p)
{
    (void)ud;
    char line[256];
    progress_text(p, line, sizeof line);
    if (progress_view.lines)
        fprintf(stderr, "csearch: %s\n", line);
    else
        fprintf(stderr, "\rcsearch: %s\033[K", line);
    progress_view.shown = !progress_view.lines;
    fflush(stderr);
}

/* The tracer and the profiler both follow a run that has a profiler. */
static void trace_both(void *ud, const struct cs_trace_event *ev,
                       const struct cs_hooks *h, const void *state)
{
    const struct search_opts *o = ud;
    cs_tracer_step(o->tracer, ev, h, state);
    cs_profiler_step(o->profiler, ev, h, state);
}

int cli_search(const struct cs_job *job, const struct search_opts *o,
               struct cs_result *r, struct cs_error *err)
{
    struct cs_spec spec;
    struct cs_split split;
    cs_job_spec(job, &spec, &split);
    spec.stop = &cli_interrupted;
    spec.on_solution = o->out ? out_solution : NULL;
    spec.ud = o->out;
    spec.on_trace = o->tracer ? cs_tracer_step : NULL;
    spec.trace_ud = o->tracer;
    spec.profile = o->profile;
    if (o->tracer && o->profiler) {
        spec.on_trace = trace_both;
        spec.trace_ud = (void *)(uintptr_t)o;
    }
    split.checkpoint = o->checkpoint;
    split.resume = o->resume;
    split.slice_first = o->slice[0];
    split.slice_end = o->slice[1];
    split.slice_part = o->slice[2];
    split.slice_parts = o->slice[3];
    split.on_progress = o->progress ? show_progress : NULL;
    progress_view.lines = o->progress_lines;
    /* launched by mpirun with other ranks: a count is shared out over
     * them (the library never decides that by itself) */
    split.distribute = cs_dist_size() > 1;
    int rc = cs_search(&spec, &split, r, err);
    if (!rc && o->tracer)
        cs_tracer_end(o->tracer, r);
    return rc;
}

/* A batch: every instance in input order, one line each, then a summary.
 * Exit status: 130 (143) stopped, 3 limits.seconds ended the batch, 2 some
 * instance invalid, 3 some stopped by a node or time limit, 1 some without a
 * solution, else 0. */
static void on_batch_result(void *ud, const struct cs_batch_result *r)
{
    struct out *o = ud;
    out_batch_result(o, r, o->batch);
}

static int run_batch(struct cs_job *job, struct out *out)
{
    struct cs_error err;
    struct batch_summary sum = {0};
    out->batch = &sum;
    double started = cs_now();
    /* launched by mpirun with other ranks: they share the instances */
    int (*run)(const struct cs_job *, volatile sig_atomic_t *, cs_batch_fn,
               void *, enum cs_status *, struct cs_error *) =
        cs_dist_size() > 1 ? cs_batch_run_ranks : cs_batch_run;
    if (run(job, &cli_interrupted, on_batch_result, out, &sum.ended, &err))
        return cli_fail(&err);
    sum.seconds = cs_now() - started;
    out_batch_end(out, &sum);
    if (sum.ended == CS_INTERRUPTED)
        return cli_interrupted_status();
    if (sum.ended == CS_LIMIT)
        return CLI_EXIT_LIMIT;
    if (sum.invalid)
        return CLI_EXIT_USAGE;
    if (sum.limited)
        return CLI_EXIT_LIMIT;
    return sum.none ? CLI_EXIT_NO_SOLUTION : CLI_EXIT_DONE;
}

static int exit_status(const struct cs_result *r, const struct search_opts *o)
{
    switch (r->status) {
    case CS_UNVERIFIED:
        return CLI_EXIT_INTERNAL;
    case CS_LIMIT:
        return CLI_EXIT_LIMIT;
    case CS_INTERRUPTED:
        return cli_interrupted_status();
    default: /* a slice is done when its units are: merge has the answer;
                an estimate when its probes are */
        return r->stats.solutions || o->slice[1] || o->slice[3] ||
                       o->out->job->task == CS_TASK_ESTIMATE
                   ? CLI_EXIT_DONE
                   : CLI_EXIT_NO_SOLUTION;
    }
}

static int run_search(struct cs_job *job, struct cs_config *cfg,
                      struct out *out, struct search_opts *o)
{
    struct cs_error err;
    struct traces traces;
    if (traces_open(&traces, job, cfg, &err))
        return cli_fail(&err);
    cli_catch_sigint();
    if (job->problem.setup_instance) {
        if (!o->checkpoint)
            return run_batch(job, out);
        cs_error_set(&err, NULL, "checkpoints are for counts, not batches");
        return cli_fail(&err);
    }
    o->out = out;
    o->tracer = traces.tracer;
    o->profile = traces.profile; /* freed below */
    out->profile = traces.profile;
    out->levels = traces.levels;
    o->profiler = traces.profiler;
    struct cs_result r;
    int rc = cli_search(job, o, &r, &err);
    bool traces_failed = !rc && traces_end(&traces);
    traces_close(&traces, rc != 0);
    if (progress_view.shown)
        fputs("\r\033[K", stderr); /* clear the progress line */
    progress_view.shown = false;
    if (r.units.torn)
        fprintf(stderr,
                "csearch: %s: dropped a torn last line; its unit is searched "
                "again\n",
                o->checkpoint);
    if (!rc && r.status == CS_UNVERIFIED)
        fputs("csearch: internal error: the solution found fails its "
              "independent check; nothing printed (please report)\n",
              stderr);
    if (!rc)
        out_end(out, &r);
    free(o->profile);
    o->profile = NULL;
    out->profile = NULL;
    if (rc)
        return cli_fail(&err);
    return traces_failed ? CLI_EXIT_USAGE : exit_status(&r, o);
}

/* The merged logs of the config job runs: its fingerprint, every unit;
 * then the count's result as a run of that config would print it. */
static int merge_logs(const struct cs_job *job, struct out *out,
                      const char *const *logs, int n, double started)
{
    struct cs_merge m;
    struct cs_error err;
    if (cs_merge_logs(logs, n, &m, &err))
        return cli_fail(&err);
    if (m.fingerprint != job->fingerprint) {
        cs_error_set(&err, NULL,
                     "merge: the logs belong to another config than %s "
                     "(fingerprint %016" PRIx64 ", the config %016" PRIx64 ")",
                     cs_config_file(out->cfg), m.fingerprint, job->fingerprint);
        return cli_fail(&err);
    }
    if (m.torn)
        fprintf(stderr,
                "csearch: merge: ignored the torn last line of %d "
                "log(s)\n",
                m.torn);
    if (m.present < m.units) {
        cs_error_set(&err, NULL,
                     "merge: %" PRIu64 " of %" PRIu64 " units missing: %s",
                     m.units - m.present, m.units, m.missing);
        return cli_fail(&err);
    }
    /* every unit was taken from a log: resumed, in a run's words */
    struct cs_result r = {.status = CS_COMPLETE,
                          .stats = m.total,
                          .units = {.total = m.units,
                                    .end = m.units,
                                    .done = m.present,
                                    .resumed = m.present,
                                    .resumed_nodes = m.total.nodes}};
    r.stats.seconds = cs_now() - started;
    out_end(out, &r);
    return m.total.solutions ? CLI_EXIT_DONE : CLI_EXIT_NO_SOLUTION;
}

int cli_run(struct cs_config *cfg, const struct cs_registry *reg,
            struct search_opts *o, const char *const *logs, int nlogs)
{
    double started = cs_now();
    struct cs_error err;
    struct cs_job job;
    const struct cs_job_request req = {cli_options, cli_traced(cfg),
                                       cli_profiled(cfg)};
    if (cs_job_setup(&job, cfg, reg, &req, &err))
        return cli_fail(&err);
    struct out out;
    out_init(&out, &job, cfg);
    out.quiet = o->quiet;
    out.stats = out.stats && !o->quiet;
    /* the log a count appends to, the logs merge reads */
    const char **inputs = cs_xcalloc((size_t)nlogs + 1, sizeof *inputs);
    for (int i = 0; i < nlogs; i++)
        inputs[out.ninputs++] = logs[i];
    if (o->checkpoint)
        inputs[out.ninputs++] = o->checkpoint;
    out.inputs = inputs;
    int rc = out_open(&out, &err);
    if (rc) {
        free(inputs);
        out_free(&out);
        cs_job_free(&job);
        return cli_fail(&err);
    }
    int status = logs ? merge_logs(&job, &out, logs, nlogs, started)
                      : run_search(&job, cfg, &out, o);
    if (out_close(&out) && status == CLI_EXIT_DONE)
        status = CLI_EXIT_USAGE;
    free(inputs);
    out_free(&out);
    cs_job_free(&job);
    return status;
}
