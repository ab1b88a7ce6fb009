/* main.c - the csearch command: its options, then a config to run.
 *
 * One table holds the options: the parser reads argv by it, --help prints
 * it, and compare refuses the options the table marks as a single run's.
 * Every failure before the search is one line on stderr and exit status 2
 * with nothing on stdout; after it the status says how the search ended.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "csearch/dist.h"

#ifndef CSEARCH_VERSION
#define CSEARCH_VERSION "0.0.0"
#endif

/* What an option does.  KEY options become the override "key=ARG" (or key
 * as it stands, without ARG), applied after every --set in table order. */
enum action {
    SET,
    KEY,
    CHECKPOINT,
    RESUME,
    UNITS,
    PROGRESS,
    NO_PROGRESS,
    QUIET,
    LIST,
    MARKDOWN,
    HELP,
    VERSION,
    END
};

static const struct flag {
    const char *name, *arg; /* arg: what follows it in --help, or NULL */
    enum action action;
    const char *key;    /* KEY: the override */
    const char *single; /* why compare, which runs many, refuses it */
    bool merge;         /* csearch merge takes it too */
    const char *help;   /* lines; "FORM\tTEXT" shows another form of
                           it; NULL: told with the option before */
} flags[] = {
    {"--set", "KEY=VALUE", SET, NULL, NULL, true,
     "override a config key, e.g. --set params.n=12,\n"
     "--set strategy.select=mrv (repeatable)"},
    {"--json", NULL, KEY, "output.format=json", NULL, true,
     "print exactly one JSON object on stdout\n"
     "(same as --set output.format=json)"},
    {"--threads", "N", KEY, "strategy.threads", NULL, false,
     "N threads: a count in units, a batch's instances, or a\n"
     "portfolio for solve and optimize (--set strategy.threads=N)"},
    {"--seed", "N", KEY, "strategy.seed", NULL, false,
     "the seed of restarts, shuffled orders and portfolios\n"
     "(same as --set strategy.seed=N)"},
    {"--checkpoint", "FILE", CHECKPOINT, NULL,
     "checkpoints are for counts, not comparisons", false,
     "append each finished work unit of a count to FILE"},
    {"--resume", "FILE", RESUME, NULL,
     "checkpoints are for counts, not comparisons", false,
     "skip the units FILE holds, go on appending to it"},
    {"--units", "I:J", UNITS, NULL, "slices are for counts, not comparisons",
     false,
     "count only units I..J-1 (J past the last: to it), or\n"
     "--units K/M\tpart K (from 0) of M near-equal parts; either logs its\n"
     "units to the --checkpoint/--resume FILE, and\n"
     "'csearch merge' sums such logs"},
    {"--progress", NULL, PROGRESS, NULL, "it shows no progress line", false,
     "show a progress line on stderr (default: when stderr\n"
     "is a terminal; forced onto a file: a line per report,\n"
     "4 a second at most); --no-progress never shows it"},
    {"--no-progress", NULL, NO_PROGRESS, NULL, NULL, false, NULL},
    {"--quiet", NULL, QUIET, NULL, "a comparison's result is its table", true,
     "print only the result: the solutions (boards, counts,\n"
     "cost), no status line, statistics or progress line"},
    {"-q", NULL, QUIET, NULL, "a comparison's result is its table", true, NULL},
    {"--trace", NULL, KEY, "output.trace=true",
     "trace one config, not a comparison", false,
     "print every step of the search on stdout: depth,\n"
     "move, the state, what happened (output.trace)"},
    {"--trace-html", "FILE", KEY, "output.trace_html",
     "trace one config, not a comparison", false,
     "write a page that replays the search step by step\n"
     "(output.trace_html)"},
    {"--profile", NULL, KEY, "output.profile=true",
     "profile one config, not a comparison", false,
     "print nodes, fails and solutions per depth after the\n"
     "search (output.profile; on the generic engine, one thread,\n"
     "or on a counting kernel's own tree)"},
    {"--tree", "FILE", KEY, "output.tree", "trace one config, not a comparison",
     false,
     "write the search tree as Graphviz DOT (output.tree);\n"
     "the page holds output.tree_max_nodes nodes, the graph 2000"},
    {"--profiler", "[HOST:]PORT", KEY, "output.profiler",
     "trace one config, not a comparison", false,
     "stream the search tree live to CP-Profiler (the\n"
     "MiniZinc IDE's profiler; port 6565 by default there);\n"
     "host 127.0.0.1 unless given (output.profiler)"},
    {"--list", NULL, LIST, NULL, NULL, false,
     "list the models and the strategies each supports\n"
     "(with CONFIG: the models of its plugin too)"},
    {"--markdown", NULL, MARKDOWN, NULL, NULL, false,
     "with --list: the same as markdown tables, the key\n"
     "reference docs/keys.md is made of"},
    {"--help", NULL, HELP, NULL, NULL, false, "print this help"},
    {"-h", NULL, HELP, NULL, NULL, false, NULL},
    {"--version", NULL, VERSION, NULL, NULL, false, "print the version"},
    {"--", NULL, END, NULL, NULL, true,
     "end the options: what follows is CONFIG (and LOGs),\n"
     "even if it starts with '-' (CONFIG - is standard input)"},
};
#define NFLAGS (sizeof flags / sizeof flags[0])

