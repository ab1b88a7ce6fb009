/* test_shifts.c - the shift scheduling model: every roster the search
 * produces goes through the independent checker (check.c), which must find
 * no broken hard rule and the very cost the search reports; counts are
 * compared with a brute force over every roster the checker accepts; every
 * bad-input message is asserted with its position.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "shifts_support.h"
#include "support.h"

/* ---- the example config: optimal, proven --------------------------------- */

static void test_shifts_example_optimal(void **ctx)
{
    (void)ctx;
    struct cs_config *cfg =
        shifts_load(CSEARCH_SOURCE_DIR "/configs/shifts.yaml");
    struct cs_result run;
    struct shifts_seen seen = {0};
    run_config(cfg, &run, shifts_check_each, &seen);
    assert_int_equal(run.status, CS_OPTIMAL);
    assert_int_equal(run.cost, 50);
    assert_int_equal(run.bound, 50);
    assert_int_equal(seen.last_total, 50);
    assert_int_equal(seen.rosters, run.stats.solutions);
    assert_true(seen.rosters >= 1);
    cs_config_free(cfg);
}

/* ---- counts against a brute force ---------------------------------------- */

/* Every roster of the problem, counted when the checker accepts it. */
static uint64_t brute_force(const struct shf_problem *p)
{
    int cells = p->nstaff * p->ndays, values = p->nshifts + 1;
    signed char *roster = calloc((size_t)cells, 1);
    uint64_t legal = 0;
    for (;;) {
        struct shf_report r;
        legal += shf_check(p, roster, &r) == 0;
        int c = 0;
        while (c < cells && ++roster[c] == values)
            roster[c++] = 0;
        if (c == cells)
            break;
    }
    free(roster);
    return legal;
}

static void count_both_ways(struct cs_config *cfg, uint64_t expected)
{
    struct cs_job job;
    struct cs_registry *reg;
    const struct shf_problem *p = shifts_problem_of(cfg, &job, &reg);
    uint64_t legal = brute_force(p);
    cs_job_free(&job);
    cs_registry_free(reg);
    assert_int_equal(legal, expected);

    for (int order = 0; order < 2; order++) {
        shifts_set(cfg, order ? "strategy.order=day" : "strategy.order=staff");
        shifts_set(cfg, "task=count");
        struct cs_result run;
        run_config(cfg, &run, NULL, NULL);
        assert_int_equal(run.status, CS_COMPLETE);
        assert_int_equal(run.stats.solutions, legal);
        /* enumerate: every one of them passes the checker */
        shifts_set(cfg, "task=enumerate");
        struct shifts_seen seen = {0};
        run_config(cfg, &run, shifts_check_each, &seen);
        assert_int_equal(seen.rosters, legal);
    }
}

static void test_shifts_count_matches_brute_force_yaml(void **ctx)
{
    (void)ctx;
    struct cs_config *cfg = shifts_parse(shifts_tiny_spec);
    count_both_ways(cfg, 604);
    cs_config_free(cfg);
}

static void test_shifts_count_matches_brute_force_curtois(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=shifts",
                                "params.instance=" DATA "tiny.txt", NULL};
    struct cs_config *cfg = config_of(sets);
    count_both_ways(cfg, 4655);
    cs_config_free(cfg);
}

