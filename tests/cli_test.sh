#!/usr/bin/env bash
# cli_test.sh - the csearch command as a user meets it: exit codes, --help,
# --json checked by a real JSON parser (jq), every bad-input case with its
# exact one-line message, Ctrl-C, and every config in configs/.
# usage: cli_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"

# --- help, version, list, usage errors ---
run 0 --help
expect_stdout "usage: csearch CONFIG [options]"
expect_stdout "--set KEY=VALUE"
expect_stdout "exit status: 0 done, 1 no solution, 2 usage or config error,"
run 0 --version
grep -qE '^csearch [0-9]+\.[0-9]+\.[0-9]+$' "$out" || fail "--version: $(cat "$out")"
run 0 --list
expect_stdout "nqueens: place n queens on an n x n board"
expect_stdout "strategy.state       array | bitmask"
expect_stdout "strategy.select      in-order | mrv"
# the types as a config writes them: string, list, mapping
expect_line "    params.puzzle        string | list"
expect_line "    params.file          string"
expect_line "    params.shifts        list"
expect_line "    compare              mapping"
run 2
[ "$(cat "$err")" = "csearch: missing CONFIG; try 'csearch --help'" ] || fail "no args: $(cat "$err")"
run 2 configs/nqueens.yaml --bogus
[ "$(cat "$err")" = "csearch: unknown option '--bogus'; try 'csearch --help'" ] || fail "bad option: $(cat "$err")"

# --- options: --, -, --quiet, contradictions ---
run 2 --version extra
expect_stderr "csearch: --version takes nothing else, got 'extra'; try 'csearch --help'"
run 2 configs/nqueens.yaml --checkpoint "$tmp/a" --resume "$tmp/b"
expect_stderr "csearch: --checkpoint $tmp/a and --resume $tmp/b contradict each other (one log: --checkpoint starts it, --resume continues it); try 'csearch --help'"
[ ! -e "$tmp/a" ] && [ ! -e "$tmp/b" ] || fail "contradictory checkpoints left a file"
run 2 configs/nqueens.yaml --progress --no-progress
expect_stderr "csearch: --progress and --no-progress contradict each other; try 'csearch --help'"
run 2 configs/nqueens.yaml --quiet --progress
expect_stderr "csearch: --quiet and --progress contradict each other; try 'csearch --help'"
run 2 configs/nqueens.yaml --json --set output.format=csv
expect_stderr "csearch: --json and --set output.format=csv contradict each other; try 'csearch --help'"
run 0 configs/nqueens.yaml --quiet
[ "$(tr '\n' '|' <"$out")" = "solutions  92|unique     12|" ] || fail "--quiet: $(cat "$out")"
[ ! -s "$err" ] || fail "--quiet wrote to stderr: $(cat "$err")"
run 0 configs/nqueens.yaml -q --set params.n=4 --set task=solve
[ "$(tr '\n' '|' <"$out")" = ".Q..|...Q|Q...|..Q.||solutions  1|unique     1|" ] || fail "-q solve: $(cat "$out")"
run 0 -- configs/nqueens.yaml
expect_stdout "solutions  92"
run 2 configs/nqueens.yaml -- --json
expect_stderr "csearch: one CONFIG at a time, got '--json' too; try 'csearch --help'"
"$csearch" - --quiet <configs/nqueens.yaml >"$out" 2>"$err" || fail "config from stdin: $(cat "$err")"
[ "$(head -n 1 "$out")" = "solutions  92" ] || fail "config from stdin: $(cat "$out")"
printf 'model: nqueens\nparams: {m: 4}\n' | "$csearch" - >"$out" 2>"$err"
expect_stderr "csearch: <stdin>:2:10: unknown key 'params.m'; did you mean 'params.n'?"
# a key of another section, a value cut from its key, empty names: said so
run 2 configs/nqueens.yaml --set n=12
expect_stderr "csearch: --set n=12: unknown key 'n'; did you mean 'params.n'?"
run 2 configs/nqueens.yaml --set params.n 12
expect_stderr "csearch: --set: expected KEY=VALUE, got 'params.n'; write --set params.n=12"
run 2 --set params.n 12 configs/nqueens.yaml
expect_stderr "csearch: --set: expected KEY=VALUE, got 'params.n'; write --set params.n=12"
run 2 ''
expect_stderr "csearch: an empty argument names no CONFIG; try 'csearch --help'"
run 2 merge configs/nqueens.yaml ''
expect_stderr "csearch: an empty argument names no LOG; try 'csearch --help'"
run 2 configs/nqueens.yaml --checkpoint ''
expect_stderr "csearch: --checkpoint needs a FILE, not an empty name; try 'csearch --help'"
# standard input is <stdin> in every message, a puzzle file's and a
# Curtois instance's too
printf '1234\n' | "$csearch" configs/sudoku-batch.yaml --set params.file=- --quiet >"$out" 2>"$err"
expect_stderr "csearch: <stdin>:1:1: puzzle has 4 cells: not a square grid from 4 x 4 to 25 x 25 (81 for 9 x 9)"
printf 'SECTION_HORIZON\nx\n' | "$csearch" configs/shifts-instance7.yaml --set params.instance=- >"$out" 2>"$err"
expect_stderr "csearch: <stdin>:2:1: horizon must be a whole number, not 'x'"
head -n 3 tests/data/sudoku_top95_head20.txt |
    "$csearch" configs/sudoku-batch.yaml --set params.file=- --quiet >"$out" 2>"$err"
[ "$(tr '\n' '|' <"$out")" = "1|1|1|" ] || fail "puzzles from stdin: $(cat "$out" "$err")"
printf 'model: sudoku\nparams: {file: "-"}\n' | "$csearch" - >"$out" 2>"$err"
expect_stderr "csearch: <stdin>:2:16: cannot read '-': standard input was read already"
"$csearch" compare - <configs/compare-mirror.yaml >"$out" 2>"$err"
expect_stderr "csearch: compare reads CONFIG again for each run: give a file, not - (standard input)"

