#!/usr/bin/env bash
# cli_flatzinc_test.sh - the flatzinc model as a user runs it: the shipped
# config (count, solve, --json, threads with work units, estimate, traces
# with the model's own names), fzn-csearch's flags and output, and bad
# FlatZinc with its exact one-line message.  Needs no MiniZinc: the .fzn
# files are in the repository (examples/minizinc, tests/data/flatzinc).
# usage: cli_flatzinc_test.sh CSEARCH FZN-CSEARCH SOURCE_DIR
set -u
fzn=$2
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$3"

# --- the config: 8 queens in MiniZinc, counted, solved, traced ---
run 0 configs/flatzinc.yaml
expect_line "solutions  92"
expect_line "status     complete"
expect_line "nodes      651"
expect_line "kernel     propagation"
run 0 configs/flatzinc.yaml --json
expect_json .solutions 92
expect_json .strategy.search annotations
run 0 configs/flatzinc.yaml --set strategy.search=free --json
expect_json .solutions 92
expect_json .strategy.search free
run 0 configs/flatzinc.yaml --threads 2 --json
expect_json .solutions 92
expect_json .nodes 651
run 0 configs/flatzinc.yaml --set task=solve
expect_line "q = array1d(1..8, [1, 5, 8, 6, 3, 7, 2, 4]);"
expect_line "nodes      41"
run 3 configs/flatzinc.yaml --set task=enumerate --set limits.solutions=3 --json
expect_json '.boards | length' 3
expect_json '.boards[2][0]' "q = array1d(1..8, [1, 7, 4, 6, 8, 2, 5, 3]);"
run 0 configs/flatzinc.yaml --set task=estimate --set strategy.probes=2000 --json
expect_json .status complete
# the trace names the output's variables and shows their domains
run 0 configs/flatzinc.yaml --set task=solve --trace
expect_line " 0  root                            q[1] 1..8 q[2] 1..8 q[3] 1..8 q[4] 1..8 q[5] 1..8 q[6] 1..8 q[7] 1..8 q[8] 1..8"
expect_line " 2    q[2] = 3                      q[1] 1 q[2] 3 q[3] 5..8 q[4] {2,6..8} q[5] {2,4,7..8} q[6] {2,4..5,8} q[7] {2,4..6} q[8] {2,4..7}"
run 0 configs/flatzinc.yaml --set task=solve --tree "$tmp/q.dot"
grep -qF 'label="q[1] = 1"' "$tmp/q.dot" || fail "the tree lacks the move 'q[1] = 1'"

# --- fzn-csearch, as minizinc runs it ---
q=examples/minizinc/queens.fzn
"$fzn" -a "$q" >"$out" 2>"$err" || fail "fzn-csearch -a exited $?"
[ "$(grep -c '^----------$' "$out")" = 92 ] || fail "fzn-csearch -a: $(grep -c '^----------$' "$out") solutions, not 92"
[ "$(tail -n 1 "$out")" = "==========" ] || fail "fzn-csearch -a does not end with =========="
"$fzn" -n 2 -s "$q" >"$out" 2>"$err"
[ "$(grep -c '^----------$' "$out")" = 2 ] || fail "fzn-csearch -n 2: $(grep -c '^----------$' "$out") solutions"
expect_line "%%%mzn-stat: solutions=2"
expect_line "%%%mzn-stat-end"
grep -q '^==========$' "$out" && fail "fzn-csearch -n 2 claims the search complete"
"$fzn" "$q" >"$out" 2>"$err"
expect_line "q = array1d(1..8, [1, 5, 8, 6, 3, 7, 2, 4]);"
"$fzn" -f -a "$q" >"$out" 2>"$err"
[ "$(grep -c '^----------$' "$out")" = 92 ] || fail "fzn-csearch -f -a: $(grep -c '^----------$' "$out") solutions"

