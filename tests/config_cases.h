/* config_cases.h - see config_cases.c. */
#ifndef CSEARCH_TEST_CONFIG_CASES_H
#define CSEARCH_TEST_CONFIG_CASES_H

#include "csearch/config.h"

#define NAME "test.yaml"

/* The framework's table and a model's, NULL-terminated. */
extern const struct cs_option *const tables[];

/* text parsed (and checked against tables) or the test fails. */
struct cs_config *parse_ok(const char *text);
struct cs_config *check_ok(const char *text);
/* err is exactly file:line:col: msg. */
void assert_error(const struct cs_error *err, const char *file, int line,
                  int col, const char *msg);
/* Parsing (checking) text fails with exactly this position and message. */
void expect_parse_error(const char *text, int line, int col, const char *msg);
void expect_check_error(const char *text, int line, int col, const char *msg);
void assert_pos(struct cs_pos pos, const char *file, int line, int col);

#endif
