#!/usr/bin/env bash
# cli_units_test.sh - slices of work units (--units I:J, --units K/M) and
# `csearch merge`: slice logs merged equal the full run, count for count;
# a killed slice resumes; every mistake is one exact line on stderr, exit 2.
# usage: cli_units_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
counts='[.solutions, .unique, .nodes, .checks, .fails, .max_depth] | map(tostring) | join(" ")'

# --- help ---
run 0 --help
grep -qF -- "--units I:J" "$out" || fail "--help lacks --units"
grep -qF "csearch merge CONFIG [--set KEY=VALUE]... [--json] LOG..." "$out" || fail "--help lacks merge"

# --- the generic split (12-queens, mirror): 2040 units, 440 nodes above ---
g="configs/nqueens.yaml --set params.n=12 --set strategy.symmetry=mirror"
run 0 $g --json
full=$(jq -r "$counts" "$out")
[ "$full" = "14200 null 428095 420995 150265 12" ] || fail "full generic run: $full"

run 0 $g --units 0:700 --checkpoint "$tmp/g0" --json
expect_json '[.units.total, .units.done, .units.first, .units.end] | map(tostring) | join(" ")' "2040 700 0 700"
run 0 $g --units 700:1500 --checkpoint "$tmp/g1"
grep -qxF "units      800/800 of slice 700:1500 (0 resumed, 2040 in all)" "$out" || fail "slice units line: $(grep units "$out")"
# the last slice of a job array may overshoot: cut at the last unit
run 0 $g --units 1500:3000 --checkpoint "$tmp/g2" --json
expect_json '[.units.done, .units.end] | map(tostring) | join(" ")' "540 2040"
[ "$(sed -n 2p "$tmp/g0" | cut -d' ' -f1-4)" = "top solutions=0 unique=0 nodes=440" ] || fail "top line: $(sed -n 2p "$tmp/g0")"