# an optimisation: the optimum, proved, with the objective in the stats
printf '%s\n' 'var 0..10: x :: output_var;' 'var 0..10: y :: output_var;' \
    'constraint int_lin_le([1,1],[x,y],7);' 'constraint int_le(y,x);' \
    'solve maximize y;' >"$tmp/max.fzn"
for flags in "" "-f" "-f -t 5000"; do
    "$fzn" $flags -s "$tmp/max.fzn" >"$out" 2>"$err" || fail "fzn-csearch $flags max.fzn exited $?"
    expect_line "y = 3;"
    expect_line "=========="
    expect_line "%%%mzn-stat: objective=3"
done
printf '%s\n' 'var 1..3: x :: output_var;' 'constraint int_le(x, 0);' 'solve satisfy;' >"$tmp/unsat.fzn"
"$fzn" "$tmp/unsat.fzn" >"$out" 2>"$err"
expect_line "=====UNSATISFIABLE====="
printf '%s\n' 'var 1..0: x :: output_var;' 'solve satisfy;' >"$tmp/empty.fzn"
"$fzn" "$tmp/empty.fzn" >"$out" 2>"$err"
expect_line "=====UNSATISFIABLE====="

# bounds creeping one step at a time over a huge domain (a fixpoint of
# about 10^9 rounds): the time limit still holds, and proves nothing
printf '%s\n' 'var -1000000000..1000000000: x :: output_var;' \
    'var -1000000000..1000000000: y;' 'constraint int_lt(x, y);' \
    'constraint int_lt(y, x);' 'solve satisfy;' >"$tmp/creep.fzn"
"$fzn" -t 300 "$tmp/creep.fzn" >"$out" 2>"$err"
expect_line "=====UNKNOWN====="
printf 'model: flatzinc\nparams:\n  file: creep.fzn\ntask: solve\nlimits:\n  seconds: 0.3\n' \
    >"$tmp/creep.yaml"
run 3 "$tmp/creep.yaml"
expect_line "status     limit"

# --- bad input: one line, FILE:LINE:COL, exit 2, from both commands ---
bad() { # FZN-TEXT MESSAGE
    printf '%s\n' "$1" >"$tmp/bad.fzn"
    printf 'model: flatzinc\nparams:\n  file: bad.fzn\ntask: solve\n' >"$tmp/bad.yaml"
    run 2 "$tmp/bad.yaml"
    expect_stderr "csearch: $tmp/bad.fzn:$2"
    "$fzn" "$tmp/bad.fzn" >"$out" 2>"$err"
    local rc=$?
    [ $rc = 2 ] || fail "fzn-csearch on '$1' exited $rc, expected 2"
    expect_stderr "fzn-csearch: $tmp/bad.fzn:$2"
}
bad $'var 1..3: x;\nconstraint int_lt(x, 2)\nsolve satisfy;' "3:1: syntax error: expected ';', found 'solve'"
bad $'var 1..3: x;\nconstraint foo_bar(x, 2);\nsolve satisfy;' "2:12: unknown constraint 'foo_bar' (flatten with csearch's mznlib: minizinc --solver csearch)"
bad $'var 1.0..3.0: x;\nsolve satisfy;' "1:15: float variables are not supported (the MiniZinc Challenge has none)"
bad $'var 0..9999999999: x;\nsolve satisfy;' "1:20: value 9999999999 is out of range (csearch's integers are within +-1073741823)"
bad $'var 1..3: x;\nconstraint int_lt(x);\nsolve satisfy;' "2:12: 'int_lt' expects 2 arguments, not 1"
# found by fuzz_flatzinc (a leak on this refusal)
bad 'solve :: int_search(q,input_order,indomain_min,complete) satisfy;' "1:21: undefined identifier 'q'"
run 2 configs/flatzinc.yaml --set task=optimize
expect_stderr "csearch: --set task=optimize: task optimize needs a file that minimizes or maximizes (this one satisfies)"

cli_finish flatzinc