static const char help_head[] =
    "usage: csearch CONFIG [options]\n"
    "       csearch compare CONFIG [options]\n"
    "       csearch merge CONFIG [--set KEY=VALUE]... [--json] LOG...\n"
    "       csearch --list [--markdown] | --help | --version\n"
    "\n"
    "Run the search a YAML config describes and print its result.  With a\n"
    "compare: section (csearch compare, or a config holding one) run each of\n"
    "its strategies for each of its n, print a table with ratios to the\n"
    "first strategy, and write compare.csv and compare.plot (SVG) if named.\n";

static const char help_tail[] =
    "\n"
    "exit status: 0 done, 1 no solution, 2 usage or config error,\n"
    "             3 stopped by a limit, 70 internal error (a solution\n"
    "             failed its check), 130 interrupted (Ctrl-C), 143\n"
    "             terminated (SIGTERM); both print the results so far\n"
    "\n"
    "merge checks that the LOGs (checkpoints or slice logs) belong to\n"
    "CONFIG (with its --set overrides), hold every unit, a unit in several\n"
    "logs with the same counts, and prints the total as a run of CONFIG\n"
    "would (seconds: the merge's own time).  Under 'mpirun -np K csearch "
    "CONFIG' rank 0 shares a\n"
    "count's units out to the other ranks and alone prints.\n"
    "\n"
    "Results go to stdout, diagnostics to stderr.  Config keys: see\n"
    "csearch --list and docs/keys.md; configs: docs/config.md; clusters:\n"
    "docs/distributed.md.\n";

static void print_help(void)
{
    fputs(help_head, stdout);
    int col = printf("compare refuses the options of a single run:");
    const char *comma = "";
    for (size_t k = 0; k < NFLAGS; k++) {
        if (!flags[k].single)
            continue;
        int len = (int)strlen(flags[k].name) + 1; /* with its comma */
        col += printf("%s", comma) + 1;
        if (col + len > 72)
            col = 0;
        putchar(col ? ' ' : '\n');
        col += printf("%s", flags[k].name);
        comma = ",";
    }
    puts(".\n\noptions:");
    for (size_t k = 0; k < NFLAGS; k++) {
        char head[64], other[64];
        snprintf(head, sizeof head, "%s%s%s", flags[k].name,
                 flags[k].arg ? " " : "", flags[k].arg ? flags[k].arg : "");
        const char *line = flags[k].help, *form = head;
        while (line && *line) {
            size_t len = strcspn(line, "\n");
            const char *tab = memchr(line, '\t', len);
            if (tab) { /* FORM\tTEXT */
                snprintf(other, sizeof other, "%.*s", (int)(tab - line), line);
                form = other;
                len -= (size_t)(tab + 1 - line);
                line = tab + 1;
            }
            printf("  %-17s %.*s\n", form, (int)len, line);
            form = "";
            line += len + (line[len] == '\n');
        }
    }
    fputs(help_tail, stdout);
}