/* The tiny spec's optimum, by brute force, equals branch and bound's. */
static void test_shifts_optimize_matches_brute_force(void **ctx)
{
    (void)ctx;
    struct cs_config *cfg = shifts_parse(shifts_tiny_spec);
    struct cs_job job;
    struct cs_registry *reg;
    const struct shf_problem *p = shifts_problem_of(cfg, &job, &reg);
    int cells = p->nstaff * p->ndays;
    signed char *roster = calloc((size_t)cells, 1);
    int64_t best = INT64_MAX;
    for (;;) {
        struct shf_report r;
        if (!shf_check(p, roster, &r) && r.total < best)
            best = r.total;
        int c = 0;
        while (c < cells && ++roster[c] == p->nshifts + 1)
            roster[c++] = 0;
        if (c == cells)
            break;
    }
    free(roster);
    cs_job_free(&job);
    cs_registry_free(reg);

    static const char *const bounds[] = {"strategy.bound=days",
                                         "strategy.bound=weekends",
                                         "strategy.bound=lagrange"};
    for (int order = 0; order < 5; order++) {
        shifts_set(cfg, "task=optimize");
        shifts_set(cfg,
                   order % 2 ? "strategy.order=day" : "strategy.order=staff");
        shifts_set(cfg, bounds[order / 2]);
        assert_int_equal(shifts_optimized(cfg, CS_OPTIMAL, best).bound, best);
    }
    /* priced rows (minutes and weekends by multipliers): still a bound */
    shifts_set(cfg, "strategy.order=staff");
    shifts_set(cfg, "strategy.lagrange_rows=priced");
    assert_int_equal(shifts_optimized(cfg, CS_OPTIMAL, best).bound, best);
    assert_int_equal(best, 40);
    cs_config_free(cfg);
}

/* ---- the benchmark's instances ----------------------------------------- */

static void test_shifts_curtois_solve(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *file;
        int64_t penalty; /* of the first roster found, by the checker */
        uint64_t nodes;
    } cases[] = {
        {"Instance1.txt", 1527, 116},
        {"Instance2.txt", 2460, 199},
        {"Instance7.txt", 5665, 571},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char set_instance[256];
        snprintf(set_instance, sizeof set_instance, "params.instance=%s%s",
                 DATA, cases[i].file);
        const char *const sets[] = {"model=shifts", "task=solve", set_instance,
                                    NULL};
        struct cs_config *cfg = config_of(sets);
        struct cs_result run;
        struct shifts_seen seen = {0};
        run_config(cfg, &run, shifts_check_each, &seen);
        assert_int_equal(run.status, CS_COMPLETE);
        assert_int_equal(seen.rosters, 1);
        assert_int_equal(seen.last_total, cases[i].penalty);
        assert_int_equal(run.stats.nodes, cases[i].nodes);
        cs_config_free(cfg);
    }
}

/* ---- no roster at all ---------------------------------------------------- */

static void test_shifts_infeasible(void **ctx)
{
    (void)ctx;
    /* 3 days, at most 2 in a row, yet 1440 minutes of 480-minute shifts */
    static const char spec[] =
        "model: shifts\n"
        "task: optimize\n"
        "params:\n"
        "  days: 3\n"
        "  shifts: [{id: D, minutes: 480}]\n"
        "  staff: [{id: Al, min_minutes: 1440, max_consecutive: 2}]\n";
    struct cs_config *cfg = shifts_parse(spec);
    struct cs_result run;
    run_config(cfg, &run, NULL, NULL);
    assert_int_equal(run.status, CS_INFEASIBLE);
    assert_int_equal(run.stats.solutions, 0);
    shifts_set(cfg, "task=solve");
    run_config(cfg, &run, NULL, NULL);
    assert_int_equal(run.status, CS_INFEASIBLE);
    assert_int_equal(run.stats.solutions, 0);
    cs_config_free(cfg);
}

/* Restarts (strategy.restart_nodes): with a budget far too small for
 * Instance7 the search restarts rows again and again, and still ends with
 * a legal roster, the same nodes every run; on a spec with no roster the
 * budgets grow until the whole tree is searched and infeasibility proven. */
