/* main.c - the csearch command: read a config, run its search, print.
 *
 * A thin layer over the library: arguments -> config (+ --set overrides) ->
 * job -> run.  Every failure before the search is one line on stderr and
 * exit status 2 with nothing on stdout; after the search the exit status
 * says how it ended (0 done, 1 no solution, 3 limit, 130 interrupted).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csearch/batch.h"
#include "csearch/dist.h"
#include "csearch/job.h"
#include "compare.h"
#include "output.h"
#include "traces.h"

#ifndef CSEARCH_VERSION
#define CSEARCH_VERSION "0.0.0"
#endif

enum { EXIT_DONE = 0, EXIT_NO_SOLUTION = 1, EXIT_USAGE = 2, EXIT_LIMIT = 3,
       EXIT_INTERRUPTED = 130 };

static const char usage[] =
    "usage: csearch CONFIG [options]\n"
    "       csearch compare CONFIG [options]\n"
    "       csearch merge CONFIG [--set KEY=VALUE]... [--json] LOG...\n"
    "       csearch --list | --help | --version\n"
    "\n"
    "Run the search a YAML config describes and print its result.  With a\n"
    "compare: section (csearch compare, or a config holding one) run each of\n"
    "its strategies for each of its n, print a table with ratios to the\n"
    "first strategy, and write compare.csv and compare.plot (SVG) if named.\n"
    "compare refuses the options of a single run: --checkpoint, --resume,\n"
    "--units, --trace, --trace-html, --tree, --progress.\n"
    "\n"
    "options:\n"
    "  --set KEY=VALUE   override a config key, e.g. --set params.n=12,\n"
    "                    --set strategy.select=mrv (repeatable)\n"
    "  --json            print exactly one JSON object on stdout\n"
    "                    (same as --set output.format=json)\n"
    "  --threads N       count with N threads (same as --set strategy.threads=N)\n"
    "  --checkpoint FILE append each finished work unit of a count to FILE\n"
    "  --resume FILE     skip the units FILE holds, go on appending to it\n"
    "  --units I:J       count only units I..J-1 (J past the last: to it), or\n"
    "  --units K/M       part K (from 0) of M near-equal parts; either logs its\n"
    "                    units to the --checkpoint/--resume FILE, and\n"
    "                    'csearch merge' sums such logs\n"
    "  --progress        show a progress line on stderr (default: when stderr\n"
    "                    is a terminal); --no-progress never shows it\n"
    "  --trace           print every step of the search on stdout: depth,\n"
    "                    move, the state, what happened (output.trace)\n"
    "  --trace-html FILE write a page that replays the search step by step\n"
    "                    (output.trace_html)\n"
    "  --tree FILE       write the search tree as Graphviz DOT (output.tree);\n"
    "                    both hold output.tree_max_nodes nodes at most\n"
    "  --list            list the models and the strategies each supports\n"
    "                    (with CONFIG: the models of its plugin too)\n"
    "  --help            print this help\n"
    "  --version         print the version\n"
    "\n"
    "exit status: 0 done, 1 no solution, 2 usage or config error,\n"
    "             3 stopped by a limit, 130 interrupted (Ctrl-C)\n"
    "\n"
    "merge checks that the LOGs (checkpoints or slice logs) belong to\n"
    "CONFIG (with its --set overrides), hold every unit, a unit in several\n"
    "logs with the same counts, and prints the total as a run of CONFIG\n"
    "would (seconds: the merge's own time).  Under 'mpirun -np K csearch CONFIG' rank 0 shares a\n"
    "count's units out to the other ranks and alone prints.\n"
    "\n"
    "Results go to stdout, diagnostics to stderr.  Config keys: see\n"
    "csearch --list and docs/config.md; clusters: docs/distributed.md.\n";

/* The keys the CLI reads itself, checked with the library's and the
 * model's by every cs_job_setup it makes. */
