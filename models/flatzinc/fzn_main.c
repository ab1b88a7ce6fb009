/* fzn_main.c - fzn-csearch: csearch as a MiniZinc solver.
 *
 * usage: fzn-csearch [-a] [-n N] [-i] [-f] [-s] [-v] [-p N] [-r SEED]
 *                    [-t MS] [--cp-profiler ID,PORT] FILE.fzn
 *
 * The standard FlatZinc solver interface: each solution as `x = v;` lines
 * of the output variables and a line of ten dashes, flushed; at the end
 * `==========` when the search is complete, `=====UNSATISFIABLE=====` or
 * `=====UNKNOWN=====`; with -s `%%%mzn-stat:` lines.  It runs the model
 * `flatzinc` through the same job and engine as `csearch CONFIG`.
 * --cp-profiler is how minizinc passes on the MiniZinc IDE's "Profile
 * search": the tree goes to CP-Profiler at 127.0.0.1:PORT as it is searched.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/file.h"
#include "csearch/job.h"
#include "csearch/profiler.h"
#include "flatzinc.h"

#ifndef CSEARCH_VERSION
#define CSEARCH_VERSION "unknown"
#endif

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct printer {
    bool optimizing;
    bool has_best;        /* optimizing: a solution printed or kept, */
    int64_t best;         /* and its cost (the engine's: minimised) */
    bool each;            /* print every solution as found (-a, -i, satisfy) */
    struct cs_board last; /* optimize without -a/-i: the best so far */
    uint64_t printed;
};

static void print_board(const struct cs_board *b)
{
    for (size_t i = 0; i < b->count; i++)
        puts(b->lines[i]);
    puts("----------");
    fflush(stdout);
}

static bool on_solution(void *ud, const struct cs_hooks *hooks,
                        const void *state, uint64_t weight)
{
    struct printer *pr = ud;
    (void)weight;
    if (pr->optimizing && hooks->cost) {
        /* free search in phases: a search that had no cut may find what
         * an earlier one beat already */
        int64_t cost = hooks->cost(state);
        if (pr->has_best && cost >= pr->best)
            return true;
        pr->has_best = true;
        pr->best = cost;
    }
    cs_board_clear(&pr->last);
    hooks->emit(state, 0, &pr->last);
    if (pr->each) {
        print_board(&pr->last);
        pr->printed++;
    }
    return true;
}

static void usage(FILE *out)
{
    fputs("usage: fzn-csearch [options] FILE.fzn\n"
          "  -a        all solutions (satisfaction), every better one "
          "(optimisation)\n"
          "  -n N      stop after N solutions\n"
          "  -i        print intermediate solutions of an optimisation\n"
          "  -f        free search: dom/wdeg, restarts, neighbourhood rounds "
          "under -t,\n"
          "            between two spells of the model's own search\n"
          "  -s        print statistics (%%%mzn-stat lines)\n"
          "  -v        say what was chosen, on standard error\n"
          "  -p N      N threads (a portfolio, or a split count)\n"
          "  -r SEED   random seed\n"
          "  -t MS     time limit in milliseconds\n"
          "  --cp-profiler ID,PORT\n"
          "            stream the search tree to CP-Profiler at "
          "127.0.0.1:PORT as\n"
          "            execution ID (the MiniZinc IDE's Profile search), on "
          "one thread\n"
          "  --help, --version\n",
          out);
}

static int fail(const char *msg)
{
    fprintf(stderr, "fzn-csearch: %s\n", msg);
    return 2;
}

/* Read a non-negative integer flag value. */
static bool number(const char *text, uint64_t *out)
{
    char *end;
    if (!text || !*text || *text == '-')
        return false;
    unsigned long long v = strtoull(text, &end, 10);
    *out = v;
    return !*end;
}

struct flags {
    bool all, intermediate, free_search, stats, verbose;
    uint64_t solutions, threads, seed, ms;
    const char *file;
    const char *profiler; /* --cp-profiler's PORT; NULL: none */
    long profiler_id;     /* and its ID */
};