/* --units I:J or K/M into slice: NULL, or why not (a format for the
 * argument).  0:0 and 5:3 are refused here: slice_end 0 means "no slice"
 * to the engine, so an empty slice would count everything. */
static const char *parse_units(const char *v, uint64_t slice[4])
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
    memset(slice, 0, 4 * sizeof *slice);
    slice[sep == ':' ? 0 : 2] = n[0];
    slice[sep == ':' ? 1 : 3] = n[1];
    return NULL;
}

/* The command line, read. */
struct cmdline {
    const char *path, **sets, **logs; /* sets: --set, then the KEY options */
    int nsets, nlogs;
    char *keys[NFLAGS]; /* each KEY option's override */
    bool list, markdown, compare;
    int progress;                /* -1: when stderr is a terminal */
    const char *progress_flag;   /* the one given, for a contradiction */
    const char *checkpoint_flag; /* --checkpoint or --resume, if any */
    bool quiet;
    const struct flag *single; /* the first that compare refuses */
    struct search_opts run;
};

/* "--name" or "--name=ARG"; *arg is set to ARG. */
static const struct flag *find_flag(const char *a, const char **arg)
{
    const char *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    for (size_t k = 0; k < NFLAGS; k++) {
        if (strncmp(flags[k].name, a, len) || flags[k].name[len])
            continue;
        if (eq && !flags[k].arg)
            return NULL; /* "--json=x" */
        *arg = eq ? eq + 1 : NULL;
        return &flags[k];
    }
    return NULL;
}