static const struct cs_option cli_keys[] = {
    {.key = "output.stats", .type = CS_OPT_BOOL, .def = "true",
     .help = "print the search statistics"},
    {.key = "output.tree_max_nodes", .type = CS_OPT_INT, .def = "2000",
     .min = 1, .max = 1000000,
     .help = "nodes the tree and the HTML page hold at most"},
    {.key = "compare", .type = CS_OPT_NODE,
     .help = "strategies to run side by side over values of n: a table, "
             "CSV and a plot (csearch compare; docs/compare.md)"},
    {.key = NULL},
};
const struct cs_option *const cli_options[] = {cli_keys, NULL};

static volatile sig_atomic_t interrupted; /* also set by rank 0 when
                                             another rank was */
static volatile sig_atomic_t signalled;   /* a signal reached this process */
static struct cs_error failure; /* the error this process ends with */
static bool failed;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
    signalled = 1;
}

static int fail(const struct cs_error *err)
{
    char line[1024];
    cs_error_format(err, line, sizeof line);
    fprintf(stderr, "csearch: %s\n", line);
    failure = *err;
    failed = true;
    return EXIT_USAGE;
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("csearch: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("; try 'csearch --help'\n", stderr);
    cs_error_set(&failure, NULL, "usage error");
    failed = true;
    return EXIT_USAGE;
}

static void print_option(const struct cs_option *opt)
{
    printf("    %-20s ", opt->key);
    if (opt->type == CS_OPT_ENUM) {
        for (int i = 0; opt->choices[i]; i++)
            printf("%s%s", i ? " | " : "", opt->choices[i]);
    } else if (opt->type == CS_OPT_INT) {
        printf("integer %.0f..%.0f%s%s", opt->min, opt->max,
               opt->all_word ? " or " : "",
               opt->all_word ? opt->all_word : "");
    } else if (opt->type == CS_OPT_REAL) {
        printf("number %g..%g", opt->min, opt->max);
    } else if (opt->type == CS_OPT_BOOL) {
        fputs("true | false", stdout);
    } else if (opt->type == CS_OPT_NODE) {
        fputs("mapping", stdout);
    } else {
        fputs("text", stdout);
    }
    if (opt->def)
        printf("  (default %s)", opt->def);
    printf("\n    %-20s %s\n", "", opt->help);
}

static int list_models(const struct cs_registry *reg)
{
    puts("models:");
    for (size_t i = 0; i < cs_registry_count(reg); i++) {
        const struct cs_model *m = cs_registry_at(reg, i);
        printf("  %s: %s\n    tasks:", m->name, m->summary);
        for (int t = CS_TASK_COUNT; t <= CS_TASK_OPTIMIZE; t++)
            if (m->tasks & CS_TASK_BIT(t))
                printf(" %s", cs_task_name((enum cs_task)t));
        putchar('\n');
        for (const struct cs_option *opt = m->options; opt->key; opt++)
            print_option(opt);
    }
    puts("\nkeys of every model:");
    for (const struct cs_option *opt = cs_framework_options; opt->key; opt++)
        print_option(opt);
    for (const struct cs_option *opt = cli_keys; opt->key; opt++)
        print_option(opt);
    return EXIT_DONE;
}

/* --set KEY=VALUE for an option that takes a value (--tree FILE). */
static int set_value(struct cs_config *cfg, const char *key, const char *value,
                     struct cs_error *err)
{
    size_t len = strlen(key) + strlen(value) + 2;
    char *assignment = malloc(len);
    if (!assignment)
        return cs_error_set(err, NULL, "out of memory");
    snprintf(assignment, len, "%s=%s", key, value);
    int rc = cs_config_set(cfg, assignment, err);
    free(assignment);
    return rc;
}

/* What the command line asks of a run besides the config. */
struct options {
    const char *checkpoint;
    bool resume;
    uint64_t slice[4]; /* --units: first, end, part, parts */
    int progress; /* -1 = when stderr is a terminal, 0 never, 1 always */
    const char *single_run; /* the first option compare cannot honour */
};

/* Options that act on one run, and why compare, which runs many, refuses
 * them rather than ignore them. */
static const struct {
    const char *option, *why;
} single_run_options[] = {
    {"--checkpoint", "checkpoints are for counts, not comparisons"},
    {"--resume", "checkpoints are for counts, not comparisons"},
    {"--units", "slices are for counts, not comparisons"},
    {"--trace", "trace one config, not a comparison"},
    {"--trace-html", "trace one config, not a comparison"},
    {"--tree", "trace one config, not a comparison"},
    {"--progress", "it shows no progress line"},
};

static const char *single_run_why(const char *option)
{
    for (size_t i = 0;
         i < sizeof single_run_options / sizeof single_run_options[0]; i++)
        if (!strcmp(option, single_run_options[i].option))
            return single_run_options[i].why;
    return NULL;
}

/* "units 1234/3206 (38.5%)  512.3 units/s  elapsed 2.4s  ETA 3.9s" */
static void show_progress(void *ud, const struct cs_progress *p)
{
    (void)ud;
    uint64_t fresh = p->units_done - p->units_resumed;
    double rate = p->elapsed > 0 ? (double)fresh / p->elapsed : 0;
    double left = rate > 0 ? (double)(p->units_total - p->units_done) / rate
                           : 0;
    fprintf(stderr,
            "\rcsearch: units %" PRIu64 "/%" PRIu64 " (%.1f%%)  %.1f units/s"
            "  elapsed %.1fs  ETA %.1fs\033[K",
            p->units_done, p->units_total,
            p->units_total ? 100.0 * (double)p->units_done /
                                 (double)p->units_total
                           : 100.0,
            rate, p->elapsed, left);
    fflush(stderr);
}

static int exit_status(const struct cs_run *run)
{
    switch (run->status) {
    case CS_LIMIT:
        return EXIT_LIMIT;
    case CS_INTERRUPTED:
        return EXIT_INTERRUPTED;
    default: /* a slice is done when its units are: merge has the answer */
        return run->stats.solutions || run->slice_end || run->slice_parts
                   ? EXIT_DONE
                   : EXIT_NO_SOLUTION;
    }
}

/* A batch: every instance in input order, one line each, then a summary.
 * Exit status: 130 stopped, 2 some instance invalid, 3 some stopped by a
 * node or time limit, 1 some without a solution, else 0. */
static struct out *batch_out;
static struct batch_summary batch_sum;

static void on_batch_result(void *ud, const struct cs_batch_result *r)
{
    (void)ud;
    out_batch_result(batch_out, r, &batch_sum);
}

static int run_batch(struct cs_job *job, struct out *out)
{
    struct cs_error err;
    memset(&batch_sum, 0, sizeof batch_sum);
    batch_out = out;
    double started = cs_now();
    if (cs_batch_run(job, &interrupted, on_batch_result, NULL,
                     &batch_sum.stopped, &err))
        return fail(&err);
    batch_sum.seconds = cs_now() - started;
    out_batch_end(out, &batch_sum);
    if (batch_sum.stopped)
        return EXIT_INTERRUPTED;
    if (batch_sum.invalid)
        return EXIT_USAGE;
    if (batch_sum.limited)
        return EXIT_LIMIT;
    return batch_sum.none ? EXIT_NO_SOLUTION : EXIT_DONE;
}

/* SA_RESTART: a write to a slow pipe must not fail with EINTR and lose
 * buffered output when Ctrl-C arrives */
static void catch_sigint(void)
{
    struct sigaction sa = {.sa_handler = on_sigint,
                           .sa_flags = (int)(SA_RESETHAND | SA_RESTART)};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    /* mpirun passes Ctrl-C on to the ranks as SIGTERM (SIGKILL later) */
    if (cs_dist_size() > 1)
        sigaction(SIGTERM, &sa, NULL);
}

/* csearch compare CONFIG, or a config with a compare: section */
static int run_compare(const struct cs_config *cfg, const char *path,
                       const char *const *sets, int nsets,
                       const struct cs_registry *reg,
                       const struct options *opts)
{
    struct cs_error err;
    if (opts->single_run) {
        cs_error_set(&err, NULL, "compare cannot take %s: %s",
                     opts->single_run, single_run_why(opts->single_run));
        return fail(&err);
    }
    /* the same traces asked for in the config or with --set */
    static const char *const traces[] = {"output.trace", "output.trace_html",
                                         "output.tree"};
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        const char *text = cs_node_text(cs_config_node(cfg, traces[i]));
        if (text && strcmp(text, "false") && (i || !strcmp(text, "true"))) {
            cs_error_at(&err, cs_config_pos(cfg, traces[i]),
                        "compare cannot take '%s': trace one config, not a "
                        "comparison",
                        traces[i]);
            return fail(&err);
        }
    }
    catch_sigint();
    int status = compare_run(cfg, path, sets, nsets, reg, &interrupted, &err);
    return status < 0 ? fail(&err) : status;
}