/* --cp-profiler ID,PORT as the MiniZinc IDE gives it (minizinc passes it
 * on as is): ID the execution's number, PORT where CP-Profiler listens. */
static bool profiler_arg(const char *text, struct flags *f)
{
    char *end;
    if (!text || !isdigit((unsigned char)*text))
        return false;
    long id = strtol(text, &end, 10);
    if (*end != ',' || id > INT32_MAX || !isdigit((unsigned char)end[1]))
        return false;
    const char *port = end + 1;
    long num = strtol(port, &end, 10);
    if (*end || num < 1 || num > 65535)
        return false;
    f->profiler_id = id;
    f->profiler = port;
    return true;
}

static int parse_flags(int argc, char **argv, struct flags *f)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t *value = NULL;
        if (!strcmp(a, "-a") || !strcmp(a, "--all-solutions"))
            f->all = true;
        else if (!strcmp(a, "-i") || !strcmp(a, "--intermediate"))
            f->intermediate = true;
        else if (!strcmp(a, "-f") || !strcmp(a, "--free-search"))
            f->free_search = true;
        else if (!strcmp(a, "-s") || !strcmp(a, "--statistics"))
            f->stats = true;
        else if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
            f->verbose = true;
        else if (!strcmp(a, "-n") || !strcmp(a, "--num-solutions"))
            value = &f->solutions;
        else if (!strcmp(a, "-p") || !strcmp(a, "--parallel"))
            value = &f->threads;
        else if (!strcmp(a, "-r") || !strcmp(a, "--seed"))
            value = &f->seed;
        else if (!strcmp(a, "-t") || !strcmp(a, "--time-limit"))
            value = &f->ms;
        else if (!strcmp(a, "--cp-profiler")) {
            const char *arg = i + 1 < argc ? argv[++i] : NULL;
            if (!profiler_arg(arg, f)) {
                fprintf(stderr,
                        "fzn-csearch: --cp-profiler '%s' is not ID,PORT "
                        "(an execution number and a port, e.g. 0,6565)\n",
                        arg ? arg : "");
                return 2;
            }
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "--version")) {
            printf("fzn-csearch %s\n", CSEARCH_VERSION);
            exit(0);
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "fzn-csearch: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (f->file) {
            return fail("only one FlatZinc file, please");
        } else {
            f->file = a;
        }
        if (value && !number(i + 1 < argc ? argv[++i] : NULL, value)) {
            fprintf(stderr, "fzn-csearch: '%s' needs a number\n", a);
            return 2;
        }
    }
    if (!f->file)
        return fail("no FlatZinc file (fzn-csearch --help)");
    return 0;
}

/* One `KEY=VALUE` into the config; false with err set when refused. */
static bool set(struct cs_config *cfg, struct cs_error *err, const char *fmt,
                ...) CS_PRINTF(3, 4);
