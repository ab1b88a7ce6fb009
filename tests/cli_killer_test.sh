#!/usr/bin/env bash
# cli_killer_test.sh - Killer Sudoku as a user runs it: the shipped config
# solved and counted, the general path always (never the fast kernel), a
# batch of givens under cages, a traced run, and bad cages with their exact
# one-line message.
# usage: cli_killer_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"

# --- the shipped config: Wikipedia's example, its published solution ---
run 0 configs/sudoku-killer.yaml
[ "$(head -n 9 "$out" | tr -d '\n')" = "215647398368952174794381652586274931142593867973816425821739546659428713437165289" ] ||
    fail "killer solution: $(head -n 9 "$out" | tr -d '\n')"
expect_stdout "kernel     generic"
run 0 configs/sudoku-killer.yaml --set task=count --json
expect_json '[.status, .solutions, .strategy.kernel] | map(tostring) | join(" ")' "complete 1 generic"
run 0 configs/sudoku-killer.yaml --set task=count --set strategy.propagate=singles --set strategy.select=in-order --threads 2 --json
expect_json '[.status, .solutions] | map(tostring) | join(" ")' "complete 1"
# kernel auto never takes cages to the fast kernel; kernel fast refuses them
for k in auto generic; do
    run 0 configs/sudoku-killer.yaml --set strategy.kernel=$k --set strategy.propagate=full --set strategy.select=in-order --json
    expect_json '.strategy.kernel' "generic"
done
run 2 configs/sudoku-killer.yaml --set strategy.kernel=fast
expect_stderr "csearch: --set strategy.kernel=fast: kernel fast needs a grid without cages"
# a letter grid of the same cages: the same grid
run 0 tests/data/killer/wikipedia-grid.yaml --set task=solve --set output.stats=false
[ "$(head -n 9 "$out" | tr -d '\n')" = "215647398368952174794381652586274931142593867973816425821739546659428713437165289" ] ||
    fail "letter-grid killer solution: $(head -n 9 "$out" | tr -d '\n')"
# two or more: four 2 x 2 boxes as cages allow every 4 x 4 grid
printf 'model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, ccdd, ccdd]\n    sums: {a: 10, b: 10, c: 10, d: 10}\ntask: count\nlimits: {solutions: 2}\n' >"$tmp/boxes.yaml"
run 3 "$tmp/boxes.yaml" --json
expect_json '[.status, .solutions] | map(tostring) | join(" ")' "limit 2"
run 0 "$tmp/boxes.yaml" --set limits.solutions=0 --json
expect_json '.solutions' "288"
# a trace names cells as on the general path
run 0 configs/sudoku-killer.yaml --trace
grep -q "r[0-9]c[0-9] = [1-9]" "$out" || fail "killer trace: $(head -c 300 "$out")"

# --- a batch: the config's cages, one grid of givens a line ---
run 2 tests/data/killer/wikipedia-batch.yaml --set output.stats=false
[ "$(tr '\n' '|' <"$out")" = "1|1|no solution|invalid|invalid|" ] || fail "killer batch: $(tr '\n' '|' <"$out")"
expect_stderr "csearch: tests/data/killer/wikipedia-batch.txt:4:34: puzzle cage 'k' holds 5 twice: row 3 column 8 and row 4 column 7
csearch: tests/data/killer/wikipedia-batch.txt:5:1: the cages cover a 9 x 9 grid, the puzzle is 4 x 4"
run 2 tests/data/killer/wikipedia-batch.yaml --threads 2 --json
expect_json '[.summary.instances, .summary.unique, .summary.no_solution, .summary.invalid] | map(tostring) | join(" ")' "5 2 1 2"

# --- bad cages: one line on stderr, exit 2, nothing on stdout ---
while IFS='|' read -r file message; do
    [ -n "$file" ] || continue
    run 2 "$file"
    [ "$(cat "$err")" = "csearch: $message" ] || fail "$file: got '$(cat "$err")', expected 'csearch: $message'"
    [ ! -s "$out" ] || fail "$file: stdout not empty"
done <<'CASES'
tests/data/bad/sudoku-killer-sum.yaml|tests/data/bad/sudoku-killer-sum.yaml:5:13: cage 1: 2 cells add up to 3 to 7 in a 4 x 4 grid, not 8
tests/data/bad/sudoku-killer-overlap.yaml|tests/data/bad/sudoku-killer-overlap.yaml:8:36: r2c3 is in cage 2 and cage 4
tests/data/bad/sudoku-killer-uncovered.yaml|tests/data/bad/sudoku-killer-uncovered.yaml:7:9: cage row 2, column 4: '.' is not a cage letter (letters and digits)
tests/data/bad/sudoku-killer-big.yaml|tests/data/bad/sudoku-killer-big.yaml:6:24: cage 1 has 10 cells, more than the 9 digits (no digit twice in a cage)
CASES
# a cell in no cage (the cages must cover the grid)
printf 'model: sudoku\nparams:\n  cages:\n    - {sum: 10, cells: [r1c1, r1c2, r1c3, r1c4]}\n' >"$tmp/short.yaml"
run 2 "$tmp/short.yaml"
expect_stderr "csearch: $tmp/short.yaml:4:5: r2c1 is in no cage: the cages must cover the 4 x 4 grid"
# a cell one row too far among 81 (r10c9 for r9c9): outside the 9 x 9 grid,
# not a 10 x 10 one that the cages fail to cover
sed 's/r9c9/r10c9/' configs/sudoku-killer.yaml >"$tmp/stray.yaml"
run 2 "$tmp/stray.yaml"
expect_stderr "csearch: $tmp/stray.yaml:38:31: cage 29: r10c9 is outside the 9 x 9 grid"
run 0 --list
grep -qF "params.cages" "$out" || fail "--list lacks params.cages"

cli_finish "Killer CLI"
