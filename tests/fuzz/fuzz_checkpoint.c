/* fuzz_checkpoint.c - libFuzzer harness: checkpoints and unit logs.  The
 * input is a log; with the first byte odd, each " sum=XXXXXXXX" line end is
 * given the line's true checksum first, so the fuzzer gets past the
 * checksum to the counts.  The log is merged (alone and twice over), then
 * resumed as a checkpoint of the config its header names, a unit added and
 * the file closed again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "csearch/dist.h"
#include "csearch/error.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t fnv1a(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void fix_sums(char *text, size_t len)
{
    for (char *line = text, *end = text + len; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl)
            break;
        size_t n = (size_t)(nl - line);
        if (n >= 13 && !memcmp(nl - 13, " sum=", 5)) {
            char hex[9];
            snprintf(hex, sizeof hex, "%08" PRIx32, fnv1a(line, n - 13));
            memcpy(nl - 8, hex, 8);
        }
        line = nl + 1;
    }
}

/* the header and top line as a resuming config would have them */
static int head_of(const char *text, struct checkpoint_head *h)
{
    int unique;
    const char *top = strchr(text, '\n');
    if (sscanf(text,
               "csearch-checkpoint 2 fingerprint=%16" SCNx64 " units=%" SCNu64
               " unique=%d",
               &h->fingerprint, &h->units, &unique) != 3 ||
        !top)
        return -1;
    h->reports_unique = unique == 1;
    memset(&h->top, 0, sizeof h->top);
    sscanf(top + 1,
           "top solutions=%" SCNu64 " unique=%" SCNu64 " nodes=%" SCNu64
           " checks=%" SCNu64 " fails=%" SCNu64 " depth=%d",
           &h->top.solutions, &h->top.unique, &h->top.nodes, &h->top.checks,
           &h->top.fails, &h->top.max_depth);
    /* small tables: the resume path, not the allocator, is what is fuzzed */
    return h->units && h->units <= 4096 ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (data[0] & 1)
        fix_sums(text, size - 1);
    const char *path = fuzz_file((const uint8_t *)text, size - 1);

    struct cs_merge m;
    struct cs_error err = {0};
    const char *paths[] = {path, path};
    cs_merge_logs(paths, 1, &m, &err);
    cs_merge_logs(paths, 2, &m, &err);

    struct checkpoint_head head;
    if (head_of(text, &head) == 0) {
        unsigned char *done = calloc(head.units, 1);
        struct cs_stats *results = calloc(head.units, sizeof *results);
        struct checkpoint cp;
        uint64_t resumed;
        bool torn;
        if (checkpoint_open(&cp, path, true, &head, done, results, &resumed,
                            &torn, &err) == 0) {
            struct cs_stats s = {.solutions = 1, .nodes = 2};
            checkpoint_add(&cp, 0, &s);
            checkpoint_flush(&cp, &err);
        }
        checkpoint_close(&cp, &err);
        free(done);
        free(results);
    }
    free(text);
    return 0;
}