static bool set(struct cs_config *cfg, struct cs_error *err, const char *fmt,
                ...)
{
    char buf[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return cs_config_set(cfg, buf, err) == 0;
}

static bool word_at(const char *text, size_t len, size_t i, const char *w)
{
    size_t n = strlen(w);
    return i + n <= len && !memcmp(text + i, w, n) &&
           (i == 0 ||
            !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')) &&
           (i + n == len ||
            !(isalnum((unsigned char)text[i + n]) || text[i + n] == '_'));
}

/* What the file's last solve item asks: FZN_SATISFY, FZN_MINIMIZE or
 * FZN_MAXIMIZE (FZN_SATISFY when there is none: the model then says so
 * with its position); -1 when the file cannot be read. */
static int solve_goal(const char *path)
{
    struct cs_file file;
    if (!strcmp(path, "-") ||
        cs_file_read(path, (size_t)1 << 31, 0, &file) != CS_FILE_OK)
        return -1;
    const char *t = file.text;
    size_t len = file.len, solve = len;
    for (size_t i = len; i-- > 0;)
        if (t[i] == 's' && word_at(t, len, i, "solve")) {
            solve = i;
            break;
        }
    int goal = FZN_SATISFY;
    for (size_t i = solve; i < len; i++)
        if (word_at(t, len, i, "minimize"))
            goal = FZN_MINIMIZE;
        else if (word_at(t, len, i, "maximize"))
            goal = FZN_MAXIMIZE;
    free(file.text);
    return goal;
}

/* The statistics MiniZinc reads; the objective in the model's own sign
 * (the engine minimises the negated objective of a maximisation). */
static void print_stats(const struct cs_result *r, int goal)
{
    bool optimizing = goal != FZN_SATISFY;
    int64_t sign = goal == FZN_MAXIMIZE ? -1 : 1;
    printf("%%%%%%mzn-stat: nodes=%" PRIu64 "\n", r->stats.nodes);
    printf("%%%%%%mzn-stat: failures=%" PRIu64 "\n", r->stats.fails);
    printf("%%%%%%mzn-stat: restarts=%" PRIu64 "\n", r->restarts);
    printf("%%%%%%mzn-stat: peakDepth=%d\n", r->stats.max_depth);
    printf("%%%%%%mzn-stat: propagations=%" PRIu64 "\n", r->stats.checks);
    printf("%%%%%%mzn-stat: solutions=%" PRIu64 "\n", r->stats.solutions);
    if (optimizing && r->stats.solutions) {
        printf("%%%%%%mzn-stat: objective=%" PRId64 "\n", sign * r->cost);
        printf("%%%%%%mzn-stat: objectiveBound=%" PRId64 "\n", sign * r->bound);
    }
    printf("%%%%%%mzn-stat: solveTime=%.6f\n", r->stats.seconds);
    puts("%%%mzn-stat-end");
}

/* ---- free search in phases --------------------------------------------- */

/* Free search (-f) for one solution or the optimum, on one thread, of a
 * file whose solve item has search annotations does not throw them away:
 * what the model's author knew often proves a problem that dom/wdeg only
 * circles.  The run is three searches, each a whole cs_search:
 *   1. the annotated search (the search without -f) for the first
 *      PHASE1_SHARE of the time limit (without one, PHASE1_SECONDS);
 *   2. free search (dom/wdeg, restarts, neighbourhood rounds: flatzinc.c)
 *      until PHASE2_END of the limit (without one, to the end);
 *   3. the annotated search again for the rest: branch and bound under the
 *      best cost so far, whose tree that cut keeps small, so that the
 *      proof of optimality free search rarely reaches comes from here.
 * The annotated searches look only for solutions better than the best
 * found before (problem.h: start_cut); free search starts from scratch,
 * its neighbourhoods growing from a first solution of its own, and only
 * the solutions that improve on the best so far are printed.  A search that
 * ends complete ends the run: a solution of a satisfaction problem, an optimum,
 * or (nothing better found) the proof that the best so far is optimal, or that
 * there is no solution. */
#define PHASE1_SHARE 0.05
#define PHASE2_END 0.6
#define PHASE1_SECONDS 1.0

static bool in_phases(const struct cs_job *job, const struct flags *f)
{
    const struct fzn_problem *p = job->problem.data;
    return f->free_search && p->ngroups && job->threads == 1 &&
           (job->task == CS_TASK_SOLVE || job->task == CS_TASK_OPTIMIZE);
}

static void add_run(struct cs_result *sum, const struct cs_result *run)
{
    cs_stats_add(&sum->stats, &run->stats);
    sum->restarts += run->restarts;
    sum->rounds += run->rounds;
}

static int search_in_phases(struct cs_spec *spec, struct fzn_problem *p,
                            bool verbose, struct cs_result *out,
                            struct cs_error *err)
{
    const double limit = spec->limits.seconds, start = cs_now();
    /* when each phase ends, in seconds from the start; 0: never */
    const double ends[3] = {limit > 0 ? PHASE1_SHARE * limit : PHASE1_SECONDS,
                            PHASE2_END * limit, limit};
    const struct cs_layers free_layers = spec->layers;
    bool found = false;
    int64_t best = 0;
    *out = (struct cs_result){.status = CS_LIMIT};
    for (int phase = 0; phase < 3; phase++) {
        const bool own = phase != 1;
        double left = ends[phase] - (cs_now() - start);
        if (ends[phase] > 0 && left < 0.001)
            continue; /* no time for it */
        p->free_search = !own;
        /* free search from scratch: a cut would starve its first
         * solution, which its neighbourhoods grow from */
        p->has_start_cut = found && p->cut_by_cost && own;
        p->start_cut = best;
        p->store->deadline = ends[phase] > 0 ? cs_now() + left + 0.05 : 0;
        spec->layers = own ? (struct cs_layers){0} : free_layers;
        spec->limits.seconds = ends[phase] > 0 ? left : 0;
        if (verbose)
            fprintf(stderr, "%% csearch: phase %d, %s search, %.3f s\n",
                    phase + 1, own ? "annotated" : "free", left);
        struct cs_result run;
        if (cs_search(spec, NULL, &run, err))
            return -1;
        add_run(out, &run);
        if (phase == 0)
            out->bound = run.bound; /* at the root, without a cut */
        if (run.stats.solutions) {
            best = found && best < run.cost ? best : run.cost;
            found = true;
        }
        out->status =
            run.status == CS_INFEASIBLE && found ? CS_OPTIMAL : run.status;
        if (run.status != CS_LIMIT || (found && !p->cut_by_cost))
            break; /* complete, interrupted, or a first solution */
    }
    out->stats.seconds = cs_now() - start;
    out->cost = best;
    if (out->status == CS_OPTIMAL)
        out->bound = best;
    return 0;
}

/* --cp-profiler: connect and have the search stream its tree; NULL (one
 * line on stderr, the search goes on without it, as fzn-gecode's does)
 * when CP-Profiler cannot be reached.  The execution is named by the
 * file, as Gecode names it; free search in phases and neighbourhood rounds
 * search several trees, sent as restarts. */
static struct cs_profiler *profiler_open(const struct flags *f,
                                         const struct cs_job *job,
                                         struct cs_spec *spec)
{
    if (f->threads > 1)
        fprintf(stderr,
                "fzn-csearch: --cp-profiler follows one search: -p "
                "%" PRIu64 " ignored, one thread\n",
                f->threads);
    const char *slash = strrchr(f->file, '/');
    const struct cs_profiler_start start = {
        .name = slash ? slash + 1 : f->file,
        .execution_id = f->profiler_id,
        .restarts = in_phases(job, f) ||
                    (job->task == CS_TASK_OPTIMIZE && job->layers.lns_nodes &&
                     job->problem.hooks->relax),
    };
    char msg[512];
    struct cs_profiler *p =
        cs_profiler_connect(f->profiler, &start, msg, sizeof msg);
    if (!p) {
        fprintf(stderr,
                "fzn-csearch: --cp-profiler: %s; searching without it\n", msg);
        return NULL;
    }
    spec->on_trace = cs_profiler_step;
    spec->trace_ud = p;
    return p;
}

int main(int argc, char **argv)
{
    struct flags f = {0};
    int status = parse_flags(argc, argv, &f);
    if (status)
        return status;

    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    struct cs_error err = {0};
    struct cs_registry *reg = cs_registry_new();
    struct cs_config *cfg = cs_config_new("fzn-csearch");
    struct cs_job job;
    bool set_up = false;
    struct printer pr = {0};
    struct cs_profiler *profiler = NULL;
    /* the task follows the file's solve item, which only the model reads;
     * it is the last item of a FlatZinc file, so a look at the text says */
    int goal = solve_goal(f.file);
    if (goal < 0) {
        fprintf(stderr, "fzn-csearch: %s: cannot read the file\n", f.file);
        status = 2;
        goto done;
    }
    pr.optimizing = goal != FZN_SATISFY;
    if (cs_registry_add(reg, &cs_flatzinc_model, &err))
        goto fail;
    const char *task = pr.optimizing              ? "optimize"
                       : f.all || f.solutions > 1 ? "enumerate"
                                                  : "solve";
    pr.each = !pr.optimizing || f.all || f.intermediate;
    if (!set(cfg, &err, "model=flatzinc") ||
        !set(cfg, &err, "params.file=%s", f.file) ||
        !set(cfg, &err, "task=%s", task) ||
        (f.free_search && !set(cfg, &err, "strategy.search=free")) ||
        /* every solution printed, in order: one thread; a profiled
         * search is one tree */
        (f.threads > 1 && strcmp(task, "enumerate") && !f.profiler &&
         !set(cfg, &err, "strategy.threads=%" PRIu64, f.threads)) ||
        (f.seed && !set(cfg, &err, "strategy.seed=%" PRIu64, f.seed)) ||
        (f.ms && !set(cfg, &err, "limits.seconds=%.3f", (double)f.ms / 1000)) ||
        (!pr.optimizing && f.solutions > 1 && !f.all &&
         !set(cfg, &err, "limits.solutions=%" PRIu64, f.solutions)))
        goto fail;
    const struct cs_job_request req = {.tracing = f.profiler != NULL};
    if (cs_job_setup(&job, cfg, reg, &req, &err))
        goto fail;
    set_up = true;
    struct cs_spec spec;
    struct cs_split split;
    cs_job_spec(&job, &spec, &split);
    spec.on_solution = on_solution;
    spec.ud = &pr;
    spec.stop = &stop_flag;
    if (f.profiler)
        profiler = profiler_open(&f, &job, &spec);
    /* a long fixpoint gives up on a signal too */
    ((struct fzn_problem *)job.problem.data)->store->stop = &stop_flag;
    if (f.verbose)
        fprintf(stderr,
                "%% csearch: task %s, search %s, %d thread(s), "
                "%d variables, %d propagators\n",
                task,
                job.problem.chosen[0].key ? job.problem.chosen[0].value : "",
                job.threads, job.problem.nvars,
                ((const struct fzn_problem *)job.problem.data)->store->nprops);
    struct cs_result run;
    if (in_phases(&job, &f)
            ? search_in_phases(&spec, job.problem.data, f.verbose, &run, &err)
            : cs_search(&spec, job.threads > 1 ? &split : NULL, &run, &err))
        goto fail;
    if (profiler) {
        cs_profiler_done(profiler);
        if (cs_profiler_lost(profiler))
            fprintf(stderr,
                    "fzn-csearch: --cp-profiler: the profiler went away after "
                    "%llu nodes; the search went on without it\n",
                    cs_profiler_sent(profiler));
    }
    if (!pr.each && run.stats.solutions && pr.last.count)
        print_board(&pr.last);
    bool found = run.stats.solutions > 0;
    switch (run.status) {
    case CS_OPTIMAL:
        puts("==========");
        break;
    case CS_INFEASIBLE:
        puts("=====UNSATISFIABLE=====");
        break;
    case CS_COMPLETE:
        if (!found)
            puts("=====UNSATISFIABLE=====");
        else if (!pr.optimizing && strcmp(task, "solve"))
            puts("==========");
        break;
    default:
        if (!found)
            puts("=====UNKNOWN=====");
        break;
    }
    if (f.stats)
        print_stats(&run, goal);
    fflush(stdout);
    status = 0;
    goto done;
fail : {
    char line[1024];
    cs_error_format(&err, line, sizeof line);
    fprintf(stderr, "fzn-csearch: %s\n", line);
    status = 2;
}
done:
    cs_profiler_free(profiler);
    cs_board_free(&pr.last);
    if (set_up)
        cs_job_free(&job);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return status;
}