static void test_shifts_restarts(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=shifts", "task=solve",
                                "params.instance=" DATA "Instance7.txt",
                                "strategy.restart_nodes=3", NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_result run;
    struct shifts_seen seen = {0};
    run_config(cfg, &run, shifts_check_each, &seen);
    assert_int_equal(run.status, CS_COMPLETE);
    assert_int_equal(seen.rosters, 1);
    assert_int_equal(seen.last_total, 13813);
    assert_int_equal(run.stats.nodes, 1844);
    assert_int_equal(run.stats.max_depth, 560);
    cs_config_free(cfg);

    /* each row has a legal assignment, but the pair kept apart cannot
     * both work their days (a row with none ends at the root, explained:
     * tests/cli_explain_test.sh) */
    static const char spec[] =
        "model: shifts\n"
        "task: solve\n"
        "strategy: {restart_nodes: 1}\n"
        "params:\n"
        "  days: 4\n"
        "  shifts: [{id: D, minutes: 480}, {id: N, minutes: 480}]\n"
        "  staff: [{id: Al, min_minutes: 1440, max_consecutive: 3,\n"
        "           max_shifts: {N: 0}},\n"
        "          {id: Bo, min_minutes: 1440, max_consecutive: 3,\n"
        "           max_shifts: {N: 0}}]\n"
        "  apart: [[Al, Bo]]\n";
    cfg = shifts_parse(spec);
    run_config(cfg, &run, NULL, NULL);
    assert_int_equal(run.status, CS_INFEASIBLE);
    assert_int_equal(run.stats.solutions, 0);
    assert_int_equal(run.stats.nodes, 58);
    shifts_set(cfg, "strategy.restart_nodes=0");
    run_config(cfg, &run, NULL, NULL);
    assert_int_equal(run.status, CS_INFEASIBLE);
    assert_int_equal(run.stats.nodes, 30);
    cs_config_free(cfg);
}

/* ---- bad input ----------------------------------------------------------- */

static void expect_spec_error(const char *spec, const char *message)
{
    struct cs_config *cfg = shifts_parse(spec);
    assert_string_equal(setup_error(cfg), message);
    cs_config_free(cfg);
}

#define HEAD                                                                   \
    "model: shifts\nparams:\n  days: 7\n  shifts: [{id: E, minutes: 480}]\n"

static void test_shifts_spec_errors(void **ctx)
{
    (void)ctx;
    expect_spec_error(HEAD "  staff: [{id: A}]\n"
                           "  shift_on: [{staff: Z, day: 1, shift: E}]\n",
                      "spec.yaml:6:22: unknown staff 'Z'");
    expect_spec_error(HEAD "  staff: [{id: A}]\n"
                           "  cover: [{day: all, shift: X, need: 1}]\n",
                      "spec.yaml:6:29: unknown shift 'X'");
    expect_spec_error(HEAD "  staff: [{id: A, min_minutes: 900, "
                           "max_minutes: 600}]\n",
                      "spec.yaml:5:1: staff A: minimum minutes 900 exceed "
                      "the maximum 600");
    expect_spec_error(HEAD "  staff: [{id: A}]\n"
                           "strategy: {order: day, bound: lagrange}\n",
                      "spec.yaml:6:31: bound lagrange needs order staff");
    expect_spec_error(HEAD
                      "  staff: [{id: A}, {id: B}]\n"
                      "task: optimize\n"
                      "strategy: {bound: lagrange, lagrange_states: 200}\n",
                      "spec.yaml:7:19: bound lagrange: more than 200 row "
                      "states even with minutes and weekends priced; raise "
                      "strategy.lagrange_states "
                      "or use bound days or weekends");
    expect_spec_error(HEAD "  staff: [{id: A}]\n"
                           "strategy: {neighbourhoods: 'rows,cells'}\n",
                      "spec.yaml:6:28: 'strategy.neighbourhoods': no kind "
                      "'cells' (staff, rows, cover, shift)");
    expect_spec_error(HEAD "  staff: [{id: A, max_weekends: lots}]\n",
                      "spec.yaml:5:33: 'max_weekends' must be an integer, "
                      "not 'lots'");
    expect_spec_error(HEAD "  staff: [{id: A, days_off: [7]}]\n",
                      "spec.yaml:5:30: day 7 is outside the horizon (0 to 6)");
    expect_spec_error(HEAD "  staff: [{id: A, nights: 3}]\n",
                      "spec.yaml:5:19: unknown key 'nights' in a staff member "
                      "(expected: id, max_shifts, min_minutes, max_minutes, "
                      "min_consecutive, max_consecutive, min_days_off, "
                      "max_weekends, days_off, skills)");
    expect_spec_error(HEAD "  staff: [{id: A}, {id: A}]\n",
                      "spec.yaml:5:25: staff 'A' is defined twice");
    expect_spec_error(HEAD "  staff: [{id: A}, {id: B}]\n"
                           "  apart: [[A, A]]\n",
                      "spec.yaml:6:11: staff A cannot be kept apart from "
                      "themselves");
    expect_spec_error(HEAD "  staff: [{id: A}]\n"
                           "  cover: [{day: 3, shift: E, need: 1},"
                           " {day: all, shift: E, need: 2}]\n",
                      "spec.yaml:6:40: cover for day 3, shift E given twice");
    expect_spec_error("model: shifts\nparams: {days: 7}\n",
                      "spec.yaml: params.shifts must list the shift types");
}

