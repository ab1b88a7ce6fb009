/* fuzz_roster_spec.c - libFuzzer harness: the shifts model's roster spec
 * in YAML (params.days, shifts, staff, cover, requests, apart): the input
 * is a config whose model is made shifts, checked, set up and searched for
 * at most 200 nodes.  Configs naming files or a plugin are skipped (other
 * harnesses read files; a plugin would be dlopen()ed).
 */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const elsewhere[] = {"plugin", "params.instance",
                                        "params.roster", NULL};

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
    if (cs_config_set(cfg, "model=shifts", &err)) {
        cs_config_free(cfg); /* 'model' was no scalar's parent: fine */
        return 0;
    }
    fuzz_job(cfg, 200);
    return 0;
}