# --- the main job ---
run 0 configs/nqueens.yaml
expect_stdout "solutions  92"
expect_stdout "unique     12"
expect_stdout "status     complete"
expect_stdout "kernel     fast"
expect_stdout "nodes      397"
run 0 configs/nqueens.yaml --set strategy.symmetry=mirror
expect_stdout "nodes      1029"
expect_stdout "kernel     generic"

# --- the layers in --json: what was chosen, what they did ---
run 0 configs/nqueens.yaml --seed 5 --json
expect_json .strategy.seed 5
expect_json .strategy.restarts none
run 0 configs/nqueens.yaml --set task=solve --set params.n=20 --threads 2 --json
expect_json .portfolio 2
expect_json .solutions 1
expect_json .status complete
run 2 configs/nqueens.yaml --set task=enumerate --threads 2
[ "$(cat "$err")" = "csearch: --set strategy.threads=2: threads need task count, solve or optimize, or a batch" ] ||
    fail "enumerate on threads: $(cat "$err")"

# --- --json: one object, every strategy gives 14200 for n = 12 ---
for state in array bitmask; do
    for select in in-order mrv; do
        for symmetry in none mirror d4; do
            for prune in none forward; do
                run 0 configs/nqueens.yaml --set params.n=12 --json \
                    --set strategy.state=$state --set strategy.select=$select \
                    --set strategy.symmetry=$symmetry --set strategy.prune=$prune
                expect_json .solutions 14200
                expect_json .status complete
                expect_json .strategy.state $state
                expect_json .strategy.select $select
                expect_json .params.n 12
                expect_json '[.model, .task] | join(" ")' "nqueens count"
                expect_json '[.nodes, .checks, .fails, .seconds] | map(type) | unique | join(",")' number
                [ "$(jq -s length "$out")" = 1 ] || fail "more than one JSON value"
            done
        done
    done
done

# --- a list param is reported as the JSON it is, scalars as written ---
run 0 configs/sudoku.yaml --json
expect_json '.params.puzzle' '.......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...'
printf 'model: sudoku\nparams:\n  puzzle: [1.34, "3412", 2143, 0021]\n' >"$tmp/rows.yaml"
run 0 "$tmp/rows.yaml" --json
[ "$(jq -c .params.puzzle "$out")" = '[1.34,"3412",2143,"0021"]' ] ||
    fail "list puzzle in --json: $(head -c 300 "$out")"

# --- --json names the state a run kept, not a strategy.state it ignored ---
run 0 configs/nqueens.yaml --set params.n=6 --set strategy.formulation=cell --set strategy.state=set --json
expect_json '[.strategy.formulation, .strategy.state, .solutions] | map(tostring) | join(" ")' "cell array 4"
run 0 configs/nqueens.yaml --set params.n=6 --set strategy.search=brute-force --set strategy.state=set --json
expect_json '[.strategy.search, .strategy.state, .solutions] | map(tostring) | join(" ")' "brute-force bitmask 4"
run 0 configs/nqueens.yaml --set params.n=6 --set strategy.state=set --json
expect_json '[.strategy.formulation, .strategy.state, .solutions] | map(tostring) | join(" ")' "row set 4"

# --- boards: text and JSON (LeetCode 51 shape) ---
run 0 configs/nqueens.yaml --set params.n=4 --set task=enumerate --set strategy.symmetry=none
[ "$(head -n 4 "$out" | tr '\n' ' ')" = ".Q.. ...Q Q... ..Q. " ] || fail "first 4-queens board: $(head -n 4 "$out")"
run 0 configs/nqueens.yaml --set params.n=4 --set task=enumerate --json
expect_json '.boards | length' 2
expect_json '.boards | sort | tostring' '[["..Q.","Q...","...Q",".Q.."],[".Q..","...Q","Q...","..Q."]]'
run 0 configs/nqueens.yaml --set params.n=8 --set task=enumerate --set output.show=3 --json
expect_json '.boards | length' 3
expect_json .solutions 92

# --- output.format csv: a table per task ---
run 0 configs/nqueens.yaml --set output.format=csv
[ "$(head -n 1 "$out")" = "status,solutions,unique,nodes,checks,fails,max_depth,seconds" ] || fail "csv count header: $(cat "$out")"
[ "$(tail -n +2 "$out" | cut -d, -f1-7)" = "complete,92,12,397,397,153,5" ] || fail "csv count row: $(cat "$out")"
[ "$(wc -l <"$out")" = 2 ] || fail "csv count: $(cat "$out")"
run 0 configs/nqueens.yaml --set output.format=csv --set params.n=4 --set task=enumerate --set strategy.symmetry=none
[ "$(tr '\n' '|' <"$out")" = "solution,line_1,line_2,line_3,line_4|1,.Q..,...Q,Q...,..Q.|2,..Q.,Q...,...Q,.Q..|" ] || fail "csv enumerate: $(cat "$out")"
run 0 configs/sudoku.yaml --set output.format=csv
[ "$(tail -n 1 "$out" | cut -d, -f1,2,10)" = "1,839465712,475916238" ] || fail "csv solve: $(cat "$out")"
run 0 configs/sudoku-batch.yaml --set output.format=csv --set task=solve
[ "$(wc -l <"$out")" = 21 ] || fail "csv batch: $(wc -l <"$out") lines"
[ "$(head -n 1 "$out")" = "index,status,solutions,nodes,result" ] || fail "csv batch header: $(head -n 1 "$out")"
[ "$(sed -n 2p "$out" | cut -d, -f1-3)" = "0,complete,1" ] || fail "csv batch row: $(sed -n 2p "$out")"
run 1 configs/nqueens.yaml --set output.format=csv --set params.n=3 --set task=solve
[ ! -s "$out" ] || fail "csv without a solution printed: $(cat "$out")"

# solve shows the one solution it found, even with mirror weights
run 0 configs/nqueens.yaml --set task=solve --set strategy.symmetry=mirror --json
expect_json '.boards | length' 1
expect_json .solutions 1

# --- exit statuses: no solution, limit ---
run 1 configs/nqueens.yaml --set params.n=3
expect_stdout "solutions  0"
run 1 configs/nqueens.yaml --set params.n=2 --set task=solve --json
expect_json .solutions 0
run 3 configs/nqueens.yaml --set params.n=12 --set limits.nodes=5000 --json
expect_json .status limit
expect_json .nodes 5000
run 3 configs/nqueens.yaml --set params.n=10 --set limits.solutions=10 --set strategy.symmetry=none --json
expect_json .solutions 10

