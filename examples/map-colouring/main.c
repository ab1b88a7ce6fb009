/* main.c - map-colour: the map model as a program of its own.
 *
 * usage: map-colour CONFIG [KEY=VALUE]...
 *
 * Runs the same YAML config the csearch command runs (its plugin: key is
 * not needed here, the model is linked in), with the same checks and error
 * messages, and prints each colouring that a solve or an enumerate finds,
 * then one line of counts.  Everything it
 * uses is the installed library: config, job, registry and engine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <csearch/job.h>

#include "map.h"

static int64_t show; /* output.show: how many to print, -1 = all */

/* The one key this program reads itself: checked with the config. */
static const struct cs_option own_keys[] = {
    {.key = "output.show",
     .type = CS_OPT_INT,
     .def = "all",
     .min = 0,
     .max = 9e18,
     .all_word = "all",
     .help = "colourings to print"},
    {.key = NULL},
};
static const struct cs_option *const own_tables[] = {own_keys, NULL};

/* Each colouring under a numbered heading, in the model's own lines. */
static bool print_colouring(void *ud, const struct cs_hooks *hooks,
                            const void *state, uint64_t weight)
{
    struct cs_job *job = ud;
    static uint64_t shown;
    struct cs_board board = {0};
    (void)weight; /* the map model weighs every branch 1 */
    if (job->task == CS_TASK_COUNT || (show >= 0 && shown >= (uint64_t)show))
        return true;
    hooks->emit(state, 0, &board);
    printf("colouring %" PRIu64 ":\n", ++shown);
    for (size_t i = 0; i < board.count; i++)
        printf("  %s\n", board.lines[i]);
    cs_board_free(&board);
    return true;
}

int main(int argc, char **argv)
{
    struct cs_error err;
    struct cs_registry *reg = cs_registry_new();
    struct cs_config *cfg = NULL;
    struct cs_job job;
    struct cs_spec spec;
    struct cs_result run;
    bool set_up = false;
    int status = 2;

    if (argc < 2) {
        fputs("usage: map-colour CONFIG [KEY=VALUE]...\n", stderr);
        cs_registry_free(reg);
        return 2;
    }
    if (cs_registry_add(reg, &map_model, &err) ||
        cs_config_load(&cfg, argv[1], &err))
        goto fail;
    for (int i = 2; i < argc; i++)
        if (cs_config_set(cfg, argv[i], &err))
            goto fail;
    const struct cs_job_request req = {.options = own_tables};
    if (cs_job_setup(&job, cfg, reg, &req, &err))
        goto fail;
    set_up = true;
    show = cs_config_int(cfg, "output.show");
    cs_job_spec(&job, &spec, NULL);
    spec.on_solution = print_colouring;
    spec.ud = &job;
    if (cs_search(&spec, NULL, &run, &err))
        goto fail;
    printf("%" PRIu64 " colouring%s (%s), %" PRIu64 " nodes, %" PRIu64
           " checks, %" PRIu64 " fails\n",
           run.stats.solutions, run.stats.solutions == 1 ? "" : "s",
           cs_status_name(run.status), run.stats.nodes, run.stats.checks,
           run.stats.fails);
    status = run.status == CS_COMPLETE ? (run.stats.solutions ? 0 : 1) : 3;
    goto done;
fail : {
    char line[1024];
    cs_error_format(&err, line, sizeof line);
    fprintf(stderr, "map-colour: %s\n", line);
}
done:
    if (set_up)
        cs_job_free(&job);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return status;
}