/* A Curtois file with one mistake, and the message it must give. */
static void expect_file_error(const char *name, const char *text,
                              const char *message)
{
    char path[256], set_instance[300];
    snprintf(path, sizeof path, "/tmp/csearch-test-shifts-%d-%s", (int)getpid(),
             name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(set_instance, sizeof set_instance, "params.instance=%s", path);
    const char *const sets[] = {"model=shifts", set_instance, NULL};
    struct cs_config *cfg = config_of(sets);
    char want[512];
    snprintf(want, sizeof want, "%s:%s", path, message);
    assert_string_equal(setup_error(cfg), want);
    cs_config_free(cfg);
    remove(path);
}

#define CURTOIS_HEAD                                                           \
    "SECTION_HORIZON\r\n# days\r\n7\r\n\r\nSECTION_SHIFTS\r\nD,480,\r\n"       \
    "N,600,D\r\n\r\nSECTION_STAFF\r\n"
/* the other sections, empty (a file needs them all) */
#define CURTOIS_TAIL                                                           \
    "SECTION_DAYS_OFF\r\nSECTION_SHIFT_ON_REQUESTS\r\n"                        \
    "SECTION_SHIFT_OFF_REQUESTS\r\nSECTION_COVER\r\n"

static void test_shifts_curtois_errors(void **ctx)
{
    (void)ctx;
    expect_file_error("shift.txt", CURTOIS_HEAD "A,D=5|X=1,2400,0,5,1,1,1\r\n",
                      "10:7: unknown shift 'X'");
    expect_file_error("number.txt", CURTOIS_HEAD "A,D=5,24x0,0,5,1,1,1\r\n",
                      "10:7: MaxTotalMinutes must be a whole number, not "
                      "'24x0'");
    expect_file_error("staff.txt",
                      CURTOIS_HEAD "A,D=5,2400,0,5,1,1,1\r\n"
                                   "SECTION_DAYS_OFF\r\nB,3\r\n",
                      "12:1: unknown staff 'B'");
    expect_file_error("day.txt",
                      CURTOIS_HEAD "A,D=5,2400,0,5,1,1,1\r\n"
                                   "SECTION_COVER\r\n9,D,1,100,1\r\n",
                      "12:1: day 9 is outside the horizon (0 to 6)");
    expect_file_error("minmax.txt",
                      CURTOIS_HEAD "A,D=5,2400,2880,5,1,1,1\r\n" CURTOIS_TAIL,
                      "10:1: staff A: minimum minutes 2880 exceed the "
                      "maximum 2400");
    expect_file_error("fields.txt", CURTOIS_HEAD "A,D=5,2400\r\n",
                      "10:1: a staff line (ID, MaxShifts, MaxTotalMinutes, "
                      "MinTotalMinutes, MaxConsecutiveShifts, "
                      "MinConsecutiveShifts, MinConsecutiveDaysOff, "
                      "MaxWeekends) needs 8 fields, not 3");
    /* cut at a line boundary: the missing section at the end of the file */
    expect_file_error("cut.txt", CURTOIS_HEAD "A,D=5,2400,0,5,1,1,1\r\n",
                      "11:1: the file ends without SECTION_DAYS_OFF");
    expect_file_error("cut-line.txt", CURTOIS_HEAD "A,D=5,2400,0,5,1,1,1",
                      "10:21: the file ends without SECTION_DAYS_OFF");
    expect_file_error("no-cover.txt",
                      CURTOIS_HEAD "A,D=5,2400,0,5,1,1,1\r\n"
                                   "SECTION_DAYS_OFF\r\nSECTION_SHIFT_ON_"
                                   "REQUESTS\r\nSECTION_SHIFT_OFF_REQUESTS\r\n",
                      "14:1: the file ends without SECTION_COVER");
    expect_file_error("empty.txt", "",
                      "1:1: the file ends without SECTION_HORIZON");
    expect_file_error("section.txt", "SECTION_HORIZONS\r\n7\r\n",
                      "1:1: unknown section 'SECTION_HORIZONS'");
    expect_file_error("follow.txt",
                      "SECTION_HORIZON\n7\nSECTION_SHIFTS\nD,480,Q\n",
                      "4:7: unknown shift 'Q'");
}

/* A roster file: accepted and pinned, or refused at the broken rule. */
static void test_shifts_roster_file(void **ctx)
{
    (void)ctx;
    char path[256], set_roster[300];
    snprintf(path, sizeof path, "/tmp/csearch-test-shifts-%d-roster.csv",
             (int)getpid());
    snprintf(set_roster, sizeof set_roster, "params.roster=%s", path);
    const char *const sets[] = {"model=shifts", "task=solve",
                                "params.instance=" DATA "tiny.txt", set_roster,
                                NULL};
    /* legal: A E E - -, B - - - L, C - L - - */
    FILE *f = fopen(path, "w");
    fputs("staff,0,1,2,3\nA,E,E,,\nB,,,,L\nC,,L,,\n", f);
    fclose(f);
    struct cs_config *cfg = config_of(sets);
    struct cs_result run;
    struct shifts_seen seen = {0};
    run_config(cfg, &run, shifts_check_each, &seen);
    assert_int_equal(run.status, CS_CHECKED);
    assert_int_equal(seen.rosters, 1);
    /* cover: day 0 no L (100), day 2 no E, no L (200), day 3 no E of 2
     * (200); requests: A's and C's kept, B's off request broken (1) */
    assert_int_equal(seen.last_total, 501);
    cs_config_free(cfg);

    /* L then E for C: a shift that cannot follow */
    f = fopen(path, "w");
    fputs("staff,0,1,2,3\nA,E,E,,\nB,,,,L\nC,,L,E,\n", f);
    fclose(f);
    cfg = config_of(sets);
    char want[512];
    snprintf(want, sizeof want,
             "%s:4:6: staff C works shift E on day 2 after shift L", path);
    assert_string_equal(setup_error(cfg), want);
    cs_config_free(cfg);

    f = fopen(path, "w");
    fputs("staff,0,1,2,3\nA,E,E,,\nB,,,,L\nC,,L,,Q\n", f);
    fclose(f);
    cfg = config_of(sets);
    snprintf(want, sizeof want, "%s:4:7: unknown shift 'Q'", path);
    assert_string_equal(setup_error(cfg), want);
    cs_config_free(cfg);
    remove(path);
}

/* Request penalties come from each cell's short record (struct shf_req),
 * or from the full table where a cell holds more than one request of a
 * kind or a weight above 16 bits; both give what the requests say.  Then
 * on Instance18 (414 requests, each in a cell of its own) the two agree on
 * every cell and value. */
static void test_shifts_request_records(void **ctx)
{
    (void)ctx;
    struct cs_config *cfg =
        shifts_parse("model: shifts\n"
                     "params:\n"
                     "  days: 5\n"
                     "  shifts:\n"
                     "    - {id: E, minutes: 480}\n"
                     "    - {id: L, minutes: 480}\n"
                     "  staff:\n"
                     "    - {id: A, max_minutes: 2400}\n"
                     "    - {id: B, max_minutes: 2400}\n"
                     "  cover:\n"
                     "    - {day: all, shift: E, need: 1}\n"
                     "  shift_on:\n"
                     "    - {staff: A, day: 0, shift: E, weight: 2}\n"
                     "    - {staff: A, day: 1, shift: E}\n"
                     "    - {staff: A, day: 4, shift: E}\n"
                     "    - {staff: A, day: 4, shift: L, weight: 2}\n"
                     "    - {staff: B, day: 4, shift: L, weight: 70000}\n"
                     "  shift_off:\n"
                     "    - {staff: A, day: 1, shift: L, weight: 3}\n"
                     "    - {staff: B, day: 2, shift: E, weight: 2}\n"
                     "    - {staff: B, day: 2, shift: L, weight: 5}\n"
                     "    - {staff: B, day: 3, weight: 4}\n");
    struct cs_job job;
    struct cs_registry *reg;
    const struct shf_problem *p = shifts_problem_of(cfg, &job, &reg);
    /* staff, day, in the table?, then off / E / L */
    static const int want[][6] = {{0, 0, 0, 2, 0, 2},        {0, 1, 0, 1, 0, 4},
                                  {0, 2, 0, 0, 0, 0},        {0, 4, 1, 3, 2, 1},
                                  {1, 2, 1, 0, 2, 5},        {1, 3, 0, 0, 4, 4},
                                  {1, 4, 1, 70000, 70000, 0}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        size_t c = (size_t)shf_cell(p, want[i][0], want[i][1]);
        assert_int_equal(p->req[c].on == SHF_REQ_TABLE, want[i][2]);
        for (int v = 0; v < 3; v++)
            assert_int_equal(shf_req_cost(p, c, v), want[i][3 + v]);
    }
    cs_job_free(&job);
    cs_registry_free(reg);
    cs_config_free(cfg);

    /* task solve: the default, optimize, would spend its LP bound's time */
    const char *const sets[] = {"model=shifts", "task=solve",
                                "params.instance=" DATA "Instance18.txt", NULL};
    cfg = config_of(sets);
    p = shifts_problem_of(cfg, &job, &reg);
    int short_cells = 0;
    for (size_t c = 0; c < (size_t)p->nstaff * (size_t)p->ndays; c++) {
        short_cells +=
            p->req[c].on != SHF_REQ_TABLE && (p->req[c].on || p->req[c].off);
        for (int v = 0; v <= p->nshifts; v++)
            assert_int_equal(shf_req_cost(p, c, v),
                             p->req_cost[c * (size_t)(p->nshifts + 1) + v]);
    }
    assert_int_equal(short_cells, p->non + p->noff);
    cs_job_free(&job);
    cs_registry_free(reg);
    cs_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shifts_example_optimal),
        cmocka_unit_test(test_shifts_count_matches_brute_force_yaml),
        cmocka_unit_test(test_shifts_count_matches_brute_force_curtois),
        cmocka_unit_test(test_shifts_optimize_matches_brute_force),
        cmocka_unit_test(test_shifts_curtois_solve),
        cmocka_unit_test(test_shifts_infeasible),
        cmocka_unit_test(test_shifts_restarts),
        cmocka_unit_test(test_shifts_spec_errors),
        cmocka_unit_test(test_shifts_curtois_errors),
        cmocka_unit_test(test_shifts_roster_file),
        cmocka_unit_test(test_shifts_request_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
