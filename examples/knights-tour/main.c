/* main.c - knights-tour: the knight model as a program of its own.
 *
 * usage: knights-tour [ROWSxCOLS [START [closed]]]      (default 8x8 a1)
 *
 * Builds its config in code, with no YAML file, finds one tour with
 * Warnsdorff's rule and prints the board with the move numbers, the files
 * and ranks labelled, then one line of counts.  Bad arguments get the
 * library's own messages ("'params.rows' must be between 1 and 8, not 9").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <csearch/job.h>

#include "knight.h"

struct tour {
    int rows;
    struct cs_board board;
};

/* Keep the tour the search found: the model's lines, last rank first. */
static bool keep_tour(void *ud, const struct cs_hooks *hooks, const void *state,
                      uint64_t weight)
{
    struct tour *t = ud;
    (void)weight;
    cs_board_clear(&t->board);
    hooks->emit(state, 0, &t->board);
    return true;
}

static void print_tour(const struct tour *t)
{
    for (size_t i = 0; i < t->board.count; i++)
        printf("%2d %s\n", t->rows - (int)i, t->board.lines[i]);
    fputs("  ", stdout);
    for (size_t c = 0; c < strlen(t->board.lines[0]) / 3; c++)
        printf("  %c", (char)('a' + c));
    putchar('\n');
}

/* The config, one key at a time, as --set would write it. */
static int build_config(struct cs_config *cfg, int argc, char **argv,
                        struct cs_error *err)
{
    char set[128], rows[16] = "8", cols[16] = "8";
    if (argc > 1 && sscanf(argv[1], "%15[^x]x%15s", rows, cols) != 2)
        return cs_error_set(err, NULL, "'%s' is not ROWSxCOLS, as 8x8",
                            argv[1]);
    const char *start = argc > 2 ? argv[2] : "a1";
    const char *closed =
        argc > 3 && !strcmp(argv[3], "closed") ? "true" : "false";
    if (argc > 4 || (argc > 3 && strcmp(argv[3], "closed")))
        return cs_error_set(err, NULL,
                            "usage: knights-tour [ROWSxCOLS [START [closed]]]");
    const char *const fixed[] = {"model=knight", "task=solve",
                                 "strategy.order=warnsdorff"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        if (cs_config_set(cfg, fixed[i], err))
            return -1;
    const char *const keys[] = {"params.rows", "params.cols", "params.start",
                                "params.closed"};
    const char *const values[] = {rows, cols, start, closed};
    for (size_t i = 0; i < 4; i++) {
        snprintf(set, sizeof set, "%s=%s", keys[i], values[i]);
        if (cs_config_set(cfg, set, err))
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct cs_error err;
    struct cs_registry *reg = cs_registry_new();
    struct cs_config *cfg = cs_config_new("knights-tour");
    struct tour tour = {0};
    struct cs_job job;
    struct cs_spec spec;
    struct cs_result run;
    int status = 2;

    if (cs_registry_add(reg, &knight_model, &err) ||
        build_config(cfg, argc, argv, &err) ||
        cs_job_setup(&job, cfg, reg, NULL, &err))
        goto fail;
    tour.rows = (int)cs_config_int(cfg, "params.rows");
    cs_job_spec(&job, &spec, NULL);
    spec.on_solution = keep_tour;
    spec.ud = &tour;
    if (cs_search(&spec, NULL, &run, &err)) {
        cs_job_free(&job);
        goto fail;
    }
    if (run.stats.solutions) {
        print_tour(&tour);
        status = 0;
    } else {
        puts("no tour");
        status = 1;
    }
    printf("%" PRIu64 " nodes, %" PRIu64 " checks, %" PRIu64 " fails\n",
           run.stats.nodes, run.stats.checks, run.stats.fails);
    cs_job_free(&job);
    goto done;
fail : {
    char line[1024];
    cs_error_format(&err, line, sizeof line);
    fprintf(stderr, "knights-tour: %s\n", line);
}
done:
    cs_board_free(&tour.board);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return status;
}
