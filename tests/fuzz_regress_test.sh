#!/usr/bin/env bash
# fuzz_regress_test.sh - every input the fuzzers (tests/fuzz/) found to
# break a reader, kept in tests/data/bad/fuzz-*, run through the command:
# each gives its one exact line on stderr and exit 2 (before the fix: a
# crash, an abort or a sanitizer report).
# usage: fuzz_regress_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
bad=tests/data/bad
nq="configs/nqueens.yaml --set params.n=5"

# a header naming 2^64 - 14 units (sscanf read "-14") or 10^14: merge
# allocated a table that large and aborted with "out of memory" (exit 134)
run 2 merge $nq $bad/fuzz-checkpoint-units-negative.log
expect_stderr "csearch: $bad/fuzz-checkpoint-units-negative.log:1:1: not a csearch checkpoint"
run 2 merge $nq $bad/fuzz-checkpoint-units-huge.log
expect_stderr "csearch: $bad/fuzz-checkpoint-units-huge.log:1:1: checkpoint splits into 99999999999999 units, more than any split (at most 16777216)"

# an infeasible ward whose clash is a day off: the sentence read the day as
# a shift (heap-buffer-overflow in explain.c's phrase, found by fuzz_curtois)
printf 'model: shifts\ntask: solve\n' >"$tmp/shifts.yaml"
run 1 "$tmp/shifts.yaml" --set params.instance=$bad/fuzz-curtois-explain-day-off.txt
grep -qxF "staff A, days 0-13: at least 3360 minutes of work and the day off on day 0 cannot both hold" "$out" "$err" ||
    fail "day-off clash: $(head -c 300 "$out" "$err")"
# a staff member held to 3 shifts who must work 3360 minutes, on 57 days:
# the explanation's search remembered each failed state under its last
# child's key, so nothing it remembered ever matched, and each question ran
# its 2 million nodes (22 s in all, a fuzz_curtois timeout)
run 1 "$tmp/shifts.yaml" --set params.instance=$bad/fuzz-curtois-explain-slow.txt
grep -qxF "staff A, days 0-56: at least 3360 minutes of work and at most 3 shifts D cannot both hold" "$out" "$err" ||
    fail "slow explanation: $(head -c 300 "$out" "$err")"
cli_finish "fuzz regression"
