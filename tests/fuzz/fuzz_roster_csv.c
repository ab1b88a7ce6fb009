/* fuzz_roster_csv.c - libFuzzer harness: a roster CSV (params.roster, a
 * roster to check) against a fixed ward of five staff over a week, read,
 * set up and searched for at most 200 nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ward[] =
    "model: shifts\n"
    "task: solve\n"
    "params:\n"
    "  days: 7\n"
    "  shifts:\n"
    "    - {id: E, minutes: 480}\n"
    "    - {id: L, minutes: 480, not_followed_by: [E]}\n"
    "    - {id: N, minutes: 600, not_followed_by: [E, L], skill: senior}\n"
    "  staff:\n"
    "    - {id: Ann, min_minutes: 1920, max_minutes: 3000,"
    " max_consecutive: 6, max_weekends: 1, skills: [senior],"
    " max_shifts: {N: 4}}\n"
    "    - {id: Bob, min_minutes: 1920, max_minutes: 3000,"
    " max_consecutive: 6, skills: [senior], days_off: [2]}\n"
    "    - {id: Cat, min_minutes: 1440, max_minutes: 3000,"
    " max_consecutive: 6, skills: [senior]}\n"
    "    - {id: Dan, min_minutes: 1440, max_minutes: 3000,"
    " max_consecutive: 6, max_shifts: {L: 3}}\n"
    "    - {id: Eve, min_minutes: 960, max_minutes: 2400,"
    " max_consecutive: 5, min_consecutive: 2, min_days_off: 2,"
    " days_off: [2]}\n"
    "  cover:\n"
    "    - {day: all, shift: E, need: 2, under: 50, over: 10}\n"
    "    - {day: all, shift: L, need: 1, under: 100, over: 10}\n"
    "    - {day: all, shift: N, need: 1, under: 100, over: 10}\n"
    "  apart:\n"
    "    - [Cat, Dan]\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cs_config *cfg;
    struct cs_error err = {0};
    if (cs_config_parse(&cfg, "ward.yaml", ward, sizeof ward - 1, &err))
        abort();
    char file[96];
    snprintf(file, sizeof file, "params.roster=%s", fuzz_file(data, size));
    if (cs_config_set(cfg, file, &err))
        abort();
    fuzz_job(cfg, 200);
    return 0;
}