run 0 merge $g "$tmp/g0" "$tmp/g1" "$tmp/g2"
[ "$(grep -v '^seconds\|^nodes/s' "$out")" = "solutions  14200
status     complete
nodes      428095
checks     420995
fails      150265
max depth  12
kernel     generic
units      2040/2040 (2040 resumed)" ] || fail "merge text: $(cat "$out")"
run 0 merge $g --json "$tmp/g2" "$tmp/g0" "$tmp/g1"
[ "$(jq -r "$counts" "$out")" = "$full" ] || fail "merge --json: $(jq -r "$counts" "$out") vs $full"
# the JSON contract: what was counted, how, and in what time
expect_json '[.model, .task, .status, .params.n, .strategy.symmetry, .strategy.kernel, .units.total, .units.done] | map(tostring) | join(" ")' "nqueens count complete 12 mirror generic 2040 2040"
expect_json '.seconds >= 0 and .seconds < 5' true
# nodes/s: this run's nodes, and merge searches none
expect_json .nodes_per_second 0
# logs of another config than the one named are refused
run 2 merge configs/nqueens.yaml --set params.n=11 --set strategy.symmetry=mirror "$tmp/g0" "$tmp/g1" "$tmp/g2"
grep -qx "csearch: merge: the logs belong to another config than configs/nqueens.yaml (fingerprint [0-9a-f]\{16\}, the config [0-9a-f]\{16\})" "$err" || fail "merge of another config: $(cat "$err")"
[ ! -s "$out" ] || fail "merge of another config printed: $(cat "$out")"

# overlapping slices agree; a missing slice is named
run 0 $g --units 600:800 --checkpoint "$tmp/overlap"
run 0 merge $g "$tmp/g0" "$tmp/overlap" "$tmp/g1" "$tmp/g2"
grep -qxF "solutions  14200" "$out" || fail "overlap merge: $(cat "$out")"
run 2 merge $g "$tmp/g0" "$tmp/g2"
expect_stderr "csearch: merge: 800 of 2040 units missing: 700-1499"
[ ! -s "$out" ] || fail "incomplete merge printed a total"

# --- the fast kernel (d4): K/M parts, unique counted ---
k="configs/nqueens.yaml --set params.n=12"
run 0 $k --json
kfull=$(jq -r "$counts" "$out")
[ "$kfull" = "14200 1787 166019 166019 59306 9" ] || fail "full kernel run: $kfull"
for part in 0 1 2; do
    run 0 $k --units $part/3 --checkpoint "$tmp/k$part" --json
    expect_json '.units.total' 730
done
expect_json '[.units.first, .units.end] | map(tostring) | join(" ")' "487 730"
run 0 merge $k --json "$tmp/k0" "$tmp/k1" "$tmp/k2"
[ "$(jq -r "$counts" "$out")" = "$kfull" ] || fail "kernel merge: $(jq -r "$counts" "$out") vs $kfull"
# a slice with no solution is done all the same (exit 0, not 1)
run 0 $k --units 0:1 --checkpoint "$tmp/k-one" --json
expect_json .solutions 0

# --- a slice killed mid-run resumes to the same merge ---
slow="configs/nqueens.yaml --set params.n=13 --set strategy.state=array --set strategy.symmetry=none"
sfull="73712 null 4674890 59815314 1642940 13" # the unsplit run's
"$csearch" $slow --units 0:700 --checkpoint "$tmp/s0" >/dev/null 2>&1 &
pid=$!
# killed once 10 units are logged (polled: the time that takes varies)
for _ in $(seq 500); do
    [ "$(cat "$tmp/s0" 2>/dev/null | wc -l)" -ge 12 ] && break
    sleep 0.002
done
kill -KILL $pid
wait $pid 2>/dev/null
run 0 $slow --units 0:700 --resume "$tmp/s0" --json
resumed=$(jq .units.resumed "$out")
[ "$resumed" -lt 700 ] || fail "slice kill came too late ($resumed/700 resumed)"
run 0 $slow --units 1/2 --checkpoint "$tmp/s1"
run 0 merge $slow --json "$tmp/s0" "$tmp/s1"
[ "$(jq -r "$counts" "$out")" = "$sfull" ] || fail "resumed slice merge: $(jq -r "$counts" "$out") vs $sfull"
[ "$(tail -n +3 "$tmp/s0" | cut -d' ' -f1 | sort | uniq -d | wc -l)" = 0 ] || fail "a unit is logged twice"

# --- mistakes: one line on stderr, exit 2, nothing on stdout ---
run 2 $g --units 0:100
expect_stderr "csearch: a slice of units needs a log: --checkpoint FILE or --resume FILE"
run 2 $g --units 5000:6000 --checkpoint "$tmp/x"
expect_stderr "csearch: units 5000:6000 start beyond the last unit: this count has 2040 units (0:2040)"
[ ! -e "$tmp/x" ] || fail "a refused slice left a log"
# an empty or reversed slice, or a number past 64 bits, never counts all
for bad in 5:3 0:0 5:0; do
    run 2 $g --units $bad --checkpoint "$tmp/x"
    expect_stderr "csearch: units $bad is an empty slice; try 'csearch --help'"
    [ ! -s "$out" ] || fail "--units $bad printed: $(cat "$out")"
done
for bad in 99999999999999999999:1 0:18446744073709551616 1/99999999999999999999; do
    run 2 $g --units $bad --checkpoint "$tmp/x"
    expect_stderr "csearch: --units $bad: a number beyond 2^64-1; try 'csearch --help'"
done
run 2 $g --units 3/3 --checkpoint "$tmp/x"
expect_stderr "csearch: units 3/3: parts are numbered from 0 to 2"
for bad in 3/0 a:b 1:2:3 -1:4 "1: 4" 4; do
    run 2 $g --units "$bad" --checkpoint "$tmp/x"
    expect_stderr "csearch: --units wants I:J or K/M, got '$bad'; try 'csearch --help'"
done
run 2 $g --set task=solve --units 0:1 --checkpoint "$tmp/x"
expect_stderr "csearch: slices of units need task count"
[ ! -s "$out" ] || fail "refused slice printed: $(cat "$out")"
run 2 $g --set limits.nodes=100 --units 0:1 --checkpoint "$tmp/x"
expect_stderr "csearch: slices of units cannot honour limits.nodes or limits.solutions exactly"
run 2 configs/nqueens-trace.yaml --units 0:1 --checkpoint "$tmp/x"
expect_stderr "csearch: a trace follows one search: it cannot be split across slices of units"

run 2 merge
expect_stderr "csearch: merge needs a CONFIG and at least one LOG; try 'csearch --help'"
run 2 merge "$tmp/g0"
expect_stderr "csearch: merge needs a CONFIG and at least one LOG; try 'csearch --help'"
run 2 merge $g --sum "$tmp/g0"
expect_stderr "csearch: unknown merge option '--sum'; try 'csearch --help'"
run 2 merge $g "$tmp/none"
expect_stderr "csearch: $tmp/none: cannot open log: No such file or directory"
: >"$tmp/empty"
run 2 merge $g "$tmp/empty"
expect_stderr "csearch: $tmp/empty: empty log"
# cut inside its header (line 1, then line 2 torn): not "empty"
head -c 30 "$tmp/g0" >"$tmp/cut"
run 2 merge $g "$tmp/cut"
expect_stderr "csearch: $tmp/cut:1:31: the log ends inside its header: its run stopped before it logged a unit"
head -n 1 "$tmp/g0" >"$tmp/cut"
printf 'top sol' >>"$tmp/cut"
run 2 merge $g "$tmp/cut"
expect_stderr "csearch: $tmp/cut:2:8: the log ends inside its header: its run stopped before it logged a unit"
run 2 merge $g "$tmp/g0" "$tmp/k1"
grep -qx "csearch: $tmp/k1:1:1: checkpoint belongs to another config (fingerprint [0-9a-f]\{16\}, the first log [0-9a-f]\{16\})" "$err" || fail "merge of two configs: $(cat "$err")"
cp "$tmp/g1" "$tmp/bad"
sed -i '5s/nodes=\([0-9]\)/nodes=9\1/' "$tmp/bad"
run 2 merge $g "$tmp/g0" "$tmp/bad" "$tmp/g2"
expect_stderr "csearch: $tmp/bad:5:1: corrupt checkpoint line (checksum mismatch)"
# a torn last line: noted, its unit missing unless another log has it
head -c -9 "$tmp/g2" >"$tmp/torn"
run 2 merge $g "$tmp/g0" "$tmp/g1" "$tmp/torn"
[ "$(head -n 1 "$err")" = "csearch: merge: ignored the torn last line of 1 log(s)" ] || fail "torn note: $(cat "$err")"
[ "$(tail -n 1 "$err")" = "csearch: merge: 1 of 2040 units missing: 2039" ] || fail "torn missing: $(cat "$err")"
run 0 merge $g "$tmp/g0" "$tmp/g1" "$tmp/torn" "$tmp/g2"
grep -qxF "solutions  14200" "$out" || fail "torn + full merge: $(cat "$out")"

cli_finish "slice and merge"