static int run_config(struct cs_config *cfg, const struct cs_registry *reg,
                      const struct options *opts)
{
    struct cs_error err;
    struct cs_job job;
    if (cs_job_setup(&job, cfg, reg, cli_options, &err))
        return fail(&err);

    struct out out;
    out_init(&out, &job, cfg);
    struct cs_run run;
    cs_job_run(&job, &run);
    run.stop = &interrupted;
    run.on_solution = out_solution;
    run.ud = &out;
    run.checkpoint = opts->checkpoint;
    run.resume = opts->resume;
    run.slice_first = opts->slice[0];
    run.slice_end = opts->slice[1];
    run.slice_part = opts->slice[2];
    run.slice_parts = opts->slice[3];
    bool progress = opts->progress < 0 ? isatty(STDERR_FILENO) : opts->progress;
    if (progress)
        run.on_progress = show_progress;
    struct traces traces;
    if (traces_open(&traces, &job, cfg, &run, &err)) {
        cs_job_free(&job);
        return fail(&err);
    }

    catch_sigint();

    int status;
    if (job.problem.setup_instance) {
        if (opts->checkpoint) {
            cs_error_set(&err, NULL, "checkpoints are for counts, not "
                                     "batches");
            status = fail(&err);
        } else {
            status = run_batch(&job, &out);
        }
        cs_board_free(&out.board);
        cs_job_free(&job);
        return status;
    }
    int rc = cs_search(&run, &err);
    bool traces_failed = !rc && traces_end(&traces, &run);
    traces_close(&traces, rc != 0);
    if (progress && run.units_total)
        fputs("\r\033[K", stderr); /* clear the progress line */
    if (run.checkpoint_torn)
        fprintf(stderr,
                "csearch: %s: dropped a torn last line; its unit is searched "
                "again\n",
                opts->checkpoint);
    if (rc) {
        status = fail(&err);
    } else {
        out_end(&out, &run);
        status = traces_failed ? EXIT_USAGE : exit_status(&run);
    }
    cs_board_free(&out.board);
    cs_job_free(&job);
    return status;
}

