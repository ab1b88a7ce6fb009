#!/usr/bin/env bash
# mpi_test.sh - csearch under mpirun with 4 ranks on this machine: totals
# equal the serial run's, count for count; a batch's output (2 ranks) is
# the serial one's, line for line; a job killed mid-run resumes to the same
# total; a slice run under MPI plus merge equals the full run; rank 0 alone
# prints.  Skipped (exit 77) in a build without MPI.
# usage: mpi_test.sh CSEARCH SOURCE_DIR HAVE_MPI
set -u
. "$(dirname "$0")/cli_lib.sh"
if [ "${3:-}" != 1 ] && [ "${3:-}" != TRUE ] && [ "${3:-}" != ON ]; then
    echo "MPI not built: skipped"
    exit 77
fi
command -v mpirun >/dev/null || { echo "no mpirun: skipped"; exit 77; }
cli_start "$1" "$2"

# Open MPI on loopback: shared memory, more ranks than cores, root allowed
# (CI runs as root).  In the asan build LeakSanitizer stays on: CTest sets
# LSAN_OPTIONS to tests/lsan-mpi.supp, which suppresses what Open MPI's
# libraries leave allocated at exit, so only a leak of csearch's fails.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none # no CMA in containers

# mpi EXPECTED_STATUS ARGS...: csearch on 4 ranks, within 60 s
mpi() {
    local want=$1
    shift
    timeout 60 mpirun -np 4 "$csearch" "$@" >"$out" 2>"$err"
    local got=$?
    [ "$got" = "$want" ] || fail "mpirun -np 4 csearch $* exited $got, expected $want ($(head -c 400 "$err"))"
}
counts='[.solutions, .unique, .nodes, .checks, .fails, .max_depth] | map(tostring) | join(" ")'

# compare CONFIG_ARGS...: the same counts serially and on 4 ranks
compare() {
    "$csearch" "$@" --json >"$out" 2>"$err" || fail "serial csearch $* failed"
    local serial
    serial=$(jq -r "$counts" "$out")
    mpi 0 "$@" --json
    [ "$(jq -s length "$out")" = 1 ] || fail "$*: not exactly one JSON object: $(head -c 300 "$out")"
    [ "$(jq -r "$counts" "$out")" = "$serial" ] || fail "$*: 4 ranks $(jq -r "$counts" "$out"), serial $serial"
    [ "$(jq -r .status "$out")" = complete ] || fail "$*: status $(jq -r .status "$out")"
    [ ! -s "$err" ] || fail "$*: stderr: $(head -c 300 "$err")"
}

# --- totals equal the serial ones: the fast kernel, the generic split ---
for n in 12 13 14; do
    compare configs/nqueens.yaml --set params.n=$n
done
[ "$(jq -r '[.solutions, .unique, .units.done, .units.total] | map(tostring) | join(" ")' "$out")" = "365596 45752 1632 1632" ] || fail "n = 14: $(head -c 300 "$out")"
compare configs/nqueens.yaml --set params.n=13 --set strategy.symmetry=mirror
compare configs/nqueens.yaml --set params.n=12 --set strategy.symmetry=mirror --threads 2
# another model: every filling of an empty 4 x 4 Sudoku
compare configs/sudoku.yaml --set task=count --set params.puzzle=................

# --- batches: the ranks share the instances, rank 0 prints them in input
# order: the serial run's output byte for byte, each puzzle's limits its
# own (mpirun -np 2, as a user types it) ---
# steady FILE: a batch's output but the clock (seconds, per second) and
# the instruction set chosen by timing at start-up (on Zen 4 the Sudoku
# kernel's two paths are within 3%: a serial run and a rank chose apart)
steady() {
    if [ "$(head -c 1 "$1")" = "{" ]; then
        jq -c 'del(.summary.seconds, .summary.per_second, .isa)' "$1"
    else
        grep -Ev '^seconds|^per second' "$1"
    fi
}
# batch_compare EXPECTED_STATUS ARGS...: stdout equal but for the clock,
# stderr equal
batch_compare() {
    local want=$1
    shift
    "$csearch" "$@" >"$tmp/serial" 2>"$tmp/serial.err"
    local got=$?
    [ "$got" = "$want" ] || fail "serial csearch $* exited $got, expected $want"
    timeout 60 mpirun -np 2 "$csearch" "$@" >"$out" 2>"$err"
    got=$?
    [ "$got" = "$want" ] || fail "mpirun -np 2 csearch $* exited $got, expected $want ($(head -c 300 "$err"))"
    [ "$(steady "$out")" = "$(steady "$tmp/serial")" ] || fail "mpirun -np 2 csearch $*: stdout differs from the serial run's: $(diff "$tmp/serial" "$out" | head -c 300)"
    [ "$(grep '^csearch:' "$err")" = "$(cat "$tmp/serial.err")" ] || fail "mpirun -np 2 csearch $*: stderr $(head -c 300 "$err")"
}
batch_compare 0 configs/sudoku-batch.yaml
[ "$(head -n 21 "$out" | tr '\n' '|')" = "$(printf '1|%.0s' $(seq 20))|" ] || fail "batch under MPI: $(head -c 200 "$out")"
expect_line "unique       20"
batch_compare 0 configs/sudoku-batch.yaml --set task=solve --quiet
batch_compare 3 configs/sudoku-batch.yaml --set limits.nodes=100 --quiet
[ "$(grep -c 'stopped by a limit' "$out")" = 14 ] || fail "batch node limit under MPI: $(head -c 300 "$out")"
batch_compare 2 tests/data/sudoku-batch-mixed.yaml --set task=rate --quiet
[ "$(sed -n 3,4p "$out" | tr '\n' '|')" = "2 or more|no solution|" ] || fail "rate under MPI: $(head -c 300 "$out")"
batch_compare 0 configs/sudoku-generate.yaml --set params.count=300 --json
[ "$(jq -r '.results[].puzzle' "$out" | sort -u | wc -l)" = 300 ] || fail "generate under MPI: not 300 puzzles"
# a rank that cannot set the batch up is reported by rank 0
timeout 60 mpirun -np 1 "$csearch" configs/sudoku-batch.yaml : \
    -np 1 "$csearch" configs/sudoku-batch.yaml --set params.file="$tmp/none.txt" >"$out" 2>"$err"