/* argv by the table; -1 to go on, else the exit status to end with. */
static int parse(int argc, char **argv, bool merge, struct cmdline *cl)
{
    bool options = true; /* until "--" */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        bool option = options && a[0] == '-' && a[1];
        const struct flag *f = option ? find_flag(a, &v) : NULL;
        if (option && (!f || (merge && !f->merge)))
            return cli_usage_error(
                merge ? "unknown merge option '%s'" : "unknown option '%s'", a);
        if (!f) { /* the word compare, the CONFIG, or a LOG */
            if (!*a)
                return cli_usage_error("an empty argument names no %s",
                                       cl->path && merge ? "LOG" : "CONFIG");
            if (!merge && !strcmp(a, "compare") && !cl->path && !cl->compare)
                cl->compare = true;
            else if (cl->path && !merge)
                return cli_usage_error("one CONFIG at a time, got '%s' too", a);
            else if (cl->path)
                cl->logs[cl->nlogs++] = a;
            else
                cl->path = a;
            continue;
        }
        if (f->arg && !v && i + 1 == argc)
            return cli_usage_error("%s needs %s", a,
                                   strchr(f->arg, '=')      ? f->arg
                                   : strcmp(f->arg, "FILE") ? "a value"
                                                            : "a FILE");
        if (f->arg && !v)
            v = argv[++i];
        if (f->arg && !strcmp(f->arg, "FILE") && !*v)
            return cli_usage_error("%s needs a FILE, not an empty name",
                                   f->name);
        if (f->single && !cl->single)
            cl->single = f;
        const char *why;
        switch (f->action) {
        case SET:
            /* `--set params.n 12`: the value went astray (a word after it
             * that the CONFIG is not, or may not be) */
            if (!strchr(v, '=') && i + 1 < argc && argv[i + 1][0] != '-' &&
                (cl->path || (i + 2 < argc && argv[i + 2][0] != '-'))) {
                struct cs_error err;
                cs_error_set(&err, "--set",
                             "expected KEY=VALUE, got '%s'; write --set %s=%s",
                             v, v, argv[i + 1]);
                return cli_fail(&err);
            }
            cl->sets[cl->nsets++] = v;
            break;
        case KEY: {
            char **key = &cl->keys[f - flags];
            free(*key);
            *key = cs_xmalloc(strlen(f->key) + (v ? strlen(v) + 2 : 1));
            sprintf(*key, "%s%s%s", f->key, v ? "=" : "", v ? v : "");
            break;
        }
        case CHECKPOINT:
        case RESUME:
            if (cl->checkpoint_flag)
                return cli_usage_error("%s %s and %s %s contradict each other "
                                       "(one log: --checkpoint starts it, "
                                       "--resume continues it)",
                                       cl->checkpoint_flag, cl->run.checkpoint,
                                       a, v);
            cl->checkpoint_flag = f->name;
            cl->run.checkpoint = v;
            cl->run.resume = f->action == RESUME;
            break;
        case UNITS:
            if ((why = parse_units(v, cl->run.slice)))
                return cli_usage_error(why, v);
            break;
        case PROGRESS:
        case NO_PROGRESS:
            if (cl->progress_flag && strcmp(cl->progress_flag, a))
                return cli_usage_error("%s and %s contradict each other",
                                       cl->progress_flag, a);
            cl->progress_flag = f->name;
            cl->progress = f->action == PROGRESS;
            break;
        case QUIET:
            cl->quiet = true;
            break;
        case END:
            options = false;
            break;
        case LIST:
            cl->list = true;
            break;
        case MARKDOWN:
            cl->markdown = true;
            break;
        case HELP:
            print_help();
            return CLI_EXIT_DONE;
        case VERSION:
            if (argc > 1)
                return cli_usage_error("--version takes nothing else, got '%s'",
                                       argv[i ? 0 : 1]);
            printf("csearch %s\n", CSEARCH_VERSION);
            return CLI_EXIT_DONE;
        }
    }
    if (cl->quiet && cl->progress == 1)
        return cli_usage_error("%s", "--quiet and --progress contradict each "
                                     "other");
    if (cl->quiet)
        cl->progress = 0;
    cl->run.quiet = cl->quiet;
    /* --json is output.format=json: a --set of another format says the
     * opposite (the config file's own format is what both override) */
    const char *unused;
    size_t json_flag = (size_t)(find_flag("--json", &unused) - flags);
    for (int i = 0; cl->keys[json_flag] && i < cl->nsets; i++)
        if (!strncmp(cl->sets[i], "output.format=", 14) &&
            strcmp(cl->sets[i] + 14, "json"))
            return cli_usage_error("--json and --set %s contradict each other",
                                   cl->sets[i]);
    for (size_t k = 0; k < NFLAGS; k++)
        if (cl->keys[k])
            cl->sets[cl->nsets++] = cl->keys[k];
    if (merge && !cl->nlogs)
        return cli_usage_error("%s",
                               "merge needs a CONFIG and at least one LOG");
    if (cl->markdown && !cl->list)
        return cli_usage_error("%s", "--markdown goes with --list");
    if (!merge && !cl->path && !cl->list)
        return cli_usage_error("%s", "missing CONFIG");
    return -1;
}

/* compare's one run of a job: the search of a single run, printing
 * nothing (traced for compare.tree_html) */
static int search_once(void *ud, const struct cs_job *job,
                       struct cs_tracer *tracer, struct cs_result *r,
                       struct cs_error *err)
{
    const struct search_opts plain = {.tracer = tracer};
    (void)ud;
    return cli_search(job, &plain, r, err);
}

/* csearch compare CONFIG, or a config with a compare: section */
static int run_compare(struct cs_config *cfg, const struct cmdline *cl,
                       const struct cs_registry *reg)
{
    struct cs_error err;
    if (cl->single) {
        cs_error_set(&err, NULL, "compare cannot take %s: %s", cl->single->name,
                     cl->single->single);
        return cli_fail(&err);
    }
    if (!strcmp(cl->path, "-")) {
        cs_error_set(&err, NULL,
                     "compare reads CONFIG again for each run: "
                     "give a file, not - (standard input)");
        return cli_fail(&err);
    }
    cli_catch_sigint();
    const struct compare_request req = {cl->path,    cl->sets,    cl->nsets,
                                        cli_options, search_once, NULL};
    enum cs_status done;
    if (compare_run(&req, cfg, reg, &done, &err))
        return cli_fail(&err);
    return done == CS_INTERRUPTED ? cli_interrupted_status()
           : done == CS_LIMIT     ? CLI_EXIT_LIMIT
                                  : CLI_EXIT_DONE;
}