# --- Ctrl-C: partial statistics, status interrupted, exit 130 ---
signal_run INT 0.5 130 configs/nqueens.yaml --set params.n=18 --set strategy.state=array \
    --set strategy.symmetry=none --json
expect_json .status interrupted
nodes=$(jq .nodes "$out")
[ "${nodes:-0}" -gt 0 ] || fail "no partial node count after Ctrl-C"

# --- SIGTERM (timeout, Slurm, systemd) is Ctrl-C, with exit status 143 ---
signal_run TERM 0.5 143 configs/nqueens.yaml --set params.n=18 --set strategy.state=array \
    --set strategy.symmetry=none --json
expect_json .status interrupted
nodes=$(jq .nodes "$out")
[ "${nodes:-0}" -gt 0 ] || fail "no partial node count after SIGTERM"
# a batch: the puzzles so far, the one cut short marked, the summary
printf '%s\n%081d\n' "$(head -n 1 tests/data/sudoku_top95_head20.txt)" 0 | tr 0 . >"$tmp/endless.txt"
signal_run TERM 0.5 143 configs/sudoku-batch.yaml --set params.file="$tmp/endless.txt" --set task=count \
    --set limits.solutions=0
[ "$(head -n 2 "$out" | tr '\n' '|')" = "1|interrupted|" ] || fail "SIGTERM batch: $(head -c 300 "$out")"
expect_line "status       interrupted"
rm -f "$tmp/endless.txt"
# local search: a start of fifty million queens stops at the signal too
signal_run TERM 1 143 configs/nqueens.yaml --set task=solve --set params.n=50000000 \
    --set output.show=0 --json
expect_json .status interrupted
expect_json .solutions 0
# stopped before its start was whole: no conflicts to count (not 0)
expect_json .conflicts null
signal_run TERM 1 143 configs/nqueens.yaml --set task=solve --set params.n=50000000 \
    --set output.show=0
expect_line "conflicts  none"

# --- bad input: one line on stderr, exit 2, nothing on stdout ---
while IFS='|' read -r file message; do
    [ -n "$file" ] || continue
    run 2 "$file"
    [ "$(cat "$err")" = "csearch: $message" ] || fail "$file: got '$(cat "$err")', expected 'csearch: $message'"
    [ ! -s "$out" ] || fail "$file: stdout not empty"
done <<'CASES'
tests/data/bad/malformed.yaml|tests/data/bad/malformed.yaml:3:5: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping
tests/data/bad/unknown-key.yaml|tests/data/bad/unknown-key.yaml:5:3: unknown key 'strategy.selct'; did you mean 'strategy.select'?
tests/data/bad/wrong-type.yaml|tests/data/bad/wrong-type.yaml:3:6: 'params.n' must be an integer, not 'eight'
tests/data/bad/out-of-range.yaml|tests/data/bad/out-of-range.yaml:3:6: 'params.n' must be between 1 and 1000000000, not 0
tests/data/bad/unknown-model.yaml|tests/data/bad/unknown-model.yaml:1:8: unknown model 'nqeens'; did you mean 'nqueens'?
tests/data/bad/unknown-strategy.yaml|tests/data/bad/unknown-strategy.yaml:3:10: unknown value 'bitfield' for 'strategy.state'; expected one of: array, bitmask, set
tests/data/bad/unsupported-task.yaml|tests/data/bad/unsupported-task.yaml:2:7: model nqueens cannot do task 'optimize' (it can: count, solve, enumerate, estimate)
tests/data/bad/beyond-limit.yaml|tests/data/bad/beyond-limit.yaml:3:6: n = 65 is beyond the limit of the bitmask state (at most 64)
tests/data/bad/missing-model.yaml|tests/data/bad/missing-model.yaml:1:1: missing key 'model'
tests/data/bad/bad-number.yaml|tests/data/bad/bad-number.yaml:3:12: 'limits.seconds' must be a number, not 'soon'
tests/data/bad/section-not-map.yaml|tests/data/bad/section-not-map.yaml:2:11: 'strategy' must be a mapping
tests/data/bad/no-such-file.yaml|tests/data/bad/no-such-file.yaml: cannot open: No such file or directory
tests/data/bad/sudoku-duplicate.yaml|tests/data/bad/sudoku-duplicate.yaml:3:11: puzzle row 1 holds 5 twice: row 1 column 1 and row 1 column 9
tests/data/bad/sudoku-short-row.yaml|tests/data/bad/sudoku-short-row.yaml:5:7: puzzle row 2 has 3 cells, expected 4 (one per row)
tests/data/bad/sudoku-no-puzzle.yaml|tests/data/bad/sudoku-no-puzzle.yaml:4:3: missing key 'params.puzzle' (or params.file)
tests/data/bad/sudoku-regions.yaml|tests/data/bad/sudoku-regions.yaml:4:12: region 'C' has 5 cells and there are 4 regions; a 4 x 4 grid needs 4 regions of 4
CASES