/* --units I:J or K/M into opts->slice: NULL, or why not (a format for
 * the argument).  0:0 and 5:3 are refused here: slice_end 0 means "no
 * slice" to the engine, so an empty slice would count everything. */
static const char *parse_units(const char *v, struct options *opts)
{
    const char *malformed = "--units wants I:J or K/M, got '%s'";
    unsigned long long n[2];
    const char *p = v;
    char sep = 0;
    for (int k = 0; k < 2; k++) {
        char *end;
        if (*p < '0' || *p > '9')
            return malformed;
        errno = 0;
        n[k] = strtoull(p, &end, 10);
        if (errno == ERANGE)
            return "--units %s: a number beyond 2^64-1";
        p = end;
        if (!k && *p != ':' && *p != '/')
            return malformed;
        if (!k)
            sep = *p++;
    }
    if (*p || (sep == '/' && !n[1]))
        return malformed;
    if (sep == ':' && n[1] <= n[0])
        return "units %s is an empty slice";
    memset(opts->slice, 0, sizeof opts->slice);
    opts->slice[sep == ':' ? 0 : 2] = n[0];
    opts->slice[sep == ':' ? 1 : 3] = n[1];
    return NULL;
}

/* The merged logs of the config job runs: its fingerprint, every unit;
 * then the count's result as a run of that config would print it. */