static int csearch_main(int argc, char **argv)
{
    /* a closed stdout (>&-) would be found only at the end of the search,
     * and a file opened meanwhile would take its descriptor */
    if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
        struct cs_error err;
        cs_error_set(&err, NULL,
                     "standard output is closed: the results would be lost "
                     "(redirect it, e.g. >/dev/null)");
        return cli_fail(&err);
    }
    bool merge = argc > 1 && !strcmp(argv[1], "merge");
    struct cmdline cl = {.progress = -1};
    cl.sets = cs_xcalloc((size_t)argc + NFLAGS, sizeof *cl.sets);
    cl.logs = cs_xcalloc((size_t)argc, sizeof *cl.logs);
    int status = parse(argc - 1 - merge, argv + 1 + merge, merge, &cl);

    struct cs_error err;
    struct cs_registry *reg = cs_registry_new();
    struct cs_config *cfg = NULL;
    if (status >= 0) {
        /* the usage is settled */
    } else if (cs_register_builtin_models(reg, &err)) {
        status = cli_fail(&err);
    } else if (!cl.path) {
        status = cli_list(reg, cl.markdown);
    } else {
        int bad = cs_config_load(&cfg, cl.path, &err);
        for (int i = 0; i < cl.nsets && !bad; i++)
            bad = cs_config_set(cfg, cl.sets[i], &err);
        if (bad || cs_registry_load_config_plugin(reg, cfg, &err))
            status = cli_fail(&err);
        else if (merge)
            status = cli_run(cfg, reg, &cl.run, cl.logs, cl.nlogs);
        else if (cl.list) /* the plugin's models too */
            status = cli_list(reg, cl.markdown);
        else if (cl.compare || cs_config_node(cfg, "compare"))
            status = run_compare(cfg, &cl, reg);
        else {
            bool terminal = isatty(STDERR_FILENO);
            cl.run.progress = cl.progress < 0 ? terminal : cl.progress;
            cl.run.progress_lines = !terminal;
            status = cli_run(cfg, reg, &cl.run, NULL, 0);
        }
    }
    cs_config_free(cfg);
    cs_registry_free(reg);
    for (size_t k = 0; k < NFLAGS; k++)
        free(cl.keys[k]);
    free(cl.sets);
    free(cl.logs);
    if (fflush(stdout) || ferror(stdout)) {
        perror("csearch: cannot write the output");
        return CLI_EXIT_USAGE;
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
        return CLI_EXIT_USAGE;
    }
    if (rank > 0 && (!freopen("/dev/null", "w", stdout) ||
                     !freopen("/dev/null", "w", stderr)))
        return CLI_EXIT_USAGE;
    int status = csearch_main(argc, argv);
    if (status == CLI_EXIT_INTERRUPTED && cli_signalled && rank == 0 &&
        cs_dist_size() > 1) {
        /* mpirun is tearing the job down: MPI_Finalize would wait for it
         * until its SIGKILL; the results are printed and logged already.
         * Once a rank has exited non-zero, mpirun kills the others at once,
         * so the other ranks wait in MPI_Finalize and rank 0 goes first,
         * never killed mid-report (a report cut short or missing, seen
         * under load).  mpirun reads rank 0's stdout through a terminal and
         * may end before it has passed all of it on: a fifth of a second
         * gives it time to read. */
        fflush(stdout);
        fflush(stderr);
        if (isatty(STDOUT_FILENO))
            nanosleep(&(struct timespec){.tv_nsec = 200000000}, NULL);
        _exit(status);
    }
    cs_dist_finish(cli_failure());
    return status;
}
