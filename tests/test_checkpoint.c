/* test_checkpoint.c - the checkpoint log: what it writes, what resuming
 * accepts, and what it refuses (each with its exact position and message). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "checkpoint.h"
#include "csearch/dist.h"

#define UNITS 10

static char path[64];

static int setup(void **ctx)
{
    (void)ctx;
    snprintf(path, sizeof path, "/tmp/csearch-ckpt-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    return 0;
}

static int teardown(void **ctx)
{
    (void)ctx;
    unlink(path);
    return 0;
}

static void write_file(const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_file(void)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The checker's own FNV-1a, to forge lines with a valid checksum (four
 * buffers in turn, so one call may take several). */
static char *forged(const char *body)
{
    static char lines[4][512];
    static int turn;
    char *line = lines[turn++ % 4];
    uint32_t h = 2166136261u;
    for (const char *p = body; *p; p++) {
        h ^= (unsigned char)*p;
        h *= 16777619u;
    }
    snprintf(line, sizeof lines[0], "%s sum=%08x\n", body, h);
    return line;
}

static const struct checkpoint_head head = {
    0x0123456789abcdefULL,
    UNITS,
    true,
    {.nodes = 3, .checks = 2, .fails = 0, .max_depth = 1}};
#define HEADER                                                                 \
    "csearch-checkpoint 2 fingerprint=0123456789abcdef units=10 unique=1\n"
#define TOP "top solutions=0 unique=0 nodes=3 checks=2 fails=0 depth=1"

/* The header and the top line, as a fresh checkpoint starts. */
static const char *start(void)
{
    static char text[512];
    snprintf(text, sizeof text, "%s%s", HEADER, forged(TOP));
    return text;
}

static int open_resume(struct cs_stats *results, unsigned char *done,
                       uint64_t *resumed, bool *torn, struct cs_error *err)
{
    struct checkpoint cp;
    memset(results, 0, UNITS * sizeof *results);
    memset(done, 0, UNITS);
    int rc = checkpoint_open(&cp, path, true, &head, done, results, resumed,
                             torn, err);
    if (rc == 0)
        checkpoint_close(&cp, NULL);
    return rc;
}

static void test_checkpoint_round_trip(void **ctx)
{
    (void)ctx;
    struct cs_stats results[UNITS], s = {.solutions = 92,
                                         .unique = 12,
                                         .nodes = 397,
                                         .checks = 397,
                                         .fails = 153,
                                         .max_depth = 5};
    unsigned char done[UNITS] = {0};
    uint64_t resumed;
    bool torn;
    struct cs_error err;
    struct checkpoint cp;
    assert_int_equal(checkpoint_open(&cp, path, false, &head, done, results,
                                     &resumed, &torn, &err),
                     0);
    checkpoint_add(&cp, 7, &s);
    assert_int_equal(checkpoint_close(&cp, &err), 0);
    char want[1024];
    snprintf(want, sizeof want, "%s%s", start(),
             forged("unit=7 solutions=92 unique=12 nodes=397 checks=397 "
                    "fails=153 depth=5"));
    assert_string_equal(read_file(), want);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), 0);
    assert_int_equal(resumed, 1);
    assert_int_equal(done[7], 1);
    assert_int_equal(results[7].solutions, 92);
    assert_int_equal(results[7].max_depth, 5);
    assert_false(torn);
}

