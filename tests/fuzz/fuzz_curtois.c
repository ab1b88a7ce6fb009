/* fuzz_curtois.c - libFuzzer harness: a Curtois benchmark instance (the
 * shifts model's params.instance), read, set up and searched for at most
 * 200 nodes, in day order and in staff order.
 */
#include <stdio.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char file[96];
    snprintf(file, sizeof file, "params.instance=%s", fuzz_file(data, size));
    const char *sets[] = {"model=shifts", "task=solve", file, NULL, NULL};
    if (fuzz_job(fuzz_config(sets), 200) == 0) {
        sets[3] = "strategy.order=staff";
        fuzz_job(fuzz_config(sets), 200);
    }
    return 0;
}