[ $? = 2 ] || fail "a rank without its batch file: exit status not 2"
[ "$(grep '^csearch:' "$err")" = "csearch: rank 1 of 2: --set params.file=$tmp/none.txt: cannot open '$tmp/none.txt': No such file or directory" ] || fail "rank without batch file: $(cat "$err")"

# text output and exit status come from rank 0 alone
mpi 1 configs/nqueens.yaml --set params.n=3
[ "$(grep -c '^solutions  0$' "$out")" = 1 ] || fail "n = 3: $(cat "$out")"
mpi 2 configs/nqueens.yaml --set params.nn=3
[ "$(grep '^csearch:' "$err")" = "csearch: --set params.nn=3: unknown key 'params.nn'; did you mean 'params.n'?" ] || fail "bad key under MPI: $(cat "$err")"
[ ! -s "$out" ] || fail "bad key under MPI printed: $(cat "$out")"

# refusals name the MPI ranks as what splits the count
mpi 2 configs/nqueens-trace.yaml
[ "$(grep '^csearch:' "$err")" = "csearch: a trace follows one search: it cannot be split across MPI ranks" ] || fail "trace under MPI: $(cat "$err")"
mpi 2 configs/nqueens.yaml --set params.n=8 --set limits.nodes=100
[ "$(grep '^csearch:' "$err")" = "csearch: MPI ranks cannot honour limits.nodes or limits.solutions exactly" ] || fail "node limit under MPI: $(cat "$err")"

# a rank that cannot join is reported by rank 0 (mpirun A : B gives ranks
# different arguments, as different nodes may see different files)
timeout 60 mpirun -np 2 "$csearch" configs/nqueens.yaml --set params.n=10 : \
    -np 2 "$csearch" "$tmp/missing.yaml" >"$out" 2>"$err"
[ $? = 2 ] || fail "a rank without its config: exit status not 2"
[ "$(grep '^csearch:' "$err")" = "csearch: rank 2 of 4: $tmp/missing.yaml: cannot open: No such file or directory" ] || fail "rank without config: $(cat "$err")"
[ ! -s "$out" ] || fail "rank without config: stdout $(cat "$out")"
timeout 60 mpirun -np 1 "$csearch" configs/nqueens.yaml --set params.n=10 : \
    -np 1 "$csearch" configs/nqueens.yaml --set params.n=11 >"$out" 2>"$err"
[ $? = 2 ] || fail "ranks with two configs: exit status not 2"
grep -qx "csearch: rank 1 of 2 runs another config (fingerprint [0-9a-f]\{16\}, rank 0 [0-9a-f]\{16\})" "$err" || fail "two configs: $(cat "$err")"

# a time limit stops every rank; only whole units are logged
mpi 3 configs/nqueens.yaml --set params.n=16 --set strategy.symmetry=mirror \
    --set limits.seconds=0.5 --checkpoint "$tmp/limit" --json
[ "$(jq -r .status "$out")" = limit ] || fail "time limit: status $(jq -r .status "$out")"
done_units=$(jq .units.done "$out")
[ "$done_units" -lt 1118 ] || fail "time limit: all units done"
[ "$(($(wc -l <"$tmp/limit") - 2))" = "$done_units" ] || fail "time limit: $done_units units done, $(($(wc -l <"$tmp/limit") - 2)) logged"