static void test_checkpoint_refuses_forged_numbers(void **ctx)
{
    (void)ctx;
    static const char *const bodies[] = {
        "unit=1 solutions=-4 unique=0 nodes=1 checks=1 fails=0 depth=1",
        "unit=1 solutions=+4 unique=0 nodes=1 checks=1 fails=0 depth=1",
        "unit=1 solutions=4 unique=0 nodes= 1 checks=1 fails=0 depth=1",
        ("unit=1 solutions=99999999999999999999 unique=0 nodes=1 checks=1 "
         "fails=0 depth=1"),
        "unit=1 solutions=4 unique=0 nodes=1 checks=1 fails=0",
        "unit=1 solutions=4 unique=0 nodes=1 checks=1 fails=0 depth=1 x=2",
    };
    struct cs_stats results[UNITS];
    unsigned char done[UNITS];
    uint64_t resumed;
    bool torn;
    struct cs_error err;
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", start(), forged(bodies[i]));
        write_file(text);
        assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
        assert_int_equal(err.line, 3);
        assert_string_equal(err.msg, "malformed checkpoint line");
    }
    char text[1024];
    snprintf(text, sizeof text, "%s%s", start(),
             "unit=1 solutions=4 unique=0 nodes=1 checks=1 fails=0 depth=1 "
             "sum=00000000\n");
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_string_equal(err.msg, "corrupt checkpoint line (checksum mismatch)");
    snprintf(text, sizeof text, "%s%s", start(),
             forged("unit=10 solutions=4 unique=0 nodes=1 checks=1 fails=0 "
                    "depth=1"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_string_equal(err.msg,
                        "checkpoint names a unit beyond this config's units");
}

/* A valid checksum is not enough: the counts must be possible too. */
static void test_checkpoint_refuses_impossible_counts(void **ctx)
{
    (void)ctx;
    struct cs_stats results[UNITS];
    unsigned char done[UNITS];
    uint64_t resumed;
    bool torn;
    struct cs_error err;
    char text[1024];
    snprintf(text, sizeof text, "%s%s", start(),
             forged("unit=2 solutions=3 unique=5 nodes=9 checks=9 fails=1 "
                    "depth=4"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.col, 1);
    assert_string_equal(err.msg, "impossible counts: unique 5 is more than "
                                 "solutions 3");
    /* the top line too */
    snprintf(text, sizeof text, "%s%s", HEADER,
             forged("top solutions=0 unique=1 nodes=3 checks=2 fails=0 "
                    "depth=1"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "impossible counts: unique 1 is more than "
                                 "solutions 0");
    /* unique counted in a log that says it counts none */
    struct cs_merge m;
    const char *logs[] = {path};
    snprintf(text, sizeof text,
             "csearch-checkpoint 2 fingerprint=0123456789abcdef units=10 "
             "unique=0\n%s%s",
             forged(TOP),
             forged("unit=0 solutions=4 unique=2 nodes=9 checks=9 fails=1 "
                    "depth=4"));
    write_file(text);
    assert_int_equal(cs_merge_logs(logs, 1, &m, &err), -1);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg, "impossible counts: unique 2 in a log whose "
                                 "header says it counts no unique solutions "
                                 "(unique=0)");
}

static void test_checkpoint_torn_lines(void **ctx)
{
    (void)ctx;
    struct cs_stats results[UNITS];
    unsigned char done[UNITS];
    uint64_t resumed;
    bool torn;
    struct cs_error err;
    /* a torn header: nothing was logged yet; the file starts afresh */
    write_file("csearch-checkpoint 2 finger");
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), 0);
    assert_int_equal(resumed, 0);
    assert_false(torn);
    assert_string_equal(read_file(), start());
    /* killed inside the top line: the same */
    write_file(HEADER "top solutions=0 uni");
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), 0);
    assert_false(torn);
    assert_string_equal(read_file(), start());
    /* a torn unit line: dropped and cut off */
    char text[1024];
    snprintf(text, sizeof text,
             "%s%s"
             "unit=3 solu",
             start(),
             forged("unit=2 solutions=4 unique=0 nodes=1 checks=1 fails=0 "
                    "depth=1"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), 0);
    assert_int_equal(resumed, 1);
    assert_true(torn);
    assert_null(strstr(read_file(), "unit=3"));
}

