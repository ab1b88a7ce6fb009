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

/* The checker's own FNV-1a, to forge lines with a valid checksum. */
static char *forged(const char *body)
{
    static char line[512];
    uint32_t h = 2166136261u;
    for (const char *p = body; *p; p++) {
        h ^= (unsigned char)*p;
        h *= 16777619u;
    }
    snprintf(line, sizeof line, "%s sum=%08x\n", body, h);
    return line;
}

static int open_resume(struct cs_stats *results, unsigned char *done,
                       uint64_t *resumed, bool *torn, struct cs_error *err)
{
    struct checkpoint cp;
    memset(results, 0, UNITS * sizeof *results);
    memset(done, 0, UNITS);
    int rc = checkpoint_open(&cp, path, true, 0x0123456789abcdefULL, UNITS,
                             done, results, resumed, torn, err);
    if (rc == 0)
        checkpoint_close(&cp, NULL);
    return rc;
}

static void test_checkpoint_round_trip(void **ctx)
{
    (void)ctx;
    struct cs_stats results[UNITS], s = {.solutions = 92, .unique = 12,
                                         .nodes = 397, .checks = 397,
                                         .fails = 153, .max_depth = 5};
    unsigned char done[UNITS] = {0};
    uint64_t resumed;
    bool torn;
    struct cs_error err;
    struct checkpoint cp;
    assert_int_equal(checkpoint_open(&cp, path, false, 0x0123456789abcdefULL,
                                     UNITS, done, results, &resumed, &torn,
                                     &err),
                     0);
    checkpoint_add(&cp, 7, &s);
    assert_int_equal(checkpoint_close(&cp, &err), 0);
    char want[1024];
    snprintf(want, sizeof want,
             "csearch-checkpoint 1 fingerprint=0123456789abcdef units=10\n%s",
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
        snprintf(text, sizeof text,
                 "csearch-checkpoint 1 fingerprint=0123456789abcdef "
                 "units=10\n%s",
                 forged(bodies[i]));
        write_file(text);
        assert_int_equal(open_resume(results, done, &resumed, &torn, &err),
                         -1);
        assert_int_equal(err.line, 2);
        assert_string_equal(err.msg, "malformed checkpoint line");
    }
    write_file("csearch-checkpoint 1 fingerprint=0123456789abcdef units=10\n"
               "unit=1 solutions=4 unique=0 nodes=1 checks=1 fails=0 depth=1 "
               "sum=00000000\n");
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_string_equal(err.msg, "corrupt checkpoint line (checksum mismatch)");
    char text[1024];
    snprintf(text, sizeof text,
             "csearch-checkpoint 1 fingerprint=0123456789abcdef units=10\n%s",
             forged("unit=10 solutions=4 unique=0 nodes=1 checks=1 fails=0 "
                    "depth=1"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), -1);
    assert_string_equal(err.msg,
                        "checkpoint names a unit beyond this config's units");
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
    write_file("csearch-checkpoint 1 finger");
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), 0);
    assert_int_equal(resumed, 0);
    assert_false(torn);
    assert_string_equal(read_file(), "csearch-checkpoint 1 "
                                     "fingerprint=0123456789abcdef units=10\n");
    /* a torn unit line: dropped and cut off */
    char text[1024];
    snprintf(text, sizeof text,
             "csearch-checkpoint 1 fingerprint=0123456789abcdef units=10\n%s"
             "unit=3 solu",
             forged("unit=2 solutions=4 unique=0 nodes=1 checks=1 fails=0 "
                    "depth=1"));
    write_file(text);
    assert_int_equal(open_resume(results, done, &resumed, &torn, &err), 0);
    assert_int_equal(resumed, 1);
    assert_true(torn);
    assert_null(strstr(read_file(), "unit=3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_checkpoint_round_trip, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_checkpoint_refuses_forged_numbers,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_checkpoint_torn_lines, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