static int merge_logs(const struct cs_job *job, const struct cs_config *cfg,
                      const char *path, const char **logs, int n,
                      double started)
{
    struct cs_merge m;
    struct cs_error err;
    if (cs_merge_logs(logs, n, &m, &err))
        return fail(&err);
    if (m.fingerprint != job->fingerprint) {
        cs_error_set(&err, NULL,
                     "merge: the logs belong to another config than %s "
                     "(fingerprint %016" PRIx64 ", the config %016" PRIx64
                     ")",
                     path, m.fingerprint, job->fingerprint);
        return fail(&err);
    }
    if (m.torn)
        fprintf(stderr, "csearch: merge: ignored the torn last line of %d "
                        "log(s)\n", m.torn);
    if (m.present < m.units) {
        cs_error_set(&err, NULL,
                     "merge: %" PRIu64 " of %" PRIu64 " units missing: %s",
                     m.units - m.present, m.units, m.missing);
        return fail(&err);
    }
    /* every unit was taken from a log: resumed, in a run's words */
    struct cs_run run = {.status = CS_COMPLETE, .stats = m.total,
                         .units_total = m.units, .units_end = m.units,
                         .units_done = m.present, .units_resumed = m.present};
    run.stats.seconds = cs_now() - started;
    struct out out;
    out_init(&out, job, cfg);
    out_end(&out, &run);
    cs_board_free(&out.board);
    return m.total.solutions ? EXIT_DONE : EXIT_NO_SOLUTION;
}

/* csearch merge CONFIG [--set KEY=VALUE]... [--json] LOG... */
static int merge(int argc, char **argv)
{
    double started = cs_now();
    const char *path = NULL;
    int n = 0, nsets = 0, status = EXIT_USAGE;
    const char **logs = calloc((size_t)argc + 1, sizeof *logs);
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    for (int i = 0; logs && sets && i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            sets[nsets++] = "output.format=json";
        else if (!strcmp(argv[i], "--set") && i + 1 < argc)
            sets[nsets++] = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) {
            status = usage_error("unknown merge option '%s'", argv[i]);
            goto out;
        } else if (!path)
            path = argv[i];
        else
            logs[n++] = argv[i];
    }
    if (!n) {
        status = usage_error("%s", "merge needs a CONFIG and at least one "
                                   "LOG");
        goto out;
    }
    struct cs_error err;
    struct cs_registry *reg = cs_registry_new();
    struct cs_config *cfg = NULL;
    int bad = cs_register_builtin_models(reg, &err) ||
              cs_config_load(&cfg, path, &err);
    for (int i = 0; i < nsets && !bad; i++)
        bad = cs_config_set(cfg, sets[i], &err);
    if (!bad)
        bad = cs_registry_load_config_plugin(reg, cfg, &err);
    struct cs_job job;
    if (!bad && !(bad = cs_job_setup(&job, cfg, reg, cli_options, &err))) {
        status = merge_logs(&job, cfg, path, logs, n, started);
        cs_job_free(&job);
    }
    if (bad)
        status = fail(&err);
    cs_config_free(cfg);
    cs_registry_free(reg);
out:
    free(logs);
    free(sets);
    return status;
}