# --- hostile files: refused by their type or size before they are read ---
mkfifo "$tmp/fifo"
hostile() { # EXPECTED_STDERR ARGS...: exit 2 within 10 s, that one line
    local want=$1
    shift
    timeout 10 "$csearch" "$@" >"$out" 2>"$err"
    local got=$?
    [ "$got" = 2 ] || fail "csearch $* exited $got, expected 2"
    expect_stderr "$want"
}
hostile "csearch: /dev/zero: cannot read: not a regular file or a pipe" /dev/zero
hostile "csearch: /dev/full: cannot read: not a regular file or a pipe" /dev/full
hostile "csearch: $tmp: cannot read: Is a directory" "$tmp"
truncate -s 17M "$tmp/big.yaml"
hostile "csearch: $tmp/big.yaml: cannot read: larger than 16 MiB" "$tmp/big.yaml"
hostile "csearch: /dev/full: cannot read checkpoint: not a regular file" configs/nqueens.yaml --set params.n=12 --checkpoint /dev/full
hostile "csearch: /dev/zero: cannot read checkpoint: not a regular file" configs/nqueens.yaml --resume /dev/zero
hostile "csearch: $tmp/fifo: cannot read checkpoint: not a regular file" configs/nqueens.yaml --checkpoint "$tmp/fifo"
hostile "csearch: $tmp: cannot read checkpoint: Is a directory" configs/nqueens.yaml --resume "$tmp"
# "exists" is the size by fstat: a sparse 100 GB file is never read
truncate -s 100G "$tmp/huge.ckpt"
hostile "csearch: $tmp/huge.ckpt: checkpoint exists; continue it with --resume or remove it" configs/nqueens.yaml --checkpoint "$tmp/huge.ckpt"
hostile "csearch: $tmp/huge.ckpt: cannot read checkpoint: larger than 1024 MiB" configs/nqueens.yaml --resume "$tmp/huge.ckpt"
rm -f "$tmp/huge.ckpt" "$tmp/big.yaml"
# big files under 16 MiB, bounded in time and memory: a mapping of 100,000
# keys is hashed (a duplicate still found), and the 250,001st node and
# 10,001st anchor are refused before libyaml reads the rest
{ echo "x-wide:"; awk 'BEGIN { for (i = 0; i < 100000; i++) print "  k" i ": " i; print "  k7: again" }'; } >"$tmp/wide.yaml"
hostile "csearch: $tmp/wide.yaml:100002:3: duplicate key 'k7'" "$tmp/wide.yaml"
{ printf 'model: nqueens\nx-list: ['; head -c 8300000 /dev/zero | tr '\0' '1' | sed 's/1/1,/g'; echo '1]'; } >"$tmp/flow.yaml"
hostile "csearch: $tmp/flow.yaml:2:500004: more than 250000 nodes: a config holds settings, not bulk data" "$tmp/flow.yaml"
{ echo "x-anchors:"; awk 'BEGIN { for (i = 0; i < 40000; i++) print "  - &a" i " " i }'; } >"$tmp/anchors.yaml"
hostile "csearch: $tmp/anchors.yaml:10002:5: more than 10000 anchors and aliases" "$tmp/anchors.yaml"
{ printf 'model: sudoku\nparams:\n  cages:\n'; awk 'BEGIN { for (i = 0; i < 200000; i++) print "    - {sum: 3, cells: [r1c1, r1c2]}" }'; } >"$tmp/cages.yaml"
hostile "csearch: $tmp/cages.yaml:50003:13: more than 250000 nodes: a config holds settings, not bulk data" "$tmp/cages.yaml"
rm -f "$tmp/wide.yaml" "$tmp/flow.yaml" "$tmp/anchors.yaml" "$tmp/cages.yaml"
# "\0" in a quoted string is refused, not cut to "nqueens"
printf 'model: "nqueens\\0x"\nparams: {n: 6}\n' >"$tmp/nul.yaml"
hostile "csearch: $tmp/nul.yaml:1:8: a value cannot hold a NUL character (\\0)" "$tmp/nul.yaml"
hostile "csearch: /dev/zero: cannot read log: not a regular file or a pipe" merge configs/nqueens.yaml /dev/zero
hostile "csearch: --set params.roster=/dev/zero: cannot read '/dev/zero': not a regular file or a pipe" configs/shifts.yaml --set params.roster=/dev/zero
hostile "csearch: --set params.instance=/dev/zero: cannot read '/dev/zero': not a regular file or a pipe" configs/shifts-instance1.yaml --set params.instance=/dev/zero
hostile "csearch: --set params.file=/dev/zero: cannot read '/dev/zero': not a regular file or a pipe" configs/sudoku-batch.yaml --set params.file=/dev/zero
hostile "csearch: --set params.file=$tmp: cannot read '$tmp': Is a directory" configs/sudoku-batch.yaml --set params.file="$tmp"
head -c 70000 /dev/zero | tr '\0' 0 >"$tmp/long.txt"
hostile "csearch: $tmp/long.txt:1:65537: line longer than 65536 characters" configs/shifts-instance1.yaml --set params.instance="$tmp/long.txt"
rm -f "$tmp/long.txt"
# a pipe is a stream where one is meant: the config, a puzzle file, an instance
cat configs/nqueens.yaml >"$tmp/fifo" &
run 0 "$tmp/fifo"
expect_stdout "solutions  92"
head -n 3 tests/data/sudoku_top95_head20.txt >"$tmp/fifo" &
run 0 configs/sudoku-batch.yaml --set params.file="$tmp/fifo"
expect_stdout "unique       3"
wait

# --set mistakes name the override
run 2 configs/nqueens.yaml --set strategy.prune=sideways
[ "$(cat "$err")" = "csearch: --set strategy.prune=sideways: unknown value 'sideways' for 'strategy.prune'; expected one of: none, forward" ] || fail "--set bad value: $(cat "$err")"
run 2 configs/nqueens.yaml --set params.nn=3
[ "$(cat "$err")" = "csearch: --set params.nn=3: unknown key 'params.nn'; did you mean 'params.n'?" ] || fail "--set bad key: $(cat "$err")"
run 2 configs/nqueens.yaml --set foo
[ "$(cat "$err")" = "csearch: --set: expected KEY=VALUE, got 'foo'" ] || fail "--set syntax: $(cat "$err")"

# --- d4 and the fast kernel: totals and unique counts ---
run 0 configs/nqueens.yaml --set strategy.symmetry=d4 --json
expect_json '[.solutions, .unique, .strategy.kernel] | map(tostring) | join(" ")' "92 12 fast"
run 0 configs/nqueens.yaml --set strategy.symmetry=d4
expect_stdout "unique     12"

# --- progress: on stderr only, forced on or off ---
run 0 configs/nqueens.yaml --set params.n=12 --set strategy.symmetry=d4 --progress --json
grep -q "csearch: units [0-9]*/[0-9]*" "$err" || fail "--progress printed no progress line: $(head -c 200 "$err")"
expect_json .solutions 14200
run 0 configs/nqueens.yaml --set params.n=12 --set strategy.symmetry=d4 --no-progress
[ ! -s "$err" ] || fail "--no-progress wrote to stderr: $(head -c 200 "$err")"
# forced onto a file: a line per report, no carriage return; the last one
# says all the (estimated) work is done
run 0 configs/nqueens.yaml --set params.n=12 --progress
[ "$(tail -n 1 "$err" | sed 's/elapsed.*//')" = "csearch: units 730/730  work 100.0%  " ] ||
    fail "last progress line of a split count: $(tail -n 1 "$err")"
