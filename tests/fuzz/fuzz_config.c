/* fuzz_config.c - libFuzzer harness: a YAML config, parsed, checked and
 * set up as the command does (every model's keys, the command's own), then
 * searched for at most 200 nodes.  Configs that name files or a plugin are
 * left to the file readers' harnesses (a plugin would be dlopen()ed).
 */
#include "fuzz.h"

static const char *const elsewhere[] = {"plugin", "params.file",
                                        "params.instance", "params.roster",
                                        NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cs_config *cfg;
    struct cs_error err = {0};
    if (cs_config_parse(&cfg, "fuzz.yaml", (const char *)data, size, &err))
        return 0;
    for (int i = 0; elsewhere[i]; i++)
        if (cs_config_node(cfg, elsewhere[i])) {
            cs_config_free(cfg);
            return 0;
        }
    fuzz_job(cfg, 200);
    return 0;
}