# --- Ctrl-C, then a job killed mid-run, resume to the same total ---
slow="configs/nqueens.yaml --set params.n=14 --set strategy.state=array --set strategy.symmetry=none"
full="365596 null 27358553 377901398 9665096 14" # the serial run's
# wait_logged PID LINES: until the checkpoint holds LINES lines (start-up
# time varies with the load)
wait_logged() {
    for _ in $(seq 400); do
        [ "$(cat "$tmp/ck" 2>/dev/null | wc -l)" -ge "$2" ] && break
        kill -0 "$1" 2>/dev/null || break
        sleep 0.025
    done
}
# Ctrl-C: mpirun passes it on to every rank as SIGTERM; rank 0 stops the
# count, logs and prints what is finished.  Open MPI's mpirun itself exits
# 1 after a Ctrl-C whatever its ranks return (the ranks exit 130).  mpirun
# takes about half a second to pass it on, longer than the rest of a 4-rank
# n = 14 count here: this one counts n = 15 (several seconds) and is
# stopped long before its end.
mpirun -np 4 "$csearch" ${slow/params.n=14/params.n=15} --checkpoint "$tmp/ck" --json >"$out" 2>"$err" &
pid=$!
wait_logged $pid 22
kill -INT $pid
wait $pid
got=$?
[ "$got" = 1 ] || [ "$got" = 130 ] || fail "Ctrl-C under mpirun: exit status $got"
[ "$(jq -s length "$out")" = 1 ] || fail "Ctrl-C under mpirun: not one JSON object: $(head -c 300 "$out")"
[ "$(jq -r .status "$out")" = interrupted ] || fail "Ctrl-C under mpirun: status $(jq -r .status "$out")"
interrupted=$(jq .units.done "$out")
[ "$interrupted" -lt "$(jq .units.total "$out")" ] || fail "Ctrl-C under mpirun came too late"
[ "$(($(wc -l <"$tmp/ck") - 2))" = "$interrupted" ] || fail "Ctrl-C under mpirun: $interrupted units done, $(($(wc -l <"$tmp/ck") - 2)) logged"
# a fresh job, rank 0 (the writer) killed once 20 units are logged
# (SIGKILL: a crash; mpirun ends the others), then resumed.
rm -f "$tmp/ck"
mpirun -np 4 "$csearch" $slow --checkpoint "$tmp/ck" --json >"$out" 2>"$err" &
pid=$!
wait_logged $pid 22
for child in $(pgrep -P $pid); do
    if tr '\0' '\n' </proc/$child/environ 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=0; then
        kill -KILL "$child"
    fi
done
wait $pid 2>/dev/null
logged=$(($(wc -l <"$tmp/ck") - 2))
# resumed on 2 ranks: the rank count is not part of the config
timeout 60 mpirun -np 2 "$csearch" $slow --resume "$tmp/ck" --json >"$out" 2>"$err" ||
    fail "resume on 2 ranks: $(head -c 300 "$err")"
[ "$(jq -r "$counts" "$out")" = "$full" ] || fail "killed and resumed: $(jq -r "$counts" "$out"), serial $full"
resumed=$(jq .units.resumed "$out")
total=$(jq .units.total "$out")
[ "$resumed" -gt 0 ] && [ "$resumed" -lt "$total" ] || fail "kill not mid-run: $resumed of $total resumed ($logged logged)"
[ "$(($(wc -l <"$tmp/ck") - 2))" = "$total" ] || fail "checkpoint does not hold each unit once"
[ "$(tail -n +3 "$tmp/ck" | cut -d' ' -f1 | sort | uniq -d | wc -l)" = 0 ] || fail "a unit is logged twice"

# --- slices under MPI, merged, equal the full run ---
mpi 0 $slow --units 0/2 --checkpoint "$tmp/s0" --json
[ "$(jq -r '[.units.first, .units.end, .units.done] | map(tostring) | join(" ")' "$out")" = "0 682 682" ] || fail "slice 0/2: $(jq -c .units "$out")"
mpi 0 $slow --units 1/2 --checkpoint "$tmp/s1"
"$csearch" merge $slow --json "$tmp/s0" "$tmp/s1" >"$out" 2>"$err" || fail "merge: $(cat "$err")"
[ "$(jq -r "$counts" "$out")" = "$full" ] || fail "slices merged: $(jq -r "$counts" "$out"), serial $full"
# and the MPI checkpoint merges with them, unit for unit
"$csearch" merge $slow "$tmp/s0" "$tmp/ck" "$tmp/s1" >"$out" 2>"$err" || fail "merge with the checkpoint: $(cat "$err")"

# --- README's mpirun block runs as pasted (the binary: this build's) ---
mkdir "$tmp/readme" && ln -s "$PWD/configs" "$tmp/readme/configs"
sed -n '/^mpirun -np 2 build/,/^```/p' README.md | sed '$d' |
    sed "s|build/framework/csearch|$csearch|g" >"$tmp/readme.sh"
[ "$(wc -l <"$tmp/readme.sh")" = 3 ] || fail "README mpirun block not found: $(cat "$tmp/readme.sh")"
(cd "$tmp/readme" && timeout 120 bash -e "$tmp/readme.sh") >"$out" 2>"$err" || fail "README mpirun block: $(head -c 300 "$err")"
[ "$(grep -c '^solutions  14772512$' "$out")" = 1 ] || fail "README mpirun: n=16 total: $(head -c 300 "$out")"
[ "$(tail -n +1 "$out" | grep -c '^solutions  365596$')" = 1 ] || fail "README merge total: $(tail -c 300 "$out")"

cli_finish "MPI"
