/* fuzz.h - what the libFuzzer harnesses of tests/fuzz/ share.
 *
 * Each harness feeds one reader the fuzzer's bytes, the way the csearch
 * command reaches it: a config checked and set up into a job (cs_job_setup),
 * and for file readers the bytes written to a scratch file the config names.
 * A harness never runs anything unbounded: searches get a node limit, and
 * set-up's timed work (fuzz_job: limits.seconds at most 1) about a second.
 */
#ifndef CSEARCH_FUZZ_H
#define CSEARCH_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "csearch/config.h"
#include "csearch/job.h"

/* The path of this process's scratch file, holding exactly the size bytes
 * at data afterwards. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* cs_job_setup() as the command calls it: the built-in models, the
 * command's own keys. */
int fuzz_setup(struct cs_job *job, struct cs_config *cfg, struct cs_error *err);

/* Check and set up cfg as the command does (the built-in models, the
 * command's own keys); on success run a solve of at most `nodes` nodes
 * on one thread (0: set up only), then free the job.  Returns 0 when the
 * config was accepted, -1 when refused; cfg is freed either way. */
int fuzz_job(struct cs_config *cfg, uint64_t nodes);

/* A config named "fuzz" with each "key=value" of the NULL-terminated list
 * applied as by --set. */
struct cs_config *fuzz_config(const char *const *sets);

#endif