! grep -q $'\r' "$err" || fail "progress on a file redrew its line: $(head -c 200 "$err" | od -c | head -3)"
# a search that is not split reports its nodes, once more at the end
run 0 configs/nqueens.yaml --set strategy.kernel=generic --progress
[ "$(tail -n 1 "$err" | sed 's/  .*//')" = "csearch: nodes 2057" ] ||
    fail "last progress line of a plain count: $(tail -n 1 "$err")"
run 0 configs/nqueens.yaml --set task=estimate --set strategy.probes=100 --progress
[ "$(tail -n 1 "$err" | sed 's/  elapsed.*//')" = "csearch: probes 100/100 (100.0%)" ] ||
    fail "last progress line of an estimate: $(tail -n 1 "$err")"

# --- task estimate: Knuth's probes of the count's tree, seeded ---
# (the generic d4 tree of n = 8 has 2057 nodes and 92 solutions)
run 0 configs/nqueens.yaml --set task=estimate --set strategy.probes=1000 --seed 3
[ "$(tr '\n' '|' <"$out" | sed 's/seconds .*//')" = "nodes      ~2055  (95%: 1987 .. 2124)|solutions  ~81  (95%: 65 .. 97)|kernel     fast: 78 units, ~392.2 nodes; the largest, unit 10, ~15.12|status     complete|probes     1000 (119 ended in a solution)|entered    7225 nodes|" ] ||
    fail "estimate, seed 3: $(cat "$out")"
run 0 configs/nqueens.yaml --set task=estimate --set strategy.probes=1000 --seed 3 --json
expect_json '.estimate | [.probes, .nodes, .nodes_low, .nodes_high, .solutions, .solutions_error] | map(tostring) | join(" ")' \
    "1000 2055.49 1987.26 2123.71 80.78 8.18"
expect_json '[.task, .status, .solutions, .nodes, .fails] | map(tostring) | join(" ")' "estimate complete 119 7225 881"
expect_json '.estimate | [.kernel_units, .kernel_work, .largest_unit] | map(tostring) | join(" ")' "78 392.19 10"
run 0 configs/sudoku.yaml --set task=estimate --set strategy.probes=500 --seed 2 --set output.format=csv
[ "$(tr '\n' '|' <"$out" | sed 's/,[0-9.]*|$//')" = "status,probes,nodes,nodes_low,nodes_high,solutions,solutions_low,solutions_high,seconds|complete,500,305.82,260.01,351.62,1.54,0.00,3.27" ] ||
    fail "estimate as CSV: $(cat "$out")"
# the cell formulation's probes rarely meet one of its few solutions
run 0 configs/nqueens.yaml --set task=estimate --set params.n=10 --set strategy.formulation=cell --set strategy.probes=2000
expect_line "solutions  ~0  (no interval: 0 of 2000 probes ended in a solution)"
run 3 configs/nqueens.yaml --set task=estimate --set strategy.probes=9000000000000000000 --set limits.seconds=0.01 --json
expect_json .status limit
run 2 configs/nqueens.yaml --set task=estimate --threads 2
expect_stderr "csearch: --set strategy.threads=2: task estimate runs on one thread"
run 2 configs/sudoku-batch.yaml --set task=estimate
expect_stderr "csearch: --set task=estimate: task estimate probes one tree, not a batch of instances"
run 2 configs/nqueens.yaml --set task=estimate --checkpoint "$tmp/estimate.log"
expect_stderr "csearch: task estimate runs on one thread, without checkpoints"

# --- checkpoints: resume, SIGKILL, mismatch, corruption, torn lines ---
ckdir=$(mktemp -d)
ck=$ckdir/run.ckpt
slow="configs/nqueens.yaml --set params.n=14 --set strategy.state=array --set strategy.symmetry=none"
run 0 $slow --json
full_nodes=$(jq .nodes "$out")
expect_json .solutions 365596

"$csearch" $slow --checkpoint "$ck" --json >"$out" 2>"$err" &
pid=$!
wait_for_lines "$ck" 3 # the header, the top line and one finished unit
kill -KILL $pid
wait $pid 2>/dev/null
lines=$(wc -l <"$ck")
[ "$lines" -ge 1 ] || fail "SIGKILL: checkpoint has no header"
run 0 $slow --resume "$ck" --json
expect_json .solutions 365596
expect_json .nodes "$full_nodes"
expect_json .status complete
resumed=$(jq .units.resumed "$out")
total=$(jq .units.total "$out")
[ "$resumed" -lt "$total" ] || fail "SIGKILL: every unit was resumed, kill came too late ($resumed/$total)"
[ "$(($(wc -l <"$ck") - 2))" = "$total" ] || fail "checkpoint does not hold each unit once"
[ "$(tail -n +3 "$ck" | cut -d' ' -f1 | sort | uniq -d | wc -l)" = 0 ] || fail "a unit is logged twice"

# resuming a finished run searches nothing again
run 0 $slow --resume "$ck" --json
expect_json .units.resumed "$total"
expect_json .solutions 365596
# and nodes/s counts this run's nodes (those above the split), not the log's
top_nodes=$(sed -n 2p "$ck" | sed 's/.* nodes=\([0-9]*\) .*/\1/')
expect_json "(.nodes_per_second * .seconds) < ($top_nodes + 100)" true

# another config: refused, nothing printed
run 2 $slow --set params.n=13 --resume "$ck"
grep -q "^csearch: $ck:1:1: checkpoint belongs to another config (fingerprint [0-9a-f]\{16\}, this config [0-9a-f]\{16\})$" "$err" || fail "mismatch: $(cat "$err")"
[ ! -s "$out" ] || fail "mismatch: stdout not empty"

# an existing checkpoint is not overwritten without --resume
run 2 $slow --checkpoint "$ck"
[ "$(cat "$err")" = "csearch: $ck: checkpoint exists; continue it with --resume or remove it" ] || fail "overwrite: $(cat "$err")"

