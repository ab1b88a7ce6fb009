#!/bin/bash
# cli_output_test.sh - where results go and what the command refuses before
# it searches: output.file for every task (a batch's lines too), an output
# that is one of the inputs, a file that cannot take the results, a closed
# stdout, boards that cannot be drawn, special files as inputs, and limits
# that bound the whole run.  Usage: cli_output_test.sh CSEARCH SOURCE_DIR
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"

# --- output.file takes a batch's lines (generate, rate, a batch count) ---
echo data >"$tmp/g.txt"
run 0 configs/sudoku-generate.yaml --set params.count=1 --set output.file="$tmp/g.txt" --quiet
[ "$(cat "$tmp/g.txt")" = ".2...796.8.6..4....7...92.5....1.5..5.....4.93......12...8..3....2...6......26..." ] ||
    fail "generate: output.file holds '$(head -c 300 "$tmp/g.txt")'"
[ ! -s "$out" ] || fail "generate --quiet with output.file: stdout '$(head -c 300 "$out")'"
run 0 configs/sudoku-batch.yaml --set output.file="$tmp/b.txt"
[ "$(sort -u "$tmp/b.txt")" = 1 ] || fail "batch count: output.file holds '$(head -c 300 "$tmp/b.txt")'"
[ "$(wc -l <"$tmp/b.txt")" = 20 ] || fail "batch count: output.file has $(wc -l <"$tmp/b.txt") lines, not 20"
[ "$(head -n 1 "$out")" = "instances    20" ] || fail "batch count: stdout starts '$(head -n 1 "$out")'"
run 0 configs/sudoku-batch.yaml --set task=rate --set output.format=csv --set output.file="$tmp/r.csv"
[ "$(head -n 1 "$tmp/r.csv")" = "index,status,solutions,nodes,result" ] || fail "rate csv: output.file starts '$(head -n 1 "$tmp/r.csv")'"
[ "$(wc -l <"$tmp/r.csv")" = 21 ] || fail "rate csv: output.file has $(wc -l <"$tmp/r.csv") lines, not 21"
[ ! -s "$out" ] || fail "rate csv with output.file: stdout '$(head -c 300 "$out")'"

cli_finish "output"
