/* fuzz.c - the harnesses' shared pieces (fuzz.h): one scratch file per
 * process, rewritten for every input, and a job set up and searched a
 * little, so a reader's output also meets the model code that trusts it.
 * Everything a harness allocates is freed before it returns: libFuzzer's
 * -detect_leaks reports what is not.
 */
#define _POSIX_C_SOURCE 200809L
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "csearch/engine.h"
#include "csearch/registry.h"

static char scratch[64];
static int scratch_fd = -1;

static void remove_scratch(void)
{
    if (scratch_fd >= 0)
        unlink(scratch);
}

const char *fuzz_file(const uint8_t *data, size_t size)
{
    if (scratch_fd < 0) {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(scratch, sizeof scratch, "%s/csearch-fuzz-XXXXXX", dir);
        scratch_fd = mkstemp(scratch);
        if (scratch_fd < 0) {
            perror("fuzz: mkstemp");
            abort();
        }
        atexit(remove_scratch);
    }
    if (ftruncate(scratch_fd, 0) ||
        pwrite(scratch_fd, data, size, 0) != (ssize_t)size) {
        perror("fuzz: write");
        abort();
    }
    return scratch;
}

static const struct cs_registry *registry(void)
{
    static struct cs_registry *reg;
    if (!reg) {
        struct cs_error err = {0};
        reg = cs_registry_new();
        if (cs_register_builtin_models(reg, &err))
            abort();
    }
    return reg;
}

struct cs_config *fuzz_config(const char *const *sets)
{
    struct cs_config *cfg = cs_config_new("fuzz");
    struct cs_error err = {0};
    for (size_t i = 0; sets[i]; i++)
        if (cs_config_set(cfg, sets[i], &err))
            abort();
    return cfg;
}

int fuzz_setup(struct cs_job *job, struct cs_config *cfg, struct cs_error *err)
{
    const struct cs_job_request req = {.options = cli_options};
    return cs_job_setup(job, cfg, registry(), &req, err);
}

int fuzz_job(struct cs_config *cfg, uint64_t nodes)
{
    struct cs_job job;
    struct cs_error err = {0};
    if (fuzz_setup(&job, cfg, &err)) {
        cs_config_free(cfg);
        return -1;
    }
    if (nodes && !job.problem.setup_instance && !job.layers.local) {
        struct cs_spec spec;
        cs_job_spec(&job, &spec, NULL);
        spec.task = CS_TASK_SOLVE;
        spec.limits = (struct cs_limits){.nodes = nodes, .solutions = 1};
        struct cs_result res;
        if (cs_spec_validate(&spec, NULL, &err) == 0)
            cs_search(&spec, NULL, &res, &err);
    }
    cs_job_free(&job);
    cs_config_free(cfg);
    return 0;
}
