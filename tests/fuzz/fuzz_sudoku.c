/* fuzz_sudoku.c - libFuzzer harness: Sudoku puzzles.  The first byte picks
 * the settings (kernel, propagation, diagonals, windoku); the rest is a
 * puzzle file, read as params.file (a batch: every instance set up and a
 * little searched) and its first line as params.puzzle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kernels[] = {
    "strategy.kernel=auto", "strategy.kernel=generic", "strategy.kernel=fast",
    "strategy.kernel=auto"};
static const char *const propagations[] = {
    "strategy.propagate=singles", "strategy.propagate=none",
    "strategy.propagate=full", "strategy.propagate=singles"};

/* set up and search (200 nodes) each of a batch's first 16 instances */
static void instances(const struct cs_job *job)
{
    for (uint64_t i = 0; i < job->problem.instances && i < 16; i++) {
        struct cs_problem p = {0};
        struct cs_error err = {0};
        if (job->problem.setup_instance(job->problem.data, i, &p, &err))
            continue;
        struct cs_spec spec;
        cs_job_spec(job, &spec, NULL);
        spec.problem = &p;
        spec.task = CS_TASK_SOLVE;
        spec.limits = (struct cs_limits){.nodes = 200, .solutions = 1};
        struct cs_result res;
        if (cs_spec_validate(&spec, NULL, &err) == 0)
            cs_search(&spec, NULL, &res, &err);
        cs_problem_free(&p);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned pick = data[0];
    data++, size--;
    const char *sets[8] = {
        "model=sudoku",
        kernels[pick & 3],
        propagations[pick >> 2 & 3],
        pick & 16 ? "params.diagonals=true" : "params.diagonals=false",
        pick & 32 ? "params.windoku=true" : "params.windoku=false",
        NULL,
        NULL,
        NULL};

    /* the batch */
    char file[96];
    snprintf(file, sizeof file, "params.file=%s", fuzz_file(data, size));
    sets[5] = file;
    struct cs_config *cfg = fuzz_config(sets);
    struct cs_job job;
    struct cs_error err = {0};
    if (fuzz_setup(&job, cfg, &err) == 0) {
        instances(&job);
        cs_job_free(&job);
    }
    cs_config_free(cfg);

    /* the first line as one puzzle */
    const uint8_t *nl = memchr(data, '\n', size);
    size_t len = nl ? (size_t)(nl - data) : size;
    char *puzzle = malloc(len + sizeof "params.puzzle=");
    memcpy(puzzle, "params.puzzle=", sizeof "params.puzzle=" - 1);
    memcpy(puzzle + sizeof "params.puzzle=" - 1, data, len);
    puzzle[len + sizeof "params.puzzle=" - 1] = '\0';
    if (strlen(puzzle) == len + sizeof "params.puzzle=" - 1) {
        sets[5] = puzzle;
        fuzz_job(fuzz_config(sets), 200);
    }
    free(puzzle);
    return 0;
}
