/* fuzz_config.c - libFuzzer harness: a YAML config, parsed, checked and
 * set up as the command does (every model's keys, the command's own), then
 * searched for at most 200 nodes.  Configs that name files or a plugin are
 * left to the file readers' harnesses (a plugin would be dlopen()ed).
 * So are N-Queens boards of n >= 21: their halves kernel builds its tables
 * at setup, by design (0.49 s at n = 21 and 3.0 s at n = 23 in a release
 * build, 6.5 s at n = 21 instrumented: too near libFuzzer's timeout).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

static const char *const elsewhere[] = {
    "plugin", "params.file", "params.instance", "params.roster", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool big_board(const struct cs_config *cfg)
{
    const char *model = cs_node_text(cs_config_node(cfg, "model"));
    const char *n = cs_node_text(cs_config_node(cfg, "params.n"));
    if (!model || !n || strcmp(model, "nqueens") != 0)
        return false;
    char *end;
    long long v = strtoll(n, &end, 10); /* the config's integers are decimal */
    return *end == '\0' && v >= 21;
}

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
    if (big_board(cfg)) {
        cs_config_free(cfg);
        return 0;
    }
    fuzz_job(cfg, 200);
    return 0;
}