static void test_checkpoint_refuses_other_top_and_format_1(void **ctx)
{
    (void)ctx;
    struct cs_stats results[UNITS];
    unsigned char done[UNITS];
    uint64_t resumed;
    bool torn;
    struct cs_error err;
    char text[1024];
    snprintf(text, sizeof text, "%s%s", HEADER,
             forged("top solutions=0 unique=0 nodes=4 checks=2 fails=0 "
                    "depth=1"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.msg, "checkpoint counts other nodes above the "
                                 "split than this config");
    snprintf(text, sizeof text, "%s%s", HEADER,
             forged("unit=0 solutions=0 unique=0 nodes=4 checks=2 fails=0 "
                    "depth=1"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_string_equal(err.msg,
                        "malformed checkpoint line (expected the top line)");
    write_file("csearch-checkpoint 1 fingerprint=0123456789abcdef units=10\n");
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_int_equal(err.line, 1);
    assert_string_equal(err.msg, "checkpoint of format 1 (before merge and "
                                 "MPI); this csearch reads format 2");
}

/* A log of units first..last (unit u: u solutions, one of them unique but
 * for unit 0, which has none: unique > solutions is refused; depth 3 + u),
 * then tail. */
static void write_log(const char *file, int first, int last, const char *tail)
{
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(start(), f);
    for (int u = first; u <= last; u++) {
        char body[200];
        snprintf(body, sizeof body,
                 "unit=%d solutions=%d unique=%d nodes=10 checks=9 fails=2 "
                 "depth=%d",
                 u, u, u > 0, 3 + u);
        fputs(forged(body), f);
    }
    fputs(tail, f);
    fclose(f);
}

/* Two slice logs of 10 units: 0-4 and 4-7 (unit 4 in both), 8 and 9 gone. */
static void test_checkpoint_merge(void **ctx)
{
    (void)ctx;
    char other[80];
    snprintf(other, sizeof other, "%s.b", path);
    write_log(path, 0, 4, "");
    write_log(other, 4, 7, "unit=9 sol"); /* torn: ignored */
    char text[2048];
    FILE *f;

    const char *const logs[] = {path, other};
    struct cs_merge m;
    struct cs_error err;
    assert_int_equal(cs_merge_logs(logs, 2, &m, &err), 0);
    assert_int_equal(m.units, 10);
    assert_int_equal(m.present, 8);
    assert_true(m.reports_unique);
    assert_int_equal(m.torn, 1);
    assert_int_equal(m.total.solutions, 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
    assert_int_equal(m.total.unique, 7);         /* units 1-7 */
    assert_int_equal(m.total.nodes, 3 + 8 * 10); /* top + units */
    assert_int_equal(m.total.checks, 2 + 8 * 9);
    assert_int_equal(m.total.max_depth, 10);
    assert_string_equal(m.missing, "8-9");

    /* unit 4 logged with another count in the second log */
    f = fopen(other, "w");
    fputs(start(), f);
    fputs(forged("unit=4 solutions=5 unique=1 nodes=10 checks=9 fails=2 "
                 "depth=7"),
          f);
    fclose(f);
    assert_int_equal(cs_merge_logs(logs, 2, &m, &err), -1);
    assert_string_equal(err.file, other);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.msg,
                        "unit 4 is recorded twice with different counts");

    /* another config */
    snprintf(text, sizeof text, "%s%s",
             "csearch-checkpoint 2 fingerprint=0123456789abcdee units=10 "
             "unique=1\n",
             forged(TOP));
    f = fopen(other, "w");
    fputs(text, f);
    fclose(f);
    assert_int_equal(cs_merge_logs(logs, 2, &m, &err), -1);
    assert_int_equal(err.line, 1);
    assert_string_equal(err.msg,
                        "checkpoint belongs to another config (fingerprint "
                        "0123456789abcdee, the first log 0123456789abcdef)");
    unlink(other);
    assert_int_equal(cs_merge_logs(logs, 2, &m, &err), -1);
    assert_string_equal(err.msg, "cannot open log: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_checkpoint_round_trip, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_checkpoint_refuses_forged_numbers,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_checkpoint_refuses_impossible_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_checkpoint_torn_lines, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_checkpoint_refuses_other_top_and_format_1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_checkpoint_merge, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