# checkpoints are for counts without node or solution limits; nothing on stdout
run 2 configs/nqueens.yaml --set task=solve --checkpoint "$ckdir/solve.ckpt" --json
[ "$(cat "$err")" = "csearch: threads and checkpoints need task count" ] || fail "checkpoint solve: $(cat "$err")"
[ ! -s "$out" ] || fail "checkpoint solve: stdout not empty"
run 2 $slow --set limits.nodes=100 --checkpoint "$ckdir/limit.ckpt"
[ "$(cat "$err")" = "csearch: threads and checkpoints cannot honour limits.nodes or limits.solutions exactly" ] || fail "checkpoint limit: $(cat "$err")"

# a changed digit: the line's checksum catches it
cp "$ck" "$ck.bad"
sed -i '3s/nodes=\([0-9]\)/nodes=9\1/' "$ck.bad"
run 2 $slow --resume "$ck.bad"
[ "$(cat "$err")" = "csearch: $ck.bad:3:1: corrupt checkpoint line (checksum mismatch)" ] || fail "corrupt: $(cat "$err")"

# a torn last line (a write cut short): dropped with a note, unit searched again
head -c -7 "$ck" >"$ck.torn"
run 0 $slow --resume "$ck.torn" --json
[ "$(cat "$err")" = "csearch: $ck.torn: dropped a torn last line; its unit is searched again" ] || fail "torn: $(cat "$err")"
expect_json .solutions 365596
expect_json .units.resumed $((total - 1))
[ "$(tail -c 1 "$ck.torn" | od -An -c | tr -d ' ')" = '\n' ] || fail "torn: file does not end with a full line"
# SIGTERM of a threaded checkpointed count: finished units logged, the rest resumed
# (n = 15: 4.7 s on two threads here, against 0.7 s for n = 14, which a fast
# machine finished before the signal)
slow15="configs/nqueens.yaml --set params.n=15 --set strategy.state=array --set strategy.symmetry=none"
"$csearch" $slow15 --threads 2 --checkpoint "$ckdir/term.ckpt" --json >"$out" 2>"$err" &
pid=$!
wait_for_lines "$ckdir/term.ckpt" 3
kill -TERM $pid
wait $pid
status=$?
[ "$status" = 143 ] || fail "SIGTERM of a threaded checkpointed count exited $status, expected 143"
expect_json .status interrupted
done_units=$(jq .units.done "$out")
[ "$(($(wc -l <"$ckdir/term.ckpt") - 2))" = "$done_units" ] || fail "SIGTERM: $done_units units done, $(wc -l <"$ckdir/term.ckpt") log lines"
run 0 $slow15 --threads 2 --resume "$ckdir/term.ckpt" --json
expect_json .solutions 2279184
expect_json .units.resumed "$done_units"
rm -rf "$ckdir"

# --- sudoku: the grid as rows of digits, JSON boards as lists of strings ---
run 0 configs/sudoku.yaml
[ "$(head -n 1 "$out")" = "839465712" ] || fail "sudoku first row: $(head -n 1 "$out")"
run 0 configs/sudoku.yaml --json
expect_json '.boards[0] | join("")' "839465712146782953752391486391824675564173829287659341628537194913248567475916238"
run 3 configs/sudoku.yaml --set task=count --set 'params.puzzle=8.........95.......76.........426798...571243...893165......916....3.487....1.532' --set limits.solutions=2 --json
expect_json '[.status, .solutions] | map(tostring) | join(" ")' "limit 2"