static int csearch_main(int argc, char **argv)
{
    const char *path = NULL;
    const char **sets = calloc((size_t)argc, sizeof *sets);
    int nsets = 0, json = 0, list = 0, compare = 0;
    struct options opts = {.progress = -1};
    char threads_set[64] = "";
    const char *trace_keys[] = {"output.trace", "output.trace_html",
                                "output.tree"};
    const char *trace_values[3] = {NULL, NULL, NULL}; /* from the options */
    if (!sets)
        return EXIT_USAGE;
    if (argc > 1 && !strcmp(argv[1], "merge")) {
        free(sets);
        return merge(argc - 2, argv + 2);
    }

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!opts.single_run && single_run_why(a))
            opts.single_run = a;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            free(sets);
            return EXIT_DONE;
        } else if (!strcmp(a, "--version")) {
            printf("csearch %s\n", CSEARCH_VERSION);
            free(sets);
            return EXIT_DONE;
        } else if (!strcmp(a, "--list")) {
            list = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--set")) {
            if (i + 1 == argc) {
                free(sets);
                return usage_error("%s needs KEY=VALUE", a);
            }
            sets[nsets++] = argv[++i];
        } else if (!strncmp(a, "--set=", 6)) {
            sets[nsets++] = a + 6;
        } else if (!strcmp(a, "--threads") || !strcmp(a, "--checkpoint") ||
                   !strcmp(a, "--resume") || !strcmp(a, "--units")) {
            if (i + 1 == argc) {
                free(sets);
                return usage_error("%s needs a value", a);
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--threads")) {
                snprintf(threads_set, sizeof threads_set,
                         "strategy.threads=%s", v);
            } else if (!strcmp(a, "--units")) {
                const char *why = parse_units(v, &opts);
                if (why) {
                    free(sets);
                    return usage_error(why, v);
                }
            } else {
                opts.checkpoint = v;
                opts.resume = !strcmp(a, "--resume");
            }
        } else if (!strcmp(a, "--trace")) {
            trace_values[0] = "true";
        } else if (!strcmp(a, "--trace-html") || !strcmp(a, "--tree")) {
            if (i + 1 == argc) {
                free(sets);
                return usage_error("%s needs a FILE", a);
            }
            trace_values[!strcmp(a, "--tree") ? 2 : 1] = argv[++i];
        } else if (!strcmp(a, "--progress")) {
            opts.progress = 1;
        } else if (!strcmp(a, "--no-progress")) {
            opts.progress = 0;
        } else if (!strcmp(a, "compare") && !path && !compare) {
            compare = 1;
        } else if (a[0] == '-' && a[1]) {
            free(sets);
            return usage_error("unknown option '%s'", a);
        } else if (path) {
            free(sets);
            return usage_error("one CONFIG at a time, got '%s' too", a);
        } else {
            path = a;
        }
    }

    struct cs_error err;
    struct cs_registry *reg = cs_registry_new();
    int status = EXIT_USAGE;
    if (cs_register_builtin_models(reg, &err)) {
        status = fail(&err);
    } else if (list && !path) {
        status = list_models(reg);
    } else if (!path) {
        status = usage_error("%s", "missing CONFIG");
    } else {
        struct cs_config *cfg = NULL;
        if (cs_config_load(&cfg, path, &err)) {
            status = fail(&err);
        } else {
            /* --json and --threads as the last overrides (room: each took
             * an argument) */
            if (json)
                sets[nsets++] = "output.format=json";
            if (threads_set[0])
                sets[nsets++] = threads_set;
            int bad = 0;
            for (int i = 0; i < nsets && !bad; i++)
                bad = cs_config_set(cfg, sets[i], &err);
            for (int k = 0; k < 3 && !bad; k++)
                if (trace_values[k])
                    bad = set_value(cfg, trace_keys[k], trace_values[k], &err);
            if (!bad)
                bad = cs_registry_load_config_plugin(reg, cfg, &err);
            if (bad)
                status = fail(&err);
            else if (list)
                status = list_models(reg); /* the plugin's models too */
            else if (compare || cs_config_node(cfg, "compare"))
                status = run_compare(cfg, path, sets, nsets, reg, &opts);
            else
                status = run_config(cfg, reg, &opts);
        }
        cs_config_free(cfg);
    }
    cs_registry_free(reg);
    free(sets);
    if (fflush(stdout) || ferror(stdout)) {
        perror("csearch: cannot write the output");
        return EXIT_USAGE;
    }
    return status;
}

int main(int argc, char **argv)
{
    /* under mpirun every rank runs the command; rank 0 alone speaks */
    int rank = cs_dist_init(&argc, &argv);
    if (rank < 0) {
        fputs("csearch: started by mpirun as one of several processes, but "
              "built without MPI\n",
              stderr);
        return EXIT_USAGE;
    }
    if (rank > 0 && (!freopen("/dev/null", "w", stdout) ||
                     !freopen("/dev/null", "w", stderr)))
        return EXIT_USAGE;
    int status = csearch_main(argc, argv);
    if (status == EXIT_INTERRUPTED && signalled && cs_dist_size() > 1) {
        /* mpirun is tearing the job down: MPI_Finalize would wait for it
         * until its SIGKILL; the results are printed and logged already */
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    cs_dist_finish(failed ? &failure : NULL);
    return status;
}
