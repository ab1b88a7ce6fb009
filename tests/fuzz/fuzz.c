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

/* Set key to the number at most where the key is missing or reads as a
 * number above at most; with unbounded_zero (limits.seconds) also where it
 * reads as 0 (no limit).  Text that is no number is left for the check to
 * refuse (or, "auto", to read). */
static void cap(struct cs_config *cfg, const char *key, double at_most,
                bool unbounded_zero)
{
    const struct cs_node *node = cs_config_node(cfg, key);
    const char *text = cs_node_text(node);
    char *end = NULL;
    const double v = text ? strtod(text, &end) : 0;
    const bool number = text && end != text && *end == '\0';
    if (!node ? unbounded_zero
              : number && (v > at_most || (unbounded_zero && v == 0))) {
        char set[64];
        snprintf(set, sizeof set, "%s=%g", key, at_most);
        struct cs_error err = {0};
        (void)cs_config_set(cfg, set, &err); /* a path through a scalar:
                                                 the check refuses it */
    }
}

int fuzz_job(struct cs_config *cfg, uint64_t nodes)
{
    struct cs_job job;
    struct cs_error err = {0};
    /* set-up's own timed work (the rostering LP, its dives and branch and
     * price: up to 60 + 120 + 300 s without a limit) held to about a
     * second: an 8-day ward of configs/shifts.yaml ran them for minutes */
    cap(cfg, "limits.seconds", 1, true);
    cap(cfg, "strategy.colgen_seconds", 0.25, false);
    cap(cfg, "strategy.prove_seconds", 0.2, false);
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