# --- sudoku batches: a line per puzzle in input order, bad lines skipped ---
run 0 configs/sudoku-batch.yaml
[ "$(head -n 20 "$out" | sort -u)" = "1" ] || fail "batch: not every puzzle unique: $(head -n 20 "$out" | sort -u | tr '\n' ' ')"
expect_stdout "unique       20"
run 2 tests/data/sudoku-batch-mixed.yaml
[ "$(head -n 5 "$out" | tr '\n' '|')" = "1|invalid|2 or more|no solution|invalid|" ] || fail "mixed batch: $(head -n 5 "$out" | tr '\n' '|')"
[ "$(cat "$err")" = "csearch: tests/data/sudoku_batch_mixed.txt:2:80: puzzle cell 80 (row 9, column 8): 'x' is not a digit of a 9 x 9 grid
csearch: tests/data/sudoku_batch_mixed.txt:5:1: puzzle has 11 cells: not a square grid from 4 x 4 to 25 x 25 (81 for 9 x 9)" ] || fail "mixed batch stderr: $(cat "$err")"
expect_stdout "invalid      2"
run 2 tests/data/sudoku-batch-mixed.yaml --json
expect_json '[.summary.instances, .summary.unique, .summary.multiple, .summary.no_solution, .summary.invalid] | map(tostring) | join(" ")' "5 1 1 1 2"
expect_json '.results[1].invalid' "puzzle cell 80 (row 9, column 8): 'x' is not a digit of a 9 x 9 grid"
# blank lines are skipped but counted: errors keep the file's line numbers
run 2 configs/sudoku-batch.yaml --set params.file=tests/data/sudoku_batch_blank.txt --set output.stats=false
[ "$(tr '\n' '|' <"$out")" = "1|1|invalid|" ] || fail "blank lines: $(tr '\n' '|' <"$out")"
[ "$(cat "$err")" = "csearch: tests/data/sudoku_batch_blank.txt:5:1: puzzle has 1 cells: not a square grid from 4 x 4 to 25 x 25 (81 for 9 x 9)" ] || fail "blank lines stderr: $(cat "$err")"
# a node limit stops puzzles short: said so, exit 3
run 3 configs/sudoku-batch.yaml --set limits.nodes=3 --set limits.solutions=0
expect_stdout "stopped by a limit (0 found)"
expect_stdout "limited      17"
# nothing to check is an error, not an empty success
run 2 configs/sudoku-batch.yaml --set params.file=tests/data/bad/empty.txt
[ "$(cat "$err")" = "csearch: --set params.file=tests/data/bad/empty.txt: 'tests/data/bad/empty.txt' holds no puzzle" ] || fail "empty batch: $(cat "$err")"
# threads share the puzzles out; the results keep the input order
run 0 configs/sudoku-batch.yaml --set task=solve --set output.stats=false
cp "$out" "$out.one"
run 0 configs/sudoku-batch.yaml --set task=solve --set output.stats=false --threads 2
cmp -s "$out" "$out.one" || fail "batch with 2 threads differs from 1 thread"
[ "$(wc -l <"$out")" = 20 ] || fail "batch solve: $(wc -l <"$out") lines"
rm -f "$out.one"

# --- sudoku's fast 9 x 9 kernel: chosen by itself, same answers ---
# auto takes it for a plain 9 x 9 grid whatever propagate says, but not
# under a trace (its steps name cells and show boards: the general path's)
for p in none singles full; do
    run 0 configs/sudoku.yaml --set strategy.propagate=$p --set strategy.select=in-order --json
    expect_json '.strategy.kernel' "fast"
done
run 3 configs/sudoku.yaml --set limits.nodes=2 --trace
expect_stdout "kernel     generic"
sed -n 2p "$out" | grep -q "^ 1  r1c1 = 3 .*filled 23/81" || fail "a traced 9 x 9 grid runs the general path: $(sed -n 2p "$out")"
run 0 configs/sudoku.yaml --set strategy.propagate=full --json
expect_json '.strategy.kernel' "fast"
expect_json '.boards[0] | join("")' "839465712146782953752391486391824675564173829287659341628537194913248567475916238"
run 0 configs/sudoku.yaml --set strategy.propagate=full
expect_stdout "kernel     fast"
run 0 configs/sudoku.yaml --set strategy.propagate=full --set strategy.kernel=generic
expect_stdout "kernel     generic"
# a count split into work units on two threads: the engine's, unchanged
run 0 configs/sudoku.yaml --set task=count --set 'params.puzzle=....3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........' --set strategy.propagate=full --threads 2 --json
expect_json '[.strategy.kernel, .solutions, .nodes] | map(tostring) | join(" ")' "fast 7465 15821"
run 2 configs/sudoku.yaml --set strategy.kernel=fast --set strategy.propagate=singles
[ "$(cat "$err")" = "csearch: --set strategy.kernel=fast: kernel fast needs propagate full" ] || fail "kernel fast with singles: $(cat "$err")"
run 0 configs/sudoku-batch.yaml --set strategy.propagate=full --set task=solve --set output.stats=false
cp "$out" "$out.generic"
run 0 configs/sudoku-batch.yaml --set strategy.propagate=full --set task=solve --set output.stats=false --threads 2
cmp -s "$out" "$out.generic" || fail "fast batch with 2 threads differs from the general path"
rm -f "$out.generic"
run 0 configs/sudoku-fast.yaml --json
expect_json '[.strategy.kernel, .summary.unique, .summary.guesses_per_instance] | map(tostring) | join(" ")' "fast 20 136.65"
# bad lines say the same on the fast path
run 2 tests/data/sudoku-batch-mixed.yaml --set strategy.propagate=full
[ "$(head -n 5 "$out" | tr '\n' '|')" = "1|invalid|2 or more|no solution|invalid|" ] || fail "fast mixed batch: $(head -n 5 "$out" | tr '\n' '|')"
[ "$(cat "$err")" = "csearch: tests/data/sudoku_batch_mixed.txt:2:80: puzzle cell 80 (row 9, column 8): 'x' is not a digit of a 9 x 9 grid
csearch: tests/data/sudoku_batch_mixed.txt:5:1: puzzle has 11 cells: not a square grid from 4 x 4 to 25 x 25 (81 for 9 x 9)" ] || fail "fast mixed batch stderr: $(cat "$err")"
# auto sends a 4 x 4 line down the general path; kernel fast refuses it
run 0 configs/sudoku-batch.yaml --set params.file=tests/data/sudoku_batch_sizes.txt --set strategy.propagate=full --set output.stats=false
[ "$(tr '\n' '|' <"$out")" = "1|1|1|" ] || fail "sizes batch: $(tr '\n' '|' <"$out")"
run 2 configs/sudoku-batch.yaml --set params.file=tests/data/sudoku_batch_sizes.txt --set strategy.propagate=full --set strategy.kernel=fast --set output.stats=false
[ "$(tr '\n' '|' <"$out")" = "1|invalid|1|" ] || fail "sizes batch, kernel fast: $(tr '\n' '|' <"$out")"
[ "$(cat "$err")" = "csearch: tests/data/sudoku_batch_sizes.txt:2:1: kernel fast needs a 9 x 9 grid, not 4 x 4" ] || fail "sizes batch stderr: $(cat "$err")"

# --- local search (issue 13): chosen by n, verified, columns to a file ---
# queens_ok FILE N: FILE holds N lines, a permutation of 1..N with no two
# queens on a diagonal (a check of the test's own, in awk)
queens_ok() {
    awk -v n="$2" '{ r = NR; c = $1; if (c < 1 || c > n || (c in col) || ((r + c) in up) || ((r - c) in down)) bad = 1; col[c]; up[r + c]; down[r - c] }
        END { exit (bad || NR != n) }' "$1"
}
for n in 35 98 128 1000; do
    run 0 configs/nqueens.yaml --set task=solve --set params.n=$n --json
    expect_json '[.search, .strategy.local, .status, .solutions, .conflicts] | map(tostring) | join(" ")' "min-conflicts min-conflicts complete 1 0"
    run 0 configs/nqueens.yaml --set task=solve --set params.n=$n --set output.format=columns --set output.file="$tmp/q.txt"
    expect_stdout "search     min-conflicts"
    queens_ok "$tmp/q.txt" $n || fail "n = $n: the columns are no solution"
done
run 0 configs/nqueens.yaml --set task=solve --json
expect_json '[.strategy.local, .nodes] | map(tostring) | join(" ")' "none 114"
run 0 configs/nqueens.yaml --set task=solve --set output.format=columns
[ "$(head -n 8 "$out" | tr '\n' ' ')" = "1 5 8 6 3 7 2 4 " ] || fail "columns of n = 8: $(head -n 8 "$out" | tr '\n' ' ')"
run 0 configs/nqueens.yaml --set task=solve --set params.n=65
expect_stderr "csearch: the board is not drawn: 65 rows are more than the 64 of a Q/. board; output.format: columns writes it (output.file: PATH sends it to a file)"
expect_stdout "conflicts  0"
run 0 configs/nqueens.yaml --set task=solve --set params.n=5000 --set strategy.seed=9 --json
steps=$(jq .steps "$out")
run 0 configs/nqueens.yaml --set task=solve --set params.n=5000 --set strategy.seed=9 --json
expect_json .steps "$steps"
run 3 configs/nqueens.yaml --set task=solve --set params.n=2000 --set strategy.walk=1 --set limits.steps=2000000 --progress
grep -q "csearch: steps [0-9]*  conflicts [0-9]*  .* steps/s  elapsed" "$err" || fail "local progress line: $(head -c 300 "$err")"
run 3 configs/nqueens.yaml --set task=solve --set params.n=1000000 --set limits.steps=5 --json
expect_json '[.status, .steps, .solutions, (.conflicts > 0)] | map(tostring) | join(" ")' "limit 5 0 true"
for bad in \
    "--set task=solve --set params.n=2 --set strategy.local=min-conflicts|--set params.n=2: n = 2 has no solution: local search would never end (strategy.local: none proves it)" \
    "--set params.n=30 --set strategy.local=min-conflicts|--set strategy.local=min-conflicts: local search finds one solution: it needs task solve" \
    "--set task=solve --set output.file=/nonexistent/q.txt|--set output.file=/nonexistent/q.txt: cannot write '/nonexistent/q.txt': No such file or directory" \
    "--set task=solve --json --set output.file=$tmp/q.txt|--set output.file=$tmp/q.txt: output.file takes the solutions of format text, csv, columns or html; JSON keeps them in its object"; do
    args=${bad%%|*}
    # shellcheck disable=SC2086
    run 2 configs/nqueens.yaml $args
    expect_stderr "csearch: ${bad#*|}"
done
run 2 configs/sudoku.yaml --set task=solve --set output.format=columns
expect_stderr "csearch: --set output.format=columns: model sudoku cannot write columns with these settings (its search keeps no value per variable)"
run 2 configs/sudoku.yaml --set task=solve --set strategy.local=min-conflicts
expect_stderr "csearch: --set strategy.local=min-conflicts: model sudoku has no local search with these settings"

# --- the kernels' instruction set: measured, or named by CSEARCH_ISA ---
has_flags() { for f in "$@"; do grep -qw "$f" /proc/cpuinfo || return 1; done; }
CSEARCH_ISA=scalar run 0 configs/nqueens.yaml --set params.n=16 --json
expect_json '[.strategy.kernel, .isa, .isa_reason, .solutions, .unique] | map(tostring) | join(" ")' "halves scalar CSEARCH_ISA 14772512 null"
scalar_nodes=$(jq .nodes "$out")
if has_flags avx2 popcnt; then
    CSEARCH_ISA=avx2 run 0 configs/nqueens.yaml --set params.n=16 --json
    expect_json '[.isa, .solutions, .nodes] | map(tostring) | join(" ")' "avx2 14772512 $scalar_nodes"
    run 0 configs/nqueens.yaml --set params.n=16 --json
    expect_json '[.isa_reason, .solutions, .nodes] | map(tostring) | join(" ")' "measured 14772512 $scalar_nodes"
fi
reason=only; has_flags avx512f avx512cd && reason=measured
run 0 configs/nqueens.yaml --set params.n=12
expect_line "kernel     fast"
grep -Eq "^isa        (avx512|scalar) \($reason\)$" "$out" || fail "n = 12: no isa line with ($reason)"
CSEARCH_ISA=scalar run 0 configs/nqueens.yaml --set params.n=12
expect_line "isa        scalar (CSEARCH_ISA)"
CSEARCH_ISA=avx3 run 2 configs/nqueens.yaml --set params.n=12
expect_stderr "csearch: CSEARCH_ISA=avx3: unknown instruction set (avx512, avx2 or scalar)"
[ ! -s "$out" ] || fail "CSEARCH_ISA=avx3: stdout not empty"
if ! has_flags avx512f avx512cd avx512_vpopcntdq; then
    CSEARCH_ISA=avx512 run 2 configs/nqueens.yaml --set params.n=12
    grep -q "^csearch: CSEARCH_ISA=avx512: this processor lacks avx512" "$err" || fail "CSEARCH_ISA=avx512 beyond the processor not refused"
fi
# the Sudoku kernel: AVX-512 or scalar, measured where the processor has
# AVX-512 F (either may win), the same tree
run 0 configs/sudoku-batch.yaml --json
if has_flags avx512f; then
    expect_json '.isa_reason' measured
    expect_json '.isa == "avx512" or .isa == "scalar"' true
else
    expect_json '[.isa, .isa_reason] | join(" ")' "scalar only"
fi
sdk_nodes=$(jq '[.results[].nodes] | add' "$out")
CSEARCH_ISA=scalar run 0 configs/sudoku-batch.yaml --json
expect_json '[.isa, .isa_reason, ([.results[].nodes] | add)] | map(tostring) | join(" ")' "scalar CSEARCH_ISA $sdk_nodes"
CSEARCH_ISA=avx3 run 2 configs/sudoku.yaml
expect_stderr "csearch: CSEARCH_ISA=avx3: unknown instruction set (avx512, avx2 or scalar)"

# --- every config in configs/ runs ---
for config in configs/*.yaml; do
    case $config in
    configs/nqueens-million.yaml) # writes its million columns: here, to $tmp
        run 0 "$config" --set output.file="$tmp/million.txt"
        expect_stdout "conflicts  0"
        queens_ok "$tmp/million.txt" 1000000 || fail "$config: the columns are no solution"
        continue ;;
    configs/compare-*) continue ;; # cli_compare_test.sh runs them at small n
    configs/shifts-instance*.yaml) continue ;; # minute-long benchmark runs: cli_shifts_test.sh limits them
    esac
    run 0 "$config"
    [ -s "$out" ] || fail "$config printed nothing"
done

cli_finish "CLI"
